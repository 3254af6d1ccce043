"""helpers.release: the unit of privacy, δ against n, small groups, odds, the record, OpenDP."""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from helpers import budget as B
from helpers import deployments as D
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


# --- explaining the choice ----------------------------------------------------------------------


@pytest.mark.parametrize("prior", [0.01, 0.05, 0.2, 0.5])
@pytest.mark.parametrize("epsilon,delta", [(0.5, 0.0), (1.3863, 0.0), (2.0, 1e-8)])
def test_odds_sentence_numbers_are_recomputed_from_the_posterior_bound(prior, epsilon, delta):
    sentence = R.odds_sentence(epsilon, delta, prior=prior)
    shown = [float(x) for x in re.findall(r"([\d.]+) %", sentence)]
    bound = D.posterior_bound(epsilon + (math.log(2) if delta else 0.0), prior=prior)
    assert shown[0] == pytest.approx(100 * prior)
    assert shown[1] >= 100 * bound - 1e-9  # rounded up, never down
    assert shown[1] - 100 * bound < 0.1 + 1e-9
    icons = [int(x) for x in re.findall(r"\((\d+) in 100", sentence)]
    assert icons[1] == math.ceil(100 * bound - 1e-9)
    assert ("rare outputs" in sentence) == (delta > 0)
    if delta:
        assert R.odds(epsilon, delta, prior=prior).bad_event == pytest.approx(2 * delta)


def test_attack_reading_is_the_deployments_trade_off():
    assert R.attack_reading(1.0, 1e-6, fpr=0.05).tpr == D.tpr_at_fpr(0.05, epsilon=1.0, delta=1e-6)
    z = R.attack_reading(None, fpr=0.01, rho=0.3)
    assert z.tpr == D.zcdp_tpr(0.3, 0.01)
    assert z.advantage == pytest.approx(z.tpr - 0.01)


def test_subject_paragraph_says_the_unit_the_bound_and_the_odds():
    text = R.subject_paragraph(1.5, 1e-8, prior=0.05, unit="person", contributions=3)
    assert "each person" in text and "3 records" in text
    assert R.odds_sentence(1.5, 1e-8, prior=0.05) in text
    assert "fail entirely" in text
    assert "each record" in R.subject_paragraph(1.5, prior=0.05, unit="record")


# --- the record -----------------------------------------------------------------------------


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_record_round_trips_through_the_deployments_reader(mechanism):
    work = R.per_person(SURVEY, contributions=3)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism, delta=1e-9)
    record = R.privacy_record(
        allocation,
        unit="person",
        neighbours="change-one",
        date="2026-11-26",
        name="Clinic survey",
        curators="A health agency",
        workload=work,
        contributions=3,
    )
    assert set(record) == set(R.RECORD_FIELDS)
    again = json.loads(json.dumps(record))
    assert again == record
    row = R.registry_table(again).iloc[0]
    assert row["status"] == "usable"
    assert row["unit_group"] == "one person or entity"
    # pandas' default CSV float parser is within one unit in the last place, not exact
    if mechanism == "laplace":
        assert row["epsilon_used"] == pytest.approx(allocation.total, rel=3e-16)
        assert row["delta_used"] == 0.0
    else:
        assert row["rho"] == pytest.approx(allocation.total, rel=3e-16)
        assert row["epsilon_used"] == pytest.approx(
            D.zcdp_to_epsilon(allocation.total, 1e-9), rel=1e-12
        )
        assert row["epsilon_used"] >= allocation.epsilon * (1 - 1e-12)
    budgets = [r["budget"] for r in record["release_list"]]
    assert budgets == allocation.budgets.tolist()
    assert [r["label"] for r in record["release_list"]] == [r.label for r in SURVEY]
    views = D.three_views(row["epsilon_used"], row["delta_used"], prior=0.5)
    assert views["posterior"] == D.posterior_bound(row["epsilon_used"], prior=0.5)


