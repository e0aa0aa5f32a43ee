"""The embedded model's speed floor on this machine, from llama-cpp-python's low-level API alone.

Prompt evaluation tokens/s, question evaluation and one decode step at batch widths 1-16 over a
shared prefix, and from them the floor of one evaluation in today's answer shape
(docs/benchmarks.md, "Speed of the embedded judge"; `batched.py` compares the judge to it).

    .venv/bin/python bench/floor.py --json bench/results/floor.json
    .venv/bin/python bench/floor.py --repack off   # llama.cpp's repacked weight layouts off
"""

from __future__ import annotations

import argparse
import ctypes
import itertools
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _common import header, write_json

WIDTHS = (1, 2, 4, 8, 16)
PROMPT_TOKENS = 512
SUFFIX_TOKENS = 32
DECODE_STEPS = 16
_TEXT = (
    b"The committee met on Tuesday to review the budget, and after a long discussion it agreed "
    b"to fund the new library, delay the road repairs until spring, and publish the minutes. "
)


_QUIET: Any = None
"""The no-op log callback handed to llama.cpp, referenced for the life of the process."""


@dataclass(frozen=True)
class Rates:
    """Measured speeds; `question_tps` and `step_s` are per batch width."""

    prompt_tps: float
    question_tps: dict[int, float]
    step_s: dict[int, float]

    def at(self, table: dict[int, float], width: int) -> float:
        """The figure at `width`, interpolated (widths beyond the widest use the widest)."""
        widths = sorted(table)
        if width <= widths[0]:
            return table[widths[0]]
        for low, high in itertools.pairwise(widths):
            if width <= high:
                share = (width - low) / (high - low)
                return table[low] + share * (table[high] - table[low])
        return table[widths[-1]] * width / widths[-1] if table is self.step_s else table[widths[-1]]


@dataclass(frozen=True)
class Shape:
    """One evaluation's token counts in today's answer shape."""

    evidence: int
    criteria: int
    suffix: float
    failed: int
    gap_prompt: float
    gap: float


def floor_seconds(shape: Shape, rates: Rates) -> float:
    """Wall time of one evaluation if every phase ran at the measured batched speed."""
    seconds = shape.evidence / rates.prompt_tps
    if shape.criteria:
        width = shape.criteria
        seconds += width * shape.suffix / rates.at(rates.question_tps, width)
    if shape.failed:
        width = shape.failed
        seconds += width * shape.gap_prompt / rates.at(rates.question_tps, width)
        seconds += shape.gap * rates.at(rates.step_s, width)
    return seconds


class _Model:
    """A GGUF loaded through the low-level API with a multi-sequence context."""

    def __init__(self, path: str, *, threads: int, repack: bool) -> None:
        import llama_cpp

        self.low = llama_cpp
        # Silence llama.cpp's log for the rest of the process. The callback lives at module
        # level: llama.cpp keeps calling it after this object is gone.
        global _QUIET
        if _QUIET is None:
            _QUIET = llama_cpp.llama_log_callback(lambda level, text, data: None)
        llama_cpp.llama_log_set(_QUIET, ctypes.c_void_p(0))
        llama_cpp.llama_backend_init()
        params = llama_cpp.llama_model_default_params()
        params.use_extra_bufts = repack
        self.model = llama_cpp.llama_model_load_from_file(path.encode(), params)
        if not self.model:
            raise SystemExit(f"llama.cpp could not load {path}")
        ctx_params = llama_cpp.llama_context_default_params()
        ctx_params.n_ctx = 8192
        ctx_params.n_batch = ctx_params.n_ubatch = 512
        ctx_params.n_threads = ctx_params.n_threads_batch = threads
        ctx_params.n_seq_max = max(WIDTHS) + 1
        ctx_params.kv_unified = True
        self.ctx = llama_cpp.llama_init_from_model(self.model, ctx_params)
        self.memory = llama_cpp.llama_get_memory(self.ctx)
        self.batch = llama_cpp.llama_batch_init(512, 0, 1)
        vocab = llama_cpp.llama_model_get_vocab(self.model)
        buffer = (llama_cpp.llama_token * 4096)()
        n = llama_cpp.llama_tokenize(vocab, _TEXT * 40, len(_TEXT) * 40, buffer, 4096, False, False)
        self.tokens = list(buffer[:n])

    def decode(self, work: Sequence[tuple[int, int, list[int]]]) -> float:
        """Decode (seq_id, first position, tokens) triples in one batch; seconds taken."""
        n = 0
        for seq, pos, tokens in work:
            for i, token in enumerate(tokens):
                self.batch.token[n] = token
                self.batch.pos[n] = pos + i
                self.batch.n_seq_id[n] = 1
                self.batch.seq_id[n][0] = seq
                self.batch.logits[n] = i == len(tokens) - 1
                n += 1
        self.batch.n_tokens = n
        started = time.perf_counter()
        if self.low.llama_decode(self.ctx, self.batch) != 0:
            raise SystemExit("llama_decode failed")
        return time.perf_counter() - started

    def clear(self) -> None:
        self.low.llama_memory_clear(self.memory, True)


