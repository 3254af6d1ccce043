"""helpers/kazan_reiter/slices.py: Figure 1's slices and their minimum (eq. (13))."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import kazan_reiter as kr

params = dict(
    a=st.floats(0.01, 0.9),
    fixed=st.floats(0.05, 1.0),
    r=st.floats(1.2, 20.0),
)


@given(**params)
def test_inclusion_slice_is_profile_15_at_q_tilde_and_its_minimum_is_the_closed_form(a, fixed, r):
    s = kr.profile_slice("inclusion", a, fixed, r)
    profile = kr.inclusion_profile(a, fixed, r)
    q = np.full_like(s.x, fixed)
    np.testing.assert_array_equal(s.r_star, profile(s.x, q))
    np.testing.assert_array_equal(s.epsilon_i, kr.max_epsilon(s.x, q, s.r_star))
    assert s.epsilon_min == kr.epsilon_inclusion_profile(a, fixed, r)
    # the minimum is a minimum: no point of the slice lies below it (beyond rounding)
    assert np.nanmin(s.epsilon_i) >= s.epsilon_min * (1 - 1e-9) - 1e-12
    # and it is attained where the search says
    at = kr.max_epsilon(s.x_min, fixed, profile(s.x_min, fixed))
    assert at == pytest.approx(s.epsilon_min, rel=1e-6, abs=1e-9)


@given(**params)
def test_values_slice_is_profile_16_at_p_tilde_and_its_minimum_is_the_closed_form(a, fixed, r):
    s = kr.profile_slice("values", a, fixed, r)
    profile = kr.values_profile(a, fixed, r)
    p = np.full_like(s.x, fixed)
    np.testing.assert_array_equal(s.r_star, profile(p, s.x))
    assert s.epsilon_min == kr.epsilon_values_profile(a, fixed, r)
    assert np.nanmin(s.epsilon_i) >= s.epsilon_min * (1 - 1e-9) - 1e-12
    at = kr.max_epsilon(fixed, s.x_min, profile(fixed, s.x_min))
    assert at == pytest.approx(s.epsilon_min, rel=1e-6, abs=1e-9)


def test_the_default_grid_and_a_readers_own_points():
    s = kr.profile_slice("inclusion", 0.25, 1.0, 3.0)
    np.testing.assert_array_equal(s.x, kr.SLICE_X)
    own = kr.profile_slice("inclusion", 0.25, 1.0, 3.0, x=[0.1, 0.5, 1.0])
    assert own.x.tolist() == [0.1, 0.5, 1.0] and own.epsilon_min == s.epsilon_min
    assert type(s.epsilon_min) is float and type(s.x_min) is float


@pytest.mark.parametrize(
    "kind, kwargs, match",
    [
        ("both", {}, "kind must be 'inclusion'"),
        ("inclusion", {"x": [0.0, 0.5]}, "x must"),
        ("values", {"x": [0.5, 1.5]}, "x must"),
    ],
)
def test_bad_slices_are_refused_naming_the_parameter(kind, kwargs, match):
    with pytest.raises(ValueError, match=match):
        kr.profile_slice(kind, 0.25, 1.0, 3.0, **kwargs)
