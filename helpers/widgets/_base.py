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

Painted at once (issue 42): the image is an ipywidgets ``Image`` shown once in the dashboard's
Output; a redraw sends only its new PNG bytes (a binary buffer, no base64) and the front end
swaps the ``<img>``'s source in place, with no new element and no layout shift.

Accessible to every reader (issue 42, WCAG 2.1 AA): the image's ``alt`` is the figure's text
alternative (``helpers.plotting.alt_text``), rewritten on every redraw with the values shown
(sent before the image, in :attr:`Dashboard.description`, which the course's JupyterLab
extension copies into the ``alt``: ipywidgets' Image has none); every control is reached with
Tab in order and moved with the arrow keys (ipywidgets' own keyboard support), and shows a
visible focus ring (:data:`FOCUS_CSS`). Every
control has an accessible name, its label followed by what the label stands for in the
notebooks' notation (:func:`accessible_name`, NOTATION.md), carried to the browser as the
control's ``tooltip``, and a unit where its value has one (:data:`UNITS`). ipywidgets 8.1.7
passes neither to its sliders' handles: the course's JupyterLab extension
(``jupyter-config/labextensions/course-a11y``) names each handle, makes it speak the readout
(the real value of a log slider, the option of a selection slider) and takes disabled
controls out of the Tab order, and makes :attr:`Dashboard.status` a polite live region, which
receives a one-line summary of every new result or refusal (:func:`status_line`). Controls
have no fixed pixel width (:func:`reflow`): widths in em, never wider than the notebook, the
label above the track when the line is narrow (:data:`FOCUS_CSS`); the image keeps a legible
minimum width and scrolls sideways below it (:func:`min_figure_scale`).
"""

from __future__ import annotations

import gc
import html
import io
import math
import re
from collections.abc import Callable, Mapping

import ipywidgets as widgets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from ..plotting import alt_text

__all__ = ["Dashboard", "accessible_name", "control_row", "figure_png", "float_slider"]

STATIC_NOTE = (
    "Interactive dashboard: run this notebook in JupyterLab to move the controls. "
    "The static figure above shows the default values."
)


# a slider's width (description + track + readout), in em of the widgets' 13 px font: a track
# of about 300 px at 100 % zoom; never wider than the notebook (:func:`reflow`)
SLIDER_WIDTH = "35em"
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

#: the class of the dashboard's live region (:attr:`Dashboard.status`): the course's JupyterLab
#: extension gives it role=status and aria-live=polite
STATUS_CLASS = "course-status"

#: the class of the dashboard's image (an ipywidgets Image inside the dashboard's Output)
IMAGE_CLASS = "course-figure"

#: the class of the element holding the image's text alternative: the course's JupyterLab
#: extension copies its text into the image's ``alt`` and hides it from the accessibility tree
ALT_CLASS = "course-alt"

#: the class of the longer text a dashboard keeps under its button (``details``)
DETAILS_CLASS = "course-details"

#: the MIME type of a widget's view in an output
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: a focus ring on every control of a dashboard when it is reached from the keyboard:
#: ipywidgets draws none on a slider's handle (its outline is "none"), so a keyboard user
#: could not see where they are. Reflow (WCAG 1.4.10): a slider's line wraps, so that on a
#: narrow line (200 % zoom, a side panel open) its label stands above a track of at least
#: 12 em instead of squeezing it. The live region is read, not shown (the readout above it
#: shows the same numbers), and so is the text alternative's holder (the extension makes it
#: the image's alt). Sent once per dashboard, as a <style> in an HTML widget.
FOCUS_CSS = f"""<style>
.{DASHBOARD_CLASS} .widget-hslider {{
  flex-wrap: wrap;
  height: auto;
  min-height: var(--jp-widgets-inline-height);
}}
.{DASHBOARD_CLASS} .widget-hslider > .widget-label {{
  max-width: 100%;
}}
.{DASHBOARD_CLASS} .widget-hslider > .slider-container {{
  flex: 1 1 12em;
  min-width: 12em;
}}
.{DASHBOARD_CLASS} .{STATUS_CLASS},
.{DASHBOARD_CLASS} .{ALT_CLASS} {{
  position: absolute !important;
  width: 1px !important;
  height: 1px !important;
  overflow: hidden !important;
  clip-path: inset(50%) !important;
  white-space: nowrap !important;
}}
.{DASHBOARD_CLASS} .noUi-handle:focus-visible,
.{DASHBOARD_CLASS} .widget-readout:focus-visible,
.{DASHBOARD_CLASS} select:focus-visible,
.{DASHBOARD_CLASS} input:focus-visible,
.{DASHBOARD_CLASS} button:focus-visible {{
  outline: 3px solid #0072B2 !important;
  outline-offset: 2px !important;
}}
</style>"""


def png_width(png: bytes) -> int:
    """The width in pixels of a PNG (its IHDR chunk, bytes 16 to 20)."""
    return int.from_bytes(png[16:20], "big")


def image_layout(png: bytes, scale: float = 1.0) -> dict[str, str]:
    """The dashboard image's size: as wide as the notebook allows and never narrower than
    ``scale`` of its own width (:func:`min_figure_scale`; a whole number of pixels, rounded
    up), its height following its width."""
    return {
        "max_width": "100%",
        "min_width": f"{math.ceil(scale * png_width(png))}px",
        "height": "auto",
    }


#: what a control's label stands for, in the notebooks' notation (NOTATION.md): the accessible
#: name is "label, meaning" (the label first, as WCAG 2.5.3 asks), for labels that are a
#: symbol or too short to say what they set. Matched against the whole label.
MEANINGS: tuple[tuple[str, str], ...] = (
    (r"ε", "privacy budget"),
    (r"δ", "the slack of the (ε, δ) guarantee"),
    (r"noise multiplier σ", "DP-SGD's Gaussian noise in units of the clipping norm"),
    (r"sampling rate q", "the chance that each step's batch includes a given record"),
    (r"epochs", "passes over the training data: T = epochs / q steps of DP-SGD"),
    (r"ε per record", "privacy budget per record"),
    (r"largest total ε", "total privacy budget"),
    (r"α", "randomised response: probability of sending the true bit"),
    (r"n", "number of people answering"),
    (r"records n", "the number of records released"),
    (r"σ or b", "noise: Gaussian standard deviation σ or Laplace scale b"),
    (r"ρ \(risk\)", "disclosure risk, the largest posterior the data owner accepts"),
    (r"ρ \(largest posterior\)", "disclosure risk, the largest posterior accepted"),
    (r"r̃", "Kazan and Reiter's relative bound on the posterior-to-prior ratio"),
    (r"ã", "Kazan and Reiter's absolute bound on the posterior-to-prior ratio"),
    (r"q̃ or p̃", "Kazan and Reiter's fixed prior"),
    (r"ω\d+: .+", "the adversary's prior weight of this world"),
    (r"prior", "the adversary's prior on the true world"),
    (r"with probability", "how often the noise stays within ±k"),
    (r"seed", "seed of the simulated noise"),
    (r"switch", "the direction of the switch"),
    (r"noise", "the noise mechanism"),
    (r"risk", "how the risk is measured"),
    (r"profile", "Kazan and Reiter's risk profile"),
    (r"release", "what is released"),
    (r"column", "the column released"),
    (r"query", "the query released"),
    (r"mechanism", "the noise mechanism"),
    (r"deployment", "a published deployment, or your own ε and δ"),
    (r"accuracy ±k", "the accuracy a release must meet"),
    (r".+ \((count|mean|sum), \d+ %\)", "accuracy ±k of this release, or left out"),
)

#: the unit a control's value is spoken with, by label
UNITS: dict[str, str] = {
    "records per person, m": "records",
    "group size N": "people",
    "n": "people",
    "records n": "records",
}


def accessible_name(description: str) -> str:
    """The name a screen reader speaks for a control labelled ``description``: the label,
    then what it stands for (:data:`MEANINGS`) when the label alone does not say it."""
    for pattern, meaning in MEANINGS:
        if re.fullmatch(pattern, description):
            return f"{description}, {meaning}"
    return description


def reflow(control: widgets.Widget) -> None:
    """Make a control's width follow the page: no fixed pixel width (refused), never wider
    than the line it is on (WCAG 1.4.10), so at 200 % zoom it wraps instead of sticking out.
    A fresh Layout, so a layout shared between controls is not changed under the others."""
    width = control.layout.width
    if width is not None and str(width).endswith("px"):
        raise ValueError(
            f"control {control.description!r}: width must be relative (em, %), not {width!r}"
        )
    if control.layout.max_width is None:
        kept = {k: v for k, v in control.layout.get_state().items() if not k.startswith("_")}
        control.layout = widgets.Layout(**{**kept, "max_width": "100%"})


def status_line(text: str, previous: str = "", *, refused: bool = False) -> str:
    """The one line the live region speaks after a redraw: the first line of the readout
    that is new (the result that changed), else its first line; a refusal says so."""
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    if refused:
        return "Refused: " + (lines[0] if lines else "this combination")
    before = {" ".join(line.split()) for line in previous.splitlines()}
    new = [line for line in lines if line not in before]
    return (new or lines or [""])[0]


#: resolution of every dashboard image: the smallest text (helpers.plotting._style.SMALL,
#: 9 pt) comes out at 11 px, legible on a projector, and a 9-inch figure at 810 px fits the
#: notebook's width unscaled (tests/test_legibility.py checks both)
DPI = 90

#: the smallest text legible on screen, in CSS pixels (tests/test_legibility.py's threshold):
#: a dashboard's image is never drawn narrower than keeps its smallest text at this size
#: (:func:`min_figure_scale`); on a narrower line (200 % zoom, a side panel open) it scrolls
#: sideways instead of shrinking to a third
MIN_TEXT_PX = 11.0


def min_figure_scale(fig: Figure, dpi: int = DPI) -> float:
    """The share of its own width an image of ``fig`` at ``dpi`` may shrink to with its
    smallest visible text still :data:`MIN_TEXT_PX` pixels high (1 if it is smaller)."""
    sizes = [
        t.get_fontsize()
        for t in fig.findobj(Text)
        if t.get_visible() and t.get_text().strip() and t.figure is fig
    ]
    if not sizes:
        return 1.0
    return min(1.0, MIN_TEXT_PX / (min(sizes) * dpi / 72))


def float_slider(
    description, value, lo, hi, step, fmt=".3f", *, style=None, layout=None, width=None
):
    """A FloatSlider that redraws on release (``continuous_update=False``), the course's way.

    ``style`` and ``layout`` are the calling dashboard's (label width, track width);
    ``width`` (such as ``"41.5em"``, relative: :func:`reflow`) is a layout of that width of
    the slider's own.
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
    details
        ``details(**values) -> str``: a longer text, paragraphs split by blank lines, kept
        under a button ("Show …"/"Hide …", ``details_label``) so the dashboard still fits a
        slide, and recomputed on every change whether shown or not (never stale once opened).
    details_label
        What the button names, after "Show"/"Hide".
    """

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        draw: Callable[..., tuple[Figure, str]],
        *,
        update: Callable[..., str | None] | None = None,
        dpi: int = DPI,
        details: Callable[..., str] | None = None,
        details_label: str = "the details",
    ) -> None:
        self.controls = dict(controls)
        self._draw = draw
        self._update = update
        self._dpi = dpi
        self.figure: Figure | None = None
        self.text = ""
        self.readout = widgets.HTML()
        #: the live region: one line saying what the last change did (:func:`status_line`)
        self.status = widgets.HTML()
        self.status.add_class(STATUS_CLASS)
        # the image scrolls sideways when the line is narrower than its legible width
        self.output = widgets.Output(layout=widgets.Layout(overflow="auto", max_width="100%"))
        #: the figure, an <img> whose bytes each redraw replaces in place
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
        self.image.add_class(IMAGE_CLASS)
        #: the figure's text alternative, which the course's JupyterLab extension makes the
        #: image's ``alt`` (ipywidgets' Image has no alt); without the extension, read as text
        self.description = widgets.HTML()
        self.description.add_class(ALT_CLASS)
        self.output.outputs = (
            {
                "output_type": "display_data",
                "data": {
                    WIDGET_VIEW: {
                        "version_major": 2,
                        "version_minor": 0,
                        "model_id": self.image.model_id,
                    },
                    "text/plain": "the dashboard's figure",
                },
                "metadata": {},
            },
        )
        self.alt_text = ""
        self._shown = ""  # the last readout of a result (not a refusal): status_line's "before"
        for control in self.controls.values():
            control.observe(self.update, names="value")
            if isinstance(control, _SLIDERS) and not control.layout.width:
                # a track long enough to hit the values the text talks about
                control.layout = widgets.Layout(width=SLIDER_WIDTH)
            reflow(control)
            if not control.tooltip:
                control.tooltip = accessible_name(control.description)
            if control.description in UNITS:
                control.add_class("course-unit-" + UNITS[control.description])
        self._details = details
        self._details_label = details_label
        #: the longer text (``details``), hidden until the button opens it; a real <button>,
        #: reached by Tab and pressed by Enter or Space, its words saying what it will do
        self.details_panel = widgets.HTML(layout=widgets.Layout(display="none", max_width="48em"))
        self.details_panel.add_class(DETAILS_CLASS)
        self.details_button = widgets.ToggleButton(
            value=False,
            description=f"Show {details_label}",
            tooltip=f"Show or hide {details_label}",
            layout=widgets.Layout(width="auto"),
        )
        # the course's JupyterLab extension says its state (aria-expanded) and names the panel
        self.details_button.add_class(DETAILS_CLASS + "-toggle")
        self.details_button.observe(self._show_details, names="value")
        more = [self.details_button, self.details_panel] if details is not None else []
        row = control_row(list(self.controls.values()))
        # the focus style last: the readout stays the first HTML widget of the box
        self.widget = widgets.VBox(
            [
                row,
                self.readout,
                *more,
                self.status,
                self.output,
                self.description,
                widgets.HTML(FOCUS_CSS),
            ]
        )
        self.widget.add_class(DASHBOARD_CLASS)
        self.update()
        _freeze_long_lived()

    def values(self) -> dict[str, object]:
        return {name: control.value for name, control in self.controls.items()}

    def _show_details(self, change) -> None:
        shown = bool(change["new"])
        self.details_panel.layout.display = "block" if shown else "none"
        self.details_button.description = f"{'Hide' if shown else 'Show'} {self._details_label}"

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
            # the details with the rest, before anything is shown: never a stale panel
            more = "" if self._details is None else self._details(**self.values())
        except ValueError as error:
            # a combination the math refuses: show why instead of a traceback
            self.text = f"{error}"
            self.readout.value = f"<pre style='color:#b00'>{html.escape(self.text)}</pre>"
            self.status.value = html.escape(status_line(self.text, refused=True))
            self.details_panel.value = "<p>Nothing to detail: these values are refused (above).</p>"
            return
        self.status.value = html.escape(status_line(text, self._shown))
        self._shown = text
        self.figure, self.text = figure, text
        self.alt_text = alt_text(figure)
        png = figure_png(figure, self._dpi)
        # the text alternative before the image, so the new image never shows with the old
        # words; the image changes in place (its bytes, sent as a binary buffer; the front end
        # swaps the <img>'s src): no new element, no layout shift, no base64 (issue 42)
        self.description.value = html.escape(self.alt_text)
        for key, value in image_layout(png, min_figure_scale(figure, self._dpi)).items():
            setattr(self.image.layout, key, value)
        self.image.value = png
        self.readout.value = f"<pre>{html.escape(text)}</pre>"
        if self._details is not None:
            paragraphs = [p for p in more.split("\n\n") if p.strip()]
            self.details_panel.value = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)

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
