"""The cost of rubricate itself: judges that answer instantly or after a fixed latency.

Three measurements, all in one run, on fake chat models at the model boundary (a
`BaseChatModel` subclass, so everything rubricate does around the model runs for real: parsing
the rubric, rendering the evidence, LangChain's structured-output plumbing, validation,
summarising, and for `grade` the JSONL streaming, caching and the results file):

1. **Verdict processing throughput**: criteria per second on one core with an instant judge,
   per grading mode, against the 5,000 criteria/s target; below target, a profile says where the
   time goes (rubricate, LangChain, pydantic, asyncio, the fake itself).
2. **`rubricate grade` throughput** (`agrade_file`, the library behind the CLI) with a judge that
   takes 100 ms a call, at `-j 1, 8, 32`, as a ratio of the ideal `jobs / 0.1 s` items per
   second; the target is >= 80% at `-j 32`.
3. **Peak memory** grading a generated 10,000-line JSONL file with an instant judge, in a child
   process (peak RSS), next to the baseline RSS of the same child after importing rubricate and
   the fake; the target is < 300 MB.

    .venv/bin/python bench/overhead.py                 # writes bench/results/overhead.json
    .venv/bin/python bench/overhead.py --quick --json /tmp/overhead.json   # the smoke size
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _common import (
    NO_RETRY,
    RESULTS,
    TASK,
    commit,
    machine,
    output_text,
    rubric_text,
    versions,
    write_jsonl,
)
from langchain_core.messages import HumanMessage, SystemMessage
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from rubricate import Evidence, Judge, Rubric, agrade_file
from rubricate.testing import InstantGrammarJudgeModel, InstantJudgeModel

DEFAULT_JSON = RESULTS / "overhead.json"
TARGET_CRITERIA_PER_S = 5000.0
TARGET_RATIO_AT_32 = 0.80
TARGET_PEAK_MB = 300.0
JOBS = (1, 8, 32)
# -- 1. verdict processing throughput ----------------------------------------------------------


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


def _per_call(fn: Any, count: int) -> float:
    """Median microseconds per call of `fn()` over 3 timed batches of `count`."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(count):
            fn()
        times.append((time.perf_counter() - started) / count)
    return statistics.median(times) * 1e6


