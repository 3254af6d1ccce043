"""Speed of helpers.kazan_reiter: the eq. (13) minimiser, Theorem 2 on big grids, dashboards."""

from __future__ import annotations

import math

import numpy as np
from _timing import best_of, fmt

from helpers import kazan_reiter as kr
from helpers.widgets import kazan_reiter as dashboards


def find_eps_port(profile, vectorized: bool) -> float:
    """Kazan & Reiter's ``find_eps`` (find_eps.R), transcribed: every point of
    seq(1e-3, 1, 1e-3)², eq. (12) as printed. Point by point for a scalar profile (as their
    R loop), one array expression for a vectorised one."""
    grid = 1e-3 + np.arange(1000) * 1e-3
    if vectorized:
        P, Q = np.meshgrid(grid, grid, indexing="ij")
        with np.errstate(all="ignore"):
            r = profile(P, Q)
            disc = 4 * P * (1 - Q) * (1 / r - P * Q)
            eps = np.where(
                Q == 1,
                np.log((1 - P) / (1 / r - P)),
                np.log(2 * P * (1 - Q) / (np.sqrt((1 - P) ** 2 + disc) - (1 - P))),
            )
            feasible = np.where(Q == 1, P <= 1 / r, disc >= 0)
        return float(np.min(np.where(feasible & ~np.isnan(eps), eps, np.inf)))
    best = math.inf
    for p in grid.tolist():
        for q in grid.tolist():
            r = profile(p, q)
            if q == 1:
                if p > 1 / r or 1 / r - p == 0:
                    continue
                eps = math.log((1 - p) / (1 / r - p))
            else:
                disc = 4 * p * (1 - q) * (1 / r - p * q)
                if disc < 0:
                    continue
                den = math.sqrt((1 - p) ** 2 + disc) - (1 - p)
                if den <= 0:
                    continue
                eps = math.log(2 * p * (1 - q) / den)
            best = min(best, eps)
    return best


def zone(vectorized: bool):
    """The issue's profile: 1.5 on p ∈ [0.501, 0.5055], q ∈ [0.901, 0.9055], 50 elsewhere."""
    if vectorized:
        return lambda p, q: np.where(
            (0.501 <= p) & (p <= 0.5055) & (0.901 <= q) & (q <= 0.9055), 1.5, 50.0
        )
    return lambda p, q: 1.5 if (0.501 <= p <= 0.5055 and 0.901 <= q <= 0.9055) else 50.0


def search_table() -> None:
    """The search beside the authors' grid: same profiles, same run."""
    profiles = [
        ("(33), ã = 0.25, r̃ = 3", "scalar", lambda p, q: max(0.25 / (p * q), 3.0)),
        ("(33), ã = 0.25, r̃ = 3", "vectorised", kr.two_dimensional_profile(0.25, 3.0)),
        (
            "box (25), r̃ = 3",
            "scalar",
            lambda p, q: 3.0 if (0.2 <= p <= 0.7 and 0.1 <= q <= 0.6) else math.inf,
        ),
        ("box (25), r̃ = 3", "vectorised", kr.box_profile(3.0, 0.2, 0.7, 0.1, 0.6)),
        ("narrow zone (1.5 on 0.0045², 50 elsewhere)", "scalar", zone(False)),
        ("narrow zone (1.5 on 0.0045², 50 elsewhere)", "vectorised", zone(True)),
    ]
    print(
        "| profile | called | `recommend_epsilon` | its ε | authors' `find_eps` (Python port) | its ε | target |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, style, profile in profiles:
        vectorized = style == "vectorised"
        ours = kr.recommend_epsilon(profile, vectorized=vectorized)
        t_ours = best_of(
            lambda: kr.recommend_epsilon(profile, vectorized=vectorized),
            repeat=5 if vectorized else 3,
        )
        theirs = find_eps_port(profile, vectorized)
        t_theirs = best_of(
            lambda: find_eps_port(profile, vectorized), repeat=3 if vectorized else 1
        )
        target = "≤ 50 ms" if vectorized else "≤ 2 s"
        assert ours <= theirs + 1e-12, (name, style, ours, theirs)
        print(
            f"| {name} | {style} | {fmt(t_ours)} | {ours:.6f} | {fmt(t_theirs)} | {theirs:.6f} | {target} |"
        )
    print()


def main() -> None:
    search_table()
    scalar_15 = lambda p, q: max(0.25 / p, 3.0) if q == 1 else math.inf  # noqa: E731
    scalar_33 = lambda p, q: max(0.25 / (p * q), 3.0)  # noqa: E731
    box = lambda p, q: 3.0 if (0.2 <= p <= 0.7 and 0.1 <= q <= 0.6) else math.inf  # noqa: E731
    # a box 0.003 wide: three points of the authors' grid in each direction
    thin = lambda p, q: 3.0 if (0.3111 <= p <= 0.3141 and 0.5123 <= q <= 0.5153) else math.inf  # noqa: E731
    # bounds nothing (written so that it raises on arrays): the whole grid searched, refused
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
            "`recommend_epsilon`, (0, 1]², scalar thin box (0.003 wide)",
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
