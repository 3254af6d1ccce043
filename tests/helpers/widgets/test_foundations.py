"""Drive the foundations dashboards as a reader does: set a control, check text and plot."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _modules import same_as_fresh

from helpers import foundations as F
from helpers.plotting import allowed_down, risk_up
from helpers.widgets import foundations as dashboards


def test_laplace_ratio_dashboard_follows_epsilon():
    dash = dashboards.laplace_ratio_dashboard()
    assert f"[{allowed_down(math.exp(-1)):.4f}, {risk_up(math.e):.4f}]" in dash.text
    dash.controls["epsilon"].value = 2.0
    assert f"{risk_up(math.exp(2)):.4f}" in dash.text
    assert f"{allowed_down(math.exp(-2)):.4f}" in dash.text
    ratio_axes = dash.figure.axes[1]
    ratio = _line(ratio_axes, "ratio").get_ydata()
    assert ratio.max() == pytest.approx(math.exp(2))
    assert ratio.min() == pytest.approx(math.exp(-2))
    assert _line(ratio_axes, "exp_epsilon").get_ydata()[0] == pytest.approx(math.exp(2))
    # the densities are Laplace(Δ/ε) = Laplace(5): peak 1/(2b) = 0.1
    assert _line(dash.figure.axes[0], "density1").get_ydata().max() == pytest.approx(0.1, rel=1e-3)


def test_randomised_response_dashboard_follows_alpha_and_n():
    dash = dashboards.randomised_response_dashboard()
    assert f"ε = ln((1+α)/(1−α)) = {risk_up(math.log(3)):.4f}" in dash.text
    # α alone: ε, the ±2·√(1/(α²n)) lines of the histogram and the bound curves move
    dash.controls["alpha"].value = 0.8
    assert f"ε = ln((1+α)/(1−α)) = {risk_up(float(F.rr_epsilon(0.8))):.4f}" in dash.text
    assert f"notes' bound 1/(α²n) = {float(F.rr_variance_bound(18, 0.8)):.5f}" in dash.text
    hist_axes = dash.figure.axes[0]
    half = 2 * math.sqrt(float(F.rr_variance_bound(18, 0.8)))
    assert _line(hist_axes, "minus_two_sd").get_xdata()[0] == pytest.approx(0.5 - half)
    assert _line(hist_axes, "plus_two_sd").get_xdata()[0] == pytest.approx(0.5 + half)
    assert _line(dash.figure.axes[1], "simulated_variance").get_xdata()[0] == 18
    # n alone: the simulated-variance marker moves to the new n
    dash.controls["n"].value = 500
    assert f"{risk_up(float(F.rr_epsilon(0.8))):.4f}" in dash.text
    assert f"{float(F.rr_variance_bound(500, 0.8)):.5f}" in dash.text
    var_axes = dash.figure.axes[1]
    ns = _line(var_axes, "notes_bound").get_xdata()
    assert np.allclose(_line(var_axes, "notes_bound").get_ydata(), 1 / (0.8**2 * ns))
    assert np.allclose(_line(var_axes, "tight_bound").get_ydata(), 1 / (4 * 0.8**2 * ns))
    assert np.allclose(
        _line(var_axes, "exact_variance").get_ydata(), F.rr_variance(0.5, 1, 0.8) / ns
    )
    # the simulated variance marker sits at n = 500, near the exact value, below the bound
    marker = _line(var_axes, "simulated_variance")
    n_marker, v_marker = marker.get_xdata()[0], marker.get_ydata()[0]
    assert n_marker == 500
    assert v_marker == pytest.approx(float(F.rr_variance(0.5, 500, 0.8)), rel=0.1)
    assert v_marker < float(F.rr_variance_bound(500, 0.8))


def test_hypothesis_dashboard_follows_epsilon():
    dash = dashboards.hypothesis_region_dashboard()
    assert f"{allowed_down(1 / (1 + math.e)):.4f}" in dash.text
    dash.controls["epsilon"].value = 0.5
    assert f"{allowed_down(1 / (1 + math.exp(0.5))):.4f}" in dash.text
    ax = dash.figure.axes[0]
    p, q = _line(ax, "boundary").get_xdata(), _line(ax, "boundary").get_ydata()
    assert np.allclose(q, F.hypothesis_min_q(p, 0.5))
    tp, tq = _line(ax, "laplace_tests").get_xdata(), _line(ax, "laplace_tests").get_ydata()
    assert np.all(F.hypothesis_feasible(tp, tq, 0.5, tol=1e-9))


def test_exponential_dashboard_follows_epsilon():
    dash = dashboards.exponential_mechanism_dashboard()
    assert "$1.00: 0.300, $1.01: 0.216, $3.01: 0.301, $3.02: 0.183" in dash.text
    assert "expected revenue = $2.025" in dash.text
    dash.controls["epsilon"].value = 10.0
    rev = F.auction_revenue(F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS)
    probs = F.exponential_mechanism_probabilities(rev, 10.0, sensitivity=3.02)
    assert f"$3.01: {probs[2]:.3f}" in dash.text
    assert f"${float(F.expected_score(rev, 10.0, sensitivity=3.02)):.3f}" in dash.text
    marker = _line(dash.figure.axes[1], "expected_revenue_marker")
    assert marker.get_xdata()[0] == pytest.approx(10.0)
    assert marker.get_ydata()[0] == pytest.approx(
        float(F.expected_score(rev, 10.0, sensitivity=3.02))
    )
    assert _line(dash.figure.axes[0], "epsilon_marker").get_xdata()[0] == pytest.approx(10.0)


def _line(ax, gid: str):
    found = [line for line in ax.lines if line.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} lines with gid {gid!r}"
    return found[0]


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (
            lambda: dashboards.laplace_ratio_dashboard(epsilon=0.0),
            r"^epsilon must lie in \[0.05, 5\]",
        ),
        (lambda: dashboards.hypothesis_region_dashboard(epsilon=9.0), r"^epsilon must lie in"),
        (lambda: dashboards.exponential_mechanism_dashboard(epsilon=1e4), r"^epsilon must lie in"),
        (
            lambda: dashboards.randomised_response_dashboard(alpha=1.0),
            r"^alpha must lie in \[0.05, 0.95\]",
        ),
        (
            lambda: dashboards.randomised_response_dashboard(n=1),
            r"^n must be an integer in 2..2000",
        ),
        (lambda: dashboards.randomised_response_dashboard(rng=None), r"^rng must be an int seed"),
    ],
)
def test_bad_starting_values_are_refused_not_clamped(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_randomised_response_moves_in_place_as_a_fresh_draw_shows_it():
    """Issue 33: α and n update the one figure in place (the histogram's bins follow n, one
    bar per lattice value up to n = 60, then 40 bins; both axes rescale), and every move
    shows what a fresh draw shows: pixels, text alternative and readout."""
    dash = dashboards.randomised_response_dashboard()
    figure = dash.figure
    for name, value in [("n", 60), ("n", 61), ("alpha", 0.9), ("n", 2), ("alpha", 0.05)]:
        dash.controls[name].value = value
        assert dash.figure is figure, f"{name} = {value} drew a new figure"
        same_as_fresh(dash, f"randomised response: {name} = {value}")
