"""Foundations (notebook 00): the math on realistic sizes, and every dashboard's redraw.

Rows time the vectorised helpers (one call over a whole grid or many simulated surveys) and
``Dashboard.update()`` (recompute + draw + PNG), which must stay near 100 ms to feel live.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from _timing import best_of, fmt

from helpers import foundations as F
from helpers.widgets import foundations as dashboards


def main() -> None:
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    eps_grid = np.geomspace(0.01, 2000, 10_000)
    scores = np.random.default_rng(0).normal(size=1000)
    p = np.linspace(0, 1, 100_001)
    z = np.linspace(-50, 80, 1_000_000)
    x = np.r_[np.ones(600), np.zeros(900)]
    rows = [
        (
            "exponential mechanism, auction, 10,000 ε values",
            lambda: F.exponential_mechanism_probabilities(rev, eps_grid, sensitivity=3.02),
        ),
        (
            "exponential mechanism, 1,000 objects × 100 ε values",
            lambda: F.exponential_mechanism_probabilities(scores, eps_grid[:100], sensitivity=1.0),
        ),
        (
            "Laplace density ratio, 10⁶ points",
            lambda: F.laplace_ratio(z, 10.0, 20.0, 1.0, sensitivity=10.0),
        ),
        (
            "randomised response, 10⁶ simulated surveys of n = 1,000",
            lambda: F.rr_simulate_estimates(0.3, 1000, 0.5, reps=1_000_000, rng=0),
        ),
        (
            "mean of 1,500 bits, 10⁶ Laplace releases",
            lambda: F.mean_of_bits_release(x, 1.0, size=1_000_000, rng=0),
        ),
        ("hypothesis region boundary, 10⁵ values of p", lambda: F.hypothesis_min_q(p, 1.0)),
        (
            "bits sensitivity (brute force), n = 10⁶",
            lambda: F.bits_query_sensitivity(10**6, "mean", "unbounded"),
        ),
    ]
    print("| operation | best time |")
    print("|---|---:|")
    for name, func in rows:
        print(f"| {name} | {fmt(best_of(func, repeat=3))} |")
    # redraws: move each control back and forth as a reader does (recompute + draw + PNG);
    # best and median of 12 moves, since the median is what a loaded machine feels like
    moves = {
        "laplace_ratio_dashboard": ("epsilon", (0.5, 2.0)),
        "randomised_response_dashboard": ("n", (100, 1000)),
        "hypothesis_region_dashboard": ("epsilon", (0.5, 2.0)),
        "exponential_mechanism_dashboard": ("epsilon", (0.1, 100.0)),
    }
    for name in dashboards.__all__:
        dash = getattr(dashboards, name)()
        control, values = moves[name]
        times = []
        for i in range(12):
            start = time.perf_counter()
            dash.controls[control].value = values[i % 2]
            times.append(time.perf_counter() - start)
        print(
            f"| widget redraw: `{name}` (move {control}), best / median | "
            f"{fmt(min(times))} / {fmt(statistics.median(times))} |"
        )


if __name__ == "__main__":
    main()
