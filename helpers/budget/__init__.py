"""One budget for many releases: composition, allocation, and both sides of the choice.

The continuation of :mod:`helpers.choose` (notebook 10) for a *workload*: several counts, sums
and means released from the same data set (notebook 11). The vocabulary is notebook 10's. A
release is a count, a sum or a mean with public bounds, wanted within ±k with probability at
least c (its *coverage*). The number of records n is public and neighbouring data sets differ
by **changing one record** (bounded DP), so the sensitivities are those of
:func:`helpers.choose.sensitivity_of`: a count 1, a sum upper − lower, a mean (upper − lower)/n.
Each release gets its own noise; an adversary sees them all, so what protects a person is the
*composed* guarantee of the whole workload.

Composition (the total guarantee of k releases)
-----------------------------------------------
* pure ε: the ε's add (:func:`compose_epsilon`);
* (ε, δ): the advanced composition theorem of Dwork, Rothblum & Vadhan
  (:func:`advanced_composition`) and the *optimal* homogeneous composition of Kairouz, Oh &
  Viswanath (:func:`optimal_composition_delta`, :func:`optimal_composition_epsilon`);
* zCDP: ρ_z adds (:func:`compose_rho`), then to (ε, δ) with the tight conversion of
  :func:`helpers.deployments.zcdp_to_epsilon` (:func:`zcdp_composition`);
* privacy-loss distributions of Laplace, Gaussian, geometric and discrete Gaussian releases
  composed numerically by Google's ``dp_accounting`` (:func:`pld_delta`, :func:`pld_epsilon`):
  a name and its noise, or the mechanism objects of :mod:`helpers.mechanisms`; each class
  builds its own distribution (:meth:`helpers.mechanisms.AdditiveNoise.pld`: dp_accounting's
  native constructor, or a generic one from the class's cdf).

Allocation (a workload is a list of :class:`Release`)
-----------------------------------------------------
* from the accuracy targets, the smallest total meeting every one (:func:`budget_for_accuracy`),
  under Laplace noise (pure ε) or Gaussian noise (ρ_z of zCDP): ``mechanism="laplace"`` or
  ``mechanism=Laplace`` names a *family* of noise (:class:`NoiseFamily`, looked up once per
  call): the mechanism class knows its noise (the scale an accuracy target allows, the budget
  of a scale and the scale of a budget), its privacy measure (:data:`MEASURES`: pure ε or
  ρ-zCDP) how budgets add and are read (the unit, the reading as ε at δ, the risk's total);
* from a total, the split that minimises the weighted total noise variance, and which targets
  it meets (:func:`split_budget`): ε_i ∝ (w_i Δ_i²)^{1/3} (Laplace), ρ_i ∝ √w_i·Δ_i (Gaussian);
* a mean released as its noisy sum over its noisy count (OpenDP's release, a :class:`Workload`
  with ``means="ratio"``) is planned with that release's own interval (:func:`ratio_interval`)
  at its least group size n, so the ±k it prints there is the plan's.

Both sides: :func:`choose_workload` puts the accuracy side beside the largest total the risk
allows (:func:`total_for_risk`: a posterior bound, a Kazan & Reiter profile, a TPR at a chosen
FPR, or an ε) and reports the verdict and the knobs, as :func:`helpers.choose.choose` does for
one release.

Rounding toward privacy
-----------------------
Every number here that a privacy claim rests on is rounded on the safe side, so that floating
point never makes a claim false: a noise scale computed from an accuracy target is rounded
*down* (the target is still met) and the ε or ρ_z it costs *up*; a scale computed from a budget
is rounded *up*; a total is the exactly rounded sum (``math.fsum``) moved up one double unless
the sum was exact; the largest total a risk allows is rounded *down*; δ's are rounded up.

The math layer: no plotting, no widgets. Used in notebook 11.
"""

from __future__ import annotations

# math, Gaussian and Laplace: named in the docstring examples, which run in this namespace
# (tests/test_doctests.py), as when the package was one module
import inspect
import math  # noqa: F401

