"""helpers.plrv: the privacy loss random variable and δ (Desfontaines 2020, notebook 08).

Published numbers are compared at the precision they were printed; closed forms are checked
against numerical integration, against brute force over all output sets, and against
Google's dp-accounting privacy loss distributions (with a bracket that follows from how
that library discretises, see test_dp_accounting_*).
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate
from scipy.stats import norm

from helpers import plrv
from helpers.mechanisms import gaussian_pdf, gaussian_sample, laplace_pdf

LN3 = math.log(3)
B_POST = plrv.POST_LAPLACE_SCALE  # Laplace scale of the post: 1/ln 3, rounded up
SIGMA_POST = math.sqrt(3)  # "Gaussian noise, of variance σ² = 3"

# ---------------------------------------------------------------- the post's numbers


def test_laplace_ceiling_is_ln3_about_1_1():
    """ "It never goes above ε ≈ 1.1"."""
    bound = plrv.laplace_loss_bound(B_POST)
    assert bound == pytest.approx(LN3, rel=1e-15)
    assert round(float(bound), 1) == 1.1
    o = np.linspace(990, 1010, 2001)
    losses = plrv.laplace_privacy_loss(o, B_POST, loc=1000)
    assert losses.max() == pytest.approx(LN3, rel=1e-12)
    assert losses.min() == pytest.approx(-LN3, rel=1e-12)


def test_three_outputs_triple_keep_and_divide_the_odds():
    """O₁ = 999: knowledge tripled; O₂ = 1000.5: unchanged; O₃ = 1003: divided by 3."""
    losses = plrv.laplace_privacy_loss([999, 1000.5, 1003], B_POST, loc=1000)
    np.testing.assert_allclose(np.exp(losses), [3, 1, 1 / 3], rtol=1e-12)
    # from a 50/50 prior the attacker's posterior for D₁
    np.testing.assert_allclose(
        plrv.posterior_probability(0.5, losses), [0.75, 0.5, 0.25], rtol=1e-12
    )


def test_post_delta1_and_delta2_at_variance_3():
    """δ₁ "≈ 0.054" and δ₂ "≈ 0.011" for σ² = 3, ε = ln 3.

    δ₂ = 0.010624 rounds to the printed 0.011. δ₁ = 0.053245 rounds to 0.053, not the
    printed 0.054: the post is 0.00076 (1.4 %) high; the test asserts the correct value.
    """
    d1 = float(plrv.gaussian_delta_naive(LN3, SIGMA_POST))
    d2 = float(plrv.gaussian_delta(LN3, SIGMA_POST))
    assert round(d2, 3) == 0.011
    assert round(d1, 3) == 0.053
    assert 0.0005 < 0.054 - d1 < 0.001  # the post's rounding error, documented
    assert d2 < d1 / 5  # "a much better characterization than before"


def test_caption_variance_2_is_wrong():
    """The caption says "variance 2"; the text says σ² = 3. Only σ² = 3 gives the post's δs."""
    d1_var2 = float(plrv.gaussian_delta_naive(LN3, math.sqrt(2)))
    d2_var2 = float(plrv.gaussian_delta(LN3, math.sqrt(2)))
    assert round(d2_var2, 3) == 0.030 and round(d1_var2, 3) == 0.115
    assert round(float(plrv.gaussian_delta(LN3, SIGMA_POST)), 3) == 0.011


def test_zoom_figure_points_and_delta_mark():
    """Bad events before x ≈ 0.05; O₁ at x = 0.045 is just above 3, O₂ at x = 0.002 is huge."""
    e_l = np.exp(plrv.plrv_upper_quantile([0.045, 0.002], "gaussian", SIGMA_POST))
    assert 3 < e_l[0] < 3.3
    assert e_l[1] > 5
    assert round(float(plrv.gaussian_delta_naive(LN3, SIGMA_POST)), 2) == 0.05


def test_thresholding_distinguishing_event_width_0_006():
    """The last figure: e^ε/e^L is 0 below x ≈ 0.006; there δ₁ = δ₂."""
    p, q = plrv.thresholding_pmfs()
    assert p[0] == pytest.approx(1 / 162, rel=1e-12)
    assert round(float(p[0]), 3) == 0.006
    eps = np.linspace(0, 4, 41)
    np.testing.assert_allclose(plrv.pmf_delta(eps, p, q), plrv.pmf_delta_naive(eps, p, q))
    np.testing.assert_allclose(plrv.pmf_delta(eps, p, q), 1 / 162, rtol=1e-12)
    assert plrv.pmf_privacy_loss(p, q)[0] == np.inf


# ---------------------------------------------------------------- closed forms vs numerics


def test_gaussian_plrv_is_normal_mu_2mu():
    """L(loc + σz) = μ − (Δ/σ) z: mean μ = Δ²/(2σ²), variance Δ²/σ² = 2μ."""
    sigma, delta_f = 1.7, 2.5
    mu = plrv.gaussian_plrv_mean(sigma, sensitivity=delta_f)
    assert mu == pytest.approx(delta_f**2 / (2 * sigma**2))
    z = np.array([-1.0, 0.0, 1.0])
    losses = plrv.gaussian_privacy_loss(3 + sigma * z, sigma, sensitivity=delta_f, loc=3)
    assert losses[1] == pytest.approx(mu)
    assert (losses[0] - losses[2]) / 2 == pytest.approx(math.sqrt(2 * mu))
    # and the log density ratio, computed from the densities themselves
    o = np.linspace(-5, 9, 29)
    direct = np.log(gaussian_pdf(o, 3, sigma) / gaussian_pdf(o, 3 + delta_f, sigma))
    np.testing.assert_allclose(
        plrv.gaussian_privacy_loss(o, sigma, sensitivity=delta_f, loc=3), direct
    )


def test_laplace_loss_matches_log_density_ratio():
    o = np.linspace(995, 1006, 111)
    direct = np.log(laplace_pdf(o, 1000, B_POST) / laplace_pdf(o, 1001, B_POST))
    np.testing.assert_allclose(plrv.laplace_privacy_loss(o, B_POST, loc=1000), direct, atol=1e-12)


