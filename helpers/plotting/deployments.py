"""Figure functions for notebook 09 (ε in the wild): every deployment read three ways, and
one guarantee read three ways.

:func:`plot_deployments` draws the registry's usable deployments beside their three views;
:func:`plot_three_views` one guarantee (:func:`update_three_views` moves it in place, for the
notebook's dashboard). The figures of notebook 10 (choose your ε) are in
:mod:`helpers.plotting.choose`; they are re-exported here, where notebook 10 and the
dashboards import them.

Plotted artists carry a ``gid`` so tests (and readers of the code) find the data by name.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import (
    FuncFormatter,
    LogFormatter,
    LogLocator,
    MaxNLocator,
    NullFormatter,
    NullLocator,
    ScalarFormatter,
)

from .. import deployments as dep
from .. import kazan_reiter as kr
from ._alt import describe
from ._style import (
    BLACK,
    BLUE,
    GREEN,
    ORANGE,
    PURPLE,
    SKY_BLUE,
    VERMILLION,
    YELLOW,
    course_style,
    in_course_style,
)

# notebook 10's figures, re-exported (``from helpers.plotting import deployments as plots``)
from .choose import kr_switch as kr_switch
from .choose import plot_choice, plot_durham_choice, update_choice
from .rounding import risk_up

__all__ = [
    "MODEL_FILLS",
    "UNIT_COLOURS",
    "UNIT_MARKERS",
    "plot_choice",
    "plot_deployments",
    "plot_durham_choice",
    "plot_three_views",
    "update_choice",
    "update_three_views",
]

# what one unit of privacy protects (helpers.deployments.UNIT_GROUPS, finest first): each
# group its own Okabe & Ito colour and its own marker, so the groups read without colour
# vision too (every two of the eight colours stay ΔE ≥ 14 apart under simulated deuteranopia
# and protanopia); the deployment model is the marker's fill. A part of a day points down
# beside the day's triangle pointing up. Yellow, faint on white, goes to the group with the
# fewest rows (one, central: filled, with a dark edge) and is outlined in dark when hollow.
UNIT_COLOURS = {
    "one event or record": GREEN,
    "part of a day of a user": VERMILLION,
    "one day of a user": ORANGE,
    "part of a month of a user": YELLOW,
    "one month of a user": PURPLE,
    "one device of a user": SKY_BLUE,
    "one person or entity": BLUE,
    "not stated": BLACK,
}
UNIT_MARKERS = {
    "one event or record": "s",
    "part of a day of a user": "v",
    "one day of a user": "^",
    "part of a month of a user": "P",
    "one month of a user": "D",
    "one device of a user": "*",
    "one person or entity": "o",
    "not stated": "X",
}
# a star's area is under half its bounding square's: drawn larger to read as large as the rest
_AREA = {"*": 2.2}
# colours too light on white to carry a hollow marker's outline alone
_LIGHT = frozenset({YELLOW})
# the dark edge of every filled marker (the yellow one needs it; the rest match it)
_EDGE = {"edgecolors": "black", "linewidths": 0.5}
MODEL_FILLS = {"Central": "filled", "Local": "hollow", "Varies": "ring inside"}
_FPRS = (0.01, 0.10)


def _short(name: str, width: int = 36) -> str:
    name = name.replace("Disclosure Avoidance System for ", "Census DAS: ")
    name = name.replace("Demographic and Housing Characteristics", "DHC")
    return name if len(name) <= width else name[: width - 1] + "…"


def _labels(rows: pd.DataFrame) -> list[str]:
    names, curators, years = rows["name"], rows["curators"], rows["year"]
    return [
        f"{_short(n, 30)} ({_short(c.split(';')[0].replace('U.S. Census Bureau', 'Census'), 12)}, {y})"
        for n, c, y in zip(names, curators, years, strict=True)
    ]


@course_style
def plot_deployments(
    table: pd.DataFrame | None = None, *, prior: float = 0.5, p: float = 0.05, q: float = 1.0
) -> Figure:
    """Every usable deployment by ε (log scale) beside its three views, one row each.

    Panels: (a) ε (colour and marker: privacy-unit group; fill: central, local or varying
    model; zCDP rows at their converted ε, with the simple conversion as a grey tick); (b) Lee & Clifton's
    two-world posterior bound at ``prior``; (c) Kazan & Reiter's relative-risk bound at
    (``p``, ``q``), log scale; (d) the best membership test's TPR at FPR 1 % and 10 % from the
    (ε, δ) curve (filled) and, for zCDP rows, from the Gaussian curve μ = √(2ρ_z) (hollow).
    """
    rows = dep.usable(dep.load() if table is None else table)
    eps = rows["epsilon_used"].to_numpy(float)
    delta = rows["delta_used"].to_numpy(float)
    y = np.arange(len(rows))
    colours = [UNIT_COLOURS[g] for g in rows["unit_group"]]
    # 10.8 inches: shown at about 0.8× in a notebook's 868-px output area, 10-pt text stays
    # above 11 screen pixels (tests/test_legibility.py). Rows 0.22 inch apart, the titles and
    # the legend in fixed inches: the 33 usable rows make a figure about as tall as wide, which
    # a 1280 × 720 slide shows at half its width without running below it (instructor/slides.py)
    row, top, bottom = 0.22, 1.3, 1.75
    height = row * len(rows) + top + bottom
    fig = Figure(figsize=(10.8, height))
    axes = fig.subplots(1, 4, sharey=True, gridspec_kw={"width_ratios": [1.2, 1, 1, 1]})
    fig.subplots_adjust(
        left=0.345, right=0.975, top=1 - top / height, bottom=bottom / height, wspace=0.12
    )
    ax_e, ax_post, ax_rr, ax_tpr = axes

    zcdp = rows["epsilon_simple"].notna().to_numpy()
    _epsilon_panel(ax_e, rows, eps, y, zcdp)
    for ax in axes:
        ax.grid(axis="x", alpha=0.3)
        ax.tick_params(labelsize=10)
    markers = [UNIT_MARKERS[g] for g in rows["unit_group"]]
    post = _posterior_panel(ax_post, eps, y, colours, markers, prior=prior)
    rr = _relative_risk_panel(ax_rr, eps, y, colours, markers, p=p, q=q)
    _tpr_panel(ax_tpr, rows, eps, delta, y, colours, zcdp)
    _deployments_legend(fig, rows)
    fig.suptitle(
        f"{len(rows)} deployments with usable parameters (OpenDP Deployments Registry);\n"
        "zCDP rows with only ρ_z converted at δ = 1e-10",
        fontsize=12,
    )
    tpr = dep.tpr_at_fpr(0.01, epsilon=eps, delta=delta)
    return describe(
        fig,
        f"{len(rows)} deployments of the OpenDP Deployments Registry with usable parameters, one "
        f"row each, sorted by ε: (a) ε on a log scale, from {risk_up(eps.min()):.3g} to {risk_up(eps.max()):.4g}; "
        f"(b) Lee & Clifton's largest posterior from a prior of {prior:g}, {risk_up(post.min()):.3f} to "
        f"{risk_up(post.max()):.4f}; (c) Kazan & Reiter's relative-risk bound at p = {p:g}, q = {q:g}, "
        f"{risk_up(rr.min()):.3g} to {risk_up(rr.max()):.3g}; (d) the best membership test's true-positive rate "
        f"at a 1 % false-positive rate, {risk_up(tpr.min()):.3f} to {risk_up(tpr.max()):.3f}. Colour and marker "
        "give the privacy unit, the fill the deployment model.",
        f"{int(np.sum(post > 0.99))} of the {len(rows)} allow a posterior above 0.99 from a "
        f"prior of {prior:g}: for them ε promises little against a two-world adversary.",
    )


def _epsilon_panel(ax, rows: pd.DataFrame, eps: np.ndarray, y: np.ndarray, zcdp: np.ndarray):
    """Panel (a) of :func:`plot_deployments`: ε per row, colour and marker by privacy unit, fill
    by deployment model; zCDP rows' simple conversion as a black tick."""
    units = rows["unit_group"].to_numpy()
    for model, fill in MODEL_FILLS.items():
        for unit, marker in UNIT_MARKERS.items():
            sel = ((rows["model"] == model).to_numpy()) & (units == unit)
            if not sel.any():
                continue
            colour = UNIT_COLOURS[unit]
            ax.scatter(
                eps[sel],
                y[sel],
                marker=_dotted(marker) if fill == "ring inside" else marker,
                s=55 * _AREA.get(marker, 1.0),
                zorder=3,
                gid=f"epsilon_{model}_{unit}",
                **_fill_style(fill, colour),
            )
    ax.scatter(
        rows["epsilon_simple"].to_numpy(float)[zcdp],
        y[zcdp],
        marker="|",
        s=120,
        color="black",
        zorder=2,
        gid="epsilon_simple",
    )
    ax.set_xscale("log")
    ax.set_xlabel("ε (log scale)")
    ax.set_title("(a) published or\nconverted ε", fontsize=11)
    ax.set_yticks(y, _labels(rows), fontsize=10)
    ax.set_ylim(-0.7, len(rows) - 0.3)


