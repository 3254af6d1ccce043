"""Kazan & Reiter (NeurIPS 2024), "Prior-itizing Privacy": setting ε from a risk profile.

Notation (the paper's, Section 2.2). An adversary targets individual *i* and holds two prior
probabilities:

* ``p`` = pᵢ = P_M[Iᵢ = 1], the prior probability that *i* is included in the data;
* ``q`` = qᵢ = P_M[Yᵢ ∈ S | Iᵢ = 1], the prior probability that *i*'s values disclose
  (fall in the set S the agency treats as a privacy violation).

The *relative disclosure risk* rᵢ(p, q, t*) is the posterior-to-prior ratio of the event
{Yᵢ ∈ S, Iᵢ = 1} after the release T* = t*; the *absolute* risk aᵢ = rᵢ·p·q is the posterior.
An agency writes a *risk profile* r*(p, q): the largest relative risk it accepts when the prior
is (p, q) (``math.inf`` where it does not care). Theorem 1 bounds rᵢ for an ε-DP release,
Theorem 2 turns the bound around into the largest ε that respects r* at one (p, q), and
eq. (13) takes the minimum over all (p, q) ∈ (0, 1]². Table 4 collects closed forms of that
minimum for the paper's profiles; each has a function here, tested against the numerical
minimiser :func:`recommend_epsilon`.

Also here: the Durham county switching probability of Example 3 (Figure 2).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from ._validation import (
    as_output,
    check_half_open_unit,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
    check_real_or_inf,
)
from .mechanisms import geometric_cdf, geometric_noise_sd, geometric_prob_exact, geometric_sf

__all__ = [
    "DURHAM_BIRTHS",
    "DURHAM_TARGET",
    "Recommendation",
    "argmin_epsilon",
    "durham_switch_probability",
    "durham_true_counts",
    "epsilon_box_profile",
    "epsilon_constant_profile",
    "epsilon_difference_profile",
    "epsilon_inclusion_profile",
    "epsilon_lee_clifton_setting",
    "epsilon_values_profile",
    "evaluate_profile",
    "inclusion_profile",
    "max_epsilon",
    "max_epsilon_naive",
    "naive_bound",
    "recommend_epsilon",
    "relative_risk_bound",
    "two_dimensional_profile",
    "utility",
    "values_profile",
]

Profile = Callable[[float, float], float]


# --- Theorem 1 and Corollary 1 -----------------------------------------------------------


def relative_risk_bound(p, q, epsilon):
    """Theorem 1: rᵢ(p, q, t*) ≤ 1 / (q·p + e^{-2ε}(1-q)·p + e^{-ε}(1-p)) for an ε-DP release.

    ``p``, ``q`` in (0, 1], ``epsilon`` ≥ 0; all broadcast (numpy arrays welcome).
    """
    p = check_half_open_unit("p", p)
    q = check_half_open_unit("q", q)
    eps = check_nonnegative("epsilon", epsilon)
    return 1.0 / (q * p + np.exp(-2 * eps) * (1 - q) * p + np.exp(-eps) * (1 - p))


def naive_bound(epsilon):
    """Corollary 1 / eq. (7): rᵢ ≤ e^{2ε} for every (p, q): the bound behind ε = log(r̃)/2.

    Returns ``inf`` (without an overflow warning) once e^{2ε} exceeds the largest float
    (ε > 354.9): the bound is then larger than any float, which ``inf`` represents.

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
    r* = 1 gives εᵢ = 0; r* < 1 is refused.
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
        eps = np.log(((1 - p) + root) / (2 * c_safe))
    out = np.where(feasible, np.maximum(eps, 0.0), np.inf)
    return out[()] if out.ndim == 0 else out


