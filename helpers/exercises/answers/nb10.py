"""Exercises of notebook 10 (choose your ε: accuracy against risk)."""

from __future__ import annotations

from ... import choose as ch
from . import answer


@answer("10.1", names=("eps_sum",), decimals=4)
def _sum_accuracy():
    """A sum of values clipped to [0, 50], within ±100 with probability 90 %."""
    sens = ch.sensitivity_of("sum", lower=0.0, upper=50.0)
    return ch.epsilon_for_accuracy(100.0, sensitivity=sens, coverage=0.9)


@answer("10.2", names=("eps_risk", "eps_kr"), decimals=4)
def _risk_side():
    """Largest ε for a posterior ≤ 0.75 from a prior of 0.2; and for Kazan & Reiter's profile
    (17) with ã = 0.3, r̃ = 3."""
    return (
        ch.epsilon_for_posterior(0.75, prior=0.2),
        ch.epsilon_for_profile("inclusion", r=3.0, a=0.3, fixed=1.0),
    )


@answer("10.3", names=("n_needed",))
def _records_needed():
    """Smallest n for a mean of values in [0, 100] within ±1 (90 %) under a posterior ≤ 0.8, prior ½."""
    choice = ch.choose(
        "mean",
        k=1.0,
        coverage=0.9,
        epsilon_risk=ch.epsilon_for_posterior(0.8, prior=0.5),
        n=10,
        lower=0.0,
        upper=100.0,
        neighbours="change-one",
    )
    return choice.knobs["n"]


@answer("10.4", names=("eps_switch_half",), decimals=4)
def _durham_half():
    """Durham: smallest ε keeping the switching probability ≤ 4 % at a deviation of 0.5."""
    return ch.durham_epsilon_for_switching(0.5, max_probability=0.04)
