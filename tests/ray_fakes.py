"""Judges for the Ray tests, built by module-level functions so that they pickle to actors.

Outputs holding `KILL:<path>` kill the actor's process the first time (the file at `<path>`
marks that it happened), like a node lost mid-batch; outputs holding `LEAK` make the provider
fail with an error that echoes an API key.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from grading_fakes import FAST, graded_output, keyword_reply
from rubricate import Judge, JudgeOptions, ModelError
from rubricate.testing import ScriptedChatModel

SECRET = "sk-test0123456789abcdefXYZ"
_KILL = re.compile(r"KILL:(\S+)")


def ray_reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    output = graded_output(messages)
    kill = _KILL.search(output)
    if kill is not None and not Path(kill.group(1)).exists():
        Path(kill.group(1)).touch()
        os._exit(1)  # the whole actor process dies, its batch unfinished
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
