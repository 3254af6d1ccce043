"""The API contract of helpers/__init__.py, fuzzed: every public math function, fed NaN, ±inf,
empty, ragged, wrong-shaped, wrong-typed (strings, booleans) and out-of-range values in each
argument, raises a ValueError or returns a correct-looking value (no NaN), never another
exception or a hang. Scalar calls return Python floats (or bools / tuples / NamedTuples of them).

The functions fuzzed are every public function of the math layer's modules, from the one list
in tests/_modules.py (read from the layers stated in helpers/__init__.py), and
``exercises.check``, the exercises' public entry point.
"""

from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest
from _modules import BAD_VALUES, FUZZED_MODULES, contract_outcome, no_nan
from hypothesis import given
from hypothesis import strategies as st

from helpers import budget as B
from helpers import choose as C
from helpers import deployments as D
from helpers import dpsgd as SGD
from helpers import exercises as EX
from helpers import foundations as F
from helpers import kazan_reiter as KR
from helpers import leave_one_out as loo
from helpers import lee_clifton as lc
from helpers import mechanisms as M
from helpers import plrv as PL
from helpers import queries as qu
from helpers import release as RL
from helpers import sensitivity as se

PMF = ([0.5, 0.5], [0.25, 0.75])
ONE = lambda p, q: 3.0  # noqa: E731  (a constant risk profile)

