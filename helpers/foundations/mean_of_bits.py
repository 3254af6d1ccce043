"""The survey's mean of n bits with Laplace noise: scale, variance, releases and tails."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .._docstrings import fill_docstrings
from .._numerics import float_up
from .._validation import (
    as_output,
    check_int_range,
    check_nonnegative,
    check_positive,
    check_real,
    check_sample_shape,
    check_scalar,
)
from ..mechanisms import laplace_scale, make_rng
from ._checks import _check_closed_unit, _check_n

__all__ = [
    "chebyshev_bound",
    "laplace_tail_probability",
    "mean_of_bits_error_tail",
    "mean_of_bits_release",
    "mean_of_bits_scale",
    "mean_of_bits_variance",
]


# --- mean of n bits with Laplace noise -------------------------------------------------


def mean_of_bits_scale(n: int, epsilon) -> np.ndarray | float:
    """b = Δ/ε = 1/(nε): the Laplace scale for the mean of n bits (Δ = 1/n).

    Used in notebook 00.

    Parameters
    ----------
    n : int
        Number of people / respondents, a positive integer.
    %(epsilon)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(mean_of_bits_scale(10, 1.0), 6)
    0.1
    """
    n = _check_n(n)
    # Δ = 1/n rounded up (a Δ one double too small would under-noise), then b = Δ/ε rounded
    # up by laplace_scale: 1/(n·b) ≤ ε holds exactly
    return as_output(laplace_scale(epsilon, sensitivity=float_up(Fraction(1, n))))


def mean_of_bits_variance(n: int, epsilon) -> np.ndarray | float:
    """Var[p̂] = Var[Laplace(b)] = 2b² = 2/(ε²n²).

    The survey prints 1/(ε²n²), which drops the factor 2 of the Laplace variance 2b² that
    the same slides state a few pages earlier.

    Used in notebook 00.

    Parameters
    ----------
    n : int
        Number of people / respondents, a positive integer.
    %(epsilon)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(mean_of_bits_variance(10, 1.0), 6)
    0.02
    """
    b = mean_of_bits_scale(n, epsilon)
    return as_output(2.0 * b * b)


def mean_of_bits_release(x, epsilon, size=None, *, rng):
    """p̂ = (1/n) Σ x_i + Laplace(1/(nε)) for a vector x of bits; ``size`` draws at once.

    Used in notebook 00.

    Parameters
    ----------
    x : float or array_like
        Values (bits 0/1 where the function says so).
    %(epsilon)s
    size : int or tuple of int, optional
        Number (shape) of draws, at most 10⁸.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator (None is refused: simulations are seeded).

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> mean_of_bits_release([0, 1, 1, 0], 1.0, 3, rng=0).shape
    (3,)
    """
    x = check_real("x", x)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-D array of bits; got shape {x.shape}")
    if np.any((x != 0) & (x != 1)):
        raise ValueError(f"x must hold only 0s and 1s; got {x[(x != 0) & (x != 1)][:3]!r}")
    b = mean_of_bits_scale(int(x.size), epsilon)
    return as_output(x.mean() + make_rng(rng).laplace(0.0, b, check_sample_shape(size, epsilon=b)))


def mean_of_bits_error_tail(n: int, epsilon, p, t, *, reps: int, rng):
    """Simulated P[|p̂ − p̄| ≥ t] for p̂ = mean of n bits + Laplace(1/(nε)), at every t.

    The data hold round(p·n) ones; ``reps`` seeded releases are drawn once and the empirical
    tail is read off at each t (a survival function: the share of errors ≥ t).

    Not called in a notebook; used by ``helpers.plotting.foundations``.

    Parameters
    ----------
    n : int
        Number of bits, 1..10⁹.
    epsilon : float
        ε > 0.
    p : float
        Share of ones in [0, 1].
    t : array_like
        Error thresholds ≥ 0.
    reps : int, keyword-only
        Number of simulated releases, 1..10⁷.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator.

    Returns
    -------
    float or numpy.ndarray
        The tail at every t: a Python float for a scalar ``t``, else the shape of ``t``.

    Raises
    ------
    ValueError
        For an argument out of range.

    References
    ----------
    Survey slides (002), "mean of n bits"; Dwork & Roth (2014), Theorem 3.8.

    Examples
    --------
    >>> float(mean_of_bits_error_tail(10, 1.0, 0.5, [0.0], reps=100, rng=0)[0])
    1.0
    """
    n = _check_n(n)
    p = check_scalar("p", _check_closed_unit("p", p), p)
    reps = check_int_range("reps", reps, 1, 10_000_000)
    t = check_nonnegative("t", t)
    check_scalar("epsilon", check_positive("epsilon", epsilon), epsilon)
    ones = round(p * n)
    # the releases of mean_of_bits_release for these data, without building the n bits
    # (n = 10⁹ asked for 8 GB): their mean is ones/n exactly as numpy's mean computes it
    mean = ones / n
    b = mean_of_bits_scale(n, epsilon)
    draws = mean + make_rng(rng).laplace(0.0, b, reps)
    err = np.sort(np.abs(draws - mean))
    return as_output(1.0 - np.searchsorted(err, t, side="left") / reps)


def laplace_tail_probability(t, scale):
    """P[|Y| ≥ t] = e^{−t/b} for Y ~ Laplace(0, b) and t ≥ 0 (exact).

    Used in notebook 00.

    Parameters
    ----------
    t : float or array_like
        Threshold (distance from the centre).
    %(scale)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_tail_probability(1.0, 1.0), 6)
    0.367879
    """
    t = check_nonnegative("t", t)
    b = check_positive("scale", scale)
    return as_output(np.exp(-t / b))


def chebyshev_bound(variance, t):
    """Chebyshev's P[|X − μ| ≥ t] ≤ Var/t², capped at 1.

    Used in notebook 00.

    Parameters
    ----------
    variance : float or array_like
        Var ≥ 0.
    t : float or array_like
        Threshold (distance from the centre).

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(chebyshev_bound(1.0, 2.0), 6)
    0.25
    """
    v = check_nonnegative("variance", variance)
    t = check_positive("t", t)
    with np.errstate(over="ignore", under="ignore"):
        square = t * t
        # t² underflows for t below 1e-162: Var/t/t instead (0/0 was NaN, Var/0 a warning)
        normal = square >= np.finfo(float).tiny
        ratio = np.where(normal, v / np.where(normal, square, 1.0), v / t / t)
    return as_output(np.minimum(1.0, ratio))


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "references": """\
References
----------
Dwork & Roth (2014), §3.3 (counting queries under the Laplace mechanism); Chebyshev's inequality.""",
}

fill_docstrings(globals(), _SECTIONS)
