"""The privacy-loss figures of notebook 06: the registry builds all ten."""

from __future__ import annotations

from helpers.figures.plrv import FIGURES


def test_figure_registry_builds_ten_figures():
    assert len(FIGURES) == 10
    assert all(stem.startswith("plrv_") for stem in FIGURES)
    fig = FIGURES["plrv_exp_loss_gaussian_delta"]()
    assert "0.0532" in " ".join(t.get_text() for t in fig.axes[0].get_legend().get_texts())
