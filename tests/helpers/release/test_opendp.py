"""helpers.release.opendp: OpenDP's maps give the allocated budgets; the script runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import budget as B
from helpers import release as R

SURVEY = [
    B.Release("count", k=30.0, label="smokers"),
    B.Release("sum", k=400.0, lower=0.0, upper=10.0, label="doctor visits"),
    B.Release("mean", k=2.0, lower=18.0, upper=90.0, n=2_000, label="mean age"),
]


# --- OpenDP ---------------------------------------------------------------------------------


def _random_workload(rng, size: int, n: int) -> list:
    releases = []
    for i in range(size):
        kind = str(rng.choice(["count", "sum", "mean"]))
        lower = float(rng.uniform(-50, 50))
        upper = lower + float(rng.uniform(0.5, 100))
        releases.append(
            B.Release(
                kind,
                k=float(rng.uniform(1, 50)) * (1 if kind != "mean" else 0.05),
                coverage=float(rng.uniform(0.6, 0.99)),
                lower=None if kind == "count" else lower,
                upper=None if kind == "count" else upper,
                n=n if kind == "mean" else None,
                label=f"r{i}",
            )
        )
    return releases


@pytest.mark.parametrize("case", range(16))
def test_opendp_maps_give_the_allocated_budget(case):
    rng = np.random.default_rng(700 + case)
    n = int(rng.integers(20, 3000))
    m = int(rng.integers(1, 5))
    mechanism = "laplace" if case % 2 == 0 else "gaussian"
    work = R.per_person(_random_workload(rng, int(rng.integers(1, 6)), n), contributions=m)
    allocation = (
        B.budget_for_accuracy(work, mechanism=mechanism)
        if case % 4 < 2
        else B.split_budget(work, float(rng.uniform(0.05, 4.0)), mechanism=mechanism)
    )
    pairs = R.opendp_measurements(allocation, work, contributions=m, records=n)
    assert len(pairs) == len(work)
    measure = "MaxDivergence" if mechanism == "laplace" else "ZeroConcentratedDivergence"
    for (measurement, d_in), budget in zip(pairs, allocation.budgets, strict=True):
        assert d_in == m
        assert str(measurement.output_measure).startswith(measure)
        spent = measurement.map(d_in)
        assert spent <= budget
        assert spent >= budget * (1 - 1e-3)


def test_opendp_refuses_an_allocation_made_for_another_unit():
    allocation = B.budget_for_accuracy(SURVEY)
    with pytest.raises(ValueError, match="contributions=3"):
        R.opendp_measurements(allocation, SURVEY, contributions=3)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_opendp_script_runs_on_a_generated_dataframe(mechanism):
    rng = np.random.default_rng(11)
    m = 3
    work = R.per_person(SURVEY, contributions=m)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism)
    source = R.opendp_script(allocation, work, contributions=m, person="patient")
    people = rng.integers(0, 800, size=2_000)
    df = pd.DataFrame(
        {
            "patient": people,
            "smokers": rng.integers(0, 2, size=people.size),
            "doctor_visits": rng.poisson(3, size=people.size).astype(float),
            "mean_age": rng.uniform(10, 95, size=people.size),
        }
    )
    df.loc[3, "mean_age"] = np.nan  # a missing value is handled, not a crash
    namespace: dict = {"__name__": "release_script"}
    exec(compile(source, "release.py", "exec"), namespace)
    results = namespace["release"](df)
    assert list(results) == [r.label for r in SURVEY]
    kept = df.groupby("patient", sort=False).head(m)
    truth = {
        "smokers": kept["smokers"].sum(),
        "doctor visits": kept["doctor_visits"].clip(0, 10).sum(),
        "mean age": kept["mean_age"].fillna(18.0).clip(18, 90).mean(),
    }
    for (label, value), scale in zip(results.items(), allocation.scales, strict=True):
        assert math.isfinite(value)
        # the resize pads or drops records, so only a loose check: within 60 noise scales
        # (Laplace: a chance of e^-60) of the clipped truth, widened by the padding's effect
        assert abs(value - truth[label]) < 60 * scale + abs(truth[label]) * 0.5 + 50


# --- the record's neighbour notion is the one OpenDP checks -------------------------------------


@pytest.mark.parametrize("m", [1, 3])
def test_the_records_neighbour_notion_is_the_d_in_opendp_checks(m):
    work = B.Release("count", k=5.0), B.Release("mean", k=2.0, lower=0, upper=100, n=200)
    allocation = B.budget_for_accuracy(R.per_person(list(work), contributions=m))
    record = R.privacy_record(
        allocation,
        unit="person",
        neighbours=R.OPENDP_NEIGHBOURS,
        date="2026-01-31",
        name="Clinic visits",
        curators="A clinic",
        contributions=m,
    )
    pairs = R.opendp_measurements(allocation, list(work), contributions=m)
    distance = R.neighbour_distance(record["neighbours"], contributions=record["contributions"])
    assert record["neighbours"] == "add-remove"
    assert all(d_in == distance == m for _, d_in in pairs)
    # the same releases checked at change-one (m records changed) would spend twice the budget
    changed = R.neighbour_distance("change-one", contributions=m)
    for (meas, _), budget in zip(pairs, allocation.budgets, strict=True):
        assert meas.map(changed) > 1.5 * budget


def test_notebook_12_records_the_notion_opendp_checks():
    cells = json.loads(
        (Path(__file__).parents[3] / "notebooks" / "12_from_budget_to_release.ipynb").read_text()
    )["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    calls = [s for s in sources if "privacy_record(" in s or "subject_paragraph(" in s]
    assert calls and all("neighbours=rel.OPENDP_NEIGHBOURS" in s for s in calls)
    assert not any('"change-one"' in s for s in sources)
