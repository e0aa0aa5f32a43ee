"""Checking a compiled mapping against the criterion's own words, and mending it from them.

`read_mapping` (in `_compiler`) trusts nothing the model answers. This module holds the rules it
applies: a mapping is *grounded* when every number, phrase and kind of check is in the
criterion (`ungrounded`), *covers* the criterion when every phrase it quotes is used
(`uncovered`), and may be *mended* only where the criterion's words settle the answer (implied
bounds, unasked flags, a stated divider or marker, a phrase cut short, a named language). Every
rule is documented in `docs/checks.md` ("Compiling criteria to checks").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..._exceptions import RubricError
from ...checks import Check, all_of, language
from ...checks._check import BOUND_NAMES, Bounds
from ...checks._language import LANGUAGES
from ...checks._registry import create, describe
from ._numbers import normalize_numbers
from ._phrasing import stated_numbers
from ._scopes import several_outputs
from ._vocabulary import CMP_ANY, NEG, POST, bound, cmp_key, plain, read

__all__ = [
    "CUES",
    "FLAG_CUES",
    "UNGROUNDED",
    "conflicting",
    "contradicted",
    "names_a_check",
    "uncovered",
    "ungrounded",
    "whole_phrases",
    "with_named_language",
    "with_stated_options",
    "without_sloppy_arguments",
]

UNGROUNDED = "the criterion does not "
"""How every `ungrounded` problem starts: such a mapping gets no correction round."""
_UNGROUNDED_PARAMS = frozenset({"code"})  # "in German" names `de` without writing it
# Values a criterion names by what they mean rather than writes out.
_NAMED_BY: Mapping[str, Mapping[str, str]] = {
    "mark": {
        "?": r"\bquestion",
        "!": r"\bexclamation",
        ".": r"\b(period|full stop|dot)\b",
        "…": r"\b(ellipsis|three dots)\b|\.\.\.",
        ";": r"\bsemicolon",
        ":": r"\bcolon",
        ",": r"\bcomma",
        "any": r"\bpunctuation",
    },
    "form": {
        "any": r"\b(links?|urls?|address)",
        "bare": r"\b(bare|raw|naked|plain)\b|\]\(|\bmarkdown",
        "markdown": r"\bmarkdown|\]\(",
    },
    "per": {
        "sentence": r"\bsentence",
        "paragraph": r"\bparagraph",
        "line": r"\bline",
        "item": r"\b(bullet|item|point|entr(y|ies))",
    },
}
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_LANGUAGE_CODES = {name.casefold(): code for code, name in LANGUAGES.items() if "(" not in name}
_LANGUAGE_NAMES = "|".join(sorted(_LANGUAGE_CODES, key=len, reverse=True))
# What a criterion must talk about for a check to decide it (a regex on its casefolded words).
# Numbers and phrases are grounded by value (`ungrounded`); this grounds the kind of check, so
# "at least 5 paragraphs" cannot become a word count, nor "never say 'maybe'" a keyword that must
# appear. Every catalogue check has an entry (a test keeps it so), which also lets the compiler
# skip the model for a criterion that talks about no check at all (`names_a_check`).
CUES: Mapping[str, str] = {
    "all_capitals": r"\b(capital|upper[ -]?case|caps)",
    "all_lowercase": r"\b(lower[ -]?case|small letters)",
    "alphabetical": r"\b(alphabetic\w*|a[- ]to[- ]z|z[- ]to[- ]a|sorted|by name)\b",
    "bold_keywords": r"\bbold",
    "bullet_count": r"\b(bullet|list|point|item)",
    "bullet_marker": r"\b(bullet|list|hyphen|dash|asterisk|marker)|•",
    "capital_word_count": r"\b(capital|upper[ -]?case|caps)",
    "blank_line_after": r"\b(blank|empty) line",
    "phone_count": r"\b(phone|telephone|mobile|cell)\b",
    "mention_count": r"@|\bat-mentions?\b",
    "valid_yaml": r"\bya?ml\b",
    "label_case": r"\b(label|speaker|character|name)",
    "divider_count": r"\b(horizontal|divider|separator|rule)|---",
    "json_key_count": r"\bkeys?\b",
    "measurement_units": r"\b(metric|imperial|units?|measure\w*|celsius|fahrenheit|kg|grams?|"
    r"cups?|ounces?|pounds?|inch(es)?|feet|miles?|km|minutes|hours)\b|°",
    "phone_format": r"\b(phone|telephone|mobile|cell)\b",
    "question_count": r"\bquestions?\b",
    "quote_count": r"\bquot(e|es|ation)",
    "timestamp_format": r"\b(h?h:)?mm?:ss\b",
    "character_count": r"\b(characters?|chars?)\b",
    "chronological": r"\b(chronolog\w*|oldest|newest|earliest|latest|most recent|time order|"
    r"by (date|year|time))",
    "pronoun_count": r"\b(first|second)[- ]person\b|\bpronoun",
    "contraction_count": r"\bcontract(ion|ed)",
    "date_format": r"\b(dates?|yyyy|iso)\b",
    "emoji_count": r"\b(emoji|emoticon)",
    "markdown_count": r"\b(markdown|plain[- ]text)",
    # A count of things in the user's own noun: "five tips", "at most 4 steps".
    "entry_count": r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|dozen)\s+"
    r"([a-z-]+\s+)?[a-z]+s\b",
    "ends_with_punctuation": (
        r"\b(ends?|ending|finish\w*|clos\w*|conclu\w*|last|final|wrap\w* up|sign\w* off)\b.*"
        r"(question|exclamation|period|full stop|punctuation|ellipsis|(semi-?)?colon|comma|"
        r"[?!.…;:,])"
    ),
    "heading_case": r"\b(title|sentence|lower|upper)[ -]?case\b",
    "line_count": r"\blines?\b",
    "numbered_count": r"\b(numbered|ordered|steps?)\b",
    "ends_with": r"\b(ends?|finish(es)?|closes?) with\b|\b(last|final) (word|line|sentence)",
    "has_postscript": r"\b(postscript|p\.? ?s\b)",
    "acrostic": r"\bacrostic|\b(first|initial|opening) letters?\b",
    "has_title": r"\b(title|heading|headline)|<<",
    "nested_item_count": r"\b(nest\w*|sub-?(bullet|point|item|list)s?|indent\w*|flat)\b",
    "percent_sign": r"%|\bpercent",
    "heading_names": r"\b(head(ing|er)s?|sections?|titles?)\b",
    "heading_count": r"\b(head(ing|er)s?|titles?|sections?|outline|h[1-6]s?)\b",
    "heading_level": r"\b(h[1-6]s?|level[- ]?[1-6]|(top|first|second|third)[- ]level)\b|#",
    "highlight_count": r"\b(highlight|emphasi|bold|italic|markdown)|\*",
    "keyword_count": r"\b(times?|occur|appear|mention|use|repeat|once|twice)",
    "keywords_forbidden": r"\b(not|no|never|none|avoid\w*|without|forbid\w*|exclud\w*)\b|n't\b",
    "keywords_present": r"\b(include|contain|mention|use|keyword|word|appear|phrase)",
    "language": rf"\blanguage\b|\b({_LANGUAGE_NAMES})\b",  # the code itself need not be there
    "letter_count": r"\b(letter|character|appear|occur|times?)\b",
    "no_commas": r"\bcomma",
    "nothing_but": r"\b(only|nothing|no (extra|other|intro\w*)|just|before or after|outside)\b",
    "one_of": r"\b(one of|options?|either|choices?|choose)\b|'\s*,?\s*or\s+'|\"\s*,?\s*or\s+\"",
    "paragraph_count": r"\bparagraph",
    "paragraph_starts_with": r"\bparagraph",
    "part_count": r"\b(separat|divid|split)",
    "punctuation_count": r"\bpunctuat",
    "placeholder_count": r"\b(placeholder|bracket)|\[",
    "section_count": r"\b(section|part|chapter)",
    "sentence_count": r"\bsentence",
    "starts_with": (
        r"\b(starts?|begins?|opens?) (with|by)\b|\bfirst (repeat|restate|word|line|sentence)"
    ),
    "valid_json": r"\bjson\b",
    "json_keys": r"\b(keys?|fields?|properties)\b",
    "url_count": r"\b(urls?|links?|hyperlinks?|web ?(site|page)s?|web address(es)?|https?)\b",
    "email_count": r"\be-?mail address",
    "hashtag_count": r"\bhash ?tags?\b|#",
    "hashtags_at_end": r"\bhash ?tags?\b",
    "code_block_count": r"\bcode ?(block|fence)s?\b|```",
    "code_tagged": r"\blanguage (tag|hint|identifier|label)s?\b|\btagged\b.*\blanguage\b",
    "sql_keywords": r"\bsql\b",
    "key_case": r"\b(snake|camel|pascal|kebab|screaming)[_ -]?case\b|\bupper[_ -]?snake",
    "table_count": r"\btables?\b",
    "time_format": r"\b(24|12)[- ]?(hour|hr|h)\b|\b(clock|am/pm|times?)\b",
    "table_header": r"\b(columns?|header row|header cells?|header names|table headers?)\b",
    "table_size": r"\btables?\b.*\b(rows?|columns?)\b|\b(rows?|columns?)\b.*\btables?\b",
    "mark_count": (
        r"\b(exclamation|question mark|semicolon|colon|comma|ampersand|dash|hyphen|asterisk|"
        r"punctuation|symbol|marks?)\b|[!?;:&*#@%]"
    ),
    "number_style": r"\b(digits?|numerals?|numbers?|figures?|spell\w* out)\b",
    "number_count": r"\b(numbers?|numerals?|figures?|quantif\w+)\b",
    "money_format": r"\b(prices?|amounts?|costs?|fees?|money|currency|dollars?|euros?)\b|[$€£¥₹]",
    "has_sign_off": r"\bsign[- ]?off|\bvaledict|\bclosing (line|phrase|greeting)",
    "closes_with": (
        r"\b(after|last|end\w*|clos\w*|finish\w*|below|under(neath)?)\b.*\b(list|table|code|"
        r"snippet|bullets?)|\b(list|table|code|snippet|bullets?)\b.*\b(last|end|after|below)\b"
    ),
    "opens_with": (
        r"\b(open\w*|start\w*|begin\w*|first|intro\w*|preamble)\b.*"
        r"\b(question|greeting|capital|list|table|code|bullet)"
    ),
    "word_count": r"\b(words?|long|length)\b",
    "wrapped_in_quotes": r"\bquot|\"",
}
# A quoted phrase: 'x' or "x" holding a word, not an apostrophe inside a word (response's).
_QUOTED = re.compile(r"(?<!\w)'(?P<single>[^']*?\w[^']*?)'(?!\w)|\"(?P<double>[^\"]*?\w[^\"]*?)\"")
# Where a `phrase` sits in the text, for the checks whose phrase a quote can complete.
_PHRASE_FITS = {
    "starts_with": str.startswith,
    "paragraph_starts_with": str.startswith,
    "ends_with": str.endswith,
}
# A divider written out: a run of three or more of one of * - _ = ~ #, standing alone.
_DIVIDER = re.compile(r"(?<!\S)([*\-_=~#])\1{2,}(?=[\s.,;:!?)]|$)")
_EXAMPLE = re.compile(r"\b(like|such as|e\.g\.?|for example|for instance)\W*$")
_LANGUAGE_NAMED = re.compile(rf"\bin (?:the )?({_LANGUAGE_NAMES})\b")
_CUE_PATTERNS = {name: re.compile(cue) for name, cue in CUES.items()}
# What a criterion must say for a true/false option to be set (`without_sloppy_arguments`).
FLAG_CUES: Mapping[str, str] = {
    "angle_brackets": r"angul|angle|<<",
    "bold": r"\bbold",
    "allow_fence": r"\b(fence|code ?block|markdown|raw|plain|bare|only json)",
    "case_sensitive": r"\b(case|capital|upper|lower)",
    "contains": r"\b(contain|include|somewhere|within|part of)",
    "descending": (
        r"\b(descending|reverse|z[- ]to[- ]a|newest first|most recent first|latest first)"
    ),
    "distinct": r"\b(different|distinct|unique|not the same)",
    "ordinals": r"\bordinal",
    "two_digit_hours": r"\bhh:mm\b|two[- ]digit",
    "numbered": r"\b(number|numbered|ordered)\b|\d[.)]",
    "exact": r"\b(only|exactly|just|nothing else|no other|should be|must be|are)\b|:",
    "in_digits": r"\b(digits?|numerals?)\b",
    "ordered": r"\border\b",
    "embedded": r"\b(the|your|any) json\b",
    "required": r"\b(no|none|deeper|lower|below|if any)\b",
    "skip_title": r"\b(section|sub-?head\w*|title)",
    "own_line": r"\b(own|separate|new|single|final) line\b",
    "spaced": r"\b(space|gap)",
    "named": r"\bnames?\b",
}


def uncovered(check: Check, description: str) -> str | None:
    """A phrase the criterion quotes that no argument of `check` uses, or `None`.

    A format criterion's quoted words are almost always a check's arguments ("paragraph 2
    starts with 'president'"), so an unused one means a rule of the criterion was left out.
    Quotes after "like" or "such as" are examples, not rules, and are not counted.
    """
    quoted = uncovered_quote(check, description)
    if quoted is None:
        return None
    return (
        f"the criterion quotes {quoted!r}, which no check uses: pass it as an argument "
        "(a phrase, keyword, marker or separator) or add the check that uses it"
    )


def uncovered_quote(check: Check, description: str) -> str | None:
    """The first phrase the criterion quotes (as written) that no argument of `check` uses."""
    used = [
        _normal(str(item))
        for part in check.parts or (check,)
        for _, value in part.args
        if not isinstance(value, (bool, int))
        for item in (value if isinstance(value, tuple) else (value,))
    ]
    for quoted in _quoted(description):
        folded = quoted.casefold()
        if not any(value and (value in folded or folded in value) for value in used):
            return quoted
    return None


def ungrounded(check: Check, description: str) -> str | None:
    """Why `check`'s arguments are not all in the criterion's words, or `None` if they are.

    Each part of a combined check is grounded on its own.
    """
    for part in check.parts:
        if (problem := ungrounded(part, description)) is not None:
            return problem
    if check.parts:
        return None
    text = _normal(description)
    cue = _CUE_PATTERNS.get(check.name)
    if cue is not None and not cue.search(text):
        return f"{UNGROUNDED}talk about what {check.name} checks"
    numbers = stated_numbers(description)
    for key, value in check.args:
        if key in _UNGROUNDED_PARAMS or isinstance(value, bool):
            continue
        if key in _NAMED_BY and isinstance(value, str):
            # `mark="?"` is stated as "a question", `per="item"` as "each bullet".
            named = _NAMED_BY[key].get(value.strip().casefold())
            if named is not None and re.search(named, text):
                continue
        if isinstance(value, int):
            if value not in numbers:
                return f"{UNGROUNDED}state the number {value} (`{key}`)"
            continue
        for item in value if isinstance(value, tuple) else (value,):
            wanted = _normal(str(item))
            if key == "marker":  # `P.P.S.` and `P.P.S` are the same postscript marker
                wanted = wanted.rstrip(".")
            if wanted not in text:
                return f"{UNGROUNDED}contain {item!r} (`{key}`)"
    return None


def _completed(part: Check, description: str) -> Check:
    """A `phrase` cut short, completed to the phrase the criterion quotes.

    Small models stop copying a long quoted phrase at its first inner quote ("... ice cream
    called "): a `starts_with` phrase that begins a phrase the criterion quotes becomes that
    whole phrase, and an `ends_with` phrase that ends one likewise. The result is the
    criterion's own words.
    """
    fits = _PHRASE_FITS.get(part.name)
    if fits is None:
        return part
    args = dict(part.args)
    given = _normal(str(args["phrase"]))
    longer = [
        quoted
        for quoted in _quoted(description)
        if len(whole := _normal(quoted)) > len(given) and fits(whole, given)
    ]
    if not given or not longer:
        return part
    try:
        return create(part.name, **{**args, "phrase": max(longer, key=len)})
    except RubricError:
        return part


def _merged(parts: Iterable[Check]) -> list[Check]:
    """Several `starts_with` (or `ends_with`) parts folded into one that holds all the others.

    What is left of a phrase split at its inner quotes: once completed, the whole phrase holds
    the pieces, which then say nothing more.
    """
    kept = list(parts)
    for name in ("starts_with", "ends_with"):
        same = [p for p in kept if p.name == name]
        if len(same) < 2:
            continue
        longest = max(same, key=lambda p: len(str(dict(p.args)["phrase"])))
        whole = _normal(str(dict(longest.args)["phrase"]))
        if all(_normal(str(dict(p.args)["phrase"])) in whole for p in same):
            kept = [p for p in kept if p.name != name or p is longest]
    return kept


def _quoted(description: str) -> list[str]:
    """The phrases the criterion quotes as rules (not after "like" or "such as"), as written."""
    text = " ".join(description.translate(_QUOTES).split())
    return [
        match.group("single") or match.group("double") or ""
        for match in _QUOTED.finditer(text)
        if not _EXAMPLE.search(text[: match.start()].casefold())
    ]


def conflicting(check: Check) -> str | None:
    """Why the parts of `check` cannot all pass, when two `starts_with` (or `ends_with`) differ.

    Small models split a long quoted phrase at its inner quotes into several `starts_with`
    parts; a text starts with one phrase only, so that is sent back for one whole phrase.
    """
    for name, verb in (("starts_with", "starts"), ("ends_with", "ends")):
        phrases = [dict(p.args)["phrase"] for p in check.parts if p.name == name]
        if len(phrases) > 1:
            return (
                f"{len(phrases)} {name} checks with different phrases, but a text {verb} with "
                f"one: give one {name} with the whole phrase"
            )
    return None


# Which way a bound points: "under 70 words" is a ceiling, which `at_least=70` turns upside down.
_DIRECTION = {
    "at_most": "at most",
    "fewer_than": "at most",
    "less_than": "at most",
    "at_least": "at least",
    "more_than": "at least",
    "exactly": "exactly",
}
# Checks that can only find something there: on a criterion that rules it out ("avoid words in
# all caps"), such a mapping says the opposite. Checks with bounds or options say "none" their way.
_PRESENCE_ONLY = frozenset(
    {
        "acrostic",
        "all_capitals",
        "all_lowercase",
        "alphabetical",
        "bold_keywords",
        "ends_with",
        "ends_with_punctuation",
        "has_postscript",
        "has_sign_off",
        "has_title",
        "heading_names",
        "json_keys",
        "keywords_present",
        "language",
        "one_of",
        "closes_with",
        "opens_with",
        "paragraph_starts_with",
        "starts_with",
        "table_header",
        "wrapped_in_quotes",
    }
)
_NEGATION = re.compile(rf"\b{NEG}\b|n't\b")
# A rule on every piece ("each item should be a question") is no rule on the whole text; "3
# sections, each starting with 'SECTION X'" says what the counted pieces look like.
_EACH = re.compile(r"\b(?:each|every|per)\b")
_COUNTED_EACH = re.compile(r"\b\d+\s+(?:[a-z-]+\s+){0,2}[a-z-]+s\s*,\s*(?:and\s+)?each\b")
# How a piece starts or ends, not the text: "include a line that starts with 'Impact:'".
_PIECE_EDGE = re.compile(
    r"\b(?:a|an|one|any|some|each|every|all)\s+(?:[a-z-]+\s+)?(?:lines?|sentences?|paragraphs?|"
    r"bullets?|items?|sections?|entries|entry)\s+(?:that\s+|which\s+)?(?:starts?|begins?|opens?|ends?)"
)
_EDGE_CHECKS = frozenset({"starts_with", "ends_with", "ends_with_punctuation", "opens_with"})
_CLAUSE_END = re.compile(r"[.;,:!?()]|\b(?:but|and|then)\b")


def contradicted(check: Check, description: str) -> str | None:
    """Why `check` says the opposite of the criterion's own words, or `None`.

    Grounding finds the criterion's numbers and phrases in a mapping, not what the criterion
    says of them: small models keep "under 70 words" as `at_least=70`, "exactly three rows" as
    `at_least=3`, "avoid words in all caps" as `all_capitals`, and "mention the company name in
    the first sentence" as a `starts_with` of that very sentence. Each would be a verdict in code
    that is wrong wherever it matters, so the criterion stays with the judge instead.
    """
    for part in check.parts or (check,):
        if (problem := _contradicted(part, description)) is not None:
            return problem
    return None


def _contradicted(part: Check, description: str) -> str | None:
    text = normalize_numbers(plain(description))
    for key, value in part.args:
        if key in _DIRECTION and _is_int(value):
            stated = _stated_direction(text, value)
            if stated is not None and stated != _DIRECTION[key]:
                return f"the criterion asks for {stated} {value}, not `{key}={value}`"
        is_text = isinstance(value, str)
        if key in ("phrase", "keyword") and is_text and _is_the_rule(str(value), description):
            return f"`{key}` holds the criterion's own words, which are a rule, not text to find"
        if key == "keyword" and is_text and _named_by_name(str(value), description):
            return f"the criterion asks for the name of {value!r}, not the word"
        if key in ("phrase", "keyword", "keywords") and _described(value, description):
            return f"`{key}` holds words the criterion describes content with, not words to find"
        if key == "phrase" and part.name == "ends_with" and _followed(str(value), description):
            return f"the criterion puts more after {value!r}, so the text does not end with it"
    normal = _normal(description)
    if part.name in _PRESENCE_ONLY and _ruled_out(part.name, normal):
        return f"the criterion rules out what {part.name} checks is there"
    if part.name in _EDGE_CHECKS and _PIECE_EDGE.search(normal):
        return f"the criterion says how a piece starts or ends; {part.name} checks the whole text"
    pieces = _EACH.search(_COUNTED_EACH.sub(" ", normalize_numbers(normal)))
    if pieces and "per" not in dict(part.args) and not _none_at_all(part):
        return f"the criterion sets a rule on each piece; {part.name} checks the whole text"
    several = several_outputs(read(description).text, (part,))
    if several is not None and "per" not in dict(part.args):
        return f"the criterion is about several outputs ({several.group()!r}), not the whole text"
    return None


def _described(value: Any, description: str) -> bool:
    """Words the criterion does not quote and puts after an article: a description of content.

    "Ends with a rhyming couplet", "use the customer's name", "bold the deadline": what the text
    should hold, not the words it should hold.
    """
    quoted = [_normal(q) for q in _quoted(description)]
    text = _normal(description)
    for item in value if isinstance(value, tuple) else (value,):
        words = _normal(str(item))
        if not words or words.endswith(":") or any(words in q for q in quoted):
            continue  # a label ("start with a Subject: line") is written as it is
        if re.search(rf"\b(?:a|an|the|some|my|your|their)\s+(?:\w+\s+)?{re.escape(words)}", text):
            return True
    return False


def _followed(phrase: str, description: str) -> bool:
    """Whether more comes after the phrase: "end with 'Kind regards,' and then my name"."""
    text = _normal(description)
    at = text.find(_normal(phrase))
    return (
        at >= 0
        and re.match(
            r"\W*\s*(?:and\s+)?(?:then|followed by|after that)\b", text[at + len(_normal(phrase)) :]
        )
        is not None
    )


def _named_by_name(keyword: str, description: str) -> bool:
    """A role named "by name" ("mentions the groom by name") asks for a name, not the role's word.

    A name written as one ("Maria's name") is the keyword itself.
    """
    text = " ".join(description.translate(_QUOTES).split())
    by_name = r"(?:'s name|\s+by\s+(?:their\s+|his\s+|her\s+|its\s+)?name)\b"
    found = re.search(rf"\b({re.escape(keyword)}){by_name}", text, re.IGNORECASE)
    return found is not None and not found.group(1)[:1].isupper()


def _none_at_all(part: Check) -> bool:
    """A count of zero means the same on every piece as on the whole: "no emojis in any line"."""
    args = dict(part.args)
    return args.get("exactly") == 0 or args.get("at_most") == 0 or args.get("fewer_than") == 1


def _stated_direction(text: str, value: int) -> str | None:
    """Which way the criterion bounds `value` ("under 70" -> "at most"), when it says so once."""
    found = set()
    for match in re.finditer(rf"(?<![\d.,])\b{value}\b(?![\d.,]\d)", text):
        before = re.search(
            rf"(?:(?P<neg>\bno|\bnot|\bnever|n't)\s+(?:(?:go|be|run|get)\s+)?)?(?:{CMP_ANY})\s+$",
            text[: match.start()],
        )
        after = re.match(
            rf"(?:\s+[a-z-]+){{0,2}}?\s*,?\s*(?:(?P<most>{POST['at_most']})|(?P<least>{POST['at_least']}))\b",
            text[match.end() :],
        )
        if before is not None:
            key = bound(cmp_key(before), before.group("neg") is not None)
            found.add(_DIRECTION.get(key or ""))
        elif after is not None:
            found.add("at most" if after.group("most") else "at least")
        else:
            found.add(None)
    return found.pop() if len(found) == 1 else None


def _is_the_rule(phrase: str, description: str) -> bool:
    """A phrase that is most of the criterion, not a phrase it quotes: the rule copied whole."""
    if any(_normal(phrase) in _normal(quoted) for quoted in _quoted(description)):
        return False
    words = re.findall(r"[a-z0-9']+", _normal(phrase))
    criterion = re.findall(r"[a-z0-9']+", _normal(description))
    return len(words) >= 4 and len(words) >= 0.6 * len(criterion)


def _ruled_out(name: str, text: str) -> bool:
    """A negation in the clause before every mention of what the check finds.

    Every mention: "in French, not English" asks for one language.
    """
    cues = list(_CUE_PATTERNS[name].finditer(text))
    return bool(cues) and all(
        _NEGATION.search(_CLAUSE_END.split(text[: cue.start()])[-1]) for cue in cues
    )


def without_sloppy_arguments(args: dict[str, Any], description: str) -> dict[str, Any]:
    """A check's arguments without implied bounds and without flags the criterion never asks for."""
    return _without_unasked_flags(_without_implied_bounds(args), description)


def whole_phrases(parts: Iterable[Check], description: str) -> list[Check]:
    """The parts with phrases cut short completed from the criterion's quotes, pieces folded in."""
    return _merged(_completed(part, description) for part in parts)


def _without_implied_bounds(args: dict[str, Any]) -> dict[str, Any]:
    """Drop bounds that `exactly` already implies (`exactly: 2, more_than: 1`).

    Grammar-constrained small models often fill in every optional bound; when the others agree
    with `exactly` they say nothing more, so dropping them changes no verdict. Bounds that
    contradict it are kept, for the catalogue to reject.
    """
    exactly = args.get("exactly")
    others = {key: args[key] for key in BOUND_NAMES if key in args and key != "exactly"}
    if not others or not all(_is_int(v) for v in (exactly, *others.values())):
        return args
    try:
        implied = exactly in Bounds.from_args("", others)
    except RubricError:
        return args
    return {key: value for key, value in args.items() if key not in others} if implied else args


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _without_unasked_flags(args: dict[str, Any], description: str) -> dict[str, Any]:
    """Drop true/false options the criterion gives no word for (`case_sensitive` unasked).

    A flag has no value to ground the way a number or a phrase has; small models set them at
    random. Dropped, the option takes the catalogue's default.
    """
    text = _normal(description)
    return {
        key: value
        for key, value in args.items()
        if not (
            isinstance(value, bool) and key in FLAG_CUES and not re.search(FLAG_CUES[key], text)
        )
    }


def with_stated_options(check: Check, description: str) -> Check:
    """Fill optional arguments the criterion states verbatim but the model left out.

    Small models skip optional arguments: "separated by the divider ***" comes back as
    `paragraph_count(exactly=2)`, "each starting with 'SECTION X'" without its marker. A divider
    written in the criterion becomes the `separator`, and a phrase it quotes that no argument
    uses becomes the `marker`; the values are the criterion's own words, and the catalogue
    validates them as any others.
    """
    text = _normal(description)
    divider = _DIVIDER.search(text) if _CUE_PATTERNS["part_count"].search(text) else None
    parts = []
    for part in check.parts or (check,):
        args = dict(part.args)
        params = {p.name for p in describe(part.name).params}
        if "separator" in params and "separator" not in args and divider:
            args["separator"] = divider.group(0)
        angled = re.search(FLAG_CUES["angle_brackets"], text)
        if part.name == "has_title" and "angle_brackets" not in args and angled:
            args["angle_brackets"] = True
        if "marker" in params and "marker" not in args:
            quoted = uncovered_quote(part, description)
            if quoted is not None:
                args["marker"] = quoted
        if args == dict(part.args):
            parts.append(part)
            continue
        try:
            parts.append(create(part.name, **args))
        except RubricError:
            parts.append(part)
    return all_of(*parts)


def with_named_language(check: Check, description: str) -> Check:
    """Add `language(code)` when the criterion says "in English" and no part checks it.

    Small models map "in English and all lowercase" to `all_lowercase` alone; the language is
    stated in so many words, so code adds its check rather than grade half the criterion.
    """
    if any(part.name == "language" for part in check.parts or (check,)):
        return check
    found = _LANGUAGE_NAMED.search(_normal(description))
    if found is None:
        return check
    return all_of(check, language(_LANGUAGE_CODES[found.group(1)]))


def names_a_check(description: str, names: Iterable[str]) -> bool:
    """Whether the criterion talks about what any of the checks `names` checks (its cue).

    A criterion that talks about none of them cannot compile: every mapping of it would be
    rejected as ungrounded. The compiler skips the model for it, which spares a call for nearly
    every content criterion ("the summary says the mayor resigned").
    """
    text = _normal(description)
    return any(_CUE_PATTERNS[name].search(text) for name in names)


def _normal(text: str) -> str:
    return " ".join(text.translate(_QUOTES).casefold().split())
