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
import numbers

import numpy as np

from ._docstrings import fill_docstrings
from ._numerics import pmf_loss, pmf_loss_upper_quantile
from ._validation import (
    as_output,
    check_epsilon_grid,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real_or_inf,
)
from .mechanisms import (
    MAX_BINS,
    MECHANISM_CLASSES,
    AdditiveNoise,
    Gaussian,
    Laplace,
    PrivacyLoss,
    TwoSidedGeometric,
    as_mechanism,
    gaussian_sigma_for_delta,
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
    "loss_object",
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

MECHANISMS = tuple(MECHANISM_CLASSES)
"""Mechanism names the functions below accept beside a mechanism object, as the registry
``helpers.mechanisms.MECHANISM_CLASSES`` held them at import (``Laplace``, ``Gaussian``,
``TwoSidedGeometric``, ``DiscreteGaussian``; noise parameter b, σ, b, σ); the functions read
the registry itself, so a class registered later is accepted too."""

# The post's example: counts 1000 (D₁, the truth) vs 1001 (D₂), Laplace scale 1/ln 3,
# Gaussian variance 3, and ε = ln 3 for the Gaussian's δ. The scale is laplace_scale(ln 3):
# 1/ln 3 rounded up, the smallest double b with 1/b ≤ ln 3 exactly (1/math.log(3), rounded
# to nearest, is a mechanism with ε a hair above ln 3, whose δ at ε = ln 3 is not 0).
POST_COUNT = 1000.0
POST_EPSILON = math.log(3)
POST_LAPLACE_SCALE = laplace_scale(POST_EPSILON)
POST_GAUSSIAN_SIGMA = math.sqrt(3)
# how far a pmf's total may drift from 1 (float sums of CDF differences are this exact)
PMF_ATOL = 1e-9


# --- privacy loss of one output --------------------------------------------------------


def loss_object(mechanism, noise=None, *, sensitivity=1.0):
    """The mechanism as the PLRV functions read it: any privacy-loss object as it is, or
    :func:`helpers.mechanisms.as_mechanism` of a name and its noise.

    Not called in a notebook; used by ``helpers.plotting.plrv``.

    Parameters
    ----------
    %(mechanism_spec)s

    Returns
    -------
    helpers.mechanisms.PrivacyLoss

    %(raises)s

    References
    ----------
    dp-accounting, ``privacy_loss_mechanism.MonotonePrivacyLoss`` (any pair of laws) above
    ``AdditiveNoisePrivacyLoss``.

    Examples
    --------
    >>> from helpers.mechanisms import RandomizedResponse
    >>> loss_object(RandomizedResponse(1.0, k=3)).text()
    'randomized response, ε = 1, k = 3'
    """
    if isinstance(mechanism, PrivacyLoss) and not isinstance(mechanism, AdditiveNoise):
        unit = (
            isinstance(sensitivity, numbers.Real)
            and not isinstance(sensitivity, (bool, np.bool_))
            and sensitivity == 1
        )
        if noise is not None or not unit:
            raise ValueError(
                "give noise and sensitivity to the mechanism object itself, not beside it; "
                f"got noise = {noise!r}, sensitivity = {sensitivity!r} with {mechanism!r}"
            )
        return mechanism
    if not isinstance(mechanism, (str, AdditiveNoise)) or (
        isinstance(mechanism, str) and mechanism not in MECHANISM_CLASSES
    ):
        raise ValueError(
            f"mechanism must be one of {tuple(MECHANISM_CLASSES)} or a privacy-loss object of "
            f"helpers.mechanisms; got {mechanism!r}"
        )
    return as_mechanism(mechanism, noise, sensitivity=sensitivity)


def laplace_privacy_loss(o, scale, *, sensitivity=1.0, loc=0.0):
    """L(o) = (|o − loc − Δ| − |o − loc|)/b: A(D₁) = loc + Lap(b), A(D₂) = loc + Δ + Lap(b).

    In the post, loc = 1000, Δ = 1, b = 1/ln 3: L(999) = ln 3, L(1000.5) = 0, L(1003) = −ln 3.

    Used in notebooks 08 and 11.

    Parameters
    ----------
    o : float or array_like
        Outputs of the mechanism.
    %(scale)s
    %(sensitivity_continuous)s
    %(loc)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_privacy_loss(0.3, 1.0, sensitivity=1.0, loc=0.0), 6)
    0.4
    """
    return Laplace(scale, sensitivity=sensitivity).privacy_loss(o, loc=loc)


def gaussian_privacy_loss(o, sigma, *, sensitivity=1.0, loc=0.0):
    """L(o) = μ − Δ(o − loc)/σ², μ = Δ²/(2σ²): Gaussian noise around loc vs loc + Δ.

    Used in notebook 08.

    Parameters
    ----------
    o : float or array_like
        Outputs of the mechanism.
    %(sigma)s
    %(sensitivity_continuous)s
    %(loc)s

    %(returns_float_or_array)s

    %(raises)s

    %(references_gaussian)s

    Examples
    --------
    >>> round(gaussian_privacy_loss(0.3, 1.0, sensitivity=1.0, loc=0.0), 6)
    0.2
    """
    return Gaussian(sigma, sensitivity=sensitivity).privacy_loss(o, loc=loc)


def geometric_privacy_loss(k, scale, *, sensitivity=1, loc=0):
    """L(k) = (|k − loc − Δ| − |k − loc|)/b for two-sided geometric noise P[Z=z] ∝ e^{−|z|/b}.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    k : int or array_like
        Integer outputs of the geometric mechanism.
    %(scale)s
    %(sensitivity_geometric)s
    %(loc)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(geometric_privacy_loss(2, 1.0, sensitivity=1, loc=0), 6)
    -1.0
    """
    return TwoSidedGeometric(scale, sensitivity=sensitivity).privacy_loss(k, loc=loc)


def privacy_loss(o, mechanism, noise=None, *, sensitivity=1.0, loc=0.0):
    """L(o) for a mechanism object or a named one: ``as_mechanism(...).privacy_loss(o, loc=loc)``.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    o : float or array_like
        Outputs (integers for ``"geometric"``).
    mechanism : AdditiveNoise or {"laplace", "gaussian", "geometric"}
        A mechanism of :mod:`helpers.mechanisms` (``Laplace(b)``, ...) or its name.
    noise : float, optional
        With a name: b (laplace, geometric) or σ (gaussian). Omitted with an object.
    sensitivity, loc : float, keyword-only
        Δ (with a name; an object carries its own) and f(D₁); A(D₂) is centred at loc + Δ.

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
    return as_mechanism(mechanism, noise, sensitivity=sensitivity).privacy_loss(o, loc=loc)


def gaussian_plrv_mean(sigma, *, sensitivity=1.0):
    """μ = Δ²/(2σ²): the Gaussian PLRV is N(μ, 2μ) (mean μ, variance 2μ = Δ²/σ²).

    Used in notebook 08.

    Parameters
    ----------
    %(sigma)s
    %(sensitivity_continuous)s

    %(returns_float_or_array)s

    %(raises)s

    %(references_gaussian)s

    Examples
    --------
    >>> round(gaussian_plrv_mean(1.0, sensitivity=1.0), 6)
    0.5
    """
    return Gaussian(sigma, sensitivity=sensitivity).plrv_mean()


def laplace_loss_bound(scale, *, sensitivity=1.0):
    """Δ/b: the largest value the Laplace (or geometric) PLRV takes, i.e. its ε.

    Rounded up (the ε of a mechanism is never reported below its true value): the smallest
    double ≥ Δ/b, so that δ(ε) = 0 exactly from this ε on.

    Used in notebook 08.

    Parameters
    ----------
    %(scale)s
    %(sensitivity)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_loss_bound(1.0, sensitivity=1.0), 6)
    1.0
    """
    return Laplace(scale, sensitivity=sensitivity).loss_bound()


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

    Used in notebook 08.

    Parameters
    ----------
    %(pmfs)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> np.round(pmf_privacy_loss([0.5, 0.5], [0.25, 0.75]), 6).tolist()
    [0.693147, -0.405465]
    """
    p, q = _check_pmfs(p, q, atol)
    return as_output(pmf_loss(p, q))


