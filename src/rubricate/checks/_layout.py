"""Counting checks on the text's layout: list items, lines, sections, code blocks, tables.

Bullet points, numbered items, lines holding a word, sections (Markdown headings or a marker
word), fenced code blocks, Markdown tables and their rows and columns. Bounds and findings work
as in `_counting.py`. What a bullet point, a heading, a section or a table is is defined once,
in `rubricate.checks._units`, and in `docs/checks.md`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Unpack

from .._exceptions import CheckUndecided, RubricError
from ._check import Bounds, CountBounds, TextTest, count_finding, found_count
from ._phrases import choice, normalize, required_phrases, shortened
from ._registry import catalogue_check
from ._units import (
    BOLD_LINE,
    CASES,
    LINE_PARTS,
    bullet_lines,
    code_blocks,
    csv_header,
    csv_rows,
    dividers,
    entries,
    entry_kind,
    has_word,
    heading_lines,
    heading_text,
    headings_seen,
    in_case,
    line_kinds,
    markdown_marks,
    moment,
    nested_lines,
    numbered_lines,
    part_line,
    questions,
    section_lines,
    section_markers,
    table_cells,
    tables,
    title_line,
)

__all__ = [
    "alphabetical",
    "blank_line_after",
    "bullet_count",
    "chronological",
    "code_block_count",
    "divider_count",
    "entry_count",
    "heading_count",
    "heading_names",
    "label_case",
    "line_count",
    "markdown_count",
    "nested_item_count",
    "nothing_but",
    "numbered_count",
    "question_count",
    "section_count",
    "table_count",
    "table_header",
    "table_size",
]

# The number's placeholder in a marker written as it reads: `SECTION X`, `Part N`, `Step <n>`.
_NUMBER_PLACEHOLDER = re.compile(r"\s+(?:[A-Z]|#|<\w+>|\{\w+\}|\[\w+\])$")


@catalogue_check
def divider_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of horizontal rules (dividers) is within the bounds.

    A divider is a line of three or more `-`, `*` or `_` (spaces between allowed), outside code
    blocks; a `---` right under a line of text underlines a heading and is none. For "sections
    separated by horizontal rules (---)", "exactly 2 horizontal rules", "no dividers".

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.divider_count(exactly=2)
        ```

    """
    return found_count("divider_count", dividers, ("divider", "dividers"), bounds)


