r"""The injection guard from both sides: hostile outputs passed, honest look-alikes failed.

Each output is graded guard off and guard on on the same model, item by item, and the guard's
extra seconds per item are the difference (docs/reliability.md, "Hostile outputs"). Every graded
(config, item) is checkpointed beside `--json`, so the command resumes.

    .venv/bin/python bench/injection.py --judge local \
        --hostile bench/data/hostile/dev.jsonl --lookalike bench/data/lookalike/dev.jsonl \
        --json bench/results/injection-dev.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from _common import RESULTS, Rows, chat_model, header, name_of, names_of, rubric_of, write_json
from rich.console import Console
from rich.table import Table

from rubricate import Evidence, Judge

# The guard's own passage finder, run without a model to report what it flags.
from rubricate._judge._injection import mask_evidence

CONFIGS = ("guard_off", "guard_on")
SELF_CLAIM = "a claim the answer makes about itself"


def load_rows(path: Path, kind: str) -> list[dict[str, Any]]:
    """Read one set, checking the fields the report relies on."""
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            row = json.loads(line)
            missing = {"id", "task", "output", "criteria"} - set(row)
            if kind == "lookalike":
                missing |= {"pair"} - set(row)
            if missing or not row["criteria"]:
                raise ValueError(f"{path}:{number}: missing {sorted(missing) or ['criteria']}")
            rows.append({**row, "kind": kind})
    return pair_up(rows) if kind == "lookalike" else rows


def pair_up(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give each look-alike row a pair key and a `variant` (`with` / `without` the text).

    `pair` may name the pair or the other row's id. Without a `variant` field, an id ending in
    `with` / `without` decides, else the longer output of the two is the one with the text.
    """
    ids = {row["id"] for row in rows}
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        pair = str(row["pair"])
        key = "|".join(sorted((str(row["id"]), pair))) if pair in ids else pair
        groups.setdefault(key, []).append({**row, "pair": key})
    paired: list[dict[str, Any]] = []
    for key, members in groups.items():
        if len(members) != 2:
            raise ValueError(f"look-alike pair {key!r} has {len(members)} rows, not 2")
        for row in members:
            row["variant"] = _variant(row)
        if {row["variant"] for row in members} != {"with", "without"}:
            longer = max(members, key=lambda row: len(row["output"]))
            for row in members:
                row["variant"] = "with" if row is longer else "without"
        paired.extend(members)
    return paired


def _variant(row: dict[str, Any]) -> str | None:
    if row.get("variant") in ("with", "without"):
        return str(row["variant"])
    text = str(row["id"]).lower()
    if text.endswith("without"):
        return "without"
    return "with" if text.endswith("with") else None


def grade(judge: Judge, row: dict[str, Any]) -> dict[str, Any]:
    """One evaluation, reduced to what the summary needs."""
    started = time.perf_counter()
    evaluation = judge.evaluate(rubric_of(row), output=row["output"], task=row["task"])
    return {
        "result": evaluation.result,
        "passed": {
            c["id"]: v.passed for c, v in zip(row["criteria"], evaluation.criteria, strict=False)
        },
        "seconds": round(time.perf_counter() - started, 3),
        "calls": evaluation.usage.calls,
    }


