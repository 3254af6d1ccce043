"""Lee & Clifton's leave-one-out setting on real-sized columns (size = N − 1, W = N worlds).

Targets (issue 12), each on a random normal column with the default Δf:

* ``binary_search_epsilon`` for the mean, median and variance: under 50 ms at N = 10⁴ and
  under 1 s at N = 10⁶, from a cold cache (sort, world values, Δf and the search);
* the tight bound for 100 ε at once at N = 10⁶: under 5 s;
* peak memory (tracemalloc, which sees numpy's buffers) under 500 MB at N = 10⁶.

Beside them, the pairwise loop of the Lee & Clifton replication (eq. 3 as two nested Python
loops over the worlds) for the same inputs. It is O(N²) per bound, so it is timed on 200
worlds i (each against all N worlds j) and scaled by N/200; the binary search's column
multiplies that by the bisection's number of steps. Both are labelled as extrapolated.
"""

from __future__ import annotations

import gc
import time
import tracemalloc

import numpy as np
from _timing import fmt
from bench_lee_clifton import pairwise_tight_bound

from helpers import lee_clifton as lc
from helpers.sensitivity import unbounded_sensitivity


def long(seconds: float) -> str:
    """Seconds, or hours and days for the extrapolated loops."""
    if seconds < 600:
        return fmt(seconds)
    if seconds < 2 * 86_400:
        return f"{seconds / 3600:,.1f} h"
    return f"{seconds / 86_400:,.0f} days"


def cold(func):
    """Wall time and peak traced memory of one call with every cache emptied first."""
    lc.clear_caches()
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    result = func()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, seconds, peak


def main() -> None:
    rng = np.random.default_rng(0)
    print(
        "| N (size N − 1) | query, ρ | ε | binary search (cold) | peak memory | "
        "pairwise loop: one bound | pairwise loop: binary search |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|")
    for n_items in (10_000, 1_000_000):
        universe = rng.normal(50, 10, n_items)
        size = n_items - 1
        f = lc.world_values(universe, size, "mean").tolist()
        delta_f = unbounded_sensitivity(universe, size, "mean")
        rows = range(200)
        start = time.perf_counter()
        pairwise_tight_bound(f, 1.0, delta_f, rows)
        per_bound = (time.perf_counter() - start) * n_items / len(rows)
        steps = len(lc.binary_search_steps(universe, size, "mean", 1 / 3))
        # the median's worlds take two values (records below or above it): its tight bound
        # levels off at 2/N, so a risk between 1/N and 2/N is the one with a finite ε
        for query, risk, label in (
            ("mean", 1 / 3, "1/3"),
            ("median", 1.5 / n_items, "1.5/N"),
            ("variance", 1 / 3, "1/3"),
        ):
            eps, seconds, peak = cold(lambda: lc.binary_search_epsilon(universe, size, query, risk))
            loop = (
                f"{long(per_bound)} (extrapolated)",
                f"{long(per_bound * steps)} (extrapolated, {steps} steps)",
            )
            if query != "mean":
                loop = ("", "")
            print(
                f"| {n_items:,} | {query}, {label} | {eps:.4f} | {fmt(seconds)} | "
                f"{peak / 1e6:.0f} MB | {loop[0]} | {loop[1]} |"
            )
    grid = np.linspace(0.01, 5, 100)
    _, first, peak = cold(lambda: lc.tight_bound(universe, size, "mean", grid))
    start = time.perf_counter()
    lc.tight_bound(universe, size, "mean", grid)
    warm = time.perf_counter() - start
    print()
    print(
        f"Tight bound for 100 ε at once, N = {n_items:,}: {fmt(first)} from a cold cache "
        f"(peak {peak / 1e6:.0f} MB), {fmt(warm)} once the world table is cached."
    )


if __name__ == "__main__":
    main()
