"""The paper's risk profiles (14)–(16), (25), (28), (33) and (37) as vectorised functions r*(p, q).

Changes when: a profile of the paper is added or its definition changes.
"""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import (
    check_half_open_unit,
    check_real,
    describe,
)
from .optimiser import Profile

__all__ = [
    "box_profile",
    "difference_profile",
    "inclusion_profile",
    "lee_clifton_profile",
    "two_dimensional_profile",
    "values_profile",
]


# --- the paper's profiles as functions (vectorised) -------------------------------------


def _check_r_tilde(r_tilde, name: str = "r_tilde") -> np.ndarray:
    r = check_real(name, r_tilde)
    if np.any(r <= 1):
        raise ValueError(
            f"{name} (the relative-risk bound r̃) must be > 1; got {describe(r_tilde, r <= 1)}"
        )
    return r


def _check_a_tilde(a_tilde, *, allow_zero: bool = True) -> np.ndarray:
    a = check_real("a_tilde", a_tilde)
    bad = (a >= 1) | (a < 0) | ((a == 0) & (not allow_zero))
    if np.any(bad):
        allowed = "[0, 1)" if allow_zero else "(0, 1)"
        raise ValueError(
            f"a_tilde (the absolute-risk bound ã) must lie in {allowed}: a posterior bound of "
            f"1 or more bounds nothing; got {describe(a_tilde, bad)}"
        )
    return a


def _scalar(name: str, array: np.ndarray, value) -> float:
    if array.ndim != 0:
        raise ValueError(f"{name} must be a single number here; got {value!r}")
    return float(array)


def _vectorised(r_star) -> Profile:
    """The profile ``r_star(p, q)`` (given float arrays) as a Profile: a float for scalar p, q.

    Its ``vectorized`` attribute tells the optimiser it may pass whole grids at once.
    """

    def profile(p, q):
        value = r_star(np.asarray(p, dtype=float), np.asarray(q, dtype=float))
        return float(value) if value.ndim == 0 else value

    profile.vectorized = True
    return profile


def inclusion_profile(a_tilde: float, q_tilde: float, r_tilde: float) -> Profile:
    """Profile (15): r*(p, q) = max(ã/(p·q̃), r̃) on the slice q = q̃, inf elsewhere.

    Used in notebook 06.

    Parameters
    ----------
    a_tilde : float
        ã in [0, 1), the bound on the absolute risk (the posterior).
    q_tilde : float
        q̃ in (0, 1], the slice.
    r_tilde : float
        r̃ > 1, the bound on the relative risk.

    Returns
    -------
    callable
        ``profile(p, q)``, vectorised (its ``vectorized`` attribute is ``True``).

    %(raises_scalar)s

    References
    ----------
    Kazan & Reiter (2024), eq. (15).

    Examples
    --------
    >>> inclusion_profile(0.25, 1.0, 3.0)(0.05, 1.0)
    5.0
    """
    a = _scalar("a_tilde", _check_a_tilde(a_tilde), a_tilde)
    r = _scalar("r_tilde", _check_r_tilde(r_tilde), r_tilde)
    q_t = _scalar("q_tilde", check_half_open_unit("q_tilde", q_tilde), q_tilde)

    def r_star(p, q):
        with np.errstate(divide="ignore"):
            return np.where(q == q_t, np.maximum(a / (p * q_t), r), np.inf)

    return _vectorised(r_star)


def values_profile(a_tilde: float, p_tilde: float, r_tilde: float) -> Profile:
    """Profile (16): r*(p, q) = max(ã/(p̃·q), r̃) on the slice p = p̃, inf elsewhere.

    Used in notebook 06.

    Parameters
    ----------
    a_tilde : float
        ã in [0, 1) (ã = 0 allowed: then r* = r̃ on the slice, and
        :func:`epsilon_values_profile` accepts it too).
    p_tilde : float
        p̃ in (0, 1], the slice.
    r_tilde : float
        r̃ > 1.

    %(returns_profile)s

    %(raises_scalar)s

    References
    ----------
    Kazan & Reiter (2024), eq. (16).

    Examples
    --------
    >>> values_profile(0.25, 0.5, 3.0)(0.5, 0.1)
    5.0
    """
    a = _scalar("a_tilde", _check_a_tilde(a_tilde), a_tilde)
    r = _scalar("r_tilde", _check_r_tilde(r_tilde), r_tilde)
    p_t = _scalar("p_tilde", check_half_open_unit("p_tilde", p_tilde), p_tilde)

    def r_star(p, q):
        with np.errstate(divide="ignore"):
            return np.where(p == p_t, np.maximum(a / (p_t * q), r), np.inf)

    return _vectorised(r_star)


