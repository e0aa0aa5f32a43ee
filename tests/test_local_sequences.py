"""How the batched context plans a call: prefixes, cache cells, chunks (no model needed)."""

from __future__ import annotations

from rubricate._local._sequences import (
    CHUNK_SEQUENCES,
    Prompt,
    SequencePool,
    _common_prefix,
    _trie_size,
)


def pool(n_ctx: int) -> SequencePool:
    """A pool's planning half, without a llama.cpp context behind it."""
    planner = object.__new__(SequencePool)
    planner.n_ctx = n_ctx
    return planner


def test_common_prefix_of_token_sequences() -> None:
    assert _common_prefix([(1, 2, 3, 4), (1, 2, 9), (1, 2, 3)]) == 2
    assert _common_prefix([(1, 2), (1, 2)]) == 2
    assert _common_prefix([(5,), (6,)]) == 0
    assert _common_prefix([]) == 0


def test_cells_of_forked_sequences_count_each_shared_prefix_once() -> None:
    evidence = tuple(range(100))
    questions = [(*evidence, 1000 + q, 2000 + q) for q in range(10)]
    # The evidence once, then two cells of each question's own.
    assert _trie_size(questions) == 100 + 10 * 2
    assert _trie_size([]) == 0


def test_verdict_prompts_that_generate_nothing_fit_one_chunk() -> None:
    evidence = tuple(range(600))
    verdicts = [(0, Prompt(tokens=(*evidence, 7000 + q), choices=(1, 2))) for q in range(10)]
    assert pool(8192)._chunks(verdicts) == [verdicts]


def test_a_call_too_big_for_the_cache_is_split_in_order() -> None:
    evidence = tuple(range(300))
    gaps = [(0, Prompt(tokens=(*evidence, 9000 + n), max_tokens=100)) for n in range(6)]
    chunks = pool(700)._chunks(gaps)
    # 300 shared + 101 new cells each: three prompts fit 700 cells (603), four do not (704).
    assert [len(c) for c in chunks] == [3, 3]
    assert [p for chunk in chunks for p in chunk] == gaps
    # Prompts of different groups share nothing: each brings its whole length.
    apart = [(n, Prompt(tokens=(*evidence, n), max_tokens=100)) for n in range(2)]
    assert [len(c) for c in pool(700)._chunks(apart)] == [1, 1]


def test_a_call_with_more_prompts_than_sequences_is_split() -> None:
    prompts = [(0, Prompt(tokens=(1, 2, 3 + n), choices=(1,))) for n in range(100)]
    chunks = pool(100_000)._chunks(prompts)
    assert all(len(c) <= CHUNK_SEQUENCES for c in chunks)
    assert sum(len(c) for c in chunks) == 100


def test_making_room_evicts_the_fewest_least_recently_used_sequences() -> None:
    from types import SimpleNamespace

    from rubricate._local._sequences import _Sequence

    planner = pool(100)
    removed: list[int] = []
    planner._ctx = SimpleNamespace(kv_cache_seq_rm=lambda seq, p0, p1: removed.append(seq))
    planner._sequences = [
        _Sequence(seq_id=n, tokens=[n * 1000 + t for t in range(40)], used=used)
        for n, used in ((0, 3), (1, 1), (2, 2))
    ]
    planner._free_ids = [3, 4]
    # 120 cells held; 30 more must fit in 100: the two oldest go, the newest stays.
    planner._make_room(cells=30, ids=2)
    assert removed == [1, 2]
    assert [seq.seq_id for seq in planner._sequences] == [0]
    # Room already there: nothing is evicted.
    planner._make_room(cells=10, ids=1)
    assert removed == [1, 2]
