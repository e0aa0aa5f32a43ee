"""What the commands share: flag groups, judge options, consoles, the progress bar, exit codes."""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from langchain_core.language_models import BaseChatModel
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from .._batch._streaming import BatchProgress, LineProblem
from .._exceptions import RubricateError
from .._judge._judge import Judge
from .._judge._options import JudgeOptions
from .._models import resolve_chat_model
from .._redact import redact
from .._rubric._rubric import Rubric
from .._types import Mode

__all__ = [
    "EXIT_CODES_HELP",
    "CarefulOption",
    "CliContext",
    "CompileChecksOption",
    "ContextChoice",
    "ExitCode",
    "ExplainPassesOption",
    "FlagGroup",
    "GuardInjectionsOption",
    "JobsOption",
    "JudgeChoice",
    "JudgeFactory",
    "JudgeFlags",
    "JudgeOption",
    "ModeChoice",
    "ModeOption",
    "ModelFactory",
    "ReadChecksOption",
    "RichProgress",
    "ShowContextOption",
    "build_judge",
    "default_judge_factory",
    "fail",
    "show_compiled",
    "stderr_console",
    "stdout_console",
    "takes_flag_groups",
    "write_or_fail",
]


class ExitCode(enum.IntEnum):
    """Exit codes of the batch commands."""

    OK = 0
    """Every line was graded."""
    INCOMPLETE = 1
    """Some items could not be graded, or malformed input lines were skipped."""
    USAGE = 2
    """Bad arguments, unreadable input, an invalid rubric, or a judge that cannot be created."""
    INTERRUPTED = 130
    """Ctrl-C: finished results are kept."""


EXIT_CODES_HELP = (
    "Exit codes: 0 every line graded; 1 some items could not be graded (judge error) or "
    "malformed input lines were skipped; 2 usage error (bad option, unreadable input, invalid "
    "rubric, judge cannot be created); 130 interrupted."
)

JudgeFactory = Callable[[str, JudgeOptions], Judge]
"""Builds the judge from `--judge` and the options the other judge flags set (`JudgeFlags.options`);
tests pass one that wraps a fake chat model. With `--engine ray` it runs in each actor."""


ModelFactory = Callable[[str], BaseChatModel]
"""Builds the worker model of `rubricate run` from `--model`; tests pass a fake."""


def default_judge_factory(spec: str, options: JudgeOptions) -> Judge:
    """`Judge(spec, **options)`."""
    return Judge(spec, **options)


@dataclass(frozen=True)
class JudgeChoice:
    """The judge the flags choose: `--judge` and the options the other judge flags set.

    A command builds it in this process (`build_judge`); with `--engine ray` every actor builds
    it from the same choice (`RayRun`), so the driver's judge and the actors' are the same.
    """

    factory: JudgeFactory
    spec: str
    options: JudgeOptions


@dataclass(frozen=True)
class CliContext:
    """What the app hands every command."""

    judge_factory: JudgeFactory = default_judge_factory
    model_factory: ModelFactory = resolve_chat_model


class ModeChoice(enum.StrEnum):
    """`--mode` values."""

    joint = "joint"
    per_criterion = "per_criterion"


_MODES: dict[ModeChoice, Mode] = {
    ModeChoice.joint: "joint",
    ModeChoice.per_criterion: "per_criterion",
}

JudgeOption = Annotated[
    str,
    typer.Option(
        "--judge",
        metavar="MODEL",
        help=(
            "Judge model: 'local' (the embedded model, no key needed), "
            "'llamacpp:/path/model.gguf', or any LangChain 'provider:model' such as "
            "'openai:gpt-5-mini' or 'ollama:qwen3'."
        ),
    ),
]
ModeOption = Annotated[
    ModeChoice | None,
    typer.Option(
        "--mode",
        help=(
            "joint: one judge call grades every criterion; per_criterion: one small call each. "
            "Default: per_criterion on the embedded model, joint on remote ones."
        ),
        show_default=False,
    ),
]
CompileChecksOption = Annotated[
    bool,
    typer.Option(
        "--compile-checks",
        help=(
            "Before grading, ask the judge which catalogue check (word counts, no commas, "
            "valid JSON...) decides each criterion exactly; those are then decided in code. "
            "The mapping is shown first; criteria that map to none stay with the judge."
        ),
    ),
]
ReadChecksOption = Annotated[
    bool | None,
    typer.Option(
        "--read-checks/--no-read-checks",
        help=(
            "Decide in code, with no judge call, criteria a phrase grammar reads whole ('no "
            "bullet points', 'each paragraph under 80 words'). Default: on for the embedded "
            "model, off for remote ones."
        ),
        show_default=False,
    ),
]
ExplainPassesOption = Annotated[
    bool | None,
    typer.Option(
        "--explain-passes/--no-explain-passes",
        help=(
            "Also say why each passed criterion is met. Default: on for remote judges (costs "
            "tokens), off on the embedded model (costs one more call per pass)."
        ),
        show_default=False,
    ),
]
GuardInjectionsOption = Annotated[
    bool,
    typer.Option(
        "--guard-injections/--no-guard-injections",
        help=(
            "Grade passed criteria again with passages that address the grader masked; a "
            "criterion passes only if both gradings pass it."
        ),
    ),
]


