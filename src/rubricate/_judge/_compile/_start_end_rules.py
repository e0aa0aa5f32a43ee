"""The grammar's rules for how the text starts and ends.

A quoted phrase first or last ("start with 'Dear'", "the last line is 'Thanks'"), a closing
mark ("end with a question"), a question or a greeting first, a paragraph's first words, a
sign-off, a postscript. Each rule is a pattern and a builder that turns its match into a
catalogue check, or `None` when the words do not settle one.
"""

from __future__ import annotations

import re

from ..._exceptions import RubricError
from ...checks import Check, any_of, create, negate, within
from ...checks._start_end import ANY_MARK
from ._vocabulary import (
    FILLER,
    ORDINAL,
    ORDINAL_WORDS,
    SIZE_FOLLOWS,
    Reading,
    about_a_piece,
)

__all__ = [
    "ACROSTIC",
    "EMOJI_EDGE",
    "END_MARK",
    "END_PHRASE",
    "NAMED_LAST_LINE",
    "NO_END_MARK",
    "OPENING",
    "PARAGRAPH_START",
    "POSTSCRIPT",
    "SIGN_OFF",
    "SIGN_OFF_PHRASE",
    "START_PHRASE",
    "SUBJECT_FIRST",
    "acrostic_rule",
    "emoji_edge_rule",
    "end_mark_rule",
    "end_phrase_rule",
    "hashtags_last_rule",
    "named_last_line_rule",
    "opening_rule",
    "paragraph_start_rule",
    "postscript_rule",
    "sign_off_phrase_rule",
    "sign_off_rule",
    "start_phrase_rule",
    "subject_first_rule",
]


# Words between "end" and "with" that name what ends: the whole output ("end the email with"),
# never a part of it ("end each bullet with", "end the title with"), which no check here reads.
_PARTS = (
    r"titles?|headlines?|headings?|headers?|subject|bullets?|items?|points?|entries|steps?|"
    r"sentences?|paragraphs?|paras?|lines?|sections?|lists?|stanzas?|verses?|chapters?|parts?|"
    r"intro\w*|conclusion|body|each|every|all|first|second|third|last|final|\d+\w*"
)
_WHOLE_GAP = rf"(?:\s+(?!with\b|by\b|(?:{_PARTS})\b)[a-z']+){{0,2}}?"
_ENDING = (
    r"(?:ends?|ending|finish(?:es|ing)?|close[sd]?|closing|conclude[sd]?|concluding|"
    r"wrap(?:s|ping)? up|sign(?:s|ing)? off)"
)
_MARK_WORDS = {
    "?": r"(?:an? )?(?:(?:follow[- ]up|open[- ]ended|rhetorical|final|short|direct|engaging) )?"
    r"questions?(?: mark)?|(?:a )?question mark",
    "!": r"(?:an? )?exclamation(?: mark| point)?",
    ".": r"(?:a )?(?:periods?|full stops?|dots?)",
    "…": r"(?:an? )?(?:ellipsis|three dots)",
    ":": r"(?:a )?colon",
    ";": r"(?:a )?semi-?colon",
    ",": r"(?:a )?comma",
    # "ends with a punctuation mark", "no end punctuation": any mark (`ANY_MARK`)
    ANY_MARK: r"(?:an? |any )?punctuation(?: marks?)?",
}
# The group each mark is read into, in the order they are tried; `NO_END_MARK`'s are `q2`...
_MARK_GROUPS = {"q": "?", "x": "!", "p": ".", "e": "…", "c": ":", "s": ";", "m": ",", "a": ANY_MARK}
END_MARK = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:(?:{_ENDING}){_WHOLE_GAP}\s+(?:with|on|in|by asking|by posing|(?P<neg4>without))\s+|"
    rf"(?:the )?(?:last|final|closing) (?:sentence|line|part) (?:(?:is|should|must|has to|"
    rf"needs to|will|can|may)\s+(?:(?P<neg2>not)\s+)?(?:be\s+)?)"
    rf")"
    rf"(?:{'|'.join(f'(?P<{key}>{_MARK_WORDS[mark]})' for key, mark in _MARK_GROUPS.items())})"
    rf"(?:\s+(?:for|to) (?:the|your) [a-z]+)?"
)
# "No period at the end (of the subject line)", "lines end without punctuation": read before
# "no question marks" is a count.
_NO_MARKS = (
    ("q2", r"question marks?"),
    ("x2", r"exclamation (?:marks?|points?)"),
    ("p2", r"periods?|full stops?"),
    ("e2", r"ellipsis"),
    ("c2", r"colons?"),
    ("s2", r"semi-?colons?"),
    ("m2", r"commas?"),
    ("a2", r"punctuation(?: marks?)?"),
)
_NO_MARK_WORDS = "(?:" + "|".join(f"(?P<{key}>{words})" for key, words in _NO_MARKS) + ")"
NO_END_MARK = re.compile(
    rf"(?:(?P<neg3>no|without(?:\s+an?|\s+any)?)\s+"
    rf"(?=(?:{'|'.join(words for _, words in _NO_MARKS)})\s+at\s+the\s+(?:very\s+)?end\b)"
    rf"|(?:ends?|ending|finish(?:es|ing)?)\s+(?P<neg4>without)(?:\s+an?|\s+any)?\s+)"
    rf"{_NO_MARK_WORDS}(?:\s+at\s+the\s+(?:very\s+)?end\b)?"
)


