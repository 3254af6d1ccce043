"""One battery over every mechanism class (scipy.stats' ``distcont`` idea): a table of example
parameters per class (:data:`EXAMPLES`), one suite that runs every property on every row.

A class added to :data:`helpers.mechanisms.MECHANISM_CLASSES` must have a row here (checked);
then it is put through the noise's consistency (cdf, sf, their logs, ppf, the pmf), δ(ε)
against its privacy-loss distribution and against brute force, the privacy-loss inverse,
sampling moments (fixed seeds, tolerances from the sample's own standard error), rounding
toward privacy (its budget map, its accuracy at a scale, ``from_epsilon``), merging in
``pld_delta`` (never lowers δ), the plots and the dashboards. A toy logistic noise, defined
and registered below in one class and one row, runs through all of it and through
``pld_delta``, ``choose_workload`` and the dashboards with no other edit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure
from scipy import integrate, stats

from helpers import budget as B
from helpers import mechanisms as m
from helpers.plotting import plrv as P
from helpers.widgets import budget_dashboard, plrv_dashboard


@dataclass(frozen=True, repr=False)
class Logistic(m.AdditiveNoise):
    """The toy: logistic noise of scale b, p(z) ∝ e^{−z/b}/(1 + e^{−z/b})²; |L| < Δ/b, so it
    is ε-DP with ε = Δ/b (the default budget map of a pure-ε class). Its noise is all it gives."""

    scale: float = 1.0

    name: ClassVar[str] = "logistic"
    label: ClassVar[str] = "logistic"
    scale_free: ClassVar[bool] = True

    @classmethod
    def from_epsilon(cls, epsilon, *, sensitivity=1.0):
        return cls(m.laplace_scale(epsilon, sensitivity=sensitivity), sensitivity=sensitivity)

    def cdf(self, x):
        return m.as_output(stats.logistic.cdf(np.asarray(x, float) / self.scale))

    def sf(self, x):
        return m.as_output(stats.logistic.sf(np.asarray(x, float) / self.scale))

    def logcdf(self, x):
        return m.as_output(stats.logistic.logcdf(np.asarray(x, float) / self.scale))

    def logpdf(self, x):
        with np.errstate(over="ignore"):  # far outputs: z = ±inf, a log density of −inf
            z = np.asarray(x, float) / self.scale
        return m.as_output(stats.logistic.logpdf(z) - np.log(self.scale))

    def sample(self, size=None, *, rng):
        return m.as_output(self.scale * m.make_rng(rng).logistic(size=size))


#: example parameters per class: each row is one mechanism the battery runs
EXAMPLES = {
    m.Laplace: [{"scale": 1.0}, {"scale": 0.7, "sensitivity": 2.0}],
    m.Gaussian: [{"sigma": 1.0}, {"sigma": 2.5, "sensitivity": 1.5}],
    m.TwoSidedGeometric: [{"scale": 1.3}, {"scale": 2.0, "sensitivity": 3}],
    m.DiscreteGaussian: [{"sigma": 1.5}, {"sigma": 0.6, "sensitivity": 2}, {"sigma": 4.0}],
    Logistic: [{"scale": 1.0}, {"scale": 0.8, "sensitivity": 2.0}],
}

EPSILONS = np.array([0.0, 0.1, 0.5, 1.0, 2.0])


@pytest.fixture(autouse=True)
def _registered(monkeypatch):
    """The toy is registered for each test, as a contributor registers a class."""
    monkeypatch.setitem(m.MECHANISM_CLASSES, Logistic.name, Logistic)


def _cases():
    return [
        pytest.param(cls, params, id=f"{cls.__name__}-{i}")
        for cls, rows in EXAMPLES.items()
        for i, params in enumerate(rows)
    ]


def _make(cls, params) -> m.AdditiveNoise:
    return cls(**params)


def _grid(mech) -> np.ndarray:
    noise = float(mech.noise)
    if mech.discrete:
        return np.arange(-math.ceil(8 * noise) - 3, math.ceil(8 * noise) + 4, dtype=float)
    return np.linspace(-12 * noise, 12 * noise, 97)


def test_every_registered_class_has_an_example_row():
    assert set(m.MECHANISM_CLASSES.values()) <= set(EXAMPLES)


# --- the noise ------------------------------------------------------------------------------


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_cdf_sf_and_their_logs_agree(cls, params):
    mech = _make(cls, params)
    x = _grid(mech)
    cdf, sf = np.asarray(mech.cdf(x)), np.asarray(mech.sf(x))
    np.testing.assert_allclose(cdf + sf, 1.0, rtol=0, atol=4e-16)
    np.testing.assert_allclose(np.exp(mech.logcdf(x)), cdf, rtol=1e-13, atol=0)
    np.testing.assert_allclose(np.exp(mech.logsf(x)), sf, rtol=1e-13, atol=0)
    assert np.all(np.diff(cdf) >= 0)
    # symmetric noise: P[Z ≤ −x] = P[Z ≥ x] (for integers, P[Z > x − 1])
    mirror = mech.sf(x - 1) if mech.discrete else mech.sf(x)
    np.testing.assert_allclose(mech.cdf(-x), mirror, rtol=1e-12, atol=0)
    # the far tails are kept relatively, never as 1 − cdf
    far = 25 * float(mech.noise) + 2
    assert 0 < float(mech.sf(far)) < 1e-10
    assert float(mech.logsf(far)) == pytest.approx(math.log(float(mech.sf(far))), rel=1e-12)


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_the_density_integrates_to_the_cdf(cls, params):
    mech = _make(cls, params)
    if mech.discrete:
        k = np.arange(-200 * math.ceil(mech.noise) - 5, 200 * math.ceil(mech.noise) + 6)
        p = np.asarray(mech.pdf(k))
        assert math.fsum(p.tolist()) == pytest.approx(1.0, abs=1e-14)
        np.testing.assert_allclose(
            np.cumsum(p)[:-1][k[:-1] > -10], mech.cdf(k[:-1][k[:-1] > -10]), atol=1e-14
        )
        with pytest.raises(NotImplementedError):
            mech.ppf(0.3)
        return
    for x in (-3.0, 0.0, 1.7):
        x = x * float(mech.noise)
        area, _ = integrate.quad(mech.pdf, -np.inf, x, epsabs=1e-14, epsrel=1e-12)
        assert area == pytest.approx(float(mech.cdf(x)), rel=1e-9)
    u = np.array([1e-9, 0.01, 0.3, 0.5, 0.9, 1 - 1e-9])
    np.testing.assert_allclose(mech.cdf(mech.ppf(u)), u, rtol=1e-9)


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_sampling_moments(cls, params):
    """Mean 0 and the class's variance, each within 5 standard errors of the sample's own
    (the variance's SE from the fourth moment), at fixed seeds."""
    mech = _make(cls, params)
    n = 20_000
    z = np.asarray(mech.sample(n, rng=2024), dtype=float)
    assert z.shape == (n,)
    if mech.discrete:
        assert np.all(z == np.round(z))
    var = float(cls.noise_variance(mech.noise))
    assert abs(z.mean()) <= 5 * math.sqrt(var / n)
    fourth = float(np.mean(z**4))
    assert abs(np.mean(z**2) - var) <= 5 * math.sqrt((fourth - var**2) / n)
    # the accuracy a scale delivers: P(|Z| ≤ k) at the class's own reach
    for c in (0.5, 0.9):
        k = float(cls.noise_reach(mech.noise, c))
        covered = float(cls.noise_coverage(mech.noise, k))
        assert covered >= c * (1 - 1e-12)
        assert abs(np.mean(np.abs(z) <= k) - covered) <= 5 * math.sqrt(covered * (1 - covered) / n)
    # the same seed, the same draws
    np.testing.assert_array_equal(mech.sample(5, rng=7), mech.sample(5, rng=7))


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_the_default_variance_quadrature_agrees_where_a_class_has_a_closed_form(cls, params):
    mech = _make(cls, params)
    if mech.discrete:
        k = np.arange(1, 200 * math.ceil(mech.noise) + 10, dtype=float)
        brute = 2 * math.fsum((k * k * np.asarray(mech.pdf(k))).tolist())
        assert float(cls.noise_variance(mech.noise)) == pytest.approx(brute, rel=1e-12)
        return
    generic = float(m.AdditiveNoise.noise_variance.__func__(cls, mech.noise))
    assert float(cls.noise_variance(mech.noise)) == pytest.approx(generic, rel=1e-9)


# --- the privacy loss and δ -------------------------------------------------------------------


def _brute_delta(mech, eps: float) -> float:
    """δ₂(ε) = Σ or ∫ max(0, p(o) − e^ε p(o − Δ)) by the definition, in 30-digit arithmetic for
    integer noise and by adaptive quadrature (to its threshold, where the integrand changes
    sign) otherwise."""
    d = float(mech.sensitivity)
    if mech.discrete:
        k = np.arange(-200 * math.ceil(mech.noise) - 5, 200 * math.ceil(mech.noise) + 6 + d)
        p, q = np.asarray(mech.pdf(k)), np.asarray(mech.pdf(k - d))
        with mpmath.workdps(30):
            terms = [
                mpmath.mpf(a) - mpmath.exp(eps) * mpmath.mpf(b) for a, b in zip(p, q, strict=True)
            ]
            return float(mpmath.fsum(t for t in terms if t > 0))
    x = float(mech.inverse_privacy_loss(eps))
    if x == -np.inf:
        return 0.0

    def excess(o):
        return float(mech.pdf(o)) - math.exp(eps) * float(mech.pdf(o - d))

    area, _ = integrate.quad(excess, -np.inf, x, epsabs=1e-15, epsrel=1e-11, limit=200)
    return max(area, 0.0)


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_delta_against_brute_force(cls, params):
    mech = _make(cls, params)
    for eps in EPSILONS:
        exact = _brute_delta(mech, float(eps))
        assert float(mech.delta(eps)) == pytest.approx(exact, rel=1e-8, abs=1e-15)
        assert float(mech.delta_naive(eps)) >= float(mech.delta(eps))


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_delta_against_its_privacy_loss_distribution(cls, params):
    """The class's PLD (pessimistic) is never below the exact δ and within its discretisation;
    the generic construction from the class's own cdf agrees with the native override."""
    mech = _make(cls, params)
    exact = np.asarray(mech.delta(EPSILONS))
    for build in (mech.pld, lambda **kw: m.AdditiveNoise.pld(mech, **kw)):
        pld = build(discretization=1e-4)
        read = np.array([float(pld.get_delta_for_epsilon(float(e))) for e in EPSILONS])
        assert np.all(read >= exact * (1 - 1e-9) - 1e-15)
        np.testing.assert_allclose(read, exact, rtol=2e-3, atol=2e-6)


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_the_privacy_loss_inverse(cls, params):
    """L(o) > ε exactly below x_ε, and L falls through ε there."""
    mech = _make(cls, params)
    for eps in (0.05, 0.3, 0.9):
        x = float(mech.inverse_privacy_loss(eps))
        if x == -np.inf:
            assert float(mech.delta(eps)) == 0.0
            continue
        if mech.discrete:
            below, above = math.ceil(x) - 1, math.ceil(x)
        else:
            below, above = x - 1e-6 * (1 + abs(x)), x + 1e-6 * (1 + abs(x))
        assert float(mech.privacy_loss(below)) > eps >= float(mech.privacy_loss(above))
        # the upper quantile of L at P[L > ε] is above ε, just beyond it at most ε
        naive = float(mech.delta_naive(eps))
        if 0 < naive < 1:
            assert float(mech.upper_quantile(naive * (1 - 1e-9))) > eps


# --- rounding toward privacy: the budget map, the accuracy, from_epsilon -------------------


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_rounding_toward_privacy(cls, params):
    mech = _make(cls, params)
    d = np.array([float(mech.sensitivity)] * 4)
    budgets = np.array([1e-3, 0.1, 1.0, 7.3])
    noise = cls.noise_for(d, budgets)
    # the noise a budget allows spends at most it, exactly (its measure's map)
    for dd, b, s in zip(d, budgets, noise, strict=True):
        spent = (
            Fraction(dd) / Fraction(s)
            if cls.measure == "epsilon"
            else Fraction(dd) ** 2 / (2 * Fraction(s) ** 2)
        )
        assert spent <= Fraction(b)
    assert np.all(cls.budget_of(d, noise) >= budgets * (1 - 1e-15))
    # the largest noise meeting an accuracy target meets it
    k, c = np.array([1.0, 5.0, 40.0]), np.array([0.5, 0.9, 0.99])
    scales = cls.accuracy_noise(k, c)
    assert np.all(cls.noise_coverage(scales, k) >= c)
    # from_epsilon: the least noise meeting the target, never a hair beyond it
    eps = 0.7
    if cls.measure == "epsilon":
        made = cls.from_epsilon(eps, sensitivity=mech.sensitivity)
        assert float(made.delta(eps)) == 0.0
    else:
        made = cls.from_epsilon(eps, 1e-5, sensitivity=mech.sensitivity)
        assert float(made.delta(eps)) <= 1e-5
        less = cls(float(made.noise) * (1 - 1e-9), sensitivity=mech.sensitivity)
        assert float(less.delta(eps)) > float(made.delta(eps))


def test_integer_noise_refuses_other_sensitivities_by_its_name():
    for cls in m.MECHANISM_CLASSES.values():
        if cls.discrete:
            with pytest.raises(ValueError, match=f"for the {cls.label} mechanism"):
                cls(1.0, sensitivity=1.5)
            with pytest.raises(ValueError, match=f"for the {cls.label} mechanism"):
                B.pld_delta(1.0, cls.name, 1.0, sensitivity=0.5)
            with pytest.raises(ValueError, match=f"{cls.label} mechanism"):
                B.budget_for_accuracy(
                    [B.Release("mean", k=1.0, lower=0, upper=10, n=7)], mechanism=cls
                )


# --- composition: merging never lowers δ ----------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(sorted(EXAMPLES, key=lambda c: c.__name__)),
    st.floats(min_value=0.3, max_value=6.0),
    st.floats(min_value=0.0, max_value=0.02),
    st.sampled_from([0.005, 0.01, 0.05]),
    st.integers(min_value=1, max_value=3),
)
def test_merging_never_lowers_delta(cls, noise, spread, merge, sensitivity):
    sens = sensitivity if cls.discrete else sensitivity / 2
    releases = [cls(noise, sensitivity=sens), cls(noise * (1 + spread), sensitivity=sens)]
    eps = np.array([0.0, 0.5, 1.5])
    kw = {"discretization": 1e-3}
    merged = B.pld_delta(eps, releases, merge=merge, **kw)
    exact = B.pld_delta(eps, releases, **kw)
    assert np.all(merged >= exact * (1 - 1e-9))


