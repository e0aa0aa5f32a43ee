"""`grade_dataset`: a Ray Dataset of items in, a Dataset of result rows out (lazy)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack, cast

from .._batch._grade import parse_batch_rubric
from .._batch._items import GradeItem, iter_items
from .._batch._streaming import LineProblem, check_count
from .._judge._judge import Judge
from .._judge._options import JudgeOptions
from .._rubric._rubric import Rubric, RubricLike
from ._actor import PROBLEM_COLUMN, JudgeActor, JudgeSpec, check_spec
from ._limiter import start_limiter
from ._runtime import require_ray

if TYPE_CHECKING:
    from ray.data import Dataset

__all__ = ["default_batch_size", "grade_dataset", "grade_rows", "item_blocks"]


def grade_dataset(
    dataset: Dataset | str | Path,
    rubric: RubricLike | None = None,
    *,
    judge: JudgeSpec = "local",
    actors: int = 1,
    cpus_per_actor: int = 1,
    concurrency: int = 1,
    requests_per_second: float | None = None,
    batch_size: int | None = None,
    **options: Unpack[JudgeOptions],
) -> Dataset:
    r"""Grade every row of a Ray Dataset on a pool of judge actors; return the result rows.

    Nothing is graded until the returned Dataset is consumed (`iter_rows`, `write_parquet`...).
    Rows need `id` and `output`, and may have `task`, `rubric` (overriding `rubric`) and
    `line`. A row that is not a valid item comes back with `result="grader_error"` and an
    `error` saying why, like an item the judge failed on. A local JSONL file is read here with
    the reader of `rubricate grade`: rows get their `line`, and a malformed line (bad JSON, a
    missing field, a repeated id) comes back as such a row whose error names the file and line.
    For resuming and a results file written as items finish, grade a JSONL file with
    `grade_file_ray` (or `rubricate grade --engine ray`).

    This call is synchronous, like Ray's API; the actors grade asynchronously inside.

    Args:
        dataset: A `ray.data.Dataset`, or a path: `.jsonl`/`.json` (JSON lines; a local file
            is read by this process, a URI such as `s3://...` by Ray) or Parquet (a `.parquet`
            file or a folder of them, read by Ray).
        rubric: The batch rubric; needed unless every row has its own.
        judge: A `Judge` (pickled to every actor), a model such as `"local"` or
            `"openai:gpt-5-mini"`, or a function of no arguments returning a `Judge` (for a
            judge that cannot be pickled, such as one with `tools`).
        actors: Judge actors in the pool, each with its own judge.
        cpus_per_actor: CPUs each actor reserves; the embedded model runs that many threads.
        concurrency: Items each actor grades at once (remote judges; 1 on the embedded model).
        requests_per_second: Cap on model calls per second across all actors (a remote
            provider's rate limit), or `None` for no cap.
        batch_size: Items per batch handed to an actor; by default 1 on the embedded model
            (results stream as each item finishes) and `2 * concurrency` otherwise.
        **options: The judge's settings (`JudgeOptions`) when `judge` names a model, sent to
            every actor; `tools` cannot be (see `judge`).

    Returns:
        A Dataset with the result columns of a results-file line (`id`, `line`, `score`,
        `passed`, `result`, `criteria`, `usage`, `latency_s`, `error`, `cached`, `model`,
        `mode`, `cache_key`).

    Example:
        ```python
        import ray

        results = grade_dataset(
            ray.data.read_parquet("s3://bucket/outputs/"), "- Cites a source\n- Under 100 words",
            judge="openai:gpt-5-mini", actors=8, concurrency=16, requests_per_second=50,
        )
        results.write_parquet("s3://bucket/grades/")
        ```

    """
    ray = require_ray()
    batch_rubric = parse_batch_rubric(rubric)
    source = "dataset"
    if isinstance(dataset, (str, Path)):
        source = str(dataset)
        size = batch_size or default_batch_size(
            local=_names_local_model(judge), concurrency=concurrency
        )
        dataset = _read(ray, dataset, batch_rubric=batch_rubric is not None, block_size=size)
    return grade_rows(
        dataset,
        batch_rubric,
        judge=judge,
        actors=actors,
        cpus_per_actor=cpus_per_actor,
        concurrency=concurrency,
        requests_per_second=requests_per_second,
        batch_size=batch_size,
        source=source,
        options=options,
    )


def grade_rows(
    dataset: Dataset,
    rubric: Rubric | None,
    *,
    judge: JudgeSpec,
    actors: int,
    cpus_per_actor: int,
    concurrency: int,
    requests_per_second: float | None,
    batch_size: int | None,
    source: str,
    options: JudgeOptions,
) -> Dataset:
    """The actor-pool stage shared by `grade_dataset` and `grade_file_ray`.

    Each input block is one actor task (graded a batch at a time, results streamed back per
    batch), so the blocks bound how many actors work at once.
    """
    check_count("actors", actors)
    check_count("cpus_per_actor", cpus_per_actor)
    check_count("concurrency", concurrency)
    check_count("batch_size", batch_size, optional=True)
    check_spec(judge, options, "the Ray engine")
    ray = require_ray()
    limiter = start_limiter(requests_per_second) if requests_per_second is not None else None
    size = batch_size or default_batch_size(
        local=_names_local_model(judge), concurrency=concurrency
    )
    return dataset.map_batches(
        JudgeActor,
        fn_constructor_kwargs={
            "judge": judge,
            "options": options,
            "rubric": rubric,
            "cpus": cpus_per_actor,
            "concurrency": concurrency,
            "limiter": limiter,
            "source": source,
        },
        batch_size=size,
        batch_format="pandas",
        # Ray Data restarts a dead actor and runs its unfinished task again (its defaults,
        # max_restarts=-1 and max_task_retries=-1, tested by killing one): nothing is lost.
        compute=ray.data.ActorPoolStrategy(size=actors),
        num_cpus=cpus_per_actor,
    )


def default_batch_size(*, local: bool, concurrency: int) -> int:
    """1 on the embedded model (each result streams back as it is done), else `2 * concurrency`."""
    return 1 if local else 2 * concurrency


def _names_local_model(judge: Any) -> bool:
    if isinstance(judge, Judge):
        return judge.local
    return isinstance(judge, str) and (judge.strip() == "local" or judge.startswith("llamacpp:"))


def item_blocks(ray: Any, entries: Iterable[GradeItem | LineProblem], size: int) -> list[Any]:
    """Items (and unreadable lines) as object-store blocks of `size` rows: one actor task each.

    The driver holds one block at a time. A `LineProblem` becomes a row with its `line` and the
    reason in `PROBLEM_COLUMN`, which the actor records as a malformed item.
    """
    import pandas as pd

    blocks: list[Any] = []
    chunk: list[dict[str, Any]] = []
    for entry in entries:
        chunk.append(_row(entry))
        if len(chunk) == size:
            blocks.append(ray.put(pd.DataFrame(chunk, dtype=object)))
            chunk = []
    if chunk:
        blocks.append(ray.put(pd.DataFrame(chunk, dtype=object)))
    return blocks


def _row(entry: GradeItem | LineProblem) -> dict[str, Any]:
    if isinstance(entry, LineProblem):
        fields = dict.fromkeys(("id", "output", "task", "rubric"))
        return {**fields, "line": entry.line, PROBLEM_COLUMN: entry.reason}
    return {
        "id": entry.id,
        "line": entry.line,
        "output": entry.output,
        "task": entry.task,
        "rubric": entry.rubric.to_dict() if entry.rubric is not None else None,
        PROBLEM_COLUMN: None,
    }


def _read(ray: Any, path: str | Path, *, batch_rubric: bool, block_size: int) -> Dataset:
    """The rows of a file: a local JSONL file read here, line by line; anything else by Ray.

    Reading local JSON lines with the single-machine reader gives each row its line number and
    turns a malformed line into a row that says where and why, instead of a failed run (Ray's
    JSON reader stops at the first bad line, and one id column cannot mix strings and ints).
    """
    name = str(path)
    remote = "://" in name
    suffix = Path(name).suffix.lower()
    if suffix in (".jsonl", ".json"):
        if remote:
            return cast("Dataset", ray.data.read_json(name, lines=True))
        entries = iter_items(Path(name), batch_rubric=batch_rubric)
        blocks = item_blocks(ray, entries, block_size)
        if not blocks:
            return cast("Dataset", ray.data.from_items([]))
        return cast("Dataset", ray.data.from_pandas_refs(blocks))
    if suffix == ".parquet" or (not remote and Path(name).is_dir()) or (remote and not suffix):
        return cast("Dataset", ray.data.read_parquet(name))
    raise ValueError(f"cannot tell how to read {name!r}: expected .jsonl, .json or Parquet")
