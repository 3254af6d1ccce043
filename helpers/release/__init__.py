"""From a chosen budget to a release: whose privacy, how to explain it, a record, OpenDP code.

The continuation of :mod:`helpers.budget` (notebook 11) for a practitioner who has chosen a
budget (notebook 12):

* **the unit of privacy** (NIST SP 800-226, 2025: the "unit of privacy" beside ε). An ε
  per *record* protects a person who contributes one record; a person with m records is a
  group of m. Group privacy: an ε-DP release is mε-DP for groups of m
  (:func:`group_privacy`, Dwork & Roth 2014, Theorem 2.2), an (ε, δ)-DP release is
  (mε, δ·Σ_{i<m} e^{iε})-DP (the same chain of m steps; at most m·e^{(m−1)ε}·δ, each of
  the m terms being at most e^{(m−1)ε}δ; group privacy in general: Vadhan 2017), a
  ρ_z-zCDP release m²ρ_z-zCDP (:func:`group_rho`, Bun & Steinke 2016,
  Proposition 1.9). Bounding each person to at most m records makes the per-person
  sensitivity m·Δ (:func:`per_person`), at the price of the records dropped
  (:func:`clipping_bias`, :func:`contribution_tradeoff`);
* **δ against the number of people**: the (0, δ)-DP mechanism that publishes each record
  with probability δ exposes someone with probability 1 − (1 − δ)^n (:func:`delta_exposure`,
  :func:`largest_delta`), hence δ ≪ 1/n;
* **small groups**: the same noise is a larger share of a smaller group's statistic
  (:func:`group_error`, :func:`smallest_group`; NIST SP 800-226);
* **explaining the choice** in odds, as Nanayakkara et al. (USENIX Security 2023) found
  people understand best: from a prior to at most a posterior (:func:`odds`,
  :func:`odds_sentence`, :func:`subject_paragraph`), beside the best test between neighbours
  (:func:`attack_reading`);
* **a record of the choice** for a registry (:func:`privacy_record`), read back with
  notebook 09's reader (:func:`registry_table`);
* **the release in OpenDP**: one measurement per release whose own privacy map gives the
  allocated budget (:func:`opendp_measurements`) and a script a practitioner runs on their
  own DataFrame (:func:`opendp_script`).

The math layer: no plotting, no widgets (OpenDP is imported where it is used). Used in
notebook 12.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import json
import math
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd

from .._docstrings import fill_docstrings
from .._numerics import product_sign
from .._validation import (
    as_output,
    check_finite_scalar,
    check_int_range,
    check_real,
    check_universe,
)
from ..attack import attack_tpr
from ..budget import (
    MAX_MAGNITUDE,
    Allocation,
    Guarantee,
    NoiseFamily,
    Release,
    _columns,
    _parse,
    _rows,
)
from ..deployments import (
    load,
    posterior_bad_event_probability,
    posterior_bound,
    tpr_at_fpr,
    unit_group,
    zcdp_tpr,
)

__all__ = [
    "MAX_CONTRIBUTIONS",
    "NEIGHBOURS",
    "OPENDP_NEIGHBOURS",
    "RECORD_FIELDS",
    "REGISTRY_COLUMNS",
    "UNITS",
    "AttackReading",
    "Odds",
    "Tradeoff",
    "allocation_attack",
    "allocation_mechanisms",
    "attack_reading",
    "clipping_bias",
    "contribution_tradeoff",
    "delta_exposure",
    "group_error",
    "group_privacy",
    "group_rho",
    "largest_delta",
    "neighbour_distance",
    "odds",
    "odds_sentence",
    "opendp_measurements",
    "opendp_script",
    "per_person",
    "percent",
    "privacy_record",
    "registry_table",
    "smallest_group",
    "subject_paragraph",
]

#: Most records one person may contribute (m), and the largest group size of group privacy.
MAX_CONTRIBUTIONS = 10**6
#: Units of privacy a record can state, as the registry's ``privacy_unit`` words.
UNITS = {"person": "Person-level", "record": "Record-level", "user": "User-level"}
#: Neighbour notions a record can state.
NEIGHBOURS = ("change-one", "add-remove")
#: The neighbour notion :func:`opendp_measurements` and :func:`opendp_script` check: OpenDP's
#: symmetric distance, a person's records added or removed (:func:`neighbour_distance`).
OPENDP_NEIGHBOURS = "add-remove"
#: The columns of the course's deployments table (helpers/data/dp_deployments.csv).
REGISTRY_COLUMNS = (
    "name",
    "curators",
    "year",
    "sector",
    "dp_variant",
    "privacy_unit",
    "model",
    "releases",
    "epsilon",
    "delta",
    "rho",
    "registry_slug",
    "source_url",
)
#: Fields a record holds beyond the registry's columns.
RECORD_FIELDS = (
    *REGISTRY_COLUMNS,
    "unit",
    "contributions",
    "neighbours",
    "accounting",
    "date",
    "release_list",
)

_LN2 = math.log(2.0)


class Odds(NamedTuple):
    """An odds reading of a guarantee (:func:`odds`).

    ``prior`` the observer's chance before the release, ``posterior`` the most it can be
    after (at ε for δ = 0, at ε + ln 2 for δ > 0), ``bad_event`` the probability of an output
    on which that bound may fail (0 for δ = 0, 2δ otherwise).
    """

    prior: float
    posterior: float
    bad_event: float


class AttackReading(NamedTuple):
    """The best test between neighbours at a false-positive rate (:func:`attack_reading`)."""

    fpr: float
    tpr: float
    advantage: float


class Tradeoff(NamedTuple):
    """Per bound m on each person's records (:func:`contribution_tradeoff`): the records the
    bound drops (``bias``, a count's error from clipping), the noise's ±k at the coverage
    (``noise``) and their sum (``total``)."""

    contributions: np.ndarray  # int64: the bounds are whole numbers
    bias: np.ndarray
    noise: np.ndarray
    total: np.ndarray


# --- checks -------------------------------------------------------------------------------


def _check_contributions(contributions, name: str = "contributions") -> int:
    return check_int_range(name, contributions, 1, MAX_CONTRIBUTIONS)


def _check_epsilon(epsilon) -> np.ndarray:
    eps = check_real("epsilon", epsilon)
    bad = ~np.isfinite(eps) | (eps < 0) | (eps > MAX_MAGNITUDE)
    if np.any(bad):
        raise ValueError(
            f"epsilon must be a number in [0, {MAX_MAGNITUDE:g}]; got {np.asarray(epsilon)!r}"
        )
    return eps


def _scalar_in(name: str, value, allowed: str, inside) -> float:
    """One finite number inside ``allowed``; every refusal names the whole range."""
    bad = f"{name} must be a number in {allowed}; got {value!r}"
    try:
        v = float(check_finite_scalar(name, value))
    except ValueError as err:
        raise ValueError(f"{bad} ({err})") from None
    if not inside(v):
        raise ValueError(bad)
    return v


def _check_delta(delta, name: str = "delta") -> float:
    return _scalar_in(name, delta, "[0, 1)", lambda d: 0.0 <= d < 1.0)


def _check_open_unit(name: str, value) -> float:
    """A probability strictly between 0 and 1 (a prior, a coverage, an FPR)."""
    return _scalar_in(name, value, "the open interval (0, 1)", lambda v: 0.0 < v < 1.0)


def _check_allocation(allocation) -> Allocation:
    if not isinstance(allocation, Allocation):
        shown = repr(allocation)
        raise ValueError(
            "allocation must be an Allocation (from helpers.budget.budget_for_accuracy, "
            f"split_budget or choose_workload); got {shown[:80]}"
        )
    return allocation


def _check_counts(counts) -> np.ndarray:
    values = check_universe(counts, "counts")
    if np.any(values < 0) or np.any(values != np.floor(values)):
        raise ValueError(
            "counts must be whole numbers ≥ 0 (each person's number of records); got "
            f"{values[(values < 0) | (values != np.floor(values))][:3]!r}"
        )
    return values


# --- the unit of privacy ------------------------------------------------------------------


def group_privacy(epsilon, delta=0.0, *, size):
    """The guarantee for a group of ``size`` records of an (ε, δ)-DP release.

    Two data sets that differ in m records are joined by m neighbouring steps
    D₀, D₁, …, D_m; applying P[M(D_i) ∈ S] ≤ e^ε P[M(D_{i+1}) ∈ S] + δ m times gives

        P[M(D₀) ∈ S] ≤ e^{mε} P[M(D_m) ∈ S] + δ·(1 + e^ε + … + e^{(m−1)ε}),

    so the release is (mε, δ·(e^{mε} − 1)/(e^ε − 1))-DP for groups of m (m·δ at ε = 0). For
    δ = 0 this is Dwork & Roth's group privacy, mε; the δ term is at most m·e^{(m−1)ε}·δ
    (each of its m terms is at most e^{(m−1)ε}δ), the simpler form often quoted. A person who contributes m records is such a group.
    δ is computed in log space and rounded up; it is capped at 1.

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
    eps = _check_epsilon(epsilon)
    d = _check_delta(delta)
    m = _check_contributions(size, "size")
    group_eps = m * eps
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
    group_delta = np.minimum(total * (1 + 16 * 2.0**-52), 1.0)
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
    r = check_real("rho", rho)
    if np.any(~np.isfinite(r) | (r < 0) | (r > MAX_MAGNITUDE)):
        raise ValueError(f"rho must be a number in [0, {MAX_MAGNITUDE:g}]; got {rho!r}")
    m = _check_contributions(size, "size")
    with np.errstate(over="ignore"):
        product = r * float(m * m)
    positive = (r > 0) & np.isfinite(product)
    short = positive & (
        product_sign(np.where(positive, r, 1.0), float(m * m), np.where(positive, product, 1.0)) > 0
    )
    return as_output(np.where(short, np.nextafter(product, np.inf), product))


def per_person(workload, *, contributions) -> list:
    """The workload with each release's sensitivity for a person of up to m records: m·Δ.

    When each person's records are bounded to at most m (the rest dropped), changing one
    person changes at most m records, so a count's Δ is m, a sum's m·(upper − lower) and a
    mean's m·(upper − lower)/n (n the public number of records). The releases keep their
    bounds, n and labels (OpenDP needs them); ``sensitivity`` states m·Δ, so
    :func:`helpers.budget.budget_for_accuracy` and the others allocate per person.

    Used in notebook 12.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    contributions : int, keyword-only
        m ≥ 1, the most records one person contributes.

    Returns
    -------
    builtins.list
        One :class:`helpers.budget.Release` per release.

    %(raises)s

    References
    ----------
    NIST SP 800-226 (2025): the unit of privacy and bounding each person's contributions.

    Examples
    --------
    >>> [r.sensitivity for r in per_person([Release("count", k=5.0)], contributions=3)]
    [3.0]
    """
    m = _check_contributions(contributions)
    parsed = _parse(workload)
    columns = _columns(_rows(workload))
    names = [f.name for f in dataclasses.fields(Release) if f.name != "_"]
    releases = []
    for i, delta_f in enumerate(parsed.sensitivity):
        values = {name: columns[name][i] for name in names}
        exact = Fraction(float(delta_f)) * m
        scaled = float(exact)
        values["sensitivity"] = (
            scaled if Fraction(scaled) >= exact else math.nextafter(scaled, math.inf)
        )
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


def _check_m_array(contributions) -> np.ndarray:
    m = check_real("contributions", contributions)
    if np.any((m < 1) | (m > MAX_CONTRIBUTIONS) | (m != np.floor(m))):
        raise ValueError(
            f"contributions must be whole numbers in 1..{MAX_CONTRIBUTIONS}; got {contributions!r}"
        )
    if m.size > 10**6:
        raise ValueError(f"contributions must hold at most 1,000,000 values; got {m.size:,}")
    return m


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
    eps = check_finite_scalar("epsilon", epsilon)
    if not 0 < eps <= MAX_MAGNITUDE:
        raise ValueError(f"epsilon must be a number in (0, {MAX_MAGNITUDE:g}]; got {epsilon!r}")
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
    bad = f"delta must be a number in [0, 1); got {delta!r}"
    try:
        d = check_real("delta", delta)
    except ValueError as err:
        raise ValueError(f"{bad} ({err})") from None
    if np.any(~np.isfinite(d) | (d < 0) | (d >= 1)):
        raise ValueError(bad)
    people = check_real("n", n)
    if np.any(~np.isfinite(people) | (people < 1) | (people > MAX_MAGNITUDE)):
        raise ValueError(f"n must be a number in [1, {MAX_MAGNITUDE:g}]; got {n!r}")
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
    people = check_real("n", n)
    if np.any(~np.isfinite(people) | (people < 1) | (people > MAX_MAGNITUDE)):
        raise ValueError(f"n must be a number in [1, {MAX_MAGNITUDE:g}]; got {n!r}")
    e = _check_open_unit("exposure", exposure)
    d = -np.expm1(np.log1p(-e) / people)
    d = np.nextafter(d, 0.0)
    # one more step down wherever the round trip still lands above the target
    over = -np.expm1(people * np.log1p(-d)) > e
    return as_output(np.where(over, np.nextafter(d, 0.0), d))


# --- small groups ---------------------------------------------------------------------------


def _noise_k(budget: float, sensitivity: float, mechanism: str, coverage: float) -> float:
    """±k the noise reaches with probability c at this budget and Δ (Laplace or Gaussian)."""
    family = NoiseFamily.of(mechanism)
    scale = float(family.scales(np.array([sensitivity]), np.array([budget]))[0])
    k, _, _ = family.delivered(np.array([scale]), np.array([1.0]), np.array([coverage]))
    return float(k[0])


def _check_group_args(budget, kind, mechanism, coverage, contributions, fraction):
    f = check_finite_scalar("fraction", fraction)
    if not 1 / MAX_MAGNITUDE <= f <= 1:
        raise ValueError(f"fraction must be a number in (0, 1]; got {fraction!r}")
    b = check_finite_scalar("budget", budget)
    if not 0 < b <= MAX_MAGNITUDE:
        raise ValueError(f"budget must be a number in (0, {MAX_MAGNITUDE:g}]; got {budget!r}")
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
    size = check_real("group_size", group_size)
    if np.any(~np.isfinite(size) | (size < 1) | (size > MAX_MAGNITUDE)):
        raise ValueError(
            f"group_size must be a number in [1, {MAX_MAGNITUDE:g}]; got {group_size!r}"
        )
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
    acc = check_finite_scalar("accuracy", accuracy)
    if not 0 < acc <= MAX_MAGNITUDE:
        raise ValueError(f"accuracy must be a number in (0, {MAX_MAGNITUDE:g}]; got {accuracy!r}")
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


# --- explaining the choice -------------------------------------------------------------------


def odds(epsilon, delta=0.0, *, prior) -> Odds:
    """From a prior to at most a posterior: the odds reading of an (ε, δ) guarantee.

    An observer who thinks there is a chance p that you are in the data (or that your record
    holds a given value) can, after the release, think at most p·e^ε/(p·e^ε + 1 − p)
    (:func:`helpers.deployments.posterior_bound`; Lee & Clifton 2011). For δ > 0 the bound
    is read at ε + ln 2 and fails on outputs of probability at most 2δ
    (:func:`helpers.deployments.posterior_bad_event_probability`), as notebook 09 reads it.
    This is the odds-based explanation Nanayakkara et al. (2023) found people understand
    best.

    Used in notebook 12.

    Parameters
    ----------
    epsilon : float
        ε ≥ 0 (per person).
    delta : float
        δ in [0, 1).
    prior : float, keyword-only
        p in (0, 1).

    Returns
    -------
    Odds

    %(raises)s

    References
    ----------
    Lee & Clifton (2011), eq. (4)–(5) with two worlds (the posterior bound
    p·e^ε/(p·e^ε + 1 − p), :func:`helpers.deployments.posterior_bound`); Nanayakkara, Smart,
    Cummings, Kaptchuk & Redmiles (2023), "What Are the Chances? Explaining the Epsilon
    Parameter in Differential Privacy", USENIX Security 2023 (odds-based explanations).

    Examples
    --------
    >>> o = odds(1.0, prior=0.5)
    >>> round(o.posterior, 4), o.bad_event
    (0.7311, 0.0)
    """
    eps = check_finite_scalar("epsilon", epsilon)
    if not 0 <= eps <= MAX_MAGNITUDE:
        raise ValueError(f"epsilon must be a number in [0, {MAX_MAGNITUDE:g}]; got {epsilon!r}")
    d = _check_delta(delta)
    p = _check_open_unit("prior", prior)
    if d == 0:
        return Odds(p, float(posterior_bound(eps, prior=p)), 0.0)
    return Odds(
        p,
        float(posterior_bound(eps + _LN2, prior=p)),
        float(posterior_bad_event_probability(d, slack=_LN2)),
    )


def _format_percent(x: float, *, up: bool) -> str:
    """A probability as a percentage that never reads 0 % or 100 % for 0 < x < 1.

    One decimal between 1 % and 99 %; below 1 %, two significant digits (0.01 %, not 0 %);
    above 99 %, two significant digits of the complement (99.99 %, not 100 %). ``up`` rounds
    toward the larger probability (a posterior or a TPR: toward privacy), else to nearest.
    """
    from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal

    if x <= 0.0 or x >= 1.0:
        return f"{round(100 * x):d} %"
    exact = Decimal(x) * 100  # exact: a float is a finite binary fraction
    if up:
        # a float's binary tail (0.01 is 0.0100000000000000002…) must not round 0.01 up to 0.011
        exact *= 1 - Decimal("1e-12")

    def digits(value: Decimal, rounding: str) -> Decimal:
        # two significant digits, at least one decimal
        place = Decimal(1).scaleb(min(value.adjusted() - 1, -1))
        return value.quantize(place, rounding=rounding)

    if exact < 1:
        shown = digits(exact, ROUND_CEILING if up else ROUND_HALF_EVEN)
    elif exact > 99:
        # the complement rounded the other way, so the sum rounds as asked
        shown = 100 - digits(100 - exact, ROUND_FLOOR if up else ROUND_HALF_EVEN)
    else:
        shown = exact.quantize(Decimal("0.1"), rounding=ROUND_CEILING if up else ROUND_HALF_EVEN)
    text = format(shown, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + " %"


def percent(x, *, up=False) -> str:
    """A probability as words' percentage: never 0 % or 100 % for 0 < x < 1.

    One decimal between 1 % and 99 %, two significant digits below 1 % (and of the
    complement above 99 %); ``up`` rounds toward the larger probability (a posterior: toward
    privacy). The figures and sentences of notebook 12 state probabilities with it.

    Not called in a notebook; used by ``helpers.release`` and ``helpers.plotting.release``.

    Parameters
    ----------
    x : float
        A probability in [0, 1].
    up : bool, keyword-only
        Round up (a bound's upper end) rather than to nearest.

    Returns
    -------
    str

    %(raises)s

    Examples
    --------
    >>> percent(0.0001), percent(0.999), percent(0.17375, up=True)
    ('0.01 %', '99.9 %', '17.4 %')
    """
    p = float(check_finite_scalar("x", x))
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"x must be a probability in [0, 1]; got {x!r}")
    return _format_percent(p, up=bool(up))


def _percent_up(x: float) -> str:
    """A probability as a percentage, rounded up (toward privacy); never 0 % or 100 % inside."""
    return _format_percent(x, up=True)


def _percent(x: float) -> str:
    """A probability as a percentage, rounded to nearest; never 0 % or 100 % inside (0, 1)."""
    return _format_percent(x, up=False)


def _in_people(x: float, size: int, *, up: bool) -> str:
    """x as "k in size" people; "fewer than 1 in size" / "more than size − 1 in size" at the
    ends, so a probability strictly inside (0, 1) never reads as none or all of them."""
    count = math.ceil(x * size - 1e-9) if up else round(x * size)
    if 0.0 < x * size < 1:
        return f"fewer than 1 in {size}"
    if x < 1.0 and (count >= size or x * size > size - 1):
        return f"more than {size - 1} in {size}"
    return f"{count} in {size}"


#: What an observer guesses about a person, by neighbour notion: with add-remove neighbours
#: whether the person is in the data; with change-one neighbours (n public) which of two
#: values the person's record holds (the test is between two values of one record).
_GUESS = {
    "add-remove": "that you are in the data",
    "change-one": "that your record holds one value rather than another",
}


def _check_neighbours(neighbours) -> str:
    if not isinstance(neighbours, str) or neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {NEIGHBOURS}; got {neighbours!r}")
    return neighbours


def odds_sentence(epsilon, delta=0.0, *, prior, people=100, neighbours="add-remove") -> str:
    """The odds reading in one sentence, with the same numbers as ``people`` icons.

    "An observer who thinks there is a 5 % chance that you are in the data (5 in 100 people
    like you) can, after seeing the release, think at most 17.4 % (18 in 100)." The posterior
    is rounded up, never down (:func:`odds`). A probability strictly between 0 and 1 never
    reads 0 % or 100 %: below 1 % it keeps two significant digits (0.01 %), above 99 % two
    of its complement (99.99 %), and its icons read "fewer than 1 in 100" or "more than 99
    in 100". With change-one neighbours (n public) the
    observer guesses which of two values your record holds, not whether you are in the data.

    Used in notebook 12.

    Parameters
    ----------
    epsilon, delta, prior
        As :func:`odds`.
    people : int, keyword-only
        The size of the icon array the numbers are stated for (100).
    neighbours : {"add-remove", "change-one"}, keyword-only
        What the observer guesses: whether you are in the data, or your record's value.

    Returns
    -------
    str

    %(raises)s

    Examples
    --------
    >>> odds_sentence(1.0, prior=0.5)[:60]
    'An observer who thinks there is a 50 % chance that you are i'
    """
    reading = odds(epsilon, delta, prior=prior)
    size = check_int_range("people", people, 10, 10_000)
    guess = _GUESS[_check_neighbours(neighbours)]
    before = _in_people(reading.prior, size, up=False)
    after = _in_people(reading.posterior, size, up=True)
    # the bound is below 1 for every prior below 1; only a float can round it to 1
    if reading.posterior < 1:
        most = f"think at most {_percent_up(reading.posterior)} ({after})"
    else:
        most = f"be all but certain (more than {size - 1} in {size})"
    sentence = (
        f"An observer who thinks there is a {_percent(reading.prior)} chance {guess} "
        f"({before} people like you) can, after seeing the release, {most}"
    )
    if reading.bad_event > 0:
        sentence += (
            f", except on rare outputs (a chance of at most {reading.bad_event:.2g}) where "
            "the bound may fail"
        )
    return sentence + "."


def attack_reading(epsilon, delta=0.0, *, fpr, rho=None) -> AttackReading:
    """The best test's true-positive rate between neighbours at a false-positive rate, and its advantage.

    From (ε, δ): the tight (ε, δ) trade-off curve (:func:`helpers.deployments.tpr_at_fpr`,
    Dong, Roth & Su 2022; Kairouz, Oh & Viswanath 2015). With ``rho`` (a zCDP release): the
    curve ρ_z-zCDP itself implies (:func:`helpers.deployments.zcdp_tpr`), which is tighter
    than the (ε, δ) conversion. The advantage is TPR − FPR.

    Used in notebook 12. (:func:`allocation_attack` reads the same test on the releases'
    own composed privacy-loss distribution, :func:`helpers.attack.attack_tpr`: never above
    this one.)

    Parameters
    ----------
    epsilon, delta
        The guarantee (δ in [0, 1)).
    fpr : float, keyword-only
        α in the open interval (0, 1) (:func:`helpers.attack.attack_tpr` also takes the
        trivial ends 0 and 1; a reading for people states a real error rate).
    rho : float, keyword-only
        ρ_z ≥ 0 of a zCDP release (then ``epsilon`` and ``delta`` are not read).

    Returns
    -------
    AttackReading

    %(raises)s

    References
    ----------
    Kairouz, Oh & Viswanath (2015), "The Composition Theorem for Differential Privacy",
    Theorem 2.1 (every test's error rates under (ε, δ)-DP); Dong, Roth & Su (2022),
    "Gaussian differential privacy", JRSS B 84(1) (the trade-off function f_{ε,δ}(α) =
    max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))); Bun & Steinke (2016), Definition 1.1, with
    Balle et al. (2020), Theorem 21, for the zCDP curve (:func:`helpers.deployments.zcdp_tpr`).

    Examples
    --------
    >>> round(attack_reading(1.0, fpr=0.01).tpr, 6)  # e·0.01
    0.027183
    """
    a = _check_open_unit("fpr", fpr)
    if rho is not None:
        r = check_finite_scalar("rho", rho)
        if not 0 <= r <= MAX_MAGNITUDE:
            raise ValueError(f"rho must be a number in [0, {MAX_MAGNITUDE:g}]; got {rho!r}")
        tpr = float(zcdp_tpr(r, a)) if r > 0 else a
    else:
        eps = check_finite_scalar("epsilon", epsilon)
        if not 0 <= eps <= MAX_MAGNITUDE:
            raise ValueError(f"epsilon must be a number in [0, {MAX_MAGNITUDE:g}]; got {epsilon!r}")
        tpr = float(tpr_at_fpr(a, epsilon=eps, delta=_check_delta(delta)))
    return AttackReading(a, tpr, max(tpr - a, 0.0))


def allocation_mechanisms(allocation) -> list:
    """The mechanism objects of an allocation's releases, each of the allocation's own class.

    What :mod:`helpers.attack` and :func:`helpers.budget.pld_delta` read: each release's
    noise at its scale and sensitivity, built from the allocation's mechanism through the
    registry (:data:`helpers.mechanisms.MECHANISM_CLASSES`, via
    :meth:`helpers.budget.NoiseFamily.of`): a geometric allocation gives
    :class:`helpers.mechanisms.TwoSidedGeometric` objects, never Laplace stand-ins (continuous
    noise of the same scale is *more* private than the integer noise, so it would understate
    an attack).

    Not called in a notebook; used by ``helpers.release``.

    Parameters
    ----------
    allocation : helpers.budget.Allocation

    Returns
    -------
    builtins.list
        One mechanism object per release.

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> allocation_mechanisms(budget_for_accuracy([Release("count", k=5.0)]))[0].sensitivity
    1.0
    >>> type(allocation_mechanisms(
    ...     budget_for_accuracy([Release("count", k=5.0)], mechanism="geometric"))[0]).__name__
    'TwoSidedGeometric'
    """
    allocation = _check_allocation(allocation)
    cls = NoiseFamily.of(allocation.mechanism).mechanism
    return [
        cls(float(scale), sensitivity=float(sensitivity))
        for scale, sensitivity in zip(allocation.scales, allocation.sensitivities, strict=True)
    ]


def allocation_attack(allocation, *, fpr, discretization=1e-4) -> AttackReading:
    """The best test between neighbours against all of an allocation's releases, on their own PLD.

    :func:`helpers.attack.attack_tpr` of :func:`allocation_mechanisms`: the releases'
    composed privacy-loss distribution (exact for Gaussian noise, pessimistic on a grid for
    several Laplace releases). Both it and :func:`attack_reading` of the allocation's total
    (ε, δ) are upper bounds on the best test, so the smaller is reported: usually the PLD's,
    well below (the summed ε's worst cases never happen together); at a tiny α the grid's
    pessimism can put it a hair above the (ε, δ) line. The releases are read with their own
    noise (:func:`allocation_mechanisms`: each release's own mechanism class, never a
    substitute noise), which :mod:`helpers.attack` reads for any registered class.

    Used in notebook 12.

    Parameters
    ----------
    allocation : helpers.budget.Allocation
    fpr : float, keyword-only
        α in the open interval (0, 1) (:func:`helpers.attack.attack_tpr` also takes the
        trivial ends 0 and 1; a reading for people states a real error rate).
    discretization : float, keyword-only
        The grid step of :func:`helpers.attack.attack_tpr`.

    Returns
    -------
    AttackReading

    %(raises)s

    References
    ----------
    Kulynych, Gomez, Kaissis, du Pin Calmon & Troncoso (2024), "Attack-Aware Noise
    Calibration for Differential Privacy", NeurIPS 2024, Algorithm 1 (the trade-off curve of a
    privacy-loss distribution); Dong, Roth & Su (2022), Proposition 2.12; Doroshenko, Ghazi,
    Kamath, Kumar & Manurangsi (2022), "Connect the Dots" (the pessimistic PLD); for the
    (ε, δ) line, :func:`attack_reading`.

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> a = budget_for_accuracy([Release("count", k=5.0)] * 3)
    >>> allocation_attack(a, fpr=0.1).tpr < attack_reading(a.epsilon, fpr=0.1).tpr
    True
    """
    allocation = _check_allocation(allocation)
    a = _check_open_unit("fpr", fpr)
    pld = float(attack_tpr(allocation_mechanisms(allocation), fpr=a, discretization=discretization))
    line = float(tpr_at_fpr(a, epsilon=float(allocation.epsilon), delta=float(allocation.delta)))
    tpr = min(pld, line)
    return AttackReading(a, tpr, max(tpr - a, 0.0))


def subject_paragraph(
    epsilon,
    delta=0.0,
    *,
    prior,
    unit="person",
    contributions=1,
    fpr=0.01,
    rho=None,
    neighbours="add-remove",
) -> str:
    """A short paragraph a person in the data can read, generated from the numbers.

    It says whose privacy the guarantee protects (the unit, and the bound on each person's
    records), the odds reading (:func:`odds_sentence`), the best attack's reading
    (:func:`attack_reading`) and what δ means, in plain words: the pattern of
    Nanayakkara et al. (2023), odds and frequencies rather than ε alone.

    Used in notebook 12.

    Parameters
    ----------
    epsilon, delta
        The per-person guarantee (δ in [0, 1)).
    prior : float, keyword-only
        The observer's prior p in (0, 1).
    unit : {"person", "record", "user"}, keyword-only
        Whose privacy ε is stated for.
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person.
    fpr : float, keyword-only
        The attack's false-positive rate α in (0, 1).
    rho : float, keyword-only
        ρ_z of a zCDP release, for the attack reading.
    neighbours : {"add-remove", "change-one"}, keyword-only
        What the observer and the test try to tell: whether you are in the data, or which of
        two values your record holds.

    Returns
    -------
    str

    %(raises)s

    Examples
    --------
    >>> subject_paragraph(1.0, prior=0.5).startswith("This release protects each person")
    True
    """
    if not isinstance(unit, str) or unit not in UNITS:
        raise ValueError(f"unit must be one of {tuple(UNITS)}; got {unit!r}")
    m = _check_contributions(contributions)
    neighbours = _check_neighbours(neighbours)
    sentence = odds_sentence(epsilon, delta, prior=prior, neighbours=neighbours)
    attack = attack_reading(epsilon, delta, fpr=fpr, rho=rho)
    d = _check_delta(delta)
    whom = {
        "person": "each person",
        "user": "each user",
        "record": "each record (a person with several records is protected less)",
    }[unit]
    kept = (
        f" No one's data counts more than {m} record{'s' if m > 1 else ''}: extra records are "
        "left out."
        if m > 1
        else ""
    )
    if neighbours == "add-remove":
        attack_text = (
            f" Someone trying to tell whether you took part, and willing to wrongly accuse "
            f"{_percent(attack.fpr)} of the people who did not, can correctly spot at most "
            f"{_percent_up(attack.tpr)} of those who did."
        )
    else:
        attack_text = (
            f" Someone trying to tell which of two values your record holds, and willing to be "
            f"wrong for {_percent(attack.fpr)} of the people whose record holds the second, can "
            f"be right for at most {_percent_up(attack.tpr)} of those whose record holds the "
            "first."
        )
    delta_text = (
        f" The guarantee may fail entirely, with a chance of at most {d:.2g}." if d > 0 else ""
    )
    return (
        f"This release protects {whom} with ε = {float(epsilon):.3g}.{kept} {sentence}"
        f"{attack_text}{delta_text}"
    )


# --- a record of the choice -------------------------------------------------------------------


def _release_entries(allocation: Allocation, workload) -> list:
    labels = [None] * len(allocation.budgets)
    kinds = [None] * len(allocation.budgets)
    if workload is not None:
        parsed = _parse(workload)
        if len(parsed.kinds) != len(allocation.budgets):
            raise ValueError(
                f"workload must have one release per budget of the allocation "
                f"({len(allocation.budgets)}); got {len(parsed.kinds)}"
            )
        labels, kinds = parsed.labels, parsed.kinds
    unit = NoiseFamily.of(allocation.mechanism).unit
    return [
        {
            "label": labels[i] if labels[i] is not None else f"release {i}",
            "kind": kinds[i],
            "mechanism": allocation.mechanism,
            "budget": float(allocation.budgets[i]),
            "budget_unit": "epsilon" if unit == "ε" else "rho",
            "scale": float(allocation.scales[i]),
            "sensitivity": float(allocation.sensitivities[i]),
        }
        for i in range(len(allocation.budgets))
    ]


def privacy_record(
    allocation,
    *,
    unit,
    neighbours,
    date,
    name,
    curators,
    workload=None,
    contributions=1,
    sector="Healthcare",
    model="Central",
    source_url="",
) -> dict:
    """The fields a registry entry needs for an allocation, as a JSON-able dict.

    The OpenDP Deployments Registry (2025) and Dwork, Kohli & Mulligan's "Expose your
    epsilons" (2019) ask a deployer to publish ε, δ (or ρ_z), the unit of privacy, the
    neighbour notion, each release's mechanism and budget, and the accounting. The record
    holds the registry's columns (:data:`REGISTRY_COLUMNS`, the ones
    :func:`helpers.deployments.load` reads: Laplace is "Pure DP" with ε = the total; Gaussian
    "Zero-concentrated DP" with ρ_z = the total and its (ε, δ) by
    :func:`helpers.deployments.zcdp_to_epsilon`) and the rest (:data:`RECORD_FIELDS`). The
    ``privacy_unit`` is checked to fall in a unit group the deployments reader recognises.

    Used in notebook 12.

    Parameters
    ----------
    allocation : helpers.budget.Allocation
        Its sensitivities are the unit's (:func:`per_person` for people with several records).
    unit : {"person", "record", "user"}, keyword-only
    neighbours : {"change-one", "add-remove"}, keyword-only
        The neighbour notion the guarantee is stated for; a release built by
        :func:`opendp_measurements` is checked at :data:`OPENDP_NEIGHBOURS` ("add-remove").
    date : str or datetime.date, keyword-only
        The date of the choice (ISO 8601).
    name, curators : str, keyword-only
    workload : sequence of Release, keyword-only
        The releases' labels and kinds (optional).
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person.
    sector, model, source_url : str, keyword-only

    Returns
    -------
    builtins.dict
        Keys :data:`RECORD_FIELDS`; values str, int, float or None, and ``release_list`` a
        list of dicts (label, kind, mechanism, budget, budget_unit, scale, sensitivity).

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> a = budget_for_accuracy([Release("count", k=5.0)])
    >>> r = privacy_record(a, unit="person", neighbours="change-one", date="2026-01-31",
    ...                    name="Clinic visits", curators="A clinic")
    >>> r["dp_variant"], r["privacy_unit"], r["accounting"]
    ('Pure DP', 'Person-level', 'basic composition of pure ε (the ε add up)')
    """
    allocation = _check_allocation(allocation)
    if not isinstance(unit, str) or unit not in UNITS:
        raise ValueError(f"unit must be one of {tuple(UNITS)}; got {unit!r}")
    if not isinstance(neighbours, str) or neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {NEIGHBOURS}; got {neighbours!r}")
    if isinstance(date, datetime.date):
        date = date.isoformat()
    if not isinstance(date, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise ValueError(f"date must be an ISO date (YYYY-MM-DD); got {date!r}")
    try:
        day = datetime.date.fromisoformat(date)
    except ValueError:
        raise ValueError(f"date must be an ISO date (YYYY-MM-DD); got {date!r}") from None
    for field, value in (
        ("name", name),
        ("curators", curators),
        ("sector", sector),
        ("model", model),
        ("source_url", source_url),
    ):
        if not isinstance(value, str) or (field != "source_url" and not value.strip()):
            raise ValueError(f"{field} must be a non-empty string; got {value!r}")
    m = _check_contributions(contributions)
    privacy_unit = UNITS[unit]
    if unit_group(privacy_unit) == "not stated":  # pragma: no cover (UNITS is fixed)
        raise AssertionError(privacy_unit)
    pure = NoiseFamily.of(allocation.mechanism).pure
    slug = re.sub(r"[^a-z0-9]+", "-", f"{name} {curators} {day.year}".lower()).strip("-")
    record = {
        "name": name,
        "curators": curators,
        "year": day.year,
        "sector": sector,
        "dp_variant": "Pure DP" if pure else "Zero-concentrated DP",
        "privacy_unit": privacy_unit,
        "model": model,
        "releases": "One release" if len(allocation.budgets) == 1 else "Many releases",
        "epsilon": float(allocation.epsilon),
        "delta": None if pure else float(allocation.delta),
        "rho": None if pure else float(allocation.total),
        "registry_slug": slug,
        "source_url": source_url,
        "unit": unit,
        "contributions": m,
        "neighbours": neighbours,
        "accounting": (
            "basic composition of pure ε (the ε add up)"
            if pure
            else "zCDP (the ρ_z add up), converted to (ε, δ) by Canonne, Kamath & Steinke (2020)"
        ),
        "date": date,
        "release_list": _release_entries(allocation, workload),
    }
    json.dumps(record)  # JSON-able by construction; this raises if a field is not
    return record


def registry_table(records) -> pd.DataFrame:
    """Records read back through notebook 09's reader: :func:`helpers.deployments.load`.

    The records' registry columns are written as the course's CSV is, then loaded, so each
    gets the reader's ``status``, ``unit_group``, ``epsilon_used`` and ``delta_used``: a
    record is well-formed when its status is "usable".

    Used in notebook 12.

    Parameters
    ----------
    records : dict or sequence of dict
        From :func:`privacy_record` (or a JSON round trip of one).

    Returns
    -------
    pandas.DataFrame
        :func:`helpers.deployments.load`'s table, one row per record.

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> a = budget_for_accuracy([Release("count", k=5.0)])
    >>> r = privacy_record(a, unit="person", neighbours="change-one", date="2026-01-31",
    ...                    name="Clinic visits", curators="A clinic")
    >>> registry_table(r)["status"].tolist()
    ['usable']
    """
    if isinstance(records, Mapping):
        records = [records]
    if isinstance(records, (str, bytes)) or not isinstance(records, (list, tuple)) or not records:
        raise ValueError(
            f"records must be a record (dict) or a non-empty list of them; got {records!r:.80}"
        )
    for i, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise ValueError(f"records[{i}] must be a dict from privacy_record; got {record!r:.80}")
        missing = [c for c in REGISTRY_COLUMNS if c not in record]
        if missing:
            raise ValueError(
                f"records[{i}] must hold the registry columns; {missing[0]!r} is missing"
            )
    frame = pd.DataFrame([{c: record[c] for c in REGISTRY_COLUMNS} for record in records])
    text = frame.to_csv(
        index=False, float_format=lambda x: repr(float(x))
    )  # every digit: no ρ or ε rounded down
    return load(io.StringIO(text))


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
    parsed = _parse(workload)
    size = len(allocation.budgets)
    if len(parsed.kinds) != size:
        raise ValueError(
            f"workload must have one release per budget of the allocation ({size}); got "
            f"{len(parsed.kinds)}"
        )
    columns = _columns(_rows(workload))
    record_delta = _parse(
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


_SECTIONS: dict[str, str] = {}

fill_docstrings(globals(), _SECTIONS)
