"""Running the async core from synchronous code, and a user's sync code from the async core.

Async is the source of truth; every sync entry point is a thin wrapper over its `a*` twin.

Sync calls made from one thread share one event loop, kept open between them. Async HTTP clients
pool their keep-alive connections per loop, and LangChain's OpenAI client is cached across chat
model instances: with a fresh loop per call (`asyncio.run`), the second sync grading through
`ChatOpenAI` reused a connection of the first, closed loop and failed with "Event loop is closed".
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import contextvars
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["run_in_thread", "run_sync"]

T = TypeVar("T")

_local = threading.local()


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` to completion from sync code, even when an event loop is already running.

    Without a running loop, the coroutine runs on this thread's own loop, which stays open for
    the next call, in a copy of the caller's context. Inside a running loop (Jupyter, an async
    framework calling sync code) it runs on a fresh loop in a helper thread, with the caller's
    context variables.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        runner = _thread_runner()
        try:
            return runner.run(coro, context=contextvars.copy_context())
        finally:
            _cancel_leftover_tasks(runner.get_loop())
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


def _cancel_leftover_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what the call left running, as `asyncio.run` does, but keep the loop open.

    Otherwise a task of an interrupted call (a grading worker after Ctrl-C) would wake up in the
    next one.
    """
    tasks = asyncio.all_tasks(loop)
    if not tasks:
        return
    for task in tasks:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))


def _thread_runner() -> asyncio.Runner:
    """The calling thread's runner, created on first use, closed with its thread or at exit."""
    runner: asyncio.Runner | None = getattr(_local, "runner", None)
    if runner is None:
        runner = asyncio.Runner()
        _local.runner = runner
        thread = threading.current_thread()
        if thread is threading.main_thread():
            atexit.register(runner.close)
        else:
            weakref.finalize(thread, runner.close)
    return runner


async def run_in_thread(fn: Callable[..., T], *args: Any) -> T:
    """Await `fn(*args)` run in a daemon thread, with the caller's context variables.

    Unlike `asyncio.to_thread`, a call given up on (its task cancelled, by Ctrl-C for instance)
    holds up neither the event loop's shutdown nor the interpreter's exit: a user's agent may
    take minutes to answer, and Ctrl-C must not wait for it.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    context = contextvars.copy_context()

    def settle(outcome: dict[str, Any]) -> None:
        if future.done():  # cancelled while the thread ran
            return
        if "error" in outcome:
            future.set_exception(outcome["error"])
        else:
            future.set_result(outcome["value"])

    def target() -> None:
        outcome: dict[str, Any] = {}
        try:
            outcome["value"] = context.run(fn, *args)
        except BaseException as exc:
            outcome["error"] = exc
        # A closed loop (RuntimeError) means nobody waits for this answer any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, outcome)

    threading.Thread(target=target, name="rubricate-run-in-thread", daemon=True).start()
    return await future
