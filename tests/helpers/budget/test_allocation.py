"""helpers.budget.allocation: the total the accuracy targets need and the split of a total,
against choose for one release, seeded Monte Carlo for the accuracy targets and scipy's
optimiser for the variance-optimal split (with the KKT conditions as a certificate); joint
coverage and Bonferroni.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from _modules import at_most
from _workloads import (
    COUNT,
    MEAN,
    RISK_08,
    SUM,
    WORKLOAD,
    _draws,
    _exact_budget,
    _fields,
    _integer,
    _random_workload,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from helpers import budget as B
from helpers import choose as ch
from helpers import mechanisms as m
from helpers.plotting.budget import SURVEY  # the notebook's survey

mpmath.mp.dps = 60


# --- allocation: accuracy side ------------------------------------------------------------


def test_one_release_matches_choose():
    for release, kwargs in (
        (COUNT, {}),
        (SUM, {"lower": 0, "upper": 10}),
        (MEAN, {"lower": 0, "upper": 100, "n": 200}),
    ):
        sens = ch.sensitivity_of(release.kind, **kwargs)
        allocation = B.budget_for_accuracy([release])
        assert allocation.sensitivities[0] == sens
        eps = ch.epsilon_for_accuracy(release.k, sensitivity=sens, coverage=release.coverage)
        assert eps <= allocation.total <= eps * (1 + 1e-14)


def test_sensitivities_follow_choose_and_round_up():
    assert B.workload_sensitivities(WORKLOAD).tolist() == [1.0, 10.0, 0.5]
    assert B.workload_sensitivities([B.Release("count", k=1.0, sensitivity=2.0)]).tolist() == [2.0]
    # 0.3 − 0.1 is not exact: the double above the exact difference
    (delta_f,) = B.workload_sensitivities([B.Release("sum", k=1.0, lower=0.1, upper=0.3)])
    assert Fraction(delta_f) >= Fraction(0.3) - Fraction(0.1)
    (delta_f,) = B.workload_sensitivities([B.Release("mean", k=1.0, lower=0.0, upper=1.0, n=3)])
    assert Fraction(delta_f) >= Fraction(1, 3) and delta_f == math.nextafter(1 / 3, 1)


@given(st.integers(0, 10**6))
def test_budget_for_accuracy_rounds_toward_both_claims(seed):
    """Each scale meets its target (the family's coverage at it ≥ c; for Laplace and Gaussian
    in 60 digits in test_closed_form_scales_meet_the_target_exactly), each budget covers its
    scale exactly (Δ/b ≤ ε, Δ²/(2σ²) ≤ ρ_z in 60 digits) and the total covers the budgets."""
    for mechanism in B.MECHANISMS:
        workload = _random_workload(np.random.default_rng(seed), 4, integer=_integer(mechanism))
        allocation = B.budget_for_accuracy(workload, mechanism=mechanism)
        cls = B.NoiseFamily.of(mechanism).mechanism
        assert allocation.meets.all()
        assert Fraction(allocation.total) >= sum(Fraction(x) for x in allocation.budgets)
        for release, b, budget, sens in zip(
            workload, allocation.scales, allocation.budgets, allocation.sensitivities, strict=True
        ):
            # the coverage at the scale is at least the target (the class's own coverage)
            assert cls.noise_coverage(b, release.k, sensitivity=sens) >= release.coverage
            b, sens = mpmath.mpf(b), mpmath.mpf(sens)
            assert _exact_budget(mechanism, sens, b) <= budget


@settings(max_examples=40)
@given(st.integers(0, 10**6))
def test_closed_form_scales_meet_the_target_exactly(seed):
    """Laplace: b ≤ k/ln(1/(1 − c)); Gaussian: σ ≤ k/(√2·erfinv(c)), in 60 digits."""
    workload = _random_workload(np.random.default_rng(seed), 4)
    exact = {
        m.Laplace: lambda k, c: k / -mpmath.log1p(-c),
        m.Gaussian: lambda k, c: k / (mpmath.sqrt(2) * mpmath.erfinv(c)),
    }
    for cls, largest in exact.items():
        allocation = B.budget_for_accuracy(workload, mechanism=cls)
        for release, b in zip(workload, allocation.scales, strict=True):
            assert mpmath.mpf(b) <= largest(mpmath.mpf(release.k), mpmath.mpf(release.coverage))


@pytest.mark.parametrize("mechanism", B.MECHANISMS)
def test_each_release_meets_its_accuracy_in_simulation(mechanism):
    """Seeded Monte Carlo: the share of draws within ±k_i is c_i within 4.5 binomial SEs
    (the scale is the largest that meets the target, so the coverage is c_i, not above it)."""
    rng = np.random.default_rng(11)
    workload = _random_workload(rng, 8, integer=_integer(mechanism))
    allocation = B.budget_for_accuracy(workload, mechanism=mechanism)
    draws = 40_000
    noise = _draws(mechanism, allocation, draws, 12)
    within = (np.abs(noise) <= [r.k for r in workload]).mean(axis=0)
    # the coverage the scale delivers: c itself for continuous noise (the largest scale
    # meeting it), at or above c for integer noise (a step function of k)
    coverage = allocation.coverage
    assert np.all(coverage >= [r.coverage for r in workload])
    se = np.sqrt(np.maximum(coverage * (1 - coverage), 1e-6) / draws)
    assert np.all(np.abs(within - coverage) <= 4.5 * se), (within, coverage)


@pytest.mark.parametrize("mechanism", B.MECHANISMS)
def test_a_split_delivers_the_coverage_it_reports_in_simulation(mechanism):
    rng = np.random.default_rng(13)
    workload = _random_workload(rng, 8, integer=_integer(mechanism))
    total = 0.6 * B.budget_for_accuracy(workload, mechanism=mechanism).total
    allocation = B.split_budget(workload, total, mechanism=mechanism)
    draws = 40_000
    noise = _draws(mechanism, allocation, draws, 14)
    within = (np.abs(noise) <= [r.k for r in workload]).mean(axis=0)
    reported = allocation.coverage
    se = np.sqrt(np.maximum(reported * (1 - reported), 1e-6) / draws)
    assert np.all(np.abs(within - reported) <= 4.5 * se)
    reach = (np.abs(noise) <= allocation.k).mean(axis=0)  # the ±k reached at coverage c_i
    # at least c_i (integer noise reaches an integer ±k, covering a little more)
    exact = B.NoiseFamily.of(mechanism).mechanism.noise_coverage(
        allocation.scales, allocation.k, sensitivity=allocation.sensitivities
    )
    assert np.all(exact >= [r.coverage for r in workload])
    assert np.all(np.abs(reach - exact) <= 4.5 * np.sqrt(exact * (1 - exact) / draws + 1e-12))


def test_accuracy_too_tight_for_a_finite_budget_is_refused():
    tight = B.Release("sum", k=1e-150, lower=-1e150, upper=1e150)
    with pytest.raises(ValueError, match=r"workload\[0\]: k must be wider"):
        B.budget_for_accuracy([tight], mechanism="gaussian")


# --- allocation: the variance-optimal split -----------------------------------------------


def _objective(budgets, weights, sens, mechanism):
    """Σ w_i·(the squared scale a budget allows): b² = Δ²/ε² (pure ε) or σ² = Δ²/(2ρ) (zCDP),
    times 2 for the Laplace's variance 2b² (the variance itself for Laplace and Gaussian)."""
    if B.NoiseFamily.of(mechanism).measure.pure:
        return float(np.sum(weights * 2 * sens**2 / budgets**2))
    return float(np.sum(weights * sens**2 / (2 * budgets)))


