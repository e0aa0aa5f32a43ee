"""The grammar's rules for the text's style and form, with no number.

A title, letter case (of the text or its headings), quotes around the text, JSON, a date
format, a clock, numbers in digits or words, a language. Each rule is a pattern and a builder
that turns its match into a catalogue check, or `None` when the words do not settle one.
"""

from __future__ import annotations

import re

from ..._exceptions import RubricError
from ...checks import Check, create, negate
from ...checks._money import SYMBOLS
from ...checks._units import MONTH_NAMES, MONTHS
from ._vocabulary import (
    FILLER,
    LANGUAGE_CODES,
    LANGUAGE_NAMES,
    NAME_SEPARATOR,
    NEG,
    ORDINAL,
    Reading,
    about_a_piece,
    as_written,
    constant,
)

__all__ = [
    "AM_PM",
    "BOLD_TITLE",
    "CLOCK",
    "DATE",
    "HEADING_CASE",
    "JSON",
    "JSON_KEYS",
    "LABEL_CASE",
    "LANGUAGE",
    "MAJOR_WORDS",
    "MONEY",
    "MONEY_FIRST",
    "MONEY_STYLE",
    "NOT_WRAPPED",
    "NUMBER_STYLE",
    "NUMBER_STYLE_WORDS",
    "PERCENT",
    "PHONE_FORMAT",
    "QUOTES_AROUND",
    "TIMESTAMP",
    "TIME_ZONE",
    "TITLE",
    "TITLE_ANGLE",
    "WHOLE_CASE",
    "YAML",
    "am_pm_rule",
    "angle_rule",
    "bold_title_rule",
    "clock_rule",
    "date_rule",
    "heading_case_rule",
    "json_keys_rule",
    "json_rule",
    "label_case_rule",
    "language_rule",
    "major_words_rule",
    "money_rule",
    "money_style_rule",
    "not_wrapped_rule",
    "number_style_rule",
    "number_style_words_rule",
    "percent_rule",
    "phone_format_rule",
    "quotes_rule",
    "time_zone_rule",
    "timestamp_rule",
    "title_rule",
    "whole_case_rule",
    "yaml_rule",
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
    r"(?:(?:short|clear|catchy|descriptive|(?P<bold>bold(?:ed)?)|markdown|proper)\s+)?"
    r"(?:title|heading|headline)"
    r"(?:\s+(?:line|at the top|on the first line|on top|first|above it|on its own line))?\b"
    r"|\b(?:titled|entitled)\b"
    # a title said with its place, no verb: "title at the top", "title on the first line, on
    # its own" (not "the title at the top is under 8 words": the rest of that is about it)
    r"|^\W*(?:an?\s+|the\s+)?(?:(?:short|clear|catchy|descriptive)\s+)?(?:title|headline)\s+"
    r"(?:(?:is|goes|sits|comes|should be|must be|should go|must go)\s+)?"
    r"(?:at the top|on top|first|on the first line|on (?:its|a) own line|on a line of its own)"
    r"(?:\s*,?\s*(?:on (?:its|a) own(?: line)?|alone|by itself))?(?=\W*$)"
)


def title_rule(match: re.Match[str], reading: Reading) -> Check | None:
    bold = bool(match.groupdict().get("bold"))
    check = create("has_title", bold=True) if bold else create("has_title")
    if match.groupdict().get("neg"):
        return None if bold else negate(check)  # "no bold title": no title, or a plain one?
    return check


# "Bold title", "the title should be bolded", "headline in bold at the top".
BOLD_TITLE = re.compile(
    r"\b(?:(?:a|the|its|your)\s+)?(?:bold(?:ed)?\s+(?:title|headline)"
    r"|(?:title|headline)(?:\s+line)?\s+(?:(?:at the top|on top|first|on the first line)\s+)?"
    r"(?:(?:should|must|needs? to|has to)\s+be\s+|is\s+)?(?:in\s+)?"
    r"(?:bold(?:ed|face)?))(?:\s+(?:at the top|on top|on the first line|on (?:its|a) own line))"
    r"{0,2}\b"
)
bold_title_rule = constant("has_title", bold=True)


angle_rule = constant("has_title", angle_brackets=True)


_CASE_NAMES = {"title": "title", "sentence": "sentence", "lower": "lower", "upper": "upper"}
HEADING_CASE = re.compile(
    r"(?:(?P<neg1>not|never|no(?=\s+(?:title|sentence)[- ]?case\b))\s+(?:\w+\s+){0,2}?)?"
    rf"(?:(?:all |every |each |the |its |their )?(?:{_QUALIFIER} )?(?:title|headings?|headers?|"
    rf"subheadings?|headlines?|section (?:titles?|headings?|headers?))\s+(?:(?:must|should|will|"
    rf"can|are|is|be|to|do|does|use|uses|follow|follows|written|set|in)\s+|"
    rf"(?P<neg2>not|never)\s+){{0,4}})?"
    r"(?:in |use |using |with |written in )?(?P<said>(?P<case>title|sentence|lower|upper)[- ]?case"
    r"|all[- ]caps|all capitals|block capitals|(?<=in )capital letters)"
    rf"(?:\s+(?:(?:for|in|on)\s+)?(?:the |all |every |each |its )?(?:{_QUALIFIER} )?(?:title|"
    rf"headings?|headers?|subheadings?|headlines?|section titles|section head(?:ing|er)s?))?"
    # the case said again in words: "sentence case (only the first word capitalised)"
    # ... or after a comma: "heading in sentence case, i.e. only the first word capitalised",
    # "capitalise only the first word"
    r"(?P<gloss>\s*(?:\(|[,:\u2013\u2014-]\s*(?=i\.e\.|that is|meaning|only|capitali))"
    r"(?:(?:i\.e\.,?\s*|that is,?\s*|meaning\s+)?(?:only\s+)?(?:the\s+)?first\s+(?:word|letter)"
    r"\s+(?:is\s+)?capitali[sz]ed(?:\s+only)?"
    r"|capitali[sz]e\s+only\s+the\s+first\s+(?:word|letter))\)?)?"
)
# Title case said by what it does: "capitalise the major words of the headline (title case)".
MAJOR_WORDS = re.compile(
    r"\bcapitali[sz]e\s+(?:the\s+first\s+letter\s+of\s+)?(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?:major|main|important|principal|significant)\s+words\s+(?:of|in)\s+(?:the\s+|each\s+|"
    r"every\s+|all\s+(?:the\s+)?)?(?P<what>title|headings?|headers?|headlines?|subheadings?)"
    r"(?:\s*\(title[- ]?case\))?"
)
major_words_rule = constant("heading_case", case="title")


