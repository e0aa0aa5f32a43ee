"""Text checks on how the text starts and ends.

A given phrase first or last, a paragraph's first words, a closing punctuation mark, an opening
question or greeting, a sign-off, hashtags last, the first letters of the lines (an acrostic).
"""

from __future__ import annotations

import re

from .._exceptions import CheckUndecided, RubricError
from ._check import TextTest
from ._phrases import SNIPPET, choice, normalize, required_phrase, shortened
from ._registry import catalogue_check
from ._units import (
    GREETING,
    VALEDICTION,
    after_header,
    bold_opening,
    has_word,
    hashtags,
    leading_emoji,
    line_kinds,
    paragraphs,
    part_text,
    sentences,
    subject_line,
    title_line,
    without_trailing_emojis,
)
from ._verbs import starts_with_verb

__all__ = [
    "acrostic",
    "closes_with",
    "ends_with",
    "ends_with_punctuation",
    "has_sign_off",
    "hashtags_at_end",
    "opens_with",
    "paragraph_starts_with",
    "starts_with",
]

# A letter's greeting on a line of its own: "Hi Daniel,", "Dear team:", "Hello!".
_GREETING_LINE = re.compile(rf"(?:{GREETING.pattern})[^\n.?]{{0,40}}[,:!]$", re.IGNORECASE)
_LEAD_MARKS = "#*_>\"'“‘`- \t\n"  # Markdown marks and quotes before a paragraph's first word


@catalogue_check
def starts_with(phrase: str, case_sensitive: bool = False) -> TextTest:
    r"""The text starts with the phrase, or its first line is a greeting and what follows does.

    An e-mail's header lines on top ("Subject: ...", "To: ...") are not its start: what
    follows them may start with the phrase. Leading and trailing whitespace of the text is
    ignored and any run of whitespace compares equal to one space; letter case is ignored
    unless `case_sensitive`. The phrase matches as
    whole words: `Yes` does not start `Yesterday`. A letter opens after its greeting: "Hi
    Daniel,\n\nUnfortunately, ..." starts with "Unfortunately" as a reader sees it. A number's
    place written as `N`, `NN`, `X` or `#` beside words stands for any number: "Week N:" is
    met by "Week 3:".

    Args:
        phrase: What the text must start with.
        case_sensitive: Compare letter case too.

    Example:
        ```python
        checks.starts_with("Dear hiring manager")
        ```

    """
    wanted = required_phrase("starts_with", phrase)
    numbered = _numbered_phrase(wanted, case_sensitive)

    def opens(found: str) -> bool:
        if numbered is not None:
            return numbered.match(_fold(found, case_sensitive)) is not None
        passed = _fold(found, case_sensitive).startswith(_fold(wanted, case_sensitive))
        # As whole words: "Yes" does not start "Yesterday".
        return passed and not _joined(wanted[-1:], found[len(wanted) : len(wanted) + 1])

    def test(text: str) -> tuple[bool, str]:
        found = normalize(text)
        if opens(found):
            return True, f"starts with {wanted!r}"
        # An e-mail's header lines ("Subject: ...") come before its text, unless they are asked.
        body = after_header(text)
        if body is not None and opens(normalize(body)):
            return True, f"starts with {wanted!r} after its header lines"
        first, _, after = (body or text).strip().partition("\n")
        if _GREETING_LINE.match(first.strip()) and opens(normalize(after)):
            return True, f"starts with {wanted!r} after the greeting {shortened(first.strip())!r}"
        return False, f"starts with {_opening(found, wanted)!r}, needs to start with {wanted!r}"

    return test


# A number's place in a phrase: "Week N:", "Step X -", "Q#". Standalone capitals or marks only.
_NUMBER_SLOT = re.compile(r"(?<!\w)(?:N{1,2}|X{1,2}|#|<n>|\{n\}|\[N\])(?!\w)")


