"""Judge accuracy and speed on labelled data, side by side with the reference grader.

On a fixed-seed sample of `judge-bench` (whole items, drawn until each source reaches its number of
criteria), every variant grades the same items on the same chat model instance:

- `per_criterion`, `joint`: rubricate's `Judge` in that mode;
- `compiled`: `per_criterion` with `compile_checks=True`: the judge first maps each criterion to a
  catalogue check or to none (cached by criterion text for the run, as one long-lived judge
  would), and compiled criteria are decided in code. Its compile calls count in its time;
- `reference`: the grader of deepagents' own `RubricMiddleware`, driven through its real code
  path (`RubricMiddleware._grade`, i.e. its `create_agent(..., response_format=GraderResponse)`
  sub-agent and its `_grader_input` payload). Its rubric is the criteria as a `- ` checklist, its
  transcript `[user: task, assistant: output]`; its per-criterion verdicts are mapped back to the
  criteria by position, and a criterion it left out counts as not satisfied (reported as missing).

Every criterion without a verdict (exception, grader error, missing) counts as "not satisfied",
the verdict a loop would act on. Metrics come from `rubricate._batch._statistics.compute_metrics`
(kappa with a bootstrap interval over items). Model calls and tokens are counted by a callback on
the shared model, identically for every variant. Variants run one after the other (variant-major),
so each one's KV-cache reuse is its own; `--budget-s` stops a variant early, and then every
variant is scored on the items all variants finished.

A full run takes hours, so every finished (variant, item) is appended to a checkpoint next to
`--out` (`judge.partial.jsonl`). Run the same command again after an interruption and it picks up
where it stopped (times are per item, so a restart does not skew them); `--fresh` starts over. The
report records each process that contributed (`segments`) with its commit. The checkpoint is
removed once the report is written.

    .venv/bin/python bench/judge.py --realsumm 300 --ifeval 200 --judge local
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shlex
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import zip_longest
from pathlib import Path
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from rich.console import Console
from rich.table import Table

from rubricate import Criterion, Judge, Rubric
from rubricate._batch._statistics import compute_metrics
from rubricate._local import ChatLlamaCpp
from rubricate._models import ModelLike, model_name, resolve_chat_model

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "judge-bench"
"""Where judge-bench sits beside a CI checkout; it is not part of the repository (`--data`)."""
DEFAULT_OUT = ROOT / "bench" / "results" / "judge.json"
VARIANTS = ("per_criterion", "joint", "compiled", "reference")
SOURCES = ("realsumm", "ifeval")
BOOTSTRAP = 1000


# -- data ------------------------------------------------------------------------------------------


def missing_data(folder: Path, *files: str) -> str | None:
    """Why `folder` cannot serve as judge-bench (a message naming the option), or `None`."""
    absent = [name for name in files if not (folder / name).is_file()]
    if not absent:
        return None
    return (
        f"judge-bench data not found: {', '.join(str(folder / n) for n in absent)} "
        f"(judge-bench is not part of the repository; pass --data FOLDER holding "
        f"{' and '.join(files)}; tests/data/judge-bench has a four-item sample of each)"
    )


def sample_items(path: Path, criteria: int, seed: int, skip: int = 0) -> list[dict[str, Any]]:
    """Whole items in a seeded random order, until `criteria` criteria are reached.

    `skip` passes over the items that a sample of `skip` criteria with the same seed takes, so
    the result is disjoint from it: a held-out sample for figures first measured on that one.
    """
    if criteria <= 0:
        return []
    with path.open(encoding="utf-8") as handle:
        items = [json.loads(line) for line in handle if line.strip()]
    random.Random(seed).shuffle(items)
    chosen: list[dict[str, Any]] = []
    passed = total = 0
    for item in items:
        if passed < skip:
            passed += len(item["criteria"])
            continue
        if total >= criteria:
            break
        chosen.append(item)
        total += len(item["criteria"])
    return chosen


# -- metering --------------------------------------------------------------------------------------


class CallMeter(BaseCallbackHandler):
    """Counts chat-model calls, tokens and truncated answers on the shared model."""

    raise_error = True  # lets `max_calls` stop a runaway grader loop

    def __init__(self) -> None:
        self.max_calls: int | None = None
        self.reset()

    def reset(self) -> None:
        """Start counting one item afresh."""
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.truncated = 0
        self.last_text = ""

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        """Count a call; raise past the cap so a runaway grader loop ends."""
        if self.max_calls is not None and self.calls >= self.max_calls:
            raise CallCapReached(f"stopped by the harness after {self.calls} model calls")
        self.calls += 1

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        """Add the call's tokens; remember what the model emitted."""
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                usage = getattr(message, "usage_metadata", None) or {}
                self.input_tokens += int(usage.get("input_tokens") or 0)
                self.output_tokens += int(usage.get("output_tokens") or 0)
                meta = getattr(message, "response_metadata", None) or {}
                if meta.get("finish_reason") == "length":
                    self.truncated += 1
                if isinstance(message, AIMessage):
                    calls = message.tool_calls or message.invalid_tool_calls
                    self.last_text = (
                        json.dumps([dict(c) for c in calls], default=str)
                        if calls
                        else str(message.content)
                    )