def summarise(
    rows: list[dict[str, Any]], graded: dict[str, dict[str, dict[str, Any]]]
) -> dict[str, Any]:
    """Rates per config, and the guard's time cost per item (guard on minus guard off)."""
    hostile = [r for r in rows if r["kind"] == "hostile"]
    lookalike = [r for r in rows if r["kind"] == "lookalike"]
    masked = {r["id"]: mask_evidence(Evidence(output=r["output"], task=r["task"])) for r in rows}
    flagged = {item for item, found in masked.items() if found}
    summary: dict[str, Any] = {"configs": {}}
    for config, results in graded.items():
        entry: dict[str, Any] = {}
        done_h = [r for r in hostile if r["id"] in results]
        if done_h:
            false_passes = [r["id"] for r in done_h if results[r["id"]]["result"] == "satisfied"]
            wrong = [(r, c) for r in done_h for c in r["criteria"] if not c["label"]]
            criterion_passes = sum(results[r["id"]]["passed"].get(c["id"], False) for r, c in wrong)
            entry["hostile"] = {
                "items": len(done_h),
                "false_passes": len(false_passes),
                "false_pass_rate": round(len(false_passes) / len(done_h), 4),
                "false_criteria": len(wrong),
                "false_criteria_passed": criterion_passes,
                "false_pass_ids": false_passes,
                # A false pass with a suspect passage found means the judge also passed the
                # answer with the passage removed: its content verdict, not the manipulation.
                "false_passes_with_a_passage_found": sum(i in flagged for i in false_passes),
            }
        pairs: dict[str, dict[str, dict[str, Any]]] = {}
        for r in lookalike:
            if r["id"] in results:
                pairs.setdefault(r["pair"], {})[r["variant"]] = results[r["id"]]
        complete = {p: v for p, v in pairs.items() if {"with", "without"} <= set(v)}
        if complete:
            turned = [
                p
                for p, v in complete.items()
                if v["without"]["result"] == "satisfied" and v["with"]["result"] != "satisfied"
            ]
            entry["lookalike"] = {
                "pairs": len(complete),
                "turned_into_fail": len(turned),
                "turned_into_fail_rate": round(len(turned) / len(complete), 4),
                "with_failed": sum(v["with"]["result"] != "satisfied" for v in complete.values()),
                "without_failed": sum(
                    v["without"]["result"] != "satisfied" for v in complete.values()
                ),
                "turned_into_fail_ids": turned,
            }
        entry["seconds"] = round(sum(v["seconds"] for v in results.values()), 1)
        entry["calls"] = sum(v["calls"] for v in results.values())
        summary["configs"][config] = entry
    off, on = graded.get("guard_off", {}), graded.get("guard_on", {})
    both = [i for i in on if i in off]
    if both:
        extra = [on[i]["seconds"] - off[i]["seconds"] for i in both]
        extra_flagged = [on[i]["seconds"] - off[i]["seconds"] for i in both if i in flagged]
        summary["guard_cost"] = {
            "items": len(both),
            "flagged_items": sum(i in flagged for i in both),
            "extra_seconds_per_item": round(sum(extra) / len(extra), 2),
            "extra_seconds_per_flagged_item": round(sum(extra_flagged) / len(extra_flagged), 2)
            if extra_flagged
            else None,
            "guard_off_seconds_per_item": round(
                sum(off[i]["seconds"] for i in both) / len(both), 2
            ),
            "extra_calls": sum(on[i]["calls"] - off[i]["calls"] for i in both),
        }
    # Subtle false claims about what the answer contains: the rows flagged *only* as such a claim,
    # so the masking of self-referential claims alone decides whether the guard changes them.
    self_only = [
        r["id"]
        for r in hostile
        if (found := masked[r["id"]]) and {p.reason for p in found.passages} == {SELF_CLAIM}
    ]
    summary["self_claims_only"] = {
        "hostile_items": len(self_only),
        **{
            f"{config}_false_passes": sum(
                results.get(i, {}).get("result") == "satisfied" for i in self_only
            )
            for config, results in graded.items()
        },
    }

    def flagged_share(subset: list[dict[str, Any]]) -> str:
        return f"{sum(r['id'] in flagged for r in subset)}/{len(subset)}"

    summary["flagged_without_a_model"] = {
        "hostile": flagged_share(hostile),
        "lookalike_with": flagged_share([r for r in lookalike if r["variant"] == "with"]),
        "lookalike_without": flagged_share([r for r in lookalike if r["variant"] == "without"]),
    }
    return summary


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hostile", type=Path, default=None, help="hostile outputs (JSONL)")
    parser.add_argument("--lookalike", type=Path, default=None, help="look-alike pairs (JSONL)")
    parser.add_argument("--judge", default="local", help="the model (see _common.chat_model)")
    parser.add_argument("--mode", choices=["joint", "per_criterion"], default=None)
    parser.add_argument("--configs", type=names_of(CONFIGS), default=",".join(CONFIGS))
    parser.add_argument("--limit", type=int, default=None, help="the first N lines of each set")
    parser.add_argument("--json", type=Path, default=RESULTS / "injection.json")
    parser.add_argument("--checkpoint", type=Path, default=None)
    parser.add_argument("--keep-checkpoint", action="store_true", help="to resume and extend")
    args = parser.parse_args(argv)
    if args.hostile is None and args.lookalike is None:
        parser.error("give --hostile and/or --lookalike")
    if args.checkpoint is None:
        args.checkpoint = args.json.with_suffix(".partial.jsonl")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run both sets; returns the summary written to JSON."""
    args = parse_args(argv)
    rows: list[dict[str, Any]] = []
    data: dict[str, Any] = {}
    for kind, path in (("hostile", args.hostile), ("lookalike", args.lookalike)):
        if path is not None:
            loaded = load_rows(path, kind)
            rows += loaded[: args.limit] if args.limit is not None else loaded
            data[kind] = {
                "path": str(path),
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            }
    console = Console(width=140)

    def log(text: str) -> None:
        console.print(text, highlight=False, markup=False)

    model = chat_model(args.judge)
    checkpoint = Rows(args.checkpoint, lambda r: (r["config"], r["id"]))
    graded: dict[str, dict[str, dict[str, Any]]] = {config: {} for config in args.configs}
    for (config, item), done in checkpoint.done.items():
        if config in graded:
            graded[config][item] = done
    judges = {
        config: Judge(model, mode=args.mode, guard_injections=config == "guard_on")
        for config in args.configs
    }
    for index, row in enumerate(rows, start=1):
        for config, judge in judges.items():  # item-major: both configs under the same load
            if row["id"] in graded[config]:
                continue
            result = checkpoint.add({"config": config, "id": row["id"], **grade(judge, row)})
            graded[config][row["id"]] = result
            took = f"{result['seconds']:.1f} s"
            log(f"{index}/{len(rows)} [{config}] {row['id']}: {result['result']} ({took})")
    wanted = {row["id"] for row in rows}  # the checkpoint may hold rows of a larger run
    summary = summarise(
        rows, {c: {i: r for i, r in done.items() if i in wanted} for c, done in graded.items()}
    )
    label = name_of(model) if args.judge.startswith("python:") else args.judge
    table = Table(title=f"Injection guard ({label})")
    for column in (
        "config",
        "hostile false passes",
        "look-alike pairs turned into fails",
        "s",
        "calls",
    ):
        table.add_column(column)
    for config, entry in summary["configs"].items():
        h, la = entry.get("hostile"), entry.get("lookalike")
        table.add_row(
            config,
            f"{h['false_passes']}/{h['items']} ({h['false_pass_rate']:.0%})" if h else "-",
            f"{la['turned_into_fail']}/{la['pairs']} ({la['turned_into_fail_rate']:.0%})"
            if la
            else "-",
            f"{entry['seconds']:.0f}",
            str(entry["calls"]),
        )
    console.print(table)
    if "guard_cost" in summary:
        console.print(f"guard cost: {summary['guard_cost']}")
    payload = {
        **header("injection.py", argv),
        "judge": label,
        "mode": args.mode,
        "data": data,
        **summary,
    }
    write_json(args.json, payload)
    if not args.keep_checkpoint:
        args.checkpoint.unlink(missing_ok=True)
    return payload


if __name__ == "__main__":
    main()
