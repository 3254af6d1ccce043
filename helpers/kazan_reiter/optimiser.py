"""eq. (13): the numerical minimum of εᵢ(p, q) over (0, 1]² or a slice, for any risk profile.

A general-purpose search (grid, bounded Brent / Nelder–Mead, edge bisection) over a user's
callable. Whether the profile is called on arrays or point by point is declared with the
explicit ``vectorized=`` flag (or the profile's ``vectorized`` attribute), never guessed.

Changes when: the search method, its grids or its tolerance change.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from .._validation import (
    check_half_open_unit,
    check_real,
    check_scalar,
)
from .theorems import _C_TOL, max_epsilon

Profile = Callable[[float, float], float]

__all__ = [
    "AUTHORS_RESOLUTION",
    "Recommendation",
    "argmin_epsilon",
    "evaluate_profile",
    "recommend_epsilon",
]


# --- eq. (13): the numerical minimum -----------------------------------------------------


class Recommendation(NamedTuple):
    """The minimum of εᵢ over the search region and where it lies."""

    epsilon: float
    p: float
    q: float


def _call_profile(profile: Profile, P: np.ndarray, Q: np.ndarray, vectorized: bool) -> np.ndarray:
    """The user's profile on the points (P, Q); any exception it raises becomes a ValueError.

    Only real numbers are accepted back: a string ("3"), a bool or an object array is refused
    rather than coerced, so a profile that returns the wrong thing is never read as a bound.
    """
    values = None
    try:
        with np.errstate(all="ignore"):
            if vectorized:
                values = profile(P, Q)
            else:
                # point by point with Python floats; map() keeps the per-call overhead small
                # (10⁶ calls of a one-line profile take about 0.1 s)
                values = list(map(profile, P.ravel().tolist(), Q.ravel().tolist()))
    except Exception as error:
        where = "on arrays of (p, q) (vectorized=True)"
        if not vectorized:
            # find the failing point again, one call at a time, to name it
            for a, b in zip(P.ravel().tolist(), Q.ravel().tolist(), strict=True):
                try:
                    profile(a, b)
                except Exception:
                    where = f"at (p, q) = ({a!r}, {b!r})"
                    break
        raise ValueError(
            f"the risk profile (your code) raised {type(error).__name__} {where}: {error}; "
            "profile must return a number r*(p, q) ≥ 1 (math.inf where unbounded)"
        ) from error
    values = _as_real_values(values, vectorized, P, Q)
    if not vectorized:
        values = values.reshape(P.shape)
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


_REAL_TYPES = (float, int, np.floating, np.integer)


def _unwrap_number(value):
    """A 0-d or one-element numeric array as its number; anything else unchanged."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "fiu":
        return value.reshape(()).item()
    return value


