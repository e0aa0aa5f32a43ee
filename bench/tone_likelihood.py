"""Measure whether the reply's likelihood under a tone criterion adds to the judge's P(yes).

The embedded 1.5B judge hardly perceives tone when asked (P(yes) ranks the dev tone criteria at
AUROC about 0.79), which is why tone has its own bar. A language model that cannot answer "is
this reply polite?" may still find a polite reply likelier after being asked for one. This
measures that, on the tone criteria of the given dev files (the ones `calibrate_form.py --kind
tone` fits on), as the pointwise mutual information of the output with the criterion:

    log P(output | task + "Requirement for your reply: <criterion>") - log P(output | task)

summed over the output's tokens, read from the embedded model's logits (one forward pass per
condition, no decoding). It reports the AUROC of P(yes), of that likelihood gain, and the
cross-validated balanced accuracy of a logistic regression on P(yes) alone against P(yes) and
the gain together (stratified 5-fold, repeated over `--shuffles` seeds), so the figure is not
the fit's own sample. Test files are refused.

    .venv/bin/python bench/tone_likelihood.py bench/data/trivial/dev*.jsonl \
        bench/data/format/dev*.jsonl bench/data/hostile/dev*.jsonl bench/data/lookalike/dev*.jsonl
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from _common import (
    RESULTS,
    ROOT,
    Rows,
    chat_model,
    fitting_parser,
    grade_files,
    header,
    made_by,
    read_jsonl,
    refuse_test_files,
    rubric_of,
    write_json,
)
from calibrate import logit
from calibrate_form import KINDS
from sklearn.metrics import roc_auc_score

from rubricate import Judge, Rubric
from rubricate._judge._compile._compiler import CheckCompiler

DEFAULT_OUT = RESULTS / "tone-likelihood-dev.json"
DEFAULT_CHECKPOINT = ROOT / ".cache" / "tone-likelihood-dev.jsonl"
REQUIREMENT = "{task}\n\nRequirement for your reply: {criterion}"
NO_TASK = "Write a reply."
"""The request when an item has no task: the likelihood needs something to answer."""

Messages = list[dict[str, str]]
Scorer = Callable[[Messages, str], float]
"""The log-probability of a reply (the assistant's turn) after the given chat messages."""


def local_scorer() -> Scorer:
    """The embedded model's log P(reply | messages), from its logits at every reply token."""
    import numpy as np
    from llama_cpp import Llama

    from rubricate._local._batching import ChatPrompter
    from rubricate._local._weights import ensure_default_model

    llama = Llama(str(ensure_default_model()), n_ctx=4096, logits_all=True, verbose=False)
    prompter = ChatPrompter.for_model(llama)
    if prompter is None:
        raise SystemExit("the embedded model has no chat template to build prompts with")

    def score(messages: Messages, reply: str) -> float:
        prefix = prompter.tokens([*messages, {"role": "assistant", "content": ""}])
        tokens = prompter.tokens([*messages, {"role": "assistant", "content": reply}])
        start = next(
            (i for i, (a, b) in enumerate(zip(prefix, tokens, strict=False)) if a != b),
            len(prefix),
        )
        llama.reset()
        llama.eval(list(tokens))
        logits = np.asarray(llama.scores[start - 1 : len(tokens) - 1], dtype=np.float64)
        top = logits.max(axis=1, keepdims=True)
        norm = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
        chosen = logits[np.arange(len(logits)), np.asarray(tokens[start:])]
        return float((chosen - norm).sum())

    return score


def scorer_of(spec: str) -> Scorer:
    """`local`, or `python:package.module.function` returning a scorer (the tests' fakes)."""
    scorer: Scorer = local_scorer() if spec == "local" else made_by(spec)
    return scorer


def measure(
    judge: Judge, compiler: CheckCompiler, score: Scorer, item: Mapping[str, Any], file: str
) -> dict[str, Any]:
    """P(yes) and the likelihood gain of each tone criterion of the item."""
    started = time.perf_counter()
    rubric = rubric_of(item)
    holds = KINDS["tone"][2]
    chosen = [
        (c, bool(labelled["label"]))
        for c, r, labelled in zip(rubric, compiler.read(rubric), item["criteria"], strict=True)
        if holds(compiler, r)
    ]
    rows = []
    if chosen:
        output, task = item["output"], item.get("task", "") or NO_TASK
        evaluation = judge.evaluate(
            Rubric(tuple(c for c, _ in chosen)), output=output, task=item.get("task", "")
        )
        alone = score([{"role": "user", "content": task}], output)
        for (criterion, label), verdict in zip(chosen, evaluation.criteria, strict=True):
            asked = REQUIREMENT.format(task=task, criterion=criterion.description)
            rows.append(
                {
                    "criterion": criterion.description,
                    "label": label,
                    "p_yes": verdict.confidence,
                    "gain": score([{"role": "user", "content": asked}], output) - alone,
                }
            )
    return {"id": item["id"], "file": file, "seconds": time.perf_counter() - started, "rows": rows}


def cross_validated(
    labels: Sequence[bool], features: Sequence[Sequence[float]], shuffles: int
) -> dict[str, float]:
    """Balanced accuracy and AUROC of a logistic regression, predicted out of fold."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import balanced_accuracy_score
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    accuracy, auroc = [], []
    for seed in range(shuffles):
        folds = StratifiedKFold(5, shuffle=True, random_state=seed)
        model = LogisticRegression(class_weight="balanced")
        p = cross_val_predict(model, features, labels, cv=folds, method="predict_proba")[:, 1]
        accuracy.append(balanced_accuracy_score(labels, p >= 0.5))
        auroc.append(roc_auc_score(labels, p))
    return {
        "balanced_accuracy": statistics.fmean(accuracy),
        "balanced_accuracy_sd": statistics.pstdev(accuracy),
        "auroc": statistics.fmean(auroc),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = fitting_parser(
        __doc__, "dev files with tone criteria", checkpoint=DEFAULT_CHECKPOINT, out=DEFAULT_OUT
    )
    parser.add_argument("--scorer", default="local", help="`local` or python:module.function")
    parser.add_argument("--shuffles", type=int, default=20, help="cross-validation repeats")
    args = parser.parse_args(argv)
    refuse_test_files(parser, args.data)

    started = header("tone_likelihood.py", argv)
    checkpoint = Rows(args.checkpoint, lambda r: (r["file"], r["id"]), fresh=args.fresh)
    judge, compiler, score = Judge(chat_model(args.judge)), CheckCompiler(), scorer_of(args.scorer)
    plan = [(item, f"{p.parent.name}/{p.name}") for p in args.data for item in read_jsonl(p)]
    items = grade_files(
        plan, checkpoint, lambda item, file: measure(judge, compiler, score, item, file)
    )
    rows = [row for item in items for row in item["rows"] if row["p_yes"] is not None]
    labels = [row["label"] for row in rows]
    if not 0 < sum(labels) < len(labels):
        parser.error("the tone criteria of these files are all met or all failed: nothing to rank")
    p_yes = [[logit(row["p_yes"])] for row in rows]
    both = [[logit(row["p_yes"]), row["gain"]] for row in rows]
    report: dict[str, Any] = {
        **started,
        "judge": args.judge,
        "scorer": args.scorer,
        "measured_on": sorted({file for _, file in plan}),
        "requirement": REQUIREMENT,
        "criteria": len(rows),
        "positive_rate": sum(labels) / len(labels),
        "auroc_p_yes": roc_auc_score(labels, [row["p_yes"] for row in rows]),
        "auroc_gain": roc_auc_score(labels, [row["gain"] for row in rows]),
        "cross_validated": {
            "p_yes": cross_validated(labels, p_yes, args.shuffles),
            "p_yes_and_gain": cross_validated(labels, both, args.shuffles),
        },
        "seconds_per_criterion": sum(item["seconds"] for item in items) / len(rows),
    }
    write_json(args.out, report)
    cv = report["cross_validated"]
    print(
        f"{len(rows)} tone criteria; AUROC P(yes) {report['auroc_p_yes']:.3f}, "
        f"gain {report['auroc_gain']:.3f}; cross-validated balanced accuracy "
        f"{cv['p_yes']['balanced_accuracy']:.3f} -> {cv['p_yes_and_gain']['balanced_accuracy']:.3f}"
    )
    return report


if __name__ == "__main__":
    main()
