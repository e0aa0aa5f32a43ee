"""What the bench scripts share, so that each script holds only its own measurement.

Labelled data and its split, the judge under test, run metadata and resumable results,
synthetic items, and the harness that grades labelled items.

Scripts run as `python bench/<name>.py`, so `from _common import ...` needs no path line.
Labelled data is judge-bench JSONL: `{"id", "task", "output", "criteria": [{"id", "description",
"label"}]}`, one item a line (`label: true`: the output satisfies the criterion).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import os
import platform
import random
import shlex
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage

from rubricate import Criterion, Judge, RetryPolicy, Rubric, agreement_metrics, resolve_chat_model

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
JUDGE_BENCH = ROOT.parent / "shared" / "judge-bench"
"""Where judge-bench sits beside a CI checkout; it is not part of the repository (`--data`)."""
BOOTSTRAP = 1000

# -- data ------------------------------------------------------------------------------------------

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")


def split_of(item_id: str) -> Split:
    """The one rule that splits labelled data: `dev` (tuned on) or `test` (only ever measured).

    By the item id's sha256, so it needs no list of ids, is the same on every machine and for
    every script, and a new item falls on a fixed side the moment it gets an id.
    """
    return "dev" if hashlib.sha256(item_id.encode("utf-8")).digest()[0] < 128 else "test"


def select(items: Iterable[Mapping[str, Any]], split: str) -> list[Any]:
    """The items of `split` (`dev`, `test`, or `all`), in their original order."""
    return [item for item in items if split == "all" or split_of(str(item["id"])) == split]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every JSON line of `path`, blank lines skipped."""
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def sample(
    items: Sequence[dict[str, Any]], criteria: int, seed: int, skip: int = 0
) -> list[dict[str, Any]]:
    """Whole items in a seeded order until `criteria` criteria are reached.

    `skip` passes over the items that a sample of `skip` criteria with the same seed takes, so
    the result is disjoint from it: a held-out sample for figures first measured on that one.
    """
    order = list(items)
    random.Random(seed).shuffle(order)
    chosen: list[dict[str, Any]] = []
    passed = total = 0
    for item in order:
        if passed < skip:
            passed += len(item["criteria"])
            continue
        if total >= criteria:
            break
        chosen.append(item)
        total += len(item["criteria"])
    return chosen


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


def rubric_of(item: Mapping[str, Any]) -> Rubric:
    """The item's criteria as a rubric, with ids by position (`c1`...).

    Labelled items may repeat a criterion id (IFEval does).
    """
    return Rubric(
        tuple(
            Criterion(id=f"c{i}", description=c["description"])
            for i, c in enumerate(item["criteria"], start=1)
        )
    )


# -- the judge under test --------------------------------------------------------------------------


def chat_model(spec: str) -> BaseChatModel:
    """The chat model `--judge` names.

    Anything `resolve_chat_model` takes (`local`, `provider:model-id`...), or
    `python:package.module.function`: a function returning a chat model, such as a scripted
    fake from `rubricate.testing`, importable from `PYTHONPATH`.
    """
    if spec.startswith("python:"):
        module, _, name = spec.removeprefix("python:").rpartition(".")
        model = getattr(importlib.import_module(module), name)()
        if not isinstance(model, BaseChatModel):
            raise SystemExit(f"--judge {spec}: returned {type(model).__name__}, not a chat model")
        return model
    return resolve_chat_model(spec)


def name_of(model: BaseChatModel) -> str:
    """A readable name such as `openai:gpt-5-mini`, as evaluations report it."""
    return Judge(model).model_name


# -- run metadata ----------------------------------------------------------------------------------