# What a text, or each piece a scope names, is: "one sentence ending with a period". ("a question
# ending in a question mark" reads "ends with a question mark ending in..." by then.)
_WHOLE_KIND = re.compile(r"sentences?|questions?|lines?|paragraphs?|statements?|phrases?|marks?")


def end_mark_rule(match: re.Match[str], reading: Reading) -> Check | None:
    # "a bold label ending in a colon": the participle says how the label ends, not the text;
    # "one sentence ending with a period" is said of the text, or of each piece the scope names
    before = re.search(r"([a-z][a-z'-]*)\s*$", reading.read[: match.start()])
    if (
        match.group().startswith("ending")
        and before is not None
        and before.group(1) not in FILLER
        and not _WHOLE_KIND.fullmatch(before.group(1))
    ):
        return None
    found = match.groupdict()
    mark = next(m for key, m in _MARK_GROUPS.items() if found.get(key) or found.get(f"{key}2"))
    check = create("ends_with_punctuation", mark=mark)
    negated = found.get("neg") or found.get("neg2") or found.get("neg3") or found.get("neg4")
    return negate(check) if negated else check


# More quoted phrases, alternatives to the first: "start with 'Yes' or 'No'".
_MORE = r"(?P<more>(?:\s*,?\s*(?:or\s+)?q\d+)*)"


def _phrases(match: re.Match[str], first: str, reading: Reading) -> list[str] | None:
    """The quoted phrases of a start or end rule: one, or alternatives joined by "or".

    A list without "or" ("start with 'A', 'B'") says neither all nor one of: `None`.
    """
    more = match.group("more") or ""
    if more and not re.search(r"\bor\b", more):
        return None
    quoted = [reading.quote(first)] + [reading.quote(q) for q in re.findall(r"q\d+", more)]
    phrases = [p for p in quoted if p and p.strip()]
    return phrases if len(phrases) == len(quoted) else None


_PHRASE_LEAD = (
    r"(?:(?:with|on|by saying|by writing|using)\s+)(?:exactly\s+)?(?:the\s+)?(?:exact\s+)?"
    r"(?:(?:phrase|words?|sentence|line|text|sign-?off|greeting|question)\s+)?"
)
# A name after the closing: "... and then your name", "and the sender's full name on the line
# below it", "followed by my name on its own line".
_AND_NAME = (
    r"(?P<named>\s*,?\s*(?:and|followed by|then)\s+(?:then\s+)?(?:put\s+|add\s+|sign\s+)?"
    r"(?:the\s+|my\s+|your\s+|a\s+|her\s+|his\s+|their\s+|our\s+)?(?:[a-z]+'s\s+)?"
    r"(?:full\s+|first\s+)?name(?:\s+and\s+(?:title|role|job title))?"
    r"(?:\s+(?:on\s+(?:the\s+)?(?:next|following)\s+line|on\s+the\s+line\s+(?:below|under|after)"
    r"(?:\s+it)?|below(?:\s+it)?|under(?:neath)?(?:\s+it)?|on\s+(?:its|their|a)\s+own\s+line"
    r"|after\s+it))?)?"
)
END_PHRASE = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:{_ENDING}){_WHOLE_GAP}\s+{_PHRASE_LEAD}(?P<q>q\d+){_MORE}{_AND_NAME}"
    rf"(?:\s*,?\s*(?:with\s+)?(?:no|nothing)\s+(?:other\s+|more\s+)?(?:words?|text)?\s*"
    rf"(?:after|following|afterwards?)(?:\s+(?:it|that|this))?)?"
    rf"|(?:the\s+)?(?:last|final|closing)\s+(?:words?|line|sentence)\s+"
    rf"(?:is|are|should be|must be|reads?)"
    rf"\s+(?P<q2>q\d+)"
)