def two_dimensional_profile(a_tilde: float = 0.25, r_tilde: float = 3.0) -> Profile:
    """Profile (33) of Appendix C.3: r*(p, q) = max(ã/(p·q), r̃) on all of (0, 1]².

    Used in notebook 06.

    Parameters
    ----------
    a_tilde : float
        ã in (0, 1).
    r_tilde : float
        r̃ > 1.

    %(returns_profile)s

    %(raises_scalar)s

    References
    ----------
    Kazan & Reiter (2024), Appendix C.3, eq. (33).

    Examples
    --------
    >>> two_dimensional_profile(0.25, 3.0)(0.5, 0.1)
    5.0
    """
    a = _scalar("a_tilde", _check_a_tilde(a_tilde, allow_zero=False), a_tilde)
    r = _scalar("r_tilde", _check_r_tilde(r_tilde), r_tilde)

    def r_star(p, q):
        with np.errstate(divide="ignore"):
            return np.maximum(a / (p * q), r)

    return _vectorised(r_star)


def _unit_closed(name: str, value) -> float:
    array = check_real(name, value)
    if array.ndim != 0 or not 0 <= float(array) <= 1:
        raise ValueError(f"{name} must be a single number in [0, 1]; got {value!r}")
    return float(array)


def box_profile(r_tilde: float, p0: float, p1: float, q0: float, q1: float) -> Profile:
    """Profile (25) of Appendix B.2: r* = r̃ on the box p̃₀ ≤ p ≤ p̃₁, q̃₀ ≤ q ≤ q̃₁, inf elsewhere.

    An agency that bounds the relative risk only for the priors it cares about (the box)
    and places no bound outside. Its recommended ε is eq. (26)
    (:func:`epsilon_box_profile`); the minimum sits at a corner of the box (Lemma 3).

    Used in notebook 06.

    Parameters
    ----------
    r_tilde : float
        r̃ > 1, the bound on the relative risk inside the box.
    p0, p1 : float
        The box's range of p, 0 ≤ p̃₀ ≤ p̃₁ ≤ 1, p̃₁ > 0.
    q0, q1 : float
        The box's range of q, 0 ≤ q̃₀ ≤ q̃₁ ≤ 1, q̃₁ > 0.

    %(returns_profile)s

    %(raises_scalar)s

    References
    ----------
    Kazan & Reiter (2024), Appendix B.2, eq. (25)–(26); Table 4.

    Examples
    --------
    >>> box_profile(3.0, 0.2, 0.7, 0.1, 0.6)(0.5, 0.5)
    3.0
    >>> box_profile(3.0, 0.2, 0.7, 0.1, 0.6)(0.9, 0.5)
    inf
    """
    r = _scalar("r_tilde", _check_r_tilde(r_tilde), r_tilde)
    lo_p, hi_p = _unit_closed("p0", p0), _unit_closed("p1", p1)
    lo_q, hi_q = _unit_closed("q0", q0), _unit_closed("q1", q1)
    if not (lo_p <= hi_p and hi_p > 0):
        raise ValueError(
            f"p0 and p1 must satisfy 0 ≤ p0 ≤ p1 ≤ 1, p1 > 0; got p0={p0!r}, p1={p1!r}"
        )
    if not (lo_q <= hi_q and hi_q > 0):
        raise ValueError(
            f"q0 and q1 must satisfy 0 ≤ q0 ≤ q1 ≤ 1, q1 > 0; got q0={q0!r}, q1={q1!r}"
        )

    def r_star(p, q):
        inside = (lo_p <= p) & (p <= hi_p) & (lo_q <= q) & (q <= hi_q)
        return np.where(inside, r, np.inf)

    return _vectorised(r_star)


