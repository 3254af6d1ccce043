"""What every part of :mod:`helpers.budget` shares: the limits, the rounding toward privacy,
the results (:class:`Release`, :class:`Allocation`, :class:`Guarantee`,
:class:`WorkloadChoice`), the input checks and the parsing of a workload.

Private to the package: its public names are re-exported by :mod:`helpers.budget`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, fields
from typing import NamedTuple

import numpy as np

from .._numerics import ratio_up
from .._validation import (
    RULE_OPEN_UNIT,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_positive,
)
from ..choose import RELEASES
from .unit import means_of, unit_of

__all__ = [
    "MAX_MAGNITUDE",
    "MAX_RELEASES",
    "MAX_TIMES",
    "Allocation",
    "Guarantee",
    "Release",
    "WorkloadChoice",
]


#: Bound on every magnitude in a workload (±k, bounds, sensitivities, weights, a total), and
#: its reciprocal the smallest positive value: ratios of two such numbers, their squares and
#: sums of ten million of them stay inside double precision.
MAX_MAGNITUDE = 1e150
#: Most releases in one workload, and most values in one composition (work refused above).
MAX_RELEASES = 10**7
#: Most compositions of one mechanism (k of KOV, the self-composition of a PLD).
MAX_TIMES = 10**6

_ULP = 2.0**-52  # the spacing of doubles in [1, 2)
_TINY = 2.0**-900  # a floor for budgets and scales (far below anything meaningful, still normal)
_MAX_KOV_CELLS = 50_000_000  # (ε_total values) × (k + 1) terms for one call
_MAX_PLD_GROUPS = 2_000  # distinct mechanisms one PLD call will build (about 2-5 ms each)
_MAX_PLD_CELLS = 100_000_000  # estimated width of a composed PLD, in discretisation steps


# --- floating point toward privacy ----------------------------------------------------------


def _up(x, ulps: int = 4) -> np.ndarray:
    """x ≥ 0 raised by at least ``ulps − 1`` units in the last place (0 and inf unchanged)."""
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore"):
        return x * (1.0 + ulps * _ULP)


def _down(x, ulps: int = 4) -> np.ndarray:
    """x ≥ 0 lowered by at least ``ulps − 1`` units in the last place."""
    return np.asarray(x, dtype=float) * (1.0 - ulps * _ULP)


# --- results ------------------------------------------------------------------------------


class Guarantee(NamedTuple):
    """An (ε, δ)-DP guarantee: the total of a composition."""

    epsilon: float
    delta: float


@dataclass(frozen=True, slots=True)
class Release:
    """One release of a workload: a count, a sum or a mean with public bounds.

    Parameters
    ----------
    kind : {"count", "sum", "mean"}
        What is released (notebook 10's ``release``).
    k : float, keyword-only
        The accuracy: |noise| ≤ k with probability at least ``coverage``.
    coverage : float, keyword-only
        c in (0, 1), 0.95 unless given.
    lower, upper : float, keyword-only
        The public bounds each value is clipped to (a sum and a mean need them; a count
        ignores them).
    n : int, keyword-only
        The public number of records of a mean (a count and a sum ignore it).
    weight : float, keyword-only
        w > 0, how much this release's noise variance counts in :func:`split_budget`.
    sensitivity : float, keyword-only
        Δ to use instead of the bounds' (as ``choose(..., sensitivity=)``); then ``lower``,
        ``upper`` and ``n`` are not used.
    label : str, keyword-only
        A name for tables and messages.

    The fields are checked where the workload is used, and a bad one is refused with a
    ValueError naming the release (its index and label) and the field.

    Examples
    --------
    >>> Release("mean", k=1.0, lower=0, upper=100, n=100).kind
    'mean'
    """

    kind: str
    _: KW_ONLY
    k: float
    coverage: float = 0.95
    lower: float | None = None
    upper: float | None = None
    n: int | None = None
    weight: float = 1.0
    sensitivity: float | None = None
    label: str | None = None


_FIELDS = tuple(f.name for f in fields(Release) if f.name != "_")


class Allocation(NamedTuple):
    """Per-release noise for a workload and what it delivers.

    ``total`` is Σ ε_i (Laplace) or Σ ρ_z,i (Gaussian), never below the exact sum;
    ``epsilon`` is the total as ε (the same for Laplace; the CKS conversion of ρ_z at
    ``delta`` for Gaussian), ``delta`` 0 for Laplace. Arrays have one entry per release:
    ``budgets`` (ε_i or ρ_z,i), ``scales`` (b_i or σ_i), ``sensitivities`` (Δ_i), ``k`` (the
    ±k each release reaches at its coverage: the planned ±k), ``coverage`` (the probability it
    lands within its target ±k), ``meets`` (whether its target is met) and ``target`` (the
    target ±k each release was given, beside ``k``). A mean released as the ratio of its
    noisy sum and count (a :class:`Workload` with ``means="ratio"``) is planned with that
    release's own model (:mod:`helpers.budget.ratio`): its ``k`` is the widest ±k the release
    prints in a group of its least size n, its ``scales`` entry the scale of its stated Δ at
    its budget (what the budget spends; the noise that runs is the release's sum and count). ``variance`` is Σ w_i·Var_i.
    ``template`` is the mechanism object the allocation was asked for, where its class holds
    fields beyond the noise and Δ (:meth:`NoiseFamily.of`), so no later layer drops them.
    ``unit`` is the :class:`PrivacyUnit` of the workload it was made for (a :class:`Workload`),
    read by the release and the record instead of a bare m passed again.
    """

    mechanism: str
    total: float
    epsilon: float
    delta: float
    budgets: np.ndarray
    scales: np.ndarray
    sensitivities: np.ndarray
    k: np.ndarray
    coverage: np.ndarray
    meets: np.ndarray
    variance: float
    #: a mechanism object whose class and fields (not its noise and Δ) every release shares,
    #: where the family was given as an object with fields of its own; None otherwise
    template: object = None
    #: the :class:`PrivacyUnit` the workload's sensitivities were stated for (a
    #: :class:`Workload`'s), carried on to the release and its record; None when not stated
    unit: object = None
    #: True where ``total`` is the releases' ε at δ composed on their PLD
    #: (:func:`choose_workload` with one mechanism per release), not a sum of ``budgets``
    composed: bool = False
    #: the target ±k of each release (the workload's), beside the planned ``k``; None in an
    #: allocation made before it was kept
    target: np.ndarray | None = None


class WorkloadChoice(NamedTuple):
    """Both sides of the choice for a workload, as :class:`helpers.choose.Choice` for one release.

    ``epsilon_accuracy`` is the smallest total ε meeting every accuracy target and
    ``epsilon_risk`` the largest the risk allows (for Gaussian noise both are ρ_z totals
    converted at ``accuracy.delta``; compare ``accuracy.total`` with ``at_risk.total``);
    ``feasible`` when the first is ≤ the second (in ε for Laplace, in ρ_z for Gaussian).
    ``accuracy`` is :func:`budget_for_accuracy`'s allocation, ``at_risk`` the split of the
    risk's total (:func:`split_budget`; meeting every target when feasible, else the
    variance-optimal split, whose ``meets`` shows which targets it misses). ``knobs`` are
    documented in :func:`choose_workload`.
    """

    epsilon_accuracy: float
    epsilon_risk: float
    feasible: bool
    knobs: dict
    message: str
    accuracy: Allocation
    at_risk: Allocation


# --- checks -------------------------------------------------------------------------------


def _check_times(times, name: str = "times") -> int:
    return check_int_range(name, times, 1, MAX_TIMES)


def _check_delta(delta, name: str = "delta") -> float:
    """δ in [0, 1), one number."""
    d = check_nonnegative(name, check_finite_scalar(name, delta, rule="lie in [0, 1)"))
    if d >= 1:
        raise ValueError(f"{name} must lie in [0, 1); got {delta!r}")
    return float(d)


def _check_open_delta(delta, name: str = "delta") -> float:
    return float(check_open_unit(name, check_finite_scalar(name, delta, rule=RULE_OPEN_UNIT)))


def _check_total(total, name: str = "total") -> float:
    value = float(
        check_positive(
            name,
            check_finite_scalar(
                name, total, rule=f"lie in [{1 / MAX_MAGNITUDE:g}, {MAX_MAGNITUDE:g}]"
            ),
        )
    )
    if not 1 / MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        raise ValueError(
            f"{name} must lie in [{1 / MAX_MAGNITUDE:g}, {MAX_MAGNITUDE:g}]; got {total!r}"
        )
    return value


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


class _Workload(NamedTuple):
    """A validated workload as columns (one entry per release)."""

    kinds: list
    labels: list
    k: np.ndarray
    coverage: np.ndarray
    weight: np.ndarray
    sensitivity: np.ndarray
    n: np.ndarray  # the public n of a mean whose Δ comes from its bounds; 0 elsewhere
    width: np.ndarray  # upper − lower rounded up where the bounds are used; NaN elsewhere
    unit: object = None  # the PrivacyUnit of a Workload, else None
    #: True for a mean released as the ratio of its noisy sum and count (a Workload's
    #: ``means="ratio"``): its bounds and least group size n then plan it; else False
    ratio: np.ndarray | None = None
    lower: np.ndarray | None = None  # the bounds of a ratio mean; NaN elsewhere
    upper: np.ndarray | None = None
    least_n: np.ndarray | None = None  # the least group size n of a ratio mean; 0 elsewhere


def _where(i: int, label) -> str:
    return f"workload[{i}]" + (f" ({label!r})" if label is not None else "")


def _rows(workload) -> list:
    if isinstance(workload, (str, bytes, Release, Mapping)) or not isinstance(
        workload, (Sequence, np.ndarray)
    ):
        shown = repr(workload)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise ValueError(
            f"workload must be a list of Release (or of mappings with the same fields); got {shown}"
        )
    if len(workload) == 0:
        raise ValueError("workload must contain at least one release; got an empty sequence")
    if len(workload) > MAX_RELEASES:
        raise ValueError(
            f"workload must hold at most {MAX_RELEASES:,} releases; got {len(workload):,}"
        )
    return list(workload)


def _columns(rows: list) -> dict:
    """One list per field; a mapping's unknown or missing field refused by name."""
    if all(type(row) is Release for row in rows):  # the common case, one pass per field
        return {name: [getattr(row, name) for row in rows] for name in _FIELDS}
    columns = {name: [] for name in _FIELDS}
    defaults = {f.name: f.default for f in fields(Release) if f.name in _FIELDS}
    for i, row in enumerate(rows):
        if isinstance(row, Release):
            for name in _FIELDS:
                columns[name].append(getattr(row, name))
            continue
        if not isinstance(row, Mapping):
            raise ValueError(
                f"workload[{i}] must be a Release or a mapping of its fields; got {row!r}"
            )
        unknown = sorted(set(row) - set(_FIELDS), key=str)
        label = row.get("label")
        if unknown:
            raise ValueError(
                f"{_where(i, label)}: {unknown[0]!r} is not a field of a release "
                f"(the fields are {', '.join(_FIELDS)})"
            )
        for required in ("kind", "k"):
            if required not in row:
                raise ValueError(f"{_where(i, label)}: {required} is missing")
        for name in _FIELDS:
            columns[name].append(row.get(name, defaults[name]))
    return columns


#: Types read as numbers without a per-entry check (bool, a subclass of int, is not here)
_PLAIN_NUMBERS = frozenset({float, int, np.float64, np.float32, np.int64, np.int32})


def _numbers(columns: dict, name: str, use, allowed: str, labels: list) -> np.ndarray:
    """The field ``name`` as floats where ``use`` is true (NaN elsewhere); non-numbers refused."""
    values = columns[name]
    use = np.broadcast_to(np.asarray(use, dtype=bool), (len(values),))
    types = set(map(type, values))
    if types <= _PLAIN_NUMBERS | {type(None)}:  # fast path: one conversion, None where unused
        try:
            with np.errstate(over="ignore"):
                out = np.array([math.nan if v is None else v for v in values], dtype=float)
        except OverflowError:  # an int beyond the float range: the loop below names it
            pass
        else:
            if type(None) in types:
                missing = use & np.array([v is None for v in values])
                if np.any(missing):
                    i = int(np.flatnonzero(missing)[0])
                    raise ValueError(f"{_where(i, labels[i])}: {name} must be {allowed}; got None")
            return np.where(use, out, np.nan)  # a NaN given is left for the range checks
    out = np.full(len(values), np.nan)
    for i, (value, used) in enumerate(zip(values, use, strict=True)):
        if used:
            if not _is_number(value):
                raise ValueError(f"{_where(i, labels[i])}: {name} must be {allowed}; got {value!r}")
            try:
                out[i] = value
            except OverflowError:
                raise ValueError(
                    f"{_where(i, labels[i])}: {name} must be {allowed}; got {value!r}"
                ) from None
    return out


def _refuse_first(bad: np.ndarray, columns: dict, name: str, allowed: str, labels: list):
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{_where(i, labels[i])}: {name} must be {allowed}; got {columns[name][i]!r}"
        )


