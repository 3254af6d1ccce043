"""Figure functions for the foundations notebook (00): data in, matplotlib Figure out.

Every function computes its numbers with :mod:`helpers.foundations` /
:mod:`helpers.mechanisms` and returns a ``Figure`` built without pyplot.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import (
    AutoLocator,
    FixedLocator,
    FuncFormatter,
    LogLocator,
    MaxNLocator,
    NullLocator,
    ScalarFormatter,
)

from .. import foundations as F
from ..mechanisms import laplace_pdf, laplace_scale
from ._alt import describe, listing
from ._style import CYCLE, HATCHES, LINESTYLES, SMALL, course_style, scaled_axis
from .rounding import allowed_down, risk_up

_TWO_PANELS = {"left": 0.08, "right": 0.98, "bottom": 0.15, "top": 0.88, "wspace": 0.28}
_ONE_PANEL = {"left": 0.13, "right": 0.97, "bottom": 0.14, "top": 0.9}


def _plain(value, _position=None) -> str:
    return f"{value:g}"


def _no_minor_ticks(*axes) -> None:
    """Keep redraws fast (the dashboards redraw on every slider move, budget < 100 ms).

    Building tick artists and placing titles dominate a redraw, so each axis gets a few
    fixed major ticks *inside* its view (matplotlib's locators also build the ticks just
    outside it): at most four on a linear axis, whole decades (every other one if there are
    more than four) on a log axis, labelled plainly ("0.01", not mathtext "10^{-2}"); no
    minor ticks; and a fixed title position (otherwise matplotlib measures every tick label
    to decide whether the title must move up). Ticks set by hand are kept. Call it last,
    once the limits are final.
    """
    for ax in axes:
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            axis.set_minor_locator(NullLocator())
            if isinstance(axis.get_major_locator(), FixedLocator):
                continue  # ticks chosen by hand
            lo, hi = sorted(limits)
            if axis.get_scale() == "log":
                ticks = 10.0 ** np.arange(np.ceil(np.log10(lo)), np.floor(np.log10(hi)) + 1)
                ticks = ticks[::2] if ticks.size > 4 else ticks
                axis.set_major_formatter(FuncFormatter(_plain))
            else:
                ticks = MaxNLocator(3).tick_values(lo, hi)
                span = hi - lo
                ticks = ticks[(ticks >= lo - 1e-9 * span) & (ticks <= hi + 1e-9 * span)]
            axis.set_ticks(ticks)
            # set_ticks may widen the view to the ticks; keep the limits drawn so far
            (ax.set_xlim if axis is ax.xaxis else ax.set_ylim)(limits)
        ax.set_title(ax.get_title(), fontsize=ax.title.get_fontsize(), y=1.0)


__all__ = [
    "plot_bits_sensitivity",
    "plot_closeness",
    "plot_exponential_mechanism",
    "plot_hypothesis_region",
    "plot_laplace_ratio",
    "plot_mean_of_bits",
    "plot_properties",
    "plot_randomised_response",
    "update_exponential_mechanism",
    "update_hypothesis_region",
    "update_laplace_ratio",
    "update_randomised_response",
]


@course_style
def plot_bits_sensitivity(n_max=40) -> Figure:
    """Global L1 sensitivity Δ_f of the sum and the mean of n bits, n = 1 … ``n_max``,
    each found by brute force over every count and every neighbour (bounded: one bit
    changed; unbounded: one person added or removed).

    ``ax.lines``: 0 sum (both notions), 1 mean bounded, 2 mean unbounded (among size-n
    data sets), 3 the unbounded mean's bound over *all* sizes, max over n' of lines[2].
    """
    n = np.arange(1, n_max + 1)
    # one brute-force call per size (a handful of sizes, each call vectorised)
    sens = {
        (query, kind): np.array([F.bits_query_sensitivity(int(k), query, kind) for k in n])
        for query in ("sum", "mean")
        for kind in ("bounded", "unbounded")
    }
    fig = Figure(figsize=(6.5, 3.3))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    ax.plot(
        n, sens[("sum", "unbounded")], color="C0", label="sum, bounded and unbounded", gid="sum"
    )
    ax.plot(
        n,
        sens[("mean", "bounded")],
        "o",
        ms=4,
        color="C1",
        label="mean, bounded (n fixed)",
        gid="mean_bounded",
    )
    ax.plot(
        n,
        sens[("mean", "unbounded")],
        "x",
        ms=5,
        color="C3",
        label="mean, unbounded, at size n",
        gid="mean_unbounded",
    )
    ax.axhline(
        sens[("mean", "unbounded")].max(),
        color="C3",
        ls="--",
        lw=1,
        label="mean, unbounded, every size at once",
        gid="mean_unbounded_all_sizes",
    )
    ax.set_yscale("log")
    ax.set_ylim(0.5 / n_max, 8.0)  # head room above Δ = 1 for the legend
    ax.set(xlabel="number of people n", ylabel="sensitivity Δ_f", title="L1 sensitivity of bits")
    ax.legend(fontsize=SMALL, loc="upper center")
    _no_minor_ticks(ax)
    mean_unbounded = sens[("mean", "unbounded")]
    return describe(
        fig,
        f"L1 sensitivity Δ_f of the sum and the mean of n bits for n = 1 to {n_max} (log "
        "scale), found by brute force: the sum's is "
        f"{listing(sorted({f'{v:g}' for v in sens[('sum', 'unbounded')]}), 'or')} for bounded "
        f"and unbounded neighbours alike; the bounded mean's falls as 1/n, to "
        f"{sens[('mean', 'bounded')][-1]:.3g} at n = {n_max}, and so does the unbounded mean's "
        f"at a fixed size, but over every size at once the unbounded mean's is "
        f"{mean_unbounded.max():g} (dashed).",
        "A DP mean must therefore be calibrated to the worst size, unless n is public.",
    )


def _laplace_ratio_grid(y1, y2, sensitivity) -> np.ndarray:
    lo, hi = min(y1, y2) - 3 * sensitivity, max(y1, y2) + 3 * sensitivity
    return np.union1d(np.linspace(lo, hi, 601), [y1, y2])  # include the peaks exactly


def _laplace_ratio_epsilon(fig, epsilon, y1, y2, sensitivity) -> Figure:
    """Everything of :func:`plot_laplace_ratio`'s figure that depends on ε: the curves, the
    density axis (limits, ticks, scale label), the bounds e^{±ε} and their ticks, the
    titles and the text alternative. Shared by the fresh draw and the in-place update."""
    ax, bx = fig.axes
    b = float(laplace_scale(epsilon, sensitivity=sensitivity))
    z = _laplace_ratio_grid(y1, y2, sensitivity)
    ax.lines[0].set_ydata(laplace_pdf(z, y1, b))
    ax.lines[1].set_ydata(laplace_pdf(z, y2, b))
    ax.yaxis.set_major_locator(AutoLocator())
    ax.yaxis.set_major_formatter(ScalarFormatter())
    ax.set(
        ylabel="density" + scaled_axis(ax.yaxis, 1 / (2 * b)),  # 0.003 reads as 3, ×10⁻³
        title=f"Laplace(Δ/ε), Δ = {sensitivity:g}, ε = {risk_up(epsilon):g}",
    )
    ax.set_ylim(0, 1.45 / (2 * b))  # head room above the peaks for the legend
    ratio = F.laplace_ratio(z, y1, y2, epsilon, sensitivity=sensitivity)
    bx.lines[0].set_ydata(ratio)
    bx.lines[1].set_ydata([np.exp(epsilon)] * 2)
    bx.lines[2].set_ydata([np.exp(-epsilon)] * 2)
    bx.set_yticks(
        [np.exp(-epsilon), 1.0, np.exp(epsilon)],
        ["e^−ε", "1", "e^ε"],
    )
    bx.set_ylim(np.exp(-epsilon) / 1.3, np.exp(epsilon) * 1.3)
    _no_minor_ticks(ax, bx)
    return describe(
        fig,
        f"Left: the Laplace densities of the released value with Δ = {sensitivity:g} and "
        f"ε = {risk_up(epsilon):g} (scale b = {b:.3g}), centred at f(x) = {y1:g} (solid) and f(x') = "
        f"{y2:g} (dashed); right: their ratio on a log scale, from {allowed_down(ratio.min()):.4f} to "
        f"{risk_up(ratio.max()):.4f}.",
        f"The ratio never leaves [e^−ε, e^ε] = [{allowed_down(np.exp(-epsilon)):.4f}, {risk_up(np.exp(epsilon)):.4f}]:"
        " no released value tells the two data sets apart by more than a factor e^ε.",
    )


def update_laplace_ratio(fig, epsilon=1.0, y1=10.0, y2=20.0, *, sensitivity=10.0) -> Figure:
    """Bring a :func:`plot_laplace_ratio` figure of the same y₁, y₂ and Δ to a new ε in place
    (notebook 00's dashboard)."""
    return _laplace_ratio_epsilon(fig, epsilon, y1, y2, sensitivity)


@course_style
def plot_laplace_ratio(epsilon=1.0, y1=10.0, y2=20.0, *, sensitivity=10.0) -> Figure:
    """Left: the Laplace(Δ/ε) densities centred at y₁ and y₂. Right: their ratio and e^{±ε}.

    ``axes[0].lines[0:2]`` are the densities, ``axes[1].lines[0]`` the ratio,
    ``axes[1].lines[1:3]`` the bounds e^{ε} and e^{−ε}. :func:`update_laplace_ratio` moves
    ε in place.
    """
    z = _laplace_ratio_grid(y1, y2, sensitivity)
    fig = Figure(figsize=(9, 3.4))
    ax, bx = fig.subplots(1, 2)
    fig.subplots_adjust(**_TWO_PANELS)
    # the curves' data and everything else that moves with ε: _laplace_ratio_epsilon
    ax.plot(z, z, label=f"output density, f(x) = {y1:g}", gid="density1")
    ax.plot(z, z, ls="--", label=f"output density, f(x') = {y2:g}", gid="density2")
    ax.set(xlabel="released value z")
    ax.set_xlim(z[0] - 0.05 * (z[-1] - z[0]), z[-1] + 0.05 * (z[-1] - z[0]))
    ax.legend(fontsize=SMALL, loc="upper left")
    bx.plot(z, z, color="C2", label="ratio p₁(z) / p₂(z)", gid="ratio")
    bx.axhline(1.0, color="k", ls="--", lw=1, label="e^ε and e^−ε", gid="exp_epsilon")
    bx.axhline(1.0, color="k", ls="--", lw=1)
    bx.axvspan(min(y1, y2), max(y1, y2), color="0.9", zorder=0)
    bx.set_yscale("log")
    bx.yaxis.set_minor_locator(NullLocator())
    bx.set(
        xlabel="released value z",
        ylabel="density ratio p₁/p₂ (log scale)",
        title="the ratio stays within [e^−ε, e^ε]",
    )
    bx.set_xlim(z[0] - 0.05 * (z[-1] - z[0]), z[-1] + 0.05 * (z[-1] - z[0]))
    bx.legend(fontsize=SMALL, loc="center right")
    return _laplace_ratio_epsilon(fig, epsilon, y1, y2, sensitivity)


@course_style
def plot_mean_of_bits(n=150, epsilon=1.0, p=0.4, reps=20_000, *, rng=0) -> Figure:
    """P[|π̂ − π| ≥ t] for π̂ = mean of n bits + Laplace(1/(nε)): simulated, exact, Chebyshev.

    Lines: 0 simulated, 1 exact e^{−t/b}, 2 Chebyshev with Var = 2/(ε²n²), 3 Chebyshev with the survey's
    wrong Var = 1/(ε²n²). That one still lies above the exact tail at every t, for a reason, not
    by luck: with κ = t/b it is 1/κ² and the tail e^{−κ}, and κ²e^{−κ} ≤ 4e^{−2} < 1 (its
    maximum, at κ = 2). Not a Chebyshev bound, but true because the Laplace tail is that light.
    """
    b = float(F.mean_of_bits_scale(n, epsilon))
    t = np.linspace(b / 20, 6 * b, 200)
    empirical = F.mean_of_bits_error_tail(n, epsilon, p, t, reps=reps, rng=rng)
    fig = Figure(figsize=(6.5, 3.6))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    ax.plot(t, empirical, color="C0", lw=2, label=f"simulated ({reps:,} seeded releases)")
    ax.plot(
        t,
        F.laplace_tail_probability(t, b),
        color="k",
        ls=":",
        label="exact tail e^(−t/b), b = 1/(nε)",
    )
    ax.plot(
        t,
        F.chebyshev_bound(F.mean_of_bits_variance(n, epsilon), t),
        color="C1",
        ls="-.",
        label="Chebyshev, Var = 2/(ε²n²)",
    )
    ax.plot(
        t,
        F.chebyshev_bound(1 / (epsilon * n) ** 2, t),
        color="C3",
        ls="--",
        label="survey's Var = 1/(ε²n²)",
    )
    ax.set_yscale("log")
    ax.set_ylim(1e-3, 1.05)
    ax.set(
        xlabel="error t",
        ylabel="P[|π̂ − π| ≥ t]",
        title=f"mean of n = {n} bits, Laplace(1/(nε)), ε = {risk_up(epsilon):g}",
    )
    ax.legend(fontsize=SMALL, loc="lower left")
    _no_minor_ticks(*fig.axes)
    at = int(np.argmin(np.abs(t - 3 * b)))  # t = 3b: the tail is e^-3 = 0.05
    chebyshev = F.chebyshev_bound(F.mean_of_bits_variance(n, epsilon), t)
    survey = F.chebyshev_bound(1 / (epsilon * n) ** 2, t)
    exact = F.laplace_tail_probability(t, b)
    above = bool(np.all(survey >= exact))
    return describe(
        fig,
        f"The tail P[|π̂ − π| ≥ t] of a Laplace-noised mean of n = {n} bits at ε = {risk_up(epsilon):g}"
        f" against the error t (log scale): at t = {t[at]:.3g} (three noise scales) the "
        f"simulated tail of {reps:,} releases is {empirical[at]:.3g}, the exact e^(−t/b) "
        f"{exact[at]:.3g}, Chebyshev with Var = 2/(ε²n²) {chebyshev[at]:.3g} and with the "
        f"survey's Var = 1/(ε²n²) {survey[at]:.3g}.",
        "The simulation follows the exact tail; Chebyshev is a loose bound, and the survey's "
        + (
            "smaller variance still stays above the exact tail at every t, not by luck: with "
            "κ = t/b it is 1/κ² against e^(−κ), and κ²e^(−κ) is at most "
            f"4e^(−2) = {4 * math.exp(-2):.2f} < 1 (at κ = 2)."
            if above
            else "smaller variance falls below the exact tail: it is wrong."
        ),
    )


@course_style
def plot_randomised_response(alpha=0.5, n=18, p=0.5, reps=4000, *, rng=0) -> Figure:
    """Left: histogram of simulated π̂ with the true π and ±2·√(1/(α²n)) (the notes' bound).
    Right: Var[π̂] against n: the notes' bound 1/(α²n), the tight bound 1/(4α²n), the exact
    q(1−q)/(α²n), and the simulated variance at the chosen n (a marker).

    ``axes[1].lines``: 0 notes' bound, 1 tight bound, 2 exact, 3 simulated marker.
    :func:`update_randomised_response` moves α and n in place (notebook 00's dashboard).
    """
    fig = Figure(figsize=(9, 3.4))
    ax, bx = fig.subplots(1, 2)
    fig.subplots_adjust(**_TWO_PANELS)
    # the artists; their data, the histogram, limits, ticks and titles: _randomised_response
    ax.axvline(p, color="k", lw=1.5, label=f"true π = {p:g}", gid="true_p")
    for sign in (-1, 1):
        ax.axvline(
            p,
            color="C3",
            ls="--",
            lw=1,
            label="π ± 2√(1/(α²n))" if sign < 0 else None,
            gid="minus_two_sd" if sign < 0 else "plus_two_sd",
        )
    ax.set(xlabel="estimate π̂", ylabel="density")
    ax.legend(fontsize=SMALL, loc="upper left")
    ns = np.unique(np.geomspace(2, 2000, 80).astype(int))
    ones = np.ones(ns.size)
    bx.plot(ns, ones, color="C3", ls="--", label="notes' bound 1/(α²n)", gid="notes_bound")
    bx.plot(ns, ones, color="C1", label="tight bound 1/(4α²n)", gid="tight_bound")
    bx.plot(ns, ones, color="k", ls=":", label="exact q(1−q)/(α²n)", gid="exact_variance")
    bx.plot([n], [1.0], "o", color="C0", label="simulated", gid="simulated_variance")
    bx.set_xscale("log")
    bx.set_yscale("log")
    bx.set(xlabel="n", ylabel="Var[π̂]", title="variance falls like 1/n")
    bx.legend(fontsize=SMALL, loc="lower left")
    fig._course_shape = ("randomised_response", p, reps)
    return _randomised_response(fig, alpha, n, p, reps, rng)


def update_randomised_response(fig, alpha=0.5, n=18, p=0.5, reps=4000, *, rng=0) -> bool:
    """Bring a :func:`plot_randomised_response` figure of the same π and repetitions to a
    new α and n in place (notebook 00's dashboard); False, and nothing changed, otherwise."""
    if getattr(fig, "_course_shape", None) != ("randomised_response", p, reps):
        return False
    _randomised_response(fig, alpha, n, p, reps, rng)
    return True


def _randomised_response(fig, alpha, n, p, reps, rng) -> Figure:
    """Everything of :func:`plot_randomised_response`'s figure that α and n move: the
    histogram (its bins follow n), the band, the curves and the marker, the limits (both
    axes autoscaled again from the data, as a fresh figure is), the ticks, the title and the
    text alternative. Shared by the fresh draw and the in-place update."""
    ax, bx = fig.axes
    est = F.rr_simulate_estimates(p, n, alpha, reps=reps, rng=rng)
    for container in list(ax.containers):
        container.remove()
    # π̂ lives on the lattice (y/n − (1 − α)/2)/α, y = 0..n: one bar per value when n is small
    bins = (np.arange(n + 2) - 0.5) / n if n <= 60 else np.linspace(0, 1, 41)
    # the course's first colour ("C0" inside course_style), named: an update runs outside it
    ax.hist(est, bins=(bins - (1 - alpha) / 2) / alpha, color=CYCLE[0], alpha=0.8, density=True)
    half = 2 * np.sqrt(float(F.rr_variance_bound(n, alpha)))
    lines = {line.get_gid(): line for line in (*ax.lines, *bx.lines)}
    lines["minus_two_sd"].set_xdata([p - half] * 2)
    lines["plus_two_sd"].set_xdata([p + half] * 2)
    eps = float(F.rr_epsilon(alpha)) if alpha < 1 else np.inf
    ax.set_title(f"randomised response, α = {alpha:g}, n = {n}, ε = {risk_up(eps):.3g}")
    ns = lines["notes_bound"].get_xdata()
    lines["notes_bound"].set_ydata(F.rr_variance_bound(1, alpha) / ns)
    lines["tight_bound"].set_ydata(F.rr_variance_bound_tight(1, alpha) / ns)
    lines["exact_variance"].set_ydata(F.rr_variance(p, 1, alpha) / ns)
    lines["simulated_variance"].set_data([n], [est.var()])
    for axes in (ax, bx):  # the limits from the data drawn now, as on a fresh figure
        for axis in (axes.xaxis, axes.yaxis):
            axis.set_major_locator(LogLocator() if axis.get_scale() == "log" else AutoLocator())
        axes.set_autoscale_on(True)
        axes.relim()
        axes.autoscale_view()
    _no_minor_ticks(*fig.axes)
    inside = float(np.mean(np.abs(est - p) <= half))
    return describe(
        fig,
        f"Left: histogram of {reps:,} simulated estimates π̂ from randomised response with "
        f"α = {alpha:g}, n = {n} (ε = {risk_up(eps):.3g}) around the true π = {p:g}, with the notes' "
        f"band π ± 2√(1/(α²n)) = ±{half:.3f}, which holds {inside:.1%} of them; right: "
        "Var[π̂] against n on log axes: the notes' bound 1/(α²n), the tight bound 1/(4α²n), "
        f"the exact variance and the simulated {est.var():.4g} at n = {n}.",
        "The variance falls like 1/n, and the exact variance never exceeds the tight bound, "
        "a quarter of the notes' bound.",
    )


@course_style
def plot_properties(epsilon=0.5, alpha1=0.5, alpha2=0.3, *, rng=5) -> Figure:
    """The three properties that make ε a budget, each measured on a small example.

    Left, post-processing: the log-ratio ln(P[y | x=1]/P[y | x=0]) of every output of
    randomised response with parameter ``alpha1`` (2 outputs) and of G(RR) for a random
    kernel G to 4 outputs (seeded Dirichlet rows); all within ±ε(α₁). Middle, group
    privacy: the worst Laplace(1/ε) log-ratio between counts k apart, against kε. Right,
    sequential composition: the worst log-ratio of (RR(α₁), RR(``alpha2``)) run together,
    against ε₁ + ε₂, for a range of α₁.

    The numbers come from :func:`helpers.foundations.properties_experiment`.
    ``axes[0].patches``: the 2 + 4 bars; line gids ``"group_measured"``, ``"group_budget"``
    (kε), ``"composition_measured"``, ``"composition_budget"`` (ε₁ + ε₂).
    """
    fig = Figure(figsize=(9, 3.2))
    ax, bx, cx = fig.subplots(1, 3)
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.17, top=0.86, wspace=0.38)
    # the measurements come from the math layer; this function only draws them
    ex = F.properties_experiment(epsilon, alpha1, alpha2, rng=rng)
    before, after, eps_rr = ex.before, ex.after, ex.epsilon_rr
    ax.bar(np.arange(2), before, color="C0", label="RR outputs")
    ax.bar(np.arange(2, 6), after, color="C1", hatch="//", edgecolor="white", label="G(RR) outputs")
    for sign in (-1, 1):
        ax.axhline(sign * eps_rr, color="k", ls="--", lw=1)
    ax.set_xticks(np.arange(6), ["0", "1", "a", "b", "c", "d"])
    ax.set_ylim(-1.7 * eps_rr, 2.9 * eps_rr)  # room above +ε for the legend
    ax.set(
        xlabel="output y",
        ylabel="ln P[y | x=1] / P[y | x=0]",
        title=f"post-processing, ±ε = ±{risk_up(eps_rr):.2f}",
    )
    ax.legend(fontsize=SMALL, loc="upper center")
    # group privacy
    k = ex.k
    bx.plot(k, ex.group_worst, "o", color="C2", label="worst log-ratio", gid="group_measured")
    bx.plot(k, ex.group_budget, color="k", ls="--", lw=1, label="kε", gid="group_budget")
    bx.set_xticks(k)
    bx.set(
        xlabel="k records apart", ylabel="ε spent", title=f"group privacy, ε = {risk_up(epsilon):g}"
    )
    bx.legend(fontsize=SMALL, loc="upper left")
    # sequential composition
    cx.plot(
        ex.epsilon1,
        ex.composition_worst,
        "o",
        color="C4",
        label="worst log-ratio (pair)",
        gid="composition_measured",
    )
    cx.plot(
        ex.epsilon1,
        ex.composition_budget,
        color="k",
        ls="--",
        lw=1,
        label="ε₁ + ε₂",
        gid="composition_budget",
    )
    cx.set(xlabel="ε₁ = ε of RR(α₁)", ylabel="ε spent", title=f"composition with RR({alpha2:g})")
    cx.margins(y=0.1)  # the last point clear of the top edge
    cx.legend(fontsize=SMALL, loc="upper left")
    _no_minor_ticks(ax, bx, cx)
    within = bool(np.all(np.abs(np.concatenate([before, after])) <= eps_rr + 1e-12))
    group = (
        "equals kε"
        if np.allclose(ex.group_worst, ex.group_budget)
        else "stays at or below kε"
        if np.all(ex.group_worst <= ex.group_budget + 1e-12)
        else "exceeds kε"
    )
    composed = (
        "equals ε₁ + ε₂"
        if np.allclose(ex.composition_worst, ex.composition_budget)
        else "stays at or below ε₁ + ε₂"
        if np.all(ex.composition_worst <= ex.composition_budget + 1e-12)
        else "exceeds ε₁ + ε₂"
    )
    return describe(
        fig,
        f"Three properties of ε measured on small examples. Post-processing: the log-ratios of "
        f"randomised response's 2 outputs and of a random post-processing G(RR)'s 4 outputs "
        f"{'all stay within' if within else 'do not all stay within'} ±ε = ±{risk_up(eps_rr):.2f}. "
        f"Group privacy at ε = {risk_up(epsilon):g}: the worst log-ratio for records k = "
        f"{int(k[0])}–{int(k[-1])} apart {group} (up to {risk_up(float(np.max(ex.group_worst))):.3g}). "
        f"Composition with RR({alpha2:g}): the pair's worst log-ratio {composed} for every "
        "ε₁ shown.",
        "ε behaves as a budget: processing never raises it, groups and repeated releases add it "
        "up.",
    )


