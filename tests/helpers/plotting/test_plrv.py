"""Figures of notebook 06: the plotted densities, losses and δ are the math; bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers import plrv
from helpers.plotting import plrv as P


def _line(ax, gid: str):
    """The one line of ``ax`` with this gid (plot data are found by gid, never by index)."""
    found = [line for line in ax.lines if line.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} lines with gid {gid!r}"
    return found[0]


def test_static_figures_plot_the_math():
    fig = P.plot_two_densities("laplace", plrv.POST_LAPLACE_SCALE, outputs=[999, 1000.5, 1003])
    ax = fig.axes[0]
    assert _line(ax, "outputs").get_xdata().tolist() == [999, 1000.5, 1003]
    labels = " ".join(t.get_text() for t in ax.texts)
    assert "P[D₁|O] = 0.75" in labels and "P[D₁|O] = 0.25" in labels
    fig = P.plot_loss_vs_output()
    assert _line(fig.axes[0], "loss").get_ydata().max() == pytest.approx(math.log(3))
    fig = P.plot_delta_area(pmfs=plrv.thresholding_pmfs(), mechanism="pmf")
    y = _line(fig.axes[0], "delta_curve").get_ydata()
    x = _line(fig.axes[0], "delta_curve").get_xdata()
    assert np.all(y[x < 1 / 162 - 1e-6] == 0) and np.all(y[x > 1 / 162 + 1e-6] == 1)
    assert "δ₂ = 0.0062" in fig.axes[0].get_title()


def test_privacy_profile_figure_plots_both_deltas():
    fig = P.plot_privacy_profile((("gaussian", 2.0), ("geometric", 1.0)), epsilon_max=1.5)
    ax = fig.axes[0]
    eps = _line(ax, "tight_gaussian").get_xdata()
    np.testing.assert_allclose(
        _line(ax, "tight_gaussian").get_ydata(), plrv.gaussian_delta(eps, 2.0)
    )
    np.testing.assert_allclose(
        _line(ax, "naive_gaussian").get_ydata(), plrv.gaussian_delta_naive(eps, 2.0)
    )
    tight = _line(ax, "tight_geometric").get_ydata()
    expected = plrv.geometric_delta(eps, 1.0)
    assert np.all(np.isnan(tight[expected == 0]))  # zero δ is off the log axis, not drawn as 0
    np.testing.assert_allclose(tight[expected > 0], expected[expected > 0])


def test_loss_vs_output_draws_each_mechanisms_own_loss():
    # regression: "geometric" silently drew the Gaussian loss on a continuous grid
    for mechanism, noise in (("laplace", 1.5), ("gaussian", 2.0), ("geometric", 1.5)):
        line = _line(P.plot_loss_vs_output(mechanism, noise).axes[0], "loss")
        o = line.get_xdata()
        expected = plrv.privacy_loss(o, mechanism, noise, loc=plrv.POST_COUNT)
        np.testing.assert_array_equal(line.get_ydata(), expected)
    assert np.all(o == np.round(o))  # the geometric mechanism's outputs are integers
    with pytest.raises(ValueError, match="mechanism must be one of"):
        P.plot_loss_vs_output("cauchy")


@pytest.mark.parametrize(
    "draw",
    [
        lambda: P.plot_two_densities("cauchy", 1.0),
        lambda: P.plot_exp_loss("cauchy", 1.0),
        lambda: P.plot_delta_area(1.0, "cauchy", 1.0),
        lambda: P.plot_plrv_panels("cauchy", 1.0, 1.0),
        lambda: P.plot_privacy_profile((("cauchy", 1.0),)),
        lambda: P.plot_loss_vs_output(["laplace"], 1.0),
    ],
)
def test_an_unknown_mechanism_is_a_value_error_before_drawing(draw):
    # plot_two_densities drew the geometric pmf for any unknown name, then raised KeyError
    with pytest.raises(ValueError, match="mechanism must be one of"):
        draw()
