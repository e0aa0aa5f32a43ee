"""The remote path for real: the judge through `ChatOpenAI` against an OpenAI-compatible server.

The server is llama-cpp-python's own (`python -m llama_cpp.server`) serving the embedded GGUF on
loopback, started once for the session; a `FaultProxy` between the client and it records every
request and injects HTTP 429 / 500, a hang, or a truncated answer where a test asks for one.

Every test here runs the real model on a machine that may be shared, so each asks for as few
model calls as it can: short evidence, one or two criteria, the same prompt wherever possible so
the server's prompt cache leaves only the answer's own tokens to compute. Timeouts are generous
and nothing is timed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_openai import ChatOpenAI
from typer.testing import CliRunner

from fault_proxy import FaultProxy
from rubricate import Judge, RetryPolicy
from rubricate._cli import create_app
from rubricate._judge._answers import CRITERION_TITLE
from rubricate._local import ensure_default_model
from rubricate._types import Mode
from rubricate.testing import LlamaServer

pytestmark = pytest.mark.local_model

TASK = "What is the capital of France?"
OUTPUT = "The capital of France is Paris."
MET = "The answer says that the capital of France is Paris"
UNMET = "The answer names the capital of Japan"
# Per call, generously: a real call is seconds when idle, far more on a loaded machine.
SLOW = 1800.0


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    with LlamaServer(model_path=ensure_default_model(progress=False), log_path=log) as server:
        yield server


@pytest.fixture
def proxy(llama_server: LlamaServer) -> Iterator[FaultProxy]:
    with FaultProxy(llama_server.origin) as proxy:
        yield proxy


def chat_model(server: LlamaServer, proxy: FaultProxy) -> ChatOpenAI:
    """`ChatOpenAI` on the proxy; the SDK's own retries off, so the judge's policy is measured."""
    return ChatOpenAI(
        model=server.model,
        base_url=proxy.base_url,
        api_key=server.api_key,  # type: ignore[arg-type]
        temperature=0,
        max_tokens=400,  # bounds a runaway answer; a verdict with its reason needs ~50
        max_retries=0,
    )


def judge(
    server: LlamaServer,
    proxy: FaultProxy,
    mode: Mode,
    *,
    retries: int = 0,
    timeout: float = SLOW,
    concurrency: int | None = None,
) -> Judge:
    return Judge(
        chat_model(server, proxy),
        mode=mode,
        retry=RetryPolicy(max_retries=retries, initial_delay=0.1, max_delay=0.5, timeout=timeout),
        max_concurrency=concurrency,
    )


def answered(proxy: FaultProxy) -> list[dict[str, Any]]:
    """Bodies of the chat completions the server answered as forced tool calls."""
    return [r.body for r in proxy.completions() if r.status == 200 and "tools" in r.body]


def rejected(proxy: FaultProxy) -> int:
    """Requests the server turned down for their `response_format: json_schema`."""
    return sum(
        (r.body.get("response_format") or {}).get("type") == "json_schema" and r.status == 500
        for r in proxy.completions()
    )


# The tests run in this order so that consecutive ones share a prompt prefix (the per-criterion
# tool schema, then the joint one), which the server's cache turns into fewer tokens to compute.

# -- per-criterion structured output, and transport faults --------------------------------------


def test_per_criterion_grading_through_chatopenai_corrects_a_truncated_answer(
    llama_server: LlamaServer, proxy: FaultProxy
) -> None:
    # One call at a time, so the fault lands on a known request: the first (json_schema) is
    # refused by the server, the second (the first forced tool call) comes back cut in half.
    proxy.inject(None, "truncated")

    evaluation = judge(llama_server, proxy, "per_criterion", concurrency=1).evaluate(
        f"- {MET}\n- {UNMET}", output=OUTPUT, task=TASK
    )

    # Valid verdicts, whatever they say: graded through tool calls one criterion at a time, this
    # 1.5B model fails far more criteria than it should (docs/benchmarks.md), so only the
    # clearly unmet one is asserted.
    assert not any(v.unverified for v in evaluation.criteria), evaluation.criteria
    assert evaluation.criteria[1].passed is False and evaluation.criteria[1].gap
    assert all(v.gap for v in evaluation.criteria if not v.passed)
    # llama_cpp.server refuses ChatOpenAI's default `response_format: json_schema` (HTTP 500
    # naming it); the judge does not retry that, and asks for a forced tool call from then on.
    assert rejected(proxy) == 1
    calls = answered(proxy)
    # One a criterion, plus the correction of the truncated answer (and of any answer the model
    # itself gets wrong: the judge allows one correction a criterion).
    assert 3 <= len(calls) <= 4
    assert {json.dumps(c["tool_choice"]) for c in calls} == {
        json.dumps({"type": "function", "function": {"name": CRITERION_TITLE}})
    }
    faults = [r.fault for r in proxy.completions()]
    assert faults[:2] == [None, "truncated"] and faults.count("truncated") == 1
    assert evaluation.usage.calls == len(faults)
    assert evaluation.usage.input_tokens > 100 and evaluation.usage.output_tokens > 0
    assert evaluation.model == f"openai:{llama_server.model}"


def test_a_429_and_a_500_are_each_retried_then_the_answer_comes_through(
    llama_server: LlamaServer, proxy: FaultProxy
) -> None:
    proxy.inject("http_429", "http_500")

    evaluation = judge(llama_server, proxy, "per_criterion", retries=3).evaluate(
        f"- {MET}", output=OUTPUT, task=TASK
    )

    assert not evaluation.criteria[0].unverified, evaluation.explanation
    seen = [(r.fault, r.status) for r in proxy.completions()]
    assert seen[:3] == [("http_429", 429), ("http_500", 500), (None, 500)]  # then json_schema
    assert seen[3:] and all(s == (None, 200) for s in seen[3:])  # refused; tool calls answer
    assert evaluation.usage.calls == len(seen)


@pytest.mark.parametrize(
    ("fault", "error"),
    [("http_429", "HTTP 429"), ("http_500", "HTTP 500"), ("hang", "TimeoutError")],
)
def test_a_fault_that_persists_ends_in_grader_error_saying_why(
    llama_server: LlamaServer, proxy: FaultProxy, fault: Any, error: str
) -> None:
    # A hang is cut by the judge's per-call timeout, then retried like the others. A timeout
    # short enough to test is too short for a real call on a loaded machine, so the retries
    # here meet the fault again: none of these requests reaches the model.
    proxy.inject(fault, fault, fault)

    evaluation = judge(llama_server, proxy, "joint", retries=2, timeout=3.0).evaluate(
        f"- {MET}", output=OUTPUT, task=TASK
    )

    assert evaluation.result == "grader_error"
    assert evaluation.criteria == ()
    explanation = evaluation.explanation
    assert f"openai:{llama_server.model}" in explanation and "after 3 attempts" in explanation
    assert error in explanation
    if fault == "hang":
        assert "timed out" in explanation
    else:
        assert f"injected by the test proxy ({fault})" in explanation
    assert evaluation.usage.calls == 3
    expected = {"http_429": 429, "http_500": 500}.get(fault)
    assert [(r.fault, r.status) for r in proxy.completions()] == [(fault, expected)] * 3


# -- joint structured output -------------------------------------------------------------------


def test_joint_grading_through_chatopenai_uses_a_forced_tool_call(
    llama_server: LlamaServer, proxy: FaultProxy
) -> None:
    evaluation = judge(llama_server, proxy, "joint").evaluate(
        f"- {MET}\n- {UNMET}", output=OUTPUT, task=TASK
    )

    assert evaluation.result == "needs_revision", evaluation.explanation
    assert not any(v.unverified for v in evaluation.criteria), evaluation.criteria
    assert evaluation.criteria[1].passed is False and evaluation.criteria[1].gap
    assert rejected(proxy) == 1
    calls = answered(proxy)  # the answer, and a correction if the model needed one
    assert 1 <= len(calls) <= 2
    assert all(
        c["tool_choice"] == {"type": "function", "function": {"name": "RubricVerdicts"}}
        for c in calls
    )
    assert evaluation.usage.calls == 1 + len(calls)


def test_malformed_joint_answers_fail_closed_after_one_correction(
    llama_server: LlamaServer, proxy: FaultProxy
) -> None:
    proxy.inject(None, "truncated", "truncated")  # the 1st is the refused json_schema request

    evaluation = judge(llama_server, proxy, "joint").evaluate(
        f"- {MET}\n- {UNMET}", output=OUTPUT, task=TASK
    )

    assert evaluation.result == "needs_revision"
    assert [v.passed for v in evaluation.criteria] == [False, False]
    assert all(v.unverified for v in evaluation.criteria)
    assert all("failed closed" in v.gap for v in evaluation.criteria)
    assert len(answered(proxy)) == 2  # the answer and its correction, both cut
    assert proxy.pending_faults == 0


# -- the command line, concurrently ------------------------------------------------------------


def test_grade_with_four_jobs_against_the_server_is_complete_and_resumable(
    llama_server: LlamaServer, proxy: FaultProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `--judge openai:<model>` resolves through LangChain's `init_chat_model`, which reads these.
    monkeypatch.setenv("OPENAI_BASE_URL", proxy.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", llama_server.api_key)
    outputs = ["Paris is the capital of France.", "Madrid.", "I do not know."]
    rows = [{"id": f"a{i}", "task": TASK, "output": text} for i, text in enumerate(outputs)]
    rows.append({"id": "copy-of-a0", "task": TASK, "output": outputs[0]})  # graded once
    items = tmp_path / "items.jsonl"
    items.write_text("".join(json.dumps(row) + "\n" for row in rows))
    results = tmp_path / "results.jsonl"
    app = create_app(
        # The default factory, with a per-call timeout that allows for queueing: the server
        # answers one request at a time, so with -j 4 a call waits for up to three others.
        judge_factory=lambda spec, options: Judge(spec, **options, retry=RetryPolicy(timeout=SLOW))
    )
    args = ["grade", str(items), "-r", f"- {MET}", "-o", str(results), "-j", "4"]
    args += ["--judge", f"openai:{llama_server.model}"]

    first = CliRunner().invoke(app, args, env={"COLUMNS": "120", "NO_COLOR": "1"})

    assert first.exit_code == 0, first.output
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["id"] for r in lines) == sorted(row["id"] for row in rows)  # no duplicates
    assert {r["id"]: r["line"] for r in lines} == {row["id"]: n for n, row in enumerate(rows, 1)}
    assert all(r["error"] is None and len(r["criteria"]) == 1 for r in lines)
    by_id = {r["id"]: r for r in lines}
    assert by_id["copy-of-a0"]["cached"] and not by_id["a0"]["cached"]
    verdict = [(c["id"], c["passed"], c["gap"]) for c in by_id["a0"]["criteria"]]
    assert [(c["id"], c["passed"], c["gap"]) for c in by_id["copy-of-a0"]["criteria"]] == verdict
    # One answer per distinct output (plus a correction when the model's own answer needed one):
    # the cached copy of a0 made no call of its own.
    first_answers = [c for c in answered(proxy) if "Answer again" not in json.dumps(c["messages"])]
    assert len(first_answers) == len(outputs)
    assert proxy.max_in_flight > 1  # requests really were concurrent

    proxy.reset()
    again = CliRunner().invoke(app, args, env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert again.exit_code == 0, again.output
    assert proxy.completions() == []  # everything was already graded
    assert [json.loads(line) for line in results.read_text().splitlines()] == lines

    # Delete one result: a rerun grades that item alone and appends it, once.
    kept = [r for r in lines if r["id"] != "a2"]
    results.write_text("".join(json.dumps(r) + "\n" for r in kept))
    proxy.reset()
    resumed = CliRunner().invoke(app, args, env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert resumed.exit_code == 0, resumed.output
    final = [json.loads(line) for line in results.read_text().splitlines()]
    assert final[: len(kept)] == kept
    assert [r["id"] for r in final[len(kept) :]] == ["a2"]
    assert final[-1]["line"] == 3 and final[-1]["error"] is None
    assert len(final[-1]["criteria"]) == 1
    calls = answered(proxy)  # a2's answer, and its correction if the model needed one
    assert calls and all(outputs[2] in json.dumps(c["messages"]) for c in calls)
