"""What rubricate itself costs, with fake judges at the model boundary (benchmarks.md#overhead).

Verdict processing per mode with an instant judge (and where one joint evaluation's time goes),
`agrade_file` throughput at `-j 1, 8, 32` with a 100 ms judge, and the peak memory of grading
10,000 lines in a child process.

    .venv/bin/python bench/overhead.py                 # writes bench/results/overhead.json
    .venv/bin/python bench/overhead.py --quick --json /tmp/overhead.json   # the smoke size
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from _common import (
    NO_RETRY,
    RESULTS,
    TASK,
    header,
    output_text,
    rubric_text,
    versions,
    write_json,
    write_jsonl,
)
from langchain_core.messages import HumanMessage, SystemMessage
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rubricate import Evidence, Judge, Rubric, agrade_file
from rubricate.testing import InstantGrammarJudgeModel, InstantJudgeModel

TARGET_CRITERIA_PER_S = 5000.0
TARGET_RATIO_AT_32 = 0.80
TARGET_PEAK_MB = 300.0
JOBS = (1, 8, 32)


def _judges() -> dict[str, Judge]:
    return {
        "joint": Judge(InstantJudgeModel(), mode="joint", retry=NO_RETRY),
        "per_criterion": Judge(InstantJudgeModel(), mode="per_criterion", retry=NO_RETRY),
        "per_criterion (embedded path)": Judge(InstantGrammarJudgeModel(), retry=NO_RETRY),
    }


async def _evaluate_many(judge: Judge, rubric: str, output: str, count: int) -> None:
    for _ in range(count):
        evaluation = await judge.aevaluate(rubric, output=output, task=TASK)
        if evaluation.result == "grader_error":
            raise RuntimeError(f"the fake judge failed: {evaluation.explanation}")


# -- 1. verdict processing ---------------------------------------------------------------------


def measure_throughput(
    *, criteria: int, output_chars: int, evaluations: int, repeats: int
) -> list[dict[str, Any]]:
    rubric, output = rubric_text(criteria), output_text(output_chars)
    rows = []
    for mode, judge in _judges().items():
        asyncio.run(_evaluate_many(judge, rubric, output, max(2, evaluations // 10)))  # warm up
        walls, cpus = [], []
        for _ in range(repeats):
            gc.collect()
            wall0, cpu0 = time.perf_counter(), time.process_time()
            asyncio.run(_evaluate_many(judge, rubric, output, evaluations))
            walls.append(time.perf_counter() - wall0)
            cpus.append(time.process_time() - cpu0)
        done = criteria * evaluations
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        rows.append(
            {
                "mode": mode,
                "criteria_per_evaluation": criteria,
                "evaluations": evaluations,
                "repeats": repeats,
                "model_calls_per_evaluation": 1 if mode == "joint" else criteria,
                "median_wall_s": round(wall, 4),
                "criteria_per_s": round(done / wall, 1),
                "criteria_per_cpu_s": round(done / cpu, 1) if cpu else None,
                "best_criteria_per_s": round(done / min(walls), 1),
                "worst_criteria_per_s": round(done / max(walls), 1),
                "ms_per_evaluation": round(wall / evaluations * 1000, 3),
                "target_criteria_per_s": TARGET_CRITERIA_PER_S,
                "meets_target": done / wall >= TARGET_CRITERIA_PER_S,
            }
        )
    return rows


def _micros(call: Callable[[], Any], count: int, *, awaited: bool = False) -> float:
    """Median microseconds a call over 3 batches of `count`, awaited in one loop if `awaited`."""

    async def batch() -> None:
        for _ in range(count):
            await call()

    times = []
    for _ in range(3):
        started = time.perf_counter()
        if awaited:
            asyncio.run(batch())
        else:
            for _ in range(count):
                call()
        times.append((time.perf_counter() - started) / count)
    return statistics.median(times) * 1e6


def decompose_joint(*, criteria: int, output_chars: int, count: int) -> dict[str, Any]:
    """Microseconds of one joint evaluation, split by direct measurement of its parts.

    `langchain_invoke` is the judge's own structured runnable (on this fake, the schema bound as
    a forced tool), so `langchain_own` (it minus the
    fake's `fake_reply`) is LangChain's share and `rubricate_rest` what is left of the total.
    """
    # The judge's own steps, called one by one to time each: engine internals by design.
    from rubricate._judge import _prompts as prompts
    from rubricate._judge._answers import joint_schema, parse_joint
    from rubricate._judge._evidence import render_evidence
    from rubricate._judge._suspects import find_suspect_passages
    from rubricate._judge._verdicts import summarize

    model = InstantJudgeModel()
    judge = Judge(model, mode="joint", retry=NO_RETRY)
    rubric, output = rubric_text(criteria), output_text(output_chars)
    labels = [f"C{i}" for i in range(1, criteria + 1)]
    schema = joint_schema(labels, allow_unscorable=True)
    evidence = Evidence(output=output, task=TASK, messages=())
    rendered = render_evidence(evidence, max_chars=judge.max_evidence_chars)
    listed = zip(labels, Rubric.parse(rubric), strict=True)
    request = prompts.JOINT_REQUEST.format(
        criteria="\n".join(f"{label}: {c.description}" for label, c in listed),
        unscorable=prompts.UNSCORABLE_OPTION,
        reason="",
        reasoning="",
    )
    preamble = prompts.EVIDENCE_PREAMBLE.format(evidence=rendered.text)
    messages = prompts.with_tail(
        [SystemMessage(judge.system_prompt), HumanMessage(preamble)], request
    )
    runnable = judge._calls.structured_runnable(schema)
    assert runnable is not None
    raw = asyncio.run(runnable.ainvoke(messages)).tool_calls[0]["args"]
    evaluation = asyncio.run(judge.aevaluate(rubric, output=output, task=TASK))
    tools: dict[str, Any] = {"tools": [schema]}
    bound = "bind_tools([schema], tool_choice='any')"  # the judge's own runnable on this model
    variants = {
        "with_structured_output(include_raw=True)": model.with_structured_output(
            schema, include_raw=True
        ),
        "with_structured_output(include_raw=False)": model.with_structured_output(schema),
        bound: runnable,
        "model.ainvoke (no schema)": model,
    }
    calls = {
        name: _micros(partial(runs.ainvoke, messages), count, awaited=True)
        for name, runs in variants.items()
    }
    calls["model._agenerate (the fake alone)"] = _micros(
        lambda: model._agenerate(messages, **tools), count, awaited=True
    )
    us = {
        "total_aevaluate": _micros(
            lambda: judge.aevaluate(rubric, output=output, task=TASK), count, awaited=True
        ),
        "langchain_invoke": calls[bound],
    }
    parts: dict[str, Callable[[], Any]] = {
        "fake_reply": lambda: model.reply(tools),
        "build_structured_runnable": lambda: model.bind_tools([schema], tool_choice="any"),
        "rubric_parse": lambda: Rubric.parse(rubric),
        "rubric_parse_first_time": lambda: Rubric.from_text(rubric),
        "render_evidence": lambda: render_evidence(evidence, max_chars=judge.max_evidence_chars),
        "joint_schema": lambda: joint_schema(labels, allow_unscorable=True),
        "parse_joint": lambda: parse_joint(raw, labels),
        "summarize": lambda: summarize(evaluation.criteria),
        "injection_guard": lambda: find_suspect_passages(output),
    }
    us |= {name: _micros(call, count) for name, call in parts.items()}
    us["langchain_own"] = us["langchain_invoke"] - us["fake_reply"]
    us["rubricate_rest"] = us["total_aevaluate"] - us["langchain_invoke"]
    rounded = {"parts": us, "langchain_call_variants": calls}
    return {key: {k: round(v, 1) for k, v in d.items()} for key, d in rounded.items()}


# -- 2. grade throughput -----------------------------------------------------------------------


async def _grade_once(
    directory: Path, *, jobs: int, items: int, latency_s: float, jitter_s: float = 0.0, **size: int
) -> dict[str, Any]:
    name = f"grade-j{jobs}-{round(latency_s * 1000)}ms-{round(jitter_s * 1000)}jitter"
    source = directory / f"{name}.jsonl"
    write_jsonl(source, items, size["output_chars"])
    model = InstantJudgeModel(latency_s=latency_s, jitter_s=jitter_s)
    judge = Judge(model, mode="joint", retry=NO_RETRY)
    started, cpu_started = time.perf_counter(), time.process_time()
    summary = await agrade_file(
        source,
        directory / f"{name}.results.jsonl",
        judge=judge,
        rubric=rubric_text(size["criteria"]),
        concurrency=jobs,
    )
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if summary.graded != items or summary.errors or summary.cache_hits:
        raise RuntimeError(f"-j {jobs}: unexpected summary {summary.to_dict()}")
    row: dict[str, Any] = {
        "jobs": jobs,
        "items": items,
        "judge_latency_s": latency_s,
        "judge_jitter_s": jitter_s,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "cpu_ms_per_item": round(cpu / items * 1000, 3),
        "items_per_s": round(items / wall, 2),
    }
    if latency_s > 0:
        row["ideal_items_per_s"] = round(jobs / latency_s, 2)
        row["ratio_of_ideal"] = round(items / wall / (jobs / latency_s), 4)
    return row


def measure_grade(directory: Path, *, rounds: int, latency_s: float, **size: int) -> dict[str, Any]:
    """Fixed latency at each `-j`, then ± 50% jitter at -j 32, then the instant ceiling."""
    warm_up = directory / "warm-up"
    warm_up.mkdir()
    asyncio.run(_grade_once(warm_up, jobs=4, items=8, latency_s=0.0, **size))
    most = JOBS[-1]
    runs = [(jobs, latency_s, 0.0) for jobs in JOBS] + [(most, latency_s, latency_s / 2)]
    rows = []
    for jobs, latency, jitter in runs:
        row = asyncio.run(
            _grade_once(
                directory,
                jobs=jobs,
                items=jobs * rounds,
                latency_s=latency,
                jitter_s=jitter,
                **size,
            )
        )
        if jitter:
            row["informational"] = "latency uniform in latency_s ± 50%, same mean; not the target"
        else:
            # Fixed-latency items move in waves: each waits the latency, then `jobs` times the
            # CPU an item needs. The ratio expected for that CPU cost, not a measurement.
            cpu_per_item = row["cpu_s"] / row["items"]
            row["lockstep_model_ratio"] = round(latency / (latency + jobs * cpu_per_item), 4)
        if jobs == most and not jitter:
            row["target_ratio"] = TARGET_RATIO_AT_32
            row["meets_target"] = row["ratio_of_ideal"] >= TARGET_RATIO_AT_32
        rows.append(row)
    ceiling = asyncio.run(
        _grade_once(directory, jobs=most, items=most * rounds, latency_s=0.0, **size)
    )
    ceiling["ms_per_item"] = round(ceiling["wall_s"] / ceiling["items"] * 1000, 3)
    return {"grade": rows, "grade_ceiling": ceiling}


# -- 3. peak memory ----------------------------------------------------------------------------


def _peak_mb() -> float:
    """The process's peak RSS in MB, from /proc's `VmHWM`.

    Not `ru_maxrss`: after fork and exec it still counts the parent's pages.
    """
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError("no VmHWM in /proc/self/status: the memory figure needs Linux")


def memory_child(source: Path, results: Path, jobs: int, criteria: int) -> None:
    """Runs in the child process: baseline RSS, then grade `source`, then peak RSS (JSON)."""
    judge = Judge(InstantJudgeModel(), mode="joint", retry=NO_RETRY)
    gc.collect()
    baseline = _peak_mb()
    started = time.perf_counter()
    summary = asyncio.run(
        agrade_file(source, results, judge=judge, rubric=rubric_text(criteria), concurrency=jobs)
    )
    report = {
        "baseline": baseline,
        "after": _peak_mb(),
        "graded": summary.graded,
        "errors": summary.errors,
        "wall_s": round(time.perf_counter() - started, 2),
    }
    print(json.dumps(report))


def measure_memory(directory: Path, *, lines: int, jobs: int, **size: int) -> dict[str, Any]:
    source, results = directory / "memory.jsonl", directory / "memory.results.jsonl"
    input_bytes = write_jsonl(source, lines, size["output_chars"])
    child_args = [str(source), str(results), str(jobs), str(size["criteria"])]
    command = [sys.executable, str(Path(__file__).resolve()), "--memory-child", *child_args]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"the memory child failed:\n{completed.stderr}")
    child = json.loads(completed.stdout.strip().splitlines()[-1])
    if child["graded"] != lines or child["errors"]:
        raise RuntimeError(f"the memory child graded {child['graded']} of {lines}: {child}")
    peak, baseline = child["after"], child["baseline"]
    return {
        "lines": lines,
        "input_mb": round(input_bytes / 2**20, 2),
        "results_mb": round(results.stat().st_size / 2**20, 2),
        "jobs": jobs,
        "wall_s": child["wall_s"],
        "baseline_mb": baseline,
        "peak_mb": peak,
        "growth_mb": round(peak - baseline, 1),
        "target_peak_mb": TARGET_PEAK_MB,
        "meets_target": peak < TARGET_PEAK_MB,
    }


# -- report ------------------------------------------------------------------------------------


def _table(title: str, rows: Iterable[Mapping[str, Any]], keys: Sequence[str]) -> Table:
    """The rows' `keys` as columns: shares and ratios as percentages, a target as met or MISSED."""
    table = Table(title=title)
    for key in keys:
        table.add_column(key, justify="left" if key in ("mode", "part", "call") else "right")
    for row in rows:
        cells = []
        for key in keys:
            value = row.get(key)
            if isinstance(value, bool):
                cells.append("met" if value else "MISSED")
            elif isinstance(value, float):
                percent = "ratio" in key or "share" in key
                cells.append(
                    f"{value:.1%}" if percent else f"{value:,.{0 if value >= 1000 else 2}f}"
                )
            else:
                cells.append("" if value is None else str(value))
        table.add_row(*cells)
    return table


def print_tables(data: dict[str, Any], console: Console) -> None:
    title = "1. Verdict processing, instant judge, one core (target 5,000 criteria/s)"
    keys = ("mode", "model_calls_per_evaluation", "ms_per_evaluation", "criteria_per_s")
    ranges = ("criteria_per_cpu_s", "worst_criteria_per_s", "best_criteria_per_s", "meets_target")
    console.print(_table(title, data["throughput"], (*keys, *ranges)))
    breakdown = data["joint_breakdown_us"]
    total = breakdown["parts"]["total_aevaluate"] or 1.0
    parts = [{"part": k, "µs": v, "share": v / total} for k, v in breakdown["parts"].items()]
    title = "Where one joint evaluation's time goes (µs, measured directly)"
    console.print(_table(title, parts, ("part", "µs", "share")))
    calls = [{"call": escape(k), "µs": v} for k, v in breakdown["langchain_call_variants"].items()]
    title = "One structured call through LangChain, instant fake (µs a call)"
    console.print(_table(title, calls, ("call", "µs")))
    title = "2. grade throughput, 100 ms judge (target >= 80% of ideal at -j 32)"
    keys = ("jobs", "judge_latency_s", "judge_jitter_s", "items", "wall_s", "cpu_ms_per_item")
    ratios = ("items_per_s", "ideal_items_per_s", "ratio_of_ideal", "lockstep_model_ratio")
    console.print(_table(title, data["grade"], (*keys, *ratios, "meets_target")))
    ceiling = (
        "grade ceiling, instant judge, -j {jobs}: {items_per_s:.1f} items/s ({ms_per_item:.2f}"
    )
    ceiling += " ms of rubricate + LangChain CPU an item, {items} items)"
    console.print(ceiling.format_map(data["grade_ceiling"]))
    m = data["memory"]
    title = f"3. Peak memory grading {m['lines']:,} lines, instant judge (target < 300 MB)"
    keys = ("input_mb", "jobs", "baseline_mb", "peak_mb", "growth_mb", "wall_s", "meets_target")
    console.print(_table(title, [m], keys))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", type=Path, default=RESULTS / "overhead.json")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (the smoke test)")
    parser.add_argument("--criteria", type=int, default=10, help="criteria per rubric")
    parser.add_argument("--output-chars", type=int, default=1500, help="graded output length")
    parser.add_argument("--evaluations", type=int, default=300, help="per timed repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=20, help="grade items per job slot")
    parser.add_argument("--latency", dest="latency_s", type=float, default=0.1, help="seconds")
    parser.add_argument("--memory-lines", type=int, default=10_000)
    parser.add_argument("--memory-jobs", type=int, default=32)
    parser.add_argument("--memory-child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        source, results, jobs, criteria = args.memory_child
        memory_child(Path(source), Path(results), int(jobs), int(criteria))
        return
    if args.quick:
        args.evaluations, args.repeats, args.rounds, args.memory_lines = 10, 1, 2, 200

    settings = {k: v for k, v in vars(args).items() if k not in ("json", "memory_child")}
    data: dict[str, Any] = {
        **header("overhead.py", argv),
        "versions": versions("rubricate", "langchain-core", "pydantic"),
        "settings": settings,
    }
    size = {"criteria": args.criteria, "output_chars": args.output_chars}
    started = time.perf_counter()
    data["throughput"] = measure_throughput(
        **size, evaluations=args.evaluations, repeats=args.repeats
    )
    data["joint_breakdown_us"] = decompose_joint(**size, count=args.evaluations)
    with tempfile.TemporaryDirectory(prefix="rubricate-overhead-") as tmp:
        data |= measure_grade(Path(tmp), rounds=args.rounds, latency_s=args.latency_s, **size)
        data["memory"] = measure_memory(
            Path(tmp), lines=args.memory_lines, jobs=args.memory_jobs, **size
        )
    target = next(row for row in data["grade"] if "meets_target" in row)
    data["targets"] = {
        "criteria_per_s": {row["mode"]: row["meets_target"] for row in data["throughput"]},
        "grade_ratio_at_32": target["meets_target"],
        "peak_memory": data["memory"]["meets_target"],
    }
    data["wall_s"] = round(time.perf_counter() - started, 1)
    data["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    console = Console(width=160)
    print_tables(data, console)
    write_json(args.json, data)
    console.print(f"Wrote {args.json} ({data['wall_s']} s)")


if __name__ == "__main__":
    main()
