"""Log-probabilities of the embedded model, read in the verdict's own call.

A fake `llama_cpp.Llama` runs llama-cpp-python's sampling loop at the logits-processor boundary:
scripted logits per step over a tiny vocabulary, every processor applied in order, the greedy
token chosen and appended to `input_ids`, as `Llama.generate` does. So the probability maths is
asserted exactly, and the real model is checked by the `local_model` tests at the end.
"""

from __future__ import annotations

import math
import types
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from langchain_core.messages import HumanMessage

from rubricate import Judge
from rubricate._judge._confidence import PASS_THRESHOLD, yes_probability
from rubricate._local import _loading
from rubricate._local._chat_model import ChatLlamaCpp
from rubricate._local._logprobs import LogprobRecorder

VOCAB = ["yes", "no", "Yes", "No", "<eos>", "The", " gap", "."]
EOS = VOCAB.index("<eos>")
PROMPT = [100, 101, 102]  # token ids outside VOCAB: the prompt is never detokenized


def logits(**named: float) -> list[float]:
    """Logits over VOCAB: the named tokens get their value, the rest -20."""
    return [named.get(token.strip("<>").replace(" ", "_"), -20.0) for token in VOCAB]


class ProcessorLlama:
    """Answers with the greedy token of each scripted step, after every logits processor."""

    instances: ClassVar[list[ProcessorLlama]] = []
    script: ClassVar[list[list[list[float]]]] = []
    """One list of per-step logits per call, consumed in order."""

    def __init__(self, model_path: str, **kwargs: Any) -> None:
        self.input_ids: list[int] = [0] * 64
        self.n_tokens = 0
        self.model = object()
        self.requests: list[dict[str, Any]] = []
        self.seen_scores: list[np.ndarray] = []
        ProcessorLlama.instances.append(self)

    def tokenize(self, text: bytes, add_bos: bool = True, special: bool = False) -> list[int]:
        word = text.decode()
        return [VOCAB.index(word)] if word in VOCAB else [200 + b for b in text]

    def detokenize(self, tokens: Sequence[int], special: bool = False) -> bytes:
        return "".join(VOCAB[t] if t < len(VOCAB) else "?" for t in tokens).encode()

    def create_chat_completion(self, **request: Any) -> dict[str, Any]:
        self.requests.append(request)
        steps = ProcessorLlama.script.pop(0)
        ids = list(PROMPT)
        generated: list[int] = []
        finish = "length"
        for step in steps:
            scores = np.asarray(step, dtype=np.single)
            for processor in request.get("logits_processor") or ():
                scores = processor(np.asarray(ids, dtype=np.intc), scores)
            self.seen_scores.append(np.array(scores))
            token = int(np.argmax(scores))
            if token == EOS:
                finish = "stop"
                break
            generated.append(token)
            ids.append(token)  # llama.cpp evaluates it before the next step
            if len(generated) >= request["max_tokens"]:
                break
        self.n_tokens = len(ids)
        self.input_ids[: len(ids)] = ids
        text = self.detokenize(generated).decode()
        return {
            "choices": [
                {"message": {"role": "assistant", "content": text}, "finish_reason": finish}
            ],
            "usage": {
                "prompt_tokens": len(PROMPT),
                "completion_tokens": len(generated),
                "total_tokens": len(PROMPT) + len(generated),
            },
        }


class FakeGrammar:
    @classmethod
    def from_string(cls, text: str, verbose: bool = True) -> FakeGrammar:
        return cls()


FAKE = types.SimpleNamespace(
    __version__="0.0-fake",
    Llama=ProcessorLlama,
    LlamaGrammar=FakeGrammar,
    LogitsProcessorList=list,
    llama_cpp=types.SimpleNamespace(
        llama_model_default_params=lambda: types.SimpleNamespace(use_extra_bufts=True)
    ),
    llama_model_get_vocab=lambda model: object(),
    llama_sampler_init_grammar=lambda vocab, text, root: object(),
    llama_sampler_free=lambda sampler: None,
)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real_import = _loading.import_llama_cpp
    monkeypatch.setattr(
        _loading,
        "import_llama_cpp",
        lambda module="llama_cpp": FAKE if module == "llama_cpp" else real_import(module),
    )
    monkeypatch.setattr(_loading, "LOADED", {})
    ProcessorLlama.instances = []
    ProcessorLlama.script = []
    yield


@pytest.fixture
def model(tmp_path: Path, fake: None) -> ChatLlamaCpp:
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF")
    # Grammars go to llama.cpp's own sampler here (no shortcut), which this fake ignores: the
    # scripted logits already put an allowed token first.
    return ChatLlamaCpp(model_path=str(path), grammar_shortcut=False)


