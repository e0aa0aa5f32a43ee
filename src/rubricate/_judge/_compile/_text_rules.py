"""The grammar's rules without a number: title, case, start and end, keywords, formats.

A title, letter case (of the text or its headings), how the text starts and ends (a phrase,
a mark, a question, a greeting, a sign-off), keywords and quoted marks, quotes around the text,
JSON, a date format, numbers in digits or words, a language, a postscript. Each rule is a pattern
and a builder that turns its match into a catalogue check, or `None` when the words do not
settle one.
"""

from __future__ import annotations

import re

from ..._exceptions import RubricError
from ...checks import Check, all_of, create, negate
from ._vocabulary import (
    CMP_ANY,
    LANGUAGE_CODES,
    LANGUAGE_NAMES,
    NEG,
    ORDINAL,
    ORDINAL_WORDS,
    Reading,
    bound,
    cmp_key,
    is_mark,
)

__all__ = [
    "CLOCK",
    "DATE",
    "END_MARK",
    "END_PHRASE",
    "FORBIDDEN",
    "HEADING_CASE",
    "JSON",
    "LANGUAGE",
    "NUMBER_STYLE",
    "ONE_OF",
    "OPENING",
    "PARAGRAPH_START",
    "POSTSCRIPT",
    "PRESENT_WORDS",
    "QUOTES_AROUND",
    "SIGN_OFF",
    "START_PHRASE",
    "TIMES_RULE",
    "TITLE",
    "TITLE_ANGLE",
    "WHOLE_CASE",
    "angle_rule",
    "clock_rule",
    "date_rule",
    "end_mark_rule",
    "end_phrase_rule",
    "forbidden_rule",
    "heading_case_rule",
    "json_rule",
    "language_rule",
    "number_style_rule",
    "one_of_rule",
    "opening_rule",
    "paragraph_start_rule",
    "postscript_rule",
    "present_words_rule",
    "quotes_rule",
    "sign_off_rule",
    "start_phrase_rule",
    "times_rule",
    "title_rule",
    "whole_case_rule",
]


# One word naming which title or date ("the product title", "the due date"): not a verb, a
# negation, an ordinal or a word that is a rule of its own.
_QUALIFIER = (
    rf"\b(?!(?:{NEG}|not|use|uses|using|in|with|write|written|set|is|are|be|and|or|any|all|each|"
    rf"every|{ORDINAL}|last|final|section|sub|title|headings?|headlines?|dates?)\b)[a-z]+(?:'s)?"
)


TITLE_ANGLE = re.compile(
    r"(?:(?:a |the )?title\s+)?(?:(?:wrapped|enclosed|written|placed|put)\s+)?(?:in|inside|within|"
    r"between)\s+(?:double\s+)?(?:angular|angle) brackets"
    r"(?:\s*,?\s*(?:like|such as|e\.g\.,?)\s+<<[^>]*>>)?"
    r"|(?:a |the )?title\s+(?:like|such as|as in|in the form)?\s*<<[^>]*>>|<<[^>]*>>"
)
# A title is read as a rule only after a verb of having or adding ("has a title", "give it a
# title", "start with a heading"): "keep the title under 8 words" is about the title, not a rule
# that there be one, and the leftover "title" then keeps that criterion from being decided.
TITLE = re.compile(
    r"\b(?:(?P<neg>not|never|no|without)\s+(?:\w+\s+){0,2}?)?"
    r"(?:(?:starts?|begins?|opens?|starting|beginning|opening)(?:\s+[a-z]+){0,2}?\s+with|"
    r"has|have|having|with|include[sd]?|including|add(?:s|ed)?|put|needs?|contains?|uses?|"
    r"provides?|gives?(?:\s+[a-z]+){0,2}?|there is|there should be|own)\s+"
    r"(?:(?:a|the|its|an?)\s+)?"
    r"(?:(?:short|clear|catchy|descriptive|bold|markdown|proper)\s+)?(?:title|heading|headline)"
    r"(?:\s+(?:line|at the top|on the first line|on top|first|above it))?\b"
    r"|\b(?:titled|entitled)\b"
)


