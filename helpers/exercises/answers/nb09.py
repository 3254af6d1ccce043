"""Exercises of notebook 09 (ε in the wild: real deployments read three ways)."""

from __future__ import annotations

from ... import deployments as dep
from . import Param, answer

_DELTAS = (1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-12)


@answer(
    "09.1",
    names=("eps_tight", "eps_simple"),
    decimals=4,
    parameters={
        "rho": Param(0.81, 0.05, 5.0, step=0.01, about="ρ_z"),
        "delta": Param(1e-8, kind="choice", choices=_DELTAS, about="δ"),
    },
)
def _spanish_next_word(*, rho, delta):
    """ρ_z (Google's Spanish next-word prediction: 0.81) converted at δ both ways."""
    return dep.zcdp_to_epsilon(rho, delta), dep.zcdp_to_epsilon_simple(rho, delta)


@answer(
    "09.2",
    names=("tpr_5", "tpr_5_pure"),
    decimals=6,
    parameters={
        "epsilon": Param(2.19, 0.3, 4.0, step=0.01, about="ε"),
        "delta": Param(1e-5, kind="choice", choices=(1e-3, 1e-4, 1e-5, 1e-6), about="δ"),
        "fpr": Param(0.05, 0.01, 0.2, step=0.01, about="the false-positive rate"),
    },
)
def _vaccine_search(*, epsilon, delta, fpr):
    """Best TPR at the FPR, with δ and with δ = 0 (Vaccine Search Insights: ε = 2.19, δ = 10⁻⁵)."""
    return (
        dep.tpr_at_fpr(fpr, epsilon=epsilon, delta=delta),
        dep.tpr_at_fpr(fpr, epsilon=epsilon, delta=0.0),
    )


@answer(
    "09.3",
    names=("eps_week", "posterior_day", "posterior_week"),
    digits=4,
    parameters={
        "days": Param(7, 2, 30, kind="int", about="the days composed"),
        "prior": Param(
            1e-6, kind="choice", choices=(1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8), about="the prior"
        ),
    },
)
def _user_day_to_week(*, days, prior):
    """ε = 2.64 per user-day (Community Mobility) over ``days`` days and the posteriors."""
    (eps_day,) = dep.load().query("name == 'Community Mobility Place Visits'")["epsilon"]
    eps_week = days * float(eps_day)
    return (
        eps_week,
        dep.posterior_bound(float(eps_day), prior=prior),
        dep.posterior_bound(eps_week, prior=prior),
    )