# one valid call per public function: (positional args, keyword args)
VALID = {
    M.gaussian_cdf: ((0.3,), {}),
    M.gaussian_pdf: ((0.3,), {}),
    M.gaussian_sf: ((0.3,), {}),
    M.gaussian_sample: ((0.0, 1.0, 3), {"rng": 1}),
    M.geometric_alpha: ((1.0,), {}),
    M.geometric_scale: ((1.0,), {"sensitivity": 1.0}),
    M.geometric_cdf: ((2, 1.0), {}),
    M.geometric_sf: ((2, 1.0), {}),
    M.geometric_pmf: ((2, 1.0), {}),
    M.geometric_noise_sd: ((1.0,), {}),
    M.geometric_prob_exact: ((1.0,), {}),
    M.geometric_sample: ((1.0, 3), {"rng": 1}),
    M.laplace_cdf: ((0.3, 0.0, 1.0), {}),
    M.laplace_pdf: ((0.3, 0.0, 1.0), {}),
    M.laplace_sf: ((0.3, 0.0, 1.0), {}),
    M.laplace_noise_sd: ((1.0,), {}),
    M.laplace_sample: ((0.0, 1.0, 3), {"rng": 1}),
    M.laplace_scale: ((1.0,), {"sensitivity": 1.0}),
    M.make_rng: ((1,), {}),
    M.as_mechanism: (("laplace", 1.0), {"sensitivity": 1.0}),
    M.check_mechanisms: (([M.Laplace(1.0)],), {"name": "mechanisms"}),
    SGD.dpsgd_mechanism: ((1.0, 0.1), {}),
    SGD.dpsgd_epsilon: ((1.0, 0.1, 10), {"delta": 1e-5, "discretization": 1e-3}),
    SGD.dpsgd_attack_tpr: ((1.0, 0.1, 10), {"fpr": 0.1, "discretization": 1e-3}),
    SGD.noise_for_epsilon: (
        (2.0,),
        {"sample_rate": 0.1, "steps": 5, "delta": 1e-5, "discretization": 1e-2},
    ),
    SGD.noise_for_attack_tpr: (
        (0.3,),
        {"fpr": 0.1, "sample_rate": 0.1, "steps": 5, "discretization": 1e-2},
    ),
    SGD.flight_delays: ((), {"n_train": 100, "n_test": 100, "rng": 1}),
    SGD.train_dpsgd: (
        ([[1.0, 0.5], [1.0, -0.5]], [1, 0]),
        {
            "noise_multiplier": 1.0,
            "sample_rate": 0.5,
            "steps": 3,
            "clip": 1.0,
            "learning_rate": 0.5,
            "rng": 1,
        },
    ),
    SGD.accuracy: (([1.0, -1.0], [[2.0, 1.0], [0.0, 1.0]], [1, 0]), {}),
    SGD.audit_epsilon: ((9, 10), {"canaries": 100, "delta": 1e-5, "significance": 0.05}),
    SGD.audit_one_run: (
        ([[1.0, 0.5], [1.0, -0.5]], [1, 0]),
        {
            "noise_multiplier": 1.0,
            "sample_rate": 0.1,
            "steps": 10,
            "delta": 1e-5,
            "canaries": 100,
            "guesses": 20,
            "significance": 0.05,
            "clip": 1.0,
            "learning_rate": 0.5,
            "rng": 1,
        },
    ),
    M.releases: (([M.Laplace(1.0), M.Laplace(1.0)],), {"times": 2, "merge": 0.01}),
    M.adjacencies: (([M.Laplace(1.0)],), {}),
    M.composed_pld: (
        ([M.Laplace(1.0)],),
        {"times": 2, "merge": 0.0, "discretization": 1e-3, "max_cells": 1e7},
    ),
    M.composed_loss: (
        ([M.Laplace(1.0)],),
        {"times": 2, "adjacency": "add", "discretization": 1e-3, "max_cells": 1e7},
    ),
    M.epsilon_for_delta: (
        ([M.Laplace(1.0)], 1e-6),
        {"times": 2, "merge": 0.0, "discretization": 1e-3, "max_cells": 1e7},
    ),
    PL.discretise_mechanism: (("laplace", 1.0), {"sensitivity": 1.0, "bins": 101}),
    PL.gaussian_delta: ((1.0, 1.0), {"sensitivity": 1.0}),
    PL.gaussian_delta_naive: ((1.0, 1.0), {"sensitivity": 1.0}),
    PL.gaussian_plrv_mean: ((1.0,), {"sensitivity": 1.0}),
    PL.gaussian_privacy_loss: ((0.3, 1.0), {"sensitivity": 1.0, "loc": 0.0}),
    PL.gaussian_sigma_for_delta: ((1.0, 1e-5), {"sensitivity": 1.0}),
    PL.geometric_delta: ((0.5, 1.0), {"sensitivity": 1}),
    PL.geometric_delta_naive: ((0.5, 1.0), {"sensitivity": 1}),
    PL.geometric_plrv_pmf: ((1.0,), {"sensitivity": 1}),
    PL.geometric_privacy_loss: ((2, 1.0), {"sensitivity": 1, "loc": 0}),
    PL.laplace_delta: ((0.5, 1.0), {"sensitivity": 1.0}),
    PL.laplace_delta_naive: ((0.5, 1.0), {"sensitivity": 1.0}),
    PL.laplace_loss_bound: ((1.0,), {"sensitivity": 1.0}),
    PL.laplace_privacy_loss: ((0.3, 1.0), {"sensitivity": 1.0, "loc": 0.0}),
    PL.loss_object: (("laplace", 1.0), {"sensitivity": 1.0}),
    PL.plrv_upper_quantile: ((0.3, "gaussian", 1.0), {"sensitivity": 1.0}),
    PL.pmf_delta: ((0.5, *PMF), {}),
    PL.pmf_delta_naive: ((0.5, *PMF), {}),
    PL.pmf_privacy_loss: (PMF, {}),
    PL.pmf_upper_quantile: ((0.3, *PMF), {}),
    PL.posterior_probability: ((0.5, 1.0), {}),
    PL.privacy_loss: ((0.3, "laplace", 1.0), {"sensitivity": 1.0, "loc": 0.0}),
    PL.privacy_profile: ((0.5, "laplace", 1.0), {"sensitivity": 1.0}),
    PL.thresholding_pmfs: ((5.0, 1.0, 1.0), {}),
    KR.argmin_epsilon: ((ONE,), {"q": 0.5}),
    KR.recommend_epsilon: ((ONE,), {"p": 0.5}),
    KR.evaluate_profile: ((ONE, 0.5, 0.5), {}),
    KR.durham_switch_probability: ((1.0, 0.25, "above"), {"births": 4012, "target": 6.0}),
    KR.durham_true_counts: ((0.25, 4012, 6.0), {}),
    KR.epsilon_box_profile: ((2.0, 0.0, 1.0, 0.5, 1.0), {}),
    KR.epsilon_constant_profile: ((3.0,), {}),
    KR.epsilon_difference_profile: ((0.5,), {}),
    KR.epsilon_inclusion_profile: ((0.25, 0.5, 3.0), {}),
    KR.epsilon_lee_clifton_setting: ((4, 0.5), {}),
    KR.epsilon_values_profile: ((0.15, 0.05, 3.0), {}),
    KR.inclusion_profile: ((0.25, 0.5, 3.0), {}),
    KR.values_profile: ((0.25, 0.5, 3.0), {}),
    KR.two_dimensional_profile: ((0.25, 3.0), {}),
    KR.max_epsilon: ((0.5, 0.5, 3.0), {}),
    KR.max_epsilon_naive: ((0.5, 0.5, 3.0), {}),
    KR.naive_bound: ((1.0,), {}),
    KR.profile_slice: (("inclusion", 0.25, 1.0, 3.0), {}),
    KR.relative_risk_bound: ((0.5, 0.5, 1.0), {}),
    KR.utility: ((1.0,), {}),
    F.auction_revenue: ((F.SURVEY_AUCTION_PRICES, F.SURVEY_AUCTION_BIDS), {}),
    F.auction_revenue_sensitivity: ((F.SURVEY_AUCTION_PRICES,), {}),
    F.bits_query_sensitivity: ((5, "mean", "unbounded"), {}),
    F.chebyshev_bound: ((1.0, 2.0), {}),
    F.class_distributions: ((("a", "a", "b"), ("x", "y", "x")), {}),
    F.discrete_log_ratios: (PMF, {}),
    F.discrete_max_log_ratio: (PMF, {}),
    F.expected_score: (([1.0, 2.0], 1.0), {"sensitivity": 1.0}),
    F.exponential_mechanism_log_probabilities: (([1.0, 2.0], 1.0), {"sensitivity": 1.0}),
    F.exponential_mechanism_probabilities: (([1.0, 2.0], 1.0), {"sensitivity": 1.0}),
    F.exponential_mechanism_sample: (([1.0, 2.0], 1.0, 3), {"rng": 1, "sensitivity": 1.0}),
    F.group_privacy_epsilon: ((0.5, 2), {}),
    F.hypothesis_feasible: ((0.2, 0.3, 1.0), {}),
    F.hypothesis_min_equal_error: ((1.0,), {}),
    F.hypothesis_min_q: ((0.2, 1.0), {}),
    F.kl_divergence: (PMF, {}),
    F.l1_distance: (PMF, {}),
    F.l2_distance: (PMF, {}),
    F.laplace_log_ratio: ((0.3, 0.0, 1.0, 1.0), {"sensitivity": 1.0}),
    F.laplace_ratio: ((0.3, 0.0, 1.0, 1.0), {"sensitivity": 1.0}),
    F.laplace_tail_probability: ((1.0, 1.0), {}),
    F.laplace_threshold_test: ((0.5, 1.0), {"sensitivity": 1.0, "y0": 0.0}),
    F.mean_of_bits_release: (([0, 1, 1], 1.0, 3), {"rng": 1}),
    F.mean_of_bits_scale: ((10, 1.0), {}),
    F.mean_of_bits_variance: ((10, 1.0), {}),
    F.post_process: ((PMF[0], [[1.0, 0.0], [0.0, 1.0]]), {}),
    F.properties_experiment: ((0.5, 0.5, 0.3), {"rng": 5}),
    F.randomised_response: (([0, 1, 1],), {"rng": 1}),
    F.rr_alpha_for_epsilon: ((1.0,), {}),
    F.rr_epsilon: ((0.5,), {}),
    F.rr_estimate: ((9, 18, 0.5), {}),
    F.rr_output_distribution: ((1, 0.5), {}),
    F.rr_simulate_estimates: ((0.5, 18, 0.5), {"reps": 10, "rng": 1}),
    F.rr_variance: ((0.5, 18, 0.5), {}),
    F.rr_variance_bound: ((18, 0.5), {}),
    F.rr_variance_bound_tight: ((18, 0.5), {}),
    F.rr_variance_given_data: ((18, 0.5), {}),
    F.sequential_composition_epsilon: (([0.5, 1.0],), {}),
    F.variational_distance: (PMF, {}),
}
VALID[F.randomised_response] = (([0, 1, 1], 0.5), {"rng": 1})
VALID[F.hypothesis_max_q] = ((0.2, 1.0), {})
VALID[F.mean_of_bits_error_tail] = ((10, 1.0, 0.5, [0.1, 0.2]), {"reps": 50, "rng": 1})

