"""Figures of notebook 12 (from a chosen budget to a release): each draws what helpers.release computes."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from helpers import release as rel
from helpers.plotting import release as pr
from helpers.plotting._alt import alt_text, alt_text_problem


def _line(fig, gid):
    for ax in fig.axes:
        for line in ax.lines:
            if line.get_gid() == gid:
                return line
    raise AssertionError(f"no line with gid {gid!r}")


def _patches(fig, gid):
    return [p for ax in fig.axes for p in ax.patches if p.get_gid() == gid]


def test_visit_counts_are_seeded_and_skewed():
    counts = pr.visit_counts()
    np.testing.assert_array_equal(counts, pr.visit_counts())
    assert len(counts) == 2_000
    assert np.median(counts) < counts.mean() < np.percentile(counts, 90)


def test_contributions_draws_the_tradeoff_and_marks_its_minimum():
    counts = pr.visit_counts()
    fig = pr.plot_contributions(counts, epsilon=0.1)
    m = np.arange(1, 21)
    trade = rel.contribution_tradeoff(counts, m, epsilon=0.1)
    np.testing.assert_allclose(_line(fig, "bias").get_ydata(), trade.bias)
    np.testing.assert_allclose(_line(fig, "noise").get_ydata(), trade.noise)
    np.testing.assert_allclose(_line(fig, "total").get_ydata(), trade.total)
    best = int(m[np.argmin(trade.total)])
    assert f"smallest at m = {best}" in alt_text(fig)
    people = sum(p.get_height() for p in _patches(fig, "people"))
    assert people == len(counts)
    assert alt_text_problem(alt_text(fig)) is None


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_small_groups_draws_the_errors_and_the_smallest_groups(mechanism):
    fig = pr.plot_small_groups(budget=0.5, accuracy=0.05, mechanism=mechanism)
    for kind, share in (("count", 0.2), ("mean", 0.5)):
        line = _line(fig, f"error_{kind}")
        expected = rel.group_error(
            line.get_xdata(), budget=0.5, kind=kind, mechanism=mechanism, fraction=share
        )
        np.testing.assert_allclose(line.get_ydata(), expected)
        n = rel.smallest_group(
            budget=0.5, kind=kind, accuracy=0.05, mechanism=mechanism, fraction=share
        )
        assert _line(fig, f"smallest_{kind}").get_xdata()[0] == n
        assert f"{n:,}" in alt_text(fig)


@pytest.mark.parametrize(("epsilon", "delta", "prior"), [(1.0, 0.0, 0.05), (2.0, 1e-7, 0.3)])
def test_icon_array_counts_are_the_odds_rounded_up(epsilon, delta, prior):
    fig = pr.plot_icon_array(epsilon, delta, prior=prior)
    before, after = rel.icon_counts(epsilon, delta, prior=prior)
    assert before == round(100 * prior)
    # never below the true count (the exact reference is in tests/helpers/release)
    assert after >= 100 * rel.odds(epsilon, delta, prior=prior).posterior - 1e-9
    assert len(_patches(fig, "before_before")) == before
    assert len(_patches(fig, "after_before")) == before
    assert len(_patches(fig, "after_added")) == after - before
    assert len(_patches(fig, "after_rest")) == 100 - after
    # told apart without colour: the added ones are hatched, the others are not
    assert all(p.get_hatch() for p in _patches(fig, "after_added"))
    assert not any(p.get_hatch() for p in _patches(fig, "after_rest"))
    assert f"at most {after} are marked" in alt_text(fig)
    # a belief about one person, not a count of people exposed
    assert "one person, not 100 people" in alt_text(fig)


def test_overview_draws_the_three_readings():
    fig = pr.plot_release_overview(1.5, contributions=4, group_size=300, prior=0.1)
    assert _line(fig, "chosen_m").get_ydata()[0] == pytest.approx(6.0)
    here = rel.group_error(300, budget=6.0, kind="count", contributions=4)
    assert _line(fig, "chosen_group").get_ydata()[0] == pytest.approx(here)
    marked = len(_patches(fig, "odds_before")) + len(_patches(fig, "odds_added"))
    assert marked == rel.icon_counts(6.0, prior=0.1)[1]
    assert alt_text_problem(alt_text(fig)) is None


@pytest.mark.parametrize(
    ("epsilon", "contributions", "delta"), [(0.3, 1, 0.0), (1.0, 3, 0.0), (0.7, 5, 1e-7)]
)
def test_overview_panels_share_one_epsilon_convention(epsilon, contributions, delta):
    """ε per record everywhere: (a) marks m·ε, (b) the noise 1/ε (m·ε per person at
    sensitivity m), (c) the odds at m·ε; the dashboard's text reads the same numbers."""
    from helpers.widgets.release import release_text

    options = {"contributions": contributions, "group_size": 150, "prior": 0.1, "delta": delta}
    fig = pr.plot_release_overview(epsilon, **options)
    per_person = _line(fig, "chosen_m").get_ydata()[0]
    assert per_person == pytest.approx(contributions * epsilon)
    error = _line(fig, "chosen_group").get_ydata()[0]
    at_per_person = rel.group_error(
        150, budget=per_person, kind="count", contributions=contributions
    )
    per_record = rel.group_error(150, budget=epsilon, kind="count")  # scale 1/ε
    assert error == pytest.approx(at_per_person) == pytest.approx(per_record)
    per_delta = rel.group_privacy(epsilon, delta, size=contributions).delta
    posterior = rel.odds(per_person, per_delta, prior=0.1).posterior
    marked = len(_patches(fig, "odds_before")) + len(_patches(fig, "odds_added"))
    assert marked == math.ceil(100 * posterior - 1e-9)
    text = release_text(epsilon, accuracy=0.1, coverage=0.95, **options)
    assert f"±{error:.2%}" in text
    assert rel.odds_sentence(per_person, per_delta, prior=0.1) in text