class ContextChoice(enum.StrEnum):
    """`--show-context` values."""

    when_referenced = "when_referenced"
    always = "always"


ShowContextOption = Annotated[
    ContextChoice | None,
    typer.Option(
        "--show-context",
        help=(
            "When the judge sees the task and transcript: always, or only for criteria that "
            "refer to the request or to what came before the output (a small judge answers "
            "the others from the request). Default: when_referenced on the embedded model, "
            "always on remote ones."
        ),
        show_default=False,
    ),
]
CarefulOption = Annotated[
    bool,
    typer.Option(
        "--careful",
        help=(
            "Write a one-sentence reason before each verdict and decide after it. Meant for "
            "remote judges: on the embedded model it is about 4x slower and less accurate "
            "(docs/benchmarks.md)."
        ),
    ),
]
LayoutFactsOption = Annotated[
    bool,
    typer.Option(
        "--layout-facts/--no-layout-facts",
        help=(
            "Show the judge the output's layout as code measured it (pieces, counts) when it "
            "grades a rule on the text's form that no check could read."
        ),
    ),
]
ToneLikelihoodOption = Annotated[
    bool,
    typer.Option(
        "--tone-likelihood/--no-tone-likelihood",
        help=(
            "On the embedded model, decide a criterion about tone alone from P(yes) and how much "
            "likelier the output is once that tone is asked for; off, at a fixed stricter bar."
        ),
    ),
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        help=(
            "Items graded at once. Helps remote judges only: the embedded model runs one call "
            "at a time (one model, and its prompt cache works best sequentially), so on it "
            "this is always 1."
        ),
    ),
]


def stdout_console() -> Console:
    """The console for results (summaries, tables)."""
    return Console(highlight=False)


def stderr_console() -> Console:
    """The console for progress, warnings and errors."""
    return Console(stderr=True, highlight=False)


def fail(message: str, code: ExitCode = ExitCode.USAGE) -> NoReturn:
    """Print `Error: message` on stderr and exit with `code`."""
    stderr_console().print(Text.assemble(("Error: ", "bold red"), message))
    raise typer.Exit(int(code))


def write_or_fail(path: Path, write: Callable[[], object]) -> None:
    """Run `write`, which writes `path`; when it cannot, exit 2 naming the file and why."""
    try:
        write()
    except OSError as exc:
        fail(f"cannot write {str(path)!r}: {exc.strerror or exc}")


@dataclass(frozen=True, kw_only=True)
class FlagGroup:
    """Flags several commands take, declared once: a frozen dataclass of typer-annotated fields.

    A command decorated with `takes_flag_groups` takes the group as one parameter; its fields
    stand in that parameter's place on the command line, so each command's `--help` lists them
    where the parameter stands, by the names, defaults and help their annotations give.
    """


_Command = TypeVar("_Command", bound=Callable[..., Any])


def takes_flag_groups(command: _Command) -> _Command:
    """Let a typer command take each `FlagGroup` parameter as that group's flags.

    Typer reads a command's parameters from `inspect.signature`: the wrapper's signature has
    each group's fields where the group's parameter stood (every parameter keyword-only, as
    typer passes them), and the wrapper builds the group from them before calling `command`.
    """
    hints = typing.get_type_hints(command, include_extras=True)
    parameters: list[inspect.Parameter] = []
    groups: dict[str, tuple[type[FlagGroup], list[str]]] = {}
    for parameter in inspect.signature(command).parameters.values():
        annotation = hints[parameter.name]
        if not (isinstance(annotation, type) and issubclass(annotation, FlagGroup)):
            parameters.append(parameter.replace(kind=parameter.KEYWORD_ONLY, annotation=annotation))
            continue
        fields = typing.get_type_hints(annotation, include_extras=True)
        members = [field.name for field in dataclasses.fields(annotation)]
        groups[parameter.name] = (annotation, members)
        parameters += [
            inspect.Parameter(
                field.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty
                if field.default is dataclasses.MISSING
                else field.default,
                annotation=fields[field.name],
            )
            for field in dataclasses.fields(annotation)
        ]
    names = [parameter.name for parameter in parameters]
    clashes = sorted({name for name in names if names.count(name) > 1})
    if clashes:
        raise TypeError(f"{command.__name__}: a flag group repeats the parameter(s) {clashes}")

    @functools.wraps(command)
    def wrapper(**arguments: Any) -> Any:
        for name, (group, members) in groups.items():
            arguments[name] = group(**{member: arguments.pop(member) for member in members})
        return command(**arguments)

    wrapper.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return typing.cast(_Command, wrapper)


