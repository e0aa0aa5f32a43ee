"""`bench/remote.py`: its sampling and report (no model), and one smoke run on a tiny file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benches import load_bench

TASK = "What is the capital of France?"


def write_items(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return path


def item(item_id: str, labels: list[bool]) -> dict[str, Any]:
    return {
        "id": item_id,
        "source": "realsumm",
        "task": TASK,
        "output": "The capital of France is Paris.",
        "criteria": [
            {"id": f"f{i}", "description": f"Fact {i}", "label": label}
            for i, label in enumerate(labels)
        ],
    }


def test_the_sample_is_whole_items_of_one_split_in_a_seeded_order(tmp_path: Path) -> None:
    bench = load_bench("remote")
    splits = load_bench("splits")
    items = [item(f"x{n}", [True, False, True]) for n in range(40)]
    path = write_items(tmp_path / "items.jsonl", items)

    dev = bench.sample_items(path, "dev", 7, seed=0)

    assert dev == bench.sample_items(path, "dev", 7, seed=0)
    assert len(dev) == 3  # whole items of 3 criteria until at least 7
    assert all(splits.split_of(i["id"]) == "dev" for i in dev)
    assert {i["id"] for i in bench.sample_items(path, "test", 100, seed=0)}.isdisjoint(
        {i["id"] for i in bench.sample_items(path, "dev", 100, seed=0)}
    )


def test_the_report_compares_each_remote_variant_with_local_on_common_items() -> None:
    bench = load_bench("remote")

    def outcome(name: str, verdicts: list[bool], wall: float) -> Any:
        return bench.Outcome(
            item=name,
            source="realsumm",
            labels=[True, False],
            verdicts=verdicts,
            wall_s=wall,
            calls=2,
            input_tokens=10,
            output_tokens=2,
        )

    results = {
        "remote_joint": [outcome("a", [True, False], 2.0), outcome("b", [True, True], 2.0)],
        "local": [outcome("a", [True, True], 1.0)],  # "b" unfinished: scored on "a" only
    }

    report = bench.build_report(results, seed=0, sample={"items": 2})

    assert report["sample"]["items_scored"] == 1
    assert report["variants"]["remote_joint"]["criteria"] == 2
    assert report["variants"]["remote_joint"]["metrics"]["balanced_accuracy"] == 1.0
    assert report["variants"]["local"]["metrics"]["balanced_accuracy"] == 0.5
    versus = report["against_local"]["remote_joint"]
    assert versus["seconds_per_criterion_over_local"] == 2.0
    assert versus["balanced_accuracy_minus_local"]["difference"] == 0.5
    assert "verdicts" not in json.dumps(report)  # a summary, no per-item dump


def test_missing_data_stops_with_a_message_naming_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"judge-bench data not found: .*nowhere\.jsonl"):
        load_bench("remote").main([str(tmp_path / "nowhere.jsonl"), "--out", str(tmp_path / "r")])


@pytest.mark.local_model
def test_smoke_run_starts_the_server_grades_both_paths_and_stops_it(tmp_path: Path) -> None:
    bench = load_bench("remote")
    data = write_items(
        tmp_path / "one.jsonl",
        [
            {
                "id": "smoke",
                "source": "realsumm",
                "task": TASK,
                "output": "The capital of France is Paris.",
                "criteria": [
                    {"id": "f1", "description": "The answer names Paris", "label": True},
                    {"id": "f2", "description": "The answer names Tokyo", "label": False},
                ],
            }
        ],
    )
    out = tmp_path / "remote.json"

    args = [str(data), "--split", "all", "--criteria", "2", "--out", str(out)]
    report = bench.main([*args, "--variants", "remote_joint,local"])

    assert json.loads(out.read_text()) == json.loads(json.dumps(report, default=str))
    assert not out.with_suffix(".partial.jsonl").exists()
    assert not out.with_suffix(".server.log").exists()
    for name in ("remote_joint", "local"):
        summary = report["variants"][name]
        assert summary["criteria"] == 2 and summary["calls"] >= 1
        assert summary["failures"]["grader_errors"] == summary["failures"]["exceptions"] == 0
    assert report["against_local"]["remote_joint"]["seconds_per_criterion_over_local"] > 0
