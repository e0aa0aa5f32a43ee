r"""Batched against sequential grading on the embedded model, against the measured floor.

The same items graded `legacy`, `sequential` and `batched` (each going first in turn), their
verdicts compared, the floor (`floor.py`) measured in the same process, and `grade_file` at
`-j 1` and `-j 4` (docs/benchmarks.md, "Speed of the embedded judge").

    .venv/bin/python bench/batched.py --data DATA/realsumm.jsonl --split dev --items 8 \\
        --json bench/results/batched.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from _common import read_jsonl, rubric_of, select, write_json

# The floor is floor.py's measurement, taken in this process (run as a script, bench/ is on the
# path).
from floor import Rates, default_model_path, measure

from rubricate import Judge, agrade_file

# Engine internals by design: the embedded model's batched calls and the prompt layout compared.
from rubricate._judge import _prompts as prompts
from rubricate._local import ChatLlamaCpp, default_local_model


class RecordingModel(ChatLlamaCpp):
    """The embedded model, recording each batched call's token counts (for the floor)."""

    calls: ClassVar[list[list[dict[str, int]]]] = []

    def complete_many(self, conversations: Any, **kwargs: Any) -> Any:
        """`ChatLlamaCpp.complete_many`, keeping each reply's prompt, cached and output tokens."""
        replies = super().complete_many(conversations, **kwargs)
        RecordingModel.calls.append(
            [
                {
                    "prompt": r.usage_metadata["input_tokens"],
                    "cached": r.usage_metadata["input_token_details"]["cache_read"],
                    "output": r.usage_metadata["output_tokens"],
                }
                for r in replies
            ]
        )
        return replies


def item_floor(calls: list[list[dict[str, int]]], rates: Rates) -> float:
    """The floor of one evaluation from its batched calls' token counts."""
    seconds = 0.0
    for i, call in enumerate(calls):
        if i == 0:  # the verdicts: the shared evidence once, then every question's suffix
            seconds += min(c["cached"] for c in call) / rates.prompt_tps
        width = len(call)
        new = sum(c["prompt"] - c["cached"] for c in call)
        seconds += new / rates.at(rates.question_tps, width)
        if i > 0:  # the gaps: decode steps with the sequences still going
            longest = max(c["output"] for c in call)
            for step in range(1, longest):
                active = sum(1 for c in call if c["output"] > step)
                seconds += rates.at(rates.step_s, active)
    return seconds


def load(path: Path, split: str, count: int, seed: int) -> list[dict[str, Any]]:
    items = select(read_jsonl(path), split)
    random.Random(seed).shuffle(items)
    return items[:count]


class LegacyModel(ChatLlamaCpp):
    """Today's sequential default before batching: no prefill, so each gap is a new turn."""

    def can_continue(self) -> bool:
        """Never: the judge then asks for each gap in a new turn, as it did."""
        return False


LEGACY_QUESTION = """\
Criterion: {criterion}

Does the output meet this criterion? Answer yes or no."""
"""The yes/no question as it was: after each criterion, not once in the shared prefix."""


@contextlib.contextmanager
def legacy_prompts() -> Iterator[None]:
    """The question layout of the legacy path, for the evaluations inside the block."""
    saved = prompts.VERDICT_INSTRUCTION, prompts.CRITERION_QUESTION
    prompts.VERDICT_INSTRUCTION, prompts.CRITERION_QUESTION = "", LEGACY_QUESTION
    try:
        yield
    finally:
        prompts.VERDICT_INSTRUCTION, prompts.CRITERION_QUESTION = saved


VARIANTS = ("legacy", "sequential", "batched")