def title_rule(match: re.Match[str], reading: Reading) -> Check | None:
    check = create("has_title")
    return negate(check) if match.groupdict().get("neg") else check


def angle_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("has_title", angle_brackets=True)


_CASE_NAMES = {"title": "title", "sentence": "sentence", "lower": "lower", "upper": "upper"}
HEADING_CASE = re.compile(
    r"(?:(?P<neg1>not|never)\s+(?:\w+\s+){0,2}?)?"
    rf"(?:(?:all |every |each |the |its |their )?(?:{_QUALIFIER} )?(?:title|headings?|headers?|"
    rf"subheadings?|headlines?|section (?:titles|headings))\s+(?:(?:must|should|will|can|are|is|"
    rf"be|to|do|does|use|uses|follow|follows|written|set|in)\s+|(?P<neg2>not|never)\s+){{0,4}})?"
    r"(?:in |use |using |with |written in )?(?P<case>title|sentence|lower|upper)[- ]?case"
    rf"(?:\s+(?:(?:for|in|on)\s+)?(?:the |all |every |each |its )?(?:{_QUALIFIER} )?(?:title|"
    rf"headings?|headers?|subheadings?|headlines?|section titles|section headings?))?"
)


def heading_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    case = match.group("case")
    scoped = re.search(
        r"\b(?:title|heading|header|subheading|headline)",
        match.group()
        .replace(f"{case} case", "")
        .replace(f"{case}-case", "")
        .replace(f"{case}case", ""),
    )
    if case in ("lower", "upper") and not scoped:
        return None  # the whole text: the case rule reads it
    check = create("heading_case", case=case)
    return negate(check) if match.group("neg1") or match.group("neg2") else check


WHOLE_CASE = re.compile(
    r"(?:(?P<neg>not|never)\s+(?:\w+\s+){0,3}?)?"
    r"(?:(?:all|entirely|only|completely|wholly|fully|solely|exclusively)\s+)?(?:in\s+)?"
    r"(?:(?P<lower>lower[- ]?case|small letters)|(?P<upper>upper[- ]?case|capital letters|capitals|"
    r"all caps|all-caps|caps|block capitals|block letters))"
    r"(?:\s+(?:letters?|characters?))?(?:\s+(?:only|throughout|at all))?"
    r"(?:\s*[;,]?\s*no (?:capital|upper[- ]?case|uppercase) letters?(?: at all)?)?"
)


def whole_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    check = create("all_lowercase" if match.group("lower") else "all_capitals")
    return negate(check) if match.group("neg") else check


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
    ".": r"(?:a )?(?:period|full stop|dot)",
    "…": r"(?:an? )?(?:ellipsis|three dots)",
}
END_MARK = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:(?:{_ENDING}){_WHOLE_GAP}\s+(?:with|on|in|by asking|by posing)\s+|"
    rf"(?:the )?(?:last|final|closing) (?:sentence|line|part) (?:(?:is|should|must|has to|"
    rf"needs to|will|can|may)\s+(?:(?P<neg2>not)\s+)?(?:be\s+)?)"
    rf")"
    rf"(?:(?P<q>{_MARK_WORDS['?']})|(?P<x>{_MARK_WORDS['!']})|(?P<p>{_MARK_WORDS['.']})|"
    rf"(?P<e>{_MARK_WORDS['…']}))"
    rf"(?:\s+(?:for|to) (?:the|your) [a-z]+)?"
)


def end_mark_rule(match: re.Match[str], reading: Reading) -> Check | None:
    mark = next(
        m for key, m in (("q", "?"), ("x", "!"), ("p", "."), ("e", "…")) if match.group(key)
    )
    check = create("ends_with_punctuation", mark=mark)
    return negate(check) if match.group("neg") or match.group("neg2") else check


