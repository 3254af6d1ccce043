"""Figure functions for notebook 12 (from a chosen budget to a release): data in, Figure out.

The mathematics is :mod:`helpers.release`; these functions only draw it. Plotted artists
carry a ``gid`` so tests find the data by name. Series are told apart by line style, marker
and hatching as well as colour; the icon array marks its three kinds of people by fill,
hatching and shape, so it reads in grey.

:data:`VISITS_SEED` and :func:`visit_counts` make the notebook's example: how many clinic
visits each of 2,000 patients has in a year (a skewed, seeded draw), the data whose rows are
visits rather than people.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle
from matplotlib.ticker import LogLocator

from .. import release as rel
from ..budget import NoiseFamily
from ._alt import describe
from ._style import BLACK, BLUE, GREY, ORANGE, SMALL, VERMILLION, course_style
from .rounding import risk_up

__all__ = [
    "DEFAULTS",
    "VISITS_SEED",
    "Overview",
    "overview_readings",
    "plot_contributions",
    "plot_icon_array",
    "plot_release_overview",
    "plot_small_groups",
    "update_release_overview",
    "visit_counts",
]

#: the seed of the example's visit counts
VISITS_SEED = 2026

#: the dashboard's starting point (and the static figure beside it): ε per person, each
#: person's records bounded to m, a group of N people, the observer's prior, δ, the accuracy
#: a small group's count should meet (relative ±) and its coverage
DEFAULTS = {
    "epsilon": 1.0,
    "contributions": 3,
    "group_size": 200,
    "prior": 0.05,
    "delta": 0.0,
    "accuracy": 0.1,
    "coverage": 0.95,
}


def visit_counts(patients: int = 2_000, *, seed: int = VISITS_SEED) -> np.ndarray:
    """Each patient's clinic visits in a year: a seeded negative binomial with mean 3.

    Most people visit once or twice, a few visit twenty times or more: the skew that makes
    the bound on contributions cost records. Not real data.
    """
    rng = np.random.default_rng(seed)
    # negative binomial with r = 1.2 and mean 3: p = r/(r + mean)
    return rng.negative_binomial(1.2, 1.2 / 4.2, size=patients)


# --- the unit of privacy --------------------------------------------------------------------


@course_style
def plot_contributions(
    counts, *, epsilon: float = 0.1, coverage: float = 0.95, largest: int = 20
) -> Figure:
    """(a) How many people have each number of records; (b) the error of the total count of
    records against the bound m: the records dropped (bias), the noise's ±k and their sum."""
    counts = np.asarray(counts)
    m = np.arange(1, largest + 1)
    trade = rel.contribution_tradeoff(counts, m, epsilon=epsilon, coverage=coverage)
    best = int(m[np.argmin(trade.total)])
    fig = Figure(figsize=(9.4, 4.4))
    ax_a, ax_b = fig.subplots(1, 2)
    fig.subplots_adjust(left=0.08, right=0.98, top=0.84, bottom=0.25, wspace=0.28)
    values, people = np.unique(np.minimum(counts, largest + 1), return_counts=True)
    ax_a.bar(values, people, color=BLUE, edgecolor=BLACK, gid="people")
    ax_a.set_xlabel(f"records per person ({largest + 1} means {largest + 1} or more)")
    ax_a.set_ylabel("people")
    ax_a.set_title("(a) contributions are skewed", fontsize=11)
    ax_a.grid(axis="y", alpha=0.3)
    ax_b.plot(
        m,
        trade.bias,
        color=VERMILLION,
        ls="--",
        marker="s",
        ms=4,
        label="records dropped (bias)",
        gid="bias",
    )
    ax_b.plot(
        m,
        trade.noise,
        color=BLUE,
        ls=":",
        marker="^",
        ms=4,
        label=f"noise ±k ({100 * coverage:g} %)",
        gid="noise",
    )
    ax_b.plot(
        m, trade.total, color=BLACK, ls="-", marker="o", ms=4, label="bias + noise", gid="total"
    )
    ax_b.axvline(best, color=GREY, lw=1, ls="-.")
    ax_b.set_xlabel("bound m on each person's records")
    ax_b.set_ylabel("error of the total count (records)")
    ax_b.set_title(f"(b) the bound's trade-off at ε = {risk_up(epsilon):g}", fontsize=11)
    ax_b.grid(alpha=0.3)
    ax_b.legend(fontsize=SMALL + 1, loc="upper center")
    total = int(counts.sum())
    fig.suptitle(
        f"{len(counts):,} people, {total:,} records: bounding each person to m records",
        fontsize=12,
    )
    i = best - 1
    return describe(
        fig,
        f"Panel (a): a bar chart of how many of {len(counts):,} people have each number of "
        f"records (from 0 to {largest} or more); most have a few, a long tail has many "
        f"(the largest is {int(counts.max())}). Panel (b): against the bound m from 1 to "
        f"{largest}, the records the bound drops fall from {trade.bias[0]:.0f} to "
        f"{trade.bias[-1]:.0f}, the Laplace noise's ±k at ε = {risk_up(epsilon):g} grows from "
        f"{trade.noise[0]:.3g} to {trade.noise[-1]:.3g}, and their sum is smallest at m = {best} "
        f"({trade.total[i]:.0f} records of {total:,}).",
    )


