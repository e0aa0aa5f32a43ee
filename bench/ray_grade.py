"""`rubricate grade` on Ray against the single-process path, on the same files, in one run.

The marginal cost per item with an instant judge (Ray's over the single process's; target
<= 2x) and embedded-judge throughput with 1 and 2 actors (target 2 actors >= 1.6x one), as
docs/ray.md describes. A local Ray instance is started once, before any timing.

    .venv/bin/python bench/ray_grade.py                  # both: bench/results/ray_grade.json
    .venv/bin/python bench/ray_grade.py --local-items 0  # instant judge only
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from _common import NO_RETRY, RESULTS, header, rubric_text, write_json, write_jsonl

from rubricate import BatchProgress, Judge, grade_file, grade_file_ray
from rubricate.testing import InstantJudgeModel

DEFAULT_JSON = RESULTS / "ray_grade.json"
SMALL = 200
REPEATS = 3
TARGET_OVERHEAD_RATIO = 2.0
TARGET_SCALING = 1.6


def instant_judge() -> Judge:
    """Built in each actor (the model class pickles by reference to `rubricate.testing`)."""
    return Judge(InstantJudgeModel(), mode="joint", retry=NO_RETRY)


class Arrivals(BatchProgress):
    """When each result arrives."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def done(self, *, passed: bool, error: bool, cached: bool = False) -> None:
        """Note the time."""
        self.times.append(time.perf_counter())


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _timed(run: Callable[[Path, Path, Arrivals], Any], source: Path, work: Path) -> dict[str, Any]:
    results = work / f"results-{time.monotonic_ns()}.jsonl"
    arrivals = Arrivals()
    started = time.perf_counter()
    summary = run(source, results, arrivals)
    wall = time.perf_counter() - started
    assert summary.errors == 0 and summary.graded == summary.items, summary.to_dict()
    return {
        "wall_s": wall,
        "items": summary.items,
        "arrivals": [t - started for t in arrivals.times],
    }


def measure_instant(items: int, work: Path) -> dict[str, Any]:
    rubric = rubric_text(3)
    small, large = work / "small.jsonl", work / "large.jsonl"
    write_jsonl(small, SMALL, 600)
    write_jsonl(large, items, 600)
    engines: dict[str, Callable[[Path, Path, Arrivals], Any]] = {
        "process": lambda s, r, p: grade_file(
            s, r, judge=instant_judge(), rubric=rubric, progress=p
        ),
        "ray_1_actor": lambda s, r, p: grade_file_ray(
            s, r, judge=instant_judge, rubric=rubric, actors=1, batch_size=256, progress=p
        ),
    }
    out: dict[str, Any] = {"items": items, "small": SMALL, "criteria": 3, "load_start": _load()}
    for run in engines.values():
        _timed(run, small, work)  # warm-up: imports, the first actor's start
    walls: dict[str, list[tuple[float, float]]] = {name: [] for name in engines}
    for _ in range(REPEATS):  # engines interleaved, so a change of load hits both alike
        for name, run in engines.items():
            pair = (_timed(run, small, work)["wall_s"], _timed(run, large, work)["wall_s"])
            walls[name].append(pair)
    for name in engines:
        wall_small = statistics.median(a for a, _ in walls[name])
        wall_large = statistics.median(b for _, b in walls[name])
        per_item = (wall_large - wall_small) / (items - SMALL)
        out[name] = {
            "ms_per_item": round(per_item * 1000, 4),
            "wall_s_large": round(wall_large, 3),
            "wall_s_small": round(wall_small, 3),
        }
        print(f"instant {name}: {per_item * 1000:.3f} ms/item", flush=True)
    ratio = out["ray_1_actor"]["ms_per_item"] / out["process"]["ms_per_item"]
    out["ray_over_process"] = round(ratio, 3)
    out["target"] = f"<= {TARGET_OVERHEAD_RATIO}x"
    out["met"] = ratio <= TARGET_OVERHEAD_RATIO
    out["load_end"] = _load()
    return out


def _steady_rate(arrivals: list[float], actors: int) -> float | None:
    if len(arrivals) <= actors:
        return None
    start = arrivals[actors - 1]
    return (len(arrivals) - actors) / (arrivals[-1] - start)


def measure_local(items: int, work: Path) -> dict[str, Any]:
    rubric = "- The summary says that the council approved a budget for public transport"
    source = work / "local.jsonl"
    write_jsonl(source, items, 400)
    configs: dict[str, tuple[int, Callable[[Path, Path, Arrivals], Any]]] = {
        "process": (1, lambda s, r, p: grade_file(s, r, judge="local", rubric=rubric, progress=p)),
        "ray_1_actor_1_cpu": (
            1,
            lambda s, r, p: grade_file_ray(
                s, r, judge="local", rubric=rubric, actors=1, progress=p
            ),
        ),
        "ray_2_actors_1_cpu": (
            2,
            lambda s, r, p: grade_file_ray(
                s, r, judge="local", rubric=rubric, actors=2, progress=p
            ),
        ),
    }
    out: dict[str, Any] = {"items": items, "criteria": 1}
    for name, (actors, run) in configs.items():
        load_start = _load()
        timed = _timed(run, source, work)
        rate = _steady_rate(timed["arrivals"], actors)
        out[name] = {
            "items_per_s": round(rate, 4) if rate is not None else None,
            "wall_items_per_s": round(items / timed["wall_s"], 4),
            "wall_s": round(timed["wall_s"], 2),
            "load_start": load_start,
            "load_end": _load(),
        }
        print(f"local {name}: {out[name]}", flush=True)
    one, two = out["ray_1_actor_1_cpu"]["items_per_s"], out["ray_2_actors_1_cpu"]["items_per_s"]
    if one and two:
        out["two_over_one_actor"] = round(two / one, 3)
        out["target"] = f">= {TARGET_SCALING}x"
        out["met"] = two / one >= TARGET_SCALING
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instant-items", type=int, default=4000)
    parser.add_argument("--local-items", type=int, default=8)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args(argv)

    import ray

    # Workers import what this file's judge factory refers to in bench/ by name.
    bench = str(Path(__file__).resolve().parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (bench, os.environ.get("PYTHONPATH", "")) if p
    )
    ray.init(address="local", include_dashboard=False, logging_level=logging.WARNING)
    ray.data.DataContext.get_current().enable_progress_bars = False
    data: dict[str, Any] = {**header("ray_grade.py", argv), "versions": {"ray": ray.__version__}}
    data["machine"]["ray_cpus"] = ray.cluster_resources().get("CPU")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.instant_items:
            data["instant"] = measure_instant(args.instant_items, work)
            write_json(args.json, data)
        if args.local_items:
            data["local"] = measure_local(args.local_items, work)
            write_json(args.json, data)
    ray.shutdown()
    print(json.dumps({k: v for k, v in data.items() if k in ("instant", "local")}, indent=2))


if __name__ == "__main__":
    main()
