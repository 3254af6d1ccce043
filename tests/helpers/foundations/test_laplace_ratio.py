"""helpers.foundations.laplace_ratio: the survey's example, within ε, at any finite point."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from _modules import as_float
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F
from helpers.mechanisms import laplace_pdf, laplace_scale

finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)
eps_st = st.floats(min_value=0.01, max_value=10.0)


# --- Laplace ratio ----------------------------------------------------------------------------


def test_survey_laplace_example_ratio():
    ex = F.SURVEY_LAPLACE_EXAMPLE
    eps = 0.7
    z = np.linspace(-50, 80, 2601)
    r = F.laplace_ratio(z, ex["y1"], ex["y2"], eps, sensitivity=ex["sensitivity"])
    # = e^ε left of [y1, y2], e^{-ε} right of it, in between inside the band
    assert np.allclose(r[z <= ex["y1"]], math.exp(eps))
    assert np.allclose(r[z >= ex["y2"]], math.exp(-eps))
    inside = (z > ex["y1"]) & (z < ex["y2"])
    assert np.all((r[inside] < math.exp(eps)) & (r[inside] > math.exp(-eps)))
    # agrees with the quotient of the densities from helpers.mechanisms
    b = ex["sensitivity"] / eps
    direct = laplace_pdf(z, ex["y1"], b) / laplace_pdf(z, ex["y2"], b)
    assert np.allclose(r, direct)


@given(z=finite, y1=finite, shift=st.floats(-1, 1), eps=eps_st, delta=st.floats(0.01, 100))
def test_laplace_log_ratio_within_epsilon(z, y1, shift, eps, delta):
    y2 = y1 + shift * delta  # neighbouring outputs: |y1 - y2| <= Δ
    lr = F.laplace_log_ratio(z, y1, y2, eps, sensitivity=delta)
    assert abs(lr) <= eps * (1 + 1e-9) + 1e-12


def test_laplace_ratio_finite_far_in_tail():
    assert F.laplace_ratio(1e6, 0, 1, 1.0) == pytest.approx(math.exp(-1))
    assert F.laplace_ratio(-1e6, 0, 1, 1.0) == pytest.approx(math.e)


def test_laplace_ratio_bad_input():
    with pytest.raises(ValueError, match="epsilon"):
        F.laplace_ratio(0, 0, 1, -1.0)
    with pytest.raises(ValueError, match="z must be finite"):
        F.laplace_ratio(float("nan"), 0, 1, 1.0)


huge = st.floats(-1.7e308, 1.7e308) | st.sampled_from([1e308, -1e308, 1.7e308, -1.7e308])


@given(z=huge, y1=huge, y2=huge, eps=st.floats(1e-3, 1e3), delta=st.floats(1e-3, 1e3))
def test_laplace_log_ratio_at_any_finite_point(z, y1, y2, eps, delta):
    # z − y overflowed at ±1e308 (inf − inf), and far from y₁, y₂ the two rounded distances
    # lost |y₁ − y₂|; the log-ratio is (ε/Δ)(|z − y₂| − |z − y₁|), compared in exact arithmetic
    scale = Fraction(laplace_scale(eps, sensitivity=delta))
    exact = (abs(Fraction(z) - Fraction(y2)) - abs(Fraction(z) - Fraction(y1))) / scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = F.laplace_log_ratio(z, y1, y2, eps, sensitivity=delta)
    # to 1e-15 of the distances involved (inside [y₁, y₂] the two distances nearly cancel)
    size = (abs(Fraction(z) - Fraction(y1)) + abs(Fraction(z) - Fraction(y2))) / scale
    assert got == pytest.approx(as_float(exact), rel=1e-12, abs=as_float(size) * 1e-15)
