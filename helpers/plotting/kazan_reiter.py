"""Figure functions for the Kazan & Reiter notebooks: data in, matplotlib Figure out.

Every function computes its data with ``helpers.kazan_reiter`` and draws it on a new
``Figure`` (not pyplot), so the notebooks' static figures, the dashboards and the PNGs in
``figures/`` are the same drawing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import LogNorm, Normalize
from matplotlib.figure import Figure

from .. import kazan_reiter as kr
from ._alt import describe, listing
from ._style import HATCHES, MARKERS, VERMILLION, course_style
from .rounding import allowed_down, risk_up

__all__ = [
    "plot_bound_vs_naive",
    "plot_colored_profiles",
    "plot_figure1",
    "plot_figure2",
    "plot_profile_map",
    "plot_risk_profile_slice",
    "plot_switching",
    "slice_curves",
    "update_bound_vs_naive",
    "update_profile_map",
    "update_risk_profile_slice",
    "update_switching",
]


# legible on a projector: no text below 10 pt at the saved size
_FONT = 10


def _figure(figsize, fast: bool, *, right_in: float = 0.15) -> Figure:
    """constrained layout for files and notebooks; fixed margins (4x faster) for dashboards,
    set in inches so tick labels and axis labels fit whatever the figure's size
    (``right_in``: room for a legend beside the axes)."""
    if fast:
        width, height = figsize
        fig = Figure(figsize=figsize)
        fig.subplots_adjust(
            left=0.75 / width,
            right=1 - right_in / width,
            bottom=0.6 / height,
            top=1 - 0.35 / height,
            hspace=0.45,
            wspace=0.35,
        )
        return fig
    return Figure(figsize=figsize, layout="constrained")


def _legend_beside(ax) -> None:
    """The legend to the right of the axes, never over a curve."""
    ax.legend(fontsize=_FONT, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)


def slice_curves(kind: str, a: float, fixed: float, r: float, x=None):
    """``(x, r*, εᵢ, ε_min, x_min)`` along a slice: :func:`helpers.kazan_reiter.profile_slice`
    (the math lives there; this name is kept for the figure code and its callers)."""
    return tuple(kr.profile_slice(kind, a, fixed, r, x=x))


def _draw_slice(ax_r, ax_e, kind, a, fixed, r, *, epsilon_cap=None, r_cap=None, title=None):
    x, r_star, eps, eps_min, x_min = slice_curves(kind, a, fixed, r)
    name = "p" if kind == "inclusion" else "q"
    other = "q̃" if kind == "inclusion" else "p̃"
    shown_r = np.minimum(r_star, r_cap) if r_cap else r_star
    ax_r.plot(x, shown_r, color="C0", label="r*", gid="r_star")
    ax_r.axhline(r, color="black", ls=":", lw=1, label=f"r̃ = {r:g}")
    ax_r.set_ylabel(f"r* (truncated at {r_cap:g})" if r_cap else "r*")
    ax_r.set_title(title or f"ã = {a:g}, {other} = {fixed:g}, r̃ = {r:g}", fontsize=_FONT)
    finite = np.where(np.isfinite(eps), eps, np.nan)
    if epsilon_cap:
        # never cap below the minimum: the curve must reach the dot it is minimised at
        epsilon_cap = max(epsilon_cap, 1.5 * eps_min)
    truncated = bool(epsilon_cap) and bool(np.any(~(finite <= epsilon_cap)))
    shown_e = np.minimum(finite, epsilon_cap) if epsilon_cap else finite
    ax_e.plot(x, shown_e, color="C1", label="εᵢ", gid="epsilon_i")
    ax_e.plot(
        [x_min],
        [eps_min],
        "o",
        color="C3",
        label=f"min ε = {allowed_down(eps_min):.3f}",
        gid="minimum",
    )
    ax_e.axhline(
        kr.epsilon_constant_profile(r),
        color="black",
        ls="--",
        lw=1,
        label="½ ln r̃ (constant profile)",
    )
    ax_e.set_xlabel(name)
    ax_e.set_ylabel(f"εᵢ (truncated at {epsilon_cap:.3g})" if truncated else "εᵢ")
    if epsilon_cap:
        ax_e.set_ylim(0, epsilon_cap * 1.05)
    for ax in (ax_r, ax_e):
        _legend_beside(ax)
    if r_cap:
        ax_r.set_ylim(0, r_cap * 1.05)
    return eps_min, x_min


@course_style
def plot_risk_profile_slice(
    kind: str, a: float, fixed: float, r: float, *, figsize=(7.4, 5.0), fast: bool = False
) -> Figure:
    """One column of Figure 1: the profile r* along its slice (top) and εᵢ (bottom), with
    the minimum of eq. (13) marked and the constant profile's ½·ln r̃ for comparison.
    εᵢ is drawn up to 6 or 1.5 × its minimum, whichever is larger, and the axis says so
    when a part of the curve is cut there."""
    fig = _figure(figsize, fast, right_in=2.9)
    ax_r, ax_e = fig.subplots(2, 1, sharex=True)
    eps_min, x_min = _draw_slice(
        ax_r, ax_e, kind, a, fixed, r, epsilon_cap=6.0, r_cap=max(3 * r, 10.0)
    )
    fig._course_shape = ("slice", kind, figsize, fast)
    return describe(fig, _slice_sentence(kind, a, fixed, r, eps_min, x_min))


def update_risk_profile_slice(
    fig: Figure, kind: str, a: float, fixed: float, r: float, *, figsize=(7.4, 5.0), fast=False
) -> bool:
    """Bring a :func:`plot_risk_profile_slice` figure of the same kind to new ã, q̃ or p̃ and
    r̃ in place (notebook 06's dashboard): both curves, the minimum, the r̃ and ½ ln r̃
    lines, their legend entries, titles, axis labels and limits, the text alternative.
    False, and nothing changed, for another kind (draw afresh)."""
    if getattr(fig, "_course_shape", None) != ("slice", kind, figsize, fast):
        return False
    ax_r, ax_e = fig.axes
    x, r_star, eps, eps_min, x_min = slice_curves(kind, a, fixed, r)
    other = "q̃" if kind == "inclusion" else "p̃"
    r_cap, epsilon_cap = max(3 * r, 10.0), max(6.0, 1.5 * eps_min)
    finite = np.where(np.isfinite(eps), eps, np.nan)
    truncated = bool(np.any(~(finite <= epsilon_cap)))
    lines = {line.get_gid(): line for line in ax_r.lines + ax_e.lines}
    lines["r_star"].set_data(x, np.minimum(r_star, r_cap))
    ax_r.lines[1].set_ydata([r, r])
    ax_r.lines[1].set_label(f"r̃ = {r:g}")
    ax_r.set_title(f"ã = {a:g}, {other} = {fixed:g}, r̃ = {r:g}", fontsize=_FONT)
    ax_r.set_ylabel(f"r* (truncated at {r_cap:g})")
    lines["epsilon_i"].set_data(x, np.minimum(finite, epsilon_cap))
    lines["minimum"].set_data([x_min], [eps_min])
    lines["minimum"].set_label(f"min ε = {allowed_down(eps_min):.3f}")
    constant = kr.epsilon_constant_profile(r)
    ax_e.lines[2].set_ydata([constant, constant])
    ax_e.set_ylabel(f"εᵢ (truncated at {epsilon_cap:.3g})" if truncated else "εᵢ")
    ax_e.set_ylim(0, epsilon_cap * 1.05)
    ax_r.set_ylim(0, r_cap * 1.05)
    for ax in (ax_r, ax_e):
        ax.relim()
        ax.autoscale_view(scalex=True, scaley=False)
        _legend_beside(ax)
    describe(fig, _slice_sentence(kind, a, fixed, r, eps_min, x_min))
    return True


def _slice_sentence(kind, a, fixed, r, eps_min, x_min, who: str = "") -> str:
    """What one column of Figure 1 shows, with its minimum against the constant profile."""
    name, other, number = ("p", "q̃", "(15)") if kind == "inclusion" else ("q", "p̃", "(16)")
    constant = float(kr.epsilon_constant_profile(r))
    relation = "above" if eps_min > constant + 1e-9 else "at or below"
    return (
        f"{who}Kazan & Reiter's risk profile {number} along {name} with ã = {a:g}, "
        f"{other} = {fixed:g}, r̃ = {r:g}: on top the profile r*, below the εᵢ it implies at each "
        f"{name}, smallest, ε = {allowed_down(eps_min):.3f}, at {name} = {x_min:.3f}, {relation} the constant "
        f"profile's ½ ln r̃ = {allowed_down(constant):.3f} (dashed)."
    )


@course_style
def plot_figure1(
    a: float = 0.1, r: float = 3.0, q_tilde: float = 1.0, p_tilde: float = 0.05
) -> Figure:
    """Figure 1: Agency 1 (profile (15), q̃ = 1) and Agency 2 (profile (16), p̃ = 0.05)."""
    # 10 inches: shown at about 0.86× in a notebook's output area, text stays above 11 px
    fig = Figure(figsize=(10, 5.8), layout="constrained")
    axes = fig.subplots(2, 2, sharex="col")
    first = _draw_slice(
        axes[0, 0],
        axes[1, 0],
        "inclusion",
        a,
        q_tilde,
        r,
        title=f"Agency 1: (15), ã = {a:g}, q̃ = {q_tilde:g}, r̃ = {r:g}",
    )
    second = _draw_slice(
        axes[0, 1],
        axes[1, 1],
        "values",
        a,
        p_tilde,
        r,
        epsilon_cap=8.0,
        r_cap=30.0,
        title=f"Agency 2: (16), ã = {a:g}, p̃ = {p_tilde:g}, r̃ = {r:g}",
    )
    axes[0, 0].set_ylim(0, 12)
    axes[0, 0].set_ylabel("r* (axis cut at 12)")  # r* → ∞ as p → 0: say where it is cut
    return describe(
        fig,
        "Figure 1, two agencies side by side. "
        + _slice_sentence("inclusion", a, q_tilde, r, *first, who="Agency 1: ")
        + " "
        + _slice_sentence("values", a, p_tilde, r, *second, who="Agency 2: "),
    )


@course_style
def plot_colored_profiles(
    kind: str,
    a_values: Sequence[float],
    fixed: float,
    r_values: Sequence[float],
    *,
    epsilon_max: float = 4.0,
) -> Figure:
    """Figures 3 and 4: each agency's profile along its slice, coloured by the εᵢ it implies,
    with the minimum marked. One panel per (ã, r̃) pair (``a_values`` and ``r_values`` are
    zipped; a scalar is repeated)."""
    n = max(len(a_values), len(r_values))
    a_values = list(a_values) * (n if len(a_values) == 1 else 1)
    r_values = list(r_values) * (n if len(r_values) == 1 else 1)
    fig = Figure(figsize=(3.3 * n, 3.2), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, n, sharey=True))
    norm = Normalize(0, epsilon_max)
    line = None
    minima = []
    for ax, a, r in zip(axes, a_values, r_values, strict=True):
        x, r_star, eps, eps_min, x_min = slice_curves(kind, a, fixed, r)
        r_shown = np.minimum(r_star, 20.0)
        points = np.column_stack([x, r_shown]).reshape(-1, 1, 2)
        segments = np.concatenate([points[:-1], points[1:]], axis=1)
        line = LineCollection(segments, cmap="viridis", norm=norm, linewidths=2.5)
        line.set_array(np.minimum(np.where(np.isfinite(eps), eps, epsilon_max), epsilon_max)[:-1])
        ax.add_collection(line)
        ax.axhline(r, color="black", ls=":", lw=1, label=f"constant r̃ = {r:g}")
        y_min = (
            float(np.minimum(kr.inclusion_profile(a, fixed, r)(x_min, fixed), 20.0))
            if kind == "inclusion"
            else float(np.minimum(kr.values_profile(a, fixed, r)(fixed, x_min), 20.0))
        )
        ax.plot(
            [x_min],
            [y_min],
            "o",
            color=VERMILLION,
            ms=6,
            label=f"min ε = {allowed_down(eps_min):.2f}",
        )
        minima.append(
            f"ã = {a:g}, r̃ = {r:g}: min ε = {allowed_down(eps_min):.3f} at {'p' if kind == 'inclusion' else 'q'} = {x_min:.3f}"
        )
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 20)
        ax.set_xlabel("p" if kind == "inclusion" else "q")
        ax.set_title(f"ã = {a:g}, r̃ = {r:g}", fontsize=_FONT)
        ax.legend(fontsize=_FONT)
    axes[0].set_ylabel("r* (truncated at 20)")
    fig.colorbar(line, ax=list(axes), label=f"εᵢ (truncated at {epsilon_max:g})")
    number = "(15)" if kind == "inclusion" else "(16)"
    return describe(
        fig,
        f"Kazan & Reiter's profile {number} along {'p' if kind == 'inclusion' else 'q'} "
        f"(the other prior fixed at {fixed:g}) in {n} panel{'s' if n > 1 else ''}, each curve "
        f"coloured by the εᵢ it implies (viridis, 0 to {epsilon_max:g}), the constant r̃ dotted "
        f"and the minimum marked: {'; '.join(minima)}.",
        "The recommended ε is the minimum over the curve, where the profile is tightest.",
    )


@course_style
def plot_profile_map(
    profile=None,
    *,
    n: int = 160,
    r_cap: float = 100.0,
    epsilon_cap: float = 4.0,
    figsize=(8, 3.6),
    fast: bool = False,
    recommendation: kr.Recommendation | None = None,
    show_profile: bool = True,
) -> Figure:
    """Figure 5: r*(p, q) (truncated at 100) and εᵢ(p, q) (truncated at 4) over (0, 1]², with
    the argmin of eq. (13) as a red point. Default profile: (33), max(0.25/(p·q), 3).
    ``show_profile=False`` draws the εᵢ map alone (the dashboard's faster redraw);
    :func:`update_profile_map` moves the figure to another profile in place."""
    profile = kr.two_dimensional_profile(0.25, 3.0) if profile is None else profile
    r_star, eps = _profile_maps(profile, n)
    rec = kr.argmin_epsilon(profile) if recommendation is None else recommendation
    fig = _figure(figsize, fast)
    extent = (0, 1, 0, 1)
    if show_profile:
        ax_r, ax_e = fig.subplots(1, 2)
        # logarithmic colours: r* spans 1 to r_cap, and a linear scale shows only its corner
        im_r = ax_r.imshow(
            np.minimum(r_star, r_cap),
            origin="lower",
            extent=extent,
            aspect="auto",
            cmap="magma",
            norm=LogNorm(1.0, r_cap),
        )
        fig.colorbar(im_r, ax=ax_r, label=f"r* (log scale, truncated at {r_cap:g})")
        ax_r.set_title("risk profile r*(p, q)", fontsize=_FONT)
        axes = (ax_r, ax_e)
    else:
        ax_e = fig.subplots()
        axes = (ax_e,)
    im_e = ax_e.imshow(
        np.minimum(eps, epsilon_cap), origin="lower", extent=extent, aspect="auto", cmap="viridis"
    )
    fig.colorbar(im_e, ax=ax_e, label=f"εᵢ (truncated at {epsilon_cap:g})")
    for ax in axes:
        ax.plot(
            [rec.p],
            [rec.q],
            "o",
            color=VERMILLION,
            ms=7,
            mec="white",
            clip_on=False,
            zorder=5,
            gid="argmin",
        )
        ax.set_xlabel("p")
        ax.set_ylabel("q")
    fig._course_shape = ("profile_map", n, r_cap, epsilon_cap, show_profile)
    return _set_profile_map(fig, r_star, eps, rec, r_cap, epsilon_cap, show_profile)


def update_profile_map(
    fig: Figure,
    profile,
    *,
    n: int = 160,
    r_cap: float = 100.0,
    epsilon_cap: float = 4.0,
    recommendation: kr.Recommendation | None = None,
    show_profile: bool = True,
) -> bool:
    """Bring a :func:`plot_profile_map` figure of the same grid, caps and panels to another
    profile in place (notebook 06's dashboard): the maps, their colour scales, the argmin,
    the title and the text alternative. False, and nothing changed, otherwise."""
    if getattr(fig, "_course_shape", None) != (
        "profile_map",
        n,
        r_cap,
        epsilon_cap,
        show_profile,
    ):
        return False
    r_star, eps = _profile_maps(profile, n)
    rec = kr.argmin_epsilon(profile) if recommendation is None else recommendation
    _set_profile_map(fig, r_star, eps, rec, r_cap, epsilon_cap, show_profile)
    return True


def _profile_maps(profile, n: int) -> tuple[np.ndarray, np.ndarray]:
    """r*(p, q) and the εᵢ it implies on the n × n grid of (0, 1]²."""
    axis = np.linspace(1 / n, 1, n)
    P, Q = np.meshgrid(axis, axis, indexing="xy")
    r_star = kr.evaluate_profile(profile, P, Q)
    return r_star, kr.max_epsilon(P, Q, r_star)


def _set_profile_map(fig, r_star, eps, rec, r_cap, epsilon_cap, show_profile) -> Figure:
    """Everything of :func:`plot_profile_map`'s figure that the profile moves: the maps (the
    εᵢ map's colour scale spans its data again, and its colour bar follows), the argmin, the
    title and the text alternative. Shared by the fresh draw and the in-place update."""
    maps = [ax for ax in fig.axes if ax.images]  # the colour bars' axes hold no image
    if show_profile:
        maps[0].images[0].set_data(np.minimum(r_star, r_cap))
    image = maps[-1].images[0]
    image.set_data(np.minimum(eps, epsilon_cap))
    image.autoscale()  # the limits of a fresh imshow: the data's min and max
    for ax in maps:
        (point,) = (line for line in ax.lines if line.get_gid() == "argmin")
        point.set_data([rec.p], [rec.q])
    maps[-1].set_title(
        f"min ε = {allowed_down(rec.epsilon):.3f} at (p, q) = ({rec.p:.3f}, {rec.q:.3f})",
        fontsize=_FONT,
    )
    words = (
        f"heat maps over (p, q) in (0, 1]² of the risk profile r* (log colours, truncated at "
        f"{r_cap:g}) and of the εᵢ it implies (truncated at {epsilon_cap:g})"
        if show_profile
        else f"a heat map over (p, q) in (0, 1]² of the εᵢ the profile implies (truncated at "
        f"{epsilon_cap:g})"
    )
    return describe(
        fig,
        f"Kazan & Reiter's two-dimensional risk profile: {words}, the point where εᵢ is "
        f"smallest marked.",
        f"The recommended ε is that minimum, {allowed_down(rec.epsilon):.3f}, at (p, q) = ({rec.p:.3f}, "
        f"{rec.q:.3f}): the prior where the profile binds hardest.",
    )


@course_style
def plot_bound_vs_naive(
    epsilon: float = 1.0, q_values: Sequence[float] = (1.0, 0.5, 0.1, 0.01), *, fast: bool = False
) -> Figure:
    """Theorem 1's bound on rᵢ as a function of p for several q, against Corollary 1's e^{2ε}."""
    p = np.linspace(0.001, 1, 400)
    fig = _figure((7.4, 3.6), fast, right_in=2.5)
    ax = fig.subplots()
    peaks = []
    for index, q in enumerate(q_values):
        bound = kr.relative_risk_bound(p, q, epsilon)
        peaks.append((float(np.max(bound)), q, float(p[np.argmax(bound)])))
        ax.plot(
            p,
            bound,
            marker=MARKERS[index % len(MARKERS)],
            markevery=(index * 9, 40),  # staggered: markers of different curves apart
            ms=5,
            label=f"Theorem 1, q = {q:g}",
            gid=f"theorem1_q{q:g}",
        )
    ax.axhline(
        float(kr.naive_bound(epsilon)),
        color="k",
        ls="--",
        label=r"Corollary 1: $e^{2\varepsilon}$",
        gid="naive",
    )
    ax.set_xlabel("p (prior probability of inclusion)")
    ax.set_ylabel("bound on relative risk rᵢ")
    ax.set_title(f"ε = {risk_up(epsilon):g}", fontsize=_FONT)
    ax.set_ylim(0.9, float(kr.naive_bound(epsilon)) * 1.08)
    _legend_beside(ax)
    return _bound_vs_naive_text(fig, epsilon, q_values, peaks)


def update_bound_vs_naive(
    fig: Figure, epsilon: float = 1.0, q_values: Sequence[float] = (1.0, 0.5, 0.1, 0.01)
) -> Figure:
    """Bring a :func:`plot_bound_vs_naive` figure of the same q values to a new ε in place
    (notebook 06's dashboard): every curve, e^{2ε}, the title, the y limits and the text
    alternative."""
    (ax,) = fig.axes
    p = np.linspace(0.001, 1, 400)
    peaks = []
    for index, q in enumerate(q_values):
        bound = kr.relative_risk_bound(p, q, epsilon)
        peaks.append((float(np.max(bound)), q, float(p[np.argmax(bound)])))
        ax.lines[index].set_ydata(bound)
    naive = float(kr.naive_bound(epsilon))
    ax.lines[len(q_values)].set_ydata([naive, naive])
    ax.set_title(f"ε = {risk_up(epsilon):g}", fontsize=_FONT)
    ax.set_ylim(0.9, naive * 1.08)
    return _bound_vs_naive_text(fig, epsilon, q_values, peaks)


def _bound_vs_naive_text(fig, epsilon, q_values, peaks) -> Figure:
    naive = float(kr.naive_bound(epsilon))
    top, top_q, top_p = max(peaks)
    return describe(
        fig,
        f"Theorem 1's bound on the relative risk against the prior p of inclusion at "
        f"ε = {risk_up(epsilon):g}, one curve per q ({listing(f'{q:g}' for q in q_values)}), beside "
        f"Corollary 1's e^(2ε) = {risk_up(naive):.3f} (dashed).",
        f"Every curve stays {'below' if top < naive - 1e-9 else 'at or below'} e^(2ε), "
        f"reaching at most {risk_up(top):.3f} (q = {top_q:g} at p = {top_p:.3g}): Theorem 1's bound is "
        "tighter than Corollary 1's for every prior.",
    )


@course_style
def plot_figure2(
    r_values: Sequence[float] = (1.2, 2.0, 5.0),
    a_values: Sequence[float] = (0.0, 0.1, 0.25, 0.5),
    deviations: Sequence[float] = (0.25, 0.5, 1.0, 2.0),
    direction: str = "above",
    *,
    highlight: tuple[float, float] | None = None,
    figsize=(8, 6.2),
) -> Figure:
    """Figure 2 (Example 3): for each profile (17) with r̃ × ã, the switching probability per
    deviation (top), the RMSE of the released count (middle) and ε (bottom)."""
    labels, eps = [], []
    for r in r_values:
        for a in a_values:
            labels.append(f"r̃={r:g}\nã={a:g}")
            eps.append(kr.epsilon_inclusion_profile(a, 1.0, r))
    eps = np.array(eps)
    devs = np.asarray(deviations, dtype=float)
    switch = kr.durham_switch_probability(eps[:, None], devs[None, :], direction)
    rmse = kr.utility(eps)[0]
    x = np.arange(len(labels))
    fig = Figure(figsize=figsize, layout="constrained")
    ax_s, ax_r, ax_e = fig.subplots(3, 1, sharex=True)
    width = 0.8 / len(devs)
    for k, d in enumerate(devs):
        ax_s.bar(
            x + (k - (len(devs) - 1) / 2) * width,
            switch[:, k],
            width,
            hatch=HATCHES[k % len(HATCHES)],
            edgecolor="white",
            lw=0,
            label=f"deviation {d:g}",
        )
    ax_s.axhline(0.1, color="k", ls=":", lw=1, label="10% goal")
    ax_s.set_ylabel(
        f"P[switch]\n(truth {direction} target)"
        if direction != "worst"
        else "P[switch]\n(worse side)"
    )
    ax_s.legend(fontsize=_FONT, ncol=5, loc="lower center", bbox_to_anchor=(0.5, 1.02))
    ax_r.bar(x, rmse, color="C4")
    ax_r.set_ylabel("RMSE (deaths)")
    ax_e.bar(x, eps, color="C2")
    ax_e.set_ylabel("ε")
    ax_e.set_xticks(x, labels, fontsize=_FONT)
    if highlight is not None:
        i = [
            j
            for j, (r, a) in enumerate((r, a) for r in r_values for a in a_values)
            if (r, a) == highlight
        ]
        for ax in (ax_s, ax_r, ax_e):
            for j in i:
                ax.axvspan(j - 0.45, j + 0.45, color="gold", alpha=0.3, zorder=0)
    side = {
        "above": "with the truth above the target",
        "below": "with the truth below the target",
        "worst": "on the worse side",
    }.get(direction, f"({direction})")
    return describe(
        fig,
        f"Figure 2 (Example 3), {len(labels)} risk profiles (17) with r̃ in "
        f"{listing(f'{r:g}' for r in r_values)} and ã in {listing(f'{a:g}' for a in a_values)}:"
        f" on top, the probability that the released count switches side of the target {side}"
        ", for deviations "
        f"{listing(f'{d:g}' for d in devs)}; in the middle the RMSE; below ε, from "
        f"{allowed_down(eps.min()):.3f} to {allowed_down(eps.max()):.3f}.",
        f"The larger ε, the smaller the RMSE ({rmse.max():.2f} down to {rmse.min():.2f} deaths) "
        f"and the rarer a switch: at deviation {devs[0]:g} the switching probability runs from "
        f"{switch[:, 0].max():.3f} down to {switch[:, 0].min():.3f}, against the 10 % goal "
        "(dotted).",
    )


@course_style
def plot_switching(
    epsilon: float,
    deviations: Sequence[float] = (0.25, 0.5, 1.0, 2.0),
    *,
    direction: str | None = None,
    fast: bool = False,
) -> Figure:
    """Example 3 at one ε: the switching probability per deviation, truth above the target
    (release meets it) and truth below (release misses it). ``direction`` ('above',
    'below' or 'worst') draws that case in full colour and the other faded; 'worst' outlines
    the worst case per deviation."""
    if direction not in (None, "above", "below", "worst"):
        raise ValueError(f"direction must be 'above', 'below', 'worst' or None, got {direction!r}")
    devs = np.asarray(deviations, dtype=float)
    fig = _figure((6.4, 3.6), fast, right_in=2.3)
    ax = fig.subplots()
    x = np.arange(devs.size)
    sides = {}
    for k, side in enumerate(("above", "below")):
        probs = kr.durham_switch_probability(epsilon, devs, side)
        sides[side] = np.asarray(probs, dtype=float)
        faded = direction in ("above", "below") and side != direction
        ax.bar(
            x + (k - 0.5) * 0.38,
            probs,
            0.38,
            label=f"truth {side} target",
            color=f"C{k}",
            hatch=HATCHES[k],
            edgecolor="white",
            lw=0,
            alpha=0.25 if faded else 1.0,
        )
    if direction == "worst":
        worst = kr.durham_switch_probability(epsilon, devs, "worst")
        ax.bar(x, worst, 0.8, fill=False, edgecolor="k", lw=1.5, label="worst case")
    ax.axhline(0.1, color="k", ls=":", lw=1, label="10% goal")
    ax.set_xticks(x, [f"{d:g}" for d in devs])
    ax.set_xlabel("deviation of the true rate from 6.0 (per 1,000)")
    ax.set_ylabel("P[release switches side]")
    shown = f", switch {direction}" if direction else ""
    ax.set_title(f"ε = {risk_up(float(epsilon)):.3f}{shown}", fontsize=_FONT)
    _legend_beside(ax)
    fig._course_shape = ("switching", tuple(devs), direction, fast)
    return _switching_text(fig, epsilon, devs, sides, direction)


def update_switching(
    fig: Figure,
    epsilon: float,
    deviations: Sequence[float] = (0.25, 0.5, 1.0, 2.0),
    *,
    direction: str | None = None,
    fast: bool = False,
) -> bool:
    """Bring a :func:`plot_switching` figure of the same deviations and direction to a new ε
    in place (notebook 07's dashboard): the bar heights, the title, the y limits and the
    text alternative. False, and nothing changed, for another direction (draw afresh)."""
    devs = np.asarray(deviations, dtype=float)
    if getattr(fig, "_course_shape", None) != ("switching", tuple(devs), direction, fast):
        return False
    (ax,) = fig.axes
    sides = {}
    for k, side in enumerate(("above", "below")):
        sides[side] = np.asarray(kr.durham_switch_probability(epsilon, devs, side), dtype=float)
        for bar, height in zip(ax.containers[k], sides[side], strict=True):
            bar.set_height(height)
    if direction == "worst":
        worst = kr.durham_switch_probability(epsilon, devs, "worst")
        for bar, height in zip(ax.containers[2], worst, strict=True):
            bar.set_height(height)
    shown = f", switch {direction}" if direction else ""
    ax.set_title(f"ε = {risk_up(float(epsilon)):.3f}{shown}", fontsize=_FONT)
    # the data limits a fresh figure has: from 0 to the tallest bar or the 10 % line (relim
    # would pass the bars through display coordinates and round their tops by an ulp)
    heights = [bar.get_height() for container in ax.containers for bar in container]
    ax.dataLim.intervaly = (0.0, max(*heights, 0.1))
    ax.autoscale_view()
    _switching_text(fig, epsilon, devs, sides, direction)
    return True


def _switching_text(fig, epsilon, devs, sides, direction=None) -> Figure:
    """The text alternative of :func:`plot_switching`: the bars' heights and, with a
    ``direction``, which side is drawn in full (or the worst case outlined), so that two
    figures that differ have different texts (issue 42)."""
    worst = np.maximum(sides["above"], sides["below"])
    met = [f"{d:g}" for d, w in zip(devs, worst, strict=True) if w <= 0.1]
    shown = {
        None: "",
        "above": " The truth-above bars are drawn in full, the truth-below bars faded.",
        "below": " The truth-below bars are drawn in full, the truth-above bars faded.",
        "worst": " The worst case per deviation is outlined in black.",
    }[direction]
    return describe(
        fig,
        f"Example 3 (Durham infant deaths) at ε = {risk_up(float(epsilon)):.3f}: the probability that the"
        " released count falls on the other side of the target, for true rates "
        f"{listing(f'{d:g}' for d in devs)} per 1,000 from 6.0, with the truth above the "
        f"target ({listing(f'{v:.3f}' for v in sides['above'])}) and below it "
        f"({listing(f'{v:.3f}' for v in sides['below'])}), beside the 10 % goal (dotted)." + shown,
        (
            f"Both sides meet the goal for deviations {listing(met)}."
            if met
            else "No deviation shown meets the 10 % goal on both sides."
        ),
    )
