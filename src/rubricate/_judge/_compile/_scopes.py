"""Rules on part of the text: a named part, every piece of a kind, the body.

"Subject line under 50 characters" is a word limit on one part (`within`), "every bullet ends
with a period" a rule on every piece (`each`), "exactly fifty words, not counting the title" a
rule on the body. Each reader finds the words that name the scope, reads the rest of the
criterion with the whole-text grammar it is given (`parse`, from `_phrasing`), and scopes the
check when the rest reads whole and is a rule that can hold of a part. Also here: how to tell
that a whole-text reading dropped an "each" that mattered, and the several-outputs phrasings
("each tweet") that no single check reads.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...checks import Check, all_of, create, each, negate, within
from ...checks._units import LIST_PART, TEXT_PART
from ._vocabulary import CMP_ANY, FILLER, FORM_WORDS, NEG, bound, read

if TYPE_CHECKING:
    from ._phrasing import ParsedCriterion

__all__ = [
    "EACH_OUTPUT",
    "each_one",
    "for_a_kind_of_text",
    "for_each",
    "has_stray_each",
    "ignores_each",
    "in_a_field",
    "in_a_named_list",
    "in_a_part",
    "in_a_section",
    "inside_blocks",
    "is_negation",
    "less_the_frame",
    "less_what_is_set_aside",
    "names_steps",
    "parts",
    "same_for_each",
    "several_outputs",
]

Parse = Callable[[str], "ParsedCriterion"]
"""The whole-text reading of a criterion, which a scoped reading applies to what is left."""


# A named part of the text a rule is about: "subject line under 50 characters", "end the title
# with a question mark", "no emojis in the closing paragraph". Longest names first.
_PART_NAMES = (
    # "the body", "between the greeting and the sign-off", "everything after the headline"
    (
        r"body(?:\s+(?:copy|text))?"
        r"|(?:everything\s+|the\s+text\s+)?between\s+(?:the\s+)?greeting\s+and\s+"
        r"(?:the\s+)?sign-?off"
        r"|everything\s+after\s+the\s+(?:headline|title)",
        "body",
    ),
    # one subject line; "subject lines" are several, of several e-mails
    (r"(?:e-?mail\s+)?subject(?:\s+line)?(?!s\b|\s+lines\b)", "subject"),
    (r"(?:h1\s+)?(?:title|headline)", "title"),
    (r"p\.\s?s\.?|postscript", "postscript"),
    # "explanation after the code: one sentence", "after the code block, at most 2 bullets"
    (
        r"(?:(?:text|prose|explanation|notes?|commentary|everything)\s+)?(?:after|below|"
        r"following)\s+the\s+(?:[a-z+#]+\s+)?(?:code(?:\s+block)?|snippet|dockerfile|script|"
        r"query|function|regex|yaml|json|sql)",
        "after_code",
    ),
    # "max 50 words outside the code", "the text outside the code block under 25 words"
    (
        r"(?:(?:text|prose|explanation|writing|commentary)\s+)?outside\s+(?:of\s+)?"
        r"(?:the\s+|any\s+)?(?:code(?:\s+blocks?)?|snippets?|fenced\s+blocks?)",
        "prose",
    ),
    (r"(?:first|opening|top)\s+line", "first_line"),
    (r"(?:last|final|closing|bottom)\s+line", "last_line"),
    # Not "the intro" or "the lead paragraph": a newsletter's intro may be two paragraphs, and a
    # press release's lead comes after its headline and deck (both wrong reads on dev files).
    (r"(?:first|opening|intro(?:ductory)?)\s+paragraph", "first_paragraph"),
    (r"(?:last|final|closing|concluding)\s+paragraph", "last_paragraph"),
    (r"(?:first|opening)\s+sentence", "first_sentence"),
    (r"(?:last|final|closing|concluding)\s+sentence", "last_sentence"),
)
_PART = re.compile(
    r"(?:\b(?:in|of|on|for|within|inside|to)\s+)?\b(?:the|your|its|their|my|this)?\s*"
    r"(?P<part>" + "|".join(f"(?:{pattern})" for pattern, _ in _PART_NAMES) + r")\b"
    r"(?![\s-]case\b)",  # "Title Case" names a letter case, not the title
    re.IGNORECASE,
)
_PART_NAMED = "|".join(f"(?:{pattern})" for pattern, _ in _PART_NAMES)
_PART_GLOSSED = re.compile(
    rf"\b(?P<part>{_PART_NAMED})\s*\(\s*"
    r"(?P<gloss>(?:(?:the|a|an|its)\s+)?[a-z]+(?:[- ][a-z]+){0,5})\s*\)"
    rf"|^\W*(?P<gloss2>(?:the\s+)?[a-z]+(?:[- ][a-z]+)?)\s*\(\s*(?:the\s+|its\s+)?"
    rf"(?P<part2>{_PART_NAMED})\s*\)",
    re.IGNORECASE,
)


def _gloss_dropped(match: re.Match[str]) -> str:
    """The part's name alone, when the words beside it only name it again ("the hook")."""
    gloss = match.group("gloss") or match.group("gloss2")
    if FORM_WORDS.search(gloss.casefold()) or is_negation(gloss.split()[0]):
        return match.group()  # "first line (no emojis)": a rule in brackets, not a name
    return match.group("part") or match.group("part2")


_SEVERAL = re.compile(r"\b(?:each|every|per|apiece)\b", re.IGNORECASE)
_ONLY_THERE = re.compile(r"\b(?:only|solely|exclusively|just)\s*$", re.IGNORECASE)
_THERE_ONLY = re.compile(r"\s*(?:only|alone)\b", re.IGNORECASE)
_COUNTED_TOO = re.compile(
    r"\s+(?:(?:also|too)\s+)?(?:counts?|is\s+counted|is\s+included|included)\b", re.IGNORECASE
)
# What the body already leaves out, said again beside it: "body under 60 words (not counting
# subject, greeting, sign-off)", "story body (title excluded)".
_LEFT_OUT = (
    r"(?:the\s+)?(?:e-?mail\s+)?(?:subject(?:\s+line)?|greeting|salutation|sign-?off|signature|"
    r"closing|title|headline|p\.?\s?s\.?|postscript)"
)
_LEFT_OUT_LIST = rf"{_LEFT_OUT}(?:\s*(?:,|and|or|&|/|\+)\s*{_LEFT_OUT})*"
_LEFT_OUT_OF_BODY = re.compile(
    rf",?\s*\(?\s*(?:not counting|excluding|without|minus|except(?: for)?|leaving out|apart from|"
    rf"aside from)\s+{_LEFT_OUT_LIST}\s*\)?"
    rf"|\(\s*{_LEFT_OUT_LIST}\s+(?:excluded|not counted|aside|do(?:es)?n't count|do(?:es)? not "
    rf"count)\s*\)",
    re.IGNORECASE,
)
# What a rule on a part can check: its words, characters and marks, how it starts and ends.
# Layout (headings, lists, paragraphs) is the whole text's: "the title is a markdown heading"
# is not a heading inside the title.
_IN_A_PART = frozenset(
    {"word_count", "character_count", "sentence_count", "emoji_count", "mark_count"}
    | {"ends_with_punctuation", "starts_with", "ends_with", "keywords_present", "keyword_count"}
    | {"keywords_forbidden", "all_capitals", "all_lowercase", "no_commas", "capital_word_count"}
    | {"hashtag_count", "url_count", "opens_with", "not", "number_count"}
    | {"closes_with"}  # an emoji last: "every line ends with an emoji"
)


