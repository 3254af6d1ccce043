"""Figure 1's data: r* and εᵢ along the slice of profile (15) or (16), and its minimum.

Changes when: what Figure 1 shows changes (the plotting layer only draws this).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import (
    check_finite_scalar,
    check_half_open_unit,
)
from .closed_forms import epsilon_inclusion_profile, epsilon_values_profile
from .optimiser import argmin_epsilon
from .profiles import inclusion_profile, values_profile
from .theorems import max_epsilon

__all__ = [
    "SLICE_X",
    "ProfileSlice",
    "profile_slice",
]


class ProfileSlice(NamedTuple):
    """r* and εᵢ along the slice of profile (15) or (16), and the minimum of eq. (13)."""

    x: np.ndarray  #: the free coordinate (p for "inclusion", q for "values")
    r_star: np.ndarray  #: r*(x)
    epsilon_i: np.ndarray  #: εᵢ(x) (inf where r* ≥ 1/(p·q))
    epsilon_min: float  #: the closed-form minimum (Theorem 5 or 4)
    x_min: float  #: where the numerical search finds it


#: the default x grid of :func:`profile_slice` (linear, plus logarithmic near 0)
SLICE_X = np.unique(np.concatenate([np.linspace(0.002, 1, 500), np.logspace(-3, 0, 100)]))


def profile_slice(kind: str, a_tilde, fixed, r_tilde, *, x=None) -> ProfileSlice:
    """r*(x) and εᵢ(x) along the slice of profile (15) or (16), and its minimum (Figure 1).

    Not called in a notebook; used by ``helpers.plotting.kazan_reiter``.

    Parameters
    ----------
    kind : {"inclusion", "values"}
        ``"inclusion"``: profile (15), x = p, q = q̃ = ``fixed``; ``"values"``: profile (16),
        x = q, p = p̃ = ``fixed``.
    a_tilde, fixed, r_tilde : float
        ã, the fixed coordinate (q̃ or p̃) and r̃.
    x : array_like, optional, keyword-only
        Points of (0, 1] (default :data:`SLICE_X`).

    Returns
    -------
    ProfileSlice

    Raises
    ------
    ValueError
        For an unknown ``kind`` or a parameter out of range.

    References
    ----------
    Kazan & Reiter (2024), Figure 1, Theorems 4 and 5.

    Examples
    --------
    >>> s = profile_slice("inclusion", 0.25, 1.0, 3.0)
    >>> round(s.epsilon_min, 4), round(s.x_min, 4)
    (1.2993, 0.0833)
    """
    if kind not in ("inclusion", "values"):
        raise ValueError(
            f"kind must be 'inclusion' (profile 15) or 'values' (profile 16); got {kind!r}"
        )
    x = SLICE_X if x is None else check_half_open_unit("x", x)
    fixed = check_finite_scalar("fixed", fixed)  # one slice: q̃ or p̃ is a single number
    if kind == "inclusion":
        profile = inclusion_profile(a_tilde, fixed, r_tilde)
        p, q = x, np.full_like(x, float(fixed))
        eps_min = epsilon_inclusion_profile(a_tilde, fixed, r_tilde)
        x_min = argmin_epsilon(profile, q=fixed).p
    else:
        profile = values_profile(a_tilde, fixed, r_tilde)
        p, q = np.full_like(x, float(fixed)), x
        eps_min = epsilon_values_profile(a_tilde, fixed, r_tilde)
        x_min = argmin_epsilon(profile, p=fixed).q
    r_star = profile(p, q)
    return ProfileSlice(x, r_star, max_epsilon(p, q, r_star), float(eps_min), float(x_min))
