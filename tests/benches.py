"""Loading a `bench/` script as a module, for the benchmarks' smoke tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH_DIR = Path(__file__).resolve().parents[1] / "bench"
JUDGE_BENCH_SAMPLE = Path(__file__).resolve().parent / "data" / "judge-bench"
"""Four labelled items of each judge-bench source, shipped in tests/data.

Bench smoke tests need nothing outside the repository.
"""


def load_bench(name: str) -> ModuleType:
    """`bench/<name>.py`, imported as `bench_<name>` (registered, so dataclasses resolve)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"bench_{name}"] = module
    spec.loader.exec_module(module)
    return module
