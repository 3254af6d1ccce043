"""The release in OpenDP: the whole workload as one OpenDP Context over a Polars LazyFrame.

:func:`opendp_release` builds it (the unit of privacy as OpenDP's own identifier, each
person's records bounded inside OpenDP's accounting, tables by group, each cell with its
interval); nothing is resized to an assumed number of records. A length is used only where
the user states one (``max_length``, a margin). The neighbour notion is
:data:`OPENDP_NEIGHBOURS` (:func:`neighbour_distance`). OpenDP and Polars are imported where
they are used; :mod:`helpers.release.script` runs the release from the command line.

Part of :mod:`helpers.release`, which re-exports every public name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import check_finite_scalar, check_int_range
from ..budget import NoiseFamily, Release
from ._checks import (
    _check_allocation,
    _check_contributions,
    _check_neighbours,
    _parse_workload,
    _workload_columns,
)

__all__ = [
    "MISSING",
    "OPENDP_NEIGHBOURS",
    "ReleaseTable",
    "neighbour_distance",
    "opendp_release",
    "opendp_workload",
]

#: The neighbour notion :func:`opendp_release` checks: OpenDP's symmetric distance on the
#: person's identifier, one person's records added or removed (:func:`neighbour_distance`).
OPENDP_NEIGHBOURS = "add-remove"


# --- the release in OpenDP --------------------------------------------------------------------


def neighbour_distance(neighbours, *, contributions) -> int:
    """The symmetric distance (records added or removed) between data sets that differ in one
    person of at most m records, by neighbour notion: m for add-remove, 2m for change-one.

    OpenDP's ``symmetric_distance`` counts records added plus records removed: a person's m
    records added or removed are at distance m; m records changed (each a removal and an
    addition, n fixed) at distance 2m. It is the ``d_in`` at which OpenDP's privacy map
    states a guarantee for that notion on records. :func:`opendp_release` measures a person
    on the identifier instead (d_in = 1 identifier, its m records bounded by OpenDP's
    truncation), under the same add-remove notion, so a record of its release states
    :data:`OPENDP_NEIGHBOURS`.

    Used in notebook 12.

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


def _column_name(label: str) -> str:
    return re.sub(r"[^0-9a-zA-Z]+", "_", label).strip("_").lower() or "value"


# --- the release as one OpenDP Context over a Polars LazyFrame --------------------------------

#: The largest ``max_length`` :func:`opendp_release` takes: OpenDP's ``Margin`` holds the
#: bound on a table's records as a 32-bit unsigned integer.
_MAX_LENGTH = 2**32 - 1

#: What :func:`opendp_release` does with a missing value (a null, or NaN in a float column):
#: "refuse" (a ValueError naming the column and how many records lack it) or "drop" (the
#: record leaves that release only, by a filter inside OpenDP's query, so the accounting covers it).
MISSING = ("refuse", "drop")


class ReleaseTable(NamedTuple):
    """What :func:`opendp_release` returns.

    ``table`` (a pandas DataFrame) has one row per cell: ``release`` (the label), the group
    columns, ``value``, ``lower`` and ``upper`` (the interval at ``coverage``), ``k`` (its
    half-width, the larger side for a mean), ``distribution`` (OpenDP's own name for the
    noise that ran), ``scale``, ``threshold`` (the least count released for keys not known
    in advance, else None), ``relative_error`` (k / |value|) and ``flagged`` (relative error
    above ``flag_above``: the small-group hazard). ``mechanism`` is the allocation's class
    name, ``measure`` OpenDP's privacy measure, ``d_in`` the distance of one person in the
    context's metric (one identifier), ``loss`` OpenDP's own privacy loss of the whole
    context at ``d_in``, ``notes`` the stated handling of every choice the release made.
    """

    table: object
    mechanism: str
    measure: str
    d_in: int
    loss: object
    notes: list


def _opendp_polars():
    import polars as pl

    dp = _opendp()
    return dp, pl


def _mechanism_class(allocation):
    """The allocation's mechanism class, refused by name when OpenDP has no counterpart."""
    cls = NoiseFamily.of(allocation.mechanism).mechanism
    if cls.opendp not in ("laplace", "gaussian"):
        raise ValueError(
            f"allocation.mechanism must have an OpenDP counterpart (a class whose opendp is "
            f"'laplace' or 'gaussian'); got {allocation.mechanism!r} ({cls.__name__}.opendp = "
            f"{cls.opendp!r}): OpenDP has no such noise, so the release refuses it"
        )
    return cls


def _check_frame(data, pl):
    """The data as a Polars DataFrame (from pandas or Polars), never empty."""
    if isinstance(data, pl.LazyFrame):
        data = data.collect()
    elif isinstance(data, Mapping):
        try:
            data = pl.DataFrame(dict(data))
        except Exception as err:  # Polars raises several kinds: said in words
            raise ValueError(f"data must be a table of equal-length columns; got {err}") from None
    elif not isinstance(data, pl.DataFrame):
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover
            pd = None
        if pd is not None and isinstance(data, pd.DataFrame):
            data = _from_pandas(data, pl)
        else:
            raise ValueError(
                "data must be a pandas or Polars DataFrame or a dict of columns (one row per "
                "record); got "
                f"{type(data).__name__}"
            )
    if data.height == 0:
        raise ValueError("data must hold at least one record; got an empty table")
    return data


