"""The grammar's rules for counts: a bound on a unit, a limit per unit, parts of the text.

"under 100 words", "between 3 and 5 bullet points", "no sentence longer than 20 words", "a
word limit of 150", "highlight 3 key phrases", "3 parts separated by ***": each rule is a pattern
and a builder that turns its match into a catalogue check, or `None` when the words do not
settle one. Absence and presence are in `_presence_rules.py`, lists, tables and code blocks in
`_layout_rules.py`.
"""

from __future__ import annotations

import re
from typing import Any

from ..._exceptions import RubricError
from ...checks import Check, all_of, create, each
from ._vocabulary import (
    CMP_ANY,
    CONTAINER,
    CONTAINER_WORDS,
    CONTAINERS,
    DIVIDER,
    ELEMENT_UNITS,
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
    "COUNT",
    "COUNT_EACH",
    "HIGHLIGHT",
    "PARTS",
    "UNIT_LIMIT",
    "UNIT_TIMES",
    "capital_times_rule",
    "count_each_rule",
    "count_rule",
    "highlight_rule",
    "parts_rule",
    "unit_limit_rule",
    "unit_times_rule",
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
    rf"(?:(?:{CMP_ANY})\s+)?(?:(?:between|from)\s+)?(?:(?<![a-z])(?P<low>\d+)\s*(?:-|–|to|and|or)\s*)?"
    rf"(?:(?:at least|no fewer than|no less than|a minimum of|minimum)\s+(?P<low2>\d+)\s+"
    rf"(?:but|and)\s+(?P<high2>no more than|not more than|at most|up to|fewer than|less than|"
    rf"under)\s+)?(?<![a-z])(?P<n>\d+)(?P<plus>\+)?"
    rf"(?:\s+or\s+(?:(?P<mid_least>more|above|greater|over)|(?P<mid_most>fewer|less|under)))?"
    rf"(?:\s*-\s*|\s+)(?:(?:different|distinct|separate|full|complete|short|long|concise|"
    rf"clear|main|key|total|distinct|markdown|\w+-(?=\w))\s+)?(?P<unit>{UNIT})\b"
    # "7 lines of text max", "200 words of copy": what the unit is made of, said
    rf"(?:\s+of\s+(?:text|copy|prose|content)\b)?"
    rf"(?:\s+(?P<post_most>{POST['at_most']})|\s*(?P<post_least>{POST['at_least']}))?"
    rf"(?:\s+(?:long|in length|in total|total|(?:on|in) (?:the|your|a) list)"
    rf"|\s+(?P<post_limit>limit|cap|maximum|max)|"
    rf"(?<=item)\s+list)?"
)


def count_rule(match: re.Match[str], reading: Reading) -> Check | None:
    unit = unit_key(match.group("unit"))
    if unit is None:
        return None
    if unit == "question" and re.search(
        r"\b(?:lists?|numbered|bullets?|items?|quiz)\b", reading.text
    ):
        return None  # "a numbered list, 5 questions": quiz questions, with or without a "?"
    n = int(match.group("n"))
    negated = match.group("neg") is not None
    if negated and match.group("neg").strip() == "none" and not match.group().startswith("none of"):
        return None  # "none over 12 words": none of what? The pieces it means are not named
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
        # Headings as a reader sees them: Markdown, bold lines, a title, labels over a list.
        return create("heading_count", **bounds)
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
        elif not per and not re.search(r"\blist\b", match.group()) and 0 not in bounds.values():
            # "5 items", "at least 8 items": the entries a reader counts, listed with markers
            # or one per line; "a 5-item list" and "no list items" are a list's.
            return create("entry_count", **bounds)
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
            if match.start("n") <= m.start() < match.end():
                continue  # the count's own unit; "keep sentences to 20 words" names one before
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


# "3 stanzas, 4 lines each", "three paragraphs of two sentences each", "5 bullets, each under
# 10 words": a count of pieces and a bound on each of them, in one breath.
_OUTER = r"stanzas|paragraphs|paras|bullets|bullet points|items|list items|sentences|lines"
_INNER = r"lines|sentences|words|characters"
COUNT_EACH = re.compile(
    rf"(?P<n>\d+)\s+(?P<outer>{_OUTER})\s*(?:,\s*|\s+(?:of|with|containing|having)\s+)"
    rf"(?:(?P<before>each)\s+(?:(?:has|with|of|having|is|are)\s+)?)?"
    rf"(?:(?:{CMP_ANY})\s+)?(?P<m>\d+)\s+(?P<inner>{_INNER})"
    # "3 bullets, each 6 words or fewer": the bound said after the unit
    rf"(?:\s+(?P<post_most>{POST['at_most']})|\s*(?P<post_least>{POST['at_least']}))?"
    rf"(?:\s+(?P<after>each|apiece))?"
)
_EACH_WAY = {
    ("paragraph", "sentence"): ("sentence_count", "paragraph"),
    ("paragraph", "word"): ("word_count", "paragraph"),
    ("paragraph", "character"): ("character_count", "paragraph"),
    ("item", "word"): ("word_count", "item"),
    ("bullet", "word"): ("word_count", "item"),
    ("item", "character"): ("character_count", "item"),
    ("bullet", "character"): ("character_count", "item"),
    ("sentence", "word"): ("word_count", "sentence"),
    ("sentence", "character"): ("character_count", "sentence"),
    ("line", "word"): ("word_count", "line"),
    ("line", "character"): ("character_count", "line"),
}


