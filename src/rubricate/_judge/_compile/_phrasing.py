"""Reading a format criterion in code: a small grammar of meanings, no model involved.

People state one format rule in many ways: "no bullet points", "don't use bullets", "avoid
bulleted lists", "without any bullet points" all mean `bullet_count(exactly=0)`; "under 100
words", "fewer than a hundred words", "keep it below 100 words" and "100 words or less" are one
bound on one count. Rather than list sentences, this module reads the parts that carry the
meaning, and composes them:

- **quantities**: a number in digits or words (`twenty-five`, `a hundred`, `a dozen`, `once`,
  `twice`, `a single`), a **comparator** before it (`at most`, `no more than`, `up to`, `under`,
  `fewer than`, `at least`, `over`, `exactly`...) or after it (`or fewer`, `or more`, `max`,
  `+`), or a range (`between 3 and 5`, `3-5`, `3 to 5`);
- **units**: words, sentences, paragraphs, characters, lines, bullet points, numbered items,
  list items, emojis, placeholders, headings, words in capitals, highlighted spans;
- **negation** (`not`, `never`, `no`, `without`, `avoid`...) flips a comparator (`must not
  exceed 100 words` is `at_most=100`), makes a unit absent (`no emojis` is `exactly=0`) or
  negates a rule (`never ends with a question`);
- **scope**: `each`, `every`, `per`, `no sentence ...` turn a count into a limit on every
  sentence, paragraph, line or list item (`word_count(at_most=20, per="sentence")`);
- **rules without a number**: a title, how the text starts or ends (a quoted phrase, a
  question, a punctuation mark), letter case (of the text or of its headings), commas, quotes
  around the text, JSON, a date format, a language, quoted keywords, a postscript.

A criterion is decided here only when every word of it is accounted for: after the rules
consume what they read, what is left may only be filler ("the response should", "your answer",
"the poem"...). A word left over ("warm tone", "about spring", a negation no rule used) means
the criterion says something the grammar did not read, and `parse_criterion` says so: the
compiler then asks the model, whose mapping is grounded as before, or leaves the criterion to
the judge. Precision over recall: a criterion this module decides is decided exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import RubricError
from ...checks import Check, all_of, create, negate
from ...checks._language import LANGUAGES

__all__ = ["ParsedCriterion", "normalize_numbers", "parse_criterion", "stated_numbers"]


@dataclass(frozen=True)
class ParsedCriterion:
    """What the grammar read in a criterion."""

    check: Check | None
    """The check deciding the whole criterion, when every word was accounted for."""
    found: tuple[Check, ...] = ()
    """The rules read, whether or not the whole criterion was (for a partial read)."""
    leftover: tuple[str, ...] = field(default=())
    """The words no rule read and that are not filler; empty when `check` is set."""

    @property
    def complete(self) -> bool:
        """Whether the criterion was read whole: `check` decides it."""
        return self.check is not None


# -- numbers ---------------------------------------------------------------------------------

_UNITS = {
    word: value
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_CORE = "|".join([*_UNITS, *_TENS, *_SCALES, "dozen", "single"])
_NUMBER_WORD = "|".join([*_UNITS, *_TENS, *_SCALES, "dozen", "single", "a", "an", "and"])
_NUMBER_RUN = re.compile(rf"\b(?:(?:{_NUMBER_WORD})(?:[\s-]+|$))*(?:{_NUMBER_CORE})\b")
_TIMES = {"once": "1 times", "twice": "2 times", "thrice": "3 times"}
_ARTICLE_NUMBERS = frozenset({"hundred", "thousand", "dozen", "single"})


def _words_to_number(words: Sequence[str]) -> int | None:
    """`["twenty", "five"]` -> 25, `["a", "hundred"]` -> 100, `["a", "single"]` -> 1."""
    total = current = 0
    seen = False
    for word in words:
        if word in ("a", "an"):
            current = max(current, 1) if not seen else current
            continue
        if word == "and":
            continue
        if word == "single":
            current, seen = 1, True
        elif word == "dozen":
            current, seen = max(current, 1) * 12, True
        elif word in _UNITS:
            current, seen = current + _UNITS[word], True
        elif word in _TENS:
            current, seen = current + _TENS[word], True
        elif word in _SCALES:
            current, seen = max(current, 1) * _SCALES[word], True
            if _SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            return None
    return total + current if seen else None


def normalize_numbers(text: str) -> str:
    """Casefolded `text` with numbers in words written in digits and `1,000` as `1000`.

    `twice` becomes `2 times`; `a single` and `one` become `1`. A run that is not a number on
    its own (`a`, `and`) is left as it is.
    """
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.casefold())
    for word, digits in _TIMES.items():
        text = re.sub(rf"\b{word}\b", digits, text)

    def replace(match: re.Match[str]) -> str:
        words = [w for w in re.split(r"[\s-]+", match.group().strip()) if w]
        # A leading article belongs to the number only before a scale ("a hundred", "a
        # dozen", "a single"); "a two-sentence answer" is two. A leading "and" never does.
        lead = ""
        while words and (
            words[0] == "and"
            or (words[0] in ("a", "an") and (len(words) < 2 or words[1] not in _ARTICLE_NUMBERS))
        ):
            lead += words.pop(0) + " "
        value = _words_to_number(words)
        if value is None:
            return match.group()
        tail = " " if match.group().endswith((" ", "-")) else ""
        return f"{lead}{value}{tail}"

    return _NUMBER_RUN.sub(replace, text)


def stated_numbers(description: str) -> set[int]:
    """Every number a criterion states, in digits or words; 0 when it states an absence.

    "no bullet points", "without emojis", "never", "none", "avoid": a count of zero is what
    the criterion says, even though no `0` is written.
    """
    text = normalize_numbers(_plain(description))
    numbers = {int(n) for n in re.findall(r"\d+", text)}
    ordinals = {word: value for value, word in enumerate(_ORDINAL_WORDS, start=1)}
    numbers |= {value for word, value in ordinals.items() if re.search(rf"\b{word}\b", text)}
    if _ABSENCE.search(text):
        numbers.add(0)
    return numbers


# -- the grammar -----------------------------------------------------------------------------

_ORDINAL_WORDS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
]
_ORDINAL = "|".join(_ORDINAL_WORDS) + r"|\d+(?:st|nd|rd|th)"
_NEG = (
    r"(?:not|never|no|none|without|avoid(?:s|ing)?|zero|free of|refrain from|omit(?:s|ting)?|"
    r"exclud(?:e|es|ing)|skip(?:s|ping)?|nor)"
)
_ABSENCE = re.compile(rf"\b{_NEG}\b|n't\b|-free\b")
_CMP = {
    "at_most": (
        r"at (?:the )?most|up to|a maximum of|maximum of|maximum|an? max of|max of|max\.?|within|"
        r"limited to|"
        r"(?:limit|keep|cap|restrict)\w*(?: \w+){0,2}? (?:to|at|within)|no longer than|"
        r"≤|<=|not to exceed"
    ),
    "fewer_than": r"fewer than|less than|under|below|shorter than|<",
    "at_least": r"at least|a minimum of|minimum of|minimum|min\.?|≥|>=",
    "more_than": r"more than|over|above|beyond|greater than|longer than|exceed(?:s|ing)?|>",
    "exactly": r"exactly|precisely|just|only",
}
_CMP_ANY = "|".join(f"(?P<{key}>{value})" for key, value in _CMP.items())
_POST = {
    "at_most": r"or (?:fewer|less|under|below|shorter)|max(?:imum)?|at (?:the )?most|tops|or so",
    "at_least": r"or (?:more|longer|above|over)|at least|minimum|min|\+|plus",
}
_FLIP = {"at_most": "more_than", "more_than": "at_most", "at_least": "fewer_than"}
_FLIP |= {"fewer_than": "at_least"}
# Unit words -> (key). Longest first, so "bullet points" is read before "points".
_UNIT_WORDS: tuple[tuple[str, str], ...] = (
    (
        r"words? (?:written )?in (?:all )?(?:capital letters|capitals|caps|upper[- ]?case)|"
        r"all[- ]caps words?|(?:upper[- ]?case|capitali[sz]ed) words?",
        "capital_word",
    ),
    (r"bullet(?:ed)?[- ]?(?:points?|list items?|items?|lines?)|bullets?", "bullet"),
    (r"numbered (?:list )?(?:items?|points?|steps?|entries|lines?)", "numbered"),
    (r"(?:list )?items?|list entries|entries", "item"),
    (r"highlighted (?:sections?|parts?|phrases?|words?|passages?)|highlights", "highlight"),
    (r"placeholders?", "placeholder"),
    (r"emojis?|emoticons?", "emoji"),
    (r"(?:markdown )?(?:sub)?head(?:ing|er)s?|sections? headings?", "heading"),
    (r"sentences?", "sentence"),
    (r"paragraphs?|paras?", "paragraph"),
    (r"characters?|chars?", "character"),
    (r"lines?", "line"),
    (r"words?", "word"),
    (r"sections?", "section"),
)
_UNIT = "|".join(f"(?:{pattern})" for pattern, _ in _UNIT_WORDS)
_UNIT_KEYS = [(re.compile(rf"(?:{pattern})$"), key) for pattern, key in _UNIT_WORDS]
_COUNT_CHECK = {
    "word": ("word_count", {}),
    "sentence": ("sentence_count", {}),
    "paragraph": ("paragraph_count", {}),
    "character": ("character_count", {}),
    "line": ("line_count", {}),
    "bullet": ("bullet_count", {}),
    "numbered": ("numbered_count", {}),
    "item": ("bullet_count", {"numbered": True}),
    "emoji": ("emoji_count", {}),
    "placeholder": ("placeholder_count", {}),
    "heading": ("section_count", {}),
    "capital_word": ("capital_word_count", {}),
    "highlight": ("highlight_count", {}),
}
# Which unit a per-unit limit may apply inside.
_CONTAINERS = {
    "word": ("sentence", "paragraph", "line", "item"),
    "character": ("sentence", "paragraph", "line", "item"),
    "sentence": ("paragraph",),
}
_CONTAINER_WORDS = {
    "sentence": r"sentences?",
    "paragraph": r"paragraphs?|paras?",
    "line": r"lines?",
    "item": r"bullet(?:ed)?[- ]?(?:points?|items?)|bullets?|(?:list )?items?|list entries|entries",
}
_CONTAINER = "|".join(f"(?P<c_{key}>{value})" for key, value in _CONTAINER_WORDS.items())
_LANGUAGE_CODES = {name.casefold(): code for code, name in LANGUAGES.items() if "(" not in name}
_LANGUAGE_NAMES = "|".join(sorted(_LANGUAGE_CODES, key=len, reverse=True))
_DIVIDER = r"(?P<sep>(?:\*{3,}|-{3,}|_{3,}|={3,}|~{3,}|#{3,}))"
_LIST_WORDS = r"(?:and|or|nor|,|;|and/or)"
_EXAMPLE_TAIL = (
    r",?\s*(?:like|such as|e\.g\.,?|for example,?|for instance,?)\s+"
    r"(?:q\d+|<<[^>]*>>|\*[^*\s][^*]*\*|\[[^\]]+\]|\S+)"
)
_QUOTED = re.compile(r"(?<!\w)'(?P<single>[^']*?\w[^']*?)'(?!\w)|\"(?P<double>[^\"]*?\w[^\"]*?)\"")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_TAIL_QUOTE = re.compile(r":\s*(['\"])(?P<body>.*\w.*)\1\W*$", re.DOTALL)


_CONSUMED = "\x00"


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry no rule: the subject, modal verbs, articles, "the response should".
_FILLER = _word_set(
    """
    a an the this that these those it its it's itself response responses answer answers
    reply replies output text draft writing result message content copy piece whole entire
    overall total full complete final your you yours my me i we our us please kindly
    should must shall will would can could may might need needs needed has have having had
    is are be been being was were do does did doing make makes made keep keeps kept stay
    stays remain remains contain contains containing include includes including use uses
    using used write writes written writing give gives given provide provides provided
    present presented format formatted formatting structure structured organized organised
    put add adds added appear appears show shows form style feature features of in on at
    to for with by as from into within throughout across and or but also only just all any
    each every some one both either so then there here which where when what total length
    long short size count number amount limit overall roughly strictly poem haiku essay
    summary story email letter post blog article tweet note description explanation report
    review message bio slogan speech script song lyrics limerick sonnet cover blurb quote
    recipe guide instructions steps reply comment update announcement memo summary
    everything entirely completely wholly fully exactly precisely allowed permitted sure
    ensure ensures respond responds responding aim aims target run runs lay laid out offer
    offers deliver delivers produce produces create creates compose composes generate
    generates craft crafts draft drafts prepare prepares return returns print prints go
    goes consist consists set
    """
)


@dataclass
class _Reading:
    """The criterion as the rules consume it."""

    text: str
    quotes: list[str]
    checks: list[Check] = field(default_factory=list)

    def quote(self, token: str | None) -> str | None:
        if token is None:
            return None
        match = re.fullmatch(r"q(\d+)", token)
        return self.quotes[int(match.group(1))] if match else None

    def quote_list(self, tokens: str) -> list[str]:
        return [self.quotes[int(n)] for n in re.findall(r"q(\d+)", tokens)]


_Builder = Callable[[re.Match[str], _Reading], "Check | None"]


def _plain(description: str) -> str:
    return " ".join(description.translate(_QUOTES).split())


def _read(description: str) -> _Reading:
    """Quotes lifted out as `q0`, `q1`...; then casefolded, contractions opened, numbers."""
    text = _plain(description)
    quotes: list[str] = []

    def lift(phrase: str) -> str:
        quotes.append(phrase)
        return f" q{len(quotes) - 1} "

    tail = _TAIL_QUOTE.search(text)
    # A long quoted request at the end ("repeat this request: '...'") may hold apostrophes
    # that end no quote; a list of quoted options ("'yes', 'no'") is read one quote at a time.
    if tail is not None and not re.search(r"['\"]\s*(?:,|or|and)\s*['\"]", tail.group("body")):
        body = tail.group("body")
        text = text[: tail.start()] + ": " + lift(body)
    text = _QUOTED.sub(lambda m: lift(m.group("single") or m.group("double") or ""), text)
    text = re.sub(r"\bwon't\b", "will not", text, flags=re.IGNORECASE)
    text = re.sub(r"\bcan't\b|\bcannot\b", "can not", text, flags=re.IGNORECASE)
    text = re.sub(r"n't\b", " not", text, flags=re.IGNORECASE)
    text = normalize_numbers(text)
    text = re.sub(r"\s+", " ", text).strip()
    return _Reading(text=text, quotes=quotes)


def _unit_key(words: str) -> str | None:
    words = words.strip()
    return next((key for pattern, key in _UNIT_KEYS if pattern.match(words)), None)


def _bound(cmp: str | None, negated: bool) -> str | None:
    key = cmp or "exactly"
    if negated:
        return _FLIP.get(key)
    return key


def _cmp_key(match: re.Match[str], prefix: str = "") -> str | None:
    for key in _CMP:
        if match.groupdict().get(f"{prefix}{key}"):
            return key
    return None


def _count_check(unit: str, bounds: dict[str, int], **extra: Any) -> Check:
    name, args = _COUNT_CHECK[unit]
    return create(name, **args, **extra, **bounds)


# The count rule: [negation] [comparator] N [unit] [post-comparator], or a range.
# What may stand between a negation and the bound it flips: verbs ("must not go over"), or the
# unit a limit applies in ("no sentence longer than"); never another noun ("no heading longer
# than" is about headings, which the grammar does not count words in).
_NEG_GAP = (
    r"be|go|goes|have|has|contain|contains|use|uses|write|include|includes|run|runs|get|is|are|"
    r"exceed|make|let|allow|any|ever|should|must|will|can|do|does|with|having|of|"
    rf"{'|'.join(_CONTAINER_WORDS.values())}"
)
_COUNT = re.compile(
    rf"(?:(?P<neg>\b{_NEG}|\bnot)\s+(?:(?:{_NEG_GAP})\s+){{0,2}}?)?"
    rf"(?:(?:{_CMP_ANY})\s+)?(?:(?:between|from)\s+)?(?:(?P<low>\d+)\s*(?:-|–|to|and|or)\s*)?"
    rf"(?:(?:at least|no fewer than|no less than|a minimum of|minimum)\s+(?P<low2>\d+)\s+"
    rf"(?:but|and)\s+(?P<high2>no more than|not more than|at most|up to|fewer than|less than|"
    rf"under)\s+)?(?P<n>\d+)(?P<plus>\+)?"
    rf"(?:\s*-\s*|\s+)(?:(?:different|distinct|separate|full|complete|short|long|concise|"
    rf"clear|main|key|total|distinct|markdown|\w+-(?=\w))\s+)?(?P<unit>{_UNIT})\b"
    rf"(?:\s+(?P<post_most>{_POST['at_most']})|\s*(?P<post_least>{_POST['at_least']}))?"
    rf"(?:\s+(?:long|in length|in total|total|or so))?"
)


def _count_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    unit = _unit_key(match.group("unit"))
    if unit is None:
        return None
    n = int(match.group("n"))
    negated = match.group("neg") is not None
    cmp = _cmp_key(match)
    if match.group("post_most"):
        cmp = cmp or "at_most"
    if match.group("post_least"):
        cmp = cmp or "at_least"
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
        key = _bound(cmp, negated)
        if key is None:
            return None
        bounds = {key: n}
    if unit == "section":
        return _sections(bounds, reading)
    per, per_span = _per(unit, match, reading)
    if per_span is False:
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
        return _count_check(unit, bounds, **extra)
    except RubricError:
        return None


def _sections(bounds: dict[str, int], reading: _Reading) -> Check | None:
    """Sections: each opening with a quoted marker (`'SECTION X'`), or Markdown headings."""
    marker = re.search(
        r"(?:start(?:s|ing)?|begin(?:s|ning)?|open(?:s|ing)?|marked|labell?ed|headed|titled)"
        r" (?:with )?(?:the )?(?:word |marker |label )?(?P<q>q\d+)"
        r"(?: where \w+ is the (?:section )?number| followed by (?:its|the|a) number)?",
        reading.text,
    )
    if marker is not None:
        reading.text = _mask(reading.text, marker.start(), marker.end())
        return create("section_count", marker=reading.quote(marker.group("q")), **bounds)
    if re.search(r"\b(?:markdown|heading|header)", reading.text):
        return create("section_count", **bounds)
    return None


def _separator(reading: _Reading, start: int) -> str | bool | None:
    """A divider the paragraphs are separated by (`***`), None for blank lines, False: unread."""
    after = re.compile(
        r",?\s*(?:and\s+)?(?:each\s+|that are\s+|which are\s+)?(?:separated|divided|split)"
        r"(?: from each other| from one another)?\s+(?:by|with|using)\s+(?P<what>[^,;.]*)"
    ).match(reading.text, start)
    if after is None:
        return None
    what = after.group("what").strip()
    divider = re.search(_DIVIDER, what)
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
        reading.text = _mask(reading.text, after.start(), after.end())
        return divider.group()
    if blank is not None:
        reading.text = _mask(reading.text, after.start(), after.end())
        return None
    return False


def _per(unit: str, match: re.Match[str], reading: _Reading) -> tuple[str | None, bool | None]:
    """The unit a count applies inside (`per="sentence"`), read from `each`/`every`/`per`.

    Returns `(per, True)` when one was read (and masked), `(None, None)` when the count is for
    the whole text, and `(None, False)` when the scope is there but cannot be a check.
    """
    text = reading.text
    scope = re.compile(
        rf"\b(?:each|every|per|any|no|in each|in every|for each|for every|all(?: the)?|"
        rf"individual|single)\s+(?:{_CONTAINER})\b"
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
        bare = re.compile(rf"\b(?:{_CONTAINER})\b")
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
            before = [m for m in re.finditer(rf"\b(?:{_CONTAINER})\b", text[: each.start()])]
            if before:
                last = before[-1]
                container_key = next(
                    k.removeprefix("c_")
                    for k, v in last.groupdict().items()
                    if v and k.startswith("c_")
                )
                span = (each.start(), each.end())
    if container_key is None or span is None:
        return None, None
    if container_key not in _CONTAINERS.get(unit, ()):
        return None, False
    reading.text = _mask(reading.text, *span)
    return container_key, True


def _mask(text: str, start: int, end: int) -> str:
    """The text with a consumed span blanked out by a character no rule reads across."""
    return text[:start] + _CONSUMED * (end - start) + text[end:]


def _zero_units(words: str) -> list[Check] | None:
    """The checks for units said to be absent: "bullet points or emojis" -> two zero counts."""
    found: list[Check] = []
    pieces = [p.strip() for p in re.split(rf"\s*(?:{_LIST_WORDS})\s*(?:any\s+)?", words)]
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
)


def _absent(piece: str) -> Check | None:
    for pattern, build in _ABSENT:
        if re.fullmatch(pattern, piece):
            return build()
    unit = _unit_key(piece)
    if unit in ("bullet", "numbered", "emoji", "heading", "placeholder", "highlight", "item"):
        return _count_check(unit, {"exactly": 0})
    if unit == "capital_word":
        return create("capital_word_count", exactly=0)
    return None


_ZERO_UNIT = (
    r"(?:(?:bullet(?:ed)?|numbered|ordered)(?=\s+(?:or|and|nor)\s)|commas?|"
    r"(?:capital|upper[- ]?case|uppercase) letters?|capitals|capitalization|"
    r"title|(?:bullet(?:ed)?|unordered|numbered|ordered) lists?|lists?|list formatting|"
    rf"{_UNIT})"
)
_ZERO = re.compile(
    rf"\b(?P<neg>{_NEG})\b\s+(?:(?:any|a|an|the|use of|using|use|uses|include|including|"
    rf"contain|containing|have|has|with|write|put|add|of|format(?:ted)?(?: it)? as|"
    rf"in|as|be|single|1|kind of|type of|sort of|form of)\s+){{0,3}}"
    rf"(?P<units>{_ZERO_UNIT}(?:\s*(?:{_LIST_WORDS})\s*(?:any\s+)?{_ZERO_UNIT})*)\b"
    # "no heading longer than 6 words" limits headings; it does not forbid them.
    rf"(?![- ]?case\b)(?!\s+(?:longer|shorter|more|less|fewer|over|under|above|below|"
    rf"exceed\w*|with|has|have|"
    rf"having|of|that|which|than|beyond|containing|contains|is|are|may|can)\b)"
    rf"(?:\s+(?:at all|whatsoever|anywhere|of any kind|entirely|completely))?"
    rf"|\b(?P<units2>{_ZERO_UNIT})[- ]free\b"
)


def _zero_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    units = match.group("units") or match.group("units2")
    found = _zero_units(units)
    if not found:
        return None
    # "no more than" is a bound, read by the count rule; "no 3 bullets" is nothing.
    return all_of(*found)


# Presence: a unit named with a positive verb and no number ("use bullet points").
_PRESENT = re.compile(
    r"\b(?:(?:at least )?(?:a|an|1|one|some|several)\s+)?"
    r"(?P<unit>bullet(?:ed)?[- ]?(?:points?|lists?|list format)|bullets|"
    r"(?:numbered|ordered) (?:lists?|steps?|list format)|emojis?|emoticons?|(?:markdown )?"
    r"(?:sub)?head(?:ing|er)s|a list)\b"
)


def _present_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    unit = match.group("unit")
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


_LIST_OF = re.compile(
    rf"\b(?:(?P<kind>bullet(?:ed)?|numbered|ordered)(?: point)? )?list "
    rf"(?:of|with|containing|that has|having|has|contains|should have|must have|should contain|"
    rf"must contain|includes|needs)\s+(?:(?:{_CMP_ANY})\s+)?(?P<n>\d+)\s+(?:[a-z]+\s+)?"
    rf"(?:(?:items?|entries|points?|"
    rf"elements?|things|steps?|tips|ideas|examples|reasons|options|bullets?|bullet points)\b|"
    rf"(?P<noun>[a-z]+s)\b)"
)


def _list_of_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    key = _bound(_cmp_key(match), False)
    if key is None:
        return None
    bounds = {key: int(match.group("n"))}
    kind = match.group("kind") or ""
    if kind.startswith("bullet"):
        return create("bullet_count", **bounds)
    if kind in ("numbered", "ordered"):
        return create("numbered_count", **bounds)
    return create("bullet_count", numbered=True, **bounds)


_TITLE_ANGLE = re.compile(
    r"(?:(?:a |the )?title\s+)?(?:(?:wrapped|enclosed|written|placed|put)\s+)?(?:in|inside|within|"
    r"between)\s+(?:double\s+)?(?:angular|angle) brackets"
    r"(?:\s*,?\s*(?:like|such as|e\.g\.,?)\s+<<[^>]*>>)?"
    r"|(?:a |the )?title\s+(?:like|such as|as in|in the form)?\s*<<[^>]*>>|<<[^>]*>>"
)
# A title is read as a rule only after a verb of having or adding ("has a title", "give it a
# title", "start with a heading"): "keep the title under 8 words" is about the title, not a rule
# that there be one, and the leftover "title" then keeps that criterion from being decided.
_TITLE = re.compile(
    r"\b(?:(?P<neg>not|never|no|without)\s+(?:\w+\s+){0,2}?)?"
    r"(?:(?:starts?|begins?|opens?|starting|beginning|opening)(?:\s+[a-z]+){0,2}?\s+with|"
    r"has|have|having|with|include[sd]?|including|add(?:s|ed)?|put|needs?|contains?|uses?|"
    r"provides?|gives?(?:\s+[a-z]+){0,2}?|there is|there should be|own)\s+"
    r"(?:(?:a|the|its|an?)\s+)?"
    r"(?:(?:short|clear|catchy|descriptive|bold|markdown|proper)\s+)?(?:title|heading|headline)"
    r"(?:\s+(?:line|at the top|on the first line|on top|first|above it))?\b"
    r"|\b(?:titled|entitled)\b"
)


def _title_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    check = create("has_title")
    return negate(check) if match.groupdict().get("neg") else check


def _angle_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    return create("has_title", angle_brackets=True)


_CASE_NAMES = {"title": "title", "sentence": "sentence", "lower": "lower", "upper": "upper"}
_HEADING_CASE = re.compile(
    r"(?:(?P<neg1>not|never)\s+(?:\w+\s+){0,2}?)?"
    r"(?:(?:all |every |each |the |its |their )?(?:title|headings?|headers?|subheadings?|"
    r"section (?:titles|headings))\s+(?:(?:must|should|will|can|are|is|be|to|do|does|use|"
    r"written|set|in)\s+|(?P<neg2>not|never)\s+){0,4})?"
    r"(?:in |use |using |with |written in )?(?P<case>title|sentence|lower|upper)[- ]?case"
    r"(?:\s+(?:for|in|on)\s+(?:the |all |every |each |its )?(?:title|headings?|headers?|"
    r"subheadings?|section titles|section headings?))?"
)


def _heading_case_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    case = match.group("case")
    scoped = re.search(
        r"\b(?:title|heading|header|subheading)",
        match.group()
        .replace(f"{case} case", "")
        .replace(f"{case}-case", "")
        .replace(f"{case}case", ""),
    )
    if case in ("lower", "upper") and not scoped:
        return None  # the whole text: the case rule reads it
    check = create("heading_case", case=case)
    return negate(check) if match.group("neg1") or match.group("neg2") else check


_WHOLE_CASE = re.compile(
    r"(?:(?P<neg>not|never)\s+(?:\w+\s+){0,3}?)?"
    r"(?:(?:all|entirely|only|completely|wholly|fully|solely|exclusively)\s+)?(?:in\s+)?"
    r"(?:(?P<lower>lower[- ]?case|small letters)|(?P<upper>upper[- ]?case|capital letters|capitals|"
    r"all caps|all-caps|caps|block capitals|block letters))"
    r"(?:\s+(?:letters?|characters?))?(?:\s+(?:only|throughout|at all))?"
    r"(?:\s*[;,]?\s*no (?:capital|upper[- ]?case|uppercase) letters?(?: at all)?)?"
)


def _whole_case_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    check = create("all_lowercase" if match.group("lower") else "all_capitals")
    return negate(check) if match.group("neg") else check


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
_END_MARK = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:(?:{_ENDING})(?:\s+(?!with\b)[a-z]+){{0,2}}?\s+(?:with|on|in|by asking|by posing)\s+|"
    rf"(?:the )?(?:last|final|closing) (?:sentence|line|part) (?:(?:is|should|must|has to|"
    rf"needs to|will|can|may)\s+(?:(?P<neg2>not)\s+)?(?:be\s+)?)"
    rf")"
    rf"(?:(?P<q>{_MARK_WORDS['?']})|(?P<x>{_MARK_WORDS['!']})|(?P<p>{_MARK_WORDS['.']})|"
    rf"(?P<e>{_MARK_WORDS['…']}))"
    rf"(?:\s+(?:for|to) the (?:reader|user|audience))?"
)


def _end_mark_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    mark = next(
        m for key, m in (("q", "?"), ("x", "!"), ("p", "."), ("e", "…")) if match.group(key)
    )
    check = create("ends_with_punctuation", mark=mark)
    return negate(check) if match.group("neg") or match.group("neg2") else check


_PHRASE_LEAD = (
    r"(?:(?:with|on|by saying|by writing|using)\s+)(?:the\s+)?(?:exact\s+)?"
    r"(?:(?:phrase|words?|sentence|line|text|sign-?off|greeting|question)\s+)?"
)
_END_PHRASE = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"(?:{_ENDING})(?:\s+(?!with\b)[a-z]+){{0,2}}?\s+{_PHRASE_LEAD}(?P<q>q\d+)"
    rf"(?:\s*,?\s*(?:with\s+)?(?:no|nothing)\s+(?:other\s+|more\s+)?(?:words?|text)?\s*"
    rf"(?:after|following|afterwards?)(?:\s+(?:it|that|this))?)?"
    rf"|(?:the\s+)?(?:last|final|closing)\s+(?:words?|line|sentence)\s+"
    rf"(?:is|are|should be|must be|reads?)"
    rf"\s+(?P<q2>q\d+)"
)


def _end_phrase_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    phrase = reading.quote(match.group("q") or match.group("q2"))
    if not phrase or not phrase.strip():
        return None
    if phrase.strip() in ("?", "!", ".", "...", "…"):
        check = create("ends_with_punctuation", mark=phrase.strip())
    else:
        check = create("ends_with", phrase=phrase)
    return negate(check) if match.group("neg") else check


_STARTING = r"(?:starts?|starting|begins?|beginning|opens?|opening)"
_START_PHRASE = re.compile(
    rf"(?:(?P<neg>not|never|avoid(?:s|ing)?)\s+(?:\w+\s+){{0,1}}?)?"
    rf"{_STARTING}\s+{_PHRASE_LEAD}(?P<q>q\d+)"
    rf"|(?:the\s+)?first\s+(?:words?|line|sentence)\s+(?:is|are|should be|must be|reads?)\s+"
    rf"(?P<q2>q\d+)"
    rf"|(?:first|start by|begin by|before answering,?)\s+"
    rf"(?:repeat(?:s|ing)?|restat(?:e|es|ing)|cop(?:y|ies|ying))\s+"
    rf"(?:the|this|my|your)?\s*(?:request|question|prompt|instruction|task)\b[^q]*?(?P<q3>q\d+)"
)


def _start_phrase_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    phrase = reading.quote(match.group("q") or match.group("q2") or match.group("q3"))
    if not phrase or not phrase.strip():
        return None
    check = create("starts_with", phrase=phrase)
    return negate(check) if match.group("neg") else check


_PARAGRAPH_START = re.compile(
    rf"(?:the\s+)?(?:paragraph\s+(?P<n>\d+)|(?P<ord>{_ORDINAL})\s+paragraph)\s+"
    rf"(?:should\s+|must\s+|has to\s+|will\s+)?{_STARTING}\s+{_PHRASE_LEAD}(?P<q>q\d+)"
)


def _paragraph_start_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    phrase = reading.quote(match.group("q"))
    if match.group("n"):
        number = int(match.group("n"))
    else:
        ordinal = match.group("ord")
        number = (
            _ORDINAL_WORDS.index(ordinal) + 1
            if ordinal in _ORDINAL_WORDS
            else int(re.sub(r"\D", "", ordinal))
        )
    if not phrase:
        return None
    return create("paragraph_starts_with", paragraph=number, phrase=phrase)


_TIMES_RULE = re.compile(
    rf"(?:(?:the\s+)?(?P<kind>letter|character|word|phrase|term|keyword|name)\s+)?(?P<q>q\d+)\s+"
    rf"(?:(?:should|must|has to|will|is to|needs to)\s+)?"
    rf"(?:(?:appears?|occurs?|shows? up|is used|be used|"
    rf"is mentioned|be mentioned|is repeated|be repeated|is written|be written|comes? up)\s+)?"
    rf"(?:(?P<neg>not|never)\s+(?:\w+\s+){{0,1}}?)?(?:(?:{_CMP_ANY})\s+)?(?P<n>\d+)\s+times"
    rf"(?:\s+(?P<post_most>or (?:fewer|less))|\s+(?P<post_least>or more))?"
    rf"|(?:(?P<neg2>not|never)\s+)?(?:use|uses|using|mention|mentions|say|says|include|includes|"
    rf"repeat|repeats|write|writes)\s+(?:the\s+)?(?:(?P<kind2>letter|word|phrase|term|keyword|name)\s+)?"
    rf"(?P<q2>q\d+)\s+(?:(?:{_CMP_ANY.replace('(?P<', '(?P<b_')})\s+)?(?P<n2>\d+)\s+times"
    rf"(?:\s+(?P<post_most2>or (?:fewer|less))|\s+(?P<post_least2>or more))?"
)


def _times_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    second = match.group("q2") is not None
    phrase = reading.quote(match.group("q2") if second else match.group("q"))
    kind = match.group("kind2") if second else match.group("kind")
    n = int(match.group("n2") if second else match.group("n"))
    cmp = _cmp_key(match, "b_" if second else "")
    if match.group("post_most2" if second else "post_most"):
        cmp = cmp or "at_most"
    if match.group("post_least2" if second else "post_least"):
        cmp = cmp or "at_least"
    key = _bound(cmp, bool(match.group("neg2" if second else "neg")))
    if phrase is None or key is None:
        return None
    if kind in ("letter", "character") or (kind is None and len(phrase) == 1 and phrase.isalpha()):
        return create("letter_count", letter=phrase, **{key: n})
    return create("keyword_count", keyword=phrase, **{key: n})


_QUOTE_LIST = r"q\d+(?:\s*(?:,|and|or|,\s*and|,\s*or)\s*q\d+)*"
_KEYWORD_NOUN = r"(?:(?:key)?words?|phrases?|terms?|keywords?|names?|expressions?)"
_FORBIDDEN = re.compile(
    rf"\b(?:{_NEG}|not)\b\s+(?:(?:use|uses|using|include|includes|including|contain|contains|"
    rf"containing|mention|mentions|mentioning|say|says|saying|write|writes|writing|have|has|with|"
    rf"be|any|of|the|all|either|to)\s+){{0,4}}(?:{_KEYWORD_NOUN}\s+)?(?:like\s+|such as\s+)?"
    rf"(?P<qs>{_QUOTE_LIST})(?:\s+(?:anywhere|at all|in it))?"
)


def _forbidden_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    return create("keywords_forbidden", keywords=reading.quote_list(match.group("qs")))


_PRESENT_WORDS = re.compile(
    rf"\b(?:include|includes|including|use|uses|using|mention|mentions|mentioning|contain|contains|"
    rf"containing|say|says|feature|features|featuring|with|incorporate|incorporates|has|have)\s+"
    rf"(?:(?:the|all|of|both|each|every|following)\s+){{0,3}}(?:{_KEYWORD_NOUN}\s*:?\s+)?"
    rf"(?P<qs>{_QUOTE_LIST})(?:\s+(?:somewhere|at least once|anywhere))?"
    rf"|\b(?:the\s+)?(?:{_KEYWORD_NOUN}\s+)(?P<qs2>{_QUOTE_LIST})\s+"
    rf"(?:appears?|appear|are used|is used|"
    rf"are included|is included|shows? up)(?:\s+(?:at least once|somewhere))?"
)


def _present_words_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    words = reading.quote_list(match.group("qs") or match.group("qs2"))
    return create("keywords_present", keywords=words) if words else None


_ONE_OF = re.compile(
    rf"(?:exactly\s+)?(?:one|1)\s+of(?:\s+the\s+following)?(?:\s+(?:options|choices|answers|"
    rf"responses|phrases))?\s*:?\s*(?P<qs>{_QUOTE_LIST})"
)


def _one_of_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    options = reading.quote_list(match.group("qs"))
    return create("one_of", options=options) if len(options) > 1 else None


_QUOTES_AROUND = re.compile(
    r"(?:(?:wrap(?:ped|s)?|enclos(?:ed|e|es)|surround(?:ed|s)?|put|placed?|written)\s+)?"
    r"(?:(?:the )?(?:entire |whole )?(?:response |answer |text |output |it |itself )?)?"
    r"(?:in|with|within|inside|between|by)\s+(?:a pair of\s+)?(?:double\s+)?"
    r"(?:quotation marks|quotes|quote marks|quotations)"
)


def _quotes_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    return create("wrapped_in_quotes")


_JSON = re.compile(
    r"(?:(?:valid|proper|well-formed|correct|parseable|strict)\s+)?json(?:\s+(?:format|object|"
    r"array|only|data))?(?:\s*\(?\s*(?:it\s+)?(?:may|can)\s+be\s+(?:wrapped|enclosed|placed)\s+in\s+"
    r"(?:a\s+)?(?:markdown\s+)?code\s+(?:fence|block)\s*\)?)?"
)


def _json_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    return create("valid_json")


_DATE_SPEC = r"[ydm]{1,4}(?:[-/. ][ydm]{1,4}){2}"
_DATE = re.compile(
    rf"(?:(?:all|every|each|the|any)\s+)?dates?\s+(?:(?:should|must|are|is|be|to be|need to be|"
    rf"written|formatted|given|shown|expressed|appear)\s+){{0,3}}(?:(?:in|as|using|like|with|use)\s+)?"
    rf"(?:the\s+)?(?:format\s+)?(?:(?P<spec>{_DATE_SPEC})|(?P<q>q\d+)|(?P<iso>iso(?:[- ]8601)?))"
    rf"(?:\s+(?:format|style))?"
    rf"|iso(?:[- ]8601)? dates?(?:\s*\(?\s*(?P<spec3>{_DATE_SPEC})\s*\)?)?"
    rf"|(?:(?P<spec2>{_DATE_SPEC})|(?P<q2>q\d+)|(?P<iso2>iso(?:[- ]8601)?))\s+"
    rf"(?:date\s+)?(?:format|style)?"
    rf"\s*(?:for|in)\s+(?:all\s+|every\s+|each\s+|the\s+|any\s+)?dates?"
)


def _date_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    spec = match.group("spec") or match.group("spec2")
    quoted = reading.quote(match.group("q") or match.group("q2"))
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


_LANGUAGE = re.compile(
    rf"(?:(?:written|write|respond|answer|reply|entirely|only|wholly|fully|completely)\s+)*"
    rf"in\s+(?:the\s+)?(?P<lang>{_LANGUAGE_NAMES})\b(?:\s+language)?(?:\s+only)?"
    rf"(?:\s*,?\s*(?:and\s+)?no other language)?"
    rf"|in\s+the\s+language\s+(?:with|whose)\s+(?:iso\s+)?(?:639-1\s+)?code\s+(?:is\s+)?(?P<q>q\d+)"
    rf"(?:\s*,?\s*(?:and\s+)?no other language)?"
)


def _language_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    code = _LANGUAGE_CODES.get(match.group("lang") or "") or reading.quote(match.group("q"))
    if not code:
        return None
    try:
        return create("language", code=code.strip().casefold())
    except RubricError:
        return None


_POSTSCRIPT = re.compile(
    r"(?:(?:ends?|ending|finish(?:es)?|close[sd]?)\s+with\s+|(?:add|adds|include|includes|with|has|have)\s+)?"
    r"(?:a\s+)?\b(?:postscript|p\.\s?s\.?|ps)\b(?:\s+(?:section|note|line))?"
    r"(?:\s+(?:starting|beginning|that starts|that begins|marked|labell?ed|opening)\s+with\s+"
    r"(?:the\s+)?(?:marker\s+)?(?P<q>q\d+))?"
)


def _postscript_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    marker = reading.quote(match.group("q"))
    try:
        return create("has_postscript", marker=marker) if marker else create("has_postscript")
    except RubricError:
        return None


_PARTS = re.compile(
    rf"(?P<n>\d+)\s+(?P<distinct>different\s+|distinct\s+|separate\s+|unique\s+)?"
    rf"(?:responses|answers|versions|parts|replies|drafts|variants|options)\s+"
    rf"(?:(?:that are|which are)\s+)?(?:separated|divided|split)\s+(?:from each other\s+)?"
    rf"(?:by|with|using)\s+"
    rf"(?:exactly\s+)?(?:\d+\s+)?(?:(?:asterisks|stars|dashes|hyphens|hashes|equals signs|tildes|"
    rf"underscores|symbols)\s+)?(?:like\s+)?{_DIVIDER}"
)


def _parts_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    return create(
        "part_count",
        separator=match.group("sep"),
        exactly=int(match.group("n")),
        distinct=bool(match.group("distinct")),
    )


_HIGHLIGHT = re.compile(
    rf"(?:highlight(?:s|ing)?|bold(?:s|ing)?|emphasi[sz](?:e|es|ing))\s+(?:(?:{_CMP_ANY})\s+)?"
    rf"(?P<n>\d+)\s+(?:sections?|parts?|phrases?|words?|passages?|key (?:points|terms|phrases))"
    rf"(?:\s+(?:with|using|in)\s+markdown)?"
)


def _highlight_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    key = _bound(_cmp_key(match), False)
    if key is None:
        return None
    return create("highlight_count", **{key: int(match.group("n"))})


_PLACEHOLDER_TAIL = re.compile(r"\s*(?:in|with|using|inside|within)\s+square brackets")
_EXAMPLE = re.compile(_EXAMPLE_TAIL)

_UNIT_LIMIT = re.compile(
    rf"(?:the\s+)?(?P<unit>word|sentence|paragraph|character|line|bullet(?: point)?)s?[- ]?"
    rf"(?:count|limit|total|length)\s*(?::|of|is|should be|must be|must|should|stays?|remains?|"
    rf"to be)?\s*(?:(?P<neg>not|never)\s+(?:\w+\s+)?)?(?:(?:{_CMP_ANY})\s+)?(?P<n>\d+)"
)


def _unit_limit_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    unit = _unit_key(match.group("unit"))
    cmp = _cmp_key(match)
    if cmp is None and re.search(r"limit", match.group()):
        cmp = "at_most"  # "a word limit of 150"
    key = _bound(cmp, match.group("neg") is not None)
    if unit is None or key is None:
        return None
    return _count_check(unit, {key: int(match.group("n"))})


_CAPITAL_TIMES = re.compile(
    rf"(?P<unit>{_UNIT_WORDS[0][0]})\s+(?:(?:should|must|will|to)\s+)?(?:appears?|occurs?|are used|"
    rf"be used|show up)\s+(?:(?P<neg>not|never)\s+)?(?:(?:{_CMP_ANY})\s+)?(?P<n>\d+)\s+times"
)


def _capital_times_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    key = _bound(_cmp_key(match), match.group("neg") is not None)
    if key is None:
        return None
    return create("capital_word_count", **{key: int(match.group("n"))})


_UNNUMBERED = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+)?number\s+(?:the\s+|your\s+|any\s+)?"
    r"(?:steps|items|points|list|lines|entries|tips|ideas)\b"
)


def _unnumbered_rule(match: re.Match[str], reading: _Reading) -> Check | None:
    return create("numbered_count", exactly=0)


_RULES: tuple[tuple[re.Pattern[str], _Builder], ...] = (
    (_UNNUMBERED, _unnumbered_rule),
    (_PARTS, _parts_rule),
    (_POSTSCRIPT, _postscript_rule),
    (_PARAGRAPH_START, _paragraph_start_rule),
    (_ZERO, _zero_rule),
    (_CAPITAL_TIMES, _capital_times_rule),
    (_HIGHLIGHT, _highlight_rule),
    (_LIST_OF, _list_of_rule),
    (_UNIT_LIMIT, _unit_limit_rule),
    (_COUNT, _count_rule),
    (_START_PHRASE, _start_phrase_rule),
    (_END_PHRASE, _end_phrase_rule),
    (_END_MARK, _end_mark_rule),
    (_ONE_OF, _one_of_rule),
    (_TIMES_RULE, _times_rule),
    (_FORBIDDEN, _forbidden_rule),
    (_PRESENT_WORDS, _present_words_rule),
    (_DATE, _date_rule),
    (_TITLE_ANGLE, _angle_rule),
    (_HEADING_CASE, _heading_case_rule),
    (_WHOLE_CASE, _whole_case_rule),
    (_TITLE, _title_rule),
    (_QUOTES_AROUND, _quotes_rule),
    (_JSON, _json_rule),
    (_LANGUAGE, _language_rule),
    (_PRESENT, _present_rule),
)


def parse_criterion(description: str) -> ParsedCriterion:
    """Read a criterion with the grammar: a check when every word of it is accounted for.

    Example:
        ```python
        parse_criterion("Don't use any bullet points.").check
        # checks.bullet_count(exactly=0)
        parse_criterion("Keep every sentence under 20 words").check
        # checks.word_count(fewer_than=20, per='sentence')
        parse_criterion("The tone is warm").check  # None: nothing here is a format rule
        ```

    """
    reading = _read(description)
    for pattern, build in _RULES:
        position = 0
        while (match := pattern.search(reading.text, position)) is not None:
            if not match.group().strip():
                position = match.end() + 1
                continue
            before = reading.text
            try:
                check = build(match, reading)
            except RubricError:
                check = None
            if check is None:
                reading.text = before
                position = match.end()
                continue
            reading.checks.append(check)
            reading.text = _mask(reading.text, match.start(), match.end())
            position = match.end()
    rest = _EXAMPLE.sub(" ", reading.text)
    rest = (
        _PLACEHOLDER_TAIL.sub(" ", rest)
        if any(c.name == "placeholder_count" for c in reading.checks)
        else rest
    )
    leftover = tuple(
        word
        for word in re.findall(r"[a-z0-9][a-z0-9'’-]*", rest)
        if (word not in _FILLER and not re.fullmatch(r"q\d+", word)) or _is_negation(word)
    )
    quotes_left = re.findall(r"\bq\d+\b", rest)
    found = tuple(reading.checks)
    if not found or leftover or quotes_left:
        return ParsedCriterion(None, found, leftover + tuple(quotes_left))
    unique = {check.__name__: check for check in found}
    return ParsedCriterion(all_of(*unique.values()), found)


def _is_negation(word: str) -> bool:
    return bool(re.fullmatch(_NEG + r"|not", word))
