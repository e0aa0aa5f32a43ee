"""Grade two haiku against a rubric on the embedded local model: no key, no network.

Run with `make demo` (installs everything first) or `python examples/grade_haiku.py`.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from rubricate import Criterion, create_rubric_scorer

RUBRIC = [
    Criterion(
        description="The poem has exactly three lines",
        check=lambda ev: (
            len(lines := [ln for ln in ev.output.strip().splitlines() if ln.strip()]) == 3,
            f"It has {len(lines)} lines.",
        ),
    ),
    "The poem is about spring",
    "The poem mentions a flower or a tree",
]

DRAFTS = {
    "spring haiku": "Cherry blossoms fall\nsoft rain on the temple roof\nspring wakes the river",
    "winter poem": "Snow on the road\nthe lake is frozen still\nwe wait by the fire\nall night",
}


def main() -> None:
    console = Console()
    scorer = create_rubric_scorer(model="local", criteria=RUBRIC)
    for title, draft in DRAFTS.items():
        with console.status(f"Grading the {title} on the embedded model..."):
            result = scorer.run(input="Write a haiku about spring.", output=draft)
        evaluation = result.evaluation
        table = Table(title=f"{title}: score {result.score:g}, {evaluation.result}")
        table.add_column("criterion")
        table.add_column("verdict")
        table.add_column("decided by")
        table.add_column("gap")
        for verdict in evaluation.criteria:
            mark = "[green]pass[/]" if verdict.passed else "[red]fail[/]"
            table.add_row(verdict.name, mark, verdict.decided_by, verdict.gap)
        console.print(table)
        usage = evaluation.usage
        console.print(
            f"{usage.calls} judge calls, {usage.input_tokens} input + {usage.output_tokens} "
            f"output tokens, {evaluation.latency_s:.1f} s "
            f"({evaluation.mode} mode, {evaluation.model})\n"
        )


if __name__ == "__main__":
    main()
