"""Credentials never survive `redact`, whatever shape they come in."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rubricate._redact import redact

MASK = "[REDACTED]"


@pytest.mark.parametrize(
    "name",
    ["MY_SERVICE_API_KEY", "my_apikey", "GITHUB_TOKEN", "DB_PASSWORD", "APP_SECRET_VALUE"],
)
def test_values_of_secret_looking_env_vars_are_masked_whatever_their_format(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    value = "zq9!custom~format/value:that-matches-no-pattern"
    monkeypatch.setenv(name, value)
    text = f"request failed: headers={{'X-Custom': '{value}'}} (retry later)"
    result = redact(text)
    assert value not in result
    assert "zq9" not in result
    assert result == f"request failed: headers={{'X-Custom': '{MASK}'}} (retry later)"


def test_values_of_ordinary_env_vars_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUBRICATE_TEST_MODEL_NAME", "gpt-imaginary-large")
    assert redact("model gpt-imaginary-large failed") == "model gpt-imaginary-large failed"


def test_a_secret_containing_another_secret_is_masked_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The shorter secret is set first, so it is seen first when walking the environment.
    monkeypatch.setenv("RUBRICATE_TEST_TOKEN", "prefix-0123456")
    monkeypatch.setenv("RUBRICATE_TEST_API_KEY", "prefix-0123456~and~more~secret~bits")
    result = redact("a prefix-0123456~and~more~secret~bits b prefix-0123456 c")
    assert result == f"a {MASK} b {MASK} c"


@pytest.mark.parametrize(
    ("text", "secret", "expected"),
    [
        (
            "Error code: 401 - Incorrect API key provided: sk-proj-AbC123dEf456GhI789jKl0.",
            "sk-proj-AbC123dEf456GhI789jKl0",
            f"Error code: 401 - Incorrect API key provided: {MASK}.",
        ),
        (
            "invalid x-api-key sk-ant-api03-abcdefghijklmnop_QRSTUV-wxyz",
            "sk-ant-api03-abcdefghijklmnop_QRSTUV-wxyz",
            f"invalid x-api-key {MASK}",
        ),
        (
            "headers: {'Authorization': 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'}",
            "eyJhbGciOiJIUzI1NiJ9",
            None,
        ),
        ("curl -H 'authorization: bearer abc.DEF-123_456~xyz'", "abc.DEF-123_456~xyz", None),
        (
            "GET /v1?api_key=plainsecret123 HTTP/1.1",
            "plainsecret123",
            f"GET /v1?api_key={MASK} HTTP/1.1",
        ),
        ("API-KEY: 9f8e7d6c5b4a", "9f8e7d6c5b4a", f"API-KEY: {MASK}"),
        ('{"api_key": "json-secret-value"}', "json-secret-value", f'{{"api_key": "{MASK}"}}'),
        ("{'apiKey': 'dict-secret-value'}", "dict-secret-value", f"{{'apiKey': '{MASK}'}}"),
        ("x-api-key: abcdef123456", "abcdef123456", None),
        ("OPENAI_API_KEY=totally-not-sk-shaped", "totally-not-sk-shaped", None),
        ("token=abcdef123456 expired", "abcdef123456", f"token={MASK} expired"),
        ("client secret: hunter2hunter2", "hunter2hunter2", None),
        ("aws AKIAIOSFODNN7EXAMPLE denied", "AKIAIOSFODNN7EXAMPLE", f"aws {MASK} denied"),
        ("gh ghp_" + "a1B2" * 9 + " rejected", "ghp_" + "a1B2" * 9, f"gh {MASK} rejected"),
        ("key=AIza" + "Sy" * 18, "AIza" + "Sy" * 18, None),
    ],
)
def test_common_key_shapes_are_masked(text: str, secret: str, expected: str | None) -> None:
    result = redact(text)
    assert secret not in result
    assert MASK in result
    if expected is not None:
        assert result == expected


@pytest.mark.parametrize(
    "text",
    [
        "The answer is 42.",
        "desk-organizer-2000-deluxe is in stock",
        "sk-short",
        "HTTP 429: rate limit reached for requests",
        "the token count was 1234",
    ],
)
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert redact(text) == text


_KEY_CHARS = string.ascii_letters + string.digits + "_-"
_context = st.text(st.characters(codec="ascii", exclude_categories=("Cc",)), max_size=40)


@settings(max_examples=100, deadline=None)
@given(
    before=_context,
    after=_context,
    key=st.text(st.sampled_from(_KEY_CHARS), min_size=20, max_size=60),
    form=st.sampled_from(["sk-{k}", "Bearer {k}", "api_key={k}", "Authorization: Bearer {k}"]),
)
def test_planted_keys_never_survive(before: str, after: str, key: str, form: str) -> None:
    assume(key not in before and key not in after)
    planted = form.format(k=key)
    result = redact(f"{before} {planted} {after}")
    assert planted not in result
    assert key not in result
