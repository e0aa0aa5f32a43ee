"""What batch commands share: streaming JSONL input, bounded concurrency, progress events.

`rubricate grade` and `rubricate agreement` both read a JSONL file one line at a time and hand a
line to a worker only when one is free, so memory stays flat however long the file is. A line
that cannot be read (invalid UTF-8, invalid JSON) becomes a `LineProblem` naming the file and
line; the caller reports it and carries on.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

from .._judge._retry import grader_error
from .._types import Evaluation
from .._validation import check_count

if TYPE_CHECKING:
    from .._judge._judge import Judge
    from .._rubric._rubric import Rubric

__all__ = [
    "BatchProgress",
    "JsonLine",
    "LineProblem",
    "check_count",  # from rubricate._validation, for the batch and Ray paths
    "count_lines",
    "evaluate_item",
    "iter_jsonl",
    "run_bounded",
    "valid_item_id",
]

T = TypeVar("T")


def valid_item_id(value: Any) -> TypeGuard[str | int]:
    """Whether `value` can be an item's `id`: an integer (not a bool) or a non-blank string."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and bool(value.strip())


async def evaluate_item(judge: Judge, rubric: Rubric, *, output: str, task: str) -> Evaluation:
    """The judge's evaluation of one item, never an exception: one item cannot end a batch.

    The judge already reports its own failures as `grader_error`; anything else it raises (a bug,
    an untranslated provider error) is recorded the same way, its message redacted.
    """
    try:
        return await judge.aevaluate(rubric, output=output, task=task)
    except Exception as exc:
        return grader_error(exc, mode=judge.mode, model=judge.model_name)


@dataclass(kw_only=True, frozen=True)
class LineProblem:
    """An input line that was skipped, and why."""

    path: str
    line: int
    """1-based line number in `path`."""
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"path": self.path, "line": self.line, "reason": self.reason}


@dataclass(kw_only=True, frozen=True)
class JsonLine:
    """One parsed JSONL line."""

    line: int
    """1-based line number."""
    value: Any
    offset: int = 0
    """Byte offset of the line's start in the file."""


def iter_jsonl(path: str | Path) -> Iterator[JsonLine | LineProblem]:
    """Parse `path` line by line (blank lines skipped); yield a `LineProblem` for a bad line.

    The file is read in binary and each line decoded on its own, so one line of invalid UTF-8
    costs that line only. A UTF-8 byte order mark at the very start is ignored.
    """
    name = str(path)
    offset = 0
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            start = offset
            offset += len(raw)
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield LineProblem(
                    path=name,
                    line=number,
                    reason=f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at byte {exc.start + 1})",
                )
                continue
            text = text.rstrip("\r\n")  # so that errors point at a column of this line
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                yield LineProblem(
                    path=name, line=number, reason=f"invalid JSON: {exc.msg} (column {exc.colno})"
                )
                continue
            except RecursionError:
                yield LineProblem(path=name, line=number, reason="invalid JSON: nested too deeply")
                continue
            yield JsonLine(line=number, value=value, offset=start)


def count_lines(path: str | Path) -> int:
    """How many non-blank lines `path` has, read in binary without parsing them."""
    with open(path, "rb") as handle:
        return sum(1 for raw in handle if raw.strip())


class BatchProgress:
    """Receives events while a batch runs; subclass it to draw progress. Every method is a no-op.

    Example:
        ```python
        class Dots(BatchProgress):
            def done(self, *, passed: bool, error: bool, cached: bool = False) -> None:
                print("." if passed else "x", end="", flush=True)
        ```

    """

    def start(self, *, total: int) -> None:
        """The batch is about to grade about `total` items (an estimate when resuming)."""

    def done(self, *, passed: bool, error: bool, cached: bool = False) -> None:
        """One item is finished: graded (passed or not), failed to grade, or served from cache."""

    def problem(self, problem: LineProblem) -> None:
        """A line was skipped (malformed input, or an unreadable line in a results file)."""


async def run_bounded(
    source: Iterable[T], handle: Callable[[T], Awaitable[None]], *, concurrency: int
) -> None:
    """Await `handle(item)` for every item of `source`, at most `concurrency` at a time.

    `source` is pulled lazily: the next item is read only when a worker is free, so a large
    file is never held in memory. The first exception a handler raises stops the batch and is
    re-raised as itself (not as an exception group); `KeyboardInterrupt` goes straight through.
    """
    check_count("concurrency", concurrency)
    queue: asyncio.Queue[tuple[T] | None] = asyncio.Queue(maxsize=concurrency)

    async def worker() -> None:
        while (entry := await queue.get()) is not None:
            await handle(entry[0])

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(concurrency):
                group.create_task(worker())
            for item in source:
                await queue.put((item,))
            for _ in range(concurrency):
                await queue.put(None)
    except BaseExceptionGroup as exc:
        raise exc.exceptions[0] from None
