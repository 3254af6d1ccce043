"""Lee & Clifton's leave-one-out setting in O(N log N): the worlds U ∖ {xᵢ} of a universe U.

When the release holds every record of the universe but one (``size = N − 1``), the
possible worlds are the N data sets U ∖ {xᵢ}, the adversary's own setting in Lee & Clifton
(2011, Sec. 3: "all but one record"). Enumerating them costs a W × n table, N² numbers; this
module gets every world's query value and the unbounded sensitivity Δf from one sort of U and
a few running sums instead, for the built-in queries of ``helpers.queries``: count, sum, mean,
variance, std, median, min, max and every percentile.

Conventions shared with ``helpers.lee_clifton``:

* worlds come in ``itertools.combinations`` order: world w drops the record at position
  ``N − 1 − w`` (the first combination keeps positions 0 … N − 2);
* besides f(ωᵢ), each function returns ``d``, the same values *up to one shared constant*,
  computed so that their differences are accurate even when the values themselves are huge
  (a mean of values near 10⁹ with a spread of 1; for the order statistics, the same
  interpolation between records minus a centre, ``Query.centre_for``, where that subtraction
  is exact). The bounds only ever use differences fᵢ − fⱼ, so they use ``d``;
* ``group`` labels worlds that the query cannot tell apart. For the sum and the mean, labels
  are equal exactly when the removed records are equal (f is then an injective function of
  the removed value, so comparing the records is exact where comparing rounded means would
  not be). For the others they are equal exactly when ``d`` is the same double: always so
  for worlds holding the same multiset of records, never by a tolerance. For variance and
  std ``d`` is finer than f (adding the shared constant back can round two different worlds
  to one value of f), and like any floating-point value it still ties two worlds whose true
  values differ by less than one rounding unit. The bound cannot see such a difference; it
  matters only at very large ε or for a risk ρ exactly on a plateau 1/k of the bound, and
  the searches aim 10⁻¹⁴ below ρ so that such a plateau is never taken as safe.

Variance and standard deviation never use Σx² − (Σx)²/n on the raw values: they work with
deviations y from an accurate mean and remove a record with M₂' = (Σy² − y²) − (Σy − y)²/(N − 1),
which loses nothing except when the record removed held nearly all of M₂ (the point farthest
from the mean); those few data sets are recomputed directly.
"""

from __future__ import annotations

import math

import numpy as np

from ._cache import ByteBoundedCache, value_key
from ._validation import check_universe_entries
from .queries import Query, get_query

__all__ = ["BYTES_PER_RECORD", "clear_cache", "supports", "unbounded_sensitivity", "world_table"]

# the sorted universe of the latest universe seen: one entry (each counts as the whole
# budget), so the memory held stays one universe's; emptied by ``clear_caches`` too
_SORTED = ByteBoundedCache(1, lambda entry: 1)

#: Memory the leave-one-out path needs per record of the universe, at most (a dozen float64
#: and index arrays of length N); ``helpers.lee_clifton`` checks it against its budget.
BYTES_PER_RECORD = 160


def supports(query) -> bool:
    """True when ``query`` is a built-in with a leave-one-out fast path.

    Not called in a notebook; used by ``helpers.lee_clifton`` and ``helpers.sensitivity``.

    Parameters
    ----------
    query : Query
        From ``helpers.queries.get_query``.

    Returns
    -------
    bool
        False for a reader's own callable, and for any ``Query`` that is not
        ``built_in`` (a built-in's name on another function): it keeps the enumeration.

    Examples
    --------
    >>> from helpers.queries import get_query
    >>> supports(get_query("percentile_10")), supports(get_query(lambda xs: max(xs)))
    (True, False)
    """
    query = get_query(query)
    return query.built_in and _kind(query) is not None


def clear_cache() -> None:
    """Forget the sorted universe kept for reuse (it is keyed by the universe's values).

    ``helpers.lee_clifton.clear_caches`` empties it too, with every other cache.

    Not called in a notebook; no other helper uses it.

    Examples
    --------
    >>> clear_cache()
    """
    _SORTED.clear()