def heading_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    case = match.group("case") or "upper"  # "all caps", "block capitals": upper case
    gloss = match.group("gloss") or ""
    if gloss and (case in ("lower", "upper") or (case == "title" and "letter" not in gloss)):
        return None  # "title case, only the first word capitalised" contradicts itself
    # Which part it is about, from the words around the case's own ("title case" names none).
    around = (
        match.string[match.start() : match.start("said")]
        + match.string[match.end("said") : match.end()]
    )
    scoped = re.search(r"\b(?:title|heading|header|subheading|headline)", around)
    if case in ("lower", "upper") and not scoped:
        return None  # the whole text: the case rule reads it
    # "section headers", "subheadings": the headings below the title, not the title
    sections = re.search(r"\b(?:section|subhead)", around) is not None
    options: dict[str, bool] = {"skip_title": True} if sections else {}
    if not scoped:
        options["required"] = False  # "sentence case, not Title Case": of what, unsaid
    check = create("heading_case", case=case, **options)
    return negate(check) if match.group("neg1") or match.group("neg2") else check


WHOLE_CASE = re.compile(
    r"(?:(?P<neg>not|never)\s+(?:\w+\s+){0,3}?)?"
    r"(?:(?:all|entirely|only|completely|wholly|fully|solely|exclusively)\s+)?(?:in\s+)?"
    r"(?:(?P<lower>lower[- ]?case|small letters)|(?P<upper>upper[- ]?case|capital letters|capitals|"
    r"all caps|all-caps|caps|block capitals|block letters))"
    r"(?:\s+(?:letters?|characters?))?(?:\s+(?:only|throughout|at all))?"
    # lower case said again: "no capital letters", "no caps at all", "even the first word of
    # each line"
    r"(?P<again>\s*[;,\u2013\u2014-]?\s*"
    r"(?:no (?:capital|upper[- ]?case|uppercase) letters?|no caps|no capitals)(?: at all)?)?"
    r"(?P<even>\s*[;,\u2013\u2014-]?\s*(?:even|including|not even) (?:at )?the "
    r"(?:first word|first letter|start)"
    r"(?: of (?:each|every|a|the) (?:line|sentence|paragraph)s?)?)?"
)


def whole_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if about_a_piece(match, reading):
        return None
    if re.search(r"\bq\d+\s*$", reading.read[: match.start()]):
        return None  # "the word 'RSVP' in capitals": the case of that word, not of the text
    if not match.group("lower") and (match.group("again") or match.group("even")):
        return None  # "all caps, no capital letters": the words do not agree
    check = create("all_lowercase" if match.group("lower") else "all_capitals")
    return negate(check) if match.group("neg") else check


# "SQL keywords in uppercase", "all SQL keywords should be UPPERCASE (SELECT, FROM...)",
# "keep sql keywords lowercase": a rule on the code's keywords, not the text's letters.
SQL_CASE = re.compile(
    r"(?:(?:all|the)\s+)?sql\s+keywords?\s+"
    r"(?:(?:should|must|need to|have to)\s+(?:all\s+)?be\s+|are\s+|is\s+)?"
    r"(?:(?:written|typed|kept)\s+)?(?:in\s+)?(?:all\s+)?"
    r"(?:(?P<lower>lower[- ]?case|small letters)|upper[- ]?case|capitals|capital letters|"
    r"capitali[sz]ed|all caps|caps)(?:\s*\([^()]*\))?"  # "(SELECT, FROM, WHERE...)"
    r"|\b(?:(?P<lower3>lower[- ]?case)|upper[- ]?case|capitali[sz]ed|all-caps)\s+(?:all\s+)?"
    r"sql\s+keywords?\b(?:\s*\([^()]*\))?"
    r"|\b(?:write|put|keep|use)\s+(?:all\s+|the\s+)?sql\s+keywords?\s+(?:in\s+)?(?:all\s+)?"
    r"(?:(?P<lower2>lower[- ]?case)|upper[- ]?case|capitals|caps)"
)


def sql_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    lower = match.group("lower") or match.group("lower2") or match.group("lower3")
    return create("sql_keywords", case="lower" if lower else "upper")


# "All keys in snake_case", "keys are camelCase", "Use snake_case for every key name", "field
# names in UPPER_SNAKE_CASE, nested ones too": the case of a data object's keys.
_KEY_CASE = (
    r"(?P<case>snake[_ -]?case|camel[_ -]?case|pascal[_ -]?case|kebab[_ -]?case|"
    r"(?:upper|screaming|all[_ -]?caps|constant)[_ -]?(?:snake[_ -]?)?case)"
)
_KEYS = r"(?:json\s+|yaml\s+|object\s+)?(?:key\s+names?|keys?|field\s+names?|property\s+names?)"
_NESTED = (
    r"(?:\s*,?\s*(?:nested\s+ones\s+too|including\s+nested(?:\s+ones|\s+keys)?|"
    r"at\s+every\s+level))?"
)
KEY_CASE = re.compile(
    rf"\b(?:(?:all|every|each)\s+(?:of\s+)?(?:the\s+)?)?(?:the\s+)?{_KEYS}\s+"
    r"(?:(?:should|must|need\s+to|have\s+to)\s+(?:all\s+)?(?:be\s+|use\s+)?|are\s+(?:all\s+)?|use\s+)?"
    rf"(?:(?:in|as|written\s+in)\s+)?{_KEY_CASE}{_NESTED}"
    r"|\b(?:use\s+)?"
    + _KEY_CASE.replace("<case>", "<case2>")
    + rf"\s+(?:for\s+)?(?:all\s+|every\s+|each\s+|the\s+)?{_KEYS}{_NESTED}"
)