def decompose_joint(*, criteria: int, output_chars: int, count: int) -> dict[str, Any]:
    """Microseconds of one joint evaluation, split by direct measurement of its parts.

    `langchain_invoke` is `.ainvoke(messages)` on the runnable the judge itself uses for the
    schema (`ModelCalls.structured_runnable`: the schema bound as a forced tool on a model with
    LangChain's default structured output), so it counts LangChain's callbacks, tool binding and
    message plumbing plus the fake's own `_agenerate`; `fake_reply` is the fake building its
    answer, so LangChain's own share is the difference. `build_structured_runnable` is what
    building that runnable costs; the judge builds it once per schema, so it is not part of an
    evaluation. What is left of the total is rubricate's own code. `rubric_parse` is what an
    evaluation pays for its text rubric (`Rubric.parse` remembers recent texts);
    `rubric_parse_first_time` is parsing a text it has not seen.
    """
    # The judge's own steps, called one by one to time each: engine internals by design.
    from rubricate._judge import _prompts as prompts
    from rubricate._judge._answers import joint_schema, parse_joint
    from rubricate._judge._evidence import render_evidence
    from rubricate._judge._prompts import with_tail
    from rubricate._judge._suspects import find_suspect_passages
    from rubricate._judge._verdicts import summarize

    model = InstantJudgeModel()
    judge = Judge(model, mode="joint", retry=NO_RETRY)
    rubric, output = rubric_text(criteria), output_text(output_chars)
    parsed = Rubric.parse(rubric)
    labels = [f"C{i}" for i in range(1, criteria + 1)]
    schema = joint_schema(labels, allow_unscorable=True)
    evidence = Evidence(output=output, task=TASK, messages=())
    rendered = render_evidence(evidence, max_chars=judge.max_evidence_chars)
    request = prompts.JOINT_REQUEST.format(
        criteria="\n".join(
            f"{label}: {c.description}" for label, c in zip(labels, parsed, strict=True)
        ),
        unscorable=prompts.UNSCORABLE_OPTION,
        reason="",
    )
    messages = with_tail(
        [
            SystemMessage(judge.system_prompt),
            HumanMessage(prompts.EVIDENCE_PREAMBLE.format(evidence=rendered.text)),
        ],
        request,
    )
    runnable = judge._calls.structured_runnable(schema)
    assert runnable is not None
    first: Any = asyncio.run(runnable.ainvoke(messages))
    raw = first.tool_calls[0]["args"]
    evaluation = asyncio.run(judge.aevaluate(rubric, output=output, task=TASK))

    async def invoke_many() -> None:
        for _ in range(count):
            await runnable.ainvoke(messages)

    async def evaluate_many() -> None:
        for _ in range(count):
            await judge.aevaluate(rubric, output=output, task=TASK)

    def timed(coro_fn: Any) -> float:
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            asyncio.run(coro_fn())
            runs.append((time.perf_counter() - started) / count)
        return statistics.median(runs) * 1e6

    tool_kwargs: dict[str, Any] = {"tools": [schema]}
    variants = {
        "with_structured_output(include_raw=True)": runnable,
        "with_structured_output(include_raw=False)": model.with_structured_output(schema),
        "bind_tools([schema], tool_choice='any')": model.bind_tools([schema], tool_choice="any"),
        "model.ainvoke (no schema)": model,
    }

    def invoke_variant(bound: Any) -> Any:
        async def run() -> None:
            for _ in range(count):
                await bound.ainvoke(messages)

        return run

    async def agenerate_many() -> None:
        for _ in range(count):
            await model._agenerate(messages, **tool_kwargs)

    calls = {name: timed(invoke_variant(bound)) for name, bound in variants.items()}
    calls["model._agenerate (the fake alone)"] = timed(agenerate_many)
    parts = {
        "total_aevaluate": timed(evaluate_many),
        "langchain_invoke": timed(invoke_many),
        "fake_reply": _per_call(lambda: model.reply(tool_kwargs), count),
        "build_structured_runnable": _per_call(
            lambda: model.bind_tools([schema], tool_choice="any"), count
        ),
        "rubric_parse": _per_call(lambda: Rubric.parse(rubric), count),
        "rubric_parse_first_time": _per_call(lambda: Rubric.from_text(rubric), count),
        "render_evidence": _per_call(
            lambda: render_evidence(evidence, max_chars=judge.max_evidence_chars), count
        ),
        "joint_schema": _per_call(lambda: joint_schema(labels, allow_unscorable=True), count),
        "parse_joint": _per_call(lambda: parse_joint(raw, labels), count),
        "summarize": _per_call(lambda: summarize(evaluation.criteria), count),
        "injection_guard": _per_call(lambda: find_suspect_passages(output), count),
    }
    parts["langchain_own"] = parts["langchain_invoke"] - parts["fake_reply"]
    parts["rubricate_rest"] = parts["total_aevaluate"] - parts["langchain_invoke"]
    return {
        "parts": {key: round(value, 1) for key, value in parts.items()},
        "langchain_call_variants": {key: round(value, 1) for key, value in calls.items()},
    }


def _package(filename: str) -> str:
    path = filename.replace("\\", "/")
    if "/rubricate/testing/" in path:
        return "fake judge (rubricate.testing)"
    if "/rubricate/" in path:
        return "rubricate"
    if "site-packages/" in path:
        top = path.split("site-packages/", 1)[1].split("/", 1)[0]
        return "langchain" if top.startswith("langchain") else top.split(".")[0]
    if "/asyncio/" in path:
        return "asyncio"
    if filename.startswith("<") or filename == "~":
        return "builtins (C)"
    return "stdlib"