@course_style
def plot_hypothesis_region(epsilon=1.0, *, sensitivity=1.0) -> Figure:
    """The (FPR, FNR) pairs an ε-DP mechanism allows, and the Laplace threshold tests inside.

    The region is cut by all four constraints (Kairouz, Oh & Viswanath 2015, Theorem 2.1):
    FPR + e^ε FNR ≥ 1 and e^ε FPR + FNR ≥ 1 (no test is too good), and the same two for the
    complementary test, (1 − FPR) + e^ε (1 − FNR) ≥ 1 and e^ε (1 − FPR) + (1 − FNR) ≥ 1 (no
    test is too bad either: flipping its answer would make it too good). The upper edge is the
    lower edge mirrored through (½, ½): FNR ≤ 1 − min FNR(1 − FPR).

    Lines: 0 the lower boundary FNR = max(0, 1 − e^ε FPR, e^{−ε}(1 − FPR)), 1 the Laplace
    tests' curve (t from far left to far right), 2 the line FPR + FNR = 1 (random guessing),
    3 the upper boundary.
    """
    p = np.linspace(0, 1, 401)
    q_min = F.hypothesis_min_q(p, epsilon)
    q_max = F.hypothesis_max_q(p, epsilon)  # the complementary test's constraints
    t = np.linspace(-8, 9, 400) * sensitivity
    tp, tq = F.laplace_threshold_test(t, epsilon, sensitivity=sensitivity)
    # the legend beside the square axes, not below: wider than tall, so that on a 1280 × 720
    # slide the figure is half the width and still fits the height (instructor/slides.py)
    fig = Figure(figsize=(7.4, 4.4))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.1, right=0.56, top=0.92, bottom=0.13)
    ax.fill_between(p, q_min, q_max, color="C0", alpha=0.15, label="feasible under ε-DP")
    ax.plot(
        p, q_min, color="C0", lw=2, label="FPR + e^ε FNR ≥ 1, e^ε FPR + FNR ≥ 1", gid="boundary"
    )
    ax.plot(
        tp,
        tq,
        color="C3",
        lw=1.5,
        ls="-.",
        label="Laplace mechanism, tests 'output > t'",
        gid="laplace_tests",
    )
    ax.plot([0, 1], [1, 0], color="black", ls=":", lw=1, label="random guessing (ε = 0)")
    ax.plot(
        p,
        q_max,
        color="C0",
        lw=1.5,
        ls="--",
        label="the same for 1 − FPR, 1 − FNR",
        gid="boundary_complement",
    )
    pm, qm = F.laplace_threshold_test(sensitivity / 2, epsilon, sensitivity=sensitivity)
    ax.plot([pm], [qm], "o", color="C3")
    ax.set(
        xlim=(0, 1),
        ylim=(0, 1),
        xlabel="FPR = false-positive rate",
        ylabel="FNR = false-negative rate",
    )
    ax.set_title(f"hypothesis-testing view, ε = {risk_up(epsilon):g}", fontsize=10)
    ax.set_aspect("equal")
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.legend(fontsize=SMALL, loc="center left", bbox_to_anchor=(1.04, 0.5), frameon=False)
    _no_minor_ticks(*fig.axes)
    return _hypothesis_region_text(fig, epsilon, pm)


