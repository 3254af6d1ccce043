"""Lee & Clifton (2011), "How Much Is Enough? Choosing ε for Differential Privacy".

The adversary knows the universe U of N records and that the released data set holds
``size`` = n of them; everything else is uncertain. Notation, as in the paper:

* possible worlds ω₁ … ω_W: the size-n sub-multisets of U taken by position, in
  ``itertools.combinations`` order (W = C(N, n)); for the school example world 1 is the
  released data set, everyone but Terry;
* f: the query (``helpers.queries``); Δf: its unbounded empirical sensitivity, which sets
  the Laplace scale b = Δf/ε of the release;
* Δv: the largest difference of f between two possible worlds, max f(ωᵢ) − min f(ωⱼ);
* ρ: the risk, the largest posterior probability the data owner tolerates for the true world.

Every public function takes ``universe, size, query`` first (query: a name such as
``"mean"``, a ``Query`` or a callable) and validates its input.

World tables and Δf are cached for the built-in queries only (keyed by the universe's
values and the query's name; ``clear_caches`` empties them): a reader's callable may read a
list, a slider or a global, so it is evaluated afresh on every call. Work is budgeted by the
work itself and refused before any is done, with its count: W worlds × n records for an
enumeration (``MAX_ENUMERATED_VALUES``; ``MAX_CALLABLE_VALUES`` for a reader's callable),
levels × ε values for ``tight_bound`` (``MAX_BOUND_TERMS``), besides ``MAX_WORLDS`` and
``MAX_TABLE_BYTES``.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from . import leave_one_out
from ._cache import ByteBoundedCache, clear_caches, one_call, per_call, value_key
from ._docstrings import fill_docstrings
from ._numerics import largest_at_most
from ._validation import (
    RULE_OPEN_UNIT,
    RULE_POSITIVE,
    check_finite_scalar,
    check_int_range,
    check_open_unit,
    check_positive,
    check_real,
    check_universe_entries,
)
from .mechanisms import make_rng
from .queries import Query, get_query
from .sensitivity import combination_indices, unbounded_sensitivity

__all__ = [
    "ANALYSIS_QUERIES",
    "MAX_BOUND_TERMS",
    "MAX_CALLABLE_VALUES",
    "MAX_ENUMERATED_VALUES",
    "MAX_TABLE_BYTES",
    "MAX_WORLDS",
    "analysis_table",
    "binary_search_epsilon",
    "binary_search_steps",
    "bound_curves",
    "clear_caches",
    "confidence",
    "count_worlds",
    "delta_v",
    "epsilon_upper_bound",
    "limit_of_tight_bound",
    "most_exposed_world",
    "possible_worlds",
    "posterior",
    "prior",
    "simulate_attack",
    "tight_bound",
    "upper_bound",
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
#: Work budget of one ``tight_bound`` call: levels L (distinct values of f) × ε values, an ε
#: in the wide regime (c·Δv ≥ 600, solved by a doubling scan) counting ⌈log₂ L⌉ times.
MAX_BOUND_TERMS = 300_000_000
# possible_worlds holds positions and values (and numpy a temporary): 8 bytes each, three times
_BYTES_PER_ENUMERATED_ENTRY = 24
# world tables and sensitivities kept for reuse (sliders), evicted oldest first above this
_CACHE_BYTES = 256_000_000
# elements per temporary array when the bounds are evaluated for many ε at once
_CHUNK_ELEMENTS = 2_000_000
# largest posterior table (outputs × worlds) returned at once: 400 MB of float64
_MAX_POSTERIOR_ELEMENTS = 50_000_000
# largest simulated attack: ε values × trials × true worlds × worlds scored
_MAX_ATTACK_SCORES = 2_000_000_000
# the bounds' running sums use plain exp() while c·Δv stays below this (no overflow even
# after summing W terms); beyond it they switch to a scan of decays (_decayed_sums)
_EXP_RANGE = 600.0
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


# --- beliefs -----------------------------------------------------------------------------


def prior(universe, size: int, weights=None) -> np.ndarray:
    """The adversary's prior over the W worlds (Sec. 4.3): uniform, or ``weights`` normalised.

    Used in notebooks 01 and 02.

    Parameters
    ----------
    %(universe)s
    weights : array_like of float, shape (W,), optional
        Non-negative and finite, not all zero; only their ratios matter (weights near the
        largest double, whose sum overflows, are normalised like any others).

    Returns
    -------
    ndarray, shape (W,)

    Examples
    --------
    >>> prior([1, 2, 3, 10], 3)
    array([0.25, 0.25, 0.25, 0.25])
    >>> prior([1, 2, 3, 10], 3, [1e308, 1e308, 0, 0])
    array([0.5, 0.5, 0. , 0. ])
    """
    return _prior(_setting(universe, size), weights)


def _prior(setting: _Setting, weights) -> np.ndarray:
    n_worlds = setting.n_worlds
    if weights is None:
        return np.full(n_worlds, 1.0 / n_worlds)
    w = check_real("prior weights", weights)
    if w.shape != (n_worlds,):
        raise ValueError(
            f"prior weights must have one entry per world, {n_worlds}; got shape {w.shape}"
        )
    if np.any(w < 0) or not np.any(w > 0):
        shown = w.tolist() if w.size <= 10 else f"an array with minimum {w.min():g}"
        raise ValueError(f"prior weights must be >= 0 with a positive sum; got {shown}")
    # divide by the largest weight first: a sum of W numbers in [0, 1] cannot overflow (the
    # sum of two weights of 1e308 was inf and gave a prior of zeros and a NaN posterior)
    w = w / w.max()
    return w / w.sum()


def posterior(
    universe, size: int, query, output, epsilon, *, sensitivity=None, prior=None
) -> np.ndarray:
    """Definition 3: P(ωᵢ | r) ∝ P(ωᵢ) · exp(−ε |r − f(ωᵢ)| / Δf), Laplace noise of scale Δf/ε.

    A release beyond every world's value gives the same posterior as one on the nearest
    world's value (the likelihood ratios no longer change), which is how a release of 10³⁰⁸
    is computed without overflow.

    Used in notebooks 01, 02 and 08.

    Parameters
    ----------
    %(universe)s
    %(query)s
    output : float or array_like
        r, the noisy release(s).
    epsilon : float or array_like
        ε > 0; broadcasts with ``output``.
    %(sensitivity)s
    prior : array_like, optional
        Weights of the worlds (see ``prior``); default uniform.

    Returns
    -------
    ndarray, shape (*broadcast(output, epsilon).shape, W)

    Raises
    ------
    ValueError
        For bad input, or above 50 million probabilities at once.

    References
    ----------
    Lee & Clifton (2011), Definition 3 and Sec. 4.4 (posterior 0.6180 at r = 2.20131, ε = 2).

    Examples
    --------
    >>> posterior([1, 2, 3, 10], 3, "mean", 2.20131, 2).round(4)
    array([0.618 , 0.1582, 0.125 , 0.0988])
    """
    setting = _setting(universe, size)
    query = get_query(query)
    eps = check_positive("epsilon", epsilon)
    r = check_real("output", output)
    delta_f = _sensitivity(setting, query, sensitivity)
    table = _world_table(setting, query)
    f = table.f
    p0 = _prior(setting, prior)
    shape = np.broadcast_shapes(r.shape, eps.shape)
    n_rows = math.prod(shape)
    if n_rows * f.size > _MAX_POSTERIOR_ELEMENTS:
        raise ValueError(
            f"posterior for {n_rows:,} outputs × {f.size:,} worlds = {n_rows * f.size:,} "
            f"probabilities exceeds {_MAX_POSTERIOR_ELEMENTS:,}; pass fewer outputs at a time"
        )
    # outside [min f, max f] every |r − fᵢ| moves by the same amount: clip (exact, no overflow)
    r = np.clip(r, f.min(), f.max())
    c = _rate(eps, delta_f)[..., None]
    distance = np.abs(r[..., None] - f)
    with np.errstate(divide="ignore", over="ignore"):
        log_prior = np.log(p0)
        # subtract the nearest distance first: c·(d − d_min) is ≥ 0 and may only overflow to +inf
        log_w = log_prior - c * (distance - distance.min(axis=-1, keepdims=True))
    top = np.max(log_w, axis=-1, keepdims=True)
    weights = np.exp(log_w - top)  # stable softmax: a large ε cannot underflow every world
    return np.broadcast_to(weights / weights.sum(axis=-1, keepdims=True), (*shape, f.size)).copy()


def confidence(
    universe, size: int, query, output, epsilon, *, sensitivity=None, prior=None
) -> float | np.ndarray:
    """The adversary's largest gain in belief: max over worlds of posterior − prior.

    Used in notebook 02.

    Parameters
    ----------
    %(universe)s
    %(query)s
    output, epsilon : float or array_like
        As in ``posterior``.
    %(sensitivity)s
    prior : array_like, optional
        As in ``posterior``.

    Returns
    -------
    float or ndarray
        A float for scalar ``output`` and ``epsilon``, else their broadcast shape.

    Examples
    --------
    >>> round(confidence([1, 2, 3, 10], 3, "mean", 2.20131, 2), 4)
    0.368
    """
    p0 = _prior(_setting(universe, size), prior)
    post = posterior(universe, size, query, output, epsilon, sensitivity=sensitivity, prior=p0)
    gain = np.max(post - p0, axis=-1)
    return float(gain) if gain.ndim == 0 else gain


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


# --- the attack, simulated ----------------------------------------------------------------


def simulate_attack(
    universe,
    size: int,
    query,
    epsilon,
    *,
    true_world: int | None = 0,
    trials: int = 10_000,
    rng,
    prior=None,
):
    """How often the adversary's most probable world is the true one, by seeded simulation.

    Releases r = f(true world) + Laplace noise of scale Δf/ε; after each, the adversary picks
    the world of largest posterior (ties go to the first). The same standard Laplace draws
    serve every ε and every true world (common random numbers), so a curve over ε is smooth.

    Used in notebook 02.

    Parameters
    ----------
    %(universe)s
    %(query)s
    epsilon : float or array_like
        ε > 0.
    true_world : int or None, optional
        The world released (default world 1, index 0); ``None`` averages over the true world
        weighted by the prior: the adversary's expected success.
    trials : int, optional
        Releases simulated.
    rng : int or numpy.random.Generator
        The seed (required: results are reproducible).
    prior : array_like, optional
        As in ``posterior``.

    Returns
    -------
    float or ndarray
        The success rate, the shape of ``epsilon``.

    Raises
    ------
    ValueError
        When ε values × trials × true worlds × worlds would exceed 2·10⁹ posteriors.

    Examples
    --------
    >>> simulate_attack([1, 2, 3, 10], 3, "mean", 5.0, trials=1000, rng=0)
    0.939
    """
    setting = _setting(universe, size)
    query = get_query(query)
    eps = check_positive("epsilon", epsilon)
    n_worlds = setting.n_worlds
    trials = check_int_range("trials", trials, 1, 10_000_000)
    p0 = _prior(setting, prior)
    if true_world is None:
        truths, weights = np.arange(n_worlds), p0
    else:
        truths = np.array([check_int_range("true_world", true_world, 0, n_worlds - 1)])
        weights = np.ones(1)
    scores = eps.size * trials * truths.size * n_worlds
    if scores > _MAX_ATTACK_SCORES:
        raise ValueError(
            f"simulate_attack would score {eps.size:,} ε × {trials:,} trials × "
            f"{truths.size:,} true world(s) × {n_worlds:,} worlds = {scores:,} posteriors, "
            f"more than {_MAX_ATTACK_SCORES:,}; use fewer trials or ε values"
        )
    delta_f = _sensitivity(setting, query, None)
    _rate(eps, delta_f)
    f = _world_table(setting, query).f
    z = make_rng(rng).laplace(0.0, 1.0, trials)  # standard draws, scaled per ε below
    with np.errstate(divide="ignore"):
        log_prior = np.log(p0)
    flat = np.atleast_1d(eps).ravel()
    # (ε, true world, trial, world) scores, in blocks of ε and trials that bound the memory
    per_trial = truths.size * n_worlds
    if per_trial > _CHUNK_ELEMENTS:
        raise ValueError(
            f"simulate_attack would score {truths.size:,} true world(s) × {n_worlds:,} worlds = "
            f"{per_trial:,} posteriors per release, more than {_CHUNK_ELEMENTS:,}; pass one "
            "true_world instead of None, or use a smaller universe"
        )
    t_step = max(1, _CHUNK_ELEMENTS // per_trial)
    e_step = max(1, _CHUNK_ELEMENTS // (per_trial * min(trials, t_step)))
    hits = np.zeros((flat.size, truths.size))
    for e0 in range(0, flat.size, e_step):
        c = flat[e0 : e0 + e_step, None, None, None] / delta_f
        for t0 in range(0, trials, t_step):
            outputs = f[truths][None, :, None, None] + z[None, None, t0 : t0 + t_step, None] / c
            guess = np.argmax(log_prior - c * np.abs(outputs - f), axis=-1)
            hits[e0 : e0 + e_step] += np.sum(guess == truths[None, :, None], axis=-1)
    rates = hits / trials @ weights
    return float(rates[0]) if np.ndim(epsilon) == 0 else rates.reshape(np.shape(epsilon))


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
