"""Dashboards (ipywidgets) for the Kazan & Reiter notebooks; see _base.Dashboard."""

from __future__ import annotations

import ipywidgets as widgets

from .. import kazan_reiter as kr
from ..plotting import allowed_down, risk_up
from ..plotting.kazan_reiter import (
    plot_bound_vs_naive,
    plot_profile_map,
    plot_risk_profile_slice,
    plot_switching,
    update_bound_vs_naive,
    update_profile_map,
    update_risk_profile_slice,
    update_switching,
)
from ._base import Dashboard, float_slider
from ._checks import starting_choice, starting_value

__all__ = [
    "bound_dashboard",
    "profile_map_dashboard",
    "risk_profile_dashboard",
    "tradeoff_dashboard",
]

_STYLE = {"description_width": "initial"}


def risk_profile_text(kind: str, a: float, fixed: float, r: float) -> str:
    """The readout of :func:`risk_profile_dashboard` (also used by its tests)."""
    if kind == "inclusion":
        eps = kr.epsilon_inclusion_profile(a, fixed, r)
        where = kr.argmin_epsilon(kr.inclusion_profile(a, fixed, r), q=fixed)
        at = f"p = {where.p:.4f}"
    else:
        eps = kr.epsilon_values_profile(a, fixed, r)
        where = kr.argmin_epsilon(kr.values_profile(a, fixed, r), p=fixed)
        at = f"q = {where.q:.4f}"
    sd, exact = kr.utility(eps)
    return (
        f"recommended ε = {allowed_down(eps):.4f} (minimum at {at}); constant profile ½·ln r̃ = "
        f"{allowed_down(float(kr.epsilon_constant_profile(r))):.4f}\n"
        f"geometric mechanism: noise SD = {float(sd):.3f}, P[exact] = {100 * float(exact):.1f}%"
    )


def risk_profile_dashboard(
    kind: str = "inclusion", a: float = 0.25, fixed: float = 1.0, r: float = 3.0
) -> Dashboard:
    """Sliders for r̃, ã and q̃ (profile 15) or p̃ (profile 16): the profile, the εᵢ curve, the
    recommended ε with its noise SD and P[exact]."""
    starting_choice("kind", kind, ["inclusion", "values"])
    r = starting_value("r", r, 1.05, 10.0)
    a = starting_value("a", a, 0.0, 0.95)
    fixed = starting_value("fixed", fixed, 0.001, 1.0)
    controls = {
        "kind": widgets.Dropdown(
            options=[
                ("inclusion, profile (15): fix q̃", "inclusion"),
                ("values, profile (16): fix p̃", "values"),
            ],
            value=kind,
            description="profile",
        ),
        "r": float_slider("r̃", r, 1.05, 10.0, 0.05, ".2f"),
        "a": float_slider("ã", a, 0.0, 0.95, 0.005),
        # q̃ or p̃ spans three decades (the text uses 0.001, 0.05 and 1): a logarithmic track
        "fixed": widgets.FloatLogSlider(
            value=fixed,
            base=10,
            min=-3,
            max=0,
            step=0.01,
            description="q̃ or p̃",
            readout_format=".3f",
            continuous_update=False,
            style=_STYLE,
        ),
    }

    def draw(kind, r, a, fixed):
        # ã = 0 is allowed for both profiles (epsilon_values_profile accepts it too)
        fig = plot_risk_profile_slice(kind, a, fixed, r, fast=True)
        return fig, risk_profile_text(kind, a, fixed, r)

    def update(fig, kind, r, a, fixed):
        # r̃, ã and q̃ or p̃ move in place; the other profile draws afresh
        if not update_risk_profile_slice(fig, kind, a, fixed, r, fast=True):
            return None
        return risk_profile_text(kind, a, fixed, r)

    return Dashboard(controls, draw, update=update)


def bound_dashboard(epsilon: float = 1.0) -> Dashboard:
    """ε slider: Theorem 1's bound against Corollary 1's e^{2ε}."""
    epsilon = starting_value("epsilon", epsilon, 0.05, 3.0)  # refused, not clamped to 0.05
    controls = {"epsilon": float_slider("ε", epsilon, 0.05, 3.0, 0.05, ".2f")}

    def draw(epsilon):
        return plot_bound_vs_naive(epsilon, fast=True), text(epsilon)

    def update(fig, epsilon):
        update_bound_vs_naive(fig, epsilon)
        return text(epsilon)

    def text(epsilon):
        tight = float(kr.relative_risk_bound(0.5, 1.0, epsilon))
        return (
            f"e^(2ε) = {risk_up(float(kr.naive_bound(epsilon))):.3f}; Theorem 1 at p = 0.5, q = 1: "
            f"{risk_up(tight):.3f}"
        )

    return Dashboard(controls, draw, update=update)


