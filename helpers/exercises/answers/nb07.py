"""Exercises of notebook 07 (risk and utility): a stricter goal, another county, another query."""

from __future__ import annotations

from scipy import optimize

from ... import kazan_reiter as kr
from ... import lee_clifton
from ...datasets import school
from . import Param, answer

DEVIATION = 0.25
SWITCH_07_1 = 0.03  # one-sided switching probability asked for
BIRTHS_07_2 = 12_000
RISK_07_3 = 0.4  # not 1/3: notebook 05's table shows the maximum at 1/3


def example_3_epsilon() -> float:
    """Example 3's ε: profile (17) with ã = 0.5, r̃ = 5 on q = 1."""
    return kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)


@answer(
    "07.1",
    names=("r_needed",),
    decimals=4,
    parameters={
        "switch": Param(SWITCH_07_1, 0.005, 0.1, step=0.005, about="the switching probability")
    },
)
def _stricter_goal(*, switch):
    """r̃ (ã = 0.5) with one-sided switching probability ``switch`` at deviation 0.25."""
    return optimize.brentq(
        lambda r: float(
            kr.durham_switch_probability(kr.epsilon_inclusion_profile(0.5, 1.0, r), DEVIATION)
        )
        - switch,
        1.0 + 1e-9,
        1e6,
        xtol=1e-12,
    )


@answer(
    "07.2",
    names=("p_above", "p_below"),
    digits=3,
    parameters={
        "births": Param(BIRTHS_07_2, 4_000, 40_000, kind="int", about="the county's births")
    },
)
def _another_county(*, births):
    eps = example_3_epsilon()
    return tuple(
        float(kr.durham_switch_probability(eps, DEVIATION, side, births=births))
        for side in ("above", "below")
    )


@answer(
    "07.3",
    names=("eps_closed", "eps_search"),
    decimals=4,
    parameters={"risk": Param(RISK_07_3, 0.3, 0.6, step=0.01, about="the risk ρ")},
)
def _another_query(*, risk):
    """Lee & Clifton for the maximum of absence_days: inequality 7 and the binary search."""
    days = school()["absence_days"]
    size = len(days) - 1
    return (
        lee_clifton.epsilon_upper_bound(days, size, "max", risk),
        lee_clifton.binary_search_epsilon(days, size, "max", risk),
    )
