"""Allocation: from the accuracy targets to a total, and from a total to a split.

:func:`budget_for_accuracy` is the smallest total meeting every release's target,
:func:`split_budget` the split of a total that minimises the weighted noise variance (or
meets every target first); :func:`joint_coverage` and :func:`bonferroni` are the chance that
every target holds together and the coverages that make it so.

Part of :mod:`helpers.budget`, which re-exports its public names; its docstring states the
rounding toward privacy every number here keeps.
"""

from __future__ import annotations

import math

import numpy as np

from .._docstrings import fill_docstrings
from .._numerics import sum_up
from .._validation import RULE_OPEN_UNIT, check_finite_scalar, check_open_unit
from ..deployments import DEFAULT_DELTA
from ._common import (
    _FIELDS,
    _SECTIONS,
    _TINY,
    _ULP,
    Allocation,
    Release,
    _check_budget_list,
    _check_total,
    _parse,
    _rows,
    _where,
    _Workload,
)
from .families import NoiseFamily, _allocation
from .ratio import _ratio_floors
from .unit import Workload

__all__ = [
    "bonferroni",
    "budget_for_accuracy",
    "joint_coverage",
    "split_budget",
    "workload_sensitivities",
]


# --- allocation ---------------------------------------------------------------------------


def workload_sensitivities(workload) -> np.ndarray:
    """Δ of every release of a workload (count 1, sum upper − lower, mean (upper − lower)/n).

    Neighbours change one record and n is public (bounded DP), as in
    :func:`helpers.choose.sensitivity_of`; a release's own ``sensitivity`` field overrides.
    Where upper − lower or the division by n is not exact in floating point, Δ is rounded up.

    Used in notebook 11.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)

    Returns
    -------
    numpy.ndarray
        One Δ per release.

    Raises
    ------
    ValueError
        If a release is malformed: the message names it (index and label) and the field.

    References
    ----------
    Dwork & Roth (2014), Definition 3.1 (ℓ1 sensitivity); :func:`helpers.choose.sensitivity_of`.

    Examples
    --------
    >>> workload_sensitivities([Release("count", k=5), Release("mean", k=1, lower=0, upper=100, n=50)])
    array([1., 2.])
    """
    return _parse(workload).sensitivity


def budget_for_accuracy(workload, *, mechanism="laplace", delta=DEFAULT_DELTA) -> Allocation:
    """The smallest total that meets every release's accuracy target, and each release's noise.

    Each release i needs |noise| ≤ k_i with probability ≥ c_i, which caps its noise scale:

    * Laplace, P(|Z| > k) = e^{−k/b}: b_i ≤ k_i / ln(1/(1 − c_i)), so ε_i = Δ_i/b_i
      (the ε of :func:`helpers.choose.epsilon_for_accuracy`);
    * Gaussian, P(|Z| ≤ k) = erf(k/(σ√2)): σ_i ≤ k_i / z_i with z_i = √2·erfinv(c_i), so
      ρ_z,i = Δ_i²/(2σ_i²) (Bun & Steinke 2016, Proposition 1.6).

    Each budget is the least that meets its own target, so their sum is the least total that
    meets them all (the releases share nothing but the total). The scale is rounded down
    (the target is still met) and the budget up (the mechanism with that scale is within it);
    the total is never below the exact sum. For Gaussian noise ``epsilon`` is the total ρ_z
    converted to (ε, δ) at ``delta`` (:func:`zcdp_composition`).

    Used in notebooks 11 and 12.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    %(family)s

    Returns
    -------
    Allocation
        ``meets`` is true everywhere.

    Raises
    ------
    ValueError
        If a release is malformed (the message names it and the field), or the total is
        beyond the largest double.

    References
    ----------
    Dwork & Roth (2014), Theorem 3.8 (Laplace accuracy); Bun & Steinke (2016), Proposition
    1.6.

    Examples
    --------
    >>> workload = [Release("count", k=5.0), Release("sum", k=50.0, lower=0, upper=10)]
    >>> allocation = budget_for_accuracy(workload)
    >>> round(allocation.total, 4), allocation.budgets.round(4).tolist()  # 2 × ln(20)/5
    (1.1983, [0.5991, 0.5991])
    >>> round(budget_for_accuracy(workload, mechanism="gaussian").total, 4)  # 2 × (1.96/5)²/2
    0.1537
    """
    family = NoiseFamily.of(mechanism)
    w = family.read(_parse(workload))
    return _budget_for_accuracy(w, family, family.reading_delta(delta))


