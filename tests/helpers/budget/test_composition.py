"""helpers.budget.composition: pure ε and zCDP composition, advanced and optimal (KOV).

Cross-checks against OpenDP (make_composition over real count/sum/mean pipelines,
make_zCDP_to_approxDP) and Google's dp-accounting (the worst-case (ε, δ) PLD, the RDP
accountant), each on at least 20 cases; pessimism (never below the exact value) against closed
forms evaluated in 60-digit arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _modules import at_most
from _workloads import CASES, _random_workload
from hypothesis import given
from hypothesis import strategies as st

from helpers import budget as B
from helpers import deployments as dep

mpmath.mp.dps = 60


# --- pure ε and zCDP: exact sums, OpenDP --------------------------------------------------


@given(st.lists(st.floats(0, 1e6, allow_subnormal=False), min_size=1, max_size=30))
def test_compose_epsilon_is_the_smallest_double_at_or_above_the_exact_sum(values):
    exact = sum(Fraction(v) for v in values)
    total = B.compose_epsilon(values)
    assert Fraction(total) >= exact
    assert Fraction(math.nextafter(total, -math.inf)) < exact or total == 0
    assert B.compose_rho(values) == total


def test_compose_agrees_with_foundations_up_to_rounding():
    from helpers.foundations import sequential_composition_epsilon

    values = [0.1, 0.2, 0.3, 0.7]
    assert B.compose_epsilon(values) == pytest.approx(
        sequential_composition_epsilon(values), rel=1e-15
    )
    # rounded up from the exact sum, against a plain float sum: ordered up to that sum's rounding
    assert at_most(sequential_composition_epsilon(values), B.compose_epsilon(values), ulps=4)


def _opendp():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


def _opendp_composition(dp, workload, scales, mechanism: str, n: int):
    """OpenDP's own pipeline for each release: clamp to the bounds, sum or mean, add noise."""
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=n), dp.symmetric_distance()
    measurements = []
    for release, scale in zip(workload, scales, strict=True):
        bounds = (
            (0.0, 1.0) if release.kind == "count" else (float(release.lower), float(release.upper))
        )
        query = dp.t.then_mean() if release.kind == "mean" else dp.t.then_sum()
        noise = (dp.m.then_laplace if mechanism == "laplace" else dp.m.then_gaussian)(
            scale=float(scale)
        )
        measurements.append(space >> dp.t.then_clamp(bounds) >> query >> noise)
    return dp.c.make_composition(measurements)


@pytest.mark.parametrize("case", CASES)
def test_laplace_workload_total_matches_opendp(case):
    """Σ ε_i of our allocation = OpenDP's make_composition of its own count/sum/mean pipelines
    (change one record = symmetric distance 2), up to OpenDP's float-summation slack."""
    dp = _opendp()
    rng = np.random.default_rng(100 + case)
    n = int(rng.integers(20, 2000))
    workload = _random_workload(rng, int(rng.integers(1, 7)), n=n)
    for allocation in (
        B.budget_for_accuracy(workload),
        B.split_budget(workload, float(rng.uniform(0.1, 5.0))),
    ):
        opendp_total = _opendp_composition(dp, workload, allocation.scales, "laplace", n).map(2)
        assert opendp_total == pytest.approx(allocation.total, rel=1e-9)


@pytest.mark.parametrize("case", CASES)
def test_gaussian_workload_rho_and_epsilon_match_opendp(case):
    """Σ ρ_z,i and the (ε, δ) of make_zCDP_to_approxDP against ours (CKS), same pipelines."""
    dp = _opendp()
    rng = np.random.default_rng(200 + case)
    n = int(rng.integers(20, 2000))
    workload = _random_workload(rng, int(rng.integers(1, 7)), n=n)
    delta = float(10.0 ** -rng.integers(3, 13))
    allocation = B.split_budget(
        workload, float(rng.uniform(0.01, 3.0)), mechanism="gaussian", delta=delta
    )
    composed = _opendp_composition(dp, workload, allocation.scales, "gaussian", n)
    assert composed.map(2) == pytest.approx(allocation.total, rel=1e-9)
    profile = dp.c.make_zCDP_to_approxDP(composed).map(2)
    assert profile.epsilon(delta) == pytest.approx(allocation.epsilon, rel=1e-9)
    assert B.zcdp_composition(allocation.budgets, delta=delta).epsilon == allocation.epsilon


