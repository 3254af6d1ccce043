"""Figure functions for the PLRV notebook (08): data in, matplotlib Figure out.

They rebuild the ten figures of Desfontaines' post "The privacy loss random variable" from
the definitions in :mod:`helpers.plrv` (the post's images are not in the sources). The
x-axis of the "probability space" figures is u ∈ (0, 1): all outputs O ~ A(D₁) sorted by
decreasing privacy loss L, so the first u of the axis holds the u most revealing outputs.
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import plrv
from ..checks import check_finite_scalar, check_positive
from ..mechanisms import AdditiveNoise, PrivacyLoss, as_mechanism
from ._alt import describe, listing
from ._style import MARKERS, SMALL, course_style
from .rounding import risk_up

__all__ = [
    "plot_delta_area",
    "plot_exp_loss",
    "plot_loss_vs_output",
    "plot_plrv_panels",
    "plot_privacy_profile",
    "plot_two_densities",
    "update_plrv_panels",
]

_ONE_PANEL = {"left": 0.12, "right": 0.97, "bottom": 0.15, "top": 0.88}
_TWO_PANELS = {"left": 0.08, "right": 0.98, "bottom": 0.16, "top": 0.86, "wspace": 0.25}


def _mechanism(mechanism, noise, sensitivity, default) -> PrivacyLoss:
    """The mechanism object: given (any privacy-loss object, as it is), or made from a name
    and its noise (``default`` when the noise is omitted). An unknown name is a ValueError up
    front (never a KeyError)."""
    if isinstance(mechanism, str) and noise is None:
        noise = default
    return plrv.loss_object(mechanism, noise, sensitivity=sensitivity)


def _order(mech, epsilon) -> str:
    """The order the panels draw: additive noise is symmetric; any other pair is drawn in the
    order whose δ at ε is the larger (the one its guarantee must cover)."""
    return "remove" if isinstance(mech, AdditiveNoise) else mech.worst_adjacency(epsilon)


#: The largest ε these figures draw: e^ε is a line on them (e^700 is near the largest double).
_MAX_DRAWN_EPSILON = 700.0


def _drawn_epsilon(epsilon) -> float:
    """One ε in [0, 700] for a figure that draws e^ε, refused by name otherwise."""
    eps = check_finite_scalar("epsilon", epsilon)
    if not 0 <= eps <= _MAX_DRAWN_EPSILON:
        raise ValueError(
            f"epsilon must be a number in [0, {_MAX_DRAWN_EPSILON:g}] for this figure (it "
            f"draws e^ε); got {epsilon!r}"
        )
    return float(eps)


def _short(mech) -> str:
    """A mechanism's repr for a message, cut with an ellipsis past 80 characters."""
    text = repr(mech)
    return text if len(text) <= 80 else text[:77] + "..."


def _order_words(mech, order) -> str:
    """The order drawn, in words: the law with the target's record first ("remove"), or the
    other first ("add": the record added; changed, for sampling without replacement)."""
    other = (
        "with another record in its place"
        if getattr(mech, "sampling", None) == "without_replacement"
        else "without it"
    )
    return "with the target's record first" if order == "remove" else f"{other} first"


def _exp_curve(losses, top):
    """e^L as drawn: an infinite loss at 0.97 of the axis (matplotlib drops inf), and the
    probability it has (0 when the loss is finite everywhere)."""
    with np.errstate(over="ignore"):
        y = np.exp(losses)
    return np.where(np.isposinf(y), 0.97 * top, y)


def _infinite_mass(mech, order) -> float:
    """P[L = ∞] in the order drawn (0 for additive noise)."""
    if isinstance(mech, AdditiveNoise):
        return 0.0
    losses, masses = mech.loss_steps(adjacency=order)
    return float(masses[np.isposinf(losses)].sum())


def _curve_label(p_inf) -> str:
    return "e^L" if p_inf == 0 else f"e^L (∞ on the first {risk_up(p_inf):.3g}, drawn at the top)"


