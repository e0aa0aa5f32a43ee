"""The catalogue: checks by name, their validated arguments, and the rubric marker syntax.

Every factory is registered with `@catalogue_check`, which reads its signature, types and
docstring once. The same validation then serves a Python call (`checks.word_count(at_most=300)`),
a structured rubric (`check: {name: word_count, at_most: 300}`) and a checklist marker
(`{check: word_count, at_most: 300}`), and every mistake is a `RubricError` whose `field` names
the argument and whose message names the check.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import json
import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, ParamSpec, Union, cast, get_args, get_origin, get_type_hints

import yaml

from .._exceptions import RubricError
from ._check import Check, CountBounds, TextTest, all_of, any_of, each, negate, within

__all__ = [
    "CATALOGUE",
    "CheckInfo",
    "Param",
    "catalogue_check",
    "create",
    "describe",
    "from_spec",
    "split_marker",
    "to_marker",
]

P = ParamSpec("P")
Kind = Literal["int", "str", "bool", "strings"]

_KIND_WORDS: dict[Kind, str] = {
    "int": "an integer",
    "str": "a string",
    "bool": "true or false",
    "strings": "a list of strings",
}
_YAML_TEXT_HINT = " (in YAML, quote yes, no, on, off, true and false to keep them as text)"


@dataclass(frozen=True)
class Param:
    """One argument of a catalogue check."""

    name: str
    kind: Kind
    """`int`, `str`, `bool` or `strings` (a list of strings; one string is a list of one)."""
    required: bool
    default: Any
    doc: str
    positional: bool
    """Whether a Python call may pass it by position (a rubric always names it)."""
    nullable: bool = False
    """Whether `None` is a value of its own (`embedded: bool | None`), not only "not given"."""


@dataclass(frozen=True)
class CheckInfo:
    """A catalogue entry: its name, its one-line summary and its arguments."""

    name: str
    summary: str
    params: tuple[Param, ...]
    factory: Callable[..., Check]

    def param(self, name: str) -> Param | None:
        """The argument called `name`, if the check has one."""
        return next((p for p in self.params if p.name == name), None)


_INFO: dict[str, CheckInfo] = {}
_FACTORIES: dict[str, Callable[..., Check]] = {}
CATALOGUE: Mapping[str, Callable[..., Check]] = types.MappingProxyType(_FACTORIES)
"""Every catalogue check's factory, by the name a rubric uses, in alphabetical order."""


def catalogue_check(fn: Callable[P, TextTest]) -> Callable[P, Check]:
    """Register `fn` (validated arguments -> a text test) as the catalogue check `fn.__name__`.

    The returned factory validates its arguments (raising `RubricError` with `field` set to the
    argument) before `fn` runs, and wraps the test in a `Check`.
    """
    name = fn.__name__
    params = _params(fn)
    summary = (inspect.getdoc(fn) or "").split("\n\n", 1)[0].replace("\n", " ")
    build = cast(Callable[..., TextTest], fn)

    @functools.wraps(fn)
    def factory(*args: P.args, **kwargs: P.kwargs) -> Check:
        values = _bind(name, params, args, kwargs)
        test = build(**values)
        given = tuple((p.name, values[p.name]) for p in params if values[p.name] != p.default)
        return Check(name, given, test)

    factory.__annotations__ = {**fn.__annotations__, "return": Check}
    _INFO[name] = CheckInfo(name=name, summary=summary, params=params, factory=factory)
    _FACTORIES[name] = factory
    ordered = sorted(_FACTORIES.items())
    _FACTORIES.clear()
    _FACTORIES.update(ordered)
    return factory


