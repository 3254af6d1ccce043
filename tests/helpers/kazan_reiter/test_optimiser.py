"""recommend_epsilon and argmin_epsilon: every style of profile, the authors' grid, refusals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import kazan_reiter as kr


def scalar_inclusion(a, q_tilde, r):
    """Profile (15) written the way the paper writes it: scalars, max, an if."""
    return lambda p, q: max(a / (p * q_tilde), r) if q == q_tilde else math.inf


def box(r, p0, p1, q0, q1):
    return lambda p, q: r if (p0 <= p <= p1 and q0 <= q <= q1) else math.inf


def test_appendix_c3_two_dimensional():
    rec = kr.argmin_epsilon(lambda p, q: max(0.25 / (p * q), 3))
    assert round(rec.epsilon, 2) == 0.65
    assert rec.p == pytest.approx(1.0, abs=1e-6)
    assert round(rec.q, 3) == 0.083
    assert rec.q == pytest.approx(0.25 / 3, abs=1e-6)
    exact = 0.5 * math.log((1 - 1 / 12) / (1 / 3 - 1 / 12))
    assert abs(rec.epsilon - exact) < 1e-6
    vectorised = kr.argmin_epsilon(kr.two_dimensional_profile(0.25, 3.0))
    assert abs(vectorised.epsilon - exact) < 1e-6


# --- recommend_epsilon: profiles of every style, accuracy, refusal ------------------------


def test_scalar_and_vector_profiles_agree_in_2d():
    scalar = kr.argmin_epsilon(lambda p, q: max(0.1 / (p * q), 2.0))
    vector = kr.argmin_epsilon(kr.two_dimensional_profile(0.1, 2.0))
    assert scalar.epsilon == pytest.approx(vector.epsilon, abs=1e-9)


def test_profile_with_if_that_silently_misbehaves_on_arrays_is_evaluated_pointwise():
    # `if q >= 0.5` on an array raises; `q.max()` style misuse would not: checked by probes
    def profile(p, q):
        return 2.0 if np.max(q) >= 0.5 else math.inf

    assert kr.recommend_epsilon(profile) == pytest.approx(
        kr.epsilon_box_profile(2.0, 0, 1, 0.5, 1), abs=1e-6
    )


def test_recommendation_not_above_a_plain_grid():
    profile = scalar_inclusion(0.1, 1.0, 3.0)
    grid = np.linspace(1e-6, 1, 1001)
    grid_min = float(np.min(kr.max_epsilon(grid, 1.0, [profile(p, 1.0) for p in grid])))
    assert kr.recommend_epsilon(profile, q=1.0) <= grid_min + 1e-12


def test_infeasible_profile_is_refused():
    with pytest.raises(ValueError, match="infeasible"):
        kr.recommend_epsilon(lambda p, q: 0.9)
    with pytest.raises(ValueError, match="only ε = 0"):
        kr.recommend_epsilon(lambda p, q: 1.0, q=1.0)
    with pytest.raises(ValueError, match="bounds nothing"):
        kr.recommend_epsilon(lambda p, q: math.inf)
    with pytest.raises(ValueError, match="bounds nothing"):
        kr.recommend_epsilon(lambda p, q: 10.0, p=1.0, q=1.0)  # 10 ≥ 1/(pq)
    with pytest.raises(ValueError, match="NaN"):
        kr.recommend_epsilon(lambda p, q: math.nan, q=1.0)
    with pytest.raises(ValueError, match="profile must be a function"):
        kr.recommend_epsilon(3.0)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"p": 0.0}, "p"), ({"q": 1.5}, "q"), ({"p": -1}, "p"), ({"q": math.nan}, "q")],
)
def test_recommend_epsilon_refuses_bad_slices(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        kr.recommend_epsilon(lambda p, q: 3.0, **kwargs)


def test_evaluate_profile_handles_every_style():
    p = np.array([[0.1, 0.5], [1.0, 0.2]])
    q = np.array([[1.0, 0.3], [0.4, 1.0]])
    constant = kr.evaluate_profile(lambda p, q: 3.0, p, q, vectorized=True)
    assert constant.shape == (2, 2) and np.all(constant == 3.0)
    scalar_only = kr.evaluate_profile(lambda p, q: max(0.25 / (p * q), 3.0), p, q)
    assert np.array_equal(scalar_only, np.maximum(0.25 / (p * q), 3.0))
    # a profile that silently takes one branch for a whole array is the caller's declaration
    # now (vectorized=), never guessed: point by point gives the right values
    branchy = lambda p, q: 2.0 if p < 0.3 else 5.0  # noqa: E731
    assert kr.evaluate_profile(branchy, p, q).tolist() == [[2.0, 5.0], [5.0, 2.0]]
    with pytest.raises(ValueError, match=r"returned shape \(3,\)"):
        kr.evaluate_profile(lambda p, q: np.full(3, 2.0), p, q, vectorized=True)
    one = kr.evaluate_profile(lambda p, q: 2.0, 0.5, 0.5)
    assert type(one) is float and one == 2.0
    # the package's own profiles declare themselves vectorised
    assert kr.two_dimensional_profile(0.25, 3.0).vectorized is True


@pytest.mark.parametrize("value", ["three", "3", True, np.bool_(True), None, [2.0]])
@pytest.mark.parametrize("vectorized", [False, True])
def test_a_profile_that_returns_a_non_number_is_refused_never_coerced(value, vectorized):
    # "3" and True would read as the bounds 3 and 1 if coerced (issue 17, class 10/11)
    if vectorized and isinstance(value, list):
        return  # a list of numbers is a fine array for a vectorised profile

    def profile(p, q):
        return np.full(np.shape(p), value, dtype=object) if vectorized else value

    with pytest.raises(ValueError, match=r"risk profile \(your code\) (returned|raised)"):
        kr.recommend_epsilon(profile, vectorized=vectorized)
    with pytest.raises(ValueError, match=r"risk profile \(your code\) (returned|raised)"):
        kr.recommend_epsilon(profile, q=0.5, vectorized=vectorized)
    with pytest.raises(ValueError, match=r"risk profile \(your code\) (returned|raised)"):
        kr.evaluate_profile(profile, 0.5, 0.25, vectorized=vectorized)


@pytest.mark.parametrize("bad", [-1.0, 0.0, 1.5, math.nan])
def test_evaluate_profile_refuses_q_outside_the_unit_interval(bad):
    with pytest.raises(ValueError, match=r"^q must (lie in|be finite).*; got -?(1.5|1.0|0.0|nan)$"):
        kr.evaluate_profile(lambda p, q: 3.0, 0.5, bad)
    with pytest.raises(ValueError, match=r"^p must (lie in|be finite)"):
        kr.evaluate_profile(lambda p, q: 3.0, bad, 0.5)


@pytest.mark.parametrize(
    ("profile", "name"),
    [
        (lambda p, q: 1 / (p - p), "ZeroDivisionError"),
        (lambda p, q: {"a": 2.0}["b"], "KeyError"),
    ],
)
def test_a_profile_that_raises_becomes_a_value_error_naming_it(profile, name):
    with pytest.raises(ValueError, match=f"risk profile \\(your code\\) raised {name} at"):
        kr.recommend_epsilon(profile)
    with pytest.raises(ValueError, match=f"raised {name} at \\(p, q\\) = \\(0.5, 0.25\\)"):
        kr.evaluate_profile(profile, 0.5, 0.25)


@pytest.mark.parametrize("r", [1e13, 1e15, 1e16, 1e30, 1e100])
def test_constant_profile_with_a_huge_bound_is_half_log_r(r):
    # regression: the search stopped at q = 1e-12, so r* = 1e13 gave 3 % too much, 1e15 twice
    # the answer, and from 1e16 "bounds nothing"; Theorem 3's infimum needs q < 1/r*
    assert kr.recommend_epsilon(lambda p, q: r) == pytest.approx(0.5 * math.log(r), rel=1e-12)


def test_narrow_box_is_found_by_the_fine_grid():
    # 0.003 wide: three points of the authors' 1e-3 grid
    r, p0, p1, q0, q1 = 4.0, 0.3111, 0.3141, 0.5123, 0.5153
    closed = kr.epsilon_box_profile(r, p0, p1, q0, q1)
    assert abs(kr.recommend_epsilon(box(r, p0, p1, q0, q1)) - closed) < 1e-6


def test_a_line_profile_on_the_plane_is_refused_with_a_pointer_to_the_slice():
    # q̃ between the grid's points: the plane cannot see the line (the docstring says so)
    q = 0.3701234
    with pytest.raises(ValueError, match=r"recommend_epsilon\(profile, q=q̃\)"):
        kr.recommend_epsilon(scalar_inclusion(0.25, q, 3.0))
    closed = kr.epsilon_inclusion_profile(0.25, q, 3.0)
    assert kr.recommend_epsilon(scalar_inclusion(0.25, q, 3.0), q=q) == pytest.approx(
        closed, abs=1e-6
    )


def test_a_line_profile_on_a_grid_value_is_seen_on_the_plane():
    # q̃ = 0.37 is a point of the authors' grid, so find_eps sees the line: so must we
    closed = kr.epsilon_inclusion_profile(0.25, 0.37, 3.0)
    on_plane = kr.argmin_epsilon(scalar_inclusion(0.25, 0.37, 3.0))
    assert on_plane.q == 0.37
    assert on_plane.epsilon == pytest.approx(closed, abs=1e-6)


def test_a_profile_at_one_over_pq_is_refused():
    with pytest.raises(ValueError, match="bounds nothing"):
        kr.recommend_epsilon(lambda p, q: 1 / (p * q) if p > 0.5 else math.inf)


def test_a_profile_that_returns_no_number_is_refused():
    with pytest.raises(ValueError, match=r"must return a (real )?number"):
        kr.recommend_epsilon(lambda p, q: None, q=1.0)
    with pytest.raises(ValueError, match=r"must return a (real )?number"):
        kr.recommend_epsilon(lambda p, q: "three")


# --- the search is never above the authors' grid (issue 17, class 1) ----------------------

# Kazan & Reiter's find_eps (find_eps.R) evaluates seq(1e-3, 1, 1e-3)²: R computes
# from + k·by; a Python port writes k/1000. Both are brute-forced here, every point.
AUTHORS_GRIDS = (1e-3 + np.arange(1000) * 1e-3, np.arange(1, 1001) / 1000)


def authors_grid_minimum(profile) -> float:
    """min εᵢ over the authors' 10⁶-point grid (both spellings), by brute force."""
    best = math.inf
    for g in AUTHORS_GRIDS:
        g = g[g <= 1.0]
        P, Q = np.meshgrid(g, g, indexing="ij")
        best = min(best, float(np.min(kr.max_epsilon(P, Q, profile(P, Q)))))
    return best


