"""The phrase grammar's words, and a criterion prepared for its rules.

Negations, comparators (before and after a number), units and the containers a per-unit limit
applies in, language names, the filler words that carry no rule; `read` lifts quoted phrases
out (`q0`, `q1`...), opens contractions and writes numbers in digits, so that each rule
(the `_*_rules.py` modules) matches one form and masks what it consumed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...checks import Check, create
from ...checks._language import LANGUAGES
from ._numbers import normalize_numbers

__all__ = [
    "ABSENCE",
    "CMP_ANY",
    "CONSUMED",
    "CONTAINER",
    "CONTAINERS",
    "CONTAINER_WORDS",
    "DIVIDER",
    "ELEMENT_UNITS",
    "EXAMPLE_TAIL",
    "FILLER",
    "FORM_WORDS",
    "HASHTAGS_LAST",
    "LANGUAGE_CODES",
    "LANGUAGE_NAMES",
    "LIST_WORDS",
    "MARKDOWN",
    "MARKDOWN_PIECE",
    "NAME_SEPARATOR",
    "NEG",
    "NESTED",
    "ORDINAL",
    "ORDINAL_WORDS",
    "POST",
    "SIZE_FOLLOWS",
    "UNIT",
    "UNIT_WORDS",
    "Builder",
    "Reading",
    "about_a_piece",
    "as_written",
    "bound",
    "cmp_key",
    "constant",
    "count_check",
    "is_mark",
    "mask",
    "names_form",
    "plain",
    "read",
    "unit_key",
]


# -- the grammar -----------------------------------------------------------------------------

ORDINAL_WORDS = [
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
ORDINAL = "|".join(ORDINAL_WORDS) + r"|\d+(?:st|nd|rd|th)"
NEG = (
    r"(?:not|never|no|none|without|avoid(?:s|ing)?|zero|free of|refrain from|omit(?:s|ting)?|"
    r"exclud(?:e|es|ing)|skip(?:s|ping)?|nor|leav(?:e|es|ing) out|steer(?:s|ing)? clear of|"
    r"stay(?:s|ing)? away from|do(?:es)? without|forgo(?:es|ing)?|ban(?:s|ned)?|forbid(?:s|den)?|"
    r"prohibit(?:s|ed)?|remov(?:e|es|ing)(?: all)?|strip(?:s|ping)?(?: out)?(?: all)?|"
    r"drop(?:s|ping)?(?: all)?|delet(?:e|es|ing)(?: all)?|ditch(?:es|ing)?)"
)
ABSENCE = re.compile(rf"\b{NEG}\b|n't\b|-free\b")
_CMP = {
    "at_most": (
        r"at (?:the )?most|up to|a maximum of|maximum of|maximum|an? max of|max of|max\.?|within|"
        # "fits in 280 characters", "must fit on 3 lines": room for that many, not exactly
        r"fit(?:s|ting)? (?:in|into|within|on)|limited to|"
        # "keep it to", "limit your answer to"; not "limit the intro to", a part's own limit
        r"(?:limit|keep|cap|restrict)\w*(?: (?:it|this|that|them|the|your|its|whole|entire|"
        r"response|answer|reply|text|output|message|post|e-?mail|length|total|thing|everything|"
        r"piece|copy|summary|story|draft|poem|essay|note|bio|description|tweet|caption|article|"
        r"letter|blog|overall|yourself|things|each|every|all|per|bullets?|bullet points?|items?|"
        r"paragraphs?|sentences?|lines?|stanzas?|sections?|entries|points?)){0,3}? "
        r"(?:to|at|within)|no longer than|"
        # "the list should stop at 6 steps", "tops out at 3 hashtags"
        r"(?:stop(?:s|ped|ping)?|(?:top|max)(?:s|ped|ping|es|ed|ing)? out) at|"
        r"≤|<=|not to exceed"
    ),
    "fewer_than": r"fewer than|less than|under|below|shorter than|<",
    # "it should reach 300 words"; "must not reach 60 words" is then fewer than 60
    "at_least": r"at least|a minimum of|minimum of|minimum|min\.?|≥|>=|reach(?:es|ing)?",
    "more_than": (
        r"more than|over|above|beyond|greater than|longer than|exceed(?:s|ing)?|>|"
        r"(?:go(?:es)?|going|run(?:s|ning)?) past"
    ),
    "exactly": r"exactly|precisely|just|only",
}
CMP_ANY = "|".join(f"(?P<{key}>{value})" for key, value in _CMP.items())
POST = {
    # Never "or so", "roughly", "about": an approximate length has no exact bound to check.
    "at_most": r"or (?:fewer|less|under|below|shorter)|max(?:imum)?|at (?:the )?most|tops",
    "at_least": r"or (?:more|longer|above|over)|at least|minimum|min|\+|plus",
}
_FLIP = {"at_most": "more_than", "more_than": "at_most", "at_least": "fewer_than"}
_FLIP |= {"fewer_than": "at_least"}
# A list item under another: "nested lists", "sub-bullets", "nested (indented) sub-bullet".
NESTED = (
    r"(?:nested|indented)(?: \((?:nested|indented)\))? (?:sub-?)?(?:bullet(?:ed)?[- ]?points?|"
    r"bullets?|list items?|items?|lists?|points?)|sub-?(?:bullets?|bullet points?|points?|items?|"
    r"lists?)"
)
# Markdown as such, not one of its elements ("markdown # headings", "markdown links"), which
# name their own unit: "no markdown formatting", "markdown-free", "markdown is not rendered".
MARKDOWN_PIECE = (
    r"(?:bold(?:ing|face)?|italics?|emphasis|(?:sub)?head(?:ing|er)s?|titles?|"
    r"bullets?(?: points?)?|lists?|tables?|(?:hyper)?links?|code(?: blocks?| fences?)?|"
    r"block ?quotes?|asterisks?|stars?|hash(?:es| signs?| marks?)?|# signs?|pound signs?|"
    r"backticks?|underscores?|pipes?|checkbox(?:es)?|images?|footnotes?|task[- ]lists?)"
)
MARKDOWN = (
    r"markdown(?:[- ](?:formatting|syntax|markup|styling|elements?))?"
    rf"(?![- ]*(?:[#\[>`*]|markdown|(?:style |format |task[- ]list )?{MARKDOWN_PIECE}\b))"
)
# Unit words -> (key). Longest first, so "bullet points" is read before "points".
UNIT_WORDS: tuple[tuple[str, str], ...] = (
    (
        r"words? (?:written )?in (?:all )?(?:capital letters|capitals|caps|upper[- ]?case)|"
        r"all[- ]caps words?|(?:upper[- ]?case|capitali[sz]ed) words?",
        "capital_word",
    ),
    (
        rf"{NESTED}",
        "nested",
    ),
    (r"bullet(?:ed)?[- ]?(?:points?|list items?|items?|lines?)|bullets?", "bullet"),
    (
        r"numbered (?:list )?(?:items?|points?|steps?|entries|lines?|questions?|tips?|options?|"
        r"reasons?|ideas?|rules?|tasks?|examples?|recommendations?|takeaways?)",
        "numbered",
    ),
    (r"(?:list )?items?|list entries|entries", "item"),
    (r"(?:fenced )?code ?blocks?|code fences?", "code_block"),
    (r"(?:markdown )?tables?", "table"),
    (r"e-?mail addresses|e-?mail address", "email"),
    (r"(?:tele)?phone numbers?|phone nos?\.?", "phone"),
    # a link written out, not dressed as "[text](url)": "no bare URLs", "raw links"
    (r"(?:bare|raw|naked|plain)[- ](?:urls?|(?:hyper)?links?|web ?address(?:es)?)", "bare_url"),
    (
        r"(?:(?:website|web|external|clickable) )?(?:urls?|(?:hyper)?links?)|web ?address(?:es)?",
        "url",
    ),
    (r"hash ?tags?", "hashtag"),
    (r"@[- ]?mentions?|at[- ]mentions?|@[- ]?(?:tags?|pings?)", "mention"),
    # marks named by their names: "no backticks, the terminal prints them", "no parentheses"
    (r"back ?ticks?|backquotes?", "backtick"),
    (r"asterisks?", "asterisk"),
    # not "brackets" alone, square ones in American English; not slashes, which links hold
    (r"parenthes[ie]s|round brackets?", "parenthesis"),
    (r"square brackets?", "square_bracket"),
    (r"punctuation(?: marks?)?", "punctuation"),
    (r"exclamation (?:marks?|points?)", "exclamation"),
    (r"question marks?", "question_mark"),
    (r"full[- ]stops?", "full_stop"),
    (r"semi-?colons?", "semicolon"),
    (r"colons?", "colon"),
    (r"commas?", "comma"),
    (r"em[- ]?dash(?:es)?", "em_dash"),
    (r"ampersands?", "ampersand"),
    (r"ellips(?:is|es)", "ellipsis"),
    (r"horizontal (?:rules?|lines?)|dividers?|divider lines?|separator lines?", "divider"),
    (r"highlighted (?:sections?|parts?|phrases?|words?|passages?)|highlights", "highlight"),
    (
        r"bold(?:ed|face)?(?:[- ](?:text|words?|phrases?|terms?|formatting|font|type|spans?))?",
        "bold",
    ),
    (
        r"italic(?:s|i[sz]ed)?(?:[- ](?:text|words?|phrases?|terms?|formatting|font|type))?",
        "italic",
    ),
    (
        r"placeholders? (?:(?:written |shown |marked )?(?:in|with|using|inside|within)|"
        r"represented by) square brackets|square[- ]bracket(?:ed)? placeholders?",
        "placeholder_square",
    ),
    (r"placeholders?", "placeholder"),
    (r"(?:top[- ]level |json |object )?keys|top[- ]level key", "key"),
    (r"contractions?", "contraction"),
    (r"double quot(?:es|ation marks)|quotation marks|quote marks", "quote"),
    (r"emojis?|emoticons?", "emoji"),
    # A heading's Markdown level, as `read` spells it: "h2 headings" ("level-2", "##").
    *((rf"h{n} (?:(?:sub)?head(?:ing|er)s?|titles?)", f"heading{n}") for n in range(1, 7)),
    (r"(?:markdown )?(?:sub)?head(?:ing|er)s?|sections? headings?", "heading"),
    # Markdown as such, not one of its elements: "no markdown formatting", "markdown-free".
    (MARKDOWN, "markdown"),
    (r"sentences?", "sentence"),
    (r"paragraphs?|paras?|stanzas?", "paragraph"),
    (r"characters?|chars?", "character"),
    (r"lines?", "line"),
    (r"words?", "word"),
    (r"sections?", "section"),
    # A question is a sentence that ends with a question mark: "exactly 3 questions".
    (r"questions?", "question"),
    # "a number in every bullet", "at least one numeral"; not "the number of bullets", and not
    # "digits" alone, which may be the characters of one number ("a 6-digit code")
    (r"numbers? (?:written )?(?:in|as) (?:digits|numerals)|numerals?", "number_digits"),
    (r"numbers?(?! of\b)", "number"),
)
UNIT = "|".join(f"(?:{pattern})" for pattern, _ in UNIT_WORDS)
# Words that name the text's form: the catalogue's units, except "questions" (more often the
# user's questions than the output's `?` marks) and "numbers" ("even numbers", "the account
# number" are what a text says), plus typography and letter case. A criterion that uses one
# and that the grammar cannot read is a format rule left to the model.
_NOT_FORM_UNITS = frozenset({"question", "number", "number_digits"})
FORM_WORDS = re.compile(
    r"\b(?:"
    + "|".join(f"(?:{pattern})" for pattern, key in UNIT_WORDS if key not in _NOT_FORM_UNITS)
    + r"|bold(?:ed|face)?|italics?|italici[sz]ed|underlined?|markdown|indent(?:ed|ation)?"
    + r"|(?:upper|lower|title|sentence)[- ]?case|capitali[sz](?:ed|ation|es?|ing)|capital letters?"
    # marks, layout and notation named in ordinary words
    + r"|commas?|colons?|semicolons?|hyphens?|dashes|apostrophes?"
    + r"|parenthes[ie]s|brackets?|(?:double|single) quotes|quotation marks|in quotes"
    # "a row erupted" is a quarrel: a table's parts only with a count or a table word
    + r"|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|table|header|total|data|empty"
    + r"|each|every|per) (?:rows?|columns?|cells?)|columns should|rows should"
    + r"|nest(?:ed|ing)?|sub-?(?:bullets?|points?|items?|lists?)"
    + r"|dividers?|separators?|horizontal rules?|blank lines?|line breaks?|backticks?|fenced"
    + r"|inline code|snake_case|camel ?case|kebab[- ]case|digits|numerals"
    + r"|(?:in|as|using|follows?|the) (?:[a-z0-9:/-]+ )?format(?:ted)?"
    # grammar and notation: person, tense, parts of speech, abbreviations, ordinals, units
    + r"|(?:first|second|third)[- ]person(?! (?:to|who|that|ever)\b)"
    + r"|(?:past|present|future)[- ]tense"
    + r"|imperative|(?:active|passive) voice|verbs?|nouns?|adjectives?|adverbs?|pronouns?"
    + r"|abbreviat(?:e|ed|es|ions?)|acronyms?|ordinals?|syllables?|spell(?:ed|t)? out"
    + r"|decimals?|decimal places|metric|imperial|ellips(?:is|es)|slash(?:es)?|tabs"
    # data and its notation: keys of an object, types, formats of dates and times
    + r"|(?:top[- ]level|json|yaml|object) keys?|keys|json|yaml|csv|xml|html|integers?|booleans?"
    + r"|docstrings?|iso codes?|currency (?:codes?|symbols?|signs?)"
    + r"|(?:every|each|all|the|any) dates?\s+(?:must|should|in|as|written|formatted|include|use)"
    + r"|iso[- ]?8601|yyyy|hh:mm|mm/dd|dd/mm|(?:12|24)[- ]h(?:ou)?r"
    # code: "type hints on every parameter", "goes in a ```suggestion block"
    + r"|type (?:hints?|annotations?)"
    # spelling, order of named parts
    + r"|(?:british|american|us|uk|canadian|australian) (?:english )?spellings?"
    + r"|(?:column|section|field|key|heading)s? order|order of (?:the )?(?:columns|sections|fields|"
    + r"keys|headings)"
    # the words used: a quoted word or a handle ruled out or allowed alone ("'Understand' ...
    # don't use it", "du/dein never appear", "only 'yes' or 'no'", "don't use @channel")
    + r"|q\d+\b.*\b(?:do not|never|avoid)\s+(?:use|say|write)\s+(?:it|them|that)"
    + r"|(?:q\d+|[a-zäöüß]+(?:/[a-zäöüß]+)+)\s+(?:(?:must|should|may|can|will)\s+)?(?:never|not)\s+"
    + r"(?:be\s+used|appear|occur)"
    + r"|only q\d+ (?:or|and) q\d+"
    # labels and number forms: "options labelled A to D", "written out, not numeric"
    + r"|labell?ed [a-z0-9]\)? (?:to|through|-|\u2013) [a-z0-9]|not numeric(?:al(?:ly)?)?"
    # a value's notation shown by example, spacing, order, brackets: "durations written like
    # '45 min'", "BA 287 with a space", "### Added / ### Fixed, in that order", "in parens"
    + r"|written (?:out )?like|(?:with|without) (?:a |no )?spaces?(?=\s*(?:[:;,.()\u2014\u2013-]|$|"
    + r"(?:before|after|between|around|inside)\b))|no spaces|spaces? (?:around|"
    + r"before|after|between)|in (?:that|this|the same|the given) order|in parens|parens"
    + r"|alphabeti[sz](?:e|ed|ing)|latex"
    + r"|(?:phrased?|written|worded|framed) (?:(?:each|every|all(?: the)?|the) [a-z]+ )?as "
    + r"(?:an? )?questions?"
    # a range of the user's own pieces: "2-4 quick replies", "between four and seven chapters"
    + r"|(?:between \d+ and \d+|\d+ ?(?:-|\u2013|to) ?\d+) (?:[a-z]+ )?(?:replies|chapters|options|"
    + r"sections|steps|tips|ideas|examples|questions|points|items|entries|bullets|slides|tweets|"
    + r"variants|versions|suggestions|headlines|taglines|names)\b"
    + r"|dates? (?:out|in full|written|formatted|as|like)"
    # extra text ruled out: "the translation only - no notes, no explanations"
    + r"|no (?:extra |additional )?(?:notes|commentary|preamble|explanations?)"
    # notation in marks: "old → new, with the arrow", "✓ / ✗ rather than Yes / No in the cells"
    + r"|(?:with|use|using|not|no) (?:an? |the )?arrows?|arrows? (?:between|for|instead|rather)"
    + r"|(?:in|the|its|table) cells"
    + r")\b"
    # Markdown heading marks: "group under ### Added"
    + r"|(?<!\S)#{1,6}(?=\s)"
    # ... and marks that are notation of their own: a handle, a code fence, `inline code`
    + r"|(?<![\w@.])@[a-z][\w-]*|```|`[^`\n]+`|[\u2190-\u21ff\u2713-\u2718]|->|=>"
)
_UNIT_KEYS = [(re.compile(rf"(?:{pattern})$"), key) for pattern, key in UNIT_WORDS]
_COUNT_CHECK: dict[str, tuple[str, dict[str, Any]]] = {
    "word": ("word_count", {}),
    "sentence": ("sentence_count", {}),
    "paragraph": ("paragraph_count", {}),
    "character": ("character_count", {}),
    "line": ("line_count", {}),
    "bullet": ("bullet_count", {}),
    "nested": ("nested_item_count", {}),
    "numbered": ("numbered_count", {}),
    "item": ("bullet_count", {"numbered": True}),
    "emoji": ("emoji_count", {}),
    "placeholder": ("placeholder_count", {"brackets": "any"}),
    "placeholder_square": ("placeholder_count", {}),
    "contraction": ("contraction_count", {}),
    "quote": ("quote_count", {}),
    "heading": ("section_count", {}),
    **{f"heading{n}": ("heading_count", {"level": n}) for n in range(1, 7)},
    "capital_word": ("capital_word_count", {}),
    "highlight": ("highlight_count", {}),
    "bold": ("highlight_count", {"style": "bold"}),
    "italic": ("highlight_count", {"style": "italic"}),
    "code_block": ("code_block_count", {}),
    "table": ("table_count", {}),
    "email": ("email_count", {}),
    "phone": ("phone_count", {}),
    "url": ("url_count", {}),
    "bare_url": ("url_count", {"form": "bare"}),
    "hashtag": ("hashtag_count", {}),
    "mention": ("mention_count", {}),
    "key": ("json_key_count", {}),
    "punctuation": ("punctuation_count", {}),
    "exclamation": ("mark_count", {"mark": "!"}),
    "question_mark": ("mark_count", {"mark": "?"}),
    "question": ("question_count", {}),
    "full_stop": ("mark_count", {"mark": "."}),
    "semicolon": ("mark_count", {"mark": ";"}),
    "colon": ("mark_count", {"mark": ":"}),
    "comma": ("mark_count", {"mark": ","}),
    "em_dash": ("mark_count", {"mark": "—"}),
    "ampersand": ("mark_count", {"mark": "&"}),
    "backtick": ("mark_count", {"mark": "`"}),
    "asterisk": ("mark_count", {"mark": "*"}),
    "parenthesis": ("mark_count", {"mark": "("}),
    "square_bracket": ("mark_count", {"mark": "["}),
    "ellipsis": ("mark_count", {"mark": "…"}),
    "divider": ("divider_count", {}),
    "markdown": ("markdown_count", {}),
    "number": ("number_count", {}),
    "number_digits": ("number_count", {"in_digits": True}),
}
# Units that a criterion may say are absent ("no links") or present ("include a link").
ELEMENT_UNITS = frozenset(
    {"bullet", "numbered", "emoji", "heading", "placeholder", "highlight", "bold", "italic", "item"}
    | {"placeholder_square", "divider"}
    | {"contraction", "phone", "quote", "mention"}
    | {"code_block", "table", "email", "url", "bare_url", "hashtag", "exclamation"}
    | {"question_mark"}
    | {"semicolon", "em_dash", "ampersand", "ellipsis", "full_stop", "punctuation", "nested"}
    | {"colon", "comma", "markdown", "backtick", "asterisk", "parenthesis", "square_bracket"}
    | {"number", "number_digits"}
    | {f"heading{n}" for n in range(1, 7)}
)
# Which unit a per-unit limit may apply inside.
CONTAINERS = {
    "word": ("sentence", "paragraph", "line", "item"),
    "character": ("sentence", "paragraph", "line", "item"),
    "sentence": ("paragraph",),
}
CONTAINER_WORDS = {
    "sentence": r"sentences?",
    "paragraph": r"paragraphs?|paras?|stanzas?",
    "line": r"lines?",
    "item": r"bullet(?:ed)?[- ]?(?:points?|items?)|bullets?|(?:list )?items?|list entries|entries",
}
CONTAINER = "|".join(f"(?P<c_{key}>{value})" for key, value in CONTAINER_WORDS.items())
LANGUAGE_CODES = {name.casefold(): code for code, name in LANGUAGES.items() if "(" not in name}
LANGUAGE_NAMES = "|".join(sorted(LANGUAGE_CODES, key=len, reverse=True))
DIVIDER = r"(?P<sep>(?:\*{3,}|-{3,}|_{3,}|={3,}|~{3,}|#{3,}))"
LIST_WORDS = r"(?:\b(?:and/or|and|or|nor)\b|,|;)"
"""Words joining units in a list: whole words only, so that "words" is not split at "or"."""
EXAMPLE_TAIL = (
    r",?\s*(?:like|such as|e\.g\.,?|for example,?|for instance,?)\s+"
    r"(?:q\d+|<<[^>]*>>|\*[^*\s][^*]*\*|\[[^\]]+\]|\S+)"
)
_QUOTED = re.compile(
    r"(?<!\w)'(?P<single>[^']*?\w[^']*?)'(?!\w)|\"(?P<double>[^\"]*?\w[^\"]*?)\""
    # A quoted mark or symbol: "never use '!'", "no '&'".
    r"|(?<!\w)'(?P<mark>[^\w\s']{1,3})'(?!\w)|\"(?P<mark2>[^\w\s\"]{1,3})\""
)
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_TAIL_QUOTE = re.compile(r":\s*(['\"])(?P<body>.*\w.*)\1\W*$", re.DOTALL)


CONSUMED = "\x00"
"""What a consumed span is masked with (`mask`): no rule reads across it."""


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry no rule: the subject, modal verbs, articles, "the response should".
FILLER = _word_set(
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
    each every some one both so then there here which where when what total length
    size count number amount limit overall strictly poem haiku essay
    summary story email letter post blog article tweet note description explanation report
    review message bio slogan speech script song lyrics limerick sonnet cover blurb quote
    recipe guide instructions steps reply comment update announcement memo summary
    everything entirely completely wholly fully exactly precisely allowed permitted sure
    ensure ensures respond responds responding aim aims target run runs lay laid out offer
    offers deliver delivers produce produces create creates compose composes generate
    generates craft crafts draft drafts prepare prepares return returns print prints go
    goes consist consists set build builds tagline taglines testimonial caption captions motto
    pitch ad advert advertisement invitation invite notice announcement listing
    thing split divide divided fit fits valid parseable parsable well-formed ask asks somewhere
    notes blurb msg statement auto-reply autoreply newsletter toast eulogy changelog readme
    product thread sms come comes
    """
)


