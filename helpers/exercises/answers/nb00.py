"""Exercises of notebook 00 (DP foundations): randomised response, the auction, closeness, tails."""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from ... import foundations as F
from . import Param, answer


def _auction(third_bid: float | None = None):
    prices = np.array(F.SURVEY_AUCTION_PRICES)
    bids = list(F.SURVEY_AUCTION_BIDS)
    if third_bid is not None:
        bids[-1] = third_bid
    return prices, F.auction_revenue(prices, bids), F.auction_revenue_sensitivity(prices)


@answer(
    "00.1",
    names=("alpha_1", "n_needed"),
    decimals=4,
    parameters={
        "epsilon": Param(1.0, 0.3, 3.0, step=0.1, about="the ε randomised response must meet"),
        "sd": Param(0.05, 0.02, 0.1, step=0.005, about="the largest standard deviation of π̂"),
    },
)
def _rr_for_one_dp(*, epsilon, sd):
    """α making randomised response ε-DP; the smallest n with SD bound 1/(2α√n) ≤ sd."""
    alpha = float(F.rr_alpha_for_epsilon(epsilon))
    n = math.ceil(float(F.rr_variance_bound_tight(1, alpha)) / sd**2)
    while math.sqrt(F.rr_variance_bound_tight(n, alpha)) > sd:  # guard against rounding
        n += 1
    while n > 1 and math.sqrt(F.rr_variance_bound_tight(n - 1, alpha)) <= sd:
        n -= 1
    return alpha, n


@answer(
    "00.2",
    names=("eps_290", "max_log_ratio"),
    decimals=1,
    parameters={
        "revenue": Param(2.90, 2.3, 2.95, step=0.05, about="the expected revenue to reach ($)"),
        "third_bid": Param(
            0.0,
            kind="choice",
            choices=(0.0, 0.5, 1.0, 1.5, 2.0),
            about="the third bid's new value ($)",
        ),
    },
)
def _auction_epsilon(*, revenue, third_bid):
    """Smallest ε with expected revenue ``revenue`` (a grid answer within ±0.1 is accepted), and
    the largest |log ratio| of selection probabilities when the third bid drops to ``third_bid``."""
    _, base, delta_s = _auction()
    eps = optimize.brentq(
        lambda e: F.expected_score(base, e, sensitivity=delta_s) - revenue, 0.01, 200.0
    )
    p_base = F.exponential_mechanism_probabilities(base, eps, sensitivity=delta_s)
    _, other, _ = _auction(third_bid)
    p_nb = F.exponential_mechanism_probabilities(other, eps, sensitivity=delta_s)
    return eps, float(np.max(np.abs(np.log(p_base / p_nb))))


@answer(
    "00.3",
    names=("vd3", "is_close"),
    decimals=4,
    parameters={
        "new_class": Param("C3", kind="choice", choices=("C1", "C2", "C3"), about="its class"),
        "new_os": Param(
            "Linux", kind="choice", choices=("Linux", "Windows", "macOS"), about="its system"
        ),
        "t": Param(0.4, 0.2, 0.5, step=0.01, about="the closeness threshold t"),
    },
    points=(2, 1),
)
def _closeness_one_more_record(*, new_class, new_os, t):
    """Variational distance per class after a thirteenth record joins; still t-close?"""
    example = F.CLOSENESS_EXAMPLE
    classes = [*example["classes"], new_class]
    sensitive = [*example["sensitive"], new_os]
    _, _, p_l, p_q = F.class_distributions(classes, sensitive)
    vd = np.asarray(F.variational_distance(p_l, p_q), dtype=float)
    return vd, bool(vd.max() <= t)


@answer(
    "00.4",
    names=("max_ratio",),
    decimals=3,
    parameters={
        "power": Param(2, 1, 5, kind="int", about="the power m of the bound 1/κ^m"),
    },
)
def _laplace_tail_against_chebyshev(*, power):
    """max over κ > 0 of κ^m·P[|Laplace(0, 1)| ≥ κ] (below 1 for m = 2: e^{-κ} ≤ 1/κ²)."""
    result = optimize.minimize_scalar(
        lambda k: -(k**power) * float(F.laplace_tail_probability(k, 1.0)),
        bounds=(0.01, 40.0),
        method="bounded",
        options={"xatol": 1e-10},
    )
    return float(-result.fun)