def _additive(mechanism, noise, sensitivity, default) -> AdditiveNoise:
    """The mechanism of a figure of output densities: additive noise only, any other refused
    by name (its outputs are not a shifted density; the PLRV figures draw it)."""
    mech = _mechanism(mechanism, noise, sensitivity, default)
    if not isinstance(mech, AdditiveNoise):
        raise ValueError(
            "mechanism must be additive noise for this figure (it draws two shifted densities "
            f"of the output); got {_short(mech)}: plot_exp_loss, plot_delta_area and "
            "plot_plrv_panels draw any mechanism"
        )
    return mech


def _words(mech) -> str:
    """The mechanism in the words of a text alternative."""
    if isinstance(mech, AdditiveNoise):
        return f"{mech.label} noise ({mech.symbol} = {mech.noise:.3g})"
    return mech.text()


def _title(mech, order="remove") -> str:
    if isinstance(mech, AdditiveNoise):
        return f"{mech.label}, {mech.symbol} = {mech.noise:.3g}"
    if mech.symmetric:
        return mech.text()
    return f"{mech.text()}\n(order drawn: {_order_words(mech, order)})"


def _bounded(mech: PrivacyLoss) -> bool:
    """Whether the loss is bounded (Laplace, geometric: ±Δ/b), not the Gaussian's line."""
    return bool(np.all(np.isfinite(mech.loss_bound())))


def _u_grid(pmf_p=None) -> np.ndarray:
    """Cumulative probabilities to draw at: dense near 0 (where the Gaussian's e^L explodes)."""
    u = np.union1d(np.linspace(1e-4, 1 - 1e-4, 601), np.geomspace(1e-6, 0.06, 200))
    if pmf_p is not None:  # both sides of every step of a step function
        edges = np.cumsum(pmf_p)[:-1]
        u = np.union1d(u, np.clip(np.concatenate([edges - 1e-9, edges + 1e-9]), 1e-9, 1 - 1e-9))
    return u


def _losses_on_u(mech, pmfs, adjacency="remove"):
    """(u, L(u)) for a mechanism object, or for ``pmfs=(p, q)`` when mech is None."""
    if mech is None:
        p, q = pmfs
        u = _u_grid(p)
        return u, plrv.pmf_upper_quantile(u, p, q)
    if not isinstance(mech, AdditiveNoise):  # steps of its PLRV, in the order drawn
        _, masses = mech.loss_steps(adjacency=adjacency)
        u = _u_grid(masses)
        return u, mech.upper_quantile(u, adjacency=adjacency)
    if mech.discrete:  # both sides of every step of the PLRV's pmf
        _, p, _ = mech.plrv_pmf()
        u = _u_grid(p)
    else:
        u = _u_grid()
    return u, mech.upper_quantile(u)


def _deltas(epsilon, mech, pmfs):
    """(δ₁, δ₂) of what is drawn: the two pmfs, or the mechanism in the order drawn (for
    additive noise, its exact profile), so the shaded band and area are the numbers shown."""
    if mech is None:
        p, q = pmfs
        return float(plrv.pmf_delta_naive(epsilon, p, q)), float(plrv.pmf_delta(epsilon, p, q))
    if isinstance(mech, AdditiveNoise):
        naive, tight = mech.profile(epsilon)
        return float(naive), float(tight)
    order = _order(mech, epsilon)
    return float(mech.tail(epsilon, adjacency=order)), float(mech.delta(epsilon, adjacency=order))


def _top(u, losses, epsilon) -> float:
    """The left panel's upper limit: above e^ε and the finite e^L near u = 0.01 (an infinite
    loss is drawn off the top, its band shaded)."""
    finite = losses[(u >= 0.01) & np.isfinite(losses)]
    near = float(np.exp(finite[0])) if finite.size else math.exp(epsilon)
    return max(2.5 * math.exp(epsilon), 1.2 * near)


