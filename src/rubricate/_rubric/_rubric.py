"""Rubrics: the checklist of criteria that says what "done" looks like.

A rubric can be written as a Markdown-ish checklist string, a list of strings or dicts, a mapping
with a `criteria` list, or a `.md` / `.txt` / `.yaml` / `.yml` / `.json` file. Every form ends up as
one `Rubric` of `Criterion` objects with stable ids. Anything that cannot be read raises
`RubricError` naming the file, line or field, so the user can fix it at once.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeAlias

import yaml

from .._exceptions import RubricError
from ..checks import from_spec
from ._checklist import (
    checklist_line,
    joined_field,
    read_checklist,
    split_check,
    strip_optional,
    unique_id,
)
from ._criterion import Criterion

# `Criterion` lives in `_criterion.py`; it is exported here too, where the judge imports it.
__all__ = ["Criterion", "Rubric", "RubricLike"]

_ALLOWED_KEYS = frozenset({"id", "description", "required", "check"})
_FILE_SUFFIXES = {".md": "text", ".txt": "text", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}


@dataclass(frozen=True)
class Rubric:
    r"""An ordered, validated set of criteria with unique ids.

    If no criterion is marked required, all of them are (as in the reference scorer).

    Example:
        ```python
        rubric = Rubric.parse("- The poem has three lines\\n- (optional) It has a title")
        rubric = Rubric.from_file("rubric.yaml")
        ```

    """

    criteria: tuple[Criterion, ...] = ()
    source: str | None = field(default=None, compare=False)
    """The file the rubric was read from, for error messages."""

    def __post_init__(self) -> None:
        criteria = tuple(self.criteria)
        seen_ids: dict[str, int] = {}
        seen_text: dict[str, int] = {}
        for index, criterion in enumerate(criteria):
            if not isinstance(criterion, Criterion):
                raise RubricError(
                    f"expected a Criterion, got {type(criterion).__name__}",
                    source=self.source,
                    field=f"criteria[{index}]",
                )
            key = criterion.description.casefold()
            if key in seen_text:
                raise RubricError(
                    f"duplicate criterion {criterion.description!r} "
                    f"(same as criteria[{seen_text[key]}])",
                    source=self.source,
                    field=f"criteria[{index}]",
                )
            if criterion.id in seen_ids:
                raise RubricError(
                    f"duplicate criterion id {criterion.id!r} "
                    f"(same as criteria[{seen_ids[criterion.id]}])",
                    source=self.source,
                    field=f"criteria[{index}].id",
                )
            seen_text[key] = index
            seen_ids[criterion.id] = index
        if criteria and not any(c.required for c in criteria):
            criteria = tuple(replace(c, required=True) for c in criteria)
        object.__setattr__(self, "criteria", criteria)

    @classmethod
    def parse(cls, source: RubricLike) -> Rubric:
        """Build a rubric from any accepted form; raise `RubricError` naming what is wrong.

        A `str` is always checklist text (pass a `Path` or use `from_file` to read a file). The
        last texts parsed are remembered: a judge or scorer handed the same checklist on every
        call parses it once (a rubric is immutable, so sharing one is safe).
        """
        if isinstance(source, Rubric):
            return source
        if isinstance(source, Path):
            return cls.from_file(source)
        if isinstance(source, str):
            return _parse_checklist(source) if cls is Rubric else cls.from_text(source)
        if isinstance(source, Mapping):
            return cls.from_data(source)
        if isinstance(source, Sequence):
            return cls.from_data(list(source))
        raise RubricError(
            "a rubric must be checklist text, a list of criteria, a mapping with `criteria`, "
            f"a Path or a Rubric; got {type(source).__name__}"
        )

    @classmethod
    def from_text(cls, text: str, *, source: str | None = None) -> Rubric:
        """Parse a newline checklist: one criterion a line, list markers stripped.

        Rules: blank lines, Markdown headings, horizontal rules and code fences are skipped; a
        marker (`-`, `*`, `+`, `•`, `1.`, `1)`, optionally followed by `[ ]` or `[x]`) is stripped
        only when whitespace follows it; `(optional)` at the start or end marks the line optional;
        an indented line without a marker continues the criterion above it; a trailing
        `{check: name, arg: value}` names a catalogue check (`rubricate.checks`) that decides the
        criterion in code, and is not part of its description.
        """
        return cls(read_checklist(text, source=source), source=source)

    @classmethod
    def from_data(cls, data: Any, *, source: str | None = None) -> Rubric:
        """Build from a list of strings / dicts / `Criterion`, or a mapping with `criteria`."""
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - {"criteria"})
            if unknown:
                raise RubricError(
                    f"unknown key {unknown[0]!r}; a rubric mapping holds only `criteria`",
                    source=source,
                    field=str(unknown[0]),
                )
            if "criteria" not in data:
                raise RubricError("missing the `criteria` list", source=source, field="criteria")
            data = data["criteria"]
            prefix = "criteria"
        else:
            prefix = "criteria"
        if data is None:
            data = []
        if isinstance(data, str):
            return cls.from_text(data, source=source)
        if not isinstance(data, Sequence):
            raise RubricError(
                f"expected a list of criteria, got {type(data).__name__}",
                source=source,
                field=prefix,
            )
        items = [
            _criterion_from_item(item, source=source, where=f"{prefix}[{index}]")
            for index, item in enumerate(data)
        ]
        # Explicit ids are kept as written; a derived id that collides with any of them (earlier
        # or later in the list) or with an earlier derived id gets a suffix.
        explicit = frozenset(
            c.id for c, item in zip(items, data, strict=True) if _explicit_id(item)
        )
        criteria: list[Criterion] = []
        for criterion, item in zip(items, data, strict=True):
            if not _explicit_id(item) and (
                criterion.id in explicit or any(c.id == criterion.id for c in criteria)
            ):
                criterion = replace(criterion, id=unique_id(criterion.id, criteria, explicit))
            criteria.append(criterion)
        return cls(tuple(criteria), source=source)

    @classmethod
    def from_file(cls, path: str | Path) -> Rubric:
        """Load a `.md`, `.txt`, `.yaml`, `.yml` or `.json` rubric file."""
        path = Path(path)
        kind = _FILE_SUFFIXES.get(path.suffix.lower())
        name = str(path)
        if kind is None:
            raise RubricError(
                f"unsupported rubric file type {path.suffix or '(none)'!r}; "
                f"use one of {', '.join(sorted(_FILE_SUFFIXES))}",
                source=name,
            )
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RubricError("file not found", source=name) from None
        except UnicodeDecodeError as exc:
            raise RubricError(f"not valid UTF-8 at byte {exc.start}", source=name) from None
        except OSError as exc:
            raise RubricError(f"cannot read the file: {exc.strerror}", source=name) from None
        if kind == "text":
            return cls.from_text(text, source=name)
        if kind == "json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RubricError(
                    f"invalid JSON: {exc.msg}", source=name, line=exc.lineno
                ) from None
            return cls.from_data(data, source=name)
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else None
            problem = getattr(exc, "problem", None) or str(exc)
            raise RubricError(f"invalid YAML: {problem}", source=name, line=line) from None
        try:
            return cls.from_data(data, source=name)
        except RubricError as exc:
            if exc.field is None or exc.line is not None:
                raise
            line = _yaml_line(text, exc.field)
            if line is None:
                raise
            raise RubricError(exc.reason, source=name, line=line, field=exc.field) from None

    def __len__(self) -> int:
        return len(self.criteria)

    def __iter__(self) -> Iterator[Criterion]:
        return iter(self.criteria)

    def __bool__(self) -> bool:
        return bool(self.criteria)

    def __getitem__(self, criterion_id: str) -> Criterion:
        for criterion in self.criteria:
            if criterion.id == criterion_id:
                return criterion
        raise KeyError(criterion_id)

    @property
    def required(self) -> tuple[Criterion, ...]:
        """The criteria that gate completion."""
        return tuple(c for c in self.criteria if c.required)

    def to_text(self) -> str:
        """The rubric as a checklist string that `Rubric.parse` reads back."""
        return "\n".join(checklist_line(c) for c in self.criteria)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"criteria": [c.to_dict() for c in self.criteria]}


# Defined after `Rubric`, so that it is a real union at run time and not a string.
RubricLike: TypeAlias = (
    Rubric | str | Path | Sequence[str | Mapping[str, Any] | Criterion] | Mapping[str, Any]
)
"""Anything `Rubric.parse` accepts. A `str` is checklist text; pass a `Path` to read a file."""


@functools.lru_cache(maxsize=64)
def _parse_checklist(text: str) -> Rubric:
    return Rubric.from_text(text)  # a `RubricError` is raised afresh each time, never cached


def _explicit_id(item: Any) -> bool:
    if isinstance(item, Criterion):
        return True
    # A blank id is derived from the description, so it is not explicit.
    if not isinstance(item, Mapping):
        return False
    value = item.get("id")
    return isinstance(value, str) and bool(value.strip())


def _criterion_from_item(item: Any, *, source: str | None, where: str) -> Criterion:
    if isinstance(item, Criterion):
        return item
    if isinstance(item, str):
        body, optional = strip_optional(item.strip())
        body, check = split_check(body, source=source, where=where)
        if check is not None:
            body, also_optional = strip_optional(body)
            optional = optional or also_optional
        if not body:
            raise RubricError("empty criterion", source=source, field=where)
        return Criterion(description=body, required=not optional, check=check)
    if not isinstance(item, Mapping):
        raise RubricError(
            f"expected a string or a mapping, got {type(item).__name__}",
            source=source,
            field=where,
        )
    unknown = sorted(str(key) for key in item if key not in _ALLOWED_KEYS)
    if unknown:
        raise RubricError(
            f"unknown key {unknown[0]!r}; allowed keys are {', '.join(sorted(_ALLOWED_KEYS))}",
            source=source,
            field=f"{where}.{unknown[0]}",
        )
    if "description" not in item:
        raise RubricError("missing `description`", source=source, field=f"{where}.description")
    check = item.get("check")
    # A catalogue check: `word_count`, `{name: ...}`, or a list of those that must all pass.
    if isinstance(check, (str, Mapping, list)):
        try:
            check = from_spec(check)
        except RubricError as exc:
            raise RubricError(
                exc.reason, source=source, field=joined_field(f"{where}.check", exc.field)
            ) from None
    elif check is not None and not callable(check):
        raise RubricError(
            "expected a catalogue check (a name, or a mapping with `name` and its arguments) "
            f"or a callable, got {type(check).__name__}",
            source=source,
            field=f"{where}.check",
        )
    try:
        return Criterion(
            description=item["description"],
            id=item.get("id") or "",
            required=item.get("required", True),
            check=check,
        )
    except RubricError as exc:
        raise RubricError(exc.reason, source=source, field=f"{where}.{exc.field}") from None


def _yaml_line(text: str, field_path: str) -> int | None:
    """Find the 1-based line of a `criteria[2].required`-style path in YAML text.

    Walks as deep as the document goes, so a missing key points at the mapping that lacks it.
    """
    try:
        node: Any = yaml.compose(text)
    except yaml.YAMLError:
        return None
    if node is None:
        return None
    line = int(node.start_mark.line)
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", field_path):
        if part.startswith("[") and isinstance(node, yaml.SequenceNode):
            index = int(part[1:-1])
            if index >= len(node.value):
                break
            node = node.value[index]
        elif isinstance(node, yaml.MappingNode):
            pairs = [(k, v) for k, v in node.value if getattr(k, "value", None) == part]
            if not pairs:
                break
            key, node = pairs[0]
            line = int(key.start_mark.line)
            continue
        elif part == "criteria" and isinstance(node, yaml.SequenceNode):
            continue  # a bare list is reported as `criteria[...]`
        else:
            break
        line = int(node.start_mark.line)
    return line + 1