def _hockey_stick_quad(pdf1, pdf2, epsilon, lo, hi, points):
    value, _ = integrate.quad(
        lambda o: max(0.0, pdf1(o) - math.exp(epsilon) * pdf2(o)),
        lo,
        hi,
        points=points,
        limit=400,
        epsabs=1e-13,
    )
    return value


@pytest.mark.parametrize("sigma,delta_f", [(SIGMA_POST, 1.0), (0.5, 1.0), (2.0, 3.0)])
@pytest.mark.parametrize("epsilon", [0.0, 0.3, LN3, 2.5])
def test_gaussian_delta_matches_integral_over_outputs(sigma, delta_f, epsilon):
    """Balle & Wang's formula = ∫ max(0, f₁(o) − e^ε f₂(o)) do (the hockey-stick divergence)."""
    # f₁ > e^ε f₂ exactly for o < o* = Δ/2 − εσ²/Δ
    o_star = delta_f / 2 - epsilon * sigma**2 / delta_f
    numeric = _hockey_stick_quad(
        lambda o: gaussian_pdf(o, 0.0, sigma),
        lambda o: gaussian_pdf(o, delta_f, sigma),
        epsilon,
        -40 * sigma,
        o_star,
        None,
    )
    assert float(plrv.gaussian_delta(epsilon, sigma, sensitivity=delta_f)) == pytest.approx(
        numeric, rel=1e-8, abs=1e-13
    )


@pytest.mark.parametrize("epsilon", [0.0, 0.3, LN3])
def test_gaussian_delta_matches_expectation_over_L(epsilon):
    """δ₂ = E[max(0, 1 − e^{ε−L})] with L ~ N(μ, 2μ), and δ₁ = P[L > ε]."""
    mu = plrv.gaussian_plrv_mean(SIGMA_POST)
    sd = math.sqrt(2 * mu)
    numeric, _ = integrate.quad(
        lambda x: (1 - math.exp(epsilon - x)) * norm.pdf(x, mu, sd), epsilon, mu + 40 * sd
    )
    assert float(plrv.gaussian_delta(epsilon, SIGMA_POST)) == pytest.approx(numeric, rel=1e-9)
    assert float(plrv.gaussian_delta_naive(epsilon, SIGMA_POST)) == pytest.approx(
        norm.sf(epsilon, mu, sd), rel=1e-12
    )


@pytest.mark.parametrize("scale,delta_f", [(B_POST, 1.0), (0.7, 2.0), (3.0, 0.5)])
def test_laplace_delta_closed_form_matches_integral(scale, delta_f):
    # the mechanism's ε: Δ/b rounded up (Δ/b rounded to nearest can sit a hair below it,
    # where δ is a true 1e-17, no longer called 0)
    bound = plrv.laplace_loss_bound(scale, sensitivity=delta_f)
    for epsilon in [0.0, 0.25 * bound, 0.9 * bound, bound, 1.5 * bound]:
        numeric = _hockey_stick_quad(
            lambda o: laplace_pdf(o, 0.0, scale),
            lambda o: laplace_pdf(o, delta_f, scale),
            epsilon,
            -60 * scale,
            delta_f + 60 * scale,
            [0.0, delta_f],
        )
        closed = float(plrv.laplace_delta(epsilon, scale, sensitivity=delta_f))
        assert closed == pytest.approx(numeric, rel=1e-8, abs=1e-12)
        if epsilon < bound:
            assert closed == pytest.approx(1 - math.exp((epsilon - bound) / 2), rel=1e-14)
        else:
            assert closed == 0.0


def test_laplace_naive_delta_counts_the_atom():
    """P[L > ε] = 1 − e^{(ε−Δ/b)/2}/2 below Δ/b: the atom L = Δ/b has probability ½."""
    eps = np.array([0.0, 0.5, LN3 - 1e-9, LN3, 2.0])
    expected = [1 - 0.5 * math.exp(-LN3 / 2), 1 - 0.5 * math.exp((0.5 - LN3) / 2), 0.5, 0, 0]
    np.testing.assert_allclose(plrv.laplace_delta_naive(eps, B_POST), expected, atol=1e-9)


@pytest.mark.parametrize("mechanism,noise", [("gaussian", SIGMA_POST), ("laplace", B_POST)])
def test_area_under_the_curve_is_delta2(mechanism, noise):
    """The post's picture: δ₂ is the area between min(1, e^ε/e^L) and 1 over u ∈ (0, 1)."""
    for epsilon in [0.2, LN3]:
        area, _ = integrate.quad(
            lambda u, e=epsilon: max(
                0.0, 1 - math.exp(e - float(plrv.plrv_upper_quantile(u, mechanism, noise)))
            ),
            1e-15,
            1 - 1e-15,
            points=[0.5],
            limit=400,
        )
        delta2 = float(plrv.privacy_profile(epsilon, mechanism, noise)[1])
        assert area == pytest.approx(delta2, rel=1e-6, abs=1e-10)


def test_upper_quantile_is_loss_at_output_quantile():
    """Sorting outputs by decreasing L = sorting by increasing o (L decreases in o)."""
    u = np.linspace(0.01, 0.99, 50)
    o_gauss = SIGMA_POST * norm.ppf(u)
    np.testing.assert_allclose(
        plrv.plrv_upper_quantile(u, "gaussian", SIGMA_POST),
        plrv.gaussian_privacy_loss(o_gauss, SIGMA_POST),
        atol=1e-12,
    )
    o_lap = np.where(u < 0.5, B_POST * np.log(2 * u), -B_POST * np.log(2 * (1 - u)))
    np.testing.assert_allclose(
        plrv.plrv_upper_quantile(u, "laplace", B_POST),
        plrv.laplace_privacy_loss(o_lap, B_POST),
        atol=1e-12,
    )
    # geometric: a step function whose steps are the lumped pmf's cumulative masses
    losses, p, _ = plrv.geometric_plrv_pmf(B_POST, sensitivity=2)
    edges = np.cumsum(p)
    steps = plrv.plrv_upper_quantile(edges[:-1] - 1e-9, "geometric", B_POST, sensitivity=2)
    np.testing.assert_allclose(steps, losses[:-1])


