"""helpers.budget.risk: the risks a workload may take and the total each allows; the
inverses (ε and ρ_z for a TPR, the total for a posterior or a profile) round-trip on the safe
side, checked in exact arithmetic.
"""

from __future__ import annotations

import math
import re

import mpmath
import numpy as np
import pytest
from _workloads import RISKS, WORKLOAD
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import budget as B
from helpers import choose as ch
from helpers import deployments as dep

mpmath.mp.dps = 60


# --- the risk side ------------------------------------------------------------------------


@given(t=st.floats(0.02, 0.99), a=st.floats(0.001, 0.5), delta=st.sampled_from([0.0, 1e-6, 1e-3]))
def test_epsilon_for_tpr_is_the_largest_epsilon_within_the_tpr(t, a, delta):
    if t <= a + delta:
        with pytest.raises(ValueError, match="tpr must exceed"):
            B.epsilon_for_tpr(t, fpr=a, delta=delta)
        return
    eps = B.epsilon_for_tpr(t, fpr=a, delta=delta)
    assert dep.tpr_at_fpr(a, epsilon=eps, delta=delta) <= t * (1 + 1e-12)
    assert dep.tpr_at_fpr(a, epsilon=eps * (1 + 1e-6) + 1e-12, delta=delta) > t


@given(t=st.floats(0.02, 0.999), a=st.floats(1e-6, 0.5))
def test_rho_for_tpr_is_the_largest_rho_within_the_tpr(t, a):
    if t <= a:
        with pytest.raises(ValueError, match="tpr must exceed"):
            B.rho_for_tpr(t, fpr=a)
        return
    rho = B.rho_for_tpr(t, fpr=a)
    assert dep.gaussian_tpr_at_fpr(a, rho=rho) <= t * (1 + 1e-12)
    assert dep.gaussian_tpr_at_fpr(a, rho=rho * (1 + 1e-6) + 1e-15) > t


@pytest.mark.parametrize("risk", RISKS, ids=lambda r: f"{r.kind}-{r.level}")
def test_total_for_risk_never_exceeds_the_risk(risk):
    eps = B.total_for_risk(risk)
    expected = {
        "epsilon": lambda: risk.level,
        "posterior": lambda: ch.epsilon_for_posterior(risk.level, prior=risk.prior),
        "profile": lambda: ch.epsilon_for_profile(
            risk.profile, r=risk.level, a=risk.a, fixed=risk.fixed
        ),
        "tpr": lambda: B.epsilon_for_tpr(risk.level, fpr=risk.fpr),
    }[risk.kind]()
    assert expected * (1 - 1e-14) <= eps <= expected
    assert B.implied_risk(eps, risk) <= risk.level * (1 + 1e-12)
    rho = B.total_for_risk(risk, mechanism="gaussian", delta=1e-8)
    if risk.kind == "tpr":
        assert dep.gaussian_tpr_at_fpr(risk.fpr, rho=rho) <= risk.level
    else:
        assert dep.zcdp_to_epsilon(rho, 1e-8) <= eps
        assert dep.zcdp_to_epsilon(rho * (1 + 1e-9), 1e-8) > eps * (1 - 1e-12)
    assert B.implied_risk(rho, risk, mechanism="gaussian", delta=1e-8) <= risk.level * (1 + 1e-12)


def test_implied_risk_of_a_profile_is_the_smallest_r_allowing_it():
    risk = B.risk_profile("inclusion", r=5.0, a=0.5, fixed=1.0)
    r = B.implied_risk(3.0, risk)
    assert ch.epsilon_for_profile("inclusion", r=r, a=0.5, fixed=1.0) >= 3.0
    assert ch.epsilon_for_profile("inclusion", r=r * (1 - 1e-9), a=0.5, fixed=1.0) < 3.0
    assert B.implied_risk(3.0, B.risk_profile("constant", r=2.0)) == pytest.approx(math.exp(6))


def test_risks_are_refused_by_name():
    with pytest.raises(ValueError, match="prior"):
        B.risk_posterior(0.3, prior=0.5)
    with pytest.raises(ValueError, match="kind"):
        B.risk_profile("box", r=3.0)
    with pytest.raises(ValueError, match="tpr must exceed fpr"):
        B.risk_tpr(0.01, fpr=0.1)
    with pytest.raises(ValueError, match="risk must be a Risk"):
        B.choose_workload(WORKLOAD, "high")
    with pytest.raises(TypeError):  # a Risk says its ε, its reading and its words
        B.Risk(1.0)


@settings(max_examples=60)
@given(st.floats(min_value=0.02, max_value=0.98), st.floats(min_value=1e-4, max_value=0.9))
def test_epsilon_for_tpr_round_trip_never_exceeds_the_target(t, fpr):
    # the logs' rounding is absolute, not relative to ε (a stranger's review found 1e-16 over)
    if t <= fpr:
        return
    eps = B.epsilon_for_tpr(t, fpr=fpr)
    assert dep.tpr_at_fpr(fpr, epsilon=eps) <= t