@catalogue_check
def markdown_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of Markdown marks is within the bounds: `exactly: 0` for "no Markdown".

    A mark is what a reader of the raw text sees as syntax: a `#` heading, `*` or `_` emphasis,
    inline code, a fenced code block, a `[text](url)` link, a table, a `>` quote line, a rule,
    a bullet point marked `*` or `+`. Bullet points marked `-` and numbered items are how plain
    text sets out a list too, so they count only where the verdict does not hang on them: when
    it does ("plain text only" of a reply whose one list is `- ` lines), the judge decides.
    For "no markdown, the widget shows it raw", "plain text only", "format it in Markdown".

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.markdown_count(exactly=0)  # plain text only
        ```

    """
    limits = Bounds.from_args("markdown_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        marks, listed = markdown_marks(text)
        passed, finding = count_finding(len(marks), "Markdown mark", "Markdown marks", limits)
        if listed and (len(marks) + len(listed) in limits) != passed:
            raise CheckUndecided(
                f"{finding}, besides {len(listed)} list lines marked '-' or numbered, which "
                "plain text uses too"
            )
        if marks and not passed:
            return passed, f"{finding} (first: {shortened(marks[0])!r})"
        return passed, finding

    return test


# A line's own label, with words after it: "HOST: Welcome back", "**Maya:** on it". At most
# three words and a letter in it, so "10:30" and "Note to self, remember:" are none.
_LABEL_WORDS = 3


@catalogue_check
def label_case(case: str) -> TextTest:
    """Every line that opens with a label ("HOST:", "Maya:") has the label in the case.

    A label is at most three words before a colon that opens a line and has words after it on
    the line, bold or a list marker around it allowed (a script's speaker names, a Q&A's `Q:`,
    a form's field names), or a short line wholly in bold over its text (`**Wrong password**`).
    There must be one. For "speaker names in ALL CAPS followed by a
    colon" (`upper`) and "sentence case for the bold labels" (`sentence`); the cases are those
    of `heading_case`.

    Args:
        case: `upper`, `lower`, `title` or `sentence`.

    Example:
        ```python
        checks.label_case("upper")  # "speaker labels in capitals (HOST:, GUEST:)"
        ```

    """
    wanted = choice("label_case", "case", case, CASES)

    def test(text: str) -> tuple[bool, str]:
        labels = [
            line.name
            for line in section_lines(text)
            if line.name is not None
            and (line.rest or (line.heading and BOLD_LINE.fullmatch(line.text.strip())))
            and len(line.name.split()) <= _LABEL_WORDS
            and any(char.isalpha() for char in line.name)
        ]
        if not labels:
            return False, "has no line that opens with a label and a colon"
        for label in labels:
            if not in_case(label, wanted):
                return False, f"has the label {label!r}, needs it in {wanted} case"
        noun = "label" if len(labels) == 1 else "labels"
        return True, f"has {len(labels)} line {noun}, all in {wanted} case"

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


# The marks a bullet point opens with, and the words people call them by in findings.
_MARKERS = {"-": "hyphens", "*": "asterisks", "+": "plus signs", "•": "bullet dots (•)"}


@catalogue_check
def bullet_marker(marker: str | None = None) -> TextTest:
    """Every bullet point opens with `marker`; without one, all open with the same mark.

    For "use • for bullet points, not hyphens" (`•`), "bullets are marked with hyphens" (`-`)
    and "one bullet style throughout" (no marker). The marks are `-`, `*`, `+` and `•`, as for
    `bullet_count`; numbered items are none. A text without bullet points fails a rule that
    names its marker and passes "one style throughout".

    Args:
        marker: `-`, `*`, `+` or `•`; `None` for one mark, whichever it is.

    Example:
        ```python
        checks.bullet_marker("•")  # "bullets use the • character"
        ```

    """
    if marker is not None:
        marker = choice("bullet_marker", "marker", marker, tuple(_MARKERS))

    def test(text: str) -> tuple[bool, str]:
        marks = [line.lstrip()[0] for line in bullet_lines(text)]
        if not marks:
            if marker is None:
                return True, "has no bullet points"
            return False, f"has no bullet points, needs them marked with {_MARKERS[marker]}"
        used = sorted(set(marks), key=marks.index)
        named = " and ".join(_MARKERS[mark] for mark in used)
        if marker is None:
            if len(used) == 1:
                return True, f"marks all {len(marks)} bullet points with {named}"
            return False, f"marks its bullet points with {named}, needs one mark throughout"
        others = [mark for mark in used if mark != marker]
        if others:
            return False, (
                f"marks bullet points with {' and '.join(_MARKERS[m] for m in others)}, "
                f"needs {_MARKERS[marker]}"
            )
        return True, f"marks all {len(marks)} bullet points with {_MARKERS[marker]}"

    return test


@catalogue_check
def entry_count(noun: str | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of entries (what "five tips" or "three steps" count) is within the bounds.

    The entries are the text's top-level list items when it has a list (a nested item is a
    detail of the one above it); else its lines, less code, the title, headings, a table's
    header row and a lead-in ending in `:`; and when that leaves a single line, its sentences.
    For a count of things in the user's own noun: "exactly three tips", "at most four steps";
    in one paragraph of prose, a sentence need not be one of them (a headline may take two),
    so with a `noun` the judge decides (`CheckUndecided`).

    Args:
        noun: The things counted ("ingredients"): in a text with several lists, only those
            whose label line names them count (a recipe's ingredients, not its steps).
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.entry_count(exactly=5, noun="tips")  # "give exactly five tips"
        ```

    """
    limits = Bounds.from_args("entry_count", bounds)
    if noun is not None and (not isinstance(noun, str) or not has_word(noun)):
        raise RubricError(f"entry_count: `noun` must be a word, got {noun!r}", field="noun")
    name = f" ({noun})" if noun else ""

    def test(text: str) -> tuple[bool, str]:
        kind, found = entry_kind(text, noun)
        if kind == "sentences" and noun is not None:
            # "three headlines" of a news briefing in one paragraph: a headline may take two
            # sentences, so the count is anywhere from one to the sentences'
            verdicts = {count in limits for count in range(1, len(found) + 1)}
            if len(verdicts) > 1:
                raise CheckUndecided(f"the text is one paragraph: which sentences make one {noun}")
        return count_finding(len(found), f"entry{name}", f"entries{name}", limits)

    return test


@catalogue_check
def alphabetical(descending: bool = False) -> TextTest:
    """The entries are in alphabetical order ("list the names alphabetically", "A to Z").

    The entries are as in `entry_count`: the top-level list items, else the lines, else the
    sentences of a single line. They are compared by their text, with case, accents, Markdown
    marks and a leading "the", "a" or "an" aside. Where the check finds fewer than two
    entries, what a reader would sort is not what it found (six clauses under one numbered
    line): it raises `CheckUndecided` and the judge decides.

    Args:
        descending: Z to A instead.

    Example:
        ```python
        checks.alphabetical()  # "items in alphabetical order"
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        found = entries(text)
        if len(found) < 2:
            raise CheckUndecided(f"has {'one entry' if found else 'no entries'}: nothing to order")
        misplaced = _out_of_order(found, [_sort_key(entry) for entry in found], descending)
        if misplaced is not None:
            return False, misplaced
        way = "Z to A" if descending else "A to Z"
        return True, f"has its {len(found)} entries in order, {way}"

    return test


@catalogue_check
def blank_line_after(part: str) -> TextTest:
    """A blank line follows a one-line part and more text comes after it.

    For "a blank line between the subject and the body" (a commit message or an e-mail with a
    "Subject:" line) and "leave a blank line after the greeting". The subject is the line
    labelled "Subject:", else the first line; the greeting the first line opening with one.

    Args:
        part: `subject`, `greeting` or `first_line`.

    Example:
        ```python
        checks.blank_line_after("subject")
        ```

    """
    if part not in LINE_PARTS:
        raise RubricError(
            f"blank_line_after: `part` must be one of {', '.join(LINE_PARTS)}, got {part!r}",
            field="part",
        )
    line = "first line" if part == "first_line" else f"{part} line"

    def test(text: str) -> tuple[bool, str]:
        index = part_line(text, part)
        if index is None:
            return False, f"has no {line}"
        after = text.splitlines()[index + 1 :]
        if not any(has_word(rest) for rest in after):
            return False, f"has nothing after the {line}"
        if after[0].strip():
            return False, f"has {shortened(after[0].strip())!r} right after the {line}"
        return True, f"has a blank line after the {line}"

    return test


@catalogue_check
def question_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of questions is within the bounds.

    When the text is one list whose items are at least half questions, each item is a
    question, a request among them ("Describe a time you..."); else a question is a sentence
    ending in `?`. For "exactly five questions", "ask no more than one question".

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.question_count(exactly=5)  # "five survey questions"
        ```

    """
    limits = Bounds.from_args("question_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        found, listed = questions(text)
        passed, finding = count_finding(len(found), "question", "questions", limits)
        return passed, f"{finding} (the items of its list)" if listed else finding

    return test


@catalogue_check
def chronological(descending: bool = False) -> TextTest:
    """The entries are in time order, oldest first ("in chronological order", "oldest first").

    The entries are as in `entry_count` (list items, else table rows, else lines). Each is
    dated by its first date ("1969-07-20", "14 March 2023", "(2008)") or else its first clock
    time ("14:20 UTC", "7 pm"); entries of the same date keep any order. When an entry holds
    neither, or some hold dates and others only times, the order is not for code to say: the
    check raises `CheckUndecided` and the judge decides.

    Args:
        descending: Newest first ("most recent first", "reverse chronological order").

    Example:
        ```python
        checks.chronological()  # "events listed oldest to newest"
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        found = entries(text)
        dated = [(entry, moment(entry)) for entry in found]
        undated = next((entry for entry, when in dated if when is None), None)
        if undated is not None:
            raise CheckUndecided(f"entry {shortened(undated)!r} holds no date or time")
        kinds = {when[0] for _, when in dated if when is not None}
        if len(kinds) > 1:
            raise CheckUndecided("some entries are dated and others hold only a time")
        keys = [when[1] for _, when in dated if when is not None]
        misplaced = _out_of_order(found, keys, descending)
        if misplaced is not None:
            return False, misplaced
        way = "newest first" if descending else "oldest first"
        return True, f"has its {len(found)} entries in time order, {way}"

    return test


def _out_of_order(found: list[str], keys: Sequence[Any], descending: bool) -> str | None:
    """The first entry out of order by its key, said with the one before it; `None` if none."""
    for index in range(1, len(keys)):
        before, after = keys[index - 1], keys[index]
        if (after < before) if not descending else (after > before):
            return f"has {shortened(found[index])!r} after {shortened(found[index - 1])!r}"
    return None


def _sort_key(entry: str) -> str:
    plain = unicodedata.normalize("NFKD", entry.casefold())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    plain = re.sub(r"^[^\w]+", "", plain)
    return re.sub(r"^(?:the|an?)\s+", "", plain)


_ONLY = ("list", "table", "code")


@catalogue_check
def nothing_but(kind: str) -> TextTest:
    """The text is nothing but a list, a table or code: no line of other text around it.

    For "bullets only, no intro text", "nothing outside the table", "only the code block".
    `list`: every non-blank line is a list item (bullet or numbered) or indented under one;
    `table`: every one is a row of a Markdown table; `code`: every one is inside a fenced block,
    fences included.

    Args:
        kind: `list`, `table` or `code`.

    Example:
        ```python
        checks.nothing_but("list")  # "bullets only, no intro text"
        ```

    """
    wanted = choice("nothing_but", "kind", kind, _ONLY)

    def test(text: str) -> tuple[bool, str]:
        kinds = line_kinds(text)
        if not any(k == wanted for k, _ in kinds):
            return False, f"has no {wanted}"
        other = next((line for k, line in kinds if k != wanted), None)
        if other is None:
            return True, f"is nothing but the {wanted}"
        return False, f"has {shortened(other)!r} outside the {wanted}"

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
def nested_item_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of nested list items (sub-bullets) is within the bounds.

    A nested item is a bullet point or numbered item indented deeper than an item above it in
    the same list. For "no nested lists" (`exactly: 0`), "at least one sub-bullet".

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.nested_item_count(exactly=0)  # a flat list
        ```

    """
    return found_count(
        "nested_item_count", nested_lines, ("nested list item", "nested list items"), bounds
    )


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
def heading_count(level: int | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of headings a reader sees is within the bounds, Markdown or not.

    A heading is a Markdown heading, a line wholly in bold, a `<<title>>`, the text's title
    line, or a short label line over a list or standing alone above more text ("What went
    well" over its bullets); a text that is only a list of short titles is an outline, each
    item a heading. For "exactly two headings", "no headings", "at most 1 heading";
    `section_count` counts Markdown headings only, for "markdown headings".

    Args:
        level: Count only Markdown headings of this level, 1 to 6 (`#` is an H1, `##` an
            H2): "no H1 headings", "use H2 headings for the sections". A heading level is
            Markdown's, so a bold line or a label line is none.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.heading_count(exactly=2)
        checks.heading_count(level=1, exactly=0)  # no H1 headings
        ```

    """
    if level is None:
        return found_count("heading_count", headings_seen, ("heading", "headings"), bounds)
    if not 1 <= level <= 6:
        raise RubricError(
            f"heading_count: `level` must be a Markdown heading level, 1 to 6, got {level!r}",
            field="level",
        )
    noun = (f"H{level} heading", f"H{level} headings")
    return found_count("heading_count", lambda text: heading_lines(text, level), noun, bounds)


