"""What counts as a word, a sentence, a paragraph, a bullet point and a section.

Every counting check uses these definitions, so a rule means the same thing everywhere and
`docs/checks.md` can state it once. They read the text as Markdown-ish plain text:

- **word**: a run of non-whitespace characters holding at least one letter or digit (any
  script). `don't`, `well-known`, `3.14` and `**bold**` are one word each; a lone `-`, `—`, `#`
  or `*` is none. Scripts written without spaces count each unbroken run as one word.
- **unit with a word**: sentences, paragraphs, bullet points and sections count only when they
  hold at least one word, so stray punctuation or an empty bullet never counts.
- **code fences**: lines inside a fenced code block (between two lines opening with three
  backticks or tildes) are never Markdown structure: no bullet, heading, rule or paragraph break.
- **paragraph**: a block of lines separated from the next by one or more blank lines or by a
  horizontal rule line (`***`, `---`, `___`, with optional spaces).
- **sentence**: text ending at `.`, `!`, `?`, `…` or `‽` (runs such as `?!` or `...` end once,
  closing quotes and brackets may follow) when whitespace or the end of the text follows, or at
  `。`, `！`, `？` anywhere. A period after `Mr`, `Mrs`, `Ms`, `Dr`, `Prof`, `Sr`, `Jr`, `St`,
  `vs`, `e.g`, `i.e`, `cf`, `approx` or a single capital letter (an initial) ends nothing.
  Paragraph breaks and list items also end a sentence, so an unpunctuated list item counts as
  one sentence; a single line break inside a paragraph does not. Headings, a title wholly in
  bold (`**Senior Engineer**`) and fenced code hold no sentence.
- **bullet point**: a line starting (after any indentation) with `-`, `*`, `+` or `•` and then
  whitespace, that is not a horizontal rule; numbered items (`1.` or `1)` then whitespace) count
  only when asked for. Nested items count.
- **section**: a Markdown heading line (`#` to `######`, then whitespace and a title), or, when a
  marker word such as `SECTION` is given, each occurrence of that word (case-sensitive, as a
  whole word) followed by a number, as in `SECTION 2`. Text before the first one is not a
  section.
- **numbered item**: a line starting (after any indentation) with a number and `.` or `)`, then
  whitespace (`1.`, `2)`), holding a word, outside code fences.
- **unit** (`per` limits and `each`): the `sentence`s, `paragraph`s, `line`s holding a word,
  list `item`s (bullet points and numbered items, without their markers), `entry`s: what
  "each tip" or "five steps" point at (`entries`), `output`s: each of several outputs a reply
  was asked for, "each tagline" (`outputs`), `section`s: what the text says under each
  heading, "per day" (`sections`), or an `answer`, `description` or `definition`: the second
  half of each entry (`glosses`). The last three are read only where the text marks them.
- **part** (`within`): the `title` (below, without its markup; a text of one short line not
  ending in `.` is its own title: a headline), the `subject` line (a line opening `Subject:`,
  else the first line), the `body` (the paragraphs less the title or subject line, a greeting,
  a sign-off and a postscript), the first or last `line` holding a word, `paragraph` (a
  letter's subject line, greeting and sign-off are not its first and last paragraphs) or
  `sentence`.
- **title**: see `title_line`: `<<Title>>` anywhere, or a first line that is a Markdown heading,
  `Title: ...`, a line in bold, or a short standalone line with a blank line and more text after.
- **emoji**: a pictographic character (the emoji blocks of Unicode, the misc symbols and dingbats
  blocks, and a few older symbols such as ⌛ and ⭐; not arrows, ©, ® or ™), with its
  modifiers and joined sequences counted once.
- **code block**: a fenced block, from a line opening with three backticks or tildes (and any
  language tag) to the line that closes it; a fence never closed is no block.
- **table**: a Markdown table: a line holding `|` followed by a delimiter row of `---` cells
  (`|---|:--:|`), and the `|` lines after it; its columns are the header's cells.
- **link**: a web address starting with `http://`, `https://` or `www.`, or a bare domain with a
  common top-level domain (`example.com/help`); a Markdown link's address counts once. An
  **e-mail address** is `name@domain.tld`; a **hashtag** is `#` and a letter or underscore,
  then word characters, not inside a word (`page#top` is none).
- **keyword or phrase**: matched case-insensitively as whole words: not preceded or followed by
  a letter, digit or underscore, so `cat` is not found in `category`; any run of whitespace in
  a phrase matches any run of whitespace in the text. The last word may carry a plural or
  possessive ending (`cats`, `cat's`, `boxes`): a reader asked for the keyword "riddle" finds
  it in "riddles". A fixed answer (`one_of`) is matched exactly.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple

from .._exceptions import CheckUndecided

__all__ = [
    "BOLD_LINE",
    "GREETING",
    "MONTHS",
    "MONTH_NAMES",
    "SMALL_WORDS",
    "VALEDICTION",
    "WORD_LETTERS",
    "Block",
    "blocks",
    "bold_opening",
    "braced_names",
    "bullet_lines",
    "code_blocks",
    "csv_rows",
    "dividers",
    "emails",
    "emojis",
    "entries",
    "entry_kind",
    "field_values",
    "glosses",
    "has_word",
    "hashtags",
    "heading_lines",
    "headings_seen",
    "highlights",
    "leading_emoji",
    "line_kinds",
    "markdown_marks",
    "mentions",
    "numbered_lines",
    "outputs",
    "paragraphs",
    "phrase_pattern",
    "section_markers",
    "sections",
    "sentences",
    "tables",
    "title_line",
    "unit_pieces",
    "urls",
    "words",
]

MONTH_NAMES = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
)
"""The months' full names, as a regular expression (lower case)."""
MONTHS = (
    "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    "sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
"""A month by its full or short name, as a regular expression (lower case)."""

_CALENDAR_NAME = re.compile(
    rf"(?:{MONTHS}|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?)",
    re.IGNORECASE,
)
_MONTH_NUMBER = {name[:3]: number for number, name in enumerate(MONTH_NAMES.split("|"), 1)}
_MONTH = rf"(?P<month>{MONTHS})\.?"
# When a piece of text is dated: an ISO date (and time), "14 March 2023", "March 14, 2023",
# "March 2023", a year standing alone ("(2011)", "1969 –"), else a clock time ("14:20 UTC").
_DATES = (
    re.compile(
        r"\b(?P<year>\d{4})-(?P<mon>\d{2})-(?P<day>\d{2})(?:[T ](?P<h>\d{2}):(?P<m>\d{2}))?\b"
    ),
    re.compile(
        rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})\b", re.I
    ),
    re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})\b", re.I),
    re.compile(rf"\b{_MONTH}\s+(?P<year>\d{{4}})\b", re.I),
    re.compile(r"(?<![\d.,$£€:/-])\b(?P<year>1\d{3}|20\d{2})\b(?![\d.,:/-]\d|\s*%)"),
)
_CLOCK = re.compile(
    r"(?<![\d:.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::\d{2})?\s*(?P<half>[ap]\.?m\.?)?(?![\d:])",
    re.IGNORECASE,
)


def moment(text: str) -> tuple[str, tuple[int, ...]] | None:
    """When `text`, one entry of a timeline, is dated: its first date, else its first time.

    `("date", (year, month, day, hour, minute))` or `("time", (hour, minute))`; `None` when it
    holds neither. Parts a date does not give are 0, so "1969" comes before "1969-07-20".
    """
    found = [(match.start(), match) for pattern in _DATES if (match := pattern.search(text))]
    if found:
        date = min(found, key=lambda pair: pair[0])[1].groupdict()
        month = date.get("mon") or _MONTH_NUMBER.get((date.get("month") or "")[:3].casefold(), 0)
        parts = (date["year"], month, date.get("day"), date.get("h"), date.get("m"))
        return "date", tuple(int(part or 0) for part in parts)
    clock = _CLOCK.search(text)
    if clock is None:
        return None
    hour = int(clock["h"]) % 12 + 12 * (clock["half"] or "").casefold().startswith("p")
    return "time", (hour if clock["half"] else int(clock["h"]), int(clock["m"]))


