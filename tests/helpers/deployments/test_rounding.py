"""helpers.deployments.round_risk: a risk printed up, an allowed budget down, exactly.

Every rounded value is compared with an exact reference: the float read as the decimal it
prints as (a :class:`fractions.Fraction`), rounded with ``math.ceil`` / ``math.floor`` on
rationals, and the text the result prints as read back as a Fraction.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import deployments as dep

FINITE = st.floats(allow_nan=False, allow_infinity=False)
#: a value printed with "f" at ≤ 8 decimals keeps ≤ 15 significant digits below 10⁶
PRINTABLE = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


def _given(v: float) -> Fraction:
    return Fraction(Decimal(repr(v)))


def _exponent(v: Fraction) -> int:
    """⌊log₁₀ |v|⌋ exactly, v ≠ 0."""
    v = abs(v)
    e = len(str(v.numerator)) - len(str(v.denominator))
    while Fraction(10) ** e > v:
        e -= 1
    while Fraction(10) ** (e + 1) <= v:
        e += 1
    return e


def _reference(v: float, place: int, down: bool) -> Fraction:
    step = Fraction(10) ** place
    scaled = _given(v) / step
    return (math.floor(scaled) if down else math.ceil(scaled)) * step


@given(PRINTABLE, st.integers(0, 8), st.booleans())
def test_decimals_print_the_exact_directed_rounding(v, decimals, down):
    got = dep.round_risk(v, decimals=decimals, down=down)
    assert type(got) is float
    printed = Fraction(Decimal(f"{got:.{decimals}f}"))
    assert printed == _reference(v, -decimals, down)
    # so the printed text is never on the rosy side of the value as given
    assert (printed <= _given(v)) if down else (printed >= _given(v))


@given(FINITE.filter(lambda v: v != 0), st.integers(1, 15), st.booleans())
def test_digits_print_the_exact_directed_rounding(v, digits, down):
    got = dep.round_risk(v, digits=digits, down=down)
    reference = _reference(v, _exponent(_given(v)) - digits + 1, down)
    if math.isinf(got):  # rounding ±1.79e308 away from 0 at few digits leaves the doubles
        assert abs(reference) > Fraction(np.finfo(float).max)
        assert got == (math.inf if reference > 0 else -math.inf)  # up above 0, down below
        return
    assert Fraction(Decimal(f"{got:.{digits}g}")) == reference


@given(FINITE, st.integers(0, 15), st.integers(1, 17), st.booleans(), st.booleans())
def test_the_float_is_never_on_the_rosy_side(v, decimals, digits, by_digits, down):
    options = {"digits": digits} if by_digits else {"decimals": decimals}
    got = dep.round_risk(v, down=down, **options)
    assert (got <= v) if down else (got >= v)


def test_what_nearest_rounding_got_wrong_and_values_as_given():
    # pandas' .round(4) prints this TPR as 0.0549, below it; a stated 0.2 stays 0.2
    assert round(0.05494, 4) < 0.05494 <= dep.round_risk(0.05494, decimals=4) == 0.055
    assert dep.round_risk(0.2, decimals=4) == 0.2 == dep.round_risk(0.2, digits=1, down=True)
    assert dep.round_risk(0.0, digits=3) == 0.0


@given(st.lists(PRINTABLE, min_size=1, max_size=6), st.integers(0, 6), st.booleans())
def test_arrays_round_entry_by_entry(values, decimals, down):
    got = dep.round_risk(np.array(values).reshape(-1, 1), decimals=decimals, down=down)
    assert isinstance(got, np.ndarray) and got.shape == (len(values), 1)
    for v, g in zip(values, got.ravel(), strict=True):
        assert g == dep.round_risk(v, decimals=decimals, down=down)


def test_a_table_rounds_only_the_columns_named():
    table = pd.DataFrame({"name": ["a", "b"], "delta": [1e-10, 1e-5], "tpr": [0.05494, 0.91]})
    got = dep.round_risk(table, decimals=2, columns=["tpr"])
    assert list(got["tpr"]) == [0.06, 0.91]
    pd.testing.assert_frame_equal(got.drop(columns="tpr"), table.drop(columns="tpr"))
    assert table["tpr"].iloc[0] == 0.05494  # the caller's table is not changed


@pytest.mark.parametrize(
    ("x", "options", "words"),
    [
        (0.5, {}, "give exactly one"),
        (0.5, {"decimals": 2, "digits": 2}, "give exactly one"),
        (0.5, {"decimals": 16}, "decimals must be an integer in 0..15; got 16"),
        (0.5, {"digits": 0}, "digits must be an integer in 1..17; got 0"),
        (0.5, {"decimals": 2, "down": 1}, "down must be True or False; got 1"),
        (math.nan, {"decimals": 2}, "x must be a finite number; got nan"),
        ([0.1, math.inf], {"decimals": 2}, "x must be a finite number; got an array"),
        ("0.5", {"decimals": 2}, "x must be a real number"),
        (0.5, {"decimals": 2, "columns": ["a"]}, "columns must be None unless x is a DataFrame"),
        (pd.DataFrame({"a": [0.1]}), {"decimals": 2}, "columns must be a list"),
        (pd.DataFrame({"a": [0.1]}), {"decimals": 2, "columns": ["b"]}, "['b'] not among"),
        (pd.DataFrame({"a": ["x"]}), {"decimals": 2, "columns": ["a"]}, "column 'a' must"),
    ],
)
def test_bad_input_is_named(x, options, words):
    with pytest.raises(ValueError, match=None) as error:
        dep.round_risk(x, **options)
    assert words in str(error.value)
