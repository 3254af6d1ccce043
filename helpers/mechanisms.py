"""Noise distributions of the three mechanisms the course uses.

* Laplace(μ, b): density e^{-|x-μ|/b} / (2b). The Laplace mechanism adds it with b = Δf/ε.
* Gaussian(μ, σ): the Gaussian mechanism (approximate DP, notebook 08).
* Two-sided geometric ("discrete Laplace") with α = e^{-ε/Δ}: P[Z = z] = (1-α)/(1+α) · α^{|z|}
  on the integers. Kazan & Reiter release counts with it; its SD and its mass at zero
  (the chance the release is exact) are the utility numbers of their Tables 1 and 5.

Conventions: every noise distribution here is described by its scale (b for Laplace and the
two-sided geometric, σ for the Gaussian); ε and the sensitivity Δ enter through
``laplace_scale(ε, sensitivity=Δ)`` and ``geometric_scale(ε, sensitivity=Δ)``, both Δ/ε
(for the geometric, α = e^{−1/b} = e^{−ε/Δ}, Kazan & Reiter's Definition 1; scipy's
``dlaplace`` shape a = 1/b). :mod:`helpers.plrv` uses the same scales. Densities, CDFs and survival
functions delegate to ``scipy.stats`` (``laplace``, ``norm``, ``dlaplace``) where scipy is
exact; the geometric tails are computed in closed form because ``dlaplace.sf`` is 1 − cdf.

The mechanisms as objects (notebooks 08-10; :mod:`helpers.plrv`, :mod:`helpers.deployments`,
the PLRV figures and dashboard take them): one frozen class per mechanism, ``Laplace(b)``,
``Gaussian(σ)``, ``TwoSidedGeometric(b)`` (``sensitivity=Δ``; ``from_epsilon`` rounds toward
privacy), on the base :class:`AdditiveNoise` after dp-accounting's
``AdditiveNoisePrivacyLoss``: a mechanism supplies its noise (cdf, sf, log-cdf, log-density,
sampler) and the base writes the privacy loss, δ(ε) through the one hockey-stick formula
(``_numerics.log_hockey_stick``), the naive δ, the PLRV's quantiles and the binned pmfs. A
built-in mechanism overrides a step with its closed form where the generic one loses digits
(as scipy.stats distributions override ``_sf``); tests/helpers/test_mechanisms.py adds a logistic
mechanism in one class. :func:`as_mechanism` turns the names "laplace", "gaussian",
"geometric" into objects (the one place a name is looked up).

Every function returns a Python ``float`` for scalar input and an ndarray of the broadcast
shape otherwise. Sampling functions take ``rng``: an int seed or a
``numpy.random.Generator``, so every simulation in the notebooks is reproducible.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import stats
from scipy.optimize import brentq
from scipy.special import erf, erfcx, expit, log_ndtr, ndtr, ndtri

from ._docstrings import fill_docstrings
from ._numerics import (
    bisect_increasing,
    gallop_below,
    log_hockey_stick,
    nudge_until,
    product_at_least,
    product_minus,
    scaled_difference,
)
from ._validation import (
    as_output,
    check_epsilon_grid,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
    check_size,
)

__all__ = [
    "MECHANISM_CLASSES",
    "AdditiveNoise",
    "Gaussian",
    "Laplace",
    "TwoSidedGeometric",
    "as_mechanism",
    "gaussian_cdf",
    "gaussian_pdf",
    "gaussian_sample",
    "gaussian_sf",
    "gaussian_sigma_for_delta",
    "geometric_alpha",
    "geometric_cdf",
    "geometric_noise_sd",
    "geometric_pmf",
    "geometric_prob_exact",
    "geometric_sample",
    "geometric_scale",
    "geometric_sf",
    "laplace_cdf",
    "laplace_noise_sd",
    "laplace_pdf",
    "laplace_sample",
    "laplace_scale",
    "laplace_sf",
    "make_rng",
]


def make_rng(rng: int | np.random.Generator | None) -> np.random.Generator:
    """A Generator from a seed (or the Generator itself). ``None`` is refused: be seeded.

    Used in notebooks 10 and 11.

    Parameters
    ----------
    rng : int or numpy.random.Generator
        Seed or generator (None is refused: simulations are seeded).

    Returns
    -------
    numpy.random.Generator
        ``rng`` itself if it is a Generator, else ``numpy.random.default_rng(rng)``.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> int(make_rng(0).integers(10)) == int(make_rng(0).integers(10))
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, bool) or not isinstance(rng, (int, np.integer)):
        raise ValueError(f"rng must be an int seed or a numpy Generator; got {rng!r}")
    return np.random.default_rng(int(rng))


# --- Laplace -----------------------------------------------------------------------------


def laplace_scale(epsilon, *, sensitivity=1.0):
    """b = Δf / ε, the scale that makes the Laplace mechanism ε-DP.

    Rounded toward privacy: the smallest double b with Δf/b ≤ ε in exact arithmetic (the
    quotient rounded to nearest can be one double too small, a mechanism a hair above ε).

    Used in notebook 02.

    Parameters
    ----------
    epsilon : float or array_like
        The privacy parameter, > 0.
    sensitivity : float or array_like, keyword-only
        The L1 sensitivity Δf, > 0.

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If epsilon or sensitivity is not finite and > 0.

    References
    ----------
    Dwork & Roth (2014), Theorem 3.6 (the Laplace mechanism).

    Examples
    --------
    >>> laplace_scale(0.5, sensitivity=2.0)
    4.0
    """
    eps = check_positive("epsilon", epsilon)
    delta_f = check_positive("sensitivity", sensitivity)
    return as_output(_scale_for(eps, delta_f))


def _scale_for(eps: np.ndarray, delta_f: np.ndarray) -> np.ndarray:
    """Δ/ε rounded up (toward privacy): the smallest double b with Δ/b ≤ ε exactly.

    The quotient rounded to nearest can sit one double below Δ/ε, where the mechanism's
    ε = Δ/b exceeds the target; a quotient that underflows to 0 (no noise) becomes the
    smallest positive double. Overflow gives b = inf (the correctly rounded, safe answer).
    """
    with np.errstate(over="ignore", under="ignore"):
        b = np.asarray(delta_f / eps, dtype=float)
    b = np.where(b == 0, np.nextafter(0.0, 1.0), b)
    eps, delta_f = np.broadcast_arrays(eps, delta_f)

    def private(scale):
        return np.isinf(scale) | product_at_least(
            np.where(np.isinf(scale), 1.0, scale), eps, delta_f
        )

    return nudge_until(b, private, toward_zero=False)


