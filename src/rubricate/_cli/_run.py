"""`rubricate run`: a worker model and the judge in the self-revision loop, with live progress."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .._exceptions import RubricateError, RubricError
from .._judge._evidence import first_user_text, is_feedback, message_text
from .._loop._core import RubricEvaluation
from .._loop._refine import RefineResult, refine
from .._redact import redact
from ._common import (
    CliContext,
    ExitCode,
    JudgeFlags,
    build_judge,
    fail,
    show_compiled,
    stderr_console,
    stdout_console,
    takes_flag_groups,
)
from ._grade import resolve_rubric

__all__ = ["register"]

HELP = "\n\n".join(
    [
        "Run a worker model on TASK and revise its answer until it satisfies the rubric.",
        "After each draft the judge grades every criterion; the criteria not met, with what is "
        "missing, go back to the worker as feedback, until the rubric is satisfied or "
        "--max-iterations grading passes are spent. Progress (each draft, each grading and a "
        "table of verdicts) goes to stderr; the final answer and status to stdout.",
        "RUBRIC is a rubric file (.md, .txt, .yaml, .yml, .json) or checklist text.",
        "Examples:",
        "  rubricate run 'Write a haiku about spring.' -r '- Three lines\\n- About spring'\n"
        "  rubricate run 'Summarise RFC 2119.' -r rubric.md --model openai:gpt-5-mini\n"
        "  rubricate run 'Name three fruits.' -r '- Lists three fruits' --json",
        "Exit codes: 0 the rubric is satisfied; 1 the run ended without satisfying it "
        "(max_iterations_reached, failed, grader_error, budget_exhausted); 2 usage error (bad "
        "option, invalid rubric, a model that cannot be created); 130 interrupted.",
    ]
)


def register(app: typer.Typer, context: CliContext) -> None:
    """Add the `run` command to `app`."""

    @app.command("run", help=HELP, no_args_is_help=True)
    @takes_flag_groups
    def run(
        task: Annotated[
            str, typer.Argument(metavar="TASK", help="What the worker is asked to do.")
        ],
        rubric: Annotated[
            str,
            typer.Option(
                "--rubric", "-r", metavar="RUBRIC", help="A rubric file or checklist text."
            ),
        ],
        model: Annotated[
            str,
            typer.Option(
                "--model",
                metavar="MODEL",
                help="Worker model: 'local' or any LangChain 'provider:model'.",
            ),
        ] = "local",
        *,
        judge: JudgeFlags,
        max_iterations: Annotated[
            int, typer.Option("--max-iterations", min=1, help="Grading passes at most.")
        ] = 3,
        best_draft: Annotated[
            bool,
            typer.Option(
                "--best-draft",
                help="At the cap, answer with the draft that passed the most required criteria.",
            ),
        ] = False,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print a machine-readable result on stdout.")
        ] = False,
    ) -> None:
        progress = stderr_console()
        try:
            parsed = resolve_rubric(rubric.replace("\\n", "\n"))
        except RubricError as exc:
            fail(f"invalid --rubric: {exc}")
        if not parsed:
            fail("the rubric has no criteria")
        try:
            worker = context.model_factory(model)
        except (RubricateError, ValueError, TypeError, ImportError) as exc:
            fail(redact(f"cannot create the model {model!r}: {exc}"))
        grader = build_judge(judge.choice(context.judge_factory), 1, progress)
        if judge.compile_checks:
            show_compiled(grader, parsed, progress)
        try:
            result = refine(
                _Worker(worker, progress),
                task,
                parsed,
                judge=grader,
                max_iterations=max_iterations,
                best_draft=best_draft,
                on_evaluation=lambda record: progress.print(_verdict_table(record)),
                on_event=lambda event: _show_event(progress, event),
            )
        except KeyboardInterrupt:
            progress.print(Text("Interrupted.", style="yellow"))
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
        out = stdout_console()
        if as_json:
            out.print_json(json.dumps(_as_json(result)))
        else:
            style = "green" if result.status == "satisfied" else "red"
            out.print(Panel(result.output or "(empty)", title="final answer", expand=False))
            out.print(
                Text.assemble(
                    ("status: ", "bold"),
                    (str(result.status), style),
                    f" after {result.iterations} grading pass(es)",
                    f" ({result.stop_reason})" if result.stop_reason else "",
                )
            )
        raise typer.Exit(0 if result.status == "satisfied" else int(ExitCode.INCOMPLETE))


class _Worker:
    """The worker model as a `refine` agent, announcing each draft."""

    def __init__(self, model: BaseChatModel, console: Console) -> None:
        self.model = model
        self.console = console
        self.drafts = 0

    def __call__(self, messages: list[BaseMessage]) -> BaseMessage:
        self.drafts += 1
        label = "first draft" if self.drafts == 1 else f"revision {self.drafts - 1}"
        with self.console.status(f"Writing the {label}..."):
            reply = self.model.invoke(revision_request(messages))
        self.console.print(Text(f"{label.capitalize()} written.", style="dim"))
        return reply


def revision_request(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The worker's prompt: the task, or after feedback one request to revise the last answer.

    Small models asked in a follow-up turn tend to repeat their draft word for word; one request
    that holds the task, the previous answer and the grader's feedback (the Self-Refine shape)
    got a revision from the embedded model where five follow-up wordings did not. The answer is
    quoted without the spaces that end its lines (Markdown's hard breaks): with them, the
    embedded model repeated the demo's haiku unchanged on a 2-core AVX-512 machine, and
    without them it revised it.
    """
    last = messages[-1] if messages else None
    if not (isinstance(last, HumanMessage) and is_feedback(last)):
        return messages
    draft = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
    if draft is None:
        return messages
    return [
        HumanMessage(
            f"{first_user_text(messages)}\n\nYour previous answer:\n\n"
            f"{_without_line_ends(message_text(draft))}\n\n{message_text(last)}"
        )
    ]


def _without_line_ends(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines())


def _show_event(console: Console, event: Any) -> None:
    if isinstance(event, dict) and event.get("type") == "rubric_evaluation_start":
        console.print(Text(f"Grading pass {event['iteration'] + 1}...", style="dim"))


def _verdict_table(record: RubricEvaluation) -> Table:
    style = "green" if record["result"] == "satisfied" else "yellow"
    table = Table(
        title=f"Grading pass {record['iteration'] + 1}: [{style}]{record['result']}[/]",
        title_justify="left",
    )
    table.add_column("criterion")
    table.add_column("verdict")
    table.add_column("P(met)", justify="right")
    table.add_column("gap")
    for criterion in record["criteria"]:
        verdict = "[green]pass[/]" if criterion["passed"] else "[red]fail[/]"
        if criterion.get("unsure"):
            verdict += " [yellow](unsure)[/]"
        optional = "" if criterion.get("required", True) else " (optional)"
        confidence = criterion.get("confidence")
        shown = "" if confidence is None else f"{confidence:.2f}"
        table.add_row(criterion["name"] + optional, verdict, shown, criterion.get("gap", ""))
    if not record["criteria"]:
        table.add_row("(no verdicts)", record["result"], "", record["explanation"])
    return table


def _as_json(result: RefineResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "output": result.output,
        "iterations": result.iterations,
        "stop_reason": result.stop_reason,
        "evaluations": result.evaluations,
        "thread_id": result.thread_id,
    }
