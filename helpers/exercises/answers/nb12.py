"""Exercises of notebook 12 (from a chosen budget to a release)."""

from __future__ import annotations

from ... import budget as bud
from ... import release as rel
from . import Param, answer
from .nb11 import SURVEY


@answer(
    "12.1",
    names=("eps_person", "delta_person"),
    digits=4,
    parameters={
        "epsilon": Param(0.37, 0.1, 1.0, step=0.01, about="ε per record"),
        "delta": Param(1e-8, kind="choice", choices=(1e-6, 1e-7, 1e-8, 1e-9), about="δ per record"),
        "contributions": Param(3, 2, 8, kind="int", about="the most records per person"),
    },
)
def _group(*, epsilon, delta, contributions):
    """A release (ε, δ)-DP per record; each person has up to ``contributions`` records: the
    per-person (ε, δ) by group privacy."""
    guarantee = rel.group_privacy(epsilon, delta, size=contributions)
    return (guarantee.epsilon, guarantee.delta)


@answer(
    "12.2",
    names=("error_small", "n_smallest"),
    decimals=4,
    parameters={
        "epsilon": Param(0.7, 0.2, 2.0, step=0.05, about="ε per record"),
        "contributions": Param(
            2, 1, 5, kind="int", about="the most records per person (per person: m·ε)"
        ),
        "group_size": Param(40, 10, 200, kind="int", about="the group's size N"),
        "accuracy": Param(0.12, 0.05, 0.3, step=0.01, about="the relative accuracy"),
    },
)
def _small_group(*, epsilon, contributions, group_size, accuracy):
    """A count with Laplace noise at ε per record (sensitivity 1 per record, scale 1/ε), each
    person at most ``contributions`` = m records (so m·ε per person): its relative error
    (95 %) for a group of ``group_size`` people, and the smallest group it serves within
    ±``accuracy``. Read at the per-person budget m·ε with the per-person sensitivity m,
    which is the same noise 1/ε: m does not change the error, only the guarantee."""
    options = {"budget": contributions * epsilon, "kind": "count", "contributions": contributions}
    return (
        rel.group_error(group_size, **options),
        rel.smallest_group(accuracy=accuracy, **options),
    )


@answer(
    "12.3",
    names=("posterior", "tpr"),
    decimals=4,
    parameters={
        "epsilon": Param(1.2, 0.3, 3.0, step=0.05, about="ε per person"),
        "prior": Param(0.02, 0.01, 0.3, step=0.01, about="the observer's prior"),
        "fpr": Param(0.05, 0.01, 0.2, step=0.01, about="the false-positive rate"),
    },
)
def _explain(*, epsilon, prior, fpr):
    """The odds reading (the largest posterior from ``prior``) and the best membership test's
    TPR at ``fpr`` for a pure ε per person."""
    return (
        rel.odds(epsilon, prior=prior).posterior,
        rel.attack_reading(epsilon, fpr=fpr).tpr,
    )


@answer(
    "12.4",
    names=("total_laplace", "total_rho"),
    digits=4,
    parameters={
        # §1's table shows m = 1, 3 and 5: the draws avoid them
        "contributions": Param(
            2, kind="choice", choices=(2, 4, 6, 7, 8), about="the most records per person"
        ),
    },
)
def _per_person_survey(*, contributions):
    """Notebook 11's survey when each person may contribute up to ``contributions`` records:
    the smallest total ε (Laplace) and ρ_z (Gaussian) per person meeting every target."""
    work = rel.per_person(SURVEY, contributions=contributions)
    return (
        bud.budget_for_accuracy(work).total,
        bud.budget_for_accuracy(work, mechanism="gaussian").total,
    )
