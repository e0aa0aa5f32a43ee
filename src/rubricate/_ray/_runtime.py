"""Ray, imported on first use so `import rubricate` works without the `ray` extra."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from .._exceptions import RubricateError
from .._redact import redact

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

    An already initialised Ray (a notebook, a test fixture) is used as is. Without `address`,
    `$RAY_ADDRESS` (set by `ray job submit`) names the cluster; with neither, a new local
    instance is started even if another runs on this machine, which `ray.init()` would join.
    Ray Data's own progress bars are turned off: the caller draws one.
    """
    ray = require_ray()
    ray.data.DataContext.get_current().enable_progress_bars = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)  # its per-run notices, above our bar
    if ray.is_initialized():
        yield
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    try:
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(address="local", include_dashboard=False, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise RubricateError(redact(_cannot_start(address, exc))) from exc
    try:
        yield
    finally:
        ray.shutdown()


def _cannot_start(address: str | None, exc: Exception) -> str:
    if not address:
        return f"cannot start a local Ray instance: {exc}"
    hint = (
        "; check the address (`ray status` on the head node prints it). If the cluster uses "
        "token authentication (which `ray start` sets up by default in recent Ray), this "
        "process needs RAY_AUTH_MODE=token and the cluster's token (`ray get-auth-token` on the "
        "head node; in RAY_AUTH_TOKEN or ~/.ray/auth_token). See docs/ray.md"
    )
    return f"cannot join the Ray cluster at {address!r}: {exc}{hint}"
