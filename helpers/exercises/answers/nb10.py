"""Exercises of notebook 10 (choose your ε: accuracy against risk)."""

from __future__ import annotations

from ... import choose as ch
from . import Param, answer


@answer(
    "10.1",
    names=("eps_sum",),
    decimals=4,
    parameters={
        "upper": Param(50.0, 10.0, 200.0, step=5.0, about="the clipping bound"),
        "k": Param(100.0, 20.0, 500.0, step=10.0, about="the accuracy ±k"),
        "coverage": Param(0.9, 0.8, 0.99, step=0.01, about="the probability"),
    },
)
def _sum_accuracy(*, upper, k, coverage):
    """A sum of values clipped to [0, upper], within ±k with probability ``coverage``."""
    sens = ch.sensitivity_of("sum", lower=0.0, upper=upper)
    return ch.epsilon_for_accuracy(k, sensitivity=sens, coverage=coverage)


@answer(
    "10.2",
    names=("eps_risk", "eps_kr"),
    decimals=4,
    parameters={
        "posterior": Param(0.75, 0.55, 0.95, step=0.01, about="the largest posterior"),
        "prior": Param(0.2, 0.05, 0.5, step=0.01, about="the prior"),
        "r": Param(3.0, 1.5, 6.0, step=0.1, about="r̃"),
        "a": Param(0.3, 0.05, 0.6, step=0.01, about="ã"),
    },
    valid=lambda p: p["posterior"] > p["prior"],
)
def _risk_side(*, posterior, prior, r, a):
    """Largest ε for a posterior ≤ ``posterior`` from ``prior``; and for Kazan & Reiter's
    profile (17) with ã = a, r̃ = r."""
    return (
        ch.epsilon_for_posterior(posterior, prior=prior),
        ch.epsilon_for_profile("inclusion", r=r, a=a, fixed=1.0),
    )


@answer(
    "10.3",
    names=("n_needed",),
    parameters={
        "upper": Param(100.0, 20.0, 500.0, step=10.0, about="the values' upper bound"),
        "k": Param(1.0, 0.5, 3.0, step=0.1, about="the accuracy ±k"),
        "coverage": Param(0.9, 0.8, 0.99, step=0.01, about="the probability"),
        "posterior": Param(0.8, 0.6, 0.95, step=0.01, about="the largest posterior"),
    },
)
def _records_needed(*, upper, k, coverage, posterior):
    """Smallest n for a mean of values in [0, upper] within ±k under a posterior bound, prior ½."""
    choice = ch.choose(
        "mean",
        k=k,
        coverage=coverage,
        epsilon_risk=ch.epsilon_for_posterior(posterior, prior=0.5),
        n=10,
        lower=0.0,
        upper=upper,
        neighbours="change-one",
    )
    return choice.knobs["n"]


@answer(
    "10.4",
    names=("eps_switch_half",),
    decimals=4,
    parameters={
        "deviation": Param(0.5, 0.25, 1.0, step=0.05, about="the deviation per 1,000"),
        "max_probability": Param(0.04, 0.01, 0.1, step=0.005, about="the switching probability"),
    },
)
def _durham_half(*, deviation, max_probability):
    """Durham: smallest ε keeping the switching probability ≤ ``max_probability``."""
    return ch.durham_epsilon_for_switching(deviation, max_probability=max_probability)