def end_phrase_rule(match: re.Match[str], reading: Reading) -> Check | None:
    phrases = _phrases(match, match.group("q") or match.group("q2"), reading)
    if not phrases:
        return None
    sign_off = re.match(r"sign", match.group()) or re.search(r"sign-?off\s+q\d+", match.group())
    named = match.group("named") is not None
    options = []
    for phrase in phrases:
        if phrase.strip() in ("?", "!", ".", "...", "…"):
            if named:
                return None
            options.append(create("ends_with_punctuation", mark=phrase.strip()))
        elif sign_off or named:
            # "Sign off with 'Best'": the closing line is the phrase, a name may follow it;
            # "end with 'Kind regards,' and then your name": one must.
            options.append(create("has_sign_off", phrase=phrase, named=named))
        else:
            options.append(create("ends_with", phrase=phrase))
    check = any_of(*options)
    return negate(check) if match.group("neg") else check


_STARTING = r"(?:starts?|starting|begins?|beginning|opens?|opening|kick(?:s|ing)?\s+off)"
START_PHRASE = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"{_STARTING}{_WHOLE_GAP}\s+{_PHRASE_LEAD}(?P<q>q\d+){_MORE}"
    rf"|(?:the\s+)?first\s+(?:words?|line|sentence)\s+(?:is|are|should be|must be|reads?)\s+"
    rf"(?:exactly\s+)?(?P<q2>q\d+)"
    # "Greeting should be 'Hi Sam,'", "Salutation exactly 'Dear Ms. Okafor,'": how it opens
    rf"|(?:the\s+)?(?:greeting|salutation)(?:\s+line)?\s*(?:[:=\u2013\u2014-]\s*)?"
    rf"(?:(?:is|should be|must be|has to be|needs to be|reads?|should read|must read|says?)\s+)?"
    rf"(?:exactly\s+)?"
    rf"(?P<q4>q\d+)"
    rf"|(?:first|start by|begin by|before answering,?)\s+"
    rf"(?:repeat(?:s|ing)?|restat(?:e|es|ing)|cop(?:y|ies|ying))\s+"
    rf"(?:the|this|my|your)?\s*(?:request|question|prompt|instruction|task)\b[^q]*?(?P<q3>q\d+)"
)


def start_phrase_rule(match: re.Match[str], reading: Reading) -> Check | None:
    said = match.group("q") or match.group("q2") or match.group("q3") or match.group("q4")
    phrases = _phrases(match, said, reading)
    if not phrases:
        return None
    check = any_of(*(create("starts_with", phrase=phrase) for phrase in phrases))
    return negate(check) if match.group("neg") else check


# A question or a greeting first: "open with a question", "begin by greeting the reader".
OPENING = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:{_STARTING}{_WHOLE_GAP}\s+(?:with|by)\s+(?:asking\s+)?(?:an?\s+)?"
    rf"(?:(?:short|direct|engaging|friendly|warm|rhetorical|polite)\s+)?"
    rf"(?P<kind>question|greeting|(?:capital|upper[- ]?case)\s+letters?\b|capital"
    rf"|(?P<verb>(?:(?:action|imperative|command)\s+)?verb\b|(?:the\s+)?imperative\b)"
    rf"|(?P<lower>(?:lower[- ]?case|small)\s+letters?\b))(?:\s+line)?"
    rf"|{_STARTING}\s+(?P<lower2>lower[- ]?case)\b"
    rf"|(?:the\s+)?(?:first|opening)\s+(?:sentence|line)\s+(?:is|should be|must be)\s+"
    rf"(?:an?\s+)?(?P<kind2>question|greeting)"
    rf"|(?:the\s+)?first\s+(?:letter|word)\s+(?:is\s+|should be\s+|must be\s+)?"
    rf"(?:in\s+)?(?:a\s+)?(?P<kind3>capital(?:i[sz]ed)?|upper[- ]?case)"
    rf"|(?P<kind4>capitali[sz]e)\s+the\s+first\s+(?:letter|word))"
    rf"(?:\s+(?:to|for) (?:the|your) [a-z]+)?"
)