def pmf_delta(epsilon, p, q, atol: float = PMF_ATOL):
    """Tight δ₂(ε) = Σ max(0, p − e^ε q) = E_{O~p}[max(0, 1 − e^{ε−L})], vectorised over ε.

    Used in notebook 08.

    Parameters
    ----------
    %(epsilon)s
    %(pmfs)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(pmf_delta(0.5, [0.5, 0.5], [0.25, 0.75]), 6)
    0.08782
    """
    p, q = _check_pmfs(p, q, atol)
    eps = check_epsilon_grid(epsilon, p.size)
    with np.errstate(over="ignore", divide="ignore"):
        # e^ε·q as e^{ε + ln q}: q = 0 gives exactly 0 even when e^ε overflows (no inf·0 = NaN)
        excess = p - np.exp(eps[..., None] + np.log(q))
    return as_output(np.maximum(excess, 0.0).sum(axis=-1))


def pmf_delta_naive(epsilon, p, q, atol: float = PMF_ATOL):
    """Naive δ₁(ε) = P_{O~p}[L > ε], vectorised over ε.

    Used in notebook 08.

    Parameters
    ----------
    %(epsilon)s
    %(pmfs)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(pmf_delta_naive(0.5, [0.5, 0.5], [0.25, 0.75]), 6)
    0.5
    """
    loss = pmf_privacy_loss(p, q, atol)
    p = np.asarray(p, dtype=float)
    eps = check_epsilon_grid(epsilon, p.size)
    return as_output(np.where(loss > eps[..., None], p, 0.0).sum(axis=-1))


