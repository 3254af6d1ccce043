"""helpers/plotting/kazan_reiter.py: the figures draw the math layer's numbers, truncation said."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from _modules import find_artist

from helpers import kazan_reiter as kr
from helpers.plotting import kazan_reiter as plots


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.mark.parametrize("kind, fixed", [("inclusion", 1.0), ("values", 0.05)])
def test_a_slice_draws_profile_slice_and_marks_its_minimum(kind, fixed):
    fig = plots.plot_risk_profile_slice(kind, 0.25, fixed, 3.0, fast=True)
    s = kr.profile_slice(kind, 0.25, fixed, 3.0)
    np.testing.assert_array_equal(find_artist(fig, "r_star").get_xdata(), s.x)
    minimum = find_artist(fig, "minimum")
    assert minimum.get_xdata()[0] == s.x_min and minimum.get_ydata()[0] == s.epsilon_min
    # εᵢ is drawn as computed wherever it is under the cap, and the cap is named on the axis
    drawn = np.asarray(find_artist(fig, "epsilon_i").get_ydata(), dtype=float)
    cap = max(6.0, 1.5 * s.epsilon_min)
    under = np.isfinite(s.epsilon_i) & (s.epsilon_i <= cap)
    np.testing.assert_array_equal(drawn[under], s.epsilon_i[under])
    assert np.all(drawn[np.isfinite(drawn)] <= cap)
    truncated = bool(np.any(~(s.epsilon_i <= cap)))
    assert ("truncated" in fig.axes[1].get_ylabel()) == truncated


def test_bound_vs_naive_draws_theorem_1_under_corollary_1():
    fig = plots.plot_bound_vs_naive(1.0, (1.0, 0.1), fast=True)
    naive = find_artist(fig, "naive").get_ydata()[0]
    assert naive == kr.naive_bound(1.0)
    for q in (1.0, 0.1):
        line = find_artist(fig, f"theorem1_q{q:g}")
        p, bound = line.get_xdata(), line.get_ydata()
        np.testing.assert_array_equal(bound, kr.relative_risk_bound(p, q, 1.0))
        assert np.all(bound <= naive)