def profile_mode(
    judge: Judge, *, criteria: int, output_chars: int, evaluations: int
) -> dict[str, Any]:
    """Self time by package under cProfile, and the top functions by self time."""
    rubric, output = rubric_text(criteria), output_text(output_chars)
    asyncio.run(_evaluate_many(judge, rubric, output, 5))
    profiler = cProfile.Profile()
    profiler.enable()
    asyncio.run(_evaluate_many(judge, rubric, output, evaluations))
    profiler.disable()
    stats = pstats.Stats(profiler)
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for _, _, tt, _, _ in entries.values()) or 1.0
    by_package: dict[str, float] = {}
    functions = []
    for (filename, line, name), (_, calls, tt, _, _) in entries.items():
        package = _package(filename)
        by_package[package] = by_package.get(package, 0.0) + tt
        short = filename.split("site-packages/")[-1].split("/src/")[-1]
        functions.append(
            {
                "function": f"{short}:{line}({name})",
                "package": package,
                "calls_per_evaluation": round(calls / evaluations, 1),
                "self_share": round(tt / total, 4),
            }
        )
    functions.sort(key=lambda f: -f["self_share"])
    return {
        "evaluations": evaluations,
        "self_time_by_package": {
            k: round(v / total, 4) for k, v in sorted(by_package.items(), key=lambda kv: -kv[1])
        },
        "top_self_time": functions[:20],
        "note": "cProfile counts each resumption of a coroutine as a call; self time is exact, "
        "cumulative time of coroutines is not, so it is not used.",
    }


# -- 2. grade throughput with a 100 ms judge ---------------------------------------------------


async def _grade_once(
    directory: Path,
    *,
    jobs: int,
    items: int,
    latency_s: float,
    criteria: int,
    chars: int,
    jitter_s: float = 0.0,
) -> dict[str, Any]:
    name = f"grade-j{jobs}-{round(latency_s * 1000)}ms-{round(jitter_s * 1000)}jitter"
    source = directory / f"{name}.jsonl"
    write_jsonl(source, items, chars)
    model = InstantJudgeModel(latency_s=latency_s, jitter_s=jitter_s)
    judge = Judge(model, mode="joint", retry=NO_RETRY)
    started, cpu_started = time.perf_counter(), time.process_time()
    summary = await agrade_file(
        source,
        directory / f"{name}.results.jsonl",
        judge=judge,
        rubric=rubric_text(criteria),
        concurrency=jobs,
    )
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if summary.graded != items or summary.errors or summary.cache_hits:
        raise RuntimeError(f"-j {jobs}: unexpected summary {summary.to_dict()}")
    measured = items / wall
    row: dict[str, Any] = {
        "jobs": jobs,
        "items": items,
        "judge_latency_s": latency_s,
        "judge_jitter_s": jitter_s,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "cpu_ms_per_item": round(cpu / items * 1000, 3),
        "items_per_s": round(measured, 2),
    }
    if latency_s > 0:
        ideal = jobs / latency_s
        row["ideal_items_per_s"] = round(ideal, 2)
        row["ratio_of_ideal"] = round(measured / ideal, 4)
    return row


