"""Input checks shared by the foundations modules (probabilities, α, n, distributions)."""

from __future__ import annotations

import numpy as np

from .._validation import (
    check_int_range,
    check_nonnegative,
    check_real,
)

# --- small validators -----------------------------------------------------------------


def _check_closed_unit(name: str, value) -> np.ndarray:
    array = check_real(name, value)
    bad = (array < 0) | (array > 1)
    if np.any(bad):
        raise ValueError(f"{name} must lie in [0, 1]; got {array[bad].ravel()[:3]!r}")
    return array


def _check_alpha(value, *, allow_zero: bool, allow_one: bool) -> np.ndarray:
    array = check_real("alpha", value)
    low_bad = array < 0 if allow_zero else array <= 0
    high_bad = array > 1 if allow_one else array >= 1
    bad = low_bad | high_bad
    if np.any(bad):
        lo = "[0" if allow_zero else "(0"
        hi = "1]" if allow_one else "1)"
        raise ValueError(f"alpha must lie in {lo}, {hi}; got {array[bad].ravel()[:3]!r}")
    return array


def _check_n(value, name: str = "n", high: int = 10**9) -> int:
    return check_int_range(name, value, 1, high)


def _check_distribution(name: str, value) -> np.ndarray:
    array = check_nonnegative(name, value)
    if array.ndim == 0 or array.shape[-1] == 0:
        raise ValueError(f"{name} must be a non-empty probability vector; got {value!r}")
    sums = array.sum(axis=-1)
    if np.any(np.abs(sums - 1) > 1e-9):
        raise ValueError(f"{name} must sum to 1 along its last axis; got sums {sums!r}")
    return array
