"""The staircase mechanism (helpers/mechanisms/staircase.py) against an independent exact
computation: its δ(ε), variance and E|Z| as mpmath sums over its steps (40 digits), straight
from the definition of the density (Geng & Viswanath 2016), never from the class's formulas.
The rest of its contract runs in the battery of test_mechanisms.py (its row of EXAMPLES)."""

from __future__ import annotations

import bisect
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from helpers import mechanisms as m

mpmath = pytest.importorskip("mpmath")


def _pieces(b: float, d: float, periods: int):
    """The steps of the density on [0, periods·Δ): (left end, width, density) in mpmath, from
    the definition: a·β^k on [kΔ, (k + γ)Δ), a·β^(k+1) on [(k + γ)Δ, (k + 1)Δ)."""
    b, d = mpmath.mpf(b), mpmath.mpf(d)
    eps = d / b
    beta = mpmath.exp(-eps)
    gamma = 1 / (1 + mpmath.exp(eps / 2))
    a = (1 - beta) / (2 * d * (gamma + (1 - gamma) * beta))
    for k in range(periods):
        yield k * d, gamma * d, a * beta**k
        yield (k + gamma) * d, (1 - gamma) * d, a * beta ** (k + 1)


def _density(pieces):
    """p(x) for any real x (symmetric), by looking x up among the pieces."""

    lefts = [left for left, _, _ in pieces]
    end = pieces[-1][0] + pieces[-1][1]

    def p(x):
        x = abs(x)
        if x >= end:
            return mpmath.mpf(0)
        return pieces[bisect.bisect_right(lefts, x) - 1][2]

    return p


def _exact_delta(eps: float, b: float, d: float) -> float:
    """∫ max(0, p(o) − e^ε p(o − Δ)) do: both densities are constant between the union of
    their breakpoints, so the integral is a finite sum of widths times the positive part."""
    with mpmath.workdps(40):
        periods = math.ceil(60 * b / d) + 4  # the mass beyond is below e^-60
        pieces = list(_pieces(b, d, periods))
        p = _density(pieces)
        dd = mpmath.mpf(d)
        edges = set()
        for left, width, _ in pieces:
            for x in (left, left + width):
                edges.update({x, -x, x + dd, -x + dd})
        edges = sorted(edges)
        total = mpmath.mpf(0)
        for lo, hi in itertools.pairwise(edges):
            mid = (lo + hi) / 2
            gap = p(mid) - mpmath.exp(eps) * p(mid - dd)
            if gap > 0:
                total += (hi - lo) * gap
        return float(total)


def _exact_moment(power: int, b: float, d: float) -> float:
    """E|Z|^power = 2 Σ over the steps of value · ∫ x^power dx, in 40 digits."""
    with mpmath.workdps(40):
        periods = math.ceil(80 * b / d) + 4
        total = mpmath.fsum(
            value * ((left + width) ** (power + 1) - left ** (power + 1)) / (power + 1)
            for left, width, value in _pieces(b, d, periods)
        )
        return float(2 * total)


@pytest.mark.parametrize(("b", "d"), [(1.0, 1.0), (0.6, 2.5), (2.0, 0.5), (0.25, 1.0)])
def test_delta_against_an_exact_sum_over_its_steps(b, d):
    mech = m.Staircase(b, sensitivity=d)
    bound = float(mech.loss_bound())
    for eps in (0.0, 0.1, 0.5, 0.9 * bound, bound):
        assert float(mech.delta(eps)) == pytest.approx(
            _exact_delta(eps, b, d), rel=1e-12, abs=1e-16
        )


@pytest.mark.parametrize(("b", "d"), [(1.0, 1.0), (0.6, 2.5), (3.0, 0.7)])
def test_variance_and_mean_magnitude_against_exact_sums(b, d):
    mech = m.Staircase(b, sensitivity=d)
    assert float(m.Staircase.noise_variance(b, sensitivity=d)) == pytest.approx(
        _exact_moment(2, b, d), rel=1e-12
    )
    assert float(mech.mean_abs()) == pytest.approx(_exact_moment(1, b, d), rel=1e-12)


