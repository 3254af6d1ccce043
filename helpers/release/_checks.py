"""The input checks of :mod:`helpers.release`, and the constants they check against.

Every refusal is worded as the API contract says ("<parameter> must be a number in <range>;
got <the value as given>"); :func:`_check_in` is the one range check the modules share.
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_finite_scalar, check_real, check_universe

# the unit's constants and checks live with helpers.budget.PrivacyUnit; the release's modules
# read them from here, as before the unit became an object
from ..budget import (  # noqa: F401
    MAX_CONTRIBUTIONS,
    MAX_MAGNITUDE,
    NEIGHBOURS,
    UNITS,
    Allocation,
    PrivacyUnit,
    _columns,
    _parse,
    _rows,
)
from ..budget.unit import check_contributions as _check_contributions  # noqa: F401
from ..budget.unit import check_neighbours as _check_neighbours  # noqa: F401
from ..budget.unit import check_unit as _check_unit  # noqa: F401


def _check_in(name: str, value, allowed: str, inside, *, array=False, named_range=False):
    """``value`` inside ``allowed`` (a range in words, "[0, 1)"; ``inside`` its test).

    One finite number, as a Python float; with ``array``, real numbers of any shape, as an
    array. The refusal is "<name> must be a number in <allowed>; got <value as given>";
    with ``named_range`` a value that is no number at all is refused in those words too
    (the basic check's own words in brackets), else in the basic check's words.
    """
    try:
        v = check_real(name, value) if array else check_finite_scalar(name, value)
    except ValueError as err:
        if not named_range:
            raise
        raise ValueError(f"{name} must be a number in {allowed}; got {value!r} ({err})") from None
    if not np.all(inside(v)):
        raise ValueError(f"{name} must be a number in {allowed}; got {value!r}")
    return v


def _check_magnitude(name: str, value, *, low: float = 0.0, array=False):
    """A number (``array``: numbers) in [low, MAX_MAGNITUDE]: an ε, a ρ_z, a number of people."""
    return _check_in(
        name,
        value,
        f"[{low:g}, {MAX_MAGNITUDE:g}]",
        lambda v: (v >= low) & (v <= MAX_MAGNITUDE),
        array=array,
    )


def _check_positive(name: str, value) -> float:
    """One number in (0, MAX_MAGNITUDE]: a budget, an ε to spend, an accuracy."""
    return _check_in(
        name, value, f"(0, {MAX_MAGNITUDE:g}]", lambda v: (v > 0) & (v <= MAX_MAGNITUDE)
    )


def _check_delta(delta, name: str = "delta") -> float:
    return _check_in(name, delta, "[0, 1)", lambda d: (d >= 0) & (d < 1), named_range=True)


def _check_open_unit(name: str, value) -> float:
    """A probability strictly between 0 and 1 (a prior, a coverage, an FPR)."""
    return _check_in(
        name, value, "the open interval (0, 1)", lambda v: (v > 0) & (v < 1), named_range=True
    )


def _check_allocation(allocation) -> Allocation:
    if not isinstance(allocation, Allocation):
        shown = repr(allocation)
        raise ValueError(
            "allocation must be an Allocation (from helpers.budget.budget_for_accuracy, "
            f"split_budget or choose_workload); got {shown[:80]}"
        )
    return allocation


def _check_total_is_sum(allocation) -> None:
    """The allocation's total is the sum of its budgets, within rounding, in either direction:
    the release spends the total and the record states it, so a total above the budgets
    would release with less noise than planned and one below would state less than was
    spent. An allocation whose total is an ε composed on the PLD (``composed``) is refused by
    name, as is a unit that is not a :class:`helpers.budget.PrivacyUnit`."""
    if allocation.composed:
        raise ValueError(
            "allocation must spend a sum of budgets (budget_for_accuracy, split_budget, or "
            "choose_workload with one mechanism); got one from choose_workload with one "
            "mechanism per release, whose total is its releases' ε at δ composed on their "
            "PLD, not a sum: it cannot be released or recorded as one"
        )
    if allocation.unit is not None and not isinstance(allocation.unit, PrivacyUnit):
        raise ValueError(
            f"allocation.unit must be a PrivacyUnit or None; got {allocation.unit!r:.80}"
        )
    budgets = np.asarray(allocation.budgets, dtype=float)
    exact = math.fsum(budgets.tolist())
    total = allocation.total
    if not (_is_real(total) and math.isfinite(total) and abs(total - exact) <= 1e-9 * exact):
        raise ValueError(
            f"allocation.total must be the sum of its budgets ({exact!r}, within a relative "
            f"1e-9); got {allocation.total!r}: the release spends the total and the record "
            "states it"
        )


def _is_real(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _check_counts(counts) -> np.ndarray:
    values = check_universe(counts, "counts")
    if np.any(values < 0) or np.any(values != np.floor(values)):
        raise ValueError(
            "counts must be whole numbers ≥ 0 (each person's number of records); got "
            f"{values[(values < 0) | (values != np.floor(values))][:3]!r}"
        )
    return values


def _check_m_array(contributions) -> np.ndarray:
    m = check_real("contributions", contributions)
    if np.any((m < 1) | (m > MAX_CONTRIBUTIONS) | (m != np.floor(m))):
        raise ValueError(
            f"contributions must be whole numbers in 1..{MAX_CONTRIBUTIONS}; got {contributions!r}"
        )
    if m.size > 10**6:
        raise ValueError(f"contributions must hold at most 1,000,000 values; got {m.size:,}")
    return m


def _parse_workload(workload, allocation: Allocation | None = None):
    """The workload as :mod:`helpers.budget` reads it; with ``allocation``, it must hold one
    release per budget of the allocation."""
    parsed = _parse(workload)
    if allocation is not None and len(parsed.kinds) != len(allocation.budgets):
        raise ValueError(
            f"workload must have one release per budget of the allocation "
            f"({len(allocation.budgets)}); got {len(parsed.kinds)}"
        )
    return parsed


def _workload_columns(workload) -> dict:
    """The workload's fields as columns (kind, k, sensitivity, lower, upper, n, label)."""
    return _columns(_rows(workload))