def log_softmax(values: Sequence[float]) -> list[float]:
    peak = max(values)
    total = math.log(sum(math.exp(v - peak) for v in values)) + peak
    return [v - total for v in values]


def test_logprobs_are_the_log_softmax_of_each_step_in_openai_shape(model: ChatLlamaCpp) -> None:
    first = logits(yes=2.0, no=1.0, Yes=0.5)
    ProcessorLlama.script = [[first, logits(eos=5.0)]]

    reply = model.invoke("Is it?", logprobs=True, top_logprobs=3)

    assert reply.content == "yes"
    (entry,) = reply.response_metadata["logprobs"]["content"]  # the end token is not reported
    expected = log_softmax(first)
    assert entry["token"] == "yes"
    assert entry["bytes"] == list(b"yes")
    assert entry["logprob"] == pytest.approx(expected[0], abs=1e-6)
    assert [alt["token"] for alt in entry["top_logprobs"]] == ["yes", "no", "Yes"]
    assert [alt["logprob"] for alt in entry["top_logprobs"]] == pytest.approx(
        [expected[0], expected[1], expected[2]], abs=1e-6
    )


def test_logprob_tokens_are_reported_whatever_their_rank(model: ChatLlamaCpp) -> None:
    # The raw favourites are "Yes" and "No"; the grammar's words rank third and fourth.
    first = logits(Yes=4.0, No=3.0, yes=1.0, no=0.5)
    ProcessorLlama.script = [[first, logits(eos=5.0)]]

    reply = model.invoke(
        "Is it?", logprobs=True, top_logprobs=1, logprob_tokens=["no", "yes", "two words"]
    )

    (entry,) = reply.response_metadata["logprobs"]["content"]
    expected = log_softmax(first)
    assert [alt["token"] for alt in entry["top_logprobs"]] == ["Yes", "no", "yes"]
    assert [alt["logprob"] for alt in entry["top_logprobs"]] == pytest.approx(
        [expected[2], expected[1], expected[0]], abs=1e-6
    )
    # Every listed spelling counts toward its answer: "Yes" and "yes" against "no".
    yes = math.exp(4.0) + math.exp(1.0)
    assert yes_probability(reply) == pytest.approx(yes / (yes + math.exp(0.5)), abs=1e-6)


def test_the_recorder_changes_no_logit(model: ChatLlamaCpp) -> None:
    steps = [logits(no=3.0, yes=1.0), logits(eos=1.0)]
    ProcessorLlama.script = [list(steps)]

    model.invoke("Is it?", logprobs=True, top_logprobs=2)

    llama = ProcessorLlama.instances[0]
    for seen, step in zip(llama.seen_scores, steps, strict=True):
        assert seen.tolist() == pytest.approx(step)


def test_without_logprobs_nothing_is_recorded(model: ChatLlamaCpp) -> None:
    ProcessorLlama.script = [[logits(yes=1.0), logits(eos=1.0)]]

    reply = model.invoke("Is it?")

    assert "logprobs" not in reply.response_metadata
    assert ProcessorLlama.instances[0].requests[0].get("logits_processor") is None


def test_every_token_of_a_longer_answer_and_a_last_one_cut_by_the_length(
    model: ChatLlamaCpp,
) -> None:
    steps = [logits(The=4.0, yes=1.0), logits(_gap=3.0), logits(**{".": 2.0, "eos": 1.0})]
    ProcessorLlama.script = [steps]

    reply = model.invoke("Say it", logprobs=True, max_tokens=3)

    assert reply.content == "The gap."
    content = reply.response_metadata["logprobs"]["content"]
    # The last token was never evaluated (the length ended the answer): found from the text.
    assert [e["token"] for e in content] == ["The", " gap", "."]
    for entry, step, token in zip(content, steps, ["The", " gap", "."], strict=True):
        assert entry["logprob"] == pytest.approx(log_softmax(step)[VOCAB.index(token)], abs=1e-6)
        assert entry["top_logprobs"] == []


def test_yes_probability_sums_each_answer_over_its_spellings(model: ChatLlamaCpp) -> None:
    # The model's favourite spelling is "Yes": it is the same answer as "yes", and counts.
    ProcessorLlama.script = [[logits(yes=1.0, no=0.2, Yes=3.0), logits(eos=1.0)]]

    reply = model.invoke("Is it?", logprobs=True, top_logprobs=5)

    yes = math.exp(1.0) + math.exp(3.0)
    assert yes_probability(reply) == pytest.approx(yes / (yes + math.exp(0.2)), abs=1e-6)


