"""Smoke run of `bench/grammar.py` on one item with the real embedded model (the harness, and
that both decoding paths answer alike; the timings are the benchmark's business)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.benches import JUDGE_BENCH_SAMPLE, load_bench


@pytest.mark.local_model
def test_grammar_bench_runs_both_paths_on_one_item(tmp_path: Path) -> None:
    bench = load_bench("grammar")
    out = tmp_path / "grammar.json"

    report = bench.main(["--items", "1", "--data", str(JUDGE_BENCH_SAMPLE), "--out", str(out)])

    assert json.loads(out.read_text()) == report
    (item,) = report["items"]
    assert item.startswith("ifeval:")
    for calls in ("joint", "reference"):
        result = report["results"][calls]
        assert result["identical_answers"] == 1
        for path in ("shortcut", "full mask"):
            assert result["paths"][path]["output_tokens"] > 0


def test_grammar_bench_says_where_to_find_absent_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        load_bench("grammar").main(["--data", str(tmp_path / "absent")])
    error = capsys.readouterr().err
    assert "judge-bench data not found" in error and "--data" in error
    assert str(tmp_path / "absent" / "ifeval.jsonl") in error