class CallCapReached(RuntimeError):
    """The harness's per-item model-call cap was hit."""


# -- variants --------------------------------------------------------------------------------------


@dataclass
class Outcome:
    """One variant on one item."""

    item: str
    source: str
    labels: list[bool]
    verdicts: list[bool]
    wall_s: float
    calls: int
    input_tokens: int
    output_tokens: int
    truncated: int = 0
    result: str = ""
    exception: str | None = None
    grader_error: bool = False
    unverified: int = 0
    missing: int = 0
    extra: int = 0
    emitted: str = ""
    """On a failure: what the model last emitted (truncated), for diagnosis."""
    by_check: int = 0
    """Criteria decided in code (`compiled`: the ones compiled to a check)."""
    mappings: list[str] = field(default_factory=list)
    """`compiled`: per criterion, the check it compiled to or why it stayed with the judge."""


Grader = Callable[[dict[str, Any]], tuple[list[bool | None], dict[str, Any]]]


def ours(
    model: BaseChatModel, mode: str, *, compile_checks: bool = False, **options: Any
) -> Grader:
    """Rubricate's judge in `mode`; `options` go to `Judge` (a retry policy, say)."""
    judge = Judge(model, mode=mode, compile_checks=compile_checks, **options)  # type: ignore[arg-type]

    def grade(item: dict[str, Any]) -> tuple[list[bool | None], dict[str, Any]]:
        rubric = Rubric(
            tuple(
                Criterion(id=f"c{i}", description=c["description"])
                for i, c in enumerate(item["criteria"], start=1)
            )
        )
        # Compiled first (cached, so `evaluate` makes no second compile call) to record why.
        mappings = judge.compile(rubric).mappings if compile_checks else ()
        evaluation = judge.evaluate(rubric, output=item["output"], task=item["task"])
        if evaluation.result == "grader_error":
            return [None] * len(item["criteria"]), {
                "result": "grader_error",
                "grader_error": True,
                "exception": evaluation.explanation[:500],
            }
        by_id = {v.id: v for v in evaluation.criteria}
        verdicts: list[bool | None] = [
            by_id[f"c{i}"].passed if f"c{i}" in by_id else None
            for i in range(1, len(item["criteria"]) + 1)
        ]
        return verdicts, {
            "result": evaluation.result,
            "unverified": sum(v.unverified for v in evaluation.criteria),
            "by_check": sum(
                by_id[f"c{i}"].decided_by == "check"
                for i in range(1, len(item["criteria"]) + 1)
                if f"c{i}" in by_id
            ),
            "mappings": [
                m.check.__name__ if m.check is not None else f"judge: {m.reason}" for m in mappings
            ],
        }

    return grade