def compare(items: list[dict[str, Any]], rates: Rates) -> dict[str, Any]:
    path = default_model_path()
    settings: dict[str, Any] = {"read_checks": False, "guard_injections": False}
    judges = {
        # one criterion at a time, its gap a new turn right after its verdict
        "legacy": Judge(LegacyModel(model_path=path, multi_sequence=False), **settings),
        # one criterion at a time, its gap the verdict's continuation
        "sequential": Judge(default_local_model(multi_sequence=False), **settings),
        # every question a sequence of one batch, the gaps decoded side by side
        "batched": Judge(RecordingModel(model_path=path), **settings),
    }
    wall = dict.fromkeys(VARIANTS, 0.0)
    floor = 0.0
    criteria = 0
    flips: list[dict[str, Any]] = []
    gaps_same = gaps_compared = layout_changed = 0
    deltas: list[float] = []
    for n, item in enumerate(items):
        order = list(VARIANTS[n % 3 :] + VARIANTS[: n % 3])  # each goes first in turn
        results = {}
        for name in order:
            RecordingModel.calls.clear()
            judges[name].model.clear_cache()  # type: ignore[attr-defined]  # each starts cold
            layout = legacy_prompts() if name == "legacy" else contextlib.nullcontext()
            with layout:
                started = time.perf_counter()
                results[name] = judges[name].evaluate(
                    rubric_of(item), output=item["output"], task=item["task"]
                )
                wall[name] += time.perf_counter() - started
            if name == "batched":
                floor += item_floor(RecordingModel.calls, rates)
        triples = zip(
            *(results[name].criteria for name in VARIANTS),
            strict=True,
        )
        for index, (legacy, sequential, batched) in enumerate(triples):
            criteria += 1
            if sequential.confidence is not None and batched.confidence is not None:
                deltas.append(abs(sequential.confidence - batched.confidence))
            layout_changed += legacy.passed != sequential.passed
            if sequential.passed != batched.passed:
                flips.append(
                    {
                        "item": item["id"],
                        "criterion": item["criteria"][index]["id"],
                        "p_yes_sequential": sequential.confidence,
                        "p_yes_batched": batched.confidence,
                    }
                )
            elif not batched.passed:
                gaps_compared += 1
                gaps_same += sequential.gap == batched.gap
        print(
            f"{n + 1}/{len(items)} {item['id']}: "
            + ", ".join(f"{name} {wall[name]:.1f} s" for name in VARIANTS)
            + f", floor {floor:.1f} s; {len(flips)} verdicts differ (sequential vs batched)",
            flush=True,
        )
    return {
        "items": len(items),
        "criteria": criteria,
        **{f"{name}_s_per_criterion": wall[name] / criteria for name in VARIANTS},
        "floor_s_per_criterion": floor / criteria,
        "speedup_over_legacy": wall["legacy"] / wall["batched"],
        "speedup_over_sequential": wall["sequential"] / wall["batched"],
        "batched_over_floor": wall["batched"] / floor,
        "verdicts_differ": flips,
        "legacy_layout_verdicts_differ": layout_changed,
        "max_abs_p_yes_difference": max(deltas, default=0.0),
        "mean_abs_p_yes_difference": sum(deltas) / len(deltas) if deltas else 0.0,
        "gaps_identical_sequential_vs_batched": f"{gaps_same} of {gaps_compared}",
    }


def grade_jobs(items: list[dict[str, Any]], jobs: tuple[int, ...]) -> dict[str, float]:
    """Items per second of `grade_file` on the embedded model at each concurrency."""
    rates: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for j in jobs:
            source = Path(folder) / f"items-{j}.jsonl"
            with source.open("w", encoding="utf-8") as lines:
                for item in items:
                    rubric = [c["description"] for c in item["criteria"]]
                    line = {"id": item["id"], "output": item["output"], "task": item["task"]}
                    lines.write(json.dumps({**line, "rubric": rubric}) + "\n")
            judge = Judge("local", read_checks=False, guard_injections=False)
            judge.model.clear_cache()  # type: ignore[attr-defined]  # nothing from the last run
            started = time.perf_counter()
            asyncio.run(agrade_file(source, judge=judge, concurrency=j))
            rates[f"j{j}_items_per_s"] = len(items) / (time.perf_counter() - started)
            print(f"grade -j {j}: {rates[f'j{j}_items_per_s']:.3f} items/s", flush=True)
    rates["j4_over_j1"] = rates["j4_items_per_s"] / rates["j1_items_per_s"]
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="judge-bench realsumm.jsonl")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--items", type=int, default=8)
    parser.add_argument(
        "--grade-items", type=int, default=8, help="items for the -j runs (0: skip)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    items = load(args.data, args.split, args.items, args.seed)
    rates = measure(default_model_path(), threads=os.cpu_count() or 1, repack=True, repeats=2)
    result: dict[str, Any] = {
        "split": args.split,
        "seed": args.seed,
        "floor_rates": {
            "prompt_tps": rates.prompt_tps,
            "question_tps": rates.question_tps,
            "step_s": rates.step_s,
        },
        "comparison": compare(items, rates),
    }
    if args.grade_items:
        grade_items = load(args.data, args.split, args.grade_items, args.seed + 1)
        result["grade"] = grade_jobs(grade_items, (1, 4))
    summary = result["comparison"]
    print(
        f"{summary['criteria']} criteria, s/criterion: legacy "
        f"{summary['legacy_s_per_criterion']:.2f}, sequential "
        f"{summary['sequential_s_per_criterion']:.2f}, batched "
        f"{summary['batched_s_per_criterion']:.2f} ({summary['speedup_over_legacy']:.2f}x legacy), "
        f"floor {summary['floor_s_per_criterion']:.2f} (batched/floor "
        f"{summary['batched_over_floor']:.2f}); {len(summary['verdicts_differ'])} verdicts differ"
    )
    if args.json:
        write_json(args.json, result)


if __name__ == "__main__":
    main()
