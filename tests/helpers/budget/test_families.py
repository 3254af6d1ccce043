"""helpers.budget.families: the allocation takes a family of noise by name or by class, the
same numbers either way, refuses anything else naming the parameter; a new mechanism is one
class.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from _workloads import WORKLOAD
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import budget as B
from helpers import mechanisms as m


class _Renamed(m.Laplace):
    """A new mechanism class, defined here (Laplace noise): it builds its own PLD."""

    name = "renamed"


def test_a_new_mechanism_is_one_class(monkeypatch):
    new = _Renamed(2.0)
    assert new.delta(0.1) == m.Laplace(2.0).delta(0.1)  # the class alone is a mechanism
    # its object flows through the PLD as it is, alone and in a list
    assert B.pld_delta(1.0, new, times=3) == B.pld_delta(1.0, m.Laplace(2.0), times=3)
    # by name and as a family once registered (the battery of tests/helpers/mechanisms/test_mechanisms.py runs
    # a toy noise through everything)
    with pytest.raises(ValueError, match="mechanism must be one of"):
        B.pld_delta(1.0, "renamed", 2.0)
    monkeypatch.setitem(m.MECHANISM_CLASSES, "renamed", _Renamed)
    assert B.pld_delta(1.0, "renamed", 2.0) == B.pld_delta(1.0, m.Laplace(2.0))
    assert B.NoiseFamily.of("renamed").unit == "ε"
    assert B.pld_epsilon(1e-6, [new, m.Laplace(2.0)]) == pytest.approx(
        B.pld_epsilon(1e-6, m.Laplace(2.0), times=2), rel=1e-9
    )


FAMILY_CALLS = {
    "budget_for_accuracy": lambda mech: B.budget_for_accuracy(WORKLOAD, mechanism=mech, delta=1e-6),
    "split_budget": lambda mech: B.split_budget(WORKLOAD, 0.7, mechanism=mech, delta=1e-6),
    "split_budget meeting": lambda mech: B.split_budget(
        WORKLOAD, 40.0, mechanism=mech, delta=1e-6, meet_targets=True
    ),
    "total_for_risk": lambda mech: B.total_for_risk(
        B.risk_posterior(0.8, prior=0.5), mechanism=mech, delta=1e-6
    ),
    "implied_risk": lambda mech: B.implied_risk(
        0.4, B.risk_tpr(0.2, fpr=0.05), mechanism=mech, delta=1e-6
    ),
    "choose_workload": lambda mech: B.choose_workload(
        WORKLOAD, B.risk_posterior(0.75, prior=0.5), mechanism=mech, delta=1e-6
    ),
}


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("call", sorted(FAMILY_CALLS))
@pytest.mark.parametrize(("name", "cls"), [("laplace", m.Laplace), ("gaussian", m.Gaussian)])
def test_the_allocation_takes_a_family_by_name_or_class(call, name, cls):
    by_name, by_class = FAMILY_CALLS[call](name), FAMILY_CALLS[call](cls)
    assert _same(by_name, by_class)
    if isinstance(by_class, B.Allocation):
        assert by_class.mechanism == name  # the notebooks print this field
    family = B.NoiseFamily.of(cls)
    assert family is B.NoiseFamily.of(name) is B.NOISE_FAMILIES[cls]
    assert (family.unit, family.pure) == (("ε", True) if name == "laplace" else ("ρ_z", False))


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["laplace", "gaussian"]),
    st.lists(st.floats(min_value=0.5, max_value=50.0), min_size=1, max_size=6),
    st.floats(min_value=0.01, max_value=5.0),
)
def test_name_and_class_agree_on_every_number(name, ks, total):
    workload = [B.Release("count", k=k, weight=1 / k**2) for k in ks]
    cls = B.NoiseFamily.of(name).mechanism
    assert _same(
        B.split_budget(workload, total, mechanism=name),
        B.split_budget(workload, total, mechanism=cls),
    )
    assert _same(
        B.choose_workload(workload, total, mechanism=name),
        B.choose_workload(workload, total, mechanism=cls),
    )


@pytest.mark.parametrize(
    "bad", ["logistic", "Laplace", _Renamed, m.Laplace([1.0, 2.0]), None, 1, str]
)
def test_the_allocation_refuses_other_mechanisms_naming_the_parameter(bad):
    names = re.escape(repr(tuple(m.MECHANISM_CLASSES)))
    classes = ", ".join(cls.__name__ for cls in m.MECHANISM_CLASSES.values())
    for call in FAMILY_CALLS.values():
        with pytest.raises(ValueError, match=rf"^mechanism must be one of {names}") as info:
            call(bad)
        assert repr(bad) in str(info.value) and classes in str(info.value)
    if isinstance(bad, m.AdditiveNoise):  # an object is a template only with one noise and Δ
        with pytest.raises(ValueError, match="a mechanism object of one"):
            B.NoiseFamily.of(bad)


def test_a_mechanism_object_is_a_template_for_its_family():
    # its noise and Δ are the allocation's to set; a class with no other field is its own family
    assert B.NoiseFamily.of(m.Laplace(3.0, sensitivity=2.0)) is B.NoiseFamily.of(m.Laplace)
    assert B.NoiseFamily.of(m.Gaussian(0.5)) is B.NoiseFamily.of("gaussian")
