"""`bench/layout_facts.py` run as a user runs it: the judge with and without the layout facts,
on the form rules no check could read and on nothing else."""

from __future__ import annotations

import json
from pathlib import Path

from benches import ran, run_bench, write_bold_items


def test_both_variants_grade_the_same_form_rules_in_one_run(tmp_path: Path) -> None:
    data = write_bold_items(
        tmp_path / "dev-x.jsonl", ["Drink **water** daily.", "Drink water daily."] * 2
    )
    out, rows = tmp_path / "facts.json", tmp_path / "rows.jsonl"
    judge = ["--judge", "python:bench_models.reads_the_facts", "--checkpoint", rows]

    ran(run_bench("layout_facts", data, *judge, "--out", out))

    report = json.loads(out.read_text())
    facts, blind = report["variants"]["facts"]["all"], report["variants"]["no-facts"]["all"]
    assert facts["criteria"] == blind["criteria"] == 4  # c1 of each item, nothing else
    assert (facts["balanced_accuracy"], facts["false_pass_rate"]) == (1.0, 0.0)
    assert (blind["balanced_accuracy"], blind["false_pass_rate"]) == (0.5, 1.0)
    assert report["variants"]["facts"]["dev-x.jsonl"]["criteria"] == 4
    assert report["command"].startswith(".venv/bin/python bench/layout_facts.py")

    # A rerun resumes from the checkpoint: no item is graded again.
    again = run_bench("layout_facts", data, *judge, "--out", out)
    ran(again)
    assert "dev-x-0" not in again.stdout.split("variant")[0]


def test_a_limit_keeps_the_first_items_that_hold_such_criteria(tmp_path: Path) -> None:
    data = write_bold_items(
        tmp_path / "dev-x.jsonl", ["Drink **water** daily.", "Drink water daily."] * 3
    )
    out = tmp_path / "facts.json"
    judge = ["--judge", "python:bench_models.reads_the_facts", "--checkpoint", tmp_path / "r"]

    ran(run_bench("layout_facts", data, *judge, "--out", out, "--limit", "2"))

    report = json.loads(out.read_text())
    assert report["limit"] == 2
    assert report["variants"]["facts"]["all"]["criteria"] == 2
