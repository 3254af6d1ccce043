"""Exercises of notebook 02 (the posterior): by hand, the ε that keeps it ≤ 1/3, the win rate."""

from __future__ import annotations

from scipy import optimize

from ...datasets import school, school_release
from ...lee_clifton import posterior, world_values
from ...mechanisms import laplace_cdf, laplace_scale
from ...sensitivity import unbounded_sensitivity
from . import answer

R_EXAMPLE, EPS_EXAMPLE = 2.20131, 2.0  # the paper's released mean and ε (Section 4)
R_02_1, EPS_02_1 = 3.1, 1.5  # exercise 02.1's release: not the paper's (the text shows that one)


def _setting():
    return school(), len(school_release())


@answer("02.1", names=("by_hand",), decimals=4)
def _posterior_by_hand():
    data, n = _setting()
    return posterior(data["school_year"], n, "mean", R_02_1, EPS_02_1)


@answer("02.2", names=("answer_eps",), decimals=3)
def _largest_eps_at_this_release():
    """Largest ε with max posterior ≤ 1/3 at r = 2.20131 (a grid answer within ±0.001 is accepted)."""
    data, n = _setting()
    column = data["absence_days"]

    def excess(eps):
        return float(posterior(column, n, "mean", R_EXAMPLE, eps).max()) - 1 / 3

    return optimize.brentq(excess, 0.01, 2.0, xtol=1e-12)


@answer("02.3", names=("exact",), decimals=4)
def _win_probability():
    """P[r below the midpoint of ω₁'s and ω₂'s means] under Laplace noise at ε = 2."""
    data, n = _setting()
    column = data["absence_days"]
    f = world_values(column, n, "mean")
    scale = float(laplace_scale(EPS_EXAMPLE, sensitivity=unbounded_sensitivity(column, n, "mean")))
    return float(laplace_cdf((f[0] + f[1]) / 2, f[0], scale))