from ..attack import (  # re-exported: the attack risk of a workload, read on its own PLD
    attack_advantage,
    attack_success,
    attack_tpr,
    bayes_risk,
    loss_epsilon,
    loss_tail,
    worst_case_baseline,
)
from ..deployments import DEFAULT_DELTA
from ..mechanisms import Gaussian, Laplace  # noqa: F401
from ._common import (
    MAX_MAGNITUDE,
    MAX_RELEASES,
    MAX_TIMES,
    Allocation,
    Guarantee,
    Release,
    WorkloadChoice,
)
from ._common import _columns as _columns  # helpers.release parses workloads with these
from ._common import _parse as _parse
from ._common import _rows as _rows
from .allocation import (
    bonferroni,
    budget_for_accuracy,
    joint_coverage,
    split_budget,
    workload_sensitivities,
)
from .composition import (
    advanced_composition,
    compose_epsilon,
    compose_rho,
    optimal_composition_delta,
    optimal_composition_epsilon,
    zcdp_composition,
)
from .families import (
    MEASURES,
    MECHANISMS,
    NOISE_FAMILIES,
    NoiseFamily,
    PrivacyMeasure,
)
from .pld import (
    PLD_MECHANISMS,
    pld_delta,
    pld_epsilon,
)
from .ratio import planned_k, ratio_interval
from .risk import (
    RISK_KINDS,
    EpsilonRisk,
    PosteriorRisk,
    ProfileRisk,
    QueryRisk,
    Risk,
    TprRisk,
    epsilon_for_tpr,
    implied_risk,
    posterior_failure_probability,
    query_risk,
    rho_for_tpr,
    risk_epsilon,
    risk_posterior,
    risk_profile,
    risk_tpr,
    total_for_risk,
)
from .unit import MAX_CONTRIBUTIONS, MEAN_RELEASES, NEIGHBOURS, UNITS, PrivacyUnit, Workload
from .workload_choice import choose_workload

__all__ = [
    "DEFAULT_DELTA",
    "MAX_CONTRIBUTIONS",
    "MAX_MAGNITUDE",
    "MAX_RELEASES",
    "MAX_TIMES",
    "MEAN_RELEASES",
    "MEASURES",
    "MECHANISMS",
    "NEIGHBOURS",
    "NOISE_FAMILIES",
    "PLD_MECHANISMS",
    "RISK_KINDS",
    "UNITS",
    "Allocation",
    "EpsilonRisk",
    "Guarantee",
    "NoiseFamily",
    "PosteriorRisk",
    "PrivacyMeasure",
    "PrivacyUnit",
    "ProfileRisk",
    "QueryRisk",
    "Release",
    "Risk",
    "TprRisk",
    "Workload",
    "WorkloadChoice",
    "advanced_composition",
    "attack_advantage",
    "attack_success",
    "attack_tpr",
    "bayes_risk",
    "bonferroni",
    "budget_for_accuracy",
    "choose_workload",
    "compose_epsilon",
    "compose_rho",
    "epsilon_for_tpr",
    "implied_risk",
    "joint_coverage",
    "loss_epsilon",
    "loss_tail",
    "optimal_composition_delta",
    "optimal_composition_epsilon",
    "planned_k",
    "pld_delta",
    "pld_epsilon",
    "posterior_failure_probability",
    "query_risk",
    "ratio_interval",
    "rho_for_tpr",
    "risk_epsilon",
    "risk_posterior",
    "risk_profile",
    "risk_tpr",
    "split_budget",
    "total_for_risk",
    "workload_sensitivities",
    "worst_case_baseline",
    "zcdp_composition",
]


# One home for every public function: help() and the docs name helpers.budget, as before the
# split into modules (numpy's set_module). Classes keep their own module, where inspect (and
# IPython's ``??``) finds their source.
for _obj in map(globals().get, __all__):
    if inspect.isfunction(_obj) and _obj.__module__.startswith(__name__ + "."):
        _obj.__module__ = __name__
del _obj