def laplace_noise_sd(scale):
    """Standard deviation √2·b of Laplace noise of scale b.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(scale)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_noise_sd(1.0), 6)
    1.414214
    """
    return as_output(np.sqrt(2.0) * check_positive("scale", scale))


def _standardised(x, loc, **scale) -> tuple[np.ndarray, np.ndarray]:
    """((x − loc)/scale, scale), checked: the one argument a location-scale family needs
    (``scale=b`` or ``sigma=σ``, named as the caller's parameter for its error message)."""
    ((name, value),) = scale.items()
    x = check_real("x", x)
    loc = check_real("loc", loc)
    b = np.asarray(check_positive(name, value))
    return scaled_difference(x, loc, b), b


def laplace_pdf(x, loc=0.0, scale=1.0):
    """Density e^{−|x − loc|/b}/(2b) of Laplace(loc, b) (``scipy.stats.laplace``).

    Used in notebook 02.

    Parameters
    ----------
    %(x_loc)s
    %(scale)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> laplace_pdf(0.0, scale=0.5)
    1.0
    """
    z, b = _standardised(x, loc, scale=scale)
    return as_output(stats.laplace.pdf(z) / b)


def laplace_cdf(x, loc=0.0, scale=1.0):
    """P[X ≤ x] for X ~ Laplace(loc, b); exact in the lower tail (``scipy.stats.laplace``).

    Used in notebook 02.

    Parameters
    ----------
    %(x_loc)s
    %(scale)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> laplace_cdf(0.0)
    0.5
    """
    z, _ = _standardised(x, loc, scale=scale)
    return as_output(stats.laplace.cdf(z))


def laplace_sf(x, loc=0.0, scale=1.0):
    """P[X > x] for X ~ Laplace(loc, b): the upper tail without 1 − cdf's cancellation.

    Not called in a notebook; used by ``helpers.foundations.hypothesis_testing`` and ``helpers.plrv``.

    Parameters
    ----------
    %(x_loc)s
    %(scale)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> laplace_sf(40.0) > 0  # 1 - laplace_cdf(40.0) is 0.0
    True
    """
    z, _ = _standardised(x, loc, scale=scale)
    return as_output(stats.laplace.sf(z))


def laplace_sample(loc=0.0, scale=1.0, size=None, *, rng):
    """Draws of Laplace(loc, b) noise (numpy's generator), seeded by ``rng``.

    Used in notebooks 10 and 11.

    Parameters
    ----------
    loc : float or array_like
        The centre of the distribution (finite).
    %(scale)s
    %(size_rng)s

    %(returns_sample)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> laplace_sample(0.0, 1.0, (2, 3), rng=0).shape
    (2, 3)
    """
    loc = check_real("loc", loc)
    b = check_positive("scale", scale)
    out = make_rng(rng).laplace(loc, b, check_size(size))
    return as_output(out)


# --- Gaussian ----------------------------------------------------------------------------


def gaussian_pdf(x, loc=0.0, sigma=1.0):
    """Density of N(loc, σ²) (``scipy.stats.norm``).

    Not called in a notebook; used by ``helpers.mechanisms``.

    Parameters
    ----------
    %(x_loc)s
    %(sigma)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(gaussian_pdf(0.0), 6)
    0.398942
    """
    z, s = _standardised(x, loc, sigma=sigma)
    return as_output(stats.norm.pdf(z) / s)


def gaussian_cdf(x, loc=0.0, sigma=1.0):
    """P[X ≤ x] for X ~ N(loc, σ²) (``scipy.stats.norm``).

    Not called in a notebook; used by ``helpers.mechanisms``.

    Parameters
    ----------
    %(x_loc)s
    %(sigma)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> gaussian_cdf(1.0, loc=1.0)
    0.5
    """
    z, _ = _standardised(x, loc, sigma=sigma)
    return as_output(stats.norm.cdf(z))


def gaussian_sf(x, loc=0.0, sigma=1.0):
    """P[X > x] for X ~ N(loc, σ²), accurate far in the upper tail (``scipy.stats.norm``).

    Not called in a notebook; used by ``helpers.mechanisms``.

    Parameters
    ----------
    %(x_loc)s
    %(sigma)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> gaussian_sf(10.0) > 0  # 1 - gaussian_cdf(10.0) is 0.0
    True
    """
    z, _ = _standardised(x, loc, sigma=sigma)
    return as_output(stats.norm.sf(z))


def gaussian_sample(loc=0.0, sigma=1.0, size=None, *, rng):
    """Draws of N(loc, σ²) noise, seeded by ``rng``.

    Used in notebooks 08 and 11.

    Parameters
    ----------
    loc : float or array_like
        The centre of the distribution (finite).
    %(sigma)s
    %(size_rng)s

    %(returns_sample)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> gaussian_sample(0.0, 1.0, 3, rng=0).shape
    (3,)
    """
    loc = check_real("loc", loc)
    s = check_positive("sigma", sigma)
    return as_output(make_rng(rng).normal(loc, s, check_size(size)))


# --- two-sided geometric (discrete Laplace) ----------------------------------------------
# One convention, the Laplace one: the noise is described by its scale b (α = e^{−1/b},
# scipy's dlaplace shape a = 1/b); ε and Δ enter through geometric_scale(ε, sensitivity=Δ)
# = Δ/ε, exactly as laplace_scale does for the Laplace mechanism.


def _rate(scale) -> np.ndarray:
    """scipy's dlaplace shape a = 1/b (α = e^{−a}); inf where b underflows (no noise)."""
    b = check_positive("scale", scale)
    with np.errstate(over="ignore", divide="ignore"):
        return 1.0 / b


def geometric_scale(epsilon, *, sensitivity=1.0):
    """b = Δ/ε: the scale that makes the two-sided geometric mechanism ε-DP for sensitivity Δ.

    Rounded toward privacy, as :func:`laplace_scale`: the smallest double b with Δ/b ≤ ε.

    Not called in a notebook; used by ``helpers.kazan_reiter.durham``.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    sensitivity : float, keyword-only
        Δ > 0 (an integer for counts).

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If epsilon or sensitivity is not finite and > 0.

    References
    ----------
    Kazan & Reiter (2024), Definition 1 (α = e^{−ε/Δ}).

    Examples
    --------
    >>> geometric_scale(0.5)
    2.0
    """
    eps = check_positive("epsilon", epsilon)
    delta = check_positive("sensitivity", sensitivity)
    return as_output(_scale_for(eps, delta))