def _numbered_phrase(phrase: str, case_sensitive: bool) -> re.Pattern[str] | None:
    """The phrase with each number's place as digits ("Week N:" -> week 3:), or `None`."""
    if not _NUMBER_SLOT.search(phrase) or not re.search(
        r"[^\W\d_]{2}", _NUMBER_SLOT.sub("", phrase)
    ):
        return None
    pieces = [re.escape(_fold(piece, case_sensitive)) for piece in _NUMBER_SLOT.split(phrase)]
    return re.compile(r"\d+".join(pieces) + (r"(?!\w)" if phrase[-1:].isalnum() else ""))


@catalogue_check
def paragraph_starts_with(paragraph: int, phrase: str, case_sensitive: bool = False) -> TextTest:
    """A given paragraph starts with the phrase, as whole words.

    Paragraphs are those `paragraph_count` counts, numbered from 1. Markdown marks and quotes
    before the first word (`#`, `*`, `>`, `"`) are skipped, any run of whitespace compares equal
    to one space, and the phrase must end where a word ends (`Pre` does not start
    `President`); letter case is ignored unless `case_sensitive`.

    Args:
        paragraph: Which paragraph, counting from 1.
        phrase: What the paragraph must start with.
        case_sensitive: Compare letter case too.

    Example:
        ```python
        checks.paragraph_starts_with(2, "However")
        ```

    """
    if paragraph < 1:
        raise RubricError(
            f"paragraph_starts_with: paragraphs count from 1, got {paragraph}", field="paragraph"
        )
    wanted = required_phrase("paragraph_starts_with", phrase)

    def test(text: str) -> tuple[bool, str]:
        found = paragraphs(text)
        if len(found) < paragraph:
            noun = "paragraph" if len(found) == 1 else "paragraphs"
            return False, f"has {len(found)} {noun}, so no paragraph {paragraph}"
        head = normalize(found[paragraph - 1].lstrip(_LEAD_MARKS))
        start = _fold(head, case_sensitive)
        passed = start.startswith(_fold(wanted, case_sensitive)) and not (
            len(start) > len(wanted) and start[len(wanted)].isalnum() and wanted[-1].isalnum()
        )
        if passed:
            return True, f"paragraph {paragraph} starts with {wanted!r}"
        shown = _opening(head, wanted)
        return False, f"paragraph {paragraph} starts with {shown!r}, needs {wanted!r}"

    return test


