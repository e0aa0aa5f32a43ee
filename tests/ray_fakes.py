"""Judges for the Ray tests, built by module-level functions so that they pickle to actors.

Outputs holding `KILL:<path>` kill the actor's process the first time (the file at `<path>`
marks that it happened), like a node lost mid-batch; outputs holding `LEAK` make the provider
fail with an error that echoes an API key. `STREAMED:<results>` waits (a bounded time) until
the results file holds as many results as this actor process graded before it, and
`MEET:<folder>` until two actors have graded an item.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from grading_fakes import FAST, graded_output, keyword_reply
from rubricate import Judge, JudgeOptions, ModelError
from rubricate._ray._limiter import RequestSlots
from rubricate.testing import ScriptedChatModel

SECRET = "sk-test0123456789abcdefXYZ"
_KILL = re.compile(r"KILL:(\S+)")
_STREAMED = re.compile(r"STREAMED:(\S+)")
_MEET = re.compile(r"MEET:(\S+)")
WAIT_S = 30.0
"""How long `STREAMED` and `MEET` wait before failing the call (a test failure, not a hang)."""


def _wait_for(done: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting: {what}")
        time.sleep(0.05)


_graded_here: dict[Path, int] = {}
"""Per results file, the `STREAMED` items this process graded: Ray may run a pool's batches in
any order, so an item waits for as many results as came before it here, not for a given id."""


def _result_count(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
    return sum(line.endswith("\n") for line in lines)


class CountingSlots(RequestSlots):
    """The shared limiter, counting the slots it hands out."""

    def __init__(self, per_second: float) -> None:
        super().__init__(per_second)
        self.granted = 0

    def reserve(self, wait: bool = True) -> float:
        delay = super().reserve(wait)
        self.granted += delay >= 0
        return delay

    def count(self) -> int:
        return self.granted


def ray_reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    output = graded_output(messages)
    kill = _KILL.search(output)
    if kill is not None and not Path(kill.group(1)).exists():
        Path(kill.group(1)).touch()
        os._exit(1)  # the whole actor process dies, its batch unfinished
    streamed = _STREAMED.search(output)
    if streamed is not None:
        results = Path(streamed.group(1))
        before = _graded_here.get(results, 0)
        _wait_for(lambda: _result_count(results) >= before, f"{before} results in {results}")
        _graded_here[results] = before + 1
    meet = _MEET.search(output)
    if meet is not None:
        folder = Path(meet.group(1))
        (folder / str(os.getpid())).touch()  # one file per actor process that graded
        _wait_for(lambda: len(list(folder.iterdir())) >= 2, "a second actor")
    if "LEAK" in output:
        raise RuntimeError(f"401 Unauthorized (api_key={SECRET})")
    return keyword_reply(messages, kwargs)


def ray_judge() -> Judge:
    return Judge(ScriptedChatModel(script=[ray_reply], repeat_last=True), mode="joint", retry=FAST)


def cli_judge_factory(spec: str, options: JudgeOptions) -> Judge:
    return ray_judge()


def broken_judge() -> Judge:
    """Builds on the driver (where the test sets `RAY_FAKES_DRIVER`), fails in every actor."""
    if os.environ.get("RAY_FAKES_DRIVER") != "1":
        raise ModelError(f"cannot create model: bad key api_key={SECRET}")
    return ray_judge()