def geometric_alpha(scale):
    """α = e^{−1/b}, the ratio of successive probabilities of the two-sided geometric.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> round(geometric_alpha(1.0), 6)
    0.367879
    """
    return as_output(np.exp(-_rate(scale)))


def _require_integers(name: str, k) -> np.ndarray:
    k = check_real(name, k)
    if np.any(k != np.round(k)):
        raise ValueError(
            f"{name} must hold integers (the geometric mechanism lives on ℤ); got {k[k != np.round(k)][:3]!r}"
        )
    return k


def geometric_pmf(k, scale=1.0):
    """P[Z = k] = tanh(a/2)·e^{−a|k|}, a = 1/b: (1−α)/(1+α)·α^{|k|} without cancellation.

    Delegates to ``scipy.stats.dlaplace``; (1 − α)/(1 + α) written as tanh(a/2) keeps a huge
    scale exact (it gave 0 at ε = 1e-17, b = 1e17, where the mass at 0 is 5e-18).

    Not called in a notebook; used by ``helpers.mechanisms``.

    Parameters
    ----------
    k : int or array_like
        Integer outputs (for the CDF and SF any real k: the step function at ⌊k⌋).
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> geometric_pmf(0, 1e17)
    5e-18
    """
    k = _require_integers("k", k)
    a = _rate(scale)
    with np.errstate(invalid="ignore"):
        pmf = stats.dlaplace.pmf(k, np.where(np.isinf(a), 1.0, a))
    # b ≈ 5e-324 (a = inf): no noise at all, all the mass at 0
    return as_output(np.where(np.isinf(a), (k == 0).astype(float), pmf))


def geometric_cdf(k, scale=1.0):
    """P[Z ≤ k] for real k (a step function): e^{a⌊k⌋}·expit(a) below 0, else 1 − sf.

    Not called in a notebook; used by ``helpers.kazan_reiter.durham``.

    Parameters
    ----------
    k : int or array_like
        Integer outputs (for the CDF and SF any real k: the step function at ⌊k⌋).
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> round(geometric_cdf(-1, 1.0), 6)  # α/(1+α) with α = e^{-1}
    0.268941
    """
    k = np.floor(check_real("k", k))
    a = _rate(scale)
    k, a = np.broadcast_arrays(k, a)
    # P[Z ≤ k] = α^{−k}/(1+α) = e^{a k}·expit(a) for k < 0; its mirror image for k ≥ 0
    with np.errstate(invalid="ignore"):  # 0·inf where a = inf: handled below
        low = np.exp(np.minimum(k, 0) * a) * expit(a)
        high = -np.expm1(-(np.maximum(k, 0) + 1) * a - np.log1p(np.exp(-a)))
    out = np.where(k < 0, low, high)
    # a = inf (b ≈ 5e-324): no noise at all, a step at 0
    return as_output(np.where(np.isinf(a), (k >= 0).astype(float), out))


def geometric_sf(k, scale=1.0):
    """P[Z > k] = P[Z ≤ −k − 1] (symmetry), exact in the upper tail (not 1 − cdf).

    Not called in a notebook; used by ``helpers.kazan_reiter.durham``.

    Parameters
    ----------
    k : int or array_like
        Integer outputs (for the CDF and SF any real k: the step function at ⌊k⌋).
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> geometric_sf(100, 1.0) > 0
    True
    """
    k = np.floor(check_real("k", k))
    return geometric_cdf(-k - 1, scale)


def geometric_sample(scale=1.0, size=None, *, rng):
    """Two-sided geometric noise (``scipy.stats.dlaplace.rvs``), seeded by ``rng``.

    scipy draws the difference of two i.i.d. geometric counts with success probability
    1 − α = −expm1(−a), whose law is exactly :func:`geometric_pmf` (tested by a χ² test).

    Not called in a notebook; used by ``helpers.mechanisms``.

    Parameters
    ----------
    size : int or tuple of int, optional
        Number (shape) of draws, at most 10⁸.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator.
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

    Returns
    -------
    int or numpy.ndarray
        Integer draws (``size`` gives the shape).

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> geometric_sample(1.0, 3, rng=0).dtype.kind
    'i'
    """
    a = _rate(scale)
    out = stats.dlaplace.rvs(
        np.where(np.isinf(a), 1e300, a), size=check_size(size), random_state=make_rng(rng)
    )
    return out if np.ndim(out) else int(out)


def geometric_noise_sd(scale):
    """SD of the two-sided geometric: √(2α)/(1 − α), with 1 − α = −expm1(−1/b).

    (scipy's ``dlaplace.std`` is e^a-based and returns NaN for a = 1/b above ~710.)

    Not called in a notebook; used by ``helpers.kazan_reiter.durham``.

    Parameters
    ----------
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> round(geometric_noise_sd(1.0), 4)  # √(2/e)/(1 − 1/e)
    1.357
    """
    a = _rate(scale)
    # √2·e^{−a/2}, not √(2e^{−a}): e^{−a} underflows at a ≈ 745, e^{−a/2} only at a ≈ 1490
    return as_output(np.sqrt(2.0) * np.exp(-a / 2) / -np.expm1(-a))


def geometric_prob_exact(scale):
    """P[Z = 0] = (1−α)/(1+α) = tanh(1/(2b)): the chance that the release equals the truth.

    Not called in a notebook; used by ``helpers.kazan_reiter.durham``.

    Parameters
    ----------
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> round(geometric_prob_exact(0.25), 4)
    0.964
    """
    return as_output(np.tanh(_rate(scale) / 2))


# --- the numerics of the privacy loss and δ (validated arrays in, arrays out) -------------


def _check_integer_sensitivity(sensitivity) -> int:
    value = check_finite_scalar("sensitivity", sensitivity)
    if value <= 0 or value != round(value) or value > 10**6:
        raise ValueError(
            "sensitivity must be a positive integer up to 10**6 for the geometric "
            f"mechanism (it lives on the integers); got {sensitivity!r}"
        )
    return round(value)


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


