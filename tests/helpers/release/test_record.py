"""helpers.release.record: the registry record and its read-back through notebook 09's reader."""

from __future__ import annotations

import json

import pytest

from helpers import budget as B
from helpers import deployments as D
from helpers import release as R

SURVEY = [
    B.Release("count", k=30.0, label="smokers"),
    B.Release("sum", k=400.0, lower=0.0, upper=10.0, label="doctor visits"),
    B.Release("mean", k=2.0, lower=18.0, upper=90.0, n=2_000, label="mean age"),
]


# --- the record -----------------------------------------------------------------------------


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_record_round_trips_through_the_deployments_reader(mechanism, make_record):
    work = R.per_person(SURVEY, contributions=3)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism, delta=1e-9)
    record = make_record(allocation, neighbours="change-one", workload=work, contributions=3)
    assert set(record) == set(R.RECORD_FIELDS)
    again = json.loads(json.dumps(record))
    assert again == record
    row = R.registry_table(again).iloc[0]
    assert row["status"] == "usable"
    assert row["unit_group"] == "one person or entity"
    # pandas' default CSV float parser is within one unit in the last place, not exact
    if mechanism == "laplace":
        assert row["epsilon_used"] == pytest.approx(allocation.total, rel=3e-16)
        assert row["delta_used"] == 0.0
    else:
        assert row["rho"] == pytest.approx(allocation.total, rel=3e-16)
        assert row["epsilon_used"] == pytest.approx(
            D.zcdp_to_epsilon(allocation.total, 1e-9), rel=1e-12
        )
        assert row["epsilon_used"] >= allocation.epsilon * (1 - 1e-12)
    budgets = [r["budget"] for r in record["release_list"]]
    assert budgets == allocation.budgets.tolist()
    assert [r["label"] for r in record["release_list"]] == [r.label for r in SURVEY]
    views = D.three_views(row["epsilon_used"], row["delta_used"], prior=0.5)
    assert views["posterior"] == D.posterior_bound(row["epsilon_used"], prior=0.5)


def test_record_reader_flags_a_malformed_record(make_record):
    record = make_record(B.budget_for_accuracy(SURVEY), unit="record")
    record["dp_variant"] = "Approximate DP"  # an ε with no δ: the reader says why
    assert R.registry_table(record).iloc[0]["status"] != "usable"
    assert R.registry_table(record).iloc[0]["unit_group"] == "one event or record"


# --- what a registry reads, and what the record refuses ----------------------------------------


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian", "geometric", "discrete_gaussian"])
def test_the_record_names_bounds_groups_and_the_noise_opendp_runs(mechanism, make_record):
    from helpers.mechanisms import MECHANISM_CLASSES

    work = [
        B.Release("count", k=30.0, label="visits"),
        B.Release("sum", k=400.0, lower=0.0, upper=10.0, label="units"),
    ]
    work = R.per_person(work, contributions=2)
    record = make_record(
        B.budget_for_accuracy(work, mechanism=mechanism),
        workload=work,
        contributions=2,
        groups="region: 5 public keys",
    )
    cls = MECHANISM_CLASSES[mechanism]
    noise = f"{'discrete' if cls.discrete else 'continuous'} {cls.opendp}"
    assert [r["opendp_noise"] for r in record["release_list"]] == [noise, noise]
    assert [(r["lower"], r["upper"]) for r in record["release_list"]] == [(None, None), (0.0, 10.0)]
    assert record["groups"] == "region: 5 public keys" and record["d_in"] == 1
    assert record["model"] == "Central" and record["contributions"] == 2
    assert json.loads(json.dumps(record)) == record
    # a change-one guarantee (n public) is not stated at OpenDP's distance of an identifier
    changed = make_record(
        B.budget_for_accuracy(work), workload=work, contributions=2, neighbours="change-one"
    )
    assert changed["neighbours"] == "change-one" and changed["d_in"] is None


@pytest.mark.parametrize("field", ["name", "curators", "groups", "source_url"])
def test_a_nul_byte_is_refused_by_name(field, make_record):
    with pytest.raises(ValueError, match=f"{field} must not contain a NUL byte"):
        make_record(B.budget_for_accuracy(SURVEY), **{field: "a\x00b"})


def test_a_nul_byte_in_a_label_is_refused(make_record):
    work = [B.Release("count", k=30.0, label="vis\x00its")]
    with pytest.raises(ValueError, match="label must not contain a NUL byte"):
        make_record(B.budget_for_accuracy(work), workload=work)


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_an_invalid_allocation_is_refused(bad, make_record):
    allocation = B.budget_for_accuracy(SURVEY)
    budgets = allocation.budgets.copy()
    budgets[1] = bad
    with pytest.raises(ValueError, match="allocation must have finite, positive budgets"):
        make_record(allocation._replace(budgets=budgets))


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_a_release_that_spent_delta_is_recorded_as_approximate_dp(mechanism, make_record):
    work = R.per_person(SURVEY, contributions=3)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism, delta=1e-9)
    without = make_record(allocation, workload=work, contributions=3)
    record = make_record(allocation, delta=1e-7, workload=work, contributions=3)
    assert without["dp_variant"] != "Approximate DP"
    assert record["dp_variant"] == "Approximate DP"
    # the δ spent adds to whatever δ the record stated without it
    assert record["delta"] == pytest.approx((without["delta"] or 0.0) + 1e-7, rel=1e-12)
    assert record["epsilon"] == without["epsilon"]
    assert "1e-07" in record["accounting"]
    row = R.registry_table(record).iloc[0]
    assert row["status"] == "usable"
    assert row["delta_used"] == pytest.approx(record["delta"], rel=3e-16)
    assert row["epsilon_used"] == pytest.approx(record["epsilon"], rel=3e-16)


@pytest.mark.parametrize("bad", [0.0, 1.0, -1e-9, float("nan"), "1e-7"])
def test_a_delta_outside_the_unit_interval_is_refused_by_name(bad, make_record):
    allocation = B.budget_for_accuracy([B.Release("count", k=5.0)])
    with pytest.raises(ValueError, match="delta"):
        make_record(allocation, delta=bad)