def reference(model: BaseChatModel) -> Grader:
    """The reference: deepagents' `RubricMiddleware` grader on `model`, through `_grade`."""
    from deepagents.middleware.rubric import RubricMiddleware

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the middleware is marked beta
        middleware = RubricMiddleware(model=model)

    def grade(item: dict[str, Any]) -> tuple[list[bool | None], dict[str, Any]]:
        rubric = "\n".join(f"- {c['description']}" for c in item["criteria"])
        state: dict[str, Any] = {
            "messages": [HumanMessage(item["task"]), AIMessage(item["output"])],
            "rubric": rubric,
        }
        graded = middleware._grade(state, 0)  # type: ignore[arg-type]
        n = len(item["criteria"])
        got = [bool(c["passed"]) for c in graded.criteria]
        verdicts: list[bool | None] = [*got[:n], *([None] * max(0, n - len(got)))]
        return verdicts, {
            "result": graded.result,
            "missing": max(0, n - len(got)),
            "extra": max(0, len(got) - n),
        }

    return grade


def make_graders(model: BaseChatModel, variants: Sequence[str]) -> dict[str, Grader]:
    graders: dict[str, Grader] = {}
    for variant in variants:
        if variant == "reference":
            graders[variant] = reference(model)
        elif variant == "compiled":
            graders[variant] = ours(model, "per_criterion", compile_checks=True)
        else:
            graders[variant] = ours(model, variant)
    return graders


def run_variant(
    name: str,
    grader: Grader,
    items: Sequence[dict[str, Any]],
    meter: CallMeter,
    *,
    budget_s: float | None,
    max_calls: int | None,
    log: Callable[[str], None],
    done: dict[str, Outcome] | None = None,
    record: Callable[[str, Outcome], None] | None = None,
) -> list[Outcome]:
    """Grade every item not in `done` (taken from a checkpoint); `record` saves each outcome."""
    done = done or {}
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    if done:
        log(f"[{name}] {len(done)} of {len(items)} items taken from the checkpoint")
    for index, item in enumerate(items, start=1):
        if (previous := done.get(item["id"])) is not None:
            outcomes.append(previous)
            continue
        if budget_s is not None and time.perf_counter() - started > budget_s:
            log(f"[{name}] budget of {budget_s:.0f} s spent: stopped after {index - 1} items")
            break
        meter.reset()
        meter.max_calls = max_calls
        labels = [bool(c["label"]) for c in item["criteria"]]
        t0 = time.perf_counter()
        extra: dict[str, Any] = {}
        try:
            verdicts, extra = grader(item)
        except Exception as exc:  # recorded as a failure, never fatal
            verdicts = [None] * len(labels)
            extra = {"result": "exception", "exception": f"{type(exc).__name__}: {exc}"[:500]}
        wall = time.perf_counter() - t0
        failed = bool(extra.get("exception"))
        outcome = Outcome(
            item=item["id"],
            source=item["source"],
            labels=labels,
            verdicts=[bool(v) for v in verdicts],  # no verdict counts as not satisfied
            wall_s=wall,
            calls=meter.calls,
            input_tokens=meter.input_tokens,
            output_tokens=meter.output_tokens,
            truncated=meter.truncated,
            result=str(extra.get("result", "")),
            exception=None if extra.get("grader_error") else extra.get("exception"),
            grader_error=bool(extra.get("grader_error")),
            unverified=int(extra.get("unverified", 0)),
            missing=int(extra.get("missing", 0)),
            extra=int(extra.get("extra", 0)),
            by_check=int(extra.get("by_check", 0)),
            mappings=list(extra.get("mappings", [])),
            emitted=meter.last_text[:800] if failed or name == "reference" else "",
        )
        if outcome.grader_error:
            outcome.exception = None
            outcome.emitted = (extra.get("exception") or "")[:800]
        outcomes.append(outcome)
        if record is not None:
            record(name, outcome)
        agree = sum(v == lab for v, lab in zip(outcome.verdicts, labels, strict=True))
        log(
            f"[{name}] {index}/{len(items)} {item['id']}: {agree}/{len(labels)} agree, "
            f"{wall:.1f} s, {meter.calls} calls, {meter.output_tokens} out tok, {outcome.result}"
            + (f" ({outcome.exception})" if outcome.exception else "")
        )
    meter.max_calls = None
    return outcomes