@course_style
def plot_two_densities(
    mechanism="laplace",
    noise=None,
    loc=plrv.POST_COUNT,
    *,
    sensitivity=1.0,
    outputs=None,
) -> Figure:
    """The output distributions of A(D₁) (centred at loc) and A(D₂) (at loc + Δ).

    ``mechanism`` is a mechanism object (``helpers.mechanisms.Laplace(b)``, ...) or a name
    with its ``noise`` (b or σ; the post's Laplace scale 1/ln 3 when omitted).

    ``outputs`` (optional) marks outputs O₁, O₂, ... on A(D₁)'s curve and annotates each
    with e^L and what a 50/50 attacker then believes. The densities have gids ``"d1"`` and
    ``"d2"``, the marked points (when outputs are given) ``"outputs"``.
    """
    mech = _additive(mechanism, noise, sensitivity, plrv.POST_LAPLACE_SCALE)
    noise, sensitivity = mech.noise, mech.sensitivity
    fig = Figure(figsize=(7, 3.4))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    half = 6 * noise + sensitivity
    if mech.discrete:
        x = np.arange(math.floor(loc - half), math.ceil(loc + sensitivity + half) + 1)
        styles = [{"marker": "o", "ms": 3}, {"marker": "s", "ms": 3, "ls": "--"}]
    else:
        x = np.linspace(loc - half, loc + sensitivity + half, 801)
        styles = [{}, {"ls": "--"}]
    ax.plot(x, mech.pdf(x - loc), label=f"A(D₁): count {loc:g}", gid="d1", **styles[0])
    ax.plot(
        x,
        mech.pdf(x - (loc + sensitivity)),
        label=f"A(D₂): count {loc + sensitivity:g}",
        gid="d2",
        **styles[1],
    )
    detail = mech.noise_text()
    ax.set(
        xlabel="output O",
        ylabel="probability" if mech.discrete else "density",
        title=f"{mech.label} noise, {detail}",
    )
    if outputs is not None:
        o = np.asarray(outputs, dtype=float)
        y = mech.pdf(o - loc)
        ax.plot(o, y, "ko", ms=5, zorder=5, gid="outputs")
        losses = mech.privacy_loss(o, loc=loc)
        posterior = plrv.posterior_probability(0.5, losses)
        last = len(o) - 1
        for i, (oi, yi, li, pi) in enumerate(zip(o, y, losses, posterior, strict=True)):
            # first label to the left, last to the right, the others above
            ha, offset = (
                ("right", (-8, 4))
                if i == 0
                else (("left", (8, 4)) if i == last else ("center", (0, 40)))
            )
            ax.annotate(
                f"O{i + 1} = {oi:g}\ne^L = {risk_up(math.exp(li)):.3g}\nP[D₁|O] = {risk_up(pi):.2f}",
                (oi, yi),
                xytext=offset,
                textcoords="offset points",
                ha=ha,
                fontsize=SMALL,
                arrowprops={"arrowstyle": "-", "lw": 0.6} if i not in (0, last) else None,
            )
        ax.set_ylim(0, ax.get_ylim()[1] * 1.45)
    ax.legend(fontsize=SMALL, loc="upper left")
    shown = (
        f"The {mech.label} output distributions of a count under two neighbouring data "
        f"sets, A(D₁) centred at {loc:g} (solid) and A(D₂) at {loc + sensitivity:g} (dashed), "
        f"{detail}: two overlapping curves."
    )
    if outputs is None:
        return describe(
            fig, shown, "Any one output is likely under both, so it reveals little about which."
        )
    marks = listing(
        f"O{i + 1} = {oi:g} (e^L = {risk_up(math.exp(li)):.3g}, P[D₁|O] = {risk_up(pi):.2f})"
        for i, (oi, li, pi) in enumerate(zip(o, losses, posterior, strict=True))
    )
    return describe(
        fig,
        shown,
        f"Marked outputs: {marks}: each output multiplies the odds of D₁ by e^L, its privacy loss.",
    )


