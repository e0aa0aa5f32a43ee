"""The phrases a text check is given: whitespace-normalised, never blank, listed in findings."""

from __future__ import annotations

from collections.abc import Sequence

from .._exceptions import RubricError

__all__ = [
    "listed",
    "normalize",
    "required_phrase",
    "required_phrases",
]


def required_phrases(check: str, argument: str, values: Sequence[str]) -> list[str]:
    """The normalised `values` of a check's list argument; a `RubricError` if empty or blank."""
    phrases = [normalize(value) for value in values]
    if not phrases:
        raise RubricError(f"{check}: `{argument}` must not be empty", field=argument)
    for index, phrase in enumerate(phrases):
        if not phrase:
            raise RubricError(
                f"{check}: `{argument}` holds a blank entry", field=f"{argument}[{index}]"
            )
    return phrases


def required_phrase(check: str, phrase: str) -> str:
    """The normalised `phrase` argument of a check; a `RubricError` if it is blank."""
    wanted = normalize(phrase)
    if not wanted:
        raise RubricError(f"{check}: `phrase` must not be blank", field="phrase")
    return wanted


def normalize(text: str) -> str:
    """Any run of whitespace as one space, none at either end."""
    return " ".join(text.split())


def listed(items: Sequence[str], last: str = "and") -> str:
    """`'a', 'b' and 'c'`: the items quoted, for a finding."""
    quoted = [repr(item) for item in items]
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} {last} {quoted[-1]}"
