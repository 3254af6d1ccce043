"""Noise distributions of the three mechanisms the course uses.

* Laplace(μ, b): density e^{-|x-μ|/b} / (2b). The Laplace mechanism adds it with b = Δf/ε.
* Gaussian(μ, σ): the Gaussian mechanism (approximate DP, notebook 08).
* Two-sided geometric ("discrete Laplace") with α = e^{-ε/Δ}: P[Z = z] = (1-α)/(1+α) · α^{|z|}
  on the integers. Kazan & Reiter release counts with it; its SD and its mass at zero
  (the chance the release is exact) are the utility numbers of their Tables 1 and 5.

Sampling functions take ``rng``: an int seed or a ``numpy.random.Generator``, so every
simulation in the notebooks is reproducible.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr

from ._validation import check_positive, check_real

__all__ = [
    "gaussian_cdf",
    "gaussian_pdf",
    "gaussian_sample",
    "geometric_alpha",
    "geometric_cdf",
    "geometric_noise_sd",
    "geometric_pmf",
    "geometric_prob_exact",
    "geometric_sample",
    "laplace_cdf",
    "laplace_noise_sd",
    "laplace_pdf",
    "laplace_sample",
    "laplace_scale",
    "make_rng",
]


def make_rng(rng: int | np.random.Generator | None) -> np.random.Generator:
    """A Generator from a seed (or the Generator itself). ``None`` is refused: be seeded."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, bool) or not isinstance(rng, (int, np.integer)):
        raise ValueError(f"rng must be an int seed or a numpy Generator; got {rng!r}")
    return np.random.default_rng(int(rng))


# --- Laplace -----------------------------------------------------------------------------


def laplace_scale(epsilon: float, sensitivity: float = 1.0) -> np.ndarray | float:
    """b = Δf / ε, the scale that makes the Laplace mechanism ε-DP."""
    eps = check_positive("epsilon", epsilon)
    delta_f = check_positive("sensitivity", sensitivity)
    return delta_f / eps


def laplace_noise_sd(scale: float) -> np.ndarray | float:
    """Standard deviation √2·b of Laplace noise of scale b."""
    return np.sqrt(2.0) * check_positive("scale", scale)


def laplace_pdf(x, loc=0.0, scale=1.0):
    x = check_real("x", x)
    b = check_positive("scale", scale)
    return np.exp(-np.abs(x - loc) / b) / (2 * b)


def laplace_cdf(x, loc=0.0, scale=1.0):
    x = check_real("x", x)
    b = check_positive("scale", scale)
    z = (x - loc) / b
    # two branches evaluated without overflow: exp of a non-positive number only
    return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0)), 1 - 0.5 * np.exp(-np.maximum(z, 0)))


def laplace_sample(loc=0.0, scale=1.0, size=None, *, rng):
    b = check_positive("scale", scale)
    return make_rng(rng).laplace(loc, b, size)


# --- Gaussian ----------------------------------------------------------------------------


def gaussian_pdf(x, loc=0.0, sigma=1.0):
    x = check_real("x", x)
    s = check_positive("sigma", sigma)
    z = (x - loc) / s
    return np.exp(-0.5 * z * z) / (s * np.sqrt(2 * np.pi))


def gaussian_cdf(x, loc=0.0, sigma=1.0):
    x = check_real("x", x)
    s = check_positive("sigma", sigma)
    return ndtr((x - loc) / s)


def gaussian_sample(loc=0.0, sigma=1.0, size=None, *, rng):
    s = check_positive("sigma", sigma)
    return make_rng(rng).normal(loc, s, size)


# --- two-sided geometric (discrete Laplace) ----------------------------------------------


def geometric_alpha(epsilon, sensitivity=1.0):
    """α = e^{-ε/Δ}, the ratio of successive probabilities of the two-sided geometric."""
    eps = check_positive("epsilon", epsilon)
    delta = check_positive("sensitivity", sensitivity)
    return np.exp(-eps / delta)


def _require_integers(name: str, k) -> np.ndarray:
    k = check_real(name, k)
    if np.any(k != np.round(k)):
        raise ValueError(
            f"{name} must hold integers (the geometric mechanism lives on ℤ); got {k[k != np.round(k)][:3]!r}"
        )
    return k


def geometric_pmf(k, epsilon, sensitivity=1.0):
    """P[Z = k] = (1-α)/(1+α) · α^{|k|}, integer k."""
    k = _require_integers("k", k)
    alpha = geometric_alpha(epsilon, sensitivity)
    return (1 - alpha) / (1 + alpha) * alpha ** np.abs(k)


def geometric_cdf(k, epsilon, sensitivity=1.0):
    """P[Z ≤ k] for real k (a step function)."""
    k = np.floor(check_real("k", k))
    alpha = geometric_alpha(epsilon, sensitivity)
    # P[Z ≤ k] = α^{-k}/(1+α) for k < 0 and 1 - α^{k+1}/(1+α) for k ≥ 0
    return np.where(
        k < 0, alpha ** np.abs(k) / (1 + alpha), 1 - alpha ** (np.maximum(k, 0) + 1) / (1 + alpha)
    )


def geometric_sample(epsilon, size=None, *, rng, sensitivity=1.0):
    """Two-sided geometric noise as the difference of two i.i.d. geometric counts."""
    alpha = geometric_alpha(epsilon, sensitivity)
    gen = make_rng(rng)
    # numpy's geometric counts trials (support 1, 2, ...); the difference cancels the shift
    return gen.geometric(1 - alpha, size) - gen.geometric(1 - alpha, size)


def geometric_noise_sd(epsilon, sensitivity=1.0):
    """SD of the two-sided geometric: √(2α) / (1 - α)."""
    eps = check_positive("epsilon", epsilon)
    delta = check_positive("sensitivity", sensitivity)
    alpha = np.exp(-eps / delta)
    # 1 − α as −expm1(−ε/Δ): no cancellation (and no division by zero) for tiny ε
    return np.sqrt(2 * alpha) / -np.expm1(-eps / delta)


def geometric_prob_exact(epsilon, sensitivity=1.0):
    """P[Z = 0] = (1-α)/(1+α) = tanh(ε/(2Δ)): the chance that the release equals the truth."""
    eps = check_positive("epsilon", epsilon)
    delta = check_positive("sensitivity", sensitivity)
    return np.tanh(eps / (2 * delta))  # (1 − α)/(1 + α) without cancellation for tiny ε
