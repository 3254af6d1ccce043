"""Kazan & Reiter's closed forms: Tables 1, 4 and 5, the examples, each against the search."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers import kazan_reiter as kr
from helpers.mechanisms import geometric_noise_sd, geometric_prob_exact, geometric_scale

r_tilde = st.floats(min_value=1.01, max_value=50.0)
a_tilde = st.floats(min_value=0.001, max_value=0.99)


def scalar_inclusion(a, q_tilde, r):
    """Profile (15) written the way the paper writes it: scalars, max, an if."""
    return lambda p, q: max(a / (p * q_tilde), r) if q == q_tilde else math.inf


def scalar_values(a, p_tilde, r):
    return lambda p, q: max(a / (p_tilde * q), r) if p == p_tilde else math.inf


# --- Table 1 (profile (15), ã = 0.25, q̃ = 1) ---------------------------------------------

TABLE1 = [  # r̃, ε, SD, P[exact] %, constant-profile baseline
    (1.5, 0.51, 2.74, 25, 0.20),
    (3.0, 1.30, 1.02, 57, 0.55),
    (6.0, 2.04, 0.59, 77, 0.90),
]


@pytest.mark.parametrize(("r", "eps", "sd", "exact", "baseline"), TABLE1)
def test_table1(r, eps, sd, exact, baseline):
    closed = kr.epsilon_inclusion_profile(0.25, 1.0, r)
    numeric = kr.recommend_epsilon(scalar_inclusion(0.25, 1.0, r), q=1.0)
    assert abs(numeric - closed) < 1e-6
    assert round(closed, 2) == eps
    noise_sd, prob_exact = kr.utility(closed)
    assert round(float(noise_sd), 2) == sd
    assert round(100 * float(prob_exact)) == exact
    assert round(float(kr.epsilon_constant_profile(r)), 2) == baseline
    assert kr.recommend_epsilon(lambda p, q, r=r: r) == pytest.approx(
        kr.epsilon_constant_profile(r), abs=1e-6
    )


# --- Table 5 (profile (16), p̃ = 0.05, r̃ = 3) --------------------------------------------

TABLE5 = [(0.025, 1.09, 1.24, 50), (0.15, 1.21, 1.10, 54), (0.3, 2.10, 0.56, 78)]


@pytest.mark.parametrize(("a", "eps", "sd", "exact"), TABLE5)
def test_table5(a, eps, sd, exact):
    closed = kr.epsilon_values_profile(a, 0.05, 3.0)
    numeric = kr.recommend_epsilon(scalar_values(a, 0.05, 3.0), p=0.05)
    assert abs(numeric - closed) < 1e-6
    assert round(closed, 2) == eps
    assert round(float(geometric_noise_sd(geometric_scale(closed))), 2) == sd
    assert round(100 * float(geometric_prob_exact(geometric_scale(closed)))) == exact


@pytest.mark.parametrize(("p", "eps"), [(0.005, 1.63), (0.0005, 3.94)])
def test_table5_smaller_sampling_fractions(p, eps):
    assert round(kr.epsilon_values_profile(0.025, p, 3.0), 2) == eps
    assert abs(kr.recommend_epsilon(kr.values_profile(0.025, p, 3.0), p=p) - eps) <= 0.005


def test_table5_agency_b_sits_on_the_branch_boundary():
    a, p, r = 0.15, 0.05, 3.0
    first_branch = math.log(a * (1 - p) / (p * (1 - a)))
    # in floating point 0.15/3 < 0.05, so the second branch is taken...
    assert not p <= a / r
    # ...and the printed second branch is 0/0 there: it gives a negative "ε"
    d = p * r - a
    printed = math.log(2 * d / (math.sqrt(r * r * (1 - p) ** 2 + 4 * d * (1 - a)) - r * (1 - p)))
    assert abs(printed - first_branch) > 1
    # the conjugate form joins the branches continuously: (r̃ − ã)/(1 − ã) at the boundary
    assert kr.epsilon_values_profile(a, p, r) == pytest.approx(first_branch, rel=1e-12)
    assert first_branch == pytest.approx(math.log((r - a) / (1 - a)), rel=1e-12)
    for side in (p * (1 - 1e-9), p * (1 + 1e-9)):
        assert kr.epsilon_values_profile(a, side, r) == pytest.approx(first_branch, abs=1e-6)


# --- Table 4: every closed form against the numerical minimum, every branch ---------------


@pytest.mark.parametrize(
    ("a", "q", "r"),
    [
        (0.25, 0.05, 3.0),  # q ≤ ã/r̃
        (0.3, 0.1, 3.0),  # q = ã/r̃ exactly (boundary of branches 1 and 2)
        (0.1, 0.2, 3.0),  # ã/r̃ < q ≤ 1/(r̃+1)
        (0.1, 0.25, 3.0),  # q = 1/(r̃+1) exactly (boundary of branches 2 and 3)
        (0.1, 0.5, 3.0),  # branch 3 (minimum at the kink)
        (0.25, 0.999, 3.0),  # the authors' "q = 1" in their Figure 1 code
        (0.1, 1.0, 3.0),  # q = 1
        (0.0, 0.6, 2.0),  # ã = 0 (constant profile on the slice)
        (0.0, 1.0, 5.0),
    ],
)
def test_theorem5_against_numeric(a, q, r):
    closed = kr.epsilon_inclusion_profile(a, q, r)
    assert abs(kr.recommend_epsilon(scalar_inclusion(a, q, r), q=q) - closed) < 1e-6
    assert abs(kr.recommend_epsilon(kr.inclusion_profile(a, q, r), q=q) - closed) < 1e-6


def test_theorem5_branches_meet_at_their_boundaries():
    r, a = 3.0, 0.3
    q = a / r  # branch 1 | branch 2
    b1 = 0.5 * math.log(a * (1 - q) / (q * (1 - a)))
    b2 = 0.5 * math.log((1 - q) / (1 / r - q))
    assert b1 == pytest.approx(b2)
    q = 1 / (r + 1)  # branch 2 | branch 3
    just_above = kr.epsilon_inclusion_profile(0.1, q * (1 + 1e-9), r)
    assert kr.epsilon_inclusion_profile(0.1, q, r) == pytest.approx(just_above, abs=1e-6)


def test_q_0999_is_not_q_1():
    # the authors' Figure 1 code plots q = 0.999 for "q = 1"
    at_one = kr.epsilon_inclusion_profile(0.1, 1.0, 3.0)
    near_one = kr.epsilon_inclusion_profile(0.1, 0.999, 3.0)
    assert at_one == pytest.approx(math.log(2.9 / 0.9))
    # the q = 1 branch is a different formula, but the substitute changes ε only by 2e-5
    assert 1e-5 < at_one - near_one < 1e-4


@pytest.mark.parametrize(
    ("a", "p", "r"),
    [(0.3, 0.05, 3.0), (0.15, 0.05, 3.0), (0.025, 0.05, 3.0), (0.1, 1.0, 3.0), (0.5, 0.2, 2.0)],
)
def test_theorem4_against_numeric(a, p, r):
    closed = kr.epsilon_values_profile(a, p, r)
    assert abs(kr.recommend_epsilon(scalar_values(a, p, r), p=p) - closed) < 1e-6


@given(a_tilde, st.floats(min_value=1e-4, max_value=1.0), r_tilde)
def test_theorem4_property(a, p, r):
    closed = kr.epsilon_values_profile(a, p, r)
    assert abs(kr.recommend_epsilon(kr.values_profile(a, p, r), p=p) - closed) < 1e-6


@given(st.floats(min_value=0.0, max_value=0.99), st.floats(min_value=1e-3, max_value=1.0), r_tilde)
def test_theorem5_property(a, q, r):
    closed = kr.epsilon_inclusion_profile(a, q, r)
    assert abs(kr.recommend_epsilon(kr.inclusion_profile(a, q, r), q=q) - closed) < 1e-6


def box(r, p0, p1, q0, q1):
    return lambda p, q: r if (p0 <= p <= p1 and q0 <= q <= q1) else math.inf


@pytest.mark.parametrize(
    ("r", "p0", "p1", "q0", "q1"),
    [
        (3.0, 0.2, 0.7, 0.1, 0.6),  # q0 ≤ 1/(r+1): corner (p1, q0)
        (3.0, 0.2, 0.7, 0.25, 0.6),  # q0 = 1/(r+1) exactly
        (3.0, 0.2, 0.7, 0.4, 0.9),  # 1/(r+1) < q0 < 1, p0 > 0: corner (p0, q0)
        (3.0, 0.0, 0.7, 0.4, 0.9),  # p0 = 0: log r̃ (a limit)
        (2.0, 0.1, 0.3, 1.0, 1.0),  # q0 = 1
        (3.0, 0.0, 1.0, 0.0, 1.0),  # the whole square: Theorem 3's ½ log r̃
    ],
)
def test_box_profile_against_numeric(r, p0, p1, q0, q1):
    closed = kr.epsilon_box_profile(r, p0, p1, q0, q1)
    if q0 == q1:
        numeric = kr.recommend_epsilon(box(r, p0, p1, q0, q1), q=q0)
    else:
        numeric = kr.recommend_epsilon(box(r, p0, p1, q0, q1))
    assert abs(numeric - closed) < 1e-6


def test_box_whole_square_is_constant_profile():
    assert kr.epsilon_box_profile(3.0, 0, 1, 0, 1) == pytest.approx(
        kr.epsilon_constant_profile(3.0)
    )


@pytest.mark.parametrize("b", [0.05, 0.1, 0.3, 0.6])
def test_difference_profile(b):
    closed = float(kr.epsilon_difference_profile(b))
    numeric = kr.recommend_epsilon(lambda p, q: 1 + b / (p * q))
    assert abs(numeric - closed) < 1e-6
    assert closed == pytest.approx(math.log((1 + b) / (1 - b)))


def test_difference_profile_is_about_2b_for_small_b():
    assert float(kr.epsilon_difference_profile(0.01)) == pytest.approx(0.02, rel=1e-3)


def test_appendix_d1_lee_clifton_setting():
    eps = kr.epsilon_lee_clifton_setting(4, 1 / 3)
    assert eps == pytest.approx(math.log(3 / 2))
    assert round(eps, 2) == 0.41
    numeric = kr.recommend_epsilon(lambda p, q: 4 * (1 / 3), p=0.25, q=1.0)
    assert abs(numeric - eps) < 1e-12


def test_example3():
    eps = kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)
    assert round(eps, 2) == 2.20
    assert round(float(geometric_noise_sd(geometric_scale(eps))), 2) == 0.53
    numeric = kr.recommend_epsilon(lambda p, q: max(0.5 / p, 5) if q == 1 else math.inf, q=1.0)
    assert abs(numeric - eps) < 1e-6


def test_example3_constant_profile_is_log_r_on_the_q1_slice():
    # ã = 0 in (17): r* = r̃ on q = 1 only, which allows log r̃ (not ½ log r̃)
    assert kr.epsilon_inclusion_profile(0.0, 1.0, 5.0) == pytest.approx(math.log(5))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: kr.epsilon_constant_profile(1.0), r"^r_tilde .* must be > 1"),
        (lambda: kr.epsilon_inclusion_profile(1.0, 1.0, 3.0), r"^a_tilde .* must lie in \[0, 1\)"),
        (lambda: kr.epsilon_inclusion_profile(0.1, 1.0, 0.9), r"^r_tilde .* must be > 1"),
        (lambda: kr.epsilon_inclusion_profile(0.1, 0.0, 3.0), r"^q_tilde must lie in \(0, 1\]"),
        (lambda: kr.epsilon_values_profile(1.2, 0.05, 3.0), r"^a_tilde .* must lie in \[0, 1\)"),
        (lambda: kr.epsilon_values_profile(0.1, 1.05, 3.0), r"^p_tilde must lie in \(0, 1\]"),
        (lambda: kr.epsilon_box_profile(3.0, 0.5, 0.2, 0, 1), r"0 ≤ p0 ≤ p1 ≤ 1"),
        (lambda: kr.epsilon_box_profile(3.0, 0, 0, 0, 1), r"p1 > 0"),
        (lambda: kr.epsilon_box_profile(3.0, 0, 1, -0.1, 1), r"0 ≤ q0 ≤ q1 ≤ 1"),
        (lambda: kr.epsilon_box_profile(3.0, 0, 1, 0, 0), r"q1 > 0"),
        (lambda: kr.epsilon_box_profile(1.0, 0, 1, 0, 1), r"^r_tilde .* must be > 1"),
        (lambda: kr.epsilon_difference_profile(1.0), r"^b_tilde must lie in the open interval"),
        (lambda: kr.epsilon_difference_profile(0.0), r"^b_tilde must lie in the open interval"),
        (lambda: kr.epsilon_lee_clifton_setting(1, 0.5), r"n .* integer ≥ 2"),
        (lambda: kr.epsilon_lee_clifton_setting(4, 0.2), r"must exceed the prior 1/n"),
        (lambda: kr.epsilon_lee_clifton_setting(4, 1.0), r"^a_tilde .* must lie in \(0, 1\)"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_appendix_d1_lee_clifton_range_on_the_school_example():
    """Lee & Clifton's eq. (7) ranges from 0.34 to 1.62 over the school queries; K&R: 0.41."""
    from helpers import datasets, lee_clifton

    school = datasets.school()
    values = [
        lee_clifton.epsilon_upper_bound(school[column].tolist(), 3, query, 1 / 3)
        for column in ("school_year", "absence_days")
        for query in ("mean", "median")
    ]
    assert round(min(values), 2) == 0.34
    assert round(max(values), 2) == 1.62
    assert min(values) < kr.epsilon_lee_clifton_setting(4, 1 / 3) < max(values)


