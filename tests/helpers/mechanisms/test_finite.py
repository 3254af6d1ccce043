"""Randomized response and the exponential mechanism (helpers/mechanisms/finite.py) against their
closed forms; the battery of test_loss.py runs every property of a pair of laws on both."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import mechanisms as m


@given(eps=st.floats(0.01, 20.0), k=st.integers(2, 50))
def test_randomized_response_s_delta_is_its_closed_form(eps, k):
    rr = m.RandomizedResponse(eps, k=k)
    # the two atoms of loss ±ε: δ(t) = (e^ε − e^t)/(e^ε + k − 1) for t ≤ ε, 0 above
    for t in (0.0, eps / 3, eps / 2):
        exact = (math.exp(eps) - math.exp(t)) / (math.exp(eps) + k - 1)
        assert rr.delta(t) == pytest.approx(exact, rel=1e-9, abs=1e-15)
    assert rr.delta(eps) == 0.0
    assert rr.loss_bound() == eps


def test_randomized_response_at_a_huge_epsilon_stays_finite():
    rr = m.RandomizedResponse(700.0, k=3)
    assert rr.delta(0.0) == pytest.approx(1.0)
    assert np.all(np.isfinite(rr.laws()[0]))


@given(
    eps=st.floats(0.05, 5.0),
    scores=st.lists(st.integers(0, 50), min_size=2, max_size=8),
    moved=st.integers(0, 7),
)
def test_the_exponential_mechanism_s_loss_never_exceeds_epsilon(eps, scores, moved):
    neighbour = list(scores)
    neighbour[moved % len(scores)] -= 1  # one record fewer for one candidate: Δ = 1
    em = m.ExponentialMechanism(eps, utilities=scores, neighbour_utilities=neighbour)
    assert em.loss_bound() <= eps * (1 + 1e-12)
    assert em.delta(eps) <= 1e-15
    # shifting every score by the same amount changes neither law (the softmax's invariance)
    shifted = m.ExponentialMechanism(
        eps,
        utilities=[s + 100 for s in scores],
        neighbour_utilities=[s + 100 for s in neighbour],
    )
    assert np.allclose(shifted.delta(np.array([0.0, eps / 2])), em.delta(np.array([0.0, eps / 2])))


def test_the_exponential_mechanism_is_the_softmax_of_its_scores():
    em = m.ExponentialMechanism(2.0, utilities=(3, 1, 0), neighbour_utilities=(2, 1, 0))
    log_p, log_q = em.laws()
    p = np.exp(np.array([3, 1, 0]) * 2.0 / 2)
    q = np.exp(np.array([2, 1, 0]) * 2.0 / 2)
    assert np.allclose(np.exp(log_p), p / p.sum()) and np.allclose(np.exp(log_q), q / q.sum())
    swapped = em.laws(adjacency="add")
    assert np.array_equal(swapped[0], log_q) and np.array_equal(swapped[1], log_p)
