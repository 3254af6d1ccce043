"""Exercises of notebook 07 (risk and utility): a stricter goal, another county, another query."""

from __future__ import annotations

from scipy import optimize

from .. import kazan_reiter as kr
from .. import lee_clifton
from ..datasets import school
from ._core import exercise

DEVIATION = 0.25


def example_3_epsilon() -> float:
    """Example 3's ε: profile (17) with ã = 0.5, r̃ = 5 on q = 1."""
    return kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)


@exercise("07.1", names=("r_needed",))
def _stricter_goal():
    """r̃ (ã = 0.5) with one-sided switching probability 5 % at deviation 0.25."""
    return optimize.brentq(
        lambda r: float(
            kr.durham_switch_probability(kr.epsilon_inclusion_profile(0.5, 1.0, r), DEVIATION)
        )
        - 0.05,
        1.01,
        1000.0,
        xtol=1e-12,
    )


@exercise("07.2", names=("p_above", "p_below"))
def _another_county():
    eps = example_3_epsilon()
    return tuple(
        float(kr.durham_switch_probability(eps, DEVIATION, side, births=10_000))
        for side in ("above", "below")
    )


@exercise("07.3", names=("eps_closed", "eps_search"))
def _another_query():
    """Lee & Clifton for the maximum of absence_days: inequality 7 and the binary search."""
    days = school()["absence_days"]
    size = len(days) - 1
    return (
        lee_clifton.epsilon_upper_bound(days, size, "max", 1 / 3),
        lee_clifton.binary_search_epsilon(days, size, "max", 1 / 3),
    )
