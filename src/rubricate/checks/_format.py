"""Format checks: quotes around the text, valid JSON, a `<<title>>`, a postscript."""

from __future__ import annotations

import json
import re
from typing import Any

from .._exceptions import RubricError
from ._check import TextTest
from ._registry import catalogue_check
from ._units import has_word

__all__ = ["has_postscript", "has_title", "valid_json", "wrapped_in_quotes"]

_QUOTE_PAIRS = (('"', '"'), ("“", "”"))
_FENCED = re.compile(r"\A```[^\n`]*\n(.*?)\n?```\Z", re.DOTALL)
_TITLE = re.compile(r"<<([^\n]*?)>>")
_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}


@catalogue_check
def wrapped_in_quotes() -> TextTest:
    """The whole text is wrapped in double quotes.

    After trimming whitespace, the text starts with `"` and ends with `"` (or starts with `“`
    and ends with `”`), and is at least two characters long.

    Example:
        ```python
        checks.wrapped_in_quotes()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        found = text.strip()
        if len(found) >= 2 and any(found[0] == a and found[-1] == b for a, b in _QUOTE_PAIRS):
            return True, "is wrapped in double quotes"
        if not found:
            return False, "is empty, needs to be wrapped in double quotes"
        return False, (
            f"starts with {found[0]!r} and ends with {found[-1]!r}, "
            "needs to be wrapped in double quotes"
        )

    return test


@catalogue_check
def valid_json(allow_fence: bool = True) -> TextTest:
    """The whole text is one valid JSON value (strict JSON: no `NaN`, no trailing text).

    Whitespace around it is ignored. With `allow_fence`, the JSON may sit inside one Markdown
    code fence that is the whole text: a line opening with three backticks (and any language
    tag, such as `json`) and a closing three backticks.

    Args:
        allow_fence: Accept JSON inside a code fence.

    Example:
        ```python
        checks.valid_json()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        body = text.strip()
        fenced = _FENCED.match(body)
        if fenced:
            if not allow_fence:
                return False, "is JSON inside a code fence, needs to be bare JSON"
            body = fenced.group(1).strip()
        if not body:
            return False, "is empty, needs to be valid JSON"
        try:
            value = json.loads(body, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}"
            return False, f"is not valid JSON: {exc.msg} ({where})"
        except ValueError as exc:
            return False, f"is not valid JSON: {exc}"
        kind = _JSON_TYPES.get(type(value), "a number" if value is not None else "null")
        return True, f"is valid JSON ({kind}{', fenced' if fenced else ''})"

    return test


@catalogue_check
def has_title() -> TextTest:
    """The text has a title in double angular brackets, such as `<<Poem of joy>>`.

    The title sits on one line between `<<` and `>>` and holds a word; it may be anywhere.

    Example:
        ```python
        checks.has_title()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        for match in _TITLE.finditer(text):
            if has_word(match.group(1)):
                return True, f"has the title {match.group()!r}"
        return False, "has no title in double angular brackets, such as <<Title>>"

    return test


@catalogue_check
def has_postscript(marker: str = "P.S.") -> TextTest:
    """The text has a postscript: a line starting with the marker, such as `P.S.` or `P.P.S.`.

    The marker's letters match in any case, a space may follow each of its periods (`P. S.`),
    and its final period may be left out; the line may open with whitespace, `>`, `*` or `_`.
    `P.S.` is not found in `P.P.S.`.

    Args:
        marker: The postscript marker: letters, each but the last followed by a period.

    Example:
        ```python
        checks.has_postscript("P.P.S.")
        ```

    """
    marker = marker.strip()
    letters = marker.replace(".", "").replace(" ", "")
    if not letters or not re.fullmatch(r"(?:[A-Za-z]\.\s?)+|(?:[A-Za-z]\.\s?)*[A-Za-z]", marker):
        raise RubricError(
            f"has_postscript: `marker` must be letters separated by periods, such as 'P.S.', "
            f"got {marker!r}",
            field="marker",
        )
    body = r"\.[ \t]?".join(re.escape(letter) for letter in letters)
    pattern = re.compile(rf"^[ \t>*_]*{body}\.?(?![A-Za-z])", re.IGNORECASE | re.MULTILINE)
    shown = ".".join(letters.upper()) + "."

    def test(text: str) -> tuple[bool, str]:
        match = pattern.search(text)
        if match is None:
            return False, f"has no postscript starting with {shown}"
        line_end = text.find("\n", match.start())
        line = text[match.start() : line_end if line_end >= 0 else len(text)].strip()
        snippet = line if len(line) <= 40 else f"{line[:40]}…"
        return True, f"has a postscript: {snippet!r}"

    return test


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in JSON")