_EVERY_BODY = re.compile(
    r"\b(?:each|every|all(?: the)?|per)\s+(?:bod(?:y|ies)(?=\s+text\b)|body\b|bodies\b)"
    r"(?!\s+(?:paragraph|sentence|line|item|bullet|section)s?\b)",
    re.IGNORECASE,
)


def in_a_part(description: str, parse: Parse) -> Check | None:
    """The criterion as a rule on one named part, when it names one and the rest reads whole."""
    if re.search(r"\bbody\b", description, re.IGNORECASE):
        description = _LEFT_OUT_OF_BODY.sub(" ", description)
    # "every body under 70 characters": `within` holds each line labelled "Body:" to the rule
    description = _EVERY_BODY.sub(" body", description)
    # "first line (the hook) under 50 characters", "Hook (first line) under 6 words": one part
    # under two names, the one in brackets the other's gloss
    description = _PART_GLOSSED.sub(_gloss_dropped, description)
    if _SEVERAL.search(description) or EACH_OUTPUT.search(description.casefold()):
        return None  # "every title", "no headline over 10 words": several outputs or parts
    found = [m for m in _PART.finditer(description) if not _quoted(description, m.start())]
    named = {_part_name(m) for m in found}
    if len(named) != 1:
        return None  # none, or two parts: "the title and the first line"
    part = named.pop()
    if any(
        _ONLY_THERE.search(description[: m.start()]) or _THERE_ONLY.match(description, m.end())
        for m in found
    ):
        # "Emoji only in the first line" places emojis: none elsewhere, maybe none at all
        return None
    if any(_COUNTED_TOO.match(description, m.end()) for m in found):
        return None  # "under 80 words (the title counts)": the part is counted in, not alone
    # One part, maybe named twice: "the body (between the greeting and the sign-off)".
    others = description
    for match in reversed(found):
        others = f"{others[: match.start()]} {others[match.end() :]}"
    rest = parse(re.sub(r"\(\s*\)", " ", others))
    if rest.check is None or rest.approximate or rest.permission:
        return None
    # The body and the text after the code hold paragraphs of their own; the latter a list too.
    # A subject line has a headline's letter case ("subject line in sentence case").
    own = {
        "body": _IN_THE_BODY,
        "after_code": _IN_A_SECTION,
        "subject": frozenset({"heading_case"}),
    }.get(part, frozenset())
    allowed = _IN_A_PART | own
    if not all(p.name in allowed and _inner_in(p, allowed) for p in parts(rest.check)):
        return None
    return within(part, rest.check)


# A section named by its heading, first in the criterion: "Summary section: two sentences or
# fewer", "the Notes section no longer than one sentence", "Changes section: three bullets max".
_SECTION = re.compile(
    r"^\W*(?:the\s+|your\s+)?(?P<name>(?!(?:each|every|any|one|a|an|the|first|last|opening|"
    r"closing|final|main|next|previous|this|that|which|per|no|some|other)\b)[A-Za-z][\w'&/-]*"
    r"(?:\s+[A-Za-z][\w'&/-]*){0,3}?)\s+section\b\s*(?:[:\-\u2013\u2014]\s*)?",
    re.IGNORECASE,
)
# What a section holds beside a part's words and marks: its own list and paragraphs.
_IN_A_SECTION = _IN_A_PART | {"bullet_count", "numbered_count", "paragraph_count", "line_count"}


# The section named last, by its heading: "Exactly 3 bullets under Goals", "no more than two
# sentences below the Summary heading". A capitalised or quoted name, or one said to be a heading.
_UNDER_SECTION = re.compile(
    r"\s+(?:under|below|beneath)\s+(?:the\s+)?"
    r"(?:(?P<name>[A-Z][\w'&/-]*(?:\s+[A-Z][\w'&/-]*){0,3})"
    r"|['\"\u2018\u201c](?P<quoted>[^'\"\u2019\u201d]+)['\"\u2019\u201d]"
    r"|(?P<plain>[a-z][\w'&/-]*(?:\s+[a-z][\w'&/-]*){0,2})(?=\s+(?:heading|header|section)\b))"
    r"(?:\s+(?:heading|header|section))?\W*$"
)


def in_a_section(description: str, parse: Parse) -> Check | None:
    """The criterion as a rule on the section it names first or last, when the rest reads whole."""
    if _SEVERAL.search(description):
        return None
    match = _SECTION.match(description)
    under = _UNDER_SECTION.search(description) if match is None else None
    if match is not None:
        name, said = match.group("name"), description[match.end() :]
    elif under is not None:
        name = under.group("name") or under.group("quoted") or under.group("plain")
        said = description[: under.start()]
    else:
        return None
    rest = parse(said)
    if rest.check is None or rest.approximate or rest.permission:
        return None
    if not all(p.name in _IN_A_SECTION and _inner_in(p, _IN_A_SECTION) for p in parts(rest.check)):
        return None
    return within(f"section:{name}", rest.check)


# A part the criterion names by a label of the reply's own, first in it: "Subheadline no longer
# than 20 words", "Preview text under 10 words", "verdict: one sentence", "TL;DR under 25 words".
_FIELD_WORD = r"[A-Za-z][\w;&'’/-]*"
_FIELD = re.compile(
    rf"^\W*(?:(?:the|your|our|its)\s+)?(?P<name>{_FIELD_WORD}(?:\s+{_FIELD_WORD}){{0,2}})"
    r"\s*(?:[:\u2013\u2014]|\s-\s|\s|$)\s*",
    re.IGNORECASE,
)
# Words that are no label: the text's own units and parts, which other readings know, and the
# verbs and adverbs a rule opens with ("Keep", "Limit", "Ideally").
_NO_FIELD = re.compile(
    r"(?:titles?|headlines?|subject|body|head(?:ing|er)s?|sections?|paragraphs?|paras?|"
    r"sentences?|lines?|bullets?|points?|lists?|items?|entr(?:y|ies)|tables?|columns?|rows?|"
    r"cells?|words?|characters?|chars?|letters?|emojis?|hashtags?|links?|urls?|code|blocks?|"
    r"snippets?|scripts?|quer(?:y|ies)|functions?|regex|sql|yaml|json|csv|markdown|html|"
    r"first|last|opening|closing|final|greeting|sign-?off|signature|ps|"
    r"limit|max|min|cap|start|begin|end|finish|close|open|ideally|preferably|approximately|"
    r"roughly|about|around|under|over|less|more|fewer|least|most|up|between|exactly|case|"
    r"tone|voice|style|register|wording|language|vocabulary|grammar|spelling|"
    # a rubric's verbs: "Covers three questions", "Lists 5 tips", "Names two sources"
    r"covers?|includes?|lists?|uses?|mentions?|gives?|names?|contains?|has|have|ends?|starts?|"
    r"begins?|opens?|closes?|asks?|cites?|explains?|describes?|offers?|provides?|states?|"
    r"shows?|answers?|addresses?|adds?|quotes?|tags?|spells?|wraps?|puts?|writes?|returns?)",
    re.IGNORECASE,
)
# Nouns that end a label's name rather than start the rule: "Meta description", "Preview text".
_LABEL_NOUNS = (
    r"(?:text|copy|description|message|content|notes?|line|field|label|caption|title|headline|"
    r"name|summary|blurb|statement|tags?)"
)
_LABEL_TAIL = re.compile(_LABEL_NOUNS, re.IGNORECASE)
# What follows a label's name: a colon or dash, a number, or a rule's first word ("Subheadline
# no longer than", "Abstract has to be", "CTA in Title Case"). Not "Tag it with", "Feel free".
_AFTER_LABEL = re.compile(
    rf"\s*(?:[:=\u2013\u2014\u2264<>\u2265]|-\s|\d|{_LABEL_NOUNS}\b|"
    r"(?:under|over|below|above|no|not|never|max(?:imum)?|min(?:imum)?|at|up|between|must|"
    r"should|shall|has|have|is|are|needs?|can|may|in|of|fewer|less|more|exactly|only|stays?|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|"
    r"fifty|sixty|seventy|eighty|ninety|hundred)(?:n['’]t)?\b|$)",
    re.IGNORECASE,
)
# What a label's value can be held to: as a section's, and the letter case of a headline.
_IN_A_FIELD = _IN_A_SECTION | {"heading_case"}


