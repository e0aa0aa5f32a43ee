"""What every HTML report shares: one offline page, its style, and escaping.

One file, nothing fetched: CSS, JavaScript and charts (inline SVG) are inside it, and a
Content-Security-Policy forbids any network request, so it opens offline and leaks nothing.
Every piece of user text (ids, criteria, gaps, outputs, errors, paths) goes through `esc`.
"""

from __future__ import annotations

from html import escape

__all__ = ["CSP", "CSS", "esc"]

CSS = """
:root { --ok: #2e7d32; --bad: #c62828; --warn: #ef6c00; --muted: #666; --line: #ddd; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 1200px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.meta { color: var(--muted); margin-top: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem;
         border-bottom: 1px solid var(--line); }
th { background: #f6f6f6; position: sticky; top: 0; }
table.kv { width: auto; } table.kv th { position: static; background: none; padding-right: 2rem; }
td.num, th.num { text-align: right; white-space: nowrap; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 3px; color: #fff;
         font-size: 12px; white-space: nowrap; }
.satisfied { background: var(--ok); } .needs_revision, .failed { background: var(--bad); }
.grader_error { background: var(--warn); }
ul.gaps { margin: 0; padding-left: 1.1rem; } .gap { color: #444; }
details { margin-top: .3rem; } summary { cursor: pointer; color: var(--muted); }
pre.output { white-space: pre-wrap; word-break: break-word; background: #f6f6f6;
             padding: .5rem; max-height: 24rem; overflow: auto; font-size: 12px; }
table.verdicts th { position: static; } .unsure { background: #fff3e0; }
.pass { color: var(--ok); } .fail { color: var(--bad); }
.error { color: var(--warn); } .muted { color: var(--muted); }
.controls { display: flex; gap: 1rem; align-items: center; margin: .5rem 0; flex-wrap: wrap; }
input[type=search] { flex: 1; min-width: 16rem; padding: .4rem .6rem; font-size: 14px; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
figure { display: inline-block; margin: 0 1.5rem 1rem 0; }
"""

# No network, ever: nothing but the inline style and script may load.
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def esc(text: str) -> str:
    """`text` HTML-escaped, quotes included (it may stand in an attribute)."""
    return escape(text, quote=True)
