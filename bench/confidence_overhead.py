"""What reading the verdict's log-probabilities costs on the embedded model: a time ratio.

The one-token yes/no call with and without `logprobs`, taking turns to go first, and the
recorder alone on a vocabulary-sized row of logits (docs/benchmarks.md, "Confidence").

    .venv/bin/python bench/confidence_overhead.py DATA/realsumm.jsonl --calls 20
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _common import RESULTS, header, read_jsonl, write_json
from langchain_core.messages import HumanMessage, SystemMessage

# Engine internals by design: the judge's exact yes/no prompt, its log-probability reading and the
# embedded model's logits recorder, timed on their own.
from rubricate._judge import _prompts as prompts
from rubricate._judge._confidence import TOP_LOGPROBS, yes_probability
from rubricate._local import default_local_model
from rubricate._local._logprobs import LogprobRecorder

GRAMMAR = 'root ::= "yes" | "no"'


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path, help="a judge-bench JSONL file")
    parser.add_argument("--calls", type=int, default=20, help="calls of each kind")
    parser.add_argument("--out", type=Path, default=RESULTS / "confidence_overhead.json")
    args = parser.parse_args(argv)

    item = read_jsonl(args.data)[0]
    plain = default_local_model(n_ctx=4096)
    scored = plain.model_copy(update={"logprobs": True, "top_logprobs": TOP_LOGPROBS})
    evidence = f"<task>\n{item['task']}\n</task>\n<output>\n{item['output']}\n</output>"
    criteria = [c["description"] for c in item["criteria"]]

    def ask(model: Any, criterion: str) -> tuple[float, Any]:
        messages = [
            SystemMessage(prompts.GRADER_SYSTEM_PROMPT),
            HumanMessage(
                f"{evidence}\n\n{prompts.VERDICT_INSTRUCTION}\n\n"
                f"{prompts.CRITERION_QUESTION.format(criterion=criterion)}"
            ),
        ]
        started = time.perf_counter()
        reply = model.invoke(messages, grammar=GRAMMAR, max_tokens=2)
        return time.perf_counter() - started, reply

    vocabulary = plain._loaded().llama.n_vocab()
    recorder_s = recorder_cost(vocabulary)
    ask(plain, criteria[0])
    ask(scored, criteria[0])
    times: dict[str, list[float]] = {"plain": [], "logprobs": []}
    same = 0
    for index in range(args.calls):
        criterion = criteria[index % len(criteria)]
        # Whichever goes second finds the prompt cached: take turns going first.
        if index % 2:
            seconds_scored, reply_scored = ask(scored, criterion)
            seconds_plain, reply_plain = ask(plain, criterion)
        else:
            seconds_plain, reply_plain = ask(plain, criterion)
            seconds_scored, reply_scored = ask(scored, criterion)
        times["plain"].append(seconds_plain)
        times["logprobs"].append(seconds_scored)
        p = yes_probability(reply_scored)
        same += reply_plain.content == reply_scored.content and (
            p is not None and (p >= 0.5) == (reply_scored.content == "yes")
        )
    medians = {kind: statistics.median(values) for kind, values in times.items()}
    report = {
        **header("confidence_overhead.py", argv),
        "calls_each": args.calls,
        "median_s": medians,
        "ratio_logprobs_to_plain": medians["logprobs"] / medians["plain"],
        "recorder_s_per_verdict": recorder_s,
        "vocabulary": vocabulary,
        "answers_identical_and_consistent": same,
    }
    write_json(args.out, report)
    print(
        f"median yes/no call: {medians['plain']:.3f} s plain, {medians['logprobs']:.3f} s with "
        f"logprobs (ratio {report['ratio_logprobs_to_plain']:.3f}); {same}/{args.calls} answers "
        f"identical and consistent with P(yes) >= 0.5; the recorder alone: "
        f"{recorder_s * 1000:.2f} ms a verdict over {vocabulary:,} tokens"
    )
    return report


def recorder_cost(vocabulary: int, repeats: int = 200) -> float:
    """Seconds the recorder adds to one yes/no verdict (two steps): the minimum over repeats."""
    import numpy as np

    scores = np.random.default_rng(0).normal(size=vocabulary).astype(np.single)
    best = float("inf")
    for _ in range(repeats):
        recorder = LogprobRecorder(top=TOP_LOGPROBS)
        started = time.perf_counter()
        recorder(np.arange(500, dtype=np.intc), scores)
        recorder(np.arange(501, dtype=np.intc), scores)
        best = min(best, time.perf_counter() - started)
    return best


if __name__ == "__main__":
    main()
