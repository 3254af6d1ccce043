"""Exercises of notebook 12 (from a chosen budget to a release)."""

from __future__ import annotations

from ... import budget as bud
from ... import release as rel
from . import answer
from .nb11 import SURVEY


@answer("12.1", names=("eps_person", "delta_person"), digits=4)
def _group(*, epsilon=0.35, delta=1e-8, contributions=3):
    """A release (ε, δ)-DP per record; each person has up to ``contributions`` records: the
    per-person (ε, δ) by group privacy."""
    guarantee = rel.group_privacy(epsilon, delta, size=contributions)
    return (guarantee.epsilon, guarantee.delta)


@answer("12.2", names=("error_small", "n_smallest"), decimals=4)
def _small_group(*, epsilon=0.7, contributions=2, group_size=40, accuracy=0.12):
    """A count with Laplace noise at ε per record, each person at most ``contributions``
    records: its relative error (95 %) for a group of ``group_size`` people, and the smallest
    group it serves within ±``accuracy``."""
    options = {"budget": epsilon, "kind": "count", "contributions": contributions}
    return (
        rel.group_error(group_size, **options),
        rel.smallest_group(accuracy=accuracy, **options),
    )


@answer("12.3", names=("posterior", "tpr"), decimals=4)
def _explain(*, epsilon=1.2, prior=0.02, fpr=0.05):
    """The odds reading (the largest posterior from ``prior``) and the best membership test's
    TPR at ``fpr`` for a pure ε per person."""
    return (
        rel.odds(epsilon, prior=prior).posterior,
        rel.attack_reading(epsilon, fpr=fpr).tpr,
    )


@answer("12.4", names=("total_laplace", "total_rho"), digits=4)
def _per_person_survey(*, contributions=2):
    """Notebook 11's survey when each person may contribute up to ``contributions`` records:
    the smallest total ε (Laplace) and ρ_z (Gaussian) per person meeting every target."""
    work = rel.per_person(SURVEY, contributions=contributions)
    return (
        bud.budget_for_accuracy(work).total,
        bud.budget_for_accuracy(work, mechanism="gaussian").total,
    )