def key_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    said = (match.group("case") or match.group("case2")).casefold()
    case = next((c for c in ("snake", "camel", "pascal", "kebab") if said.startswith(c)), None)
    return create("key_case", case=case or "upper_snake")


# In double quotes: the whole reply ("wrap your entire response in double quotes", "the whole
# thing in quotation marks") or a piece of it ("put the tagline in double quotes", "include
# some dialogue in quotation marks"), which a passage in quotes somewhere stands for.
# The reply not wrapped in quotes or a code fence: "don't wrap the translation in quotation
# marks", "do not wrap it in a markdown code fence", "never put the JSON in a code block". Said
# of the reply (or a word for it), not of a part ("don't wrap the title in quotes").
NOT_WRAPPED = re.compile(
    r"\b(?:(?:do\s+)?not|never|no\s+need\s+to|avoid|without)\s+"
    r"(?:wrap(?:ping)?|enclos(?:e|ing)|put(?:ting)?|surround(?:ing)?|plac(?:e|ing))\s+"
    r"(?:it|this|everything|(?:the|your)\s+(?:whole\s+|entire\s+)?(?:reply|answer|response|"
    r"output|text|message|translation|result|rewrite|paraphrase|json|yaml|csv|summary|tweet|"
    r"post|code|query|command|script|snippet))\s+(?:in|inside|within|with|between)\s+"
    r"(?:a\s+|an\s+|any\s+)?(?:pair\s+of\s+)?"
    r"(?:(?P<fence>(?:markdown\s+)?(?:code\s+)?(?:fences?|blocks?|fenced\s+blocks?)|```)"
    r"|(?P<quotes>(?:double\s+|single\s+)?(?:quotation\s+marks|quotes|quote\s+marks)))"
)


def not_wrapped_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if match.group("fence"):
        return create("code_block_count", exactly=0)
    return negate(create("wrapped_in_quotes"))


QUOTES_AROUND = re.compile(
    r"(?:(?:wrap(?:ped|s)?|enclos(?:ed|e|es)|surround(?:ed|s)?|put|placed?|written|write|set|"
    r"include|includes|give|add|use)\s+)?"
    r"(?:(?P<whole>(?:the |your )?(?:entire |whole )(?:[a-z]+ )?|your (?:response|answer|reply|"
    r"output|text|message) |(?:the )?(?:response|reply|output) |it |itself |everything )"
    r"|(?P<piece>(?:the |a |an |some |one |at least one |at least 1 |1 )?"
    r"(?!(?:each|every|all|any|no)\b)[a-z]+(?: [a-z]+)? ))?"
    r"(?:in|with|within|inside|between|by)\s+(?:a pair of\s+)?(?:double\s+)?"
    r"(?:quotation marks|quotes|quote marks|quotations)"
)


def quotes_rule(match: re.Match[str], reading: Reading) -> Check | None:
    piece = match.group("piece")
    if piece is None:
        return create("wrapped_in_quotes")
    if re.search(r"(?<!s)s\s*$", piece) and not re.match(r"(?:some|at least) ", piece):
        return None  # "attribute values in double quotes": every one of them, which no count says
    return create("quote_count", at_least=1)


# "A JSON object", "a JSON array": which kind of value the check does not tell, so unread.
# "Valid YAML", "must be valid YAML", "the YAML must parse", "YAML has to be valid".
YAML = re.compile(
    r"(?:(?:(?:must|has to|should|needs? to)\s+be|is|it is)\s+)?(?:valid|well-formed|parseable|"
    r"parsable|correct)\s+yaml\b"
    r"|\b(?:the\s+)?yaml\s+(?:(?:must|has to|should|needs? to|will)\s+)?(?:be\s+)?"
    r"(?:is\s+)?(?:valid|parse|parses|well-formed|parseable)\b"
)
yaml_rule = constant("valid_yaml")


JSON = re.compile(
    r"(?:nothing\s+but\s+(?:the\s+)?)?(?:(?P<raw>raw|bare|plain)\s+)?"
    r"(?:(?:valid|proper|well-formed|correct|parseable|strict)\s+)?json"
    r"(?:\s+(?:(?P<shape>object|array)|output|response))?(?:\s+(?:format|only|data))?"
    # "the JSON must parse", "must be valid (it should parse)"
    r"(?:\s+(?:(?:must|should|has to|needs? to|will)\s+)?(?:be\s+(?:valid|parseable|well-formed)"
    r"|parse)\b)?(?:\s*\(\s*(?:it\s+)?(?:(?:must|should|has to|needs? to)\s+)?"
    r"(?:parse|be valid|be parseable)\s*\))?"
    r"(?:\s*\(?\s*(?:it\s+)?(?:may|can)\s+be\s+(?:wrapped|enclosed|placed)\s+in\s+"
    r"(?:a\s+)?(?:markdown\s+)?code\s+(?:fence|block)\s*\)?)?"
    # The whole text is the JSON, which `valid_json` requires anyway: "nothing else".
    r"(?:\s*(?:only)?\s*[,;:—–-]*\s*(?:and\s+|with\s+)?(?:nothing else|"
    r"no (?:(?:other|extra|additional) (?:text|words|prose|commentary)|prose|commentary|"
    r"explanations?)(?: before or after(?: it)?| around it)?)"
    r"(?:\s+(?:or|and|nor)\s+(?P<unfenced2>(?:code |markdown )?fences?|code ?blocks?))?)?"
    # "no code fences": bare JSON, not inside a fence
    r"(?:\s*[,;:\u2014\u2013-]*\s*(?:and\s+|with\s+)?"
    r"(?P<unfenced>no (?:markdown )?(?:code )?fences?|no (?:markdown )?code ?blocks?|"
    r"not in a code ?block|without (?:markdown )?(?:code )?fences?)"
    r"(?:\s*[,;:\u2014\u2013-]*\s*(?:and\s+)?"
    r"(?:no explanations?|no prose|no commentary|nothing else))?)?"
)