def max_epsilon_naive(p, q, r_star):
    """eq. (12) exactly as printed (two branches, the cancelling denominator), for comparison.

    Kept to show in the notebook what the rewrite in :func:`max_epsilon` fixes; returns
    NaN/inf where the printed form breaks down. Do not use it for recommendations.
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
    return out[()] if out.ndim == 0 else out


# --- eq. (13): the numerical minimum -----------------------------------------------------


class Recommendation(NamedTuple):
    """The minimum of εᵢ over the search region and where it lies."""

    epsilon: float
    p: float
    q: float


def _call_profile(profile: Profile, P: np.ndarray, Q: np.ndarray, vectorized: bool) -> np.ndarray:
    """The user's profile on the points (P, Q); any exception it raises becomes a ValueError."""
    i = 0
    try:
        with np.errstate(all="ignore"):
            if vectorized:
                values = np.asarray(profile(P, Q), dtype=float)
            else:
                flat = np.empty(P.size)
                for i, (a, b) in enumerate(zip(P.ravel(), Q.ravel(), strict=True)):
                    flat[i] = float(profile(float(a), float(b)))
                values = flat.reshape(P.shape)
    except Exception as error:
        where = (
            "on arrays of (p, q) (vectorized=True)"
            if vectorized
            else f"at (p, q) = ({float(P.ravel()[i])!r}, {float(Q.ravel()[i])!r})"
        )
        raise ValueError(
            f"the risk profile (your code) raised {type(error).__name__} {where}: {error}; "
            "profile must return a number r*(p, q) ≥ 1 (math.inf where unbounded)"
        ) from error
    if values.shape != P.shape:
        try:
            values = np.broadcast_to(values, P.shape)
        except ValueError:
            raise ValueError(
                f"the risk profile was called with vectorized=True on arrays of shape {P.shape} "
                f"and returned shape {values.shape}; return one r* per (p, q), or pass "
                "vectorized=False to have it called point by point"
            ) from None
    return values


def evaluate_profile(profile: Profile, p, q, *, vectorized: bool | None = None):
    """r*(p, q) of a risk profile at the points (p, q), checked.

    Parameters
    ----------
    profile : callable
        ``profile(p, q) -> r*``, the largest relative risk the agency accepts at the prior
        (p, q) (``math.inf`` where it places no bound).
    p, q : float or array_like
        Points of (0, 1]²; they broadcast.
    vectorized : bool, optional, keyword-only
        ``True``: ``profile`` is called once on whole arrays (it must return one value per
        point). ``False``: it is called point by point with Python floats (a profile
        written with ``if``/``max``, as in the paper). Default: the profile's own
        ``vectorized`` attribute (set on the profiles this module builds), else ``False``.

    Returns
    -------
    float or numpy.ndarray
        r*(p, q): a Python float for scalar p and q, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If p or q lies outside (0, 1], if ``profile`` is not callable or raises (the
        message names the exception your code raised and where), returns the wrong shape,
        NaN, or a value below 1 (infeasible).

    Examples
    --------
    >>> evaluate_profile(lambda p, q: max(0.25 / (p * q), 3.0), 0.5, 0.5)
    3.0
    """
    if not callable(profile):
        raise ValueError(f"profile must be a function r*(p, q); got {profile!r}")
    P, Q = np.broadcast_arrays(check_half_open_unit("p", p), check_half_open_unit("q", q))
    if vectorized is None:
        vectorized = bool(getattr(profile, "vectorized", False))
    elif not isinstance(vectorized, (bool, np.bool_)):
        raise ValueError(f"vectorized must be True, False or None; got {vectorized!r}")
    values = _call_profile(profile, P, Q, bool(vectorized))
    if np.any(np.isnan(values)):
        i = np.flatnonzero(np.isnan(values.ravel()))[0]
        raise ValueError(
            f"the risk profile returned NaN at (p, q) = ({P.ravel()[i]:.6g}, {Q.ravel()[i]:.6g}); "
            "return math.inf where the agency places no bound"
        )
    if np.any(values < 1):
        i = np.flatnonzero(values.ravel() < 1)[0]
        raise ValueError(
            f"the risk profile is infeasible: r*(p, q) = {values.ravel()[i]:.6g} < 1 at "
            f"(p, q) = ({P.ravel()[i]:.6g}, {Q.ravel()[i]:.6g}); a relative risk below 1 "
            "(posterior below the prior) cannot be guaranteed by any ε ≥ 0"
        )
    return float(values) if values.ndim == 0 else np.array(values, dtype=float)


