"""P(criterion met) from log-probabilities (`rubricate._judge._confidence`), and where it shows."""

from __future__ import annotations

import math
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from fakes import with_verdict_logprobs
from rubricate import Judge, RetryPolicy
from rubricate._judge._answers import parse_criterion
from rubricate._judge._confidence import (
    choice_probability,
    is_unsure,
    logprob_content,
    verdict_probabilities,
    yes_probability,
)
from rubricate._judge._scorer import format_reason
from rubricate._types import CriterionVerdict, Evaluation
from rubricate.testing import ScriptedChatModel, criterion_reply, joint_reply

FAST = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0, timeout=None)


def entry(token: str, **alternatives: float) -> dict[str, Any]:
    """One token's logprobs entry; `alternatives` are probabilities (the chosen one included)."""
    return {
        "token": token,
        "logprob": math.log(alternatives.get(token, 1.0)),
        "top_logprobs": [{"token": t, "logprob": math.log(p)} for t, p in alternatives.items()],
    }


def message(*entries: dict[str, Any]) -> AIMessage:
    return AIMessage(
        "".join(e["token"] for e in entries),
        response_metadata={"logprobs": {"content": list(entries)}},
    )


def test_p_yes_is_renormalised_over_the_two_answers_in_every_spelling() -> None:
    # `Yes` and ` no` are the same answers as `yes` and `no`: their mass counts; `maybe` does not.
    reply = message(entry("Yes", yes=0.1, no=0.2, Yes=0.45, NO=0.05, **{" no": 0.1}, maybe=0.1))

    assert yes_probability(reply) == pytest.approx(0.55 / 0.9)


def test_a_missing_word_counts_at_most_the_least_likely_listed() -> None:
    # "no" is not among the alternatives: it is at most as likely as the last one listed (0.01),
    # so P(yes) is at least 0.95 / 0.96, not 1.
    reply = message(entry("yes", yes=0.9, Yes=0.05, maybe=0.01))

    assert yes_probability(reply) == pytest.approx(0.95 / 0.96)


def test_a_bound_that_cannot_be_compared_gives_no_confidence() -> None:
    # "no" was chosen but ranks below every listed alternative, and "yes" is not listed either:
    # which of the two is likelier cannot be told from the list.
    chosen = {"token": "no", "logprob": math.log(0.001)}
    reply = message({**chosen, "top_logprobs": [{"token": "Maybe", "logprob": math.log(0.9)}]})

    assert yes_probability(reply) is None


def test_no_logprobs_means_no_confidence() -> None:
    assert yes_probability(AIMessage("yes")) is None
    assert verdict_probabilities(AIMessage('{"verdict": "pass"}')) == []
    assert logprob_content(AIMessage("x", response_metadata={"logprobs": None})) is None
    assert yes_probability(message(entry("maybe", maybe=0.9, perhaps=0.1))) is None


def test_a_bare_list_of_token_entries_is_read_too() -> None:
    reply = AIMessage("no", response_metadata={"logprobs": [entry("no", no=0.7, yes=0.3)]})

    assert yes_probability(reply) == pytest.approx(0.3)


def test_the_verdict_value_token_may_carry_the_opening_quote() -> None:
    # Tokenizers often merge the quote into the value: `"pass` against `"fail` and `"cannot`.
    reply = message(
        entry('{"'),
        entry("verdict"),
        entry('":'),
        entry(' "pass', **{' "pass': 0.5, ' "fail': 0.3, ' "cannot': 0.2}),
        entry('",'),
    )

    assert verdict_probabilities(reply) == [(None, pytest.approx(0.5))]


def test_each_joint_verdict_is_paired_with_its_label() -> None:
    answer = {
        "verdicts": [
            {"criterion": "C1", "verdict": "pass", "gap": ""},
            {"criterion": "C2", "verdict": "fail", "gap": "says fail, not pass"},
        ]
    }
    reply = with_verdict_logprobs(AIMessage(""), answer, {"pass": 0.9, "fail": 0.25})

    assert verdict_probabilities(reply) == [
        ("C1", pytest.approx(0.9)),
        ("C2", pytest.approx(0.25)),
    ]


def test_choice_probability_needs_some_class() -> None:
    assert choice_probability({"token": "x", "logprob": 0.0}, lambda t: None, "yes") is None


def test_a_confidence_the_judge_writes_itself_is_ignored() -> None:
    answer, problem = parse_criterion({"verdict": "pass", "gap": "", "confidence": 0.99})

    assert problem is None and answer is not None
    assert answer.confidence is None


def test_remote_per_criterion_verdicts_carry_their_token_probability() -> None:
    raw = criterion_reply("fail", "Name the city.")
    raw = with_verdict_logprobs(raw, {"verdict": "fail", "gap": "Name the city."}, {"fail": 0.4})
    model = ScriptedChatModel(script=[raw])

    (verdict,) = (
        Judge(model, mode="per_criterion", retry=FAST, guard_injections=False)
        .evaluate("- Names the city", output="x")
        .criteria
    )

    assert verdict.passed is False
    assert verdict.confidence == pytest.approx(0.4)


def test_remote_joint_verdicts_without_logprobs_have_no_confidence() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])

    (verdict,) = (
        Judge(model, retry=FAST, guard_injections=False).evaluate("- One", output="x").criteria
    )

    assert verdict.passed is True
    assert verdict.confidence is None and verdict.unsure is False
    assert "confidence" not in verdict.to_dict()


def test_unsure_is_the_band_inclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rubricate._judge._confidence.UNSURE_BAND", (0.3, 0.7))

    assert [is_unsure(p) for p in (None, 0.29, 0.3, 0.5, 0.7, 0.71)] == [
        False,
        False,
        True,
        True,
        True,
        False,
    ]


def test_the_reason_shows_each_confidence_and_flags_unsure_verdicts() -> None:
    evaluation = Evaluation(
        result="needs_revision",
        explanation="",
        criteria=(
            CriterionVerdict(id="a", name="Names Paris", passed=True, confidence=0.934),
            CriterionVerdict(
                id="b", name="Is short", passed=False, gap="Cut it.", confidence=0.41, unsure=True
            ),
            CriterionVerdict(id="c", name="Under 9 words", passed=True, decided_by="check"),
        ),
    )

    lines = format_reason(evaluation).splitlines()[1:]

    assert lines == [
        "- [satisfied] Names Paris (P(met) 0.93)",
        "- [not satisfied, unsure] Is short (P(met) 0.41): Cut it.",
        "- [satisfied] Under 9 words",
    ]


def test_to_dict_has_the_confidence_and_unsure_only_when_set() -> None:
    sure = CriterionVerdict(id="a", name="A", passed=True, confidence=0.987654).to_dict()
    unsure = CriterionVerdict(id="b", name="B", passed=False, confidence=0.5, unsure=True)

    assert sure["confidence"] == 0.9877 and "unsure" not in sure
    assert unsure.to_dict()["unsure"] is True
