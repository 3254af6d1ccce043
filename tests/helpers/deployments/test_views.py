"""helpers.deployments.views: the posterior, the relative risk and the best test's power (from (ε, δ) and from ρ_z)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from helpers import deployments as dep
from helpers import kazan_reiter as kr

# --- view 1 --------------------------------------------------------------------------------


def test_posterior_bound_closed_form_and_limits():
    p, eps = 0.3, 1.2
    assert dep.posterior_bound(eps, prior=p) == pytest.approx(
        p * math.exp(eps) / (p * math.exp(eps) + 1 - p), rel=1e-14
    )
    assert dep.posterior_bound(0.0, prior=p) == pytest.approx(p)
    assert dep.posterior_bound(math.inf, prior=p) == 1.0
    # no overflow at huge ε
    assert dep.posterior_bound(1000.0, prior=1e-6) == 1.0


def test_posterior_bound_is_lee_clifton_upper_bound_with_two_worlds():
    lc = pytest.importorskip("helpers.lee_clifton")
    # two worlds {0}, {1} drawn from the universe [0, 1], query identity: Δv = Δf
    eps = np.array([0.5, 1.0, 3.0])
    ours = dep.posterior_bound(eps, prior=0.5)
    theirs = lc.upper_bound([0.0, 1.0], 1, "sum", eps, sensitivity=1.0)
    assert np.allclose(ours, theirs, rtol=1e-13)


@given(
    eps=st.floats(0.01, 5.0),
    slack=st.floats(0.05, 3.0),
    rho=st.floats(0.01, 3.0),
)
def test_bad_event_bound_holds_for_the_gaussian(eps, slack, rho):
    # Gaussian with μ = √(2ρ): privacy loss L ~ N(μ²/2, μ²) under the first world
    mu = math.sqrt(2 * rho)
    delta = float(norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2))
    delta = max(delta, 1e-300)
    exceed = float(norm.sf((eps + slack - mu**2 / 2) / mu))
    assert exceed <= dep.posterior_bad_event_probability(delta, slack=slack) * (1 + 1e-9) + 1e-15


mpmath = pytest.importorskip("mpmath")


# --- view 2 --------------------------------------------------------------------------------


def test_relative_risk_is_kazan_reiter_theorem1():
    assert dep.relative_risk_bound is kr.relative_risk_bound
    views = dep.three_views(1.0, 0.0, p=0.2, q=0.5)
    assert views["relative_risk"] == pytest.approx(
        1 / (0.5 * 0.2 + math.exp(-2) * 0.5 * 0.2 + math.exp(-1) * 0.8)
    )


# --- view 3 --------------------------------------------------------------------------------


def _four_point_tpr(alpha: float, eps: float, delta: float) -> float:
    """Neyman–Pearson power of the canonical (ε, δ) pair of Kairouz, Oh & Viswanath (2015)."""
    e = math.exp(eps)
    P = np.array([delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0])
    Q = P[::-1].copy()
    # likelihood ratio P/Q in decreasing order: reject the null Q on the highest ratios first
    with np.errstate(divide="ignore"):
        ratio = np.where(Q > 0, P / np.where(Q > 0, Q, 1), np.inf)
    order = np.argsort(-ratio, kind="stable")
    power, fpr_left = 0.0, alpha
    for i in order:
        if Q[i] <= fpr_left:
            power += P[i]
            fpr_left -= Q[i]
        else:
            power += P[i] * fpr_left / Q[i]
            break
    return min(power, 1.0)


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("delta", [0.0, 1e-5, 0.05])
@pytest.mark.parametrize("alpha", [0.0, 0.01, 0.1, 0.5, 0.9])
def test_tpr_at_fpr_is_attained_by_the_four_point_mechanism(eps, delta, alpha):
    assert dep.tpr_at_fpr(alpha, epsilon=eps, delta=delta) == pytest.approx(
        _four_point_tpr(alpha, eps, delta), abs=1e-12
    )


def test_tpr_at_fpr_closed_form_and_edges():
    assert dep.tpr_at_fpr(0.01, epsilon=1.0) == pytest.approx(math.e * 0.01)
    assert dep.tpr_at_fpr(0.1, epsilon=0.0) == pytest.approx(0.1)
    assert dep.tpr_at_fpr(0.0, epsilon=math.inf, delta=0.0) == 0.0
    assert dep.tpr_at_fpr(0.01, epsilon=math.inf) == 1.0
    assert dep.tpr_at_fpr(1.0, epsilon=2.0, delta=0.1) == 1.0
    out = dep.tpr_at_fpr(np.array([0.01, 0.1]), epsilon=1.0, delta=1e-6)
    assert out.shape == (2,)


def test_gaussian_tpr_closed_form_and_dp_accounting():
    accounting = pytest.importorskip("dp_accounting")
    rho = 0.5  # μ = 1
    for alpha in (0.01, 0.1):
        ours = dep.gaussian_tpr_at_fpr(alpha, rho=rho)
        assert ours == pytest.approx(norm.cdf(1 - norm.ppf(1 - alpha)), rel=1e-12)
        # independent: TPR(α) = inf over ε of δ(ε) + e^ε α, with δ(ε) from dp-accounting
        pld = accounting.pld.PLDAccountant()
        pld.compose(accounting.GaussianDpEvent(noise_multiplier=1.0))
        grid = np.linspace(0.0, 6.0, 241)
        dual = min(pld.get_delta(float(e)) + math.exp(e) * alpha for e in grid)
        assert ours == pytest.approx(dual, abs=2e-3)
        assert ours <= dual + 1e-4


@given(rho=st.floats(1e-3, 10.0), alpha=st.floats(1e-6, 0.5))
def test_gaussian_curve_lies_under_its_cks_epsilon_delta_curve(rho, alpha):
    # the Gaussian is (ε, δ)-DP for the CKS ε, so its TPR can't beat that curve's TPR
    delta = 1e-6
    eps = dep.zcdp_to_epsilon(rho, delta)
    assert (
        dep.gaussian_tpr_at_fpr(alpha, rho=rho)
        <= dep.tpr_at_fpr(alpha, epsilon=eps, delta=delta) + 1e-12
    )


def test_three_views_keys_and_values():
    v = dep.three_views(2.0, 1e-6, prior=0.1, rho=0.3)
    assert v["posterior"] == dep.posterior_bound(2.0, prior=0.1)
    assert v["bad_event"] == pytest.approx(2e-6)
    assert v["tpr_10"] == dep.tpr_at_fpr(0.1, epsilon=2.0, delta=1e-6)
    assert v["gaussian_tpr_1"] == dep.gaussian_tpr_at_fpr(0.01, rho=0.3)


def test_tpr_keeps_a_tiny_rate():
    # 1 − e^{−ε}(1 − δ − α) lost δ + α = 2e-20 at ε = 1e-30: a TPR of 0
    assert dep.tpr_at_fpr(1e-20, epsilon=1e-30, delta=1e-20) == pytest.approx(2e-20, rel=1e-9)


@given(eps=st.floats(0, 700), prior=st.floats(1e-300, 0.999999))
def test_posterior_bound_is_within_a_few_units_of_the_exact_posterior(eps, prior):
    with mpmath.workdps(60):
        p = mpmath.mpf(prior)
        exact = p * mpmath.exp(eps) / (p * mpmath.exp(eps) + 1 - p)
        assert dep.posterior_bound(eps, prior=prior) == pytest.approx(float(exact), rel=1e-15)
    assert dep.posterior_bound(0.0, prior=prior) == prior


# --- view 3 from zCDP alone: the trade-off curve ρ_z implies (issue 20) --------------------


def _dense_violation(t, x, rho):
    """Independent check: the worst Rényi excess over 20,000 orders, by brute force."""
    orders = 1 + np.logspace(-6, 5, 20_000)
    with np.errstate(divide="ignore", invalid="ignore"):

        def d(u, v):
            terms = np.stack(
                [
                    orders * np.log(u) + (1 - orders) * np.log(v),
                    orders * np.log1p(-u) + (1 - orders) * np.log1p(-v),
                ]
            )
            return np.logaddexp(terms[0], terms[1]) / (orders - 1)

        excess = np.maximum(d(t, x), d(x, t)) - rho * orders
    return float(np.nanmax(excess))


@pytest.mark.parametrize(
    ("rho", "fpr", "published"),
    # the readings at FPR 1 %: Census redistricting, Spanish next-word, Meta URLs
    [(2.63, 0.01, 0.698), (0.81, 0.01, 0.207), (0.0728, 0.01, 0.0295)],
)
def test_zcdp_tpr_reproduces_the_reviewers_readings(rho, fpr, published):
    value = dep.zcdp_tpr(rho, fpr)
    assert value == pytest.approx(published, abs=6e-4)
    # between the Gaussian curve (tighter: assumes the mechanism) and the (ε, δ) curve
    assert dep.gaussian_tpr_at_fpr(fpr, rho=rho) < value
    eps = dep.zcdp_to_epsilon(rho, 1e-10)
    assert value < dep.tpr_at_fpr(fpr, epsilon=eps, delta=1e-10)


@settings(max_examples=30)
@given(st.floats(min_value=1e-4, max_value=20.0), st.floats(min_value=1e-6, max_value=0.9))
def test_zcdp_tpr_is_the_edge_of_what_every_renyi_order_allows(rho, fpr):
    t = dep.zcdp_tpr(rho, fpr)
    assert fpr <= t <= 1
    if t < 1 - 1e-9:
        # just below: every order allows it; just above: some order forbids it
        assert _dense_violation(fpr + (t - fpr) * (1 - 1e-6), fpr, rho) <= 1e-9
        assert _dense_violation(min(t + 1e-5 * (1 - t) + 1e-9, 1 - 1e-15), fpr, rho) > 0
    assert dep.gaussian_tpr_at_fpr(fpr, rho=rho) <= t + 1e-12


def _worst_excess(t, x, rho):
    """Independent check, tighter than :func:`_dense_violation`: the worst Rényi excess at
    (t, x) over the orders (located on 40,001 orders, then refined by a bounded scalar
    search in 30-digit arithmetic) and at the KL limit (order 1)."""
    import mpmath
    from scipy.optimize import minimize_scalar

    u_grid = np.linspace(np.log(1e-5), np.log(1e9), 40_001)
    orders = 1 + np.exp(u_grid)

    def d(p, q, a):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            terms = (a * np.log(p) + (1 - a) * np.log(q), a * np.log1p(-p) + (1 - a) * np.log1p(-q))
            return np.logaddexp(*terms) / (a - 1)

    coarse = np.maximum(d(t, x, orders), d(x, t, orders)) - rho * orders
    i = int(np.nanargmax(coarse))

    def excess(u):
        with mpmath.workdps(30):
            a, T, X = 1 + mpmath.exp(u), mpmath.mpf(t), mpmath.mpf(x)

            def dm(p, q):
                return mpmath.log(p**a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1)

            return float(max(dm(T, X), dm(X, T)) - rho * a)

    lo, hi = u_grid[max(i - 1, 0)], u_grid[min(i + 1, u_grid.size - 1)]
    found = minimize_scalar(
        lambda u: -excess(u), bounds=(lo, hi), method="bounded", options={"xatol": 1e-10}
    )
    with mpmath.workdps(30):
        T, X = mpmath.mpf(t), mpmath.mpf(x)

        def kl(p, q):
            return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))

        limit = float(max(kl(T, X), kl(X, T)) - rho)
    return max(float(np.nanmax(coarse)), -found.fun, excess(u_grid[i]), limit)


@settings(max_examples=15, deadline=None)
@given(st.floats(min_value=1e-6, max_value=20.0), st.floats(min_value=1e-5, max_value=0.9))
def test_zcdp_tpr_is_the_edge_to_1e_9_and_never_below_it(rho, fpr):
    # the search over orders decides how close the answer comes to the edge: within 1e-9
    # (a TPR 1e-9 lower is allowed by every order); and it is rounded toward privacy: at the
    # answer itself some order forbids it (up to the excess's own rounding, 1e-14)
    t = dep.zcdp_tpr(rho, fpr)
    if t < 1 - 1e-9:
        assert _worst_excess(t, fpr, rho) > -1e-14
        assert _worst_excess(max(t - 1e-9, fpr), fpr, rho) <= 0


def test_zcdp_tpr_refuses_more_pairs_than_its_work_budget_before_the_work():
    too_many = np.full(dep.MAX_TPR_POINTS + 1, 0.1)
    with pytest.raises(ValueError, match=rf"{dep.MAX_TPR_POINTS + 1:,} \(ρ_z, FPR\) pairs"):
        dep.zcdp_tpr(1.0, too_many)
    # broadcasting counts: 100 ρ_z × 100 FPRs is 10,000 pairs
    with pytest.raises(ValueError, match=r"^rho and fpr broadcast to 10,000"):
        dep.zcdp_tpr(np.ones((100, 1)), np.full(100, 0.1))
    assert dep.zcdp_tpr(1.0, np.full(dep.MAX_TPR_POINTS, 0.1)[:3]).shape == (3,)


@given(
    st.floats(min_value=1e-3, max_value=10.0),
    st.floats(min_value=1e-3, max_value=10.0),
    st.floats(min_value=1e-4, max_value=0.5),
)
def test_zcdp_tpr_is_monotone_and_vectorised_equals_scalar(r1, r2, fpr):
    lo, hi = sorted((r1, r2))
    assert dep.zcdp_tpr(lo, fpr) <= dep.zcdp_tpr(hi, fpr)
    assert dep.zcdp_tpr(lo, fpr) <= dep.zcdp_tpr(lo, min(2 * fpr, 1.0))
    vector = dep.zcdp_tpr(np.array([lo, hi]), fpr)
    assert vector.tolist() == [dep.zcdp_tpr(lo, fpr), dep.zcdp_tpr(hi, fpr)]


def test_zcdp_tpr_ends_and_refusals():
    assert dep.zcdp_tpr(1.0, 0.0) == 0.0 and dep.zcdp_tpr(1.0, 1.0) == 1.0
    assert dep.zcdp_tpr(0.0, 0.3) == 0.3 and dep.zcdp_tpr(1e8, 0.3) == 1.0
    assert type(dep.zcdp_tpr(1.0, 0.1)) is float
    for bad in (
        {"rho": -1.0, "fpr": 0.1},
        {"rho": math.inf, "fpr": 0.1},
        {"rho": 1.0, "fpr": 1.5},
        {"rho": "1", "fpr": 0.1},
    ):
        with pytest.raises(ValueError, match=r"^(rho|fpr)"):
            dep.zcdp_tpr(**bad)


@pytest.mark.parametrize("rho", [1e-8, 1e-6, 1e-4])
def test_zcdp_tpr_at_tiny_rho_stays_below_the_converted_curve(rho):
    # the binding Rényi order grows as ρ_z shrinks (about 2e4 at 1e-8): the order search must
    # reach it, or the zCDP curve overstates the TPR above the (ε, δ) curve it lies under
    for delta in (1e-5, 1e-10):
        eps = dep.zcdp_to_epsilon(rho, delta)
        assert dep.zcdp_tpr(rho, 0.01) <= dep.tpr_at_fpr(0.01, epsilon=eps, delta=delta)
