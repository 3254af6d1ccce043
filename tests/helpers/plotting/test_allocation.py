"""Figures of notebook 11's allocation: each draws what helpers.budget computes."""

from __future__ import annotations

import numpy as np
import pytest
from _modules import find_artist

from helpers import budget as bud
from helpers.plotting import allocation as pa
from helpers.plotting import risk_up
from helpers.plotting._alt import alt_text, alt_text_problem


def _bars(fig, gid):
    """Widths of the horizontal bars whose patches carry ``gid``, in drawing order."""
    widths = [p.get_width() for ax in fig.axes for p in ax.patches if p.get_gid() == gid]
    assert widths, f"no bars with gid {gid!r}"
    return np.array(widths)


# --- the survey --------------------------------------------------------------------------------


def test_the_survey_weights_each_release_by_its_own_target():
    assert len(pa.SURVEY) == 6
    for release in pa.SURVEY:
        assert release.weight == pytest.approx(1 / release.k**2)
        if release.kind == "mean":
            assert release.n == pa.SURVEY_RECORDS
    assert {r.kind for r in pa.SURVEY} == {"count", "sum", "mean"}


# --- allocation ------------------------------------------------------------------------------


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_plot_allocation_draws_both_sides_of_the_choice(mechanism):
    risk = bud.risk_posterior(0.8, prior=0.5)
    fig = pa.plot_allocation(pa.SURVEY, risk, mechanism=mechanism, delta=1e-6)
    choice = bud.choose_workload(pa.SURVEY, risk, mechanism=mechanism, delta=1e-6)
    np.testing.assert_allclose(_bars(fig, "needed"), choice.accuracy.budgets)
    np.testing.assert_allclose(_bars(fig, "split"), choice.at_risk.budgets)
    assert len(find_artist(fig, "missed").get_xdata()) == np.count_nonzero(~choice.at_risk.meets)
    np.testing.assert_allclose(
        find_artist(fig, "running_total").get_ydata(), np.cumsum(choice.accuracy.budgets)
    )
    allowed = bud.total_for_risk(risk, mechanism=mechanism, delta=1e-6)
    assert find_artist(fig, "allowed").get_ydata()[0] == allowed
    title = fig._suptitle.get_text()
    assert title.splitlines()[-1].startswith("feasible:" if choice.feasible else "infeasible:")
    unit = "ε" if mechanism == "laplace" else "ρ_z"
    assert f"total {unit} {risk_up(choice.accuracy.total):.3g}" in title
    assert alt_text_problem(alt_text(fig)) is None
    assert ("Feasible: every target is met" in alt_text(fig)) == choice.feasible


def test_plot_allocation_takes_a_number_as_the_largest_total_epsilon():
    fig = pa.plot_allocation(pa.SURVEY, 0.5)
    assert "total ε ≤ 0.5" in fig._suptitle.get_text()
    assert "infeasible" in fig._suptitle.get_text()


def test_plot_allocation_labels_releases_without_a_label_by_index():
    fig = pa.plot_allocation([bud.Release("count", k=5.0), bud.Release("count", k=10.0)], 2.0)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["release 0: ±5 (95 %)", "release 1: ±10 (95 %)"]


def test_the_text_alternative_tells_equal_largest_needs_as_a_tie():
    # two releases with the same target need the same budget: neither is "the largest"
    tied = [bud.Release("count", k=5.0, label="a"), bud.Release("count", k=5.0, label="b")]
    text = alt_text(pa.plot_allocation([*tied, bud.Release("count", k=20.0, label="c")], 2.0))
    assert "The largest needs, equal as shown, are those of a and b." in text
    text = alt_text(pa.plot_allocation([tied[0], bud.Release("count", k=20.0, label="c")], 2.0))
    assert "The largest need is a's." in text


def test_plot_allocation_refuses_a_malformed_workload_by_name():
    with pytest.raises(ValueError, match="workload"):
        pa.plot_allocation([bud.Release("mean", k=1.0, lower=0.0, upper=1.0)], 1.0)


