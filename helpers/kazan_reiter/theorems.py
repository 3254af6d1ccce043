"""Kazan & Reiter, Theorems 1 and 2 and Corollary 1: the bound on the relative risk rᵢ of
an ε-DP release and its inverse, the largest ε that respects a bound r* at one prior (p, q).

Changes when: the paper's formulas (or their numerically stable rewriting) change.
"""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import (
    as_output,
    check_half_open_unit,
    check_nonnegative,
    check_real_or_inf,
)

__all__ = [
    "max_epsilon",
    "max_epsilon_naive",
    "naive_bound",
    "relative_risk_bound",
]


# --- Theorem 1 and Corollary 1 -----------------------------------------------------------


def relative_risk_bound(p, q, epsilon):
    """Theorem 1: rᵢ(p, q, t*) ≤ 1 / (q·p + e^{-2ε}(1-q)·p + e^{-ε}(1-p)) for an ε-DP release.

    ``p``, ``q`` in (0, 1], ``epsilon`` ≥ 0; all broadcast (numpy arrays welcome).

    Used in notebooks 06, 08, 09 and 11.

    Parameters
    ----------
    %(priors)s
    %(epsilon)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Theorem 1.

    Examples
    --------
    >>> round(relative_risk_bound(0.5, 1.0, 1.0), 6)
    1.462117
    """
    p = check_half_open_unit("p", p)
    q = check_half_open_unit("q", q)
    eps = check_nonnegative("epsilon", epsilon)
    return as_output(1.0 / (q * p + np.exp(-2 * eps) * (1 - q) * p + np.exp(-eps) * (1 - p)))


def naive_bound(epsilon):
    """Corollary 1 / eq. (7): rᵢ ≤ e^{2ε} for every (p, q): the bound behind ε = log(r̃)/2.

    Returns ``inf`` (without an overflow warning) once e^{2ε} exceeds the largest float
    (ε > 354.9): the bound is then larger than any float, which ``inf`` represents.

    Used in notebooks 06 and 08.

    Parameters
    ----------
    %(epsilon)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Corollary 1, eq. (7).

    Examples
    --------
    >>> round(naive_bound(0.5), 6)
    2.718282
    """
    eps = check_nonnegative("epsilon", epsilon)
    with np.errstate(over="ignore"):
        return as_output(np.exp(2 * eps))


# --- Theorem 2 ---------------------------------------------------------------------------


def _check_r_star(r_star) -> np.ndarray:
    r = check_real_or_inf("r_star", r_star, "a real number ≥ 1 or inf")
    if np.any(r < 1):
        bad = r[r < 1].ravel()[:3]
        raise ValueError(
            f"r_star must be ≥ 1 (a relative-risk bound below 1 would force the posterior "
            f"below the prior, which no ε ≥ 0 achieves); got {bad!r}"
        )
    return r


_C_TOL = 1e-14  # c ≤ 1e-14/r* counts as c ≤ 0 (εᵢ would exceed ~30: no bound in practice)
_NUDGES = 64  # doubling steps down from one ulp: reaches 0 from any ε