def _as_real_values(values, vectorized: bool, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """A profile's return value as a float array; strings, bools and objects refused."""
    if not vectorized:
        kinds = set(map(type, values))
        if np.ndarray in kinds:
            # a one-number array (np.full_like(p, 3.0) on a float p) is a number; unwrap it
            values = [_unwrap_number(v) for v in values]
            kinds = set(map(type, values))
        bad = [
            k for k in kinds if not issubclass(k, _REAL_TYPES) or issubclass(k, (bool, np.bool_))
        ]
        if bad:
            i = next(i for i, v in enumerate(values) if type(v) in bad)
            raise ValueError(
                f"the risk profile (your code) returned {values[i]!r} of type "
                f"{type(values[i]).__name__} at (p, q) = ({P.ravel()[i]!r}, {Q.ravel()[i]!r}); "
                "profile must return a real number r*(p, q) ≥ 1 "
                "(math.inf where unbounded), not a string, bool or other object"
            )
        return np.array(values, dtype=float)
    array = np.asarray(values)
    if array.dtype.kind not in "fiu":
        shown = array.ravel()[0] if array.size else array
        raise ValueError(
            f"the risk profile (your code) returned {shown!r} (dtype {array.dtype}); profile "
            "must return real numbers r*(p, q) ≥ 1 (math.inf where unbounded), not strings, "
            "bools or objects"
        )
    return array.astype(float, copy=False)


def evaluate_profile(profile: Profile, p, q, *, vectorized: bool | None = None):
    """r*(p, q) of a risk profile at the points (p, q), checked.

    Used in notebook 06.

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

    References
    ----------
    Kazan & Reiter (2024), Section 3 (risk profiles).

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
    values = _checked_values(profile, P, Q, bool(vectorized))
    return float(values) if values.ndim == 0 else np.array(values, dtype=float)


def _checked_values(profile: Profile, P: np.ndarray, Q: np.ndarray, vectorized: bool) -> np.ndarray:
    """The profile on (P, Q), refused where it is NaN or below 1 (infeasible)."""
    values = _call_profile(profile, P, Q, vectorized)
    if np.isnan(values).any():
        i = np.flatnonzero(np.isnan(values.ravel()))[0]
        raise ValueError(
            f"the risk profile returned NaN at (p, q) = ({P.ravel()[i]:.6g}, {Q.ravel()[i]:.6g}); "
            "return math.inf where the agency places no bound"
        )
    if (values < 1).any():
        i = np.flatnonzero(values.ravel() < 1)[0]
        raise ValueError(
            f"the risk profile is infeasible: r*(p, q) = {values.ravel()[i]:.6g} < 1 at "
            f"(p, q) = ({P.ravel()[i]:.6g}, {Q.ravel()[i]:.6g}); a relative risk below 1 "
            "(posterior below the prior) cannot be guaranteed by any ε ≥ 0"
        )
    return values


class _CheckedProfile:
    """The user's profile, called as declared (on arrays or point by point), values checked.

    ``profile(P, Q)`` gives r* on arrays (refused where NaN, below 1 or not a number);
    ``profile.epsilon(p, q)`` gives εᵢ at one point in plain floats, cheaply: the local
    optimisers call it thousands of times.
    """

    def __init__(self, raw: Profile, vectorized: bool) -> None:
        self.raw, self.vectorized = raw, vectorized

    def __call__(self, P, Q) -> np.ndarray:
        P, Q = np.broadcast_arrays(np.asarray(P, dtype=float), np.asarray(Q, dtype=float))
        return _checked_values(self.raw, P, Q, self.vectorized)

    def epsilon(self, p: float, q: float) -> float:
        """εᵢ(p, q) of Theorem 2, as :func:`max_epsilon` computes it (same operations)."""
        try:
            with np.errstate(all="ignore"):
                if self.vectorized:
                    value = self.raw(np.asarray(p), np.asarray(q))
                else:
                    value = self.raw(p, q)
            value = _unwrap_number(value)
            kind = type(value)
            ok = issubclass(kind, _REAL_TYPES) and not issubclass(kind, (bool, np.bool_))
            r = float(value) if ok else math.nan
        except Exception:
            r = math.nan
        if not r >= 1:  # NaN, below 1, an exception or a non-number: let the checks say which
            self(p, q)
        c = 1.0 / r - p * q
        if not c > _C_TOL / r:
            return math.inf
        root = math.sqrt((1 - p) ** 2 + 4 * p * (1 - q) * c)
        return max(math.log(((1 - p) + root) / (2 * c)), 0.0)


def _epsilon_on(profile: _CheckedProfile, P, Q) -> np.ndarray:
    return max_epsilon(P, Q, profile(P, Q))


_PENALTY = 1e6  # stands in for inf inside the local optimisers (golden-section steps cope)


def _scalar_objective(profile: _CheckedProfile, fixed_p, fixed_q):
    def f(x: float) -> float:
        p = float(x) if fixed_p is None else fixed_p
        q = float(x) if fixed_q is None else fixed_q
        return min(profile.epsilon(p, q), _PENALTY)

    return f


#: The spacing of Kazan & Reiter's own search: ``find_eps`` in their repository
#: (github.com/zekicankazan/choosing_dp_epsilon, find_eps.R) evaluates the profile on
#: ``seq(1e-3, 1, 1e-3)`` × ``seq(1e-3, 1, 1e-3)``, 10⁶ points.
AUTHORS_RESOLUTION = 1e-3

# Work budgets for ``resolution=``: profile evaluations on the plane (vectorised profiles run
# at about 30 ns a point, point-by-point ones at about 0.3 µs plus the profile's own cost).
_MAX_POINTS_VECTORIZED = 4 * 10**8
_MAX_POINTS_SCALAR = 25 * 10**6
_BLOCK = 1 << 21  # points per call of a vectorised profile (memory: a few arrays of 16 MB)


def _regular_axis(resolution: float) -> np.ndarray:
    """The points k·h of (0, 1], written the three ways a grid of spacing h is written.

    R's ``seq(h, 1, h)`` is h + k·h, Python's is (k+1)/n or ``linspace``; they differ in the
    last bit at about one point in six, and a zone whose edge is a grid point can contain one
    rounding and not the other. Searching all three keeps the guarantee "never above the
    authors' grid" whichever way that grid was written.
    """
    n = int(np.floor(1.0 / resolution + 1e-9))
    k = np.arange(n, dtype=float)
    variants = [
        resolution + k * resolution,
        (k + 1) * resolution,
        np.linspace(resolution, n * resolution, n),
    ]
    if abs(n * resolution - 1.0) < 1e-12:
        variants.append((k + 1) / n)
    axis = np.concatenate([*variants, [1.0]])
    return axis[(axis > 0) & (axis <= 1)]


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


# one-dimensional search grids, and a finer one tried only when the first sees no finite εᵢ
_AXIS_1D = np.union1d(_axis(2000, -12, 241, 139), _regular_axis(AUTHORS_RESOLUTION))
_AXIS_1D_FINE = _axis(40_000, -12, 241, 139)
# the plane: the authors' grid, plus logarithmic points toward p → 0 and q → 0
_AXIS_2D_LOG = _axis(0, -9, 46, 29)


def _fine_axis(resolution: float) -> np.ndarray:
    """k·h for k = 1, ..., ⌊1/h⌋, and 1: a finer grid than the authors' needs one spelling."""
    n = int(np.floor(1.0 / resolution + 1e-9))
    return np.append(np.arange(1, n + 1) * resolution, 1.0)


def _plane_axis(resolution: float) -> np.ndarray:
    parts = [_regular_axis(AUTHORS_RESOLUTION), _AXIS_2D_LOG]
    if resolution < AUTHORS_RESOLUTION:
        parts.append(_fine_axis(resolution))
    axis = np.unique(np.concatenate(parts))
    return axis[(axis > 0) & (axis <= 1)]


def _check_resolution(resolution, vectorized: bool) -> float:
    value = check_scalar("resolution", check_real("resolution", resolution), resolution)
    budget = _MAX_POINTS_VECTORIZED if vectorized else _MAX_POINTS_SCALAR
    # the plane's axis holds the authors' 1,170 spellings and 75 log points besides k·h
    finest = 1.0 / (np.sqrt(budget) - _plane_axis(AUTHORS_RESOLUTION).size)
    style = "a vectorized profile" if vectorized else "a profile called point by point"
    if not finest <= value <= AUTHORS_RESOLUTION:
        points = (
            f"; it would evaluate the profile about {min(1 / value, 1e154) ** 2:.3g} times"
            if value > 0
            else ""
        )
        raise ValueError(
            f"resolution must lie in [{finest:.3g}, {AUTHORS_RESOLUTION:g}] for {style} (at most "
            f"{budget:.3g} evaluations on the plane; coarser than the authors' 1e-3 grid is "
            f"never used){points}; got {resolution!r}"
        )
    return value


def _grid_minimum(profile: _CheckedProfile, axis: np.ndarray) -> Recommendation:
    """The smallest εᵢ over axis × axis: (ε, p, q), ε = inf when nothing is bounded.

    Every point is evaluated (no sampling, no early exit): the result is never above the
    minimum over any subset of the grid, the authors' 10⁶ points among them. The profile is
    called on blocks of rows; εᵢ is ranked by the argument of eq. (12)'s logarithm (the same
    order, no logarithm per point) and computed by :func:`max_epsilon` at the winner.
    """
    n = axis.size
    rows = max(1, _BLOCK // n)
    one_minus = 1.0 - axis
    best_x, best = np.inf, None
    for start in range(0, n, rows):
        p = axis[start : start + rows]
        P, Q = np.meshgrid(p, axis, indexing="ij")
        r = profile(P, Q)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            c = np.reciprocal(r)
            c -= np.multiply.outer(p, axis)
            feasible = c > _C_TOL / r
            x = np.multiply.outer(4.0 * p, one_minus)
            x *= c
            x += ((1.0 - p) ** 2)[:, None]
            np.sqrt(x, out=x)
            x += (1.0 - p)[:, None]
            x /= c
        x[~feasible] = np.inf
        k = int(np.argmin(x))
        if x.flat[k] < best_x:
            i, j = divmod(k, n)
            best_x, best = x.flat[k], (float(p[i]), float(axis[j]), float(r[i, j]))
    if best is None:
        return Recommendation(np.inf, 1.0, 1.0)
    pp, qq, rr = best
    return Recommendation(float(max_epsilon(pp, qq, rr)), pp, qq)


def _neighbours(x: np.ndarray, i: int) -> tuple[int, int]:
    """Indices of the grid points next to x[i] that are distinct from it (a union of grids
    holds points one rounding apart; a refinement bracket between those would be empty).
    -1 or x.size where there is none."""
    below = int(np.searchsorted(x, x[i] * (1 - 1e-9), side="left")) - 1
    above = int(np.searchsorted(x, x[i] * (1 + 1e-9), side="right"))
    return below, above


def _slice_minimum(
    profile: Profile, *, p=None, q=None, resolution: float = AUTHORS_RESOLUTION
) -> Recommendation:
    """Minimum of εᵢ along x ∈ (0, 1] with the other coordinate fixed."""
    first = (
        _AXIS_1D
        if resolution >= AUTHORS_RESOLUTION
        else np.union1d(_AXIS_1D, _regular_axis(resolution))
    )
    for x in (first, _AXIS_1D_FINE):
        P = x if p is None else np.full_like(x, p)
        Q = x if q is None else np.full_like(x, q)
        eps = _epsilon_on(profile, P, Q)
        if np.isfinite(eps).any():
            break
    best_i = int(np.argmin(eps))
    best_x, best_eps = float(x[best_i]), float(eps[best_i])
    if np.isfinite(best_eps):
        # refine inside the neighbouring cells (a kink or a jump of the profile sits there)
        below, above = _neighbours(x, best_i)
        lo = float(x[below]) if below >= 0 else 0.0
        hi = float(x[above]) if above < x.size else 1.0
        f = _scalar_objective(profile, p, q)
        res = minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13})
        if res.fun < best_eps:
            best_x, best_eps = float(res.x), float(res.fun)
        # a minimum at a jump from inf (the edge of a box (25)): Brent stops ~1e-8 short of
        # the edge; bisect for the edge itself
        for j in (below, above):
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


