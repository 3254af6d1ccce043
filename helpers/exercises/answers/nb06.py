"""Exercises of notebook 06 (Kazan & Reiter's risk profiles)."""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from .. import kazan_reiter as kr
from ._core import exercise

A_06_1, R_06_1, EPS_06_1 = 0.025, 3.0, 2.0


@exercise("06.1", names=("p_star",))
def _survey_fraction():
    """p̃ with recommended ε = 2 for profile (16), ã = 0.025, r̃ = 3 (first branch, p̃ < ã/r̃)."""
    return optimize.brentq(
        lambda p: kr.epsilon_values_profile(A_06_1, p, R_06_1) - EPS_06_1,
        1e-9,
        A_06_1 / R_06_1,
        xtol=1e-15,
    )


@exercise("06.2", names=("first_off",), atol=2e-3)
def _difference_profile():
    """b̃ at which ε(b̃)/(2b̃) reaches 1.05 (a grid answer within 0.002 is accepted)."""
    return optimize.brentq(
        lambda b: float(kr.epsilon_difference_profile(b)) / (2 * b) - 1.05, 0.001, 0.6, xtol=1e-12
    )


@exercise("06.3", names=("agency_profile",), verify=True)
def _your_agency(profile):
    """Any profile whose recommended ε is ≥ 1 while the posterior stays ≤ 0.5 where p·q ≤ 0.1."""
    if not callable(profile):
        return False, "is not a function of (p, q)"
    try:
        epsilon = kr.argmin_epsilon(profile).epsilon
    except (ValueError, TypeError, ZeroDivisionError) as error:
        return False, f"cannot be searched: {error}"
    if not epsilon >= 1:
        return False, "allows an ε below 1: loosen it where it binds"
    axis = np.linspace(0.01, 1, 100)
    p, q = np.meshgrid(axis, axis)
    worst = np.minimum(kr.relative_risk_bound(p, q, epsilon) * p * q, 1.0)[p * q <= 0.1].max()
    if worst > 0.5 + 1e-9:
        return False, "lets the posterior exceed 0.5 somewhere with p·q ≤ 0.1: tighten it there"
    if math.isinf(epsilon):
        return False, "bounds nothing (ε = ∞)"
    return True, ""
