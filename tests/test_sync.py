"""`run_sync`: one loop per thread, kept open across calls, with nothing left running."""

from __future__ import annotations

import asyncio
import contextvars

from rubricate._sync import run_sync

VALUE: contextvars.ContextVar[int] = contextvars.ContextVar("VALUE", default=0)


async def running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


async def leave_a_task_behind() -> asyncio.Task[None]:
    return asyncio.ensure_future(asyncio.sleep(3600))


async def read_value() -> int:
    return VALUE.get()


def test_sync_calls_from_one_thread_share_one_open_loop() -> None:
    first, second = run_sync(running_loop()), run_sync(running_loop())
    assert first is second and not first.is_closed()


def test_a_task_left_running_is_cancelled_when_the_call_returns() -> None:
    task = run_sync(leave_a_task_behind())
    assert task.cancelled()


def test_each_call_sees_the_callers_context_of_that_moment() -> None:
    token = VALUE.set(1)
    try:
        assert run_sync(read_value()) == 1
        VALUE.set(2)
        assert run_sync(read_value()) == 2
    finally:
        VALUE.reset(token)


async def test_inside_a_running_loop_the_call_runs_in_a_helper_thread() -> None:
    VALUE.set(3)
    assert run_sync(read_value()) == 3
    assert run_sync(running_loop()) is not asyncio.get_running_loop()