def _posterior_panel(ax, eps, y, colours, markers, *, prior: float) -> np.ndarray:
    """Panel (b) of :func:`plot_deployments`: Lee & Clifton's two-world posterior bound at
    ``prior``; returns the bounds."""
    post = dep.posterior_bound(eps, prior=prior)
    sizes = [40 * _AREA.get(m, 1.0) for m in markers]
    ax.scatter(post, y, c=colours, s=sizes, zorder=3, gid="posterior", **_EDGE)
    _unit_markers(ax.collections[-1], markers)
    ax.axvline(prior, color="grey", ls=":", lw=1)
    ax.set_xlim(min(prior, 0.5) - 0.02, 1.02)
    ax.set_xlabel(f"largest posterior\n(prior {prior:g})")
    ax.set_title("(b) Lee & Clifton,\ntwo worlds", fontsize=11)
    return post


def _relative_risk_panel(ax, eps, y, colours, markers, *, p: float, q: float) -> np.ndarray:
    """Panel (c) of :func:`plot_deployments`: Kazan & Reiter's relative-risk bound at (``p``,
    ``q``), log scale; returns the bounds."""
    rr = np.asarray(dep.relative_risk_bound(p, q, eps), dtype=float)
    sizes = [40 * _AREA.get(m, 1.0) for m in markers]
    ax.scatter(rr, y, c=colours, s=sizes, zorder=3, gid="relative_risk", **_EDGE)
    _unit_markers(ax.collections[-1], markers)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(f"relative-risk bound\n(p = {p:g}, q = {q:g})")
    ax.set_title("(c) Kazan & Reiter,\nTheorem 1", fontsize=11)
    return rr


