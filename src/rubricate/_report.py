"""The self-contained HTML report of a grading batch.

One file, nothing fetched: CSS, JavaScript and the chart (inline SVG) are inside it, and a
Content-Security-Policy forbids any network request, so it opens offline and leaks nothing.
Every piece of user text (ids, criteria, gaps, errors, paths) is HTML-escaped. Item rows are
streamed into the file, so a report of a large batch does not hold the batch in memory.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable
from html import escape
from pathlib import Path
from typing import TextIO

from ._grading import CriterionStats, GradeSummary, ItemResult

__all__ = ["write_html_report"]

MAX_CHART_BARS = 60
_LABEL_CHARS = 48

_CSS = """
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
.error { color: var(--warn); } .muted { color: var(--muted); }
.controls { display: flex; gap: 1rem; align-items: center; margin: .5rem 0; flex-wrap: wrap; }
input[type=search] { flex: 1; min-width: 16rem; padding: .4rem .6rem; font-size: 14px; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
"""

_SCRIPT = """
(function () {
  var box = document.getElementById("search");
  var onlyFailed = document.getElementById("only-failed");
  var shown = document.getElementById("shown");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#items tbody tr"));
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  function apply() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row, i) {
      var show = (!onlyFailed.checked || row.getAttribute("data-passed") === "0") &&
        words.every(function (w) { return texts[i].indexOf(w) !== -1; });
      row.hidden = !show;
      if (show) { count += 1; }
    });
    shown.textContent = count + " of " + rows.length + " items shown";
  }
  box.addEventListener("input", apply);
  onlyFailed.addEventListener("change", apply);
  apply();
})();
"""

# No network, ever: nothing but the inline style and script may load.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def write_html_report(
    path: str | Path,
    summary: GradeSummary,
    results: Iterable[ItemResult],
    *,
    generated_at: dt.datetime | None = None,
) -> None:
    """Write the report: summary, chart of pass rate per criterion, searchable item table.

    The file is written next to `path` and moved into place at the end, so a reader never sees
    half a report.
    """
    target = Path(path)
    partial = target.with_name(f".{target.name}.partial")
    when = (generated_at or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%d %H:%M UTC")
    with open(partial, "w", encoding="utf-8") as out:
        _write_head(out, summary, when)
        _write_summary(out, summary)
        _write_criteria(out, summary)
        _write_problems(out, summary)
        _write_items(out, results)
        out.write(f"<script>{_SCRIPT}</script>\n</body>\n</html>\n")
    os.replace(partial, target)


def _write_head(out: TextIO, summary: GradeSummary, when: str) -> None:
    name = Path(summary.input_path).name
    out.write(
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Grading report: {_e(name)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>Grading report: {_e(name)}</h1>\n"
        f'<p class="meta">Judge <code>{_e(summary.judge)}</code> ({_e(summary.mode)}) · '
        f"input <code>{_e(summary.input_path)}</code> · results "
        f"<code>{_e(summary.results_path)}</code> · {_e(when)}</p>\n"
    )


def _write_summary(out: TextIO, summary: GradeSummary) -> None:
    usage = summary.usage
    rows = [
        ("Items", f"{summary.items:,}"),
        (
            "Passed",
            f"{summary.passed:,} of {summary.graded_items:,} graded ({_pct(summary.pass_rate)})",
        ),
        ("Errors (judge failed)", f"{summary.errors:,}"),
        ("Malformed input lines (this run)", f"{summary.malformed:,}"),
        ("Graded this run", f"{summary.graded:,} ({summary.cache_hits:,} from cache)"),
        ("Already in the results file", f"{summary.resumed:,}"),
        (
            "Tokens",
            f"{usage.input_tokens:,} in + {usage.output_tokens:,} out, {usage.calls:,} calls",
        ),
        ("Time this run", f"{summary.wall_s:.1f} s"),
    ]
    out.write('<section id="summary">\n<h2>Summary</h2>\n<table class="kv">\n')
    for label, value in rows:
        out.write(f"<tr><th>{_e(label)}</th><td>{_e(value)}</td></tr>\n")
    out.write("</table>\n</section>\n")


def _write_criteria(out: TextIO, summary: GradeSummary) -> None:
    out.write('<section id="criteria">\n<h2>Pass rate per criterion</h2>\n')
    stats = list(summary.criteria.values())
    if not stats:
        out.write('<p class="muted">No criterion was graded.</p>\n</section>\n')
        return
    out.write(_chart(stats[:MAX_CHART_BARS]))
    if len(stats) > MAX_CHART_BARS:
        out.write(
            f'<p class="muted">The chart shows the first {MAX_CHART_BARS} of '
            f"{len(stats)} criteria; the table lists them all.</p>\n"
        )
    out.write(
        '<table id="criteria-table">\n<thead><tr><th>Criterion</th><th>Id</th>'
        '<th class="num">Passed</th><th class="num">Rate</th></tr></thead>\n<tbody>\n'
    )
    for entry in stats:
        optional = "" if entry.required else ' <span class="muted">(optional)</span>'
        out.write(
            f"<tr><td>{_e(entry.name)}{optional}</td><td><code>{_e(entry.id)}</code></td>"
            f'<td class="num">{entry.passed:,}/{entry.total:,}</td>'
            f'<td class="num">{_pct(entry.pass_rate)}</td></tr>\n'
        )
    out.write("</tbody>\n</table>\n</section>\n")


def _chart(stats: list[CriterionStats]) -> str:
    """A horizontal bar chart as inline SVG: one bar per criterion, 0-100%."""
    bar_h, gap, label_w, plot_w, right = 18, 8, 330, 420, 60
    top = 20
    height = top + len(stats) * (bar_h + gap) + 10
    width = label_w + plot_w + right
    parts = [
        f'<svg id="chart" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-label="Pass rate per criterion">',
        "<title>Pass rate per criterion</title>",
    ]
    for tick in (0, 25, 50, 75, 100):
        x = label_w + plot_w * tick / 100
        parts.append(
            f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{height - 10}" stroke="#ddd"/>'
            f'<text x="{x:.1f}" y="{top - 8}" text-anchor="middle">{tick}%</text>'
        )
    for index, entry in enumerate(stats):
        rate = entry.pass_rate or 0.0
        y = top + index * (bar_h + gap)
        label = entry.name if len(entry.name) <= _LABEL_CHARS else entry.name[: _LABEL_CHARS - 1]
        label += "…" if len(entry.name) > _LABEL_CHARS else ""
        colour = "#2e7d32" if rate >= 0.5 else "#c62828"
        tip = f"{entry.name} ({entry.id}): {entry.passed}/{entry.total} passed, {_pct(rate)}"
        parts.append(
            f'<g class="bar"><title>{_e(tip)}</title>'
            f'<text x="{label_w - 8}" y="{y + bar_h - 5}" text-anchor="end">{_e(label)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{plot_w * rate:.1f}" height="{bar_h}" '
            f'fill="{colour}"/>'
            f'<text x="{label_w + plot_w * rate + 6:.1f}" y="{y + bar_h - 5}">{_pct(rate)}</text>'
            "</g>"
        )
    parts.append("</svg>\n")
    return "".join(parts)


def _write_problems(out: TextIO, summary: GradeSummary) -> None:
    if not summary.problems:
        return
    out.write('<section id="problems">\n<h2>Malformed input lines (skipped)</h2>\n<ul>\n')
    for problem in summary.problems:
        out.write(f"<li><code>{_e(str(problem))}</code></li>\n")
    if summary.malformed > len(summary.problems):
        out.write(f"<li>… and {summary.malformed - len(summary.problems):,} more</li>\n")
    out.write("</ul>\n</section>\n")


def _write_items(out: TextIO, results: Iterable[ItemResult]) -> None:
    out.write(
        '<section id="items-section">\n<h2>Items</h2>\n<div class="controls">'
        '<input type="search" id="search" placeholder="Search ids, results, criteria, gaps…" '
        'aria-label="Search items">'
        '<label><input type="checkbox" id="only-failed"> only items that did not pass</label>'
        '<span id="shown" class="muted"></span></div>\n'
        '<table id="items">\n<thead><tr><th>Id</th><th class="num">Line</th><th>Result</th>'
        '<th class="num">Score</th><th>Failed criteria and gaps</th>'
        '<th class="num">Latency</th></tr></thead>\n<tbody>\n'
    )
    for result in results:
        out.write(_row(result))
    out.write("</tbody>\n</table>\n</section>\n")


def _row(result: ItemResult) -> str:
    if result.error is not None:
        detail = f'<span class="error">{_e(result.error)}</span>'
    elif result.failed_criteria:
        items = []
        for verdict in result.failed_criteria:
            optional = " (optional)" if not verdict.required else ""
            items.append(
                f"<li><strong>{_e(verdict.name)}</strong>{_e(optional)}: "
                f'<span class="gap">{_e(verdict.gap)}</span></li>'
            )
        detail = f'<ul class="gaps">{"".join(items)}</ul>'
    else:
        detail = '<span class="muted">none</span>'
    cached = ' <span class="muted">(cached)</span>' if result.cached else ""
    return (
        f'<tr data-passed="{int(result.passed)}" data-result="{_e(result.result)}">'
        f"<td><code>{_e(str(result.id))}</code></td>"
        f'<td class="num">{result.line}</td>'
        f'<td><span class="badge {_e(result.result)}">{_e(result.result)}</span></td>'
        f'<td class="num">{result.score:g}</td>'
        f"<td>{detail}</td>"
        f'<td class="num">{result.latency_s:.2f} s{cached}</td></tr>\n'
    )


def _e(text: str) -> str:
    return escape(text, quote=True)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
