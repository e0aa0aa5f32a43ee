"""`rubricate agreement`: how well the judge agrees with labelled verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from .._batch._agreement import measure_agreement
from .._batch._statistics import require_sklearn
from .._exceptions import RubricateError
from .._redact import redact
from .._report._agreement_page import write_agreement_report
from .._report._render import agreement_tables
from ._common import (
    EXIT_CODES_HELP,
    CliContext,
    ExitCode,
    JobsOption,
    JudgeFlags,
    RichProgress,
    build_judge,
    fail,
    stderr_console,
    stdout_console,
    takes_flag_groups,
    write_or_fail,
)
from ._ray import (
    RayFlags,
    agreement_on_ray,
)

__all__ = ["register"]

HELP = "\n\n".join(
    [
        "Measure how well the judge agrees with labelled verdicts, criterion by criterion.",
        "Each line of LABELLED.jsonl is an item in the judge-bench format: `id`, `source`, "
        "`task`, `output`, and `criteria`, a list of objects with `id`, `description` and "
        "`label` (true when the output satisfies the criterion). Every item is graded against "
        "its own criteria, and each verdict is compared with its label.",
        "Reports accuracy, balanced accuracy, Cohen's kappa with a bootstrap 95% interval "
        "(resampling items, seeded), the AUROC and expected calibration error of the judge's "
        "confidence (its P(met), where the model gives log-probabilities) and the confusion "
        "counts, overall, per source and per criterion id; --report adds reliability diagrams. "
        "An item the judge fails on is left out of the metrics and counted. "
        "Needs scikit-learn: pip install 'rubricate\\[eval]'.",
        "Examples:",
        "  rubricate agreement judge-bench/realsumm.jsonl --limit 20\n"
        "  rubricate agreement realsumm.jsonl ifeval.jsonl --limit 200 --seed 1 -o agreement.json\n"
        "  rubricate agreement realsumm.jsonl --limit 50 --report agreement.html\n"
        "  rubricate agreement realsumm.jsonl --judge openai:gpt-5-mini -j 8",
        EXIT_CODES_HELP,
    ]
)


def register(app: typer.Typer, context: CliContext) -> None:
    """Add the `agreement` command to `app`."""

    @app.command("agreement", help=HELP, no_args_is_help=True)
    @takes_flag_groups
    def agreement(
        labelled: Annotated[
            list[Path],
            typer.Argument(
                metavar="LABELLED.jsonl...",
                exists=True,
                dir_okay=False,
                readable=True,
                help="One or more labelled JSONL files.",
                show_default=False,
            ),
        ],
        *,
        judge: JudgeFlags,
        limit: Annotated[
            int | None,
            typer.Option(
                "--limit",
                min=1,
                metavar="N",
                help="Grade a random sample of N items (drawn with --seed), not every item.",
                show_default=False,
            ),
        ] = None,
        seed: Annotated[
            int, typer.Option("--seed", metavar="S", help="Seed of the sample and the bootstrap.")
        ] = 0,
        jobs: JobsOption = 1,
        output: Annotated[
            Path | None,
            typer.Option(
                "--output",
                "-o",
                metavar="OUT.json",
                dir_okay=False,
                help="Also write the full report as JSON.",
                show_default=False,
            ),
        ] = None,
        engine: RayFlags,
        html: Annotated[
            Path | None,
            typer.Option(
                "--report",
                metavar="REPORT.html",
                dir_okay=False,
                help=(
                    "Also write a self-contained HTML report (opens offline): the figures and "
                    "a reliability diagram of the judge's confidence, overall and per source."
                ),
                show_default=False,
            ),
        ] = None,
    ) -> None:
        err = stderr_console()
        inputs = {p.resolve() for p in labelled}
        if output is not None and output.resolve() in inputs:
            fail("-o must not be one of the labelled files")
        if html is not None and (
            html.resolve() in inputs or (output is not None and html.resolve() == output.resolve())
        ):
            fail("--report must be a different file from the labelled files and -o")
        try:
            require_sklearn()  # before loading a judge model that could not be used
        except RubricateError as exc:
            fail(str(exc))
        choice = judge.choice(context.judge_factory)
        grader = build_judge(choice, jobs, err)
        progress = RichProgress(err, "Grading labelled items")
        try:
            with progress:
                ray_run = engine.run(choice, jobs)
                if ray_run is not None:
                    report = agreement_on_ray(
                        ray_run, labelled, limit=limit, seed=seed, progress=progress
                    )
                else:
                    report = measure_agreement(
                        labelled,
                        judge=grader,
                        limit=limit,
                        seed=seed,
                        concurrency=jobs,
                        progress=progress,
                    )
        except KeyboardInterrupt:
            err.print(Text("Interrupted: no agreement figures were computed.", style="yellow"))
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
        except RubricateError as exc:
            fail(redact(str(exc)))
        stdout_console().print(agreement_tables(report))
        if output is not None:
            text = json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
            write_or_fail(output, lambda: output.write_text(text, encoding="utf-8"))
            err.print(Text(f"Wrote {output}"))
        if html is not None:
            write_or_fail(html, lambda: write_agreement_report(html, report))
            err.print(Text(f"Report: {html}"))
        raise typer.Exit(int(ExitCode.OK if report.ok else ExitCode.INCOMPLETE))