def in_a_field(description: str, parse: Parse) -> Check | None:
    """The criterion as a rule on the part a label of the reply names, when the rest reads whole.

    The label is a guess the output settles: a reply without a line or heading so named leaves
    the criterion to the judge (`within`'s `field:` part raises `CheckUndecided`).
    """
    if _SEVERAL.search(description):
        return None  # "Title of each notif", "one verdict per product": several, not one
    match = _FIELD.match(description)
    if match is None:
        return None
    names = match.group("name").split()
    for size in range(1, len(names) + 1):
        name = names[:size]
        word = name[-1].casefold()
        if is_negation(word) or re.fullmatch(CMP_ANY, word) or re.search(r"n['’]t$", word):
            return None
        if (word in FILLER or _NO_FIELD.fullmatch(word)) and (
            size == 1 or not _LABEL_TAIL.fullmatch(word)
        ):
            return None  # "Keep ...", "Body ...": other readings' words; "Meta title" is a label
        start = match.start("name") + len(" ".join(name))
        if not _AFTER_LABEL.match(description[start:]):
            continue  # "Tag it with 3 hashtags", "Short paragraphs": a verb or a word of manner
        rest = parse(re.sub(r"^\s*(?:[:\u2013\u2014]|-\s)", " ", description[start:]))
        if rest.check is None or rest.approximate or rest.permission:
            continue
        if rest.check.parts:
            return None  # "Ingredients bulleted and the steps numbered": two subjects, maybe
        label = name[0].casefold()
        if any(
            label in quoted.casefold() for quoted in re.findall(r"[\"“'‘]([^\"”'’]+)", description)
        ):
            return None  # 'The prerequisites line starts with "Prerequisites:"': the label itself
        # "Method: at most 6 steps" counts the entries under the label; "Checklist of 3 items",
        # "the agenda has six items" may be the whole text's
        labelled = re.match(r"\s*(?:[:\u2013\u2014]|-\s)", description[start:]) is not None
        allowed = _IN_A_FIELD | {"entry_count"} if labelled else _IN_A_FIELD
        if not all(p.name in allowed and _inner_in(p, allowed) for p in parts(rest.check)):
            return None
        # The nouns that end a label belong to it: "Meta description", "Preview text".
        tail = itertools.takewhile(lambda w: _LABEL_TAIL.fullmatch(w) is not None, names[size:])
        name += list(tail)
        return within(f"field:{' '.join(name)}", rest.check)
    return None


# A list named by what it holds, then a count of its items: "Feature list: 3 bullets", "the
# ingredients list has at most 8 items", "Responsibilities bullets: 5 max", "keep the
# what-to-bring list to 6 items".
_NAMED_LIST = re.compile(
    r"^\W*(?P<verb>(?:keep|limit|cap)\s+)?(?:the\s+|your\s+|our\s+)?"
    r"(?P<name>['\"\u2018\u201c][^'\"\u2019\u201d]{2,40}['\"\u2019\u201d]|"
    r"[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+"
    r"(?P<kind>list|bullets|bullet points|bulleted list)\b\s*",
    re.IGNORECASE,
)
# What names no list of its own: the kind of list, the whole of it, a part of the text.
_NO_LIST_NAME = re.compile(
    r"(?:a|an|the|this|that|each|every|any|whole|entire|full|main|final|first|last|one|single|"
    r"bulleted|numbered|ordered|unordered|nested|simple|short|long|markdown|plain|bullet|"
    r"use|make|write|give|add|include|format|formatted|as|in|no|not|never|only|just|"
    r"body|title|summary|text|answer|reply|response|output)",
    re.IGNORECASE,
)
_LIST_COUNTS = frozenset({"bullet_count", "numbered_count", "entry_count"})


def in_a_named_list(description: str, parse: Parse) -> Check | None:
    """The criterion as a count of the items of the list it names, when the rest reads whole."""
    match = _NAMED_LIST.match(description)
    if match is None:
        return None
    said = match.group("name")
    name = said.strip("'\"\u2018\u2019\u201c\u201d ").casefold()
    quoted = said != name and said[0] in "'\"\u2018\u201c"
    if not quoted and any(_NO_LIST_NAME.fullmatch(word) for word in name.split()):
        return None  # "the whole list", "numbered list": no list named by what it holds
    rest = description[match.end() :]
    if match.group("verb"):  # "keep the ingredient list to 6 items": keep it to 6 items
        rest = f"{match.group('verb')} it {rest}"
    read_rest = parse(rest)
    if read_rest.check is None and match.group("kind") != "list":
        # "Feature bullets: 5 max": the unit is in the name
        read_rest = parse(f"{match.group('kind')} {rest}")
    check = read_rest.check
    if check is None or read_rest.approximate or read_rest.permission or check.parts:
        return None
    if check.name not in _LIST_COUNTS or dict(check.args).get("noun") not in (None, name):
        return None
    return within(LIST_PART + name, check)