def _laplace_loss_bound(b: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Δ/b rounded up: the smallest double ≥ Δ/b (so δ(ε) = 0 exactly from it on)."""
    with np.errstate(over="ignore", under="ignore"):
        bound = np.asarray(d / b)
    # the quotient rounded to nearest may sit below Δ/b: then the next double up
    finite = ~np.isinf(bound)
    below = finite & ~product_at_least(np.where(finite, bound, 1.0), b, d)
    return np.where(below, np.nextafter(bound, np.inf), bound)


def _gap_to_loss(eps, b, d, share) -> np.ndarray:
    """ε − share·Δ/b, as (ε·b − share·Δ)/b with its sign exact (``product_minus``).

    The loss share·Δ/b rounded to a double can fall on ε while the true loss is above it,
    and then ε − fl(Δ/b) = 0 called a δ of about 1e-17 zero (δ is never under-reported).
    ``share`` (Δ − 2j)/Δ picks a value of the geometric mechanism's loss.
    """
    eps, b, d = (np.asarray(v, dtype=float) for v in (eps, b, d))
    with np.errstate(over="ignore", invalid="ignore"):
        return product_minus(eps, b, share * d) / b


def _gaussian_loss(o: np.ndarray, loc: np.ndarray, d: np.ndarray, s: np.ndarray) -> np.ndarray:
    """L(o) = μ − Δ(o − loc)/σ² = Δ(Δ/2 − (o − loc))/σ², never inf − inf."""
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
    return loss


def _gaussian_ab(eps, s, d):
    """ε, a = h + c, b = c − h and h = Δ/(2σ), c = −εσ/Δ (the centre and half-width of [b, a])."""
    eps, s, d = (np.asarray(v, dtype=float) for v in (eps, s, d))
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


def _gaussian_log_delta(eps, s, d):
    """ln δ₂(ε) of the Gaussian mechanism: the shared hockey-stick formula, and two
    cancellation-free forms where it cancels (see :meth:`Gaussian.delta`)."""
    eps, a, b, h, c = _gaussian_ab(eps, s, d)
    eps, a, b, h, c = np.broadcast_arrays(eps, a, b, h, c)
    # form 1, for δ ≪ Φ(a): the hockey-stick formula ln(Φ(a) − e^ε Φ(b)) in log space
    # (x_ε/σ = a), no underflow before e^-700; δ₂ = 0 where Φ(a) underflows (a ≈ −1e155)
    log1 = log_hockey_stick(eps, log_ndtr(a), log_ndtr(b))
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


def gaussian_sigma_for_delta(epsilon, delta, *, sensitivity=1.0):
    """Smallest σ for which the Gaussian mechanism is (ε, δ)-DP (tight analytic δ).

    δ₂ decreases strictly in σ (from 1 as σ → 0 to 0 as σ → ∞), so the answer is the root
    of ln δ₂(σ) = ln δ, found by ``scipy.optimize.brentq`` in log σ, then rounded toward
    privacy: the smallest double σ at or above the root with ``Gaussian(σ,
    sensitivity=Δ).delta(epsilon) ≤ delta`` (a root a hair below gave a δ above the
    target). Scalars only. Used by notebooks 08 and 10 (``helpers.plrv`` re-exports it).

    Used in notebook 08.

    Parameters
    ----------
    epsilon : float
        ε ≥ 0, the privacy parameter.
    delta : float
        Target δ in (0, 1).
    sensitivity : float, keyword-only
        Δ > 0, the L2 sensitivity.

    Returns
    -------
    float
        The smallest σ (scalars only: a root finder runs per value).

    %(raises)s

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
    # to the smallest double above it whose δ₂ (as Gaussian.delta computes it) meets delta
    def meets(s):
        finite = np.where(np.isinf(s), 1.0, s)
        return np.isinf(s) | (np.exp(_gaussian_log_delta(eps, finite, d)) <= target)

    return float(nudge_until(sigma, meets, toward_zero=False))


def _pmf_loss(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """ln(p/q) on a common grid: +∞ where q = 0 < p, −∞ where p = 0 (never NaN)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(p) - np.log(q)
    return np.where(p > 0, np.where(q > 0, ratio, np.inf), -np.inf)


def _pmf_upper_quantile(u: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The PLRV of pmfs (p, q) at cumulative probability u, outcomes by decreasing loss."""
    loss = _pmf_loss(p, q)
    order = np.argsort(-loss, kind="stable")
    keep = p[order] > 0
    losses, masses = loss[order][keep], p[order][keep]
    edges = np.cumsum(masses)
    index = np.minimum(np.searchsorted(edges, u, side="left"), losses.size - 1)
    return losses[index]


# --- the mechanisms as objects ----------------------------------------------------------
# One frozen class per mechanism, after dp-accounting's AdditiveNoisePrivacyLoss
# (dp_accounting/pld/privacy_loss_mechanism.py): the base class writes the privacy loss,
# δ(ε), the naive δ, the PLRV's upper quantiles and the binned pmfs once, from the noise's
# cdf, sf, log-cdf and log-density; a mechanism supplies its noise. Where the generic route
# loses digits a mechanism overrides one private step with its closed form, as a
# scipy.stats distribution overrides ``_sf`` (the Gaussian's δ starts from the same
# hockey-stick formula and switches to two cancellation-free forms where it cancels). The
# functions of helpers.plrv (notebook 08) and the figures and dashboards take these objects.

# most bins (or integer outputs) a discretisation builds
MAX_BINS = 5_000_000
_SQRT2 = math.sqrt(2.0)


@dataclass(frozen=True, kw_only=True, repr=False)
class AdditiveNoise(ABC):
    """A(D) = f(D) + Z for symmetric noise Z: A(D₁) = loc + Z against A(D₂) = loc + Δ + Z.

    The privacy loss L(o) = ln(p_{A(D₁)}(o)/p_{A(D₂)}(o)) falls as o grows, so L > ε exactly
    on the outputs below a threshold x_ε (:meth:`inverse_privacy_loss`), and

        δ₂(ε) = P[Z < x_ε] − e^ε·P[Z < x_ε − Δ]   (the hockey-stick divergence),
        δ₁(ε) = P[Z < x_ε]                         (the naive δ, P[L > ε]).

    A subclass holds its noise parameter (a dataclass field named by ``parameter``) and
    supplies :meth:`cdf`, :meth:`sf`, :meth:`logcdf`, :meth:`logpdf` and :meth:`sample` of Z
    (and :meth:`from_epsilon`); everything else is written here once. Parameters are
    validated when the object is made (a ValueError naming the field); an array parameter
    makes every method broadcast over it, as a frozen ``scipy.stats`` distribution does.

    Used by notebook 08 (through :mod:`helpers.plrv`) and by :mod:`helpers.deployments`.
    """

    sensitivity: float = 1.0

    #: the name the string API uses ("laplace", ...), a label for figures, the field that
    #: holds the noise parameter and its symbol; whether Z lives on the integers
    name: ClassVar[str] = ""
    label: ClassVar[str] = ""
    parameter: ClassVar[str] = "scale"
    symbol: ClassVar[str] = "b"
    discrete: ClassVar[bool] = False

    def __post_init__(self) -> None:
        value = getattr(self, self.parameter)
        object.__setattr__(self, self.parameter, as_output(check_positive(self.parameter, value)))
        object.__setattr__(self, "sensitivity", self._checked_sensitivity(self.sensitivity))

    def _checked_sensitivity(self, sensitivity):
        return as_output(check_positive("sensitivity", sensitivity))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.parameter}={self.noise!r}, sensitivity={self.sensitivity!r})"

    @property
    def noise(self):
        """The noise parameter (b or σ), whatever the field is called."""
        return getattr(self, self.parameter)

    # the noise Z, centred at 0: what a subclass supplies

    @classmethod
    @abstractmethod
    def from_epsilon(cls, epsilon, *args, sensitivity=1.0) -> AdditiveNoise:
        """The mechanism with the least noise that meets the privacy target."""

    @abstractmethod
    def cdf(self, x):
        """P[Z ≤ x]."""

    @abstractmethod
    def sf(self, x):
        """P[Z > x], without 1 − cdf's cancellation."""

    @abstractmethod
    def logcdf(self, x):
        """ln P[Z ≤ x], finite far into the lower tail."""

    @abstractmethod
    def logpdf(self, x):
        """ln of the density (of the pmf for a discrete Z)."""

    @abstractmethod
    def sample(self, size=None, *, rng):
        """Draws of Z (``size`` gives the shape), seeded by ``rng``."""

    def logsf(self, x):
        """ln P[Z > x] = ln P[Z < −x] (Z symmetric and continuous)."""
        return self.logcdf(-check_real("x", x))

    def pdf(self, x):
        """The density (the pmf for a discrete Z)."""
        return as_output(np.exp(self.logpdf(x)))

    def ppf(self, u):
        """The u-quantile of Z, by bisection on the cdf (a subclass may give a closed form)."""
        u = check_open_unit("u", u)
        if self.discrete:
            raise NotImplementedError(f"{type(self).__name__} gives no ppf")
        reach = np.array(np.broadcast_arrays(np.asarray(self.noise, dtype=float), u)[0])
        largest = np.finfo(float).max
        for _ in range(2100):  # gallop until cdf(−reach) < u < cdf(reach)
            ok = (np.asarray(self.cdf(-reach)) < u) & (np.asarray(self.cdf(reach)) > u)
            if np.all(ok | (reach >= largest)):
                break
            with np.errstate(over="ignore"):
                reach = np.where(ok, reach, np.minimum(2 * reach, largest))
        return as_output(bisect_increasing(lambda x: self.cdf(x) - u, -reach, reach))

    # the privacy loss and δ, written once

    def privacy_loss(self, o, *, loc=0.0):
        """L(o) = ln(p(o − loc)/p(o − loc − Δ)): the loss of output o (A(D₁) centred at loc).

        Examples
        --------
        >>> Laplace(1.0).privacy_loss(999.0, loc=1000.0)
        1.0
        """
        o = check_real("o", o)
        loc = check_real("loc", loc)
        return as_output(self._loss(o, loc))

    def _loss(self, o: np.ndarray, loc: np.ndarray) -> np.ndarray:
        x = o - loc
        with np.errstate(invalid="ignore"):
            return np.asarray(self.logpdf(x) - self.logpdf(x - self.sensitivity))

    def loss_bound(self):
        """sup L, the mechanism's ε as a pure-DP mechanism (inf when L is unbounded).

        The base class does not know it and says inf; a subclass whose loss is bounded
        overrides this (the generic δ does not need it).
        """
        return as_output(np.full(np.shape(self.noise), np.inf))

    def inverse_privacy_loss(self, epsilon):
        """x_ε: L(o) > ε exactly for o − loc < x_ε (−inf where no output's loss exceeds ε).

        By bisection on ε − L, which rises with the output: a subclass with a closed form
        overrides it.
        """
        eps = check_nonnegative("epsilon", epsilon)
        return as_output(self._threshold(eps))

    def _threshold(self, eps: np.ndarray) -> np.ndarray:
        noise, d = np.asarray(self.noise, dtype=float), np.asarray(self.sensitivity, dtype=float)
        eps, noise, d = np.broadcast_arrays(eps, noise, d)
        zero = np.zeros(eps.shape)

        def gap(x):
            return eps - self._loss(x, zero)

        # L(Δ/2) = 0 ≤ ε for symmetric noise: the upper end; the lower one gallops down
        high = 0.5 * d
        low, found = gallop_below(gap, high - noise - d, high)
        # where no output's loss exceeds ε the bracket is moot (the answer is −inf)
        x = bisect_increasing(gap, np.where(found, low, high - 1.0), high)
        return np.where(found, x, -np.inf)

    def delta(self, epsilon):
        """Tight δ₂(ε) = E[max(0, 1 − e^{ε − L})]: the smallest δ for (ε, δ)-DP.

        Examples
        --------
        >>> round(Laplace(1.0).delta(0.5), 6)
        0.221199
        """
        return as_output(self._delta(self._epsilon(epsilon)))

    def delta_naive(self, epsilon):
        """Naive δ₁(ε) = P[L > ε]: how often the loss exceeds ε.

        Examples
        --------
        >>> round(Laplace(1.0).delta_naive(0.5), 6)
        0.6106
        """
        return as_output(self._delta_naive(self._epsilon(epsilon)))

    def profile(self, epsilon):
        """(δ₁(ε), δ₂(ε)): the naive and the tight δ (the privacy profile is ε ↦ δ₂).

        Examples
        --------
        >>> tuple(round(d, 6) for d in Gaussian(3 ** 0.5).profile(math.log(3)))
        (0.053245, 0.010624)
        """
        return self.delta_naive(epsilon), self.delta(epsilon)

    def _epsilon(self, epsilon) -> np.ndarray:
        return check_nonnegative("epsilon", epsilon)

    def _delta(self, eps: np.ndarray) -> np.ndarray:
        """The hockey-stick divergence at the threshold, through the one log-space formula."""
        x = self._threshold(eps)
        with np.errstate(invalid="ignore"):
            log_p = np.asarray(self.logcdf(np.where(np.isneginf(x), 0.0, x)), dtype=float)
            log_q = np.asarray(
                self.logcdf(np.where(np.isneginf(x), 0.0, x - self.sensitivity)), dtype=float
            )
        log_p = np.where(np.isneginf(x), -np.inf, log_p)
        return np.exp(log_hockey_stick(eps, log_p, log_q))

    def _delta_naive(self, eps: np.ndarray) -> np.ndarray:
        x = self._threshold(eps)
        return np.where(np.isneginf(x), 0.0, self.cdf(np.where(np.isneginf(x), 0.0, x)))

    def upper_quantile(self, u):
        """L at cumulative probability u, the outputs sorted by decreasing loss.

        Examples
        --------
        >>> round(Gaussian(1.0).upper_quantile(0.3), 6)
        1.024401
        """
        u = check_open_unit("u", u)
        return as_output(self._upper_quantile(u))

    def _upper_quantile(self, u: np.ndarray) -> np.ndarray:
        # L falls as the output grows: the upper u-quantile of L is L at the u-quantile of Z
        return self._loss(np.asarray(self.ppf(u), dtype=float), np.zeros(np.shape(u)))

    def discretise(self, *, width=None, bins=20_001):
        """``(edges, p, q)``: the masses of A(D₁) and A(D₂) on bins, tails at both ends.

        ``edges`` has bins + 1 finite points over −width .. Δ + width (default 40 noise
        parameters); the two tails (−∞, first edge) and (last edge, ∞) are extra outcomes
        at the ends of p and q. A discrete Z is binned on its integers (exact pmfs).

        Examples
        --------
        >>> edges, p, q = Laplace(1.0).discretise(bins=101)
        >>> edges.size, p.size, round(float(p.sum()), 12)
        (102, 103, 1.0)
        """
        n = check_int_range("bins", bins, 2, MAX_BINS)
        if np.ndim(self.noise) or np.ndim(self.sensitivity):
            raise ValueError(
                f"discretise needs a single {self.parameter} and sensitivity; got shapes "
                f"{np.shape(self.noise)} and {np.shape(self.sensitivity)}"
            )
        noise, d = float(self.noise), float(self.sensitivity)
        half = 40 * noise if width is None else check_finite_scalar("width", width)
        if not math.isfinite(2 * half + d):  # the grid's span (its step overflowed: NaN edges)
            raise ValueError(
                f"noise = {noise!r} (or width) with sensitivity = {d!r} gives an output grid "
                "beyond the largest float; give a smaller noise or width"
            )
        if half <= 0:
            raise ValueError(f"width must be > 0 and finite; got {width!r}")
        return self._discretise(half, n, d)

    def _discretise(self, half: float, n: int, d):
        if self.discrete:
            d = int(d)
            n_outputs = 2 * math.ceil(half) + d + 1
            if n_outputs > MAX_BINS:
                raise ValueError(
                    f"the {self.label} mechanism over loc ± width needs {n_outputs} integer "
                    f"outputs (width = {half:g}, sensitivity = {d}); at most {MAX_BINS} are "
                    "allowed: give a smaller width (or noise)"
                )
            k = np.arange(-math.ceil(half), d + math.ceil(half) + 1)
            edges = np.concatenate([[k[0] - 0.5], k + 0.5])
            centres = (0.0, float(d))
        else:
            edges = np.linspace(-half, d + half, n + 1)
            centres = (0.0, d)

        def masses(loc):
            # left of the centre, differences of the CDF; right of it, of the survival
            # function: neither subtracts two numbers near 1, so no tail mass below 1e-16
            # is lost
            c, s = self.cdf(edges - loc), self.sf(edges - loc)
            inner = np.where(edges[1:] <= loc, np.diff(c), -np.diff(s))
            return np.concatenate([[c[0]], inner, [s[-1]]])

        return edges, masses(centres[0]), masses(centres[1])


