"""helpers.release._checks: bad input is a ValueError naming the parameter, the value and the whole range."""

from __future__ import annotations

import re

import pytest

from helpers import budget as B
from helpers import release as R

SURVEY = [
    B.Release("count", k=30.0, label="smokers"),
    B.Release("sum", k=400.0, lower=0.0, upper=10.0, label="doctor visits"),
    B.Release("mean", k=2.0, lower=18.0, upper=90.0, n=2_000, label="mean age"),
]


# --- input checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: R.group_privacy(-1.0, size=2),
        lambda: R.group_privacy(1.0, 1.0, size=2),
        lambda: R.group_privacy(1.0, size=0),
        lambda: R.group_rho(-0.1, size=2),
        lambda: R.per_person(SURVEY, contributions=True),
        lambda: R.clipping_bias([0, 0], contributions=1),
        lambda: R.clipping_bias([1.5], contributions=1),
        lambda: R.delta_exposure(1.0, 10),
        lambda: R.largest_delta(0.5, exposure=0.1),
        lambda: R.group_error(0.5, budget=1.0, kind="count"),
        lambda: R.group_error(5, budget=1.0, kind="sum"),
        lambda: R.smallest_group(budget=1.0, kind="count", accuracy=0.0),
        lambda: R.odds(1.0, prior=1.0),
        lambda: R.odds_sentence(1.0, prior=0.5, people=3),
        lambda: R.privacy_record(
            B.budget_for_accuracy(SURVEY),
            unit="household",
            neighbours="change-one",
            date="2026-01-01",
            name="x",
            curators="y",
        ),
        lambda: R.privacy_record(
            B.budget_for_accuracy(SURVEY),
            unit="person",
            neighbours="change-one",
            date="2026-13-01",
            name="x",
            curators="y",
        ),
        lambda: R.privacy_record(
            "not an allocation",
            unit="person",
            neighbours="change-one",
            date="2026-01-01",
            name="x",
            curators="y",
        ),
        lambda: R.registry_table([{"name": "x"}]),
        lambda: R.release_plan(B.budget_for_accuracy(SURVEY), SURVEY[:2], person="p"),
        lambda: R.release_plan(
            B.budget_for_accuracy(SURVEY), SURVEY, person="", contributions=1, max_length=9
        ),
    ],
)
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


# --- contract: every refusal names the whole range; integer bounds stay integers ---------------


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda: R.attack_reading(1.0, fpr=float("nan")),
            "fpr must be a number in the open interval (0, 1)",
        ),
        (
            lambda: R.attack_reading(1.0, fpr=1.0),
            "fpr must be a number in the open interval (0, 1)",
        ),
        (
            lambda: R.allocation_attack(
                B.budget_for_accuracy([B.Release("count", k=5.0)]), fpr=0.0
            ),
            "open interval (0, 1); got 0.0",
        ),
        (
            lambda: R.odds(1.0, prior=float("inf")),
            "prior must be a number in the open interval (0, 1)",
        ),
        (lambda: R.delta_exposure(-1e-9, 10), "delta must be a number in [0, 1); got -1e-09"),
        (lambda: R.delta_exposure(float("nan"), 10), "delta must be a number in [0, 1)"),
        (lambda: R.delta_exposure([1e-6, 1.0], 10), "delta must be a number in [0, 1)"),
        (lambda: R.group_privacy(1.0, -0.1, size=2), "delta must be a number in [0, 1); got -0.1"),
        (
            lambda: R.largest_delta(10, exposure=float("nan")),
            "exposure must be a number in the open interval (0, 1)",
        ),
    ],
)
def test_refusals_name_the_parameter_the_value_and_the_whole_range(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()