def _hypothesis_region_text(fig, epsilon, pm) -> Figure:
    best = float(F.hypothesis_min_equal_error(epsilon))
    return describe(
        fig,
        f"The false-positive and false-negative rates (FPR, FNR) every test can reach against an "
        f"ε-DP mechanism at ε = {risk_up(epsilon):g}: a shaded region around the random-guessing line "
        "FPR + FNR = 1, bounded by FPR + e^ε FNR ≥ 1 and e^ε FPR + FNR ≥ 1 and their mirror "
        "image, with the Laplace mechanism's threshold tests as a dash-dotted curve inside it.",
        f"No test does better than FPR = FNR = 1/(1 + e^ε) = {allowed_down(best):.4f}; the Laplace test at the "
        f"midpoint reaches {allowed_down(float(pm)):.4f}.",
    )


def update_hypothesis_region(fig, epsilon=1.0, *, sensitivity=1.0) -> Figure:
    """Bring a :func:`plot_hypothesis_region` figure of the same Δ to a new ε in place: the
    region, its boundaries, the Laplace tests and the midpoint test, the title, the text
    alternative (the axes' limits and ticks are fixed)."""
    (ax,) = fig.axes
    p = np.linspace(0, 1, 401)
    q_min = F.hypothesis_min_q(p, epsilon)
    q_max = F.hypothesis_max_q(p, epsilon)
    tp, tq = F.laplace_threshold_test(
        np.linspace(-8, 9, 400) * sensitivity, epsilon, sensitivity=sensitivity
    )
    ax.collections[0].set_data(p, q_min, q_max)
    ax.lines[0].set_data(p, q_min)
    ax.lines[1].set_data(tp, tq)
    ax.lines[3].set_data(p, q_max)
    pm, qm = F.laplace_threshold_test(sensitivity / 2, epsilon, sensitivity=sensitivity)
    ax.lines[4].set_data([pm], [qm])
    ax.set_title(f"hypothesis-testing view, ε = {risk_up(epsilon):g}", fontsize=10, y=1.0)
    return _hypothesis_region_text(fig, epsilon, pm)


