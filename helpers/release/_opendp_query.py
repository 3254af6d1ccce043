"""The OpenDP queries of :func:`helpers.release.opendp_release` and the cells they give.

Each release's query: each person's first m records (:func:`_records`), the release's noisy
columns (:func:`_parts`: a count, a sum, or a mean's sum and count; OpenDP's ``dp.len`` for the
count that releases the keys when they are not known in advance) with the noise scale the
allocation planned (:func:`_planned_scales`), resolved at the least scale within its budget
(:func:`_resolve`); the workload then runs as one query at those scales
(:mod:`helpers.release._opendp_run`), whose columns are read back as cells with their
intervals (:func:`_cells`), in the keys' order, with the stated handling of every choice
(:func:`_notes`). OpenDP and Polars are imported where they are used.

Private to :mod:`helpers.release.opendp` and :mod:`helpers.release._opendp_run`"""

from __future__ import annotations

import math
from typing import NamedTuple

from .._validation import check_int_range
from ..budget import ratio_interval
from ._checks import _check_neighbours
from ._opendp_data import _MAX_LENGTH, _check_in_unit


def _opendp():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


def _opendp_polars():
    import polars as pl

    dp = _opendp()
    return dp, pl


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


def _parts(kind, bounds, discrete, keys_from=False, *, measure="epsilon") -> list:
    """The noisy columns of one release's query (:class:`_Part`): a count is one noisy sum of
    an indicator or a 0/1 column, a sum the noisy sum of the clipped values, a mean the noisy
    sum of its shifted values and the noisy count of its records.

    The count that releases the keys of groups not known in advance (``keys_from``) is
    OpenDP's ``dp.len`` instead, the count its threshold reads, at the scale its allocation
    planned (one per record, m per person) and no other release paying for the keys. OpenDP
    runs that count on integer noise, so its ±k is OpenDP's integer accuracy at the planned
    scale, within one step of the plan's (said in the release's notes). ``measure`` is kept
    for the callers' symmetry."""
    if kind == "count":
        source = "records" if keys_from else "values"
        return [_Part("value", source, 0.0, 1.0, 1.0)]
    if kind == "sum":
        lo, hi = bounds
        return [_Part("value", "values", lo, hi, max(abs(lo), abs(hi), 1.0))]
    c = _shift(kind, bounds, discrete)
    lo, hi = bounds[0] - c, bounds[1] - c
    # the sum's noise scaled by max(|L − c|, |U − c|, 1), the count's by 1 (one scale for
    # both would drown the count): when that is ≥ 1 it is their sensitivities' ratio and
    # each spends half the mean's budget; below 1 the sum spends the smaller share
    return [
        _Part("sum", "values", lo, hi, max(abs(lo), abs(hi), 1.0)),
        _Part("count", "present", 0.0, 1.0, 1.0),
    ]


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


def _expression(
    pl, dp, release, discrete, person, *, keys_from=False, measure="epsilon", scales=None, prefix=""
):
    """The OpenDP expressions of one release (its :func:`_parts`), on the domain the
    mechanism names (integers under a discrete mechanism, else floats); a mean's value is
    taken from its two noisy sums in :func:`_cells` (OpenDP's ``dp.mean`` is not used).

    Each part's noise is its weight times the query's global scale (resolved by
    :func:`_resolve`), or, given ``scales`` (alias -> scale), that absolute scale at a global
    scale of 1, as the workload's one query runs it (:mod:`helpers.release._opendp_run`);
    ``prefix`` names its columns apart from other releases' in that query."""
    dtype = pl.Int64 if discrete else pl.Float64
    column = release.column
    present = (pl.col(person) if column is None else pl.col(column)).is_not_null().cast(dtype)
    shift = _shift(release.kind, release.bounds, discrete)
    exprs = []
    for part in _parts(release.kind, release.bounds, discrete, keys_from, measure=measure):
        if part.source == "records":
            # the count OpenDP's threshold reads (signed: no clamp at 0, an unbiased count)
            exprs.append(dp.len(scale=part.weight, signed=True).alias(prefix + part.alias))
            continue
        if part.source == "present" or column is None:
            values = present
        elif shift:
            values = pl.col(column).cast(dtype) - pl.lit(int(shift) if discrete else shift, dtype)
        else:
            values = pl.col(column).cast(dtype)
        lo, hi = (int(part.lower), int(part.upper)) if discrete else (part.lower, part.upper)
        scale = part.weight if scales is None else scales[part.alias]
        exprs.append(values.dp.sum((lo, hi), scale=scale).alias(prefix + part.alias))
    return exprs


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


def _key_release(spec, by, keys_known) -> int | None:
    """The index of the release whose noisy count releases the groups' keys (keys not known in
    advance): the first count of records. None with public keys or no groups; refused when
    the workload has no count of records, naming the fix."""
    if not by or keys_known:
        return None
    for i, release in enumerate(spec):
        if release.kind == "count" and release.column is None:
            return i
    raise ValueError(
        "workload must hold a count of records (Release('count', ...) with columns "
        "{label: None}) when the keys of the groups are not known in advance: its noisy count "
        "releases the groups (OpenDP's threshold reads it, as OpenDP's own grouped count "
        "does), and every other release uses those groups; or pass the public keys"
    )


