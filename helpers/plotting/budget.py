"""Figure functions for notebook 11 (one budget, many releases): data in, Figure out.

The mathematics is :mod:`helpers.budget` (composition, allocation, both sides of the choice)
and :mod:`helpers.deployments` (reading a zCDP guarantee); these functions only draw it.
Plotted artists carry a ``gid`` so tests (and readers of the code) find the data by name.

:data:`SURVEY` is the notebook's example workload (a health survey of 2,000 respondents),
the default of the figures in ``figures/`` and of :func:`helpers.widgets.budget.budget_dashboard`;
:data:`CENSUS_LEVELS_ILLUSTRATIVE` is an *illustrative* split of the 2020 redistricting data's
person-table ρ_z across geographic levels (the course's data hold only the two totals).

The figures are in three modules by topic: composition and the choice of noise here,
the allocation of a workload's budget (and :data:`SURVEY`) in :mod:`helpers.plotting.allocation`,
the Census's levels in :mod:`helpers.plotting.census`. This module re-exports the other two's
public names, so notebooks 11 and 12 read every figure of notebook 11 from here.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullLocator

from .. import budget as bud
from .. import deployments as dep
from ._alt import describe, listing
from ._style import (
    BLACK,
    BLUE,
    GREEN,
    ORANGE,
    VERMILLION,
    course_style,
)

# the allocation and the Census, re-exported: notebooks 11 and 12 read them from here
from .allocation import (
    SURVEY,
    SURVEY_RECORDS,
    plot_allocation,
    plot_mixed_allocation,
    update_allocation,
    update_mixed_allocation,
)
from .census import CENSUS_LEVELS_ILLUSTRATIVE, census_person_rho, plot_census_levels
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

#: The accountings of :func:`plot_composition`: (key, legend label, colour, line style, marker).
ACCOUNTINGS = (
    ("basic", "pure ε adds: mε", BLACK, "-", "o"),
    ("advanced", "advanced composition (DRV)", VERMILLION, "--", "s"),
    ("optimal", "optimal composition (KOV)", BLUE, "-.", "^"),
    ("zcdp", "zCDP: ε²/2 each, then CKS", GREEN, ":", "D"),
    ("pld", "Laplace PLD (dp_accounting)", ORANGE, "-", "v"),
)


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
