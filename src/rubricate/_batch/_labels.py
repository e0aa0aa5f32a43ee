"""Labelled items: outputs with reference verdicts per criterion, read and checked line by line.

The format is `judge-bench`'s: `id`, `source`, `task`, `output`, and `criteria` each with a
boolean `label` ("positive" means the criterion is satisfied). A line that does not fit becomes a
`LineProblem` that says what is wrong and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._exceptions import RubricError
from .._rubric._criterion import Criterion
from .._rubric._rubric import Rubric
from ._streaming import LineProblem, valid_item_id

__all__ = ["LabelledCriterion", "LabelledItem", "parse_labelled"]


@dataclass(kw_only=True, frozen=True)
class LabelledCriterion:
    """One criterion of a labelled item, with its reference verdict."""

    id: str
    description: str
    label: bool
    """True when the output satisfies the criterion."""


@dataclass(kw_only=True, frozen=True)
class LabelledItem:
    """One labelled line: an output, its task, and criteria with reference labels."""

    id: str
    source: str
    output: str
    task: str = ""
    criteria: tuple[LabelledCriterion, ...]
    rubric: Rubric
    """The criteria as a rubric, ids `c1`, `c2`... (labelled ids may repeat within an item)."""
    path: str = ""
    line: int = 0


def parse_labelled(value: Any, *, line: int, path: str) -> LabelledItem | LineProblem:
    """Check one labelled line; a `LineProblem` says what is wrong with it."""

    def problem(reason: str) -> LineProblem:
        return LineProblem(path=path, line=line, reason=reason)

    if not isinstance(value, dict):
        return problem("expected a JSON object")
    item_id = value.get("id")
    if not valid_item_id(item_id):
        return problem(f"`id` must be a non-empty string or an integer, got {item_id!r}")
    where = f"id {item_id!r}: "
    output, task, source = value.get("output"), value.get("task"), value.get("source")
    if not isinstance(output, str):
        return problem(f"{where}`output` must be a string")
    if task is not None and not isinstance(task, str):
        return problem(f"{where}`task` must be a string")
    if source is not None and not isinstance(source, str):
        return problem(f"{where}`source` must be a string")
    raw = value.get("criteria")
    if not isinstance(raw, list) or not raw:
        return problem(f"{where}`criteria` must be a non-empty list")
    criteria: list[LabelledCriterion] = []
    for index, entry in enumerate(raw):
        at = f"{where}criteria[{index}]"
        if not isinstance(entry, dict):
            return problem(f"{at}: expected an object")
        if not isinstance(entry.get("description"), str):
            return problem(f"{at}.description: expected a string")
        if not isinstance(entry.get("label"), bool):
            return problem(f"{at}.label: expected true or false, got {entry.get('label')!r}")
        criterion_id = entry.get("id", f"criterion-{index + 1}")
        if not isinstance(criterion_id, str):
            return problem(f"{at}.id: expected a string")
        criteria.append(
            LabelledCriterion(
                id=criterion_id, description=entry["description"], label=entry["label"]
            )
        )
    try:
        rubric = Rubric(
            tuple(
                Criterion(id=f"c{i}", description=c.description)
                for i, c in enumerate(criteria, start=1)
            )
        )
    except RubricError as exc:
        return problem(f"{where}{exc}")
    return LabelledItem(
        id=str(item_id),
        source=source or "unknown",
        output=output,
        task=task or "",
        criteria=tuple(criteria),
        rubric=rubric,
        path=path,
        line=line,
    )