def test_the_issue_s_discrete_gaussian_merge():
    """pld_delta(0.5, [DG(0.4), DG(0.401)], merge=0.01) gave 0.802 where unmerged is 0.921."""
    releases = [m.DiscreteGaussian(0.4), m.DiscreteGaussian(0.401)]
    merged, exact = B.pld_delta(0.5, releases, merge=0.01), B.pld_delta(0.5, releases)
    assert merged >= exact > 0.92


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_pld_delta_by_name_and_object(cls, params):
    mech = _make(cls, params)
    by_object = B.pld_delta(1.0, mech, times=3, discretization=1e-3)
    by_name = B.pld_delta(
        1.0, cls.name, mech.noise, sensitivity=mech.sensitivity, times=3, discretization=1e-3
    )
    assert by_object == by_name
    assert by_object >= float(mech.delta(1.0))


# --- allocation, plots and dashboards take it --------------------------------------------------

INTEGER_WORKLOAD = [
    B.Release("count", k=20.0, label="smokers"),
    B.Release("sum", k=300.0, lower=0, upper=10, label="hours"),
]


@pytest.mark.parametrize("cls", list(EXAMPLES))
def test_choose_workload_takes_the_family(cls):
    workload = (
        INTEGER_WORKLOAD
        if cls.discrete
        else [*INTEGER_WORKLOAD, B.Release("mean", k=2.0, lower=0, upper=100, n=200)]
    )
    risk = B.risk_posterior(0.8, prior=0.5)
    choice = B.choose_workload(workload, risk, mechanism=cls.name, delta=1e-6)
    family = B.NoiseFamily.of(cls)
    assert choice.accuracy.mechanism == cls.name and family.unit in choice.message
    assert choice.feasible == (
        choice.accuracy.total <= B.total_for_risk(risk, mechanism=cls, delta=1e-6)
    )
    # the accuracy side meets every target at the class's own coverage
    assert np.all(cls.noise_coverage(choice.accuracy.scales, [r.k for r in workload]) >= 0.95)


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_the_plots_draw_it(cls, params):
    mech = _make(cls, params)
    figures = [
        P.plot_two_densities(mech),
        P.plot_loss_vs_output(mech),
        P.plot_exp_loss(mech, epsilon=0.5),
        P.plot_delta_area(0.5, mech),
        P.plot_plrv_panels(mech, epsilon=0.5),
        P.plot_privacy_profile([mech]),
    ]
    for fig in figures:
        assert isinstance(fig, Figure) and fig.axes
        assert any(ax.lines or ax.collections for ax in fig.axes)


