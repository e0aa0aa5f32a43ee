"""`Check`, the callable every catalogue factory returns, and the bounds of counting checks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from .._exceptions import CheckUndecided, RubricError
from .._types import Evidence
from ._phrases import shortened
from ._units import (
    FIELD_PART,
    LIST_PART,
    PARTS,
    SECTION_PART,
    TEXT_PART,
    UNITS,
    field_values,
    list_count,
    long_title_line,
    part_text,
    unit_pieces,
)

__all__ = [
    "Bounds",
    "Check",
    "CountBounds",
    "TextTest",
    "all_of",
    "any_of",
    "each",
    "negate",
    "within",
]


TextTest = Callable[[str], tuple[bool, str]]
"""Decides a check on the output text: pass/fail, and what was found."""


@dataclass(frozen=True)
class Check:
    """A catalogue check, ready to use as a `Criterion.check`.

    Calling it with the `Evidence` (or a plain string) tests the output and returns
    `(passed, finding)`, where the finding says what was found, as in
    `has 312 words, needs at most 300`; a failed criterion reports it as its gap. Build one
    with a factory such as `checks.word_count(at_most=300)` or by name with `checks.create`.

    Example:
        ```python
        from rubricate import Criterion, checks

        short = Criterion(description="At most 300 words", check=checks.word_count(at_most=300))
        checks.word_count(at_most=3)("one two three four")
        # (False, 'has 4 words, needs at most 3')
        ```

    """

    name: str
    """The catalogue name, as written in a rubric (`word_count`)."""
    args: tuple[tuple[str, Any], ...]
    """The arguments that differ from their defaults, in signature order (lists as tuples)."""
    test: TextTest = field(repr=False, compare=False)
    """The function deciding the check on the output text."""
    parts: tuple[Check, ...] = ()
    """For `all_of`: the checks that must all pass (then `name` is `all_of` and `args` empty)."""
    negated: Check | None = None
    """For `negate`: the check that must fail (then `name` is `not` and `args` empty)."""
    options: tuple[Check, ...] = ()
    """For `any_of`: the checks of which one must pass (then `name` is `any_of`, `args` empty)."""
    scoped: Check | None = None
    """For `within` and `each`: the check applied to one part, or to every unit (then `name` is
    `within` or `each`, and `args` the part or the unit)."""

    def __call__(self, evidence: Evidence | str) -> tuple[bool, str]:
        """Test the output of `evidence` (or a string): `(passed, what was found)`."""
        text = evidence if isinstance(evidence, str) else evidence.output
        return self.test(text)

    @property
    def __name__(self) -> str:
        """The check in call form, `word_count(at_most=300)`: how reports and gaps name it.

        A combined check reads `language(code='de') and all_capitals()`.
        """
        if self.parts:
            return " and ".join(part.__name__ for part in self.parts)
        if self.options:
            return " or ".join(
                f"({option.__name__})" if option.parts else option.__name__
                for option in self.options
            )
        if self.negated is not None:
            return f"not {self.negated.__name__}"
        if self.scoped is not None and self.name == "each":
            return f"{self.scoped.__name__} in every {_unit_words(self.unit)}"
        if self.scoped is not None:
            return f"{self.scoped.__name__} in the {_part_words(self.part)}"
        listed = ", ".join(f"{key}={_python_value(value)!r}" for key, value in self.args)
        return f"{self.name}({listed})"

    def __repr__(self) -> str:
        if self.parts:
            return f"checks.all_of({', '.join(map(repr, self.parts))})"
        if self.options:
            return f"checks.any_of({', '.join(map(repr, self.options))})"
        if self.negated is not None:
            return f"checks.negate({self.negated!r})"
        if self.scoped is not None:
            where = self.unit if self.name == "each" else self.part
            return f"checks.{self.name}({where!r}, {self.scoped!r})"
        return f"checks.{self.__name__}"

    @property
    def part(self) -> str:
        """For `within`: the part of the text the check applies to (`title`, ...); else ''."""
        return str(dict(self.args).get("part", "")) if self.scoped is not None else ""

    @property
    def unit(self) -> str:
        """For `each`: the unit every one of which must pass (`item`, ...); else ''."""
        return str(dict(self.args).get("unit", "")) if self.scoped is not None else ""

    def to_spec(self) -> dict[str, Any] | list[dict[str, Any]]:
        """The structured-rubric form, `{"name": "word_count", "at_most": 300}`.

        A combined check is the list of its parts' forms, as a rubric writes it; a negated one
        is `{"not": <the form of the check that must fail>}`; `any_of` is `{"any_of": [...]}`.
        """
        if self.parts:
            return [cast(dict[str, Any], part.to_spec()) for part in self.parts]
        if self.options:
            return {"any_of": [option.to_spec() for option in self.options]}
        if self.negated is not None:
            return {"not": self.negated.to_spec()}
        if self.scoped is not None and self.name == "each":
            return {"each": self.unit, "check": self.scoped.to_spec()}
        if self.scoped is not None:
            return {"within": self.part, "check": self.scoped.to_spec()}
        return {"name": self.name, **{key: _python_value(value) for key, value in self.args}}


def all_of(*checks: Check) -> Check:
    """A check that passes when every one of `checks` passes.

    For one criterion that states several format rules ("in German, all in capitals"). Its
    finding joins the findings of the parts that failed, or of all of them when every part
    passed. Combined checks nest flat: `all_of(all_of(a, b), c)` is `all_of(a, b, c)`, and a
    rule said twice is one part.

    Example:
        ```python
        checks.all_of(checks.language("de"), checks.all_capitals())
        ```

    """
    for check in checks:
        if not isinstance(check, Check):
            raise RubricError(
                f"all_of combines catalogue checks, got {type(check).__name__}", field=None
            )
    parts = tuple(dict.fromkeys(p for check in checks for p in (check.parts or (check,))))
    if not parts:
        raise RubricError("all_of needs at least one check", field=None)
    if len(parts) == 1:
        return parts[0]

    def test(text: str) -> tuple[bool, str]:
        results = [part.test(text) for part in parts]
        failed = [finding for passed, finding in results if not passed]
        return not failed, "; ".join(failed or [finding for _, finding in results])

    return Check("all_of", (), test, parts)


def any_of(*checks: Check) -> Check:
    """A check that passes when at least one of `checks` passes.

    For a criterion that accepts alternatives ("start with 'Yes' or 'No'", "end with '!' or
    '?'"). Its finding is that of the first option that passed, or, when none did, the
    findings of all of them. Alternatives nest flat: `any_of(any_of(a, b), c)` is
    `any_of(a, b, c)`. In a rubric it is `{any_of: [<check>, <check>]}`.

    Example:
        ```python
        checks.any_of(checks.starts_with("Yes"), checks.starts_with("No"))
        ```

    """
    for check in checks:
        if not isinstance(check, Check):
            raise RubricError(f"any_of takes catalogue checks, got {type(check).__name__}")
    options = tuple(o for check in checks for o in (check.options or (check,)))
    if not options:
        raise RubricError("any_of needs at least one check")
    if len(options) == 1:
        return options[0]

    def test(text: str) -> tuple[bool, str]:
        results = [option.test(text) for option in options]
        passed = next((finding for ok, finding in results if ok), None)
        if passed is not None:
            return True, passed
        return False, "; and ".join(finding for _, finding in results)

    return Check("any_of", (), test, options=options)


def negate(check: Check) -> Check:
    """A check that passes when `check` fails: "never ends with a question".

    Its finding is the finding of `check`, so a gap says what was found ("ends with '?'").
    In a rubric it is `{not: <check>}`, as in `check: {not: {name: ends_with_punctuation,
    mark: "?"}}`. A counting rule reads better as a bound ("no bullet points" is
    `bullet_count(exactly=0)`).

    Example:
        ```python
        checks.negate(checks.ends_with_punctuation("?"))
        ```

    """
    if not isinstance(check, Check):
        raise RubricError(f"negate takes a catalogue check, got {type(check).__name__}", field=None)
    if check.negated is not None:
        return check.negated

    def test(text: str) -> tuple[bool, str]:
        passed, finding = check.test(text)
        return not passed, finding

    return Check("not", (), test, negated=check)


def within(part: str, check: Check) -> Check:
    """A check applied to one part of the text instead of all of it.

    For a rule on a named part: "subject line under 50 characters", "end the title with a
    question mark", "closing paragraph under 50 words". Parts (defined in `docs/checks.md`):
    `title`, `subject`, `body`, `first_line`, `last_line`, `first_paragraph`, `last_paragraph`,
    `first_sentence`, `last_sentence`, `prose` (the text outside its fenced code blocks),
    `without_hashtags` (the text less its hashtags: "caption under 30 words, hashtags aside"),
    `after_code` (what follows the last fenced code block: "the explanation after the code";
    a text without one raises `CheckUndecided`, and the judge decides), and `section:<name>`:
    what the text says under the heading or line label `name` ("Summary section: two sentences
    or fewer"), which fails a text without that section; and `field:<label>`: the value of each
    line labelled so and what each heading named so holds ("Preview text under 10 words" of a
    reply with a "**Preview text:**" line), which leaves a text that labels nothing so to the
    judge (`CheckUndecided`); and `text:<noun>`: the same labelled pieces when the text has
    them, else the whole text ("the summary is one sentence" of a reply that is a summary, or
    of one holding a "**Summary:**" line); and `list:<noun>`: what each heading or label so
    named holds, else the text's only list, while a text with several lists, none so named,
    is left to the judge ("feature list: 3 bullets"). Lines labelled "Title:" (or "Headline:"),
    "Subject:" or "Body:" are those parts, each held to the rule ("body text: 90 chars max" of
    four notifications).
    A text without any other part is checked as empty text, so "no emojis in the title" passes
    an untitled text and "the title ends with a question mark" fails it.
    In a rubric it is `{within: title, check: <check>}`.

    Example:
        ```python
        checks.within("subject", checks.character_count(at_most=50))
        ```

    """
    if not isinstance(check, Check):
        raise RubricError(f"within applies a catalogue check, got {type(check).__name__}")
    name = part.strip().casefold().replace(" ", "_") if isinstance(part, str) else part
    named = next(
        (
            p
            for p in (SECTION_PART, FIELD_PART, TEXT_PART, LIST_PART)
            if isinstance(part, str) and name.startswith(p)
        ),
        None,
    )
    if named is not None:
        name = named + part.strip()[len(named) :].strip()
        if name == named:
            kind = {SECTION_PART: "section's name", FIELD_PART: "label"}.get(named, "noun")
            raise RubricError(f"within: `{named}` needs the {kind}", field="part")
    elif name not in PARTS:
        raise RubricError(
            f"within: `part` must be one of {', '.join(PARTS)}, section:<heading> or "
            f"field:<label>, text:<noun> or list:<noun>, got {part!r}",
            field="part",
        )

    def test(text: str) -> tuple[bool, str]:
        labelled = _labelled(text, name)
        if labelled is not None:
            return _each_value(labelled, name, check)
        found = part_text(text, name)
        if found is None and name.startswith(SECTION_PART):
            return False, f"has no {_part_words(name)}"  # the rule presumes one: none is no pass
        if found is None and name == "title" and (long := long_title_line(text)) is not None:
            raise CheckUndecided(f"the first line {shortened(long)!r} may be a long title")
        passed, finding = check.test(found or "")
        if found is None:
            return passed, f"has no {_part_words(name)}; {finding}"
        return passed, f"the {_part_words(name)} {shortened(found)!r} {finding}"

    return Check("within", (("part", name),), test, scoped=check)


# The labels a reader gives a named part: "Title:" (or "Headline:") lines are the titles.
_LABELS = {"title": ("title", "headline"), "subject": ("subject",), "body": ("body",)}


def _labelled(text: str, part: str) -> list[str] | None:
    """The values of the lines labelled with `part`'s name, or `None` to read it otherwise.

    A `field:` part the text labels nowhere raises `CheckUndecided`: the label was a guess at
    what the criterion's noun points to ("Preview text under 10 words" of a reply without a
    "Preview:" line), so the judge decides.
    """
    if part.startswith(FIELD_PART):
        label = part[len(FIELD_PART) :]
        values = field_values(text, label)
        if not values:
            raise CheckUndecided(f"no line or heading is labelled {label!r}")
        return values
    if part.startswith(TEXT_PART):
        return field_values(text, part[len(TEXT_PART) :]) or None
    if part.startswith(LIST_PART):
        noun = part[len(LIST_PART) :]
        values = field_values(text, noun)
        if values:
            return values
        lists = list_count(text)
        if lists > 1:
            raise CheckUndecided(f"the text has {lists} lists and labels none {noun!r}")
        return [text]  # its only list, or none: the whole text holds no other
    for label in _LABELS.get(part, ()):
        values = field_values(text, label)
        if values:
            return values
    return None


def _each_value(values: list[str], part: str, check: Check) -> tuple[bool, str]:
    """The rule on each labelled value: "body text: 90 chars max" of four notifications."""
    words = _part_words(part)
    for value in values:
        passed, finding = check.test(value)
        if not passed:
            return False, f"the {words} {shortened(value)!r} {finding}"
    if len(values) == 1:
        return True, f"the {words} {shortened(values[0])!r} {finding}"
    return True, f"each of its {len(values)} {words} values passes; the last {finding}"


def _part_words(part: str) -> str:
    if part.startswith((FIELD_PART, TEXT_PART)):
        return part.split(":", 1)[1]
    if part.startswith(LIST_PART):
        return f"{part[len(LIST_PART) :]} list"
    if part.startswith(SECTION_PART):
        return f"{part[len(SECTION_PART) :]} section"
    named = {
        "subject": "subject line",
        "prose": "text outside the code",
        "without_hashtags": "text without its hashtags",
        "after_code": "text after the code",
    }
    return named.get(part, part.replace("_", " "))


def each(unit: str, check: Check) -> Check:
    """A check that every sentence, paragraph, line, list item or entry of the text passes.

    For a rule on every one of several pieces: "every bullet ends with a period", "each tip is
    15 words or fewer", "each stanza has four lines". Units (defined in `docs/checks.md`):
    `sentence`, `paragraph`, `line`, `item` (a bullet point or numbered item, without its
    marker), `entry`, what "each tip" or "every step" points at (`_units.entries`: the
    top-level list items, else the lines, else the sentences of a single line), and `output`,
    each of several outputs a reply was asked for ("each tagline", `_units.outputs`). A text
    with no such unit fails: "every bullet ends with a period" presumes bullets. A reply whose
    outputs are not marked apart raises `CheckUndecided`, and the judge decides. In a rubric it
    is `{each: item, check: <check>}`.

    Example:
        ```python
        checks.each("item", checks.ends_with_punctuation("."))
        ```

    """
    if not isinstance(check, Check):
        raise RubricError(f"each applies a catalogue check, got {type(check).__name__}")
    name = unit.strip().casefold().removesuffix("s") if isinstance(unit, str) else unit
    if name not in UNITS:
        raise RubricError(
            f"each: `unit` must be one of {', '.join(UNITS)}, got {unit!r}", field="unit"
        )
    noun = _unit_words(name)

    def test(text: str) -> tuple[bool, str]:
        pieces = unit_pieces(text, name)
        if not pieces:
            return False, f"has no {noun}"
        for number, piece in enumerate(pieces, start=1):
            passed, finding = check.test(piece)
            if not passed:
                return False, f"{noun} {number} of {len(pieces)}, {shortened(piece)!r}, {finding}"
        return True, f"all {len(pieces)} {noun}s pass {check.__name__}"

    return Check("each", (("unit", name),), test, scoped=check)


def _unit_words(unit: str) -> str:
    return {"item": "list item"}.get(unit, unit)


class CountBounds(TypedDict, total=False):
    """The relation a counting check needs: give `exactly`, or one or two bounds.

    At most one lower bound (`at_least` or `more_than`) and one upper bound (`at_most`,
    `fewer_than` or its synonym `less_than`); `exactly` stands alone. Every bound is a
    non-negative integer.

    Attributes:
        at_least: The count must be at least this (inclusive).
        at_most: The count must be at most this (inclusive).
        exactly: The count must be exactly this.
        fewer_than: The count must be below this (exclusive).
        less_than: Synonym of `fewer_than`.
        more_than: The count must be above this (exclusive).

    """

    at_least: int
    at_most: int
    exactly: int
    fewer_than: int
    less_than: int
    more_than: int


_LOWER = ("at_least", "more_than")
_UPPER = ("at_most", "fewer_than", "less_than")
BOUND_NAMES = ("at_least", "at_most", "exactly", "fewer_than", "less_than", "more_than")


@dataclass(frozen=True)
class Bounds:
    """Validated bounds: an inclusive range and the words the user chose, for the gap."""

    low: int
    high: int | None
    text: str
    """`at most 300`, `exactly 3`, `at least 2 and fewer than 5`."""

    @classmethod
    def from_args(cls, check: str, bounds: Mapping[str, Any]) -> Bounds:
        """Check a counting check's bounds; raise `RubricError` naming the offending one."""
        given = {key: value for key, value in bounds.items() if value is not None}
        if not given:
            raise RubricError(f"{check} needs a bound: one of {', '.join(BOUND_NAMES)}", field=None)
        for key, value in given.items():
            if value < 0:
                raise RubricError(f"{check}: must be >= 0, got {value!r}", field=key)
        if "exactly" in given and len(given) > 1:
            other = next(key for key in given if key != "exactly")
            raise RubricError(f"{check}: `exactly` cannot be combined with `{other}`", field=other)
        for side in (_LOWER, _UPPER):
            named = [key for key in side if key in given]
            if len(named) > 1:
                raise RubricError(
                    f"{check}: `{named[0]}` and `{named[1]}` are both bounds on the same side; "
                    "give one",
                    field=named[1],
                )
        if "exactly" in given:
            count = given["exactly"]
            return cls(low=count, high=count, text=f"exactly {count}")
        low = given.get("at_least", 0)
        if "more_than" in given:
            low = given["more_than"] + 1
        high: int | None = given.get("at_most")
        upper = next((key for key in _UPPER[1:] if key in given), None)
        if upper is not None:
            high = given[upper] - 1
        if high is not None and high < low:
            key = next(key for key in _UPPER if key in given)
            raise RubricError(
                f"{check}: no count satisfies these bounds "
                f"({', '.join(f'{k}={v}' for k, v in given.items())})",
                field=key,
            )
        text = " and ".join(
            f"{key.replace('_', ' ')} {given[key]}" for key in (*_LOWER, *_UPPER) if key in given
        )
        return cls(low=low, high=high, text=text)

    def __contains__(self, count: object) -> bool:
        if not isinstance(count, int):
            return False
        return count >= self.low and (self.high is None or count <= self.high)


def count_finding(count: int, singular: str, plural: str, bounds: Bounds) -> tuple[bool, str]:
    """`(count in bounds, "has 312 words, needs at most 300")`."""
    noun = singular if count == 1 else plural
    return count in bounds, f"has {count} {noun}, needs {bounds.text}"


def found_count(
    name: str, find: Callable[[str], list[str]], noun: tuple[str, str], bounds: CountBounds
) -> TextTest:
    """A count of what `find` picks out of the text, its first find named when it fails."""
    limits = Bounds.from_args(name, bounds)

    def test(text: str) -> tuple[bool, str]:
        found = find(text)
        passed, finding = count_finding(len(found), *noun, limits)
        if found and not passed:
            return passed, f"{finding} (first: {shortened(found[0])!r})"
        return passed, finding

    return test


def _python_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