def _epsilon_on(profile: Profile, P, Q) -> np.ndarray:
    return max_epsilon(P, Q, profile(P, Q))


_PENALTY = 1e6  # stands in for inf inside the local optimisers (golden-section steps cope)


def _scalar_objective(profile: Profile, fixed_p, fixed_q):
    def f(x: float) -> float:
        p = x if fixed_p is None else fixed_p
        q = x if fixed_q is None else fixed_q
        value = float(max_epsilon(p, q, profile(p, q)))
        return min(value, _PENALTY)

    return f


def _axis(n_linear: int, log_from: float, n_log: int, n_deep: int) -> np.ndarray:
    # the deep decades down to 1e-150 let an infimum approached as p → 0 or q → 0 be reached
    # even when r* is huge (a constant r* = 1e16 is finite only where p·q < 1e-16)
    return np.unique(
        np.concatenate(
            [
                np.linspace(0, 1, n_linear + 1)[1:],
                np.logspace(log_from, 0, n_log),
                np.logspace(-150, log_from, n_deep),
            ]
        )
    )


# coarse search grids, and finer ones tried only when the coarse grid sees no finite εᵢ
# (a profile that bounds a region narrower than the coarse spacing, e.g. a thin box (25))
_AXIS_1D = _axis(2000, -12, 241, 139)
_AXIS_1D_FINE = _axis(40_000, -12, 241, 139)
_AXIS_2D = _axis(160, -9, 46, 29)
_AXIS_2D_FINE = _axis(600, -9, 46, 29)


def _slice_minimum(profile: Profile, *, p=None, q=None) -> Recommendation:
    """Minimum of εᵢ along x ∈ (0, 1] with the other coordinate fixed."""
    for x in (_AXIS_1D, _AXIS_1D_FINE):
        P = x if p is None else np.full_like(x, p)
        Q = x if q is None else np.full_like(x, q)
        eps = _epsilon_on(profile, P, Q)
        if np.isfinite(eps).any():
            break
    best_i = int(np.argmin(eps))
    best_x, best_eps = float(x[best_i]), float(eps[best_i])
    if np.isfinite(best_eps):
        # refine inside the neighbouring cells (a kink or a jump of the profile sits there)
        lo = float(x[best_i - 1]) if best_i > 0 else 0.0
        hi = float(x[min(best_i + 1, x.size - 1)]) if best_i < x.size - 1 else 1.0
        lo = float(x[best_i - 1]) if best_i == x.size - 1 else lo
        f = _scalar_objective(profile, p, q)
        res = minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13})
        if res.fun < best_eps:
            best_x, best_eps = float(res.x), float(res.fun)
        # a minimum at a jump from inf (the edge of a box (25)): Brent stops ~1e-8 short of
        # the edge; bisect for the edge itself
        for side in (-1, 1):
            j = best_i + side
            if 0 <= j < x.size and not np.isfinite(eps[j]):
                bad, good = float(x[j]), best_x
                for _ in range(80):
                    mid = 0.5 * (bad + good)
                    if mid in (bad, good):
                        break
                    if f(mid) < _PENALTY:
                        good = mid
                    else:
                        bad = mid
                value = f(good)
                if value < best_eps:
                    best_x, best_eps = good, value
    return Recommendation(
        best_eps, best_x if p is None else float(p), best_x if q is None else float(q)
    )


