"""Figure functions for notebook 11's allocation: a workload's budget, release by release
and in total, against what the risk allows.

:func:`plot_allocation` draws one family of noise, :func:`plot_mixed_allocation` one noise per
release judged on the workload's own privacy-loss distribution; :func:`update_allocation` and
:func:`update_mixed_allocation` move them in place (notebook 11's dashboard). :data:`SURVEY` is
the notebook's example workload (a health survey of 2,000 respondents), the default of these
figures, of the figures in ``figures/`` and of :func:`helpers.widgets.budget.budget_dashboard`.

The mathematics is :mod:`helpers.budget`; these functions only draw it. Plotted artists carry
a ``gid`` so tests (and readers of the code) find the data by name.
:mod:`helpers.plotting.budget` re-exports every public name, where notebooks 11 and 12 read
them.
"""

from __future__ import annotations

import textwrap
from functools import lru_cache

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import budget as bud
from ._alt import describe, listing
from ._style import (
    BLACK,
    BLUE,
    ORANGE,
    SMALL,
    VERMILLION,
    course_style,
)
from .rounding import allowed_down, risk_up

__all__ = [
    "SURVEY",
    "SURVEY_RECORDS",
    "plot_allocation",
    "plot_mixed_allocation",
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


#: the widest panel (a) may leave its labels, as a share of the figure's width; a label that
#: needs more is wrapped (a reader's own label, say)
_MOST_LEFT = 0.5
#: from a tick label to the figure's edge and to its axis: the tick's length and pad, and air
_LABEL_AIR_PT = (
    matplotlib.rcParams["ytick.major.size"] + matplotlib.rcParams["ytick.major.pad"] + 6.0
)


def _fit_labels(fig, labels, fontsize: float) -> list[str]:
    """Panel (a)'s tick labels, each wrapped where wider than :data:`_MOST_LEFT` allows, and
    the figure's left margin widened to hold the widest as its font draws it (never narrower
    than the kind's own margin): a label such as "mean exercise h/week: ±0.3 (99.1667 %)"
    (each target's coverage when all must hold at once) was cut at the image's left edge."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    prop = FontProperties(size=fontsize)
    width_pt = 72.0 * fig.get_figwidth()

    def extent(label: str) -> float:  # its widest line, in points
        return max(
            text_to_path.get_text_width_height_descent(line, prop, ismath=False)[0]
            for line in label.split("\n")
        )

    most = _MOST_LEFT * width_pt - _LABEL_AIR_PT
    fitted = []
    for label in labels:
        wide = extent(label)
        if wide > most:  # wrapped, narrower until every line fits (widths vary by glyph)
            chars = int(len(label) * most / wide)
            while chars > 8 and extent(textwrap.fill(label, chars)) > most:
                chars -= 1
            label = textwrap.fill(label, max(chars, 8))
        fitted.append(label)
    widest = max((extent(label) for label in fitted), default=0.0)
    left = max(_KINDS[fig._course_shape[0]]["left"], (widest + _LABEL_AIR_PT) / width_pt)
    fig.subplots_adjust(left=min(left, _MOST_LEFT))
    return fitted


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
    ax_a.set_yticks(y, _fit_labels(fig, labels, 10), fontsize=10)
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