def _unit(dp, person, neighbours):
    """OpenDP's unit of privacy: one person = one identifier, added or removed (add-remove)
    or changed (change-one); the records per identifier are bounded by the truncation."""
    if _check_neighbours(neighbours) == "add-remove":
        return dp.unit_of(contributions=1, identifier=person)
    return dp.unit_of(changes=1, identifier=person)


def _query(context, pl, dp, release, discrete, *, m, missing, by, keys, person, measure, loss=None):
    """One release's OpenDP query: each person's first m records, the missing values dropped
    if asked, then its expressions, by group when ``by``: with ``keys`` (public, or the ones
    the key release released) as its groups, else its groups released by its own noisy count
    passing OpenDP's threshold. ``loss`` is its own privacy loss (a context without a split)."""
    query = _records(context.query(**(loss or {})), pl, m, _dropped_column(release, missing))
    # OpenDP releases a key not known in advance only when a noisy dp.len passes its threshold
    keys_from = bool(by) and keys is None
    expr = _expression(pl, dp, release, discrete, person, keys_from=keys_from, measure=measure)
    if not by:
        return query.select(*expr)
    query = query.group_by(by).agg(*expr)
    return query if keys is None else query.with_keys(keys)


def _dropped_column(release, missing) -> str | None:
    """The column whose missing values leave a release's records (``missing="drop"``), else
    None: releases with the same one read the same records, so they share a query."""
    return release.column if missing == "drop" else None


def _records(query, pl, m, dropped=None):
    """The records a query reads: each person's first m (OpenDP's truncation, inside its
    accounting), then, with ``dropped``, those with a value in that column."""
    query = query.truncate_per_group(m, keep="first")
    if dropped is None:
        return query
    column = pl.col(dropped)
    return query.filter(column.is_not_null() & ~column.cast(pl.Float64).is_nan())


def _in_order(cells, by, key_frame) -> list:
    """The cells in the keys' order (or sorted by group): OpenDP's order is the engine's."""
    if key_frame is None:
        return sorted(cells, key=lambda c: str([c[b] for b in by]))
    order = {tuple(key): i for i, key in enumerate(key_frame.iter_rows())}
    return sorted(cells, key=lambda c: order[tuple(c[b] for b in by)])


def _table(rows, flag_above, by=()):
    """The cells as a pandas table, with each one's relative error and flag."""
    import pandas as pd

    for row in rows:
        size = abs(row["value"]) if not row["note"] else 0.0
        row["relative_error"] = row["k"] / size if size > 0 else math.inf
        row["flagged"] = bool(row["relative_error"] > flag_above)
    if not rows:  # no group passed the threshold: the table's columns, no row
        return pd.DataFrame(columns=[*_COLUMNS[:1], *by, *_COLUMNS[1:]])
    return pd.DataFrame(rows)


#: The table's columns, the group columns after the first.
_COLUMNS = (
    "release",
    "kind",
    "value",
    "lower",
    "upper",
    "k",
    "target",
    "planned",
    "coverage",
    "distribution",
    "scale",
    "threshold",
    "note",
    "relative_error",
    "flagged",
)


def _notes(m, by, key_frame, delta, *, dropped, key_label=None) -> list:
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
            f"groups: keys not known in advance, released once by the noisy count "
            f"{key_label!r} (OpenDP's dp.len) passing OpenDP's threshold (column threshold), "
            f"spending δ = {delta:g} on top of that count's own budget; every release uses "
            "those groups, so the table shows one set of groups, at OpenDP's own cost"
        )
    return notes


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
    keys = isinstance(d_out, tuple) and d_out[1] > 0  # (ε or ρ, δ): δ spent on releasing keys

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
        return spent[0] if isinstance(spent, tuple) else spent

    budget = d_out[0] if isinstance(d_out, tuple) else d_out
    no_threshold = _MAX_THRESHOLD if keys else None  # as OpenDP's resolve: scale first
    try:
        scale = (loss(make(1.0, no_threshold)) / budget) ** (1 / root)
        for _ in range(60):
            spent = loss(make(scale, no_threshold))
            if spent <= budget:
                break
            scale *= (spent / budget) ** (1 / root) * (1 + 4 * 2.0**-52)
        else:  # pragma: no cover
            raise AssertionError("OpenDP's map did not come within the budget")
    except dp.OpenDPException as err:  # e.g. an overflow of OpenDP's map at a huge budget
        raise ValueError(
            f"allocation.budgets must be within what OpenDP can account; a release's budget "
            f"{budget!r} is not (OpenDP: {' '.join(str(err).split())[:160]})"
        ) from None
    if not keys:
        return make(scale)

    def private(t: int) -> bool:
        try:
            return make(scale, t).map(d_in)[1] <= d_out[1]
        except dp.OpenDPException:
            # OpenDP's map refuses a threshold at or below the records one person can add
            # to a group ("threshold must be greater than m", at a very large budget): no
            # such threshold is private, so the search goes above it
            return False

    # the least private threshold, by bisection on the integers OpenDP's Margin holds
    if not private(_MAX_THRESHOLD):
        raise ValueError(
            f"delta must be large enough for a threshold OpenDP can hold (at most "
            f"{_MAX_THRESHOLD:,}); got {d_out[1]!r}, which no threshold reaches at this budget"
        )
    low, high = 0, _MAX_THRESHOLD  # private(low) is False (0 records pass nothing), high True
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if private(mid) else (mid, high)
    return make(scale, high)


