"""The words a check is given: phrases never blank, named options ones it knows; for findings."""

from __future__ import annotations

from collections.abc import Sequence

from .._exceptions import RubricError

__all__ = [
    "SNIPPET",
    "choice",
    "listed",
    "normalize",
    "required_phrase",
    "required_phrases",
    "shortened",
]

SNIPPET = 40
"""Characters of a find shown in a finding; a longer one is cut with an ellipsis."""


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


def choice(check: str, argument: str, value: object, options: Sequence[str]) -> str:
    """`value` (case and surrounding spaces aside) as one of `options`; else a `RubricError`."""
    wanted = value.strip().casefold() if isinstance(value, str) else value
    if wanted not in options:
        raise RubricError(
            f"{check}: `{argument}` must be {listed(options, 'or')}, got {value!r}", field=argument
        )
    return str(wanted)


def shortened(text: str) -> str:
    """`text` as a finding shows it: at most `SNIPPET` characters, then an ellipsis."""
    return text if len(text) <= SNIPPET else f"{text[:SNIPPET]}…"


def normalize(text: str) -> str:
    """Any run of whitespace as one space, none at either end."""
    return " ".join(text.split())


def listed(items: Sequence[str], last: str = "and") -> str:
    """`'a', 'b' and 'c'`: the items quoted, for a finding."""
    quoted = [repr(item) for item in items]
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} {last} {quoted[-1]}"
