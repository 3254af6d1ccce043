"""The differential-privacy foundations the course builds on (notebook 00).

Two sources, with their notation:

* lecture notes (``001``): ε-closeness of an equivalence class C (a *data set* property:
  the distance D(P_L, P_Q) between the class's distribution P_L of the sensitive attribute
  and the whole data set's P_Q), randomised response with the parameter α (each person i
  reports y_i = x_i with probability α and a fair coin r_i with probability 1 − α), its
  estimator p̂ = (1/α)(Y/n − (1 − α)/2) with Y = Σ y_i, and the definition of ε-DP;
* survey slides (``002``): ε-DP, post-processing, group privacy, sequential composition,
  the hypothesis-testing view (p + e^ε q ≥ 1, e^ε p + q ≥ 1), the Laplace mechanism
  (scale b = Δ/ε), the mean of n bits with Laplace(1/(nε)) noise, and the exponential
  mechanism (select h with probability ∝ exp(ε s(X, h) / (2Δ))) on an auction.

All functions are pure and vectorised; bad input raises ``ValueError`` naming the
parameter, the value and the allowed range. Laplace densities come from
:mod:`helpers.mechanisms`.

This package is the public facade (``from helpers import foundations as F``); each topic has
its own module: :mod:`.sources` (the sources' numbers), :mod:`.bits_sensitivity`,
:mod:`.laplace_ratio`, :mod:`.mean_of_bits`, :mod:`.randomised_response`,
:mod:`.properties`, :mod:`.hypothesis_testing`, :mod:`.exponential_mechanism` and
:mod:`.closeness`.
"""

from .bits_sensitivity import bits_query_sensitivity
from .closeness import (
    class_distributions,
    kl_divergence,
    l1_distance,
    l2_distance,
    variational_distance,
)
from .exponential_mechanism import (
    auction_revenue,
    auction_revenue_sensitivity,
    expected_score,
    exponential_mechanism_log_probabilities,
    exponential_mechanism_probabilities,
    exponential_mechanism_sample,
)
from .hypothesis_testing import (
    hypothesis_feasible,
    hypothesis_max_q,
    hypothesis_min_equal_error,
    hypothesis_min_q,
    laplace_threshold_test,
)
from .laplace_ratio import laplace_log_ratio, laplace_ratio
from .mean_of_bits import (
    chebyshev_bound,
    laplace_tail_probability,
    mean_of_bits_error_tail,
    mean_of_bits_release,
    mean_of_bits_scale,
    mean_of_bits_variance,
)
from .properties import (
    PropertiesExperiment,
    discrete_log_ratios,
    discrete_max_log_ratio,
    group_privacy_epsilon,
    post_process,
    properties_experiment,
    sequential_composition_epsilon,
)
from .randomised_response import (
    randomised_response,
    rr_alpha_for_epsilon,
    rr_epsilon,
    rr_estimate,
    rr_output_distribution,
    rr_simulate_estimates,
    rr_variance,
    rr_variance_bound,
    rr_variance_bound_tight,
    rr_variance_given_data,
)
from .sources import (
    CLOSENESS_EXAMPLE,
    NOTES_RR_EXAMPLE,
    SURVEY_AUCTION_BIDS,
    SURVEY_AUCTION_PRICES,
    SURVEY_LAPLACE_EXAMPLE,
)

__all__ = [
    "CLOSENESS_EXAMPLE",
    "NOTES_RR_EXAMPLE",
    "SURVEY_AUCTION_BIDS",
    "SURVEY_AUCTION_PRICES",
    "SURVEY_LAPLACE_EXAMPLE",
    "PropertiesExperiment",
    "auction_revenue",
    "auction_revenue_sensitivity",
    "bits_query_sensitivity",
    "chebyshev_bound",
    "class_distributions",
    "discrete_log_ratios",
    "discrete_max_log_ratio",
    "expected_score",
    "exponential_mechanism_log_probabilities",
    "exponential_mechanism_probabilities",
    "exponential_mechanism_sample",
    "group_privacy_epsilon",
    "hypothesis_feasible",
    "hypothesis_max_q",
    "hypothesis_min_equal_error",
    "hypothesis_min_q",
    "kl_divergence",
    "l1_distance",
    "l2_distance",
    "laplace_log_ratio",
    "laplace_ratio",
    "laplace_tail_probability",
    "laplace_threshold_test",
    "mean_of_bits_error_tail",
    "mean_of_bits_release",
    "mean_of_bits_scale",
    "mean_of_bits_variance",
    "post_process",
    "properties_experiment",
    "randomised_response",
    "rr_alpha_for_epsilon",
    "rr_epsilon",
    "rr_estimate",
    "rr_output_distribution",
    "rr_simulate_estimates",
    "rr_variance",
    "rr_variance_bound",
    "rr_variance_bound_tight",
    "rr_variance_given_data",
    "sequential_composition_epsilon",
    "variational_distance",
]
