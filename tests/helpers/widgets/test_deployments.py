"""Dashboards of notebooks 09 and 10: set every control as a reader would, check text and data."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from _modules import find_artist, same_as_fresh

from helpers import choose as ch
from helpers import deployments as dep
from helpers.plotting import allowed_down, risk_up
from helpers.widgets import deployments as w


def _marker_xy(fig, gid):
    line = find_artist(fig, gid)
    return float(line.get_xdata()[0]), float(line.get_ydata()[0])


def test_deployments_dashboard_typed_values_move_all_three_views():
    dash = w.deployments_dashboard()
    assert dash.controls["deployment"].value == w.CUSTOM
    dash.controls["epsilon"].value = 2.0
    dash.controls["log10_delta"].value = -6.0
    dash.controls["prior"].value = 0.2
    dash.controls["p"].value = 0.1
    dash.controls["q"].value = 0.5
    x, y = _marker_xy(dash.figure, "posterior_marker")
    assert x == 0.2 and y == pytest.approx(dep.posterior_bound(2.0, prior=0.2))
    x, y = _marker_xy(dash.figure, "risk_marker")
    assert x == 0.1 and y == pytest.approx(dep.relative_risk_bound(0.1, 0.5, 2.0))
    roc = find_artist(dash.figure, "roc")
    fpr = np.asarray(roc.get_xdata())
    assert np.allclose(roc.get_ydata(), dep.tpr_at_fpr(fpr, epsilon=2.0, delta=1e-6))
    marks = find_artist(dash.figure, "roc_marker")
    assert np.allclose(
        marks.get_ydata(), dep.tpr_at_fpr(np.array([0.01, 0.1]), epsilon=2.0, delta=1e-6)
    )
    v = dep.three_views(2.0, 1e-6, prior=0.2, p=0.1, q=0.5)
    # every bound printed rounded up, never below the value it reads
    shown = re.search(r"posterior ≤ ([\d.]+) from a prior of 0.2", dash.text).group(1)
    assert v["posterior"] <= float(shown) <= v["posterior"] + 1e-4
    shown = re.search(r"relative risk ≤ ([\d.]+) at p = 0.1, q = 0.5", dash.text).group(1)
    assert v["relative_risk"] <= float(shown) <= v["relative_risk"] * (1 + 1e-3)
    shown = re.search(r"TPR ≤ ([\d.]+) at FPR 1 %", dash.text).group(1)
    assert v["tpr_1"] <= float(shown) <= v["tpr_1"] + 1e-4
    assert "may fail on outputs of probability ≤ 0.000002," in dash.text
    # δ = 0 at the slider's bottom
    dash.controls["log10_delta"].value = -30.0
    assert "δ = 0" in dash.text and "may fail" not in dash.text


def test_deployments_dashboard_picks_a_zcdp_row_and_draws_the_gaussian_curve():
    dash = w.deployments_dashboard()
    name = "Disclosure Avoidance System for Redistricting Data"
    dash.controls["deployment"].value = name
    eps = dep.zcdp_to_epsilon(2.63, 1e-10)
    assert f"ε = {risk_up(eps):.4g}, δ = 1e-10, ρ_z = 2.63" in dash.text
    gauss = find_artist(dash.figure, "roc_gaussian")
    fpr = np.asarray(gauss.get_xdata())
    assert np.allclose(gauss.get_ydata(), dep.gaussian_tpr_at_fpr(fpr, rho=2.63))
    assert f"TPR {risk_up(dep.gaussian_tpr_at_fpr(0.01, rho=2.63)):.4f} at 1 %" in dash.text
    # Corollary 1's e^{2ε} would flatten the relative-risk curve: named in the legend instead
    legend = [t.get_text() for t in dash.figure.axes[1].get_legend().get_texts()]
    assert any("off scale" in t for t in legend)
    # the typed ε is ignored while a deployment is chosen
    dash.controls["epsilon"].value = 0.3
    assert f"ε = {risk_up(eps):.4g}" in dash.text
    # a pure-DP row has no Gaussian curve
    dash.controls["deployment"].value = "Popular Emojis"
    assert "ε = 4, δ = 0" in dash.text
    with pytest.raises(AssertionError):
        find_artist(dash.figure, "roc_gaussian")


def test_every_usable_deployment_can_be_picked():
    dash = w.deployments_dashboard()
    options = dash.controls["deployment"].options
    assert len(options) == 1 + len(dep.usable())
    for name in options[1:]:
        dash.controls["deployment"].value = name
        assert "(1) Lee & Clifton" in dash.text


def test_choose_dashboard_posterior_side_every_control():
    dash = w.choose_dashboard()
    c = dash.controls
    c["release"].value = "mean"
    c["n"].value = 400
    c["lower"].value = 0.0
    c["upper"].value = 50.0
    c["k"].value = 1.0
    c["coverage"].value = 0.9
    c["risk_kind"].value = "posterior"
    c["risk"].value = 0.8
    c["prior"].value = 0.3
    sens = 50.0 / 400
    eps_acc = ch.epsilon_for_accuracy(1.0, sensitivity=sens, coverage=0.9)
    eps_risk = ch.epsilon_for_posterior(0.8, prior=0.3)
    assert f"smallest ε for the accuracy = {risk_up(eps_acc):.4f}" in dash.text
    assert (
        f"largest ε for the risk (posterior ≤ 0.8 from prior 0.3) = {allowed_down(eps_risk):.4f}"
        in dash.text
    )
    assert eps_acc < eps_risk and "feasible" in dash.text
    assert find_artist(dash.figure, "epsilon_accuracy").get_xdata()[0] == pytest.approx(eps_acc)
    assert find_artist(dash.figure, "epsilon_risk").get_xdata()[0] == pytest.approx(eps_risk)
    acc = find_artist(dash.figure, "accuracy_curve")
    grid = np.asarray(acc.get_xdata())
    assert np.allclose(acc.get_ydata(), 1 - np.exp(-1.0 * grid / sens))
    post = find_artist(dash.figure, "posterior_curve")
    assert np.allclose(post.get_ydata(), dep.posterior_bound(grid, prior=0.3))
    find_artist(dash.figure, "feasible")
    # fewer records: the interval closes and the text names the n that reopens it
    c["n"].value = 10
    choice = ch.choose(
        "mean",
        k=1.0,
        epsilon_risk=eps_risk,
        coverage=0.9,
        n=10,
        lower=0.0,
        upper=50.0,
        prior=0.3,
        neighbours="change-one",
    )
    assert not choice.feasible
    assert f"n ≥ {choice.knobs['n']:,}" in dash.text
    find_artist(dash.figure, "gap")


def test_choose_dashboard_kazan_reiter_profiles_and_count_and_sum():
    dash = w.choose_dashboard()
    c = dash.controls
    c["risk_kind"].value = "inclusion"
    c["r"].value = 5.0
    c["a"].value = 0.5
    eps = ch.epsilon_for_profile("inclusion", r=5.0, a=0.5, fixed=1.0)
    assert f"= {allowed_down(eps):.4f}" in dash.text and "ã = 0.5, r̃ = 5" in dash.text
    # no posterior for a profile: its curve and the risk line hidden, and out of the legend
    (ax,) = dash.figure.axes
    for gid in ("posterior_curve", "risk_line"):
        assert not find_artist(dash.figure, gid).get_visible()
    assert not any("posterior" in t.get_text() for t in ax.get_legend().get_texts())
    c["risk_kind"].value = "constant"
    assert f"= {allowed_down(0.5 * math.log(5.0)):.4f}" in dash.text
    c["release"].value = "count"
    c["k"].value = 10.0
    assert f"= {risk_up(ch.epsilon_for_accuracy(10.0, sensitivity=1.0)):.4f}" in dash.text
    c["release"].value = "sum"
    c["lower"].value = -5.0
    c["upper"].value = 5.0
    assert f"= {risk_up(ch.epsilon_for_accuracy(10.0, sensitivity=10.0)):.4f}" in dash.text


def test_choose_dashboard_shows_refusals_instead_of_a_traceback():
    dash = w.choose_dashboard()
    dash.controls["risk"].value = 0.3  # at or below the prior 0.5
    assert "risk must exceed the prior" in dash.text
    dash.controls["risk"].value = 0.9
    dash.controls["upper"].value = -1.0
    assert "upper must exceed lower" in dash.text


def test_controls_that_change_nothing_are_greyed_out():
    """A reader never moves an enabled control that changes nothing (the browser tests
    require every enabled control to redraw)."""
    dash = w.deployments_dashboard()
    assert not dash.controls["epsilon"].disabled and not dash.controls["log10_delta"].disabled
    dash.controls["deployment"].value = dash.controls["deployment"].options[1]
    assert dash.controls["epsilon"].disabled and dash.controls["log10_delta"].disabled

    dash = w.choose_dashboard(release="mean")
    disabled = {name for name, c in dash.controls.items() if c.disabled}
    assert disabled == {"r", "a"}  # the posterior bound reads ρ and the prior
    dash.controls["release"].value = "count"
    dash.controls["risk_kind"].value = "inclusion"
    disabled = {name for name, c in dash.controls.items() if c.disabled}
    assert disabled == {"n", "lower", "upper", "risk", "prior"}
    before = dash.text
    dash.controls["a"].value = 0.4  # enabled now, and it moves ε
    assert dash.text != before


def test_every_deployment_and_typed_guarantee_redraws_in_place_what_a_fresh_draw_shows():
    """A new guarantee (a deployment picked, ε or δ typed, q moved) moves the figure in place
    (issue 42: it drew afresh, notebook 09's slowest moves), a change of the figure's shape
    included (a zCDP row's Gaussian curve comes and goes, exp(2ε) leaves and joins the scale,
    the relative-risk axis gains and loses minor ticks), and the figure is then pixel for
    pixel a fresh draw's. Two zCDP rows in a row, three (ε, δ) rows, a zCDP row again, then
    typed values and q (about 15 s)."""
    dash = w.deployments_dashboard()
    rows = dep.usable()
    zcdp = rows[rows["rho"].notna()]["name"].tolist()[:2]
    plain = rows[rows["rho"].isna()]["name"].tolist()[:3]
    moves = [("deployment", name) for name in [*zcdp, *plain, zcdp[0], w.CUSTOM]]
    moves += [("epsilon", e) for e in (0.5, 20.0, 0.1, 3.0)]
    moves += [("log10_delta", d) for d in (-10.0, -30.0)]
    moves += [("q", q) for q in (0.05, 1.0)]
    shapes = set()
    figure = dash.figure
    for name, value in moves:
        dash.controls[name].value = value
        assert dash.figure is figure, f"{name} = {value!r} drew a new figure"
        shapes.add(dash.figure._course_shape)
        same_as_fresh(dash, f"{name} = {value!r}")
    # the sweep crossed every part of the shape both ways
    assert all(len({shape[i] for shape in shapes}) == 2 for i in range(3)), shapes


def test_choose_dashboard_release_and_feasibility_change_in_place():
    """Another release, and an interval that turns from feasible to a gap and back, move
    notebook 10's figure in place (issue 42), pixel for pixel a fresh draw's (about 10 s)."""
    dash = w.choose_dashboard()
    figure = dash.figure
    feasible = []
    for release in [*ch.RELEASES, "mean"]:
        dash.controls["release"].value = release
        same_as_fresh(dash, f"release = {release!r}")
        for k in (0.1, 30.0):
            dash.controls["k"].value = k
            same_as_fresh(dash, f"release = {release!r}, k = {k}")
            feasible.append(any(p.get_gid() == "feasible" for p in dash.figure.axes[0].patches))
    assert dash.figure is figure
    assert any(feasible) and not all(feasible), "the sweep never crossed feasibility"
