"""Files in figures/ for notebook 11 (one budget, many releases): name -> Figure factory."""

from __future__ import annotations

from .. import budget as bud
from ..plotting.budget import (
    SURVEY,
    plot_allocation,
    plot_census_levels,
    plot_composition,
    plot_mechanism_totals,
    plot_query_risk,
)

#: the notebook's risk for the survey: a posterior of at most 0.8 from a prior of ½
SURVEY_RISK = bud.risk_posterior(0.8, prior=0.5)

FIGURES: dict = {
    "budget_composition": lambda: plot_composition(),
    "budget_laplace_or_gaussian": lambda: plot_mechanism_totals(
        SURVEY, epsilon_risk=bud.total_for_risk(SURVEY_RISK)
    ),
    "budget_survey_allocation": lambda: plot_allocation(SURVEY, SURVEY_RISK),
    "budget_census_levels": lambda: plot_census_levels(),
    "budget_query_risk": lambda: plot_query_risk(),
}