_FENCE = re.compile(r"^\s*(```|~~~)")
_RULE = re.compile(r"^\s{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(?:[ \t]+|$)")
_BULLET = re.compile(r"^\s*[-*+•][ \t]+")
_NUMBERED = re.compile(r"^\s*\d{1,9}[.)][ \t]+")
# A clause numbered by its place in a hierarchy: "4.1 Full-time employees...", "3.2.1 ...".
_CLAUSE = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3})+\.?[ \t]+(?=[^\W\d])")
_QUOTE_LINE = re.compile(r"^\s{0,3}>")
_CHECKBOX = re.compile(r"^\[[ xX]\][ \t]+")
_ANGLE_TITLE = re.compile(r"<<([^\n]*?)>>")
_LABELLED_TITLE = re.compile(r"^\W{0,3}(?:title|headline)\W{0,3}:", re.IGNORECASE)
BOLD_LINE = re.compile(r"(\*\*|__)[^*_\n]+\1")
"""A line wholly in bold, `**Costs**` (with `fullmatch`)."""
_TITLE_WORDS = 12
GREETING = re.compile(
    r"(?:hi|hello|hey|dear|greetings|good (?:morning|afternoon|evening)|to whom)\b", re.I
)
# A closing line: "Best regards,", "Thanks again — Priya", "Cheers, Sam".
VALEDICTION = re.compile(
    r"^\W{0,3}(?i:(?:with\s+)?(?:(?:best|kind|kindest|warm|warmest|all (?:the|our|my) best|"
    r"our best|my best|love and best)\s+)?(?:regards|wishes)|best|sincerely|"
    r"yours(?: sincerely| truly| faithfully)?|cheers|"
    r"(?:many |with )?thanks(?: again| so much)?|thank you(?: again| so much)?|all the best|"
    r"take care|warmly|respectfully|cordially|love|with (?:love|gratitude|thanks)|talk soon|"
    r"speak soon|see you(?: soon)?|until next time)"
    # Then at most a mark and a name: "Best, Sam", "Thanks again — Priya".
    r"\s*[,!.—–-]?\s*(?:[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,2})?\s*[.!]?$"
)
WORD_LETTERS = re.compile(r"(?<![\w'’])[^\W\d_][\w'’-]*")
SMALL_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "but",
        "or",
        "nor",
        "for",
        "so",
        "yet",
        "as",
        "at",
        "by",
        "in",
        "of",
        "off",
        "on",
        "per",
        "to",
        "up",
        "via",
        "vs",
        "with",
        "from",
        "into",
        "onto",
        "over",
        "than",
    ]
)
# Pictographs (emoji blocks, dingbats, misc symbols, flags), then any modifiers, variation
# selectors and zero-width-joined pictographs, so 👍🏽 and 👩‍💻 are one emoji each.
_PICTOGRAPH = (
    "\U0001f000-\U0001faff\u2600-\u27bf\u231a\u231b\u23e9-\u23fa\u2b05-\u2b07"
    "\u2b1b\u2b1c\u2b50\u2b55\u3030\u303d\u3297\u3299"
)
_EMOJI = re.compile(
    rf"[{_PICTOGRAPH}][\uFE0F\U0001F3FB-\U0001F3FF\U000E0020-\U000E007F]*"
    rf"(?:\u200D[{_PICTOGRAPH}][\uFE0F\U0001F3FB-\U0001F3FF]*)*"
)

# A sentence ends at a run of terminators, then optional closing quotes or brackets, when
# whitespace or the end of the text follows; CJK full stops end one wherever they are.
_LATIN_END = re.compile(r"[.!?…‽]+[\"'”’»)\]*_]*(?=\s|$)")
_CJK_END = re.compile(r"[。！？]+[」』”’)\]）]*")
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "e.g", "i.e", "cf", "approx"}
)
_OPENERS = "([\"'“‘«"


@dataclass(frozen=True)
class _Line:
    text: str
    in_fence: bool
    """Inside a fenced code block, or one of its fence lines: never Markdown structure."""


def has_word(text: str) -> bool:
    """True when `text` holds a letter or a digit (of any script)."""
    return any(char.isalnum() for char in text)


def words(text: str) -> list[str]:
    """The words of `text`: whitespace-separated runs that hold a letter or a digit."""
    return [token for token in text.split() if has_word(token)]


def paragraphs(text: str, separator: str | None = None) -> list[str]:
    """Blocks separated by blank lines or horizontal rules (outside code fences), with a word.

    With a `separator`, only lines that hold exactly it (spaces aside) separate paragraphs.
    """
    blocks: list[list[str]] = [[]]
    for line in _lines(text):
        if separator is not None:
            breaks = not line.in_fence and line.text.strip() == separator
        else:
            breaks = not line.in_fence and (not line.text.strip() or bool(_RULE.match(line.text)))
        if breaks:
            blocks.append([])
        else:
            blocks[-1].append(line.text)
    joined = ("\n".join(block) for block in blocks)
    return [block for block in joined if has_word(block)]


def body_paragraphs(text: str) -> list[str]:
    """The paragraphs a reader counts: `paragraphs` without a title standing alone on top.

    "Exactly three stanzas" of a poem under `**Autumn Rain**`, or "3 paragraphs" of an essay
    under `# Title`: the title is no paragraph of it.
    """
    blocks = paragraphs(text)
    title = title_line(text)
    if len(blocks) > 1 and title is not None and blocks[0].strip() == title.strip():
        return blocks[1:]
    return blocks


def sentences(text: str) -> list[str]:
    """The sentences of `text` (see the module docstring for the rule), each stripped."""
    found: list[str] = []
    for block in _sentence_blocks(text):
        start = 0
        for end in _sentence_ends(block):
            piece = block[start:end].strip()
            if has_word(piece):
                found.append(piece)
            start = end
        tail = block[start:].strip()
        if has_word(tail):
            found.append(tail)
    return found


def bullet_lines(text: str, *, numbered: bool = False) -> list[str]:
    """The bullet-point lines of `text` (stripped), numbered items too when `numbered`."""
    found: list[str] = []
    for line in _lines(text):
        if line.in_fence or _RULE.match(line.text):
            continue
        marker = _BULLET.match(line.text) or (_NUMBERED.match(line.text) if numbered else None)
        if marker and has_word(line.text[marker.end() :]):
            found.append(line.text.strip())
    return found


_LETTERED = re.compile(r"^\s*\(?(?:[a-z]|[ivx]{1,4})[.)][ \t]+")


def nested_lines(text: str) -> list[str]:
    """The list items of `text` (stripped) indented under an item above them: sub-bullets.

    An item is nested when it is indented deeper than an item before it in the same list (no
    line of prose between them); a tab counts as four spaces. Indented, `a.`, `b)` and `(iv)`
    mark items too.
    """
    found: list[str] = []
    above: list[int] = []  # the indents of the items of the list being read
    for line in _lines(text):
        if line.in_fence or _RULE.match(line.text) or not line.text.strip():
            continue
        marker = (
            _BULLET.match(line.text)
            or _NUMBERED.match(line.text)
            or (_LETTERED.match(line.text) if line.text[:1].isspace() else None)
        )
        if marker is None:
            if not line.text[:1].isspace():
                above = []  # prose ends the list; an indented line continues its item
            continue
        if not has_word(line.text[marker.end() :]):
            continue
        indent = len(line.text.expandtabs(4)) - len(line.text.expandtabs(4).lstrip())
        if any(level < indent for level in above):
            found.append(line.text.strip())
        above.append(indent)
    return found


def numbered_lines(text: str) -> list[str]:
    """The numbered-item lines of `text` (stripped): `1. ...` or `2) ...`, outside code fences."""
    found: list[str] = []
    for line in _lines(text):
        marker = None if line.in_fence else _NUMBERED.match(line.text)
        if marker and has_word(line.text[marker.end() :]):
            found.append(line.text.strip())
    return found


GLOSSES = ("answer", "description", "definition")
"""What follows an entry's label, by the name a criterion gives it (`glosses`)."""
UNITS = ("sentence", "paragraph", "line", "item", "entry", "output", "section", *GLOSSES)
_LIST_MARKER = re.compile(r"^\s*(?:[-*+•]|\d{1,9}[.)])\s+")


def unit_pieces(text: str, unit: str) -> list[str]:
    """The text's pieces of one of the `UNITS`, in order (see the module's docstring).

    Raises `CheckUndecided` for `output`, `section` and the `GLOSSES` when the text does not
    mark those pieces: where one ends is then a judgment, which the judge makes.
    """
    if unit == "output":
        pieces = outputs(text)
        if pieces is None:
            raise CheckUndecided(
                "where each output starts and ends is not marked: that takes one list, or "
                "blocks each opened by a label such as 'Option 1:'"
            )
        return pieces
    if unit == "section":
        found = sections(text)
        if found is None:
            raise CheckUndecided("the text has no headings or labels to divide it into sections")
        return found
    if unit in GLOSSES:
        found = glosses(text, unit)
        if found is None:
            raise CheckUndecided(
                f"where each {unit} starts is not marked: that takes a label such as 'A:' or "
                f"'**Term**:', a question or name on the line above, a JSON key or a {unit} column"
            )
        return found
    if unit == "item":
        return [_LIST_MARKER.sub("", item) for item in bullet_lines(text, numbered=True)]
    if unit == "entry":
        return entries(text)
    if unit == "sentence":
        return sentences(text)
    if unit == "paragraph":
        return body_paragraphs(text)
    return [line.strip() for line in text.splitlines() if has_word(line)]


def entries(text: str, noun: str | None = None) -> list[str]:
    """What "each tip" or "five steps" count: the pieces a reader sees the text listed in.

    See `entry_kind` for which pieces those are.
    """
    return entry_kind(text, noun)[1]


EntryKind = Literal["items", "rows", "quotes", "lines", "commas", "sentences"]