def difference_profile(b_tilde: float) -> Profile:
    """Profile (28) of Appendix B.2: r*(p, q) = (p·q + b̃)/(p·q) = 1 + b̃/(p·q).

    The relative-risk form of a bound on the *difference* posterior − prior ≤ b̃ (eq. 27):
    dividing the posterior p·q + b̃ by the prior p·q. Its recommended ε is eq. (29),
    log((1 + b̃)/(1 − b̃)) (:func:`epsilon_difference_profile`).

    Used in notebook 06.

    Parameters
    ----------
    b_tilde : float
        b̃ in (0, 1), the largest accepted rise of the posterior over the prior.

    %(returns_profile)s

    Raises
    ------
    ValueError
        If ``b_tilde`` is outside (0, 1), NaN, not a number or not a single number.

    References
    ----------
    Kazan & Reiter (2024), Appendix B.2, eq. (27)–(29); Table 4.

    Examples
    --------
    >>> difference_profile(0.1)(0.5, 0.5)
    1.4
    """
    array = check_real("b_tilde", b_tilde)
    if array.ndim != 0 or not 0 < float(array) < 1:
        raise ValueError(
            f"b_tilde (the bound on posterior − prior) must be a single number in (0, 1); "
            f"got {b_tilde!r}"
        )
    b = float(array)

    return _vectorised(lambda p, q: 1.0 + b / (p * q))


def lee_clifton_profile(n: int, a_tilde: float) -> Profile:
    """Profile (37) of Appendix D.1: Lee & Clifton's setting, r* = n·ã at p = 1/n, q = 1.

    The adversary of Lee & Clifton (2011) knows a universe of n records and that one was
    left out; it must not name the missing one with posterior above ã. In Kazan & Reiter's
    notation (with pᵢ = P[Iᵢ = 0], Appendix D.1) that is the relative-risk bound n·ã at the
    single prior (1/n, 1), and no bound elsewhere. Its recommended ε is eq. (38),
    log((n−1)·ã/(1−ã)) (:func:`epsilon_lee_clifton_setting`); being a single point, search
    it with ``recommend_epsilon(profile, p=1/n, q=1)``.

    Used in notebook 06.

    Parameters
    ----------
    n : int
        The size of the universe, an integer ≥ 2.
    a_tilde : float
        ã in (1/n, 1), the bound on the posterior (at ã ≤ 1/n the prior already exceeds it).

    %(returns_profile)s

    Raises
    ------
    ValueError
        If ``n`` is not an integer ≥ 2 or ``a_tilde`` is outside (1/n, 1).

    References
    ----------
    Kazan & Reiter (2024), Appendix D.1, eq. (37)–(38); Lee & Clifton (2011).

    Examples
    --------
    >>> round(lee_clifton_profile(4, 1 / 3)(0.25, 1.0), 6)
    1.333333
    """
    if (
        isinstance(n, (bool, np.bool_))
        or not isinstance(n, (int, np.integer))
        or not 2 <= n <= 2**53
    ):
        raise ValueError(
            f"n (the size of the universe) must be an integer in [2, 2**53]; got {n!r}"
        )
    a = _scalar("a_tilde", _check_a_tilde(a_tilde, allow_zero=False), a_tilde)
    if not a > 1 / n:
        raise ValueError(
            f"a_tilde must lie in (1/n, 1) = ({1 / n:.6g}, 1): at ã ≤ 1/n the prior 1/n "
            f"already exceeds the bound; got {a_tilde!r}"
        )
    point, r = 1.0 / int(n), int(n) * a

    return _vectorised(lambda p, q: np.where((p == point) & (q == 1.0), r, np.inf))


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "raises_scalar": """\
Raises
------
ValueError
    If a parameter is out of range, NaN, not a number or not a single number.""",
    "returns_profile": """\
Returns
-------
callable
    ``profile(p, q)``, vectorised (its ``vectorized`` attribute is ``True``); a Python
    float for scalar p and q.""",
}

fill_docstrings(globals(), _SECTIONS)
