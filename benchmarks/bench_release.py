"""From a chosen budget to a release (notebook 12): the per-person and small-group readings on
a grid (targets < 5 ms) and the bias of bounding contributions over a million people
(< 200 ms). opendp is imported before timing (its first import is not the work).

Scale (issue 48, item 7): ``python benchmarks/bench_release.py --scale [RECORDS [ROUNDS]]``
runs :func:`helpers.release.opendp_release` on a synthetic table of RECORDS visit records (10⁷
by default; 3 per person on average, 5 regions, a count, a sum and a mean by region with public
keys) beside a plain Polars group-by of the same table that computes the same cells without
privacy, after the same truncation (each person's first 3 records) and clipping. Each job runs in
a fresh process that builds the table before its clock starts; wall time, peak memory (the
process's maximum resident set) and CPU time are measured in ROUNDS alternating rounds (3 by
default: the machine may be shared), and the verdict reads the median of the per-round ratios.
Target: the release within 2× the plain group-by in time and in peak memory.
"""

from __future__ import annotations

import multiprocessing
import resource
import statistics
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


#: The release's target at 10⁷ records: within this many times the plain group-by that
#: truncates per person, in wall time and in peak memory (issue 48, item 7).
SCALE_TARGET = 2.0


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


def _private(table) -> None:
    # the workload at OpenDP's own sensitivities for one person of up to 3 records (what
    # opendp_release requires: the noise that runs is the noise planned)
    records = table.height
    work = R.opendp_workload(
        [
            B.Release("count", k=30.0, label="visits"),
            B.Release("sum", k=3e4, lower=0.0, upper=500.0, label="cost"),
            B.Release("mean", k=5.0, lower=0.0, upper=500.0, n=records, label="mean cost"),
        ],
        contributions=3,
    )
    R.opendp_release(
        table,
        B.budget_for_accuracy(work),
        work,
        person="patient",
        contributions=3,
        by="region",
        keys={"region": ["north", "south", "east", "west", "isle"]},
        columns={"visits": None, "mean cost": "cost"},
        max_length=10 * records,
    )


def _plain(table) -> None:
    import polars as pl

    kept = table.lazy().filter(pl.int_range(pl.len()).over("patient") < 3)
    kept.group_by("region").agg(
        pl.len().alias("visits"),
        pl.col("cost").clip(0.0, 500.0).sum().alias("cost"),
        pl.col("cost").clip(0.0, 500.0).mean().alias("mean cost"),
    ).collect()


def _measure(job, records, queue) -> None:
    """(wall seconds, peak resident MB, CPU seconds) of ``job`` on the table, built first."""
    table = _table(records)
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    job(table)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    queue.put((seconds, after.ru_maxrss / 1024, cpu))


def _in_process(name, job, records, context):
    queue = context.Queue()
    process = context.Process(target=_measure, args=(job, records, queue))
    process.start()
    process.join()  # a job that fails ends its process: never wait on an empty queue
    if process.exitcode != 0:
        raise SystemExit(f"{name} failed (exit code {process.exitcode}); its error is above")
    return queue.get(timeout=60)


def scale(records: int = 10**7, rounds: int = 3) -> None:
    """Wall time, peak memory and CPU time of the private release and of a plain Polars
    group-by that truncates per person, in alternating rounds; medians of per-round ratios."""
    context = multiprocessing.get_context("spawn")
    jobs = (("plain Polars group-by", _plain), ("opendp_release", _private))
    results = {name: [] for name, _ in jobs}
    print(f"| {records:,} records, round | job | time | peak memory (MB) | CPU time |")
    print("|---|---|---:|---:|---:|")
    for r in range(rounds):
        for name, job in jobs if r % 2 == 0 else jobs[::-1]:  # alternating who goes first
            results[name].append(_in_process(name, job, records, context))
            seconds, peak, cpu = results[name][-1]
            print(f"| {r + 1} | {name} | {fmt(seconds)} | {peak:,.0f} | {fmt(cpu)} |", flush=True)
    plain, private = results.values()

    def ratio(j):
        return statistics.median(p[j] / q[j] for p, q in zip(private, plain, strict=True))

    def median(series, j):
        return statistics.median(x[j] for x in series)

    print(f"\n| {records:,} records (medians of {rounds} rounds) | time | peak memory (MB) | CPU |")
    print("|---|---:|---:|---:|")
    for name, series in results.items():
        print(
            f"| {name} | {fmt(median(series, 0))} | {median(series, 1):,.0f} "
            f"| {fmt(median(series, 2))} |"
        )
    verdict = {j: "✓" if ratio(j) <= SCALE_TARGET else "✗" for j in (0, 1)}
    print(
        f"| ratio (release / plain), target ≤ {SCALE_TARGET:g}× | {ratio(0):.2f}× {verdict[0]} "
        f"| {ratio(1):.2f}× {verdict[1]} | {ratio(2):.2f}× |"
    )


if __name__ == "__main__":
    if "--scale" in sys.argv:
        rest = [int(float(x)) for x in sys.argv[sys.argv.index("--scale") + 1 :]]
        scale(*rest) if rest else scale()
    else:
        main()