def measure_grade(
    directory: Path, *, rounds: int, latency_s: float, criteria: int, chars: int
) -> list[dict[str, Any]]:
    warm_up = directory / "warm-up"
    warm_up.mkdir()
    asyncio.run(
        _grade_once(warm_up, jobs=4, items=8, latency_s=0.0, criteria=criteria, chars=chars)
    )
    rows = []
    for jobs in JOBS:
        row = asyncio.run(
            _grade_once(
                directory,
                jobs=jobs,
                items=jobs * rounds,
                latency_s=latency_s,
                criteria=criteria,
                chars=chars,
            )
        )
        row["lockstep_model_ratio"] = round(
            lockstep_ratio(latency_s, jobs, row["cpu_s"] / row["items"]), 4
        )
        if jobs == JOBS[-1]:
            row["target_ratio"] = TARGET_RATIO_AT_32
            row["meets_target"] = row["ratio_of_ideal"] >= TARGET_RATIO_AT_32
        rows.append(row)
    jittered = asyncio.run(
        _grade_once(
            directory,
            jobs=JOBS[-1],
            items=JOBS[-1] * rounds,
            latency_s=latency_s,
            jitter_s=latency_s / 2,
            criteria=criteria,
            chars=chars,
        )
    )
    jittered["informational"] = "latency uniform in latency_s ± 50%, same mean; not the target row"
    rows.append(jittered)
    return rows


def lockstep_ratio(latency_s: float, jobs: int, cpu_s_per_item: float) -> float:
    """Ratio of ideal when `jobs` items share one core fairly and so finish their CPU together.

    Fixed-latency items then move in waves: every wave waits the latency, then `jobs` times the
    CPU an item needs. This is the expected ratio for a CPU cost per item, not a measurement.
    """
    return latency_s / (latency_s + jobs * cpu_s_per_item)


def measure_grade_ceiling(
    directory: Path, *, items: int, criteria: int, chars: int
) -> dict[str, Any]:
    """`grade` at -j 32 with an instant judge: the most items a second rubricate can push."""
    row = asyncio.run(
        _grade_once(
            directory, jobs=JOBS[-1], items=items, latency_s=0.0, criteria=criteria, chars=chars
        )
    )
    row["ms_per_item"] = round(row["wall_s"] / items * 1000, 3)
    return row


# -- 3. peak memory ----------------------------------------------------------------------------


