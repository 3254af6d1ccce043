"""Exercises of notebook 11 (one budget, many releases). 11.4 is open: ``helpers.exercises.nb11``."""

from __future__ import annotations

from ... import budget as bud
from ... import deployments as dep
from . import answer


@answer("11.1", names=("eps_advanced", "eps_optimal"), decimals=4)
def _composition():
    """45 releases of ε = 0.12 each: advanced composition with δ′ = 10⁻⁶, and the optimal
    (Kairouz, Oh & Viswanath) total ε at a total δ of 10⁻⁶."""
    advanced = bud.advanced_composition(0.12, times=45, delta_slack=1e-6).epsilon
    optimal = bud.optimal_composition_epsilon(1e-6, epsilon=0.12, times=45)
    return (advanced, optimal)


#: notebook 11's survey (``helpers.plotting.budget.SURVEY``, a layer above this one: the
#: exercises may not import it; tests/helpers/exercises/test_nb11.py holds the two equal)
SURVEY_RECORDS = 2_000
SURVEY = (
    bud.Release("count", k=20.0, weight=1 / 20.0**2, label="smokers"),
    bud.Release("count", k=10.0, weight=1 / 10.0**2, label="diabetic"),
    bud.Release(
        "mean", k=0.5, weight=1 / 0.5**2, lower=18.0, upper=90.0, n=SURVEY_RECORDS, label="mean age"
    ),
    bud.Release(
        "mean",
        k=0.2,
        coverage=0.9,
        weight=1 / 0.2**2,
        lower=0.0,
        upper=20.0,
        n=SURVEY_RECORDS,
        label="mean exercise h/week",
    ),
    bud.Release(
        "mean",
        k=2_000.0,
        coverage=0.9,
        weight=1 / 2_000.0**2,
        lower=0.0,
        upper=250_000.0,
        n=SURVEY_RECORDS,
        label="mean income",
    ),
    bud.Release(
        "sum", k=300.0, weight=1 / 300.0**2, lower=0.0, upper=30.0, label="doctor visits (total)"
    ),
)


def _extended_survey() -> list:
    return [
        *SURVEY,
        bud.Release("count", k=15.0, label="aged over 65"),
        bud.Release("mean", k=0.3, lower=15.0, upper=50.0, n=SURVEY_RECORDS, label="mean BMI"),
    ]


@answer("11.2", names=("total_laplace", "total_rho"), digits=4)
def _extended_totals():
    """The survey plus a count (±15, 95 %) and a mean BMI in [15, 50] (±0.3, 95 %): the
    smallest total ε under Laplace noise and the smallest total ρ_z under Gaussian noise."""
    workload = _extended_survey()
    laplace = bud.budget_for_accuracy(workload).total
    gaussian = bud.budget_for_accuracy(workload, mechanism="gaussian").total
    return (laplace, gaussian)


@answer("11.3", names=("rho_tpr", "eps_tpr"), digits=4)
def _census_style_rho():
    """The largest total ρ_z of Gaussian releases whose best test has TPR ≤ 0.35 at FPR 1 %,
    and its CKS ε at δ = 10⁻¹⁰."""
    rho = bud.rho_for_tpr(0.35, fpr=0.01)
    return (rho, dep.zcdp_to_epsilon(rho, 1e-10))