#: how far above the true minimum scipy's constrained optimum may stop, relatively (the
#: objective is scaled to 1 at the start): SLSQP when it succeeds, and its fallback (measured by
#: forcing it, FORCE_FALLBACK = True: at most 4e-6 over every case here). The KKT certificate in
#: the test holds the optimum itself to 1e-9 whichever scipy method ran.
SPLIT_TOL = 1e-9
FALLBACK_TOL = 1e-5
FORCE_FALLBACK = False


def _scipy_split(weights, sens, total, mechanism, floors=None):
    """scipy's optimum, found without the closed form, from the even (or proportional) split.

    Without floors: BFGS over ε = E·softmax(x), x unconstrained (the parametrisation covers
    exactly the positive budgets adding up to E). With floors: SLSQP over y_i = ε_i/floor_i ≥ 1
    with Σ floor_i·y_i = E (variables scaled to order 1), from the proportional split.
    Objectives are divided by their value at the start.
    """
    m = len(weights)
    if floors is None:

        def budgets(x):
            z = np.exp(x - x.max())
            return total * z / z.sum()

        start = _objective(budgets(np.zeros(m)), weights, sens, mechanism)
        result = minimize(
            lambda x: _objective(budgets(x), weights, sens, mechanism) / start,
            np.zeros(m),
            method="BFGS",
            options={"gtol": 1e-12, "maxiter": 10_000},
        )
        return budgets(result.x), 1e-6  # BFGS at gtol 1e-12 on a smooth convex objective
    floors = np.asarray(floors, dtype=float)
    # a feasible start: the proportional split meets the equality and every bound (total ≥ Σ floors)
    y0 = np.full(m, total / floors.sum())
    assert np.all(y0 >= 1.0) and floors @ y0 == pytest.approx(total, rel=1e-15)
    start = _objective(floors * y0, weights, sens, mechanism)

    def objective(y):
        return _objective(floors * y, weights, sens, mechanism) / start

    bounds = [(1.0, None)] * m
    constraint = {"type": "eq", "fun": lambda y: floors @ y / total - 1}

    # SLSQP from that feasible start. Where its line search gives up ("Positive directional
    # derivative for linesearch", which at this ftol depends on the CPU's last bits), a fallback:
    # trust-constr from the same start, then SLSQP again from where it stopped; the best feasible
    # point found is judged with the looser tolerance such a fallback reaches (FALLBACK_TOL).
    def slsqp(start_point):
        return minimize(
            objective, start_point, method="SLSQP", bounds=bounds, constraints=[constraint],
            options={"ftol": 1e-15, "maxiter": 1000},
        )  # fmt: skip

    def feasible(y):
        return np.all(y >= 1.0 - 1e-12) and abs(floors @ y / total - 1) <= 1e-12

    result = slsqp(y0)
    if result.success and feasible(result.x) and not FORCE_FALLBACK:
        return floors * result.x, SPLIT_TOL
    rough = minimize(
        objective, y0, method="trust-constr", bounds=bounds, constraints=[constraint],
        options={"gtol": 1e-12, "maxiter": 20_000},
    )  # fmt: skip
    candidates = [rough.x, slsqp(np.maximum(rough.x, 1.0)).x]
    if not FORCE_FALLBACK:
        candidates.append(result.x)
    candidates = [y for y in candidates if feasible(y)]
    assert candidates, "no feasible point from scipy"
    return floors * min(candidates, key=objective), FALLBACK_TOL


