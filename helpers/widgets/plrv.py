"""Dashboards (ipywidgets) for the PLRV notebook (08); see _base.Dashboard."""

from __future__ import annotations

import ipywidgets as widgets

from .. import plrv
from ..mechanisms import MECHANISM_CLASSES, AdditiveNoise, as_mechanism
from ..plotting import plrv as P
from ..plotting import risk_up
from ._base import Dashboard
from ._checks import starting_choice, starting_value

__all__ = ["plrv_dashboard"]


def plrv_dashboard(
    mechanism: str | AdditiveNoise = "gaussian",
    noise: float = plrv.POST_GAUSSIAN_SIGMA,
    epsilon: float = plrv.POST_EPSILON,
) -> Dashboard:
    """Choose the mechanism, slide its noise (σ for Gaussian, scale b otherwise) and ε.

    ``mechanism`` is a name or a mechanism object with sensitivity 1 (its noise then starts
    the slider and ``noise`` is not used). Left panel: e^L over the probability space with
    the e^ε line and the bad events (width δ₁ = P[L > ε]); right panel: the area between
    min(1, e^ε/e^L) and 1 (δ₂).
    """
    names = list(MECHANISM_CLASSES)  # the registry, read when the dashboard is made
    if isinstance(mechanism, AdditiveNoise):
        if mechanism.sensitivity != 1 or mechanism.name not in names:
            raise ValueError(
                f"mechanism must be one of {tuple(names)} with sensitivity 1 here; "
                f"got {mechanism!r}"
            )
        mechanism, noise = mechanism.name, mechanism.noise
    # refused with a ValueError, never clamped or turned into ipywidgets' TraitError
    starting_choice("mechanism", mechanism, names)
    noise = starting_value("noise", noise, 0.2, 5.0)
    epsilon = starting_value("epsilon", epsilon, 0.0, 4.0)
    controls = {
        "mechanism": widgets.Dropdown(
            options=[(MECHANISM_CLASSES[name].label, name) for name in names],
            value=mechanism,
            description="mechanism",
        ),
        "noise": widgets.FloatSlider(
            value=noise,
            min=0.2,
            max=5.0,
            step=0.01,
            description="σ or b",
            readout_format=".3f",
            continuous_update=False,
        ),
        "epsilon": widgets.FloatSlider(
            value=epsilon,
            min=0.0,
            max=4.0,
            step=0.01,
            description="ε",
            readout_format=".3f",
            continuous_update=False,
        ),
    }

    def draw(mechanism, noise, epsilon):
        return P.plot_plrv_panels(as_mechanism(mechanism, noise), epsilon=epsilon), text(
            mechanism, noise, epsilon
        )

    def update(fig, mechanism, noise, epsilon):
        # noise and ε move in place; another mechanism draws afresh
        if not P.update_plrv_panels(fig, as_mechanism(mechanism, noise), epsilon=epsilon):
            return None
        return text(mechanism, noise, epsilon)

    def text(mechanism, noise, epsilon):
        mech = as_mechanism(mechanism, noise)
        naive, tight = (float(d) for d in mech.profile(epsilon))
        text = (
            f"{mechanism}, {mech.symbol} = {noise:.3f}, ε = {risk_up(epsilon):.3f}: "
            f"δ₁ = P[L > ε] = {risk_up(naive):.5f}, δ₂ = E[max(0, 1 − e^(ε−L))] = {risk_up(tight):.5f}"
        )
        return text + "\n" + mech.loss_text()

    return Dashboard(controls, draw, update=update)
