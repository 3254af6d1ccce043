"""The hypothesis-testing figure of notebook 00 shades exactly the ε-DP region."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers import foundations as F
from helpers.plotting.foundations import plot_hypothesis_region


def _all_four(p, q, epsilon):
    """The four constraints of (Kairouz, Oh & Viswanath 2015, Theorem 2.1), written out."""
    e = math.exp(epsilon)
    return (
        (p + e * q >= 1 - 1e-12)
        & (e * p + q >= 1 - 1e-12)
        & ((1 - p) + e * (1 - q) >= 1 - 1e-12)
        & (e * (1 - p) + (1 - q) >= 1 - 1e-12)
    )


@pytest.mark.parametrize("epsilon", [0.3, 1.0, 2.5])
def test_shaded_region_is_cut_by_all_four_constraints(epsilon):
    ax = plot_hypothesis_region(epsilon).axes[0]
    shaded = ax.collections[0].get_paths()[0]
    grid = np.linspace(0.0, 1.0, 81)
    p, q = (a.ravel() for a in np.meshgrid(grid, grid))
    inside = shaded.contains_points(np.c_[p, q], radius=-1e-9)
    feasible = _all_four(p, q, epsilon)
    # every shaded point is feasible; every clearly interior feasible point is shaded
    assert not np.any(inside & ~feasible)
    margin = _all_four(np.clip(p - 0.02, 0, 1), q, epsilon) & _all_four(
        np.clip(p + 0.02, 0, 1), q, epsilon
    )
    assert np.all(inside[feasible & margin & (p > 0.02) & (p < 0.98)])
    assert not shaded.contains_point((0.99, 0.99))  # a test that is always wrong is not allowed
    upper = _line(ax, "boundary_complement")
    assert np.allclose(upper.get_ydata(), 1 - F.hypothesis_min_q(1 - upper.get_xdata(), epsilon))


def _line(ax, gid: str):
    """The one line of ``ax`` with this gid (plot data are found by gid, never by index)."""
    found = [line for line in ax.lines if line.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} lines with gid {gid!r}"
    return found[0]
