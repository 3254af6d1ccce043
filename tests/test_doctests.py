"""The Examples sections of the math modules' docstrings run as doctests.

Every module of the math layer is collected (sub-modules of the kazan_reiter and foundations
packages included), from the one list in tests/_modules.py (read from the layers stated in
helpers/__init__.py), so an example that drifts from the code fails here.
"""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from _modules import MATH_MODULES


def test_the_math_modules_are_collected():
    # the list is read from a docstring: make sure it was read (and holds the modules whose
    # examples the course relies on)
    for name in ("helpers.plrv", "helpers.choose", "helpers.deployments", "helpers.mechanisms"):
        assert name in MATH_MODULES
    assert any(m.startswith("helpers.kazan_reiter.") for m in MATH_MODULES)
    assert any(m.startswith("helpers.foundations.") for m in MATH_MODULES)


def _globs(name: str, module) -> dict:
    """The names an example sees: the module's own and, for a module inside a package, the
    package's public names, those it imports included (``AdditiveNoise``'s examples in ``helpers.mechanisms.base`` use
    ``Laplace``, which the package builds on it), as a user who imports the package sees them."""
    package = name.rpartition(".")[0]
    shared = {}
    if package != "helpers":
        facade = importlib.import_module(package)
        shared = {k: v for k, v in vars(facade).items() if not k.startswith("_")}
    return {"np": np, **shared, **vars(module)}


@pytest.mark.parametrize("name", MATH_MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name, globs=_globs(name, module)):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_examples_exist():
    # a doctest runner that finds nothing passes vacuously: count what it runs
    # (a finder collects what a module defines: the mechanisms package's modules, not its facade)
    mechanisms = [m for m in MATH_MODULES if m.startswith("helpers.mechanisms.")]
    assert len(mechanisms) >= 3
    attempted = 0
    for name in (*mechanisms, "helpers.plrv", "helpers.kazan_reiter.optimiser"):
        module = importlib.import_module(name)
        tests = doctest.DocTestFinder(exclude_empty=True).find(module, name)
        attempted += sum(len(t.examples) for t in tests)
    assert attempted >= 20


def test_the_lee_clifton_engine_has_examples():
    """Every public function of the Lee & Clifton engine shows one call and its result."""
    from helpers import leave_one_out, lee_clifton, queries, sensitivity

    missing = []
    for module in (lee_clifton, sensitivity, queries, leave_one_out):
        for public in module.__all__:
            obj = getattr(module, public)
            if callable(obj) and ">>>" not in (obj.__doc__ or ""):
                missing.append(f"{module.__name__}.{public}")
    assert not missing, f"no Examples section: {missing}"


def test_every_public_function_of_the_math_modules_has_numpydoc_sections():
    import inspect

    from helpers import choose, foundations, kazan_reiter, mechanisms, plrv

    sections = ("Parameters", "Returns", "Raises", "References", "Examples")
    missing = [
        f"{module.__name__}.{name}: {section}"
        for module in (mechanisms, plrv, kazan_reiter, foundations, choose)
        for name in module.__all__
        if inspect.isfunction(getattr(module, name))
        for section in sections
        if f"{section}\n" not in (getattr(module, name).__doc__ or "")
    ]
    assert missing == []