def _budget_for_accuracy(w: _Workload, family: NoiseFamily, d: float) -> Allocation:
    family.check_sensitivities(w)
    scales = family.accuracy_scales(w.k, w.coverage, sensitivity=w.sensitivity)
    budgets, scales = _ratio_floors(w, family, family.budgets(w.sensitivity, scales), scales)
    bad = ~np.isfinite(budgets)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{_where(i, w.labels[i])}: k must be wider: ±{w.k[i]:g} at Δ = {w.sensitivity[i]:g} "
            "needs a budget beyond the largest double"
        )
    allocation = _allocation(w, family, d, budgets, scales, scales)
    if math.isinf(allocation.total):
        raise ValueError(
            "workload: the accuracy targets together need a total beyond the largest double; "
            "widen the ±k"
        )
    return allocation


def _shares(w: _Workload, family: NoiseFamily) -> np.ndarray:
    """The variance-optimal shares of a total (they add up to 1), computed in log space."""
    logs = family.share_logs(w.weight, w.sensitivity)
    unnormalised = np.exp(logs - logs.max())
    return unnormalised / math.fsum(unnormalised.tolist())


def _fit_under(budgets_of, total: float) -> np.ndarray:
    """budgets_of(t) for a t ≤ 1 within about 10⁻¹² of the largest whose summed budgets are ≤ total.

    Each step scales t by total/sum (exact for a proportional split) and by a decrement that
    doubles every step, so it ends in a few steps even when only part of the budgets shrink.
    """
    t = 1.0
    for step in range(80):
        budgets = budgets_of(t)
        spent = sum_up(budgets)
        if spent <= total:
            return budgets
        t *= min(total / spent, 1.0) * (1.0 - _ULP * 2.0**step)
    raise AssertionError("unreachable: t reaches 0 within 60 steps")  # pragma: no cover


def _waterfill(floors: np.ndarray, shares: np.ndarray, total: float) -> float:
    """t with Σ max(floor_i, t·share_i) = total (total ≥ Σ floor_i), from the sorted kinks."""
    ratios = floors / shares
    # stable: tied kinks summed in the input's order on every CPU (numpy's default sort
    # orders ties by the machine's SIMD sort, and the sums' last bits follow the order)
    order = np.argsort(ratios, kind="stable")
    r, u, a = ratios[order], shares[order], floors[order]
    free = np.cumsum(u)  # releases 0..j run on t·share
    fixed = np.concatenate([np.cumsum(a[::-1])[::-1][1:], [0.0]])  # releases j+1.. at floors
    at_kink = r * free + fixed  # Σ at t = r_j, increasing in j
    j = int(np.searchsorted(at_kink, total, side="right")) - 1
    if j < 0:
        return 0.0
    if j == len(r) - 1:
        return total / free[-1]
    return (total - fixed[j]) / free[j]


