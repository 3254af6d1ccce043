"""Tight bound and binary search: vectorised path vs a straightforward pairwise loop.

The pairwise loop is eq. (3) as written: for every world i, a Python loop over every
world j. The vectorised path sorts the query values once and gets each world's sum from
cumulative sums (``helpers.lee_clifton.tight_bound``).
"""

from __future__ import annotations

import math

import numpy as np
from _timing import best_of, fmt

from helpers import lee_clifton as lc


def pairwise_tight_bound(f, epsilon, delta_f, rows=None):
    """Eq. (3) as the replication wrote it; ``rows`` limits the worlds i (for timing)."""
    best = 0.0
    for i in range(len(f)) if rows is None else rows:
        total = 1.0
        for j in range(len(f)):
            if j != i:
                total += math.exp(-epsilon * abs(f[i] - f[j]) / delta_f)
        best = max(best, 1.0 / total)
    return best


def pairwise_binary_search(f, risk, delta_f, tol=1e-9):
    low, high = 0.0, 1.0
    while pairwise_tight_bound(f, high, delta_f) <= risk:
        high *= 2
    while high - low > tol:
        mid = (low + high) / 2
        if pairwise_tight_bound(f, mid, delta_f) <= risk:
            low = mid
        else:
            high = mid
    return low


def main() -> None:
    rng = np.random.default_rng(0)
    risk = 0.5
    print(
        "| W (worlds) | universe N, size n | tight bound: loop | tight bound: vectorised | binary search: loop | binary search: vectorised |"
    )
    print("|---:|---|---:|---:|---:|---:|")
    for n_items in (10, 100, 1000):
        universe = rng.normal(0, 10, n_items)  # distinct values: no ties
        size = n_items - 1  # the paper's setting: everyone but one
        delta_f = 5.0  # explicit Δf: this table times the bounds, not the sensitivity
        f = list(lc.world_values(universe, size, "mean"))
        t_loop = best_of(
            lambda: pairwise_tight_bound(f, 1.0, delta_f), repeat=3 if n_items < 1000 else 1
        )
        t_vec = best_of(lambda: lc.tight_bound(universe, size, "mean", 1.0, sensitivity=delta_f))
        eps_vec = lc.binary_search_epsilon(universe, size, "mean", risk, sensitivity=delta_f)
        b_vec = best_of(
            lambda: lc.binary_search_epsilon(universe, size, "mean", risk, sensitivity=delta_f)
        )
        # measured once: the loop version at W = 1,000 takes seconds
        b_loop = best_of(lambda: pairwise_binary_search(f, risk, delta_f), repeat=1)
        eps_loop = pairwise_binary_search(f, risk, delta_f)
        assert abs(eps_loop - eps_vec) < 1e-8, (eps_loop, eps_vec)
        b_loop_text = fmt(b_loop)
        assert (
            abs(
                pairwise_tight_bound(f, 1.0, delta_f)
                - lc.tight_bound(universe, size, "mean", 1.0, sensitivity=delta_f)
            )
            < 1e-12
        )
        print(
            f"| {len(f):,} | {n_items}, {size} | {fmt(t_loop)} | {fmt(t_vec)} | {b_loop_text} | {fmt(b_vec)} |"
        )

    print()
    print(
        "Vectorised path alone, up to the limit MAX_WORLDS =",
        f"{lc.MAX_WORLDS:,}",
        "(first call enumerates the worlds; later calls reuse them):",
    )
    print()
    print(
        "| W (worlds) | universe N, size n | first call (enumerate + bound) | tight bound, 100 ε at once | binary search |"
    )
    print("|---:|---|---:|---:|---:|")
    for n_items, size in ((16, 8), (20, 10), (24, 12)):
        universe = rng.normal(0, 1, n_items)
        lc.clear_caches()
        first = best_of(
            lambda: lc.tight_bound(universe, size, "mean", 1.0, sensitivity=1.0), repeat=1
        )
        grid = np.linspace(0.01, 5, 100)
        many = best_of(
            lambda: lc.tight_bound(universe, size, "mean", grid, sensitivity=1.0), repeat=1
        )
        search = best_of(
            lambda: lc.binary_search_epsilon(universe, size, "mean", 0.5, sensitivity=1.0), repeat=1
        )
        print(
            f"| {math.comb(n_items, size):,} | {n_items}, {size} | {fmt(first)} | {fmt(many)} | {fmt(search)} |"
        )
        lc.clear_caches()


if __name__ == "__main__":
    main()
