"""Figures of notebooks 03–05: the plotted data is the math, and the published numbers show."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_rgba

from helpers import lee_clifton as lc
from helpers.datasets import school, school_release
from helpers.figures.lee_clifton import FIGURES
from helpers.plotting.lee_clifton import (
    TIGHT_COLOUR,
    UPPER_COLOUR,
    find_line,
    plot_binary_search,
    plot_bounds,
    plot_bracket,
    update_binary_search,
    update_bounds,
)
from helpers.sensitivity import unbounded_sensitivity

COLUMNS = school()[["school_year", "absence_days"]]
N = len(school_release())  # 3 released records out of 4
YEAR = COLUMNS["school_year"].to_numpy()
ABSENCE = COLUMNS["absence_days"].to_numpy()


def _panels(fig):
    return dict(zip(COLUMNS.columns, fig.axes, strict=True))


def test_bound_curves_start_at_the_prior_and_follow_the_math():
    grid = np.array([0.0, 0.5, 2.0])
    upper, tight = lc.bound_curves(YEAR, N, "mean", grid)
    assert upper[0] == tight[0] == 1 / 4
    assert upper[1:] == pytest.approx(lc.upper_bound(YEAR, N, "mean", grid[1:]))
    assert tight[1:] == pytest.approx(lc.tight_bound(YEAR, N, "mean", grid[1:]))


def test_bound_curves_refuse_negative_epsilon():
    with pytest.raises(ValueError, match="epsilon must be a 1-D grid of finite values >= 0"):
        lc.bound_curves(YEAR, N, "mean", [-0.1, 1.0])


def test_bounds_figure_draws_both_bounds_and_the_requirement():
    fig = plot_bounds(COLUMNS, N, "mean", risk=1 / 3)
    assert len(fig.axes) == 2
    for name, ax in _panels(fig).items():
        values = COLUMNS[name].to_numpy()
        upper, tight, risk = (find_line(ax, g) for g in ("upper", "tight", "risk"))
        # the paper's red and blue (Okabe & Ito's vermillion and blue), ρ in black
        assert to_rgba(upper.get_color()) == to_rgba(UPPER_COLOUR)
        assert to_rgba(tight.get_color()) == to_rgba(TIGHT_COLOUR)
        assert to_rgba(risk.get_color()) == to_rgba("black")
        assert upper.get_marker() != tight.get_marker()  # told apart without colour
        x = upper.get_xdata()
        assert x[0] == 0 and x[-1] == pytest.approx(5.0)  # ε ∈ [0, 5] as in the paper
        assert upper.get_ydata()[1:] == pytest.approx(lc.upper_bound(values, N, "mean", x[1:]))
        assert tight.get_ydata()[1:] == pytest.approx(lc.tight_bound(values, N, "mean", x[1:]))
        assert list(risk.get_ydata()) == pytest.approx([1 / 3, 1 / 3])
        assert find_line(ax, "marker_upper") is None


def test_bounds_marker_at_half_shows_the_published_tight_bounds():
    fig = plot_bounds(COLUMNS, N, "mean", epsilon=0.5)
    panels = _panels(fig)
    # published (Sec. 5.1, eq. 12 and the source notebook): 0.3292 and 0.3477 at ε = 0.5
    assert round(find_line(panels["school_year"], "marker_tight").get_ydata()[0], 4) == 0.3292
    assert round(find_line(panels["absence_days"], "marker_tight").get_ydata()[0], 4) == 0.3477
    assert find_line(panels["school_year"], "marker_upper").get_ydata()[0] == pytest.approx(
        lc.upper_bound(YEAR, N, "mean", 0.5)
    )


def test_update_bounds_moves_marker_and_requirement():
    fig = plot_bounds(COLUMNS, N, "mean", epsilon=0.5)
    update_bounds(fig, COLUMNS, N, "mean", epsilon=2.0, risk=0.6)
    ax = _panels(fig)["absence_days"]
    assert find_line(ax, "marker_tight").get_ydata()[0] == pytest.approx(
        lc.tight_bound(ABSENCE, N, "mean", 2.0)
    )
    assert list(find_line(ax, "marker_line").get_xdata()) == [2.0, 2.0]
    assert list(find_line(ax, "risk").get_ydata()) == [0.6, 0.6]
    assert "ρ = 0.6" in [t.get_text() for t in ax.get_legend().get_texts()][2]


def test_binary_search_figure_places_the_dashed_lines_at_the_published_epsilons():
    fig = plot_binary_search(COLUMNS, N, "mean", risk=1 / 3)
    published = {"school_year": (0.3379, 0.5251), "absence_days": (0.3829, 0.4317)}
    for name, ax in _panels(fig).items():
        red, blue = find_line(ax, "epsilon_upper_bound"), find_line(ax, "epsilon_binary_search")
        # dashed red at inequality 7, dash-dotted blue at the search: told apart without colour
        assert (red.get_linestyle(), blue.get_linestyle()) == ("--", "-.")
        assert to_rgba(red.get_color()) == to_rgba(UPPER_COLOUR)
        assert to_rgba(blue.get_color()) == to_rgba(TIGHT_COLOUR)
        assert round(red.get_xdata()[0], 4) == published[name][0]
        assert round(blue.get_xdata()[0], 4) == published[name][1]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert f"ε binary search = {published[name][1]:.4f}" in legend


def test_median_figure_shows_four_ln_two_not_the_papers_2776():
    fig = plot_binary_search(COLUMNS, N, "median")
    blue = find_line(_panels(fig)["absence_days"], "epsilon_binary_search").get_xdata()[0]
    assert abs(blue - 4 * math.log(2)) < 1e-8  # 2.7726; the paper prints "≈ 2.776"
    assert round(blue, 4) == 2.7726 and round(blue, 3) != 2.776
    red = find_line(_panels(fig)["school_year"], "epsilon_upper_bound").get_xdata()[0]
    assert red == pytest.approx(lc.epsilon_upper_bound(YEAR, N, "median", 1 / 3))


def test_infinite_epsilon_hides_its_line_and_says_so():
    # the median's tight bound never exceeds 1/2 (pairs of worlds share a median)
    fig = plot_binary_search(COLUMNS, N, "median", risk=0.6)
    for ax in fig.axes:
        assert not find_line(ax, "epsilon_binary_search").get_visible()
        assert "ε binary search = ∞" in [t.get_text() for t in ax.get_legend().get_texts()]
    update_binary_search(fig, COLUMNS, N, "median", risk=0.4)
    assert all(find_line(ax, "epsilon_binary_search").get_visible() for ax in fig.axes)


def test_axis_widens_to_keep_a_large_epsilon_in_view():
    fig = plot_binary_search(COLUMNS, N, "median", risk=0.45)
    eps = lc.binary_search_epsilon(ABSENCE, N, "median", 0.45)
    assert eps == pytest.approx(4 * math.log(9))  # 1 / (2 + 2 e^(−ε/4)) = 0.45
    for ax in fig.axes:  # panels share the x-range
        assert ax.get_xlim()[1] >= eps > 5


@settings(max_examples=25)
@given(risk=st.floats(0.26, 0.9))
def test_dashed_lines_follow_rho(risk):
    fig = FIG_CACHE.setdefault("bs", plot_binary_search(COLUMNS, N, "mean"))
    update_binary_search(fig, COLUMNS, N, "mean", risk=risk)
    for name, ax in _panels(fig).items():
        values = COLUMNS[name].to_numpy()
        e_ub = find_line(ax, "epsilon_upper_bound").get_xdata()[0]
        e_bs = find_line(ax, "epsilon_binary_search").get_xdata()[0]
        assert e_ub == lc.epsilon_upper_bound(values, N, "mean", risk)
        assert e_bs == lc.binary_search_epsilon(values, N, "mean", risk)
        # eq. (7) is where the upper bound meets ρ; the search's ε is never smaller
        assert lc.upper_bound(values, N, "mean", e_ub) == pytest.approx(risk)
        assert lc.tight_bound(values, N, "mean", e_bs) <= risk
        assert e_bs >= e_ub - 1e-9


FIG_CACHE: dict = {}


def test_bracket_plot_draws_the_steps():
    steps = {name: lc.binary_search_steps(COLUMNS[name], N, "mean", 1 / 3) for name in COLUMNS}
    fig = plot_bracket(steps)
    ax_b, ax_w = fig.axes
    lows = [line for line in ax_b.lines if line.get_gid() == "low"]
    highs = [line for line in ax_b.lines if line.get_gid() == "high"]
    widths = [line for line in ax_w.lines if line.get_gid() == "width"]
    assert len(lows) == len(highs) == len(widths) == 2
    for low, high, width, bracket in zip(lows, highs, widths, steps.values(), strict=True):
        arr = np.asarray(bracket)
        assert list(low.get_ydata()) == list(arr[:, 0])
        assert list(high.get_ydata()) == list(arr[:, 1])
        w = np.asarray(width.get_ydata())
        assert w[1:] / w[:-1] == pytest.approx(np.full(w.size - 1, 0.5))
    assert round(lows[0].get_ydata()[-1], 4) == 0.5251
    assert round(lows[1].get_ydata()[-1], 4) == 0.4317


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: plot_bounds([1, 2, 3], N), "columns must be a mapping"),
        (lambda: plot_bounds({}, N), "at least one column"),
        (lambda: plot_bounds(COLUMNS, N, risk=1.5), "risk"),
        (lambda: plot_bounds(COLUMNS, N, epsilon=-1.0), "epsilon"),
        (lambda: plot_bounds(COLUMNS, N, epsilon_max=0.0), "epsilon_max"),
        (lambda: plot_binary_search(COLUMNS, N, risk=0.2), "risk=0.2"),
        (lambda: plot_binary_search(COLUMNS, N, "nonsense"), "unknown query"),
        (lambda: update_bounds(plot_bounds(COLUMNS, N), COLUMNS, N, epsilon=1.0), "marker"),
        (lambda: update_binary_search(plot_bounds(COLUMNS, N), COLUMNS, N), "plot_binary_search"),
        (lambda: plot_bracket({}), "non-empty"),
    ],
)
def test_bad_input_is_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_every_registered_figure_builds():
    assert {"lee_clifton_bounds_mean", "lee_clifton_binary_search_mean"} <= FIGURES.keys()
    for stem, make in FIGURES.items():
        assert stem.startswith("lee_clifton_")
        assert make().axes


# --- where the source errs (notebooks 03 and 04 show both values) ---------------------------


def _per_world_tight(values, query, eps):
    """1 / Σⱼ exp(−ε|f(ωᵢ) − f(ωⱼ)|/Δf) for every world i (the j = i term is the 1)."""
    f = lc.world_values(values, N, query)
    delta_f = unbounded_sensitivity(values, N, query)
    return 1 / np.exp(-eps * np.abs(f[:, None] - f[None, :]) / delta_f).sum(axis=1)


def test_source_tight_bound_loop_skipped_the_last_world():
    # the source looped `for i in range(0, len(release_datasets) - 1)`: harmless for the mean
    for values in (YEAR, ABSENCE):
        per_world = _per_world_tight(values, "mean", 0.5)
        assert per_world[:-1].max() == pytest.approx(lc.tight_bound(values, N, "mean", 0.5))
    # for the min on school_year the last world {2, 3, 4} is the only one with min 2
    per_world = _per_world_tight(YEAR, "min", 0.5)
    correct = lc.tight_bound(YEAR, N, "min", 0.5)
    assert correct == pytest.approx(per_world.max()) and int(np.argmax(per_world)) == 3
    assert round(correct, 4) == 0.2997  # what notebook 03 shows as correct
    assert round(float(per_world[:-1].max()), 4) == 0.2646  # the source's loop
    # the loop's value levels off at 1/3, so with ρ = 1/3 it would approve every ε
    assert _per_world_tight(YEAR, "min", 50.0)[:-1].max() <= 1 / 3 + 1e-12
    assert lc.tight_bound(YEAR, N, "min", 50.0) > 0.99


def test_source_first_optimal_epsilons_were_the_upper_bound():
    # its first binary-search call printed these as "Optimal epsilons"
    printed = {"school_year": 0.3378877996541445, "absence_days": 0.3829395062746971}
    for name, value in printed.items():
        values = COLUMNS[name].to_numpy()
        assert abs(value - lc.epsilon_upper_bound(values, N, "mean", 1 / 3)) < 1e-6
        assert lc.upper_bound(values, N, "mean", value) == pytest.approx(1 / 3, abs=1e-6)
        assert lc.tight_bound(values, N, "mean", value) < 1 / 3 - 0.01  # ε left on the table
    assert round(lc.binary_search_epsilon(YEAR, N, "mean", 1 / 3), 4) == 0.5251
    assert round(lc.binary_search_epsilon(ABSENCE, N, "mean", 1 / 3), 4) == 0.4317
