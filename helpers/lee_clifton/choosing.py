"""Choosing ε from a risk (Lee & Clifton 2011, Sec. 5.2): inequality (7) on the upper bound,
the binary search on the tight bound (step by step for teaching, and the fast search), and the
whole analysis for many queries, one row per query.

Part of :mod:`helpers.lee_clifton`, which re-exports its public names.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from .._cache import one_call
from .._docstrings import fill_docstrings
from .._numerics import largest_at_most
from .._validation import (
    RULE_OPEN_UNIT,
    RULE_POSITIVE,
    check_finite_scalar,
    check_open_unit,
    check_positive,
)
from ..queries import get_query
from .bounds import _tight_bound_from_table, limit_of_tight_bound
from .worlds import (
    _PARAMETERS,
    _delta_f,
    _sensitivity,
    _Setting,
    _setting,
    _world_table,
    delta_v,
)

__all__ = [
    "ANALYSIS_QUERIES",
    "analysis_table",
    "binary_search_epsilon",
    "binary_search_steps",
    "epsilon_upper_bound",
]

# how far below ρ the searches aim, relative (see _search_setup)
_SEARCH_MARGIN = 1e-14


#: The queries ``analysis_table`` (and notebook 05's dashboard) run by default: every built-in
#: query of ``helpers.queries`` plus the quartiles.
ANALYSIS_QUERIES = (
    "mean",
    "median",
    "variance",
    "std",
    "sum",
    "count",
    "min",
    "max",
    "percentile_25",
    "percentile_75",
)


# --- choosing ε ----------------------------------------------------------------------------


def _check_risk_above_prior(risk: float, n_worlds: int) -> None:
    if risk <= 1.0 / n_worlds:
        raise ValueError(
            f"risk={risk:g} is at or below the prior 1/W = 1/{n_worlds} = {1 / n_worlds:.4g}: the "
            "adversary already has that much belief before any release, so no ε > 0 meets it"
        )


def _one_world(setting: _Setting) -> None:
    if setting.n_worlds == 1:
        raise ValueError(
            "size equals the universe: there is one possible world and the adversary knows it"
        )


def epsilon_upper_bound(universe, size: int, query, risk, *, sensitivity=None) -> float:
    """Inequality (7): ε ≤ Δf/Δv · ln((W − 1) ρ / (1 − ρ)), where the upper bound equals ρ.

    Used in notebooks 04, 05, 07, 09 and 10.

    Parameters
    ----------
    %(universe)s
    %(query)s
    risk : float
        ρ in (1/W, 1): the largest posterior the data owner tolerates.
    %(sensitivity)s

    Returns
    -------
    float
        ``math.inf`` when Δv = 0 (every world gives the same answer).

    Raises
    ------
    ValueError
        For ρ ≤ 1/W (the log's argument is ≤ 1: no ε > 0 meets it) or a single world.

    References
    ----------
    Lee & Clifton (2011), Sec. 5.2; the replication's 0.3379 / 0.3829.

    Examples
    --------
    >>> round(epsilon_upper_bound([1, 2, 3, 10], 3, "mean", 1 / 3), 4)
    0.3829
    """
    setting = _setting(universe, size)
    query = get_query(query)
    rho = float(check_open_unit("risk", check_finite_scalar("risk", risk, rule=RULE_OPEN_UNIT)))
    _one_world(setting)
    _check_risk_above_prior(rho, setting.n_worlds)
    delta_f = _sensitivity(setting, query, sensitivity)
    span = _world_table(setting, query).span
    if span == 0:
        return math.inf
    return _inequality_7(delta_f, span, setting.n_worlds, rho)


def _inequality_7(delta_f: float, span: float, n_worlds: int, rho: float) -> float:
    """Δf/Δv · ln((W − 1) ρ/(1 − ρ)), in log space: ln(W − 1) + ln ρ − ln(1 − ρ) (log1p)."""
    return delta_f / span * (math.log(n_worlds - 1) + math.log(rho) - math.log1p(-rho))


def _search_setup(universe, size, query, risk, tol, sensitivity):
    """Validate once; return (bound(ε), ρ, tol, ε from eq. 7), or None when ε = ∞."""
    setting = _setting(universe, size)
    query = get_query(query)
    rho = float(check_open_unit("risk", check_finite_scalar("risk", risk, rule=RULE_OPEN_UNIT)))
    tol = float(check_positive("tol", check_finite_scalar("tol", tol, rule=RULE_POSITIVE)))
    _one_world(setting)
    table = _world_table(setting, query)
    if rho >= 1.0 / table.fewest_ties:
        return None
    _check_risk_above_prior(rho, setting.n_worlds)
    delta_f = _sensitivity(setting, query, sensitivity)

    def bound(e: float) -> float:  # validated once above; each call is one O(W) pass
        with np.errstate(over="ignore"):
            c = np.float64(e) / delta_f
        if not np.isfinite(c):  # ε/Δf beyond the float range: the ε → ∞ limit
            return 1.0 / table.fewest_ties
        return float(_tight_bound_from_table(table, c))

    # eq. (7) comes from the upper bound, which is never below the tight bound: its ε is a
    # safe starting point for the search (checked, in case rounding says otherwise)
    start = _inequality_7(delta_f, table.span, setting.n_worlds, rho)
    # The search never certifies an ε whose bound it cannot tell from ρ: it aims a hair
    # (10⁻¹⁴ relative, far below tol's effect) under ρ. Where ρ is a plateau the bound only
    # approaches (ρ = 1/2 and two worlds 10⁻²⁷⁰ apart), rounding would otherwise call every
    # ε safe up to 10²⁰⁰; with the margin it answers on the safe side.
    return bound, rho * (1.0 - _SEARCH_MARGIN), tol, start


def _first_bracket(bound, rho: float, start: float) -> tuple[float, float]:
    low = start if 0 < start < math.inf and bound(start) <= rho else 0.0
    high = max(1.0, 2.0 * low)
    while bound(high) <= rho:  # the bound tends to a limit above ρ ...
        if high == sys.float_info.max:
            # ... but two worlds closer than rounding can see keep it at or below ρ for
            # every ε a double can hold: that is the answer, not an endless doubling
            return high, high
        low, high = high, min(2.0 * high, sys.float_info.max)
    return low, high


def binary_search_steps(universe, size: int, query, risk, *, tol: float = 1e-9, sensitivity=None):
    """The binary search of Sec. 5.2 on the tight bound, step by step (for teaching).

    Used in notebook 04.

    Parameters
    ----------
    %(universe)s
    %(query)s
    risk : float
        ρ in (1/W, 1).
    tol : float, optional
        Stop when the bracket is this narrow.
    %(sensitivity)s

    Returns
    -------
    list of (float, float)
        Brackets ``(low, high)``: the tight bound is ≤ ρ at ``low`` and > ρ at ``high``. The
        first starts at low = 0 (the bound is the prior 1/W) and the first power of two whose
        bound exceeds ρ; each step halves it. Empty when no ε exceeds ρ.

    Examples
    --------
    >>> binary_search_steps([1, 2, 3, 10], 3, "mean", 1 / 3, tol=0.25)
    [(0.0, 1.0), (0.0, 0.5), (0.25, 0.5)]
    """
    setup = _search_setup(universe, size, query, risk, tol, sensitivity)
    if setup is None:
        return []
    bound, rho, tol, _ = setup
    _, high = _first_bracket(bound, rho, 0.0)  # doubles from ε = 1, as the paper does
    low = 0.0
    steps = [(low, high)]
    while high - low > tol:
        mid = low + 0.5 * (high - low)  # no overflow near 1e308
        if mid in (low, high):  # floating point cannot split the bracket further
            break
        if bound(mid) <= rho:
            low = mid
        else:
            high = mid
        steps.append((low, high))
    return steps


def binary_search_epsilon(
    universe, size: int, query, risk, *, tol: float = 1e-9, sensitivity=None
) -> float:
    """The largest ε whose tight bound (eq. 3) stays ≤ ρ, to within ``tol``.

    The tight bound grows with ε, from the prior 1/W at ε → 0 towards
    ``limit_of_tight_bound`` = 1/m, m the fewest worlds sharing a query value. When ρ is at
    or above that limit no amount of ε pushes the adversary's posterior above ρ and the result
    is ``math.inf``.

    Lee & Clifton find this ε by bisection (``binary_search_steps`` shows it step by step).
    The bound is monotone in ε, so a faster bracketing root finder on the same bound gives the
    same answer: from inequality (7)'s ε (always safe) and the paper's doubling bracket, a
    secant search (``helpers._numerics.largest_at_most``) takes a secant step, probes just
    past the estimate on the other side so both ends of the bracket close in, and bisects
    whenever a round fails to halve the bracket. It keeps the bisection's contract: the bound
    is ≤ ρ at the result and > ρ at most ``tol`` above it.

    Used in notebooks 04, 05, 07 and 10.

    Parameters
    ----------
    %(universe)s
    %(query)s
    risk : float
        ρ in (1/W, 1).
    tol : float, optional
        Width of the final bracket.
    %(sensitivity)s

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For ρ ≤ 1/W (no ε > 0 meets it) or a single world.

    References
    ----------
    Lee & Clifton (2011), Sec. 5.2; the replication's 0.5251 / 0.4317.

    Examples
    --------
    >>> round(binary_search_epsilon([1, 2, 3, 10], 3, "mean", 1 / 3), 4)
    0.4317
    >>> round(binary_search_epsilon([1, 2, 3, 10], 3, "median", 1 / 3), 4)  # 4·ln 2
    2.7726
    """
    setup = _search_setup(universe, size, query, risk, tol, sensitivity)
    if setup is None:
        return math.inf
    bound, rho, tol, start = setup
    low, high = _first_bracket(bound, rho, start)
    return largest_at_most(lambda e: bound(e) - rho, low, high, tol)


# --- the whole analysis, one row per query ------------------------------------------------


@one_call
def analysis_table(universe, size: int, risk, queries=None):
    """Δf, Δv, the tight bound's limit and both ε, one row per query (a pandas DataFrame).

    A query the analysis refuses for this universe (zero sensitivity, say) gets NaN and the
    reason in ``note`` instead of stopping the table, so a reader's own column always gives a
    full picture.

    Used in notebook 05.

    Parameters
    ----------
    %(universe)s
    risk : float
        ρ in (1/W, 1).
    queries : sequence, optional
        Default: every built-in query plus the quartiles.

    Returns
    -------
    pandas.DataFrame
        Indexed by query name.

    Examples
    --------
    >>> analysis_table([1, 2, 3, 10], 3, 1 / 3, queries=["mean", "median"]).round(4).iloc[:, :5]
                Δf   Δv  limit of tight bound  ε of inequality 7  ε binary search
    query
    mean    2.8333  3.0                   1.0         0.3829           0.4317
    median  4.0000  1.0                   0.5         1.6219           2.7726
    """
    import pandas as pd

    setting = _setting(universe, size)
    rho = float(check_open_unit("risk", check_finite_scalar("risk", risk, rule=RULE_OPEN_UNIT)))
    if queries is None:
        queries = list(ANALYSIS_QUERIES)
    elif isinstance(queries, (str, bytes)) or not isinstance(queries, (list, tuple)) or not queries:
        raise ValueError(f"queries must be a non-empty list of queries; got {queries!r}")
    rows = []
    for query in queries:  # a handful of queries, each fully vectorised over the worlds
        q = get_query(query)
        row = {"query": q.name, "Δf": math.nan, "Δv": math.nan, "limit of tight bound": math.nan}
        row |= {"ε of inequality 7": math.nan, "ε binary search": math.nan, "note": ""}
        try:
            row["Δf"] = _delta_f(setting, q)
            row["Δv"] = delta_v(setting, size, q)
            row["limit of tight bound"] = limit_of_tight_bound(setting, size, q)
            row["ε of inequality 7"] = epsilon_upper_bound(setting, size, q, rho)
            row["ε binary search"] = binary_search_epsilon(setting, size, q, rho)
        except ValueError as error:
            row["note"] = str(error)
        rows.append(row)
    return pd.DataFrame(rows).set_index("query")


fill_docstrings(globals(), _PARAMETERS)