def describe(name: str) -> CheckInfo:
    """The catalogue entry `name`; raise `RubricError` (with a suggestion) for an unknown one."""
    info = _INFO.get(name) if isinstance(name, str) else None
    if info is not None:
        return info
    if not isinstance(name, str):
        raise RubricError(
            f"a check name must be a string, got {name!r}; known checks: {', '.join(_FACTORIES)}",
            field="name",
        )
    if re.search(r"[\s=,(]", name.strip()):
        hint = (
            " (a check name is one word; arguments are `key: value` pairs, "
            "as in {check: word_count, at_most: 300})"
        )
    else:
        close = difflib.get_close_matches(name, list(_INFO), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise RubricError(
        f"unknown check {name!r}{hint}; known checks: {', '.join(_FACTORIES)}", field="name"
    )


def create(name: str, /, **args: Any) -> Check:
    """The catalogue check `name` with keyword `args`, as a rubric names it.

    Example:
        ```python
        checks.create("word_count", at_most=300)  # same as checks.word_count(at_most=300)
        ```

    """
    return describe(name).factory(**args)


def from_spec(spec: str | Mapping[str, Any] | Sequence[str | Mapping[str, Any]]) -> Check:
    """A check from its structured-rubric form: a name, `{name: ..., <arguments>}`, or a list.

    The checks of a list must all pass (`all_of`); `{not: <form>}` must fail (`negate`);
    `{within: <part>, check: <form>}` applies to one part of the text (`within`), and
    `{each: <unit>, check: <form>}` to every sentence, paragraph, line, item or entry (`each`);
    `{any_of: [<form>, ...]}` passes when one of them does (`any_of`).
    Raises `RubricError` whose `field` is `name` or the offending argument (`[1].at_most` in a
    list).
    """
    if isinstance(spec, Sequence) and not isinstance(spec, str):
        if not spec:
            raise RubricError("an empty list of checks; give at least one")
        parts = []
        for index, item in enumerate(spec):
            if not isinstance(item, (str, Mapping)):
                raise RubricError(
                    "each check in a list is a name or a mapping with `name` and its "
                    f"arguments, got {type(item).__name__}",
                    field=f"[{index}]",
                )
            try:
                parts.append(from_spec(item))
            except RubricError as exc:
                field = f"[{index}]" + (f".{exc.field}" if exc.field else "")
                raise RubricError(exc.reason, field=field) from None
        return all_of(*parts)
    if isinstance(spec, str):
        try:
            return create(spec.strip())
        except RubricError as exc:
            # A bare name has no `name` field to point at: the error is the check's own.
            raise RubricError(
                exc.reason, field=None if exc.field == "name" else exc.field
            ) from None
    if not isinstance(spec, Mapping):
        raise RubricError(
            "a check is a name or a mapping with `name` and its arguments, "
            f"got {type(spec).__name__}"
        )
    if "any_of" in spec:
        options = spec["any_of"]
        if len(spec) > 1 or not isinstance(options, Sequence) or isinstance(options, str):
            extra = next((str(key) for key in spec if key != "any_of"), "any_of")
            raise RubricError(
                "`any_of` stands alone and lists the checks of which one must pass, as in "
                "{any_of: [{name: starts_with, phrase: 'Yes'}, {name: starts_with, phrase: 'No'}]}",
                field=extra,
            )
        try:
            listed = from_spec(options)
        except RubricError as exc:
            raise RubricError(exc.reason, field=_joined_field("any_of", exc.field)) from None
        return any_of(*(listed.parts or (listed,)))
    if "not" in spec:
        if len(spec) > 1:
            extra = next(str(key) for key in spec if key != "not")
            raise RubricError(
                f"`not` stands alone, with the check that must fail inside it; got {extra!r} "
                "beside it",
                field=extra,
            )
        try:
            return negate(from_spec(spec["not"]))
        except RubricError as exc:
            raise RubricError(exc.reason, field=_joined_field("not", exc.field)) from None
    for scope, combine, where in (("within", within, "title"), ("each", each, "item")):
        if scope not in spec:
            continue
        beside = next((str(key) for key in spec if key not in (scope, "check")), None)
        if beside is not None or "check" not in spec:
            raise RubricError(
                f"`{scope}` takes the {'part' if scope == 'within' else 'unit'} and the check to "
                f"apply to it, as in {{{scope}: {where}, check: {{name: word_count, at_most: 8}}}}",
                field=beside or "check",
            )
        try:
            scoped = from_spec(spec["check"])
        except RubricError as exc:
            raise RubricError(exc.reason, field=_joined_field("check", exc.field)) from None
        return combine(spec[scope], scoped)
    if "name" not in spec:
        raise RubricError(
            "missing `name`: the catalogue check to run, as in {name: word_count, at_most: 300}",
            field="name",
        )
    rest = {key: value for key, value in spec.items() if key != "name"}
    return _build(spec["name"], rest)


# -- the checklist marker ----------------------------------------------------------------------

_MARKER_START = re.compile(r"(?<!\S)\{[ \t]*check[ \t]*:")
_MARKER_HELP = (
    "a check marker ends the line and is a YAML flow mapping, "
    "as in {check: word_count, at_most: 300}"
)


def split_marker(text: str) -> tuple[str, dict[str, Any] | None]:
    """Split a trailing `{check: name, arg: value}` marker off a checklist criterion.

    Returns the text before the marker and the marker's mapping, or `(text, None)` when there is
    no marker. Only a `{check:` that begins a word and whose mapping runs to the end of the text
    is a marker (`check` in lowercase), so criteria text is never misread. A `{check:` that
    runs to the end of the text without being a valid mapping raises `RubricError`.
    """
    stripped = text.rstrip()
    starts = list(_MARKER_START.finditer(stripped))
    if not starts:
        return text, None
    problem = ""
    for start in starts:
        # `{check:name}` is a slip YAML would read as one key; the marker's own key is forgiven.
        candidate = "{check: " + stripped[start.end() :].lstrip()
        try:
            data = yaml.safe_load(candidate)
        except yaml.YAMLError as exc:
            problem = problem or str(getattr(exc, "problem", None) or "not valid YAML")
            continue
        if isinstance(data, dict) and "check" in data:
            return stripped[: start.start()].rstrip(), data
        problem = problem or "no `check` key"
    if stripped.endswith("}") or "}" not in stripped[starts[-1].end() :]:
        marker = stripped[starts[0].start() :]
        raise RubricError(f"malformed check marker {marker!r} ({problem}); {_MARKER_HELP}")
    return text, None


def from_marker(data: Mapping[str, Any]) -> Check:
    """A check from a parsed marker mapping `{check: name, <arguments>}` or `{check: [...]}`.

    The checks of a list must all pass, each with its arguments inside it.
    """
    rest = {key: value for key, value in data.items() if key != "check"}
    if isinstance(data["check"], Mapping) and not rest:
        return from_spec(data["check"])  # `{check: {not: ...}}`
    if isinstance(data["check"], list):
        if rest:
            raise RubricError(
                f"a list of checks takes its arguments inside each check, not beside the list "
                f"(got {', '.join(map(str, rest))})"
            )
        return from_spec(data["check"])
    try:
        return _build(data["check"], rest)
    except RubricError as exc:
        if exc.field == "name":
            raise RubricError(exc.reason) from None
        raise


def to_marker(check: Check) -> str:
    """The checklist marker that `split_marker` reads back, `{check: word_count, at_most: 300}`.

    A combined check lists its parts: `{check: [{name: language, code: de}, all_capitals]}`;
    a negated one reads `{check: {not: {name: ends_with_punctuation, mark: "?"}}}`.
    """
    if check.negated is not None or check.scoped is not None or check.options:
        return "{check: " + _flow_spec(check.to_spec()) + "}"
    if check.parts:
        listed = ", ".join(
            "{" + ", ".join([f"name: {p.name}", *_flow_args(p)]) + "}" if p.args else p.name
            for p in check.parts
        )
        return "{check: [" + listed + "]}"
    return "{" + ", ".join([f"check: {check.name}", *_flow_args(check)]) + "}"


def _flow_spec(spec: Any) -> str:
    """A structured form (`Check.to_spec`) as one YAML flow value."""
    if isinstance(spec, Mapping):
        return "{" + ", ".join(f"{key}: {_flow_spec(value)}" for key, value in spec.items()) + "}"
    if isinstance(spec, list):
        return "[" + ", ".join(_flow_spec(item) for item in spec) + "]"
    return _flow(spec)


def _joined_field(head: str, tail: str | None) -> str:
    return head if not tail else f"{head}.{tail}" if not tail.startswith("[") else head + tail


def _flow_args(check: Check) -> list[str]:
    return [f"{key}: {_flow(value)}" for key, value in check.args]


# -- validation --------------------------------------------------------------------------------


def _build(name: Any, args: Mapping[Any, Any]) -> Check:
    info = describe(name)
    for key in args:
        if not isinstance(key, str):
            raise RubricError(f"{info.name}: argument names are strings, got {key!r}")
    return info.factory(**args)


def _bind(
    check: str, params: Sequence[Param], args: Sequence[Any], kwargs: Mapping[str, Any]
) -> dict[str, Any]:
    positional = [p for p in params if p.positional]
    if len(args) > len(positional):
        allowed = ", ".join(p.name for p in positional) or "none"
        raise RubricError(
            f"{check} takes {len(positional)} positional argument(s) ({allowed}), got {len(args)}"
        )
    given = {p.name: value for p, value in zip(positional, args, strict=False)}
    by_name = {p.name: p for p in params}
    for key, value in kwargs.items():
        if key not in by_name:
            close = difflib.get_close_matches(key, list(by_name), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            listed = ", ".join(by_name) or "none"
            colon = " (write `key: value`, with a space after the colon)" if ":" in key else ""
            raise RubricError(
                f"{check} has no argument {key!r}{hint}; its arguments: {listed}{colon}",
                field=key,
            )
        if key in given:
            raise RubricError(f"{check}: `{key}` is given twice", field=key)
        given[key] = value
    values: dict[str, Any] = {}
    for param in params:
        if param.name in given:
            values[param.name] = _validate(check, param, given[param.name])
        elif param.required:
            raise RubricError(
                f"{check} needs the argument `{param.name}` ({param.doc})", field=param.name
            )
        else:
            values[param.name] = param.default
    return values


def _validate(check: str, param: Param, value: Any) -> Any:
    if value is None and (param.default is None or param.nullable) and not param.required:
        return None
    kind = param.kind
    if kind == "strings":
        if isinstance(value, str):
            return (value,)
        if not isinstance(value, (list, tuple)):
            raise RubricError(
                f"{check}: expected {_KIND_WORDS[kind]}, got {value!r}", field=param.name
            )
        for index, item in enumerate(value):
            if not isinstance(item, str):
                hint = _YAML_TEXT_HINT if isinstance(item, bool) else ""
                raise RubricError(
                    f"{check}: expected a string, got {item!r}{hint}",
                    field=f"{param.name}[{index}]",
                )
        return tuple(value)
    expected: type = {"int": int, "str": str, "bool": bool}[kind]
    if isinstance(value, expected) and not (kind == "int" and isinstance(value, bool)):
        return value
    hint = _YAML_TEXT_HINT if kind == "str" and isinstance(value, bool) else ""
    raise RubricError(
        f"{check}: expected {_KIND_WORDS[kind]}, got {value!r}{hint}", field=param.name
    )


def _params(fn: Callable[..., Any]) -> tuple[Param, ...]:
    signature = inspect.signature(fn)
    hints = get_type_hints(fn)
    docs = _doc_section(inspect.getdoc(fn) or "", "Args")
    params: list[Param] = []
    for param in signature.parameters.values():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            # `**bounds: Unpack[CountBounds]`: the bounds of a counting check.
            bound_docs = _doc_section(inspect.getdoc(CountBounds) or "", "Attributes")
            for key, annotation in get_type_hints(CountBounds).items():
                params.append(
                    Param(
                        name=key,
                        kind=_kind(annotation),
                        required=False,
                        default=None,
                        doc=bound_docs.get(key, ""),
                        positional=False,
                    )
                )
            continue
        required = param.default is inspect.Parameter.empty
        params.append(
            Param(
                name=param.name,
                kind=_kind(hints[param.name]),
                required=required,
                default=None if required else param.default,
                doc=docs.get(param.name, ""),
                positional=param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD,
                nullable=type(None) in get_args(hints[param.name]),
            )
        )
    return tuple(params)


def _kind(annotation: Any) -> Kind:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return _kind(members[0])
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if annotation is str:
        return "str"
    if origin is Sequence and get_args(annotation) == (str,):
        return "strings"
    raise TypeError(f"unsupported check argument type {annotation!r}")


def _doc_section(doc: str, title: str) -> dict[str, str]:
    """`name: description` entries of a Google-style docstring section, joined to one line."""
    entries: dict[str, str] = {}
    current: str | None = None
    inside = False
    indent = 0
    for line in doc.splitlines():
        if line.strip() == f"{title}:":
            inside, current = True, None
            continue
        if not inside:
            continue
        if line.strip() and not line.startswith(" "):
            break  # the next section
        stripped = line.strip()
        if not stripped:
            continue
        depth = len(line) - len(line.lstrip())
        match = re.match(r"^\**(\w+)(?:\s*\([^)]*\))?:\s*(.*)$", stripped)
        if match and (current is None or depth <= indent):
            current, indent = match.group(1), depth
            entries[current] = match.group(2)
        elif current is not None:
            entries[current] = f"{entries[current]} {stripped}".strip()
    return entries


_UNSAFE_IN_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def _flow(value: Any) -> str:
    """A YAML flow value that reads back as `value` (JSON, minus what YAML or lines reject)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    text = json.dumps(value, ensure_ascii=False)
    return _UNSAFE_IN_YAML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