def test_record_reader_flags_a_malformed_record():
    allocation = B.budget_for_accuracy(SURVEY)
    record = R.privacy_record(
        allocation,
        unit="record",
        neighbours="add-remove",
        date="2026-01-02",
        name="x",
        curators="y",
    )
    record["dp_variant"] = "Approximate DP"  # an ε with no δ: the reader says why
    assert R.registry_table(record).iloc[0]["status"] != "usable"
    assert R.registry_table(record).iloc[0]["unit_group"] == "one event or record"


# --- OpenDP ---------------------------------------------------------------------------------


def _random_workload(rng, size: int, n: int) -> list:
    releases = []
    for i in range(size):
        kind = str(rng.choice(["count", "sum", "mean"]))
        lower = float(rng.uniform(-50, 50))
        upper = lower + float(rng.uniform(0.5, 100))
        releases.append(
            B.Release(
                kind,
                k=float(rng.uniform(1, 50)) * (1 if kind != "mean" else 0.05),
                coverage=float(rng.uniform(0.6, 0.99)),
                lower=None if kind == "count" else lower,
                upper=None if kind == "count" else upper,
                n=n if kind == "mean" else None,
                label=f"r{i}",
            )
        )
    return releases


@pytest.mark.parametrize("case", range(16))
def test_opendp_maps_give_the_allocated_budget(case):
    rng = np.random.default_rng(700 + case)
    n = int(rng.integers(20, 3000))
    m = int(rng.integers(1, 5))
    mechanism = "laplace" if case % 2 == 0 else "gaussian"
    work = R.per_person(_random_workload(rng, int(rng.integers(1, 6)), n), contributions=m)
    allocation = (
        B.budget_for_accuracy(work, mechanism=mechanism)
        if case % 4 < 2
        else B.split_budget(work, float(rng.uniform(0.05, 4.0)), mechanism=mechanism)
    )
    pairs = R.opendp_measurements(allocation, work, contributions=m, records=n)
    assert len(pairs) == len(work)
    measure = "MaxDivergence" if mechanism == "laplace" else "ZeroConcentratedDivergence"
    for (measurement, d_in), budget in zip(pairs, allocation.budgets, strict=True):
        assert d_in == m
        assert str(measurement.output_measure).startswith(measure)
        spent = measurement.map(d_in)
        assert spent <= budget
        assert spent >= budget * (1 - 1e-3)


def test_opendp_refuses_an_allocation_made_for_another_unit():
    allocation = B.budget_for_accuracy(SURVEY)
    with pytest.raises(ValueError, match="contributions=3"):
        R.opendp_measurements(allocation, SURVEY, contributions=3)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_opendp_script_runs_on_a_generated_dataframe(mechanism):
    rng = np.random.default_rng(11)
    m = 3
    work = R.per_person(SURVEY, contributions=m)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism)
    source = R.opendp_script(allocation, work, contributions=m, person="patient")
    people = rng.integers(0, 800, size=2_000)
    df = pd.DataFrame(
        {
            "patient": people,
            "smokers": rng.integers(0, 2, size=people.size),
            "doctor_visits": rng.poisson(3, size=people.size).astype(float),
            "mean_age": rng.uniform(10, 95, size=people.size),
        }
    )
    df.loc[3, "mean_age"] = np.nan  # a missing value is handled, not a crash
    namespace: dict = {"__name__": "release_script"}
    exec(compile(source, "release.py", "exec"), namespace)
    results = namespace["release"](df)
    assert list(results) == [r.label for r in SURVEY]
    kept = df.groupby("patient", sort=False).head(m)
    truth = {
        "smokers": kept["smokers"].sum(),
        "doctor visits": kept["doctor_visits"].clip(0, 10).sum(),
        "mean age": kept["mean_age"].fillna(18.0).clip(18, 90).mean(),
    }
    for (label, value), scale in zip(results.items(), allocation.scales, strict=True):
        assert math.isfinite(value)
        # the resize pads or drops records, so only a loose check: within 60 noise scales
        # (Laplace: a chance of e^-60) of the clipped truth, widened by the padding's effect
        assert abs(value - truth[label]) < 60 * scale + abs(truth[label]) * 0.5 + 50


