"""Input checks shared by the math modules.

Every check raises ``ValueError`` naming the parameter, the value it got and the allowed
range, so a reader who mistypes a slider value learns what went wrong instead of getting NaN.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def _describe(value: object) -> str:
    array = np.asarray(value)
    if array.ndim == 0:
        return repr(value)
    return f"an array whose offending entries include {array.ravel()[:3]!r}"


def check_real(name: str, value: object) -> np.ndarray:
    """Return ``value`` as a float array, refusing non-numeric input, NaN and infinities."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a real number (or array of them); got {value!r}"
        ) from None
    if not np.all(np.isfinite(array)):
        bad = array[~np.isfinite(array)]
        raise ValueError(f"{name} must be finite (no NaN or infinity); got {_describe(bad)}")
    return array


def check_real_or_inf(name: str, value: object, allowed: str = "a real number or ±inf") -> np.ndarray:
    """Like ``check_real`` but ±inf is meaningful (a privacy loss, an unbounded risk); NaN is not."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {allowed}; got {value!r}") from None
    if np.any(np.isnan(array)):
        raise ValueError(f"{name} must be {allowed}; got NaN")
    return array


def check_positive(name: str, value: object) -> np.ndarray:
    """A finite, strictly positive real (ε, σ, a scale, a sensitivity ...)."""
    array = check_real(name, value)
    if np.any(array <= 0):
        raise ValueError(f"{name} must be > 0 and finite; got {_describe(array[array <= 0])}")
    return array


def check_nonnegative(name: str, value: object) -> np.ndarray:
    array = check_real(name, value)
    if np.any(array < 0):
        raise ValueError(f"{name} must be >= 0 and finite; got {_describe(array[array < 0])}")
    return array


def check_open_unit(name: str, value: object) -> np.ndarray:
    """A probability strictly between 0 and 1 (a risk ρ, say)."""
    array = check_real(name, value)
    bad = (array <= 0) | (array >= 1)
    if np.any(bad):
        raise ValueError(
            f"{name} must lie in the open interval (0, 1); got {_describe(array[bad])}"
        )
    return array


def check_half_open_unit(name: str, value: object) -> np.ndarray:
    """A probability in (0, 1] (Kazan & Reiter's p and q)."""
    array = check_real(name, value)
    bad = (array <= 0) | (array > 1)
    if np.any(bad):
        raise ValueError(f"{name} must lie in (0, 1]; got {_describe(array[bad])}")
    return array


def check_int_range(name: str, value: object, low: int, high: int) -> int:
    """An integer in the closed range [low, high]."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer in {low}..{high}; got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be an integer in {low}..{high}; got {value}")
    return int(value)


def check_universe(universe: Iterable[float], name: str = "universe") -> np.ndarray:
    """A non-empty 1-D sequence of finite numbers (repeats allowed)."""
    if isinstance(universe, (str, bytes)):
        raise ValueError(f"{name} must be a sequence of numbers; got the string {universe!r}")
    try:
        array = np.asarray(list(universe) if not hasattr(universe, "__array__") else universe)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of numbers; got {universe!r}") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} must contain at least one value; got an empty sequence")
    if array.dtype.kind not in "biuf":
        raise ValueError(
            f"{name} must contain only numbers; got values of type {array.dtype} such as {array[:3]!r}"
        )
    return check_real(name, array.astype(float))


def check_finite_scalar(name: str, value: object) -> float:
    array = check_real(name, value)
    if array.ndim != 0:
        raise ValueError(f"{name} must be a single number; got shape {array.shape}")
    return float(array)
