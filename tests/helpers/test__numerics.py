"""The shared floating-point tools: root finders and log-space helpers."""

from __future__ import annotations

import math
from decimal import Context, Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers._numerics import (
    bisect_increasing,
    decimals_up,
    float_down,
    float_up,
    gallop_below,
    largest_at_most,
    least_integer,
    log_hockey_stick,
    pmf_loss,
    pmf_loss_upper_quantile,
    product_at_least,
    product_minus,
    product_sign,
    ratio_down,
    ratio_up,
    sqrt_down,
    square_up,
    sum_up,
)

# --- bisect_increasing -------------------------------------------------------------------


def test_bisection_finds_the_root_and_rounds_to_the_side_asked():
    g = lambda x: x * x - 2.0  # noqa: E731
    low, high = np.array([0.0]), np.array([2.0])
    root = math.sqrt(2.0)
    assert bisect_increasing(g, low, high)[0] == pytest.approx(root, rel=1e-15)
    assert g(bisect_increasing(g, low, high, side="low")[0]) <= 0
    assert g(bisect_increasing(g, low, high, side="high")[0]) > 0


def test_a_vectorised_bisection_is_the_scalar_one_entry_by_entry():
    targets = np.array([0.5, 3.0, 1e-8, 7.25])
    together = bisect_increasing(lambda x: x - targets, np.zeros(4), np.full(4, 10.0))
    alone = [
        bisect_increasing(lambda x, t=t: x - t, np.array(0.0), np.array(10.0)) for t in targets
    ]
    np.testing.assert_array_equal(together, np.array(alone))


# --- gallop_below ------------------------------------------------------------------------


def test_gallop_below_brackets_each_entry_and_says_where_it_cannot():
    thresholds = np.array([-3.0, -1e6, -np.inf])  # g < 0 below the threshold, none for -inf
    low, found = gallop_below(lambda x: x - thresholds, np.zeros(3), np.ones(3))
    assert found.tolist() == [True, True, False]
    assert np.all(low[found] < thresholds[found])
    assert low[2] == -np.finfo(float).max  # it galloped to the end of the doubles


# --- largest_at_most ---------------------------------------------------------------------


@given(root=st.floats(1e-6, 1e6), power=st.floats(0.2, 5.0), tol=st.sampled_from([1e-9, 1e-3]))
def test_largest_at_most_keeps_the_bisections_contract(root, power, tol):
    """g ≤ 0 at the result and g > 0 at most ``tol`` above it, as a bisection guarantees."""

    def g(x):
        return x**power - root**power

    high = 1.0
    while g(high) <= 0:
        high *= 2
    x = largest_at_most(g, 0.0, high, tol)
    assert g(x) <= 0
    assert g(x + tol) > 0 or x + tol <= math.nextafter(root, math.inf) * (1 + 1e-12)


def test_largest_at_most_bisects_where_the_function_is_flat():
    # a step: the secant has no slope until the bracket straddles the jump
    g = lambda x: -1.0 if x <= 0.3 else 1.0  # noqa: E731
    x = largest_at_most(g, 0.0, 1.0, 1e-12)
    assert x <= 0.3 < x + 1e-12


def test_largest_at_most_stops_when_floating_point_cannot_split_the_bracket():
    low = 1.0
    high = math.nextafter(low, 2.0)
    assert largest_at_most(lambda x: -1.0 if x == low else 1.0, low, high, 0.0) == low


# --- least_integer -----------------------------------------------------------------------


@pytest.mark.parametrize("answer", [1, 2, 7, 1000, 10**15])
@pytest.mark.parametrize("guess", [1, 5, 10**6])
def test_least_integer_gallops_from_any_guess(answer, guess):
    calls = []

    def meets(m):
        calls.append(m)
        return m >= answer

    assert least_integer(meets, guess) == answer
    assert len(calls) <= 4 * max(1, math.log2(abs(answer - guess) + 1)) + 4


def test_least_integer_gives_up_when_hopeless():
    assert least_integer(lambda m: False, 1, hopeless=lambda m: m > 100) is None


# --- log space ---------------------------------------------------------------------------


def test_log_hockey_stick_is_the_difference_in_log_space():
    eps, p, q = 0.5, 0.3, 0.1
    expected = math.log(p - math.exp(eps) * q)
    assert log_hockey_stick(eps, math.log(p), math.log(q)) == pytest.approx(expected, rel=1e-14)
    assert log_hockey_stick(eps, math.log(0.1), math.log(0.1)) == -np.inf  # e^ε·Q ≥ P
    assert log_hockey_stick(eps, -np.inf, -np.inf) == -np.inf  # P underflows: δ = 0, not NaN


