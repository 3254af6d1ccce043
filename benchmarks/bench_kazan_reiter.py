"""Speed of helpers.kazan_reiter: the eq. (13) minimiser, Theorem 2 on big grids, dashboards."""

from __future__ import annotations

import math

import numpy as np
from _timing import best_of, fmt

from helpers import kazan_reiter as kr
from helpers.widgets import kazan_reiter as dashboards


def main() -> None:
    scalar_15 = lambda p, q: max(0.25 / p, 3.0) if q == 1 else math.inf  # noqa: E731
    scalar_33 = lambda p, q: max(0.25 / (p * q), 3.0)  # noqa: E731
    box = lambda p, q: 3.0 if (0.2 <= p <= 0.7 and 0.1 <= q <= 0.6) else math.inf  # noqa: E731
    # a box 0.003 wide, thinner than the coarse grid: found by the fine (1/600) grid
    thin = lambda p, q: 3.0 if (0.3111 <= p <= 0.3141 and 0.5123 <= q <= 0.5153) else math.inf  # noqa: E731
    # bounds nothing (written so that it raises on arrays): both grids searched, then refused
    nothing = lambda p, q: 1 / (p * q) if p > 0.5 else math.inf  # noqa: E731

    def refused():
        try:
            kr.recommend_epsilon(nothing)
        except ValueError:
            pass

    grid = np.linspace(1e-3, 1, 1000)
    P, Q = np.meshgrid(grid, grid)
    rows = [
        (
            "`recommend_epsilon`, slice q = 1, scalar profile (15)",
            lambda: kr.recommend_epsilon(scalar_15, q=1.0),
        ),
        (
            "`recommend_epsilon`, slice q = 1, vectorised profile (15)",
            lambda: kr.recommend_epsilon(kr.inclusion_profile(0.25, 1.0, 3.0), q=1.0),
        ),
        (
            "`recommend_epsilon`, slice p = 0.05, vectorised profile (16)",
            lambda: kr.recommend_epsilon(kr.values_profile(0.15, 0.05, 3.0), p=0.05),
        ),
        (
            "`recommend_epsilon`, (0, 1]², scalar profile (33)",
            lambda: kr.recommend_epsilon(scalar_33),
        ),
        (
            "`recommend_epsilon`, (0, 1]², vectorised profile (33)",
            lambda: kr.recommend_epsilon(kr.two_dimensional_profile(0.25, 3.0)),
        ),
        (
            "`recommend_epsilon`, (0, 1]², scalar box profile (25)",
            lambda: kr.recommend_epsilon(box),
        ),
        (
            "`recommend_epsilon`, (0, 1]², scalar thin box (0.003 wide, fine grid)",
            lambda: kr.recommend_epsilon(thin),
        ),
        ("`recommend_epsilon`, (0, 1]², scalar profile that bounds nothing (refused)", refused),
        ("`max_epsilon` on 10⁶ (p, q) points", lambda: kr.max_epsilon(P, Q, 3.0)),
        ("closed form, Theorem 4", lambda: kr.epsilon_values_profile(0.15, 0.05, 3.0)),
    ]
    for name, factory in [
        ("risk profile", dashboards.risk_profile_dashboard),
        ("Theorem 1 bound", dashboards.bound_dashboard),
        ("2-D profile map", dashboards.profile_map_dashboard),
        ("Example 3 trade-off", dashboards.tradeoff_dashboard),
    ]:
        dash = factory()
        rows.append((f"dashboard redraw: {name} (`dash.update()`)", dash.update))
    print("| operation | best of 5 |")
    print("|---|---|")
    for name, func in rows:
        print(f"| {name} | {fmt(best_of(func, repeat=5))} |")


if __name__ == "__main__":
    main()
