"""helpers.foundations.randomised_response: the notes' example, ε of α and back, the estimator."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _modules import rr_epsilon_exact
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F

# --- randomised response --------------------------------------------------------------------


def test_notes_example_estimate_is_one_half():
    ex = F.NOTES_RR_EXAMPLE
    assert F.rr_estimate(ex["ones"], ex["n"], ex["alpha"]) == pytest.approx(0.5)


def test_rr_epsilon_from_alpha():
    # P(y=1|x=1) = (1+α)/2, P(y=1|x=0) = (1-α)/2; α = 1/2 gives ε = ln 3
    assert F.rr_epsilon(0.5) == pytest.approx(math.log(3))
    assert round(float(F.rr_epsilon(0.5)), 4) == 1.0986
    assert F.rr_epsilon(0.0) == 0.0
    for a in [0.1, 0.5, 0.9]:
        d1, d0 = F.rr_output_distribution(1, a), F.rr_output_distribution(0, a)
        assert F.discrete_max_log_ratio(d1, d0) == pytest.approx(F.rr_epsilon(a))


@given(eps=st.floats(0.0, 20.0))
def test_rr_alpha_epsilon_roundtrip(eps):
    a = F.rr_alpha_for_epsilon(eps)
    if a < 1:
        assert F.rr_epsilon(a) == pytest.approx(eps, abs=1e-6)


@given(alpha=st.floats(0.0, 1.0), x=st.sampled_from([0, 1]))
def test_rr_output_distribution_sums_to_one(alpha, x):
    d = F.rr_output_distribution(x, alpha)
    assert d.sum() == pytest.approx(1.0)
    assert d[x] == pytest.approx((1 + alpha) / 2)


@pytest.mark.parametrize("alpha", [0.25, 0.5, 0.9])
@pytest.mark.parametrize("p", [0.1, 0.5])
def test_rr_estimator_unbiased_and_variance(alpha, p):
    n, reps = 200, 40_000
    est = F.rr_simulate_estimates(p, n, alpha, reps=reps, rng=11)
    var = F.rr_variance(p, n, alpha)
    assert abs(est.mean() - p) < 5 * math.sqrt(var / reps)
    assert est.var() == pytest.approx(var, rel=0.05)
    assert est.var() <= F.rr_variance_bound_tight(n, alpha) * 1.05
    assert est.var() <= F.rr_variance_bound(n, alpha)


def test_rr_fixed_data_variance():
    est = F.rr_simulate_estimates(0.5, 18, 0.5, reps=100_000, rng=5, fixed_data=True)
    var = F.rr_variance_given_data(18, 0.5)
    assert var == pytest.approx((1 - 0.25) / (4 * 0.25 * 18))
    assert abs(est.mean() - 0.5) < 5 * math.sqrt(var / est.size)
    assert est.var() == pytest.approx(var, rel=0.03)


def test_rr_per_person_sampler_matches_distribution():
    x = np.r_[np.ones(9), np.zeros(9)].astype(int)
    y = F.randomised_response(np.tile(x, (20_000, 1)), 0.5, rng=2)
    # P(y=1 | x=1) = 3/4, P(y=1 | x=0) = 1/4
    assert y[:, :9].mean() == pytest.approx(0.75, abs=0.005)
    assert y[:, 9:].mean() == pytest.approx(0.25, abs=0.005)
    p_hat = F.rr_estimate(y.sum(axis=1), 18, 0.5)
    assert abs(p_hat.mean() - 0.5) < 0.005


@given(alpha=st.floats(0.01, 1.0), n=st.integers(1, 10_000), p=st.floats(0.0, 1.0))
def test_rr_variance_below_bounds(alpha, n, p):
    v = F.rr_variance(p, n, alpha)
    assert 0 <= v <= F.rr_variance_bound_tight(n, alpha) * (1 + 1e-12)
    assert F.rr_variance_bound_tight(n, alpha) == pytest.approx(F.rr_variance_bound(n, alpha) / 4)


def test_rr_bad_input():
    with pytest.raises(ValueError, match=r"alpha must lie in \[0, 1\)"):
        F.rr_epsilon(1.0)
    with pytest.raises(ValueError, match=r"alpha must lie in \(0, 1\]"):
        F.rr_estimate(9, 18, 0.0)
    with pytest.raises(ValueError, match=r"y_sum must lie in 0\.\.n"):
        F.rr_estimate(19, 18, 0.5)
    with pytest.raises(ValueError, match="reps"):
        F.rr_simulate_estimates(0.5, 18, 0.5, reps=0, rng=1)
    with pytest.raises(ValueError, match="p must lie in"):
        F.rr_variance(1.5, 10, 0.5)
    with pytest.raises(ValueError, match="x must"):
        F.randomised_response([0, 3], 0.5, rng=1)


# --- inverses rounded toward privacy; finite inputs never NaN (issue 17) ---------------------

mpmath = pytest.importorskip("mpmath")


def _epsilon_near_a_boundary(data) -> float:
    """An ε on the whole valid range, often one double beside the ε of some α (the ties)."""
    kind = data.draw(st.sampled_from(["any", "tie"]))
    if kind == "any":
        return data.draw(st.floats(0.0, 1.7e308) | st.floats(0.0, 50.0))
    alpha = data.draw(st.floats(0.0, 1.0, exclude_max=True))
    eps = float(F.rr_epsilon(alpha))
    return data.draw(
        st.sampled_from([eps, math.nextafter(eps, 0.0), math.nextafter(eps, math.inf)])
    )


@given(st.data())
def test_rr_alpha_is_rounded_down_so_the_round_trip_never_exceeds_epsilon(data):
    eps = _epsilon_near_a_boundary(data)
    alpha = F.rr_alpha_for_epsilon(eps)
    assert 0.0 <= alpha < 1.0  # α = 1 (no randomisation, ε = ∞) is never returned
    assert F.rr_epsilon(alpha) <= eps  # as the course computes it ...
    exact, digits = rr_epsilon_exact(alpha)
    with mpmath.workdps(digits):
        assert exact <= mpmath.mpf(eps)  # ... and exactly


def test_rr_alpha_at_a_large_epsilon_still_randomises():
    # tanh(ε/2) rounded to 1 above ε ≈ 37.4: α = 1 at ε = 40 meant no noise at all
    alpha = F.rr_alpha_for_epsilon(40.0)
    assert alpha == math.nextafter(1.0, 0.0) and F.rr_epsilon(alpha) < 40.0
    assert F.rr_epsilon(F.rr_alpha_for_epsilon(30.0)) <= 30.0  # was 30.00000000000001 ...
    assert F.rr_alpha_for_epsilon(np.log(3)) == 0.5  # ... and a tie that is exact stays


@given(st.lists(st.floats(0.0, 60.0), min_size=1, max_size=8))
def test_rr_alpha_rises_with_epsilon_and_the_vector_is_the_scalars(epsilons):
    eps = np.sort(np.array(epsilons))
    alpha = F.rr_alpha_for_epsilon(eps)
    assert np.all(np.diff(alpha) >= 0)
    np.testing.assert_array_equal(alpha, [F.rr_alpha_for_epsilon(float(e)) for e in eps])


def test_fixed_data_is_a_bool_not_a_truthy_string():
    with pytest.raises(ValueError, match="fixed_data must be True or False; got 'False'"):
        F.rr_simulate_estimates(0.5, 18, 0.5, reps=5, rng=0, fixed_data="False")
