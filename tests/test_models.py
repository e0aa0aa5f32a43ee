"""Model resolution, and real provider classes driven end to end against a loopback fake API.

The fake servers speak just enough of the OpenAI and Anthropic HTTP APIs to answer a grading
call, so `"openai:..."` and `"anthropic:..."` run through LangChain's provider code and the
provider's structured output exactly as in production, with no key and no network.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI

from rubricate import Judge, ModelError, RetryPolicy, create_rubric_scorer, resolve_chat_model
from rubricate._models import model_name


def _verdicts_for(schema: dict[str, Any]) -> dict[str, Any]:
    """Pass every criterion the schema allows, except one whose label is C2 (fails)."""
    labels = schema["properties"]["verdicts"]["items"]["properties"]["criterion"]["enum"]
    return {
        "verdicts": [
            {
                "criterion": label,
                "verdict": "fail" if label == "C2" else "pass",
                "gap": "Add it." if label == "C2" else "",
            }
            for label in labels
        ]
    }


# P(pass) the fake OpenAI API gives at each verdict value, by the verdict it wrote.
_P_PASS = {"pass": 0.8, "fail": 0.3}
_REFUSES_LOGPROBS = "o-style-reasoner"
_LOGPROBS_REFUSAL = {
    "error": {
        "message": "logprobs are not supported with this model.",
        "type": "invalid_request_error",
        "param": "logprobs",
        "code": None,
    }
}


def _logprobs(content: str) -> dict[str, Any]:
    """OpenAI's `logprobs` for `content`: word and punctuation tokens, alternatives at verdicts."""
    entries = []
    for token in re.findall(r"\w+|[^\w\s]+|\s+", content):
        top = [{"token": token, "logprob": 0.0, "bytes": list(token.encode())}]
        if token in _P_PASS:
            p = _P_PASS[token]
            top = [
                {"token": "pass", "logprob": math.log(p), "bytes": list(b"pass")},
                {"token": "fail", "logprob": math.log(1 - p), "bytes": list(b"fail")},
            ]
        chosen = next(alt for alt in top if alt["token"] == token)
        entries.append({**chosen, "top_logprobs": top})
    return {"content": entries, "refusal": None}


def _chat_completion(
    model: str,
    message: dict[str, Any],
    *,
    finish_reason: str,
    usage: tuple[int, int],
    **choice: Any,
) -> dict[str, Any]:
    """An OpenAI chat completion answering `message`; `choice` adds to its one choice."""
    prompt, completion = usage
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "finish_reason": finish_reason, "message": message, **choice}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


class _JsonApi(BaseHTTPRequestHandler):
    """A fake HTTP JSON API: a subclass reads requests with `_body` and answers with `_send`."""

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def _body(self) -> Any:
        return json.loads(self.rfile.read(int(self.headers["Content-Length"])))

    def _send(self, status: int, reply: dict[str, Any]) -> None:
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextlib.contextmanager
def _serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve `handler` on a free loopback port for the block; yields `http://127.0.0.1:PORT`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _FakeProviders(_JsonApi):
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = self._body()
        type(self).requests.append({"path": self.path, "body": body, "headers": dict(self.headers)})
        if self.path.endswith("/chat/completions"):
            if body.get("logprobs") and body["model"] == _REFUSES_LOGPROBS:
                self._send(400, _LOGPROBS_REFUSAL)
                return
            schema = body["response_format"]["json_schema"]["schema"]
            content = json.dumps(_verdicts_for(schema))
            reply = _chat_completion(
                body["model"],
                {"role": "assistant", "content": content},
                finish_reason="stop",
                usage=(321, 45),
                **({"logprobs": _logprobs(content)} if body.get("logprobs") else {}),
            )
        elif self.path.endswith("/messages"):
            tool = body["tools"][0]
            reply = {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": body["model"],
                "stop_reason": "tool_use",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": tool["name"],
                        "input": _verdicts_for(tool["input_schema"]),
                    }
                ],
                "usage": {"input_tokens": 400, "output_tokens": 50},
            }
        else:
            self.send_error(404)
            return
        self._send(200, reply)


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    with _serving(_FakeProviders) as base:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-000000")
        monkeypatch.setenv("OPENAI_BASE_URL", f"{base}/v1")
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key-000000")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", base)
        _FakeProviders.requests = []
        yield _FakeProviders.requests


@pytest.mark.parametrize(
    ("spec", "cls", "usage"),
    [
        ("openai:gpt-5-mini", ChatOpenAI, (321, 45)),
        ("anthropic:claude-haiku-4-5", ChatAnthropic, (400, 50)),
    ],
)
def test_provider_strings_grade_end_to_end_with_provider_structured_output(
    fake_api: list[dict[str, Any]], spec: str, cls: type, usage: tuple[int, int]
) -> None:
    scorer = create_rubric_scorer(
        model=spec,
        criteria="- The poem has three lines\n- The theme is spring",
        retry=RetryPolicy(max_retries=0, timeout=10),
    )
    assert isinstance(scorer.judge.model, cls)
    result = scorer.run(input="Write a haiku about spring.", output="a\nb\nc")
    assert not result.passed
    assert [v.passed for v in result.evaluation.criteria] == [True, False]
    assert result.evaluation.criteria[1].gap == "Add it."
    assert (result.evaluation.usage.input_tokens, result.evaluation.usage.output_tokens) == usage
    assert result.evaluation.model == spec
    [request] = fake_api
    sent = json.dumps(request["body"])
    assert "Write a haiku about spring." in sent
    assert "C2: The theme is spring" in sent


