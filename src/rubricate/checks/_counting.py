"""Counting checks: words, sentences, paragraphs, bullets, sections, letters, keywords...

Each takes a relation as keyword bounds (`at_least`, `at_most`, `exactly`, `fewer_than` or
`less_than`, `more_than`; see `CountBounds`) and reports the count it found, as in
`has 312 words, needs at most 300`. What a word, sentence, paragraph, bullet point or section is
is defined once, in `rubricate.checks._units`, and in `docs/checks.md`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Unpack

from .._exceptions import RubricError
from ._check import Bounds, CountBounds, TextTest, count_finding
from ._registry import catalogue_check
from ._units import (
    bullet_lines,
    emojis,
    has_word,
    heading_lines,
    numbered_lines,
    paragraphs,
    phrase_pattern,
    section_markers,
    sentences,
    words,
)

__all__ = [
    "bullet_count",
    "capital_word_count",
    "character_count",
    "emoji_count",
    "highlight_count",
    "keyword_count",
    "letter_count",
    "line_count",
    "numbered_count",
    "paragraph_count",
    "part_count",
    "placeholder_count",
    "section_count",
    "sentence_count",
    "word_count",
]

# `[name]` with some non-blank text on one line, not a Markdown link `[text](url)`.
_PLACEHOLDER = re.compile(r"\[([^\[\]\n]*)\](?!\()")
# The number's placeholder in a marker written as it reads: `SECTION X`, `Part N`, `Step <n>`.
_NUMBER_PLACEHOLDER = re.compile(r"\s+(?:[A-Z]|#|<\w+>|\{\w+\}|\[\w+\])$")
# `*text*` or `**text**` on one line, hugging its text as Markdown emphasis does.
_HIGHLIGHT = re.compile(r"(?<![*\w])(\*\*?)(?=[^\s*])([^*\n]*?[^\s*])\1(?![*\w])")


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
    return lambda text: count_finding(
        len(paragraphs(text, rule)), "paragraph", "paragraphs", limits
    )


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


@catalogue_check
def bullet_count(numbered: bool = False, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of bullet points is within the bounds.

    A bullet point is a line starting (after any indentation) with `-`, `*`, `+` or `•` and
    whitespace, holding a word, that is not a horizontal rule and not inside a code fence.

    Args:
        numbered: Also count numbered items (`1.` or `1)` and whitespace).
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.bullet_count(exactly=0)  # no bullet points
        ```

    """
    limits = Bounds.from_args("bullet_count", bounds)
    noun = "list item" if numbered else "bullet point"

    def test(text: str) -> tuple[bool, str]:
        return count_finding(len(bullet_lines(text, numbered=numbered)), noun, f"{noun}s", limits)

    return test


