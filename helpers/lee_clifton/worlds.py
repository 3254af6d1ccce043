"""The setting of Lee & Clifton (2011): the universe, the release size and the possible worlds.

The possible worlds (:func:`count_worlds`, :func:`possible_worlds`), the query's values on them
(:func:`world_values`, kept in world tables cached by value for the built-in queries), Δf and
Δv (:func:`delta_v`), and the memory and work budgets that refuse a request before any work
(``MAX_WORLDS``, ``MAX_TABLE_BYTES``, ``MAX_ENUMERATED_VALUES``, ``MAX_CALLABLE_VALUES``).
Every other module of the package starts from the validated setting and the world table here.
Also here: the parameter descriptions the package's docstrings share (``_PARAMETERS``).

Part of :mod:`helpers.lee_clifton`, which re-exports its public names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import leave_one_out
from .._cache import ByteBoundedCache, per_call, value_key
from .._docstrings import fill_docstrings
from .._validation import (
    RULE_POSITIVE,
    check_finite_scalar,
    check_int_range,
    check_positive,
    check_universe_entries,
)
from ..queries import Query, get_query
from ..sensitivity import combination_indices, unbounded_sensitivity

__all__ = [
    "MAX_CALLABLE_VALUES",
    "MAX_ENUMERATED_VALUES",
    "MAX_TABLE_BYTES",
    "MAX_WORLDS",
    "count_worlds",
    "delta_v",
    "possible_worlds",
    "world_values",
]

#: Largest number of possible worlds enumerated as data sets (general release sizes):
#: C(N, n) above it is refused with a ValueError. The leave-one-out setting (n = N − 1,
#: built-in queries) needs no enumeration and is bounded by ``MAX_TABLE_BYTES`` alone.
MAX_WORLDS = 3_000_000
#: Memory budget of one table: the worlds' query values (W numbers, computed a block of
#: worlds at a time), a few arrays of N numbers in the leave-one-out setting, and the W × n
#: records that ``possible_worlds`` returns. A request above it is refused with its count and
#: bytes before anything large is allocated.
MAX_TABLE_BYTES = 400_000_000
#: Work budget of an enumeration: W worlds × n records = the values a query reads (and the
#: combinations generator produces, about 30 ns each). Above it the request is refused up
#: front with its count: C(2000, 1998) = 1,999,000 worlds is within ``MAX_WORLDS`` but
#: 4·10⁹ values, minutes of work.
MAX_ENUMERATED_VALUES = 300_000_000
#: The same budget for a reader's own callable, called once per world in Python (about ten
#: times slower per value than a vectorised built-in).
MAX_CALLABLE_VALUES = 30_000_000
# possible_worlds holds positions and values (and numpy a temporary): 8 bytes each, three times
_BYTES_PER_ENUMERATED_ENTRY = 24
# world tables and sensitivities kept for reuse (sliders), evicted oldest first above this
_CACHE_BYTES = 256_000_000
# elements per temporary array when the bounds are evaluated for many ε at once
_CHUNK_ELEMENTS = 2_000_000


# --- the setting: universe, release size, number of worlds ---------------------------------


@dataclass(frozen=True, eq=False)
class _Setting:
    """A validated (universe, size): the values (read-only), W, and a key for the caches."""

    values: np.ndarray
    size: int
    n_worlds: int
    key: tuple

    @property
    def leave_one_out(self) -> bool:
        return self.size == self.values.size - 1


def _log10_comb(n: int, k: int) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(10)


def count_worlds(universe, size: int) -> int:
    """W = C(N, n), the number of possible worlds (Lee & Clifton 2011, Sec. 4.2).

    Used in notebooks 01, 03, 04, 05 and 09.

    Parameters
    ----------
    %(universe)s

    Returns
    -------
    int
        The exact count.

    Raises
    ------
    ValueError
        For a bad universe or size, and above 10¹⁰⁰⁰ worlds (refused at once: the exact
        integer of a ten-million-record universe would take seconds to compute).

    Examples
    --------
    >>> count_worlds([1, 2, 3, 10], 3)
    4
    """
    values = check_universe_entries(universe)
    size = check_int_range("size", size, 1, values.size)
    exponent = _log10_comb(values.size, size)
    if exponent > 1000:  # the exact integer would take seconds and megabytes to compute
        raise ValueError(
            f"C({values.size}, {size}) ≈ 10^{exponent:.0f} possible worlds: too many to count "
            "exactly (count_worlds stops at 10^1000)"
        )
    return math.comb(values.size, size)


def _setting(universe, size) -> _Setting:
    if isinstance(universe, _Setting):
        return universe
    values = check_universe_entries(universe)
    size = check_int_range("size", size, 1, values.size)
    n_items = values.size
    if size == n_items - 1:  # leave-one-out: W = N, no enumeration for built-in queries
        n_worlds = n_items
    else:
        exponent = _log10_comb(n_items, size)
        if exponent > 100:  # refuse before computing a huge integer (10⁷ records: 3 M digits)
            raise ValueError(
                f"C({n_items}, {size}) ≈ 10^{exponent:.1f} possible worlds exceeds the limit "
                f"MAX_WORLDS = {MAX_WORLDS:,}; use a smaller universe or release size "
                "(or size = N − 1, the leave-one-out setting, which needs no enumeration)"
            )
        n_worlds = math.comb(n_items, size)
        if n_worlds > MAX_WORLDS:
            raise ValueError(
                f"C({n_items}, {size}) = {n_worlds:,} possible worlds exceeds the limit "
                f"MAX_WORLDS = {MAX_WORLDS:,}; use a smaller universe or release size "
                "(or size = N − 1, the leave-one-out setting, which needs no enumeration)"
            )
    values = np.array(values, dtype=float)  # a private copy: the caches key on its bytes
    values.setflags(write=False)
    return _Setting(values, size, n_worlds, (value_key(values), n_items, size))


def _refuse_enumeration(setting: _Setting, what: str) -> None:
    """Refuse a W × n table of the worlds' records over the memory budget, before allocating it."""
    entries = setting.n_worlds * setting.size
    needed = entries * _BYTES_PER_ENUMERATED_ENTRY
    if needed > MAX_TABLE_BYTES:
        raise ValueError(
            f"{what} would enumerate {setting.n_worlds:,} worlds × {setting.size:,} records = "
            f"{entries:,} values, about {needed / 1e6:,.0f} MB, over the budget "
            f"MAX_TABLE_BYTES = {MAX_TABLE_BYTES / 1e6:,.0f} MB; use a smaller universe or "
            "release size"
        )


