"""Tests of helpers.foundations: the sources' numbers, hand-computed values, properties."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F
from helpers.mechanisms import laplace_pdf, laplace_scale

finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)
eps_st = st.floats(min_value=0.01, max_value=10.0)


# --- neighbouring data sets and sensitivity ---------------------------------------------


@pytest.mark.parametrize("kind", ["bounded", "unbounded"])
@pytest.mark.parametrize("n", [2, 18, 150])
def test_bits_sensitivity(kind, n):
    assert F.bits_query_sensitivity(n, "sum", kind) == pytest.approx(1.0)
    # the survey's Δ = 1/n for the mean
    assert F.bits_query_sensitivity(n, "mean", kind) == pytest.approx(1.0 / n)


def test_bits_sensitivity_bad_input():
    with pytest.raises(ValueError, match="query"):
        F.bits_query_sensitivity(5, "median")
    with pytest.raises(ValueError, match="kind"):
        F.bits_query_sensitivity(5, "sum", "swap")
    with pytest.raises(ValueError, match="n must be an integer"):
        F.bits_query_sensitivity(0)


# --- Laplace ratio ----------------------------------------------------------------------------


def test_survey_laplace_example_ratio():
    ex = F.SURVEY_LAPLACE_EXAMPLE
    eps = 0.7
    z = np.linspace(-50, 80, 2601)
    r = F.laplace_ratio(z, ex["y1"], ex["y2"], eps, sensitivity=ex["sensitivity"])
    # = e^ε left of [y1, y2], e^{-ε} right of it, in between inside the band
    assert np.allclose(r[z <= ex["y1"]], math.exp(eps))
    assert np.allclose(r[z >= ex["y2"]], math.exp(-eps))
    inside = (z > ex["y1"]) & (z < ex["y2"])
    assert np.all((r[inside] < math.exp(eps)) & (r[inside] > math.exp(-eps)))
    # agrees with the quotient of the densities from helpers.mechanisms
    b = ex["sensitivity"] / eps
    direct = laplace_pdf(z, ex["y1"], b) / laplace_pdf(z, ex["y2"], b)
    assert np.allclose(r, direct)


@given(z=finite, y1=finite, shift=st.floats(-1, 1), eps=eps_st, delta=st.floats(0.01, 100))
def test_laplace_log_ratio_within_epsilon(z, y1, shift, eps, delta):
    y2 = y1 + shift * delta  # neighbouring outputs: |y1 - y2| <= Δ
    lr = F.laplace_log_ratio(z, y1, y2, eps, sensitivity=delta)
    assert abs(lr) <= eps * (1 + 1e-9) + 1e-12


def test_laplace_ratio_finite_far_in_tail():
    assert F.laplace_ratio(1e6, 0, 1, 1.0) == pytest.approx(math.exp(-1))
    assert F.laplace_ratio(-1e6, 0, 1, 1.0) == pytest.approx(math.e)


def test_laplace_ratio_bad_input():
    with pytest.raises(ValueError, match="epsilon"):
        F.laplace_ratio(0, 0, 1, -1.0)
    with pytest.raises(ValueError, match="z must be finite"):
        F.laplace_ratio(float("nan"), 0, 1, 1.0)


# --- mean of bits -------------------------------------------------------------------------------


def test_mean_of_bits_scale_and_variance():
    assert F.mean_of_bits_scale(150, 1.0) == pytest.approx(1 / 150)
    # Var Laplace(b) = 2b²: 2/(ε²n²), NOT the survey's printed 1/(ε²n²)
    for n, eps in [(10, 1.0), (150, 0.5), (1000, 2.0)]:
        assert F.mean_of_bits_variance(n, eps) == pytest.approx(2 / (eps**2 * n**2))
        assert F.mean_of_bits_variance(n, eps) != pytest.approx(1 / (eps**2 * n**2))


def test_mean_of_bits_release_unbiased_and_variance_seeded():
    x = np.r_[np.ones(60), np.zeros(90)]  # n = 150, p = 0.4
    eps = 1.0
    draws = F.mean_of_bits_release(x, eps, size=200_000, rng=7)
    var = F.mean_of_bits_variance(150, eps)
    se = math.sqrt(var / draws.size)
    assert abs(draws.mean() - 0.4) < 5 * se
    # the empirical variance sits at 2/(ε²n²), far from 1/(ε²n²)
    assert draws.var() == pytest.approx(var, rel=0.02)
    assert abs(draws.var() - 1 / (eps * 150) ** 2) > 0.3 * var


def test_laplace_tail_vs_chebyshev():
    b = 0.1
    t = np.array([0.05, 0.1, 0.3, 1.0])
    exact = F.laplace_tail_probability(t, b)
    assert np.allclose(exact, np.exp(-t / b))
    cheb = F.chebyshev_bound(2 * b * b, t)
    assert np.all(exact <= cheb + 1e-15)
    # the exact tail at t = kb is e^{-k}: for k = 3, 0.0498 vs Chebyshev 2/9
    assert round(float(F.laplace_tail_probability(3 * b, b)), 4) == 0.0498
    assert float(F.chebyshev_bound(2 * b * b, 3 * b)) == pytest.approx(2 / 9)
    samples = np.random.default_rng(3).laplace(0, b, 100_000)
    emp = (np.abs(samples)[:, None] >= t).mean(axis=0)
    assert np.allclose(emp, exact, atol=0.005)


def test_mean_of_bits_bad_input():
    with pytest.raises(ValueError, match="only 0s and 1s"):
        F.mean_of_bits_release([0, 2], 1.0, rng=1)
    with pytest.raises(ValueError, match="epsilon"):
        F.mean_of_bits_variance(10, 0.0)
    with pytest.raises(ValueError, match="t must be >= 0"):
        F.laplace_tail_probability(-1, 1.0)
    with pytest.raises(ValueError, match="rng"):
        F.mean_of_bits_release([0, 1], 1.0, rng=None)


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


# --- exponential mechanism -----------------------------------------------------------------------


def test_survey_auction_revenues():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    # survey: $1 -> $3, $1.01 -> $1.01, $3.01 -> $3.01, $3.02 -> $0
    assert np.round(rev, 2).tolist() == [3.0, 1.01, 3.01, 0.0]
    assert F.auction_revenue_sensitivity(F.SURVEY_AUCTION_PRICES) == 3.02


def test_survey_auction_probabilities():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    delta = F.auction_revenue_sensitivity(F.SURVEY_AUCTION_PRICES)
    eps = 1.0
    probs = F.exponential_mechanism_probabilities(rev, eps, sensitivity=delta)
    by_hand = np.exp(eps * rev / (2 * delta))
    assert np.allclose(probs, by_hand / by_hand.sum())
    assert np.round(probs, 3).tolist() == [0.300, 0.216, 0.301, 0.183]
    assert round(float(F.expected_score(rev, eps, sensitivity=delta)), 3) == 2.025
    # ε -> 0: uniform; large ε: mass on the best price $3.01
    assert np.allclose(F.exponential_mechanism_probabilities(rev, 0.0, sensitivity=delta), 0.25)
    assert F.exponential_mechanism_probabilities(rev, 5000.0, sensitivity=delta)[2] > 0.99


def test_exponential_mechanism_vectorised_over_epsilon():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    grid = np.array([0.1, 1.0, 10.0])
    table = F.exponential_mechanism_probabilities(rev, grid, sensitivity=3.02)
    assert table.shape == (3, 4)
    for row, e in zip(table, grid, strict=True):
        assert np.allclose(row, F.exponential_mechanism_probabilities(rev, e, sensitivity=3.02))


scores_st = st.lists(st.floats(-100, 100), min_size=1, max_size=8)


@given(scores=scores_st, eps=st.floats(0, 20), delta=st.floats(0.1, 10), data=st.data())
def test_exponential_mechanism_sums_to_one_and_ratio(scores, eps, delta, data):
    s = np.array(scores)
    shifts = data.draw(st.lists(st.floats(-1, 1), min_size=s.size, max_size=s.size))
    s2 = s + np.array(shifts) * delta  # a neighbour: every score moves by at most Δ
    p1 = F.exponential_mechanism_probabilities(s, eps, sensitivity=delta)
    assert F.exponential_mechanism_probabilities(s2, eps, sensitivity=delta).sum() == pytest.approx(
        1.0
    )
    assert p1.sum() == pytest.approx(1.0)
    assert np.all(p1 >= 0)
    lp1 = F.exponential_mechanism_log_probabilities(s, eps, sensitivity=delta)
    lp2 = F.exponential_mechanism_log_probabilities(s2, eps, sensitivity=delta)
    assert np.allclose(np.exp(lp1), p1)
    lr = np.abs(lp1 - lp2)
    assert np.all(lr <= eps * (1 + 1e-9) + 1e-9)


def test_exponential_mechanism_no_overflow():
    p = F.exponential_mechanism_probabilities([1e6, 0.0], 1e3, sensitivity=1.0)
    assert np.all(np.isfinite(p)) and p[0] == pytest.approx(1.0)


def test_exponential_mechanism_sample_seeded():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    draws = F.exponential_mechanism_sample(rev, 1.0, sensitivity=3.02, size=100_000, rng=4)
    freq = np.bincount(draws, minlength=4) / draws.size
    assert np.allclose(
        freq, F.exponential_mechanism_probabilities(rev, 1.0, sensitivity=3.02), atol=0.005
    )


def test_auction_neighbour_ratio():
    # change the third bidder's valuation (a neighbouring data set): ratios stay within e^ε
    prices = np.array(F.SURVEY_AUCTION_PRICES)
    delta = F.auction_revenue_sensitivity(prices)
    base = F.auction_revenue(prices, F.SURVEY_AUCTION_BIDS)
    for v in [0.0, 1.0, 1.005, 3.02, 10.0]:
        nb = F.auction_revenue(prices, [1.0, 1.0, v])
        assert np.all(np.abs(base - nb) <= delta)
        p, q = (
            F.exponential_mechanism_probabilities(s, 0.8, sensitivity=delta) for s in (base, nb)
        )
        assert np.all(np.abs(np.log(p / q)) <= 0.8 + 1e-12)


def test_exponential_bad_input():
    with pytest.raises(ValueError, match="epsilon must be >= 0"):
        F.exponential_mechanism_probabilities([1, 2], -0.1)
    with pytest.raises(ValueError, match="sensitivity must be > 0"):
        F.exponential_mechanism_probabilities([1, 2], 1.0, sensitivity=0.0)
    with pytest.raises(ValueError, match="scores must be finite"):
        F.exponential_mechanism_probabilities([1, float("nan")], 1.0)
    with pytest.raises(ValueError, match="prices"):
        F.auction_revenue([], [1.0])


# --- ε-closeness ------------------------------------------------------------------------------------


def test_closeness_example_by_hand():
    ex = F.CLOSENESS_EXAMPLE
    labels, cats, p_l, p_q = F.class_distributions(ex["classes"], ex["sensitive"])
    assert labels.tolist() == ["C1", "C2", "C3"]
    assert cats.tolist() == ["Linux", "Windows", "macOS"]
    assert np.allclose(p_q, [3 / 12, 7 / 12, 2 / 12])
    assert np.allclose(p_l, [[1 / 2, 1 / 4, 1 / 4], [1 / 4, 1 / 2, 1 / 4], [0, 1, 0]])
    # variational distance, by hand: ½(1/4 + 1/3 + 1/12) = 1/3, ½(0 + 1/12 + 1/12) = 1/12,
    # ½(1/4 + 5/12 + 1/6) = 5/12
    assert np.allclose(F.variational_distance(p_l, p_q), [1 / 3, 1 / 12, 5 / 12])
    assert np.allclose(F.l1_distance(p_l, p_q), [2 / 3, 1 / 6, 5 / 6])
    assert np.allclose(
        F.l2_distance(p_l, p_q),
        np.sqrt([1 / 16 + 1 / 9 + 1 / 144, 2 / 144, 1 / 16 + 25 / 144 + 1 / 36]),
    )
    kl = [
        0.5 * math.log(2) + 0.25 * math.log(3 / 7) + 0.25 * math.log(3 / 2),
        0.25 * math.log(1) + 0.5 * math.log(6 / 7) + 0.25 * math.log(3 / 2),
        math.log(12 / 7),
    ]
    assert np.allclose(F.kl_divergence(p_l, p_q), kl)
    assert round(float(F.kl_divergence(p_l, p_q)[2]), 4) == 0.5390


@given(st.lists(st.floats(0.01, 1), min_size=2, max_size=6), st.data())
def test_distances_properties(a, data):
    p = np.array(a) / np.sum(a)
    b = data.draw(st.lists(st.floats(0.01, 1), min_size=len(a), max_size=len(a)))
    q = np.array(b) / np.sum(b)
    vd = F.variational_distance(p, q)
    assert 0 <= vd <= 1
    assert F.kl_divergence(p, q) >= -1e-12
    assert F.kl_divergence(p, p) == pytest.approx(0, abs=1e-12)
    # Pinsker: VD ≤ √(KL/2)
    assert vd <= math.sqrt(max(F.kl_divergence(p, q), 0) / 2) + 1e-9


def test_kl_infinite_not_nan():
    assert F.kl_divergence([0.5, 0.5], [1.0, 0.0]) == math.inf
    assert F.kl_divergence([1.0, 0.0], [0.5, 0.5]) == pytest.approx(math.log(2))


def test_closeness_bad_input():
    with pytest.raises(ValueError, match="p_l must sum to 1"):
        F.variational_distance([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match="same categories"):
        F.kl_divergence([0.5, 0.5], [0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="equal length"):
        F.class_distributions(["a", "b"], ["x"])
    with pytest.raises(ValueError, match="p_q must be >= 0"):
        F.l2_distance([1.0, 0.0], [1.5, -0.5])


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


def test_unbounded_mean_sensitivity_depends_on_the_smallest_size():
    """Among size-n data sets the mean moves by 1/n; for n = 1 or 2 by 1/2."""
    assert F.bits_query_sensitivity(1, "mean", "unbounded") == 0.5
    assert F.bits_query_sensitivity(2, "mean", "unbounded") == 0.5
    assert F.bits_query_sensitivity(18, "mean", "unbounded") == pytest.approx(1 / 18)


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


def test_exponential_mechanism_at_a_huge_epsilon_is_the_argmax_not_nan():
    # ε·s/(2Δ) overflowed to inf and log_softmax made inf − inf = NaN
    p = F.exponential_mechanism_probabilities([1.0, 3.0, 3.0, 2.0], 1e308)
    np.testing.assert_array_equal(p, [0.0, 0.5, 0.5, 0.0])
    assert F.expected_score([1.0, 3.0], 1.0, sensitivity=5e-324) == 3.0


def test_hypothesis_max_q_mirrors_the_lower_edge():
    p = np.linspace(0, 1, 11)
    np.testing.assert_allclose(F.hypothesis_max_q(p, 1.0), 1 - F.hypothesis_min_q(1 - p, 1.0))
    assert np.all(F.hypothesis_feasible(p, F.hypothesis_max_q(p, 1.0), 1.0, tol=1e-12))


def test_mean_of_bits_error_tail_tracks_the_exact_laplace_tail():
    # the simulated tail of |p̂ − p̄| is e^{−t/b} (b = 1/(nε)) up to sampling error
    t = np.array([0.0, 0.005, 0.01, 0.02])
    tail = F.mean_of_bits_error_tail(100, 1.0, 0.4, t, reps=200_000, rng=3)
    np.testing.assert_allclose(tail, F.laplace_tail_probability(t, 0.01), atol=0.005)
    assert tail[0] == 1.0


# --- inverses rounded toward privacy; finite inputs never NaN (issue 17) ---------------------

mpmath = pytest.importorskip("mpmath")


def _rr_epsilon_exact(alpha: float):
    """2·artanh(α) with enough digits to tell it from a double next to it (α ≈ 1e-300 too)."""
    digits = 40 + (0 if alpha == 0 else max(0, -2 * math.floor(math.log10(alpha))))
    with mpmath.workdps(digits):
        return 2 * mpmath.atanh(mpmath.mpf(alpha)), digits


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
    exact, digits = _rr_epsilon_exact(alpha)
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


@given(n=st.integers(1, 10**9), eps=st.floats(5e-324, 1.7e308))
def test_mean_of_bits_scale_is_rounded_up(n, eps):
    # b = fl(fl(1/n)/ε): both roundings could fall below 1/(nε), a mechanism above ε
    b = F.mean_of_bits_scale(n, eps)
    assert b == math.inf or 1 / (n * Fraction(b)) <= Fraction(eps)


def test_mean_of_bits_error_tail_at_a_billion_bits():
    # the n bits were built (8 GB at n = 1e9): a MemoryError; a scalar t gave a 0-d array
    tail = F.mean_of_bits_error_tail(10**9, 1.0, 0.4, 1e-9, reps=1000, rng=3)
    assert isinstance(tail, float) and 0.0 < tail < 1.0
    many = F.mean_of_bits_error_tail(10**9, 1.0, 0.4, [1e-9, 1.0], reps=1000, rng=3)
    assert many.shape == (2,) and many[0] == tail and many[1] == 0.0


def test_mean_of_bits_error_tail_is_the_releases_it_describes():
    # the same draws as mean_of_bits_release on the data it describes, without building them
    n, eps, p, t, reps = 40, 0.7, 0.25, [0.0, 0.01, 0.05, 0.2], 500
    x = np.r_[np.ones(10), np.zeros(30)]
    draws = F.mean_of_bits_release(x, eps, size=reps, rng=11)
    err = np.sort(np.abs(draws - x.mean()))
    expected = 1.0 - np.searchsorted(err, t, side="left") / reps
    np.testing.assert_array_equal(
        F.mean_of_bits_error_tail(n, eps, p, t, reps=reps, rng=11), expected
    )


@given(v=st.floats(0, 1e308), t=st.floats(5e-324, 1e308))
def test_chebyshev_bound_at_any_t(v, t):
    # t² underflowed at t < 1e-162: 0/0 = NaN (and v/0 an overflow warning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = F.chebyshev_bound(v, t)
    assert got == pytest.approx(float(min(Fraction(1), Fraction(v) / Fraction(t) ** 2)), rel=1e-15)


huge = st.floats(-1.7e308, 1.7e308) | st.sampled_from([1e308, -1e308, 1.7e308, -1.7e308])


@given(z=huge, y1=huge, y2=huge, eps=st.floats(1e-3, 1e3), delta=st.floats(1e-3, 1e3))
def test_laplace_log_ratio_at_any_finite_point(z, y1, y2, eps, delta):
    # z − y overflowed at ±1e308 (inf − inf), and far from y₁, y₂ the two rounded distances
    # lost |y₁ − y₂|; the log-ratio is (ε/Δ)(|z − y₂| − |z − y₁|), compared in exact arithmetic
    scale = Fraction(laplace_scale(eps, sensitivity=delta))
    exact = (abs(Fraction(z) - Fraction(y2)) - abs(Fraction(z) - Fraction(y1))) / scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = F.laplace_log_ratio(z, y1, y2, eps, sensitivity=delta)
    # to 1e-15 of the distances involved (inside [y₁, y₂] the two distances nearly cancel)
    size = (abs(Fraction(z) - Fraction(y1)) + abs(Fraction(z) - Fraction(y2))) / scale
    assert got == pytest.approx(_as_float(exact), rel=1e-12, abs=_as_float(size) * 1e-15)


def _as_float(exact: Fraction) -> float:
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


@given(
    st.lists(huge, min_size=2, max_size=5),
    st.floats(0, 1e3) | st.just(0.0),
    st.floats(1e-3, 1e3),
)
def test_exponential_mechanism_with_scores_near_the_ends_of_the_doubles(scores, eps, delta):
    # s − max(s) overflowed (1e308 − (−1e308)) and ε = 0 made 0·(−inf) = NaN
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log_p = F.exponential_mechanism_log_probabilities(scores, eps, sensitivity=delta)
        p = F.exponential_mechanism_probabilities(scores, eps, sensitivity=delta)
    assert not np.isnan(log_p).any() and p.sum() == pytest.approx(1.0)
    top = int(np.argmax(scores))
    for i, s in enumerate(scores):  # ln p_i − ln p_top = ε(s_i − s_top)/(2Δ), exactly
        exact = Fraction(eps) * (Fraction(s) - Fraction(scores[top])) / (2 * Fraction(delta))
        assert log_p[i] - log_p[top] == pytest.approx(_as_float(exact), rel=1e-9, abs=1e-6)


def test_exponential_mechanism_at_the_ends_of_the_doubles():
    assert F.exponential_mechanism_log_probabilities([1e308, -1e308], 1.0).tolist() == [0.0, -1e308]
    assert F.exponential_mechanism_probabilities([1e308, -1e308], 0.0).tolist() == [0.5, 0.5]
    assert F.expected_score([1e308, -1e308], 0.0) == 0.0


def test_fixed_data_is_a_bool_not_a_truthy_string():
    with pytest.raises(ValueError, match="fixed_data must be True or False; got 'False'"):
        F.rr_simulate_estimates(0.5, 18, 0.5, reps=5, rng=0, fixed_data="False")


@given(st.lists(st.floats(1e-6, 1.0), min_size=2, max_size=6), st.data())
def test_an_epsilon_reported_for_a_mechanism_is_never_below_its_true_value(weights, data):
    # rr_epsilon, discrete_max_log_ratio, group privacy kε and sequential composition Σε
    # were rounded to nearest: up to a unit below the mechanism's ε
    alpha = data.draw(st.floats(0.0, 1.0, exclude_max=True))
    exact, digits = _rr_epsilon_exact(alpha)
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
