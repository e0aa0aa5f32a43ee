"""Rich renderings of the batch commands' report data; `render()` turns one into plain text.

The data (`GradeSummary`, `AgreementReport`) knows nothing of rich; the command line prints
what these functions build, and tests read it through `render()` at a fixed width.
"""

from __future__ import annotations

from io import StringIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from .._batch._agreement import AgreementReport
from .._batch._statistics import AgreementMetrics
from .._batch._summary import GradeSummary

__all__ = ["agreement_tables", "grade_summary_tables", "render"]

MAX_CRITERIA_ROWS = 50


def render(renderable: RenderableType, *, width: int = 100) -> str:
    """Plain text of a rich renderable, at a fixed width and without colour."""
    console = Console(file=StringIO(), width=width, no_color=True, highlight=False)
    console.print(renderable)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    return str(output)


def grade_summary_tables(summary: GradeSummary) -> Group:
    """The summary table and the pass rate per criterion."""
    table = Table(title="Grading summary", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    now = f"{summary.graded:,} graded now"
    if summary.cache_hits:
        now += f", {summary.cache_hits:,} of them from cache"
    if summary.resumed:
        now += f"; {summary.resumed:,} already in the results file"
    table.add_row("Items", Text(f"{summary.items:,} ({now})"))
    table.add_row(
        "Passed",
        Text(f"{summary.passed:,} of {summary.graded_items:,} graded ({_pct(summary.pass_rate)})"),
    )
    unsure = Text(f"{summary.unsure:,}")
    if summary.unsure:
        unsure.append(
            " verdict(s) the judge was unsure of (`unsure` in the results; listed first in the "
            "HTML report)",
            style="yellow",
        )
    table.add_row("Unsure verdicts", unsure)
    errors = Text(f"{summary.errors:,}")
    if summary.errors:
        errors.append(" item(s) the judge failed on (see `error` in the results)", style="red")
    table.add_row("Errors", errors)
    malformed = Text(f"{summary.malformed:,}")
    if summary.malformed:
        malformed.append(" input line(s) skipped (reported above)", style="yellow")
    table.add_row("Malformed lines", malformed)
    usage = summary.usage
    tokens = f"{usage.input_tokens:,} in + {usage.output_tokens:,} out, {_calls(usage.calls)}"
    if summary.resumed:
        run = summary.run_usage
        tokens += f" (this run: {run.total_tokens:,} tokens, {_calls(run.calls)})"
    table.add_row("Tokens", Text(tokens))
    per_item = f", {summary.wall_s / summary.graded:.2f} s an item" if summary.graded else ""
    table.add_row("Time", Text(f"{summary.wall_s:.1f} s this run{per_item}"))
    table.add_row("Judge", Text(f"{summary.judge} ({summary.mode})"))
    table.add_row("Results", Text(summary.results_path))
    if summary.unreadable_results:
        table.add_row(
            "Unreadable results",
            Text(f"{summary.unreadable_results:,} line(s); their items were graded again"),
        )
    parts: list[RenderableType] = [table]
    if summary.criteria:
        parts.append(_criteria_table(summary))
    return Group(*parts)


def _criteria_table(summary: GradeSummary) -> Table:
    table = Table(title="Pass rate per criterion", title_justify="left")
    table.add_column("Criterion", overflow="fold", min_width=20)
    table.add_column("Id", overflow="ellipsis", no_wrap=True, max_width=24, style="dim")
    table.add_column("Passed", justify="right", no_wrap=True)
    table.add_column("Rate", justify="right", no_wrap=True)
    stats = list(summary.criteria.values())
    for entry in stats[:MAX_CRITERIA_ROWS]:
        name = Text(entry.name)
        if not entry.required:
            name.append(" (optional)", style="dim")
        rate = entry.pass_rate
        table.add_row(
            name,
            Text(entry.id),
            f"{entry.passed:,}/{entry.total:,}",
            Text(_pct(rate), style="green" if (rate or 0) >= 0.5 else "red"),
        )
    if len(stats) > MAX_CRITERIA_ROWS:
        table.caption = f"{len(stats) - MAX_CRITERIA_ROWS} more criteria: see the HTML report"
    return table


def agreement_tables(report: AgreementReport) -> Group:
    """A header line, agreement overall and per source, then per criterion id."""
    sampled = (
        f"{report.items_used:,} of {report.items_available:,} items (seeded sample, seed "
        f"{report.seed})"
        if report.limit is not None
        else f"{report.items_used:,} items"
    )
    criteria = report.overall.criteria if report.overall else 0
    seconds = report.seconds_per_criterion
    header = Text()
    header.append(f"Judge {report.judge} ({report.mode}); {sampled}; {criteria:,} criteria")
    header.append(f"; {report.wall_s:.1f} s")
    if seconds is not None:
        header.append(f" ({seconds:.2f} s a criterion)")
    header.append(f"; {report.usage.total_tokens:,} tokens in {_calls(report.usage.calls)}.")
    if report.errors:
        header.append(
            f"\n{len(report.errors)} item(s) the judge failed on, left out of the metrics: "
            + ", ".join(item_id for item_id, _ in report.errors[:5])
            + (" ..." if len(report.errors) > 5 else ""),
            style="red",
        )
    if report.malformed:
        header.append(f"\n{report.malformed} malformed line(s) skipped.", style="yellow")
    parts: list[RenderableType] = [header]
    if report.overall is None:
        parts.append(Text("No criterion was graded, so there is nothing to measure."))
        return Group(*parts)
    main = _metrics_table("Agreement with the labels", "Group")
    _add_metrics_row(main, "overall", report.overall, bold=True)
    for source, metrics in report.per_source.items():
        _add_metrics_row(main, source, metrics)
    parts.append(main)
    per_criterion = _metrics_table("Per criterion id", "Criterion id")
    for criterion_id, metrics in report.per_criterion.items():
        _add_metrics_row(per_criterion, criterion_id, metrics)
    parts.append(per_criterion)
    parts.append(
        Text(
            "Crit.: criteria compared; Acc.: accuracy; Bal. acc.: balanced accuracy. "
            "Positive = the criterion is satisfied. TP: label and judge say satisfied; FP: only "
            "the judge does; FN: only the label does; TN: neither. Kappa interval: percentile "
            f"bootstrap over items, {report.resamples} resamples, seed {report.seed}; n/a when "
            "undefined (one class only, or too few items). AUROC: how well the judge's "
            "confidence P(met) ranks satisfied above unsatisfied (0.5 is chance); ECE: expected "
            "calibration error, the count-weighted gap between confidence and observed rate over "
            "10 bins (0 is perfect); both over the verdicts with a confidence "
            f"({_scored(report)}).",
            style="dim",
        )
    )
    return Group(*parts)


def _metrics_table(title: str, first: str) -> Table:
    # Compact (no rules between columns, short headers) to fit 80 columns, the width rich uses
    # when the output is piped to a file.
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=(0, 1),
        collapse_padding=True,
        pad_edge=False,
    )
    table.add_column(first, overflow="fold", min_width=12)
    # Items per group are in the JSON (`-o`); criteria are what the metrics count.
    for name in ("Crit.", "Acc.", "Bal. acc.", "Kappa [95% CI]", "AUROC", "ECE", "TP/FP/FN/TN"):
        table.add_column(name, justify="right", no_wrap=True)
    return table


def _add_metrics_row(table: Table, name: str, m: AgreementMetrics, *, bold: bool = False) -> None:
    kappa = "n/a" if m.kappa is None else f"{m.kappa:.2f}"
    if m.kappa_ci is not None:
        kappa += f" [{m.kappa_ci[0]:.2f}, {m.kappa_ci[1]:.2f}]"
    table.add_row(
        Text(name, style="bold" if bold else ""),
        f"{m.criteria:,}",
        f"{m.accuracy:.3f}",
        _num(m.balanced_accuracy),
        kappa,
        _num(m.auroc, 2),
        _num(m.ece, 2),
        f"{m.tp}/{m.fp}/{m.fn}/{m.tn}",
    )


def _scored(report: AgreementReport) -> str:
    overall = report.overall
    scored = overall.calibration.scored if overall and overall.calibration else 0
    total = overall.criteria if overall else 0
    return f"{scored:,} of {total:,}"


def _calls(count: int) -> str:
    return f"{count:,} call" if count == 1 else f"{count:,} calls"


def _num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"
