"""The lines of a batch: input items and result lines, read and checked one at a time.

Input lines are objects `{"id", "output", "task"?, "rubric"?}`; a line's own `rubric` (checklist
text, a list of criteria or a `{"criteria": [...]}` mapping) overrides the batch rubric. A line
that cannot be graded becomes a `LineProblem` naming the file, the line and what is wrong; a
result line is read back field by field, never trusted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

from .._exceptions import RubricError
from .._rubric._rubric import Rubric
from .._types import CriterionVerdict, EvaluationResult, Usage
from ._streaming import LineProblem, iter_jsonl, valid_item_id

__all__ = [
    "GradeItem",
    "ItemId",
    "ItemResult",
    "iter_items",
    "iter_results",
    "json_type",
    "parse_item",
]

ItemId: TypeAlias = str | int
"""An input item's id: a non-empty string or an integer, written back exactly as given."""

_RESULTS = frozenset({"satisfied", "needs_revision", "failed", "grader_error"})


@dataclass(kw_only=True, frozen=True)
class GradeItem:
    """One input line to grade."""

    id: ItemId
    output: str
    task: str = ""
    rubric: Rubric | None = None
    """The line's own rubric, overriding the batch rubric."""
    line: int = 0
    """1-based line number in the input file."""


@dataclass(kw_only=True, frozen=True)
class ItemResult:
    """The result line written for one input item."""

    id: ItemId
    line: int
    """The item's line number in the input file (results are written in completion order)."""
    score: float
    """1 when every required criterion passed, else 0 (see `RubricScorer`)."""
    passed: bool
    result: EvaluationResult
    criteria: tuple[CriterionVerdict, ...] = ()
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    error: str | None = None
    """Why the item could not be graded (the judge failed after its retries), or `None`."""
    cached: bool = False
    """True when the verdicts were reused from an identical item graded earlier."""
    cache_of: ItemId | None = None
    """The id of the item whose verdicts were reused."""
    model: str | None = None
    mode: str | None = None
    cache_key: str | None = None
    """Digest of (rubric, output, task, judge settings); `None` when the result is not reusable."""

    @property
    def failed_criteria(self) -> tuple[CriterionVerdict, ...]:
        """The verdicts that did not pass, required or not."""
        return tuple(v for v in self.criteria if not v.passed)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the result line's fields."""
        data: dict[str, Any] = {
            "id": self.id,
            "line": self.line,
            "score": self.score,
            "passed": self.passed,
            "result": self.result,
            "criteria": [v.to_dict() for v in self.criteria],
            "usage": self.usage.to_dict(),
            "latency_s": round(self.latency_s, 4),
            "error": self.error,
            "cached": self.cached,
            "model": self.model,
            "mode": self.mode,
        }
        if self.cache_of is not None:
            data["cache_of"] = self.cache_of
        if self.cache_key is not None:
            data["cache_key"] = self.cache_key
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ItemResult:
        """Read a result line back; raise `ValueError` when it is not one."""
        item_id = data.get("id")
        if not valid_item_id(item_id):
            raise ValueError(f"no valid `id` (got {item_id!r})")
        result = data.get("result")
        if result not in _RESULTS:
            raise ValueError(f"`result` must be one of {sorted(_RESULTS)}, got {result!r}")
        raw_usage = data.get("usage")
        usage: Mapping[str, Any] = raw_usage if isinstance(raw_usage, Mapping) else {}
        return cls(
            id=item_id,
            line=_int(data.get("line")),
            score=float(data.get("score") or 0),
            passed=bool(data.get("passed")),
            result=result,
            criteria=tuple(_verdict(v) for v in data.get("criteria") or ()),
            usage=Usage(
                input_tokens=_int(usage.get("input_tokens")),
                output_tokens=_int(usage.get("output_tokens")),
                calls=_int(usage.get("calls")),
            ),
            latency_s=float(data.get("latency_s") or 0),
            error=data.get("error") if isinstance(data.get("error"), str) else None,
            cached=bool(data.get("cached")),
            cache_of=data.get("cache_of") if valid_item_id(data.get("cache_of")) else None,
            model=data.get("model") if isinstance(data.get("model"), str) else None,
            mode=data.get("mode") if isinstance(data.get("mode"), str) else None,
            cache_key=data.get("cache_key") if isinstance(data.get("cache_key"), str) else None,
        )


