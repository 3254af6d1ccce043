"""Figure functions for notebook 11 (one budget, many releases): data in, Figure out.

The mathematics is :mod:`helpers.budget` (composition, allocation, both sides of the choice)
and :mod:`helpers.deployments` (reading a zCDP guarantee); these functions only draw it.
Plotted artists carry a ``gid`` so tests (and readers of the code) find the data by name.

:data:`SURVEY` is the notebook's example workload (a health survey of 2,000 respondents),
the default of the figures in ``figures/`` and of :func:`helpers.widgets.budget.budget_dashboard`;
:data:`CENSUS_LEVELS_ILLUSTRATIVE` is an *illustrative* split of the 2020 redistricting data's
person-table ρ_z across geographic levels (the course's data hold only the two totals).
"""

from __future__ import annotations

import math
import textwrap
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullLocator

from .. import budget as bud
from .. import deployments as dep
from .. import kazan_reiter as kr
from ._alt import describe, listing
from ._style import (
    BLACK,
    BLUE,
    GREEN,
    ORANGE,
    PURPLE,
    SMALL,
    VERMILLION,
    course_style,
)
from .rounding import allowed_down, risk_up

__all__ = [
    "ACCOUNTINGS",
    "CENSUS_LEVELS_ILLUSTRATIVE",
    "SURVEY",
    "SURVEY_RECORDS",
    "census_person_rho",
    "composition_totals",
    "plot_allocation",
    "plot_census_levels",
    "plot_composition",
    "plot_mechanism_totals",
    "plot_mixed_allocation",
    "plot_query_risk",
    "update_allocation",
    "update_mixed_allocation",
]

#: the public number of respondents of the example survey (each mean's n)
SURVEY_RECORDS = 2_000


def _target(kind: str, k: float, **fields) -> bud.Release:
    """A release weighted by 1/k²: its noise variance counted in units of its own ±k."""
    return bud.Release(kind, k=k, weight=1 / k**2, **fields)


#: The notebook's example workload: six statistics of a health survey of 2,000 respondents,
#: with different accuracy needs (±k with probability c; counts in people, the means and the
#: sum in their own units). Values are clipped to the public bounds before release. Each
#: weight is 1/k²: a split of the budget then compares the noises in units of each release's
#: own ±k (with weight 1, the income's variance in dollars² would swamp the rest).
SURVEY = (
    _target("count", 20.0, label="smokers"),
    _target("count", 10.0, label="diabetic"),
    _target("mean", 0.5, lower=18.0, upper=90.0, n=SURVEY_RECORDS, label="mean age"),
    _target(
        "mean",
        0.2,
        coverage=0.9,
        lower=0.0,
        upper=20.0,
        n=SURVEY_RECORDS,
        label="mean exercise h/week",
    ),
    _target(
        "mean",
        2_000.0,
        coverage=0.9,
        lower=0.0,
        upper=250_000.0,
        n=SURVEY_RECORDS,
        label="mean income",
    ),
    _target("sum", 300.0, lower=0.0, upper=30.0, label="doctor visits (total)"),
)

#: An ILLUSTRATIVE split of the person tables' ρ_z across the geographic levels of the 2020
#: redistricting data, as shares that add up to 1. Not the Census Bureau's allocation (that is
#: published in its documentation, not in the course's data): round numbers of the same
#: shape, to show how a per-level budget reads.
CENSUS_LEVELS_ILLUSTRATIVE = {
    "nation": 0.05,
    "state": 0.30,
    "county": 0.10,
    "tract": 0.20,
    "block group": 0.30,
    "block": 0.05,
}

#: The accountings of :func:`plot_composition`: (key, legend label, colour, line style, marker).
ACCOUNTINGS = (
    ("basic", "pure ε adds: mε", BLACK, "-", "o"),
    ("advanced", "advanced composition (DRV)", VERMILLION, "--", "s"),
    ("optimal", "optimal composition (KOV)", BLUE, "-.", "^"),
    ("zcdp", "zCDP: ε²/2 each, then CKS", GREEN, ":", "D"),
    ("pld", "Laplace PLD (dp_accounting)", ORANGE, "-", "v"),
)


def census_person_rho(delta: float = dep.DEFAULT_DELTA) -> dict:
    """The two tables' ρ_z of the 2020 redistricting data, from the ε the registry states.

    The registry prints ρ_z = 2.56 and 0.07 (rounded) with ε = 17.14 and 2.47 at δ = 10⁻¹⁰
    (:data:`helpers.deployments.CENSUS_2020`); the ρ_z returned are those whose CKS ε at that
    δ is the stated one. They round to the printed values and add up to the published 2.63,
    so rounding is the reading consistent with the registry (notebook 09), which does not say
    how the ε were computed. Returns {table: ρ_z}.
    """
    table = dep.CENSUS_2020
    rho = dep.zcdp_rho_for_epsilon(table["epsilon_stated"].to_numpy(float), delta)
    return dict(zip(table["tables"], (float(r) for r in rho), strict=True))


# --- composition ---------------------------------------------------------------------------


def composition_totals(epsilon: float, releases, *, delta: float = 1e-6) -> dict:
    """Total ε at ``delta`` of m ε-DP (Laplace) releases under each accounting.

    ``releases`` is a sequence of m; returns {key of :data:`ACCOUNTINGS`: array of totals}.
    The basic sum is pure ε (δ = 0); the others hold at ``delta``: advanced composition with
    slack δ′ = δ, Kairouz, Oh & Viswanath's optimal composition, zCDP (an ε-DP release is
    ε²/2-zCDP, Bun & Steinke 2016, Proposition 1.4) converted by CKS, and the privacy-loss
    distribution of Laplace noise of scale 1/ε on a count (exact for that mechanism, up to
    dp_accounting's pessimistic discretisation).
    """
    ms = [int(m) for m in releases]
    totals = {key: [] for key, *_ in ACCOUNTINGS}
    for m in ms:
        totals["basic"].append(bud.compose_epsilon(np.full(m, epsilon)))
        totals["advanced"].append(
            bud.advanced_composition(epsilon, times=m, delta_slack=delta).epsilon
        )
        totals["optimal"].append(bud.optimal_composition_epsilon(delta, epsilon=epsilon, times=m))
        totals["zcdp"].append(bud.zcdp_composition([m * epsilon**2 / 2], delta=delta).epsilon)
        totals["pld"].append(bud.pld_epsilon(delta, "laplace", 1 / epsilon, times=m))
    return {key: np.asarray(values, dtype=float) for key, values in totals.items()}


