"""helpers.foundations.exponential_mechanism: the survey's auction, normalised, within e^ε."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from _modules import as_float
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F

# --- exponential mechanism -----------------------------------------------------------------------


def test_survey_auction_revenues():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    # survey: $1 -> $3, $1.01 -> $1.01, $3.01 -> $3.01, $3.02 -> $0
    assert np.round(rev, 2).tolist() == [3.0, 1.01, 3.01, 0.0]
    assert F.auction_revenue_sensitivity(F.SURVEY_AUCTION_PRICES) == 3.02


def test_survey_auction_probabilities():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    delta = F.auction_revenue_sensitivity(F.SURVEY_AUCTION_PRICES)
    eps = 1.0
    probs = F.exponential_mechanism_probabilities(rev, eps, sensitivity=delta)
    by_hand = np.exp(eps * rev / (2 * delta))
    assert np.allclose(probs, by_hand / by_hand.sum())
    assert np.round(probs, 3).tolist() == [0.300, 0.216, 0.301, 0.183]
    assert round(float(F.expected_score(rev, eps, sensitivity=delta)), 3) == 2.025
    # ε -> 0: uniform; large ε: mass on the best price $3.01
    assert np.allclose(F.exponential_mechanism_probabilities(rev, 0.0, sensitivity=delta), 0.25)
    assert F.exponential_mechanism_probabilities(rev, 5000.0, sensitivity=delta)[2] > 0.99


def test_exponential_mechanism_vectorised_over_epsilon():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    grid = np.array([0.1, 1.0, 10.0])
    table = F.exponential_mechanism_probabilities(rev, grid, sensitivity=3.02)
    assert table.shape == (3, 4)
    for row, e in zip(table, grid, strict=True):
        assert np.allclose(row, F.exponential_mechanism_probabilities(rev, e, sensitivity=3.02))


scores_st = st.lists(st.floats(-100, 100), min_size=1, max_size=8)


@given(scores=scores_st, eps=st.floats(0, 20), delta=st.floats(0.1, 10), data=st.data())
def test_exponential_mechanism_sums_to_one_and_ratio(scores, eps, delta, data):
    s = np.array(scores)
    shifts = data.draw(st.lists(st.floats(-1, 1), min_size=s.size, max_size=s.size))
    s2 = s + np.array(shifts) * delta  # a neighbour: every score moves by at most Δ
    p1 = F.exponential_mechanism_probabilities(s, eps, sensitivity=delta)
    assert F.exponential_mechanism_probabilities(s2, eps, sensitivity=delta).sum() == pytest.approx(
        1.0
    )
    assert p1.sum() == pytest.approx(1.0)
    assert np.all(p1 >= 0)
    lp1 = F.exponential_mechanism_log_probabilities(s, eps, sensitivity=delta)
    lp2 = F.exponential_mechanism_log_probabilities(s2, eps, sensitivity=delta)
    assert np.allclose(np.exp(lp1), p1)
    lr = np.abs(lp1 - lp2)
    assert np.all(lr <= eps * (1 + 1e-9) + 1e-9)


def test_exponential_mechanism_no_overflow():
    p = F.exponential_mechanism_probabilities([1e6, 0.0], 1e3, sensitivity=1.0)
    assert np.all(np.isfinite(p)) and p[0] == pytest.approx(1.0)


def test_exponential_mechanism_sample_seeded():
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    draws = F.exponential_mechanism_sample(rev, 1.0, sensitivity=3.02, size=100_000, rng=4)
    freq = np.bincount(draws, minlength=4) / draws.size
    assert np.allclose(
        freq, F.exponential_mechanism_probabilities(rev, 1.0, sensitivity=3.02), atol=0.005
    )


def test_auction_neighbour_ratio():
    # change the third bidder's valuation (a neighbouring data set): ratios stay within e^ε
    prices = np.array(F.SURVEY_AUCTION_PRICES)
    delta = F.auction_revenue_sensitivity(prices)
    base = F.auction_revenue(prices, F.SURVEY_AUCTION_BIDS)
    for v in [0.0, 1.0, 1.005, 3.02, 10.0]:
        nb = F.auction_revenue(prices, [1.0, 1.0, v])
        assert np.all(np.abs(base - nb) <= delta)
        p, q = (
            F.exponential_mechanism_probabilities(s, 0.8, sensitivity=delta) for s in (base, nb)
        )
        assert np.all(np.abs(np.log(p / q)) <= 0.8 + 1e-12)


def test_exponential_bad_input():
    with pytest.raises(ValueError, match="epsilon must be >= 0"):
        F.exponential_mechanism_probabilities([1, 2], -0.1)
    with pytest.raises(ValueError, match="sensitivity must be > 0"):
        F.exponential_mechanism_probabilities([1, 2], 1.0, sensitivity=0.0)
    with pytest.raises(ValueError, match="scores must be finite"):
        F.exponential_mechanism_probabilities([1, float("nan")], 1.0)
    with pytest.raises(ValueError, match="prices"):
        F.auction_revenue([], [1.0])


def test_exponential_mechanism_at_a_huge_epsilon_is_the_argmax_not_nan():
    # ε·s/(2Δ) overflowed to inf and log_softmax made inf − inf = NaN
    p = F.exponential_mechanism_probabilities([1.0, 3.0, 3.0, 2.0], 1e308)
    np.testing.assert_array_equal(p, [0.0, 0.5, 0.5, 0.0])
    assert F.expected_score([1.0, 3.0], 1.0, sensitivity=5e-324) == 3.0


huge = st.floats(-1.7e308, 1.7e308) | st.sampled_from([1e308, -1e308, 1.7e308, -1.7e308])


@given(
    st.lists(huge, min_size=2, max_size=5),
    st.floats(0, 1e3) | st.just(0.0),
    st.floats(1e-3, 1e3),
)
def test_exponential_mechanism_with_scores_near_the_ends_of_the_doubles(scores, eps, delta):
    # s − max(s) overflowed (1e308 − (−1e308)) and ε = 0 made 0·(−inf) = NaN
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log_p = F.exponential_mechanism_log_probabilities(scores, eps, sensitivity=delta)
        p = F.exponential_mechanism_probabilities(scores, eps, sensitivity=delta)
    assert not np.isnan(log_p).any() and p.sum() == pytest.approx(1.0)
    top = int(np.argmax(scores))
    for i, s in enumerate(scores):  # ln p_i − ln p_top = ε(s_i − s_top)/(2Δ), exactly
        exact = Fraction(eps) * (Fraction(s) - Fraction(scores[top])) / (2 * Fraction(delta))
        assert log_p[i] - log_p[top] == pytest.approx(as_float(exact), rel=1e-9, abs=1e-6)


def test_exponential_mechanism_at_the_ends_of_the_doubles():
    assert F.exponential_mechanism_log_probabilities([1e308, -1e308], 1.0).tolist() == [0.0, -1e308]
    assert F.exponential_mechanism_probabilities([1e308, -1e308], 0.0).tolist() == [0.5, 0.5]
    assert F.expected_score([1e308, -1e308], 0.0) == 0.0
