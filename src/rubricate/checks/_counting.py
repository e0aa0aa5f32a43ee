"""Counting checks on how long the text is: words, sentences, characters, paragraphs, parts.

Each takes a relation as keyword bounds (`at_least`, `at_most`, `exactly`, `fewer_than` or
`less_than`, `more_than`; see `CountBounds`) and reports the count it found, as in
`has 312 words, needs at most 300`; words, sentences and characters can also be limited in each
sentence, paragraph, line or list item (`per`). What a word, sentence or paragraph is is defined
once, in `rubricate.checks._units`, and in `docs/checks.md`. The text's layout (bullet
points, sections, tables...) is counted in `_layout.py`, what its words and marks hold
(keywords, links, emojis...) in `_inline.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Unpack

from .._exceptions import RubricError
from ._check import Bounds, CountBounds, TextTest, count_finding
from ._registry import catalogue_check
from ._units import body_paragraphs, has_word, paragraphs, sentences, unit_pieces, words

__all__ = [
    "character_count",
    "paragraph_count",
    "part_count",
    "sentence_count",
    "word_count",
]


@catalogue_check
def word_count(per: str | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of words is within the bounds, in the whole text or in each sentence, etc.

    A word is a run of non-whitespace characters holding at least one letter or digit:
    `don't`, `well-known` and `3.14` are one word each; a lone `-` or `—` is none.

    Args:
        per: Apply the bounds to each `sentence`, `paragraph`, `line` or `item` (a bullet or
            numbered list item) instead of the whole text; every one must be within them (a text
            with none passes).
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.word_count(at_most=300)
        checks.word_count(at_most=20, per="sentence")  # no sentence over 20 words
        ```

    """
    limits = Bounds.from_args("word_count", bounds)
    pieces = _pieces("word_count", per, _PER_WORDS)
    return _counted(lambda t: len(words(t)), "word", "words", limits, pieces, per)


@catalogue_check
def sentence_count(per: str | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of sentences is within the bounds, in the whole text or in each paragraph.

    A sentence ends at `.`, `!`, `?`, `…` (then whitespace or the end), at `。！？`, or at a
    paragraph break, list item or heading; a period after `Mr`, `Dr`, `e.g`, an initial and
    other common abbreviations ends nothing. Only pieces holding a word count.

    Args:
        per: `paragraph`: apply the bounds to each paragraph instead of the whole text; every
            one must be within them.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.sentence_count(fewer_than=5)
        checks.sentence_count(at_most=3, per="paragraph")
        ```

    """
    limits = Bounds.from_args("sentence_count", bounds)
    pieces = _pieces("sentence_count", per, ("paragraph",))
    return _counted(lambda t: len(sentences(t)), "sentence", "sentences", limits, pieces, per)


@catalogue_check
def character_count(per: str | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of characters is within the bounds, spaces and punctuation included.

    Counted on the text with leading and trailing whitespace removed (a final newline is not a
    character of the answer); every other character counts, one per Unicode code point.

    Args:
        per: Apply the bounds to each `sentence`, `paragraph`, `line` or `item` instead of the
            whole text; every one must be within them.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.character_count(at_most=280)
        ```

    """
    limits = Bounds.from_args("character_count", bounds)
    pieces = _pieces("character_count", per, _PER_WORDS)
    return _counted(lambda t: len(t.strip()), "character", "characters", limits, pieces, per)


@catalogue_check
def paragraph_count(separator: str | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of paragraphs is within the bounds.

    Paragraphs are separated by one or more blank lines or by a horizontal rule line (`***`,
    `---`, `___`); blank lines inside a code fence separate nothing. Only blocks holding a word
    count.

    Args:
        separator: The line that separates paragraphs, such as `***`, when the criterion names
            one; then only that line does (blank lines do not).
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.paragraph_count(exactly=3)
        ```

    """
    limits = Bounds.from_args("paragraph_count", bounds)
    if separator is not None and not separator.strip():
        raise RubricError("paragraph_count: `separator` must not be blank", field="separator")
    rule = separator.strip() if separator is not None else None

    def test(text: str) -> tuple[bool, str]:
        found = paragraphs(text, rule) if rule is not None else body_paragraphs(text)
        return count_finding(len(found), "paragraph", "paragraphs", limits)

    return test


@catalogue_check
def part_count(separator: str, distinct: bool = False, **bounds: Unpack[CountBounds]) -> TextTest:
    """The text splits at a separator into a number of parts within the bounds.

    For "two responses separated by ******": the text is cut at every occurrence of the
    separator, anywhere in a line; only parts holding a word count, so nothing before the
    first separator or after the last is a part unless it has words.

    Args:
        separator: The text between parts, such as `******`.
        distinct: The parts must all differ (compared with runs of whitespace as one space).
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.part_count("******", exactly=2, distinct=True)
        ```

    """
    limits = Bounds.from_args("part_count", bounds)
    if not separator.strip():
        raise RubricError("part_count: `separator` must not be blank", field="separator")
    cut = separator.strip()

    def test(text: str) -> tuple[bool, str]:
        parts = [" ".join(p.split()) for p in text.split(cut) if has_word(p)]
        passed, finding = count_finding(
            len(parts), f"part split at {cut!r}", f"parts split at {cut!r}", limits
        )
        if passed and distinct:
            seen: dict[str, int] = {}
            for number, part in enumerate(parts, start=1):
                if (first := seen.setdefault(part, number)) != number:
                    return False, f"parts {first} and {number} are the same"
        return passed, finding

    return test


_PER_WORDS = ("sentence", "paragraph", "line", "item")


def _unit(per: str) -> str:
    return per.strip().casefold().removesuffix("s")


def _pieces(check: str, per: str | None, allowed: tuple[str, ...]) -> Callable[[str], list[str]]:
    """How to cut the text for a `per` limit: the whole text, or its sentences, paragraphs..."""
    if per is None:
        return lambda text: [text]
    unit = _unit(per)
    if unit not in allowed:
        raise RubricError(
            f"{check}: `per` must be one of {', '.join(allowed)}, got {per!r}", field="per"
        )
    return lambda text: unit_pieces(text, unit)


def _counted(
    count: Callable[[str], int],
    singular: str,
    plural: str,
    limits: Bounds,
    pieces: Callable[[str], list[str]],
    per: str | None,
) -> TextTest:
    """A text test counting in the whole text, or in each piece when there is a `per` limit."""
    if per is None:
        return lambda text: count_finding(count(text), singular, plural, limits)
    unit = _unit(per)

    def test(text: str) -> tuple[bool, str]:
        counts = [count(piece) for piece in pieces(text)]
        if not counts:
            return True, f"has no {unit}, so none breaks the limit ({limits.text} {plural})"
        for number, found in enumerate(counts, start=1):
            if found not in limits:
                noun = singular if found == 1 else plural
                return False, f"{unit} {number} has {found} {noun}, needs {limits.text}"
        low, high = min(counts), max(counts)
        spread = f"{low}" if low == high else f"{low} to {high}"
        return True, f"every {unit} has {spread} {plural}, needs {limits.text}"

    return test