@catalogue_check
def ends_with(phrase: str, case_sensitive: bool = False) -> TextTest:
    """The text ends with the phrase, with nothing after it.

    Leading and trailing whitespace of the text is ignored and any run of whitespace compares
    equal to one space; letter case is ignored unless `case_sensitive`. The phrase matches as
    whole words: `end.` does not end `weekend.`. A phrase ending in a letter or digit may be
    followed by closing punctuation, quotes or Markdown emphasis (`Done` ends `... Done.`); one
    ending in a mark, by closing quotes, brackets or emphasis (`Why?` ends `"... why?"`).

    Args:
        phrase: What the text must end with.
        case_sensitive: Compare letter case too.

    Example:
        ```python
        checks.ends_with("Is there anything else I can help with?")
        ```

    """
    wanted = required_phrase("ends_with", phrase)

    def test(text: str) -> tuple[bool, str]:
        found = normalize(text)
        if wanted[-1].isalnum():
            # "ends with the word 'Done'" is met by "... Done." and by "... **Done**".
            found = _TRAILING_MARKS.sub("", found)
        elif not _TRAILING.match(wanted[-1]):
            # "... missed?" ends '"... missed?"': a closing quote is no word after the phrase.
            found = _TRAILING.sub("", found)
        passed = _fold(found, case_sensitive).endswith(_fold(wanted, case_sensitive))
        # As whole words: "end." does not end "weekend.".
        before = found[len(found) - len(wanted) - 1 : len(found) - len(wanted)]
        passed = passed and not _joined(before, wanted[:1])
        if passed:
            return True, f"ends with {wanted!r}"
        tail = found[-(len(wanted) + SNIPPET // 2) :]
        shown = f"…{tail}" if len(tail) < len(found) else tail
        return False, f"ends with {shown!r}, needs to end with {wanted!r}"

    return test


_MARKS = ".!?…;:,"
ANY_MARK = "any"
"""`ends_with_punctuation`'s mark for any of `_MARKS`."""
_TRAILING_MARKS = re.compile(r"[\s.!?…;:,\"'”’»)\]*_`~]+$")
# What may follow the last mark: closing quotes and brackets, Markdown emphasis, emojis.
_TRAILING = re.compile(r"[\s\"'”’»)\]*_`~]+$")


@catalogue_check
def ends_with_punctuation(mark: str) -> TextTest:
    """The text ends with a punctuation mark, such as `?` for "ends with a question".

    The last mark is read after trimming whitespace and anything that may close a sentence:
    quotes, brackets, Markdown emphasis (`*`, `_`, backticks). A run such as `?!` ends in its
    last mark; `...` is an ellipsis, `…`.

    Args:
        mark: One of `.`, `!`, `?`, `…` (or `...`), `;`, `:`, `,`, or `any` for any of those
            ("every line ends with a punctuation mark", negated: "no end punctuation").

    Example:
        ```python
        checks.ends_with_punctuation("?")  # ends with a question
        checks.each("item", checks.negate(checks.ends_with_punctuation("any")))  # bare bullets
        ```

    """
    wanted = "…" if mark.strip() == "..." else mark.strip()
    if wanted != ANY_MARK and (len(wanted) != 1 or wanted not in _MARKS):
        raise RubricError(
            f"ends_with_punctuation: `mark` must be one of . ! ? … ; : , or 'any', got {mark!r}",
            field="mark",
        )
    marks = _MARKS if wanted == ANY_MARK else wanted
    named = "a punctuation mark" if wanted == ANY_MARK else repr(wanted)

    def test(text: str) -> tuple[bool, str]:
        body = _TRAILING.sub("", without_trailing_emojis(_TRAILING.sub("", text.strip())))
        last = "…" if body.endswith("...") else body[-1:] if body else ""
        tail = body[-SNIPPET:] if len(body) > SNIPPET else body
        shown = f"…{tail}" if len(tail) < len(body) else tail
        if last and last in marks:
            return True, f"ends with {last!r}: {shown!r}"
        if not body:
            return False, f"is empty, needs to end with {named}"
        return False, f"ends with {shown!r}, needs to end with {named}"

    return test


# What a text can open or close with as a whole block: nothing before, or after, it.
_BLOCK_KINDS = ("list", "table", "code")
_CLOSINGS = (*_BLOCK_KINDS, "emoji")
_OPENINGS = (
    "question",
    "greeting",
    "capital",
    "lowercase",
    "bold",
    "bold_label",
    "checkbox",
    "empty_checkbox",
    "subject",
    "verb",
    "list",
    "table",
    "code",
    "emoji",
)
# A task-list box, after any list marker: "[ ]", "[x]", "☐", "☑".
_CHECKBOX = re.compile(
    r"^\s*(?:[-*+\u2022]\s+|\d+[.)]\s+)?(?:\[[ xX\u2713\u2714]\]|[\u2610\u2611\u2612])"
)


@catalogue_check
def opens_with(kind: str) -> TextTest:
    """The text opens with a question, a greeting, a capital or small letter, bold, or a block.

    `question`: the first sentence (after a title, if there is one) ends with `?`.
    `greeting`: the first line opens with `Hi`, `Hello`, `Hey`, `Dear`, `Greetings`, `Good
    morning` (afternoon, evening) or `To whom`. `capital`: the first letter, after any
    Markdown marks, quotes or digits, is an uppercase letter ("every line starts with a capital
    letter", with `each`); `lowercase`: it is a lowercase one ("bullets start with a lowercase
    letter"). `bold`: the first words, after any list marker, are in bold ("each bullet
    starts with a bolded label", with `each`); `bold_label`: that bold is a label closed by a
    colon, inside the bold or right after it (`**Cost:**`, `**Cost**:`). `checkbox`: after any
    list marker, a task-list box, `[ ]` or `[x]` (or ☐, ☑), as in "a checkbox on every item"
    with `each`;
    `empty_checkbox`: an unticked one, `[ ]` or ☐ ("all items are unchecked boxes").
    `verb`: the first word, after any list marker or "Step 1:", is a verb from a list of the
    verbs instructions open with ("Preheat", "Check"); a first word that is never such a verb
    ("The", "You", "Carefully", a number) fails, and any other is left to the judge.
    `subject`: a "Subject:" line first, or in the header block on top (a memo's "To: / From: /
    Subject:"), as in "start with a subject line". `list`,
    `table`, `code`: the first non-blank
    line is a list item, a
    table row or a code fence, so nothing comes before it ("start straight with the list, no
    intro line"). `emoji`: after any list marker or Markdown marks, an emoji ("each bullet
    starts with an emoji", with `each`). For a given opening phrase, use `starts_with`.

    Args:
        kind: `question`, `greeting`, `capital`, `lowercase`, `bold`, `bold_label`, `checkbox`,
            `empty_checkbox`, `subject`, `verb`, `list`, `table`, `code` or `emoji`.

    Example:
        ```python
        checks.opens_with("question")  # "open with a question"
        ```

    """
    wanted = choice("opens_with", "kind", kind, _OPENINGS)

    def test(text: str) -> tuple[bool, str]:
        if wanted in _BLOCK_KINDS:
            return _block_at_edge(text, wanted, last=False)
        if wanted == "emoji":
            return _emoji_at_edge(text, last=False)
        if wanted == "subject":
            line = subject_line(text)
            if line is not None:
                return True, f"opens with the subject line {shortened(line)!r}"
            shown = shortened(text.strip())
            return False, f"opens with {shown!r}, needs a subject line (Subject: ...)"
        if wanted in ("checkbox", "empty_checkbox"):
            shown = shortened(text.strip())
            box = _CHECKBOX.match(text)
            if box and (wanted == "checkbox" or box.group().rstrip().endswith(("[ ]", "\u2610"))):
                return True, f"opens with a checkbox: {shown!r}"
            if box:
                return False, f"opens with a ticked box: {shown!r}, needs an empty one, [ ]"
            return False, f"opens with {shown!r}, needs a checkbox such as [ ]"
        if wanted == "bold":
            shown = shortened(text.strip())
            bold = bold_opening(text.strip())
            if bold is not None:
                return True, f"opens with {bold!r} in bold"
            return False, f"opens with {shown!r}, needs to open with bold text"
        if wanted == "bold_label":
            shown = shortened(text.strip())
            bold = bold_opening(text.strip())
            if bold is None:
                return False, f"opens with {shown!r}, needs a bold label and a colon"
            after = text.strip().split(bold, 1)[1].lstrip("*_")
            if bold.rstrip().endswith(":") or after.startswith(":"):
                return True, f"opens with the bold label {bold.rstrip(':')!r} and a colon"
            return False, f"opens with {bold!r} in bold, with no colon after it"
        if wanted == "verb":
            shown = shortened(text.strip())
            verb = starts_with_verb(text)
            if verb is None:
                raise CheckUndecided(f"cannot tell whether {shown!r} opens with a verb")
            return verb, f"opens with {'a verb' if verb else 'no verb'}: {shown!r}"
        if wanted in ("capital", "lowercase"):
            letter = next((c for c in text if c.isalpha()), "")
            shown = shortened(text.strip())
            capital = letter.isupper() or letter.istitle()
            if letter and capital == (wanted == "capital"):
                return True, f"opens with the {wanted} {letter!r}: {shown!r}"
            found = (
                f"the {'capital' if capital else 'lowercase'} {letter!r}" if letter else "no letter"
            )
            needs = "a capital letter" if wanted == "capital" else "a lowercase letter"
            return False, f"opens with {found}: {shown!r}, needs {needs}"
        body = text.strip()
        title = title_line(body)
        if title is not None and wanted == "question" and body.startswith(title):
            body = body[len(title) :].strip()
        first = sentences(body)[0] if wanted == "question" and sentences(body) else ""
        if wanted == "greeting":
            first = body.splitlines()[0].strip() if body else ""
        shown = shortened(first)
        if not first:
            return False, f"is empty, needs to open with a {wanted}"
        if wanted == "question":
            passed = _TRAILING.sub("", first).endswith("?")
        else:
            passed = bool(GREETING.match(first.lstrip("*_#> \t")))
        if passed:
            return True, f"opens with a {wanted}: {shown!r}"
        return False, f"opens with {shown!r}, needs to open with a {wanted}"

    return test


@catalogue_check
def closes_with(kind: str) -> TextTest:
    """The text ends with a list, a table or a code block (its last non-blank line), or an emoji.

    So nothing comes after the list, table or code block: "nothing after the table", "end
    with the code block, no commentary after it". A line indented under the last item belongs
    to the list. `emoji`: the last thing in the text, Markdown marks aside, is an emoji ("end
    every caption with an emoji", with `each`). For a closing phrase, use `ends_with`.

    Args:
        kind: `list`, `table`, `code` or `emoji`.

    Example:
        ```python
        checks.closes_with("table")  # "nothing after the table"
        ```

    """
    wanted = choice("closes_with", "kind", kind, _CLOSINGS)

    def test(text: str) -> tuple[bool, str]:
        if wanted == "emoji":
            return _emoji_at_edge(text, last=True)
        return _block_at_edge(text, wanted, last=True)

    return test


# What may stand before a first emoji, or after a last one: list markers, Markdown marks.
_BEFORE_EMOJI = re.compile(r"^(?:\s*(?:[-*+\u2022]\s+|\d+[.)]\s+|#{1,6}\s+|>\s*|[*_]{1,3}))*")
_AFTER_EMOJI = re.compile(r"(?:[*_]{1,3}|\s)+$")


def _emoji_at_edge(text: str, *, last: bool) -> tuple[bool, str]:
    """Whether an emoji opens (or ends) the text, list markers and Markdown marks aside."""
    body = text.strip()
    if not body:
        return False, f"is empty, needs to {'end' if last else 'open'} with an emoji"
    shown = shortened(body.splitlines()[-1] if last else body)
    if last:
        bare = _AFTER_EMOJI.sub("", body)
        found = without_trailing_emojis(bare) != bare
        verb = "ends"
    else:
        found = leading_emoji(_BEFORE_EMOJI.sub("", body)) is not None
        verb = "opens"
    if found:
        return True, f"{verb} with an emoji: {shown!r}"
    return False, f"{verb} with {shown!r}, needs an emoji {'last' if last else 'first'}"


def _block_at_edge(text: str, wanted: str, *, last: bool) -> tuple[bool, str]:
    """Whether the text's first (or last) non-blank line is one of a list, table or code."""
    kinds = line_kinds(text)
    verb = "close" if last else "open"
    if not kinds:
        return False, f"is empty, needs to {verb} with a {wanted}"
    kind, line = kinds[-1 if last else 0]
    shown = shortened(line)
    if kind == wanted:
        return True, f"{verb}s with the {wanted}: {shown!r}"
    if not last:
        return False, f"opens with {shown!r} before any {wanted}"
    if all(found != wanted for found, _ in kinds):
        return False, f"has no {wanted}"
    return False, f"has {shown!r} after the {wanted}"


_CLOSING_MARKS = re.compile(r"[\s,.!—–-]+$")
_SIGN_OFF_WORDS = 6  # a closing line is short: "Best regards," or "Thanks again, Sam"
_NAME_LINES = 2  # lines allowed after the closing: a name, a role


@catalogue_check
def acrostic(word: str) -> TextTest:
    """The first letters of the text's lines, top to bottom, spell the word: an acrostic.

    Lines without a letter (blank lines between stanzas) are skipped, and so is a title on top
    (`title_line`), which is no line of the poem. Letters compare in any case; Markdown marks,
    quotes and digits before a line's first letter are passed over; spaces and marks in `word`
    are ignored ("HAPPY BIRTHDAY" spells over 13 lines).

    Args:
        word: The word (or words) the first letters spell.

    Example:
        ```python
        checks.acrostic("SPRING")  # "the first letters of the lines spell SPRING"
        ```

    """
    wanted = "".join(c for c in word.casefold() if c.isalpha())
    if not wanted:
        raise RubricError(f"acrostic: `word` needs a letter, got {word!r}", field="word")
    shown = word.strip()

    def test(text: str) -> tuple[bool, str]:
        lines = [line for line in text.splitlines() if any(c.isalpha() for c in line)]
        title = title_line(text)
        if title is not None and lines and lines[0].strip() == title.strip():
            lines = lines[1:]
        spelt = "".join(next(c for c in line if c.isalpha()) for line in lines)
        if spelt.casefold() == wanted:
            return True, f"the lines' first letters spell {spelt!r}"
        return False, f"the lines' first letters spell {shortened(spelt)!r}, need {shown!r}"

    return test


@catalogue_check
def hashtags_at_end(own_line: bool = False) -> TextTest:
    """Every hashtag comes after the text's last other word: the hashtags close the text.

    "Put the hashtags at the end", "hashtags at the very end, not sprinkled through the
    caption". Marks and emojis between or after the closing hashtags are allowed; a hashtag in
    a code block is none, as for `hashtag_count`. With `own_line`, no other word shares a line
    with them ("hashtags on their own line at the end"). A text without hashtags passes:
    combine with `hashtag_count` for "end with three hashtags".

    Args:
        own_line: The closing hashtags also sit on a line (or lines) of their own.

    Example:
        ```python
        checks.hashtags_at_end(own_line=True)  # "hashtags on their own line at the end"
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        prose = part_text(text, "prose") or ""
        tags = hashtags(prose)
        if not tags:
            return True, "has no hashtags"
        lines = prose.splitlines()
        # The last line holding a word that is no hashtag, and where on it that word ends.
        last = max((n for n, line in enumerate(lines) if _other_words(line)), default=-1)
        if last >= 0:
            spoken = _other_words(lines[last])[-1]
            before = [*lines[:last], lines[last][: lines[last].rindex(spoken)]]
            early = hashtags("\n".join(before))
            if early:
                shown = shortened(lines[last] if early[-1] in lines[last] else early[-1])
                return False, f"has {early[0]} before its last words ({shown!r})"
            if own_line and hashtags(lines[last]):
                shown = shortened(lines[last])
                return False, f"its hashtags share a line with other words: {shown!r}"
        listed = shortened(" ".join(tags))
        if len(tags) == 1:
            where = "sits on its own line" if own_line else "closes the text"
            return True, f"its one hashtag {where}: {listed}"
        where = "sit on their own line" if own_line else "close the text"
        return True, f"its {len(tags)} hashtags {where}: {listed}"

    return test


def _other_words(line: str) -> list[str]:
    """The words of a line that are no hashtag."""
    return [t for t in line.split() if has_word(t) and not hashtags(t.strip(".,;:!?\"'()"))]


@catalogue_check
def has_sign_off(phrase: str | None = None, named: bool = False) -> TextTest:
    r"""The text ends with a sign-off, as a letter or an e-mail does; with `phrase`, that one.

    A sign-off is a short line (at most 6 words) opening with a closing such as `Best
    regards`, `Kind regards`, `Sincerely`, `Cheers`, `Thanks`, `Thank you`, `All the best`,
    `Take care` or `Warmly`, among the last three non-blank lines: at most two short lines
    (a name, a role) may follow it. "Thank you for your help." is a sentence, not a sign-off.
    With `phrase`, the sign-off is the phrase: whole lines (`Best,` for `Best`; `Cheers,` then
    `Alex` for `Cheers, Alex`), case and whitespace aside, followed by at most two short lines.
    A short line ending with a comma over a name closes a letter too ("Thanks for your
    flexibility," then "Daniel"). With `named`, a name must follow the closing ("sign off with
    'Best,' and your name on the next line"): a short line opening with a capital or a
    placeholder (`[Your name]`), or, with no `phrase`, words after the closing on its own line
    (`Thanks, Sam`).

    Args:
        phrase: The closing the text must sign off with, such as `Warm wishes`.
        named: Whether a name must follow the closing.

    Example:
        ```python
        checks.has_sign_off()("...see you then.\n\nBest,\nSam")  # (True, ...)
        checks.has_sign_off("Warm wishes")
        ```

    """
    wanted = None if phrase is None else required_phrase("has_sign_off", phrase)

    def test(text: str) -> tuple[bool, str]:
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        tail = lines[-(_NAME_LINES + 1) :]
        for position, line in enumerate(tail):
            after = tail[position + 1 :]
            if wanted is not None:
                closing, after = _signs_with(wanted, tail[position:])
            name_below = bool(after) and _NAME_LINE.match(after[0]) is not None
            signed = name_below
            if wanted is None:
                # "Thanks for your flexibility," over a name: a closing of the writer's own
                own = line.endswith(",") and name_below
                closing = VALEDICTION.match(line) is not None or own
                closing = closing and len(line.split()) <= _SIGN_OFF_WORDS
                signed = signed or _NAME_AFTER_MARK.search(line) is not None  # "Thanks, Sam"
            if closing and all(len(n.split()) <= 5 and not n.endswith("?") for n in after):
                if named and not signed:
                    return False, f"ends with the sign-off {line!r} and no name after it"
                return True, f"ends with the sign-off {line!r}"
        shown = lines[-1] if lines else ""
        shown = shown if len(shown) <= SNIPPET else "…" + shown[-SNIPPET:]
        needs = repr(wanted) if wanted is not None else "a sign-off such as 'Best regards'"
        return False, f"ends with {shown!r}, needs {needs}"

    return test


# A name on the closing's own line, after its mark: "Thanks, Sam", "Cheers — Priya Lee".
_NAME_AFTER_MARK = re.compile(
    r"[,!\u2014\u2013-]\s*[A-Z][\w.'\u2019-]*(?:\s+[A-Z][\w.'\u2019-]*){0,2}\s*$"
)
# A name under a closing: "Sam", "Dr. Amy Lee", "— The Bloom team", "[Your name]".
_NAME_LINE = re.compile(r"^[\W_]*(?:[A-Z\u00c0-\u024f]|[\[{<])(?!.*[.?!:]\s*$)")


def _signs_with(phrase: str, lines: list[str]) -> tuple[bool, list[str]]:
    """Whether the first lines are the phrase, whole; and the lines after it."""
    wanted = _CLOSING_MARKS.sub("", " ".join(phrase.split()).casefold())
    for end in range(len(lines)):
        chunk = " ".join(" ".join(lines[: end + 1]).split()).casefold()
        if _CLOSING_MARKS.sub("", chunk) == wanted:
            return True, lines[end + 1 :]
    return False, []


def _joined(left: str, right: str) -> bool:
    """Whether two characters side by side are letters or digits, so one word runs on."""
    return bool(left) and bool(right) and left.isalnum() and right.isalnum()


def _fold(text: str, case_sensitive: bool) -> str:
    return text if case_sensitive else text.casefold()


def _opening(text: str, wanted: str) -> str:
    """The start of `text`, a little longer than `wanted`, for a gap."""
    head = text[: len(wanted) + SNIPPET // 2]
    return f"{head}…" if len(head) < len(text) else head
