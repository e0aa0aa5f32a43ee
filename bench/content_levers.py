"""Issue 14 part 2: ways of asking the embedded judge about content, each measured on one sample.

For each criterion of a REALSumm sample it records P(yes) under several ways of asking, over the
same evidence prefix the judge builds, and the seconds each way costs an item (all of an item's
criteria in one batch, as the judge asks them):

- `plain`: the shipped question (`VERDICT_INSTRUCTION`, then `Criterion: ...`);
- `reworded`, `reader`: the same question in other words; `average` is the mean log-odds of
  the three (`plain` + these two), the "average over a few phrasings";
- `negated`: "is it NOT met?"; `both_ways` combines `plain` with 1 - P(negated) in log-odds;
- `quote`: the judge first copies the one sentence of the output that shows the criterion,
  under a grammar that allows only the output's own sentences or NONE, then answers yes / no
  with that sentence in front of it;
- `careful`: a short reason first, then yes / no (the opt-in careful mode: decode steps cost).
- `first`: the criterion stated before the evidence as well as after it, so the model reads the
  output knowing what to look for; each criterion then has its own prompt (no shared prefix), so
  every output token is evaluated once per criterion.
- `closest`: the output's sentence (or line) sharing the most content words with the criterion,
  each weighted by how few of the output's sentences hold it, found by code and shown above the
  criterion ("it may or may not meet it"); the plain question where no sentence shares a word.
- `words`: no model call: the share of the criterion's content words found in the output (the
  lexical evidence a summary metric such as ROUGE reads). `plain_words` combines it with
  `plain`'s log-odds by a logistic regression fitted on four fifths of the items and applied to
  the fifth left out, in turn (dev only: it has no threshold to carry to a test run).

Choices are made on `--split dev` only; `--split test` measures what was chosen, once, at the
thresholds the dev report fitted (`--fitted`): a way that moves P(yes) away from 0.5 (the
combined `both_ways`) needs its own threshold, and only dev may choose it.

    .venv/bin/python bench/content_levers.py ../shared/judge-bench/realsumm.jsonl \
        --split dev --criteria 120 --ways plain reworded reader negated careful \
        --out bench/results/content-levers-dev.json
    .venv/bin/python bench/content_levers.py ../shared/judge-bench/realsumm.jsonl \
        --split test --criteria 160 --ways plain negated careful \
        --fitted bench/results/content-levers-dev.json --out bench/results/content-levers-test.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from _common import (
    RESULTS,
    Rows,
    chat_model,
    commit,
    now,
    read_jsonl,
    sample,
    select,
    versions,
    write_json,
)
from calibrate import balanced_accuracy, fit_threshold, logit
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from rubricate import agreement_metrics
from rubricate._judge import _prompts as prompts
from rubricate._judge._confidence import yes_probability
from rubricate._judge._context import needs_context
from rubricate._judge._evidence import message_text, render_evidence
from rubricate._local._tool_calls import gbnf_literal
from rubricate._types import Evidence

REWORDED = "Criterion: {criterion}\n\nIs this criterion met by the output? Answer yes or no."
READER = (
    "Requirement: {criterion}\n\nWould a careful reader of the output agree that it meets this "
    "requirement? Answer yes or no."
)
NEGATED = (
    "Criterion: {criterion}\n\nIs this criterion NOT met by the output: is what it asks for "
    "missing, wrong or contradicted? Answer yes or no."
)
QUOTE = (
    "Criterion: {criterion}\n\nCopy, word for word, the one sentence of the output that shows "
    "this criterion is met. If no sentence does, write NONE."
)
QUOTE_DECIDE = "Does that show the output meets the criterion? Answer yes or no."
# The shipped careful mode's prompts (`careful=True`), so this measures what users get.
CAREFUL = f"{prompts.CRITERION_QUESTION}\n\n{prompts.CAREFUL_REQUEST}"
CAREFUL_DECIDE = prompts.CAREFUL_VERDICT
FIRST = "Criterion to check: {criterion}\n\n"
CLOSEST = (
    "The output's sentence that shares the most words with the criterion, found by code "
    '(it may or may not meet it):\n"{sentence}"\n\n'
)
SINGLE = ("plain", "reworded", "reader", "negated", "quote", "careful", "first", "closest", "words")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def base_messages(item: dict[str, Any], criterion: str) -> list[BaseMessage]:
    """The judge's own prefix for this criterion's view (`show_context="when_referenced"`)."""
    task = item.get("task", "") if needs_context(criterion) else ""
    rendered = render_evidence(Evidence(output=item["output"], task=task), max_chars=12_000)
    return [
        SystemMessage(prompts.GRADER_SYSTEM_PROMPT),
        HumanMessage(prompts.EVIDENCE_PREAMBLE.format(evidence=rendered.text)),
    ]


def asked(base: list[BaseMessage], tail: str) -> list[BaseMessage]:
    return prompts.with_tail(prompts.with_tail(base, prompts.VERDICT_INSTRUCTION), tail)


def criterion_first(base: list[BaseMessage], criterion: str) -> list[BaseMessage]:
    system, evidence = base
    return [system, HumanMessage(FIRST.format(criterion=criterion) + message_text(evidence))]


def p_yes(model: Any, conversations: list[list[BaseMessage]]) -> list[float]:
    replies = model.complete_many(conversations, choices=prompts.VERDICT_WORDS)
    out = []
    for reply in replies:
        p = yes_probability(reply)
        out.append(p if p is not None else float(message_text(reply).strip().lower() == "yes"))
    return out


def sentences(output: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(output) if s.strip()]


_FUNCTION_WORDS = frozenset(
    """a an the of to in on at for by with from and or but nor is are was were be been being am
    has have had do does did this that these those it its he him his she her hers they them their
    theirs we us our you your i me my as not no into onto after before about than then so such up
    out over under will would can could may might shall should must also which who whom whose what
    when where why how all any some each every more most other there here if while because just
    very only own same both either neither""".split()  # noqa: SIM905 - a word list to read
)
_PIECE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def content_words(text: str) -> set[str]:
    """Lower-cased words but function words, crudely stemmed ("tests", "tested" -> "test")."""
    words = set()
    for word in re.findall(r"[^\W_]+", text.lower()):
        if word in _FUNCTION_WORDS:
            continue
        for suffix in ("ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 3 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        words.add(word)
    return words


def closest_sentence(output: str, criterion: str) -> str | None:
    """The piece of `output` sharing the most content words with `criterion`.

    Rarer words weigh more; `None` for a one-piece output or when no piece shares a word.
    """
    pieces = [p.strip() for p in _PIECE_END.split(output) if p.strip()]
    if len(pieces) < 2:
        return None
    words = [content_words(p) for p in pieces]
    spread: dict[str, int] = {}
    for found in words:
        for word in found:
            spread[word] = spread.get(word, 0) + 1
    wanted = content_words(criterion)
    scores = [sum(1 / spread[w] for w in wanted & found) for found in words]
    best = max(range(len(pieces)), key=scores.__getitem__)
    return pieces[best] if scores[best] else None


def word_share(output: str, criterion: str) -> float:
    """The share of the criterion's content words the output holds.

    The framing of a REALSumm criterion ("The summary conveys this fact:") is left out.
    """
    wanted = content_words(criterion.split("fact:", 1)[-1])
    return len(wanted & content_words(output)) / len(wanted) if wanted else 1.0


def grade_item(model: Any, item: dict[str, Any], ways: list[str]) -> dict[str, Any]:
    criteria = [c["description"] for c in item["criteria"]]
    bases = [base_messages(item, c) for c in criteria]
    scores: dict[str, list[float]] = {}
    seconds: dict[str, float] = {}
    extra: dict[str, list[str]] = {}
    for way in ways:
        started = time.perf_counter()
        if way in ("plain", "reworded", "reader", "negated"):
            tail = {
                "plain": prompts.CRITERION_QUESTION,
                "reworded": REWORDED,
                "reader": READER,
                "negated": NEGATED,
            }[way]
            scores[way] = p_yes(
                model,
                [asked(b, tail.format(criterion=c)) for b, c in zip(bases, criteria, strict=True)],
            )
        elif way == "closest":
            tails = []
            for c in criteria:
                found = closest_sentence(item["output"], c)
                shown = CLOSEST.format(sentence=found) if found else ""
                tails.append(shown + prompts.CRITERION_QUESTION.format(criterion=c))
            scores[way] = p_yes(
                model, [asked(b, tail) for b, tail in zip(bases, tails, strict=True)]
            )
        elif way == "words":
            scores[way] = [word_share(item["output"], c) for c in criteria]
        elif way == "first":
            scores[way] = p_yes(
                model,
                [
                    asked(criterion_first(b, c), prompts.CRITERION_QUESTION.format(criterion=c))
                    for b, c in zip(bases, criteria, strict=True)
                ],
            )
        elif way == "quote":
            options = [*sentences(item["output"]), "NONE"]
            grammar = "root ::= " + " | ".join(gbnf_literal(s) for s in options)
            quotes = []
            for b, c in zip(bases, criteria, strict=True):
                result = model._generate(
                    asked(b, QUOTE.format(criterion=c)),
                    grammar=grammar,
                    max_tokens=400,
                    temperature=0,
                )
                quotes.append(result.generations[0].message.content)
            scores[way] = p_yes(
                model,
                [
                    [*asked(b, QUOTE.format(criterion=c)), AIMessage(q), HumanMessage(QUOTE_DECIDE)]
                    for b, c, q in zip(bases, criteria, quotes, strict=True)
                ],
            )
            extra["quotes"] = quotes
        elif way == "careful":
            questions = [
                asked(b, CAREFUL.format(criterion=c)) for b, c in zip(bases, criteria, strict=True)
            ]
            reasons = [
                message_text(r) for r in model.complete_many(questions, max_tokens=60, stop=("\n",))
            ]
            scores[way] = p_yes(
                model,
                [
                    [*q, AIMessage(r), HumanMessage(CAREFUL_DECIDE)]
                    for q, r in zip(questions, reasons, strict=True)
                ],
            )
            extra["reasons"] = reasons
        seconds[way] = time.perf_counter() - started
    return {
        "id": item["id"],
        "labels": [bool(c["label"]) for c in item["criteria"]],
        "scores": scores,
        "seconds": seconds,
        **extra,
    }


def combined(row: dict[str, Any]) -> dict[str, list[float]]:
    s = row["scores"]
    out = {way: s[way] for way in SINGLE if way in s}
    if all(w in s for w in ("plain", "reworded", "reader")):
        out["average"] = [
            sigmoid((logit(a) + logit(b) + logit(c)) / 3)
            for a, b, c in zip(s["plain"], s["reworded"], s["reader"], strict=True)
        ]
    if "plain" in s and "negated" in s:
        out["both_ways"] = [
            sigmoid((logit(a) - logit(n)) / 2)
            for a, n in zip(s["plain"], s["negated"], strict=True)
        ]
    return out


def figures(
    rows: list[dict[str, Any]], fitted: dict[str, float] | None, seed: int
) -> dict[str, Any]:
    """Each way's figures at 0.5, and at a threshold fitted on dev (`fitted`, or fitted here).

    Fitted by `bench/calibrate.py`'s rule, the one that set `PASS_THRESHOLD`: the threshold
    nearest 0.5 within one standard error of the best balanced accuracy.
    """
    labels = [label for row in rows for label in row["labels"]]
    items = [n for n, row in enumerate(rows) for _ in row["labels"]]
    by_way: dict[str, list[float]] = {}
    for row in rows:
        for way, values in combined(row).items():
            by_way.setdefault(way, []).extend(values)
    if all("plain" in row["scores"] and "words" in row["scores"] for row in rows):
        by_way["plain_words"] = out_of_fold(rows, seed)
    cost = {
        "plain_words": ("plain", "words"),
        "average": ("plain", "reworded", "reader"),
        "both_ways": ("plain", "negated"),
    }
    out: dict[str, Any] = {}
    for way, scores in by_way.items():
        if len(scores) != len(labels):
            continue
        m = agreement_metrics(labels, [p >= 0.5 for p in scores], items, confidences=scores)
        parts = cost.get(way, (way,))
        seconds = sum(row["seconds"][p] for row in rows for p in parts)
        threshold = fitted[way] if fitted else fit_threshold(labels, scores, seed)["threshold"]
        # Compared at the rounded value the report shows, so a test run applies exactly it.
        threshold = round(float(threshold), 3)
        out[way] = {
            "balanced_accuracy": round(m.balanced_accuracy or 0, 3),
            "auroc": round(m.auroc or 0, 3),
            "ece": round(m.ece or 0, 3),
            "false_pass_rate": round(m.fp / max(m.fp + m.tn, 1), 3),
            "false_fail_rate": round(m.fn / max(m.fn + m.tp, 1), 3),
            "dev_threshold": threshold,
            "balanced_accuracy_at_dev_threshold": round(
                balanced_accuracy(labels, scores, threshold), 3
            ),
            "seconds_per_criterion": round(seconds / len(labels), 3),
        }
    return out


def out_of_fold(rows: list[dict[str, Any]], seed: int, folds: int = 5) -> list[float]:
    """`plain` and `words` combined by logistic regression, each item scored by a fit on others.

    Folds are whole items, so an output never informs its own score.
    """
    from sklearn.linear_model import LogisticRegression

    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    fold_of = {n: i % folds for i, n in enumerate(order)}
    features = [
        [[logit(p), w] for p, w in zip(row["scores"]["plain"], row["scores"]["words"], strict=True)]
        for row in rows
    ]
    scores: list[list[float]] = [[] for _ in rows]
    for fold in range(folds):
        train = [n for n in range(len(rows)) if fold_of[n] != fold]
        x = [f for n in train for f in features[n]]
        y = [label for n in train for label in rows[n]["labels"]]
        fit = LogisticRegression(class_weight="balanced").fit(x, y)
        for n in range(len(rows)):
            if fold_of[n] == fold:
                scores[n] = list(fit.predict_proba(features[n])[:, 1])
    return [p for row_scores in scores for p in row_scores]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="judge-bench realsumm.jsonl")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--criteria", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ways", nargs="+", default=list(SINGLE), choices=SINGLE)
    parser.add_argument("--judge", default="local")
    parser.add_argument("--out", type=Path, default=RESULTS / "content-levers-dev.json")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument(
        "--fitted",
        type=Path,
        default=None,
        help="a dev report whose thresholds to apply (for --split test); else fitted here",
    )
    args = parser.parse_args(argv)

    code = commit()  # the code this process measures, whatever is merged while it runs
    items = sample(select(read_jsonl(args.data), args.split), args.criteria, args.seed)
    model = chat_model(args.judge)
    rows = Rows(args.out.with_suffix(".partial.jsonl"), lambda r: r["id"], fresh=args.fresh)
    for n, item in enumerate(items, start=1):
        if item["id"] in rows.done and all(w in rows.done[item["id"]]["scores"] for w in args.ways):
            continue
        rows.add(grade_item(model, item, args.ways))
        print(f"{n}/{len(items)} {item['id']}", file=sys.stderr)
    done = [rows.done[item["id"]] for item in items]
    fitted = None
    if args.fitted is not None:
        dev = json.loads(args.fitted.read_text(encoding="utf-8"))
        fitted = {way: fig["dev_threshold"] for way, fig in dev["ways"].items()}
    report = {
        "command": " ".join(["bench/content_levers.py", *(argv or sys.argv[1:])]),
        "commit": code,
        "versions": {
            "python": sys.version.split()[0],
            **versions("llama-cpp-python", "deepagents", "scikit-learn"),
        },
        "when": now(),
        "split": args.split,
        "items": len(done),
        "criteria": sum(len(r["labels"]) for r in done),
        "ways": figures(done, fitted, args.seed),
    }
    write_json(args.out, report)
    for way, fig in report["ways"].items():
        print(f"{way:10s} {fig}")


if __name__ == "__main__":
    main()