def _plane_minimum(profile: Profile) -> Recommendation:
    for axis in (_AXIS_2D, _AXIS_2D_FINE):
        P, Q = np.meshgrid(axis, axis, indexing="ij")
        eps = _epsilon_on(profile, P, Q)
        if np.isfinite(eps).any():
            break
    i, j = np.unravel_index(int(np.argmin(eps)), eps.shape)
    candidates = [Recommendation(float(eps[i, j]), float(axis[i]), float(axis[j]))]
    if not np.isfinite(eps[i, j]):
        return candidates[0]
    # the boundary p = 1 and q = 1 (minima often sit there: Theorem 3, Corollary 2, C.3)
    candidates.append(_slice_minimum(profile, p=1.0))
    candidates.append(_slice_minimum(profile, q=1.0))
    # local refinement from the grid minimum: Nelder–Mead in the neighbouring cells, then
    # alternate one-dimensional searches (robust to the kinks of max(ã/(pq), r̃))
    lo_p, hi_p = axis[max(i - 1, 0)], axis[min(i + 1, axis.size - 1)]
    lo_q, hi_q = axis[max(j - 1, 0)], axis[min(j + 1, axis.size - 1)]

    def f2(v):
        pp, qq = float(np.clip(v[0], 1e-15, 1.0)), float(np.clip(v[1], 1e-15, 1.0))
        value = float(max_epsilon(pp, qq, profile(pp, qq)))
        return min(value, _PENALTY)

    res = minimize(
        f2,
        x0=[axis[i], axis[j]],
        method="Nelder-Mead",
        bounds=[(lo_p, hi_p), (lo_q, hi_q)],
        options={"xatol": 1e-12, "fatol": 1e-13, "maxiter": 400},
    )
    candidates.append(Recommendation(float(res.fun), float(res.x[0]), float(res.x[1])))
    best = min(candidates)
    for _ in range(3):
        along_p = _slice_minimum(profile, q=best.q)
        along_q = _slice_minimum(profile, p=along_p.p)
        new = min([best, along_p, along_q])
        if new.epsilon >= best.epsilon - 1e-13:
            best = new
            break
        best = new
    return best


