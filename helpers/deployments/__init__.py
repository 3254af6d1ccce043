"""Real deployments of differential privacy and three ways to read their ε.

Data: ``helpers/data/dp_deployments.csv`` (package data, read with :mod:`importlib.resources`),
facts about 41 deployments extracted from the OpenDP Deployments Registry
(github.com/opendp/deployments-registry-data, commit 3e9c812, MIT License, Copyright (c) 2025
OpenDP; see ``helpers/data/README.md``). :func:`load` returns every row
with a ``status`` column ("usable" or the reason it is not): nothing is dropped silently.

Conversions from ρ_z-zero-concentrated DP (code name ``rho``) to (ε, δ)-DP:

* :func:`zcdp_to_epsilon`, the conversion of Canonne, Kamath & Steinke (2020), Corollary 13:
  ε = inf_{α>1} [ αρ_z + (ln(1/δ) + (α−1)·ln(1 − 1/α) − ln α) / (α−1) ];
* :func:`zcdp_to_epsilon_simple`, Bun & Steinke (2016), Proposition 1.3: ε = ρ_z + 2√(ρ_z ln(1/δ));
* :func:`gaussian_epsilon`, the exact (ε, δ) curve of one Gaussian mechanism with
  μ = √(2ρ_z) (Balle & Wang 2018, Theorem 8), tighter but only for that mechanism.

Three views of an (ε, δ) guarantee, each a function here:

1. :func:`posterior_bound`: Lee & Clifton's largest posterior of an adversary deciding
   between two worlds with prior ``prior``: p·e^ε / (p·e^ε + 1 − p);
2. :func:`helpers.kazan_reiter.relative_risk_bound` (Kazan & Reiter, Theorem 1), re-exported
   here as :func:`relative_risk_bound`;
3. :func:`tpr_at_fpr` and :func:`gaussian_tpr_at_fpr`: the power (true-positive rate) of the
   best test between neighbours (a membership test under add-remove, a test between two
   values of one record under change-one) at a false-positive rate, from the (ε, δ) trade-off curve
   f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)) (Dong, Roth & Su 2022, the trade-off
   function of (ε, δ)-DP; Kairouz, Oh & Viswanath 2015) or from the Gaussian curve G_μ(α) = Φ(Φ⁻¹(1 − α) − μ).

Every risk a table prints is rounded toward the person with :func:`round_risk` (a risk up, an
allowed budget down), never to nearest.

The math layer: no plotting, no widgets.
"""

from __future__ import annotations

import inspect

# One module per topic above: registry (the table), zcdp (the conversions), views (the three
# readings); _checks holds the input checks they share.
from ..kazan_reiter import relative_risk_bound
from ._checks import MAX_RHO
from .registry import (
    CENSUS_2020,
    DATA_PATH,
    DEFAULT_DELTA,
    UNIT_GROUPS,
    load,
    unit_group,
    usable,
)
from .rounding import round_risk
from .views import (
    MAX_TPR_POINTS,  # noqa: F401 (zcdp_tpr's work budget)
    gaussian_tpr_at_fpr,
    posterior_bad_event_probability,
    posterior_bound,
    three_views,
    tpr_at_fpr,
    zcdp_tpr,
)
from .zcdp import (
    MAX_CKS_VALUES,
    MAX_GAUSSIAN_EPSILON_VALUES,
    MAX_RHO_FOR_EPSILON_VALUES,
    OPENDP_PATH,  # noqa: F401 (written and read by the tests)
    gaussian_epsilon,
    opendp_epsilon,
    zcdp_rho_for_epsilon,
    zcdp_to_epsilon,
    zcdp_to_epsilon_simple,
)

__all__ = [
    "CENSUS_2020",
    "DATA_PATH",
    "DEFAULT_DELTA",
    "MAX_CKS_VALUES",
    "MAX_GAUSSIAN_EPSILON_VALUES",
    "MAX_RHO",
    "MAX_RHO_FOR_EPSILON_VALUES",
    "UNIT_GROUPS",
    "gaussian_epsilon",
    "gaussian_tpr_at_fpr",
    "load",
    "opendp_epsilon",
    "posterior_bad_event_probability",
    "posterior_bound",
    "relative_risk_bound",
    "round_risk",
    "three_views",
    "tpr_at_fpr",
    "unit_group",
    "usable",
    "zcdp_rho_for_epsilon",
    "zcdp_to_epsilon",
    "zcdp_to_epsilon_simple",
    "zcdp_tpr",
]

# One home for every public function: help() and the docs name helpers.deployments, as before the
# split into modules (numpy's set_module); the modules fill their docstrings before this, and
# a name re-exported from another package (relative_risk_bound) keeps its own.
for _obj in map(globals().get, __all__):
    if inspect.isfunction(_obj) and _obj.__module__.startswith(__name__ + "."):
        _obj.__module__ = __name__
del _obj
