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
    opendp = R.opendp_workload(work, contributions=2)
    record = make_record(
        B.budget_for_accuracy(opendp, mechanism=mechanism),
        workload=opendp,
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
    work = R.per_person(work, contributions=2)  # the course's Δ: change-one, n public
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


# --- the record made from the release: it states what ran, and nothing less ----------------------


def _release(mechanism, keys_known, m=2):
    """A small release by region, keys known or not, and its workload and allocation."""
    pytest.importorskip("polars")
    pytest.importorskip("opendp")
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(5)
    people = 1_500
    per = rng.integers(1, 4, size=people)
    df = pd.DataFrame(
        {
            "patient": np.repeat(np.arange(people), per),
            "region": np.repeat(rng.choice(["n", "s", "e"], size=people), per),
            "cost": rng.uniform(0.0, 600.0, size=per.sum()),
        }
    )
    work = R.opendp_workload(
        [
            B.Release("count", k=40.0, label="visits"),
            B.Release("sum", k=9e4, lower=0.0, upper=500.0, label="cost"),
        ],
        contributions=m,
        keys_known=keys_known,
    )
    allocation = B.budget_for_accuracy(work, mechanism=mechanism)
    options = {"keys": {"region": ["n", "s", "e", "w"]}}
    if not keys_known:
        options = {"delta": 1e-7, "max_groups": 5}
    out = R.opendp_release(
        df,
        allocation,
        work,
        person="patient",
        by="region",
        columns={"visits": None},
        max_length=10_000,
        **options,
    )
    return work, allocation, out


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
@pytest.mark.parametrize("keys_known", [True, False])
def test_a_record_made_from_the_release_states_what_ran(mechanism, keys_known):
    work, allocation, out = _release(mechanism, keys_known)
    assert out.unit == allocation.unit == work.unit  # m stated once, in opendp_workload
    record = R.privacy_record(out, date="2026-12-01", name="Clinic costs", curators="A clinic")
    assert record["contributions"] == 2 and record["unit"] == "person"
    assert record["neighbours"] == R.OPENDP_NEIGHBOURS and record["d_in"] == out.d_in == 1
    assert record["groups"] == out.groups
    assert ("4 public keys" in out.groups) == keys_known
    assert [r["label"] for r in record["release_list"]] == ["visits", "cost"]
    # never less than OpenDP's own loss of the context that ran
    spent, spent_delta = out.loss if isinstance(out.loss, tuple) else (out.loss, 0.0)
    if mechanism == "laplace":
        assert record["epsilon"] >= spent * (1 - 1e-12)
    else:
        assert record["rho"] >= spent * (1 - 1e-12)
    if keys_known:
        assert record["dp_variant"] != "Approximate DP"
    else:  # the threshold's δ is in the record without being passed again
        assert record["dp_variant"] == "Approximate DP"
        assert 0 < spent_delta <= 1e-7 <= record["delta"]
        assert "threshold" in record["accounting"]
    assert R.registry_table(record).iloc[0]["status"] == "usable"
    # the same record, with every keyword that agrees stated again
    again = R.privacy_record(
        out,
        date="2026-12-01",
        name="Clinic costs",
        curators="A clinic",
        unit="person",
        neighbours="add-remove",
        contributions=2,
        workload=work,
        groups=out.groups,
        delta=None if keys_known else 1e-7,
    )
    assert again == record


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("contributions", 3),
        ("contributions", 1),
        ("neighbours", "change-one"),
        ("unit", "record"),
        ("groups", "region: 9 public keys"),
        ("groups", ""),
        ("delta", 1e-3),
        ("workload", [B.Release("count", k=40.0, label="visits")]),
    ],
)
def test_a_record_that_would_state_other_than_the_release_is_refused(field, value):
    _, _, out = _release("laplace", False)
    with pytest.raises(ValueError, match=rf"{field} must be the release's own"):
        R.privacy_record(out, date="2026-12-01", name="x", curators="y", **{field: value})


def test_an_allocation_with_a_unit_gives_it_and_refuses_another():
    allocation = B.budget_for_accuracy(R.per_person(SURVEY, contributions=4))
    record = R.privacy_record(allocation, date="2026-12-01", name="x", curators="y")
    assert (record["unit"], record["contributions"], record["neighbours"]) == (
        "person",
        4,
        "change-one",
    )
    for field, value in (("contributions", 1), ("neighbours", "add-remove"), ("unit", "user")):
        with pytest.raises(ValueError, match=rf"{field} must be the allocation's own"):
            R.privacy_record(
                allocation, date="2026-12-01", name="x", curators="y", **{field: value}
            )
    # without a unit, nothing is guessed: the unit and the neighbours must be stated
    plain = B.budget_for_accuracy(SURVEY)
    for field in ("unit", "neighbours"):
        given = {"unit": "person", "neighbours": "change-one"}
        del given[field]
        with pytest.raises(ValueError, match=rf"{field} must be given when the allocation"):
            R.privacy_record(plain, date="2026-12-01", name="x", curators="y", **given)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
@pytest.mark.parametrize("factor", [10.0, 0.1, 1 + 1e-6, 1 - 1e-6])
def test_a_total_other_than_the_sum_of_the_budgets_is_refused_in_either_direction(
    mechanism, factor, make_record
):
    """A total above the budgets would release with less noise than planned; one below would
    be recorded as less than was spent: both refused, by the record and by the release."""
    work = R.opendp_workload(SURVEY[:2], contributions=2)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism)
    wrong = allocation._replace(total=allocation.total * factor)
    with pytest.raises(ValueError, match=r"allocation\.total must be the sum of its budgets"):
        make_record(wrong)
    pytest.importorskip("opendp")
    import pandas as pd

    df = pd.DataFrame({"patient": [1, 2, 3], "doctor_visits": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match=r"allocation\.total must be the sum of its budgets"):
        R.opendp_release(df, wrong, work, person="patient", max_length=10)
    with pytest.raises(ValueError, match=r"allocation\.total must be the sum of its budgets"):
        R.release_plan(wrong, work, person="patient", max_length=10)


def test_a_record_never_states_less_than_was_spent():
    """Review: an allocation's ε set below its total, m beside per-record Δ, a unit that is no
    PrivacyUnit, and an allocation composed on the PLD were all recorded as given."""
    allocation = B.budget_for_accuracy(R.per_person(SURVEY, contributions=2))
    kw = {"date": "2026-12-01", "name": "x", "curators": "y"}
    with pytest.raises(ValueError, match=r"allocation\.epsilon must be its total read as ε"):
        R.privacy_record(allocation._replace(epsilon=0.01), **kw)
    plain = B.budget_for_accuracy(SURVEY)
    with pytest.raises(ValueError, match="contributions must be 1 when the allocation states no"):
        R.privacy_record(plain, unit="person", neighbours="change-one", contributions=3, **kw)
    for bad in ("person", 3):
        with pytest.raises(ValueError, match=r"allocation\.unit must be a PrivacyUnit or None"):
            R.privacy_record(allocation._replace(unit=bad), **kw)
    with pytest.raises(
        ValueError, match=r"allocation must have finite, positive budgets and total"
    ):
        R.privacy_record(allocation._replace(total=None), **kw)
    risk = B.risk_posterior(0.8, prior=0.5)
    for mechanisms in (["gaussian"] * 3, ["laplace", "gaussian", "laplace"]):
        composed = B.choose_workload(SURVEY, risk, mechanism=mechanisms).accuracy
        assert composed.composed
        with pytest.raises(ValueError, match="composed on their PLD, not a sum"):
            R.privacy_record(composed, unit="person", neighbours="change-one", **kw)
