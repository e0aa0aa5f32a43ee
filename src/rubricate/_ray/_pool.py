"""`ActorPool`: the driver's side of grading items on Ray's judge actors.

`grade_file_ray` and `measure_agreement_ray` both check the judge, build the driver's own, stream
their items to the pool a block at a time and read each batch's results as it comes back; this
is that part, written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .._batch._items import GradeItem, ItemResult
from .._exceptions import RubricateError
from .._judge._judge import Judge
from .._judge._options import JudgeOptions
from .._redact import redact
from .._rubric._rubric import Rubric
from ._actor import JudgeSpec, build_judge, check_spec, plain
from ._dataset import default_batch_size, grade_rows, item_blocks
from ._runtime import require_ray

__all__ = ["ActorPool"]


@dataclass(frozen=True, kw_only=True)
class ActorPool:
    """The judge every actor builds, and the pool's size and pace (see `grade_rows`).

    Build it with `start`, which also builds the driver's own judge from the same spec.
    """

    ray: Any
    """The `ray` module (`require_ray`)."""
    driver: Judge
    """The driver's judge, built as each actor builds its own: names the model and the mode."""
    judge: JudgeSpec
    options: JudgeOptions
    actors: int
    cpus_per_actor: int
    concurrency: int
    requests_per_second: float | None
    batch_size: int | None
    """Items per actor batch; `None`: the default for the judge (`default_batch_size`)."""

    @classmethod
    def start(
        cls,
        where: str,
        judge: JudgeSpec,
        options: JudgeOptions,
        *,
        actors: int,
        cpus_per_actor: int,
        concurrency: int,
        requests_per_second: float | None,
        batch_size: int | None,
    ) -> ActorPool:
        """Require Ray, check `judge` for the actors, build the driver's judge from it.

        A judge the actors cannot be sent is a `TypeError` naming `where`.
        """
        ray = require_ray()
        check_spec(judge, options, where)
        return cls(
            ray=ray,
            driver=build_judge(judge, options),
            judge=judge,
            options=options,
            actors=actors,
            cpus_per_actor=cpus_per_actor,
            concurrency=concurrency,
            requests_per_second=requests_per_second,
            batch_size=batch_size,
        )

    def grade(
        self, items: Iterable[GradeItem], rubric: Rubric | None, *, source: str
    ) -> Iterator[ItemResult]:
        """Each item's result, a batch at a time as Ray returns them; none for no items."""
        size = self.batch_size or default_batch_size(
            local=self.driver.local, concurrency=self.concurrency
        )
        blocks = item_blocks(self.ray, items, size)
        if not blocks:
            return
        graded = grade_rows(
            self.ray.data.from_pandas_refs(blocks),
            rubric,
            judge=self.judge,
            options=self.options,
            actors=min(self.actors, len(blocks)),  # a block is one actor's task: no idle actors
            cpus_per_actor=self.cpus_per_actor,
            concurrency=self.concurrency,
            requests_per_second=self.requests_per_second,
            batch_size=size,
            source=source,
        )
        for row in _result_rows(graded):
            yield ItemResult.from_dict(plain(row))


def _result_rows(graded: Any) -> Iterator[dict[str, Any]]:
    """The result rows as each batch comes back; a failed Ray run as a `RubricateError`.

    Judge failures are rows (recorded per item); what fails here is the run itself, such as a
    judge that cannot be built in the actors. The message keeps Ray's last line, the cause.
    """
    try:
        # No prefetching: Ray would hold each finished batch back until the next one is done,
        # and the results file must get every result as soon as it exists.
        batches = graded.iter_batches(batch_size=None, batch_format="pandas", prefetch_batches=0)
        for batch in batches:
            yield from batch.to_dict("records")
    except Exception as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        cause = lines[-1] if lines else type(exc).__name__
        raise RubricateError(redact(f"the Ray run failed: {cause}")) from exc