def pmf_upper_quantile(u, p, q, atol: float = PMF_ATOL):
    """L at cumulative probability u when outcomes are sorted by decreasing L (0 < u < 1).

    This is the x-axis of the post's e^L plots: "all events according to their probability",
    the most revealing first. Returns a step function of u.

    Not called in a notebook; used by ``helpers.plotting.plrv``.

    Parameters
    ----------
    u : float or array_like
        Cumulative probabilities in (0, 1), outputs sorted by decreasing L.
    %(pmfs)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(pmf_upper_quantile(0.3, [0.5, 0.5], [0.25, 0.75]), 6)
    0.693147
    """
    u = check_open_unit("u", u)
    p, q = _check_pmfs(p, q, atol)
    return as_output(pmf_loss_upper_quantile(u, p, q))


# --- closed forms ----------------------------------------------------------------------


def gaussian_delta_naive(epsilon, sigma, *, sensitivity=1.0):
    """δ₁ = P[L > ε] with L ~ N(μ, 2μ): Φ((μ − ε)/√(2μ)) = Φ(Δ/(2σ) − εσ/Δ).

    Raised, as :func:`gaussian_delta` is, by a bound on the float error of Δ/(2σ) − εσ/Δ: never
    below the true δ₁. For a two-world adversary it is the probability that the posterior
    exceeds the bound at ε (notebook 09 reads it for a Gaussian row).

    Used in notebooks 08 and 09.

    Parameters
    ----------
    %(epsilon)s
    %(sigma)s
    %(sensitivity_continuous)s

    %(returns_float_or_array)s

    %(raises)s

    %(references_gaussian)s

    Examples
    --------
    >>> round(gaussian_delta_naive(1.0, 1.0, sensitivity=1.0), 6)
    0.308538
    """
    return Gaussian(sigma, sensitivity=sensitivity).delta_naive(epsilon)


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
    at ε = 1e-17, σ = 1e17, where δ = 8.3e-19). Finally ln δ is raised by a bound on the
    float error of a and b, (64 + 16(ε + a² + b²)) units of 2⁻⁵² (at most 1e-6): the value is
    never below the true δ (at ε = 50, δ = 1e-300 it was 2.7e-13 relative low), and above it
    by about 1e-14 relative at ordinary parameters, 1e-11 at δ = 1e-300.

    Used in notebook 08.

    Parameters
    ----------
    %(epsilon)s
    %(sigma)s
    %(sensitivity_continuous)s

    %(returns_float_or_array)s

    %(raises)s

    %(references_gaussian)s

    Examples
    --------
    >>> round(gaussian_delta(1.0, 1.0), 6)
    0.126937
    """
    return Gaussian(sigma, sensitivity=sensitivity).delta(epsilon)


def laplace_delta(epsilon, scale, *, sensitivity=1.0):
    """Tight δ₂(ε) of the Laplace mechanism: 1 − e^{(ε − Δ/b)/2} for ε < Δ/b, else 0.

    Used in notebook 08.

    Parameters
    ----------
    %(epsilon)s
    %(scale)s
    %(sensitivity_continuous)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_delta(0.5, 1.0, sensitivity=1.0), 6)
    0.221199
    """
    return Laplace(scale, sensitivity=sensitivity).delta(epsilon)


def laplace_delta_naive(epsilon, scale, *, sensitivity=1.0):
    """Naive δ₁(ε) = P[L > ε] of the Laplace mechanism: 1 − e^{(ε − Δ/b)/2}/2 below Δ/b, else 0.

    The atom L = Δ/b (probability ½) counts only while ε < Δ/b: at ε = Δ/b nothing exceeds ε.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(epsilon)s
    %(scale)s
    %(sensitivity_continuous)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_delta_naive(0.5, 1.0, sensitivity=1.0), 6)
    0.6106
    """
    return Laplace(scale, sensitivity=sensitivity).delta_naive(epsilon)


def geometric_plrv_pmf(scale, *, sensitivity=1):
    """The exact distribution of the geometric mechanism's PLRV, as pmfs on its loss values.

    L(k) = (|k − Δ| − |k|)/b depends on k only through min(max(k, 0), Δ), so outputs
    k ≤ 0 (all with L = Δ/b) and k ≥ Δ (all with L = −Δ/b) are lumped into one outcome each.
    Lumping outcomes that share a likelihood ratio changes no δ, so this is exact.

    Returns ``(losses, p, q)``: losses (decreasing) Δ/b, (Δ−2)/b, ..., −Δ/b and their masses
    under A(D₁) = Z and A(D₂) = Δ + Z.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(scale)s
    %(sensitivity_geometric)s

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> losses, p, q = geometric_plrv_pmf(1.0, sensitivity=2)
    >>> losses.tolist()
    [2.0, 0.0, -2.0]
    """
    return TwoSidedGeometric(scale, sensitivity=sensitivity).plrv_pmf()


def geometric_delta(epsilon, scale, *, sensitivity=1):
    """Tight δ₂(ε) of the two-sided geometric mechanism (exact, via geometric_plrv_pmf).

    δ₂ = Σ_j p_j·(1 − e^{ε − L_j}) over the loss values L_j > ε, each term from −expm1 of
    the exact ε − L_j: no two masses near ½ are subtracted, so a huge scale keeps its δ.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(epsilon)s
    %(scale)s
    %(sensitivity_geometric)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(geometric_delta(0.5, 1.0, sensitivity=1), 6)
    0.287649
    """
    return TwoSidedGeometric(scale, sensitivity=sensitivity).delta(epsilon)


def geometric_delta_naive(epsilon, scale, *, sensitivity=1):
    """Naive δ₁(ε) = P[L > ε] of the two-sided geometric mechanism.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(epsilon)s
    %(scale)s
    %(sensitivity_geometric)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(geometric_delta_naive(0.5, 1.0, sensitivity=1), 6)
    0.731059
    """
    return TwoSidedGeometric(scale, sensitivity=sensitivity).delta_naive(epsilon)


def privacy_profile(epsilon, mechanism, noise=None, *, sensitivity=1.0):
    """(δ₁(ε), δ₂(ε)) for a named mechanism; ``noise`` is b (laplace, geometric) or σ (gaussian).

    Used in notebook 08.

    Parameters
    ----------
    %(epsilon)s
    %(mechanism_spec)s

    Returns
    -------
    tuple of (float or numpy.ndarray)
        (δ₁, δ₂): Python floats for a scalar ε, else arrays of its shape.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> tuple(round(d, 6) for d in privacy_profile(POST_EPSILON, 'gaussian', POST_GAUSSIAN_SIGMA))
    (0.053245, 0.010624)
    """
    return loss_object(mechanism, noise, sensitivity=sensitivity).profile(epsilon)


def plrv_upper_quantile(u, mechanism, noise=None, *, sensitivity=1.0):
    """L at cumulative probability u, outcomes sorted by decreasing L (the post's x-axis).

    * gaussian: μ − √(2μ)·Φ⁻¹(u)   (the upper u-quantile of N(μ, 2μ));
    * laplace: clip(Δ/b + 2 ln(2(1 − u)), −Δ/b, Δ/b)   (L = Δ/b on the first half);
    * geometric: a step function from geometric_plrv_pmf.

    Used in notebook 08.

    Parameters
    ----------
    u : float or array_like
        Cumulative probabilities in (0, 1), outputs sorted by decreasing L.
    %(mechanism_spec)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(plrv_upper_quantile(0.3, 'gaussian', 1.0, sensitivity=1.0), 6)
    1.024401
    """
    u = check_open_unit("u", u)
    mech = loss_object(mechanism, noise, sensitivity=sensitivity)
    if isinstance(mech, AdditiveNoise):
        return mech.upper_quantile(u)
    # an asymmetric pair: the order the profile reads at ε = 0 (the larger total variation)
    return mech.upper_quantile(u, adjacency=mech.worst_adjacency(0.0))


def discretise_mechanism(mechanism, noise=None, *, sensitivity=1.0, width=None, bins=20_001):
    """Bin the outputs of A(D₁) and A(D₂) and return ``(edges, p, q)``: exact bin masses.

    The numeric route to δ for a continuous mechanism: releasing only the bin of the output
    is post-processing, so pmf_delta(ε, p, q) ≤ the true δ₂(ε) and converges to it as the
    bins shrink. ``edges`` has bins + 1 finite points over loc ± width (default: Δ ± 40
    noise scales, beyond which ≤ e^-40 of Laplace or Φ(−40) of Gaussian mass lies); the two
    tails (−∞, first edge) and (last edge, ∞) are extra outcomes at the ends of p and q.
    For the geometric mechanism the "bins" are the integers (exact pmfs).

    Used in notebook 08.

    Parameters
    ----------
    %(mechanism_spec)s
    width : float, optional, keyword-only
        Half-width of the grid around the centres (default 40 noise scales).
    bins : int, keyword-only
        Number of bins, an integer in 2..5,000,000.

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> edges, p, q = discretise_mechanism('laplace', 1.0, bins=101)
    >>> edges.size, p.size, round(float(p.sum()), 12)
    (102, 103, 1.0)
    """
    if isinstance(mechanism, str) or noise is not None:
        # a name: its noise and sensitivity checked as scalars here, with their own names
        as_mechanism(mechanism, 1.0)  # an unknown name first, before any number
        check_int_range("bins", bins, 2, MAX_BINS)
        noise = check_finite_scalar("noise", noise)
        if noise <= 0:
            raise ValueError(f"noise must be > 0 and finite; got {noise!r}")
        d = check_finite_scalar("sensitivity", sensitivity)
        if d <= 0:
            raise ValueError(f"sensitivity must be > 0 and finite; got {sensitivity!r}")
        sensitivity = d
    return as_mechanism(mechanism, noise, sensitivity=sensitivity).discretise(
        width=width, bins=bins
    )


# --- inverse -----------------------------------------------------------------------------


# --- the thresholding example and the attacker's posterior ------------------------------


def thresholding_pmfs(threshold=5.0, scale=POST_LAPLACE_SCALE, count=1.0):
    """A release that can be a distinguishing event: outcomes ("released", "suppressed").

    A partition's count is released only if count + Lap(b) ≥ threshold. In D₁ the target
    is in the data and the partition has ``count`` members; in D₂ the target is absent and
    the partition does not exist, so it is never released. Every release has L = +∞:
    p = [P[count + Lap(b) ≥ T], the rest], q = [0, 1]. With the defaults
    P[release] = ½·e^{−4 ln 3} = 1/162 ≈ 0.006.

    Used in notebook 08.

    Parameters
    ----------
    threshold : float
        T: a partition is released only if count + Lap(b) ≥ T.
    %(scale)s
    count : float
        The partition's true count in D₁.

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    %(raises)s

    %(references)s

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

    Used in notebook 08.

    Parameters
    ----------
    prior : float or array_like
        The attacker's prior P[D = D₁], in (0, 1).
    loss : float or array_like
        Privacy loss L (±inf allowed, NaN refused).

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

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


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "pmfs": """\
p : array_like
    pmf of A(D₁) (1-D, non-negative, summing to 1 within ``atol``).
q : array_like
    pmf of A(D₂) on the same grid as ``p``.
atol : float
    How far a pmf's total may drift from 1.""",
    "mechanism_spec": """\
mechanism : PrivacyLoss or {'laplace', 'gaussian', 'geometric'}
    A mechanism of :mod:`helpers.mechanisms` as it is: additive noise (``Laplace(b)``,
    ``Gaussian(σ)``, ``TwoSidedGeometric(b)``) or any other privacy-loss object
    (``RandomizedResponse``, ``ExponentialMechanism``, ``Subsampled(...)``: its order whose
    δ is the larger), or a name (anything else is a ValueError, never a KeyError).
noise : float, optional
    With a name: b (laplace, geometric) or σ (gaussian), > 0. Omitted with an object.
sensitivity : float, keyword-only
    With a name: Δ > 0 (a positive integer ≤ 10⁶ for the geometric mechanism); an
    object carries its own.""",
    "references": """\
References
----------
Desfontaines, "The privacy loss random variable" (2020); Dwork & Roth (2014), §3.5.""",
    "references_gaussian": """\
References
----------
Balle & Wang, "Improving the Gaussian mechanism for differential privacy" (ICML 2018), Theorem 8.""",
}

fill_docstrings(globals(), _SECTIONS)
