"""The foundations figures of notebook 00: every one builds, labelled, with finite data."""

from __future__ import annotations

import numpy as np

from helpers.figures.foundations import FIGURES


def test_figures_registry_draws_labelled_finite_data():
    # (the pixels are compared in test_figures; here: every axis is labelled and no plotted
    # line holds NaN, which matplotlib would silently leave out)
    assert all(stem.startswith("foundations_") for stem in FIGURES)
    for stem, make in FIGURES.items():
        fig = make()
        for ax in fig.axes:
            named_x = ax.get_xlabel() or any(t.get_text() for t in ax.get_xticklabels())
            assert named_x and ax.get_ylabel(), stem
            for line in ax.lines:
                assert not np.isnan(np.asarray(line.get_ydata(), dtype=float)).any(), stem
