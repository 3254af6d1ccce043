"""helpers.mechanisms._pld: the vectorised connect-the-dots PLDs are dp_accounting's own (issue 33)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers.mechanisms import Gaussian, Laplace

pytest.importorskip("dp_accounting")


def _same_pmf(fast, library) -> None:
    """Same kind, offset and grid, the same masses. The same IEEE operations on the same
    inputs give the same doubles; numpy's SIMD ``exp`` and scipy's vectorised cdf may still
    differ by an ulp across CPUs between array lengths, and a mass is a difference of δ's, so
    masses are compared to 1e-14 absolute (of a total 1)."""
    fast, library = fast._pmf_remove, library._pmf_remove
    assert type(fast) is type(library)
    fast, library = fast.to_dense_pmf(), library.to_dense_pmf()
    assert fast._discretization == library._discretization
    assert fast._lower_loss == library._lower_loss
    assert len(fast._probs) == len(library._probs)
    assert fast._infinity_mass == pytest.approx(library._infinity_mass, rel=1e-12, abs=1e-15)
    np.testing.assert_allclose(
        np.asarray(fast._probs), np.asarray(library._probs), rtol=0, atol=1e-14
    )


@settings(max_examples=40, deadline=None)
@given(
    st.floats(1e-2, 1e3),
    st.floats(1e-2, 1e2),
    st.sampled_from([1e-4, 1e-3, 1e-2, 0.1]),
)
def test_the_vectorised_laplace_pld_is_dp_accountings_own(b, sensitivity, h):
    one = Laplace(b, sensitivity=sensitivity)
    # a grid of more than 2e5 points: the library's per-point build takes seconds
    assume(2 * sensitivity / b / h <= 2e5)
    _same_pmf(one.pld(discretization=h), one._native_pld("from_laplace_mechanism", b, h))


@settings(max_examples=40, deadline=None)
@given(
    st.floats(1e-1, 1e3),
    st.floats(1e-2, 1e2),
    st.sampled_from([1e-4, 1e-3, 1e-2, 0.1]),
)
def test_the_vectorised_gaussian_pld_is_dp_accountings_own(sigma, sensitivity, h):
    one = Gaussian(sigma, sensitivity=sensitivity)
    mu = sensitivity / sigma
    # the loss spans about (μ² + 2·10μ)/h buckets (the tails cut at ½e⁻⁵⁰ of the noise)
    assume((mu * mu + 20 * mu) / h <= 2e5)  # the library's per-point build: seconds beyond
    _same_pmf(one.pld(discretization=h), one._native_pld("from_gaussian_mechanism", sigma, h))


@pytest.mark.parametrize("cls", [Laplace, Gaussian])
def test_a_loss_within_one_bucket_takes_the_librarys_path(cls):
    # a tiny Δ/noise and a coarse grid: the loss fits one bucket, built by dp_accounting
    one = cls(1e6, sensitivity=1e-3)
    name = "from_laplace_mechanism" if cls is Laplace else "from_gaussian_mechanism"
    _same_pmf(one.pld(discretization=1.0), one._native_pld(name, 1e6, 1.0))


@pytest.mark.parametrize("cls", [Laplace, Gaussian])
def test_pld_refuses_a_bad_discretization_or_an_array_by_name(cls):
    with pytest.raises(ValueError, match="discretization"):
        cls(1.0).pld(discretization=0.0)
    with pytest.raises(ValueError, match="single"):
        cls(np.array([1.0, 2.0])).pld()