def test_a_chat_model_instance_is_used_as_is(fake_api: list[dict[str, Any]]) -> None:
    model = ChatOpenAI(model="gpt-4o-mini", temperature=0)
    scorer = create_rubric_scorer(
        model, "- One\n- Two", retry=RetryPolicy(max_retries=0, timeout=10)
    )
    assert scorer.judge.model is model
    assert scorer.run(output="x").evaluation.criteria[0].passed


def test_openai_verdicts_carry_the_p_pass_of_their_verdict_token(
    fake_api: list[dict[str, Any]],
) -> None:
    scorer = create_rubric_scorer(
        ChatOpenAI(model="gpt-4o-mini", temperature=0),
        "- One\n- Two\n- Three",
        retry=RetryPolicy(max_retries=0, timeout=10),
    )

    criteria = scorer.run(output="x").evaluation.criteria

    assert [v.passed for v in criteria] == [True, False, True]
    assert [v.confidence for v in criteria] == pytest.approx([0.8, 0.3, 0.8])
    [request] = fake_api
    assert request["body"]["logprobs"] is True
    assert request["body"]["top_logprobs"] == 10
    assert scorer.judge.model.logprobs is None  # the user's model is not changed


def test_reasoning_models_are_not_asked_for_logprobs(fake_api: list[dict[str, Any]]) -> None:
    scorer = create_rubric_scorer(
        "openai:gpt-5-mini", "- One\n- Two", retry=RetryPolicy(max_retries=0, timeout=10)
    )

    criteria = scorer.run(output="x").evaluation.criteria

    assert [v.confidence for v in criteria] == [None, None]
    assert "logprobs" not in fake_api[0]["body"]


def test_a_model_that_refuses_logprobs_is_asked_again_without_them(
    fake_api: list[dict[str, Any]],
) -> None:
    scorer = create_rubric_scorer(
        ChatOpenAI(model=_REFUSES_LOGPROBS, temperature=0),
        "- One\n- Two",
        retry=RetryPolicy(max_retries=0, timeout=10),
    )

    first = scorer.run(output="x").evaluation
    second = scorer.run(output="y").evaluation

    assert first.result == "needs_revision"  # graded, not a grader error
    assert [v.confidence for v in first.criteria] == [None, None]
    assert [bool(r["body"].get("logprobs")) for r in fake_api] == [True, False, False]
    assert second.usage.calls == 1  # remembered: no refused call any more


def test_ollama_strings_resolve_without_a_server() -> None:
    model = resolve_chat_model("ollama:qwen3")
    assert isinstance(model, ChatOllama)
    assert model_name(model) == "ollama:qwen3"


