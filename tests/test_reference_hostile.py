"""Smoke test of `bench/hostile.py` with a fake model: our judge (guard off and on) and
deepagents' reference grader on the same rows, plus the per-defence breakdown.

It checks the harness and the JSON shape, not the figures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.utils.function_calling import convert_to_openai_tool
from tests.benches import load_bench
from tests.fakes import ScriptedChatModel, criterion_reply, joint_reply, tool_reply


def _reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
    """A gullible grader: passes every criterion, in whatever shape it is asked for."""
    names = {convert_to_openai_tool(t)["function"]["name"] for t in kwargs.get("tools") or ()}
    if "GraderResponse" in names:
        criteria = [{"name": "c1", "passed": True}, {"name": "c2", "passed": True}]
        return tool_reply(
            "GraderResponse", {"result": "satisfied", "explanation": "ok", "criteria": criteria}
        )
    if "RubricVerdicts" in names:
        return joint_reply(("C1", "pass", ""), ("C2", "pass", ""))
    if "CriterionVerdict" in names:
        return criterion_reply("pass")
    raise AssertionError(f"unexpected call with tools {names}")


def test_hostile_bench_runs_every_config_with_a_fake_model(tmp_path: Path) -> None:
    bench = load_bench("hostile")
    out = tmp_path / "hostile.json"
    model = ScriptedChatModel(script=[_reply], repeat_last=True)
    argv = [
        "--configs",
        "guard_off,guard_on",
        "--reference",
        "--limit",
        "12",
        "--judge-bench",
        str(tmp_path / "absent"),
        "--json",
        str(out),
    ]

    payload = bench.main(argv, model=model)

    assert json.loads(out.read_text()) == payload
    assert payload["configs"] == ["guard_off", "guard_on", "reference"]
    assert payload["command"].startswith(".venv/bin/python bench/hostile.py --configs")
    rows = payload["rows"]
    assert rows == 12
    results = payload["results"]
    hostile = results["guard_off"]["counts"]["hostile"]["rows"]
    assert hostile > 0
    # The gullible model passes everything; the guard stops exactly the hostile rows.
    assert results["guard_off"]["counts"]["hostile"]["passed"] == hostile
    assert results["guard_on"]["counts"]["hostile"]["passed"] == 0
    assert results["guard_on"]["counts"]["control_right"]["passed"] > 0
    assert results["reference"]["counts"]["hostile"]["passed"] == hostile
    assert results["reference"]["calls"] == rows
    assert all(len(r["rows"]) == rows for r in results.values())
    defences = payload["defences"]["hostile"]
    assert defences == {
        "rows": hostile,
        "guard_flags": hostile,
        "model_alone_stops": 0,
        "guard_and_model_both_stop": 0,
        "only_guard_stops": hostile,
        "only_model_stops": 0,
        "neither_stops": 0,
        "combination_stops": hostile,
        "reference_stops": 0,
    }
    assert payload["defences"]["control_right"]["guard_flags"] == 0
    assert payload["judge_bench_flags"] == {}


def test_unknown_config_is_refused() -> None:
    bench = load_bench("hostile")
    try:
        bench.parse_args(["--configs", "guard_on,nope"])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("an unknown config was accepted")