def _in_range(x: np.ndarray) -> np.ndarray:
    return np.isfinite(x) & (x >= 1 / MAX_MAGNITUDE) & (x <= MAX_MAGNITUDE)


def _sensitivities(kinds, columns, labels, use_bounds, is_mean) -> tuple:
    """Δ of each release, rounded up where the quotient or the difference is not exact."""
    size = len(kinds)
    bound_rule = f"a number within ±{MAX_MAGNITUDE:g}"
    lower = _numbers(columns, "lower", use_bounds, bound_rule, labels)
    upper = _numbers(columns, "upper", use_bounds, bound_rule, labels)
    for name, values in (("lower", lower), ("upper", upper)):
        _refuse_first(
            use_bounds & ~(np.abs(values) <= MAX_MAGNITUDE), columns, name, bound_rule, labels
        )
    width = upper - lower
    bad = use_bounds & ~(width >= 1 / MAX_MAGNITUDE)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{_where(i, labels[i])}: upper must exceed lower by at least "
            f"{1 / MAX_MAGNITUDE:g}; got lower={columns['lower'][i]!r}, upper={columns['upper'][i]!r}"
        )
    # upper − lower rounded up: the exact difference is width + err (Knuth's TwoSum)
    bb = width - upper
    err = (upper - (width - bb)) + (-lower - bb)
    width = np.where(use_bounds & (err > 0), np.nextafter(width, np.inf), width)
    n = np.zeros(size)
    n_rule = "an integer ≥ 1 (the public number of records of a mean)"
    values = columns["n"]
    means = np.flatnonzero(is_mean)
    if {type(values[i]) for i in means} <= {int, np.int64, np.int32}:
        chosen = np.array([values[i] for i in means], dtype=object)
        bad = (chosen < 1) | (chosen > 2**53)
        means = means[bad.astype(bool)]  # only the bad ones go through the loop (and raise)
        n[is_mean] = [float(values[i]) for i in np.flatnonzero(is_mean)] if not means.size else 0
    for i in means:
        value = columns["n"][i]
        if (
            isinstance(value, (bool, np.bool_))
            or not isinstance(value, (int, np.integer))
            or not 1 <= value <= 2**53
        ):
            raise ValueError(f"{_where(i, labels[i])}: n must be {n_rule}; got {value!r}")
        n[i] = int(value)
    delta_f = np.ones(size)
    delta_f = np.where(use_bounds, width, delta_f)
    delta_f = np.where(
        is_mean, ratio_up(np.where(is_mean, width, 1.0), np.maximum(n, 1.0)), delta_f
    )
    return delta_f, n, np.where(use_bounds, width, np.nan), lower, upper