@course_style
def plot_exponential_mechanism(
    epsilon=1.0, prices=F.SURVEY_AUCTION_PRICES, bids=F.SURVEY_AUCTION_BIDS
) -> Figure:
    """Left: P[price selected] against ε (log axis), a marker line at ``epsilon``. Right:
    expected revenue against ε, the best revenue, and the value at ``epsilon``.

    ``axes[0].lines[i]`` is price i; ``axes[1].lines[0]`` the expected revenue curve.
    """
    prices = np.asarray(prices, dtype=float)
    revenue = F.auction_revenue(prices, bids)
    delta = F.auction_revenue_sensitivity(prices)
    grid = np.geomspace(0.01, 2000, 150)
    probs = F.exponential_mechanism_probabilities(revenue, grid, sensitivity=delta)
    fig = Figure(figsize=(9, 3.4))
    ax, bx = fig.subplots(1, 2)
    fig.subplots_adjust(**_TWO_PANELS)
    for i, (price, r) in enumerate(zip(prices, revenue, strict=True)):
        ax.plot(
            grid,
            probs[:, i],
            ls=LINESTYLES[i % len(LINESTYLES)],
            label=f"price {price:.2f} (revenue {r:.2f})",
        )
    ax.axvline(epsilon, color="k", ls=":", lw=1, gid="epsilon_marker")
    ax.set_xscale("log")
    ax.set(
        xlabel="ε",
        ylabel="P[price selected]",
        title=f"exponential mechanism, Δ = {delta:.2f} (dollars)",
    )
    ax.legend(fontsize=SMALL, loc="upper left")
    bx.plot(
        grid,
        F.expected_score(revenue, grid, sensitivity=delta),
        color="C4",
        label="expected revenue",
    )
    bx.axhline(revenue.max(), color="k", ls="--", lw=1, label=f"best revenue {revenue.max():.2f}")
    bx.plot(
        [epsilon],
        [F.expected_score(revenue, epsilon, sensitivity=delta)],
        "o",
        color="C4",
        gid="expected_revenue_marker",
    )
    bx.set_xscale("log")
    # no legend here (a legend costs a tenth of a redraw): the title names the dashed line
    bx.set(
        xlabel="ε",
        ylabel="expected revenue (dollars)",
        title=f"expected revenue (dashed: best, {revenue.max():.2f})",
    )
    _no_minor_ticks(*fig.axes)
    return _exponential_text(fig, epsilon, prices, revenue, delta, grid)


