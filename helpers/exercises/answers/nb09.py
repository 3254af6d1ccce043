"""Exercises of notebook 09 (ε in the wild: real deployments read three ways)."""

from __future__ import annotations

from .. import deployments as dep
from ._core import exercise


@exercise("09.1", names=("eps_tight", "eps_simple"))
def _spanish_next_word():
    """Google's Spanish next-word prediction, ρ_z = 0.81, converted at δ = 10⁻¹⁰ both ways."""
    rho = 0.81
    return dep.zcdp_to_epsilon(rho, 1e-10), dep.zcdp_to_epsilon_simple(rho, 1e-10)


@exercise("09.2", names=("tpr_5", "tpr_5_pure"))
def _vaccine_search():
    """Vaccine Search Insights (ε = 2.19, δ = 10⁻⁵): best TPR at FPR 5 %, with δ and with δ = 0."""
    return (
        dep.tpr_at_fpr(0.05, epsilon=2.19, delta=1e-5),
        dep.tpr_at_fpr(0.05, epsilon=2.19, delta=0.0),
    )


@exercise("09.3", names=("eps_month", "posterior_day", "posterior_month"))
def _user_day_to_month():
    """ε = 2 per user-day over 30 days (basic composition) and the two-world posteriors at prior ½."""
    eps_day = 2.0
    eps_month = 30 * eps_day
    return (
        eps_month,
        dep.posterior_bound(eps_day, prior=0.5),
        dep.posterior_bound(eps_month, prior=0.5),
    )