@course_style
def plot_loss_vs_output(
    mechanism="laplace", noise=None, loc=plrv.POST_COUNT, *, sensitivity=1.0
) -> Figure:
    """L(O) = ln(P[A(D₁)=O]/P[A(D₂)=O]) against the output O; dashed lines at ±Δ/b
    (Laplace, geometric). The curve has gid ``"loss"``, the +Δ/b line ``"bound"``.
    ``mechanism``: an object or a name with its ``noise`` (default the post's 1/ln 3)."""
    mech = _additive(mechanism, noise, sensitivity, plrv.POST_LAPLACE_SCALE)
    noise, sensitivity = mech.noise, mech.sensitivity
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    half = 5 * noise + sensitivity
    if mech.discrete:  # integer outputs only (it used to draw the Gaussian loss)
        o = np.arange(math.floor(loc - half), math.ceil(loc + sensitivity + half) + 1)
        style = {"marker": "o", "ms": 3, "ls": ":"}
    else:
        o = np.linspace(loc - half, loc + sensitivity + half, 801)
        style = {}
    losses = mech.privacy_loss(o, loc=loc)
    ax.plot(o, losses, color="C2", label="privacy loss L(O)", gid="loss", **style)
    bounded = _bounded(mech)
    if bounded:
        bound = float(mech.loss_bound())
        ax.axhline(
            bound, color="k", ls="--", lw=1, label=f"ε = Δ/b = {risk_up(bound):.4f}", gid="bound"
        )
        ax.axhline(-bound, color="k", ls=":", lw=1, label="−ε")
    ax.set(xlabel="output O", ylabel="L(O)", title=f"{mech.label}: privacy loss per output")
    ax.legend(fontsize=SMALL, loc="center right")
    if bounded:
        point = (
            f"The loss is flat at ±ε = ±{risk_up(bound):.4f} away from the two counts and changes only "
            "between them: it never exceeds ε."
        )
    else:
        point = "The loss is a straight line in the output: it has no upper bound."
    return describe(
        fig,
        f"The {mech.label} privacy loss L(O) = ln(P[A(D₁) = O] / P[A(D₂) = O]) against "
        f"the output O from {o[0]:g} to {o[-1]:g} ({mech.symbol} = {noise:.3g}).",
        point,
    )


