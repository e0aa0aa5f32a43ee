"""`bench/judge.py` run as a user runs it, on 2 items with a scripted model.

It checks the harness, the JSON report and its figures on verdicts the script fixes: per
criterion fails everything, joint passes everything, the reference leaves one criterion out.
"""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path
from typing import Any

from benches import ran, run_bench, tool_calls
from rubricate._judge._compile._compiler import NAMES_NO_CHECK


def _write_bench(folder: Path) -> None:
    folder.mkdir()
    realsumm = {
        "id": "realsumm:1",
        "source": "realsumm",
        "task": "Summarise the article.",
        "output": "The council approved the budget.",
        "criteria": [
            {"id": "fact-1", "description": "The council approved the budget", "label": True},
            {"id": "fact-2", "description": "The vote was 7 to 2", "label": False},
        ],
    }
    ifeval = {
        "id": "ifeval:1",
        "source": "ifeval",
        "task": "Answer in lowercase.",
        "output": "all lowercase here.",
        "criteria": [
            {"id": "change_case:english_lowercase", "description": "All lowercase", "label": True}
        ],
    }
    (folder / "realsumm.jsonl").write_text(json.dumps(realsumm) + "\n")
    (folder / "ifeval.jsonl").write_text(json.dumps(ifeval) + "\n")


def _args(tmp_path: Path, variants: str, *extra: str) -> list[str]:
    """One item per source, into `tmp_path/judge.json`."""
    data = tmp_path / "judge-bench"
    if not data.exists():
        _write_bench(data)
    out = tmp_path / "judge.json"
    argv = ["--data", str(data), "--realsumm", "1", "--ifeval", "1", "--out", str(out)]
    return [*argv, "--variants", variants, *extra]


