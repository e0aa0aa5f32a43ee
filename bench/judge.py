"""Judge accuracy and speed on judge-bench, each variant beside deepagents' reference grader.

Every variant grades the same seeded sample on one shared model (docs/benchmarks.md, "Judge
accuracy and speed"); each finished (variant, item) is checkpointed beside `--out`, so rerunning
the command resumes, and `--rescore` recomputes a report's metrics from its stored verdicts
(`<report>.items.jsonl.gz` beside it, which git ignores: the report itself holds only figures).

    .venv/bin/python bench/judge.py --realsumm 300 --ifeval 200 --judge local
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from itertools import zip_longest
from pathlib import Path
from typing import Any

from _common import (
    BOOTSTRAP,
    JUDGE_BENCH,
    RESULTS,
    chat_model,
    commit,
    header,
    missing_data,
    name_of,
    names_of,
    now,
    read_jsonl,
    sample,
    write_json,
)
from _labelled import (
    CallMeter,
    Checkpoint,
    Grader,
    Outcome,
    balanced_accuracy_difference,
    difference_text,
    finished_by_all,
    fmt,
    ours,
    reference,
    run_variant,
    summarize,
)
from langchain_core.language_models import BaseChatModel
from rich.console import Console
from rich.table import Table

VARIANTS = ("per_criterion", "joint", "compiled", "reference")
SOURCES = ("realsumm", "ifeval")


def make_graders(model: BaseChatModel, variants: list[str]) -> dict[str, Grader]:
    return {
        variant: reference(model)
        if variant == "reference"
        else ours(model, "per_criterion", compile_checks=True)
        if variant == "compiled"
        else ours(model, variant)
        for variant in variants
    }


def build_report(
    results: dict[str, list[Outcome]], seed: int, sample: dict[str, Any]
) -> dict[str, Any]:
    """Every variant scored on the items all of them finished, so the comparison is like for like.

    Each variant against the reference, and `compiled` against `per_criterion` (ifeval is where
    checks apply; realsumm is where content criteria must stay with the judge).
    """
    scored = finished_by_all(results)
    variants: dict[str, Any] = {}
    for name in results:
        variants[name] = {
            "overall": summarize(scored[name], seed),
            "per_source": {
                source: summarize(of_source(scored[name], source), seed)
                for source in SOURCES
                if of_source(scored[name], source)
            },
        }

    def versus(name: str, other: str, source: str) -> dict[str, Any] | None:
        mine, theirs = of_source(scored[name], source), of_source(scored[other], source)
        return balanced_accuracy_difference(mine, theirs, seed) if mine else None

    def speed(name: str, source: str) -> float | None:
        """The reference's seconds per criterion over the variant's."""
        figures = [
            (v["overall"] if source == "all" else v["per_source"].get(source)) or {}
            for v in (variants["reference"], variants[name])
        ]
        a, b = (f.get("seconds_per_criterion") for f in figures)
        return a / b if a and b else None

    comparison: dict[str, Any] = {}
    for name in [n for n in scored if n != "reference"] if "reference" in scored else []:
        comparison[name] = {
            "balanced_accuracy_minus_reference": versus(name, "reference", "all"),
            "reference_seconds_over_variant_seconds": speed(name, "all"),
            "per_source": {
                source: {
                    "balanced_accuracy_minus_reference": versus(name, "reference", source),
                    "reference_seconds_over_variant_seconds": speed(name, source),
                }
                for source in SOURCES
                if source in variants[name]["per_source"]
            },
        }
    compiled: dict[str, Any] = {}
    if {"compiled", "per_criterion"} <= scored.keys():
        for source in ("all", *SOURCES):
            if of_source(scored["compiled"], source):
                compiled[source] = versus("compiled", "per_criterion", source)
    return {
        "sample": {**sample, "items_scored": len(next(iter(scored.values()), []))},
        "variants": variants,
        "against_reference": comparison,
        "compiled_minus_per_criterion": compiled,
    }


def items_path(report: Path) -> Path:
    """Where a report's per-item verdicts go: beside it, compressed, and not in git."""
    return report.with_name(f"{report.stem}.items.jsonl.gz")


def write_items(report: Path, results: dict[str, list[Outcome]]) -> None:
    """The verdicts `--rescore` recomputes from; the report in git holds only the figures."""
    with gzip.open(items_path(report), "wt", encoding="utf-8") as sink:
        for name, outs in results.items():
            for outcome in outs:
                sink.write(json.dumps({"variant": name, **outcome.__dict__}) + "\n")


def of_source(outcomes: list[Outcome], source: str) -> list[Outcome]:
    return [o for o in outcomes if source in ("all", o.source)]


