"""Compiling criteria to catalogue checks: the judge model maps each criterion once, code decides.

`Judge(compile_checks=True)` asks its model, for every criterion the rubric leaves to the judge,
which catalogue check (`rubricate.checks`) decides it exactly, with which arguments, or `none`.
A small model cannot count words, but it can read "at most 300 words" as
`word_count(at_most=300)`; the check then counts.

Nothing the model answers is trusted:

- the answer is schema-constrained (a grammar on the embedded model): it can only name real
  checks, with arguments of the right types; a criterion stating several rules ("in German,
  all in capitals") maps to several checks, which must all pass;
- the arguments are validated by the catalogue (`at_most` with `exactly` is rejected);
- every number and phrase in the arguments must appear in the criterion's own words, so a
  content criterion cannot turn into a check on words the model made up, and every phrase the
  criterion quotes must be used; code mends only what those words settle (`_grounding`);
- the mapping must not turn the criterion round: "under 70 words" is no `at_least=70`, and
  "avoid words in all caps" no `all_capitals` (`contradicted`);
- a rejected mapping gets one correction round, then the criterion stays with the judge.

Mappings are cached by criterion text for the life of the compiler, so a rubric is compiled
once however many outputs it grades.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from ..._exceptions import GraderError, RubricError
from ..._rubric._criterion import Criterion
from ..._rubric._rubric import Rubric
from ..._types import Usage
from ...checks import Check, all_of, from_spec
from ...checks._registry import CATALOGUE, CheckInfo, Param, describe
from .. import _prompts as prompts
from .._answers import answer_text
from ._grounding import (
    UNGROUNDED,
    conflicting,
    contradicted,
    names_a_check,
    uncovered,
    ungrounded,
    whole_phrases,
    with_named_language,
    with_stated_options,
    without_sloppy_arguments,
)
from ._phrasing import ParsedCriterion, parse_criterion
from ._scopes import may_be_undecided
from ._vocabulary import names_form

__all__ = [
    "APPROXIMATE",
    "GRAMMAR_ONLY",
    "MAX_PARTS",
    "PERMISSION",
    "AskStructured",
    "CheckCompiler",
    "CheckMapping",
    "CompiledRubric",
    "mapping_schema",
    "read_mapping",
]

AskStructured = Callable[[list[BaseMessage], dict[str, Any]], Awaitable[Any]]
"""One schema-constrained model call: the parsed answer (a dict), or text when it did not parse."""

MappingSource = Literal["rubric", "compiled", "judge"]

SCHEMA_TITLE = "check_mapping"
NAMES_NO_CHECK = "it talks about nothing a catalogue check checks"
"""Why a criterion stays with the judge without a compile call (`names_a_check`)."""
APPROXIMATE = "it states an approximate bound ('about 100 words'), which no check decides"
"""Why a criterion such as "100 words or so" stays with the judge without a compile call."""
PERMISSION = "it permits rather than requires ('emojis are fine'), which no check decides"
"""Why a criterion such as "you may add a table" stays with the judge without a compile call."""
READ_IN_CODE = "read from its words in code (no model call)"
"""How a criterion that the phrase grammar read whole was compiled (`_phrasing`)."""
MAX_PARTS = 3
"""The most checks one criterion compiles to (all must pass)."""
_NONE = "none"
_SYNONYMS = frozenset({"less_than"})  # `fewer_than` says the same; one spelling keeps it simple
_JSON_TYPES: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"},
    "str": {"type": "string"},
    "bool": {"type": "boolean"},
    "strings": {"type": "array", "items": {"type": "string"}, "minItems": 1},
}
_CACHE_SIZE = 4096


@dataclass(frozen=True)
class CheckMapping:
    """What compiling decided for one criterion."""

    id: str
    description: str
    source: MappingSource
    """`rubric`: the rubric names a check already; `compiled`: mapped to `check`; `judge`: left
    to the judge model (`reason` says why)."""
    check: Check | None = None
    """The catalogue check that now decides the criterion (`compiled` only)."""
    reason: str = ""
    """Why the criterion stays with the judge; for a compiled one, how it was compiled."""

    @property
    def decided_by(self) -> Literal["check", "judge"]:
        """Who will decide the criterion: a check in code, or the judge model."""
        return "judge" if self.source == "judge" else "check"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data: dict[str, Any] = {
            "id": self.id,
            "description": self.description,
            "decided_by": self.decided_by,
            "source": self.source,
            "check": self.check.to_spec() if self.check is not None else None,
        }
        if self.reason:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True)
class CompiledRubric:
    r"""A rubric with catalogue checks attached where the model found one, and how each went.

    Example:
        ```python
        compiled = Judge("local").compile("- At most 100 words\\n- Mentions Paris")
        print(compiled.describe())
        # 1 of 2 criteria compiled to checks:
        #   at-most-100-words -> word_count(at_most=100)
        #   mentions-paris    -> judge (no check decides it exactly)
        ```

    """

    rubric: Rubric
    """The rubric to grade with: compiled criteria carry their `check`."""
    mappings: tuple[CheckMapping, ...]
    usage: Usage = field(default_factory=Usage)
    """Judge model usage of this compile (zero when every mapping came from the cache)."""

    @property
    def compiled(self) -> tuple[CheckMapping, ...]:
        """The criteria the model mapped to a check."""
        return tuple(m for m in self.mappings if m.source == "compiled")

    def describe(self) -> str:
        """A plain-text account: how many compiled, then one line per criterion."""
        width = max((len(m.id) for m in self.mappings), default=0)
        lines = [f"{len(self.compiled)} of {len(self.mappings)} criteria compiled to checks:"]
        for m in self.mappings:
            if m.source == "compiled" and m.check is not None:
                target = m.check.__name__
            elif m.source == "rubric":
                target = "check named in the rubric"
            else:
                target = f"judge ({m.reason})" if m.reason else "judge"
            lines.append(f"  {m.id.ljust(width)} -> {target}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "compiled": len(self.compiled),
            "criteria": [m.to_dict() for m in self.mappings],
            "usage": self.usage.to_dict(),
        }


def mapping_schema(names: Sequence[str] | None = None) -> dict[str, Any]:
    """The answer shape: `{"checks": [{"name": <check>, <its arguments>}, ...]}`, or `none`.

    One `anyOf` branch per check, each with the check's own typed arguments, so a grammar built
    from it lets the model name only real checks with well-typed arguments. Up to
    `MAX_PARTS` checks, for a criterion that states several rules; all must pass.
    """
    chosen = list(CATALOGUE) if names is None else list(names)
    branches: list[dict[str, Any]] = [_branch(_NONE, ())]
    branches += [_branch(name, describe(name).params) for name in chosen]
    return {
        "title": SCHEMA_TITLE,
        "description": (
            "The catalogue checks that together decide the criterion exactly (all must pass), "
            "or none."
        ),
        "type": "object",
        "properties": {
            "checks": {
                "type": "array",
                "items": {"anyOf": branches},
                "minItems": 1,
                "maxItems": MAX_PARTS,
            }
        },
        "required": ["checks"],
        "additionalProperties": False,
    }


GRAMMAR_ONLY = frozenset({"entry_count", "number_count"})
"""Checks only the grammar chooses, never offered to the model: "exactly five tips" is a count of
entries, but a model mapping cannot be grounded to tell it from "mentions five benefits"; nor
"includes a number" from "includes the order number"."""


class CheckCompiler:
    """Maps criteria to catalogue checks with a judge model, once per criterion text.

    Args:
        names: The checks the model may choose from; the whole catalogue by default.

    """

    def __init__(self, names: Sequence[str] | None = None) -> None:
        infos = [describe(name) for name in (list(CATALOGUE) if names is None else names)]
        self._names = [info.name for info in infos]
        offered = [info for info in infos if info.name not in GRAMMAR_ONLY]
        self._offered = [info.name for info in offered]
        self.schema = mapping_schema(self._offered)
        self._request = prompts.COMPILE_REQUEST.replace(
            "{catalogue}", "\n".join(_catalogue_line(info) for info in offered)
        )
        self._cache: dict[str, tuple[Check | None, str]] = {}
        self._parses: dict[str, ParsedCriterion] = {}

    async def compile(
        self, rubric: Rubric, ask: AskStructured, *, concurrency: int = 1
    ) -> CompiledRubric:
        """Map every criterion without a check; criteria with one keep it.

        A judge failure (`GraderError`) stops compiling: the criteria not yet mapped stay with
        the judge, and nothing about them is cached, so the next compile tries again.
        """
        semaphore = asyncio.Semaphore(max(1, concurrency))
        failed: list[GraderError] = []

        async def one(criterion: Criterion) -> CheckMapping:
            if criterion.check is not None:
                return CheckMapping(criterion.id, criterion.description, "rubric")
            async with semaphore:
                if failed:
                    return _left(criterion, f"not compiled: the judge failed ({failed[0]})")
                try:
                    check, reason = await self._map(criterion.description, ask)
                except GraderError as exc:
                    failed.append(exc)
                    return _left(criterion, f"not compiled: the judge failed ({exc})")
            if check is None:
                return _left(criterion, reason)
            return CheckMapping(
                criterion.id, criterion.description, "compiled", check=check, reason=reason
            )

        mappings = await asyncio.gather(*(one(c) for c in rubric.criteria))
        criteria = tuple(
            replace(c, check=m.check) if m.source == "compiled" else c
            for c, m in zip(rubric.criteria, mappings, strict=True)
        )
        return CompiledRubric(
            rubric=Rubric(criteria, source=rubric.source), mappings=tuple(mappings)
        )

    def read(self, rubric: Rubric) -> Rubric:
        """Decide in code the criteria the phrase grammar reads whole; never calls a model.

        What the judge does by default: a criterion such as "no bullet points" or "under 100
        words" gets its check, and everything the grammar cannot account for word by word stays
        with the judge. Results are cached per criterion text like `compile`'s.
        """
        criteria = []
        for criterion in rubric.criteria:
            check = None if criterion.check is not None else self._read_whole(criterion)
            criteria.append(criterion if check is None else replace(criterion, check=check))
        return Rubric(tuple(criteria), source=rubric.source)

    def format_unread(self, criterion: Criterion) -> bool:
        """Whether `criterion` is a rule on the text's form that the grammar could not read whole.

        Either the grammar read a format rule in it but not all of it, or it names a unit of
        form (`names_form`: lines, bullet points, bold...) and the grammar read nothing. The
        model's verdicts on such criteria are close to chance (format dev files: 60% right),
        so the judge marks them `unsure`: a person should look at them first.
        """
        if criterion.check is not None:
            return False
        parsed = self._parse(criterion.description)
        if parsed.check is not None:
            # Read whole yet left to the judge: its check found the pieces it reads unmarked
            # ("each tagline under 6 words" of unlabelled paragraphs, `CheckUndecided`).
            return may_be_undecided(parsed.check)
        # "sounds like slang in Arabic" names a language, and "there are two types of cereal" a
        # count of things, without being a rule on the output's form.
        read_in_part = any(c.name not in ("language", "entry_count") for c in parsed.found)
        return read_in_part or names_form(criterion.description)

    def _parse(self, description: str) -> ParsedCriterion:
        """The grammar's reading of a criterion text, once per text: every evaluation asks."""
        key = _cache_key(description)
        if key not in self._parses:
            if len(self._parses) >= _CACHE_SIZE:
                self._parses.clear()
            self._parses[key] = parse_criterion(description)
        return self._parses[key]

    def _read_whole(self, criterion: Criterion) -> Check | None:
        parsed = self._parse(criterion.description)
        if parsed.check is None or not _allowed(parsed.check, self._names):
            return None
        return parsed.check

    def _remember(self, key: str, outcome: tuple[Check | None, str]) -> None:
        if len(self._cache) >= _CACHE_SIZE:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = outcome

    async def _map(self, description: str, ask: AskStructured) -> tuple[Check | None, str]:
        key = _cache_key(description)
        if key in self._cache:
            return self._cache[key]
        parsed = self._parse(description)
        if parsed.check is not None and _allowed(parsed.check, self._names):
            outcome: tuple[Check | None, str] = (parsed.check, READ_IN_CODE)
        elif parsed.approximate:
            outcome = (None, APPROXIMATE)  # a check would fail what a reader lets pass
        elif parsed.permission:
            outcome = (None, PERMISSION)  # a presence check would fail what is only allowed
        elif names_a_check(description, self._offered):
            outcome = await self._ask(description, ask)
        else:
            outcome = (None, NAMES_NO_CHECK)  # any mapping would be rejected: spare the call
        self._remember(key, outcome)
        return outcome

    async def _ask(self, description: str, ask: AskStructured) -> tuple[Check | None, str]:
        """The model's mapping, with one correction round; a check, or why there is none."""
        messages: list[BaseMessage] = [
            SystemMessage(prompts.COMPILE_SYSTEM_PROMPT),
            HumanMessage(self._request.replace("{criterion}", description)),
        ]
        raw = await ask(messages, self.schema)
        check, problem, final = _read(raw, description)
        if problem is not None and not final:
            retry = [
                *messages,
                AIMessage(answer_text(raw)),
                HumanMessage(prompts.COMPILE_CORRECTION.format(problem=problem)),
            ]
            check, problem, _ = _read(await ask(retry, self.schema), description)
        if problem is not None:
            return None, f"mapping rejected: {problem}"
        if check is None:
            return None, "no check decides it exactly"
        return check, ""


