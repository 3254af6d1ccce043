"""Composition: the total guarantee of k releases.

Pure ε (:func:`compose_epsilon`), zCDP (:func:`compose_rho`, :func:`zcdp_composition`), the
advanced composition theorem of Dwork, Rothblum & Vadhan (:func:`advanced_composition`) and
the optimal homogeneous composition of Kairouz, Oh & Viswanath
(:func:`optimal_composition_delta`, :func:`optimal_composition_epsilon`).

Part of :mod:`helpers.budget`, which re-exports its public names; its docstring states the
rounding toward privacy every number here keeps.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy.special import gammaln, logsumexp

from .._docstrings import fill_docstrings
from .._numerics import product_minus, sum_up
from .._validation import (
    as_output,
    check_finite_scalar,
    check_nonnegative,
    check_positive,
)
from ._common import (
    _MAX_KOV_CELLS,
    _SECTIONS,
    _ULP,
    Guarantee,
    _check_budget_list,
    _check_delta,
    _check_open_delta,
    _check_times,
    _up,
)
from .families import _GAUSSIAN

__all__ = [
    "advanced_composition",
    "compose_epsilon",
    "compose_rho",
    "optimal_composition_delta",
    "optimal_composition_epsilon",
    "zcdp_composition",
]


# --- composition --------------------------------------------------------------------------


def compose_epsilon(epsilons) -> float:
    """Total ε of pure-DP releases run on the same data: Σ ε_i, never below the exact sum.

    Sequential composition: mechanisms that are ε_i-DP, run in sequence (even adaptively),
    are (Σ ε_i)-DP. The sum is ``math.fsum`` (exactly rounded) moved up one double unless it
    was exact. :func:`helpers.foundations.sequential_composition_epsilon` is the same sum,
    rounded to nearest.

    Used in notebook 11.

    Parameters
    ----------
    epsilons : array_like
        The ε_i ≥ 0 of the releases (1-D, non-empty).

    Returns
    -------
    float
        The total ε.

    Raises
    ------
    ValueError
        If ``epsilons`` is empty, not 1-D, or holds a negative, NaN or infinite value.

    References
    ----------
    Dwork, McSherry, Nissim & Smith (2006); Dwork & Roth (2014), Theorem 3.16.

    Examples
    --------
    >>> compose_epsilon([0.5, 0.25, 0.25])
    1.0
    >>> compose_epsilon([0.1, 0.2])  # the doubles' exact sum lies just above the double 0.3
    0.30000000000000004
    """
    return sum_up(_check_budget_list("epsilons", epsilons))


def compose_rho(rhos) -> float:
    """Total ρ_z of zCDP releases: Σ ρ_z,i (Bun & Steinke 2016), never below the exact sum.

    A Gaussian release of sensitivity Δ and standard deviation σ is (Δ²/(2σ²))-zCDP, and
    zCDP composes by adding ρ_z.

    Used in notebook 11.

    Parameters
    ----------
    rhos : array_like
        The ρ_z,i ≥ 0 (1-D, non-empty).

    Returns
    -------
    float
        The total ρ_z.

    Raises
    ------
    ValueError
        If ``rhos`` is empty, not 1-D, or holds a negative, NaN or infinite value.

    References
    ----------
    Bun & Steinke, "Concentrated differential privacy: simplifications, extensions, and lower
    bounds" (TCC 2016), Proposition 1.6 (the Gaussian mechanism) and Lemma 1.7
    (composition).

    Examples
    --------
    >>> compose_rho([0.125, 0.5])
    0.625
    """
    return sum_up(_check_budget_list("rhos", rhos))


def zcdp_composition(rhos, *, delta) -> Guarantee:
    """The (ε, δ) guarantee of zCDP releases: Σ ρ_z,i, then the tight CKS conversion at δ.

    ε is :func:`helpers.deployments.zcdp_to_epsilon` (Canonne, Kamath & Steinke 2020,
    Corollary 13, the conversion OpenDP's ``make_zCDP_to_approxDP`` implements) of
    :func:`compose_rho`, raised by 16 units in the last place to cover the rounding of that
    formula's evaluation.

    Not called in a notebook; used by ``helpers.plotting.budget``.

    Parameters
    ----------
    rhos : array_like
        The ρ_z,i ≥ 0 of the releases (1-D, non-empty); the total must be ≤ 1e8.
    delta : float, keyword-only
        δ in (0, 1).

    Returns
    -------
    Guarantee
        (epsilon, delta) as Python floats.

    Raises
    ------
    ValueError
        If a ρ_z is negative or not finite, the total exceeds 1e8, or δ is not in (0, 1).

    References
    ----------
    Bun & Steinke (2016), Lemma 1.7; Canonne, Kamath & Steinke, "The discrete Gaussian for
    differential privacy" (NeurIPS 2020), Corollary 13.

    Examples
    --------
    >>> guarantee = zcdp_composition([1.28, 1.28], delta=1e-10)  # the Census person tables
    >>> round(guarantee.epsilon, 4), guarantee.delta
    (17.1583, 1e-10)
    """
    total = compose_rho(rhos)
    d = _check_open_delta(delta)
    if total > 1e8:
        raise ValueError(f"rhos must add up to at most 1e8; got a total of {total:g}")
    return Guarantee(_GAUSSIAN.epsilon(total, d), d)


def advanced_composition(epsilon, delta=0.0, *, times, delta_slack) -> Guarantee:
    """The advanced composition theorem: k-fold (ε, δ)-DP is (ε', kδ + δ')-DP.

    ε' = ε·√(2k·ln(1/δ')) + k·ε·(e^ε − 1), for every δ' > 0 (Dwork, Rothblum & Vadhan 2010).
    Valid under adaptive composition. Both outputs are raised by 16 units in the last place
    (the rounding of the few operations that make them). Compare :func:`optimal_composition_epsilon`
    (never larger, at the same total δ) and the basic kε.

    Used in notebook 11.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0 of each release.
    delta : float, optional
        δ in [0, 1) of each release (0 for pure DP).
    times : int, keyword-only
        k, the number of releases (1 to :data:`MAX_TIMES`).
    delta_slack : float, keyword-only
        δ' in (0, 1), the extra δ that buys the √k growth.

    Returns
    -------
    Guarantee
        (epsilon, delta): ε' (a float, or an array shaped like ``epsilon``) and kδ + δ'.

    %(raises)s

    References
    ----------
    Dwork, Rothblum & Vadhan, "Boosting and differential privacy" (FOCS 2010), Theorem III.3;
    Dwork & Roth (2014), Theorem 3.20.

    Examples
    --------
    >>> g = advanced_composition(0.1, times=100, delta_slack=1e-6)
    >>> round(g.epsilon, 4), g.delta  # below the basic 100 × 0.1 = 10
    (6.3082, 1e-06)
    """
    eps = check_positive("epsilon", epsilon)
    if np.any(eps > 700):
        raise ValueError(f"epsilon must be ≤ 700 (e^ε must be finite); got {epsilon!r}")
    d = _check_delta(delta)
    k = _check_times(times)
    slack = _check_open_delta(delta_slack, "delta_slack")
    with np.errstate(over="ignore"):
        eps_total = eps * math.sqrt(2 * k * -math.log(slack)) + k * eps * np.expm1(eps)
    delta_total = float(_up(k * d + slack, 16)) if d > 0 else slack
    return Guarantee(as_output(_up(eps_total, 16)), min(delta_total, 1.0))


class _KovTerms(NamedTuple):
    """ln of the terms C(k, ℓ)·e^{(k−ℓ)ε}/(1 + e^ε)^k and the losses (k − 2ℓ)ε, ℓ = 0..k."""

    log_mass: np.ndarray
    counts: np.ndarray  # k − 2ℓ: the loss of term ℓ is counts·ε exactly (never rounded)
    epsilon: float
    margin: float  # ln of the factor that covers the rounding of log_mass and of 1 − e^gap


def _kov_terms(eps: float, k: int) -> _KovTerms:
    ell = np.arange(k + 1, dtype=float)
    log_norm = k * np.logaddexp(0.0, eps)
    log_binom = gammaln(k + 1.0) - gammaln(ell + 1.0) - gammaln(k - ell + 1.0)
    log_mass = log_binom + (k - ell) * eps - log_norm
    # each term is a sum of five numbers of magnitude at most 3·gammaln(k+1) + 2kε + ln(2)k;
    # gammaln, the products and the sums each err by a few ulps of that magnitude
    magnitude = 3 * float(gammaln(k + 1.0)) + 3 * k * (eps + 1.0) + 1.0
    # + 16 ulps for 1 − e^gap: gap (below) has a relative error of a few ulps, and
    # −expm1(gap) a relative error of about |gap|·(that) + 1 ulp ≤ (1 + |gap|)·ulps; ln(1 − e^gap)
    # turns it into ≤ (1 + |gap|)/(1 − e^{−|gap|}) ulps ≈ 2 + |gap| ulps, |gap| ≤ 2kε + ε_total
    return _KovTerms(log_mass, k - 2 * ell, eps, 64 * 2.0**-53 * magnitude + 16 * _ULP)


def _kov_log_delta_rr(terms: _KovTerms, eps_total: float) -> float:
    """ln δ of the k-fold dominating (ε, 0) mechanism at ε_total (−inf where it is 0)."""
    # gap = ε_total − (k − 2ℓ)ε with its sign exact and a few ulps of relative error
    # (Dekker's product): fl((k − 2ℓ)ε) rounded to nearest decided the ties and lost the digits
    # of a gap near 0 (δ was 33 % low at ε_total = (k − 2i)ε typed as a product)
    gap = -product_minus(terms.counts, terms.epsilon, eps_total)
    active = gap < 0  # exactly the terms that count
    if not np.any(active):
        return -math.inf
    gap = gap[active] * (1 + 8 * _ULP)  # more negative: 1 − e^gap rounded up
    with np.errstate(divide="ignore"):
        logs = terms.log_mass[active] + np.log(-np.expm1(gap))
    extra = float(np.max(np.abs(gap))) * 8 * _ULP  # the |gap| term of the margin above
    return float(logsumexp(logs)) + terms.margin + extra


def _kov_delta(terms: _KovTerms, eps_total: float, k: int, delta: float) -> float:
    """δ_total = 1 − (1 − δ)^k·(1 − δ_RR), rounded up."""
    log_rr = _kov_log_delta_rr(terms, eps_total)
    rr = min(math.exp(log_rr), 1.0)
    keep = k * math.log1p(-delta) + math.log1p(-rr) if rr < 1 else -math.inf
    return min(float(_up(-math.expm1(keep), 16)), 1.0)


def _check_kov(epsilon, delta, times) -> tuple[float, float, int]:
    eps = float(
        check_positive(
            "epsilon",
            check_finite_scalar("epsilon", epsilon, rule="be > 0 and ≤ 700 (e^ε must be finite)"),
        )
    )
    if eps > 700:
        raise ValueError(f"epsilon must be ≤ 700 (e^ε must be finite); got {epsilon!r}")
    return eps, _check_delta(delta), _check_times(times)


def optimal_composition_delta(epsilon_total, *, epsilon, delta=0.0, times):
    """The smallest δ_total with which k-fold (ε, δ)-DP is (ε_total, δ_total)-DP (KOV).

    Kairouz, Oh & Viswanath's Theorem 3.3: the k-fold adaptive composition of (ε, δ)-DP
    mechanisms is ((k − 2i)ε, 1 − (1 − δ)^k(1 − δ_i))-DP with

        δ_i = Σ_{ℓ=0}^{i−1} C(k, ℓ)·(e^{(k−ℓ)ε} − e^{(k−2i+ℓ)ε}) / (1 + e^ε)^k,

    and no smaller δ holds for every mechanism: the bound is attained by the k-fold
    composition of randomised response with ε (plus a δ chance of revealing the input). At an
    ε_total between those grid points the optimal δ is the same mechanism's hockey-stick
    divergence (Murtagh & Vadhan 2016 state it for every ε_total):

        δ_RR(ε_total) = Σ_ℓ C(k, ℓ)·max(0, e^{(k−ℓ)ε} − e^{ε_total + ℓε}) / (1 + e^ε)^k,
        δ_total = 1 − (1 − δ)^k·(1 − δ_RR),

    which at ε_total = (k − 2i)ε is δ_i. Computed in log space (``gammaln`` for the binomial
    coefficients, ``logsumexp`` for the sum); the sum is raised by a margin that covers the
    rounding of its logarithm and the result by 16 ulps, so it is never below the exact value.
    It is ≥ the exact composition of any particular ε-DP mechanism (Laplace: see
    :func:`pld_delta`) and ≤ what :func:`advanced_composition` implies.

    Used in notebook 11.

    Parameters
    ----------
    epsilon_total : float or array_like
        ε_total ≥ 0 at which to read δ (an array gives an array).
    epsilon : float, keyword-only
        ε > 0 (at most 700) of each release.
    delta : float, keyword-only
        δ in [0, 1) of each release.
    times : int, keyword-only
        k, the number of releases (1 to :data:`MAX_TIMES`).

    Returns
    -------
    float or numpy.ndarray
        δ_total in [0, 1], a Python float for a scalar ``epsilon_total``.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it), or
        (ε_total values) × (k + 1) exceeds 5·10⁷ terms.

    References
    ----------
    Kairouz, Oh & Viswanath, "The composition theorem for differential privacy" (ICML 2015;
    IEEE Trans. Inf. Theory 2017), Theorem 3.3; Murtagh & Vadhan, "The complexity of computing
    the optimal composition of differential privacy" (TCC 2016).

    Examples
    --------
    >>> round(optimal_composition_delta(0.0, epsilon=4.0, times=1), 6)  # (e⁴ − 1)/(e⁴ + 1)
    0.964028
    >>> optimal_composition_delta(10.0, epsilon=1.0, times=10)  # kε: δ_RR = 0
    0.0
    """
    eps, d, k = _check_kov(epsilon, delta, times)
    totals = check_nonnegative("epsilon_total", epsilon_total)
    if totals.size * (k + 1) > _MAX_KOV_CELLS:
        raise ValueError(
            f"epsilon_total and times ask for {totals.size:,} × {k + 1:,} terms; at most "
            f"{_MAX_KOV_CELLS:,} are computed in one call"
        )
    terms = _kov_terms(eps, k)
    out = np.array([_kov_delta(terms, float(t), k, d) for t in totals.ravel()])
    return as_output(out.reshape(totals.shape))


def optimal_composition_epsilon(delta_total, *, epsilon, delta=0.0, times) -> float:
    """The smallest ε_total with which k-fold (ε, δ)-DP is (ε_total, δ_total)-DP (KOV, inverted).

    :func:`optimal_composition_delta` decreases in ε_total, from its value at 0 to
    1 − (1 − δ)^k at kε. The answer is found by bisection on [0, kε] and is the upper end
    of the final bracket, where the (pessimistic) δ is ≤ ``delta_total``: never below the
    exact answer. 0 if ``delta_total`` is already met at ε_total = 0; ``inf`` if it is below
    1 − (1 − δ)^k (no ε_total reaches it: each release may fail outright with probability δ).

    Used in notebook 11.

    Parameters
    ----------
    delta_total : float
        The target δ_total in (0, 1).
    epsilon : float, keyword-only
        ε > 0 (at most 700) of each release.
    delta : float, keyword-only
        δ in [0, 1) of each release.
    times : int, keyword-only
        k, the number of releases (1 to :data:`MAX_TIMES`).

    Returns
    -------
    float
        ε_total.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN, an array, or of the wrong type.

    References
    ----------
    Kairouz, Oh & Viswanath (2015/2017), Theorem 3.3.

    Examples
    --------
    >>> round(optimal_composition_epsilon(1e-6, epsilon=0.1, times=100), 4)  # advanced: 6.3082
    4.7746
    """
    target = _check_open_delta(delta_total, "delta_total")
    eps, d, k = _check_kov(epsilon, delta, times)
    terms = _kov_terms(eps, k)
    high = k * eps
    if _kov_delta(terms, high, k, d) > target:
        return math.inf
    if _kov_delta(terms, 0.0, k, d) <= target:
        return 0.0
    low = 0.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        if mid <= low or mid >= high:
            break
        if _kov_delta(terms, mid, k, d) <= target:
            high = mid
        else:
            low = mid
    return high


fill_docstrings(globals(), _SECTIONS)
