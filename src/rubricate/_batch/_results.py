"""The results file: append-only, resumable, and the cache that reuses identical work from it.

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
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from .._judge._judge import Judge
from .._rubric._rubric import Rubric
from ._items import GradeItem, ItemId, ItemResult, json_type
from ._streaming import BatchProgress, JsonLine, LineProblem, count_lines, iter_jsonl, valid_item_id
from ._summary import GradeSummary

__all__ = [
    "ResultCache",
    "ResultsFile",
    "cache_key",
    "default_results_path",
    "from_cached",
    "judge_fingerprint",
    "pending_count",
    "results_target",
    "resume",
]


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


class ResultsFile:
    """The append-only results file: one unbuffered write per result line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> ResultsFile:
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
                        raise ValueError(f"expected a JSON object, got {json_type(entry.value)}")
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


class ResultCache:
    """Where reusable results sit in the results file, and which keys are being graded now."""

    def __init__(self, results: ResultsFile) -> None:
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


def resume(
    results: ResultsFile, cache: ResultCache, summary: GradeSummary, progress: BatchProgress
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


def from_cached(item: GradeItem, stored: Mapping[str, Any], key: str) -> ItemResult:
    """`item`'s result made from an identical item's stored result line (no judge call)."""
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


def judge_fingerprint(judge: Judge) -> dict[str, Any]:
    """The judge settings that can change a verdict."""
    return {
        "model": judge.model_name,
        "mode": judge.mode,
        "system_prompt": judge.system_prompt,
        "max_evidence_chars": judge.max_evidence_chars,
        "tools": sorted(t.name for t in judge.tools),
        # Only when on, so results cached before the option existed keep their keys.
        **({"compile_checks": True} if judge.compile_checks else {}),
        **({"read_checks": judge.read_checks} if judge.read_checks != judge.local else {}),
        **({} if judge.guard_injections else {"guard_injections": False}),
        **({} if judge.show_context == "always" else {"show_context": judge.show_context}),
        **({"careful": True} if judge.careful else {}),
        # Only where it applies; results cached before it existed were graded without it.
        **(
            {"layout_facts": True}
            if judge.layout_facts and (judge.read_checks or judge.compile_checks)
            else {}
        ),
        **({"tone_likelihood": True} if judge.local and judge.tone_likelihood else {}),
    }


def cache_key(rubric: Rubric, item: GradeItem, fingerprint: Mapping[str, Any]) -> str | None:
    """Digest of the work (rubric, output, task, judge settings); `None` when not cacheable."""
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


def pending_count(source: Path, done: set[ItemId]) -> int:
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
