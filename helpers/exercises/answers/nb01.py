"""Exercises of notebook 01 (the prior): counting worlds, weighted and zero priors."""

from __future__ import annotations

import numpy as np

from ...datasets import school, school_release
from ...lee_clifton import count_worlds, posterior, prior
from . import Param, answer

OUTPUTS_01_3 = (-3.0, 2.2, 5.0, 12.0)  # the noisy answers the exercise tries
WEIGHTS_01_3 = (1, 1, 1, 0)  # the prior weights the statement gives, ω₁ … ω₄


@answer(
    "01.1",
    names=("answer_worlds", "answer_prior"),
    decimals=4,
    parameters={
        "N": Param(9, 6, 14, kind="int", about="the class size"),
        "n": Param(4, 2, 12, kind="int", about="the size of the released data set"),
    },
    valid=lambda p: 2 <= p["n"] <= p["N"] - 2,
)
def _nine_students(*, N, n):
    """N students, n released: W = C(N, n) worlds and the uniform prior 1/W."""
    everyone = np.arange(float(N))
    return count_worlds(everyone, n), float(prior(everyone, n)[0])


@answer(
    "01.3",
    names=("post_omega3", "can_believe"),
    decimals=4,
    parameters={"epsilon": Param(2.0, 0.3, 5.0, step=0.1, about="ε")},
    # can_believe is a concept (no ε revives a zero prior): graded as the written answer 01.3.q1
    points=(1, 0),
)
def _zero_prior_stays_zero(*, epsilon):
    """Posterior of ω₃ under prior weights (1, 1, 1, 0) at several r; can any r revive ω₄?"""
    data, n = school(), len(school_release())
    post = posterior(
        data["absence_days"], n, "mean", np.array(OUTPUTS_01_3), epsilon, prior=list(WEIGHTS_01_3)
    )
    return post[:, 2], bool(np.any(post[:, 3] > 0))