def _tpr_panel(ax, rows: pd.DataFrame, eps, delta, y, colours, zcdp: np.ndarray) -> None:
    """Panel (d) of :func:`plot_deployments`: the best membership test's TPR at each of
    ``_FPRS`` from the (ε, δ) curve (filled) and, for zCDP rows, the Gaussian curve (hollow)."""
    for fpr, marker in zip(_FPRS, ("o", "D"), strict=True):
        tpr = dep.tpr_at_fpr(fpr, epsilon=eps, delta=delta)
        ax.scatter(tpr, y, c=colours, marker=marker, s=40, zorder=3, gid=f"tpr_{fpr:g}", **_EDGE)
        rho = rows["rho"].to_numpy(float)
        g = dep.gaussian_tpr_at_fpr(fpr, rho=rho[zcdp])
        ax.scatter(
            g,
            y[zcdp],
            facecolors="none",
            edgecolors=[c for c, s in zip(colours, zcdp, strict=True) if s],
            marker=marker,
            s=70,
            zorder=4,
            gid=f"gaussian_tpr_{fpr:g}",
        )
    for fpr in _FPRS:
        ax.axvline(fpr, color="grey", ls=":", lw=1)
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("best test's TPR at\nFPR 1 % ●, 10 % ◆")
    ax.set_title("(d) hypothesis\ntest (f-DP)", fontsize=11)