# --- small groups ---------------------------------------------------------------------------


@course_style
def plot_small_groups(
    *,
    budget: float = 1.0,
    accuracy: float = 0.1,
    mechanism: str = "laplace",
    coverage: float = 0.95,
    contributions: int = 1,
    count_share: float = 0.2,
    mean_share: float = 0.5,
    sizes=None,
) -> Figure:
    """Relative error of a group's count and mean against the group's size N at one release's
    budget, with the accuracy line and the smallest group each serves: a count of
    ``count_share`` of the group, a mean whose value is ``mean_share`` of its range
    (:func:`helpers.release.group_error`'s ``fraction``)."""
    sizes = np.geomspace(1, 100_000, 121) if sizes is None else np.asarray(sizes, dtype=float)
    fig = Figure(figsize=(8.6, 4.8))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.11, right=0.97, top=0.86, bottom=0.14)
    styles = {"count": (BLUE, "-", "o"), "mean": (ORANGE, "--", "s")}
    smallest = {}
    shares = {"count": count_share, "mean": mean_share}
    for kind, (colour, ls, marker) in styles.items():
        err = rel.group_error(
            sizes,
            budget=budget,
            kind=kind,
            mechanism=mechanism,
            coverage=coverage,
            contributions=contributions,
            fraction=shares[kind],
        )
        what = (
            f"a count of {count_share:.0%} of the group"
            if kind == "count"
            else f"a mean at {mean_share:.0%} of its range"
        )
        ax.plot(sizes, err, color=colour, ls=ls, lw=2, label=what, gid=f"error_{kind}")
        n = rel.smallest_group(
            budget=budget,
            kind=kind,
            accuracy=accuracy,
            mechanism=mechanism,
            coverage=coverage,
            contributions=contributions,
            fraction=shares[kind],
        )
        smallest[kind] = n
        ax.plot(
            [n],
            [accuracy],
            marker=marker,
            color=colour,
            ms=9,
            mec=BLACK,
            ls="",
            gid=f"smallest_{kind}",
        )
        ax.annotate(
            f"N ≥ {n:,}",
            (n, accuracy),
            xytext=(6, 10 if kind == "count" else -18),
            textcoords="offset points",
            fontsize=SMALL + 1,
            color=BLACK,
        )
    ax.axhline(
        accuracy,
        color=VERMILLION,
        ls=":",
        lw=1.6,
        label=f"the accuracy asked: ±{accuracy:.0%}",
        gid="accuracy",
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("group size N (people)")
    ax.set_ylabel(f"relative error at {100 * coverage:g} %")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=SMALL + 1, loc="upper right")
    family = NoiseFamily.of(mechanism)  # the unit and the words from the class and its measure
    unit = family.unit
    per = f", m = {contributions}" if contributions > 1 else ""
    ax.set_title(
        f"One release at {unit} = {risk_up(budget):g}{per}: the same noise, smaller groups",
        fontsize=12,
    )
    return describe(
        fig,
        f"Relative error against group size N from 1 to 100,000 on log-log axes, for a count "
        f"of {count_share:.0%} of the group (solid) and a mean whose value is {mean_share:.0%} "
        f"of its range (dashed), released with {family.name} noise at {unit} = {risk_up(budget):g}"
        f"{per}; both fall as 1/N. The dotted line is the accuracy asked, ±{accuracy:.0%} at "
        f"{100 * coverage:g} %: the count serves groups of at least {smallest['count']:,} "
        f"people, the mean groups of at least {smallest['mean']:,}.",
    )


