"""helpers/widgets/_checks.py: a dashboard's starting values are refused, never clamped."""

from __future__ import annotations

import numpy as np
import pytest

from helpers.datasets import school, school_release
from helpers.widgets._checks import data_and_size, starting_choice, starting_int, starting_value


def test_starting_value_accepts_the_range_with_its_ends_and_returns_a_float():
    for value in (0.05, 1, 5.0):
        got = starting_value("epsilon", value, 0.05, 5.0)
        assert type(got) is float and got == value


@pytest.mark.parametrize("value", [0.0499, 5.0001, -1, float("nan"), float("inf"), "1", True])
def test_starting_value_names_the_control_the_value_and_the_range(value):
    with pytest.raises(ValueError, match="epsilon"):
        starting_value("epsilon", value, 0.05, 5.0)


def test_a_value_outside_the_range_is_reported_as_given():
    with pytest.raises(ValueError, match=r"\[0\.05, 5\].*got 7"):
        starting_value("epsilon", 7, 0.05, 5.0)


@pytest.mark.parametrize("value", [1.0, True, "2", 0, 11])
def test_starting_int_refuses_floats_bools_strings_and_the_outside(value):
    with pytest.raises(ValueError, match=r"bins must be an integer in 1\.\.10"):
        starting_int("bins", value, 1, 10)
    assert starting_int("bins", 10, 1, 10) == 10


def test_starting_choice_matches_option_values_and_refuses_bools():
    options = [("mean", "mean"), ("median", "median"), 3]
    assert starting_choice("query", "median", options) == "median"
    assert starting_choice("query", 3, options) == 3
    for bad in ("mode", True, np.array([1, 2])):
        with pytest.raises(ValueError, match="query must be one of"):
            starting_choice("query", bad, options)


def test_without_data_the_school_example_released_without_one_record():
    data, size = data_and_size(None, None)
    assert list(data) == list(school()) and size == len(school_release())
    assert data_and_size(None, 2)[1] == 2


def test_the_readers_data_default_to_the_leave_one_out_release():
    data = [1.0, 2.0, 3.0, 4.0]
    assert data_and_size(data, None) == (data, 3)
    with pytest.raises(ValueError, match="size"):
        data_and_size({"a": [1.0]}, None, size_required=True)