@pytest.mark.parametrize("mechanism", B.MECHANISMS)
@pytest.mark.parametrize("case", range(10))
def test_closed_form_split_is_scipys_optimum(mechanism, case):
    rng = np.random.default_rng(1000 + case)
    workload = _random_workload(rng, int(rng.integers(2, 7)), integer=_integer(mechanism))
    weights = np.array([r.weight for r in workload])
    sens = B.workload_sensitivities(workload)
    total = float(rng.uniform(0.2, 4.0))
    ours = B.split_budget(workload, total, mechanism=mechanism)
    theirs, tol = _scipy_split(weights, sens, total, mechanism)
    assert ours.budgets.sum() <= total
    ours_value = _objective(ours.budgets, weights, sens, mechanism)
    theirs_value = _objective(theirs, weights, sens, mechanism)
    assert ours_value <= theirs_value * (1 + 1e-9)
    assert theirs_value <= ours_value * (1 + tol)  # scipy got there too
    np.testing.assert_allclose(ours.budgets, theirs, rtol=1e-2, atol=1e-3 * total)
    # and the closed-form minimum of the derivation (the variance itself for Laplace and
    # Gaussian noise, whose variance is 2b² and σ²)
    if B.NoiseFamily.of(mechanism).measure.pure:
        best = 2 * float(np.sum(np.cbrt(weights * sens**2))) ** 3 / total**2
    else:
        best = float(np.sum(np.sqrt(weights) * sens)) ** 2 / (2 * total)
    assert ours_value == pytest.approx(best, rel=1e-9)
    cls = B.NoiseFamily.of(mechanism).mechanism
    variance = math.fsum((weights * cls.noise_variance(ours.scales, sensitivity=sens)).tolist())
    assert ours.variance == pytest.approx(variance, rel=1e-12)
    if cls in (m.Laplace, m.Gaussian):  # their variance is the proxy itself
        assert ours.variance == pytest.approx(best, rel=1e-9)
        # never below the minimum: up to the rounding of the two ways of computing it (each of
        # m cube roots, m + 1 sums and the cube: about 3(m + 2) ulps; two formulas, twice that)
        assert at_most(best, ours.variance, ulps=6 * (len(weights) + 2))