def _plane_minimum(profile: _CheckedProfile, *, resolution: float) -> Recommendation:
    """The plane's minimum: every point of the grid, then refined (never upward)."""
    axis = _plane_axis(resolution)
    grid = _grid_minimum(profile, axis)
    i, j = int(np.searchsorted(axis, grid.p)), int(np.searchsorted(axis, grid.q))
    candidates = [grid]
    if not np.isfinite(grid.epsilon):
        return grid
    # the boundary p = 1 and q = 1 (minima often sit there: Theorem 3, Corollary 2, C.3)
    candidates.append(_slice_minimum(profile, p=1.0, resolution=resolution))
    candidates.append(_slice_minimum(profile, q=1.0, resolution=resolution))
    # local refinement from the grid minimum: Nelder–Mead in the neighbouring cells, then
    # alternate one-dimensional searches (robust to the kinks of max(ã/(pq), r̃))
    (below_p, above_p), (below_q, above_q) = _neighbours(axis, i), _neighbours(axis, j)
    last = axis.size - 1
    lo_p, hi_p = axis[max(below_p, 0)], axis[min(above_p, last)]
    lo_q, hi_q = axis[max(below_q, 0)], axis[min(above_q, last)]

    floor = float(axis[0])

    def clamp(x) -> float:
        # the same clamp for the search and for the point reported: a candidate's εᵢ is
        # always the εᵢ at the (p, q) it is recorded with
        return min(max(float(x), floor), 1.0)

    def f2(v):
        return min(profile.epsilon(clamp(v[0]), clamp(v[1])), _PENALTY)

    res = minimize(
        f2,
        x0=[axis[i], axis[j]],
        method="Nelder-Mead",
        bounds=[(lo_p, hi_p), (lo_q, hi_q)],
        options={"xatol": 1e-12, "fatol": 1e-13, "maxiter": 400, "maxfev": 400},
    )
    p_nm, q_nm = clamp(res.x[0]), clamp(res.x[1])
    candidates.append(Recommendation(min(profile.epsilon(p_nm, q_nm), _PENALTY), p_nm, q_nm))
    best = min(candidates)
    for _ in range(3):
        along_p = _slice_minimum(profile, q=best.q, resolution=resolution)
        along_q = _slice_minimum(profile, p=along_p.p, resolution=resolution)
        new = min([best, along_p, along_q])
        if new.epsilon >= best.epsilon - 1e-13:
            best = new
            break
        best = new
    return best


