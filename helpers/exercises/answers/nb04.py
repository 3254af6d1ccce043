"""Exercises of notebook 04 (the binary search): own bisection, inequality 7, below the prior."""

from __future__ import annotations

import numpy as np

from ...datasets import school, school_release
from ...lee_clifton import binary_search_epsilon, count_worlds, epsilon_upper_bound
from . import answer

RISKS_04_2 = (0.3, 0.5, 0.8)
COLUMNS = ("school_year", "absence_days")
EIGHT_04_3, SIZE_04_3 = (1, 2, 3, 10, 4, 6, 0, 5), 5  # a class of eight, five released


@answer("04.1", names=("my_eps",), decimals=6)
def _own_bisection():
    return binary_search_epsilon(school()["absence_days"], len(school_release()), "mean", 0.5)


@answer("04.2", names=("eps7",), decimals=4)
def _inequality_7_by_hand():
    """Inequality 7 for ρ ∈ {0.3, 0.5, 0.8} (rows) and both columns (columns)."""
    data, n = school(), len(school_release())
    return np.array(
        [[epsilon_upper_bound(data[c], n, "mean", r) for c in COLUMNS] for r in RISKS_04_2]
    )


@answer("04.3", names=("lowest_risk",), decimals=4)
def _below_the_prior():
    """The ρ at and below which no ε > 0 meets the requirement (class of eight, five released)."""
    return 1 / count_worlds(EIGHT_04_3, SIZE_04_3)