def zone_profile(r_in, r_out, p0, p1, q0, q1):
    """r_in on a (narrow) box, r_out elsewhere: finite everywhere, a strict zone inside."""

    def profile(p, q):
        inside = (p0 <= p) & (p <= p1) & (q0 <= q) & (q <= q1)
        return np.where(inside, r_in, r_out)

    profile.vectorized = True
    return profile


def test_the_reviewers_narrow_zone_is_found():
    # 1.5 on a box 0.0045 wide, 50 elsewhere: the old 235² grid returned 1.956
    profile = zone_profile(1.5, 50.0, 0.501, 0.5055, 0.901, 0.9055)
    truth = kr.epsilon_box_profile(1.5, 0.501, 0.5055, 0.901, 0.9055)
    assert truth == pytest.approx(0.8811, abs=1e-4)
    assert kr.recommend_epsilon(profile) == pytest.approx(truth, abs=1e-9)
    # the same profile written with if/else, called point by point
    scalar = lambda p, q: 1.5 if (0.501 <= p <= 0.5055 and 0.901 <= q <= 0.9055) else 50.0  # noqa: E731
    assert kr.recommend_epsilon(scalar) == pytest.approx(truth, abs=1e-9)


@settings(max_examples=25)
@given(
    st.floats(min_value=0.0, max_value=0.97),
    st.floats(min_value=0.0, max_value=0.02),
    st.floats(min_value=0.02, max_value=0.97),
    st.floats(min_value=0.0, max_value=0.02),
    st.floats(min_value=1.05, max_value=20.0),
    st.floats(min_value=1.5, max_value=1e4),
)
def test_never_above_the_authors_grid_on_narrow_zones(p0, wp, q0, wq, r_in, factor):
    # zones from zero width (a single line or point, possibly a grid value) up to 0.02
    p1, q1 = min(p0 + wp, 1.0), min(q0 + wq, 1.0)
    r_out = r_in * factor
    profile = zone_profile(r_in, r_out, p0, p1, q0, q1)
    grid = authors_grid_minimum(profile)
    found = kr.recommend_epsilon(profile)
    assert found <= grid * (1 + 1e-15)
    # where the zone holds a grid point in each direction the minimum is exact: the zone's
    # corner (Lemma 3) or Theorem 3's ½·log r_out approached at p = 1, q → 0
    if wp > 1.001e-3 and wq > 1.001e-3:
        truth = min(
            kr.epsilon_box_profile(r_in, p0, p1, q0, q1), kr.epsilon_constant_profile(r_out)
        )
        assert found == pytest.approx(truth, abs=1e-9)


