"""helpers.foundations.closeness: ε-closeness's example by hand, the distances' properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import foundations as F

# --- ε-closeness ------------------------------------------------------------------------------------


def test_closeness_example_by_hand():
    ex = F.CLOSENESS_EXAMPLE
    labels, cats, p_l, p_q = F.class_distributions(ex["classes"], ex["sensitive"])
    assert labels.tolist() == ["C1", "C2", "C3"]
    assert cats.tolist() == ["Linux", "Windows", "macOS"]
    assert np.allclose(p_q, [3 / 12, 7 / 12, 2 / 12])
    assert np.allclose(p_l, [[1 / 2, 1 / 4, 1 / 4], [1 / 4, 1 / 2, 1 / 4], [0, 1, 0]])
    # variational distance, by hand: ½(1/4 + 1/3 + 1/12) = 1/3, ½(0 + 1/12 + 1/12) = 1/12,
    # ½(1/4 + 5/12 + 1/6) = 5/12
    assert np.allclose(F.variational_distance(p_l, p_q), [1 / 3, 1 / 12, 5 / 12])
    assert np.allclose(F.l1_distance(p_l, p_q), [2 / 3, 1 / 6, 5 / 6])
    assert np.allclose(
        F.l2_distance(p_l, p_q),
        np.sqrt([1 / 16 + 1 / 9 + 1 / 144, 2 / 144, 1 / 16 + 25 / 144 + 1 / 36]),
    )
    kl = [
        0.5 * math.log(2) + 0.25 * math.log(3 / 7) + 0.25 * math.log(3 / 2),
        0.25 * math.log(1) + 0.5 * math.log(6 / 7) + 0.25 * math.log(3 / 2),
        math.log(12 / 7),
    ]
    assert np.allclose(F.kl_divergence(p_l, p_q), kl)
    assert round(float(F.kl_divergence(p_l, p_q)[2]), 4) == 0.5390


@given(st.lists(st.floats(0.01, 1), min_size=2, max_size=6), st.data())
def test_distances_properties(a, data):
    p = np.array(a) / np.sum(a)
    b = data.draw(st.lists(st.floats(0.01, 1), min_size=len(a), max_size=len(a)))
    q = np.array(b) / np.sum(b)
    vd = F.variational_distance(p, q)
    assert 0 <= vd <= 1
    assert F.kl_divergence(p, q) >= -1e-12
    assert F.kl_divergence(p, p) == pytest.approx(0, abs=1e-12)
    # Pinsker: VD ≤ √(KL/2)
    assert vd <= math.sqrt(max(F.kl_divergence(p, q), 0) / 2) + 1e-9


def test_kl_infinite_not_nan():
    assert F.kl_divergence([0.5, 0.5], [1.0, 0.0]) == math.inf
    assert F.kl_divergence([1.0, 0.0], [0.5, 0.5]) == pytest.approx(math.log(2))


def test_closeness_bad_input():
    with pytest.raises(ValueError, match="p_l must sum to 1"):
        F.variational_distance([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match="same categories"):
        F.kl_divergence([0.5, 0.5], [0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="equal length"):
        F.class_distributions(["a", "b"], ["x"])
    with pytest.raises(ValueError, match="p_q must be >= 0"):
        F.l2_distance([1.0, 0.0], [1.5, -0.5])