def _exponential_text(fig, epsilon, prices, revenue, delta, grid) -> Figure:
    at = F.exponential_mechanism_probabilities(revenue, epsilon, sensitivity=delta)
    expected = F.expected_score(revenue, grid, sensitivity=delta)
    return describe(
        fig,
        f"The exponential mechanism on the survey's auction (Δ = {delta:.2f} dollars) for ε from "
        f"0.01 to 2000 on a log scale. Left: the probability of selecting each price; at "
        f"ε = {risk_up(epsilon):g}: "
        + listing(f"{price:.2f} → {q:.3f}" for price, q in zip(prices, at, strict=True))
        + f". Right: the expected revenue rises from {expected[0]:.2f} to {expected[-1]:.2f} "
        f"dollars, {float(F.expected_score(revenue, epsilon, sensitivity=delta)):.2f} at "
        f"ε = {risk_up(epsilon):g}.",
        f"Only a large ε concentrates the choice on the best price ({prices[np.argmax(revenue)]:.2f}, "
        f"revenue {revenue.max():.2f}).",
    )


def update_exponential_mechanism(
    fig, epsilon=1.0, prices=F.SURVEY_AUCTION_PRICES, bids=F.SURVEY_AUCTION_BIDS
) -> Figure:
    """Bring a :func:`plot_exponential_mechanism` figure of the same auction to a new ε in
    place: the ε line, the revenue marker and the text alternative (every curve and limit is
    the same for every ε in the grid's range)."""
    prices = np.asarray(prices, dtype=float)
    revenue = F.auction_revenue(prices, bids)
    delta = F.auction_revenue_sensitivity(prices)
    ax, bx = fig.axes
    next(a for a in ax.lines if a.get_gid() == "epsilon_marker").set_xdata([epsilon, epsilon])
    marker = next(a for a in bx.lines if a.get_gid() == "expected_revenue_marker")
    marker.set_data([epsilon], [F.expected_score(revenue, epsilon, sensitivity=delta)])
    return _exponential_text(fig, epsilon, prices, revenue, delta, np.geomspace(0.01, 2000, 150))


