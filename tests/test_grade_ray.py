"""Grading on Ray Data (`rubricate._ray`): same results as one machine, faults, resume, CLI.

One local Ray instance (2 CPUs, loopback only, no dashboard) serves the whole test session:
Ray takes seconds to start. Judges are fakes at the model boundary (`ray_fakes`), built in
each actor from a picklable function.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import rubricate._ray._dataset
from ray_fakes import SECRET, CountingSlots, broken_judge, cli_judge_factory, ray_judge
from rubricate import (
    RubricateError,
    grade_dataset,
    grade_file,
    grade_file_ray,
    measure_agreement,
)
from rubricate._batch._streaming import BatchProgress, LineProblem
from rubricate._cli import create_app
from rubricate._ray._actor import RESULT_COLUMNS, JudgeActor, plain
from rubricate._ray._limiter import RequestSlots
from rubricate._ray._runtime import ray_session, require_ray
from test_agreement import LABELLED, write_labelled

RUBRIC = "- Mentions Paris\n- Mentions France"
TESTS = Path(__file__).resolve().parent

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")


@pytest.fixture(scope="session")
def ray_local() -> Iterator[Any]:
    """One local Ray instance for the session; its workers import `src` and the test fakes."""
    import ray  # a dev dependency: a missing Ray fails these tests rather than skipping them

    paths = [str(TESTS.parent / "src"), str(TESTS), os.environ.get("PYTHONPATH", "")]
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    ray.init(
        address="local",  # a new instance, even beside a cluster running on this machine
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.WARNING,
        _node_ip_address="127.0.0.1",
    )
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()
    if saved is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = saved


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def read_results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Recorder(BatchProgress):
    def __init__(self, *, stop_after: int | None = None) -> None:
        self.total: int | None = None
        self.finished = 0
        self.problems: list[LineProblem] = []
        self.stop_after = stop_after

    def start(self, *, total: int) -> None:
        self.total = total

    def done(self, *, passed: bool, error: bool, cached: bool = False) -> None:
        self.finished += 1
        if self.stop_after is not None and self.finished >= self.stop_after:
            raise KeyboardInterrupt  # the driver dies here; what it wrote must stay usable

    def problem(self, problem: LineProblem) -> None:
        self.problems.append(problem)


def mixed_input(path: Path) -> Path:
    return write_jsonl(
        path,
        [
            {"id": 1, "output": "Paris is the capital of France."},
            {"id": "b", "output": "Paris, in summer."},
            "{not json",
            {"id": 3, "output": "Paris is the capital of France."},  # a cache hit of id 1
            {"id": 4},
            {"id": 5, "output": "It LEAKs."},
            {"id": 6, "output": "Lyon is in France.", "rubric": ["Mentions Lyon"]},
            {"id": 1, "output": "again"},
        ],
    )


def same_summary(mine: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """Equal but for wall time and the order criteria were first seen (completion order)."""

    def norm(summary: dict[str, Any]) -> dict[str, Any]:
        criteria = sorted(summary["criteria"], key=lambda c: c["id"])
        return summary | {"wall_s": 0, "criteria": criteria, "results": ""}

    return norm(mine) == norm(theirs)


def comparable(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "latency_s"}


def test_the_results_file_matches_the_one_machine_path(ray_local: Any, tmp_path: Path) -> None:
    source = mixed_input(tmp_path / "in.jsonl")
    one, on_ray = Recorder(), Recorder()
    expected = grade_file(
        source, tmp_path / "one.jsonl", judge=ray_judge(), rubric=RUBRIC, progress=one
    )
    summary = grade_file_ray(
        source, tmp_path / "ray.jsonl", judge=ray_judge, rubric=RUBRIC, actors=2, progress=on_ray
    )
    mine = {r["id"]: comparable(r) for r in read_results(tmp_path / "ray.jsonl")}
    theirs = {r["id"]: comparable(r) for r in read_results(tmp_path / "one.jsonl")}
    assert mine == theirs
    assert sorted(mine, key=str) == [1, 3, 5, 6, "b"]
    assert mine[3]["cached"] and mine[3]["cache_of"] == 1
    assert mine[5]["result"] == "grader_error" and "RuntimeError" in mine[5]["error"]
    assert SECRET not in (tmp_path / "ray.jsonl").read_text()
    assert [str(p) for p in on_ray.problems] == [str(p) for p in one.problems]
    assert [p.line for p in on_ray.problems] == [3, 5, 8]
    assert all(p.path == str(source) for p in on_ray.problems)
    assert same_summary(summary.to_dict(), expected.to_dict())
    assert on_ray.finished == 5 and on_ray.total == 8


def test_an_actor_killed_mid_batch_loses_and_duplicates_nothing(
    ray_local: Any, tmp_path: Path
) -> None:
    marker = tmp_path / "killed"
    rows = [{"id": i, "output": f"Paris, France, item {i}."} for i in range(12)]
    rows[5]["output"] = f"Paris, France. KILL:{marker}"
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    summary = grade_file_ray(
        source, tmp_path / "out.jsonl", judge=ray_judge, rubric=RUBRIC, actors=2, batch_size=3
    )
    assert marker.exists()  # an actor did die
    ids = [r["id"] for r in read_results(tmp_path / "out.jsonl")]
    assert sorted(ids) == list(range(12))  # every item once: none lost, none twice
    assert summary.items == 12 and summary.errors == 0 and summary.passed == 12


def test_a_crashed_driver_resumes_without_regrading(ray_local: Any, tmp_path: Path) -> None:
    rows = [{"id": i, "output": f"Paris {i}"} for i in range(10)]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    target = tmp_path / "out.jsonl"
    with pytest.raises(KeyboardInterrupt):
        grade_file_ray(
            source,
            target,
            judge=ray_judge,
            rubric=RUBRIC,
            batch_size=2,
            progress=Recorder(stop_after=3),
        )
    first = [r["id"] for r in read_results(target)]
    assert len(first) == 3
    again = Recorder()
    summary = grade_file_ray(source, target, judge=ray_judge, rubric=RUBRIC, progress=again)
    ids = [r["id"] for r in read_results(target)]
    assert sorted(ids) == list(range(10)) and ids[:3] == first
    assert summary.resumed == 3 and summary.graded == 7 and again.total == 7


def test_grade_dataset_returns_result_rows(ray_local: Any, tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": "a", "output": "Paris, France", "task": "Where?"},
            {"id": "b", "output": "Berlin"},
            {"id": "", "output": "no id"},
        ],
    )
    rows = {r["id"]: r for r in grade_dataset(source, RUBRIC, judge=ray_judge).take_all()}
    assert set(rows["a"]) == set(RESULT_COLUMNS)
    assert rows["a"]["passed"] and rows["a"]["result"] == "satisfied"
    assert rows["a"]["cache_key"]  # the same key as the results file's
    assert not rows["b"]["passed"] and rows["b"]["error"] is None
    assert rows[None]["result"] == "grader_error" and rows[None]["line"] == 3
    assert "malformed item" in rows[None]["error"] and "`id` must be" in rows[None]["error"]


def test_each_result_reaches_the_file_when_its_batch_is_done(
    ray_local: Any, tmp_path: Path
) -> None:
    target = tmp_path / "out.jsonl"
    rows = [{"id": i, "output": f"Paris, France {i} STREAMED:{target}"} for i in range(4)]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    summary = grade_file_ray(source, target, judge=ray_judge, rubric=RUBRIC, actors=1, batch_size=1)
    # The one actor grades its n-th item only once n results are in the file (else it fails),
    # whatever order Ray hands it the batches in.
    assert summary.errors == 0, read_results(target)
    assert sorted(r["id"] for r in read_results(target)) == [0, 1, 2, 3]


def test_every_call_of_every_actor_takes_a_slot_of_the_shared_limiter(
    ray_local: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limiters: list[Any] = []

    def start_counting(per_second: float) -> Any:
        limiters.append(ray_local.remote(num_cpus=0)(CountingSlots).remote(per_second))
        return limiters[-1]

    monkeypatch.setattr(rubricate._ray._dataset, "start_limiter", start_counting)
    met = tmp_path / "met"
    met.mkdir()
    rows = [{"id": i, "output": f"Paris, France {i} MEET:{met}"} for i in range(8)]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    target = tmp_path / "out.jsonl"
    summary = grade_file_ray(
        source,
        target,
        judge=ray_judge,
        rubric=RUBRIC,
        actors=2,
        batch_size=1,
        requests_per_second=1000,
    )
    assert summary.errors == 0 and len(list(met.iterdir())) == 2  # both actors graded
    calls = sum(r["usage"]["calls"] for r in read_results(target))
    assert calls >= 8
    assert ray_local.get(limiters[0].count.remote()) == calls


def test_grade_dataset_on_a_jsonl_file_gives_the_results_file_rows(
    ray_local: Any, tmp_path: Path
) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": 1, "output": "Paris is the capital of France."},
            {"id": "b", "output": "Paris, in summer.", "task": "Where?"},
            "{not json",
            {"id": 4},
            {"id": 5, "output": "It LEAKs."},
            {"id": 6, "output": "Lyon is in France.", "rubric": ["Mentions Lyon"]},
            {"id": 1, "output": "again"},
        ],
    )
    grade_file(source, tmp_path / "one.jsonl", judge=ray_judge(), rubric=RUBRIC)
    expected = {r["id"]: comparable(r) for r in read_results(tmp_path / "one.jsonl")}
    rows = [plain(r) for r in grade_dataset(source, RUBRIC, judge=ray_judge).take_all()]
    assert all(list(r) == list(RESULT_COLUMNS) for r in rows)
    graded = {r["id"]: r for r in rows if r["id"] is not None}
    assert sorted(graded, key=str) == sorted(expected, key=str)
    for item_id, want in expected.items():
        got = comparable(graded[item_id])
        assert {k: got[k] for k in want} == want  # same values, line numbers included
        assert all(got[k] is None for k in set(got) - set(want))  # absent there, null here
    problems = sorted((r["line"], r["error"]) for r in rows if r["id"] is None)
    assert [line for line, _ in problems] == [3, 4, 7]
    assert all(f"malformed item: {source}:{line}: " in error for line, error in problems)
    assert "duplicate id 1 (first on line 1)" in problems[2][1]
    assert SECRET not in json.dumps(rows)


def test_the_result_columns_are_every_field_of_a_results_line(
    ray_local: Any, tmp_path: Path
) -> None:
    source = mixed_input(tmp_path / "in.jsonl")
    grade_file(source, tmp_path / "one.jsonl", judge=ray_judge(), rubric=RUBRIC)
    fields = {k for row in read_results(tmp_path / "one.jsonl") for k in row}
    assert fields == set(RESULT_COLUMNS)


def test_grade_dataset_reads_parquet_and_takes_a_dataset(ray_local: Any, tmp_path: Path) -> None:
    rows = [
        {"id": "p", "output": "Paris, France", "problem": "Where is Paris?"},
        {"id": "q", "output": "Rome", "problem": "Where is Rome?"},
    ]
    ray_local.data.from_items(rows).write_parquet(str(tmp_path / "pq"))
    for dataset in (tmp_path / "pq", ray_local.data.from_items(rows)):
        results = grade_dataset(dataset, RUBRIC, judge=ray_judge).take_all()
        assert sorted((r["id"], r["passed"], r["error"]) for r in results) == [
            ("p", True, None),  # a column of the user's named `problem` is just a column
            ("q", False, None),
        ]


def test_each_actor_runs_the_embedded_model_on_the_cpus_it_reserved() -> None:
    actor = JudgeActor("local", None, cpus=3)  # builds the model; loads no weights yet
    assert actor.judge.model.n_threads == 3  # type: ignore[attr-defined]


def test_a_judge_the_actors_cannot_build_fails_the_run_clearly(
    ray_local: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAY_FAKES_DRIVER", "1")  # actors started before this do not see it
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": 1, "output": "Paris"}])
    with pytest.raises(RubricateError, match=r"the Ray run failed: .*cannot create model") as info:
        grade_file_ray(source, tmp_path / "out.jsonl", judge=broken_judge, rubric=RUBRIC)
    assert SECRET not in str(info.value)
    assert SECRET not in str(info.value.__cause__)  # Ray's error, with the actor's traceback


def test_request_slots_space_calls_evenly() -> None:
    slots = RequestSlots(per_second=1.0)
    assert slots.reserve() == 0.0
    assert 0.0 < slots.reserve() <= 1.0  # the next slot is one interval after the first
    assert slots.reserve(wait=False) == -1.0  # none free now, and none taken


def test_the_cli_grades_on_ray_under_a_shared_rate_limit(ray_local: Any, tmp_path: Path) -> None:
    rows = [{"id": i, "output": "Paris, France"} for i in range(4)]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    app = create_app(judge_factory=cli_judge_factory)
    outcome = CliRunner().invoke(
        app,
        ["grade", str(source), "-r", RUBRIC, "--engine", "ray", "--actors", "2", "--rps", "1000"],
    )
    assert outcome.exit_code == 0, outcome.output
    results = read_results(tmp_path / "in.results.jsonl")
    assert sorted(r["id"] for r in results) == [0, 1, 2, 3]
    assert all(r["passed"] for r in results)


def test_agreement_on_ray_reports_what_one_process_reports(ray_local: Any, tmp_path: Path) -> None:
    rows = [*LABELLED, "{torn", {**LABELLED[0], "id": "boom", "output": "It LEAKs."}]
    labelled = write_labelled(tmp_path / "bench.jsonl", rows)
    expected = measure_agreement([labelled], judge=ray_judge()).to_dict()
    app = create_app(judge_factory=cli_judge_factory)
    outcome = CliRunner().invoke(
        app,
        [
            "agreement",
            str(labelled),
            "--engine",
            "ray",
            "--actors",
            "2",
            "-o",
            str(tmp_path / "r.json"),
        ],
    )
    assert outcome.exit_code == 1, outcome.output  # a torn line and a judge error
    mine = json.loads((tmp_path / "r.json").read_text())
    timing = {"wall_s": 0, "judge_s": 0, "seconds_per_criterion": 0}
    assert mine | timing == expected | timing
    assert mine["overall"]["kappa"] == pytest.approx(0.5)
    assert SECRET not in (tmp_path / "r.json").read_text()


def test_a_cluster_that_cannot_be_joined_is_named_with_what_to_check(
    ray_local: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(**kwargs: Any) -> None:
        raise ConnectionError(f"Failed to connect to Ray cluster at {kwargs['address']}")

    monkeypatch.setattr(ray_local, "is_initialized", lambda: False)
    monkeypatch.setattr(ray_local, "init", refuse)
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": 1, "output": "Paris"}])
    app = create_app(judge_factory=cli_judge_factory)
    argv = ["grade", str(source), "-r", RUBRIC, "--engine", "ray", "--address", "10.1.2.3:6379"]
    outcome = CliRunner().invoke(app, argv)
    assert outcome.exit_code == 2
    message = " ".join(outcome.output.split())
    assert "cannot join the Ray cluster at '10.1.2.3:6379'" in message
    assert "RAY_AUTH_MODE=token" in message
    assert "in.results.jsonl" not in message  # not blamed on the results file
    with pytest.raises(RubricateError, match="cannot join"), ray_session("10.1.2.3:6379"):
        pass


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RubricateError, match=r"pip install 'rubricate\[ray\]'"):
        require_ray()


def test_rubricate_imports_without_ray() -> None:
    code = "import sys; sys.modules['ray'] = None; import rubricate; print(rubricate.grade_dataset)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.local_model
def test_the_embedded_model_grades_on_an_actor(ray_local: Any, tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": "yes", "output": "The capital of France is Paris."},
            {"id": "no", "output": "The capital of France is Berlin."},
        ],
    )
    summary = grade_file_ray(
        source,
        tmp_path / "out.jsonl",
        judge="local",
        rubric="- The answer says that the capital of France is Paris",
        actors=1,
    )
    results = {r["id"]: r for r in read_results(tmp_path / "out.jsonl")}
    assert summary.errors == 0
    assert results["yes"]["passed"] and not results["no"]["passed"]
    assert results["yes"]["model"].endswith("qwen2.5-coder-1.5b-instruct")