@catalogue_check
def line_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of lines holding a word is within the bounds.

    For poems and short forms ("a haiku of three lines"): blank lines and lines of only
    punctuation or Markdown marks do not count; a long line wrapped on screen is one line.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.line_count(exactly=3)
        ```

    """
    limits = Bounds.from_args("line_count", bounds)
    return lambda text: count_finding(
        sum(1 for line in text.splitlines() if has_word(line)), "line", "lines", limits
    )


@catalogue_check
def numbered_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of numbered list items is within the bounds.

    A numbered item is a line starting (after any indentation) with a number and `.` or `)`,
    then whitespace (`1. Flour`, `2) Sugar`), holding a word, outside code fences. For "no
    numbered list" (`exactly: 0`) and "use a numbered list" (`at_least: 1`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.numbered_count(exactly=0)  # no numbered list
        ```

    """
    limits = Bounds.from_args("numbered_count", bounds)
    return lambda text: count_finding(
        len(numbered_lines(text)), "numbered item", "numbered items", limits
    )


@catalogue_check
def emoji_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of emojis is within the bounds.

    An emoji is a pictographic character (the Unicode emoji, symbol and dingbat blocks, not
    arrows, ©, ® or ™), with its skin-tone modifiers and zero-width-joined parts counted once
    (👩‍💻 is one). For "no emojis" (`exactly: 0`) and "use emojis" (`at_least: 1`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.emoji_count(exactly=0)  # no emojis
        ```

    """
    limits = Bounds.from_args("emoji_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        found = emojis(text)
        passed, finding = count_finding(len(found), "emoji", "emojis", limits)
        return passed, f"{finding} (first: {found[0]})" if found and not passed else finding

    return test


@catalogue_check
def section_count(marker: str | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of sections is within the bounds.

    Without a marker, a section starts at each Markdown heading (`#` to `######`, whitespace,
    a title holding a word) outside code fences. With a marker such as `SECTION`, a section
    starts at each occurrence of that word (case-sensitive, whole word) followed by a number,
    as in `SECTION 2`. Text before the first section is not one.

    Args:
        marker: The word that opens each section, followed by its number; a placeholder for
            the number after it (`SECTION X`, `Part N`, `Chapter #`, `Step <n>`) is ignored.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.section_count(marker="SECTION", exactly=4)
        ```

    """
    limits = Bounds.from_args("section_count", bounds)
    if marker is not None:
        marker = _NUMBER_PLACEHOLDER.sub("", marker.strip())
        if not marker:
            raise RubricError("section_count: `marker` must not be blank", field="marker")
    label = f"marked {marker} <n>" if marker else "headed by a Markdown heading"

    def test(text: str) -> tuple[bool, str]:
        found = section_markers(text, marker) if marker else heading_lines(text)
        return count_finding(len(found), f"section {label}", f"sections {label}", limits)

    return test


@catalogue_check
def letter_count(letter: str, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of times a letter appears is within the bounds.

    Counted case-insensitively over the whole text (`Q` and `q` are the same letter).

    Args:
        letter: The letter to count: one character that is a letter.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.letter_count("q", at_least=3)
        ```

    """
    limits = Bounds.from_args("letter_count", bounds)
    if len(letter) != 1 or not letter.isalpha():
        raise RubricError(
            f"letter_count: `letter` must be a single letter, got {letter!r}", field="letter"
        )
    wanted = letter.lower()

    def test(text: str) -> tuple[bool, str]:
        count = text.lower().count(wanted)
        times = "time" if count == 1 else "times"
        return count in limits, f"has the letter {wanted!r} {count} {times}, needs {limits.text}"

    return test


@catalogue_check
def keyword_count(keyword: str, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of times a keyword or phrase appears is within the bounds.

    Matched case-insensitively as whole words (`cat` is not found in `category`); whitespace
    inside a phrase matches any whitespace.

    Args:
        keyword: The word or phrase to count.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.keyword_count("privacy", at_least=2)
        ```

    """
    limits = Bounds.from_args("keyword_count", bounds)
    phrase = " ".join(keyword.split())
    if not phrase:
        raise RubricError("keyword_count: `keyword` must not be blank", field="keyword")
    pattern = phrase_pattern(phrase)

    def test(text: str) -> tuple[bool, str]:
        count = len(pattern.findall(text))
        times = "time" if count == 1 else "times"
        return count in limits, f"has {phrase!r} {count} {times}, needs {limits.text}"

    return test


@catalogue_check
def capital_word_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of words in all capitals is within the bounds.

    A word (as in `word_count`) is in all capitals when it has at least one letter with case and
    none of its letters are lowercase: `NASA`, `I` and `HELLO,` count; `Hello` and `AI-ready` do
    not.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.capital_word_count(fewer_than=4)
        ```

    """
    limits = Bounds.from_args("capital_word_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        count = sum(1 for word in words(text) if word.isupper())
        return count_finding(count, "word in all capitals", "words in all capitals", limits)

    return test


@catalogue_check
def placeholder_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of square-bracket placeholders such as `[address]` is within the bounds.

    A placeholder is `[`, some non-blank text on one line without brackets, and `]`; a Markdown
    link `[text](url)` is not one.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.placeholder_count(at_least=2)
        ```

    """
    limits = Bounds.from_args("placeholder_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        count = sum(1 for m in _PLACEHOLDER.finditer(text) if m.group(1).strip())
        return count_finding(count, "placeholder like [name]", "placeholders like [name]", limits)

    return test


@catalogue_check
def highlight_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of Markdown-highlighted spans such as `*this*` or `**this**` is in the bounds.

    A highlight is text between single or double asterisks on one line, hugging the asterisks
    (`*word*`, not `* word *`) and holding a word; bullet markers are never highlights.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.highlight_count(at_least=2)
        ```

    """
    limits = Bounds.from_args("highlight_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        count = sum(1 for m in _HIGHLIGHT.finditer(text) if has_word(m.group(2)))
        return count_finding(
            count, "highlighted span like *this*", "highlighted spans like *this*", limits
        )

    return test


_PER_WORDS = ("sentence", "paragraph", "line", "item")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+•]|\d{1,9}[.)])\s+")


def _unit(per: str) -> str:
    return per.strip().casefold().removesuffix("s")


def _pieces(check: str, per: str | None, allowed: tuple[str, ...]) -> Callable[[str], list[str]]:
    """How to cut the text for a `per` limit: the whole text, or its sentences, paragraphs..."""
    if per is None:
        return lambda text: [text]
    cuts: dict[str, Callable[[str], list[str]]] = {
        "sentence": sentences,
        "paragraph": paragraphs,
        "line": lambda text: [line for line in text.splitlines() if has_word(line)],
        "item": lambda text: [
            _LIST_MARKER.sub("", item) for item in bullet_lines(text, numbered=True)
        ],
    }
    if _unit(per) not in allowed:
        raise RubricError(
            f"{check}: `per` must be one of {', '.join(allowed)}, got {per!r}", field="per"
        )
    return cuts[_unit(per)]


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
