"""Whose privacy and how many: the unit of privacy, δ against n, small groups.

* **the unit of privacy** (NIST SP 800-226): group privacy (:func:`group_privacy`,
  :func:`group_rho`), the per-person sensitivity m·Δ (:func:`per_person`) and the records
  the bound m drops (:func:`clipping_bias`, :func:`contribution_tradeoff`);
* **δ against the number of people** (:func:`delta_exposure`, :func:`largest_delta`);
* **small groups** (:func:`group_error`, :func:`smallest_group`).

Part of :mod:`helpers.release`, which re-exports every public name; the derivations are in
its docstring and in each function's.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .._docstrings import fill_docstrings
from .._numerics import product_sign
from .._validation import as_output
from ..budget import MAX_MAGNITUDE, Guarantee, NoiseFamily, PrivacyUnit, Release, Workload
from ._checks import (
    _check_contributions,
    _check_counts,
    _check_delta,
    _check_in,
    _check_m_array,
    _check_magnitude,
    _check_open_unit,
    _check_positive,
    _parse_workload,
    _workload_columns,
)

__all__ = [
    "Tradeoff",
    "clipping_bias",
    "contribution_tradeoff",
    "delta_exposure",
    "group_error",
    "group_privacy",
    "group_rho",
    "largest_delta",
    "per_person",
    "smallest_group",
]


class Tradeoff(NamedTuple):
    """Per bound m on each person's records (:func:`contribution_tradeoff`): the records the
    bound drops (``bias``, a count's error from clipping), the noise's ±k at the coverage
    (``noise``) and their sum (``total``)."""

    contributions: np.ndarray  # int64: the bounds are whole numbers
    bias: np.ndarray
    noise: np.ndarray
    total: np.ndarray


# --- the unit of privacy ------------------------------------------------------------------


def group_privacy(epsilon, delta=0.0, *, size):
    """The guarantee for a group of ``size`` records of an (ε, δ)-DP release.

    Two data sets that differ in m records are joined by m neighbouring steps
    D₀, D₁, …, D_m; applying P[M(D_i) ∈ S] ≤ e^ε P[M(D_{i+1}) ∈ S] + δ m times gives

        P[M(D₀) ∈ S] ≤ e^{mε} P[M(D_m) ∈ S] + δ·(1 + e^ε + … + e^{(m−1)ε}),

    so the release is (mε, δ·(e^{mε} − 1)/(e^ε − 1))-DP for groups of m (m·δ at ε = 0). For
    δ = 0 this is Dwork & Roth's group privacy, mε; the δ term is at most m·e^{(m−1)ε}·δ
    (each of its m terms is at most e^{(m−1)ε}δ), the simpler form often quoted. A person who contributes m records is such a group.
    mε is rounded up where the double product is below the exact one; δ is computed in log
    space and rounded up; it is capped at 1.

    Used in notebook 12.

    Parameters
    ----------
    %(epsilon)s
    delta : float
        δ in [0, 1) of the release (one number).
    size : int, keyword-only
        m ≥ 1, the number of records in the group (one person's records).

    Returns
    -------
    helpers.budget.Guarantee
        (ε, δ) of the group: Python floats for scalar ε, else arrays.

    %(raises)s

    References
    ----------
    Dwork & Roth (2014), Theorem 2.2 (pure ε, mε); the δ term is the chain above, not a
    quoted formula. Vadhan (2017), "The Complexity of Differential Privacy" (group privacy
    in general).

    Examples
    --------
    >>> group_privacy(0.5, size=3).epsilon
    1.5
    >>> g = group_privacy(0.5, 1e-8, size=3)
    >>> round(g.delta / 1e-8, 4)  # 1 + e^0.5 + e^1.0
    5.367
    """
    eps = _check_magnitude("epsilon", epsilon, array=True)
    d = _check_delta(delta)
    m = _check_contributions(size, "size")
    with np.errstate(over="ignore"):
        product = m * eps
    # mε rounded up where the double product fell below the exact one (as δ and ρ are)
    positive = (eps > 0) & np.isfinite(product)
    short = positive & (
        product_sign(np.where(positive, eps, 1.0), float(m), np.where(positive, product, 1.0)) > 0
    )
    group_eps = np.where(short, np.nextafter(product, np.inf), product)
    if d == 0.0:
        return Guarantee(as_output(group_eps), as_output(np.zeros_like(eps)))
    safe = np.where(eps > 0, eps, 1.0)
    with np.errstate(over="ignore", divide="ignore"):
        # Σ_{i<m} e^{iε} = expm1(mε)/expm1(ε), a few units in the last place; in log space,
        # (m − 1)ε + ln(1 − e^{−mε}) − ln(1 − e^{−ε}), where e^{mε} would overflow
        direct = np.where(eps > 0, np.expm1(np.minimum(m * safe, 700.0)) / np.expm1(safe), m)
        log_sum = (m - 1) * safe + np.log(-np.expm1(-m * safe)) - np.log(-np.expm1(-safe))
        total = np.where(
            m * eps <= 700.0, d * direct, np.exp(np.minimum(math.log(d) + log_sum, 0.0))
        )
    # rounded up past the error of exponentiating: an argument of size x carries an absolute
    # error of about x·2⁻⁵² (the product mε, the logs), a relative one in the exponential; a
    # margin of 16 ulps alone left δ 26 ulps low at mε = 64 (x is at most about 1,500 here
    # where the result is below 1)
    margin = (16.0 + 4.0 * np.minimum(m * eps, 1_600.0)) * 2.0**-52
    # and, for a subnormal δ, past the rounding of the product itself: half a unit of 2⁻¹⁰⁷⁴
    # per operation is a large relative error there (5e-324 · 2.4999 rounds to 1e-323, 20 %
    # low), so m + 2 units are added (nothing, at a normal δ)
    group_delta = np.minimum(total * (1 + margin) + (m + 2) * 5e-324, 1.0)
    return Guarantee(as_output(group_eps), as_output(group_delta))


def group_rho(rho, *, size):
    """ρ_z of a group of ``size`` records of a ρ_z-zCDP release: m²·ρ_z.

    Bun & Steinke (2016), Proposition 1.9 (group privacy of zCDP). Rounded up.

    Used in notebook 12.

    Parameters
    ----------
    rho : float or array_like
        ρ_z ≥ 0.
    size : int, keyword-only
        m ≥ 1, the number of records in the group.

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Bun & Steinke (2016), "Concentrated Differential Privacy: Simplifications, Extensions,
    and Lower Bounds", TCC 2016, Proposition 1.9 (ρ-zCDP is k²ρ-zCDP for groups of k).

    Examples
    --------
    >>> group_rho(0.125, size=2)
    0.5
    """
    r = _check_magnitude("rho", rho, array=True)
    m = _check_contributions(size, "size")
    with np.errstate(over="ignore"):
        product = r * float(m * m)
    positive = (r > 0) & np.isfinite(product)
    short = positive & (
        product_sign(np.where(positive, r, 1.0), float(m * m), np.where(positive, product, 1.0)) > 0
    )
    return as_output(np.where(short, np.nextafter(product, np.inf), product))


def per_person(workload, *, contributions, unit="person", neighbours="change-one") -> Workload:
    """The workload with each release's sensitivity for a person of up to m records: m·Δ.

    When each person's records are bounded to at most m (the rest dropped), changing one
    person changes at most m records, so a count's Δ is m, a sum's m·(upper − lower) and a
    mean's m·(upper − lower)/n (n the public number of records). The releases keep their
    bounds, n and labels (OpenDP needs them); ``sensitivity`` states m·Δ, so
    :func:`helpers.budget.budget_for_accuracy` and the others allocate per person. The
    result is a :class:`helpers.budget.Workload` holding the :class:`helpers.budget.PrivacyUnit`
    (the unit, m, the neighbour notion): every allocation made from it carries the unit on to
    the record (:func:`privacy_record`), so m is stated once. A workload already stated for a
    unit is refused (its Δ would be multiplied twice).

    Used in notebooks 11 and 12.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    contributions : int, keyword-only
        m ≥ 1, the most records one person contributes.
    unit : {"person", "user", "record"}, keyword-only
        Whom the guarantee protects (default "person"); "record" keeps the per-record Δ.
    neighbours : {"change-one", "add-remove"}, keyword-only
        The neighbour notion the workload's Δ were stated for (default "change-one", the
        course's releases with a public n).

    Returns
    -------
    helpers.budget.Workload
        One :class:`helpers.budget.Release` per release, and ``unit``.

    %(raises)s

    References
    ----------
    NIST SP 800-226 (2025): the unit of privacy and bounding each person's contributions.

    Examples
    --------
    >>> [r.sensitivity for r in per_person([Release("count", k=5.0)], contributions=3)]
    [3.0]
    """
    _check_not_stated(workload)
    person = PrivacyUnit(unit, contributions=contributions, neighbours=neighbours)
    factor = 1 if unit == "record" else person.contributions
    releases = _with_sensitivities(workload, _parse_workload(workload).sensitivity, factor)
    return Workload(releases, unit=person)


def _check_not_stated(workload) -> None:
    """A workload whose Δ are per record: one already stated for a unit is refused."""
    if isinstance(workload, Workload):
        raise ValueError(
            f"workload must hold the per-record Δ; got a Workload already stated for "
            f"{workload.unit!r}: its Δ would be multiplied again (pass the per-record releases)"
        )


def _times_up(delta: float, factor: int) -> float:
    """factor·Δ as a float, rounded up where the product is not exact (toward privacy)."""
    exact = Fraction(float(delta)) * factor
    scaled = float(exact)
    return scaled if Fraction(scaled) >= exact else math.nextafter(scaled, math.inf)


def _with_sensitivities(workload, per_record, factor: int) -> list:
    """The workload's releases (bounds, n and labels kept), each with ``sensitivity`` stated as
    factor × its per-record Δ, rounded up."""
    columns = _workload_columns(workload)
    names = [f.name for f in dataclasses.fields(Release) if f.name != "_"]
    releases = []
    for i, delta in enumerate(per_record):
        values = {name: columns[name][i] for name in names}
        values["sensitivity"] = _times_up(delta, factor)
        releases.append(Release(values.pop("kind"), **values))
    return releases


def clipping_bias(counts, *, contributions):
    """The share of all records dropped when each person keeps at most m: Σ max(0, c − m)/Σ c.

    A count of records (doctor visits, say) released after the bound is low by this share:
    the bias the bound adds, which only people with more than m records cause. Sorted once,
    then read for every m (vectorised over ``contributions``).

    Used in notebook 12.

    Parameters
    ----------
    counts : array_like
        Each person's number of records (whole numbers ≥ 0, not all 0).
    contributions : int or array_like of int, keyword-only
        m ≥ 1.

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    NIST SP 800-226 (2025), Near, Darais, Lefkovitz & Howarth, "Guidelines for Evaluating
    Differential Privacy Guarantees" (the unit of privacy; bounding each person's contributions
    biases a release). The share Σ max(0, c − m)/Σ c is the definition of the records dropped.

    Examples
    --------
    >>> clipping_bias([1, 1, 2, 6], contributions=2)  # drops 4 of 10
    0.4
    """
    c = _check_counts(counts)
    total = float(c.sum())
    if total == 0:
        raise ValueError("counts must not all be 0 (no records to release)")
    m = _check_m_array(contributions)
    return as_output(_dropped(c, m) / total)


def _dropped(c: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Σ max(0, c − m) for every m, from the sorted counts and their suffix sums."""
    s = np.sort(c)
    suffix = np.concatenate([np.cumsum(s[::-1])[::-1], [0.0]])  # suffix[j] = Σ s[j:]
    j = np.searchsorted(s, m, side="right")  # people with more than m records: s[j:]
    return np.maximum(suffix[j] - m * (len(s) - j), 0.0)


def contribution_tradeoff(counts, contributions, *, epsilon, coverage=0.95) -> Tradeoff:
    """The error of a released count of records against the bound m on each person's records.

    Bounding each person to m records drops Σ max(0, c − m) records (the bias) and makes the
    count's sensitivity m, so Laplace noise at ε reaches ±k = m·ln(1/(1 − c))/ε at coverage
    c (the noise). A small m loses records, a large m adds noise; their sum is smallest in
    between (NIST SP 800-226: contribution bounding trades bias for noise).

    Used in notebook 12.

    Parameters
    ----------
    counts : array_like
        Each person's number of records.
    contributions : array_like of int
        The bounds m ≥ 1 to compare.
    epsilon : float, keyword-only
        ε > 0 of the count (per person).
    coverage : float, keyword-only
        c in (0, 1).

    Returns
    -------
    Tradeoff
        ``contributions`` the bounds m as an integer array (int64), and ``bias``, ``noise``
        and ``total`` in records (float arrays), one per m.

    %(raises)s

    References
    ----------
    NIST SP 800-226 (2025) (contribution bounding trades bias for noise); Dwork & Roth (2014), Theorem 3.8 (the Laplace tail: P[|Y| ≥ b·ln(1/(1 − c))] = 1 − c),
    at Δ = m.

    Examples
    --------
    >>> t = contribution_tradeoff([1, 1, 2, 6], [1, 2, 6], epsilon=1.0, coverage=0.95)
    >>> t.bias.tolist(), t.noise.round(2).tolist()
    ([6.0, 4.0, 0.0], [3.0, 5.99, 17.97])
    """
    c = _check_counts(counts)
    m = np.atleast_1d(_check_m_array(contributions))
    eps = _check_positive("epsilon", epsilon)
    cov = _check_open_unit("coverage", coverage)
    bias = _dropped(c, m)
    noise = m * -math.log1p(-cov) / eps
    # the bounds are whole numbers (checked): returned as integers, as given
    return Tradeoff(m.astype(np.int64), bias, noise, bias + noise)


# --- δ against n ----------------------------------------------------------------------------


def delta_exposure(delta, n):
    """The chance that δ exposes someone outright: 1 − (1 − δ)^n.

    The mechanism that publishes each of n records with probability δ (and nothing else) is
    (0, δ)-DP, yet publishes some record with probability 1 − (1 − δ)^n ≈ nδ: δ is the
    chance the guarantee fails completely for the worst-off person, so it must be far below
    1/n (NIST SP 800-226; Dwork & Roth 2014, §2.3). Computed as −expm1(n·log1p(−δ)).

    Used in notebook 12.

    Parameters
    ----------
    delta : float or array_like
        δ in [0, 1).
    n : float or array_like
        The number of people, ≥ 1.

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Dwork & Roth (2014), §2.3 (the mechanism that publishes each record with probability δ:
    why δ must be far below 1/n); NIST SP 800-226 (2025) (δ against the number of people).

    Examples
    --------
    >>> round(delta_exposure(1e-6, 1_000_000), 4)  # δ = 1/n: a 63 % chance
    0.6321
    """
    d = _check_in(
        "delta", delta, "[0, 1)", lambda d: (d >= 0) & (d < 1), array=True, named_range=True
    )
    people = _check_magnitude("n", n, low=1, array=True)
    return as_output(-np.expm1(people * np.log1p(-d)))


def largest_delta(n, *, exposure):
    """The largest δ whose chance of exposing someone of n people is at most ``exposure``.

    The inverse of :func:`delta_exposure`: δ = 1 − (1 − exposure)^{1/n}, rounded down, so
    its round trip never exceeds ``exposure``.

    Used in notebook 12.

    Parameters
    ----------
    n : float or array_like
        The number of people, ≥ 1.
    exposure : float, keyword-only
        The tolerated chance in (0, 1).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    The inverse of :func:`delta_exposure`: Dwork & Roth (2014), §2.3; NIST SP 800-226 (2025).

    Examples
    --------
    >>> round(largest_delta(1_000_000, exposure=0.01) * 1_000_000, 5)  # about 0.01/n
    0.01005
    """
    people = _check_magnitude("n", n, low=1, array=True)
    e = _check_open_unit("exposure", exposure)
    d = -np.expm1(np.log1p(-e) / people)
    d = np.nextafter(d, 0.0)
    # one more step down wherever the round trip still lands above the target
    over = -np.expm1(people * np.log1p(-d)) > e
    return as_output(np.where(over, np.nextafter(d, 0.0), d))


# --- small groups ---------------------------------------------------------------------------


def _noise_k(budget: float, sensitivity: float, mechanism: str, coverage: float) -> float:
    """±k the noise reaches with probability c at this budget and Δ (any registered noise: the
    reach is read at Δ, so a noise whose shape depends on Δ is right too)."""
    family = NoiseFamily.of(mechanism)
    delta_f = np.array([sensitivity])
    scale = float(family.scales(delta_f, np.array([budget]))[0])
    k, _, _ = family.delivered(
        np.array([scale]), np.array([1.0]), np.array([coverage]), sensitivity=delta_f
    )
    return float(k[0])


def _check_group_args(budget, kind, mechanism, coverage, contributions, fraction):
    f = _check_in("fraction", fraction, "(0, 1]", lambda f: (f >= 1 / MAX_MAGNITUDE) & (f <= 1))
    b = _check_positive("budget", budget)
    if kind not in ("count", "mean"):
        raise ValueError(f"kind must be 'count' or 'mean'; got {kind!r}")
    family = NoiseFamily.of(mechanism)
    cov = _check_open_unit("coverage", coverage)
    m = _check_contributions(contributions)
    return b, family, cov, m * (1.0 / f)


def group_error(
    group_size, *, budget, kind, mechanism="laplace", coverage=0.95, contributions=1, fraction=1.0
):
    """The relative error of a small group's count or mean: ±k as a share of what is released.

    A count of a group of N people gets the same noise whatever N (Δ = m), so its ±k at
    coverage c, m·k₁ (k₁ the ±k at Δ = 1), is a share m·k₁/(f·N) of a count of a fraction f
    of the group: it grows as the group shrinks. A mean over the group's N records, clipped
    to [L, U], has Δ = m·(U − L)/N and ±k = m·k₁·(U − L)/N, a share m·k₁/(f·N) of a mean
    whose value is a fraction f of the range U − L. Laplace noise spends ε, Gaussian
    noise ρ_z (the ``budget``), as in :mod:`helpers.budget`. NIST SP 800-226 (2025) warns of
    small groups: the noise that is negligible for a county can exceed a
    small subgroup's count.

    Used in notebook 12.

    Parameters
    ----------
    group_size : float or array_like
        N ≥ 1, the group's people (count) or records (mean).
    budget : float, keyword-only
        ε (Laplace) or ρ_z (Gaussian) of this release, > 0.
    kind : {"count", "mean"}, keyword-only
        A count (relative to N) or a mean (relative to the range U − L).
    mechanism : {"laplace", "gaussian"}, keyword-only
    coverage : float, keyword-only
        c in (0, 1).
    contributions : int, keyword-only
        m ≥ 1, the most records per person.
    fraction : float, keyword-only
        f in (0, 1]: the share of the group the count counts, or the mean's value as a
        share of its range (1: relative to N, or to U − L).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    NIST SP 800-226 (2025) (small groups: the same noise is a larger share of a smaller
    group's statistic); Dwork & Roth (2014), Theorem 3.8 (the Laplace tail: P[|Y| ≥ b·ln(1/(1 − c))] = 1 − c); the Gaussian ±k = σ·Φ⁻¹((1 + c)/2) at σ = Δ/√(2ρ_z)
    (Bun & Steinke 2016, Proposition 1.6), as :mod:`helpers.budget` computes them.

    Examples
    --------
    >>> round(group_error(100, budget=1.0, kind="count"), 4)  # ln 20 / 100
    0.03
    """
    size = _check_magnitude("group_size", group_size, low=1, array=True)
    b, family, cov, m = _check_group_args(
        budget, kind, mechanism, coverage, contributions, fraction
    )
    k_one = _noise_k(b, 1.0, family, cov)  # ±k at Δ = 1
    return as_output(m * k_one / size)


def smallest_group(
    *, budget, kind, accuracy, mechanism="laplace", coverage=0.95, contributions=1, fraction=1.0
) -> int:
    """The smallest group whose count or mean the release serves within a relative ``accuracy``.

    The least whole N with :func:`group_error` ≤ accuracy: N = ⌈m·k₁/(f·accuracy)⌉, checked
    against the error itself (m·k₁/(f·N) as :func:`group_error` computes it; the closed form's rounding is corrected by one step either
    way). Groups smaller than this should be merged, suppressed or given more budget
    (NIST SP 800-226).

    Used in notebook 12.

    Parameters
    ----------
    budget, kind, mechanism, coverage, contributions, fraction
        As :func:`group_error`.
    accuracy : float, keyword-only
        The largest relative error accepted, > 0 (0.1 for ±10 %).

    Returns
    -------
    int

    %(raises)s

    References
    ----------
    NIST SP 800-226 (2025) (merge or suppress groups too small for the accuracy asked); the
    error inverted is :func:`group_error`'s.

    Examples
    --------
    >>> smallest_group(budget=1.0, kind="count", accuracy=0.1)  # ln 20 / 0.1 = 29.96
    30
    """
    b, family, cov, m = _check_group_args(
        budget, kind, mechanism, coverage, contributions, fraction
    )
    acc = _check_positive("accuracy", accuracy)
    k_one = _noise_k(b, 1.0, family, cov)
    need = m * k_one / acc
    if not need <= 2**53:
        raise ValueError(
            f"accuracy must allow a group of at most 2**53; got {accuracy!r} (needs {need:.3g})"
        )
    n = max(1, math.ceil(need))
    while n > 1 and m * k_one / (n - 1) <= acc:
        n -= 1
    while m * k_one / n > acc:
        n += 1
    return n


fill_docstrings(globals())