def max_epsilon(p, q, r_star):
    """Theorem 2's εᵢ(p, q): the largest ε with rᵢ(p, q, t*) ≤ r*(p, q) for every t*.

    With c = 1/r* − p·q the paper's eq. (12) reads, for 0 < q < 1,

        εᵢ = log( 2p(1−q) / ( √((1−p)² + 4p(1−q)c) − (1−p) ) ),

    whose denominator cancels catastrophically when p(1−q)c is small. Multiplying by the
    conjugate gives the form computed here,

        εᵢ = log( ( (1−p) + √((1−p)² + 4p(1−q)c) ) / (2c) ),

    which at q = 1 reduces to eq. (12)'s second branch log((1−p)/c) and at p = 1 to
    Corollary 2's ½·log((1−q)/c): one expression for every branch.
    Where r* ≥ 1/(p·q) (c ≤ 0, including r* = inf) the posterior cannot exceed the bound:
    εᵢ = inf; so also where c ≤ 10⁻¹⁴/r* (within rounding of r* = 1/(p·q), e.g. a profile
    written as ``1/(p*q)``), rather than a meaningless εᵢ of 30 or more.
    r* = 1 gives εᵢ = 0; r* < 1 is refused. The result is rounded toward privacy: where
    Theorem 1's bound, evaluated at the computed εᵢ, exceeds r*, εᵢ is stepped down (by an ulp
    of max(εᵢ, 1), doubling) until it does not: a round trip never reports a relative risk
    above r* (at εᵢ = 0 the bound is 1 up to the rounding of its sum).

    Used in notebook 06.

    Parameters
    ----------
    %(priors)s
    %(r_star)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Theorem 2.

    Examples
    --------
    >>> round(max_epsilon(1.0, 0.5, 3.0), 6)
    inf
    >>> max_epsilon(0.5, 0.5, 4.0)  # r* = 1/(p·q): nothing bounded
    inf
    """
    p = check_half_open_unit("p", p)
    q = check_half_open_unit("q", q)
    r = _check_r_star(r_star)
    p, q, r = np.broadcast_arrays(p, q, r)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        c = 1.0 / r - p * q
        # c is a difference: rounding leaves ~1e-16/r̃ of noise where r* = 1/(p·q) exactly
        # (a profile that bounds nothing there), which would read as a huge finite ε
        feasible = c > _C_TOL / r
        c_safe = np.where(feasible, c, 1.0)
        root = np.sqrt((1 - p) ** 2 + 4 * p * (1 - q) * c_safe)
        eps = np.maximum(np.log(((1 - p) + root) / (2 * c_safe)), 0.0)
        # round toward privacy: step ε down wherever Theorem 1's bound at the computed ε
        # exceeds r* (the logarithm and the square root round). εᵢ's error is absolute, about
        # one ulp of max(ε, 1), so the step starts there and doubles until the bound holds
        step = np.spacing(np.maximum(eps, 1.0))
        for _ in range(_NUDGES):
            bound = 1.0 / (q * p + np.exp(-2 * eps) * (1 - q) * p + np.exp(-eps) * (1 - p))
            over = feasible & (bound > r) & (eps > 0)
            if not over.any():
                break
            eps = np.where(over, np.maximum(eps - step, 0.0), eps)
            step = np.where(over, 2 * step, step)
    out = np.where(feasible, eps, np.inf)
    return as_output(out)


def max_epsilon_naive(p, q, r_star):
    """eq. (12) exactly as printed (two branches, the cancelling denominator), for comparison.

    Kept to show in the notebook what the rewrite in :func:`max_epsilon` fixes; returns
    inf where r* ≥ 1/(p·q), and the cancelling value (or inf) where the printed form breaks down. Do not use it for recommendations.

    Used in notebook 06.

    Parameters
    ----------
    %(priors)s
    %(r_star)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): eq. (12), as printed.

    Examples
    --------
    >>> round(max_epsilon_naive(0.5, 0.5, 3.0), 6)
    1.866264
    """
    p = check_half_open_unit("p", p)
    q = check_half_open_unit("q", q)
    r = _check_r_star(r_star)
    p, q, r = np.broadcast_arrays(p, q, r)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = 1.0 / r - p * q
        inner = 2 * p * (1 - q) / (np.sqrt((1 - p) ** 2 + 4 * p * (1 - q) * c) - (1 - p))
        at_one = (1 - p) / c
        out = np.log(np.where(q < 1, inner, at_one))
    # where c ≤ 0 the bound constrains nothing (εᵢ = inf, as in max_epsilon); the printed
    # form would take the log of a negative number there, which is no answer at all
    return as_output(np.where(c <= 0, np.inf, out))


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "priors": """\
p : float or array_like
    pᵢ, the prior probability that i is in the data, in (0, 1].
q : float or array_like
    qᵢ, the prior probability that i's values disclose, in (0, 1].""",
    "r_star": """\
r_star : float or array_like
    r*, the bound on the relative risk, ≥ 1 (inf: no bound).""",
}

fill_docstrings(globals(), _SECTIONS)
