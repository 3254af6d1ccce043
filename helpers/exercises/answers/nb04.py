"""Exercises of notebook 04 (the binary search): own bisection, inequality 7, below the prior."""

from __future__ import annotations

import numpy as np

from ...datasets import school, school_release
from ...lee_clifton import binary_search_epsilon, count_worlds, epsilon_upper_bound
from . import Param, answer

RISKS_04_2 = (0.3, 0.5, 0.8)
COLUMNS = ("school_year", "absence_days")
EIGHT_04_3, SIZE_04_3 = (1, 2, 3, 10, 4, 6, 0, 5), 5  # a class of eight, five released


@answer(
    "04.1",
    names=("my_eps",),
    decimals=6,
    parameters={"risk": Param(0.5, 0.3, 0.7, step=0.01, about="the risk ρ")},
)
def _own_bisection(*, risk):
    return binary_search_epsilon(school()["absence_days"], len(school_release()), "mean", risk)


@answer(
    "04.2",
    names=("eps7",),
    decimals=4,
    parameters={
        "risks": Param(RISKS_04_2, 0.3, 0.9, kind="floats", step=0.05, about="the risks ρ (rows)")
    },
)
def _inequality_7_by_hand(*, risks):
    """Inequality 7 for each ρ (rows) and both columns (columns)."""
    data, n = school(), len(school_release())
    return np.array([[epsilon_upper_bound(data[c], n, "mean", r) for c in COLUMNS] for r in risks])


@answer(
    "04.3",
    names=("lowest_risk",),
    decimals=4,
    parameters={"size": Param(SIZE_04_3, 2, 7, kind="int", about="how many are released")},
)
def _below_the_prior(*, size):
    """The ρ at and below which no ε > 0 meets the requirement (class of eight)."""
    return 1 / count_worlds(EIGHT_04_3, size)