@pytest.mark.parametrize("mechanism", B.MECHANISMS)
@pytest.mark.parametrize("case", range(8))
def test_split_that_meets_every_target_is_scipys_constrained_optimum(mechanism, case):
    rng = np.random.default_rng(1100 + case)
    workload = _random_workload(rng, int(rng.integers(2, 7)), integer=_integer(mechanism))
    weights = np.array([r.weight for r in workload])
    sens = B.workload_sensitivities(workload)
    floors = B.budget_for_accuracy(workload, mechanism=mechanism).budgets
    total = float(floors.sum() * rng.uniform(1.01, 3.0))
    ours = B.split_budget(workload, total, mechanism=mechanism, meet_targets=True)
    assert ours.meets.all() and np.all(ours.budgets >= floors)
    assert ours.budgets.sum() <= total
    theirs, tol = _scipy_split(weights, sens, total, mechanism, floors=floors)
    ours_value = _objective(ours.budgets, weights, sens, mechanism)
    theirs_value = _objective(theirs, weights, sens, mechanism)
    assert ours_value <= theirs_value * (1 + SPLIT_TOL)  # no feasible point is better than ours
    assert theirs_value <= ours_value * (1 + tol)  # scipy got there too
    # the KKT certificate of the convex problem: every release above its floor has the same
    # marginal gain λ = −∂f/∂ε_i, and none at its floor would gain more than λ from budget
    pure = B.NoiseFamily.of(mechanism).measure.pure
    gain = weights * sens**2 / ours.budgets ** (3 if pure else 2) * (4 if pure else 0.5)
    free = ours.budgets > floors * (1 + 1e-9)
    assert free.any()
    lam = gain[free].mean()
    np.testing.assert_allclose(gain[free], lam, rtol=1e-9)
    assert np.all(gain[~free] <= lam * (1 + 1e-9))
    with pytest.raises(ValueError, match="at least"):
        B.split_budget(workload, 0.99 * floors.sum(), mechanism=mechanism, meet_targets=True)


@given(
    seed=st.integers(0, 10**6),
    mechanism=st.sampled_from(B.MECHANISMS),
    data=st.data(),
)
def test_split_is_permutation_invariant_and_scales(seed, mechanism, data):
    rng = np.random.default_rng(seed)
    workload = _random_workload(rng, int(rng.integers(2, 8)), integer=_integer(mechanism))
    total = float(rng.uniform(0.1, 10))
    base = B.split_budget(workload, total, mechanism=mechanism)
    order = data.draw(st.permutations(range(len(workload))))
    permuted = B.split_budget([workload[i] for i in order], total, mechanism=mechanism)
    np.testing.assert_allclose(permuted.budgets, base.budgets[list(order)], rtol=1e-12)
    # twice the total: twice each budget
    doubled = B.split_budget(workload, 2 * total, mechanism=mechanism)
    np.testing.assert_allclose(doubled.budgets, 2 * base.budgets, rtol=1e-12)
    # every weight ×c: the same split
    c = data.draw(st.floats(0.01, 100))
    reweighted = [B.Release(**{**_fields(r), "weight": r.weight * c}) for r in workload]
    np.testing.assert_allclose(
        B.split_budget(reweighted, total, mechanism=mechanism).budgets, base.budgets, rtol=1e-12
    )
    # every sensitivity ×c (bounds and ±k stretched): the same split, scales ×c
    if _integer(mechanism):
        c = float(data.draw(st.integers(1, 100)))  # integer noise takes integer Δ only
    stretched = [
        B.Release(**{**_fields(r), "sensitivity": s * c})
        for r, s in zip(workload, base.sensitivities, strict=True)
    ]
    again = B.split_budget(stretched, total, mechanism=mechanism)
    np.testing.assert_allclose(again.budgets, base.budgets, rtol=1e-12)
    np.testing.assert_allclose(again.scales, base.scales * c, rtol=1e-12)
    assert Fraction(base.total) <= Fraction(total)


def test_split_budget_laplace_shares_are_the_cube_roots():
    workload = [
        B.Release("count", k=1.0, weight=1.0),
        B.Release("count", k=1.0, weight=8.0),
        B.Release("count", k=1.0, weight=27.0, sensitivity=1.0),
    ]
    allocation = B.split_budget(workload, 6.0)
    np.testing.assert_allclose(allocation.budgets, [1.0, 2.0, 3.0], rtol=1e-12)
    gaussian = B.split_budget(workload, 6.0, mechanism="gaussian")  # √w: 1, 2√2, 3√3
    np.testing.assert_allclose(
        gaussian.budgets / gaussian.budgets[0], [1, 8**0.5, 27**0.5], rtol=1e-12
    )