def argmin_epsilon(
    profile: Profile, *, p=None, q=None, vectorized: bool | None = None
) -> Recommendation:
    """eq. (13): minimise εᵢ(p, q) over (0, 1]² (or a slice with ``p`` or ``q`` fixed).

    Parameters
    ----------
    profile : callable
        ``profile(p, q) -> r*(p, q)`` (``math.inf`` where the agency places no bound).
    p, q : float, optional, keyword-only
        Fix one coordinate to search a slice (both: evaluate one point).
    vectorized : bool, optional, keyword-only
        Whether ``profile`` accepts whole numpy arrays (one call per grid) or must be
        called point by point (written with ``if``/``max`` on scalars, as in the paper).
        Default: the profile's ``vectorized`` attribute (``True`` on the profiles this
        module builds), else ``False``. Nothing is guessed by probing.

    Returns
    -------
    Recommendation
        ``(epsilon, p, q)``: the minimum (Python floats) and where it lies.

    Raises
    ------
    ValueError
        If the profile raises (wrapped, naming your exception), is NaN or below 1
        anywhere (infeasible), only admits ε = 0 (r* = 1 somewhere), or bounds nothing
        (εᵢ infinite on the whole search grid).

    Notes
    -----
    Method: a grid (2,000 linear + 240 logarithmic points down to 1e-12, and 139 more down
    to 1e-150, on a slice; about 235 × 235 on the plane) locates the minimum; bounded Brent /
    Nelder–Mead refine it inside the neighbouring cells; on the plane the edges p = 1 and
    q = 1 are searched separately and coordinate-wise one-dimensional searches polish the
    point. If the coarse grid sees no finite εᵢ at all, a finer one is tried (spacing
    1/40,000 on a slice, 1/600 on the plane). Agrees with every closed form of Table 4 to
    better than 1e-6 (the tests assert 1e-6; the authors' plain 10⁶-point grid misses
    kinks by up to 0.002). Where the minimum is only approached as p → 0 or q → 0 (an
    infimum), the value at p or q = 1e-150 is returned: exact to rounding for r* < 1e135
    (a constant r* = 1e16 gives ½·log r* to 1e-16; the grid used to stop at 1e-12 and
    return 2× that at r* = 1e15).

    Limitation (of any search that samples the profile): a profile that is finite only on a
    set thinner than the fine grid (a box (25) narrower than 1/600 on the plane, or a single
    line such as q = q̃) is not seen on the plane; search it on its slice with ``p=``/``q=``.

    References
    ----------
    Kazan & Reiter (2024), eq. (12)–(13), Table 4.

    Examples
    --------
    >>> round(argmin_epsilon(lambda p, q: 3.0).epsilon, 6)  # Theorem 3: ½·log 3
    0.549306
    """
    if p is not None:
        p = float(check_half_open_unit("p", p))
    if q is not None:
        q = float(check_half_open_unit("q", q))
    if not callable(profile):
        raise ValueError(f"profile must be a function r*(p, q); got {profile!r}")
    if vectorized is None:
        vectorized = bool(getattr(profile, "vectorized", False))
    elif not isinstance(vectorized, (bool, np.bool_)):
        raise ValueError(f"vectorized must be True, False or None; got {vectorized!r}")
    user_profile = profile

    def profile(pp, qq):
        return evaluate_profile(user_profile, pp, qq, vectorized=bool(vectorized))

    if p is not None and q is not None:
        eps = float(max_epsilon(p, q, profile(p, q)))
        best = Recommendation(eps, p, q)
    elif p is not None or q is not None:
        best = _slice_minimum(profile, p=p, q=q)
    else:
        best = _plane_minimum(profile)
    where = "the slice" if (p is None) != (q is None) else "(0, 1]²"
    if not np.isfinite(best.epsilon) or best.epsilon >= _PENALTY:
        hint = (
            "spacing 1/40,000"
            if where == "the slice"
            else "spacing 1/600; a bound on a thinner set, e.g. the line q = q̃, must be "
            "searched on that slice: recommend_epsilon(profile, q=q̃)"
        )
        raise ValueError(
            f"the risk profile bounds nothing on {where}: r*(p, q) ≥ 1/(p·q) (or inf) "
            f"everywhere, so every ε is allowed; give a finite bound somewhere (searched on a "
            f"grid of {hint})"
        )
    if best.epsilon <= 0:
        raise ValueError(
            f"the risk profile is infeasible for ε > 0: it requires r* ≤ 1 at "
            f"(p, q) = ({best.p:.6g}, {best.q:.6g}), which only ε = 0 (a release that carries "
            "no information) satisfies"
        )
    return best


def recommend_epsilon(profile: Profile, *, p=None, q=None, vectorized: bool | None = None) -> float:
    """The recommended ε of eq. (13): ``argmin_epsilon(profile, ...).epsilon``.

    Parameters, raises: as :func:`argmin_epsilon`.

    Returns
    -------
    float
        min εᵢ(p, q) over the search region.

    Examples
    --------
    >>> round(recommend_epsilon(lambda p, q: 1e16), 6)  # ½·log 1e16
    18.420681
    """
    return argmin_epsilon(profile, p=p, q=q, vectorized=vectorized).epsilon


# --- the paper's profiles as functions (vectorised) -------------------------------------


def _check_r_tilde(r) -> float:
    r = float(check_real("r", r))
    if r <= 1:
        raise ValueError(f"r (the relative-risk bound r̃) must be > 1; got {r!r}")
    return r


def _check_a_tilde(a, *, allow_zero: bool = True) -> float:
    a = float(check_real("a", a))
    if a >= 1 or a < 0 or (a == 0 and not allow_zero):
        allowed = "[0, 1)" if allow_zero else "(0, 1)"
        raise ValueError(
            f"a (the absolute-risk bound ã) must lie in {allowed}: a posterior bound of 1 or "
            f"more bounds nothing; got {a!r}"
        )
    return a


def inclusion_profile(a: float, q_tilde: float, r: float) -> Profile:
    """Profile (15): r*(p, q) = max(ã/(p·q̃), r̃) on the slice q = q̃, inf elsewhere."""
    a, r = _check_a_tilde(a), _check_r_tilde(r)
    q_tilde = float(check_half_open_unit("q_tilde", q_tilde))

    def profile(p, q):
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        with np.errstate(divide="ignore"):
            value = np.where(q == q_tilde, np.maximum(a / (p * q_tilde), r), np.inf)
        return float(value) if value.ndim == 0 else value

    profile.vectorized = True
    return profile