def test_the_pmf_loss_is_never_nan_and_its_quantile_walks_the_losses_downward():
    p = np.array([0.5, 0.3, 0.2, 0.0])
    q = np.array([0.25, 0.0, 0.2, 0.55])
    loss = pmf_loss(p, q)
    assert loss[0] == pytest.approx(math.log(2), rel=1e-15)
    assert loss[1] == np.inf and loss[2] == 0.0 and loss[3] == -np.inf  # q = 0 < p; p = 0
    # outcomes by decreasing loss: ∞ (mass 0.3), ln 2 (0.5), 0 (0.2); p = 0 carries no mass
    u = np.array([0.1, 0.3, 0.31, 0.8, 0.81, 1.0])
    expected = [np.inf, np.inf, math.log(2), math.log(2), 0.0, 0.0]
    assert pmf_loss_upper_quantile(u, p, q).tolist() == expected


# --- exact decisions and outward rounding (checked in rational arithmetic) -----------------

positive = st.floats(1e-300, 1e300, allow_nan=False, allow_infinity=False)


def _sign(value: Fraction) -> int:
    return (value > 0) - (value < 0)


@given(positive, positive, positive)
def test_product_sign_is_the_sign_of_the_exact_difference(x, y, z):
    exact = _sign(Fraction(x) * Fraction(y) - Fraction(z))
    assert product_sign(x, y, z) == exact
    assert product_at_least(x, y, z) == (exact >= 0)
    # z on the product itself, and a double beside it: the ties are decided exactly
    p = x * y
    if 0 < p < math.inf:
        for near in (p, math.nextafter(p, 0.0), math.nextafter(p, math.inf)):
            assert product_sign(x, y, near) == _sign(Fraction(x) * Fraction(y) - Fraction(near))


@given(positive, positive)
def test_ratio_up_and_down_are_the_closest_doubles_on_each_side(num, den):
    exact = Fraction(num) / Fraction(den)
    up, down = float(ratio_up(num, den)), float(ratio_down(num, den))
    if exact <= Fraction(np.finfo(float).max):
        assert Fraction(up) >= exact and Fraction(math.nextafter(up, 0.0)) < exact
        assert up == float_up(exact)
    assert Fraction(down) <= exact or down == np.finfo(float).max
    if exact <= Fraction(np.finfo(float).max) and exact >= Fraction(math.ulp(0.0)):
        assert down == float_down(exact)


@given(st.floats(1e-150, 1e150))
def test_square_up_and_sqrt_down_round_outward_exactly(x):
    square = float(square_up(x))
    assert Fraction(square) >= Fraction(x) ** 2 > Fraction(math.nextafter(square, 0.0))
    root = float(sqrt_down(x))
    assert Fraction(root) ** 2 <= Fraction(x) < Fraction(math.nextafter(root, math.inf)) ** 2


@given(st.lists(st.floats(0.0, 1e300), min_size=1, max_size=20))
def test_sum_up_is_the_smallest_double_at_or_above_the_exact_sum(values):
    exact = sum(map(Fraction, values))
    total = sum_up(values)
    if total == math.inf:
        assert exact > Fraction(np.finfo(float).max)
        return
    assert Fraction(total) >= exact > Fraction(math.nextafter(total, 0.0)) or total == exact


@given(positive, positive, positive)
def test_product_minus_has_the_right_sign(x, y, z):
    exact = Fraction(x) * Fraction(y) - Fraction(z)
    got = float(product_minus(x, y, z))
    if math.isinf(got):  # the product beyond the largest double: +inf, the right sign
        assert got > 0 and exact > Fraction(np.finfo(float).max)
        return
    assert _sign(Fraction(got)) == _sign(exact) or (got == 0.0 and exact == 0)


@given(
    x=st.floats(allow_nan=False, allow_infinity=False),
    decimals=st.integers(0, 15),
)
def test_decimals_up_prints_the_ceiling_of_the_decimal_the_float_prints_as(x, decimals):
    """A math-layer sentence's risk (a loss bound, a μ) is never printed below it."""
    exact, shown = Decimal(repr(x)), Decimal(decimals_up(x, decimals))
    unit = Decimal(1).scaleb(-decimals)
    with localcontext(Context(prec=1_000)):  # exact: a unit plus a double's decimal
        assert exact <= shown < exact + unit
        assert shown == shown.quantize(unit)
