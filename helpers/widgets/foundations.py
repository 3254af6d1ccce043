"""Dashboards (ipywidgets) for the foundations notebook; see _base.Dashboard."""

from __future__ import annotations

import math

import ipywidgets as widgets
import numpy as np

from .. import foundations as F
from ..mechanisms import make_rng
from ..plotting import allowed_down, risk_up
from ..plotting import foundations as P
from ._base import Dashboard
from ._checks import starting_int, starting_value

__all__ = [
    "exponential_mechanism_dashboard",
    "hypothesis_region_dashboard",
    "laplace_ratio_dashboard",
    "randomised_response_dashboard",
]


# dots per inch of the dashboards' images: 72 keeps a 9-inch figure 650 px wide and a redraw
# well under 100 ms (the PNG encoding alone grows with the pixel count)


def _eps_slider(value: float, low: float = 0.05, high: float = 5.0) -> widgets.FloatSlider:
    value = starting_value("epsilon", value, low, high)  # refused, never clamped
    return widgets.FloatSlider(
        value=value, min=low, max=high, step=0.05, description="ε", continuous_update=False
    )


def laplace_ratio_dashboard(epsilon: float = 1.0) -> Dashboard:
    """ε for the survey's example (Δ = 10, outputs 10 and 20)."""
    ex = F.SURVEY_LAPLACE_EXAMPLE

    def draw(epsilon):
        fig = P.plot_laplace_ratio(epsilon, ex["y1"], ex["y2"], sensitivity=ex["sensitivity"])
        return fig, text(epsilon)

    def update(fig, epsilon):
        P.update_laplace_ratio(fig, epsilon, ex["y1"], ex["y2"], sensitivity=ex["sensitivity"])
        return text(epsilon)

    def text(epsilon):
        z = np.linspace(ex["y1"] - 30, ex["y2"] + 30, 601)
        r = F.laplace_ratio(z, ex["y1"], ex["y2"], epsilon, sensitivity=ex["sensitivity"])
        return (
            f"ε = {risk_up(epsilon):.2f}: noise scale b = Δ/ε = {ex['sensitivity'] / epsilon:.2f}; "
            f"ratio ranges over [{allowed_down(r.min()):.4f}, {risk_up(r.max()):.4f}] = [e^-ε, e^ε] = "
            f"[{allowed_down(np.exp(-epsilon)):.4f}, {risk_up(np.exp(epsilon)):.4f}]"
        )

    return Dashboard({"epsilon": _eps_slider(epsilon)}, draw, update=update)


def randomised_response_dashboard(
    alpha: float = 0.5, n: int = 18, p: float = 0.5, *, rng: int = 0
) -> Dashboard:
    """α and n; a seeded simulation of π̂'s spread against the notes' variance bound."""
    reps = 4000
    alpha = starting_value("alpha", alpha, 0.05, 0.95)
    n = starting_int("n", n, 2, 2000)
    p = starting_value("p", p, 0.0, 1.0)
    make_rng(rng)  # an int seed or a Generator, checked now rather than at the first redraw

    def text(alpha, n):
        est = F.rr_simulate_estimates(p, n, alpha, reps=reps, rng=rng)
        eps = float(F.rr_epsilon(alpha)) if alpha < 1 else float("inf")
        return (
            f"α = {alpha:.2f}, n = {n}: ε = ln((1+α)/(1−α)) = {risk_up(eps):.4f}\n"
            f"simulated Var[π̂] = {est.var():.5f}; exact = {float(F.rr_variance(p, n, alpha)):.5f}; "
            f"bound 1/(4α²n) = {float(F.rr_variance_bound_tight(n, alpha)):.5f}; "
            f"notes' bound 1/(α²n) = {float(F.rr_variance_bound(n, alpha)):.5f}"
        )

    def draw(alpha, n):
        n = round(n)  # the log slider's value is a float
        return P.plot_randomised_response(alpha, n, p, reps, rng=rng), text(alpha, n)

    def update(fig, alpha, n):
        n = round(n)
        if not P.update_randomised_response(fig, alpha, n, p, reps, rng=rng):
            return None
        return text(alpha, n)

    controls = {
        "alpha": widgets.FloatSlider(
            value=alpha, min=0.05, max=0.95, step=0.05, description="α", continuous_update=False
        ),
        # n spans three decades: a logarithmic track, so 18 and 500 are both easy to reach
        # (a linear track jumped from 18 to 1629 in 100 px); the value is rounded to a count
        "n": widgets.FloatLogSlider(
            value=n,
            base=10,
            min=math.log10(2),
            max=math.log10(2000),
            step=0.01,
            readout_format=".0f",
            description="n",
            continuous_update=False,
        ),
    }
    return Dashboard(controls, draw, update=update)


def hypothesis_region_dashboard(epsilon: float = 1.0) -> Dashboard:
    """ε for the feasible (p, q) region and the Laplace mechanism's tests inside it."""

    def draw(epsilon):
        return P.plot_hypothesis_region(epsilon), text(epsilon)

    def update(fig, epsilon):
        P.update_hypothesis_region(fig, epsilon)
        return text(epsilon)

    def text(epsilon):
        pm, _ = F.laplace_threshold_test(0.5, epsilon)
        return (
            f"ε = {risk_up(epsilon):.2f}: the best balanced test has FPR = FNR ≥ 1/(1+e^ε) = "
            f"{allowed_down(float(F.hypothesis_min_equal_error(epsilon))):.4f}; "
            f"the Laplace test at the midpoint reaches FPR = FNR = {allowed_down(float(pm)):.4f}"
        )

    return Dashboard({"epsilon": _eps_slider(epsilon)}, draw, update=update)


def exponential_mechanism_dashboard(epsilon: float = 1.0) -> Dashboard:
    """ε for the survey's auction: selection probabilities and expected revenue."""
    prices = np.asarray(F.SURVEY_AUCTION_PRICES)
    revenue = F.auction_revenue(prices, F.SURVEY_AUCTION_BIDS)
    delta = F.auction_revenue_sensitivity(prices)

    def draw(epsilon):
        return P.plot_exponential_mechanism(epsilon), text(epsilon)

    def update(fig, epsilon):
        P.update_exponential_mechanism(fig, epsilon)
        return text(epsilon)

    def text(epsilon):
        probs = F.exponential_mechanism_probabilities(revenue, epsilon, sensitivity=delta)
        shown = ", ".join(f"${pr:.2f}: {q:.3f}" for pr, q in zip(prices, probs, strict=True))
        return (
            f"ε = {risk_up(epsilon):.2f}: P[price] = {shown}\n"
            f"expected revenue = ${float(F.expected_score(revenue, epsilon, sensitivity=delta)):.3f} "
            f"(best ${revenue.max():.2f})"
        )

    epsilon = starting_value("epsilon", epsilon, 0.01, 1000.0)
    slider = widgets.FloatLogSlider(
        value=epsilon, base=10, min=-2, max=3, step=0.05, description="ε", continuous_update=False
    )
    return Dashboard({"epsilon": slider}, draw, update=update)