def entry_kind(text: str, noun: str | None = None) -> tuple[EntryKind, list[str]]:
    """The entries of `text` and what they are: list items, table rows, lines, sentences...

    The top-level list items (a nested item is a detail of the one above it; a clause numbered
    "4.1" is an item) when the text has a list; else the body rows of its tables; else its
    blockquotes (a run of `>` lines is one); else the pieces of a line made only of bracketed
    pieces (`[Yes] [No]`, a row of quick replies); else its lines holding a word, less code, the
    title, headings and a lead-in ending in `:` ("Here are three tips:"); and when that leaves
    one line, the pieces of a list written with commas ("eggs, feta, lemons"), else its
    sentences. With `noun` ("ingredients"), a text with several lists counts those whose label
    line names it: a recipe's "Ingredients:" list, not its steps.
    """
    blocks = _list_blocks(text)
    if blocks:
        if noun is not None and len(blocks) > 1:
            # "learning objectives" under "Objectives": the whole noun, else its last word
            for said in (noun, noun.split()[-1]):
                named = re.compile(rf"\b{re.escape(_stem(said))}", re.IGNORECASE)
                chosen = [items for label, items in blocks if named.search(label)]
                if chosen:
                    blocks = [("", items) for items in chosen]
                    break
        listed = [item for _, items in blocks for item in items]
        top = min(indent for indent, _ in listed)
        return "items", [item for indent, item in listed if indent == top]
    rows = [row for table in tables(text) for row in table[2:] if has_word(row)]
    if rows:
        return "rows", [row.strip() for row in rows]  # "at least five dishes" of a menu table
    quoted = _quote_blocks(text)
    if quoted:
        return "quotes", quoted  # "exactly two testimonials" of two blockquotes
    buttons = [
        piece
        for line in _lines(text)
        if not line.in_fence and _BRACKET_ROW.match(line.text)
        for piece in re.findall(r"\[([^\[\]]+)\]", line.text)
    ]
    if buttons:
        return "items", buttons  # "[Yes] [No] [Later]": a row of quick replies or tags
    title = (title_line(text) or "").strip()
    every = list(_lines(text))
    # A table's header row names its columns: its entries are the rows below.
    headers = {
        index
        for index, line in enumerate(every[:-1])
        if "|" in line.text and _TABLE_DELIMITER.match(every[index + 1].text)
    }
    lines = [
        line.text.strip()
        for index, line in enumerate(every)
        if not line.in_fence
        and index not in headers
        and has_word(line.text)
        and line.text.strip() != title
        and not _HEADING.match(line.text)
        and not line.text.rstrip().endswith(":")
    ]
    if len(lines) != 1:
        return "lines", lines
    listed_with_commas = _comma_items(lines[0])
    if listed_with_commas:
        return "commas", listed_with_commas
    return "sentences", sentences(lines[0])


# A line of two or more bracketed pieces and nothing else: "[Yes] [No] [Talk to an agent]".
_BRACKET_ROW = re.compile(r"^\s*(?:\[[^\[\]\n]*\w[^\[\]\n]*\]\s*){2,}$")


def _quote_blocks(text: str) -> list[str]:
    """The text's blockquotes, each a run of `>` lines, joined into one piece."""
    blocks: list[list[str]] = []
    previous = False
    for line in _lines(text):
        quoted = not line.in_fence and bool(_QUOTE_LINE.match(line.text))
        if quoted:
            body = _QUOTE_LINE.sub("", line.text, count=1).strip()
            if not previous:
                blocks.append([])
            if body:
                blocks[-1].append(body)
        previous = quoted
    return [" ".join(block) for block in blocks if block and has_word(" ".join(block))]


def _comma_items(line: str) -> list[str] | None:
    """The items of a one-line list written with commas: "eggs, spinach, feta, lemons".

    Three or more pieces of at most four words each, in one sentence; not a sentence whose
    clauses happen to hold commas.
    """
    if len(sentences(line)) != 1:
        return None
    pieces = [p.strip() for p in re.split(r"[,;]", line.strip().rstrip(".")) if p.strip()]
    if len(pieces) >= 3 and all(has_word(p) and len(words(p)) <= 4 for p in pieces):
        return pieces
    return None


def outputs(text: str) -> list[str] | None:
    """The several outputs of a reply that was asked for more than one, or `None`.

    What "each tagline", "every option" or "per tweet" point at: the items of the reply's one
    list, when the prose around it is at most a lead-in and a closing paragraph; else its
    paragraphs, when every one (a lead-in ending in `:` aside) is opened by a label, on a line
    of its own ("Option 1:", "**Tweet 2**", "### Version B") or before the text ("Option 2:
    ...", "1/5 ..."). A label is not part of the output it names. Anything else, such as
    unlabelled paragraphs, several lists or a table, is `None`: where one output ends is then a
    judgment, and the judge makes it.
    """
    lists = _list_blocks(text)
    if lists:
        prose = [p for p in paragraphs(text) if not _is_list_only(p)]
        if len(lists) > 1 or len(prose) > 2:
            return None
        items = lists[0][1]
        top = min(indent for indent, _ in items)
        return [_without_label(item) for indent, item in items if indent == top]
    blocks = paragraphs(text)
    if blocks and blocks[0].rstrip().endswith(":") and _label_line(blocks[0]) is None:
        blocks = blocks[1:]  # "Here are three options:"
    pieces = [_labelled_output(block) for block in blocks]
    if len(pieces) < 2 or any(piece is None for piece in pieces):
        return None
    return [piece for piece in pieces if piece is not None]


# What opens one of several outputs: "Option 1:", "**Tweet 2/5**", "Version B -", "(1/4)"; a
# letter only in capitals, so "Post a photo" opens no output.
_OUTPUT_LABEL = re.compile(
    r"^\s*(?:#{1,6}\s+)?(?:\*\*|__)?\(?(?:(?:option|version|variant|draft|tweet|post|caption|"
    r"headline|title|tagline|slogan|subject(?:\s+line)?|message|sms|text|notification|idea|ad|"
    r"e-?mail|bio)(?:\s*#?\s*\d{1,2}|\s+(?-i:[A-Z]))\b(?:\s*/\s*\d{1,2})?|\d{1,2}\s*/\s*\d{0,2})\)?"
    r"(?:\*\*|__)?[ \t]*(?:[:.)\-\u2013\u2014][ \t]*)?(?:\*\*|__)?[ \t]*",
    re.IGNORECASE,
)


def _without_label(item: str) -> str:
    label = _OUTPUT_LABEL.match(item)
    rest = item[label.end() :] if label else ""
    return rest.strip() if has_word(rest) else item.strip()


def _label_line(block: str) -> str | None:
    """The text after a block's first line, when that line is a label of its own."""
    first, _, rest = block.strip().partition("\n")
    label = _OUTPUT_LABEL.match(first)
    # A heading or a bold line may be the output's own title ("**Water shut-off on Tuesday**"
    # over each language's version): only a label ("### Option 2", "**Tweet 1/3**") opens one.
    own_line = label is not None and not has_word(first[label.end() :])
    return rest.strip() if own_line and has_word(rest) else None


def _labelled_output(block: str) -> str | None:
    after_line = _label_line(block)
    if after_line is not None:
        return after_line
    label = _OUTPUT_LABEL.match(block)
    if label is not None and has_word(block[label.end() :]):
        return block[label.end() :].strip()
    return None


def _is_list_only(paragraph: str) -> bool:
    return all(
        _BULLET.match(line) or _NUMBERED.match(line)
        for line in paragraph.splitlines()
        if line.strip()
    )


_CLOSING = "\"'”’)]*_` \t"


def questions(text: str) -> tuple[list[str], bool]:
    """The questions of `text`, and whether they are the items of its list.

    A list whose items are at least half questions ("1. Tell me about a time...", "2. How did
    you...?") is a list of questions: each item is one, worded as a request or not; so are a
    quiz's numbered lines, each a question over its own options. Else a
    question is a sentence, heading or title ending in `?`.
    """
    blocks = _list_blocks(text)
    if len(blocks) == 1:
        items = blocks[0][1]
        top = [item for indent, item in items if indent == min(i for i, _ in items)]
    else:
        # A quiz numbers its questions, each over its options: "1. What...?" then "A) ..."
        top = [_NUMBERED.sub("", line, count=1) for line in numbered_lines(text)]
    listed = sum(item.rstrip(_CLOSING).endswith("?") for item in top)
    if len(top) > 1 and 2 * listed >= len(top):
        return top, True
    asked = [s for s in sentences(text) if s.rstrip(_CLOSING).endswith("?")]
    # Headings and a title in bold hold no sentence, yet an FAQ's "## Can I pay by card?" or
    # "**How long do I have?**" is a question to a reader counting them.
    title = title_line(text)
    bold_title = title.strip() if title is not None and BOLD_LINE.fullmatch(title.strip()) else None
    headed = [
        line.text.strip()
        for line in _lines(text)
        if not line.in_fence
        and (_HEADING.match(line.text) or line.text.strip() == bold_title)
        and line.text.rstrip(_CLOSING).endswith("?")
    ]
    return headed + asked, False


def list_count(text: str) -> int:
    """How many lists `text` holds: runs of list items, each ended by a line of text."""
    return len(_list_blocks(text))


def _list_blocks(text: str) -> list[tuple[str, list[tuple[int, str]]]]:
    """The text's lists: each with its label (the line of text above it) and its items.

    An item is `(indent, text without its marker)`; blank lines do not end a list, a line of
    text does.
    """
    blocks: list[tuple[str, list[tuple[int, str]]]] = []
    label = ""
    current: list[tuple[int, str]] | None = None
    for line in _lines(text):
        if line.in_fence or _RULE.match(line.text) or not line.text.strip():
            continue
        marker = _BULLET.match(line.text) or _NUMBERED.match(line.text) or _CLAUSE.match(line.text)
        if marker is None or not has_word(line.text[marker.end() :]):
            label, current = line.text.strip(), None
            continue
        if current is None:
            current = []
            blocks.append((label, current))
        current.append(
            (len(line.text) - len(line.text.lstrip()), line.text[marker.end() :].strip())
        )
    return blocks


def _stem(noun: str) -> str:
    """A plural noun's stem, so that "ingredients" finds "Ingredient list" and "Ingredients"."""
    folded = " ".join(noun.casefold().split())
    for ending in ("ies", "es", "s"):
        if folded.endswith(ending) and len(folded) > len(ending) + 2:
            return folded[: -len(ending)] + ("y" if ending == "ies" else "")
    return folded


