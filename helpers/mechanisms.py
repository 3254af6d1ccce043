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

Every function returns a Python ``float`` for scalar input and an ndarray of the broadcast
shape otherwise. Sampling functions take ``rng``: an int seed or a
``numpy.random.Generator``, so every simulation in the notebooks is reproducible.
"""

from __future__ import annotations

import numpy as np
from scipy import stats
from scipy.special import expit

from ._numerics import nudge_until, product_at_least, scaled_difference
from ._validation import as_output, check_positive, check_real, check_size

__all__ = [
    "gaussian_cdf",
    "gaussian_pdf",
    "gaussian_sample",
    "gaussian_sf",
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

    Parameters
    ----------
    rng : int or numpy.random.Generator
        Seed or generator (None is refused: simulations are seeded).

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

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

    Parameters
    ----------
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

    Examples
    --------
    >>> round(laplace_noise_sd(1.0), 6)
    1.414214
    """
    return as_output(np.sqrt(2.0) * check_positive("scale", scale))


def laplace_pdf(x, loc=0.0, scale=1.0):
    """Density e^{−|x − loc|/b}/(2b) of Laplace(loc, b) (``scipy.stats.laplace``).

    Parameters
    ----------
    x : float or array_like
        Points at which to evaluate (finite).
    loc : float or array_like
        The centre of the distribution (finite).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

    Examples
    --------
    >>> laplace_pdf(0.0, scale=0.5)
    1.0
    """
    x = check_real("x", x)
    loc = check_real("loc", loc)
    b = check_positive("scale", scale)
    b = np.asarray(b)
    return as_output(stats.laplace.pdf(scaled_difference(x, loc, b)) / b)


def laplace_cdf(x, loc=0.0, scale=1.0):
    """P[X ≤ x] for X ~ Laplace(loc, b); exact in the lower tail (``scipy.stats.laplace``).

    Parameters
    ----------
    x : float or array_like
        Points at which to evaluate (finite).
    loc : float or array_like
        The centre of the distribution (finite).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

    Examples
    --------
    >>> laplace_cdf(0.0)
    0.5
    """
    x = check_real("x", x)
    loc = check_real("loc", loc)
    b = check_positive("scale", scale)
    return as_output(stats.laplace.cdf(scaled_difference(x, loc, b)))


def laplace_sf(x, loc=0.0, scale=1.0):
    """P[X > x] for X ~ Laplace(loc, b): the upper tail without 1 − cdf's cancellation.

    Parameters
    ----------
    x : float or array_like
        Points at which to evaluate (finite).
    loc : float or array_like
        The centre of the distribution (finite).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

    Examples
    --------
    >>> laplace_sf(40.0) > 0  # 1 - laplace_cdf(40.0) is 0.0
    True
    """
    x = check_real("x", x)
    loc = check_real("loc", loc)
    b = check_positive("scale", scale)
    return as_output(stats.laplace.sf(scaled_difference(x, loc, b)))


def laplace_sample(loc=0.0, scale=1.0, size=None, *, rng):
    """Draws of Laplace(loc, b) noise (numpy's generator), seeded by ``rng``.

    Parameters
    ----------
    loc : float or array_like
        The centre of the distribution (finite).
    scale : float or array_like
        Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).
    size : int or tuple of int, optional
        Number (shape) of draws, at most 10⁸.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator (None is refused: simulations are seeded).

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

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

    Parameters
    ----------
    x : float or array_like
        Points at which to evaluate (finite).
    loc : float or array_like
        The centre of the distribution (finite).
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

    Examples
    --------
    >>> round(gaussian_pdf(0.0), 6)
    0.398942
    """
    x = check_real("x", x)
    loc = check_real("loc", loc)
    s = check_positive("sigma", sigma)
    s = np.asarray(s)
    return as_output(stats.norm.pdf(scaled_difference(x, loc, s)) / s)


def gaussian_cdf(x, loc=0.0, sigma=1.0):
    """P[X ≤ x] for X ~ N(loc, σ²) (``scipy.stats.norm``).

    Parameters
    ----------
    x : float or array_like
        Points at which to evaluate (finite).
    loc : float or array_like
        The centre of the distribution (finite).
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

    Examples
    --------
    >>> gaussian_cdf(1.0, loc=1.0)
    0.5
    """
    x = check_real("x", x)
    loc = check_real("loc", loc)
    s = check_positive("sigma", sigma)
    return as_output(stats.norm.cdf(scaled_difference(x, loc, s)))


def gaussian_sf(x, loc=0.0, sigma=1.0):
    """P[X > x] for X ~ N(loc, σ²), accurate far in the upper tail (``scipy.stats.norm``).

    Parameters
    ----------
    x : float or array_like
        Points at which to evaluate (finite).
    loc : float or array_like
        The centre of the distribution (finite).
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

    Examples
    --------
    >>> gaussian_sf(10.0) > 0  # 1 - gaussian_cdf(10.0) is 0.0
    True
    """
    x = check_real("x", x)
    loc = check_real("loc", loc)
    s = check_positive("sigma", sigma)
    return as_output(stats.norm.sf(scaled_difference(x, loc, s)))


def gaussian_sample(loc=0.0, sigma=1.0, size=None, *, rng):
    """Draws of N(loc, σ²) noise, seeded by ``rng``.

    Parameters
    ----------
    loc : float or array_like
        The centre of the distribution (finite).
    sigma : float or array_like
        Standard deviation σ > 0 of the Gaussian noise.
    size : int or tuple of int, optional
        Number (shape) of draws, at most 10⁸.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator (None is refused: simulations are seeded).

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
    Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).

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

    Parameters
    ----------
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

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

    Parameters
    ----------
    k : int or array_like
        Integer outputs (for the CDF and SF any real k: the step function at ⌊k⌋).
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

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

    Parameters
    ----------
    k : int or array_like
        Integer outputs (for the CDF and SF any real k: the step function at ⌊k⌋).
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

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

    Parameters
    ----------
    k : int or array_like
        Integer outputs (for the CDF and SF any real k: the step function at ⌊k⌋).
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

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

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

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

    Parameters
    ----------
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

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

    Parameters
    ----------
    scale : float or array_like
        b > 0: P[Z = z] ∝ e^{−|z|/b}, α = e^{−1/b}; the ε-DP mechanism for sensitivity Δ
        has b = Δ/ε (:func:`geometric_scale`).

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
    Kazan & Reiter (2024), Definition 1; Ghosh, Roughgarden & Sundararajan (2012).

    Examples
    --------
    >>> round(geometric_prob_exact(1.0), 4)
    0.4621
    """
    return as_output(np.tanh(_rate(scale) / 2))
