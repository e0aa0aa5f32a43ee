"""The checklist text form of a rubric, read and written: one criterion a line.

`read_checklist` reads what people write (list markers, checkboxes, `(optional)`, continuation
lines, a trailing `{check: ...}` marker) and `checklist_line` writes a criterion back so that it
reads the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .._exceptions import RubricError
from ..checks import Check
from ..checks._registry import from_marker, split_marker, to_marker
from ._criterion import Criterion

__all__ = [
    "checklist_line",
    "joined_field",
    "read_checklist",
    "split_check",
    "strip_optional",
    "unique_id",
]

# A list marker counts only when whitespace follows it, so "3.14 is mentioned" stays intact.
_MARKER = re.compile(r"^(?:[-*+•]|\d{1,9}[.)])(?:\s+|$)")
_CHECKBOX = re.compile(r"^\[[ xX]\](?:\s+|$)")
_HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_RULE = re.compile(r"^(?:([-*_=])\s*)\1\s*\1[\s\-*_=]*$")
_OPTIONAL = re.compile(r"^\(optional\)\s*|\s*\(optional\)$", re.IGNORECASE)


def read_checklist(text: str, *, source: str | None = None) -> tuple[Criterion, ...]:
    """The criteria of a newline checklist, in order, with unique ids (see `Rubric.from_text`)."""
    criteria: list[tuple[int, list[str], bool]] = []  # (line number, parts, required)
    last_lines: list[int] = []  # where each criterion ends: a check marker is there
    previous_was_item = False
    in_fence = False
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            in_fence = not in_fence
            previous_was_item = False
            continue
        if in_fence or not stripped or _HEADING.match(stripped) or _RULE.match(stripped):
            previous_was_item = False
            continue
        marker = _MARKER.match(stripped)
        if previous_was_item and not marker and raw[:1].isspace():
            criteria[-1][1].append(stripped)
            last_lines[-1] = number
            continue
        body = stripped[marker.end() :] if marker else stripped
        if marker:
            checkbox = _CHECKBOX.match(body)
            if checkbox:
                body = body[checkbox.end() :]
        body, optional = strip_optional(body)
        if not body:
            raise RubricError(f"empty criterion in {raw.strip()!r}", source=source, line=number)
        criteria.append((number, [body], not optional))
        last_lines.append(number)
        previous_was_item = True
    built: list[Criterion] = []
    lines: dict[str, int] = {}
    for (number, parts, required), last_line in zip(criteria, last_lines, strict=True):
        description, check = split_check(" ".join(parts), source=source, line=last_line)
        # `(optional)` may end the last continuation line or stand before the check marker.
        if len(parts) > 1 or check is not None:
            description, optional = strip_optional(description)
            required = required and not optional
        criterion = Criterion(description=description, required=required, check=check)
        key = criterion.description.casefold()
        if key in lines:
            raise RubricError(
                f"duplicate criterion {criterion.description!r} (already on line {lines[key]})",
                source=source,
                line=number,
            )
        if any(c.id == criterion.id for c in built):
            criterion = replace(criterion, id=unique_id(criterion.id, built))
        lines[key] = number
        built.append(criterion)
    return tuple(built)


def checklist_line(criterion: Criterion) -> str:
    """A criterion as one checklist line that `read_checklist` reads back."""
    body = f"{'(optional) ' if not criterion.required else ''}{criterion.description}"
    line = f"- {body}"
    # A description like "[x] done" or "--" would lose its checkbox or read as a rule: an
    # explicit empty checkbox keeps `Rubric.parse` from eating it.
    if _CHECKBOX.match(body) or _RULE.match(line):
        line = f"- [ ] {body}"
    if isinstance(criterion.check, Check):
        line = f"{line} {to_marker(criterion.check)}"
    return line


def split_check(
    text: str, *, source: str | None, line: int | None = None, where: str | None = None
) -> tuple[str, Check | None]:
    """Split a trailing `{check: ...}` marker off a checklist criterion and build its check."""
    try:
        body, marker = split_marker(text)
        check = from_marker(marker) if marker is not None else None
    except RubricError as exc:
        field = joined_field(f"{where}.check" if where else "check", exc.field)
        raise RubricError(exc.reason, source=source, line=line, field=field) from None
    if check is not None and not body.strip():
        raise RubricError(
            "a check marker needs the criterion's description before it",
            source=source,
            line=line,
            field=f"{where}.check" if where else "check",
        )
    return body, check


def joined_field(prefix: str, field: str | None) -> str:
    """`prefix` and a nested field path as one path (`criteria[0].check.at_most`)."""
    if not field:
        return prefix
    return f"{prefix}{field}" if field.startswith("[") else f"{prefix}.{field}"


def unique_id(
    base: str, existing: Sequence[Criterion], reserved: frozenset[str] = frozenset()
) -> str:
    """`base` with the first free `-N` suffix."""
    taken = {c.id for c in existing} | reserved
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def strip_optional(body: str) -> tuple[str, bool]:
    """The text without an `(optional)` at either end, and whether there was one."""
    stripped, count = _OPTIONAL.subn("", body, count=1)
    return stripped.strip(), count > 0
