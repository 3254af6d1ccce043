"""Files in figures/ for the kazan reiter notebooks: name -> zero-argument Figure factory."""

from __future__ import annotations

from ..plotting.kazan_reiter import (
    plot_bound_vs_naive,
    plot_colored_profiles,
    plot_figure1,
    plot_figure2,
    plot_profile_map,
)

FIGURES: dict = {
    "kazan_reiter_figure1": lambda: plot_figure1(a=0.1, r=3.0, q_tilde=1.0, p_tilde=0.05),
    "kazan_reiter_figure2": lambda: plot_figure2(),
    "kazan_reiter_figure3": lambda: plot_colored_profiles(
        "inclusion", [0.25], 1.0, [1.5, 3.0, 6.0]
    ),
    "kazan_reiter_figure4": lambda: plot_colored_profiles(
        "values", [0.025, 0.15, 0.3], 0.05, [3.0]
    ),
    "kazan_reiter_figure5": lambda: plot_profile_map(),
    "kazan_reiter_theorem1_vs_naive": lambda: plot_bound_vs_naive(1.0),
}