@pytest.mark.parametrize(
    "mechanism,noise,delta_f",
    [
        ("gaussian", SIGMA_POST, 1.0),
        ("gaussian", 0.8, 2.0),
        ("laplace", B_POST, 1.0),
        ("laplace", 1.3, 2.0),
    ],
)
def test_binned_outputs_bracket_the_closed_form(mechanism, noise, delta_f):
    """Binning is post-processing, and the loss varies by at most h inside a bin, so
    δ(ε + h) ≤ δ_binned(ε) ≤ δ(ε) and P[L > ε + h] ≤ δ₁_binned(ε) ≤ P[L > ε − h]."""
    edges, p, q = plrv.discretise_mechanism(mechanism, noise, sensitivity=delta_f, bins=40_001)
    w = edges[1] - edges[0]
    h = delta_f * w / noise**2 if mechanism == "gaussian" else 2 * w / noise
    eps = np.array([0.0, 0.1, 0.4, LN3])
    _, tight = plrv.privacy_profile(eps, mechanism, noise, sensitivity=delta_f)
    _, tight_up = plrv.privacy_profile(eps + h, mechanism, noise, sensitivity=delta_f)
    naive_up, _ = plrv.privacy_profile(eps + h, mechanism, noise, sensitivity=delta_f)
    naive_down, _ = plrv.privacy_profile(
        np.maximum(eps - h, 0), mechanism, noise, sensitivity=delta_f
    )
    binned = plrv.pmf_delta(eps, p, q)
    assert np.all(binned <= tight + 1e-12)
    assert np.all(binned >= tight_up - 1e-12)
    binned_naive = plrv.pmf_delta_naive(eps, p, q)
    # (ε − h < 0 is outside the helpers' domain, so the upper naive bound skips ε = 0)
    assert np.all(binned_naive[1:] <= naive_down[1:] + 1e-12)
    assert np.all(binned_naive >= naive_up - 1e-12)


def test_geometric_lumped_pmf_is_exact():
    """Lumping outcomes with equal likelihood ratio changes no δ: compare with a wide grid."""
    for scale, delta_f in [(B_POST, 1), (0.8, 3)]:
        _, p, q = plrv.discretise_mechanism("geometric", scale, sensitivity=delta_f, width=200)
        eps = np.linspace(0, 4, 17) + 0.01  # off the atoms, where ln p − ln q rounds
        np.testing.assert_allclose(
            plrv.geometric_delta(eps, scale, sensitivity=delta_f),
            plrv.pmf_delta(eps, p, q),
            atol=1e-14,
        )
        np.testing.assert_allclose(
            plrv.geometric_delta_naive(eps, scale, sensitivity=delta_f),
            plrv.pmf_delta_naive(eps, p, q),
            atol=1e-14,
        )
    # Δ = 1: δ₂ = P[Z ≤ 0](1 − e^{ε − 1/b}) = (1 − e^{ε − ln 3})/(1 + 1/3) for ε < ln 3
    assert float(plrv.geometric_delta(0.5, B_POST)) == pytest.approx(
        0.75 * (1 - math.exp(0.5 - LN3)), rel=1e-13
    )


def test_monte_carlo_naive_delta():
    """Seeded simulation of O ~ A(D₁): the share of outputs with L > ε."""
    o = gaussian_sample(0.0, SIGMA_POST, 400_000, rng=2020)
    share = np.mean(plrv.gaussian_privacy_loss(o, SIGMA_POST) > LN3)
    expected = float(plrv.gaussian_delta_naive(LN3, SIGMA_POST))
    assert abs(share - expected) < 4 * math.sqrt(expected * (1 - expected) / o.size)


# ---------------------------------------------------------------- generic pmfs


pmf_pairs = st.integers(2, 7).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(0, 1), min_size=n, max_size=n).filter(lambda x: sum(x) > 0.1),
        st.lists(st.floats(0, 1), min_size=n, max_size=n).filter(lambda x: sum(x) > 0.1),
    )
)


@given(pmf_pairs, st.floats(0, 3))
def test_pmf_delta_is_the_worst_set_and_the_expectation(pair, epsilon):
    """The post's proof: max over all sets S of P₁[S] − e^ε P₂[S] = E[max(0, 1 − e^{ε−L})]."""
    p = np.array(pair[0]) / sum(pair[0])
    q = np.array(pair[1]) / sum(pair[1])
    n = p.size
    best = max(
        p[list(s)].sum() - math.exp(epsilon) * q[list(s)].sum()
        for r in range(n + 1)
        for s in itertools.combinations(range(n), r)
    )
    delta2 = float(plrv.pmf_delta(epsilon, p, q))
    assert delta2 == pytest.approx(max(best, 0.0), abs=1e-12)
    loss = plrv.pmf_privacy_loss(p, q)
    with np.errstate(over="ignore"):
        weight = np.where(p > 0, np.maximum(0.0, 1 - np.exp(epsilon - loss)), 0.0)
    assert delta2 == pytest.approx(float((p * weight).sum()), abs=1e-12)
    # δ₂ ≤ δ₁, with equality when all bad events are distinguishing
    assert delta2 <= float(plrv.pmf_delta_naive(epsilon, p, q)) + 1e-12


@given(st.floats(0.05, 20), st.floats(0.1, 5), st.floats(0, 5), st.floats(0, 5))
def test_gaussian_profile_properties(sigma, delta_f, eps_a, eps_b):
    lo, hi = sorted([eps_a, eps_b])
    naive, tight = plrv.privacy_profile(np.array([lo, hi]), "gaussian", sigma, sensitivity=delta_f)
    assert np.all(tight <= naive + 1e-15)
    assert tight[1] <= tight[0] + 1e-15 and naive[1] <= naive[0] + 1e-15
    assert np.all((tight >= 0) & (tight <= 1))
    # more noise, less δ
    assert float(plrv.gaussian_delta(lo, sigma * 1.5, sensitivity=delta_f)) <= tight[0] + 1e-15
    # only Δ/σ matters
    assert float(plrv.gaussian_delta(lo, 2 * sigma, sensitivity=2 * delta_f)) == pytest.approx(
        float(tight[0]), rel=1e-9, abs=1e-300
    )


