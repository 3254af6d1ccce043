"""Exercises of notebook 01 (the prior): counting worlds, weighted and zero priors."""

from __future__ import annotations

import numpy as np

from ..datasets import school, school_release
from ..lee_clifton import count_worlds, posterior, prior
from ._core import exercise

OUTPUTS_01_3 = (-3.0, 2.2, 5.0, 12.0)  # the noisy answers the exercise tries


@exercise("01.1", names=("answer_worlds", "answer_prior"))
def _six_students():
    """N = 6, n = 4: W = C(6, 4) worlds and the uniform prior 1/W."""
    six = np.arange(6.0)
    return count_worlds(six, 4), float(prior(six, 4)[0])


@exercise("01.2", names=("answer_weights",), verify=True)
def _half_on_omega1(answer):
    """Weights giving ω₁ prior 0.5, the other worlds equal shares (many answers are right)."""
    column, n = school()["absence_days"], len(school_release())
    try:
        p = prior(column, n, answer)
    except (ValueError, TypeError) as error:
        return False, f"are not valid weights: {error}"
    if not np.isclose(p[0], 0.5):
        side = "too much" if p[0] > 0.5 else "too little"
        return False, f"give ω₁ {side} weight (its prior must be exactly 0.5)"
    if not np.allclose(p[1:], p[1]):
        return False, "give ω₂ … ω_W unequal shares; they must share the rest equally"
    return True, ""


@exercise("01.3", names=("post_omega4", "can_believe"), atol=1e-12)
def _zero_prior_stays_zero():
    """Posterior of ω₄ under prior weights (1, 1, 1, 0) at several r; can any r revive it?"""
    data, n = school(), len(school_release())
    post = posterior(
        data["absence_days"], n, "mean", np.array(OUTPUTS_01_3), 2.0, prior=[1, 1, 1, 0]
    )
    return post[:, 3], bool(np.any(post[:, 3] > 0))