@course_style
def plot_composition(
    epsilons=(0.1, 1.0), *, max_releases: int = 100, delta: float = 1e-6, points: int = 16
) -> Figure:
    """Total ε(δ) of m releases of the same ε against m, one panel per ε, every accounting.

    Log-log axes; each accounting a colour, a line style and a marker (:data:`ACCOUNTINGS`).
    """
    epsilons = tuple(float(e) for e in epsilons)
    ms = np.unique(np.geomspace(1, max_releases, points).round().astype(int))
    fig = Figure(figsize=(8.6, 4.6))
    axes = fig.subplots(1, len(epsilons), squeeze=False)[0]
    fig.subplots_adjust(left=0.09, right=0.98, top=0.85, bottom=0.3, wspace=0.28)
    summary = []
    for ax, eps in zip(axes, epsilons, strict=True):
        totals = composition_totals(eps, ms, delta=delta)
        for key, label, colour, ls, marker in ACCOUNTINGS:
            ax.plot(
                ms,
                totals[key],
                color=colour,
                ls=ls,
                marker=marker,
                ms=5,
                lw=1.6,
                label=label,
                gid=f"{key}_{eps:g}",
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xlabel("m, releases of the same ε")
        ax.set_ylabel(f"total ε at δ = {risk_up(delta):g}")
        ax.set_title(f"each release ε = {risk_up(eps):g}", fontsize=11)
        ax.grid(alpha=0.3, which="both")
        ax.tick_params(labelsize=10)
        last = {key: float(values[-1]) for key, values in totals.items()}
        best = min(last, key=last.get)
        summary.append(
            f"For ε = {risk_up(eps):g} per release, at m = {ms[-1]}: "
            + listing(
                f"{_ACCOUNTING_WORDS[key]} {risk_up(value):.3g}" for key, value in last.items()
            )
            + f"; the smallest is the {_ACCOUNTING_WORDS[best]}."
        )
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=10, frameon=False)
    fig.suptitle(
        f"The same releases, five ways to add them up (total ε at δ = {risk_up(delta):g}; pure ε at δ = 0)",
        fontsize=12,
    )
    return describe(
        fig,
        f"Total ε of m releases that are each ε-DP, against m from 1 to {ms[-1]} on log-log "
        f"axes, one panel per ε ({listing(f'{risk_up(e):g}' for e in epsilons)}), under five "
        "accountings: the basic sum mε, advanced composition, Kairouz, Oh and Viswanath's "
        "optimal composition, zCDP and the Laplace privacy-loss distribution.",
        *summary,
    )


@course_style
def plot_query_risk(
    scale: float = 5.0, *, releases: int = 15, delta: float = 1e-5, baselines=(0.01, 0.1)
) -> Figure:
    """Kulynych et al. (2025)'s query-answering experiment: the attack advantage of k Laplace
    releases against k, at each baseline and in the worst case, on the composed PLD and on the
    (ε, δ) of the optimal composition (:func:`helpers.budget.query_risk`).

    One panel per baseline; the PLD a solid blue line with circles, (ε, δ) a dashed orange
    line with squares.
    """
    q = bud.query_risk(scale, releases=releases, delta=delta, baselines=baselines)
    names = [f"baseline κ = {k:g}" for k in q.baselines] + ["worst case over κ"]
    fig = Figure(figsize=(10.0, 4.4))
    axes = fig.subplots(1, len(names), sharey=True)
    fig.subplots_adjust(left=0.08, right=0.98, top=0.82, bottom=0.3, wspace=0.1)
    ways = (
        ("pld", q.pld, "on the releases' own PLD", BLUE, "-", "o"),
        ("standard", q.standard, "on the (ε, δ) of optimal composition", ORANGE, "--", "s"),
    )
    for j, (ax, name) in enumerate(zip(axes, names, strict=True)):
        for key, values, label, colour, ls, marker in ways:
            ax.plot(
                q.releases,
                values[:, j],
                color=colour,
                ls=ls,
                marker=marker,
                ms=5,
                lw=1.8,
                label=label,
                gid=f"{key}_{j}",
            )
        ax.set_title(name, fontsize=11)
        ax.set_xlabel("k, releases")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=10)
    axes[0].set_ylabel("advantage, success − baseline")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=10, frameon=False)
    fig.suptitle(
        f"k Laplace releases of scale {scale:g}: the best attack's advantage, two readings "
        f"(δ = {risk_up(delta):g})",
        fontsize=12,
    )
    last = q.releases[-1]
    up = np.ceil(np.r_[q.pld[-1], q.standard[-1]] * 1000) / 1000  # upper bounds, rounded up
    pld_up, standard_up = up[: len(names)], up[len(names) :]
    return describe(
        fig,
        f"The advantage of the best attack over its baseline against the number k of Laplace "
        f"releases of scale {scale:g}, from 1 to {last}, in {len(names)} panels "
        f"({listing(names)}), each read two ways: on the releases' own privacy-loss "
        "distribution (solid, circles) and on the (ε, δ) trade-off curve of the optimal "
        f"composition's ε at δ = {risk_up(delta):g} (dashed, squares).",
        f"At k = {last}: "
        + listing(
            f"{name}, {risk_up(pld_up[j]):.3f} on the PLD and {risk_up(standard_up[j]):.3f} on (ε, δ)"
            for j, name in enumerate(names)
        )
        + ".",
    )


