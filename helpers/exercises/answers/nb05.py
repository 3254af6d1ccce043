"""Exercises of notebook 05 (other queries): the median by hand, the range, where ε is ∞."""

from __future__ import annotations

import numpy as np

from ..datasets import school, school_release
from ..lee_clifton import (
    binary_search_epsilon,
    epsilon_upper_bound,
    limit_of_tight_bound,
    tight_bound,
)
from ._core import exercise

EPSILONS_05_1 = (0.3, 1.0, 3.0)


def value_range(xs):
    """The range query of exercise 05.2."""
    return max(xs) - min(xs)


@exercise("05.1", names=("by_hand",))
def _median_by_hand():
    return tight_bound(
        school()["school_year"], len(school_release()), "median", np.array(EPSILONS_05_1)
    )


@exercise("05.2", names=("eps_ub", "eps_bs"))
def _range_query():
    universe, n = school()["absence_days"], len(school_release())
    return (
        epsilon_upper_bound(universe, n, value_range, 1 / 3),
        binary_search_epsilon(universe, n, value_range, 1 / 3),
    )


@exercise("05.3", names=("rho_inf",))
def _where_the_median_stops():
    """The smallest ρ for which the search returns ∞: the limit of the tight bound."""
    return limit_of_tight_bound(school()["school_year"], len(school_release()), "median")
