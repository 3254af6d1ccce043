"""Empirical global L1 sensitivity of a query over a public universe.

Lee & Clifton's adversary knows the universe (every record that could be in the release),
so the sensitivity can be computed exactly by enumerating data sets drawn from it:

* **unbounded** DP (neighbours add or remove records): Δf = max |f(A) − f(B)| over every
  size-``n`` sub-multiset A of the universe and every B obtained from A by removing up to
  ``k`` of its records or adding up to ``k`` records of the universe not in A;
* **bounded** DP (neighbours change records): max |f(A) − f(B)| over A, B of size ``n``
  that differ in up to ``k`` records.

Sub-multisets are taken by position, so repeated values in the universe are distinct
records. Empty data sets (removing every record) are skipped: no query is defined on them.

In the leave-one-out setting (``size = N − 1``, k = 1) the built-in queries skip the
enumeration: ``helpers.leave_one_out`` gives the same Δf in O(N log N), so a column of a
million records is as quick as the school example. Every other enumeration is refused up
front, with its count, when it would exceed ``MAX_DATASETS`` data sets or ``MAX_VALUES``
values in all (``MAX_CALLABLE_VALUES`` for a reader's callable, called once per data set).

A built-in query is evaluated on the universe minus a centre (``Query.centre_for``, where
that subtraction is exact), so a large common offset (values near 10¹⁴ with a spread of a
few units) costs no digits of f(A) − f(B).
"""

from __future__ import annotations

from math import comb

import numpy as np

from . import leave_one_out
from ._docstrings import fill_docstrings
from ._validation import check_int_range, check_universe_entries
from .queries import Query, get_query

__all__ = [
    "MAX_CALLABLE_VALUES",
    "MAX_DATASETS",
    "MAX_VALUES",
    "bounded_sensitivity",
    "combination_indices",
    "unbounded_sensitivity",
]

#: Largest number of data sets an enumeration may evaluate (a few million keeps the
#: memory under a few hundred MB and the time under a few seconds for vectorised queries).
MAX_DATASETS = 5_000_000
#: Largest number of values those data sets may hold in all (a data set of n records counts
#: n): five million data sets of two thousand records each would be 10¹⁰ values, minutes.
MAX_VALUES = 300_000_000
#: The same for a reader's own callable, called once per data set in Python.
MAX_CALLABLE_VALUES = 30_000_000
# data sets evaluated per chunk: bounds the memory whatever the universe
_CHUNK_ELEMENTS = 4_000_000


#: Largest index table ``combination_indices`` builds: C(n, k) × k positions of 8 bytes.
MAX_INDEX_BYTES = 400_000_000


def combination_indices(n_items: int, size: int) -> np.ndarray:
    """All ``size``-subsets of ``range(n_items)`` in ``itertools.combinations`` order.

    Not called in a notebook; used by ``helpers.lee_clifton`` and ``helpers.plotting.beliefs``.

    Parameters
    ----------
    n_items : int
        N ≥ 0.
    size : int
        0 ≤ size ≤ N.

    Returns
    -------
    ndarray of intp, shape (C(N, size), size)

    Raises
    ------
    ValueError
        If the table would exceed ``MAX_INDEX_BYTES`` (checked before any allocation).

    Examples
    --------
    >>> combination_indices(4, 3)
    array([[0, 1, 2],
           [0, 1, 3],
           [0, 2, 3],
           [1, 2, 3]])
    """
    from itertools import chain, combinations

    n_items = check_int_range("n_items", n_items, 0, 10**9)
    size = check_int_range("size", size, 0, n_items)
    count = comb(n_items, size)
    needed = count * size * np.dtype(np.intp).itemsize
    if needed > MAX_INDEX_BYTES:
        raise ValueError(
            f"combination_indices({n_items}, {size}) would hold {count:,} subsets × {size} "
            f"positions, {needed:,} bytes, over MAX_INDEX_BYTES = {MAX_INDEX_BYTES:,}"
        )
    flat = np.fromiter(
        chain.from_iterable(combinations(range(n_items), size)), dtype=np.intp, count=count * size
    )
    return flat.reshape(count, size)


def _complements(indices: np.ndarray, n_items: int) -> np.ndarray:
    """For each row of positions, the positions not in it (sorted), shape (W, n_items − size)."""
    mask = np.ones((indices.shape[0], n_items), dtype=bool)
    np.put_along_axis(mask, indices, False, axis=1)
    return np.nonzero(mask)[1].reshape(indices.shape[0], n_items - indices.shape[1])


