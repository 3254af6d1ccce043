"""The privacy loss random variable (PLRV) and what δ means (notebook 08).

Notation (Desfontaines, "The privacy loss random variable", 2020; Dwork & Roth §3.5):

* Two neighbouring databases D₁ and D₂ and a mechanism A. The **privacy loss** of an
  output O is

      L(O) = ln( P[A(D₁) = O] / P[A(D₂) = O] )

  (densities for continuous outputs). It is the log of the factor by which seeing O
  multiplies the attacker's betting odds for D₁ against D₂: posterior odds = prior odds · e^L.
  It is a *random variable* because O is drawn from A(D₁), the "real" database. Outputs
  with P[A(D₂) = O] = 0 < P[A(D₁) = O] are *distinguishing events*: L = +∞.
* Additive-noise mechanisms here release f(D) + noise with f(D₂) = f(D₁) + Δ (Δ the
  sensitivity). Noise: Laplace of scale b, Gaussian of standard deviation σ, and the
  two-sided geometric ("discrete Laplace") with P[Z = z] ∝ e^{-|z|/b} on the integers.
* δ two ways at a chosen ε:

      δ₁(ε) = P[L > ε]                          (the "naive" δ: how often L exceeds ε)
      δ₂(ε) = E[max(0, 1 − e^{ε − L})]          (the tight δ: the hockey-stick divergence)
            = Σ_O max(0, P[A(D₁)=O] − e^ε P[A(D₂)=O])

  δ₂ ≤ δ₁ always, with equality when every bad event is a distinguishing event. The map
  ε ↦ δ₂(ε) is the mechanism's *privacy profile*: the smallest δ for which A is (ε, δ)-DP
  on this pair (for the symmetric mechanisms here, on every neighbouring pair).

Closed forms (μ = Δ²/(2σ²) for the Gaussian):

* Gaussian: L = μ − Δ·(O − f(D₁))/σ², so L ~ N(μ, 2μ) and, with a = Δ/(2σ) − εσ/Δ,
  b = −Δ/(2σ) − εσ/Δ:  δ₁ = Φ(a),  δ₂ = Φ(a) − e^ε Φ(b)  (Balle & Wang 2018, Theorem 8).
* Laplace: L = (|O − f(D₁) − Δ| − |O − f(D₁)|)/b lies in [−Δ/b, Δ/b]; with
  c = e^{(ε − Δ/b)/2}:  δ₂ = 1 − c  and  δ₁ = 1 − c/2  for 0 ≤ ε < Δ/b, both 0 for ε ≥ Δ/b.
  (Derivation: L = Δ/b with probability ½ (O ≤ f(D₁)); on f(D₁) < O < f(D₁)+Δ it falls
  linearly; integrating max(0, 1 − e^{ε−L}) over those outputs gives ½(1 − c²) + ½(1 − c)².)

Everything is numpy-vectorised over ε and over outputs; inputs are validated and bad
input raises ``ValueError`` naming the parameter, the value and the allowed range.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq
from scipy.special import erf, erfcx, log_ndtr, ndtr, ndtri

from ._numerics import nudge_until, product_at_least, product_minus
from ._validation import (
    as_output,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
    check_real_or_inf,
)
from .mechanisms import (
    gaussian_cdf,
    gaussian_sf,
    geometric_cdf,
    geometric_pmf,
    geometric_sf,
    laplace_cdf,
    laplace_scale,
    laplace_sf,
)

__all__ = [
    "MECHANISMS",
    "POST_COUNT",
    "POST_EPSILON",
    "POST_GAUSSIAN_SIGMA",
    "POST_LAPLACE_SCALE",
    "discretise_mechanism",
    "gaussian_delta",
    "gaussian_delta_naive",
    "gaussian_plrv_mean",
    "gaussian_privacy_loss",
    "gaussian_sigma_for_delta",
    "geometric_delta",
    "geometric_delta_naive",
    "geometric_plrv_pmf",
    "geometric_privacy_loss",
    "laplace_delta",
    "laplace_delta_naive",
    "laplace_loss_bound",
    "laplace_privacy_loss",
    "plrv_upper_quantile",
    "pmf_delta",
    "pmf_delta_naive",
    "pmf_privacy_loss",
    "pmf_upper_quantile",
    "posterior_probability",
    "privacy_loss",
    "privacy_profile",
    "thresholding_pmfs",
]

MECHANISMS = ("laplace", "gaussian", "geometric")

# The post's example: counts 1000 (D₁, the truth) vs 1001 (D₂), Laplace scale 1/ln 3,
# Gaussian variance 3, and ε = ln 3 for the Gaussian's δ. The scale is laplace_scale(ln 3):
# 1/ln 3 rounded up, the smallest double b with 1/b ≤ ln 3 exactly (1/math.log(3), rounded
# to nearest, is a mechanism with ε a hair above ln 3, whose δ at ε = ln 3 is not 0).
POST_COUNT = 1000.0
POST_EPSILON = math.log(3)
POST_LAPLACE_SCALE = laplace_scale(POST_EPSILON)
POST_GAUSSIAN_SIGMA = math.sqrt(3)
"""Mechanism names accepted by the dispatchers (noise parameter: b, σ, b respectively)."""

# refuse (ε grid) × (outcomes) products above this many cells instead of eating the RAM
_MAX_CELLS = 50_000_000
_SQRT2 = math.sqrt(2.0)
# most bins (or integer outputs) discretise_mechanism will build
_MAX_BINS = 5_000_000
# how far a pmf's total may drift from 1 (float sums of CDF differences are this exact)
PMF_ATOL = 1e-9


def _check_mechanism(mechanism: str) -> str:
    if not isinstance(mechanism, str) or mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {MECHANISMS}; got {mechanism!r}")
    return mechanism


def _check_integer_sensitivity(sensitivity) -> int:
    value = check_finite_scalar("sensitivity", sensitivity)
    if value <= 0 or value != round(value) or value > 10**6:
        raise ValueError(
            "sensitivity must be a positive integer up to 10**6 for the geometric "
            f"mechanism (it lives on the integers); got {sensitivity!r}"
        )
    return round(value)


# --- privacy loss of one output --------------------------------------------------------


def _additive_loss(o: np.ndarray, loc: np.ndarray, d, b: np.ndarray) -> np.ndarray:
    """(|x − Δ| − |x|)/b with x = o − loc: L of additive noise whose log density is −|z|/b.

    Computed as the clipped line it is, ((Δ − c) − c)/b with c = clip(x, 0, Δ): exactly ±Δ/b
    outside [0, Δ], where |x − Δ| − |x| lost Δ for |x| beyond 2⁵³·Δ (L(0) at loc = 2⁵³ was 0,
    not Δ/b) and was inf − inf = NaN where o − loc overflowed (o, loc near ±1e308); an
    overflowed x (±inf) clips to the right end. Inside [0, Δ] it is the same float as before.
    """
    with np.errstate(over="ignore"):  # a tiny b: ±inf, the correctly rounded loss
        inside = np.clip(o - loc, 0.0, d)
        return ((d - inside) - inside) / b


def laplace_privacy_loss(o, scale, *, sensitivity=1.0, loc=0.0):
    """L(o) = (|o − loc − Δ| − |o − loc|)/b: A(D₁) = loc + Lap(b), A(D₂) = loc + Δ + Lap(b).

    In the post, loc = 1000, Δ = 1, b = 1/ln 3: L(999) = ln 3, L(1000.5) = 0, L(1003) = −ln 3.

    Parameters
    ----------
    o : float or array_like
        Outputs of the mechanism.
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).
    loc : float, keyword-only
        f(D₁); A(D₂) is centred at loc + Δ.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(laplace_privacy_loss(0.3, 1.0, sensitivity=1.0, loc=0.0), 6)
    0.4
    """
    o = check_real("o", o)
    b = check_positive("scale", scale)
    d = check_positive("sensitivity", sensitivity)
    loc = check_real("loc", loc)
    return as_output(_additive_loss(o, loc, d, b))


def gaussian_privacy_loss(o, sigma, *, sensitivity=1.0, loc=0.0):
    """L(o) = μ − Δ(o − loc)/σ², μ = Δ²/(2σ²): Gaussian noise around loc vs loc + Δ.

    Parameters
    ----------
    o : float or array_like
        Outputs of the mechanism.
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).
    loc : float, keyword-only
        f(D₁); A(D₂) is centred at loc + Δ.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Balle & Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.

    Examples
    --------
    >>> round(gaussian_privacy_loss(0.3, 1.0, sensitivity=1.0, loc=0.0), 6)
    0.2
    """
    o = check_real("o", o)
    s = check_positive("sigma", sigma)
    d = check_positive("sensitivity", sensitivity)
    loc = check_real("loc", loc)
    # Δ(Δ/2 − (o − loc))/σ²: one quotient, so a tiny σ gives ±inf, not inf − inf
    with np.errstate(over="ignore", invalid="ignore"):
        num = d * (0.5 * d - (o - loc))
        loss = np.where(num == 0, 0.0, num / s / s)
        overflowed = ~np.isfinite(num)
        if np.any(overflowed):
            # o − loc or the numerator beyond the largest double while the loss itself may
            # be finite (σ large): 2Δ·g/σ² from g = (Δ/2 − (o − loc))/2, which cannot
            # overflow (halving doubles that large is exact), as mantissas times a power of 2
            half_gap = 0.25 * d - (0.5 * o - 0.5 * loc)
            (md, ed), (mg, eg), (ms, es) = np.frexp(d), np.frexp(half_gap), np.frexp(s)
            big = np.ldexp(2 * md * mg / (ms * ms), ed + eg - 2 * es)
            loss = np.where(overflowed, big, loss)
    return as_output(loss)


def geometric_privacy_loss(k, scale, *, sensitivity=1, loc=0):
    """L(k) = (|k − loc − Δ| − |k − loc|)/b for two-sided geometric noise P[Z=z] ∝ e^{−|z|/b}.

    Parameters
    ----------
    k : int or array_like
        Integer outputs of the geometric mechanism.
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).
    loc : float, keyword-only
        f(D₁); A(D₂) is centred at loc + Δ.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(geometric_privacy_loss(2, 1.0, sensitivity=1, loc=0), 6)
    -1.0
    """
    k = check_real("k", k)
    if np.any(k != np.round(k)):
        raise ValueError(f"k must hold integers (the geometric mechanism lives on ℤ); got {k!r}")
    b = check_positive("scale", scale)
    d = _check_integer_sensitivity(sensitivity)
    loc = check_real("loc", loc)
    return as_output(_additive_loss(k, loc, float(d), b))


def privacy_loss(o, mechanism: str, noise, *, sensitivity=1.0, loc=0.0):
    """L(o) for a named mechanism: the dispatcher behind the figures.

    Parameters
    ----------
    o : float or array_like
        Outputs (integers for ``"geometric"``).
    mechanism : {"laplace", "gaussian", "geometric"}
    noise : float
        b (laplace, geometric) or σ (gaussian).
    sensitivity, loc : float, keyword-only
        Δ and f(D₁); A(D₂) is centred at loc + Δ.

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        For an unknown mechanism (never a KeyError) or a bad parameter.

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020).

    Examples
    --------
    >>> privacy_loss(999.0, "laplace", 1.0, loc=1000.0)
    1.0
    """
    _check_mechanism(mechanism)
    loss = {
        "laplace": laplace_privacy_loss,
        "gaussian": gaussian_privacy_loss,
        "geometric": geometric_privacy_loss,
    }[mechanism]
    return as_output(loss(o, noise, sensitivity=sensitivity, loc=loc))


def gaussian_plrv_mean(sigma, *, sensitivity=1.0):
    """μ = Δ²/(2σ²): the Gaussian PLRV is N(μ, 2μ) (mean μ, variance 2μ = Δ²/σ²).

    Parameters
    ----------
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Balle & Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.

    Examples
    --------
    >>> round(gaussian_plrv_mean(1.0, sensitivity=1.0), 6)
    0.5
    """
    s = check_positive("sigma", sigma)
    d = check_positive("sensitivity", sensitivity)
    return as_output(d * d / (2 * s * s))


def laplace_loss_bound(scale, *, sensitivity=1.0):
    """Δ/b: the largest value the Laplace (or geometric) PLRV takes, i.e. its ε.

    Rounded up (the ε of a mechanism is never reported below its true value): the smallest
    double ≥ Δ/b, so that δ(ε) = 0 exactly from this ε on.

    Parameters
    ----------
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(laplace_loss_bound(1.0, sensitivity=1.0), 6)
    1.0
    """
    d = check_positive("sensitivity", sensitivity)
    b = check_positive("scale", scale)
    with np.errstate(over="ignore", under="ignore"):
        bound = np.asarray(d / b)
    # the quotient rounded to nearest may sit below Δ/b: then the next double up
    finite = ~np.isinf(bound)
    below = finite & ~product_at_least(np.where(finite, bound, 1.0), b, d)
    return as_output(np.where(below, np.nextafter(bound, np.inf), bound))


# --- pmfs on a common grid -------------------------------------------------------------


def _check_pmfs(p, q, atol: float = PMF_ATOL) -> tuple[np.ndarray, np.ndarray]:
    atol = check_finite_scalar("atol", atol)  # a list or a string was a TypeError
    if not 0 <= atol < 1:
        raise ValueError(
            f"atol (how far a pmf's total may drift from 1) must lie in [0, 1); got {atol!r}"
        )
    p = check_nonnegative("p", p)
    q = check_nonnegative("q", q)
    if p.ndim != 1 or q.ndim != 1 or p.shape != q.shape or p.size == 0:
        raise ValueError(
            "p and q must be non-empty 1-D arrays on the same grid; "
            f"got shapes {p.shape} and {q.shape}"
        )
    for name, pmf in (("p", p), ("q", q)):
        total = float(pmf.sum())
        if abs(total - 1.0) > atol:
            raise ValueError(f"{name} must sum to 1 (within {atol:g}); got a total of {total!r}")
    return p, q


def pmf_privacy_loss(p, q, atol: float = PMF_ATOL):
    """L on a common grid: ln(p/q), +∞ where q = 0 < p (distinguishing events).

    p is the pmf of A(D₁), q that of A(D₂). Where p = 0 the outcome never happens under
    D₁ and carries no weight; L is set to −∞ there (never NaN).

    Parameters
    ----------
    p : array_like
        pmf of A(D₁) (1-D, non-negative, summing to 1 within ``atol``).
    q : array_like
        pmf of A(D₂) on the same grid as ``p``.
    atol : float
        How far a pmf's total may drift from 1.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> np.round(pmf_privacy_loss([0.5, 0.5], [0.25, 0.75]), 6).tolist()
    [0.693147, -0.405465]
    """
    p, q = _check_pmfs(p, q, atol)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(p) - np.log(q)
    return as_output(np.where(p > 0, np.where(q > 0, ratio, np.inf), -np.inf))


def _epsilon_grid(epsilon, n_outcomes: int) -> np.ndarray:
    eps = check_nonnegative("epsilon", epsilon)
    if eps.size * n_outcomes > _MAX_CELLS:
        raise ValueError(
            f"epsilon grid × outcomes = {eps.size} × {n_outcomes} = {eps.size * n_outcomes} "
            f"cells; at most {_MAX_CELLS} are allowed (use fewer ε values or a coarser grid)"
        )
    return eps


def pmf_delta(epsilon, p, q, atol: float = PMF_ATOL):
    """Tight δ₂(ε) = Σ max(0, p − e^ε q) = E_{O~p}[max(0, 1 − e^{ε−L})], vectorised over ε.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    p : array_like
        pmf of A(D₁) (1-D, non-negative, summing to 1 within ``atol``).
    q : array_like
        pmf of A(D₂) on the same grid as ``p``.
    atol : float
        How far a pmf's total may drift from 1.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(pmf_delta(0.5, [0.5, 0.5], [0.25, 0.75]), 6)
    0.08782
    """
    p, q = _check_pmfs(p, q, atol)
    eps = _epsilon_grid(epsilon, p.size)
    with np.errstate(over="ignore", divide="ignore"):
        # e^ε·q as e^{ε + ln q}: q = 0 gives exactly 0 even when e^ε overflows (no inf·0 = NaN)
        excess = p - np.exp(eps[..., None] + np.log(q))
    return as_output(np.maximum(excess, 0.0).sum(axis=-1))


def pmf_delta_naive(epsilon, p, q, atol: float = PMF_ATOL):
    """Naive δ₁(ε) = P_{O~p}[L > ε], vectorised over ε.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    p : array_like
        pmf of A(D₁) (1-D, non-negative, summing to 1 within ``atol``).
    q : array_like
        pmf of A(D₂) on the same grid as ``p``.
    atol : float
        How far a pmf's total may drift from 1.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(pmf_delta_naive(0.5, [0.5, 0.5], [0.25, 0.75]), 6)
    0.5
    """
    loss = pmf_privacy_loss(p, q, atol)
    p = np.asarray(p, dtype=float)
    eps = _epsilon_grid(epsilon, p.size)
    return as_output(np.where(loss > eps[..., None], p, 0.0).sum(axis=-1))


def pmf_upper_quantile(u, p, q, atol: float = PMF_ATOL):
    """L at cumulative probability u when outcomes are sorted by decreasing L (0 < u < 1).

    This is the x-axis of the post's e^L plots: "all events according to their probability",
    the most revealing first. Returns a step function of u.

    Parameters
    ----------
    u : float or array_like
        Cumulative probabilities in (0, 1), outputs sorted by decreasing L.
    p : array_like
        pmf of A(D₁) (1-D, non-negative, summing to 1 within ``atol``).
    q : array_like
        pmf of A(D₂) on the same grid as ``p``.
    atol : float
        How far a pmf's total may drift from 1.

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(pmf_upper_quantile(0.3, [0.5, 0.5], [0.25, 0.75]), 6)
    0.693147
    """
    u = check_open_unit("u", u)
    loss = pmf_privacy_loss(p, q, atol)
    p = np.asarray(p, dtype=float)
    order = np.argsort(-loss, kind="stable")
    keep = p[order] > 0
    losses, masses = loss[order][keep], p[order][keep]
    edges = np.cumsum(masses)
    index = np.minimum(np.searchsorted(edges, u, side="left"), losses.size - 1)
    return as_output(losses[index])


# --- closed forms ----------------------------------------------------------------------


def _gaussian_ab(epsilon, sigma, sensitivity):
    """ε, a = h + c, b = c − h and h = Δ/(2σ), c = −εσ/Δ (the centre and half-width of [b, a])."""
    eps = check_nonnegative("epsilon", epsilon)
    s = check_positive("sigma", sigma)
    d = check_positive("sensitivity", sensitivity)
    with np.errstate(over="ignore"):  # Δ/σ = inf where σ ≈ 5e-324: δ is then 1
        a = d / (2 * s) - eps * s / d
        # b directly, not a − Δ/σ (inf − inf where σ ≈ 5e-324)
        b = -d / (2 * s) - eps * s / d
        return eps, a, b, d / (2 * s), -(eps * s / d)


# Gauss–Legendre rule for ∫ over [b, a] when [b, a] is narrow beside its distance from 0
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(12)
# [b, a] counts as narrow when its half-width h is below this share of |c|. There ln Φ(a)
# and ε + ln Φ(b) nearly cancel (their gap is about 2h/|c|), the floats a and b carry a
# relative error of about 1e-16·|c|/h in a − b (all of it once h < 1e-16·|c|: δ(1e-17,
# σ = 1e17) came out 0, not 8.3e-19), and δ(254, σ = 0.0024, Δ = 0.0156) was 6 times too
# large; the integral of form 3 keeps a relative error near 1e-13 (checked with mpmath)
_NARROW = 0.25


def _gaussian_log_delta_narrow(eps, h, c, b):
    """ln δ₂ = ε + ln Φ(b) + ln(expm1(G − ε)) with G − ε = ∫_b^a (λ(t) + t) dt, λ = φ/Φ.

    G = ln Φ(a) − ln Φ(b) = ∫_b^a λ, and ε = −2hc = ∫_b^a (−t) dt, so G − ε is one
    integral of a smooth function over [c − h, c + h], taken by Gauss–Legendre from c and h
    (never from the rounded a and b). λ(t) = √(2/π)/erfcx(−t/√2) keeps its relative accuracy
    in the lower tail.
    """
    t = c[..., None] + h[..., None] * _NODES
    with np.errstate(over="ignore"):
        inverse_mills = math.sqrt(2 / math.pi) / erfcx(-t / _SQRT2)
    # summed node by node (a matrix product summed a batch in another order than one value,
    # so the vector and the scalars differed in the last place)
    total = np.zeros(np.shape(h))
    for i, weight in enumerate(_WEIGHTS):
        total = total + weight * (inverse_mills[..., i] + t[..., i])
    excess = h * total
    log_b = log_ndtr(b)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # ln(e^x − 1) = x + ln(1 − e^{−x}): no overflow for a large x
        log_expm1 = np.where(
            excess > 1, excess + np.log1p(-np.exp(-excess)), np.log(np.expm1(excess))
        )
        return np.where((excess > 0) & (log_b > -np.inf), eps + log_b + log_expm1, -np.inf)


def gaussian_delta_naive(epsilon, sigma, *, sensitivity=1.0):
    """δ₁ = P[L > ε] with L ~ N(μ, 2μ): Φ((μ − ε)/√(2μ)) = Φ(Δ/(2σ) − εσ/Δ).

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Balle & Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.

    Examples
    --------
    >>> round(gaussian_delta_naive(1.0, 1.0, sensitivity=1.0), 6)
    0.308538
    """
    _, a, _, _, _ = _gaussian_ab(epsilon, sigma, sensitivity)
    return as_output(ndtr(a))


def _gaussian_log_delta(epsilon, sigma, sensitivity):
    eps, a, b, h, c = _gaussian_ab(epsilon, sigma, sensitivity)
    eps, a, b, h, c = np.broadcast_arrays(eps, a, b, h, c)
    # form 1, for δ ≪ Φ(a): δ₂ = Φ(a)·(1 − e^{ε + lnΦ(b) − lnΦ(a)}), no underflow before
    # e^-700. Where Φ(a) underflows even in log space (a ≈ −1e155), δ₂ = 0, not −∞ − −∞.
    log_a = log_ndtr(a)
    underflow = np.isneginf(log_a)
    with np.errstate(invalid="ignore"):
        gap = np.minimum(eps + log_ndtr(b) - np.where(underflow, 0.0, log_a), 0.0)
    with np.errstate(divide="ignore"):
        log1 = np.where(underflow, -np.inf, log_a + np.log(-np.expm1(gap)))
    # form 2, for tiny ε and Δ/σ (where the bracket of form 1 cancels): δ₂ = D − (e^ε − 1)Φ(b)
    # with D = Φ(a) − Φ(b) = P[b < Z < a] taken from whichever side subtracts nothing near 1
    # (a and b of opposite sign: erf, which is exact near 0)
    # (near 0 always erf: it is relatively exact there, where Φ is ½ + something small)
    near_zero = np.maximum(np.abs(a), np.abs(b)) <= 1
    d_mass = np.where(
        near_zero | ((b < 0) & (a > 0)),
        0.5 * (erf(a / _SQRT2) - erf(b / _SQRT2)),
        np.where(b >= 0, ndtr(-b) - ndtr(-a), ndtr(a) - ndtr(b)),
    )
    phi_b = ndtr(b)
    with np.errstate(over="ignore", invalid="ignore"):
        sub = np.where(phi_b > 0, np.expm1(eps) * phi_b, 0.0)
    use2 = (d_mass > 0) & (sub <= 0.5 * d_mass)
    log2 = np.log(np.where(use2, d_mass - sub, 1.0))
    out = np.where(use2, log2, log1)
    # form 3, where [b, a] is narrow beside |c| (σ ≫ Δ at ε > 0): from c and h, not a and b
    with np.errstate(invalid="ignore"):
        narrow = (h < _NARROW * np.abs(c)) & np.isfinite(c) & (h > 0)
    if np.any(narrow):
        out = out.copy()
        out[narrow] = _gaussian_log_delta_narrow(eps[narrow], h[narrow], c[narrow], b[narrow])
    return out


def gaussian_delta(epsilon, sigma, *, sensitivity=1.0):
    """Tight δ₂(ε) of the Gaussian mechanism (Balle & Wang 2018, Theorem 8).

    δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ). Where e^ε·Φ(b) is at most half of
    Φ(a) − Φ(b), it is computed as (Φ(a) − Φ(b)) − (e^ε − 1)Φ(b) with Φ(a) − Φ(b) taken
    without cancellation (relative error about 1e-16·σ/Δ at worst: δ(0, σ = 1e155) =
    4e-156, not 0); elsewhere in log space as Φ(a)·(1 − e^{ε + ln Φ(b) − ln Φ(a)}), so that
    it does not underflow before δ ≈ 1e-300; where even ln Φ(a) underflows it is 0 (it
    was NaN at ε = 1, σ = 1e155). Where [b, a] is narrow beside its centre c = −εσ/Δ
    (half-width Δ/(2σ) below a quarter of |c|), the rounded a and b lose a − b: there
    ln(Φ(a)/Φ(b)) − ε is one integral over [b, a] taken from c and the half-width (it was 0
    at ε = 1e-17, σ = 1e17, where δ = 8.3e-19).

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Balle & Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.

    Examples
    --------
    >>> round(gaussian_delta(1.0, 1.0), 6)
    0.126937
    """
    return as_output(np.exp(_gaussian_log_delta(epsilon, sigma, sensitivity)))


def laplace_delta(epsilon, scale, *, sensitivity=1.0):
    """Tight δ₂(ε) of the Laplace mechanism: 1 − e^{(ε − Δ/b)/2} for ε < Δ/b, else 0.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(laplace_delta(0.5, 1.0, sensitivity=1.0), 6)
    0.221199
    """
    gap = _gap_to_loss(epsilon, scale, sensitivity, 1.0)
    return as_output(np.where(gap < 0, -np.expm1(np.minimum(gap, 0.0) / 2), 0.0))


def laplace_delta_naive(epsilon, scale, *, sensitivity=1.0):
    """Naive δ₁(ε) = P[L > ε] of the Laplace mechanism: 1 − e^{(ε − Δ/b)/2}/2 below Δ/b, else 0.

    The atom L = Δ/b (probability ½) counts only while ε < Δ/b: at ε = Δ/b nothing exceeds ε.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(laplace_delta_naive(0.5, 1.0, sensitivity=1.0), 6)
    0.6106
    """
    gap = _gap_to_loss(epsilon, scale, sensitivity, 1.0)
    return as_output(np.where(gap < 0, 1 - 0.5 * np.exp(np.minimum(gap, 0.0) / 2), 0.0))


def _gap_to_loss(epsilon, scale, sensitivity, share) -> np.ndarray:
    """ε − share·Δ/b, as (ε·b − share·Δ)/b with its sign exact (``product_minus``).

    The loss share·Δ/b rounded to a double can fall on ε while the true loss is above it,
    and then ε − fl(Δ/b) = 0 called a δ of about 1e-17 zero (δ is never under-reported).
    ``share`` (Δ − 2j)/Δ picks a value of the geometric mechanism's loss.
    """
    eps = check_nonnegative("epsilon", epsilon)
    b = check_positive("scale", scale)
    d = check_positive("sensitivity", sensitivity)
    with np.errstate(over="ignore", invalid="ignore"):
        return product_minus(eps, b, share * d) / b


def geometric_plrv_pmf(scale, *, sensitivity=1):
    """The exact distribution of the geometric mechanism's PLRV, as pmfs on its loss values.

    L(k) = (|k − Δ| − |k|)/b depends on k only through min(max(k, 0), Δ), so outputs
    k ≤ 0 (all with L = Δ/b) and k ≥ Δ (all with L = −Δ/b) are lumped into one outcome each.
    Lumping outcomes that share a likelihood ratio changes no δ, so this is exact.

    Returns ``(losses, p, q)``: losses (decreasing) Δ/b, (Δ−2)/b, ..., −Δ/b and their masses
    under A(D₁) = Z and A(D₂) = Δ + Z.

    Parameters
    ----------
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> losses, p, q = geometric_plrv_pmf(1.0, sensitivity=2)
    >>> losses.tolist()
    [2.0, 0.0, -2.0]
    """
    b = check_positive("scale", scale)
    d = _check_integer_sensitivity(sensitivity)
    if b.ndim != 0:
        raise ValueError(f"scale must be a single number here; got shape {b.shape}")
    j = np.arange(d + 1)
    # P[Z ≤ 0], P[Z = j] (0 < j < Δ), P[Z ≥ Δ]
    p = geometric_pmf(j, float(b))
    p[0] = geometric_cdf(0, float(b))
    p[-1] = geometric_sf(d - 1, float(b))  # P[Z ≥ Δ], exact in the tail (not 1 − cdf)
    # D₂: Z' = k − Δ, so P[Z' ≤ −Δ], P[Z' = j − Δ], P[Z' ≥ 0]
    q = geometric_pmf(j - d, float(b))
    q[0] = geometric_cdf(-d, float(b))
    q[-1] = geometric_sf(-1, float(b))
    with np.errstate(over="ignore"):  # b ≈ 5e-324: the losses are ±inf (and 0 at j = Δ/2)
        losses = (d - 2 * j) / float(b)
    return losses, p, q


def geometric_delta(epsilon, scale, *, sensitivity=1):
    """Tight δ₂(ε) of the two-sided geometric mechanism (exact, via geometric_plrv_pmf).

    δ₂ = Σ_j p_j·(1 − e^{ε − L_j}) over the loss values L_j > ε, each term from −expm1 of
    the exact ε − L_j: no two masses near ½ are subtracted, so a huge scale keeps its δ.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(geometric_delta(0.5, 1.0, sensitivity=1), 6)
    0.287649
    """
    gap, p = _geometric_gaps(epsilon, scale, sensitivity)
    # Σ p_j·max(0, 1 − e^{ε − L_j}) with ε − L_j from the exact losses L_j = (Δ − 2j)/b, not
    # Σ max(0, p_j − e^ε q_j): at a large scale p_j and e^ε q_j are two masses near ½ whose
    # difference was lost (δ₂ = 0 at b = 1e17, where it is 5e-18)
    return as_output((p * -np.expm1(np.minimum(gap, 0.0))).sum(axis=-1))


def _geometric_gaps(epsilon, scale, sensitivity) -> tuple[np.ndarray, np.ndarray]:
    """ε − L_j for every loss value of the geometric PLRV (sign exact), and the masses p_j."""
    _, p, _ = geometric_plrv_pmf(scale, sensitivity=sensitivity)
    eps = _epsilon_grid(epsilon, p.size)
    d = _check_integer_sensitivity(sensitivity)
    share = (d - 2 * np.arange(d + 1)) / d  # exact: (Δ − 2j)·Δ/Δ is an integer below 2e6
    gap = _gap_to_loss(eps[..., None], float(check_positive("scale", scale)), d, share)
    return gap, p


def geometric_delta_naive(epsilon, scale, *, sensitivity=1):
    """Naive δ₁(ε) = P[L > ε] of the two-sided geometric mechanism.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(geometric_delta_naive(0.5, 1.0, sensitivity=1), 6)
    0.731059
    """
    gap, p = _geometric_gaps(epsilon, scale, sensitivity)
    # the exact loss values (not ln p − ln q), so that ε = Δ/b counts nothing, as for Laplace
    return as_output(np.where(gap < 0, p, 0.0).sum(axis=-1))


def privacy_profile(epsilon, mechanism: str, noise, *, sensitivity=1.0):
    """(δ₁(ε), δ₂(ε)) for a named mechanism; ``noise`` is b (laplace, geometric) or σ (gaussian).

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    mechanism : {'laplace', 'gaussian', 'geometric'}
        The noise distribution (anything else is a ValueError, never a KeyError).
    noise : float
        b (laplace, geometric) or σ (gaussian), > 0.
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> tuple(round(d, 6) for d in privacy_profile(POST_EPSILON, 'gaussian', POST_GAUSSIAN_SIGMA))
    (0.053245, 0.010624)
    """
    _check_mechanism(mechanism)
    if mechanism == "laplace":
        return (
            laplace_delta_naive(epsilon, noise, sensitivity=sensitivity),
            laplace_delta(epsilon, noise, sensitivity=sensitivity),
        )
    if mechanism == "gaussian":
        return (
            gaussian_delta_naive(epsilon, noise, sensitivity=sensitivity),
            gaussian_delta(epsilon, noise, sensitivity=sensitivity),
        )
    return (
        geometric_delta_naive(epsilon, noise, sensitivity=sensitivity),
        geometric_delta(epsilon, noise, sensitivity=sensitivity),
    )


def plrv_upper_quantile(u, mechanism: str, noise, *, sensitivity=1.0):
    """L at cumulative probability u, outcomes sorted by decreasing L (the post's x-axis).

    * gaussian: μ − √(2μ)·Φ⁻¹(u)   (the upper u-quantile of N(μ, 2μ));
    * laplace: clip(Δ/b + 2 ln(2(1 − u)), −Δ/b, Δ/b)   (L = Δ/b on the first half);
    * geometric: a step function from geometric_plrv_pmf.

    Parameters
    ----------
    u : float or array_like
        Cumulative probabilities in (0, 1), outputs sorted by decreasing L.
    mechanism : {'laplace', 'gaussian', 'geometric'}
        The noise distribution (anything else is a ValueError, never a KeyError).
    noise : float
        b (laplace, geometric) or σ (gaussian), > 0.
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(plrv_upper_quantile(0.3, 'gaussian', 1.0, sensitivity=1.0), 6)
    1.024401
    """
    _check_mechanism(mechanism)
    u = check_open_unit("u", u)
    if mechanism == "gaussian":
        mu = gaussian_plrv_mean(noise, sensitivity=sensitivity)
        return as_output(mu - np.sqrt(2 * mu) * ndtri(u))
    if mechanism == "laplace":
        bound = laplace_loss_bound(noise, sensitivity=sensitivity)
        return as_output(np.clip(bound + 2 * (np.log(2) + np.log1p(-u)), -bound, bound))
    _, p, q = geometric_plrv_pmf(noise, sensitivity=sensitivity)
    return as_output(pmf_upper_quantile(u, p, q))


def discretise_mechanism(mechanism: str, noise, *, sensitivity=1.0, width=None, bins=20_001):
    """Bin the outputs of A(D₁) and A(D₂) and return ``(edges, p, q)``: exact bin masses.

    The numeric route to δ for a continuous mechanism: releasing only the bin of the output
    is post-processing, so pmf_delta(ε, p, q) ≤ the true δ₂(ε) and converges to it as the
    bins shrink. ``edges`` has bins + 1 finite points over loc ± width (default: Δ ± 40
    noise scales, beyond which ≤ e^-40 of Laplace or Φ(−40) of Gaussian mass lies); the two
    tails (−∞, first edge) and (last edge, ∞) are extra outcomes at the ends of p and q.
    For the geometric mechanism the "bins" are the integers (exact pmfs).

    Parameters
    ----------
    mechanism : {'laplace', 'gaussian', 'geometric'}
        The noise distribution (anything else is a ValueError, never a KeyError).
    noise : float
        b (laplace, geometric) or σ (gaussian), > 0.
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).
    width : float, optional, keyword-only
        Half-width of the grid around the centres (default 40 noise scales).
    bins : int, keyword-only
        Number of bins, an integer in 2..5,000,000.

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> edges, p, q = discretise_mechanism('laplace', 1.0, bins=101)
    >>> edges.size, p.size, round(float(p.sum()), 12)
    (102, 103, 1.0)
    """
    _check_mechanism(mechanism)
    n = check_int_range("bins", bins, 2, _MAX_BINS)
    noise = check_finite_scalar("noise", noise)
    if noise <= 0:
        raise ValueError(f"noise must be > 0 and finite; got {noise!r}")
    d = check_finite_scalar("sensitivity", sensitivity)
    if d <= 0:
        raise ValueError(f"sensitivity must be > 0 and finite; got {sensitivity!r}")
    half = 40 * noise if width is None else check_finite_scalar("width", width)
    if not math.isfinite(2 * half + d):  # the grid's span (its step overflowed: NaN edges)
        raise ValueError(
            f"noise = {noise!r} (or width) with sensitivity = {d!r} gives an output grid beyond "
            "the largest float; give a smaller noise or width"
        )
    if half <= 0:
        raise ValueError(f"width must be > 0 and finite; got {width!r}")
    if mechanism == "geometric":
        d = _check_integer_sensitivity(d)
        n_outputs = 2 * math.ceil(half) + d + 1
        if n_outputs > _MAX_BINS:
            raise ValueError(
                f"the geometric mechanism over loc ± width needs {n_outputs} integer outputs "
                f"(width = {half:g}, sensitivity = {d}); at most {_MAX_BINS} are allowed: "
                "give a smaller width (or noise)"
            )
        k = np.arange(-math.ceil(half), d + math.ceil(half) + 1)
        edges = np.concatenate([[k[0] - 0.5], k + 0.5])
        centre1, centre2 = 0.0, float(d)

        def cdf(x, loc):
            return geometric_cdf(x - loc, noise)

        def sf(x, loc):
            return geometric_sf(x - loc, noise)
    else:
        edges = np.linspace(-half, d + half, n + 1)
        centre1, centre2 = 0.0, d
        lower, upper = (
            (laplace_cdf, laplace_sf) if mechanism == "laplace" else (gaussian_cdf, gaussian_sf)
        )

        def cdf(x, loc):
            return lower(x, loc, noise)

        def sf(x, loc):
            return upper(x, loc, noise)

    def masses(loc):
        # left of the centre, differences of the CDF; right of it, of the survival function:
        # neither subtracts two numbers near 1, so no tail mass below 1e-16 is lost
        c, s = cdf(edges, loc), sf(edges, loc)
        inner = np.where(edges[1:] <= loc, np.diff(c), -np.diff(s))
        return np.concatenate([[c[0]], inner, [s[-1]]])

    return edges, masses(centre1), masses(centre2)


# --- inverse -----------------------------------------------------------------------------


def gaussian_sigma_for_delta(epsilon, delta, *, sensitivity=1.0):
    """Smallest σ for which the Gaussian mechanism is (ε, δ)-DP (tight analytic δ).

    δ₂ decreases strictly in σ (from 1 as σ → 0 to 0 as σ → ∞), so the answer is the root
    of ln δ₂(σ) = ln δ, found by ``scipy.optimize.brentq`` in log σ, then rounded toward
    privacy: the smallest double σ at or above the root with ``gaussian_delta(epsilon, σ,
    sensitivity=Δ) ≤ delta`` (a root a hair below gave a δ above the target). Scalars only.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    delta : float
        Target δ in (0, 1).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float
        The smallest σ (scalars only: a root finder runs per value).

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Balle & Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.

    Examples
    --------
    >>> round(gaussian_sigma_for_delta(1.0, 1e-05, sensitivity=1.0), 6)
    3.730632
    """
    eps = check_finite_scalar("epsilon", epsilon)
    if eps < 0:
        raise ValueError(f"epsilon must be >= 0 and finite; got {epsilon!r}")
    target = float(check_open_unit("delta", check_finite_scalar("delta", delta)))
    d = check_finite_scalar("sensitivity", sensitivity)
    if d <= 0:
        raise ValueError(f"sensitivity must be > 0 and finite; got {sensitivity!r}")
    log_target = math.log(target)

    def gap(log_sigma: float) -> float:
        return float(_gaussian_log_delta(eps, math.exp(log_sigma), 1.0)) - log_target

    # δ₂ depends on σ/Δ only: solve for Δ = 1 and scale (no overflow at Δ = 1e308)
    lo, hi = -1.0, 1.0
    for _ in range(400):
        if gap(lo) > 0:
            break
        lo -= 2.0
    else:  # pragma: no cover - δ₂ → 1 as σ → 0, so this needs δ within 1e-300 of 1
        raise ValueError(f"no σ found with δ₂ ≥ delta = {target!r}; delta is too close to 1")
    for _ in range(400):
        if gap(hi) < 0:
            break
        if hi > 13.8:  # σ > 1e6·Δ
            raise ValueError(
                f"delta = {target!r} at epsilon = {eps!r} needs σ > 1e6·Δ, beyond the range "
                "where the analytic δ is accurate in floating point; choose a larger delta "
                "or epsilon"
            )
        hi += 2.0
    with np.errstate(over="ignore"):
        sigma = float(d * np.exp(brentq(gap, lo, hi, xtol=1e-14, rtol=1e-13)))

    # the root is within about 1e-14 of the true σ, on either side: round toward privacy,
    # to the smallest double above it whose δ₂ (as gaussian_delta computes it) meets delta
    def meets(s):
        finite = np.where(np.isinf(s), 1.0, s)
        return np.isinf(s) | (_gaussian_delta_value(eps, finite, d) <= target)

    return float(nudge_until(sigma, meets, toward_zero=False))


def _gaussian_delta_value(eps, sigma, d) -> np.ndarray:
    return np.exp(_gaussian_log_delta(eps, sigma, d))


# --- the thresholding example and the attacker's posterior ------------------------------


def thresholding_pmfs(threshold=5.0, scale=POST_LAPLACE_SCALE, count=1.0):
    """A release that can be a distinguishing event: outcomes ("released", "suppressed").

    A partition's count is released only if count + Lap(b) ≥ threshold. In D₁ the target
    is in the data and the partition has ``count`` members; in D₂ the target is absent and
    the partition does not exist, so it is never released. Every release has L = +∞:
    p = [P[count + Lap(b) ≥ T], the rest], q = [0, 1]. With the defaults
    P[release] = ½·e^{−4 ln 3} = 1/162 ≈ 0.006.

    Parameters
    ----------
    threshold : float
        T: a partition is released only if count + Lap(b) ≥ T.
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    count : float
        The partition's true count in D₁.

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> p, q = thresholding_pmfs()
    >>> round(float(p[0]) * 162, 6), q.tolist()
    (1.0, [0.0, 1.0])
    """
    t = check_finite_scalar("threshold", threshold)
    b = check_positive("scale", scale)
    c = check_finite_scalar("count", count)
    released = laplace_sf(t, c, b)  # P[count + Lap(b) > T], exact far in the tail
    return np.array([released, 1 - released]), np.array([0.0, 1.0])


def posterior_probability(prior, loss):
    """P[D = D₁ | O] = 1/(1 + (1 − prior)/prior · e^{−L}): odds multiplied by e^L.

    ``loss`` may be ±∞ (a distinguishing event gives 1 or 0); NaN is refused.

    Parameters
    ----------
    prior : float or array_like
        The attacker's prior P[D = D₁], in (0, 1).
    loss : float or array_like
        Privacy loss L (±inf allowed, NaN refused).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.

    Examples
    --------
    >>> round(posterior_probability(0.5, 1.0), 6)
    0.731059
    """
    prior = check_open_unit("prior", prior)
    loss = check_real_or_inf("loss", loss)
    prior, loss = np.broadcast_arrays(prior, loss)
    # the odds update without logit: p/(p + (1 − p)e^{−L}) for L ≥ 0, pe^L/(pe^L + 1 − p)
    # below (each exponent ≤ 0, so nothing overflows; L = ±inf gives 1 or 0); expit(L +
    # logit p) lost ~1e-13 where ln p is large
    with np.errstate(invalid="ignore"):
        up = np.exp(-np.abs(loss))  # e^{−|L|}
        high = prior / (prior + (1 - prior) * up)
        low = prior * up / (prior * up + (1 - prior))
    return as_output(np.where(loss >= 0, high, low))
