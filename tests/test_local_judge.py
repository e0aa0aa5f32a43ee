"""The judge on the real embedded model, on clear-cut cases only (each call costs seconds)."""

from __future__ import annotations

import pytest

from rubricate import Judge, create_rubric_scorer
from rubricate._local import ChatLlamaCpp, ensure_default_model

pytestmark = pytest.mark.local_model

RUBRIC = "- The answer says that the capital of France is Paris\n- The answer is written in English"
TASK = "What is the capital of France?"


@pytest.fixture(scope="module")
def judge() -> Judge:
    return Judge("local")


def test_local_resolves_to_the_embedded_model_with_grammar_support(judge: Judge) -> None:
    assert isinstance(judge.model, ChatLlamaCpp)
    assert judge.local and judge.mode == "per_criterion"
    assert judge.model_name.endswith("qwen2.5-coder-1.5b-instruct")


def test_llamacpp_path_spelling_runs_the_same_file() -> None:
    path = ensure_default_model()
    judge = Judge(f"llamacpp:{path}")
    assert isinstance(judge.model, ChatLlamaCpp)
    assert judge.model.model_path == str(path)


def test_per_criterion_passes_an_obviously_right_answer(judge: Judge) -> None:
    evaluation = judge.evaluate(RUBRIC, output="The capital of France is Paris.", task=TASK)
    assert evaluation.result == "satisfied", evaluation.explanation
    # The language rule is read in code; the fact takes one yes/no call and no gap call.
    assert [v.decided_by for v in evaluation.criteria] == ["judge", "check"]
    assert evaluation.usage.calls == 1
    assert evaluation.usage.output_tokens <= 4
    assert evaluation.usage.input_tokens > 50


def test_per_criterion_fails_an_obviously_wrong_answer_with_a_gap(judge: Judge) -> None:
    evaluation = judge.evaluate(RUBRIC, output="The capital of France is Berlin.", task=TASK)
    assert evaluation.result == "needs_revision"
    paris = evaluation.criteria[0]
    assert not paris.passed
    assert len(paris.gap) > 10 and not paris.unverified
    assert paris.decided_by == "judge"


def test_joint_mode_grammar_gives_a_complete_valid_verdict_set() -> None:
    scorer = create_rubric_scorer(model="local", criteria=RUBRIC, mode="joint")
    result = scorer.run(input=TASK, output="La capitale de la France est Berlin.")
    evaluation = result.evaluation
    assert evaluation.mode == "joint" and evaluation.usage.calls == 1
    assert not any(v.unverified for v in evaluation.criteria)
    assert not result.passed and result.score == 0
    assert not evaluation.criteria[0].passed
    assert "[not satisfied]" in result.reason


def test_a_criterion_that_restates_the_task_is_judged_on_the_output(judge: Judge) -> None:
    # With the task in view, the 1.5B model passed this winter poem as "about spring" (P 0.84).
    rubric = "- The poem is about spring"
    task = "Write a haiku about spring."
    winter = "Snow on the road\nthe lake is frozen still\nwe wait by the fire\nall night"
    spring = "Cherry blossoms fall\nsoft rain on the temple roof\nspring wakes the river"
    assert judge.evaluate(rubric, output=winter, task=task).result == "needs_revision"
    assert judge.evaluate(rubric, output=spring, task=task).result == "satisfied"
