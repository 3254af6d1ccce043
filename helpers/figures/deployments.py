"""Files in figures/ for notebooks 09 and 10: name -> zero-argument Figure factory."""

from __future__ import annotations

from .. import choose as ch
from .. import deployments as dep
from ..datasets import school
from ..lee_clifton import binary_search_epsilon
from ..plotting.deployments import (
    plot_choice,
    plot_deployments,
    plot_durham_choice,
    plot_three_views,
)
from ..sensitivity import bounded_sensitivity


def _census_views():
    rho = 2.63
    eps = dep.zcdp_to_epsilon(rho, dep.DEFAULT_DELTA)
    return plot_three_views(
        eps,
        dep.DEFAULT_DELTA,
        rho=rho,
        p=0.05,
        title=f"2020 Census redistricting data: ρ_z = {rho:g} → ε = {eps:.4g} at δ = 1e-10",
    )


def _school_choice():
    universe = school()["absence_days"].tolist()
    return plot_choice(
        "mean",
        k=1.0,
        coverage=0.95,
        # the worlds differ by one student changed: the change-one Δ on both sides (notebook 10 §4)
        epsilon_risk=binary_search_epsilon(
            universe, 3, "mean", 1 / 3, sensitivity=bounded_sensitivity(universe, 3, "mean")
        ),
        sensitivity=bounded_sensitivity(universe, 3, "mean"),
        risk_label="Lee & Clifton tight bound, ρ = 1/3",
        title="School: mean absence days of 3 of 4 students, ±1 day",
        neighbours="change-one",
    )


FIGURES: dict = {
    "deployments_overview": lambda: plot_deployments(),
    "deployments_census_three_views": _census_views,
    "choose_mean_example": lambda: plot_choice(
        "mean",
        k=1.0,
        n=100,
        lower=0.0,
        upper=100.0,
        epsilon_risk=ch.epsilon_for_posterior(0.75, prior=0.5),
        prior=0.5,
        risk=0.75,
        risk_label="posterior ≤ 0.75",
        title="A mean of 100 values in [0, 100], ±1",
        neighbours="change-one",
    ),
    "choose_school": _school_choice,
    "choose_durham": lambda: plot_durham_choice(),
}