_PHRASE_LEAD = (
    r"(?:(?:with|on|by saying|by writing|using)\s+)(?:the\s+)?(?:exact\s+)?"
    r"(?:(?:phrase|words?|sentence|line|text|sign-?off|greeting|question)\s+)?"
)
END_PHRASE = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:{_ENDING}){_WHOLE_GAP}\s+{_PHRASE_LEAD}(?P<q>q\d+)"
    rf"(?:\s*,?\s*(?:with\s+)?(?:no|nothing)\s+(?:other\s+|more\s+)?(?:words?|text)?\s*"
    rf"(?:after|following|afterwards?)(?:\s+(?:it|that|this))?)?"
    rf"|(?:the\s+)?(?:last|final|closing)\s+(?:words?|line|sentence)\s+"
    rf"(?:is|are|should be|must be|reads?)"
    rf"\s+(?P<q2>q\d+)"
)


def end_phrase_rule(match: re.Match[str], reading: Reading) -> Check | None:
    phrase = reading.quote(match.group("q") or match.group("q2"))
    if not phrase or not phrase.strip():
        return None
    if phrase.strip() in ("?", "!", ".", "...", "…"):
        check = create("ends_with_punctuation", mark=phrase.strip())
    elif re.match(r"sign", match.group()) or re.search(r"sign-?off\s+q\d+$", match.group()):
        # "Sign off with 'Best'": the closing line is the phrase, a name may follow it.
        check = create("has_sign_off", phrase=phrase)
    else:
        check = create("ends_with", phrase=phrase)
    return negate(check) if match.group("neg") else check


_STARTING = r"(?:starts?|starting|begins?|beginning|opens?|opening)"
START_PHRASE = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"{_STARTING}\s+{_PHRASE_LEAD}(?P<q>q\d+)"
    rf"|(?:the\s+)?first\s+(?:words?|line|sentence)\s+(?:is|are|should be|must be|reads?)\s+"
    rf"(?P<q2>q\d+)"
    rf"|(?:first|start by|begin by|before answering,?)\s+"
    rf"(?:repeat(?:s|ing)?|restat(?:e|es|ing)|cop(?:y|ies|ying))\s+"
    rf"(?:the|this|my|your)?\s*(?:request|question|prompt|instruction|task)\b[^q]*?(?P<q3>q\d+)"
)


def start_phrase_rule(match: re.Match[str], reading: Reading) -> Check | None:
    phrase = reading.quote(match.group("q") or match.group("q2") or match.group("q3"))
    if not phrase or not phrase.strip():
        return None
    check = create("starts_with", phrase=phrase)
    return negate(check) if match.group("neg") else check


# A question or a greeting first: "open with a question", "begin by greeting the reader".
OPENING = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:{_STARTING}{_WHOLE_GAP}\s+(?:with|by)\s+(?:asking\s+)?(?:an?\s+)?"
    rf"(?:(?:short|direct|engaging|friendly|warm|rhetorical|polite)\s+)?"
    rf"(?P<kind>question|greeting)"
    rf"|(?:the\s+)?(?:first|opening)\s+(?:sentence|line)\s+(?:is|should be|must be)\s+"
    rf"(?:an?\s+)?(?P<kind2>question|greeting))"
    rf"(?:\s+(?:to|for) (?:the|your) [a-z]+)?"
)


def opening_rule(match: re.Match[str], reading: Reading) -> Check | None:
    check = create("opens_with", kind=match.group("kind") or match.group("kind2"))
    return negate(check) if match.group("neg") else check


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


