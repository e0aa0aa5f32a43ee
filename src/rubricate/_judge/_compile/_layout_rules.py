"""The grammar's rules for lists, tables and code blocks, named by what they hold.

"bullet points rather than a numbered list", "list 3 reasons as bullet points", "number the
steps", "a list of 5 items", "show the prices in a table", "a table with 3 columns", "put the
command in a code block": each rule is a pattern and a builder that turns its match into a
catalogue check, or `None` when the words do not settle one.
"""

from __future__ import annotations

import re

from ...checks import Check, all_of, create, each, within
from ._vocabulary import (
    CMP_ANY,
    CONSUMED,
    FILLER,
    NAME_SEPARATOR,
    NEG,
    Reading,
    as_written,
    bound,
    cmp_key,
    constant,
)

__all__ = [
    "ALPHABETICAL",
    "BARE_ROWS",
    "BLANK_AFTER",
    "BULLET_MARKER",
    "CHECKBOXES",
    "CHRONOLOGICAL",
    "CODE_BLOCK",
    "COUNTED_LIST",
    "ENTRY_COUNT",
    "HEADING_LEVEL",
    "HEADING_NAMES",
    "LANGUAGE_TAG",
    "LIST_AS",
    "LIST_OF",
    "NOTHING_BUT",
    "NUMBER_THEM",
    "OPENS_WITH_LAYOUT",
    "PREFER_LIST",
    "TABLE_COLUMNS",
    "TABLE_HEADER_CASE",
    "TABLE_SIZE",
    "TWO_LISTS",
    "UNNUMBERED",
    "alphabetical_rule",
    "bare_rows_rule",
    "blank_after_rule",
    "bullet_marker_rule",
    "checkboxes_rule",
    "chronological_rule",
    "code_block_rule",
    "counted_list_rule",
    "entry_count_rule",
    "heading_level_rule",
    "heading_names_rule",
    "language_tag_rule",
    "list_as_rule",
    "list_of_rule",
    "nothing_but_rule",
    "number_them_rule",
    "opens_with_layout_rule",
    "prefer_list_rule",
    "table_columns_rule",
    "table_header_case_rule",
    "table_size_rule",
    "two_lists_rule",
    "unnumbered_rule",
]


# The mark bullet points open with: "use • for bullet points, not hyphens", "hyphens for
# bullets", "bullets are marked with hyphens", "bullets should use the • character instead of
# hyphens", "feature list uses • bullets"; and one mark throughout ("one bullet style
# consistently", "don't mix bullet styles"). What is ruled out after it ("not hyphens or
# asterisks") is the same rule said again.
_MARK_WORDS = {"hyphen": "-", "dash": "-", "asterisk": "*", "star": "*", "plus": "+", "•": "•"}
_MARK = r"(?:•|hyphens?|dash(?:es)?|asterisks?|stars?|plus signs?|q\d+)"
_MARK_NAMED = (
    rf"(?P<mark>{_MARK})"
    r"(?:\s+(?:glyphs?|characters?|symbols?|signs?|hyphens?|dash(?:es)?|asterisks?))?"
)
_RULED_OUT = (
    rf"(?:\s*,?\s*(?:not|rather than|instead of|never)\s+(?:the\s+)?{_MARK}"
    rf"(?:\s+(?:glyphs?|characters?))?(?:\s*(?:,|or|and|/)\s*{_MARK})*)?"
)
_BULLETS = r"(?:bullet points?|bulleted items?|list items?|bullets?)"
_MARKED_WITH = (
    r"(?:(?:should|must|need to|have to|will)\s+)?(?:be\s+|are\s+|is\s+)?(?:use|uses|using|"
    r"marked with|made with|written with|start with|starts with|begin with|begins with)"
)
BULLET_MARKER = re.compile(
    rf"\b(?:use|using)?\s*(?:the\s+)?{_MARK_NAMED}\s+(?:for|as)\s+"
    rf"(?:the\s+|all\s+|every\s+|each\s+)?(?:{_BULLETS}|bullet markers?){_RULED_OUT}"
    rf"|\b{_BULLETS}\s+{_MARKED_WITH}\s+"
    rf"(?:the\s+|a\s+)?{_MARK_NAMED.replace('mark', 'mark2')}{_RULED_OUT}"
    rf"|\b(?:list\s+)?(?:uses?|with)\s+(?P<mark3>•|hyphen|dash|asterisk)\s+{_BULLETS}{_RULED_OUT}"
    r"|(?P<same>\b(?:1|one|a single|the same)\s+bullet\s+(?:style|marker|character|symbol)"
    r"(?:\s+(?:consistently|throughout))?|\bconsistent\s+bullet\s+(?:style|markers?|characters?)"
    r"|\bnot?\s+mix(?:ing)?\s+bullet\s+(?:styles|markers|characters|symbols))"
)


def bullet_marker_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if match.group("same"):
        return create("bullet_marker")
    said = match.group("mark") or match.group("mark2") or match.group("mark3")
    if said.startswith("q"):
        mark = reading.quotes[int(said[1:])].strip()
    else:
        mark = next((m for word, m in _MARK_WORDS.items() if said.startswith(word)), "")
    if mark not in ("-", "*", "+", "•"):
        return None
    return create("bullet_marker", marker=mark)


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
    # "The list has eight vocabulary items": what a reader counts as the list's items, its
    # top-level items, or a table's rows when the list was set out as a table.
    return create("entry_count", **bounds)