def _judge(
    tmp_path: Path, variants: str, model: str, *extra: str, calls: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`bench/judge.py` on the small sample with the scripted judge `model`."""
    return run_bench(
        "judge",
        *_args(tmp_path, variants, *extra),
        "--judge",
        f"python:bench_models.{model}",
        calls=calls,
    )


def _items(report: Path) -> list[dict[str, Any]]:
    """The per-item verdicts written beside a report."""
    with gzip.open(report.with_name(f"{report.stem}.items.jsonl.gz"), "rt") as lines:
        return [json.loads(line) for line in lines]


def test_judge_bench_grades_every_variant_and_rescores(tmp_path: Path) -> None:
    out = tmp_path / "judge.json"
    ran(_judge(tmp_path, "per_criterion,joint,compiled,reference", "every_variant"))

    report = json.loads(out.read_text())
    assert report["command"].startswith(".venv/bin/python bench/judge.py --data")
    assert {"platform", "cpus", "python"} <= set(report["machine"])
    assert report["sample"]["items"] == {"realsumm": 1, "ifeval": 1}
    assert report["sample"]["criteria"] == {"realsumm": 2, "ifeval": 1}
    assert report["sample"]["items_scored"] == 2
    assert list(report["variants"]) == ["per_criterion", "joint", "compiled", "reference"]
    for name, entry in report["variants"].items():
        overall = entry["overall"]
        assert overall["criteria"] == 3 and overall["items"] == 2, name
        assert set(overall["metrics"]) >= {
            "accuracy",
            "balanced_accuracy",
            "kappa",
            "kappa_ci95",
            "confusion",
        }
        assert overall["calls"] >= 2 and overall["seconds_per_criterion"] is not None
        assert overall["input_tokens_per_criterion"] > 0
        assert set(overall["failures"]) == {
            "exceptions",
            "grader_errors",
            "unverified_criteria",
            "missing_criteria",
            "extra_criteria",
            "truncated_answers",
        }
        assert set(entry["per_source"]) == {"realsumm", "ifeval"}
        assert "items" not in entry  # per-item verdicts stay out of the report
    outcomes = _items(out)
    assert {name: sum(o["variant"] == name for o in outcomes) for name in report["variants"]} == {
        name: 2 for name in report["variants"]
    }
    # Per criterion says "fail" to all, joint "pass" to all; the reference left one out.
    assert report["variants"]["per_criterion"]["overall"]["metrics"]["confusion"]["tp"] == 0
    assert report["variants"]["joint"]["overall"]["metrics"]["confusion"]["fn"] == 0
    reference = report["variants"]["reference"]["overall"]
    assert reference["failures"]["missing_criteria"] == 1
    assert reference["failures"]["exceptions"] == 0
    assert reference["metrics"]["confusion"] == {"tp": 2, "fp": 0, "fn": 0, "tn": 1}
    assert set(report["against_reference"]) == {"per_criterion", "joint", "compiled"}
    # Compiled: the lowercase criterion is decided in code (and passes), the facts by the judge.
    compiled = report["variants"]["compiled"]
    assert compiled["overall"]["decided_by_check"] == 1
    assert {o["item"]: o["mappings"] for o in outcomes if o["variant"] == "compiled"} == {
        "realsumm:1": [f"judge: {NAMES_NO_CHECK}"] * 2,
        "ifeval:1": ["all_lowercase()"],
    }
    assert compiled["per_source"]["ifeval"]["metrics"]["confusion"]["tp"] == 1
    assert report["variants"]["per_criterion"]["overall"]["decided_by_check"] == 0
    assert set(report["compiled_minus_per_criterion"]) == {"all", "realsumm", "ifeval"}
    assert "reference_seconds_over_variant_seconds" in report["against_reference"]["joint"]
    assert set(report["against_reference"]["joint"]["per_source"]) == {"realsumm", "ifeval"}

    # --rescore recomputes the metrics from the verdicts the report holds, with no model: one
    # that fails the run if it is asked anything.
    graded = json.loads(out.read_text())
    stale = {**graded, "against_reference": {}, "variants": dict(graded["variants"])}
    stale["variants"]["reference"] = {**graded["variants"]["reference"], "overall": None}
    out.write_text(json.dumps(stale))
    variants = "per_criterion,joint,compiled,reference"
    ran(_judge(tmp_path, variants, "unused", "--rescore"))
    rescored = json.loads(out.read_text())
    assert rescored["against_reference"] == graded["against_reference"]
    assert rescored["variants"] == graded["variants"]
    assert set(rescored["rescored"]) == {"date", "commit"}


def test_rescore_of_a_file_that_is_no_report_says_so(tmp_path: Path) -> None:
    (tmp_path / "judge.json").write_text('{"benchmark": "overhead"}')

    result = _judge(tmp_path, "per_criterion", "unused", "--rescore")

    assert result.returncode != 0
    assert "is not a bench/judge.py report" in result.stderr


def test_judge_bench_resumes_an_interrupted_run_from_its_checkpoint(tmp_path: Path) -> None:
    out, checkpoint = tmp_path / "judge.json", tmp_path / "judge.partial.jsonl"
    first, second = tmp_path / "first.calls", tmp_path / "second.calls"

    interrupted = _judge(tmp_path, "per_criterion,joint", "interrupted_in_joint", calls=first)

    assert interrupted.returncode != 0 and "KeyboardInterrupt" in interrupted.stderr
    assert not out.exists()
    lines = [json.loads(line) for line in checkpoint.read_text().splitlines()]
    assert [r["item"] for r in lines if r.get("variant") == "per_criterion"] == [
        "realsumm:1",
        "ifeval:1",
    ]
    # A line torn by the interruption is dropped, not fatal.
    with checkpoint.open("a") as handle:
        handle.write('{"variant": "joint", "item": "realsu')

    ran(_judge(tmp_path, "per_criterion,joint", "every_variant", calls=second))

    # Only the joint variant ran again: per_criterion came from the checkpoint.
    assert {name for call in tool_calls(second) for name in call} == {"RubricVerdicts"}
    report = json.loads(out.read_text())
    assert report["variants"]["per_criterion"]["overall"]["criteria"] == 3
    per_criterion_calls = [c for c in tool_calls(first) if c == ["CriterionAnswer"]]
    assert report["variants"]["per_criterion"]["overall"]["calls"] == len(per_criterion_calls)
    assert report["variants"]["joint"]["overall"]["items"] == 2
    assert len(report["segments"]) == 2
    assert not checkpoint.exists()


def test_a_checkpoint_survives_being_resumed_twice(tmp_path: Path) -> None:
    checkpoint = tmp_path / "judge.partial.jsonl"
    for _ in range(2):  # the second run loads the checkpoint, then is interrupted again
        result = _judge(tmp_path, "per_criterion,joint", "interrupted_in_joint")
        assert "KeyboardInterrupt" in result.stderr
    records = [json.loads(line) for line in checkpoint.read_text().splitlines()]
    outcomes = [r for r in records if "item" in r]
    assert [r["variant"] for r in outcomes] == ["per_criterion", "per_criterion"]

    third = tmp_path / "third.calls"
    ran(_judge(tmp_path, "per_criterion,joint", "every_variant", calls=third))
    assert {name for call in tool_calls(third) for name in call} == {"RubricVerdicts"}
    assert len(json.loads((tmp_path / "judge.json").read_text())["segments"]) == 3


def test_judge_bench_refuses_a_checkpoint_of_another_configuration(tmp_path: Path) -> None:
    checkpoint = tmp_path / "judge.partial.jsonl"
    checkpoint.write_text(json.dumps({"config": {"seed": 7}}) + "\n")
    calls = tmp_path / "calls"

    refused = _judge(tmp_path, "joint", "every_variant", calls=calls)

    assert refused.returncode != 0
    assert "another configuration" in refused.stderr and "--fresh" in refused.stderr
    assert tool_calls(calls) == []
    ran(_judge(tmp_path, "joint", "every_variant", "--fresh"))
    report = json.loads((tmp_path / "judge.json").read_text())
    assert report["variants"]["joint"]["overall"]["items"] == 2


def test_a_skipped_sample_is_disjoint_from_the_first(tmp_path: Path) -> None:
    data = tmp_path / "judge-bench"
    data.mkdir()
    for source in ("realsumm", "ifeval"):
        rows = [
            {
                "id": f"{source}:{n}",
                "source": source,
                "task": "t",
                "output": "o",
                "criteria": [
                    {"description": f"c{k}", "label": k % 2 == 0} for k in range(1 + n % 3)
                ],
            }
            for n in range(40)
        ]
        (data / f"{source}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))

    def items(*extra: str) -> set[str]:
        out = tmp_path / "judge.json"
        argv = ["--data", str(data), "--realsumm", "20", "--ifeval", "0", "--out", str(out)]
        ran(
            run_bench(
                "judge",
                *argv,
                "--variants",
                "joint",
                "--judge",
                "python:bench_models.every_variant",
                *extra,
            )
        )
        report = json.loads(out.read_text())
        assert report["sample"]["criteria"]["realsumm"] >= 20
        return {o["item"] for o in _items(out) if o["variant"] == "joint"}

    assert not items() & items("--skip", "20")


def test_judge_bench_without_its_data_says_where_to_pass_it(tmp_path: Path) -> None:
    result = run_bench("judge", "--data", str(tmp_path), "--judge", "python:bench_models.unused")
    assert result.returncode == 2
    assert f"judge-bench data not found: {tmp_path / 'realsumm.jsonl'}" in result.stderr
    assert "pass --data FOLDER" in result.stderr