TIMES_RULE = re.compile(
    rf"(?:(?:the\s+)?(?P<kind>letter|character|word|phrase|term|keyword|name)\s+)?(?P<q>q\d+)\s+"
    rf"(?:(?:should|must|has to|will|is to|needs to)\s+)?"
    rf"(?:(?:appears?|occurs?|shows? up|is used|be used|"
    rf"is mentioned|be mentioned|is repeated|be repeated|is written|be written|comes? up)\s+)?"
    rf"(?:(?P<neg>not|never)\s+(?:\w+\s+){{0,1}}?)?(?:(?:{CMP_ANY})\s+)?(?P<n>\d+)\s+times"
    rf"(?:\s+(?P<post_most>or (?:fewer|less))|\s+(?P<post_least>or more))?"
    rf"|(?:(?P<neg2>not|never)\s+)?(?:use|uses|using|mention|mentions|say|says|include|includes|"
    rf"repeat|repeats|write|writes)\s+(?:the\s+)?(?:(?P<kind2>letter|word|phrase|term|keyword|name)\s+)?"
    rf"(?P<q2>q\d+)\s+(?:(?P<neg3>not|no)\s+)?(?:(?:{CMP_ANY.replace('(?P<', '(?P<b_')})\s+)?"
    rf"(?P<n2>\d+)\s+times"
    rf"(?:\s+(?P<post_most2>or (?:fewer|less))|\s+(?P<post_least2>or more))?"
)


def times_rule(match: re.Match[str], reading: Reading) -> Check | None:
    second = match.group("q2") is not None
    phrase = reading.quote(match.group("q2") if second else match.group("q"))
    kind = match.group("kind2") if second else match.group("kind")
    n = int(match.group("n2") if second else match.group("n"))
    cmp = cmp_key(match, "b_" if second else "")
    if match.group("post_most2" if second else "post_most"):
        cmp = cmp or "at_most"
    if match.group("post_least2" if second else "post_least"):
        cmp = cmp or "at_least"
    negated = bool(match.group("neg2")) != bool(match.group("neg3")) if second else False
    key = bound(cmp, negated or bool(match.group("neg")))
    if phrase is None or key is None:
        return None
    if is_mark(phrase):
        return create("mark_count", mark=phrase, **{key: n})
    if kind in ("letter", "character") or (kind is None and len(phrase) == 1 and phrase.isalpha()):
        return create("letter_count", letter=phrase, **{key: n})
    return create("keyword_count", keyword=phrase, **{key: n})


_QUOTE_LIST = r"q\d+(?:\s*(?:,|and|or|,\s*and|,\s*or)\s*q\d+)*"
_KEYWORD_NOUN = r"(?:(?:key)?words?|phrases?|terms?|keywords?|names?|expressions?)"
FORBIDDEN = re.compile(
    rf"\b(?:{NEG}|not)\b\s+(?:(?:use|uses|using|include|includes|including|contain|contains|"
    rf"containing|mention|mentions|mentioning|say|says|saying|write|writes|writing|have|has|with|"
    rf"be|any|of|the|all|either|to)\s+){{0,4}}(?:{_KEYWORD_NOUN}\s+)?(?:like\s+|such as\s+)?"
    rf"(?P<qs>{_QUOTE_LIST})(?:\s+(?:anywhere|at all|in it))?"
)


def forbidden_rule(match: re.Match[str], reading: Reading) -> Check | None:
    phrases = reading.quote_list(match.group("qs"))
    marks = [phrase for phrase in phrases if is_mark(phrase)]
    words = [phrase for phrase in phrases if not is_mark(phrase)]
    found = [create("mark_count", mark=mark, exactly=0) for mark in marks]
    if words:
        found.append(create("keywords_forbidden", keywords=words))
    return all_of(*found) if found else None


