"""Figure functions for the bounds, binary-search and median notebooks (03, 04, 05).

Each function takes the data (a mapping ``{column name: universe values}``, such as the
columns of a DataFrame, the release size n and the query) and returns a
``matplotlib.figure.Figure``; the notebooks' static figures, the dashboards in
``helpers.widgets.lee_clifton`` and the PNGs in ``figures/`` all come from these functions.

A slider must redraw in well under 100 ms, and building a matplotlib figure from scratch
costs about that much on its own, so the two bounds figures come in pairs: ``plot_*``
builds the figure (its artists) and then calls ``update_*``, which sets every number in
it; a dashboard builds once and calls ``update_*`` on every slider move. Static figure and
dashboard therefore run the same code.

Lines carry a ``gid`` so tests (and readers) can find them without relying on draw order:

* ``"upper"`` (red, triangles) — the upper bound of Sec. 5.1, eq. (4)–(5);
* ``"tight"`` (blue, circles) — the tight bound, eq. (3);
* ``"risk"`` (black) — the privacy requirement ρ;
* ``"marker_upper"``, ``"marker_tight"``, ``"marker_line"`` — the bounds at a chosen ε
  (``plot_bounds``);
* ``"epsilon_upper_bound"`` (dashed red), ``"epsilon_binary_search"`` (dash-dotted blue) —
  the ε of eq. (7) and of the binary search (``plot_binary_search``); hidden when that ε is ∞;
* ``"low"``, ``"high"``, ``"width"`` — the bracket of the binary search (``plot_bracket``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import lee_clifton as lc
from ..checks import check_open_unit, check_positive
from ..queries import get_query
from ._alt import describe, listing
from ._style import (
    BLACK,
    BLUE,
    GREEN,
    MARKERS,
    ORANGE,
    PURPLE,
    SKY_BLUE,
    SMALL,
    VERMILLION,
    course_style,
)
from .rounding import allowed_down, risk_up

__all__ = [
    "as_columns",
    "find_line",
    "plot_binary_search",
    "plot_bounds",
    "plot_bracket",
    "update_binary_search",
    "update_bounds",
]

# the paper's red and blue, in Okabe & Ito's shades (distinct under colour-vision deficiency)
UPPER_COLOUR = VERMILLION
TIGHT_COLOUR = BLUE
RISK_COLOUR = BLACK
# each curve also has its own marker: told apart without colour
UPPER_MARKER = "^"
TIGHT_MARKER = "o"
_GRID_POINTS = 401
_MARK_EVERY = 50


def find_line(ax, gid: str):
    """The line of ``ax`` with this ``gid`` (see the module docstring), or None."""
    for line in ax.lines:
        if line.get_gid() == gid:
            return line
    return None


def as_columns(columns) -> dict[str, np.ndarray]:
    if not hasattr(columns, "items"):
        raise ValueError(
            "columns must be a mapping {name: universe values} (a dict or a DataFrame); "
            f"got {type(columns).__name__}"
        )
    items = {str(name): np.asarray(values, dtype=float) for name, values in columns.items()}
    if not items:
        raise ValueError("columns must hold at least one column")
    return items


def _fmt_eps(value: float) -> str:
    return "∞" if math.isinf(value) else f"{allowed_down(value):.4f}"


def _build(cols: dict[str, np.ndarray], *, marker: bool, dashed: bool, figsize) -> Figure:
    """The artists of a bounds figure, without data (``_update`` fills them in)."""
    n = len(cols)
    fig = Figure(figsize=figsize or (max(4.2 * n + 0.6, 5.4), 5.4 if dashed else 4.8))
    # fixed margins instead of a layout engine (a layout engine re-runs on every redraw), in
    # inches: room for the x label and, below it, the legend (never over the curves)
    height = fig.get_figheight()
    bottom = 1.95 if dashed else 1.45
    fig.subplots_adjust(
        left=0.6 / fig.get_figwidth(),
        right=0.98,
        bottom=bottom / height,
        top=1 - 0.62 / height,
        wspace=0.08,
    )
    # the legend's top 0.36 in below the axes, under the x label, whatever the axes' height
    legend_y = -0.36 / (height - 0.62 - bottom)
    # shared y-axis: the later panels draw no tick labels (text is most of a redraw's cost)
    axes = fig.subplots(1, n, squeeze=False, sharey=True)[0]
    for ax, (name, values) in zip(axes, cols.items(), strict=True):
        curve = {"markevery": _MARK_EVERY, "ms": 5}
        handles = [
            ax.plot(
                [],
                [],
                color=UPPER_COLOUR,
                marker=UPPER_MARKER,
                label="risk upper bound",
                gid="upper",
                **curve,
            )[0],
            ax.plot(
                [],
                [],
                color=TIGHT_COLOUR,
                marker=TIGHT_MARKER,
                label="risk tight bound",
                gid="tight",
                **curve,
            )[0],
            ax.axhline(0.5, color=RISK_COLOUR, lw=1.2, label="requirement ρ", gid="risk"),
        ]
        if marker:
            ax.plot([], [], UPPER_MARKER, color=UPPER_COLOUR, ms=8, gid="marker_upper")
            ax.plot([], [], TIGHT_MARKER, color=TIGHT_COLOUR, ms=7, gid="marker_tight")
            ax.axvline(0.0, color="grey", lw=0.8, ls=":", gid="marker_line")
        if dashed:
            for gid, colour, style in (
                ("epsilon_upper_bound", UPPER_COLOUR, "--"),
                ("epsilon_binary_search", TIGHT_COLOUR, "-."),
            ):
                handles.append(ax.axvline(0.0, color=colour, ls=style, lw=1.4, label=gid, gid=gid))
        domain = np.array2string(values, separator=", ", formatter={"float_kind": "{:g}".format})
        # a fixed y skips matplotlib's title placement search on every redraw
        ax.set_title(f"{name}: universe {domain}", fontsize=10, y=1.0)
        ax.set_xlabel("ε")
        ax.xaxis.set_major_locator(MaxNLocator(6))
        ax.grid(alpha=0.3)
        # below the axes, legible on a projector (was 7.5 pt over the curves)
        ax.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, legend_y),
            ncol=1,
            fontsize=10,
            frameon=False,
        )
    axes[0].set_ylabel("risk disclosure probability")
    axes[0].set_ylim(0.0, 1.02)
    axes[0].set_yticks([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    fig.suptitle(" ", fontsize=10)
    return fig


def _update(
    fig: Figure,
    cols: dict[str, np.ndarray],
    size: int,
    query,
    *,
    risk: float,
    epsilon_max: float,
    marker: float | None,
    title: str,
) -> Figure:
    risk = float(check_open_unit("risk", risk))
    x_max = float(check_positive("epsilon_max", epsilon_max))
    dashed = find_line(fig.axes[0], "epsilon_upper_bound") is not None
    epsilons: dict[str, tuple[float, float]] = {}
    if dashed:
        for name, values in cols.items():
            e_ub = lc.epsilon_upper_bound(values, size, query, risk)
            e_bs = lc.binary_search_epsilon(values, size, query, risk)
            epsilons[name] = (e_ub, e_bs)
            finite = [e for e in (e_ub, e_bs) if math.isfinite(e)]
            if finite:  # widen the axis so both dashed lines stay in view
                x_max = max(x_max, 1.15 * max(finite))
    if marker is not None:
        marker = float(check_positive("epsilon", marker))
        x_max = max(x_max, marker)
    grid = np.linspace(0.0, x_max, _GRID_POINTS)
    if len(fig.axes) != len(cols):
        raise ValueError(f"figure has {len(fig.axes)} panels but {len(cols)} columns were given")
    said: list[str] = []  # per column, for the text alternative
    for ax, (name, values) in zip(fig.axes, cols.items(), strict=True):
        upper, tight = lc.bound_curves(values, size, query, grid)
        find_line(ax, "upper").set_data(grid, upper)
        find_line(ax, "tight").set_data(grid, tight)
        find_line(ax, "risk").set_ydata([risk, risk])
        labels = [
            "risk upper bound",
            "risk tight bound",
            f"requirement ρ = {allowed_down(risk):.3g}",
        ]
        if marker is not None:
            m_upper, m_tight = lc.bound_curves(values, size, query, [marker])
            find_line(ax, "marker_upper").set_data([marker], m_upper)
            find_line(ax, "marker_tight").set_data([marker], m_tight)
            find_line(ax, "marker_line").set_xdata([marker, marker])
            said.append(
                f"{name}: upper {risk_up(float(m_upper[0])):.4f}, tight {risk_up(float(m_tight[0])):.4f}"
                + (" (meets ρ)" if float(m_tight[0]) <= risk else " (above ρ)")
            )
        elif not dashed:
            said.append(
                f"{name}: from {risk_up(float(tight[0])):.4g} at ε = 0 to upper {risk_up(float(upper[-1])):.4f} "
                f"and tight {risk_up(float(tight[-1])):.4f} at ε = {x_max:g}"
            )
        if dashed:
            e_ub, e_bs = epsilons[name]
            said.append(
                f"{name}: inequality 7 gives ε = {_fmt_eps(e_ub)}, the binary search "
                f"ε = {_fmt_eps(e_bs)}"
            )
            for gid, value, what in zip(
                ("epsilon_upper_bound", "epsilon_binary_search"),
                epsilons[name],
                ("ε of inequality 7", "ε binary search"),
                strict=True,
            ):
                line = find_line(ax, gid)
                line.set_visible(math.isfinite(value))
                if math.isfinite(value):
                    line.set_xdata([value, value])
                labels.append(f"{what} = {_fmt_eps(value)}")
        for text, label in zip(ax.get_legend().get_texts(), labels, strict=True):
            text.set_text(label)
        ax.set_xlim(0.0, x_max)
    fig._suptitle.set_text(title)
    return describe(fig, *_bounds_alt(cols, size, query, risk, marker, epsilons, x_max, said))


def _bounds_alt(cols, size, query, risk, marker, epsilons, x_max, said) -> list[str]:
    """The text alternative of a bounds figure: what is drawn and, per column, its numbers."""
    name = get_query(query).name
    shown = (
        f"Lee & Clifton's bounds on the adversary's posterior against ε from 0 to {x_max:.3g} "
        f"for the {name} query, n = {size}, one panel per column ({listing(cols)}): the upper "
        "bound (eqs. 4–5, red, triangles) never lies below the tight bound (eq. 3, blue, "
        f"circles), beside the requirement ρ = {allowed_down(risk):.3g} (black)."
    )
    if epsilons:
        larger = all(
            math.isinf(e_bs) or (math.isfinite(e_ub) and e_bs > e_ub)
            for e_ub, e_bs in epsilons.values()
        )
        point = (
            "The binary search on the tight bound allows a larger ε than inequality 7 in every "
            "panel."
            if larger
            else "The dashed lines mark where each bound meets ρ."
        )
        return [shown, f"Dashed lines at the ε where each bound meets ρ: {'; '.join(said)}.", point]
    if marker is not None:
        return [
            shown,
            f"At ε = {risk_up(marker):.3g}, {'; '.join(said)}: the tight bound gives the adversary less "
            "than the upper bound says.",
        ]
    return [shown, f"{'; '.join(said)}."]


@course_style
def plot_bounds(
    columns: Mapping[str, Sequence[float]],
    size: int,
    query="mean",
    *,
    risk: float = 1 / 3,
    epsilon: float | None = None,
    epsilon_max: float = 5.0,
    figsize: tuple[float, float] | None = None,
) -> Figure:
    """Lee & Clifton's bounds figure: risk disclosure probability against ε, one panel per column.

    Red: the upper bound 1 / (1 + (W − 1) e^{−ε Δv/Δf}) (eq. 4–5); blue: the tight bound
    (eq. 3); black: the requirement ρ. ``epsilon`` puts a marker on both curves at that ε
    (move it with ``update_bounds``).
    """
    cols = as_columns(columns)
    fig = _build(cols, marker=epsilon is not None, dashed=False, figsize=figsize)
    return update_bounds(
        fig, cols, size, query, risk=risk, epsilon=epsilon, epsilon_max=epsilon_max
    )


def update_bounds(
    fig: Figure,
    columns,
    size: int,
    query="mean",
    *,
    risk: float = 1 / 3,
    epsilon: float | None = None,
    epsilon_max: float = 5.0,
) -> Figure:
    """Set the curves, ρ and the marker of a figure made by ``plot_bounds`` (same columns)."""
    cols = as_columns(columns)
    if epsilon is not None and find_line(fig.axes[0], "marker_upper") is None:
        raise ValueError("this figure was drawn without a marker: pass epsilon= to plot_bounds")
    name = get_query(query).name
    return _update(
        fig,
        cols,
        size,
        query,
        risk=risk,
        epsilon_max=epsilon_max,
        marker=epsilon,
        title=f"Bounds on the posterior: {name}, n = {size}"
        + ("" if epsilon is None else f", marker at ε = {risk_up(epsilon):.3g}"),
    )


@course_style
def plot_binary_search(
    columns: Mapping[str, Sequence[float]],
    size: int,
    query="mean",
    *,
    risk: float = 1 / 3,
    epsilon_max: float = 5.0,
    figsize: tuple[float, float] | None = None,
) -> Figure:
    """The bounds figure with the chosen ε: dashed red at eq. (7), dashed blue at the search.

    The x-axis widens past ``epsilon_max`` when a dashed line would fall outside it. When
    an ε is ∞ (the bound never rises above ρ) its line is hidden and the legend says ∞.
    """
    cols = as_columns(columns)
    fig = _build(cols, marker=False, dashed=True, figsize=figsize)
    return update_binary_search(fig, cols, size, query, risk=risk, epsilon_max=epsilon_max)


def update_binary_search(
    fig: Figure, columns, size: int, query="mean", *, risk: float = 1 / 3, epsilon_max: float = 5.0
) -> Figure:
    """Move ρ and both dashed lines of a figure made by ``plot_binary_search`` (same columns)."""
    cols = as_columns(columns)
    if find_line(fig.axes[0], "epsilon_upper_bound") is None:
        raise ValueError("this figure was not made by plot_binary_search")
    name = get_query(query).name
    return _update(
        fig,
        cols,
        size,
        query,
        risk=risk,
        epsilon_max=epsilon_max,
        marker=None,
        title=f"ε of inequality 7 vs binary search: {name}, ρ = {allowed_down(risk):.3g}",
    )


@course_style
def plot_bracket(
    steps: Mapping[str, Sequence[tuple[float, float]]],
    *,
    title: str | None = None,
) -> Figure:
    """The binary search's bracket (low, high) step by step, one colour per column.

    Left: ``low`` (solid) and ``high`` (dashed) closing in on the ε where the tight bound
    crosses ρ. Right: the width high − low on a log scale, halving at every step.
    ``steps`` maps a column name to ``binary_search_steps(...)``. Each column has its colour
    and its marker.
    """
    if not hasattr(steps, "items") or not steps:
        raise ValueError("steps must be a non-empty mapping {name: list of (low, high)}")
    fig = Figure(figsize=(9.4, 3.6), layout="constrained")
    ax_b, ax_w = fig.subplots(1, 2)
    colours = [PURPLE, GREEN, ORANGE, SKY_BLUE]
    said, ratios = [], []
    for index, (name, bracket) in enumerate(steps.items()):
        arr = np.asarray(bracket, dtype=float).reshape(-1, 2)
        if arr.shape[0] == 0:
            continue
        k = np.arange(arr.shape[0])
        colour = colours[index % len(colours)]
        mark = MARKERS[index % len(MARKERS)]
        ax_b.plot(
            k, arr[:, 0], "-", marker=mark, color=colour, ms=4, label=f"{name}: low", gid="low"
        )
        ax_b.plot(
            k,
            arr[:, 1],
            "--",
            marker=mark,
            mfc="none",
            color=colour,
            ms=4,
            label=f"{name}: high",
            gid="high",
        )
        # every column's width halves alike: hollow markers of decreasing size keep all visible
        width = arr[:, 1] - arr[:, 0]
        ax_w.semilogy(
            k,
            width,
            "-" if index % 2 == 0 else "--",
            marker=mark,
            color=colour,
            ms=max(7 - 2.5 * index, 2),
            mfc="none",
            label=name,
            gid="width",
        )
        ratios.append(width[1:] / width[:-1])
        said.append(
            f"{name} closes in on ε = {allowed_down(arr[-1].mean()):.4f} in {arr.shape[0] - 1} steps, its "
            f"width going from {width[0]:.3g} to {width[-1]:.3g}"
        )
    ax_b.set_xlabel("step")
    ax_b.set_ylabel("ε bracket")
    ax_b.set_title("the bracket closes in on ε", fontsize=10)
    ax_b.grid(alpha=0.3)
    ax_b.legend(fontsize=SMALL)
    ax_w.set_xlabel("step")
    ax_w.set_ylabel("high − low")
    ax_w.set_title("its width halves at every step", fontsize=10)
    ax_w.grid(alpha=0.3, which="both")
    ax_w.legend(fontsize=SMALL)
    fig.suptitle(title or "Binary search on the tight bound", fontsize=11)
    halving = (
        "Each step halves the bracket, so the width falls on a straight line on the log scale."
        if ratios and all(np.allclose(r, 0.5, rtol=1e-6) for r in ratios if r.size)
        else "The bracket shrinks at every step."
    )
    return describe(
        fig,
        f"{title or 'Binary search on the tight bound'}: left, the bracket [low, high] of ε step "
        "by step, low solid and high dashed; right, its width high − low on a log scale. "
        f"{'; '.join(said)}.",
        halving,
    )