# --- explaining the choice ------------------------------------------------------------------

#: the three kinds of people in the icon array: (fill, hatch, edge, legend words)
_ICONS = {
    "before": (BLUE, "", BLACK),
    "added": ("white", "////", VERMILLION),
    "rest": ("none", "", GREY),
}


def _icons(ax, before: int, after: int, people: int, *, gid: str) -> None:
    """A grid of ``people`` circles: ``before`` filled, up to ``after`` hatched, the rest plain."""
    side = math.ceil(math.sqrt(people))
    for i in range(people):
        row, col = divmod(i, side)
        kind = "before" if i < before else "added" if i < after else "rest"
        fill, hatch, edge = _ICONS[kind]
        ax.add_patch(
            Circle(
                (col + 0.5, side - row - 0.5),
                0.38,
                facecolor=fill,
                hatch=hatch,
                edgecolor=edge,
                lw=1.3,
                gid=f"{gid}_{kind}",
            )
        )
    ax.set_xlim(0, side)
    ax.set_ylim(0, side)
    ax.set_aspect("equal")
    ax.axis("off")


@course_style
def plot_icon_array(
    epsilon: float, delta: float = 0.0, *, prior: float = 0.05, people: int = 100
) -> Figure:
    """The odds reading as a frequency: one person's chance, drawn as k in 100.

    The icons are not people exposed: they draw one probability, the observer's belief
    about *you*, as "k in 100" (the odds of Nanayakkara et al. 2023 written as a frequency,
    the course's rendering, not theirs). Left:
    the prior (filled); right: the most the release lets the observer believe, the filled
    icons plus hatched ones (:func:`helpers.release.icon_counts`, rounded up, never below
    the truth). The sentence under it is :func:`helpers.release.odds_sentence`.
    """
    reading = rel.odds(epsilon, delta, prior=prior)
    before, after = rel.icon_counts(epsilon, delta, prior=prior, people=people)
    fig = Figure(figsize=(9.0, 5.2))
    ax_a, ax_b = fig.subplots(1, 2)
    fig.subplots_adjust(left=0.03, right=0.97, top=0.80, bottom=0.24, wspace=0.12)
    _icons(ax_a, before, before, people, gid="before")
    _icons(ax_b, before, after, people, gid="after")
    # at the ends, the sentence's words: a prior of 99.9 % fills every icon, yet it is "more
    # than 99 in 100", never a 100-in-100 chance (nor 0.1 % a 0-in-100 one)
    said_before = rel.in_people(prior, people=people)
    at_an_end = before in (0, people) and 0 < prior < 1  # none or all drawn, neither true
    if at_an_end:
        ax_a.set_title(f"before the release: {said_before}", fontsize=11)
    else:
        ax_a.set_title(f"before the release: a {before}-in-{people} chance", fontsize=11)
    # the bound as the icons draw it (rounded up, so "at most" holds); when every icon is
    # marked short of certainty, the percentage says how far short
    if after == people and reading.posterior < 1:
        most = f"{rel.percent(reading.posterior, up=True)} (all {people} marked)"
        ax_b.set_title(f"after it: at most {most}", fontsize=11)
    else:
        ax_b.set_title(f"after it: at most a {after}-in-{people} chance", fontsize=11)
    handles = [
        Rectangle(
            (0, 0), 1, 1, facecolor=BLUE, edgecolor=BLACK, label="the chance before (filled)"
        ),
        Rectangle(
            (0, 0),
            1,
            1,
            facecolor="white",
            hatch="////",
            edgecolor=VERMILLION,
            label="the most the release adds to it (hatched)",
        ),
        Rectangle((0, 0), 1, 1, facecolor="none", edgecolor=GREY, label="the rest (plain)"),
    ]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=SMALL + 1, frameon=False)
    guarantee = f"ε = {risk_up(epsilon):.3g}" + (f", δ = {risk_up(delta):.2g}" if delta else "")
    fig.suptitle(
        f"One person, the observer's belief about you as a chance in {people}\n"
        f"(not people exposed; {guarantee}, prior {rel.percent(prior)})",
        fontsize=12,
    )
    failure = rel.odds(epsilon, delta, prior=prior).bad_event
    return describe(
        fig,
        f"Two grids of {people} circles that draw one chance as a frequency: each grid is the "
        f"observer's belief about you, one person, not {people} people. Left, before the release, "
        f"{before} are filled"
        + (f" ({said_before})" if at_an_end else "")
        + f": the observer gives a {rel.percent(reading.prior)} chance to what "
        f"they suspect about you. Right, after a release with {guarantee}, at most "
        f"{after} are marked ({before} filled and {after - before} hatched): the observer's chance "
        f"can rise to at most {rel.percent(reading.posterior, up=True)}.",
        ""
        if not delta
        else "That bound may fail on rare outputs, with a chance of at most "
        f"{rel.percent(failure, up=True)}.",
    )


