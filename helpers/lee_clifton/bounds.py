"""The bounds on the adversary's posterior (Lee & Clifton 2011, Sec. 5.1): the upper bound of
eqs. (4)–(5), the tight bound of eq. (3) with its work budget ``MAX_BOUND_TERMS``, both on a
grid of ε for figures, the world that attains the tight bound, and its limit as ε → ∞.

Part of :mod:`helpers.lee_clifton`, which re-exports its public names.
"""

from __future__ import annotations

import math

import numpy as np

from .._cache import one_call
from .._docstrings import fill_docstrings
from .._validation import check_finite_scalar, check_positive, check_real
from ..queries import get_query
from .worlds import (
    _CHUNK_ELEMENTS,
    _PARAMETERS,
    _rate,
    _sensitivity,
    _setting,
    _Table,
    _world_table,
)

__all__ = [
    "MAX_BOUND_TERMS",
    "bound_curves",
    "limit_of_tight_bound",
    "most_exposed_world",
    "tight_bound",
    "upper_bound",
]

#: Work budget of one ``tight_bound`` call: levels L (distinct values of f) × ε values, an ε
#: in the wide regime (c·Δv ≥ 600, solved by a doubling scan) counting ⌈log₂ L⌉ times.
MAX_BOUND_TERMS = 300_000_000
# the bounds' running sums use plain exp() while c·Δv stays below this (no overflow even
# after summing W terms); beyond it they switch to a scan of decays (_decayed_sums)
_EXP_RANGE = 600.0


# --- bounds on the posterior ---------------------------------------------------------------


def upper_bound(universe, size: int, query, epsilon, *, sensitivity=None):
    """Eqs. (4)–(5): 1 / (1 + (W − 1) · exp(−ε Δv / Δf)), computed as an expit (no overflow).

    Used in notebooks 03 and 04.

    Parameters
    ----------
    %(universe)s
    %(query)s
    epsilon : float or array_like
        ε > 0.
    %(sensitivity)s

    Returns
    -------
    float or ndarray
        The shape of ``epsilon``.

    References
    ----------
    Lee & Clifton (2011), Sec. 5.1.

    Examples
    --------
    >>> round(upper_bound([1, 2, 3, 10], 3, "mean", 0.5), 4)
    0.3614
    """
    setting = _setting(universe, size)
    query = get_query(query)
    eps = check_positive("epsilon", epsilon)
    delta_f = _sensitivity(setting, query, sensitivity)
    span = _world_table(setting, query).span
    # 1/(1 + e^{ln(W − 1) − εΔv/Δf}) = expit(εΔv/Δf − ln(W − 1)): no overflow at any ε
    from scipy.special import expit

    log_others = math.log(setting.n_worlds - 1) if setting.n_worlds > 1 else -math.inf
    bound = expit(eps * span / delta_f - log_others)
    return float(bound) if bound.ndim == 0 else bound


def _level_totals(
    levels: np.ndarray, counts: np.ndarray, c: np.ndarray, *, argmin: bool = False
) -> np.ndarray:
    """For each c (rows), min over levels u of Tᵤ = Σᵥ mᵥ exp(−c |gᵤ − gᵥ|), in O(L) per c.

    Tᵤ is world u's denominator in eq. (3) (its own term, 1, included). Split Σᵥ at u: the
    part with gᵥ ≤ gᵤ is e^{−c gᵤ} Σ_{v≤u} mᵥ e^{c gᵥ}, a cumulative sum; the other part is
    its mirror image. While c·(g_max − g_min) < _EXP_RANGE plain exp() cannot overflow;
    beyond that the two parts come from ``_decayed_sums``, which never leaves [0, W].
    """
    out = np.empty(c.size)
    with np.errstate(over="ignore"):  # c·Δv beyond 1e308 is simply wide
        wide = c * levels[-1] >= _EXP_RANGE
    if np.any(~wide):
        cn = c[~wide, None]
        grow = np.exp(cn * levels)  # ≤ e^600
        left = np.cumsum(counts * grow, axis=1) / grow
        right = np.cumsum((counts / grow)[:, ::-1], axis=1)[:, ::-1] * grow
        totals = left + right - counts
        out[~wide] = np.argmin(totals, axis=1) if argmin else np.min(totals, axis=1)
    if np.any(wide):
        # Σ_{v≤u} mᵥ e^{−c(gᵤ − gᵥ)} = mᵤ + e^{−c(gᵤ − gᵤ₋₁)}·(the same at u − 1): only the
        # gaps between neighbouring levels enter, so no exponent grows with c·Δv. (The log-
        # space sums used before subtracted two numbers of size c·gᵤ: at c·Δv ≈ 10²⁰, with
        # worlds 10⁻²²⁰ apart, they lost every digit and divided by zero.)
        with np.errstate(over="ignore", under="ignore"):  # e^{−∞} = 0: a gap too wide to see
            decay = np.exp(-c[wide, None] * np.diff(levels))
        zero = np.zeros((decay.shape[0], 1))
        left = _decayed_sums(counts, np.concatenate([zero, decay], axis=1))
        right = _decayed_sums(counts[::-1], np.concatenate([zero, decay[:, ::-1]], axis=1))
        totals = left + right[:, ::-1] - counts
        out[wide] = np.argmin(totals, axis=1) if argmin else np.min(totals, axis=1)
    return out


