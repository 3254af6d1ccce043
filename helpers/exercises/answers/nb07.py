"""Exercises of notebook 07 (risk and utility): a stricter goal, another county, another query."""

from __future__ import annotations

from scipy import optimize

from ... import kazan_reiter as kr
from ... import lee_clifton
from ...datasets import school
from . import answer

DEVIATION = 0.25
SWITCH_07_1 = 0.03  # one-sided switching probability asked for
BIRTHS_07_2 = 12_000
RISK_07_3 = 0.4  # not 1/3: notebook 05's table shows the maximum at 1/3


def example_3_epsilon() -> float:
    """Example 3's ε: profile (17) with ã = 0.5, r̃ = 5 on q = 1."""
    return kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)


@answer("07.1", names=("r_needed",), decimals=4)
def _stricter_goal():
    """r̃ (ã = 0.5) with one-sided switching probability 3 % at deviation 0.25."""
    return optimize.brentq(
        lambda r: float(
            kr.durham_switch_probability(kr.epsilon_inclusion_profile(0.5, 1.0, r), DEVIATION)
        )
        - SWITCH_07_1,
        1.01,
        1000.0,
        xtol=1e-12,
    )


@answer("07.2", names=("p_above", "p_below"), digits=3)
def _another_county():
    eps = example_3_epsilon()
    return tuple(
        float(kr.durham_switch_probability(eps, DEVIATION, side, births=BIRTHS_07_2))
        for side in ("above", "below")
    )


@answer("07.3", names=("eps_closed", "eps_search"), decimals=4)
def _another_query():
    """Lee & Clifton for the maximum of absence_days: inequality 7 and the binary search."""
    days = school()["absence_days"]
    size = len(days) - 1
    return (
        lee_clifton.epsilon_upper_bound(days, size, "max", RISK_07_3),
        lee_clifton.binary_search_epsilon(days, size, "max", RISK_07_3),
    )