# A rule on every one of several pieces: "every bullet ends with a period", "each tip is 15 words
# or fewer", "each stanza has four lines". The noun names the unit: a sentence, a paragraph (or
# stanza), a line, a bullet point; any other noun ("tip", "step", "fact") is an entry.
_UNIT_NOUNS = (
    (r"sentences?", "sentence"),
    (r"paragraphs?|paras?|stanzas?", "paragraph"),
    (r"lines?", "line"),
    (r"bullet(?:ed)?(?:[- ]?(?:points?|items?|lines?))?|bullets", "item"),
)
# "for every reader", "to each customer" name whom the text is for, not pieces of it.
_EACH_PIECE = re.compile(
    r"(?<!\bfor )(?<!\bto )(?<!\bfrom )(?<!\bby )(?<!\bwith )(?<!\babout )"
    r"\b(?:(?P<all>each|every|all|both)\s+(?:single\s+)?(?:(?:one\s+)?of\s+(?:the|your|these)\s+)?"
    # "every reproduction step", "all the method steps": a word may say which
    r"(?:the\s+)?"
    # "one sentence per bullet": "per" and a piece, bare ("per the brief" names none)
    r"|(?P<per>per)\s+(?!(?:cent|se|capita|annum|hour|minute|second|person|user|head)\b))"
    r"(?P<noun>[a-z][a-z-]*(?:[- ](?:points?|items?|steps?|tips?|options?|entr(?:y|ies)|"
    r"questions?|clauses?|examples?|ideas?|reasons?|rules?|facts?))?)\b",
    re.IGNORECASE,
)
# Nouns "each" may name that are no entry: the text's other units, and words of time or number.
_NO_ENTRY = re.compile(
    r"(?:words?|characters?|letters?|head(?:ing|er)s?|titles?|headlines?|sections?|tables?|rows?|"
    r"columns?|emojis?|links?|hashtags?|marks?|cells?|other|time|times|one|day|week|month|year)$"
)
# What follows a label in an item ("**Deglaze**: add liquid to a hot pan"): an entry is the
# whole item, so a rule on "each definition" would judge the term too. Answers, descriptions
# and definitions are read as `glosses` (`_GLOSS_PIECE`); the rest stay with the judge.
_SECOND_PART = re.compile(
    r"(?:definition|description|explanation|meaning|answer|gloss|translation|value)s?"
)
_ACROSS_ALL = re.compile(
    r"\b(?:across|in|over|among|throughout|within|between|of|on)\s*$", re.IGNORECASE
)
# Steps named as a label: "Steps: 15 words or shorter" holds each step to it. Alone, "steps"
# may be the whole text ("write the steps"), so it is no field's name (`in_a_field`).
_STEPS_LABEL = re.compile(r"^\W*(?:the\s+)?(?:steps|instructions)\s*:", re.IGNORECASE)
_EACH_AGAIN = re.compile(r"[\s,]*\b(?:each|apiece)\b(?=\W*$)", re.IGNORECASE)
# Pieces named in the plural, then "each" at the end: "tips under 12 words each", "reasons
# should be one sentence apiece".
_PLURAL_EACH = re.compile(
    r"^\W*(?:(?:are|do)\s+)?(?:the\s+|your\s+|all\s+(?:the\s+)?)?(?P<noun>[a-z][a-z-]*s)\b"
    r"(?=.*\b(?:each|apiece)\W*$)",
    re.IGNORECASE,
)
_GLOSS_KINDS = (
    (r"answer", "answer"),
    (r"description|explanation", "description"),
    (r"definition|meaning", "definition"),
)
_GLOSS_NOUN = r"(?:answer|description|explanation|definition|meaning)"
# "each answer under 20 words", "every definition starts with a capital", "answers: 2 sentences
# max", "descriptions under 12 words each", "are all the answers 25 words or under?". Not "the
# answer": that is the reply itself.
_GLOSS_PIECE = re.compile(
    rf"\b(?:each|every)\s+(?:single\s+)?(?P<noun>{_GLOSS_NOUN})\b"
    rf"|^\W*(?:(?:are|is|do|does)\s+)?"
    rf"(?:(?:all|all the|all of the|the|your|keep (?:all|every|the))\s+)?"
    rf"(?P<plural>{_GLOSS_NOUN}s)\b(?!\s+(?:and|or|of|to|for)\b)"
    rf"|\b(?:keep|make)\s+(?:all\s+(?:the\s+)?|every\s+|the\s+)(?P<kept>{_GLOSS_NOUN}s?)\b",
    re.IGNORECASE,
)
# The body of a letter or an ad has paragraphs and lines of its own: "two paragraphs between the
# greeting and the sign-off".
_IN_THE_BODY = frozenset({"paragraph_count", "line_count"})
# What a rule on each piece can check: as on a part, plus the lines of a stanza.
_IN_EACH = _IN_A_PART | {"line_count"}


def for_each(description: str, parse: Parse) -> Check | None:
    """The criterion as a rule on every piece of a kind, when it names one and the rest reads whole.

    Several outputs ("each tweet", `EACH_OUTPUT`) stay with the model, as does a noun that is a
    rule's own unit ("each word capitalised") or no noun at all ("5 bullets, each under 10
    words", which the count rules read).
    """
    outputs = _unquoted(_OUTPUT_PIECE, description)
    if len(outputs) == 1:
        return _each_output(outputs[0], description, parse)
    groups = _unquoted(_SECTION_PIECE, description)
    if len(groups) == 1:
        return _each_section(groups[0], description, parse)
    second = _unquoted(_GLOSS_PIECE, description)
    if len(second) == 1:
        noun = next(n for n in second[0].groups() if n).casefold()
        kind = next(kind for pattern, kind in _GLOSS_KINDS if re.match(pattern, noun))
        return _on_each(kind, second[0], description, parse, flip=False)
    steps = _STEPS_LABEL.match(description)
    if steps is not None:
        return _on_each("entry", steps, description, parse, flip=False)
    # "don't end any bullet with a period" is "no bullet ends with a period"
    description = _NEVER_EDGE.sub(
        lambda m: f"no {m.group('noun')} {m.group('verb')}s {m.group('prep')}", description
    )
    found = [m for m in _EACH_PIECE.finditer(description) if not _quoted(description, m.start())]
    # "No step longer than 20 words": every step at most 20 words.
    nones = [m for m in _NO_PIECE.finditer(description) if not _quoted(description, m.start())]
    plural = [m for m in _PIECES_EDGE.finditer(description) if not _quoted(description, m.start())]
    plural = [] if found or nones else plural  # "all bullets end with...": "all" names them
    if not found and not nones and not plural and (each_after := _PLURAL_EACH.match(description)):
        noun = each_after.group("noun").casefold()
        if _singular(noun) in FILLER or _NO_ENTRY.match(noun) or EACH_OUTPUT.search(noun):
            return None
        kind = _unit_of(noun) or ("item" if noun.endswith("items") else "entry")
        return _on_each(kind, each_after, description, parse, flip=False)
    if len(found) + len(nones) + len(plural) != 1 or EACH_OUTPUT.search(read(description).text):
        return None
    if plural:
        return _each_of_plural(plural[0], description, parse)
    match = (found or nones)[0]
    noun = match.group("noun").casefold()
    counted = nones and match.group("edge") is None
    if counted and (_unit_of(noun) is not None or noun in FILLER or _NO_ENTRY.match(noun)):
        return None  # "no sentence longer than 20 words": the count rules read their units
    many = (match.group("all") or "").casefold() in ("all", "both")  # "all the steps", "both"
    if _ACROSS_ALL.search(description[: match.start()]) and many:
        return None  # "2 emojis across all the options": a total over them, not each one's
    unit = _unit_of(noun)
    if unit is None:
        # "all the steps": the plural names the pieces, though "steps" alone may be the text
        named = _singular(noun) if many else noun
        if named in FILLER or _NO_ENTRY.match(noun) or _all_of_a_kind(match, noun):
            return None  # "all caps", "each under 10 words", "every word": no pieces named
        if re.match(r"(?:" + CMP_ANY + r")\b", noun) or is_negation(noun):
            return None
        if _SECOND_PART.fullmatch(noun):
            return None  # "every definition" of "**Term**: definition" items is after the colon
        unit = "entry"
    return _on_each(unit, match, description, parse, flip=bool(nones))


# One piece of a kind, named in the singular: "any bullet", "a line".
_ONE_PIECE = (
    r"(?:bullet(?:ed)?[- ]point|bullet|list item|item|line|sentence|paragraph|stanza|step|entry)"
)
_NEVER_EDGE = re.compile(
    r"\b(?:do\s+not|don't|never|must\s+not|should\s+not|shouldn't|mustn't)\s+"
    r"(?P<verb>end|start|begin|finish|close|open)\s+(?:any|a|a\s+single|one)\s+(?:single\s+)?"
    rf"(?P<noun>{_ONE_PIECE})\s+(?P<prep>with|in|on)\b",
    re.IGNORECASE,
)


def _singular(noun: str) -> str:
    return re.sub(r"ies$", "y", noun) if noun.endswith("ies") else noun.removesuffix("s")


def names_steps(description: str) -> bool:
    """Whether the criterion opens with steps as its label: "Steps: 15 words or shorter"."""
    return _STEPS_LABEL.match(description) is not None


def _all_of_a_kind(match: re.Match[str], noun: str) -> bool:
    """Whether "all" names no pieces: "all caps", "all lowercase"; "all the tips" does."""
    if (match.group("all") or "").casefold() not in ("all", "both"):
        return False
    return not noun.endswith("s") or noun in ("caps", "capitals", "letters", "lowercase")