def count_each_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if bool(match.group("before")) == bool(match.group("after")):
        return None  # "each" says it is a bound on each piece: once, before or after
    outer, inner = unit_key(match.group("outer")), unit_key(match.group("inner"))
    said = cmp_key(match)
    if match.group("post_most") or match.group("post_least"):
        if said is not None:
            return None  # "each under 6 words or fewer": two bounds, one too many
        said = "at_most" if match.group("post_most") else "at_least"
    key = bound(said, False)
    if outer is None or inner is None or key is None:
        return None
    count = count_check(outer, {"exactly": int(match.group("n"))})
    limit = {key: int(match.group("m"))}
    if (outer, inner) == ("paragraph", "line"):
        return all_of(count, each("paragraph", create("line_count", **limit)))
    way = _EACH_WAY.get((outer, inner))
    if way is None:
        return None
    name, per = way
    return all_of(count, create(name, per=per, **limit))


# A unit used a number of times: "bold at most once", "use emojis at most twice",
# "exclamation marks no more than 2 times" ("once" and "twice" are read as "1 times").
UNIT_TIMES = re.compile(
    rf"(?:\b(?:use|uses|using)\s+)?(?:the\s+)?(?P<unit>{UNIT})\s+(?:(?:is|are|should\s+be|must\s+be|"
    rf"may\s+be|can\s+be|used|appears?|shows?\s+up)\s+){{0,2}}(?:(?:{CMP_ANY})\s+)?"
    rf"(?P<n>\d+)\s+times?\b(?:\s+(?P<post_most>{POST['at_most']}))?"
)


def unit_times_rule(match: re.Match[str], reading: Reading) -> Check | None:
    unit = unit_key(match.group("unit"))
    if unit is None or unit not in ELEMENT_UNITS:
        return None
    said = cmp_key(match) or ("at_most" if match.group("post_most") else None)
    key = bound(said, False)
    if key is None:
        return None
    return count_check(unit, {key: int(match.group("n"))})


HIGHLIGHT = re.compile(
    rf"(?:highlight(?:s|ing)?|(?P<bold>bold(?:s|ing)?)|emphasi[sz](?:e|es|ing))\s+(?:(?:{CMP_ANY})\s+)?"
    rf"(?P<n>\d+)\s+(?:sections?|parts?|phrases?|words?|passages?|key (?:points|terms|phrases))"
    rf"(?:\s+(?:with|using|in)\s+markdown)?"
)


def highlight_rule(match: re.Match[str], reading: Reading) -> Check | None:
    key = bound(cmp_key(match), False)
    if key is None:
        return None
    style = {"style": "bold"} if match.group("bold") else {}
    return create("highlight_count", **style, **{key: int(match.group("n"))})


UNIT_LIMIT = re.compile(
    rf"(?:the\s+)?(?:total\s+|overall\s+)?(?P<unit>word|sentence|paragraph|character|line|"
    rf"bullet(?: point)?)s?[- ]?(?:count|limit|total|length)\s*(?::|of|is|stays?|remains?|to be|"
    rf"(?:should|must|has to|have to|needs? to|will)(?:\s+(?:be kept|be|stay|remain))?)?\s*"
    rf"(?:(?P<neg>no|not|never)\s+(?:\w+\s+)??)?(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)"
    rf"(?:\s+(?:(?P<most>{POST['at_most']})|(?P<least>{POST['at_least']}))\b)?"
)


def unit_limit_rule(match: re.Match[str], reading: Reading) -> Check | None:
    unit = unit_key(match.group("unit"))
    cmp = cmp_key(match)
    if cmp is None and match.group("most"):
        cmp = "at_most"  # "word count: 100 max"
    elif cmp is None and match.group("least"):
        cmp = "at_least"
    elif cmp is None and re.search(r"limit", match.group()):
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
