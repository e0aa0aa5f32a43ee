"""Text checks on characters: all in lowercase, all in capitals, no commas."""

from __future__ import annotations

import re
from collections.abc import Callable

from ._check import TextTest
from ._phrases import shortened
from ._registry import catalogue_check

__all__ = [
    "all_capitals",
    "all_lowercase",
    "no_commas",
]

_COMMAS = ",，、،"  # ASCII, fullwidth, ideographic and Arabic commas


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
    return _none_of(lambda char: char.isupper() or char.istitle(), "capital letter")


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
    return _none_of(str.islower, "lowercase letter")


def _none_of(wrong: Callable[[str], bool], noun: str) -> TextTest:
    """A test that no character is `wrong`, naming the first word that has one."""

    def test(text: str) -> tuple[bool, str]:
        found = [i for i, char in enumerate(text) if wrong(char)]
        if found:
            nouns = noun if len(found) == 1 else f"{noun}s"
            return False, f"has {len(found)} {nouns}, first in {_word_at(text, found[0])!r}"
        return True, f"has no {noun}s"

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
    return shortened(token)
