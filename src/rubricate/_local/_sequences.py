"""Many prompts in one llama.cpp batch: shared prefixes decoded once, answers decoded side by side.

Why: one evaluation asks the embedded model one question per criterion over the same evidence.
Asked one after another, every question pays its own prompt pass and every gap its own decode
steps, and a CPU decode step is bound by memory bandwidth (one pass over the weights), so it
costs about the same for one sequence as for eight. Here every prompt is its own sequence in one
llama.cpp context: the longest prefix each shares with a sequence already in the KV cache is
forked from it (`llama_memory_seq_cp`, which in a unified cache shares the cells, not copies
them), only the rest is evaluated, all sequences in the same batches, and then the answers are
decoded one step for all sequences at a time, each stopping on its own.

The context is a second one on the already-loaded weights (its own KV cache, `kv_unified`, up to
`MAX_SEQUENCES` sequences), so the single-sequence path and its prompt cache are untouched.
Decoding is greedy, as the judge's calls are: the same prompt gives the same answer, and the
same answer as `Llama.create_chat_completion` at temperature 0 (see `tests/test_local_batched.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CHUNK_SEQUENCES", "MAX_SEQUENCES", "Completion", "Prompt", "SequencePool"]

MAX_SEQUENCES = 256
"""Sequences the context holds at once (llama.cpp's limit). Finished ones stay cached, so that
a follow-up (a gap after its verdict) forks its question instead of evaluating it again, until
their cells or ids are needed: then the least recently used go first."""


CHUNK_SEQUENCES = 32
"""New sequences per batched step: more than a rubric's criteria, and few enough that they fit
beside the cached ones. A bigger call goes in parts."""


@dataclass(frozen=True)
class Prompt:
    """One prompt of a batched call, as tokens, and what to do at its end."""

    tokens: tuple[int, ...]
    max_tokens: int = 0
    """Tokens to generate (ignored with `choices`)."""
    stop: tuple[str, ...] = ()
    """Generation ends before the first of these texts (not included), as llama-cpp-python's
    `stop` does."""
    choices: tuple[int, ...] = ()
    """A one-token answer from a closed set: the likeliest of these tokens is the answer, and
    each one's log-probability is reported (a `root ::= "yes" | "no"` grammar under greedy
    decoding, when both words are single tokens)."""
    score_from: int | None = None
    """Also report the log-probability of the prompt's own tokens from this index on, given
    the ones before (`Completion.logprob`): how likely a text is after a given context, read
    from the logits of the same pass that evaluates it."""


@dataclass
class Completion:
    """What one prompt gave."""

    text: str
    choices: dict[int, float]
    """With `Prompt.choices`: each choice's log-probability over the whole vocabulary."""
    prompt_tokens: int
    cached_tokens: int
    """Prompt tokens reused from the KV cache (shared with another sequence), not evaluated."""
    completion_tokens: int
    finish_reason: str
    """`"stop"` (a stop text or end of turn) or `"length"` (`max_tokens` reached)."""
    logprob: float | None = None
    """With `Prompt.score_from`: the summed log-probability of those prompt tokens."""


@dataclass
class _Sequence:
    seq_id: int
    tokens: list[int] = field(default_factory=list)
    """The tokens whose keys and values are in the cache for this sequence, in position order."""
    used: int = 0
    """The call that last evaluated or forked it (for least-recently-used eviction)."""


@dataclass
class _Job:
    """One prompt on its way through a call."""

    prompt: Prompt
    seq: _Sequence
    cached: int
    pending: list[int]
    """Prompt tokens still to evaluate."""
    generated: list[int] = field(default_factory=list)
    text: str = ""
    choices: dict[int, float] = field(default_factory=dict)
    finish_reason: str | None = None
    next_token: int | None = None
    logprob: float | None = None