def test_the_stranger_s_tpr_example_and_tiny_merges():
    t, fpr = 0.32203794761337750, 0.30907184935528564
    assert dep.tpr_at_fpr(fpr, epsilon=B.epsilon_for_tpr(t, fpr=fpr)) <= t
    for merge in (1e-17, 5e-324):
        with pytest.raises(ValueError, match=r"^merge must"):
            B.pld_delta(1.0, "laplace", 1.0, times=2, merge=merge)


# ------------------------------------------- inverses round-trip on the safe side (issue 29)


def _exact_z(p: float) -> mpmath.mpf:
    """Φ⁻¹(p) in 60-digit arithmetic."""
    return mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1)


_fprs = st.floats(1e-12, 1 - 1e-6)


@st.composite
def _tpr_above(draw, fpr):
    """A TPR above ``fpr``: a few ulps above it (where the quantiles cancel) or anywhere."""
    if draw(st.booleans()):
        t = fpr
        for _ in range(draw(st.integers(1, 2000))):
            t = math.nextafter(t, 1.0)
        return min(t, 1 - 1e-12)
    return draw(st.floats(math.nextafter(fpr, 1.0), 1 - 1e-12))


@given(data=st.data(), fpr=_fprs)
def test_rho_for_tpr_never_gives_a_tpr_above_the_target_in_exact_arithmetic(data, fpr):
    tpr = data.draw(_tpr_above(fpr))
    if not tpr > fpr:
        return
    exact_mu = _exact_z(tpr) - _exact_z(fpr)
    for rho in (
        B.rho_for_tpr(tpr, fpr=fpr),
        B.total_for_risk(B.risk_tpr(tpr, fpr=fpr), mechanism="gaussian"),
    ):
        assert 0 <= rho
        mu = mpmath.sqrt(2 * mpmath.mpf(rho))
        # TPR = Φ(Φ⁻¹(α) + μ) ≤ t  ⇔  μ ≤ Φ⁻¹(t) − Φ⁻¹(α)
        assert mu <= exact_mu
        # and not far below it: the largest such ρ_z to a relative 1e-6
        assert mu >= exact_mu * (1 - 1e-6)


@given(
    fpr=st.floats(1e-9, 0.5), lift=st.floats(1e-12, 0.9), delta=st.sampled_from([0.0, 1e-9, 1e-5])
)
def test_epsilon_for_tpr_never_gives_a_tpr_above_the_target_in_exact_arithmetic(fpr, lift, delta):
    tpr = min(fpr + delta + lift * (1 - fpr - delta), 1 - 1e-12)
    if not tpr > fpr + delta:
        return
    eps = mpmath.mpf(B.epsilon_for_tpr(tpr, fpr=fpr, delta=delta))
    a, d = mpmath.mpf(fpr), mpmath.mpf(delta)
    exact = min(1, d + mpmath.exp(eps) * a, 1 - mpmath.exp(-eps) * (1 - d - a))
    assert exact <= tpr


def _exact_cks(rho: float, delta: float) -> mpmath.mpf:
    """CKS 2020 Cor. 13's infimum in 60 digits, at the root of ρ(α − 1)² + ln α = ln(1/δ)."""
    r, L = mpmath.mpf(rho), -mpmath.log(mpmath.mpf(delta))
    alpha = mpmath.findroot(
        lambda x: r * (x - 1) ** 2 + mpmath.log(x) - L,
        (1 + mpmath.mpf(10) ** -30, 2 + mpmath.sqrt(L / r)),
        solver="anderson",
    )
    return alpha * r + (L - mpmath.log(alpha)) / (alpha - 1) + mpmath.log(1 - 1 / alpha)


@given(
    risk=st.floats(0.55, 0.999),
    delta=st.sampled_from([1e-12, 1e-9, 1e-6, 1e-3]),
)
def test_gaussian_budget_for_a_posterior_round_trips_on_the_safe_side(risk, delta):
    # the ρ_z for a posterior risk: its exact CKS ε at δ must not exceed the risk's ε
    rho = B.total_for_risk(B.risk_posterior(risk, prior=0.5), mechanism="gaussian", delta=delta)
    eps = ch.epsilon_for_posterior(risk, prior=0.5)
    assert _exact_cks(rho, delta) <= eps
    assert dep.zcdp_to_epsilon(rho, delta) <= eps


@given(r=st.floats(1.0 + 1e-9, 1e6), prior=st.floats(1e-6, 0.99), lift=st.floats(1e-9, 1.0))
def test_laplace_totals_for_a_profile_and_a_posterior_never_exceed_the_exact_epsilon(
    r, prior, lift
):
    # Theorem 3: a constant profile r allows ε = ½ ln r; the posterior ρ allows
    # ln(ρ(1 − p)/(p(1 − ρ))): the Laplace total is never above either, exactly
    total = B.total_for_risk(B.risk_profile("constant", r=r))
    assert mpmath.mpf(total) <= mpmath.log(mpmath.mpf(r)) / 2
    risk = prior + lift * (1 - prior)
    if not prior < risk < 1:
        return
    total = B.total_for_risk(B.risk_posterior(risk, prior=prior))
    rho, p = mpmath.mpf(risk), mpmath.mpf(prior)
    assert mpmath.mpf(total) <= mpmath.log(rho * (1 - p) / (p * (1 - rho)))


