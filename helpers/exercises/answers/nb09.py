"""Exercises of notebook 09 (ε in the wild: real deployments read three ways)."""

from __future__ import annotations

from ... import deployments as dep
from . import answer


@answer("09.1", names=("eps_tight", "eps_simple"), decimals=4)
def _spanish_next_word():
    """Google's Spanish next-word prediction, ρ_z = 0.81, converted at δ = 10⁻⁸ both ways."""
    rho = 0.81
    return dep.zcdp_to_epsilon(rho, 1e-8), dep.zcdp_to_epsilon_simple(rho, 1e-8)


@answer("09.2", names=("tpr_5", "tpr_5_pure"), decimals=6)
def _vaccine_search():
    """Vaccine Search Insights (ε = 2.19, δ = 10⁻⁵): best TPR at FPR 5 %, with δ and with δ = 0."""
    return (
        dep.tpr_at_fpr(0.05, epsilon=2.19, delta=1e-5),
        dep.tpr_at_fpr(0.05, epsilon=2.19, delta=0.0),
    )


@answer("09.3", names=("eps_week", "posterior_day", "posterior_week"), digits=4)
def _user_day_to_week():
    """ε = 2.64 per user-day (Community Mobility) over 7 days and the posteriors at prior 10⁻⁶."""
    (eps_day,) = dep.load().query("name == 'Community Mobility Place Visits'")["epsilon"]
    eps_week = 7 * float(eps_day)
    return (
        eps_week,
        dep.posterior_bound(float(eps_day), prior=1e-6),
        dep.posterior_bound(eps_week, prior=1e-6),
    )
