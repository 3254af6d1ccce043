"""helpers.foundations.hypothesis_testing: the ε-DP region of tests and Laplace's threshold test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F

# --- hypothesis testing ---------------------------------------------------------------------------


@given(p=st.floats(0, 1), eps=st.floats(0, 5))
def test_min_q_boundary_is_feasible(p, eps):
    q = F.hypothesis_min_q(p, eps)
    assert 0 <= q <= 1
    assert F.hypothesis_feasible(p, q, eps, tol=1e-9)
    if q > 1e-6:
        assert not F.hypothesis_feasible(p, q - 1e-6, eps)


@given(t=st.floats(-30, 30), eps=st.floats(0.01, 5), delta=st.floats(0.1, 10))
def test_laplace_threshold_test_inside_region(t, eps, delta):
    p, q = F.laplace_threshold_test(t * delta, eps, sensitivity=delta)
    assert F.hypothesis_feasible(p, q, eps, tol=1e-9)


def test_laplace_threshold_test_values():
    eps = 1.0
    p, q = F.laplace_threshold_test(np.array([0.0, 0.5, 1.0]), eps, sensitivity=1.0)
    assert np.allclose(p, [0.5, 0.5 * math.exp(-0.5), 0.5 * math.exp(-1)])
    assert np.allclose(q, p[::-1])
    # at t = y0 the pair touches the boundary p + e^ε q = 1
    assert p[0] + math.e * q[0] == pytest.approx(1.0)


@given(eps=st.floats(0, 10))
def test_min_equal_error_on_both_boundaries(eps):
    e = F.hypothesis_min_equal_error(eps)
    assert F.hypothesis_min_q(e, eps) == pytest.approx(e)
    assert F.hypothesis_feasible(e, e, eps, tol=1e-9)
    assert not F.hypothesis_feasible(e * 0.999, e * 0.999, eps)


def test_min_equal_error_values():
    assert F.hypothesis_min_equal_error(0.0) == 0.5
    assert round(float(F.hypothesis_min_equal_error(1.0)), 4) == 0.2689
    # the Laplace midpoint test p = q = e^{-ε/2}/2 is worse than the bound
    p, q = F.laplace_threshold_test(0.5, 1.0, sensitivity=1.0)
    assert float(p) == pytest.approx(0.5 * math.exp(-0.5)) and float(q) == pytest.approx(float(p))
    assert float(p) > 0.2689


def test_hypothesis_bad_input():
    with pytest.raises(ValueError, match="p must lie in"):
        F.hypothesis_min_q(1.2, 1.0)
    with pytest.raises(ValueError, match="epsilon must be >= 0"):
        F.hypothesis_min_q(0.2, -1.0)


# --- regressions: inf·0 and 1 − cdf (issue 13) ---------------------------------------------


def test_hypothesis_region_at_a_huge_epsilon_has_no_inf_times_zero():
    # exp(1000)·0 was inf·0 = NaN: min_q was NaN and (0, 1) was called infeasible
    assert F.hypothesis_min_q(0.0, 1000.0) == 1.0
    assert F.hypothesis_min_q(1.0, 1000.0) == 0.0
    assert F.hypothesis_feasible(0.0, 1.0, 1000.0) is True
    assert F.hypothesis_feasible(1.0, 0.0, 1000.0) is True
    assert F.hypothesis_feasible(0.0, 0.0, 1000.0) is False  # both errors 0: perfect test
    out = F.hypothesis_min_q(np.array([0.0, 0.25, 1.0]), np.array([[0.0], [1000.0]]))
    assert out.shape == (2, 3) and not np.isnan(out).any()
    np.testing.assert_array_equal(out[1], [1.0, 0.0, 0.0])


def test_hypothesis_min_equal_error_does_not_overflow():
    # 1/(1 + e^ε) as expit(−ε): e^{−ε} where e^ε overflows, never a warning
    assert F.hypothesis_min_equal_error(700.0) == pytest.approx(math.exp(-700), rel=1e-12)
    assert F.hypothesis_min_equal_error(1000.0) == 0.0  # e^{-1000} is below the smallest float


def test_threshold_test_false_positive_rate_keeps_its_tail():
    # p = P[y0 + Lap(1/ε) > t] = ½e^{−εt}; 1 − cdf gave 0 beyond t ≈ 37
    p, q = F.laplace_threshold_test(50.0, 1.0)
    assert p == pytest.approx(0.5 * math.exp(-50), rel=1e-12)
    assert q == 1.0


def test_hypothesis_max_q_mirrors_the_lower_edge():
    p = np.linspace(0, 1, 11)
    np.testing.assert_allclose(F.hypothesis_max_q(p, 1.0), 1 - F.hypothesis_min_q(1 - p, 1.0))
    assert np.all(F.hypothesis_feasible(p, F.hypothesis_max_q(p, 1.0), 1.0, tol=1e-12))