# --- the dashboard's figure -------------------------------------------------------------------


class Overview(NamedTuple):
    """What the dashboard of notebook 12 shows, all under one convention (ε per record).

    ``per`` the per-person guarantee (m·ε, group privacy), ``error`` the group's count's
    relative error, ``smallest`` the smallest group meeting the accuracy, ``reading`` the odds
    at the per-person guarantee.
    """

    per: object
    error: float
    smallest: int
    reading: object


def overview_readings(
    epsilon, *, contributions, group_size, prior, delta, accuracy, coverage
) -> Overview:
    """The three readings of one count released with ε per record, by a person of ≤ m records.

    One convention throughout: the release is ε-DP per record, so a count (sensitivity 1
    per record) gets noise of scale Δ/ε = 1/ε whatever m; a person of m records is a group
    of m, protected at m·ε (:func:`helpers.release.group_privacy`). The error is computed at
    that same per-person budget with the per-person sensitivity m, which is the noise 1/ε
    again (m/(m·ε)); the odds are read at the per-person guarantee. The figure and the
    dashboard's text both read from here, so they cannot drift apart.
    """
    per = rel.group_privacy(epsilon, delta, size=contributions)
    options = {
        "budget": per.epsilon,  # m·ε per person …
        "kind": "count",
        "coverage": coverage,
        "contributions": contributions,  # … for m records per person: the scale is 1/ε
    }
    return Overview(
        per,
        rel.group_error(group_size, **options),
        rel.smallest_group(accuracy=accuracy, **options),
        rel.odds(per.epsilon, per.delta, prior=prior),
    )


class _OverviewState(NamedTuple):
    """Everything :func:`plot_release_overview` draws at one setting (data, titles, text)."""

    eps_all: np.ndarray
    err: np.ndarray
    chosen_m: tuple
    chosen_group: tuple
    kinds: tuple
    titles: tuple
    suptitle: str
    alt: str


#: the group sizes of panel (b) and the m of panel (a), the same at every setting
_OVERVIEW_SIZES = np.geomspace(5, 50_000, 81)
_OVERVIEW_MS = np.arange(1, 11)


