"""Exercises of notebook 02 (the posterior): by hand, the ε that keeps it ≤ ρ, the win rate."""

from __future__ import annotations

from scipy import optimize

from ...datasets import school, school_release
from ...lee_clifton import posterior, world_values
from ...mechanisms import laplace_cdf, laplace_scale
from ...sensitivity import unbounded_sensitivity
from . import Param, answer

R_EXAMPLE, EPS_EXAMPLE = 2.20131, 2.0  # the paper's released mean and ε (Section 4)
R_02_1, EPS_02_1 = 3.1, 1.5  # exercise 02.1's release: not the paper's (the text shows that one)


def _setting():
    return school(), len(school_release())


@answer(
    "02.1",
    names=("by_hand",),
    decimals=4,
    parameters={
        "r": Param(R_02_1, 0.5, 5.0, step=0.1, about="the released mean r"),
        "epsilon": Param(EPS_02_1, 0.5, 3.0, step=0.1, about="ε"),
    },
)
def _posterior_by_hand(*, r, epsilon):
    data, n = _setting()
    return posterior(data["school_year"], n, "mean", r, epsilon)


@answer(
    "02.2",
    names=("answer_eps",),
    decimals=3,
    parameters={
        "r": Param(R_EXAMPLE, 1.5, 3.5, step=0.05, about="the released mean r"),
        "risk": Param(1 / 3, 0.28, 0.45, step=0.01, about="the risk ρ", shown="1 / 3"),
    },
)
def _largest_eps_at_this_release(*, r, risk):
    """Largest ε with max posterior ≤ ρ at r (a grid answer within ±0.001 is accepted)."""
    data, n = _setting()
    column = data["absence_days"]

    def excess(eps):
        return float(posterior(column, n, "mean", r, eps).max()) - risk

    return optimize.brentq(excess, 0.01, 2.0, xtol=1e-12)


@answer(
    "02.3",
    names=("exact",),
    decimals=4,
    parameters={"epsilon": Param(EPS_EXAMPLE, 0.3, 5.0, step=0.1, about="ε")},
)
def _win_probability(*, epsilon):
    """P[r below the midpoint of ω₁'s and ω₂'s means] under Laplace noise at ε."""
    data, n = _setting()
    column = data["absence_days"]
    f = world_values(column, n, "mean")
    scale = float(laplace_scale(epsilon, sensitivity=unbounded_sensitivity(column, n, "mean")))
    return float(laplace_cdf((f[0] + f[1]) / 2, f[0], scale))