class _LaplaceLoss:
    """The loss shared by the Laplace and the two-sided geometric noise (log density −|z|/b)."""

    def _loss(self, o, loc):
        return _additive_loss(o, loc, np.asarray(self.sensitivity, dtype=float), self._b)

    @property
    def _b(self) -> np.ndarray:
        return np.asarray(self.noise, dtype=float)

    def loss_bound(self):
        """Δ/b rounded up (the smallest double ≥ Δ/b): δ(ε) = 0 exactly from it on.

        Examples
        --------
        >>> Laplace(0.5).loss_bound()
        2.0
        """
        return as_output(_laplace_loss_bound(self._b, np.asarray(self.sensitivity, float)))

    def _gap(self, eps, share=1.0):
        """ε − share·Δ/b with its sign exact (:func:`_gap_to_loss`)."""
        return _gap_to_loss(eps, self._b, np.asarray(self.sensitivity, dtype=float), share)


@dataclass(frozen=True, repr=False)
class Laplace(_LaplaceLoss, AdditiveNoise):
    """The Laplace mechanism: Z ~ Laplace(0, b), ε-DP for b = Δ/ε (notebooks 01-08).

    Closed forms (Desfontaines 2020): L is (|x − Δ| − |x|)/b, in [−Δ/b, Δ/b]; with
    c = e^{(ε − Δ/b)/2}, δ₂ = 1 − c and δ₁ = 1 − c/2 below Δ/b, both 0 from Δ/b on.

    Examples
    --------
    >>> Laplace.from_epsilon(0.5, sensitivity=2.0)
    Laplace(scale=4.0, sensitivity=2.0)
    >>> round(Laplace(1.0).delta(0.5), 6)
    0.221199
    """

    scale: float = 1.0

    name: ClassVar[str] = "laplace"
    label: ClassVar[str] = "Laplace"

    @classmethod
    def from_epsilon(cls, epsilon, *, sensitivity=1.0) -> Laplace:
        """b = Δ/ε rounded up (:func:`laplace_scale`): ε-DP, never a hair above ε."""
        return cls(laplace_scale(epsilon, sensitivity=sensitivity), sensitivity=sensitivity)

    def cdf(self, x):
        return laplace_cdf(x, 0.0, self.scale)

    def sf(self, x):
        return laplace_sf(x, 0.0, self.scale)

    def pdf(self, x):
        return laplace_pdf(x, 0.0, self.scale)

    def logcdf(self, x):
        x = check_real("x", x)
        return as_output(stats.laplace.logcdf(scaled_difference(x, 0.0, self._b)))

    def logpdf(self, x):
        x = check_real("x", x)
        return as_output(stats.laplace.logpdf(scaled_difference(x, 0.0, self._b)) - np.log(self._b))

    def ppf(self, u):
        return as_output(stats.laplace.ppf(check_open_unit("u", u)) * self._b)

    def sample(self, size=None, *, rng):
        return laplace_sample(0.0, self.scale, size, rng=rng)

    def _delta(self, eps):
        gap = self._gap(eps)
        return np.where(gap < 0, -np.expm1(np.minimum(gap, 0.0) / 2), 0.0)

    def _delta_naive(self, eps):
        gap = self._gap(eps)
        return np.where(gap < 0, 1 - 0.5 * np.exp(np.minimum(gap, 0.0) / 2), 0.0)

    def _upper_quantile(self, u):
        # clip(Δ/b + 2 ln(2(1 − u)), −Δ/b, Δ/b): L = Δ/b on the first half
        bound = self.loss_bound()
        return np.clip(bound + 2 * (np.log(2) + np.log1p(-u)), -bound, bound)


