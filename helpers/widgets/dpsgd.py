"""The dashboard of notebook 13 (choosing ε for a model); see _base.Dashboard.

Four controls, the ones a practitioner training with DP-SGD sets: the noise multiplier σ, the
sampling rate q, the epochs (T = epochs/q steps) and δ. The accounted ε, the membership
attack's trade-off curve and the held-out accuracy redraw together
(:func:`helpers.plotting.dpsgd.plot_model_overview`); the readout states the same numbers.
"""

from __future__ import annotations

import ipywidgets as widgets

from ..plotting.dpsgd import DEFAULTS, model_readings, overview_text, plot_model_overview
from ._base import Dashboard, float_slider

__all__ = ["DELTAS", "model_dashboard", "model_text"]

_STYLE = {"description_width": "initial"}
_LAYOUT = widgets.Layout(width="40em")

#: the δ a reader may choose: each far below 1/n for the 1,000 training rows
DELTAS = (1e-4, 1e-5, 1e-6, 1e-7, 1e-8)


def model_text(noise_multiplier, *, sample_rate, epochs, delta, fpr=DEFAULTS["fpr"]) -> str:
    """The readout of :func:`model_dashboard` (also used by its tests), from
    :func:`helpers.plotting.dpsgd.model_readings`, as the figure is."""
    readings = model_readings(
        noise_multiplier, sample_rate=sample_rate, epochs=epochs, delta=delta, fpr=fpr
    )
    return overview_text(readings, noise_multiplier=noise_multiplier, delta=delta, fpr=fpr)


def model_dashboard(
    noise_multiplier: float = DEFAULTS["noise_multiplier"],
    *,
    sample_rate: float = DEFAULTS["sample_rate"],
    epochs: int = DEFAULTS["epochs"],
    delta: float = DEFAULTS["delta"],
) -> Dashboard:
    """Move σ, q, the epochs and δ: the accounted ε, the attack risk and the accuracy redraw."""
    if delta not in DELTAS:
        raise ValueError(f"delta must be one of {DELTAS}; got {delta!r}")
    controls = {
        "noise_multiplier": float_slider(
            "noise multiplier σ", noise_multiplier, 0.5, 16.0, 0.1, ".1f", width="40em"
        ),
        "sample_rate": float_slider(
            "sampling rate q", sample_rate, 0.01, 0.2, 0.01, ".2f", width="40em"
        ),
        "epochs": widgets.IntSlider(
            value=epochs,
            min=1,
            max=50,
            step=1,
            description="epochs",
            continuous_update=False,
            style=_STYLE,
            layout=_LAYOUT,
        ),
        "delta": widgets.SelectionSlider(
            options=[(f"{d:g}", d) for d in DELTAS],
            value=delta,
            description="δ",
            continuous_update=False,
            style=_STYLE,
            layout=_LAYOUT,
        ),
    }

    def draw(noise_multiplier, sample_rate, epochs, delta):
        shown = {"sample_rate": sample_rate, "epochs": epochs, "delta": delta}
        return (
            plot_model_overview(noise_multiplier, **shown),
            model_text(noise_multiplier, **shown),
        )

    return Dashboard(controls, draw)