def possible_worlds(universe, size: int) -> np.ndarray:
    """The possible worlds as rows of values, in ``itertools.combinations`` order (Sec. 4.2).

    Used in notebook 01.

    Parameters
    ----------
    %(universe)s

    Returns
    -------
    ndarray, shape (W, n)
        World 1 (row 0) keeps the first n records: in the school example, everyone but Terry.

    Raises
    ------
    ValueError
        Above ``MAX_WORLDS`` worlds, or when the W × n table would exceed
        ``MAX_TABLE_BYTES`` (the message gives the count and the bytes).

    Examples
    --------
    >>> possible_worlds([1, 2, 3, 10], 3)
    array([[ 1.,  2.,  3.],
           [ 1.,  2., 10.],
           [ 1.,  3., 10.],
           [ 2.,  3., 10.]])
    """
    setting = _setting(universe, size)
    _refuse_enumeration(setting, "possible_worlds")
    return setting.values[combination_indices(setting.values.size, setting.size)]


# --- world tables, cached by value ------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Table:
    """What the bounds need of f over the worlds.

    ``f``: f(ωᵢ) per world, combinations order. ``levels``: the distinct values of f, sorted,
    as offsets from the smallest (computed so their differences are accurate even when f is
    huge); ``counts``: how many worlds share each. Two worlds share a level only when the
    query gives both exactly the same value: never by a tolerance.
    """

    f: np.ndarray
    levels: np.ndarray
    counts: np.ndarray
    representative: np.ndarray  # the first world (combinations order) at each level

    @property
    def n_worlds(self) -> int:
        return self.f.size

    @property
    def fewest_ties(self) -> int:
        return int(self.counts.min())

    @property
    def span(self) -> float:
        return float(self.levels[-1])

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.f, self.levels, self.counts, self.representative))


def _sizeof(value) -> int:
    return value.nbytes if isinstance(value, _Table) else 64


_CACHE = ByteBoundedCache(_CACHE_BYTES, _sizeof)


def _cached(kind: str, setting: _Setting, query: Query, make):
    """``make()``, cached across calls only for a built-in query (its behaviour is fixed).

    A reader's callable (or any ``Query`` that is not ``built_in``) can change behaviour
    between two calls while keeping its identity: a closure over a list, a slider, a global.
    Its answers are never kept beyond the public call that computed them (``one_call``).
    """
    if query.built_in:
        return _CACHE.get((kind, setting.key, query.key), make)
    return per_call((kind, setting.key, query), make)  # the user's Query, compared by its key


