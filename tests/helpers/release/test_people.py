"""helpers.release.people: group privacy, the per-person sensitivity, clipping, δ against n, small groups."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from helpers import budget as B
from helpers import release as R

# --- group privacy against brute force on small discrete mechanisms ----------------------------


def _worlds(bits: int) -> np.ndarray:
    return np.array(list(itertools.product((0, 1), repeat=bits)))


def _hockey(p: np.ndarray, q: np.ndarray, epsilon: float) -> float:
    """δ(ε) = Σ max(0, p − e^ε q) of two finite output distributions, exactly as written."""
    return float(np.maximum(p - np.exp(epsilon) * q, 0.0).sum())


def _pairs(worlds: np.ndarray, distance: int):
    for i, j in itertools.permutations(range(len(worlds)), 2):
        if int(np.abs(worlds[i] - worlds[j]).sum()) == distance:
            yield i, j


def _clamped_geometric(bits: int, alpha: float, pad: int) -> np.ndarray:
    """P[output = o | world] for the count of ones plus two-sided geometric noise, clamped."""
    outputs = np.arange(-pad, bits + pad + 1)
    table = []
    for world in _worlds(bits):
        count = world.sum()
        pmf = (1 - alpha) / (1 + alpha) * alpha ** np.abs(outputs - count).astype(float)
        pmf[0] += alpha ** (count + pad + 1) / (1 + alpha)  # the tail below, clamped
        pmf[-1] += alpha ** (bits + pad + 1 - count) / (1 + alpha)
        table.append(pmf)
    return np.array(table)


@pytest.mark.parametrize("size", [1, 2, 3])
def test_pure_group_privacy_is_m_epsilon_on_a_clamped_geometric(size):
    epsilon = 0.7
    table = _clamped_geometric(3, math.exp(-epsilon), pad=4)
    worlds = _worlds(3)
    worst = max(np.max(np.log(table[i] / table[j])) for i, j in _pairs(worlds, size))
    bound = R.group_privacy(epsilon, size=size)
    assert worst <= bound.epsilon + 1e-12
    assert worst == pytest.approx(size * epsilon, rel=1e-12)  # attained: a count moves by m
    assert bound.delta == 0.0


@pytest.mark.parametrize("seed", range(12))
def test_approximate_group_privacy_holds_on_random_mechanisms(seed):
    """Any mechanism on {0,1}³ with 6 outputs: its tight δ(ε) for neighbours, then the exact
    δ(mε) of groups of m is never above δ·Σ_{i<m} e^{iε}, nor that above m·e^{(m−1)ε}·δ."""
    rng = np.random.default_rng(seed)
    worlds = _worlds(3)
    table = rng.dirichlet(np.full(6, 0.7), size=len(worlds))
    epsilon = float(rng.uniform(0.05, 1.5))
    delta = max(_hockey(table[i], table[j], epsilon) for i, j in _pairs(worlds, 1))
    for size in (2, 3):
        exact = max(_hockey(table[i], table[j], size * epsilon) for i, j in _pairs(worlds, size))
        bound = R.group_privacy(epsilon, delta, size=size)
        assert bound.epsilon == pytest.approx(size * epsilon)
        assert exact <= bound.delta + 1e-15
        assert bound.delta <= size * math.exp((size - 1) * epsilon) * delta * (1 + 1e-12)


def test_group_privacy_limits_and_vectorisation():
    assert R.group_privacy(0.0, 1e-6, size=5).delta == pytest.approx(5e-6, rel=1e-14)
    assert R.group_privacy(0.3, 1e-6, size=1).delta == pytest.approx(1e-6, rel=1e-14)
    assert R.group_privacy(300.0, 1e-6, size=4).delta == 1.0  # capped, no overflow
    eps = np.array([0.0, 0.5, 2.0])
    g = R.group_privacy(eps, 1e-9, size=3)
    assert isinstance(g.delta, np.ndarray) and g.delta.shape == (3,)
    assert isinstance(R.group_privacy(0.5, 1e-9, size=3).delta, float)


@given(st.floats(0.0, 20.0), st.floats(1e-15, 1e-3), st.integers(1, 50))
@settings(max_examples=60, deadline=None)
def test_group_delta_is_never_below_the_exact_geometric_sum(epsilon, delta, size):
    import mpmath

    mpmath.mp.dps = 40
    exact = mpmath.mpf(delta) * mpmath.fsum(
        mpmath.e ** (i * mpmath.mpf(epsilon)) for i in range(size)
    )
    got = R.group_privacy(epsilon, delta, size=size).delta
    assert got >= min(float(exact), 1.0) or got == 1.0
    assert got <= float(exact) * (1 + 1e-12)


def test_group_rho_is_the_gaussian_of_m_times_the_sensitivity():
    sigma, sensitivity = 3.0, 1.0
    for size in (1, 2, 5, 7):
        exact = Fraction(size * size) * Fraction(sensitivity**2 / (2 * sigma**2))
        got = R.group_rho(sensitivity**2 / (2 * sigma**2), size=size)
        assert Fraction(got) >= exact
        assert got == pytest.approx((size * sensitivity) ** 2 / (2 * sigma**2), rel=1e-15)
    assert R.group_rho(0.0, size=3) == 0.0


# --- per person ----------------------------------------------------------------------------

SURVEY = [
    B.Release("count", k=30.0, label="smokers"),
    B.Release("sum", k=400.0, lower=0.0, upper=10.0, label="doctor visits"),
    B.Release("mean", k=2.0, lower=18.0, upper=90.0, n=2_000, label="mean age"),
]


@pytest.mark.parametrize("m", [1, 2, 3, 10])
def test_per_person_scales_the_budgets_by_m_laplace_and_m_squared_gaussian(m):
    one = B.budget_for_accuracy(SURVEY)
    many = B.budget_for_accuracy(R.per_person(SURVEY, contributions=m))
    np.testing.assert_allclose(many.budgets, m * one.budgets, rtol=1e-12)
    g_one = B.budget_for_accuracy(SURVEY, mechanism="gaussian")
    g_many = B.budget_for_accuracy(R.per_person(SURVEY, contributions=m), mechanism="gaussian")
    np.testing.assert_allclose(g_many.budgets, m * m * g_one.budgets, rtol=1e-12)
    for a, b in zip(R.per_person(SURVEY, contributions=m), SURVEY, strict=True):
        assert (a.kind, a.lower, a.upper, a.n, a.label) == (b.kind, b.lower, b.upper, b.n, b.label)


def test_per_person_never_rounds_the_sensitivity_down():
    work = [B.Release("mean", k=1.0, lower=0.0, upper=1.0, n=3)]
    (one,) = B.workload_sensitivities(work)
    (scaled,) = R.per_person(work, contributions=7)
    assert Fraction(scaled.sensitivity) >= 7 * Fraction(float(one))


# --- clipping ------------------------------------------------------------------------------


@given(st.lists(st.integers(0, 40), min_size=1, max_size=60), st.integers(1, 45))
@settings(max_examples=80, deadline=None)
def test_clipping_bias_is_the_share_of_records_dropped(counts, m):
    if sum(counts) == 0:
        return
    dropped = sum(max(0, c - m) for c in counts)
    assert R.clipping_bias(counts, contributions=m) == pytest.approx(
        dropped / sum(counts), abs=1e-15
    )


def test_contribution_tradeoff_against_the_laplace_quantile():
    rng = np.random.default_rng(3)
    counts = rng.negative_binomial(1, 0.25, size=500)
    m = np.arange(1, 16)
    t = R.contribution_tradeoff(counts, m, epsilon=0.5, coverage=0.9)
    expected_noise = stats.laplace.ppf(0.95, scale=m / 0.5)
    np.testing.assert_allclose(t.noise, expected_noise, rtol=1e-12)
    np.testing.assert_array_equal(t.bias, [np.maximum(counts - k, 0).sum() for k in m])
    np.testing.assert_allclose(t.total, t.bias + t.noise)


# --- δ against n ------------------------------------------------------------------------------


@pytest.mark.parametrize("delta,n", [(1e-6, 10**6), (1e-10, 330_000_000), (0.01, 50), (0.0, 10)])
def test_delta_exposure_against_exact_arithmetic(delta, n):
    import mpmath

    mpmath.mp.dps = 50
    exact = 1 - (1 - mpmath.mpf(delta)) ** n
    assert R.delta_exposure(delta, n) == pytest.approx(float(exact), rel=1e-12, abs=1e-300)


@given(st.floats(1, 1e12), st.floats(1e-12, 0.99))
@settings(max_examples=100, deadline=None)
def test_largest_delta_round_trip_never_exceeds_the_exposure(n, exposure):
    d = R.largest_delta(n, exposure=exposure)
    assert R.delta_exposure(d, n) <= exposure
    assert R.delta_exposure(d * (1 + 1e-9), n) >= exposure * (1 - 1e-6)


# --- small groups ---------------------------------------------------------------------------


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_group_error_matches_the_noise_quantile(mechanism):
    sizes = np.array([5.0, 50.0, 500.0])
    budget, coverage, m = 0.4, 0.9, 2
    if mechanism == "laplace":
        k_one = stats.laplace.ppf((1 + coverage) / 2, scale=1 / budget)
    else:
        k_one = stats.norm.ppf((1 + coverage) / 2, scale=1 / math.sqrt(2 * budget))
    got = R.group_error(
        sizes, budget=budget, kind="count", mechanism=mechanism, coverage=coverage, contributions=m
    )
    np.testing.assert_allclose(got, m * k_one / sizes, rtol=1e-9)


@given(st.floats(0.01, 10.0), st.floats(0.001, 2.0), st.sampled_from(["laplace", "gaussian"]))
@settings(max_examples=60, deadline=None)
def test_smallest_group_is_the_least_that_meets_the_accuracy(budget, accuracy, mechanism):
    n = R.smallest_group(budget=budget, kind="mean", accuracy=accuracy, mechanism=mechanism)
    err = lambda size: R.group_error(size, budget=budget, kind="mean", mechanism=mechanism)  # noqa: E731
    assert err(n) <= accuracy
    assert n == 1 or err(n - 1) > accuracy


def test_group_error_of_a_fraction_is_the_whole_groups_over_that_fraction():
    whole = R.group_error([10.0, 100.0], budget=0.3, kind="count")
    part = R.group_error([10.0, 100.0], budget=0.3, kind="count", fraction=0.2)
    np.testing.assert_allclose(part, whole / 0.2, rtol=1e-12)
    n = R.smallest_group(budget=0.3, kind="mean", accuracy=0.05, fraction=0.5)
    assert R.group_error(n, budget=0.3, kind="mean", fraction=0.5) <= 0.05
    assert R.group_error(n - 1, budget=0.3, kind="mean", fraction=0.5) > 0.05
    with pytest.raises(ValueError, match="fraction"):
        R.group_error(10, budget=0.3, kind="count", fraction=1.5)


def test_contribution_tradeoff_returns_integer_bounds():
    t = R.contribution_tradeoff([1, 2, 3, 9], [1.0, 2, 5], epsilon=1.0)
    assert t.contributions.dtype.kind == "i"
    assert t.contributions.tolist() == [1, 2, 5]
    assert all(type(m) is int for m in t.contributions.tolist())
    assert t.bias.dtype == float and t.noise.dtype == float
