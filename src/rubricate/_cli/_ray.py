"""`--engine ray` for `grade` and `agreement`: the options, and the run on Ray."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from .._batch._agreement import AgreementReport
from .._batch._streaming import BatchProgress
from .._batch._summary import GradeSummary
from .._rubric._rubric import Rubric
from ._common import FlagGroup, JudgeChoice

__all__ = [
    "ActorsOption",
    "AddressOption",
    "CpusPerActorOption",
    "Engine",
    "EngineOption",
    "RateOption",
    "RayFlags",
    "RayRun",
    "agreement_on_ray",
    "grade_on_ray",
]


class Engine(enum.StrEnum):
    """`--engine` values."""

    process = "process"
    ray = "ray"


EngineOption = Annotated[
    Engine,
    typer.Option(
        "--engine",
        help=(
            "process: grade in this process. ray: grade on a pool of judge actors with Ray Data "
            "(needs pip install 'rubricate[ray]'); a local Ray instance unless --address."
        ),
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        metavar="ADDR",
        help="With --engine ray: join this Ray cluster (e.g. 'auto' or 'ray://head:10001').",
        show_default=False,
    ),
]
ActorsOption = Annotated[
    int,
    typer.Option(
        "--actors",
        min=1,
        help="With --engine ray: judge actors, each with its own judge (and model copy).",
    ),
]
CpusPerActorOption = Annotated[
    int,
    typer.Option(
        "--cpus-per-actor",
        min=1,
        help="With --engine ray: CPUs each actor reserves; the embedded model's threads.",
    ),
]
RateOption = Annotated[
    float | None,
    typer.Option(
        "--rps",
        min=0.001,
        metavar="N",
        help="With --engine ray: at most N judge calls a second across all actors.",
        show_default=False,
    ),
]


@dataclass(frozen=True, kw_only=True)
class RayRun:
    """What `grade` and `agreement` pass to Ray: where, the actor pool, and each actor's judge."""

    judge: JudgeChoice
    """What each actor builds its judge from, as the driver built its own (`build_judge`)."""
    address: str | None
    actors: int
    cpus_per_actor: int
    jobs: int
    requests_per_second: float | None

    def pool(self) -> dict[str, Any]:
        """The judge and pool arguments `grade_file_ray` and `measure_agreement_ray` share."""
        return {
            # Each actor calls the factory as `build_judge` does, so both judges are the same.
            "judge": functools.partial(self.judge.factory, self.judge.spec, self.judge.options),
            "actors": self.actors,
            "cpus_per_actor": self.cpus_per_actor,
            "concurrency": self.jobs,
            "requests_per_second": self.requests_per_second,
        }


@dataclass(frozen=True, kw_only=True)
class RayFlags(FlagGroup):
    """The engine flags of `grade` and `agreement`: where to grade, and Ray's actor pool."""

    engine: EngineOption = Engine.process
    address: AddressOption = None
    actors: ActorsOption = 1
    cpus_per_actor: CpusPerActorOption = 1
    rps: RateOption = None

    def run(self, judge: JudgeChoice, jobs: int) -> RayRun | None:
        """The Ray run these flags ask for, each actor judging as `judge`; None to grade here."""
        if self.engine is not Engine.ray:
            return None
        return RayRun(
            judge=judge,
            address=self.address,
            actors=self.actors,
            cpus_per_actor=self.cpus_per_actor,
            jobs=jobs,
            requests_per_second=self.rps,
        )


def grade_on_ray(
    run: RayRun,
    input_path: Path,
    results_path: Path,
    *,
    rubric: Rubric | None,
    progress: BatchProgress,
) -> GradeSummary:
    """Start or join Ray, grade the file on it, and leave Ray as it was found."""
    from .._ray import grade_file_ray, ray_session

    with ray_session(run.address):
        return grade_file_ray(
            input_path, results_path, rubric=rubric, progress=progress, **run.pool()
        )


def agreement_on_ray(
    run: RayRun, paths: list[Path], *, limit: int | None, seed: int, progress: BatchProgress
) -> AgreementReport:
    """Start or join Ray, measure agreement on it, and leave Ray as it was found."""
    from .._ray import measure_agreement_ray, ray_session

    with ray_session(run.address):
        return measure_agreement_ray(paths, limit=limit, seed=seed, progress=progress, **run.pool())
