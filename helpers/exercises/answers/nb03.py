"""Exercises of notebook 03 (the bounds): tight bound by hand, upper ≥ tight, Δv as bounded k."""

from __future__ import annotations

import numpy as np

from ...datasets import school, school_release
from ...lee_clifton import delta_v, tight_bound, upper_bound
from . import Param, answer

UNIVERSE_03_3, SIZE_03_3 = (1.2, 2.3, 3.1, 4.9, 7.7, 12.4), 3  # not the text's universe
UNIVERSES_03_3 = (
    UNIVERSE_03_3,
    (0.5, 1.9, 2.2, 6.0, 8.4, 9.1),
    (1.0, 3.5, 4.0, 4.5, 10.2, 15.0),
)
QUERIES_03_3 = ("mean", "median", "max")


@answer(
    "03.1",
    names=("my_tight",),
    decimals=4,
    parameters={"epsilon": Param(1.0, 0.2, 3.0, step=0.1, about="ε")},
)
def _tight_by_hand(*, epsilon):
    return float(tight_bound(school()["absence_days"], len(school_release()), "mean", epsilon))


@answer(
    "03.2",
    names=("smallest_gap",),
    digits=3,
    parameters={
        "eps_low": Param(0.01, 0.02, 0.5, step=0.01, about="the grid's first ε"),
        "eps_high": Param(5.0, 2.0, 8.0, step=0.5, about="the grid's last ε"),
    },
)
def _upper_above_tight(*, eps_low, eps_high):
    """min over ε ∈ linspace(eps_low, eps_high, 500), both columns, mean and median, of
    upper − tight."""
    data, n = school(), len(school_release())
    grid = np.linspace(eps_low, eps_high, 500)
    gaps = [
        upper_bound(data[c], n, q, grid) - tight_bound(data[c], n, q, grid)
        for q in ("mean", "median")
        for c in ("school_year", "absence_days")
    ]
    return float(np.min(gaps))


@answer(
    "03.3",
    names=("bounded_k3",),
    decimals=4,
    parameters={
        "universe": Param(
            UNIVERSE_03_3, kind="choice", choices=UNIVERSES_03_3, about="the universe"
        ),
        "size": Param(SIZE_03_3, kind="choice", choices=(2, 3, 4), about="the release size"),
    },
)
def _delta_v_is_bounded_at_largest_k(*, universe, size):
    """Δv for the mean, median and maximum (what bounded sensitivity at k = size must equal)."""
    return np.array([delta_v(list(universe), size, q) for q in QUERIES_03_3])