@given(rho=st.floats(1e-6, 50.0), delta=st.sampled_from([1e-12, 1e-8, 1e-6, 1e-3]))
def test_posterior_failure_probability_is_delta_one_of_the_composed_gaussian(rho, delta):
    # issue 29: the posterior bound at the composed (ε, δ) fails with probability
    # P[ℒ > ε] = Φ(μ/2 − ε/μ), μ = √(2ρ_z), not at most 2δ; ours is never below it
    ours = B.posterior_failure_probability(rho, mechanism="gaussian", delta=delta)
    eps = B.implied_risk(rho, B.risk_epsilon(1.0), mechanism="gaussian", delta=delta)
    mu = mpmath.sqrt(2 * mpmath.mpf(rho))
    exact = mpmath.ncdf(mu / 2 - mpmath.mpf(eps) / mu)
    assert exact <= ours <= exact * (1 + mpmath.mpf(1e-6)) + mpmath.mpf(1e-300)
    # the same probability, read as the posterior: above the bound at ε exactly where ℒ > ε
    assert B.posterior_failure_probability(rho, mechanism="laplace") == 0.0


def test_posterior_failure_probability_exceeds_two_delta_at_the_tools_operating_point():
    # the Gaussian workload of notebook 11 (posterior ≤ 0.8 from ½ at δ = 1e-6): the bound at
    # ε fails more often than the 2δ that covers the bound at ε + ln 2
    rho = B.total_for_risk(B.risk_posterior(0.8, prior=0.5), mechanism="gaussian", delta=1e-6)
    failure = B.posterior_failure_probability(rho, mechanism="gaussian", delta=1e-6)
    assert failure > dep.posterior_bad_event_probability(1e-6, slack=math.log(2))
    # P[ℒ > ε] for ℒ ~ N(μ²/2, μ²), from scipy's survival function (another code path)
    from scipy.stats import norm

    mu = math.sqrt(2 * rho)
    eps = B.implied_risk(rho, B.risk_epsilon(1.0), mechanism="gaussian", delta=1e-6)
    assert failure == pytest.approx(norm.sf(eps, loc=mu * mu / 2, scale=mu), rel=1e-9)
    assert failure > 3.5e-6  # 3.7δ, as the issue measured


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.floats(1e-9, 0.5), st.floats(1.0001, 1e6))
def test_a_tpr_risk_states_its_factor_over_the_fpr_rounded_up(fpr, ratio):
    # a small TPR at a smaller FPR is a large jump (0.051 at 0.001 is 51 times it): the words
    # say the factor, never below TPR/FPR, to two significant digits
    from decimal import Decimal
    from fractions import Fraction

    tpr = min(fpr * ratio, 0.999)
    if tpr <= fpr:
        return
    words = B.risk_tpr(tpr, fpr=fpr).words()
    factor = Fraction(Decimal(re.search(r"\(([\d.]+) times the FPR\)", words).group(1)))
    exact = Fraction(repr(tpr)) / Fraction(repr(fpr))
    assert exact <= factor <= exact * Fraction(11, 10)


def test_query_risk_reproduces_kulynych_et_al_against_riskcal():
    # the authors' query-answering setting (research/unifying_risk/simulation_code.py): k = 1 … 15
    # Laplace releases of scale 5, δ = 1e-5, baselines 0.01, 0.1 and the worst case
    import logging
    import warnings

    from dp_accounting.pld import privacy_loss_distribution as P

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from riskcal import analysis

    q = B.query_risk(5.0, releases=15, delta=1e-5)
    assert q.releases.tolist() == list(range(1, 16)) and q.baselines == (0.01, 0.1)
    logging.disable(logging.WARNING)
    try:
        one = P.from_laplace_mechanism(5.0)
    finally:
        logging.disable(logging.NOTSET)
    kappas = np.array(q.baselines)
    for i, k in enumerate(q.releases):
        composed = one.self_compose(int(k))
        theirs = np.append(
            1 - analysis.get_beta_from_pld(composed, alpha=kappas) - kappas,
            analysis.get_advantage_from_pld(composed),
        )
        # on the PLD: the same curve, both on pessimistic grids of step 1e-4
        np.testing.assert_allclose(q.pld[i], theirs, atol=2e-3, rtol=0)
        # on (ε, δ): riskcal's own curve at the course's ε gives the same advantages
        eps = float(q.epsilon[i])
        standard = np.append(
            1 - analysis.get_beta_for_epsilon_delta(eps, 1e-5, kappas) - kappas,
            analysis.get_advantage_for_epsilon_delta(eps, 1e-5),
        )
        np.testing.assert_allclose(q.standard[i], standard, atol=1e-9, rtol=0)
        # the optimal composition is at most the basic sum k/b
        assert eps <= k / 5.0 + 1e-12
    # what the experiment shows: the (ε, δ) reading is never below the PLD's (up to the grid)
    assert (q.pld <= q.standard + 2e-3).all()
