"""Running the async core from synchronous code.

Async is the source of truth; every sync entry point is a thin wrapper over its `a*` twin.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` to completion from sync code, even when an event loop is already running.

    Inside a running loop (Jupyter, an async framework calling sync code) the coroutine runs on
    a fresh loop in a helper thread, with the caller's context variables.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    outcome: dict[str, Any] = {}
    context = contextvars.copy_context()

    def target() -> None:
        try:
            outcome["value"] = context.run(asyncio.run, coro)
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="rubricate-run-sync", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]