class SequencePool:
    """A llama.cpp context holding many sequences over one unified KV cache.

    Not thread-safe: the caller holds the model's lock for every call (the context shares the
    CPU threads, and the weights, with the model's own context).
    """

    def __init__(self, llama: Any, llama_cpp: Any, *, n_threads: int) -> None:
        from llama_cpp import _internals

        self._llama = llama
        self._low = llama_cpp.llama_cpp
        params = self._low.llama_context_default_params()
        params.n_ctx = llama.n_ctx()
        params.n_batch = llama.n_batch
        params.n_ubatch = llama.n_batch
        params.n_threads = n_threads
        params.n_threads_batch = n_threads
        params.n_seq_max = MAX_SEQUENCES
        params.kv_unified = True  # one cache: a forked prefix shares its cells
        self.n_ctx: int = params.n_ctx
        self._ctx: Any = _internals.LlamaContext(model=llama._model, params=params, verbose=False)
        self._batch = self._low.llama_batch_init(llama.n_batch, 0, 1)
        vocab = self._low.llama_model_get_vocab(llama._model.model)
        self._vocab = vocab
        self._n_vocab: int = self._low.llama_vocab_n_tokens(vocab)
        self._sequences: list[_Sequence] = []
        self._free_ids = list(range(MAX_SEQUENCES))
        self._calls = 0

    def close(self) -> None:
        if self._batch is not None:
            self._low.llama_batch_free(self._batch)
            self._batch = None
        self._ctx.close()

    # -- the call ------------------------------------------------------------------------------

    def complete(self, groups: Sequence[Sequence[Prompt]]) -> list[list[Completion]]:
        """Evaluate every prompt and decode its answer, all sequences together.

        A group is prompts that share a prefix (one evaluation's questions over its evidence):
        the prefix is evaluated once per group. Groups from different callers go in one call.

        Raises:
            ValueError: A prompt (with its answer) does not fit the context window, or its
                `score_from` is outside it.
            RuntimeError: llama.cpp failed to decode a batch; the cache is cleared.

        """
        for group in groups:
            for prompt in group:
                if prompt.score_from is not None and not 1 <= prompt.score_from <= len(
                    prompt.tokens
                ):
                    raise ValueError(
                        f"`score_from` must be between 1 and the prompt's {len(prompt.tokens)} "
                        f"tokens (the first token has no context to be scored in), got "
                        f"{prompt.score_from}"
                    )
                if len(prompt.tokens) + prompt.max_tokens + 1 > self.n_ctx:
                    raise ValueError(
                        f"Requested tokens ({len(prompt.tokens) + prompt.max_tokens}) exceed "
                        f"the context window of {self.n_ctx}. Shorten the prompt or lower "
                        "`max_tokens`, or create the model with a larger `n_ctx`."
                    )
        flat = [(g, prompt) for g, group in enumerate(groups) for prompt in group]
        results: list[list[Completion]] = [[] for _ in groups]
        for chunk in self._chunks(flat):
            try:
                done = self._complete(chunk)
            except _NoSlot:
                self.clear()  # the cells were more scattered than counted: start afresh
                try:
                    done = self._complete(chunk)
                except BaseException:
                    self.clear()
                    raise
            except BaseException:
                self.clear()
                raise
            for (g, _), completion in zip(chunk, done, strict=True):
                results[g].append(completion)
        return results

    def _chunks(self, flat: list[tuple[int, Prompt]]) -> list[list[tuple[int, Prompt]]]:
        """Split a call into parts whose new cells and sequences fit the cache."""
        chunks: list[list[tuple[int, Prompt]]] = []
        current: list[tuple[int, Prompt]] = []
        cells = 0
        limit = CHUNK_SEQUENCES
        for g, prompt in flat:
            whole = len(prompt.tokens) + prompt.max_tokens
            mates = [p.tokens for h, p in current if h == g]
            extra = whole - (_common_prefix([mates[0], prompt.tokens]) if mates else 0)
            if current and (len(current) >= limit or cells + extra > self.n_ctx):
                chunks.append(current)
                current, cells, extra = [], 0, whole
            current.append((g, prompt))
            cells += extra
        if current:
            chunks.append(current)
        return chunks

    def _complete(self, chunk: list[tuple[int, Prompt]]) -> list[Completion]:
        self._calls += 1
        prompts = [prompt for _, prompt in chunk]
        needed = _trie_size([p.tokens for p in prompts]) + sum(p.max_tokens for p in prompts)
        self._make_room(cells=needed, ids=2 * len(prompts))
        jobs = self._plan(chunk, list(self._sequences))
        self._evaluate(jobs)
        self._generate(jobs)
        return [
            Completion(
                text=job.text,
                choices=job.choices,
                prompt_tokens=len(job.prompt.tokens),
                cached_tokens=job.cached,
                completion_tokens=len(job.generated),
                finish_reason=job.finish_reason or "length",
                logprob=job.logprob,
            )
            for job in jobs
        ]

    def _plan(self, chunk: list[tuple[int, Prompt]], old: list[_Sequence]) -> list[_Job]:
        """Give every prompt a new sequence, forked from what already holds its longest prefix.

        When a group's prompts share a prefix longer than anything cached, a root sequence
        holding it is evaluated first (all groups' roots in one batch), so the prefix is
        evaluated once, not once per prompt.
        """
        groups: dict[int, list[Prompt]] = {}
        for g, prompt in chunk:
            groups.setdefault(g, []).append(prompt)
        roots = self._roots(list(groups.values()), old)
        sources = [*old, *roots]
        jobs: list[_Job] = []
        for _, prompt in chunk:
            best, shared = _best_source(sources, prompt.tokens, _reusable(prompt))
            seq = self._new_sequence()
            if best is not None:
                best.used = self._calls
                self._ctx.kv_cache_seq_cp(best.seq_id, seq.seq_id, 0, shared)
                seq.tokens = list(prompt.tokens[:shared])
            jobs.append(
                _Job(prompt=prompt, seq=seq, cached=shared, pending=list(prompt.tokens[shared:]))
            )
        for root in roots:
            self._drop(root)  # its cells live on in the forks
        return jobs

    def _roots(self, groups: list[list[Prompt]], sources: list[_Sequence]) -> list[_Sequence]:
        """For each group of two or more prompts, a sequence holding their common prefix."""
        work: list[tuple[_Sequence, list[int]]] = []
        for prompts in groups:
            if len(prompts) < 2:
                continue
            common = min(_common_prefix([p.tokens for p in prompts]), *map(_reusable, prompts))
            best, shared = _best_source(sources, prompts[0].tokens, common)
            if common - shared < 1:
                continue  # an existing sequence already holds it: members fork from that
            root = self._new_sequence()
            if best is not None:
                best.used = self._calls
                self._ctx.kv_cache_seq_cp(best.seq_id, root.seq_id, 0, shared)
                root.tokens = list(prompts[0].tokens[:shared])
            work.append((root, list(prompts[0].tokens[shared:common])))
        self._decode_all([(root, tokens, None) for root, tokens in work], on_logits=_ignore)
        return [root for root, _ in work]

    def _evaluate(self, jobs: list[_Job]) -> None:
        """Evaluate every job's pending prompt tokens; read each job's first-answer logits.

        A job with `score_from` also has the logits of each position from the one before that
        token on, each adding the log-probability of the prompt token that follows it.
        """
        by_seq = {job.seq.seq_id: job for job in jobs}

        def on_logits(seq: _Sequence, offset: int, logits: Any) -> None:
            job = by_seq[seq.seq_id]
            position = job.cached + offset
            if position == len(job.prompt.tokens) - 1:
                self._take(job, logits)
            else:
                following = job.prompt.tokens[position + 1]
                job.logprob = (job.logprob or 0.0) + self._logprob(logits, following)

        work = []
        for job in jobs:
            last = len(job.pending) - 1
            score_from = job.prompt.score_from
            if score_from is not None:
                job.logprob = 0.0
                # The logits at position i give the probability of token i + 1.
                first = min(max(score_from - 1 - job.cached, 0), last)
            else:
                first = last
            work.append((job.seq, job.pending, first))
        self._decode_all(work, on_logits=on_logits)
        for job in jobs:
            job.pending = []

    def _generate(self, jobs: list[_Job]) -> None:
        """Decode every unfinished answer one step for all sequences at a time."""
        by_seq = {job.seq.seq_id: job for job in jobs}

        def on_logits(seq: _Sequence, offset: int, logits: Any) -> None:
            self._take(by_seq[seq.seq_id], logits)

        while True:
            active = [job for job in jobs if job.finish_reason is None]
            if not active:
                return
            steps = []
            for job in active:
                assert job.next_token is not None
                steps.append((job.seq, [job.next_token], 0))
            self._decode_all(steps, on_logits=on_logits)

    def _row(self, logits: Any) -> Any:
        """One position's logits as a numpy view (no copy)."""
        import numpy as np

        return np.ctypeslib.as_array(logits, shape=(self._n_vocab,))

    def _logprob(self, logits: Any, token: int) -> float:
        """Log P(`token`) under one position's logits."""
        row = self._row(logits)
        return float(row[token]) - _normaliser(row)

    def _take(self, job: _Job, logits: Any) -> None:
        """Record the logits at a job's answer position and choose its next token (greedy)."""
        row = self._row(logits)
        if job.prompt.choices:
            normaliser = _normaliser(row)
            job.choices = {t: float(row[t]) - normaliser for t in job.prompt.choices}
            chosen = max(job.prompt.choices, key=lambda t: row[t])
            job.generated = [chosen]
            job.text = self._llama.detokenize([chosen], special=True).decode(
                "utf-8", errors="ignore"
            )
            job.finish_reason = "stop"
            return
        if job.finish_reason is not None:
            return
        if len(job.generated) >= job.prompt.max_tokens:
            job.finish_reason = "length"
            return
        token = int(row.argmax())
        if self._low.llama_vocab_is_eog(self._vocab, token):
            job.finish_reason = "stop"
            return
        job.generated.append(token)
        text = self._llama.detokenize(job.generated, special=False).decode("utf-8", errors="ignore")
        cut = min((text.find(s) for s in job.prompt.stop if s and s in text), default=-1)
        if cut >= 0:
            job.text, job.finish_reason = text[:cut], "stop"
            return
        job.text = text
        if len(job.generated) >= job.prompt.max_tokens:
            job.finish_reason = "length"
            return
        job.next_token = token

    # -- llama.cpp -----------------------------------------------------------------------------

    def _decode_all(
        self,
        work: Sequence[tuple[_Sequence, list[int], int | None]],
        *,
        on_logits: Any,
    ) -> None:
        """Append each sequence's tokens to it, in as few `llama_decode` calls as fit a batch.

        Each entry is a sequence, its tokens, and the offset in them from which logits are
        wanted (`None`: none). `on_logits(seq, offset, row)` gets each such row right after the
        decode that computed it (the next decode overwrites them). A batch holds at most
        `MAX_SEQUENCES` rows of logits, the output buffer the context reserves anyway.
        """
        capacity = self._llama.n_batch
        queue = [(seq, tokens, first) for seq, tokens, first in work if tokens]
        offsets = [0] * len(queue)
        batch = self._batch
        while any(offsets[i] < len(t) for i, (_, t, _) in enumerate(queue)):
            n = 0
            outputs: list[tuple[_Sequence, int, int]] = []
            for i, (seq, tokens, first) in enumerate(queue):
                while offsets[i] < len(tokens) and n < capacity:
                    wanted = first is not None and offsets[i] >= first
                    if wanted and len(outputs) >= MAX_SEQUENCES:
                        break
                    batch.token[n] = tokens[offsets[i]]
                    batch.pos[n] = len(seq.tokens)
                    batch.n_seq_id[n] = 1
                    batch.seq_id[n][0] = seq.seq_id
                    batch.logits[n] = wanted
                    if wanted:
                        outputs.append((seq, offsets[i], n))
                    seq.tokens.append(tokens[offsets[i]])
                    offsets[i] += 1
                    n += 1
                if n >= capacity or len(outputs) >= MAX_SEQUENCES:
                    break
            batch.n_tokens = n
            code = self._low.llama_decode(self._ctx.ctx, batch)
            if code == 1:
                raise _NoSlot(f"no room in the KV cache of {self.n_ctx} cells for {n} tokens")
            if code != 0:
                raise RuntimeError(
                    f"llama.cpp could not decode a batch of {n} tokens (llama_decode returned "
                    f"{code}); the KV cache of {self.n_ctx} cells may be full."
                )
            for seq, offset, index in outputs:
                on_logits(seq, offset, self._ctx.get_logits_ith(index))

    def _make_room(self, *, cells: int, ids: int) -> None:
        """Evict the least recently used sequences until `cells` new cells and `ids` fit.

        The fewest evictions that make room are found by a binary search (the cells held
        shrink as more are evicted), so the cache is measured a handful of times, not once per
        eviction.
        """
        by_age = sorted(self._sequences, key=lambda seq: seq.used)

        def fits(evicted: int) -> bool:
            kept = [seq.tokens for seq in by_age[evicted:]]
            free = len(self._free_ids) + evicted
            return _trie_size(kept) + cells <= self.n_ctx and free >= ids

        low, high = 0, len(by_age)
        while low < high:
            middle = (low + high) // 2
            if fits(middle):
                high = middle
            else:
                low = middle + 1
        for seq in by_age[:low]:
            self._drop(seq)

    def _new_sequence(self) -> _Sequence:
        if not self._free_ids:
            raise RuntimeError(f"all {MAX_SEQUENCES} sequences of the batched context are in use")
        seq = _Sequence(seq_id=self._free_ids.pop(0), used=self._calls)
        self._sequences.append(seq)
        return seq

    def _drop(self, seq: _Sequence) -> None:
        self._ctx.kv_cache_seq_rm(seq.seq_id, -1, -1)
        self._sequences.remove(seq)
        self._free_ids.append(seq.seq_id)

    def clear(self) -> None:
        """Drop every sequence: nothing stays cached."""
        for seq in list(self._sequences):
            self._drop(seq)