def _world_table(setting: _Setting, query: Query) -> _Table:
    """The table of f for (universe, size, query); cached by value for a built-in query."""
    return _cached("table", setting, query, lambda: _build_table(setting, query))


def _build_table(setting: _Setting, query: Query) -> _Table:
    if setting.leave_one_out and leave_one_out.supports(query):
        needed = setting.values.size * leave_one_out.BYTES_PER_RECORD
        if needed > MAX_TABLE_BYTES:
            raise ValueError(
                f"the leave-one-out table of {setting.values.size:,} records needs about "
                f"{needed / 1e6:,.0f} MB, over the budget MAX_TABLE_BYTES = "
                f"{MAX_TABLE_BYTES / 1e6:,.0f} MB"
            )
        f, d, group = leave_one_out.world_table(setting.values, query)
    else:
        f, d, group = _enumerated_values(setting, query)
    # one level per group of worlds the query cannot tell apart, in increasing order of f
    _, first, counts = np.unique(group, return_index=True, return_counts=True)
    order = np.argsort(d[first], kind="stable")
    level_values = d[first][order]
    levels = level_values - level_values[0]  # offsets: exact for nearby values (Sterbenz)
    table = _Table(f, levels, counts[order], first[order])
    for array in (table.f, table.levels, table.counts, table.representative):
        array.setflags(write=False)
    return table