# --- property tests: every closed form against recommend_epsilon over random parameters -----
# (profiles written for scalars, with `if`s, as a reader would; parameters also placed
# exactly on each branch boundary)


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(st.just(0.0), st.floats(min_value=1e-4, max_value=0.99)),
    r_tilde,
    st.sampled_from(["a/r", "1/(r+1)", "1", "below a/r", "between", "above"]),
    st.floats(min_value=0.01, max_value=0.99),
)
def test_theorem5_every_branch_and_boundary_scalar_profile(a, r, where, t):
    q = {
        "a/r": a / r,
        "1/(r+1)": 1 / (r + 1),
        "1": 1.0,
        "below a/r": t * a / r,
        "between": a / r + t * (1 / (r + 1) - a / r),
        "above": max(a / r, 1 / (r + 1)) + t * (1 - max(a / r, 1 / (r + 1))),
    }[where]
    assume(0 < q <= 1)
    closed = kr.epsilon_inclusion_profile(a, q, r)
    numeric = kr.recommend_epsilon(scalar_inclusion(a, q, r), q=q)
    assert abs(numeric - closed) < 1e-6


@settings(max_examples=60, deadline=None)
@given(
    a_tilde,
    r_tilde,
    st.sampled_from(["a/r", "1", "below", "above"]),
    st.floats(min_value=0.01, max_value=0.99),
)
def test_theorem4_every_branch_and_boundary_scalar_profile(a, r, where, t):
    p = {"a/r": a / r, "1": 1.0, "below": t * a / r, "above": a / r + t * (1 - a / r)}[where]
    closed = kr.epsilon_values_profile(a, p, r)
    numeric = kr.recommend_epsilon(scalar_values(a, p, r), p=p)
    assert abs(numeric - closed) < 1e-6