_AND_MORE = re.compile(
    r"\s*(?:,\s*)?(?:and|or|&|\+|plus|followed by|then)\s+(?:an?|the|one|some|\d+)\b"
)


def opening_rule(match: re.Match[str], reading: Reading) -> Check | None:
    kind = match.group("kind") or match.group("kind2") or "capital"
    if kind not in ("question", "greeting") and about_a_piece(match, reading):
        return None  # "headings start with a capital letter": not the text's first letter
    if _AND_MORE.match(reading.text, match.end()):
        return None  # "start with a capital letter and a number": a second opening, unread
    if match.group("verb"):
        kind = "verb"
    elif match.group("lower") or match.group("lower2"):
        kind = "lowercase"
    elif kind not in ("question", "greeting"):
        kind = "capital"
    check = create("opens_with", kind=kind)
    return negate(check) if match.group("neg") else check


# An emoji first or last: "each bullet starts with an emoji", "end every caption with an emoji",
# "an emoji at the start of each line"; read with the piece it is about, as `each`.
EMOJI_EDGE = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:(?P<start>{_STARTING})|{_ENDING}){_WHOLE_GAP}\s+(?:with|on|in)\s+"
    r"(?:an?\s+|1\s+|a\s+single\s+|its\s+own\s+)?(?:(?:relevant|fitting|matching|small)\s+)?"
    r"emojis?\b"
    r"|\b(?:an?\s+|1\s+)emoji\s+(?:at|as)\s+the\s+(?:very\s+)?"
    r"(?:(?P<start2>start|beginning|first\s+character)|end|last\s+character)\b"
)


def emoji_edge_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if _AND_MORE.match(reading.text, match.end()):
        return None  # "start with an emoji and a bold label": a second opening, unread
    start = match.group("start") or match.group("start2")
    check = create("opens_with" if start else "closes_with", kind="emoji")
    return negate(check) if match.group("neg") else check


# Bold first: "each bullet starts with a bolded label", "start each bullet with the percentage
# in bold", "bold the key term at the start of each bullet", "each step starting with a short
# bolded action". Read with the piece it is about ("each bullet"), as `each`.
_LEAD_WORDS = (
    r"(?:label|term|word|words|phrase|name|title|keyword|heading|action|verb|number|figure|"
    r"percentage|date|time|lead-?in|summary|tag)"
)
_BOLD_STARTING = r"(?:starts?|starting|begins?|beginning|opens?|opening|leads?|leading)"
# "followed by a colon", "and a colon inside the bold": the bold words are a label
_COLON_AFTER = (
    r"(?P<colon>\s*,?\s*(?:followed\s+by|then|and|with|plus)\s+(?:a\s+)?colon"
    r"(?:\s+(?:inside|within|in)\s+the\s+bold)?)?"
)
BOLD_START = re.compile(
    rf"(?:{_BOLD_STARTING}\s+(?:with\s+)?(?:an?\s+|its\s+|the\s+|their\s+)?(?:short\s+)?"
    rf"(?:bold(?:ed|face)?|in\s+bold)\s+{_LEAD_WORDS}"
    rf"|{_STARTING}\s+(?:with\s+)?(?:an?\s+|its\s+|the\s+|their\s+)?(?:key\s+)?{_LEAD_WORDS}"
    r"\s+(?:in\s+bold|bold(?:ed)?)"
    rf"|\bbold\s+(?:the\s+|its\s+|a\s+)?(?:key\s+|first\s+)?{_LEAD_WORDS}\s+at\s+the\s+"
    r"(?:start|beginning)\s+of)"
    rf"{_COLON_AFTER}"
)


def bold_start_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("opens_with", kind="bold_label" if match.group("colon") else "bold")