def _refuse_if_too_many(count: int, values: int, what: str, query: Query) -> None:
    """Refuse ``count`` data sets holding ``values`` values over their budgets, up front."""
    if count > MAX_DATASETS:
        raise ValueError(
            f"{what} would evaluate {count:,} data sets, more than the limit MAX_DATASETS = "
            f"{MAX_DATASETS:,}; use a smaller universe or release size"
        )
    budget, name = (
        (MAX_CALLABLE_VALUES, "MAX_CALLABLE_VALUES") if query.user else (MAX_VALUES, "MAX_VALUES")
    )
    if values > budget:
        raise ValueError(
            f"{what} would evaluate {count:,} data sets holding {values:,} values, over the "
            f"work budget {name} = {budget:,}; use a smaller universe or release size"
        )


def _centred(values: np.ndarray, query: Query) -> tuple[np.ndarray, float]:
    """The universe minus ``query.centre_for(values)``, and that centre (0.0: as it is).

    f(B) − f(A) = f(B − c) − f(A − c) + (w(|B|) − w(|A|))·c with w = ``query.shift_weight``:
    the differences come from values near their spread, not near a large common offset.
    """
    centre = query.centre_for(values)
    return (values - centre if centre else values), centre


def _shift_term(query: Query, centre: float, size_a: int, size_b: int) -> float:
    """(w(|B|) − w(|A|))·c, the part of f(B) − f(A) the centred values leave out."""
    if not centre:
        return 0.0
    return (query.shift_weight(size_b) - query.shift_weight(size_a)) * centre


def _validated(universe, size, query, k) -> tuple[np.ndarray, int, Query, int]:
    values = check_universe_entries(universe)
    size = check_int_range("size", size, 1, values.size)
    return values, size, get_query(query), k


