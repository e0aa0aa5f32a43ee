"""English number words and their values, for every reader of numbers written in words.

One vocabulary for the `number_style` check (which finds numbers in words) and the phrase
grammar (which reads "twenty-five" in a criterion as 25), so the two cannot disagree on a word.
"""

from __future__ import annotations

__all__ = ["NUMBER_VALUES", "SCALES", "SMALL_NUMBERS", "TENS"]

SMALL_NUMBERS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
"""`zero` to `nineteen`, each at the index of its value."""
TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
SCALES = ("hundred", "thousand", "million", "billion")

NUMBER_VALUES: dict[str, int] = {
    **{word: value for value, word in enumerate(SMALL_NUMBERS)},
    **{word: 20 + 10 * index for index, word in enumerate(TENS)},
    **dict(zip(SCALES, (100, 1000, 10**6, 10**9), strict=True)),
}
"""Each word's value on its own: `seven` 7, `forty` 40, `million` 1,000,000."""