_ACCOUNTING_WORDS = {
    "basic": "basic sum",
    "advanced": "advanced composition",
    "optimal": "optimal composition",
    "zcdp": "zCDP",
    "pld": "Laplace PLD",
}


@course_style
def plot_mechanism_totals(
    workload=SURVEY, *, copies: int = 10, delta: float = 1e-6, epsilon_risk: float | None = None
) -> Figure:
    """Laplace against Gaussian noise as a workload grows: its total ε at δ for 1 … copies copies.

    Each release keeps its accuracy target (the noise each needs is fixed); the workload is
    released ``copies`` times over (think: the same questions asked of more topics), so m
    runs from len(workload) to copies·len(workload). Four totals: Laplace read as pure ε (the
    sum) and through its privacy-loss distribution at δ, Gaussian through zCDP (CKS) and
    exactly (composed Gaussians are one Gaussian whose μ² is the sum).
    """
    size, m, lines = _mechanism_totals(workload, copies, delta)
    styles = {
        "laplace_pure": ("Laplace, pure ε (the sum)", BLUE, "-", "o"),
        "laplace_pld": (f"Laplace, PLD at δ = {risk_up(delta):g}", BLUE, "--", "s"),
        "gaussian_zcdp": (f"Gaussian, zCDP → CKS at δ = {risk_up(delta):g}", VERMILLION, "-.", "^"),
        "gaussian_exact": (f"Gaussian, exact at δ = {risk_up(delta):g}", VERMILLION, ":", "D"),
    }
    fig = Figure(figsize=(8.6, 5.0))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.1, right=0.97, top=0.9, bottom=0.27)
    for key, (label, colour, ls, marker) in styles.items():
        ax.plot(m, lines[key], color=colour, ls=ls, marker=marker, ms=6, label=label, gid=key)
    if epsilon_risk is not None:
        ax.axhline(
            epsilon_risk,
            color=BLACK,
            ls=(0, (1, 3)),
            lw=1.2,
            label=f"the risk allows ε ≤ {allowed_down(epsilon_risk):.4g}",
            gid="epsilon_risk",
        )
    ax.set_xlabel("m, statistics released (the workload repeated)")
    ax.set_ylabel("total ε")
    ax.set_xlim(0, m[-1] + size / 2)
    ax.set_ylim(0, None)
    ax.set_xticks(m if len(m) <= 12 else m[:: math.ceil(len(m) / 12)])
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=10)
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    # like for like: both at the same δ, Laplace on its own privacy-loss distribution; the
    # pure-ε sum (δ = 0) is a different reading, named as such where it is compared
    crossing = _first_below(m, lines["gaussian_exact"], lines["laplace_pld"])
    crossing_pure = _first_below(m, lines["gaussian_exact"], lines["laplace_pure"])
    fig.suptitle(
        f"Laplace or Gaussian? A workload of {size} releases, repeated (each at its own ±k)",
        fontsize=12,
    )
    verdict, pure = _totals_verdicts(m, lines, delta, crossing, crossing_pure)
    return describe(
        fig,
        f"Total ε of a workload of {size} releases repeated 1 to {copies} times (m = {size} to "
        f"{m[-1]} statistics), every release at its own accuracy target: with Laplace noise "
        f"the pure-ε sum grows from {risk_up(lines['laplace_pure'][0]):.3g} to "
        f"{risk_up(lines['laplace_pure'][-1]):.3g} (its privacy-loss distribution at δ = {risk_up(delta):g}: "
        f"{risk_up(lines['laplace_pld'][0]):.3g} to {risk_up(lines['laplace_pld'][-1]):.3g}); with Gaussian "
        f"noise the exact ε at δ = {risk_up(delta):g} grows from {risk_up(lines['gaussian_exact'][0]):.3g} to "
        f"{risk_up(lines['gaussian_exact'][-1]):.3g} (through zCDP: {risk_up(lines['gaussian_zcdp'][0]):.3g} "
        f"to {risk_up(lines['gaussian_zcdp'][-1]):.3g}).",
        verdict,
        pure,
    )


def _mechanism_totals(workload, copies: int, delta: float) -> tuple[int, np.ndarray, dict]:
    """:func:`plot_mechanism_totals`' data: the workload's size, m for 1 … ``copies`` copies,
    and the four totals by key (Laplace pure and PLD at ``delta``; Gaussian via zCDP and
    exact)."""
    lap = bud.budget_for_accuracy(workload)
    gau = bud.budget_for_accuracy(workload, mechanism="gaussian", delta=delta)
    size = len(lap.budgets)
    c = np.arange(1, int(copies) + 1)
    m = size * c
    lines = {
        "laplace_pure": np.array([bud.compose_epsilon(np.tile(lap.budgets, j)) for j in c]),
        "laplace_pld": np.array(
            [
                bud.pld_epsilon(
                    delta, "laplace", lap.scales, sensitivity=lap.sensitivities, times=int(j)
                )
                for j in c
            ]
        ),
        "gaussian_zcdp": np.array(
            [bud.zcdp_composition(np.tile(gau.budgets, j), delta=delta).epsilon for j in c]
        ),
        "gaussian_exact": np.asarray(dep.gaussian_epsilon(c * gau.total, delta), dtype=float),
    }
    return size, m, lines