# "Exactly three tips", "give 5 tips", "at most four steps", "a dozen facts": a count of entries
# in the user's own noun. The catalogue's units are read before this rule (words, bullets,
# sections...); nouns of time, measure, money or people count no piece of the text.
ENTRY_COUNT = re.compile(
    rf"(?:\b(?P<verb>give|gives|list|lists|provide|provides|offer|offers|suggest|suggests|share|"
    rf"shares|write|writes|has|have|there (?:should|must|will) be|there are)\s+)?"
    rf"(?:(?P<neg>\bno|\bnot)\s+)?(?:(?:{CMP_ANY})\s+)?"
    # a range: "2-4 quick replies", "between four and seven chapters", "at least 4 and at most 6"
    rf"(?:(?:between|from)\s+(?P<low>\d+)\s*(?:-|\u2013|to|and)\s*"
    rf"|(?<![\w-])(?P<low_dash>\d+)\s*(?:-|\u2013|to)\s*"
    rf"|(?:at least|no fewer than|no less than|a minimum of|min(?:imum)?)\s+(?P<low2>\d+)\s+"
    rf"(?:but|and)\s+(?:no more than|not more than|at most|up to|max(?:imum)?)\s+)?"
    rf"(?<!\w)(?P<n>\d+)\s+"
    rf"(?:(?P<adj>[a-z][a-z-]*)\s+)?"
    rf"(?P<noun>[a-z][a-z-]+s)\b"
    rf"(?:\s+(?P<post_most>or (?:fewer|less)|max(?:imum)?|at most|tops)"
    rf"|\s+(?P<post_least>or more|at least|minimum))?"
    rf"(?P<numbered>,?\s+(?:all\s+)?numbered)?"
)
_NOT_ENTRIES = re.compile(
    r"(?:words|sentences|paragraphs|paras|stanzas|verses|lines|characters|chars|letters|bullets|"
    r"points|items|entries|sections|headings|headers|titles|tables|rows|columns|cells|keys|"
    r"fields|pages|slides|parts|chapters|lists|emojis|hashtags|links|urls|questions|marks|"
    r"times|seconds|minutes|hours|days|weeks|months|years|decades|people|persons|users|"
    r"dollars|euros|pounds|cents|percent|kilos|kg|miles|metres|meters|"
    # what a JSON value or a table holds
    r"objects|arrays|elements|records|properties|values|strings|numbers|digits|"
    # marks and signs: "no more than 3 commas", "at most 2 dashes" count no entries
    r"commas|colons|semicolons|dashes|hyphens|apostrophes|asterisks|brackets|parentheses|"
    r"slashes|underscores|symbols|spaces|tabs|ellipses|exclamations|caps|capitals)"
)
_VERB = re.compile(r"(?:appear|occur|use|contain|include|mention|say|read|end|start|begin)s")
_NO_NOUN = re.compile(
    r"as|is|was|has|does|its|this|his|us|less|plus|thus|yes|always|unless|across|perhaps|"
    r"of|or|and|the|in|on|at|to|per|each|every|more|fewer|total|times?"
)
# Verbs of what the text says, not how it is laid out: "mentions three benefits" may be said in
# one sentence.
_SAYS = re.compile(
    r"\b(?:mention|mentions|mentioning|include|includes|including|contain|contains|containing|"
    r"cite|cites|discuss|discusses|cover|covers|explain|explains|describe|describes|name|names|"
    r"reference|references|address|addresses|highlight|highlights|compare|compares)\b"
)


def entry_count_rule(match: re.Match[str], reading: Reading) -> Check | None:
    noun, adj = match.group("noun"), match.group("adj") or ""
    # "action items", "key points": entries named by their kind; "items" alone is a list's.
    if _NO_NOUN.fullmatch(noun) or _NO_NOUN.fullmatch(adj) or _VERB.fullmatch(noun):
        return None  # "'story' appears 2 times", "gives 30 as the answer": no noun counted
    named = adj and noun in ("items", "points", "entries")
    if (_NOT_ENTRIES.fullmatch(noun) and not named) or _NOT_ENTRIES.fullmatch(adj):
        return None
    if re.fullmatch(r"bullet(?:ed)?|numbered|list|markdown|table|code", adj):
        return None  # "4 bullet points": the list's own unit, which the count rules read
    # "10 names exactly": the counted noun is no verb of saying
    said = reading.text[: match.start("noun")] + " " + reading.text[match.end("noun") :]
    if _SAYS.search(said):
        return None
    # "The answer lists three fruits" may do so in one sentence ("apple, banana and cherry"),
    # which holds no entries to count; "exactly three fruits" and a bare "3 tips" set a count.
    cmp = cmp_key(match) or (
        "at_most" if match.group("post_most") else "at_least" if match.group("post_least") else None
    )
    low = match.group("low") or match.group("low_dash") or match.group("low2")
    stated = cmp is not None or match.group("neg") is not None or low is not None
    if match.group("verb") and not stated:
        return None
    bounds: dict[str, int]
    if low is not None:
        if match.group("neg") is not None or cmp is not None or int(low) > int(match.group("n")):
            return None
        bounds = {"at_least": int(low), "at_most": int(match.group("n"))}
    else:
        key = bound(cmp, match.group("neg") is not None)
        if key is None:
            return None
        bounds = {key: int(match.group("n"))}
    if match.group("numbered"):
        return create("numbered_count", **bounds)
    return create("entry_count", noun=f"{adj} {noun}".strip(), **bounds)


# "Bullets only, no intro text", "nothing outside the table", "just the code block": the text
# is that and nothing else. "Start straight with the list, no intro line": nothing before it.
_LAYOUT = (
    r"(?P<kind>(?:bulleted\s+|numbered\s+|bullet\s+)?list|bullets|bullet points|table|"
    r"code(?:\s+block)?)"
)
_NO_INTRO = (
    r"(?:nothing|(?:no|without|skip(?:\s+the)?)\s+(?:intro(?:duction|ductory)?|preamble|lead-in|"
    r"extra|other|outro|explanations?|commentary)(?:\s+(?:text|line|sentence|words|paragraph|"
    r"commentary))?(?:\s+or\s+heading)?)"
)
# "Nothing before the code block - start straight with it": the start said twice.
_STRAIGHT_IN = (
    r"(?:\s*[,;:\u2013\u2014-]*\s*(?:just\s+)?(?:start|begin|open)s?\s+(?:straight|directly|right)?\s*"
    r"(?:away\s+)?with\s+(?:it|them))?"
)
NOTHING_BUT = re.compile(
    rf"(?:{_NO_INTRO}\s*[,;:—–-]*\s*)?"
    rf"(?:(?:a\s+|the\s+)?{_LAYOUT}\s+only"
    rf"|(?:only|just)\s+(?:a\s+|the\s+)?{_LAYOUT.replace('kind', 'kind2')}"
    rf"|nothing\s+(?:else\s+)?(?:outside|but|except(?:\s+for)?|besides|other than)\s+"
    rf"(?:the\s+|a\s+)?{_LAYOUT.replace('kind', 'kind3')}"
    rf"|(?:no|not\s+(?:[a-z]+\s+)?(?:any(?:thing)?\s+)?|without)\s*"
    rf"(?:(?:extra|other|additional|surrounding)\s+)?"
    rf"(?:(?:text|words|commentary|prose|explanations?|notes?|lines?|sentences?)\s+)?"
    rf"(?:before\s+or\s+after|outside(?:\s+of)?|around|besides)\s+(?:the\s+|a\s+|your\s+)?"
    rf"{_LAYOUT.replace('kind', 'kind4')})"
    rf"(?:\s*[,;:—–-]*\s*(?:and\s+)?(?:{_NO_INTRO}(?:\s+(?:before|after|outside)\s+"
    rf"(?:it|the\s+\w+))?|nothing\s+else))?"
)
OPENS_WITH_LAYOUT = re.compile(
    rf"(?:start|begin|open)s?\s+(?:straight|directly|right)?\s*(?:away\s+)?(?:with|on)\s+"
    rf"(?:the\s+|a\s+)?{_LAYOUT}(?:\s*[,;:—–-]*\s*(?:with\s+)?{_NO_INTRO})?"
    rf"|{_NO_INTRO}\s+before\s+the\s+{_LAYOUT.replace('kind', 'kind2')}{_STRAIGHT_IN}"
)


