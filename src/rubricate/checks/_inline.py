"""Counting checks on what the text's words and marks hold: keywords, letters, links, emojis...

Letters, keywords, words in capitals, punctuation marks, emojis, placeholders, highlights,
links, e-mail addresses and hashtags. Bounds and findings work as in `_counting.py`. What an
emoji, a link or a hashtag is is defined once, in `rubricate.checks._units`, and in
`docs/checks.md`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Unpack

from .._exceptions import RubricError
from ._check import Bounds, CountBounds, TextTest, count_finding, found_count
from ._phrases import choice
from ._registry import catalogue_check
from ._units import (
    PRONOUNS,
    bare_urls,
    braced_names,
    contractions,
    emails,
    emojis,
    hashtags,
    highlights,
    markdown_links,
    mentions,
    phone_shape,
    phones,
    phrase_pattern,
    pronouns,
    quoted_passages,
    urls,
    words,
)

__all__ = [
    "capital_word_count",
    "contraction_count",
    "email_count",
    "emoji_count",
    "hashtag_count",
    "highlight_count",
    "keyword_count",
    "letter_count",
    "mark_count",
    "mention_count",
    "phone_count",
    "phone_format",
    "placeholder_count",
    "pronoun_count",
    "punctuation_count",
    "quote_count",
    "url_count",
]

# `[name]` with some non-blank text on one line, not a Markdown link `[text](url)`.
_PLACEHOLDER = re.compile(r"\[([^\[\]\n]*)\](?!\()")


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
    pattern = phrase_pattern(phrase, inflected=True)

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
def placeholder_count(brackets: str = "square", **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of placeholders such as `[address]` (or `{{name}}`) is within the bounds.

    A square-bracket placeholder is `[`, some non-blank text on one line without brackets, and
    `]`; a Markdown link `[text](url)` is not one. With `brackets="any"`, a template's
    `{{name}}` and `{name}` count too (a name of letters, digits, `_`, `.` or `-`), outside
    code blocks: "at least three placeholders" of a mail template written with braces.

    Args:
        brackets: `square` (the default: only `[name]`, as "placeholders in square brackets"
            asks) or `any`.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.placeholder_count(at_least=2)
        ```

    """
    if brackets not in ("square", "any"):
        raise RubricError(
            f"placeholder_count: `brackets` must be 'square' or 'any', got {brackets!r}",
            field="brackets",
        )
    limits = Bounds.from_args("placeholder_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        count = sum(1 for m in _PLACEHOLDER.finditer(text) if m.group(1).strip())
        if brackets == "any":
            count += len(braced_names(text))
        return count_finding(count, "placeholder like [name]", "placeholders like [name]", limits)

    return test


@catalogue_check
def highlight_count(style: str = "any", **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of Markdown-highlighted spans such as `*this*` or `**this**` is in the bounds.

    A highlight is text between single or double asterisks on one line, hugging the asterisks
    (`*word*`, not `* word *`) and holding a word; bullet markers are never highlights.

    Args:
        style: `any` (default), `bold` (`**this**` only: "no bold text") or `italic`
            (`*this*` only).
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.highlight_count(at_least=2)
        checks.highlight_count(style="bold", exactly=0)  # no bold
        ```

    """
    wanted = choice("highlight_count", "style", style, tuple(_STYLES))
    limits = Bounds.from_args("highlight_count", bounds)
    marks, singular, plural = _STYLES[wanted]

    def test(text: str) -> tuple[bool, str]:
        count = sum(1 for span in highlights(text) if span.marks in marks)
        return count_finding(count, singular, plural, limits)

    return test


_STYLES = {
    "any": (("*", "**"), "highlighted span like *this*", "highlighted spans like *this*"),
    "bold": (("**",), "bold span like **this**", "bold spans like **this**"),
    "italic": (("*",), "italic span like *this*", "italic spans like *this*"),
}


_URL_FORMS: dict[str, tuple[Callable[[str], list[str]], tuple[str, str]]] = {
    "any": (urls, ("link", "links")),
    "bare": (bare_urls, ("bare link", "bare links")),
    "markdown": (markdown_links, ("Markdown link", "Markdown links")),
}


@catalogue_check
def url_count(form: str = "any", **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of links (web addresses) is within the bounds.

    A link is an address starting with `http://`, `https://` or `www.`, or a bare domain with a
    common top-level domain (`example.com/help`); a Markdown link `[text](https://...)` counts
    once. For "include a link" (`at_least: 1`) and "no links"
    (`exactly: 0`).

    Args:
        form: Which links count: `any`; `bare`, an address written out, not inside a Markdown
            link or `<...>` ("no bare URLs", "links as [text](url)": `exactly: 0`); or
            `markdown`, a `[text](url)` link ("include a Markdown link").
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.url_count(at_least=1)
        checks.url_count(form="bare", exactly=0)  # "write links as [text](url)"
        ```

    """
    if form not in _URL_FORMS:
        raise RubricError(
            f"url_count: `form` must be one of {', '.join(_URL_FORMS)}, got {form!r}",
            field="form",
        )
    find, noun = _URL_FORMS[form]
    return found_count("url_count", find, noun, bounds)


@catalogue_check
def contraction_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of contractions ("don't", "we're", "it's") is within the bounds.

    A contraction is a word run into *not*, *are*, *have*, *will*, *am* or *would*, or *is*
    run into a pronoun ("that's", "let's"); "Maria's" is a possessive, not one. Code blocks
    are not read. For "no contractions" (`exactly: 0`), as formal and legal writing asks.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.contraction_count(exactly=0)  # "don't use contractions"
        ```

    """
    return found_count("contraction_count", contractions, ("contraction", "contractions"), bounds)


_PERSON_NOUNS = {
    "first": "first-person pronoun",
    "first_singular": "first-person singular pronoun",
    "first_plural": "first-person plural pronoun",
    "second": "second-person pronoun",
}


@catalogue_check
def pronoun_count(person: str, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of personal pronouns of one grammatical person is within the bounds.

    `first` is *I, me, my, mine, myself* and *we, us, our, ours, ourselves*; `first_singular`
    and `first_plural` are each half; `second` is *you, your, yours, yourself, yourselves*.
    Quoted speech, code, "US" in capitals and a "(i)" marker are not read. For "no first
    person" (`exactly: 0`), "avoid first-person plural (we, our)", "don't address the reader".

    Args:
        person: `first`, `first_singular`, `first_plural` or `second`.
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.pronoun_count("first", exactly=0)  # "written without I or we"
        ```

    """
    if person not in PRONOUNS:
        raise RubricError(
            f"pronoun_count: `person` must be one of {', '.join(PRONOUNS)}, got {person!r}",
            field="person",
        )
    noun = _PERSON_NOUNS[person]
    return found_count(
        "pronoun_count", lambda text: pronouns(text, person), (noun, f"{noun}s"), bounds
    )


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
    return found_count("email_count", emails, ("e-mail address", "e-mail addresses"), bounds)


@catalogue_check
def phone_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of phone numbers is within the bounds.

    A phone number is nine digits or more in groups joined by spaces, dots, dashes or
    brackets, maybe after `+` and a country code ("(555) 201-4478", "+44 7700 900123"); an
    ISO date or an IP address is none. For "include a phone number" (`at_least: 1`) and
    "no phone numbers in a public reply" (`exactly: 0`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.phone_count(at_least=1)
        ```

    """
    return found_count("phone_count", phones, ("phone number", "phone numbers"), bounds)


@catalogue_check
def phone_format(example: str) -> TextTest:
    """Every phone number is written as the example is, and there is at least one.

    The numbers are those of `phone_count`; each must have the example's shape: the same
    digits in the same groups, with the same `+`, brackets, spaces, dots and dashes ("(555)
    123-4567" passes "(555) 201-4478" and fails "555.248.9100").

    Args:
        example: A phone number written the wanted way.

    Example:
        ```python
        checks.phone_format("(555) 123-4567")
        ```

    """
    if not isinstance(example, str) or len(phones(example, alone=True)) != 1:
        raise RubricError(
            f"phone_format: `example` must be one phone number (nine digits or more), "
            f"got {example!r}",
            field="example",
        )
    wanted = phone_shape(example)

    def test(text: str) -> tuple[bool, str]:
        found = phones(text)
        if not found:
            return False, f"has no phone number, needs one written like {example.strip()!r}"
        for number in found:
            if phone_shape(number) != wanted:
                return False, f"has {number!r}, needs it written like {example.strip()!r}"
        noun = "phone number" if len(found) == 1 else "phone numbers"
        return True, f"has {len(found)} {noun}, written like {example.strip()!r}"

    return test


@catalogue_check
def quote_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of passages in double quotes is within the bounds.

    A passage opens with `"` or `“` and closes with the next `"` or `”`; a mark left open
    counts as one, so "no quotation marks" (`exactly: 0`) finds a stray one too. Single quotes
    are not counted: they are also apostrophes. For "put the tagline in double quotes"
    (`at_least: 1`) and "no double quotes, they break the HTML attribute" (`exactly: 0`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.quote_count(at_least=1)  # "include some dialogue in double quotes"
        ```

    """
    noun = ("quoted passage", "quoted passages")
    return found_count("quote_count", quoted_passages, noun, bounds)


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
    return found_count("hashtag_count", hashtags, ("hashtag", "hashtags"), bounds)


@catalogue_check
def mention_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of @mentions (`@marta`, `@here`) is within the bounds.

    A mention is `@` then a handle that starts with a letter, not inside a word (so an e-mail
    address is none) and not in a code block. For "tag exactly one person with an @mention"
    (`exactly: 1`) and "no @channel or @here pings" (`exactly: 0`).

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.mention_count(exactly=1)
        ```

    """
    return found_count("mention_count", mentions, ("@mention", "@mentions"), bounds)


@catalogue_check
def mark_count(mark: str, **bounds: Unpack[CountBounds]) -> TextTest:
    """The punctuation mark or symbol appears a number of times within the bounds.

    Every occurrence counts, wherever it is (`!!` is two). For "no exclamation marks"
    (`mark: "!"`, `exactly: 0`); words are counted with `keyword_count`. An ellipsis (`…` or
    `...`) is `…` or a run of three dots or more, each run once ("no ellipses").

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

    ellipsis = symbol in ("…", "...")

    def test(text: str) -> tuple[bool, str]:
        if ellipsis:  # "…" or three dots or more, each run once
            count = text.count("…") + len(re.findall(r"\.{3,}", text))
            return count_finding(count, "ellipsis", "ellipses", limits)
        return count_finding(text.count(symbol), f"{symbol!r} mark", f"{symbol!r} marks", limits)

    return test


# An apostrophe or hyphen between letters is part of a word ("don't", "light-hearted"); a list
# or heading marker opens a line, it punctuates nothing.
_IN_WORD = re.compile(r"(?<=[^\W\d_])['\u2019\-\u2010](?=[^\W\d_])")
_LINE_MARKER = re.compile(r"^[ \t]*(?:[-*+\u2022]|\d{1,9}[.)]|#{1,6})[ \t]+", re.MULTILINE)
# Characters Unicode files as punctuation that read as symbols, not marks of a sentence.
_SYMBOLS = frozenset("#@&*%/\\\u00a7\u00b6\u2020\u2021\u2022\u00b7")


def _punctuation(text: str) -> list[str]:
    text = _IN_WORD.sub("", _LINE_MARKER.sub("", text))
    return [
        char for char in text if unicodedata.category(char).startswith("P") and char not in _SYMBOLS
    ]


@catalogue_check
def punctuation_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """The number of punctuation marks is within the bounds.

    A punctuation mark is any character Unicode calls punctuation (`.` `,` `!` `?` `;` `:`
    quotes, brackets, dashes, `…`), in any script; an apostrophe or hyphen between two letters
    is part of the word ("don't", "light-hearted"), a list or heading marker at a line's start
    punctuates nothing, and symbols (`#`, `@`, `&`, `*`, `%`, `/`, `$`, `+`) and emojis are not
    marks. For "no punctuation at all" (`exactly: 0`); one mark is counted with `mark_count`.

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.punctuation_count(exactly=0)  # no punctuation
        ```

    """
    return found_count(
        "punctuation_count", _punctuation, ("punctuation mark", "punctuation marks"), bounds
    )
