"""Files in figures/ for notebook 12 (from a chosen budget to a release): name -> Figure factory."""

from __future__ import annotations

from ..plotting.release import (
    DEFAULTS,
    plot_contributions,
    plot_icon_array,
    plot_release_overview,
    plot_small_groups,
    visit_counts,
)

FIGURES: dict = {
    "release_contributions": lambda: plot_contributions(visit_counts()),
    "release_small_groups": lambda: plot_small_groups(),
    "release_icon_array": lambda: plot_icon_array(DEFAULTS["epsilon"], prior=DEFAULTS["prior"]),
    "release_overview": lambda: plot_release_overview(),
}