def test_pmf_privacy_loss_infinities():
    p = np.array([0.2, 0.5, 0.3, 0.0])
    q = np.array([0.0, 0.5, 0.1, 0.4])
    loss = plrv.pmf_privacy_loss(p, q)
    assert loss[0] == np.inf and loss[1] == 0 and loss[3] == -np.inf
    assert loss[2] == pytest.approx(math.log(3))
    assert not np.any(np.isnan(loss))
    # e^ε overflows for huge ε: distinguishing mass survives, nothing becomes NaN
    assert float(plrv.pmf_delta(1000.0, p, q)) == pytest.approx(0.2)
    np.testing.assert_allclose(
        plrv.pmf_upper_quantile([0.1, 0.3, 0.9], p, q), [np.inf, math.log(3), 0]
    )


# ---------------------------------------------------------------- dp-accounting cross-check
# dp_accounting builds a privacy loss distribution (PLD) on multiples of h (here 1e-4) and
# rounds pessimistically, so δ_PLD(ε) ≥ δ(ε). Its connect-the-dots construction (default
# for Gaussian and Laplace) reproduces δ exactly at every grid point ε_k = k·h (up to the
# truncated tail, ≤ 2e-50 of mass, and float error) and δ_PLD is non-increasing, so in
# between δ(ε) ≤ δ_PLD(ε) ≤ δ(ε_k) ≤ δ(ε − h). For pmfs, each loss is rounded up by < h,
# which gives the same bracket. Tolerance: 1e-12 of float error on top of it.

H = 1e-4
EPS_GRID = np.array([0.01, 0.05, 0.3, 0.7, 1.0, LN3, 1.5, 2.5])
ON_GRID = np.arange(0, 25_001, 1_237) * H


def _check_bracket(pld_delta, exact, epsilons=EPS_GRID):
    lower = exact(epsilons)
    upper = exact(np.maximum(epsilons - H, 0.0))
    assert np.all(pld_delta >= lower - 1e-12)
    assert np.all(pld_delta <= upper + 1e-12)


@pytest.mark.parametrize("sigma,delta_f", [(SIGMA_POST, 1.0), (0.7, 1.0), (4.0, 2.0)])
def test_dp_accounting_gaussian(sigma, delta_f):
    dist = pld.from_gaussian_mechanism(sigma, sensitivity=delta_f, value_discretization_interval=H)
    np.testing.assert_allclose(
        dist.get_delta_for_epsilon(ON_GRID),
        plrv.gaussian_delta(ON_GRID, sigma, sensitivity=delta_f),
        atol=1e-12,
    )
    _check_bracket(
        dist.get_delta_for_epsilon(EPS_GRID),
        lambda e: plrv.gaussian_delta(e, sigma, sensitivity=delta_f),
    )
    # the post's δ₂ at ε = ln 3, σ² = 3 (off the grid: within the bracket, so within 1e-5)
    if sigma == SIGMA_POST:
        assert round(float(dist.get_delta_for_epsilon(LN3)), 3) == 0.011


@pytest.mark.parametrize("scale,delta_f", [(B_POST, 1.0), (0.5, 2.0)])
def test_dp_accounting_laplace(scale, delta_f):
    dist = pld.from_laplace_mechanism(scale, sensitivity=delta_f, value_discretization_interval=H)
    np.testing.assert_allclose(
        dist.get_delta_for_epsilon(ON_GRID),
        plrv.laplace_delta(ON_GRID, scale, sensitivity=delta_f),
        atol=1e-12,
    )
    _check_bracket(
        dist.get_delta_for_epsilon(EPS_GRID),
        lambda e: plrv.laplace_delta(e, scale, sensitivity=delta_f),
    )


def test_dp_accounting_pessimistic_exactly_at_laplace_ceiling():
    """At ε = Δ/b = ln 3 the true δ is 0 (L never exceeds ln 3), but ln 3 is not a multiple
    of h. Connect-the-dots makes δ_PLD linear in e^ε between the grid points
    ε_k = ⌊ln 3/h⌋·h and ε_k + h, where it is exact: δ(ε_k) > 0 and δ(ε_k + h) = 0. So
    dp_accounting reports δ(ε_k)·(e^{ε_k+h} − e^{ln 3})/(e^{ε_k+h} − e^{ε_k}) ≈ 5.4e-6 > 0."""
    dist = pld.from_laplace_mechanism(B_POST, value_discretization_interval=H)
    reported = float(dist.get_delta_for_epsilon(LN3))
    assert float(plrv.laplace_delta(LN3, B_POST)) == 0.0
    eps_k = math.floor(LN3 / H) * H
    at_k = float(plrv.laplace_delta(eps_k, B_POST))
    assert float(plrv.laplace_delta(eps_k + H, B_POST)) == 0.0
    interpolated = at_k * (math.exp(eps_k + H) - 3) / (math.exp(eps_k + H) - math.exp(eps_k))
    assert reported == pytest.approx(interpolated, rel=1e-6)
    assert 0 < reported <= at_k
    assert round(reported, 6) == 0.000005
    # a finer grid shrinks the artefact, never below the truth
    finer = pld.from_laplace_mechanism(B_POST, value_discretization_interval=H / 10)
    assert 0 <= float(finer.get_delta_for_epsilon(LN3)) < reported


@pytest.mark.parametrize("scale,delta_f", [(B_POST, 1), (B_POST, 2), (0.6, 3)])
def test_dp_accounting_discrete_laplace(scale, delta_f):
    """dp_accounting's discrete Laplace, P[Z=z] ∝ e^{−parameter·|z|}: parameter = 1/b."""
    dist = pld.from_discrete_laplace_mechanism(
        1 / scale, sensitivity=delta_f, value_discretization_interval=H
    )
    _check_bracket(
        dist.get_delta_for_epsilon(EPS_GRID),
        lambda e: plrv.geometric_delta(e, scale, sensitivity=delta_f),
    )


