"""`ChatLlamaCpp`: request plumbing against a fake `llama_cpp`, then a few real-model checks."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import tool
from pydantic import BaseModel, Field

from rubricate._exceptions import LocalModelError
from rubricate._local import _chat_model, _loading, _tool_calls
from rubricate._local._chat_model import ChatLlamaCpp, default_local_model
from rubricate._local._grammar import GreedyGrammar
from rubricate._local._messages import to_chat_messages
from rubricate._local._tool_calls import json_schema_grammar, tool_call_grammar

# -- a fake llama_cpp at the import boundary -----------------------------------------------------


class FakeLlama:
    """Records what `ChatLlamaCpp` sends and answers with scripted text."""

    instances: ClassVar[list[FakeLlama]] = []

    def __init__(self, model_path: str, **kwargs: Any) -> None:
        self.model_path = model_path
        self.kwargs = kwargs
        self.default_params = FAKE_LLAMA_CPP.llama_cpp.llama_model_default_params()
        self.requests: list[dict[str, Any]] = []
        self.replies: list[str] = []
        self.input_ids: list[int] = [0] * 4096
        self.n_tokens = 0
        self.model = object()
        self.active = 0
        self.threads: list[int] = []
        FakeLlama.instances.append(self)

    def tokenize(self, text: bytes, add_bos: bool = True, special: bool = False) -> list[int]:
        return [151657] if text == b"<tool_call>" else list(text)

    def create_chat_completion(self, **request: Any) -> dict[str, Any]:
        self.active += 1
        try:
            assert self.active == 1, "two calls ran inside one llama.cpp context at once"
            self.threads.append(threading.get_ident())
            time.sleep(0.01)
            # Greedy calls carry their grammar as a `GreedyGrammar` logits processor; both ways
            # are recorded as `grammar` so tests read one field.
            if processors := request.get("logits_processor"):
                (greedy,) = processors
                request["grammar"] = FakeGrammar(greedy.text)
                request["greedy"] = True
            request.setdefault("grammar", None)
            self.requests.append(request)
            prompt = [ord(c) for c in json.dumps(request["messages"])]
            if len(prompt) > 4000:
                raise ValueError(f"Requested tokens ({len(prompt)}) exceed context window of 4096")
            reply = self.replies.pop(0) if self.replies else "ok"
            generated = [ord(c) for c in reply]
            tokens = prompt + generated
            self.input_ids[: len(tokens)] = tokens
            self.n_tokens = len(tokens)
            return {
                "choices": [
                    {
                        "message": {"role": "assistant", "content": reply},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": len(prompt),
                    "completion_tokens": len(generated),
                    "total_tokens": len(tokens),
                },
            }
        finally:
            self.active -= 1


class FakeGrammar:
    def __init__(self, text: str) -> None:
        self.text = text

    @classmethod
    def from_string(cls, text: str, verbose: bool = True) -> FakeGrammar:
        return cls(text)


def _default_params() -> types.SimpleNamespace:
    return types.SimpleNamespace(use_extra_bufts=True)


def _init_grammar(vocab: object, text: bytes, root: bytes) -> object | None:
    return None if b"INVALID" in text else object()


FAKE_LLAMA_CPP = types.SimpleNamespace(
    __version__="0.0-fake",
    Llama=FakeLlama,
    LlamaGrammar=FakeGrammar,
    LogitsProcessorList=list,
    llama_cpp=types.SimpleNamespace(llama_model_default_params=_default_params),
    llama_model_get_vocab=lambda model: object(),
    llama_sampler_init_grammar=_init_grammar,
    llama_sampler_free=lambda sampler: None,
)


@pytest.fixture
def gguf(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-model.gguf"
    path.write_bytes(b"GGUF")
    return path


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.SimpleNamespace]:
    real_import = _loading.import_llama_cpp

    def import_fake(module: str = "llama_cpp") -> Any:
        return FAKE_LLAMA_CPP if module == "llama_cpp" else real_import(module)

    monkeypatch.setattr(_loading, "import_llama_cpp", import_fake)
    monkeypatch.setattr(_loading, "LOADED", {})
    FakeLlama.instances = []
    yield FAKE_LLAMA_CPP


def _model(gguf: Path, **kwargs: Any) -> ChatLlamaCpp:
    return ChatLlamaCpp(model_path=str(gguf), **kwargs)


def _llama() -> FakeLlama:
    (llama,) = FakeLlama.instances
    return llama


@tool
def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return f"sunny in {city}"


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


class Verdict(BaseModel):
    """Whether the output meets the criterion."""

    reason: str = Field(description="One sentence on why.")
    passed: bool


# -- messages ------------------------------------------------------------------------------------


def test_messages_map_to_chat_completion_dicts() -> None:
    messages: list[BaseMessage] = [
        SystemMessage("be strict"),
        HumanMessage([{"type": "text", "text": "weather "}, "in Paris?"]),
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "get_weather",
                    "args": {"city": "Paris"},
                    "id": "call_1",
                    "type": "tool_call",
                }
            ],
        ),
        ToolMessage("sunny", tool_call_id="call_1"),
        AIMessage("It is sunny."),
        ChatMessage(role="user", content="thanks"),
    ]

    assert to_chat_messages(messages) == [
        {"role": "system", "content": "be strict"},
        {"role": "user", "content": "weather in Paris?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    # a dict, not a JSON string: the template applies `tojson` itself
                    "function": {"name": "get_weather", "arguments": {"city": "Paris"}},
                }
            ],
        },
        {"role": "tool", "content": "sunny", "tool_call_id": "call_1"},
        {"role": "assistant", "content": "It is sunny."},
        {"role": "user", "content": "thanks"},
    ]


def test_non_text_content_is_rejected_clearly() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:..."}}
    with pytest.raises(ValueError, match="reads text only; got a 'image_url' content block"):
        to_chat_messages([HumanMessage([image])])


# -- loading -------------------------------------------------------------------------------------


def test_model_loads_lazily_once_and_is_shared(fake: Any, gguf: Path) -> None:
    first, second = _model(gguf), _model(gguf, temperature=0.5)
    assert FakeLlama.instances == []

    first.invoke("hi")
    second.invoke("hi")
    _model(gguf, n_ctx=2048).invoke("hi")

    assert len(FakeLlama.instances) == 2
    shared = FakeLlama.instances[0]
    assert len(shared.requests) == 2
    assert shared.kwargs["n_ctx"] == 8192 and FakeLlama.instances[1].kwargs["n_ctx"] == 2048
    assert shared.kwargs["verbose"] is False
    assert shared.kwargs["n_threads"] == (os.cpu_count() or 1)


def test_weight_repacking_off_loads_without_extra_buffer_types(fake: Any, gguf: Path) -> None:
    _model(gguf, weight_repacking=False).invoke("hi")
    _model(gguf, weight_repacking=True).invoke("hi")

    off, on = FakeLlama.instances
    assert off.default_params.use_extra_bufts is False
    assert on.default_params.use_extra_bufts is True
    assert fake.llama_cpp.llama_model_default_params is _default_params  # restored


def test_missing_file_is_a_local_model_error(fake: Any, tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match=r"nope\.gguf' does not exist.*model_path"):
        ChatLlamaCpp(model_path=str(tmp_path / "nope.gguf")).invoke("hi")


def test_load_failure_names_the_file(
    fake: Any, gguf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(model_path: str, **kwargs: Any) -> None:
        raise ValueError(f"Failed to load model from file: {model_path}")

    monkeypatch.setattr(fake, "Llama", broken)
    with pytest.raises(LocalModelError, match=r"could not load .*tiny-model\.gguf.*GGUF"):
        _model(gguf).invoke("hi")


def test_missing_llama_cpp_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    with pytest.raises(LocalModelError, match=r"pip install 'rubricate\[local\]'"):
        _loading.import_llama_cpp()


# -- plain calls and per-call arguments ----------------------------------------------------------


def test_plain_call_sends_deterministic_defaults_and_reports_usage(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    message = model.invoke([SystemMessage("sys"), HumanMessage("hello")])

    request = _llama().requests[0]
    assert request["messages"] == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "hello"},
    ]
    assert request["temperature"] == 0.0
    assert request["max_tokens"] == 512
    assert request["seed"] == 0
    assert request["stop"] == []
    assert request["grammar"] is None
    assert "tools" not in request
    assert message.content == "ok"
    assert message.usage_metadata is not None
    prompt = len(json.dumps(request["messages"]))
    assert message.usage_metadata["input_tokens"] == prompt
    assert message.usage_metadata["output_tokens"] == 2
    assert message.usage_metadata["total_tokens"] == prompt + 2
    assert message.response_metadata == {"finish_reason": "stop", "model_name": "tiny-model"}


def test_structured_answers_get_the_larger_limit_unless_the_call_sets_one(
    fake: Any, gguf: Path
) -> None:
    model = _model(gguf)
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    model.invoke("hi", json_schema=schema)
    model.invoke("hi", json_schema=schema, max_tokens=5)
    model.invoke("hi")
    limits = [request["max_tokens"] for request in _llama().requests]
    assert limits == [4096, 5, 512]


def test_per_call_arguments_reach_llama(fake: Any, gguf: Path) -> None:
    model = _model(gguf, stop=["END"]).bind(max_tokens=7, temperature=0.3)
    model.invoke("hi", stop=["\n"], seed=5, top_p=0.5)

    request = _llama().requests[0]
    assert (request["max_tokens"], request["temperature"], request["seed"]) == (7, 0.3, 5)
    assert request["top_p"] == 0.5
    assert request["stop"] == ["END", "\n"]


def test_unknown_call_argument_is_a_type_error(fake: Any, gguf: Path) -> None:
    with pytest.raises(TypeError, match=r"unsupported call arguments \['frequency'\]"):
        _model(gguf).invoke("hi", frequency=2)


def test_shared_prefix_is_reported_as_cache_read(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    system = SystemMessage("a long shared system prompt " * 20)
    model.invoke([system, HumanMessage("criterion one")])
    second = model.invoke([system, HumanMessage("criterion two")])

    assert second.usage_metadata is not None
    cached = second.usage_metadata.get("input_token_details", {}).get("cache_read", 0)
    prompt = second.usage_metadata["input_tokens"]
    assert prompt - 20 < cached < prompt


def test_context_overflow_says_what_to_change(fake: Any, gguf: Path) -> None:
    with pytest.raises(ValueError, match=r"exceed context window.*larger `n_ctx`"):
        _model(gguf).invoke("x" * 5000)


def test_grammar_is_validated_and_passed(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    model.invoke("hi")  # load
    _llama().replies = ["yes"]
    answer = model.invoke("Is 7 prime?", grammar='root ::= "yes" | "no"')

    assert answer.content == "yes"
    assert _llama().requests[-1]["grammar"].text == 'root ::= "yes" | "no"'
    assert _llama().requests[-1]["greedy"]  # temperature 0: the grammar tests the best token only
    model.invoke("Is 7 prime?", grammar='root ::= "yes" | "no"', temperature=0.5)
    assert "greedy" not in _llama().requests[-1]  # sampling: llama.cpp masks every token
    model.invoke("Is 7 prime?", grammar='root ::= "yes" | "no"', repeat_penalty=1.1)
    assert "greedy" not in _llama().requests[-1]  # a penalty reorders tokens after the logits
    _model(gguf, grammar_shortcut=False).invoke("Is 7 prime?", grammar='root ::= "yes" | "no"')
    assert "greedy" not in _llama().requests[-1]
    with pytest.raises(ValueError, match="not a valid GBNF grammar"):
        model.invoke("hi", grammar="root ::= INVALID")


def test_json_schema_becomes_a_grammar(fake: Any, gguf: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"verdict": {"type": "string", "enum": ["pass", "fail"]}},
        "required": ["verdict"],
    }
    _model(gguf).invoke("hi", json_schema=schema)

    grammar = _llama().requests[0]["grammar"].text
    assert grammar == json_schema_grammar(schema)
    assert 'verdict ::= "\\"pass\\"" | "\\"fail\\""' in grammar


def test_two_constraints_at_once_are_refused(fake: Any, gguf: Path) -> None:
    with pytest.raises(ValueError, match="grammar and json_schema each constrain the answer"):
        _model(gguf).invoke("hi", grammar='root ::= "a"', json_schema={"type": "string"})


def test_unsupported_json_schema_is_explained(fake: Any, gguf: Path) -> None:
    with pytest.raises(ValueError, match="cannot be turned into a grammar"):
        _model(gguf).invoke("hi", json_schema={"not": {"type": "string"}})


async def test_ainvoke_runs_in_a_worker_thread(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    results = await asyncio.gather(*(model.ainvoke(f"q{i}") for i in range(3)))

    assert [r.content for r in results] == ["ok"] * 3
    assert threading.get_ident() not in _llama().threads


def test_concurrent_calls_are_serialized_per_context(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    model.invoke("load")
    threads = [threading.Thread(target=model.invoke, args=(f"q{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(_llama().requests) == 5  # the fake asserts that no two overlapped


# -- structured output ---------------------------------------------------------------------------


def test_with_structured_output_parses_a_pydantic_object(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    model.invoke("load")
    _llama().replies = ['{"reason": "Paris is the capital.", "passed": true}']

    verdict = model.with_structured_output(Verdict).invoke("grade it")

    assert verdict == Verdict(reason="Paris is the capital.", passed=True)
    grammar = _llama().requests[-1]["grammar"].text
    assert grammar == json_schema_grammar(Verdict.model_json_schema())


def test_with_structured_output_include_raw_keeps_the_parsing_error(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    model.invoke("load")
    _llama().replies = ['{"reason": "cut off', '{"answer": 42}']
    structured = model.with_structured_output(Verdict, include_raw=True)

    bad = structured.invoke("grade it")
    assert isinstance(bad, dict)
    assert bad["parsed"] is None
    assert bad["parsing_error"] is not None
    assert isinstance(bad["raw"], AIMessage)

    as_dict = model.with_structured_output(
        {"type": "object", "properties": {"answer": {"type": "integer"}}}, include_raw=True
    ).invoke("q")
    assert isinstance(as_dict, dict)
    assert as_dict["parsed"] == {"answer": 42}
    assert as_dict["parsing_error"] is None


def test_with_structured_output_through_function_calling(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    model.invoke("load")
    _llama().replies = [
        '<tool_call>\n{"name": "Verdict", "arguments": {"reason": "r", "passed": false}}\n'
        "</tool_call>"
    ]

    verdict = model.with_structured_output(Verdict, method="function_calling").invoke("q")

    assert verdict == Verdict(reason="r", passed=False)
    request = _llama().requests[-1]
    assert [t["function"]["name"] for t in request["tools"]] == ["Verdict"]
    assert '"\\n{\\"name\\": \\"Verdict\\", \\"arguments\\": "' in request["grammar"].text


def test_unknown_structured_output_method(fake: Any, gguf: Path) -> None:
    with pytest.raises(ValueError, match="`method` must be"):
        _model(gguf).with_structured_output(Verdict, method="xml")  # type: ignore[arg-type]


# -- tools ---------------------------------------------------------------------------------------

_WEATHER_CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'


@pytest.mark.parametrize(
    ("choice", "forced"),
    [
        ("any", ["get_weather", "add"]),
        ("required", ["get_weather", "add"]),
        (True, ["get_weather", "add"]),
        ("get_weather", ["get_weather"]),
        ({"type": "function", "function": {"name": "get_weather"}}, ["get_weather"]),
        ({"type": "tool", "name": "get_weather"}, ["get_weather"]),
    ],
)
def test_forced_tool_choice_constrains_to_a_tool_call(
    fake: Any, gguf: Path, choice: Any, forced: list[str]
) -> None:
    model = _model(gguf)
    model.invoke("load")
    _llama().replies = [_WEATHER_CALL]

    message = model.bind_tools([get_weather, add], tool_choice=choice).invoke("weather in Paris?")

    request = _llama().requests[-1]
    assert [t["function"]["name"] for t in request["tools"]] == ["get_weather", "add"]
    grammar = request["grammar"].text
    for name in ["get_weather", "add"]:
        assert (f'\\"name\\": \\"{name}\\"' in grammar) == (name in forced)
    assert "<tool_call>" in grammar and "</tool_call>" in grammar
    assert [(c["name"], c["args"]) for c in message.tool_calls] == [
        ("get_weather", {"city": "Paris"})
    ]
    assert message.tool_calls[0]["id"]
    assert message.content == ""
    assert message.response_metadata["finish_reason"] == "tool_calls"


def test_auto_tool_choice_parses_calls_and_keeps_prose(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    model.invoke("load")
    _llama().replies = [
        "Let me check.\n" + _WEATHER_CALL + "\n<tool_call>\n{not json}\n</tool_call>",
        "It is sunny in Paris.",
        '```json\n{"name": "add", "arguments": {"a": 1, "b": 2}}\n```',
        '{{"name": "add", "arguments": {"a": 3, "b": 4}}}',
    ]
    bound = model.bind_tools([get_weather, add])

    mixed = bound.invoke("weather?")
    assert _llama().requests[-1]["grammar"] is None
    assert len(_llama().requests[-1]["tools"]) == 2
    assert mixed.content == "Let me check."
    assert [c["args"] for c in mixed.tool_calls] == [{"city": "Paris"}]
    assert len(mixed.invalid_tool_calls) == 1
    assert mixed.invalid_tool_calls[0]["args"] == "{not json}"

    prose = bound.invoke("weather?")
    assert (prose.content, prose.tool_calls) == ("It is sunny in Paris.", [])

    fenced = bound.invoke("1+2?")
    assert [(c["name"], c["args"]) for c in fenced.tool_calls] == [("add", {"a": 1, "b": 2})]

    doubled = bound.invoke("3+4?")
    assert [(c["name"], c["args"]) for c in doubled.tool_calls] == [("add", {"a": 3, "b": 4})]


def test_tool_choice_none_hides_the_tools(fake: Any, gguf: Path) -> None:
    _model(gguf).bind_tools([get_weather], tool_choice="none").invoke("hi")

    request = _llama().requests[0]
    assert "tools" not in request
    assert request["grammar"] is None


def test_unknown_tool_choice_is_refused(fake: Any, gguf: Path) -> None:
    with pytest.raises(ValueError, match=r"`tool_choice` must be .* got 'search'"):
        _model(gguf).bind_tools([get_weather], tool_choice="search")
    with pytest.raises(ValueError, match="no tools are bound"):
        _model(gguf).invoke("hi", tool_choice="any")


def test_tool_loop_messages_are_sent_back(fake: Any, gguf: Path) -> None:
    model = _model(gguf)
    model.invoke("load")
    _llama().replies = [_WEATHER_CALL, "Sunny."]
    bound = model.bind_tools([get_weather], tool_choice="any")
    history: list[BaseMessage] = [HumanMessage("weather in Paris?")]
    call = bound.invoke(history)
    history += [
        call,
        ToolMessage(
            get_weather.invoke(call.tool_calls[0]["args"]), tool_call_id=call.tool_calls[0]["id"]
        ),
    ]

    model.bind_tools([get_weather]).invoke(history)

    sent = _llama().requests[-1]["messages"]
    assert sent[1]["tool_calls"][0]["function"] == {
        "name": "get_weather",
        "arguments": {"city": "Paris"},
    }
    assert sent[2] == {
        "role": "tool",
        "content": "sunny in Paris",
        "tool_call_id": call.tool_calls[0]["id"],
    }


def test_tool_grammar_keeps_same_named_definitions_apart() -> None:
    class Item(BaseModel):
        label: str

    class Basket(BaseModel):
        items: list[Item]

    other = {
        "type": "function",
        "function": {
            "name": "Other",
            "parameters": {
                "type": "object",
                "properties": {"item": {"$ref": "#/$defs/Item"}},
                "required": ["item"],
                "$defs": {"Item": {"type": "integer"}},
            },
        },
    }
    basket = {
        "type": "function",
        "function": {"name": "Basket", "parameters": Basket.model_json_schema()},
    }

    grammar = tool_call_grammar([basket, other])

    # without namespacing, Other's `Item` would reuse Basket's `Item` object rule
    assert 't0-Item ::= "{" space t0-Item-label-kv "}" space' in grammar
    assert "tool1-args-item ::= integer" in grammar
    assert grammar.count("root ::= ") == 1
    assert grammar.rstrip().endswith("</tool_call> )")
    plain = tool_call_grammar([other], token_syntax=False)
    assert '"<tool_call>"' in plain


def test_forced_call_with_a_raw_newline_in_a_string_parses(fake: Any, gguf: Path) -> None:
    # llama-cpp-python's schema grammar allows raw control characters inside strings; strict
    # JSON parsing turned such a call into an invalid one, which agents then report as
    # "arguments were malformed or truncated".
    assert '[^"\\\\]' in json_schema_grammar({"type": "string"})  # the grammar allows them
    model = _model(gguf)
    model.invoke("load")
    call = '{"name": "get_weather", "arguments": {"city": "Paris\n\tFrance"}}'
    _llama().replies = [f"<tool_call>\n{call}\n</tool_call>"]

    message = model.bind_tools([get_weather], tool_choice="any").invoke("weather?")

    assert message.invalid_tool_calls == []
    assert [c["args"] for c in message.tool_calls] == [{"city": "Paris\n\tFrance"}]


def _grader_reply(args: dict[str, Any]) -> str:
    call = {"name": "GraderResponse", "arguments": args}
    return "<tool_call>\n" + json.dumps(call) + "\n</tool_call>"


def test_deepagents_grader_gets_a_forced_graderresponse_call(fake: Any, gguf: Path) -> None:
    """deepagents' `RubricMiddleware._grade` on this model: ToolStrategy, a forced call whose
    grammar follows `GraderResponse` (discriminated criteria), parsed into its response."""
    import warnings

    from deepagents.middleware.rubric import GraderResponse, RubricMiddleware

    model = _model(gguf)
    model.invoke("load")
    _llama().replies = [
        _grader_reply(
            {
                "result": "needs_revision",
                "explanation": "One fact is missing.",
                "criteria": [
                    {"name": "Says Paris", "passed": True},
                    {"name": "One sentence", "passed": False, "gap": "Two\nsentences."},
                ],
            }
        )
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        middleware = RubricMiddleware(model=model)
    state: Any = {
        "messages": [HumanMessage("Capital of France?"), AIMessage("Paris. It is Paris.")],
        "rubric": "- Says Paris\n- One sentence",
    }

    graded = middleware._grade(state, 0)

    assert isinstance(graded, GraderResponse)
    assert graded.result == "needs_revision"
    assert [c["passed"] for c in graded.criteria] == [True, False]
    request = _llama().requests[-1]
    assert [t["function"]["name"] for t in request["tools"]] == ["GraderResponse"]
    assert request["max_tokens"] == model.structured_max_tokens  # forced: the larger limit
    grammar = request["grammar"].text
    assert '\\"name\\": \\"GraderResponse\\"' in grammar
    # keys in schema order, the verdict first; a pass has no gap, a fail must have one
    assert 'tool0-args-result-kv "," space tool0-args-explanation-kv' in grammar
    assert 'tool0-args-result ::= "\\"satisfied\\"" | "\\"needs_revision\\"" | "\\"failed\\""' in (
        grammar
    )
    assert "tool0-args-criteria-item-1-gap-kv" in grammar
    assert "tool0-args-criteria-item-0-gap-kv" not in grammar
    system, user = request["messages"][:2]
    assert system["role"] == "system" and "You are a grader" in system["content"]
    assert "<rubric-" in user["content"] and "[assistant] Paris. It is Paris." in user["content"]


def test_default_local_model_uses_the_embedded_weights(
    fake: Any, gguf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RUBRICATE_LOCAL_MODEL", raising=False)
    monkeypatch.setattr(_chat_model, "ensure_default_model", lambda: gguf)

    model = default_local_model(max_tokens=9)

    assert (model.model_path, model.model_name, model.max_tokens) == (
        str(gguf),
        "qwen2.5-coder-1.5b-instruct",
        9,
    )
    assert model._llm_type == "llamacpp"
    assert model.supports_grammar is True
    assert FakeLlama.instances == []  # still lazy


# -- the real embedded model (seconds per call; CI runs these with the `local` extra) ------------


@pytest.fixture(scope="module")
def real_model() -> ChatLlamaCpp:
    model = default_local_model(max_tokens=48, n_ctx=4096)
    model.invoke("Hi", max_tokens=1)  # load once, here, so the tests below time only calls
    return model


@pytest.mark.local_model
def test_real_plain_answer_with_usage(real_model: ChatLlamaCpp) -> None:
    answer = real_model.invoke("What is the capital of France? Answer with one word.", max_tokens=8)

    assert isinstance(answer.content, str)
    assert "paris" in answer.content.lower()
    assert answer.usage_metadata is not None
    assert answer.usage_metadata["input_tokens"] > 10
    assert 0 < answer.usage_metadata["output_tokens"] <= 8
    assert answer.response_metadata["finish_reason"] == "stop"


@pytest.mark.local_model
def test_real_yes_no_grammar_and_prefix_reuse(real_model: ChatLlamaCpp) -> None:
    system = SystemMessage("You are a strict grader. Reply yes or no. " + "Be careful. " * 40)
    answers = [
        real_model.invoke([system, HumanMessage(question)], grammar='root ::= "yes" | "no"')
        for question in ("Is Paris the capital of France?", "Is Paris the capital of Germany?")
    ]

    assert [a.content for a in answers] == ["yes", "no"]
    second = answers[1].usage_metadata
    assert second is not None
    assert second.get("input_token_details", {}).get("cache_read", 0) > 0.8 * second["input_tokens"]


@pytest.mark.local_model
def test_real_greedy_grammar_answers_as_the_full_mask_does(
    real_model: ChatLlamaCpp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The model wants "Blue" first; the grammar forces a lower-case sentence around it.
    grammar = 'root ::= "The sky is " ("red" | "blue" | "green") " today, " [a-z ]+ "."'
    question = "What colour is the sky on a clear day? Answer in one word."
    used: list[GreedyGrammar] = []

    class Recorded(GreedyGrammar):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            used.append(self)

    monkeypatch.setattr(_loading, "GreedyGrammar", Recorded)
    fast = real_model.invoke(question, grammar=grammar, max_tokens=16)
    monkeypatch.setattr(real_model, "grammar_shortcut", False)
    full = real_model.invoke(question, grammar=grammar, max_tokens=16)

    assert fast.content == full.content
    assert str(fast.content).startswith("The sky is blue today, ")
    (greedy,) = used
    assert 0 < greedy.full_checks < greedy.steps  # both the shortcut and the full mask ran


@pytest.mark.local_model
def test_real_structured_output(real_model: ChatLlamaCpp) -> None:
    class Capital(BaseModel):
        country: str
        capital: str
        confidence: Literal["low", "high"]

    parsed = real_model.with_structured_output(Capital).invoke(
        "Give the capital of Japan as JSON.", max_tokens=40
    )

    assert isinstance(parsed, Capital)
    assert parsed.capital.lower() == "tokyo"


@tool
def final_answer(answer: int) -> int:
    """Give the final answer to the user."""
    return answer


@pytest.mark.local_model
def test_real_forced_tool_calls_through_a_tool_loop(real_model: ChatLlamaCpp) -> None:
    tools = [get_weather, add, final_answer]
    history: list[BaseMessage] = [HumanMessage("What is 17 + 25?")]

    call = real_model.bind_tools(tools, tool_choice="add").invoke(history)

    assert [(c["name"], c["args"]) for c in call.tool_calls] == [("add", {"a": 17, "b": 25})]

    # The agent pattern (structured output as a tool, `tool_choice="any"`): the model must read
    # the tool's result back from the history to fill in the final answer.
    result = ToolMessage(
        str(add.invoke(call.tool_calls[0]["args"])), tool_call_id=call.tool_calls[0]["id"]
    )
    final = real_model.bind_tools(tools, tool_choice="any").invoke([*history, call, result])

    assert [(c["name"], c["args"]) for c in final.tool_calls] == [("final_answer", {"answer": 42})]


@pytest.mark.local_model
def test_real_template_renders_tool_turns_and_shared_prefixes(real_model: ChatLlamaCpp) -> None:
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    llama = real_model._loaded().llama
    formatter: Any = Jinja2ChatFormatter(
        template=llama.metadata["tokenizer.chat_template"],
        eos_token="<|im_end|>",
        bos_token="<|endoftext|>",
    )
    tools = [_tool_calls.as_openai_tool(get_weather)]
    history: list[BaseMessage] = [
        SystemMessage("grade"),
        HumanMessage("weather?"),
        AIMessage(
            "",
            tool_calls=[
                {"name": "get_weather", "args": {"city": "Paris"}, "id": "c1", "type": "tool_call"}
            ],
        ),
        ToolMessage("sunny", tool_call_id="c1"),
    ]

    def render(messages: list[BaseMessage]) -> str:
        return str(formatter(messages=to_chat_messages(messages), tools=tools).prompt)

    prompt = render(history).removesuffix("<|im_start|>assistant\n")
    assert '<tools>\n{"type": "function", "function": {"name": "get_weather"' in prompt
    assert (
        '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"city": "Paris"}}\n</tool_call><|im_end|>' in prompt
    )
    assert "<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>" in prompt

    one = render([*history, HumanMessage("Criterion A")])
    two = render([*history, HumanMessage("Criterion B")])
    assert one.startswith(prompt) and two.startswith(prompt)
