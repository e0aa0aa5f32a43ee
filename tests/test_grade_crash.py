"""Crash and resume (issue 6, part 2) for `rubricate grade`: SIGKILL mid-file, rerun, every line
graded exactly once. (`refine`'s half is `test_refine.py`.)

The command runs in a child process, through a small launcher that builds the real typer app
with `create_app(judge_factory=...)` and a fake judge that takes a little time per item, so the
kill lands while items are in flight.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
ITEMS = 40
RUBRIC = "- Mentions Paris\n- Mentions France"

LAUNCHER = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {tests!r})
    from grading_fakes import FAST, KeywordJudge, keyword_model
    from rubricate import Judge
    from rubricate._cli import create_app

    class SlowJudge(KeywordJudge):
        def __call__(self, messages, kwargs):
            time.sleep({delay!r})
            return super().__call__(messages, kwargs)

    fake = SlowJudge()
    app = create_app(
        judge_factory=lambda spec, options: Judge(
            keyword_model(fake), **{{"mode": "joint", **options}}, retry=FAST
        )
    )
    try:
        app(sys.argv[1:], prog_name="rubricate")
    finally:
        print("GRADED", len(fake.outputs), file=sys.stderr)
    """
)


def launcher(tmp_path: Path, delay: float) -> Path:
    script = tmp_path / f"launch_{delay}.py"
    script.write_text(LAUNCHER.format(tests=str(TESTS), delay=delay))
    return script


def write_input(path: Path) -> list[Any]:
    ids: list[Any] = [n if n % 2 else f"item-{n}" for n in range(ITEMS)]
    rows = [{"id": i, "output": f"Paris, France, number {n}."} for n, i in enumerate(ids)]
    rows[5]["output"] = "Lyon only, number 5."  # one failing item, so results differ
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return ids


def command(script: Path, source: Path, results: Path, jobs: int) -> list[str]:
    return [sys.executable, str(script), "grade", str(source), "-r", RUBRIC, "-o", str(results),
            "-j", str(jobs)]  # fmt: skip


def whole_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def kill_mid_file(
    cmd: list[str], results: Path, after_lines: int
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    process = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    deadline = time.monotonic() + 120
    try:
        while whole_lines(results) < after_lines:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the child never got going"
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    return subprocess.CompletedProcess(cmd, process.returncode, stdout, stderr)


def result_rows(path: Path) -> tuple[list[dict[str, Any]], list[bytes]]:
    """The result lines that parse, and the raw lines that do not (torn writes)."""
    rows, torn = [], []
    for raw in path.read_bytes().splitlines():
        try:
            rows.append(json.loads(raw))
        except json.JSONDecodeError:
            torn.append(raw)
    return rows, torn


def rerun(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env)


def graded_by(process: subprocess.CompletedProcess[str]) -> int:
    line = next(x for x in process.stderr.splitlines() if x.startswith("GRADED "))
    return int(line.split()[1])


@pytest.mark.parametrize("jobs", [1, 4])
def test_grade_killed_mid_file_resumes_and_grades_every_line_exactly_once(
    tmp_path: Path, jobs: int
) -> None:
    source = tmp_path / "in.jsonl"
    results = tmp_path / "results.jsonl"
    ids = write_input(source)
    script = launcher(tmp_path, delay=0.05)

    crashed = kill_mid_file(command(script, source, results, jobs), results, after_lines=5)
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    saved, torn = result_rows(results)
    assert 5 <= len(saved) < ITEMS
    # One write per line, but Linux may cut a write at a page boundary when SIGKILL lands in
    # it: at most the last line is torn, and resume reports it and grades its item again.
    kept = results.read_bytes()
    assert kept.endswith(b"\n") if not torn else torn == [kept.rsplit(b"\n", 1)[-1]]

    resumed = rerun(command(script, source, results, jobs))
    assert resumed.returncode == 0, resumed.stderr
    rows, torn_after = result_rows(results)
    assert torn_after == torn  # the fragment stays where it was, the new lines start fresh
    assert rows[: len(saved)] == saved  # nothing recorded before the kill was lost or changed
    assert sorted(map(str, (r["id"] for r in rows))) == sorted(map(str, ids))  # exactly once
    assert len(rows) == ITEMS == len({json.dumps(r["id"]) for r in rows})
    assert graded_by(resumed) == ITEMS - len(saved)  # the rerun graded only what was missing
    assert all(r["error"] is None for r in rows)
    assert [r["passed"] for r in rows if r["id"] == 5] == [False]


def test_a_line_torn_by_the_kill_is_regraded_and_every_line_graded_once(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    results = tmp_path / "results.jsonl"
    ids = write_input(source)
    script = launcher(tmp_path, delay=0.02)
    crashed = kill_mid_file(command(script, source, results, 1), results, after_lines=6)
    assert crashed.returncode == -signal.SIGKILL
    # A kill in the middle of a write would leave part of a line: make one, as the OS could.
    data = results.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    torn_id = json.loads(data[last_start:])["id"]
    results.write_bytes(data[: last_start + 25])

    resumed = rerun(command(script, source, results, 1))
    assert resumed.returncode == 0, resumed.stderr
    assert "unreadable result, its item will be graded again" in " ".join(resumed.stderr.split())
    rows, torn = result_rows(results)
    assert len(torn) == 1 and len(torn[0]) == 25  # kept as it was, never glued to a new line
    assert sorted(map(str, (r["id"] for r in rows))) == sorted(map(str, ids))
    assert len(rows) == ITEMS
    assert [r["id"] for r in rows].count(torn_id) == 1  # the torn item has one whole line now
    # A third run finds everything done: it grades nothing and adds nothing.
    lines_before = results.read_bytes()
    again = rerun(command(script, source, results, 1))
    assert again.returncode == 0 and graded_by(again) == 0
    assert results.read_bytes() == lines_before
