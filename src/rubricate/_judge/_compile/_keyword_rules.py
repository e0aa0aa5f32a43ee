"""The grammar's rules for quoted words and marks: required, forbidden, counted, one of.

A word is read unquoted too when the sentence can mean nothing else: "mention bamboo at least
twice", "include the word RSVP", "avoid the word synergy", "mention Ana and Ben by name".

"include the words 'privacy' and 'consent'", "do not use 'delve'", "the word 'data' appears at
least 3 times", "answer with one of 'yes', 'no'": each rule is a pattern and a builder that turns
its match into a catalogue check, or `None` when the words do not settle one.
"""

from __future__ import annotations

import re

from ...checks import Check, all_of, create
from ...checks._units import PRONOUNS
from ._vocabulary import (
    CMP_ANY,
    FILLER,
    NEG,
    Reading,
    bound,
    cmp_key,
    is_mark,
    unit_key,
)

__all__ = [
    "BARE_TIMES",
    "BOLD_WORDS",
    "FORBIDDEN",
    "NAMED",
    "ONE_OF",
    "PERSON",
    "PRESENT_WORDS",
    "THIRD_PERSON",
    "TIMES_RULE",
    "UNQUOTED_WORDS",
    "bare_times_rule",
    "bold_words_rule",
    "forbidden_rule",
    "named_rule",
    "one_of_rule",
    "person_rule",
    "present_words_rule",
    "third_person_rule",
    "times_rule",
    "unquoted_words_rule",
]


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
    cmp = _times_bound(match, "b_" if second else "", "2" if second else "")
    negated = bool(match.group("neg2")) != bool(match.group("neg3")) if second else False
    key = bound(cmp, negated or bool(match.group("neg")))
    if phrase is None or key is None:
        return None
    if is_mark(phrase):
        return create("mark_count", mark=phrase, **{key: n})
    if kind in ("letter", "character") or (kind is None and len(phrase) == 1 and phrase.isalpha()):
        return create("letter_count", letter=phrase, **{key: n})
    return create("keyword_count", keyword=phrase, **{key: n})


def _times_bound(match: re.Match[str], prefix: str = "", suffix: str = "") -> str | None:
    """The comparator before "N times", or the one after it ("3 times or more")."""
    cmp = cmp_key(match, prefix)
    if match.group(f"post_most{suffix}"):
        cmp = cmp or "at_most"
    if match.group(f"post_least{suffix}"):
        cmp = cmp or "at_least"
    return cmp


# An unquoted word counted: "mention bamboo at least twice", "use the word synergy once".
BARE_TIMES = re.compile(
    rf"\b(?:mention|mentions|use|uses|say|says|include|includes|repeat|repeats)\s+"
    rf"(?:the\s+(?:word|term|name)\s+)?(?P<word>[a-z][a-z-]*)\s+(?:(?P<neg>no|not)\s+)?"
    rf"(?:(?:{CMP_ANY})\s+)?"
    rf"(?P<n>\d+)\s+times(?:\s+(?P<post_most>or (?:fewer|less))|\s+(?P<post_least>or more))?"
)


# Names of marks and of kinds of characters, which are counted as such, never as a keyword.
_MARK_OR_CLASS = (
    r"(?:commas?|periods?|dots?|colons?|semi-?colons?|dashes|hyphens?|apostrophes?|quotes?|"
    r"brackets?|parenthes[ei]s|asterisks?|slashes|exclamations?|capitals?|caps|letters?|"
    r"numbers?|digits?|numerals?|symbols?|punctuation)"
)


def bare_times_rule(match: re.Match[str], reading: Reading) -> Check | None:
    word = match.group("word")
    # "mention it twice", "use commas 3 times", "use no more than...": not a keyword
    if (
        word in FILLER
        or unit_key(word) is not None
        or re.fullmatch(NEG, word)
        or re.fullmatch(_MARK_OR_CLASS, word)
    ):
        return None
    cmp = _times_bound(match)
    key = bound(cmp, negated=match.group("neg") is not None)
    return (
        None
        if key is None
        else create("keyword_count", keyword=word, **{key: int(match.group("n"))})
    )


_QUOTE_LIST = r"q\d+(?:\s*(?:,|and|or|,\s*and|,\s*or)\s*q\d+)*"
_KEYWORD_NOUN = r"(?:(?:key)?words?|phrases?|terms?|keywords?|names?|expressions?)"
FORBIDDEN = re.compile(
    rf"\b(?:{NEG}|not)\b\s+(?:(?:use|uses|using|include|includes|including|contain|contains|"
    rf"containing|mention|mentions|mentioning|say|says|saying|write|writes|writing|have|has|with|"
    rf"be|any|of|the|all|either|to)\s+){{0,4}}(?:{_KEYWORD_NOUN}\s+)?(?:like\s+|such as\s+)?"
    rf"(?P<qs>{_QUOTE_LIST})(?:\s+(?:anywhere|at all|in it))?"
    # the negation after the words: "the word 'shall' must not appear (anywhere)"
    rf"|(?:\bthe\s+)?(?:{_KEYWORD_NOUN}\s+)?(?P<qs2>{_QUOTE_LIST})\s+(?:(?:must|should|may|can|"
    rf"will|is to|are to)\s+)?(?:not|never)\s+(?:be\s+)?(?:appears?|used|show up|shows up|occurs?|"
    rf"mentioned|featured|included)(?:\s+(?:anywhere|at all|in it))?"
)