def test_slash_spelling_of_the_reference_scorer_is_accepted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-000000")
    assert isinstance(resolve_chat_model("openai/gpt-5-mini"), ChatOpenAI)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-5-mini", "cannot create model 'gpt-5-mini': OpenAIError"),  # no key set
        ("mystery-model-9", "Write it as 'provider:model-id'"),
        ("openai:", "needs both a provider and a model id"),
        (":gpt-5-mini", "needs both a provider and a model id"),
        ("nosuchprovider:model", "cannot create model 'nosuchprovider:model'"),
        ("llamacpp:", "needs a path"),
        ("llamacpp:/no/such/file.gguf", "GGUF file not found: /no/such/file.gguf"),
    ],
)
def test_bad_model_values_say_how_to_fix_them(spec: str, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        resolve_chat_model(spec)


def test_missing_key_is_named_in_the_error() -> None:
    with pytest.raises(ModelError, match="OPENAI_API_KEY"):
        resolve_chat_model("openai:gpt-5-mini")


def test_non_model_values_are_rejected() -> None:
    with pytest.raises(ModelError, match="got int"):
        resolve_chat_model(42)  # type: ignore[arg-type]


def test_ids_resolve_as_init_chat_model_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bare ids and any provider LangChain knows, as deepagents resolves them."""
    import langchain_google_genai as google_genai  # installed with deepagents (the dev extra)

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-000000")
    monkeypatch.setenv("GOOGLE_API_KEY", "test-not-a-real-key-000000")
    bare = resolve_chat_model("gpt-5-mini")
    assert isinstance(bare, ChatOpenAI) and bare.model_name == "gpt-5-mini"
    google = resolve_chat_model("google_genai:gemini-2.5-flash")
    assert isinstance(google, google_genai.ChatGoogleGenerativeAI)
    assert google.model.endswith("gemini-2.5-flash")


class _NoJsonSchemaServer(_JsonApi):
    """Rejects `response_format: json_schema` and answers forced tool calls.

    `reject_status` 500 is what llama-cpp-python's server sends (its validation error wrapped in
    an OpenAI-style error), 422 what a plain FastAPI server sends.
    """

    requests: ClassVar[list[dict[str, Any]]] = []
    reject_status: ClassVar[int] = 500

    def do_POST(self) -> None:
        body = self._body()
        type(self).requests.append(body)
        if (body.get("response_format") or {}).get("type") == "json_schema":
            status = type(self).reject_status
            problem = {
                "type": "literal_error",
                "loc": ["body", "response_format", "type"],
                "msg": "Input should be 'text' or 'json_object'",
            }
            reply: dict[str, Any] = (
                {"detail": [problem]}
                if status == 422
                else {"error": {"message": f"1 validation error:\n  {problem}", "code": None}}
            )
        else:
            status = 200
            tool = body["tools"][0]["function"]
            assert body["tool_choice"] == {"type": "function", "function": {"name": tool["name"]}}
            if tool["name"] == "RubricVerdicts":
                args: dict[str, Any] = _verdicts_for(tool["parameters"])
            else:
                args = {"verdict": "pass", "gap": ""}
            call = {"name": tool["name"], "arguments": json.dumps(args)}
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
            }
            reply = _chat_completion(
                body["model"], message, finish_reason="tool_calls", usage=(100, 20)
            )
        self._send(status, reply)


@pytest.fixture
def no_json_schema_api() -> Iterator[str]:
    with _serving(_NoJsonSchemaServer) as base:
        _NoJsonSchemaServer.requests = []
        yield f"{base}/v1"


@pytest.mark.parametrize("status", [500, 422])
@pytest.mark.parametrize("mode", ["joint", "per_criterion"])
def test_a_server_that_rejects_json_schema_gets_forced_tool_calls_from_then_on(
    no_json_schema_api: str, mode: str, status: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_NoJsonSchemaServer, "reject_status", status)
    model = ChatOpenAI(
        model="local-gguf", base_url=no_json_schema_api, api_key="sk-x", max_retries=0
    )
    # Retries on: a rejection sent as HTTP 500 must not be retried like a server fault.
    retry = RetryPolicy(max_retries=3, initial_delay=0, timeout=10)
    judge = Judge(model, mode=mode, retry=retry)  # type: ignore[arg-type]
    first = judge.evaluate("- One\n- Two", output="x")
    second = judge.evaluate("- Three", output="y")

    assert first.result == ("needs_revision" if mode == "joint" else "satisfied"), first.explanation
    assert [v.unverified for v in first.criteria] == [False, False]
    assert second.result == "satisfied"
    sent = _NoJsonSchemaServer.requests
    formats = [(r.get("response_format") or {}).get("type") for r in sent]
    # One rejected request (per concurrent first call at most), then tool calls only.
    rejected = formats.count("json_schema")
    assert 1 <= rejected <= (1 if mode == "joint" else 2)
    assert all(f == "json_schema" for f in formats[:rejected])
    assert all(
        "tools" in r and f is None for r, f in zip(sent[rejected:], formats[rejected:], strict=True)
    )
    assert len(sent) == rejected + (2 if mode == "joint" else 3)
    assert first.usage.calls == rejected + (1 if mode == "joint" else 2)


def test_other_client_errors_are_not_taken_for_a_rejected_format(no_json_schema_api: str) -> None:
    class _Rejects(_JsonApi):
        def do_POST(self) -> None:
            self._body()
            self._send(400, {"error": {"message": "context length exceeded", "code": 400}})

    with _serving(_Rejects) as base:
        model = ChatOpenAI(model="m", base_url=f"{base}/v1", api_key="sk-x", max_retries=0)
        judge = Judge(model, retry=RetryPolicy(max_retries=0, timeout=10))
        evaluation = judge.evaluate("- One", output="x")
    assert evaluation.result == "grader_error"
    assert "context length exceeded" in evaluation.explanation
    assert evaluation.usage.calls == 1
    assert judge._calls.structured_method is None


class _KeepAliveProviders(_FakeProviders):
    """The same fake API over HTTP/1.1, so clients keep connections open, as real APIs do."""

    protocol_version = "HTTP/1.1"


def test_sync_gradings_in_a_row_share_keep_alive_connections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A fresh event loop per sync call left the second grading with a pooled connection of the
    # first, closed loop: "RuntimeError: Event loop is closed", reported as grader_error.
    _FakeProviders.requests = []
    with _serving(_KeepAliveProviders) as base:
        url = f"{base}/v1"
        model = ChatOpenAI(model="gpt-4o-mini", base_url=url, api_key="sk-x", max_retries=0)
        judge = Judge(model, retry=RetryPolicy(max_retries=0, timeout=10))
        evaluations = [judge.evaluate("- One\n- Two", output=f"draft {n}") for n in range(3)]
    assert [e.result for e in evaluations] == ["needs_revision"] * 3, evaluations[-1].explanation
    assert len(_FakeProviders.requests) == 3
