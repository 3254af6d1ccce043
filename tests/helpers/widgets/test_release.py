"""The dashboard of notebook 12: set every control as a reader would, check text and data."""

from __future__ import annotations

import math

import pytest

from helpers import release as rel
from helpers.plotting import risk_up
from helpers.plotting.release import DEFAULTS
from helpers.widgets import release as w


def _line(fig, gid):
    for ax in fig.axes:
        for line in ax.lines:
            if line.get_gid() == gid:
                return line
    raise AssertionError(f"no line with gid {gid!r}")


def _marked(fig) -> int:
    return sum(
        1 for ax in fig.axes for p in ax.patches if p.get_gid() in ("odds_before", "odds_added")
    )


def test_defaults_show_the_per_person_guarantee_the_group_and_the_odds():
    dash = w.release_dashboard()
    per = DEFAULTS["epsilon"] * DEFAULTS["contributions"]
    assert dash.text.splitlines()[0].startswith(f"per person: ε = {risk_up(per):.4g}")
    assert rel.odds_sentence(per, prior=DEFAULTS["prior"]) in dash.text
    assert _line(dash.figure, "chosen_m").get_ydata()[0] == pytest.approx(per)


def test_more_records_per_person_redraws_all_three_together():
    dash = w.release_dashboard()
    dash.controls["contributions"].value = 6
    per = 6 * DEFAULTS["epsilon"]
    assert f"per person: ε = {risk_up(per):.4g}" in dash.text
    # ε per record: the noise is 1/ε whatever m, read at m·ε per person for m records
    error = rel.group_error(DEFAULTS["group_size"], budget=per, kind="count", contributions=6)
    assert error == pytest.approx(
        rel.group_error(DEFAULTS["group_size"], budget=DEFAULTS["epsilon"], kind="count")
    )
    assert _line(dash.figure, "chosen_group").get_ydata()[0] == pytest.approx(error)
    assert f"±{error:.2%}" in dash.text
    posterior = rel.odds(per, prior=DEFAULTS["prior"]).posterior
    assert _marked(dash.figure) == math.ceil(100 * posterior - 1e-9)
    assert rel.odds_sentence(per, prior=DEFAULTS["prior"]) in dash.text


def test_a_small_group_misses_the_accuracy_and_a_large_one_meets_it():
    dash = w.release_dashboard()
    dash.controls["group_size"].value = 10
    assert "misses" in dash.text
    dash.controls["group_size"].value = 5_000
    assert "meets" in dash.text
    smallest = rel.smallest_group(
        budget=DEFAULTS["epsilon"], kind="count", accuracy=DEFAULTS["accuracy"]
    )
    assert f"has {smallest:,} people" in dash.text


def test_a_smaller_epsilon_lowers_the_posterior_and_widens_the_error():
    dash = w.release_dashboard()
    before = _marked(dash.figure)
    error_before = _line(dash.figure, "chosen_group").get_ydata()[0]
    dash.controls["epsilon"].value = 0.2
    assert _marked(dash.figure) < before
    assert _line(dash.figure, "chosen_group").get_ydata()[0] > error_before
    assert "ε = 0.2 per record" in dash.text


def test_the_readout_s_text_for_a_person_follows_m():
    """Issue 49: the short layer and the expert line of the text for a person of up to m
    records redraw with m (a per-record guarantee read for the person: a group of m)."""
    import textwrap

    dash = w.release_dashboard()
    for m in (1, 6):
        dash.controls["contributions"].value = m
        layers = rel.subject_layers(
            DEFAULTS["epsilon"],
            DEFAULTS["delta"],
            prior=DEFAULTS["prior"],
            unit="record",
            contributions=m,
        )
        assert textwrap.fill(layers.summary, 96) in dash.text
        assert textwrap.fill(layers.expert, 96) in dash.text
    assert "up to 6 records" in dash.text


def test_the_details_for_a_person_sit_under_a_button_and_follow_every_control():
    """Issue 49 item 6: the dashboard updates both layers. The details (the middle layer) are
    hidden behind a button so the dashboard fits a slide, recomputed on every move whether
    shown or not, for the same person as the readout (m records, ε per record)."""
    import html

    dash = w.release_dashboard()
    assert (
        dash.details_button in dash.widget.children and dash.details_panel in dash.widget.children
    )
    assert dash.details_panel.layout.display == "none"
    assert dash.details_button.description == "Show the details for a person in the data"
    moves = [("contributions", 4), ("epsilon", 1.5), ("group_size", 40), ("contributions", 1)]
    for step, (name, value) in enumerate(moves):
        if step == 2:
            dash.details_button.value = True  # opened halfway: the text is already current
            assert dash.details_panel.layout.display == "block"
            assert dash.details_button.description.startswith("Hide the details")
        dash.controls[name].value = value
        values = dash.values()
        expected = rel.subject_layers(
            values["epsilon"],
            DEFAULTS["delta"],
            prior=DEFAULTS["prior"],
            unit="record",
            contributions=values["contributions"],
        ).details
        assert html.unescape(dash.details_panel.value) == f"<p>{expected}</p>"
    dash.details_button.value = False
    assert dash.details_panel.layout.display == "none"
    assert dash.details_button.description.startswith("Show the details")


def test_a_dashboard_without_details_has_no_button():
    from helpers.widgets.beliefs import prior_dashboard

    dash = prior_dashboard()
    assert dash.details_button not in dash.widget.children
