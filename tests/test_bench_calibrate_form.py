"""`bench/calibrate_form.py` run as a user runs it: the bar is fitted on the form rules no check
could read, and only on dev files."""

from __future__ import annotations

import json
from pathlib import Path

from benches import ran, run_bench


def _write(path: Path, outputs: list[str]) -> Path:
    items = [
        {
            "id": f"{path.stem}-{n}",
            "task": "Write a tip.",
            "output": output,
            "criteria": [
                # a form rule the grammar does not read: the bar is fitted on these
                {"id": "c1", "description": "Put the key term in bold", "label": "**" in output},
                # a judgment call: reported beside them, never refitted
                {"id": "c2", "description": "Sounds friendly", "label": True},
                # read in code: no model verdict at all
                {"id": "c3", "description": "No bullet points", "label": "- " not in output},
            ],
        }
        for n, output in enumerate(outputs)
    ]
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    return path


def test_the_bar_is_fitted_on_form_rules_no_check_read(tmp_path: Path) -> None:
    outputs = ["Drink **water** daily.", "Drink water daily.", "- Sleep **well**.", "- Sleep."]
    data = _write(tmp_path / "dev-x.jsonl", outputs * 3)
    out = tmp_path / "form.json"
    judge = ["--judge", "python:bench_models.yes_to_bold", "--checkpoint", tmp_path / "rows.jsonl"]

    ran(run_bench("calibrate_form", data, *judge, "--out", out))

    report = json.loads(out.read_text())
    form = report["form_unread"]["all"]
    # P(yes) 0.9 with bold, 0.6 without: every no-bold text passes at 0.5 and fails at 0.9.
    assert report["form_pass_threshold"] == 0.9
    assert form["criteria"] == 12
    assert (form["false_pass_rate_at_0.5"], form["false_pass_rate_at_bar"]) == (1.0, 0.0)
    assert form["balanced_accuracy_at_bar"] == 1.0
    assert report["other_model_verdicts"]["criteria"] == 12
    assert report["fitted_on"] == ["dev-x.jsonl"]
    assert "FORM_PASS_THRESHOLD" in report["constants_in_code"]


def test_a_test_split_is_refused(tmp_path: Path) -> None:
    data = _write(tmp_path / "test-b.jsonl", ["Drink **water** daily."])

    result = run_bench("calibrate_form", data, "--judge", "python:bench_models.yes_to_bold")

    assert result.returncode == 2
    assert "test-b.jsonl: a test split; fit on dev files only" in result.stderr