def test_workload_of_ten_thousand_allocates():
    """Scale is benchmarked (benchmarks/bench_budget.py); here only that it works."""
    rng = np.random.default_rng(5)
    workload = _random_workload(rng, 10_000, n=1000)
    allocation = B.split_budget(workload, 50.0, meet_targets=False)
    assert allocation.budgets.shape == (10_000,)
    assert Fraction(allocation.total) <= 50
    assert Fraction(allocation.total) >= sum(Fraction(x) for x in allocation.budgets)


# --- both splits, joint coverage -----------------------------------------------------------


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_the_split_by_need_misses_every_target_by_the_same_smallest_factor(mechanism):
    acc = B.budget_for_accuracy(list(SURVEY), mechanism=mechanism, delta=1e-6)
    total = 0.7 * acc.total
    need = B.split_budget(list(SURVEY), total, mechanism=mechanism, objective="need")
    variance = B.split_budget(list(SURVEY), total, mechanism=mechanism)
    ks = np.array([r.k for r in SURVEY])
    factor = (1 / 0.7) if mechanism == "laplace" else math.sqrt(1 / 0.7)
    np.testing.assert_allclose(need.k / ks, factor, rtol=1e-9)
    assert math.fsum(need.budgets) <= total
    assert np.max(need.k / ks) <= np.max(variance.k / ks)
    with pytest.raises(ValueError, match="objective"):
        B.split_budget(list(SURVEY), total, mechanism=mechanism, objective="fair")


def test_the_issues_split_numbers_for_the_gaussian_survey():
    # issue 29, item 3: at the CKS ρ_z of posterior 0.8 the variance-optimal split misses 3 of
    # 6 targets (worst ×1.366), the split by need all six by ×1.176; ∏ cᵢ = 0.66
    rho = B.total_for_risk(RISK_08, mechanism="gaussian", delta=1e-6)
    ks = np.array([r.k for r in SURVEY])
    variance = B.split_budget(list(SURVEY), rho, mechanism="gaussian")
    need = B.split_budget(list(SURVEY), rho, mechanism="gaussian", objective="need")
    assert np.count_nonzero(~variance.meets) == 3 and round(np.max(variance.k / ks), 3) == 1.366
    # (×1.17548: the issue prints ×1.176, 1.1755 rounded up)
    assert np.count_nonzero(~need.meets) == 6 and round(np.max(need.k / ks), 4) == 1.1755
    assert round(B.joint_coverage([r.coverage for r in SURVEY]), 2) == 0.66


def test_joint_coverage_is_the_product_and_bonferroni_meets_it():
    c = [0.9, 0.95, 0.99, 0.5]
    exact = Fraction(1)
    for v in c:
        exact *= Fraction(v)
    assert B.joint_coverage(c) == pytest.approx(float(exact), rel=1e-14)
    assert B.joint_coverage([0.5, 0.0]) == 0.0
    for joint in (0.5, 0.9, 0.95, 0.999):
        adjusted = B.bonferroni(list(SURVEY), joint=joint)
        assert all(r.coverage == pytest.approx(1 - (1 - joint) / len(SURVEY)) for r in adjusted)
        assert [r.label for r in adjusted] == [r.label for r in SURVEY]
        assert B.joint_coverage([r.coverage for r in adjusted]) >= joint
    with pytest.raises(ValueError, match="joint"):
        B.bonferroni(list(SURVEY), joint=1.0)
    with pytest.raises(ValueError, match="coverage"):
        B.joint_coverage([0.5, 1.5])


def test_bonferroni_keeps_a_workloads_unit():
    """A workload stated for a unit of privacy stays one (issue 46: m travels as an object);
    a plain sequence stays a list. Only the coverage moves."""
    from helpers.budget import PrivacyUnit, Workload

    releases = [
        B.Release("count", k=5.0, sensitivity=3.0),
        B.Release("count", k=8.0, sensitivity=3.0),
    ]
    person = PrivacyUnit("person", contributions=3)
    adjusted = B.bonferroni(Workload(releases, unit=person), joint=0.9)
    assert isinstance(adjusted, Workload) and adjusted.unit == person
    assert [r.coverage for r in adjusted] == [0.95, 0.95]
    assert [r.sensitivity for r in adjusted] == [3.0, 3.0]
    plain = B.bonferroni(releases, joint=0.9)
    assert type(plain) is list and [r.coverage for r in plain] == [0.95, 0.95]
    assert B.split_budget(adjusted, 1.0).unit == person
