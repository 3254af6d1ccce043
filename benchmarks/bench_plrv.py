"""PLRV (notebook 08): closed-form and numeric δ, the inverse, dp-accounting for comparison,
and the dashboard's redraw after a control changes (recompute + draw + PNG), < 100 ms.
"""

from __future__ import annotations

import numpy as np
from _timing import best_of, fmt
from dp_accounting.pld import privacy_loss_distribution as pld

from helpers import plrv
from helpers.figures.plrv import FIGURES
from helpers.widgets.plrv import plrv_dashboard

S, B, E = plrv.POST_GAUSSIAN_SIGMA, plrv.POST_LAPLACE_SCALE, plrv.POST_EPSILON


def main() -> None:
    eps_grid = np.linspace(0, 5, 10_000)
    _, p, q = plrv.discretise_mechanism("gaussian", S, bins=40_001)
    rows = [
        ("gaussian_delta, one ε", lambda: plrv.gaussian_delta(E, S)),
        ("gaussian_delta, 10⁴ ε at once", lambda: plrv.gaussian_delta(eps_grid, S)),
        ("laplace_delta, 10⁴ ε at once", lambda: plrv.laplace_delta(eps_grid, B)),
        (
            "geometric_delta (exact lumped pmf), 10⁴ ε",
            lambda: plrv.geometric_delta(eps_grid, B, sensitivity=3),
        ),
        (
            "discretise_mechanism, Gaussian, 40,001 bins",
            lambda: plrv.discretise_mechanism("gaussian", S, bins=40_001),
        ),
        ("pmf_delta on 40,003 outcomes, one ε", lambda: plrv.pmf_delta(E, p, q)),
        ("pmf_delta on 40,003 outcomes, 100 ε", lambda: plrv.pmf_delta(eps_grid[:100], p, q)),
        (
            "gaussian_sigma_for_delta(1, 1e-6) (brentq)",
            lambda: plrv.gaussian_sigma_for_delta(1, 1e-6),
        ),
        (
            "dp_accounting: from_gaussian_mechanism (h = 1e-4) + δ at ln 3",
            lambda: pld.from_gaussian_mechanism(S).get_delta_for_epsilon(E),
        ),
    ]
    print("| operation | best time |")
    print("|---|---:|")
    for name, func in rows:
        print(f"| {name} | {fmt(best_of(func, repeat=5))} |")
    print(
        f"| build all ten figures of the post ({len(FIGURES)}, no rendering) | "
        f"{fmt(best_of(lambda: [make() for make in FIGURES.values()], repeat=2))} |"
    )

    # each redraw is triggered by a control change; the change itself runs dash.update()
    dash = plrv_dashboard()
    eps_values = iter(np.tile([0.5, 1.5], 1000))
    noise_values = iter(np.tile([1.2, 2.4], 1000))
    mechanisms = iter(["laplace", "geometric", "gaussian"] * 1000)
    redraws = [
        (
            "dashboard: ε slider",
            lambda: setattr(dash.controls["epsilon"], "value", next(eps_values)),
        ),
        (
            "dashboard: σ / b slider",
            lambda: setattr(dash.controls["noise"], "value", next(noise_values)),
        ),
        (
            "dashboard: mechanism dropdown",
            lambda: setattr(dash.controls["mechanism"], "value", next(mechanisms)),
        ),
        ("dashboard: dash.update()", dash.update),
    ]
    for name, func in redraws:
        print(f"| {name} (redraw) | {fmt(best_of(func, repeat=5))} |")


if __name__ == "__main__":
    main()
