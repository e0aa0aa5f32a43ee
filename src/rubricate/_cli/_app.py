"""The typer application: one module per command, registered here.

Each command (`run`, `grade`, `agreement`) lives in its own `_cli/_<command>.py` with a
`register(app, context)` function; a new command is one such module added to `_COMMANDS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from .. import __version__
from .._models import resolve_chat_model
from . import _agreement, _grade, _run
from ._common import CliContext, JudgeFactory, ModelFactory, default_judge_factory

__all__ = ["app", "create_app", "main"]

_COMMANDS: tuple[Callable[[typer.Typer, CliContext], None], ...] = (
    _run.register,
    _grade.register,
    _agreement.register,
)

HELP = """Rubric-driven LLM-as-judge grading from the command line.

Run an agent until its answer satisfies a rubric, grade JSONL files of outputs against a rubric,
and measure how well the judge agrees with labelled verdicts. The default model and judge are
the embedded local model: no key, no network.
Run `rubricate COMMAND --help` for a command's options and examples.
"""


def create_app(
    *,
    judge_factory: JudgeFactory = default_judge_factory,
    model_factory: ModelFactory = resolve_chat_model,
) -> typer.Typer:
    """Build the `rubricate` app.

    `judge_factory` turns `--judge` and the judge options the other flags set (`--mode`,
    `--read-checks`...) into a `Judge`; `model_factory` turns `run`'s `--model` into the worker
    chat model.

    Example:
        ```python
        from typer.testing import CliRunner

        app = create_app(judge_factory=lambda spec, options: Judge(fake_chat_model, **options))
        CliRunner().invoke(app, ["grade", "in.jsonl", "--rubric", "- Mentions Paris"])
        ```

    """
    app = typer.Typer(
        name="rubricate",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode="rich",
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def root(
        version: Annotated[
            bool,
            typer.Option(
                "--version",
                help="Print the version and exit.",
                is_eager=True,
                callback=_print_version,
            ),
        ] = False,
    ) -> None:
        pass

    context = CliContext(judge_factory=judge_factory, model_factory=model_factory)
    for register in _COMMANDS:
        register(app, context)
    return app


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"rubricate {__version__}")
        raise typer.Exit()


app = create_app()


def main() -> None:
    """Entry point of the `rubricate` script."""
    app()
