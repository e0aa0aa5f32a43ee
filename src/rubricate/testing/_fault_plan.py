"""What a faulty fake judge draws from and records: fault rates, provider-like errors, the ledger.

Split from `_faulty.py` (the fake models themselves) so each file holds one concern.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

__all__ = [
    "EXCEPTION_FAULTS",
    "APIConnectionError",
    "FaultRates",
    "Ledger",
    "ProviderHTTPError",
    "criterion_met",
    "fault_exception",
]

EXCEPTION_FAULTS = frozenset(
    {"timeout", "hang", "http_429", "http_500", "http_503", "http_400", "connection"}
)


class ProviderHTTPError(Exception):
    """An SDK-style HTTP error: the judge reads `status_code` to decide whether to retry."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code


class APIConnectionError(Exception):
    """Named like the OpenAI SDK's: transient by its class name, not by its base class."""


@dataclass(frozen=True)
class FaultRates:
    """Probability of each fault on one call; what is left over is an honest answer."""

    timeout: float = 0.03
    hang: float = 0.01
    """Sleeps past the judge's per-call timeout (needs `RetryPolicy(timeout=...)`)."""
    http_429: float = 0.04
    http_500: float = 0.03
    http_503: float = 0.02
    http_400: float = 0.002
    """Not transient: the judge must give up at once (`grader_error`)."""
    connection: float = 0.03
    garbage: float = 0.05
    truncated_json: float = 0.05
    missing: float = 0.05
    extra: float = 0.04
    renamed: float = 0.04
    contradictory: float = 0.05
    unscorable: float = 0.01
    """A valid `cannot_evaluate` verdict on one criterion (remote flavours only)."""

    def __post_init__(self) -> None:
        total = sum(getattr(self, f.name) for f in fields(self))
        if any(getattr(self, f.name) < 0 for f in fields(self)) or total > 1:
            raise ValueError(f"fault rates must be >= 0 and sum to at most 1, got {total}")

    @classmethod
    def none(cls) -> FaultRates:
        """An honest judge."""
        return cls(**{f.name: 0.0 for f in fields(cls)})

    @classmethod
    def only(cls, fault: str, rate: float = 1.0) -> FaultRates:
        """One fault at `rate`, nothing else."""
        return cls(**{f.name: (rate if f.name == fault else 0.0) for f in fields(cls)})

    def draw(self, rng: random.Random) -> str | None:
        """The fault for one call, or `None` for an honest answer."""
        roll = rng.random()
        for f in fields(self):
            roll -= getattr(self, f.name)
            if roll < 0:
                return f.name
        return None


@dataclass
class Ledger:
    """What one fake judge did: attempts, faults, and the verdicts it gave validly."""

    attempts: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    by_digest: Counter[str] = field(default_factory=Counter)
    """Attempts per distinct request: a repeat of the same request is a retry."""
    valid_passes: set[tuple[str, str]] = field(default_factory=set)
    """(output, criterion description) pairs the fake ever graded validly as `pass`."""

    @property
    def retries(self) -> int:
        """Attempts that repeated an earlier request."""
        return sum(n - 1 for n in self.by_digest.values())

    @property
    def max_attempts_per_request(self) -> int:
        """The most attempts any one request took."""
        return max(self.by_digest.values(), default=0)

    @property
    def requests(self) -> int:
        """Distinct requests (logical calls), retries not counted."""
        return len(self.by_digest)

    def truly_satisfied(self, output: str, required: Sequence[str]) -> bool:
        """Ground truth for `satisfied`.

        Every required criterion is met by `output` *and* was graded validly as `pass` by this
        judge for that output.
        """
        return all(criterion_met(output, c) and (output, c) in self.valid_passes for c in required)


def criterion_met(output: str, description: str) -> bool:
    """The ground truth: `Mentions <word>` is met when `<word>` is a word of `output`."""
    word = description.split()[-1].strip(".").lower()
    return word in re.findall(r"[a-z0-9]+", output.lower())


def fault_exception(fault: str, rng: random.Random, detail: str) -> BaseException:
    """The exception a provider SDK would raise for `fault`."""
    suffix = f" {detail}" if detail else ""
    if fault in ("timeout", "hang"):
        return TimeoutError(f"Request timed out.{suffix}")
    if fault == "connection":
        if rng.random() < 0.5:
            return ConnectionResetError(f"Connection reset by peer{suffix}")
        return APIConnectionError(f"Connection error.{suffix}")
    code = int(fault.removeprefix("http_"))
    text = {429: "Rate limit reached", 500: "Internal server error", 503: "Overloaded"}
    return ProviderHTTPError(code, f"Error code: {code} - {text.get(code, 'Bad request')}{suffix}")