def _totals_verdicts(m, lines, delta: float, crossing, crossing_pure) -> tuple[str, str]:
    """:func:`plot_mechanism_totals`' two verdict sentences: where Gaussian noise becomes
    cheaper than Laplace read like for like (both at ``delta``), and than Laplace's pure-ε sum."""
    if crossing is None:
        verdict = f"Read like for like at δ = {risk_up(delta):g}, Laplace stays cheaper over the whole range."
    else:
        i = int(np.flatnonzero(m == crossing)[0])
        before = (
            f" (at m = {m[i - 1]} Laplace {risk_up(lines['laplace_pld'][i - 1]):.4g} against Gaussian "
            f"{risk_up(lines['gaussian_exact'][i - 1]):.4g})"
            if i > 0
            else ""
        )
        verdict = (
            f"Read like for like, both at δ = {risk_up(delta):g} (Laplace on its own privacy-loss "
            f"distribution, Gaussian exactly), Laplace is cheaper for a few releases{before} and "
            f"Gaussian noise is cheaper from m = {crossing} on (there Laplace "
            f"{risk_up(lines['laplace_pld'][i]):.4g} against Gaussian {risk_up(lines['gaussian_exact'][i]):.4g}), "
            "because its ε grows like the square root of m."
        )
    pure = (
        f"Against Laplace's pure-ε sum (δ = 0, not like for like) Gaussian at δ = {risk_up(delta):g} is "
        f"cheaper from m = {crossing_pure} on."
        if crossing_pure is not None
        else f"Against Laplace's pure-ε sum (δ = 0, not like for like) Gaussian at δ = {risk_up(delta):g} "
        "is never cheaper here."
    )
    return verdict, pure


def _first_below(m: np.ndarray, gaussian: np.ndarray, laplace: np.ndarray) -> int | None:
    """The first m at which the Gaussian total is below the Laplace one (None if never)."""
    cheaper = gaussian < laplace
    return int(m[np.argmax(cheaper)]) if cheaper.any() else None


# --- allocation ----------------------------------------------------------------------------


def _labels(workload) -> list[str]:
    out = []
    for i, release in enumerate(workload):
        label = getattr(release, "label", None) or f"release {i}"
        k = getattr(release, "k", None)
        coverage = getattr(release, "coverage", 0.95)
        out.append(f"{label}: ±{k:g} ({100 * coverage:g} %)")
    return out


def _risk_words(risk) -> str:
    return (risk if isinstance(risk, bud.Risk) else bud.risk_epsilon(risk)).words()


@course_style
def plot_allocation(
    workload=SURVEY,
    risk=None,
    *,
    mechanism="laplace",
    delta: float = 1e-6,
    title: str | None = None,
    choice: bud.WorkloadChoice | None = None,
    allowed: float | None = None,
) -> Figure:
    """A workload's budget, release by release and in total, against what the risk allows.

    (a) per release: the budget its accuracy target needs (ε_i or ρ_z,i, filled) and the
    share it gets when the risk's total is split (:func:`helpers.budget.choose_workload`:
    meeting every target when feasible, variance-optimal otherwise; hatched), a cross where
    that share misses the target; (b) the running total as the releases are added in order,
    against the risk's total. ``risk`` is a :class:`helpers.budget.Risk` or a number (the
    largest total ε); by default a posterior of at most 0.8 from a prior of ½; ``mechanism``
    the family of noise, "laplace" or "gaussian" or its class (``helpers.mechanisms.Laplace``,
    :class:`helpers.budget.NoiseFamily`). ``choice``
    (:func:`helpers.budget.choose_workload` of these arguments) and ``allowed``
    (:func:`helpers.budget.total_for_risk`), when the caller has them, are not computed again
    (a dashboard's redraw). :func:`update_allocation` moves the figure to new values in place.
    """
    risk, choice, allowed = _allocation_inputs(workload, risk, mechanism, delta, choice, allowed)
    fig = _allocation_figure("allocation", len(workload))
    return _set_allocation(fig, workload, risk, mechanism, delta, title, choice, allowed)


def update_allocation(
    fig: Figure,
    workload=SURVEY,
    risk=None,
    *,
    mechanism="laplace",
    delta: float = 1e-6,
    title: str | None = None,
    choice: bud.WorkloadChoice | None = None,
    allowed: float | None = None,
) -> bool:
    """Bring a :func:`plot_allocation` figure to new values in place (notebook 11's
    dashboard): bars, crosses, running total, the risk's line, labels, limits, titles and
    the text alternative; another number of releases, or a figure of
    :func:`plot_mixed_allocation`, is reshaped to this one's. False, and nothing changed, when
    the figure is not an allocation figure: draw afresh."""
    if getattr(fig, "_course_shape", (None,))[0] not in _KINDS:
        return False
    risk, choice, allowed = _allocation_inputs(workload, risk, mechanism, delta, choice, allowed)
    _shape_allocation(fig, "allocation", len(workload))
    _set_allocation(fig, workload, risk, mechanism, delta, title, choice, allowed)
    return True


def _allocation_inputs(workload, risk, mechanism, delta, choice, allowed) -> tuple:
    risk = bud.risk_posterior(0.8, prior=0.5) if risk is None else risk
    if choice is None:
        choice = bud.choose_workload(workload, risk, mechanism=mechanism, delta=delta)
    if allowed is None:
        allowed = bud.total_for_risk(risk, mechanism=mechanism, delta=delta)
    return risk, choice, allowed


_HEIGHT = 0.38  # of each bar of panel (a), a pair per release


#: each kind of allocation figure: its left margin, the gap between its panels and the
#: title of its panel (b)
_KINDS = {
    "allocation": {"left": 0.29, "wspace": 0.3, "title_b": "(b) the running total"},
    "mixed": {"left": 0.4, "wspace": 0.34, "title_b": "(b) composed"},
}


def _allocation_figure(kind: str, size: int) -> Figure:
    """The artists of an allocation figure of ``size`` releases, without their numbers: the
    setters (:func:`_set_allocation`, :func:`_set_mixed_allocation`) fill those in, on a
    fresh figure and on a dashboard's in-place update alike, so the two cannot differ."""
    fig = Figure(figsize=(9.4, 4.6))
    ax_a, ax_b = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.35, 1]})
    fig.subplots_adjust(right=0.98, top=0.82, bottom=0.27)
    _bars_of(ax_a, np.zeros(size))
    ax_a.plot(
        [], [], "x", color=BLACK, ms=9, mew=2, ls="", label="misses its ±k there", gid="missed"
    )
    # titles at a fixed height (y=1.0, where matplotlib puts them when no tick label is in
    # the way): its per-draw title placement took an eighth of the dashboard's redraw
    ax_a.set_title("(a) each release", fontsize=11, y=1.0)
    ax_a.xaxis.set_major_locator(MaxNLocator(5))
    ax_a.grid(axis="x", alpha=0.3)
    ax_a.tick_params(labelsize=10)
    ax_b.plot(
        np.arange(1, size + 1),
        np.zeros(size),
        color=BLUE,
        marker="o",
        ms=6,
        drawstyle="steps-post",
        gid="running_total",
    )
    ax_b.axhline(0.0, color=VERMILLION, ls="--", lw=1.6, gid="allowed")
    ax_b.set_xlabel("releases added, in order")
    ax_b.grid(alpha=0.3)
    ax_b.tick_params(labelsize=10)
    _shape_allocation(fig, kind, size)
    return fig


