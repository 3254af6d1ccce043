"""The continuous noises: Laplace (b) and Gaussian (σ), as free functions and as classes.

The free functions are the names the notebooks call (``laplace_scale``, ``laplace_cdf``,
``gaussian_sample``, ...); the classes :class:`Laplace` and :class:`Gaussian` override the
base's generic steps with their closed forms, and the Gaussian's δ keeps its digits where the
hockey-stick formula cancels (Balle & Wang 2018, Theorem 8). The loss of noise with log density
−|z|/b (:class:`_LaplaceLoss`) and the Gaussian's loss and σ for a δ serve the integer noises of
:mod:`helpers.mechanisms.discrete` too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import stats
from scipy.optimize import brentq
from scipy.special import erf, erfcx, erfinv, log_ndtr, ndtr, ndtri

from .._docstrings import fill_docstrings
from .._numerics import (
    decimals_up,
    log_hockey_stick,
    nudge_until,
    product_at_least,
    product_minus,
    ratio_down,
    scaled_difference,
)
from .._validation import (
    RULE_OPEN_UNIT,
    as_output,
    check_finite_scalar,
    check_open_unit,
    check_positive,
    check_real,
    check_sample_shape,
)
from . import _pld
from .base import _SECTIONS, _TINY_NOISE, AdditiveNoise, make_rng

__all__ = [
    "Gaussian",
    "Laplace",
    "gaussian_cdf",
    "gaussian_pdf",
    "gaussian_sample",
    "gaussian_sf",
    "gaussian_sigma_for_delta",
    "laplace_cdf",
    "laplace_noise_sd",
    "laplace_pdf",
    "laplace_sample",
    "laplace_scale",
    "laplace_sf",
]

_SQRT2 = math.sqrt(2.0)
_ULP = 2.0**-52  # the spacing of doubles in [1, 2)


def _up(x, ulps: int = 4) -> np.ndarray:
    """x ≥ 0 raised by at least ``ulps − 1`` units in the last place (0 and inf unchanged)."""
    with np.errstate(over="ignore"):
        return np.asarray(x, dtype=float) * (1.0 + ulps * _ULP)


def _gaussian_spread(ratio: float) -> float:
    """The half-width of a Gaussian release's privacy loss from Δ/σ (for the PLD's size)."""
    return ratio * 20 + ratio**2 / 2


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


# --- the numerics of the privacy loss and δ (validated arrays in, arrays out) -------------


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
    # one row per node (the nodes on the first axis): each row is contiguous, so the sum
    # below reads whole rows instead of every twelfth double
    t = c + h * _NODES.reshape((-1,) + (1,) * np.ndim(h))
    with np.errstate(over="ignore"):
        inverse_mills = math.sqrt(2 / math.pi) / erfcx(-t / _SQRT2)
    # summed node by node (a matrix product summed a batch in another order than one value,
    # so the vector and the scalars differed in the last place)
    total = np.zeros(np.shape(h))
    for weight, mills, node in zip(_WEIGHTS, inverse_mills, t, strict=True):
        total = total + weight * (mills + node)
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
    # form 3, where [b, a] is narrow beside |c| (σ ≫ Δ at ε > 0): from c and h, not a and b
    with np.errstate(invalid="ignore"):
        narrow = (h < _NARROW * np.abs(c)) & np.isfinite(c) & (h > 0)
    # each form only where it is taken (every step is element by element, so a value does
    # not depend on its neighbours): a subsampled Gaussian's PLD reads tens of thousands of
    # ε, nearly all of them narrow, and forms 1 and 2 there were thrown away
    if not np.any(narrow):  # one form everywhere (a scalar): no indexing
        out = _gaussian_log_delta_wide(eps, a, b)
    elif np.all(narrow):
        out = _gaussian_log_delta_narrow(eps, h, c, b)
    else:
        out = np.empty(eps.shape)
        wide = ~narrow
        out[wide] = _gaussian_log_delta_wide(eps[wide], a[wide], b[wide])
        out[narrow] = _gaussian_log_delta_narrow(eps[narrow], h[narrow], c[narrow], b[narrow])
    return _raise_log_delta(out, eps, a, b)


def _gaussian_log_delta_wide(eps, a, b):
    """ln δ₂ by form 1 (the hockey-stick formula in logs) or, where its bracket cancels, form 2
    (from D = Φ(a) − Φ(b)): every ε whose [b, a] is not narrow (:func:`_gaussian_log_delta`)."""
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
    return np.where(use2, log2, log1)


#: The margin added to ln δ of the Gaussian mechanism, in units of 2^-52: A + B·(ε + a² + b²).
#: a and b carry a relative error of an ulp or two, which ln Φ turns into an absolute error of
#: about |a|²·2^-52 in ln δ (ln Φ(a) ≈ −a²/2): at ε = 50 and δ = 1e-300 (a² + b² ≈ 2900) δ was
#: 2.7e-13 relative below the true value, and σ from it too small. Measured against mpmath
#: (60 digits) on 8,000 random (ε, σ) the error stayed below 15 + 7.5·(ε + a² + b²) ulps;
#: tests/helpers/mechanisms/test_continuous.py holds the bound with hypothesis.
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
    target = float(
        check_open_unit("delta", check_finite_scalar("delta", delta, rule=RULE_OPEN_UNIT))
    )
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


class _LaplaceLoss:
    """The loss shared by the Laplace and the two-sided geometric noise (log density −|z|/b)."""

    def _loss(self, o, loc):
        return _additive_loss(o, loc, np.asarray(self.sensitivity, dtype=float), self._b)

    @property
    def _b(self) -> np.ndarray:
        return np.asarray(self.noise, dtype=float)

    def loss_text(self) -> str:
        shown = decimals_up(float(self.loss_bound()), 4)  # a risk: rounded up
        return f"L never exceeds Δ/b = {shown}: δ₁ = δ₂ = 0 from ε = {shown} on"

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
    opendp: ClassVar[str | None] = "laplace"
    label: ClassVar[str] = "Laplace"
    scale_free: ClassVar[bool] = True

    @classmethod
    def from_epsilon(cls, epsilon, *, sensitivity=1.0) -> Laplace:
        """b = Δ/ε rounded up (:func:`laplace_scale`): ε-DP, never a hair above ε."""
        return cls(laplace_scale(epsilon, sensitivity=sensitivity), sensitivity=sensitivity)

    @classmethod
    def accuracy_noise(cls, k, coverage, *, sensitivity=None):
        """P(|Z| > k) = e^{−k/b} ≤ 1 − c: b = k/ln(1/(1 − c)), rounded down."""
        return np.maximum(ratio_down(k, _up(-np.log1p(-np.asarray(coverage)), 4)), _TINY_NOISE)

    @classmethod
    def noise_reach(cls, noise, coverage, *, sensitivity=None):
        with np.errstate(over="ignore", under="ignore"):
            return noise * -np.log1p(-np.asarray(coverage))

    @classmethod
    def noise_coverage(cls, noise, k, *, sensitivity=None):
        with np.errstate(over="ignore", under="ignore"):
            return -np.expm1(-np.asarray(k) / noise)

    @classmethod
    def noise_variance(cls, noise, *, sensitivity=None):
        with np.errstate(over="ignore", under="ignore"):
            return 2 * np.asarray(noise, dtype=float) ** 2

    def mean_abs(self):
        """E|Z| = b."""
        return as_output(np.broadcast_arrays(self._b, np.asarray(self.sensitivity, float))[0])

    def pld(self, *, discretization=1e-4):
        """dp_accounting's ``from_laplace_mechanism`` (connect-the-dots, pessimistic), built
        vectorised (``_pld.laplace_pld``: the same PMF without a Python call per grid point)."""
        b, sensitivity, h = self._pld_arguments(discretization)
        built = _pld.laplace_pld(b, sensitivity, h)
        return built if built is not None else self._native_pld("from_laplace_mechanism", b, h)

    def _pld_spread(self) -> float:
        return float(self.sensitivity) / float(self.scale)

    def breakpoints(self, low, high):
        """The density's kink at 0 (if in [low, high])."""
        return np.array([0.0]) if low <= 0.0 <= high else np.empty(0)

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
    opendp: ClassVar[str | None] = "gaussian"
    label: ClassVar[str] = "Gaussian"
    parameter: ClassVar[str] = "sigma"
    symbol: ClassVar[str] = "σ"
    measure: ClassVar[str] = "zcdp"
    scale_free: ClassVar[bool] = True
    gaussian_dp: ClassVar[bool] = True

    @classmethod
    def accuracy_noise(cls, k, coverage, *, sensitivity=None):
        """P(|Z| ≤ k) = erf(k/(σ√2)) ≥ c: σ = k/(√2·erfinv(c)), rounded down."""
        z = _up(_SQRT2 * erfinv(np.asarray(coverage, dtype=float)), 16)  # erfinv's error
        return np.maximum(ratio_down(k, z), _TINY_NOISE)

    @classmethod
    def noise_reach(cls, noise, coverage, *, sensitivity=None):
        with np.errstate(over="ignore", under="ignore"):
            return noise * _SQRT2 * erfinv(np.asarray(coverage, dtype=float))

    @classmethod
    def noise_coverage(cls, noise, k, *, sensitivity=None):
        with np.errstate(over="ignore", under="ignore"):
            return erf(np.asarray(k) / (noise * _SQRT2))

    @classmethod
    def noise_variance(cls, noise, *, sensitivity=None):
        with np.errstate(over="ignore", under="ignore"):
            return np.asarray(noise, dtype=float) ** 2

    def pld(self, *, discretization=1e-4):
        """dp_accounting's ``from_gaussian_mechanism`` (connect-the-dots, pessimistic), built
        vectorised (``_pld.gaussian_pld``: the same PMF without a Python call per grid point)."""
        sigma, sensitivity, h = self._pld_arguments(discretization)
        built = _pld.gaussian_pld(sigma, sensitivity, h)
        return built if built is not None else self._native_pld("from_gaussian_mechanism", sigma, h)

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

    def loss_bound(self):
        """inf: L ~ N(μ, 2μ) is unbounded, so δ₂(ε) > 0 for every ε."""
        return as_output(np.full(np.shape(self.sigma), np.inf))

    def loss_text(self) -> str:
        mu = decimals_up(float(self.plrv_mean()), 4)  # a risk: rounded up
        return f"L ~ N(μ, 2μ) with μ = Δ²/(2σ²) = {mu}: L is unbounded, so δ₂ > 0 for every ε"

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


fill_docstrings(globals(), _SECTIONS)
