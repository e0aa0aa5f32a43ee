"""Retries, backoff, timeouts and the translation of provider errors into `GraderError`."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from rubricate import GraderError, RetryPolicy, RubricateError
from rubricate._judge._retry import call_with_retries, describe_error, is_transient, status_code_of


class APIError(Exception):
    """Shaped like an SDK error that carries the status code itself (OpenAI, Anthropic)."""

    def __init__(self, message: str, status_code: int) -> None:
        super().__init__(message)
        self.status_code = status_code


class Response:
    def __init__(self, status_code: int) -> None:
        self.status_code = status_code


class HTTPStatusError(Exception):
    """Shaped like `httpx.HTTPStatusError`: the code is on `.response`."""

    def __init__(self, message: str, status_code: int) -> None:
        super().__init__(message)
        self.response = Response(status_code)


class RateLimitError(Exception):
    """Known by name only, as when a provider SDK's class carries no status."""


class APIConnectionError(Exception):
    pass


class SDKConnectionError(APIConnectionError):
    pass


class Recorder:
    """A scripted async call plus an injected `sleep` and an `on_attempt` counter."""

    def __init__(self, *outcomes: Any) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0
        self.attempts = 0
        self.delays: list[float] = []

    async def call(self) -> Any:
        self.calls += 1
        outcome = self.outcomes.pop(0) if len(self.outcomes) > 1 else self.outcomes[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    async def sleep(self, seconds: float) -> None:
        self.delays.append(seconds)

    def on_attempt(self) -> None:
        self.attempts += 1

    async def run(self, policy: RetryPolicy, *, model: str | None = "judge-model") -> Any:
        return await call_with_retries(
            self.call, policy, model=model, on_attempt=self.on_attempt, sleep=self.sleep
        )


FAST = RetryPolicy(max_retries=3, initial_delay=0.5, max_delay=8.0, timeout=None)


# --- classification -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "exc",
    [
        TimeoutError(),
        ConnectionError("reset"),
        ConnectionResetError(),
        BrokenPipeError(),
        APIError("rate limited", 429),
        APIError("server error", 500),
        APIError("unavailable", 503),
        APIError("bad gateway", 502),
        APIError("overloaded", 529),
        APIError("request timeout", 408),
        HTTPStatusError("rate limited", 429),
        HTTPStatusError("unavailable", 503),
        RateLimitError("slow down"),
        SDKConnectionError("dns"),
    ],
    ids=repr,
)
def test_transient_errors(exc: BaseException) -> None:
    assert is_transient(exc) is True


@pytest.mark.parametrize(
    "exc",
    [
        APIError("bad request", 400),
        APIError("unauthorized", 401),
        APIError("forbidden", 403),
        APIError("not found", 404),
        APIError("unprocessable", 422),
        HTTPStatusError("unauthorized", 401),
        HTTPStatusError("bad request", 400),
        ValueError("bad value"),
        KeyError("x"),
        RuntimeError("boom"),
    ],
    ids=repr,
)
def test_non_transient_errors(exc: BaseException) -> None:
    assert is_transient(exc) is False


def test_a_status_code_outranks_a_transient_looking_name() -> None:
    error = RateLimitError("actually a bad request")
    error.status_code = 400  # type: ignore[attr-defined]
    assert is_transient(error) is False


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (APIError("x", 429), 429),
        (HTTPStatusError("x", 503), 503),
        (ValueError("x"), None),
        (APIError("x", 42), None),
        (APIError("x", True), None),  # type: ignore[arg-type]
        (APIError("x", "500"), None),  # type: ignore[arg-type]
    ],
)
def test_status_code_of(exc: BaseException, code: int | None) -> None:
    assert status_code_of(exc) == code


def test_status_code_of_reads_the_status_attribute_too() -> None:
    error = Exception("aiohttp-style")
    error.status = 502  # type: ignore[attr-defined]
    assert status_code_of(error) == 502
    assert is_transient(error) is True


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (APIError("slow down", 429), "APIError (HTTP 429): slow down"),
        (ValueError("  spaced  "), "ValueError: spaced"),
        (RuntimeError(), "RuntimeError: no message"),
        (TimeoutError(), "TimeoutError: the call timed out"),
        (HTTPStatusError("nope", 401), "HTTPStatusError (HTTP 401): nope"),
    ],
)
def test_describe_error(exc: BaseException, expected: str) -> None:
    assert describe_error(exc) == expected


def test_describe_error_redacts_and_caps_its_length() -> None:
    error = APIError("Incorrect API key provided: sk-live-0123456789abcdefXYZ " + "x" * 5000, 401)
    described = describe_error(error)
    assert "sk-live-0123456789abcdefXYZ" not in described
    assert described.startswith("APIError (HTTP 401): Incorrect API key provided: [REDACTED] ")
    assert len(described) == 2000


