"""`bench/content_levers.py` run as a user runs it, on the shipped REALSumm sample.

A scripted model that says yes exactly when a criterion's long words are in the output stands in
for the embedded one: every way of asking is then graded, combined and fitted, and a test run
applies the dev run's thresholds instead of fitting its own.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

import pytest

from benches import BENCH_DIR, JUDGE_BENCH_SAMPLE, ran, run_bench

WAYS = [
    "plain",
    "reworded",
    "reader",
    "negated",
    "quote",
    "careful",
    "first",
    "closest",
    "words",
    "average",
    "both_ways",
    "plain_words",
]


@pytest.fixture
def levers(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH_DIR))
    return importlib.import_module("content_levers")


def test_the_closest_sentence_is_the_one_sharing_the_rarest_words(levers: ModuleType) -> None:
    output = (
        "The council met on Monday. The council voted to ban cars from the old town.\n"
        "Shops said the council ignored them."
    )
    # "council" is in every sentence and decides nothing; "cars" is in one.
    found = levers.closest_sentence(output, "The summary conveys this fact: cars are banned.")
    assert found == "The council voted to ban cars from the old town."
    assert levers.closest_sentence(output, "The reply is polite.") is None  # no word shared
    assert levers.closest_sentence("One sentence about cars.", "mentions cars") is None


def test_the_word_share_leaves_out_the_framing(levers: ModuleType) -> None:
    output = "The mayor of Paris spoke on Tuesday."
    assert levers.word_share(output, "The summary conveys this fact: the mayor spoke") == 1.0
    assert levers.word_share(output, "The summary conveys this fact: the mayor resigned") == 0.5


def test_every_way_is_measured_and_test_runs_use_the_dev_thresholds(tmp_path: Path) -> None:
    data = JUDGE_BENCH_SAMPLE / "realsumm.jsonl"
    dev, test = tmp_path / "dev.json", tmp_path / "test.json"
    judge = ["--judge", "python:bench_models.counting_words", "--criteria", "100"]
    ran(run_bench("content_levers", data, "--split", "all", *judge, "--out", dev))
    report = json.loads(dev.read_text())
    assert list(report["ways"]) == WAYS
    criteria = sum(len(json.loads(line)["criteria"]) for line in data.read_text().splitlines())
    assert report["criteria"] == criteria
    for figures in report["ways"].values():
        assert 0 <= figures["balanced_accuracy"] <= 1
        assert 0.05 <= figures["dev_threshold"] <= 0.95
        assert figures["seconds_per_criterion"] >= 0

    fitted = {way: 0.9 for way in WAYS}
    for way in WAYS:
        report["ways"][way]["dev_threshold"] = fitted[way]
    dev.write_text(json.dumps(report))
    ran(
        run_bench(
            "content_levers",
            data,
            "--split",
            "all",
            *judge,
            "--ways",
            "plain",
            "negated",
            "--fitted",
            dev,
            "--out",
            test,
        )
    )
    measured = json.loads(test.read_text())["ways"]
    assert list(measured) == ["plain", "negated", "both_ways"]
    assert all(figures["dev_threshold"] == 0.9 for figures in measured.values())
    # At 0.9 the scripted model's P(yes) of 0.9 still passes: the plain verdicts are unchanged.
    plain = measured["plain"]
    assert plain["balanced_accuracy_at_dev_threshold"] == plain["balanced_accuracy"]
