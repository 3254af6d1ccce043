"""helpers/foundations/_checks.py: the foundations' probabilities, α, n and distributions."""

from __future__ import annotations

import re

import numpy as np
import pytest

from helpers.foundations._checks import (
    _check_alpha,
    _check_closed_unit,
    _check_distribution,
    _check_n,
)


def test_closed_unit_keeps_both_ends_and_names_what_is_outside():
    np.testing.assert_array_equal(_check_closed_unit("p", [0.0, 0.5, 1.0]), [0.0, 0.5, 1.0])
    with pytest.raises(ValueError, match=r"p must lie in \[0, 1\].*1\.5"):
        _check_closed_unit("p", [0.2, 1.5])
    with pytest.raises(ValueError, match="p"):
        _check_closed_unit("p", "0.5")


@pytest.mark.parametrize(
    "allow_zero, allow_one, interval", [(False, False, "(0, 1)"), (True, True, "[0, 1]")]
)
def test_alpha_ends_are_open_or_closed_as_asked(allow_zero, allow_one, interval):
    for end, allowed in ((0.0, allow_zero), (1.0, allow_one)):
        if allowed:
            assert _check_alpha(end, allow_zero=allow_zero, allow_one=allow_one) == end
        else:
            with pytest.raises(ValueError, match=re.escape(f"alpha must lie in {interval}")):
                _check_alpha(end, allow_zero=allow_zero, allow_one=allow_one)


def test_n_is_a_positive_integer():
    assert _check_n(18) == 18
    for bad in (0, 2.0, True, 10**9 + 1):
        with pytest.raises(ValueError, match="n must"):
            _check_n(bad)


def test_a_distribution_is_a_non_empty_vector_summing_to_one():
    np.testing.assert_array_equal(_check_distribution("P", [0.25, 0.75]), [0.25, 0.75])
    for bad, match in (([], "non-empty"), (0.5, "non-empty"), ([0.5, 0.6], "sum to 1"),
                       ([-0.5, 1.5], "P must")):  # fmt: skip
        with pytest.raises(ValueError, match=match):
            _check_distribution("P", bad)
