"""Exact answers for format criteria: a catalogue of deterministic checks, no model involved.

A small judge model cannot count words or spot a comma reliably; these checks can. Each factory
returns a `Check`, usable directly as a `Criterion.check`: it passes or fails and reports what it
found (`has 312 words, needs at most 300`). Rubrics name them too, in a structured rubric
(`check: {name: word_count, at_most: 300}`) or at the end of a checklist line
(`- At most 300 words {check: word_count, at_most: 300}`). `docs/checks.md` lists every check,
its arguments and the counting rules.

Example:
    ```python
    from rubricate import Criterion, checks

    Criterion(description="At most 300 words", check=checks.word_count(at_most=300))
    checks.create("no_commas")("Hello, world")  # (False, "has 1 comma, first in 'Hello,'")
    ```

"""

from ._characters import all_capitals, all_lowercase, no_commas
from ._check import Check, CountBounds, all_of, any_of, each, negate, within
from ._code import sql_keywords
from ._counting import (
    character_count,
    paragraph_count,
    part_count,
    sentence_count,
    word_count,
)
from ._format import (
    date_format,
    has_postscript,
    has_title,
    heading_case,
    json_key_count,
    json_keys,
    key_case,
    number_count,
    number_style,
    time_format,
    timestamp_format,
    valid_json,
    valid_yaml,
    wrapped_in_quotes,
)
from ._inline import (
    capital_word_count,
    contraction_count,
    email_count,
    emoji_count,
    hashtag_count,
    highlight_count,
    keyword_count,
    letter_count,
    mark_count,
    mention_count,
    phone_count,
    phone_format,
    placeholder_count,
    pronoun_count,
    punctuation_count,
    quote_count,
    url_count,
)
from ._keywords import bold_keywords, keywords_forbidden, keywords_present, one_of
from ._language import language
from ._layout import (
    alphabetical,
    blank_line_after,
    bullet_count,
    bullet_marker,
    chronological,
    code_block_count,
    code_tagged,
    divider_count,
    entry_count,
    heading_count,
    heading_level,
    heading_names,
    label_case,
    line_count,
    markdown_count,
    nested_item_count,
    nothing_but,
    numbered_count,
    question_count,
    section_count,
    table_count,
    table_header,
    table_size,
)
from ._measures import measurement_units
from ._money import money_format, percent_sign
from ._registry import CATALOGUE, create, from_spec
from ._start_end import (
    acrostic,
    closes_with,
    ends_with,
    ends_with_punctuation,
    has_sign_off,
    hashtags_at_end,
    opens_with,
    paragraph_starts_with,
    starts_with,
)
from ._tools import as_tools, graded_output

__all__ = [
    "CATALOGUE",
    "Check",
    "CountBounds",
    "acrostic",
    "all_capitals",
    "all_lowercase",
    "all_of",
    "alphabetical",
    "any_of",
    "as_tools",
    "blank_line_after",
    "bold_keywords",
    "bullet_count",
    "bullet_marker",
    "capital_word_count",
    "character_count",
    "chronological",
    "closes_with",
    "code_block_count",
    "code_tagged",
    "contraction_count",
    "create",
    "date_format",
    "divider_count",
    "each",
    "email_count",
    "emoji_count",
    "ends_with",
    "ends_with_punctuation",
    "entry_count",
    "from_spec",
    "graded_output",
    "has_postscript",
    "has_sign_off",
    "has_title",
    "hashtag_count",
    "hashtags_at_end",
    "heading_case",
    "heading_count",
    "heading_level",
    "heading_names",
    "highlight_count",
    "json_key_count",
    "json_keys",
    "key_case",
    "keyword_count",
    "keywords_forbidden",
    "keywords_present",
    "label_case",
    "language",
    "letter_count",
    "line_count",
    "mark_count",
    "markdown_count",
    "measurement_units",
    "mention_count",
    "money_format",
    "negate",
    "nested_item_count",
    "no_commas",
    "nothing_but",
    "number_count",
    "number_style",
    "numbered_count",
    "one_of",
    "opens_with",
    "paragraph_count",
    "paragraph_starts_with",
    "part_count",
    "percent_sign",
    "phone_count",
    "phone_format",
    "placeholder_count",
    "pronoun_count",
    "punctuation_count",
    "question_count",
    "quote_count",
    "section_count",
    "sentence_count",
    "sql_keywords",
    "starts_with",
    "table_count",
    "table_header",
    "table_size",
    "time_format",
    "timestamp_format",
    "url_count",
    "valid_json",
    "valid_yaml",
    "within",
    "word_count",
    "wrapped_in_quotes",
]
