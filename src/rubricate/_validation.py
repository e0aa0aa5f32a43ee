"""The one check of a count argument (iterations, retries, jobs, actors, budgets).

Python's convention, everywhere in the library: a value of the wrong type (a bool, a float, a
string) is a `TypeError`, an int out of range a `ValueError`; both name the argument and what
was given.
"""

from __future__ import annotations

__all__ = ["check_count"]


def check_count(name: str, value: object, *, minimum: int = 1, optional: bool = False) -> None:
    """Raise unless `value` is an int >= `minimum` (or `None`, when `optional`).

    Raises:
        TypeError: `value` is not an int (`True` is not a count).
        ValueError: `value` is an int below `minimum`.

    """
    if optional and value is None:
        return
    allowed = f"an int >= {minimum}" + (" or None" if optional else "")
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"`{name}` must be {allowed}, got {value!r}")
    if value < minimum:
        raise ValueError(f"`{name}` must be {allowed}, got {value!r}")
