"""helpers.foundations.bits_sensitivity: the sum and the mean of bits, bounded and unbounded."""

from __future__ import annotations

import pytest

from helpers import foundations as F

# --- neighbouring data sets and sensitivity ---------------------------------------------


@pytest.mark.parametrize("kind", ["bounded", "unbounded"])
@pytest.mark.parametrize("n", [2, 18, 150])
def test_bits_sensitivity(kind, n):
    assert F.bits_query_sensitivity(n, "sum", kind) == pytest.approx(1.0)
    # the survey's Δ = 1/n for the mean
    assert F.bits_query_sensitivity(n, "mean", kind) == pytest.approx(1.0 / n)


def test_bits_sensitivity_bad_input():
    with pytest.raises(ValueError, match="query"):
        F.bits_query_sensitivity(5, "median")
    with pytest.raises(ValueError, match="kind"):
        F.bits_query_sensitivity(5, "sum", "swap")
    with pytest.raises(ValueError, match="n must be an integer"):
        F.bits_query_sensitivity(0)


def test_unbounded_mean_sensitivity_depends_on_the_smallest_size():
    """Among size-n data sets the mean moves by 1/n; for n = 1 or 2 by 1/2."""
    assert F.bits_query_sensitivity(1, "mean", "unbounded") == 0.5
    assert F.bits_query_sensitivity(2, "mean", "unbounded") == 0.5
    assert F.bits_query_sensitivity(18, "mean", "unbounded") == pytest.approx(1 / 18)
