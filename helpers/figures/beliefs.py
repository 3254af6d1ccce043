"""Files in figures/ for the prior and posterior notebooks: name -> zero-argument Figure factory."""

from __future__ import annotations

import numpy as np

from ..datasets import ATTACK_EPSILONS as _ATTACK_EPSILONS
from ..datasets import LEE_CLIFTON_EPSILON, LEE_CLIFTON_OUTPUT, school
from ..lee_clifton import count_worlds, posterior, prior, simulate_attack, world_values
from ..mechanisms import laplace_scale
from ..plotting.beliefs import (
    plot_attack_success,
    plot_posterior,
    plot_prior,
    world_labels,
)
from ..sensitivity import unbounded_sensitivity

#: An example of a non-uniform prior: the adversary thinks Terry (world 1 left him out)
#: twice as likely to be the one on probation as anyone else.
EXAMPLE_WEIGHTS = (2.0, 1.0, 1.0, 1.0)
#: Lee & Clifton's example release (Sec. 4.4) and its ε.
PAPER_OUTPUT = LEE_CLIFTON_OUTPUT
PAPER_EPSILON = LEE_CLIFTON_EPSILON
#: ε grid (shared with the dashboard) and seed of the attack figure.
ATTACK_EPSILONS = np.asarray(_ATTACK_EPSILONS)
ATTACK_TRIALS = 4000
ATTACK_SEED = 2011


def prior_school():
    data = school()
    universe = data["absence_days"].to_numpy(dtype=float)
    labels = world_labels(data["name"], 3)
    return plot_prior(
        {
            "uniform prior": prior(universe, 3),
            f"non-uniform prior, weights {EXAMPLE_WEIGHTS}": prior(universe, 3, EXAMPLE_WEIGHTS),
        },
        labels,
        title="School example: the adversary's prior over the 4 possible worlds",
    )


def posterior_school(column: str = "absence_days"):
    data = school()
    universe = data[column].to_numpy(dtype=float)
    delta_f = unbounded_sensitivity(universe, 3, "mean")
    return plot_posterior(
        world_values(universe, 3, "mean"),
        prior(universe, 3),
        posterior(universe, 3, "mean", PAPER_OUTPUT, PAPER_EPSILON),
        world_labels(data["name"], 3),
        output=PAPER_OUTPUT,
        scale=float(laplace_scale(PAPER_EPSILON, sensitivity=delta_f)),
        title=f"Definition 3: {column}, mean query, r = {PAPER_OUTPUT}, ε = {PAPER_EPSILON:g}",
    )


def attack_success():
    data = school()
    labels = world_labels(data["name"], 3)
    curves = {}
    for column in ("school_year", "absence_days"):
        universe = data[column].to_numpy(dtype=float)
        curves[f"{column}, true world {labels[0]}"] = simulate_attack(
            universe,
            3,
            "mean",
            ATTACK_EPSILONS,
            true_world=0,
            trials=ATTACK_TRIALS,
            rng=ATTACK_SEED,
        )
        curves[f"{column}, averaged over the prior"] = simulate_attack(
            universe,
            3,
            "mean",
            ATTACK_EPSILONS,
            true_world=None,
            trials=ATTACK_TRIALS,
            rng=ATTACK_SEED,
        )
    n_worlds = count_worlds(data["absence_days"], 3)
    return plot_attack_success(
        ATTACK_EPSILONS,
        curves,
        1 / n_worlds,
        linestyles=["-", "--", "-", "--"],
        colors=["C0", "C0", "C3", "C3"],
    )


FIGURES: dict = {
    "beliefs_prior_school": prior_school,
    "beliefs_posterior_school": posterior_school,
    "beliefs_posterior_school_year": lambda: posterior_school("school_year"),
    "beliefs_attack_success": attack_success,
}