# "The JSON must be valid" is about the JSON the text holds; "valid JSON", "output JSON only"
# ask that the text be JSON.
_THE_JSON = re.compile(r"\b(?:the|your|any|all(?: the)?|each|every)\s+$")
_WHOLE_JSON = re.compile(
    r"\bonly\b|nothing else|no (?:other|extra|additional)\b|no prose|no commentary|no explanation"
)


# Words that ask for JSON and nothing else, wherever they stand: "respond only in JSON",
# "the entire output must be valid JSON", "return JSON, no prose".
_JSON_ALONE = re.compile(
    r"\b(?:output|outputs|respond|responds|reply|replies|return|returns|response|answer)\b|"
    r"\b(?:only|just|solely|entire|entirely|whole|nothing else|nothing but|no (?:other|extra|"
    r"additional)\b|no prose|no commentary|no explanations?|no text|no (?:preamble|intro))"
)
_ONLY_THE = re.compile(r"\b(?:only|just|nothing but|solely)\s+(?:the|your)\s+$")


def json_rule(match: re.Match[str], reading: Reading) -> Check | None:
    # "raw JSON", "no code fences": bare JSON; otherwise a fence around it is allowed.
    shape = {"shape": match.group("shape")} if match.group("shape") else {}
    if match.group("raw") or match.group("unfenced") or match.group("unfenced2"):
        return create("valid_json", allow_fence=False, **shape)
    before = reading.text[: match.start()]
    if (
        _THE_JSON.search(before)
        and not _WHOLE_JSON.search(match.group())
        and not _ONLY_THE.search(before)  # "just the JSON", "only the JSON, please"
    ):
        return create("valid_json", embedded=True, **shape)
    if not _WHOLE_JSON.search(match.group()) and not _JSON_ALONE.search(reading.text):
        # "Valid JSON" alone: of JSON with a sentence before it, the JSON is valid
        return create("valid_json", embedded=None, **shape)
    return create("valid_json", **shape)


# The keys a JSON object must hold: "the JSON must include the keys level, format and output",
# "valid JSON with exactly the keys title, servings and steps", "each object has only the keys
# question and answer". Keys are written as the criterion writes them; they end it.
_KEY = r"(?:q\d+|`?[a-z_][\w.-]*`?)"
JSON_KEYS = re.compile(
    rf"(?:(?:valid|proper|well-formed)\s+)?(?:(?:the|a|each|every|all)\s+)?"
    rf"(?:json(?:\s+(?:objects?|output|response|data))?|objects?|output|response)\s+"
    rf"(?:(?:must|should|needs?\s+to|has\s+to|will)\s+)?"
    rf"(?:(?P<some>include|includes|contain|contains)|have|has|with|using|uses?)\s+"
    rf"(?P<exact>(?:exactly|only|just)\s+)?(?:the\s+)?(?:(?:following|these)\s+)?"
    rf"(?:keys|fields|properties)\s*:?\s*"
    rf"(?P<keys>{_KEY}(?:{NAME_SEPARATOR}{_KEY})*)\s*(?:and\s+nothing\s+else|and\s+no\s+others?)?"
    rf"\s*[.;!]?\s*$"
)


def json_keys_rule(match: re.Match[str], reading: Reading) -> Check | None:
    keys = []
    for key in re.split(NAME_SEPARATOR, match.group("keys")):
        quoted = reading.quote(key.strip())
        # an unquoted last key is followed by the sentence's period: "..., start_time."
        written = quoted or as_written(key.strip("`").rstrip("."), reading.original)
        keys.append(written.strip("`") if quoted else written.strip("`").rstrip("."))
    exact = bool(match.group("exact")) or re.search(r"nothing else|no others?$", match.group())
    if not exact and not match.group("some"):
        return None  # "JSON with keys: name, email": those and no other? a reader may say either
    return create("json_keys", keys=keys, exact=bool(exact))


_DATE_SPEC = r"[ydm]{1,4}(?:[-/. ][ydm]{1,4}){2}"


def format_of_example(example: str) -> str | None:
    """The format a date example is written in ("October 14, 2024" -> "MONTH D, YYYY").

    None when the example does not settle it: "05/03/2024" may be either day or month first.
    """
    text = example.strip().casefold()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return "YYYY-MM-DD"
    named = re.fullmatch(
        rf"(?:(?P<m1>{MONTHS})(?P<dot1>\.)? (?P<d1>\d{{1,2}})(?P<y1>, \d{{4}})?|"
        rf"(?P<d2>\d{{1,2}}) (?P<m2>{MONTHS})(?P<dot2>\.)?(?P<y2> \d{{4}})?)",
        text,
    )
    if named is None:
        return None
    month = named.group("m1") or named.group("m2")
    name = "MONTH" if len(month) > 3 or month == "may" else "MON"
    if name == "MONTH" and not re.fullmatch(MONTH_NAMES, month):
        return None  # "sept": neither the name nor its three letters
    day = named.group("d1") or named.group("d2")
    day_spec = "DD" if len(day) == 2 and day.startswith("0") else "D"
    if named.group("m1"):
        return f"{name} {day_spec}, YYYY" if named.group("y1") else f"{name} {day_spec}"
    return f"{day_spec} {name} YYYY" if named.group("y2") else f"{day_spec} {name}"


