"""The privacy-loss figures of notebook 06: the registry builds all ten."""

from __future__ import annotations

import math

from helpers import plrv
from helpers.figures.plrv import FIGURES
from helpers.plotting import risk_up


def test_figure_registry_builds_ten_figures():
    assert len(FIGURES) == 10
    assert all(stem.startswith("plrv_") for stem in FIGURES)
    fig = FIGURES["plrv_exp_loss_gaussian_delta"]()
    # δ₁ = P[L > ln 3] at σ = √3 (the post's ≈ 0.053), printed rounded up
    naive = float(plrv.gaussian_delta_naive(math.log(3), math.sqrt(3)))
    legend = " ".join(t.get_text() for t in fig.axes[0].get_legend().get_texts())
    assert f"{risk_up(naive):.4f}" in legend and 0.053 < naive < 0.0535
