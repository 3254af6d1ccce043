"""helpers.foundations.properties: post-processing, group privacy, composition, measured."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from _modules import rr_epsilon_exact
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F

# --- properties ----------------------------------------------------------------------------------


def test_post_processing_never_increases_epsilon():
    d1, d0 = F.rr_output_distribution(1, 0.5), F.rr_output_distribution(0, 0.5)
    rng = np.random.default_rng(0)
    G = rng.dirichlet(np.ones(5), size=2)  # random kernels {0,1} -> 5 outputs
    before = F.discrete_max_log_ratio(d1, d0)
    after = F.discrete_max_log_ratio(F.post_process(d1, G), F.post_process(d0, G))
    assert after <= before + 1e-12
    # a deterministic relabelling keeps it exactly
    flip = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert F.discrete_max_log_ratio(F.post_process(d1, flip), F.post_process(d0, flip)) == (
        pytest.approx(before)
    )


def test_group_privacy_and_composition():
    assert F.group_privacy_epsilon(0.5, 3) == pytest.approx(1.5)
    # Laplace(1/ε) on counts that differ by k: the worst log ratio is exactly kε
    for k in [1, 2, 5]:
        z = np.linspace(-20, 20, 4001)
        worst = np.max(np.abs(F.laplace_log_ratio(z, 0, k, 0.5, sensitivity=1.0)))
        assert worst == pytest.approx(F.group_privacy_epsilon(0.5, k))
    # two randomised responses of the same bit: the joint law's ε is ε₁ + ε₂
    a1, a2 = 0.5, 0.3
    j1 = np.outer(F.rr_output_distribution(1, a1), F.rr_output_distribution(1, a2)).ravel()
    j0 = np.outer(F.rr_output_distribution(0, a1), F.rr_output_distribution(0, a2)).ravel()
    total = F.sequential_composition_epsilon([F.rr_epsilon(a1), F.rr_epsilon(a2)])
    assert F.discrete_max_log_ratio(j1, j0) == pytest.approx(total)


def test_property_bad_input():
    with pytest.raises(ValueError, match="k must be a positive integer"):
        F.group_privacy_epsilon(1.0, 1.5)
    with pytest.raises(ValueError, match="epsilons"):
        F.sequential_composition_epsilon([1.0, -1.0])
    with pytest.raises(ValueError, match="P must sum to 1"):
        F.discrete_max_log_ratio([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match="G must be a 2-D kernel"):
        F.post_process([0.5, 0.5], np.ones((3, 2)) / 2)
    assert F.discrete_max_log_ratio([1.0, 0.0], [0.5, 0.5]) == math.inf


def test_discrete_log_ratios_per_output_and_batched():
    d1, d0 = F.rr_output_distribution(1, 0.5), F.rr_output_distribution(0, 0.5)
    np.testing.assert_allclose(F.discrete_log_ratios(d1, d0), [-np.log(3), np.log(3)])
    # the pair's ε is the largest |log-ratio|, rounded up by the rounding error of the logs
    largest = np.max(np.abs(F.discrete_log_ratios(d1, d0)))
    assert largest <= F.discrete_max_log_ratio(d1, d0) == pytest.approx(largest, rel=1e-14)
    batch = F.rr_output_distribution(1, np.array([0.1, 0.5, 0.9]))
    lr = F.discrete_log_ratios(batch, F.rr_output_distribution(0, np.array([0.1, 0.5, 0.9])))
    np.testing.assert_allclose(np.max(lr, axis=-1), F.rr_epsilon([0.1, 0.5, 0.9]))
    out = F.discrete_log_ratios([0.5, 0.5, 0.0, 0.0], [0.5, 0.0, 0.5, 0.0])
    assert out[1] == np.inf and out[2] == -np.inf and out[3] == 0.0
    with pytest.raises(ValueError, match="same outputs"):
        F.discrete_log_ratios([0.5, 0.5], [1 / 3, 1 / 3, 1 / 3])
    with pytest.raises(ValueError, match="sum to 1"):
        F.discrete_log_ratios([0.5, 0.6], [0.5, 0.5])


def test_properties_experiment_measures_the_three_properties():
    ex = F.properties_experiment(0.5, 0.5, 0.3, rng=5)
    assert ex.epsilon_rr == pytest.approx(math.log(3))
    assert np.max(np.abs(ex.before)) == pytest.approx(math.log(3))
    assert np.all(np.abs(ex.after) <= math.log(3))  # post-processing: never more than ε
    assert np.max(np.abs(ex.after)) < math.log(3) - 1e-3  # a random kernel loses some
    np.testing.assert_allclose(ex.group_worst, 0.5 * ex.k)  # group privacy, attained
    np.testing.assert_allclose(ex.composition_worst, ex.composition_budget)  # attained
    with pytest.raises(ValueError, match="rng must be"):
        F.properties_experiment(rng=None)


# --- inverses rounded toward privacy; finite inputs never NaN (issue 17) ---------------------

mpmath = pytest.importorskip("mpmath")


@given(st.lists(st.floats(1e-6, 1.0), min_size=2, max_size=6), st.data())
def test_an_epsilon_reported_for_a_mechanism_is_never_below_its_true_value(weights, data):
    # rr_epsilon, discrete_max_log_ratio, group privacy kε and sequential composition Σε
    # were rounded to nearest: up to a unit below the mechanism's ε
    alpha = data.draw(st.floats(0.0, 1.0, exclude_max=True))
    exact, digits = rr_epsilon_exact(alpha)
    with mpmath.workdps(digits):
        assert mpmath.mpf(F.rr_epsilon(alpha)) >= exact
        below = math.nextafter(F.rr_epsilon(alpha), 0.0)
        assert alpha == 0 or mpmath.mpf(below) < exact  # the smallest such double
    p = np.array(weights) / np.sum(weights)
    q = np.roll(p, 1)
    eps_pair = F.discrete_max_log_ratio(p, q)
    with mpmath.workdps(50):
        exact = max(
            abs(mpmath.log(mpmath.mpf(a)) - mpmath.log(mpmath.mpf(b)))
            for a, b in zip(p, q, strict=True)
        )
        assert mpmath.mpf(eps_pair) >= exact
    eps = data.draw(st.floats(1e-300, 1e300))
    k = data.draw(st.integers(1, 10**6))
    group = F.group_privacy_epsilon(eps, k)
    assert group == math.inf or Fraction(group) >= k * Fraction(eps)
    epsilons = data.draw(st.lists(st.floats(1e-300, 1e300), min_size=1, max_size=6))
    total = F.sequential_composition_epsilon(epsilons)
    assert total == math.inf or Fraction(total) >= sum(map(Fraction, epsilons))