PRESENT_WORDS = re.compile(
    rf"\b(?:include|includes|including|use|uses|using|mention|mentions|mentioning|contain|contains|"
    rf"containing|say|says|feature|features|featuring|with|incorporate|incorporates|has|have)\s+"
    rf"(?:(?:the|all|of|both|each|every|following)\s+){{0,3}}(?:{_KEYWORD_NOUN}\s*:?\s+)?"
    rf"(?P<qs>{_QUOTE_LIST})(?:\s+(?:somewhere|at least once|anywhere))?"
    rf"|\b(?:the\s+)?(?:{_KEYWORD_NOUN}\s+)(?P<qs2>{_QUOTE_LIST})\s+"
    rf"(?:appears?|appear|are used|is used|"
    rf"are included|is included|shows? up)(?:\s+(?:at least once|somewhere))?"
)


def present_words_rule(match: re.Match[str], reading: Reading) -> Check | None:
    phrases = reading.quote_list(match.group("qs") or match.group("qs2"))
    marks = [phrase for phrase in phrases if is_mark(phrase)]
    words = [phrase for phrase in phrases if not is_mark(phrase)]
    found = [create("mark_count", mark=mark, at_least=1) for mark in marks]
    if words:
        found.append(create("keywords_present", keywords=words))
    return all_of(*found) if found else None


ONE_OF = re.compile(
    rf"(?:exactly\s+)?(?:one|1)\s+of(?:\s+the\s+following)?(?:\s+(?:options|choices|answers|"
    rf"responses|phrases))?\s*:?\s*(?P<qs>{_QUOTE_LIST})"
)


def one_of_rule(match: re.Match[str], reading: Reading) -> Check | None:
    options = reading.quote_list(match.group("qs"))
    return create("one_of", options=options) if len(options) > 1 else None


QUOTES_AROUND = re.compile(
    r"(?:(?:wrap(?:ped|s)?|enclos(?:ed|e|es)|surround(?:ed|s)?|put|placed?|written)\s+)?"
    r"(?:(?:the )?(?:entire |whole )?(?:response |answer |text |output |it |itself )?)?"
    r"(?:in|with|within|inside|between|by)\s+(?:a pair of\s+)?(?:double\s+)?"
    r"(?:quotation marks|quotes|quote marks|quotations)"
)


def quotes_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("wrapped_in_quotes")


JSON = re.compile(
    r"(?:(?:valid|proper|well-formed|correct|parseable|strict)\s+)?json(?:\s+(?:format|object|"
    r"array|only|data))?(?:\s*\(?\s*(?:it\s+)?(?:may|can)\s+be\s+(?:wrapped|enclosed|placed)\s+in\s+"
    r"(?:a\s+)?(?:markdown\s+)?code\s+(?:fence|block)\s*\)?)?"
    # The whole text is the JSON, which `valid_json` requires anyway: "nothing else".
    r"(?:\s*(?:only)?\s*[,;:—–-]*\s*(?:and\s+|with\s+)?(?:nothing else|"
    r"no (?:other|extra|additional) (?:text|words|prose|commentary)"
    r"(?: before or after(?: it)?| around it)?|no prose|"
    r"no commentary|no explanations?))?"
)


def json_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("valid_json")


_DATE_SPEC = r"[ydm]{1,4}(?:[-/. ][ydm]{1,4}){2}"
DATE = re.compile(
    rf"(?:(?:all|every|each|the|any|your)\s+)?(?:{_QUALIFIER}\s+)?dates?\s+"
    rf"(?:(?:should|must|are|is|be|to be|need to be|written|formatted|given|shown|expressed|appear|"
    rf"uses?|follows?|always)\s+){{0,3}}(?:(?:in|as|using|like|with|use)\s+)?"
    rf"(?:the\s+)?(?:format\s+)?(?:(?P<spec>{_DATE_SPEC})|(?P<q>q\d+)|(?P<iso>iso(?:[- ]8601)?))"
    rf"(?:\s+(?:format|style))?"
    rf"|iso(?:[- ]8601)? dates?(?:\s*\(?\s*(?P<spec3>{_DATE_SPEC})\s*\)?)?"
    rf"|(?:(?P<spec2>{_DATE_SPEC})|(?P<q2>q\d+)|(?P<iso2>iso(?:[- ]8601)?))\s+"
    rf"(?:date\s+)?(?:format|style)?"
    rf"\s*(?:for|in)\s+(?:all\s+|every\s+|each\s+|the\s+|any\s+)?dates?"
    # "the DD/MM/YYYY date format"
    rf"|(?:the\s+)?(?:(?P<spec4>{_DATE_SPEC})|(?P<q4>q\d+))\s+date\s+(?:format|style)"
    # an example that settles the format: "write the date like 2024-03-05" (year first)
    rf"|(?:(?:all|every|each|the|any|your)\s+)?(?:{_QUALIFIER}\s+)?dates?\s+"
    rf"(?:(?:should|must|are|is|be|written|formatted|given|shown)\s+){{0,2}}"
    rf"(?:like|as in|as|e\.g\.,?|for example,?)\s+(?P<example>\d{{4}}-\d{{2}}-\d{{2}})\b"
)