def _deployments_legend(fig: Figure, rows: pd.DataFrame) -> None:
    """The legend of :func:`plot_deployments`: the privacy units and deployment models present
    in ``rows``, and the two zCDP conversions."""
    unit_handles = [
        Line2D(
            [],
            [],
            marker=UNIT_MARKERS[g],
            ls="",
            markersize=8 * _AREA.get(UNIT_MARKERS[g], 1.0) ** 0.5,
            color=c,
            markeredgecolor="black",
            markeredgewidth=0.5,
            label=g,
        )
        for g, c in UNIT_COLOURS.items()
        if g in set(rows["unit_group"])
    ]
    model_handles = [
        Line2D(
            [],
            [],
            # a shape no privacy unit uses: the legend entry is about the fill only
            marker=_dotted("p") if fill == "ring inside" else "p",
            ls="",
            markersize=8,
            color="0.3",
            markerfacecolor="0.3" if fill == "filled" else "white",
            markeredgecolor="0.3",
            label=f"{model} model ({fill})",
        )
        for model, fill in MODEL_FILLS.items()
        if model in set(rows["model"])
    ]

    extra = [
        Line2D(
            [], [], marker="|", ls="", color="black", markersize=10, label="zCDP: simple conversion"
        ),
        Line2D(
            [],
            [],
            marker="o",
            ls="",
            markerfacecolor="none",
            markeredgecolor="black",
            label="zCDP: Gaussian curve (assumed)",
        ),
    ]
    fig.legend(
        handles=unit_handles + model_handles + extra,
        loc="lower center",
        ncol=4,
        fontsize=10,
        frameon=False,
        title="privacy unit protected (colour and marker) · deployment model (fill, panel a)",
        title_fontsize=10,
    )


def _fill_style(fill: str, colour: str) -> dict:
    """A scatter's colours for a deployment model: filled, or hollow (with a small ring inside
    for a model that varies)."""
    if fill == "filled":
        return {"c": [colour], **_EDGE}
    style = {"facecolors": "white", "edgecolors": [colour], "linewidths": 1.6}
    if colour in _LIGHT:  # a dark rim under the light outline
        from matplotlib import patheffects

        style["path_effects"] = [
            patheffects.Stroke(linewidth=2.6, foreground="0.25"),
            patheffects.Normal(),
        ]
    return style


def _dotted(marker: str):
    """The marker's outline with a small ring inside (a model that varies)."""
    from matplotlib.markers import MarkerStyle
    from matplotlib.path import Path

    style = MarkerStyle(marker)
    outline = style.get_path().transformed(style.get_transform())
    # the ring at the centre of the shape's area (a triangle's lies a third of its height
    # from the base)
    centre = {"^": -0.08, "v": 0.08}.get(marker, 0)
    return Path.make_compound_path(outline, Path.circle((0, centre), 0.17))


def _unit_markers(collection, markers) -> None:
    """One marker per point of a scatter (the privacy unit of each row)."""
    from matplotlib.markers import MarkerStyle

    paths = []
    for marker in markers:
        style = MarkerStyle(marker)
        paths.append(style.get_path().transformed(style.get_transform()))
    collection.set_paths(paths)


def _three_views_shape(epsilon, delta, rho, title, q) -> tuple:
    """What fixes the structure of :func:`plot_three_views`'s figure: whether there is a
    zCDP curve (ρ_z given), whether the exp(2ε) line is on the scale and whether the
    relative-risk axis has minor ticks. Within one shape every value moves in place, the
    guarantee (ε, δ, ρ_z and the title) included."""
    rr = dep.relative_risk_bound(_RISK_PS, q, epsilon)
    naive = kr.naive_bound(epsilon)  # inf beyond the float range (math.exp raised there)
    return (
        rho is None,
        naive <= 100 * float(np.max(rr)),
        float(np.max(rr)) < 10 * float(np.min(rr)),
    )


#: the prior axis of the posterior panel and the false-positive rates of the ROC panel
_PRIORS = np.linspace(0.001, 0.999, 200)
_ROC_FPR = np.concatenate([[0.0], np.geomspace(1e-4, 1, 300)])


def _off_scale_label(naive: float) -> str:
    return f"exp(2ε) = {risk_up(naive):.2g}\n(off scale)"


