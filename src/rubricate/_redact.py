"""Keep credentials out of explanations, logs and reports.

Provider errors sometimes echo the request, headers included. Anything rubricate stores or shows
that came from an exception goes through `redact` first.
"""

from __future__ import annotations

import os
import re

__all__ = ["redact"]

_PATTERNS = (
    re.compile(r"\bsk-[A-Za-z0-9_\-]{12,}"),  # OpenAI, Anthropic (sk-ant-...), many proxies
    re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"),  # AWS access key ids
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b"),  # GitHub tokens
    re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}\b"),  # Google API keys
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-~+/]{8,}=*"),
    re.compile(
        r"(?i)((?:api[_-]?key|x-api-key|authorization|token|secret)[\"']?\s*[:=]\s*[\"']?)[^\s\"',}]{6,}"
    ),
)
_SECRET_ENV = re.compile(r"(?i)(api_?key|token|secret|password)")
_MASK = "[REDACTED]"


def redact(text: str) -> str:
    """Replace API keys and other credentials in `text` with `[REDACTED]`.

    Two nets: the values of environment variables whose names look secret (exact matches, so any
    key format is caught), and common key shapes for values that never were in the environment.
    """
    secrets = [v for k, v in os.environ.items() if len(v) >= 8 and _SECRET_ENV.search(k)]
    # Longest first, so a secret that contains another is masked whole, not left half-visible.
    for value in sorted(secrets, key=len, reverse=True):
        if value in text:
            text = text.replace(value, _MASK)
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + _MASK, text)
    return text