@course_style
def plot_exp_loss(
    mechanism="laplace",
    noise=None,
    *,
    sensitivity=1.0,
    epsilon=None,
    umax=1.0,
    points=None,
    ymax=None,
) -> Figure:
    """e^L against cumulative probability u (outputs sorted by decreasing L).

    With ``epsilon``: the line e^ε and the bad events u < δ₁ = P[L > ε] shaded (the post's
    δ₁). ``umax`` zooms on [0, umax]; ``points`` marks outputs at the given u as O₁, O₂, ...
    The curve e^{L(u)} has gid ``"exp_loss"``. ``mechanism``: an object or a name with its
    ``noise`` (default the post's 1/ln 3).
    """
    mech = _mechanism(mechanism, noise, sensitivity, plrv.POST_LAPLACE_SCALE)
    epsilon = None if epsilon is None else _drawn_epsilon(epsilon)
    order = _order(mech, 0.0 if epsilon is None else epsilon)
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    u, losses = _losses_on_u(mech, None, order)
    keep = u <= umax
    u, losses = u[keep], losses[keep]
    with np.errstate(over="ignore"):
        finite = np.exp(losses[np.isfinite(losses)])
    bounded = _bounded(mech) and finite.size
    top = ymax if ymax is not None else (1.2 * finite.max() if bounded else 8.0)
    y = _exp_curve(losses, top)
    p_inf = _infinite_mass(mech, order)
    ax.plot(u, y, color="C0", label=_curve_label(p_inf), gid="exp_loss")
    if epsilon is not None:
        naive, _ = _deltas(epsilon, mech, None)
        ax.axhline(
            math.exp(epsilon),
            color="k",
            ls="--",
            lw=1,
            label=f"e^ε = {risk_up(math.exp(epsilon)):.3g}",
        )
        ax.axvspan(
            0,
            naive,
            color="C3",
            alpha=0.2,
            label=f"bad events: δ₁ = P[L > ε] = {risk_up(naive):.4f}",
        )
    if points is not None:
        pu = np.asarray(points, dtype=float)
        with np.errstate(over="ignore"):
            py = np.exp(mech.upper_quantile(pu, adjacency=order))
        ax.plot(pu, np.minimum(py, top * 0.97), "ko", ms=5)
        for i, (a, b) in enumerate(zip(pu, py, strict=True)):
            ax.annotate(
                f"O{i + 1}: e^L = {risk_up(b):.3g}",
                (a, min(b, top * 0.97)),
                xytext=(6, 7),
                textcoords="offset points",
                fontsize=SMALL,
            )
    ax.set_xlim(0, umax)
    ax.set_ylim(0, top)
    ax.set(
        xlabel="cumulative probability of the outputs (most revealing first)",
        ylabel="e^L",
        title=(
            f"{mech.label}: e^L over the probability space"
            if isinstance(mech, AdditiveNoise)
            else _title(mech, order)
        ),
    )
    ax.legend(fontsize=SMALL, loc="upper right")
    sentences = [
        f"e^L, the factor by which an output multiplies the odds, for {_words(mech)} "
        f"over the probability space: the outputs "
        f"sorted from most to least revealing, cumulative probability 0 to {umax:g}; e^L falls "
        f"from {risk_up(y[0]):.3g} to {risk_up(y[-1]):.3g}"
        + (f" (the axis is cut at {top:g})" if y[0] > top else "")
        + "."
    ]
    if p_inf > 0:
        sentences.append(
            f"The loss is infinite on the first {risk_up(p_inf):.3g} of the probability (outputs "
            "only the first law can give): drawn at the top of the axis."
        )
    if epsilon is not None:
        sentences.append(
            f"Above the line e^ε = {risk_up(math.exp(epsilon)):.3g} lie the bad events, shaded: they have "
            f"probability δ₁ = P[L > ε] = {risk_up(naive):.4f}."
        )
    if points is not None:
        sentences.append(
            "Marked: "
            + listing(
                f"O{i + 1} at {a:g} with e^L = {risk_up(b):.3g}"
                for i, (a, b) in enumerate(zip(pu, py, strict=True))
            )
            + "."
        )
    return describe(fig, *sentences)


@course_style
def plot_delta_area(
    epsilon=plrv.POST_EPSILON,
    mechanism="gaussian",
    noise=None,
    *,
    sensitivity=1.0,
    pmfs=None,
    umax=1.0,
) -> Figure:
    """min(1, e^ε/e^L) against u; the shaded area between the curve and 1 is δ₂.

    δ₂ = E[max(0, 1 − e^{ε−L})] = ∫₀¹ (1 − min(1, e^{ε − L(u)})) du. ``mechanism="pmf"`` with
    ``pmfs=(p, q)`` draws a release given as two pmfs (e.g. the thresholding example, whose
    distinguishing events have e^ε/e^L = 0). ``umax`` zooms on [0, umax].
    The curve has gid ``"delta_curve"``. Otherwise ``mechanism`` is an object or a name with
    its ``noise`` (default the post's σ = √3).
    """
    pmf = isinstance(mechanism, str) and mechanism == "pmf"
    mech = None if pmf else _mechanism(mechanism, noise, sensitivity, plrv.POST_GAUSSIAN_SIGMA)
    epsilon = _drawn_epsilon(epsilon)
    fig = Figure(figsize=(7, 3.2))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    naive, tight = _draw_delta_area(ax, epsilon, mech, pmfs)
    ax.set_xlim(0, umax)
    what = "a release given by two distributions" if mech is None else _words(mech)
    return describe(
        fig,
        f"min(1, e^ε/e^L) over the probability space (cumulative probability 0 to {umax:g}, "
        f"most revealing outputs first) for {what} at ε = {risk_up(epsilon):.4g}; the shaded area between"
        f" the curve and 1 is δ₂ = {risk_up(tight):.4f}.",
        _delta_point(naive, tight),
    )


