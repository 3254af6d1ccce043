"""Dashboards of notebooks 01 and 02: moving a control changes what is shown as the math says."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _modules import ROOT

from helpers.datasets import school
from helpers.lee_clifton import posterior, prior, simulate_attack, world_values
from helpers.plotting import risk_up
from helpers.widgets import Dashboard
from helpers.widgets.beliefs import attack_dashboard, posterior_dashboard, prior_dashboard

NOTEBOOK_DIR = ROOT / "notebooks"
R = 2.20131


def column(name: str) -> np.ndarray:
    return school()[name].to_numpy(dtype=float)


def bar_heights(ax, k):
    return np.array([bar.get_height() for bar in ax.containers[k]])


# --- prior ---------------------------------------------------------------------------------


def test_prior_dashboard_follows_the_weights():
    dash = prior_dashboard()
    assert isinstance(dash, Dashboard)
    assert set(dash.controls) == {"w1", "w2", "w3", "w4"}
    ax = dash.figure.axes[0]
    assert np.allclose(bar_heights(ax, 1), 0.25)
    assert "4 worlds tie at prior 0.2500" in dash.text

    dash.controls["w1"].value = 3.0
    expected = prior(column("absence_days"), 3, [3, 1, 1, 1])
    ax = dash.figure.axes[0]
    assert np.allclose(bar_heights(ax, 1), expected)
    assert np.allclose(bar_heights(ax, 0), 0.25)  # the uniform prior stays
    assert "most probable world before any release: ω1: no Terry with prior 0.5000" in dash.text

    dash.controls["w4"].value = 5.0
    expected = prior(column("absence_days"), 3, [3, 1, 1, 5])
    assert np.allclose(bar_heights(dash.figure.axes[0], 1), expected)
    assert f"ω4: no Chris with prior {expected[3]:.4f}" in dash.text


def test_prior_dashboard_refuses_all_zero_weights_without_crashing():
    dash = prior_dashboard()
    for name in ("w1", "w2", "w3"):
        dash.controls[name].value = 0.0
    assert np.allclose(bar_heights(dash.figure.axes[0], 1), [0, 0, 0, 1])
    assert "ω4: no Chris with prior 1.0000" in dash.text
    before = dash.figure
    dash.controls["w4"].value = 0.0
    assert "prior weights must be >= 0 with a positive sum" in dash.text
    assert dash.figure is before  # the last valid figure is kept


def test_prior_dashboard_refuses_too_many_worlds():
    data = pd.DataFrame({"name": list("abcdefgh"), "x": range(8)})
    with pytest.raises(ValueError, match="70 possible worlds"):
        prior_dashboard(data, 4)


# --- posterior -----------------------------------------------------------------------------


def test_posterior_dashboard_starts_at_the_paper_example():
    dash = posterior_dashboard()
    paper = posterior(column("absence_days"), 3, "mean", R, 2.0)  # the paper's 0.6180
    assert f"max posterior {risk_up(paper.max()):.4f} (ω1: no Terry)" in dash.text
    assert f"confidence max(posterior − prior) = {risk_up(paper.max() - 0.25):.4f}" in dash.text
    assert "r = 2.20131" in dash.text
    assert round(bar_heights(dash.figure.axes[1], 1).max(), 4) == 0.6180


@pytest.mark.parametrize("eps", [0.3, 1.0, 4.5])
def test_posterior_dashboard_epsilon(eps):
    dash = posterior_dashboard()
    dash.controls["epsilon"].value = eps
    expected = posterior(column("absence_days"), 3, "mean", R, eps)
    heights = bar_heights(dash.figure.axes[1], 1)
    assert np.allclose(heights, expected)
    assert f"max posterior {risk_up(expected.max()):.4f}" in dash.text
    conf = float(np.max(expected - 0.25))
    assert f"confidence max(posterior − prior) = {risk_up(conf):.4f}" in dash.text
    # the likelihood curves get wider as ε falls: peak density ε/(2Δf)
    peak = max(_line(dash.figure.axes[0], "likelihood0").get_ydata())
    assert peak <= eps / (2 * 2.8333333333333335) + 1e-12


def test_posterior_dashboard_output_and_column():
    dash = posterior_dashboard()
    dash.controls["output"].value = 6.0
    expected = posterior(column("absence_days"), 3, "mean", 6.0, 2.0)
    assert np.allclose(bar_heights(dash.figure.axes[1], 1), expected)
    assert int(np.argmax(expected)) == 3  # r beyond f(ω4) = 5: Chris looks missing
    assert "max posterior" in dash.text and "(ω4: no Chris)" in dash.text
    dots = dash.figure.axes[0].collections[0].get_offsets()
    assert np.allclose(dots[:, 0], 6.0)

    dash.controls["column"].value = "school_year"
    expected = posterior(column("school_year"), 3, "mean", 6.0, 2.0)
    assert np.allclose(bar_heights(dash.figure.axes[1], 1), expected)
    f = world_values(column("school_year"), 3, "mean")
    for i in range(4):
        x, y = _line(dash.figure.axes[0], f"likelihood{i}").get_data()
        assert x[np.argmax(y)] == pytest.approx(f[i], abs=(x[1] - x[0]))
    assert "school_year, mean: Δf = 0.8333" in dash.text


def test_posterior_dashboard_with_a_reader_prior():
    weights = [1, 1, 1, 4]
    dash = posterior_dashboard(prior_weights=weights)
    expected = posterior(column("absence_days"), 3, "mean", R, 2.0, prior=weights)
    assert np.allclose(
        bar_heights(dash.figure.axes[1], 0), prior(column("absence_days"), 3, weights)
    )
    assert np.allclose(bar_heights(dash.figure.axes[1], 1), expected)
    assert f"max posterior {risk_up(expected.max()):.4f}" in dash.text


# --- attack --------------------------------------------------------------------------------


def test_attack_dashboard_marker_and_curve():
    dash = attack_dashboard(trials=500)
    u = column("absence_days")
    dash.controls["epsilon"].value = 1.0
    rate = simulate_attack(u, 3, "mean", 1.0, true_world=0, trials=500, rng=2011)
    ax = dash.figure.axes[0]
    marker = _line(ax, "marker")
    assert marker.get_xdata()[0] == 1.0 and marker.get_ydata()[0] == pytest.approx(rate)
    assert f"success rate at ε = 1 is {rate:.4f}" in dash.text
    assert "1/W = 1/4 = 0.2500" in dash.text
    grid = _line(ax, "curve0").get_xdata()
    assert np.allclose(
        _line(ax, "curve0").get_ydata(),
        simulate_attack(u, 3, "mean", grid, true_world=0, trials=500, rng=2011),
    )
    assert np.allclose(_line(ax, "chance").get_ydata(), 0.25)  # the prior's guess


def test_attack_dashboard_true_world_seed_and_column():
    dash = attack_dashboard(trials=300)
    u = column("absence_days")
    dash.controls["true_world"].value = 2
    grid = _line(dash.figure.axes[0], "curve0").get_xdata()
    expected = simulate_attack(u, 3, "mean", grid, true_world=2, trials=300, rng=2011)
    assert np.allclose(_line(dash.figure.axes[0], "curve0").get_ydata(), expected)
    assert "true world ω3: no Kelly" in dash.text

    dash.controls["true_world"].value = -1
    expected = simulate_attack(u, 3, "mean", grid, true_world=None, trials=300, rng=2011)
    assert np.allclose(_line(dash.figure.axes[0], "curve0").get_ydata(), expected)
    assert "drawn from the uniform prior" in dash.text

    dash.controls["seed"].value = 5
    dash.controls["column"].value = "school_year"
    expected = simulate_attack(
        column("school_year"), 3, "mean", grid, true_world=None, trials=300, rng=5
    )
    assert np.allclose(_line(dash.figure.axes[0], "curve0").get_ydata(), expected)
    assert "seed 5" in dash.text and dash.text.startswith("school_year")


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: prior_dashboard(weights=[1, 2]), "one entry per world, 4"),
        (lambda: prior_dashboard(weights=[1, -1, 1, 1]), "weights must be >= 0"),
        (lambda: prior_dashboard(weights=[1, 9, 1, 1]), r"weights must lie in \[0, 5\]"),
        (lambda: posterior_dashboard(epsilon=0), r"epsilon must lie in \[0.05, 5\]"),
        (lambda: posterior_dashboard(output=99.0), r"output must lie in \[-2, 13\]"),
        (lambda: posterior_dashboard(column="grade"), "column must be one of"),
        (lambda: attack_dashboard(trials=0), r"trials must be an integer in 1\.\.1000000; got 0"),
        (lambda: attack_dashboard(rng=-1), "rng must be an integer"),
        (lambda: attack_dashboard(epsilon=9.0), r"epsilon must lie in \[0.05, 5\]"),
    ],
)
def test_dashboards_refuse_bad_starting_values(call, match):
    # a value outside a slider's range is refused, not silently clamped by the slider
    with pytest.raises(ValueError, match=match):
        call()


def test_prior_dashboard_refuses_too_many_worlds_before_enumerating_them(monkeypatch):
    # the size refusal came after world_labels had listed every world (C(40, 20) = 1.4e11)
    import helpers.widgets.beliefs as wb

    def enumerate_nothing(*_args, **_kwargs):
        raise AssertionError("worlds were enumerated before the refusal")

    monkeypatch.setattr(wb, "world_labels", enumerate_nothing)
    big = pd.DataFrame({"name": [f"p{i}" for i in range(40)], "x": np.arange(40.0)})
    with pytest.raises(ValueError, match=r"possible worlds: a slider per world"):
        wb.prior_dashboard(big, size=20)


def _line(ax, gid: str):
    """The one line of ``ax`` with this gid (plot data are found by gid, never by index)."""
    found = [line for line in ax.lines if line.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} lines with gid {gid!r}"
    return found[0]