# -- checkpoint ------------------------------------------------------------------------------------


class Checkpoint:
    """Finished (variant, item) outcomes of one configuration, appended as JSON lines.

    The first line is the run's configuration; a checkpoint written for another configuration
    is refused rather than mixed in. Each later line is one `Outcome` with its variant.
    """

    def __init__(self, path: Path, config: dict[str, Any], *, fresh: bool) -> None:
        self.path = path
        self.done: dict[str, dict[str, Outcome]] = {}
        self.segments: list[dict[str, Any]] = []
        if fresh:
            path.unlink(missing_ok=True)
        if path.exists():
            self._load(config)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._append({"config": config})
        segment = {"started": datetime.now(UTC).isoformat(timespec="seconds"), "commit": commit()}
        self.segments.append(segment)
        self._append({"segment": segment})

    def _load(self, config: dict[str, Any]) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines()
        records = []
        for number, line in enumerate(lines, start=1):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                if number == len(lines):  # a line cut short by the interruption itself
                    break
                raise SystemExit(
                    f"{self.path}:{number}: not JSON ({exc}); pass --fresh to start over"
                ) from None
        if not records or records[0].get("config") != config:
            raise SystemExit(
                f"{self.path} is a checkpoint of another configuration "
                f"({records[0].get('config') if records else 'empty'}); "
                "rerun with the same arguments to resume it, or pass --fresh to start over"
            )
        for record in records[1:]:
            if "segment" in record:
                self.segments.append(record["segment"])
            elif "variant" in record:
                fields = {key: value for key, value in record.items() if key != "variant"}
                self.done.setdefault(record["variant"], {})[record["item"]] = Outcome(**fields)
        # Rewrite without a torn last line, so appends start on a line of their own.
        self.path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")

    def record(self, variant: str, outcome: Outcome) -> None:
        """Save one finished outcome before the next item starts."""
        self._append({"variant": variant, **outcome.__dict__})

    def _append(self, record: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, default=str) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def commit() -> str | None:
    """The checkout's commit (`-dirty` with uncommitted changes), or None outside git."""
    try:
        return subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


# -- summary ---------------------------------------------------------------------------------------


def summarize(outcomes: Sequence[Outcome], seed: int) -> dict[str, Any]:
    labels = [lab for o in outcomes for lab in o.labels]
    verdicts = [v for o in outcomes for v in o.verdicts]
    clusters = [i for i, o in enumerate(outcomes) for _ in o.labels]
    n = len(labels)
    metrics = compute_metrics(labels, verdicts, clusters, seed=seed).to_dict() if n else None
    wall = sum(o.wall_s for o in outcomes)
    return {
        "items": len(outcomes),
        "criteria": n,
        "metrics": metrics,
        "wall_s": round(wall, 3),
        "seconds_per_criterion": wall / n if n else None,
        "calls": sum(o.calls for o in outcomes),
        "calls_per_criterion": sum(o.calls for o in outcomes) / n if n else None,
        "input_tokens_per_criterion": sum(o.input_tokens for o in outcomes) / n if n else None,
        "output_tokens_per_criterion": sum(o.output_tokens for o in outcomes) / n if n else None,
        "decided_by_check": sum(o.by_check for o in outcomes),
        "failures": {
            "exceptions": sum(o.exception is not None for o in outcomes),
            "grader_errors": sum(o.grader_error for o in outcomes),
            "unverified_criteria": sum(o.unverified for o in outcomes),
            "missing_criteria": sum(o.missing for o in outcomes),
            "extra_criteria": sum(o.extra for o in outcomes),
            "truncated_answers": sum(o.truncated for o in outcomes),
        },
    }


