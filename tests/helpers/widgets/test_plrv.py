"""The PLRV dashboard: driven as a reader drives it, checked against the math (its figures:
tests/helpers/plotting/test_plrv.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers import plrv
from helpers.mechanisms import Gaussian, Laplace, TwoSidedGeometric
from helpers.plotting import plrv as P
from helpers.plotting import risk_up
from helpers.widgets import plrv_dashboard


def _line(ax, gid: str):
    """The one line of ``ax`` with this gid (plot data are found by gid, never by index)."""
    found = [line for line in ax.lines if line.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} lines with gid {gid!r}"
    return found[0]


def _shaded(dash) -> tuple[float, float]:
    """(width of the δ₁ band on the left panel, area of the δ₂ fill on the right panel)."""
    band = dash.figure.axes[0].patches[0]
    v = dash.figure.axes[1].collections[0].get_paths()[0].vertices
    x, y = v[:, 0], v[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))  # shoelace
    return band.get_width(), area


def _delta_values(text: str) -> tuple[float, float]:
    d1 = float(text.split("δ₁ = P[L > ε] = ")[1].split(",")[0])
    d2 = float(text.split("))] = ")[1].split()[0])
    return d1, d2


def _up5(delta) -> float:
    """δ as the readout prints it: five decimals, rounded up."""
    return float(f"{risk_up(float(delta)):.5f}")


def test_default_dashboard_shows_the_posts_numbers():
    dash = plrv_dashboard()
    d1, d2 = _delta_values(dash.text)
    assert d1 == _up5(plrv.gaussian_delta_naive(math.log(3), math.sqrt(3)))
    assert d2 == _up5(plrv.gaussian_delta(math.log(3), math.sqrt(3)))
    assert round(d2, 3) == 0.011
    width, area = _shaded(dash)
    assert width == pytest.approx(float(plrv.gaussian_delta_naive(math.log(3), math.sqrt(3))))
    assert area == pytest.approx(float(plrv.gaussian_delta(math.log(3), math.sqrt(3))), rel=1e-3)


def test_epsilon_slider_moves_both_deltas_and_the_curve():
    dash = plrv_dashboard()
    before = _line(dash.figure.axes[1], "delta_curve").get_ydata().copy()
    d1_before, d2_before = _delta_values(dash.text)
    dash.controls["epsilon"].value = 0.5
    d1, d2 = _delta_values(dash.text)
    assert d1 == _up5(plrv.gaussian_delta_naive(0.5, math.sqrt(3))) > d1_before
    assert d2 == _up5(plrv.gaussian_delta(0.5, math.sqrt(3))) > d2_before
    # the right panel's curve is min(1, e^{ε − L(u)}) at the new ε
    line = _line(dash.figure.axes[1], "delta_curve")
    u = line.get_xdata()
    expected = np.minimum(1, np.exp(0.5 - plrv.plrv_upper_quantile(u, "gaussian", math.sqrt(3))))
    np.testing.assert_allclose(line.get_ydata(), expected, rtol=1e-12)
    assert np.all(line.get_ydata() <= before + 1e-15)  # smaller ε: every weight e^{ε−L} shrinks
    # the shaded areas are the new δ₁ (band width) and δ₂ (area between the curve and 1)
    width, area = _shaded(dash)
    assert width == pytest.approx(float(plrv.gaussian_delta_naive(0.5, math.sqrt(3))))
    assert area == pytest.approx(float(plrv.gaussian_delta(0.5, math.sqrt(3))), rel=1e-3)


def test_noise_slider_and_mechanism_dropdown():
    dash = plrv_dashboard()
    dash.controls["noise"].value = 3.0
    _, d2 = _delta_values(dash.text)
    assert d2 == _up5(plrv.gaussian_delta(math.log(3), 3.0))
    left = _line(dash.figure.axes[0], "exp_loss")
    np.testing.assert_allclose(
        left.get_ydata(), np.exp(plrv.plrv_upper_quantile(left.get_xdata(), "gaussian", 3.0))
    )
    # Laplace with b = 3 has Δ/b = 1/3 < ln 3: no δ at all
    dash.controls["mechanism"].value = "laplace"
    assert _delta_values(dash.text) == (0.0, 0.0)
    assert f"Δ/b = {risk_up(1 / 3):.4f}" in dash.text  # Δ/b = 1/3, a risk: rounded up
    dash.controls["epsilon"].value = 0.2
    d1, d2 = _delta_values(dash.text)
    assert d2 == _up5(plrv.laplace_delta(0.2, 3.0)) > 0
    assert d1 == _up5(plrv.laplace_delta_naive(0.2, 3.0))
    left = _line(dash.figure.axes[0], "exp_loss")
    assert left.get_ydata().max() == pytest.approx(math.exp(1 / 3))
    width, area = _shaded(dash)
    assert width == pytest.approx(float(plrv.laplace_delta_naive(0.2, 3.0)))
    assert area == pytest.approx(float(plrv.laplace_delta(0.2, 3.0)), rel=1e-3)
    dash.controls["mechanism"].value = "geometric"
    d1, d2 = _delta_values(dash.text)
    assert d2 == _up5(plrv.geometric_delta(0.2, 3.0))
    assert d1 == _up5(plrv.geometric_delta_naive(0.2, 3.0))
    width, area = _shaded(dash)
    assert width == pytest.approx(float(plrv.geometric_delta_naive(0.2, 3.0)))
    assert area == pytest.approx(float(plrv.geometric_delta(0.2, 3.0)), rel=1e-3)


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: plrv_dashboard(mechanism="cauchy"), r"^mechanism must be one of"),
        (lambda: plrv_dashboard(noise=10.0), r"^noise must lie in \[0.2, 5\]"),
        (lambda: plrv_dashboard(epsilon=-1.0), r"^epsilon must lie in \[0, 4\]"),
    ],
)
def test_plrv_dashboard_refuses_bad_starting_values(make, match):
    # a TraitError for the dropdown and silent clamping for the sliders before
    with pytest.raises(ValueError, match=match):
        make()


def _drawn(fig):
    """The alt text and every line's data (NaN as a string, so that equal figures compare equal)."""

    def values(data):
        return [repr(v) for v in np.asarray(data, float).tolist()]

    return [fig.alt_text] + [
        (line.get_gid(), values(line.get_xdata()), values(line.get_ydata()))
        for ax in fig.axes
        for line in ax.lines
    ]