@settings(max_examples=40, deadline=None)
@given(
    st.floats(min_value=1.05, max_value=20.0),
    st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)).map(sorted),
    st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)).map(sorted),
    st.sampled_from(["free", "p0 = 0", "q0 = 0", "q0 = 1/(r+1)", "whole p range"]),
)
def test_box_profile_every_branch_on_the_plane(r, ps, qs, where):
    (p0, p1), (q0, q1) = ps, qs
    if where == "p0 = 0":
        p0 = 0.0
    elif where == "q0 = 0":
        q0 = 0.0
    elif where == "q0 = 1/(r+1)":
        q0 = 1 / (r + 1)
        q1 = max(q1, q0)
    elif where == "whole p range":
        p0, p1 = 0.0, 1.0
    # the plane search sees boxes at least as wide as its fine grid (1/600) in each direction
    assume(p1 - p0 >= 0.002 and q1 - q0 >= 0.002)
    closed = kr.epsilon_box_profile(r, p0, p1, q0, q1)
    # ... and so must the part of the box that r̃ actually bounds (r̃ < 1/(p q)): a sliver
    # at the box's low corner thinner than the grid is the documented limitation
    assume(math.isinf(closed) or (p0 + 0.002) * (q0 + 0.002) < 1 / r)
    if math.isinf(closed):  # the box lies where r̃ ≥ 1/(p q): nothing is bounded
        with pytest.raises(ValueError, match="bounds nothing"):
            kr.recommend_epsilon(box(r, p0, p1, q0, q1))
    else:
        assert abs(kr.recommend_epsilon(box(r, p0, p1, q0, q1)) - closed) < 1e-6


