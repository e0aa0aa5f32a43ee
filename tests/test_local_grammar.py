"""`GreedyGrammar`: the grammar tests the best token only, and the answer is the full mask's."""

from __future__ import annotations

import ctypes
import subprocess
import sys
import types
from typing import Any

import numpy as np
import pytest

from rubricate._local._grammar import GreedyGrammar

EOS = 0


class token_data(ctypes.Structure):  # llama.cpp's layout and name
    _fields_ = [("id", ctypes.c_int32), ("logit", ctypes.c_float), ("p", ctypes.c_float)]


class token_data_array(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.POINTER(token_data)),
        ("size", ctypes.c_size_t),
        ("selected", ctypes.c_int64),
        ("sorted", ctypes.c_bool),
    ]


class FakeSampler:
    """A grammar that spells `word` (token ids), then allows only end-of-sequence.

    Token 7 is allowed anywhere as a "space", so some steps have more than one legal token.
    """

    def __init__(self, word: list[int]) -> None:
        self.word = word
        self.accepted: list[int] = []
        self.checked_sizes: list[int] = []
        self.freed = False

    def allowed(self) -> set[int]:
        spelled = [t for t in self.accepted if t != 7]
        if len(spelled) == len(self.word):
            return {EOS}
        return {self.word[len(spelled)], 7}


def _fake_low() -> types.SimpleNamespace:
    def init_grammar(vocab: object, text: bytes, root: bytes) -> FakeSampler | None:
        if not text.startswith(b"spell "):
            return None
        return FakeSampler([int(t) for t in text.split()[1:]])

    def apply(sampler: FakeSampler, candidates: Any) -> None:
        array = candidates._obj
        sampler.checked_sizes.append(array.size)
        allowed = sampler.allowed()
        for i in range(array.size):
            if array.data[i].id not in allowed:
                array.data[i].logit = float("-inf")

    def free(sampler: FakeSampler) -> None:
        sampler.freed = True

    return types.SimpleNamespace(
        llama_token_data=token_data,
        llama_token_data_p=ctypes.POINTER(token_data),
        llama_token_data_array=token_data_array,
        llama_model_get_vocab=lambda model: object(),
        llama_sampler_init_grammar=init_grammar,
        llama_sampler_apply=apply,
        llama_sampler_accept=lambda sampler, token: sampler.accepted.append(token),
        llama_sampler_free=free,
    )


LLAMA = types.SimpleNamespace(model=object())
PROMPT = [11, 12, 13]


def _scores(best: int, size: int = 16) -> np.ndarray:
    scores = np.linspace(-1.0, 0.0, size, dtype=np.single)
    scores[best] = 5.0
    return scores


def test_an_allowed_best_token_costs_one_check_and_changes_nothing() -> None:
    with GreedyGrammar(_fake_low(), LLAMA, "spell 3 4") as greedy:
        scores = _scores(best=3)
        out = greedy(np.array(PROMPT, dtype=np.intc), scores.copy())

        assert np.array_equal(out, scores)
        assert greedy._sampler.checked_sizes == [1]
        assert (greedy.steps, greedy.full_checks) == (1, 0)


def test_a_rejected_best_token_masks_the_whole_vocabulary() -> None:
    with GreedyGrammar(_fake_low(), LLAMA, "spell 3 4") as greedy:
        out = greedy(np.array(PROMPT, dtype=np.intc), _scores(best=9))

        assert greedy._sampler.checked_sizes == [1, 16]
        assert greedy.full_checks == 1
        assert set(np.flatnonzero(np.isfinite(out))) == {3, 7}
        assert int(np.argmax(out)) == 7  # the better of the two legal tokens


def test_generated_tokens_advance_the_grammar_and_the_prompt_does_not() -> None:
    with GreedyGrammar(_fake_low(), LLAMA, "spell 3 4") as greedy:
        greedy(np.array(PROMPT, dtype=np.intc), _scores(best=3))
        greedy(np.array([*PROMPT, 3], dtype=np.intc), _scores(best=4))
        greedy(np.array([*PROMPT, 3, 4], dtype=np.intc), _scores(best=5))

        assert greedy._sampler.accepted == [3, 4]
        assert greedy.full_checks == 1  # only token 5, after the word is complete


def test_greedy_answer_equals_the_full_masks_answer_at_every_step() -> None:
    rng = np.random.default_rng(0)
    word = [int(t) for t in rng.integers(1, 6, size=30)]
    low = _fake_low()
    reference = FakeSampler(word)
    generated: list[int] = []
    with GreedyGrammar(low, LLAMA, "spell " + " ".join(map(str, word))) as greedy:
        for _ in range(300):
            scores = rng.normal(size=16).astype(np.single)
            scores[rng.integers(1, 6)] += 3.0  # the model often, not always, wants a legal token
            fast = int(np.argmax(greedy(np.array([*PROMPT, *generated], dtype=np.intc), scores)))
            masked = np.where([t in reference.allowed() for t in range(16)], scores, -np.inf)
            assert fast == int(np.argmax(masked))
            if fast == EOS:
                break
            generated.append(fast)
            reference.accepted.append(fast)

        assert [t for t in generated if t != 7] == word
        assert 0 < greedy.full_checks < greedy.steps  # both paths were taken


def test_the_sampler_is_freed_and_a_bad_grammar_is_refused() -> None:
    low = _fake_low()
    with GreedyGrammar(low, LLAMA, "spell 1") as greedy:
        sampler = greedy._sampler
    assert sampler.freed
    with pytest.raises(ValueError, match="not a valid GBNF grammar"):
        GreedyGrammar(low, LLAMA, "root ::= oops")


def test_the_local_package_imports_without_numpy() -> None:
    # numpy arrives with the `local` extra; without it, asking for the embedded model must still
    # reach the "install rubricate[local]" message instead of failing on an import.
    code = "import sys; sys.modules['numpy'] = None; import rubricate._local"
    subprocess.run([sys.executable, "-c", code], check=True)