def _chunks(n_worlds: int, per_world: int):
    step = max(1, _CHUNK_ELEMENTS // max(per_world, 1))
    for start in range(0, n_worlds, step):
        yield slice(start, min(start + step, n_worlds))


def unbounded_sensitivity(universe, size: int, query, *, k: int = 1) -> float:
    """Δf under unbounded DP: add or remove up to ``k`` records (see the module docstring).

    Used in notebooks 00, 02, 03, 04, 05, 09 and 10.

    Parameters
    ----------
    %(universe_size_query)s
    k : int, optional
        Hamming distance: records added or removed at once (keyword-only; default 1).

    Returns
    -------
    float
        max |f(A) − f(B)| over every size-n sub-multiset A and every neighbour B. In the
        leave-one-out setting (n = N − 1, k = 1, a built-in query) it is computed in
        O(N log N) by ``helpers.leave_one_out``; otherwise by enumeration.

    Raises
    ------
    ValueError
        For bad input, or an enumeration of more than ``MAX_DATASETS`` data sets or
        ``MAX_VALUES`` values (``MAX_CALLABLE_VALUES`` for a reader's callable), refused up
        front with the count.

    References
    ----------
    Lee & Clifton (2011), Sec. 4.4 (empirical sensitivity over the universe).

    Examples
    --------
    >>> unbounded_sensitivity([1, 2, 3, 10], 3, "mean")  # drop Terry's 10 from {2, 3, 10}
    2.8333333333333335
    """
    values, size, query, k = _validated(universe, size, query, k)
    n_items = values.size
    k_max = max(size - 1, n_items - size)
    if k_max < 1:
        raise ValueError(
            f"size={size} with a universe of {n_items} record(s) has no unbounded neighbours "
            "(removing would leave an empty data set and nothing is left to add)"
        )
    k = check_int_range("k (Hamming distance)", k, 1, k_max)
    if size == n_items - 1 and k == 1 and leave_one_out.supports(query):
        return leave_one_out.unbounded_sensitivity(values, query)
    n_worlds = comb(n_items, size)
    removals = {j: comb(size, j) for j in range(1, k + 1) if j < size}
    additions = {j: comb(n_items - size, j) for j in range(1, k + 1) if j <= n_items - size}
    count = n_worlds * (1 + sum(removals.values()) + sum(additions.values()))
    held = n_worlds * (
        size
        + sum(c * (size - j) for j, c in removals.items())
        + sum(c * (size + j) for j, c in additions.items())
    )
    _refuse_if_too_many(count, held, "unbounded_sensitivity", query)

    values, centre = _centred(values, query)
    worlds = combination_indices(n_items, size)
    best = 0.0
    per_world = (sum(removals.values()) + sum(additions.values()) + 1) * (size + k)
    for part in _chunks(n_worlds, per_world):
        a_idx = worlds[part]
        a_vals = values[a_idx]  # (w, n)
        f_a = query(a_vals)
        for j in range(1, k + 1):
            if j < size:  # remove j records: keep size − j of them
                keep = combination_indices(size, size - j)  # (C, n − j)
                f_b = query(a_vals[:, keep])  # (w, C)
                shift = _shift_term(query, centre, size, size - j)
                best = max(best, float(np.max(np.abs(f_b - f_a[:, None] + shift))))
            if j <= n_items - size:  # add j records the world does not hold
                outside = values[_complements(a_idx, n_items)]  # (w, N − n)
                pick = combination_indices(n_items - size, j)  # (C, j)
                added = outside[:, pick]  # (w, C, j)
                base = np.broadcast_to(a_vals[:, None, :], (*added.shape[:2], size))
                f_b = query(np.concatenate([base, added], axis=-1))
                shift = _shift_term(query, centre, size, size + j)
                best = max(best, float(np.max(np.abs(f_b - f_a[:, None] + shift))))
    return best


def bounded_sensitivity(universe, size: int, query, *, k: int = 1) -> float:
    """Sensitivity under bounded DP: change up to ``k`` of the ``size`` records.

    Used in notebooks 00, 03 and 10.

    Parameters
    ----------
    %(universe_size_query)s
    k : int, optional
        Records changed at once (keyword-only; default 1).

    Returns
    -------
    float
        max |f(A) − f(B)| over size-n sub-multisets A, B that differ in at most k records.

    Raises
    ------
    ValueError
        For bad input, or an enumeration of more than ``MAX_DATASETS`` data sets or
        ``MAX_VALUES`` values (``MAX_CALLABLE_VALUES`` for a reader's callable).

    Examples
    --------
    >>> bounded_sensitivity([1, 2, 3, 10], 3, "mean")  # swap 1 for 10: (10 − 1)/3
    3.0
    """
    values, size, query, k = _validated(universe, size, query, k)
    n_items = values.size
    k_max = min(size, n_items - size)
    if k_max < 1:
        raise ValueError(
            f"size={size} equals the universe's {n_items} records: every bounded neighbour "
            "would need a record that is not there"
        )
    k = check_int_range("k (Hamming distance)", k, 1, k_max)
    n_worlds = comb(n_items, size)
    per_world = sum(comb(size, j) * comb(n_items - size, j) for j in range(1, k + 1))
    count = n_worlds * (1 + per_world)
    _refuse_if_too_many(count, count * size, "bounded_sensitivity", query)

    # every data set compared has n records: a common shift cancels from f(B) − f(A)
    values, _ = _centred(values, query)
    worlds = combination_indices(n_items, size)
    best = 0.0
    for part in _chunks(n_worlds, (per_world + 1) * size):
        a_idx = worlds[part]
        a_vals = values[a_idx]
        f_a = query(a_vals)
        outside = values[_complements(a_idx, n_items)]
        for j in range(1, k + 1):
            keep = combination_indices(size, size - j)  # (Cr, n − j)
            pick = combination_indices(n_items - size, j)  # (Ca, j)
            kept = a_vals[:, keep]  # (w, Cr, n − j)
            added = outside[:, pick]  # (w, Ca, j)
            shape = (a_vals.shape[0], keep.shape[0], pick.shape[0])
            b_vals = np.concatenate(
                [
                    np.broadcast_to(kept[:, :, None, :], (*shape, size - j)),
                    np.broadcast_to(added[:, None, :, :], (*shape, j)),
                ],
                axis=-1,
            )
            f_b = query(b_vals)
            best = max(best, float(np.max(np.abs(f_b - f_a[:, None, None]))))
    return best


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "universe_size_query": """\
universe : sequence of float
    The N records of the public universe.
size : int
    n, the size of the data sets compared.
query : str, Query or callable
    f (``helpers.queries``).""",
}

fill_docstrings(globals(), _SECTIONS)