def _normaliser(row: Any) -> float:
    """The log-sum-exp of a row of logits (a log-softmax's constant), summed in float64."""
    import numpy as np

    peak = float(row.max())
    return peak + math.log(float(np.exp(row - peak).sum(dtype=np.float64)))


def _reusable(prompt: Prompt) -> int:
    """How much of a prompt may come from the cache: the rest is evaluated for its logits.

    The last token always is (its logits give the first answer token), and with `score_from`
    so is every token from the one before it.
    """
    last = len(prompt.tokens) - 1
    return last if prompt.score_from is None else max(min(last, prompt.score_from - 1), 0)


def _ignore(*_: Any) -> None:
    """Logits nobody asked for."""


class _NoSlot(RuntimeError):
    """llama.cpp found no room in the KV cache for a batch (`llama_decode` returned 1)."""


def _common_prefix(sequences: Sequence[Sequence[int]]) -> int:
    """Length of the longest prefix every sequence shares."""
    if not sequences:
        return 0
    first = tuple(sequences[0])
    return min((_shared(first, tuple(other)) for other in sequences[1:]), default=len(first))


def _shared(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Length of the prefix two token tuples share.

    A binary search over slice comparisons, which run in C: this sits on the hot path (every
    prompt against every cached sequence), where a token-by-token Python loop grows with the
    tokens of every cached sequence (up to a few hundred sequences).
    """
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _best_source(
    sources: Sequence[_Sequence], tokens: Sequence[int], limit: int
) -> tuple[_Sequence | None, int]:
    """The sequence sharing the longest prefix with `tokens` (at most `limit` of it)."""
    best, shared = None, 0
    for seq in sources:
        n = min(_common_prefix([seq.tokens, tokens]), limit)
        if n > shared:
            best, shared = seq, n
    return best, shared


def _trie_size(sequences: Sequence[Sequence[int]]) -> int:
    """Cache cells held by sequences forked from one another: their distinct prefixes."""
    ordered = sorted(tuple(s) for s in sequences)
    return sum(
        len(tokens) - (_shared(tokens, ordered[i - 1]) if i else 0)
        for i, tokens in enumerate(ordered)
    )
