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
  content criterion cannot turn into a check on words the model made up;
- a rejected mapping gets one correction round, then the criterion stays with the judge.

Mappings are cached by criterion text for the life of the compiler, so a rubric is compiled
once however many outputs it grades.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from . import _prompts as prompts
from ._exceptions import GraderError, RubricError
from ._rubric import Criterion, Rubric
from ._types import Usage
from ._verdicts import answer_text
from .checks import Check, all_of, from_spec, language
from .checks._check import BOUND_NAMES, Bounds
from .checks._language import LANGUAGES
from .checks._registry import CATALOGUE, CheckInfo, Param, create, describe

__all__ = [
    "FLAG_CUES",
    "MAX_PARTS",
    "AskStructured",
    "CheckCompiler",
    "CheckMapping",
    "CompiledRubric",
    "mapping_schema",
    "read_mapping",
    "uncovered",
    "ungrounded",
]

AskStructured = Callable[[list[BaseMessage], dict[str, Any]], Awaitable[Any]]
"""One schema-constrained model call: the parsed answer (a dict), or text when it did not parse."""

MappingSource = Literal["rubric", "compiled", "judge"]

SCHEMA_TITLE = "check_mapping"
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
_UNGROUNDED_PARAMS = frozenset({"code"})  # "in German" names `de` without writing it
_SMALL_NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth"
_NUMBER_WORDS = (
    {word: value for value, word in enumerate(_SMALL_NUMBERS.split())}
    | {
        "thirty": 30,
        "forty": 40,
        "fifty": 50,
        "hundred": 100,
        "once": 1,
        "twice": 2,
        "thrice": 3,
    }
    | {word: value for value, word in enumerate(_ORDINALS.split(), start=1)}
)
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
# What a criterion must talk about for a check to decide it (a regex on its casefolded words).
# Numbers and phrases are grounded by value (`ungrounded`); this grounds the kind of check, so
# "at least 5 paragraphs" cannot become a word count, nor "never say 'maybe'" a keyword that must
# appear. Every catalogue check has an entry (a test keeps it so); `None`: no cue needed.
CUES: Mapping[str, str | None] = {
    "all_capitals": r"\b(capital|upper[ -]?case|caps)",
    "all_lowercase": r"\b(lower[ -]?case|small letters)",
    "bullet_count": r"\b(bullet|list|point|item)",
    "capital_word_count": r"\b(capital|upper[ -]?case|caps)",
    "ends_with": r"\b(ends?|finish(es)?|closes?) with\b|\b(last|final) (word|line|sentence)",
    "has_postscript": r"\b(postscript|p\.? ?s\b)",
    "has_title": r"\btitle|<<",
    "highlight_count": r"\b(highlight|emphasi|bold|italic|markdown)|\*",
    "keyword_count": r"\b(times?|occur|appear|mention|use|repeat|once|twice)",
    "keywords_forbidden": r"\b(not|no|never|none|avoid\w*|without|forbid\w*|exclud\w*)\b|n't\b",
    "keywords_present": r"\b(include|contain|mention|use|keyword|word|appear|phrase)",
    "language": None,  # "in German" is `de`: the catalogue checks the code itself
    "letter_count": r"\b(letter|character|appear|occur|times?)\b",
    "no_commas": r"\bcomma",
    "one_of": None,  # every option must already be in the criterion's words
    "paragraph_count": r"\bparagraph",
    "paragraph_starts_with": r"\bparagraph",
    "part_count": r"\b(separat|divid|split)",
    "placeholder_count": r"\b(placeholder|bracket)|\[",
    "section_count": r"\b(section|part|chapter)",
    "sentence_count": r"\bsentence",
    "starts_with": (
        r"\b(starts?|begins?|opens?) (with|by)\b|\bfirst (repeat|restate|word|line|sentence)"
    ),
    "valid_json": r"\bjson\b",
    "word_count": r"\b(words?|long|length)\b",
    "wrapped_in_quotes": r"\bquot|\"",
}
# A quoted phrase: 'x' or "x" holding a word, not an apostrophe inside a word (response's).
_QUOTED = re.compile(r"(?<!\w)'(?P<single>[^']*?\w[^']*?)'(?!\w)|\"(?P<double>[^\"]*?\w[^\"]*?)\"")
# Where a `phrase` sits in the text, for the checks whose phrase a quote can complete.
_PHRASE_ENDS = {"starts_with": "start", "paragraph_starts_with": "start", "ends_with": "end"}
# A divider written out: a run of three or more of one of * - _ = ~ #, standing alone.
_DIVIDER = re.compile(r"(?<!\S)([*\-_=~#])\1{2,}(?=[\s.,;:!?)]|$)")
_EXAMPLE = re.compile(r"\b(like|such as|e\.g\.?|for example|for instance)\W*$")
_LANGUAGE_CODES = {name.casefold(): code for code, name in LANGUAGES.items() if "(" not in name}
_LANGUAGE_NAMED = re.compile(
    rf"\bin (?:the )?({'|'.join(sorted(_LANGUAGE_CODES, key=len, reverse=True))})\b"
)
# What a criterion must say for a true/false option to be set (`_without_unasked_flags`).
FLAG_CUES: Mapping[str, str] = {
    "allow_fence": r"\b(fence|code ?block|markdown|raw|plain|bare|only json)",
    "case_sensitive": r"\b(case|capital|upper|lower)",
    "contains": r"\b(contain|include|somewhere|within|part of)",
    "distinct": r"\b(different|distinct|unique|not the same)",
    "numbered": r"\b(number|numbered|ordered)\b|\d[.)]",
}
_CACHE_SIZE = 4096
_UNGROUNDED = "the criterion does not "


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


