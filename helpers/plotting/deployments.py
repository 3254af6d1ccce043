"""Figure functions for notebooks 09 (ε in the wild) and 10 (choose your ε).

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

from .. import choose as ch
from .. import deployments as dep
from .. import kazan_reiter as kr
from ._alt import describe, listing
from ._style import (
    BLACK,
    BLUE,
    GREEN,
    LINESTYLES,
    MARKERS,
    ORANGE,
    PURPLE,
    SKY_BLUE,
    VERMILLION,
    YELLOW,
    course_style,
    in_course_style,
)
from .rounding import allowed_down, risk_up

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


@course_style
def plot_choice(
    release: str = "count",
    *,
    k: float = 5.0,
    coverage: float = 0.95,
    epsilon_risk: float,
    n: int | None = None,
    lower: float | None = None,
    upper: float | None = None,
    sensitivity: float | None = None,
    prior: float | None = None,
    risk: float | None = None,
    risk_label: str = "risk side",
    title: str | None = None,
    neighbours: str,
) -> Figure:
    """Both sides on one ε axis: P(|noise| ≤ k) rising to the coverage, the risk side's ε.

    ``neighbours`` ("change-one" or "add-remove") is passed to :func:`helpers.choose.choose`:
    the Δ drawn is the sensitivity for those neighbours.

    The feasible interval is shaded green; an empty one is the red gap between the two ε.
    With ``prior`` (and ``risk``), the two-world posterior bound is drawn too: both curves are
    probabilities, so they share the y axis.
    """
    fig = Figure(figsize=(9, 5.4))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.1, right=0.97, top=0.87, bottom=0.3)
    # the artists; their data, labels and limits are set by _set_choice, which the in-place
    # update (update_choice) shares
    ax.plot([1, 2], [0, 0], color="C0", gid="accuracy_curve")
    ax.axhline(0.5, color="C0", ls=":", lw=1, gid="coverage_line")
    ax.axvline(1, color="C0", ls="--", lw=1.5, gid="epsilon_accuracy")
    ax.axvline(1, color="C3", ls="-.", lw=1.5, gid="epsilon_risk")
    # always made, shown only with a prior (and a risk): a change of the risk's kind shows or
    # hides them in place (:func:`_set_choice`)
    ax.plot([1, 2], [0, 0], color="C3", marker="s", markevery=50, ms=5, gid="posterior_curve")
    ax.axhline(0.5, color="C3", ls=":", lw=1, gid="risk_line")
    _interval(
        ax,
        _choose(
            release, k, coverage, epsilon_risk, n, lower, upper, prior, sensitivity, neighbours
        ).feasible,
    )
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("ε (log scale)")
    ax.set_ylabel("probability")
    ax.tick_params(labelsize=10)
    ax.grid(alpha=0.3)
    fig._course_shape = _CHOICE_SHAPE
    return _set_choice(
        fig,
        release,
        k,
        coverage,
        epsilon_risk,
        n,
        lower,
        upper,
        sensitivity,
        prior,
        risk,
        risk_label,
        title,
        neighbours,
    )


#: :func:`plot_choice`'s figure: every change of its values, the release, the interval's kind
#: and the risk's kind (the posterior curve and the risk line shown or hidden) included, is
#: set in place (:func:`update_choice`)
_CHOICE_SHAPE = ("choice",)


def _interval(ax, feasible: bool) -> None:
    """The ε interval's patch: the feasible one shaded green, a gap hatched red (its span is
    set by :func:`_set_choice`); the last patch of the axes, so one replaces the other."""
    if feasible:
        ax.axvspan(1, 2, color=GREEN, alpha=0.2, label="feasible ε", gid="feasible")
    else:
        ax.axvspan(
            1, 2, color=VERMILLION, alpha=0.15, hatch="//", label="no feasible ε (gap)", gid="gap"
        )


def _choose(release, k, coverage, epsilon_risk, n, lower, upper, prior, sensitivity, neighbours):
    return ch.choose(
        release,
        k=k,
        epsilon_risk=epsilon_risk,
        coverage=coverage,
        n=n,
        lower=lower,
        upper=upper,
        prior=prior,
        sensitivity=sensitivity,
        neighbours=neighbours,
    )


def _set_choice(
    fig,
    release,
    k,
    coverage,
    epsilon_risk,
    n,
    lower,
    upper,
    sensitivity,
    prior,
    risk,
    risk_label,
    title,
    neighbours,
) -> Figure:
    """Everything of :func:`plot_choice`'s figure that the controls move: the curves, lines
    and interval, their legend, the limits, the titles and the text alternative."""
    (ax,) = fig.axes
    choice = _choose(
        release, k, coverage, epsilon_risk, n, lower, upper, prior, sensitivity, neighbours
    )
    sens = (
        sensitivity
        if sensitivity is not None
        else ch.sensitivity_of(release, n=n, lower=lower, upper=upper, neighbours=neighbours)
    )
    lo = min(choice.epsilon_accuracy, choice.epsilon_risk) / 10
    hi = max(choice.epsilon_accuracy, choice.epsilon_risk) * 10
    grid = np.geomspace(lo, hi, 500)
    artists = {a.get_gid(): a for a in ax.get_children() if a.get_gid()}
    curve = artists["accuracy_curve"]
    curve.set_data(grid, 1 - ch.laplace_error_probability(grid, k=k, sensitivity=sens))
    curve.set_label(f"P(|noise| ≤ {k:g}), Laplace, Δ = {sens:.3g}")
    artists["coverage_line"].set_ydata([coverage, coverage])
    line = artists["epsilon_accuracy"]
    line.set_xdata([choice.epsilon_accuracy] * 2)
    line.set_label(f"smallest ε for the accuracy: {risk_up(choice.epsilon_accuracy):.3g}")
    line = artists["epsilon_risk"]
    line.set_xdata([choice.epsilon_risk] * 2)
    line.set_label(
        f"largest ε for the risk ({risk_label}): {allowed_down(choice.epsilon_risk):.3g}"
    )
    posterior, risk_line = artists["posterior_curve"], artists["risk_line"]
    posterior.set_visible(prior is not None)
    risk_line.set_visible(prior is not None and risk is not None)
    # a hidden artist's label starts with "_", so the legend leaves it out
    posterior.set_label("_posterior_curve")
    if prior is not None:
        posterior.set_data(grid, dep.posterior_bound(grid, prior=prior))
        posterior.set_label(f"two-world posterior bound (prior {prior:g})")
        if risk is not None:
            risk_line.set_ydata([risk, risk])
    a, b = sorted((choice.epsilon_accuracy, choice.epsilon_risk))
    interval = artists["feasible" if choice.feasible else "gap"]
    interval.set_x(a)
    interval.set_width(b - a)
    ax.set_xlim(lo, hi)
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    verdict = (
        f"feasible: ε ∈ [{risk_up(choice.epsilon_accuracy):.3g}, {allowed_down(choice.epsilon_risk):.3g}]"
        if choice.feasible
        else "infeasible: the accuracy needs more ε than the risk allows"
    )
    fig.suptitle((title + "\n" if title else "") + verdict, fontsize=12)
    what = title or f"a {release}, ±{k:g}"
    return describe(
        fig,
        f"Choosing ε ({what}): against ε on a log scale, the probability that the Laplace "
        f"noise stays within ±{k:g} (Δ = {sens:.3g}) rises to {coverage:g} at "
        f"ε = {risk_up(choice.epsilon_accuracy):.3g} (dashed), the smallest ε for the accuracy; the "
        f"risk side ({risk_label}) allows at most ε = {allowed_down(choice.epsilon_risk):.3g} (dash-dotted)"
        + (
            f", where the two-world posterior bound from a prior of {prior:g} meets {allowed_down(risk):g}"
            if prior is not None and risk is not None
            else ""
        )
        + ".",
        f"Feasible: every ε from {risk_up(choice.epsilon_accuracy):.3g} to {allowed_down(choice.epsilon_risk):.3g} "
        "meets both (shaded)."
        if choice.feasible
        else "Infeasible: the accuracy needs more ε than the risk allows (the hatched gap).",
    )


def update_choice(
    fig: Figure,
    release: str = "count",
    *,
    k: float = 5.0,
    coverage: float = 0.95,
    epsilon_risk: float,
    n: int | None = None,
    lower: float | None = None,
    upper: float | None = None,
    sensitivity: float | None = None,
    prior: float | None = None,
    risk: float | None = None,
    risk_label: str = "risk side",
    title: str | None = None,
    neighbours: str,
) -> bool:
    """Bring a :func:`plot_choice` figure to new values in place (notebook 10's dashboard),
    another release, an interval that turns from feasible to a gap (or back) and another
    risk kind (which shows or hides the posterior curve and the risk line) included; False,
    and nothing changed, for a figure of another kind: draw afresh."""
    if getattr(fig, "_course_shape", None) != _CHOICE_SHAPE:
        return False
    feasible = _choose(
        release, k, coverage, epsilon_risk, n, lower, upper, prior, sensitivity, neighbours
    ).feasible
    (ax,) = fig.axes
    shown = next(a for a in ax.patches if a.get_gid() in ("feasible", "gap"))
    if (shown.get_gid() == "feasible") != feasible:
        shown.remove()
        _interval(ax, feasible)
    _set_choice(
        fig,
        release,
        k,
        coverage,
        epsilon_risk,
        n,
        lower,
        upper,
        sensitivity,
        prior,
        risk,
        risk_label,
        title,
        neighbours,
    )
    return True


@course_style
def plot_durham_choice(
    *,
    deviations=(0.25, 0.5, 1.0, 2.0),
    max_probability: float = 0.1,
    profiles=((0.0, 1.2), (0.25, 2.0), (0.5, 5.0)),
) -> Figure:
    """Durham (Kazan & Reiter, Example 3) solved from both sides on one ε axis.

    Accuracy: the switching probability (worst direction) of the geometric release for each
    hypothetical deviation, with the target ``max_probability`` and the smallest ε meeting it
    for the first deviation. Risk: the ε each profile (17), given as (ã, r̃), recommends.
    The feasible interval for the first deviation and the most permissive profile is shaded.
    """
    grid = np.geomspace(0.05, 6.0, 400)
    fig = Figure(figsize=(9, 5.6))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.1, right=0.97, top=0.9, bottom=0.3)
    eps_acc = _durham_accuracy(ax, grid, deviations, max_probability)
    eps_risk = _durham_risk(ax, profiles)
    best = max(eps_risk)
    _durham_interval(ax, eps_acc, best)
    ax.plot([], [], color="C3", label="largest ε for each risk profile (17), labelled (ã, r̃)")
    ax.set_xscale("log")
    ax.set_xlim(grid[0], grid[-1])
    ax.set_ylim(0, 1.0)
    ax.set_xlabel("ε (log scale)")
    ax.set_ylabel("P(release switches the side of the target)")
    ax.tick_params(labelsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=10, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    fig.suptitle("Durham infant deaths (Kazan & Reiter, Example 3): accuracy vs risk", fontsize=12)
    allowed = listing(
        f"{allowed_down(e):.4f} (ã = {a:g}, r̃ = {r:g})"
        for e, (a, r) in zip(eps_risk, profiles, strict=True)
    )
    return describe(
        fig,
        f"Durham's infant deaths (Kazan & Reiter, Example 3): the probability that the release "
        f"switches side of the target against ε on a log scale, one line per deviation "
        f"({listing(f'{d:g}' for d in deviations)}); at most {100 * max_probability:g} % at "
        f"deviation {deviations[0]:g} needs ε ≥ {risk_up(eps_acc):.4f} (dashed), while the risk "
        f"profiles (17) allow ε up to {allowed} (vertical lines).",
        _durham_verdict(eps_acc, best, eps_risk),
    )


def kr_switch(epsilon, deviation):
    """Worst-direction switching probability (``helpers.kazan_reiter``), as a float array."""
    return np.asarray(kr.durham_switch_probability(epsilon, deviation, "worst"), dtype=float)


def _durham_accuracy(ax, grid, deviations, max_probability: float) -> float:
    """:func:`plot_durham_choice`'s accuracy side: a switching-probability curve per deviation,
    the target, and the smallest ε meeting it at the first deviation (returned)."""
    for i, dev in enumerate(deviations):
        prob = kr_switch(grid, dev)
        ax.plot(
            grid,
            prob,
            color=f"C{i}",
            ls=LINESTYLES[i % len(LINESTYLES)],
            marker=MARKERS[i % len(MARKERS)],
            markevery=(15 * i, 60),
            ms=5,
            label=f"switching probability, deviation {dev:g}",
            gid=f"switch_{dev:g}",
        )
    ax.axhline(max_probability, color="black", ls=":", lw=1, gid="target")
    eps_acc = ch.durham_epsilon_for_switching(deviations[0], max_probability=max_probability)
    ax.axvline(
        eps_acc,
        color="C0",
        ls="--",
        lw=1.5,
        gid="epsilon_accuracy",
        label=f"smallest ε for ≤ {100 * max_probability:g} % at {deviations[0]:g}: {risk_up(eps_acc):.4f}",
    )
    return eps_acc


def _durham_risk(ax, profiles) -> list[float]:
    """:func:`plot_durham_choice`'s risk side: a labelled vertical line at the ε each profile
    (17), given as (ã, r̃), recommends; returns those ε."""
    eps_risk = []
    for a, r in profiles:
        # profile (17) on the slice q = 1 for every ã, ã = 0 included (ε = ln r̃ there), as in
        # Example 3's Figure 2 and notebook 07; not the constant profile on the whole square
        e = ch.epsilon_for_profile("inclusion", r=r, a=a, fixed=1.0)
        eps_risk.append(e)
        ax.axvline(
            e,
            color="C3",
            ls="-",
            lw=1.0,
            alpha=0.4 + 0.6 * (a == profiles[-1][0]),
            gid=f"profile_{a:g}_{r:g}",
        )
        ax.annotate(
            f"ã={a:g}, r̃={r:g}",
            (e, 0.95),
            rotation=90,
            ha="right",
            va="top",
            fontsize=10,
            color="C3",
        )
    return eps_risk


def _durham_interval(ax, eps_acc: float, best: float) -> None:
    """The feasible interval [``eps_acc``, ``best``] shaded, or the gap hatched."""
    if eps_acc <= best:
        ax.axvspan(
            eps_acc,
            best,
            color=GREEN,
            alpha=0.2,
            gid="feasible",
            label=f"feasible: [{risk_up(eps_acc):.4f}, {allowed_down(best):.4f}]",
        )
    else:
        ax.axvspan(
            best,
            eps_acc,
            color=VERMILLION,
            alpha=0.15,
            hatch="//",
            gid="gap",
            label="no feasible ε",
        )


def _durham_verdict(eps_acc: float, best: float, eps_risk: list[float]) -> str:
    """The sentence of :func:`plot_durham_choice`'s text alternative that says which ε are
    feasible."""
    if eps_acc > best:
        return "No profile allows the ε the accuracy needs."
    if sum(e >= eps_acc for e in eps_risk) != 1:
        return f"Feasible from {risk_up(eps_acc):.4f} to {allowed_down(best):.4f}."
    if math.isclose(eps_acc, best, rel_tol=1e-9):
        return (
            f"Borderline: feasible only at the single point ε = {risk_up(eps_acc):.4f}, where the most "
            "permissive profile's limit ties exactly with the accuracy's need; any stricter "
            "accuracy or risk leaves no ε."
        )
    return f"Feasible only from {risk_up(eps_acc):.4f} to {allowed_down(best):.4f}, under the most permissive profile."
