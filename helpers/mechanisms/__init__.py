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
privacy), ``DiscreteGaussian(σ)`` (Canonne, Kamath & Steinke 2020: integer noise, exact
sampling; the 2020 US Census's noise), on the base :class:`AdditiveNoise` after dp-accounting's
``AdditiveNoisePrivacyLoss``: a mechanism supplies its noise (cdf, sf, log-cdf, log-density,
sampler) and the base writes the privacy loss, δ(ε) through the one hockey-stick formula
(``_numerics.log_hockey_stick``), the naive δ, the PLRV's quantiles and the binned pmfs. A
built-in mechanism overrides a step with its closed form where the generic one loses digits
(as scipy.stats distributions override ``_sf``); tests/helpers/test_mechanisms.py adds a logistic
mechanism in one class. Each class also knows what :mod:`helpers.budget` needs of its noise:
its privacy measure (pure ε or ρ-zCDP), the map between its scale and its budget, its accuracy
at a scale, whether it needs integer sensitivities, whether it is scale-free (so merging
releases is correct by construction) and its privacy-loss distribution for dp-accounting
(:meth:`AdditiveNoise.pld`). :func:`as_mechanism` turns the names of
:data:`MECHANISM_CLASSES` ("laplace", "gaussian", "geometric", "discrete_gaussian") into
objects (the one place a name is looked up).

Every function returns a Python ``float`` for scalar input and an ndarray of the broadcast
shape otherwise. Sampling functions take ``rng``: an int seed or a
``numpy.random.Generator``, so every simulation in the notebooks is reproducible.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

import numpy as np
from scipy import stats
from scipy.optimize import brentq
from scipy.special import erf, erfcx, erfinv, expit, log_ndtr, ndtr, ndtri

from ._docstrings import fill_docstrings
from ._numerics import (
    bisect_increasing,
    gallop_below,
    log_hockey_stick,
    nudge_until,
    product_at_least,
    product_minus,
    ratio_down,
    ratio_up,
    scaled_difference,
    sqrt_down,
    square_up,
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
    check_sample_shape,
)

__all__ = [
    "DISCRETE_GAUSSIAN_MAX_SIGMA",
    "MECHANISM_CLASSES",
    "AdditiveNoise",
    "DiscreteGaussian",
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
    out = make_rng(rng).laplace(loc, b, check_sample_shape(size, loc=loc, scale=b))
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
    return as_output(make_rng(rng).normal(loc, s, check_sample_shape(size, loc=loc, sigma=s)))


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

    Used in notebook 12.

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
        np.where(np.isinf(a), 1e300, a),
        size=check_sample_shape(size, scale=a),
        random_state=make_rng(rng),
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


def _check_integer_sensitivity(sensitivity, label: str = "two-sided geometric") -> int:
    """Δ of a mechanism on the integers: a positive integer ≤ 10⁶ (the message names it)."""
    value = check_finite_scalar("sensitivity", sensitivity)
    if value <= 0 or value != round(value) or value > 10**6:
        raise ValueError(
            f"sensitivity must be a positive integer up to 10**6 for the {label} "
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
    return _raise_log_delta(out, eps, a, b)


#: The margin added to ln δ of the Gaussian mechanism, in units of 2^-52: A + B·(ε + a² + b²).
#: a and b carry a relative error of an ulp or two, which ln Φ turns into an absolute error of
#: about |a|²·2^-52 in ln δ (ln Φ(a) ≈ −a²/2): at ε = 50 and δ = 1e-300 (a² + b² ≈ 2900) δ was
#: 2.7e-13 relative below the true value, and σ from it too small. Measured against mpmath
#: (60 digits) on 8,000 random (ε, σ) the error stayed below 15 + 7.5·(ε + a² + b²) ulps;
#: tests/helpers/test_mechanisms.py holds the bound with hypothesis.
_LOG_DELTA_MARGIN = (64.0, 16.0)


def _raise_log_delta(log_delta, eps, a, b) -> np.ndarray:
    """ln δ raised by the float error bound :data:`_LOG_DELTA_MARGIN` (capped at 1e-6), ≤ 0.

    Rounding toward privacy: a δ reported for a mechanism is never below its true value.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.asarray(eps) + np.asarray(a) ** 2 + np.asarray(b) ** 2
        margin = np.minimum((_LOG_DELTA_MARGIN[0] + _LOG_DELTA_MARGIN[1] * q) * 2.0**-52, 1e-6)
        margin = np.where(np.isnan(margin), 1e-6, margin)
        return np.where(np.isfinite(log_delta), np.minimum(log_delta + margin, 0.0), log_delta)


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
_ULP = 2.0**-52  # the spacing of doubles in [1, 2)


def _up(x, ulps: int = 4) -> np.ndarray:
    """x ≥ 0 raised by at least ``ulps − 1`` units in the last place (0 and inf unchanged)."""
    with np.errstate(over="ignore"):
        return np.asarray(x, dtype=float) * (1.0 + ulps * _ULP)


def _gaussian_spread(ratio: float) -> float:
    """The half-width of a Gaussian release's privacy loss from Δ/σ (for the PLD's size)."""
    return ratio * 20 + ratio**2 / 2


# the tail mass a privacy-loss distribution may cut off (dp_accounting's default)
_PLD_TAIL = 1e-15
_TINY_NOISE = 2.0**-900  # a floor for budgets and noise (far below anything meaningful)


def _grid_up(x, step: float) -> np.ndarray:
    """Each x > 0 rounded up onto the grid (1 + step)^j (equal j, equal value)."""
    x = np.asarray(x, dtype=float)
    log_base = math.log1p(step)
    j = np.ceil(np.log(x) / log_base)
    value = np.exp(j * log_base)
    j = np.where(value < x, j + 1, j)
    return np.exp(j * log_base)


@lru_cache(maxsize=4096)
def _discrete_accuracy_noise(cls, k: float, coverage: float) -> float:
    """:meth:`AdditiveNoise.accuracy_noise` of integer noise at one (⌊k⌋, c), remembered (the
    allocation's searches ask for the same few integers again and again)."""
    return float(cls._accuracy_noise_search(np.array(k), np.array(coverage)))


def _integer_quantile(excess, noise) -> np.ndarray:
    """The least integer k with excess(k) ≥ 0, for excess non-decreasing in k (vectorised).

    Galloping out from 0 by steps of about the noise parameter, then bisection on integers.
    """
    noise = np.asarray(noise, dtype=float)
    step = np.maximum(np.ceil(np.broadcast_to(noise, np.shape(excess(0.0))) * 4), 1.0)
    high = np.zeros(step.shape)
    for _ in range(2100):  # up until excess(high) ≥ 0
        short = np.asarray(excess(high)) < 0
        if not np.any(short):
            break
        high = np.where(short, high + step, high)
        step = np.where(short, step * 2, step)
    low = high - 1
    step = np.maximum(np.ceil(np.broadcast_to(noise, high.shape) * 4), 1.0)
    for _ in range(2100):  # down until excess(low) < 0
        met = np.asarray(excess(low)) >= 0
        if not np.any(met):
            break
        high = np.where(met, low, high)
        low = np.where(met, low - step, low)
        step = np.where(met, step * 2, step)
    while np.any(high - low > 1):  # excess(low) < 0 ≤ excess(high)
        mid = np.floor((low + high) / 2)
        met = np.asarray(excess(mid)) >= 0
        high, low = np.where(met, mid, high), np.where(met, low, mid)
    return high


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
    #: Z lives on the integers, and so must every sensitivity (checked, naming the class)
    discrete: ClassVar[bool] = False
    #: the privacy measure its budget is counted in: "epsilon" (pure ε-DP, the ε's add) or
    #: "zcdp" (ρ-zCDP, the ρ's add); :mod:`helpers.budget` keys composition by it
    measure: ClassVar[str] = "epsilon"
    #: the privacy loss depends on Δ/noise only (a location-scale family on ℝ): merging
    #: releases may then rescale them to noise 1 and sensitivity Δ/noise. Otherwise merging
    #: lowers the noise at the same Δ, which needs δ(ε) to fall as the noise grows
    scale_free: ClassVar[bool] = False
    #: ρ-zCDP of this noise is exactly μ-Gaussian DP with μ = √(2ρ) (the continuous Gaussian
    #: only): the power of a test between neighbours is then read on the Gaussian trade-off curve
    gaussian_dp: ClassVar[bool] = False

    def __post_init__(self) -> None:
        value = getattr(self, self.parameter)
        object.__setattr__(self, self.parameter, as_output(check_positive(self.parameter, value)))
        object.__setattr__(self, "sensitivity", self._checked_sensitivity(self.sensitivity))

    def _checked_sensitivity(self, sensitivity):
        if self.discrete:
            return _check_integer_sensitivity(sensitivity, self.label)
        return as_output(check_positive("sensitivity", sensitivity))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.parameter}={self.noise!r}, sensitivity={self.sensitivity!r})"

    @property
    def noise(self):
        """The noise parameter (b or σ), whatever the field is called."""
        return getattr(self, self.parameter)

    def noise_text(self) -> str:
        """The noise in a few words for a figure's title ("b = 0.91"; σ² for a Gaussian)."""
        return f"{self.symbol} = {self.noise:.3g}"

    def loss_text(self) -> str:
        """What bounds the privacy loss, in a sentence (for a dashboard's readout)."""
        bound = float(self.loss_bound())
        if math.isinf(bound):
            return "L is unbounded, so δ₂ > 0 for every ε"
        return f"L never exceeds {bound:.4f}: δ₁ = δ₂ = 0 from ε = {bound:.4f} on"

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

    # the noise's accuracy at a scale (the allocation of helpers.budget asks the class)

    @classmethod
    def noise_coverage(cls, noise, k):
        """P(|Z| ≤ k) for noise parameter(s) ``noise``: 1 − 2·P[Z > k] (Z symmetric)."""
        noise, k = np.broadcast_arrays(np.asarray(noise, float), np.asarray(k, float))
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            return -np.expm1(np.log(2.0) + np.asarray(cls._unit(noise).logsf(k), dtype=float))

    @classmethod
    def noise_reach(cls, noise, coverage):
        """The least k with P(|Z| ≤ k) ≥ c (an integer for a discrete Z): the ±k a noise reaches."""
        noise, c = np.broadcast_arrays(np.asarray(noise, float), np.asarray(coverage, float))
        if cls.discrete:
            return _integer_quantile(lambda k: cls.noise_coverage(noise, k) - c, noise)
        return np.asarray(cls._unit(noise).ppf((1 + c) / 2), dtype=float)

    @classmethod
    def noise_variance(cls, noise):
        """Var Z = E[Z²] = 4∫₀^∞ x·P[Z > x] dx (Gauss–Laguerre in x/noise; a class overrides
        it with its closed form, a discrete one must)."""
        if cls.discrete:
            raise NotImplementedError(f"{cls.__name__} must give its noise_variance")
        s = np.asarray(noise, dtype=float)
        t, w = np.polynomial.laguerre.laggauss(80)
        x = s[..., None] * t
        with np.errstate(under="ignore", over="ignore", invalid="ignore"):
            g = np.exp(t + np.asarray(cls._unit(s[..., None]).logsf(x), dtype=float)) * t
        return 4 * s * s * np.sum(w * g, axis=-1)

    @classmethod
    def accuracy_noise(cls, k, coverage):
        """The largest noise parameter with P(|Z| ≤ k) ≥ c, rounded down (the target holds).

        By bisection in log noise on the coverage, which falls as the noise grows; a class
        with a closed form overrides it.
        """
        k, c = np.broadcast_arrays(np.asarray(k, float), np.asarray(coverage, float))
        if cls.discrete:  # P(|Z| ≤ k) depends on ⌊k⌋ only: one search per distinct (⌊k⌋, c)
            pairs, where = np.unique(
                np.stack([np.floor(k).ravel(), c.ravel()], axis=1), axis=0, return_inverse=True
            )
            found = [_discrete_accuracy_noise(cls, float(a), float(b)) for a, b in pairs]
            return np.asarray(found, dtype=float)[where.ravel()].reshape(k.shape)
        return cls._accuracy_noise_search(k, c)

    @classmethod
    def _accuracy_noise_search(cls, k, c):
        def gap(log_noise):  # increasing in the noise: short of the target once positive
            return c - cls.noise_coverage(np.exp(log_noise), k)

        low, high = np.log(np.maximum(k, 1.0)) - 60.0, np.log(np.maximum(k, 1.0)) + 5.0
        log_noise = bisect_increasing(gap, np.full(k.shape, low), np.full(k.shape, high), "low")
        noise = np.exp(log_noise)
        return nudge_until(
            np.maximum(noise, _TINY_NOISE),
            lambda v: cls.noise_coverage(v, k) >= c,
            toward_zero=True,
        )

    @classmethod
    def budget_of(cls, sensitivity, noise):
        """The budget noise at sensitivity Δ spends, rounded up: ε = Δ/b (pure) or
        ρ = Δ²/(2σ²) (zCDP); a class whose map differs overrides this and :meth:`noise_for`."""
        ratio = ratio_up(sensitivity, noise)
        if cls.measure == "zcdp":
            return np.maximum(square_up(ratio) / 2, _TINY_NOISE)  # halving is exact
        return np.maximum(ratio, _TINY_NOISE)

    @classmethod
    def noise_for(cls, sensitivity, budget):
        """The least noise a budget allows at sensitivity Δ, rounded up (toward privacy)."""
        budget = np.maximum(np.asarray(budget, dtype=float), _TINY_NOISE)
        if cls.measure == "zcdp":
            return np.maximum(ratio_up(sensitivity, sqrt_down(2 * budget)), _TINY_NOISE)
        return np.maximum(ratio_up(sensitivity, budget), _TINY_NOISE)

    @classmethod
    def _unit(cls, noise) -> AdditiveNoise:
        """The noise alone (sensitivity 1): for its distribution, not its privacy."""
        return cls(**{cls.parameter: noise}, sensitivity=1)

    # its privacy-loss distribution for dp_accounting

    def pld(self, *, discretization=1e-4):
        """dp_accounting's pessimistic privacy-loss distribution of one release.

        Generic, from this class's own cdf and privacy-loss inverse: the loss is rounded *up*
        to a multiple of ``discretization`` (every δ read from it is an upper bound), the
        mass of L beyond the truncation (at most 10⁻¹⁵) counted as an infinite loss, built
        by ``PrivacyLossDistribution.create_from_rounded_probability`` (the noise is
        symmetric, so adding and removing a record give the same distribution). A class
        with a native constructor in dp_accounting overrides this with it.

        Examples
        --------
        >>> round(float(Laplace(1.0).pld().get_delta_for_epsilon(0.5)), 4)
        0.2212
        """
        from dp_accounting.pld import privacy_loss_distribution as pld

        h = float(check_positive("discretization", discretization))
        if np.ndim(self.noise) or np.ndim(self.sensitivity):
            raise ValueError(f"pld needs a single {self.parameter} and sensitivity; got {self!r}")
        rounded, infinity = (
            self._pld_pmf_discrete(h) if self.discrete else self._pld_pmf_continuous(h)
        )
        return pld.PrivacyLossDistribution.create_from_rounded_probability(
            rounded, infinity, h, pessimistic_estimate=True
        )

    def _pld_top(self, h: float) -> int:
        """J: the loss grid runs over −Jh .. Jh (the loss above Jh has mass below 1e-15)."""
        bound = float(self.loss_bound())
        if not math.isfinite(bound):
            bound = float(self._upper_quantile(np.array(_PLD_TAIL)))
        top = math.ceil(max(bound, h) / h)
        if top > MAX_BINS:
            raise ValueError(
                f"the privacy loss of {self!r} spans {2 * top:,} steps of {h:g} (at most "
                f"{2 * MAX_BINS:,}); use a larger discretization"
            )
        return top

    def _pld_pmf_continuous(self, h: float) -> tuple[dict, float]:
        # P[L > jh] = P[Z < x_jh] and, by symmetry (L(Δ − x) = −L(x)), P[L ≤ −jh] =
        # P[Z ≥ Δ − x_jh] = P[Z ≤ x_jh − Δ]; bucket i holds the mass of L in ((i−1)h, ih]
        top = self._pld_top(h)
        x = np.asarray(self._threshold(np.arange(top + 1) * h), dtype=float)
        finite = np.where(np.isneginf(x), 0.0, x)
        above = np.where(np.isneginf(x), 0.0, self.cdf(finite))
        below = np.where(np.isneginf(x), 0.0, self.cdf(finite - self.sensitivity))
        masses = {i: float(above[i - 1] - above[i]) for i in range(1, top + 1)}
        for i in range(top):
            masses[-i] = float(below[i] - below[i + 1])
        masses[-top] = float(below[top])
        return {i: m for i, m in masses.items() if m > 0}, float(above[top])

    def _pld_pmf_discrete(self, h: float) -> tuple[dict, float]:
        # the outputs k of A(D₁) in a window holding all but 1e-15 of the mass; L falls in k,
        # so the left tail (larger losses) is counted as infinite, the right one at the end
        d = int(self.sensitivity)
        lo = int(_integer_quantile(lambda k: self.cdf(k) - _PLD_TAIL / 2, self.noise))
        hi = int(_integer_quantile(lambda k: -self.sf(k) + _PLD_TAIL / 2, self.noise)) + d
        if hi - lo > MAX_BINS:
            raise ValueError(f"{self!r} has more than {MAX_BINS:,} likely outputs")
        k = np.arange(lo, hi + 1, dtype=float)
        p = np.asarray(self.pdf(k), dtype=float)
        p[-1] = float(self.sf(hi - 1))  # P[Z ≥ hi]: L ≤ L(hi) there
        loss = np.asarray(self._loss(k, np.zeros(k.shape)), dtype=float)
        index = np.ceil(loss / h - 1e-9 * 0).astype(np.int64)  # rounded up
        index = np.where(index * h < loss, index + 1, index)
        rounded: dict = {}
        for i, m in zip(index.tolist(), p.tolist(), strict=True):
            if m > 0:
                rounded[i] = rounded.get(i, 0.0) + m
        return rounded, float(self.cdf(lo - 1))

    def _pld_spread(self) -> float:
        """The half-width of one release's privacy loss (for the composed PLD's size)."""
        bound = float(self.loss_bound())
        return bound if math.isfinite(bound) else float(self._upper_quantile(np.array(_PLD_TAIL)))

    def _pld_width(self, times: int, h: float) -> float:
        """A rough count of the steps of h the PLD of ``times`` such releases spans."""
        return (math.sqrt(times) * 10 + 1) * 2 * self._pld_spread() / h

    @classmethod
    def _merge_parameters(cls, noise: np.ndarray, sensitivity: np.ndarray, merge: float):
        """(noise, Δ) of releases made a little *less* private, on a grid of ratio 1 + merge.

        Scale-free noise: noise 1 and Δ/noise rounded up onto the grid; otherwise the noise
        rounded down onto it at the same Δ (δ(ε) falls as the noise grows). Either way every
        release is replaced by one whose δ(ε) is at least its own: merging never lowers δ.
        """
        if cls.scale_free:
            return np.ones_like(noise), _grid_up(ratio_up(sensitivity, noise), merge)
        return 1.0 / _grid_up(ratio_up(1.0, noise), merge), sensitivity


class _LaplaceLoss:
    """The loss shared by the Laplace and the two-sided geometric noise (log density −|z|/b)."""

    def _loss(self, o, loc):
        return _additive_loss(o, loc, np.asarray(self.sensitivity, dtype=float), self._b)

    @property
    def _b(self) -> np.ndarray:
        return np.asarray(self.noise, dtype=float)

    def loss_text(self) -> str:
        bound = float(self.loss_bound())
        return f"L never exceeds Δ/b = {bound:.4f}: δ₁ = δ₂ = 0 from ε = {bound:.4f} on"

    def loss_bound(self):
        """Δ/b rounded up (the smallest double ≥ Δ/b): δ(ε) = 0 exactly from it on.

        Examples
        --------
        >>> Laplace(0.5).loss_bound()
        2.0
        """
        return as_output(_laplace_loss_bound(self._b, np.asarray(self.sensitivity, float)))

    def _threshold(self, eps):
        # L(x) = (Δ − 2·clip(x, 0, Δ))/b > ε ⇔ x < (Δ − εb)/2, for ε below Δ/b (sign exact)
        d = np.asarray(self.sensitivity, dtype=float)
        with np.errstate(over="ignore"):
            x = (d - eps * self._b) / 2
        return np.where(self._gap(eps) < 0, x, -np.inf)

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
    scale_free: ClassVar[bool] = True

    @classmethod
    def from_epsilon(cls, epsilon, *, sensitivity=1.0) -> Laplace:
        """b = Δ/ε rounded up (:func:`laplace_scale`): ε-DP, never a hair above ε."""
        return cls(laplace_scale(epsilon, sensitivity=sensitivity), sensitivity=sensitivity)

    @classmethod
    def accuracy_noise(cls, k, coverage):
        """P(|Z| > k) = e^{−k/b} ≤ 1 − c: b = k/ln(1/(1 − c)), rounded down."""
        return np.maximum(ratio_down(k, _up(-np.log1p(-np.asarray(coverage)), 4)), _TINY_NOISE)

    @classmethod
    def noise_reach(cls, noise, coverage):
        with np.errstate(over="ignore", under="ignore"):
            return noise * -np.log1p(-np.asarray(coverage))

    @classmethod
    def noise_coverage(cls, noise, k):
        with np.errstate(over="ignore", under="ignore"):
            return -np.expm1(-np.asarray(k) / noise)

    @classmethod
    def noise_variance(cls, noise):
        with np.errstate(over="ignore", under="ignore"):
            return 2 * np.asarray(noise, dtype=float) ** 2

    def pld(self, *, discretization=1e-4):
        """dp_accounting's ``from_laplace_mechanism`` (connect-the-dots, pessimistic)."""
        from dp_accounting.pld import privacy_loss_distribution as pld

        return pld.from_laplace_mechanism(
            float(self.scale),
            sensitivity=float(self.sensitivity),
            pessimistic_estimate=True,
            value_discretization_interval=float(discretization),
        )

    def _pld_spread(self) -> float:
        return float(self.sensitivity) / float(self.scale)

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
    measure: ClassVar[str] = "zcdp"
    scale_free: ClassVar[bool] = True
    gaussian_dp: ClassVar[bool] = True

    @classmethod
    def accuracy_noise(cls, k, coverage):
        """P(|Z| ≤ k) = erf(k/(σ√2)) ≥ c: σ = k/(√2·erfinv(c)), rounded down."""
        z = _up(_SQRT2 * erfinv(np.asarray(coverage, dtype=float)), 16)  # erfinv's error
        return np.maximum(ratio_down(k, z), _TINY_NOISE)

    @classmethod
    def noise_reach(cls, noise, coverage):
        with np.errstate(over="ignore", under="ignore"):
            return noise * _SQRT2 * erfinv(np.asarray(coverage, dtype=float))

    @classmethod
    def noise_coverage(cls, noise, k):
        with np.errstate(over="ignore", under="ignore"):
            return erf(np.asarray(k) / (noise * _SQRT2))

    @classmethod
    def noise_variance(cls, noise):
        with np.errstate(over="ignore", under="ignore"):
            return np.asarray(noise, dtype=float) ** 2

    def pld(self, *, discretization=1e-4):
        """dp_accounting's ``from_gaussian_mechanism`` (connect-the-dots, pessimistic)."""
        from dp_accounting.pld import privacy_loss_distribution as pld

        return pld.from_gaussian_mechanism(
            float(self.sigma),
            sensitivity=float(self.sensitivity),
            pessimistic_estimate=True,
            value_discretization_interval=float(discretization),
        )

    def _pld_spread(self) -> float:
        return _gaussian_spread(float(self.sensitivity) / float(self.sigma))

    @classmethod
    def from_epsilon(cls, epsilon, delta, *, sensitivity=1.0) -> Gaussian:
        """The smallest σ with δ₂(ε) ≤ δ, rounded up (:func:`gaussian_sigma_for_delta`)."""
        sigma = gaussian_sigma_for_delta(epsilon, delta, sensitivity=sensitivity)
        return cls(sigma, sensitivity=sensitivity)

    def noise_text(self) -> str:
        """σ² = ..., as the post says it ("noise of variance 3")."""
        return f"σ² = {self.sigma**2:.3g}"

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

    def loss_text(self) -> str:
        mu = float(self.plrv_mean())
        return f"L ~ N(μ, 2μ) with μ = Δ²/(2σ²) = {mu:.4f}: L is unbounded, so δ₂ > 0 for every ε"

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
        eps, a, _, _, _ = _gaussian_ab(eps, self._s, np.asarray(self.sensitivity, dtype=float))
        # δ₁ = Φ(a), raised by the float error of a (as δ₂ is): never below P[L > ε]
        with np.errstate(divide="ignore"):
            return np.exp(_raise_log_delta(log_ndtr(a), eps, a, 0.0))

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

    @classmethod
    def noise_variance(cls, noise):
        """2α/(1 − α)² (:func:`geometric_noise_sd` squared)."""
        with np.errstate(over="ignore", under="ignore"):
            return np.asarray(geometric_noise_sd(noise), dtype=float) ** 2

    def pld(self, *, discretization=1e-4):
        """dp_accounting's ``from_discrete_laplace_mechanism`` with a = 1/b rounded up
        (P(z) ∝ e^{−a|z|}: a larger a is less noise, pessimistic)."""
        from dp_accounting.pld import privacy_loss_distribution as pld

        return pld.from_discrete_laplace_mechanism(
            float(ratio_up(1.0, self.scale)),
            sensitivity=int(self.sensitivity),
            pessimistic_estimate=True,
            value_discretization_interval=float(discretization),
        )

    def _pld_spread(self) -> float:
        return int(self.sensitivity) * float(ratio_up(1.0, self.scale))

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

    def _upper_quantile(self, u):
        # a step function: the lumped PLRV's pmfs, sorted by decreasing ln(p/q)
        _, p, q = self.plrv_pmf()
        return _pmf_upper_quantile(u, p, q)


# --- the discrete Gaussian (Canonne, Kamath & Steinke 2020) --------------------------------
# P[Z = k] = e^{−k²/(2σ²)}/N on the integers, N = Σ_k e^{−k²/(2σ²)}. Its tails are sums of
# e^{−k²/(2σ²)}: taken in log space from the first term, whose successors fall by
# e^{−(2kj + j²)/(2σ²)}, so ⌈9.5σ⌉ + 2 terms (or fewer, deep in the tail) reach e^{−45}.

#: the largest σ the discrete Gaussian takes (its tails are sums of about 10σ terms)
DISCRETE_GAUSSIAN_MAX_SIGMA = 1e6


def _dg_log_norm(s: np.ndarray) -> np.ndarray:
    """ln N(σ): N = 1 + 2Σ_{k≥1} e^{−k²/(2σ²)} below σ = 1, else by Poisson summation
    N = σ√(2π)·(1 + 2Σ_{n≥1} e^{−2π²σ²n²}) (Poisson summation): both converge after a few terms."""
    s = np.asarray(s, dtype=float)
    with np.errstate(under="ignore", over="ignore", divide="ignore"):
        k = np.arange(1, 12)
        direct = np.log1p(2 * np.exp(-(k**2) / (2 * s[..., None] ** 2)).sum(axis=-1))
        n = np.arange(1, 4)
        theta = 2 * np.exp(-2 * math.pi**2 * s[..., None] ** 2 * n**2).sum(axis=-1)
        poisson = np.log(s) + 0.5 * math.log(2 * math.pi) + np.log1p(theta)
    return np.where(s < 1, direct, poisson)


def _dg_log_tail(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """ln Σ_{k≥m} e^{−k²/(2σ²)} for integers m ≥ 0 (unnormalised), vectorised.

    Summed in blocks of j from each first term: ln S = −m²/(2σ²) + ln Σ_j e^{−(2mj + j²)/(2σ²)};
    the block loop stops when every sum has stopped growing (its next term below 1e-20).
    """
    m, s = np.broadcast_arrays(np.asarray(m, dtype=float), np.asarray(s, dtype=float))
    shape = m.shape
    m, s = m.ravel(), s.ravel()
    total = np.ones(m.shape)  # the j = 0 term, relative to the first
    two_var = 2 * s * s
    start, block = 1, 256
    active = np.ones(m.shape, dtype=bool)
    while np.any(active):
        j = np.arange(start, start + block, dtype=float)
        idx = np.flatnonzero(active)
        with np.errstate(under="ignore"):
            terms = np.exp(-(2 * m[idx, None] * j + j * j) / two_var[idx, None])
        total[idx] += terms.sum(axis=-1)
        active[idx] = terms[:, -1] > 1e-20 * total[idx]
        start += block
        block = min(2 * block, max(1, 2**22 // max(idx.size, 1)))
    with np.errstate(over="ignore"):
        return (-(m * m) / two_var + np.log(total)).reshape(shape)


def _bernoulli_exp(num: int, den: int, rand) -> bool:
    """Bernoulli(e^{−γ}) for γ = num/den ≥ 0, exactly (CKS Algorithm 1, integer arithmetic)."""
    while num > den:  # e^{−γ} = e^{−1}·e^{−(γ − 1)}
        if not _bernoulli_exp(1, 1, rand):
            return False
        num -= den
    k = 1  # γ ≤ 1: K counts the draws A ~ Bernoulli(γ/K) until one is 0
    while rand.randrange(den * k) < num:
        k += 1
    return k % 2 == 1


def _discrete_laplace(t: int, rand) -> int:
    """P[Y = y] ∝ e^{−|y|/t} for an integer t ≥ 1 (CKS Algorithm 2 with s = 1)."""
    while True:
        u = rand.randrange(t)
        if not _bernoulli_exp(u, t, rand):
            continue
        v = 0
        while _bernoulli_exp(1, 1, rand):
            v += 1
        y = u + t * v
        negative = rand.randrange(2) == 1
        if negative and y == 0:
            continue
        return -y if negative else y


def _discrete_gaussian_draw(sigma2: Fraction, t: int, rand) -> int:
    """One draw of the discrete Gaussian of variance parameter σ² (CKS Algorithm 3)."""
    while True:
        y = _discrete_laplace(t, rand)
        gap = abs(y) - sigma2 / t
        gamma = gap * gap / (2 * sigma2)
        if _bernoulli_exp(gamma.numerator, gamma.denominator, rand):
            return y


@dataclass(frozen=True, repr=False)
class DiscreteGaussian(AdditiveNoise):
    """The discrete Gaussian mechanism: P[Z = k] ∝ e^{−k²/(2σ²)} on the integers, for an
    integer sensitivity Δ; (Δ²/(2σ²))-zCDP (Canonne, Kamath & Steinke 2020, §2), the
    noise of the 2020 US Census's TopDown algorithm (notebook 09).

    Used in notebook 08 (through :mod:`helpers.plrv`) and notebook 11's dashboard.

    Exact throughout: sampling by CKS Algorithm 3 in integer arithmetic (``Fraction``, seeded
    from the numpy Generator), δ₂(ε) = Σ_{k < x_ε} p(k)·(1 − e^{ε − L(k)}) over the integers
    with L(k) > ε, x_ε = Δ/2 − εσ²/Δ (CKS 2020, §2), summed term by term in log space; the
    normalising constant by a rapidly converging sum (:func:`_dg_log_norm`).

    Examples
    --------
    >>> round(DiscreteGaussian(1.0).delta(0.5), 6)  # Gaussian(1.0): 0.238422
    0.203983
    >>> DiscreteGaussian(2.0).sample(3, rng=0).dtype.kind
    'i'
    """

    sigma: float = 1.0

    name: ClassVar[str] = "discrete_gaussian"
    label: ClassVar[str] = "discrete Gaussian"
    parameter: ClassVar[str] = "sigma"
    symbol: ClassVar[str] = "σ"
    discrete: ClassVar[bool] = True
    measure: ClassVar[str] = "zcdp"

    def __post_init__(self) -> None:
        super().__post_init__()
        if np.any(np.asarray(self.sigma) > DISCRETE_GAUSSIAN_MAX_SIGMA):
            raise ValueError(
                f"sigma must be at most {DISCRETE_GAUSSIAN_MAX_SIGMA:g} for the discrete "
                f"Gaussian (its tails are sums of about 10σ terms); got {self.sigma!r}"
            )

    @classmethod
    def from_epsilon(cls, epsilon, delta, *, sensitivity=1) -> DiscreteGaussian:
        """The smallest σ with δ₂(ε) ≤ δ, rounded up (bisection on the exact δ₂, which falls
        as σ grows: the continuous Gaussian's σ brackets it within a factor of 2)."""
        eps = check_finite_scalar("epsilon", epsilon)
        if eps < 0:
            raise ValueError(f"epsilon must be >= 0 and finite; got {epsilon!r}")
        target = float(check_open_unit("delta", check_finite_scalar("delta", delta)))
        d = _check_integer_sensitivity(sensitivity, cls.label)
        guess = gaussian_sigma_for_delta(eps, target, sensitivity=d)

        def excess(log_sigma):
            return target - cls(float(np.exp(log_sigma)), sensitivity=d).delta(eps)

        low, high = math.log(guess) - 1.0, math.log(guess) + 1.0
        while excess(low) >= 0 and low > -700:
            low -= 1.0
        while excess(high) < 0:
            high += 1.0
        sigma = float(np.exp(bisect_increasing(excess, np.array(low), np.array(high), "high")))
        sigma = float(
            nudge_until(
                sigma,
                lambda v: np.asarray(cls(float(v), sensitivity=d).delta(eps) <= target),
                toward_zero=False,
            )
        )
        return cls(sigma, sensitivity=d)

    def noise_text(self) -> str:
        """σ² = ..., as for the continuous Gaussian."""
        return f"σ² = {self.sigma**2:.3g}"

    def loss_text(self) -> str:
        return "L(k) = Δ(Δ/2 − k)/σ² on the integers: L is unbounded, so δ₂ > 0 for every ε"

    @property
    def _s(self) -> np.ndarray:
        return np.asarray(self.sigma, dtype=float)

    def _log_lower(self, x) -> np.ndarray:
        """ln P[Z ≤ ⌊x⌋] and ln P[Z > ⌊x⌋], each without 1 − cdf's cancellation."""
        m = np.floor(check_real("x", x))
        m, s = np.broadcast_arrays(m, self._s)
        log_norm = _dg_log_norm(s)
        with np.errstate(invalid="ignore"):
            # P[Z ≤ m] = P[Z ≥ −m] (symmetry): the tail from −m for m < 0; P[Z > m] the tail
            # from m + 1 for m ≥ 0; each the complement of the other
            tail = _dg_log_tail(np.where(m < 0, -m, m + 1), s) - log_norm
            other = np.log1p(-np.exp(np.minimum(tail, 0.0)))
        return np.where(m < 0, tail, other), np.where(m < 0, other, tail)

    def cdf(self, x):
        return as_output(np.exp(self._log_lower(x)[0]))

    def sf(self, x):
        return as_output(np.exp(self._log_lower(x)[1]))

    def logcdf(self, x):
        return as_output(self._log_lower(x)[0])

    def logsf(self, x):
        return as_output(self._log_lower(x)[1])

    def logpdf(self, x):
        x = check_real("x", x)
        with np.errstate(divide="ignore", over="ignore"):
            log_p = -(x * x) / (2 * self._s * self._s) - _dg_log_norm(self._s)
        return as_output(np.where(x == np.round(x), log_p, -np.inf))

    def sample(self, size=None, *, rng):
        """Exact draws (CKS Algorithm 3), at most 10⁶ (pure Python: about 20 µs a draw)."""
        shape = check_sample_shape(size, sigma=np.asarray(self.sigma))
        count = 1 if shape is None else math.prod(np.atleast_1d(shape).tolist())
        if count > 10**6:
            raise ValueError(f"size must ask for at most 10**6 exact draws; got {size!r}")
        if np.ndim(self.sigma):
            raise ValueError(f"sample needs a single sigma; got shape {np.shape(self.sigma)}")
        rand = random.Random(int(make_rng(rng).integers(2**63)))
        sigma2 = Fraction(float(self.sigma)) ** 2
        t = math.floor(float(self.sigma)) + 1
        draws = [_discrete_gaussian_draw(sigma2, t, rand) for _ in range(count)]
        if shape is None:
            return draws[0]
        return np.array(draws, dtype=np.int64).reshape(shape)

    @classmethod
    def noise_variance(cls, noise):
        """E[Z²] = 2Σ_{k≥1} k²·p(k) (below σ², CKS 2020), summed in log space."""
        s = np.asarray(noise, dtype=float)
        out = np.empty(s.shape)
        for i, one in np.ndenumerate(s):
            k = np.arange(1, math.ceil(10 * one) + 3, dtype=float)
            with np.errstate(under="ignore"):
                out[i] = 2 * np.sum(k * k * np.exp(-(k * k) / (2 * one * one) - _dg_log_norm(one)))
        return out

    def privacy_loss(self, k, *, loc=0):
        """L(k) = Δ(Δ/2 − (k − loc))/σ² for integer outputs k.

        Examples
        --------
        >>> DiscreteGaussian(1.0).privacy_loss(2)
        -1.5
        """
        k = check_real("k", k)
        if np.any(k != np.round(k)):
            raise ValueError(f"k must hold integers (the discrete Gaussian lives on ℤ); got {k!r}")
        return super().privacy_loss(k, loc=loc)

    def _loss(self, o, loc):
        return _gaussian_loss(o, loc, np.asarray(self.sensitivity, dtype=float), self._s)

    def _threshold(self, eps):
        # L(k) = Δ(Δ/2 − k)/σ² > ε ⇔ k < Δ/2 − εσ²/Δ
        d = np.asarray(self.sensitivity, dtype=float)
        with np.errstate(over="ignore"):
            return d / 2 - eps * self._s * self._s / d

    def _delta(self, eps):
        eps, s = np.broadcast_arrays(eps, self._s)
        d = float(self.sensitivity)
        out = np.empty(eps.shape)
        for i, (e, one) in enumerate(zip(eps.ravel().tolist(), s.ravel().tolist(), strict=True)):
            out.flat[i] = _dg_delta(e, one, d)
        return out

    def _delta_naive(self, eps):
        # P[L > ε] = P[Z < x_ε] = P[Z ≤ ⌈x_ε⌉ − 1]
        x = self._threshold(eps)
        return np.asarray(self.cdf(np.ceil(x) - 1), dtype=float)

    def _upper_quantile(self, u):
        # outputs by decreasing loss are the integers upward: L at the u-quantile of Z
        k = _integer_quantile(lambda k: np.asarray(self.cdf(k)) - u, self._s)
        return self._loss(k, np.zeros(np.shape(k)))

    def plrv_pmf(self):
        """``(losses, p, q)`` over the outputs k holding all but 1e-15 of either distribution,
        k upward (losses downward); each end's tail (< 1e-15) lumped into its end outcome.

        For drawing the PLRV's steps; δ is computed exactly (:meth:`delta`), not from this.
        """
        if np.ndim(self.sigma) != 0:
            raise ValueError(
                f"sigma must be a single number here; got shape {np.shape(self.sigma)}"
            )
        d = int(self.sensitivity)
        lo = int(_integer_quantile(lambda k: self.cdf(k) - _PLD_TAIL / 2, self.sigma))
        hi = int(_integer_quantile(lambda k: -self.sf(k) + _PLD_TAIL / 2, self.sigma)) + d
        k = np.arange(lo, hi + 1, dtype=float)
        p, q = np.asarray(self.pdf(k), dtype=float), np.asarray(self.pdf(k - d), dtype=float)
        p[0], q[0] = self.cdf(lo), self.cdf(lo - d)
        p[-1], q[-1] = self.sf(hi - 1), self.sf(hi - 1 - d)
        return np.asarray(self._loss(k, np.zeros(k.shape))), p, q

    def pld(self, *, discretization=1e-4):
        """dp_accounting's ``from_discrete_gaussian_mechanism`` (pessimistic; its support
        truncated where the tail is below 1e-15, counted as infinite loss)."""
        from dp_accounting.pld import privacy_loss_distribution as pld

        return pld.from_discrete_gaussian_mechanism(
            float(self.sigma),
            sensitivity=int(self.sensitivity),
            pessimistic_estimate=True,
            value_discretization_interval=float(discretization),
        )

    def _pld_spread(self) -> float:
        return _gaussian_spread(float(self.sensitivity) / float(self.sigma))


def _dg_delta(eps: float, s: float, d: float) -> float:
    """δ₂(ε) of the discrete Gaussian: Σ_{k < x_ε} p(k)·(−expm1(ε − L(k))), term by term.

    The terms rise toward k = 0 and fall beyond it; the sum runs from ⌈x_ε⌉ − 1 down until
    they are below e^{−45} of the largest (⌈9.5σ⌉ + 2 terms past the peak at most).
    """
    top = math.ceil(d / 2 - eps * s * s / d) - 1  # the largest k with L(k) > ε
    peak = min(top, 0)
    bottom = peak - math.ceil(9.5 * s) - 2
    if top - bottom > 50_000_000:
        raise ValueError(f"δ of the discrete Gaussian at σ = {s!r}, Δ = {d!r} needs too many terms")
    log_norm = float(_dg_log_norm(np.array(s)))
    total = 0.0
    for start in range(bottom, top + 1, 1_000_000):
        k = np.arange(start, min(start + 1_000_000, top + 1), dtype=float)
        loss = d * (d / 2 - k) / (s * s)
        with np.errstate(under="ignore", over="ignore"):
            terms = np.exp(-(k * k) / (2 * s * s) - log_norm) * -np.expm1(eps - loss)
        total += math.fsum(terms.tolist())
    return min(total, 1.0)


#: the mechanisms by the names the string API of helpers.plrv takes
MECHANISM_CLASSES: dict[str, type[AdditiveNoise]] = {
    cls.name: cls for cls in (Laplace, Gaussian, TwoSidedGeometric, DiscreteGaussian)
}


def as_mechanism(mechanism, noise=None, *, sensitivity=1.0) -> AdditiveNoise:
    """A mechanism object from an object (returned as is) or a name and its noise parameter.

    ``mechanism`` is an :class:`AdditiveNoise` (then ``noise`` must be omitted and
    ``sensitivity`` left at 1: the object carries both) or a name of :data:`MECHANISM_CLASSES`
    ("laplace", "gaussian", "geometric", "discrete_gaussian") with ``noise`` its b or σ.
    Anything else is a ValueError, never a KeyError.

    Not called in a notebook; used by ``helpers.plotting.plrv``, ``helpers.plrv`` and ``helpers.widgets.plrv``.

    Parameters
    ----------
    mechanism : AdditiveNoise or str
        The mechanism, or its name in :data:`MECHANISM_CLASSES`.
    noise : float or array_like, optional
        b (laplace, geometric) or σ (gaussian, discrete_gaussian), > 0; only with a name.
    sensitivity : float, keyword-only
        Δ > 0 (a positive integer ≤ 10⁶ for integer noise); only with a name.

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
