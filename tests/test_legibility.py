"""Every figure reads on a projector: no text under 11 screen pixels, none cut at the edge.

A figure is shown at its own resolution unless it is wider than the notebook's output area,
which then scales it down: 868 px in JupyterLab at 1300 × 900 with the file browser open
(measured in Chromium), about the same on GitHub. So the smallest text of a figure, in screen
pixels, is ``points × dpi / 72 × min(1, 868 / width in pixels)``. Dashboard images are drawn
at ``helpers.widgets._base.DPI`` as they are (no tight bounding box), so their text must also
lie inside the image; notebooks show static figures at 100 dpi with a tight bounding box.
"""

from __future__ import annotations

import io
import itertools

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import helpers.widgets as widgets
from helpers.figures import all_figures
from helpers.widgets._base import DPI

MIN_TEXT_PX = 11.0
MIN_GAP_PX = 3.0  # between neighbouring tick labels: about the width of a space
OUTPUT_WIDTH_PX = 868  # JupyterLab's output area at 1300 × 900, file browser open
NOTEBOOK_DPI = 100  # IPython's PNG of a Figure: its dpi (matplotlib's default 100), tight

DASHBOARDS = sorted(name for name in dir(widgets) if name.endswith("_dashboard"))


def _texts(fig):
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def _overlapping_tick_labels(fig) -> list[str]:
    """Neighbouring tick labels of one axis whose boxes overlap (words run together)."""
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        for axis, lo, hi in ((ax.xaxis, "x0", "x1"), (ax.yaxis, "y0", "y1")):
            low, high = sorted(axis.get_view_interval())
            shown = [
                (t.get_window_extent(renderer), t.get_text())
                for t, loc in zip(axis.get_ticklabels(), axis.get_ticklocs(), strict=False)
                if t.get_visible() and t.get_text() and low <= loc <= high
            ]
            shown.sort(key=lambda item: getattr(item[0], lo))
            for (a, a_text), (b, b_text) in itertools.pairwise(shown):
                # side by side on one line (x) or one above the other (y), less than the
                # width of a space apart
                other = ("y0", "y1") if lo == "x0" else ("x0", "x1")
                beside = getattr(a, other[0]) < getattr(b, other[1]) and getattr(
                    b, other[0]
                ) < getattr(a, other[1])
                if beside and getattr(b, lo) - getattr(a, hi) < MIN_GAP_PX:
                    found.append(f"{a_text!r} runs into {b_text!r}")
    return found


def _smallest_px(fig, dpi: float, width_px: float) -> tuple[float, str]:
    texts = _texts(fig)
    smallest = min(texts, key=lambda t: t.get_fontsize())
    scale = min(1.0, OUTPUT_WIDTH_PX / width_px)
    return smallest.get_fontsize() * dpi / 72 * scale, smallest.get_text()


def _states(dashboard):
    """The dashboard at its defaults, at every option of each dropdown and at both ends of
    each slider (the longest titles and tick labels), one control at a time."""
    yield "defaults"
    for label, control in dashboard.controls.items():
        start = control.value
        if hasattr(control, "options"):  # Dropdown, SelectionSlider, ToggleButtons ...
            for index in range(len(control.options)):
                control.index = index
                yield f"{label} = {control.value!r}"
        elif hasattr(control, "base"):  # FloatLogSlider: min and max are exponents
            for end in (control.min, control.max):
                control.value = control.base**end
                yield f"{label} = {control.value!r}"
        elif hasattr(control, "max"):
            for end in (control.min, control.max):
                control.value = end
                yield f"{label} = {control.value!r}"
        control.value = start


@pytest.mark.parametrize("name", DASHBOARDS)
def test_dashboard_text_is_legible_and_inside_the_image(name):
    dashboard = getattr(widgets, name)()
    for state in _states(dashboard):
        where = f"{name} ({state})"
        fig = dashboard.figure
        width_px = fig.get_figwidth() * DPI
        assert width_px <= OUTPUT_WIDTH_PX, f"{where}: {width_px:.0f} px wide, shown scaled"
        px, text = _smallest_px(fig, DPI, width_px)
        assert px >= MIN_TEXT_PX, f"{where}: {text!r} is {px:.1f} px on screen"
        # everything drawn lies inside the image (x labels cut at the bottom edge and a long
        # title cut at both sides were defects); the tight box counts only what is drawn
        drawn = fig.get_tightbbox(fig.canvas.get_renderer())  # inches
        slack = 1 / DPI  # one pixel
        assert drawn.x0 >= -slack and drawn.y0 >= -slack, f"{where}: cut left/bottom: {drawn}"
        assert drawn.x1 <= fig.get_figwidth() + slack, f"{where}: cut at the right: {drawn}"
        assert drawn.y1 <= fig.get_figheight() + slack, f"{where}: cut at the top: {drawn}"
        assert not _overlapping_tick_labels(fig), f"{where}: {_overlapping_tick_labels(fig)}"


@pytest.mark.parametrize("stem", sorted(all_figures()))
def test_notebook_figure_text_is_legible(stem):
    fig = all_figures()[stem]()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=NOTEBOOK_DPI, bbox_inches="tight")
    width_px = int.from_bytes(buffer.getvalue()[16:20], "big")  # the PNG's IHDR width
    px, text = _smallest_px(fig, NOTEBOOK_DPI, width_px)
    assert not _overlapping_tick_labels(fig), f"{stem}: {_overlapping_tick_labels(fig)}"
    assert px >= MIN_TEXT_PX, (
        f"{stem}: {text!r} is {px:.1f} px on screen ({width_px} px wide, "
        f"shown at {min(1, OUTPUT_WIDTH_PX / width_px):.2f}×)"
    )