class CheckCompiler:
    """Maps criteria to catalogue checks with a judge model, once per criterion text.

    Args:
        names: The checks the model may choose from; the whole catalogue by default.

    """

    def __init__(self, names: Sequence[str] | None = None) -> None:
        infos = [describe(name) for name in (list(CATALOGUE) if names is None else names)]
        self.schema = mapping_schema([info.name for info in infos])
        self._request = prompts.COMPILE_REQUEST.replace(
            "{catalogue}", "\n".join(_catalogue_line(info) for info in infos)
        )
        self._cache: dict[str, tuple[Check | None, str]] = {}

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
            return CheckMapping(criterion.id, criterion.description, "compiled", check=check)

        mappings = await asyncio.gather(*(one(c) for c in rubric.criteria))
        criteria = tuple(
            replace(c, check=m.check) if m.source == "compiled" else c
            for c, m in zip(rubric.criteria, mappings, strict=True)
        )
        return CompiledRubric(
            rubric=Rubric(criteria, source=rubric.source), mappings=tuple(mappings)
        )

    async def _map(self, description: str, ask: AskStructured) -> tuple[Check | None, str]:
        key = description.casefold()
        if key in self._cache:
            return self._cache[key]
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
            outcome: tuple[Check | None, str] = (None, f"mapping rejected: {problem}")
        elif check is None:
            outcome = (None, "no check decides it exactly")
        else:
            outcome = (check, "")
        if len(self._cache) >= _CACHE_SIZE:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = outcome
        return outcome


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
        args = _without_implied_bounds({k: v for k, v in spec.items() if v is not None})
        args = _without_unasked_flags(args, description)
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
    check = all_of(*_merged(_completed(part, description) for part in parts))
    if problem := ungrounded(check, description) or _conflicting(check):
        return None, problem
    check = _with_stated_options(check, description)
    if problem := uncovered(check, description):
        return None, problem
    return _with_named_language(check, description), None


