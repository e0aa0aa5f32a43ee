"""The grading report as one offline HTML page: summary, chart, and every item, streamed.

Item rows are streamed into the file, so a report of a large batch does not hold the batch in
memory. Each item expands to show its graded output (read back from the input file by byte
offset, so the outputs are never all in memory) and every verdict with its confidence and gap.
Items with a verdict the judge was unsure of come first, and their unsure verdicts first within
them: those are the ones a person should read. The rest are spooled to a temporary file
meanwhile.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from .._batch._items import ItemId, ItemResult
from .._batch._streaming import JsonLine, iter_jsonl
from .._batch._summary import CriterionStats, GradeSummary
from .._types import CriterionVerdict
from ._html import CSP, CSS, esc

__all__ = ["write_html_report"]

MAX_CHART_BARS = 60
_LABEL_CHARS = 48

_SCRIPT = """
(function () {
  var box = document.getElementById("search");
  var onlyFailed = document.getElementById("only-failed");
  var onlyUnsure = document.getElementById("only-unsure");
  var shown = document.getElementById("shown");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#items > tbody > tr"));
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  function apply() {
    var words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row, i) {
      var show = (!onlyFailed.checked || row.getAttribute("data-passed") === "0") &&
        (!onlyUnsure.checked || row.getAttribute("data-unsure") === "1") &&
        words.every(function (w) { return texts[i].indexOf(w) !== -1; });
      row.hidden = !show;
      if (show) { count += 1; }
    });
    shown.textContent = count + " of " + rows.length + " items shown";
  }
  box.addEventListener("input", apply);
  onlyFailed.addEventListener("change", apply);
  onlyUnsure.addEventListener("change", apply);
  apply();
})();
"""


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
        with _Outputs(summary.input_path) as outputs:
            _write_items(out, results, outputs)
        out.write(f"<script>{_SCRIPT}</script>\n</body>\n</html>\n")
    os.replace(partial, target)


def _write_head(out: TextIO, summary: GradeSummary, when: str) -> None:
    name = Path(summary.input_path).name
    out.write(
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Grading report: {esc(name)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<h1>Grading report: {esc(name)}</h1>\n"
        f'<p class="meta">Judge <code>{esc(summary.judge)}</code> ({esc(summary.mode)}) · '
        f"input <code>{esc(summary.input_path)}</code> · results "
        f"<code>{esc(summary.results_path)}</code> · {esc(when)}</p>\n"
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
        ("Unsure verdicts (listed first below)", f"{summary.unsure:,}"),
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
        out.write(f"<tr><th>{esc(label)}</th><td>{esc(value)}</td></tr>\n")
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
            f"<tr><td>{esc(entry.name)}{optional}</td><td><code>{esc(entry.id)}</code></td>"
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
            f'<g class="bar"><title>{esc(tip)}</title>'
            f'<text x="{label_w - 8}" y="{y + bar_h - 5}" text-anchor="end">{esc(label)}</text>'
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
        out.write(f"<li><code>{esc(str(problem))}</code></li>\n")
    if summary.malformed > len(summary.problems):
        out.write(f"<li>… and {summary.malformed - len(summary.problems):,} more</li>\n")
    out.write("</ul>\n</section>\n")


def _write_items(out: TextIO, results: Iterable[ItemResult], outputs: _Outputs) -> None:
    out.write(
        '<section id="items-section">\n<h2>Items</h2>\n<div class="controls">'
        '<input type="search" id="search" placeholder="Search ids, results, criteria, gaps…" '
        'aria-label="Search items">'
        '<label><input type="checkbox" id="only-failed"> only items that did not pass</label>'
        '<label><input type="checkbox" id="only-unsure"> only items with unsure verdicts</label>'
        '<span id="shown" class="muted"></span></div>\n'
        '<p class="muted">Items with a verdict the judge was unsure of come first. Open an item '
        "to read its output and every verdict; P(met) is the judge's probability that the "
        "criterion is met (blank when decided in code or when the model gives none).</p>\n"
        '<table id="items">\n<thead><tr><th>Id</th><th class="num">Line</th><th>Result</th>'
        '<th class="num">Score</th><th>Failed criteria and gaps</th>'
        '<th class="num">Latency</th></tr></thead>\n<tbody>\n'
    )
    with tempfile.TemporaryFile("w+", encoding="utf-8") as later:
        for result in results:
            unsure = any(v.unsure for v in result.criteria)
            (out if unsure else later).write(_row(result, outputs.get(result.id)))
        later.seek(0)
        shutil.copyfileobj(later, out)
    out.write("</tbody>\n</table>\n</section>\n")


def _row(result: ItemResult, output: str | None = None) -> str:
    if result.error is not None:
        detail = f'<span class="error">{esc(result.error)}</span>'
    elif result.failed_criteria:
        items = []
        for verdict in result.failed_criteria:
            optional = " (optional)" if not verdict.required else ""
            items.append(
                f"<li><strong>{esc(verdict.name)}</strong>{esc(optional)}: "
                f'<span class="gap">{esc(verdict.gap)}</span></li>'
            )
        detail = f'<ul class="gaps">{"".join(items)}</ul>'
    else:
        detail = '<span class="muted">none</span>'
    cached = ' <span class="muted">(cached)</span>' if result.cached else ""
    unsure = sum(v.unsure for v in result.criteria)
    return (
        f'<tr data-passed="{int(result.passed)}" data-unsure="{int(unsure > 0)}" '
        f'data-result="{esc(result.result)}">'
        f"<td><code>{esc(str(result.id))}</code></td>"
        f'<td class="num">{result.line}</td>'
        f'<td><span class="badge {esc(result.result)}">{esc(result.result)}</span></td>'
        f'<td class="num">{result.score:g}</td>'
        f"<td>{detail}{_expanded(result, output, unsure)}</td>"
        f'<td class="num">{result.latency_s:.2f} s{cached}</td></tr>\n'
    )


def _expanded(result: ItemResult, output: str | None, unsure: int) -> str:
    """The item's output and every verdict (unsure ones first), folded in a `<details>`."""
    count = len(result.criteria)
    label = f"Output and all {count} verdict{'s' if count != 1 else ''}"
    if unsure:
        label += f" ({unsure} unsure)"
    shown = (
        f'<pre class="output">{esc(output)}</pre>'
        if output is not None
        else '<p class="muted">The output is not in the input file any more.</p>'
    )
    ordered = sorted(result.criteria, key=lambda v: not v.unsure)  # stable: rubric order kept
    rows = "".join(_verdict_row(v) for v in ordered)
    table = (
        '<table class="verdicts"><thead><tr><th>Criterion</th><th>Verdict</th>'
        '<th class="num">P(met)</th><th>Gap</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
        if rows
        else ""
    )
    return f"<details><summary>{esc(label)}</summary>{shown}{table}</details>"


