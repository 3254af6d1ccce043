"""helpers.release.explain: odds, the best attack, the sentences and the paragraph for people."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import budget as B
from helpers import deployments as D
from helpers import release as R

SURVEY = [
    B.Release("count", k=30.0, label="smokers"),
    B.Release("sum", k=400.0, lower=0.0, upper=10.0, label="doctor visits"),
    B.Release("mean", k=2.0, lower=18.0, upper=90.0, n=2_000, label="mean age"),
]


# --- explaining the choice ----------------------------------------------------------------------


@pytest.mark.parametrize("prior", [0.01, 0.05, 0.2, 0.5])
@pytest.mark.parametrize("epsilon,delta", [(0.5, 0.0), (1.3863, 0.0), (2.0, 1e-8)])
def test_odds_sentence_numbers_are_recomputed_from_the_posterior_bound(prior, epsilon, delta):
    sentence = R.odds_sentence(epsilon, delta, prior=prior)
    shown = [float(x) for x in re.findall(r"([\d.]+) %", sentence)]
    failure = R.odds(epsilon, delta, prior=prior).bad_event
    # the slack s the failure chance F implies, e^{−s} = 1 − δ/F (ln 2 only when F = 2δ)
    slack = -math.log1p(-delta / failure) if delta else 0.0
    bound = D.posterior_bound(epsilon + slack, prior=prior)
    assert shown[0] == pytest.approx(100 * prior)
    assert shown[1] >= 100 * bound - 1e-9  # rounded up, never down
    assert shown[1] - 100 * bound < 0.1 + 1e-9
    icons = [int(x) for x in re.findall(r"\((\d+) in 100", sentence)]
    assert icons[1] == math.ceil(100 * bound - 1e-9)
    assert ("some outputs" in sentence) == (delta > 0)
    if delta:
        # F = max(2δ, min(√δ, 10⁻⁴)), and notebook 09's layer agrees it is the slack's chance
        assert failure == pytest.approx(max(2 * delta, min(math.sqrt(delta), 1e-4)))
        assert D.posterior_bad_event_probability(delta, slack=slack) == pytest.approx(failure)


def test_attack_reading_is_the_deployments_trade_off():
    # the deployments' curve, the float rounded up from an exact bound (test__exact)
    got = R.attack_reading(1.0, 1e-6, fpr=0.05).tpr
    assert got == pytest.approx(D.tpr_at_fpr(0.05, epsilon=1.0, delta=1e-6), rel=1e-14)
    z = R.attack_reading(None, fpr=0.01, rho=0.3)
    # the zCDP curve's float, raised to a value proven above the truth (test__exact)
    assert D.zcdp_tpr(0.3, 0.01) <= z.tpr <= D.zcdp_tpr(0.3, 0.01) * (1 + 1e-3)
    assert z.advantage == pytest.approx(z.tpr - 0.01)


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
        assert got.tpr == pytest.approx(min(A.attack_tpr(mechanisms, fpr=fpr), line), rel=1e-14)
        assert got.tpr <= line * (1 + 1e-14)
        assert got.advantage == pytest.approx(got.tpr - fpr)


def test_the_sentences_say_what_the_neighbours_let_an_observer_guess():
    add_remove = R.odds_sentence(1.0, prior=0.1, neighbours="add-remove")
    change_one = R.odds_sentence(1.0, prior=0.1, neighbours="change-one")
    assert "you are in the data" in add_remove
    assert "your record holds one value rather than another" in change_one
    assert "in the data" not in change_one
    # the numbers of the stated prior do not depend on the wording; the frequency is one
    # person's chance, never "people like you" (the icon array draws one person)
    numbers = re.compile(r"[\d.]+ %|\d+ in 100")
    assert numbers.findall(add_remove) == numbers.findall(change_one)
    assert "people like you" not in add_remove + change_one
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


@settings(max_examples=200)
@given(
    st.floats(0, 1, allow_nan=False),
    st.sampled_from([10, 100, 1000]),
    st.booleans(),
)
def test_in_people_states_k_in_n_as_the_sentence_does(x, people, up):
    """k = x·people to nearest (or up); inside (0, 1) never none nor all; the sentence's words."""
    from fractions import Fraction

    said = R.in_people(x, people=people, up=up)
    exact = Fraction(repr(x)) * people
    if 0 < x < 1 and (said.startswith("fewer") or said.startswith("more")):
        assert said in (f"fewer than 1 in {people}", f"more than {people - 1} in {people}")
        assert exact < 1 if said.startswith("fewer") else exact > people - 1
        return
    k = int(said.split()[-3])
    assert said.endswith(f" in {people}")
    assert k == (math.ceil(exact) if up else round(exact))
    if 0 < x < 1:
        assert 0 < k < people


def test_in_people_is_the_odds_sentences_frequency():
    for prior in (0.05, 0.5, 0.999, 0.001):
        sentence = R.odds_sentence(1.0, prior=prior)
        assert f"({R.in_people(prior)})" in sentence


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"x": 1.5}, r"x must be a probability in \[0, 1\]; got 1.5"),
        ({"x": float("nan")}, "x"),
        ({"x": 0.5, "people": 5}, "people"),
    ],
)
def test_in_people_refuses_bad_input_by_name(kwargs, message):
    x = kwargs.pop("x")
    with pytest.raises(ValueError, match=message):
        R.in_people(x, **kwargs)
