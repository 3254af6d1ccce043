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

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import helpers.widgets as widgets
from helpers.figures import all_figures
from helpers.widgets._base import DPI

MIN_TEXT_PX = 11.0
OUTPUT_WIDTH_PX = 868  # JupyterLab's output area at 1300 × 900, file browser open
NOTEBOOK_DPI = 100  # IPython's PNG of a Figure: its dpi (matplotlib's default 100), tight

DASHBOARDS = sorted(name for name in dir(widgets) if name.endswith("_dashboard"))


def _texts(fig):
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def _smallest_px(fig, dpi: float, width_px: float) -> tuple[float, str]:
    texts = _texts(fig)
    smallest = min(texts, key=lambda t: t.get_fontsize())
    scale = min(1.0, OUTPUT_WIDTH_PX / width_px)
    return smallest.get_fontsize() * dpi / 72 * scale, smallest.get_text()


@pytest.mark.parametrize("name", DASHBOARDS)
def test_dashboard_text_is_legible_and_inside_the_image(name):
    dashboard = getattr(widgets, name)()
    fig = dashboard.figure
    width_px = fig.get_figwidth() * DPI
    assert width_px <= OUTPUT_WIDTH_PX, f"{name}: {width_px:.0f} px wide, shown scaled down"
    px, text = _smallest_px(fig, DPI, width_px)
    assert px >= MIN_TEXT_PX, f"{name}: {text!r} is {px:.1f} px on screen"
    # everything drawn lies inside the image (x labels cut at the bottom edge were one of
    # issue 11's defects); the tight box counts only what is drawn (ticks in view, say)
    drawn = fig.get_tightbbox(fig.canvas.get_renderer())  # inches
    slack = 1 / DPI  # one pixel
    assert drawn.x0 >= -slack and drawn.y0 >= -slack, f"{name}: cut at the left/bottom: {drawn}"
    assert drawn.x1 <= fig.get_figwidth() + slack, f"{name}: cut at the right: {drawn}"
    assert drawn.y1 <= fig.get_figheight() + slack, f"{name}: cut at the top: {drawn}"


@pytest.mark.parametrize("stem", sorted(all_figures()))
def test_notebook_figure_text_is_legible(stem):
    fig = all_figures()[stem]()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=NOTEBOOK_DPI, bbox_inches="tight")
    width_px = int.from_bytes(buffer.getvalue()[16:20], "big")  # the PNG's IHDR width
    px, text = _smallest_px(fig, NOTEBOOK_DPI, width_px)
    assert px >= MIN_TEXT_PX, (
        f"{stem}: {text!r} is {px:.1f} px on screen ({width_px} px wide, "
        f"shown at {min(1, OUTPUT_WIDTH_PX / width_px):.2f}×)"
    )