# What names a date: "the date", "all dates", "the deadline".
_DATE_NOUN = r"(?:dates?(?:\s+formats?)?|deadlines?)"
# The order of day and month, said beside an example: "day-first", "day then month".
_DAY_FIRST = r"day[- ](?:first|then[- ]month|before[- ](?:the[- ])?month)"
# What a date example's rule says again: "- no ordinals (22nd)", ", not 'April 2'".
_DATE_TAIL = (
    r"(?:\s*[,;.:\u2013\u2014-]?\s*(?:no ordinals?(?:\s*\(\s*\d+(?:st|nd|rd|th)\s*\))?|"
    r"(?:not|never)\s+(?P<unlike>q\d+)))*"
)
DATE = re.compile(
    rf"(?:(?:all|every|each|the|any|your)\s+)?(?:(?P<which>{_QUALIFIER})\s+)?{_DATE_NOUN}(?:\s*[:=]\s*|\s+)"
    rf"(?:(?:should|must|are|is|be|to be|need to be|written|formatted|given|shown|expressed|appear|"
    rf"uses?|follows?|always|out|{_DAY_FIRST},?|\({_DAY_FIRST}\)|without ordinals,?)\s+){{0,4}}"
    rf"(?:\(\s*)?(?:(?:as in|in|as|using|like|with|use|e\.g\.,?)\s+)?"
    rf"(?:the\s+)?(?:form(?:at)?\s+)?"
    rf"(?:(?P<spec>{_DATE_SPEC})|(?P<q>q\d+)|(?P<iso>iso(?:[- ]8601)?))(?:\s*\))?"
    rf"(?:\s+(?:format|style))?(?:\s*\(\s*yyyy-mm-dd\s*\))?{_DATE_TAIL}"
    rf"|iso(?:[- ]8601)? dates?(?:\s*\(?\s*(?P<spec3>{_DATE_SPEC})\s*\)?)?"
    rf"|(?:(?P<spec2>{_DATE_SPEC})|(?P<q2>q\d+)|(?P<iso2>iso(?:[- ]8601)?))\s+"
    rf"(?:date\s+)?(?:format|style)?"
    rf"\s*(?:for|in)\s+(?:all\s+|every\s+|each\s+|the\s+|any\s+)?dates?"
    # "the DD/MM/YYYY date format"
    rf"|(?:the\s+)?(?:(?P<spec4>{_DATE_SPEC})|(?P<q4>q\d+))\s+date\s+(?:format|style)"
    # an example that settles the format: "write the date like 2024-03-05", "like May 2, 2024"
    rf"|(?:(?:all|every|each|the|any|your)\s+)?(?:(?P<which2>{_QUALIFIER})\s+)?{_DATE_NOUN}\s+"
    rf"(?:(?:should|must|are|is|be|written|formatted|given|shown|out|{_DAY_FIRST},?)\s+){{0,4}}"
    rf"(?:like|as in|as|e\.g\.,?|for example,?)\s+(?P<example>\d{{4}}-\d{{2}}-\d{{2}}|"
    rf"(?:{MONTHS})\.? \d{{1,2}}(?:, \d{{4}})?|\d{{1,2}} (?:{MONTHS})\.?(?: \d{{4}})?)"
    rf"(?![\w-])"
)


_FORMAT_WORD = re.compile(
    r"iso|us|uk|american|british|european|international|numeric(?:al)?|written|full|short|"
    r"long|standard|consistent|proper|correct|same|all|such|these|those|calendar"
)


# What is done to dates, not which they are: "give dates as", "normalise dates to".
_DATE_VERB = re.compile(
    r"give|format|show|write|put|use|keep|list|print|display|present|express|render|set|make|"
    r"spell|style|convert|normali[sz]e|standardi[sz]e|output|return|state|include|mark|add|"
    r"enter|type|record|have|get|leave|report|stamp|log|want|need|prefer|expect"
)


def date_rule(match: re.Match[str], reading: Reading) -> Check | None:
    if _PUT_IN.search(reading.text[: match.start()]):
        return None  # "include the full date in the form ...": one date asked for, not all
    spec = match.group("spec") or match.group("spec2") or match.group("spec4")
    if match.group("example"):
        spec = format_of_example(match.group("example"))
    quoted = reading.quote(match.group("q") or match.group("q2") or match.group("q4"))
    if quoted is not None and re.fullmatch(_DATE_SPEC, quoted.strip().casefold()):
        spec = quoted.strip()
    elif quoted is not None:
        spec = format_of_example(quoted)
    if match.group("iso") or match.group("iso2") or match.group().startswith("iso"):
        spec = "YYYY-MM-DD"
    if spec is None:
        return None
    unlike = reading.quote(match.groupdict().get("unlike"))
    if unlike is not None and format_of_example(unlike) in (None, spec):
        return None  # "not '2024-03-05'" of a YYYY-MM-DD rule: which is it?
    if re.search(_DAY_FIRST, match.group()) and not spec.upper().startswith("D"):
        return None
    # "every normalised date", "the release date": a kind of date, among others maybe
    which = match.group("which") or match.group("which2")
    if which is not None and (_FORMAT_WORD.fullmatch(which) or _DATE_VERB.fullmatch(which)):
        # "ISO dates", "US dates": how they are written, not which they are; "show dates as"
        which = None
    try:
        return create("date_format", format=spec.upper(), **({"which": which} if which else {}))
    except RubricError:
        return None


_PUT_IN = re.compile(
    r"\b(?:include|includes|including|mention|mentions|add|adds)\s+(?:(?:the|a|an|its|your)\s+)?"
    r"(?:[a-z]+\s+)?$"
)


# How a phone number is written, shown by an example: "phone numbers formatted like (555)
# 123-4567", "phone number in the format 0161 496 0123".
PHONE_FORMAT = re.compile(
    r"(?:(?:all|every|each|the|any|your)\s+)?(?:(?:tele)?phone|contact|mobile)\s+numbers?\s+"
    r"(?:(?:should|must|are|is|be|written|formatted|given|shown|always|to be|need to be)\s+){0,4}"
    r"(?:(?:in|as|like|using)\s+)?(?:the\s+)?(?:format\s+)?(?:like\s+|of\s+)?"
    r"(?P<example>\+?\(?\d[\d ().-]{5,}\d)(?:\s+(?:format|style))?"
)


