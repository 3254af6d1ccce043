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
import pytest
from _modules import same_as_fresh

import helpers.widgets as widgets

FACTORIES = sorted(name for name in dir(widgets) if name.endswith("_dashboard"))


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
            same_as_fresh(dash, f"{name}, {control_name} = {value!r}")
