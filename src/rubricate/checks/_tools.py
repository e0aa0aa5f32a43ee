"""The catalogue as LangChain tools, so a tool-calling judge can count words exactly.

`Judge(model, tools=checks.as_tools())` lets the judge call `word_count`, `no_commas` and the
rest before its verdict, on criteria that no rubric marker maps to a check. Each tool takes the
check's own arguments plus `text`, the text to check; a judge that runs the tools inside
`graded_output(evidence.output)` lets the model leave `text` out and check the graded output
itself, which spares it copying a long output into a tool call (and copying it wrong).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field, create_model

from .._exceptions import CheckUndecided, RubricError
from ._registry import CATALOGUE, CheckInfo, describe

__all__ = ["as_tools", "graded_output"]

_GRADED_OUTPUT: ContextVar[str | None] = ContextVar("rubricate_graded_output", default=None)
_TEXT_DOC = (
    "The exact text to check, copied verbatim. Leave it out to check the whole output being "
    "graded, when the grader provides it."
)
_NO_TEXT = "Error: no graded output is available here; pass the text to check, verbatim, as `text`."
_TYPES: dict[str, Any] = {"int": int, "str": str, "bool": bool, "strings": list[str]}


@contextmanager
def graded_output(text: str) -> Iterator[None]:
    """Within this block, catalogue tools called without `text` check `text`.

    A judge wraps its tool phase in it, so the model can name a check without copying the
    output it grades.

    Example:
        ```python
        with checks.graded_output(evidence.output):
            ...  # run the judge's tool calls
        ```

    """
    token = _GRADED_OUTPUT.set(text)
    try:
        yield
    finally:
        _GRADED_OUTPUT.reset(token)


def as_tools(names: Iterable[str] | None = None) -> list[BaseTool]:
    """The catalogue checks (all, or those in `names`) as LangChain tools for a judge.

    Each tool is named after its check and answers `PASS: <what was found>` or
    `FAIL: <what was found>`, or `Error: <what is wrong with the arguments>`.

    Args:
        names: The checks to offer; all of them by default. Fewer tools make a shorter prompt.

    Raises:
        RubricError: A name is not in the catalogue.

    Example:
        ```python
        judge = Judge("openai:gpt-5-mini", tools=checks.as_tools(["word_count", "no_commas"]))
        ```

    """
    chosen = list(CATALOGUE) if names is None else list(names)
    return [_tool(describe(name)) for name in chosen]


def run_tool(info: CheckInfo, arguments: dict[str, Any]) -> str:
    """Run the check `info` as a tool would: `PASS`, `FAIL`, `UNDECIDED` or `Error`, then why.

    `UNDECIDED` is a check that cannot read this text its rule's way (`CheckUndecided`).
    """
    text = arguments.pop("text", None)
    if text is None:
        text = _GRADED_OUTPUT.get()
    if text is None:
        return _NO_TEXT
    given = {key: value for key, value in arguments.items() if value is not None}
    try:
        check = info.factory(**given)
    except RubricError as exc:
        return f"Error: {exc.reason}"
    try:
        passed, finding = check(text)
    except CheckUndecided as exc:  # the model reads this text itself
        return f"UNDECIDED: {exc}; judge it yourself."
    return f"{'PASS' if passed else 'FAIL'}: {finding}"


def _tool(info: CheckInfo) -> BaseTool:
    fields: dict[str, Any] = {"text": (str | None, Field(default=None, description=_TEXT_DOC))}
    for param in info.params:
        kind = _TYPES[param.kind]
        if param.required:
            fields[param.name] = (kind, Field(description=param.doc))
        else:
            fields[param.name] = (kind | None, Field(default=param.default, description=param.doc))
    title = "".join(part.title() for part in info.name.split("_"))
    schema: type[BaseModel] = create_model(f"{title}Arguments", **fields)

    def run(**arguments: Any) -> str:
        return run_tool(info, arguments)

    async def arun(**arguments: Any) -> str:
        return run_tool(info, arguments)

    return StructuredTool.from_function(
        func=run,
        coroutine=arun,
        name=info.name,
        description=_description(info),
        args_schema=schema,
        handle_validation_error=_invalid_arguments,
    )


def _invalid_arguments(error: Exception) -> str:
    """Arguments the schema rejects (`at_most: "many"`): an answer the judge can act on."""
    errors = getattr(error, "errors", None)
    if callable(errors):
        listed = "; ".join(
            f"{'.'.join(str(part) for part in item.get('loc', ()))}: {item.get('msg', '')}"
            for item in errors()
        )
        return f"Error: invalid arguments: {listed}"
    return f"Error: invalid arguments: {error}"


def _description(info: CheckInfo) -> str:
    """The check's docstring up to its sections, as one paragraph, plus how it answers."""
    doc = info.factory.__doc__ or ""
    body = re.split(r"\n\s*(?:Args|Example|Raises|Returns):", doc, maxsplit=1)[0]
    return (
        f"{' '.join(body.split())} Decided exactly, in code. "
        "Answers PASS or FAIL and what was found."
    )
