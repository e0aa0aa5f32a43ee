"""Batch grading: a JSONL file of outputs in, one JSON result line per item out.

Input lines are objects `{"id", "output", "task"?, "rubric"?}`; a line's own `rubric` (checklist
text, a list of criteria or a `{"criteria": [...]}` mapping) overrides the batch rubric.

How a batch stays cheap and safe to interrupt:

- **Streaming.** The input is read one line at a time, only as fast as workers free up.
- **Append-only results.** Each result is one JSON line, written with a single unbuffered write
  the moment it is ready, so Ctrl-C (or a crash) loses no finished result.
- **Resume.** Ids already in the results file are skipped, whatever their result; delete a
  line to have that item graded again. A torn last line (a hard kill mid-write) is reported and
  its item graded again.
- **Cache.** Identical work (same rubric, output, task and judge settings) is graded once: later
  copies, including copies in flight at the same moment, reuse the first one's verdicts. The
  cache holds only where that result sits in the results file (a few bytes a distinct item) and
  reads it back on a hit; a result recorded with an error is never reused. Rubrics with code
  checks are not cached (a Python callable has no stable identity to key on).
- **Failures are data.** A malformed line is reported with its line number and skipped; a judge
  failure on one item is recorded on that item (`error`), and the batch goes on.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeAlias

from .._exceptions import RubricError
from .._judge._judge import Judge
from .._judge._scorer import RubricScorer
from .._models import ModelLike
from .._rubric._rubric import Rubric, RubricLike
from .._sync import run_sync
from .._types import CriterionVerdict, EvaluationResult, Usage
from ._streaming import (
    BatchProgress,
    JsonLine,
    LineProblem,
    count_lines,
    evaluate_item,
    iter_jsonl,
    run_bounded,
    valid_item_id,
)

__all__ = [
    "CriterionStats",
    "GradeItem",
    "GradeSummary",
    "ItemId",
    "ItemResult",
    "agrade_file",
    "default_results_path",
    "grade_file",
    "grade_item",
    "iter_items",
    "iter_results",
    "parse_item",
    "results_target",
]

ItemId: TypeAlias = str | int
"""An input item's id: a non-empty string or an integer, written back exactly as given."""

MAX_PROBLEMS_KEPT = 100
"""Line problems kept on the summary (all of them are counted and reported as they happen)."""

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

    This is report data only; `rubricate._batch._render` and `rubricate._batch._report` draw it.
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


def default_results_path(input_path: str | Path) -> Path:
    """`outputs.jsonl` -> `outputs.results.jsonl`, next to the input."""
    path = Path(input_path)
    return path.with_name(f"{path.stem}.results.jsonl")


def results_target(source: Path, results_path: str | Path | None) -> Path:
    """Where the results of `source` go; raise `ValueError` when that is the input itself."""
    target = Path(results_path) if results_path is not None else default_results_path(source)
    if target.exists() and source.exists() and target.resolve() == source.resolve():
        raise ValueError(f"the results file must not be the input file ({str(source)!r})")
    return target


def parse_item(value: Any, *, line: int, path: str) -> GradeItem | LineProblem:
    """Check one parsed input line; a `LineProblem` says what is wrong with it."""

    def problem(reason: str) -> LineProblem:
        return LineProblem(path=path, line=line, reason=reason)

    if not isinstance(value, dict):
        return problem(f"expected a JSON object, got {_json_type(value)}")
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
        return problem(f"{where}`output` must be a string, got {_json_type(output)}")
    task = value.get("task")
    if task is not None and not isinstance(task, str):
        return problem(f"{where}`task` must be a string, got {_json_type(task)}")
    rubric: Rubric | None = None
    if value.get("rubric") is not None:
        try:
            rubric = Rubric.parse(value["rubric"])
        except RubricError as exc:
            return problem(f"{where}`rubric`: {exc}")
        if not rubric:
            return problem(f"{where}`rubric` has no criteria")
    return GradeItem(id=item_id, output=output, task=task or "", rubric=rubric, line=line)


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


def grade_file(
    input_path: str | Path,
    results_path: str | Path | None = None,
    *,
    judge: Judge | ModelLike = "local",
    rubric: RubricLike | None = None,
    concurrency: int = 1,
    progress: BatchProgress | None = None,
) -> GradeSummary:
    """Grade a JSONL file synchronously; see `agrade_file`."""
    return run_sync(
        agrade_file(
            input_path,
            results_path,
            judge=judge,
            rubric=rubric,
            concurrency=concurrency,
            progress=progress,
        )
    )


