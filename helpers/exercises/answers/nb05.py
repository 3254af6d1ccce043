"""Exercises of notebook 05 (other queries): the median by hand, the range, where ε is ∞."""

from __future__ import annotations

import numpy as np

from ...datasets import school, school_release
from ...lee_clifton import (
    binary_search_epsilon,
    epsilon_upper_bound,
    limit_of_tight_bound,
    tight_bound,
)
from . import Param, answer

EPSILONS_05_1 = (0.3, 1.0, 3.0)
RISK_05_2 = 0.45  # not the text's 1/3 (its query table shows that one)
UNIVERSE_05_3, SIZE_05_3 = tuple(range(1, 15)), 13


def value_range(xs):
    """The range query of exercise 05.2."""
    return max(xs) - min(xs)


@answer(
    "05.1",
    names=("by_hand",),
    decimals=4,
    parameters={
        "epsilons": Param(EPSILONS_05_1, 0.1, 5.0, kind="floats", step=0.1, about="the ε values")
    },
)
def _median_by_hand(*, epsilons):
    return tight_bound(
        school()["school_year"], len(school_release()), "median", np.array(epsilons, dtype=float)
    )


@answer(
    "05.2",
    names=("eps_ub", "eps_bs"),
    decimals=4,
    parameters={"risk": Param(RISK_05_2, 0.35, 0.6, step=0.01, about="the risk ρ")},
)
def _range_query(*, risk):
    universe, n = school()["absence_days"], len(school_release())
    return (
        epsilon_upper_bound(universe, n, value_range, risk),
        binary_search_epsilon(universe, n, value_range, risk),
    )


@answer(
    "05.3",
    names=("rho_inf",),
    decimals=4,
    parameters={"N": Param(len(UNIVERSE_05_3), 11, 30, kind="int", about="the universe size")},
)
def _where_the_median_stops(*, N):
    """The smallest ρ for which the search returns ∞ (median, N − 1 of N distinct values)."""
    return limit_of_tight_bound(tuple(range(1, N + 1)), N - 1, "median")