@settings(max_examples=15)
@given(
    st.floats(min_value=0.01, max_value=0.5),
    st.floats(min_value=0.0, max_value=0.97),
    st.floats(min_value=0.0, max_value=0.97),
    st.floats(min_value=0.0, max_value=0.005),
    st.floats(min_value=0.0, max_value=0.9),
)
def test_difference_profile_with_a_narrow_zone_never_above_the_grid(b, p0, q0, w, cut):
    # the difference profile 1 + b/(pq) everywhere, tighter by `cut` on a narrow box
    p1, q1 = min(p0 + w, 1.0), min(q0 + w, 1.0)

    def profile(p, q):
        inside = (p0 <= p) & (p <= p1) & (q0 <= q) & (q <= q1)
        return 1 + b * np.where(inside, 1 - cut, 1.0) / (p * q)

    profile.vectorized = True
    assert kr.recommend_epsilon(profile) <= authors_grid_minimum(profile) * (1 + 1e-15)


def test_a_scalar_profile_is_held_to_the_same_grid():
    # a zone at a single grid point, seen only by evaluating that point
    def profile(p, q):
        return 2.0 if (p == 0.437 and q == 0.613) else 1e3

    grid = authors_grid_minimum(np.vectorize(profile))
    assert math.isfinite(grid)
    assert kr.recommend_epsilon(profile) <= grid * (1 + 1e-15)
    assert kr.recommend_epsilon(profile) == pytest.approx(float(kr.max_epsilon(0.437, 0.613, 2.0)))