async def agrade_file(
    input_path: str | Path,
    results_path: str | Path | None = None,
    *,
    judge: Judge | ModelLike = "local",
    rubric: RubricLike | None = None,
    concurrency: int = 1,
    progress: BatchProgress | None = None,
) -> GradeSummary:
    r"""Grade every line of a JSONL file and append one result line per item to `results_path`.

    Args:
        input_path: JSONL, one `{"id", "output", "task"?, "rubric"?}` object a line.
        results_path: Where results go (appended; ids already there are skipped). Defaults to
            `<input stem>.results.jsonl` next to the input.
        judge: A `Judge`, or a model for a default one (`"local"`, `"provider:model-id"`...).
        rubric: The batch rubric; a line's own `rubric` overrides it. A line with neither is
            reported as malformed.
        concurrency: Items graded at once. The embedded model runs one call at a time, so on it
            this is always 1; it helps remote judges.
        progress: Receives an event per finished item and per skipped line.

    Returns:
        The summary over the whole results file, with this run's own counts.

    Raises:
        RubricError: `rubric` cannot be parsed or has no criteria.
        ValueError: Bad arguments, such as the results file being the input file.

    Example:
        ```python
        summary = await agrade_file(
            "outputs.jsonl", "results.jsonl",
            judge=Judge("openai:gpt-5-mini"), rubric="- Cites a source\n- Under 100 words",
            concurrency=8,
        )
        summary.pass_rate, summary.errors
        ```

    """
    started = time.perf_counter()
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"`concurrency` must be an int >= 1, got {concurrency!r}")
    judge = judge if isinstance(judge, Judge) else Judge(judge)
    default_rubric = _batch_rubric(rubric)
    source = Path(input_path)
    target = results_target(source, results_path)
    if judge.local:
        concurrency = 1  # one llama.cpp context: calls would only queue, and evict its KV cache
    progress = progress or BatchProgress()
    summary = GradeSummary(
        input_path=str(source), results_path=str(target), judge=judge.model_name, mode=judge.mode
    )
    scorer = RubricScorer(judge, None)
    fingerprint = _judge_fingerprint(judge)

    with _ResultsFile(target) as results:
        cache = _Cache(results)
        done = _resume(results, cache, summary, progress)
        progress.start(total=_pending(source, done))

        def items() -> Iterator[GradeItem]:
            for item in iter_items(source, batch_rubric=default_rubric is not None):
                if isinstance(item, LineProblem):
                    summary.add_problem(item)
                    progress.problem(item)
                elif item.id not in done:
                    yield item

        async def grade(item: GradeItem) -> None:
            item_rubric = item.rubric or default_rubric
            assert item_rubric is not None  # lines without any rubric were reported above
            result = await _grade_one(item, item_rubric, judge, scorer, cache, fingerprint)
            summary.add(result)
            progress.done(
                passed=result.passed, error=result.error is not None, cached=result.cached
            )

        await run_bounded(items(), grade, concurrency=concurrency)
    summary.wall_s = time.perf_counter() - started
    return summary


async def _grade_one(
    item: GradeItem,
    rubric: Rubric,
    judge: Judge,
    scorer: RubricScorer,
    cache: _Cache,
    fingerprint: Mapping[str, Any],
) -> ItemResult:
    key = _cache_key(rubric, item, fingerprint)
    if key is not None:
        while (found := cache.lookup(key)) is not None:
            if isinstance(found, dict):
                result = _from_cached(item, found, key)
                cache.results.append(result)
                return result
            await found.wait()  # an identical item is being graded right now
        cache.claim(key)
    offset: int | None = None
    try:
        result = await grade_item(item, rubric, judge, scorer, key)
        written = cache.results.append(result)
        offset = written if result.error is None else None
        return result
    finally:
        if key is not None:
            cache.release(key, offset)


async def grade_item(
    item: GradeItem, rubric: Rubric, judge: Judge, scorer: RubricScorer, key: str | None
) -> ItemResult:
    """Grade one item: its result line, with a judge failure recorded (redacted), never raised.

    The per-item step every engine shares: this process (`agrade_file`) and Ray's actors.
    """
    evaluation = await evaluate_item(judge, rubric, output=item.output, task=item.task)
    scored = scorer.score(evaluation)
    error = evaluation.explanation if evaluation.result == "grader_error" else None
    return ItemResult(
        id=item.id,
        line=item.line,
        score=float(scored.score),
        passed=scored.passed,
        result=evaluation.result,
        criteria=evaluation.criteria,
        usage=evaluation.usage,
        latency_s=evaluation.latency_s,
        error=error,
        model=evaluation.model or judge.model_name,
        mode=evaluation.mode or judge.mode,
        cache_key=key if error is None else None,
    )


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


def _resume(
    results: _ResultsFile, cache: _Cache, summary: GradeSummary, progress: BatchProgress
) -> set[ItemId]:
    """Count the results already in the file; return their ids and remember reusable ones."""
    done: set[ItemId] = set()
    for offset, entry in results.scan():
        if isinstance(entry, LineProblem):
            summary.unreadable_results += 1
            progress.problem(entry)
            continue
        if entry.id in done:
            continue
        done.add(entry.id)
        summary.add(entry, resumed=True)
        if entry.cache_key is not None and entry.error is None:
            cache.remember(entry.cache_key, offset)
    return done


