"""The integer noises (helpers/mechanisms/discrete.py): the two-sided geometric's pmf, CDF,
survival function, SD, mass at zero and sampler, exact in both tails and at tiny ε."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from helpers import mechanisms as m

mpmath = pytest.importorskip("mpmath")

eps_st = st.floats(min_value=0.05, max_value=5.0)


@given(eps_st, st.floats(min_value=0.5, max_value=3.0))
def test_geometric_pmf_sums_to_one_and_cdf_is_its_cumulative_sum(eps, delta):
    k = np.arange(-2000, 2001)
    b = m.geometric_scale(eps, sensitivity=delta)
    pmf = m.geometric_pmf(k, b)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-9)
    cdf = m.geometric_cdf(k, b)
    assert np.allclose(np.cumsum(pmf), cdf, atol=1e-9)
    # symmetric around zero, decreasing in |k|
    assert np.allclose(pmf, pmf[::-1])
    assert np.all(np.diff(pmf[2000:]) <= 0)


@given(eps_st)
def test_geometric_sd_and_prob_exact_match_the_pmf(eps):
    k = np.arange(-3000, 3001)
    b = m.geometric_scale(eps)
    pmf = m.geometric_pmf(k, b)
    sd = math.sqrt(float(np.sum(pmf * k**2)))
    assert m.geometric_noise_sd(b) == pytest.approx(sd, rel=1e-8)
    assert m.geometric_prob_exact(b) == pytest.approx(pmf[3000], rel=1e-12)
    assert m.geometric_prob_exact(b) == pytest.approx(math.tanh(eps / 2), rel=1e-12)


def test_geometric_values_from_the_paper_variance():
    # Kazan & Reiter, Definition 1: Var = 2e^{-ε}/(1 − e^{-ε})²
    eps = 1.0
    assert m.geometric_noise_sd(m.geometric_scale(eps)) ** 2 == pytest.approx(
        2 * math.exp(-1) / (1 - math.exp(-1)) ** 2
    )


def test_geometric_cdf_is_a_step_function():
    assert m.geometric_cdf(0.5, 1.0) == m.geometric_cdf(0, 1.0)
    assert m.geometric_cdf(-0.5, 1.0) == m.geometric_cdf(-1, 1.0)


def test_geometric_sampling_is_seeded_and_matches_the_pmf():
    a = m.geometric_sample(1.0, 200_000, rng=7)
    b = m.geometric_sample(1.0, 200_000, rng=np.random.default_rng(7))
    assert np.array_equal(a, b)
    assert a.dtype.kind == "i"
    assert a.std() == pytest.approx(m.geometric_noise_sd(1.0), rel=0.02)
    assert np.mean(a == 0) == pytest.approx(m.geometric_prob_exact(1.0), abs=0.005)
    assert abs(a.mean()) < 0.02


def test_geometric_sd_and_prob_exact_are_stable_for_tiny_epsilon():
    # 1 − α cancels for tiny ε; the helpers use expm1 / tanh
    eps = 1e-12
    b = m.geometric_scale(eps)
    assert m.geometric_noise_sd(b) == pytest.approx(math.sqrt(2) / eps, rel=1e-6)
    assert m.geometric_prob_exact(b) == pytest.approx(eps / 2, rel=1e-6)
    assert np.isfinite(m.geometric_noise_sd(1e300))


# --- regressions: careful numerics and the API contract (issue 13) -------------------------


def test_geometric_pmf_at_tiny_epsilon_is_not_zero():
    # (1 − α)/(1 + α) cancelled to 0 at ε = 1e-17 while P[Z = 0] = tanh(ε/2) = 5e-18
    b = m.geometric_scale(1e-17)
    assert m.geometric_pmf(0, b) == pytest.approx(5e-18, rel=1e-12)
    assert m.geometric_pmf(0, b) == m.geometric_prob_exact(b)
    assert m.geometric_pmf(3, b) == pytest.approx(5e-18, rel=1e-12)


@pytest.mark.parametrize("epsilon", [0.3, 1.0, 2.5])
def test_geometric_sample_follows_the_pmf_chi_square(epsilon):
    # a fixed seed makes this deterministic; a sampler with p = α instead of 1 − α (or a
    # one-sided geometric) gives a χ² in the thousands
    n = 100_000
    b = m.geometric_scale(epsilon)
    draws = m.geometric_sample(b, n, rng=20240611)
    k = np.arange(-8, 9)
    pmf = m.geometric_pmf(k, b)
    observed = np.array([np.sum(draws == j) for j in k] + [np.sum(np.abs(draws) > 8)])
    expected = n * np.append(pmf, 2 * m.geometric_sf(8, b))
    keep = expected >= 5
    chi2 = float(np.sum((observed[keep] - expected[keep]) ** 2 / expected[keep]))
    assert chi2 < float(stats.chi2.isf(1e-6, keep.sum() - 1))


def test_geometric_cdf_and_sf_are_exact_in_both_tails():
    eps = 1.0
    alpha = math.exp(-eps)
    # P[Z > k] = α^{k+1}/(1+α): 1 − cdf would give 0 from k ≈ 37 on
    assert m.geometric_sf(100, eps) == pytest.approx(alpha**101 / (1 + alpha), rel=1e-12)
    assert m.geometric_cdf(-100, eps) == pytest.approx(alpha**100 / (1 + alpha), rel=1e-12)
    assert m.geometric_cdf(2, eps) + m.geometric_sf(2, eps) == pytest.approx(1.0, abs=1e-16)


def test_geometric_without_noise_is_a_point_mass():
    # 1/b overflows to inf (b = Δ/ε = 5e-324): 0·inf was NaN in the CDF and the pmf
    assert m.geometric_cdf([-1, 0, 3], 5e-324).tolist() == [0.0, 1.0, 1.0]
    assert m.geometric_pmf([-1, 0, 3], 5e-324).tolist() == [0.0, 1.0, 0.0]
    assert m.geometric_scale(1.0, sensitivity=5e-324) == 5e-324


@given(st.floats(1 / 1480, 1e6))
def test_geometric_sd_where_it_is_representable(scale):
    # √(2e^{−a}) underflowed at a = 1/b ≈ 745 (SD 0 at b = 1e-3, truth 1e-217)
    a = 1 / mpmath.mpf(scale)
    exact = mpmath.sqrt(2 * mpmath.exp(-a)) / -mpmath.expm1(-a)
    assert m.geometric_noise_sd(scale) == pytest.approx(float(exact), rel=1e-13)


def test_geometric_sd_at_a_tiny_scale_is_not_zero():
    assert m.geometric_noise_sd(1e-3) == pytest.approx(math.sqrt(2) * math.exp(-500), rel=1e-13)


# --- the mechanisms as objects (issue 18) ---------------------------------------------------


# --- the discrete Gaussian's tail: Euler–Maclaurin from σ = 64, summed below ---------------


@given(
    sigma=st.floats(min_value=64.0, max_value=20000.0),
    share=st.floats(min_value=0.0, max_value=1.0),
)
def test_the_tail_series_agrees_with_the_sum_wherever_it_is_used(sigma, share):
    """The series replaces the term-by-term sum for σ ≥ EM_MIN_SIGMA and m ≤ EM_MAX_T·σ√2: the
    two paths agree there (to rounding of a sum of thousands of terms), at the edges included."""
    from helpers.mechanisms import discrete

    top = discrete.EM_MAX_T * math.sqrt(2.0) * sigma
    for k in (math.floor(share * top), 0, math.floor(top)):
        k, s = np.array([float(k)]), np.array([sigma])
        series = discrete._dg_log_tail_em(k, s)[0]
        summed = discrete._dg_log_tail_summed(k, s)[0]
        assert series == pytest.approx(summed, rel=1e-12, abs=1e-12), (sigma, k)


@pytest.mark.parametrize("sigma", [5e-324, 1e-300, 1e-160, 1e-154, 1e-20, 0.05])
def test_the_tail_at_a_vanishing_sigma_is_its_limit_without_a_warning(sigma):
    """Where 2σ² underflows to 0 (a search's lower end: a ratio mean's plan bisects from
    there), ln S(m) is its limit, 0 at m = 0 (the j = 0 term) and −inf beyond, never NaN or a
    division warning; the noise then covers every k ≥ 0 with probability 1."""
    import warnings

    from helpers.mechanisms import discrete

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tails = discrete._dg_log_tail(np.array([0.0, 1.0, 7.0]), np.array([sigma] * 3))
        covered = m.DiscreteGaussian.noise_coverage(
            np.array([sigma] * 2), np.array([0.0, 2.0]), sensitivity=1.0
        )
        reach = m.DiscreteGaussian.noise_reach(sigma, 0.975, sensitivity=1.0)
    with np.errstate(divide="ignore", over="ignore"):
        first = -np.divide(1.0, 2 * sigma * sigma)  # ln of S(1)'s first term, −inf at the limit
    assert tails[0] == pytest.approx(0.0, abs=1e-300) and tails[2] <= tails[1] <= first * (1 - 1e-9)
    assert covered.tolist() == [1.0, 1.0] and reach == 0.0


def test_the_tail_is_continuous_where_it_changes_path():
    """Across σ = EM_MIN_SIGMA and m = EM_MAX_T·σ√2, where _dg_log_tail switches between the
    series and the sum, ln S moves as little as its arguments do (no step)."""
    from helpers.mechanisms import discrete

    s0 = discrete.EM_MIN_SIGMA
    below, at = np.nextafter(s0, 0.0), s0
    for m_ in (0.0, 50.0, 300.0):
        a = discrete._dg_log_tail(np.array([m_]), np.array([below]))[0]
        b = discrete._dg_log_tail(np.array([m_]), np.array([at]))[0]
        assert a == pytest.approx(b, rel=1e-12, abs=1e-12)
    edge = math.floor(discrete.EM_MAX_T * math.sqrt(2.0) * 100.0)
    inside = discrete._dg_log_tail(np.array([float(edge)]), np.array([100.0]))[0]
    outside = discrete._dg_log_tail(np.array([float(edge + 1)]), np.array([100.0]))[0]
    summed = discrete._dg_log_tail_summed(np.array([float(edge + 1)]), np.array([100.0]))[0]
    assert outside == summed and inside > outside
    step = discrete._dg_log_tail_summed(np.array([float(edge)]), np.array([100.0]))[0]
    assert inside == pytest.approx(step, rel=1e-12)
