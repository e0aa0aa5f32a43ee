"""Counting checks: words, sentences, paragraphs, bullets, sections, letters, keywords...

Each takes a relation as keyword bounds (`at_least`, `at_most`, `exactly`, `fewer_than` or
`less_than`, `more_than`; see `CountBounds`) and reports the count it found, as in
`has 312 words, needs at most 300`. What a word, sentence, paragraph, bullet point or section is
is defined once, in `rubricate.checks._units`, and in `docs/checks.md`.
"""

from __future__ import annotations

import re
from typing import Unpack

from .._exceptions import RubricError
from ._check import Bounds, CountBounds, TextTest, count_finding
from ._registry import catalogue_check
from ._units import (
    bullet_lines,
    has_word,
    heading_lines,
    paragraphs,
    phrase_pattern,
    section_markers,
    sentences,
    words,
)

__all__ = [
    "bullet_count",
    "capital_word_count",
    "highlight_count",
    "keyword_count",
    "letter_count",
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
def word_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of words is within the bounds.

    A word is a run of non-whitespace characters holding at least one letter or digit:
    `don't`, `well-known` and `3.14` are one word each; a lone `-` or `—` is none.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.word_count(at_most=300)
        ```

    """
    limits = Bounds.from_args("word_count", bounds)
    return lambda text: count_finding(len(words(text)), "word", "words", limits)


@catalogue_check
def sentence_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of sentences is within the bounds.

    A sentence ends at `.`, `!`, `?`, `…` (then whitespace or the end), at `。！？`, or at a
    paragraph break, list item or heading; a period after `Mr`, `Dr`, `e.g`, an initial and
    other common abbreviations ends nothing. Only pieces holding a word count.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.sentence_count(fewer_than=5)
        ```

    """
    limits = Bounds.from_args("sentence_count", bounds)
    return lambda text: count_finding(len(sentences(text)), "sentence", "sentences", limits)


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