# --- call_with_retries --------------------------------------------------------------------------


async def test_success_on_the_first_attempt() -> None:
    recorder = Recorder("verdict")
    assert await recorder.run(FAST) == "verdict"
    assert (recorder.calls, recorder.attempts, recorder.delays) == (1, 1, [])


async def test_transient_errors_are_retried_until_success() -> None:
    recorder = Recorder(APIError("busy", 503), TimeoutError(), "verdict")
    assert await recorder.run(FAST) == "verdict"
    assert recorder.calls == 3
    assert recorder.attempts == 3
    assert len(recorder.delays) == 2


async def test_gives_up_after_max_retries_with_a_descriptive_grader_error() -> None:
    last = APIError("overloaded, try again", 503)
    recorder = Recorder(APIError("busy", 503), APIError("busy", 503), APIError("busy", 503), last)
    with pytest.raises(GraderError) as info:
        await recorder.run(RetryPolicy(max_retries=3, timeout=None), model="gpt-judge")
    error = info.value
    assert str(error) == (
        "The judge model gpt-judge failed after 4 attempts: "
        "APIError (HTTP 503): overloaded, try again"
    )
    assert (error.model, error.attempts, error.status_code) == ("gpt-judge", 4, 503)
    assert error.__cause__ is last
    assert isinstance(error, RubricateError)
    assert recorder.calls == recorder.attempts == 4
    assert len(recorder.delays) == 3


async def test_backoff_delays_grow_and_respect_max_delay() -> None:
    policy = RetryPolicy(max_retries=6, initial_delay=1.0, max_delay=4.0, timeout=None)
    for _ in range(20):  # the jitter is random: the bounds must hold on every run
        recorder = Recorder(ConnectionError("down"))
        with pytest.raises(GraderError):
            await recorder.run(policy)
        delays = recorder.delays
        assert len(delays) == 6
        ceilings = [1.0, 2.0, 4.0, 4.0, 4.0, 4.0]
        for delay, ceiling in zip(delays, ceilings, strict=True):
            assert ceiling / 2 <= delay <= ceiling
        assert delays[0] <= delays[1] <= delays[2]
        assert max(delays) <= policy.max_delay


def test_delay_is_zero_when_there_is_no_delay_to_wait() -> None:
    policy = RetryPolicy(initial_delay=0, max_delay=0)
    assert [policy.delay(n) for n in range(4)] == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("exc", "status"),
    [(APIError("invalid api key", 401), 401), (ValueError("bad schema"), None)],
)
async def test_non_transient_errors_fail_at_once(exc: BaseException, status: int | None) -> None:
    recorder = Recorder(exc)
    with pytest.raises(GraderError) as info:
        await recorder.run(FAST, model="claude-judge")
    assert recorder.calls == recorder.attempts == 1
    assert recorder.delays == []
    assert "claude-judge failed without retrying" in str(info.value)
    assert type(exc).__name__ in str(info.value)
    assert info.value.status_code == status
    assert info.value.attempts == 1
    assert info.value.__cause__ is exc


async def test_zero_retries_means_one_attempt() -> None:
    recorder = Recorder(APIError("busy", 429))
    with pytest.raises(GraderError, match=r"failed without retrying: APIError \(HTTP 429\)"):
        await recorder.run(RetryPolicy(max_retries=0, timeout=None))
    assert recorder.attempts == 1


async def test_unnamed_model() -> None:
    recorder = Recorder(ValueError("x"))
    with pytest.raises(GraderError, match=r"^The judge model \(unnamed\) failed") as info:
        await recorder.run(FAST, model=None)
    assert info.value.model is None


async def test_grader_error_redacts_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUBRICATE_TEST_API_KEY", "env-secret-!@#-value")
    error = APIError(
        "Invalid key sk-proj-abcdefghijklmnop0123 (header Authorization: Bearer tok.en-123456789;"
        " env-secret-!@#-value)",
        401,
    )
    recorder = Recorder(error)
    with pytest.raises(GraderError) as info:
        await recorder.run(FAST, model="gpt-judge")
    message = str(info.value)
    for secret in ("sk-proj-abcdefghijklmnop0123", "tok.en-123456789", "env-secret-!@#-value"):
        assert secret not in message
    assert "gpt-judge" in message
    assert "HTTP 401" in message


