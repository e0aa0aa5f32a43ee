"""Retries with backoff and a per-call timeout; where provider errors become `GraderError`.

Transient failures (timeouts, HTTP 408/409/429/5xx, dropped connections) are retried; anything
else (bad credentials, a bad request) fails at once, because retrying it only burns time.
`KeyboardInterrupt` and `asyncio.CancelledError` are never caught: they belong to the user.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from .._exceptions import GraderError
from .._redact import redact
from .._types import Evaluation, Mode
from .._validation import check_count

__all__ = [
    "RetryPolicy",
    "call_with_retries",
    "describe_error",
    "grader_error",
    "is_transient",
    "status_code_of",
]

T = TypeVar("T")

_TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
_TRANSIENT_NAMES = frozenset(
    {
        "APITimeoutError",
        "APIConnectionError",
        "RateLimitError",
        "InternalServerError",
        "ServiceUnavailableError",
        "OverloadedError",
        "TimeoutException",
        "ConnectTimeout",
        "ReadTimeout",
        "WriteTimeout",
        "PoolTimeout",
        "ConnectError",
        "ReadError",
        "RemoteProtocolError",
        "ServerDisconnectedError",
        "ClientConnectorError",
    }
)


@dataclass(kw_only=True, frozen=True)
class RetryPolicy:
    """How hard to try a judge call before reporting `grader_error`."""

    max_retries: int = 3
    """Retries after the first attempt, for transient errors only."""
    initial_delay: float = 0.5
    """Seconds before the first retry; doubles each time, with jitter."""
    max_delay: float = 8.0
    timeout: float | None = 120.0
    """Seconds allowed for one call; `None` for no limit (the embedded model's default)."""

    def __post_init__(self) -> None:
        check_count("max_retries", self.max_retries, minimum=0)
        for name in ("initial_delay", "max_delay"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"`{name}` must be a number of seconds, got {value!r}")
            if not 0 <= value < float("inf"):  # also rejects NaN
                raise ValueError(f"`{name}` must be a finite number >= 0, got {value!r}")
        if self.timeout is not None:
            if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)):
                raise TypeError(
                    f"`timeout` must be a number of seconds or None, got {self.timeout!r}"
                )
            if not self.timeout > 0:  # also rejects NaN
                raise ValueError(f"`timeout` must be > 0 seconds or None, got {self.timeout!r}")

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number `retry` (0-based): exponential, full jitter."""
        ceiling = min(self.max_delay, self.initial_delay * (2**retry))
        return random.uniform(ceiling / 2, ceiling) if ceiling > 0 else 0.0


def status_code_of(exc: BaseException) -> int | None:
    """The HTTP status code an exception carries, from any of the common provider SDKs."""
    for candidate in (exc, getattr(exc, "response", None)):
        for attr in ("status_code", "status", "http_status"):
            code = getattr(candidate, attr, None)
            if isinstance(code, int) and 100 <= code <= 599:
                return code
    return None


def is_transient(exc: BaseException) -> bool:
    """True for failures worth retrying: timeouts, rate limits, server errors, lost connections."""
    if isinstance(exc, (TimeoutError, ConnectionError)):
        return True
    code = status_code_of(exc)
    if code is not None:
        return code in _TRANSIENT_STATUS
    return any(cls.__name__ in _TRANSIENT_NAMES for cls in type(exc).__mro__)


def describe_error(exc: BaseException) -> str:
    """`RateLimitError (HTTP 429): message`, with credentials redacted."""
    code = status_code_of(exc)
    status = f" (HTTP {code})" if code is not None else ""
    message = str(exc).strip() or "no message"
    if isinstance(exc, TimeoutError) and message == "no message":
        message = "the call timed out"
    return redact(f"{type(exc).__name__}{status}: {message}")[:2000]


def grader_error(
    exc: BaseException, *, mode: Mode | None = None, model: str | None = None
) -> Evaluation:
    """An exception out of grading, recorded as a `grader_error` evaluation instead of raised.

    The one form for the loop and the batch commands: "Grader raised <type>: <message>", as
    deepagents words it, with credentials redacted.
    """
    return Evaluation(
        result="grader_error",
        explanation=f"Grader raised {describe_error(exc)}",
        mode=mode,
        model=model,
    )


async def call_with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    model: str | None,
    on_attempt: Callable[[], None] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    permanent: Callable[[BaseException], bool] | None = None,
) -> T:
    """Run `call` under `policy`; raise `GraderError` (from the last error) once it gives up.

    `on_attempt` is told about every attempt, so callers can count calls that failed too.
    `permanent` marks errors that look transient but are not worth a retry (a server that
    reports a request it cannot serve as HTTP 500).
    """
    attempt = 0
    while True:
        attempt += 1
        if on_attempt is not None:
            on_attempt()
        try:
            if policy.timeout is None:
                return await call()
            return await asyncio.wait_for(call(), policy.timeout)
        except Exception as exc:
            retryable = is_transient(exc) and not (permanent is not None and permanent(exc))
            if not retryable or attempt > policy.max_retries:
                tries = f"after {attempt} attempts" if attempt > 1 else "without retrying"
                raise GraderError(
                    f"The judge model {model or '(unnamed)'} failed {tries}: {describe_error(exc)}",
                    model=model,
                    attempts=attempt,
                    status_code=status_code_of(exc),
                ) from exc
            await sleep(policy.delay(attempt - 1))