def read_mapping(raw: Any, description: str) -> tuple[Check | None, str | None]:
    """Validate one answer: `(check, None)`, `(None, None)` for `none`, or `(None, problem)`.

    Several checks become one `all_of` check. Also read: `{"check": {...}}` and a bare
    `{"name": ...}`, shapes a provider may return when it flattens or renames the wrapper.
    """
    specs: Any
    if isinstance(raw, Mapping) and isinstance(raw.get("checks"), list):
        specs = raw["checks"]
    elif isinstance(raw, Mapping) and isinstance(raw.get("check"), Mapping):
        specs = [raw["check"]]
    elif isinstance(raw, Mapping) and "name" in raw:
        specs = [raw]
    else:
        return None, f'expected {{"checks": [{{"name": ...}}]}}, got {answer_text(raw)[:120]}'
    if not specs or not all(isinstance(spec, Mapping) for spec in specs):
        return None, f'expected {{"checks": [{{"name": ...}}]}}, got {answer_text(raw)[:120]}'
    named = [spec for spec in specs if spec.get("name") != _NONE]
    if not named:
        return None, None
    if len(named) < len(specs):
        return None, (
            '"none" together with checks: answer "none" alone when no check decides part of '
            "the criterion"
        )
    parts: list[Check] = []
    for number, spec in enumerate(named, start=1):
        args = without_sloppy_arguments(
            {k: v for k, v in spec.items() if v is not None}, description
        )
        try:
            parts.append(from_spec(args))
        except RubricError as exc:
            where = f" (argument `{exc.field}`)" if exc.field and exc.field != "name" else ""
            which = f"check {number}: " if len(named) > 1 else ""
            return None, f"{which}{exc.reason}{where}"
    # In a mapping of several checks an ungrounded one is an extra the model made up (its
    # numbers or words are not the criterion's); the grounded ones still stand.
    grounded = [part for part in parts if ungrounded(part, description) is None]
    if len(parts) > 1 and grounded:
        parts = grounded
    check = all_of(*whole_phrases(parts, description))
    found = ungrounded(check, description) or contradicted(check, description)
    if problem := found or conflicting(check):
        return None, problem
    check = with_stated_options(check, description)
    if problem := uncovered(check, description):
        return None, problem
    return with_named_language(check, description), None


