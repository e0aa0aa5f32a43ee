"""What a batch grading run reports: totals over the results file, per criterion and per run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._types import Usage
from ._items import ItemResult
from ._streaming import LineProblem

__all__ = ["MAX_PROBLEMS_KEPT", "CriterionStats", "GradeSummary"]

MAX_PROBLEMS_KEPT = 100
"""Line problems kept on the summary (all of them are counted and reported as they happen)."""


@dataclass(kw_only=True)
class CriterionStats:
    """How often one criterion (by id) passed across the graded items."""

    id: str
    name: str
    required: bool = True
    passed: int = 0
    total: int = 0

    @property
    def pass_rate(self) -> float | None:
        """Passed over graded, or `None` when never graded."""
        return self.passed / self.total if self.total else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id,
            "name": self.name,
            "required": self.required,
            "passed": self.passed,
            "total": self.total,
            "pass_rate": self.pass_rate,
        }


@dataclass(kw_only=True)
class GradeSummary:
    """Totals over the whole results file (earlier runs included) and this run's own counts.

    This is report data only; `rubricate._report` draws it.
    """

    input_path: str
    results_path: str
    judge: str
    mode: str
    items: int = 0
    """Distinct items in the results file: resumed plus graded in this run."""
    passed: int = 0
    errors: int = 0
    """Items recorded with an error (the judge failed on them)."""
    unsure: int = 0
    """Verdicts whose confidence lies in the uncertainty band: the ones a person should check."""
    criteria: dict[str, CriterionStats] = field(default_factory=dict)
    """Per criterion id, in the order first seen."""
    usage: Usage = field(default_factory=Usage)
    """Judge usage over every result in the file."""
    graded: int = 0
    """Items graded in this run, cache hits included."""
    cache_hits: int = 0
    resumed: int = 0
    """Results already in the results file when the run started (their ids were skipped)."""
    malformed: int = 0
    """Input lines skipped this run: unreadable, wrong fields, bad rubric, duplicate id."""
    problems: list[LineProblem] = field(default_factory=list)
    """The first `MAX_PROBLEMS_KEPT` skipped input lines."""
    unreadable_results: int = 0
    """Lines of the results file that could not be read back (their items are graded again)."""
    run_usage: Usage = field(default_factory=Usage)
    """Judge usage of this run only."""
    wall_s: float = 0.0
    """Wall time of this run."""

    @property
    def graded_items(self) -> int:
        """Items with verdicts: every item except those recorded with an error."""
        return self.items - self.errors

    @property
    def pass_rate(self) -> float | None:
        """Passed over items with verdicts, or `None` when there are none."""
        return self.passed / self.graded_items if self.graded_items else None

    @property
    def ok(self) -> bool:
        """No item failed to grade and no input line was skipped."""
        return self.errors == 0 and self.malformed == 0

    def add(self, result: ItemResult, *, resumed: bool = False) -> None:
        """Count one result: one already in the results file, or one graded in this run."""
        self.items += 1
        self.usage = self.usage + result.usage
        if resumed:
            self.resumed += 1
        else:
            self.graded += 1
            self.cache_hits += result.cached
            self.run_usage = self.run_usage + result.usage
        if result.error is not None or result.result == "grader_error":
            self.errors += 1
            return
        self.passed += result.passed
        self.unsure += sum(v.unsure for v in result.criteria)
        for verdict in result.criteria:
            stats = self.criteria.get(verdict.id)
            if stats is None:
                stats = CriterionStats(id=verdict.id, name=verdict.name, required=verdict.required)
                self.criteria[verdict.id] = stats
            stats.total += 1
            stats.passed += verdict.passed

    def add_problem(self, problem: LineProblem) -> None:
        """Count one skipped input line."""
        self.malformed += 1
        if len(self.problems) < MAX_PROBLEMS_KEPT:
            self.problems.append(problem)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "input": self.input_path,
            "results": self.results_path,
            "judge": self.judge,
            "mode": self.mode,
            "items": self.items,
            "passed": self.passed,
            "errors": self.errors,
            "unsure": self.unsure,
            "pass_rate": self.pass_rate,
            "criteria": [s.to_dict() for s in self.criteria.values()],
            "usage": self.usage.to_dict(),
            "graded": self.graded,
            "cache_hits": self.cache_hits,
            "resumed": self.resumed,
            "malformed": self.malformed,
            "problems": [p.to_dict() for p in self.problems],
            "unreadable_results": self.unreadable_results,
            "run_usage": self.run_usage.to_dict(),
            "wall_s": round(self.wall_s, 3),
        }