#: The largest threshold: OpenDP holds it as a 32-bit unsigned integer.
_MAX_THRESHOLD = 2**32 - 1


def _summary(dp, measurement, alpha, prefix="") -> dict:
    """OpenDP's own summary of a measurement at ``alpha`` (each noisy column's distribution,
    scale, accuracy and threshold), keyed by the column's alias with ``prefix`` removed; the
    columns of other prefixes left out."""
    rows = dp.summarize_polars_measurement(measurement, alpha).to_dicts()
    for row in rows:
        accuracy = row.get("accuracy")
        if accuracy is not None and not 0 <= accuracy < math.inf:
            row["accuracy"] = _own_accuracy(row["distribution"], float(row["scale"]), alpha)
    return {r["column"][len(prefix) :]: r for r in rows if r["column"].startswith(prefix)}


def _own_accuracy(distribution: str, scale: float, alpha: float) -> float:
    """The least k with P(|Z| ≤ k) ≥ 1 − α for an integer noise of this scale, where OpenDP's
    closed form fails: at a vanishing scale it gives a negative k or −inf (OpenDP 0.16's
    ``discrete_laplacian_scale_to_accuracy``), where the truth is 0 (the noise is 0 with
    probability near 1). Read with the course's own classes, whose scales are OpenDP's."""
    from ..mechanisms import MECHANISM_CLASSES

    name = {"Integer Laplace": "geometric", "Integer Gaussian": "discrete_gaussian"}.get(
        distribution
    )
    if name is None:  # a continuous noise's accuracy is scale·(a positive constant)
        raise ValueError(f"OpenDP's accuracy for {distribution} at scale {scale!r} is not finite")
    cls = MECHANISM_CLASSES[name]
    return float(cls.noise_reach(scale, 1.0 - alpha, sensitivity=1.0))


def _alpha(release, coverage) -> float:
    """The α of a release's accuracy: 1 − coverage, halved for a mean's two noisy sums (a union
    bound: its interval holds when both do)."""
    return (1.0 - coverage) / (2 if release.kind == "mean" else 1)


def _cells(released, rows, release, discrete, by, coverage, *, plan=(None, None), prefix=""):
    """One dict per cell of a release: its value, interval and OpenDP's own summary ``rows``
    (:func:`_summary` of the measurement that ran, at :func:`_alpha`), read from the
    ``released`` frame that measurement gave (its columns under ``prefix``). ``plan`` is the
    release's (target ±k, planned ±k) from its allocation, put beside each cell's printed k.
    A mean's interval is :func:`helpers.budget.ratio_interval`, the one its plan reads."""
    mean = release.kind == "mean"
    threshold = _threshold(rows)
    first = rows["sum" if mean else "value"]
    shift = _shift(release.kind, release.bounds, discrete)
    low, high = (b - shift for b in release.bounds)
    out = []
    for cell in released.iter_rows(named=True):
        note = ""
        if mean:  # c + S'/N̂ (S' the noisy sum of x − c): a ratio, then c added back
            s, n = float(cell[prefix + "sum"]), float(cell[prefix + "count"])
            a, b = float(rows["sum"]["accuracy"]), float(rows["count"]["accuracy"])
            interval = ratio_interval(
                s, n, total_accuracy=a, count_accuracy=b, lower=low, upper=high
            )
            lower, upper = (shift + x for x in interval)
            if n > 0 and (lower, upper) == release.bounds and not low <= s / n <= high:
                value = shift  # the box missed the bounds: no estimate inside them, said
                note = (
                    "too little data: the noisy sum and count put the mean outside its bounds, "
                    "so it is known only to lie in them"
                )
            elif n > 0:
                # a mean of clipped values lies in its bounds: clamping is post-processing,
                # free, and never moves the value away from the truth
                value = min(max(shift + s / n, release.bounds[0]), release.bounds[1])
            else:  # no estimate: the bounds' middle, the interval the whole range, said
                value = shift
                note = (
                    f"too little data: the noisy count is {n:g} (≤ 0), so the mean is known "
                    "only to lie in its bounds"
                )
            k = max(value - lower, upper - value)
        else:
            value = float(cell[prefix + "value"])
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
                "target": plan[0],
                "planned": plan[1],
                "coverage": coverage,
                "distribution": first["distribution"],
                "scale": float(first["scale"]),
                "threshold": None if threshold is None else float(threshold),
                "note": note,
            }
        )
    return out


def _threshold(rows) -> float | None:
    """OpenDP's threshold in a summary (:func:`_summary`), None where no column has one."""
    threshold = next((r.get("threshold") for r in rows.values() if r.get("threshold")), None)
    return None if threshold is None else float(threshold)