@catalogue_check
def heading_level(
    required: bool = True, skip_title: bool = False, **bounds: Unpack[CountBounds]
) -> TextTest:
    """Every Markdown heading is at a level within the bounds: "every section heading is H3".

    The bounds apply to each heading's level (the number of `#`: `##` is an H2), not to a
    count: "only H2 headings" is `exactly=2`, "no H3 or deeper headings" `at_most=2`. A bold
    line or a label line has no level and is not judged. With `required` the text needs a
    Markdown heading at all, as "use only H2 headings" does; without it a text with none passes.

    Args:
        required: Whether a text without any Markdown heading fails.
        skip_title: Leave out a heading on the text's first line at another level, its
            title: "every section heading is H2" of a report under `# Title`.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`) each heading's level must meet; see `CountBounds`.

    Example:
        ```python
        checks.heading_level(exactly=3)  # every heading is an H3
        checks.heading_level(at_most=2, required=False)  # no H3 or deeper
        ```

    """
    limits = Bounds.from_args("heading_level", bounds)

    def test(text: str) -> tuple[bool, str]:
        found = heading_lines(text)
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if skip_title and found and found[0] == first and _level(found[0]) not in limits:
            found = found[1:]  # the title, at its own level
        if not found:
            if required:
                return False, f"has no Markdown heading, needs headings at level {limits.text}"
            return True, "has no Markdown heading"
        for line in found:
            if (level := _level(line)) not in limits:
                return False, f"has an H{level} heading {shortened(line)!r}, needs {limits.text}"
        plural = "s are" if len(found) > 1 else " is"
        return True, f"its {len(found)} Markdown heading{plural} at level {limits.text}"

    return test