def phone_format_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("phone_format", example=match.group("example"))


# Timestamps of a video or a transcript: "timestamps in MM:SS format", "chapter times as
# HH:MM:SS", "use MM:SS timestamps".
_STAMP_FORMAT = r"(?P<fmt>h?h:mm:ss|mm?:ss)"
TIMESTAMP = re.compile(
    r"(?:(?:all|every|each|the|your)\s+)?(?:(?:chapter|video)\s+)?(?:timestamps?|time ?codes?|"
    r"chapter (?:times|markers))\s+(?:(?:should|must|are|is|be|all|written|formatted|given|shown|"
    r"always|to be|need to be)\s+){0,4}(?:(?:in|as|like|using|use|with)\s+)?(?:the\s+)?"
    rf"{_STAMP_FORMAT}(?:\s+(?:format|style))?"
    rf"|(?:use\s+|in\s+)?{_STAMP_FORMAT.replace('fmt', 'fmt2')}\s+(?:format\s+)?(?:for\s+)?"
    r"(?:the\s+|all\s+)?(?:timestamps?|time ?codes?)"
)


def timestamp_rule(match: re.Match[str], reading: Reading) -> Check | None:
    return create("timestamp_format", format=match.group("fmt") or match.group("fmt2"))


# Times on a 24-hour or a 12-hour clock: "use the 24-hour clock", "times in 12-hour format".
CLOCK = re.compile(
    r"(?:(?:all|every|each|the|any|your)\s+)?(?:(?:times?|timestamps?)\s+(?:(?:should|must|are|is|"
    r"be|written|given|shown|formatted)\s+){0,2}(?:in|on|with|using|as|use|follow)\s+"
    r"(?:the\s+|a\s+)?)?"
    r"(?:(?P<padded0>hh:mm)\s+)?(?P<clock>24|12)[- ]?(?:hour|hr|h)\b"
    r"(?:\s+(?:clock|times?|format|notation))*"
    r"(?:\s*\(?(?:(?:with|using|and|plus)\s+)?(?:am/pm|a\.m\./p\.m\.|(?P<padded>hh:mm))\)?)?"
    r"(?:\s+format)?"
    # an example on that clock: "(like 9:00 am)", "e.g. 14:30"
    r"(?:\s*,?\s*\(?(?:like|e\.g\.,?|such as|for example,?)\s+\d{1,2}(?::\d{2})?"
    r"(?:\s*(?P<example_mark>am|pm|a\.m\.|p\.m\.))?\)?)?"
    r"(?:\s+(?:for|in)\s+(?:the\s+|all\s+|every\s+|each\s+|any\s+)?times?)?"
    # the other clock ruled out, as 24 hours mean: "24-hour, never am/pm"
    r"(?:(?:\s+(?:please|pls))?\s*[,;\u2013\u2014-]?\s*(?:and\s+)?(?P<never>never|no|not|without)\s+"
    r"(?:in\s+)?"
    r"(?:am/pm|a\.m\./p\.m\.|am or pm|12[- ]?(?:hour|hr|h)(?:\s+(?:clock|times?|format))?))?"
)


# The case of the labels that open lines: "speaker names in ALL CAPS followed by a colon",
# "speaker labels in capitals (HOST:, GUEST:)", "sentence case for the bold labels". Named as
# speakers' or as labels: "dish names in caps" is the dishes', which no check finds.
_LABELS = (
    r"(?:(?:the\s+)?(?:speaker|character|role)\s+(?:names?|labels?|tags?)"
    r"|(?:the\s+)?(?:bold\s+|line\s+)?labels)"
)
_CASE_WORD = (
    r"(?:(?P<upper>all[- ]caps|caps|capitals|capital letters|upper[- ]?case|block capitals)"
    r"|(?P<named>title|sentence|lower)[- ]?case)"
)
LABEL_CASE = re.compile(
    rf"\b{_LABELS}\s+(?:(?:should|must)\s+be\s+|are\s+|is\s+|always\s+|written\s+)*(?:in\s+)?"
    rf"{_CASE_WORD}(?:\s*,?\s*(?:and\s+)?(?:followed by|then|with|plus|ending (?:in|with))\s+"
    r"(?:a\s+)?colon)?(?:\s*\([^()]*:[^()]*\))?"
    rf"|\b(?P<named2>title|sentence|lower)[- ]?case\s+for\s+{_LABELS}"
)


def label_case_rule(match: re.Match[str], reading: Reading) -> Check | None:
    named = match.group("named") or match.group("named2")
    return create("label_case", case=named or "upper")


# A time zone on every time: "every time listed includes a time zone", "every time stated
# should say UTC", "(24-hour HH:MM times) followed by UTC".
def _zone_word(n: str) -> str:
    return rf"(?:a\s+|the\s+)?(?:time\s*zone|tz|(?P<zone{n}>utc|gmt|et|pt|cet|cest|bst))\b"


TIME_ZONE = re.compile(
    r"(?:(?:all|every|each|any|the)\s+)?(?:times?|timestamps?)(?:\s+(?:listed|stated|given|shown|"
    r"mentioned))?\s+(?:(?:should|must|need to|needs to|has to|have to|to)\s+)?(?:always\s+)?"
    r"(?:include|includes|have|has|say|says|show|shows|with|carry|carries|end with|ends with|"
    r"followed by|come with|in|are in|is in)\s+"
    + _zone_word("")
    + r"(?:\s+(?:abbreviation|label|marker))?"
    r"|(?<=hh:mm)\s+(?:times\s+)?(?:followed by|with|in|plus)\s+"
    + _zone_word("2")
    + r"|(?<=times)\s+(?:followed by|with|plus)\s+"
    + _zone_word("3")
)