@pytest.mark.parametrize("case", CASES)
def test_compose_rho_and_zcdp_composition_match_opendp_gaussians(case):
    dp = _opendp()
    rng = np.random.default_rng(300 + case)
    sigmas = rng.uniform(0.2, 20.0, size=int(rng.integers(1, 12)))
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    composed = dp.c.make_composition([dp.m.make_gaussian(*space, scale=float(s)) for s in sigmas])
    rhos = [float(Fraction(1) / (2 * Fraction(float(s)) ** 2)) for s in sigmas]
    assert B.compose_rho(rhos) == pytest.approx(composed.map(1.0), rel=1e-12)
    delta = float(10.0 ** -rng.integers(2, 15))
    ours = B.zcdp_composition(rhos, delta=delta).epsilon
    assert ours == pytest.approx(
        dp.c.make_zCDP_to_approxDP(composed).map(1.0).epsilon(delta), rel=1e-9
    )


@pytest.mark.parametrize("case", CASES)
def test_compose_epsilon_matches_opendp_laplaces(case):
    dp = _opendp()
    rng = np.random.default_rng(400 + case)
    scales = rng.uniform(0.1, 50.0, size=int(rng.integers(1, 12)))
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    composed = dp.c.make_composition([dp.m.make_laplace(*space, scale=float(b)) for b in scales])
    epsilons = [float(1 / b) for b in scales]
    assert B.compose_epsilon(epsilons) == pytest.approx(composed.map(1.0), rel=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_zcdp_composition_is_at_most_the_rdp_accountant_and_close(case):
    """dp-accounting's RDP accountant uses the same conversion over a grid of orders, so its ε
    is ≥ ours (the CKS infimum over every order) and close to it."""
    import dp_accounting
    from dp_accounting import rdp

    rng = np.random.default_rng(500 + case)
    sigma, times = float(rng.uniform(0.5, 50)), int(rng.integers(1, 500))
    delta = float(10.0 ** -rng.integers(3, 13))
    accountant = rdp.RdpAccountant()
    accountant.compose(dp_accounting.GaussianDpEvent(sigma), times)
    theirs = accountant.get_epsilon(delta)
    ours = B.zcdp_composition([1 / (2 * sigma**2)] * times, delta=delta).epsilon
    assert ours <= theirs * (1 + 1e-9)
    assert ours == pytest.approx(theirs, rel=0.01)


def test_zcdp_composition_is_deployments_conversion_rounded_up():
    total = B.compose_rho([1.28, 1.28])
    eps = B.zcdp_composition([1.28, 1.28], delta=1e-10).epsilon
    assert (
        dep.zcdp_to_epsilon(total, 1e-10) <= eps <= dep.zcdp_to_epsilon(total, 1e-10) * (1 + 1e-14)
    )
    with pytest.raises(ValueError, match="1e8"):
        B.zcdp_composition([1e8, 1e8], delta=1e-6)


# --- advanced and optimal composition -----------------------------------------------------


def _kov_exact(eps_total, eps, delta, k) -> mpmath.mpf:
    """KOV / Murtagh–Vadhan in 60-digit arithmetic, term by term."""
    e, g = mpmath.mpf(eps), mpmath.mpf(eps_total)
    total = mpmath.mpf(0)
    for ell in range(k + 1):
        term = mpmath.exp((k - ell) * e) - mpmath.exp(g + ell * e)
        if term > 0:
            total += mpmath.binomial(k, ell) * term
    rr = total / (1 + mpmath.exp(e)) ** k
    return 1 - (1 - mpmath.mpf(delta)) ** k * (1 - rr)


@given(
    eps=st.sampled_from([0.01, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0]),
    k=st.integers(1, 40),
    share=st.floats(0, 1.2),
    delta=st.sampled_from([0.0, 1e-9, 1e-5, 0.01]),
)
def test_optimal_composition_delta_is_never_below_the_exact_value(eps, k, share, delta):
    eps_total = share * k * eps
    exact = _kov_exact(eps_total, eps, delta, k)
    ours = B.optimal_composition_delta(eps_total, epsilon=eps, delta=delta, times=k)
    assert mpmath.mpf(ours) >= exact
    assert mpmath.mpf(ours) <= exact * (1 + mpmath.mpf(1e-10)) + mpmath.mpf(1e-300)


def test_kov_theorem_3_3_grid_points():
    # at ε_total = (k − 2i)ε the sum is Theorem 3.3's δ_i; i = 0 gives 1 − (1 − δ)^k
    eps, k, delta = 0.5, 6, 1e-4
    for i in range(k // 2 + 1):
        delta_i = (
            sum(
                math.comb(k, ell) * (math.exp((k - ell) * eps) - math.exp((k - 2 * i + ell) * eps))
                for ell in range(i)
            )
            / (1 + math.exp(eps)) ** k
        )
        expected = 1 - (1 - delta) ** k * (1 - delta_i)
        got = B.optimal_composition_delta((k - 2 * i) * eps, epsilon=eps, delta=delta, times=k)
        assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_optimal_composition_matches_dp_accountings_worst_case_pld(case):
    """dp-accounting's from_privacy_parameters is KOV's dominating mechanism; self-composed,
    its δ(ε) is the optimal composition (grid-exact here: ε on the 10⁻⁴ grid)."""
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld

    rng = np.random.default_rng(600 + case)
    eps = float(rng.choice([0.05, 0.1, 0.2, 0.25, 0.5, 1.0, 1.5]))
    delta = float(rng.choice([0.0, 1e-10, 1e-7, 1e-5]))
    k = int(rng.integers(1, 200))
    eps_total = float(rng.uniform(0, min(k * eps, 10.0)))
    worst = pld.from_privacy_parameters(common.DifferentialPrivacyParameters(eps, delta))
    theirs = float(worst.self_compose(k).get_delta_for_epsilon(eps_total))
    ours = B.optimal_composition_delta(eps_total, epsilon=eps, delta=delta, times=k)
    assert ours == pytest.approx(theirs, rel=1e-6, abs=1e-12)


@given(
    eps=st.floats(0.01, 2.0),
    delta=st.sampled_from([0.0, 1e-12, 1e-8]),
    k=st.integers(1, 300),
    slack=st.sampled_from([1e-9, 1e-6, 1e-3]),
)
def test_optimal_composition_is_never_above_advanced_nor_basic(eps, delta, k, slack):
    advanced = B.advanced_composition(eps, delta, times=k, delta_slack=slack)
    optimal = B.optimal_composition_epsilon(advanced.delta, epsilon=eps, delta=delta, times=k)
    # KOV's root against two closed forms: ordered up to the rounding of each (equal at k = 1)
    assert at_most(optimal, advanced.epsilon, ulps=64)
    assert at_most(optimal, k * eps, ulps=64)


@given(eps=st.floats(0.01, 3.0), k=st.integers(1, 200), slack=st.floats(1e-12, 0.5))
def test_advanced_composition_is_never_below_its_formula(eps, k, slack):
    got = B.advanced_composition(eps, times=k, delta_slack=slack)
    e = mpmath.mpf(eps)
    exact = e * mpmath.sqrt(2 * k * mpmath.log(1 / mpmath.mpf(slack))) + k * e * mpmath.expm1(e)
    assert exact <= got.epsilon <= exact * (1 + mpmath.mpf(1e-13))
    assert got.delta == slack


@pytest.mark.parametrize("case", CASES)
def test_optimal_composition_is_at_least_the_laplace_pld(case):
    """KOV holds for the worst (ε, 0) mechanism, so the exact k-fold Laplace δ is below it; the
    pessimistic PLD sits above the exact value and still below KOV."""
    rng = np.random.default_rng(700 + case)
    eps = float(rng.uniform(0.05, 1.5))
    k = int(rng.integers(1, 150))
    eps_total = float(rng.uniform(0, 0.6 * k * eps))
    kov = B.optimal_composition_delta(eps_total, epsilon=eps, times=k)
    laplace = B.pld_delta(eps_total, "laplace", 1 / eps, times=k, discretization=1e-3)
    assert laplace <= kov


@given(eps=st.floats(0.05, 2.0), k=st.integers(1, 100), target=st.floats(1e-12, 0.5))
def test_optimal_composition_epsilon_inverts_delta_from_above(eps, k, target):
    found = B.optimal_composition_epsilon(target, epsilon=eps, times=k)
    if found == 0.0:
        assert B.optimal_composition_delta(0.0, epsilon=eps, times=k) <= target
        return
    assert B.optimal_composition_delta(found, epsilon=eps, times=k) <= target
    below = found * (1 - 1e-9)
    assert B.optimal_composition_delta(below, epsilon=eps, times=k) > target * (1 - 1e-6)


def test_optimal_composition_epsilon_is_inf_below_the_failure_floor():
    # each release may fail outright with probability δ: 1 − (1 − δ)^k cannot be undercut
    assert B.optimal_composition_epsilon(5e-5, epsilon=0.5, delta=1e-5, times=10) == math.inf
    assert B.optimal_composition_epsilon(0.9, epsilon=0.5, times=3) == 0.0


# ------------------------------------------- inverses round-trip on the safe side (issue 29)


@given(
    eps=st.floats(1e-3, 20.0),
    k=st.integers(1, 60),
    i=st.one_of(st.just(0), st.integers(0, 30)),
    ulps=st.integers(-3, 3),
    delta=st.sampled_from([0.0, 1e-12]),
)
def test_optimal_composition_delta_is_an_upper_bound_at_the_grid_points(eps, k, i, ulps, delta):
    # ε_total at (k − 2i)ε as a float product, and a few ulps either side: there the float
    # loss (k − 2i)ε rounded to nearest decided which terms count and lost the gap's digits
    # (just below kε only the term ℓ = 0 counts, and δ ≈ its mass·|gap| was 33 % low)
    eps_total = (k - 2 * min(i, k // 2)) * eps
    for _ in range(abs(ulps)):
        eps_total = math.nextafter(eps_total, math.inf if ulps > 0 else 0.0)
    exact = min(_kov_exact(eps_total, eps, delta, k), 1)  # 60 digits may leave 1 + 1e-60
    ours = B.optimal_composition_delta(eps_total, epsilon=eps, delta=delta, times=k)
    assert mpmath.mpf(ours) >= exact
    assert mpmath.mpf(ours) <= exact * (1 + mpmath.mpf(1e-9)) + mpmath.mpf(1e-300)


@given(
    eps=st.floats(1e-2, 5.0),
    k=st.integers(1, 40),
    log10_target=st.floats(-15, -1),
    delta=st.sampled_from([0.0, 1e-12]),
)
def test_optimal_composition_epsilon_meets_its_delta_in_exact_arithmetic(
    eps, k, log10_target, delta
):
    # the ε_total reported for k releases: its exact δ (60 digits) is at most the target
    target = 10.0**log10_target
    total = B.optimal_composition_epsilon(target, epsilon=eps, delta=delta, times=k)
    if math.isinf(total):
        return
    assert min(_kov_exact(total, eps, delta, k), 1) <= target
