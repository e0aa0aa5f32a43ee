"""`bench/grammar.py` run as a user runs it: one item with the real embedded model (the harness,
and that both decoding paths answer alike; the timings are the benchmark's business)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benches import JUDGE_BENCH_SAMPLE, ran, run_bench


@pytest.mark.local_model
def test_grammar_bench_runs_both_paths_on_one_item(tmp_path: Path) -> None:
    out = tmp_path / "grammar.json"

    ran(run_bench("grammar", "--items", "1", "--data", JUDGE_BENCH_SAMPLE, "--out", out))

    report = json.loads(out.read_text())
    (item,) = report["items"]
    assert item.startswith("ifeval:")
    for calls in ("joint", "reference"):
        result = report["results"][calls]
        assert result["identical_answers"] == 1
        for path in ("shortcut", "full mask"):
            assert result["paths"][path]["output_tokens"] > 0


def test_grammar_bench_says_where_to_find_absent_data(tmp_path: Path) -> None:
    result = run_bench("grammar", "--data", tmp_path / "absent")
    assert result.returncode == 2
    assert "judge-bench data not found" in result.stderr and "--data" in result.stderr
    assert str(tmp_path / "absent" / "ifeval.jsonl") in result.stderr
