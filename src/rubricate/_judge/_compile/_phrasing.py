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
  list items, emojis, placeholders, headings, words in capitals, highlighted spans, links,
  e-mail addresses, hashtags, code blocks, tables, punctuation marks;
- **negation** (`not`, `never`, `no`, `without`, `avoid`...) flips a comparator (`must not
  exceed 100 words` is `at_most=100`), makes a unit absent (`no emojis` is `exactly=0`) or
  negates a rule (`never ends with a question`);
- **scope**: `each`, `every`, `per`, `no sentence ...` turn a count into a limit on every
  sentence, paragraph, line or list item (`word_count(at_most=20, per="sentence")`); a rule on
  a named part, on every piece of a kind in the user's own noun, or on the body, is read by
  `_scopes.py` (`within`, `each`);
- **rules without a number**: a title, how the text starts or ends (a quoted phrase, a
  question, a greeting, a sign-off, a punctuation mark), letter case (of the text or of its
  headings), commas, quotes around the text, JSON, a date format, numbers in digits or words,
  a language, quoted keywords, a postscript, which kind of list, a table, a code block.

A criterion is decided here only when every word of it is accounted for: after the rules
consume what they read, what is left may only be filler ("the response should", "your answer",
"the poem"...). A word left over ("warm tone", "about spring", a negation no rule used) means
the criterion says something the grammar did not read, and `parse_criterion` says so: the
compiler then asks the model, whose mapping is grounded as before, or leaves the criterion to
the judge. Precision over recall: a criterion this module decides is decided exactly. So
some criteria whose words are all read are still left to the model, because no exact check
means them: an approximate bound ("about 100 words", "150 words or so"), a target ("aim for
250 words"), a permission ("emojis are fine"), a rule on each of several outputs ("each tweet
has a hashtag").

The parts live in `_numbers.py` (numbers in words), `_vocabulary.py` (the words and the prepared
criterion) and the rules, one module per kind: `_count_rules.py` (bounds on a unit),
`_presence_rules.py` (a unit absent or present), `_layout_rules.py` (lists, tables, code
blocks), `_start_end_rules.py` (how the text starts and ends), `_keyword_rules.py` (quoted words
and marks) and `_style_rules.py` (title, case, formats, language); `_scopes.py` reads a rule on
part of the text with this module's whole-text reading. This module runs the rules in order
and judges what is left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..._exceptions import RubricError
from ...checks import Check, all_of
from . import _count_rules as count_rules
from . import _keyword_rules as keyword_rules
from . import _layout_rules as layout_rules
from . import _measure_rules as measure_rules
from . import _presence_rules as presence_rules
from . import _start_end_rules as start_end_rules
from . import _style_rules as style_rules
from ._numbers import normalize_numbers
from ._scopes import (
    each_one,
    for_a_kind_of_text,
    for_each,
    for_each_output,
    has_stray_each,
    ignores_each,
    in_a_field,
    in_a_named_list,
    in_a_part,
    in_a_section,
    inside_blocks,
    is_negation,
    less_the_frame,
    less_what_is_set_aside,
    names_steps,
    parts,
    said_of_a_named_piece,
    sets_the_frame_aside,
    several_outputs,
)
from ._vocabulary import (
    ABSENCE,
    EXAMPLE_TAIL,
    FILLER,
    HASHTAGS_LAST,
    MARK_AT_THE_END_OF_EACH,
    ORDINAL,
    ORDINAL_WORDS,
    Builder,
    mask,
    plain,
    read,
)

__all__ = ["ParsedCriterion", "parse_criterion", "stated_numbers"]


@dataclass(frozen=True)
class ParsedCriterion:
    """What the grammar read in a criterion."""

    check: Check | None
    """The check deciding the whole criterion, when every word was accounted for."""
    found: tuple[Check, ...] = ()
    """The rules read, whether or not the whole criterion was (for a partial read)."""
    leftover: tuple[str, ...] = field(default=())
    """The words no rule read and that are not filler; empty when `check` is set."""
    approximate: bool = False
    """The criterion states an approximate bound ("about 100 words"): no check decides it."""
    permission: bool = False
    """The criterion permits rather than requires ("emojis are fine"): no check decides it."""
    stray_each: bool = False
    """An "each", "every" or "all the <things>" that no rule read is left in the criterion: the
    rule may be one on every piece ("every bullet ends with a period")."""

    @property
    def complete(self) -> bool:
        """Whether the criterion was read whole: `check` decides it."""
        return self.check is not None


def stated_numbers(description: str) -> set[int]:
    """Every number a criterion states, in digits or words; 0 when it states an absence.

    "no bullet points", "without emojis", "never", "none", "avoid": a count of zero is what
    the criterion says, even though no `0` is written.
    """
    text = normalize_numbers(plain(description))
    numbers = {int(n) for n in re.findall(r"\d+", text)}
    ordinals = {word: value for value, word in enumerate(ORDINAL_WORDS, start=1)}
    numbers |= {value for word, value in ordinals.items() if re.search(rf"\b{word}\b", text)}
    if ABSENCE.search(text):
        numbers.add(0)
    return numbers


_PLACEHOLDER_TAIL = re.compile(r"\s*(?:in|with|using|inside|within)\s+square brackets")
_EXAMPLE = re.compile(EXAMPLE_TAIL)
# A bound said to be approximate ("100 words or so", "roughly 3 paragraphs") is no exact count:
# a check would fail what a reader lets pass, so such a criterion is never decided here.
_APPROXIMATE = re.compile(
    r"\bor so\b|\broughly\b|\bapprox(?:imately|\.)?|\b(?:around|about|circa|some|nearly|"
    r"almost|close to) \d|~\s*\d|\d+-?ish\b|\bgive or take\b|\bmore or less\b|\bor thereabouts\b"
)
# A rule on part of the text ("the poem itself is four lines", "caption text (excluding hashtags)
# in 2 sentences", "apart from the greeting"): a check counts the whole text, so such a criterion
# is never decided here. A table's header row is the one exclusion the checks already make.
_PART_ONLY = re.compile(
    r"\b(?:(?:excluding|not counting|not including|apart from|aside from|except(?: for)?|"
    r"other than|besides)(?! (?:the |a |its )?header(?: row)?\b)|itself|themselves|proper)\b"
    # "only the last sentence is a question": a rule on every other piece too
    # ("only the first word capitalised" explains sentence case, read with it)
    rf"|\bonly\s+(?:the\s+)?(?!first\s+(?:word|letter)\b)(?:{ORDINAL}|last|final|opening|"
    rf"closing)\s+[a-z]+"
)
# An example in brackets that holds no word: "number the points (1., 2., 3. ...)".
_BARE_EXAMPLE = re.compile(
    # not a count or a range of one ("use bullets (3-6)"): a bound said in brackets
    r"\((?:e\.g\.,?\s*|like\s+|such as\s+|(?!\s*\d{1,3}\s*(?:[-\u2013]\s*\d{1,3}\s*)?\)))"
    r"[^()a-z]*\)"
    # a list of examples that says it is one: "(I've, don't, etc.)", "(we, our and so on)"
    r"|\([^()]*?(?:,\s*|\s+)(?:etc\.?|and so on|and the like|and similar|or similar)\s*\)"
)


_RULES: tuple[tuple[re.Pattern[str], Builder], ...] = (
    # the reply not wrapped in a fence or quotes, before a code block or quotes are counted
    (style_rules.NOT_WRAPPED, style_rules.not_wrapped_rule),
    (layout_rules.BULLET_MARKER, layout_rules.bullet_marker_rule),
    (count_rules.UNIT_TIMES, count_rules.unit_times_rule),
    (layout_rules.TWO_LISTS, layout_rules.two_lists_rule),
    (layout_rules.NOTHING_BUT, layout_rules.nothing_but_rule),
    (start_end_rules.EMOJI_EDGE, start_end_rules.emoji_edge_rule),  # before emojis are counted
    (layout_rules.OPENS_WITH_LAYOUT, layout_rules.opens_with_layout_rule),
    (layout_rules.CLOSES_WITH_LAYOUT, layout_rules.closes_with_layout_rule),
    (layout_rules.PREFER_LIST, layout_rules.prefer_list_rule),
    (layout_rules.COUNTED_LIST, layout_rules.counted_list_rule),
    (layout_rules.TABLE_HEADER_CASE, layout_rules.table_header_case_rule),
    (layout_rules.TABLE_COLUMNS, layout_rules.table_columns_rule),
    (layout_rules.HEADING_NAMES, layout_rules.heading_names_rule),
    (layout_rules.HEADING_LEVEL, layout_rules.heading_level_rule),
    (layout_rules.TABLE_SIZE, layout_rules.table_size_rule),
    (layout_rules.BARE_COLUMNS, layout_rules.bare_columns_rule),
    (layout_rules.BARE_ROWS, layout_rules.bare_rows_rule),
    (layout_rules.UNNUMBERED, layout_rules.unnumbered_rule),
    (layout_rules.NUMBER_THEM, layout_rules.number_them_rule),
    (layout_rules.LIST_AS, layout_rules.list_as_rule),
    (layout_rules.CODE_BLOCK, layout_rules.code_block_rule),
    (layout_rules.LANGUAGE_TAG, layout_rules.language_tag_rule),
    (count_rules.PARTS, count_rules.parts_rule),
    (count_rules.COUNT_EACH, count_rules.count_each_rule),
    (start_end_rules.POSTSCRIPT, start_end_rules.postscript_rule),
    (start_end_rules.ACROSTIC, start_end_rules.acrostic_rule),
    (HASHTAGS_LAST, start_end_rules.hashtags_last_rule),
    (start_end_rules.PARAGRAPH_START, start_end_rules.paragraph_start_rule),
    (measure_rules.SYSTEM, measure_rules.system_rule),
    (measure_rules.QUANTITY_UNIT, measure_rules.quantity_unit_rule),
    (measure_rules.UNITS_RULED_OUT, measure_rules.units_ruled_out_rule),
    (measure_rules.SPACING, measure_rules.spacing_rule),
    # the whole criterion on how amounts are written first: "prices in € with no decimals"
    (style_rules.MONEY_STYLE, style_rules.money_style_rule),
    (style_rules.MONEY, style_rules.money_rule),
    (style_rules.MONEY_FIRST, style_rules.money_rule),
    (style_rules.PERCENT, style_rules.percent_rule),
    (style_rules.NUMBER_STYLE_WORDS, style_rules.number_style_words_rule),
    (style_rules.NUMBER_STYLE, style_rules.number_style_rule),
    (start_end_rules.NO_END_MARK, start_end_rules.end_mark_rule),
    (presence_rules.NO_MARKDOWN, presence_rules.no_markdown_rule),
    (presence_rules.NO_NESTING, presence_rules.no_nesting_rule),
    # before ZERO: "raw JSON only, no code fences" is bare JSON, not a count of code blocks
    (style_rules.KEY_CASE, style_rules.key_case_rule),  # "JSON keys in snake_case": no JSON rule
    (style_rules.JSON_KEYS, style_rules.json_keys_rule),
    (style_rules.JSON, style_rules.json_rule),
    (style_rules.YAML, style_rules.yaml_rule),
    (presence_rules.ZERO, presence_rules.zero_rule),
    (presence_rules.MARKDOWN_LINKS, presence_rules.markdown_links_rule),
    (count_rules.CAPITAL_TIMES, count_rules.capital_times_rule),
    (style_rules.BOLD_TITLE, style_rules.bold_title_rule),
    (count_rules.HIGHLIGHT, count_rules.highlight_rule),
    (keyword_rules.BOLD_WORDS, keyword_rules.bold_words_rule),
    (layout_rules.LIST_OF, layout_rules.list_of_rule),
    (count_rules.UNIT_LIMIT, count_rules.unit_limit_rule),
    (count_rules.COUNT, count_rules.count_rule),
    (layout_rules.ENTRY_COUNT, layout_rules.entry_count_rule),
    (start_end_rules.SUBJECT_FIRST, start_end_rules.subject_first_rule),
    (start_end_rules.START_PHRASE, start_end_rules.start_phrase_rule),
    (start_end_rules.BOLD_START, start_end_rules.bold_start_rule),
    (start_end_rules.OPENING, start_end_rules.opening_rule),
    (start_end_rules.NAMED_LAST_LINE, start_end_rules.named_last_line_rule),
    (start_end_rules.END_PHRASE, start_end_rules.end_phrase_rule),
    (start_end_rules.SIGN_OFF_PHRASE, start_end_rules.sign_off_phrase_rule),
    (start_end_rules.SIGN_OFF, start_end_rules.sign_off_rule),
    (start_end_rules.END_MARK, start_end_rules.end_mark_rule),
    (keyword_rules.PERSON, keyword_rules.person_rule),
    (keyword_rules.THIRD_PERSON, keyword_rules.third_person_rule),
    (keyword_rules.ONE_OF, keyword_rules.one_of_rule),
    (keyword_rules.TIMES_RULE, keyword_rules.times_rule),
    (keyword_rules.BARE_TIMES, keyword_rules.bare_times_rule),
    (keyword_rules.FORBIDDEN, keyword_rules.forbidden_rule),
    (keyword_rules.PRESENT_WORDS, keyword_rules.present_words_rule),
    (keyword_rules.UNQUOTED_WORDS, keyword_rules.unquoted_words_rule),
    (keyword_rules.NAMED, keyword_rules.named_rule),
    (style_rules.DATE, style_rules.date_rule),
    (style_rules.TIMESTAMP, style_rules.timestamp_rule),
    (style_rules.PHONE_FORMAT, style_rules.phone_format_rule),
    (style_rules.TIME_ZONE, style_rules.time_zone_rule),
    (style_rules.CLOCK, style_rules.clock_rule),
    (style_rules.AM_PM, style_rules.am_pm_rule),
    (style_rules.TITLE_ANGLE, style_rules.angle_rule),
    (style_rules.LABEL_CASE, style_rules.label_case_rule),
    (style_rules.HEADING_CASE, style_rules.heading_case_rule),
    (style_rules.MAJOR_WORDS, style_rules.major_words_rule),
    (style_rules.SQL_CASE, style_rules.sql_case_rule),
    (style_rules.WHOLE_CASE, style_rules.whole_case_rule),
    (style_rules.TITLE, style_rules.title_rule),
    (style_rules.QUOTES_AROUND, style_rules.quotes_rule),
    (style_rules.LANGUAGE, style_rules.language_rule),
    (presence_rules.PRESENT, presence_rules.present_rule),
    (presence_rules.ASKED, presence_rules.asked_rule),
    (layout_rules.ALPHABETICAL, layout_rules.alphabetical_rule),
    (layout_rules.CHRONOLOGICAL, layout_rules.chronological_rule),
    (layout_rules.CHECKBOXES, layout_rules.checkboxes_rule),
    (layout_rules.BLANK_AFTER, layout_rules.blank_after_rule),
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
    description = MARK_AT_THE_END_OF_EACH.sub(r"every \g<unit> ends with a \g<mark>", description)
    parsed = _parse(description)
    if parsed.approximate or parsed.permission:
        return parsed
    # "Steps: 15 words or shorter" is a rule on each step; "steps: at least 4" counts them
    each_piece = parsed.stray_each or (
        names_steps(description) and not _counts_pieces(parsed.check)
    )
    drops_each = each_piece and parsed.check is not None and ignores_each(parsed.check)
    if parsed.check is not None and sets_the_frame_aside(description):
        # "80-120 words, title not included" counts the body; it forbids no title
        body = less_the_frame(description, _parse)
        if body is None:
            return ParsedCriterion(None, parsed.found, ("not counted",))
        return replace(parsed, check=body, leftover=())
    if parsed.check is None or drops_each:
        scoped = (
            in_a_part(description, _parse)
            or in_a_section(description, _parse)
            or for_each(description, _parse)
            or less_the_frame(description, _parse)
            or less_what_is_set_aside(description, _parse)
            or in_a_named_list(description, _parse)
            or in_a_field(description, _parse)
            or for_each_output(description, _parse)
            or for_a_kind_of_text(description, _parse)
        )
        if scoped is not None:
            return replace(parsed, check=scoped, leftover=())
    if drops_each:  # read as the whole text's start or end: not what "every bullet" means
        return ParsedCriterion(None, parsed.found, ("each",))
    if parsed.check is not None:
        inside = inside_blocks(description, parsed.check)
        if inside is None:  # "no emojis in headings": a rule on blocks no check reads apart
            return ParsedCriterion(None, parsed.found, ("in",))
        return replace(parsed, check=said_of_a_named_piece(description, inside))
    return parsed


def _counts_pieces(check: Check | None) -> bool:
    return check is not None and all(
        p.name in ("entry_count", "numbered_count", "bullet_count") for p in parts(check)
    )


def _parse(description: str) -> ParsedCriterion:
    reading = read(description)
    approximate = _APPROXIMATE.search(reading.text)
    if approximate is not None:
        return ParsedCriterion(None, (), (approximate.group(),), approximate=True)
    part = _PART_ONLY.search(reading.text)
    if part is not None:
        return ParsedCriterion(None, (), (part.group(),))
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
            reading.text = mask(reading.text, match.start(), match.end())
            position = match.end()
    rest = _BARE_EXAMPLE.sub(" ", _EXAMPLE.sub(" ", reading.text))
    rest = (
        _PLACEHOLDER_TAIL.sub(" ", rest)
        if any(c.name == "placeholder_count" for c in reading.checks)
        else rest
    )
    leftover = tuple(
        word
        for word in re.findall(r"[a-z0-9][a-z0-9'’-]*", rest)
        if (word not in FILLER and not re.fullmatch(r"q\d+", word)) or is_negation(word)
    )
    # "starts with a capital letter (or a number)": an alternative no rule read
    leftover += tuple(aside.group() for aside in _ALTERNATIVE.finditer(rest))
    # "3 bullets, then a summary": one more thing to write, in words that are filler alone;
    # "under 50 words and a number", "under 100 words with a summary" the same
    leftover += tuple(more.group() for more in _THEN_MORE.finditer(rest))
    leftover += tuple(
        more.group() for more in _ONE_MORE.finditer(rest) if more.group().split()[-1] in FILLER
    )
    quotes_left = re.findall(r"\bq\d+\b", rest)
    found = tuple(reading.checks)
    if not found or leftover or quotes_left:
        return ParsedCriterion(None, found, leftover + tuple(quotes_left))
    text = read(description).text
    # "Emojis are allowed", "you may end with a question": a permission requires nothing, so
    # only a limit ("at most 3 emojis allowed", "no links allowed") is read with one.
    permission = _PERMISSION.search(text)
    if permission is not None and not all(_is_limit(check) for check in found):
        return ParsedCriterion(None, found, (permission.group(),), permission=True)
    each = several_outputs(text, found) or each_one(description, found)
    if each is not None:
        return ParsedCriterion(None, found, (each.group(),))
    # "The code block has at most 20 lines", "exactly one line inside the code block": a count
    # of the code, not of the whole text beside a code block, which no check reads yet.
    counted_code = _COUNTED_IN_CODE.search(text)
    if counted_code is not None and any(c.name in _TEXT_COUNTS for c in found):
        return ParsedCriterion(None, found, (counted_code.group(),))
    # "Aim for 100 words" is a target, not an exact count.
    target = _TARGET.search(text)
    if target is not None and any(_is_exact(check) for check in found):
        return ParsedCriterion(None, found, (target.group(),), approximate=True)
    unique = {check.__name__: check for check in found}
    stray = has_stray_each(rest, text)
    return ParsedCriterion(all_of(*unique.values()), found, stray_each=stray)


_ALTERNATIVE = re.compile(r"\(\s*or\b[^()]*\)")
_THEN_MORE = re.compile(
    r"\b(?:then|followed by|after that|afterwards|plus|and also)\s+(?:with\s+)?(?:a|an|one|some)\s+"
    r"[a-z]+"
)
_ONE_MORE = re.compile(
    r"\b(?:with|and|plus|but|including|also)\s+(?:an?|one|some)\s+(?:[a-z]+\s+)?[a-z][a-z-]*"
)
_COUNTED_IN_CODE = re.compile(
    r"\b(?:in|inside|within|of)\s+(?:the|your|each|every|a)\s+(?:code(?:\s+blocks?|\s+snippets?)?|"
    r"snippets?|fenced\s+blocks?)\b"
    r"|^\W*(?:the\s+|your\s+|each\s+|every\s+)?(?:code(?:\s+blocks?|\s+snippets?)?|snippets?)\s+"
    r"(?:has|have|is|are|should|must|needs?|can|may|will|stays?|keeps?|under|over|below|above|"
    r"at\s+most|at\s+least|max|no\s+more|no\s+longer|fewer|less|shorter|longer)\b"
    r"|^\W*(?:the\s+)?(?:code(?:\s+blocks?|\s+snippets?)?|snippets?)\s*[:=\u2013\u2014-]"
)
_TEXT_COUNTS = frozenset({"line_count", "word_count", "character_count", "sentence_count"})
_PERMISSION = re.compile(
    r"\b(?:may(?!\.? \d)|can|could)\b(?! not\b)"
    # "bare URLs are not allowed" forbids: no permission
    r"|(?<!\bnot )(?<!\bnever )\b(?:allowed|permitted|acceptable|optional|welcome|"
    r"fine|ok|okay)\b|\bfree to\b|\bif (?:needed|necessary|you (?:like|want|wish)|helpful)\b"
)
_TARGET = re.compile(r"\b(?:aim(?:s|ing)?|target(?:s|ing)?|shoot for|ideally|try to|preferably)\b")


def _is_limit(check: Check) -> bool:
    """An upper bound or an absence: what a permission can state ("at most 3 allowed")."""
    for part in parts(check):
        args = dict(part.args)
        if part.negated is not None or not (
            {"at_most", "fewer_than", "less_than"} & set(args) or args.get("exactly") == 0
        ):
            return False
    return True


def _is_exact(check: Check) -> bool:
    return any("exactly" in dict(part.args) for part in parts(check))