def time_zone_rule(match: re.Match[str], reading: Reading) -> Check | None:
    zone = match.group("zone") or match.group("zone2") or match.group("zone3")
    return create("time_format", zone=zone.upper() if zone else "any")


# "Times use am/pm", "every time includes AM/PM": the 12-hour clock, said by its marks.
AM_PM = re.compile(
    r"(?:(?:all|every|each|the|any|your)\s+)?times?\s+(?:(?:must|should|need to|to|always)\s+)?"
    r"(?:use|uses|include|includes|have|has|with|in|shows?|given with)\s+(?:an?\s+)?"
    r"(?:am/pm|a\.m\./p\.m\.|am or pm)"
)
am_pm_rule = constant("time_format", clock=12)


def clock_rule(match: re.Match[str], reading: Reading) -> Check | None:
    clock = int(match.group("clock"))
    if match.group("example_mark") and clock == 24:
        return None  # "24-hour (like 9 pm)": the example says otherwise
    if match.group("never") and clock == 12:
        return None  # "12-hour, never am/pm": which clock?
    padded = {"two_digit_hours": True} if match.group("padded") or match.group("padded0") else {}
    return create("time_format", clock=clock, **padded)


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
# The other style named as what not to do: "as digits, not words", "spelled out, not as numerals".
NUMBER_STYLE = re.compile(
    rf"(?:{NUMBER_STYLE.pattern})(?:\s*,?\s*(?:and\s+)?(?:not|never|rather than|instead of)\s+"
    rf"(?:(?:as|in|with|using)\s+)?(?:(?P<not_words>words|letters|spelled out|spelt out)|"
    rf"(?P<not_digits>digits|numerals|figures)))?"
)


# A criterion about nothing but how numbers are written, in any order of words: "use digits
# rather than words for numbers", "figures, not words, for all quantities", "no spelled-out
# numbers", "write every number as a numeral". Read by meaning: which style is asked for, which
# is ruled out; both asked for, or no number named, reads nothing.
NUMBER_STYLE_WORDS = re.compile(
    r"^(?=.*\b(?:numbers?|numerals?|digits?|figures|quantities|amounts)\b)"
    r"(?=.*\b(?:digits?|numerals?|figures|numeric|words?|letters|spel(?:l|ls|led|lt)|written out)"
    r"\b).*$"
)
_DIGIT_WORD = re.compile(r"digits?|numerals?|figures|numeric")
_WORDS_WORD = re.compile(r"words?|letters|spell(?:s|ed)?|spelt|spelled-out|spelt-out|written-out")
_STYLE_NEG = re.compile(r"not|no|never|without|avoid|instead|rather")
_STYLE_TALK = re.compile(
    r"numbers?|numerals?|digits?|figures|numeric|quantities|amounts|words?|letters|spel(?:l|ls|led|lt)|"
    r"(?:spelled|spelt|written)-out|out|written|rather|than|instead|not|no|never|without|avoid|"
    r"only|always|including|ordinals?|form"
)


def number_style_words_rule(match: re.Match[str], reading: Reading) -> Check | None:
    text = re.sub(
        r"\bspell\s+(no|none of the)\s+(\w+)\s+out\b", r"\1 spelled-out \2", match.group()
    )
    text = re.sub(r"\b(spel(?:led|t)|written) out\b", r"\1-out", text)
    tokens = re.findall(r"[a-z][a-z'-]*|\d+", text)
    if any(not _STYLE_TALK.fullmatch(t) and t not in FILLER and not t.isdigit() for t in tokens):
        return None
    wanted = {"digits": False, "words": False}
    ruled_out = {"digits": False, "words": False}
    negated = False
    for token in tokens:
        style = "digits" if _DIGIT_WORD.fullmatch(token) else None
        style = "words" if _WORDS_WORD.fullmatch(token) else style
        if style is None:
            negated = negated or bool(_STYLE_NEG.fullmatch(token))
            continue
        (ruled_out if negated else wanted)[style] = True
        negated = False
    digits = (wanted["digits"] or ruled_out["words"]) and not (
        wanted["words"] or ruled_out["digits"]
    )
    words = (wanted["words"] or ruled_out["digits"]) and not (
        wanted["digits"] or ruled_out["words"]
    )
    if digits == words:
        return None
    # "All numbers (including ordinals) in digits": "third" is a number in words then.
    ordinals = digits and bool(re.search(r"\bincluding ordinals?\b", text))
    return create("number_style", style="digits" if digits else "words", ordinals=ordinals)


def number_style_rule(match: re.Match[str], reading: Reading) -> Check | None:
    numbers = ("n1", "n2", "n3", "n4", "n5")
    below = next((int(match.group(g)) for g in numbers if match.group(g)), None)
    words = match.group("spell") or match.group("words") or match.group("words2")
    if match.group("not_words" if words else "not_digits"):
        return None  # "in words, not words": no style stated
    try:
        return create("number_style", style="words" if words else "digits", below=below)
    except RubricError:
        return None


# Money with its symbol: "all prices with a currency symbol", "amounts use the € sign", "every
# amount written with $ and two decimal places", "use the £ sign for all prices".
_MONEY_NOUN = (
    r"(?:(?:all|every|each|any|the|your)\s+)?(?:(?:money|dollar|euro|cash)\s+)?"
    r"(?:prices?|amounts?|costs?|fees?|totals?|sums?|figures?)|money|monetary (?:amounts|values)"
)


def _symbol(suffix: str) -> str:
    return (
        rf"(?:an?\s+|the\s+)?(?:(?:(?P<sym{suffix}>[{SYMBOLS}])|(?P<q{suffix}>q\d+))"
        rf"(?:\s*(?:signs?|symbols?))?|(?P<cur{suffix}>currency|dollar|euro|pound)\s*"
        rf"(?:signs?|symbols?))"
        rf"(?:\s*(?:\+|and|with|plus|,)\s*(?P<dec{suffix}>\d)\s+decimal(?:\s+places|s)?)?"
    )


