"""Figure functions for notebook 10 (choose your ε): both sides of the choice on one ε axis.

:func:`plot_choice` draws the accuracy side and the risk side of :func:`helpers.choose.choose`
(:func:`update_choice` moves it in place, for the notebook's dashboard);
:func:`plot_durham_choice` solves Kazan & Reiter's Example 3 from both sides.
:mod:`helpers.plotting.deployments` re-exports them, where notebook 10 and the dashboards read
them.

Plotted artists carry a ``gid`` so tests (and readers of the code) find the data by name.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure

from .. import choose as ch
from .. import deployments as dep
from .. import kazan_reiter as kr
from ._alt import describe, listing
from ._style import GREEN, LINESTYLES, MARKERS, VERMILLION, course_style
from .rounding import allowed_down, risk_up

__all__ = [
    "plot_choice",
    "plot_durham_choice",
    "update_choice",
]


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
