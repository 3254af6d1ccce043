"""The release in OpenDP: the whole workload as one OpenDP Context over a Polars LazyFrame.

:func:`opendp_release` builds it (the unit of privacy as OpenDP's own identifier, each
person's records bounded inside OpenDP's accounting, tables by group, each cell with its
interval); nothing is resized to an assumed number of records. A length is used only where
the user states one (``max_length``, a margin). The neighbour notion is
:data:`OPENDP_NEIGHBOURS` (:func:`neighbour_distance`). OpenDP and Polars are imported where
they are used; :mod:`helpers.release.script` runs the release from the command line.

This module holds the public functions and the checks of the allocation; the table and the
workload are read and checked in :mod:`helpers.release._opendp_data`, the OpenDP queries built
and their cells read in :mod:`helpers.release._opendp_query`, and the workload run as one
query in :mod:`helpers.release._opendp_run`.

Part of :mod:`helpers.release`, which re-exports every public name.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import check_int_range
from ..budget import NoiseFamily, PrivacyUnit, Release, Workload
from ..budget.unit import unit_of
from ._checks import (
    _check_allocation,
    _check_contributions,
    _check_total_is_sum,
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
    _in_order,
    _key_release,
    _loss_and_margins,
    _notes,
    _opendp_polars,
    _table,
    _unit,
)
from ._opendp_run import _run

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
    return PrivacyUnit("person", contributions=contributions, neighbours=neighbours).records_changed


# --- the release as one OpenDP Context over a Polars LazyFrame --------------------------------

#: What :func:`opendp_release` does with a missing value (a null, or NaN in a float column):
#: "refuse" (a ValueError naming the column and how many records lack it) or "drop" (the
#: record leaves that release only, by a filter inside OpenDP's query, so the accounting covers it).
MISSING = ("refuse", "drop")


class ReleaseTable(NamedTuple):
    """What :func:`opendp_release` returns.

    ``table`` (a pandas DataFrame) has one row per cell: ``release`` (the label), the group
    columns, ``value``, ``lower`` and ``upper`` (the interval at ``coverage``), ``k`` (its
    half-width, the larger side for a mean: the ±k delivered), ``target`` and ``planned`` (the
    release's target ±k and the allocation's planned ±k, beside it: for a mean the widest it
    prints in a group of its least size n, so a larger group's is narrower), ``distribution``
    (OpenDP's own name for the
    noise that ran), ``scale``, ``threshold`` (the least count released for keys not known
    in advance, else None), ``relative_error`` (k / |value|), ``flagged`` (relative error
    above ``flag_above``: the small-group hazard) and ``note`` ("" or why a cell has no
    estimate). Every value is a publishable number: a mean is clamped to its bounds
    (post-processing), and a mean whose noisy count is ≤ 0 is the middle of its bounds with
    the bounds as its interval, flagged, its ``note`` saying so (never NaN). ``mechanism`` is the allocation's class
    name, ``measure`` OpenDP's privacy measure, ``d_in`` the distance of one person in the
    context's metric (one identifier), ``loss`` OpenDP's own privacy loss of the whole
    context at ``d_in``, ``notes`` the stated handling of every choice the release made.
    What ran is kept for the record (:func:`privacy_record` takes the release itself):
    ``unit`` the :class:`helpers.budget.PrivacyUnit` (m and OpenDP's add-remove neighbours),
    ``allocation`` and ``workload`` as released, ``delta`` the δ spent on group keys not
    known in advance (else None) and ``groups`` the groups published, in words.
    """

    table: object
    mechanism: str
    measure: str
    d_in: int
    loss: object
    notes: list
    unit: object = None
    allocation: object = None
    workload: object = None
    delta: float | None = None
    groups: str = ""


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
    contributions=None,
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
    allocation's budgets are OpenDP's split of the total (``split_by_weights``), one share per
    release; OpenDP fits each release's scale to its share, on a context over the table's
    schema alone (no search reads a record). The workload then runs as one OpenDP query at
    those scales, so each person's records are truncated once (a query apart only for the
    count that releases unknown keys, and per column whose missing values are dropped), in a
    privacy filter of the allocation's total: a scale rises by a few units in the last place
    where OpenDP's rounding of the one query's loss would pass the total, never falls
    (:mod:`helpers.release._opendp_run`), and ``loss`` is that total. Nothing is resized to an assumed
    number of records: a count is OpenDP's noisy sum of an indicator, a sum the noisy sum
    of the clipped values, a mean c plus its own noisy sum of x − c over its own noisy count
    (c the middle of its bounds; two noisy sums in one query, their ratio taken here; not
    OpenDP's ``dp.mean``). Each query's noise is the one its allocation planned: the
    allocation must be made for OpenDP's sensitivities (:func:`opendp_workload`: a sum costs
    m·max(|L|, |U|) per person, not m·(U − L)), and one made for others is refused. The
    allocation's total must be the sum of its budgets (the context spends the total).

    The noise is the allocation's own class (``cls.opendp``: "laplace" is OpenDP's pure-ε
    measure, "gaussian" its zCDP measure). The class's ``discrete`` flag decides which
    noise runs, never the column's type: set, OpenDP runs the discrete Laplace or discrete
    Gaussian on the values as integers, and every column a release reads must then hold
    integers (a float column with a non-integer value is refused by name, never
    truncated); unset, the continuous one on floats. A class with ``opendp = None`` is
    refused by name.

    Tables by group (``by``): with public ``keys`` every key gets a cell (a key absent
    from the data a noisy one) and values outside the list are dropped. Without keys, the
    workload's first count of records releases them, as OpenDP's own grouped count does: its
    query is ``group_by(by).agg(dp.len())`` at its own budget and the whole ``delta`` (spent
    on top of the ε or ρ_z, OpenDP's approximate measure), and OpenDP releases only the
    groups whose noisy count passes the threshold it sets from ``delta`` and the public
    bound ``max_groups`` (the threshold and the δ hold only if that bound does). Every other
    release then runs on the groups released, as public keys (post-processing): one set of
    groups for the whole table, no release paying for the keys, the noise of each the one
    it would have with public keys (the count's is OpenDP's integer noise at its planned
    scale). A workload without a count of records is refused, naming the fix. A person's m records can fall in at most m groups, at
    most m in one: OpenDP's sensitivity across the groups follows from the truncation.

    The records reach OpenDP as a temporary Parquet file that OpenDP's engine scans lazily
    (a table in memory would cross into OpenDP as a second whole copy): only the columns the
    release reads, in a file of mode 0600 inside a folder of its own of mode 0700 in the
    system's temporary folder (``TMPDIR``), both removed when the release returns or raises
    (a process killed meanwhile leaves them to the system's cleaning of that folder). A table
    whose column types a Parquet file would change is given to OpenDP in memory instead.

    Each cell's interval is OpenDP's accuracy summary (``summarize(alpha=1 − coverage)``);
    a mean's interval holds when its sum and its count are both within theirs at
    α/2 each (a union bound, so at least ``coverage``): :func:`helpers.budget.ratio_interval`,
    the interval its allocation planned with, so in a group of its least size n the ±k
    printed is at most the plan's (the table's ``planned``, beside ``target``).

    Used in notebook 12.

    Parameters
    ----------
    data : pandas.DataFrame, polars.DataFrame or LazyFrame, or dict of columns
        One row per record, with the column ``person``.
    allocation : helpers.budget.Allocation
        Made for :func:`opendp_workload` of the workload (which states m); its ``total`` the
        sum of its budgets.
    workload : sequence of Release
        One release per budget; counts, sums and means with bounds. A mean's ``n`` is its
        least group size, stated from public knowledge: the allocation plans its budget for it
        (:func:`opendp_workload`); the release never uses it: the mean is OpenDP's noisy sum
        over its noisy count, its interval :func:`helpers.budget.ratio_interval` of OpenDP's
        accuracies.
    person : str, keyword-only
        The column naming whose record a row is.
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person. Default: the allocation's own
        (``allocation.unit``, from :func:`opendp_workload`); given, it must equal it.
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
    extras (``truncate_per_group``, ``with_keys``, ``Margin``, ``summarize``,
    ``make_private_lazyframe``); Polars ``scan_parquet``; Python's ``tempfile.mkdtemp``.

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
    _check_total_is_sum(allocation)  # the context spends the total: it must be the plan's
    cls = _mechanism_class(allocation)
    unit = _release_unit(allocation, workload, contributions)
    m = unit.contributions
    coverage, flag_above, max_length = _check_options(missing, coverage, flag_above, max_length)
    dp, pl = _opendp_polars()
    frame = _check_frame(data, pl)
    _check_person(frame, person, max_length)
    spec = _cells_spec(workload, allocation, columns)
    notes = _check_values(frame, spec, pl, missing, cls.discrete)
    by = _check_by(frame, by)
    # only the columns the release reads go to OpenDP (another column of a type it does not
    # take would stop the release); a categorical group is its text (OpenDP refuses categories
    # as data-dependent)
    used = list(dict.fromkeys([person, *by, *(r.column for r in spec if r.column is not None)]))
    frame = frame.select(used).with_columns(
        pl.col(b).cast(pl.String)
        for b in by
        if frame.schema[b] in (pl.Categorical,) or str(frame.schema[b]).startswith("Enum")
    )
    key_frame = _key_frame(keys, by, frame, pl)
    budgets, total = _check_consistent(allocation, workload, m, not by or key_frame is not None)
    measure = "epsilon" if cls.opendp == "laplace" else "rho"
    loss, margins, delta = _loss_and_margins(
        dp, frame, by, key_frame, measure, total, delta, max_groups, max_length
    )
    key_index = _key_release(spec, by, key_frame is not None)
    shares = (
        {"split_by_weights": (budgets / budgets.sum()).tolist()}
        if key_index is None
        else {"losses": _own_losses(budgets, total, measure, delta, key_index)}
    )
    options = {"m": m, "missing": missing, "by": by, "person": person, "measure": measure}
    options.update(keys=key_frame, key_index=key_index)
    targets, planned = _targets(allocation, workload)
    released, threshold, spent = _run(
        frame,
        spec,
        cls.discrete,
        dp=dp,
        pl=pl,
        unit=_unit(dp, person, OPENDP_NEIGHBOURS),
        loss=loss,
        margins=margins,
        shares=shares,
        plans=list(zip(targets, planned, strict=True)),
        options=options,
        coverage=coverage,
    )
    for i, cells in released.items():
        if key_index is not None:  # every cell's group passed the key release's threshold
            for cell in cells:
                cell["threshold"] = threshold
        released[i] = _in_order(cells, by, key_frame)
    rows = [cell for i in range(len(spec)) for cell in released[i]]
    key_label = None if key_index is None else spec[key_index].label
    notes = _notes(m, by, key_frame, delta, dropped=notes, key_label=key_label)
    if key_index is not None:
        passed = len(released[key_index])
        notes.append(
            f"{passed} group(s) passed OpenDP's threshold of {threshold:g} on the noisy count "
            f"{key_label!r}; its ±k is OpenDP's accuracy of integer noise at the planned "
            "scale, within one step of the allocation's"
        )
    return ReleaseTable(
        _table(rows, flag_above, by),
        cls.name,
        measure,
        1,
        spent,
        notes,
        unit=unit,
        allocation=allocation,
        workload=list(workload),
        delta=delta,
        groups=_groups_text(by, key_frame, max_groups, key_label),
    )


def _targets(allocation, workload) -> tuple:
    """(each release's target ±k, its planned ±k): the allocation's ``target`` (the workload's
    k where an allocation does not keep it) and ``k``, as floats for the table."""
    target = allocation.target
    if target is None:
        target = [r.k if isinstance(r, Release) else r["k"] for r in workload]
    return [float(t) for t in target], [float(k) for k in allocation.k]


def _own_losses(budgets, total, measure, delta, key_index) -> list:
    """Each query's own privacy loss in a context without a split: its share of the total
    (the allocation's budget, lowered by a relative 1e-12 so that OpenDP's float sum stays
    within the total it holds), δ only for the release that releases the keys."""
    shares = budgets * (total / math.fsum(budgets.tolist())) * (1 - 1e-12)
    return [
        {measure: float(b), "delta": delta if i == key_index else 0.0} for i, b in enumerate(shares)
    ]


def _release_unit(allocation, workload, contributions) -> PrivacyUnit:
    """The unit the release runs for: the allocation's (its workload's), with a ``contributions``
    given only to agree with it; OpenDP's add-remove neighbours on one identifier."""
    stated = allocation.unit
    given = unit_of(workload)
    if stated is not None and given is not None and given != stated:
        raise ValueError(
            f"workload must be the one the allocation was made for; its unit is {given!r}, "
            f"the allocation's {stated!r}"
        )
    stated = stated if stated is not None else given
    if contributions is None:
        if stated is None:
            raise ValueError(
                "contributions must be given (m ≥ 1, the most records kept per person) when "
                "the allocation states no unit; got None (or allocate opendp_workload(...), "
                "whose allocation carries m)"
            )
        unit = stated
    else:
        m = _check_contributions(contributions)
        if stated is not None and m != stated.contributions:
            raise ValueError(
                f"contributions must be the allocation's m = {stated.contributions} (its "
                f"workload was stated for it) or left out; got {contributions!r}"
            )
        unit = stated or PrivacyUnit("person", contributions=m, neighbours=OPENDP_NEIGHBOURS)
    if unit.neighbours != OPENDP_NEIGHBOURS or unit.unit == "record":
        raise ValueError(
            f"allocation.unit must be one identifier of up to m records under OpenDP's "
            f"{OPENDP_NEIGHBOURS!r} neighbours, as opendp_workload states it; got {unit!r} "
            f"(allocate opendp_workload(workload, contributions={unit.contributions}))"
        )
    return unit


def _groups_text(by, key_frame, max_groups, key_label=None) -> str:
    """The groups published, in words, for the record: none, public keys, or keys released."""
    if not by:
        return ""
    columns = " × ".join(by)
    if key_frame is not None:
        return f"{columns}: {len(key_frame)} public keys"
    return (
        f"{columns}: keys not known in advance, released by the noisy count {key_label!r} "
        f"above OpenDP's threshold (at most {max_groups} groups)"
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
    workload, *, contributions, neighbours=OPENDP_NEIGHBOURS, keys_known=True, unit="person"
) -> Workload:
    """The workload with each release's sensitivity as :func:`opendp_release`'s OpenDP Context
    accounts it for one person of up to m records: the workload to allocate for that release.

    A person added or removed is d = m records (d = 2m changed: :func:`neighbour_distance`).
    A count's Δ is then d. A sum's is d·max(|L|, |U|): OpenDP bounds a sum of values in
    [L, U] by max(|L|, |U|) per record added or removed when the number of records is not
    known, and uses the U − L of change-one with n public only when the size is known, which
    a release by identifier does not state. That is larger than the course's d·(U − L) when
    L > 0 or U < 0 (a sum of [100, 500] costs 500 per record, not 400), smaller when L < 0 < U;
    a sum cannot be shifted to straddle 0, since adding back c·N needs the number of records N,
    which add-remove does not publish. A mean keeps the course's d·(U − L)/n as its stated Δ,
    but its budget is planned with the release's own model (the returned workload's
    ``means="ratio"``, :mod:`helpers.budget.ratio`): the release spends it on its own noisy
    sum (of x − c, c the middle of the bounds, so max(|L − c|, |U − c|) per record whatever
    the signs) and noisy count, adds c back (post-processing, c public) and prints
    :func:`helpers.budget.ratio_interval`; the plan is the least budget whose widest ±k in a
    group of the mean's ``n`` records (its least group size) is within its target. With these sensitivities the noise
    OpenDP runs for a count or a sum is the allocation's own (the tests hold OpenDP's
    summary to it for every sign of the bounds); :func:`opendp_release` refuses an
    allocation made for other ones. The bounds, n and labels are kept.

    With groups whose keys are not known in advance (``keys_known=False``), the workload's
    count of records releases them (:func:`opendp_release`: OpenDP's own grouped count, at
    that count's budget and the δ given to the release), so no Δ changes: the workload must
    then hold a count, and one without is refused, naming the fix.

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
        ``keys``): the workload must hold the count of records that releases them. Default
        True (no groups, or public keys).
    unit : {"person", "user"}, keyword-only
        What one identifier is (default "person"), as the record states it.

    Returns
    -------
    helpers.budget.Workload
        One :class:`helpers.budget.Release` per release, ``sensitivity`` stated, and
        ``unit`` (the :class:`helpers.budget.PrivacyUnit` of m records and ``neighbours``):
        an allocation made from it carries m on to :func:`opendp_release` and
        :func:`privacy_record`, which then need not be told again.

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
    [1500.0, 3.0]
    """
    from .people import _check_not_stated, _with_sensitivities

    _check_not_stated(workload)
    if unit not in ("person", "user"):
        raise ValueError(f"unit must be 'person' or 'user' (one identifier); got {unit!r}")
    person = PrivacyUnit(unit, contributions=contributions, neighbours=neighbours)
    if not isinstance(keys_known, bool):
        raise ValueError(f"keys_known must be True or False; got {keys_known!r}")
    if not keys_known and "count" not in _parse_workload(workload).kinds:
        raise ValueError(
            "workload must hold a count (of records) when keys_known=False: its noisy count "
            "releases the groups, as OpenDP's own grouped count does; got no count"
        )
    releases = _with_sensitivities(
        workload, _record_sensitivities(workload), person.records_changed
    )
    return Workload(releases, unit=person, means="ratio")


def _plan_check_unit(allocation, workload, m, keys_known=True) -> None:
    """The allocation's Δ are OpenDP's for m records (:func:`opendp_workload`; the same
    whether the keys are known or not, ``keys_known`` kept for the callers); a plan for
    other Δ is refused naming the fix."""
    from .people import _times_up

    parsed = _parse_workload(workload, allocation)
    unit = PrivacyUnit("person", contributions=m, neighbours=OPENDP_NEIGHBOURS)
    expected = np.array(
        [_times_up(d, unit.records_changed) for d in _record_sensitivities(workload)]
    )
    # a mean released as a ratio is planned under an integer noise at its Δ rounded up
    expected = NoiseFamily.of(allocation).read_sensitivity(expected, parsed.ratio)
    given = np.asarray(allocation.sensitivities, dtype=float)
    close = np.isclose(given, expected, rtol=1e-9, atol=0)
    if np.all(close):
        return
    i = int(np.flatnonzero(~close)[0])
    raise ValueError(
        f"allocation must be made for contributions={m} in OpenDP's add-remove "
        f"accounting: release {i} has Δ = {given[i]:g}, OpenDP's is "
        f"{expected[i]:g} (a sum's m·max(|L|, |U|), not m·(U − L)); allocate "
        f"opendp_workload(workload, contributions={m})"
    )


fill_docstrings(globals())