def _bars_of(ax, zeros) -> None:
    """Panel (a)'s two bars per release (their widths set later): what its ±k needs, filled,
    and the share of the risk's total, hatched."""
    y = np.arange(len(zeros))[::-1]
    ax.barh(y + _HEIGHT / 2, zeros, _HEIGHT, color=BLUE, gid="needed")
    ax.barh(
        y - _HEIGHT / 2,
        zeros,
        _HEIGHT,
        color="white",
        edgecolor=ORANGE,
        hatch="//",
        lw=1.2,
        gid="split",
    )


def _shape_allocation(fig, kind: str, size: int) -> None:
    """Give an allocation figure the kind's margins and panel title and ``size`` releases'
    room: its height, panel (a)'s bars (made again only when their number changes, in their
    order, under the crosses as on a fresh figure), the limits and ticks that follow the
    number. A dashboard that adds or leaves out a release, or switches to mixed noise, reshapes
    its one figure instead of drawing a new one (issue 42)."""
    ax_a, ax_b = fig.axes
    fig.set_size_inches(9.4, max(4.6, 0.42 * size + 2.9))
    fig.subplots_adjust(left=_KINDS[kind]["left"], wspace=_KINDS[kind]["wspace"])
    ax_b.set_title(_KINDS[kind]["title_b"], fontsize=11, y=1.0)
    if len(ax_a.containers[0].patches) != size:
        for bars in list(ax_a.containers):
            bars.remove()
        _bars_of(ax_a, np.zeros(size))
        (running,) = (line for line in ax_b.lines if line.get_gid() == "running_total")
        running.set_data(np.arange(1, size + 1), np.zeros(size))
    ax_a.set_ylim(-0.7, size - 0.3)
    ax_b.set_xlim(0.5, size + 0.5)
    ax_b.xaxis.set_major_locator(MaxNLocator(min(size, 8), integer=True))
    fig._course_shape = (kind, size)


def _set_panels(fig, labels, needed, split, meets, running, limit, words: dict) -> None:
    """Every number both allocation figures show: the bars' widths and the crosses of panel
    (a), the curve and the risk's line of panel (b), the labels, the limits and the legend
    (rebuilt: its labels carry numbers)."""
    ax_a, ax_b = fig.axes
    size = len(labels)
    y = np.arange(size)[::-1]
    for gid, widths in (("needed", needed), ("split", split)):
        (bars,) = (c for c in ax_a.containers if c.patches[0].get_gid() == gid)
        for patch, width in zip(bars.patches, np.asarray(widths, dtype=float), strict=True):
            patch.set_width(width)
        bars.set_label(words[gid])
    artists = {a.get_gid(): a for ax in (ax_a, ax_b) for a in ax.lines}
    missed = ~meets
    artists["missed"].set_data(split[missed], y[missed] - _HEIGHT / 2)
    ax_a.set_yticks(y, labels, fontsize=10)
    ax_a.set_xlabel(words["axis_a"])
    ax_a.set_xlim(0, 1.08 * max(float(np.max(needed)), float(np.max(split))))
    artists["running_total"].set_ydata(running)
    artists["running_total"].set_label(words["running"])
    allowed = artists["allowed"]
    allowed.set_ydata([limit, limit])
    allowed.set_label(f"the risk allows: {allowed_down(limit):.3g}")
    ax_b.set_ylabel(words["axis_b"])
    ax_b.set_ylim(0, 1.12 * max(float(running[-1]), limit))
    for legend in list(fig.legends):
        legend.remove()
    handles = [*ax_a.get_legend_handles_labels()[0], *ax_b.get_legend_handles_labels()[0]]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=SMALL + 1, frameon=False)


def _set_allocation(fig, workload, risk, mechanism, delta, title, choice, allowed) -> Figure:
    """Every number of :func:`plot_allocation`'s figure, its titles and text alternative."""
    acc, split = choice.accuracy, choice.at_risk
    family = bud.NoiseFamily.of(mechanism)
    unit = family.unit
    labels = _labels(workload)
    size = len(labels)
    missed = ~split.meets
    _set_panels(
        fig,
        labels,
        acc.budgets,
        split.budgets,
        split.meets,
        np.cumsum(acc.budgets),
        allowed,
        {
            "needed": f"{unit}ᵢ its ±k needs",
            "split": f"{unit}ᵢ from the risk's total",
            "running": "total the accuracy needs",
            "axis_a": f"budget per release, {unit}ᵢ",
            "axis_b": f"total {unit}",
        },
    )
    noise = family.label if family.pure else f"{family.label} (δ = {risk_up(delta):g})"
    verdict = (
        f"feasible: total {unit} {risk_up(acc.total):.3g} ≤ {allowed_down(allowed):.3g}"
        if choice.feasible
        else f"infeasible: total {unit} {risk_up(acc.total):.3g} > {allowed_down(allowed):.3g}, "
        f"{int(np.count_nonzero(missed))} of {size} targets missed"
    )
    head = title or f"{size} releases, {noise}; risk: {_risk_words(risk)}"
    fig.suptitle(textwrap.fill(head, 95) + "\n" + verdict, fontsize=12)
    names = [label.split(":")[0] for label in labels]
    shown = [f"{risk_up(v):.3g}" for v in acc.budgets]
    needs = listing(f"{name} {v}" for name, v in zip(names, shown, strict=True))
    # the largest need as the listing shows it: equal shown values are told as a tie, never
    # won by whichever double came out a hair larger
    top = shown[int(np.argmax(acc.budgets))]
    tied = [name for name, v in zip(names, shown, strict=True) if v == top]
    largest = (
        f"The largest need is {tied[0]}'s."
        if len(tied) == 1
        else f"The largest needs, equal as shown, are those of {listing(tied)}."
    )
    return describe(
        fig,
        f"A workload of {size} releases under {noise} against a risk of {_risk_words(risk)}. "
        f"Panel (a), one pair of bars per release: the budget its accuracy target needs "
        f"({needs}), beside the share it gets when the risk's total is split. {largest} "
        f"Panel (b): the running total of the needs "
        f"reaches {risk_up(acc.total):.3g} {unit}, against {allowed_down(allowed):.3g} {unit} the risk allows "
        "(dashed).",
        f"Feasible: every target is met and {allowed_down(allowed - acc.total):.3g} {unit} is left over."
        if choice.feasible
        else f"Infeasible: the split of the risk's total misses {int(np.count_nonzero(missed))} "
        f"of the {size} targets (crosses).",
    )