def title_line(text: str) -> str | None:
    """The title of `text`, or `None`: what a reader would take for a title.

    - `<<Title>>` on one line, anywhere;
    - else the first non-blank line, when it is a Markdown heading (`# Title`), starts with
      `Title:`, is wholly in bold (`**Title**`), or stands alone: at most 12 words, no list
      marker, not a greeting (`Hi team`), not ending in `.`, `,`, `;` or `:`, with a blank line
      after it and more text below.
      A standalone line ending in `?` or `!` counts only when its words are capitalized (a
      title, not a question asked).
    """
    for match in _ANGLE_TITLE.finditer(text):
        if has_word(match.group(1)):
            return match.group()
    lines = [line for line in _lines(text)]
    index = _first_line(lines)
    if index is None or lines[index].in_fence:
        return None
    first = lines[index].text.strip()
    heading = _HEADING.match(first)
    if heading:
        return first if has_word(first[heading.end() :]) else None
    if _LABELLED_TITLE.match(first) or BOLD_LINE.fullmatch(first):
        return first if has_word(first) else None
    standalone = _standalone_first_line(lines[index:])
    return standalone if standalone and len(words(standalone)) <= _TITLE_WORDS else None


def long_title_line(text: str) -> str | None:
    """A first line that stands alone as a title does but is longer than `title_line` takes.

    "GreenGrid Raises $30 Million Series B to Expand Community Solar Across the Midwest" above
    a press release: a headline to a reader, a first sentence to a count of words. A rule on the
    title leaves such a text to the judge rather than find no title in it.
    """
    if title_line(text) is not None:
        return None
    lines = [line for line in _lines(text)]
    index = _first_line(lines)
    if index is None or lines[index].in_fence:
        return None
    return _standalone_first_line(lines[index:])


# A press release's release line stands above its headline: "FOR IMMEDIATE RELEASE".
_RELEASE_LINE = re.compile(
    r"\W*(?:for immediate release|(?:press|news) release|media (?:advisory|alert)|"
    r"embargoed(?: until\b.*)?)\W*",
    re.IGNORECASE,
)


def _first_line(lines: list[_Line]) -> int | None:
    """The index of the first line holding text, a press release's release line passed over."""
    filled = [i for i, line in enumerate(lines) if line.text.strip()]
    if len(filled) > 1 and _RELEASE_LINE.fullmatch(lines[filled[0]].text.strip()):
        return filled[1]
    return filled[0] if filled else None


def _standalone_first_line(lines: list[_Line]) -> str | None:
    """`lines[0]` when it stands alone as a title would, whatever its length."""
    first = lines[0].text.strip()
    if _BULLET.match(first) or _NUMBERED.match(first):
        return None
    rest = lines[1:]
    if not rest or rest[0].text.strip() or not any(has_word(line.text) for line in rest):
        return None
    if first[-1] in ".,;:" or GREETING.match(first):
        return None
    if first[-1] in "?!" and not is_title_case(first):
        return None
    return first


SECTION_PART = "section:"
"""A part named by its heading or label: `section:Summary` is what the text says under it."""
PARTS = (
    "title",
    "subject",
    "body",
    "first_line",
    "last_line",
    "first_paragraph",
    "last_paragraph",
    "first_sentence",
    "last_sentence",
    "prose",
    "without_hashtags",
    "after_code",
    "postscript",
)
_TITLE_MARKUP = re.compile(
    r"^\s{0,3}#{1,6}[ \t]+|^<<|>>$|^(\*\*|__)|(\*\*|__)$"
    r"|^\W{0,3}(?:title|headline)\W{0,3}:(?:\*\*|__)?\s*",
    re.I,
)
_SUBJECT = re.compile(r"^\W{0,3}subject(?: line)?\W{0,3}:\s*", re.IGNORECASE)
_POSTSCRIPT = re.compile(r"^\W{0,3}p\.?\s?p?\.?\s?s\b", re.IGNORECASE)
# The marker a postscript opens with, which its words do not count: "P.S.", "**PS:**".
_POSTSCRIPT_MARK = re.compile(r"^\W{0,3}p\.?\s?p?\.?\s?s\b\.?\W{0,3}\s*", re.IGNORECASE)


LINE_PARTS = ("subject", "greeting", "first_line")
"""The parts that are one line of the text, as `part_line` finds them."""


def part_line(text: str, part: str) -> int | None:
    """The index in `text.splitlines()` of a one-line part (`LINE_PARTS`), or `None`.

    The subject is the line labelled "Subject:", else the first line (a commit message's
    subject); the greeting is the first line that opens with one ("Hi Ana,").
    """
    lines = [(index, line) for index, line in enumerate(text.splitlines()) if has_word(line)]
    if not lines:
        return None
    if part == "subject":
        labelled = next((index for index, line in lines if _SUBJECT.match(line.strip())), None)
        return lines[0][0] if labelled is None else labelled
    if part == "greeting":
        return next((i for i, line in lines if GREETING.match(line.strip("#*_> \t"))), None)
    return lines[0][0]


def subject_line(text: str) -> str | None:
    """The subject line the text opens with ("Subject: ..."), among its header lines if any.

    An e-mail opens with it; a memo has it in the header block on top ("MEMO / To: / From: /
    Subject: ..."). A "Subject:" line further down, under a greeting, is not one.
    """
    for line in text.splitlines():
        found = line.strip()
        if not found:
            continue
        if _SUBJECT.match(found):
            return found
        if not (_HEADER_FIELD.match(found) or _MEMO.fullmatch(found)):
            return None
    return None


def after_header(text: str) -> str | None:
    """What follows the header lines an e-mail or memo opens with ("Subject: ..."), or `None`.

    The header block is the lines on top that are "Subject:", "To:", "From:", "Date:", "Cc:"
    or "Re:" fields, or a "MEMO" line; `None` when the text opens with none.
    """
    lines = text.strip().splitlines()
    index = 0
    while index < len(lines) and (
        _HEADER_FIELD.match(lines[index].strip()) or _MEMO.fullmatch(lines[index].strip())
    ):
        index += 1
    return "\n".join(lines[index:]).strip() if index else None


def part_text(text: str, part: str) -> str | None:
    """The named part of `text` (`PARTS`, or `section:<name>`), or `None` without one."""
    if part.startswith(SECTION_PART):
        return section_text(text, part[len(SECTION_PART) :])
    if part.startswith(TEXT_PART):
        return text  # labelled nowhere (`within` reads the labels first): the reply is the piece
    lines = [line.strip() for line in text.splitlines() if has_word(line)]
    if part == "title":
        alone = lines[0] if len(lines) == 1 else ""  # a headline on its own is its title
        if len(words(alone)) > _TITLE_WORDS or alone.endswith((".", ",", ";", ":")):
            alone = ""
        title = title_line(text) or alone or None
        return None if title is None else _TITLE_MARKUP.sub("", title.strip()).strip()
    if part == "subject":
        labelled = next((line for line in lines if _SUBJECT.match(line)), None)
        if labelled is not None:
            return _SUBJECT.sub("", labelled)
        return lines[0] if lines else None
    if part == "without_hashtags":
        shown: list[str] = []
        for line in _lines(text):
            untagged = line.text if line.in_fence else _HASHTAG.sub("", line.text).rstrip()
            if untagged.strip() or not line.text.strip():  # a line of hashtags only goes
                shown.append(untagged)
        return "\n".join(shown).strip() or None
    if part == "postscript":
        every = text.splitlines()
        start = next((i for i, line in enumerate(every) if _POSTSCRIPT.match(line.strip())), None)
        if start is None:
            return None
        first = _POSTSCRIPT_MARK.sub("", every[start].strip(), count=1)
        return "\n".join([first, *every[start + 1 :]]).strip() or None
    if part == "after_code":
        return _after_code(text)
    if part == "prose":
        kept = "\n".join(line.text for line in _lines(text) if not line.in_fence)
        return re.sub(r"\n\s*\n\s*(?=\S)", "\n\n", kept).strip() or None  # one gap per block
    if part == "body":
        blocks = body_paragraphs(text)
        while len(blocks) > 1 and _POSTSCRIPT.match(blocks[-1]):
            blocks = blocks[:-1]
        body = _body(blocks)
        return "\n\n".join(body) if body else None
    kind, _, unit = part.partition("_")
    cut = {"line": lambda: lines, "paragraph": lambda: _body(body_paragraphs(text))}
    pieces = cut.get(unit, lambda: sentences(text))()
    if not pieces:
        return None
    return pieces[0] if kind == "first" else pieces[-1]


def _after_code(text: str) -> str | None:
    """What the text says after its last fenced code block; `None` when it has no such block.

    Raises `CheckUndecided` when the text has no fenced block: where unfenced code ends is a
    judgment ("the explanation after the Dockerfile" of a Dockerfile in plain lines).
    """
    after: list[str] | None = None
    inside = False
    for line in _lines(text):
        if line.in_fence:
            if _FENCE.match(line.text):
                inside = not inside
                after = None if inside else []
            continue
        if after is not None:
            after.append(line.text)
    if after is None:
        raise CheckUndecided("the code is not in a fenced block, so where it ends is not marked")
    return "\n".join(after).strip()


# A line of a memo's or letter's header: "To: All staff", "Subject: ...", "Re: Account 7718".
_HEADER_FIELD = re.compile(
    r"^\W{0,3}(?:to|from|date|subject(?: line)?|cc|bcc|re|attn|ref)\W{0,3}:", re.IGNORECASE
)
_MEMO = re.compile(r"\W{0,3}(?:memo|memorandum|internal memo)\W{0,3}", re.IGNORECASE)


