"""Exercises of notebook 06 (Kazan & Reiter's risk profiles)."""

from __future__ import annotations

from scipy import optimize

from ... import kazan_reiter as kr
from . import answer

A_06_1, R_06_1, EPS_06_1 = 0.025, 3.0, 2.0


@answer("06.1", names=("p_star",), digits=4)
def _survey_fraction():
    """p̃ with recommended ε = 2 for profile (16), ã = 0.025, r̃ = 3 (first branch, p̃ < ã/r̃)."""
    return optimize.brentq(
        lambda p: kr.epsilon_values_profile(A_06_1, p, R_06_1) - EPS_06_1,
        1e-9,
        A_06_1 / R_06_1,
        xtol=1e-15,
    )


@answer("06.2", names=("first_off",), decimals=3)
def _difference_profile():
    """b̃ at which ε(b̃)/(2b̃) reaches 1.05 (a grid answer within ±0.001 is accepted)."""
    return optimize.brentq(
        lambda b: float(kr.epsilon_difference_profile(b)) / (2 * b) - 1.05, 0.001, 0.6, xtol=1e-12
    )