@lru_cache(maxsize=512)
def _alone(one, delta: float) -> float:
    """The ε at which one release alone is ε-DP except with probability δ, cached by value
    (the release is a frozen mechanism object: equal objects, equal key): a dashboard's
    move of the risk leaves every release at its target where it was."""
    return bud.loss_epsilon(one, delta=delta)


@lru_cache(maxsize=64)
def _running(needed: tuple, kind: str, fpr: float, delta: float) -> np.ndarray:
    """Panel (b) of :func:`plot_mixed_allocation`: the risk read on the composed distribution
    of the first 1, 2, … releases, cached by value (it depends on the releases at their
    targets and the risk's kind, not on the risk's level: a dashboard's risk slider reuses
    it). Read-only, since the cache hands out the same array."""
    if kind == "tpr":
        values = [bud.attack_tpr(list(needed[: j + 1]), fpr=fpr) for j in range(len(needed))]
    elif kind == "epsilon":
        values = [bud.pld_epsilon(delta, list(needed[: j + 1])) for j in range(len(needed))]
    else:
        values = [bud.loss_epsilon(list(needed[: j + 1]), delta=delta) for j in range(len(needed))]
    out = np.array(values)
    out.flags.writeable = False
    return out


@course_style
def plot_mixed_allocation(
    workload=SURVEY,
    risk=None,
    *,
    noises=None,
    delta: float = 1e-6,
    choice: bud.WorkloadChoice | None = None,
) -> Figure:
    """A workload with one noise per release, judged on its own privacy-loss distribution.

    Budgets in different units (ε_i, ρ_z,i) cannot share an axis, so each release is shown by
    the ε at which it alone is ε-DP except with probability δ (:func:`helpers.budget.loss_epsilon`;
    a Laplace release's ε_i itself): (a) at its accuracy target (filled) and at the risk's limit
    (hatched: every scale times one factor, :func:`helpers.budget.choose_workload`), a cross
    where that misses the target; (b) the risk read on the composed distribution as the releases
    are added in order (that ε, or the best test's TPR for a TPR risk), against the risk's limit.
    ``noises``: one name per release ("laplace", "gaussian"); by default Gaussian for the means
    and Laplace for the rest. :func:`update_mixed_allocation` moves the figure in place.
    """
    workload, risk, noises, choice = _mixed_inputs(workload, risk, noises, delta, choice)
    fig = _allocation_figure("mixed", len(workload))
    return _set_mixed_allocation(fig, workload, risk, noises, delta, choice)


def update_mixed_allocation(
    fig: Figure,
    workload=SURVEY,
    risk=None,
    *,
    noises=None,
    delta: float = 1e-6,
    choice: bud.WorkloadChoice | None = None,
) -> bool:
    """Bring a :func:`plot_mixed_allocation` figure to new values in place (notebook 11's
    dashboard); another number of releases, or a figure of :func:`plot_allocation`, is
    reshaped to this one's. False, and nothing changed, when the figure is not an allocation
    figure: draw afresh."""
    if getattr(fig, "_course_shape", (None,))[0] not in _KINDS:
        return False
    workload, risk, noises, choice = _mixed_inputs(workload, risk, noises, delta, choice)
    _shape_allocation(fig, "mixed", len(workload))
    _set_mixed_allocation(fig, workload, risk, noises, delta, choice)
    return True


def _mixed_inputs(workload, risk, noises, delta, choice) -> tuple:
    risk = bud.risk_posterior(0.8, prior=0.5) if risk is None else risk
    risk = risk if isinstance(risk, bud.Risk) else bud.risk_epsilon(risk)
    workload = list(workload)
    if noises is None:
        noises = ["gaussian" if r.kind == "mean" else "laplace" for r in workload]
    if choice is None:
        choice = bud.choose_workload(workload, risk, mechanism=list(noises), delta=delta)
    return workload, risk, noises, choice