def balanced_accuracy_difference(
    ours_: Sequence[Outcome], ref: Sequence[Outcome], seed: int
) -> dict[str, Any] | None:
    """Paired bootstrap (over items) of balanced accuracy: variant minus reference."""
    import numpy as np
    from sklearn.metrics import balanced_accuracy_score  # type: ignore[import-untyped]

    if not ours_ or len(ours_) != len(ref):
        return None

    def bal(indices: Sequence[int], side: Sequence[Outcome]) -> float | None:
        y = [lab for i in indices for lab in side[i].labels]
        p = [v for i in indices for v in side[i].verdicts]
        if all(y) or not any(y):
            return None
        return float(balanced_accuracy_score(y, p))

    everything = list(range(len(ours_)))
    a, b = bal(everything, ours_), bal(everything, ref)
    if a is None or b is None:
        return None
    rng = np.random.default_rng(seed)
    diffs = []
    for _ in range(BOOTSTRAP):
        picks = rng.integers(0, len(ours_), len(ours_)).tolist()
        x, y = bal(picks, ours_), bal(picks, ref)
        if x is not None and y is not None:
            diffs.append(x - y)
    interval = (
        [float(v) for v in np.quantile(diffs, [0.025, 0.975])]
        if len(diffs) >= BOOTSTRAP / 2
        else None
    )
    return {"difference": a - b, "ci95": interval, "resamples": len(diffs)}


def build_report(
    results: dict[str, list[Outcome]], seed: int, sample: dict[str, Any]
) -> dict[str, Any]:
    # Score every variant on the items all of them finished, so the comparison is like for like.
    finished = [{o.item for o in outs} for outs in results.values()]
    common = set.intersection(*finished) if finished else set()
    variants: dict[str, Any] = {}
    scored: dict[str, list[Outcome]] = {}
    for name, outs in results.items():
        kept = [o for o in outs if o.item in common]
        scored[name] = kept
        entry: dict[str, Any] = {"overall": summarize(kept, seed)}
        entry["per_source"] = {
            source: summarize([o for o in kept if o.source == source], seed)
            for source in SOURCES
            if any(o.source == source for o in kept)
        }
        entry["items"] = [o.__dict__ for o in outs]
        variants[name] = entry
    comparison: dict[str, Any] = {}
    if "reference" in scored:
        ref_summary = variants["reference"]["overall"]
        for name in scored:
            if name == "reference":
                continue
            speed = _ratio(ref_summary, variants[name]["overall"])
            comparison[name] = {
                "balanced_accuracy_minus_reference": balanced_accuracy_difference(
                    scored[name], scored["reference"], seed
                ),
                "reference_seconds_over_variant_seconds": speed,
                "per_source": {
                    source: {
                        "balanced_accuracy_minus_reference": balanced_accuracy_difference(
                            [o for o in scored[name] if o.source == source],
                            [o for o in scored["reference"] if o.source == source],
                            seed,
                        ),
                        "reference_seconds_over_variant_seconds": _ratio(
                            variants["reference"]["per_source"].get(source),
                            variants[name]["per_source"].get(source),
                        ),
                    }
                    for source in SOURCES
                    if source in variants[name]["per_source"]
                },
            }
    # What compiling buys: `compiled` against plain `per_criterion`, per source (ifeval is
    # where checks apply; realsumm is where content criteria must stay with the judge).
    compiled: dict[str, Any] = {}
    if "compiled" in scored and "per_criterion" in scored:
        for source in ("all", *SOURCES):
            pick = [i for i, o in enumerate(scored["compiled"]) if source in ("all", o.source)]
            if pick:
                compiled[source] = balanced_accuracy_difference(
                    [scored["compiled"][i] for i in pick],
                    [scored["per_criterion"][i] for i in pick],
                    seed,
                )
    return {
        "sample": {**sample, "items_scored": len(common)},
        "variants": variants,
        "against_reference": comparison,
        "compiled_minus_per_criterion": compiled,
    }


def _ratio(slower: dict[str, Any] | None, faster: dict[str, Any] | None) -> float | None:
    """`slower`'s seconds per criterion over `faster`'s, from two `summarize` entries."""
    a = (slower or {}).get("seconds_per_criterion")
    b = (faster or {}).get("seconds_per_criterion")
    return a / b if a and b else None


