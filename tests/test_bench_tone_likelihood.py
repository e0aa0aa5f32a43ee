"""`bench/tone_likelihood.py` run as a user runs it: on the tone criteria of dev files, does the
reply's likelihood under the criterion add to the judge's P(yes)?"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benches import ran, run_bench, tool_calls, write_items

FAKES = (
    "--judge",
    "python:bench_models.polite_when_thankful",
    "--scorer",
    "python:bench_models.polite_likelihood",
)

# The fake judge's P(yes) follows "Thank" (0.9, else 0.7), which has nothing to do with whether
# the reply is polite here; the fake likelihood follows "please", which does.
REPLIES = {
    "Thank you for waiting, please allow one more day.": True,
    "Happy to help, please send us the receipt.": True,
    "Thanks. Not our problem, take it up with the courier.": False,
    "Not our problem. Read the policy next time.": False,
}


def _items() -> list[dict[str, Any]]:
    items = []
    for n in range(3):
        for m, (output, polite) in enumerate(REPLIES.items()):
            criteria = [
                {"id": "c1", "description": "The reply is polite", "label": polite},
                {"id": "c2", "description": "Says when it ships", "label": False},
            ]
            items.append(
                {
                    "id": f"t{n}-{m}",
                    "task": "Reply to the customer.",
                    "output": output,
                    "criteria": criteria,
                }
            )
    return items


def test_the_likelihood_gain_is_measured_against_p_yes_out_of_fold(tmp_path: Path) -> None:
    data = write_items(tmp_path / "trivial" / "dev-x.jsonl", _items())
    out, calls = tmp_path / "tone.json", tmp_path / "calls.jsonl"

    ran(
        run_bench(
            "tone_likelihood",
            data,
            *FAKES,
            "--checkpoint",
            tmp_path / "rows.jsonl",
            "--out",
            out,
            "--shuffles",
            "3",
            calls=calls,
        )
    )

    report = json.loads(out.read_text())
    assert report["criteria"] == 12
    assert report["positive_rate"] == 0.5
    # "Thank" splits each class in half, so P(yes) ranks at chance; the gain ranks perfectly.
    assert report["auroc_p_yes"] == 0.5
    assert report["auroc_gain"] == 1.0
    cv = report["cross_validated"]
    assert cv["p_yes_and_gain"]["balanced_accuracy"] == 1.0
    assert cv["p_yes"]["balanced_accuracy"] <= 0.6
    # The fit on every row, which `TONE_LIKELIHOOD_WEIGHTS` copies, leans on the gain.
    assert report["fit"]["w_gain"] > 0
    assert set(report["fit"]) == {"intercept", "w_yes", "w_gain"}
    # Only the tone criterion is asked: "Says when it ships" is never graded.
    assert len(tool_calls(calls)) == 12 + 6  # a question each, a gap below the tone bar (P 0.7)
    assert report["measured_on"] == ["trivial/dev-x.jsonl"]
    assert report["requirement"].startswith("{task}")


def test_a_test_split_is_refused(tmp_path: Path) -> None:
    data = write_items(tmp_path / "trivial" / "test.jsonl", _items())

    result = run_bench("tone_likelihood", data, *FAKES)

    assert result.returncode == 2
    assert "test.jsonl: a test split; fit on dev files only" in result.stderr


def test_kind_form_measures_the_form_rules_no_check_read_instead(tmp_path: Path) -> None:
    items = _items()
    for item in items:  # a rule on bullets no check reads, beside the tone criterion
        polite = item["criteria"][0]["label"]
        item["criteria"].append(
            {
                "id": "c3",
                "description": "the bullets read smoothly in parallel form",
                "label": polite,
            }
        )
    data = write_items(tmp_path / "format" / "dev-x.jsonl", items)
    out = tmp_path / "form.json"

    ran(
        run_bench(
            "tone_likelihood",
            data,
            *FAKES,
            "--kind",
            "form",
            "--checkpoint",
            tmp_path / "rows.jsonl",
            "--out",
            out,
            "--shuffles",
            "2",
        )
    )

    report = json.loads(out.read_text())
    assert report["kind"] == "form"
    assert report["criteria"] == 12  # the form rule of each item, not its tone criterion
