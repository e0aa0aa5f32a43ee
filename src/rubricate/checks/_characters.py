"""Text checks on characters: all in lowercase, all in capitals, no commas."""

from __future__ import annotations

import re

from ._check import TextTest
from ._registry import catalogue_check

__all__ = [
    "all_capitals",
    "all_lowercase",
    "no_commas",
]

_COMMAS = ",，、،"  # ASCII, fullwidth, ideographic and Arabic commas
_SNIPPET = 40


@catalogue_check
def all_lowercase() -> TextTest:
    """No letter is uppercase: the whole text is in lowercase.

    Any character that is an uppercase or titlecase letter (in any script) fails it; letters
    without case, digits and punctuation are fine. An empty text passes.

    Example:
        ```python
        checks.all_lowercase()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        capitals = [i for i, char in enumerate(text) if char.isupper() or char.istitle()]
        if capitals:
            noun = "capital letter" if len(capitals) == 1 else "capital letters"
            return False, f"has {len(capitals)} {noun}, first in {_word_at(text, capitals[0])!r}"
        return True, "has no capital letters"

    return test


@catalogue_check
def all_capitals() -> TextTest:
    """No letter is lowercase: the whole text is in capitals.

    Any character that is a lowercase letter (in any script) fails it; letters without case,
    digits and punctuation are fine. An empty text passes.

    Example:
        ```python
        checks.all_capitals()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        lower = [i for i, char in enumerate(text) if char.islower()]
        if lower:
            noun = "lowercase letter" if len(lower) == 1 else "lowercase letters"
            return False, f"has {len(lower)} {noun}, first in {_word_at(text, lower[0])!r}"
        return True, "has no lowercase letters"

    return test


@catalogue_check
def no_commas() -> TextTest:
    """The text has no comma: ASCII `,`, fullwidth `，`, ideographic `、` or Arabic `،`.

    Example:
        ```python
        checks.no_commas()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        found = [i for i, char in enumerate(text) if char in _COMMAS]
        if found:
            noun = "comma" if len(found) == 1 else "commas"
            return False, f"has {len(found)} {noun}, first in {_word_at(text, found[0])!r}"
        return True, "has no commas"

    return test


def _word_at(text: str, index: int) -> str:
    """The whitespace-delimited token around `index`, shortened for a gap."""
    start = index
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    match = re.compile(r"\S*").match(text, index)
    end = match.end() if match else index + 1
    token = text[start:end]
    return token if len(token) <= _SNIPPET else f"{token[:_SNIPPET]}…"