def _parse(workload) -> _Workload:
    """Validate a workload (vectorised where it can be) and return it as columns."""
    rows = _rows(workload)
    columns = _columns(rows)
    labels = columns["label"]
    if not set(map(type, labels)) <= {str, type(None)}:
        for i, label in enumerate(labels):
            if label is not None and not isinstance(label, str):
                raise ValueError(f"workload[{i}]: label must be a string or None; got {label!r}")
    kinds = columns["kind"]
    codes = {kind: code for code, kind in enumerate(RELEASES)}
    kind_codes = np.array([codes.get(kind, -1) if type(kind) is str else -1 for kind in kinds])
    if np.any(kind_codes < 0):
        i = int(np.flatnonzero(kind_codes < 0)[0])
        raise ValueError(
            f"{_where(i, labels[i])}: kind must be one of {RELEASES}; got {kinds[i]!r}"
        )
    size = len(rows)
    everywhere = [True] * size
    magnitude = f"a number in [{1 / MAX_MAGNITUDE:g}, {MAX_MAGNITUDE:g}]"
    k = _numbers(columns, "k", everywhere, magnitude, labels)
    _refuse_first(~_in_range(k), columns, "k", magnitude, labels)
    c_rule = "a probability in the open interval (0, 1)"
    coverage = _numbers(columns, "coverage", everywhere, c_rule, labels)
    _refuse_first(~((coverage > 0) & (coverage < 1)), columns, "coverage", c_rule, labels)
    weight = _numbers(columns, "weight", everywhere, magnitude, labels)
    _refuse_first(~_in_range(weight), columns, "weight", magnitude, labels)
    given = np.array([s is not None for s in columns["sensitivity"]])
    override = _numbers(columns, "sensitivity", given, magnitude, labels)
    _refuse_first(given & ~_in_range(override), columns, "sensitivity", magnitude, labels)
    use_bounds = ~given & (kind_codes > 0)
    is_mean = ~given & (kind_codes == 2)
    # a mean released as a ratio (a Workload's means="ratio") is planned from its bounds and
    # n even where its Δ is stated: they are read and checked as a mean's own
    ratio = (kind_codes == 2) & (means_of(workload) == "ratio")
    delta_f, n, width, lower, upper = _sensitivities(
        kinds, columns, labels, use_bounds | ratio, is_mean | ratio
    )
    least_n = np.where(ratio, n, 0.0)
    n, width = np.where(given, 0.0, n), np.where(given, np.nan, width)
    delta_f = np.where(given, override, delta_f)
    return _Workload(
        list(kinds),
        list(labels),
        k,
        coverage,
        weight,
        delta_f,
        n,
        width,
        unit_of(workload),
        ratio,
        np.where(ratio, lower, np.nan),
        np.where(ratio, upper, np.nan),
        least_n,
    )


def _check_budget_list(name: str, values) -> np.ndarray:
    array = check_nonnegative(name, values)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence; got shape {array.shape}")
    if array.size > MAX_RELEASES:
        raise ValueError(f"{name} must hold at most {MAX_RELEASES:,} values; got {array.size:,}")
    return array


_SECTIONS = {
    "family": """\
mechanism : str or type, keyword-only
    The family of noise (:class:`NoiseFamily`): a name of
    :data:`helpers.mechanisms.MECHANISM_CLASSES` ("laplace", "gaussian", ...) or the class
    itself (anything else is a ValueError). Laplace spends pure ε, Gaussian ρ_z of zCDP;
    integer noise (geometric, discrete Gaussian) needs integer sensitivities.
delta : float, keyword-only
    δ in (0, 1) of the zCDP (ε, δ) reading (not read for pure ε).""",
}