def forbidden_rule(match: re.Match[str], reading: Reading) -> Check | None:
    said = match.group("qs") or match.group("qs2")
    return _quoted_check(reading.quote_list(said), present=False)


def _quoted_check(phrases: list[str], *, present: bool) -> Check | None:
    """Quoted words and marks that must all appear (`present`) or none of them.

    A mark (`!`, `;`) is counted anywhere; a word only as a whole word.
    """
    marks = [phrase for phrase in phrases if is_mark(phrase)]
    words = [phrase for phrase in phrases if not is_mark(phrase)]
    bound = {"at_least": 1} if present else {"exactly": 0}
    found = [create("mark_count", mark=mark, **bound) for mark in marks]
    if words:
        found.append(
            create("keywords_present" if present else "keywords_forbidden", keywords=words)
        )
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
    return _quoted_check(reading.quote_list(match.group("qs") or match.group("qs2")), present=True)


# "bold the word 'sunlight'", "put 'Deadline' in bold", "'Total' should be bolded".
_BOLD = r"(?:in\s+)?(?:bold(?:ed|face)?|boldface)(?:\s+(?:text|type|font))?"
BOLD_WORDS = re.compile(
    rf"\b(?:bold|embolden)\s+(?:(?:the|all|both|each|every)\s+)?(?:{_KEYWORD_NOUN}\s*:?\s+)?"
    rf"(?P<qs>{_QUOTE_LIST})"
    rf"|\b(?:put|write|set|make|format|show|mark|have|has|with)\s+(?:the\s+)?"
    rf"(?:{_KEYWORD_NOUN}\s+)?(?P<qs2>{_QUOTE_LIST})\s+{_BOLD}"
    rf"|\b(?:the\s+)?(?:{_KEYWORD_NOUN}\s+)?(?P<qs3>{_QUOTE_LIST})\s+(?:(?:is|are|should|must|"
    rf"has to|have to|needs? to|appears?|will)\s+)?(?:be\s+|appear\s+)?(?:written\s+|set\s+|"
    rf"shown\s+|formatted\s+)?{_BOLD}\b"
)
_BOLD_TAIL = r"(?:\s+(?:at least\s+)?1 times|\s+somewhere)?"
BOLD_WORDS = re.compile(f"(?:{BOLD_WORDS.pattern}){_BOLD_TAIL}")


def bold_words_rule(match: re.Match[str], reading: Reading) -> Check | None:
    quoted = match.group("qs") or match.group("qs2") or match.group("qs3")
    words = [w for w in reading.quote_list(quoted) if not is_mark(w)]
    return create("bold_keywords", keywords=words) if words else None


ONE_OF = re.compile(
    rf"(?:exactly\s+)?(?:one|1)\s+of(?:\s+the\s+following)?(?:\s+(?:options|choices|answers|"
    rf"responses|phrases))?\s*:?\s*(?P<qs>{_QUOTE_LIST})"
)


def one_of_rule(match: re.Match[str], reading: Reading) -> Check | None:
    options = reading.quote_list(match.group("qs"))
    return create("one_of", options=options) if len(options) > 1 else None


# "include the word RSVP", "use the words privacy and consent", "avoid the word synergy": the
# noun says what follows is a word to find, quoted or not. The words must end the clause, so
# that "use the word count as a guide" is never a keyword.
_BARE = r"[a-z][\w'-]*"
UNQUOTED_WORDS = re.compile(
    rf"\b(?:(?P<neg>{NEG}|not)\s+(?:(?:use|uses|using|include|includes|including|say|says|"
    rf"write|mention|mentions)\s+)?|(?:include|includes|use|uses|using|mention|mentions|"
    rf"contain|contains|say|says|feature|features|has|have|with)\s+)"
    rf"the\s+(?:key)?(?:words?|terms?)\s+(?P<words>{_BARE}(?:\s*(?:,|,?\s*and|,?\s*or)\s*{_BARE})*)"
    rf"(?:\s+(?:somewhere|anywhere|at all))?(?=\s*(?:[.;,!]|$))"
)
# What follows "the word" without being a word to find: "the word count", "the word limit".
_NOT_A_KEYWORD = frozenset({"count", "counts", "limit", "limits", "length", "choice", "order"})