# --- input checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: R.group_privacy(-1.0, size=2),
        lambda: R.group_privacy(1.0, 1.0, size=2),
        lambda: R.group_privacy(1.0, size=0),
        lambda: R.group_rho(-0.1, size=2),
        lambda: R.per_person(SURVEY, contributions=True),
        lambda: R.clipping_bias([0, 0], contributions=1),
        lambda: R.clipping_bias([1.5], contributions=1),
        lambda: R.delta_exposure(1.0, 10),
        lambda: R.largest_delta(0.5, exposure=0.1),
        lambda: R.group_error(0.5, budget=1.0, kind="count"),
        lambda: R.group_error(5, budget=1.0, kind="sum"),
        lambda: R.smallest_group(budget=1.0, kind="count", accuracy=0.0),
        lambda: R.odds(1.0, prior=1.0),
        lambda: R.odds_sentence(1.0, prior=0.5, people=3),
        lambda: R.privacy_record(
            B.budget_for_accuracy(SURVEY),
            unit="household",
            neighbours="change-one",
            date="2026-01-01",
            name="x",
            curators="y",
        ),
        lambda: R.privacy_record(
            B.budget_for_accuracy(SURVEY),
            unit="person",
            neighbours="change-one",
            date="2026-13-01",
            name="x",
            curators="y",
        ),
        lambda: R.privacy_record(
            "not an allocation",
            unit="person",
            neighbours="change-one",
            date="2026-01-01",
            name="x",
            curators="y",
        ),
        lambda: R.registry_table([{"name": "x"}]),
        lambda: R.opendp_measurements(B.budget_for_accuracy(SURVEY), SURVEY[:2]),
        lambda: R.opendp_script(B.budget_for_accuracy(SURVEY), SURVEY, person=""),
    ],
)
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_group_error_of_a_fraction_is_the_whole_groups_over_that_fraction():
    whole = R.group_error([10.0, 100.0], budget=0.3, kind="count")
    part = R.group_error([10.0, 100.0], budget=0.3, kind="count", fraction=0.2)
    np.testing.assert_allclose(part, whole / 0.2, rtol=1e-12)
    n = R.smallest_group(budget=0.3, kind="mean", accuracy=0.05, fraction=0.5)
    assert R.group_error(n, budget=0.3, kind="mean", fraction=0.5) <= 0.05
    assert R.group_error(n - 1, budget=0.3, kind="mean", fraction=0.5) > 0.05
    with pytest.raises(ValueError, match="fraction"):
        R.group_error(10, budget=0.3, kind="count", fraction=1.5)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_allocation_attack_reads_the_releases_own_pld_and_never_the_looser_line(mechanism):
    from helpers import attack as A
    from helpers.mechanisms import Gaussian, Laplace

    allocation = B.budget_for_accuracy(SURVEY, mechanism=mechanism, delta=1e-6)
    mechanisms = R.allocation_mechanisms(allocation)
    cls = Laplace if mechanism == "laplace" else Gaussian
    assert all(type(m) is cls for m in mechanisms)
    np.testing.assert_array_equal([m.noise for m in mechanisms], allocation.scales)
    np.testing.assert_array_equal([m.sensitivity for m in mechanisms], allocation.sensitivities)
    for fpr in (0.001, 0.01, 0.1, 0.5):
        got = R.allocation_attack(allocation, fpr=fpr)
        line = D.tpr_at_fpr(fpr, epsilon=allocation.epsilon, delta=allocation.delta)
        assert got.tpr == min(A.attack_tpr(mechanisms, fpr=fpr), line)
        assert got.tpr <= line
        assert got.advantage == pytest.approx(got.tpr - fpr)


def test_the_sentences_say_what_the_neighbours_let_an_observer_guess():
    add_remove = R.subject_paragraph(1.0, prior=0.1, neighbours="add-remove")
    change_one = R.subject_paragraph(1.0, prior=0.1, neighbours="change-one")
    assert "you are in the data" in add_remove and "took part" in add_remove
    assert "your record holds one value rather than another" in change_one
    assert "took part" not in change_one and "in the data" not in change_one.split(".")[1]
    # the numbers do not depend on the wording
    numbers = re.compile(r"[\d.]+ %")
    assert numbers.findall(add_remove) == numbers.findall(change_one)
    with pytest.raises(ValueError, match="neighbours"):
        R.odds_sentence(1.0, prior=0.1, neighbours="bounded")


