"""The grammar's rules for counts: a bound on a unit, a limit per unit, absence, presence.

"under 100 words", "between 3 and 5 bullet points", "no sentence longer than 20 words", "no
emojis", "links are not allowed", "use bullet points", "3 parts separated by ***", "bullet
points rather than a numbered list", "list 3 reasons as bullet points", "put the command in a
code block": each rule is a pattern and a builder that turns its match into a catalogue check,
or `None` when the words do not settle one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..._exceptions import RubricError
from ...checks import Check, all_of, create, negate
from ._vocabulary import (
    CMP_ANY,
    CONSUMED,
    CONTAINER,
    CONTAINER_WORDS,
    CONTAINERS,
    DIVIDER,
    ELEMENT_UNITS,
    LIST_WORDS,
    NEG,
    POST,
    UNIT,
    UNIT_WORDS,
    Reading,
    bound,
    cmp_key,
    count_check,
    mask,
    unit_key,
)

__all__ = [
    "CAPITAL_TIMES",
    "CODE_BLOCK",
    "COUNT",
    "COUNTED_LIST",
    "HIGHLIGHT",
    "LIST_AS",
    "LIST_OF",
    "NUMBER_THEM",
    "PARTS",
    "PREFER_LIST",
    "PRESENT",
    "TABLE_SIZE",
    "UNIT_LIMIT",
    "UNNUMBERED",
    "ZERO",
    "capital_times_rule",
    "code_block_rule",
    "count_rule",
    "counted_list_rule",
    "highlight_rule",
    "list_as_rule",
    "list_of_rule",
    "number_them_rule",
    "parts_rule",
    "prefer_list_rule",
    "present_rule",
    "table_size_rule",
    "unit_limit_rule",
    "unnumbered_rule",
    "zero_rule",
]


# The count rule: [negation] [comparator] N [unit] [post-comparator], or a range.
# What may stand between a negation and the bound it flips: verbs ("must not go over"), or the
# unit a limit applies in ("no sentence longer than"); never another noun ("no heading longer
# than" is about headings, which the grammar does not count words in).
_NEG_GAP = (
    r"be|go|goes|have|has|contain|contains|use|uses|write|include|includes|run|runs|get|is|are|"
    r"exceed|make|let|allow|any|ever|should|must|will|can|do|does|with|having|of|"
    rf"{'|'.join(CONTAINER_WORDS.values())}"
)
COUNT = re.compile(
    rf"(?:(?P<neg>\b{NEG}|\bnot)\s+(?:(?:{_NEG_GAP})\s+){{0,2}}?)?"
    rf"(?:(?:{CMP_ANY})\s+)?(?:(?:between|from)\s+)?(?:(?P<low>\d+)\s*(?:-|–|to|and|or)\s*)?"
    rf"(?:(?:at least|no fewer than|no less than|a minimum of|minimum)\s+(?P<low2>\d+)\s+"
    rf"(?:but|and)\s+(?P<high2>no more than|not more than|at most|up to|fewer than|less than|"
    rf"under)\s+)?(?P<n>\d+)(?P<plus>\+)?"
    rf"(?:\s+or\s+(?:(?P<mid_least>more|above|greater|over)|(?P<mid_most>fewer|less|under)))?"
    rf"(?:\s*-\s*|\s+)(?:(?:different|distinct|separate|full|complete|short|long|concise|"
    rf"clear|main|key|total|distinct|markdown|\w+-(?=\w))\s+)?(?P<unit>{UNIT})\b"
    rf"(?:\s+(?P<post_most>{POST['at_most']})|\s*(?P<post_least>{POST['at_least']}))?"
    rf"(?:\s+(?:long|in length|in total|total)|\s+(?P<post_limit>limit|cap|maximum|max)|"
    rf"(?<=item)\s+list)?"
)


def count_rule(match: re.Match[str], reading: Reading) -> Check | None:
    unit = unit_key(match.group("unit"))
    if unit is None:
        return None
    n = int(match.group("n"))
    negated = match.group("neg") is not None
    per: str | None = None
    if unit not in ("section", "heading"):
        per, per_state, scope_no = _per(unit, match, reading)
        if per_state is False:
            return None
        if scope_no:
            # "No paragraph should have more than 3 sentences": the "no" that opens the scope
            # negates the bound as surely as "must not" does; with a second negation, unread.
            if negated:
                return None
            negated = True
    cmp = cmp_key(match)
    if match.group("post_most"):
        cmp = cmp or "at_most"
    if match.group("post_least") or match.group("mid_least"):
        cmp = cmp or "at_least"
    if match.group("mid_most") or match.group("post_limit"):
        cmp = cmp or "at_most"
    bounds: dict[str, int]
    if match.group("plus"):
        cmp = cmp or "at_least"
    if match.group("low2") is not None:
        if negated:
            return None
        upper = (
            "at_most"
            if match.group("high2") in ("no more than", "not more than", "at most", "up to")
            else "fewer_than"
        )
        bounds = {"at_least": int(match.group("low2")), upper: n}
    elif match.group("low") is not None:
        low = int(match.group("low"))
        if negated or cmp not in (None, "exactly") or low > n:
            return None
        bounds = {"at_least": low, "at_most": n}
    else:
        key = bound(cmp, negated)
        if key is None:
            return None
        bounds = {key: n}
    if unit == "section":
        return _sections(bounds, reading)
    if unit == "heading" and not re.search(r"markdown|#", reading.text):
        # What counts as a heading in plain text (a bold line, a line standing alone, an item of
        # an outline) is the reader's call; only Markdown headings are counted in code.
        return None
    extra: dict[str, Any] = {"per": per} if per else {}
    if unit == "paragraph":
        separator = _separator(reading, match.end())
        if separator is False:
            return None
        if separator:
            extra["separator"] = separator
    if unit == "item":
        kind = re.search(
            r"\b(bullet(?:ed)?|numbered|ordered)\b[^.;]*$", reading.text[: match.start()]
        )
        if kind is not None:
            unit = "numbered" if kind.group(1) in ("numbered", "ordered") else "bullet"
    try:
        return count_check(unit, bounds, **extra)
    except RubricError:
        return None


def _sections(bounds: dict[str, int], reading: Reading) -> Check | None:
    """Sections: each opening with a quoted marker (`'SECTION X'`), or Markdown headings."""
    marker = re.search(
        r"(?:start(?:s|ing)?|begin(?:s|ning)?|open(?:s|ing)?|marked|labell?ed|headed|titled)"
        r" (?:with )?(?:the )?(?:word |marker |label )?(?P<q>q\d+)"
        r"(?: where \w+ is the (?:section )?number| followed by (?:its|the|a) number)?",
        reading.text,
    )
    if marker is not None:
        reading.text = mask(reading.text, marker.start(), marker.end())
        return create("section_count", marker=reading.quote(marker.group("q")), **bounds)
    if re.search(r"\b(?:markdown|heading|header)", reading.text):
        return create("section_count", **bounds)
    return None


def _separator(reading: Reading, start: int) -> str | bool | None:
    """A divider the paragraphs are separated by (`***`), None for blank lines, False: unread."""
    after = re.compile(
        r",?\s*(?:and\s+)?(?:each\s+|that are\s+|which are\s+)?(?:separated|divided|split)"
        r"(?: from each other| from one another)?\s+(?:by|with|using)\s+(?P<what>[^,;.]*)"
    ).match(reading.text, start)
    if after is None:
        return None
    what = after.group("what").strip()
    divider = re.search(DIVIDER, what)
    blank = re.fullmatch(
        r"(?:an? |one or more |two |2 |double )?(?:blank|empty|new|line|lines|line ?breaks?|"
        r"newlines?|\s)+",
        what,
    )
    if divider is not None:
        rest = what.replace(divider.group(), " ")
        if re.sub(
            r"\b(?:the|a|markdown|divider|separator|horizontal|rule|line|of|\s)\b", "", rest
        ).strip():
            return False
        reading.text = mask(reading.text, after.start(), after.end())
        return divider.group()
    if blank is not None:
        reading.text = mask(reading.text, after.start(), after.end())
        return None
    return False


def _per(unit: str, match: re.Match[str], reading: Reading) -> tuple[str | None, bool | None, bool]:
    """The unit a count applies inside (`per="sentence"`), read from `each`/`every`/`per`.

    Returns `(per, True, no)` when one was read (and masked), `(None, None, False)` when the
    count is for the whole text, and `(None, False, False)` when the scope is there but cannot
    be a check; `no` says the scope opens with a "no" that the count itself did not read ("no
    sentence should have more than...").
    """
    text = reading.text
    scope = re.compile(
        rf"\b(?:each|every|per|any|no|in each|in every|for each|for every|all(?: the)?|"
        rf"individual|single)\s+(?:{CONTAINER})\b"
    )
    found = [m for m in scope.finditer(text)]
    container_key: str | None = None
    span: tuple[int, int] | None = None
    for m in found:
        key = next(
            k.removeprefix("c_") for k, v in m.groupdict().items() if v and k.startswith("c_")
        )
        if key != unit:
            container_key, span = key, (m.start(), m.end())
            break
    if container_key is None:
        # "keep sentences under 20 words": a bare plural of a container that no count uses.
        bare = re.compile(rf"\b(?:{CONTAINER})\b")
        for m in bare.finditer(text):
            key = next(
                k.removeprefix("c_") for k, v in m.groupdict().items() if v and k.startswith("c_")
            )
            if key == unit or m.group().endswith("s") is False:
                continue
            if match.start() <= m.start() < match.end():
                continue
            if re.search(r"\d+\s+(?:\w+\s+)?$", text[: m.start()]):
                continue  # "3 paragraphs": a count of its own, not a scope
            container_key, span = key, (m.start(), m.end())
            break
    if container_key is None:
        each = re.search(r"\b(?:each|every one|apiece)\b", text)
        if each is not None:
            before = [m for m in re.finditer(rf"\b(?:{CONTAINER})\b", text[: each.start()])]
            if before:
                last = before[-1]
                container_key = next(
                    k.removeprefix("c_")
                    for k, v in last.groupdict().items()
                    if v and k.startswith("c_")
                )
                span = (each.start(), each.end())
    if container_key is None or span is None:
        return None, None, False
    if container_key not in CONTAINERS.get(unit, ()):
        return None, False, False
    scope_no = text.startswith("no ", span[0]) and not match.start() <= span[0] < match.end()
    reading.text = mask(reading.text, *span)
    return container_key, True, scope_no


def _zero_units(words: str) -> list[Check] | None:
    """The checks for units said to be absent: "bullet points or emojis" -> two zero counts."""
    found: list[Check] = []
    pieces = [p.strip() for p in re.split(rf"\s*(?:{LIST_WORDS})\s*(?:any\s+)?", words)]
    noun = pieces[-1].split()[-1] if pieces and pieces[-1] else ""
    for index, piece in enumerate(pieces):
        if index < len(pieces) - 1 and piece in ("bullet", "bulleted", "numbered", "ordered"):
            piece = f"{piece} {noun}"  # "bulleted or numbered lists"
        if not piece:
            continue
        check = _absent(piece)
        if check is None:
            return None
        found.append(check)
    return found or None


_ABSENT: tuple[tuple[str, Callable[[], Check]], ...] = (
    (r"commas?", lambda: create("no_commas")),
    (
        r"(?:capital|upper[- ]?case|uppercase) letters?|capitals|capitalization|upper[- ]?case",
        lambda: create("all_lowercase"),
    ),
    (r"(?:a )?title", lambda: negate(create("has_title"))),
    (r"(?:bullet(?:ed)?|unordered) lists?", lambda: create("bullet_count", exactly=0)),
    (r"(?:numbered|ordered) lists?", lambda: create("numbered_count", exactly=0)),
    (r"lists?|list formatting", lambda: create("bullet_count", numbered=True, exactly=0)),
    (r"digits|numerals", lambda: create("number_style", style="words")),
)


def _absent(piece: str) -> Check | None:
    for pattern, build in _ABSENT:
        if re.fullmatch(pattern, piece):
            return build()
    unit = unit_key(piece)
    if unit == "heading":
        # A heading a reader sees need not be Markdown: a title line on top is one too.
        return all_of(create("section_count", exactly=0), negate(create("has_title")))
    if unit in ELEMENT_UNITS:
        return count_check(unit, {"exactly": 0})
    if unit == "capital_word":
        return create("capital_word_count", exactly=0)
    return None


_ZERO_UNIT = (
    r"(?:(?:bullet(?:ed)?|numbered|ordered)(?=\s+(?:or|and|nor)\s)|commas?|"
    r"(?:capital|upper[- ]?case|uppercase) letters?|capitals|capitalization|"
    r"title|(?:bullet(?:ed)?|unordered|numbered|ordered) lists?|lists?|list formatting|"
    rf"digits|numerals|{UNIT})"
)
_ZERO_UNITS = rf"{_ZERO_UNIT}(?:\s*(?:{LIST_WORDS})\s*(?:any\s+)?{_ZERO_UNIT})*"
ZERO = re.compile(
    rf"\b(?P<neg>{NEG})\b\s+(?:(?:any|a|an|the|use of|using|use|uses|include|including|"
    rf"contain|containing|have|has|with|write|put|add|of|format(?:ted)?(?: it)? as|"
    rf"in|as|be|single|1|kind of|type of|sort of|form of)\s+){{0,3}}"
    rf"(?P<units>{_ZERO_UNIT}(?:\s*(?:{LIST_WORDS})\s*(?:any\s+)?{_ZERO_UNIT})*)\b"
    # "no heading longer than 6 words" limits headings; it does not forbid them.
    rf"(?![- ]?case\b)(?!\s+(?:longer|shorter|more|less|fewer|over|under|above|below|"
    rf"exceed\w*|with|has|have|"
    rf"having|of|that|which|than|beyond|containing|contains|is|are|may|can|should|must|will|"
    rf"shall|would|could|might|needs?|ought|goes|runs|gets|exceeds?)\b)"
    rf"(?:\s+(?:at all|whatsoever|anywhere|of any kind|entirely|completely))?"
    rf"|\b(?P<units2>{_ZERO_UNIT})[- ]free\b"
    # The negation after the unit: "emojis are not allowed", "links must not appear".
    rf"|\b(?P<units3>{_ZERO_UNITS})\s+(?:(?:are|is|should|must|may|can|will|shall)\s+)?"
    rf"(?:(?:not|never)\s+(?:be\s+)?(?:allowed|permitted|accepted|acceptable|welcome|wanted|used|"
    rf"included|present|appear|show up|be used|be included)|forbidden|banned|prohibited|"
    rf"off[- ]limits|not ok(?:ay)?)\b"
    rf"(?:\s+(?:at all|whatsoever|anywhere|of any kind))?"
)


def zero_rule(match: re.Match[str], reading: Reading) -> Check | None:
    units = match.group("units") or match.group("units2") or match.group("units3")
    found = _zero_units(units)
    if not found:
        return None
    # "no more than" is a bound, read by the count rule; "no 3 bullets" is nothing.
    return all_of(*found)


# Presence: a unit named with a positive verb and no number ("use bullet points").
PRESENT = re.compile(
    r"\b(?:(?:at least )?(?:a|an|1|one|some|several)\s+)?"
    r"(?P<unit>bullet(?:ed)?[- ]?(?:points?|lists?|list format)|bullets|"
    r"(?:numbered|ordered) (?:lists?|steps?|list format)|emojis?|emoticons?|(?:markdown )?"
    r"(?:sub)?head(?:ing|er)s|a list|"
    r"(?:fenced )?code ?blocks?|(?:markdown )?tables?|e-?mail address(?:es)?|urls?|"
    r"(?:(?:website|web|external|clickable) )?(?:hyper)?links?|web ?address(?:es)?|hash ?tags?|"
    r"exclamation (?:marks?|points?))\b"
)


def present_rule(match: re.Match[str], reading: Reading) -> Check | None:
    unit = match.group("unit")
    key = unit_key(unit.removeprefix("a ").removeprefix("an "))
    if key in ("code_block", "table", "email", "url", "hashtag", "exclamation"):
        return count_check(key, {"at_least": 1})
    if unit.startswith("bullet"):
        return create("bullet_count", at_least=1)
    if unit.startswith(("numbered", "ordered")):
        return create("numbered_count", at_least=1)
    if unit.startswith("emo"):
        return create("emoji_count", at_least=1)
    if "head" in unit:
        return create("section_count", at_least=1)
    if unit == "a list":
        return create("bullet_count", numbered=True, at_least=1)
    return None


LIST_OF = re.compile(
    rf"\b(?:(?P<kind>bullet(?:ed)?|numbered|ordered)(?: point)? )?list "
    rf"(?:of|with|containing|that has|having|has|contains|should have|must have|should contain|"
    rf"must contain|includes|needs)\s+(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)\s+(?:[a-z]+\s+)?"
    rf"(?:(?:items?|entries|points?|"
    rf"elements?|things|steps?|tips|ideas|examples|reasons|options|bullets?|bullet points)\b|"
    rf"(?P<noun>[a-z]+s)\b)"
)


def list_of_rule(match: re.Match[str], reading: Reading) -> Check | None:
    key = bound(cmp_key(match), False)
    if key is None:
        return None
    bounds = {key: int(match.group("n"))}
    kind = match.group("kind") or ""
    if kind.startswith("bullet"):
        return create("bullet_count", **bounds)
    if kind in ("numbered", "ordered"):
        return create("numbered_count", **bounds)
    return create("bullet_count", numbered=True, **bounds)


PARTS = re.compile(
    rf"(?P<n>\d+)\s+(?P<distinct>different\s+|distinct\s+|separate\s+|unique\s+)?"
    rf"(?:responses|answers|versions|parts|replies|drafts|variants|options)\s+"
    rf"(?:(?:that are|which are)\s+)?(?:separated|divided|split)\s+(?:from each other\s+)?"
    rf"(?:by|with|using)\s+"
    rf"(?:exactly\s+)?(?:\d+\s+)?(?:(?:asterisks|stars|dashes|hyphens|hashes|equals signs|tildes|"
    rf"underscores|symbols)\s+)?(?:like\s+)?{DIVIDER}"
)


def parts_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create(
        "part_count",
        separator=match.group("sep"),
        exactly=int(match.group("n")),
        distinct=bool(match.group("distinct")),
    )


HIGHLIGHT = re.compile(
    rf"(?:highlight(?:s|ing)?|bold(?:s|ing)?|emphasi[sz](?:e|es|ing))\s+(?:(?:{CMP_ANY})\s+)?"
    rf"(?P<n>\d+)\s+(?:sections?|parts?|phrases?|words?|passages?|key (?:points|terms|phrases))"
    rf"(?:\s+(?:with|using|in)\s+markdown)?"
)


def highlight_rule(match: re.Match[str], reading: Reading) -> Check | None:
    key = bound(cmp_key(match), False)
    if key is None:
        return None
    return create("highlight_count", **{key: int(match.group("n"))})


UNIT_LIMIT = re.compile(
    rf"(?:the\s+)?(?P<unit>word|sentence|paragraph|character|line|bullet(?: point)?)s?[- ]?"
    rf"(?:count|limit|total|length)\s*(?::|of|is|should be|must be|must|should|stays?|remains?|"
    rf"to be)?\s*(?:(?P<neg>not|never)\s+(?:\w+\s+)?)?(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)"
)


def unit_limit_rule(match: re.Match[str], reading: Reading) -> Check | None:
    unit = unit_key(match.group("unit"))
    cmp = cmp_key(match)
    if cmp is None and re.search(r"limit", match.group()):
        cmp = "at_most"  # "a word limit of 150"
    key = bound(cmp, match.group("neg") is not None)
    if unit is None or key is None:
        return None
    return count_check(unit, {key: int(match.group("n"))})


CAPITAL_TIMES = re.compile(
    rf"(?P<unit>{UNIT_WORDS[0][0]})\s+(?:(?:should|must|will|to)\s+)?(?:appears?|occurs?|are used|"
    rf"be used|show up)\s+(?:(?P<neg>not|never)\s+)?(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)\s+times"
)


def capital_times_rule(match: re.Match[str], reading: Reading) -> Check | None:
    key = bound(cmp_key(match), match.group("neg") is not None)
    if key is None:
        return None
    return create("capital_word_count", **{key: int(match.group("n"))})


UNNUMBERED = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+)?number\s+(?:the\s+|your\s+|any\s+)?"
    r"(?:steps|items|points|list|lines|entries|tips|ideas)\b"
)


def unnumbered_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("numbered_count", exactly=0)


# -- list formatting named with what it lists ----------------------------------------------

_LIST_KIND = (
    r"bullet(?:ed)?[- ]?(?:points?|lists?|list format|items?)|bullets|"
    r"(?:numbered|ordered) (?:lists?|items?|steps?|points?|list format)|numbers|numbering"
)


def _list_kind(words: str) -> Check:
    """`bullet points` -> at least one bullet; `a numbered list`, `numbers` -> a numbered item."""
    if re.search(r"numbered|ordered|number", words):
        return create("numbered_count", at_least=1)
    return create("bullet_count", at_least=1)


def _no_list_kind(words: str) -> Check:
    if re.search(r"numbered|ordered|number", words):
        return create("numbered_count", exactly=0)
    return create("bullet_count", exactly=0)


# One kind of list in place of the other: "bullet points rather than a numbered list".
PREFER_LIST = re.compile(
    rf"\b(?P<a>{_LIST_KIND})\s*,?\s+(?:rather than|instead of|not|and not|over|in place of|"
    rf"as opposed to)\s+(?:an?\s+|the\s+|any\s+)?(?P<b>{_LIST_KIND})\b"
)


def prefer_list_rule(match: re.Match[str], reading: Reading) -> Check | None:
    wanted, unwanted = _list_kind(match.group("a")), _no_list_kind(match.group("b"))
    if wanted.name == unwanted.name:
        return None  # "bullet points, not bullets": nothing to prefer
    return all_of(wanted, unwanted)


# What the list (or table) holds, named and not counted: "format the ideas as a bulleted list",
# "use bullet points for the new features", "show the prices in a table". The object may be any
# words but a number or a negation (a count or a "not" there is a rule of its own, which must not
# be swallowed).
def _object(group: str) -> str:
    return (
        r"(?:the|your|all the|all|each of the|each|every|any|these|those|its|their)\s+"
        rf"(?P<{group}>(?:[a-z'-]+\s+){{0,2}}?[a-z'-]+)"
    )


_OBJECT_WHAT = r"what\s+(?P<what>(?:[a-z'-]+\s+){0,2}?[a-z'-]+)"
LIST_AS = re.compile(
    rf"\b(?:format|formats|present|presents|list|lists|lay out|put|write|give|show|arrange|"
    rf"organi[sz]e|break down|set out|display)\s+{_object('obj')}\s+(?:as|in|into|using|with)\s+"
    rf"(?:an?\s+|one\s+)?(?:(?P<unit>{_LIST_KIND})|(?P<table>(?:markdown\s+)?table))\b"
    rf"(?:(?<=table)\s+with\s+(?:a\s+)?header(?:\s+row)?)?"
    rf"|\b(?:use|uses|using|with|in)\s+(?:an?\s+)?(?P<unit2>{_LIST_KIND})\s+"
    rf"(?:for|to (?:list|present|show|give|cover|set out))\s+(?:{_object('obj2')}|{_OBJECT_WHAT})"
    rf"(?=\s*(?:$|[.,;:!?)]|{CONSUMED}))"
)


def _plain_object(words: str | None) -> bool:
    if not words:
        return True
    return not any(re.fullmatch(rf"{NEG}|not|\d+", word) for word in words.split())


def list_as_rule(match: re.Match[str], reading: Reading) -> Check | None:
    objects = (match.group("obj"), match.group("obj2"), match.group("what"))
    if not all(_plain_object(words) for words in objects):
        return None
    if match.group("table"):
        return create("table_count", at_least=1)
    return _list_kind(match.group("unit") or match.group("unit2"))


# So many things, each an item of the list named: "list 3 reasons as bullet points", "give
# at least four tips in a numbered list". The things are the items, whatever they are called.
COUNTED_LIST = re.compile(
    rf"\b(?:list|lists|give|gives|provide|provides|write|offer|share|name|suggest|include|"
    rf"includes|present|outline)\s+(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)\s+"
    rf"(?P<things>(?:[a-z'-]+\s+){{0,2}}?[a-z'-]+)\s+(?:as|in|using|with)\s+(?:an?\s+)?"
    rf"(?P<unit>{_LIST_KIND})\b"
)


def counted_list_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if not _plain_object(match.group("things")):
        return None
    key = bound(cmp_key(match), False)
    if key is None:
        return None
    bounds = {key: int(match.group("n"))}
    if re.search(r"numbered|ordered|number", match.group("unit")):
        return create("numbered_count", **bounds)
    return create("bullet_count", **bounds)


# The list's items said to be numbered: "number the steps", "the tips are numbered".
NUMBER_THEM = re.compile(
    rf"(?<!\bthe )(?<!\ba )(?<!\bany )\bnumber\s+{_object('obj')}"
    rf"|\b(?:the|your|all the|all|its)\s+(?P<obj2>[a-z'-]+)\s+(?:are|is|should be|must be|"
    rf"need to be|have to be|get)\s+(?P<kind>numbered|bulleted)\b"
)


def number_them_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if not (_plain_object(match.group("obj")) and _plain_object(match.group("obj2"))):
        return None
    if match.group("kind") == "bulleted":
        return create("bullet_count", at_least=1)
    return create("numbered_count", at_least=1)


# Code in a code block: "put the command in a code block", "wrap the JSON in a ```json block".
_CODE = (
    r"code|commands?|scripts?|snippets?|quer(?:y|ies)|json|sql|yaml|html|css|xml|functions?|"
    r"configs?|configuration|programs?|(?:shell |terminal |bash )commands?|examples?|output"
)
CODE_BLOCK = re.compile(
    rf"\b(?:(?:put|puts|place|places|wrap|wraps|enclose|encloses|format|formats|present|show|"
    rf"give|write|include|includes|keep|keeps)\s+)?(?:(?:the|all the|any|your|all|each)\s+)?"
    rf"(?:(?:[a-z]+\s+)?(?:{_CODE})\s+)?(?:in|inside|within|into|as)\s+(?:an?\s+|one\s+|its own\s+|"
    rf"separate\s+)?(?:`{{3}}\w*\s+|(?:fenced|markdown|[a-z]+)\s+)??code ?(?:blocks?|fences?)\b"
    rf"|\b(?:use|uses|using|with)\s+(?:an?\s+)?code ?blocks?\s+for\s+"
    rf"(?:(?:the|all the|any|your|all|each)\s+)?(?:{_CODE})\b"
)


def code_block_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("code_block_count", at_least=1)


# The size of a table: "the table has exactly 3 columns", "a table with at most 5 rows, not
# counting the header", "a 4-column table".
_HEADER_ASIDE = (
    r"(?:\s*,?\s*(?:not counting|excluding|without|plus|besides|in addition to|apart from)\s+"
    r"(?:the|a|its)\s+header(?:\s+row)?)?"
)
TABLE_SIZE = re.compile(
    rf"\b(?:the\s+|a\s+|your\s+)?(?:markdown\s+)?table\s+(?:(?:has|have|with|contains?|"
    rf"should|must|needs?(?: to)?|should have|must have|is|of)\s+){{0,2}}"
    rf"(?:(?P<neg>not|never)\s+(?:(?:have|be|contain)\s+)?)?(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)\s+"
    rf"(?:(?P<data>data|body)\s+)?(?P<dim>rows?|columns?|cols?)\b{_HEADER_ASIDE}"
    rf"|\b(?:an?\s+)?(?P<n2>\d+)[- ](?P<dim2>rows?|columns?|cols?)\s+(?:markdown\s+)?table\b"
)


def table_size_rule(match: re.Match[str], reading: Reading) -> Check | None:
    dim = match.group("dim") or match.group("dim2")
    if re.search(r"\bplus\b|\bin addition\b", match.group()):
        return None  # "5 rows plus the header": count 6 or 5? the reader's call
    key = bound(cmp_key(match), match.group("neg") is not None)
    if key is None:
        return None
    n = int(match.group("n") or match.group("n2"))
    dimension = "rows" if dim.startswith("row") else "columns"
    if dimension == "rows" and not (match.group("data") or re.search(r"header", match.group())):
        return None  # does the header row count? a reader may say either: left to the model
    return create("table_size", dimension=dimension, **{key: n})
