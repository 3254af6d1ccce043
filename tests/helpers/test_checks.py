"""helpers/checks.py: the layers above get the math layer's own checks, not copies."""

from __future__ import annotations

from helpers import _validation, checks


def test_every_public_check_is_the_math_layers_own_function():
    assert checks.__all__, "checks exports nothing"
    for name in checks.__all__:
        assert getattr(checks, name) is getattr(_validation, name), name


def test_a_check_refuses_as_the_contract_says():
    import pytest

    with pytest.raises(ValueError, match=r"epsilon must .*got -1"):
        checks.check_positive("epsilon", -1)
    assert type(checks.check_finite_scalar("x", 2)) is float