def _on_each(
    unit: str,
    match: re.Match[str],
    description: str,
    parse: Parse,
    *,
    flip: bool,
    allowed: frozenset[str] = _IN_EACH,
) -> Check | None:
    """`each(unit, rule)` when the criterion without the words `match` names reads whole."""
    # "answers ≤ 2 sentences each": the pieces are named, so a closing "each" says it again
    after = description[match.end() :]
    if flip:  # "no step can go over 15 words": the "can" of a prohibition grants nothing
        after = re.sub(r"^\s*(?:can|may|could|should|must|will|shall)\s+", " ", after)
    said = f"{description[: match.start()]} {after}"
    rest = parse(_EACH_AGAIN.sub("", said))
    if rest.check is None or rest.approximate or rest.permission:
        return None
    pieces = parts(rest.check)
    if any(dict(p.args).get("per") for p in pieces):
        return None
    if not all(p.name in allowed and _inner_in(p, allowed) for p in pieces):
        return None
    if any(p.name == "line_count" for p in pieces) and unit not in ("paragraph", "section"):
        return None  # lines are counted in a stanza or a section, not in a line or an entry
    if unit == "sentence" and any(p.name == "sentence_count" for p in pieces):
        return None
    return each(unit, _flipped(rest.check) if flip else rest.check)


def _unquoted(pattern: re.Pattern[str], description: str) -> list[re.Match[str]]:
    return [m for m in pattern.finditer(description) if not _quoted(description, m.start())]


def _each_section(match: re.Match[str], description: str, parse: Parse) -> Check | None:
    """A rule on what each heading holds: "max 5 items per category", "each day: 3 bullets"."""
    if _IN_TOTAL.search(description):
        return None  # "one line per day, five lines in total": a second rule, on the whole
    flip = match.group("none") is not None
    return _on_each("section", match, description, parse, flip=flip, allowed=_IN_EACH_SECTION)


# "Max 10 words each", "each <50 chars", "under 50 characters each (mobile cuts them off)": an
# "each" that names no piece, said of the several outputs the reply was asked for.
_BARE_EACH = re.compile(
    r"\b(?P<bare>each)\b(?=\s*(?:[,;.(\u2013\u2014-]|$))"
    r"|^\W*(?P<lead>each)\s+(?=[<\u2264]|under\b|below\b|max|at most\b|no more\b|up to\b|\d)",
    re.IGNORECASE,
)


def for_each_output(description: str, parse: Parse) -> Check | None:
    """The criterion as a rule on each output, when its "each" names no piece.

    Tried after every other scope, so "bullets under 10 words each" stays per bullet.
    """
    found = _unquoted(_BARE_EACH, description)
    if len(found) != 1:
        return None
    read = _on_each("output", found[0], description, parse, flip=False, allowed=_IN_AN_OUTPUT)
    if read is None or read.scoped is None or read.scoped.parts:
        return None  # "up to 3 links, no more than 5 words each": each link, not each output
    return read


def _each_output(match: re.Match[str], description: str, parse: Parse) -> Check | None:
    """A rule on each of several outputs: "each tagline max 6 words", "no tweet over 280 chars"."""
    flip = match.group("none") is not None
    return _on_each("output", match, description, parse, flip=flip, allowed=_IN_AN_OUTPUT)


# An output may be a headline or a subject line, its own title: "headlines in Title Case".
_IN_AN_OUTPUT = _IN_EACH | {"heading_case"}


# The readings whose pieces an output may not mark, so that the check raises `CheckUndecided`.
_UNMARKED_UNITS = frozenset({"output", "section", "answer", "description", "definition"})


def may_be_undecided(check: Check) -> bool:
    """Whether `check` may find the pieces it reads unmarked and leave the text to the judge.

    Several outputs, what each heading holds, the second half of each entry, the text after
    the code, a title that may be a long first line, SQL keywords: a criterion read whole that
    reached the judge was one of these.
    """
    for piece in parts(check):
        args = dict(piece.args)
        inner = piece.scoped or piece.negated
        if piece.name == "each" and args.get("unit") in _UNMARKED_UNITS:
            return True
        if piece.name == "within" and str(args.get("part", "")).startswith("field:"):
            return True
        if piece.name == "within" and args.get("part") == "title":
            return True  # a first line standing alone but long may be the title (`within`)
        if (piece.name == "within" and args.get("part") == "after_code") or (
            piece.name == "sql_keywords"
        ):
            return True
        if inner is not None and may_be_undecided(inner):
            return True
    return False


def _each_of_plural(match: re.Match[str], description: str, parse: Parse) -> Check | None:
    """The rule, read without its pieces, on each: "bullet points shouldn't end with a period"."""
    group = next(name for name in ("noun", "noun2", "noun3", "noun4") if match.group(name))
    pieces = match.group(group).casefold()
    unit = _unit_of(pieces) or ("item" if pieces.endswith("items") else "entry")
    start, end = match.span(group)
    if group == "noun2" and match.group("whose"):
        start = match.start("whose")  # "the changelog bullets": both words name the pieces
    rest = parse(f"{description[:start]} {description[end:]}")
    if rest.check is None or rest.approximate or rest.permission:
        return None
    if not all(p.name in _IN_EACH and _inner_in(p, _IN_EACH) for p in parts(rest.check)):
        return None
    return each(unit, rest.check)


def _unit_of(noun: str) -> str | None:
    return next((name for pattern, name in _UNIT_NOUNS if re.fullmatch(pattern, noun)), None)


_NO_PIECE = re.compile(
    # "no bullet point should end with...": a compound noun is one piece
    r"\b(?P<all>no)\s+(?:single\s+)?(?P<noun>[a-z][a-z-]*(?:\s+(?:points?|items?))?)\s+"
    r"(?=(?:(?:is|goes|runs|has|contains|"
    r"(?:should|may|can|must|will|shall)\s+(?:be|go|run|have|contain|get))\s+)?(?:longer|more|"
    r"over|shorter|fewer|less|exceeds?|exceed|above|under|below)\b"
    # "no bullet ends with a period", "no line starts with 'And'": every piece, the other way
    r"|(?P<edge>(?:(?:should|may|can|must|will)\s+)?(?:ends?|starts?|begins?|opens?|closes?)\s+"
    r"(?:with|in|on)\b))",
    re.IGNORECASE,
)
# Pieces named in the plural as what starts or ends: "bullet points shouldn't end with a period",
# "no period at the end of the bullets" is a rule on each bullet, not on the text's last mark.
_PLURAL_PIECES = (
    r"(?:bullet(?:ed)?[- ]points|bullets|list items|items|lines|sentences|paragraphs|stanzas|steps|"
    r"entries)"
)
_PIECES_EDGE = re.compile(
    rf"^\W*(?:(?:the|your|all|all the)\s+)?(?P<noun>{_PLURAL_PIECES})(?=\s+(?:(?:should|must|may|"
    rf"can|will|need to|have to|do|does)(?:n't|\s+not)?\s+)?(?:never\s+)?(?:all\s+)?"
    rf"(?:end|start|begin|open|close|finish)\b"
    # "bullets without end punctuation", "bullets: no trailing periods": none on any of them
    rf"|(?:\s*:\s*|\s+(?:(?:should|must|need to|have to)\s+)?(?:have|has|get|carry|are|be)?\s*)"
    rf"(?:no|without|free of)\s+[^.;:]*?(?:\bat\s+the\s+(?:very\s+)?(?:ends?|start|beginning)\b|"
    rf"\b(?:trailing|end|ending|terminal)\s+(?:punctuation|periods?|full\s+stops?)\b))"
    rf"|\b(?:at|to)\s+the\s+(?:very\s+)?(?:ends?|start|beginning)\s+of\s+(?:(?:the|any|your|all)\s+)?"
    # "at the end of the changelog bullets": a word naming whose pieces they are
    rf"(?:of\s+the\s+)?(?:(?P<whose>[a-z-]+)\s+)?(?P<noun2>{_PLURAL_PIECES})\b"
    # "at the end of any bullet", "at the start of a line": one piece, any of them
    rf"|\b(?:at|to)\s+the\s+(?:very\s+)?(?:end|start|beginning)\s+of\s+(?:any|a|a\s+single)\s+"
    rf"(?P<noun4>{_ONE_PIECE})\b"
    rf"|\b(?:trailing\s+\w+|(?:end|ending|terminal)\s+punctuation)(?:\s+marks?)?\s+"
    rf"(?:on|in|after|for)\s+(?:(?:the|any|your|all)\s+)?"
    rf"(?P<noun3>{_PLURAL_PIECES})\b",
    re.IGNORECASE,
)
_BOUNDS = ("at_most", "more_than", "at_least", "fewer_than", "less_than", "exactly")