def parse_item(value: Any, *, line: int, path: str) -> GradeItem | LineProblem:
    """Check one parsed input line; a `LineProblem` says what is wrong with it."""

    def problem(reason: str) -> LineProblem:
        return LineProblem(path=path, line=line, reason=reason)

    if not isinstance(value, dict):
        return problem(f"expected a JSON object, got {json_type(value)}")
    if "id" not in value:
        return problem("missing `id`")
    item_id = value["id"]
    if not valid_item_id(item_id):
        return problem(f"`id` must be a non-empty string or an integer, got {item_id!r}")
    where = f"id {item_id!r}: "
    if "output" not in value:
        return problem(f"{where}missing `output`")
    output = value["output"]
    if not isinstance(output, str):
        return problem(f"{where}`output` must be a string, got {json_type(output)}")
    task = value.get("task")
    if task is not None and not isinstance(task, str):
        return problem(f"{where}`task` must be a string, got {json_type(task)}")
    rubric: Rubric | None = None
    if value.get("rubric") is not None:
        try:
            rubric = Rubric.parse(value["rubric"])
        except RubricError as exc:
            return problem(f"{where}`rubric`: {exc}")
        if not rubric:
            return problem(f"{where}`rubric` has no criteria")
    return GradeItem(id=item_id, output=output, task=task or "", rubric=rubric, line=line)


def iter_items(source: Path, *, batch_rubric: bool) -> Iterator[GradeItem | LineProblem]:
    """Every line of the input file as an item to grade, or as the problem that skips it.

    Beyond `parse_item`: a line with no rubric when there is no batch rubric, and a repeated
    id (the first line with an id wins), are problems too. Items already graded are not
    filtered out here; that is the caller's resume step.
    """
    first_line: dict[ItemId, int] = {}
    for entry in iter_jsonl(source):
        item = (
            entry
            if isinstance(entry, LineProblem)
            else parse_item(entry.value, line=entry.line, path=str(source))
        )
        if isinstance(item, GradeItem) and item.rubric is None and not batch_rubric:
            item = LineProblem(
                path=str(source),
                line=item.line,
                reason=f"id {item.id!r}: no `rubric` field and no batch rubric (--rubric)",
            )
        if isinstance(item, GradeItem) and item.id in first_line:
            item = LineProblem(
                path=str(source),
                line=item.line,
                reason=f"duplicate id {item.id!r} (first on line {first_line[item.id]})",
            )
        if isinstance(item, GradeItem):
            first_line[item.id] = item.line
        yield item


def iter_results(path: str | Path) -> Iterator[ItemResult]:
    """Stream the results file: the first result of each id, unreadable lines skipped."""
    seen: set[ItemId] = set()
    for entry in iter_jsonl(path):
        if isinstance(entry, LineProblem) or not isinstance(entry.value, dict):
            continue
        try:
            result = ItemResult.from_dict(entry.value)
        except (TypeError, ValueError):
            continue
        if result.id not in seen:
            seen.add(result.id)
            yield result


def _verdict(data: Any) -> CriterionVerdict:
    if not isinstance(data, Mapping):
        raise ValueError(f"a criterion verdict must be an object, got {json_type(data)}")
    decided_by = data.get("decided_by")
    return CriterionVerdict(
        id=str(data.get("id", "")),
        name=str(data.get("name", "")),
        passed=bool(data.get("passed")),
        gap=str(data.get("gap") or ""),
        reason=str(data.get("reason") or ""),
        required=bool(data.get("required", True)),
        decided_by="check" if decided_by == "check" else "judge",
        unverified=bool(data.get("unverified")),
        unscorable=bool(data.get("unscorable")),
        confidence=_probability(data.get("confidence")),
        unsure=bool(data.get("unsure")),
    )


def _probability(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if 0.0 <= value <= 1.0 else None


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def json_type(value: Any) -> str:
    """What a JSON value is, for error messages (`an object`, `null`, `a number`...)."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)
