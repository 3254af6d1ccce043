"""Dashboards of notebooks 03–05, driven as a reader drives them: set a control's value."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from _modules import ROOT

from helpers import lee_clifton as lc
from helpers.datasets import school
from helpers.plotting import allowed_down, risk_up
from helpers.plotting.lee_clifton import find_line
from helpers.sensitivity import unbounded_sensitivity
from helpers.widgets.lee_clifton import (
    DASHBOARD_QUERIES,
    binary_search_dashboard,
    bounds_dashboard,
    queries_dashboard,
)

NOTEBOOK_DIR = ROOT / "notebooks"
N = 3
YEAR = school()["school_year"].to_numpy()
ABSENCE = school()["absence_days"].to_numpy()


def _line(dash, panel, gid):
    return find_line(dash.figure.axes[panel], gid)


def test_bounds_dashboard_starts_at_the_published_values():
    dash = bounds_dashboard()
    assert set(dash.controls) == {"epsilon", "risk"}
    assert round(_line(dash, 0, "marker_tight").get_ydata()[0], 4) == 0.3292
    assert round(_line(dash, 1, "marker_tight").get_ydata()[0], 4) == 0.3477
    assert "tight bound 0.3292 (meets ρ)" in dash.text
    assert "tight bound 0.3477 (above ρ)" in dash.text


def test_epsilon_slider_moves_the_markers_on_both_curves():
    dash = bounds_dashboard()
    figure = dash.figure
    dash.controls["epsilon"].value = 1.25
    assert dash.figure is figure  # updated in place, not rebuilt
    for panel, values in enumerate((YEAR, ABSENCE)):
        upper = lc.upper_bound(values, N, "mean", 1.25)
        tight = lc.tight_bound(values, N, "mean", 1.25)
        assert _line(dash, panel, "marker_upper").get_ydata()[0] == pytest.approx(upper)
        assert _line(dash, panel, "marker_tight").get_ydata()[0] == pytest.approx(tight)
        assert list(_line(dash, panel, "marker_line").get_xdata()) == [1.25, 1.25]
        assert f"upper bound {risk_up(upper):.4f}" in dash.text
        assert f"tight bound {risk_up(tight):.4f}" in dash.text
    assert "ε = 1.250" in dash.text


def test_risk_slider_moves_the_requirement_and_the_verdict():
    dash = bounds_dashboard()
    dash.controls["risk"].value = 0.36
    assert list(_line(dash, 1, "risk").get_ydata()) == [0.36, 0.36]
    # at ε = 0.5 absence_days' tight bound (0.3477) is now below ρ; its upper bound (0.3614) is not
    upper = lc.upper_bound(ABSENCE, N, "mean", 0.5)
    tight = lc.tight_bound(ABSENCE, N, "mean", 0.5)
    assert tight <= 0.36 < upper
    assert (
        f"upper bound {risk_up(upper):.4f} (above ρ)   tight bound {risk_up(tight):.4f} (meets ρ)"
        in dash.text
    )


def test_binary_search_dashboard_prints_both_published_epsilons():
    dash = binary_search_dashboard()
    # Lee & Clifton's printed 0.3379 and 0.5251 (school_year), 0.3829 and 0.4317 (absence_days),
    # each recomputed and printed rounded down (the ε the risk allows)
    published = {"school_year": (0.3379, 0.5251), "absence_days": (0.3829, 0.4317)}
    for values, (ub, bs) in zip((YEAR, ABSENCE), published.values(), strict=True):
        e_ub = lc.epsilon_upper_bound(values, N, "mean", 1 / 3)
        e_bs = lc.binary_search_epsilon(values, N, "mean", 1 / 3)
        assert e_ub == pytest.approx(ub, abs=1e-4) and e_bs == pytest.approx(bs, abs=1e-4)
        assert f"{allowed_down(e_ub):.4f}" in dash.text and f"{allowed_down(e_bs):.4f}" in dash.text


@pytest.mark.parametrize("risk", [0.3, 0.45, 0.8])
def test_risk_slider_moves_both_dashed_lines(risk):
    dash = binary_search_dashboard()
    dash.controls["risk"].value = risk
    for panel, values in enumerate((YEAR, ABSENCE)):
        e_ub = lc.epsilon_upper_bound(values, N, "mean", risk)
        e_bs = lc.binary_search_epsilon(values, N, "mean", risk)
        assert _line(dash, panel, "epsilon_upper_bound").get_xdata()[0] == e_ub
        assert _line(dash, panel, "epsilon_binary_search").get_xdata()[0] == e_bs
        assert list(_line(dash, panel, "risk").get_ydata()) == [risk, risk]
        assert f"ε of inequality 7 = {allowed_down(e_ub):.4f}" in dash.text
        assert f"ε binary search = {allowed_down(e_bs):.4f}" in dash.text


def test_queries_dashboard_median_shows_four_ln_two():
    dash = queries_dashboard()
    assert dash.controls["query"].value == "median"
    assert f"ε binary search = {allowed_down(math.log(2)):.4f}" in dash.text  # ln 2, school_year
    dash.controls["column"].value = "absence_days"
    e_bs = _line(dash, 0, "epsilon_binary_search").get_xdata()[0]
    assert abs(e_bs - 4 * math.log(2)) < 1e-8
    # 4 ln 2 = 2.77259 (not the paper's "≈ 2.776"), printed rounded down
    assert f"ε binary search = {allowed_down(e_bs):.4f}" in dash.text
    assert "Δf (unbounded sensitivity) = 4.0000   Δv = 1.0000" in dash.text


def test_queries_dashboard_switches_query_and_slides_risk():
    dash = queries_dashboard()
    dash.controls["column"].value = "absence_days"
    dash.controls["query"].value = "mean"
    e_ub = lc.epsilon_upper_bound(ABSENCE, N, "mean", 1 / 3)
    e_bs = lc.binary_search_epsilon(ABSENCE, N, "mean", 1 / 3)
    assert (
        f"ε of inequality 7 = {allowed_down(e_ub):.4f}   ε binary search = {allowed_down(e_bs):.4f}"
        in dash.text
    )
    dash.controls["risk"].value = 0.5
    e_bs = lc.binary_search_epsilon(ABSENCE, N, "mean", 0.5)
    assert _line(dash, 0, "epsilon_binary_search").get_xdata()[0] == e_bs
    assert f"ε binary search = {allowed_down(e_bs):.4f}" in dash.text
    dash.controls["query"].value = "variance"
    delta_f = unbounded_sensitivity(ABSENCE, N, "variance")
    assert f"Δf (unbounded sensitivity) = {delta_f:.4f}" in dash.text
    assert "query variance, column absence_days" in dash.text


def test_queries_dashboard_says_infinity_when_no_epsilon_exceeds_rho():
    dash = queries_dashboard()
    dash.controls["risk"].value = 0.6  # above the median's limit 1/2
    assert "ε binary search = ∞" in dash.text
    assert not _line(dash, 0, "epsilon_binary_search").get_visible()
    dash.controls["query"].value = "count"  # every world holds 3 records: Δv = 0
    assert "ε of inequality 7 = ∞ (Δv = 0" in dash.text
    assert not _line(dash, 0, "epsilon_upper_bound").get_visible()


def test_every_offered_query_draws_its_own_bounds():
    dash = queries_dashboard()
    dash.controls["column"].value = "absence_days"
    for name in DASHBOARD_QUERIES:
        dash.controls["query"].value = name
        assert f"query {name}, column absence_days" in dash.text
        grid, tight = _line(dash, 0, "tight").get_data()
        upper = _line(dash, 0, "upper").get_ydata()
        expected_upper, expected_tight = lc.bound_curves(ABSENCE, N, name, grid)
        assert np.allclose(tight, expected_tight) and np.allclose(upper, expected_upper)
        e_ub = lc.epsilon_upper_bound(ABSENCE, N, name, 1 / 3)
        e_bs = lc.binary_search_epsilon(ABSENCE, N, name, 1 / 3)
        for value, gid in ((e_ub, "epsilon_upper_bound"), (e_bs, "epsilon_binary_search")):
            line = _line(dash, 0, gid)
            assert line.get_visible() == math.isfinite(value)
            if math.isfinite(value):
                assert line.get_xdata()[0] == value
                assert f"{allowed_down(value):.4f}" in dash.text


def test_dashboards_take_a_readers_own_data():
    data = pd.DataFrame({"hours": [3.0, 5.0, 5.0, 8.0, 13.0, 21.0]})
    dash = binary_search_dashboard(data, size=5)
    expected = lc.binary_search_epsilon(data["hours"], 5, "mean", 1 / 3)
    assert f"ε binary search = {allowed_down(expected):.4f}" in dash.text
    # W = 6, so the ρ slider starts just above the prior 1/6
    assert 1 / 6 < dash.controls["risk"].min <= 0.18


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: bounds_dashboard(pd.DataFrame({"x": [1.0, 2.0, 3.0]})), "size"),
        (lambda: queries_dashboard(query="nonsense"), "query must be one of"),
        (lambda: queries_dashboard(column="name"), "column must be one of"),
        (lambda: queries_dashboard(queries=("mean", "bogus")), "unknown query"),
        (lambda: bounds_dashboard(epsilon=7.0), r"epsilon must lie in \[0.01, 5\]"),
        (
            lambda: bounds_dashboard(epsilon=float("nan")),
            r"^epsilon must lie in \[0.01, 5\] \(the slider's range\); got nan$",
        ),
        (lambda: bounds_dashboard(epsilon=7), r"epsilon must lie in \[0.01, 5\].*; got 7$"),
        (lambda: queries_dashboard(risk=math.inf), r"^risk must lie in \(0, 0.95\].*; got inf$"),
        (lambda: binary_search_dashboard(risk=1.2), r"risk must lie in \(0, 0.95\]"),
        (lambda: queries_dashboard(risk=0.0), r"risk must lie in \(0, 0.95\]"),
        (
            lambda: queries_dashboard(pd.DataFrame({"x": [4.0, 4.0, 4.0, 4.0]}), 3, query="median"),
            "query 'median' cannot be shown on these data: .*zero sensitivity",
        ),
    ],
)
def test_bad_input_is_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_queries_dashboard_starts_on_an_offered_query_when_none_is_named():
    # tied values: the median (the default) has Δf = 0 and is refused on these data; a
    # reader who named no query gets the first query offered, not an error about a choice
    # they never made, while naming the refused median is still a ValueError
    data = pd.DataFrame({"x": [5.0, 5.0, 5.0, 5.0, 5.0, 9.0]})
    dash = queries_dashboard(data, 5)
    offered = dash.controls["query"].options
    assert "median" not in offered
    assert dash.controls["query"].value == offered[0] == DASHBOARD_QUERIES[0]
    expected = lc.binary_search_epsilon(data["x"], 5, offered[0], 1 / 3)
    assert f"query {offered[0]}, column x" in dash.text
    assert f"ε binary search = {allowed_down(expected):.4f}" in dash.text
    assert "not offered here: median" in dash.text
    with pytest.raises(ValueError, match=r"^query 'median' cannot be shown on these data"):
        queries_dashboard(data, 5, query="median")
    # where the median can be shown, naming no query still starts on it
    assert queries_dashboard().controls["query"].value == "median"