def _kind(query: Query) -> tuple | None:
    key = query.key
    if key in {("count",), ("sum",), ("mean",), ("variance",), ("std",)}:
        return key
    if key == ("median",):
        return ("median",)
    if key == ("min",):
        return ("percentile", 0.0)
    if key == ("max",):
        return ("percentile", 100.0)
    if len(key) == 2 and key[0] == "percentile":
        return ("percentile", float(key[1]))
    return None


# --- the sorted universe and its moments -----------------------------------------------


def _sorted(values: np.ndarray) -> _Sorted:
    """The sorted universe, reused while the same values come back (world table, then Δf).

    Keyed by a hash of the values' bytes (milliseconds for a million records, against a
    tenth of a second for the sort); one entry, so the memory held stays one universe's.
    """
    values = np.ascontiguousarray(values, dtype=float)
    return _SORTED.get((values.size, value_key(values)), lambda: _Sorted(values))


class _Sorted:
    """One sort of U and what every query needs from it."""

    def __init__(self, values: np.ndarray):
        self.x = values
        self.n = values.size
        self.order = np.argsort(values, kind="stable")
        self.u = values[self.order]
        # group label of each rank: equal records share one
        self.value_id = np.concatenate([[0], np.cumsum(self.u[1:] != self.u[:-1])])
        # rank of the record each world drops, in world order (world w drops N − 1 − w)
        rank_of = np.empty(self.n, dtype=np.intp)
        rank_of[self.order] = np.arange(self.n)
        self.removed_rank = rank_of[::-1]
        self.removed = values[::-1]
        # an accurate mean: numpy's pairwise sum, then one correction pass
        mean = float(np.mean(values))
        y = values - mean
        mean += float(np.mean(y))
        self.mean = mean
        self.y = values - mean  # deviations, Σy ≈ 0 to rounding
        # Σy and Σy²: every variance below is (Σ over the records kept of y², minus (their
        # Σy)² over their count), exact for any centre, so the small error of the mean
        # cannot leak into the updates
        self.sum_y = float(np.sum(self.y))
        self.sum_y2 = float(np.sum(self.y * self.y))
        self.m2 = self.sum_y2 - self.sum_y**2 / self.n