def _set_mixed_allocation(fig, workload, risk, noises, delta, choice) -> Figure:
    """Every number of :func:`plot_mixed_allocation`'s figure, its titles and text
    alternative."""
    acc, split = choice.accuracy, choice.at_risk
    classes = [bud.NoiseFamily.of(name).mechanism for name in noises]

    def objects(scales):
        return tuple(
            cls(float(b), sensitivity=float(s))
            for cls, b, s in zip(classes, scales, acc.sensitivities, strict=True)
        )

    needed, at_limit = objects(acc.scales), objects(split.scales)
    own = np.array([_alone(one, delta) for one in needed])
    own_split = np.array([_alone(one, delta) for one in at_limit])
    running = _running(needed, risk.kind, risk.fpr if risk.kind == "tpr" else 0.0, delta)
    if risk.kind == "tpr":
        limit, axis_words = risk.level, f"best test's TPR at FPR {100 * risk.fpr:g} %"
    else:
        limit = risk.level if risk.kind == "epsilon" else bud.total_for_risk(risk)
        axis_words = (
            f"composed ε at δ = {risk_up(delta):g}"
            if risk.kind == "epsilon"
            else f"composed ε with P[ℒ > ε] ≤ {risk_up(delta):g}"
        )
    labels = [
        f"{label} · {bud.NoiseFamily.of(name).mechanism.label}"
        for label, name in zip(_labels(workload), noises, strict=True)
    ]
    size = len(labels)
    _set_panels(
        fig,
        labels,
        own,
        own_split,
        split.meets,
        running,
        limit,
        {
            "needed": "alone, at its ±k",
            "split": "alone, at the risk's limit",
            "running": "composed, at the targets",
            "axis_a": f"each release alone: ε with P[ℒ > ε] ≤ {risk_up(delta):g}",
            "axis_b": axis_words,
        },
    )
    verdict = (
        f"feasible: {risk_up(running[-1]):.3g} ≤ {allowed_down(limit):.3g}"
        if choice.feasible
        else f"infeasible: {risk_up(running[-1]):.3g} > {allowed_down(limit):.3g}; every ±k ×{risk_up(choice.knobs['widen']):.3g} fits"
    )
    head = f"{size} releases, mixed noise, judged on their own privacy-loss distribution; risk: {_risk_words(risk)}"
    fig.suptitle(textwrap.fill(head, 95) + "\n" + verdict, fontsize=12)
    names = [label.split(":")[0] for label in _labels(workload)]
    each = listing(
        f"{name} ({noise}) {risk_up(v):.3g}"
        for name, noise, v in zip(names, noises, own, strict=True)
    )
    return describe(
        fig,
        f"A workload of {size} releases with one noise each, against a risk of "
        f"{_risk_words(risk)}, judged on its own composed privacy-loss distribution. Panel (a), "
        f"one pair of bars per release: the ε at which the release alone is ε-DP except with "
        f"probability {risk_up(delta):g}, at its accuracy target ({each}) and at the risk's limit. "
        f"Panel (b): the risk read on the composed distribution ({axis_words}) as releases "
        f"are added, reaching {risk_up(running[-1]):.3g} against {allowed_down(limit):.3g} allowed (dashed).",
        "Feasible: every target is met within the risk."
        if choice.feasible
        else f"Infeasible: at the risk's limit every ±k is reached only ×{risk_up(choice.knobs['widen']):.3g} "
        "wider (crosses).",
    )


# --- the Census, level by level -------------------------------------------------------------


@course_style
def plot_census_levels(
    levels=None,
    *,
    delta: float = dep.DEFAULT_DELTA,
    prior: float = 0.5,
    p: float = 0.05,
    q: float = 1.0,
    fpr: float = 0.01,
    illustrative: bool = True,
) -> Figure:
    """A zCDP budget split across levels, each level and the total read three ways.

    ``levels`` maps a level's name to its ρ_z (default: :data:`CENSUS_LEVELS_ILLUSTRATIVE`
    times the person tables' ρ_z, plus the housing-unit tables); a last row "all together"
    is their sum (zCDP's composition theorem: the ρ_z add). Panels: (a) ρ_z and the ε it converts to at
    ``delta`` (CKS); (b) Lee & Clifton's two-world posterior at ``prior``; (c) Kazan & Reiter's
    relative-risk bound at (p, q); (d) the TPR at ``fpr`` of the best test between two values
    of one record (neighbours change one record), from
    zCDP alone (:func:`helpers.deployments.zcdp_tpr`), from the Gaussian curve (if every noise
    term is Gaussian) and from the (ε, δ) conversion.
    """
    if levels is None:
        levels = _census_default_levels(delta)
    names = [*levels, "all together"]
    rho = np.array([*(float(v) for v in levels.values()), bud.compose_rho(list(levels.values()))])
    eps = np.asarray(dep.zcdp_to_epsilon(rho, delta), dtype=float)
    post = np.asarray(dep.posterior_bound(eps, prior=prior), dtype=float)
    rr = np.asarray(kr.relative_risk_bound(p, q, eps), dtype=float)
    tpr_zcdp = np.asarray(dep.zcdp_tpr(rho, fpr), dtype=float)
    tpr_gauss = np.asarray(dep.gaussian_tpr_at_fpr(fpr, rho=rho), dtype=float)
    tpr_eps = np.asarray(dep.tpr_at_fpr(fpr, epsilon=eps, delta=delta), dtype=float)

    y = np.arange(len(names))[::-1]
    fig = Figure(figsize=(8.6, 0.36 * len(names) + 3.0))
    axes = fig.subplots(1, 4, sharey=True)
    fig.subplots_adjust(left=0.2, right=0.98, top=0.78, bottom=0.3, wspace=0.14)
    ax_r, ax_p, _, ax_t = axes
    _census_three_panels(axes[:3], y, rho, eps, post, rr, delta=delta, prior=prior, p=p, q=q)
    _census_tpr_panel(ax_t, y, tpr_eps, tpr_zcdp, tpr_gauss, fpr=fpr)
    for ax in axes:
        ax.grid(axis="x", alpha=0.3)
        ax.tick_params(labelsize=10)
        ax.axhline(0.5, color="black", lw=0.8)
    ax_p.xaxis.set_major_locator(MaxNLocator(3))
    ax_t.xaxis.set_major_locator(MaxNLocator(3))
    ax_r.set_yticks(y, names, fontsize=10)
    ax_r.set_ylim(-0.7, len(names) - 0.3)
    fig.legend(
        handles=_census_handles(), loc="lower center", ncol=2, fontsize=SMALL + 1, frameon=False
    )
    head = "2020 Census redistricting data: ρ_z level by level"
    if illustrative:
        head += "\n(ILLUSTRATIVE split of the person tables' ρ_z; the totals are the registry's)"
    fig.suptitle(head, fontsize=11)
    return describe(
        fig,
        f"A zCDP budget split across {len(levels)} levels"
        + (
            " (an illustrative split of the 2020 redistricting data's person tables, plus the "
            "housing-unit tables)"
            if illustrative
            else ""
        )
        + f", each level and all together read three ways. The levels' ρ_z run from "
        f"{risk_up(rho[:-1].min()):.3g} to {risk_up(rho[:-1].max()):.3g} and add up to {risk_up(rho[-1]):.4g} "
        f"(ε {risk_up(eps[-1]):.4g} at δ = {risk_up(delta):g}). All together: posterior {risk_up(post[-1]):.4f} from a "
        f"prior of {prior:g}, relative risk {risk_up(rr[-1]):.3g} at p = {p:g}, and the true-positive "
        f"rate of the best test between two values of one record at a {100 * fpr:g} % "
        "false-positive rate "
        f"{risk_up(tpr_zcdp[-1]):.3f} from zCDP alone, {risk_up(tpr_gauss[-1]):.3f} if all noise is Gaussian, "
        f"{risk_up(tpr_eps[-1]):.3f} from the (ε, δ) conversion.",
        "Each level alone looks modest; the person is protected only by the total, and the "
        "(ε, δ) reading overstates what zCDP allows.",
    )


