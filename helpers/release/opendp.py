"""The release in OpenDP: the whole workload as one OpenDP Context over a Polars LazyFrame.

:func:`opendp_release` builds it (the unit of privacy as OpenDP's own identifier, each
person's records bounded inside OpenDP's accounting, tables by group, each cell with its
interval); nothing is resized to an assumed number of records. A length is used only where
the user states one (``max_length``, a margin). The neighbour notion is
:data:`OPENDP_NEIGHBOURS` (:func:`neighbour_distance`). OpenDP and Polars are imported where
they are used; :mod:`helpers.release.script` runs the release from the command line.

This module holds the public functions and the checks of the allocation; the table and the
workload are read and checked in :mod:`helpers.release._opendp_data`, the OpenDP queries built
and their cells read in :mod:`helpers.release._opendp_query`.

Part of :mod:`helpers.release`, which re-exports every public name.
"""

from __future__ import annotations

import math
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
from ._opendp_data import (
    _MAX_LENGTH,
    _cells_spec,
    _check_by,
    _check_frame,
    _check_in_unit,
    _check_person,
    _check_positive_finite,
    _check_values,
    _key_frame,
)
from ._opendp_query import (
    _cells,
    _in_order,
    _loss_and_margins,
    _notes,
    _opendp_polars,
    _query,
    _table,
    _unit,
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


# --- the release as one OpenDP Context over a Polars LazyFrame --------------------------------

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


def _mechanism_class(allocation):
    """The allocation's mechanism class, refused by name when OpenDP has no counterpart."""
    cls = NoiseFamily.of(allocation).mechanism
    if cls.opendp not in ("laplace", "gaussian"):
        raise ValueError(
            f"allocation.mechanism must have an OpenDP counterpart (a class whose opendp is "
            f"'laplace' or 'gaussian'); got {allocation.mechanism!r} ({cls.__name__}.opendp = "
            f"{cls.opendp!r}): OpenDP has no such noise, so the release refuses it"
        )
    return cls


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
    family = NoiseFamily.of(allocation)
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


fill_docstrings(globals())
