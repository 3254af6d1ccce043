"""Figures of notebook 11 (one budget, many releases): each draws what helpers.budget computes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _modules import find_artist

from helpers import budget as bud
from helpers import deployments as dep
from helpers.plotting import budget as pb
from helpers.plotting import risk_up
from helpers.plotting._alt import alt_text, alt_text_problem


def _bars(fig, gid):
    """Widths of the horizontal bars whose patches carry ``gid``, in drawing order."""
    widths = [p.get_width() for ax in fig.axes for p in ax.patches if p.get_gid() == gid]
    assert widths, f"no bars with gid {gid!r}"
    return np.array(widths)


# --- the constants ---------------------------------------------------------------------------


def test_the_survey_weights_each_release_by_its_own_target():
    assert len(pb.SURVEY) == 6
    for release in pb.SURVEY:
        assert release.weight == pytest.approx(1 / release.k**2)
        if release.kind == "mean":
            assert release.n == pb.SURVEY_RECORDS
    assert {r.kind for r in pb.SURVEY} == {"count", "sum", "mean"}


def test_the_illustrative_census_split_adds_up_and_the_tables_are_the_registrys():
    assert math.fsum(pb.CENSUS_LEVELS_ILLUSTRATIVE.values()) == pytest.approx(1.0)
    tables = pb.census_person_rho()
    assert set(tables) == {"person", "housing unit"}
    # the unrounded ρ_z give back the stated ε, and add up to the registry's 2.63
    for name, stated in zip(
        dep.CENSUS_2020["tables"], dep.CENSUS_2020["epsilon_stated"], strict=True
    ):
        assert dep.zcdp_to_epsilon(tables[name], 1e-10) == pytest.approx(stated, abs=1e-9)
    assert round(sum(tables.values()), 4) == 2.63


# --- composition -------------------------------------------------------------------------------


def test_composition_totals_are_the_budget_functions():
    totals = pb.composition_totals(0.1, [1, 10, 100], delta=1e-6)
    assert totals["basic"] == pytest.approx([0.1, 1.0, 10.0])
    assert (
        totals["advanced"][-1] == bud.advanced_composition(0.1, times=100, delta_slack=1e-6).epsilon
    )
    assert totals["optimal"][-1] == bud.optimal_composition_epsilon(1e-6, epsilon=0.1, times=100)
    assert totals["zcdp"][-1] == bud.zcdp_composition([100 * 0.1**2 / 2], delta=1e-6).epsilon
    assert totals["pld"][-1] == bud.pld_epsilon(1e-6, "laplace", 10.0, times=100)
    # many small releases: the concentration bounds beat the sum, the mechanism's own PLD most
    last = {key: values[-1] for key, values in totals.items()}
    assert last["pld"] <= last["optimal"] < last["zcdp"] < last["advanced"] < last["basic"]
    # one release: the sum is the best there is, advanced composition and zCDP far above it
    first = {key: values[0] for key, values in totals.items()}
    assert first["optimal"] <= first["basic"] < first["zcdp"] < first["advanced"]


def test_plot_composition_draws_every_accounting_with_its_own_style():
    fig = pb.plot_composition((0.5,), max_releases=20, points=5)
    ms = np.unique(np.geomspace(1, 20, 5).round().astype(int))
    totals = pb.composition_totals(0.5, ms, delta=1e-6)
    styles = set()
    for key, *_ in pb.ACCOUNTINGS:
        line = find_artist(fig, f"{key}_0.5")
        np.testing.assert_array_equal(line.get_xdata(), ms)
        np.testing.assert_allclose(line.get_ydata(), totals[key])
        styles.add((line.get_linestyle(), line.get_marker()))
    assert len(styles) == len(pb.ACCOUNTINGS)  # never told apart by colour alone
    text = alt_text(fig)
    assert alt_text_problem(text) is None
    assert f"at m = {ms[-1]}" in text and f"basic sum {totals['basic'][-1]:.3g}" in text


# --- Laplace or Gaussian ---------------------------------------------------------------------


def test_mechanism_totals_follow_the_workload_as_it_repeats():
    fig = pb.plot_mechanism_totals(pb.SURVEY, copies=4, delta=1e-6, epsilon_risk=1.5)
    lap = bud.budget_for_accuracy(pb.SURVEY)
    gau = bud.budget_for_accuracy(pb.SURVEY, mechanism="gaussian", delta=1e-6)
    m = 6 * np.arange(1, 5)
    pure = find_artist(fig, "laplace_pure")
    np.testing.assert_array_equal(pure.get_xdata(), m)
    np.testing.assert_allclose(pure.get_ydata(), np.arange(1, 5) * lap.total)
    exact = find_artist(fig, "gaussian_exact")
    np.testing.assert_allclose(
        exact.get_ydata(), dep.gaussian_epsilon(np.arange(1, 5) * gau.total, 1e-6)
    )
    zcdp = find_artist(fig, "gaussian_zcdp")
    assert zcdp.get_ydata()[0] == pytest.approx(gau.epsilon)
    # the exact Gaussian curve is never above its zCDP bound, the PLD never above the sum
    assert np.all(exact.get_ydata() <= zcdp.get_ydata())
    assert np.all(find_artist(fig, "laplace_pld").get_ydata() <= pure.get_ydata() * (1 + 1e-9))
    assert find_artist(fig, "epsilon_risk").get_ydata()[0] == 1.5
    # a few releases: Laplace is cheaper; the alt text names where Gaussian takes over
    assert pure.get_ydata()[0] < exact.get_ydata()[0]
    # like for like (both at δ, Laplace on its PLD): the first m where the Gaussian line is below
    m = exact.get_xdata()
    pld = find_artist(fig, "laplace_pld").get_ydata()
    like = int(m[np.argmax(exact.get_ydata() < pld)])
    text = alt_text(fig)
    assert "like for like, both at δ = 1e-06" in text
    assert f"Gaussian noise is cheaper from m = {like} on" in text
    # the pure-ε comparison (δ = 0 against δ) is only stated labelled as such
    unlike = int(m[np.argmax(exact.get_ydata() < pure.get_ydata())])
    assert (
        f"pure-ε sum (δ = 0, not like for like) Gaussian at δ = 1e-06 is cheaper from m = {unlike}"
        in text
    )


# --- allocation ------------------------------------------------------------------------------


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_plot_allocation_draws_both_sides_of_the_choice(mechanism):
    risk = bud.risk_posterior(0.8, prior=0.5)
    fig = pb.plot_allocation(pb.SURVEY, risk, mechanism=mechanism, delta=1e-6)
    choice = bud.choose_workload(pb.SURVEY, risk, mechanism=mechanism, delta=1e-6)
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
    fig = pb.plot_allocation(pb.SURVEY, 0.5)
    assert "total ε ≤ 0.5" in fig._suptitle.get_text()
    assert "infeasible" in fig._suptitle.get_text()


def test_plot_allocation_labels_releases_without_a_label_by_index():
    fig = pb.plot_allocation([bud.Release("count", k=5.0), bud.Release("count", k=10.0)], 2.0)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["release 0: ±5 (95 %)", "release 1: ±10 (95 %)"]


def test_the_text_alternative_tells_equal_largest_needs_as_a_tie():
    # two releases with the same target need the same budget: neither is "the largest"
    tied = [bud.Release("count", k=5.0, label="a"), bud.Release("count", k=5.0, label="b")]
    text = alt_text(pb.plot_allocation([*tied, bud.Release("count", k=20.0, label="c")], 2.0))
    assert "The largest needs, equal as shown, are those of a and b." in text
    text = alt_text(pb.plot_allocation([tied[0], bud.Release("count", k=20.0, label="c")], 2.0))
    assert "The largest need is a's." in text


def test_plot_allocation_refuses_a_malformed_workload_by_name():
    with pytest.raises(ValueError, match="workload"):
        pb.plot_allocation([bud.Release("mean", k=1.0, lower=0.0, upper=1.0)], 1.0)


# --- the Census ------------------------------------------------------------------------------


def test_census_levels_read_the_total_three_ways():
    fig = pb.plot_census_levels()
    total = bud.compose_rho(
        [s * pb.census_person_rho()["person"] for s in pb.CENSUS_LEVELS_ILLUSTRATIVE.values()]
        + [pb.census_person_rho()["housing unit"]]
    )
    rho_total = find_artist(fig, "rho_total").get_offsets()[0, 0]
    assert rho_total == pytest.approx(total) and round(rho_total, 2) == 2.63
    tpr = find_artist(fig, "tpr_zcdp").get_offsets()[:, 0]
    assert round(tpr[-1], 3) == 0.698  # the total, from zCDP alone
    gauss = find_artist(fig, "tpr_gaussian").get_offsets()[:, 0]
    from_eps = find_artist(fig, "tpr_epsilon").get_offsets()[:, 0]
    # the Gaussian curve ≤ zCDP alone ≤ the (ε, δ) conversion, level by level
    assert np.all(gauss <= tpr + 1e-12) and np.all(tpr <= from_eps + 1e-12)
    assert "ILLUSTRATIVE" in fig._suptitle.get_text()
    text = alt_text(fig)
    assert "illustrative split" in text and f"{risk_up(tpr[-1]):.3f} from zCDP alone" in text


def test_census_levels_take_any_split_and_drop_the_label_when_not_illustrative():
    fig = pb.plot_census_levels({"a": 0.5, "b": 0.25}, illustrative=False)
    assert "ILLUSTRATIVE" not in fig._suptitle.get_text()
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["a", "b", "all together"]
    assert find_artist(fig, "rho_total").get_offsets()[0, 0] == 0.75


def test_plot_allocation_reuses_a_choice_and_a_total_it_is_given():
    risk = bud.risk_posterior(0.8, prior=0.5)
    choice = bud.choose_workload(pb.SURVEY, risk, mechanism="gaussian", delta=1e-6)
    allowed = bud.total_for_risk(risk, mechanism="gaussian", delta=1e-6)
    given = pb.plot_allocation(
        pb.SURVEY, risk, mechanism="gaussian", choice=choice, allowed=allowed
    )
    fresh = pb.plot_allocation(pb.SURVEY, risk, mechanism="gaussian")
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

    noises = ["gaussian" if r.kind == "mean" else "laplace" for r in pb.SURVEY]
    choice = bud.choose_workload(list(pb.SURVEY), risk, mechanism=noises, delta=1e-6)
    fig = pb.plot_mixed_allocation(list(pb.SURVEY), risk, noises=noises, choice=choice)
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