def _body(blocks: list[str]) -> list[str]:
    """A letter's paragraphs without its subject line, greeting and sign-off.

    Its opening and closing paragraphs are the first and last that say something: not "Hi Sam,"
    and not "Best, Jo".
    """

    def greeting(block: str) -> bool:
        first = block.strip().splitlines()[0]
        return (
            len(block.strip().splitlines()) == 1
            and bool(GREETING.match(first))
            and (first.rstrip().endswith((",", ":", "!")) or len(words(first)) <= 4)
        )

    def sign_off(block: str) -> bool:
        # "Best regards," or any short closing with a comma ("Happy planting,") over a name
        # ("The Greenleaf Team"); not a stanza's "And so I go, / into the night".
        lines = [line.strip() for line in block.strip().splitlines()]
        if len(lines) > 3:
            return False
        if VALEDICTION.match(lines[0]) is not None:
            return True
        names = lines[1:]
        return (
            bool(names)
            and lines[0].endswith(",")
            and len(words(lines[0])) <= 6
            and all(len(words(n)) <= 5 and _is_name(n) for n in names)
        )

    kept = list(blocks)
    # A memo's header ("To: All staff / From: ... / Subject: ...") and a title such as "MEMO".
    while len(kept) > 1 and all(
        _HEADER_FIELD.match(line.strip()) or _MEMO.fullmatch(line.strip())
        for line in kept[0].strip().splitlines()
    ):
        kept = kept[1:]
    # What a letter puts above its greeting (the date, the addresses) is no more its body
    # than the greeting is; nor is a "Re:" line under it.
    opening = next((i for i, block in enumerate(kept[:5]) if greeting(block)), None)
    if opening is not None and len(kept) > opening + 1:
        kept = kept[opening + 1 :]
        if len(kept) > 1 and _HEADER_FIELD.match(kept[0].strip()) and "\n" not in kept[0].strip():
            kept = kept[1:]
    # "Sincerely," alone, a blank line, then the name and role: the sign-off is both blocks.
    signature = kept[-1].strip().splitlines() if kept else []
    if (
        len(kept) > 2
        and len(signature) <= 3
        and all(len(words(line)) <= 6 and _is_name(line) for line in signature)
        and len(kept[-2].strip().splitlines()) == 1
        and VALEDICTION.match(kept[-2].strip()) is not None
    ):
        kept = kept[:-2]
    elif len(kept) > 1 and sign_off(kept[-1]):
        kept = kept[:-1]
    return kept


def _is_name(line: str) -> bool:
    """A signature line: every word capitalized, small words aside ("Head of Sales")."""
    found = WORD_LETTERS.findall(line)
    return bool(found) and all(w[0].isupper() or w.casefold() in SMALL_WORDS for w in found)


def is_title_case(text: str) -> bool:
    """Whether every word of `text` starts with a capital, short function words aside.

    The first and last word must be capitalized; `a`, `an`, `the`, `and`, `of`, `to`, `in` and
    the like may be either; a word starting with a digit or a symbol is ignored.
    """
    found = [w for w in WORD_LETTERS.findall(text)]
    if not found:
        return False
    for position, word in enumerate(found):
        if word[0].isupper():
            continue
        inner = 0 < position < len(found) - 1
        if not (inner and word.casefold() in SMALL_WORDS):
            return False
    return True


CASES = ("title", "sentence", "lower", "upper")
"""The letter cases a heading (or a table's header cell) may be asked to be in."""


def in_case(heading: str, case: str) -> bool:
    """Whether a heading is in one of `CASES`: see `heading_case` for what each means."""
    if case == "lower":
        return not any(char.isupper() for char in heading)
    if case == "upper":
        return not any(char.islower() for char in heading)
    if case == "title":
        return is_title_case(heading)
    words = [w for w in WORD_LETTERS.findall(heading) if not w.isupper() or len(w) == 1]
    if not words or not words[0][0].isupper():
        return False
    # a day's or a month's name is capitalised in sentence case too ("closed on Friday, March 14")
    later = [
        w for w in words[1:] if w.casefold() not in SMALL_WORDS and not _CALENDAR_NAME.fullmatch(w)
    ]
    capitals = sum(1 for w in later if w[0].isupper())
    return capitals * 2 <= len(later) and not (len(later) > 0 and capitals == len(later))


# A label that opens a line: "**Today:** pairing with Lee", "- Owner: Sam", "Note: ...".
_LINE_LABEL = re.compile(
    r"^\s*(?:[-*+\u2022]\s+)?(?:\*\*|__)?(?P<label>[^\s:*_][^:*_]{0,39}?)\s*:(?!//)"
)
_LABEL_MAX_WORDS = 5


class SectionLine(NamedTuple):
    """A line of a text, and the section it opens: a heading's or a line label's name, if any."""

    text: str
    name: str | None
    heading: bool
    rest: str
    """What follows a line label on its line ("one line" of `**Summary:** one line`)."""


def section_lines(text: str) -> list[SectionLine]:
    """Every line of `text`, each with the section it opens, code blocks aside.

    A section opens at a heading a reader sees (`headings_seen`: `## Summary`, `**Summary**`,
    a label line), named without its marks or a trailing colon, or at a line label of at most
    five words (`**Summary:** one line`, `Owner: Sam`).
    """
    headings = {line.strip() for line in headings_seen(text)}
    found = []
    for line in _lines(text):
        stripped = line.text.strip()
        if not line.in_fence and stripped in headings:
            found.append(
                SectionLine(line.text, heading_text(stripped).rstrip(":").strip(), True, "")
            )
            continue
        label = None if line.in_fence else _LINE_LABEL.match(line.text)
        if label is not None and len(label["label"].split()) <= _LABEL_MAX_WORDS:
            rest = line.text[label.end() :].strip().lstrip("*_").strip()
            found.append(SectionLine(line.text, label["label"].strip(), False, rest))
        else:
            found.append(SectionLine(line.text, None, False, ""))
    return found


def glosses(text: str, kind: str) -> list[str] | None:
    """What follows each entry's label, or `None` when the text does not mark it.

    What "each answer", "every definition" or "descriptions under 12 words" point at: the
    second half of an entry, not the entry. Found, in this order, as the values of a JSON key
    named `kind` ("answer", "a"), the cells of a table column named so, the entries under a
    heading named so ("**Descriptions**"), the lines labelled `A:` (answers), the lines under a
    bold, heading or question line in every paragraph ("**What should I wear?**" over its
    answer, "**Burrata** · $16" over its description), or what follows the label of every
    entry ("**Blanch**: briefly boil...", "API – a set of rules"). `kind` is one of `GLOSSES`.
    """
    for find in (_json_glosses, _column_glosses, _section_glosses):
        found = find(text, kind)
        if found:
            return found
    if kind == "answer":
        answers = [m.group("rest").strip() for m in _ANSWER_LINE.finditer(text)]
        if len(answers) >= 2:
            return answers
    return _block_glosses(text) or _labelled_glosses(text)


_GLOSS_KEYS = {
    "answer": ("answer", "a", "reply", "response"),
    "description": ("description", "desc", "explanation"),
    "definition": ("definition", "meaning", "def"),
}
_ANSWER_LINE = re.compile(
    r"^[ \t]*(?:\*\*|__)?(?:a|answer)(?:\*\*|__)?[ \t]*[:.)][ \t]*(?:\*\*|__)?(?P<rest>.*\w.*)$",
    re.IGNORECASE | re.MULTILINE,
)
# "**Blanch**: ...", "- **Algorithm:** ...", "API – ...", "Lamb Shoulder — ...": a short label,
# then a colon or a dash between spaces, then the rest.
_GLOSS_LABEL = re.compile(
    r"^(?:\*\*|__)?(?P<label>[^:*_\n]{1,60}?)(?:\*\*|__)?[ \t]*(?::|[ \t][\u2013\u2014-])"
    r"[ \t]*(?:\*\*|__)?[ \t]*(?P<rest>\S.*)$"
)
_GLOSS_LABEL_WORDS = 6


def _json_glosses(text: str, kind: str) -> list[str] | None:
    blocks = [b.split("\n", 1)[1].rsplit("\n", 1)[0] for b in code_blocks(text) if "\n" in b]
    for candidate in [text, *blocks]:
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        records = data if isinstance(data, list) else [data]
        keys = _GLOSS_KEYS[kind]
        found = [
            str(value)
            for record in records
            if isinstance(record, dict)
            for key, value in record.items()
            if isinstance(key, str) and key.casefold() in keys and isinstance(value, str)
        ]
        if found:
            return found
    return None


def _column_glosses(text: str, kind: str) -> list[str] | None:
    for rows in tables(text):
        header = [_stem(cell.strip(" *_`")) for cell in table_cells(rows[0])]
        if kind in header:
            column = header.index(kind)
            cells = [table_cells(row) for row in rows[2:]]
            return [row[column].strip() for row in cells if len(row) > column]
    return None


def _section_glosses(text: str, kind: str) -> list[str] | None:
    under = section_text(text, f"{kind}s") or section_text(text, kind)
    return entries(under) if under else None


def _block_glosses(text: str) -> list[str] | None:
    """The lines under a bold, heading or question line, when every paragraph has them."""
    found: list[str] = []
    for block in paragraphs(text):
        first, _, rest = block.strip().partition("\n")
        if not has_word(rest):
            if _HEADING.match(first) or BOLD_LINE.fullmatch(first.strip()) or first.endswith(":"):
                continue  # a heading over the entries, a title, a lead-in
            return None
        if not (first.startswith(("**", "__")) or _HEADING.match(first) or first.endswith("?")):
            return None
        found.append(rest.strip())
    return found if len(found) >= 2 else None


def _labelled_glosses(text: str) -> list[str] | None:
    """What follows the label of every entry, when every one has a short label."""
    found: list[str] = []
    for entry in entries(text):
        label = _GLOSS_LABEL.match(_LIST_MARKER.sub("", entry).strip())
        if label is None or len(words(label.group("label"))) > _GLOSS_LABEL_WORDS:
            return None
        found.append(label.group("rest").strip())
    return found if len(found) >= 2 else None


