"""A mean released as the ratio of two noisy sums: its interval, and the budget its ±k needs.

OpenDP's release of a mean (:func:`helpers.release.opendp_release`) is c + S'/N̂: S' the noisy
sum of x − c (c the middle of the bounds [L, U]), N̂ the noisy count of the same records, both
from the mean's one budget. Its interval is :func:`ratio_interval`: the extremes of S'/N̂ over
the box where the true sum is within ±a of S' and the true count within ±b of N̂ (a and b each
at α/2: a union bound, so the interval holds with probability at least 1 − α), inside the
bounds, since a mean of clipped values lies in them. The release prints each cell's ±k as the
larger side of that interval around its value.

A workload whose means are released so (a :class:`Workload` with ``means="ratio"``, as
:func:`helpers.release.opendp_workload` states it) is planned with that same model, for the
mean's least group size n (its ``n``, stated from public knowledge): the noise scales are the
release's (the budget split between the sum and the count as the release splits it), and the
planned ±k is the widest half-width of :func:`ratio_interval` over a true mean anywhere in
[L, U] in a group of exactly n records, the noise at its typical spot (zero). The interval's
width depends on where the true mean sits, hence the worst case; a group larger than n gets a
narrower interval. The half-width is piecewise linear in the true mean (each corner of the box
is linear in it), so the worst case is read exactly at its breakpoints. It grows with the noise
scale (the box at a larger scale holds the smaller one), so the least budget whose planned ±k
is within the target is found by bisection on the log of the scale.

Part of :mod:`helpers.budget`, which re-exports its public names.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_output, check_int_range, check_nonnegative, check_real, describe
from ._common import _TINY, _ULP, Allocation, _down, _parse, _up, _where

__all__ = ["planned_k", "ratio_interval"]


def ratio_interval(total, count, *, total_accuracy, count_accuracy, lower, upper) -> tuple:
    """The interval of a mean released as a noisy sum over a noisy count, inside its bounds.

    With the true sum within ``total`` ± a and the true count within ``count`` ± b, the true
    mean (sum/count) lies between the extremes of (total ± a)/(count ± b) over that box. The
    count's lower edge must be positive (else the box holds a count of 0 and the mean is
    unbounded): then the interval is the bounds [lower, upper], all that is known. The
    extremes are clamped into the bounds (a mean of values clipped to them lies in them); a box
    wholly outside the bounds (the sum or the count missed its range) gives the bounds too,
    never an inverted interval. :func:`helpers.release.opendp_release` prints this interval
    for every mean, and the allocation plans a mean's ±k with it (the module docstring).

    Not called in a notebook; used by ``helpers.release._opendp_query``.

    Parameters
    ----------
    total : float or array_like
        The released (noisy) sum of the values, shifted by the same constant as the bounds.
    count : float or array_like
        The released (noisy) count of the same records.
    total_accuracy, count_accuracy : float or array_like, keyword-only
        a, b ≥ 0: the sum's and the count's half-widths (each at its share of α).
    lower, upper : float or array_like, keyword-only
        The bounds, lower < upper.

    Returns
    -------
    tuple of (float or numpy.ndarray)
        (low, high): Python floats for scalar inputs, else arrays of their broadcast shape.

    Raises
    ------
    ValueError
        If a number is not finite, an accuracy is negative, ``upper`` is not above ``lower``,
        or the inputs do not broadcast together (the message names the parameter).

    References
    ----------
    The OpenDP Library's ``summarize`` (each noisy sum's accuracy at α); Bonferroni's
    inequality for the two at α/2 each.

    Examples
    --------
    >>> ratio_interval(200.0, 40.0, total_accuracy=20.0, count_accuracy=4.0, lower=-10, upper=10)
    (4.090909090909091, 6.111111111111111)
    >>> ratio_interval(200.0, 3.0, total_accuracy=20.0, count_accuracy=4.0, lower=-10, upper=10)
    (-10.0, 10.0)
    """
    s = check_real("total", total)
    n = check_real("count", count)
    a = check_nonnegative("total_accuracy", total_accuracy)
    b = check_nonnegative("count_accuracy", count_accuracy)
    lo = check_real("lower", lower)
    hi = check_real("upper", upper)
    try:
        s, n, a, b, lo, hi = np.broadcast_arrays(s, n, a, b, lo, hi)
    except ValueError:
        raise ValueError(
            "total, count, total_accuracy, count_accuracy, lower and upper must broadcast "
            f"together; got shapes {[np.shape(x) for x in (total, count, total_accuracy)]} "
            f"and {[np.shape(x) for x in (count_accuracy, lower, upper)]}"
        ) from None
    if np.any(~(hi > lo)):
        raise ValueError(f"upper must be above lower; got upper={describe(upper, ~(hi > lo))}")
    low, high = _ratio_interval(s, a, n, b, lo, hi)
    return as_output(low), as_output(high)


def planned_k(allocation, workload, *, group_size) -> np.ndarray:
    """The ±k each release of an allocation is planned to print in a group of ``group_size``
    records, the noise at its typical spot.

    A count's or a sum's ±k does not depend on the group: it is the allocation's ``k``. A mean
    released as its noisy sum over its noisy count (a :class:`Workload` with
    ``means="ratio"``, from :func:`helpers.release.opendp_workload`) prints the interval of
    :func:`ratio_interval`, narrower in a larger group: its planned ±k here is the widest
    half-width of that interval over a true mean anywhere in its bounds, in a group of
    ``group_size`` records, at the allocation's budget (at the mean's own ``n``, its least group
    size, this is the allocation's ``k``). A smaller group than the ``n`` planned for gets a
    wider ±k than the target, a larger one a narrower.

    Used in notebook 12.

    Parameters
    ----------
    allocation : Allocation
        Made for ``workload`` (:func:`budget_for_accuracy` or :func:`split_budget`).
    workload : sequence of Release
        The workload the allocation was made for, one release per budget.
    group_size : int, keyword-only
        The records of the group, an integer from 1 to 2⁵³.

    Returns
    -------
    numpy.ndarray
        One ±k per release.

    Raises
    ------
    ValueError
        If ``allocation`` is not an :class:`Allocation` made for a workload of this length, a
        release is malformed, or ``group_size`` is not an integer in range.

    References
    ----------
    The module docstring (the release's interval and its worst case over the true mean);
    :func:`helpers.release.opendp_release`.

    Examples
    --------
    >>> person = PrivacyUnit("person", neighbours="add-remove")  # OpenDP's, as opendp_workload's
    >>> mean = Release("mean", k=2.0, lower=0, upper=100, n=200, sensitivity=0.5)
    >>> work = Workload([mean], unit=person, means="ratio")
    >>> allocation = budget_for_accuracy(work)
    >>> [round(float(planned_k(allocation, work, group_size=n)[0]), 4) for n in (100, 200, 400)]
    [4.0, 2.0, 1.0]
    """
    if not isinstance(allocation, Allocation):
        raise ValueError(
            "allocation must be an Allocation (from budget_for_accuracy or split_budget); got "
            f"{repr(allocation)[:80]}"
        )
    w = _parse(workload)
    budgets = np.asarray(allocation.budgets, dtype=float)
    if budgets.shape != w.k.shape:
        raise ValueError(
            f"workload must be the one the allocation was made for; it has {len(w.k)} releases, "
            f"the allocation {budgets.size} budgets"
        )
    size = check_int_range("group_size", group_size, 1, 2**53)
    k = np.array(allocation.k, dtype=float)
    if np.any(w.ratio):
        from .families import NoiseFamily

        plan = _RatioPlan(
            w._replace(least_n=np.where(w.ratio, float(size), 0.0)), NoiseFamily.of(allocation)
        )
        k[plan.index] = plan.reach(plan.scale(budgets[plan.index]))
    return k


def _corners(s, a, n, b) -> tuple:
    """(least, most, valid): the extremes of (s ± a)/(n ± b) over the box, where the count's
    lower edge is positive (``valid``; elsewhere they are meaningless): each corner's
    denominator is then positive, so the least corner is one of the two with s − a, the
    largest one of the two with s + a."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        minus, plus = n - b, n + b
        valid = minus > 0
        minus = np.where(valid, minus, 1.0)
        least = np.minimum((s - a) / minus, (s - a) / plus)
        most = np.maximum((s + a) / minus, (s + a) / plus)
    return least, most, valid


def _ratio_interval(s, a, n, b, lo, hi) -> tuple:
    """:func:`ratio_interval` on checked arrays (broadcast together)."""
    least, most, valid = _corners(s, a, n, b)
    with np.errstate(invalid="ignore"):
        low, high = np.maximum(lo, least), np.minimum(hi, most)
    ok = valid & (low <= high)
    return np.where(ok, low, lo), np.where(ok, high, hi)


def _widest_half_width(n, a, b, lo, hi) -> np.ndarray:
    """The widest half-width max(μ − low, high − μ) of :func:`ratio_interval` around a true
    mean μ in [lo, hi] of a group of n records, the noise at its typical spot (the released sum
    n·μ, the released count n): the half-width is piecewise linear in μ, so its largest value
    is at an end or a breakpoint (the two least corners cross at μ = a/n, the two largest at
    μ = −a/n; a corner meets a bound where (n·μ ∓ a)/(n ± b) = lo or hi). 1-D arrays in, one
    value per entry out. The box holds μ itself (the noise at zero), so a rounding of n·μ/n
    past a bound is read as μ, never as a box outside the bounds (which would give them
    whole: a least budget refused at a target well within them, found by hypothesis)."""
    n, a, b, lo, hi = (np.asarray(x, dtype=float)[:, None] for x in (n, a, b, lo, hi))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        meets = [(t * (n + j * b) + i * a) / n for t in (lo, hi) for i in (-1, 1) for j in (-1, 1)]
        spots = np.concatenate(np.broadcast_arrays(lo, hi, a / n, -a / n, *meets), axis=1)
    spots = np.clip(np.nan_to_num(spots, nan=0.0), lo, hi)
    least, most, valid = _corners(n * spots, a, n, b)
    with np.errstate(invalid="ignore"):
        low = np.where(valid, np.clip(np.minimum(least, spots), lo, hi), lo)
        high = np.where(valid, np.clip(np.maximum(most, spots), lo, hi), hi)
    return np.max(np.maximum(spots - low, high - spots), axis=1)


# --- the plan of a workload's ratio means ------------------------------------------------------


def _shifted_bounds(w, family) -> tuple:
    """(lo, hi): each ratio mean's bounds less the release's shift c, the middle of its bounds
    (an integer under a discrete noise, as the release takes it), for the means of ``w``."""
    lower, upper = w.lower[w.ratio], w.upper[w.ratio]
    if family.mechanism.discrete:
        shift = np.floor((np.trunc(lower) + np.trunc(upper)) / 2)
    else:
        shift = lower / 2 + upper / 2
    return lower - shift, upper - shift


class _RatioPlan:
    """The release's model of the ratio means of a parsed workload under one family of noise:
    the sum's noise scale is the query's global scale t times the sum's weight
    max(|lo|, |hi|, 1), the count's is t, and a budget spends (ε) r_s/t + r_n/t or (ρ)
    (r_s² + r_n²)/(2t²), r_s = d·max(|lo|, |hi|)/weight and r_n = d the two parts' sensitivities
    over their weights at the distance d of one person in records (OpenDP's accounting)."""

    def __init__(self, w, family):
        self.family = family
        self.index = np.flatnonzero(w.ratio)
        self.lo, self.hi = _shifted_bounds(w, family)
        size = np.maximum(np.abs(self.lo), np.abs(self.hi))
        self.weight = np.maximum(size, 1.0)
        distance = float(w.unit.records_changed) if w.unit is not None else 1.0
        self.sum_sensitivity = distance * size
        self.count_sensitivity = np.full(size.shape, distance)
        self.ratios = (self.sum_sensitivity / self.weight, self.count_sensitivity)
        self.n = w.least_n[w.ratio]
        self.k = w.k[w.ratio]
        self.coverage = w.coverage[w.ratio]

    def scale(self, budgets) -> np.ndarray:
        """The global scale t a budget allows, rounded up (toward privacy)."""
        r_s, r_n = self.ratios
        with np.errstate(over="ignore", divide="ignore"):
            if self.family.pure:
                return _up((r_s + r_n) / budgets)
            return _up(np.sqrt((r_s * r_s + r_n * r_n) / (2 * budgets)))

    def budget(self, scale) -> np.ndarray:
        """The budget a global scale spends, rounded up."""
        r_s, r_n = self.ratios
        with np.errstate(over="ignore", divide="ignore"):
            if self.family.pure:
                return np.maximum(_up((r_s + r_n) / scale), _TINY)
            return np.maximum(_up((r_s * r_s + r_n * r_n) / (2 * scale * scale)), _TINY)

    def reach(self, scale, coverage=None) -> np.ndarray:
        """The planned ±k at global scale t: the widest half-width at group size n, the sum and
        the count each at (1 + c)/2 (α/2 each)."""
        coverage = self.coverage if coverage is None else coverage
        each = 1.0 - (1.0 - coverage) / 2
        cls = self.family.mechanism
        with np.errstate(over="ignore", under="ignore"):
            a = np.asarray(
                cls.noise_reach(scale * self.weight, each, sensitivity=self.sum_sensitivity),
                dtype=float,
            )
            b = np.asarray(
                cls.noise_reach(scale, each, sensitivity=self.count_sensitivity), dtype=float
            )
        return _widest_half_width(self.n, a, b, self.lo, self.hi)

    def least_budgets(self, labels) -> np.ndarray:
        """The least budget whose planned ±k is within each target: the largest global scale
        whose reach is ≤ k, by bisection on its log (the reach grows with the scale), its
        budget rounded up. A target at or beyond U − L (which the bounds alone give) or too
        narrow for any double scale is refused by name."""
        width = self.hi - self.lo
        beyond = ~(self.k < width)
        if np.any(beyond):
            i = int(np.flatnonzero(beyond)[0])
            j = int(self.index[i])
            raise ValueError(
                f"{_where(j, labels[j])}: k must be below U − L = {width[i]:g} for a mean released "
                f"as its noisy sum over its noisy count (its bounds alone give ±{width[i]:g}); "
                f"got {self.k[i]!r}"
            )
        # the count's scale at which its ±b reaches n: the interval is then the whole bounds
        cls = self.family.mechanism
        each = 1.0 - (1.0 - self.coverage) / 2
        unit = np.asarray(cls.noise_reach(np.ones_like(self.n), each, sensitivity=1.0), dtype=float)
        high = np.log(2 * self.n / unit)
        low = high - 600.0  # e^-600 of it: far below any scale a target in range needs
        small = self.reach(np.exp(low)) > self.k
        if np.any(small):
            i = int(np.flatnonzero(small)[0])
            j = int(self.index[i])
            raise ValueError(
                f"{_where(j, labels[j])}: k must be wider; ±{self.k[i]:g} for a mean in "
                f"[{self.lo[i]:g}, {self.hi[i]:g}] (shifted) needs a noise below what a double holds"
            )
        for _ in range(64):  # the log-interval of 600 halved 64 times: below 1e-16 of t
            middle = (low + high) / 2
            fits = self.reach(np.exp(middle)) <= self.k
            low, high = np.where(fits, middle, low), np.where(fits, high, middle)
        return self.budget(_down(np.exp(low)))

    def coverage_at(self, budgets) -> np.ndarray:
        """The coverage whose planned ±k at these budgets is the target (≥ what the union
        bound states): by bisection on log α, the planned ±k falling as α grows; rounded down."""
        scale = self.scale(budgets)
        # log α from ln 2⁻⁵² (a coverage 1 − α still a double below 1) to 0
        low, high = np.full(scale.shape, np.log(_ULP)), np.zeros(scale.shape)
        wide = self.reach(scale, 1.0 - np.exp(low)) <= self.k
        for _ in range(60):
            middle = (low + high) / 2
            fits = self.reach(scale, 1.0 - np.exp(middle)) <= self.k
            low, high = np.where(fits, low, middle), np.where(fits, middle, high)
        return np.where(wide, np.nextafter(1.0, 0.0), _down(1.0 - np.exp(high)))

    def variance(self, budgets) -> np.ndarray:
        """The mean's noise variance at group size n by the delta method, at the extreme of
        the bounds: (Var S' + max(lo², hi²)·Var N̂)/n²."""
        scale = self.scale(budgets)
        cls = self.family.mechanism
        with np.errstate(over="ignore"):
            v_s = np.asarray(
                cls.noise_variance(scale * self.weight, sensitivity=self.sum_sensitivity),
                dtype=float,
            )
            v_n = np.asarray(cls.noise_variance(scale, sensitivity=self.count_sensitivity))
            return (v_s + np.maximum(self.lo**2, self.hi**2) * v_n) / self.n**2


def _ratio_floors(w, family, floors, acc_scales) -> tuple:
    """(floors, accuracy scales) with each ratio mean's least budget (:meth:`_RatioPlan.least_budgets`)
    and the scale of its stated Δ at that budget; the others as given."""
    if w.ratio is None or not np.any(w.ratio):
        return floors, acc_scales
    plan = _RatioPlan(w, family)
    floors, acc_scales = np.array(floors, dtype=float), np.array(acc_scales, dtype=float)
    floors[plan.index] = plan.least_budgets(w.labels)
    acc_scales[plan.index] = family.scales(w.sensitivity[plan.index], floors[plan.index])
    return floors, acc_scales


def _ratio_delivered(w, family, budgets, delivered) -> tuple:
    """(delivered, meets or None): the (±k, coverage, variance) of each ratio mean replaced by
    its plan's at its budget, and where every release meets its target (a ratio mean where its
    planned ±k is within it); None when the workload has no ratio mean."""
    if w.ratio is None or not np.any(w.ratio):
        return delivered, None
    plan = _RatioPlan(w, family)
    reach, covered, variance = (np.array(x, dtype=float) for x in delivered)
    mine = np.asarray(budgets, dtype=float)[plan.index]
    reach[plan.index] = plan.reach(plan.scale(mine))
    covered[plan.index] = plan.coverage_at(mine)
    variance[plan.index] = plan.variance(mine)
    return (reach, covered, variance), reach[plan.index] <= plan.k
