"""helpers.foundations.mean_of_bits: Laplace's variance 2b², the exact tail against Chebyshev."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F

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


def test_mean_of_bits_error_tail_tracks_the_exact_laplace_tail():
    # the simulated tail of |p̂ − p̄| is e^{−t/b} (b = 1/(nε)) up to sampling error
    t = np.array([0.0, 0.005, 0.01, 0.02])
    tail = F.mean_of_bits_error_tail(100, 1.0, 0.4, t, reps=200_000, rng=3)
    np.testing.assert_allclose(tail, F.laplace_tail_probability(t, 0.01), atol=0.005)
    assert tail[0] == 1.0


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
