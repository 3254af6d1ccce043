"""The one pattern every dashboard in the course follows.

A dashboard is a set of named controls, a ``draw(**values)`` function that returns a
matplotlib Figure and a short text (the numbers the reader should look at), and the
glue that redraws on every change. Tests drive a dashboard exactly as a reader does, by
setting ``dashboard.controls[name].value``, then assert on ``dashboard.figure`` (the
plotted data) and ``dashboard.text`` (the printed numbers).

Redrawn at the speed of a slider (issue 33): the figure is built once by ``draw`` and then
updated in place by the dashboard's ``update(fig, **values)`` (new line data, bar heights,
texts, axis limits where they must move: matplotlib's pattern for interactive use), which
returns the text, or None when the figure's structure must change (then ``draw`` builds a
fresh one). The figure keeps one Agg canvas and is encoded at the resolution the output
shows (:data:`DPI`) with zlib level 1, several times faster than the default level for
the same pixels. The text alternative is the one the plotting code attached from the data it
drew (``fig.alt_text``), rewritten by ``update`` too. tests/helpers/widgets/test__base.py
holds every dashboard's in-place figure to a fresh draw at the same values.

Accessible to every reader: the image is an ``<img>`` whose ``alt`` is the figure's text
alternative (``helpers.plotting.alt_text``), rewritten on every redraw with the values shown;
every control is reached with Tab in order and moved with the arrow keys (ipywidgets'
own keyboard support), and shows a visible focus ring (:data:`FOCUS_CSS`).
"""

from __future__ import annotations

import base64
import gc
import html
import io
from collections.abc import Callable, Mapping

import ipywidgets as widgets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..plotting import alt_text

__all__ = ["Dashboard", "control_row", "figure_png", "float_slider"]

STATIC_NOTE = (
    "Interactive dashboard: run this notebook in JupyterLab to move the controls. "
    "The static figure above shows the default values."
)


# a slider's width (description + track + readout): leaves a track of about 300 px
SLIDER_WIDTH = "460px"
_SLIDERS = (
    widgets.FloatSlider,
    widgets.IntSlider,
    widgets.FloatLogSlider,
    widgets.SelectionSlider,
    widgets.FloatRangeSlider,
    widgets.IntRangeSlider,
)


#: the class of every dashboard's outer box (the focus style below and the tests find it)
DASHBOARD_CLASS = "course-dashboard"

#: a focus ring on every control of a dashboard when it is reached from the keyboard:
#: ipywidgets draws none on a slider's handle (its outline is "none"), so a keyboard user
#: could not see where they are. Sent once per dashboard, as a <style> in an HTML widget.
FOCUS_CSS = f"""<style>
.{DASHBOARD_CLASS} .noUi-handle:focus-visible,
.{DASHBOARD_CLASS} .widget-readout:focus-visible,
.{DASHBOARD_CLASS} select:focus-visible,
.{DASHBOARD_CLASS} input:focus-visible,
.{DASHBOARD_CLASS} button:focus-visible {{
  outline: 3px solid #0072B2 !important;
  outline-offset: 2px !important;
}}
</style>"""


def image_html(png: bytes, alt: str) -> str:
    """The dashboard's image: an <img> with its text alternative (JupyterLab's own image
    output has no alt attribute)."""
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<img alt="{html.escape(alt, quote=True)}" src="data:image/png;base64,{data}" '
        'style="max-width: 100%; height: auto;">'
    )


#: resolution of every dashboard image: the smallest text (helpers.plotting._style.SMALL,
#: 9 pt) comes out at 11 px, legible on a projector, and a 9-inch figure at 810 px fits the
#: notebook's width unscaled (tests/test_legibility.py checks both)
DPI = 90


def float_slider(
    description, value, lo, hi, step, fmt=".3f", *, style=None, layout=None, width=None
):
    """A FloatSlider that redraws on release (``continuous_update=False``), the course's way.

    ``style`` and ``layout`` are the calling dashboard's (label width, track width);
    ``width`` (such as ``"540px"``) is a layout of that width of the slider's own.
    """
    if width is not None:
        layout = widgets.Layout(width=width)
    return widgets.FloatSlider(
        value=value,
        min=lo,
        max=hi,
        step=step,
        description=description,
        readout_format=fmt,
        continuous_update=False,
        style=style if style is not None else {"description_width": "initial"},
        layout=layout if layout is not None else widgets.Layout(),
    )


#: zlib level of a dashboard's PNG: 1 encodes several times faster than matplotlib's default
#: (6) for files a few per cent larger; the pixels are the same (PNG is lossless)
PNG_COMPRESS_LEVEL = 1


