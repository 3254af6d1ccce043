"""Exercises of notebook 03 (the bounds): tight bound by hand, upper ≥ tight, Δv as bounded k."""

from __future__ import annotations

import numpy as np

from ...datasets import school, school_release
from ...lee_clifton import delta_v, tight_bound, upper_bound
from . import answer

UNIVERSE_03_3, SIZE_03_3 = (1.2, 2.3, 3.1, 4.9, 7.7, 12.4), 3  # not the text's universe
QUERIES_03_3 = ("mean", "median", "max")


@answer("03.1", names=("my_tight",), decimals=4)
def _tight_by_hand():
    return float(tight_bound(school()["absence_days"], len(school_release()), "mean", 1.0))


@answer("03.2", names=("smallest_gap",), digits=3)
def _upper_above_tight():
    """min over ε ∈ linspace(0.01, 5, 500), both columns, mean and median, of upper − tight."""
    data, n = school(), len(school_release())
    grid = np.linspace(0.01, 5, 500)
    gaps = [
        upper_bound(data[c], n, q, grid) - tight_bound(data[c], n, q, grid)
        for q in ("mean", "median")
        for c in ("school_year", "absence_days")
    ]
    return float(np.min(gaps))


@answer("03.3", names=("bounded_k3",), decimals=4)
def _delta_v_is_bounded_at_largest_k():
    """Δv for the mean, median and maximum (what bounded sensitivity at k = 3 must equal)."""
    return np.array([delta_v(UNIVERSE_03_3, SIZE_03_3, q) for q in QUERIES_03_3])
