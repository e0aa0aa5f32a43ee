"""Secrets (issue 6, part 5): a planted key never reaches logs, results, reports, exception
messages or the explanations stored in evaluations.

Three plants: the value of `OPENAI_API_KEY` (caught because the variable's name looks secret,
whatever the value's format), the value of an oddly named `MY_SERVICE_TOKEN`, and a key-shaped
string that was never in the environment (caught by its shape). Provider errors echo all three,
the way SDK errors sometimes echo a request's headers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from typer.testing import CliRunner

from rubricate import (
    Criterion,
    GraderError,
    Judge,
    ModelError,
    RetryPolicy,
    create_rubric_scorer,
    refine,
)
from rubricate._batch._agreement import measure_agreement
from rubricate._batch._grade import grade_file
from rubricate._cli import create_app
from rubricate._judge._retry import call_with_retries
from rubricate.testing import FaultRates, FaultyJudgeModel, ProviderHTTPError, ScriptedChatModel

OPENAI_KEY = "sk-planted-0penAIk3yValue9876543210"
ODD_TOKEN = "planted~token~with~no~known~shape"
SHAPED = "sk-ant-api03-NeverInTheEnvironment42xyz"
SECRETS = (OPENAI_KEY, ODD_TOKEN, SHAPED)
ECHO = (
    f"(request: Authorization: Bearer {OPENAI_KEY}; x-service-token {ODD_TOKEN}; "
    f"fallback key {SHAPED})"
)
POLICY = RetryPolicy(max_retries=2, initial_delay=0, max_delay=0, timeout=None)
RUBRIC = "- Mentions alpha\n- Mentions bravo"


@pytest.fixture(autouse=True)
def planted(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("MY_SERVICE_TOKEN", ODD_TOKEN)
    caplog.set_level(logging.DEBUG)
    yield
    logged = caplog.text + "".join(
        str(r.getMessage()) + str(r.exc_text or "") for r in caplog.records
    )
    assert_clean(logged, "logs")


def assert_clean(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"a planted secret leaked into the {where}"
    # Parts of a secret are leaks too: the longest run of it that shows must be short.
    for secret in SECRETS:
        assert secret[:16] not in text, f"part of a planted secret leaked into the {where}"


def failing_model(fault: str) -> FaultyJudgeModel:
    return FaultyJudgeModel(rates=FaultRates.only(fault), error_detail=ECHO)


@pytest.mark.parametrize("fault", ["http_429", "http_400", "connection", "timeout"])
def test_provider_errors_are_redacted_in_the_evaluation(fault: str) -> None:
    evaluation = Judge(failing_model(fault), retry=POLICY).evaluate(RUBRIC, output="alpha")
    assert evaluation.result == "grader_error"
    assert "[REDACTED]" in evaluation.explanation
    assert_clean(evaluation.explanation, "explanation")
    assert_clean(json.dumps(evaluation.to_dict()), "evaluation JSON")


async def test_the_grader_error_message_is_redacted() -> None:
    async def call() -> Any:
        raise ProviderHTTPError(401, f"Incorrect API key provided: {OPENAI_KEY} {ECHO}")

    with pytest.raises(GraderError) as caught:
        await call_with_retries(call, POLICY, model="openai:gpt-5-mini")
    assert caught.value.status_code == 401
    assert_clean(str(caught.value), "exception message")
    assert_clean(repr(caught.value), "exception repr")


def test_scorer_reason_is_redacted() -> None:
    scorer = create_rubric_scorer(failing_model("http_500"), RUBRIC, retry=POLICY)
    result = scorer.run(input="Say alpha.", output="alpha")
    assert not result.passed and "[REDACTED]" in result.reason
    assert_clean(result.reason, "scorer reason")
    assert_clean(json.dumps(result.to_dict()), "score JSON")


def test_refine_records_stop_reason_and_messages_are_redacted() -> None:
    records: list[Any] = []
    result = refine(
        lambda task, feedback: "alpha",
        "Say alpha.",
        RUBRIC,
        judge=Judge(failing_model("http_503"), retry=POLICY),
        on_evaluation=records.append,
    )
    assert result.status == "grader_error"
    assert "[REDACTED]" in result.evaluations[-1]["explanation"]
    assert_clean(json.dumps(result.evaluations), "evaluation records")
    assert_clean(json.dumps(records), "on_evaluation records")
    assert_clean(str(result.stop_reason), "stop reason")
    assert_clean("\n".join(str(m.content) for m in result.messages), "messages")


def test_a_code_check_that_raises_with_a_key_is_redacted_in_its_gap() -> None:
    def calls_an_api(evidence: Any) -> bool:
        raise RuntimeError(f"lookup failed with api_key={OPENAI_KEY} {ECHO}")

    evaluation = Judge(ScriptedChatModel(script=[]), retry=POLICY).evaluate(
        [Criterion(description="Looks fine to the API", check=calls_an_api)], output="x"
    )
    (verdict,) = evaluation.criteria
    assert not verdict.passed and "raised RuntimeError" in verdict.gap
    assert_clean(verdict.gap, "check gap")
    assert_clean(evaluation.explanation, "explanation")


class ExplodingModel(ScriptedChatModel):
    """A judge model that fails outside the retried call (an untranslated error)."""

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"misconfigured client api_key={OPENAI_KEY} {ECHO}")


def cli_grade(tmp_path: Path, judge: Judge) -> tuple[Any, Path, Path]:
    source = tmp_path / "in.jsonl"
    source.write_text(
        "".join(json.dumps({"id": n, "output": f"alpha bravo {n}"}) + "\n" for n in range(3))
    )
    results, report = tmp_path / "results.jsonl", tmp_path / "report.html"
    app = create_app(judge_factory=lambda spec, options: judge)
    run = CliRunner().invoke(
        app,
        ["grade", str(source), "-r", RUBRIC, "-o", str(results), "--report", str(report)],
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )
    return run, results, report


@pytest.mark.parametrize("fault", ["http_429", "http_400"])
def test_grade_results_report_and_terminal_are_redacted(tmp_path: Path, fault: str) -> None:
    run, results, report = cli_grade(tmp_path, Judge(failing_model(fault), retry=POLICY))
    assert run.exit_code == 1, run.output  # every item failed to grade
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(rows) == 3 and all("[REDACTED]" in row["error"] for row in rows)
    assert_clean(results.read_text(), "results JSONL")
    assert_clean(report.read_text(), "HTML report")
    assert_clean(run.output, "terminal output")


def test_an_untranslated_judge_failure_in_grade_is_redacted_too(tmp_path: Path) -> None:
    run, results, report = cli_grade(tmp_path, Judge(ExplodingModel(), retry=POLICY))
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(rows) == 3
    assert all(row["error"].startswith("Grader raised RuntimeError: ") for row in rows)
    assert_clean(results.read_text(), "results JSONL")
    assert_clean(report.read_text(), "HTML report")
    assert_clean(run.output, "terminal output")


def test_the_library_batch_summary_is_redacted(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "output": "alpha"}) + "\n")
    summary = grade_file(
        source, tmp_path / "out.jsonl", judge=Judge(ExplodingModel(), retry=POLICY), rubric=RUBRIC
    )
    assert summary.errors == 1
    assert_clean(json.dumps(summary.to_dict(), default=str), "summary")


def test_a_judge_that_cannot_be_created_is_reported_without_its_key(tmp_path: Path) -> None:
    def factory(spec: str, options: Any) -> Judge:
        raise ModelError(f"the provider rejected api_key={OPENAI_KEY} {ECHO}")

    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "output": "alpha"}) + "\n")
    run = CliRunner().invoke(
        create_app(judge_factory=factory),
        ["grade", str(source), "-r", RUBRIC, "--judge", "openai:gpt-5-mini"],
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )
    assert run.exit_code == 2 and "cannot create the judge" in run.output
    assert_clean(run.output, "terminal output")


def test_the_judge_never_sees_the_key_in_its_prompt() -> None:
    model = ScriptedChatModel(script=[AIMessage("no tool call")], repeat_last=True)
    Judge(model, retry=POLICY).evaluate(RUBRIC, output="alpha")
    assert_clean("\n".join(model.prompts()), "judge prompt")


def test_agreement_errors_are_redacted(tmp_path: Path) -> None:
    labelled = tmp_path / "labelled.jsonl"
    item = {
        "id": "a1",
        "source": "a",
        "task": "t",
        "output": "alpha",
        "criteria": [{"id": "alpha", "description": "Mentions alpha", "label": True}],
    }
    labelled.write_text(json.dumps(item) + "\n")
    report = measure_agreement([labelled], judge=Judge(ExplodingModel(), retry=POLICY))
    assert len(report.errors) == 1 and "[REDACTED]" in report.errors[0][1]
    assert_clean(json.dumps(report.to_dict(), default=str), "agreement report")


def test_a_worker_model_that_cannot_be_created_is_reported_without_its_key() -> None:
    def model_factory(spec: str) -> Any:
        raise ModelError(f"the provider rejected api_key={OPENAI_KEY} {ECHO}")

    app = create_app(
        judge_factory=lambda spec, options: Judge(ScriptedChatModel(script=[]), retry=POLICY),
        model_factory=model_factory,
    )
    run = CliRunner().invoke(
        app,
        ["run", "Say alpha.", "--rubric", RUBRIC, "--model", "openai:gpt-5-mini"],
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )
    assert run.exit_code == 2 and "cannot create the model" in run.output, run.output
    assert_clean(run.output, "terminal output")