# Kazan & Reiter's profiles (25), (28) and (37)
VALID |= {
    KR.box_profile: ((3.0, 0.2, 0.7, 0.1, 0.6), {}),
    KR.difference_profile: ((0.1,), {}),
    KR.lee_clifton_profile: ((4, 1 / 3), {}),
}

# deployments read three ways, and choosing ε from both sides
VALID |= {
    D.gaussian_epsilon: ((2.56, 1e-10), {}),
    D.gaussian_tpr_at_fpr: ((0.01,), {"rho": 0.5}),
    D.zcdp_tpr: ((0.5, 0.01), {}),
    D.load: ((), {"default_delta": 1e-10}),
    D.posterior_bad_event_probability: ((1e-6,), {"slack": 0.7}),
    D.posterior_bound: ((1.0,), {"prior": 0.5}),
    D.round_risk: ((0.05494,), {"decimals": 4}),
    D.three_views: ((1.0, 1e-6), {"prior": 0.5, "p": 0.5, "q": 1.0, "rho": 0.5}),
    D.tpr_at_fpr: ((0.01,), {"epsilon": 1.0, "delta": 1e-6}),
    D.unit_group: (("Person-level",), {}),
    D.usable: ((), {}),
    D.zcdp_rho_for_epsilon: ((2.0, 1e-10), {}),
    D.zcdp_to_epsilon: ((2.56, 1e-10), {}),
    D.zcdp_to_epsilon_simple: ((2.56, 1e-10), {}),
    D.opendp_epsilon: ((2.63, 1e-10), {}),
    C.choose: (
        ("mean",),
        {
            "k": 1.0,
            "epsilon_risk": 1.0,
            "n": 100,
            "lower": 0.0,
            "upper": 100.0,
            "prior": 0.5,
            "neighbours": "change-one",
        },
    ),
    C.durham_epsilon_for_switching: ((0.25,), {"max_probability": 0.1, "direction": "worst"}),
    C.epsilon_for_accuracy: ((1.0,), {"sensitivity": 1.0, "coverage": 0.95}),
    C.epsilon_for_posterior: ((0.75,), {"prior": 0.5}),
    C.epsilon_for_profile: (("inclusion",), {"r": 5.0, "a": 0.5, "fixed": 1.0}),
    C.laplace_error_probability: ((3.0,), {"k": 1.0, "sensitivity": 1.0}),
    C.sensitivity_of: (("mean",), {"n": 100, "lower": 0.0, "upper": 100.0}),
    EX.check: (("00.1", ...), {}),
}

