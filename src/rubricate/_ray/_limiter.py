"""A request rate shared by every actor of a run: one small Ray actor hands out call slots.

A per-key rate limit is the provider's, not the process's: ten actors that each keep to 5
requests a second send 50. The limiter actor spaces slots `1 / rate` seconds apart across the
whole cluster; each judge's chat model asks it for a slot before every call (LangChain's
`rate_limiter` hook, so retries and per-criterion calls count too) and sleeps until its slot.
Only the limiter's own clock is read, so clock skew between machines does not matter.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from langchain_core.rate_limiters import BaseRateLimiter

from ._runtime import require_ray

__all__ = ["ClusterRateLimiter", "RequestSlots", "start_limiter"]


class RequestSlots:
    """The limiter actor's state: when the next request may start."""

    def __init__(self, per_second: float) -> None:
        self.interval = 1.0 / per_second
        self.next_slot = 0.0

    def reserve(self, wait: bool = True) -> float:
        """Take the next slot; return how long to sleep until it (-1: none free, `wait` off)."""
        now = time.monotonic()
        start = max(now, self.next_slot)
        if not wait and start > now:
            return -1.0
        self.next_slot = start + self.interval
        return start - now


class ClusterRateLimiter(BaseRateLimiter):
    """LangChain's rate-limiter hook, backed by the shared `RequestSlots` actor."""

    def __init__(self, slots: Any) -> None:
        self.slots = slots

    def acquire(self, *, blocking: bool = True) -> bool:
        """Wait for a slot (or take one only if free now, when not `blocking`)."""
        ray = require_ray()
        delay: float = ray.get(self.slots.reserve.remote(blocking))
        if delay < 0:
            return False
        time.sleep(delay)
        return True

    async def aacquire(self, *, blocking: bool = True) -> bool:
        """Async twin of `acquire`: the actor call and the sleep do not block the loop."""
        delay: float = await self.slots.reserve.remote(blocking)
        if delay < 0:
            return False
        await asyncio.sleep(delay)
        return True


def start_limiter(per_second: float) -> Any:
    """Start the shared limiter actor (no CPU reserved; restarted if its node dies)."""
    if not per_second > 0:
        raise ValueError(f"`requests_per_second` must be > 0, got {per_second!r}")
    ray = require_ray()
    actor = ray.remote(num_cpus=0, max_restarts=-1)(RequestSlots)
    return actor.remote(per_second)
