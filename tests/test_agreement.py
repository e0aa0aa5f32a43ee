"""Judge agreement (`rubricate._batch._agreement`): metrics against hand-computed values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from grading_fakes import KeywordJudge, keyword_judge
from rubricate._batch._agreement import measure_agreement
from rubricate._batch._labels import LabelledItem, parse_labelled
from rubricate._batch._statistics import agreement_metrics, calibration_of, kappa_from_counts
from rubricate._batch._streaming import LineProblem


def crit(cid: str, word: str, label: bool) -> dict[str, Any]:
    return {"id": cid, "description": f"Mentions {word}", "label": label}


# The fake judge passes "Mentions X" when X is in the output. Per pair, (label, verdict):
#   a1 "Paris":      paris (T, T) TP    rome (T, F) FN
#   a2 "Rome":       paris (F, F) TN    rome (F, T) FP
#   b1 "Paris Rome": paris (T, T) TP    oslo (F, F) TN
#   b2 "Oslo":       oslo  (T, T) TP    paris (F, F) TN
# Overall TP 3, FN 1, TN 3, FP 1: accuracy 6/8 = 0.75, balanced (3/4 + 3/4) / 2 = 0.75,
# kappa: p_o = 0.75, p_e = 0.5 * 0.5 + 0.5 * 0.5 = 0.5, so (0.75 - 0.5) / (1 - 0.5) = 0.5.
# Source a: TP FN TN FP: accuracy 0.5, balanced 0.5, kappa 0. Source b: all agree: 1, 1, 1.
# Per criterion id: paris TP TN TP TN -> kappa 1; rome FN FP -> accuracy 0, kappa -1; oslo 1.
LABELLED = [
    {"id": "a1", "source": "a", "task": "t", "output": "Paris",
     "criteria": [crit("paris", "Paris", True), crit("rome", "Rome", True)]},
    {"id": "a2", "source": "a", "task": "t", "output": "Rome",
     "criteria": [crit("paris", "Paris", False), crit("rome", "Rome", False)]},
    {"id": "b1", "source": "b", "task": "t", "output": "Paris Rome",
     "criteria": [crit("paris", "Paris", True), crit("oslo", "Oslo", False)]},
    {"id": "b2", "source": "b", "task": "t", "output": "Oslo",
     "criteria": [crit("oslo", "Oslo", True), crit("paris", "Paris", False)]},
]  # fmt: skip


def write_labelled(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_metrics_match_hand_computed_values(tmp_path: Path) -> None:
    path = write_labelled(tmp_path / "bench.jsonl", LABELLED)
    report = measure_agreement([path], judge=keyword_judge(KeywordJudge()))

    overall = report.overall
    assert overall is not None
    assert (overall.tp, overall.fn, overall.tn, overall.fp) == (3, 1, 3, 1)
    assert (overall.criteria, overall.items) == (8, 4)
    assert overall.accuracy == pytest.approx(0.75)
    assert overall.balanced_accuracy == pytest.approx(0.75)
    assert overall.kappa == pytest.approx(0.5)
    assert overall.kappa_ci is not None
    low, high = overall.kappa_ci
    assert -1 <= low <= 0.5 <= high <= 1

    a, b = report.per_source["a"], report.per_source["b"]
    assert (a.accuracy, a.balanced_accuracy, a.kappa) == (0.5, 0.5, pytest.approx(0.0))
    assert (b.accuracy, b.balanced_accuracy, b.kappa) == (1.0, 1.0, 1.0)
    assert list(report.per_criterion) == ["oslo", "paris", "rome"]
    paris, rome = report.per_criterion["paris"], report.per_criterion["rome"]
    assert (paris.criteria, paris.accuracy, paris.kappa) == (4, 1.0, 1.0)
    assert (rome.accuracy, rome.balanced_accuracy, rome.kappa) == (0.0, 0.0, -1.0)

    assert (report.items_available, report.items_used) == (4, 4)
    assert report.ok and report.usage.calls == 4
    data = report.to_dict()
    assert data["overall"]["confusion"] == {"tp": 3, "fp": 1, "fn": 1, "tn": 3}
    assert data["overall"]["kappa_ci95"] == [low, high]
    assert data["per_source"]["b"]["kappa"] == 1.0
    assert data["items_graded"] == 4
    json.dumps(data)  # JSON-ready


def test_undefined_metrics_are_none_not_warnings() -> None:
    metrics = agreement_metrics([True, True, True], [True, True, True])
    assert metrics.accuracy == 1.0
    assert metrics.kappa is None and metrics.kappa_ci is None
    assert metrics.balanced_accuracy is None  # labels hold one class only
    one_class_labels = agreement_metrics([True, True], [True, False])
    assert one_class_labels.kappa == 0.0 and one_class_labels.balanced_accuracy is None


def test_the_vectorised_bootstrap_kappa_is_sklearn_kappa() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        y_true = rng.random(40) < 0.6
        y_pred = rng.random(40) < 0.5
        codes = y_true.astype(int) * 2 + y_pred.astype(int)
        counts = np.bincount(codes, minlength=4)
        assert kappa_from_counts(counts) == pytest.approx(cohen_kappa_score(y_true, y_pred))


def test_the_bootstrap_is_seeded() -> None:
    rng = np.random.default_rng(0)
    labels = (rng.random(60) < 0.5).tolist()
    verdicts = [label if rng.random() < 0.8 else not label for label in labels]
    clusters = [n // 3 for n in range(60)]
    first = agreement_metrics(labels, verdicts, clusters, seed=1)
    assert first == agreement_metrics(labels, verdicts, clusters, seed=1)
    assert first.kappa_ci != agreement_metrics(labels, verdicts, clusters, seed=2).kappa_ci
    assert first.items == 20


def test_judge_failures_are_left_out_and_counted(tmp_path: Path) -> None:
    rows = [*LABELLED, {**LABELLED[0], "id": "boom", "output": "EXPLODE"}]
    report = measure_agreement(
        [write_labelled(tmp_path / "b.jsonl", rows)], judge=keyword_judge(KeywordJudge())
    )
    assert report.overall is not None and report.overall.criteria == 8
    assert [item_id for item_id, _ in report.errors] == ["boom"]
    assert "the provider exploded" in report.errors[0][1]
    assert not report.ok and report.to_dict()["items_graded"] == 4


def test_labelled_ids_may_repeat_within_an_item(tmp_path: Path) -> None:
    row = {
        "id": "dup", "source": "ifeval", "output": "war war",
        "criteria": [
            {"id": "keywords-frequency", "description": "Says war", "label": True},
            {"id": "keywords-frequency", "description": "Says peace", "label": False},
        ],
    }  # fmt: skip
    report = measure_agreement(
        [write_labelled(tmp_path / "b.jsonl", [row])], judge=keyword_judge(KeywordJudge())
    )
    metrics = report.per_criterion["keywords-frequency"]
    assert (metrics.criteria, metrics.tp, metrics.tn) == (2, 1, 1)


def test_malformed_labelled_lines_are_reported_and_skipped(tmp_path: Path) -> None:
    rows: list[Any] = [LABELLED[0], "{bad", {"id": "x", "output": "o", "criteria": []}]
    report = measure_agreement(
        [write_labelled(tmp_path / "b.jsonl", rows)], judge=keyword_judge(KeywordJudge())
    )
    assert report.malformed == 2 and [p.line for p in report.problems] == [2, 3]
    assert report.items_used == 1 and not report.ok


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("x", "expected a JSON object"),
        ({"id": None}, "`id` must be a non-empty string or an integer"),
        ({"id": "i", "output": 1}, "`output` must be a string"),
        ({"id": "i", "output": "o", "criteria": "c"}, "`criteria` must be a non-empty list"),
        ({"id": "i", "output": "o", "criteria": [{"description": "d", "label": "yes"}]},
         "criteria[0].label: expected true or false, got 'yes'"),
        ({"id": "i", "output": "o", "criteria": [{"label": True}]},
         "criteria[0].description: expected a string"),
        ({"id": "i", "output": "o",
          "criteria": [{"description": "Same", "label": True},
                       {"description": "same", "label": True}]},
         "duplicate criterion"),
    ],
)  # fmt: skip
def test_parse_labelled_names_what_is_wrong(value: Any, reason: str) -> None:
    problem = parse_labelled(value, line=9, path="l.jsonl")
    assert isinstance(problem, LineProblem) and reason in problem.reason and problem.line == 9


def test_limit_draws_a_seeded_sample_in_file_order(tmp_path: Path) -> None:
    rows = [{**LABELLED[n % 4], "id": f"i{n:02d}"} for n in range(30)]
    path = write_labelled(tmp_path / "b.jsonl", rows)

    def sampled(seed: int) -> list[str]:
        fake = KeywordJudge()
        report = measure_agreement([path], judge=keyword_judge(fake), limit=5, seed=seed)
        assert (report.items_available, report.items_used) == (30, 5)
        return fake.outputs

    assert sampled(1) == sampled(1)
    assert sampled(1) != sampled(2)
    item = parse_labelled(rows[0], line=1, path="b")
    assert isinstance(item, LabelledItem) and [c.id for c in item.rubric] == ["c1", "c2"]


def test_several_files_are_one_stream(tmp_path: Path) -> None:
    first = write_labelled(tmp_path / "a.jsonl", LABELLED[:2])
    second = write_labelled(tmp_path / "b.jsonl", LABELLED[2:])
    report = measure_agreement([first, second], judge=keyword_judge(KeywordJudge()), concurrency=3)
    assert report.overall is not None and report.overall.kappa == pytest.approx(0.5)
    assert report.files == [str(first), str(second)]


def test_calibration_matches_hand_computed_auroc_and_ece() -> None:
    # One verdict per bin: ECE = (|1 - 0.9| + |0 - 0.8| + |1 - 0.3| + |0 - 0.1|) / 4 = 0.425.
    # AUROC: positives 0.9 and 0.3 beat negatives 0.8, 0.1 in 3 of 4 pairs. `None` is left out.
    calibration = calibration_of([True, False, True, False, True], [0.9, 0.8, 0.3, 0.1, None])

    assert calibration is not None
    assert calibration.scored == 4
    assert calibration.auroc == pytest.approx(0.75)
    assert calibration.ece == pytest.approx(0.425)
    assert [(b.confidence, b.observed, b.count) for b in calibration.bins] == [
        (pytest.approx(0.1), 0.0, 1),
        (pytest.approx(0.3), 1.0, 1),
        (pytest.approx(0.8), 0.0, 1),
        (pytest.approx(0.9), 1.0, 1),
    ]
    assert calibration_of([True], [None]) is None
    one_class = calibration_of([True, True], [0.2, 0.9])
    assert one_class is not None and one_class.auroc is None


def test_agreement_reports_auroc_and_ece_of_the_confidences(tmp_path: Path) -> None:
    # P(pass) 0.9 at each pass, 0.2 at each fail. Pairs: TP TP TP FP at 0.9, FN TN TN TN at 0.2.
    # AUROC: 9 wins + (3 + 3) ties of 16 pairs = 0.75. ECE: half at 0.9 (observed 0.75) and
    # half at 0.2 (observed 0.25): 0.5 * 0.15 + 0.5 * 0.05 = 0.1.
    path = write_labelled(tmp_path / "bench.jsonl", LABELLED)
    judge = keyword_judge(KeywordJudge(p_pass={"pass": 0.9, "fail": 0.2}))

    report = measure_agreement([path], judge=judge)

    overall = report.overall
    assert overall is not None
    assert overall.auroc == pytest.approx(0.75)
    assert overall.ece == pytest.approx(0.1)
    data = overall.to_dict()
    assert data["scored"] == 8
    assert [(b["confidence"], b["observed"], b["count"]) for b in data["reliability"]] == [
        (pytest.approx(0.2), 0.25, 4),
        (pytest.approx(0.9), 0.75, 4),
    ]
    assert report.per_source["b"].auroc == pytest.approx(1.0)


def test_without_confidences_auroc_and_ece_are_none(tmp_path: Path) -> None:
    path = write_labelled(tmp_path / "bench.jsonl", LABELLED)

    report = measure_agreement([path], judge=keyword_judge(KeywordJudge()))

    assert report.overall is not None
    assert (report.overall.auroc, report.overall.ece) == (None, None)
    assert report.overall.to_dict()["scored"] == 0
