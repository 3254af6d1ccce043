"""From a chosen budget to a release (notebook 12): the per-person and small-group readings on
a grid (targets < 5 ms), the bias of bounding contributions over a million people (< 200 ms),
and OpenDP's measurements for a workload of 100 releases, each checked against OpenDP's own
privacy map (< 2 s). opendp is imported before timing (its first import is not the work).
"""

from __future__ import annotations

import numpy as np
import opendp.prelude  # noqa: F401  (imported before timing)
from _timing import best_of, fmt

from helpers import budget as B
from helpers import release as R

GRID_TARGET = 5e-3
CLIP_TARGET = 0.2
OPENDP_TARGET = 2.0


def workload(size: int, *, seed: int = 0, n: int = 1_000) -> list:
    """Counts, sums and means over one data set of n records, each with public bounds."""
    rng = np.random.default_rng(seed)
    kinds = rng.choice(["count", "sum", "mean"], size=size)
    return [
        B.Release(
            str(kind),
            k=float(rng.uniform(5, 50)) * (0.05 if kind == "mean" else 1.0),
            lower=None if kind == "count" else 0.0,
            upper=None if kind == "count" else float(rng.uniform(1, 100)),
            n=n if kind == "mean" else None,
            label=f"r{i}",
        )
        for i, kind in enumerate(kinds)
    ]


def main() -> None:
    eps = np.linspace(0.01, 5.0, 10_000)
    sizes = np.geomspace(1, 1e6, 10_000)
    counts = np.random.default_rng(1).negative_binomial(1.2, 1.2 / 4.2, size=1_000_000)
    per_record = workload(100)
    per_person = R.per_person(per_record, contributions=3)
    allocation = B.budget_for_accuracy(per_person)
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
        (
            "opendp_measurements, 100 releases, m = 3 (maps checked)",
            lambda: R.opendp_measurements(allocation, per_person, contributions=3),
            OPENDP_TARGET,
        ),
    ]
    print("| operation | best time | target |")
    print("|---|---:|---:|")
    for name, func, target in rows:
        seconds = best_of(func, repeat=3)
        verdict = f"< {fmt(target)} {'✓' if seconds < target else '✗'}"
        print(f"| {name} | {fmt(seconds)} | {verdict} |", flush=True)


if __name__ == "__main__":
    main()