@pytest.mark.parametrize("cls", list(EXAMPLES))
def test_the_dashboards_offer_and_accept_it(cls):
    dash = plrv_dashboard(cls.name, 1.2, 0.5)
    assert cls.name in [value for _, value in dash.controls["mechanism"].options]
    mech = cls(1.2)
    assert f"{float(mech.delta(0.5)):.5f}" in dash.text
    assert mech.loss_text() in dash.text
    budget = budget_dashboard(INTEGER_WORKLOAD)
    assert cls.name in [value for _, value in budget.controls["mechanism"].options]
    budget.controls["mechanism"].value = cls.name
    expected = B.choose_workload(
        INTEGER_WORKLOAD, B.risk_posterior(0.8, prior=0.5), mechanism=cls, delta=1e-6
    )
    assert expected.message in budget.text


@pytest.mark.parametrize(("cls", "params"), _cases())
def test_closed_form_accuracy_agrees_with_the_generic_steps(cls, params):
    """A class's closed-form coverage, reach and accuracy scale against the base class's
    generic ones (from its own sf and ppf)."""
    mech = _make(cls, params)
    base = m.AdditiveNoise
    k, c = np.array([0.5, 3.0, 40.0]), np.array([0.5, 0.9, 0.99])
    noise = np.full(3, float(mech.noise))
    np.testing.assert_allclose(
        cls.noise_coverage(noise, k), base.noise_coverage.__func__(cls, noise, k), rtol=1e-12
    )
    np.testing.assert_allclose(
        cls.noise_reach(noise, c), base.noise_reach.__func__(cls, noise, c), rtol=1e-9
    )
    np.testing.assert_allclose(
        cls.accuracy_noise(k, c), base.accuracy_noise.__func__(cls, k, c), rtol=1e-9
    )