def test_dp_accounting_two_pmfs_with_distinguishing_event():
    """from_two_probability_mass_functions: mu_upper = A(D₁) = p, mu_lower = A(D₂) = q."""
    rng = np.random.default_rng(8)
    for p, q in [plrv.thresholding_pmfs(), tuple(rng.dirichlet(np.ones(12), 2))]:
        with np.errstate(divide="ignore"):
            upper = dict(enumerate(np.log(p).tolist()))
            lower = dict(enumerate(np.log(q).tolist()))
        dist = pld.from_two_probability_mass_functions(
            lower, upper, value_discretization_interval=H
        )
        _check_bracket(
            dist.get_delta_for_epsilon(EPS_GRID), lambda e, p=p, q=q: plrv.pmf_delta(e, p, q)
        )


# ---------------------------------------------------------------- inverse


@pytest.mark.parametrize(
    "epsilon,delta", [(LN3, None), (1.0, 1e-5), (0.1, 1e-10), (0.0, 0.05), (8.0, 1e-12)]
)
def test_sigma_for_delta_round_trip(epsilon, delta):
    if delta is None:  # the post's mechanism is the smallest σ for its own δ₂
        delta = float(plrv.gaussian_delta(LN3, SIGMA_POST))
    sigma = plrv.gaussian_sigma_for_delta(epsilon, delta)
    assert float(plrv.gaussian_delta(epsilon, sigma)) == pytest.approx(delta, rel=1e-9)
    # the smallest: a hair less noise breaks the guarantee
    assert float(plrv.gaussian_delta(epsilon, sigma * (1 - 1e-6))) > delta
    if delta == float(plrv.gaussian_delta(LN3, SIGMA_POST)):
        assert sigma**2 == pytest.approx(3.0, rel=1e-9)


@given(st.floats(0.01, 5), st.floats(1e-9, 0.5), st.floats(0.1, 10))
def test_sigma_for_delta_scales_with_sensitivity(epsilon, delta, delta_f):
    s1 = plrv.gaussian_sigma_for_delta(epsilon, delta)
    assert plrv.gaussian_sigma_for_delta(epsilon, delta, sensitivity=delta_f) == pytest.approx(
        delta_f * s1, rel=1e-8
    )


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: plrv.gaussian_delta(1.0, 0.0), "sigma"),
        (lambda: plrv.gaussian_delta(1.0, -2.0), "sigma"),
        (lambda: plrv.gaussian_delta(-0.1, 1.0), "epsilon"),
        (lambda: plrv.gaussian_delta_naive(1.0, 1.0, sensitivity=0.0), "sensitivity"),
        (lambda: plrv.gaussian_delta(float("nan"), 1.0), "epsilon"),
        (lambda: plrv.laplace_delta(-1.0, 1.0), "epsilon"),
        (lambda: plrv.laplace_delta(1.0, 0.0), "scale"),
        (lambda: plrv.laplace_delta_naive(1.0, 1.0, sensitivity=-1.0), "sensitivity"),
        (lambda: plrv.geometric_delta(1.0, 1.0, sensitivity=1.5), "sensitivity"),
        (lambda: plrv.geometric_privacy_loss([0.5], 1.0), "integers"),
        (lambda: plrv.pmf_delta(1.0, [0.5, 0.4], [0.5, 0.5]), "p must sum to 1"),
        (lambda: plrv.pmf_delta(1.0, [0.5, 0.5], [0.7, 0.7]), "q must sum to 1"),
        (lambda: plrv.pmf_delta(1.0, [1.5, -0.5], [0.5, 0.5]), "p must be >= 0"),
        (lambda: plrv.pmf_delta(1.0, [1.0], [0.5, 0.5]), "same grid"),
        (lambda: plrv.pmf_delta(-1.0, [1.0], [1.0]), "epsilon"),
        (
            lambda: plrv.pmf_delta(np.zeros(10**5), np.ones(1000) / 1000, np.ones(1000) / 1000),
            "cells",
        ),
        (lambda: plrv.privacy_profile(1.0, "cauchy", 1.0), "mechanism"),
        (lambda: plrv.gaussian_sigma_for_delta(1.0, 0.0), "delta"),
        (lambda: plrv.gaussian_sigma_for_delta(1.0, 1.0), "delta"),
        (lambda: plrv.gaussian_sigma_for_delta(-1.0, 0.1), "epsilon"),
        (lambda: plrv.gaussian_sigma_for_delta(1.0, 0.1, sensitivity=0.0), "sensitivity"),
        (lambda: plrv.gaussian_sigma_for_delta(0.0, 1e-200), "1e6"),
        (lambda: plrv.plrv_upper_quantile(1.0, "gaussian", 1.0), "u"),
        (lambda: plrv.posterior_probability(0.5, float("nan")), "loss"),
        (lambda: plrv.posterior_probability(1.0, 0.0), "prior"),
        (lambda: plrv.discretise_mechanism("gaussian", 1.0, bins=1), "bins"),
    ],
)
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("sigma", [0.3, 1.0, 30.0, 1e4, 1e6])
def test_gaussian_delta_at_zero_is_total_variation(sigma):
    """δ₂(0) = TV(N(0,σ²), N(1,σ²)) = erf(Δ/(2√2σ)): the worst case for cancellation."""
    assert float(plrv.gaussian_delta(0.0, sigma)) == pytest.approx(
        math.erf(1 / (2 * math.sqrt(2) * sigma)), rel=1e-9
    )


# ---------------------------------------------------------------- ties to notebooks 01-07


@given(
    scale=st.floats(0.2, 5.0),
    prior=st.floats(0.05, 0.95),
    output=st.floats(-20.0, 20.0),
)
def test_lee_clifton_posterior_is_the_plrv_odds_update(scale, prior, output):
    """Lee & Clifton's Definition 3 with two worlds (counts 0 and 1): posterior odds = prior
    odds · e^L, so their posterior is posterior_probability(prior, L)."""
    from helpers import lee_clifton

    eps = 1.0 / scale  # Laplace scale Δf/ε with Δf = 1
    post = lee_clifton.posterior(
        [0, 1], 1, "sum", output, eps, sensitivity=1.0, prior=[prior, 1 - prior]
    )
    loss = plrv.laplace_privacy_loss(output, scale)
    assert post[0] == pytest.approx(float(plrv.posterior_probability(prior, loss)), abs=1e-12)
    assert post[0] <= math.exp(eps) * prior / (math.exp(eps) * prior + 1 - prior) + 1e-12