def test_overview_updated_in_place_draws_what_a_fresh_one_draws_and_refuses_other_lines():
    # issue 33: notebook 12's dashboard moves its figure in place; with δ > 0 too
    from _modules import figure_pixels

    options = {"prior": 0.2, "delta": 1e-12, "accuracy": 0.1, "coverage": 0.95}
    fig = pr.plot_release_overview(1.0, contributions=3, group_size=200, **options)
    for epsilon, m, n in [(0.05, 1, 5), (2.5, 10, 5000), (0.4, 2, 35)]:
        assert pr.update_release_overview(fig, epsilon, contributions=m, group_size=n, **options)
        fresh = pr.plot_release_overview(epsilon, contributions=m, group_size=n, **options)
        assert alt_text(fig) == alt_text(fresh)
        np.testing.assert_array_equal(figure_pixels(fig), figure_pixels(fresh))
    before = figure_pixels(fig)
    other = {**options, "accuracy": 0.2}
    assert not pr.update_release_overview(fig, 1.0, contributions=3, group_size=200, **other)
    np.testing.assert_array_equal(figure_pixels(fig), before)


@pytest.mark.parametrize(
    ("epsilon", "prior"),
    [
        (1.0, 0.999),
        (0.1, 0.995),
        (1.0, 0.001),
        (0.01, 0.004),
        (3.0, 0.99),
        (0.1, 0.009),
        (1e-12, 0.99),
        (1e-9, 0.5),
    ],
)
def test_icon_array_never_calls_a_chance_inside_0_1_none_or_all(epsilon, prior):
    """A prior of 99.9 % fills every icon at this resolution: its title and text alternative
    read "more than 99 in 100", as the sentence does, never a 100-in-100 chance (nor 0.1 % a
    0-in-100 one); the overview's panel (c) likewise."""
    fig = pr.plot_icon_array(epsilon, prior=prior)
    before, after = rel.icon_counts(epsilon, prior=prior)
    words = [ax.get_title() for ax in fig.axes] + [alt_text(fig)]
    said = rel.in_people(prior)
    if before in (0, 100):
        assert "than" in said and said in words[0] and said in words[2]
    for text in words:
        assert not re.search(r"\b(100-in-100|0-in-100)\b", text), text
    posterior = rel.odds(epsilon, prior=prior).posterior
    # the right title is the icons' own bound, never one that reads as a fall below the left
    assert "fewer than" not in words[1]
    if after == 100 and posterior < 1:
        assert words[1] == f"after it: at most {rel.percent(posterior, up=True)} (all 100 marked)"
    else:
        assert words[1] == f"after it: at most a {after}-in-100 chance"
    overview = pr.plot_release_overview(epsilon, contributions=1, group_size=300, prior=prior)
    (panel,) = [ax.get_title() for ax in overview.axes if ax.get_title().startswith("(c)")]
    assert panel.startswith(f"(c) {said.removesuffix(' in 100')} → at most ")
