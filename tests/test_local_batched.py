"""Many conversations in one llama.cpp batch, on the real embedded model (few, short calls)."""

from __future__ import annotations

import math
import threading
import time

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from rubricate import Judge
from rubricate._judge._confidence import yes_probability
from rubricate._local import ChatLlamaCpp, default_local_model
from rubricate._local._sequences import Prompt, SequencePool

pytestmark = pytest.mark.local_model

SYSTEM = SystemMessage("You answer questions about the text below.\n\nText: Paris is in France.")


def ask(question: str) -> list[BaseMessage]:
    return [SYSTEM, HumanMessage(f"{question} Answer yes or no.")]


@pytest.fixture(scope="module")
def model() -> ChatLlamaCpp:
    return default_local_model(max_tokens=24)


def test_yes_no_choices_match_the_one_at_a_time_path(model: ChatLlamaCpp) -> None:
    questions = [ask("Is Paris in France?"), ask("Is Paris in Japan?")]
    batched = model.complete_many(questions, choices=("yes", "no"))
    single = model.model_copy(update={"multi_sequence": False}).complete_many(
        questions, choices=("yes", "no")
    )
    assert model.can_batch()
    assert [m.content for m in batched] == ["yes", "no"] == [m.content for m in single]
    for a, b in zip(batched, single, strict=True):
        pa, pb = yes_probability(a), yes_probability(b)
        assert pa is not None and pb is not None
        # Floating-point rounding differs between one batch and one sequence; not the answer.
        assert pa == pytest.approx(pb, abs=0.05)
    # Both questions share the system prompt: the second forked it rather than evaluating it.
    assert all(m.usage_metadata is not None for m in batched)
    cached = [m.usage_metadata["input_token_details"]["cache_read"] for m in batched]  # type: ignore[index]
    assert min(cached) > 10


def test_a_follow_up_reuses_its_question_and_gaps_stop_at_the_newline(
    model: ChatLlamaCpp,
) -> None:
    question = ask("Is Paris in Japan?")
    [verdict] = model.complete_many([question], choices=("yes", "no"))
    follow_up = [
        *question,
        AIMessage("no"),
        HumanMessage("In one short sentence, say where Paris is."),
    ]
    [reply] = model.complete_many([follow_up], stop=("\n",))
    usage = reply.usage_metadata
    assert usage is not None
    assert usage["input_token_details"]["cache_read"] >= verdict.usage_metadata["input_tokens"]  # type: ignore[index]
    assert "France" in str(reply.content) and "\n" not in str(reply.content)
    assert 0 < usage["output_tokens"] <= 24
    [plain] = model.model_copy(update={"multi_sequence": False}).complete_many(
        [follow_up], stop=("\n",)
    )
    assert plain.content == reply.content


def test_requests_waiting_for_the_model_run_as_one_batch(model: ChatLlamaCpp) -> None:
    loaded = model._loaded()
    queue = loaded.batch_queue()
    assert queue is not None
    calls: list[int] = []
    original = SequencePool.complete

    def counting(self: SequencePool, groups: object) -> object:
        calls.append(len(groups))  # type: ignore[arg-type]
        return original(self, groups)  # type: ignore[arg-type]

    results: dict[str, str] = {}

    def run(name: str, question: str) -> None:
        [reply] = model.complete_many([ask(question)], choices=("yes", "no"))
        results[name] = str(reply.content)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SequencePool, "complete", counting)
        with loaded.lock:  # the model is busy: both requests must wait
            threads = [
                threading.Thread(target=run, args=("france", "Is Paris in France?")),
                threading.Thread(target=run, args=("japan", "Is Paris in Japan?")),
            ]
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 30
            while len(queue._waiting) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(queue._waiting) == 2
        for thread in threads:
            thread.join()
    assert results == {"france": "yes", "japan": "no"}
    assert calls == [2]  # one batched call, holding both requests as two groups


def test_a_small_context_is_used_in_chunks_and_an_oversized_prompt_is_refused() -> None:
    small = default_local_model(n_ctx=512, max_tokens=8)
    questions = [ask(f"Is Paris in France? (question {i} of twelve)") for i in range(12)]
    replies = small.complete_many(questions, choices=("yes", "no"))
    assert [r.content for r in replies] == ["yes"] * 12
    with pytest.raises(ValueError, match="context window of 512"):
        small.complete_many([[HumanMessage("word " * 600)]])


