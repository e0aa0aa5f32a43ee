"""Format checks: quotes, valid JSON, a title, heading case, dates, numbers, a postscript."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Unpack

import yaml

from .._exceptions import CheckUndecided, RubricError
from ._check import Bounds, CountBounds, TextTest, count_finding
from ._number_words import NUMBER_VALUES, SCALES, SMALL_NUMBERS, TENS
from ._phrases import choice, listed, required_phrases, shortened
from ._registry import catalogue_check
from ._units import (
    BOLD_LINE,
    CASES,
    MONTH_NAMES,
    MONTHS,
    SMALL_WORDS,
    WORD_LETTERS,
    code_blocks,
    has_word,
    heading_lines,
    heading_text,
    in_case,
    is_title_case,
    title_line,
)

__all__ = [
    "date_format",
    "has_postscript",
    "has_title",
    "heading_case",
    "json_key_count",
    "json_keys",
    "key_case",
    "number_style",
    "time_format",
    "timestamp_format",
    "valid_json",
    "valid_yaml",
    "wrapped_in_quotes",
]

_QUOTE_PAIRS = (('"', '"'), ("“", "”"))
_FENCED = re.compile(r"\A```[^\n`]*\n(.*?)\n?```\Z", re.DOTALL)
_TITLE = re.compile(r"<<([^\n]*?)>>")
_WHOLE_TITLE_WORDS = 20
# A first line this short, with no end mark, may be a headline though no blank line follows it.
_HEADLINE_WORDS = 12
_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}


@catalogue_check
def wrapped_in_quotes() -> TextTest:
    """The whole text is wrapped in double quotes.

    After trimming whitespace, the text starts with `"` and ends with `"` (or starts with `“`
    and ends with `”`), and is at least two characters long.

    Example:
        ```python
        checks.wrapped_in_quotes()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        found = text.strip()
        if len(found) >= 2 and any(found[0] == a and found[-1] == b for a, b in _QUOTE_PAIRS):
            return True, "is wrapped in double quotes"
        if not found:
            return False, "is empty, needs to be wrapped in double quotes"
        return False, (
            f"starts with {found[0]!r} and ends with {found[-1]!r}, "
            "needs to be wrapped in double quotes"
        )

    return test


@catalogue_check
def valid_json(
    allow_fence: bool = True, embedded: bool | None = False, shape: str | None = None
) -> TextTest:
    """The whole text is one valid JSON value (strict JSON: no `NaN`, no trailing text).

    Whitespace around it is ignored. With `allow_fence`, the JSON may sit inside one Markdown
    code fence that is the whole text: a line opening with three backticks (and any language
    tag, such as `json`) and a closing three backticks.

    With `embedded`, the JSON is what the text holds, prose around it allowed: "the JSON must
    be valid" of a config under "Here's the config:". That is the whole text when it is JSON,
    else every code block tagged `json` or opening with `{` or `[`; there must be one, and
    each must parse. With `embedded=None` the words did not say which ("Valid JSON"): a text
    whose JSON parses but has prose around it is left to the judge (`CheckUndecided`).

    Args:
        allow_fence: Accept JSON inside a code fence.
        embedded: Judge the JSON inside the text rather than ask that the text be JSON;
            `None` for either, the judge deciding where they differ.
        shape: `object` or `array`: the JSON must be one ("a JSON array only").

    Example:
        ```python
        checks.valid_json()
        checks.valid_json(shape="array")  # "a valid JSON array, nothing else"
        ```

    """
    wanted = {"object": dict, "array": list, None: None}.get(shape, ...)
    if wanted is ...:
        raise RubricError(
            f"valid_json: `shape` must be 'object' or 'array', got {shape!r}", field="shape"
        )

    def test(text: str) -> tuple[bool, str]:
        value, fenced, problem = _json_of(text, allow_fence)
        if problem is not None and embedded:
            return _embedded_json(text, wanted)
        if problem is not None and embedded is None and _embedded_json(text, wanted)[0]:
            raise CheckUndecided(
                "its JSON code block parses, with prose around it: whether the rule asks for "
                "JSON alone is unsaid"
            )
        if problem is not None:
            return False, problem
        kind = _JSON_TYPES.get(type(value), "a number" if value is not None else "null")
        if wanted is not None and not isinstance(value, wanted):
            return False, f"is valid JSON but {kind}, needs {_JSON_TYPES[wanted]}"
        return True, f"is valid JSON ({kind}{', fenced' if fenced else ''})"

    return test


@catalogue_check
def valid_yaml() -> TextTest:
    """The YAML the text is or holds parses, as a mapping or a list.

    The YAML is every code block tagged `yaml` or `yml` (or untagged), prose around them
    allowed ("Here is the config:"); with no code block, the whole text. Any prose parses as a
    YAML string, so a block or text that parses to a plain value (a string, a number) is no
    YAML document; a text with none leaves "valid YAML" to the judge. For "must be valid YAML",
    "the YAML has to parse".

    Example:
        ```python
        checks.valid_yaml()
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        blocks = [
            _FENCE_LINES.sub("", block).strip("\n")
            for block in code_blocks(text)
            if block.split("\n", 1)[0].strip("`~ \t").casefold() in ("yaml", "yml", "")
        ]
        sources = blocks or [text]
        for number, source in enumerate(sources, start=1):
            where = f"YAML block {number} of {len(sources)}" if blocks else "the text"
            try:
                value = yaml.safe_load(source)
            except yaml.YAMLError as error:
                mark = getattr(error, "problem_mark", None)
                line = f" at line {mark.line + 1}" if mark is not None else ""
                problem = getattr(error, "problem", None) or "does not parse"
                return False, f"{where} is not valid YAML{line}: {problem}"
            if not isinstance(value, (dict, list)):
                if not blocks:
                    raise CheckUndecided("the text is prose, not a YAML mapping or list")
                return False, f"{where} is no YAML mapping or list"
        if not blocks:
            return True, "the text parses as YAML"
        return True, "its YAML block parses" if len(blocks) == 1 else "its YAML blocks parse"

    return test


def _embedded_json(text: str, wanted: type | None = None) -> tuple[bool, str]:
    """Whether every JSON code block of a text that is not JSON itself parses (as `wanted`)."""
    blocks = [
        block
        for block in code_blocks(text)
        if (opener := block.split("\n", 1)[0].strip("`~ \t").casefold()) == "json"
        or (not opener and block.split("\n", 1)[-1].lstrip().startswith(("{", "[")))
    ]
    if not blocks:
        return False, "holds no JSON: neither the whole text nor a JSON code block"
    for number, block in enumerate(blocks, start=1):
        value, _, problem = _json_of(block)
        if problem is not None:
            return False, f"JSON block {number} of {len(blocks)} {problem}"
        if wanted is not None and not isinstance(value, wanted):
            kind = _JSON_TYPES.get(type(value), "a number" if value is not None else "null")
            return (
                False,
                f"JSON block {number} of {len(blocks)} is {kind}, needs {_JSON_TYPES[wanted]}",
            )
    if len(blocks) == 1:
        return True, "its JSON code block parses"
    return True, f"its {len(blocks)} JSON code blocks parse"


def _json_blocks(text: str) -> list[Any]:
    """The JSON values of the text's fenced code blocks that hold valid JSON."""
    values = []
    for block in code_blocks(text):
        value, _, problem = _json_of(block)
        if problem is None:
            values.append(value)
    return values


def _json_of(text: str, allow_fence: bool = True) -> tuple[Any, bool, str | None]:
    """The JSON value the whole text is, whether it was fenced, and what is wrong if it is none."""
    body = text.strip()
    fenced = _FENCED.match(body)
    if fenced:
        if not allow_fence:
            return None, True, "is JSON inside a code fence, needs to be bare JSON"
        body = fenced.group(1).strip()
    if not body:
        return None, bool(fenced), "is empty, needs to be valid JSON"
    try:
        return json.loads(body, parse_constant=_reject_constant), bool(fenced), None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        return None, bool(fenced), f"is not valid JSON: {exc.msg} ({where})"
    except ValueError as exc:
        return None, bool(fenced), f"is not valid JSON: {exc}"


@catalogue_check
def json_key_count(**bounds: Unpack[CountBounds]) -> TextTest:
    """Every top-level object has a number of keys within the bounds.

    The objects are those of `json_keys`: the JSON object the text is (or holds in a code
    block), or each object of a top-level array; YAML in a `yaml` block counts too. Nested
    objects' keys are not counted. A text with no such object leaves the rule to the judge. For
    "the object should have exactly four top-level keys", "each object has exactly two keys".

    Args:
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.json_key_count(exactly=4)
        ```

    """
    limits = Bounds.from_args("json_key_count", bounds)

    def test(text: str) -> tuple[bool, str]:
        objects = [
            item
            for found in _data_of(text)
            for item in (found if isinstance(found, list) else [found])
            if isinstance(item, dict)
        ]
        if not objects:
            raise CheckUndecided("the text holds no JSON or YAML object, so no keys to count")
        for number, item in enumerate(objects, start=1):
            passed, finding = count_finding(len(item), "key", "keys", limits)
            if not passed:
                where = "" if len(objects) == 1 else f"object {number} of {len(objects)} "
                return False, f"{where}{finding}"
        return True, count_finding(len(objects[0]), "key", "keys", limits)[1] + (
            "" if len(objects) == 1 else f", in each of {len(objects)} objects"
        )

    return test


@catalogue_check
def json_keys(keys: Sequence[str], exact: bool = False) -> TextTest:
    """The text is a JSON object, or an array of objects, and each object holds every key.

    The JSON is the whole text as `valid_json` reads it (a code fence around it allowed), else
    every fenced code block of the text that holds valid JSON ("Here is the config:" and a
    ```` ```json ```` block). Keys are compared exactly, letter case included (`createdAt` is
    not `created_at`); only the top-level object's keys count, or those of each object in a
    top-level array. For "the JSON must include the keys title and tags", "each object has only
    the keys question and answer"; `valid_json` asks that the text be nothing but JSON.

    Args:
        keys: The keys every object must have.
        exact: The objects have those keys and no other.

    Example:
        ```python
        checks.json_keys(["title", "servings", "steps"], exact=True)
        ```

    """
    wanted = required_phrases("json_keys", "keys", keys)

    def test(text: str) -> tuple[bool, str]:
        value, _, problem = _json_of(text)
        values = [value] if problem is None else _json_blocks(text)
        if not values:
            return False, f"{problem}, nor holds a code block of JSON"
        objects = [
            item for found in values for item in (found if isinstance(found, list) else [found])
        ]
        if not objects or not all(isinstance(item, dict) for item in objects):
            return False, "holds JSON that is not an object (nor an array of objects)"
        where = "" if len(objects) == 1 else "object {} "
        for number, item in enumerate(objects, start=1):
            missing = [key for key in wanted if key not in item]
            if missing:
                return False, f"{where.format(number)}lacks the key{'s' * (len(missing) > 1)} " + (
                    listed(missing)
                )
            extra = [key for key in item if key not in wanted]
            if exact and extra:
                return False, f"{where.format(number)}has the key {extra[0]!r}, needs only " + (
                    listed(wanted)
                )
        every = "has" if len(objects) == 1 else f"has, in each of {len(objects)} objects,"
        return True, f"{every} the key{'s' * (len(wanted) > 1)} {listed(wanted)}"

    return test


KEY_CASES = {
    "snake": re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*"),
    "camel": re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*"),
    "pascal": re.compile(r"(?:[A-Z][a-z0-9]*)+"),
    "kebab": re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"),
    "upper_snake": re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"),
}
"""The letter cases of an identifier, as `key_case` reads them: `created_at`, `createdAt`,
`CreatedAt`, `created-at`, `CREATED_AT`. A one-word key in lower case is both snake and
camel case."""


@catalogue_check
def key_case(case: str) -> TextTest:
    """Every key of the data the text holds is in the given case, nested keys too.

    The data is the JSON the text is or holds (as `json_keys` finds it), else YAML: the whole
    text or a fenced block tagged `yaml`. Cases are those of `KEY_CASES`: `snake`
    (`created_at`), `camel` (`createdAt`), `pascal` (`CreatedAt`), `kebab` (`created-at`) and
    `upper_snake` (`CREATED_AT`). A text with no such data raises `CheckUndecided`: which keys
    "keys in snake_case" means there is the judge's call.

    Args:
        case: `snake`, `camel`, `pascal`, `kebab` or `upper_snake`.

    Example:
        ```python
        checks.key_case("snake")
        ```

    """
    if case not in KEY_CASES:
        raise RubricError(
            f"key_case: `case` must be one of {', '.join(KEY_CASES)}, got {case!r}", field="case"
        )
    shape = KEY_CASES[case]
    wanted = f"{case.replace('_', ' ')} case"

    def test(text: str) -> tuple[bool, str]:
        keys = [key for value in _data_of(text) for key in _keys(value)]
        if not keys:
            raise CheckUndecided("the text holds no JSON or YAML object, so no keys")
        for key in keys:
            if not shape.fullmatch(key):
                return False, f"has the key {key!r}, not in {wanted}"
        return True, f"has all {len(keys)} keys in {wanted}"

    return test


def _data_of(text: str) -> list[Any]:
    """The JSON the text is or holds, else the YAML it is or holds in a `yaml` block."""
    value, _, problem = _json_of(text)
    if problem is None:
        return [value]
    if found := _json_blocks(text):
        return found
    blocks = [b for b in code_blocks(text) if re.match(r"\s*(```|~~~)\s*ya?ml\b", b, re.I)]
    sources = [_FENCE_LINES.sub("", block) for block in blocks]
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    if not sources and lines and all(_YAML_LINE.match(line) for line in lines):
        sources = [text]  # bare YAML: every line a key, a list item or indented under one
    values = []
    for source in sources:
        try:
            value = yaml.safe_load(source)
        except yaml.YAMLError:
            continue
        if isinstance(value, dict):
            values.append(value)
    return values


_FENCE_LINES = re.compile(r"^\s*(?:```|~~~).*$", re.MULTILINE)
_YAML_LINE = re.compile(r"\s+\S|\s*-\s|[\w\"'.-]+\s*:(?:\s|$)")


def _keys(value: Any) -> list[str]:
    """Every key of the objects in `value`, at every depth, in order."""
    if isinstance(value, dict):
        return [k for key, item in value.items() for k in (str(key), *_keys(item))]
    if isinstance(value, list):
        return [k for item in value for k in _keys(item)]
    return []


@catalogue_check
def has_title(angle_brackets: bool = False, bold: bool = False) -> TextTest:
    """The text has a title: what a reader takes for one, or `<<Title>>` when asked for.

    A title is `<<Title>>` on one line anywhere, or a first line that is a Markdown heading
    (`# Title`), starts with `Title:`, is wholly in bold (`**Title**`), or stands alone: at most
    12 words, no list marker, not ending in `.`, `,`, `;` or `:` (nor in `?` or `!` unless its
    words are capitalized), with a blank line after it and more text below. A text whose first
    line is already its body (an untitled poem) has none.

    Args:
        angle_brackets: Only a title in double angular brackets, `<<Title>>`, counts.
        bold: The title must be wholly in bold (`**Title**`, or a heading `# **Title**`): "a
            bold title", "headline in bold".

    Example:
        ```python
        checks.has_title()
        checks.has_title(angle_brackets=True)  # <<Poem of joy>>
        ```

    """

    def test(text: str) -> tuple[bool, str]:
        if angle_brackets:
            for match in _TITLE.finditer(text):
                if has_word(match.group(1)):
                    return True, f"has the title {match.group()!r}"
            return False, "has no title in double angular brackets, such as <<Title>>"
        found = title_line(text)
        if found is not None and bold:
            if BOLD_LINE.fullmatch(re.sub(r"^\s{0,3}#{1,6}[ \t]+", "", found.strip())):
                return True, f"has the title {shortened(found)!r} in bold"
            return False, f"has the title {shortened(found)!r}, not in bold: write it as **Title**"
        if found is not None:
            return True, f"has the title {shortened(found)!r}"
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if not first:
            return False, "is empty, needs a title"
        # Said as what to do: the gap goes back to the writer in a revision loop.
        return False, (
            f"has no title line: it opens with {shortened(first)!r}; put a short title on its "
            "own first line, then a blank line"
        )

    return test


def _may_be_named(heading: str, headings: list[str], text: str) -> bool:
    """Whether a heading out of sentence case may be in it, its one capitalised word a name.

    Only when the text's other headings show sentence case ("With Homebrew" beside "From
    source") and the word is never written in lower case in the text ("Root Cause" of a report
    that speaks of the root cause is out of it). A word with a capital inside ("GitHub") is a
    name already: "Using GitHub Actions" may be in sentence case.
    """
    words = [w for w in WORD_LETTERS.findall(heading) if not w.isupper() or len(w) == 1]
    later = [w for w in words[1:] if w.casefold() not in SMALL_WORDS]
    # a word with a capital inside ("GitHub", "macOS") is a name whatever else is
    capitals = [w for w in later if w[0].isupper() and not any(c.isupper() for c in w[1:])]
    if not words or not words[0][0].isupper() or len(capitals) != 1:
        return False
    said = rf"(?<![\w./-]){re.escape(capitals[0].casefold())}(?![\w/-])"
    if re.search(said, text):
        return False  # written in lower case as a word of the prose: no name
    return any(
        other != heading
        and in_case(other, "sentence")
        and any(w[0].islower() for w in WORD_LETTERS.findall(other)[1:])
        for other in headings
    )


@catalogue_check
def heading_case(case: str, skip_title: bool = False, required: bool = True) -> TextTest:
    """Every heading, and the title, is in the given letter case.

    The headings are the Markdown heading lines (`## Results`) and the title (as `has_title`
    finds it, without its `#`, `Title:` or `<<>>` marks); a text that is one line of at most 20
    words, not ending in `.`, `,`, `;` or `:`, and nothing else (a headline, a product title)
    is its own title. A text with no
    heading or title fails. `title`:
    every word starts with a capital, short function words (`a`, `of`, `and`, `the`...)
    inside aside; `sentence`: the first word starts with a capital and at most half of the
    other words do (names and acronyms are allowed, a capital on every word is title case);
    `lower` / `upper`: no capital / no lowercase letter. A heading whose one word after the
    first is capitalised ("With Homebrew") may be in sentence case with a name in it: where the
    text's other headings show sentence case, the judge decides (`CheckUndecided`); so it does
    for a text with no heading or title whose short first line may be a headline.

    With `skip_title`, only the section headings count ("section headers in all caps",
    "subheadings in sentence case"): not the title, nor a heading on the first line above
    others; a text with no other Markdown heading is left to the judge, whose section headings
    may be bold lines.

    Without `required`, a text with no heading or title is left to the judge: "sentence case,
    not Title Case" names no piece, and may be about a reply's lines or labels instead.

    Args:
        case: `title`, `sentence`, `lower` or `upper`.
        skip_title: Leave the title out: the rule is on the section headings.
        required: Whether a text with no heading or title fails (else the judge decides).

    Example:
        ```python
        checks.heading_case("title")
        checks.heading_case("upper", skip_title=True)  # "section headers in ALL CAPS"
        ```

    """
    wanted = case.strip().casefold().removesuffix(" case")
    if wanted not in CASES:
        raise RubricError(
            f"heading_case: `case` must be one of {', '.join(CASES)}, got {case!r}", field="case"
        )
    if not isinstance(skip_title, bool):
        raise RubricError(
            f"heading_case: `skip_title` must be true or false, got {skip_title!r}",
            field="skip_title",
        )

    def test(text: str) -> tuple[bool, str]:
        if skip_title:
            return _section_headings_case(text, wanted)
        found = [heading_text(line) for line in heading_lines(text)]
        title = title_line(text) or _whole_title(text)
        if title is not None:
            bare = heading_text(title)
            if bare not in found:
                found.insert(0, bare)
        if not found:
            first = next((line.strip() for line in text.splitlines() if line.strip()), "")
            headline = has_word(first) and not re.match(r"(?:[-*+\u2022]|\d+[.)])\s", first)
            if headline and len(first.split()) <= _HEADLINE_WORDS and first[-1] not in ".,;:!?":
                # "WINTER COAT SALE" over a promo's lines, no blank line under it
                raise CheckUndecided(f"the first line {shortened(first)!r} may be a headline")
            if not required:
                raise CheckUndecided(f"has no heading or title for {wanted} case to apply to")
            return False, f"has no heading or title, needs headings in {wanted} case"
        return _case_verdict(found, wanted, text, "heading")

    return test


def _section_headings_case(text: str, wanted: str) -> tuple[bool, str]:
    """`heading_case` on the section headings alone: the Markdown headings below the title."""
    lines = heading_lines(text)
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if lines and lines[0] == first:
        lines = lines[1:]  # the title, as a heading on the first line
    if not lines:
        raise CheckUndecided("the text has no Markdown section heading: its sections may be bold")
    return _case_verdict([heading_text(line) for line in lines], wanted, text, "section heading")


def _case_verdict(found: list[str], wanted: str, text: str, what: str) -> tuple[bool, str]:
    """Whether every heading found is in the wanted case; one holding a name may be undecided."""
    wrong = [heading for heading in found if not in_case(heading, wanted)]
    if wrong and wanted == "sentence" and all(_may_be_named(h, found, text) for h in wrong):
        raise CheckUndecided(
            f"the {what} {shortened(wrong[0])!r} capitalises one word after its first, "
            f"which may be a name, while its other {what}s are in sentence case"
        )
    if wrong:
        return False, f"has the {what} {shortened(wrong[0])!r}, not in {wanted} case"
    if len(found) == 1:
        return True, f"has its {what} in {wanted} case"
    return True, f"has every {len(found)} {what}s in {wanted} case"


def _whole_title(text: str) -> str | None:
    """A text that is one short line and nothing else (a headline, a tagline) is a title.

    Not when it ends in `.`, `,`, `;` or `:`, unless its words are capitalized: "The Last Cup
    You'll Ever Buy." is a tagline, "The cat sat on the mat." a sentence (as `title_line`
    reads a line ending in `?` or `!`).
    """
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    closing = lines[0][-1] if len(lines) == 1 else ""
    if (
        len(lines) == 1
        and has_word(lines[0])
        and len(lines[0].split()) <= _WHOLE_TITLE_WORDS
        and (closing not in ".,;:" or (closing == "." and is_title_case(lines[0])))
    ):
        return lines[0]
    return None


# A date written with digits (2024-03-05, 05/03/2024, 5.3.24) or with a month's name, with or
# without its year ("March 20" is a date a reader sees; a capital letter keeps "may 5" out).
# The same names with a capital first letter, matched case-sensitively. A year has two digits
# or four, first or last: "2.4.0" and "1.10.3" are versions.
_CAPITAL_MONTH = "(?-i:" + re.sub(r"(^|\|)([a-z])", lambda m: m[1] + m[2].upper(), MONTHS) + ")"
_ANY_DATE = re.compile(
    rf"(?<![\w/.-])(?:\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{1,2}}[-/.]\d{{1,2}}[-/.](?:\d{{4}}|\d{{2}})"
    rf"|(?:{MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?:{MONTHS})\.?,? \d{{4}}"
    rf"|{_CAPITAL_MONTH}\.? \d{{1,2}}(?:st|nd|rd|th)?(?!\d)"
    rf"|\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_CAPITAL_MONTH}\b\.?)(?![\w/-]|\.\d|:\d)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(rf"((?i:{MONTH_NAMES}))\.$")
_DATE_TOKENS = {
    "YYYY": r"\d{4}",
    "YY": r"\d{2}",
    "MM": r"(?:0[1-9]|1[0-2])",
    "DD": r"(?:0[1-9]|[12]\d|3[01])",
    "M": r"(?:[1-9]|1[0-2])",
    "D": r"(?:[1-9]|[12]\d|3[01])",
    "MONTH": rf"(?i:{MONTH_NAMES})",
    "MON": rf"(?i:{MONTHS})\.?",
}
_DATE_PIECES = re.compile(r"MONTH|MON|YYYY|YY|MM|DD|M|D|, |[-/. ]")


@catalogue_check
def date_format(format: str, which: str | None = None) -> TextTest:
    """Every date in the text is written in the given format, and there is at least one.

    The format spells a date with `YYYY` (or `YY`), `MM` (or `M`), `DD` (or `D`), `MONTH` (the
    month's name) or `MON` (its short name) and the separators between them, as in
    `YYYY-MM-DD`, `DD/MM/YYYY` or `MONTH D, YYYY`. A date is any run of three numbers joined by
    `-`, `/` or `.`, or a date with a month's name, with or without the year (`March 5, 2024`,
    `5 March 2024`, `March 20`); each must match the format whole, months and days in range.
    A format without a year (`D MONTH`) sets the order of day and month: a year after it is
    allowed (`22 July 2025`).

    With `which` ("release", "normalised"), the rule is on the dates of a kind the check cannot
    pick out: it passes when every date is in the format and fails when none is; a mix is left
    to the judge (`CheckUndecided`), since the dates out of format may be of another kind.

    Args:
        format: The date format, such as `YYYY-MM-DD` or `MONTH D, YYYY`.
        which: The kind of dates the rule names, when it names one.

    Example:
        ```python
        checks.date_format("YYYY-MM-DD")
        ```

    """
    spec = format.strip().upper()
    pieces = _DATE_PIECES.findall(spec)
    if (
        "".join(pieces) != spec
        or not {"M", "MM", "MONTH", "MON"} & set(pieces)
        or not {"D", "DD"} & set(pieces)
    ):
        raise RubricError(
            "date_format: `format` spells a date with YYYY, MM (or MONTH), DD and separators, "
            f"such as 'YYYY-MM-DD' or 'MONTH D, YYYY', got {format!r}",
            field="format",
        )
    said = "".join(_DATE_TOKENS.get(p, re.escape(p)) for p in pieces)
    if not {"YYYY", "YY"} & set(pieces):
        said += r"(?:,? \d{4})?"  # "like 22 July" sets the order, not that no year is given
    pattern = re.compile(said)

    def test(text: str) -> tuple[bool, str]:
        # "on 3 October." ends a sentence: its period is no abbreviation's
        dates = [_SENTENCE_END.sub(r"\1", m.group()) for m in _ANY_DATE.finditer(text)]
        if not dates:
            return False, f"has no date, needs dates written as {spec}"
        wrong = [date for date in dates if not pattern.fullmatch(date)]
        if wrong and which and len(wrong) < len(dates):
            raise CheckUndecided(
                f"has dates in {spec} and others, such as {wrong[0]!r}: which are the {which} "
                "dates is not for a check to say"
            )
        if wrong:
            return False, f"has the date {wrong[0]!r}, needs {spec}"
        noun = "date" if len(dates) == 1 else "dates"
        return True, f"has {len(dates)} {noun}, all written as {spec}"

    return test


_NUMBER_WORD = re.compile(
    rf"\b(?:(?:{'|'.join(TENS)})(?:[- ](?:{'|'.join(SMALL_NUMBERS[1:10])}))?"
    rf"|{'|'.join(SMALL_NUMBERS)}|{'|'.join(SCALES)})\b",
    re.IGNORECASE,
)
# "one" as a pronoun or in an idiom is no number: "one of", "no one", "this one", "one another".
_NOT_A_NUMBER_ONE = re.compile(
    r"(?:\b(?:no|the|this|that|each|every|any|which|only|a|little)\s+)$", re.IGNORECASE
)
_ONE_FOLLOWED = re.compile(r"^(?:\s*(?:of\b|another\b|by one\b|['’]s\b)|-[a-z])", re.IGNORECASE)
_DIGITS = re.compile(r"(?<![\w.,:/-])\d+(?:[.,:/]\d+)*")
_LIST_MARKER = re.compile(r"^\s*\d{1,9}[.)](?=\s)", re.MULTILINE)
_STYLES = ("digits", "words")


@catalogue_check
def number_style(style: str, below: int | None = None, ordinals: bool = False) -> TextTest:
    """Numbers are written in digits (`12`) or spelled out in words (`twelve`), as asked.

    `digits`: no number is written in words (`zero`, `two` to `nineteen`, the tens and their
    compounds, `hundred`, `thousand`...; `one` only as a number, not in `one of`, `no one`,
    `this one` or `one-off`). `words`: no number is written in digits (a list item's `1.` is
    no number). With `below`, only numbers under it are concerned ("spell out numbers under ten":
    `style: words, below: 10`; `4.5`, `9:30` and `2024` are not numbers under ten). With
    `ordinals`, `digits` also wants ordinals in digits (`3rd`, not `third`; "first" in "first,
    preheat the oven" is a number then too, so it is off by default).

    Args:
        style: `digits` or `words`.
        below: Concern only whole numbers under this value.
        ordinals: With `digits`, ordinal words (`first` to `twentieth`...) are numbers in words.

    Example:
        ```python
        checks.number_style("digits")  # "use numerals for every number"
        checks.number_style("words", below=10)  # "spell out numbers under ten"
        ```

    """
    wanted = choice("number_style", "style", style, _STYLES)
    if below is not None and (not isinstance(below, int) or below < 1):
        raise RubricError(
            f"number_style: `below` must be a whole number of 1 or more, got {below!r}",
            field="below",
        )

    def in_words(text: str) -> list[str]:
        found = []
        if ordinals:
            for match in _ORDINAL_WORD.finditer(text):
                value = _ORDINAL_VALUES[match.group().casefold()]
                if below is None or value < below:
                    found.append(match.group())
        return found + _in_words(text, below)

    def in_digits(text: str) -> list[str]:
        return [
            number
            for number in _in_digits(text)
            if below is None or (number.isdigit() and int(number) < below)
        ]

    concern = f" under {below}" if below is not None else ""

    def test(text: str) -> tuple[bool, str]:
        if wanted == "digits":
            wrong = in_words(text)
            if wrong:
                return False, f"has the number {wrong[0]!r} in words, needs digits{concern}"
            return True, f"has no number{concern} written in words"
        wrong = in_digits(text)
        if wrong:
            return False, f"has the number {wrong[0]!r} in digits, needs words{concern}"
        return True, f"has no number{concern} written in digits"

    return test


def _in_words(text: str, below: int | None = None) -> list[str]:
    """The numbers `text` writes in words (under `below`), "one" as a pronoun aside."""
    found = []
    for match in _NUMBER_WORD.finditer(text):
        word = match.group().casefold()
        if word == "one" and (
            _NOT_A_NUMBER_ONE.search(text[: match.start()])
            or _ONE_FOLLOWED.match(text[match.end() :])
        ):
            continue
        if below is not None and _word_value(word) >= below:
            continue
        if word in SCALES and re.search(r"\d\s*$", text[: match.start()]):
            continue  # "4.8 million" is a number in digits with its scale
        found.append(match.group())
    return found


def _in_digits(text: str) -> list[str]:
    """The numbers `text` writes in digits, a list item's `1.` aside."""
    return [match.group() for match in _DIGITS.finditer(_LIST_MARKER.sub(" ", text))]


@catalogue_check
def number_count(in_digits: bool = False, **bounds: Unpack[CountBounds]) -> TextTest:
    """The number of numbers the text holds is within the bounds ("every bullet has a number").

    A number is written in digits (`40`, `$1,250`, `2.5%`, `2026`; a list item's `1.` is none,
    nor a digit inside a word such as `H2O`). Numbers in words (`forty`) count too unless
    `in_digits`; where counting them or not changes the verdict ("quantify each bullet" of a
    bullet that says "five stores"), the criterion may mean either, and the judge decides
    (`CheckUndecided`).

    Args:
        in_digits: Count numbers in digits only ("a figure written in digits").
        **bounds: The relation (`at_least`, `at_most`, `exactly`, `fewer_than`, `less_than`,
            `more_than`); see `CountBounds`.

    Example:
        ```python
        checks.each("item", checks.number_count(at_least=1))  # "a number in every bullet"
        ```

    """
    limits = Bounds.from_args("number_count", bounds)
    if not isinstance(in_digits, bool):
        raise RubricError(
            f"number_count: `in_digits` must be true or false, got {in_digits!r}",
            field="in_digits",
        )

    def test(text: str) -> tuple[bool, str]:
        digits = _in_digits(text)
        if not in_digits:
            words = _in_words(text)
            if words and (len(digits) in limits) != (len(digits) + len(words) in limits):
                raise CheckUndecided(
                    f"has {len(digits)} numbers in digits and {words[0]!r} in words: whether "
                    "a number in words counts is not for a check to say"
                )
        return count_finding(len(digits), "number", "numbers", limits)

    return test


_ORDINAL_VALUES = {
    word: value
    for value, word in enumerate(
        (
            *("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"),
            *("ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth"),
            *("sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"),
        ),
        start=1,
    )
}
_ORDINAL_WORD = re.compile(rf"\b(?:{'|'.join(_ORDINAL_VALUES)})\b", re.IGNORECASE)


def _word_value(word: str) -> int:
    """`seven` 7, `twenty-five` 25, `million` 1,000,000: one word as `_NUMBER_WORD` finds it."""
    return sum(NUMBER_VALUES[part] for part in re.split(r"[- ]", word))


# A time of day: 14:30, 9.15 am, 7pm, 10 a.m.; a dotted number (4.50, 1.25 kg) only with am/pm.
_TIME = re.compile(
    r"(?<![\w:.$€£])(?P<hour>\d{1,2})(?:(?P<sep>[:.])(?P<minute>[0-5]\d))?(?::[0-5]\d)?"
    r"(?:\s*(?P<half>[ap]\.?\s?m\b\.?))?(?![\w:]|\.\d)",
    re.IGNORECASE,
)
_CLOCKS = (12, 24)


@catalogue_check
def time_format(
    clock: int | None = None, two_digit_hours: bool = False, zone: str | None = None
) -> TextTest:
    """Every time of day in the text is written as asked, and there is at least one.

    A time is `HH:MM`, with or without `am`/`pm`, or an hour (or `HH.MM`) with `am`/`pm`
    (`7pm`, `10 a.m.`, `9.15 am`); `4.50` alone is a number, not a time. On the 24-hour clock
    no time has `am`/`pm` and hours run 0-23; on the 12-hour clock every time has `am`/`pm`
    and hours run 1-12.

    Args:
        clock: `24` or `12`; either clock when left out.
        two_digit_hours: Every hour is written with two digits (`09:00`, not `9:00`): "in
            HH:MM format".
        zone: Every time is followed by a time zone: `any` ("every time includes a time
            zone": `UTC`, `GMT+1`, `ET`, `CEST`...) or that one (`UTC`). In a range ("9:00-10:30
            UTC") the zone after the second time serves both.

    Example:
        ```python
        checks.time_format(24)  # "use the 24-hour clock"
        checks.time_format(zone="UTC")  # "every time stated should say UTC"
        ```

    """
    if clock is not None and (clock not in _CLOCKS or isinstance(clock, bool)):
        raise RubricError(f"time_format: `clock` must be 24 or 12, got {clock!r}", field="clock")
    if clock is None and zone is None and not two_digit_hours:
        raise RubricError("time_format: say `clock`, `zone` or `two_digit_hours`", field="clock")
    wanted_zone = None if zone in (None, "any") else zone.strip().upper()
    if wanted_zone is not None and not _ZONE.fullmatch(wanted_zone):
        raise RubricError(
            f"time_format: `zone` must be 'any' or a time zone such as 'UTC', got {zone!r}",
            field="zone",
        )
    asked = f"the {clock}-hour clock" if clock else "times"
    if zone:
        asked += f" with {'a time zone' if wanted_zone is None else wanted_zone}"

    def test(text: str) -> tuple[bool, str]:
        times = [
            m
            for m in _TIME.finditer(text)
            if m.group("half") or (m.group("minute") and m.group("sep") == ":")
        ]
        if not times:
            return False, f"has no time of day, needs {asked}"
        for number, time in enumerate(times):
            hour, half, shown = int(time.group("hour")), time.group("half"), time.group().strip()
            if clock == 24 and (half or hour > 23):
                return False, f"has the time {shown!r}, needs the 24-hour clock"
            if clock == 12 and (not half or not 1 <= hour <= 12):
                return False, f"has the time {shown!r}, needs the 12-hour clock"
            if two_digit_hours and len(time.group("hour")) != 2:
                return False, f"has the time {shown!r}, needs a two-digit hour"
            if zone:
                after = text[time.end() :]
                following = times[number + 1] if number + 1 < len(times) else None
                if following is not None and _RANGE_TO.match(text[time.end() : following.start()]):
                    continue  # "9:00-10:30 UTC": the range's zone comes after its end
                found = _ZONE_AFTER.match(after)
                if found is None:
                    return False, f"has the time {shown!r} with no time zone, needs {asked}"
                if wanted_zone and not found.group("zone").upper().startswith(wanted_zone):
                    return False, f"has the time {shown!r} in {found.group('zone')}, needs {asked}"
        noun = "time" if len(times) == 1 else "times"
        return True, f"has {len(times)} {noun}, all as {asked}"

    return test


_ZONE = re.compile(
    r"(?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?|Z|[ECMP][SD]?T|(?:CE|EE|WE|AE|NZ)S?T|BST|IST|JST"
    r"|KST|HKT|SGT|AEDT|NZDT|CEST|EEST|WEST"
)
_ZONE_AFTER = re.compile(rf"\s*\(?\s*(?P<zone>{_ZONE.pattern})\b")
_RANGE_TO = re.compile(r"\s*(?:-|\u2013|\u2014|to|until|till)\s*$", re.IGNORECASE)


_TIMESTAMP_FORMATS = {
    "mm:ss": r"\d{2}:\d{2}",
    "m:ss": r"\d{1,2}:\d{2}",
    "hh:mm:ss": r"\d{2}:\d{2}:\d{2}",
    "h:mm:ss": r"\d{1,2}:\d{2}:\d{2}",
}
# A timestamp or duration: "02:15", "1:02:30", "[00:12:04]"; not a time of day ("9:30 am").
_TIMESTAMP = re.compile(r"(?<![\d:.])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])(?!\s*[ap]\.?m\b)", re.I)


@catalogue_check
def timestamp_format(format: str) -> TextTest:
    """Every timestamp in the text is written in the format, and there is at least one.

    A timestamp is minutes and seconds, or hours, minutes and seconds, joined by colons
    ("02:15", "1:02:30"), as in video chapters or a transcript; a time of day with am/pm is
    not one. `MM:SS` wants two-digit minutes and no hours, so "1:02:30" and "2:15" break it;
    `M:SS` allows one-digit minutes; `HH:MM:SS` and `H:MM:SS` want the hours.

    Args:
        format: `MM:SS`, `M:SS`, `HH:MM:SS` or `H:MM:SS`.

    Example:
        ```python
        checks.timestamp_format("MM:SS")  # "chapter timestamps in MM:SS"
        ```

    """
    key = choice("timestamp_format", "format", format, tuple(_TIMESTAMP_FORMATS))
    pattern, wanted = re.compile(_TIMESTAMP_FORMATS[key]), key.upper()

    def test(text: str) -> tuple[bool, str]:
        found = _TIMESTAMP.findall(text)
        if not found:
            return False, f"has no timestamp, needs timestamps in {wanted}"
        for stamp in found:
            if not pattern.fullmatch(stamp):
                return False, f"has the timestamp {stamp!r}, needs {wanted}"
        noun = "timestamp" if len(found) == 1 else "timestamps"
        return True, f"has {len(found)} {noun}, all in {wanted}"

    return test


@catalogue_check
def has_postscript(marker: str = "P.S.") -> TextTest:
    """The text has a postscript: a line starting with the marker, such as `P.S.` or `P.P.S.`.

    The marker's letters match in any case, a space may follow each of its periods (`P. S.`),
    and its final period may be left out; the line may open with whitespace, `>`, `*` or `_`.
    `P.S.` is not found in `P.P.S.`.

    Args:
        marker: The postscript marker: letters, each but the last followed by a period.

    Example:
        ```python
        checks.has_postscript("P.P.S.")
        ```

    """
    marker = marker.strip()
    letters = marker.replace(".", "").replace(" ", "")
    if not letters or not re.fullmatch(r"(?:[A-Za-z]\.\s?)+|(?:[A-Za-z]\.\s?)*[A-Za-z]", marker):
        raise RubricError(
            f"has_postscript: `marker` must be letters separated by periods, such as 'P.S.', "
            f"got {marker!r}",
            field="marker",
        )
    body = r"\.[ \t]?".join(re.escape(letter) for letter in letters)
    pattern = re.compile(rf"^[ \t>*_]*{body}\.?(?![A-Za-z])", re.IGNORECASE | re.MULTILINE)
    shown = ".".join(letters.upper()) + "."

    def test(text: str) -> tuple[bool, str]:
        match = pattern.search(text)
        if match is None:
            return False, f"has no postscript starting with {shown}"
        line_end = text.find("\n", match.start())
        line = text[match.start() : line_end if line_end >= 0 else len(text)].strip()
        snippet = line if len(line) <= 40 else f"{line[:40]}…"
        return True, f"has a postscript: {snippet!r}"

    return test


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in JSON")
