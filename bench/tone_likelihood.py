"""Measure whether the reply's likelihood under a tone criterion adds to the judge's P(yes).

The embedded 1.5B judge hardly perceives tone when asked (P(yes) ranks the dev tone criteria at
AUROC about 0.79), which is why tone has its own bar. A language model that cannot answer "is
this reply polite?" may still find a polite reply likelier after being asked for one. This
measures that, on the tone criteria of the given dev files (the ones `calibrate_form.py --kind
tone` fits on), as the pointwise mutual information of the output with the criterion:

    log P(output | task + "Requirement for your reply: <criterion>") - log P(output | task)

summed over the output's tokens, read from the embedded model's logits (one batched pass per
conversation, no decoding: `ChatLlamaCpp.score_many`, as the judge reads it). P(yes) is the
judge's with the lever off (`tone_likelihood=False`). It reports the AUROC of P(yes), of that
likelihood gain, and the cross-validated balanced accuracy of a logistic regression on P(yes)
alone against P(yes) and the gain together (stratified 5-fold, repeated over `--shuffles`
seeds), so the figure is not the fit's own sample; then the same regression fitted on every
row (`fit`), the weights `TONE_LIKELIHOOD_WEIGHTS` holds. Test files are refused.
`--kind form` measures the same on the form rules no check could read (`calibrate_form.py`'s
default kind); that fit is a measurement only, nothing in the judge uses it.

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
from langchain_core.messages import BaseMessage
from sklearn.metrics import roc_auc_score

from rubricate import Judge, Rubric
from rubricate._judge._compile._compiler import CheckCompiler
from rubricate._judge._likelihood import REQUIREMENT, likelihood_conversations

DEFAULT_OUT = RESULTS / "tone-likelihood-dev.json"
DEFAULT_CHECKPOINT = ROOT / ".cache" / "tone-likelihood-dev.jsonl"
Scorer = Callable[[list[list[BaseMessage]]], list[float]]
"""log P(last AI message | the messages before it), for each conversation."""


def scorer_of(spec: str, judge: Judge) -> Scorer:
    """`local`, the judge's own model (`score_many`), or `python:module.function` (a fake)."""
    if spec != "local":
        scorer: Scorer = made_by(spec)
        return scorer
    score_many = getattr(judge.model, "score_many", None)
    if score_many is None:
        raise SystemExit(f"--scorer local needs the embedded judge, not {judge.model_name}")
    return score_many  # type: ignore[no-any-return]


def measure(
    judge: Judge,
    compiler: CheckCompiler,
    score: Scorer,
    item: Mapping[str, Any],
    file: str,
    kind: str = "tone",
) -> dict[str, Any]:
    """P(yes) and the likelihood gain of each criterion of `kind` (`calibrate_form.KINDS`)."""
    started = time.perf_counter()
    rubric = rubric_of(item)
    holds = KINDS[kind][2]
    chosen = [
        (c, bool(labelled["label"]))
        for c, r, labelled in zip(rubric, compiler.read(rubric), item["criteria"], strict=True)
        if holds(compiler, r)
    ]
    rows = []
    judging = scoring = 0.0
    if chosen:
        output, task = item["output"], item.get("task", "")
        evaluation = judge.evaluate(Rubric(tuple(c for c, _ in chosen)), output=output, task=task)
        judging = time.perf_counter() - started
        alone, *asked = score(
            likelihood_conversations(task, output, [c.description for c, _ in chosen])
        )
        scoring = time.perf_counter() - started - judging
        for (criterion, label), verdict, scored in zip(
            chosen, evaluation.criteria, asked, strict=True
        ):
            rows.append(
                {
                    "criterion": criterion.description,
                    "label": label,
                    "p_yes": verdict.confidence,
                    "gain": scored - alone,
                }
            )
    return {
        "id": item["id"],
        "file": file,
        "seconds": time.perf_counter() - started,
        "seconds_judging": judging,
        "seconds_scoring": scoring,
        "rows": rows,
    }


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


