"""Exercises of notebook 01 (the prior): counting worlds, weighted and zero priors."""

from __future__ import annotations

import numpy as np

from ...datasets import school, school_release
from ...lee_clifton import count_worlds, posterior, prior
from . import answer

OUTPUTS_01_3 = (-3.0, 2.2, 5.0, 12.0)  # the noisy answers the exercise tries


@answer("01.1", names=("answer_worlds", "answer_prior"), decimals=4)
def _nine_students():
    """N = 9, n = 4: W = C(9, 4) worlds and the uniform prior 1/W."""
    nine = np.arange(9.0)
    return count_worlds(nine, 4), float(prior(nine, 4)[0])


@answer("01.3", names=("post_omega3", "can_believe"), decimals=4)
def _zero_prior_stays_zero():
    """Posterior of ω₃ under prior weights (1, 1, 1, 0) at several r; can any r revive ω₄?"""
    data, n = school(), len(school_release())
    post = posterior(
        data["absence_days"], n, "mean", np.array(OUTPUTS_01_3), 2.0, prior=[1, 1, 1, 0]
    )
    return post[:, 2], bool(np.any(post[:, 3] > 0))