def test_finer_resolution_sees_a_zone_between_the_authors_points():
    # 4e-4 wide, strictly between 0.612 and 0.613: the default grid cannot see it
    profile = zone_profile(2.0, 1e3, 0.4371, 0.4375, 0.6121, 0.6125)
    truth = kr.epsilon_box_profile(2.0, 0.4371, 0.4375, 0.6121, 0.6125)
    assert kr.recommend_epsilon(profile) > truth + 0.1
    assert kr.recommend_epsilon(profile, resolution=1e-4) == pytest.approx(truth, abs=1e-9)


@pytest.mark.parametrize(
    ("resolution", "vectorized"),
    [
        (2e-3, True),
        (0.0, True),
        (-1e-3, True),
        (1e-6, True),
        (1e-4, False),
        ("1e-3", True),
        (True, True),
    ],
)
def test_resolution_out_of_range_is_refused_before_any_evaluation(resolution, vectorized):
    calls = []

    def profile(p, q):
        calls.append(1)
        return 3.0

    with pytest.raises(ValueError, match=r"^resolution must"):
        kr.recommend_epsilon(profile, vectorized=vectorized, resolution=resolution)
    assert calls == []


def test_a_one_number_array_is_a_number_for_a_pointwise_profile():
    # np.full_like(p, 3.0) on a float p is a 0-d array: a number, not an object
    pointwise = kr.recommend_epsilon(lambda p, q: np.full_like(p, 3.0), vectorized=False)
    assert pointwise == pytest.approx(0.5 * math.log(3.0), abs=1e-12)
    with pytest.raises(ValueError, match="returned"):
        kr.recommend_epsilon(lambda p, q: np.array(["3"]), vectorized=False)


def test_recommend_epsilon_rounds_toward_privacy_at_its_point():
    rec = kr.argmin_epsilon(kr.two_dimensional_profile(0.25, 3.0))
    bound = kr.relative_risk_bound(rec.p, rec.q, rec.epsilon)
    assert bound <= kr.two_dimensional_profile(0.25, 3.0)(rec.p, rec.q)


def test_every_candidate_is_reported_at_its_own_point():
    # a zone at p ≈ 1e-15 (below the old 1e-15 clamp of the local search): the search saw
    # ε = ln 1.5 there but recorded it at the unclamped point and reported 1.0986 elsewhere
    def profile(p, q):
        if 0.9e-15 <= p <= 1.1e-15:
            return 1.5
        return 3.0 if p <= 1e-140 else math.inf

    on_slice = kr.recommend_epsilon(profile, q=1.0)
    rec = kr.argmin_epsilon(profile)
    assert rec.epsilon <= on_slice + 1e-12
    assert rec.epsilon == kr.max_epsilon(rec.p, rec.q, profile(rec.p, rec.q))


def test_resolution_budget_counts_the_real_grid_and_never_overflows():
    with pytest.raises(ValueError, match=r"^resolution must"):
        kr.recommend_epsilon(lambda p, q: 3.0, resolution=1e-300)
    with pytest.raises(ValueError, match=r"^resolution must"):
        kr.recommend_epsilon(kr.two_dimensional_profile(0.25, 3.0), resolution=5e-5)