def _gaussian_label(rho: float) -> str:
    return f"Gaussian, μ = {risk_up(math.sqrt(2 * rho)):.3g}"


def _three_views_heading(epsilon, delta, rho, title) -> str:
    heading = title or (
        f"ε = {risk_up(epsilon):.4g}, δ = {risk_up(delta):.3g}"
        + ("" if rho is None else f", ρ_z = {risk_up(rho):g}")
    )
    # a deployment's name, curator and unit run past the figure's width in one line
    return textwrap.fill(heading, width=90, max_lines=2, placeholder=" …")


#: the p axis of the relative-risk panel
_RISK_PS = np.geomspace(1e-3, 1, 200)


def _three_views_text(fig, epsilon, delta, rho, prior, p, q, title) -> Figure:
    title = title or (
        f"ε = {risk_up(epsilon):.4g}, δ = {risk_up(delta):.3g}"
        + ("" if rho is None else f", ρ_z = {risk_up(rho):g}")
    )
    at_1, at_10 = dep.tpr_at_fpr(np.array(_FPRS), epsilon=epsilon, delta=delta)
    return describe(
        fig,
        f"One guarantee read three ways ({title}): the largest posterior against the prior, "
        f"{risk_up(float(dep.posterior_bound(epsilon, prior=prior))):.4f} from a prior of {prior:g}; "
        f"Kazan & Reiter's relative-risk bound against the prior p of inclusion (log axes), "
        f"{risk_up(float(dep.relative_risk_bound(p, q, epsilon))):.4g} at p = {p:g}; and the best "
        f"membership test's ROC curve, true-positive rate {risk_up(float(at_1)):.4f} at a 1 % and "
        f"{risk_up(float(at_10)):.4f} at a 10 % false-positive rate"
        + (
            f", beside the Gaussian curve μ = {risk_up(math.sqrt(2 * rho)):.3g} (dashed)"
            if rho is not None
            else ""
        )
        + ".",
        "The closer the posterior and the true-positive rate come to 1, the less the guarantee "
        "protects.",
    )


def _gid(ax, gid: str):
    return next(a for a in ax.get_children() if a.get_gid() == gid)


def update_three_views(
    fig: Figure,
    epsilon: float,
    delta: float = 0.0,
    *,
    rho: float | None = None,
    prior: float = 0.5,
    p: float = 0.5,
    q: float = 1.0,
    title: str | None = None,
) -> bool:
    """Bring a :func:`plot_three_views` figure to a new guarantee, prior, p and q in place
    (every curve and marker, the exp(2ε) line or its legend entry, the Gaussian curve's
    legend entry, the relative-risk axis's label and limits, the title, the text
    alternative). A guarantee of another shape (a ρ_z curve appears or goes, the exp(2ε) line
    leaves or joins the scale, the minor ticks change) redraws the panel it concerns on the
    same figure (:func:`_reshape_three_views`). False, and nothing changed, for a figure of
    another kind: draw afresh."""
    if not hasattr(fig, "_course_guarantee"):
        return False
    shape = _three_views_shape(epsilon, delta, rho, title, q)
    if fig._course_shape != shape:
        _reshape_three_views(fig, shape, epsilon, delta, rho, p, q)
    ax1, ax2, ax3 = fig.axes
    if fig._course_guarantee != (epsilon, delta, rho, title):
        fig._course_guarantee = (epsilon, delta, rho, title)
        _gid(ax1, "posterior_curve").set_ydata(dep.posterior_bound(epsilon, prior=_PRIORS))
        naive = kr.naive_bound(epsilon)
        if fig._course_shape[1]:
            _gid(ax2, "naive").set_ydata([naive, naive])
        else:
            ax2.get_legend().get_texts()[0].set_text(_off_scale_label(naive))
        _gid(ax3, "roc").set_ydata(dep.tpr_at_fpr(_ROC_FPR, epsilon=epsilon, delta=delta))
        if rho is not None:
            _gid(ax3, "roc_gaussian").set_ydata(dep.gaussian_tpr_at_fpr(_ROC_FPR, rho=rho))
            ax3.get_legend().get_texts()[1].set_text(_gaussian_label(rho))
        marks = np.array(_FPRS)
        _gid(ax3, "roc_marker").set_ydata(dep.tpr_at_fpr(marks, epsilon=epsilon, delta=delta))
        fig._suptitle.set_text(_three_views_heading(epsilon, delta, rho, title))
    _gid(ax1, "posterior_marker").set_data([prior], [dep.posterior_bound(epsilon, prior=prior)])
    _gid(ax2, "risk_curve").set_ydata(dep.relative_risk_bound(_RISK_PS, q, epsilon))
    _gid(ax2, "risk_marker").set_data([p], [dep.relative_risk_bound(p, q, epsilon)])
    ax2.set_xlabel(f"prior p of inclusion (q = {q:g})")
    ax2.relim()
    ax2.autoscale_view()
    _three_views_text(fig, epsilon, delta, rho, prior, p, q, title)
    return True


