"""Empirical sensitivity: unbounded and bounded Δf against brute force, limits, large offsets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import sensitivity as sens
from helpers.queries import get_query

DATA = [1.0, 2.0, 3.0, 10.0]


def _brute_unbounded(universe, size, f, k):
    idx = range(len(universe))
    best = 0.0
    for a in itertools.combinations(idx, size):
        fa = f([universe[i] for i in a])
        for j in range(1, k + 1):
            for keep in itertools.combinations(a, max(size - j, 0)):
                if keep:
                    best = max(best, abs(fa - f([universe[i] for i in keep])))
            rest = [i for i in idx if i not in a]
            for add in itertools.combinations(rest, j):
                best = max(best, abs(fa - f([universe[i] for i in a + add])))
    return best


def _brute_bounded(universe, size, f, k):
    best = 0.0
    for a, b in itertools.product(itertools.combinations(range(len(universe)), size), repeat=2):
        if len(set(a) - set(b)) <= k:
            best = max(best, abs(f([universe[i] for i in a]) - f([universe[i] for i in b])))
    return best


@given(
    st.lists(st.integers(-9, 9), min_size=2, max_size=6),
    st.data(),
    st.sampled_from(["mean", "median", "variance", "sum", "max"]),
)
def test_sensitivities_match_brute_force(universe, data, name):
    size = data.draw(st.integers(1, len(universe) - 1))
    f = get_query(name)
    k_unbounded = data.draw(st.integers(1, max(size - 1, len(universe) - size)))
    k_bounded = data.draw(st.integers(1, min(size, len(universe) - size)))
    assert sens.unbounded_sensitivity(universe, size, name, k=k_unbounded) == pytest.approx(
        _brute_unbounded(universe, size, f, k_unbounded)
    )
    assert sens.bounded_sensitivity(universe, size, name, k=k_bounded) == pytest.approx(
        _brute_bounded(universe, size, f, k_bounded)
    )


def test_hamming_distance_grows_sensitivity_and_is_validated():
    one = sens.unbounded_sensitivity(DATA, 3, "mean", k=1)
    two = sens.unbounded_sensitivity(DATA, 3, "mean", k=2)
    assert two >= one
    with pytest.raises(
        ValueError, match=r"k \(Hamming distance\) must be an integer in 1\.\.2; got 3"
    ):
        sens.unbounded_sensitivity(DATA, 3, "mean", k=3)
    with pytest.raises(
        ValueError, match=r"k \(Hamming distance\) must be an integer in 1\.\.1; got 0"
    ):
        sens.bounded_sensitivity(DATA, 3, "mean", k=0)
    with pytest.raises(ValueError, match="no unbounded neighbours"):
        sens.unbounded_sensitivity([4.0], 1, "mean")
    with pytest.raises(ValueError, match="bounded neighbour"):
        sens.bounded_sensitivity(DATA, 4, "mean")


def test_enumeration_limit_is_refused_with_the_count():
    with pytest.raises(ValueError, match=r"would evaluate [\d,]+ data sets, more than the limit"):
        sens.bounded_sensitivity(list(range(40)), 20, "mean")


def test_combination_indices_refuses_a_table_over_its_budget_up_front():
    from helpers.sensitivity import combination_indices

    with pytest.raises(ValueError, match=r"137,846,528,820 subsets × 20 positions"):
        combination_indices(40, 20)
    with pytest.raises(ValueError, match=r"size must be an integer in 0\.\.4"):
        combination_indices(4, 5)


LARGE = [1e12, -1e12, 1e14, 2.0**50 + 3]


@given(
    st.lists(st.integers(-9, 9), min_size=3, max_size=6),
    st.data(),
    st.sampled_from(["mean", "median", "variance", "std", "max", "percentile_30"]),
    st.sampled_from(LARGE),
)
def test_sensitivities_do_not_move_with_a_large_offset(universe, data, name, offset):
    """Integers plus 10¹²…10¹⁴: the enumeration's Δf is the one at the origin, exactly."""
    size = data.draw(st.integers(1, len(universe) - 1))
    shifted = [offset + x for x in universe]
    k_unbounded = data.draw(st.integers(1, max(size - 1, len(universe) - size)))
    k_bounded = data.draw(st.integers(1, min(size, len(universe) - size)))
    if size < len(universe) - 1 or k_unbounded > 1:  # the leave-one-out path has its own test
        assert sens.unbounded_sensitivity(
            shifted, size, name, k=k_unbounded
        ) == sens.unbounded_sensitivity(universe, size, name, k=k_unbounded)
    assert sens.bounded_sensitivity(shifted, size, name, k=k_bounded) == (
        sens.bounded_sensitivity(universe, size, name, k=k_bounded)
    )


@given(st.lists(st.integers(-9, 9), min_size=3, max_size=6), st.data(), st.sampled_from(LARGE))
def test_the_sum_s_sensitivity_at_a_large_offset_is_exact(universe, data, offset):
    """Δf of the sum is the largest |sum of the records added or removed|: near the offset."""
    from fractions import Fraction

    size = data.draw(st.integers(1, len(universe) - 2))
    shifted = [offset + x for x in universe]
    exact = _brute_unbounded(
        [Fraction(x) for x in shifted], size, lambda xs: sum(xs, Fraction(0)), 1
    )
    assert sens.unbounded_sensitivity(shifted, size, "sum") == float(exact)


def test_enumerations_over_the_work_budget_are_refused_before_the_query_runs():
    calls = []

    def spread(xs):
        calls.append(1)
        return max(xs) - min(xs)

    # 2,001 data sets per world × 2,000 worlds, each of about 2,000 records: 8·10⁹ values
    with pytest.raises(ValueError, match=r"holding 7,996,002,000 values, over the work budget"):
        sens.unbounded_sensitivity(np.arange(2000.0), 1999, spread)
    with pytest.raises(ValueError, match=r"MAX_CALLABLE_VALUES = 30,000,000"):
        sens.bounded_sensitivity(np.arange(400.0), 399, spread)
    assert calls == []
    with pytest.raises(ValueError, match=r"over the work budget MAX_VALUES"):
        sens.bounded_sensitivity(np.arange(2000.0), 1999, "mean")