def _overview_state(
    epsilon, *, contributions, group_size, prior, delta, accuracy, coverage
) -> _OverviewState:
    per, here, smallest, reading = overview_readings(
        epsilon,
        contributions=contributions,
        group_size=group_size,
        prior=prior,
        delta=delta,
        accuracy=accuracy,
        coverage=coverage,
    )
    eps_all = rel.group_privacy(epsilon, size=1).epsilon * _OVERVIEW_MS
    # ε per record: the noise is 1/ε whatever m; read at the per-person budget m·ε with the
    # per-person sensitivity m, as overview_readings does
    err = rel.group_error(
        _OVERVIEW_SIZES,
        budget=per.epsilon,
        kind="count",
        coverage=coverage,
        contributions=contributions,
    )
    before, after = rel.icon_counts(per.epsilon, per.delta, prior=prior)
    kinds = tuple("before" if i < before else "added" if i < after else "rest" for i in range(100))
    guarantee = f"ε = {risk_up(epsilon):g} per record" + (
        f", δ = {risk_up(delta):.2g}" if delta else ""
    )
    titles = (
        f"(a) ε per person = {rel.round_up(per.epsilon)}",
        f"(b) N = {group_size:,}: ±{here:.1%}",
        # the prior in the sentence's words: 99.9 % is "more than 99", never "100"
        f"(c) {rel.in_people(prior).removesuffix(' in 100')} → at most {after} in 100",
    )
    suptitle = (
        f"One count, {guarantee}; each person at most {contributions} record"
        f"{'s' if contributions > 1 else ''}; prior {rel.percent(prior)}"
    )
    alt = (
        f"Three panels for a count released with {guarantee}, each person contributing at most "
        f"{contributions} records. (a) ε per person against m from 1 to 10, a straight line "
        f"mε; at m = {contributions} it is {rel.round_up(per.epsilon)}"
        + (f" with δ per person {rel.round_up(per.delta, digits=2)}" if delta else "")
        + f". (b) The count's relative error against group size on log-log axes, falling as "
        f"1/N: ±{here:.1%} for a group of {group_size:,} people; groups of at least "
        f"{smallest:,} meet ±{accuracy:.0%} (dotted line). (c) 100 circles drawing one "
        f"chance, the observer's belief about you (not people exposed): {before} filled (before "
        f"the release, prior {rel.percent(prior)}"
        + (f", {rel.in_people(prior)}" if before in (0, 100) and 0 < prior < 1 else "")
        + f") and up to {after} marked after it (posterior "
        f"at most {rel.percent(reading.posterior, up=True)})."
    )
    return _OverviewState(
        eps_all,
        err,
        ([contributions], [per.epsilon]),
        ([group_size], [here]),
        kinds,
        titles,
        suptitle,
        alt,
    )


#: the overview's panel titles, at a fixed height (y=1.0, where matplotlib puts them when
#: no tick label is in the way): matplotlib's per-draw title placement took a sixth of the
#: dashboard's redraw
_TITLE = {"fontsize": 11, "y": 1.0}


