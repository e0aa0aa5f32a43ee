"""Smoke test of `bench/judge.py`: the harness runs end to end on 2 items with a fake model.

It checks the harness and the JSON shape, not the figures.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from tests.benches import load_bench
from tests.fakes import ScriptedChatModel, criterion_reply, joint_reply, tool_reply

from rubricate._judge._answers import CRITERION_TITLE, JOINT_TITLE
from rubricate._judge._compile._compiler import NAMES_NO_CHECK


def _tool_names(kwargs: dict[str, Any]) -> set[str]:
    return {convert_to_openai_tool(t)["function"]["name"] for t in kwargs.get("tools") or ()}


def _reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    """Answers whatever a variant asks, in the shape it asks for."""
    names = _tool_names(kwargs)
    last = str(messages[-1].content)
    if "GraderResponse" in names:
        rubric = re.search(r"<rubric-\w+>\n(.*?)\n</rubric-", last, re.DOTALL)
        count = len(rubric.group(1).splitlines()) if rubric else 1
        shown = max(1, count - 1)  # leaves one criterion out when there are several
        criteria = [{"name": "first", "passed": True}] + [
            {"name": f"c{i}", "passed": False, "gap": "missing"} for i in range(2, shown + 1)
        ]
        result = "satisfied" if shown == 1 else "needs_revision"
        return tool_reply(
            "GraderResponse",
            {"result": result, "explanation": "fake", "criteria": criteria},
            tokens=(200, 40),
        )
    if "check_mapping" in names:  # compile: only the lowercase criterion maps to a check
        criterion = last.rsplit("Criterion:", 1)[1]
        check = {"name": "all_lowercase" if "lowercase" in criterion else "none"}
        return tool_reply("check_mapping", {"check": check}, tokens=(300, 10))
    if JOINT_TITLE in names:
        labels = re.findall(r"^(C\d+):", last, re.MULTILINE)
        return joint_reply(*((label, "pass", "") for label in labels), tokens=(100, 20))
    if CRITERION_TITLE in names:
        return criterion_reply("fail", "missing", tokens=(50, 5))
    raise AssertionError(f"unexpected call with tools {names}")


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


def test_judge_bench_smoke(tmp_path: Path) -> None:
    bench = load_bench("judge")
    data = tmp_path / "judge-bench"
    _write_bench(data)
    out = tmp_path / "judge.json"
    model = ScriptedChatModel(script=[_reply], repeat_last=True)

    argv = ["--data", str(data), "--realsumm", "1", "--ifeval", "1", "--out", str(out)]
    bench.main(argv, model=model)

    report = json.loads(out.read_text())
    assert report["command"].startswith(".venv/bin/python bench/judge.py --data")
    assert {"platform", "cpus", "python"} <= set(report["machine"])
    assert report["sample"]["items"] == {"realsumm": 1, "ifeval": 1}
    assert report["sample"]["reference_max_calls_per_item"] is None
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
        assert len(entry["items"]) == 2
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
    assert {o["item"]: o["mappings"] for o in compiled["items"]} == {
        "realsumm:1": [f"judge: {NAMES_NO_CHECK}"] * 2,
        "ifeval:1": ["all_lowercase()"],
    }
    assert compiled["per_source"]["ifeval"]["metrics"]["confusion"]["tp"] == 1
    assert report["variants"]["per_criterion"]["overall"]["decided_by_check"] == 0
    assert set(report["compiled_minus_per_criterion"]) == {"all", "realsumm", "ifeval"}
    assert "reference_seconds_over_variant_seconds" in report["against_reference"]["joint"]
    assert set(report["against_reference"]["joint"]["per_source"]) == {"realsumm", "ifeval"}


def test_rescore_recomputes_the_metrics_without_a_model(tmp_path: Path) -> None:
    bench, argv, out, _ = _small_run(tmp_path, "per_criterion,reference")
    graded = bench.main(argv, model=ScriptedChatModel(script=[_reply], repeat_last=True))
    stale = {**graded, "against_reference": {}, "variants": dict(graded["variants"])}
    stale["variants"]["reference"] = {**graded["variants"]["reference"], "overall": None}
    out.write_text(json.dumps(stale))

    rescored = bench.main([*argv, "--rescore"])  # no model is passed, and none is loaded

    assert rescored["against_reference"] == graded["against_reference"]
    assert rescored["variants"] == graded["variants"]
    assert set(rescored["rescored"]) == {"date", "commit"}
    assert json.loads(out.read_text()) == rescored


def test_rescore_of_a_file_that_is_no_report_says_so(tmp_path: Path) -> None:
    bench, argv, out, _ = _small_run(tmp_path, "per_criterion")
    out.write_text('{"benchmark": "overhead"}')

    with pytest.raises(SystemExit, match=r"is not a bench/judge\.py report"):
        bench.main([*argv, "--rescore"])


def _interrupt_in_joint(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    """Answers like `_reply` until the joint variant asks, then stops as Ctrl-C would."""
    if "RubricVerdicts" in _tool_names(kwargs):
        raise KeyboardInterrupt
    return _reply(messages, kwargs)


def _small_run(tmp_path: Path, variants: str) -> tuple[Any, list[str], Path, Path]:
    """The bench module, its arguments for one item per source, the report and checkpoint."""
    data = tmp_path / "judge-bench"
    _write_bench(data)
    out = tmp_path / "judge.json"
    argv = ["--data", str(data), "--realsumm", "1", "--ifeval", "1", "--out", str(out)]
    return (
        load_bench("judge"),
        [*argv, "--variants", variants],
        out,
        out.with_suffix(".partial.jsonl"),
    )


def test_judge_bench_resumes_an_interrupted_run_from_its_checkpoint(tmp_path: Path) -> None:
    bench, argv, out, checkpoint = _small_run(tmp_path, "per_criterion,joint")

    first = ScriptedChatModel(script=[_interrupt_in_joint], repeat_last=True)
    with pytest.raises(KeyboardInterrupt):
        bench.main(argv, model=first)
    assert not out.exists()
    lines = [json.loads(line) for line in checkpoint.read_text().splitlines()]
    assert [r["item"] for r in lines if r.get("variant") == "per_criterion"] == [
        "realsumm:1",
        "ifeval:1",
    ]
    # A line torn by the interruption is dropped, not fatal.
    with checkpoint.open("a") as handle:
        handle.write('{"variant": "joint", "item": "realsu')

    second = ScriptedChatModel(script=[_reply], repeat_last=True)
    report = bench.main(argv, model=second)

    # Only the joint variant ran again: per_criterion came from the checkpoint.
    asked = {name for _, kwargs in second.calls for name in _tool_names(kwargs)}
    assert asked == {"RubricVerdicts"}
    assert report["variants"]["per_criterion"]["overall"]["criteria"] == 3
    assert report["variants"]["per_criterion"]["overall"]["calls"] == len(first.calls) - 1
    assert report["variants"]["joint"]["overall"]["items"] == 2
    assert len(report["segments"]) == 2
    assert not checkpoint.exists()


def test_a_checkpoint_survives_being_resumed_twice(tmp_path: Path) -> None:
    bench, argv, _, checkpoint = _small_run(tmp_path, "per_criterion,joint")
    for _ in range(2):  # the second run loads the checkpoint, then is interrupted again
        with pytest.raises(KeyboardInterrupt):
            bench.main(
                argv, model=ScriptedChatModel(script=[_interrupt_in_joint], repeat_last=True)
            )
    records = [json.loads(line) for line in checkpoint.read_text().splitlines()]
    outcomes = [r for r in records if "item" in r]
    assert [r["variant"] for r in outcomes] == ["per_criterion", "per_criterion"]

    third = ScriptedChatModel(script=[_reply], repeat_last=True)
    report = bench.main(argv, model=third)
    assert {n for _, kwargs in third.calls for n in _tool_names(kwargs)} == {"RubricVerdicts"}
    assert len(report["segments"]) == 3


def test_judge_bench_refuses_a_checkpoint_of_another_configuration(tmp_path: Path) -> None:
    bench, argv, out, checkpoint = _small_run(tmp_path, "joint")
    checkpoint.write_text(json.dumps({"config": {"seed": 7}}) + "\n")
    model = ScriptedChatModel(script=[_reply], repeat_last=True)

    with pytest.raises(SystemExit, match=r"another configuration.*--fresh"):
        bench.main(argv, model=model)
    assert model.calls == []

    bench.main([*argv, "--fresh"], model=model)
    assert json.loads(out.read_text())["variants"]["joint"]["overall"]["items"] == 2


def test_a_skipped_sample_is_disjoint_from_the_first(tmp_path: Path) -> None:
    bench = load_bench("judge")
    data = tmp_path / "items.jsonl"
    rows = [{"id": f"i{n}", "criteria": [{"label": True}] * (1 + n % 3)} for n in range(40)]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))

    first = bench.sample_items(data, 20, seed=3)
    held_out = bench.sample_items(data, 20, seed=3, skip=20)

    assert sum(len(i["criteria"]) for i in first) >= 20
    assert sum(len(i["criteria"]) for i in held_out) >= 20
    assert not {i["id"] for i in first} & {i["id"] for i in held_out}


def test_judge_bench_without_its_data_says_where_to_pass_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        load_bench("judge").main(["--data", str(tmp_path)], model=ScriptedChatModel(script=[]))
    error = capsys.readouterr().err
    assert f"judge-bench data not found: {tmp_path / 'realsumm.jsonl'}" in error
    assert "pass --data FOLDER" in error
