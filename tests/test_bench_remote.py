"""`bench/remote.py` run as a user runs it: its sample and report from a checkpoint (no model),
and one smoke run on a tiny file that starts the server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benches import ran, run_bench

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


def outcome(name: str, verdicts: list[bool], wall: float) -> dict[str, Any]:
    return {
        "item": name,
        "source": "realsumm",
        "labels": [True, False],
        "verdicts": verdicts,
        "wall_s": wall,
        "calls": 2,
        "input_tokens": 10,
        "output_tokens": 2,
    }


def report_only(
    tmp_path: Path, data: Path, split: str, criteria: int, variants: str, done: list[Any]
) -> dict[str, Any]:
    """The report `--report-only` writes from a checkpoint holding `done` (variant, outcome)."""
    out = tmp_path / "remote.json"
    config = {
        "data": str(data),
        "split": split,
        "seed": 0,
        "criteria": criteria,
        "variants": variants.split(","),
        "n_ctx": 8192,
        "threads": 2,
    }
    lines = [{"config": config}, *({"variant": v, **o} for v, o in done)]
    write_items(out.with_suffix(".partial.jsonl"), lines)
    args = [data, "--split", split, "--criteria", str(criteria), "--variants", variants]
    ran(run_bench("remote", *args, "--report-only", "--out", out))
    assert not out.with_suffix(".partial.jsonl").exists()
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def test_the_sample_is_whole_items_of_one_split(tmp_path: Path) -> None:
    items = [item(f"x{n}", [True, False, True]) for n in range(40)]
    data = write_items(tmp_path / "items.jsonl", items)
    everything = report_only(tmp_path, data, "all", 1000, "local", [])
    dev = report_only(tmp_path, data, "dev", 7, "local", [])

    assert everything["sample"]["items"] == 40
    assert dev["sample"]["items"] == 3  # whole items of 3 criteria until at least 7
    assert dev["sample"]["criteria"] == 9
    # Outcomes of every item: a sample of one split scores only that split's items.
    done = [("local", outcome(f"x{n}", [True, False], 1.0)) for n in range(40)]
    dev_all = report_only(tmp_path, data, "dev", 1000, "local", done)["sample"]["items_scored"]
    test_all = report_only(tmp_path, data, "test", 1000, "local", done)["sample"]["items_scored"]
    assert 0 < dev_all < 40 and dev_all + test_all == 40


def test_the_report_compares_each_remote_variant_with_local_on_common_items(
    tmp_path: Path,
) -> None:
    data = write_items(
        tmp_path / "items.jsonl", [item("a", [True, False]), item("b", [True, False])]
    )
    done = [
        ("remote_joint", outcome("a", [True, False], 2.0)),
        ("remote_joint", outcome("b", [True, True], 2.0)),
        ("local", outcome("a", [True, True], 1.0)),  # "b" unfinished: scored on "a" only
    ]

    report = report_only(tmp_path, data, "all", 4, "remote_joint,local", done)

    assert report["sample"]["items_scored"] == 1
    assert report["variants"]["remote_joint"]["criteria"] == 2
    assert report["variants"]["remote_joint"]["metrics"]["balanced_accuracy"] == 1.0
    assert report["variants"]["local"]["metrics"]["balanced_accuracy"] == 0.5
    versus = report["against_local"]["remote_joint"]
    assert versus["seconds_per_criterion_over_local"] == 2.0
    assert versus["balanced_accuracy_minus_local"]["difference"] == 0.5
    assert "verdicts" not in json.dumps(report)  # a summary, no per-item dump


def test_missing_data_stops_with_a_message_naming_what_to_pass(tmp_path: Path) -> None:
    result = run_bench("remote", tmp_path / "nowhere.jsonl", "--out", tmp_path / "r.json")
    assert result.returncode != 0
    assert f"judge-bench data not found: {tmp_path / 'nowhere.jsonl'}" in result.stderr


@pytest.mark.local_model
def test_smoke_run_starts_the_server_grades_both_paths_and_stops_it(tmp_path: Path) -> None:
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

    args = [data, "--split", "all", "--criteria", "2", "--out", out]
    ran(run_bench("remote", *args, "--variants", "remote_joint,local", timeout=1800))

    report = json.loads(out.read_text())
    assert not out.with_suffix(".partial.jsonl").exists()
    assert not out.with_suffix(".server.log").exists()
    for name in ("remote_joint", "local"):
        summary = report["variants"][name]
        assert summary["criteria"] == 2 and summary["calls"] >= 1
        assert summary["failures"]["grader_errors"] == summary["failures"]["exceptions"] == 0
    assert report["against_local"]["remote_joint"]["seconds_per_criterion_over_local"] > 0