@course_style
def plot_release_overview(
    epsilon: float = DEFAULTS["epsilon"],
    *,
    contributions: int = DEFAULTS["contributions"],
    group_size: int = DEFAULTS["group_size"],
    prior: float = DEFAULTS["prior"],
    delta: float = DEFAULTS["delta"],
    accuracy: float = DEFAULTS["accuracy"],
    coverage: float = DEFAULTS["coverage"],
) -> Figure:
    """Three readings of one count released with ε per record, for a person of up to m records.

    One convention (:func:`overview_readings`): the count is ε-DP per record, its noise of
    scale 1/ε. (a) the per-person guarantee against m (group privacy: mε, and δ's growth when
    δ > 0), the chosen m marked; (b) the count's relative error against group size (the same
    whatever m, since the noise is set per record), the chosen group marked; (c) the icon
    array of the odds at the per-person ε = mε. The dashboard of notebook 12 moves it in
    place with :func:`update_release_overview`.
    """
    state = _overview_state(
        epsilon,
        contributions=contributions,
        group_size=group_size,
        prior=prior,
        delta=delta,
        accuracy=accuracy,
        coverage=coverage,
    )
    fig = Figure(figsize=(9.4, 4.9))
    ax_a, ax_b, ax_c = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1.15, 1]})
    fig.subplots_adjust(left=0.08, right=0.99, top=0.8, bottom=0.17, wspace=0.42)
    ax_a.plot(
        _OVERVIEW_MS,
        state.eps_all,
        color=BLUE,
        marker="o",
        ms=5,
        ls="-",
        label="ε per person = m·ε",
        gid="per_person",
    )
    ax_a.plot(
        *state.chosen_m, marker="D", ms=11, color=VERMILLION, mec=BLACK, ls="", gid="chosen_m"
    )
    ax_a.set_xlabel("records per person, m")
    ax_a.set_ylabel("ε per person")
    ax_a.set_title(state.titles[0], **_TITLE)
    ax_a.grid(alpha=0.3)
    ax_b.plot(_OVERVIEW_SIZES, state.err, color=BLUE, lw=2, gid="error")
    ax_b.axhline(accuracy, color=VERMILLION, ls=":", lw=1.6, gid="accuracy")
    ax_b.plot(
        *state.chosen_group,
        marker="D",
        ms=11,
        color=VERMILLION,
        mec=BLACK,
        ls="",
        gid="chosen_group",
    )
    ax_b.set_xscale("log")
    ax_b.set_yscale("log")
    ax_b.set_xlabel("group size N")
    ax_b.set_ylabel(f"count's relative error ({100 * coverage:g} %)")
    ax_b.set_title(state.titles[1], **_TITLE)
    # minor grid lines at 2 and 5 of each decade: every tick is redrawn on every move of the
    # dashboard, and all eight (2 to 9) took a fifth of its redraw
    for axis in (ax_b.xaxis, ax_b.yaxis):
        axis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
    ax_b.grid(alpha=0.3, which="both")
    before, after = state.kinds.count("before"), 100 - state.kinds.count("rest")
    _icons(ax_c, before, after, 100, gid="odds")
    ax_c.set_title(state.titles[2], **_TITLE)
    fig.suptitle(state.suptitle, fontsize=12)
    fig._release_overview = {"accuracy": accuracy, "coverage": coverage, "kinds": state.kinds}
    return describe(fig, state.alt)


def update_release_overview(
    fig: Figure,
    epsilon: float,
    *,
    contributions: int,
    group_size: int,
    prior: float,
    delta: float,
    accuracy: float,
    coverage: float,
) -> bool:
    """Bring a figure of :func:`plot_release_overview` to a new setting in place.

    Moves the lines' data, the markers, the icons' fill and hatching and the titles, and
    rescales the axes that :func:`plot_release_overview` autoscales (panels a and b), so the
    figure draws the pixels a fresh one would (tests/helpers/widgets/test__base.py). Returns
    False, changing nothing, for a figure it cannot update (another accuracy or coverage,
    whose lines and labels it does not move): the caller then draws afresh.
    """
    shown = getattr(fig, "_release_overview", None)
    if shown is None or (shown["accuracy"], shown["coverage"]) != (accuracy, coverage):
        return False
    state = _overview_state(
        epsilon,
        contributions=contributions,
        group_size=group_size,
        prior=prior,
        delta=delta,
        accuracy=accuracy,
        coverage=coverage,
    )
    ax_a, ax_b, ax_c = fig.axes
    lines = {line.get_gid(): line for ax in (ax_a, ax_b) for line in ax.get_lines()}
    lines["per_person"].set_ydata(state.eps_all)
    lines["chosen_m"].set_data(*state.chosen_m)
    lines["error"].set_ydata(state.err)
    lines["chosen_group"].set_data(*state.chosen_group)
    for ax in (ax_a, ax_b):
        ax.relim()
        ax.autoscale_view()
    if state.kinds != shown["kinds"]:
        # only the circles whose kind changed are restyled
        circles = ax_c.patches
        for i, (old, new) in enumerate(zip(shown["kinds"], state.kinds, strict=True)):
            if old != new:
                fill, hatch, edge = _ICONS[new]
                circles[i].set(facecolor=fill, hatch=hatch, edgecolor=edge, gid=f"odds_{new}")
        shown["kinds"] = state.kinds
    for ax, title in zip((ax_a, ax_b, ax_c), state.titles, strict=True):
        ax.set_title(title, **_TITLE)
    fig._suptitle.set_text(state.suptitle)
    describe(fig, state.alt)
    return True