@pytest.mark.parametrize(
    ("name", "noise", "mechanism"),
    [
        ("laplace", 0.8, Laplace(0.8)),
        ("gaussian", 1.3, Gaussian(1.3)),
        ("geometric", 1.5, TwoSidedGeometric(1.5)),
    ],
)
def test_the_figures_and_dashboard_take_a_mechanism_object(name, noise, mechanism):
    # a mechanism object draws exactly what its name and noise draw (issue 18)
    for plot, extra in (
        (P.plot_two_densities, {}),
        (P.plot_loss_vs_output, {}),
        (P.plot_exp_loss, {"epsilon": 0.4}),
        (P.plot_plrv_panels, {"epsilon": 0.4}),
    ):
        assert _drawn(plot(mechanism, **extra)) == _drawn(plot(name, noise, **extra))
    assert _drawn(P.plot_delta_area(0.4, mechanism)) == _drawn(P.plot_delta_area(0.4, name, noise))
    assert _drawn(P.plot_privacy_profile([mechanism])) == _drawn(
        P.plot_privacy_profile([(name, noise)])
    )
    by_object, by_name = plrv_dashboard(mechanism), plrv_dashboard(name, noise)
    assert by_object.text == by_name.text
    with pytest.raises(ValueError, match="to the mechanism object itself"):
        P.plot_loss_vs_output(mechanism, noise)