@dataclass(frozen=True, repr=False)
class Gaussian(AdditiveNoise):
    """The Gaussian mechanism: Z ~ N(0, σ²), (ε, δ)-DP (notebooks 08-11).

    L ~ N(μ, 2μ) with μ = Δ²/(2σ²); with a = Δ/(2σ) − εσ/Δ and b = −Δ/(2σ) − εσ/Δ,
    δ₁ = Φ(a) and δ₂ = Φ(a) − e^ε Φ(b) (Balle & Wang 2018, Theorem 8).

    Examples
    --------
    >>> round(Gaussian(1.0).delta(1.0), 6)
    0.126937
    >>> round(Gaussian.from_epsilon(1.0, 1e-5).sigma, 6)
    3.730632
    """

    sigma: float = 1.0

    name: ClassVar[str] = "gaussian"
    label: ClassVar[str] = "Gaussian"
    parameter: ClassVar[str] = "sigma"
    symbol: ClassVar[str] = "σ"

    @classmethod
    def from_epsilon(cls, epsilon, delta, *, sensitivity=1.0) -> Gaussian:
        """The smallest σ with δ₂(ε) ≤ δ, rounded up (:func:`gaussian_sigma_for_delta`)."""
        sigma = gaussian_sigma_for_delta(epsilon, delta, sensitivity=sensitivity)
        return cls(sigma, sensitivity=sensitivity)

    @property
    def _s(self) -> np.ndarray:
        return np.asarray(self.sigma, dtype=float)

    def cdf(self, x):
        return gaussian_cdf(x, 0.0, self.sigma)

    def sf(self, x):
        return gaussian_sf(x, 0.0, self.sigma)

    def pdf(self, x):
        return gaussian_pdf(x, 0.0, self.sigma)

    def logcdf(self, x):
        x = check_real("x", x)
        return as_output(log_ndtr(scaled_difference(x, 0.0, self._s)))

    def logpdf(self, x):
        x = check_real("x", x)
        return as_output(stats.norm.logpdf(scaled_difference(x, 0.0, self._s)) - np.log(self._s))

    def ppf(self, u):
        return as_output(ndtri(check_open_unit("u", u)) * self._s)

    def sample(self, size=None, *, rng):
        return gaussian_sample(0.0, self.sigma, size, rng=rng)

    def plrv_mean(self):
        """μ = Δ²/(2σ²): L ~ N(μ, 2μ).

        Examples
        --------
        >>> Gaussian(1.0).plrv_mean()
        0.5
        """
        d = np.asarray(self.sensitivity, dtype=float)
        return as_output(d * d / (2 * self._s * self._s))

    def _loss(self, o, loc):
        return _gaussian_loss(o, loc, np.asarray(self.sensitivity, dtype=float), self._s)

    def _threshold(self, eps):
        # L(o) = μ − Δ·o/σ² > ε ⇔ o < Δ/2 − εσ²/Δ
        d = np.asarray(self.sensitivity, dtype=float)
        with np.errstate(over="ignore"):
            return d / 2 - eps * self._s * self._s / d

    def _delta(self, eps):
        return np.exp(_gaussian_log_delta(eps, self._s, np.asarray(self.sensitivity, float)))

    def _delta_naive(self, eps):
        _, a, _, _, _ = _gaussian_ab(eps, self._s, np.asarray(self.sensitivity, dtype=float))
        return ndtr(a)

    def _upper_quantile(self, u):
        mu = np.asarray(self.plrv_mean())
        return mu - np.sqrt(2 * mu) * ndtri(u)


