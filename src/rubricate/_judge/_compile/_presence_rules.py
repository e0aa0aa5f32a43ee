"""The grammar's rules for a unit said to be absent or present, with no number.

"no emojis", "without bullet points or headings", "links are not allowed", "emoji-free", "use
bullet points", "include a link": each rule is a pattern and a builder that turns its match into
a catalogue check, or `None` when the words do not settle one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...checks import Check, all_of, create, negate
from ._vocabulary import (
    ELEMENT_UNITS,
    LIST_WORDS,
    MARKDOWN,
    MARKDOWN_PIECE,
    NEG,
    NESTED,
    SIZE_FOLLOWS,
    UNIT,
    Reading,
    constant,
    count_check,
    unit_key,
)

__all__ = [
    "ASKED",
    "NO_MARKDOWN",
    "NO_NESTING",
    "PRESENT",
    "ZERO",
    "asked_rule",
    "no_markdown_rule",
    "no_nesting_rule",
    "present_rule",
    "zero_rule",
]


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
    (r"(?:numbered|ordered) lists?|numbering", lambda: create("numbered_count", exactly=0)),
    (r"lists?|list formatting", lambda: create("bullet_count", numbered=True, exactly=0)),
    (r"digits|numerals", lambda: create("number_style", style="words")),
    # A blank line is what separates paragraphs (and stanzas): none means one block.
    (
        r"(?:blank|empty) lines?|(?:stanza|paragraph) breaks?",
        lambda: create("paragraph_count", at_most=1),
    ),
    (r"line ?breaks?|new ?lines?", lambda: create("line_count", at_most=1)),
)


def _absent(piece: str) -> Check | None:
    for pattern, build in _ABSENT:
        if re.fullmatch(pattern, piece):
            return build()
    unit = unit_key(piece)
    if unit == "heading":
        # A heading a reader sees need not be Markdown: a title line, a bold line, a label;
        # "no Markdown headings" (or "no '#' headings") leaves those be.
        markdown = piece.startswith("markdown")
        return create("section_count" if markdown else "heading_count", exactly=0)
    if unit in ELEMENT_UNITS:
        return count_check(unit, {"exactly": 0})
    if unit == "capital_word":
        return create("capital_word_count", exactly=0)
    return None


_ZERO_UNIT = (
    r"(?:(?:bullet(?:ed)?|numbered|ordered)(?=\s+(?:or|and|nor)\s)|commas?|"
    r"(?:capital|upper[- ]?case|uppercase) letters?|capitals|capitalization|"
    r"title|(?:bullet(?:ed)?|unordered|numbered|ordered) lists?|list formatting|lists?|numbering|"
    r"(?:blank|empty) lines?|(?:stanza|paragraph) breaks?|line ?breaks?|new ?lines?|"
    rf"digits|numerals|{UNIT})"
)
_ZERO_UNITS = rf"{_ZERO_UNIT}(?:\s*(?:{LIST_WORDS})\s*(?:any\s+)?{_ZERO_UNIT})*"
ZERO = re.compile(
    rf"\b(?P<neg>{NEG})\b\s+(?:(?:any|a|an|the|use of|using|use|uses|include|including|"
    rf"contain|containing|have|has|with|write|put|add|of|format(?:ted)?(?: it)? as|"
    rf"in|as|be|single|1|kind of|type of|sort of|form of)\s+){{0,3}}"
    rf"(?P<units>{_ZERO_UNIT}(?:\s*(?:{LIST_WORDS})\s*(?:any\s+)?{_ZERO_UNIT})*)\b"
    # "no heading longer than 6 words" limits headings; it does not forbid them.
    # "no list items over 8 words", "no bullet point longer...": the unit is longer than read
    rf"(?![- ]?case\b)(?![- ](?:items?|entr(?:y|ies)|points?)\b)"
    rf"(?!\s+(?:longer|shorter|more|less|fewer|over|under|above|below|"
    rf"exceed\w*|with|has|have|"
    rf"having|of|that|which|than|beyond|containing|contains|is|are|may|can|should|must|will|"
    rf"shall|would|could|might|needs?|ought|goes|runs|gets|exceeds?|"
    # the unit is the subject of a verb: "no bullet ends with a period" limits bullets' ends
    rf"ends?|starts?|begins?|opens?|closes?|finish(?:es)?|uses?|includes?|mentions?|repeats?|"
    rf"says?|lacks?|misses|appears?|comes?|follows?|precedes?|breaks?|spans?|stretches)\b)"
    rf"(?:\s+(?:at all|whatsoever|anywhere|of any kind|entirely|completely))?"
    rf"|\b(?P<units2>{_ZERO_UNIT})[- ]free\b"
    # The negation after the unit: "emojis are not allowed", "links must not appear". Several
    # units are the subject only at a clause's start: in "use a table, emojis are not allowed"
    # the table is asked for.
    rf"|(?:(?:^|(?<=[.;:!?(\u2013\u2014])|(?<=[.;:!?(\u2013\u2014-]\s)|(?<=\band\s)|(?<=\bbut\s)|"
    rf"(?<=\balso\s))\W*(?P<units3>{_ZERO_UNITS})|\b(?P<unit4>{_ZERO_UNIT}))\s+"
    r"(?:(?:are|is|should|must|may|can|will|shall)\s+)?"
    rf"(?:(?:not|never)\s+(?:be\s+)?(?:allowed|permitted|accepted|acceptable|welcome|wanted|used|"
    rf"included|present|appear|show up|be used|be included)|forbidden|banned|prohibited|"
    rf"off[- ]limits|not ok(?:ay)?|(?:an?\s+)?(?:absolute\s+|hard\s+)?no[- ]go)\b"
    rf"(?:\s+(?:at all|whatsoever|anywhere|of any kind))?"
    # "leave hashtags off the quote card", "leave the emojis out"
    rf"|\bleav(?:e|es|ing)\s+(?:the\s+|any\s+|all\s+)?(?P<units5>{_ZERO_UNITS})\s+(?:off|out)\b"
    r"(?:\s+(?:of\s+)?(?:the\s+|this\s+|your\s+)?(?:[a-z-]+\s+){0,2}?(?:card|post|text|reply|"
    r"e-?mail|message|caption|copy|page|tweet|answer|response|draft|letter|note|it|this))?"
)


def zero_rule(match: re.Match[str], reading: Reading) -> Check | None:
    units = (
        match.group("units")
        or match.group("units2")
        or match.group("units3")
        or match.group("unit4")
        or match.group("units5")
    )
    found = _zero_units(units)
    if not found:
        return None
    if any(c.name == "number_count" for c in found) and _NUMBERING.search(reading.text):
        return None  # "no numbers or bullets", "don't number the steps": list markers, maybe
    # "no more than" is a bound, read by the count rule; "no 3 bullets" is nothing.
    return all_of(*found)


# Where "number" may be the list's numbering: beside bullets or a list, or a verb ("never
# number", "do not number them").
_NUMBERING = re.compile(
    r"\b(?:bullet\w*|lists?|listed|steps?|items?|markers?|numbering|numbered|points?)\b"
    r"|\b(?:not|never|no need to)\s+number\b(?!s)"
)


# Markdown ruled out, with what it names as examples, all Markdown too: "No Markdown formatting
# like bold or headings", "no markdown at all (no asterisks, hashes, backticks)", "plain text
# only", "markdown-free". Not "answers in plain text" (a rule on the answers, left unread).
_MD_EXAMPLES = (
    r"(?:\s*(?:[,:\u2014\u2013-]\s*|\(\s*(?:no\s+)?)?(?:like|such as|e\.g\.,?|incl(?:uding|\.)|"
    r"i\.e\.,?|(?<=\()|(?<=\(no ))"
    rf"\s*(?:any\s+)?{MARKDOWN_PIECE}(?:\s*(?:,|/|or|and|nor)\s*(?:or\s+|and\s+)?(?:no\s+)?"
    rf"{MARKDOWN_PIECE})*\s*\)?)?"
)
_PLAIN_VERB = (
    r"(?:use|using|write|written|reply|respond|answer|output|return|keep it|only|just|pure|"
    r"strictly|is|be)"
)
_PLAIN_OBJECT = r"(?:it|this|everything|the\s+(?:reply|answer|response|message|text|output))"
_PLAIN_TEXT = (
    rf"(?:(?:^|(?<=[.;:,(\u2014\u2013-]))\W*|\b{_PLAIN_VERB}\s+(?:{_PLAIN_OBJECT}\s+)?"
    r"(?:(?:in|as)\s+)?)plain[- ]text\b(?:\s+only\b)?(?![- ]\w)"
)
NO_MARKDOWN = re.compile(
    rf"(?:\b(?:{NEG})\s+(?:(?:use|using|uses|any|of|with|include|including)\s+){{0,2}}"
    rf"(?:{MARKDOWN}|md\b)"
    rf"|\b{MARKDOWN}[- ]free\b|{_PLAIN_TEXT})"
    rf"(?:\s+(?:at all|whatsoever|of any kind))?{_MD_EXAMPLES}"
)


def no_markdown_rule(match: re.Match[str], reading: Reading) -> Check | None:
    # "(no bullets, bold or headers)": plain text sets out a list with "-" too, unless ruled out
    if re.search(r"\bbullet", match.group()):
        return all_of(create("markdown_count", exactly=0), create("bullet_count", exactly=0))
    if re.search(r"\blists?\b", match.group()):
        return all_of(
            create("markdown_count", exactly=0), create("bullet_count", numbered=True, exactly=0)
        )
    return create("markdown_count", exactly=0)


# Nesting forbidden by its verb: "don't nest lists", "never nest bullets, keep it flat".
NO_NESTING = re.compile(
    rf"\b(?:{NEG}|not)\s+nest(?:ing)?\b(?:\s+(?:the\s+|any\s+)?(?:lists?|bullets?|bullet points|"
    rf"items?|points?))?(?:\s*[,;:\u2014-]?\s*(?:and\s+)?keep\s+(?:it|them|the\s+lists?|everything)"
    rf"\s+flat)?"
    rf"|\bkeep\s+(?:it|them|the\s+lists?|the\s+bullets?|everything)\s+flat\b"
)
no_nesting_rule = constant("nested_item_count", exactly=0)


# Presence: a unit named with a positive verb and no number ("use bullet points").
PRESENT = re.compile(
    r"\b(?:(?:at least )?(?:a|an|1|one|some|several)\s+)?"
    rf"(?P<unit>{NESTED}|"
    r"bullet(?:ed)?[- ]?(?:points?|lists?|list format)|bullets|"
    r"(?:numbered|ordered) (?:lists?|steps?|list format)|emojis?|emoticons?|(?:markdown )?"
    r"(?:sub)?head(?:ing|er)s|h[1-6] (?:(?:sub)?head(?:ing|er)s?|titles?)|a list|"
    r"(?:fenced )?code ?blocks?|(?:markdown )?tables?|e-?mail address(?:es)?|urls?|"
    r"(?:tele)?phone numbers?|"
    r"(?:(?:website|web|external|clickable) )?(?:hyper)?links?|web ?address(?:es)?|hash ?tags?|"
    r"@[- ]?mentions?|at[- ]mentions?|exclamation (?:marks?|points?)|"
    # "includes a number": with its article, so "the order number" is no number asked for
    r"(?:(?<=\ba )|(?<=\bone )|(?<=\bsome ))(?:numbers?|numerals?))\b"
)


# "Avoid exclamation marks in the headings", "no emojis in the table": a unit named as a place,
# the one already there, says where another rule applies; "in a table" still asks for one.
_WHERE = re.compile(
    r"\b(?:in|inside|within|for|of|on|under|after|before|between|across|throughout|outside|"
    r"except)\s+(?:the|any|each|every|all|your|its|their)\s+$"
)


# What asks for a number in the text: "includes a number", "every bullet has at least one".
_HAVING = re.compile(
    r"\b(?:include|includes|including|contain|contains|containing|has|have|having|needs?|"
    r"carry|carries|gives?|adds?|uses?|features?|mentions?|states?|cites?)\s+(?:at least\s+)?$"
)


def present_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if _WHERE.search(reading.text[: match.start()]):
        return None
    if re.fullmatch(r"h1 titles?", match.group("unit")) and SIZE_FOLLOWS.match(
        reading.text, match.end()
    ):
        return None  # "H1 title ≤ 60 characters": a rule on the title (`in_a_part`)
    unit = match.group("unit")
    key = unit_key(unit.removeprefix("a ").removeprefix("an "))
    if key in ("number", "number_digits") and not _HAVING.search(reading.text[: match.start()]):
        return None  # "title in bold with a number": the number is the title's, not the text's
    if key in (
        "code_block",
        "table",
        "email",
        "phone",
        "url",
        "hashtag",
        "mention",
        "exclamation",
        "nested",
        "number",
        "number_digits",
    ):
        return count_check(key, {"at_least": 1})
    if unit.startswith("bullet"):
        return create("bullet_count", at_least=1)
    if unit.startswith(("numbered", "ordered")):
        return create("numbered_count", at_least=1)
    if unit.startswith("emo"):
        return create("emoji_count", at_least=1)
    if key is not None and key.startswith("heading") and key != "heading":
        # "Use H2 headings"; "only H2 headings" asks that no heading have another level.
        if re.search(r"\b(?:only|just|exclusively|solely|all)\b", reading.text):
            return None
        return count_check(key, {"at_least": 1})
    if "head" in unit:
        markdown = unit.startswith("markdown")
        return create("section_count" if markdown else "heading_count", at_least=1)
    if unit == "a list":
        return create("bullet_count", numbered=True, at_least=1)
    return None


# A question the output itself asks: "include a question", "pose a rhetorical question". Only
# with a verb that puts one in and an indefinite article: "answer the question", "stay on the
# question" and "quote the question" are about the user's question, which no mark shows.
ASKED = re.compile(
    r"\b(?:include|includes|including|ask|asks|asking|pose|poses|posing|contain|contains|"
    r"containing|add|adds|with|has|have|feature|features)\s+"
    r"(?:(?:the |your )?(?:reader|readers|audience|user|users|customer|customers|listener|"
    r"listeners|follower|followers|viewer|viewers|fans|subscribers|them)\s+)?"
    r"(?:at least\s+)?"
    r"(?:a|an|one|some|several)\s+(?:(?:short|open|open-ended|rhetorical|follow-up|direct|"
    r"clear|single)\s+)?questions?\b"
)


def asked_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("mark_count", mark="?", at_least=1)


# Links dressed as Markdown: "links as [text](url)", "format the URL as a markdown link", "use
# markdown links only", "wrap links in markdown". Every link is one, and there is a link: a rule
# on links, like one on bullets, is not met by a text with none.
_LINKS = (
    r"(?:(?:all|every|each|any|the|your)\s+)?(?:[a-z]+\s+)?"
    r"(?:urls?|(?:hyper)?links?|web ?address(?:es)?)"
)
_AS_MARKDOWN = (
    r"(?:as|in|into|using|like)\s+(?:an?\s+)?(?:markdown(?:[- ](?:links?|syntax|format|link "
    r"(?:format|syntax)))?(?:\s+\[[^\]]*\]\([^)]*\))?|\[[^\]]*\]\([^)]*\)(?:\s+(?:format|syntax|"
    r"style))?)"
)
MARKDOWN_LINKS = re.compile(
    rf"\b(?:(?:use|write|format|wrap|put|give|show|present|render)\s+)?{_LINKS}\s+"
    r"(?:(?:should|must|need to|needs to|have to|has to|are to)\s+)?(?:be\s+)?"
    rf"(?:(?:written|formatted|wrapped|given|shown|rendered|done)\s+)?{_AS_MARKDOWN}"
    r"|\b(?:use\s+)?(?:only\s+)?markdown[- ](?:style\s+)?links?(?:\s+only)?\b"
)


def markdown_links_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return all_of(create("url_count", at_least=1), create("url_count", form="bare", exactly=0))
