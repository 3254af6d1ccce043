"""Figures of notebook 00: the hypothesis-testing region, the properties and the sensitivity
of bits plot exactly the math."""

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


def test_properties_figure_plots_the_measured_epsilons():
    from helpers.plotting import foundations as P

    fig = P.plot_properties(epsilon=0.5, alpha1=0.5, alpha2=0.3, rng=5)
    post, group, comp = fig.axes
    heights = np.array([bar.get_height() for bar in post.patches])
    assert heights.size == 6 and np.all(np.abs(heights) <= math.log(3) + 1e-12)
    assert np.max(np.abs(heights[:2])) == pytest.approx(math.log(3))  # RR itself: exactly ε
    measured = _line(group, "group_measured")
    k = measured.get_xdata()
    np.testing.assert_allclose(measured.get_ydata(), 0.5 * k)  # attained: kε
    np.testing.assert_allclose(_line(group, "group_budget").get_ydata(), 0.5 * k)
    pair = _line(comp, "composition_measured")
    budget = _line(comp, "composition_budget")
    np.testing.assert_allclose(pair.get_ydata(), budget.get_ydata())
    eps1 = pair.get_xdata()
    np.testing.assert_allclose(eps1, F.rr_epsilon(np.linspace(0.05, 0.9, 12)))
    np.testing.assert_allclose(budget.get_ydata(), eps1 + float(F.rr_epsilon(0.3)))


def test_bits_sensitivity_figure_plots_the_brute_force_values():
    from helpers.plotting import foundations as P

    ax = P.plot_bits_sensitivity(n_max=12).axes[0]
    n = _line(ax, "mean_bounded").get_xdata()
    np.testing.assert_allclose(_line(ax, "sum").get_ydata(), 1.0)  # the sum: 1 for every n
    np.testing.assert_allclose(_line(ax, "mean_bounded").get_ydata(), 1 / n)  # bounded mean: 1/n
    unbounded = _line(ax, "mean_unbounded").get_ydata()
    np.testing.assert_allclose(unbounded[2:], 1 / n[2:])  # at size n ≥ 3: 1/n as well
    np.testing.assert_allclose(unbounded[:2], 0.5)  # n = 1, 2: one person moves it by 1/2
    assert _line(ax, "mean_unbounded_all_sizes").get_ydata()[0] == 0.5
