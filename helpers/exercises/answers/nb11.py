"""Exercises of notebook 11 (one budget, many releases). 11.4 is open: ``helpers.exercises.nb11``."""

from __future__ import annotations

from ... import budget as bud
from ... import deployments as dep
from . import Param, answer


@answer(
    "11.1",
    names=("eps_advanced", "eps_optimal"),
    decimals=4,
    parameters={
        "epsilon": Param(0.11, 0.03, 0.3, step=0.01, about="each release's ε"),
        "times": Param(45, 10, 120, kind="int", about="the number of releases"),
        "delta": Param(1e-6, kind="choice", choices=(1e-5, 1e-6, 1e-7, 1e-8), about="δ′ and δ"),
    },
)
def _composition(*, epsilon, times, delta):
    """``times`` releases of ``epsilon`` each: advanced composition with δ′ = ``delta``, and the
    optimal (Kairouz, Oh & Viswanath) total ε at a total δ of ``delta``."""
    advanced = bud.advanced_composition(epsilon, times=times, delta_slack=delta).epsilon
    optimal = bud.optimal_composition_epsilon(delta, epsilon=epsilon, times=times)
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


def _extended_survey(k_count: float = 15.0, k_bmi: float = 0.3) -> list:
    return [
        *SURVEY,
        bud.Release("count", k=k_count, label="aged over 65"),
        bud.Release("mean", k=k_bmi, lower=15.0, upper=50.0, n=SURVEY_RECORDS, label="mean BMI"),
    ]


@answer(
    "11.2",
    names=("total_laplace", "total_rho"),
    digits=4,
    parameters={
        "k_count": Param(15.0, 5.0, 40.0, step=1.0, about="the count's ±k"),
        "k_bmi": Param(0.3, 0.1, 1.0, step=0.05, about="the mean BMI's ±k"),
    },
)
def _extended_totals(*, k_count, k_bmi):
    """The survey plus a count (±k_count, 95 %) and a mean BMI in [15, 50] (±k_bmi, 95 %): the
    smallest total ε under Laplace noise and the smallest total ρ_z under Gaussian noise."""
    workload = _extended_survey(k_count, k_bmi)
    laplace = bud.budget_for_accuracy(workload).total
    gaussian = bud.budget_for_accuracy(workload, mechanism="gaussian").total
    return (laplace, gaussian)


@answer(
    "11.3",
    names=("rho_tpr", "eps_tpr"),
    digits=4,
    parameters={
        "tpr": Param(0.35, 0.1, 0.9, step=0.01, about="the largest TPR"),
        "fpr": Param(0.01, 0.005, 0.05, step=0.005, about="the false-positive rate"),
        "delta": Param(1e-10, kind="choice", choices=(1e-6, 1e-8, 1e-10, 1e-12), about="δ"),
    },
    valid=lambda p: p["tpr"] > 2 * p["fpr"],
)
def _census_style_rho(*, tpr, fpr, delta):
    """The largest total ρ_z of Gaussian releases whose best test has TPR ≤ ``tpr`` at
    ``fpr``, and its CKS ε at ``delta``."""
    rho = bud.rho_for_tpr(tpr, fpr=fpr)
    return (rho, dep.zcdp_to_epsilon(rho, delta))