# "Nothing after the table", "no commentary below the code block", "end with the list", "the
# table comes last": the list, table or code closes the text.
_NO_OUTRO = (
    r"(?:nothing(?:\s+else)?|(?:no|without|(?:do\s+not|never)\s+(?:add|write|put|include))"
    r"(?:\s+any(?:thing)?)?(?:\s+(?:extra|other|further|additional|closing|trailing|concluding|"
    r"follow-up))?(?:\s+(?:text|words|commentary|prose|explanations?|notes?|lines?|sentences?|"
    r"summary|outro|remarks?|sign-?off))?)"
)
CLOSES_WITH_LAYOUT = re.compile(
    rf"{_NO_OUTRO}\s+(?:after|below|beneath|underneath|following)\s+(?:the\s+|a\s+|your\s+)?"
    rf"{_LAYOUT}\b"
    rf"|(?:end|ends|finish|finishes|close|closes)\s+(?:with|on)\s+(?:the\s+|a\s+)?"
    rf"{_LAYOUT.replace('kind', 'kind2')}\b"
    rf"|(?:the\s+)?{_LAYOUT.replace('kind', 'kind3')}\s+"
    r"(?:comes?|goes?|is|sits?|should\s+be|must\s+be)\s+(?:last|at\s+the\s+(?:very\s+)?(?:end|bottom))\b"
)


def closes_with_layout_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("closes_with", kind=_layout_kind(match))


def _layout_kind(match: re.Match[str]) -> str:
    said = next(g for g in ("kind", "kind2", "kind3", "kind4") if match.groupdict().get(g))
    word = match.group(said)
    return "table" if "table" in word else "code" if "code" in word else "list"


def nothing_but_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("nothing_but", kind=_layout_kind(match))


def opens_with_layout_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("opens_with", kind=_layout_kind(match))


# "Items in alphabetical order", "list the names alphabetically", "sorted A-Z": the entries,
# whatever the plural noun names them.
ALPHABETICAL = re.compile(
    r"(?:(?:the\s+)?(?:[a-z]+s|list)\s+(?:(?:are|should be|must be|is)\s+)?)?"
    r"(?:(?:list|sort|order|arrange|put|give|present)(?:ed|s)?\s+(?:(?:them|it|the\s+[a-z]+s)\s+)?)?"
    r"(?:in\s+)?(?:(?P<rev>reverse\s+)?alphabetical(?:ly)?(?:\s+order)?"
    r"(?:\s+\((?:a|z)[- ]to[- ](?:z|a)\))?"
    r"|(?:sorted|ordered)?\s*(?:from\s+)?(?:a(?:[- ]to[- ]|\s*[-–]\s*)z|"
    r"(?P<rev2>z(?:[- ]to[- ]|\s*[-–]\s*)a)))"
)


def alphabetical_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if not match.group().strip():
        return None
    descending = bool(match.group("rev") or match.group("rev2"))
    return create("alphabetical", descending=True) if descending else create("alphabetical")


# "Events in chronological order", "updates oldest first", "sorted by publication year, oldest
# first", "listed newest to oldest", "reverse chronological order": the entries by their dates.
_EARLY = r"(?:oldest|earliest)"
_LATE = r"(?:newest|latest|most recent)"
_ON_TOP = r"(?:first|at the top|on top)"
_ON_BOTTOM = r"(?:last|at the (?:bottom|end))"
CHRONOLOGICAL = re.compile(
    r"(?:(?:the\s+)?(?:[a-z]+s|list|timeline|table)\s+(?:(?:are|should be|must be|is)\s+)?)?"
    r"(?:(?:list|sort|order|arrange|put|give|present)(?:ed|s)?\s+(?:(?:them|it|the\s+[a-z]+s)\s+)?)?"
    r"(?:by\s+(?:[a-z]+\s+)?(?:date|year|time)\s*[,:\u2013\u2014-]?\s*)?"
    r"(?:(?:in\s+)?(?P<rev>reverse\s+)?chronological(?:ly)?(?:\s+order)?"
    rf"(?:\s*[,(:\u2013\u2014-]\s*(?:(?P<early>{_EARLY})|(?P<late>{_LATE}))\s+{_ON_TOP}\)?)?"
    r"|(?:in\s+)?(?:time|date)\s+order"
    rf"|(?:from\s+)?(?:{_EARLY}\s+(?:to|through|\u2192|->)\s+{_LATE}"
    rf"|(?P<late2>{_LATE})\s+(?:to|through|\u2192|->)\s+{_EARLY})"
    rf"|{_EARLY}\s+{_ON_TOP}|(?P<late3>{_LATE})\s+{_ON_TOP}"
    # the entries named between ("newest update on top", "most recent entries first"), or the
    # place at the other end ("newest at the bottom")
    rf"|(?:(?P<early5>{_EARLY})|(?P<late5>{_LATE}))(?:\s+(?!(?:first|at|on|last)\b)[a-z]+)?\s+"
    rf"(?:(?P<top5>{_ON_TOP})|{_ON_BOTTOM}))"
)


def chronological_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if match.group("early") and match.group("rev"):
        return None  # "reverse chronological, oldest first": which?
    late = match.group("late") or match.group("late2") or match.group("late3")
    if match.group("early5") or match.group("late5"):
        late = bool(match.group("late5")) == bool(match.group("top5"))  # latest last: oldest first
    if late or match.group("rev"):
        return create("chronological", descending=True)
    return create("chronological")


