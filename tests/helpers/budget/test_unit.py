"""helpers.budget.unit: the unit of privacy as one object, carried by a workload to its allocation."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from helpers import budget as B
from helpers import release as R
from helpers.mechanisms import Gaussian, Laplace

WORK = [
    B.Release("count", k=30.0, label="visits"),
    B.Release("sum", k=400.0, lower=0.0, upper=10.0, label="units"),
    B.Release("mean", k=2.0, lower=18.0, upper=90.0, n=2_000, label="mean age"),
]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (
            {"unit": "household"},
            r"unit must be one of \('person', 'record', 'user'\); got 'household'",
        ),
        ({"unit": None}, "unit must be one of"),
        ({"contributions": 0}, r"contributions must be an integer in 1\.\.1000000; got 0"),
        ({"contributions": 2.0}, "contributions must be an integer"),
        ({"contributions": True}, "contributions must be an integer"),
        ({"contributions": 10**6 + 1}, "contributions must be an integer"),
        ({"neighbours": "swap"}, r"neighbours must be one of \('change-one', 'add-remove'\)"),
    ],
)
def test_a_bad_field_is_refused_by_name(kwargs, match):
    fields = {"unit": "person", "contributions": 2, "neighbours": "add-remove", **kwargs}
    unit = fields.pop("unit")
    with pytest.raises(ValueError, match=match):
        B.PrivacyUnit(unit, **fields)


def test_a_unit_is_a_frozen_value_with_python_types():
    unit = B.PrivacyUnit("person", contributions=np.int64(4), neighbours="change-one")
    assert type(unit.contributions) is int and unit.contributions == 4
    assert unit == B.PrivacyUnit("person", contributions=4, neighbours="change-one")
    assert unit.records_changed == 8  # a change is a removal and an addition
    assert B.PrivacyUnit("user", contributions=4, neighbours="add-remove").records_changed == 4
    with pytest.raises(AttributeError):
        unit.contributions = 5  # frozen: it cannot drift between the layers
    with pytest.raises(TypeError):
        B.PrivacyUnit("person", 4)  # m and the neighbours are keyword-only
    assert pickle.loads(pickle.dumps(unit)) == unit


def test_a_workload_needs_a_unit_and_stated_deltas_and_cannot_change_under_it():
    import copy

    unit = B.PrivacyUnit("person", contributions=3)
    stated = R.per_person(WORK, contributions=3)
    work = B.Workload(stated, unit=unit)
    assert list(work) == list(stated) and work.unit is unit
    assert not isinstance(work[:2], B.Workload)  # a slice states no unit
    with pytest.raises(ValueError, match="unit must be a PrivacyUnit; got 3"):
        B.Workload(stated, unit=3)
    # per-record releases under a person's unit: the record would state m at a record's Δ
    with pytest.raises(ValueError, match=r"releases\[0\] must state its sensitivity"):
        B.Workload(WORK, unit=unit)
    for change in (
        lambda w: w.append(WORK[0]),
        lambda w: w.__setitem__(0, WORK[0]),
        lambda w: w.extend(WORK),
    ):
        with pytest.raises((AttributeError, TypeError)):
            change(work)
    joined = work + tuple(stated)
    assert not isinstance(joined, B.Workload)  # + gives a plain sequence, no unit
    for again in (pickle.loads(pickle.dumps(work)), copy.copy(work), copy.deepcopy(work)):
        assert again == work and again.unit == unit and isinstance(again, B.Workload)
    other = B.Workload(
        stated, unit=B.PrivacyUnit("person", contributions=3, neighbours="add-remove")
    )
    assert other != work and hash(other) != hash(work)


def _allocations(work):
    """Every way helpers.budget makes an allocation of a workload."""
    risk = B.risk_posterior(0.8, prior=0.5)
    choice = B.choose_workload(work, risk)
    mixed = B.choose_workload(work, risk, mechanism=["laplace", "gaussian", "laplace"])
    return {
        "budget_for_accuracy": B.budget_for_accuracy(work),
        "gaussian": B.budget_for_accuracy(work, mechanism="gaussian"),
        "template": B.budget_for_accuracy(work, mechanism=Laplace(1.0)),
        "split_budget": B.split_budget(work, 2.0),
        "split_budget need": B.split_budget(work, 2.0, objective="need", mechanism=Gaussian),
        "split_budget targets": B.split_budget(work, 50.0, meet_targets=True),
        "choice accuracy": choice.accuracy,
        "choice at risk": choice.at_risk,
        "mixed accuracy": mixed.accuracy,
        "mixed at risk": mixed.at_risk,
    }


@pytest.mark.parametrize("m", [1, 3])
@pytest.mark.parametrize("neighbours", ["change-one", "add-remove"])
def test_every_allocation_carries_its_workloads_unit(m, neighbours):
    work = R.per_person(WORK, contributions=m, neighbours=neighbours)
    assert work.unit == B.PrivacyUnit("person", contributions=m, neighbours=neighbours)
    for how, allocation in _allocations(work).items():
        assert allocation.unit == work.unit, how
    for how, allocation in _allocations(list(work)).items():
        assert allocation.unit is None, how  # a plain list states none: nothing is guessed


def test_per_person_scales_by_m_once_and_a_record_unit_keeps_the_record_delta():
    per_record = B.workload_sensitivities(WORK)
    work = R.per_person(WORK, contributions=3)
    assert np.array_equal(B.workload_sensitivities(work), 3 * per_record)
    with pytest.raises(ValueError, match="workload must hold the per-record Δ; got a Workload"):
        R.per_person(work, contributions=3)  # m·m·Δ would be priced
    with pytest.raises(ValueError, match="workload must hold the per-record Δ"):
        R.opendp_workload(work, contributions=3)
    records = R.per_person(WORK, contributions=3, unit="record")
    assert np.array_equal(B.workload_sensitivities(records), per_record)
    assert records.unit == B.PrivacyUnit("record", contributions=3)
    for bad, match in (
        ({"unit": "family"}, "unit must be one of"),
        ({"neighbours": "one"}, "neighbours must be one of"),
        ({"contributions": -1}, "contributions must be an integer"),
    ):
        with pytest.raises(ValueError, match=match):
            R.per_person(WORK, **{"contributions": 3, **bad})


def test_opendp_workload_states_the_identifier_unit():
    work = R.opendp_workload(WORK, contributions=2)
    assert work.unit == B.PrivacyUnit("person", contributions=2, neighbours="add-remove")
    assert R.opendp_workload(WORK, contributions=2, unit="user").unit.unit == "user"
    with pytest.raises(ValueError, match="unit must be 'person' or 'user'"):
        R.opendp_workload(WORK, contributions=2, unit="record")


def test_a_workload_states_how_its_means_are_released_and_keeps_it():
    """Issue 48, item 4: opendp_workload's means are released as a noisy sum over a noisy count
    (means="ratio"), and the allocation plans them so; the field travels with the workload."""
    person = B.PrivacyUnit("person", contributions=2, neighbours="add-remove")
    mean = B.Release("mean", k=2.0, lower=0.0, upper=10.0, n=5, sensitivity=4.0)
    direct = B.Workload([mean], unit=person)
    ratio = B.Workload([mean], unit=person, means="ratio")
    assert direct.means == "direct" and ratio.means == "ratio" and direct != ratio
    assert "means='ratio'" in repr(ratio) and "means" not in repr(direct)
    again = pickle.loads(pickle.dumps(ratio))
    assert again == ratio and again.means == "ratio" and hash(again) == hash(ratio)
    with pytest.raises(ValueError, match=r"means must be one of \('direct', 'ratio'\); got 'sum'"):
        B.Workload([mean], unit=person, means="sum")
    assert R.opendp_workload([B.Release("count", k=1.0)], contributions=1).means == "ratio"
    assert R.per_person([B.Release("count", k=1.0)], contributions=1).means == "direct"
    # a ratio mean's bounds and n are read and checked even where its Δ is stated
    bad = B.Workload(
        [B.Release("mean", k=2.0, lower=0.0, upper=10.0, n=0, sensitivity=4.0)],
        unit=person,
        means="ratio",
    )
    with pytest.raises(ValueError, match=r"workload\[0\]: n must be an integer ≥ 1 .* got 0"):
        B.budget_for_accuracy(bad)
    no_bounds = B.Workload(
        [B.Release("mean", k=2.0, n=5, sensitivity=4.0)], unit=person, means="ratio"
    )
    with pytest.raises(ValueError, match=r"workload\[0\]: lower must be a number"):
        B.budget_for_accuracy(no_bounds)
