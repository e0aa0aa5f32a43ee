"""The remote path beside the in-process path: the same GGUF judging the same items both ways.

`Judge(ChatOpenAI(base_url=...))` against llama-cpp-python's own server (started here on a
loopback port) and `Judge("local")` in process, item by item on the `--split` half of a
judge-bench file (docs/benchmarks.md, "The remote path"). Finished (variant, item) pairs are
checkpointed beside `--out`: rerun to resume, `--report-only` to report a stopped run.

    .venv/bin/python bench/remote.py --criteria 40
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from pathlib import Path
from typing import Any

from _common import (
    JUDGE_BENCH,
    RESULTS,
    SPLITS,
    header,
    names_of,
    read_jsonl,
    sample,
    select,
)
from _labelled import (
    CallMeter,
    Checkpoint,
    Outcome,
    balanced_accuracy_difference,
    difference_text,
    finished_by_all,
    fmt,
    ours,
    run_variant,
    summarize,
)
from rich.console import Console
from rich.table import Table

from rubricate import RetryPolicy
from rubricate._local import default_local_model  # pins the in-process model's threads and context
from rubricate.testing import LlamaServer

DEFAULT_OUT = RESULTS / "remote.json"
VARIANTS = ("remote_per_criterion", "remote_joint", "local")
N_CTX = 8192  # the in-process model's default
THREADS = 2
REMOTE_TIMEOUT_S = 900.0


def remote_model(server: LlamaServer, meter: CallMeter) -> Any:
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=server.model,
        base_url=server.base_url,
        api_key=server.api_key,  # type: ignore[arg-type]
        temperature=0,
        max_tokens=2048,
        max_retries=0,  # the judge's retry policy is the one measured
        extra_body={"repeat_penalty": 1.0},
        callbacks=[meter],
    )


def build_report(
    results: dict[str, list[Outcome]], seed: int, sample: dict[str, Any]
) -> dict[str, Any]:
    """Summaries on the items every variant finished, and each remote variant against `local`."""
    scored = finished_by_all(results)
    variants = {name: summarize(outs, seed) for name, outs in scored.items()}
    against_local: dict[str, Any] = {}
    if "local" in scored:
        local_s = variants["local"]["seconds_per_criterion"]
        for name, outs in scored.items():
            if name == "local":
                continue
            seconds = variants[name]["seconds_per_criterion"]
            against_local[name] = {
                "balanced_accuracy_minus_local": balanced_accuracy_difference(
                    outs, scored["local"], seed
                ),
                "seconds_per_criterion_over_local": seconds / local_s
                if seconds and local_s
                else None,
            }
    return {
        "sample": {**sample, "items_scored": len(next(iter(scored.values()), []))},
        "variants": variants,
        "against_local": against_local,
    }


def print_table(report: dict[str, Any], console: Console) -> None:
    table = Table(title="Remote (ChatOpenAI -> llama_cpp.server) vs in-process, same items")
    for column in ("variant", "crit", "acc", "bal acc", "s/crit", "calls/crit", "failures"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for name, s in report["variants"].items():
        m = s["metrics"] or {}
        f = s["failures"]
        table.add_row(
            name,
            str(s["criteria"]),
            fmt(m.get("accuracy")),
            fmt(m.get("balanced_accuracy")),
            fmt(s["seconds_per_criterion"], 2),
            fmt(s["calls_per_criterion"], 2),
            f"exc {f['exceptions']}, err {f['grader_errors']}, unver {f['unverified_criteria']}",
        )
    console.print(table)
    for name, c in report["against_local"].items():
        ratio = c["seconds_per_criterion_over_local"]
        text = f"{name} vs local: " + difference_text(c["balanced_accuracy_minus_local"])
        text += f"; {ratio:.2f}x the seconds per criterion" if ratio else ""
        console.print(text)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path, nargs="?", default=JUDGE_BENCH / "realsumm.jsonl")
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="dev")
    parser.add_argument("--criteria", type=int, default=40, help="criteria to sample (whole items)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", type=names_of(VARIANTS), default=",".join(VARIANTS))
    parser.add_argument("--budget-s", type=float, default=None, help="start no item after it")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--report-only", action="store_true", help="report the checkpoint")
    parser.add_argument("--fresh", action="store_true", help="discard an interrupted run's rows")
    args = parser.parse_args(argv)
    if args.criteria < 1:
        parser.error(f"--criteria must be >= 1, got {args.criteria}")
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark; returns the report written to `--out`."""
    args = parse_args(argv)
    console = Console(width=140)

    def log(text: str) -> None:
        console.print(text, highlight=False, markup=False)

    if not args.data.is_file():
        raise SystemExit(
            f"judge-bench data not found: {args.data} (judge-bench is not part of the "
            "repository; pass the path of a judge-bench JSONL file; tests/data/judge-bench has a "
            "four-item sample of each source)"
        )
    items = sample(select(read_jsonl(args.data), args.split), args.criteria, args.seed)
    if not items:
        raise SystemExit(f"{args.data}: no items in the {args.split!r} split")
    config = {
        "data": str(args.data),
        "split": args.split,
        "seed": args.seed,
        "criteria": args.criteria,
        "variants": args.variants,
        "n_ctx": N_CTX,
        "threads": THREADS,
    }
    checkpoint = Checkpoint(args.out, config, fresh=args.fresh, log=log)
    meter = CallMeter()
    load_before = os.getloadavg()
    started = time.perf_counter()
    results: dict[str, list[Outcome]] = {name: [] for name in args.variants}
    remote = [v for v in args.variants if v.startswith("remote_")]
    server_info: dict[str, Any] = {}
    log_path = args.out.with_suffix(".server.log")
    if args.report_only:
        for name in args.variants:
            done = checkpoint.outcomes.get(name, {})
            results[name] = [done[i["id"]] for i in items if i["id"] in done]
    to_grade = [] if args.report_only else items
    with contextlib.ExitStack() as stack:
        graders: dict[str, Any] = {}
        if remote and to_grade:
            server = stack.enter_context(
                LlamaServer(log_path=log_path, n_ctx=N_CTX, n_threads=THREADS)
            )
            chat = remote_model(server, meter)
            chat.invoke("Say ok.", max_tokens=1)  # first-request costs outside the timings
            retry = RetryPolicy(timeout=REMOTE_TIMEOUT_S)
            for name in remote:
                graders[name] = ours(chat, name.removeprefix("remote_"), retry=retry)
        if "local" in args.variants and to_grade:
            local = default_local_model(n_ctx=N_CTX, n_threads=THREADS)
            local.callbacks = [meter]
            local.invoke("Say ok.", max_tokens=1)  # loads the weights outside the timings
            graders["local"] = ours(local, "per_criterion")
        for number, item in enumerate(to_grade, start=1):
            finished = all(
                item["id"] in checkpoint.outcomes.get(name, {}) for name in args.variants
            )
            spent = time.perf_counter() - started
            if not finished and args.budget_s is not None and spent > args.budget_s:
                log(f"budget of {args.budget_s:.0f} s spent: no item after {number - 1}")
                break
            for name in args.variants:
                graded = run_variant(
                    name, graders[name], [item], meter, log=log, checkpoint=checkpoint
                )
                results[name] += graded
    log_path.unlink(missing_ok=True)
    if remote:
        server_info = {
            "command": "python -m llama_cpp.server --model <embedded GGUF> "
            f"--n_ctx {N_CTX} --n_threads {THREADS} --n_threads_batch {THREADS} "
            "--logits_all true",
            "client": "langchain_openai.ChatOpenAI(temperature=0, max_retries=0, "
            "extra_body={'repeat_penalty': 1.0})",
            "structured_output": "forced tool call (the server refuses response_format "
            "json_schema)",
            "per_call_timeout_s": REMOTE_TIMEOUT_S,
        }
    drawn = {
        "data": str(args.data),
        "split": args.split,
        "seed": args.seed,
        "requested_criteria": args.criteria,
        "budget_s": args.budget_s,
        "items": len(items),
        "criteria": sum(len(i["criteria"]) for i in items),
    }
    report = {
        **header("remote.py", argv),
        "load_average": {"start": load_before, "end": os.getloadavg()},
        "server": server_info,
        "positive": "the criterion is satisfied; no verdict counts as not satisfied",
        "total_wall_s": round(time.perf_counter() - started, 1),
        "segments": checkpoint.segments,
        **build_report(results, args.seed, drawn),
    }
    print_table(report, console)
    checkpoint.finish(report)
    console.print(f"wrote {args.out}")
    return report


if __name__ == "__main__":
    main()
