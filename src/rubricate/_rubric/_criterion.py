"""A criterion: one yes/no question about the output, decided by the judge or by a check."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from .._exceptions import RubricError
from .._types import Evidence
from ..checks import Check

__all__ = ["CheckFn", "CheckResult", "Criterion", "slugify"]

CheckResult: TypeAlias = bool | tuple[bool, str]
"""What a code check returns: pass/fail, or pass/fail with the gap to report when it fails."""

CheckFn: TypeAlias = Callable[[Evidence], CheckResult | Awaitable[CheckResult]]
"""A criterion decided in Python: receives the evidence, never calls a model. May be async."""

_ID_MAX = 48


@dataclass(kw_only=True, frozen=True)
class Criterion:
    """One yes/no criterion of a rubric.

    Example:
        ```python
        Criterion(description="The answer cites a source", required=False)
        Criterion(description="Under 100 words", check=lambda ev: len(ev.output.split()) < 100)
        ```

    """

    description: str
    """What must be true of the output, phrased so that yes/no answers it."""
    id: str = ""
    """Stable id used to match verdicts; derived from the description when left empty."""
    required: bool = True
    """Only required criteria gate completion; optional ones are graded and reported."""
    check: CheckFn | None = field(default=None, compare=False)
    """Decide this criterion in Python instead of asking the judge."""

    def __post_init__(self) -> None:
        if not isinstance(self.description, str):
            raise RubricError(
                f"expected a string, got {type(self.description).__name__}", field="description"
            )
        description = " ".join(self.description.split())
        if not description:
            raise RubricError("a criterion needs a non-empty description", field="description")
        object.__setattr__(self, "description", description)
        if not isinstance(self.required, bool):
            raise RubricError(f"expected true or false, got {self.required!r}", field="required")
        if self.check is not None and not callable(self.check):
            raise RubricError(
                f"`check` must be a callable taking the evidence, got {type(self.check).__name__}",
                field="check",
            )
        if not isinstance(self.id, str):
            raise RubricError(f"expected a string, got {type(self.id).__name__}", field="id")
        object.__setattr__(self, "id", self.id.strip() or slugify(description))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (a `check` is reported by name only)."""
        data: dict[str, Any] = {
            "id": self.id,
            "description": self.description,
            "required": self.required,
        }
        if isinstance(self.check, Check):
            data["check"] = self.check.to_spec()  # reads back with `Rubric.from_data`
        elif self.check is not None:
            data["check"] = getattr(self.check, "__name__", type(self.check).__name__)
        return data


def slugify(text: str) -> str:
    """A short, stable, readable id from a description: lowercase ASCII words joined by dashes."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > _ID_MAX:
            break
        slug = candidate
    return slug or "criterion"