def _enumerated_values(
    setting: _Setting, query: Query
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(f, d, group) per world by enumeration: f, f up to a shared constant, and tie labels.

    The worlds are generated a block at a time (``itertools.combinations`` order), so memory
    stays at W numbers plus one block, never the W × n table. Each world's records are put in
    sorted order before the query runs, so worlds holding the same multiset of records (the
    universe may repeat a value) give the query the very same input and get bit for bit the
    same value. A built-in query also runs on the records minus a centre c
    (``Query.centre_for``, used only where every x − c is exact): d = f(ω − c) differs from
    f by the shared constant w·c and keeps its digits at any common offset (at 10¹⁴ a plain
    mean has lost seven of sixteen; the leave-one-out path takes the same care). Worlds are
    tied only when their values of d are the very same double, never by a tolerance: a
    tolerance merged distinct worlds at large magnitudes (10¹²) and made every ε look safe.
    (Worlds whose true values differ by less than one rounding unit of d do share a double;
    that difference matters only at very large ε or for a risk exactly on a plateau 1/k of
    the bound.)

    Raises
    ------
    ValueError
        Above ``MAX_ENUMERATED_VALUES`` values (W × n; ``MAX_CALLABLE_VALUES`` for a
        reader's callable) or a table over ``MAX_TABLE_BYTES``, before any work.
    """
    from itertools import combinations, islice

    n_worlds, size = setting.n_worlds, setting.size
    values_read = n_worlds * size
    budget, name = (
        (MAX_CALLABLE_VALUES, "MAX_CALLABLE_VALUES")
        if query.user
        else (MAX_ENUMERATED_VALUES, "MAX_ENUMERATED_VALUES")
    )
    if values_read > budget:
        whose = "your query" if query.user else f"query {query.name!r}"
        raise ValueError(
            f"{whose} would be evaluated on {n_worlds:,} worlds × {size:,} records = "
            f"{values_read:,} values, over the work budget {name} = {budget:,}; use a smaller "
            "universe or release size"
            + (" (or size = N − 1, which needs no enumeration)" if query.built_in else "")
        )
    needed = n_worlds * 5 * 8  # f, d, the labels and their sort
    if needed > MAX_TABLE_BYTES:
        raise ValueError(
            f"the world table of {n_worlds:,} worlds needs about {needed / 1e6:,.0f} MB, over "
            f"the budget MAX_TABLE_BYTES = {MAX_TABLE_BYTES / 1e6:,.0f} MB"
        )
    centre = query.centre_for(setting.values)
    repeats = np.unique(setting.values).size < setting.values.size
    f = np.empty(n_worlds)
    d = np.empty(n_worlds) if centre else f
    block = max(1, _CHUNK_ELEMENTS // size)
    subsets = combinations(range(setting.values.size), size)
    for start in range(0, n_worlds, block):
        rows = min(block, n_worlds - start)
        flat = np.fromiter(
            (i for subset in islice(subsets, rows) for i in subset),
            dtype=np.intp,
            count=rows * size,
        )
        worlds = setting.values[flat.reshape(rows, size)]
        if repeats:
            worlds.sort(axis=1)  # one canonical order per multiset of records
        f[start : start + rows] = np.atleast_1d(query(worlds))
        if centre:
            d[start : start + rows] = np.atleast_1d(query(worlds - centre))
    group = np.unique(d, return_inverse=True)[1].reshape(-1)
    return f, d, group


def world_values(universe, size: int, query) -> np.ndarray:
    """f(ωᵢ) for every possible world, in combinations order.

    Cached for a built-in query (by the universe's values); a reader's callable is
    evaluated afresh on every call, so a callable whose behaviour changed is never answered
    from an earlier call.

    Used in notebooks 02, 03 and 05.

    Parameters
    ----------
    %(universe)s
    %(query)s

    Returns
    -------
    ndarray, shape (W,)
        Read-only. In the leave-one-out setting (n = N − 1, a built-in query) it comes from
        one sort of the universe (``helpers.leave_one_out``), without enumerating the worlds.

    Raises
    ------
    ValueError
        For bad input, above ``MAX_WORLDS`` worlds, or above the enumeration's work budget
        (``MAX_ENUMERATED_VALUES``, ``MAX_CALLABLE_VALUES``), refused before any work.

    Examples
    --------
    >>> world_values([1, 2, 3, 10], 3, "mean")
    array([2.        , 4.33333333, 4.66666667, 5.        ])
    """
    return _world_table(_setting(universe, size), get_query(query)).f


def _delta_f(setting: _Setting, query: Query) -> float:
    return _cached(
        "delta_f",
        setting,
        query,
        lambda: unbounded_sensitivity(setting.values, setting.size, query),
    )


def _sensitivity(setting: _Setting, query: Query, sensitivity) -> float:
    if sensitivity is None:
        delta_f = _delta_f(setting, query)
        if delta_f == 0:
            raise ValueError(
                f"query {query.name!r} has zero sensitivity on this universe: no noise is "
                "needed and the bounds are undefined; pass sensitivity= explicitly if intended"
            )
        return delta_f
    return float(
        check_positive(
            "sensitivity", check_finite_scalar("sensitivity", sensitivity, rule=RULE_POSITIVE)
        )
    )


def _rate(eps: np.ndarray, delta_f: float) -> np.ndarray:
    """c = ε/Δf, the Laplace rate, refused when it leaves the floating-point range."""
    with np.errstate(over="ignore", under="ignore"):
        c = eps / delta_f
    if not np.all(np.isfinite(c) & (c > 0)):
        raise ValueError(
            f"epsilon / sensitivity must be a positive finite number; epsilon = "
            f"{float(eps.ravel()[0])!r} and sensitivity = {float(delta_f)!r} give "
            f"{float(c.ravel()[0])!r}"
        )
    return c


def delta_v(universe, size: int, query) -> float:
    """Δv = max over pairs of worlds of |f(ωᵢ) − f(ωⱼ)| = max f − min f (Sec. 5.1).

    Used in notebooks 00, 03, 04, 05, 09 and 10.

    Parameters
    ----------
    %(universe)s
    %(query)s

    Returns
    -------
    float

    Examples
    --------
    >>> delta_v([1, 2, 3, 10], 3, "mean")
    3.0
    """
    return _world_table(_setting(universe, size), get_query(query)).span


# --- this module's shared parameter descriptions (filled into its docstrings, as scipy's
# doccer does; the sections shared across modules are in helpers._docstrings) ------------

_PARAMETERS = {
    "universe": """\
universe : sequence of float
    The N records the adversary knows (repeats allowed: records count by position).
size : int
    n, the number of records in the release, 1 ≤ n ≤ N.""",
    "query": """\
query : str, Query or callable
    f: a name from ``helpers.queries`` ("mean", "percentile_25", ...), a ``Query``, or
    your own callable (applied row by row).""",
    "sensitivity": """\
sensitivity : float, optional
    Δf, the Laplace mechanism's sensitivity; default: the unbounded sensitivity of f on
    this universe (``helpers.sensitivity.unbounded_sensitivity``). On a private column
    pass one derived from public bounds instead.""",
}

fill_docstrings(globals(), _PARAMETERS)
