"""Text sizes every figure shares, so each one reads on a projector.

SMALL is the size of the smallest text in any figure (legends, bar labels, annotations);
tick labels and axis labels keep matplotlib's 10 pt. At the resolutions the figures are
shown at (a dashboard image at 90 dpi, a notebook figure at 100 dpi, the README's PNGs at
110 dpi) SMALL points are at least 11 screen pixels: ``tests/test_legibility.py`` holds every
figure and dashboard to that floor.
"""

SMALL = 9
