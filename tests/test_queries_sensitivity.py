"""Queries and empirical sensitivity: definitions checked against brute force."""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import sensitivity as sens
from helpers.queries import QUERY_NAMES, get_query, percentile

DATA = [1.0, 2.0, 3.0, 10.0]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("mean", statistics.mean(DATA)),
        ("median", statistics.median(DATA)),
        ("variance", statistics.pvariance(DATA)),
        ("std", statistics.pstdev(DATA)),
        ("sum", sum(DATA)),
        ("count", 4.0),
        ("min", 1.0),
        ("max", 10.0),
        ("percentile_50", statistics.median(DATA)),
        ("percentile_100", 10.0),
    ],
)
def test_built_in_queries(name, expected):
    assert get_query(name)(DATA) == pytest.approx(expected)


def test_queries_work_on_rows_and_callables_row_by_row():
    rows = np.array([[1, 2, 3], [2, 3, 10]])
    assert get_query("mean")(rows).tolist() == pytest.approx([2.0, 5.0])
    span = get_query(lambda xs: max(xs) - min(xs))
    assert span(rows).tolist() == [2.0, 8.0]
    assert percentile(90)(rows).tolist() == pytest.approx([np.percentile(r, 90) for r in rows])


def test_query_errors_name_the_known_queries():
    with pytest.raises(
        ValueError, match="unknown query 'avg'; known queries: mean, median, variance"
    ):
        get_query("avg")
    with pytest.raises(ValueError, match=r"percentile level must be in \[0, 100\]; got 120"):
        get_query("percentile_120")
    with pytest.raises(ValueError, match="returned NaN"):
        get_query(lambda xs: float("nan"))([1, 2])
    assert "percentile_<level>" in QUERY_NAMES


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


def test_queries_are_equal_by_value_so_caches_hit():
    from helpers.queries import percentile

    span = lambda xs: max(xs) - min(xs)  # noqa: E731
    assert get_query(span) == get_query(span) and hash(get_query(span)) == hash(get_query(span))
    assert get_query("percentile_25") == percentile(25) == get_query("percentile_25.0")
    assert get_query("mean") != get_query("median")
    assert get_query(span) != get_query(lambda xs: max(xs) - min(xs))  # another function
