"""Figure function for notebook 11's Census: a zCDP budget split across geographic levels,
each level and the total read three ways.

:data:`CENSUS_LEVELS_ILLUSTRATIVE` is an *illustrative* split of the 2020 redistricting data's
person-table ρ_z across geographic levels (the course's data hold only the two totals);
:func:`census_person_rho` reads those two totals' ρ_z from the registry's ε;
:func:`plot_census_levels` draws the split. The mathematics is :mod:`helpers.budget` and
:mod:`helpers.deployments`. :mod:`helpers.plotting.budget` re-exports every public name, where
notebook 11 reads them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullLocator

from .. import budget as bud
from .. import deployments as dep
from .. import kazan_reiter as kr
from ._alt import describe
from ._style import (
    BLACK,
    BLUE,
    PURPLE,
    SMALL,
    VERMILLION,
    course_style,
)
from .rounding import risk_up

__all__ = [
    "CENSUS_LEVELS_ILLUSTRATIVE",
    "census_person_rho",
    "plot_census_levels",
]

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
