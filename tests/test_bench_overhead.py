"""`bench/overhead.py --quick` run as a user runs it: the JSON it writes, and that each verdict
it prints follows from the figure and the target it reports (the figures depend on the machine).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from benches import ran, run_bench


def test_quick_run_writes_well_formed_json(tmp_path: Path) -> None:
    target = tmp_path / "results" / "overhead.json"
    printed = ran(run_bench("overhead", "--quick", "--json", target)).stdout

    data = json.loads(target.read_text(encoding="utf-8"))
    assert {
        "machine",
        "versions",
        "settings",
        "throughput",
        "joint_breakdown_us",
    } <= set(data)
    assert {"grade", "grade_ceiling", "memory", "targets", "wall_s"} <= set(data)
    assert {"platform", "cpus", "python", "load_average_at_start"} <= set(data["machine"])
    assert data["settings"]["quick"] is True

    modes = [row["mode"] for row in data["throughput"]]
    assert modes == ["joint", "per_criterion", "per_criterion (embedded path)"]
    for row in data["throughput"]:
        assert row["criteria_per_s"] > 0
        # The verdict follows the figure and the target it reports (the figure is rounded to 0.1).
        met = row["meets_target"]
        margin = row["criteria_per_s"] - row["target_criteria_per_s"]
        assert (margin >= -0.05) if met else (margin <= 0.05), row

    parts = data["joint_breakdown_us"]["parts"]
    assert {"total_aevaluate", "langchain_invoke", "langchain_own", "rubricate_rest"} <= set(parts)
    # The shares are the differences of what was measured (each part rounded to 0.1 µs).
    rest = parts["total_aevaluate"] - parts["langchain_invoke"]
    assert math.isclose(parts["rubricate_rest"], rest, abs_tol=0.15)
    own = parts["langchain_invoke"] - parts["fake_reply"]
    assert math.isclose(parts["langchain_own"], own, abs_tol=0.15)
    assert data["joint_breakdown_us"]["langchain_call_variants"]

    fixed = [row for row in data["grade"] if not row["judge_jitter_s"]]
    assert [row["jobs"] for row in fixed] == [1, 8, 32]
    for row in data["grade"]:
        assert row["items"] == row["jobs"] * data["settings"]["rounds"]
        assert row["ratio_of_ideal"] > 0
    last = fixed[-1]
    assert last["meets_target"] == (last["ratio_of_ideal"] >= last["target_ratio"]), last
    assert all("meets_target" not in row for row in fixed[:-1])  # the target is set at -j 32 only
    assert data["grade_ceiling"]["items_per_s"] > 0

    memory = data["memory"]
    assert memory["lines"] == data["settings"]["memory_lines"]
    assert 0 < memory["baseline_mb"] <= memory["peak_mb"]
    assert memory["meets_target"] == (memory["peak_mb"] < memory["target_peak_mb"]), memory

    # The summary repeats each verdict, and the printed tables say the same.
    assert data["targets"] == {
        "criteria_per_s": {row["mode"]: row["meets_target"] for row in data["throughput"]},
        "grade_ratio_at_32": last["meets_target"],
        "peak_memory": memory["meets_target"],
    }
    assert "Verdict processing" in printed and "Peak memory" in printed
    verdicts = [*data["targets"]["criteria_per_s"].values(), last["meets_target"]]
    verdicts.append(memory["meets_target"])
    assert printed.count("MISSED") == verdicts.count(False), printed