def split_budget(
    workload,
    total,
    *,
    mechanism="laplace",
    delta=DEFAULT_DELTA,
    meet_targets=False,
    objective="variance",
) -> Allocation:
    """The split of a total budget that minimises the weighted total noise variance Σ w_i·Var_i.

    Or, with ``objective="need"``, the split **proportional to need**: every release gets the
    same fraction E/Σ a_i of the budget a_i its accuracy target needs, so every ±k is reached
    within the same factor (E/Σ a_i)^{-1} (Laplace) or its square root (Gaussian). The two
    serve different objectives: the variance-optimal split minimises Σ w_i·Var_i and ignores
    the coverages c_i (when the total is short it meets some targets and misses others by
    more); the split proportional to need minimises the *largest* miss max_i k_i'/k_i (all
    equal), the split to use when every target matters as much as the others.

    **Laplace** (pure ε): Var_i = 2b_i² = 2Δ_i²/ε_i². Minimise Σ 2w_iΔ_i²/ε_i² subject to
    Σ ε_i = E. The objective is convex, so the Lagrange condition is the optimum:
    ∂/∂ε_i [Σ 2w_jΔ_j²/ε_j² + λ(Σ ε_j − E)] = −4w_iΔ_i²/ε_i³ + λ = 0, so ε_i³ ∝ w_iΔ_i² and

        ε_i = E·(w_iΔ_i²)^{1/3} / Σ_j (w_jΔ_j²)^{1/3},   min Σ w_i Var_i = 2(Σ_j (w_jΔ_j²)^{1/3})³/E².

    **Gaussian** (zCDP): σ_i² = Δ_i²/(2ρ_i). Minimise Σ w_iΔ_i²/(2ρ_i) subject to Σ ρ_i = R:
    −w_iΔ_i²/(2ρ_i²) + λ = 0, so ρ_i ∝ √w_i·Δ_i and

        ρ_i = R·√w_i Δ_i / Σ_j √w_j Δ_j,   min Σ w_i σ_i² = (Σ_j √w_j Δ_j)²/(2R).

    With ``meet_targets=True`` each budget is also held at or above what its accuracy target
    needs (a_i, from :func:`budget_for_accuracy`): the Karush–Kuhn–Tucker conditions of the
    same convex problem with ε_i ≥ a_i give ε_i = max(a_i, t·s_i) (s_i the shares above),
    with t found exactly from the sorted kinks a_i/s_i (water-filling). That needs
    E ≥ Σ a_i.

    The shares are computed in log space; the budgets are then shrunk (by a factor within
    10⁻¹² of 1) until their pessimistic sum is ≤ ``total``, and each scale is rounded up
    (b = Δ/ε, σ = Δ/√(2ρ_z)), so the allocation never spends more than ``total``.

    Used in notebook 11.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    total : float
        E (ε, Laplace) or R (ρ_z, Gaussian) in [1e-150, 1e150].
    %(family)s
    meet_targets : bool, keyword-only
        Hold every release at its accuracy target (refused if the total is too small).
    objective : {"variance", "need"}, keyword-only
        What the split minimises: the weighted total variance (the default) or the largest
        factor by which a target is missed (proportional to need; ``meet_targets`` is then
        met whenever the total allows it, and not read).

    Returns
    -------
    Allocation
        ``meets`` tells which targets the split meets.

    Raises
    ------
    ValueError
        If a release is malformed (the message names it and the field), the total is out of
        range, or ``meet_targets`` asks for more than the total.

    References
    ----------
    The derivation above (Lagrange multipliers; Boyd & Vandenberghe 2004, §5.5.3 for the
    KKT conditions); Dwork & Roth (2014), Theorem 3.6; Bun & Steinke (2016), Proposition 1.6.

    Examples
    --------
    >>> workload = [Release("count", k=5.0), Release("sum", k=50.0, lower=0, upper=8)]
    >>> split_budget(workload, 1.0).budgets.round(4).tolist()  # ∝ 1 : 8^(2/3) = 1 : 4
    [0.2, 0.8]
    >>> split_budget(workload, 1.0).meets.tolist()
    [False, True]
    >>> split_budget(workload, 1.2, meet_targets=True).meets.tolist()
    [True, True]
    """
    family = NoiseFamily.of(mechanism)
    w = family.read(_parse(workload))
    e = _check_total(total)
    d = family.reading_delta(delta)
    if not isinstance(meet_targets, (bool, np.bool_)):
        raise ValueError(f"meet_targets must be True or False; got {meet_targets!r}")
    if objective not in ("variance", "need"):
        raise ValueError(f"objective must be 'variance' or 'need'; got {objective!r}")
    if objective == "need":
        return _split_by_need(w, e, family, d)
    return _split_budget(w, e, family, d, bool(meet_targets), total)


def _split_by_need(w: _Workload, e: float, family: NoiseFamily, d: float) -> Allocation:
    """Every release at the same fraction of its need: the largest miss as small as can be."""
    acc_scales = family.accuracy_scales(w.k, w.coverage, sensitivity=w.sensitivity)
    floors = family.budgets(w.sensitivity, acc_scales)
    floors, acc_scales = _ratio_floors(w, family, floors, acc_scales)
    shares = floors / math.fsum(floors.tolist())
    budgets = np.maximum(_fit_under(lambda s: s * e * shares, e), _TINY)
    scales = family.scales(w.sensitivity, budgets)
    scales = np.where(budgets >= floors, np.minimum(scales, acc_scales), scales)
    return _allocation(w, family, d, budgets, scales, acc_scales)


