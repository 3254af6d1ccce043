"""The shared input checks: a bad value is described as it was given, never coerced."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import _validation as V
from helpers import mechanisms, plrv
from helpers._validation import check_finite_scalar, check_positive, check_real


def test_a_scalar_is_described_as_the_scalar_it_was():
    # regression: epsilon=0.0 was reported as "an array whose offending entries include array([0.])"
    with pytest.raises(ValueError, match=r"^epsilon must be > 0 and finite; got 0\.0$"):
        check_positive("epsilon", 0.0)
    with pytest.raises(ValueError, match=r"got -1\.0$"):
        check_positive("epsilon", np.float64(-1.0))
    with pytest.raises(
        ValueError, match=r"shape \(3,\) whose offending entries include \[-2\.0\]$"
    ):
        check_positive("epsilon", [1.0, -2.0, 3.0])


@pytest.mark.parametrize("value", ["2.2", b"2.2", None, 1 + 2j, [1.0, "a"], [[1.0], [1.0, 2.0]]])
def test_non_numbers_are_refused_even_when_numpy_could_coerce_them(value):
    with pytest.raises(ValueError, match=r"^x must be a real number"):
        check_real("x", value)


def test_a_numeric_string_is_not_a_release():
    with pytest.raises(ValueError, match=r"the string '2\.2'"):
        mechanisms.laplace_pdf("2.2")
    with pytest.raises(ValueError, match=r"the string '2\.2'"):
        plrv.laplace_privacy_loss("2.2", 1.0)


def test_a_list_where_a_scalar_is_expected_is_a_value_error():
    with pytest.raises(
        ValueError, match=r"^epsilon must be a single number; got \[1\.0, 2\.0\] of shape \(2,\)$"
    ):
        check_finite_scalar("epsilon", [1.0, 2.0])
    with pytest.raises(ValueError, match="must be a single number"):
        plrv.gaussian_sigma_for_delta([1.0, 2.0], 1e-5)


def test_plotting_and_widgets_import_no_private_module_of_another_package():
    import ast
    from pathlib import Path

    offenders = []
    for layer in ("plotting", "widgets", "figures"):
        for path in (Path("helpers") / layer).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level >= 2:
                    module = node.module or ""
                    private_module = any(part.startswith("_") for part in module.split("."))
                    private_names = [a.name for a in node.names if a.name.startswith("_")]
                    if private_module or private_names:
                        offenders.append(f"{path}: from {'.' * node.level}{module} import ...")
    assert offenders == []


# --- one rule for booleans (refused, as strings are) and for integers beyond a double ---------

CHECKS = [
    ("check_real", lambda v: check_real("x", v)),
    ("check_positive", lambda v: check_positive("x", v)),
    ("check_nonnegative", lambda v: V.check_nonnegative("x", v)),
    ("check_open_unit", lambda v: V.check_open_unit("x", v)),
    ("check_half_open_unit", lambda v: V.check_half_open_unit("x", v)),
    ("check_real_or_inf", lambda v: V.check_real_or_inf("x", v)),
    ("check_finite_scalar", lambda v: check_finite_scalar("x", v)),
    ("check_int_range", lambda v: V.check_int_range("x", v, 0, 5)),
    ("check_universe", lambda v: V.check_universe(v if np.ndim(v) else [v], "x")),
]


@pytest.mark.parametrize("name,check", CHECKS, ids=[c[0] for c in CHECKS])
@pytest.mark.parametrize(
    "value",
    [True, False, np.True_, np.array([True, False]), [1.0, True], [[0.5], [False]], (1, True)],
    ids=repr,
)
def test_a_boolean_is_not_a_number_to_any_check(name, check, value):
    # True was ε = 1 to check_real but refused by check_int_range: one rule now, everywhere
    with pytest.raises(ValueError, match=r"^x must "):
        check(value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: mechanisms.laplace_scale(True),
        lambda: mechanisms.laplace_pdf([0.5, False]),
        lambda: plrv.gaussian_delta(1.0, np.True_),
        lambda: plrv.gaussian_sigma_for_delta(True, 1e-5),
        lambda: mechanisms.gaussian_sample(0.0, 1.0, True, rng=1),
        lambda: mechanisms.make_rng(True),
    ],
)
def test_booleans_are_refused_through_the_public_functions(call):
    with pytest.raises(ValueError):
        call()


@given(st.integers(min_value=2**1024, max_value=10**400) | st.integers(max_value=-(2**1024)))
def test_an_integer_beyond_the_largest_double_is_a_value_error(big):
    # numpy keeps such an int as an object and float() raised OverflowError
    for value in (big, [1.0, big], np.array([big], dtype=object)):
        with pytest.raises(ValueError, match=r"^x must .* within the range of a double"):
            check_real("x", value)
    with pytest.raises(ValueError, match="at most 10"):
        V.check_size((abs(big), 2))


def test_integers_within_the_range_of_a_double_are_numbers():
    assert check_real("x", 2**70) == float(2**70)
    assert check_real("x", [1, 2**1000]).tolist() == [1.0, float(2**1000)]


# --- NaN and ±inf of a range-checked parameter: refused with the allowed range ---------------


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize(
    ("check", "rule"),
    [
        (check_positive, r"be > 0 and finite"),
        (V.check_nonnegative, r"be >= 0 and finite"),
        (V.check_open_unit, r"lie in the open interval \(0, 1\)"),
        (V.check_half_open_unit, r"lie in \(0, 1\]"),
    ],
)
def test_a_range_checker_names_its_range_for_nan_and_infinity(check, rule, bad):
    # regression: NaN gave "x must be finite (no NaN or infinity); got nan", without the range
    with pytest.raises(ValueError, match=rf"^x must {rule}; got {bad!r}$"):
        check("x", bad)
    with pytest.raises(ValueError, match=rf"^x must {rule}; got an array of shape \(2,\)"):
        check("x", [0.5, bad])


def test_check_real_names_the_rule_it_is_given_and_keeps_its_message_without_one():
    with pytest.raises(ValueError, match=r"^x must lie in \[0, 1\]; got nan$"):
        check_real("x", float("nan"), rule="lie in [0, 1]")
    with pytest.raises(ValueError, match=r"^x must lie in \[0, 1\]; got nan$"):
        check_finite_scalar("x", float("nan"), rule="lie in [0, 1]")
    with pytest.raises(ValueError, match=r"^x must be finite \(no NaN or infinity\); got inf$"):
        check_real("x", float("inf"))
    # a rule changes only the NaN/inf message: junk is still "must be a real number"
    with pytest.raises(ValueError, match=r"^x must be a real number"):
        check_real("x", "0.5", rule="lie in [0, 1]")