@dataclass(frozen=True, kw_only=True)
class JudgeFlags(FlagGroup):
    """The judge flags of every command that grades: `--judge` and the judge's options."""

    judge: JudgeOption = "local"
    mode: ModeOption = None
    compile_checks: CompileChecksOption = False
    read_checks: ReadChecksOption = None
    explain_passes: ExplainPassesOption = None
    guard_injections: GuardInjectionsOption = True
    show_context: ShowContextOption = None
    careful: CarefulOption = False
    layout_facts: LayoutFactsOption = True
    tone_likelihood: ToneLikelihoodOption = True

    def options(self) -> JudgeOptions:
        """The judge options these flags set; a flag left at its default sets nothing."""
        options: JudgeOptions = {}
        if self.mode is not None:
            options["mode"] = _MODES[self.mode]
        if self.compile_checks:
            options["compile_checks"] = True
        if self.read_checks is not None:
            options["read_checks"] = self.read_checks
        if self.explain_passes is not None:
            options["explain_passes"] = self.explain_passes
        if not self.guard_injections:
            options["guard_injections"] = False
        if self.show_context is not None:
            options["show_context"] = self.show_context.value
        if self.careful:
            options["careful"] = True
        if not self.layout_facts:
            options["layout_facts"] = False
        if not self.tone_likelihood:
            options["tone_likelihood"] = False
        return options

    def choice(self, factory: JudgeFactory) -> JudgeChoice:
        """The judge these flags choose, built by `factory`."""
        return JudgeChoice(factory, self.judge, self.options())


def build_judge(choice: JudgeChoice, jobs: int, console: Console) -> Judge:
    """Create the judge, or exit 2 saying why; note when `-j` cannot help it."""
    try:
        judge = choice.factory(choice.spec, choice.options)
    except (RubricateError, ValueError, TypeError, ImportError) as exc:
        fail(redact(f"cannot create the judge {choice.spec!r}: {exc}"))
    if not judge.concurrent_items and jobs > 1:
        console.print(
            Text(
                f"Note: -j {jobs} has no effect on the embedded model "
                f"({'joint mode' if judge.mode == 'joint' else 'no batched decoding'}), which "
                "then grades one call at a time; its per-criterion mode grades items together "
                "in one batch, and a remote --judge grades them in parallel.",
                style="yellow",
            )
        )
    return judge


def show_compiled(judge: Judge, rubric: Rubric, console: Console) -> None:
    """Compile `rubric` with the judge (cached for the grading that follows) and show the mapping.

    Ctrl-C here exits with 130 before anything is graded.
    """
    console.print(Text("Compiling criteria to checks...", style="dim"))
    try:
        compiled = judge.compile(rubric)
    except KeyboardInterrupt:
        console.print(Text("Interrupted.", style="yellow"))
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
    console.print(Text(compiled.describe()))


class _RateColumn(ProgressColumn):
    """Items finished per second, over the last few seconds."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text(f"{speed:.1f}/s" if speed is not None else "-/s", style="progress.data.speed")


class RichProgress(BatchProgress):
    """A rich progress bar with ETA on stderr; skipped lines are printed above it.

    On a console that is not a terminal the bar is not drawn; problems are still printed.
    """

    def __init__(self, console: Console, label: str) -> None:
        self.console = console
        self.label = label
        self.passed = 0
        self.errors = 0
        self.cached = 0
        self.finished = 0
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _RateColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            disable=not console.is_terminal,
        )
        self._task: TaskID | None = None

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def start(self, *, total: int) -> None:
        """Show the bar for `total` items."""
        self._task = self._progress.add_task(self._description(), total=total)

    def done(self, *, passed: bool, error: bool, cached: bool = False) -> None:
        """Advance the bar and update the running counts."""
        self.finished += 1
        self.passed += passed
        self.errors += error
        self.cached += cached
        if self._task is not None:
            self._progress.update(self._task, advance=1, description=self._description())

    def problem(self, problem: LineProblem) -> None:
        """Print a skipped line above the bar, and count it as done."""
        self._progress.console.print(Text(f"Skipped {problem}", style="yellow"))
        if self._task is not None:  # results-file problems come before the bar starts
            self._progress.update(self._task, advance=1)

    def _description(self) -> str:
        text = f"{self.label}: {self.passed} passed"
        if self.errors:
            text += f", {self.errors} errors"
        if self.cached:
            text += f", {self.cached} cached"
        return text