def _read(raw: Any, description: str) -> tuple[Check | None, str | None, bool]:
    """`read_mapping`, plus whether a problem is final (no correction round).

    Arguments the criterion does not state mean the model misread it (typically content as a
    keyword count), which a second try rarely mends; a misspelt name or a bad bound it does.
    """
    check, problem = read_mapping(raw, description)
    return check, problem, problem is not None and problem.startswith(UNGROUNDED)


def _branch(name: str, params: Sequence[Param]) -> dict[str, Any]:
    usable = [p for p in params if p.name not in _SYNONYMS]
    properties: dict[str, Any] = {"name": {"const": name}}
    properties |= {p.name: dict(_JSON_TYPES[p.kind]) for p in usable}
    return {
        "type": "object",
        "properties": properties,
        "required": ["name", *(p.name for p in usable if p.required)],
        "additionalProperties": False,
    }


def _cache_key(description: str) -> str:
    """The text a criterion is cached under: whitespace evened out, letter case kept.

    A quoted marker or phrase keeps its case: 'Section X' and 'SECTION X' mark different sections.
    """
    return " ".join(description.split())


def _catalogue_line(info: CheckInfo) -> str:
    """`- word_count (at_least, at_most, exactly, fewer_than, more_than: integer): summary`."""
    groups: dict[str, list[str]] = {}
    for param in info.params:
        if param.name not in _SYNONYMS:
            groups.setdefault(param.kind, []).append(param.name)
    words = {"int": "integer", "str": "text", "bool": "true/false", "strings": "list of texts"}
    listed = "; ".join(f"{', '.join(names)}: {words[kind]}" for kind, names in groups.items())
    return f"- {info.name}{f' ({listed})' if listed else ''}: {info.summary}"


def _allowed(check: Check, names: Sequence[str]) -> bool:
    """Whether every check in `check` is one the compiler may choose."""
    if check.negated is not None:
        return _allowed(check.negated, names)
    if check.scoped is not None:
        return _allowed(check.scoped, names)
    if check.parts or check.options:
        return all(_allowed(part, names) for part in check.parts or check.options)
    return check.name in names


def _left(criterion: Criterion, reason: str) -> CheckMapping:
    return CheckMapping(criterion.id, criterion.description, "judge", reason=reason)