def test_kazan_reiter_e2eps_is_the_plrv_two_neighbours_apart():
    """Corollary 1's e^{2ε}: the largest odds factor between records two add/remove steps
    apart, which Theorem 1's bound approaches for p = 1, q → 0."""
    from helpers import kazan_reiter

    o = np.linspace(990, 1010, 2001)
    two_steps = plrv.laplace_privacy_loss(o, B_POST, sensitivity=2.0, loc=1000.0)
    assert np.exp(two_steps.max()) == pytest.approx(float(kazan_reiter.naive_bound(LN3)))
    assert round(float(kazan_reiter.naive_bound(LN3)), 10) == 9.0
    q = np.array([0.5, 1e-2, 1e-6])
    bound = kazan_reiter.relative_risk_bound(1.0, q, LN3)
    assert np.all(np.diff(bound) > 0) and bound[-1] == pytest.approx(9.0, rel=1e-5)


# --- regressions: careful numerics (issue 13) ----------------------------------------------


def test_gaussian_delta_with_a_huge_sigma_is_a_number_not_nan():
    # was NaN: ln Φ(a) = −∞ on both sides of a subtraction
    assert plrv.gaussian_delta(1.0, 1e155) == 0.0
    # at ε = 0, δ = Φ(h/2) − Φ(−h/2) ≈ h·φ(0) with h = Δ/σ: not 0 (form 1 cancelled to 0)
    assert plrv.gaussian_delta(0.0, 1e155) == pytest.approx(
        1e-155 / math.sqrt(2 * math.pi), rel=1e-12
    )
    out = plrv.gaussian_delta(np.array([0.0, 1.0, 10.0]), 1e155)
    assert not np.isnan(out).any()


@pytest.mark.parametrize(("epsilon", "sigma"), [(1e-6, 1e6), (1e-3, 1e3), (0.5, 2.0), (3.0, 0.5)])
def test_gaussian_delta_matches_high_precision_arithmetic(epsilon, sigma):
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 60
    e, s = mpmath.mpf(epsilon), mpmath.mpf(sigma)
    a, b = 1 / (2 * s) - e * s, -1 / (2 * s) - e * s
    exact = mpmath.ncdf(a) - mpmath.exp(e) * mpmath.ncdf(b)
    # documented accuracy: about 1e-16·σ/Δ relative at worst
    assert plrv.gaussian_delta(epsilon, sigma) == pytest.approx(
        float(exact), rel=1e-15 * max(sigma, 1)
    )


def test_discretise_refuses_fractional_bins_and_unbounded_grids():
    # regression: bins=2.9 silently became 2 bins
    with pytest.raises(ValueError, match=r"^bins must be an integer in 2\.\.5000000; got 2\.9$"):
        plrv.discretise_mechanism("laplace", 1.0, bins=2.9)
    with pytest.raises(ValueError, match="integer outputs"):
        plrv.discretise_mechanism("geometric", 1e9)  # 8e10 integers: refused up front


def test_tail_masses_are_not_lost_to_one_minus_cdf():
    # the last outcome of each pmf is a survival probability: ~e^{-40}/2 ≈ 2e-18, was 0
    _, p, q = plrv.discretise_mechanism("laplace", 1.0, bins=101)
    assert p[-1] == pytest.approx(0.5 * math.exp(-41), rel=1e-12)
    assert q[0] == pytest.approx(0.5 * math.exp(-41), rel=1e-12)
    _, p, q = plrv.discretise_mechanism("gaussian", 1.0, bins=101, width=10.0)
    assert p[-1] == pytest.approx(float(norm.sf(11.0)), rel=1e-12)
    # thresholding far out: P[1 + Lap(1) ≥ 41] = e^{-40}/2, was 0
    released, _ = plrv.thresholding_pmfs(threshold=41.0, scale=1.0, count=1.0)
    assert released[0] == pytest.approx(0.5 * math.exp(-40), rel=1e-12)
    # geometric PLRV: P[Z ≥ Δ] with α = e^{-1/b}, b = 0.02: α^Δ/(1+α) ≈ e^{-50}
    _, p, _ = plrv.geometric_plrv_pmf(0.02, sensitivity=1)
    assert p[-1] == pytest.approx(math.exp(-50) / (1 + math.exp(-50)), rel=1e-12)


def test_privacy_loss_dispatch_refuses_unknown_names_with_a_value_error():
    with pytest.raises(ValueError, match=r"mechanism must be one of .*; got 'cauchy'"):
        plrv.privacy_loss(0.0, "cauchy", 1.0)
    with pytest.raises(ValueError, match="mechanism must be one of"):
        plrv.privacy_profile(0.5, ["laplace"], 1.0)


def test_gaussian_sigma_for_delta_scales_with_the_sensitivity_without_overflow():
    # δ₂ depends on σ/Δ only; Δ = 1e308 overflowed math.exp in the bracket search
    one = plrv.gaussian_sigma_for_delta(1.0, 1e-5)
    assert plrv.gaussian_sigma_for_delta(1.0, 1e-5, sensitivity=1e300) == pytest.approx(
        1e300 * one, rel=1e-12
    )
    assert plrv.gaussian_sigma_for_delta(1.0, 1e-5, sensitivity=1e308) == math.inf  # beyond floats


def test_gaussian_with_a_subnormal_sigma_is_a_step_not_nan():
    # σ = 5e-324: a − Δ/σ was inf − inf
    assert plrv.gaussian_delta(1.0, 5e-324) == 1.0
    assert plrv.gaussian_privacy_loss([-1.0, 0.5, 2.0], 5e-324).tolist() == [
        math.inf,
        0.0,
        -math.inf,
    ]


# ---------------------------------------------------------------- never under-report δ (issue 17)