def test_the_embedded_judge_reads_p_yes_from_its_one_verdict_call(model: ChatLlamaCpp) -> None:
    ProcessorLlama.script = [
        [logits(yes=0.5, no=2.0), logits(eos=1.0)],  # the verdict: no
        [logits(The=3.0), logits(_gap=3.0), logits(eos=3.0)],  # the gap, asked only for a no
        [logits(yes=2.5, no=0.5), logits(eos=1.0)],  # the second criterion: yes
    ]
    judge = Judge(model, guard_injections=False)

    evaluation = judge.evaluate("- Mentions Paris\n- Is short", output="Lyon is big.")

    first, second = evaluation.criteria
    assert (first.passed, first.gap) == (False, "The gap")
    assert first.confidence == pytest.approx(1 / (1 + math.exp(2.0 - 0.5)), abs=1e-9)
    assert second.passed is True
    assert second.confidence == pytest.approx(1 / (1 + math.exp(0.5 - 2.5)), abs=1e-9)
    requests = ProcessorLlama.instances[0].requests
    assert len(requests) == 3  # no extra call for the confidence
    assert judge._calls.verdict_words == {"logprob_tokens": ["yes", "no"]}
    # The verdicts record log-probabilities; the gap is plain text and records nothing.
    assert [len(r.get("logits_processor") or ()) for r in requests] == [1, 0, 1]
    assert evaluation.usage.calls == 3
    assert evaluation.criteria[0].to_dict()["confidence"] == round(first.confidence, 4)


def test_the_verdict_is_the_probability_against_the_threshold(
    model: ChatLlamaCpp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The greedy word is "yes" (P(yes) = 0.62), but under a stricter threshold it is a fail,
    # and the judge asks for the gap as for any fail.
    monkeypatch.setattr("rubricate._judge._per_criterion.PASS_THRESHOLD", 0.7)
    monkeypatch.setattr("rubricate._judge._confidence.UNSURE_BAND", (0.4, 0.7))
    yes, no = 1.0, 1.0 - math.log(0.62 / 0.38)
    ProcessorLlama.script = [
        [logits(yes=yes, no=no), logits(eos=1.0)],
        [logits(The=3.0), logits(eos=3.0)],
    ]

    (verdict,) = (
        Judge(model, guard_injections=False).evaluate("- Mentions Paris", output="x").criteria
    )

    assert verdict.confidence == pytest.approx(0.62)
    assert verdict.passed is False
    assert verdict.unsure is True


def test_a_failing_recorder_never_breaks_the_answer() -> None:
    recorder = LogprobRecorder(top=2)
    scores = np.asarray([1.0, 2.0], dtype=np.single)

    out = recorder(np.asarray([1], dtype=np.intc), "not an array")  # type: ignore[arg-type]
    assert out == "not an array"
    assert recorder.error is not None
    assert recorder(np.asarray([1], dtype=np.intc), scores) is scores


# -- the real embedded model ---------------------------------------------------------------------


@pytest.mark.local_model
def test_real_confidence_is_a_probability_that_agrees_with_the_greedy_answer() -> None:
    from rubricate._local import default_local_model

    model = default_local_model(n_ctx=4096)
    scored = model.model_copy(
        update={"logprobs": True, "top_logprobs": 10, "logprob_tokens": ["yes", "no"]}
    )
    answers = {}
    for question in ("Is Paris the capital of France?", "Is Paris the capital of Germany?"):
        plain = model.invoke([HumanMessage(question)], grammar='root ::= "yes" | "no"')
        reply = scored.invoke([HumanMessage(question)], grammar='root ::= "yes" | "no"')
        p = yes_probability(reply)
        assert reply.content == plain.content  # recording changes no answer
        assert p is not None and 0.0 <= p <= 1.0
        assert (p >= 0.5) == (reply.content == "yes")
        answers[question] = p
    assert answers["Is Paris the capital of France?"] > 0.8
    assert answers["Is Paris the capital of Germany?"] < 0.3

    judge = Judge(model, guard_injections=False)
    evaluation = judge.evaluate(
        "- The answer names Paris\n- The answer is about cooking", output="The capital is Paris."
    )
    named, cooking = evaluation.criteria
    assert named.passed and named.confidence is not None and named.confidence >= PASS_THRESHOLD
    assert not cooking.passed
    assert cooking.confidence is not None and cooking.confidence < PASS_THRESHOLD