def measure(path: str, *, threads: int, repack: bool, repeats: int = 3) -> Rates:
    model = _Model(path, threads=threads, repack=repack)
    tokens = model.tokens
    model.decode([(0, 0, tokens[:16])])  # warm up
    model.clear()
    prompt = []
    for _ in range(repeats):
        model.clear()
        prompt.append(model.decode([(0, 0, tokens[:PROMPT_TOKENS])]))
    question: dict[int, float] = {}
    step: dict[int, float] = {}
    prefix = 256
    for width in WIDTHS:
        q_times, s_times = [], []
        for _ in range(repeats):
            model.clear()
            model.decode([(0, 0, tokens[:prefix])])
            for seq in range(1, width + 1):
                model.low.llama_memory_seq_cp(model.memory, 0, seq, 0, prefix)
            suffixes = [
                (seq, prefix, tokens[prefix + seq * 7 : prefix + seq * 7 + SUFFIX_TOKENS])
                for seq in range(1, width + 1)
            ]
            q_times.append(model.decode(suffixes))
            position = prefix + SUFFIX_TOKENS
            for i in range(DECODE_STEPS):
                work = [(seq, position + i, [tokens[seq + i]]) for seq in range(1, width + 1)]
                s_times.append(model.decode(work))
        question[width] = width * SUFFIX_TOKENS / statistics.median(q_times)
        step[width] = statistics.median(s_times)
    return Rates(
        prompt_tps=PROMPT_TOKENS / statistics.median(prompt), question_tps=question, step_s=step
    )


def default_model_path() -> str:
    from rubricate import resolve_chat_model

    return str(resolve_chat_model("local").model_path)  # type: ignore[attr-defined]


def print_rates(rates: Rates, title: str) -> None:
    print(f"{title}: prompt evaluation {rates.prompt_tps:.1f} tokens/s")
    print("width  question tokens/s  decode step ms  decode tokens/s")
    for width in WIDTHS:
        step = rates.step_s[width]
        print(
            f"{width:>5}  {rates.question_tps[width]:>17.1f}  {step * 1000:>14.1f}  "
            f"{width / step:>15.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default=None, help="GGUF path (default: the embedded model)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repack", choices=("on", "off"), default="on")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    path = args.model or default_model_path()
    rates = measure(path, threads=args.threads, repack=args.repack == "on")
    print_rates(rates, f"repacked weights {args.repack}")
    example = Shape(evidence=600, criteria=10, suffix=30, failed=6, gap_prompt=45, gap=20)
    print(f"floor for {example}: {floor_seconds(example, rates):.2f} s")
    if args.json:
        figures = {"prompt_tps": rates.prompt_tps, "question_tps": rates.question_tps}
        settings = {"threads": args.threads, "repack": args.repack}
        write_json(
            args.json, {**header("floor.py", None), **settings, **figures, "step_s": rates.step_s}
        )


if __name__ == "__main__":
    main()
