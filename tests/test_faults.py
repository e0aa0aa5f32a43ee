"""Fault injection (issue 6, part 1): a misbehaving judge never crashes a run or fails open.

The full harness is `bench/faults.py` (1,000 loops + 1,000 scorer runs); this runs it at a small
size in the suite, then pins each fault on its own in every judge flavour.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import Field

from rubricate import Judge, RetryPolicy
from rubricate._judge._answers import CRITERION_TITLE
from rubricate.testing import (
    EXCEPTION_FAULTS,
    FaultRates,
    FaultyGrammarJudgeModel,
    FaultyJudgeModel,
    FaultyTextJudgeModel,
    ProviderHTTPError,
    ScriptedChatModel,
    criterion_reply,
    joint_reply,
    tool_reply,
)

BENCH = Path(__file__).resolve().parents[1] / "bench" / "faults.py"
POLICY = RetryPolicy(max_retries=3, initial_delay=0, max_delay=0, timeout=0.25)
RUBRIC = "- Mentions alpha\n- Mentions bravo\n- Mentions charlie"
REQUIRED = ["Mentions alpha", "Mentions bravo", "Mentions charlie"]
FLAVOURS = [
    pytest.param(FaultyJudgeModel, "joint", id="tools-joint"),
    pytest.param(FaultyJudgeModel, "per_criterion", id="tools-per_criterion"),
    pytest.param(FaultyTextJudgeModel, "joint", id="text-joint"),
    pytest.param(FaultyTextJudgeModel, "per_criterion", id="text-per_criterion"),
    pytest.param(FaultyGrammarJudgeModel, None, id="grammar-yes_no"),
]
CONTENT_FAULTS = [
    "garbage",
    "truncated_json",
    "missing",
    "extra",
    "renamed",
    "contradictory",
    "unscorable",
]


def run_bench(tmp_path: Path, *args: str) -> dict[str, Any]:
    """`bench/faults.py` run as a user runs it; its JSON figures."""
    out = tmp_path / "faults.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), *args, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # nonzero: a check failed
    assert "Unhandled exceptions" in done.stdout
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def test_harness_no_crash_no_false_satisfied_and_bounded_retries(tmp_path: Path) -> None:
    report = run_bench(tmp_path, "--loops", "75", "--scorer-runs", "75", "--seed", "11")
    assert (report["loops"], report["scorer_runs"], report["seed"]) == (75, 75, 11)
    assert report["unhandled"] == 0, report["examples"]
    assert report["false_satisfied"] == 0, report["examples"]
    assert report["false_criterion_passes"] == 0, report["examples"]
    assert report["over_attempt_bound"] == 0
    assert report["over_request_bound"] == 0
    assert report["calls_unaccounted"] == 0
    # Bounded: no request more than 1 + max_retries attempts, no evaluation more than 2 requests
    # per criterion, so no run more than this many retries.
    worst = 3 * 2 * 5 * 3  # iterations x requests per criterion x criteria x max_retries
    assert 0 < report["retries"]["loop"]["max"] <= worst
    assert 0 < report["retries"]["scorer"]["max"] <= 2 * 5 * 3
    # The faults really happened, and runs end in more than one way.
    assert set(report["faults_injected"]) >= EXCEPTION_FAULTS | set(CONTENT_FAULTS)
    assert {"satisfied", "max_iterations_reached"} <= set(report["statuses"]["loop"])
    assert {"satisfied", "needs_revision"} <= set(report["statuses"]["scorer"])
    assert "grader_error" in {*report["statuses"]["loop"], *report["statuses"]["scorer"]}
    assert sum(sum(kind.values()) for kind in report["statuses"].values()) == 150
    assert report["policy"]["timeout"] == 0.25 and report["rates"]["garbage"] == 0.05


def test_the_harness_is_reproducible(tmp_path: Path) -> None:
    # A roomy call timeout (hangs still last 2 s, well past it): on a loaded machine a 0.25 s
    # timeout can cut an ordinary call short, which changes the run without a seed involved.
    args = ("--loops", "10", "--scorer-runs", "10", "--seed", "3", "--timeout", "1.0")
    first, second = run_bench(tmp_path, *args), run_bench(tmp_path, *args)
    assert first["statuses"] == second["statuses"]
    assert first["faults_injected"] == second["faults_injected"]


def judge(model: Any, mode: str | None) -> Judge:
    return Judge(model, mode=mode, retry=POLICY)  # type: ignore[arg-type]


@pytest.mark.parametrize("fault", CONTENT_FAULTS)
@pytest.mark.parametrize(("cls", "mode"), FLAVOURS)
def test_a_bad_answer_never_passes_a_criterion_the_judge_did_not_validly_pass(
    cls: Any, mode: str | None, fault: str
) -> None:
    for seed in range(6):
        model = cls(rates=FaultRates.only(fault, 0.7), seed=seed, hang_s=1)
        output = f"[run {seed} draft 0] alpha bravo" + (" charlie" if seed % 2 else "")
        evaluation = judge(model, mode).evaluate(RUBRIC, output=output)
        assert evaluation.result != "grader_error"
        if evaluation.result == "satisfied":
            assert model.ledger.truly_satisfied(output, REQUIRED)
        for verdict in evaluation.criteria:
            if verdict.passed:
                assert (output, verdict.name) in model.ledger.valid_passes
            if verdict.unverified:
                assert not verdict.passed and "failed closed" in verdict.gap


@pytest.mark.parametrize("fault", sorted(EXCEPTION_FAULTS - {"http_400"}))
@pytest.mark.parametrize(("cls", "mode"), FLAVOURS)
def test_transient_errors_are_retried_to_the_limit_then_reported(
    cls: Any, mode: str | None, fault: str
) -> None:
    model = cls(rates=FaultRates.only(fault), hang_s=1)
    evaluation = judge(model, mode).evaluate(RUBRIC, output="alpha bravo charlie")
    assert evaluation.result == "grader_error"
    assert evaluation.criteria == ()
    assert "after 4 attempts" in evaluation.explanation
    assert model.ledger.max_attempts_per_request == 4
    assert evaluation.usage.calls >= model.ledger.attempts


@pytest.mark.parametrize(("cls", "mode"), FLAVOURS)
def test_a_non_transient_error_is_not_retried(cls: Any, mode: str | None) -> None:
    model = cls(rates=FaultRates.only("http_400"))
    evaluation = judge(model, mode).evaluate(RUBRIC, output="alpha bravo charlie")
    assert evaluation.result == "grader_error"
    assert "(HTTP 400)" in evaluation.explanation and "without retrying" in evaluation.explanation
    assert model.ledger.max_attempts_per_request == 1


@pytest.mark.parametrize(("cls", "mode"), FLAVOURS)
def test_an_honest_fake_grades_by_its_ground_truth(cls: Any, mode: str | None) -> None:
    model = cls(rates=FaultRates.none())
    assert judge(model, mode).evaluate(RUBRIC, output="alpha bravo charlie").passed
    failing = judge(cls(rates=FaultRates.none()), mode).evaluate(RUBRIC, output="alpha")
    assert failing.result == "needs_revision"
    assert [v.passed for v in failing.criteria] == [True, False, False]


def test_fault_rates_are_validated() -> None:
    with pytest.raises(ValueError, match="sum to at most 1"):
        FaultRates.only("timeout", 1.5)


# -- the bug the harness found: parallel tool calls ----------------------------------------------


def two_calls(*answers: dict[str, Any]) -> Any:
    calls = [tool_reply(name, args).tool_calls[0] for name, args in answers]  # type: ignore[misc]
    for n, call in enumerate(calls):
        call["id"] = f"call_{n}"
    return tool_reply("x", {}).model_copy(update={"tool_calls": calls})


def test_a_pass_then_a_contradicting_fail_in_two_tool_calls_is_not_a_pass() -> None:
    # LangChain's structured-output parser keeps only the first tool call: before the fix the
    # judge took this all-`pass` answer and ignored the second call's `fail`.
    lie = {"verdicts": [{"criterion": c, "verdict": "pass", "gap": ""} for c in ("C1", "C2")]}
    honest = joint_reply(("C1", "pass", ""), ("C2", "fail", "No bravo.")).tool_calls[0]["args"]
    reply = two_calls(("RubricVerdicts", lie), ("RubricVerdicts", honest))
    model = ScriptedChatModel(script=[reply], repeat_last=True)
    evaluation = judge(model, "joint").evaluate("- Mentions alpha\n- Mentions bravo", output="a")
    assert evaluation.result == "needs_revision"
    first, second = evaluation.criteria
    assert first.passed and not second.passed and second.unverified
    assert "contradictory verdicts (pass and fail)" in second.gap


def test_per_criterion_contradicting_tool_calls_fail_closed_and_agreeing_ones_count() -> None:
    passes = criterion_reply("pass").tool_calls[0]["args"]
    fails = criterion_reply("fail", "No alpha.").tool_calls[0]["args"]
    contradicting = two_calls((CRITERION_TITLE, passes), (CRITERION_TITLE, fails))
    model = ScriptedChatModel(script=[contradicting], repeat_last=True)
    evaluation = judge(model, "per_criterion").evaluate("- Mentions alpha", output="a")
    (verdict,) = evaluation.criteria
    assert evaluation.result == "needs_revision" and verdict.unverified
    assert "contradictory verdicts (fail and pass)" in verdict.gap

    agreeing = two_calls((CRITERION_TITLE, passes), (CRITERION_TITLE, passes))
    model = ScriptedChatModel(script=[agreeing])
    assert judge(model, "per_criterion").evaluate("- Mentions alpha", output="alpha").passed


class OneFatalOneSlow(BaseChatModel):
    """`Mentions alpha` fails at once (HTTP 400); every other criterion is slowly rate-limited."""

    calls: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "one-fatal-one-slow"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self.bind(tools=list(tools), **kwargs)

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        raise NotImplementedError

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        criterion = str(messages[-1].content).split("Criterion: ")[-1].split("\n")[0]
        self.calls.append(criterion)
        if criterion == "Mentions alpha":
            raise ProviderHTTPError(400, "Bad request")
        await asyncio.sleep(0.02)
        raise ProviderHTTPError(429, "Rate limit reached")


async def test_no_call_outlives_an_evaluation_that_gave_up() -> None:
    # Before the fix, `per_criterion` left the other criteria's calls running (and retrying)
    # after one criterion's failure had already ended the evaluation as `grader_error`.
    model = OneFatalOneSlow()
    retry = RetryPolicy(max_retries=3, initial_delay=0.02, max_delay=0.02, timeout=None)
    evaluation = await Judge(model, mode="per_criterion", retry=retry).aevaluate(
        "- Mentions alpha\n- Mentions bravo", output="x"
    )
    assert evaluation.result == "grader_error"
    seen = len(model.calls)
    await asyncio.sleep(0.3)
    assert len(model.calls) == seen == evaluation.usage.calls