def _delta_point(naive: float, tight: float) -> str:
    if math.isclose(naive, tight, rel_tol=1e-6, abs_tol=1e-12):
        return f"Here δ₂ equals the naive δ₁ = P[L > ε] = {risk_up(naive):.4f}: every bad event reveals all."
    return (
        f"δ₂ is smaller than the naive δ₁ = P[L > ε] = {risk_up(naive):.4f}: a bad event only counts for "
        "the part of its loss above ε."
    )


def _draw_delta_area(ax, epsilon, mech, pmfs):
    u, losses = _losses_on_u(mech, pmfs, "remove" if mech is None else _order(mech, epsilon))
    with np.errstate(over="ignore"):
        curve = np.minimum(1.0, np.exp(epsilon - losses))
    naive, tight = _deltas(epsilon, mech, pmfs)
    ax.plot(u, curve, color="C0", label="min(1, e^ε / e^L)", gid="delta_curve")
    ax.fill_between(u, curve, 1.0, color="C1", alpha=0.5, label=f"area = δ₂ = {risk_up(tight):.4f}")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_ylim(0, 1.08)
    ax.set_xlim(0, 1)
    ax.set(
        xlabel="cumulative probability of the outputs (most revealing first)",
        ylabel="e^ε / e^L (capped at 1)",
        title=f"ε = {risk_up(epsilon):.4g}: δ₂ = {risk_up(tight):.4f} (δ₁ = {risk_up(naive):.4f})",
    )
    ax.legend(fontsize=SMALL, loc="lower right")
    return naive, tight


@course_style
def plot_plrv_panels(
    mechanism="gaussian",
    noise=None,
    epsilon=plrv.POST_EPSILON,
    *,
    sensitivity=1.0,
):
    """The dashboard's figure: e^L with e^ε and δ₁ (left); the δ₂ area (right, zoomed on
    u ≤ max(0.1, 1.5·δ₁)).

    gids: ``"exp_loss"`` (left, e^{L(u)}) and ``"delta_curve"`` (right, min(1, e^{ε − L(u)})).
    ``mechanism``: an object or a name with its ``noise`` (default the post's σ = √3).
    """
    mech = _mechanism(mechanism, noise, sensitivity, plrv.POST_GAUSSIAN_SIGMA)
    epsilon = _drawn_epsilon(epsilon)
    order = _order(mech, epsilon)
    fig = Figure(figsize=(9, 3.2))
    ax, bx = fig.subplots(1, 2)
    fig.subplots_adjust(**_TWO_PANELS)
    u, losses = _losses_on_u(mech, None, order)
    top = _top(u, losses, epsilon)
    naive, _ = _deltas(epsilon, mech, None)
    p_inf = _infinite_mass(mech, order)
    ax.plot(u, _exp_curve(losses, top), color="C0", label=_curve_label(p_inf), gid="exp_loss")
    ax.axhline(math.exp(epsilon), color="k", ls="--", lw=1, label="e^ε")
    ax.axvspan(0, naive, color="C3", alpha=0.2, label=f"δ₁ = {risk_up(naive):.4f}")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, top)
    ax.set(xlabel="cumulative probability", ylabel="e^L", title=_title(mech, order))
    ax.legend(fontsize=SMALL, loc="upper right")
    _draw_delta_area(bx, epsilon, mech, None)
    # zoom the right panel on the bad events (at least 0.1 of the axis), so δ₂ stays visible
    bx.set_xlim(0, min(1.0, max(0.1, 1.5 * naive)))
    bx.set_xlabel("cumulative probability (zoom on the bad events)")
    # few ticks: building tick artists is most of a redraw's cost
    ax.set_xticks([0, 0.5, 1])
    bx.xaxis.set_major_locator(MaxNLocator(3))
    for axis in (ax, bx):
        axis.yaxis.set_major_locator(MaxNLocator(4))
    fig._course_shape = (mech.name, sensitivity)
    return _panels_text(fig, mech, epsilon)