def rescore(path: Path, console: Console) -> dict[str, Any]:
    """Rebuild a report's metrics from the outcomes it holds.

    Hours of grading are not redone for a change to the scoring; the report records when it was
    rescored, and at which commit.
    """
    try:
        report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        results = {
            name: [Outcome(**outcome) for outcome in entry["items"]]
            for name, entry in report["variants"].items()
        }
        sample = {k: v for k, v in report["sample"].items() if k != "items_scored"}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"--rescore: {path} is not a bench/judge.py report: {exc}") from exc
    report.update(build_report(results, sample["seed"], sample))
    report["rescored"] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit(),
    }
    print_table(report, console)
    path.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    console.print(f"rescored {path}")
    return report


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_table(report: dict[str, Any], console: Console) -> None:
    table = Table(title="Judge accuracy and speed (same items, same model)")
    for column in (
        "variant",
        "source",
        "crit",
        "acc",
        "bal acc",
        "kappa [95% CI]",
        "s/crit",
        "calls/crit",
        "in tok/crit",
        "out tok/crit",
        "by check",
        "failures",
    ):
        table.add_column(column, justify="left" if column in ("variant", "source") else "right")
    for name, entry in report["variants"].items():
        rows = [("all", entry["overall"]), *entry["per_source"].items()]
        for source, s in rows:
            m = s["metrics"] or {}
            ci = m.get("kappa_ci95")
            kappa = _fmt(m.get("kappa"))
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
                _fmt(m.get("accuracy")),
                _fmt(m.get("balanced_accuracy")),
                kappa,
                _fmt(s["seconds_per_criterion"], 2),
                _fmt(s["calls_per_criterion"], 2),
                _fmt(s["input_tokens_per_criterion"], 0),
                _fmt(s["output_tokens_per_criterion"], 1),
                str(s["decided_by_check"]),
                failures,
            )
    console.print(table)
    for name, c in report["against_reference"].items():
        for source, figures in [("all", c), *c.get("per_source", {}).items()]:
            speed = figures["reference_seconds_over_variant_seconds"]
            text = f"{name} vs reference ({source}): "
            text += _difference(figures["balanced_accuracy_minus_reference"])
            text += f"; {speed:.1f}x less wall time per criterion" if speed else ""
            console.print(text)
    for source, diff in report["compiled_minus_per_criterion"].items():
        console.print(f"compiled vs per_criterion ({source}): " + _difference(diff))


def _difference(diff: dict[str, Any] | None) -> str:
    """`balanced accuracy +0.120 [+0.050, +0.190]` from `balanced_accuracy_difference`."""
    if not diff:
        return "balanced accuracy difference undefined"
    ci = diff["ci95"]
    interval = f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else " [interval undefined]"
    return f"balanced accuracy {diff['difference']:+.3f}{interval}"


# -- entry point -----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                info["memory"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import llama_cpp

        info["llama_cpp_python"] = llama_cpp.__version__
    except ImportError:
        pass
    return info


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="judge-bench folder")
    parser.add_argument("--realsumm", type=int, default=300, help="criteria from realsumm")
    parser.add_argument("--ifeval", type=int, default=200, help="criteria from ifeval")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--skip",
        type=int,
        default=0,
        help="pass over the items a sample of this many criteria (per source, same seed) takes, "
        "for a sample disjoint from an earlier run",
    )
    parser.add_argument("--judge", default="local", help="model for every variant")
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help=f"comma-separated, of {', '.join(VARIANTS)}"
    )
    parser.add_argument(
        "--budget-s", type=float, default=None, help="stop a variant after this many seconds"
    )
    parser.add_argument(
        "--reference-max-calls",
        type=int,
        default=None,
        help="stop the reference grader's agent loop after this many model calls on one item",
    )
    parser.add_argument(
        "--max-tokens",
        type=int,
        default=None,
        help="the embedded model's default answer cap, for every variant (library default: 512)",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="make no model call: recompute --out's metrics from the verdicts it holds, with "
        "this version of the scoring code",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="discard the checkpoint of an interrupted run instead of resuming it",
    )
    args = parser.parse_args(argv)
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = set(args.variants) - set(VARIANTS)
    if unknown or not args.variants:
        parser.error(f"--variants must name some of {', '.join(VARIANTS)}; got {args.variants}")
    if not args.rescore and (problem := missing_data(args.data, "realsumm.jsonl", "ifeval.jsonl")):
        parser.error(problem)
    return args


