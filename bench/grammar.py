"""Grammar-constrained decoding on the embedded model: the greedy shortcut against the full mask.

The same `joint` and reference-grader calls both ways on one loaded model, alternating, the KV
cache cleared before each; same answers by construction, and the times compared
(docs/benchmarks.md, "Grammar-constrained decoding"). The reference grader's random prompt
nonce is fixed for the run, so both paths see the same prompt.

    .venv/bin/python bench/grammar.py --items 3
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from itertools import zip_longest
from pathlib import Path
from typing import Any
from unittest import mock

from _common import JUDGE_BENCH, RESULTS, header, missing_data, read_jsonl, sample, write_json
from _labelled import CallMeter, ours, reference
from rich.console import Console
from rich.table import Table

from rubricate import resolve_chat_model
from rubricate._local import ChatLlamaCpp  # measures its decoding paths (`grammar_shortcut`)

PATHS = {"shortcut": True, "full mask": False}


def _answer(meter: CallMeter) -> str:
    """What the model emitted, without the random tool-call ids."""
    try:
        calls = json.loads(meter.last_text)
    except json.JSONDecodeError:
        return meter.last_text
    if isinstance(calls, list):
        return json.dumps([{k: v for k, v in c.items() if k != "id"} for c in calls])
    return meter.last_text


def run(model: ChatLlamaCpp, items: Sequence[dict[str, Any]], log: Any) -> dict[str, Any]:
    meter = CallMeter()
    model.callbacks = [meter]
    # Every criterion goes to the model: this compares decoding paths, not who decides.
    graders = {"joint": ours(model, "joint", read_checks=False), "reference": reference(model)}
    results: dict[str, Any] = {}
    for name, grade in graders.items():
        totals = {path: {"wall_s": 0.0, "output_tokens": 0} for path in PATHS}
        identical = 0
        for index, item in enumerate(items):
            answers = {}
            # Alternate which path goes first, so neither always follows the other.
            order = list(PATHS) if index % 2 == 0 else list(reversed(PATHS))
            for path in order:
                model.grammar_shortcut = PATHS[path]
                model._loaded().llama.reset()  # both paths evaluate the whole prompt
                meter.reset()
                started = time.perf_counter()
                grade(item)
                totals[path]["wall_s"] += time.perf_counter() - started
                totals[path]["output_tokens"] += meter.output_tokens
                answers[path] = _answer(meter)
            identical += answers["shortcut"] == answers["full mask"]
            log(f"[{name}] {index + 1}/{len(items)} {item['id']}: identical={identical}")
        for figures in totals.values():
            figures["tokens_per_s"] = figures["output_tokens"] / figures["wall_s"]
        results[name] = {
            "items": len(items),
            "identical_answers": identical,
            "paths": totals,
            "full_mask_time_over_shortcut": totals["full mask"]["wall_s"]
            / totals["shortcut"]["wall_s"],
        }
    model.grammar_shortcut = True
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=3, help="items, ifeval and realsumm in turn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=JUDGE_BENCH, help="judge-bench folder")
    parser.add_argument("--out", type=Path, default=RESULTS / "grammar.json")
    args = parser.parse_args(argv)
    if problem := missing_data(args.data, "ifeval.jsonl", "realsumm.jsonl"):
        parser.error(problem)
    console = Console(width=120)
    half = [
        sample(read_jsonl(args.data / f"{source}.jsonl"), 10**9, args.seed)[: (args.items + 1) // 2]
        for source in ("ifeval", "realsumm")
    ]
    items = [i for pair in zip_longest(*half) for i in pair if i is not None][: args.items]
    model = resolve_chat_model("local")
    assert isinstance(model, ChatLlamaCpp)
    model.invoke("Say ok.", max_tokens=1)  # load outside the timings
    with mock.patch("deepagents.middleware.rubric.secrets.token_hex", lambda n=8: "0" * (2 * n)):
        results = run(model, items, lambda text: console.print(text, highlight=False, markup=False))
    table = Table(title="Grammar-constrained greedy decoding: shortcut vs full mask")
    for column in ("Calls", "Items", "Identical", "Path", "Wall s", "Out tokens", "Tokens/s"):
        table.add_column(column, justify="left" if column in ("Calls", "Path") else "right")
    for name, result in results.items():
        for path, figures in result["paths"].items():
            table.add_row(
                name,
                str(result["items"]),
                str(result["identical_answers"]),
                path,
                f"{figures['wall_s']:.1f}",
                str(figures["output_tokens"]),
                f"{figures['tokens_per_s']:.2f}",
            )
        ratio = f"{result['full_mask_time_over_shortcut']:.2f}x"
        table.add_row("", "", "", "full mask / shortcut", ratio, "", "")
    console.print(table)
    report = {
        **header("grammar.py", argv),
        "items": [item["id"] for item in items],
        "results": results,
    }
    write_json(args.out, report)
    console.print(f"wrote {args.out}")
    return report


if __name__ == "__main__":
    main()