def rescore(path: Path, console: Console) -> dict[str, Any]:
    """Rebuild a report's metrics from the outcomes it holds.

    Hours of grading are not redone for a change to the scoring; the report records when it was
    rescored, and at which commit.
    """
    try:
        report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        results: dict[str, list[Outcome]] = {name: [] for name in report["variants"]}
        with gzip.open(items_path(path), "rt", encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                results[row.pop("variant")].append(Outcome(**row))
        sample = {k: v for k, v in report["sample"].items() if k != "items_scored"}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(
            f"--rescore: {path} with {items_path(path).name} is not a bench/judge.py report: {exc}"
        ) from exc
    report.update(build_report(results, sample["seed"], sample))
    report["rescored"] = {"date": now(), "commit": commit()}
    print_table(report, console)
    write_json(path, report)
    console.print(f"rescored {path}")
    return report


def print_table(report: dict[str, Any], console: Console) -> None:
    table = Table(title="Judge accuracy and speed (same items, same model)")
    columns = ("variant", "source", "crit", "acc", "bal acc", "kappa [95% CI]", "s/crit")
    columns += ("calls/crit", "in tok/crit", "out tok/crit", "by check", "failures")
    for column in columns:
        table.add_column(column, justify="left" if column in ("variant", "source") else "right")
    for name, entry in report["variants"].items():
        rows = [("all", entry["overall"]), *entry["per_source"].items()]
        for source, s in rows:
            m = s["metrics"] or {}
            ci = m.get("kappa_ci95")
            kappa = fmt(m.get("kappa"))
            if ci:
                kappa += f" [{ci[0]:.2f}, {ci[1]:.2f}]"
            f = s["failures"]
            failures = (
                f"exc {f['exceptions']}, err {f['grader_errors']}, "
                f"unver {f['unverified_criteria']}, miss {f['missing_criteria']}"
            )
            table.add_row(
                name if source == "all" else "",
                source,
                str(s["criteria"]),
                fmt(m.get("accuracy")),
                fmt(m.get("balanced_accuracy")),
                kappa,
                fmt(s["seconds_per_criterion"], 2),
                fmt(s["calls_per_criterion"], 2),
                fmt(s["input_tokens_per_criterion"], 0),
                fmt(s["output_tokens_per_criterion"], 1),
                str(s["decided_by_check"]),
                failures,
            )
    console.print(table)
    for name, c in report["against_reference"].items():
        for source, figures in [("all", c), *c.get("per_source", {}).items()]:
            speed = figures["reference_seconds_over_variant_seconds"]
            text = f"{name} vs reference ({source}): "
            text += difference_text(figures["balanced_accuracy_minus_reference"])
            text += f"; {speed:.1f}x less wall time per criterion" if speed else ""
            console.print(text)
    for source, diff in report["compiled_minus_per_criterion"].items():
        console.print(f"compiled vs per_criterion ({source}): " + difference_text(diff))


# -- entry point -----------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=JUDGE_BENCH, help="judge-bench folder")
    parser.add_argument("--realsumm", type=int, default=300, help="criteria from realsumm")
    parser.add_argument("--ifeval", type=int, default=200, help="criteria from ifeval")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip", type=int, default=0, help="criteria of an earlier sample to skip")
    parser.add_argument("--judge", default="local", help="the model (see _common.chat_model)")
    parser.add_argument("--variants", type=names_of(VARIANTS), default=",".join(VARIANTS))
    parser.add_argument("--out", type=Path, default=RESULTS / "judge.json")
    parser.add_argument("--rescore", action="store_true", help="recompute --out, no model call")
    parser.add_argument("--fresh", action="store_true", help="discard an interrupted run's rows")
    args = parser.parse_args(argv)
    if not args.rescore and (problem := missing_data(args.data, "realsumm.jsonl", "ifeval.jsonl")):
        parser.error(problem)
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark; returns the JSON report."""
    args = parse_args(argv)
    console = Console(width=160)
    if args.rescore:
        return rescore(args.out, console)
    # Sources alternate, so that a run stopped early has graded some of both.
    items = [
        item
        for pair in zip_longest(
            sample(read_jsonl(args.data / "realsumm.jsonl"), args.realsumm, args.seed, args.skip),
            sample(read_jsonl(args.data / "ifeval.jsonl"), args.ifeval, args.seed, args.skip),
        )
        for item in pair
        if item is not None
    ]
    model = chat_model(args.judge)
    if getattr(model, "supports_grammar", False):  # the embedded model
        model.invoke("Say ok.", max_tokens=1)  # loads the weights outside the timings
    meter = CallMeter()
    model.callbacks = [*(model.callbacks or []), meter]  # type: ignore[misc]
    graders = make_graders(model, args.variants)

    def log(text: str) -> None:
        console.print(text, highlight=False, markup=False)

    config = {
        "data": str(args.data),
        "seed": args.seed,
        **({"skip": args.skip} if args.skip else {}),  # absent at 0: older checkpoints resume
        "realsumm": args.realsumm,
        "ifeval": args.ifeval,
        "variants": args.variants,
        "model_name": name_of(model),
        "max_tokens": getattr(model, "max_tokens", None),
    }
    checkpoint = Checkpoint(args.out, config, fresh=args.fresh, log=log)
    started = time.perf_counter()
    results = {
        name: run_variant(
            name,
            grader,
            items,
            meter,
            log=log,
            checkpoint=checkpoint,
        )
        for name, grader in graders.items()
    }
    drawn = {
        "data": str(args.data),
        "seed": args.seed,
        "requested_criteria": {"realsumm": args.realsumm, "ifeval": args.ifeval},
        "skipped_criteria": args.skip,
        "items": {s: sum(i["source"] == s for i in items) for s in SOURCES},
        "criteria": {
            s: sum(len(i["criteria"]) for i in items if i["source"] == s) for s in SOURCES
        },
    }
    report = {
        **header("judge.py", argv),
        "judge": args.judge,
        "model_name": name_of(model),
        "max_tokens": getattr(model, "max_tokens", None),
        "variants_order": args.variants,
        "bootstrap": {"resamples": BOOTSTRAP, "unit": "item", "confidence": 0.95},
        "positive": (
            "the criterion is satisfied; a criterion without a verdict counts as not satisfied"
        ),
        "total_wall_s": round(time.perf_counter() - started, 1),
        "segments": checkpoint.segments,
        **build_report(results, args.seed, drawn),
    }
    print_table(report, console)
    write_items(args.out, results)
    checkpoint.finish(report)
    console.print(f"wrote {args.out}")
    return report


if __name__ == "__main__":
    main()