def _flipped(check: Check) -> Check:
    """The rule that no piece may break: "longer than 20 words" on none is at most 20 on each."""
    args = dict(check.args)
    bounds = [key for key in args if key in _BOUNDS]
    flipped = bound(bounds[0], True) if len(bounds) == 1 and not check.parts else None
    if flipped is None or check.negated is not None:
        return negate(check)
    rest = {k: v for k, v in args.items() if k != bounds[0]}
    return create(check.name, **rest, **{flipped: args[bounds[0]]})


def ignores_each(check: Check) -> bool:
    """Whether a whole reading of a criterion with a stray "each" misses that it is per piece.

    "Every bullet ends with a period" holds words the whole-text rules read ("ends with a
    period", "bullet"), and "each <50 chars" a length, but each is a rule on every piece. A rule
    that means the same on every piece as on the whole ("no emojis in each tip", "write every
    number in digits") keeps its reading.
    """
    pieces = parts(check)
    if any(dict(p.args).get("per") or dict(p.args).get("marker") for p in pieces):
        return False  # the rule reads the "each" itself: "3 sections, each starting 'SECTION X'"
    if any(p.name == "each" for p in pieces):
        return False  # ... or is a rule on each already: "all items are unchecked boxes"
    return not same_for_each(pieces)


def each_one(description: str, found: tuple[Check, ...]) -> re.Match[str] | None:
    """A case rule on the several outputs asked for, not headings: "Title Case on every one".

    Read on the criterion as written: the grammar's own reading turns "every one" into "each".
    """
    if not any(p.name == "heading_case" for check in found for p in parts(check)):
        return None
    return re.search(r"\b(?:each|every)\s+(?:single\s+)?one\b(?!\s+of\b)", description, re.I)


def several_outputs(text: str, found: tuple[Check, ...]) -> re.Match[str] | None:
    """The words that name several outputs the rules are about, when no whole-text check fits.

    "Each tweet under 280 characters" always; a plural subject ("answers three words max",
    "no full stops at the end of the taglines") unless the rules mean the same for each as for
    all ("answers in English"). Headlines or titles in the plural are the outputs themselves,
    which a heading check does not see: "headlines in Title Case" of six listed ad headlines.
    """
    each = EACH_OUTPUT.search(text)
    if each is not None:
        return each
    several = SEVERAL_SUBJECT.search(text)
    if several is None:
        return None
    if re.search(r"headlines|titles", several.group()) and any(
        p.name == "heading_case" for check in found for p in parts(check)
    ):
        return several
    return None if same_for_each(found) else several


def same_for_each(checks: tuple[Check, ...]) -> bool:
    """Whether the rules mean the same on every piece as on the whole text."""
    singles = [p for check in checks for p in parts(check)]
    return all(p.name in _SAME_FOR_EACH or dict(p.args).get("exactly") == 0 for p in singles)


def has_stray_each(rest: str, text: str) -> bool:
    """Whether a whole reading may have missed a rule on every piece.

    An "each" or "every" is left in what no rule read (`rest`), or "all the bullets" is said in
    the criterion (`text`).
    """
    return (
        _STRAY_EACH.search(rest) is not None
        or _ALL_PIECES.search(text) is not None
        or _PIECES_EDGE.search(text) is not None
    )


_STRAY_EACH = re.compile(r"\b(?:each|every)\b")
# "All bullets end with a period": the rule words read "bullets" as a list, but "all" makes it
# one on each.
_ALL_PIECES = re.compile(
    r"\ball\s+(?:the\s+|of\s+the\s+)?(?:bullet(?:ed)?(?: points| items)?s?|sentences|paragraphs|"
    r"lines|stanzas|list items|items|steps|entries)\b"
)
# Rules on every character, word or number of the text, which no piece can break alone.
_SAME_FOR_EACH = frozenset(
    {"number_style", "all_lowercase", "all_capitals", "date_format", "time_format"}
    | {"heading_case", "language", "keywords_forbidden", "no_commas", "key_case"}
)


# A rule said of what is inside blocks of a kind: "no emojis in headings", "bullets without
# links", "headings with no bold", "headings end with a colon". Read whole, it is two rules
# (none in the text, at least one such block); it means one on those blocks: list items are
# pieces of their own (`each`), other blocks have none, so that rule stays with the judge.
_BLOCKS = (
    r"(?P<kind>(?:sub)?head(?:ing|er)s|bullet(?:ed)?(?:[- ]points|[- ]items)?|bullets|"
    r"list items|(?:numbered\s+)?lists|tables|code blocks|snippets)"
)
_INSIDE_BLOCKS = re.compile(
    rf"\b(?:in|on|inside|within|into|across)\s+(?:the\s+|any\s+|all\s+(?:the\s+)?|your\s+|"
    rf"its\s+)?{_BLOCKS}\b"
    rf"|^\W*(?:the\s+|all\s+(?:the\s+)?|your\s+)?{_BLOCKS.replace('kind', 'kind2')}\s+"
    r"(?:(?:should|must|need to|have to|may|can)\s+)?(?:be\s+)?(?:without|with no|with zero|"
    r"have no|has no|contain no|containing no|free of|carry no|(?:do|does|should|must|may|can)"
    r"(?:n'?t| not)\s+(?:have|contain|include|use|carry)"
    # "headings end with a colon": how each one ends, not the text
    r"|(?:(?:do|does|should|must|may|can|will)(?:n'?t|\s+not)?\s+)?(?:never\s+)?"
    r"(?:ends?|starts?|begins?|opens?|closes?|finish(?:es)?)\s+(?:with|in|on))\b",
    re.IGNORECASE,
)
_HAS_BLOCKS = frozenset(
    {"heading_count", "bullet_count", "numbered_count", "table_count", "code_block_count"}
)


def inside_blocks(description: str, check: Check) -> Check | None:
    """`check` when it is not a rule said of what is inside blocks; else that rule, or None.

    "No emojis in bullets" reads as `emoji_count(exactly=0)` and `bullet_count(at_least=1)`:
    the rule is on each item ("bullets without emojis" asks for bullets too). Of headings,
    tables or code it stays with the judge.
    """
    match = _INSIDE_BLOCKS.search(description)
    if match is None or _quoted(description, match.start()):
        return check
    pieces = parts(check)
    present = [p for p in pieces if p.name in _HAS_BLOCKS and dict(p.args).get("at_least") == 1]
    if not present or len(pieces) < 2 or check.options:
        return check
    kind = (match.group("kind") or match.group("kind2")).casefold()
    rest = [p for p in pieces if p not in present]
    if re.match(r"bullet|list items", kind) and all(p.name in _IN_EACH for p in rest):
        on_each = each("item", rest[0] if len(rest) == 1 else all_of(*rest))
        # "Bullets without emojis" asks for the bullets too; "no emojis in bullets" does not
        return all_of(*present, on_each) if match.group("kind2") else on_each
    return None


