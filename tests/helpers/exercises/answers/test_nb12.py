"""Notebook 12's exercise 12.2: the key reads the convention its statement states (ε per record)."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import release as rel
from helpers.exercises import answers


def _draws(seed: int, count: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    params = answers.parameters("12.2")
    return [{n: p.draw(rng) for n, p in params.items()} for _ in range(count)]


@pytest.mark.parametrize("params", [answers.get("12.2").defaults(), *_draws(12, 6)])
def test_12_2_key_is_the_count_at_epsilon_per_record(params):
    """ε per record: the count's noise has scale 1/ε whatever m (m·ε per person at Δ = m)."""
    error, smallest = answers.expected_at("12.2", params)
    per_record = {"budget": params["epsilon"], "kind": "count"}  # Δ = 1, scale 1/ε
    assert error == pytest.approx(rel.group_error(params["group_size"], **per_record))
    assert smallest == rel.smallest_group(accuracy=params["accuracy"], **per_record)
    # not the per-person reading of ε (scale m/ε), which the key once used
    if params["contributions"] > 1:
        per_person = rel.group_error(
            params["group_size"], **per_record, contributions=params["contributions"]
        )
        assert error < per_person


def test_12_2_answer_at_drawn_parameters_differs_from_the_default():
    default = answers.expected("12.2")
    drawn = [answers.expected_at("12.2", p) for p in _draws(7, 5)]
    assert all(d[0] != pytest.approx(default[0]) for d in drawn)


def test_12_2_statement_and_parameters_state_epsilon_per_record():
    params = answers.parameters("12.2")
    assert params["epsilon"].about == "ε per record"
    assert "m·ε" in params["contributions"].about
    assert "per record" in answers.get("12.2").func.__doc__
