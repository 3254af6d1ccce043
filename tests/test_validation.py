"""The shared input checks: a bad value is described as it was given, never coerced."""

from __future__ import annotations

import numpy as np
import pytest

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