# The kind of text a house rule is for, said after it: "emojis are a no-go for incident
# messages", "no exclamation marks in customer emails". Of a rule that holds the same in each of
# them as in all ("none anywhere"), the reply is one such text; not of a count ("under 50 words
# in product descriptions" may be each one's), nor of its parts ("no emojis in headings").
_KIND_OF_TEXT = re.compile(
    r"\s+(?:in|for|on)\s+(?:(?:a|an|the|our|all|any|every)\s+)?(?:[a-z][a-z-]*\s+){0,2}"
    r"(?:messages|e-?mails|posts|repl(?:y|ies)|responses|tweets|updates|letters|docs|documents|"
    r"pages|communications|comms|announcements|alerts|notices|tickets|comments|articles|"
    r"newsletters|threads|chats|texts|sms|reviews|bios|descriptions|listings|ads|adverts|"
    r"notifications|memos|reports|leaflets|flyers|scripts)\W*$",
    re.IGNORECASE,
)


def for_a_kind_of_text(description: str, parse: Parse) -> Check | None:
    """The rule without the kind of text it is said to be for, when it holds the same in each."""
    match = _KIND_OF_TEXT.search(description)
    if match is None or _quoted(description, match.start()):
        return None
    rest = parse(description[: match.start()])
    if rest.check is None or rest.approximate or rest.permission:
        return None
    return rest.check if same_for_each((rest.check,)) else None


# "Exactly fifty words, not counting the title", "under 100 words (excluding the greeting and
# the sign-off)": the rule is on the body.
_FRAME = (
    r"(?:the\s+|a\s+|its\s+)?(?:title|headline|heading|greeting|sign-?off|signature|"
    r"subject(?:\s+line)?)"
)
_LESS_THE_FRAME = re.compile(
    rf"\s*[,;(—–-]?\s*(?:excluding|not counting|not including|without counting|apart from|"
    rf"aside from|except(?:\s+for)?)\s+{_FRAME}(?:\s*(?:,|and|or)\s*{_FRAME})*\s*\)?"
    # "title not included", "(greeting and sign-off don't count)"
    rf"|\s*[,;(—–-]?\s*{_FRAME}(?:\s*(?:and|\+|&)\s*{_FRAME})?\s+(?:(?:is|are)\s+)?(?:not\s+(?:counted|"
    rf"included)|excluded|aside|(?:does|do)(?:n'?t|\s+not)\s+count(?:\s+towards?\s+(?:it|this))?)"
    rf"\s*\)?",
    re.IGNORECASE,
)


def sets_the_frame_aside(description: str) -> bool:
    """Whether a rule sets the title, greeting or sign-off aside: "100 words, title not included".

    Read whole, "title not included" would be a rule against a title.
    """
    return any(
        re.search(r"\w", description[: m.start()]) and not _quoted(description, m.start())
        for m in _LESS_THE_FRAME.finditer(description)
    )


def less_the_frame(description: str, parse: Parse) -> Check | None:
    """The criterion as a rule on the body, when it sets the title, greeting or sign-off aside."""
    found = [
        m for m in _LESS_THE_FRAME.finditer(description) if not _quoted(description, m.start())
    ]
    if len(found) != 1:
        return None
    match = found[0]
    aside = match.group().casefold()
    title = re.search(r"title|headline|heading", aside) is not None
    letter = re.search(r"greeting", aside) is not None and re.search(r"sign-?off|signature", aside)
    if title == bool(letter):
        return None  # the body sets aside the title, or the greeting and the sign-off: exactly
    rest = parse(f"{description[: match.start()]} {description[match.end() :]}")
    if rest.check is None or rest.approximate or rest.permission:
        return None
    allowed = _IN_A_PART | _IN_THE_BODY
    if not all(p.name in allowed and _inner_in(p, allowed) for p in parts(rest.check)):
        return None
    return within("body", rest.check)


# What a rule sets aside, so that it is one on the rest of the text: the code ("under 80 words,
# not counting the code", "explanation under 65 words (code not counted)", "explanation outside
# the code block: at most 50 words") or the hashtags ("caption text (hashtags excluded) under 30
# words", "keep the caption itself, hashtags aside, under 45 words").
_CODE = r"(?:the\s+|any\s+)?code(?:\s+(?:blocks?|snippets?|samples?|itself))?"
_TAGS = r"(?:the\s+|any\s+|all\s+)?hash ?tags?"
_AWAY = (
    r"excluding|not counting|not including|without counting|apart from|aside from|"
    r"except(?:\s+for)?|ignoring|leaving out"
)
_LEFT_AWAY = r"not counted|excluded|aside|does(?:n't| not) count|do(?:n't| not) count|ignored"


def _set_aside(what: str, more: str = "") -> re.Pattern[str]:
    return re.compile(
        rf"\s*[,;(—–-]?\s*(?:{_AWAY}{more})\s+{what}\s*\)?"
        rf"|\s*[,;(—–-]?\s*{what}\s+(?:{_LEFT_AWAY})\s*[,)]?",
        re.IGNORECASE,
    )


_PROSE = r"(?:explai?nations?|prose|commentary|text|words)"
# The rest of the text named as the rule's subject: "explanation outside the code block:",
# "explanation:", "caption text", "the caption itself".
_SET_ASIDE: tuple[tuple[re.Pattern[str], re.Pattern[str] | None, re.Pattern[str], str], ...] = (
    (
        _set_aside(_CODE),
        re.compile(
            rf"^\W*(?:the\s+|your\s+|any\s+)?{_PROSE}\s+(?:outside|beyond|around|other than)\s+"
            rf"(?:of\s+)?{_CODE}\s*(?:[:\-–—,]\s*)?",
            re.IGNORECASE,
        ),
        re.compile(rf"^\W*(?:the\s+|your\s+)?{_PROSE}\b\s*(?:[:\-–—]\s*)?", re.IGNORECASE),
        "prose",
    ),
    (
        _set_aside(_TAGS, more=r"|before|above"),
        None,
        re.compile(
            r"^\W*(?:keep\s+)?(?:the\s+|your\s+)?(?:caption|post|tweet|text|copy)"
            r"(?:\s+(?:text|copy))?(?:\s+itself)?\b\s*(?:[:\-–—,]\s*)?",
            re.IGNORECASE,
        ),
        "without_hashtags",
    ),
)


def less_what_is_set_aside(description: str, parse: Parse) -> Check | None:
    """The criterion as a rule on the text less its code or hashtags, when it sets them aside."""
    for aside, outside, named, part in _SET_ASIDE:
        found = [m for m in aside.finditer(description) if not _quoted(description, m.start())]
        before = outside.match(description) if outside is not None else None
        if len(found) + (before is not None) != 1:
            continue
        if before is not None:
            rest = description[before.end() :]
        else:
            cut = found[0]
            rest = named.sub(" ", f"{description[: cut.start()]} {description[cut.end() :]}")
        parsed = parse(rest)
        if parsed.check is None or parsed.approximate or parsed.permission or parsed.stray_each:
            return None
        allowed = _IN_A_PART | _IN_THE_BODY
        if not all(p.name in allowed and _inner_in(p, allowed) for p in parts(parsed.check)):
            return None
        return within(part, parsed.check)
    return None


def _part_name(match: re.Match[str]) -> str:
    said = match.group("part").casefold()
    return next(name for pattern, name in _PART_NAMES if re.fullmatch(pattern, said))


def _inner_in(check: Check, allowed: frozenset[str]) -> bool:
    inner = check.negated
    return inner is None or (inner.name in allowed and _inner_in(inner, allowed))


