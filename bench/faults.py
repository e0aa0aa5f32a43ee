"""Fault injection: refine loops and scorer runs against a misbehaving judge (docs/reliability.md).

Every run grades through a seeded faulty fake from `rubricate.testing` (errors, hangs, garbage
answers) in one of five judge flavours; unhandled exceptions, false `satisfied` and false
criterion passes must all be 0, and retries stay within the policy's bounds.

    .venv/bin/python bench/faults.py                      # 1,000 loops + 1,000 scorer runs
    .venv/bin/python bench/faults.py --loops 100 --scorer-runs 100 --seed 7
    .venv/bin/python bench/faults.py --json bench/results/faults.json
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from _common import header, write_json
from rich.console import Console
from rich.table import Table

from rubricate import Budget, Judge, RetryPolicy, Rubric, create_rubric_scorer, refine
from rubricate.testing import (
    FaultRates,
    FaultyGrammarJudgeModel,
    FaultyJudgeModel,
    FaultyTextJudgeModel,
    Ledger,
    criterion_met,
)

NATO = """alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike
november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu"""
VOCAB = tuple(NATO.split())
FLAVOURS: tuple[tuple[str, str], ...] = (
    ("tools", "joint"),
    ("tools", "per_criterion"),
    ("text", "joint"),
    ("text", "per_criterion"),
    ("grammar", "per_criterion"),
)
_MODELS = {
    "tools": FaultyJudgeModel,
    "text": FaultyTextJudgeModel,
    "grammar": FaultyGrammarJudgeModel,
}
MAX_ITERATIONS = 3
POLICY = RetryPolicy(max_retries=3, initial_delay=0, max_delay=0, timeout=0.25)
_FAILING = re.compile(r"^- Mentions (\w+):", re.MULTILINE)


@dataclass
class RunOutcome:
    """One loop or scorer run, and what the checks found in it."""

    kind: str
    index: int
    flavour: str
    status: str
    criteria: int
    retries: int = 0
    attempts: int = 0
    max_attempts_per_request: int = 0
    requests: int = 0
    request_bound: int = 0
    usage_calls: int = 0
    false_satisfied: list[str] = field(default_factory=list)
    false_criterion_passes: list[str] = field(default_factory=list)
    unhandled: str | None = None
    faults: dict[str, int] = field(default_factory=dict)


@dataclass
class _Plan:
    flavour: str
    mode: str
    rubric: str
    required: list[str]
    words: list[str]
    first: list[str]


def _plan(rng: random.Random) -> _Plan:
    source, mode = rng.choice(FLAVOURS)
    words = rng.sample(VOCAB, rng.randint(1, 5))
    lines = [f"- {'(optional) ' if rng.random() < 0.2 else ''}Mentions {w}" for w in words]
    rubric = "\n".join(lines)
    required = [c.description for c in Rubric.parse(rubric).required]
    first = [w for w in words if rng.random() < 0.5]
    return _Plan(f"{source}/{mode}", mode, rubric, required, words, first)


def _model(plan: _Plan, seed: str, rates: FaultRates) -> Any:
    cls = _MODELS[plan.flavour.split("/")[0]]
    return cls(rates=rates, seed=zlib.crc32(seed.encode()), hang_s=2.0)


def _requests_per_evaluation(plan: _Plan) -> int:
    return 2 if plan.mode == "joint" else 2 * len(plan.words)


def _check_evaluation(
    outcome: RunOutcome,
    ledger: Ledger,
    draft: str,
    required: list[str],
    result: str,
    criteria: list[tuple[str, bool]],
    where: str,
) -> None:
    if result == "satisfied" and not ledger.truly_satisfied(draft, required):
        outcome.false_satisfied.append(f"{where}: {draft!r}")
    for name, passed in criteria:
        if passed and not (criterion_met(draft, name) and (draft, name) in ledger.valid_passes):
            outcome.false_criterion_passes.append(f"{where}: {name} on {draft!r}")


def _finish(outcome: RunOutcome, ledger: Ledger) -> RunOutcome:
    outcome.retries = ledger.retries
    outcome.attempts = ledger.attempts
    outcome.max_attempts_per_request = ledger.max_attempts_per_request
    outcome.requests = ledger.requests
    outcome.faults = dict(ledger.faults)
    return outcome


def loop_run(index: int, seed: int, rates: FaultRates, policy: RetryPolicy) -> RunOutcome:
    """One `refine` run: an agent that adds the words the feedback asks for."""
    rng = random.Random(f"{seed}|loop|{index}")
    plan = _plan(rng)
    model = _model(plan, f"{seed}|loop-judge|{index}", rates)
    drafts: list[str] = []
    words = list(plan.first)

    def agent(task: str, feedback: str | None) -> str:
        if feedback is not None:
            section = feedback.split("Criteria already met")[0]
            for word in _FAILING.findall(section):
                if word not in words and rng.random() < 0.8:
                    words.append(word)
        drafts.append(f"[run {index} draft {len(drafts)}] {' '.join(words)}".strip())
        return drafts[-1]

    budget = Budget(max_grader_calls=rng.randint(2, 8)) if rng.random() < 0.2 else None
    outcome = RunOutcome(
        kind="loop", index=index, flavour=plan.flavour, status="?", criteria=len(plan.words)
    )
    records: list[dict[str, Any]] = []
    try:
        result = refine(
            agent,
            f"Write a sentence for run {index}.",
            plan.rubric,
            judge=Judge(model, mode=plan.mode, retry=policy),  # type: ignore[arg-type]
            max_iterations=MAX_ITERATIONS,
            budget=budget,
            on_evaluation=lambda record: records.append(dict(record)),
        )
    except Exception as exc:
        outcome.unhandled = "".join(traceback.format_exception_only(exc)).strip()
        return _finish(outcome, model.ledger)
    outcome.status = str(result.status)
    if result.status == "satisfied" and not model.ledger.truly_satisfied(
        result.output, plan.required
    ):
        outcome.false_satisfied.append(f"run: {result.output!r}")
    for record in records:
        draft = drafts[record["iteration"]]
        criteria = [(c["name"], c["passed"]) for c in record["criteria"]]
        where = f"evaluation {record['iteration']}"
        _check_evaluation(
            outcome, model.ledger, draft, plan.required, record["result"], criteria, where
        )
        outcome.usage_calls += record["usage"]["calls"]
    outcome.request_bound = len(records) * _requests_per_evaluation(plan)
    return _finish(outcome, model.ledger)


async def scorer_run(index: int, seed: int, rates: FaultRates, policy: RetryPolicy) -> RunOutcome:
    """One `create_rubric_scorer(...).arun` on one draft."""
    rng = random.Random(f"{seed}|scorer|{index}")
    plan = _plan(rng)
    model = _model(plan, f"{seed}|scorer-judge|{index}", rates)
    draft = f"[run {index} draft 0] {' '.join(plan.first)}".strip()
    outcome = RunOutcome(
        kind="scorer", index=index, flavour=plan.flavour, status="?", criteria=len(plan.words)
    )
    try:
        scorer = create_rubric_scorer(model, plan.rubric, mode=plan.mode, retry=policy)  # type: ignore[arg-type]
        result = await scorer.arun(input=f"Write a sentence for run {index}.", output=draft)
    except Exception as exc:
        outcome.unhandled = "".join(traceback.format_exception_only(exc)).strip()
        return _finish(outcome, model.ledger)
    evaluation = result.evaluation
    outcome.status = evaluation.result
    if result.passed != (evaluation.result == "satisfied"):
        outcome.false_satisfied.append(f"passed={result.passed} but result={evaluation.result}")
    criteria = [(v.name, v.passed) for v in evaluation.criteria]
    _check_evaluation(
        outcome, model.ledger, draft, plan.required, evaluation.result, criteria, "scorer"
    )
    outcome.usage_calls = evaluation.usage.calls
    outcome.request_bound = _requests_per_evaluation(plan)
    return _finish(outcome, model.ledger)


async def _scorer_runs(
    count: int, seed: int, rates: FaultRates, policy: RetryPolicy, concurrency: int
) -> list[RunOutcome]:
    outcomes: list[RunOutcome] = []
    for start in range(0, count, concurrency):
        batch = range(start, min(count, start + concurrency))
        outcomes += await asyncio.gather(*(scorer_run(i, seed, rates, policy) for i in batch))
    return outcomes


CHECKS = {
    "unhandled": "Unhandled exceptions",
    "false_satisfied": "Runs with a false `satisfied`",
    "false_criterion_passes": "False criterion passes",
    "over_attempt_bound": "Runs with a request tried > {tries} times",
    "over_request_bound": "Runs over the request bound",
    "calls_unaccounted": "Runs whose usage.calls < attempts",
}
"""The figures that must be 0, and how the table names them."""


def run_harness(
    *, loops: int, scorer_runs: int, seed: int, policy: RetryPolicy, concurrency: int = 10
) -> dict[str, Any]:
    """Run `loops` refine runs and `scorer_runs` scorer runs; return the figures."""
    rates = FaultRates()
    started = time.perf_counter()
    outcomes = [loop_run(i, seed, rates, policy) for i in range(loops)]
    outcomes += asyncio.run(_scorer_runs(scorer_runs, seed, rates, policy, concurrency))
    wall = time.perf_counter() - started
    handled = [o for o in outcomes if o.unhandled is None]
    kinds = {kind: [o for o in outcomes if o.kind == kind] for kind in ("loop", "scorer")}

    def spread(values: list[int]) -> dict[str, float]:
        mean = round(statistics.fmean(values), 3) if values else 0.0
        return {"max": max(values, default=0), "mean": mean}

    faults: Counter[str] = Counter()
    by_flavour: dict[str, Counter[str]] = {}
    for o in outcomes:
        faults.update(o.faults)
        by_flavour.setdefault(o.flavour, Counter())[o.status] += 1
    problems = [
        f"{o.kind} {o.index} ({o.flavour}): {problem}"
        for o in outcomes
        for problem in [
            *([f"unhandled {o.unhandled}"] if o.unhandled else []),
            *(f"false satisfied {x}" for x in o.false_satisfied),
            *(f"false pass {x}" for x in o.false_criterion_passes),
        ]
    ]
    return {
        "loops": loops,
        "scorer_runs": scorer_runs,
        "seed": seed,
        "max_retries": policy.max_retries,
        "wall_s": round(wall, 2),
        "unhandled": len(outcomes) - len(handled),
        "false_satisfied": sum(bool(o.false_satisfied) for o in outcomes),
        "false_criterion_passes": sum(len(o.false_criterion_passes) for o in outcomes),
        "over_attempt_bound": sum(
            o.max_attempts_per_request > 1 + policy.max_retries for o in outcomes
        ),
        "over_request_bound": sum(o.requests > o.request_bound for o in handled),
        "calls_unaccounted": sum(o.usage_calls < o.attempts for o in handled),
        # Attempts the judge counted that timed out before the fake saw them (a busy loop).
        "calls_never_reaching_model": sum(max(o.usage_calls - o.attempts, 0) for o in handled),
        "statuses": {
            k: dict(Counter(o.status for o in runs).most_common()) for k, runs in kinds.items()
        },
        "retries": {k: spread([o.retries for o in runs]) for k, runs in kinds.items()},
        "attempts": {k: spread([o.attempts for o in runs]) for k, runs in kinds.items()},
        "faults_injected": dict(faults.most_common()),
        "by_flavour": {k: dict(v.most_common()) for k, v in sorted(by_flavour.items())},
        "examples": problems[:20],
    }


def render(report: dict[str, Any], console: Console) -> None:
    """Print the figures as tables."""
    checks = Table(
        title=f"Fault injection: {report['loops']:,} loops + {report['scorer_runs']:,} "
        f"scorer runs (seed {report['seed']}, {report['wall_s']} s)"
    )
    for column in ("Check", "Value", "Must be"):
        checks.add_column(column, justify="right" if column == "Value" else "left")
    for key, label in CHECKS.items():
        checks.add_row(label.format(tries=1 + report["max_retries"]), str(report[key]), "0")
    console.print(checks)
    runs = Table(title="Runs")
    for column in ("Kind", "Statuses", "Retries / run (max, mean)", "Attempts / run (max, mean)"):
        runs.add_column(column, justify="right" if "/" in column else "left")
    for kind, statuses in report["statuses"].items():
        r, a = report["retries"][kind], report["attempts"][kind]
        ended = ", ".join(f"{k} {v}" for k, v in statuses.items())
        runs.add_row(kind, ended, f"{r['max']:g}, {r['mean']:g}", f"{a['max']:g}, {a['mean']:g}")
    console.print(runs)
    if report["calls_never_reaching_model"]:
        console.print(
            f"{report['calls_never_reaching_model']} attempt(s) timed out before reaching the "
            "model (counted in usage.calls, not seen by the fake)."
        )
    faults = ", ".join(f"{k} {v:,}" for k, v in report["faults_injected"].items())
    console.print(f"Faults injected: {faults}")
    for example in report["examples"]:
        console.print(f"[red]{example}[/red]")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--loops", type=int, default=1000)
    parser.add_argument("--scorer-runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--timeout", type=float, default=POLICY.timeout, help="the judge's per-call timeout, s"
    )
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    policy = replace(POLICY, timeout=args.timeout)
    report = run_harness(
        loops=args.loops, scorer_runs=args.scorer_runs, seed=args.seed, policy=policy
    )
    render(report, Console())
    if args.json is not None:
        extra = {"rates": asdict(FaultRates()), "policy": asdict(policy)}
        write_json(args.json, {**header("faults.py", argv), **report, **extra})
    sys.exit(1 if any(report[key] for key in CHECKS) else 0)


if __name__ == "__main__":
    main()