def argmin_epsilon(
    profile: Profile,
    *,
    p=None,
    q=None,
    vectorized: bool | None = None,
    resolution: float = AUTHORS_RESOLUTION,
) -> Recommendation:
    """eq. (13): minimise εᵢ(p, q) over (0, 1]² (or a slice with ``p`` or ``q`` fixed).

    Used in notebook 06.

    Parameters
    ----------
    profile : callable
        ``profile(p, q) -> r*(p, q)`` (``math.inf`` where the agency places no bound). It
        must return real numbers: a string, a bool or another object is refused.
    p, q : float, optional, keyword-only
        Fix one coordinate to search a slice (both: evaluate one point).
    vectorized : bool, optional, keyword-only
        Whether ``profile`` accepts whole numpy arrays (one call per block of the grid) or
        must be called point by point (written with ``if``/``max`` on scalars, as in the
        paper). Default: the profile's ``vectorized`` attribute (``True`` on the profiles
        this module builds), else ``False``. Nothing is guessed by probing.
    resolution : float, optional, keyword-only
        The spacing h of the grid every point of which is evaluated: k·h for k = 1, ..., 1/h
        on each axis. Default 1e-3, Kazan & Reiter's own ``find_eps`` grid (10⁶ points on the
        plane). A finer h sees narrower zones of the profile and costs 1/h² evaluations on
        the plane: at most 4·10⁸ for a vectorized profile (h ≥ 5.4e-5) and 2.5·10⁷ for one
        called point by point (h ≥ 2.7e-4); finer is refused up front. Coarser than 1e-3 is
        refused too (it would drop the guarantee below).

    Returns
    -------
    Recommendation
        ``(epsilon, p, q)``: the minimum (Python floats) and where it lies.

    Raises
    ------
    ValueError
        If the profile raises (wrapped, naming your exception), returns a non-number, is
        NaN or below 1 anywhere (infeasible), only admits ε = 0 (r* = 1 somewhere), or
        bounds nothing (εᵢ infinite on the whole search grid); if ``resolution`` is outside
        its range.

    Notes
    -----
    **What this search guarantees.** The profile is a black box, so only the points it is
    evaluated at are known. Every point of the grid is evaluated: on the plane the
    authors' 1000 × 1000 grid ``seq(1e-3, 1, 1e-3)``² (written as R's h + k·h, as k/1000
    and as ``linspace``; they differ in the last bit), the grid of spacing ``resolution``,
    and 75 logarithmic points per axis down to p, q = 1e-150; on a slice, the same points
    plus 2,000 linear ones. Refinement (bounded Brent and Nelder–Mead inside the cells next
    to the grid's minimum, the edges p = 1 and q = 1 searched separately, coordinate-wise
    one-dimensional searches, bisection for the edge of a jump) only ever replaces the
    answer by a point where εᵢ is smaller. Hence:

    * the result is **never above** the minimum of εᵢ over the authors' grid (it is at
      least as safe as their code) nor over the grid of spacing ``resolution``;
    * it is an εᵢ actually attained at the returned (p, q), so it is exact there;
    * where the minimum lies in a zone the grid touches, it is found to about 1e-9 in
      (p, q) (Table 4's closed forms are matched to 1e-6 or better; the tests assert it).

    **What it cannot guarantee.** A profile that is tighter only on a set that falls
    between grid points (a box narrower than h, a single line such as q = q̃ on the plane,
    an isolated point) is invisible to any search that samples it; the answer is then the
    minimum elsewhere, which is larger than the true one and so *not* safe for that zone.
    Search such a profile with a finer ``resolution``, on its slice (``p=``/``q=``), or
    use its closed form (:func:`epsilon_box_profile` for a box (25)). Where the minimum is
    only approached as p → 0 or q → 0 (an infimum), the value at 1e-150 is returned: exact
    to rounding for r* < 1e135.

    References
    ----------
    Kazan & Reiter (2024), eq. (12)–(13), Table 4; their search ``find_eps``
    (github.com/zekicankazan/choosing_dp_epsilon, find_eps.R).

    Examples
    --------
    >>> round(argmin_epsilon(lambda p, q: 3.0).epsilon, 6)  # Theorem 3: ½·log 3
    0.549306
    """
    if p is not None:
        p = check_scalar("p", check_half_open_unit("p", p), p)
    if q is not None:
        q = check_scalar("q", check_half_open_unit("q", q), q)
    if not callable(profile):
        raise ValueError(f"profile must be a function r*(p, q); got {profile!r}")
    vectorized = _check_vectorized(profile, vectorized)
    resolution = _check_resolution(resolution, vectorized)
    checked = _CheckedProfile(profile, vectorized)
    if p is not None and q is not None:
        best = Recommendation(float(max_epsilon(p, q, checked(p, q))), p, q)
    else:
        if p is not None or q is not None:
            best = _slice_minimum(checked, p=p, q=q, resolution=resolution)
        else:
            best = _plane_minimum(checked, resolution=resolution)
        # report the εᵢ that max_epsilon gives at the point found (the local searches
        # compare in plain floats; max_epsilon also rounds toward privacy)
        if np.isfinite(best.epsilon) and best.epsilon < _PENALTY:
            exact = float(max_epsilon(best.p, best.q, checked(best.p, best.q)))
            best = Recommendation(exact, best.p, best.q)
    _check_found(best, on_slice=(p is None) != (q is None), resolution=resolution)
    return best