mpmath = pytest.importorskip("mpmath")


def _exact_gaussian_delta(epsilon: float, sigma: float, delta_f: float):
    """δ₂ of Balle & Wang's Theorem 8 in 90-digit arithmetic, from c = −εσ/Δ and h = Δ/(2σ)."""
    with mpmath.workdps(90):
        e, s, d = mpmath.mpf(epsilon), mpmath.mpf(sigma), mpmath.mpf(delta_f)
        h, c = d / (2 * s), -e * s / d

        def ncdf(x):
            return mpmath.mpf(0) if x < -1e6 else mpmath.mpf(1) if x > 1e6 else mpmath.ncdf(x)

        if h < mpmath.mpf(10) ** -40 * (1 + abs(c)):  # first order in h, exact to 1e-80
            return 2 * h * mpmath.npdf(c) - mpmath.expm1(e) * ncdf(c - h)
        return ncdf(c + h) - mpmath.exp(e) * ncdf(c - h)


def _exact_geometric_delta(epsilon: float, scale: float, delta_f: int):
    """δ₂ of the two-sided geometric mechanism in 60-digit arithmetic (lumped pmf, exact losses)."""
    with mpmath.workdps(60):
        e, a = mpmath.mpf(epsilon), 1 / mpmath.mpf(scale)
        alpha = mpmath.exp(-a)
        masses = [1 / (1 + alpha)]  # P[Z ≤ 0]
        masses += [mpmath.tanh(a / 2) * mpmath.exp(-j * a) for j in range(1, delta_f)]
        masses += [mpmath.exp(-delta_f * a) / (1 + alpha)]  # P[Z ≥ Δ]
        total = mpmath.mpf(0)
        for j, mass in enumerate(masses):
            loss = (delta_f - 2 * j) * a
            if loss > e:
                total += mass * -mpmath.expm1(e - loss)
        return total


def test_geometric_delta_keeps_its_mass_at_a_huge_scale():
    # p_j − e^ε q_j subtracted two masses near ½: δ₂(0) was 0 at b = 1e17 (truth 5e-18)
    assert plrv.geometric_delta(0.0, 1e17) == pytest.approx(5e-18, rel=1e-12)
    assert plrv.geometric_delta(1e-18, 1e17) == pytest.approx(4.5e-18, rel=1e-12)
    assert plrv.geometric_delta(0.0, 1e300, sensitivity=3) == pytest.approx(1.5e-300, rel=1e-12)


@given(
    log_scale=st.floats(-3, 300),
    delta_f=st.integers(1, 4),
    share=st.floats(0, 1.2),
)
def test_geometric_delta_matches_high_precision_arithmetic(log_scale, delta_f, share):
    scale = 10.0**log_scale
    epsilon = share * delta_f / scale  # across [0, Δ/b] and beyond, where δ₂ = 0
    exact = _exact_geometric_delta(epsilon, scale, delta_f)
    got = plrv.geometric_delta(epsilon, scale, sensitivity=delta_f)
    assert got == pytest.approx(float(exact), rel=1e-10, abs=1e-300)


def test_gaussian_delta_on_a_narrow_interval_is_not_lost():
    # a = Δ/(2σ) − εσ/Δ and b = −Δ/(2σ) − εσ/Δ both rounded to −1: δ₂ was 0 (truth 8.3e-19)
    assert plrv.gaussian_delta(1e-17, 1e17) == pytest.approx(
        float(_exact_gaussian_delta(1e-17, 1e17, 1.0)), rel=1e-10
    )
    # ln Φ(a) and ε + ln Φ(b) cancelled to 13 digits: δ₂ was 6 times too large
    args = (254.22725449876367, 0.002378014548023126, 0.01563001753343651)
    assert plrv.gaussian_delta(args[0], args[1], sensitivity=args[2]) == pytest.approx(
        float(_exact_gaussian_delta(*args)), rel=1e-10
    )


@given(
    log_sigma=st.floats(-5, 20),
    log_delta_f=st.floats(-3, 3),
    log_epsilon=st.floats(-20, 2.5) | st.just(-math.inf),
)
def test_gaussian_delta_matches_high_precision_arithmetic_everywhere(
    log_sigma, log_delta_f, log_epsilon
):
    sigma, delta_f, epsilon = 10.0**log_sigma, 10.0**log_delta_f, 10.0**log_epsilon
    exact = _exact_gaussian_delta(epsilon, sigma, delta_f)
    got = plrv.gaussian_delta(epsilon, sigma, sensitivity=delta_f)
    if exact < 1e-300:  # below the doubles' normal range: only "tiny" is checked
        assert got < 1e-290
    else:
        assert got == pytest.approx(float(exact), rel=1e-10)


@given(
    st.sampled_from(["laplace", "gaussian", "geometric"]),
    st.floats(-3, 17),
    st.lists(st.floats(0, 50), min_size=2, max_size=6),
)
def test_delta_falls_with_epsilon_and_the_vector_is_the_scalars(mechanism, log_noise, grid):
    noise = 10.0**log_noise
    eps = np.sort(np.array(grid))
    naive, tight = plrv.privacy_profile(eps, mechanism, noise)
    assert np.all(np.diff(tight) <= 1e-15 * tight[:-1]) and np.all(np.diff(naive) <= 0)
    assert np.all(tight <= naive + 1e-15)
    scalars = [plrv.privacy_profile(float(e), mechanism, noise) for e in eps]
    np.testing.assert_array_equal(naive, [s[0] for s in scalars])
    np.testing.assert_array_equal(tight, [s[1] for s in scalars])


@given(
    epsilon=st.floats(0, 5),
    delta=st.floats(1e-12, 0.5),
    delta_f=st.floats(0.1, 10),
)
def test_sigma_for_delta_is_rounded_up_to_a_sigma_that_meets_delta(epsilon, delta, delta_f):
    # the root of brentq sat within 1e-14 of σ on either side: a δ a hair above the target
    try:
        sigma = plrv.gaussian_sigma_for_delta(epsilon, delta, sensitivity=delta_f)
    except ValueError as error:  # σ > 1e6·Δ is refused, as documented
        assert "needs σ > 1e6·Δ" in str(error)
        return
    assert plrv.gaussian_delta(epsilon, sigma, sensitivity=delta_f) <= delta
    # ... and it is the smallest such σ to about 1e-12
    assert plrv.gaussian_delta(epsilon, sigma * (1 - 1e-12), sensitivity=delta_f) > delta