def test_the_judge_grades_all_criteria_in_batched_calls() -> None:
    judge = Judge("local", read_checks=False, guard_injections=False)
    evaluation = judge.evaluate(
        "- Says that the capital of France is Paris\n- Says that Paris has a population of 40 "
        "million\n- Mentions the Eiffel Tower",
        output="The capital of France is Paris.",
        task="What is the capital of France?",
    )
    said = [v.passed for v in evaluation.criteria]
    assert said == [True, False, False], evaluation.explanation
    assert all(v.confidence is not None and 0 <= v.confidence <= 1 for v in evaluation.criteria)
    assert all(len(v.gap) > 10 for v in evaluation.criteria[1:])
    # One call a criterion plus one a gap, counted as the sequential path counts them.
    assert evaluation.usage.calls == 5
    assert not math.isnan(evaluation.latency_s)


def test_clear_cache_makes_the_next_call_start_cold(model: ChatLlamaCpp) -> None:
    question = ask("Is Paris in France?")
    model.complete_many([question], choices=("yes", "no"))
    [warm] = model.complete_many([question], choices=("yes", "no"))
    model.clear_cache()
    [cold] = model.complete_many([question], choices=("yes", "no"))
    assert warm.usage_metadata is not None and cold.usage_metadata is not None
    assert warm.usage_metadata["input_token_details"]["cache_read"] > 0
    assert cold.usage_metadata["input_token_details"]["cache_read"] == 0
    assert cold.content == warm.content == "yes"


def _logprob_of(reply: AIMessage, word: str) -> float:
    [entry] = reply.response_metadata["logprobs"]["content"]
    return next(a["logprob"] for a in entry["top_logprobs"] if a["token"] == word)


def test_a_reply_is_scored_as_the_logits_of_its_own_tokens_give_it(model: ChatLlamaCpp) -> None:
    question = ask("Is Paris in Japan?")
    [verdict] = model.complete_many([question], choices=("yes", "no"))
    # A one-token reply scores what the verdict's logits gave that word at the same position,
    # bar rounding: a batch of another shape shifts logits by up to a few tenths of a nat, and
    # not always both words alike (the gap between them moved 0.245 nat on a 2-core AVX-512
    # EPYC, every run, where earlier machines kept it within 0.1).
    yes, no = model.score_many([[*question, AIMessage("yes")], [*question, AIMessage("no")]])
    assert yes == pytest.approx(_logprob_of(verdict, "yes"), abs=0.3)
    assert no == pytest.approx(_logprob_of(verdict, "no"), abs=0.3)
    assert yes - no == pytest.approx(
        _logprob_of(verdict, "yes") - _logprob_of(verdict, "no"), abs=0.3
    )
    assert no > yes
    # A longer reply scores the sum of its tokens' log-probabilities, as the one-at-a-time path
    # reports them while generating it.
    where = [SYSTEM, HumanMessage("In one short sentence, say where Paris is.")]
    single = model.model_copy(update={"multi_sequence": False, "logprobs": True})
    said = single.invoke(where)
    tokens = said.response_metadata["logprobs"]["content"]
    assert len(tokens) > 3
    [scored] = model.score_many([[*where, AIMessage(str(said.content))]])
    assert scored == pytest.approx(sum(t["logprob"] for t in tokens), abs=0.3)
    assert scored > model.score_many([[*where, AIMessage("Paris is in Japan, near Tokyo.")]])[0]


def test_scoring_refuses_what_it_cannot_score(model: ChatLlamaCpp) -> None:
    with pytest.raises(ValueError, match="conversation 1 must end with the AI message"):
        model.score_many([[*ask("Is Paris in France?"), AIMessage("yes")], ask("And Japan?")])
    with pytest.raises(RuntimeError, match="multi_sequence"):
        model.model_copy(update={"multi_sequence": False}).score_many(
            [[*ask("Is Paris in France?"), AIMessage("yes")]]
        )
    pool = model._loaded().batch_queue().pool  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="`score_from` must be between 1 and"):
        pool.complete([[Prompt(tokens=(1, 2, 3), score_from=0)]])