@course_style
def plot_three_views(
    epsilon: float,
    delta: float = 0.0,
    *,
    rho: float | None = None,
    prior: float = 0.5,
    p: float = 0.5,
    q: float = 1.0,
    title: str | None = None,
) -> Figure:
    """One guarantee, three readings: posterior vs prior, relative risk vs p, the ROC curve.

    :func:`update_three_views` moves prior, p and q in place (the dashboard of notebook 09).
    """
    # 9.6 inches: 864 px as a dashboard image (90 dpi), unscaled in a notebook's output area
    fig = Figure(figsize=(9.6, 4.1))
    ax1, ax2, ax3 = fig.subplots(1, 3)
    fig.subplots_adjust(left=0.075, right=0.98, top=0.78, bottom=0.16, wspace=0.36)
    fig._course_shape = shape = _three_views_shape(epsilon, delta, rho, title, q)
    fig._course_guarantee = (epsilon, delta, rho, title)
    naive_on_scale, minor_ticks = shape[-2:]

    _posterior_view(ax1, epsilon, prior)
    _relative_risk_view(ax2, epsilon, p, q, naive_on_scale=naive_on_scale, minor_ticks=minor_ticks)
    _roc_view(ax3, epsilon, delta, rho)
    for ax in (ax1, ax2, ax3):
        _finish_view(ax, linear=ax is not ax2)
    fig.suptitle(_three_views_heading(epsilon, delta, rho, title), fontsize=12)
    return _three_views_text(fig, epsilon, delta, rho, prior, p, q, title)


def _finish_view(ax, *, linear: bool) -> None:
    """What every panel of :func:`plot_three_views` shares: tick labels, grid and, on linear
    axes, six ticks per axis. Explicit title heights (y=) skip matplotlib's per-draw title
    placement, and six ticks per linear axis: both keep the dashboard's redraw short."""
    ax.tick_params(labelsize=10)
    ax.grid(alpha=0.3)
    if linear:
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_locator(MaxNLocator(6, steps=[1, 2, 5, 10]))


def _reshape_three_views(fig, shape, epsilon, delta, rho, p, q) -> None:
    """Give a :func:`plot_three_views` figure another shape in place: the relative-risk panel
    (the exp(2ε) line on or off the scale, minor ticks) or the ROC panel (a ρ_z curve or none)
    cleared and drawn again, as a fresh figure draws it (in the course's colours), so a
    dashboard keeps its one figure when the deployment changes (issue 42). The caller then
    sets the numbers, the guarantee's included."""
    _, ax2, ax3 = fig.axes
    old = fig._course_shape

    def draw() -> None:
        if old[1:] != shape[1:]:
            ax2.clear()
            _relative_risk_view(ax2, epsilon, p, q, naive_on_scale=shape[1], minor_ticks=shape[2])
            _finish_view(ax2, linear=False)
        if old[0] != shape[0]:
            ax3.clear()
            _roc_view(ax3, epsilon, delta, rho)
            _finish_view(ax3, linear=True)

    in_course_style(fig, draw)
    fig._course_shape = shape
    fig._course_guarantee = None  # every number of the guarantee is set again