def _read(raw: Any, description: str) -> tuple[Check | None, str | None, bool]:
    """`read_mapping`, plus whether a problem is final (no correction round).

    Arguments the criterion does not state mean the model misread it (typically content as a
    keyword count), which a second try rarely mends; a misspelt name or a bad bound it does.
    """
    check, problem = read_mapping(raw, description)
    return check, problem, problem is not None and problem.startswith(_UNGROUNDED)


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
        _normal(str(item)).casefold()
        for part in check.parts or (check,)
        for _, value in part.args
        if not isinstance(value, (bool, int))
        for item in (value if isinstance(value, tuple) else (value,))
    ]
    text = " ".join(description.translate(_QUOTES).split())
    for match in _QUOTED.finditer(text):
        if _EXAMPLE.search(text[: match.start()].casefold()):
            continue
        quoted = match.group("single") or match.group("double") or ""
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
    cue = CUES.get(check.name)
    if cue is not None and not re.search(cue, text):
        return f"{_UNGROUNDED}talk about what {check.name} checks"
    numbers = {int(n) for n in re.findall(r"\d+", text.replace(",", ""))}
    numbers |= {value for word, value in _NUMBER_WORDS.items() if re.search(rf"\b{word}\b", text)}
    for key, value in check.args:
        if key in _UNGROUNDED_PARAMS or isinstance(value, bool):
            continue
        if isinstance(value, int):
            if value not in numbers:
                return f"{_UNGROUNDED}state the number {value} (`{key}`)"
            continue
        for item in value if isinstance(value, tuple) else (value,):
            wanted = _normal(str(item))
            if key == "marker":  # `P.P.S.` and `P.P.S` are the same postscript marker
                wanted = wanted.rstrip(".")
            if wanted not in text:
                return f"{_UNGROUNDED}contain {item!r} (`{key}`)"
    return None


def _completed(part: Check, description: str) -> Check:
    """A `phrase` cut short, completed to the phrase the criterion quotes.

    Small models stop copying a long quoted phrase at its first inner quote ("... ice cream
    called "): a `starts_with` phrase that begins a phrase the criterion quotes becomes that
    whole phrase, and an `ends_with` phrase that ends one likewise. The result is the
    criterion's own words.
    """
    if part.name not in _PHRASE_ENDS:
        return part
    args = dict(part.args)
    given = _normal(str(args["phrase"]))
    fits = str.startswith if _PHRASE_ENDS[part.name] == "start" else str.endswith
    longer = [
        quoted
        for quoted in _quoted(description)
        if len(_normal(quoted)) > len(given) and fits(_normal(quoted), given)
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
    """The phrases the criterion quotes, as written (see `_QUOTED`)."""
    text = " ".join(description.translate(_QUOTES).split())
    return [m.group("single") or m.group("double") or "" for m in _QUOTED.finditer(text)]


def _conflicting(check: Check) -> str | None:
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


def _with_stated_options(check: Check, description: str) -> Check:
    """Fill optional arguments the criterion states verbatim but the model left out.

    Small models skip optional arguments: "separated by the divider ***" comes back as
    `paragraph_count(exactly=2)`, "each starting with 'SECTION X'" without its marker. A divider
    written in the criterion becomes the `separator`, and a phrase it quotes that no argument
    uses becomes the `marker`; the values are the criterion's own words, and the catalogue
    validates them as any others.
    """
    text = _normal(description)
    divider = _DIVIDER.search(text) if re.search(CUES["part_count"] or "", text) else None
    parts = []
    for part in check.parts or (check,):
        args = dict(part.args)
        params = {p.name for p in describe(part.name).params}
        if "separator" in params and "separator" not in args and divider:
            args["separator"] = divider.group(0)
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


def _with_named_language(check: Check, description: str) -> Check:
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


def _catalogue_line(info: CheckInfo) -> str:
    """`- word_count (at_least, at_most, exactly, fewer_than, more_than: integer): summary`."""
    groups: dict[str, list[str]] = {}
    for param in info.params:
        if param.name not in _SYNONYMS:
            groups.setdefault(param.kind, []).append(param.name)
    words = {"int": "integer", "str": "text", "bool": "true/false", "strings": "list of texts"}
    listed = "; ".join(f"{', '.join(names)}: {words[kind]}" for kind, names in groups.items())
    return f"- {info.name}{f' ({listed})' if listed else ''}: {info.summary}"


def _left(criterion: Criterion, reason: str) -> CheckMapping:
    return CheckMapping(criterion.id, criterion.description, "judge", reason=reason)


def _normal(text: str) -> str:
    return " ".join(text.translate(_QUOTES).casefold().split())