# one budget for many releases
WORKLOAD = [B.Release("count", k=5.0), B.Release("mean", k=2.0, lower=0, upper=100, n=200)]
#: a workload whose mean is released as its noisy sum over its noisy count (OpenDP's)
RATIO_WORKLOAD = B.Workload(
    [B.Release("mean", k=2.0, lower=0, upper=100, n=200, sensitivity=0.5)],
    unit=B.PrivacyUnit("person", neighbours="add-remove"),
    means="ratio",
)
RATIO_ALLOCATION = B.budget_for_accuracy(RATIO_WORKLOAD)
VALID |= {
    B.advanced_composition: ((0.1,), {"times": 100, "delta_slack": 1e-6}),
    B.budget_for_accuracy: ((WORKLOAD,), {"mechanism": "laplace"}),
    B.choose_workload: ((WORKLOAD, B.risk_posterior(0.8, prior=0.5)), {}),
    B.compose_epsilon: (([0.5, 0.25],), {}),
    B.compose_rho: (([0.125, 0.5],), {}),
    B.epsilon_for_tpr: ((0.1,), {"fpr": 0.01, "delta": 0.0}),
    B.implied_risk: ((1.0, B.risk_posterior(0.6, prior=0.5)), {}),
    B.optimal_composition_delta: ((1.0,), {"epsilon": 0.5, "delta": 0.0, "times": 3}),
    B.optimal_composition_epsilon: ((1e-6,), {"epsilon": 0.1, "delta": 0.0, "times": 10}),
    B.pld_delta: ((1.0, "gaussian", 3.0), {"times": 2}),
    B.pld_epsilon: ((1e-6, "laplace", 10.0), {"times": 2}),
    B.posterior_failure_probability: ((0.04475,), {"mechanism": "gaussian", "delta": 1e-6}),
    B.rho_for_tpr: ((0.0924,), {"fpr": 0.01}),
    B.risk_epsilon: ((1.0,), {}),
    B.risk_posterior: ((0.75,), {"prior": 0.5}),
    B.risk_profile: (("constant",), {"r": 3.0}),
    B.risk_tpr: ((0.1,), {"fpr": 0.01}),
    B.query_risk: ((5.0,), {"releases": 2, "delta": 1e-5}),
    B.planned_k: ((RATIO_ALLOCATION, RATIO_WORKLOAD), {"group_size": 50}),
    B.ratio_interval: (
        (200.0, 40.0),
        {"total_accuracy": 20.0, "count_accuracy": 4.0, "lower": -10.0, "upper": 10.0},
    ),
    B.split_budget: ((WORKLOAD, 1.0), {"mechanism": "laplace"}),
    B.total_for_risk: ((1.0,), {"mechanism": "laplace"}),
    B.workload_sensitivities: ((WORKLOAD,), {}),
    B.zcdp_composition: (([1.28, 1.28],), {"delta": 1e-10}),
}