PARAGRAPH_START = re.compile(
    rf"(?:the\s+)?(?:paragraph\s+(?P<n>\d+)|(?P<ord>{ORDINAL})\s+paragraph)\s+"
    rf"(?:should\s+|must\s+|has to\s+|will\s+)?{_STARTING}\s+{_PHRASE_LEAD}(?P<q>q\d+)"
)


def paragraph_start_rule(match: re.Match[str], reading: Reading) -> Check | None:
    phrase = reading.quote(match.group("q"))
    if match.group("n"):
        number = int(match.group("n"))
    else:
        ordinal = match.group("ord")
        number = (
            ORDINAL_WORDS.index(ordinal) + 1
            if ordinal in ORDINAL_WORDS
            else int(re.sub(r"\D", "", ordinal))
        )
    if not phrase:
        return None
    return create("paragraph_starts_with", paragraph=number, phrase=phrase)


POSTSCRIPT = re.compile(
    r"(?:(?:ends?|ending|finish(?:es)?|close[sd]?)\s+with\s+|(?:add|adds|include|includes|with|has|have)\s+)?"
    r"(?:a\s+)?\b(?:postscript|p\.\s?s\.?|ps)\b(?:\s+(?:section|note|line))?"
    r"(?:\s+(?:starting|beginning|that starts|that begins|marked|labell?ed|opening)\s+with\s+"
    r"(?:the\s+)?(?:marker\s+)?(?P<q>q\d+))?"
    r"(?:\.?\s+(?:at the (?:end|bottom)|after (?:the|your) (?:signature|sign-?off|name)))?"
)


def postscript_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if not match.group("q") and SIZE_FOLLOWS.match(reading.text, match.end()):
        return None  # "P.S. ≤ 25 words": a rule on the postscript (`in_a_part`)
    marker = reading.quote(match.group("q"))
    try:
        return create("has_postscript", marker=marker) if marker else create("has_postscript")
    except RubricError:
        return None


_SIGN_OFF_NOUN = (
    r"(?:(?:proper|polite|friendly|short|warm|formal|professional|closing)\s+)?"
    r"(?:sign-?off|valediction|closing (?:line|phrase|greeting))"
)
SIGN_OFF = re.compile(
    rf"(?:\b(?:{_ENDING}|sign(?:s|ing)? off){_WHOLE_GAP}\s+(?:with|on|using)\s+"
    rf"(?:an?\s+|the\s+|your\s+)?{_SIGN_OFF_NOUN}(?:\s+line)?"
    rf"|\b(?:include|includes|add|adds|has|have|with|needs?|contains?|uses?)\s+"
    rf"(?:an?\s+|the\s+)?{_SIGN_OFF_NOUN}(?:\s+(?:at the (?:end|bottom)))?){_AND_NAME}"
)


def sign_off_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("has_sign_off", **({"named": True} if match.group("named") else {}))


# The sign-off named by its words: "use 'Yours sincerely' as the sign-off", "the sign-off
# should be 'Best,'". The closing line is the phrase; a name may follow it.
SIGN_OFF_PHRASE = re.compile(
    r"\b(?:use|uses|using|with|put)\s+(?P<q>q\d+)\s+as\s+(?:the\s+|your\s+|a\s+)?"
    r"(?:sign-?off|closing(?:\s+line)?|valediction)"
    r"|\b(?:the\s+)?(?:sign-?off|sign off|closing line|valediction)\s*(?:[:=]\s*|(?:is|should be|"
    r"must be|reads?|has to be|needs to be|as)\s+(?:exactly\s+)?)(?P<q2>q\d+)"
)


def sign_off_phrase_rule(match: re.Match[str], reading: Reading) -> Check | None:
    phrase = reading.quote(match.group("q") or match.group("q2"))
    return create("has_sign_off", phrase=phrase) if phrase and phrase.strip() else None