def _posterior_view(ax, epsilon: float, prior: float) -> None:
    """:func:`plot_three_views`' left panel: Lee & Clifton's largest posterior against the
    prior, with a marker at ``prior``."""
    priors = _PRIORS
    ax.plot(priors, dep.posterior_bound(epsilon, prior=priors), color="C0", gid="posterior_curve")
    ax.plot(priors, priors, color="black", ls=":", lw=1, label="no release")
    ax.plot(
        [prior],
        [dep.posterior_bound(epsilon, prior=prior)],
        "o",
        color="C0",
        ms=8,
        gid="posterior_marker",
    )
    ax.set_xlabel("prior on the true world")
    ax.set_ylabel("largest posterior")
    ax.set_title("Lee & Clifton: two worlds", fontsize=11, y=1.01)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=10, loc="lower right")


def _relative_risk_view(
    ax, epsilon: float, p: float, q: float, *, naive_on_scale: bool, minor_ticks: bool
) -> None:
    """:func:`plot_three_views`' middle panel: Kazan & Reiter's relative-risk bound against the
    prior p of inclusion (log-log), a marker at ``p``, and Corollary 1's exp(2ε) when it is on
    the scale."""
    rr = dep.relative_risk_bound(_RISK_PS, q, epsilon)
    ax.plot(_RISK_PS, rr, color="C1", gid="risk_curve")
    ax.plot([p], [dep.relative_risk_bound(p, q, epsilon)], "o", color="C1", ms=8, gid="risk_marker")
    naive = kr.naive_bound(epsilon)  # inf beyond the float range (math.exp raised there)
    if naive_on_scale:
        ax.axhline(naive, color="black", ls="--", lw=1, label="exp(2ε) (Corollary 1)", gid="naive")
    else:  # drawing it would squash the curve into a line at the bottom
        ax.plot(
            [],
            [],
            color="black",
            ls="--",
            lw=1,
            label=_off_scale_label(naive),
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    # plain numbers (2, 3, 10, 100), not 2×10⁰; minor ticks (2, 3, 5, labelled) only where the
    # curve spans less than a decade: every tick costs redraw time in the dashboard
    ax.xaxis.set_minor_locator(NullLocator())
    # 0.001 … 1 in plain digits: no mathtext to typeset on every redraw
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:g}"))
    ax.yaxis.set_major_formatter(LogFormatter())
    if minor_ticks:
        ax.yaxis.set_minor_locator(LogLocator(subs=(2.0, 3.0, 5.0)))
        ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 2)))
    else:
        ax.yaxis.set_minor_locator(NullLocator())
    ax.set_xlabel(f"prior p of inclusion (q = {q:g})")
    ax.set_ylabel("relative-risk bound")
    ax.set_title("Kazan & Reiter: Theorem 1", fontsize=11, y=1.01)
    ax.legend(fontsize=10, loc="lower left")


def _roc_view(ax, epsilon: float, delta: float, rho: float | None) -> None:
    """:func:`plot_three_views`' right panel: the best test's ROC curve from (ε, δ), from the
    Gaussian curve when ``rho`` is given, with markers at the FPRs of ``_FPRS``."""
    fpr = _ROC_FPR
    ax.plot(
        fpr,
        dep.tpr_at_fpr(fpr, epsilon=epsilon, delta=delta),
        color="C2",
        label="(ε, δ) curve",
        gid="roc",
    )
    if rho is not None:
        ax.plot(
            fpr,
            dep.gaussian_tpr_at_fpr(fpr, rho=rho),
            color="C4",
            ls="--",
            label=_gaussian_label(rho),
            gid="roc_gaussian",
        )
    marks = np.array(_FPRS)
    ax.plot(
        marks,
        dep.tpr_at_fpr(marks, epsilon=epsilon, delta=delta),
        "o",
        color="C2",
        ms=7,
        gid="roc_marker",
    )
    ax.plot([0, 1], [0, 1], color="black", ls=":", lw=1, label="random guess")
    ax.set_xlabel("false-positive rate")
    ax.set_ylabel("best true-positive rate")
    ax.set_title("hypothesis test (f-DP)", fontsize=11, y=1.01)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=10, loc="lower right")
