"""Files in figures/ for notebook 13 (choosing ε for a model): name -> Figure factory."""

from __future__ import annotations

from ..plotting.dpsgd import plot_model_overview

FIGURES: dict = {
    "dpsgd_model_overview": lambda: plot_model_overview(),
}