def date_rule(match: re.Match[str], reading: Reading) -> Check | None:
    spec = match.group("spec") or match.group("spec2") or match.group("spec4")
    if match.group("example"):
        spec = "YYYY-MM-DD"
    quoted = reading.quote(match.group("q") or match.group("q2") or match.group("q4"))
    if quoted is not None and re.fullmatch(_DATE_SPEC, quoted.strip().casefold()):
        spec = quoted.strip()
    if match.group("iso") or match.group("iso2") or match.group().startswith("iso"):
        spec = "YYYY-MM-DD"
    if spec is None:
        return None
    try:
        return create("date_format", format=spec.upper())
    except RubricError:
        return None


# Times on a 24-hour or a 12-hour clock: "use the 24-hour clock", "times in 12-hour format".
CLOCK = re.compile(
    r"(?:(?:all|every|each|the|any|your)\s+)?(?:times?\s+(?:(?:should|must|are|is|be|written|"
    r"given|shown|formatted)\s+){0,2}(?:in|on|with|using)\s+(?:the\s+|a\s+)?)?"
    r"(?P<clock>24|12)[- ]?(?:hour|hr|h)\b(?:\s+(?:clock|time|format|notation))*"
    r"(?:\s*\(?(?:am/pm|a\.m\./p\.m\.|hh:mm)\)?)?"
    r"(?:\s+(?:for|in)\s+(?:the\s+|all\s+|every\s+|each\s+|any\s+)?times?)?"
)


def clock_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("time_format", clock=int(match.group("clock")))


LANGUAGE = re.compile(
    rf"(?:\b(?:written|write|respond|answer|reply|entirely|only|wholly|fully|completely)\s+)*"
    rf"\bin\s+(?:the\s+)?(?P<lang>{LANGUAGE_NAMES})\b(?:\s+language)?(?:\s+only)?"
    rf"(?:\s*,?\s*(?:and\s+)?no other language)?"
    rf"|in\s+the\s+language\s+(?:with|whose)\s+(?:iso\s+)?(?:639-1\s+)?code\s+(?:is\s+)?(?P<q>q\d+)"
    rf"(?:\s*,?\s*(?:and\s+)?no other language)?"
)


def language_rule(match: re.Match[str], reading: Reading) -> Check | None:
    code = LANGUAGE_CODES.get(match.group("lang") or "") or reading.quote(match.group("q"))
    if not code:
        return None
    try:
        return create("language", code=code.strip().casefold())
    except RubricError:
        return None


POSTSCRIPT = re.compile(
    r"(?:(?:ends?|ending|finish(?:es)?|close[sd]?)\s+with\s+|(?:add|adds|include|includes|with|has|have)\s+)?"
    r"(?:a\s+)?\b(?:postscript|p\.\s?s\.?|ps)\b(?:\s+(?:section|note|line))?"
    r"(?:\s+(?:starting|beginning|that starts|that begins|marked|labell?ed|opening)\s+with\s+"
    r"(?:the\s+)?(?:marker\s+)?(?P<q>q\d+))?"
    r"(?:\.?\s+(?:at the (?:end|bottom)|after (?:the|your) (?:signature|sign-?off|name)))?"
)