def _decayed_sums(weights: np.ndarray, decay: np.ndarray) -> np.ndarray:
    """Tᵤ = wᵤ + decayᵤ·Tᵤ₋₁ along the last axis (decay₀ = 0), for each row of ``decay``.

    A first-order linear recurrence, solved by a doubling scan (log₂ L vectorised passes):
    the maps x ↦ aᵤx + bᵤ compose associatively, (a, b) after (a', b') = (aa', ab' + b).
    With 0 ≤ a ≤ 1 and b ≥ 0 every intermediate lies in [0, Σw]: no overflow and no
    cancellation at any c.
    """
    a = decay.copy()
    b = np.broadcast_to(weights.astype(float), decay.shape).copy()
    step = 1
    while step < a.shape[1]:
        # right-hand sides are evaluated before assignment: both use the previous pass
        b[:, step:] = b[:, step:] + a[:, step:] * b[:, :-step]
        a[:, step:] = a[:, step:] * a[:, :-step]
        step *= 2
    return b


def tight_bound(universe, size: int, query, epsilon, *, sensitivity=None):
    """Eq. (3): max over worlds i of 1 / (1 + Σ_{j≠i} exp(−ε |f(ωᵢ) − f(ωⱼ)| / Δf)).

    The adversary's posterior for world i is largest when the release lands exactly on
    f(ωᵢ) (triangle inequality), which gives this bound; the maximum runs over **all**
    worlds. No loop over pairs of worlds: sorting f makes each world's sum a cumulative sum,
    and worlds sharing a value of f are summed once, with their count.

    Used in notebooks 03, 04 and 05.

    Parameters
    ----------
    %(universe)s
    %(query)s
    epsilon : float or array_like
        ε > 0.
    %(sensitivity)s

    Returns
    -------
    float or ndarray
        The shape of ``epsilon``.

    Raises
    ------
    ValueError
        For bad input, or when levels × ε values exceed ``MAX_BOUND_TERMS`` (refused up
        front with the count).

    References
    ----------
    Lee & Clifton (2011), Sec. 5.1, inequality (3); the replication's 0.3292 / 0.3477 at ε = 0.5.

    Examples
    --------
    >>> round(tight_bound([1, 2, 3, 10], 3, "mean", 0.5), 4)
    0.3477
    """
    setting = _setting(universe, size)
    query = get_query(query)
    eps = check_positive("epsilon", epsilon)
    delta_f = _sensitivity(setting, query, sensitivity)
    table = _world_table(setting, query)
    c = _rate(eps, delta_f)
    _refuse_bound_work(table, c)
    bound = _tight_bound_from_table(table, c)
    return float(bound) if bound.ndim == 0 else bound


def _refuse_bound_work(table: _Table, c: np.ndarray) -> None:
    """Refuse, before any of it is done, more than ``MAX_BOUND_TERMS`` terms of eq. (3)."""
    n_levels = table.levels.size
    with np.errstate(over="ignore"):
        n_wide = int(np.count_nonzero(c * table.span >= _EXP_RANGE))
    passes = max(1, math.ceil(math.log2(n_levels))) if n_levels > 1 else 1
    terms = n_levels * ((c.size - n_wide) + n_wide * passes)
    if terms > MAX_BOUND_TERMS:
        raise ValueError(
            f"the tight bound for {c.size:,} ε values over {n_levels:,} levels of f would "
            f"take {terms:,} terms (an ε with c·Δv ≥ {_EXP_RANGE:g} counts {passes} times), "
            f"over the work budget MAX_BOUND_TERMS = {MAX_BOUND_TERMS:,}; pass fewer ε values "
            "at a time"
        )