def _directly(values: np.ndarray, drop_rank: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Population variance of U without the records of each row of ranks (two-pass).

    ``drop_rank`` holds one rank per row (shape (M,)) or several (shape (M, r)). Used only
    for the few data sets where the O(1) updates would cancel: O(N) each.
    """
    rows = np.asarray(drop_rank).reshape(len(drop_rank), -1)
    out = np.empty(rows.shape[0])
    for k, ranks in enumerate(rows):  # a handful of rows: the ends of the sorted universe
        rest = np.delete(u, ranks)
        dev = rest - rest.mean()
        out[k] = (np.sum(dev * dev) - np.sum(dev) ** 2 / rest.size) / rest.size
    return out


# --- world values ------------------------------------------------------------------------


def world_table(values, query) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(f, d, group) for the N leave-one-out worlds, in combinations order (see the module).

    Not called in a notebook; used by ``helpers.lee_clifton``.

    Parameters
    ----------
    values : ndarray of float, shape (N,)
        The universe, N ≥ 2.
    query : Query
        A built-in query (``supports(query)``).

    Returns
    -------
    f : ndarray, shape (N,)
        f(U ∖ {x_{N−1−w}}) for world w.
    d : ndarray, shape (N,)
        f up to one shared constant, with accurate differences.
    group : ndarray of int, shape (N,)
        Equal exactly for worlds the query cannot tell apart.

    Raises
    ------
    ValueError
        For a query without a fast path, or a universe of fewer than 2 records (its
        worlds would be empty).

    Examples
    --------
    >>> from helpers.queries import get_query
    >>> f, d, group = world_table(np.array([1.0, 2, 3, 10]), get_query("sum"))
    >>> f, d
    (array([ 6., 13., 14., 15.]), array([-7.,  0.,  1.,  2.]))
    """
    s, kind, query = _prepared(values, query)
    n = s.n
    if kind == ("count",):
        f = np.full(n, float(n - 1))
        return f, np.zeros(n), np.zeros(n, dtype=np.intp)
    if kind in {("sum",), ("mean",)}:
        # group by the removed record itself: exact, whatever the rounding of f
        group = s.value_id[s.removed_rank]
        centre = s.u[n // 2]
        if kind == ("sum",):
            total = math.fsum(values.tolist())
            return total - s.removed, centre - s.removed, group
        # (S − xᵢ)/(N − 1) = x̄ + (x̄ − xᵢ)/(N − 1); differences come from (c − xᵢ), exact
        # by Sterbenz's lemma for records near the centre c
        f = s.mean + (s.mean - s.removed) / max(n - 1, 1)
        d = (centre - s.removed) / max(n - 1, 1)
        return f, d, group
    if kind in {("variance",), ("std",)}:
        f, d = _variance_worlds(s)
        group = _groups(d)  # std is a monotone function of the variance: the same ties
        if kind == ("std",):
            base = s.sum_y2 / (n - 1)
            std = np.sqrt(f)
            # √vᵢ − √v₀ = (vᵢ − v₀)/(√vᵢ + √v₀): accurate differences without cancellation
            denominator = std + math.sqrt(base)
            with np.errstate(invalid="ignore", divide="ignore"):
                d = np.where(denominator > 0, d / denominator, 0.0)
            f = std
        return f, d, group
    # removing a lower rank can only raise an order statistic: f by rank is non-increasing,
    # so equal values are neighbours and the groups need no second sort
    by_rank = _percentile_after(s.u, np.arange(n)[:, None], kind)
    # d: the same order statistic of the records minus a centre, where that is exact for
    # every record: an interpolation between two records near 10¹⁴ rounds to 1/64 and
    # loses the differences between worlds; between the centred records it does not
    centre = query.centre_for(s.u)
    d_by_rank = _percentile_after(s.u - centre, np.arange(n)[:, None], kind) if centre else by_rank
    ids = np.concatenate([[0], np.cumsum(d_by_rank[1:] != d_by_rank[:-1])])
    return by_rank[s.removed_rank], d_by_rank[s.removed_rank], ids[s.removed_rank]


def _prepared(values, query) -> tuple[_Sorted, tuple, Query]:
    """Validate (universe, query), refuse a query without a fast path, sort the universe."""
    values, query = check_universe_entries(values, "values"), get_query(query)
    kind = _kind(query)
    if kind is None or not query.built_in:
        raise ValueError(f"no leave-one-out fast path for query {query.name!r}")
    if values.size < 2:
        raise ValueError(
            f"values must hold at least 2 records (a leave-one-out world of a one-record "
            f"universe is empty); got {values.size}"
        )
    return _sorted(values), kind, query


def _groups(f: np.ndarray) -> np.ndarray:
    return np.unique(f, return_inverse=True)[1].reshape(-1)


def _variance_worlds(s: _Sorted) -> tuple[np.ndarray, np.ndarray]:
    """Population variance of U ∖ {xᵢ} per world, and the same minus a shared constant."""
    n = s.n
    a = s.y[::-1]  # the removed record's deviation, per world
    # M₂' = (Σy² − a²) − (Σy − a)²/(N − 1); divided by the N − 1 records left. The part that
    # depends on the world, d, has no cancellation; adding Σy²/(N − 1) back can cancel.
    d = -(a * a + (s.sum_y - a) ** 2 / (n - 1)) / (n - 1)
    f = s.sum_y2 / (n - 1) + d
    # Adding M₂/(N − 1) back cancels only for the record farthest from the mean (its yᵢ² can
    # be nearly all of M₂): recompute f for the two ends of the sorted universe directly.
    # d needs no repair (it has no cancellation) and stays the exact-tie key.
    ends = np.array([0, n - 1])
    exact = _directly(s.x, ends, s.u)
    for rank, value in zip(ends, exact, strict=True):
        f[s.u[s.removed_rank] == s.u[rank]] = value
    return np.maximum(f, 0.0), d


# --- order statistics after removing records ---------------------------------------------


def _positions(length: int, kind: tuple) -> tuple[int, int, float, bool]:
    """Sorted indices (k0, k1), weight γ and median flag of the query on ``length`` values."""
    if kind == ("median",):
        half = length // 2
        if length % 2:
            return half, half, 0.0, True
        return half - 1, half, 0.5, True
    level = kind[1]
    # numpy's "linear" method: virtual index (L − 1)·q, q = level/100
    virtual = (length - 1) * (level / 100.0)
    k0 = math.floor(virtual)
    k1 = min(k0 + 1, length - 1)
    return k0, k1, virtual - k0, False


def _lerp(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """numpy's own interpolation (``numpy.lib._function_base_impl._lerp``), bit for bit."""
    diff = b - a
    out = a + diff * t
    if t >= 0.5:
        out = b - diff * (1 - t)
    return out


def _percentile_after(u: np.ndarray, removed: np.ndarray, kind: tuple) -> np.ndarray:
    """The query on the sorted universe ``u`` without the ranks in each row of ``removed``.

    ``removed`` has shape (M, r), r = 0, 1 or 2, ranks distinct; row by row it gives the
    query on the remaining N − r values, vectorised: the k-th remaining value is u[k]
    shifted past each removed rank at or below it.
    """
    removed = np.sort(removed, axis=1)
    k0, k1, gamma, is_median = _positions(u.size - removed.shape[1], kind)

    def remaining(k: int) -> np.ndarray:
        index = np.full(removed.shape[0], k, dtype=np.intp)
        for column in range(removed.shape[1]):
            index += index >= removed[:, column]
        return u[index]

    a, b = remaining(k0), remaining(k1)
    if is_median:
        return a if k0 == k1 else (a + b) / 2  # np.median: the mean of the middle two
    return a if k0 == k1 else _lerp(a, b, gamma)


# --- unbounded sensitivity ----------------------------------------------------------------


def unbounded_sensitivity(values, query) -> float:
    """Δf over the leave-one-out worlds: max |f(A) − f(B)|, A = U ∖ {xᵢ}, B = A ∖ {xⱼ} or U.

    Equals ``helpers.sensitivity.unbounded_sensitivity(values, N − 1, query)`` (the
    brute-force definition, k = 1), in O(N log N): closed forms for count, sum and mean; for
    variance and std the change from removing a second record is a concave quadratic in
    that record, so its extremes sit at the record nearest the vertex and at the ends; an
    order statistic depends on the removed ranks only through where they fall around the
    interpolation indices, so a window of ranks there plus the ends covers every case.

    Not called in a notebook; used by ``helpers.lee_clifton`` and ``helpers.sensitivity``.

    Parameters
    ----------
    values : ndarray of float, shape (N,)
        The universe, N ≥ 2.
    query : Query
        A built-in query (``supports(query)``).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For a query without a fast path or a one-record universe.

    Examples
    --------
    >>> from helpers.queries import get_query
    >>> unbounded_sensitivity(np.array([1.0, 2, 3, 10]), get_query("mean"))
    2.8333333333333335
    """
    s, kind, query = _prepared(values, query)
    n = s.n
    can_remove = n - 1 >= 2  # removing from a one-record world would leave it empty
    if kind == ("count",):
        return 1.0
    if kind == ("sum",):
        return float(np.max(np.abs(s.u[[0, -1]])))
    if kind == ("mean",):
        return _mean_sensitivity(s, can_remove)
    if kind in {("variance",), ("std",)}:
        return _spread_sensitivity(s, can_remove, std=kind == ("std",))
    return _order_statistic_sensitivity(s, kind, can_remove, query.centre_for(s.u))


def _mean_sensitivity(s: _Sorted, can_remove: bool) -> float:
    n, y = s.n, s.u - s.mean
    # adding the missing record back: x̄(U) − x̄(U ∖ {xᵢ}) = (xᵢ − x̄)/(N − 1)
    best = float(np.max(np.abs(y[[0, -1]] - s.sum_y / n))) / (n - 1)
    if can_remove:
        # world i's mean (deviations), then |mᵢ − yⱼ|/(N − 2) at the farthest other record
        m_i = (s.sum_y - y) / (n - 1)
        lowest = np.where(np.arange(n) == 0, y[1], y[0])
        highest = np.where(np.arange(n) == n - 1, y[n - 2], y[n - 1])
        gap = np.maximum(np.abs(m_i - lowest), np.abs(highest - m_i))
        best = max(best, float(np.max(gap)) / (n - 2))
    return best


def _spread_sensitivity(s: _Sorted, can_remove: bool, *, std: bool) -> float:
    n = s.n
    y = s.u - s.mean  # the deviations in sorted order (the same arithmetic as s.y)
    var_all = s.m2 / n
    var_i = np.maximum((s.sum_y2 - y * y - (s.sum_y - y) ** 2 / (n - 1)) / (n - 1), 0.0)
    ends = np.array([0, n - 1])
    var_i[ends] = _directly(s.x, ends, s.u)
    transform = np.sqrt if std else (lambda v: v)
    best = float(np.max(np.abs(transform(var_all) - transform(var_i))))
    if not can_remove:
        return best
    ranks = np.arange(n)
    # var(U ∖ {i, j}) in deviations a = yᵢ, b = yⱼ: (Σy² − a² − b² − (Σy − a − b)²/(N − 2))
    # over N − 2, concave in b with its vertex at world i's mean (Σy − a)/(N − 1): the
    # largest value sits at a record next to the vertex, the smallest at either end
    vertex = np.searchsorted(y, (s.sum_y - y) / (n - 1))
    # the records just below and just above the vertex; where one of them is record i
    # itself, the next one out on that side
    near = np.stack([vertex - 1, vertex], axis=1)
    near[:, 0] -= near[:, 0] == ranks
    near[:, 1] += near[:, 1] == ranks
    np.clip(near, 0, n - 1, out=near)
    far = np.empty((n, 2), dtype=np.intp)
    far[:, 0] = np.where(ranks == 0, 1, 0)  # the lowest other record
    far[:, 1] = np.where(ranks == n - 1, n - 2, n - 1)  # the highest other record
    a = y[:, None]
    kept = s.sum_y2 - a * a  # Σy² without record i, shared by both candidate sets
    for candidates in (near, far):
        b = y[candidates]
        m2 = kept - b * b
        m2 -= (s.sum_y - a - b) ** 2 / (n - 2)
        var_ij = np.maximum(m2 / (n - 2), 0.0)
        valid = candidates != ranks[:, None]
        # The update cancels when the two removed records held nearly all of M₂ (what is left
        # is nearly constant; √ would magnify the rounding): recompute those directly, once
        # per distinct pair of removed values (few: the rest must be almost constant).
        suspect = valid & (var_ij <= 1e-6 * s.m2 / (n - 2))
        if np.any(suspect):
            rows, cols = np.nonzero(suspect)
            pairs = np.stack([ranks[rows], candidates[rows, cols]], axis=1)
            value_pairs = np.sort(s.u[pairs], axis=1)
            _, first, inverse = np.unique(
                value_pairs, axis=0, return_index=True, return_inverse=True
            )
            exact = _directly(s.x, pairs[first], s.u)
            var_ij[rows, cols] = exact[inverse.reshape(-1)]
        change = np.abs(transform(var_ij) - transform(var_i)[:, None])
        best = max(best, float(np.max(np.where(valid, change, 0.0))))
    return best


def _order_statistic_sensitivity(s: _Sorted, kind: tuple, can_remove: bool, centre: float) -> float:
    n, u = s.n, s.u - centre  # differences of order statistics do not move with a shift
    # every index the query reads on N, N − 1 or N − 2 values, then a margin of two ranks
    reads = [k for length in (n, n - 1, n - 2) if length >= 1 for k in _positions(length, kind)[:2]]
    window = range(max(0, min(reads) - 3), min(n, max(reads) + 5))
    ranks = np.array(sorted({0, 1, n - 2, n - 1, *window} & set(range(n))))
    f_all = _percentile_after(u, np.empty((1, 0), dtype=np.intp), kind)[0]
    f_i = _percentile_after(u, ranks[:, None], kind)
    best = float(np.max(np.abs(f_all - f_i)))
    if can_remove:
        i, j = np.meshgrid(np.arange(ranks.size), np.arange(ranks.size), indexing="ij")
        pairs = i != j
        both = np.stack([ranks[i[pairs]], ranks[j[pairs]]], axis=1)
        f_ij = _percentile_after(u, both, kind)
        best = max(best, float(np.max(np.abs(f_ij - f_i[i[pairs]]))))
    return best
