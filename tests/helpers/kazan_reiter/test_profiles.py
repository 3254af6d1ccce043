"""The profiles (25), (28), (37) as functions: each agrees with its closed form."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import kazan_reiter as kr


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: kr.two_dimensional_profile(1.0, 3.0), r"^a_tilde .* must lie in \(0, 1\)"),
        (lambda: kr.inclusion_profile(0.1, 0.0, 3.0), r"^q_tilde must lie in \(0, 1\]"),
        (lambda: kr.values_profile(0.1, 2.0, 3.0), r"^p_tilde must lie in \(0, 1\]"),
    ],
)
def test_more_bad_input_names_parameter_value_and_range(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- profiles (25), (28), (37) as functions: each agrees with its Table 4 closed form -------


@settings(max_examples=20)
@given(
    st.floats(min_value=1.1, max_value=20.0),
    st.floats(min_value=0.0, max_value=0.9),
    st.floats(min_value=0.01, max_value=0.1),
    st.floats(min_value=0.0, max_value=0.9),
    st.floats(min_value=0.01, max_value=0.1),
)
def test_box_profile_matches_eq26(r, p0, wp, q0, wq):
    profile = kr.box_profile(r, p0, p0 + wp, q0, q0 + wq)
    closed = kr.epsilon_box_profile(r, p0, p0 + wp, q0, q0 + wq)
    if math.isinf(closed):
        with pytest.raises(ValueError, match="bounds nothing"):
            kr.recommend_epsilon(profile)
    else:
        assert kr.recommend_epsilon(profile) == pytest.approx(closed, abs=1e-9)
    assert profile(p0 + wp / 2, q0 + wq / 2) == r
    assert profile(min(p0 + wp + 0.01, 1.0), q0) in (r, math.inf)


@given(st.floats(min_value=0.001, max_value=0.99))
def test_difference_profile_matches_eq29(b):
    closed = kr.epsilon_difference_profile(b)
    assert kr.recommend_epsilon(kr.difference_profile(b)) == pytest.approx(closed, abs=1e-9)
    # eq. (28): (pq + b)/(pq) is the posterior − prior ≤ b̃ bound divided by the prior
    assert kr.difference_profile(b)(0.5, 0.4) == pytest.approx((0.2 + b) / 0.2)


@pytest.mark.parametrize(("n", "a"), [(4, 1 / 3), (2, 0.75), (10, 0.5), (1000, 0.01)])
def test_lee_clifton_profile_matches_eq38(n, a):
    profile = kr.lee_clifton_profile(n, a)
    closed = kr.epsilon_lee_clifton_setting(n, a)
    assert kr.recommend_epsilon(profile, p=1 / n, q=1.0) == pytest.approx(closed, rel=1e-12)
    assert profile(1 / n, 1.0) == pytest.approx(n * a) and profile(0.5 / n, 1.0) == math.inf


@pytest.mark.parametrize(
    ("build", "args", "name"),
    [
        (kr.box_profile, (0.5, 0.1, 0.2, 0.1, 0.2), "r_tilde"),
        (kr.box_profile, (3.0, 0.3, 0.2, 0.1, 0.2), "p0 and p1"),
        (kr.box_profile, (3.0, 0.1, 0.2, 0.1, 1.5), "q1"),
        (kr.box_profile, (3.0, "0.1", 0.2, 0.1, 0.2), "p0"),
        (kr.difference_profile, (1.0,), "b_tilde"),
        (kr.difference_profile, (True,), "b_tilde"),
        (kr.lee_clifton_profile, (1, 0.5), "n"),
        (kr.lee_clifton_profile, (4.0, 0.5), "n"),
        (kr.lee_clifton_profile, (4, 0.2), "a_tilde"),
    ],
)
def test_profile_builders_refuse_bad_parameters(build, args, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        build(*args)
