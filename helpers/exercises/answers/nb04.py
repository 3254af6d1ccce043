"""Exercises of notebook 04 (the binary search): own bisection, inequality 7, below the prior."""

from __future__ import annotations

import numpy as np

from ..datasets import school, school_release
from ..lee_clifton import binary_search_epsilon, count_worlds, epsilon_upper_bound
from ._core import exercise

RISKS_04_2 = (0.3, 0.5, 0.8)
COLUMNS = ("school_year", "absence_days")


@exercise("04.1", names=("my_eps",), atol=1e-6)
def _own_bisection():
    return binary_search_epsilon(school()["absence_days"], len(school_release()), "mean", 0.5)


@exercise("04.2", names=("eps7",))
def _inequality_7_by_hand():
    """Inequality 7 for ρ ∈ {0.3, 0.5, 0.8} (rows) and both columns (columns)."""
    data, n = school(), len(school_release())
    return np.array(
        [[epsilon_upper_bound(data[c], n, "mean", r) for c in COLUMNS] for r in RISKS_04_2]
    )


@exercise("04.3", names=("lowest_risk",))
def _below_the_prior():
    """Every ρ above 1/W can be met, none at or below it: the answer is the prior 1/W."""
    return 1 / count_worlds(school()["school_year"], len(school_release()))