# "A blank line between the subject and the body", "leave an empty line after the greeting"
# ("separate the subject line from the body with a blank line" reads so too, `read`).
BLANK_AFTER = re.compile(
    r"(?:(?:there\s+is|has|have|leave|put|add|insert|include|use|with)\s+)?"
    r"(?:an?\s+|one\s+)?(?:blank|empty)\s+line\s+(?:between|after|below|under|following)\s+"
    r"(?:(?:the|its|your)\s+)?(?:(?P<subject>subject(?:\s+line)?)|"
    r"(?P<greeting>greeting(?:\s+line)?|salutation)|first\s+line)"
    r"(?:\s+and\s+(?:the\s+)?(?:body|message|text|rest))?"
)


def blank_after_rule(match: re.Match[str], reading: Reading) -> Check | None:
    part = "subject" if match.group("subject") else "greeting" if match.group("greeting") else ""
    return create("blank_line_after", part=part or "first_line")


# A task list: "use markdown checkboxes (- [ ]) for every item", "every item gets a checkbox",
# "all items are unchecked boxes", "checklist items should use tick boxes". Each item opens
# with a box; the brackets shown as an example are gone by now (`_BARE_EXAMPLE`).
_BOX = (
    r"(?:(?:markdown|github[- ]style|gfm|empty|unchecked|unticked|blank)\s+)?"
    r"(?:check[- ]?box(?:es)?|tick[- ]?box(?:es)?|boxes|task[- ]list(?:\s+(?:items?|syntax))?)"
)
_BOXED = r"(?:items?|lines?|tasks?|entr(?:y|ies)|steps?|bullets?|points?)"
_SHOWN = r"(?:\s*\([^()a-z]*\)|\s*:\s*[^\w\s]*\s*\[\s*\])?"  # "(- [ ])", ": - [ ]"
CHECKBOXES = re.compile(
    rf"^\W*(?:(?:every|each|all(?:\s+the)?|the)\s+)?(?:checklist\s+)?{_BOXED}\s+"
    r"(?:(?:should|must|needs? to|has to|have to)\s+)?"
    r"(?:gets?|has|have|needs?|uses?|is|are|be|starts? with|begins? with|opens? with)\s+"
    rf"(?:an?\s+)?{_BOX}{_SHOWN}"
    rf"|^\W*(?:use|with|add|put|give|(?:format|write|make)(?:ted)?(?:\s+(?:it|them))?\s+(?:as|with))"
    rf"\s+(?:an?\s+)?{_BOX}{_SHOWN}"
    rf"(?:\s+(?:for|on|in|before)\s+(?:every|each|all(?:\s+the)?)\s+{_BOXED})?"
    r"(?:\s+so\s+(?:i|we|you|they|people)\s+can\s+(?:tick|check)[a-z ]*)?"
)


def checkboxes_rule(match: re.Match[str], reading: Reading) -> Check | None:
    empty = re.search(r"\b(?:empty|unchecked|unticked|blank)\b", match.group())
    return each("item", create("opens_with", kind="empty_checkbox" if empty else "checkbox"))


# Two labelled parts, each in its own kind of list: "ingredients as a bulleted list, method
# as a numbered list", "ingredients should be a bulleted list and the steps a numbered list".
# Each part is what the reply labels so (a heading or "Method:"); a reply that names it
# otherwise ("Instructions") leaves the criterion to the judge.
_A_LIST = (
    r"\s+(?:(?:as|in|go in|goes in|should be|must be|are|is|=)\s+)?(?:an?\s+)?"
    r"(?P<{0}>bullet(?:ed)?|numbered|ordered)(?:[- ]point)?\s+list"
)
_LABEL = r"[a-z][a-z-]*(?:\s+(?!(?:as|an?|in|go|goes|should|must|are|is|be)\b)[a-z][a-z-]*)?"
TWO_LISTS = re.compile(
    rf"^\W*(?:the\s+)?(?P<first>{_LABEL})"
    + _A_LIST.format("kind1")
    + rf"\s*(?:,|;|and)\s*(?:and\s+)?(?:the\s+)?(?P<second>{_LABEL})"
    + _A_LIST.format("kind2")
    + r"(?=\W*$)"
)


# Words that open the rule rather than name a part: "use a bulleted list, not a numbered one".
_NO_LABEL = frozenset(
    {"it", "them", "this", "answer", "reply", "response", "output", "text", "list", "use", "not"}
    | {"no", "never", "make", "write", "format", "put", "give", "with", "and", "or", "but"}
)


def two_lists_rule(match: re.Match[str], reading: Reading) -> Check | None:
    first, second = match.group("first"), match.group("second")
    kinds = (match.group("kind1").startswith("bullet"), match.group("kind2").startswith("bullet"))
    said = {first, second, first.split()[0], second.split()[0]}
    if first == second or kinds[0] == kinds[1] or said & _NO_LABEL:
        return None
    return all_of(_list_in(first, kinds[0]), _list_in(second, kinds[1]))


def _list_in(label: str, bulleted: bool) -> Check:
    """`label`'s part is a bulleted list (no numbered item), or a numbered one (no bullet)."""
    if bulleted:
        kind = all_of(create("bullet_count", at_least=1), create("numbered_count", exactly=0))
    else:
        kind = all_of(create("numbered_count", at_least=1), create("bullet_count", exactly=0))
    return within(f"field:{label}", kind)


UNNUMBERED = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+)?number\s+(?:the\s+|your\s+|any\s+|these\s+)?"
    r"(?:list|(?!pages\b|slides\b|times\b)[a-z]+s)\b"
)


unnumbered_rule = constant("numbered_count", exactly=0)


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
# Said of the list: "bulleted, not numbered", "numbered rather than bulleted".
_BUT = r"\s*(?:,|;|\u2014|\u2013|\s-)?\s+"
PREFER_LIST = re.compile(
    # the text said first: "the list should be bulleted, not numbered"
    r"(?:^(?:the\s+|your\s+)?(?P<subject>(?:[a-z'-]+\s+){0,2}?[a-z'-]+)\s+(?:should be|must be|"
    r"is|are|as|in)\s+(?:an?\s+)?)?"
    # "numbered points (1., 2., 3.) - not bullets": an example, then a dash
    rf"\b(?P<a>{_LIST_KIND})(?:\s*\([^()]*\))?{_BUT}(?:rather than|instead of|not|and not|over|"
    rf"in place of|as opposed to)\s+(?:an?\s+|the\s+|any\s+)?"
    rf"(?P<b>{_LIST_KIND}|numbered|bulleted)\b"
    rf"|\b(?P<a2>bulleted|numbered){_BUT}(?:rather than|instead of|not|and not|"
    r"as opposed to)\s+(?P<b2>bulleted|numbered)\b"
)