async def test_timeouts_count_as_transient() -> None:
    attempts = 0
    delays: list[float] = []

    async def hangs() -> str:
        await asyncio.sleep(10)
        return "never"

    def on_attempt() -> None:
        nonlocal attempts
        attempts += 1

    async def sleep(seconds: float) -> None:
        delays.append(seconds)

    policy = RetryPolicy(max_retries=2, initial_delay=0, timeout=0.01)
    with pytest.raises(GraderError) as info:
        await call_with_retries(
            hangs, policy, model="slow-judge", on_attempt=on_attempt, sleep=sleep
        )
    assert attempts == 3
    assert delays == [0.0, 0.0]
    assert str(info.value) == (
        "The judge model slow-judge failed after 3 attempts: TimeoutError: the call timed out"
    )
    assert isinstance(info.value.__cause__, TimeoutError)


async def test_a_slow_call_within_the_timeout_succeeds() -> None:
    async def slowish() -> str:
        await asyncio.sleep(0.01)
        return "done"

    policy = RetryPolicy(max_retries=0, timeout=5)
    assert await call_with_retries(slowish, policy, model="m") == "done"


@pytest.mark.parametrize("exc_type", [KeyboardInterrupt, asyncio.CancelledError])
async def test_interrupts_and_cancellation_propagate_untouched(
    exc_type: type[BaseException],
) -> None:
    raised = exc_type()
    recorder = Recorder(raised)
    with pytest.raises(exc_type) as info:
        await recorder.run(RetryPolicy(max_retries=3, timeout=None))
    assert info.value is raised
    assert recorder.attempts == 1
    assert recorder.delays == []


async def test_cancellation_propagates_through_the_timeout_wrapper() -> None:
    recorder = Recorder(asyncio.CancelledError())
    with pytest.raises(asyncio.CancelledError):
        await recorder.run(RetryPolicy(max_retries=3, timeout=5.0))
    assert recorder.attempts == 1
    assert recorder.delays == []


async def test_cancelling_the_task_while_it_backs_off_propagates() -> None:
    started = asyncio.Event()

    async def failing() -> str:
        raise ConnectionError("down")

    async def slow_sleep(seconds: float) -> None:
        started.set()
        await asyncio.sleep(10)

    task = asyncio.create_task(call_with_retries(failing, FAST, model="m", sleep=slow_sleep))
    await asyncio.wait_for(started.wait(), 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


# --- RetryPolicy validation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"max_retries": -1}, ValueError, "max_retries"),
        ({"max_retries": 1.5}, TypeError, "max_retries"),
        ({"max_retries": True}, TypeError, "max_retries"),
        ({"max_retries": "3"}, TypeError, "max_retries"),
        ({"timeout": 0}, ValueError, "timeout"),
        ({"timeout": -1.0}, ValueError, "timeout"),
        ({"timeout": math.nan}, ValueError, "timeout"),
        ({"timeout": "30"}, TypeError, "timeout"),
        ({"timeout": True}, TypeError, "timeout"),
        ({"initial_delay": -0.1}, ValueError, "initial_delay"),
        ({"initial_delay": math.inf}, ValueError, "initial_delay"),
        ({"initial_delay": "1"}, TypeError, "initial_delay"),
        ({"max_delay": -1}, ValueError, "max_delay"),
        ({"max_delay": math.nan}, ValueError, "max_delay"),
        ({"max_delay": None}, TypeError, "max_delay"),
    ],
)
def test_retry_policy_rejects_bad_values(
    kwargs: dict[str, Any], error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=rf"^`{name}` must be .*, got {kwargs[name]!r}$"):
        RetryPolicy(**kwargs)


def test_retry_policy_accepts_edge_values() -> None:
    policy = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0, timeout=None)
    assert (policy.max_retries, policy.timeout) == (0, None)
    assert RetryPolicy(timeout=math.inf).timeout == math.inf
    assert RetryPolicy() == RetryPolicy(
        max_retries=3, initial_delay=0.5, max_delay=8.0, timeout=120.0
    )


async def test_an_error_marked_permanent_is_not_retried_even_when_transient() -> None:
    rejected = APIError("1 validation error: response_format", 500)
    recorder = Recorder(rejected, "never reached")
    with pytest.raises(GraderError, match="without retrying") as info:
        await call_with_retries(
            recorder.call,
            FAST,
            model="m",
            sleep=recorder.sleep,
            permanent=lambda exc: "response_format" in str(exc),
        )
    assert info.value.__cause__ is rejected and info.value.status_code == 500
    assert recorder.calls == 1 and recorder.delays == []

    other = Recorder(APIError("overloaded", 500), "ok")
    result = await call_with_retries(
        other.call,
        FAST,
        model="m",
        sleep=other.sleep,
        permanent=lambda exc: "response_format" in str(exc),
    )
    assert result == "ok" and other.calls == 2