# from a chosen budget to a release (notebook 12)
ALLOCATION = B.budget_for_accuracy(WORKLOAD)
VALID |= {
    RL.allocation_attack: ((ALLOCATION,), {"fpr": 0.05}),
    RL.allocation_mechanisms: ((ALLOCATION,), {}),
    RL.attack_reading: ((1.0, 1e-6), {"fpr": 0.01}),
    RL.clipping_bias: (([1, 2, 5],), {"contributions": 2}),
    RL.contribution_tradeoff: (([1, 2, 5], [1, 2]), {"epsilon": 1.0, "coverage": 0.95}),
    RL.delta_exposure: ((1e-6, 1000), {}),
    RL.group_error: ((50,), {"budget": 1.0, "kind": "count"}),
    RL.group_privacy: ((0.5, 1e-6), {"size": 3}),
    RL.group_rho: ((0.1,), {"size": 3}),
    RL.largest_delta: ((1000,), {"exposure": 0.01}),
    RL.odds: ((1.0, 1e-6), {"prior": 0.1}),
    RL.odds_sentence: ((1.0, 1e-6), {"prior": 0.1}),
    RL.percent: ((0.2,), {}),
    RL.icon_counts: ((1.0, 1e-6), {"prior": 0.1}),
    RL.in_people: ((0.2,), {}),
    RL.round_up: ((1.2341,), {}),
    RL.neighbour_distance: (("add-remove",), {"contributions": 2}),
    RL.release_plan: (
        (ALLOCATION, WORKLOAD),
        {"person": "person", "contributions": 1, "max_length": 100},
    ),
    RL.read_plan: (
        (RL.release_plan(ALLOCATION, WORKLOAD, person="p", contributions=1, max_length=9),),
        {},
    ),
    RL.opendp_release: (
        ({"person": [1, 1, 2], "release_1": [3.0, 50.0, 99.0]}, ALLOCATION, WORKLOAD),
        {
            "person": "person",
            "contributions": 1,
            "columns": {"release 0": None},
            "max_length": 100,
        },
    ),
    RL.opendp_workload: ((WORKLOAD,), {"contributions": 2}),
    RL.per_person: ((WORKLOAD,), {"contributions": 2}),
    RL.privacy_record: (
        (ALLOCATION,),
        {
            "unit": "person",
            "neighbours": "change-one",
            "date": "2026-01-31",
            "name": "A survey",
            "curators": "An agency",
        },
    ),
    RL.registry_table: (
        (
            [
                {
                    "name": "A survey",
                    "curators": "An agency",
                    "year": 2026,
                    "sector": "Healthcare",
                    "dp_variant": "Pure DP",
                    "privacy_unit": "Person-level",
                    "model": "Central",
                    "releases": "One release",
                    "epsilon": 1.0,
                    "delta": None,
                    "rho": None,
                    "registry_slug": "a-survey",
                    "source_url": "",
                }
            ],
        ),
        {},
    ),
    RL.smallest_group: ((), {"budget": 1.0, "kind": "count", "accuracy": 0.1}),
    RL.subject_paragraph: ((1.0, 1e-6), {"prior": 0.1, "contributions": 2}),
    RL.subject_summary: ((1.0, 1e-6), {"prior": 0.1, "contributions": 2}),
    RL.subject_layers: ((1.0, 1e-6), {"prior": 0.1, "contributions": 2}),
}