def _verdict_row(verdict: CriterionVerdict) -> str:
    optional = "" if verdict.required else " (optional)"
    word, kind = ("pass", "pass") if verdict.passed else ("fail", "fail")
    if verdict.unsure:
        word += ", unsure"
    how = " (code check)" if verdict.decided_by == "check" else ""
    confidence = "" if verdict.confidence is None else f"{verdict.confidence:.2f}"
    row_class = ' class="unsure"' if verdict.unsure else ""
    return (
        f"<tr{row_class}><td>{esc(verdict.name)}{esc(optional)}</td>"
        f'<td class="{kind}">{esc(word)}<span class="muted">{esc(how)}</span></td>'
        f'<td class="num">{confidence}</td><td class="gap">{esc(verdict.gap)}</td></tr>'
    )


class _Outputs:
    """Outputs read back from the input file by item id: byte offsets in memory, not the text."""

    def __init__(self, input_path: str) -> None:
        self.path = Path(input_path)
        self._offsets: dict[ItemId, int] = {}
        self._file: BinaryIO | None = None

    def __enter__(self) -> _Outputs:
        try:
            self._file = open(self.path, "rb")
        except OSError:
            return self  # the input moved away: the report shows no outputs, and says so
        for entry in iter_jsonl(self.path):
            if isinstance(entry, JsonLine) and isinstance(entry.value, dict):
                item_id = entry.value.get("id")
                if isinstance(item_id, (str, int)) and not isinstance(item_id, bool):
                    self._offsets.setdefault(item_id, entry.offset)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._file is not None:
            self._file.close()

    def get(self, item_id: ItemId) -> str | None:
        """The output of `item_id` as the input file holds it now, or `None`."""
        offset = self._offsets.get(item_id)
        if offset is None or self._file is None:
            return None
        self._file.seek(offset)
        try:
            value: Any = json.loads(self._file.readline())
        except ValueError:
            return None
        output = value.get("output") if isinstance(value, dict) else None
        return output if isinstance(output, str) else None


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
