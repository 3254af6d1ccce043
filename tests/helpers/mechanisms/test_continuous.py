"""The continuous noises (helpers/mechanisms/continuous.py): Laplace and Gaussian densities,
CDFs, survival functions and samplers; the Gaussian δ on the safe side deep in the tail."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, stats

from helpers import mechanisms as m

mpmath = pytest.importorskip("mpmath")


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
    assert m.laplace_scale(0.5, sensitivity=2.0) == pytest.approx(4.0)
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


def test_laplace_and_gaussian_survival_functions_keep_the_tail():
    assert m.laplace_sf(50.0) == pytest.approx(0.5 * math.exp(-50), rel=1e-12)
    assert m.gaussian_sf(20.0) == pytest.approx(float(stats.norm.sf(20.0)), rel=1e-12)
    assert m.gaussian_sf(20.0) > 0 and 1 - m.gaussian_cdf(20.0) == 0


@pytest.mark.parametrize(
    "call",
    [
        lambda: m.laplace_pdf(0.0, math.nan),
        lambda: m.laplace_cdf(0.0, math.inf),
        lambda: m.gaussian_pdf(0.0, "1"),
        lambda: m.gaussian_cdf(0.0, math.nan),
        lambda: m.laplace_sample(math.nan, 1.0, 3, rng=1),
    ],
)
def test_loc_is_checked(call):
    # regression: NaN in, NaN out
    with pytest.raises(ValueError, match=r"^loc must be"):
        call()


def test_sensitivity_is_keyword_only():
    with pytest.raises(TypeError):
        m.laplace_scale(1.0, 2.0)  # type: ignore[misc]
    assert m.laplace_scale(1.0, sensitivity=2.0) == 2.0


@given(st.lists(st.floats(1e-3, 1e3), min_size=1, max_size=6), st.floats(1e-3, 1e3))
def test_the_scale_falls_with_epsilon_and_the_vector_is_the_scalars(epsilons, delta_f):
    eps = np.sort(np.array(epsilons))
    scale = m.laplace_scale(eps, sensitivity=delta_f)
    assert np.all(np.diff(scale) <= 0)
    np.testing.assert_array_equal(scale, [m.laplace_scale(e, sensitivity=delta_f) for e in eps])


huge = st.floats(-1.7e308, 1.7e308) | st.sampled_from([1e308, -1e308, 1.7e308, -1.7e308])


@given(x=huge, loc=huge, log_scale=st.floats(-300, 308))
def test_distribution_functions_when_x_minus_loc_overflows(x, loc, log_scale):
    # x − loc = ±inf for x, loc near ±1e308 of opposite signs: cdf/sf were 0 or 1 and the pdf
    # 0 even where the standardised point (x − loc)/scale is an ordinary number
    scale = 10.0**log_scale
    exact = (Fraction(x) - Fraction(loc)) / Fraction(scale)
    try:
        z = float(exact)
    except OverflowError:
        z = math.inf if exact > 0 else -math.inf
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)  # pdf at a tiny b
        got = {
            "laplace_cdf": m.laplace_cdf(x, loc, scale),
            "laplace_sf": m.laplace_sf(x, loc, scale),
            "gaussian_cdf": m.gaussian_cdf(x, loc, scale),
            "gaussian_sf": m.gaussian_sf(x, loc, scale),
            "laplace_pdf": m.laplace_pdf(x, loc, scale),
            "gaussian_pdf": m.gaussian_pdf(x, loc, scale),
        }
    with np.errstate(over="ignore", under="ignore"):  # z² of a huge z: the density is 0
        expected = {
            "laplace_cdf": stats.laplace.cdf(z),
            "laplace_sf": stats.laplace.sf(z),
            "gaussian_cdf": stats.norm.cdf(z),
            "gaussian_sf": stats.norm.sf(z),
            "laplace_pdf": stats.laplace.pdf(z) / scale,
            "gaussian_pdf": stats.norm.pdf(z) / scale,
        }
    for name, value in got.items():
        # within a few units of the standardised point (the halves round once more); a
        # density below the normal doubles only to within their spacing
        assert value == pytest.approx(expected[name], rel=1e-12 * max(1.0, abs(z)), abs=1e-300), (
            name
        )


def test_distribution_functions_at_the_ends_of_the_doubles():
    assert m.laplace_sf(1e308, -1e308, 1e308) == pytest.approx(0.5 * math.exp(-2), rel=1e-15)
    assert m.gaussian_cdf(-1e308, 1e308, 1e308) == pytest.approx(stats.norm.cdf(-2), rel=1e-15)
    assert m.laplace_pdf(1e308, -1e308, 1e308) == pytest.approx(0.5 * math.exp(-2) / 1e308)


# ------------------------------------ the Gaussian δ on the safe side, deep in the tail (issue 29)


def _exact_gaussian_delta(epsilon: float, sigma: float) -> tuple:
    """(δ₂, δ₁) of the Gaussian mechanism (Δ = 1) in 60-digit arithmetic (Balle & Wang, Thm 8)."""
    mpmath.mp.dps = 60
    e, s = mpmath.mpf(epsilon), mpmath.mpf(sigma)
    a, b = 1 / (2 * s) - e * s, -1 / (2 * s) - e * s
    return mpmath.ncdf(a) - mpmath.exp(e) * mpmath.ncdf(b), mpmath.ncdf(a)


@given(
    epsilon=st.one_of(st.just(0.0), st.floats(1e-12, 300.0)),
    log_sigma=st.floats(math.log(1e-3), math.log(1e6)),
)
def test_gaussian_delta_is_never_below_the_exact_value(epsilon, log_sigma):
    sigma = math.exp(log_sigma)
    exact, exact_naive = _exact_gaussian_delta(epsilon, sigma)
    g = m.Gaussian(sigma)
    for ours, true in ((g.delta(epsilon), exact), (g.delta_naive(epsilon), exact_naive)):
        assert mpmath.mpf(ours) >= min(true, 1) or true < 1e-300  # below that δ is subnormal
        # and above it by no more than the margin (at most 1e-6, about 1e-11 at δ = 1e-300)
        assert mpmath.mpf(ours) <= true * (1 + mpmath.mpf(2e-6)) + mpmath.mpf(1e-300)


@given(
    epsilon=st.floats(0.0, 100.0),
    log10_delta=st.floats(-300.0, -0.5),
)
def test_gaussian_from_epsilon_round_trips_on_the_safe_side(epsilon, log10_delta):
    # at ε = 50, δ = 1e-300 the float δ was 2.7e-13 relative low and σ a hair too small
    target = 10.0**log10_delta
    try:
        sigma = m.Gaussian.from_epsilon(epsilon, target).sigma
    except ValueError as error:  # σ > 1e6·Δ is refused, as documented
        assert "needs σ > 1e6·Δ" in str(error)
        return
    exact, _ = _exact_gaussian_delta(epsilon, sigma)
    assert exact <= target
    # and σ is the smallest such to a relative 1e-9
    smaller, _ = _exact_gaussian_delta(epsilon, sigma * (1 - 1e-9))
    assert smaller > target


@pytest.mark.parametrize("sigma", [0.05, 0.8, 3.7, 1e3, 1e17])
def test_the_gaussian_delta_of_a_vector_is_its_scalars_bit_for_bit(sigma):
    """Each of δ's three forms is taken only where it applies, element by element: a vector of
    ε that mixes them (narrow [b, a] and not) gives each ε's own value, to the last bit."""
    g = m.Gaussian(sigma)
    eps = np.r_[0.0, 1e-17, np.geomspace(1e-9, 300.0, 200), 2 / sigma**2]
    np.testing.assert_array_equal(g.delta(eps), [g.delta(float(e)) for e in eps])
    np.testing.assert_array_equal(g.delta(eps[::-1]), g.delta(eps)[::-1])
