"""From a chosen budget to a release (notebook 12): the per-person and small-group readings on
a grid (targets < 5 ms) and the bias of bounding contributions over a million people
(< 200 ms). opendp is imported before timing (its first import is not the work).

Scale (issue 37): ``python benchmarks/bench_release.py --scale [RECORDS]`` runs
:func:`helpers.release.opendp_release` on a synthetic table of RECORDS visit records (10⁷ by
default; 3 per person on average, 5 regions, a count, a sum and a mean by region with public
keys) through Polars' lazy engine, each in a fresh process, and prints its time and peak
memory (the process's maximum resident set) beside a plain Polars group-by of the same table
computing the same cells without privacy, and their ratio.
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
import time

import numpy as np
import opendp.prelude  # noqa: F401  (imported before timing)
from _timing import best_of, fmt

from helpers import budget as B
from helpers import release as R

GRID_TARGET = 5e-3
CLIP_TARGET = 0.2


def main() -> None:
    eps = np.linspace(0.01, 5.0, 10_000)
    sizes = np.geomspace(1, 1e6, 10_000)
    counts = np.random.default_rng(1).negative_binomial(1.2, 1.2 / 4.2, size=1_000_000)
    rows = [
        (
            "group_privacy, 10⁴ ε, δ = 1e-8, m = 5",
            lambda: R.group_privacy(eps, 1e-8, size=5),
            GRID_TARGET,
        ),
        (
            "group_error, 10⁴ group sizes",
            lambda: R.group_error(sizes, budget=0.5, kind="count"),
            GRID_TARGET,
        ),
        ("delta_exposure, 10⁴ n", lambda: R.delta_exposure(1e-9, sizes), GRID_TARGET),
        (
            "contribution_tradeoff, 10⁶ people, m = 1..50",
            lambda: R.contribution_tradeoff(counts, np.arange(1, 51), epsilon=0.1),
            CLIP_TARGET,
        ),
    ]
    print("| operation | best time | target |")
    print("|---|---:|---:|")
    for name, func, target in rows:
        seconds = best_of(func, repeat=3)
        verdict = f"< {fmt(target)} {'✓' if seconds < target else '✗'}"
        print(f"| {name} | {fmt(seconds)} | {verdict} |", flush=True)


def _table(records: int):
    import polars as pl

    rng = np.random.default_rng(0)
    people = records // 3
    return pl.DataFrame(
        {
            "patient": rng.integers(0, people, size=records),
            "region": rng.choice(["north", "south", "east", "west", "isle"], size=records),
            "cost": rng.gamma(2.0, 120.0, size=records),
        }
    )


def _private(records: int) -> None:
    # the workload at OpenDP's own sensitivities for one person of up to 3 records (what
    # opendp_release requires: the noise that runs is the noise planned)
    work = R.opendp_workload(
        [
            B.Release("count", k=30.0, label="visits"),
            B.Release("sum", k=3e4, lower=0.0, upper=500.0, label="cost"),
            B.Release("mean", k=5.0, lower=0.0, upper=500.0, n=records, label="mean cost"),
        ],
        contributions=3,
    )
    R.opendp_release(
        _table(records),
        B.budget_for_accuracy(work),
        work,
        person="patient",
        contributions=3,
        by="region",
        keys={"region": ["north", "south", "east", "west", "isle"]},
        columns={"visits": None, "mean cost": "cost"},
        max_length=10 * records,
    )


def _plain(records: int) -> None:
    import polars as pl

    kept = _table(records).lazy().filter(pl.int_range(pl.len()).over("patient") < 3)
    kept.group_by("region").agg(
        pl.len().alias("visits"),
        pl.col("cost").clip(0.0, 500.0).sum().alias("cost"),
        pl.col("cost").clip(0.0, 500.0).mean().alias("mean cost"),
    ).collect()


def _measure(job, records, queue) -> None:
    table_only = time.perf_counter()
    _table(records)
    build = time.perf_counter() - table_only
    start = time.perf_counter()
    job(records)
    seconds = time.perf_counter() - start - build  # the table built twice: count it once
    queue.put((seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def scale(records: int = 10**7) -> None:
    """Time and peak memory of the private release and of a plain Polars group-by."""
    context = multiprocessing.get_context("spawn")
    results = {}
    for name, job in (("plain Polars group-by", _plain), ("opendp_release", _private)):
        queue = context.Queue()
        process = context.Process(target=_measure, args=(job, records, queue))
        process.start()
        process.join()  # a job that fails ends its process: never wait on an empty queue
        if process.exitcode != 0:
            raise SystemExit(f"{name} failed (exit code {process.exitcode}); its error is above")
        results[name] = queue.get(timeout=60)
    print(f"| {records:,} records | time | peak memory (MB) |")
    print("|---|---:|---:|")
    for name, (seconds, peak) in results.items():
        print(f"| {name} | {fmt(seconds)} | {peak:,.0f} |")
    (t0, m0), (t1, m1) = results.values()
    print(f"| ratio (OpenDP / plain) | {t1 / t0:.1f}× | {m1 / m0:.2f}× |")


if __name__ == "__main__":
    if "--scale" in sys.argv:
        rest = sys.argv[sys.argv.index("--scale") + 1 :]
        scale(int(float(rest[0])) if rest else 10**7)
    else:
        main()
