"""The one count check every count argument goes through: type errors apart from range errors."""

from __future__ import annotations

from typing import Any

import pytest

from rubricate import Budget, RetryPolicy
from rubricate._validation import check_count


@pytest.mark.parametrize("value", [True, False, 2.0, "3", None])
def test_a_value_that_is_not_an_int_is_a_type_error_naming_the_argument(value: Any) -> None:
    with pytest.raises(TypeError, match=rf"`jobs` must be an int >= 1, got {value!r}"):
        check_count("jobs", value)


def test_an_int_below_the_minimum_is_a_value_error_naming_the_argument() -> None:
    with pytest.raises(ValueError, match=r"`jobs` must be an int >= 1, got 0"):
        check_count("jobs", 0)
    with pytest.raises(ValueError, match=r"`retries` must be an int >= 0, got -1"):
        check_count("retries", -1, minimum=0)


def test_none_passes_only_where_it_is_allowed_and_the_message_says_so() -> None:
    check_count("limit", None, optional=True)
    check_count("limit", 1, optional=True)
    with pytest.raises(ValueError, match=r"`limit` must be an int >= 1 or None, got 0"):
        check_count("limit", 0, optional=True)


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: Budget(max_grader_calls=0), ValueError, "`max_grader_calls` must be an int >= 1"),
        (lambda: Budget(max_grader_tokens=1.5), TypeError, "`max_grader_tokens` must be an int"),
        (lambda: RetryPolicy(max_retries=-1), ValueError, "`max_retries` must be an int >= 0"),
        (lambda: RetryPolicy(max_retries=True), TypeError, "`max_retries` must be an int >= 0"),
    ],
)
def test_the_librarys_counts_go_through_it(
    build: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        build()
