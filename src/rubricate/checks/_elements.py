"""Counting checks on what the text holds: bullets, lines, sections, emojis, keywords...

The elements: bullet points, lines, numbered items, emojis, sections, letters, keywords, words
in capitals, placeholders, highlights, links, e-mail addresses, hashtags, code blocks, tables
and punctuation marks. Bounds and findings work as in `_counting.py`. What a
bullet point, a heading or a section is is defined once, in `rubricate.checks._units`, and in
`docs/checks.md`.
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
    code_blocks,
    emails,
    emojis,
    has_word,
    hashtags,
    heading_lines,
    numbered_lines,
    phrase_pattern,
    section_markers,
    tables,
    urls,
    words,
)

__all__ = [
    "bullet_count",
    "capital_word_count",
    "code_block_count",
    "email_count",
    "emoji_count",
    "hashtag_count",
    "highlight_count",
    "keyword_count",
    "letter_count",
    "line_count",
    "mark_count",
    "numbered_count",
    "placeholder_count",
    "section_count",
    "table_count",
    "table_size",
    "url_count",
]

_SNIPPET = 40
# `[name]` with some non-blank text on one line, not a Markdown link `[text](url)`.
_PLACEHOLDER = re.compile(r"\[([^\[\]\n]*)\](?!\()")
# The number's placeholder in a marker written as it reads: `SECTION X`, `Part N`, `Step <n>`.
_NUMBER_PLACEHOLDER = re.compile(r"\s+(?:[A-Z]|#|<\w+>|\{\w+\}|\[\w+\])$")
# `*text*` or `**text**` on one line, hugging its text as Markdown emphasis does.
_HIGHLIGHT = re.compile(r"(?<![*\w])(\*\*?)(?=[^\s*])([^*\n]*?[^\s*])\1(?![*\w])")


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


def _found_count(
    name: str, find: Callable[[str], list[str]], noun: tuple[str, str], bounds: CountBounds
) -> TextTest:
    """A count of what `find` picks out of the text, its first find named when it fails."""
    limits = Bounds.from_args(name, bounds)

    def test(text: str) -> tuple[bool, str]:
        found = find(text)
        passed, finding = count_finding(len(found), *noun, limits)
        if found and not passed:
            first = found[0] if len(found[0]) <= _SNIPPET else found[0][:_SNIPPET] + "..."
            return passed, f"{finding} (first: {first!r})"
        return passed, finding

    return test


@catalogue_check
def url_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of links (web addresses) is within the bounds.

    A link is an address starting with `http://`, `https://` or `www.`, or a bare domain with a
    common top-level domain (`example.com/help`); a Markdown link `[text](https://...)` counts
    once. For "include a link" (`at_least: 1`) and "no links"
    (`exactly: 0`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.url_count(at_least=1)
        ```

    """
    return _found_count("url_count", urls, ("link", "links"), bounds)


@catalogue_check
def email_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of e-mail addresses (`name@example.com`) is within the bounds.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.email_count(at_least=1)
        ```

    """
    return _found_count("email_count", emails, ("e-mail address", "e-mail addresses"), bounds)


@catalogue_check
def hashtag_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of hashtags (`#Spring`) is within the bounds.

    A hashtag is `#` then a letter or underscore and word characters, not inside a word and
    not in a code block; a Markdown heading's `# ` and `#1` are none.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.hashtag_count(at_least=2)
        ```

    """
    return _found_count("hashtag_count", hashtags, ("hashtag", "hashtags"), bounds)


@catalogue_check
def code_block_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of fenced code blocks is within the bounds.

    A code block runs from a line opening with three backticks or tildes (and any language
    tag, as in `` ```json ``) to the line that closes it; inline `code` is none. For "put the
    command in a code block" (`at_least: 1`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.code_block_count(at_least=1)
        ```

    """
    return _found_count("code_block_count", code_blocks, ("code block", "code blocks"), bounds)


@catalogue_check
def table_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of Markdown tables is within the bounds.

    A table is a line holding `|`, then a delimiter row of dashes (`|---|:--:|`), then its
    rows. For "present it as a table" (`at_least: 1`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.table_count(at_least=1)
        ```

    """
    return _found_count(
        "table_count", lambda text: [rows[0] for rows in tables(text)], ("table", "tables"), bounds
    )


@catalogue_check
def mark_count(mark: str, **bounds: Unpack[CountBounds]) -> TextTest:
    """The punctuation mark or symbol appears a number of times within the bounds.

    Every occurrence counts, wherever it is (`!!` is two). For "no exclamation marks"
    (`mark: "!"`, `exactly: 0`); words are counted with `keyword_count`.

    Args:
        mark: The mark or symbol (no letter or digit), such as `!`, `;` or `&`.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.mark_count("!", exactly=0)  # no exclamation marks
        ```

    """
    if not isinstance(mark, str) or not mark.strip() or any(c.isalnum() for c in mark):
        raise RubricError(
            f"mark_count: `mark` must be punctuation or a symbol (no letter or digit), "
            f"got {mark!r}",
            field="mark",
        )
    symbol = mark.strip()
    limits = Bounds.from_args("mark_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        return count_finding(text.count(symbol), f"{symbol!r} mark", f"{symbol!r} marks", limits)

    return test


_DIMENSIONS = ("rows", "columns")


@catalogue_check
def table_size(dimension: str, **bounds: Unpack[CountBounds]) -> TextTest:
    """Every Markdown table has a number of rows, or of columns, within the bounds.

    Rows are the table's body rows: the header row and the delimiter row (`|---|`) do not
    count. Columns are the header's cells. A text with no table fails.

    Args:
        dimension: `rows` or `columns`.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.table_size("columns", exactly=3)
        ```

    """
    wanted = dimension.strip().casefold() if isinstance(dimension, str) else dimension
    if wanted not in _DIMENSIONS:
        raise RubricError(
            f"table_size: `dimension` must be 'rows' or 'columns', got {dimension!r}",
            field="dimension",
        )
    limits = Bounds.from_args("table_size", bounds)
    singular = wanted[:-1]

    def test(text: str) -> tuple[bool, str]:
        found = tables(text)
        if not found:
            return False, f"has no table, needs {wanted} {limits.text}"
        for number, rows in enumerate(found, start=1):
            size = len(rows) - 2 if wanted == "rows" else len(_cells(rows[0]))
            passed, finding = count_finding(size, singular, wanted, limits)
            if not passed:
                return False, finding if len(found) == 1 else f"table {number} {finding}"
        return True, finding if len(found) == 1 else f"every table {finding}"

    return test


def _cells(row: str) -> list[str]:
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return body.split("|")
