"""Exercises of notebook 06 (Kazan & Reiter's risk profiles)."""

from __future__ import annotations

from scipy import optimize

from ... import kazan_reiter as kr
from . import Param, answer

A_06_1, R_06_1, EPS_06_1 = 0.025, 3.0, 2.0


@answer(
    "06.1",
    names=("p_star",),
    digits=4,
    parameters={
        "a": Param(A_06_1, 0.01, 0.1, step=0.005, about="ã"),
        "r": Param(R_06_1, 1.5, 6.0, step=0.5, about="r̃"),
        "epsilon": Param(EPS_06_1, 1.0, 4.0, step=0.1, about="the recommended ε"),
    },
)
def _survey_fraction(*, a, r, epsilon):
    """p̃ with recommended ε for profile (16) (first branch of Theorem 4, p̃ < ã/r̃)."""
    return optimize.brentq(
        lambda p: kr.epsilon_values_profile(a, p, r) - epsilon, 1e-12, a / r, xtol=1e-16
    )


@answer(
    "06.2",
    names=("first_off",),
    decimals=3,
    parameters={"ratio": Param(1.05, 1.01, 1.3, step=0.01, about="the ratio ε/(2b̃) to exceed")},
)
def _difference_profile(*, ratio):
    """b̃ at which ε(b̃)/(2b̃) reaches ``ratio`` (a grid answer within ±0.001 is accepted)."""
    return optimize.brentq(
        lambda b: float(kr.epsilon_difference_profile(b)) / (2 * b) - ratio, 0.001, 0.6, xtol=1e-12
    )
