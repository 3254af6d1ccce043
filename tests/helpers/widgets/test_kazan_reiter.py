"""Kazan & Reiter dashboards: move the controls as a reader would, check text and plotted data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _modules import same_as_fresh

from helpers import kazan_reiter as kr
from helpers.plotting import allowed_down, risk_up
from helpers.widgets import kazan_reiter as w


def _line(ax, gid: str):
    """The one line of ``ax`` with this gid (plot data are found by gid, never by index)."""
    found = [line for line in ax.lines if line.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} lines with gid {gid!r}"
    return found[0]


def test_risk_profile_dashboard_follows_r_a_and_the_slice():
    dash = w.risk_profile_dashboard()
    eps3 = kr.epsilon_inclusion_profile(0.25, 1.0, 3.0)
    assert f"recommended ε = {allowed_down(eps3):.4f}" in dash.text
    ax_r, ax_e = dash.figure.axes
    marker = _line(ax_e, "minimum")
    assert marker.get_ydata()[0] == pytest.approx(eps3)

    dash.controls["r"].value = 6.0
    eps6 = kr.epsilon_inclusion_profile(0.25, 1.0, 6.0)
    assert round(eps6, 2) == 2.04
    assert f"recommended ε = {allowed_down(eps6):.4f}" in dash.text
    sd, exact = kr.utility(eps6)
    assert f"noise SD = {float(sd):.3f}" in dash.text
    assert f"P[exact] = {100 * float(exact):.1f}%" in dash.text
    ax_r, ax_e = dash.figure.axes
    assert _line(ax_e, "minimum").get_ydata()[0] == pytest.approx(eps6)
    # the plotted profile is max(ã/p, r̃) on the slice q = 1
    x = np.asarray(_line(ax_r, "r_star").get_xdata())
    y = np.asarray(_line(ax_r, "r_star").get_ydata())
    expected = np.minimum(np.maximum(0.25 / x, 6.0), 18.0)
    assert np.allclose(y, expected)
    # the εᵢ curve is Theorem 2 along the slice
    eps_curve = np.asarray(_line(ax_e, "epsilon_i").get_ydata())
    finite = np.isfinite(eps_curve) & (eps_curve < 6)
    assert np.allclose(
        eps_curve[finite], kr.max_epsilon(x[finite], 1.0, np.maximum(0.25 / x[finite], 6.0))
    )

    # switch to Table 5's agency B (profile (16), on the branch boundary)
    dash.controls["kind"].value = "values"
    dash.controls["r"].value = 3.0
    dash.controls["a"].value = 0.15
    dash.controls["fixed"].value = 0.05
    eps_b = kr.epsilon_values_profile(0.15, 0.05, 3.0)
    assert round(eps_b, 2) == 1.21
    assert f"recommended ε = {allowed_down(eps_b):.4f}" in dash.text
    assert "minimum at q = 1.0000" in dash.text


def test_risk_profile_dashboard_at_a_tilde_zero_uses_the_closed_form():
    # the dashboard used to refuse ã = 0 for profile (16) although the profile accepts it;
    # now epsilon_values_profile accepts it too and the two agree
    dash = w.risk_profile_dashboard(kind="values", a=0.1, fixed=0.05, r=3.0)
    dash.controls["a"].value = 0.0
    expected = kr.epsilon_values_profile(0.0, 0.05, 3.0)
    assert dash.text.startswith(f"recommended ε = {allowed_down(expected):.4f}")


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: w.bound_dashboard(epsilon=-1), r"^epsilon must lie in \[0.05, 3\].*; got -1$"),
        (lambda: w.bound_dashboard(epsilon=[1.0]), r"^epsilon must be a single number"),
        (
            lambda: w.risk_profile_dashboard(kind="box"),
            r"^kind must be one of \['inclusion', 'values'\]",
        ),
        (lambda: w.risk_profile_dashboard(r=50.0), r"^r must lie in \[1.05, 10\]"),
        (lambda: w.profile_map_dashboard(a=0.0), r"^a must lie in \[0.01, 0.9\]"),
        (lambda: w.tradeoff_dashboard(r=3.0), r"^r must be one of \[1.2, 2.0, 5.0\]; got 3.0$"),
        (lambda: w.tradeoff_dashboard(direction="up"), r"^direction must be one of"),
    ],
)
def test_bad_starting_values_are_refused_not_clamped(make, match):
    # ipywidgets clamps a slider silently and raises TraitError for a bad dropdown value
    with pytest.raises(ValueError, match=match):
        make()


def test_bound_dashboard_draws_theorem1_and_the_naive_bound():
    dash = w.bound_dashboard()
    dash.controls["epsilon"].value = 0.5
    ax = dash.figure.axes[0]
    theorem1 = _line(ax, "theorem1_q1")
    p = np.asarray(theorem1.get_xdata())
    assert np.allclose(theorem1.get_ydata(), kr.relative_risk_bound(p, 1.0, 0.5))
    small_q = _line(ax, "theorem1_q0.01")
    assert np.allclose(small_q.get_ydata(), kr.relative_risk_bound(p, 0.01, 0.5))
    assert _line(ax, "naive").get_ydata()[0] == pytest.approx(math.exp(1.0))
    assert f"e^(2ε) = {risk_up(math.exp(1.0)):.3f}" in dash.text
    assert f"{risk_up(float(kr.relative_risk_bound(0.5, 1.0, 0.5))):.3f}" in dash.text


def test_profile_map_dashboard_moves_the_argmin():
    dash = w.profile_map_dashboard()
    first = kr.argmin_epsilon(kr.two_dimensional_profile(0.25, 3.0))
    assert first.epsilon == pytest.approx(
        0.65, abs=0.005
    )  # Appendix C.3: ≈ 0.65 at p = 1, q ≈ 0.083
    assert f"recommended ε = {allowed_down(first.epsilon):.4f}" in dash.text
    assert "(1.0000, 0.0833)" in dash.text
    dash.controls["r"].value = 5.0
    rec = kr.argmin_epsilon(kr.two_dimensional_profile(0.25, 5.0))
    assert f"recommended ε = {allowed_down(rec.epsilon):.4f}" in dash.text
    ax_e = dash.figure.axes[0]
    assert _line(ax_e, "argmin").get_xdata()[0] == pytest.approx(rec.p)
    assert _line(ax_e, "argmin").get_ydata()[0] == pytest.approx(rec.q)
    assert rec.q == pytest.approx(0.25 / 5.0, abs=1e-6)


def test_tradeoff_dashboard_example3():
    dash = w.tradeoff_dashboard()
    eps = kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)
    assert f"ε = {allowed_down(eps):.4f}" in dash.text  # Example 3: ε ≈ 2.20
    assert "RMSE = 0.530" in dash.text  # RMSE ≈ 0.53
    assert "P[switch | deviation 0.25, above] = 0.1000" in dash.text
    dash.controls["r"].value = 2.0
    dash.controls["a"].value = 0.1
    eps = kr.epsilon_inclusion_profile(0.1, 1.0, 2.0)
    assert f"ε = {allowed_down(eps):.4f}" in dash.text
    ax = dash.figure.axes[0]
    heights = [bar.get_height() for bar in ax.patches]
    devs = np.array([0.25, 0.5, 1.0, 2.0])
    expected = np.concatenate(
        [
            kr.durham_switch_probability(eps, devs, "above"),
            kr.durham_switch_probability(eps, devs, "below"),
        ]
    )
    assert np.allclose(heights, expected)
    dash.controls["direction"].value = "below"
    p_below = float(kr.durham_switch_probability(eps, 0.25, "below"))
    assert f"P[switch | deviation 0.25, below] = {p_below:.4f}" in dash.text


def test_risk_profile_dashboard_every_control_moves_the_plotted_curves():
    dash = w.risk_profile_dashboard()  # inclusion, ã = 0.25, q̃ = 1, r̃ = 3
    # q̃ (the "fixed" slider) on profile (15): the curve and the readout follow Theorem 5
    dash.controls["fixed"].value = 0.5
    eps = kr.epsilon_inclusion_profile(0.25, 0.5, 3.0)
    assert f"recommended ε = {allowed_down(eps):.4f}" in dash.text
    ax_r, ax_e = dash.figure.axes
    x = np.asarray(_line(ax_r, "r_star").get_xdata())
    r_star = np.maximum(0.25 / (x * 0.5), 3.0)
    assert np.allclose(_line(ax_r, "r_star").get_ydata(), np.minimum(r_star, 10.0))
    curve = np.asarray(_line(ax_e, "epsilon_i").get_ydata())
    shown = np.isfinite(curve) & (curve < 6)
    assert np.allclose(curve[shown], kr.max_epsilon(x[shown], 0.5, r_star[shown]))
    assert _line(ax_e, "minimum").get_ydata()[0] == pytest.approx(eps)
    # ã on profile (15)
    dash.controls["a"].value = 0.1
    eps = kr.epsilon_inclusion_profile(0.1, 0.5, 3.0)
    assert f"recommended ε = {allowed_down(eps):.4f}" in dash.text
    assert _line(dash.figure.axes[1], "minimum").get_ydata()[0] == pytest.approx(eps)
    # profile (16): the curve is now over q with p = p̃ fixed
    dash.controls["kind"].value = "values"
    dash.controls["fixed"].value = 0.2
    dash.controls["r"].value = 2.0
    eps = kr.epsilon_values_profile(0.1, 0.2, 2.0)
    assert f"recommended ε = {allowed_down(eps):.4f}" in dash.text
    assert "minimum at q = " in dash.text
    ax_r, ax_e = dash.figure.axes
    assert ax_e.get_xlabel() == "q"
    x = np.asarray(_line(ax_r, "r_star").get_xdata())
    r_star = np.maximum(0.1 / (0.2 * x), 2.0)
    assert np.allclose(_line(ax_r, "r_star").get_ydata(), np.minimum(r_star, 10.0))
    curve = np.asarray(_line(ax_e, "epsilon_i").get_ydata())
    shown = np.isfinite(curve) & (curve < 6)
    assert np.allclose(curve[shown], kr.max_epsilon(0.2, x[shown], r_star[shown]))
    assert _line(ax_e, "minimum").get_ydata()[0] == pytest.approx(eps)
    assert _line(ax_e, "minimum").get_xdata()[0] == pytest.approx(
        0.1 / (0.2 * 2.0), abs=1e-6
    )  # the kink


def test_profile_map_dashboard_follows_a():
    dash = w.profile_map_dashboard()
    dash.controls["a"].value = 0.5
    profile = kr.two_dimensional_profile(0.5, 3.0)
    rec = kr.argmin_epsilon(profile)
    assert f"recommended ε = {allowed_down(rec.epsilon):.4f}" in dash.text
    sd, exact = kr.utility(rec.epsilon)
    assert f"noise SD = {float(sd):.3f}" in dash.text
    assert f"P[exact] = {100 * float(exact):.1f}%" in dash.text
    ax_e = dash.figure.axes[0]
    assert _line(ax_e, "argmin").get_xdata()[0] == pytest.approx(rec.p)
    assert _line(ax_e, "argmin").get_ydata()[0] == pytest.approx(rec.q)
    # the heat map is εᵢ of profile (33) on the dashboard's 80 × 80 grid, truncated at 4
    axis = np.linspace(1 / 80, 1, 80)
    P, Q = np.meshgrid(axis, axis, indexing="xy")
    expected = np.minimum(kr.max_epsilon(P, Q, profile(P, Q)), 4.0)
    assert np.allclose(ax_e.images[0].get_array(), expected)


def test_the_profile_map_moves_in_place_as_a_fresh_draw_shows_it():
    """Issue 33: ã and r̃ update the one figure in place (the εᵢ map's colour scale spans its
    new data and the colour bar follows), and every move shows what a fresh draw shows:
    pixels, text alternative and readout; returning to a value reuses its recommendation."""
    dash = w.profile_map_dashboard()
    figure = dash.figure
    for name, value in [("a", 0.6), ("r", 8.0), ("a", 0.01), ("r", 1.05), ("a", 0.25)]:
        dash.controls[name].value = value
        assert dash.figure is figure, f"{name} = {value} drew a new figure"
        same_as_fresh(dash, f"profile map: {name} = {value}")