def _panels_text(fig, mech, epsilon) -> Figure:
    naive, tight = _deltas(epsilon, mech, None)
    if isinstance(mech, AdditiveNoise):
        what = f"{mech.label} noise, {mech.symbol} = {mech.noise:.3g}"
    else:
        order = _order(mech, epsilon)
        what = (
            f"{mech.text()}, drawn in the order whose δ is the larger ({_order_words(mech, order)})"
        )
        p_inf = _infinite_mass(mech, order)
        if p_inf > 0:
            what += (
                f"; the loss is infinite on the first {risk_up(p_inf):.3g} of the probability, "
                "drawn at the top of the left panel"
            )
    return describe(
        fig,
        f"{what}, ε = {risk_up(epsilon):.3g}. "
        f"Left: e^L over the probability space beside the line e^ε = {risk_up(math.exp(epsilon)):.3g}; "
        f"the bad events above it are shaded, δ₁ = {risk_up(naive):.4f}. Right, zoomed on them: the "
        f"area between min(1, e^ε/e^L) and 1, δ₂ = {risk_up(tight):.4f}.",
        _delta_point(naive, tight),
    )


def update_plrv_panels(
    fig, mechanism="gaussian", noise=None, epsilon=plrv.POST_EPSILON, *, sensitivity=1.0
) -> bool:
    """Bring a :func:`plot_plrv_panels` figure of the same mechanism to a new noise and ε in
    place (notebook 08's dashboard): both curves, the e^ε line, the δ₁ band and the δ₂ area,
    their legend entries, titles and limits, and the text alternative. False, and nothing
    changed, for another mechanism (draw afresh)."""
    mech = _mechanism(mechanism, noise, sensitivity, plrv.POST_GAUSSIAN_SIGMA)
    epsilon = _drawn_epsilon(epsilon)
    if getattr(fig, "_course_shape", None) != (mech.name, sensitivity):
        return False
    ax, bx = fig.axes
    order = _order(mech, epsilon)
    u, losses = _losses_on_u(mech, None, order)
    naive, tight = _deltas(epsilon, mech, None)
    top = _top(u, losses, epsilon)
    ax.lines[0].set_data(u, _exp_curve(losses, top))
    ax.lines[1].set_ydata([math.exp(epsilon)] * 2)
    ax.patches[0].set_width(naive)
    ax.set_ylim(0, top)
    ax.set_title(_title(mech, order))
    ax.get_legend().get_texts()[0].set_text(_curve_label(_infinite_mass(mech, order)))
    ax.get_legend().get_texts()[2].set_text(f"δ₁ = {risk_up(naive):.4f}")
    with np.errstate(over="ignore"):
        curve = np.minimum(1.0, np.exp(epsilon - losses))
    bx.lines[0].set_data(u, curve)
    bx.collections[0].set_data(u, curve, 1.0)
    bx.get_legend().get_texts()[1].set_text(f"area = δ₂ = {risk_up(tight):.4f}")
    bx.set_title(
        f"ε = {risk_up(epsilon):.4g}: δ₂ = {risk_up(tight):.4f} (δ₁ = {risk_up(naive):.4f})"
    )
    bx.set_xlim(0, min(1.0, max(0.1, 1.5 * naive)))
    _panels_text(fig, mech, epsilon)
    return True