def names_of(choices: Sequence[str]) -> Callable[[str], list[str]]:
    """An argparse type: a comma-separated list of some of `choices`."""

    def parse(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        if not names or set(names) - set(choices):
            raise argparse.ArgumentTypeError(f"name some of {', '.join(choices)}; got {names}")
        return names

    return parse


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


def machine() -> dict[str, Any]:
    """Platform, Python, CPUs, load, CPU model, memory and llama-cpp-python version."""
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    for key, path, name in (("cpu", "cpuinfo", "model name"), ("memory", "meminfo", "MemTotal")):
        with contextlib.suppress(OSError, StopIteration):
            lines = Path(f"/proc/{path}").read_text().splitlines()
            info[key] = next(line for line in lines if line.startswith(name)).split(":")[1].strip()
    info["llama_cpp_python"] = versions("llama-cpp-python")["llama-cpp-python"]
    return info


def header(script: str, argv: Sequence[str] | None) -> dict[str, Any]:
    """What every report opens with.

    The benchmark, the command that reproduces it, when, at which commit, on which machine.
    """
    args = argv if argv is not None else sys.argv[1:]
    return {
        "benchmark": script.removesuffix(".py"),
        "command": " ".join(shlex.quote(a) for a in (".venv/bin/python", f"bench/{script}", *args)),
        "date": now(),
        "commit": commit(),
        "machine": machine(),
    }


def versions(*packages: str) -> dict[str, str | None]:
    """The installed version of each package, `None` where it is missing."""

    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    return {name: version(name) for name in packages}


def now() -> str:
    """The date and time in UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_json(path: Path, data: Any) -> None:
    """`data` as indented JSON at `path`, its folder made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")


class Rows:
    """Finished rows of a run, appended as JSON lines beside its report so a rerun resumes.

    `key` names a row (its variant and item, say); rows already held are not graded again. A
    last line torn by an interruption is dropped. `fresh` starts over.
    """

    def __init__(
        self, path: Path, key: Callable[[dict[str, Any]], Any], *, fresh: bool = False
    ) -> None:
        self.path, self.key = path, key
        self.done: dict[Any, dict[str, Any]] = {}
        if fresh:
            path.unlink(missing_ok=True)
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue
                self.done[key(row)] = row
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in self.done.values()), "utf-8")

    def add(self, row: dict[str, Any]) -> dict[str, Any]:
        """Hold `row` and save it before the next one starts; returns it."""
        self.done[self.key(row)] = row
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        return row


# -- synthetic items: rubricate's own cost (overhead.py, ray_grade.py) ----------------------------

NO_RETRY = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0, timeout=None)

TASK = "Summarise the article below in a short paragraph for a general reader."
_WORDS = (
    "the council approved a new budget for public transport after a long debate about fares "
    "road repairs and the cost of electric buses while residents asked for more night services "
)


def rubric_text(criteria: int) -> str:
    return "\n".join(
        f"- The summary mentions point {i} of the article about the transport budget"
        for i in range(1, criteria + 1)
    )


