"""The paper's risk profiles (14)–(16) and (33) as vectorised functions r*(p, q).

Changes when: a profile of the paper is added or its definition changes.
"""

from __future__ import annotations

import numpy as np

from .._validation import (
    _describe,
    check_half_open_unit,
    check_real,
)
from .optimiser import Profile

__all__ = [
    "inclusion_profile",
    "two_dimensional_profile",
    "values_profile",
]


# --- the paper's profiles as functions (vectorised) -------------------------------------


def _check_r_tilde(r_tilde, name: str = "r_tilde") -> np.ndarray:
    r = check_real(name, r_tilde)
    if np.any(r <= 1):
        raise ValueError(
            f"{name} (the relative-risk bound r̃) must be > 1; got {_describe(r_tilde, r <= 1)}"
        )
    return r


def _check_a_tilde(a_tilde, *, allow_zero: bool = True) -> np.ndarray:
    a = check_real("a_tilde", a_tilde)
    bad = (a >= 1) | (a < 0) | ((a == 0) & (not allow_zero))
    if np.any(bad):
        allowed = "[0, 1)" if allow_zero else "(0, 1)"
        raise ValueError(
            f"a_tilde (the absolute-risk bound ã) must lie in {allowed}: a posterior bound of "
            f"1 or more bounds nothing; got {_describe(a_tilde, bad)}"
        )
    return a


def _scalar(name: str, array: np.ndarray, value) -> float:
    if array.ndim != 0:
        raise ValueError(f"{name} must be a single number here; got {value!r}")
    return float(array)


def inclusion_profile(a_tilde: float, q_tilde: float, r_tilde: float) -> Profile:
    """Profile (15): r*(p, q) = max(ã/(p·q̃), r̃) on the slice q = q̃, inf elsewhere.

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

    Raises
    ------
    ValueError
        If a parameter is out of range, NaN, not a number or not a single number.

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

    def profile(p, q):
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        with np.errstate(divide="ignore"):
            value = np.where(q == q_t, np.maximum(a / (p * q_t), r), np.inf)
        return float(value) if value.ndim == 0 else value

    profile.vectorized = True
    return profile


def values_profile(a_tilde: float, p_tilde: float, r_tilde: float) -> Profile:
    """Profile (16): r*(p, q) = max(ã/(p̃·q), r̃) on the slice p = p̃, inf elsewhere.

    Parameters
    ----------
    a_tilde : float
        ã in [0, 1) (ã = 0 allowed: then r* = r̃ on the slice, and
        :func:`epsilon_values_profile` accepts it too).
    p_tilde : float
        p̃ in (0, 1], the slice.
    r_tilde : float
        r̃ > 1.

    Returns
    -------
    callable
        ``profile(p, q)``, vectorised (its ``vectorized`` attribute is ``True``); a Python
        float for scalar p and q.

    Raises
    ------
    ValueError
        If a parameter is out of range, NaN, not a number or not a single number.

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

    def profile(p, q):
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        with np.errstate(divide="ignore"):
            value = np.where(p == p_t, np.maximum(a / (p_t * q), r), np.inf)
        return float(value) if value.ndim == 0 else value

    profile.vectorized = True
    return profile


def two_dimensional_profile(a_tilde: float = 0.25, r_tilde: float = 3.0) -> Profile:
    """Profile (33) of Appendix C.3: r*(p, q) = max(ã/(p·q), r̃) on all of (0, 1]².

    Parameters
    ----------
    a_tilde : float
        ã in (0, 1).
    r_tilde : float
        r̃ > 1.

    Returns
    -------
    callable
        ``profile(p, q)``, vectorised (its ``vectorized`` attribute is ``True``); a Python
        float for scalar p and q.

    Raises
    ------
    ValueError
        If a parameter is out of range, NaN, not a number or not a single number.

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

    def profile(p, q):
        with np.errstate(divide="ignore"):
            value = np.maximum(a / (np.asarray(p, dtype=float) * np.asarray(q, dtype=float)), r)
        return float(value) if value.ndim == 0 else value

    profile.vectorized = True
    return profile
