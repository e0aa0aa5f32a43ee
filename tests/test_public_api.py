"""The public API: exactly what `rubricate.__all__` lists, each name defined inside rubricate."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
import types
import typing

import pytest

import rubricate

PUBLIC = [name for name in rubricate.__all__ if name != "__version__"]


def test_all_is_sorted_and_every_name_is_exported() -> None:
    # ruff's order (RUF022): constants first, then the rest alphabetically.
    assert list(rubricate.__all__) == sorted(rubricate.__all__, key=lambda n: (not n.isupper(), n))
    assert len(set(rubricate.__all__)) == len(rubricate.__all__)
    for name in rubricate.__all__:
        assert hasattr(rubricate, name), name


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_is_defined_in_a_rubricate_module_that_exports_it(name: str) -> None:
    value = getattr(rubricate, name)
    if inspect.isclass(value) or inspect.isfunction(value):
        module_name = value.__module__
    else:  # a type alias (`Literal`, a union) or a constant: found where it is assigned
        alias = isinstance(value, (typing._GenericAlias, types.UnionType, typing._SpecialForm))
        constant = name.isupper() and isinstance(value, (str, int, float, tuple, frozenset))
        assert alias or constant or typing.get_origin(value) is not None, (
            f"{name} is neither a class, a function, a type alias nor a constant: {value!r}"
        )
        module_name = next(
            m.__name__
            for m in list(sys.modules.values())
            if m is not None
            and m.__name__.startswith("rubricate.")
            and getattr(m, name, None) is value
            and name in getattr(m, "__all__", ())
        )
    assert module_name.startswith("rubricate."), (name, module_name)
    module = importlib.import_module(module_name)
    assert name in getattr(module, "__all__", ()), f"{module_name}.__all__ lacks {name}"


def test_nothing_private_leaks_and_nothing_public_is_left_out() -> None:
    leaked = [n for n in rubricate.__all__ if n.startswith("_") and n != "__version__"]
    assert leaked == []
    unlisted = [
        name
        for name, value in vars(rubricate).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name not in rubricate.__all__
    ]
    assert sorted(unlisted) == [], "public names of rubricate missing from __all__"
    # Two public subpackages, both imported by name: `rubricate.checks` (the check catalogue)
    # and `rubricate.testing` (fake chat models for users' tests, never needed to grade).
    modules = {n for n, v in vars(rubricate).items() if isinstance(v, types.ModuleType)}
    assert {n for n in modules if not n.startswith("_")} <= {"checks", "testing"}, modules


def test_every_name_in_all_imports_in_a_fresh_interpreter() -> None:
    names = ", ".join(rubricate.__all__)
    code = f"from rubricate import {names}\nfrom rubricate import *\nprint('ok')"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_the_issue_example_names_import() -> None:
    from rubricate import Criterion, Rubric, create_rubric_scorer

    assert callable(create_rubric_scorer)
    assert Rubric.parse([Criterion(description="x")]).criteria[0].id == "x"


def test_the_testing_fakes_are_a_deliberate_public_submodule() -> None:
    import rubricate.testing as testing

    assert list(testing.__all__) == sorted(testing.__all__, key=lambda n: (not n.isupper(), n))
    for name in testing.__all__:
        value = getattr(testing, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__.startswith("rubricate.testing."), (name, value.__module__)
            assert inspect.getdoc(value), f"rubricate.testing.{name} has no docstring"
    assert not set(testing.__all__) & set(rubricate.__all__)
    # Importing `rubricate` alone does not load the fakes.
    code = "import sys, rubricate; print('rubricate.testing' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