def values_profile(a: float, p_tilde: float, r: float) -> Profile:
    """Profile (16): r*(p, q) = max(ã/(p̃·q), r̃) on the slice p = p̃, inf elsewhere."""
    a, r = _check_a_tilde(a), _check_r_tilde(r)
    p_tilde = float(check_half_open_unit("p_tilde", p_tilde))

    def profile(p, q):
        p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
        with np.errstate(divide="ignore"):
            value = np.where(p == p_tilde, np.maximum(a / (p_tilde * q), r), np.inf)
        return float(value) if value.ndim == 0 else value

    profile.vectorized = True
    return profile


def two_dimensional_profile(a: float = 0.25, r: float = 3.0) -> Profile:
    """Profile (33) of Appendix C.3: r*(p, q) = max(ã/(p·q), r̃) on all of (0, 1]²."""
    a, r = _check_a_tilde(a, allow_zero=False), _check_r_tilde(r)

    def profile(p, q):
        with np.errstate(divide="ignore"):
            value = np.maximum(a / (np.asarray(p, dtype=float) * np.asarray(q, dtype=float)), r)
        return float(value) if value.ndim == 0 else value

    profile.vectorized = True
    return profile


# --- Table 4: closed forms ---------------------------------------------------------------


def epsilon_constant_profile(r):
    """Theorem 3, profile (14) r*(p, q) = r̃ everywhere: ε = ½·log(r̃) (vectorised)."""
    r = check_real("r", r)
    if np.any(r <= 1):
        raise ValueError(
            f"r (the relative-risk bound r̃) must be > 1; got {r[r <= 1].ravel()[:3]!r}"
        )
    return 0.5 * np.log(r)


def epsilon_inclusion_profile(a: float, q: float, r: float) -> float:
    """Theorem 5 / eq. (24), profile (15) r* = max(ã/(p·q̃), r̃) on q = q̃ (``q`` is q̃).

    Branches (0 ≤ ã < 1, r̃ > 1, 0 < q̃ ≤ 1):

    * q̃ ≤ ã/r̃ (the whole slice bounds absolute risk): ½·log(ã(1−q̃) / (q̃(1−ã)));
    * ã/r̃ < q̃ ≤ 1/(r̃+1), q̃ < 1: ½·log((1−q̃) / (1/r̃ − q̃)) (minimum at p = 1);
    * 1/(r̃+1) < q̃ < 1, ã/r̃ < q̃: minimum at the kink p = ã/(r̃q̃),
      log(2ã(1−q̃) / (√((r̃q̃−ã)² + 4ãq̃(1−q̃)(1−ã)) − (r̃q̃−ã))), computed here in the
      conjugate form (√(…) + (r̃q̃−ã)) / (2q̃(1−ã)) which stays finite at ã = 0;
    * q̃ = 1: log((r̃ − ã)/(1 − ã)).
    """
    a, r = _check_a_tilde(a), _check_r_tilde(r)
    q = float(check_half_open_unit("q", q))
    if q == 1:
        return math.log((r - a) / (1 - a))
    if q <= a / r:
        return 0.5 * math.log(a * (1 - q) / (q * (1 - a)))
    if q <= 1 / (r + 1):
        return 0.5 * math.log((1 - q) / (1 / r - q))
    b = r * q - a
    return math.log((math.sqrt(b * b + 4 * a * q * (1 - q) * (1 - a)) + b) / (2 * q * (1 - a)))


