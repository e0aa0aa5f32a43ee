"""`rubricate grade`: batch grading of a JSONL file, resumable, with a summary and HTML report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from .._batch._grade import grade_file
from .._batch._items import iter_results
from .._batch._results import default_results_path
from .._exceptions import RubricateError, RubricError
from .._redact import redact
from .._report._grade_page import write_html_report
from .._report._render import grade_summary_tables
from .._rubric._rubric import Rubric
from ._common import (
    EXIT_CODES_HELP,
    CliContext,
    ExitCode,
    JobsOption,
    JudgeFlags,
    RichProgress,
    build_judge,
    fail,
    show_compiled,
    stderr_console,
    stdout_console,
    takes_flag_groups,
    write_or_fail,
)
from ._ray import (
    RayFlags,
    grade_on_ray,
)

__all__ = ["register", "resolve_rubric"]

_RUBRIC_SUFFIXES = frozenset({".md", ".txt", ".yaml", ".yml", ".json"})

HELP = "\n\n".join(
    [
        "Grade every line of a JSONL file against a rubric: concurrent, resumable, cached.",
        "Each input line is a JSON object with `id` (a string or an integer), `output` (the text "
        "to grade), and optionally `task` (the instruction it answers) and `rubric` (checklist "
        "text, a list of criteria, or an object with `criteria`; it overrides --rubric for that "
        "line).",
        "One result line per item is appended to the results file as soon as the item is "
        "graded: id, line, score, passed, result, criteria (each with passed and gap), usage, "
        "latency_s, error, cached. Run the same command again to resume: ids already in the "
        "results file are skipped (delete a line to grade that item again), and Ctrl-C loses no "
        "finished result. Identical items (same rubric, output, task and judge settings) are "
        "graded once. Malformed lines are reported with their line number and skipped; an item "
        "the judge fails on is recorded with its `error`.",
        "Examples:",
        "  rubricate grade outputs.jsonl --rubric rubric.md\n"
        "  rubricate grade outputs.jsonl -r '- Cites a source' -o results.jsonl --report r.html\n"
        "  rubricate grade outputs.jsonl -r rubric.yaml --judge openai:gpt-5-mini -j 8\n"
        "  rubricate grade outputs.jsonl -r rubric.md --engine ray --actors 4  (docs/ray.md)",
        f"{EXIT_CODES_HELP} On 130, rerun the same command to resume.",
    ]
)


def resolve_rubric(value: str) -> Rubric:
    """`--rubric`: a rubric file when it names one (or looks like one), else checklist text."""
    if "\n" not in value:
        path = Path(value).expanduser()
        try:
            is_file = path.is_file()
        except OSError:  # e.g. a long line of text is not a valid file name
            is_file = False
        if is_file or path.suffix.lower() in _RUBRIC_SUFFIXES:
            return Rubric.from_file(path)
    return Rubric.from_text(value, source="--rubric")


def register(app: typer.Typer, context: CliContext) -> None:
    """Add the `grade` command to `app`."""

    @app.command("grade", help=HELP, no_args_is_help=True)
    @takes_flag_groups
    def grade(
        input_path: Annotated[
            Path,
            typer.Argument(
                metavar="INPUT.jsonl",
                exists=True,
                dir_okay=False,
                readable=True,
                help="JSONL file of items to grade.",
                show_default=False,
            ),
        ],
        rubric: Annotated[
            str | None,
            typer.Option(
                "--rubric",
                "-r",
                metavar="RUBRIC",
                help=(
                    "A rubric file (.md, .txt, .yaml, .yml, .json) or checklist text, one "
                    "criterion a line. Needed unless every line has its own `rubric`."
                ),
                show_default=False,
            ),
        ] = None,
        output: Annotated[
            Path | None,
            typer.Option(
                "--output",
                "-o",
                metavar="RESULTS.jsonl",
                dir_okay=False,
                help="Results file, appended to. Default: INPUT.results.jsonl next to the input.",
                show_default=False,
            ),
        ] = None,
        jobs: JobsOption = 1,
        *,
        judge: JudgeFlags,
        report: Annotated[
            Path | None,
            typer.Option(
                "--report",
                metavar="REPORT.html",
                dir_okay=False,
                help=(
                    "Also write a self-contained HTML report (opens offline): summary, pass "
                    "rate per criterion, searchable items with failed criteria and gaps."
                ),
                show_default=False,
            ),
        ] = None,
        engine: RayFlags,
    ) -> None:
        err = stderr_console()
        batch_rubric: Rubric | None = None
        if rubric is not None:
            try:
                batch_rubric = resolve_rubric(rubric)
            except RubricError as exc:
                fail(f"invalid --rubric: {exc}")
            if not batch_rubric:
                fail("--rubric has no criteria")
        results_path = output if output is not None else default_results_path(input_path)
        if results_path.resolve() == input_path.resolve():
            fail("the results file (-o) must not be the input file")
        if report is not None and report.resolve() in {
            results_path.resolve(),
            input_path.resolve(),
        }:
            fail("--report must be a different file from the input and the results")
        choice = judge.choice(context.judge_factory)
        grader = build_judge(choice, jobs, err)
        if judge.compile_checks and batch_rubric is not None:
            show_compiled(grader, batch_rubric, err)
        progress = RichProgress(err, "Grading")
        try:
            with progress:
                ray_run = engine.run(choice, jobs)
                if ray_run is not None:
                    summary = grade_on_ray(
                        ray_run, input_path, results_path, rubric=batch_rubric, progress=progress
                    )
                else:
                    summary = grade_file(
                        input_path,
                        results_path,
                        judge=grader,
                        rubric=batch_rubric,
                        concurrency=jobs,
                        progress=progress,
                    )
        except KeyboardInterrupt:
            err.print(
                Text(
                    f"Interrupted. The {progress.finished} item(s) graded in this run are saved "
                    f"in {results_path}; run the same command again to resume.",
                    style="yellow",
                )
            )
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
        except OSError as exc:
            fail(f"{exc.filename or results_path}: {exc.strerror or exc}")
        except RubricateError as exc:  # Ray missing, or the Ray run failed
            fail(redact(str(exc)))
        stdout_console().print(grade_summary_tables(summary))
        if report is not None:
            write_or_fail(
                report, lambda: write_html_report(report, summary, iter_results(results_path))
            )
            err.print(Text(f"Report: {report}"))
        raise typer.Exit(int(ExitCode.OK if summary.ok else ExitCode.INCOMPLETE))
