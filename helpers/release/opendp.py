"""The release in OpenDP: one measurement per release, and a script to run on one's own data.

Each release is OpenDP's own pipeline whose privacy map gives the allocated budget at the
d_in of the neighbour notion :data:`OPENDP_NEIGHBOURS` (:func:`neighbour_distance`,
:func:`opendp_measurements`); :func:`opendp_script` writes it out as a script a practitioner
runs on their own DataFrame. OpenDP is imported where it is used.

Part of :mod:`helpers.release`, which re-exports every public name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import check_int_range
from ..budget import NoiseFamily, Release
from ._checks import (
    _check_allocation,
    _check_contributions,
    _check_neighbours,
    _parse_workload,
    _workload_columns,
)

__all__ = ["OPENDP_NEIGHBOURS", "neighbour_distance", "opendp_measurements", "opendp_script"]

#: The neighbour notion :func:`opendp_measurements` and :func:`opendp_script` check: OpenDP's
#: symmetric distance, a person's records added or removed (:func:`neighbour_distance`).
OPENDP_NEIGHBOURS = "add-remove"


# --- the release in OpenDP --------------------------------------------------------------------


def neighbour_distance(neighbours, *, contributions) -> int:
    """The symmetric distance (records added or removed) between data sets that differ in one
    person of at most m records, by neighbour notion: m for add-remove, 2m for change-one.

    OpenDP's ``symmetric_distance`` counts records added plus records removed: a person's m
    records added or removed are at distance m; m records changed (each a removal and an
    addition, n fixed) at distance 2m. It is the ``d_in`` at which OpenDP's privacy map
    states a guarantee for that notion; :func:`opendp_measurements` checks at
    ``neighbour_distance(OPENDP_NEIGHBOURS, contributions=m)``, so a record of its release
    states :data:`OPENDP_NEIGHBOURS`.

    Not called in a notebook; used by ``helpers.release``.

    Parameters
    ----------
    neighbours : {"add-remove", "change-one"}
    contributions : int, keyword-only
        m ≥ 1, the most records one person contributes.

    Returns
    -------
    int

    %(raises)s

    References
    ----------
    OpenDP Library documentation, "Dataset Distances" (symmetric distance; a change is two
    edits); Dwork & Roth (2014), §2.3 (neighbouring databases).

    Examples
    --------
    >>> neighbour_distance("add-remove", contributions=3), neighbour_distance("change-one", contributions=3)
    (3, 6)
    """
    m = _check_contributions(contributions)
    return m if _check_neighbours(neighbours) == "add-remove" else 2 * m


def _opendp():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


class _Plan(NamedTuple):
    labels: list
    kinds: list
    bounds: list
    records: list
    scales: list
    budgets: list
    d_in: int
    gaussian: bool


def _plan(allocation, workload, contributions, records) -> _Plan:
    allocation = _check_allocation(allocation)
    m = _check_contributions(contributions)
    parsed = _parse_workload(workload, allocation)
    columns = _workload_columns(workload)
    record_delta = _parse_workload(
        [
            Release(kind, k=1.0, lower=lo, upper=hi, n=n)
            for kind, lo, hi, n in zip(
                parsed.kinds, columns["lower"], columns["upper"], columns["n"], strict=True
            )
        ]
    ).sensitivity
    expected = m * record_delta
    if not np.allclose(allocation.sensitivities, expected, rtol=1e-9, atol=0):
        i = int(np.flatnonzero(~np.isclose(allocation.sensitivities, expected, rtol=1e-9))[0])
        raise ValueError(
            f"allocation must be made for contributions={m}: release {i} has Δ = "
            f"{allocation.sensitivities[i]:g}, its bounds give {m} × {record_delta[i]:g} "
            "(allocate per_person(workload, contributions=m))"
        )
    means = [int(columns["n"][i]) for i, kind in enumerate(parsed.kinds) if kind == "mean"]
    if records is None:
        if len(set(means)) != 1:
            raise ValueError(
                "records must be given (the public number of records the data are resized to) "
                "when the workload's means do not state one common n"
            )
        records = means[0]
    records = check_int_range("records", records, 1, 10**9)
    bounds, sizes = [], []
    for i, kind in enumerate(parsed.kinds):
        if kind == "count":
            bounds.append((0.0, 1.0))
        else:
            bounds.append((float(columns["lower"][i]), float(columns["upper"][i])))
        sizes.append(int(columns["n"][i]) if kind == "mean" else records)
    return _Plan(
        [lab if lab is not None else f"release {i}" for i, lab in enumerate(parsed.labels)],
        parsed.kinds,
        bounds,
        sizes,
        [float(s) for s in allocation.scales],
        [float(b) for b in allocation.budgets],
        neighbour_distance(OPENDP_NEIGHBOURS, contributions=m),
        not NoiseFamily.of(allocation.mechanism).pure,
    )


def _constant(kind: str, lower: float, upper: float) -> float:
    """What the resize pads with: 0 for a count or a sum whose bounds hold 0, else the middle."""
    if kind != "mean" and lower <= 0.0 <= upper:
        return 0.0
    return lower + (upper - lower) / 2


def _measurement(dp, kind, bounds, size, gaussian, scale):
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
    statistic = dp.t.then_mean() if kind == "mean" else dp.t.then_sum()
    noise = dp.m.then_gaussian if gaussian else dp.m.then_laplace
    return (
        space
        >> dp.t.then_clamp(bounds)
        >> dp.t.then_resize(size=size, constant=_constant(kind, *bounds))
        >> statistic
        >> noise(scale=scale)
    )


def _fitted_scales(plan: _Plan) -> list:
    """Each release's scale, raised until OpenDP's own map at d_in is within its budget.

    OpenDP adds its floating-point slack (about 10⁻¹³ of Δ) to the sensitivity, so the
    allocation's scale can map a hair above the budget: the scale grows by that ratio
    (and a few units in the last place more), never the budget.
    """
    dp = _opendp()
    scales = []
    for kind, bounds, size, scale, budget in zip(
        plan.kinds, plan.bounds, plan.records, plan.scales, plan.budgets, strict=True
    ):
        for _ in range(60):
            spent = _measurement(dp, kind, bounds, size, plan.gaussian, scale).map(plan.d_in)
            if spent <= budget:
                break
            ratio = spent / budget
            scale *= (math.sqrt(ratio) if plan.gaussian else ratio) * (1 + 4 * 2.0**-52)
        else:  # pragma: no cover
            raise AssertionError("OpenDP's map did not come within the budget")
        scales.append(scale)
    return scales


def opendp_measurements(allocation, workload, *, contributions=1, records=None) -> list:
    """One OpenDP measurement per release, with the d_in at which it spends its budget.

    Each is OpenDP's own pipeline on a column of floats with the symmetric distance (records
    added or removed): clamp to the bounds (a count: an indicator in [0, 1]), resize to the
    public number of records (padding or dropping records: the course's n is public), sum
    or mean, then Laplace noise (``max-divergence``, pure ε) or Gaussian noise (zero-
    concentrated divergence, ρ_z). The neighbour notion is :data:`OPENDP_NEIGHBOURS`
    (add-remove): a person with at most m records is d_in = m records added or removed
    (:func:`neighbour_distance`), and a record of this release must state it
    (:func:`privacy_record` with ``neighbours=OPENDP_NEIGHBOURS``). After the resize that is
    m records changed, so the map at d_in is
    m·Δ/b = the allocated ε_i (or (m·Δ)²/(2σ²) = ρ_z,i) when the allocation was made for
    :func:`per_person` sensitivities. The scale is raised (by about 10⁻¹³) where OpenDP's
    floating-point slack would put the map above the budget, so it is never above it.

    Used in notebook 12.

    Parameters
    ----------
    allocation : helpers.budget.Allocation
    workload : sequence of Release
        The releases the allocation was made for (their kinds and bounds).
    contributions : int, keyword-only
        m ≥ 1; the allocation's Δ must be m times the bounds' Δ.
    records : int, keyword-only
        The public number of records counts and sums are resized to (default: the means' n).

    Returns
    -------
    builtins.list
        (measurement, d_in) per release; ``measurement.map(d_in)`` is its budget.

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> work = [Release("count", k=5.0), Release("mean", k=2.0, lower=0, upper=100, n=200)]
    >>> pairs = opendp_measurements(budget_for_accuracy(work), work)
    >>> [round(m.map(d), 4) for m, d in pairs]
    [0.5991, 0.7489]
    """
    plan = _plan(allocation, workload, contributions, records)
    dp = _opendp()
    return [
        (_measurement(dp, kind, bounds, size, plan.gaussian, scale), plan.d_in)
        for kind, bounds, size, scale in zip(
            plan.kinds, plan.bounds, plan.records, _fitted_scales(plan), strict=True
        )
    ]


_SCRIPT = '''\
"""Differentially private releases, generated by helpers.release.opendp_script.

{summary}
Run it on your own data: `python release.py my_data.csv`, or import it and call
`release(df)` on a pandas DataFrame with one row per record, a column {person!r} naming
the person, and the columns below.
"""

import sys

import pandas as pd
import opendp.prelude as dp

dp.enable_features("contrib")

PERSON = {person!r}  # the column that says whose record a row is
CONTRIBUTIONS = {m}  # at most this many records of one person are used (the rest dropped)
NOISE = {noise!r}  # "laplace": each budget is ε (pure DP); "gaussian": ρ_z (zCDP)

# label, column, kind, (lower, upper) bounds, public number of records, noise scale, budget
RELEASES = [
{rows}
]


def measurement(kind, bounds, records, scale):
    """OpenDP's pipeline: clamp, resize to the public number of records, sum or mean, noise."""
    constant = 0.0 if kind != "mean" and bounds[0] <= 0.0 <= bounds[1] else sum(bounds) / 2
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
    statistic = dp.t.then_mean() if kind == "mean" else dp.t.then_sum()
    noise = dp.m.then_gaussian if NOISE == "gaussian" else dp.m.then_laplace
    return (
        space
        >> dp.t.then_clamp(bounds)
        >> dp.t.then_resize(size=records, constant=constant)
        >> statistic
        >> noise(scale=scale)
    )


def release(df):
    """The noisy releases of a DataFrame, as a dict label -> value."""
    # bound each person's contributions: keep at most CONTRIBUTIONS records per person
    kept = df.groupby(PERSON, sort=False).head(CONTRIBUTIONS)
    results = {{}}
    for label, column, kind, bounds, records, scale, budget in RELEASES:
        m = measurement(kind, bounds, records, scale)
        # OpenDP's own accounting: a person is CONTRIBUTIONS records added or removed
        assert m.map(CONTRIBUTIONS) <= budget, (label, m.map(CONTRIBUTIONS), budget)
        # a missing value counts as the lower bound (the pipeline refuses NaN)
        values = kept[column].astype(float).fillna(bounds[0]).tolist()
        results[label] = m(values)
    return results


if __name__ == "__main__":
    for name, value in release(pd.read_csv(sys.argv[1])).items():
        print(f"{{name}}: {{value}}")
'''


def _column_name(label: str) -> str:
    return re.sub(r"[^0-9a-zA-Z]+", "_", label).strip("_").lower() or "value"


def opendp_script(
    allocation, workload, *, contributions=1, records=None, person="person", columns=None
) -> str:
    """Python source a practitioner runs on their own DataFrame to make the releases.

    The script states the bounds, the bound on each person's records, the measurements
    (:func:`opendp_measurements`'s pipelines and scales) and makes the releases; before each
    release it asserts that OpenDP's own map at d_in = m is within the budget. It imports
    only pandas and OpenDP, and runs as it is (a test executes it on a generated DataFrame).

    Used in notebook 12.

    Parameters
    ----------
    allocation, workload, contributions, records
        As :func:`opendp_measurements`.
    person : str, keyword-only
        The column naming the person.
    columns : mapping, keyword-only
        Release label -> column name (default: the label in lower case, with _ for spaces).

    Returns
    -------
    str

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> work = [Release("count", k=5.0, label="smokers")]
    >>> source = opendp_script(budget_for_accuracy(work), work, records=100)
    >>> "then_laplace" in source and "CONTRIBUTIONS = 1" in source
    True
    """
    plan = _plan(allocation, workload, contributions, records)
    if not isinstance(person, str) or not person:
        raise ValueError(f"person must be a non-empty column name; got {person!r}")
    columns = {} if columns is None else columns
    if not isinstance(columns, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in columns.items()
    ):
        raise ValueError(f"columns must map release labels to column names; got {columns!r:.80}")
    scales = _fitted_scales(plan)
    rows = "\n".join(
        f"    ({label!r}, {columns.get(label, _column_name(label))!r}, {kind!r}, "
        f"({lo!r}, {hi!r}), {size!r}, {scale!r}, {budget!r}),"
        for label, kind, (lo, hi), size, scale, budget in zip(
            plan.labels, plan.kinds, plan.bounds, plan.records, scales, plan.budgets, strict=True
        )
    )
    unit = "ρ_z" if plan.gaussian else "ε"
    total = float(allocation.total)
    summary = (
        f"{len(plan.kinds)} release(s) with {'Gaussian' if plan.gaussian else 'Laplace'} noise; "
        f"total {unit} = {total:.6g} per person (each person at most {plan.d_in} record(s))."
    )
    return _SCRIPT.format(
        summary=summary,
        person=person,
        m=plan.d_in,
        noise="gaussian" if plan.gaussian else "laplace",
        rows=rows,
    )


fill_docstrings(globals())