@dataclass(frozen=True, repr=False)
class TwoSidedGeometric(_LaplaceLoss, AdditiveNoise):
    """The two-sided geometric ("discrete Laplace") mechanism on the integers: P[Z = z] ∝
    e^{−|z|/b}, ε-DP for b = Δ/ε with an integer Δ (Kazan & Reiter's counts; notebook 08).

    δ is exact: the PLRV takes the Δ + 1 values (Δ − 2j)/b (:meth:`plrv_pmf`), and
    δ₂ = Σ_j p_j·(1 − e^{ε − L_j}) over L_j > ε, each term from −expm1 of the exact ε − L_j.

    Examples
    --------
    >>> round(TwoSidedGeometric(1.0).delta(0.5), 6)
    0.287649
    """

    scale: float = 1.0

    name: ClassVar[str] = "geometric"
    label: ClassVar[str] = "two-sided geometric"
    discrete: ClassVar[bool] = True

    def _checked_sensitivity(self, sensitivity):
        return _check_integer_sensitivity(sensitivity)

    @classmethod
    def from_epsilon(cls, epsilon, *, sensitivity=1) -> TwoSidedGeometric:
        """b = Δ/ε rounded up (:func:`geometric_scale`)."""
        return cls(geometric_scale(epsilon, sensitivity=sensitivity), sensitivity=sensitivity)

    def cdf(self, x):
        return geometric_cdf(x, self.scale)

    def sf(self, x):
        return geometric_sf(x, self.scale)

    def pdf(self, x):
        return geometric_pmf(x, self.scale)

    def logcdf(self, x):
        with np.errstate(divide="ignore"):
            return as_output(np.log(geometric_cdf(x, self.scale)))

    def logsf(self, x):
        with np.errstate(divide="ignore"):
            return as_output(np.log(geometric_sf(x, self.scale)))

    def logpdf(self, x):
        with np.errstate(divide="ignore"):
            return as_output(np.log(geometric_pmf(x, self.scale)))

    def sample(self, size=None, *, rng):
        return geometric_sample(self.scale, size, rng=rng)

    def privacy_loss(self, k, *, loc=0):
        """L(k) = (|k − loc − Δ| − |k − loc|)/b for integer outputs k.

        Examples
        --------
        >>> TwoSidedGeometric(1.0).privacy_loss(2)
        -1.0
        """
        k = check_real("k", k)
        if np.any(k != np.round(k)):
            raise ValueError(
                f"k must hold integers (the geometric mechanism lives on ℤ); got {k!r}"
            )
        loc = check_real("loc", loc)
        return as_output(_additive_loss(k, loc, float(self.sensitivity), self._b))

    def plrv_pmf(self):
        """``(losses, p, q)``: the PLRV's values (Δ − 2j)/b, j = 0..Δ, and their masses.

        L(k) depends on k only through min(max(k, 0), Δ), so the outputs k ≤ 0 (all with
        L = Δ/b) and k ≥ Δ (all with L = −Δ/b) are lumped into one outcome each; lumping
        outcomes that share a likelihood ratio changes no δ, so this is exact.

        Examples
        --------
        >>> TwoSidedGeometric(1.0, sensitivity=2).plrv_pmf()[0].tolist()
        [2.0, 0.0, -2.0]
        """
        if np.ndim(self.scale) != 0:
            raise ValueError(
                f"scale must be a single number here; got shape {np.shape(self.scale)}"
            )
        b, d = float(self.scale), self.sensitivity
        j = np.arange(d + 1)
        # P[Z ≤ 0], P[Z = j] (0 < j < Δ), P[Z ≥ Δ]
        p = geometric_pmf(j, b)
        p[0] = geometric_cdf(0, b)
        p[-1] = geometric_sf(d - 1, b)  # P[Z ≥ Δ], exact in the tail (not 1 − cdf)
        # D₂: Z' = k − Δ, so P[Z' ≤ −Δ], P[Z' = j − Δ], P[Z' ≥ 0]
        q = geometric_pmf(j - d, b)
        q[0] = geometric_cdf(-d, b)
        q[-1] = geometric_sf(-1, b)
        with np.errstate(over="ignore"):  # b ≈ 5e-324: the losses are ±inf (and 0 at j = Δ/2)
            losses = (d - 2 * j) / b
        return losses, p, q

    def _epsilon(self, epsilon):
        _, p, _ = self.plrv_pmf()
        return check_epsilon_grid(epsilon, p.size)

    def _gaps(self, eps):
        """ε − L_j for every loss value (sign exact) and the masses p_j."""
        _, p, _ = self.plrv_pmf()
        d = self.sensitivity
        share = (d - 2 * np.arange(d + 1)) / d  # exact: (Δ − 2j)·Δ/Δ is an integer below 2e6
        gap = _gap_to_loss(eps[..., None], float(self.scale), d, share)
        return gap, p

    def _delta(self, eps):
        gap, p = self._gaps(eps)
        # Σ p_j·max(0, 1 − e^{ε − L_j}) with ε − L_j from the exact losses L_j = (Δ − 2j)/b,
        # not Σ max(0, p_j − e^ε q_j): at a large scale p_j and e^ε q_j are two masses near ½
        # whose difference was lost (δ₂ = 0 at b = 1e17, where it is 5e-18)
        return (p * -np.expm1(np.minimum(gap, 0.0))).sum(axis=-1)

    def _delta_naive(self, eps):
        gap, p = self._gaps(eps)
        # the exact loss values (not ln p − ln q), so that ε = Δ/b counts nothing, as for Laplace
        return np.where(gap < 0, p, 0.0).sum(axis=-1)

    def _threshold(self, eps):
        raise NotImplementedError("the geometric mechanism's δ is exact from its PLRV's pmf")

    def _upper_quantile(self, u):
        # a step function: the lumped PLRV's pmfs, sorted by decreasing ln(p/q)
        _, p, q = self.plrv_pmf()
        return _pmf_upper_quantile(u, p, q)