def test_plot_allocation_reuses_a_choice_and_a_total_it_is_given():
    risk = bud.risk_posterior(0.8, prior=0.5)
    choice = bud.choose_workload(pa.SURVEY, risk, mechanism="gaussian", delta=1e-6)
    allowed = bud.total_for_risk(risk, mechanism="gaussian", delta=1e-6)
    given = pa.plot_allocation(
        pa.SURVEY, risk, mechanism="gaussian", choice=choice, allowed=allowed
    )
    fresh = pa.plot_allocation(pa.SURVEY, risk, mechanism="gaussian")
    for gid in ("needed", "split"):
        np.testing.assert_array_equal(_bars(given, gid), _bars(fresh, gid))
    assert (
        find_artist(given, "allowed").get_ydata()[0] == find_artist(fresh, "allowed").get_ydata()[0]
    )
    assert alt_text(given) == alt_text(fresh)


@pytest.mark.parametrize(
    "risk",
    [bud.risk_posterior(0.8, prior=0.5), bud.risk_tpr(0.05, fpr=0.01), bud.risk_epsilon(1.5)],
)
def test_plot_mixed_allocation_reads_the_risk_on_the_composed_distribution(risk):
    from helpers.mechanisms import Gaussian, Laplace

    noises = ["gaussian" if r.kind == "mean" else "laplace" for r in pa.SURVEY]
    choice = bud.choose_workload(list(pa.SURVEY), risk, mechanism=noises, delta=1e-6)
    fig = pa.plot_mixed_allocation(list(pa.SURVEY), risk, noises=noises, choice=choice)
    needed = [
        (Gaussian if n == "gaussian" else Laplace)(b, sensitivity=s)
        for n, b, s in zip(
            noises, choice.accuracy.scales, choice.accuracy.sensitivities, strict=True
        )
    ]
    bars = np.array([p.get_width() for p in fig.axes[0].patches if p.get_gid() == "needed"])
    np.testing.assert_allclose(bars, [bud.loss_epsilon(one, delta=1e-6) for one in needed])
    running = find_artist(fig, "running_total").get_ydata()
    if risk.kind == "tpr":
        assert running[-1] == pytest.approx(bud.attack_tpr(needed, fpr=0.01))
    elif risk.kind == "epsilon":
        assert running[-1] == pytest.approx(bud.pld_epsilon(1e-6, needed))
    else:
        assert running[-1] == pytest.approx(bud.loss_epsilon(needed, delta=1e-6))
    assert alt_text_problem(alt_text(fig)) is None


# --- every label inside the image ------------------------------------------------------------


def _labels_inside(fig) -> list[str]:
    """Panel (a)'s tick labels that leave the image (drawn, as a dashboard shows it)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    return [
        t.get_text()
        for t in ax.get_yticklabels()
        if t.get_text() and t.get_window_extent(renderer).x0 < 0
    ]


_LONG = bud.Release(
    "count", k=5.0, weight=1 / 25, label="respondents who smoke daily and also drink every day"
)


@pytest.mark.parametrize("plot", [pa.plot_allocation, pa.plot_mixed_allocation])
@pytest.mark.parametrize(
    "workload",
    [
        pa.SURVEY,
        bud.bonferroni(pa.SURVEY, joint=0.95),  # each coverage 99.1667 %: longer labels
        (*pa.SURVEY[:2], _LONG),  # a reader's own long label: wrapped
    ],
    ids=["survey", "bonferroni", "long label"],
)
def test_no_release_label_is_cut_at_the_images_edge(plot, workload):
    risk = bud.risk_posterior(0.8, prior=0.5)
    fresh = plot(workload, risk)
    assert _labels_inside(fresh) == []
    # and in place, from the survey's figure (a dashboard's move)
    update = pa.update_allocation if plot is pa.plot_allocation else pa.update_mixed_allocation
    moved = plot(pa.SURVEY, risk)
    assert update(moved, workload, risk)
    assert _labels_inside(moved) == []
    assert moved.subplotpars.left == pytest.approx(fresh.subplotpars.left)
    if workload is pa.SURVEY:  # the survey's own labels fit the kind's margin: unchanged
        assert fresh.subplotpars.left == pytest.approx(pa._KINDS[fresh._course_shape[0]]["left"])
