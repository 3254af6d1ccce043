"""The dashboard of notebook 12 (from a chosen budget to a release); see _base.Dashboard.

Three controls, the ones a practitioner preparing a release moves: the most records one
person contributes (m), the size of the smallest group published (N) and ε per record. The
per-person guarantee, the small group's error and the odds sentence for a person in the data
redraw together (:func:`helpers.plotting.release.plot_release_overview`).
"""

from __future__ import annotations

import textwrap

import ipywidgets as widgets

from .. import release as rel
from ..plotting import risk_up
from ..plotting.release import (
    DEFAULTS,
    overview_readings,
    plot_release_overview,
    update_release_overview,
)
from ._base import Dashboard, float_slider

__all__ = ["release_dashboard", "release_details", "release_text"]

_STYLE = {"description_width": "initial"}
#: a track of about 300 px beside the longest label ("records per person, m")
_LAYOUT = widgets.Layout(width="40em")
#: the readout's text width in characters (a <pre> does not wrap)
_WRAP = 96


def release_text(epsilon, *, contributions, group_size, prior, delta, accuracy, coverage) -> str:
    """The readout of :func:`release_dashboard` (also used by its tests).

    Read from :func:`helpers.plotting.release.overview_readings`, as the figure is: ε per
    record, the noise 1/ε, the per-person guarantee m·ε; then the short layer and the expert
    line of the text for a person in the data (:func:`helpers.release.subject_layers`, a
    person of up to m records).
    """
    per, error, smallest, _ = overview_readings(
        epsilon,
        contributions=contributions,
        group_size=group_size,
        prior=prior,
        delta=delta,
        accuracy=accuracy,
        coverage=coverage,
    )
    verdict = "meets" if error <= accuracy else "misses"
    lines = [
        f"per person: ε = {risk_up(per.epsilon):.4g}"
        + (f", δ = {risk_up(per.delta):.3g}" if delta else "")
        + f" (ε = {risk_up(epsilon):g} per record × m = {contributions})",
        f"a group of {group_size:,}: the count (noise 1/ε, set per record) is within ±{error:.2%} ({100 * coverage:g} %), "
        f"{verdict} ±{accuracy:.0%}; the smallest group that meets it has {smallest:,} people",
        rel.odds_sentence(per.epsilon, per.delta, prior=prior),
    ]
    # the text for a person in the data, for m records per person (rel.subject_layers): its
    # short layer and its expert line, wrapped to read; the details (some 250 words, more
    # than a projected slide holds) are under the dashboard's button (release_details)
    layers = rel.subject_layers(
        epsilon, delta, prior=prior, unit="record", contributions=contributions
    )
    lines += ["", "What a person in the data reads:", textwrap.fill(layers.summary, _WRAP)]
    lines += [textwrap.fill(layers.expert, _WRAP)]
    return "\n".join(lines)


def release_details(epsilon, *, contributions, prior, delta) -> str:
    """The details under the readout of :func:`release_dashboard`, behind its button: the
    middle layer of :func:`helpers.release.subject_layers` for the same person as the readout's
    short layer and expert line (ε per record, a person of up to m records)."""
    return rel.subject_layers(
        epsilon, delta, prior=prior, unit="record", contributions=contributions
    ).details


def release_dashboard(
    epsilon: float = DEFAULTS["epsilon"],
    *,
    contributions: int = DEFAULTS["contributions"],
    group_size: int = DEFAULTS["group_size"],
    prior: float = DEFAULTS["prior"],
    delta: float = DEFAULTS["delta"],
) -> Dashboard:
    """Move m, N and ε per record: the per-person ε, the group's error and the odds redraw."""
    controls = {
        "contributions": widgets.IntSlider(
            value=contributions,
            min=1,
            max=10,
            step=1,
            description="records per person, m",
            continuous_update=False,
            style=_STYLE,
            layout=_LAYOUT,
        ),
        "group_size": widgets.IntSlider(
            value=group_size,
            min=5,
            max=5_000,
            step=5,
            description="group size N",
            continuous_update=False,
            style=_STYLE,
            layout=_LAYOUT,
        ),
        "epsilon": float_slider("ε per record", epsilon, 0.05, 3.0, 0.05, ".2f", width="40em"),
    }

    def options(contributions, group_size):
        return {
            "contributions": contributions,
            "group_size": group_size,
            "prior": prior,
            "delta": delta,
            "accuracy": DEFAULTS["accuracy"],
            "coverage": DEFAULTS["coverage"],
        }

    def details(contributions, group_size, epsilon):
        # the middle layer of the text for a person in the data, under its button: about 250
        # words, more than a slide holds beside the figure (notebook 12 §4 shows it in full)
        shown = options(contributions, group_size)
        return release_details(
            epsilon, contributions=contributions, prior=shown["prior"], delta=shown["delta"]
        )

    def draw(contributions, group_size, epsilon):
        shown = options(contributions, group_size)
        return plot_release_overview(epsilon, **shown), release_text(epsilon, **shown)

    def update(fig, contributions, group_size, epsilon):
        # the figure built once, moved in place (issue 33): a fresh one costs 100 circles
        shown = options(contributions, group_size)
        if not update_release_overview(fig, epsilon, **shown):
            return None
        return release_text(epsilon, **shown)

    return Dashboard(
        controls,
        draw,
        update=update,
        details=details,
        details_label="the details for a person in the data",
    )
