"""ipywidgets dashboards. Each factory returns a ``Dashboard`` whose controls are reachable."""

from ._base import Dashboard
from .beliefs import attack_dashboard, posterior_dashboard, prior_dashboard
from .budget import (
    JOINT,
    K_FACTORS,
    LEFT_OUT,
    MIXED,
    BudgetDashboard,
    budget_dashboard,
    budget_text,
    mixed_noises,
    workload_from,
)
from .deployments import choose_dashboard, choose_text, deployments_dashboard, deployments_text
from .dpsgd import DELTAS, model_dashboard, model_text
from .foundations import (
    exponential_mechanism_dashboard,
    hypothesis_region_dashboard,
    laplace_ratio_dashboard,
    randomised_response_dashboard,
)
from .kazan_reiter import (
    bound_dashboard,
    profile_map_dashboard,
    risk_profile_dashboard,
    tradeoff_dashboard,
)
from .lee_clifton import binary_search_dashboard, bounds_dashboard, queries_dashboard
from .plrv import plrv_dashboard
from .release import release_dashboard, release_details, release_text

__all__ = [
    "DELTAS",
    "JOINT",
    "K_FACTORS",
    "LEFT_OUT",
    "MIXED",
    "BudgetDashboard",
    "Dashboard",
    "attack_dashboard",
    "binary_search_dashboard",
    "bound_dashboard",
    "bounds_dashboard",
    "budget_dashboard",
    "budget_text",
    "choose_dashboard",
    "choose_text",
    "deployments_dashboard",
    "deployments_text",
    "exponential_mechanism_dashboard",
    "hypothesis_region_dashboard",
    "laplace_ratio_dashboard",
    "mixed_noises",
    "model_dashboard",
    "model_text",
    "plrv_dashboard",
    "posterior_dashboard",
    "prior_dashboard",
    "profile_map_dashboard",
    "queries_dashboard",
    "randomised_response_dashboard",
    "release_dashboard",
    "release_details",
    "release_text",
    "risk_profile_dashboard",
    "tradeoff_dashboard",
    "workload_from",
]
