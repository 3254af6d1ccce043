"""The Durham example: true counts, switching probabilities, utility of an ε."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import kazan_reiter as kr


def test_durham_counts_and_switching():
    above, below, threshold = kr.durham_true_counts(np.array([0.25, 0.5, 1.0, 2.0]))
    assert threshold == pytest.approx(24.072)
    assert above.tolist() == [25, 26, 28, 32]
    assert below.tolist() == [23, 22, 20, 16]
    eps = kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)  # log 9, α = 1/9
    # one step above the threshold: P[Z ≤ −1] = α/(1+α) = 1/10 exactly
    assert kr.durham_switch_probability(eps, 0.25, "above") == pytest.approx(0.1)
    # two steps below it: P[Z ≥ 2] = α²/(1+α) = 1/90
    assert kr.durham_switch_probability(eps, 0.25, "below") == pytest.approx(1 / 90)
    assert kr.durham_switch_probability(eps, 0.25, "worst") == pytest.approx(0.1)
    probs = kr.durham_switch_probability(eps, np.array([0.25, 0.5, 1.0, 2.0]))
    assert np.all(np.diff(probs) < 0)


@given(st.floats(min_value=0.05, max_value=5), st.floats(min_value=0.11, max_value=3))
def test_switch_probability_is_a_probability_decreasing_in_epsilon(eps, d):
    p1 = kr.durham_switch_probability(eps, d, "worst")
    p2 = kr.durham_switch_probability(eps * 1.5, d, "worst")
    assert 0 <= p2 <= p1 <= 0.5 + 1e-12


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: kr.durham_switch_probability(1.0, 0.25, "sideways"), r"direction must be"),
        (lambda: kr.durham_switch_probability(1.0, 7.0), r"deviation must be below"),
        (lambda: kr.durham_switch_probability(1.0, 0.05), r"deviation is too small"),
        (lambda: kr.utility(-1.0), r"^epsilon must be >= 0"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_durham_switch_below_is_a_survival_probability():
    # P[Z ≥ m] for the geometric: α^m/(1 + α); 1 − cdf lost it below 1e-16 (large ε)
    eps = 40.0
    _above, below, threshold = kr.durham_true_counts(2.0)
    m = math.floor(threshold) + 1 - below
    alpha = math.exp(-eps)
    expected = alpha**m / (1 + alpha)
    assert kr.durham_switch_probability(eps, 2.0, "below") == pytest.approx(expected, rel=1e-12)


def test_utility_at_zero_is_documented_and_allowed():
    # ε = 0: α = 1, the noise is unbounded and the release is never exact
    assert kr.utility(0) == (math.inf, 0.0)
    sd, exact = kr.utility(np.array([0.0, 1.0]))
    assert sd[0] == math.inf and exact[0] == 0.0 and (sd[1], exact[1]) == kr.utility(1.0)
    with pytest.raises(ValueError, match=r"^epsilon"):
        kr.utility(-1e-9)
    with pytest.raises(ValueError, match=r"^epsilon"):
        kr.utility(math.inf)
