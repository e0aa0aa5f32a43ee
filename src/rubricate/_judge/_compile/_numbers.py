"""Numbers in words read as digits: `twenty-five`, `a hundred`, `a dozen`, `once`, `1,000`.

The phrase grammar reads every criterion with its numbers in digits, so its rules match one
form; `stated_numbers` reads them the same way to check a compiled mapping's numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...checks._number_words import NUMBER_VALUES, SMALL_NUMBERS, TENS

__all__ = ["normalize_numbers"]


# -- numbers ---------------------------------------------------------------------------------

_UNITS = {word: NUMBER_VALUES[word] for word in SMALL_NUMBERS}
_TENS = {word: NUMBER_VALUES[word] for word in TENS}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_CORE = "|".join([*_UNITS, *_TENS, *_SCALES, "dozen", "single"])
_NUMBER_WORD = "|".join([*_UNITS, *_TENS, *_SCALES, "dozen", "single", "a", "an", "and"])
_NUMBER_RUN = re.compile(rf"\b(?:(?:{_NUMBER_WORD})(?:[\s-]+|$))*(?:{_NUMBER_CORE})\b")
_TIMES = {"once": "1 times", "twice": "2 times", "thrice": "3 times"}
_ARTICLE_NUMBERS = frozenset({"hundred", "thousand", "dozen", "single"})


def _words_to_number(words: Sequence[str]) -> int | None:
    """`["twenty", "five"]` -> 25, `["a", "hundred"]` -> 100, `["a", "single"]` -> 1."""
    total = current = 0
    seen = False
    for word in words:
        if word in ("a", "an"):
            current = max(current, 1) if not seen else current
            continue
        if word == "and":
            continue
        if word == "single":
            current, seen = 1, True
        elif word == "dozen":
            current, seen = max(current, 1) * 12, True
        elif word in _UNITS:
            current, seen = current + _UNITS[word], True
        elif word in _TENS:
            current, seen = current + _TENS[word], True
        elif word in _SCALES:
            current, seen = max(current, 1) * _SCALES[word], True
            if _SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            return None
    return total + current if seen else None


_A_COUPLE = re.compile(
    r"\b(?P<bound>no more than|not more than|at most|up to|at least|no fewer than|no less than|"
    r"a maximum of|a minimum of|max(?:imum)?|min(?:imum)?) a couple(?: of)?\b"
)


def _after_unit(words: Sequence[str]) -> bool:
    """Whether the number words before an "and" hold no scale, so the "and" ends the number."""
    return not any(word in _SCALES for word in words) and words[-1] not in ("a", "an", "and")


def normalize_numbers(text: str) -> str:
    """Casefolded `text` with numbers in words written in digits and `1,000` as `1000`.

    `twice` becomes `2 times`; `a single` and `one` become `1`. A run that is not a number on
    its own (`a`, `and`) is left as it is.
    """
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.casefold())
    text = re.sub(r"\bhalf an? dozen\b", "6", text)
    # "a couple" is two as a bound ("no more than a couple of"); on its own, a few.
    text = _A_COUPLE.sub(r"\g<bound> 2", text)
    for word, digits in _TIMES.items():
        text = re.sub(rf"\b{word}\b", digits, text)

    return _NUMBER_RUN.sub(lambda match: _in_digits(match.group()), text)


def _in_digits(run: str) -> str:
    """One run of number words in digits: "twenty-five " -> "25 ", "four and six" -> "4 and 6"."""
    words = [w for w in re.split(r"[\s-]+", run.strip()) if w]
    tail = " " if run.endswith((" ", "-")) else ""
    # "and" joins a number only after a scale ("a hundred and five"); "between four and six"
    # is two numbers, not ten.
    split = next(
        (i for i, word in enumerate(words) if word == "and" and i and _after_unit(words[:i])),
        None,
    )
    if split is not None:
        first = _in_digits(" ".join(words[:split]) + " ")
        return f"{first}and {_in_digits(' '.join(words[split + 1 :]) + tail)}"
    # A leading article belongs to the number only before a scale ("a hundred", "a dozen", "a
    # single"); "a two-sentence answer" is two. A leading "and" never does.
    lead = ""
    while words and (
        words[0] == "and"
        or (words[0] in ("a", "an") and (len(words) < 2 or words[1] not in _ARTICLE_NUMBERS))
    ):
        lead += words.pop(0) + " "
    value = _words_to_number(words)
    if value is None:
        return run
    return f"{lead}{value}{tail}"