def output_text(chars: int, salt: int = 0) -> str:
    text = f"Item {salt}. " + _WORDS * (chars // len(_WORDS) + 1)
    return text[:chars]


def write_jsonl(path: Path, lines: int, output_chars: int) -> int:
    """`lines` distinct items (no two are cache hits); returns the file size in bytes."""
    with path.open("w", encoding="utf-8") as handle:
        for i in range(lines):
            item = {"id": f"item-{i}", "task": TASK, "output": output_text(output_chars, i)}
            handle.write(json.dumps(item) + "\n")
    return path.stat().st_size


# -- grading labelled items ------------------------------------------------------------------------


class CallMeter(BaseCallbackHandler):
    """Counts chat-model calls, tokens and truncated answers on the shared model."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Start counting one item afresh."""
        self.calls = self.input_tokens = self.output_tokens = self.truncated = 0
        self.last_text = ""

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        """Count a call."""
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
                self.truncated += meta.get("finish_reason") == "length"
                if isinstance(message, AIMessage):
                    calls = message.tool_calls or message.invalid_tool_calls
                    self.last_text = (
                        json.dumps([dict(c) for c in calls], default=str)
                        if calls
                        else str(message.content)
                    )


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


def ours(model: BaseChatModel, mode: str, **options: Any) -> Grader:
    """Rubricate's judge in `mode`; `options` go to `Judge` (`compile_checks`, a retry policy)."""
    judge = Judge(model, mode=mode, **options)

    def grade(item: dict[str, Any]) -> tuple[list[bool | None], dict[str, Any]]:
        rubric = rubric_of(item)
        ids = [c.id for c in rubric]
        # Compiled first (cached, so `evaluate` makes no second compile call) to record why.
        mappings = judge.compile(rubric).mappings if judge.compile_checks else ()
        evaluation = judge.evaluate(rubric, output=item["output"], task=item["task"])
        if evaluation.result == "grader_error":
            return [None] * len(ids), {
                "result": "grader_error",
                "grader_error": True,
                "exception": evaluation.explanation[:500],
            }
        by_id = {v.id: v for v in evaluation.criteria}
        return [by_id[i].passed if i in by_id else None for i in ids], {
            "result": evaluation.result,
            "unverified": sum(v.unverified for v in evaluation.criteria),
            "by_check": sum(by_id[i].decided_by == "check" for i in ids if i in by_id),
            "mappings": [
                m.check.__name__ if m.check is not None else f"judge: {m.reason}" for m in mappings
            ],
        }

    return grade


def reference(model: BaseChatModel) -> Grader:
    """The reference: deepagents' `RubricMiddleware` grader on `model`, through `_grade`.

    Its rubric is the criteria as a `- ` checklist, its transcript `[user: task, assistant:
    output]`; its verdicts map back to the criteria by position, a criterion left out is missing.
    """
    from deepagents.middleware.rubric import RubricMiddleware

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the middleware is marked beta
        middleware = RubricMiddleware(model=model)

    def grade(item: dict[str, Any]) -> tuple[list[bool | None], dict[str, Any]]:
        state: dict[str, Any] = {
            "messages": [HumanMessage(item["task"]), AIMessage(item["output"])],
            "rubric": "\n".join(f"- {c['description']}" for c in item["criteria"]),
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


def run_variant(
    name: str,
    grader: Grader,
    items: Sequence[dict[str, Any]],
    meter: CallMeter,
    *,
    log: Callable[[str], None],
    checkpoint: Checkpoint | None = None,
) -> list[Outcome]:
    """Grade every item the checkpoint does not hold, saving each outcome as it finishes.

    An exception is recorded as a failure, never fatal; a criterion without a verdict counts
    as not satisfied, the verdict a loop would act on.
    """
    done = checkpoint.outcomes.get(name, {}) if checkpoint else {}
    outcomes: list[Outcome] = []
    if done:
        log(f"[{name}] {len(done)} of {len(items)} items taken from the checkpoint")
    for index, item in enumerate(items, start=1):
        if (previous := done.get(item["id"])) is not None:
            outcomes.append(previous)
            continue
        meter.reset()
        labels = [bool(c["label"]) for c in item["criteria"]]
        t0 = time.perf_counter()
        try:
            verdicts, extra = grader(item)
        except Exception as exc:
            verdicts = [None] * len(labels)
            extra = {"result": "exception", "exception": f"{type(exc).__name__}: {exc}"[:500]}
        wall = time.perf_counter() - t0
        grader_error = bool(extra.get("grader_error"))
        if grader_error:  # the judge's own explanation says what went wrong
            emitted = extra["exception"]
        else:  # what the model last emitted, for diagnosis
            emitted = meter.last_text if extra.get("exception") or name == "reference" else ""
        outcome = Outcome(
            item=item["id"],
            source=item["source"],
            labels=labels,
            verdicts=[bool(v) for v in verdicts],
            wall_s=wall,
            calls=meter.calls,
            input_tokens=meter.input_tokens,
            output_tokens=meter.output_tokens,
            truncated=meter.truncated,
            **{**extra, "exception": None if grader_error else extra.get("exception")},
            emitted=emitted[:800],
        )
        outcomes.append(outcome)
        if checkpoint is not None:
            checkpoint.record(name, outcome)
        agree = sum(v == lab for v, lab in zip(outcome.verdicts, labels, strict=True))
        log(
            f"[{name}] {index}/{len(items)} {item['id']}: {agree}/{len(labels)} agree, "
            f"{wall:.1f} s, {meter.calls} calls, {meter.output_tokens} out tok, {outcome.result}"
            + (f" ({outcome.exception})" if outcome.exception else "")
        )
    return outcomes


class Checkpoint(Rows):
    """Finished (variant, item) outcomes of one configuration, as `Rows`.

    The first row is the run's configuration; a checkpoint of another configuration is refused
    rather than mixed in. Later rows are one `Outcome` with its variant, or the start of a
    process that contributed (`segments`, with its commit).
    """

    def __init__(self, path: Path, config: dict[str, Any], *, fresh: bool) -> None:
        super().__init__(path, _checkpoint_key, fresh=fresh)
        rows = list(self.done.values())
        if not rows:
            self.add({"config": config})
        elif rows[0].get("config") != config:
            raise SystemExit(
                f"{path} is a checkpoint of another configuration ({rows[0].get('config')}); "
                "rerun with the same arguments to resume it, or pass --fresh to start over"
            )
        self.segments = [r["segment"] for r in rows if "segment" in r]
        self.segments.append({"started": now(), "commit": commit(), "n": len(self.segments)})
        self.add({"segment": self.segments[-1]})
        self.outcomes: dict[str, dict[str, Outcome]] = {}
        for row in rows:
            if "variant" in row:
                fields = {k: v for k, v in row.items() if k != "variant"}
                self.outcomes.setdefault(row["variant"], {})[row["item"]] = Outcome(**fields)

    def record(self, variant: str, outcome: Outcome) -> None:
        """Save one finished outcome before the next item starts."""
        self.add({"variant": variant, **outcome.__dict__})


def _checkpoint_key(row: dict[str, Any]) -> Any:
    if "variant" in row:
        return (row["variant"], row["item"])
    return ("segment", json.dumps(row["segment"])) if "segment" in row else ("config",)


def summarize(outcomes: Sequence[Outcome], seed: int) -> dict[str, Any]:
    """Agreement with the labels (kappa's interval resamples items), time, calls, failures."""
    labels = [lab for o in outcomes for lab in o.labels]
    verdicts = [v for o in outcomes for v in o.verdicts]
    clusters = [i for i, o in enumerate(outcomes) for _ in o.labels]
    n = len(labels)
    metrics = agreement_metrics(labels, verdicts, clusters, seed=seed).to_dict() if n else None
    wall = sum(o.wall_s for o in outcomes)
    calls = sum(o.calls for o in outcomes)
    return {
        "items": len(outcomes),
        "criteria": n,
        "metrics": metrics,
        "wall_s": round(wall, 3),
        "seconds_per_criterion": wall / n if n else None,
        "calls": calls,
        "calls_per_criterion": calls / n if n else None,
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
    """Paired bootstrap (over items) of balanced accuracy: `ours_` minus `ref`."""
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


def finished_by_all(results: Mapping[str, Sequence[Outcome]]) -> dict[str, list[Outcome]]:
    """Each variant's outcomes on the items every variant finished: like for like."""
    finished = [{o.item for o in outs} for outs in results.values()]
    common = set.intersection(*finished) if finished else set()
    return {name: [o for o in outs if o.item in common] for name, outs in results.items()}


def difference_text(diff: dict[str, Any] | None) -> str:
    """`balanced accuracy +0.120 [+0.050, +0.190]` from `balanced_accuracy_difference`."""
    if not diff:
        return "balanced accuracy difference undefined"
    ci = diff["ci95"]
    interval = f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else " [interval undefined]"
    return f"balanced accuracy {diff['difference']:+.3f}{interval}"


def fmt(value: float | None, digits: int = 3) -> str:
    """A figure for a table, `-` when undefined."""
    return "-" if value is None else f"{value:.{digits}f}"
