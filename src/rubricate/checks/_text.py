"""Text checks: keywords, letter case, commas, how the output starts and ends, fixed answers."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .._exceptions import RubricError
from ._check import TextTest
from ._registry import catalogue_check
from ._units import GREETING, paragraphs, phrase_pattern, sentences, title_line

__all__ = [
    "all_capitals",
    "all_lowercase",
    "ends_with",
    "ends_with_punctuation",
    "has_sign_off",
    "keywords_forbidden",
    "keywords_present",
    "no_commas",
    "one_of",
    "opens_with",
    "paragraph_starts_with",
    "starts_with",
]

_COMMAS = ",，、،"  # ASCII, fullwidth, ideographic and Arabic commas
_SNIPPET = 40
_LEAD_MARKS = "#*_>\"'“‘`- \t\n"  # Markdown marks and quotes before a paragraph's first word


@catalogue_check
def keywords_present(keywords: Sequence[str]) -> TextTest:
    """Every keyword or phrase appears at least once.

    Matched case-insensitively as whole words (`cat` is not found in `category`); whitespace
    inside a phrase matches any whitespace.

    Args:
        keywords: The words or phrases that must all appear (one string is a list of one).

    Example:
        ```python
        checks.keywords_present(["privacy", "data retention"])
        ```

    """
    phrases = _phrases("keywords_present", "keywords", keywords)
    patterns = [(phrase, phrase_pattern(phrase)) for phrase in phrases]

    def test(text: str) -> tuple[bool, str]:
        missing = [phrase for phrase, pattern in patterns if not pattern.search(text)]
        if missing:
            return False, f"is missing {_listed(missing)}"
        return True, f"has {_listed(phrases)}"

    return test


@catalogue_check
def keywords_forbidden(keywords: Sequence[str]) -> TextTest:
    """None of the keywords or phrases appears.

    Matched as in `keywords_present`: case-insensitively, as whole words.

    Args:
        keywords: The words or phrases that must not appear (one string is a list of one).

    Example:
        ```python
        checks.keywords_forbidden(["delve", "tapestry"])
        ```

    """
    phrases = _phrases("keywords_forbidden", "keywords", keywords)
    patterns = [(phrase, phrase_pattern(phrase)) for phrase in phrases]

    def test(text: str) -> tuple[bool, str]:
        found = [(phrase, len(pattern.findall(text))) for phrase, pattern in patterns]
        present = [f"{phrase!r} {_times(count)}" for phrase, count in found if count]
        if present:
            return False, f"has the forbidden {', '.join(present)}"
        return True, f"has none of {_listed(phrases, 'or')}"

    return test


@catalogue_check
def all_lowercase() -> TextTest:
    """No letter is uppercase: the whole text is in lowercase.

    Any character that is an uppercase or titlecase letter (in any script) fails it; letters
    without case, digits and punctuation are fine. An empty text passes.

    Example:
        ```python
        checks.all_lowercase()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        capitals = [i for i, char in enumerate(text) if char.isupper() or char.istitle()]
        if capitals:
            noun = "capital letter" if len(capitals) == 1 else "capital letters"
            return False, f"has {len(capitals)} {noun}, first in {_word_at(text, capitals[0])!r}"
        return True, "has no capital letters"

    return test


@catalogue_check
def all_capitals() -> TextTest:
    """No letter is lowercase: the whole text is in capitals.

    Any character that is a lowercase letter (in any script) fails it; letters without case,
    digits and punctuation are fine. An empty text passes.

    Example:
        ```python
        checks.all_capitals()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        lower = [i for i, char in enumerate(text) if char.islower()]
        if lower:
            noun = "lowercase letter" if len(lower) == 1 else "lowercase letters"
            return False, f"has {len(lower)} {noun}, first in {_word_at(text, lower[0])!r}"
        return True, "has no lowercase letters"

    return test