def _level(heading: str) -> int:
    """A Markdown heading line's level: `## Costs` is 2."""
    return len(heading) - len(heading.lstrip("#"))


@catalogue_check
def heading_names(names: Sequence[str], exact: bool = False, ordered: bool = False) -> TextTest:
    """The text has a heading for each name: "three sections: Yesterday, Today, Blockers".

    The headings are those a reader sees (as `heading_count` finds them) and the labels that
    open a line before a colon (`**Today:** pairing with Lee`), compared without their marks
    (`#`, bold, the colon), case and spacing aside; a note in brackets after the name may be
    added ("Today (Tue)" names "Today"). With `exact`, only a heading is another one: a line
    label may be prose ("Note: the office is closed"). A name found only as a line of its own
    that is no heading a check sees ("The space" above a paragraph of a listing), or as a
    label the title's marks hide ("**Title:** ..."), leaves the criterion to the judge.

    Args:
        names: The headings the text must have.
        exact: No other heading, the title aside.
        ordered: The headings come in the order given.

    Example:
        ```python
        checks.heading_names(["Yesterday", "Today", "Blockers"], exact=True, ordered=True)
        ```

    """
    named = required_phrases("heading_names", "names", names)
    wanted = [name.casefold() for name in named]
    asked = ", ".join(named)

    def test(text: str) -> tuple[bool, str]:
        labelled = _section_labels(text)
        seen = [label for label, _ in labelled]
        title = title_line(text)
        found = [_names_in(heading) for heading in seen]
        positions: list[int] = []
        for name, column in zip(named, wanted, strict=True):
            position = next((i for i, names in enumerate(found) if column in names), None)
            if position is None:
                if _line_named(text, column):
                    # "The space" alone on a line of a listing, "**Title:** ..." of a bug report
                    raise CheckUndecided(f"a line reads {name!r}, which a reader may take for it")
                listed_seen = " | ".join(seen) or "none"
                return False, f"has no heading {name!r} (its headings: {listed_seen})"
            positions.append(position)
        # A label line that names nothing asked ("Note: ...") may be prose; a heading is not.
        others = [
            label
            for i, (label, heading) in enumerate(labelled)
            if heading and i not in positions and not (title and label == heading_text(title))
        ]
        if exact and others:
            return False, f"has the heading {others[0]!r}, needs only {asked}"
        if ordered and positions != sorted(positions):
            return False, f"has the headings {' | '.join(seen)}, needs them in the order {asked}"
        return True, f"has the headings {asked}"

    return test


