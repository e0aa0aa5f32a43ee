"""`bench/calibrate_form.py` run as a user runs it: the bar is fitted on the form rules no check
could read, and only on dev files."""

from __future__ import annotations

import json
from pathlib import Path

from benches import ran, run_bench, tool_calls, write_bold_items, write_items


def test_the_bar_is_fitted_on_form_rules_no_check_read(tmp_path: Path) -> None:
    outputs = ["Drink **water** daily.", "Drink water daily.", "- Sleep **well**.", "- Sleep."]
    data = write_bold_items(tmp_path / "dev-x.jsonl", outputs * 3)
    out = tmp_path / "form.json"
    judge = ["--judge", "python:bench_models.yes_to_bold", "--checkpoint", tmp_path / "rows.jsonl"]

    calls = tmp_path / "calls.jsonl"
    ran(run_bench("calibrate_form", data, *judge, "--out", out, calls=calls))

    report = json.loads(out.read_text())
    form = report["form_unread"]["all"]
    # P(yes) 0.9 with bold, 0.6 without: every no-bold text passes at 0.5 and fails at 0.9.
    assert report["form_pass_threshold"] == 0.9
    assert form["criteria"] == 12
    assert (form["false_pass_rate_at_0.5"], form["false_pass_rate_at_bar"]) == (1.0, 0.0)
    assert form["balanced_accuracy_at_bar"] == 1.0
    # Only those rules are graded: one question per item, and a gap for each of the six
    # without bold; "Sounds friendly", a judgment call, is never asked.
    assert len(tool_calls(calls)) == 12 + 6
    assert "other_model_verdicts" not in report
    assert report["fitted_on"] == ["dev-x.jsonl"]
    assert "FORM_PASS_THRESHOLD" in report["constants_in_code"]


def test_a_test_split_is_refused(tmp_path: Path) -> None:
    data = write_bold_items(tmp_path / "test-b.jsonl", ["Drink **water** daily."])

    result = run_bench("calibrate_form", data, "--judge", "python:bench_models.yes_to_bold")

    assert result.returncode == 2
    assert "test-b.jsonl: a test split; fit on dev files only" in result.stderr


def test_the_tone_bar_is_fitted_on_criteria_about_tone_alone(tmp_path: Path) -> None:
    outputs = ["Thank you, it ships today.", "It ships when it ships."] * 4
    items = [
        {
            "id": f"t{n}",
            "task": "Reply to the customer.",
            "output": output,
            "criteria": [
                {"id": "c1", "description": "The reply is polite", "label": "Thank" in output},
                {"id": "c2", "description": "Says when it ships", "label": True},
            ],
        }
        for n, output in enumerate(outputs)
    ]
    data = write_items(tmp_path / "trivial" / "dev-x.jsonl", items)
    out, calls = tmp_path / "tone.json", tmp_path / "calls.jsonl"
    judge = ["--judge", "python:bench_models.polite_when_thankful"]
    judge += ["--checkpoint", tmp_path / "rows.jsonl"]

    ran(run_bench("calibrate_form", "--kind", "tone", data, *judge, "--out", out, calls=calls))

    report = json.loads(out.read_text())
    tone = report["tone"]["all"]
    # P(yes) 0.9 when polite, 0.7 when curt: every curt reply passes at 0.5, none at 0.9.
    assert report["tone_pass_threshold"] == 0.9
    assert tone["criteria"] == 8
    assert (tone["false_pass_rate_at_0.5"], tone["false_pass_rate_at_bar"]) == (1.0, 0.0)
    # Only the tone criteria are graded: "Says when it ships" is never asked.
    assert len(tool_calls(calls)) == 8 + 4
    assert report["fitted_on"] == ["trivial/dev-x.jsonl"]
    assert "TONE_PASS_THRESHOLD" in report["constants_in_code"]
