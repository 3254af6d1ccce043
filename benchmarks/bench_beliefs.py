"""Beliefs (notebooks 01, 02): posterior and attack on the school example, and every dashboard's
redraw after a control changes (recompute + draw + PNG), which must stay well under 100 ms.
"""

from __future__ import annotations

from itertools import count

import numpy as np
from _timing import best_of, fmt

from helpers.datasets import school
from helpers.lee_clifton import posterior, simulate_attack
from helpers.widgets.beliefs import attack_dashboard, posterior_dashboard, prior_dashboard


def main() -> None:
    days = school()["absence_days"].to_numpy(dtype=float)
    outputs = np.random.default_rng(0).normal(3.0, 2.0, 100_000)
    eps_grid = np.linspace(0.05, 5.0, 34)
    rows = [
        (
            "posterior at the paper's release (W = 4)",
            lambda: posterior(days, 3, "mean", 2.20131, 2.0),
        ),
        (
            "posterior for 10⁵ releases at once (W = 4)",
            lambda: posterior(days, 3, "mean", outputs, 2.0),
        ),
        (
            "posterior, universe of 20, release of 10 (W = 184,756)",
            lambda: posterior(np.arange(20.0), 10, "mean", 9.3, 1.0),
        ),
        (
            "simulate_attack, 20,000 releases",
            lambda: simulate_attack(days, 3, "mean", 2.0, trials=20_000, rng=1),
        ),
        (
            "attack success curve, 34 ε × 4 true worlds × 4,000 releases",
            lambda: simulate_attack(days, 3, "mean", eps_grid, true_world=None, trials=4000, rng=1),
        ),
    ]
    print("| operation | best time |")
    print("|---|---:|")
    for name, func in rows:
        print(f"| {name} | {fmt(best_of(func, repeat=3))} |")

    # each redraw is triggered by a control change; the change itself runs dash.update()
    prior_dash = prior_dashboard()
    weights = iter(np.tile([0.5, 1.5], 1000))
    post_dash = posterior_dashboard()
    eps_values = iter(np.tile([1.0, 2.0], 1000))
    columns = iter(["school_year", "absence_days"] * 1000)
    attack = attack_dashboard()
    marker_eps = iter(np.tile([1.0, 2.5], 1000))
    seeds = count(1)
    redraws = [
        ("`prior_dashboard`: move a weight slider", prior_dash, "w1", weights),
        ("`posterior_dashboard`: move ε", post_dash, "epsilon", eps_values),
        ("`posterior_dashboard`: switch column", post_dash, "column", columns),
        ("`attack_dashboard`: move ε (curve cached)", attack, "epsilon", marker_eps),
        ("`attack_dashboard`: new seed (curve recomputed)", attack, "seed", seeds),
    ]
    for name, dash, control, values in redraws:

        def change(dash=dash, control=control, values=values):
            dash.controls[control].value = next(values)

        # setting .value fires dash.update() with the new value: recompute, draw, PNG
        print(f"| widget redraw ({name}) | {fmt(best_of(change, repeat=15))} |")


if __name__ == "__main__":
    main()
