"""Queries: the built-in ones against statistics, callables row by row, refusals, equality."""

from __future__ import annotations

import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

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


def test_queries_are_equal_by_value_so_caches_hit():
    from helpers.queries import percentile

    span = lambda xs: max(xs) - min(xs)  # noqa: E731
    assert get_query(span) == get_query(span) and hash(get_query(span)) == hash(get_query(span))
    assert get_query("percentile_25") == percentile(25) == get_query("percentile_25.0")
    assert get_query("mean") != get_query("median")
    assert get_query(span) != get_query(lambda xs: max(xs) - min(xs))  # another function


# --- issue 17 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: percentile("50"), r"percentile level must be a number in \[0, 100\]; got '50'"),
        (lambda: percentile(b"50"), r"got b'50' \(a bytes\)"),
        (lambda: percentile(True), r"got True \(a bool\)"),
        (lambda: percentile(None), r"got None"),
        (lambda: percentile(float("nan")), r"must be in \[0, 100\]; got nan"),
        (lambda: percentile(10**400), r"must be in \[0, 100\]; got 1000"),
        (lambda: get_query("percentile_abc"), r"got 'abc' in 'percentile_abc'"),
        (lambda: get_query("mean")(["1", "2"]), r"data must be a real number"),
        (lambda: get_query("median")("123"), r"data must be a real number .* the string '123'"),
        (lambda: get_query(lambda xs: "3")([1.0, 2.0]), r"got '3' \(a str\)"),
        (lambda: get_query(lambda xs: None)([1.0, 2.0]), r"got None \(a NoneType\)"),
        (lambda: get_query(lambda xs: [1, 2])([1.0, 2.0]), r"got \[1, 2\] \(a list\)"),
        (lambda: get_query(lambda xs: 1 + 2j)([1.0, 2.0]), r"\(a complex\)"),
    ],
)
def test_strings_are_never_coerced_to_numbers(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_a_vectorised_query_that_returns_strings_is_refused():
    from helpers.queries import Query

    words = Query("words", lambda rows: np.full(rows.shape[:-1], "3"), key=("words",))
    with pytest.raises(ValueError, match=r"query 'words' must return numbers"):
        words([[1.0, 2.0]])


def test_numbers_of_any_real_type_are_still_numbers():
    assert percentile(np.int64(25)) == percentile(25.0) == get_query("percentile_25")
    assert get_query(lambda xs: np.float32(1.5))([1.0]) == 1.5
    assert get_query(lambda xs: np.array([2.5]))([1.0]) == 2.5  # one number in an array
    assert get_query(lambda xs: len(xs))([1.0, 2.0]) == 2.0


def test_only_the_modules_own_queries_are_built_in():
    from helpers.queries import Query

    assert all(get_query(name).built_in for name in ("mean", "sum", "percentile_12.5"))
    mean = get_query("mean")
    assert not Query("mean", np.mean, key=("mean",)).built_in  # another function
    assert not Query("x", mean.func, key=("x",)).built_in  # another key
    assert not get_query(lambda xs: 1.0).built_in
    assert get_query(lambda xs: 1.0).shift_weight(3) is None


@given(
    st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=12),
    st.sampled_from([0.0, 1e12, -1e14, 2.0**52]),
    st.sampled_from(["mean", "sum", "median", "variance", "percentile_30"]),
)
def test_the_centre_is_a_record_whose_subtraction_is_exact(values, offset, name):
    x = np.array(values, dtype=float) + offset
    query = get_query(name)
    centre = query.centre_for(x)
    if centre:
        assert centre in x
        y = x - centre
        # exact: each difference recovers the record in exact (integer) arithmetic
        assert all(int(a) - int(centre) == int(b) for a, b in zip(x, y, strict=True))
        rows = x[None, :]
        weight = query.shift_weight(x.size)
        assert query(rows - centre)[0] + weight * centre == pytest.approx(query(rows)[0])