def _from_pandas(data, pl):
    """A pandas table as Polars; a column Arrow cannot type (numbers mixed with strings) is
    refused by name, as a string column a release reads is."""
    try:
        return pl.from_pandas(data)
    except Exception:
        for column in data.columns:
            try:
                pl.from_pandas(data[[column]])
            except Exception as err:
                raise ValueError(
                    f"column {column!r} must hold values of one type (numbers, or strings for "
                    f"a group); got mixed values ({err})"
                ) from None
        raise  # pragma: no cover


def _require(data, name, column, what):
    if column not in data.columns:
        raise ValueError(
            f"{name} must name a column of data ({what}); got {column!r}, the columns are "
            f"{data.columns}"
        )


def _is_numeric(dtype) -> bool:
    return dtype.is_numeric() or str(dtype) == "Boolean"


def _cells_spec(workload, allocation, columns):
    parsed = _parse_workload(workload, allocation)
    cols = _workload_columns(workload)
    columns = {} if columns is None else columns
    if not isinstance(columns, Mapping) or not all(
        isinstance(k, str) and (v is None or (isinstance(v, str) and v)) for k, v in columns.items()
    ):
        raise ValueError(
            f"columns must map release labels to column names (None: a count of records); "
            f"got {columns!r:.80}"
        )
    spec = []
    for i, kind in enumerate(parsed.kinds):
        label = parsed.labels[i] if parsed.labels[i] is not None else f"release {i}"
        column = columns.get(label, _column_name(label))
        bounds = (
            (0.0, 1.0) if kind == "count" else (float(cols["lower"][i]), float(cols["upper"][i]))
        )
        if kind != "count" and not all(math.isfinite(b) for b in bounds):
            raise ValueError(f"workload[{i}] ({label!r}) must state finite lower and upper bounds")
        spec.append(_Spec(label, kind, column, bounds))
    return spec


def _check_values(data, spec, pl, missing, discrete):
    """Every column a release reads: present, numeric, and its missing values handled."""
    notes = []
    for label, kind, column, bounds in spec:
        if column is None:
            continue
        _require(data, "columns", column, f"release {label!r} reads it")
        dtype = data.schema[column]
        if not _is_numeric(dtype):
            raise ValueError(
                f"column {column!r} (release {label!r}) must be numeric; got dtype {dtype} "
                f"(e.g. {data[column].drop_nulls().head(1).to_list()!r})"
            )
        values = data[column]
        absent = values.null_count() + (int(values.is_nan().sum()) if dtype.is_float() else 0)
        if absent and missing == "refuse":
            raise ValueError(
                f"column {column!r} (release {label!r}) has {absent} missing value(s); pass "
                "missing='drop' to leave those records out of that release, or fill them "
                "yourself with a value you can defend"
            )
        if discrete and kind != "count" and not all(float(b).is_integer() for b in bounds):
            raise ValueError(
                f"workload release {label!r} must have whole-number bounds under a discrete "
                f"mechanism (integer noise); got {bounds}"
            )
        if discrete and dtype.is_float():
            present = values.drop_nulls().drop_nans()
            fractional = present.filter(~present.is_finite() | (present != present.floor()))
            if fractional.len():
                raise ValueError(
                    f"column {column!r} (release {label!r}) must hold integers under a "
                    f"discrete mechanism (its noise is on the integers); got "
                    f"{fractional.len()} non-integer value(s), e.g. {fractional[0]!r}: round "
                    "them yourself in a way you can defend, or allocate a continuous mechanism"
                )
        if absent:
            notes.append(
                f"{label}: records missing {column!r} are left out of this release (missing='drop')"
            )
    return notes


class _Spec(NamedTuple):
    """One release of the workload as the release reads it: its label, kind, column (None: a
    count of records) and bounds (a count's are (0, 1))."""

    label: str
    kind: str
    column: str | None
    bounds: tuple


class _Part(NamedTuple):
    """One noisy column of a release's OpenDP query: its name in OpenDP's output, what it sums
    ("values": the column's values, shifted by :func:`_shift`; "present": 1 per record;
    "records": OpenDP's ``dp.len``, the count a threshold reads), the bounds OpenDP clips to,
    and its noise scale as a multiple of the query's global scale."""

    alias: str
    source: str
    lower: float
    upper: float
    weight: float


