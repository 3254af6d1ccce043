"""helpers.release._opendp_run: the workload of opendp_release run as one OpenDP query.

The one query truncates once and runs every release (a query apart only for the count that
releases unknown keys, and for a column whose missing values are dropped); its noise-free part
is pandas' recomputation after the same bounding; each noisy column runs at the scale its own
release resolves to alone (the release's former one query per release, rebuilt here with
OpenDP's Context) and at its plan's, never below either; OpenDP's loss is the allocation's
total; the records cross into OpenDP as a private temporary file that is gone afterwards, even
when the query raises. Keys known and not; counts, sums, means; Laplace, Gaussian and their
discrete forms.
"""

from __future__ import annotations

import math
import os
import stat
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import budget as B
from helpers import release as R
from helpers.mechanisms import MECHANISM_CLASSES

pl = pytest.importorskip("polars")
pytest.importorskip("opendp")

from helpers.release import _opendp_query as Q  # noqa: E402
from helpers.release import _opendp_run as X  # noqa: E402
from helpers.release import opendp as O  # noqa: E402

M = 3
REGIONS = ["north", "south", "east", "west", "isle"]
KEYS = {"region": [*REGIONS, "absent"]}
MAX_LENGTH = 10_000
MECHANISMS = ["laplace", "gaussian", "geometric", "discrete_gaussian"]
#: OpenDP's float sums add a rounding term to a sum's sensitivity (relative ~1e-12 here)
PLAN_RTOL = 1e-6


