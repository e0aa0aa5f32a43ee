"""Ray, imported on first use so `import rubricate` works without the `ray` extra."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from .._exceptions import RubricateError

__all__ = ["RAY_EXTRA_HINT", "ray_session", "require_ray"]

RAY_EXTRA_HINT = "pip install 'rubricate[ray]'"


def require_ray() -> ModuleType:
    """The `ray` module with Ray Data loaded, or a `RubricateError` saying how to install it."""
    try:
        import ray
        import ray.data
    except ImportError as exc:
        raise RubricateError(
            f"grading on Ray needs the `ray` extra: {RAY_EXTRA_HINT} ({exc})"
        ) from exc
    return ray


@contextmanager
def ray_session(address: str | None = None) -> Iterator[None]:
    """Join the cluster at `address`, or start a local Ray instance; stop only what we started.

    An already initialised Ray (a notebook, a test fixture, a job submitted to the cluster) is
    used as is. Ray Data's own progress bars are turned off: the caller draws one.
    """
    ray = require_ray()
    ray.data.DataContext.get_current().enable_progress_bars = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)  # its per-run notices, above our bar
    if ray.is_initialized():
        yield
        return
    if address:
        ray.init(address=address, logging_level=logging.WARNING)
    else:
        ray.init(include_dashboard=False, logging_level=logging.WARNING)
    try:
        yield
    finally:
        ray.shutdown()