# --- each release read with its own noise (geometric is not Laplace) ----------------------------


def _exact_geometric_tpr(scale: float, releases: int, fpr: float) -> float:
    """Neyman–Pearson between counts c + 1 and c, each released with two-sided geometric noise
    of scale b at Δ = 1: the loss of one release is ±1/b, +1/b with chance 1/(1 + e^{−1/b})
    under the first and e^{−1/b}/(1 + e^{−1/b}) under the second; the test counts the +'s."""
    from scipy.stats import binom

    a = math.exp(-1.0 / scale)
    q = 1.0 / (1.0 + a)
    spent, power = 0.0, 0.0
    for k in range(releases, -1, -1):
        f, t = binom.pmf(k, releases, 1.0 - q), binom.pmf(k, releases, q)
        if spent + f >= fpr:
            return power + (fpr - spent) / f * t
        spent, power = spent + f, power + t
    return 1.0


@pytest.mark.parametrize(("releases", "fpr"), [(1, 0.05), (3, 0.1), (4, 0.02)])
def test_allocation_attack_reads_geometric_releases_with_their_own_noise(releases, fpr):
    from helpers.mechanisms import TwoSidedGeometric

    allocation = B.budget_for_accuracy(
        [B.Release("count", k=5.0)] * releases, mechanism="geometric"
    )
    assert all(type(m) is TwoSidedGeometric for m in R.allocation_mechanisms(allocation))
    exact = _exact_geometric_tpr(float(allocation.scales[0]), releases, fpr)
    reading = R.allocation_attack(allocation, fpr=fpr).tpr
    assert reading >= exact  # an upper bound, never an understatement of the attack
    assert reading <= exact + 0.01  # and close: the same noise, on a fine grid


def test_allocation_attack_reads_every_registered_class_on_its_own_noise():
    from helpers.mechanisms import DiscreteGaussian

    allocation = B.budget_for_accuracy([B.Release("count", k=5.0)], mechanism="discrete_gaussian")
    assert type(R.allocation_mechanisms(allocation)[0]) is DiscreteGaussian
    reading = R.allocation_attack(allocation, fpr=0.1).tpr
    # read on the discrete Gaussian's own PLD (helpers.attack takes any registered class), and
    # never above the (ε, δ) line of the allocation's own guarantee
    from helpers.attack import attack_tpr
    from helpers.deployments import tpr_at_fpr

    own = float(attack_tpr(R.allocation_mechanisms(allocation), fpr=0.1))
    line = float(tpr_at_fpr(0.1, epsilon=float(allocation.epsilon), delta=float(allocation.delta)))
    assert 0.1 < reading <= 1.0
    assert reading == pytest.approx(min(own, line), rel=1e-9)


# --- the odds sentence never rounds a chance to none or all ---------------------------------------


@given(
    st.floats(0.0, 1.0, exclude_min=True, exclude_max=True),
    st.sampled_from([0.0, 0.1, 1.0, 3.0, 50.0]),
    st.sampled_from([0.0, 1e-8]),
)
@settings(max_examples=200, deadline=None)
def test_odds_sentence_never_says_0_or_100_percent_inside(prior, epsilon, delta):
    sentence = R.odds_sentence(epsilon, delta, prior=prior)
    shown = re.findall(r"(?<![\d.])([\d.]+) %", sentence)
    assert shown and all(0 < float(x) < 100 for x in shown), sentence
    assert not re.search(r"\((0|100) in 100", sentence), sentence
    assert float(shown[0]) == pytest.approx(100 * prior, rel=0.06)  # two digits at least