def _split_budget(w: _Workload, e: float, family: NoiseFamily, d: float, meet_targets, total):
    family.check_sensitivities(w)
    acc_scales = family.accuracy_scales(w.k, w.coverage, sensitivity=w.sensitivity)
    floors = family.budgets(w.sensitivity, acc_scales)
    floors, acc_scales = _ratio_floors(w, family, floors, acc_scales)
    shares = _shares(w, family)
    if meet_targets:
        needed = sum_up(floors)
        if needed > e:
            raise ValueError(
                f"total must be at least {needed:.6g} (what the accuracy targets need) to meet "
                f"every target; got {total!r}"
            )
        t = _waterfill(floors, shares, e)
        budgets = _fit_under(lambda s: np.maximum(floors, s * t * shares), e)
    else:
        budgets = _fit_under(lambda s: s * e * shares, e)
    budgets = np.maximum(budgets, _TINY)
    scales = family.scales(w.sensitivity, budgets)
    # where the budget covers the target's, the target's scale is private at it too: use the
    # smaller (never noisier than needed, and the comparison with the target exact)
    scales = np.where(budgets >= floors, np.minimum(scales, acc_scales), scales)
    return _allocation(w, family, d, budgets, scales, acc_scales)


# --- joint coverage ------------------------------------------------------------------------


def joint_coverage(coverage) -> float:
    """The probability that every release lands within its ±k together: ∏ c_i.

    The releases' noises are independent, so the events |Z_i| ≤ k_i are too, and the chance
    that all of them hold is the product of their coverages (summed in log space). Six
    targets of 95 % hold together with probability 0.735, not 0.95.

    Used in notebook 11.

    Parameters
    ----------
    coverage : array_like
        The c_i in [0, 1] (an :class:`Allocation`'s ``coverage``), 1-D and non-empty.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a coverage is outside [0, 1] or NaN, or the list is empty.

    References
    ----------
    Independence of the releases' noises (each release draws its own).

    Examples
    --------
    >>> round(joint_coverage([0.95] * 6), 4)
    0.7351
    """
    c = _check_budget_list("coverage", coverage)
    if np.any(c > 1):
        raise ValueError(f"coverage must lie in [0, 1]; got {coverage!r}")
    if np.any(c == 0):
        return 0.0
    return float(math.exp(math.fsum(np.log(c).tolist())))


def bonferroni(workload, *, joint) -> list | Workload:
    """The workload with every coverage raised so that all targets hold together with ``joint``.

    Bonferroni's adjustment: each c_i = 1 − (1 − joint)/m, so that the chance that some
    release misses is at most Σ(1 − c_i) = 1 − joint (the union bound, whatever the
    dependence); with independent noises the joint coverage ∏ c_i is then a little above
    ``joint`` (Šidák's c_i = joint^{1/m} would meet it exactly). The knob trades accuracy for
    a statement about the whole table: each ±k is met more often, so it costs more budget.

    Used in notebook 11.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    joint : float, keyword-only
        The probability, in (0, 1), that every release lands within its ±k.

    Returns
    -------
    list of Release or Workload
        The same releases with their new coverage: a :class:`Workload` with the same unit
        when given one (the unit travels on to the allocation and the record), else a list.

    Raises
    ------
    ValueError
        If a release is malformed or ``joint`` is outside (0, 1).

    References
    ----------
    Bonferroni's inequality (the union bound); Šidák (1967), JASA 62, for the exact
    independent case.

    Examples
    --------
    >>> adjusted = bonferroni([Release("count", k=5.0)] * 5, joint=0.95)
    >>> [round(r.coverage, 4) for r in adjusted][:2], round(joint_coverage([0.99] * 5), 4)
    ([0.99, 0.99], 0.951)
    """
    w = _parse(workload)
    j = float(check_open_unit("joint", check_finite_scalar("joint", joint, rule=RULE_OPEN_UNIT)))
    each = 1.0 - (1.0 - j) / len(w.k)
    rows = _rows(workload)
    out = []
    for row in rows:
        fields_ = {f: getattr(row, f) for f in _FIELDS} if isinstance(row, Release) else dict(row)
        fields_["coverage"] = each
        out.append(Release(**fields_))
    # a workload stated for a unit stays one: its Δ are still the unit's, only coverage moved
    if isinstance(workload, Workload):
        return Workload(out, unit=workload.unit, means=workload.means)
    return out


fill_docstrings(globals(), _SECTIONS)
