"""Noise distributions: densities integrate to one, CDFs match them, samples match the moments."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate

from helpers import mechanisms as m

eps_st = st.floats(min_value=0.05, max_value=5.0)


@given(eps_st, st.floats(min_value=0.5, max_value=3.0))
def test_geometric_pmf_sums_to_one_and_cdf_is_its_cumulative_sum(eps, delta):
    k = np.arange(-2000, 2001)
    pmf = m.geometric_pmf(k, eps, delta)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-9)
    cdf = m.geometric_cdf(k, eps, delta)
    assert np.allclose(np.cumsum(pmf), cdf, atol=1e-9)
    # symmetric around zero, decreasing in |k|
    assert np.allclose(pmf, pmf[::-1])
    assert np.all(np.diff(pmf[2000:]) <= 0)


@given(eps_st)
def test_geometric_sd_and_prob_exact_match_the_pmf(eps):
    k = np.arange(-3000, 3001)
    pmf = m.geometric_pmf(k, eps)
    sd = math.sqrt(float(np.sum(pmf * k**2)))
    assert m.geometric_noise_sd(eps) == pytest.approx(sd, rel=1e-8)
    assert m.geometric_prob_exact(eps) == pytest.approx(pmf[3000], rel=1e-12)
    assert m.geometric_prob_exact(eps) == pytest.approx(math.tanh(eps / 2), rel=1e-12)


def test_geometric_values_from_the_paper_variance():
    # Kazan & Reiter, Definition 1: Var = 2e^{-ε}/(1 − e^{-ε})²
    eps = 1.0
    assert m.geometric_noise_sd(eps) ** 2 == pytest.approx(
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


@given(st.floats(min_value=0.1, max_value=5), st.floats(min_value=-3, max_value=3))
def test_laplace_pdf_integrates_to_cdf(scale, loc):
    # integrate each smooth half separately: quad misjudges the kink at loc otherwise
    left, _ = integrate.quad(lambda x: m.laplace_pdf(x, loc, scale), -np.inf, loc)
    right, _ = integrate.quad(lambda x: m.laplace_pdf(x, loc, scale), loc, np.inf)
    assert left + right == pytest.approx(1.0, abs=1e-7)
    x = loc + scale * 0.7
    middle, _ = integrate.quad(lambda t: m.laplace_pdf(t, loc, scale), loc, x)
    part = left + middle
    assert m.laplace_cdf(x, loc, scale) == pytest.approx(part, abs=1e-7)


def test_laplace_cdf_has_no_overflow_far_out():
    out = m.laplace_cdf(np.array([-1e6, 0.0, 1e6]), 0.0, 1e-3)
    assert np.all(np.isfinite(out))
    assert out.tolist() == [0.0, 0.5, 1.0]


def test_laplace_scale_sd_and_sampling():
    assert m.laplace_scale(0.5, 2.0) == pytest.approx(4.0)
    assert m.laplace_noise_sd(2.0) == pytest.approx(2 * math.sqrt(2))
    x = m.laplace_sample(1.0, 2.0, 200_000, rng=3)
    assert np.array_equal(x, m.laplace_sample(1.0, 2.0, 200_000, rng=3))
    assert x.mean() == pytest.approx(1.0, abs=0.03)
    assert x.std() == pytest.approx(m.laplace_noise_sd(2.0), rel=0.02)


@given(st.floats(min_value=0.1, max_value=5), st.floats(min_value=-3, max_value=3))
def test_gaussian_pdf_and_cdf(sigma, loc):
    total, _ = integrate.quad(lambda x: m.gaussian_pdf(x, loc, sigma), -np.inf, np.inf)
    assert total == pytest.approx(1.0, abs=1e-7)
    assert m.gaussian_cdf(loc, loc, sigma) == pytest.approx(0.5)
    assert m.gaussian_cdf(loc + 1.959963984540054 * sigma, loc, sigma) == pytest.approx(0.975)


def test_gaussian_sampling():
    x = m.gaussian_sample(2.0, 3.0, 200_000, rng=11)
    assert np.array_equal(x, m.gaussian_sample(2.0, 3.0, 200_000, rng=11))
    assert x.mean() == pytest.approx(2.0, abs=0.05)
    assert x.std() == pytest.approx(3.0, rel=0.02)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: m.geometric_pmf(0, 0.0), r"^epsilon must be > 0"),
        (lambda: m.geometric_pmf(0.5, 1.0), r"^k must hold integers"),
        (lambda: m.geometric_pmf(0, 1.0, -1), r"^sensitivity must be > 0"),
        (lambda: m.geometric_noise_sd(-1.0), r"^epsilon must be > 0"),
        (lambda: m.geometric_prob_exact(math.nan), r"^epsilon must be finite"),
        (lambda: m.geometric_sample(1.0, 3, rng=None), r"^rng must be an int seed"),
        (lambda: m.laplace_scale(0.0), r"^epsilon must be > 0"),
        (lambda: m.laplace_pdf(0.0, 0.0, 0.0), r"^scale must be > 0"),
        (lambda: m.laplace_cdf("x"), r"^x must be a real number"),
        (lambda: m.laplace_sample(size=3, rng=1.5), r"^rng must be an int seed"),
        (lambda: m.gaussian_pdf(0.0, 0.0, -1.0), r"^sigma must be > 0"),
        (lambda: m.gaussian_cdf(np.inf), r"^x must be finite"),
        (lambda: m.gaussian_sample(0.0, 0.0, 3, rng=1), r"^sigma must be > 0"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_geometric_sd_and_prob_exact_are_stable_for_tiny_epsilon():
    # 1 − α cancels for tiny ε; the helpers use expm1 / tanh
    eps = 1e-12
    assert m.geometric_noise_sd(eps) == pytest.approx(math.sqrt(2) / eps, rel=1e-6)
    assert m.geometric_prob_exact(eps) == pytest.approx(eps / 2, rel=1e-6)
    assert np.isfinite(m.geometric_noise_sd(1e-300))
