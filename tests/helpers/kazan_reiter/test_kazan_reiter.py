"""helpers.kazan_reiter as a whole: what every one of its modules promises alike."""

from __future__ import annotations

import numpy as np

from helpers import kazan_reiter as kr


def test_scalars_come_back_as_python_floats():
    # kazan_reiter returned 0-d arrays and np.float64 where the contract says float
    for value in (
        kr.max_epsilon(0.5, 0.5, 3.0),
        kr.max_epsilon_naive(0.5, 0.5, 3.0),
        kr.relative_risk_bound(0.5, 0.5, 1.0),
        kr.naive_bound(1.0),
        kr.epsilon_constant_profile(3.0),
        kr.epsilon_inclusion_profile(0.25, 1.0, 3.0),
        kr.epsilon_values_profile(0.15, 0.05, 3.0),
        kr.epsilon_box_profile(2.0, 0.0, 1.0, 0.5, 1.0),
        kr.epsilon_difference_profile(0.5),
        kr.epsilon_lee_clifton_setting(4, 0.5),
        kr.durham_switch_probability(1.0, 0.25),
        *kr.utility(1.0),
        *kr.durham_true_counts(0.25),
    ):
        assert type(value) is float
    assert kr.max_epsilon(np.full((2, 2), 0.5), 0.5, 3.0).shape == (2, 2)
