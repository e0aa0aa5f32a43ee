"""What the bench scripts share, so that each script holds only its own measurement.

Labelled data and its split, the judge under test, run metadata and resumable results,
and synthetic items; the harness that grades labelled items is `_labelled.py`.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel

from rubricate import Criterion, Judge, RetryPolicy, Rubric, resolve_chat_model

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
JUDGE_BENCH = ROOT.parent / "shared" / "judge-bench"
"""Where judge-bench sits beside a CI checkout; it is not part of the repository (`--data`)."""
BOOTSTRAP = 1000

# -- data ------------------------------------------------------------------------------------------

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")


def fitting_parser(
    description: str | None, data_help: str, *, checkpoint: Path, out: Path
) -> argparse.ArgumentParser:
    """The arguments of a script that fits a bar on dev files, with its default paths."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", nargs="+", type=Path, help=data_help)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--judge", default="local", help="the model (see _common.chat_model)")
    parser.add_argument("--checkpoint", type=Path, default=checkpoint)
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--fresh", action="store_true", help="grade again from the start")
    return parser


def refuse_test_files(parser: argparse.ArgumentParser, paths: Sequence[Path]) -> None:
    """Exit with a usage error if any of `paths` is a test split: a bar fitted there is a lie."""
    tests = [p.name for p in paths if p.name.startswith("test")]
    if tests:
        parser.error(f"{', '.join(tests)}: a test split; fit on dev files only")


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
        model = made_by(spec)
        if not isinstance(model, BaseChatModel):
            raise SystemExit(f"--judge {spec}: returned {type(model).__name__}, not a chat model")
        return model
    return resolve_chat_model(spec)


def made_by(spec: str) -> Any:
    """What the function `python:package.module.function` returns: a fake a test swaps in."""
    module, _, name = spec.removeprefix("python:").rpartition(".")
    return getattr(importlib.import_module(module), name)()


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


def grade_files(
    plan: Sequence[tuple[dict[str, Any], str]],
    checkpoint: Rows,
    grade: Callable[[dict[str, Any], str], dict[str, Any]],
) -> list[dict[str, Any]]:
    """Grade each `(item, file)` of `plan` not yet in `checkpoint`; every row, in plan order.

    `checkpoint` keys its rows by `(file, id)` and each row has its `seconds`; progress is
    printed one line an item, so an interrupted run resumes where it stopped.
    """
    for number, (item, file) in enumerate(plan, start=1):
        if (file, item["id"]) not in checkpoint.done:
            row = checkpoint.add(grade(item, file))
            print(f"[{number}/{len(plan)}] {item['id']}: {row['seconds']:.1f} s", flush=True)
    return [checkpoint.done[file, item["id"]] for item, file in plan]


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