def _table(seed: int = 0, people: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    per = rng.integers(1, 6, size=people)  # some above m = 3
    region = rng.choice(REGIONS, p=[0.35, 0.3, 0.2, 0.14, 0.01], size=people)
    rows = np.repeat(np.arange(people), per)
    return pd.DataFrame(
        {
            "patient": rows,
            "region": np.repeat(region, per),
            "cost": rng.gamma(2.0, 120.0, size=rows.size),  # some above 500
            "units": rng.integers(0, 12, size=rows.size),  # some above 9
        }
    )


def _workload(mechanism, *, keys_known=True):
    """A count of records, a sum and a mean (continuous), or a count of records and two sums
    of an integer column (discrete: no mean, whose Δ is no integer)."""
    if MECHANISM_CLASSES[mechanism].discrete:
        work = [
            B.Release("count", k=12.0, label="visits"),
            B.Release("sum", k=150.0, lower=0, upper=9, label="units"),
            B.Release("sum", k=150.0, lower=2, upper=9, label="units above 2"),
        ]
    else:
        work = [
            B.Release("count", k=12.0, label="visits"),
            B.Release("sum", k=4000.0, lower=100.0, upper=500.0, label="cost"),
            B.Release("mean", k=40.0, lower=0.0, upper=500.0, n=300, label="mean cost"),
        ]
    return R.opendp_workload(work, contributions=M, keys_known=keys_known)


COLUMNS = {"visits": None, "mean cost": "cost", "units above 2": "units"}


def _options(keys_known, **kwargs):
    options = {
        "person": "patient",
        "by": "region",
        "columns": COLUMNS,
        "max_length": MAX_LENGTH,
        **({"keys": KEYS} if keys_known else {"delta": 1e-7, "max_groups": 10}),
    }
    return {**options, **kwargs}


def _release(df, allocation, work, keys_known=True, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # OpenDP's note on a large ρ
        return R.opendp_release(df, allocation, work, **_options(keys_known, **kwargs))


def _truth(df, work, *, missing=None) -> pd.DataFrame:
    """The noise-free cells by pandas: each person's first m records, values clipped (and,
    with ``missing``, a release of that column without the records that lack it)."""
    kept = df.groupby("patient", sort=False).head(M)
    rows = []
    for release in work:
        column = COLUMNS.get(release.label, release.label)
        part = kept if column is None or column != missing else kept[kept[column].notna()]
        for region in KEYS["region"]:
            cells = part[part["region"] == region]
            if release.kind == "count":
                value = float(len(cells))
            else:
                clipped = cells[column].clip(release.lower, release.upper)
                value = float(clipped.sum())
                if release.kind == "mean":
                    value = value / len(cells) if len(cells) else math.nan
            rows.append({"release": release.label, "region": region, "truth": value})
    return pd.DataFrame(rows)


@pytest.fixture
def ran(monkeypatch):
    """The measurements the release ran on its records (OpenDP's Context called on the scan
    of its temporary file), in order: the key release's first when keys are not known."""
    from opendp.context import Context

    calls = []
    call, compositor = Context.__call__, Context.compositor

    def marked(data, *args, **kwargs):
        context = compositor(data, *args, **kwargs)
        context._records = isinstance(data, pl.LazyFrame) and "PARQUET" in data.explain().upper()
        return context

    def spy(self, measurement):
        if getattr(self, "_records", False):
            calls.append(measurement)
        return call(self, measurement)

    monkeypatch.setattr(Context, "compositor", staticmethod(marked))
    monkeypatch.setattr(Context, "__call__", spy)
    return calls


@pytest.mark.parametrize("mechanism", MECHANISMS)
@pytest.mark.parametrize("keys_known", [True, False])
def test_one_query_truncates_once_and_its_noise_free_part_is_pandas(mechanism, keys_known, ran):
    """At a huge budget (the median ±k at most 1 % of its release's largest cell) every cell is pandas' after keeping each
    person's first m records and clipping, within 10 of its own ±k; the whole workload ran as
    one query on the records (two with unknown keys: the count that releases them first)."""
    df = _table(5)
    if MECHANISM_CLASSES[mechanism].discrete:
        df = df.assign(cost=df["cost"].round())
    work = _workload(mechanism, keys_known=keys_known)
    # a large budget OpenDP still accounts (its threshold's map overflows near ε = 5,000)
    total = 1e3 if MECHANISM_CLASSES[mechanism].opendp == "laplace" else 1e4
    allocation = B.split_budget(work, total, mechanism=mechanism)
    out = _release(df, allocation, work, keys_known)
    assert len(ran) == (1 if keys_known else 2)
    table = out.table.merge(_truth(df, work), on=["release", "region"])
    finite = table[np.isfinite(table["truth"])]
    assert len(finite) >= len(work) * (len(REGIONS) - 1)  # the test has cells to check
    # ±k positive, and its median within 1 % of its release's largest cell, so the comparison
    # means something (a tiny group's mean is wide at any budget)
    assert (finite["k"] > 0).all()
    by_release = finite.groupby("release")
    assert (by_release["k"].median() <= 1e-2 * by_release["truth"].max()).all()
    assert ((finite["value"] - finite["truth"]).abs() <= 10 * finite["k"]).all()
    # one set of groups: every release shows the same ones
    groups = [list(g["region"]) for _, g in out.table.groupby("release", sort=False)]
    assert all(g == groups[0] for g in groups)


def test_missing_values_dropped_run_in_a_query_of_their_column(ran):
    """Releases that drop the records missing a column read other records: they share a
    query of their own; the count of records still counts every record."""
    df = _table(5)
    df.loc[[1, 2, 7], "cost"] = np.nan
    work = _workload("laplace")
    allocation = B.split_budget(work, 1e6, mechanism="laplace")
    out = _release(df, allocation, work, missing="drop")
    assert len(ran) == 2  # the count of records; the sum and the mean of cost
    table = out.table.merge(_truth(df, work, missing="cost"), on=["release", "region"])
    finite = table[np.isfinite(table["truth"])]
    assert ((finite["value"] - finite["truth"]).abs() <= 10 * finite["k"]).all()
    assert X._queries(_spec(work), range(3), "drop") == [
        (None, [0]),
        ("cost", [1, 2]),
    ]
    assert X._queries(_spec(work), range(3), "refuse") == [(None, [0, 1, 2])]


def _spec(work):
    from helpers.release._opendp_data import _cells_spec

    return _cells_spec(work, None, COLUMNS)


def _alone(df, allocation, work, mechanism, keys_known, released=None):
    """Each noisy column's scale as the release ran it before it ran one query: one query per
    release, each resolved in its own share of the budget (OpenDP's split by the budgets, or
    each query's own loss with unknown keys), on a context over the records. With unknown
    keys, the releases after the count run on the groups ``released`` (the release's own:
    OpenDP's float slack, and so a scale, depends on the keys, and another draw of the count
    can release other groups)."""
    cls = MECHANISM_CLASSES[mechanism]
    dp, _ = Q._opendp_polars()
    frame = pl.from_pandas(df)
    measure = "epsilon" if cls.opendp == "laplace" else "rho"
    budgets = np.asarray(allocation.budgets, dtype=float)
    total = float(allocation.total)
    margins = [dp.polars.Margin(by=[], max_length=MAX_LENGTH)]
    if not keys_known:
        margins.append(dp.polars.Margin(by=["region"], max_length=MAX_LENGTH, max_groups=10))
    loss = {measure: total, **({} if keys_known else {"delta": 1e-7})}
    split = {"split_by_weights": (budgets / budgets.sum()).tolist()} if keys_known else {}
    context = dp.Context.compositor(
        data=frame.lazy(),
        privacy_unit=Q._unit(dp, "patient", R.OPENDP_NEIGHBOURS),
        privacy_loss=dp.loss_of(**loss),
        margins=margins,
        **split,
    )
    losses = [None] * len(work)
    if not keys_known:
        losses = O._own_losses(budgets, total, measure, 1e-7, 0)
    spec = _spec(work)
    keys = pl.DataFrame({"region": KEYS["region"]}) if keys_known else None
    scales = {}
    for i, release in enumerate(spec):
        options = {"m": M, "missing": "refuse", "by": ["region"], "person": "patient"}
        query = Q._query(
            context,
            pl,
            dp,
            release,
            cls.discrete,
            keys=keys,
            loss=losses[i],
            measure=measure,
            **options,
        )
        measurement = Q._resolve(query, dp)
        for alias, row in Q._summary(dp, measurement, 0.05).items():
            scales[f"{i}:{alias}"] = float(row["scale"])
        context(measurement).collect()
        if not keys_known and i == 0:  # the keys the count released, for every other release
            keys = pl.DataFrame({"region": released})
    return scales


@pytest.mark.parametrize("mechanism", MECHANISMS)
@pytest.mark.parametrize("keys_known", [True, False])
def test_each_column_runs_at_its_own_scale_and_the_loss_is_the_total(mechanism, keys_known, ran):
    """Every noisy column of the one query runs at the scale its release resolves to alone
    (never below it; above it by at most a relative 1e-12, the filter's rounding) and at its
    plan's (:func:`_planned_scales`, within OpenDP's float slack, never below); OpenDP's loss
    of the context is the allocation's total, and OpenDP's own composition of what ran is
    within it and spends all but a relative 1e-9 of it."""
    cls = MECHANISM_CLASSES[mechanism]
    dp, _ = Q._opendp_polars()
    df = _table(3, people=2_000)
    if cls.discrete:
        df = df.assign(cost=df["cost"].round())
    work = _workload(mechanism, keys_known=keys_known)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism)
    out = _release(df, allocation, work, keys_known)
    assert len(out.table) > 0
    groups = out.table.loc[out.table["release"] == "visits", "region"].tolist()
    alone = _alone(df, allocation, work, mechanism, keys_known, groups)
    ran_at = {}
    for measurement in ran:
        for row in dp.summarize_polars_measurement(measurement).to_dicts():
            column = row["column"] if ":" in row["column"] else f"0:{row['column']}"
            ran_at[column] = float(row["scale"])
    assert sorted(ran_at) == sorted(alone)
    for column, scale in alone.items():
        assert scale <= ran_at[column] <= scale * (1 + 1e-12), column
    # against the plan: each release's budget at OpenDP's sensitivities
    measure = out.measure
    spec = _spec(work)
    for i, release in enumerate(spec):
        parts = Q._parts(release.kind, release.bounds, cls.discrete, i == 0 and not keys_known)
        planned = Q._planned_scales(parts, float(allocation.budgets[i]), M, measure)
        for part, scale in zip(parts, planned, strict=True):
            got = ran_at[f"{i}:{part.alias}"]
            assert scale * (1 - 1e-12) <= got <= scale * (1 + PLAN_RTOL), (release, part)
    # the loss: the allocation's total (and the δ given), held by OpenDP's filter
    total = float(allocation.total)
    assert (out.loss == total) if keys_known else (out.loss == (total, 1e-7))
    # OpenDP's loss of each query that ran, composed again here (the filter's basic
    # composition: the ε or ρ add, and the δ)
    spent = [m.map(out.d_in) for m in ran]
    spent_loss = math.fsum(x[0] if isinstance(x, tuple) else x for x in spent)
    assert total * (1 - 1e-9) <= spent_loss <= total * (1 + 2**-52)
    if not keys_known:
        assert 0 < math.fsum(x[1] for x in spent) <= 1e-7


def test_a_scale_is_raised_only_while_the_filter_would_refuse(monkeypatch, ran):
    """When OpenDP's composition of the one query would exceed the filter (forced here for
    the first two tries), every scale rises by a few units in the last place, never falls,
    and the release still spends no more than the total."""
    tries = []
    within = X._within

    def refuse_twice(spent, budget):
        tries.append(spent)
        return len(tries) > 2 and within(spent, budget)

    monkeypatch.setattr(X, "_within", refuse_twice)
    df = _table(3)
    work = _workload("laplace")
    allocation = B.budget_for_accuracy(work)
    raised = _release(df, allocation, work)
    monkeypatch.setattr(X, "_within", within)
    plain = _release(df, allocation, work)
    ratio = raised.table["scale"].to_numpy() / plain.table["scale"].to_numpy()
    assert (ratio > 1).all() and (ratio <= 1 + 1e-13).all()
    assert raised.loss == plain.loss == float(allocation.total)


def _folders(root) -> list:
    return sorted(p for p in os.listdir(root))


@pytest.fixture
def private_tmp(monkeypatch, tmp_path):
    """The system's temporary folder set to a fresh one, so the release's files are seen."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("keys_known", [True, False])
def test_the_records_cross_as_a_private_temporary_file_removed_afterwards(
    private_tmp, monkeypatch, keys_known
):
    """While OpenDP runs, the records are one Parquet file, mode 0600, in a folder of its own,
    mode 0700; after the release neither is left."""
    from opendp.extras.polars import OnceFrame

    seen = []
    collect = OnceFrame.collect

    def spy(self):
        (folder,) = _folders(private_tmp)
        path = private_tmp / folder
        (name,) = os.listdir(path)
        seen.append(
            (stat.S_IMODE(path.stat().st_mode), stat.S_IMODE((path / name).stat().st_mode), name)
        )
        return collect(self)

    monkeypatch.setattr(OnceFrame, "collect", spy)
    work = _workload("gaussian", keys_known=keys_known)
    _release(_table(1), B.budget_for_accuracy(work, mechanism="gaussian"), work, keys_known)
    assert seen and all(s == (0o700, 0o600, "records.parquet") for s in seen)
    assert _folders(private_tmp) == []


def test_the_temporary_file_is_removed_when_the_query_raises(private_tmp, monkeypatch):
    from opendp.extras.polars import OnceFrame

    def fail(self):
        assert len(_folders(private_tmp)) == 1  # the file exists while the query runs
        raise RuntimeError("the query failed")

    monkeypatch.setattr(OnceFrame, "collect", fail)
    work = _workload("laplace")
    with pytest.raises(RuntimeError, match="the query failed"):
        _release(_table(1), B.budget_for_accuracy(work), work)
    assert _folders(private_tmp) == []


@pytest.mark.parametrize("error", [KeyboardInterrupt, pl.exceptions.ComputeError])
def test_a_write_interrupted_leaves_no_file(private_tmp, monkeypatch, error):
    """A write stopped half way (Ctrl-C, a Polars error: anything but the OSError that sends
    the table to memory) is raised as it is, and neither the file nor its folder is left."""

    def half(self, path, **options):
        Path(path).write_bytes(b"PAR1 half a file")
        raise error("stopped while writing")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", half)
    frame = pl.DataFrame({"patient": [1, 2], "cost": [1.0, 2.0]})
    with pytest.raises(error), X._private_scan(frame, pl):
        pass
    assert _folders(private_tmp) == []


def test_a_table_whose_types_a_parquet_file_changes_runs_in_memory(private_tmp, monkeypatch):
    """A scan whose schema differs from the table's is not used: OpenDP gets the table."""
    frame = pl.DataFrame({"patient": [1, 2], "cost": [1.0, 2.0]})
    monkeypatch.setattr(
        pl,
        "scan_parquet",
        lambda path: pl.LazyFrame(
            {"patient": [1, 2], "cost": [1.0, 2.0]},
            schema={"patient": pl.Int32, "cost": pl.Float32},
        ),
    )
    with X._private_scan(frame, pl) as records:
        assert "Parquet" not in records.explain()
        assert records.collect().equals(frame)
    assert _folders(private_tmp) == []


def test_no_temporary_folder_to_write_in_runs_in_memory(private_tmp, monkeypatch, ran):
    """A temporary folder that cannot be made (read-only, full) leaves the release in memory."""

    def refuse(*args, **kwargs):
        raise PermissionError("read-only file system")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    work = _workload("laplace")
    out = _release(_table(1), B.budget_for_accuracy(work), work)
    assert len(out.table) == len(work) * len(KEYS["region"]) and ran == []  # no scan ran
    assert _folders(private_tmp) == []


def test_the_scan_keeps_the_types_the_release_reads(private_tmp):
    """Integers of every width, floats, text, booleans and dates come back as written."""
    import datetime

    frame = pl.DataFrame(
        {
            "patient": pl.Series([1, 2], dtype=pl.UInt32),
            "small": pl.Series([1, 2], dtype=pl.Int8),
            "cost": pl.Series([1.5, None], dtype=pl.Float32),
            "region": ["a", None],
            "flag": [True, False],
            "day": [datetime.date(2026, 1, 1), datetime.date(2026, 1, 2)],
        }
    )
    with X._private_scan(frame, pl) as records:
        assert "Parquet" in records.explain()
        assert records.collect().equals(frame)