@pytest.mark.parametrize(
    ("prior", "words"),
    [
        (0.0001, "0.01 %"),
        (0.001, "fewer than 1 in 100"),
        (0.999, "99.9 %"),
        (0.999, "more than 99"),
    ],
)
def test_odds_sentence_states_extreme_priors_in_words(prior, words):
    assert words in R.odds_sentence(1.0, prior=prior)


@given(st.floats(0.0, 1.0, exclude_min=True, exclude_max=True))
@settings(max_examples=200, deadline=None)
def test_percent_rounds_up_when_asked_and_stays_inside(x):
    up = float(R.percent(x, up=True).removesuffix(" %"))
    near = float(R.percent(x).removesuffix(" %"))
    assert 0 < near < 100 and 0 < up < 100
    assert up >= 100 * x * (1 - 1e-9)


# --- contract: every refusal names the whole range; integer bounds stay integers ---------------


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda: R.attack_reading(1.0, fpr=float("nan")),
            "fpr must be a number in the open interval (0, 1)",
        ),
        (
            lambda: R.attack_reading(1.0, fpr=1.0),
            "fpr must be a number in the open interval (0, 1)",
        ),
        (
            lambda: R.allocation_attack(
                B.budget_for_accuracy([B.Release("count", k=5.0)]), fpr=0.0
            ),
            "open interval (0, 1); got 0.0",
        ),
        (
            lambda: R.odds(1.0, prior=float("inf")),
            "prior must be a number in the open interval (0, 1)",
        ),
        (lambda: R.delta_exposure(-1e-9, 10), "delta must be a number in [0, 1); got -1e-09"),
        (lambda: R.delta_exposure(float("nan"), 10), "delta must be a number in [0, 1)"),
        (lambda: R.delta_exposure([1e-6, 1.0], 10), "delta must be a number in [0, 1)"),
        (lambda: R.group_privacy(1.0, -0.1, size=2), "delta must be a number in [0, 1); got -0.1"),
        (
            lambda: R.largest_delta(10, exposure=float("nan")),
            "exposure must be a number in the open interval (0, 1)",
        ),
    ],
)
def test_refusals_name_the_parameter_the_value_and_the_whole_range(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()


def test_contribution_tradeoff_returns_integer_bounds():
    t = R.contribution_tradeoff([1, 2, 3, 9], [1.0, 2, 5], epsilon=1.0)
    assert t.contributions.dtype.kind == "i"
    assert t.contributions.tolist() == [1, 2, 5]
    assert all(type(m) is int for m in t.contributions.tolist())
    assert t.bias.dtype == float and t.noise.dtype == float


# --- the record's neighbour notion is the one OpenDP checks -------------------------------------


@pytest.mark.parametrize("m", [1, 3])
def test_the_records_neighbour_notion_is_the_d_in_opendp_checks(m):
    work = B.Release("count", k=5.0), B.Release("mean", k=2.0, lower=0, upper=100, n=200)
    allocation = B.budget_for_accuracy(R.per_person(list(work), contributions=m))
    record = R.privacy_record(
        allocation,
        unit="person",
        neighbours=R.OPENDP_NEIGHBOURS,
        date="2026-01-31",
        name="Clinic visits",
        curators="A clinic",
        contributions=m,
    )
    pairs = R.opendp_measurements(allocation, list(work), contributions=m)
    distance = R.neighbour_distance(record["neighbours"], contributions=record["contributions"])
    assert record["neighbours"] == "add-remove"
    assert all(d_in == distance == m for _, d_in in pairs)
    # the same releases checked at change-one (m records changed) would spend twice the budget
    changed = R.neighbour_distance("change-one", contributions=m)
    for (meas, _), budget in zip(pairs, allocation.budgets, strict=True):
        assert meas.map(changed) > 1.5 * budget


def test_notebook_12_records_the_notion_opendp_checks():
    cells = json.loads(
        (Path(__file__).parents[2] / "notebooks" / "12_from_budget_to_release.ipynb").read_text()
    )["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    calls = [s for s in sources if "privacy_record(" in s or "subject_paragraph(" in s]
    assert calls and all("neighbours=rel.OPENDP_NEIGHBOURS" in s for s in calls)
    assert not any('"change-one"' in s for s in sources)
