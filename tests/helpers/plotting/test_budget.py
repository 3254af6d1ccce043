"""Figures of notebook 11 (one budget, many releases): each draws what helpers.budget computes.

The allocation's figures are tested in test_allocation.py, the Census's in test_census.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from _modules import find_artist

from helpers import budget as bud
from helpers import deployments as dep
from helpers.plotting import allocation, census
from helpers.plotting import budget as pb
from helpers.plotting._alt import alt_text, alt_text_problem


def test_the_notebooks_read_every_figure_of_notebook_11_from_here():
    """Notebooks 11 and 12 import ``helpers.plotting.budget as plots``: the allocation's and
    the Census's names are the very objects of their modules."""
    for module in (allocation, census):
        for name in module.__all__:
            assert name in pb.__all__ and getattr(pb, name) is getattr(module, name), name


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
