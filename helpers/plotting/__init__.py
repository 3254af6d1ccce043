"""matplotlib figure functions: data in, ``matplotlib.figure.Figure`` out, no globals.

The same function draws a notebook's static figure, its widget's figure and the PNG in
``figures/``. Figures are built with ``Figure()`` (not pyplot), so nothing accumulates in
pyplot's registry when a slider redraws a hundred times. Every figure carries its text
alternative as ``fig.alt_text`` (``helpers.plotting._alt``) and draws its series in Okabe &
Ito's colours, each series also told apart by line style, marker or hatch
(``helpers.plotting._style``).
"""

from ._alt import alt_text, alt_text_problem, install_ipython_alt
from .allocation import (
    SURVEY,
    SURVEY_RECORDS,
    plot_allocation,
    plot_mixed_allocation,
    update_allocation,
    update_mixed_allocation,
)
from .beliefs import (
    plot_attack_success,
    plot_posterior,
    plot_prior,
    update_attack_marker,
    update_posterior,
    update_prior,
    world_labels,
    worlds_table,
)
from .budget import (
    ACCOUNTINGS,
    composition_totals,
    plot_composition,
    plot_mechanism_totals,
    plot_query_risk,
)
from .census import CENSUS_LEVELS_ILLUSTRATIVE, census_person_rho, plot_census_levels
from .choose import plot_choice, plot_durham_choice, update_choice
from .deployments import (
    MODEL_FILLS,
    UNIT_COLOURS,
    UNIT_MARKERS,
    plot_deployments,
    plot_three_views,
    update_three_views,
)
from .foundations import (
    plot_bits_sensitivity,
    plot_closeness,
    plot_exponential_mechanism,
    plot_hypothesis_region,
    plot_laplace_ratio,
    plot_mean_of_bits,
    plot_properties,
    plot_randomised_response,
    update_exponential_mechanism,
    update_hypothesis_region,
    update_laplace_ratio,
    update_randomised_response,
)
from .kazan_reiter import (
    plot_bound_vs_naive,
    plot_colored_profiles,
    plot_figure1,
    plot_figure2,
    plot_profile_map,
    plot_risk_profile_slice,
    plot_switching,
    slice_curves,
    update_bound_vs_naive,
    update_profile_map,
    update_risk_profile_slice,
    update_switching,
)
from .lee_clifton import (
    as_columns,
    find_line,
    plot_binary_search,
    plot_bounds,
    plot_bracket,
    update_binary_search,
    update_bounds,
)
from .plrv import (
    plot_delta_area,
    plot_exp_loss,
    plot_loss_vs_output,
    plot_plrv_panels,
    plot_privacy_profile,
    plot_two_densities,
    update_plrv_panels,
)
from .release import (
    DEFAULTS,
    VISITS_SEED,
    Overview,
    overview_readings,
    plot_contributions,
    plot_icon_array,
    plot_release_overview,
    plot_small_groups,
    update_release_overview,
    visit_counts,
)
from .rounding import allowed_down, risk_up

# in a notebook's kernel, each displayed figure's PNG carries its text alternative
install_ipython_alt()

__all__ = [
    "ACCOUNTINGS",
    "CENSUS_LEVELS_ILLUSTRATIVE",
    "DEFAULTS",
    "MODEL_FILLS",
    "SURVEY",
    "SURVEY_RECORDS",
    "UNIT_COLOURS",
    "UNIT_MARKERS",
    "VISITS_SEED",
    "Overview",
    "allowed_down",
    "alt_text",
    "alt_text_problem",
    "as_columns",
    "census_person_rho",
    "composition_totals",
    "find_line",
    "overview_readings",
    "plot_allocation",
    "plot_attack_success",
    "plot_binary_search",
    "plot_bits_sensitivity",
    "plot_bound_vs_naive",
    "plot_bounds",
    "plot_bracket",
    "plot_census_levels",
    "plot_choice",
    "plot_closeness",
    "plot_colored_profiles",
    "plot_composition",
    "plot_contributions",
    "plot_delta_area",
    "plot_deployments",
    "plot_durham_choice",
    "plot_exp_loss",
    "plot_exponential_mechanism",
    "plot_figure1",
    "plot_figure2",
    "plot_hypothesis_region",
    "plot_icon_array",
    "plot_laplace_ratio",
    "plot_loss_vs_output",
    "plot_mean_of_bits",
    "plot_mechanism_totals",
    "plot_mixed_allocation",
    "plot_plrv_panels",
    "plot_posterior",
    "plot_prior",
    "plot_privacy_profile",
    "plot_profile_map",
    "plot_properties",
    "plot_query_risk",
    "plot_randomised_response",
    "plot_release_overview",
    "plot_risk_profile_slice",
    "plot_small_groups",
    "plot_switching",
    "plot_three_views",
    "plot_two_densities",
    "risk_up",
    "slice_curves",
    "update_allocation",
    "update_attack_marker",
    "update_binary_search",
    "update_bound_vs_naive",
    "update_bounds",
    "update_choice",
    "update_exponential_mechanism",
    "update_hypothesis_region",
    "update_laplace_ratio",
    "update_mixed_allocation",
    "update_plrv_panels",
    "update_posterior",
    "update_prior",
    "update_profile_map",
    "update_randomised_response",
    "update_release_overview",
    "update_risk_profile_slice",
    "update_switching",
    "update_three_views",
    "visit_counts",
    "world_labels",
    "worlds_table",
]