def sections(text: str) -> list[str] | None:
    """What the text says under each of its headings, or `None` when it has none.

    What "each day", "per category" or "every section" point at: from each heading a reader
    sees (`headings_seen`: `## Monday`, `**Produce**`, a label line over a list) to the next,
    without the heading. The title on top opens none, nor does a heading with nothing under it
    before the next (a chapter over its sections); what comes before the first heading is an
    introduction, not a section.
    """
    lines = section_lines(text)
    levels = [_level(line.text) for line in lines if line.heading]
    found: list[tuple[bool, list[str]]] = []  # (a title over the sections, the lines under it)
    for line in lines:
        if line.heading:
            # "# Plan" over "## Monday", "## Tuesday": a title over the sections, not one
            found.append((0 < _level(line.text) == min(levels) < max(levels), []))
        elif found:
            found[-1][1].append(line.text)
    pieces = ["\n".join(under).strip() for over, under in found if not over]
    pieces = [piece for piece in pieces if has_word(piece)]
    return pieces or None


def _level(line: str) -> int:
    """A Markdown heading's level (`##` is 2); 0 for any other heading."""
    hashes = re.match(r"\s{0,3}(#{1,6})\s", line)
    return len(hashes.group(1)) if hashes else 0


def section_text(text: str, name: str) -> str | None:
    """What the text says under the heading or line label `name`, or `None` without one.

    Names are compared without case or the word "section"; the section runs to the next
    heading or line label (`section_lines`).
    """
    wanted = _section_name(name)
    found: list[str] | None = None
    for line in section_lines(text):
        if found is not None:
            if line.name is not None:
                break
            found.append(line.text)
        elif line.name is not None and _section_name(line.name) == wanted:
            found = [line.rest] if line.rest else []
    return None if found is None else "\n".join(found).strip()


TEXT_PART = "text:"
"""The text, or a piece of it it names so: `text:summary` is the value of each line labelled
"Summary" and what each heading named so holds when the text has one, else the whole text (the
reply that is a summary)."""
LIST_PART = "list:"
"""A list the text names so: `list:features` is what each heading or label "Features" holds
when the text has one; else the text's only list (the whole text, which holds no other);
a text with several lists, none so named, leaves the criterion to the judge."""
FIELD_PART = "field:"
"""A part the text labels by name: `field:Preview text` is the value of each line labelled so
("**Preview text:** ...") and what the text says under each heading named so."""

# Last words a name may carry or drop: "body text" is the "Body:" line, "subject line" the
# "Subject:" one, "button copy" the "Button:" one.
_FIELD_TAIL = frozenset({"text", "copy", "line", "field", "section", "part"})


def field_values(text: str, name: str) -> list[str]:
    """The value of every line labelled `name` and the text under every heading named so.

    A label with its value on its line (`Body: ...`) holds that line and the lines right below
    it, up to a blank line or the next label. A label alone on its line (`**Abstract:**`) or a
    heading holds what follows, up to the next heading or a label marked like it: a plain
    "You will leave with:" inside a bold-labelled abstract is part of it. Names are compared
    without case, marks, a plural "s" or a last word such as "text" (`_FIELD_TAIL`), so
    "titles" finds every "Title:" line and "preview text" the "Preview:" one.
    """
    wanted = _field_name(name)
    values: list[str] = []
    current: list[str] | None = None
    inline = bold = False

    def ends(line: SectionLine) -> bool:
        if inline:
            return line.name is not None or not line.text.strip()
        return line.heading or (line.name is not None and _bold(line.text) == bold)

    for line in section_lines(text):
        if current is not None and not ends(line):
            current.append(line.text)
            continue
        if current is not None:
            values.append("\n".join(current).strip())
            current = None
        # A title line "**Headline:** ..." opens a section named by its value: read its label.
        label = _LINE_LABEL.match(line.text) if line.heading else None
        if label is not None and _field_name(label["label"]) == wanted:
            rest = line.text[label.end() :].strip().lstrip("*_").strip()
        elif line.name is not None and _field_name(line.name) == wanted:
            rest = line.rest
        else:
            continue
        current, inline, bold = ([rest] if rest else []), bool(rest), _bold(line.text)
    if current is not None:
        values.append("\n".join(current).strip())
    return values


def bold_opening(line: str) -> str | None:
    """The words in bold that open `line`, after any list marker: "- **Owner:** Sam" -> "Owner:"."""
    found = _BOLD_OPENING.match(_LIST_MARKER.sub("", line, count=1).lstrip())
    return None if found is None else found.group(2)


_BOLD_OPENING = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")


def _bold(line: str) -> bool:
    return bold_opening(line) is not None


def _field_name(name: str) -> str:
    found = re.findall(r"[^\W_]+(?:[;&'’][^\W_]+)*", name.casefold())
    while len(found) > 1 and found[-1] in _FIELD_TAIL:
        found.pop()
    if found and found[0] in ("the", "your", "each", "every", "all"):
        found.pop(0)
    if found and len(found[-1]) > 3 and found[-1].endswith("s") and not found[-1].endswith("ss"):
        last = found[-1]
        found[-1] = f"{last[:-3]}y" if last.endswith("ies") else last[:-1]
    return "".join(found)  # "sub-headline" is the "Subheadline:" line


def _section_name(name: str) -> str:
    folded = " ".join(name.strip().rstrip(":").strip().casefold().split())
    return re.sub(r"\s+section$", "", folded)


def without_trailing_emojis(text: str) -> str:
    """`text` without the emojis (and the spaces between them) that end it: "today? 🙂"."""
    return re.sub(rf"(?:\s*{_EMOJI.pattern})+\s*$", "", text)


def leading_emoji(text: str) -> str | None:
    """The emoji `text` opens with, if it opens with one."""
    match = _EMOJI.match(text)
    return match.group() if match else None


def emojis(text: str) -> list[str]:
    """The emojis of `text`, a sequence joined by zero-width joiners or modifiers counted once."""
    return _EMOJI.findall(text)


def heading_lines(text: str, level: int | None = None) -> list[str]:
    """The Markdown heading lines of `text` (outside code fences) whose title holds a word.

    With `level`, only those of that level: `## Costs` is level 2 (an H2).
    """
    return [
        line.text.strip()
        for line in _lines(text)
        if not line.in_fence
        and (match := _HEADING.match(line.text))
        and has_word(line.text[match.end() :])
        and (level is None or match.group().count("#") == level)
    ]


_LABEL_WORDS = 8


_HEADING_MARKS = re.compile(
    r"^\s*(?:#{1,6}\s*|(?:title|headline)\s*:(?:\*\*|__)?\s*|<<)|>>\s*$|^\*\*|\*\*$|^__|__$", re.I
)


def heading_text(line: str) -> str:
    """A heading's words without its marks (`#`, bold, `Title:`, `<<>>`): `## **Costs**`."""
    return _HEADING_MARKS.sub("", _HEADING_MARKS.sub("", line.strip()).strip()).strip()


def headings_seen(text: str) -> list[str]:
    """The lines of `text` a reader takes for headings, Markdown or not, in order.

    - a Markdown heading (`## Costs`), a line wholly in bold (`**Costs**`), `<<Costs>>`;
    - the title (`title_line`);
    - a label line: at most 8 words, no list marker, not ending in `.`, `,` or `;`, after a
      blank line (or first), and followed at once by a list ("What went well" over bullets),
      or standing alone with a blank line after it and a line of prose (over 3 words) or a
      list below.

    A short line inside a block of lines (a poem's line, an address) is none: it is neither
    followed by a list nor standing alone. A text that is nothing but a list of short titles
    (an outline: no item over 8 words or ending in a full stop) is a list of headings.
    """
    lines = list(_lines(text))
    items = [line.text.strip() for line in lines if line.text.strip()]
    if items and all(
        (_BULLET.match(item) or _NUMBERED.match(item))
        and len(words(item)) <= _LABEL_WORDS
        and item[-1] not in ".,;"
        for item in items
    ):
        return items
    title = title_line(text)
    found: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.text.strip()
        if line.in_fence or not has_word(stripped):
            continue
        if (
            _HEADING.match(line.text)
            or BOLD_LINE.fullmatch(stripped)
            or _ANGLE_TITLE.fullmatch(stripped)
            or stripped == title
            or _is_label(lines, index)
        ):
            found.append(stripped)
    return found


def _is_label(lines: list[_Line], index: int) -> bool:
    """Whether line `index` is a plain-text label over what follows (see `headings_seen`)."""
    text = lines[index].text.strip()
    if _BULLET.match(text) or _NUMBERED.match(text) or len(words(text)) > _LABEL_WORDS:
        return False
    if text[-1] in ".,;" or GREETING.match(text) or (text[-1] in "?!" and not is_title_case(text)):
        return False
    if index > 0 and lines[index - 1].text.strip():
        return False
    below = [line.text for line in lines[index + 1 :]]
    if not below:
        return False
    if _BULLET.match(below[0]) or _NUMBERED.match(below[0]):
        return True
    if below[0].strip():
        return False
    following = next((line for line in below if line.strip()), "")
    return bool(_BULLET.match(following) or _NUMBERED.match(following) or len(words(following)) > 3)


def section_markers(text: str, marker: str) -> list[str]:
    """Each `marker` word followed by a number, as in `SECTION 2` (case-sensitive)."""
    pattern = re.compile(rf"(?<!\w){re.escape(marker)}[ \t]*\d+(?!\d)")
    return pattern.findall(text)