# A label that opens a line before a colon: "**Today:** pairing", "- Pros: light", "Q: why?".


def _line_named(text: str, name: str) -> bool:
    """Whether a line of `text` is `name` alone or opens with it as a label, marks aside."""
    for line in text.splitlines():
        bare = re.sub(r"[#*_>`]", "", line).strip().casefold()
        if bare == name or bare.rstrip(":").strip() == name or bare.startswith(f"{name}:"):
            return True
    return False


def _section_labels(text: str) -> list[tuple[str, bool]]:
    """The headings and line labels of `text` in order, unmarked, each with whether a heading."""
    return [(line.name, line.heading) for line in section_lines(text) if line.name is not None]


@catalogue_check
def code_block_count(language: str | None = None, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of fenced code blocks is within the bounds.

    A code block runs from a line opening with three backticks or tildes (and any language
    tag, as in `` ```json ``) to the line that closes it; inline `code` is none. For "put the
    command in a code block" (`at_least: 1`).

    Args:
        language: Count only blocks tagged with this language, the tag's first word, case
            aside (`python` also takes `py`): "put the code in a fenced block tagged python".
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.code_block_count(at_least=1)
        checks.code_block_count(language="python", at_least=1)
        ```

    """
    if language is None:
        return found_count("code_block_count", code_blocks, ("code block", "code blocks"), bounds)
    tag = language.strip().casefold().lstrip("`")
    if not re.fullmatch(r"[\w+#.-]+", tag):
        raise RubricError(
            f"code_block_count: `language` must be one word, as in ```python, got {language!r}",
            field="language",
        )
    tags = _LANGUAGE_TAGS.get(tag, {tag})

    def tagged(text: str) -> list[str]:
        return [block for block in code_blocks(text) if _tag_of(block) in tags]

    noun = (f"code block tagged {tag}", f"code blocks tagged {tag}")
    return found_count("code_block_count", tagged, noun, bounds)


# One language's usual tags: "tagged python" takes ```py too.
_TAG_GROUPS = (
    {"python", "py", "python3"},
    {"javascript", "js"},
    {"typescript", "ts"},
    {"bash", "sh", "shell", "zsh", "console"},
    {"yaml", "yml"},
    {"csharp", "c#", "cs"},
    {"cpp", "c++"},
)
_LANGUAGE_TAGS = {tag: group for group in _TAG_GROUPS for tag in group}


@catalogue_check
def code_tagged(required: bool = True) -> TextTest:
    """Every fenced code block carries a language tag (```` ```bash ````), whatever the language.

    For "every code block needs a language tag", "code in fenced blocks tagged with a
    language"; for one language, use `code_block_count(language=...)`. With `required` (the
    default) the text needs a code block at all; without it ("code blocks, if any, need a
    language tag") a text with none passes.

    Args:
        required: Whether a text without any fenced code block fails.

    Example:
        ```python
        checks.code_tagged()  # "put the command in a code block with a language tag"
        checks.code_tagged(required=False)  # "if there's a code block, it has a language tag"
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        blocks = code_blocks(text)
        if not blocks:
            return not required, "has no fenced code block"
        for number, block in enumerate(blocks, start=1):
            if not _tag_of(block):
                opening = shortened(block.split("\n", 1)[0].strip())
                return False, f"code block {number} of {len(blocks)} opens {opening!r}, no tag"
        tags = ", ".join(sorted({_tag_of(block) for block in blocks}))
        if len(blocks) == 1:
            return True, f"its code block carries a language tag ({tags})"
        return True, f"all {len(blocks)} code blocks carry a language tag ({tags})"

    return test


def _tag_of(block: str) -> str:
    opening = block.split("\n", 1)[0].strip().lstrip("`~").strip()
    return opening.split()[0].casefold() if opening else ""


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
    return found_count(
        "table_count", lambda text: [rows[0] for rows in tables(text)], ("table", "tables"), bounds
    )


_DIMENSIONS = ("rows", "columns")


@catalogue_check
def table_size(dimension: str, **bounds: Unpack[CountBounds]) -> TextTest:
    """Every Markdown table has a number of rows, or of columns, within the bounds.

    Rows are the table's body rows: the header row and the delimiter row (`|---|`) do not
    count. Columns are the header's cells. A text with no Markdown table that is comma- or
    tab-separated data (whole, or as its one code block) is one table, its first line the
    header: "a header row plus 4 data rows" of CSV. A text with neither fails.

    Args:
        dimension: `rows` or `columns`.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.table_size("columns", exactly=3)
        ```

    """
    wanted = choice("table_size", "dimension", dimension, _DIMENSIONS)
    limits = Bounds.from_args("table_size", bounds)
    singular = wanted[:-1]

    def test(text: str) -> tuple[bool, str]:
        found = [(len(rows) - 2, len(table_cells(rows[0]))) for rows in tables(text)]
        if not found and (records := csv_rows(text)) is not None:
            found = [(len(records) - 1, len(records[0]))]
        if not found:
            return False, f"has no table, needs {wanted} {limits.text}"
        for number, (body_rows, columns) in enumerate(found, start=1):
            size = body_rows if wanted == "rows" else columns
            passed, finding = count_finding(size, singular, wanted, limits)
            if not passed:
                return False, finding if len(found) == 1 else f"table {number} {finding}"
        return True, finding if len(found) == 1 else f"every table {finding}"

    return test


# A name as written in a header cell or a heading: Markdown emphasis and code marks aside;
# "Duration (min)" also names "Duration".
# Emphasis and code marks around a name, not inside one: `**Name**` is "Name", `signup_date` stays.
_NAME_MARKS = re.compile(r"(?<!\w)[*_`]+|[*_`]+(?!\w)")
_CELL_ASIDE = re.compile(r"\s*\([^()]*\)\s*$")


def _names_in(label: str) -> set[str]:
    """The names a header cell or heading gives, casefolded: itself, and itself less an aside."""
    bare = normalize(_NAME_MARKS.sub("", label)).casefold()
    return {bare, _CELL_ASIDE.sub("", bare)} - {""}


@catalogue_check
def table_header(
    columns: Sequence[str] | None = None,
    exact: bool = False,
    ordered: bool = False,
    case: str | None = None,
) -> TextTest:
    """Every table's header row names the given columns, or is in a letter case.

    The tables are the Markdown tables, else comma- or tab-separated data (its first record),
    as `table_size` reads them.

    A column is named by a header cell equal to it, case, spacing and Markdown emphasis aside;
    a unit in brackets after it may be added ("Duration (min)" names "Duration"). A text with
    no table fails. For "columns: Day, Workout, Duration", "include a Total column", "column
    headers in Title Case".

    Args:
        columns: The names the header must hold.
        exact: The header holds those columns and no other.
        ordered: The columns come in the order given (others may come between them unless
            `exact`).
        case: Every header cell holding a letter is in this case: `title`, `sentence`,
            `lower` or `upper`, as `heading_case` reads them.

    Example:
        ```python
        checks.table_header(columns=["Day", "Workout", "Duration"], exact=True)
        checks.table_header(case="title")
        ```

    """
    named = required_phrases("table_header", "columns", columns) if columns is not None else []
    wanted = [column.casefold() for column in named]
    if case is not None:
        case = choice("table_header", "case", case.strip().removesuffix(" case"), CASES)
    if not wanted and case is None:
        raise RubricError("table_header: give `columns`, `case` or both", field="columns")
    if (exact or ordered) and not wanted:
        raise RubricError("table_header: `exact` and `ordered` need `columns`", field="columns")
    asked = ", ".join(named)

    def header_problem(cells: list[str]) -> str | None:
        names = [_names_in(cell) for cell in cells]
        positions: list[int] = []
        for column in wanted:
            position = next((i for i, found in enumerate(names) if column in found), None)
            if position is None:
                return f"has no column {named[len(positions)]!r} (its header: {' | '.join(cells)})"
            positions.append(position)
        if exact and len([cell for cell in cells if cell]) != len(wanted):
            return f"has the columns {' | '.join(cells)}, needs only {asked}"
        if ordered and positions != sorted(positions):
            return f"has the columns {' | '.join(cells)}, needs them in the order {asked}"
        if case is not None:
            for cell in cells:
                if has_word(cell) and not in_case(_CELL_ASIDE.sub("", cell) or cell, case):
                    return f"has the header cell {shortened(cell)!r}, not in {case} case"
        return None

    def test(text: str) -> tuple[bool, str]:
        found = [[cell.strip() for cell in table_cells(rows[0])] for rows in tables(text)]
        if not found and (header := csv_header(text)) is not None:
            found = [[cell.strip() for cell in header]]  # comma-separated data: its header
        if not found:
            return False, "has no table, needs a header row"
        for number, cells in enumerate(found, start=1):
            problem = header_problem(cells)
            if problem is not None:
                return False, problem if len(found) == 1 else f"table {number} {problem}"
        said = [f"the columns {asked}"] if wanted else []
        said += [f"every header cell in {case} case"] if case else []
        return True, f"has {' and '.join(said)}"

    return test