def _rss_mb() -> dict[str, float]:
    """Current and peak RSS of this process, in MB (from /proc when there is one)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    current = float("nan")
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                current = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return {"rss_mb": round(current, 1), "peak_mb": round(peak, 1)}


def memory_child(source: Path, results: Path, jobs: int, criteria: int) -> None:
    """Runs in the child process: baseline RSS, then grade `source`, then peak RSS (JSON)."""
    judge = Judge(InstantJudgeModel(), mode="joint", retry=NO_RETRY)
    gc.collect()
    baseline = _rss_mb()
    started = time.perf_counter()
    summary = asyncio.run(
        agrade_file(source, results, judge=judge, rubric=rubric_text(criteria), concurrency=jobs)
    )
    after = _rss_mb()
    report = {
        "baseline": baseline,
        "after": after,
        "graded": summary.graded,
        "errors": summary.errors,
        "wall_s": round(time.perf_counter() - started, 2),
    }
    print(json.dumps(report))


def measure_memory(
    directory: Path, *, lines: int, jobs: int, criteria: int, chars: int
) -> dict[str, Any]:
    source = directory / "memory.jsonl"
    size = write_jsonl(source, lines, chars)
    results = directory / "memory.results.jsonl"
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--memory-child",
        str(source),
        str(results),
        str(jobs),
        str(criteria),
    ]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"the memory child failed:\n{completed.stderr}")
    child = json.loads(completed.stdout.strip().splitlines()[-1])
    children_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if child["graded"] != lines or child["errors"]:
        raise RuntimeError(f"the memory child graded {child['graded']} of {lines}: {child}")
    peak = child["after"]["peak_mb"]
    baseline = child["baseline"]["peak_mb"]
    return {
        "lines": lines,
        "input_mb": round(size / 2**20, 2),
        "results_mb": round(results.stat().st_size / 2**20, 2),
        "jobs": jobs,
        "wall_s": child["wall_s"],
        "baseline_mb": baseline,
        "peak_mb": peak,
        "growth_mb": round(peak - baseline, 1),
        "rusage_children_peak_mb": round(children_peak, 1),
        "target_peak_mb": TARGET_PEAK_MB,
        "meets_target": peak < TARGET_PEAK_MB,
    }


# -- report ------------------------------------------------------------------------------------


def print_tables(data: dict[str, Any], console: Console) -> None:
    table = Table(
        title=f"1. Verdict processing, instant judge, one core "
        f"(target {TARGET_CRITERIA_PER_S:,.0f} criteria/s)"
    )
    for column in ("Mode", "Calls/eval", "ms/eval", "Criteria/s", "per CPU-s", "Range", "Target"):
        table.add_column(column, justify="left" if column == "Mode" else "right")
    for row in data["throughput"]:
        table.add_row(
            row["mode"],
            str(row["model_calls_per_evaluation"]),
            f"{row['ms_per_evaluation']:.2f}",
            f"{row['criteria_per_s']:,.0f}",
            f"{row['criteria_per_cpu_s']:,.0f}" if row["criteria_per_cpu_s"] else "n/a",
            f"{row['worst_criteria_per_s']:,.0f}-{row['best_criteria_per_s']:,.0f}",
            "met" if row["meets_target"] else "MISSED",
        )
    console.print(table)

    parts = data["joint_breakdown_us"]["parts"]
    table = Table(title="Where one joint evaluation's time goes (µs, measured directly)")
    table.add_column("Part")
    table.add_column("µs", justify="right")
    table.add_column("Share", justify="right")
    total = parts["total_aevaluate"] or 1.0
    for key in (
        "total_aevaluate",
        "langchain_invoke",
        "langchain_own",
        "fake_reply",
        "build_structured_runnable",
        "rubricate_rest",
        "rubric_parse",
        "rubric_parse_first_time",
        "render_evidence",
        "joint_schema",
        "parse_joint",
        "summarize",
        "injection_guard",
    ):
        table.add_row(key, f"{parts[key]:,.1f}", f"{parts[key] / total:.0%}")
    console.print(table)

    table = Table(title="One structured call through LangChain, instant fake (µs a call)")
    table.add_column("Call")
    table.add_column("µs", justify="right")
    for name, micros in data["joint_breakdown_us"]["langchain_call_variants"].items():
        table.add_row(escape(name), f"{micros:,.1f}")
    console.print(table)

    for mode, profile in data["profile"].items():
        table = Table(title=f"cProfile self time by package ({mode})")
        table.add_column("Package")
        table.add_column("Share", justify="right")
        for package, share in profile["self_time_by_package"].items():
            table.add_row(package, f"{share:.1%}")
        console.print(table)

    table = Table(
        title=f"2. grade throughput, {data['grade'][0]['judge_latency_s'] * 1000:.0f} ms judge "
        f"(target >= {TARGET_RATIO_AT_32:.0%} of ideal at -j 32)"
    )
    columns = ("-j", "Latency", "Items", "Wall s", "CPU ms/item", "Items/s", "Ideal", "Ratio")
    for column in (*columns, "Lockstep model"):
        table.add_column(column, justify="right")
    for row in data["grade"]:
        ratio = f"{row['ratio_of_ideal']:.1%}"
        if "meets_target" in row:
            ratio += " met" if row["meets_target"] else " MISSED"
        latency = f"{row['judge_latency_s'] * 1000:.0f} ms"
        if row["judge_jitter_s"]:
            latency += f" ± {row['judge_jitter_s'] * 1000:.0f}"
        table.add_row(
            str(row["jobs"]),
            latency,
            str(row["items"]),
            f"{row['wall_s']:.2f}",
            f"{row['cpu_ms_per_item']:.2f}",
            f"{row['items_per_s']:.1f}",
            f"{row['ideal_items_per_s']:.0f}",
            ratio,
            f"{row['lockstep_model_ratio']:.1%}" if "lockstep_model_ratio" in row else "n/a",
        )
    console.print(table)
    ceiling = data["grade_ceiling"]
    console.print(
        f"grade ceiling, instant judge, -j {ceiling['jobs']}: {ceiling['items_per_s']:.1f} items/s "
        f"({ceiling['ms_per_item']:.2f} ms of rubricate + LangChain CPU an item, "
        f"{ceiling['items']} items)"
    )

    memory = data["memory"]
    table = Table(
        title=f"3. Peak memory grading {memory['lines']:,} lines "
        f"({memory['input_mb']} MB), instant judge, -j {memory['jobs']} "
        f"(target < {TARGET_PEAK_MB:.0f} MB)"
    )
    for column in ("Baseline MB", "Peak MB", "Growth MB", "Wall s", "Target"):
        table.add_column(column, justify="right")
    table.add_row(
        f"{memory['baseline_mb']:.1f}",
        f"{memory['peak_mb']:.1f}",
        f"{memory['growth_mb']:.1f}",
        f"{memory['wall_s']:.1f}",
        "met" if memory["meets_target"] else "MISSED",
    )
    console.print(table)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write results")
    parser.add_argument("--quick", action="store_true", help="tiny sizes (the smoke test)")
    parser.add_argument("--criteria", type=int, default=10, help="criteria per rubric")
    parser.add_argument("--output-chars", type=int, default=1500, help="graded output length")
    parser.add_argument("--evaluations", type=int, default=300, help="per timed repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=20, help="grade items per job slot")
    parser.add_argument("--latency", type=float, default=0.1, help="slow judge, seconds a call")
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

    console = Console(width=120)
    data: dict[str, Any] = {
        "machine": machine(),
        "versions": versions("rubricate", "langchain-core", "pydantic"),
        "commit": commit(),
        "settings": {
            "quick": args.quick,
            "criteria": args.criteria,
            "output_chars": args.output_chars,
            "evaluations": args.evaluations,
            "repeats": args.repeats,
            "rounds": args.rounds,
            "latency_s": args.latency,
            "memory_lines": args.memory_lines,
            "memory_jobs": args.memory_jobs,
            "command": " ".join([Path(sys.executable).name, *(sys.argv if argv is None else argv)]),
        },
    }
    started = time.perf_counter()
    data["throughput"] = measure_throughput(
        criteria=args.criteria,
        output_chars=args.output_chars,
        evaluations=args.evaluations,
        repeats=args.repeats,
    )
    data["joint_breakdown_us"] = decompose_joint(
        criteria=args.criteria, output_chars=args.output_chars, count=args.evaluations
    )
    data["profile"] = {
        mode: profile_mode(
            judge,
            criteria=args.criteria,
            output_chars=args.output_chars,
            evaluations=args.evaluations,
        )
        for mode, judge in _judges().items()
        if mode in ("joint", "per_criterion")
    }
    with tempfile.TemporaryDirectory(prefix="rubricate-overhead-") as tmp:
        data["grade"] = measure_grade(
            Path(tmp),
            rounds=args.rounds,
            latency_s=args.latency,
            criteria=args.criteria,
            chars=args.output_chars,
        )
        data["grade_ceiling"] = measure_grade_ceiling(
            Path(tmp), items=JOBS[-1] * args.rounds, criteria=args.criteria, chars=args.output_chars
        )
        data["memory"] = measure_memory(
            Path(tmp),
            lines=args.memory_lines,
            jobs=args.memory_jobs,
            criteria=args.criteria,
            chars=args.output_chars,
        )
    data["targets"] = {
        "criteria_per_s": {row["mode"]: row["meets_target"] for row in data["throughput"]},
        "grade_ratio_at_32": next(
            row["meets_target"] for row in data["grade"] if "meets_target" in row
        ),
        "peak_memory": data["memory"]["meets_target"],
    }
    data["wall_s"] = round(time.perf_counter() - started, 1)
    data["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print_tables(data, console)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    console.print(f"Wrote {args.json} ({data['wall_s']} s)")


if __name__ == "__main__":
    main()