def epsilon_values_profile(a: float, p: float, r: float) -> float:
    """Theorem 4 / eq. (23), profile (16) r* = max(ã/(p̃·q), r̃) on p = p̃ (``p`` is p̃).

    * p̃ ≤ ã/r̃: log(ã(1−p̃) / (p̃(1−ã))) (the whole slice bounds absolute risk; minimum at q = 1);
    * ã/r̃ < p̃ ≤ 1: minimum at the kink q = ã/(p̃r̃),
      log(2(p̃r̃−ã) / (√(r̃²(1−p̃)² + 4(p̃r̃−ã)(1−ã)) − r̃(1−p̃))).

    As printed, the second branch is 0/0 at p̃ = ã/r̃, and in floating point a parameter
    set *on* the boundary (Table 5's agency B: ã = 0.15, p̃ = 0.05, r̃ = 3, where
    0.15/3 = 0.049999… < 0.05) lands in it. Here it is computed in the conjugate form
    (√(…) + r̃(1−p̃)) / (2(1−ã)), which equals (r̃−ã)/(1−ã) at the boundary, exactly the
    first branch's value there: the two branches join continuously.
    """
    a, r = _check_a_tilde(a, allow_zero=False), _check_r_tilde(r)
    p = float(check_half_open_unit("p", p))
    if p <= a / r:
        return math.log(a * (1 - p) / (p * (1 - a)))
    d = p * r - a
    return math.log((math.sqrt((r * (1 - p)) ** 2 + 4 * d * (1 - a)) + r * (1 - p)) / (2 * (1 - a)))


def epsilon_box_profile(r: float, p0: float, p1: float, q0: float, q1: float) -> float:
    """eq. (26), profile (25): r* = r̃ on the box p̃₀ ≤ p ≤ p̃₁, q̃₀ ≤ q ≤ q̃₁, inf outside.

    Requires 0 ≤ p̃₀ ≤ p̃₁ ≤ 1, 0 ≤ q̃₀ ≤ q̃₁ ≤ 1, p̃₁ > 0, q̃₁ > 0. By Lemma 3 the minimum
    sits at a corner: (p̃₁, q̃₀) if q̃₀ ≤ 1/(r̃+1); (p̃₀, q̃₀) if 1/(r̃+1) < q̃₀ (log r̃ in the
    limit p → 0 when p̃₀ = 0); at q̃₀ = 1, log((1−p̃₀)/(1/r̃ − p̃₀)). A corner with q̃₀ = 0
    is the limit q → 0. Returns inf when the box lies where r̃ ≥ 1/(p·q) (nothing bounded).
    """
    r = _check_r_tilde(r)
    vals = {k: float(check_real(k, v)) for k, v in dict(p0=p0, p1=p1, q0=q0, q1=q1).items()}
    p0, p1, q0, q1 = vals["p0"], vals["p1"], vals["q0"], vals["q1"]
    if not (0 <= p0 <= p1 <= 1) or p1 == 0:
        raise ValueError(
            f"the box needs 0 ≤ p0 ≤ p1 ≤ 1 with p1 > 0 (eq. (25)); got p0={p0!r}, p1={p1!r}"
        )
    if not (0 <= q0 <= q1 <= 1) or q1 == 0:
        raise ValueError(
            f"the box needs 0 ≤ q0 ≤ q1 ≤ 1 with q1 > 0 (eq. (25)); got q0={q0!r}, q1={q1!r}"
        )

    def corner(pc: float, qc: float) -> float:
        # εᵢ(pc, qc) from max_epsilon's stable form, allowing the limits qc → 0
        c = 1 / r - pc * qc
        if c <= 0:
            return math.inf
        return math.log(((1 - pc) + math.sqrt((1 - pc) ** 2 + 4 * pc * (1 - qc) * c)) / (2 * c))

    if q0 == 1:
        c = 1 / r - p0
        return math.log((1 - p0) / c) if c > 0 else math.inf
    if q0 <= 1 / (r + 1):
        return corner(p1, q0)
    if p0 > 0:
        return corner(p0, q0)
    return math.log(r)


def epsilon_difference_profile(b):
    """eq. (29), profile (28) r* = 1 + b̃/(p·q) (posterior − prior ≤ b̃): ε = log((1+b̃)/(1−b̃))."""
    b = check_open_unit("b", b)
    return np.log1p(b) - np.log1p(-b)