def _tight_bound_from_table(table: _Table, c: np.ndarray) -> np.ndarray:
    """Eq. (3) for c = ε/Δf (any shape), from a world table."""
    flat = np.atleast_1d(np.asarray(c, dtype=float)).ravel()
    if flat.size == 0:  # no ε: no bound (np.concatenate of nothing raised numpy's message)
        return np.empty(np.shape(c))
    # a few ε rows at a time keeps the temporary arrays near _CHUNK_ELEMENTS
    rows = max(1, _CHUNK_ELEMENTS // table.levels.size)
    smallest = np.concatenate(
        [
            _level_totals(table.levels, table.counts, flat[i : i + rows])
            for i in range(0, flat.size, rows)
        ]
    )
    # The sums carry rounding of ~1e-16 relative; clip to the interval the exact bound
    # provably lies in, [1/W, 1/(fewest worlds sharing a value)], so it never overshoots.
    bound = np.clip(1.0 / smallest, 1.0 / table.n_worlds, 1.0 / table.fewest_ties)
    return bound.reshape(np.shape(c))


@one_call
def bound_curves(universe, size: int, query, epsilon, *, sensitivity=None):
    """Upper bound (eqs. 4–5) and tight bound (eq. 3) on a grid of ε ≥ 0, for figures.

    At ε = 0 the release is pure noise and both bounds equal the prior 1/W (their limit as
    ε → 0); ``upper_bound`` and ``tight_bound`` take only ε > 0, so that point is filled in.

    Not called in a notebook; used by ``helpers.plotting.lee_clifton`` and ``helpers.widgets.lee_clifton``.

    Parameters
    ----------
    %(universe)s
    %(query)s
    epsilon : array_like, 1-D
        A grid of ε ≥ 0.
    %(sensitivity)s

    Returns
    -------
    (ndarray, ndarray)
        Upper and tight bound, each the shape of ``epsilon``.

    Examples
    --------
    >>> [curve.round(4) for curve in bound_curves([1, 2, 3, 10], 3, "mean", [0, 0.5])]
    [array([0.25  , 0.3614]), array([0.25  , 0.3477])]
    """
    eps = check_real("epsilon", epsilon)
    if eps.ndim != 1 or np.any(eps < 0):
        raise ValueError(f"epsilon must be a 1-D grid of finite values >= 0; got {epsilon!r}")
    setting = _setting(universe, size)
    upper = np.full(eps.shape, 1.0 / setting.n_worlds)
    tight = np.full(eps.shape, 1.0 / setting.n_worlds)
    positive = eps > 0
    if np.any(positive):
        kwargs = {"sensitivity": sensitivity}
        upper[positive] = upper_bound(setting, size, query, eps[positive], **kwargs)
        tight[positive] = tight_bound(setting, size, query, eps[positive], **kwargs)
    return upper, tight


def most_exposed_world(universe, size: int, query, epsilon, *, sensitivity=None) -> int:
    """The index of a world whose posterior reaches the tight bound (eq. 3) at ``epsilon``.

    The world i that attains the maximum in eq. (3): its answer f(ωᵢ) is the most isolated
    from the others at this ε. Worlds sharing its value of f attain it too; the first of
    them in combinations order is returned. In the leave-one-out setting world w is the data
    set without record ``N − 1 − w``, so this names the record whose absence is the easiest
    to detect.

    Used in notebook 05.

    Parameters
    ----------
    %(universe)s
    %(query)s
    epsilon : float
        ε > 0.
    %(sensitivity)s

    Returns
    -------
    int

    Examples
    --------
    >>> most_exposed_world([1, 2, 3, 10], 3, "mean", 0.5)  # ω1: everyone but Terry
    0
    """
    setting = _setting(universe, size)
    query = get_query(query)
    eps = check_finite_scalar("epsilon", check_positive("epsilon", epsilon))
    delta_f = _sensitivity(setting, query, sensitivity)
    table = _world_table(setting, query)
    c = _rate(np.array([eps]), delta_f)
    return int(
        table.representative[int(_level_totals(table.levels, table.counts, c, argmin=True)[0])]
    )


def limit_of_tight_bound(universe, size: int, query) -> float:
    """lim_{ε→∞} of the tight bound: 1 / (smallest number of worlds sharing one value of f).

    Worlds with equal f can never be told apart, however little noise is added. "Equal" is
    exact: the same multiset of records, or the very same value of f, never a tolerance.

    Used in notebooks 03 and 05.

    Parameters
    ----------
    %(universe)s
    %(query)s

    Returns
    -------
    float

    Examples
    --------
    >>> limit_of_tight_bound([1, 2, 3, 10], 3, "median")  # medians 2, 2, 3, 3
    0.5
    """
    return 1.0 / _world_table(_setting(universe, size), get_query(query)).fewest_ties


fill_docstrings(globals(), _PARAMETERS)