# the Lee & Clifton engine: the school example's absence_days (Terry's 10 in the universe)
U = [1.0, 2.0, 3.0, 10.0]
MEAN = qu.get_query("mean")
VALID |= {
    lc.analysis_table: ((U, 3, 1 / 3), {"queries": ["mean", "median"]}),
    lc.binary_search_epsilon: ((U, 3, "mean", 1 / 3), {"tol": 1e-6, "sensitivity": 2.0}),
    lc.binary_search_steps: ((U, 3, "mean", 1 / 3), {"tol": 1e-3, "sensitivity": 2.0}),
    lc.bound_curves: ((U, 3, "mean", [0.0, 0.5]), {"sensitivity": 2.0}),
    lc.clear_caches: ((), {}),
    lc.confidence: ((U, 3, "mean", 2.2, 2.0), {"sensitivity": 2.0, "prior": [1, 1, 1, 1]}),
    lc.count_worlds: ((U, 3), {}),
    lc.delta_v: ((U, 3, "mean"), {}),
    lc.epsilon_upper_bound: ((U, 3, "mean", 1 / 3), {"sensitivity": 2.0}),
    lc.limit_of_tight_bound: ((U, 3, "median"), {}),
    lc.most_exposed_world: ((U, 3, "mean", 0.5), {"sensitivity": 2.0}),
    lc.possible_worlds: ((U, 3), {}),
    lc.posterior: ((U, 3, "mean", 2.2, 2.0), {"sensitivity": 2.0, "prior": [1, 1, 1, 1]}),
    lc.prior: ((U, 3), {"weights": [1, 2, 3, 4]}),
    lc.simulate_attack: ((U, 3, "mean", 1.0), {"trials": 50, "rng": 0, "true_world": 1}),
    lc.tight_bound: ((U, 3, "mean", 0.5), {"sensitivity": 2.0}),
    lc.upper_bound: ((U, 3, "mean", 0.5), {"sensitivity": 2.0}),
    lc.world_values: ((U, 3, "mean"), {}),
    se.bounded_sensitivity: ((U, 3, "mean"), {"k": 1}),
    se.combination_indices: ((4, 3), {}),
    se.unbounded_sensitivity: ((U, 3, "mean"), {"k": 1}),
    qu.get_query: (("mean",), {}),
    qu.percentile: ((25,), {}),
    loo.clear_cache: ((), {}),
    loo.supports: ((MEAN,), {}),
    loo.unbounded_sensitivity: ((np.array(U), MEAN), {}),
    loo.world_table: ((np.array(U), MEAN), {}),
}

