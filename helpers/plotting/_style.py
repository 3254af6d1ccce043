"""Text sizes every figure shares, so each one reads on a projector.

SMALL is the size of the smallest text in any figure (legends, bar labels, annotations);
tick labels and axis labels keep matplotlib's 10 pt. At the resolutions the figures are
shown at (a dashboard image at 90 dpi, a notebook figure at 100 dpi, the README's PNGs at
110 dpi) SMALL points are at least 11 screen pixels: ``tests/test_legibility.py`` holds every
figure and dashboard to that floor.
"""

import math
import re

from matplotlib.ticker import FuncFormatter

SMALL = 9


def scaled_axis(axis, peak: float) -> str:
    """Label small values of ``axis`` as multiples of a power of ten; return the suffix.

    Tick labels like 0.0075 are long: they pushed the axis label out of a dashboard image.
    For a peak below 0.01 the ticks read 7.5 and the axis label gains ", ×10⁻³" (the caller
    appends the returned suffix; matplotlib's own offset text would collide with the title).
    """
    if not 0 < peak < 0.01:
        return ""
    power = math.floor(math.log10(peak))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value / 10.0**power:g}"))
    return ", ×10" + str(power).translate(_SUPERSCRIPTS)


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


# --- colour: readable without colour vision ------------------------------------------------
#
# Okabe & Ito's palette ("Color Universal Design", 2002/2008): eight colours chosen to stay
# apart for readers with deuteranopia and protanopia. Every figure draws its series from it,
# and every series also differs by line style, marker or hatch, so nothing is told by colour
# alone. tests/test_accessibility.py simulates both deficiencies (colorspacious, Machado et
# al. 2009 at full severity) on every figure and holds each pair of series colours at least
# MIN_CVD_DELTA_E apart in CAM02-UCS.

BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"  # Okabe & Ito's bluish green
VERMILLION = "#D55E00"  # the palette's red: "red" in the notebooks' text
PURPLE = "#CC79A7"  # reddish purple
SKY_BLUE = "#56B4E9"
YELLOW = "#F0E442"
BLACK = "#000000"
GREY = "#999999"

#: the colour cycle of every figure ("C0" … "C6" in the plotting code): the order keeps the
#: roles of matplotlib's default cycle (C0 blue, C1 orange, C2 green, C3 red, C4 purple)
CYCLE = (BLUE, ORANGE, GREEN, VERMILLION, PURPLE, SKY_BLUE, YELLOW)

#: line styles and markers, in order, for series that would otherwise differ by colour only
LINESTYLES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
HATCHES = ("", "//", "..", "xx", "\\\\", "++")

#: the smallest colour difference (CAM02-UCS ΔE) between two series' colours, for normal
#: vision and under simulated deuteranopia and protanopia; Okabe & Ito's colours (grey
#: aside) keep at least 14 under both
MIN_CVD_DELTA_E = 12.0


def course_style(function):
    """Draw ``function``'s figure with the course's colour cycle (Okabe & Ito).

    matplotlib resolves "C0" … "C9" and the default colour of a new line, bar or patch from
    ``rcParams["axes.prop_cycle"]`` when the artist is made: inside this context every such
    colour comes from :data:`CYCLE`, without touching the reader's own rcParams.
    """
    import functools

    from cycler import cycler
    from matplotlib import rc_context

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with rc_context({"axes.prop_cycle": cycler(color=list(CYCLE))}):
            fig = function(*args, **kwargs)
            _freeze_cycle_colours(fig)
        return fig

    return wrapper


def in_course_style(fig, draw) -> None:
    """Call ``draw()``, which adds artists to ``fig`` (a figure :func:`course_style` made),
    as :func:`course_style` would: in the course's colour cycle, resolved when drawn (a
    dashboard's figure given another shape in place)."""
    from cycler import cycler
    from matplotlib import rc_context

    with rc_context({"axes.prop_cycle": cycler(color=list(CYCLE))}):
        draw()
        _freeze_cycle_colours(fig)


_CYCLE_SPEC = re.compile(r"C\d+")


def _freeze_cycle_colours(fig) -> None:
    """Resolve "C0" … "C9" to hex now: a line keeps the string and would look it up in the
    rcParams of the moment it is drawn (matplotlib's default cycle, outside the context)."""
    from matplotlib.colors import to_hex
    from matplotlib.lines import Line2D

    for artist in _lines_and_texts(fig):
        pairs = [("get_color", "set_color")]
        if isinstance(artist, Line2D):
            pairs += [
                ("get_markerfacecolor", "set_markerfacecolor"),
                ("get_markeredgecolor", "set_markeredgecolor"),
            ]
        for get, put in pairs:
            value = getattr(artist, get)()
            if isinstance(value, str) and _CYCLE_SPEC.fullmatch(value):
                getattr(artist, put)(to_hex(value))


def _lines_and_texts(fig):
    """Every Line2D and Text of ``fig`` except an axis's ticks, which take their colours from
    rcParams, never from "C0" … "C9" (the course sets no tick colour), and which
    ``fig.findobj`` would build and walk: most of a dashboard's redraw time (issue 33).
    An axis contributes its label and offset text."""
    from matplotlib.axis import Axis
    from matplotlib.lines import Line2D
    from matplotlib.text import Text

    stack = [fig]
    while stack:
        artist = stack.pop()
        if isinstance(artist, (Line2D, Text)):
            yield artist
        if isinstance(artist, Axis):
            stack.extend((artist.label, artist.offsetText))
            continue
        stack.extend(artist.get_children())
