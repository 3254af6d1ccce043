"""Figures of notebooks 01 (prior) and 02 (posterior), and the published numbers they show."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.figure import Figure

from helpers.datasets import school
from helpers.figures.beliefs import FIGURES
from helpers.lee_clifton import confidence, posterior, prior, simulate_attack, world_values
from helpers.mechanisms import laplace_pdf, laplace_scale
from helpers.plotting.beliefs import (
    plot_attack_success,
    plot_posterior,
    plot_prior,
    world_labels,
    worlds_table,
)
from helpers.sensitivity import unbounded_sensitivity

R, EPS = 2.20131, 2.0  # Lee & Clifton's example release (Sec. 4.4)
LABELS = ["ω1: no Terry", "ω2: no Pat", "ω3: no Kelly", "ω4: no Chris"]


def column(name: str) -> np.ndarray:
    return school()[name].to_numpy(dtype=float)


# --- published numbers ---------------------------------------------------------------------


def test_published_posteriors_at_the_example_release():
    # the source printed both columns to 8 decimals; the paper prints 0.6180
    year = posterior(column("school_year"), 3, "mean", R, EPS)
    days = posterior(column("absence_days"), 3, "mean", R, EPS)
    assert np.allclose(year, [0.33898835, 0.4003158, 0.17987348, 0.08082237], atol=5e-9)
    assert np.allclose(days, [0.61802372, 0.15816999, 0.12500781, 0.09879847], atol=5e-9)
    assert round(float(days.max()), 4) == 0.6180
    assert int(np.argmax(days)) == 0  # the adversary picks world 1, the true one


def test_source_confidence_was_prior_minus_posterior():
    # the source printed 0.16917763372208006 and 0.15120152863171882 as "confidence"
    printed = {"school_year": 0.16917763372208006, "absence_days": 0.15120152863171882}
    correct = {"school_year": 0.1503, "absence_days": 0.3680}
    for name, value in printed.items():
        u = column(name)
        p0, post = prior(u, 3), posterior(u, 3, "mean", R, EPS)
        assert abs(float(np.max(p0 - post)) - value) <= 1e-12  # what the source computed
        conf = confidence(u, 3, "mean", R, EPS)
        assert conf == pytest.approx(float(np.max(post - p0)))
        assert round(conf, 4) == correct[name]
        assert abs(conf - value) > 0.01


def test_paper_numerator_is_0_3062_not_0_3602():
    u = column("absence_days")
    scale = laplace_scale(EPS, sensitivity=unbounded_sensitivity(u, 3, "mean"))
    numerators = laplace_pdf(R, world_values(u, 3, "mean"), scale)
    assert round(float(numerators[0]), 4) == 0.3062
    assert round(float(numerators[0] / numerators.sum()), 4) == 0.6180
    # the misprint would give another posterior
    assert round(float(0.3602 / (0.3602 + numerators[1:].sum())), 4) != 0.6180


def test_source_median_posterior_used_the_mean():
    u = column("absence_days")
    median_df = unbounded_sensitivity(u, 3, "median")
    source = posterior(u, 3, "mean", R, EPS, sensitivity=median_df)  # np.mean, median's Δf
    correct = posterior(u, 3, "median", R, EPS)
    assert np.allclose(correct[:2], correct[0]) and np.allclose(correct[2:], correct[2])
    assert not np.allclose(source, correct, atol=1e-3)


# --- world labels and table ----------------------------------------------------------------


def test_world_labels_school():
    assert world_labels(school()["name"], 3) == LABELS
    assert world_labels(["a", "b", "c", "d", "e"], 2)[0] == "ω1: a, b"
    assert world_labels(["a", "b", "c"], 1)[0] == "ω1: no b & c"
    with pytest.raises(ValueError, match=r"size must be an integer in 1\.\.4"):
        world_labels(school()["name"], 5)


def test_worlds_table_matches_world_values():
    table = worlds_table(school(), 3)
    assert list(table.index) == ["ω1", "ω2", "ω3", "ω4"]
    assert table.loc["ω1", "left out"] == "Terry"
    assert table.loc["ω1", "absence_days values"] == "1, 2, 3"
    for name in ("school_year", "absence_days"):
        assert np.allclose(table[f"mean({name})"], world_values(column(name), 3, "mean"))


# --- figures -------------------------------------------------------------------------------


def bar_heights(ax, k):
    return np.array([bar.get_height() for bar in ax.containers[k]])


def test_plot_prior_draws_the_given_priors():
    u = column("absence_days")
    reader = prior(u, 3, [2, 1, 1, 1])
    fig = plot_prior({"uniform": prior(u, 3), "reader": reader}, LABELS)
    ax = fig.axes[0]
    assert np.allclose(bar_heights(ax, 0), 0.25)
    assert np.allclose(bar_heights(ax, 1), [0.4, 0.2, 0.2, 0.2])
    with pytest.raises(ValueError, match="shape"):
        plot_prior({"bad": [0.5, 0.5]}, LABELS)


def test_plot_posterior_shows_definition_3():
    u = column("absence_days")
    f = world_values(u, 3, "mean")
    post = posterior(u, 3, "mean", R, EPS)
    scale = float(laplace_scale(EPS, sensitivity=unbounded_sensitivity(u, 3, "mean")))
    fig = plot_posterior(f, prior(u, 3), post, LABELS, output=R, scale=scale)
    ax_pdf, ax_bar = fig.axes
    assert np.allclose(bar_heights(ax_bar, 0), 0.25)
    assert np.allclose(bar_heights(ax_bar, 1), post)
    assert round(bar_heights(ax_bar, 1).max(), 4) == 0.6180
    for i in range(4):
        x, y = _line(ax_pdf, f"likelihood{i}").get_data()
        assert np.allclose(y, laplace_pdf(x, f[i], scale))
    dots = ax_pdf.collections[0].get_offsets()
    assert np.allclose(dots[:, 0], R)
    assert round(float(dots[0, 1]), 4) == 0.3062  # the numerator of Sec. 4.4
    with pytest.raises(ValueError, match="posterior has shape"):
        plot_posterior(f, prior(u, 3), post[:3], LABELS, output=R, scale=scale)


def test_simulate_attack_over_an_epsilon_grid_matches_scalar_calls():
    u = column("absence_days")
    eps = np.array([0.5, 2.0])
    curve = simulate_attack(u, 3, "mean", eps, true_world=0, trials=500, rng=7)
    expected = [simulate_attack(u, 3, "mean", e, true_world=0, trials=500, rng=7) for e in eps]
    assert np.allclose(curve, expected)
    avg = simulate_attack(u, 3, "mean", eps, true_world=None, trials=500, rng=7)
    per_world = [
        [simulate_attack(u, 3, "mean", e, true_world=t, trials=500, rng=7) for t in range(4)]
        for e in eps
    ]
    assert np.allclose(avg, np.mean(per_world, axis=1))


def test_attack_tends_to_prior_guess_when_noise_swamps():
    # averaged over a uniformly drawn true world, the MAP guess succeeds with 1/W as ε → 0,
    # while an extreme world (ω1, smallest mean) is picked about half of the time
    u = column("absence_days")
    avg = simulate_attack(u, 3, "mean", [1e-3], true_world=None, trials=20_000, rng=1)
    first = simulate_attack(u, 3, "mean", [1e-3], true_world=0, trials=20_000, rng=1)
    assert abs(avg[0] - 0.25) < 0.01
    assert abs(first[0] - 0.5) < 0.02


@given(eps=st.floats(0.05, 5.0), r=st.floats(-5.0, 15.0))
def test_posterior_figure_bars_sum_to_one(eps, r):
    u = column("school_year")
    post = posterior(u, 3, "mean", r, eps)
    scale = float(laplace_scale(eps, sensitivity=unbounded_sensitivity(u, 3, "mean")))
    fig = plot_posterior(
        world_values(u, 3, "mean"), prior(u, 3), post, LABELS, output=r, scale=scale
    )
    heights = bar_heights(fig.axes[1], 1)
    assert heights.sum() == pytest.approx(1.0)
    assert np.all(heights >= 0)


def test_plot_attack_success_lines_and_chance():
    eps = np.linspace(0.1, 1, 5)
    fig = plot_attack_success(eps, {"a": eps / 2, "b": eps / 3}, 0.25, marker=(0.5, 0.3))
    ax = fig.axes[0]
    assert np.allclose(_line(ax, "curve0").get_ydata(), eps / 2)
    assert np.allclose(_line(ax, "curve1").get_ydata(), eps / 3)
    assert np.allclose(_line(ax, "chance").get_ydata(), 0.25)
    assert _line(ax, "marker").get_xydata().tolist() == [[0.5, 0.3]]
    with pytest.raises(ValueError, match="shape"):
        plot_attack_success(eps, {"a": eps[:3]}, 0.25)
    with pytest.raises(ValueError, match="one entry per curve"):
        plot_attack_success(eps, {"a": eps}, 0.25, linestyles=["-", "--"])


@pytest.mark.parametrize("stem", sorted(FIGURES))
def test_registered_figures_build(stem):
    assert stem.startswith("beliefs_")
    assert isinstance(FIGURES[stem](), Figure)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: plot_prior({"p": [0.5, 0.7, -0.2, 0.0]}, LABELS), r"probabilities in \[0, 1\]"),
        (lambda: plot_prior({"p": [0.25, np.nan, 0.25, 0.25]}, LABELS), "must be finite"),
        (
            lambda: plot_posterior([2, 3, 4, 5], [0.25] * 4, [0.25] * 4, LABELS, output=2, scale=0),
            "scale must be > 0",
        ),
        (
            lambda: plot_posterior(
                [2, 3, 4, 5], [0.25] * 4, [0.25] * 4, LABELS, output=np.nan, scale=1
            ),
            "output must be finite",
        ),
        (lambda: plot_attack_success([0.5, 1.0], {"a": [0.3, np.nan]}, 0.25), "must be finite"),
        (lambda: plot_attack_success([0.5, 1.0], {"a": [0.3, 1.4]}, 0.25), r"in \[0, 1\]"),
        (lambda: plot_attack_success([0.0, 1.0], {"a": [0.3, 0.4]}, 0.25), "epsilons must be > 0"),
        (
            lambda: plot_attack_success([0.5, 1.0], {"a": [0.3, 0.4]}, 0.0),
            r"chance must be .* \(0, 1\]",
        ),
    ],
)
def test_plotting_refuses_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def _line(ax, gid: str):
    """The one line of ``ax`` with this gid (plot data are found by gid, never by index)."""
    found = [line for line in ax.lines if line.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} lines with gid {gid!r}"
    return found[0]
