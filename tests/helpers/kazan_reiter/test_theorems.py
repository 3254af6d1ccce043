"""Kazan & Reiter's Theorems 1 and 2, Corollaries 1 and 2: bounds, inverses, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import kazan_reiter as kr

unit = st.floats(min_value=1e-6, max_value=1.0)


# --- Theorem 1, Corollary 1 ---------------------------------------------------------------


@given(unit, unit, st.floats(min_value=0, max_value=10))
def test_theorem1_bound_never_exceeds_corollary1(p, q, eps):
    assert kr.relative_risk_bound(p, q, eps) <= kr.naive_bound(eps) * (1 + 1e-12)


def test_theorem1_equals_naive_bound_only_in_the_limit():
    # p = 1, q → 0 is where e^{2ε} is attained
    assert kr.relative_risk_bound(1.0, 1e-12, 1.0) == pytest.approx(math.exp(2), rel=1e-9)
    assert kr.relative_risk_bound(0.5, 0.5, 1.0) < 0.5 * math.exp(2)


@given(unit, unit, st.floats(min_value=1.0001, max_value=1e4))
def test_theorem2_inverts_theorem1(p, q, r):
    eps = kr.max_epsilon(p, q, r)
    if np.isinf(eps):
        assert r >= 1 / (p * q) * (1 - 1e-12)
    else:
        assert kr.relative_risk_bound(p, q, eps) == pytest.approx(r, rel=1e-8)


@given(
    st.floats(min_value=0.01, max_value=0.99),
    st.floats(min_value=0.01, max_value=0.99),
    st.floats(min_value=1.1, max_value=20),
)
def test_stable_form_agrees_with_printed_eq12_where_it_is_well_conditioned(p, q, r):
    stable, printed = kr.max_epsilon(p, q, r), kr.max_epsilon_naive(p, q, r)
    if np.isfinite(stable):
        assert stable == pytest.approx(printed, rel=1e-7, abs=1e-9)


@given(unit, st.floats(min_value=1.0001, max_value=1e3))
def test_q_equal_one_branch_comes_from_the_same_expression(p, r):
    expected = math.log((1 - p) / (1 / r - p)) if 1 / r - p > 0 else math.inf
    got = kr.max_epsilon(p, 1.0, r)
    if math.isinf(expected):
        assert math.isinf(got)
    else:
        assert got == pytest.approx(expected, rel=1e-10, abs=1e-12)
        # and the 0 < q < 1 expression tends to it
        assert kr.max_epsilon(p, 1 - 1e-12, r) == pytest.approx(expected, rel=1e-6, abs=1e-8)


def test_printed_eq12_cancels_where_the_rewrite_does_not():
    # q close to 1: p(1−q)c tiny, the printed denominator loses all digits
    p, q, r = 0.3, 1 - 1e-13, 2.0
    exact = math.log((1 - p) / (1 / r - p))
    assert kr.max_epsilon(p, q, r) == pytest.approx(exact, abs=1e-9)
    assert abs(kr.max_epsilon_naive(p, q, r) - exact) > 1e-4


def test_max_epsilon_is_vectorised_and_infinite_where_unbounded():
    p = np.array([0.1, 0.5, 1.0])
    out = kr.max_epsilon(p, 1.0, np.array([2.0, 3.0, np.inf]))
    assert out.shape == (3,)
    assert np.isfinite(out[0]) and np.isinf(out[1]) and np.isinf(out[2])  # 3 ≥ 1/(0.5·1)
    assert kr.max_epsilon(0.4, 0.7, 1.0) == 0.0


def test_corollary2_p_equal_one():
    q, r = 0.2, 3.0
    assert kr.max_epsilon(1.0, q, r) == pytest.approx(0.5 * math.log((1 - q) / (1 / r - q)))


def test_point_profile_formula():
    # r*(0.5, 1) = r′: ε = log(r′/(2 − r′)), unbounded as r′ → 2
    for r_prime in (1.1, 1.5, 1.9, 1.999):
        assert kr.max_epsilon(0.5, 1.0, r_prime) == pytest.approx(
            math.log(r_prime / (2 - r_prime)), rel=1e-12
        )
        assert kr.recommend_epsilon(
            lambda p, q, rp=r_prime: rp if (p, q) == (0.5, 1.0) else math.inf, p=0.5, q=1.0
        ) == pytest.approx(math.log(r_prime / (2 - r_prime)))
        assert math.log(r_prime) / 2 < 0.35


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: kr.max_epsilon(0.0, 0.5, 3), r"^p must lie in \(0, 1\]"),
        (lambda: kr.max_epsilon(0.5, 1.2, 3), r"^q must lie in \(0, 1\]"),
        (lambda: kr.max_epsilon(0.5, 0.5, 0.5), r"r_star must be ≥ 1"),
        (lambda: kr.relative_risk_bound(0.5, 0.5, -1), r"^epsilon must be >= 0"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: kr.max_epsilon(0.5, 0.5, math.nan),
            r"r_star must be a real number ≥ 1 or inf; got nan$",
        ),
        (lambda: kr.relative_risk_bound(1.5, 0.5, 1.0), r"^p must lie in \(0, 1\]"),
    ],
)
def test_more_bad_input_names_parameter_value_and_range(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@given(unit, unit)
def test_r_star_equal_to_one_over_pq_bounds_nothing_despite_rounding(p, q):
    # 1/r* − p·q is rounding noise here; it must not read as a (huge) finite εᵢ
    assert math.isinf(kr.max_epsilon(p, q, 1 / (p * q)))


def test_naive_bound_is_inf_without_a_warning_beyond_the_largest_float():
    assert kr.naive_bound(1000.0) == math.inf
    assert kr.naive_bound(354.0) == pytest.approx(math.exp(708.0), rel=1e-12)


@given(unit, unit, st.floats(min_value=1.0, max_value=1e6))
def test_max_epsilon_rounds_toward_privacy(p, q, r):
    # the round trip: Theorem 1's bound at the reported εᵢ never exceeds r* (issue 17, class 5)
    eps = kr.max_epsilon(p, q, r)
    if math.isfinite(eps) and eps > 0:
        assert kr.relative_risk_bound(p, q, eps) <= r
        assert eps == 0 or kr.relative_risk_bound(p, q, math.nextafter(eps, math.inf)) >= r * (
            1 - 1e-12
        )