@course_style
def plot_closeness(
    classes=F.CLOSENESS_EXAMPLE["classes"], sensitive=F.CLOSENESS_EXAMPLE["sensitive"]
) -> Figure:
    """Bars of P_L for each equivalence class beside P_Q, titled with the distances."""
    labels, cats, p_l, p_q = F.class_distributions(classes, sensitive)
    vd = F.variational_distance(p_l, p_q)
    kl = F.kl_divergence(p_l, p_q)
    fig = Figure(figsize=(7.5, 3.2))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    width = 0.8 / (labels.size + 1)
    pos = np.arange(cats.size)
    ax.bar(pos, p_q, width, color="0.3", label="whole data set P_Q")
    for i, label in enumerate(labels):
        ax.bar(
            pos + (i + 1) * width,
            p_l[i],
            width,
            hatch=HATCHES[(i + 1) % len(HATCHES)],
            edgecolor="white",
            label=f"{label}: d = {risk_up(vd[i]):.3f}, KL = {risk_up(kl[i]):.3f}",
        )
    ax.set_xticks(pos + width * labels.size / 2, [str(c) for c in cats])
    ax.set(ylabel="share of the sensitive value", title="ε-closeness: each class's P_L against P_Q")
    ax.legend(fontsize=SMALL, loc="upper right")
    _no_minor_ticks(*fig.axes)
    far = int(np.argmax(vd))
    return describe(
        fig,
        "ε-closeness: bars of each equivalence class's distribution of the sensitive attribute ("
        + listing(str(c) for c in cats)
        + ") beside the whole data set's P_Q; "
        + listing(
            f"{label}: distance {risk_up(d):.4f}, KL {risk_up(k):.4f}"
            for label, d, k in zip(labels, vd, kl, strict=True)
        )
        + ".",
        f"{labels[far]} lies farthest from P_Q: the class that tells an adversary the most.",
    )
