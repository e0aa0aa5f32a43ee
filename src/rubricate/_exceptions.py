"""Every exception rubricate raises on purpose.

```
RubricateError                 root: catch this to catch them all
├── RubricError (ValueError)   a rubric that cannot be parsed or loaded; names the line or field
├── ModelError                 a judge model that cannot be created (unknown provider, no key...)
│   └── LocalModelError        the embedded model's weights are missing, corrupt or unloadable
├── GraderError                the judge failed after its retries (wrapped into `grader_error`)
└── CheckUndecided             a check cannot read this text its rule's way: the judge decides
```

Provider and LangChain exceptions are translated at one boundary (`rubricate._judge._retry`),
and the judge records a `GraderError` as an evaluation with result `grader_error` instead of
raising it.
"""

from __future__ import annotations

__all__ = [
    "CheckUndecided",
    "GraderError",
    "LocalModelError",
    "ModelError",
    "RubricError",
    "RubricateError",
]


class RubricateError(Exception):
    """Base class of every error rubricate raises on purpose."""


class RubricError(RubricateError, ValueError):
    """A rubric that cannot be parsed: the message names the source, line or field.

    Attributes:
        source: Where the rubric came from (a file path, or `None` for inline text and objects).
        line: 1-based line number in `source` or in the inline text, when known.
        field: Dotted path of the offending field, such as `criteria[2].required`, when known.
        reason: The message without the location, for re-raising with a fuller location.

    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.field = field
        self.reason = message
        if source is None:
            where = f"line {line}" if line is not None else ""
        else:
            where = f"{source}:{line}" if line is not None else source
        if field:
            where = f"{where}: {field}" if where else field
        super().__init__(f"{where}: {message}" if where else message)


class ModelError(RubricateError):
    """A judge model could not be created from what the user passed."""


class LocalModelError(ModelError):
    """The embedded model is missing, corrupt or unloadable; the message says how to fix it."""


class GraderError(RubricateError):
    """The judge model failed after every retry.

    Attributes:
        model: The judge model's name, as far as it is known.
        attempts: How many calls were made before giving up.
        status_code: The provider's HTTP status code, when the failure carried one.

    """

    def __init__(
        self,
        message: str,
        *,
        model: str | None = None,
        attempts: int = 1,
        status_code: int | None = None,
    ) -> None:
        self.model = model
        self.attempts = attempts
        self.status_code = status_code
        super().__init__(message)


class CheckUndecided(RubricateError):
    """A check cannot read this text the way its rule needs, so the judge grades the criterion.

    "Each tagline at most 6 words" of a reply whose taglines are neither list items nor
    labelled blocks: where one ends is a judgment, not a count. A check raises it (with the
    reason) rather than guess; the judge's verdict is then marked `unsure`.
    """