def _quoted(text: str, position: int) -> bool:
    """Whether `position` is inside a quoted phrase ('Title: ...' names no part)."""
    before = re.sub(r"(?<=\w)['’](?=\w)", "", text[:position])  # "don't" holds no quote
    return before.count("'") % 2 == 1 or before.count('"') % 2 == 1


# What a text is divided into under headings: "per day", "under each category", "every
# section". Not "each heading" alone: "each heading under 5 words" is the heading's own words.
_GROUP_NOUNS = (
    r"(?:sections?|categor(?:y|ies)|groups?|days?|weeks?|courses?|phases?|stages?|themes?|"
    r"topics?|meals?|rooms?|slides?|sessions?|modules?|lessons?|chapters?|segments?|"
    r"releases?|subsections?)"
)
_SECTION_PIECE = re.compile(
    rf"(?:\b(?:per|(?:under|in|for|within)\s+(?:each|every|any)|(?<!\bfor )(?<!\bto )each|"
    rf"(?<!\bfor )(?<!\bto )every)\s+(?:single\s+)?(?P<noun>{_GROUP_NOUNS})\b"
    rf"|\b(?:per|(?:under|in|within)\s+(?:each|every|any))\s+(?:heading|header|subheading)s?\b"
    # "No group should have more than 3 tasks": every group at most 3
    rf"|\bno\s+(?P<none>{_GROUP_NOUNS})\s+(?=(?:(?:should|may|can|must|will)\s+)?"
    rf"(?:has|have|holds?|contains?|gets?|lists?)\s+(?:more|over|above)\b))"
    r"(?:'s|\s*[:=\-\u2013\u2014])?",
    re.IGNORECASE,
)
_IN_TOTAL = re.compile(r"\b(?:in total|total|overall|altogether|in all|combined)\b", re.IGNORECASE)
# What a rule on each section can check: as on a named section, plus entries in the user's noun.
_IN_EACH_SECTION = _IN_A_SECTION | {"entry_count"}


# Outputs a reply holds several of, each standing alone ("five tagline options"): a rule on
# each reads them as `outputs` (the items of one list, or blocks each opened by a label), and
# the judge decides when the reply does not mark them apart. Not answers, descriptions or
# definitions: those are often the second half of an entry ("**Q:** ... A: ...").
_STANDALONE = (
    r"(?:tweet|post|caption|headline|title|tagline|slogan|subject[- ]line|option|variant|"
    r"version|message|sms|text message|dm|notification|ad|idea|bio|hook|quote|update|"
    r"announcement|e-?mail|comment|reply|review)"
)
_OUTPUT_PIECE = re.compile(
    rf"\b(?:each|every|per|any)\s+(?:single\s+)?(?:(?:one\s+)?of\s+(?:the|your|these)\s+)?"
    rf"(?:the\s+)?(?:[a-z-]+\s+)?(?P<noun>{_STANDALONE}s?)\b"  # "each greeting option"
    # "Taglines under 6 words", "captions: no hashtags": a plural subject, one rule on each
    rf"|^\W*(?:(?:are|do|did|were)\s+)?(?:(?:the|your|all|all the|all of the|both)\s+)?"
    rf"(?P<plural>{_STANDALONE}s)\b"
    r"(?!\s+(?:and|or)\b)"
    # "No tweet longer than 280 characters": every tweet at most 280
    rf"|\bno\s+(?:single\s+)?(?:[a-z-]+\s+)?(?P<none>{_STANDALONE})\s+(?=(?:(?:is|should be|"
    r"may be|can be|must be)\s+)?(?:longer|more|over|exceeds?|goes|runs|above)\b)"
    # "no full stops at the end of the taglines", "at most 3 hashtags in the tweets": named
    # after a preposition, one rule on each
    rf"|\b(?:of|on|in|for|to)\s+(?:the|your|both|any of the)\s+"
    rf"(?P<after>{_STANDALONE}s)\b"
    # "Title Case on every one", "each one under 8 words": the ones the reply was asked for
    r"|\b(?:on\s+|for\s+|in\s+)?(?:each|every)\s+(?:single\s+)?one\b(?!\s+of\b)",
    re.IGNORECASE,
)
# "Each tweet must include a hashtag": several outputs, each held to the rule, where a check
# reads the text as one.
_OUTPUT_NOUNS = (
    r"(?:response|answer|reply|output|draft|poem|haiku|essay|summary|story|e-?mail|letter|post|"
    r"tweet|note|description|review|message|bio|slogan|tagline|caption|headline|title|version|"
    r"variant|option|ad|idea|sms|text message|dm|notification|subject line)s?"
)
# "No title longer than 8 words" bounds every title, as "each title" does: several of them.
EACH_OUTPUT = re.compile(
    rf"\b(?:each|every|per)\s+(?:single\s+|one of the\s+)?{_OUTPUT_NOUNS}\b"
    # "no emojis in any subject line": several of them, where "any response" is the one
    r"|\bany\s+(?:of the\s+)?(?:subject lines?|tweets?|headlines?|captions?|slogans?|taglines?|"
    r"variants?|options?|versions?|sms|(?:text )?messages?|notifications?)\b"
    rf"|\bno\s+(?:single\s+)?{_OUTPUT_NOUNS}\s+(?:(?:is|should be|may be|can be)\s+)?"
    r"(?:longer|shorter|more|over|under|above|below|exceeds?|goes|runs|has|have|with)\b"
)
# "Answers three words max": a plural subject names several outputs too, unless the rule means
# the same for each as for all ("answers in English").
_SEVERAL_NOUNS = (
    r"(?:answers|responses|replies|outputs|drafts|tweets|captions|slogans|taglines|headlines|"
    r"titles|descriptions|bios|posts|messages|emails|versions|variants|options|ideas|texts)"
)
# ... and so does one named after a preposition: "no full stops at the end of the taglines".
SEVERAL_SUBJECT = re.compile(
    rf"^(?:(?:are|is|do|does|did|were)\s+)?(?:all\s+)?(?:the\s+|your\s+)?{_SEVERAL_NOUNS}\b"
    rf"|\b(?:of|on|in|for|across|to)\s+(?:the|your|all|all the|all of the|both|any of the)\s+"
    rf"{_SEVERAL_NOUNS}\b"
)


def parts(check: Check) -> tuple[Check, ...]:
    """The single checks in `check`: the parts of `all_of`, the options of `any_of`."""
    combined = check.parts or check.options
    return tuple(p for part in combined for p in parts(part)) if combined else (check,)


def is_negation(word: str) -> bool:
    return bool(re.fullmatch(NEG + r"|not", word))


# A reply's own kind named as the rule's subject, in a word that also names a piece of a longer
# reply: "the summary is one sentence" of a summary, or of a report with a "**Summary:**" line.
_NAMED_PIECE = re.compile(
    # "the summary is one sentence", "Summary: 2 sentences or fewer"
    r"(?:^\W*|\b(?:the|your|its|this|that)\s+)(?P<noun>summary|description|explanation|caption|blurb|bio|"
    r"statement|note)\b(?!\s+(?:line|section|field|paragraph|sentence|part)s?\b)(?![-'’])",
    re.IGNORECASE,
)


def said_of_a_named_piece(description: str, check: Check) -> Check:
    """`check` held by the piece a reply labels with the noun the rule names, if it has one.

    Read as the whole text, "every number in the summary is a numeral" would hold a report's
    details to it too; a reply that is the summary has no such label, and the whole text is it.
    """
    found = [m for m in _NAMED_PIECE.finditer(description) if not _quoted(description, m.start())]
    nouns = {m.group("noun").casefold() for m in found}
    if len(nouns) != 1 or check.scoped is not None:
        return check
    return within(TEXT_PART + nouns.pop(), check)