def epsilon_lee_clifton_setting(n: int, a: float) -> float:
    """eq. (38), Appendix D.1: Lee & Clifton's setting (p = 1/n, q = 1, r* = n·ã).

    ε = log((n−1)·ã / (1−ã)); needs n ≥ 2 and 1/n < ã < 1 (at ã ≤ 1/n the adversary's prior
    1/n already meets the bound, so no ε > 0 is allowed).
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n (the population size) must be an integer ≥ 2; got {n!r}")
    a = _check_a_tilde(a, allow_zero=False)
    if a <= 1 / n:
        raise ValueError(
            f"a must exceed the prior 1/n = {1 / n:.6g} (else only ε = 0 satisfies it); got {a!r}"
        )
    return math.log((n - 1) * a / (1 - a))


# --- utility (Tables 1 and 5, Figure 2) --------------------------------------------------


def utility(epsilon):
    """Noise SD and P[exact] of the geometric mechanism at ε: the columns of Tables 1 and 5."""
    eps = check_positive("epsilon", epsilon)
    return geometric_noise_sd(eps), geometric_prob_exact(eps)


DURHAM_BIRTHS = 4012  # live births, Durham county, 2020 (Example 3)
DURHAM_TARGET = 6.0  # Healthy People 2020 target, deaths per 1,000 live births


def durham_true_counts(deviation, births: int = DURHAM_BIRTHS, target: float = DURHAM_TARGET):
    """Hypothetical true death counts with the rate ``deviation`` per 1,000 above / below target.

    Counts are whole deaths: (target ± deviation)·births/1000 rounded to the nearest integer.
    Returns (count_above, count_below, threshold) where threshold = target·births/1000 is the
    count at which the rate meets the target exactly (24.072 for Durham): a release meets
    the target iff it is ≤ threshold.
    """
    d = check_positive("deviation", deviation)
    births = check_positive("births", births)
    target = check_positive("target", target)
    threshold = target * births / 1000
    above = np.rint((target + d) * births / 1000)
    below = np.rint((target - d) * births / 1000)
    if np.any(below < 0):
        raise ValueError(f"deviation must be below the target {target}; got {d!r}")
    if np.any(above <= threshold) or np.any(below > threshold):
        raise ValueError(
            f"deviation is too small for whole counts: (target ± deviation)·births/1000 rounds "
            f"to a count on the same side of the threshold {threshold:g}; got {d!r}"
        )
    return above, below, threshold


def durham_switch_probability(
    epsilon,
    deviation,
    direction: str = "above",
    *,
    births: int = DURHAM_BIRTHS,
    target: float = DURHAM_TARGET,
):
    """P[the geometric release lands on the other side of the target than the truth] (Fig. 2).

    ``direction``:

    * ``"above"``: the true rate is target + deviation (target missed) and the release
      T* = T + Z meets it, T* ≤ threshold: P[Z ≤ ⌊threshold⌋ − T];
    * ``"below"``: the true rate is target − deviation and the release misses it,
      T* > threshold: P[Z ≥ ⌊threshold⌋ + 1 − T];
    * ``"worst"``: the larger of the two (a two-sided reading: the agency does not know on
      which side the truth lies).

    Because counts are integers the two directions differ (for Durham, a deviation of 0.25
    is 1 death above the threshold but 2 deaths below it). Vectorised over ε and deviation.
    """
    eps = check_positive("epsilon", epsilon)
    above, below, threshold = durham_true_counts(deviation, births, target)
    cut = np.floor(threshold)
    p_above = geometric_cdf(cut - above, eps)
    p_below = geometric_sf(cut - below, eps)  # P[Z ≥ cut + 1 − below], not 1 − cdf
    if direction == "above":
        return p_above
    if direction == "below":
        return p_below
    if direction == "worst":
        return np.maximum(p_above, p_below)
    raise ValueError(f"direction must be 'above', 'below' or 'worst'; got {direction!r}")