def _census_default_levels(delta: float) -> dict[str, float]:
    """:func:`plot_census_levels`' default levels: :data:`CENSUS_LEVELS_ILLUSTRATIVE` times the
    person tables' ρ_z at ``delta``, plus the housing-unit tables."""
    tables = census_person_rho(delta)
    person = tables["person"]
    levels = {
        f"{name} (person)": share * person for name, share in CENSUS_LEVELS_ILLUSTRATIVE.items()
    }
    levels["housing units"] = tables["housing unit"]
    return levels


def _census_three_panels(axes, y, rho, eps, post, rr, *, delta, prior, p, q) -> None:
    """Panels (a) to (c) of :func:`plot_census_levels`: ρ_z (labelled with its ε), the
    posterior and the relative risk of each level (circles) and of the total (diamond)."""
    ax_r, ax_p, ax_k = axes
    total = y == 0
    colours = np.where(total, VERMILLION, BLUE)
    marker_of = {True: "D", False: "o"}
    for ax, values, gid in ((ax_r, rho, "rho"), (ax_p, post, "posterior"), (ax_k, rr, "risk")):
        for is_total in (False, True):
            sel = total == is_total
            ax.scatter(
                values[sel],
                y[sel],
                color=colours[sel][0] if sel.any() else BLUE,
                marker=marker_of[is_total],
                s=45,
                zorder=3,
                gid=f"{gid}_{'total' if is_total else 'levels'}",
            )
    for i in range(len(y)):
        ax_r.annotate(
            f"ε {risk_up(eps[i]):.3g}",
            (rho[i], y[i]),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=SMALL,
        )
    ax_r.set_xscale("log")
    ax_r.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax_r.xaxis.set_minor_locator(NullLocator())
    ax_r.set_xlim(rho.min() / 2, rho.max() * 12)
    ax_r.set_xlabel("ρ_z (log scale)")
    ax_r.set_title(f"(a) ρ_z, and ε\nat δ = {risk_up(delta):g}", fontsize=10)
    ax_p.set_xlim(min(prior, 0.5) - 0.03, 1.03)
    ax_p.axvline(prior, color="grey", ls=":", lw=1)
    ax_p.set_xlabel(f"posterior\n(prior {prior:g})")
    ax_p.set_title("(b) Lee & Clifton", fontsize=10)
    ax_k.set_xscale("log")
    ax_k.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax_k.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax_k.xaxis.set_minor_locator(NullLocator())
    ax_k.set_xlabel(f"relative risk\n(p = {p:g}, q = {q:g})")
    ax_k.set_title("(c) Kazan & Reiter", fontsize=10)


def _census_tpr_panel(ax, y, tpr_eps, tpr_zcdp, tpr_gauss, *, fpr: float) -> None:
    """Panel (d) of :func:`plot_census_levels`: the best test's TPR at ``fpr``, three ways."""
    series = (
        (tpr_eps, "X", BLACK, "filled", "from (ε, δ)", "tpr_epsilon"),
        (tpr_zcdp, "s", BLUE, "filled", "from zCDP alone", "tpr_zcdp"),
        (tpr_gauss, "o", PURPLE, "hollow", "if all noise is Gaussian", "tpr_gaussian"),
    )
    for values, marker, colour, fill, _label, gid in series:
        style = (
            {"color": colour}
            if fill == "filled"
            else {"facecolors": "none", "edgecolors": colour, "linewidths": 1.5}
        )
        ax.scatter(
            values, y, marker=marker, s=55 if fill == "hollow" else 40, zorder=3, gid=gid, **style
        )
    ax.axvline(fpr, color="grey", ls=":", lw=1)
    ax.set_xlim(-0.03, 1.03)
    ax.set_xlabel(f"best test's TPR\nat FPR {100 * fpr:g} %")
    ax.set_title("(d) hypothesis test", fontsize=10)


def _census_handles() -> list[Line2D]:
    """The legend entries of :func:`plot_census_levels`."""
    return [
        Line2D([], [], marker="o", ls="", color=BLUE, label="one level's ρ_z"),
        Line2D([], [], marker="D", ls="", color=VERMILLION, label="all levels together (ρ_z adds)"),
        Line2D([], [], marker="X", ls="", color=BLACK, label="(d): TPR from the (ε, δ) conversion"),
        Line2D(
            [], [], marker="s", ls="", color=BLUE, label="(d): from zCDP alone (every mechanism)"
        ),
        Line2D(
            [],
            [],
            marker="o",
            ls="",
            markerfacecolor="none",
            markeredgecolor=PURPLE,
            color=PURPLE,
            label="(d): if every noise term is Gaussian",
        ),
    ]
