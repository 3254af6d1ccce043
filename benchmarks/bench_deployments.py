"""Deployments and choosing ε (notebooks 09-10): the conversions, loading the registry, the
figures, and each dashboard's redraw after a control changes (recompute + draw + PNG).
"""

from __future__ import annotations

import numpy as np
from _timing import best_of, fmt

from helpers import choose as ch
from helpers import deployments as dep
from helpers.plotting.deployments import plot_deployments
from helpers.widgets.deployments import choose_dashboard, deployments_dashboard


def main() -> None:
    rhos = np.geomspace(1e-4, 50, 10_000)
    rows = [
        ("zcdp_to_epsilon (CKS), one ρ_z", lambda: dep.zcdp_to_epsilon(2.56, 1e-10)),
        ("zcdp_to_epsilon (CKS), 10⁴ ρ_z at once", lambda: dep.zcdp_to_epsilon(rhos, 1e-10)),
        ("gaussian_epsilon (Balle & Wang), 10⁴ ρ_z", lambda: dep.gaussian_epsilon(rhos, 1e-10)),
        ("zcdp_rho_for_epsilon, one ε", lambda: dep.zcdp_rho_for_epsilon(17.14, 1e-10)),
        ("load() the 41 rows with status and conversions", dep.load),
        (
            "choose() a mean with its knobs",
            lambda: ch.choose(
                "mean",
                k=1.0,
                epsilon_risk=1.0,
                n=100,
                lower=0.0,
                upper=100.0,
                prior=0.5,
                neighbours="change-one",
            ),
        ),
        ("plot_deployments (no rendering)", plot_deployments),
    ]
    print("| operation | best time |")
    print("|---|---:|")
    for name, func in rows:
        print(f"| {name} | {fmt(best_of(func, repeat=5))} |")

    dash = deployments_dashboard()
    names = iter(list(dash.controls["deployment"].options[1:]) * 100)
    priors = iter(np.tile([0.3, 0.6], 1000))
    pick = dash.controls["deployment"]
    choose = choose_dashboard()
    ks = iter(np.tile([1.0, 3.0], 1000))
    kinds = iter(["inclusion", "constant", "posterior"] * 1000)
    redraws = [
        ("09 dashboard: deployment dropdown", lambda: setattr(pick, "value", next(names))),
        (
            "09 dashboard: prior slider",
            lambda: setattr(dash.controls["prior"], "value", next(priors)),
        ),
        ("10 dashboard: ±k slider", lambda: setattr(choose.controls["k"], "value", next(ks))),
        (
            "10 dashboard: risk dropdown",
            lambda: setattr(choose.controls["risk_kind"], "value", next(kinds)),
        ),
    ]
    for name, func in redraws:
        print(f"| {name} (redraw) | {fmt(best_of(func, repeat=5))} |")


if __name__ == "__main__":
    main()
