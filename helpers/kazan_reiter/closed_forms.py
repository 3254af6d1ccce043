"""Table 4: closed forms of the recommended ε for the paper's profiles (vectorised).

Each is tested against the numerical minimiser :func:`helpers.kazan_reiter.recommend_epsilon`.

Changes when: a closed form of the paper (or its stable rewriting) changes.
"""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import (
    as_output,
    check_half_open_unit,
    check_open_unit,
    check_real,
)
from .profiles import _check_a_tilde, _check_r_tilde

__all__ = [
    "epsilon_box_profile",
    "epsilon_constant_profile",
    "epsilon_difference_profile",
    "epsilon_inclusion_profile",
    "epsilon_lee_clifton_setting",
    "epsilon_values_profile",
]


# --- Table 4: closed forms (vectorised: arrays broadcast, scalars give a Python float) ----


def epsilon_constant_profile(r_tilde):
    """Theorem 3, profile (14) r*(p, q) = r̃ everywhere: ε = ½·log(r̃).

    Used in notebook 06.

    Parameters
    ----------
    r_tilde : float or array_like
        r̃ > 1.

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If r_tilde ≤ 1, NaN, infinite or not a number.

    References
    ----------
    Kazan & Reiter (2024), Theorem 3.

    Examples
    --------
    >>> round(epsilon_constant_profile(3.0), 4)
    0.5493
    """
    return as_output(0.5 * np.log(_check_r_tilde(r_tilde)))