@dataclass
class Reading:
    """The criterion as the rules consume it."""

    text: str
    quotes: list[str]
    checks: list[Check] = field(default_factory=list)
    original: str = ""
    """The criterion as written, letter case kept: a name is known by its capital."""
    read: str = ""
    """The text as first read, before any rule consumed a span of it (`text` is masked)."""

    def quote(self, token: str | None) -> str | None:
        if token is None:
            return None
        match = re.fullmatch(r"q(\d+)", token)
        return self.quotes[int(match.group(1))] if match else None

    def quote_list(self, tokens: str) -> list[str]:
        return [self.quotes[int(n)] for n in re.findall(r"q(\d+)", tokens)]


Builder = Callable[[re.Match[str], Reading], "Check | None"]


def plain(description: str) -> str:
    return " ".join(description.translate(_QUOTES).split())


_OWN_Q = re.compile(r"\b(?P<q>[qQ])(?P<n>\d+)\b")
_ESCAPED_Q = re.compile(r"\b(?P<q>[qQ])_(?P<n>\d+)\b")


def read(description: str) -> Reading:
    """Quotes lifted out as `q0`, `q1`...; then casefolded, contractions opened, numbers."""
    # The criterion's own "Q1", "q2" would read as lifted quotes: they become "q_1", which no
    # rule reads, so such a criterion stays with the judge ("questions numbered Q1, Q2").
    text = _OWN_Q.sub(r"\g<q>_\g<n>", plain(description))
    quotes: list[str] = []

    def lift(phrase: str) -> str:
        quotes.append(_ESCAPED_Q.sub(r"\g<q>\g<n>", phrase))  # a quoted "Q1" is itself
        return f" q{len(quotes) - 1} "

    tail = _TAIL_QUOTE.search(text)
    # A long quoted request at the end ("repeat this request: '...'") may hold apostrophes
    # that end no quote; a list of quoted options ("'yes', 'no'") is read one quote at a time.
    if tail is not None and not re.search(r"['\"]\s*(?:,|or|and)\s*['\"]", tail.group("body")):
        body = tail.group("body")
        text = text[: tail.start()] + ": " + lift(body)
    text = _QUOTED.sub(
        lambda m: lift(
            m.group("single") or m.group("double") or m.group("mark") or m.group("mark2")
        ),
        text,
    )
    text = _EACH_ONE.sub("each", _informal(text))  # before "one" becomes 1
    text = re.sub(r"\bat the ends of\b", "at the end of", text)
    text = _PER_THE_GUIDE.sub("", _FRAME.sub("", text))
    text = _CONTRACTIONS_SHOWN.sub("", text)
    text = _no_duration(text)
    text = _REASON_TAIL.sub(_no_reason_tail, _REASON_ASIDE.sub(_no_reason, text))
    text = _SAID_AGAIN_TAIL.sub("", text)
    text = _NOUN_ASIDE.sub(_no_aside, _SPOKEN_ASIDE.sub("", text))
    text = _REASON_HEAD.sub(lambda m: m.group() if _no_reason_tail(m) else "", text)
    text = _PLACED_HEAD.sub(lambda m: m.group() if _no_reason_tail(m) else "", text)
    text = _COUNTED_IN.sub(" ", text)
    text = _ONE_LINE_PART.sub(lambda m: m.group("part") or m.group("part2"), text)
    text = _LABEL_SAID_AGAIN.sub("", _INTENSIFIER.sub("", _EXPLAINED_SHORT.sub("", text)))
    text = _FITS_IN.sub(" ", text)
    # "bullets using the • character": a glyph named, not characters counted
    text = _GLYPH.sub(r"\g<glyph> glyph", text)
    text = re.sub(r"\bwon't\b", "will not", text, flags=re.IGNORECASE)
    text = re.sub(r"\bcan't\b|\bcannot\b", "can not", text, flags=re.IGNORECASE)
    text = re.sub(r"n't\b", " not", text, flags=re.IGNORECASE)
    text = normalize_numbers(text)
    text = _TOO_LONG.sub(_under_what_is_too_long, text)
    # "don't @-mention anyone", "... any person or group": no @mention at all
    text = re.sub(
        r"(@-?mentions?)\s+(?:anyone|anybody|any\s+(?:one|person|people|user|group|team|channel)s?"
        r"(?:\s+or\s+(?:any\s+)?(?:person|people|user|group|team|channel)s?)?)\b",
        r"\1",
        text,
    )
    text = _TAGGED.sub(_tagged, text)
    text = re.sub(r"\b(\d+)\s*\(\s*\1\s*\)", r"\1", text)  # "four (4) points", as lawyers write
    text = _WRAP_AT.sub(
        lambda m: f"{m.group('body') or ''}lines at most {m.group('n')} characters", text
    )
    text = _heading_levels(text, quotes)
    text = re.sub(r"(<=|>=|≤|≥|<|>)\s*(?=\d)", r" \1 ", text)  # "<50 chars": "< 50 chars"
    text = re.sub(r"\bat the very (most|least)\b", r"at \1", text)
    text = _RULE_GIVER.sub("", text)
    if _ONLY_A_BLOCK.search(text):  # "JSON only - no intro sentence": the "only" said again
        text = _NO_TEXT_AROUND.sub("", text)
    # "start with a 'Subject:' line": the text's first words are the quote; "Begins 'Dear
    # team'" the same without "with"
    text = re.sub(r"\b((?:start|begin|open)s?\s+with)\s+an?\s+(q\d+)\s+line\b", r"\1 \2", text)
    text = re.sub(r"\b((?:start|begin|open|end|finish|close)s)\s+(q\d+)", r"\1 with \2", text)
    # "24h clock (no am/pm)": the same rule said twice ("12-hour clock, no am/pm" is not)
    if re.search(r"\b24[- ]?h", text):
        text = re.sub(r"\(?\s*\bno\s+am\s*(?:/|or)\s*pm\b\s*\)?", " ", text)
    # "End on a question, with nothing after it": ending so already leaves nothing after
    text = _NOTHING_AFTER_THE_END.sub(r"\g<end>", text)
    text = _NONE_SAID_AGAIN.sub(
        lambda m: "" if ABSENCE.search(text[: m.start()]) else m.group(), text
    )
    if re.search(r"\bsentence[- ]case\b", text, re.IGNORECASE):
        # sentence case allows proper nouns: "(proper nouns excepted)" says it again
        text = _PROPER_NOUNS_ASIDE.sub("", text)
    if _NO_LISTS.search(text):  # "plain prose, no bullet points": prose is what has no lists
        text = _PROSE_CLAUSE.sub(r"\g<edge>", text)
        # "without lists of any kind (also no numbered ones)"
        text = re.sub(r"\b(?<=lists )of any (?:kind|sort|type)\b", "", text)
        text = re.sub(r"\b(bulleted|numbered|ordered) ones\b", r"\1 lists", text)
    # "two sentences, tops", "5 bullets, max": the bound said after a comma
    text = re.sub(
        r"\b(\d+ [a-z][a-z-]*),\s+(tops|max(?:imum)?|at most|at least|min(?:imum)?)(?=\W*$)",
        r"\1 \2",
        text,
    )
    # "three questions, no more no less" is exactly three.
    text = _NO_MORE_NO_LESS.sub(r"exactly \g<n> \g<unit>", text)
    # a count said again: "one link - exactly one", "three emojis (exactly 3)", "3 hashtags
    # exactly - not 2, not 4"
    text = _SAID_AGAIN.sub(r"exactly \g<n> \g<unit>", text)
    text = _COUNT_ASIDE.sub(_count_before_unit, text)
    text = _COUNT_AFTER_COLON.sub(_count_before_unit, text)
    text = _NUMBERED_AFTER.sub(_numbered_count, _NUMBERED_BEFORE.sub(_numbered_count, text))
    text = _RANGE_OF_THEM.sub(r"\g<range> \g<unit>", text)
    text = _COUNT_OF_THEM.sub(_count_before_unit, text)
    text = re.sub(
        r"\bnot an? (bulleted|numbered|ordered|unordered) (?:1|one)\b", r"not a \1 list", text
    )
    text = _SECOND_BOUND.sub(_unit_again, text)
    text = _NONE_OVER.sub(r"\g<pieces>\g<mid>, each at most \g<n>", text)
    text = _NONE_OF_THEM.sub("none", _NONE_OF_THE.sub(r"no \g<unit>", text))
    text = _NONE_AFTER_COLON.sub(r"no \g<unit>", text)
    text = _IS_THE_LIMIT.sub(r"at most \g<n> \g<unit>", text)
    text = _NO_MORE.sub(r"\g<count>", text)
    text = _HEADER_NOT_COUNTED.sub(", not counting the header", text)
    text = _INSTEAD.sub(_no_advice, text)
    text = _OBJECT_HAS.sub("", text)
    text = _IS_A_QUESTION.sub("ends with a question mark", text)
    text = _ROWS_OF_DATA.sub(r"\g<n> data rows", text)
    text = _ROWS_MAX.sub(r"at most \g<n> \g<unit>", text)
    text = _GROUPED_UNDER.sub("", text)
    text = _SEPARATED_BY_BLANK.sub(r"a blank line after \g<part>", text)
    # "only one emoji allowed", "just 2 links permitted": a ceiling, not a permission
    text = re.sub(
        r"\b(?:only|just)\s+(\d+)\s+([a-z][\w-]*)\s+(?:is\s+|are\s+)?(?:allowed|permitted)\b",
        r"at most \1 \2",
        text,
    )
    text = re.sub(r"\bapiece\b", "each", text)  # "under thirteen words apiece"
    # "give six tips exactly", "the word 'refund' once at most": the bound said after
    text = re.sub(r"\b(\d+) ([a-z][a-z-]*s),? exactly\b", r"exactly \1 \2", text)
    text = re.sub(
        r"\b(once|twice|\d+ times) (at most|at least|max(?:imum)?|tops)\b",
        lambda m: (
            f"{'at most' if m.group(2) in ('max', 'maximum', 'tops') else m.group(2)} {m.group(1)}"
        ),
        text,
    )
    text = _EACH_SHORT.sub(r"\g<each> \g<unit> ", text)
    text = _END_WITH_HASHTAGS.sub(_hashtags_last, _HASHTAGS_LAST.sub(_hashtags_last, text))
    # "no trailing periods on bullet points", "bullets without end punctuation": marks at the end;
    # "trailing" of no piece named is of several, which ones unsaid ("no trailing periods")
    text = re.sub(
        r"\btrailing ((?:periods?|full stops?|punctuation(?: marks?)?|commas?))\b"
        r"(?! (?:on|in|after|for)\b)",
        r"\1 at the end of each",
        text,
    )
    text = re.sub(
        r"\b(?:trailing|end|ending|terminal) ((?:periods?|full stops?|punctuation(?: marks?)?|"
        r"commas?))\b(?! at the)",
        r"\1 at the end",
        text,
    )
    text = re.sub(
        r"\b((?:periods?|full stops?|punctuation(?: marks?)?|commas?) at the end)"
        r" (?:on|in|after|for)\b",
        r"\1 of",
        text,
    )
    # "a title above the poem": the poem is the reply, so at the top of it
    text = re.sub(
        r"\b(?:above|over|on top of|at the (?:top|start|head) of)\s+(?:the|your|my|this)\s+"
        r"(?:poem|story|recipe|letter|essay|post|article|piece|text|e-?mail|note|speech|toast|"
        r"haiku|limerick|song|lyrics|reply|response|answer|blurb|bio)\b",
        "at the top",
        text,
    )
    # "the last line reads exactly 'The End.'": what the last line is
    text = re.sub(
        r"\b((?:the\s+)?(?:last|final|closing)\s+line)\s+(?:reads|says|should read|must read|"
        r"should say|must say)(?:\s+exactly)?\b",
        r"\1 is",
        text,
    )
    # "don't put a period at the end of the bullets", "leave off the full stop at the end"
    text = _NO_MARK_AT_END.sub("no ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return Reading(text=text, quotes=quotes, original=plain(description), read=text)


_MARK_NOUNS = (
    r"(?:periods?|full stops?|punctuation(?: marks?)?|commas?|exclamation (?:marks?|points?))"
)
_NO_MARK_AT_END = re.compile(
    r"\b(?:(?:do not|never)\s+(?:put|use|add|include|place|leave|end with)|"
    r"leave off|omit|drop|skip)"
    rf"\s+(?:an?\s+|any\s+|the\s+)?(?={_MARK_NOUNS}\s+at\s+the\s+(?:very\s+)?end\b)"
)


# A fact the output should state: "conveys this fact: ...", "mentions that ...". What follows is
# content, whatever its words: "Charlie Austin scored with a header" names no heading.
_REPORTED = re.compile(
    r"\b(?:conveys?|states?|mentions?|says?|reports?|claims?|explains?|tells?"
    r"(?: (?:the )?readers?| us)?)\s+(?:(?:this|the following|that|the) "
    r"(?:fact|point|claim|information|detail)\s*:|that\b)"
    # what the text explains is its subject: "explains what an HTML comment is"
    r"|\b(?:explains?|describes?|defines?|discusses?|covers?)\s+(?:what|how|why|when|where|which)\b"
)


def names_form(description: str) -> bool:
    """Whether a criterion uses a word that names the text's form (`FORM_WORDS`), quotes aside.

    A fact the criterion asks the output to state is content, not form (`_REPORTED`).
    """
    text = read(description).text
    reported = _REPORTED.search(text)
    return FORM_WORDS.search(text[: reported.start()] if reported else text) is not None


# How people type a rule in a hurry: "pls", "dont", "atleast", "pts". Read as written out.
_INFORMAL = (
    (r"\bpl[sz]\b", "please"),
    (r"\b(do|does|did|is|are|was|were|should|must|would|could|has|have|had)nt\b", r"\1 not"),
    (r"\bwont\b", "will not"),
    (r"\bcant\b", "can not"),
    (r"\bat(least|most)\b", r"at \1"),
    (r"\bpts\b", "points"),
    (r"\bea\.(?=\s|$)", "each"),  # "bullets ≤ 12 words ea."
    (r"\bshall\b", "must"),
    (r"\bw(?:r?d|o?rd)s\b", "words"),
    (r"\bsents\b", "sentences"),
    (r"\b(12|24)[- ]hours (format|clock|time)\b", r"\1-hour \2"),
    (r"\bw/o\b", "without"),
    (r"\bw/(?=\s)", "with"),
    # the typos of people in a hurry: "shoud be", "no more then 5", "3 sentances"
    (r"\b(?:shoud|shuold|sould|shoudl|shd)\b", "should"),
    (r"\b(should|could|would|did|does|is|are|was|were)'nt\b", r"\1 not"),
    (r"\b(more|less|fewer|longer|shorter|greater|other) then\b", r"\1 than"),
    (r"\bsentan(ce|ces)\b", r"senten\1"),
    (r"\bpara(?:gragh|graph|gaph|grpah)(s?)\b|\bpargraph(s?)\b", r"paragraph\1\2"),
    (r"\bchar(?:cters|aters|acers)\b", "characters"),
    (r"\bbulletpoints?\b", "bullet points"),
    (r"\bemoji's\b", "emojis"),
    (r"\b(?:exaclty|exacly|excatly|exatly|exactley|exactlly)\b", "exactly"),
    (r"\b(?:maxium|maximun|maxmum)\b", "maximum"),
    (r"\b(?:minumum|minimun|minium)\b", "minimum"),
    (r"\b(?:allways|alwasy|alway)\b", "always"),
    (r"\b(?:sentance|sentense)(s?)\b", r"sentence\1"),
    (r"\bheadigns?\b|\bheadins?\b", "headings"),
)
# A criterion framed as an instruction to whoever grades it: "Check that the reply is in
# Spanish", "Verify whether it ends with a question". The frame states no rule of its own.
_FRAME = re.compile(
    r"^\W*(?:please\s+)?(?:check|verify|confirm|make sure|ensure|see|determine)\s+"
    r"(?:(?:that|whether|if)\b\s*)?"
    # "It is necessary that each option has...", "it's important that": the same frame
    r"|^\W*(?:it\s+is\s+|it's\s+|is\s+)?(?:necessary|important|essential|required)\s+that\s+",
    re.IGNORECASE,
)
# A count said in brackets after its unit: "bullet points (at least 5 of them)", "hashtags
# (3 max)". Read as if said before it: "at least 5 bullet points".
_COUNT_ASIDE = re.compile(
    rf"\b(?P<unit>{UNIT})\s*\(\s*(?:(?P<pre>at least|at most|no more than|no fewer than|"
    rf"no less than|exactly|up to|max(?:imum)?|min(?:imum)?)\s*:?\s+)?(?P<n>\d+)"
    rf"(?:\s+(?P<post>or more|or fewer|or less|max(?:imum)?|min(?:imum)?|at most|at least))?"
    rf"(?:\s+(?:of them|in total|total))?\s*\)"
)


# Where the hashtags go: "3-5 hashtags, placed at the end", "hashtags on their own line at the
# very end", "end the post with 3 hashtags". Said as one token (`HASHTAGS_LAST`) that a rule
# reads, leaving a count before it ("exactly 2 hashtags") to the count rules.
_WHERE_LAST = (
    r"(?P<own>on (?:their|its|a) own line\s+|on a (?:separate|new|single|final) line\s+)?"
    r"at the (?:very )?(?:end|bottom)(?:\s+of the (?:post|caption|text|tweet|message|output))?"
    # where, said again: "at the very end, all on the last line"
    r"(?P<own2>\s*[,;\u2013\u2014-]?\s*(?:and\s+)?(?:all\s+)?(?:together\s+)?"
    r"on the (?:last|final) line)?"
    # said again: "..., not sprinkled through the text"
    r"(?:\s*[,;\u2013\u2014-]?\s*(?:and\s+)?(?:not|never|none|no hashtags?)\s+"
    r"(?:(?:sprinkled|scattered|mixed|spread|dotted|placed|used|put)\s+)?"
    r"(?:through(?:out)?|in|inside|within|into|across|around)\s+(?:the\s+)?"
    r"(?:text|caption|post|body|copy|sentences?|middle)(?:\s+(?:itself|text))?)?"
)
_HASHTAGS_LAST = re.compile(
    r"\b(?:(?:(?P<verb>add|include|use)|put|place|keep|move|save)\s+(?:(?:all|the|any|your|some)\s+)*)?"
    r"(?P<tags>hashtags?)"
    r"\s*[,;:-]?\s*(?:(?:and\s+)?(?:all|both|only|they|then)\s+)*"
    r"(?:(?:go|goes|sit|sits|are|is|come|comes|placed|kept|grouped|belong|appear|together|"
    r"(?:should|must|need to) (?:be|go|sit|come))\s+)?(?:only\s+|all\s+|together\s+)*" + _WHERE_LAST
)
_END_WITH_HASHTAGS = re.compile(
    r"\bend(?:s|ing)?\s+(?:(?:the\s+(?:post|caption|text|tweet|message)|it)\s+)?with\s+"
    r"(?:(?:a few|some|your|the)\s+)?(?P<count>(?:(?:at least|at most|exactly|up to|no more than)"
    r"\s+)?\d+(?:\s*(?:-|to)\s*\d+)?\s+|an?\s+)?(?P<tags>hashtags?)\b"
)
HASHTAGS_LAST = re.compile(r"\btagslast(?P<own>_ownline)?\b")
"""The token the reading leaves where the text says its hashtags come last."""


def _hashtags_last(match: re.Match[str]) -> str:
    own = match.groupdict().get("own") or match.groupdict().get("own2")
    token = "tagslast_ownline" if own else "tagslast"
    if "count" in match.groupdict() or match.groupdict().get("verb"):
        # "end with 3 hashtags", "add hashtags at the end": at least one, and last
        count = (match.groupdict().get("count") or "").strip()
        count = "at least 1" if count in ("", "a", "an") else count
        return f"{count} {match.group('tags')} and {token}"
    counted = re.search(r"\d\s*$", match.string[: match.start()]) is not None
    return f"{match.group('tags')} and {token}" if counted else token


# "Short" or "brief" explained by a ceiling that follows it says nothing more than the ceiling:
# "keep it brief - less than fifty words", "short paragraphs: max three sentences each". An
# intensifier before a rule adds nothing either: "absolutely no emoji".
_CEILING = (
    r"(?:under|below|at most|max(?:imum)?|no more than|not more than|no longer than|less than|"
    r"fewer than|up to|(?:none|nothing) (?:longer|over|more)|or (?:fewer|less)|"
    r"no [a-z]+ (?:longer|over|more)|tops)"
)
_EXPLAINED_SHORT = re.compile(
    rf"^\W*(?:keep (?:it|this|things|them|everything) )?(?:short|brief|concise|tight|compact)"
    rf"(?: please| pls)?\s*[-\u2013\u2014:,]\s*(?=.*\b{_CEILING}\b)"
    # "answer must be short, maximum 40 words": the subject stays, "short" is explained
    rf"|(?:(?<=\bmust be )|(?<=\bshould be ))(?:short|brief|concise)\s*[-\u2013\u2014:,]\s*"
    rf"(?=.*\b{_CEILING}\b)"
    rf"|^\W*(?:short|brief)\s+(?=(?:paragraphs|sentences|bullets|bullet points|lines|stanzas)"
    rf"(?: only)?(?: please| pls)?\s*[-\u2013\u2014:,]\s*.*\b{_CEILING}\b)"
    # "keep paragraphs short: two sentences max each": the pieces stay, "short" is explained
    rf"|^\W*keep\s+(?:the\s+|your\s+|all\s+(?:the\s+)?)?(?=(?:paragraphs|sentences|bullets|"
    rf"bullet points|lines|stanzas|steps|tips|items|answers|definitions)\s+(?:short|brief|"
    rf"concise|tight)\s*[-\u2013\u2014:,]\s*.*\b{_CEILING}\b)"
    rf"|(?<=[a-z])\s+(?:short|brief|concise|tight)(?=\s*[-\u2013\u2014:,]\s*.*\b{_CEILING}\b)",
    re.IGNORECASE,
)
# The pieces named in a label, then again in the rule: "paragraphs: no paragraph longer than
# two sentences" is one rule on paragraphs.
_LABEL_SAID_AGAIN = re.compile(
    r"^\W*(?P<unit>paragraph|sentence|bullet|line|stanza|step|tip|item|answer|definition)s\s*"
    r"[-\u2013\u2014:]\s*(?=(?:no|each|every|any)\s+(?P=unit)\b)",
    re.IGNORECASE,
)
# Where it must fit, beside the bound that says how much fits: "it must fit in a single tweet
# (280 characters max)", "Keep it to one page: under 300 words", "short enough for a card: 65
# words max", "each option has to fit in one tweet, so 280 characters max".
# Not "one line": "must fit on one line: under 60 characters" asks for one line too.
_MEDIUM = r"(?:tweet|sms|text(?: message)?|page|card|slide|screen|post ?card)"
_FITS_IN = re.compile(
    r"(?:^\W*|(?<=\beach option ))(?:it\s+)?(?:(?:must|has to|should|needs? to|will)\s+)?"
    rf"(?:fits?\s+(?:in|into|within|on)|keep it to|short enough (?:for|to fit (?:in|on)))\s+"
    rf"(?:a\s+single|a|one|1)\s+{_MEDIUM}\s*(?:[:;,\u2013\u2014=-]\s*(?:so\s+|that'?s\s+|i\.e\.\s+)?)?"
    r"(?=.*\d)",
    re.IGNORECASE,
)
# What a reason's subject does: "the widget is tiny", "mobile cuts them off".
_REASON_VERBS = (
    r"(?:is|are|was|were|go|goes|sits?|fits?|cuts?|reads?|gets?|shows?|displays?|truncates?|"
    r"skims?|scans?|hates?|runs?|lives?|appears?|prints?|hides?|drops?|strips?|breaks?|"
    r"mangles?|renders?|removes?|ignores?|eats?|chops?|clips?|collapses?|wraps?|glances?|escapes?|"
    r"loses?|skip|skips|scrolls?|swipes?|taps?|struggles?|zones? out|tunes? out|finds?|"
    r"dislikes?|prefers?|minds?|says?|announces?|comes? across|sounds?|looks?|feels?|seems?|"
    r"won'?t|don'?t|doesn'?t|can'?t|isn'?t|"
    r"aren'?t)"
)
# A clause with a subject of its own says why or where: "the widget is tiny", "teachers are
# busy", "these go on the cup sleeve", "nobody reads long InMails", "mobile cuts them off".
# Not a rule opening with one of those verbs: "drop the `debug:` key", "wrap lines at 80".
_REASON_CLAUSE = (
    rf"(?!{_REASON_VERBS}\b)"
    r"(?:(?:the|our|my|your|these|those|this|that|most|many|some|their)\s+)?"
    # not "..., and both sit at the very end": a second rule joined on; nor the text itself
    # ("..., they are sorted by date", "..., the answer is yes or no"): a rule on it
    r"(?!(?:it|they|these|this|that|everything|nothing|all|both|each|every)\b)"
    r"(?!(?:the\s+|your\s+)?(?:answers?|repl(?:y|ies)|responses?|outputs?|text|messages?|"
    r"e-?mails?|posts?|lists?|bullets?|items?|entries|words?|lines?|sentences?|paragraphs?)\b"
    # ... but "email clients", "text readers" are whom it is for
    r"(?!\s+(?:clients?|apps?|programs?|software|providers?|systems?|tools?|readers?|users?|"
    r"filters?|previews?|inboxes|boxes|viewers?)\b))"
    r"(?:(?!(?:and|or|but|then|also|both|plus|with|without|not|no|each|every)\b)[a-z][a-z'’-]*\s+)"
    r"{0,2}?"
    # "the screen reader already says it's an image"
    r"(?:(?:already|usually|often|just|only|also|rarely|mostly)\s+)?"
    rf"{_REASON_VERBS}"
)
# The same reason before the rule, then "so", a colon or a semicolon: "Release notes get
# skimmed, so I want each bullet kept to ten words or fewer", "Intranet tiles are narrow: fewer
# than 20 words per bullet".
_REASON_HEAD = re.compile(
    rf"^\W*(?P<reason>{_REASON_CLAUSE}\b[^,;:.\d()]*?)\s*(?:,\s*so\b|[;:\u2013\u2014]|\s-\s|\.\s)\s*"
    r"(?:(?:i|we)\s+(?:want|need|would like|'d like)\s+|please\s+)?",
    re.IGNORECASE,
)
# Where the text goes, said before the rule: "It's going in a card, so 80 words max", "goes on
# a sticker: 10 words max", "it sits in a sidebar - under 50 words". The place is no rule.
_PLACED_HEAD = re.compile(
    r"^\W*(?:(?:it|this|these|they)\s*(?:'s|’s|is|are|will|'ll)?\s+)?(?:be\s+)?"
    r"(?:going|goes|go|sits?|lives?|runs?|appears?|printed|shown|displayed|used)\s+"
    r"(?:in|on|into|inside|as)\s+(?:a|an|the|our|my|their)\s+[a-z][a-z -]{0,30}?"
    r"\s*(?:,\s*so\b|[:;\u2013\u2014]|\s-\s|\s+so\b)\s*",
    re.IGNORECASE,
)
# Contractions shown in brackets are examples: "no contractions (don't, we're, I'm)".
_CONTRACTIONS_SHOWN = re.compile(
    r"\s*\(\s*(?:e\.g\.,?\s*|like\s+|such as\s+)?[a-z]+['’][a-z]+(?:\s*,\s*[a-z]+['’][a-z]+)*"
    r"(?:\s*,?\s*(?:etc\.?|…|\.\.\.))?\s*\)(?=\W*$)",
    re.IGNORECASE,
)
# A reason given in brackets at the end states no rule: "(it's Slack, ppl won't read more)".
# What the text does where it goes: "it reads as salesy", "it goes in a tooltip".
_IT_DOES = (
    r"it (?:reads|sounds|looks|feels|comes across|gets|goes|will go|is going|runs|appears|sits|"
    r"lives|shows)"
)
_REASON_ASIDE = re.compile(
    r"\s*\((?:it'?s|it is|because|since|as it|so (?:that|it|people|readers|ppl)|people|readers|"
    rf"ppl|they|(?:it )?(?:has|needs|must) to fit|to fit|{_IT_DOES}|{_REASON_CLAUSE})\b[^()]*\)"
    r"(?=\W*$)",
    re.IGNORECASE,
)
# ... unless it names a piece of the text: "(it's the subject line that counts)".
_NAMES_A_PIECE = re.compile(
    r"\b(?:subject|title|headline|heading|intro\w*|opening|closing|body|greeting|sign-?off|"
    r"caption|summary|conclusion|first|last|final|paragraph|sentence|line|bullet|item|section|"
    r"end(?:ing)?|start|beginning)",
    re.IGNORECASE,
)


# The same reason after a comma or a dash: "100 words max, it's a one-minute read", "2 emoji
# max - it's for a shelter website". It holds no number and names no part or unit of form, so
# it cannot be the rule itself ("..., it's under 100 words" stays as written).
_REASON_TAIL = re.compile(
    r"(?:\s*[,;\u2013\u2014]|\s+-|\.\s+)\s*(?:it'?s|it is|because|since|as (?:it|this|that)|"
    r"this is|"
    # "they" of a reason is what the pieces do where they go ("they show on mobile"), not
    # what they must be ("exactly 4 lines, they rhyme")
    r"that'?s|so (?:that|it|people|readers|ppl)|people|readers|ppl|it (?:has|needs|must) to fit|"
    r"they(?=\s+(?:all\s+|just\s+|"
    rf"only\s+|often\s+|usually\s+)?{_REASON_VERBS}\b)|"
    # "skip the exclamation points, it reads as salesy"
    rf"{_IT_DOES}|{_REASON_CLAUSE})\b[^\d()]*$"
    # "under 300 words so it fits on one page", "under 50 words because it sits on a card"
    r"|\s+so (?:that )?(?:it|they|this|people|readers|nothing|no one|nobody)\b[^\d()]*$"
    r"|\s+(?:because|since)\s+(?:it|they|this|that|these|people|readers|users|ppl|the|our|my|"
    r"your|most|many|some|we|i|you|nobody|no one|everyone)\b[^\d()]*$"
    # a clause of its own after a dash, saying who or what the rule is for: "no emojis - some
    # of our users' tablets show them as boxes", "no code - the reader has never programmed"
    r"|\s*(?:[;\u2013\u2014]|\s-)\s*(?:the|our|some|most|many|these|those|older|we|you)\s"
    r"[^\d()]*$"
    # where the rule comes from, named: "no links at all - anti-phishing policy", "(brand rule)"
    r"|\s*[,;:\u2013\u2014-]\s*\(?(?:our\s+|the\s+|company\s+|house\s+)?"
    r"(?:(?!(?:then|and|plus|also|with|followed|list|add|include)\b)[a-z]+[- ]){0,2}"
    r"(?:policy|policies|rules?|requirements?|guidelines?|regulations?|compliance|legal)\)?\W*$"
    # what the rule is for: "end with a question to spark a conversation"
    r"|\s+(?:to|in order to)\s+(?:encourage|spark|drive|invite|boost|prompt|grab|hook|engage|"
    r"start|get|keep|win|earn|build|attract|draw)\s+(?!(?:it|the|your)\s+(?:text|reply|"
    r"answer|response)\b)[^\d()]*$",
    re.IGNORECASE,
)


# The rule said again, or who asked for it: "exactly 2 sentences, as the user asked", "four
# lines - keep it tight". Not "..., as a list": a rule of its own.
_SAID_AGAIN_TAIL = re.compile(
    r"\s*[,;\u2013\u2014-]\s*(?:(?:just\s+)?as\s+(?:the\s+(?:user|client|customer|brief)\s+|"
    r"you\s+|they\s+|i\s+|we\s+)?(?:asked|requested|specified|instructed|agreed|briefed)"
    r"(?:\s+for)?|keep\s+it\s+(?:tight|short|brief|concise|snappy|punchy|lean|crisp))\W*$",
    re.IGNORECASE,
)


# A part said to be counted in, which a count of the whole text or of a piece already does:
# "under 55 words (greeting and sign-off included)", "bullets 15 words max, label included",
# "each tip <= 15 words incl. the label". Not "make sure a P.S. is included": a requirement.
_COUNTED_PART = (
    r"(?:the\s+)?(?:labels?|greeting|salutation|sign-?off|signature|p\.?\s?s\.?|postscript|"
    r"title|headline|subject(?:\s+line)?|headings?|hashtags|emojis|(?:clause|step|item)\s+numbers?|"
    r"links?|urls?|spaces|punctuation|sig|buttons?|(?:e-?mail\s+|postal\s+)?addresses|"
    r"footers?|disclaimers?|everything|numbers?|markers?|bullet\s+markers?)"
)
_COUNTED_PARTS = rf"{_COUNTED_PART}(?:\s*(?:,|and|&|/)\s*{_COUNTED_PART})*"
_COUNTED_IN = re.compile(
    rf"\s*[,(]\s*{_COUNTED_PARTS}\s+(?:included|inclusive|counted|count(?:s)? too)"
    r"\s*(?:\)|,|(?=\W*$))"
    rf"|\s*,?\s*\(?\s*(?:incl\.?|including|counting)\s+{_COUNTED_PARTS}\s*\)?(?=\W*$)",
    re.IGNORECASE,
)


# "Wrap the body at 72 characters", "wrap lines at 80 columns": no line longer than that.
_WRAP_AT = re.compile(
    r"\bwrap(?:ped)?\s+(?:(?:the|all|every)\s+)?(?P<body>body\s+)?(?:(?:text|lines?|copy)\s+)?"
    r"(?:at|to)\s+(?P<n>\d+)\s*(?:characters|chars|columns|cols|char)\b",
    re.IGNORECASE,
)
# A title, a heading or a subject line is one line by what it is: "a one-line title in bold",
# "a title that fits on one line" say nothing of the text's lines.
_ONE_LINE_PART = re.compile(
    r"\b(?:one|single|1)[- ]line\s+(?P<part>(?:bold\s+)?(?:title|heading|headline|subject line|"
    r"subject|greeting|sign-?off)s?)\b"
    r"|\b(?P<part2>title|heading|headline|subject line)\s+(?:(?:that|which)\s+)?(?:fits?\s+|is\s+|"
    r"stays?\s+)?on\s+(?:one|a single|1)\s+line\b",
    re.IGNORECASE,
)


# A closing aside of a few plain words says where or why, no rule: "(X limit)", "(screen
# readers)", "(brand guidelines)", "(formal essay)", "(UK site)", "(git convention)". Not one
# that qualifies the rule ("(optional)", "(in total)", "(each)", "(not counting the title)").
_NOUN_ASIDE = re.compile(r"\s*\((?P<words>[a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,3})\)(?=\W*$)")
_QUALIFIERS = re.compile(
    r"\b(?:optional|optionally|ideally|preferably|roughly|approx\w*|about|around|if|when|unless|"
    r"each|every|per|all|any|only|total|combined|overall|max|min|maximum|minimum|exactly|least|"
    r"most|not|no|never|without|except|excluding|including|included|incl|counted|counting|plus|"
    r"and|or|both|either|neither|same|whole|entire|first|last|once|twice|times|apiece|"
    r"required|mandatory|must|should|please|pls|etc|e\.g|i\.e|ok|okay|fine|allowed|welcome|"
    r"order|ordered|sequence|sorted|together|separate\w*|below|above|after|before|top|bottom|"
    r"own|numbered|bulleted|bold(?:ed)?|italics?|italici[sz]ed|capitali[sz]ed|indented|quoted|"
    r"underlined|hyphenated|alphabetical|chronological|inline|centred|centered|signed|dated)\b"
)
# "(about a minute spoken)", "(≈30 seconds read aloud)": how long it takes to say, a reason.
_SPOKEN_ASIDE = re.compile(
    r"\s*\(\s*(?:\u2248|~|about|around|roughly|approx\.?|approximately)?\s*(?:\d+|an?|one)\s*"
    r"(?:seconds?|secs?|minutes?|mins?)\s+(?:spoken|read(?: aloud| out)?|aloud|of speech|"
    r"when (?:spoken|read(?: aloud)?))\s*\)(?=\W*$)"
)


# How long the text takes to say, given as the reason for a length in words: "It's read aloud
# in about 20 seconds, so under 50 words", "75 words max (30 s at 150 words per minute)",
# "between 60 and 70 words - that's our 30 seconds". The duration is no rule a check could
# hold the text to, and its "about" does not make the word count approximate.
_DURATION = (
    r"(?:(?:about|around|roughly|approx(?:imately|\.)?|~|\u2248|only|just|under|less than|"
    r"at most|max(?:imum)?)\s*)?(?:\d+(?:\.\d+)?\s*(?:s|secs?|seconds?|mins?|minutes?)|"
    r"(?:an?|one|two|three|four|five|ten|fifteen|twenty|thirty|forty(?:-five)?|sixty|ninety|"
    r"half an?)\s+(?:seconds?|minutes?))(?:\s+and\s+a\s+half)?\b"
)
_PACE = re.compile(
    r"\b(?:at\s+)?(?:about\s+|around\s+|roughly\s+|~\s*)?\d+\s*(?:words?\s+(?:per|a|/)\s*"
    r"min(?:ute)?|wpm)\b",
    re.IGNORECASE,
)
_DURATION_HEAD = re.compile(
    rf"^\W*(?P<said>[^,;:.()]*?{_DURATION}[^,;:.()]*?)\s*(?:,\s*(?:so|i\.e\.?|that'?s|"
    r"which is|meaning)?|[:;\u2013\u2014]|\s-\s)\s*",
    re.IGNORECASE,
)
_DURATION_TAIL = re.compile(
    # "..., about 30 seconds spoken", "... so it fits in 30 seconds"
    rf"(?:\s*(?:[,;\u2013\u2014]|\s-|\.)|\s+(?=so\s))\s*(?P<said>[^,;:()]*?{_DURATION}[^,;:()]*?)\W*$"
    rf"|\s*\((?P<aside>[^()]*?{_DURATION}[^()]*)\)\W*$",
    re.IGNORECASE,
)
_LENGTH_UNIT = re.compile(r"\b(?:words?|characters?|chars?|sentences?)\b", re.IGNORECASE)


def _no_duration(text: str) -> str:
    """`text` without a duration said as the reason for its length in words."""
    paced, dropped = _PACE.sub(" a pace ", text), False
    for pattern in (_DURATION_HEAD, _DURATION_TAIL):
        match = pattern.search(paced)
        if match is None:
            continue
        said = match.group("said") or match.group("aside")
        bare = re.sub(_DURATION, " ", said, flags=re.IGNORECASE)
        rest = paced[: match.start()] + " " + paced[match.end() :]
        # the duration is the reason only when it is alone in its clause and a length is left
        if re.search(r"\d", bare) or _LENGTH_UNIT.search(bare) or not _LENGTH_UNIT.search(rest):
            continue
        if _RULE_WORDS.search(bare) and not re.search(r"\b(?:fit|fits|read|said|spoken)\b", bare):
            continue
        paced, dropped = rest, True
    return paced if dropped else text


def _no_aside(match: re.Match[str]) -> str:
    said = match.group("words").casefold()
    if any(p.search(said) for p in (_QUALIFIERS, FORM_WORDS, _RULE_WORDS)) or _holds_a_rule(said):
        return match.group()
    # "Two hashtags (brand tags)" says which ones: a word of the rule, said again
    rule = match.string[: match.start()].casefold()
    if any(len(word) > 2 and word.rstrip("s") in rule for word in said.split()):
        return match.group()
    return ""


def _no_reason(match: re.Match[str]) -> str:
    said = match.group()
    return said if _holds_a_rule(said) else ""


# ... nor a second rule: "..., they should be short", "..., it must sound friendly".
_RULE_WORDS = re.compile(
    r"\b(?:should|must|needs?|has to|have to|ought|make sure|keep|use|avoid|do not|don't|never|"
    r"always|each|every|only|include|mention|too\s+(?:long|many|much)|"
    # a second rule joined on: "..., they read as shouting, and no caps"
    r"and\s+(?:no|not|never|use|keep|avoid|add|include|end|start|put))\b",
    re.IGNORECASE,
)
# ... nor a quality asked of the text: "..., the tone is friendly", "..., the voice stays formal".
_QUALITY = re.compile(
    r"\b(?:tone|voice|style|register|wording|language|vocabulary|grammar|spelling|tense|mood|"
    r"reading level|formality|jargon|slang|person|persona)\b",
    re.IGNORECASE,
)
# ... nor a state of the text: "..., it is in Spanish", "..., it's addressed to Sam".
_STATE = re.compile(
    r"\b(?:is|are|'s|’s)\s+(?:all\s+)?(?:in|written|addressed|sorted|ordered|formatted|numbered|"
    r"listed|bold(?:ed)?|italic|capitali[sz]ed|yes|no|about|under|over|at most|at least|exactly|"
    r"only|one|two|three|four|five|signed|dated|titled|labell?ed|spelled|spelt)\b",
    re.IGNORECASE,
)
# ... nor what is counted: "(the bold label doesn't count)", ", emojis included".
_COUNTING = re.compile(
    r"\b(?:(?:do(?:es)?n['’]?t|do(?:es)? not|not)\s+count|counts?\s+(?:too|as|toward)|counted|"
    r"counting|included|includes|including|excluded|excluding|incl)\b",
    re.IGNORECASE,
)


# ... nor a comparison of pieces: "3 paragraphs; the middle one is the longest".
_COMPARES = re.compile(
    r"\b(?:(?:long|short|brief|big|small)est|same|equal|middle|second|third|"
    r"(?:long|short)er than (?:the|its|each|every|any|all))\b",
    re.IGNORECASE,
)


def _holds_a_rule(said: str) -> bool:
    """Whether a would-be reason names a piece, what is counted, a quality or a state of it."""
    return any(p.search(said) for p in (_NAMES_A_PIECE, _COUNTING, _QUALITY, _STATE, _COMPARES))


def _no_reason_tail(match: re.Match[str]) -> str:
    said = match.group()
    # the criterion is not casefolded yet: "bare URLs are not allowed" names a unit of form;
    # "the widget shows the raw asterisks" names marks only to say they would show unrendered
    form = FORM_WORDS.search(said.casefold()) and not _SHOWN_RAW.search(said)
    # "to keep the conversation going": the purpose's own verb is no rule's "keep"
    aim = re.sub(r"^\s*(?:in order )?to\s+[a-z]+", " ", said, flags=re.IGNORECASE)
    rule = _holds_a_rule(said) or form or _RULE_WORDS.search(aim)
    return said if rule else ""


_SHOWN_RAW = re.compile(
    r"\b(?:shows?|prints?|displays?|renders?|reads?|outputs?)\b.*\b(?:raw|literally|verbatim|"
    r"as[- ]is|unrendered|as plain text)\b",
    re.IGNORECASE,
)


_GLYPH = re.compile(r"(?P<glyph>(?:^|\s)(?:q\d+|[^\w\s%$€£¥]{1,3}))\s+(?:character|char)\b")
_INTENSIFIER = re.compile(
    r"\b(?:absolutely|strictly|definitely|totally|really)\s+(?=(?:no|not|never|only|exactly)\b)",
    re.IGNORECASE,
)


# The same after a comma or a dash, as "of them" or with its bound: "bullet points, four of
# them", "hashtags - at most 3 of them", "numbered steps; seven at most", "bullets, 5 max".
_COUNT_OF_THEM = re.compile(
    rf"\b(?P<unit>{UNIT})\s*[,;\u2014\u2013-]\s*(?:(?P<pre>at least|at most|no more than|"
    rf"no fewer than|no less than|exactly|up to|max(?:imum)?|min(?:imum)?)\s+)?(?P<n>\d+)"
    rf"(?:\s+(?P<post>or more|or fewer|or less|at most|at least|max(?:imum)?|min(?:imum)?|tops))?"
    rf"(?:\s+of them\b|(?<=[a-z])(?=\W*$))"
)


# ... or with a range: "Use bullets - at least 3 but no more than 6", "numbered steps,
# somewhere between 5 and 7", "bullets: 3-6", "use bullets (3-6)", "hashtags, 2 to 4 of them".
_RANGE_OF_THEM = re.compile(
    rf"\b(?P<unit>(?:(?:numbered|bulleted)\s+)?(?:{UNIT}))\s*[,;:(\u2014\u2013-]\s*"
    r"(?:(?:somewhere|anywhere)\s+)?(?P<range>between\s+\d+\s+and\s+\d+|\d+\s*(?:-|\u2013|to)\s*\d+|"
    r"at least \d+,? (?:but|and) (?:no more than|not more than|at most|up to) \d+)"
    r"(?:\s*\)(?=\W*$)|\s+of them\b|(?=\W*$))"
)


# A mark at the end of each piece, said mark first: "Full stop at the end of every bullet",
# "question marks at the end of all the questions". Read as "every bullet ends with a full
# stop", before the pieces are looked for.
MARK_AT_THE_END_OF_EACH = re.compile(
    r"^\W*(?:(?:a|an|use|put)\s+)?(?P<mark>full stop|period|question mark|exclamation mark|colon|"
    r"semicolon|comma)s?\s+at\s+the\s+end\s+of\s+(?:every|each|all(?:\s+of)?(?:\s+the)?|"
    r"the)\s+(?P<unit>bullet|item|line|sentence|paragraph|question|step|heading)s?\b",
    re.IGNORECASE,
)
_NOTHING_AFTER_THE_END = re.compile(
    r"(?P<end>\b(?:end|finish|close|conclude)(?:s|ing)?\s+(?:on|with)\s+[^,;.]+?)\s*[,;\u2013\u2014-]?\s*"
    r"(?:with\s+|and\s+)?nothing\s+(?:else\s+)?(?:after|following|below)\s+(?:it|that|this)\b"
)


# A length said to be too long: "if it's 120 words or more, it's too long", "60+ words is too
# long for a channel post", "more than 3 bullets is too many". What passes is under it.
_TOO = (
    r"\s*,?\s*(?:(?:then\s+)?(?:it'?s|it is|that'?s|that is|is|are)\s+)?too\s+(?:long|many|much)\b"
)
_TOO_LONG = re.compile(
    rf"^\W*(?:if\s+(?:it'?s|it is|it has|it hits|it reaches|you (?:hit|reach))\s+)?(?P<n>\d+)\s*"
    rf"(?P<unit>{UNIT})\s+or\s+(?:more|longer|over){_TOO}(?P<tail>[^.;!?]*)\W*$"
    rf"|^\W*(?P<n2>\d+)\s*\+\s*(?P<unit2>{UNIT}){_TOO}(?P<tail2>[^.;!?]*)\W*$"
    rf"|^\W*(?:anything\s+)?(?:more than|over|above|longer than)\s+(?P<n3>\d+)\s*(?P<unit3>{UNIT})"
    rf"{_TOO}(?P<tail3>[^.;!?]*)\W*$",
    re.IGNORECASE,
)


def _under_what_is_too_long(match: re.Match[str]) -> str:
    tail = match.group("tail") or match.group("tail2") or match.group("tail3") or ""
    # "too long for a tweet" says where; "too long for the intro" says which piece
    if _NAMES_A_PIECE.search(tail) or re.search(r"\d|\beach\b|\bevery\b|\bper\b", tail):
        return match.group()
    if match.group("n3"):
        return f"at most {match.group('n3')} {match.group('unit3')}"
    n = match.group("n") or match.group("n2")
    return f"fewer than {n} {match.group('unit') or match.group('unit2')}"


# The same after a colon, the whole criterion: "emojis: two at most", "hashtags: 3 max".
_COUNT_AFTER_COLON = re.compile(
    # "steps: at least 4": any plural named, with a bound, as "at least 4 steps" (not days,
    # hours...; "replicas: 3" is a key and its value)
    rf"^\W*(?:(?P<unit>{UNIT})|(?P<plural>(?!(?:days|weeks|months|years|hours|minutes|seconds|"
    rf"times)\b)[a-z][a-z-]*s(?=\s*:\s*(?:at|no|exactly|up|max|min|\d+\s+(?:or|max|min|at|tops)))))"
    rf"\s*:\s*(?:(?P<pre>at least|at most|no more than|no fewer than|no less "
    rf"than|exactly|up to|max(?:imum)?|min(?:imum)?)\s+)?(?P<n>\d+)(?:\s+(?P<post>or more|or fewer|"
    rf"or less|max(?:imum)?|min(?:imum)?|at most|at least|tops))?(?=\W*$)"
)
_SAID_AGAIN = re.compile(
    r"\b(?P<n>\d+) (?P<unit>[a-z]+(?: [a-z]+)?)(?: exactly)?\s*(?:\(\s*exactly (?P=n)\s*\)|"
    r"[,\u2014\u2013-]\s*exactly (?P=n)\b|\s*[,\u2014\u2013-]\s*not \d+,? (?:and |or )?not \d+\b)"
)
# "Hashtags: none", "emojis: none please".
_NONE_AFTER_COLON = re.compile(rf"^\W*(?P<unit>{UNIT})\s*:\s*none\b")
# Quantifiers said the long way: "none of the sentences is over 15 words" is "no sentence over
# 15 words"; "bullets: keep every one at 12 words or under" is "keep each at ..."; "8 words is
# the ceiling" and "four paragraphs is the limit" are "at most".
_VERB_OF_NONE = r"(?:\s+(?:is|are|goes|go|runs|run|gets|get|should be|should go|can be|may be))?"
_NONE_OF_THE = re.compile(
    rf"\bnone of (?:the|these|those|your|its|my) (?P<unit>{UNIT})\b{_VERB_OF_NONE}"
)
_NONE_OF_THEM = re.compile(rf"\bnone of them\b{_VERB_OF_NONE}")
# "3 bullets, none over 10 words", "Short sentences. None longer than 12 words.": each of the
# pieces just named is at most that long.
_NONE_OVER = re.compile(
    r"\b(?P<pieces>(?:bullet(?:ed)?[- ]?points|bullets|(?:list )?items|sentences|paragraphs|lines|"
    r"stanzas|steps|entries|tips|answers|questions|options))\b(?P<mid>[^.;:!?,\u2014\u2013]*?)"
    rf"\s*[,;:.\u2014\u2013-]\s*(?:none(?: of them)?|nothing|not one){_VERB_OF_NONE}\s+"
    r"(?:longer than|over|more than|above|beyond|exceeding|past)\s+(?P<n>\d+)\b"
)
_EACH_ONE = re.compile(r"\b(each|every) one\b(?! of\b)")
# Who made the rule, as its subject: "house style bans exclamation marks", "our brand voice
# never uses emoji", "legal forbids the word 'guarantee'". The rule is the rest.
_RULE_GIVER = re.compile(
    r"^\W*(?:(?:our|the|my|your|company|team)\s+)?(?:house\s+style|style\s+guide|brand(?:\s+voice|"
    r"\s+guidelines?)?|guidelines?|(?:company\s+)?policy|legal|compliance|the\s+client|editor)\s+"
    r"(?=(?:bans?|forbids?|prohibits?|disallows?|never\s+uses?|does\s+not\s+allow|rules?\s+out)\b)"
)
# Text around a block ruled out, after the block is said to be all there is: "Respond with
# JSON only - no intro sentence, no explanation after", "code only, no prose before or after".
# Whose rule it is, said first: "Per the brand guide: no exclamation marks", "as per our style
# guide, ...". No rule of its own.
_PER_THE_GUIDE = re.compile(
    r"^\W*(?:as\s+)?per\s+(?:the\s+|our\s+|my\s+|their\s+|house\s+)?[a-z'’ -]{0,30}?"
    r"(?:guide|guidelines|policy|brief|style|spec|specs|rules?|standards?|request|legal|"
    r"template)\s*[:,\u2013\u2014-]\s*",
    re.IGNORECASE,
)
_ONLY_A_BLOCK = re.compile(
    r"\b(?:only|just|nothing but|solely|nothing else|nothing (?:else )?(?:outside|besides|"
    r"other than|except(?: for)?))\b(?:\s+the)?\s+(?:valid\s+)?(?:json|yaml|"
    r"code(?:\s+block)?|table|list|query|sql|csv|command)\b"
    r"|\b(?:json|yaml|code|table|csv|sql)\s+only\b"
    r"|\b(?:json|yaml|code|table|csv|sql)\b.*\bnothing else\b"
)
_AROUND_TEXT = (
    r"(?:(?:other|extra|additional|surrounding)\s+)?(?:intro(?:duction|ductory)?|preamble|lead-in|"
    r"outro|prose|commentary|explanations?|explanatory|notes?|chatter|closing line|sign-?off)"
    r"(?:\s+(?:text|lines?|sentences?|words|paragraphs?))?|(?:text|sentences?|words)(?=\s+(?:before|"
    r"after|around|outside))"
)
_WHERE_AROUND = (
    r"(?:\s+(?:before|after|around|outside)(?:\s+(?:or|and)\s+(?:before|after))?"
    r"(?:\s+(?:it|them|the\s+[a-z]+(?:\s+block)?))?)?"
)
_NO_TEXT_AROUND = re.compile(
    rf"\s*[,;:.\u2014\u2013-]\s*(?:(?:and|with)\s+)?(?:no|without)\s+(?:{_AROUND_TEXT})"
    rf"(?:\s*(?:,|or|and|/)\s*(?:no\s+)?(?:{_AROUND_TEXT}))*{_WHERE_AROUND}"
    rf"(?:\s*[,;]\s*(?:no|without)\s+(?:{_AROUND_TEXT}){_WHERE_AROUND})?(?=\W*$)"
)
# An absence said again as its own sentence: "No emojis. None, anywhere.", "... Zero."
_NONE_SAID_AGAIN = re.compile(
    r"(?<=[.!;])\s*(?:none|zero|not one|not a single one)(?:\s*,?\s*(?:anywhere|at all|whatsoever|"
    r"ever|period))?\W*$"
)
_PROPER_NOUNS_ASIDE = re.compile(
    r"\s*\(\s*(?:proper\s+nouns|names)\s+(?:excepted|aside|allowed|excluded|apart|are\s+fine)\s*\)"
    r"|\s*,?\s*(?:except(?:ing)?|apart\s+from|other\s+than|besides)(?:\s+for)?\s+proper\s+nouns\b"
    r"|\s+(?:and|\+|plus)\s+proper\s+nouns\b",
    re.IGNORECASE,
)
# Prose as its own clause beside a rule against lists says that rule again: "Plain prose, no
# bullet points", "It should read as flowing prose, not as a list", "no lists, just prose". Not
# "no lists in the prose" or "prose outside the code block", where prose names a part.
_NO_LISTS = re.compile(
    rf"\b(?:{NEG}|not)\b[^.;]*\b(?:lists?|bullet(?:ed)?(?: points?| lists?)?|bullets)\b"
)
_PROSE_CLAUSE = re.compile(
    r"(?P<edge>^|[.,;:\u2014\u2013(])\s*(?:it\s+)?(?:(?:should|must)\s+)?"
    r"(?:(?:read|be|written|write it|write|format(?:ted)?|keep it)\s+)?(?:(?:as|in)\s+)?"
    r"(?:(?:just|only)\s+)?(?:(?:plain|flowing|running|continuous|connected|simple|normal)\s+)?"
    r"prose(?:\s+only)?(?=\s*(?:[.,;:\u2014\u2013)]|$|without\b|with no\b))"
)
# A range said as two bounds, the unit said once: "at least 3 sentences, no more than 5", "at
# least 40 words but under 60", "min 3 bullets, max 6", "3 sentences minimum, 5 maximum". The
# second number counts the same unit, so it is said again for the count rule to read both.
_LOWER = (
    r"at least|no fewer than|no less than|not fewer than|not less than|min(?:imum)?|over|more than"
)
_UPPER = (
    r"at most|no more than|not more than|no longer than|up to|max(?:imum)?|under|below|fewer than|"
    r"less than"
)
_SECOND_BOUND = re.compile(
    rf"\b(?P<first>(?:{_LOWER}|{_UPPER}) \d+ (?P<unit>{UNIT}))\s*(?:[,;]\s*|\s)(?:and |but )?"
    rf"(?:(?:yet|still) )?(?P<second>(?:{_LOWER}|{_UPPER}) \d+)(?=\s*(?:$|[.;,)!]))"
    rf"|\b(?P<first2>\d+ (?P<unit2>{UNIT}) (?:{_LOWER}|{_UPPER}|or more|or fewer|or less|tops))"
    rf"\s*(?:[,;]\s*|\s)(?:and |but )?(?P<second2>\d+ (?:{_LOWER}|{_UPPER}|or more|or fewer|"
    rf"or less|tops))(?=\s*(?:$|[.;,)!]))"
)


def _unit_again(match: re.Match[str]) -> str:
    if match.group("first") is not None:
        return f"{match.group('first')} and {match.group('second')} {match.group('unit')}"
    number, bound = match.group("second2").split(" ", 1)
    return f"{match.group('first2')} and {number} {match.group('unit2')} {bound}"


_IS_THE_LIMIT = re.compile(
    rf"\b(?P<n>\d+) (?P<unit>{UNIT}) (?:is|are) (?:the|my|our|your|a|an) ?(?:hard |absolute )?"
    r"(?:ceiling|cap|limit|maximum|max|upper limit)\b"
)
# "Separate the subject line from the body with a blank line": a blank line after it.
_SEPARATED_BY_BLANK = re.compile(
    r"\bseparate(?:d)?\s+(?P<part>(?:the\s+)?(?:subject(?:\s+line)?|greeting|first\s+line))\s+"
    r"from\s+(?:the\s+)?(?:body|message|text|rest)\s+(?:with|by)\s+(?:an?|one|1)\s+"
    r"(?:blank|empty)\s+line\b"
)
# "grouped under exactly 3 headings", "split it into 2 sections": the count of those headings
_GROUPED_UNDER = re.compile(
    r"\b(?:group(?:ed)?|organi[sz]ed?|split|divided?|sorted|broken up|break it up)\s+"
    r"(?:(?:it|them|everything|up)\s+)?(?:under|into)\s+"
    r"(?=(?:(?:exactly|at least|at most|no more than|up to|only)\s+)?\d+\s+"
    r"(?:sub)?head(?:ing|er)s\b)"
)
# "(header doesn't count)", "(header row not counted)", ", the header excluded": one way to say it
_HEADER_NOT_COUNTED = re.compile(
    r"\s*(?:\(\s*|[,;\u2013\u2014-]\s*)(?:the\s+)?header(?:\s+row)?\s+(?:(?:is|being)\s+)?"
    r"(?:does not count|not counted|not included|excluded|does not count toward (?:this|that|it))"
    r"\s*\)?"
    # "(not counting the header)", "(excluding the header row)"
    r"|\s*\(\s*(?:not counting|excluding|not including|without counting|apart from|besides)\s+"
    r"(?:the\s+)?header(?:\s+row)?\s*\)"
)
# What to write in place of what a rule rules out: "don't use 'apology' - say sorry instead",
# "no 'utilize'; write 'use' instead". Advice, not a rule of its own: the rule is the absence.
_INSTEAD = re.compile(
    r"\s*[-\u2013\u2014;,.]\s*(?:just\s+)?(?:say|use|write|try|prefer|go with|pick)\s+[^.;]*?"
    r"\s+(?:instead|in its place|in their place)\b\.?\s*$"
)


def _no_advice(match: re.Match[str]) -> str:
    before = match.string[: match.start()]
    return "" if re.search(r"\b(?:no|not|never|avoid|without|nothing)\b", before) else match.group()


# A rule on a part's size right after the part's name: "P.S. ≤ 25 words", "H1 title under 60
# characters". The name there names what is measured, not something the text must have.
SIZE_FOLLOWS = re.compile(
    r"\.?\s*(?::|=|-)?\s*(?:(?:is|should be|must be|of|with)\s+)?(?:<=|≤|<|under|below|"
    r"max(?:imum)?|at most|no more than|no longer than|fewer than|less than|up to|within|between|"
    r"exactly|\d|\x00)"  # or a count a rule has read already
)


# A part said to be a question ends with a question mark: "subject line is a question", "the
# last line should be a question". The part rules (`in_a_part`) take the part away first, so
# what is left opens with the verb; read as the mark.
_IS_A_QUESTION = re.compile(
    r"^\W*(?:is|should be|must be|has to be|needs to be)\s+(?:phrased\s+as\s+|written\s+as\s+)?"
    r"an?\s+(?:\w+\s+)?question\b(?!\s+(?:about|on|of|for|to)\b)"
)
# The object a key count is of: "the object should have exactly four keys", "each JSON object
# has at most 5 keys". `json_key_count` counts every top-level object's keys.
_OBJECT_HAS = re.compile(
    r"\b(?:the|each|every|your)\s+(?:json\s+)?objects?\s+(?:(?:should|must|needs? to|has to)\s+)?"
    r"(?:have|has|contains?|holds?)\s+(?=(?:exactly|at most|at least|no more than|fewer than|"
    r"only|up to|between)?\s*\d+\s+(?:top[- ]level\s+)?keys?\b)"
)
# A table's rows said the other way round: "5 rows of data", "9 rows max".
_ROWS_OF_DATA = re.compile(r"\b(?P<n>\d+)\s+rows?\s+of\s+data\b")
_ROWS_MAX = re.compile(r"\b(?P<n>\d+)\s+(?P<unit>rows?|columns?)\s+(?:max(?:imum)?|tops|at most)\b")
# "Five bullets, no more", "maximum 4 bullets, not more than that": the tail restates the count
# before it, which keeps its own reading (five bullets are five, as without the tail).
_NO_MORE = re.compile(
    r"\b(?P<count>\d+\s+(?:[a-z][\w-]*\s+)?[a-z][\w-]*(?:\s+(?:max(?:imum)?|tops|at most))?)"
    r"\s*[,;:\u2013\u2014-]?\s*(?:and\s+|but\s+)?(?:no|not|never)\s+more"
    r"(?:\s+than\s+(?:that|this|those|these))?\b(?!\s+than\b)"
)
# "keep each bullet short - 8 words max": the word "short" is explained by the bound after it.
_EACH_SHORT = re.compile(
    rf"^\W*keep (?P<each>each|every|all(?: the)?) (?P<unit>{UNIT}) (?:short|brief|concise|tight)"
    rf"(?: please| pls)?\s*[-\u2013\u2014:,]\s*(?=.*\b{_CEILING}\b)"
)


# A count of the user's own nouns, numbered: "five questions, numbered 1-5", "steps numbered, no
# more than 6 of them", "numbered list, 5 questions exactly". Each reads as numbered items.
_BOUND_BEFORE = (
    r"at least|at most|no more than|no fewer than|no less than|exactly|up to|max(?:imum)?|"
    r"min(?:imum)?"
)
_BOUND_AFTER = r"or more|or fewer|or less|at most|at least|max(?:imum)?|min(?:imum)?|tops|exactly"
_NUMBERED_BEFORE = re.compile(
    rf"^\W*(?:(?P<pre>{_BOUND_BEFORE})\s+)?(?P<n>\d+)\s+(?P<noun>[a-z][a-z-]*s)\s*[,;:\u2013\u2014-]?"
    r"\s*(?:(?:all|each|and)\s+)?numbered(?:\s+(?:from\s+)?1\s*(?:to|-|\u2013|through)\s*(?P<last>\d+))?"
    r"(?=\W*$)"
)
_NUMBERED_AFTER = re.compile(
    r"^\W*(?:(?:the|your)\s+)?(?:numbered\s+(?:list|(?P<noun>[a-z][a-z-]*s))|"
    r"(?P<noun2>[a-z][a-z-]*s)\s+(?:(?:are|should be|must be|need to be|have to be)\s+)?numbered)"
    rf"\s*[,;:\u2013\u2014-]\s*(?:and\s+)?(?:(?P<pre>{_BOUND_BEFORE})\s+)?(?P<n>\d+)"
    rf"(?:\s+of them|\s+(?P<noun3>[a-z][a-z-]*s))?(?:\s+(?P<post>{_BOUND_AFTER}))?(?=\W*$)"
)


def _numbered_count(match: re.Match[str]) -> str:
    found = match.groupdict()
    nouns = {found.get(key) for key in ("noun", "noun2", "noun3")} - {None}
    if len(nouns) > 1 or (found.get("last") and found["last"] != found["n"]):
        return match.group()  # "steps numbered, 5 questions": two things; "1 to 8" of five
    said = (found.get("pre"), found["n"], "numbered items", found.get("post"))
    return " ".join(part for part in said if part)


def _count_before_unit(match: re.Match[str]) -> str:
    unit = match.group("unit") or match.groupdict().get("plural")
    said = (match.group("pre"), match.group("n"), unit, match.group("post"))
    return " ".join(part for part in said if part)


# People tagged are @mentions: "tag exactly one person", "ping 2 teammates at most", "mention
# one person with @". Mentioning people without "@" or a tag is content ("mention one person").
_PEOPLE = r"(?:persons?|people|users?|teammates?|colleagues?|members?|accounts?|handles?)"
_WITH_AT = r"\s+(?:with|using|via)\s+(?:an?\s+)?@(?:[- ]?mentions?)?"
_TAGGED = re.compile(
    rf"\b(?P<verb>tag|ping|@-?mention|mention)\s+(?P<n>(?:(?:{_BOUND_BEFORE}|only|just)\s+)?\d+)"
    rf"\s+{_PEOPLE}(?P<only>\s+only)?(?P<at>{_WITH_AT})?"
)


def _tagged(match: re.Match[str]) -> str:
    if match.group("verb") == "mention" and not match.group("at"):
        return match.group()  # "mention one person": by name, no "@"
    count = match.group("n")
    only = "only " if match.group("only") and count.isdigit() else ""
    return f"{only}{count} @mentions"


# "three sentences - no more, no fewer", "2 hashtags (not 1, not 3)", "nothing more, nothing
# less", "neither more nor fewer": both bounds ruled out, in either order, in brackets or not.
_BOTH_WAYS = r"(?:more|fewer|less)"
_NO_MORE_NO_LESS = re.compile(
    r"\b(?P<n>\d+) (?P<unit>[a-z]+(?: [a-z]+)?)\s*(?:[,;:.\u2014\u2013-]\s*|\(\s*)?"
    rf"(?:(?:no|not|nothing) {_BOTH_WAYS},?\s+(?:and |or |nor |but )?(?:no|not|nothing) "
    rf"{_BOTH_WAYS}(?: than that)?|neither {_BOTH_WAYS} nor {_BOTH_WAYS}|"
    r"not \d+,? (?:and |or |nor )?not \d+)\b\s*\)?"
)


# A Markdown heading's level, however it is named: "H2", "H2s", "level-2 headings", "top-level
# heading", "second-level headers", "## headings", "'###' subheadings", "subheadings (H3)". Each
# reads as "h2 headings". A lone "#" names Markdown's headings, not their first level.
# "H2 sections", "## sections": a section at a level is named by its heading.
_HEADING_NOUNS = r"(?:sub)?head(?:ing|er)s?|titles?|(?:sub)?sections?"
_LEVEL_ORDINALS = {"top": 1, "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}
_LEVEL_NAMED = re.compile(
    rf"(?:\b(?P<ordinal>{'|'.join(_LEVEL_ORDINALS)})[- ]level|\blevel[- ]?(?P<n>[1-6])"
    rf"|\b(?P<quote>q\d+)|(?<![#\w])(?P<hashes>#{{1,6}}))[-\s]*(?:markdown\s+)?(?P<noun>{_HEADING_NOUNS})\b"
    rf"|\b(?P<noun2>{_HEADING_NOUNS})\s*\(\s*(?:h(?P<n2>[1-6])|(?P<hashes2>#{{1,6}}))\s*\)",
    re.IGNORECASE,
)
_H_LEVEL = re.compile(
    rf"\b[hH](?P<n>[1-6])(?P<plural>s?)(?:\s+(?P<sections>(?:sub)?sections?))?\b"
    rf"(?! (?:{_HEADING_NOUNS})\b)"
)


def _heading_levels(text: str, quotes: list[str]) -> str:
    def named(match: re.Match[str]) -> str:
        noun = match.group("noun") or match.group("noun2")
        section = re.match(r"(?:sub)?section", noun, re.IGNORECASE)
        if section and (match.group("ordinal") or "").casefold() == "top":
            # An outline's "top-level sections" are its main points, and under an H1 title
            # they are H2s: the words name no one level.
            return match.group()
        if section:
            noun = "headings" if noun.casefold().endswith("s") else "heading"
        hashes = match.group("hashes") or match.group("hashes2")
        if match.group("quote"):
            hashes = quotes[int(match.group("quote")[1:])].strip()
            if not re.fullmatch(r"#{1,6}", hashes):
                return match.group()
        if hashes == "#":
            # "Markdown # headings" says Markdown once
            before = match.string[: match.start()]
            return noun if re.search(r"markdown\W*$", before, re.IGNORECASE) else f"markdown {noun}"
        if hashes:
            level = len(hashes)
        elif match.group("ordinal"):
            level = _LEVEL_ORDINALS[match.group("ordinal").casefold()]
        else:
            level = int(match.group("n") or match.group("n2"))
        return f"h{level} {noun}"

    text = _LEVEL_NAMED.sub(named, text)
    return _H_LEVEL.sub(_h_level, text)


def _h_level(match: re.Match[str]) -> str:
    sections = match.group("sections") or ""
    plural = match.group("plural") or ("s" if sections.casefold().endswith("s") else "")
    return f"h{match.group('n')} heading{plural}"


def _informal(text: str) -> str:
    for pattern, written_out in _INFORMAL:
        text = re.sub(pattern, written_out, text, flags=re.IGNORECASE)
    return text


def is_mark(phrase: str) -> bool:
    """Whether a quoted phrase is a punctuation mark or symbol (`!`, `&`), not a word."""
    return bool(phrase.strip()) and not any(char.isalnum() for char in phrase)


def unit_key(words: str) -> str | None:
    words = words.strip()
    return next((key for pattern, key in _UNIT_KEYS if pattern.match(words)), None)


def bound(cmp: str | None, negated: bool) -> str | None:
    key = cmp or "exactly"
    if negated:
        return _FLIP.get(key)
    return key


def cmp_key(match: re.Match[str], prefix: str = "") -> str | None:
    for key in _CMP:
        if match.groupdict().get(f"{prefix}{key}"):
            return key
    return None


_HEADING_NOUN = re.compile(r"\b(?:titles?|headings?|headers?|headlines?|subheadings?)\b")


# A piece of the text named as the subject just before a rule: "bullets are all lowercase".
_PIECE_SUBJECT = re.compile(
    r"\b(?:bullets?|bullet points?|(?:list )?items?|lines?|paragraphs?|sentences?|stanzas?|"
    r"entries|steps?|sections?|names?|keys?|labels?|words?|hash ?tags?|tags?|links?|urls?|"
    r"emails?)\s+"
    r"(?:(?:are|is|should|must|will|be|all|each|written|in|use|using|always)\s+)*$"
)


def about_a_piece(match: re.Match[str], reading: Reading) -> bool:
    """The criterion names headings or a title outside `match`, or a piece just before it.

    "Use capital letters for the headings", "headings start with a capital letter", "bullets
    are all lowercase": a rule on the whole text's case or opening read here would judge the
    wrong part of it.
    """
    rest = reading.text[: match.start()] + " " + reading.text[match.end() :]
    subject = _PIECE_SUBJECT.search(reading.text[: match.start()])
    return _HEADING_NOUN.search(rest) is not None or subject is not None


NAME_SEPARATOR = r"\s*(?:,\s*(?:and\s+|&\s+)?|\s+and\s+|\s+&\s+|\s*\|\s*)"
"""What separates names in a list: "Day, Workout and Duration", "Name | Price"."""


def as_written(name: str, original: str) -> str:
    """A name as the criterion writes it (the reading is casefolded): "day" -> "Day"."""
    name = _ESCAPED_Q.sub(r"\g<q>\g<n>", name)  # "q_1 revenue" -> "Q1 Revenue"
    words = r"\s+".join(re.escape(word) for word in name.split())
    found = re.search(rf"(?<!\w){words}(?!\w)", original, re.IGNORECASE)
    return found.group() if found else name


def constant(name: str, **args: Any) -> Builder:
    """A rule's builder whose match always means the same check: "no numbered list" and the like."""
    check = create(name, **args)
    return lambda match, reading: check


def count_check(unit: str, bounds: dict[str, int], **extra: Any) -> Check:
    name, args = _COUNT_CHECK[unit]
    return create(name, **args, **extra, **bounds)


def mask(text: str, start: int, end: int) -> str:
    """The text with a consumed span blanked out by a character no rule reads across."""
    return text[:start] + CONSUMED * (end - start) + text[end:]
