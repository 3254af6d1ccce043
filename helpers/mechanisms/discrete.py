"""The integer noises: the two-sided geometric ("discrete Laplace", b) and the discrete
Gaussian (σ, Canonne, Kamath & Steinke 2020), as free functions and as classes.

Their δ is exact: sums over the integers (the geometric's Δ + 1 loss values; the discrete
Gaussian's terms in log space), and the discrete Gaussian samples exactly (CKS Algorithm 3, in
integer arithmetic). They share their loss with a continuous noise
(:mod:`helpers.mechanisms.continuous`): the geometric the Laplace's, the discrete Gaussian the
Gaussian's, whose σ for a δ also brackets its own.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import numpy as np
from scipy import stats
from scipy.special import erfcx, eval_hermite, expit

from .._docstrings import fill_docstrings
from .._numerics import bisect_increasing, nudge_until, pmf_loss_upper_quantile, ratio_up
from .._validation import (
    RULE_OPEN_UNIT,
    as_output,
    check_epsilon_grid,
    check_finite_scalar,
    check_open_unit,
    check_positive,
    check_real,
    check_sample_shape,
)
from .base import (
    _PLD_TAIL,
    _SECTIONS,
    AdditiveNoise,
    _check_integer_sensitivity,
    _integer_quantile,
    make_rng,
)
from .continuous import (
    _additive_loss,
    _gap_to_loss,
    _gaussian_loss,
    _gaussian_spread,
    _LaplaceLoss,
    _scale_for,
    gaussian_sigma_for_delta,
)

__all__ = [
    "DISCRETE_GAUSSIAN_MAX_SIGMA",
    "DiscreteGaussian",
    "TwoSidedGeometric",
    "geometric_alpha",
    "geometric_cdf",
    "geometric_noise_sd",
    "geometric_pmf",
    "geometric_prob_exact",
    "geometric_sample",
    "geometric_scale",
    "geometric_sf",
]


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
    opendp: ClassVar[str | None] = "laplace"
    label: ClassVar[str] = "two-sided geometric"
    discrete: ClassVar[bool] = True

    @classmethod
    def noise_variance(cls, noise, *, sensitivity=None):
        """2α/(1 − α)² (:func:`geometric_noise_sd` squared)."""
        cls._accuracy_delta(sensitivity)  # given (the class is not scale-free)
        with np.errstate(over="ignore", under="ignore"):
            return np.asarray(geometric_noise_sd(noise), dtype=float) ** 2

    def pld(self, *, discretization=1e-4):
        """dp_accounting's ``from_discrete_laplace_mechanism`` with a = 1/b rounded up
        (P(z) ∝ e^{−a|z|}: a larger a is less noise, pessimistic)."""
        return self._native_pld(
            "from_discrete_laplace_mechanism", float(ratio_up(1.0, self.scale)), discretization
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
        return pmf_loss_upper_quantile(u, p, q)


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


#: from this σ, and for m up to EM_MAX_T·σ√2, a tail is its Euler–Maclaurin series (below,
#: the terms are summed): the series' next term is below 1e-17 of the sum there
EM_MIN_SIGMA, EM_MAX_T = 64.0, 6.0
#: B_2j/(2j)! for j = 1..6, the Euler–Maclaurin coefficients
_EM_COEFFICIENTS = tuple(
    float(b / math.factorial(2 * j))
    for j, b in enumerate(
        (Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66),
         Fraction(-691, 2730)),
        start=1,
    )
)  # fmt: skip


def _dg_log_tail_em(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """ln Σ_{k≥m} e^{−k²/(2σ²)} by Euler–Maclaurin, for σ ≥ EM_MIN_SIGMA and t = m/(σ√2) ≤
    EM_MAX_T: S = ∫_m^∞ f + f(m)/2 − Σ_j B_2j/(2j)! f^(2j−1)(m), with f^(p)(m) =
    (−1)^p (σ√2)^−p H_p(t) e^{−t²} (H the physicists' Hermite polynomials), so
    ln S = −t² + ln(σ√(π/2)·erfcx(t) + 1/2 + Σ_j B_2j/(2j)! (σ√2)^−(2j−1) H_{2j−1}(t)).
    O(1) per value where the sum takes about 10σ terms; what the series leaves out is below
    the next term (under 1e-17 of S here) plus a part of order e^{−2π²σ²}."""
    scale = s * math.sqrt(2.0)
    t = m / scale
    inner = s * math.sqrt(math.pi / 2) * erfcx(t) + 0.5
    for j, coefficient in enumerate(_EM_COEFFICIENTS, start=1):
        inner = inner + coefficient * scale ** (1 - 2 * j) * eval_hermite(2 * j - 1, t)
    return -(t * t) + np.log(inner)


def _dg_log_tail(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """ln Σ_{k≥m} e^{−k²/(2σ²)} for integers m ≥ 0 (unnormalised), vectorised.

    Summed in blocks of j from each first term: ln S = −m²/(2σ²) + ln Σ_j e^{−(2mj + j²)/(2σ²)};
    the block loop stops when every sum has stopped growing (its next term below 1e-20). For
    σ ≥ EM_MIN_SIGMA and m ≤ EM_MAX_T·σ√2, where the sum takes thousands of terms (about 10σ;
    the accuracy searches ask for it tens of thousands of times), by the Euler–Maclaurin
    series instead (:func:`_dg_log_tail_em`), which agrees with the sum to rounding.
    """
    m, s = np.broadcast_arrays(np.asarray(m, dtype=float), np.asarray(s, dtype=float))
    shape = m.shape
    m, s = m.ravel(), s.ravel()
    series = (s >= EM_MIN_SIGMA) & (m <= EM_MAX_T * math.sqrt(2.0) * s) & (m >= 0)
    if series.any():
        out = np.empty(m.shape)
        out[series] = _dg_log_tail_em(m[series], s[series])
        rest = ~series
        if rest.any():
            out[rest] = _dg_log_tail_summed(m[rest], s[rest])
        return out.reshape(shape)
    return _dg_log_tail_summed(m, s).reshape(shape)


def _dg_log_tail_summed(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """:func:`_dg_log_tail` on flat arrays, term by term."""
    shape = m.shape
    total = np.ones(m.shape)  # the j = 0 term, relative to the first
    two_var = 2 * s * s
    start, block = 1, 256
    active = np.ones(m.shape, dtype=bool)
    while np.any(active):
        j = np.arange(start, start + block, dtype=float)
        idx = np.flatnonzero(active)
        # a σ so small that 2σ² underflows to 0 (a search's lower end) reads every term past
        # j = 0 as e^{−inf} = 0, the limit, never a warning
        with np.errstate(under="ignore", over="ignore", divide="ignore"):
            terms = np.exp(-(2 * m[idx, None] * j + j * j) / two_var[idx, None])
        total[idx] += terms.sum(axis=-1)
        active[idx] = terms[:, -1] > 1e-20 * total[idx]
        start += block
        block = min(2 * block, max(1, 2**22 // max(idx.size, 1)))
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        lead = np.where(m == 0, 0.0, -(m * m) / two_var)  # e^{−0²/0}: the j = 0 term is 1
    return (lead + np.log(total)).reshape(shape)


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
    opendp: ClassVar[str | None] = "gaussian"
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
        target = float(
            check_open_unit("delta", check_finite_scalar("delta", delta, rule=RULE_OPEN_UNIT))
        )
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

    def loss_bound(self):
        """inf: L(k) = Δ(Δ/2 − k)/σ² grows without bound as k falls."""
        return as_output(np.full(np.shape(self.sigma), np.inf))

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
    def noise_variance(cls, noise, *, sensitivity=None):
        """E[Z²] = 2Σ_{k≥1} k²·p(k) (below σ², CKS 2020), summed in log space."""
        cls._accuracy_delta(sensitivity)  # given (the class is not scale-free)
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
        return self._native_pld(
            "from_discrete_gaussian_mechanism", float(self.sigma), discretization
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


fill_docstrings(globals(), _SECTIONS)