# the attack risk on a workload's own privacy-loss distribution (a mixed workload: the PLD path)
MIXED = [M.Laplace(4.0), M.Gaussian(3.0), M.TwoSidedGeometric(2.0)]
VALID |= {
    B.attack_tpr: ((MIXED,), {"fpr": 0.05}),
    B.attack_advantage: ((MIXED,), {}),
    B.bayes_risk: ((MIXED,), {"prior": 0.5}),
    importlib.import_module("helpers.attack").composed_mu: (([M.Gaussian(2.0)] * 3,), {}),
    importlib.import_module("helpers.attack").loss_tail: ((MIXED,), {"epsilon": 1.0}),
    importlib.import_module("helpers.attack").loss_epsilon: ((MIXED,), {"delta": 1e-6}),
    importlib.import_module("helpers.attack").attack_success: ((MIXED,), {"baseline": 0.01}),
    importlib.import_module("helpers.attack").worst_case_baseline: ((MIXED,), {}),
    B.joint_coverage: (([0.95, 0.9],), {}),
    B.bonferroni: (([B.Release("count", k=5.0)] * 2,), {"joint": 0.9}),
}

BAD = BAD_VALUES

# every public function of the math layer (a function re-exported by a second module, such as
# deployments.relative_risk_bound, counted once), then the exercises' entry point
PUBLIC = list(
    dict.fromkeys(
        [
            getattr(module, name)
            for module in map(importlib.import_module, FUZZED_MODULES)
            for name in module.__all__
            if inspect.isfunction(getattr(module, name))
        ]
        + [EX.check]
    )
)


def test_the_fuzzed_modules_are_the_math_layer():
    # the list is read from a docstring: make sure it was read, and that the modules the
    # issue named (deployments and choose were never fuzzed) are in it
    for module in (M, PL, KR, F, lc, se, qu, loo, D, C, B):
        assert module.__name__ in FUZZED_MODULES


def test_every_public_math_function_has_a_valid_call():
    missing = sorted(f.__module__ + "." + f.__name__ for f in PUBLIC if f not in VALID)
    assert missing == []


# parameters left out of the fuzz, with the reason
UNFUZZED = {
    # a file path: a missing file is the OSError that names it (load is another issue's)
    (D.load, "path"),
}


def _defaulted(fn, args, kwargs) -> list[str]:
    """The parameters with defaults that the valid call leaves at their default."""
    params = list(inspect.signature(fn).parameters.values())[len(args) :]
    return [
        p.name
        for p in params
        if p.default is not inspect.Parameter.empty
        and p.name not in kwargs
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and (fn, p.name) not in UNFUZZED
    ]


def _calls(fn):
    if fn not in VALID:
        pytest.fail(f"{fn.__module__}.{fn.__name__} has no valid call in VALID")
    args, kwargs = VALID[fn]
    for i in range(len(args)):
        for bad in BAD:
            yield f"arg {i} = {bad!r}"[:60], (*args[:i], bad, *args[i + 1 :]), kwargs
    # every keyword the valid call names, and every option it leaves at its default
    for key in [*kwargs, *_defaulted(fn, args, kwargs)]:
        for bad in BAD:
            yield f"{key} = {bad!r}"[:60], args, {**kwargs, key: bad}


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_bad_input_is_a_value_error_or_a_number(fn):
    problems = []
    for label, args, kwargs in _calls(fn):
        outcome = contract_outcome(fn, args, kwargs)
        if outcome is not None:
            problems.append(f"{label}: {outcome}"[:200])
    assert problems == []


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_the_valid_call_keeps_the_contract(fn):
    if fn not in VALID:
        pytest.fail(f"{fn.__module__}.{fn.__name__} has no valid call in VALID")
    args, kwargs = VALID[fn]
    value = fn(*args, **kwargs)
    assert no_nan(value)
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        pytest.fail(f"{fn.__name__} returned a numpy scalar {value!r}; the contract says float")


numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=4),
)


def _slots(fn) -> list[tuple[str, int | str]]:
    args, kwargs = VALID[fn]
    keywords = [*kwargs, *_defaulted(fn, args, kwargs)]
    return [("arg", i) for i in range(len(args))] + [("kw", k) for k in keywords]


# a function without a valid call fails test_every_public_math_function_has_a_valid_call,
# not the collection of this module
@given(st.sampled_from([f for f in PUBLIC if f in VALID and _slots(f)]), st.data())
def test_random_numbers_in_any_argument(fn, data):
    args, kwargs = VALID[fn]
    slots = _slots(fn)
    kind, slot = data.draw(st.sampled_from(slots))
    value = data.draw(numbers)
    if kind == "arg":
        args = (*args[:slot], value, *args[slot + 1 :])
    else:
        kwargs = {**kwargs, slot: value}
    assert contract_outcome(fn, args, kwargs) is None


# --- work above a stated budget is refused up front (hypothesis over sizes beyond it) --------

UNIFORM = np.full(1000, 1e-3)
OVER_BUDGET = {
    "size (draws)": (lambda n: M.laplace_sample(0.0, 1.0, (n, 2), rng=1), 10**8 // 2),
    "reps (releases)": (
        lambda n: F.mean_of_bits_error_tail(10, 1.0, 0.5, 0.1, reps=n, rng=1),
        10**7,
    ),
    "reps (surveys)": (lambda n: F.rr_simulate_estimates(0.5, 18, 0.5, reps=n, rng=1), 10**7),
    "n (respondents)": (lambda n: F.rr_variance(0.5, n, 0.5), 10**9),
    "n (bits)": (lambda n: F.bits_query_sensitivity(n, "mean"), 10**7),
    "bins": (lambda n: PL.discretise_mechanism("laplace", 1.0, bins=n), 5_000_000),
    # 1,000 outcomes: a grid of 50,000 ε values is the budget of 5·10⁷ cells
    "epsilon grid": (lambda n: PL.pmf_delta(np.zeros(n), UNIFORM, UNIFORM), 50_000),
}


@pytest.mark.parametrize("what", sorted(OVER_BUDGET))
@given(extra=st.integers(1, 10**30))
def test_work_above_its_budget_is_a_value_error_before_any_allocation(what, extra):
    call, budget = OVER_BUDGET[what]
    if what == "epsilon grid":  # the grid itself must exist to be passed: stay near the budget
        extra = min(extra, 10**5)
    with pytest.raises(ValueError):
        call(budget + extra)


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda f: f.__name__)
def test_an_empty_array_gives_a_value_or_a_value_error_naming_its_parameter(fn):
    # issue 29: lee_clifton.tight_bound(..., epsilon=[]) answered with numpy's "need at least one
    # array to concatenate", the samplers with numpy's "shape mismatch": a ValueError, but not
    # the contract's (naming the parameter). An empty array is an empty answer, or refused by name.
    if fn is EX.check:  # its answers are ✗ with a message, not exceptions
        return
    if fn not in VALID:
        pytest.fail(f"{fn.__module__}.{fn.__name__} has no valid call in VALID")
    args, kwargs = VALID[fn]
    names = list(inspect.signature(fn).parameters)
    calls = [(names[i], (*args[:i], [], *args[i + 1 :]), kwargs) for i in range(len(args))]
    calls += [(key, args, {**kwargs, key: []}) for key in [*kwargs, *_defaulted(fn, args, kwargs)]]
    problems = []
    for name, a, k in calls:
        outcome = contract_outcome(fn, a, k)
        if outcome is not None:
            problems.append(f"{name}: {outcome}")
            continue
        try:
            fn(*a, **k)
        except ValueError as error:
            if name not in str(error):
                problems.append(f"{name}: {error}"[:200])
    assert problems == []