def _from_cached(item: GradeItem, stored: Mapping[str, Any], key: str) -> ItemResult:
    original = ItemResult.from_dict(stored)
    return ItemResult(
        id=item.id,
        line=item.line,
        score=original.score,
        passed=original.passed,
        result=original.result,
        criteria=original.criteria,
        latency_s=0.0,
        cached=True,
        cache_of=original.cache_of if original.cache_of is not None else original.id,
        model=original.model,
        mode=original.mode,
        cache_key=key,
    )


class _ResultsFile:
    """The append-only results file: one unbuffered write per result line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> _ResultsFile:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer: BinaryIO = open(self.path, "ab", buffering=0)
        self._reader: BinaryIO = open(self.path, "rb")
        end = self._writer.tell()
        if end:
            self._reader.seek(end - 1)
            if self._reader.read(1) != b"\n":  # a torn last line: start ours on a fresh one
                self._write(b"\n")
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._writer.close()
        self._reader.close()

    def scan(self) -> Iterator[tuple[int, ItemResult | LineProblem]]:
        """Every result already in the file, with its byte offset; unreadable lines as problems."""
        for entry in iter_jsonl(self.path):
            if isinstance(entry, JsonLine):
                try:
                    if not isinstance(entry.value, dict):
                        raise ValueError(f"expected a JSON object, got {_json_type(entry.value)}")
                    yield entry.offset, ItemResult.from_dict(entry.value)
                    continue
                except (TypeError, ValueError) as exc:
                    entry = LineProblem(path=str(self.path), line=entry.line, reason=str(exc))
            yield (
                0,
                LineProblem(
                    path=entry.path,
                    line=entry.line,
                    reason=f"unreadable result, its item will be graded again: {entry.reason}",
                ),
            )

    def append(self, result: ItemResult) -> int:
        """Write one result line; return its byte offset."""
        offset = self._writer.tell()
        line = json.dumps(result.to_dict(), ensure_ascii=False) + "\n"
        self._write(line.encode("utf-8"))
        return offset

    def read(self, offset: int) -> dict[str, Any]:
        """The result line at `offset`, as written."""
        self._reader.seek(offset)
        value = json.loads(self._reader.readline())
        if not isinstance(value, dict):
            raise ValueError(f"no result line at offset {offset} of {self.path}")
        return value

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = self._writer.write(view)
            view = view[written or 0 :]


class _Cache:
    """Where reusable results sit in the results file, and which keys are being graded now."""

    def __init__(self, results: _ResultsFile) -> None:
        self.results = results
        self._offsets: dict[str, int] = {}
        self._pending: dict[str, asyncio.Event] = {}

    def remember(self, key: str, offset: int) -> None:
        self._offsets.setdefault(key, offset)

    def lookup(self, key: str) -> dict[str, Any] | asyncio.Event | None:
        """The stored result for `key`, a handle to wait on while it is graded, or `None`."""
        if key in self._offsets:
            return self.results.read(self._offsets[key])
        return self._pending.get(key)

    def claim(self, key: str) -> None:
        self._pending[key] = asyncio.Event()

    def release(self, key: str, offset: int | None) -> None:
        """Publish the result's offset (`None`: not reusable) and wake whoever waits for it."""
        if offset is not None:
            self._offsets.setdefault(key, offset)
        self._pending.pop(key).set()


def _batch_rubric(rubric: RubricLike | None) -> Rubric | None:
    if rubric is None:
        return None
    parsed = Rubric.parse(rubric)
    if not parsed:
        raise RubricError("the rubric has no criteria", source=parsed.source)
    return parsed


def _judge_fingerprint(judge: Judge) -> dict[str, Any]:
    """The judge settings that can change a verdict."""
    return {
        "model": judge.model_name,
        "mode": judge.mode,
        "system_prompt": judge.system_prompt,
        "max_evidence_chars": judge.max_evidence_chars,
        "tools": sorted(t.name for t in judge.tools),
        # Only when on, so results cached before the option existed keep their keys.
        **({"compile_checks": True} if judge.compile_checks else {}),
    }


def _cache_key(rubric: Rubric, item: GradeItem, fingerprint: Mapping[str, Any]) -> str | None:
    if any(c.check is not None for c in rubric):
        return None
    payload = {
        "rubric": rubric.to_dict(),
        "output": item.output,
        "task": item.task,
        "judge": fingerprint,
    }
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()[:32]


def _pending(source: Path, done: set[ItemId]) -> int:
    """Lines left to grade, for the progress bar: parses ids only when resuming."""
    if not done:
        return count_lines(source)
    total = 0
    for entry in iter_jsonl(source):
        value = entry.value if isinstance(entry, JsonLine) else None
        if isinstance(value, dict) and valid_item_id(value.get("id")) and value["id"] in done:
            continue
        total += 1
    return total


def _verdict(data: Any) -> CriterionVerdict:
    if not isinstance(data, Mapping):
        raise ValueError(f"a criterion verdict must be an object, got {_json_type(data)}")
    decided_by = data.get("decided_by")
    return CriterionVerdict(
        id=str(data.get("id", "")),
        name=str(data.get("name", "")),
        passed=bool(data.get("passed")),
        gap=str(data.get("gap") or ""),
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


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)