def figure_png(fig: Figure, dpi: int = DPI) -> bytes:
    """The figure as a PNG at ``dpi``, encoded fast (:data:`PNG_COMPRESS_LEVEL`).

    The figure keeps its Agg canvas between calls (attached on the first), so a dashboard's
    redraw does not build a new one; the pixels are those of ``fig.savefig(dpi=dpi)``.
    """
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, pil_kwargs={"compress_level": PNG_COMPRESS_LEVEL})
    return buffer.getvalue()


def control_row(children) -> widgets.HBox:
    """A row of controls that wraps onto the next line instead of shrinking them (a row of
    four squeezed the ε slider to 20 px)."""
    return widgets.HBox(list(children), layout=widgets.Layout(flex_flow="row wrap"))


_FROZEN = False


def _freeze_long_lived() -> None:
    """Once per process, move every object alive now (the kernel's modules, data and the
    notebook's variables) out of the garbage collector's sight (:func:`gc.freeze`).

    A redraw that builds a fresh figure leaves cyclic garbage; every 10 to 25 of them Python
    runs a full collection, which scanned the 300,000 objects of a notebook's kernel and
    paused that redraw by 0.3 to 0.4 s of CPU. Frozen objects are never scanned; ones that
    are not cyclic are still freed by reference counting. Only once, so that a process
    making many dashboards (the tests) keeps at most the first one's figure alive.
    """
    global _FROZEN
    if not _FROZEN:
        _FROZEN = True
        gc.freeze()


class Dashboard:
    """Controls + a figure redrawn on every change + a text readout.

    Parameters
    ----------
    controls
        Named ipywidgets value widgets; their ``value`` is passed to ``draw`` by name.
    draw
        ``draw(**values) -> (Figure, str)``; pure, so the same function serves tests.
    update
        ``update(fig, **values) -> str | None``: bring ``fig`` (a figure ``draw`` made, as
        last shown) to ``values`` in place and return the text; None when it cannot (the
        figure's structure changes), and ``draw`` builds a fresh figure. Without it every
        change draws afresh.
    """

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        draw: Callable[..., tuple[Figure, str]],
        *,
        update: Callable[..., str | None] | None = None,
        dpi: int = DPI,
    ) -> None:
        self.controls = dict(controls)
        self._draw = draw
        self._update = update
        self._dpi = dpi
        self.figure: Figure | None = None
        self.text = ""
        self.readout = widgets.HTML()
        self.output = widgets.Output()
        self.alt_text = ""
        for control in self.controls.values():
            control.observe(self.update, names="value")
            if isinstance(control, _SLIDERS) and not control.layout.width:
                # a track long enough to hit the values the text talks about
                control.layout.width = SLIDER_WIDTH
        row = control_row(list(self.controls.values()))
        # the focus style last: the readout stays the first HTML widget of the box
        self.widget = widgets.VBox([row, self.readout, self.output, widgets.HTML(FOCUS_CSS)])
        self.widget.add_class(DASHBOARD_CLASS)
        self.update()
        _freeze_long_lived()

    def values(self) -> dict[str, object]:
        return {name: control.value for name, control in self.controls.items()}

    def redraw(self, values: Mapping[str, object]) -> tuple[Figure, str]:
        """The figure and text at ``values``: the current figure updated in place when the
        dashboard can, else a fresh draw."""
        if self._update is not None and self.figure is not None:
            text = self._update(self.figure, **values)
            if text is not None:
                return self.figure, text
        return self._draw(**values)

    def update(self, _change: object = None) -> None:
        """Recompute and redraw (called by every control change)."""
        try:
            figure, text = self.redraw(self.values())
        except ValueError as error:
            # a combination the math refuses: show why instead of a traceback
            self.text = f"{error}"
            self.readout.value = f"<pre style='color:#b00'>{html.escape(self.text)}</pre>"
            return
        self.figure, self.text = figure, text
        self.alt_text = alt_text(figure)
        self.readout.value = f"<pre>{html.escape(text)}</pre>"
        # one assignment, so the front end swaps the image without flicker; an <img> with
        # alt (as HTML: JupyterLab's renderer of image/png outputs sets no alt)
        self.output.outputs = (
            {
                "output_type": "display_data",
                "data": {
                    "text/html": image_html(figure_png(figure, self._dpi), self.alt_text),
                    "text/plain": self.alt_text or repr(figure),
                },
                "metadata": {},
            },
        )

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(bundle, tuple):
            data, metadata = bundle
        else:
            data, metadata = bundle, {}
        data = dict(data)
        # what GitHub (no kernel) shows instead of "VBox(children=...)"
        data["text/plain"] = STATIC_NOTE + "\n" + self.text
        return data, metadata
