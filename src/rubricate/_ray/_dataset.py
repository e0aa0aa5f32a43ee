"""`grade_dataset`: a Ray Dataset of items in, a Dataset of result rows out (lazy)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from .._batch._grade import parse_batch_rubric
from .._batch._streaming import check_count
from .._judge._judge import Judge
from .._judge._options import JudgeOptions
from .._rubric._rubric import Rubric, RubricLike
from ._actor import JudgeActor, JudgeSpec, check_spec
from ._limiter import start_limiter
from ._runtime import require_ray

if TYPE_CHECKING:
    from ray.data import Dataset

__all__ = ["default_batch_size", "grade_dataset", "grade_rows"]


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

    Nothing runs until the returned Dataset is consumed (`iter_rows`, `write_parquet`...).
    Rows need `id` and `output`, and may have `task`, `rubric` (overriding `rubric`) and
    `line`. A row that is not a valid item comes back with `result="grader_error"` and an
    `error` saying why, like an item the judge failed on. For resuming, streaming results to a
    file and malformed lines reported by line number, grade a JSONL file with `grade_file_ray`
    (or `rubricate grade --engine ray`).

    This call is synchronous, like Ray's API; the actors grade asynchronously inside.

    Args:
        dataset: A `ray.data.Dataset`, or a path Ray reads: `.jsonl`/`.json` (JSON lines) or
            Parquet (a `.parquet` file or a folder of them).
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
    if isinstance(dataset, (str, Path)):
        source = str(dataset)
        dataset = _read(ray, Path(dataset))
    else:
        source = "dataset"
    return grade_rows(
        dataset,
        parse_batch_rubric(rubric),
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


def _read(ray: Any, path: Path) -> Dataset:
    suffix = path.suffix.lower()
    dataset: Dataset
    if suffix in (".jsonl", ".json"):
        dataset = ray.data.read_json(str(path), lines=True)
    elif suffix == ".parquet" or path.is_dir():
        dataset = ray.data.read_parquet(str(path))
    else:
        raise ValueError(
            f"cannot tell how to read {str(path)!r}: expected .jsonl, .json or Parquet"
        )
    return dataset
