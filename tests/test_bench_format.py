"""Smoke test of `bench/format_bench.py`: both variants run end to end on a fake model.

It checks the harness (the split, the summary's shape, the checkpoint's removal), not figures.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from tests.benches import BENCH_DIR, load_bench
from tests.fakes import ScriptedChatModel, joint_reply


def _pass_all(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    labels = sorted(set(re.findall(r"\bC\d+\b", str(messages[-1].content))))
    return joint_reply(*((label, "pass", "") for label in labels))


def test_format_bench_smoke(tmp_path: Path) -> None:
    bench = load_bench("format_bench")
    data = tmp_path / "format.jsonl"
    items = [
        {
            "id": f"item-{n}",
            "task": "Write something.",
            "output": "- a bullet\n- another" if n % 2 else "Plain text.",
            "criteria": [
                {"id": "c1", "description": "No bullet points", "label": n % 2 == 0},
                {"id": "c2", "description": "The tone is warm", "label": True},
            ],
        }
        for n in range(4)
    ]
    data.write_text("".join(json.dumps(item) + "\n" for item in items))
    out = tmp_path / "summary.json"

    report = bench.main(
        [str(data), "--out", str(out)],
        model=ScriptedChatModel(script=[_pass_all], repeat_last=True),
    )

    assert json.loads(out.read_text()) == report
    assert not out.with_suffix(".partial.jsonl").exists()
    compiled, plain = report["variants"]["compiled"], report["variants"]["plain"]
    assert (compiled["criteria"], compiled["decided_by_check"]) == (8, 4)
    assert compiled["check_accuracy"] == 1.0
    assert compiled["balanced_accuracy"] == 1.0
    assert plain["decided_by_check"] == 0
    assert plain["confusion"] == {"tp": 6, "fp": 2, "fn": 0, "tn": 0}
    assert "seconds_per_criterion" in plain


def test_format_bench_keeps_the_dev_half(tmp_path: Path) -> None:
    bench = load_bench("format_bench")
    data = tmp_path / "ifeval.jsonl"
    ids = [f"ifeval:{n}" for n in range(20)]
    data.write_text(
        "".join(
            json.dumps({"id": i, "task": "t", "output": "o", "criteria": []}) + "\n" for i in ids
        )
    )
    dev = bench.load(data, "dev", None)
    test = bench.load(data, "test", None)
    assert dev and test and {d["id"] for d in dev}.isdisjoint({t["id"] for t in test})
    assert len(dev) + len(test) == len(ids)


def test_grammar_mode_measures_the_phrase_grammar_without_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_bench("format_bench")
    data = tmp_path / "format.jsonl"
    item = {
        "id": "item-1",
        "task": "Write something.",
        "output": "- a bullet\n- another",
        "criteria": [
            {"id": "c1", "description": "No bullet points", "label": False},
            {"id": "c2", "description": "Use bullet points", "label": False},  # mislabelled
            {"id": "c3", "description": "The tone is warm", "label": True},
        ],
    }
    data.write_text(json.dumps(item) + "\n")

    report = bench.main([str(data), "--grammar"])

    figures = report[str(data)]
    assert (figures["criteria"], figures["read_in_code"], figures["wrong"]) == (3, 2, 1)
    assert figures["code_accuracy"] == 0.5
    printed = capsys.readouterr().out
    assert "WRONG item-1: 'Use bullet points'" in printed
    assert "'The tone is warm'" in printed


def test_verdicts_reads_both_format_dev_files_and_stops_without_the_blind_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    monkeypatch.syspath_prepend(str(BENCH_DIR))
    bench = load_bench("verdicts")
    folder = tmp_path / "data" / "format"
    folder.mkdir(parents=True)
    for name in ("dev.jsonl", "dev-b.jsonl"):
        item = {"id": name, "task": "t", "output": "o", "criteria": []}
        (folder / name).write_text(json.dumps(item) + "\n")
    monkeypatch.setattr(bench, "HERE", tmp_path)

    def load(split: str) -> dict[str, list[dict[str, Any]]]:
        args = argparse.Namespace(judge_bench=None, split=split, sets=["format"])
        return bench.load_sets(args)  # type: ignore[no-any-return]

    assert [item["id"] for item in load("dev")["format"]] == ["dev.jsonl", "dev-b.jsonl"]
    with pytest.raises(SystemExit, match=r"test split .*test\.jsonl is missing"):
        load("test")
