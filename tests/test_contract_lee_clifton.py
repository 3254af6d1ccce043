"""The API contract, fuzzed, for the Lee & Clifton engine (lee_clifton, sensitivity, queries,
leave_one_out): the same bad values as ``test_contract`` in every argument give a ValueError
or a correct-looking value, never another exception, a NaN or a hang."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_contract import BAD, _no_nan, _outcome, numbers

from helpers import leave_one_out as loo
from helpers import lee_clifton as lc
from helpers import queries as qu
from helpers import sensitivity as se

U = [1.0, 2.0, 3.0, 10.0]
MEAN = qu.get_query("mean")

VALID = {
    lc.analysis_table: ((U, 3, 1 / 3), {"queries": ["mean", "median"]}),
    lc.binary_search_epsilon: ((U, 3, "mean", 1 / 3), {"tol": 1e-6, "sensitivity": 2.0}),
    lc.binary_search_steps: ((U, 3, "mean", 1 / 3), {"tol": 1e-3, "sensitivity": 2.0}),
    lc.bound_curves: ((U, 3, "mean", [0.0, 0.5]), {"sensitivity": 2.0}),
    lc.confidence: ((U, 3, "mean", 2.2, 2.0), {"sensitivity": 2.0, "prior": [1, 1, 1, 1]}),
    lc.count_worlds: ((U, 3), {}),
    lc.delta_v: ((U, 3, "mean"), {}),
    lc.epsilon_upper_bound: ((U, 3, "mean", 1 / 3), {"sensitivity": 2.0}),
    lc.limit_of_tight_bound: ((U, 3, "median"), {}),
    lc.most_exposed_world: ((U, 3, "mean", 0.5), {"sensitivity": 2.0}),
    lc.possible_worlds: ((U, 3), {}),
    lc.posterior: ((U, 3, "mean", 2.2, 2.0), {"sensitivity": 2.0, "prior": [1, 1, 1, 1]}),
    lc.prior: ((U, 3), {"weights": [1, 2, 3, 4]}),
    lc.simulate_attack: ((U, 3, "mean", 1.0), {"trials": 50, "rng": 0, "true_world": 1}),
    lc.tight_bound: ((U, 3, "mean", 0.5), {"sensitivity": 2.0}),
    lc.upper_bound: ((U, 3, "mean", 0.5), {"sensitivity": 2.0}),
    lc.world_values: ((U, 3, "mean"), {}),
    se.bounded_sensitivity: ((U, 3, "mean"), {"k": 1}),
    se.combination_indices: ((4, 3), {}),
    se.unbounded_sensitivity: ((U, 3, "mean"), {"k": 1}),
    qu.get_query: (("mean",), {}),
    qu.percentile: ((25,), {}),
    loo.supports: ((MEAN,), {}),
    loo.unbounded_sensitivity: ((np.array(U), MEAN), {}),
    loo.world_table: ((np.array(U), MEAN), {}),
}

PUBLIC = [
    getattr(module, name)
    for module in (lc, se, qu, loo)
    for name in module.__all__
    if inspect.isfunction(getattr(module, name))
]


def test_every_public_function_has_a_valid_call():
    assert sorted(f.__name__ for f in PUBLIC if f not in VALID) == []


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
    problems = []
    for label, args, kwargs in _calls(fn):
        outcome = _outcome(fn, args, kwargs)
        if outcome is not None:
            problems.append(f"{label}: {outcome}"[:200])
    assert problems == []


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_the_valid_call_keeps_the_contract(fn):
    args, kwargs = VALID[fn]
    value = fn(*args, **kwargs)
    assert _no_nan(value)
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        pytest.fail(f"{fn.__name__} returned a numpy scalar {value!r}; the contract says float")


@given(st.sampled_from(PUBLIC), st.data())
def test_random_numbers_in_any_argument(fn, data):
    args, kwargs = VALID[fn]
    slots = [("arg", i) for i in range(len(args))] + [("kw", k) for k in kwargs]
    kind, slot = data.draw(st.sampled_from(slots))
    value = data.draw(numbers)
    if kind == "arg":
        args = (*args[:slot], value, *args[slot + 1 :])
    else:
        kwargs = {**kwargs, slot: value}
    assert _outcome(fn, args, kwargs) is None
