"""The harness that grades labelled items with a judge and compares variants on them.

Shared by judge.py, remote.py and grammar.py: one grading call per item with its cost
(`CallMeter`, `Outcome`), resumable runs (`Checkpoint`), and the figures and differences
between variants on the items every variant finished.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import BOOTSTRAP, Rows, commit, now, rubric_of, write_json
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage

from rubricate import Judge, agreement_metrics


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
    """Finished (variant, item) outcomes of one configuration, as `Rows` beside the report.

    The first row is the run's configuration; a checkpoint of another configuration is refused
    rather than mixed in. Later rows are one `Outcome` with its variant, or the start of a
    process that contributed (`segments`, with its commit). `finish` writes the report and
    drops the checkpoint, so the next run starts afresh.
    """

    def __init__(
        self, out: Path, config: dict[str, Any], *, fresh: bool, log: Callable[[str], None]
    ) -> None:
        self.out = out
        super().__init__(out.with_suffix(".partial.jsonl"), _checkpoint_key, fresh=fresh)
        rows = list(self.done.values())
        if not rows:
            self.add({"config": config})
        elif rows[0].get("config") != config:
            raise SystemExit(
                f"{self.path} is a checkpoint of another configuration ({rows[0].get('config')}); "
                "rerun with the same arguments to resume it, or pass --fresh to start over"
            )
        self.segments = [r["segment"] for r in rows if "segment" in r]
        self.segments.append({"started": now(), "commit": commit(), "n": len(self.segments)})
        self.add({"segment": self.segments[-1]})
        if len(self.segments) > 1:
            log(f"resuming from {self.path} (pass --fresh to start over)")
        self.outcomes: dict[str, dict[str, Outcome]] = {}
        for row in rows:
            if "variant" in row:
                fields = {k: v for k, v in row.items() if k != "variant"}
                self.outcomes.setdefault(row["variant"], {})[row["item"]] = Outcome(**fields)

    def record(self, variant: str, outcome: Outcome) -> None:
        """Save one finished outcome before the next item starts."""
        self.add({"variant": variant, **outcome.__dict__})

    def finish(self, report: dict[str, Any]) -> None:
        """Write the finished run's `report` to `out` and drop the checkpoint."""
        write_json(self.out, report)
        self.path.unlink()


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