def _check_vectorized(profile, vectorized) -> bool:
    """:func:`argmin_epsilon`'s ``vectorized``: as given (True or False), or the profile's own
    ``vectorized`` attribute (False if it has none) when None."""
    if vectorized is None:
        return bool(getattr(profile, "vectorized", False))
    if not isinstance(vectorized, (bool, np.bool_)):
        raise ValueError(f"vectorized must be True, False or None; got {vectorized!r}")
    return bool(vectorized)


def _check_found(best: Recommendation, *, on_slice: bool, resolution: float) -> None:
    """Refuse what :func:`argmin_epsilon` found when it is no recommendation: a profile that
    bounds nothing where it was searched (every ε allowed), or one only ε = 0 satisfies."""
    where = "the slice" if on_slice else "(0, 1]²"
    if not np.isfinite(best.epsilon) or best.epsilon >= _PENALTY:
        hint = (
            "spacing 1/40,000"
            if where == "the slice"
            else f"spacing {resolution:g}; a bound on a thinner set, e.g. the line q = q̃, "
            "must be searched on that slice: recommend_epsilon(profile, q=q̃)"
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


def recommend_epsilon(
    profile: Profile,
    *,
    p=None,
    q=None,
    vectorized: bool | None = None,
    resolution: float = AUTHORS_RESOLUTION,
) -> float:
    """The recommended ε of eq. (13): ``argmin_epsilon(profile, ...).epsilon``.

    Used in notebooks 06 and 07.

    Parameters
    ----------
    profile : callable
        ``profile(p, q) -> r*(p, q)``.
    p, q : float, optional, keyword-only
        Fix one coordinate to search a slice.
    vectorized : bool, optional, keyword-only
        As in :func:`argmin_epsilon`.
    resolution : float, optional, keyword-only
        The grid spacing, as in :func:`argmin_epsilon` (default 1e-3, the authors' grid).

    Raises
    ------
    ValueError
        As :func:`argmin_epsilon`: a profile that raises, returns a non-number, is NaN or
        below 1, only admits ε = 0, or bounds nothing; a ``resolution`` out of range.

    Notes
    -----
    Never above the minimum over Kazan & Reiter's own 1000 × 1000 grid; see
    :func:`argmin_epsilon` for what a search of a black-box profile can and cannot promise.

    References
    ----------
    Kazan & Reiter (2024), eq. (13).

    Returns
    -------
    float
        min εᵢ(p, q) over the search region.

    Examples
    --------
    >>> round(recommend_epsilon(lambda p, q: 1e16), 6)  # ½·log 1e16
    18.420681
    """
    return argmin_epsilon(profile, p=p, q=q, vectorized=vectorized, resolution=resolution).epsilon