# The first letters of the lines spell a word: "the first letters of the lines spell SPRING",
# "first letter of each line spells out RAIN", "an acrostic of the word 'HOPE'", "acrostic poem
# spelling SPRING", "the initial letters of every line form the word Autumn".
_LINES = r"(?:the\s+|each\s+|every\s+|all\s+(?:the\s+)?|its\s+)?(?:lines?|verses?|rows?)"
ACROSTIC = re.compile(
    rf"(?:(?:the\s+)?(?:first|initial|opening|starting|beginning)\s+letters?\s+(?:of\s+)?{_LINES}"
    rf"(?:\s*,?\s*(?:read\s+)?(?:down(?:wards?)?|from top to bottom|top to bottom|in order)\s*,?)?"
    rf"|(?:an?\s+|the\s+)?acrostic(?:\s+poem)?(?:\s+(?:of|for|on))?)"
    rf"\s*(?:(?:must|should|will|has to|have to|to)\s+)?"
    rf"(?:(?P<verb>spelling|spelled|spells|spell|spelt|forming|forms|form|reading|reads|read)\b)?"
    rf"(?:\s+out)?\s*:?\s*"
    rf"(?P<named>the\s+(?:word|name)\s+)?(?P<word>q\d+|[a-z][a-z-]*)\b"
    r"(?:\s*,?\s*(?:in order|from top to bottom|top to bottom|downwards?))?"
)


def acrostic_rule(match: re.Match[str], reading: Reading) -> Check | None:
    """The word as written; a bare word counts only when it is spelt, named or in capitals.

    "An acrostic poem for kids" names no word: "kids" is neither after "spell", nor "the
    word", nor quoted, nor written in capitals.
    """
    token = match.group("word")
    quoted = reading.quote(token)
    if quoted is not None:
        word = quoted
    else:
        written = re.search(rf"\b{re.escape(token)}\b", reading.original, re.IGNORECASE)
        word = written.group() if written else token
        if not (match.group("verb") or match.group("named") or word.isupper()):
            return None
    try:
        return create("acrostic", word=word)
    except RubricError:
        return None


def hashtags_last_rule(match: re.Match[str], reading: Reading) -> Check | None:
    """Where the reading found the hashtags placed last (`HASHTAGS_LAST`)."""
    return create("hashtags_at_end", own_line=bool(match.group("own")))


# A line named by what it holds, said to come last: "the RSVP line is the last line", "Total
# line last", "the disclaimer line at the very end". The last line holds that word.
_NOT_A_NAME = (
    r"(?!(?:last|final|first|each|every|one|a|an|the|blank|empty|new|single|own|next|"
    r"subject|title|heading|opening|closing|top|bottom)\b)"
)
NAMED_LAST_LINE = re.compile(
    rf"^\W*(?:the\s+|your\s+)?{_NOT_A_NAME}(?P<name>[a-z][\w&-]*)\s+line\s+"
    r"(?:(?:is|should be|must be|has to be|needs to be|comes?|goes|sits|appears?)\s+)?"
    r"(?:(?:the\s+)?(?:very\s+)?(?:last|final)(?:\s+(?:line|one))?|at\s+the\s+(?:very\s+)?"
    r"(?:end|bottom))(?=\W*$)"
)


def named_last_line_rule(match: re.Match[str], reading: Reading) -> Check | None:
    name = match.group("name")
    said = re.search(rf"\b{re.escape(name)}\b", reading.original, re.IGNORECASE)
    return within(
        "last_line", create("keywords_present", keywords=[said.group() if said else name])
    )


# An e-mail's subject line: "start with a subject line", "include a subject line", "has a
# 'Subject:' line at the top".
SUBJECT_FIRST = re.compile(
    r"^\W*(?:(?:start|begin|open)s?\s+with|(?:include|includes|add|has|have|with|needs?|give it|"
    r"put)|there\s+is)\s+an?\s+(?:(?:e-?mail\s+)?subject(?:\s*:)?(?:\s+line)?|q\d+\s+line)"
    r"(?:\s+(?:at the top|first|on top|on the first line))?(?=\W*$)"
    r"|^\W*(?:the\s+)?subject\s+line\s+(?:comes\s+)?(?:first|at the top|on top)(?=\W*$)"
)


def subject_first_rule(match: re.Match[str], reading: Reading) -> Check | None:
    quoted = re.search(r"\bq(\d+)\b", match.group())
    said = reading.quotes[int(quoted.group(1))] if quoted else "subject:"
    if not re.fullmatch(r"\s*subject(?: line)?\s*:?\s*", said, re.IGNORECASE):
        return None  # "has a 'Re: renewal' line": what the line says, which this does not read
    return create("opens_with", kind="subject")
