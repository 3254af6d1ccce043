"""Text sizes every figure shares, so each one reads on a projector.

SMALL is the size of the smallest text in any figure (legends, bar labels, annotations);
tick labels and axis labels keep matplotlib's 10 pt. At the resolutions the figures are
shown at (a dashboard image at 90 dpi, a notebook figure at 100 dpi, the README's PNGs at
110 dpi) SMALL points are at least 11 screen pixels: ``tests/test_legibility.py`` holds every
figure and dashboard to that floor.
"""

import math

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