#: the mechanisms by the names the string API of helpers.plrv takes
MECHANISM_CLASSES: dict[str, type[AdditiveNoise]] = {
    cls.name: cls for cls in (Laplace, Gaussian, TwoSidedGeometric)
}


def as_mechanism(mechanism, noise=None, *, sensitivity=1.0) -> AdditiveNoise:
    """A mechanism object from an object (returned as is) or a name and its noise parameter.

    ``mechanism`` is an :class:`AdditiveNoise` (then ``noise`` must be omitted and
    ``sensitivity`` left at 1: the object carries both) or one of "laplace", "gaussian",
    "geometric" with ``noise`` its b or σ. Anything else is a ValueError, never a KeyError.

    Not called in a notebook; used by ``helpers.plotting.plrv``, ``helpers.plrv`` and ``helpers.widgets.plrv``.

    Parameters
    ----------
    mechanism : AdditiveNoise or {'laplace', 'gaussian', 'geometric'}
        The mechanism, or its name.
    noise : float or array_like, optional
        b (laplace, geometric) or σ (gaussian), > 0; only with a name.
    sensitivity : float, keyword-only
        Δ > 0 (a positive integer ≤ 10⁶ for the geometric mechanism); only with a name.

    Returns
    -------
    AdditiveNoise

    Raises
    ------
    ValueError
        For an unknown mechanism, a noise given with an object, or a bad parameter.

    References
    ----------
    dp-accounting, ``privacy_loss_mechanism.AdditiveNoisePrivacyLoss``.

    Examples
    --------
    >>> as_mechanism("laplace", 2.0)
    Laplace(scale=2.0, sensitivity=1.0)
    """
    if isinstance(mechanism, AdditiveNoise):
        if noise is not None or not (isinstance(sensitivity, (int, float)) and sensitivity == 1.0):
            raise ValueError(
                "give noise and sensitivity to the mechanism object itself, not beside it; "
                f"got noise = {noise!r}, sensitivity = {sensitivity!r} with {mechanism!r}"
            )
        return mechanism
    if not isinstance(mechanism, str) or mechanism not in MECHANISM_CLASSES:
        raise ValueError(
            f"mechanism must be one of {tuple(MECHANISM_CLASSES)} or an AdditiveNoise object "
            f"(helpers.mechanisms); got {mechanism!r}"
        )
    return MECHANISM_CLASSES[mechanism](noise, sensitivity=sensitivity)


#: this module's shared docstring sections (helpers/_docstrings.py fills them at import)
_SECTIONS = {
    "references": """\
References
----------
Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).""",
    "x_loc": """\
x : float or array_like
    Points at which to evaluate (finite).
loc : float or array_like
    The centre of the distribution (finite).""",
    "size_rng": """\
size : int or tuple of int, optional
    Number (shape) of draws, at most 10⁸.
rng : int or numpy.random.Generator, keyword-only
    Seed or generator (None is refused: simulations are seeded).""",
    "returns_sample": """\
Returns
-------
float or numpy.ndarray
    A Python float when ``size`` is None and the parameters are scalars, else an
    array (of shape ``size`` when given).""",
}

fill_docstrings(globals(), _SECTIONS)