def prefer_list_rule(match: re.Match[str], reading: Reading) -> Check | None:
    said, other = match.group("a") or match.group("a2"), match.group("b") or match.group("b2")
    wanted, unwanted = _list_kind(said), _no_list_kind(other)
    if wanted.name == unwanted.name:
        return None  # "bullet points, not bullets": nothing to prefer
    rule = all_of(wanted, unwanted)
    # "Ingredients should be bullets, not numbered", "format the steps as bullets, not
    # numbered": the method may be numbered. The rule is on the part so labelled; a reply with
    # no such part leaves it to the judge. "The list should be bullets" is the whole text's.
    named = [
        word
        for word in (match.group("subject") or "").split()
        if (word not in FILLER and word != "list") or word in ("steps", "instructions")
    ]
    if not named:
        return rule
    return within(f"field:{as_written(' '.join(named), reading.original)}", rule)


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
    rf"\b(?:format|formats|present|presents|list|lists|lay out|put|keep|place|write|give|show|"
    rf"arrange|organi[sz]e|break down|set out|display)\s+{_object('obj')}\s+"
    rf"(?:as|in|into|using|with)\s+"
    rf"(?:an?\s+|one\s+)?(?:(?P<unit>{_LIST_KIND})|(?P<table>(?:markdown\s+)?table)|"
    # "put all the commands in a single code block": one block holds them
    rf"(?P<one_block>1\s+(?:fenced\s+)?code\s+block))\b"
    rf"(?:(?<=table)\s+with\s+(?:a\s+)?header(?:\s+row)?)?"
    rf"|\b(?:use|uses|using|with|in)\s+(?:an?\s+)?(?P<unit2>{_LIST_KIND})\s+"
    rf"(?:for|to (?:list|present|show|give|cover|set out))\s+(?:{_object('obj2')}|{_OBJECT_WHAT})"
    rf"(?=\s*(?:$|[.,;:!?)]|{CONSUMED}))"
    # said without a verb: "action items as a numbered list", "agenda as bullet points"
    # ... or as what they are: "items must be a numbered list", "the options are bullet points"
    rf"|^(?:the\s+|your\s+)?(?P<obj3>(?:[a-z'-]+\s+){{0,2}}?[a-z'-]+)\s+(?:as|in|(?:is|are|"
    rf"(?:must|should|need to|needs to|have to|has to) be)(?:\s+(?:in|as))?)\s+(?:an?\s+)?"
    rf"(?P<unit3>{_LIST_KIND})\b(?=\s*(?:$|[.,;:!?)]))"
    # ... or said to be so: "steps are numbered", "the options should be bulleted (1., 2., ...)"
    rf"|^(?:the\s+|your\s+|all\s+(?:the\s+)?)?(?P<obj4>(?:[a-z'-]+\s+){{0,2}}?[a-z'-]+)\s+"
    rf"(?:are|is|should be|must be|need to be|needs to be|have to be|has to be)\s+"
    rf"(?P<unit4>numbered|bulleted)(?:\s*\([^()]*\))?(?=\s*(?:$|[.,;:!?]))"
)


def _plain_object(words: str | None) -> bool:
    if not words:
        return True
    return not any(re.fullmatch(rf"{NEG}|not|\d+", word) for word in words.split())


def list_as_rule(match: re.Match[str], reading: Reading) -> Check | None:
    objects = (
        match.group("obj"),
        match.group("obj2"),
        match.group("what"),
        match.group("obj3"),
        match.group("obj4"),
    )
    if not all(_plain_object(words) for words in objects):
        return None
    if match.group("table"):
        return create("table_count", at_least=1)
    if match.group("one_block"):
        return create("code_block_count", exactly=1)
    said = match.group("unit") or match.group("unit2") or match.group("unit3")
    return _list_kind(said or match.group("unit4"))