def _shift(kind, bounds, discrete) -> float:
    """The public constant a mean's values are shifted by before they are summed: the middle of
    its bounds (an integer under a discrete mechanism), 0 for a count or a sum.

    A mean is released as c + S'/N̂, S' the noisy sum of x − c and N̂ the noisy count of the
    same records: c is public and N̂ is released with S', so c + S'/N̂ is post-processing of
    the two noisy sums, and S' has the per-record sensitivity max(|L − c|, |U − c|) ≤ (U − L)/2 + ½ whatever the
    signs of L and U. A sum cannot be shifted so: adding back c·N needs the number of records
    N, which is not public under add-remove neighbours (nor is a noisy count of it part of a
    sum's release), so a sum keeps OpenDP's sensitivity max(|L|, |U|) per record."""
    if kind != "mean":
        return 0.0
    lo, hi = bounds
    return float((int(lo) + int(hi)) // 2) if discrete else lo / 2 + hi / 2


def _parts(kind, bounds, discrete, thresholded=False, *, measure="epsilon") -> list:
    """The noisy columns of one release's query (:class:`_Part`): a count is one noisy sum of
    an indicator or a 0/1 column, a sum the noisy sum of the clipped values, a mean the noisy
    sum of its shifted values and the noisy count of its records; with keys not known in
    advance, OpenDP's ``dp.len`` besides, the count its threshold reads.

    That count is planned (:func:`opendp_workload` with ``keys_known=False`` doubles the
    release's Δ): its weight is set so that the release's own columns spend what they would
    with keys known at a Δ half as large, the count the rest. In ε the costs Δ/b add, so
    the count spends half of ε (weight 1/Σ Mᵢ/wᵢ); in ρ they add as Δ²/(2b²), so the
    release's columns spend (1/2)² = 1/4 of ρ and the count 3/4 (weight 1/√(3·Σ (Mᵢ/wᵢ)²)),
    Mᵢ = max(|lo|, |hi|) and wᵢ the weight of each of the release's columns."""
    if kind == "count":
        parts = [_Part("value", "values", 0.0, 1.0, 1.0)]
    elif kind == "sum":
        lo, hi = bounds
        parts = [_Part("value", "values", lo, hi, max(abs(lo), abs(hi), 1.0))]
    else:
        c = _shift(kind, bounds, discrete)
        lo, hi = bounds[0] - c, bounds[1] - c
        # the sum's noise scaled by max(|L − c|, |U − c|, 1), the count's by 1 (one scale for
        # both would drown the count): when that is ≥ 1 it is their sensitivities' ratio and
        # each spends half the mean's budget; below 1 the sum spends the smaller share
        parts = [
            _Part("sum", "values", lo, hi, max(abs(lo), abs(hi), 1.0)),
            _Part("count", "present", 0.0, 1.0, 1.0),
        ]
    if thresholded:
        ratios = [max(abs(p.lower), abs(p.upper)) / p.weight for p in parts]
        if measure == "epsilon":
            weight = 1.0 / math.fsum(ratios)
        else:
            weight = 1.0 / math.sqrt(3.0 * math.fsum(r * r for r in ratios))
        parts.append(_Part("records", "records", 0.0, 1.0, weight))
    return parts


def _planned_scales(parts, budget, distance, measure) -> list:
    """The noise scale of each part of a query that spends ``budget`` (ε, or ρ of zCDP) at a
    person's distance ``distance`` in records, as OpenDP accounts it: a part clipped to
    [lo, hi] has sensitivity distance·max(|lo|, |hi|) (records added or removed; OpenDP's
    bound on a sum when the number of records is not known), the parts' ε add (Δ/b) or their
    ρ add (Δ²/(2σ²)), and each part's scale is the global scale times its weight. The plan
    the tests hold OpenDP's own summary to (OpenDP's float sums add a rounding term on top)."""
    ratios = [distance * max(abs(p.lower), abs(p.upper)) / p.weight for p in parts]
    if measure == "epsilon":
        scale = math.fsum(ratios) / budget
    else:
        scale = math.sqrt(math.fsum(r * r for r in ratios) / (2 * budget))
    return [scale * p.weight for p in parts]


def _expression(pl, dp, release, discrete, person, *, thresholded=False, measure="epsilon"):
    """The OpenDP expressions of one release (its :func:`_parts`), on the domain the
    mechanism names (integers under a discrete mechanism, else floats); a mean's value is
    taken from its two noisy sums in :func:`_cells` (OpenDP's ``dp.mean`` is not used)."""
    dtype = pl.Int64 if discrete else pl.Float64
    column = release.column
    present = (pl.col(person) if column is None else pl.col(column)).is_not_null().cast(dtype)
    shift = _shift(release.kind, release.bounds, discrete)
    exprs = []
    for part in _parts(release.kind, release.bounds, discrete, thresholded, measure=measure):
        if part.source == "records":
            exprs.append(dp.len(scale=part.weight, signed=True).alias(part.alias))
            continue
        if part.source == "present" or column is None:
            values = present
        elif shift:
            values = pl.col(column).cast(dtype) - pl.lit(int(shift) if discrete else shift, dtype)
        else:
            values = pl.col(column).cast(dtype)
        lo, hi = (int(part.lower), int(part.upper)) if discrete else (part.lower, part.upper)
        exprs.append(values.dp.sum((lo, hi), scale=part.weight).alias(part.alias))
    return exprs


def opendp_release(
    data,
    allocation,
    workload,
    *,
    person,
    contributions,
    by=None,
    keys=None,
    max_groups=None,
    delta=None,
    max_length,
    columns=None,
    missing="refuse",
    coverage=0.95,
    flag_above=0.5,
) -> ReleaseTable:
    """The workload released from one table in one OpenDP Context, cell by cell, with its ±k.

    One ``dp.Context.compositor`` over a Polars LazyFrame holds the whole release: the unit
    of privacy is OpenDP's own, one person = one identifier (``dp.unit_of(contributions=1,
    identifier=person)``), and each query first keeps at most m = ``contributions`` records
    per person (OpenDP's ``truncate_per_group(m, keep="first")``), so the bound is part of
    OpenDP's accounting. In OpenDP 0.16 ``contributions`` in ``unit_of`` counts identifiers
    per unit when an ``identifier`` is given; the records per identifier are bounded by the
    truncation (both read in opendp/context.py and opendp/extras/polars/__init__.py). The
    allocation's budgets are the context's split (``split_by_weights``), one query per
    release; OpenDP fits each query's scale to its budget. Nothing is resized to an assumed
    number of records: a count is OpenDP's noisy sum of an indicator, a sum the noisy sum
    of the clipped values, a mean c plus its own noisy sum of x − c over its own noisy count
    (c the middle of its bounds; two noisy sums in one query, their ratio taken here; not
    OpenDP's ``dp.mean``). Each query's noise is the one its allocation planned: the
    allocation must be made for OpenDP's sensitivities (:func:`opendp_workload`: a sum costs
    m·max(|L|, |U|) per person, not m·(U − L)), and one made for others is refused. With keys
    not known in advance, the count OpenDP's threshold reads is paid from each query's
    budget: the allocation must be made for it (``opendp_workload(...,
    keys_known=False)``, every Δ doubled), and one made for keys known is refused, as is the
    reverse.

    The noise is the allocation's own class (``cls.opendp``: "laplace" is OpenDP's pure-ε
    measure, "gaussian" its zCDP measure). The class's ``discrete`` flag decides which
    noise runs, never the column's type: set, OpenDP runs the discrete Laplace or discrete
    Gaussian on the values as integers, and every column a release reads must then hold
    integers (a float column with a non-integer value is refused by name, never
    truncated); unset, the continuous one on floats. A class with ``opendp = None`` is
    refused by name.

    Tables by group (``by``): with public ``keys`` every key gets a cell (a key absent
    from the data a noisy one) and values outside the list are dropped; without keys,
    OpenDP releases only the groups whose noisy count passes a threshold it sets from
    ``delta`` (spent on top of the ε or ρ_z, as OpenDP's approximate measure) and the
    public bound ``max_groups``: the threshold and the δ hold only if that bound does. A person's m records can fall in at most m groups, at
    most m in one: OpenDP's sensitivity across the groups follows from the truncation.

    Each cell's interval is OpenDP's accuracy summary (``summarize(alpha=1 − coverage)``);
    a mean's interval holds when its sum and its count are both within theirs at
    α/2 each (a union bound, so at least ``coverage``).

    Used in notebook 12.

    Parameters
    ----------
    data : pandas.DataFrame, polars.DataFrame or LazyFrame, or dict of columns
        One row per record, with the column ``person``.
    allocation : helpers.budget.Allocation
        Made for :func:`opendp_workload` of the workload with the same m (and
        ``keys_known=False`` for ``by`` without ``keys``).
    workload : sequence of Release
        One release per budget; counts, sums and means with bounds. A mean's ``n`` serves
        only the allocation (its Δ, so its budget); the release never uses it: the mean is
        OpenDP's noisy sum over its noisy count, its interval OpenDP's own.
    person : str, keyword-only
        The column naming whose record a row is.
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person.
    by : str or sequence of str, keyword-only
        One or two grouping columns (default: no grouping).
    keys : mapping or DataFrame, keyword-only
        The public keys of the groups (column -> list of values; with two columns their
        full cross product); None: keys not known in advance (needs ``delta`` and ``max_groups``).
    max_groups : int, keyword-only
        Only for groups whose keys are not known in advance (else refused): a public bound
        on the number of groups, stated from public knowledge, never from the data
        (OpenDP's ``Margin(max_groups=...)``). OpenDP's threshold, and so the δ the release
        spends, rest on it (OpenDP does not check it), so a table with more groups than the
        stated bound is refused, as a false ``max_length`` is. An integer from 1 to 2³² − 1.
    delta : float, keyword-only
        Only for groups whose keys are not known in advance (else refused): δ in (0, 1) spent
        to release them.
    max_length : int, keyword-only
        Required: the user's statement of a public upper bound on the records of the table
        (and so of any group), from public knowledge such as the population served, never
        from the data (OpenDP's ``Margin(max_length=...)``). It is the only length the
        release uses, and only as that bound: no count is resized or padded to it. A table
        longer than the stated bound is refused (the bound would be false, and OpenDP's
        accounting of float sums rests on it). OpenDP's float sums add a
        rounding term that grows with it (Casacuberta et al. 2022), so a looser bound means
        more noise; the ``scale`` column shows the noise that ran. An integer from 1 to
        2³² − 1 (OpenDP's ``Margin`` holds it as a 32-bit unsigned
        integer).
    columns : mapping, keyword-only
        Release label -> column (default the label in lower case with _; None for a count
        of records).
    missing : {"refuse", "drop"}, keyword-only
        See :data:`MISSING`.
    coverage : float, keyword-only
        The probability each printed interval holds, in (0, 1).
    flag_above : float, keyword-only
        Cells whose relative error k/|value| is above this are flagged.

    Returns
    -------
    ReleaseTable

    %(raises)s

    References
    ----------
    OpenDP Library 0.16: ``opendp.context.Context.compositor``, ``unit_of``, the Polars
    extras (``truncate_per_group``, ``with_keys``, ``Margin``, ``summarize``).

    Examples
    --------
    >>> import pandas as pd
    >>> from helpers.budget import budget_for_accuracy
    >>> df = pd.DataFrame({"patient": [1, 1, 2, 3], "region": ["N", "N", "S", "N"]})
    >>> work = opendp_workload([Release("count", k=20.0, label="visits")], contributions=2)
    >>> out = opendp_release(df, budget_for_accuracy(work), work, person="patient",
    ...                      contributions=2, by="region", keys={"region": ["N", "S"]},
    ...                      columns={"visits": None}, max_length=1_000)
    >>> out.table["region"].tolist(), out.table["distribution"].iloc[0]
    (['N', 'S'], 'Float Laplace')
    """
    allocation = _check_allocation(allocation)
    cls = _mechanism_class(allocation)
    m = _check_contributions(contributions)
    coverage, flag_above, max_length = _check_options(missing, coverage, flag_above, max_length)
    dp, pl = _opendp_polars()
    frame = _check_frame(data, pl)
    _check_person(frame, person, max_length)
    spec = _cells_spec(workload, allocation, columns)
    notes = _check_values(frame, spec, pl, missing, cls.discrete)
    by = _check_by(frame, by)
    key_frame = _key_frame(keys, by, frame, pl)
    budgets, total = _check_consistent(allocation, workload, m, not by or key_frame is not None)
    measure = "epsilon" if cls.opendp == "laplace" else "rho"
    loss, margins, delta = _loss_and_margins(
        dp, frame, by, key_frame, measure, total, delta, max_groups, max_length
    )
    context = dp.Context.compositor(
        data=frame.lazy(),
        privacy_unit=_unit(dp, person, OPENDP_NEIGHBOURS),
        privacy_loss=loss,
        split_by_weights=(budgets / budgets.sum()).tolist(),
        margins=margins,
    )
    options = {"m": m, "missing": missing, "by": by, "keys": key_frame, "person": person}
    options["measure"] = measure
    rows = []
    for release in spec:
        query = _query(context, pl, dp, release, cls.discrete, **options)
        cells = _cells(context, query, release, cls.discrete, by, coverage, dp)
        rows.extend(_in_order(cells, by, key_frame))
    notes = _notes(m, by, key_frame, delta, dropped=notes)
    return ReleaseTable(
        _table(rows, flag_above), cls.name, measure, 1, context.accountant.map(1), notes
    )


def _check_options(missing, coverage, flag_above, max_length) -> tuple:
    """(coverage, flag_above, max_length) checked; ``missing`` one of :data:`MISSING`."""
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {MISSING}; got {missing!r}")
    coverage = float(_check_in_unit("coverage", coverage))
    flag_above = _check_positive_finite("flag_above", flag_above)
    return coverage, flag_above, check_int_range("max_length", max_length, 1, _MAX_LENGTH)


def _check_person(frame, person, max_length) -> None:
    """The table within the stated ``max_length``; ``person`` a column naming every record's
    person."""
    if frame.height > max_length:
        raise ValueError(
            f"max_length must be a public upper bound on the table's records; got "
            f"{max_length!r}, and the table has more records than that: state a bound that "
            "holds (e.g. the population the data are drawn from)"
        )
    if not isinstance(person, str) or not person:
        raise ValueError(f"person must be a non-empty column name; got {person!r}")
    _require(frame, "person", person, "whose record a row is")
    if frame[person].null_count():
        raise ValueError(
            f"person column {person!r} must name a person on every record; "
            f"{frame[person].null_count()} record(s) have none"
        )


def _check_by(frame, by) -> list:
    """``by`` as a list of at most two grouping columns of the table, each with a group on
    every record."""
    given = by
    by = [] if by is None else [by] if isinstance(by, str) else by
    if not isinstance(by, (list, tuple)) or len(by) > 2 or not all(isinstance(b, str) for b in by):
        raise ValueError(f"by must be one or two column names; got {given!r}")
    for column in by:
        _require(frame, "by", column, "a grouping column")
        if frame[column].null_count():
            raise ValueError(
                f"by column {column!r} has {frame[column].null_count()} record(s) with no "
                "group; give them a group (e.g. 'unknown') or drop them before the release"
            )
    return list(by)


def _loss_and_margins(dp, frame, by, key_frame, measure, total, delta, max_groups, max_length):
    """(OpenDP's privacy loss of the context, its margins, the δ spent or None): δ and
    ``max_groups`` only, and both, for groups whose keys are not known in advance."""
    if (not by or key_frame is not None) and (delta is not None or max_groups is not None):
        raise ValueError(
            "delta and max_groups are for groups (by) whose keys are not known in advance; "
            f"{'with public keys' if by else 'without by'} they would be ignored, so pass "
            f"neither; got delta={delta!r}, max_groups={max_groups!r}"
        )
    if max_groups is not None:
        max_groups = check_int_range("max_groups", max_groups, 1, _MAX_LENGTH)
        if frame.select(by).n_unique() > max_groups:
            raise ValueError(
                f"max_groups must be a public upper bound on the number of groups; got "
                f"{max_groups!r}, and the table has more groups than that: state a bound "
                "that holds (OpenDP's threshold and δ rest on it)"
            )
    margins = [dp.polars.Margin(by=[], max_length=max_length)]
    if by:
        margins.append(dp.polars.Margin(by=by, max_length=max_length, max_groups=max_groups))
    if not by or key_frame is not None:
        return dp.loss_of(**{measure: total}), margins, None
    if delta is None or max_groups is None:
        raise ValueError(
            "keys not known in advance need delta (the δ spent to release them) and "
            f"max_groups (a public bound on the groups); got delta={delta!r}, "
            f"max_groups={max_groups!r}"
        )
    delta = _check_in_unit("delta", delta)
    return dp.loss_of(**{measure: total, "delta": delta}), margins, delta


def _unit(dp, person, neighbours):
    """OpenDP's unit of privacy: one person = one identifier, added or removed (add-remove)
    or changed (change-one); the records per identifier are bounded by the truncation."""
    if _check_neighbours(neighbours) == "add-remove":
        return dp.unit_of(contributions=1, identifier=person)
    return dp.unit_of(changes=1, identifier=person)


def _query(context, pl, dp, release, discrete, *, m, missing, by, keys, person, measure):
    """One release's OpenDP query: each person's first m records, the missing values dropped
    if asked, then its expressions, by group when ``by``."""
    query = context.query().truncate_per_group(m, keep="first")
    if missing == "drop" and release.column is not None:
        column = pl.col(release.column)
        query = query.filter(column.is_not_null() & ~column.cast(pl.Float64).is_nan())
    # OpenDP releases a key not known in advance only when a noisy dp.len passes its threshold
    thresholded = bool(by) and keys is None
    expr = _expression(pl, dp, release, discrete, person, thresholded=thresholded, measure=measure)
    if not by:
        return query.select(*expr)
    query = query.group_by(by).agg(*expr)
    return query if keys is None else query.with_keys(keys)


def _in_order(cells, by, key_frame) -> list:
    """The cells in the keys' order (or sorted by group): OpenDP's order is the engine's."""
    if key_frame is None:
        return sorted(cells, key=lambda c: str([c[b] for b in by]))
    order = {tuple(key): i for i, key in enumerate(key_frame.iter_rows())}
    return sorted(cells, key=lambda c: order[tuple(c[b] for b in by)])


def _table(rows, flag_above):
    """The cells as a pandas table, with each one's relative error and flag."""
    import pandas as pd

    for row in rows:
        size = abs(row["value"]) if math.isfinite(row["value"]) else 0.0
        row["relative_error"] = row["k"] / size if size > 0 else math.inf
        row["flagged"] = bool(row["relative_error"] > flag_above)
    return pd.DataFrame(rows)


def _notes(m, by, key_frame, delta, *, dropped) -> list:
    """The stated handling of the truncation, the clipping, the missing values (``dropped``,
    from :func:`_check_values`) and the groups."""
    notes = [
        f"each person's records: at most {m} kept (the first {m} in the table's order; "
        "OpenDP's truncate_per_group), the rest dropped",
        "values clipped to each release's bounds before summing: a bias, as is dropping a "
        "person's records beyond the first m",
        *dropped,
    ]
    if by and key_frame is not None:
        notes.append(
            "groups: the public keys given; a key absent from the data still gets a noisy "
            "cell, and records whose group is not among the keys are dropped"
        )
    elif by:
        notes.append(
            f"groups: keys not known in advance; a group is released only when its noisy "
            f"count passes OpenDP's threshold (column threshold), spending δ = {delta:g}; "
            "that count (OpenDP's dp.len) is paid from each release's budget, as the "
            "allocation planned (opendp_workload with keys_known=False)"
        )
    return notes


def _check_consistent(allocation, workload, m, keys_known):
    """The allocation's budgets finite and positive, matching its scales at its Δ, and its
    Δ OpenDP's for m records and keys known or not (:func:`opendp_workload`)."""
    budgets = np.asarray(allocation.budgets, dtype=float)
    scales = np.asarray(allocation.scales, dtype=float)
    total = float(allocation.total)
    if not (np.all(np.isfinite(budgets)) and np.all(budgets > 0) and math.isfinite(total)):
        raise ValueError(
            f"allocation.budgets must be finite and positive; got {budgets.tolist()!r}"
        )
    if not (np.all(np.isfinite(scales)) and np.all(scales > 0)):
        raise ValueError(f"allocation.scales must be finite and positive; got {scales.tolist()!r}")
    family = NoiseFamily.of(allocation.mechanism)
    implied = family.budgets(np.asarray(allocation.sensitivities, dtype=float), scales)
    if not np.allclose(implied, budgets, rtol=1e-6, atol=0):
        raise ValueError(
            f"allocation.budgets must be what its scales spend at its sensitivities; got "
            f"budgets {budgets.tolist()!r} where the scales give {implied.tolist()!r}"
        )
    if not budgets.sum() <= total * (1 + 1e-12):
        raise ValueError(f"allocation.total must be the sum of its budgets; got {total!r}")
    _plan_check_unit(allocation, workload, m, keys_known)
    return budgets, total


def _record_sensitivities(workload) -> np.ndarray:
    """Each release's sensitivity per record added or removed, as OpenDP's Context accounts
    it: a count 1, a sum max(|L|, |U|) (:func:`opendp_workload`), a mean (U − L)/n, the
    course's Δ, which sets only the mean's budget."""
    parsed = _parse_workload(workload)
    columns = _workload_columns(workload)
    record = _parse_workload(
        [
            Release(kind, k=1.0, lower=lo, upper=hi, n=n)
            for kind, lo, hi, n in zip(
                parsed.kinds, columns["lower"], columns["upper"], columns["n"], strict=True
            )
        ]
    ).sensitivity
    for i, kind in enumerate(parsed.kinds):
        if kind == "sum":
            record[i] = max(abs(float(columns["lower"][i])), abs(float(columns["upper"][i])))
    return record


def opendp_workload(
    workload, *, contributions, neighbours=OPENDP_NEIGHBOURS, keys_known=True
) -> list:
    """The workload with each release's sensitivity as :func:`opendp_release`'s OpenDP Context
    accounts it for one person of up to m records: the workload to allocate for that release.

    A person added or removed is d = m records (d = 2m changed: :func:`neighbour_distance`).
    A count's Δ is then d. A sum's is d·max(|L|, |U|): OpenDP bounds a sum of values in
    [L, U] by max(|L|, |U|) per record added or removed when the number of records is not
    known, and uses the U − L of change-one with n public only when the size is known, which
    a release by identifier does not state. That is larger than the course's d·(U − L) when
    L > 0 or U < 0 (a sum of [100, 500] costs 500 per record, not 400), smaller when L < 0 < U;
    a sum cannot be shifted to straddle 0, since adding back c·N needs the number of records N,
    which add-remove does not publish. A mean keeps the course's d·(U − L)/n, which sets only
    its budget: the release spends that budget on its own noisy sum (of x − c, c the middle
    of the bounds, so max(|L − c|, |U − c|) per record whatever the signs) and noisy count,
    and adds c back (post-processing, c public). With these sensitivities the noise
    OpenDP runs for a count or a sum is the allocation's own (the tests hold OpenDP's
    summary to it for every sign of the bounds); :func:`opendp_release` refuses an
    allocation made for other ones. The bounds, n and labels are kept.

    With groups whose keys are not known in advance (``keys_known=False``), OpenDP releases
    a group only when a noisy count of its records (``dp.len``, Δ = d) passes a threshold,
    and that count is part of each release's query, paid from its budget. Every Δ is then
    doubled, so the allocation pays for it: the release's own noisy columns get the noise
    the allocation plans (its ±k), and the count the rest of the budget (half of ε; 3/4 of
    ρ, since zCDP adds Δ²: (2Δ)² = Δ² + 3Δ²).

    Used in notebook 12.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person.
    neighbours : {"add-remove", "change-one"}, keyword-only
        The neighbour notion in OpenDP's terms (default :data:`OPENDP_NEIGHBOURS`, the one
        :func:`opendp_release` runs; change-one doubles every Δ, as OpenDP's change-one
        distance on identifiers does).
    keys_known : bool, keyword-only
        False for a release by groups whose keys are not known in advance (``by`` without
        ``keys``): every Δ doubled for the count OpenDP's threshold reads. Default True
        (no groups, or public keys).

    Returns
    -------
    builtins.list
        One :class:`helpers.budget.Release` per release, ``sensitivity`` stated.

    %(raises)s

    References
    ----------
    OpenDP Library 0.16: ``make_sum`` ("If dataset size is known, uses a
    restricted-sensitivity proof"), ``unit_of`` (``contributions`` and ``changes`` with an
    ``identifier``); the sensitivities are checked against OpenDP's own privacy map in
    ``tests/helpers/release/test_opendp.py``.

    Examples
    --------
    >>> work = [Release("sum", k=9.0, lower=100.0, upper=500.0), Release("count", k=5.0)]
    >>> [r.sensitivity for r in opendp_workload(work, contributions=3)]
    [1500.0, 3.0]
    >>> [r.sensitivity for r in opendp_workload(work, contributions=3, keys_known=False)]
    [3000.0, 6.0]
    """
    from .people import _with_sensitivities

    m = _check_contributions(contributions)
    if not isinstance(keys_known, bool):
        raise ValueError(f"keys_known must be True or False; got {keys_known!r}")
    distance = neighbour_distance(neighbours, contributions=m)
    factor = distance if keys_known else 2 * distance
    return _with_sensitivities(workload, _record_sensitivities(workload), factor)


def _plan_check_unit(allocation, workload, m, keys_known=True) -> None:
    """The allocation's Δ are OpenDP's for m records and keys known or not
    (:func:`opendp_workload`); a plan for the other case is refused naming the fix."""
    _parse_workload(workload, allocation)

    def opendp_deltas(known):
        work = opendp_workload(workload, contributions=m, keys_known=known)
        return np.array([r.sensitivity for r in work])

    given = np.asarray(allocation.sensitivities, dtype=float)
    close = np.isclose(given, opendp_deltas(keys_known), rtol=1e-9, atol=0)
    if np.all(close):
        return
    i = int(np.flatnonzero(~close)[0])
    expected = opendp_deltas(keys_known)[i]
    fix = f"opendp_workload(workload, contributions={m}, keys_known={keys_known})"
    if np.allclose(given, opendp_deltas(not keys_known), rtol=1e-9, atol=0):
        said = "known in advance" if keys_known else "not known in advance"
        raise ValueError(
            f"allocation must be made for the release's groups, whose keys are {said}: it was "
            f"made with keys_known={not keys_known} (release {i} has Δ = {given[i]:g}, the "
            f"release's is {expected:g}); allocate {fix}"
        )
    raise ValueError(
        f"allocation must be made for contributions={m} in OpenDP's add-remove "
        f"accounting: release {i} has Δ = {given[i]:g}, OpenDP's is "
        f"{expected:g} (a sum's m·max(|L|, |U|), not m·(U − L)); allocate {fix}"
    )


def _check_in_unit(name, value) -> float:
    v = check_finite_scalar(name, value)
    if not 0 < v < 1:
        raise ValueError(f"{name} must be a number in the open interval (0, 1); got {value!r}")
    return float(v)


def _check_positive_finite(name, value) -> float:
    v = check_finite_scalar(name, value)
    if not v > 0:
        raise ValueError(f"{name} must be a positive number; got {value!r}")
    return float(v)


def _key_frame(keys, by, frame, pl):
    if keys is None:
        return None
    if not by:
        raise ValueError("keys must come with by (the grouping columns they are keys of)")
    if isinstance(keys, pl.DataFrame):
        table = keys
    elif isinstance(keys, Mapping):
        table = None
        for column in by:
            if column not in keys:
                raise ValueError(
                    f"keys must list the values of every by column; {column!r} is missing"
                )
            values = list(keys[column])
            if not values:
                raise ValueError(f"keys[{column!r}] must list at least one value")
            part = pl.DataFrame({column: _key_values(column, values, frame, pl)})
            table = part if table is None else table.join(part, how="cross")
    else:
        raise ValueError(
            f"keys must be a mapping column -> values or a Polars DataFrame; got {keys!r:.80}"
        )
    if sorted(table.columns) != sorted(by):
        raise ValueError(f"keys must have exactly the by columns {by}; got {table.columns}")
    if isinstance(keys, pl.DataFrame):
        table = pl.DataFrame({c: _key_values(c, table[c].to_list(), frame, pl) for c in by})
    return table.select(by).unique(maintain_order=True)


def _key_values(column, values, frame, pl):
    """A by column's public keys as a Series of the column's dtype; a key that is not a value
    of that type (a string key of an integer column, 2.5 of one) is refused by name."""
    dtype = frame.schema[column]
    try:
        series = pl.Series(values, strict=False)
        cast = series.cast(dtype, strict=True)
        if dtype.is_integer() and series.dtype.is_float():
            if not (cast.cast(pl.Float64) == series).all():
                raise ValueError("not whole")
    except Exception:  # Polars raises several kinds: said in words
        raise ValueError(
            f"keys[{column!r}] must hold values of the column's type ({dtype}); got {values!r:.80}"
        ) from None
    return cast


def _resolve(query, dp):
    """The query's measurement at the least global scale whose OpenDP map at d_in is within
    its share of the budget, as ``LazyFrameQuery.resolve`` finds it, without its 1,000-step
    float bisection: the loss is c/s (ε) or c/s² (ρ) in the global scale s up to OpenDP's
    float slack, so s is solved from the map at s = 1 and raised by the ratio (and a few
    units in the last place) until OpenDP's own map is within the budget. A query that
    spends δ on keys (two parameters) goes through OpenDP's own search."""
    inner = object.__getattribute__(query, "_query")
    d_in, d_out = inner._d_in, inner._d_out
    domain, metric = inner._chain
    plan = object.__getattribute__(query, "polars_plan")
    root = 2.0 if "ZeroConcentrated" in str(inner._output_measure) else 1.0
    keys = isinstance(d_out, tuple)  # (ε or ρ, δ): δ spent on releasing keys

    def make(scale, threshold=None):
        return dp.m.make_private_lazyframe(
            domain,
            metric,
            inner._output_measure,
            plan,
            global_scale=scale,
            threshold=threshold,
        )

    def loss(measurement):
        spent = measurement.map(d_in)
        return spent[0] if keys else spent

    budget = d_out[0] if keys else d_out
    no_threshold = 2**32 - 1 if keys else None  # as OpenDP's resolve: scale first
    scale = (loss(make(1.0, no_threshold)) / budget) ** (1 / root)
    for _ in range(60):
        spent = loss(make(scale, no_threshold))
        if spent <= budget:
            break
        scale *= (spent / budget) ** (1 / root) * (1 + 4 * 2.0**-52)
    else:  # pragma: no cover
        raise AssertionError("OpenDP's map did not come within the budget")
    if not keys:
        return make(scale)
    threshold = dp.binary_search(lambda t: make(scale, t).map(d_in)[1] <= d_out[1], T=int)
    return make(scale, threshold)


def _ratio_interval(s, a, n, b, bounds):
    """The mean's interval when the sum is within s ± a and the count within n ± b: the
    extremes of sum/count over that box (count > 0), inside the bounds (a mean of clipped
    values lies in them)."""
    lower, upper = bounds
    if n - b <= 0:
        return float(lower), float(upper)
    corners = [(s + i * a) / (n + j * b) for i in (-1, 1) for j in (-1, 1)]
    return max(float(lower), min(corners)), min(float(upper), max(corners))


def _cells(context, query, release, discrete, by, coverage, dp):
    """One dict per cell of a query: its value, interval and OpenDP's own summary (the
    query resolved once: its summary and its release are of the same measurement)."""
    alpha = 1.0 - coverage
    mean = release.kind == "mean"
    measurement = _resolve(query, dp)
    summary = dp.summarize_polars_measurement(measurement, alpha / 2 if mean else alpha)
    released = context(measurement).collect()
    rows = {r["column"]: r for r in summary.to_dicts()}
    threshold = next((r.get("threshold") for r in rows.values() if r.get("threshold")), None)
    first = rows["sum" if mean else "value"]
    shift = _shift(release.kind, release.bounds, discrete)
    low, high = (b - shift for b in release.bounds)
    out = []
    for cell in released.iter_rows(named=True):
        if mean:  # c + S'/N̂ (S' the noisy sum of x − c): a ratio, then c added back
            s, n = float(cell["sum"]), float(cell["count"])
            a, b = float(rows["sum"]["accuracy"]), float(rows["count"]["accuracy"])
            value = shift + s / n if n > 0 else math.nan
            lower, upper = (shift + x for x in _ratio_interval(s, a, n, b, (low, high)))
            k = max(value - lower, upper - value) if n > 0 else math.inf
        else:
            value = float(cell["value"])
            k = float(first["accuracy"])
            lower, upper = value - k, value + k
        out.append(
            {
                "release": release.label,
                **{g: cell[g] for g in by},
                "kind": release.kind,
                "value": value,
                "lower": lower,
                "upper": upper,
                "k": k,
                "coverage": coverage,
                "distribution": first["distribution"],
                "scale": float(first["scale"]),
                "threshold": None if threshold is None else float(threshold),
            }
        )
    return out


fill_docstrings(globals())