def fitted(labels: Sequence[bool], features: Sequence[Sequence[float]]) -> dict[str, float]:
    """The regression on every row: `TONE_LIKELIHOOD_WEIGHTS` is (intercept, w_yes, w_gain)."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(class_weight="balanced").fit(features, labels)
    w_yes, w_gain = (float(w) for w in model.coef_[0])
    return {"intercept": float(model.intercept_[0]), "w_yes": w_yes, "w_gain": w_gain}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = fitting_parser(
        __doc__, "dev files with tone criteria", checkpoint=DEFAULT_CHECKPOINT, out=DEFAULT_OUT
    )
    parser.add_argument("--scorer", default="local", help="`local` or python:module.function")
    parser.add_argument("--shuffles", type=int, default=20, help="cross-validation repeats")
    parser.add_argument(
        "--kind", choices=sorted(KINDS), default="tone", help="which criteria (calibrate_form.py)"
    )
    args = parser.parse_args(argv)
    refuse_test_files(parser, args.data)
    if args.kind != "tone":  # each kind keeps its own checkpoint and report by default
        if args.checkpoint == DEFAULT_CHECKPOINT:
            args.checkpoint = DEFAULT_CHECKPOINT.with_name(f"{args.kind}-likelihood-dev.jsonl")
        if args.out == DEFAULT_OUT:
            args.out = DEFAULT_OUT.with_name(f"{args.kind}-likelihood-dev.json")

    started = header("tone_likelihood.py", argv)
    checkpoint = Rows(args.checkpoint, lambda r: (r["file"], r["id"]), fresh=args.fresh)
    judge = Judge(chat_model(args.judge), tone_likelihood=False)  # P(yes) alone, as asked
    compiler, score = CheckCompiler(), scorer_of(args.scorer, judge)
    plan = [(item, f"{p.parent.name}/{p.name}") for p in args.data for item in read_jsonl(p)]
    items = grade_files(
        plan, checkpoint, lambda item, file: measure(judge, compiler, score, item, file, args.kind)
    )
    rows = [row for item in items for row in item["rows"] if row["p_yes"] is not None]
    labels = [row["label"] for row in rows]
    if not 0 < sum(labels) < len(labels):
        parser.error(f"the {args.kind} criteria of these files are all met or all failed")
    p_yes = [[logit(row["p_yes"])] for row in rows]
    both = [[logit(row["p_yes"]), row["gain"]] for row in rows]
    report: dict[str, Any] = {
        **started,
        "judge": args.judge,
        "kind": args.kind,
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
        "fit": fitted(labels, both),
        "seconds_per_criterion": sum(item["seconds"] for item in items) / len(rows),
        # What the lever adds to a tone criterion's verdict (both timed in the same run).
        "seconds_per_criterion_judging": sum(i.get("seconds_judging", 0.0) for i in items)
        / len(rows),
        "seconds_per_criterion_scoring": sum(i.get("seconds_scoring", 0.0) for i in items)
        / len(rows),
    }
    write_json(args.out, report)
    cv = report["cross_validated"]
    print(
        f"{len(rows)} {args.kind} criteria; AUROC P(yes) {report['auroc_p_yes']:.3f}, "
        f"gain {report['auroc_gain']:.3f}; cross-validated balanced accuracy "
        f"{cv['p_yes']['balanced_accuracy']:.3f} -> {cv['p_yes_and_gain']['balanced_accuracy']:.3f}"
    )
    fit = report["fit"]
    name = "TONE_LIKELIHOOD_WEIGHTS" if args.kind == "tone" else "fit (not in the judge)"
    print(f"{name} = ({fit['intercept']:.3f}, {fit['w_yes']:.3f}, {fit['w_gain']:.3f})")
    return report


if __name__ == "__main__":
    main()