def profile_map_dashboard(a: float = 0.25, r: float = 3.0) -> Dashboard:
    """Sliders for ã and r̃ of profile (33): the two heat maps of Figure 5 and the argmin."""
    a = starting_value("a", a, 0.01, 0.9)
    r = starting_value("r", r, 1.05, 10.0)
    controls = {
        "a": float_slider("ã", a, 0.01, 0.9, 0.01, ".2f"),
        "r": float_slider("r̃", r, 1.05, 10.0, 0.05, ".2f"),
    }

    # the recommendation by (ã, r̃), the latest few: a search of tens of ms, and a reader
    # returns to values they have seen (profile (33) is the paper's, fixed by its two numbers)
    recommended: dict = {}

    def state(a, r):
        profile = kr.two_dimensional_profile(a, r)
        if (a, r) not in recommended:
            while len(recommended) >= 64:
                recommended.pop(next(iter(recommended)))
            recommended[a, r] = kr.argmin_epsilon(profile)
        return profile, recommended[a, r]

    def text(rec) -> str:
        sd, exact = kr.utility(rec.epsilon)
        return (
            f"recommended ε = {allowed_down(rec.epsilon):.4f} at (p, q) = ({rec.p:.4f}, {rec.q:.4f}); "
            f"noise SD = {float(sd):.3f}, P[exact] = {100 * float(exact):.1f}%"
        )

    def draw(a, r):
        profile, rec = state(a, r)
        fig = plot_profile_map(
            profile, n=80, figsize=(4.6, 3.2), fast=True, recommendation=rec, show_profile=False
        )
        return fig, text(rec)

    def update(fig, a, r):
        profile, rec = state(a, r)
        if not update_profile_map(fig, profile, n=80, recommendation=rec, show_profile=False):
            return None
        return text(rec)

    return Dashboard(controls, draw, update=update)


def tradeoff_text(r: float, a: float, direction: str) -> str:
    eps = kr.epsilon_inclusion_profile(a, 1.0, r)
    rmse = float(kr.utility(eps)[0])
    parts = [
        f"ε = {allowed_down(eps):.4f}, RMSE = {rmse:.3f} deaths ({1000 * rmse / kr.DURHAM_BIRTHS:.3f} per 1,000)"
    ]
    for d in (0.25, 0.5, 1.0, 2.0):
        parts.append(
            f"P[switch | deviation {d:g}, {direction}] = {float(kr.durham_switch_probability(eps, d, direction)):.4f}"
        )
    return "\n".join(parts)


def tradeoff_dashboard(r: float = 5.0, a: float = 0.5, direction: str = "above") -> Dashboard:
    """Example 3: pick r̃ and ã of profile (17) and the switching direction; see ε, the RMSE
    and the switching probabilities (the chosen profile highlighted in Figure 2)."""
    # a bad choice is a ValueError naming the parameter, not ipywidgets' TraitError
    starting_choice("r", r, [1.2, 2.0, 5.0])
    starting_choice("a", a, [0.0, 0.1, 0.25, 0.5])
    starting_choice("direction", direction, ["above", "below", "worst"])
    controls = {
        "r": widgets.Dropdown(options=[1.2, 2.0, 5.0], value=r, description="r̃"),
        "a": widgets.Dropdown(options=[0.0, 0.1, 0.25, 0.5], value=a, description="ã"),
        "direction": widgets.Dropdown(
            options=["above", "below", "worst"], value=direction, description="switch"
        ),
    }

    def draw(r, a, direction):
        fig = plot_switching(
            kr.epsilon_inclusion_profile(a, 1.0, r), direction=direction, fast=True
        )
        return fig, tradeoff_text(r, a, direction)

    def update(fig, r, a, direction):
        # r̃ and ã move the bars in place; another direction draws afresh
        eps = kr.epsilon_inclusion_profile(a, 1.0, r)
        if not update_switching(fig, eps, direction=direction, fast=True):
            return None
        return tradeoff_text(r, a, direction)

    return Dashboard(controls, draw, update=update)
