"""Figure functions for the prior and posterior notebooks (01, 02): data in, Figure out.

Lee & Clifton's adversary knows the universe U and that the release holds ``size`` = n of
its records; the possible worlds ω₁ … ω_W are the n-subsets of U in
``itertools.combinations`` order (``helpers.lee_clifton.possible_worlds``). The functions
here label those worlds, tabulate them, and draw the prior, the posterior of Definition 3
and the success of the simulated attack. The notebooks' static figures, the dashboards in
``helpers.widgets.beliefs`` and the PNGs in ``figures/`` all come from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.markers import MarkerStyle
from matplotlib.ticker import MaxNLocator, ScalarFormatter

from ..checks import check_finite_scalar, check_positive, check_real
from ..lee_clifton import world_values
from ..mechanisms import laplace_pdf
from ..sensitivity import combination_indices
from ._alt import describe, listing
from ._style import GREY, HATCHES, LINESTYLES, MARKERS, ORANGE, SMALL, course_style, scaled_axis
from .rounding import risk_up

__all__ = [
    "plot_attack_success",
    "plot_posterior",
    "plot_prior",
    "update_attack_marker",
    "update_posterior",
    "update_prior",
    "world_labels",
    "worlds_table",
]

PRIOR_COLOR = GREY
POSTERIOR_COLOR = "C0"
READER_COLOR = ORANGE


def _probabilities(name: str, values, n_worlds: int) -> np.ndarray:
    """Probabilities over the worlds: finite, in [0, 1], one per world."""
    probs = check_real(name, values)
    if probs.shape != (n_worlds,):
        raise ValueError(f"{name} has shape {probs.shape}; expected ({n_worlds},)")
    if np.any((probs < 0) | (probs > 1)):
        raise ValueError(f"{name} must hold probabilities in [0, 1]; got {probs.tolist()}")
    return probs


def _members(names: Sequence[str], size: int) -> tuple[np.ndarray, np.ndarray]:
    names = np.asarray(list(names), dtype=object)
    if not 1 <= size <= names.size:
        raise ValueError(f"size must be an integer in 1..{names.size}; got {size!r}")
    inside = combination_indices(names.size, size)
    mask = np.ones((inside.shape[0], names.size), dtype=bool)
    np.put_along_axis(mask, inside, False, axis=1)
    outside = np.nonzero(mask)[1].reshape(inside.shape[0], names.size - size)
    return names[inside], names[outside]


def world_labels(names: Sequence[str], size: int) -> list[str]:
    """Short labels for the possible worlds, in combinations order.

    When at most two records are left out a world is named by who is missing
    (``"ω1: no Terry"``), otherwise by who is in it.
    """
    inside, outside = _members(names, size)
    if outside.shape[1] == 0:
        return ["ω1: everyone"]
    if outside.shape[1] <= 2:
        return [f"ω{i + 1}: no {' & '.join(row)}" for i, row in enumerate(outside)]
    return [f"ω{i + 1}: {', '.join(row)}" for i, row in enumerate(inside)]


def worlds_table(
    data: pd.DataFrame,
    size: int,
    columns: Sequence[str] = ("school_year", "absence_days"),
    query="mean",
    *,
    name_column: str = "name",
) -> pd.DataFrame:
    """One row per possible world: who is in it, who is left out, and f(ω) per column.

    f(ω) comes from ``helpers.lee_clifton.world_values`` (the same numbers the posterior uses).
    """
    inside, outside = _members(data[name_column], size)
    table = pd.DataFrame(
        {
            "in the release": [", ".join(row) for row in inside],
            "left out": [", ".join(row) for row in outside],
        },
        index=pd.Index([f"ω{i + 1}" for i in range(inside.shape[0])], name="world"),
    )
    label = getattr(query, "name", query) if not isinstance(query, str) else query
    for column in columns:
        values = data[column].to_numpy()
        rows = values[combination_indices(values.size, size)]
        table[f"{column} values"] = [", ".join(f"{v:g}" for v in row) for row in rows]
        table[f"{label}({column})"] = world_values(values, size, query)
    return table


@course_style
def plot_prior(
    priors: Mapping[str, np.ndarray],
    labels: Sequence[str],
    *,
    title: str = "The adversary's prior over the possible worlds",
    figsize: tuple[float, float] = (6.4, 3.2),
) -> Figure:
    """Grouped bars, one group per world, one bar per prior in ``priors`` (name -> probabilities).

    A dotted line marks 1/W, the uniform prior. ``ax.containers[k]`` holds the bars of the
    k-th prior, so tests can read the plotted heights back. Each prior has its colour and its
    hatch.
    """
    fig = Figure(figsize=figsize)
    fig.subplots_adjust(left=0.1, right=0.98, bottom=0.12, top=0.9)
    ax = fig.add_subplot()
    n_worlds = len(labels)
    x = np.arange(n_worlds)
    width = 0.8 / max(len(priors), 1)
    colors = [PRIOR_COLOR, READER_COLOR, POSTERIOR_COLOR, "C2"]
    described = []
    for k, (name, probs) in enumerate(priors.items()):
        probs = _probabilities(f"prior {name!r}", probs, n_worlds)
        offset = (k - (len(priors) - 1) / 2) * width
        bars = ax.bar(
            x + offset,
            probs,
            width,
            label=name,
            color=colors[k % len(colors)],
            hatch=HATCHES[k % len(HATCHES)],
            edgecolor="white",
        )
        ax.bar_label(bars, fmt="%.3f", fontsize=SMALL)
        described.append(_prior_sentence(name, probs, labels))
    ax.axhline(1 / n_worlds, color="black", lw=0.8, ls=":", label=f"1/W = 1/{n_worlds}")
    ax.set_xticks(x, labels, fontsize=SMALL)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("probability")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=SMALL, loc="upper right")
    fig._course_shape = ("prior", tuple(priors), tuple(labels), title)
    return _prior_text(fig, title, n_worlds, described)


def _prior_text(fig, title, n_worlds, described) -> Figure:
    return describe(
        fig,
        f"Bar chart: {title}. For each of the W = {n_worlds} possible worlds, the bars show "
        + "; ".join(described)
        + f"; a dotted line marks the uniform prior 1/W = {1 / n_worlds:.3g}.",
    )


def update_prior(
    fig: Figure,
    priors: Mapping[str, np.ndarray],
    labels: Sequence[str],
    *,
    title: str = "The adversary's prior over the possible worlds",
) -> bool:
    """Bring a :func:`plot_prior` figure of the same priors' names and worlds to new
    probabilities in place (notebook 01's weight sliders): the bar heights, their labels and
    the text alternative. False, and nothing changed, for other names or worlds."""
    if getattr(fig, "_course_shape", None) != ("prior", tuple(priors), tuple(labels), title):
        return False
    (ax,) = fig.axes
    n_worlds = len(labels)
    described = []
    for k, (name, probs) in enumerate(priors.items()):
        probs = _probabilities(f"prior {name!r}", probs, n_worlds)
        texts = ax.texts[k * n_worlds : (k + 1) * n_worlds]
        for bar, height, label in zip(ax.containers[k], probs, texts, strict=True):
            bar.set_height(height)
            label.xy = (label.xy[0], height)
            label.set_text(f"{height:.3f}")
        described.append(_prior_sentence(name, probs, labels))
    _prior_text(fig, title, n_worlds, described)
    return True


def _posterior_label(height: float) -> str:
    """A posterior bar's label: four decimals rounded up, never to nearest."""
    return f"{risk_up(height):.4f}"


def _marker_path(marker: str):
    """A marker's outline as a path of unit size (a scatter with one marker per point)."""
    style = MarkerStyle(marker)
    return style.get_path().transformed(style.get_transform())


def _prior_sentence(name: str, probs: np.ndarray, labels: Sequence[str]) -> str:
    """'uniform prior: 0.250 each' or 'your prior: ω1: no Terry 0.400, ... (most probable: ...)'."""
    if np.allclose(probs, probs[0], rtol=0, atol=5e-4):
        return f"{name}: {probs[0]:.3f} for every world"
    shown = listing(f"{label} {p:.3f}" for label, p in zip(labels, probs, strict=True))
    best = int(np.argmax(probs))
    return f"{name}: {shown}, so {labels[best]} is the most probable"


@course_style
def plot_posterior(
    f_values: np.ndarray,
    prior: np.ndarray,
    posterior: np.ndarray,
    labels: Sequence[str],
    *,
    output: float,
    scale: float,
    title: str = "",
    figsize: tuple[float, float] = (8.6, 3.1),
) -> Figure:
    """Definition 3 in two panels.

    Left: the Laplace density of the release under each world, centred at f(ωᵢ) with scale
    b = Δf/ε (``axes[0].lines[i]``, coloured per world), the noisy output r (a vertical
    line) and the density values at r (the dots: the numerators of Definition 3 before the
    prior and the normalisation). Right: bars of the prior (``axes[1].containers[0]``, grey)
    beside the posterior (``axes[1].containers[1]``, hatched, in the world's colour). Each
    world also has its own line style and marker, named in the left panel's legend.
    """
    n_worlds = len(labels)
    f_values = check_real("f_values", f_values)
    if f_values.shape != (n_worlds,):
        raise ValueError(f"f_values has shape {f_values.shape}; expected ({n_worlds},)")
    prior = _probabilities("prior", prior, n_worlds)
    posterior = _probabilities("posterior", posterior, n_worlds)
    output = check_finite_scalar("output", output)
    scale = float(check_positive("scale", scale))
    fig = Figure(figsize=figsize)
    # fixed margins, no layout engine, few ticks and labels: a dashboard redraw stays fast
    fig.subplots_adjust(left=0.1, right=0.99, bottom=0.16, top=0.82 if title else 0.9, wspace=0.22)
    ax_pdf, ax_bar = fig.subplots(1, 2, width_ratios=[1.1, 1])

    span = max(float(np.ptp(f_values)), 1.0)
    low = min(f_values.min(), output) - max(3 * scale, 0.5 * span)
    high = max(f_values.max(), output) + max(3 * scale, 0.5 * span)
    x = np.linspace(low, high, 240)
    colors = [f"C{i % 7}" for i in range(n_worlds)]
    at_r = laplace_pdf(output, f_values, scale)
    for i in range(n_worlds):
        style = {"ls": LINESTYLES[i % len(LINESTYLES)], "marker": MARKERS[i % len(MARKERS)]}
        ax_pdf.plot(
            x,
            laplace_pdf(x, f_values[i], scale),
            color=colors[i],
            lw=1.3,
            markevery=[int(np.argmin(np.abs(x - f_values[i])))],  # one marker, at the peak
            ms=5,
            label=labels[i].split(":")[0],
            gid=f"likelihood{i}",
            **style,
        )
    # the density at r under each world, with that world's colour and marker
    dots = ax_pdf.scatter(np.full(n_worlds, output), at_r, c=colors, zorder=3, s=24)
    dots.set_paths([_marker_path(MARKERS[i % len(MARKERS)]) for i in range(n_worlds)])
    ax_pdf.axvline(output, color="black", lw=1, ls="--")
    ax_pdf.set_ylim(0, 1.45 / (2 * scale))  # head room above the peaks for the legend
    ax_pdf.legend(fontsize=SMALL, loc="upper right", ncol=min(n_worlds, 4), handlelength=2.4)
    ax_pdf.xaxis.set_major_locator(MaxNLocator(6))
    ax_pdf.yaxis.set_major_locator(MaxNLocator(4))
    ax_pdf.set_xlabel(f"noisy output r = {output:.6g}   (Laplace scale b = {scale:.4g})")
    # the Laplace density peaks at 1/(2b): 0.0088 at ε = 0.05 reads as 8.8 with "×10⁻³"
    ax_pdf.set_ylabel("density P(r | ω)" + scaled_axis(ax_pdf.yaxis, 1 / (2 * scale)))
    ax_pdf.set_title("likelihood of r under each world (as on the right)", fontsize=9)

    xb = np.arange(n_worlds)
    uniform = bool(np.allclose(prior, 1.0 / n_worlds))
    prior_name = f"prior (uniform, 1/W = {1 / n_worlds:.3g})" if uniform else "prior"
    prior_bars = ax_bar.bar(xb - 0.2, prior, 0.4, color=PRIOR_COLOR, label=prior_name)
    post_bars = ax_bar.bar(
        xb + 0.2, posterior, 0.4, color=colors, hatch="//", edgecolor="white", label="posterior"
    )
    if not uniform:
        ax_bar.bar_label(prior_bars, fmt="%.3f", fontsize=SMALL)
    ax_bar.bar_label(post_bars, fmt=_posterior_label, fontsize=SMALL)
    # "ω3:" above "no Kelly": four names side by side ran into each other at 9 pt
    ax_bar.set_xticks(xb, [label.replace(": ", ":\n", 1) for label in labels], fontsize=SMALL)
    ax_bar.set_ylim(0, 1.05)
    ax_bar.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax_bar.set_ylabel("probability")
    ax_bar.legend(fontsize=SMALL, loc="upper right")
    ax_bar.set_title("prior vs posterior (Definition 3)", fontsize=9)
    if title:
        fig.suptitle(title, fontsize=10)
    fig._course_shape = ("posterior", tuple(f_values), tuple(prior), tuple(labels), bool(title))
    return _posterior_text(fig, f_values, prior, posterior, labels, output, scale, title)


def update_posterior(
    fig: Figure,
    f_values: np.ndarray,
    prior: np.ndarray,
    posterior: np.ndarray,
    labels: Sequence[str],
    *,
    output: float,
    scale: float,
    title: str = "",
) -> bool:
    """Bring a :func:`plot_posterior` figure of the same worlds (f-values, prior, labels) to
    a new output r and scale in place (notebook 02's ε and r sliders): the likelihoods and
    their markers, the dots at r, the r line, the posterior bars and their labels, the axis
    limits and labels, the title and the text alternative. False, and nothing changed, for
    other worlds (draw afresh)."""
    n_worlds = len(labels)
    f_values = check_real("f_values", f_values)
    prior = _probabilities("prior", prior, n_worlds)
    posterior = _probabilities("posterior", posterior, n_worlds)
    output = check_finite_scalar("output", output)
    scale = float(check_positive("scale", scale))
    shape = ("posterior", tuple(f_values), tuple(prior), tuple(labels), bool(title))
    if getattr(fig, "_course_shape", None) != shape:
        return False
    ax_pdf, ax_bar = fig.axes
    span = max(float(np.ptp(f_values)), 1.0)
    low = min(f_values.min(), output) - max(3 * scale, 0.5 * span)
    high = max(f_values.max(), output) + max(3 * scale, 0.5 * span)
    x = np.linspace(low, high, 240)
    for i in range(n_worlds):
        line = ax_pdf.lines[i]
        line.set_data(x, laplace_pdf(x, f_values[i], scale))
        line.set_markevery([int(np.argmin(np.abs(x - f_values[i])))])
    ax_pdf.collections[0].set_offsets(
        np.column_stack([np.full(n_worlds, output), laplace_pdf(output, f_values, scale)])
    )
    ax_pdf.lines[n_worlds].set_xdata([output, output])
    ax_pdf.relim()
    ax_pdf.autoscale_view(scaley=False)
    ax_pdf.set_ylim(0, 1.45 / (2 * scale))
    ax_pdf.set_xlabel(f"noisy output r = {output:.6g}   (Laplace scale b = {scale:.4g})")
    ax_pdf.yaxis.set_major_formatter(ScalarFormatter())
    ax_pdf.set_ylabel("density P(r | ω)" + scaled_axis(ax_pdf.yaxis, 1 / (2 * scale)))
    post_bars = ax_bar.containers[1]
    for bar, height, label in zip(post_bars, posterior, ax_bar.texts[-n_worlds:], strict=True):
        bar.set_height(height)
        label.xy = (label.xy[0], height)
        label.set_text(f"{risk_up(height):.4f}")
    if title:
        fig.suptitle(title, fontsize=10)
    _posterior_text(fig, f_values, prior, posterior, labels, output, scale, title)
    return True


def _posterior_text(fig, f_values, prior, posterior, labels, output, scale, title) -> Figure:
    n_worlds = len(labels)
    best = int(np.argmax(posterior))
    posteriors = listing(
        f"{label} {risk_up(p):.4f}" for label, p in zip(labels, posterior, strict=True)
    )
    return describe(
        fig,
        f"{title or 'Definition 3'}. Left: the Laplace likelihood of the "
        f"noisy output r = {output:.6g} (scale b = {scale:.4g}) under each of the "
        f"{n_worlds} possible worlds, peaking at f(ω) = "
        f"{listing(f'{v:.4g}' for v in f_values)}; right: the prior beside the posterior, "
        f"{posteriors}.",
        f"The release moves the adversary's belief towards {labels[best]}: posterior "
        f"{risk_up(posterior[best]):.4f} against a prior of {prior[best]:.4g}.",
    )


@course_style
def plot_attack_success(
    epsilons: np.ndarray,
    curves: Mapping[str, np.ndarray],
    chance: float,
    *,
    marker: tuple[float, float] | None = None,
    linestyles: Sequence[str] | None = None,
    colors: Sequence[str] | None = None,
    title: str = "Seeded attack: how often the adversary's most probable world is the true one",
    figsize: tuple[float, float] = (6.4, 3.4),
) -> Figure:
    """Success rate against ε, one line per curve (``ax.lines[k]``), beside the prior's ``chance``
    (a dotted line, 1/W for a uniform prior); ``marker`` = (ε, rate) marks one point.
    ``linestyles`` and ``colors``, if given, hold one entry per curve; curves of different
    colours also get different markers, so none is told apart by colour alone."""
    fig = Figure(figsize=figsize)
    fig.subplots_adjust(left=0.1, right=0.98, bottom=0.14, top=0.9)
    ax = fig.add_subplot()
    epsilons = check_positive("epsilons", epsilons)
    if epsilons.ndim != 1:
        raise ValueError(f"epsilons must be one-dimensional; got shape {epsilons.shape}")
    chance = check_finite_scalar("chance", chance)
    if not 0 < chance <= 1:
        raise ValueError(f"chance must be a probability in (0, 1]; got {chance}")
    n = len(curves)
    linestyles = (
        list(linestyles)
        if linestyles is not None
        else [LINESTYLES[k % len(LINESTYLES)] for k in range(n)]
    )
    colors = list(colors) if colors is not None else [f"C{k % 7}" for k in range(n)]
    if len(linestyles) != n or len(colors) != n:
        raise ValueError(f"linestyles and colors need one entry per curve ({n})")
    distinct = list(dict.fromkeys(colors))
    described = []
    for k, (name, rates) in enumerate(curves.items()):
        rates = check_real(f"curve {name!r}", rates)
        if rates.shape != epsilons.shape:
            raise ValueError(f"curve {name!r} has shape {rates.shape}; expected {epsilons.shape}")
        if np.any((rates < 0) | (rates > 1)):
            raise ValueError(f"curve {name!r} must hold success rates in [0, 1]")
        ax.plot(
            epsilons,
            rates,
            color=colors[k],
            ls=linestyles[k],
            lw=1.5,
            marker=MARKERS[distinct.index(colors[k]) % len(MARKERS)],
            markevery=max(len(epsilons) // 6, 1),
            ms=5,
            label=name,
            gid=f"curve{k}",
        )
        described.append(f"{risk_up(rates[-1]):.2f} ({name})")
    ax.axhline(
        chance, color="black", ls=":", lw=1, label=f"prior guess 1/W = {chance:.3g}", gid="chance"
    )
    if marker is not None:
        ax.plot([marker[0]], [marker[1]], "o", color="black", ms=6, zorder=3, gid="marker")
        ax.axvline(marker[0], color="black", lw=0.6, alpha=0.5)
    ax.set_xlim(0, float(epsilons.max()))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("ε")
    ax.set_ylabel("success rate")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=SMALL, loc="lower right")
    finals = [float(np.asarray(r)[-1]) for r in curves.values()]
    point = (
        f"At ε = {risk_up(epsilons[-1]):.3g} every line lies above the prior's guess: the release lets "
        "the adversary beat guessing, and the more so the larger ε."
        if all(f > chance for f in finals)
        else "Where a line stays at the prior's guess, the release teaches the adversary nothing."
    )
    # what the marker does not change, kept for update_attack_marker
    fig._course_attack_text = (
        f"Line chart: {title}, against ε from {risk_up(epsilons[0]):.3g} to {risk_up(epsilons[-1]):.3g}, "
        f"beside the prior's guess 1/W = {chance:.3g} (dotted); at ε = {risk_up(epsilons[-1]):.3g} the "
        f"{'lines reach' if n > 1 else 'line reaches'} {listing(described)}.",
        point,
    )
    return _attack_text(fig, marker)


def _attack_text(fig, marker) -> Figure:
    sentence, point = fig._course_attack_text
    at = (
        f" A marker at ε = {risk_up(marker[0]):.3g} shows a success rate of {risk_up(marker[1]):.4f}."
        if marker is not None
        else ""
    )
    return describe(fig, sentence, point + at)


def update_attack_marker(fig: Figure, marker: tuple[float, float]) -> Figure:
    """Move the marker of a :func:`plot_attack_success` figure drawn with one (its ε line
    too) and its text alternative, in place: the curves are unchanged (notebook 02's ε
    slider)."""
    (ax,) = fig.axes
    epsilon, rate = marker
    next(line for line in ax.lines if line.get_gid() == "marker").set_data([epsilon], [rate])
    ax.lines[-1].set_xdata([epsilon, epsilon])  # the ε line, drawn last
    return _attack_text(fig, marker)