_URL = re.compile(
    r"(?<![\w@/.-])(?:(?:https?://|www\.)[^\s<>()\[\]{}\"'`]*[^\s<>()\[\]{}\"'`.,;:!?]"
    # A bare domain with a common top-level domain: "example.com/help", "docs.python.org".
    r"|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|co|uk|de|fr|nl|eu|us|edu|gov|app|ai|"
    r"info|me|ly|tv|ca|au)\b(?![@.]\w)(?:/[^\s<>()\[\]{}\"'`]*[^\s<>()\[\]{}\"'`.,;:!?])?)",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
_HASHTAG = re.compile(r"(?<![\w#&/])#[^\W\d]\w*")
# An @mention: "@" then a handle, not inside a word (an e-mail address) and not a price ("@ $5").
_MENTION = re.compile(r"(?<![\w@./])@[^\W\d][\w.-]*(?<![.-])")
_TABLE_ROW = re.compile(r"^[^|\n]*\|[^\n]*$")
_TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


# `*text*` or `**text**` on one line, hugging its text as Markdown emphasis does.
_HIGHLIGHT = re.compile(r"(?<![*\w])(\*\*?)(?=[^\s*])([^*\n]*?[^\s*])\1(?![*\w])")


@dataclass(frozen=True)
class Highlight:
    """A highlighted span: its asterisks (`*` italic, `**` bold) and the text between them."""

    marks: str
    text: str


def highlights(text: str) -> list[Highlight]:
    """The highlighted spans of `text`: `*this*` or `**this**` on one line, holding a word."""
    return [
        Highlight(m.group(1), m.group(2)) for m in _HIGHLIGHT.finditer(text) if has_word(m.group(2))
    ]


def urls(text: str) -> list[str]:
    """The web addresses of `text` (`https://...`, `www....`, `example.com/...`)."""
    return _URL.findall(text)


# A Markdown link, "[text](address)", or an autolink, "<https://...>": the address is dressed.
_DRESSED_URL = re.compile(
    r"\[[^\]\n]*\]\(\s*<?[^()\s]*(?:\([^()\s]*\)[^()\s]*)*>?(?:\s+\"[^\"]*\")?\s*\)|<(?:https?://|www\.)[^\s<>]+>"
)


def bare_urls(text: str) -> list[str]:
    """The web addresses of `text` written out bare, not inside a Markdown link or `<...>`."""
    return urls(_DRESSED_URL.sub(" ", text))


def markdown_links(text: str) -> list[str]:
    """The Markdown links of `text` that point at a web address: `[text](https://...)`."""
    return [link for link in _DRESSED_URL.findall(text) if link.startswith("[") and urls(link)]


def emails(text: str) -> list[str]:
    """The e-mail addresses of `text`."""
    return _EMAIL.findall(text)


# A phone number: nine or more digits in groups joined by spaces, dots, dashes or brackets,
# maybe after a "+" and a country code: "(555) 201-4478", "+44 7700 900123", "0161 496 0123".
_PHONE = re.compile(
    r"(?<![\w.+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{1,5}(?:[ .-]\d{2,6}){1,3}"
    r"(?![\w.]\d)"
)
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Digits in groups split by spaces alone ("101 102 103") are a phone number only beside a word
# that says so; "+", brackets, dashes or dots make the shape one anyway.
_PHONE_WORD = re.compile(
    r"\b(?:call|phone|tel|telephone|mobile|cell|ring|text|sms|contact|fax|whatsapp|number|no)\b"
    r"[^\n]{0,40}$",
    re.IGNORECASE,
)


def phones(text: str, *, alone: bool = False) -> list[str]:
    """The phone numbers of `text`: nine digits or more, not a date or an IP address.

    With `alone`, the text is one number as written (an example), so no word must say so.
    """
    found = []
    for match in _PHONE.finditer(text):
        number = match.group().strip()
        if sum(c.isdigit() for c in number) < 9 or _IPV4.fullmatch(number):
            continue
        if _ISO_DATE.search(number):
            continue
        spaced = not re.search(r"[-.()+]", number)
        if spaced and not alone and not _PHONE_WORD.search(text[: match.start()]):
            continue
        found.append(number)
    return found


def phone_shape(number: str) -> str:
    """How a phone number is written, its digits aside: "(555) 201-4478" is "(999) 999-9999"."""
    return re.sub(r"\d", "9", number.strip())


_QUOTED_PASSAGE = re.compile(r"[\"“]([^\"“”]*)(?:[\"”]|$)")


def quoted_passages(text: str) -> list[str]:
    """The passages of `text` in double quotes, straight or curly; one left open counts too."""
    return [f"“{m.group(1)}”" for m in _QUOTED_PASSAGE.finditer(text)]


def hashtags(text: str) -> list[str]:
    """The hashtags of `text` outside code fences (`#Spring`; not a heading's `# `, not `#1`)."""
    return [
        tag for line in _lines(text) if not line.in_fence for tag in _HASHTAG.findall(line.text)
    ]


# A template's placeholder in braces: "{{customer_name}}", "{first_name}".
_BRACED = re.compile(r"\{\{\s*[A-Za-z_][\w.-]*\s*\}\}|(?<!\{)\{[A-Za-z_][\w.-]*\}(?!\})")


def braced_names(text: str) -> list[str]:
    """The `{{name}}` and `{name}` placeholders of `text` outside code fences."""
    return [
        name for line in _lines(text) if not line.in_fence for name in _BRACED.findall(line.text)
    ]


def dividers(text: str) -> list[str]:
    """The horizontal rules of `text`: `---`, `***` or `___` lines, outside code fences.

    A `---` line right under a line of text underlines it as a heading (Markdown's setext
    heading), so it is none; nor is a table's delimiter row.
    """
    found: list[str] = []
    previous = ""
    for line in _lines(text):
        if not line.in_fence and _RULE.match(line.text):
            underline = line.text.strip().startswith("-") and has_word(previous)
            if not underline:
                found.append(line.text.strip())
        previous = "" if line.in_fence else line.text
    return found


# Emphasis with underscores (`__bold__`, `_italic_`), not inside a word: `snake_case` is none.
_UNDERSCORE_EMPHASIS = re.compile(r"(?<![_\w])(__?)(?=[^\s_])([^_\n]*?[^\s_])\1(?![_\w])")
_INLINE_CODE = re.compile(r"(?<!`)`[^`\n]+`(?!`)")


def markdown_marks(text: str) -> tuple[list[str], list[str]]:
    """The Markdown of `text`: the marks plain text never uses, and the list lines it also uses.

    The first list holds what a reader of the raw text sees as syntax: `#` headings, `*` or `_`
    emphasis, inline code, fenced code blocks, `[text](url)` links, tables, `>` quotes, rules,
    and bullet points marked `*` or `+`. The second holds the bullet points marked `-` and the
    numbered items: Markdown lists, but also how plain text sets out a list. `•` is neither.
    """
    bullets = bullet_lines(text)
    prose = part_text(text, "prose") or ""  # outside code fences
    marks = [
        *heading_lines(text),
        *(f"> {quote}" for quote in _quote_blocks(text)),
        *(line for line in bullets if line[0] in "*+"),
        *(f"{h.marks}{h.text}{h.marks}" for h in highlights(prose)),
        *(m.group() for m in _UNDERSCORE_EMPHASIS.finditer(prose) if has_word(m.group(2))),
        *_INLINE_CODE.findall(prose),
        *(link for link in _DRESSED_URL.findall(prose) if link.startswith("[")),
        *(block.splitlines()[0] for block in code_blocks(text)),
        *("\n".join(table[:2]) for table in tables(text)),
        *dividers(text),
    ]
    listed = [line for line in bullets if line[0] == "-"] + numbered_lines(text)
    return marks, listed


def mentions(text: str) -> list[str]:
    """The @mentions of `text` outside code fences (`@marta`, `@here`; not an e-mail address)."""
    return [
        tag for line in _lines(text) if not line.in_fence for tag in _MENTION.findall(line.text)
    ]


# A contraction: a word run into "not", "are", "have", "will", "am" or "would" ("don't", "we're",
# "I've", "she'll", "I'm", "you'd"), or "is" run into a pronoun ("it's", "that's", "let's").
# After any other word, "'s" is a possessive ("Maria's"), and "o'clock" is no contraction.
_CONTRACTION = re.compile(
    r"\b[a-z]+n['’]t\b|\b[a-z]+['’](?:re|ve|ll|m|d)\b|"
    r"\b(?:it|he|she|that|there|here|what|who|where|when|why|how|let|everyone|everybody|"
    r"someone|somebody|nothing|something|everything)['’]s\b",
    re.IGNORECASE,
)


def contractions(text: str) -> list[str]:
    """The contractions of `text` outside code fences: "don't", "we're", "it's" (not "Maria's")."""
    return [
        found
        for line in _lines(text)
        if not line.in_fence
        for found in _CONTRACTION.findall(line.text)
    ]


# The personal pronouns of each grammatical person, as "no first person" or "avoid 'we'" mean.
_FIRST_SINGULAR = ("i", "me", "my", "mine", "myself")
_FIRST_PLURAL = ("we", "us", "our", "ours", "ourselves")
PRONOUNS: dict[str, tuple[str, ...]] = {
    "first": _FIRST_SINGULAR + _FIRST_PLURAL,
    "first_singular": _FIRST_SINGULAR,
    "first_plural": _FIRST_PLURAL,
    "second": ("you", "your", "yours", "yourself", "yourselves"),
}
_QUOTED_SPAN = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")


def pronouns(text: str, person: str) -> list[str]:
    """The pronouns of `person` (a key of `PRONOUNS`) in `text`, outside quotes and code.

    A quotation is someone else's words ("'We are thrilled,' said the CEO" in a release written
    in the third person), "US" in capitals is the country, and "(i)" a list marker.
    """
    words = "|".join(PRONOUNS[person])
    pattern = re.compile(rf"(?<![\w(])(?:{words})(?![\w)])", re.IGNORECASE)
    return [
        found
        for line in _lines(text)
        if not line.in_fence
        for found in pattern.findall(_QUOTED_SPAN.sub(" ", line.text))
        if found != "US"
    ]


def code_blocks(text: str) -> list[str]:
    """The fenced code blocks of `text`, each from its opening to its closing fence line."""
    found: list[str] = []
    block: list[str] = []
    opener = ""
    for raw in text.splitlines():
        fence = _FENCE.match(raw)
        if not opener:
            if fence:
                opener, block = fence.group(1), [raw]
            continue
        block.append(raw)
        if fence and fence.group(1) == opener:
            found.append("\n".join(block))
            opener = ""
    return found


def csv_rows(text: str) -> list[list[str]] | None:
    """The records of `text` when it is comma- or tab-separated data, header first; else `None`.

    The data is the whole text, its one fenced code block, or its one paragraph of data after
    a line of prose ("Here's the CSV:"): two or more non-blank lines that split, quotes
    respected, into the same number (two or more) of fields. Prose seldom does: its sentences
    differ in commas.
    """
    blocks = code_blocks(text)
    if len(blocks) == 1:
        return _records("\n".join(blocks[0].splitlines()[1:-1]))
    whole = _records(text)
    if whole is not None:
        return whole
    found = [rows for block in paragraphs(text) if (rows := _records(block)) is not None]
    return found[0] if len(found) == 1 else None


def csv_header(text: str) -> list[str] | None:
    """The header of comma-separated data, even with a row or two ragged.

    A row such as `Dinner, Pizza Express` unquoted breaks the data but not its header: three or
    more lines, at least two thirds of them with the header's number of fields (two or more).
    Counting rows is left to `csv_rows`, which wants them all even.
    """
    rows = csv_rows(text)
    if rows is not None:
        return rows[0]
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 3:
        return None
    rows = list(csv.reader(lines, skipinitialspace=True))
    even = sum(len(row) == len(rows[0]) for row in rows)
    return rows[0] if len(rows[0]) >= 2 and 3 * even >= 2 * len(rows) else None


def _records(body: str) -> list[list[str]] | None:
    lines = [line for line in body.splitlines() if line.strip()]
    if len(lines) < 2:
        return None
    for delimiter in (",", "\t"):
        rows = list(csv.reader(lines, delimiter=delimiter, skipinitialspace=True))
        if len(rows[0]) >= 2 and all(len(row) == len(rows[0]) for row in rows):
            return rows
    return None


def tables(text: str) -> list[list[str]]:
    """The Markdown tables of `text` (outside code fences), each as its lines, header first."""
    lines = [line for line in _lines(text)]
    found: list[list[str]] = []
    index = 0
    while index < len(lines) - 1:
        header, delimiter = lines[index], lines[index + 1]
        if (
            not header.in_fence
            and _TABLE_ROW.match(header.text)
            and _TABLE_DELIMITER.match(delimiter.text)
            and "|" in delimiter.text
        ):
            rows = [header.text, delimiter.text]
            index += 2
            while index < len(lines) and "|" in lines[index].text and lines[index].text.strip():
                rows.append(lines[index].text)
                index += 1
            found.append(rows)
            continue
        index += 1
    return found


def table_cells(row: str) -> list[str]:
    """The cells of one Markdown table row, as written (`| a | b |` -> `[" a ", " b "]`)."""
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") else body
    return body.split("|")


def line_kinds(text: str) -> list[tuple[str, str]]:
    """Each non-blank line of `text` with what it belongs to: `list`, `table`, `code` or `text`.

    A list is its items and the lines indented under them; a table, the lines of a Markdown
    table; code, the lines of a fenced block, fences included.
    """
    in_table = {row.strip() for table in tables(text) for row in table}
    kinds: list[tuple[str, str]] = []
    for line in _lines(text):
        stripped = line.text.strip()
        if not stripped:
            continue
        if line.in_fence:
            kind = "code"
        elif stripped in in_table:
            kind = "table"
        elif _BULLET.match(line.text) or _NUMBERED.match(line.text):
            kind = "list"
        elif kinds and kinds[-1][0] == "list" and line.text[:1].isspace():
            kind = "list"  # a wrapped or indented line under an item
        else:
            kind = "text"
        kinds.append((kind, stripped))
    return kinds


BlockKind = Literal["heading", "bullets", "numbered", "table", "code", "text"]


@dataclass(frozen=True)
class Block:
    """A run of lines a reader sees as one piece: its kind and its lines, as written."""

    kind: BlockKind
    lines: tuple[str, ...]

    @property
    def items(self) -> list[str]:
        """A list's items without their markers (`- `, `1. `); other kinds' lines as they are."""
        return [_LIST_MARKER.sub("", line) for line in self.lines]


def blocks(text: str) -> list[Block]:
    """The pieces of `text`, top to bottom: each heading line, list, table, code block, paragraph.

    A blank line or a horizontal rule ends a piece, and so does a change of kind: a bullet list
    right under a paragraph line is a piece of its own. A list item's wrapped or indented lines
    join it, so a list has one line per item. A code block is whole, blank lines and fences
    included.
    """
    in_table = {row.strip() for table in tables(text) for row in table}
    found: list[Block] = []
    kind: BlockKind | None = None
    run: list[str] = []

    def close() -> None:
        nonlocal kind, run
        if kind is not None and run:
            found.append(Block(kind, tuple(run)))
        kind, run = None, []

    for line in _lines(text):
        stripped = line.text.strip()
        if line.in_fence:
            if kind != "code":
                close()
                kind = "code"
            run.append(line.text)
            if len(run) > 1 and _FENCE.match(line.text):
                close()
            continue
        if not stripped or _RULE.match(line.text):
            close()
            continue
        if _HEADING.match(line.text):
            now: BlockKind = "heading"
        elif stripped in in_table:
            now = "table"
        elif _BULLET.match(line.text):
            now = "bullets"
        elif _NUMBERED.match(line.text):
            now = "numbered"
        elif kind in ("bullets", "numbered") and line.text[:1].isspace():
            run[-1] = f"{run[-1]} {stripped}"  # a wrapped line of the item above
            continue
        else:
            now = "text"
        if now == "heading" or now != kind:
            close()
            kind = now
        run.append(line.text)
    close()
    return found


def phrase_pattern(phrase: str, *, inflected: bool = False) -> re.Pattern[str]:
    """A case-insensitive whole-word pattern for `phrase` (see the module docstring).

    `inflected`: the last word may end in `s`, `es`, `'s` (a keyword, not a fixed answer).
    """
    body = r"\s+".join(re.escape(part) for part in phrase.split())
    ending = r"(?:'s|’s|s|es)?" if inflected and phrase[-1:].isalpha() else ""
    return re.compile(rf"(?<!\w){body}{ending}(?!\w)", re.IGNORECASE)


def _lines(text: str) -> Iterator[_Line]:
    in_fence = False
    opener = ""
    for raw in text.splitlines():
        fence = _FENCE.match(raw)
        if fence and (not in_fence or fence.group(1) == opener):
            in_fence = not in_fence
            opener = fence.group(1)
            yield _Line(raw, True)
            continue
        yield _Line(raw, in_fence)


def _sentence_blocks(text: str) -> Iterator[str]:
    """Stretches of text that no sentence crosses: paragraphs and list items.

    List markers and checkboxes are dropped, so `1.` never ends a sentence. Headings, a title
    wholly in bold and fenced code hold no sentence: a reader counting the sentences of "**New
    hire** / Join us." or of a snippet and its explanation counts one.
    """
    block: list[str] = []
    title = title_line(text)
    bold_title = title if title is not None and BOLD_LINE.fullmatch(title.strip()) else None
    lines = list(_lines(text))
    # Code is no prose ("explanation: one sentence" of a snippet and its line), unless the
    # whole reply sits in a fence: an answer wrapped in ```plaintext is read as written.
    prose = any(has_word(line.text) for line in lines if not line.in_fence)
    for line in lines:
        if line.in_fence:
            if not prose and not _FENCE.match(line.text):
                block.append(line.text)
            continue
        if not line.text.strip() or _RULE.match(line.text) or line.text.strip() == bold_title:
            yield "\n".join(block)
            block = []
            continue
        if _HEADING.match(line.text):
            yield "\n".join(block)
            block = []
            continue
        item = _BULLET.match(line.text) or _NUMBERED.match(line.text)
        if item:
            yield "\n".join(block)
            body = line.text[item.end() :]
            box = _CHECKBOX.match(body)
            block = [body[box.end() :] if box else body]
            continue
        block.append(line.text)
    yield "\n".join(block)


def _sentence_ends(block: str) -> Iterator[int]:
    """Offsets just past each sentence end in `block`, in order."""
    ends = sorted(
        [m.end() for m in _CJK_END.finditer(block)]
        + [m.end() for m in _LATIN_END.finditer(block) if not _abbreviation_before(block, m)]
    )
    return iter(ends)


def _abbreviation_before(block: str, end: re.Match[str]) -> bool:
    """A lone period right after an abbreviation or an initial ends no sentence."""
    if end.group() != ".":
        return False
    start = end.start()
    while start > 0 and not (block[start - 1].isspace() or block[start - 1] in _OPENERS):
        start -= 1
    token = block[start : end.start()]
    return token.lower() in _ABBREVIATIONS or (len(token) == 1 and token.isupper())