@settings(max_examples=30, deadline=None)
@given(
    st.floats(min_value=1.05, max_value=20.0),
    st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)).map(sorted),
)
def test_box_profile_q0_equal_one_on_its_slice(r, ps):
    p0, p1 = ps
    assume(p1 - p0 >= 1e-4)  # the slice's fine grid has spacing 1/40,000
    closed = kr.epsilon_box_profile(r, p0, p1, 1.0, 1.0)
    if math.isinf(closed):
        with pytest.raises(ValueError, match="bounds nothing"):
            kr.recommend_epsilon(box(r, p0, p1, 1.0, 1.0), q=1.0)
    else:
        assert abs(kr.recommend_epsilon(box(r, p0, p1, 1.0, 1.0), q=1.0) - closed) < 1e-6


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=0.001, max_value=0.999))
def test_difference_profile_property(b):
    closed = float(kr.epsilon_difference_profile(b))
    numeric = kr.recommend_epsilon(lambda p, q: 1 + b / (p * q))
    assert abs(numeric - closed) < 1e-6


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=1.001, max_value=1e3))
def test_constant_profile_property(r):
    closed = float(kr.epsilon_constant_profile(r))
    assert abs(kr.recommend_epsilon(lambda p, q: r) - closed) < 1e-6


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=10_000), st.floats(min_value=0.01, max_value=0.99))
def test_lee_clifton_setting_property(n, t):
    a = 1 / n + t * (1 - 1 / n)
    closed = kr.epsilon_lee_clifton_setting(n, a)
    numeric = kr.recommend_epsilon(
        lambda p, q: n * a if (p, q) == (1 / n, 1.0) else math.inf, p=1 / n, q=1.0
    )
    assert abs(numeric - closed) < 1e-9


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: kr.epsilon_inclusion_profile(-0.1, 0.5, 3.0),
            r"^a_tilde .* must lie in \[0, 1\).*-0\.1",
        ),
        (lambda: kr.epsilon_inclusion_profile(0.1, 1.5, 3.0), r"^q_tilde must lie in \(0, 1\]"),
        (lambda: kr.epsilon_values_profile(0.1, 0.0, 3.0), r"^p_tilde must lie in \(0, 1\]"),
        (lambda: kr.epsilon_values_profile(0.1, 0.5, 1.0), r"^r_tilde .* must be > 1; got 1\.0"),
        (lambda: kr.epsilon_box_profile(3.0, 0, 1.2, 0, 1), r"0 ≤ p0 ≤ p1 ≤ 1.*p1=1\.2"),
        (lambda: kr.epsilon_box_profile(3.0, 0, 1, 0.6, 0.4), r"0 ≤ q0 ≤ q1 ≤ 1.*q0=0\.6"),
        (lambda: kr.epsilon_box_profile(3.0, -0.1, 1, 0, 1), r"0 ≤ p0 ≤ p1 ≤ 1.*p0=-0\.1"),
        (lambda: kr.epsilon_difference_profile(-0.2), r"^b_tilde must lie in the open interval"),
        (lambda: kr.epsilon_lee_clifton_setting(4.5, 0.5), r"n .* integer ≥ 2; got 4\.5"),
    ],
)
def test_more_bad_input_names_parameter_value_and_range(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@given(
    st.one_of(st.just(0.0), st.floats(min_value=1e-4, max_value=0.99)),
    st.floats(min_value=1e-3, max_value=1.0),
    r_tilde,
)
def test_profiles_15_and_16_never_recommend_less_than_the_constant_profile(a, x, r):
    # Section 4: "the ε selected under these two profiles is bounded below by log(r̃)/2"
    floor = 0.5 * math.log(r) - 1e-12
    assert kr.epsilon_inclusion_profile(a, x, r) >= floor
    if a > 0:
        assert kr.epsilon_values_profile(a, x, r) >= floor


def test_table1_baselines_are_less_than_half_of_the_recommendations():
    # Section 4: the constant profile gives "less than half the corresponding ε values in Table 1"
    for r in (1.5, 3.0, 6.0):
        assert (
            float(kr.epsilon_constant_profile(r)) < kr.epsilon_inclusion_profile(0.25, 1.0, r) / 2
        )


def test_table4_closed_forms_broadcast_over_arrays():
    # several closed forms raised TypeError on arrays (math.log of an array)
    a = np.array([0.05, 0.25, 0.4])
    q = np.array([[0.01], [0.3], [1.0]])
    table = kr.epsilon_inclusion_profile(a, q, 3.0)
    assert table.shape == (3, 3)
    for i in range(3):
        for j in range(3):
            assert table[i, j] == kr.epsilon_inclusion_profile(float(a[j]), float(q[i, 0]), 3.0)
    p = np.array([0.01, 0.05, 0.5, 1.0])
    values = kr.epsilon_values_profile(0.15, p, 3.0)
    assert values.tolist() == [kr.epsilon_values_profile(0.15, float(x), 3.0) for x in p]
    boxes = kr.epsilon_box_profile(2.0, 0.0, 1.0, np.array([0.1, 0.5, 1.0]), 1.0)
    assert boxes.tolist() == [
        kr.epsilon_box_profile(2.0, 0.0, 1.0, x, 1.0) for x in (0.1, 0.5, 1.0)
    ]
    n = np.array([4, 10, 100])
    assert kr.epsilon_lee_clifton_setting(n, 0.5).tolist() == [
        kr.epsilon_lee_clifton_setting(int(k), 0.5) for k in n
    ]


def test_epsilon_values_profile_accepts_a_tilde_zero_like_values_profile():
    # the profile accepted ã = 0 while its closed form refused it (the dashboard patched it)
    closed = kr.epsilon_values_profile(0.0, 0.3, 3.0)
    numeric = kr.recommend_epsilon(kr.values_profile(0.0, 0.3, 3.0), p=0.3)
    assert numeric == pytest.approx(closed, abs=1e-9)
