"""The hypothesis-testing view of ε-DP: the feasible region of error rates (p, q)."""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from .._docstrings import fill_docstrings
from .._validation import (
    as_output,
    check_finite_scalar,
    check_nonnegative,
    check_positive,
    check_real,
)
from ..mechanisms import laplace_cdf, laplace_scale, laplace_sf
from ._checks import _check_closed_unit

__all__ = [
    "hypothesis_feasible",
    "hypothesis_max_q",
    "hypothesis_min_equal_error",
    "hypothesis_min_q",
    "laplace_threshold_test",
]


# --- the hypothesis-testing view ----------------------------------------------------------


def hypothesis_min_q(p, epsilon):
    """The smallest false-negative rate q an ε-DP mechanism allows at false-positive rate p.

    From p + e^ε q ≥ 1 and e^ε p + q ≥ 1 (Wasserman & Zhou; Kairouz, Oh & Viswanath):
    q ≥ max(0, 1 − e^ε p, e^{−ε}(1 − p)).

    Not called in a notebook; used by ``helpers.plotting.foundations``.

    Parameters
    ----------
    p : float or array_like
        The test's false-positive rate, in [0, 1].
    %(epsilon)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Wasserman & Zhou (2010), §2; Kairouz, Oh & Viswanath (2015), §2 (the hypothesis-testing reading of DP).

    Examples
    --------
    >>> round(hypothesis_min_q(0.2, 1.0), 6)
    0.456344
    """
    p = _check_closed_unit("p", p)
    eps = check_nonnegative("epsilon", epsilon)
    p, eps = np.broadcast_arrays(p, eps)
    # e^ε·p as e^{ε + ln p}: p = 0 gives 0 even where e^ε overflows (inf·0 was NaN)
    with np.errstate(divide="ignore", over="ignore"):
        scaled = np.exp(eps + np.log(p))
    return as_output(np.maximum(np.maximum(0.0, 1 - scaled), (1 - p) * np.exp(-eps)))


def hypothesis_max_q(p, epsilon):
    """The largest false-negative rate q an ε-DP mechanism allows at false-positive rate p.

    The complementary test (flip every answer) must satisfy the same inequalities, so
    q ≤ 1 − min_q(1 − p): the upper edge of the feasible region is the lower edge mirrored
    through (½, ½) (Kairouz, Oh & Viswanath 2015, Theorem 2.1).

    Not called in a notebook; used by ``helpers.plotting.foundations``.

    Parameters
    ----------
    p : float or array_like
        False-positive rate in [0, 1].
    epsilon : float or array_like
        ε ≥ 0.

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If p lies outside [0, 1] or epsilon is negative, NaN or not a number.

    References
    ----------
    Kairouz, Oh & Viswanath (2015), Theorem 2.1; survey slides (002).

    Examples
    --------
    >>> round(hypothesis_max_q(0.5, 1.0), 6)  # 1 − e^{−1}/2
    0.81606
    """
    p = _check_closed_unit("p", p)
    return as_output(1 - np.asarray(hypothesis_min_q(1 - p, epsilon)))


def hypothesis_min_equal_error(epsilon):
    """The smallest common error rate p = q an ε-DP mechanism allows: 1/(1 + e^ε).

    Where the two boundary lines p + e^ε q = 1 and e^ε p + q = 1 meet. ε = 0 gives 1/2
    (coin flipping); the adversary's best balanced accuracy is e^ε/(1 + e^ε).

    Used in notebook 00.

    Parameters
    ----------
    %(epsilon)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(hypothesis_min_equal_error(1.0), 6)
    0.268941
    """
    eps = check_nonnegative("epsilon", epsilon)
    return as_output(expit(-eps))  # 1/(1 + e^ε) without overflow


def hypothesis_feasible(p, q, epsilon, tol: float = 1e-12):
    """True where (p, q) satisfies both inequalities (within ``tol``).

    Used in notebook 00.

    Parameters
    ----------
    p : float or array_like
        The test's false-positive rate, in [0, 1].
    q : float or array_like
        Its false-negative rate, in [0, 1].
    %(epsilon)s
    tol : float
        Slack allowed in the inequalities, ≥ 0.

    Returns
    -------
    bool or numpy.ndarray
        A Python bool for scalar input, else a boolean array of the broadcast shape.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> hypothesis_feasible(0.2, 0.3, 1.0)
    False
    """
    p = _check_closed_unit("p", p)
    q = _check_closed_unit("q", q)
    eps = check_nonnegative("epsilon", epsilon)
    tol = check_nonnegative("tol", tol)
    p, q, eps = np.broadcast_arrays(p, q, eps)
    # e^ε·x as e^{ε + ln x}: x = 0 contributes 0 even where e^ε overflows (inf·0 was NaN,
    # so hypothesis_feasible(0, 1, 1000) was False)
    with np.errstate(divide="ignore", over="ignore"):
        eq = np.exp(eps + np.log(q))
        ep = np.exp(eps + np.log(p))
    out = (p + eq >= 1 - tol) & (ep + q >= 1 - tol)
    return bool(out) if out.ndim == 0 else out


def laplace_threshold_test(t, epsilon, *, sensitivity=1.0, y0=0.0):
    """(p, q) of the test "say H₁ when the output exceeds t" under the Laplace mechanism.

    H₀: the output came from X with f(X) = y₀; H₁: from a neighbour X' with f(X') = y₀ + Δ.
    Noise is Laplace(Δ/ε). p = P[output > t | H₀], q = P[output ≤ t | H₁]. Between the two
    centres p·q = e^{−ε}/4; at t = y₀ (or y₀ + Δ) the pair lies on the region's boundary.

    Used in notebook 00.

    Parameters
    ----------
    t : float or array_like
        Threshold (distance from the centre).
    %(epsilon)s
    %(sensitivity_continuous)s
    y0 : float, keyword-only
        f(X) under H₀.

    Returns
    -------
    tuple of (float or numpy.ndarray)
        (p, q): Python floats for scalar input, else arrays of the broadcast shape.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> tuple(round(v, 6) for v in laplace_threshold_test(0.5, 1.0))
    (0.303265, 0.303265)
    """
    t = check_real("t", t)
    b = laplace_scale(epsilon, sensitivity=sensitivity)
    delta = check_positive("sensitivity", sensitivity)
    y0 = check_finite_scalar("y0", y0)
    p = laplace_sf(t, y0, b)  # P[output > t | H₀], exact far in the tail (not 1 − cdf)
    q = laplace_cdf(t, y0 + delta, b)
    return p, q


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "references": """\
References
----------
Wasserman & Zhou (2010), §2; Kairouz, Oh & Viswanath (2015), §2 (the hypothesis-testing reading of DP).""",
}

fill_docstrings(globals(), _SECTIONS)