# So many things, each an item of the list named: "list 3 reasons as bullet points", "give
# at least four tips in a numbered list". The things are the items, whatever they are called.
COUNTED_LIST = re.compile(
    rf"(?:\b(?:list|lists|give|gives|provide|provides|write|offer|share|name|suggest|include|"
    rf"includes|present|outline)\s+|^)(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)\s+"
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


# Every code block tagged, with any language: "every code block needs a language tag", "code
# blocks, if any, need a language tag", "language tag on each code fence"; and after a code
# block asked for, "put the query in a fenced code block with a language tag" (`CODE_BLOCK`).
_ANY_LANGUAGE = (
    r"(?:tagged\s+(?:with\s+)?(?:a\s+|the\s+|its\s+)?language|(?:with\s+)?(?:an?|its|their)\s+"
    r"language\s+(?:tags?|hints?|identifiers?|labels?))"
    # tags given as examples: "(```bash)", "(bash)", "(e.g. ```python, ```bash, etc.)"
    r"(?:\s*\((?:e\.g\.,?\s*|like\s+|such as\s+)?(?:`{3})?[\w+#]+(?:\s*,\s*(?:`{3})?[\w+#]+)*"
    r"(?:,?\s*etc\.?)?\))?"
)
_CODE_BLOCKS = r"(?:(?:fenced|markdown)\s+)?code\s*(?:blocks?|fences?)"
LANGUAGE_TAG = re.compile(
    rf"\b(?:(?:every|each|all|any|the)\s+)?(?:{_CODE_BLOCKS}|fenced\s+blocks?)"
    rf"(?P<if_any>,?\s+if\s+any,?)?\s+(?:(?:needs?|must|should|has|have|carr(?:y|ies)|gets?|"
    rf"uses?|are|is)\s+(?:to\s+)?(?:be\s+|have\s+|carry\s+)?(?:all\s+)?)?{_ANY_LANGUAGE}"
    rf"|\blanguage\s+tags?\s+on\s+(?:each|every|all|the|any)\s+{_CODE_BLOCKS}"
    rf"|\b(?P<if_any2>if\s+there(?:'s|\s+is)\s+an?\s+{_CODE_BLOCKS},?\s+it\s+"
    rf"(?:has|needs|must have|should have|carries)\s+an?\s+language\s+"
    rf"(?:tag|hint|identifier|label))"
)


def language_tag_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if match.group("if_any") or match.group("if_any2"):
        return create("code_tagged", required=False)
    return create("code_tagged")


# Code in a code block: "put the command in a code block", "wrap the JSON in a ```json block".
_CODE = (
    r"code|commands?|scripts?|snippets?|quer(?:y|ies)|json|sql|yaml|html|css|xml|functions?|"
    r"configs?|configuration|programs?|(?:shell |terminal |bash )commands?|examples?|output"
)
CODE_BLOCK = re.compile(
    rf"\b(?:(?:put|puts|place|places|wrap|wraps|enclose|encloses|format|formats|present|show|"
    rf"give|write|include|includes|keep|keeps)\s+)?(?:(?:the|all the|any|your|all|each)\s+)?"
    rf"(?:(?:[a-z]+\s+)?(?:{_CODE})\s+(?:(?:goes|go|belongs?|sits?|lives?|should go|must go)\s+)?)?"
    rf"(?:in|inside|within|into|as)\s+(?:an?\s+|one\s+|its own\s+|"
    rf"separate\s+)?(?:`{{3}}\w*\s+|(?:fenced|markdown|[a-z]+)\s+)??"
    rf"(?:code ?(?:blocks?|fences?)|(?<=fenced )blocks?)\b"
    rf"(?:\s+with\s+(?:the|a)\s+(?P<language>[\w+#]+)\s+language\s+tag"
    rf"|\s+with\s+the\s+language\s+tag\s+(?P<language2>[\w+#]+)"
    rf"|(?P<any_tag>\s+{_ANY_LANGUAGE})"
    rf"|(?P<tagged>\s+(?:tagged|labell?ed|marked)(?:\s+(?:as|with))?\s+(?:(?:the|a)\s+)?"
    rf"(?:language\s+)?[\w+#]+(?:\s+language)?))?"
    rf"|\b(?:use|uses|using|with)\s+(?:an?\s+)?code ?blocks?\s+for\s+"
    rf"(?:(?:the|all the|any|your|all|each)\s+)?(?:{_CODE})\b"
)
# Languages named before "code block" ("a python code block"); after "tagged" any word goes.
_LANGUAGES = (
    r"python|javascript|typescript|bash|shell|json|yaml|sql|html|css|java|go|rust|ruby|php|"
    r"kotlin|swift|c\+\+|cpp|csharp|c#"
)


def code_block_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if match.group("any_tag"):
        return create("code_tagged")  # a block, and a language tag on it
    if language := match.group("language") or match.group("language2"):
        return create("code_block_count", language=language, at_least=1)
    tagged = match.group("tagged")
    if tagged:
        said = [w for w in tagged.split() if w not in _TAG_WORDS]
        if not said:
            return None  # "tagged with a language": any tag, which no count reads
        return create("code_block_count", language=said[-1], at_least=1)
    named = re.search(rf"(?:```|\b)({_LANGUAGES})\s+(?=code)", match.group())
    language = {"language": named.group(1)} if named else {}
    return create("code_block_count", **language, at_least=1)


_TAG_WORDS = {"tagged", "labeled", "labelled", "marked", "as", "with", "the", "a", "language"}


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


# Columns are a table's whatever the criterion calls it: "exactly 3 columns", "at most 4 cols".
BARE_COLUMNS = re.compile(
    rf"\b(?:(?P<neg>not|never|no)\s+(?:(?:use|have|exceed|go|be)\s+)?)?(?:(?:{CMP_ANY})\s+)?"
    rf"(?P<n>\d+)\s+(?:columns?|cols)\b(?!\s+(?:of|per|in|on)\b)"
)


# Rows counted apart from the header, whatever the table is called: "at least 4 rows, not
# counting the header row", "header row plus exactly 4 data rows", "5 rows below the header". A
# bare "5 rows" is not read: whether the header is one of them, readers differ.
_HEADER = r"(?:(?:the|a|its|one)\s+)?header(?:\s+row)?"
BARE_ROWS = re.compile(
    rf"(?:\b{_HEADER}\s*(?:plus|and|then|followed by|with|\+)\s+)?"
    rf"\b(?:(?P<neg>not|never|no)\s+(?:(?:use|have|exceed|be)\s+)?)?(?:(?:{CMP_ANY})\s+)?"
    rf"(?P<n>\d+)\s+(?:(?:data|body|content)\s+rows?\b(?:\s+in\s+(?:the|your|a)\s+table\b)?"
    rf"{_HEADER_ASIDE}|rows?\s*,?\s*"
    rf"(?:not counting|excluding|without|besides|apart from|below|under|beneath|after)\s+{_HEADER})"
)


def bare_rows_rule(match: re.Match[str], reading: Reading) -> Check | None:
    key = bound(cmp_key(match), match.group("neg") is not None)
    if key is None:
        return None
    return create("table_size", dimension="rows", **{key: int(match.group("n"))})


def bare_columns_rule(match: re.Match[str], reading: Reading) -> Check | None:
    key = bound(cmp_key(match), match.group("neg") is not None)
    if key is None:
        return None  # "not 3 columns": not a bound a check can state
    return create("table_size", dimension="columns", **{key: int(match.group("n"))})


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


# A table's header row, named so that it cannot be a heading: "column headers", "header names",
# "the header row", "table headers" (a bare "headers" is the text's headings).
_HEADER_ROW = (
    r"(?:(?:the|all|every|each|its|your)\s+)?(?:(?:markdown\s+)?table(?:'s)?\s+)?"
    r"(?:column\s+(?:names|headings|titles|labels|headers?)|header\s+(?:row|cells?|names|labels)"
    r"|(?<=table )headers?|(?<=table's )headers?)"
)
# "Column headers in Title Case", "header names should be all caps", "title case for the
# column names".
TABLE_HEADER_CASE = re.compile(
    rf"\b{_HEADER_ROW}\s+(?:(?:must|should|will|are|is|be|written|set|use|uses|follow|"
    rf"follows|all)\s+){{0,3}}(?:in\s+)?(?:(?P<case>title|sentence|lower|upper)[- ]?case|"
    rf"(?P<caps>all[- ]caps|all capitals|capital letters))\b"
    rf"|\b(?:use\s+)?(?P<case2>title|sentence|lower|upper)[- ]?case\s+(?:for|in|on)\s+"
    rf"{_HEADER_ROW}\b"
)


def table_header_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    case = match.group("case") or match.group("case2") or "upper"
    return create("table_header", case=case)


# A table's columns named: "columns: Day, Workout, Duration", "five columns: Day, Breakfast,
# Lunch, Dinner, Snack", "the column headers should be Name, Price (in that order)" name them
# all; "columns for Name, Price and Rating", "include a 'Total' column" name some of them. The
# names end the criterion, so nothing after them is taken for one.
_NAME = (
    r"(?:q\d+|(?!(?:and|or|in)\b)[a-z0-9][\w'%-]*(?:\.[\w'%-]+)*"
    r"(?:\s(?!(?:and|or|in)\b)[a-z0-9][\w'%-]*(?:\.[\w'%-]+)*){0,3}"
    r"(?:\s*\((?!in\s+(?:(?:that|this|the\s+same|exactly\s+that)\s+)?order\b)"
    r"(?!(?:(?:those|these|the)\s+)?exact)[^()]*\))?)"
)
_NAMES = rf"(?P<names>{_NAME}(?:{NAME_SEPARATOR}{_NAME})*)"
_IN_ORDER = (
    r"(?P<order>,?\s*\(?(?:in\s+(?:that|this|the\s+same|exactly\s+that)\s+order"
    r"|in\s+order)\)?)?"
)
_END = r"\s*[.;!]?\s*$"
_COLUMNS_NOUN = (
    r"(?:columns|column\s+(?:names|headers|headings|titles|labels)|header\s+row|table\s+headers)"
)
# How a list of names is said to be the whole: "columns are exactly:", "header row reads".
_ARE = (
    r"\s*(?:exactly\s*)?(?:(?P<colon>:|=|-)|(?:(?:should|must|need\s+to|have\s+to|will)\s+be|are"
    r"|(?:should\s+|must\s+)?reads?)(?:\s+exactly)?\s*:?)\s*"
)
# "(those exact words)", "(exactly)": the list is the whole, said again.
_EXACT_ASIDE = r"(?:\s*\((?:(?:those|these|the)\s+)?exact(?:ly|\s+words|\s+names)?\))?"
_TABLE = r"(?:(?:the|a|your|each)\s+)?(?:[a-z]+\s+)??(?:markdown\s+)?table(?:'s)?\s+"
TABLE_COLUMNS = re.compile(
    rf"\b(?:{_TABLE}(?:(?:needs?|has|have|should have|must have)\s+)?)?"
    rf"(?:(?:exactly\s+)?(?P<n>\d+)\s+)?(?:(?:the|its)\s+)?{_COLUMNS_NOUN}{_ARE}"
    rf"{_NAMES}{_IN_ORDER}{_EXACT_ASIDE}{_END}"
    rf"|\b(?:{_TABLE}(?:(?:should|must)\s+)?(?:has|have|with|includes?|needs?|contains?|uses?)\s+)?"
    rf"(?:(?:a|the)\s+)?columns?\s+(?P<some>for|named|called|labell?ed|titled|including)\s+"
    rf"{_NAMES.replace('names', 'names2')}{_END}"
    # "Table must have Day, Exercise, Sets and Reps columns"
    rf"|\b{_TABLE}(?:(?:should|must)\s+)?(?P<some3>has|have|includes?|needs?|contains?)\s+"
    rf"(?:the\s+)?{_NAMES.replace('names', 'names3')}\s+columns{_END}"
    rf"|\b(?:include|includes|add|adds|with|has|have|needs?)\s+(?:a|an|the)\s+(?P<one>q\d+|[a-z]+)"
    rf"\s+column{_END}"
)


def _names(said: str, reading: Reading, colon: bool) -> list[str] | None:
    """The names of a list as the criterion writes them, or `None` when one is no name.

    A name is quoted or capitalised, unless a colon lists several one-word names, and never a
    style: "columns are aligned" names no column, nor "keep it short" in "columns are Name and
    Role, and keep it short", nor "Title Case" in "headings should be Title Case".
    """
    names = []
    said_names = re.split(NAME_SEPARATOR, said)
    if len(said_names) == 1 and said_names[0].isdigit() and not reading.quote(said_names[0]):
        return None  # "the table has 3 columns": a count of them, no name
    for name in said_names:
        quoted = reading.quote(name)
        written = quoted or as_written(name, reading.original)
        if _STYLE_WORDS.fullmatch(name):
            return None
        listed = colon and len(said_names) > 1 and " " not in name
        if not (quoted or written[:1].isupper() or name[:1].isdigit() or listed):
            return None
        names.append(written)
    return names


_STYLE_WORDS = re.compile(
    r"(?:title|sentence|upper|lower)[- ]?case|all[- ]caps|caps|capitals|bold(?:ed)?|italics?|"
    r"italici[sz]ed|capitali[sz]ed|uppercase|lowercase|underlined|numbered|short|long|concise|"
    r"clear|informative|descriptive|consistent|brief"
)


def _listed(match: re.Match[str], reading: Reading) -> tuple[list[str], bool] | None:
    """The names a criterion lists, and whether they are all there is, or `None`.

    "Include a 'Total' column" names one of them; "columns for Name and Price" or "sections
    called A and B" some; "columns: Day, Workout, Duration" all, unless a count says otherwise.
    """
    found = match.groupdict()
    if found.get("one") is not None:
        name = reading.quote(found["one"]) or as_written(found["one"], reading.original)
        if not reading.quote(found["one"]) and not name[:1].isupper():
            return None  # "add a wide column": a name is quoted or capitalised
        return [name], False
    said = next(
        found[group]
        for group in ("names", "names2", "names3", "names4", "names5")
        if found.get(group)
    )
    names = _names(said, reading, colon=bool(found.get("colon")))
    if names is None:
        return None
    if found.get("some") or found.get("some3"):
        return names, False
    if found.get("n") is not None and int(found["n"]) != len(names):
        return None  # "five columns: Day, Lunch": which are the other three?
    return names, True


# A place said after each name: "English first, French second" is an order, not two names.
_PLACE = re.compile(r"\s+(?:first|second|third|fourth|fifth|last|next|then)$", re.IGNORECASE)


def table_columns_rule(match: re.Match[str], reading: Reading) -> Check | None:
    listed = _listed(match, reading)
    if listed is None:
        return None
    names, whole = listed
    placed = len(names) > 1 and all(_PLACE.search(name) for name in names)
    if placed:
        names = [_PLACE.sub("", name) for name in names]
    if not whole:
        if placed:
            return create("table_header", columns=names, ordered=True)
        return create("table_header", columns=names)
    ordered = placed or bool(match.group("order"))
    return create("table_header", columns=names, exact=True, ordered=ordered)


# Headings named: "three sections: Yesterday, Today, Blockers, in that order", "section
# headings: Added, Changed, Fixed", "use Pros and Cons as the headings" name them all;
# "include an 'FAQ' section" names one.
_HEADINGS_NOUN = (
    r"(?:(?:section\s+|sub)?head(?:ing|er)s|sections|section\s+(?:titles|names|labels))"
)
HEADING_NAMES = re.compile(
    rf"\b(?:(?:exactly\s+)?(?P<n>\d+)\s+)?(?:(?:the|its)\s+)?{_HEADINGS_NOUN}{_ARE}"
    rf"{_NAMES}{_IN_ORDER}{_EXACT_ASIDE}{_END}"
    # "must have sections called Steps to Reproduce, Expected Result and Actual Result"
    rf"|\b{_HEADINGS_NOUN}\s+(?P<some>called|named|titled|labell?ed)\s+"
    rf"{_NAMES.replace('names', 'names3')}{_END}"
    rf"|\buse\s+{_NAMES.replace('names', 'names2')}\s+as\s+(?:the\s+|your\s+)?{_HEADINGS_NOUN}"
    rf"{_IN_ORDER.replace('order', 'order2')}{_END}"
    rf"|\b(?:include|includes|add|adds|with|has|have|needs?)\s+(?:a|an|the)\s+(?P<one>q\d+|[a-z]+)"
    rf"\s+(?:heading|section|header){_END}"
    # the order they come in, which says nothing of other headings: "sections in the order
    # About us, The role, Benefits", "sections must follow the order Added, Changed, Fixed"
    rf"|\b{_HEADINGS_NOUN}\s+(?:(?:must|should|need\s+to|have\s+to)\s+)?(?:follow\s+|come\s+|be\s+"
    rf"|are\s+)?in\s+(?:the|this)\s+order\s*:?\s*{_NAMES.replace('names', 'names4')}{_END}"
    rf"|\b{_HEADINGS_NOUN}\s+(?:(?:must|should)\s+)?follows?\s+the\s+order\s*:?\s*"
    rf"{_NAMES.replace('names', 'names5')}{_END}"
    # one heading, quoted: "include a heading called 'Installation'", "heading should read
    # 'Grading Policy'"; not "H2 heading called ...", whose level no name check holds
    rf"|(?:\b(?:include|includes|add|adds|with|has|have|needs?|uses?)\s+(?:a|an|the)\s+|^\W*(?:the\s+)?)"
    rf"(?:section\s+|sub)?head(?:ing|er)\s+(?:(?:should|must|has\s+to|needs\s+to)\s+)?"
    rf"(?:(?:be\s+)?(?:called|named|titled|labell?ed)|reads?|says?|is|be)?\s*(?:exactly\s+)?[:=]?\s*"
    rf"(?P<one2>q\d+){_END}"
)


def heading_names_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if re.search(r"\b(?:only|these|from|any of|choose|pick)\b", reading.text[: match.start()]):
        return None  # "only use these headings: ...": some of them, not all
    if match.group("one2"):
        name = reading.quote(match.group("one2"))
        if not name or not name.strip() or name.lstrip().startswith("#"):
            return None  # "'## Installation'" asks a level too, which no name check holds
        return create("heading_names", names=[name])
    listed = _listed(match, reading)
    if listed is None:
        return None
    names, whole = listed
    if match.group("names4") or match.group("names5"):
        return create("heading_names", names=names, ordered=True)
    if not whole:
        return create("heading_names", names=names)
    ordered = bool(match.group("order") or match.group("order2"))
    return create("heading_names", names=names, exact=True, ordered=ordered)


# Every heading at one Markdown level: "every section heading is H3", "use only H2 headings",
# "headings should all be level 2", "no H3 or deeper headings". `read` has already spelt the
# level as "h3 heading". Section headings and subheadings leave out the text's title.
_LEVEL = (
    r"(?:h(?P<{0}>[1-6]) head(?:ing|er)s?|level[- ]?(?P<{0}l>[1-6])(?: head(?:ing|er)s?)?)"
    r"(?:\s*\(#{{1,6}}\))?"
)
_HEADS = r"(?P<{0}>(?:section|markdown)\s+|sub)?head(?:ing|er)s?"
_BE = r"(?:is|are|should be|must be|has to be|have to be|needs? to be|=)"
HEADING_LEVEL = re.compile(
    rf"\b(?:use\s+)?only\s+(?:use\s+)?{_LEVEL.format('a')}"
    rf"|\b(?:every|each|all(?: of)?(?: the)?)\s+{_HEADS.format('kb')}\s+{_BE}\s+(?:all\s+)?"
    rf"(?:an?\s+)?{_LEVEL.format('b')}"
    rf"|\b(?:the\s+|your\s+)?{_HEADS.format('kc')}\s+(?:(?:should|must|need to|have to)\s+)?"
    rf"(?:all\s+)?(?:be\s+)?(?:all\s+)?(?:in\s+)?{_LEVEL.format('c')}(?:\s+only)?(?=\s*[.!;]?\s*$)"
    rf"|\b{_LEVEL.format('f')}\s+only\b"
    rf"|\buse\s+{_LEVEL.format('d')}\s+for\s+(?:every|each|all(?: the)?|the)\s+"
    rf"{_HEADS.format('kd')}"
    rf"|\bno\s+{_LEVEL.format('e')}\s+or\s+(?:deeper|lower|smaller|below)(?:\s+head(?:ing|er)s?)?"
)


def heading_level_rule(match: re.Match[str], reading: Reading) -> Check | None:
    level = next(
        int(value)
        for key in ("a", "al", "b", "bl", "c", "cl", "d", "dl", "e", "el", "f", "fl")
        if (value := match.group(key))
    )
    if match.group("e") or match.group("el"):
        return create("heading_level", at_most=level - 1, required=False)
    kind = next((match.group(k) for k in ("kb", "kc", "kd") if match.group(k)), None) or ""
    return create("heading_level", exactly=level, skip_title=bool(kind.strip()))