def postscript_rule(match: re.Match[str], reading: Reading) -> Check | None:
    marker = reading.quote(match.group("q"))
    try:
        return create("has_postscript", marker=marker) if marker else create("has_postscript")
    except RubricError:
        return None


_NUMBERS = r"(?:numbers?|figures|quantities|amounts|numerals)"
_ALL = r"(?:(?:all|every|each|any|the|your)\s+)*"
_UNDER = r"(?:\s+(?:under|below|less than|smaller than|lower than)\s+(?P<{}>\d+))?"
_AS_DIGITS = r"(?:as|in|with|using)\s+(?:arabic\s+)?(?:digits|numerals|figures)"
_AS_WORDS = r"(?:in|as|with|using)\s+(?:full\s+)?(?:words|letters)"
NUMBER_STYLE = re.compile(
    # digits: "use digits for every number", "numbers are written as numerals"
    rf"\b(?:use|uses|using|write|writes)\s+(?:arabic\s+)?(?:digits|numerals|figures)\s+"
    rf"(?:for|in)\s+{_ALL}{_NUMBERS}{_UNDER.format('n1')}"
    rf"|\b{_ALL}{_NUMBERS}{_UNDER.format('n2')}\s+"
    rf"(?:(?:are|is|should|must|be|to be|always|get|need to be)\s+){{0,3}}"
    rf"(?:written|given|expressed|shown|put)?\s*{_AS_DIGITS}"
    # words: "spell out numbers under ten", "numbers are written out in words"
    rf"|\b(?P<spell>spell(?:s|ed|ing)?\s+out)\s+{_ALL}{_NUMBERS}{_UNDER.format('n3')}"
    rf"(?:\s+{_AS_WORDS})?"
    rf"|\b{_ALL}(?P<words>{_NUMBERS}){_UNDER.format('n4')}\s+"
    rf"(?:(?:are|is|should|must|be|to be|always|need to be)\s+){{0,3}}"
    rf"(?:written|given|spelled|spelt|put)?\s*(?:out\s+)?{_AS_WORDS}"
    rf"|\b{_ALL}(?P<words2>{_NUMBERS}){_UNDER.format('n5')}\s+"
    rf"(?:(?:are|is|should|must|be|to be|always|need to be|get)\s+){{0,3}}"
    rf"(?:spelled|spelt|written)\s+out(?:\s+{_AS_WORDS})?"
)


def number_style_rule(match: re.Match[str], reading: Reading) -> Check | None:
    numbers = ("n1", "n2", "n3", "n4", "n5")
    below = next((int(match.group(g)) for g in numbers if match.group(g)), None)
    words = match.group("spell") or match.group("words") or match.group("words2")
    try:
        return create("number_style", style="words" if words else "digits", below=below)
    except RubricError:
        return None


_SIGN_OFF_NOUN = (
    r"(?:(?:proper|polite|friendly|short|warm|formal|professional|closing)\s+)?"
    r"(?:sign-?off|valediction|closing (?:line|phrase|greeting))"
)
SIGN_OFF = re.compile(
    rf"\b(?:{_ENDING}|sign(?:s|ing)? off){_WHOLE_GAP}\s+(?:with|on|using)\s+"
    rf"(?:an?\s+|the\s+|your\s+)?{_SIGN_OFF_NOUN}"
    rf"|\b(?:include|includes|add|adds|has|have|with|needs?|contains?|uses?)\s+"
    rf"(?:an?\s+|the\s+)?{_SIGN_OFF_NOUN}(?:\s+(?:at the (?:end|bottom)))?"
)


def sign_off_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("has_sign_off")
