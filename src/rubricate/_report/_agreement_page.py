"""The agreement report as one offline HTML page: its figures and a reliability diagram a group."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Sequence
from pathlib import Path

from .._batch._agreement import AgreementReport
from .._batch._statistics import AgreementMetrics
from ._html import CSP, CSS, esc

__all__ = ["write_agreement_report"]


def write_agreement_report(
    path: str | Path, report: AgreementReport, *, generated_at: dt.datetime | None = None
) -> None:
    """Write the agreement figures and a reliability diagram per group as one offline HTML file.

    The diagram plots, for each confidence bin (`sklearn.calibration.calibration_curve`), the
    mean confidence P(met) against the share of those criteria labelled met: a calibrated judge
    sits on the diagonal. Written next to `path` and moved into place at the end.
    """
    target = Path(path)
    partial = target.with_name(f".{target.name}.partial")
    when = (generated_at or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%d %H:%M UTC")
    groups = [("overall", report.overall)] if report.overall else []
    groups += list(report.per_source.items())
    with open(partial, "w", encoding="utf-8") as out:
        title = f"Judge agreement: {report.judge}"
        out.write(
            '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"<h1>{esc(title)}</h1>\n"
            f'<p class="meta">Judge <code>{esc(report.judge)}</code> ({esc(report.mode)}) · '
            f"{report.items_used:,} of {report.items_available:,} items · files "
            f"{esc(', '.join(report.files))} · seed {report.seed} · {esc(when)}</p>\n"
        )
        out.write('<section id="metrics">\n<h2>Agreement with the labels</h2>\n')
        out.write(_metrics_html(groups, "Group"))
        if report.per_criterion:
            out.write("<h3>Per criterion id</h3>\n")
            out.write(_metrics_html(list(report.per_criterion.items()), "Criterion id"))
        out.write(
            '<p class="muted">Positive = the criterion is satisfied. AUROC: how well the '
            "judge's confidence ranks satisfied above unsatisfied (0.5 is chance). ECE: expected "
            "calibration error over 10 equal-width bins (0 is perfect). Both count only the "
            "verdicts that have a confidence (not code checks, nor models without "
            "log-probabilities).</p>\n</section>\n"
        )
        out.write('<section id="reliability">\n<h2>Reliability diagrams</h2>\n')
        drawn = [(name, m) for name, m in groups if m is not None and m.calibration]
        if not drawn:
            out.write('<p class="muted">No verdict had a confidence, so there is no curve.</p>\n')
        for name, metrics in drawn:
            out.write(_reliability_svg(name, metrics))
        out.write("</section>\n</body>\n</html>\n")
    os.replace(partial, target)


def _metrics_html(groups: Sequence[tuple[str, AgreementMetrics | None]], first: str) -> str:
    head = "".join(
        f'<th class="num">{h}</th>'
        for h in ("Criteria", "Accuracy", "Balanced acc.", "Kappa [95% CI]", "AUROC", "ECE")
    )
    rows = []
    for name, m in groups:
        if m is None:
            continue
        kappa = "n/a" if m.kappa is None else f"{m.kappa:.2f}"
        if m.kappa_ci is not None:
            kappa += f" [{m.kappa_ci[0]:.2f}, {m.kappa_ci[1]:.2f}]"
        cells = (
            f"{m.criteria:,}",
            f"{m.accuracy:.3f}",
            _fmt(m.balanced_accuracy),
            kappa,
            _fmt(m.auroc),
            _fmt(m.ece),
        )
        rows.append(
            f"<tr><td>{esc(name)}</td>"
            + "".join(f'<td class="num">{esc(c)}</td>' for c in cells)
            + "</tr>\n"
        )
    return (
        f"<table><thead><tr><th>{esc(first)}</th>{head}</tr></thead>\n<tbody>\n"
        + "".join(rows)
        + "</tbody>\n</table>\n"
    )


def _reliability_svg(name: str, metrics: AgreementMetrics) -> str:
    """Observed rate against mean confidence per bin, with the diagonal of perfect calibration."""
    assert metrics.calibration is not None
    size, margin = 260, 40
    width = height = size + 2 * margin

    def x(value: float) -> float:
        return margin + value * size

    def y(value: float) -> float:
        return margin + (1 - value) * size

    caption = (
        f"{name}: AUROC {_fmt(metrics.auroc)}, ECE {_fmt(metrics.ece)}, "
        f"{metrics.calibration.scored:,} verdicts with a confidence"
    )
    parts = [
        f'<figure><svg class="reliability" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-label="{esc("Reliability diagram: " + caption)}">',
        f"<title>{esc(caption)}</title>",
        f'<rect x="{margin}" y="{margin}" width="{size}" height="{size}" fill="none" '
        'stroke="#999"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="#bbb" '
        'stroke-dasharray="4 4"/>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<text x="{x(tick):.1f}" y="{y(0) + 16:.1f}" text-anchor="middle">{tick:g}</text>'
            f'<text x="{x(0) - 6:.1f}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>'
        )
    parts.append(
        f'<text x="{x(0.5):.1f}" y="{height - 4}" text-anchor="middle">'
        "judge's confidence P(met)</text>"
        f'<text x="12" y="{y(0.5):.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {y(0.5):.1f})">share labelled met</text>'
    )
    bins = metrics.calibration.bins
    points = " ".join(f"{x(b.confidence):.1f},{y(b.observed):.1f}" for b in bins)
    parts.append(f'<polyline points="{points}" fill="none" stroke="#1565c0" stroke-width="2"/>')
    largest = max(b.count for b in bins)
    for b in bins:
        radius = 3 + 5 * (b.count / largest) ** 0.5
        tip = (
            f"mean confidence {b.confidence:.2f}, labelled met {b.observed:.2f}, "
            f"{b.count:,} verdicts"
        )
        parts.append(
            f'<circle cx="{x(b.confidence):.1f}" cy="{y(b.observed):.1f}" r="{radius:.1f}" '
            f'fill="#1565c0"><title>{esc(tip)}</title></circle>'
        )
    parts.append(f"</svg><figcaption>{esc(caption)}</figcaption></figure>\n")
    return "".join(parts)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