def main(argv: Sequence[str] | None = None, *, model: ModelLike | None = None) -> dict[str, Any]:
    """Run the benchmark; `model` (tests) overrides `--judge`. Returns the JSON report."""
    args = parse_args(argv)
    console = Console(width=160)
    if args.rescore:
        return rescore(args.out, console)
    # Sources alternate, so that a variant stopped by `--budget-s` still covers both.
    items = [
        item
        for pair in zip_longest(
            sample_items(args.data / "realsumm.jsonl", args.realsumm, args.seed, args.skip),
            sample_items(args.data / "ifeval.jsonl", args.ifeval, args.seed, args.skip),
        )
        for item in pair
        if item is not None
    ]
    chat_model = resolve_chat_model(model if model is not None else args.judge)
    if isinstance(chat_model, ChatLlamaCpp):
        if args.max_tokens is not None:
            chat_model.max_tokens = args.max_tokens
        chat_model.invoke("Say ok.", max_tokens=1)  # loads the weights outside the timings
    meter = CallMeter()
    chat_model.callbacks = [*(chat_model.callbacks or []), meter]  # type: ignore[misc]
    graders = make_graders(chat_model, args.variants)

    def log(text: str) -> None:
        console.print(text, highlight=False, markup=False)

    config = {
        "data": str(args.data),
        "seed": args.seed,
        **({"skip": args.skip} if args.skip else {}),  # absent at 0: older checkpoints resume
        "realsumm": args.realsumm,
        "ifeval": args.ifeval,
        "variants": args.variants,
        "model_name": model_name(chat_model),
        "max_tokens": getattr(chat_model, "max_tokens", None),
        "reference_max_calls": args.reference_max_calls,
    }
    checkpoint = Checkpoint(args.out.with_suffix(".partial.jsonl"), config, fresh=args.fresh)
    if len(checkpoint.segments) > 1:
        log(f"resuming from {checkpoint.path} (pass --fresh to start over)")
    started = time.perf_counter()
    results = {
        name: run_variant(
            name,
            grader,
            items,
            meter,
            budget_s=args.budget_s,
            max_calls=args.reference_max_calls if name == "reference" else None,
            log=log,
            done=checkpoint.done.get(name),
            record=checkpoint.record,
        )
        for name, grader in graders.items()
    }
    sample = {
        "data": str(args.data),
        "seed": args.seed,
        "requested_criteria": {"realsumm": args.realsumm, "ifeval": args.ifeval},
        "skipped_criteria": args.skip,
        "items": {s: sum(i["source"] == s for i in items) for s in SOURCES},
        "criteria": {
            s: sum(len(i["criteria"]) for i in items if i["source"] == s) for s in SOURCES
        },
        "budget_s": args.budget_s,
        "reference_max_calls_per_item": args.reference_max_calls,
    }
    report = {
        "benchmark": "judge",
        "command": " ".join(
            shlex.quote(a)
            for a in (
                ".venv/bin/python",
                "bench/judge.py",
                *(argv if argv is not None else sys.argv[1:]),
            )
        ),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "judge": args.judge if model is None else model_name(chat_model),
        "model_name": model_name(chat_model),
        "max_tokens": getattr(chat_model, "max_tokens", None),
        "variants_order": args.variants,
        "bootstrap": {"resamples": BOOTSTRAP, "unit": "item", "confidence": 0.95},
        "positive": (
            "the criterion is satisfied; a criterion without a verdict counts as not satisfied"
        ),
        "total_wall_s": round(time.perf_counter() - started, 1),
        "segments": checkpoint.segments,
        **build_report(results, args.seed, sample),
    }
    print_table(report, console)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    checkpoint.path.unlink()
    console.print(f"wrote {args.out}")
    return report


if __name__ == "__main__":
    main()
