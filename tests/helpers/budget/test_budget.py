"""helpers.budget (the package's facade): the API contract of every public function it
exports (a valid call, bad input refused with a ValueError, keyword-only options, Python floats
for scalars, arrays for arrays) and its docstrings (examples run, numpydoc sections, where each
is used).

The tests of the package's modules are beside this file, one per module; the workloads and
risks they share are in tests/_workloads.py. Nothing here is timed (benchmarks/bench_budget.py
measures speed).
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest
from _modules import BASIC_BAD_VALUES, contract_outcome
from _workloads import WORKLOAD

from helpers import budget as B

# --- the API contract ---------------------------------------------------------------------

#: a workload whose mean is released as its noisy sum over its noisy count (OpenDP's)
RATIO_WORKLOAD = B.Workload(
    [B.Release("mean", k=2.0, lower=0, upper=100, n=200, sensitivity=0.5)],
    unit=B.PrivacyUnit("person", neighbours="add-remove"),
    means="ratio",
)
RATIO_ALLOCATION = B.budget_for_accuracy(RATIO_WORKLOAD)
VALID = {
    B.compose_epsilon: (([0.5, 0.25],), {}),
    B.compose_rho: (([0.5, 0.25],), {}),
    B.zcdp_composition: (([0.5, 0.25],), {"delta": 1e-6}),
    B.advanced_composition: ((0.1, 1e-8), {"times": 10, "delta_slack": 1e-6}),
    B.optimal_composition_delta: ((1.0,), {"epsilon": 0.5, "delta": 1e-8, "times": 5}),
    B.optimal_composition_epsilon: ((1e-6,), {"epsilon": 0.5, "delta": 1e-8, "times": 5}),
    B.pld_delta: (
        (1.0, "laplace", 2.0),
        {"sensitivity": 1.0, "times": 3, "discretization": 1e-3, "merge": 0.0},
    ),
    B.pld_epsilon: (
        (1e-6, "gaussian", 2.0),
        {"sensitivity": 1.0, "times": 3, "discretization": 1e-3, "merge": 0.01},
    ),
    B.epsilon_for_tpr: ((0.1,), {"fpr": 0.01, "delta": 0.0}),
    B.rho_for_tpr: ((0.1,), {"fpr": 0.01}),
    B.risk_epsilon: ((1.0,), {}),
    B.risk_posterior: ((0.75,), {"prior": 0.5}),
    B.risk_profile: (("inclusion",), {"r": 3.0, "a": 0.25, "fixed": 0.5}),
    B.risk_tpr: ((0.1,), {"fpr": 0.01}),
    B.total_for_risk: ((1.0,), {"mechanism": "gaussian", "delta": 1e-6}),
    B.implied_risk: (
        (0.5, B.risk_posterior(0.75, prior=0.5)),
        {"mechanism": "laplace", "delta": 1e-6},
    ),
    B.posterior_failure_probability: ((0.05,), {"mechanism": "gaussian", "delta": 1e-6}),
    B.workload_sensitivities: ((WORKLOAD,), {}),
    B.budget_for_accuracy: ((WORKLOAD,), {"mechanism": "gaussian", "delta": 1e-6}),
    B.split_budget: (
        (WORKLOAD, 1.0),
        {"mechanism": "laplace", "delta": 1e-6, "meet_targets": False},
    ),
    B.choose_workload: ((WORKLOAD, 1.0), {"mechanism": "laplace", "delta": 1e-6}),
    B.joint_coverage: (([0.95, 0.9],), {}),
    B.planned_k: ((RATIO_ALLOCATION, RATIO_WORKLOAD), {"group_size": 50}),
    B.ratio_interval: (
        (200.0, 40.0),
        {"total_accuracy": 20.0, "count_accuracy": 4.0, "lower": -10.0, "upper": 10.0},
    ),
    B.bonferroni: ((WORKLOAD,), {"joint": 0.9}),
    B.query_risk: ((5.0,), {"releases": 3, "delta": 1e-5, "discretization": 1e-3}),
}
# budget's own functions (what it re-exports from helpers.attack is tested in test_attack.py)
PUBLIC = [
    getattr(B, name)
    for name in B.__all__
    if inspect.isfunction(getattr(B, name)) and getattr(B, name).__module__ == B.__name__
]

BAD = BASIC_BAD_VALUES


def test_every_public_function_has_a_valid_call():
    assert sorted(f.__name__ for f in PUBLIC) == sorted(f.__name__ for f in VALID)


def _calls(fn):
    args, kwargs = VALID[fn]
    for i in range(len(args)):
        for bad in BAD:
            yield f"arg {i} = {bad!r}"[:60], (*args[:i], bad, *args[i + 1 :]), kwargs
    for key in kwargs:
        for bad in BAD:
            yield f"{key} = {bad!r}"[:60], args, {**kwargs, key: bad}


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_bad_input_is_a_value_error_or_a_number(fn):
    problems = [
        f"{label}: {outcome}"[:200]
        for label, args, kwargs in _calls(fn)
        if (outcome := contract_outcome(fn, args, kwargs, any_runtime_warning=True)) is not None
    ]
    assert problems == []


# which leading parameters may be positional; every other one is keyword-only
POSITIONAL = {
    "ratio_interval": 2,
    "planned_k": 2,
    "query_risk": 1,
    "compose_epsilon": 1,
    "compose_rho": 1,
    "zcdp_composition": 1,
    "advanced_composition": 2,
    "optimal_composition_delta": 1,
    "optimal_composition_epsilon": 1,
    "pld_delta": 3,
    "pld_epsilon": 3,
    "epsilon_for_tpr": 1,
    "rho_for_tpr": 1,
    "risk_epsilon": 1,
    "risk_posterior": 1,
    "risk_profile": 1,
    "risk_tpr": 1,
    "total_for_risk": 1,
    "implied_risk": 2,
    "posterior_failure_probability": 1,
    "workload_sensitivities": 1,
    "budget_for_accuracy": 1,
    "split_budget": 2,
    "choose_workload": 2,
    "joint_coverage": 1,
    "bonferroni": 1,
}


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_options_are_keyword_only(fn):
    params = list(inspect.signature(fn).parameters.values())
    leading = POSITIONAL[fn.__name__]
    assert all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params[:leading])
    assert all(p.kind == p.KEYWORD_ONLY for p in params[leading:])


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_a_scalar_call_returns_python_floats(fn):
    args, kwargs = VALID[fn]
    value = fn(*args, **kwargs)
    scalars = value if isinstance(value, tuple) else (value,)
    for entry in scalars:
        assert not isinstance(entry, np.generic), f"{fn.__name__} returned a numpy scalar {entry!r}"
    if fn in (B.compose_epsilon, B.optimal_composition_delta, B.pld_delta, B.epsilon_for_tpr):
        assert type(value) is float


def test_vectorised_functions_return_arrays():
    eps = np.array([0.5, 1.0, 2.0])
    assert B.optimal_composition_delta(eps, epsilon=0.5, times=4).shape == (3,)
    assert B.pld_delta(eps, "laplace", 2.0, times=2).shape == (3,)
    assert B.epsilon_for_tpr(np.array([0.1, 0.2]), fpr=0.01).shape == (2,)
    assert B.rho_for_tpr(0.2, fpr=np.array([0.01, 0.05])).shape == (2,)
    assert B.advanced_composition(eps, times=4, delta_slack=1e-6).epsilon.shape == (3,)


def test_docstrings_run_and_have_every_numpydoc_section():
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(B, "helpers.budget", globs={"np": np, **vars(B)}):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 30
    missing = [
        f"{fn.__name__}: {section}"
        for fn in PUBLIC
        for section in ("Parameters", "Returns", "Raises", "References", "Examples")
        if f"{section}\n" not in fn.__doc__
    ]
    assert missing == []
    # where each is used (notebook 11, or the helper that calls it): checked against the
    # notebooks themselves in tests/test_docstrings.py
    unplaced = [
        fn.__name__
        for fn in PUBLIC
        if not any(
            words in " ".join(fn.__doc__.split())
            for words in ("notebook 11", "notebooks 11", "notebook 12", "Not called in a notebook")
        )
    ]
    assert unplaced == []


# --- the package: one module per seam, one facade to import from (issue 31) -----------------


PACKAGE = Path(B.__file__).parent


def _modules() -> list:
    return [
        importlib.import_module(f"helpers.budget.{info.name}")
        for info in pkgutil.iter_modules(B.__path__)
    ]


def test_the_facade_re_exports_every_public_name_of_its_modules_as_its_own():
    # the path a reader imports is the one pydoc shows for a function; a class keeps its own
    # module (inspect finds its source there) and docs/helpers-by-notebook.md shows the facade's
    assert len(_modules()) >= 6
    for module in _modules():
        for name in module.__all__:
            value = getattr(module, name)
            assert name in B.__all__ and getattr(B, name) is value, f"{module.__name__}.{name}"
            if inspect.isfunction(value):
                assert value.__module__ == "helpers.budget", f"{module.__name__}.{name}"
            elif inspect.isclass(value):
                assert value.__module__ == module.__name__, f"{module.__name__}.{name}"


def test_no_module_of_the_package_is_over_a_thousand_lines():
    lengths = {
        module.__name__: len(Path(module.__file__).read_text(encoding="utf-8").splitlines())
        for module in [B, *_modules()]
    }
    assert max(lengths.values()) <= 1000, lengths


def test_a_public_class_shows_its_own_source():
    # functions are named helpers.budget's own; classes keep their module, so inspect (and
    # IPython's ``??``) shows a reader the class statement itself
    for name in B.__all__:
        value = getattr(B, name)
        if inspect.isclass(value):
            assert re.search(rf"^(@.*\n)*class {name}\b", inspect.getsource(value)), name