@pytest.mark.parametrize("eps", [0.3, 1.0, 2.0, 5.0])
def test_its_gamma_minimises_the_expected_magnitude_and_it_beats_laplace(eps):
    """γ* = 1/(1 + e^{ε/2}) minimises E|Z| over γ (numerically), and at the same ε the
    staircase's E|Z| and variance are below Laplace's b = Δ/ε and 2b²."""
    beta = math.exp(-eps)

    def mean_abs(gamma):  # E|Z|/Δ of the staircase with step γ: the moment sum above, summed
        return beta / (1 - beta) + (gamma**2 + beta * (1 - gamma**2)) / (
            2 * (gamma + (1 - gamma) * beta)
        )

    best = optimize.minimize_scalar(mean_abs, bounds=(1e-9, 1 - 1e-9), method="bounded")
    gamma = 1 / (1 + math.exp(eps / 2))
    assert best.x == pytest.approx(gamma, abs=1e-5)
    stair, laplace = m.Staircase.from_epsilon(eps), m.Laplace.from_epsilon(eps)
    assert float(stair.mean_abs()) == pytest.approx(mean_abs(gamma), rel=1e-12)
    assert float(stair.mean_abs()) < float(laplace.mean_abs())
    assert float(m.Staircase.noise_variance(stair.scale, sensitivity=1.0)) < float(
        m.Laplace.noise_variance(laplace.scale, sensitivity=1.0)
    )


def test_its_shape_depends_on_the_sensitivity():
    """At one scale b the steps are Δ wide: the noise at Δ = 2 is not the noise at Δ = 1, and
    the accuracy methods read the Δ they are given (the issue's 84.9 % against 84.7 %)."""
    one, two = m.Staircase(2.0, sensitivity=1.0), m.Staircase(2.0, sensitivity=2.0)
    assert float(one.sf(1.5)) != pytest.approx(float(two.sf(1.5)), rel=1e-3)
    covered = m.Staircase.noise_coverage(2.0, 3.0, sensitivity=2.0)
    assert float(covered) == pytest.approx(1 - 2 * float(two.sf(3.0)), rel=1e-13)
    assert float(covered) != pytest.approx(1 - 2 * float(one.sf(3.0)), rel=1e-3)
    assert not m.Staircase.scale_free


def test_its_samples_fall_on_its_steps():
    """Draws fill each step in proportion to its mass (a χ² reading at a fixed seed)."""
    from scipy import stats

    mech = m.Staircase(1.0, sensitivity=1.0)
    z = np.asarray(mech.sample(40_000, rng=5))
    edges = mech.breakpoints(-6.0, 6.0)
    counts, _ = np.histogram(z, bins=edges)
    expected = np.diff(np.asarray(mech.cdf(edges)))
    expected = expected / expected.sum() * counts.sum()
    keep = expected > 20
    chi2 = float((((counts - expected) ** 2 / expected)[keep]).sum())
    assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-4


@settings(max_examples=60, deadline=None)
@given(
    k=st.floats(1e-3, 1e4),
    coverage=st.floats(0.01, 0.999999),
    d=st.floats(1e-2, 1e3),
)
def test_its_fast_accuracy_search_agrees_with_the_generic_bisection(k, coverage, d):
    """The staircase's own accuracy search (a secant from the period bracket, issue 42 item 6:
    notebook 11's staircase move) against the base class's plain bisection: the same largest
    scale to 1e-9 relative, and the target holds at it; a vector gives each entry's answer."""
    cls, base = m.Staircase, m.AdditiveNoise
    fast = float(cls.accuracy_noise(k, coverage, sensitivity=d))
    slow = float(base.accuracy_noise.__func__(cls, k, coverage, sensitivity=d))
    assert fast == pytest.approx(slow, rel=1e-9)
    assert float(cls.noise_coverage(fast, k, sensitivity=d)) >= coverage
    ks = np.array([k, 2 * k, k / 3])
    many = np.asarray(cls.accuracy_noise(ks, coverage, sensitivity=d))
    alone = [float(cls.accuracy_noise(one, coverage, sensitivity=d)) for one in ks]
    np.testing.assert_allclose(many, alone, rtol=1e-9)
