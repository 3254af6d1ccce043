"""Every dashboard's in-place redraw shows what a fresh draw shows (issue 33).

A dashboard builds its figure once and then updates it in place (``Dashboard`` in
``helpers/widgets/_base.py``). For every factory (discovered, never listed by hand), every
control is moved the way a reader does, one after another, and after each move the figure
on screen must have the same pixels, the same text alternative and the same readout as a
figure drawn afresh at the same values: an in-place update may never leave a stale line,
label or axis limit behind. The static figures (notebooks, figures/) come from the fresh
draw, so they are unchanged by construction.
"""

from __future__ import annotations

import ipywidgets as ipw
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import helpers.widgets as widgets
from helpers.plotting import alt_text
from helpers.widgets._base import DPI

FACTORIES = sorted(name for name in dir(widgets) if name.endswith("_dashboard"))


def _pixels(fig) -> np.ndarray:
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    dpi = fig.dpi
    fig.set_dpi(DPI)
    try:
        canvas.draw()
        return np.asarray(canvas.buffer_rgba()).copy()
    finally:
        fig.set_dpi(dpi)


def _moves(control) -> list:
    """Two values a reader could give the control, then its starting value."""
    start = control.value
    if isinstance(control, ipw.FloatLogSlider):
        picks = [
            control.base ** (control.min + f * (control.max - control.min)) for f in (0.3, 0.8)
        ]
    elif isinstance(control, ipw.FloatSlider | ipw.IntSlider):
        step = control.step or 1
        picks = [
            control.min + round(f * (control.max - control.min) / step) * step for f in (0.3, 0.8)
        ]
    elif isinstance(control, ipw.Dropdown | ipw.SelectionSlider):
        values = [o[1] if isinstance(o, tuple) else o for o in control.options]
        picks = [v for v in values if v != start][:2]
    elif isinstance(control, ipw.BoundedIntText | ipw.IntText):
        picks = [start + 1, start + 3]
    elif isinstance(control, ipw.BoundedFloatText | ipw.FloatText):
        picks = [start * 1.5 + 0.5, start * 0.5 + 0.25]
    else:
        picks = []
    return [*picks, start]


def _same_as_fresh(dash, where: str) -> None:
    values = dash.values()
    fresh, text = dash._draw(**values)
    assert fresh is not dash.figure, f"{where}: draw() must build a new figure"
    assert dash.text == text, f"{where}: readout differs from a fresh draw"
    assert dash.alt_text == alt_text(fresh), f"{where}: text alternative differs"
    shown, expected = _pixels(dash.figure), _pixels(fresh)
    assert shown.shape == expected.shape, f"{where}: size {shown.shape} vs {expected.shape}"
    differ = np.any(shown != expected, axis=-1)
    assert not differ.any(), (
        f"{where}: {int(differ.sum())} pixels differ from a fresh draw "
        f"(rows {np.flatnonzero(differ.any(axis=1))[[0, -1]]}, "
        f"columns {np.flatnonzero(differ.any(axis=0))[[0, -1]]})"
    )


@pytest.mark.parametrize("name", FACTORIES)
def test_every_move_redraws_in_place_what_a_fresh_draw_shows(name):
    dash = getattr(widgets, name)()
    for control_name, control in dash.controls.items():
        for value in _moves(control):
            if control.disabled:
                break
            try:
                control.value = value
            except Exception:  # a value the widget itself rejects: not a reader's move
                continue
            if dash.readout.value.startswith("<pre style='color:#b00'>"):
                continue  # a refused combination keeps the last image
            _same_as_fresh(dash, f"{name}, {control_name} = {value!r}")