def epsilon_inclusion_profile(a_tilde, q_tilde, r_tilde):
    """Theorem 5 / eq. (24), profile (15) r* = max(ã/(p·q̃), r̃) on the slice q = q̃.

    Branches (0 ≤ ã < 1, r̃ > 1, 0 < q̃ ≤ 1):

    * q̃ ≤ ã/r̃ (the whole slice bounds absolute risk): ½·log(ã(1−q̃) / (q̃(1−ã)));
    * ã/r̃ < q̃ ≤ 1/(r̃+1), q̃ < 1: ½·log((1−q̃) / (1/r̃ − q̃)) (minimum at p = 1);
    * 1/(r̃+1) < q̃ < 1, ã/r̃ < q̃: minimum at the kink p = ã/(r̃q̃),
      log(2ã(1−q̃) / (√((r̃q̃−ã)² + 4ãq̃(1−q̃)(1−ã)) − (r̃q̃−ã))), computed here in the
      conjugate form (√(…) + (r̃q̃−ã)) / (2q̃(1−ã)) which stays finite at ã = 0;
    * q̃ = 1: log((r̃ − ã)/(1 − ã)).

    All three arguments broadcast; a scalar result is a Python float.

    Used in notebooks 06 and 07.

    Parameters
    ----------
    %(a_tilde)s
    q_tilde : float or array_like
        q̃ in (0, 1], the slice q = q̃.
    %(r_tilde)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Theorem 5 (Appendix B.1), eq. (24); profile (15); Table 4.

    Examples
    --------
    >>> round(epsilon_inclusion_profile(0.25, 1.0, 3.0), 4)  # q̃ = 1: log((r̃ − ã)/(1 − ã))
    1.2993
    """
    a, q, r = np.broadcast_arrays(
        _check_a_tilde(a_tilde), check_half_open_unit("q_tilde", q_tilde), _check_r_tilde(r_tilde)
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        at_one = np.log((r - a) / (1 - a))
        absolute = 0.5 * np.log(a * (1 - q) / (q * (1 - a)))
        at_p_one = 0.5 * np.log((1 - q) / (1 / r - q))
        b = r * q - a
        kink = np.log((np.sqrt(b * b + 4 * a * q * (1 - q) * (1 - a)) + b) / (2 * q * (1 - a)))
    out = np.where(
        q == 1, at_one, np.where(q <= a / r, absolute, np.where(q <= 1 / (r + 1), at_p_one, kink))
    )
    return as_output(out)


def epsilon_values_profile(a_tilde, p_tilde, r_tilde):
    """Theorem 4 / eq. (23), profile (16) r* = max(ã/(p̃·q), r̃) on the slice p = p̃.

    * p̃ ≤ ã/r̃: log(ã(1−p̃) / (p̃(1−ã))) (the whole slice bounds absolute risk; minimum at q = 1);
    * ã/r̃ < p̃ ≤ 1: minimum at the kink q = ã/(p̃r̃),
      log(2(p̃r̃−ã) / (√(r̃²(1−p̃)² + 4(p̃r̃−ã)(1−ã)) − r̃(1−p̃))).

    As printed, the second branch is 0/0 at p̃ = ã/r̃, and in floating point a parameter
    set *on* the boundary (Table 5's agency B: ã = 0.15, p̃ = 0.05, r̃ = 3, where
    0.15/3 = 0.049999… < 0.05) lands in it. Here it is computed in the conjugate form
    (√(…) + r̃(1−p̃)) / (2(1−ã)), which equals (r̃−ã)/(1−ã) at the boundary, exactly the
    first branch's value there: the two branches join continuously. ã = 0 (the profile is
    r̃ on the slice) is allowed, as in :func:`values_profile`.

    Used in notebook 06.

    Parameters
    ----------
    %(a_tilde)s
    p_tilde : float or array_like
        p̃ in (0, 1], the slice p = p̃.
    %(r_tilde)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Theorem 4 (Appendix B.1), eq. (23); profile (16); Table 4.

    Examples
    --------
    >>> round(epsilon_values_profile(0.15, 0.05, 3.0), 4)  # on the branch boundary
    1.2098
    """
    a, p, r = np.broadcast_arrays(
        _check_a_tilde(a_tilde), check_half_open_unit("p_tilde", p_tilde), _check_r_tilde(r_tilde)
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        absolute = np.log(a * (1 - p) / (p * (1 - a)))
        d = p * r - a
        kink = np.log((np.sqrt((r * (1 - p)) ** 2 + 4 * d * (1 - a)) + r * (1 - p)) / (2 * (1 - a)))
    return as_output(np.where(p <= a / r, absolute, kink))


def epsilon_box_profile(r_tilde, p0, p1, q0, q1):
    """eq. (26), profile (25): r* = r̃ on the box p̃₀ ≤ p ≤ p̃₁, q̃₀ ≤ q ≤ q̃₁, inf outside.

    Requires 0 ≤ p̃₀ ≤ p̃₁ ≤ 1, 0 ≤ q̃₀ ≤ q̃₁ ≤ 1, p̃₁ > 0, q̃₁ > 0. By Lemma 3 the minimum
    sits at a corner: (p̃₁, q̃₀) if q̃₀ ≤ 1/(r̃+1); (p̃₀, q̃₀) if 1/(r̃+1) < q̃₀ (log r̃ in the
    limit p → 0 when p̃₀ = 0); at q̃₀ = 1, log((1−p̃₀)/(1/r̃ − p̃₀)). A corner with q̃₀ = 0
    is the limit q → 0. Returns inf when the box lies where r̃ ≥ 1/(p·q) (nothing bounded).
    All arguments broadcast.

    Used in notebook 06.

    Parameters
    ----------
    %(r_tilde)s
    p0, p1 : float or array_like
        The box's range of p, 0 ≤ p̃₀ ≤ p̃₁ ≤ 1, p̃₁ > 0.
    q0, q1 : float or array_like
        The box's range of q, 0 ≤ q̃₀ ≤ q̃₁ ≤ 1, q̃₁ > 0.

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): eq. (26), profile (25); Table 4.

    Examples
    --------
    >>> round(epsilon_box_profile(2.0, 0.0, 1.0, 0.5, 1.0), 4)
    0.6931
    """
    r = _check_r_tilde(r_tilde)
    p0_, p1_, q0_, q1_ = (
        check_real(k, v) for k, v in (("p0", p0), ("p1", p1), ("q0", q0), ("q1", q1))
    )
    bad_p = ~((0 <= p0_) & (p0_ <= p1_) & (p1_ <= 1)) | (p1_ == 0)
    if np.any(bad_p):
        raise ValueError(
            f"the box needs 0 ≤ p0 ≤ p1 ≤ 1 with p1 > 0 (eq. (25)); got p0={p0!r}, p1={p1!r}"
        )
    bad_q = ~((0 <= q0_) & (q0_ <= q1_) & (q1_ <= 1)) | (q1_ == 0)
    if np.any(bad_q):
        raise ValueError(
            f"the box needs 0 ≤ q0 ≤ q1 ≤ 1 with q1 > 0 (eq. (25)); got q0={q0!r}, q1={q1!r}"
        )
    r, p0_, p1_, q0_, q1_ = np.broadcast_arrays(r, p0_, p1_, q0_, q1_)

    def corner(pc, qc):
        # εᵢ(pc, qc) from max_epsilon's stable form, allowing the limits qc → 0
        c = 1 / r - pc * qc
        safe = np.where(c > 0, c, 1.0)
        with np.errstate(divide="ignore"):  # (pc, qc) = (1, 1) is the q̃₀ = 1 branch's
            value = np.log(
                ((1 - pc) + np.sqrt((1 - pc) ** 2 + 4 * pc * (1 - qc) * safe)) / (2 * safe)
            )
        return np.where(c > 0, value, np.inf)

    c_one = 1 / r - p0_
    with np.errstate(divide="ignore", invalid="ignore"):
        at_q_one = np.where(c_one > 0, np.log((1 - p0_) / np.where(c_one > 0, c_one, 1.0)), np.inf)
    out = np.where(
        q0_ == 1,
        at_q_one,
        np.where(
            q0_ <= 1 / (r + 1),
            corner(p1_, q0_),
            np.where(p0_ > 0, corner(p0_, q0_), np.log(r)),
        ),
    )
    return as_output(out)


def epsilon_difference_profile(b_tilde):
    """eq. (29), profile (28) r* = 1 + b̃/(p·q) (posterior − prior ≤ b̃): ε = log((1+b̃)/(1−b̃)).

    Used in notebook 06.

    Parameters
    ----------
    b_tilde : float or array_like
        b̃ in (0, 1), the bound on posterior − prior.

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): eq. (29), profile (28); Table 4.

    Examples
    --------
    >>> round(epsilon_difference_profile(0.5), 4)
    1.0986
    """
    b = check_open_unit("b_tilde", b_tilde)
    return as_output(np.log1p(b) - np.log1p(-b))


def epsilon_lee_clifton_setting(n, a_tilde):
    """eq. (38), Appendix D.1: Lee & Clifton's setting (p = 1/n, q = 1, r* = n·ã).

    ε = log((n−1)·ã / (1−ã)); needs an integer n ≥ 2 and 1/n < ã < 1 (at ã ≤ 1/n the
    adversary's prior 1/n already meets the bound, so no ε > 0 is allowed). Broadcasts.

    Used in notebooks 06 and 07.

    Parameters
    ----------
    n : int or array_like
        The population size, an integer ≥ 2.
    %(a_tilde)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Appendix D.1, eq. (38).

    Examples
    --------
    >>> round(epsilon_lee_clifton_setting(4, 1 / 3), 4)
    0.4055
    """
    n_arr = check_real("n", n)
    if isinstance(n, bool) or np.any((n_arr < 2) | (n_arr != np.round(n_arr))):
        raise ValueError(f"n (the population size) must be an integer ≥ 2; got {n!r}")
    a = _check_a_tilde(a_tilde, allow_zero=False)
    if np.any(a <= 1 / n_arr):
        raise ValueError(
            f"a_tilde must exceed the prior 1/n (else only ε = 0 satisfies it); got "
            f"a_tilde={a_tilde!r} with n={n!r}"
        )
    return as_output(np.log((n_arr - 1) * a / (1 - a)))


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "r_tilde": """\
r_tilde : float or array_like
    r̃ > 1, the bound on the relative risk.""",
    "a_tilde": """\
a_tilde : float or array_like
    ã, the bound on the absolute risk (posterior), in [0, 1) (or (0, 1) where stated).""",
}

fill_docstrings(globals(), _SECTIONS)