def unquoted_words_rule(match: re.Match[str], reading: Reading) -> Check | None:
    words = re.split(r"\s*(?:,|\band\b|\bor\b)\s*", match.group("words"))
    words = [w for w in words if w]
    present = match.group("neg") is None
    if present and re.search(r"\bor\b", match.group("words")):
        return None  # "include the word yes or no": one of them, which a list cannot say
    if not words or any(w in FILLER or w in _NOT_A_KEYWORD for w in words):
        return None
    as_written = [_as_written(w, reading.original) for w in words]
    return create("keywords_present" if present else "keywords_forbidden", keywords=as_written)


def _as_written(word: str, original: str) -> str:
    """`word` spelt as the criterion has it ("RSVP", not "rsvp"), for the finding it shows."""
    found = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", original, re.IGNORECASE)
    return found.group() if found else word


# "mention Ana and Ben by name", "address Sam by name": the names as written, each capitalised
# in the criterion, so "mention participants by name" (no name given) is left to the model.
NAMED = re.compile(
    rf"\b(?:mention|mentions|mentioning|name|names|naming|address|addresses|addressing|"
    rf"refer to|refers to|greet|greets|thank|thanks)\s+(?:both\s+)?"
    rf"(?P<names>{_BARE}(?:\s*(?:,|,?\s*and)\s*{_BARE})*)\s+by\s+(?:(?:their|his|her)\s+)?"
    rf"(?:first\s+)?names?\b"
)


def named_rule(match: re.Match[str], reading: Reading) -> Check | None:
    names = [n for n in re.split(r"\s*(?:,|\band\b)\s*", match.group("names")) if n]
    written = [_as_written(n, reading.original) for n in names]
    if not written or not all(name[0].isupper() for name in written):
        return None
    return create("keywords_present", keywords=written)


# A grammatical person ruled out, its pronouns maybe listed: "no first person (I, we, our)",
# "avoid first-person plural (we/our/us)", "avoid first person - no we / our", "don't use
# second-person pronouns". "Written in the third person" names none to rule out: left alone.
_PRONOUN_LIST = r"[a-z]+(?:\s*(?:,|/|\bor\b|\band\b|\betc\b\.?)\s*[a-z]*)*"
PERSON = re.compile(
    rf"\b(?:{NEG}|do not use|(?:should|must) not use|never use)\s+"
    r"(?:(?:write|speak|narrate|be written)\s+(?:it\s+)?in\s+)?(?:any\s+)?(?:the\s+)?"
    r"(?P<which>first|second)[- ]person(?:[- ](?P<number>plural|singular))?"
    r"(?:\s+(?:pronouns?|words?|voice|language|narration|perspective|point of view))?"
    rf"(?:\s*\((?P<list>{_PRONOUN_LIST})\)|\s*[-\u2013\u2014:]\s*(?:no\s+)?(?P<list2>{_PRONOUN_LIST}))?"
)


# "Third person throughout", "write in the third person (no I / my)", "third person only - no
# 'I', 'me' or 'my'": neither the writer's pronouns nor the reader's.
_PRONOUNS_SAID = r"[a-z0-9]+(?:\s*(?:,|/|\bor\b|\band\b|\betc\b\.?)\s*[a-z0-9]*)*"  # "q0, q1 or q2"
THIRD_PERSON = re.compile(
    r"\b(?:(?:write|written|keep it|keep|stay|stays|use|uses|be|is|in)\s+)*(?:the\s+)?third[- ]"
    r"person(?:\s+(?:voice|narration|perspective|point of view|pov))?"
    r"(?:\s+(?:only|throughout|all the way through|at all times|everywhere))?"
    rf"(?:\s*\((?:no\s+)?(?P<list>{_PRONOUNS_SAID})\)"
    rf"|\s*[-\u2013\u2014:;,]?\s*(?:no|not|never|without)\s+(?P<list2>{_PRONOUNS_SAID}))?"
)


def third_person_rule(match: re.Match[str], reading: Reading) -> Check | None:
    listed = match.group("list") or match.group("list2") or ""
    words = set(re.findall(r"[a-z0-9]+", listed)) - {"or", "and", "etc"}
    quoted = {reading.quote(token) for token in words if re.fullmatch(r"q\d+", token)}
    words = {w for w in words if not re.fullmatch(r"q\d+", w)}
    words |= {q.casefold() for q in quoted if q}
    if not words <= set(PRONOUNS["first"] + PRONOUNS["second"]) | {"i"}:
        return None  # "third person (formal)": an aside the rule does not read
    return all_of(
        create("pronoun_count", person="first", exactly=0),
        create("pronoun_count", person="second", exactly=0),
    )


def person_rule(match: re.Match[str], reading: Reading) -> Check | None:
    listed = match.group("list") or match.group("list2") or ""
    words = set(re.findall(r"[a-z]+", listed)) - {"or", "and", "etc"}
    if not words <= set(PRONOUNS["first"] + PRONOUNS["second"]):
        return None  # "no first person (formal report)": an aside the rule does not read
    person = match.group("which") + (f"_{match.group('number')}" if match.group("number") else "")
    return create("pronoun_count", person=person, exactly=0)