@catalogue_check
def no_commas() -> TextTest:
    """The text has no comma: ASCII `,`, fullwidth `，`, ideographic `、` or Arabic `،`.

    Example:
        ```python
        checks.no_commas()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        found = [i for i, char in enumerate(text) if char in _COMMAS]
        if found:
            noun = "comma" if len(found) == 1 else "commas"
            return False, f"has {len(found)} {noun}, first in {_word_at(text, found[0])!r}"
        return True, "has no commas"

    return test


@catalogue_check
def starts_with(phrase: str, case_sensitive: bool = False) -> TextTest:
    """The text starts with the phrase.

    Leading and trailing whitespace of the text is ignored and any run of whitespace compares
    equal to one space; letter case is ignored unless `case_sensitive`. The phrase matches as
    whole words: `Yes` does not start `Yesterday`.

    Args:
        phrase: What the text must start with.
        case_sensitive: Compare letter case too.

    Example:
        ```python
        checks.starts_with("Dear hiring manager")
        ```

    """
    wanted = _phrase("starts_with", phrase)

    def test(text: str) -> tuple[bool, str]:
        found = _normalize(text)
        passed = _fold(found, case_sensitive).startswith(_fold(wanted, case_sensitive))
        # As whole words: "Yes" does not start "Yesterday".
        passed = passed and not _joined(wanted[-1:], found[len(wanted) : len(wanted) + 1])
        if passed:
            return True, f"starts with {wanted!r}"
        return False, f"starts with {_opening(found, wanted)!r}, needs to start with {wanted!r}"

    return test


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
    wanted = _phrase("paragraph_starts_with", phrase)

    def test(text: str) -> tuple[bool, str]:
        found = paragraphs(text)
        if len(found) < paragraph:
            noun = "paragraph" if len(found) == 1 else "paragraphs"
            return False, f"has {len(found)} {noun}, so no paragraph {paragraph}"
        head = _normalize(found[paragraph - 1].lstrip(_LEAD_MARKS))
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
    followed by closing punctuation, quotes or Markdown emphasis (`Done` ends `... Done.`).

    Args:
        phrase: What the text must end with.
        case_sensitive: Compare letter case too.

    Example:
        ```python
        checks.ends_with("Is there anything else I can help with?")
        ```

    """
    wanted = _phrase("ends_with", phrase)

    def test(text: str) -> tuple[bool, str]:
        found = _normalize(text)
        if wanted[-1].isalnum():
            # "ends with the word 'Done'" is met by "... Done." and by "... **Done**".
            found = _TRAILING_MARKS.sub("", found)
        passed = _fold(found, case_sensitive).endswith(_fold(wanted, case_sensitive))
        # As whole words: "end." does not end "weekend.".
        before = found[len(found) - len(wanted) - 1 : len(found) - len(wanted)]
        passed = passed and not _joined(before, wanted[:1])
        if passed:
            return True, f"ends with {wanted!r}"
        tail = found[-(len(wanted) + _SNIPPET // 2) :]
        shown = f"…{tail}" if len(tail) < len(found) else tail
        return False, f"ends with {shown!r}, needs to end with {wanted!r}"

    return test


_MARKS = ".!?…;:"
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
        mark: One of `.`, `!`, `?`, `…` (or `...`), `;`, `:`.

    Example:
        ```python
        checks.ends_with_punctuation("?")  # ends with a question
        ```

    """
    wanted = "…" if mark.strip() == "..." else mark.strip()
    if len(wanted) != 1 or wanted not in _MARKS:
        raise RubricError(
            f"ends_with_punctuation: `mark` must be one of . ! ? … ; :, got {mark!r}",
            field="mark",
        )

    def test(text: str) -> tuple[bool, str]:
        body = _TRAILING.sub("", text.strip())
        last = "…" if body.endswith("...") else body[-1:] if body else ""
        tail = body[-_SNIPPET:] if len(body) > _SNIPPET else body
        shown = f"…{tail}" if len(tail) < len(body) else tail
        if last == wanted:
            return True, f"ends with {wanted!r}: {shown!r}"
        if not body:
            return False, f"is empty, needs to end with {wanted!r}"
        return False, f"ends with {shown!r}, needs to end with {wanted!r}"

    return test


_OPENINGS = ("question", "greeting")


@catalogue_check
def opens_with(kind: str) -> TextTest:
    """The text opens with a question or with a greeting.

    `question`: the first sentence (after a title, if there is one) ends with `?`.
    `greeting`: the first line opens with `Hi`, `Hello`, `Hey`, `Dear`, `Greetings`, `Good
    morning` (afternoon, evening) or `To whom`. For a given opening phrase, use `starts_with`.

    Args:
        kind: `question` or `greeting`.

    Example:
        ```python
        checks.opens_with("question")  # "open with a question"
        ```

    """
    wanted = kind.strip().casefold() if isinstance(kind, str) else kind
    if wanted not in _OPENINGS:
        raise RubricError(
            f"opens_with: `kind` must be 'question' or 'greeting', got {kind!r}", field="kind"
        )

    def test(text: str) -> tuple[bool, str]:
        body = text.strip()
        title = title_line(body)
        if title is not None and wanted == "question" and body.startswith(title):
            body = body[len(title) :].strip()
        first = sentences(body)[0] if wanted == "question" and sentences(body) else ""
        if wanted == "greeting":
            first = body.splitlines()[0].strip() if body else ""
        shown = first if len(first) <= _SNIPPET else first[:_SNIPPET] + "…"
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


_VALEDICTION = re.compile(
    r"^\W{0,3}(?i:(?:(?:best|kind|kindest|warm|warmest|with best|with kind)\s+)?"
    r"(?:regards|wishes)|best|sincerely|yours(?: sincerely| truly| faithfully)?|cheers|"
    r"(?:many |with )?thanks(?: again| so much)?|thank you(?: again| so much)?|all the best|"
    r"take care|warmly|respectfully|cordially|love|with (?:love|gratitude|thanks)|talk soon|"
    r"speak soon|see you(?: soon)?|until next time)"
    # Then at most a mark and a name: "Best, Sam", "Thanks again — Priya".
    r"\s*[,!.—–-]?\s*(?:[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,2})?\s*[.!]?$"
)
_CLOSING_MARKS = re.compile(r"[\s,.!—–-]+$")
_SIGN_OFF_WORDS = 6  # a closing line is short: "Best regards," or "Thanks again, Sam"
_NAME_LINES = 2  # lines allowed after the closing: a name, a role


@catalogue_check
def has_sign_off(phrase: str | None = None) -> TextTest:
    r"""The text ends with a sign-off, as a letter or an e-mail does; with `phrase`, that one.

    A sign-off is a short line (at most 6 words) opening with a closing such as `Best
    regards`, `Kind regards`, `Sincerely`, `Cheers`, `Thanks`, `Thank you`, `All the best`,
    `Take care` or `Warmly`, among the last three non-blank lines: at most two short lines
    (a name, a role) may follow it. "Thank you for your help." is a sentence, not a sign-off.
    With `phrase`, the sign-off is the phrase: whole lines (`Best,` for `Best`; `Cheers,` then
    `Alex` for `Cheers, Alex`), case and whitespace aside, followed by at most two short lines.

    Args:
        phrase: The closing the text must sign off with, such as `Warm wishes`.

    Example:
        ```python
        checks.has_sign_off()("...see you then.\n\nBest,\nSam")  # (True, ...)
        checks.has_sign_off("Warm wishes")
        ```

    """
    wanted = None if phrase is None else _phrase("has_sign_off", phrase)

    def test(text: str) -> tuple[bool, str]:
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        tail = lines[-(_NAME_LINES + 1) :]
        for position, line in enumerate(tail):
            if wanted is None:
                closing, after = _VALEDICTION.match(line) is not None, tail[position + 1 :]
                closing = closing and len(line.split()) <= _SIGN_OFF_WORDS
            else:
                closing, after = _signs_with(wanted, tail[position:])
            if closing and all(len(n.split()) <= 5 and not n.endswith("?") for n in after):
                return True, f"ends with the sign-off {line!r}"
        shown = lines[-1] if lines else ""
        shown = shown if len(shown) <= _SNIPPET else "…" + shown[-_SNIPPET:]
        needs = repr(wanted) if wanted is not None else "a sign-off such as 'Best regards'"
        return False, f"ends with {shown!r}, needs {needs}"

    return test


def _signs_with(phrase: str, lines: list[str]) -> tuple[bool, list[str]]:
    """Whether the first lines are the phrase, whole; and the lines after it."""
    wanted = _CLOSING_MARKS.sub("", " ".join(phrase.split()).casefold())
    for end in range(len(lines)):
        chunk = " ".join(" ".join(lines[: end + 1]).split()).casefold()
        if _CLOSING_MARKS.sub("", chunk) == wanted:
            return True, lines[end + 1 :]
    return False, []


@catalogue_check
def one_of(options: Sequence[str], contains: bool = False) -> TextTest:
    """The whole text is one of a fixed set of answers.

    Compared after trimming the text, with any run of whitespace equal to one space and letter
    case ignored. With `contains`, it is enough that one option appears in the text as whole
    words (as in `keywords_present`).

    Args:
        options: The accepted answers (one string is a list of one).
        contains: Accept a text that contains an option instead of being one.

    Example:
        ```python
        checks.one_of(["My answer is yes.", "My answer is no.", "My answer is maybe."])
        ```

    """
    answers = _phrases("one_of", "options", options)
    folded = {answer.casefold() for answer in answers}
    patterns = [phrase_pattern(answer) for answer in answers]

    def test(text: str) -> tuple[bool, str]:
        found = _normalize(text)
        if contains:
            hit = next((a for a, p in zip(answers, patterns, strict=True) if p.search(text)), None)
            if hit is not None:
                return True, f"contains the answer {hit!r}"
            return False, f"contains none of {_listed(answers, 'or')}"
        if found.casefold() in folded:
            return True, f"is the answer {found!r}"
        shown = found if len(found) <= _SNIPPET else f"{found[:_SNIPPET]}…"
        return False, f"is {shown!r}, needs to be one of {_listed(answers, 'or')}"

    return test


def _phrases(check: str, argument: str, values: Sequence[str]) -> list[str]:
    phrases = [_normalize(value) for value in values]
    if not phrases:
        raise RubricError(f"{check}: `{argument}` must not be empty", field=argument)
    for index, phrase in enumerate(phrases):
        if not phrase:
            raise RubricError(
                f"{check}: `{argument}` holds a blank entry", field=f"{argument}[{index}]"
            )
    return phrases


def _phrase(check: str, phrase: str) -> str:
    wanted = _normalize(phrase)
    if not wanted:
        raise RubricError(f"{check}: `phrase` must not be blank", field="phrase")
    return wanted


def _joined(left: str, right: str) -> bool:
    """Whether two characters side by side are letters or digits, so one word runs on."""
    return bool(left) and bool(right) and left.isalnum() and right.isalnum()


def _normalize(text: str) -> str:
    return " ".join(text.split())


def _fold(text: str, case_sensitive: bool) -> str:
    return text if case_sensitive else text.casefold()


def _listed(items: Sequence[str], last: str = "and") -> str:
    quoted = [repr(item) for item in items]
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} {last} {quoted[-1]}"


def _opening(text: str, wanted: str) -> str:
    """The start of `text`, a little longer than `wanted`, for a gap."""
    head = text[: len(wanted) + _SNIPPET // 2]
    return f"{head}…" if len(head) < len(text) else head


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _word_at(text: str, index: int) -> str:
    """The whitespace-delimited token around `index`, shortened for a gap."""
    start = index
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    match = re.compile(r"\S*").match(text, index)
    end = match.end() if match else index + 1
    token = text[start:end]
    return token if len(token) <= _SNIPPET else f"{token[:_SNIPPET]}…"