@course_style
def plot_privacy_profile(
    mechanisms=(("gaussian", plrv.POST_GAUSSIAN_SIGMA), ("laplace", plrv.POST_LAPLACE_SCALE)),
    *,
    epsilon_max=2.0,
    sensitivity=1.0,
) -> Figure:
    """The privacy profiles ε ↦ δ₂(ε) (solid) and ε ↦ δ₁(ε) (dashed), log scale.

    ``mechanisms`` is a sequence of mechanism objects (any :class:`~helpers.mechanisms.PrivacyLoss`,
    drawn as it is: randomized response, a subsampled mechanism, ...) or (name, noise) pairs
    (their Δ is ``sensitivity``); δ₂ of a mechanism has gid ``"tight_<name>"``, δ₁
    ``"naive_<name>"`` (additive noise only: the naive δ is P[L > ε] of its one loss). Where
    the two orders of the neighbours differ, δ₂ is the larger.
    """
    fig = Figure(figsize=(7, 3.4))
    ax = fig.subplots()
    fig.subplots_adjust(**_ONE_PANEL)
    eps = np.linspace(0, float(check_positive("epsilon_max", epsilon_max)), 401)
    said = []
    mechs = [
        m if isinstance(m, PrivacyLoss) else as_mechanism(*m, sensitivity=sensitivity)
        for m in mechanisms
    ]
    for i, mech in enumerate(mechs):
        name = mech.name
        if isinstance(mech, AdditiveNoise):
            naive, tight = mech.profile(eps)
        else:  # no one loss to take a naive δ of: the tight δ alone
            naive, tight = np.full(eps.shape, np.nan), np.asarray(mech.delta(eps), dtype=float)
        label = mech.text()
        with np.errstate(divide="ignore"):
            ax.plot(
                eps,
                np.where(tight > 0, tight, np.nan),
                color=f"C{i}",
                marker=MARKERS[i % len(MARKERS)],
                markevery=(10 * i, 50),
                ms=5,
                label=f"δ₂: {label}",
                gid=f"tight_{name}",
            )
            ax.plot(
                eps,
                np.where(naive > 0, naive, np.nan),
                color=f"C{i}",
                ls="--",
                marker=MARKERS[i % len(MARKERS)],
                mfc="none",
                markevery=(10 * i + 25, 50),
                ms=5,
                label="δ₁",
                gid=f"naive_{name}",
            )
        at = int(np.argmin(np.abs(eps - 1.0))) if eps[-1] >= 1 else len(eps) - 1
        naive_words = (
            f" and δ₁ = {risk_up(float(naive[at])):.3g}" if np.isfinite(naive[at]) else " (no δ₁)"
        )
        said.append(
            f"{label}: δ₂ = {risk_up(float(tight[at])):.3g}{naive_words} at ε = {risk_up(eps[at]):.3g}"
        )
    ax.set_yscale("log")
    ax.set_ylim(1e-5, 1.2)
    ax.set(xlabel="ε", ylabel="δ(ε)", title="privacy profiles: tight δ₂ (solid), naive δ₁ (dashed)")
    ax.legend(fontsize=SMALL, loc="lower left")
    return describe(
        fig,
        f"Privacy profiles δ(ε) for ε from 0 to {risk_up(eps[-1]):g} on a log scale, the tight δ₂ solid and "
        f"the naive δ₁ dashed, one colour and marker per mechanism: {'; '.join(said)}.",
        _bounded_words(mechs),
    )


def _bounded_words(mechs) -> str:
    """The profiles' last sentence: which curves reach zero (a bounded loss) and which never do."""
    bounded = list(dict.fromkeys(m.label for m in mechs if _bounded(m)))
    unbounded = list(dict.fromkeys(m.label for m in mechs if not _bounded(m)))
    words = "For every mechanism δ₂ lies at or below δ₁"
    if bounded and unbounded:
        return (
            f"{words}; the {_and(bounded)} curves drop to zero once ε reaches the loss bound, "
            f"the {_and(unbounded)} ones never do."
        )
    return words + "."


def _and(labels: list) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
