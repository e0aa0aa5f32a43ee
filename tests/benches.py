"""Running a `bench/` script as a user does, for the benchmarks' tests.

Tests never import a bench script: they run it in a subprocess on small data and check the JSON
it writes. `--judge python:bench_models.NAME` gives a script one of the scripted models of
`tests/bench_models.py` (the subprocess has tests/ on its path); with `calls=PATH` those models
write the tool names of every call they answer to PATH, one JSON list a line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
BENCH_DIR = TESTS.parent / "bench"
JUDGE_BENCH_SAMPLE = TESTS / "data" / "judge-bench"
"""Four labelled items of each judge-bench source, shipped in tests/data.

Bench tests need nothing outside the repository.
"""


def run_bench(
    script: str, *args: str | Path, calls: Path | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """`python bench/<script>.py ARGS` from the repository root; its output, whatever its code."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH")) if p)
    if calls is not None:
        env["BENCH_CALLS"] = str(calls)
    return subprocess.run(
        [sys.executable, str(BENCH_DIR / f"{script}.py"), *map(str, args)],
        cwd=BENCH_DIR.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def ran(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """`result`, after checking the script exited 0 (else its output is the failure message)."""
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def tool_calls(path: Path) -> list[list[str]]:
    """The tool names of each call the scripted models answered (`run_bench(calls=...)`)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_items(path: Path, items: list[dict[str, Any]]) -> Path:
    """`items` as a JSONL file at `path` (its folder made), for a bench script to read."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return path


def write_bold_items(path: Path, outputs: list[str]) -> Path:
    """Labelled format items, one per output, for the benches of form rules no check reads.

    Each has a form rule the grammar does not read ("Put the key term in bold"), a judgment
    call and a rule read in code, labelled from the output itself.
    """
    items = [
        {
            "id": f"{path.stem}-{n}",
            "task": "Write a tip.",
            "output": output,
            "criteria": [
                {"id": "c1", "description": "Put the key term in bold", "label": "**" in output},
                {"id": "c2", "description": "Sounds friendly", "label": True},
                {"id": "c3", "description": "No bullet points", "label": "- " not in output},
            ],
        }
        for n, output in enumerate(outputs)
    ]
    return write_items(path, items)