def test_sigma_for_delta_round_trip_at_the_posts_numbers():
    target = float(plrv.gaussian_delta(LN3, SIGMA_POST))
    sigma = plrv.gaussian_sigma_for_delta(LN3, target)
    assert plrv.gaussian_delta(LN3, sigma) <= target
    assert sigma == pytest.approx(SIGMA_POST, rel=1e-13)


# ---------------------------------------------------------------- finite in, never NaN or a false ±inf

huge = st.floats(-1.7e308, 1.7e308) | st.sampled_from([1e308, -1e308, 1.7e308, -1.7e308])


@given(o=huge, loc=huge, log_scale=st.floats(-300, 300), delta_f=st.floats(1e-3, 1e3))
def test_laplace_and_geometric_losses_at_any_finite_output(o, loc, log_scale, delta_f):
    # o − loc overflowed at ±1e308 and |inf − Δ| − |inf| was NaN; the loss is a clipped line
    scale = 10.0**log_scale
    x = Fraction(o) - Fraction(loc)
    inside = min(max(x, Fraction(0)), Fraction(delta_f))
    exact = (Fraction(delta_f) - 2 * inside) / Fraction(scale)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an "invalid value" or a spurious overflow fails
        got = plrv.laplace_privacy_loss(o, scale, sensitivity=delta_f, loc=loc)
    assert got == pytest.approx(_as_float(exact), rel=1e-12, abs=1e-300)
    k, where = round(o), round(loc)
    d = max(1, round(delta_f))
    inside = min(max(Fraction(k) - Fraction(where), Fraction(0)), Fraction(d))
    exact = (Fraction(d) - 2 * inside) / Fraction(scale)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = plrv.geometric_privacy_loss(float(k), scale, sensitivity=d, loc=float(where))
    assert got == pytest.approx(_as_float(exact), rel=1e-12, abs=1e-300)


@given(o=huge, loc=huge, log_sigma=st.floats(-300, 300), delta_f=st.floats(1e-3, 1e3))
def test_gaussian_loss_at_any_finite_output(o, loc, log_sigma, delta_f):
    sigma = 10.0**log_sigma
    x = Fraction(o) - Fraction(loc)
    exact = Fraction(delta_f) * (Fraction(delta_f) / 2 - x) / Fraction(sigma) ** 2
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
        got = plrv.gaussian_privacy_loss(o, sigma, sensitivity=delta_f, loc=loc)
    assert got == pytest.approx(_as_float(exact), rel=1e-12, abs=1e-300)


def _as_float(exact: Fraction) -> float:
    """The double nearest an exact rational, ±inf beyond the largest double."""
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def test_losses_at_the_ends_of_the_doubles():
    assert plrv.laplace_privacy_loss(1e308, 1.0, loc=-1e308) == -1.0
    assert plrv.laplace_privacy_loss(-1e308, 1.0, loc=1e308) == 1.0
    assert plrv.gaussian_privacy_loss(1e308, 1e200, loc=-1e308) == pytest.approx(-2e-92)
    assert plrv.privacy_loss(-1e308, "geometric", 2.0, sensitivity=1, loc=1e308) == 0.5


@given(log_scale=st.floats(-300, 300), delta_f=st.floats(1e-3, 1e3))
def test_the_mechanisms_epsilon_is_rounded_up_and_delta_vanishes_exactly_there(log_scale, delta_f):
    # Δ/b rounded to nearest could sit below the true ε; δ at that ε is a true 1e-17, not 0
    scale = 10.0**log_scale
    bound = plrv.laplace_loss_bound(scale, sensitivity=delta_f)
    exact = Fraction(delta_f) / Fraction(scale)
    assert bound == math.inf or Fraction(bound) >= exact
    below = math.nextafter(bound, 0.0)
    assert below < exact  # the smallest such double
    assert plrv.laplace_delta(bound, scale, sensitivity=delta_f) == 0.0
    assert plrv.laplace_delta_naive(bound, scale, sensitivity=delta_f) == 0.0
    assert plrv.laplace_delta_naive(below, scale, sensitivity=delta_f) >= 0.5  # the atom counts
    if delta_f >= 1:  # the geometric mechanism's Δ is an integer
        d = round(delta_f)
        top = plrv.laplace_loss_bound(scale, sensitivity=d)
        assert plrv.geometric_delta(top, scale, sensitivity=d) == 0.0
        assert plrv.geometric_delta_naive(top, scale, sensitivity=d) == 0.0
        assert plrv.geometric_delta_naive(math.nextafter(top, 0.0), scale, sensitivity=d) > 0.0


def test_the_posts_scale_is_exactly_epsilon_ln_3():
    # 1/math.log(3) is a mechanism a hair above ε = ln 3; the post's scale is rounded up
    assert Fraction(1) / Fraction(plrv.POST_LAPLACE_SCALE) <= Fraction(plrv.POST_EPSILON)
    assert plrv.laplace_loss_bound(plrv.POST_LAPLACE_SCALE) == plrv.POST_EPSILON
    assert plrv.laplace_delta_naive(plrv.POST_EPSILON, 1 / math.log(3)) == 0.5


@given(prior=st.floats(1e-300, 0.999999), loss=st.floats(-700, 700) | st.sampled_from([0.0]))
def test_posterior_probability_is_the_exact_odds_update(prior, loss):
    # expit(L + logit p) lost ~1e-13 where ln p is large
    with mpmath.workdps(60):
        p = mpmath.mpf(prior)
        odds = p * mpmath.exp(mpmath.mpf(loss))
        exact = odds / (odds + 1 - p)
    if exact > 1e-300:
        assert plrv.posterior_probability(prior, loss) == pytest.approx(float(exact), rel=1e-15)
    assert plrv.posterior_probability(prior, 0.0) == prior