MONEY = re.compile(
    rf"\b(?:{_MONEY_NOUN})(?:\s*:\s*|\s+(?:(?:should|must|need to|needs to|have to|has to|are to|"
    rf"will|always)\s+)?(?:(?:be|are|is)\s+)?(?:(?:written|shown|given|formatted|expressed|listed|"
    rf"displayed|stated|marked|priced)\s+)?(?:with|use|uses|using|have|has|include|includes|"
    rf"need|needs|carry|carries|in|get|show|shows|takes?)\s+){_symbol('')}"
)
MONEY_FIRST = re.compile(
    rf"(?:\b(?:use|uses|include|put|add|show|write|give)\s+|^\W*){_symbol('')}\s+(?:for|on|with|before|"
    rf"in front of|beside|next to|in)\s+(?:{_MONEY_NOUN})"
)
# How amounts are written, in any order: "prices as whole dollars, no cents", "2 decimal places
# for all amounts", "amount always 2 decimals, no currency symbol", "show cents on every
# amount, e.g. €450.00", "amounts with 2 decimals and the £ sign". Read only when every word of
# the criterion is one of these pieces; "prices in USD" or "$X.XM" leave it to the judge.
MONEY_STYLE = re.compile(rf"^.*\b(?:{_MONEY_NOUN}|whole[- ]dollar)\b.*$")
_MONEY_PIECES = re.compile(
    r"(?P<dec>[1-4]) decimal(?:s|\s+places?|\s+points?|\s+digits?)?"
    r"|(?P<cents>(?:show|with|include|includes|shows|keep)\s+(?:the\s+)?cents|to the cent)"
    r"|(?P<whole>(?:no|without|not have|never|not show|drop(?:\s+the)?)\s+(?:any\s+)?"
    r"(?:cents|decimals?(?:\s+places?|\s+points?)?)|whole[- ](?:dollars?|euros?|pounds?|numbers?|"
    r"amounts?|units)|rounded to (?:the )?(?:nearest )?(?:whole|dollar|euro|pound))"
    r"|(?P<bare>(?:no|without|not|never)\s+(?:a\s+|any\s+|the\s+)?(?:currency\s+|dollar\s+|"
    r"euro\s+|pound\s+)?(?:symbols?|signs?)|plain numbers?|numbers only|just (?:the )?numbers?)"
    rf"|(?:the\s+|a\s+)?(?P<sym>[{SYMBOLS}])(?:\s*(?:signs?|symbols?))?"
    r"|(?P<noun>" + _MONEY_NOUN + r"|whole[- ]dollar\b)"
    r"|(?P<example>(?:e\.g\.|eg|i\.e\.|like|so|such as)\s+[^;()]*$|\([^()]*\d[^()]*\))"
    r"|(?:always|should|must|needs? to|have to|has to|be|are|is|to|as|with|in|on|for|shown|"
    r"written|given|formatted|expressed|show|shows|have|has|include|includes|every|all|each|any|"
    r"the|and|please|only|use|uses|currency|money)\b"
    r"|\s+|[,:;.)\u2013\u2014-]"  # not "(": an aside is read whole, as an example or not at all
)


def money_style_rule(match: re.Match[str], _reading: Reading) -> Check | None:
    said: dict[str, str] = {}
    decimals: set[int] = set()
    position, text = 0, match.group()
    while position < len(text):
        piece = _MONEY_PIECES.match(text, position)
        if piece is None or piece.end() == position:
            return None  # a word no piece reads: "in usd", "x.xm", "dollar sign first"
        found = {key: value for key, value in piece.groupdict().items() if value}
        decimals |= {int(found["dec"])} if "dec" in found else set()
        decimals |= {2} if "cents" in found else set()
        decimals |= {0} if "whole" in found else set()
        said.update(found)
        position = piece.end()
    if "noun" not in said or len(decimals) > 1 or ("sym" in said and "bare" in said):
        return None
    if not decimals and "bare" not in said:
        return None  # a symbol alone is `MONEY`'s
    return create(
        "money_format",
        **({"symbol": said["sym"]} if "sym" in said else {}),
        **({"decimals": decimals.pop()} if decimals else {}),
        symbols="forbidden" if "bare" in said else ("required" if "sym" in said else "ignored"),
    )


# "Use the % sign for percentages", "percentages always with the % symbol".
_PERCENTAGES = r"(?:(?:all|every|each|any|the|your)\s+)?(?:percentages|percents|percent values)"
PERCENT = re.compile(
    rf"\b(?:use|uses|using|with|write|give|show)\s+(?:the\s+|a\s+)?%\s*(?:sign|symbol)?\s+"
    rf"(?:for|in|with|on)\s+{_PERCENTAGES}"
    rf"|{_PERCENTAGES}\s+(?:(?:should|must|are|is|be|always|written|shown|given|expressed)\s+)*"
    rf"(?:with|using|as|in)\s+(?:the\s+|a\s+)?%(?:\s*(?:sign|symbol))?"
)
percent_rule = constant("percent_sign")


_CURRENCY_SYMBOL = {"currency": None, "dollar": "$", "euro": "€", "pound": "£"}


def money_rule(match: re.Match[str], reading: Reading) -> Check | None:
    sym, quoted, named = match.group("sym"), match.group("q"), match.group("cur")
    symbol = sym or (reading.quote(quoted) if quoted else _CURRENCY_SYMBOL.get(named or ""))
    if quoted and (symbol is None or symbol.strip() not in SYMBOLS or len(symbol.strip()) != 1):
        return None  # "prices with 'USD'": a code, not a symbol
    if not (sym or quoted or named):
        return None
    decimals = match.group("dec")
    return create(
        "money_format",
        **({"symbol": symbol} if symbol else {}),
        **({"decimals": int(decimals)} if decimals else {}),
    )
