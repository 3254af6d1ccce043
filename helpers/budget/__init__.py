"""One budget for many releases: composition, allocation, and both sides of the choice.

The continuation of :mod:`helpers.choose` (notebook 10) for a *workload*: several counts, sums
and means released from the same data set (notebook 11). The vocabulary is notebook 10's. A
release is a count, a sum or a mean with public bounds, wanted within ±k with probability at
least c (its *coverage*). The number of records n is public and neighbouring data sets differ
by **changing one record** (bounded DP), so the sensitivities are those of
:func:`helpers.choose.sensitivity_of`: a count 1, a sum upper − lower, a mean (upper − lower)/n.
Each release gets its own noise; an adversary sees them all, so what protects a person is the
*composed* guarantee of the whole workload.

Composition (the total guarantee of k releases)
-----------------------------------------------
* pure ε: the ε's add (:func:`compose_epsilon`);
* (ε, δ): the advanced composition theorem of Dwork, Rothblum & Vadhan
  (:func:`advanced_composition`) and the *optimal* homogeneous composition of Kairouz, Oh &
  Viswanath (:func:`optimal_composition_delta`, :func:`optimal_composition_epsilon`);
* zCDP: ρ_z adds (:func:`compose_rho`), then to (ε, δ) with the tight conversion of
  :func:`helpers.deployments.zcdp_to_epsilon` (:func:`zcdp_composition`);
* privacy-loss distributions of Laplace, Gaussian, geometric and discrete Gaussian releases
  composed numerically by Google's ``dp_accounting`` (:func:`pld_delta`, :func:`pld_epsilon`):
  a name and its noise, or the mechanism objects of :mod:`helpers.mechanisms`; each class
  builds its own distribution (:meth:`helpers.mechanisms.AdditiveNoise.pld`: dp_accounting's
  native constructor, or a generic one from the class's cdf).

Allocation (a workload is a list of :class:`Release`)
-----------------------------------------------------
* from the accuracy targets, the smallest total meeting every one (:func:`budget_for_accuracy`),
  under Laplace noise (pure ε) or Gaussian noise (ρ_z of zCDP): ``mechanism="laplace"`` or
  ``mechanism=Laplace`` names a *family* of noise (:class:`NoiseFamily`, looked up once per
  call): the mechanism class knows its noise (the scale an accuracy target allows, the budget
  of a scale and the scale of a budget), its privacy measure (:data:`MEASURES`: pure ε or
  ρ-zCDP) how budgets add and are read (the unit, the reading as ε at δ, the risk's total);
* from a total, the split that minimises the weighted total noise variance, and which targets
  it meets (:func:`split_budget`): ε_i ∝ (w_i Δ_i²)^{1/3} (Laplace), ρ_i ∝ √w_i·Δ_i (Gaussian).

Both sides: :func:`choose_workload` puts the accuracy side beside the largest total the risk
allows (:func:`total_for_risk`: a posterior bound, a Kazan & Reiter profile, a TPR at a chosen
FPR, or an ε) and reports the verdict and the knobs, as :func:`helpers.choose.choose` does for
one release.

Rounding toward privacy
-----------------------
Every number here that a privacy claim rests on is rounded on the safe side, so that floating
point never makes a claim false: a noise scale computed from an accuracy target is rounded
*down* (the target is still met) and the ε or ρ_z it costs *up*; a scale computed from a budget
is rounded *up*; a total is the exactly rounded sum (``math.fsum``) moved up one double unless
the sum was exact; the largest total a risk allows is rounded *down*; δ's are rounded up.

The math layer: no plotting, no widgets. Used in notebook 11.
"""

from __future__ import annotations

import dataclasses
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, fields
from fractions import Fraction
from functools import cache, lru_cache
from typing import ClassVar, NamedTuple

import numpy as np
from scipy.special import gammaln, logsumexp, ndtri

from .._docstrings import fill_docstrings
from .._numerics import (
    ln_at_most,
    nudge_until,
    product_minus,
    ratio_up,
    sum_up,
)
from .._validation import (
    as_output,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
)
from ..attack import (  # re-exported: the attack risk of a workload, read on its own PLD
    attack_advantage,
    attack_tpr,
    bayes_risk,
    composed_mu,
    loss_epsilon,
    loss_tail,
)
from ..attack import composed_epsilon as _composed_epsilon
from ..choose import RELEASES, epsilon_for_posterior, epsilon_for_profile
from ..deployments import (
    DEFAULT_DELTA,
    gaussian_tpr_at_fpr,
    posterior_bound,
    tpr_at_fpr,
    zcdp_rho_for_epsilon,
    zcdp_to_epsilon,
)
from ..mechanisms import (  # Laplace: named in the doctests
    MECHANISM_CLASSES,
    AdditiveNoise,
    Gaussian,
    Laplace,  # noqa: F401
    as_mechanism,
)

__all__ = [
    "DEFAULT_DELTA",
    "MAX_MAGNITUDE",
    "MAX_RELEASES",
    "MAX_TIMES",
    "MEASURES",
    "MECHANISMS",
    "NOISE_FAMILIES",
    "PLD_MECHANISMS",
    "RISK_KINDS",
    "Allocation",
    "EpsilonRisk",
    "Guarantee",
    "NoiseFamily",
    "PosteriorRisk",
    "PrivacyMeasure",
    "ProfileRisk",
    "Release",
    "Risk",
    "TprRisk",
    "WorkloadChoice",
    "advanced_composition",
    "attack_advantage",
    "attack_tpr",
    "bayes_risk",
    "bonferroni",
    "budget_for_accuracy",
    "choose_workload",
    "compose_epsilon",
    "compose_rho",
    "epsilon_for_tpr",
    "implied_risk",
    "joint_coverage",
    "loss_epsilon",
    "loss_tail",
    "optimal_composition_delta",
    "optimal_composition_epsilon",
    "pld_delta",
    "pld_epsilon",
    "posterior_failure_probability",
    "rho_for_tpr",
    "risk_epsilon",
    "risk_posterior",
    "risk_profile",
    "risk_tpr",
    "split_budget",
    "total_for_risk",
    "workload_sensitivities",
    "zcdp_composition",
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
    ±k each release reaches at its coverage), ``coverage`` (the probability it lands within
    its target ±k) and ``meets`` (whether its target is met). ``variance`` is Σ w_i·Var_i.
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
    d = check_nonnegative(name, check_finite_scalar(name, delta))
    if d >= 1:
        raise ValueError(f"{name} must lie in [0, 1); got {delta!r}")
    return float(d)


def _check_open_delta(delta, name: str = "delta") -> float:
    return float(check_open_unit(name, check_finite_scalar(name, delta)))


def _check_total(total, name: str = "total") -> float:
    value = float(check_positive(name, check_finite_scalar(name, total)))
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
    return delta_f, n, np.where(use_bounds, width, np.nan)


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
    delta_f, n, width = _sensitivities(kinds, columns, labels, use_bounds, is_mean)
    delta_f = np.where(given, override, delta_f)
    return _Workload(list(kinds), list(labels), k, coverage, weight, delta_f, n, width)


# --- one release: accuracy → scale → budget (and back), one family of noise at a time -----


@dataclass(frozen=True)
class PrivacyMeasure(ABC):
    """How budgets are counted and composed under one privacy measure (as OpenDP keys
    composition by measure): pure ε (the ε's add) or ρ-zCDP (the ρ_z's add, read as (ε, δ)
    at a δ). One instance per measure in :data:`MEASURES`; what depends on the noise itself
    (its accuracy at a scale, the map between scale and budget) is the mechanism class's.

    Parameters
    ----------
    name : str
        The key of :data:`MEASURES` and the ``measure`` of a mechanism class.
    unit : str
        What a budget is counted in: "ε" or "ρ_z".
    words : str
        A few words for figures ("pure ε", "zCDP").
    pure : bool
        Budgets are pure ε: δ = 0, and the ``delta`` argument is not read.
    """

    name: str
    unit: str
    words: str
    pure: bool

    @abstractmethod
    def share_logs(self, weight: np.ndarray, sensitivity: np.ndarray) -> np.ndarray:
        """ln of the (unnormalised) variance-optimal shares of a total (:func:`split_budget`)."""

    @abstractmethod
    def root(self, ratio):
        """The factor the scales grow by when every budget shrinks by ``ratio``."""

    @abstractmethod
    def widen(self, ratio: float) -> float:
        """:meth:`root` of a ratio of totals as a float, rounded up: the knob "widen every ±k"."""

    @abstractmethod
    def epsilon(self, total: float, delta: float) -> float:
        """A total as ε at δ, rounded up (``inf`` where no finite claim is made)."""

    @abstractmethod
    def total_for(self, risk: Risk, delta, mechanism: type[AdditiveNoise]) -> float:
        """The largest total the risk allows, rounded down (δ checked where it is read)."""

    @abstractmethod
    def tpr(self, total: float, epsilon: float, fpr: float, delta: float, mechanism) -> float:
        """The best test's TPR at FPR α between neighbours after a total (``epsilon`` its ε
        at δ)."""


class _PureEpsilon(PrivacyMeasure):
    """Pure ε: noise ∝ 1/ε_i (ε_i = Δ_i/b_i for Laplace), the ε's add."""

    def share_logs(self, weight, sensitivity):
        return (np.log(weight) + 2 * np.log(sensitivity)) / 3

    def root(self, ratio):
        return ratio

    def widen(self, ratio):
        return ratio

    def epsilon(self, total, delta):
        return total

    def total_for(self, risk, delta, mechanism):
        return risk.allowed_epsilon()

    def tpr(self, total, epsilon, fpr, delta, mechanism):
        return float(tpr_at_fpr(fpr, epsilon=epsilon))


class _Zcdp(PrivacyMeasure):
    """ρ-zCDP: noise ∝ 1/√ρ_i (ρ_z,i = Δ_i²/(2σ_i²) for Gaussian noise), the ρ_z's add."""

    def share_logs(self, weight, sensitivity):
        return 0.5 * np.log(weight) + np.log(sensitivity)

    def root(self, ratio):
        return np.sqrt(ratio)

    def widen(self, ratio):
        return float(_up(math.sqrt(ratio), 4))

    def epsilon(self, total, delta):
        """The CKS ε of ρ_z at δ, raised by 16 ulps."""
        if total > 1e8:  # beyond zcdp_to_epsilon's range; ε ≥ ρ_z there: no finite claim
            return math.inf
        return float(_up(zcdp_to_epsilon(total, delta), 16))

    def total_for(self, risk, delta, mechanism):
        d = _check_open_delta(delta)
        rho = risk.gaussian_rho() if mechanism.gaussian_dp else None
        if rho is not None:  # read exactly on the Gaussian curve
            return rho
        return self._rho_for_epsilon(float(_down(risk.epsilon(d), 4)), d)

    def _rho_for_epsilon(self, epsilon: float, delta: float) -> float:
        """The largest ρ_z whose (raised) CKS ε at δ is ≤ ε."""
        rho = float(zcdp_rho_for_epsilon(min(epsilon, 1e8), delta))
        for _ in range(200):
            if rho <= 0 or self.epsilon(rho, delta) <= epsilon:
                break
            rho = float(_down(rho, 16))
        return rho

    def tpr(self, total, epsilon, fpr, delta, mechanism):
        if not mechanism.gaussian_dp:  # only the (ε, δ) reading is a claim
            return float(tpr_at_fpr(fpr, epsilon=epsilon, delta=delta))
        return float(gaussian_tpr_at_fpr(fpr, rho=total)) if total <= 1e8 else 1.0


#: The two privacy measures a workload's budget is counted in, by name.
MEASURES: dict[str, PrivacyMeasure] = {
    measure.name: measure
    for measure in (
        _PureEpsilon("epsilon", "ε", "pure ε", pure=True),
        _Zcdp("zcdp", "ρ_z", "zCDP", pure=False),
    )
}


@dataclass(frozen=True)
class NoiseFamily:
    """How a workload's budget is spent under one family of noise: the allocation side.

    A mechanism class of :mod:`helpers.mechanisms` and its privacy measure (:data:`MEASURES`):
    the class knows its noise (the scale an accuracy target allows, the ±k and coverage a
    scale delivers, its variance, the map between scale and budget, whether Δ must be an
    integer), the measure how budgets add and are read (ε or ρ_z, the reading as ε at δ,
    the risk's total). The allocation functions (:func:`budget_for_accuracy`,
    :func:`split_budget`, :func:`total_for_risk`, :func:`implied_risk`,
    :func:`choose_workload`) look their ``mechanism`` up once with :meth:`of`, so a new
    family is its mechanism class and nothing else.

    Every number is rounded toward privacy as the module docstring states: a scale from an
    accuracy target down, a budget from a scale up, a scale from a budget up.

    Parameters
    ----------
    mechanism : type
        The class of :mod:`helpers.mechanisms` whose noise this is (its ``name`` is the
        family's, and :attr:`Allocation.mechanism`'s).

    Examples
    --------
    >>> NoiseFamily.of("gaussian").unit, NoiseFamily.of(Laplace).name
    ('ρ_z', 'laplace')
    """

    mechanism: type[AdditiveNoise]

    @property
    def measure(self) -> PrivacyMeasure:
        """The privacy measure its budgets are counted in."""
        return MEASURES[self.mechanism.measure]

    @property
    def name(self) -> str:
        """The mechanism's name ("laplace", "gaussian")."""
        return self.mechanism.name

    @property
    def unit(self) -> str:
        """What a budget is counted in: "ε" or "ρ_z"."""
        return self.measure.unit

    @property
    def label(self) -> str:
        """A few words for figures ("Laplace noise, pure ε")."""
        return f"{self.mechanism.label} noise, {self.measure.words}"

    @property
    def pure(self) -> bool:
        """Budgets are pure ε: δ = 0, and the ``delta`` argument is not read."""
        return self.measure.pure

    @classmethod
    def of(cls, mechanism) -> NoiseFamily:
        """The family of a name ("laplace"), a class (``Laplace``) or a family itself.

        A name is read through :data:`helpers.mechanisms.MECHANISM_CLASSES`; anything else
        (a mechanism object, an unknown name, a class without a measure) is a ValueError
        naming ``mechanism``, the value given and the values allowed.
        """
        if isinstance(mechanism, NoiseFamily):
            return mechanism
        kind = MECHANISM_CLASSES.get(mechanism) if isinstance(mechanism, str) else mechanism
        if not (
            isinstance(kind, type)
            and issubclass(kind, AdditiveNoise)
            and kind in MECHANISM_CLASSES.values()
            and kind.measure in MEASURES
        ):
            classes = ", ".join(c.__name__ for c in MECHANISM_CLASSES.values())
            hint = (
                " (the family of noise, not one mechanism object: its class or its name)"
                if isinstance(mechanism, AdditiveNoise)
                else ""
            )
            raise ValueError(
                f"mechanism must be one of {tuple(MECHANISM_CLASSES)} or one of the classes "
                f"{classes} of helpers.mechanisms{hint}; got {mechanism!r}"
            )
        return _family(kind)

    def reading_delta(self, delta) -> float:
        """δ of the (ε, δ) reading: checked to lie in (0, 1), or 0 for a pure family (unread)."""
        return 0.0 if self.pure else _check_open_delta(delta)

    def check_sensitivities(self, w: _Workload) -> None:
        """Refuse a release whose Δ the noise cannot take (an integer noise, a mean's Δ)."""
        if not self.mechanism.discrete:
            return
        bad = (w.sensitivity != np.round(w.sensitivity)) | (w.sensitivity > 10**6)
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{_where(i, w.labels[i])}: sensitivity must be a positive integer up to "
                f"10**6 for the {self.mechanism.label} mechanism (it lives on the integers); "
                f"got Δ = {w.sensitivity[i]!r}"
            )

    def accuracy_scales(self, k: np.ndarray, coverage: np.ndarray) -> np.ndarray:
        """The largest noise scale with P(|Z| ≤ k) ≥ c, rounded down (toward the target)."""
        return np.maximum(np.asarray(self.mechanism.accuracy_noise(k, coverage)), _TINY)

    def budgets(self, sensitivity: np.ndarray, scales: np.ndarray) -> np.ndarray:
        """The budget a scale costs at Δ, rounded up."""
        return np.maximum(np.asarray(self.mechanism.budget_of(sensitivity, scales)), _TINY)

    def scales(self, sensitivity: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """The least noise scale a budget allows at Δ, rounded up (toward privacy)."""
        budgets = np.maximum(budgets, _TINY)
        return np.maximum(np.asarray(self.mechanism.noise_for(sensitivity, budgets)), _TINY)

    def delivered(self, scales: np.ndarray, k: np.ndarray, coverage: np.ndarray) -> tuple:
        """(±k reached at coverage c, coverage reached at ±k, noise variance) per release."""
        m = self.mechanism
        with np.errstate(over="ignore", under="ignore"):
            return (
                np.asarray(m.noise_reach(scales, coverage), dtype=float),
                np.asarray(m.noise_coverage(scales, k), dtype=float),
                np.asarray(m.noise_variance(scales), dtype=float),
            )

    def share_logs(self, weight: np.ndarray, sensitivity: np.ndarray) -> np.ndarray:
        """ln of the (unnormalised) variance-optimal shares of a total (:func:`split_budget`)."""
        return self.measure.share_logs(weight, sensitivity)

    def root(self, ratio):
        """The factor the scales grow by when every budget shrinks by ``ratio``."""
        return self.measure.root(ratio)

    def widen(self, ratio: float) -> float:
        """:meth:`root` of a ratio of totals as a float, rounded up: the knob "widen every ±k"."""
        return self.measure.widen(ratio)

    def epsilon(self, total: float, delta: float) -> float:
        """A total as ε at δ, rounded up (``inf`` where no finite claim is made)."""
        return self.measure.epsilon(total, delta)

    def total_for(self, risk: Risk, delta) -> float:
        """The largest total the risk allows, rounded down (δ checked where it is read)."""
        return self.measure.total_for(risk, delta, self.mechanism)

    def tpr(self, total: float, epsilon: float, fpr: float, delta: float = 0.0) -> float:
        """The best test's TPR at FPR α after a total (``epsilon`` its ε at δ): a test that tells
        two values of one record apart (change-one neighbours)."""
        return self.measure.tpr(total, epsilon, fpr, delta, self.mechanism)


@cache
def _family(cls: type[AdditiveNoise]) -> NoiseFamily:
    """One family per class (so a class's family is the same object wherever it is asked)."""
    return NoiseFamily(cls)


class _Families(Mapping):
    """The families of noise, by mechanism class: a live view of the registry
    :data:`helpers.mechanisms.MECHANISM_CLASSES` (a class registered later is in it)."""

    def __getitem__(self, cls) -> NoiseFamily:
        if cls not in MECHANISM_CLASSES.values():
            raise KeyError(cls)
        return _family(cls)

    def __iter__(self):
        return iter(tuple(MECHANISM_CLASSES.values()))

    def __len__(self) -> int:
        return len(MECHANISM_CLASSES)


#: The families of noise a workload's budget can be spent under, by mechanism class.
NOISE_FAMILIES: Mapping[type[AdditiveNoise], NoiseFamily] = _Families()
#: Noise for a workload, by name (the registry at import): budgets in ε or ρ_z by its measure.
MECHANISMS = tuple(MECHANISM_CLASSES)
_GAUSSIAN = _family(Gaussian)


def _allocation(w, family: NoiseFamily, delta, budgets, scales, acc_scales) -> Allocation:
    total = sum_up(budgets)
    reach, covered, variance = family.delivered(scales, w.k, w.coverage)
    with np.errstate(over="ignore"):
        weighted = (
            math.fsum((w.weight * variance).tolist()) if np.all(np.isfinite(variance)) else math.inf
        )
    return Allocation(
        mechanism=family.name,
        total=total,
        epsilon=family.epsilon(total, delta),
        delta=0.0 if family.pure else delta,
        budgets=budgets,
        scales=scales,
        sensitivities=w.sensitivity.copy(),
        k=reach,
        coverage=covered,
        meets=scales <= acc_scales,
        variance=weighted if math.isfinite(weighted) else math.inf,
    )


# --- composition --------------------------------------------------------------------------


def _check_budget_list(name: str, values) -> np.ndarray:
    array = check_nonnegative(name, values)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence; got shape {array.shape}")
    if array.size > MAX_RELEASES:
        raise ValueError(f"{name} must hold at most {MAX_RELEASES:,} values; got {array.size:,}")
    return array


def compose_epsilon(epsilons) -> float:
    """Total ε of pure-DP releases run on the same data: Σ ε_i, never below the exact sum.

    Sequential composition: mechanisms that are ε_i-DP, run in sequence (even adaptively),
    are (Σ ε_i)-DP. The sum is ``math.fsum`` (exactly rounded) moved up one double unless it
    was exact. :func:`helpers.foundations.sequential_composition_epsilon` is the same sum,
    rounded to nearest.

    Used in notebook 11.

    Parameters
    ----------
    epsilons : array_like
        The ε_i ≥ 0 of the releases (1-D, non-empty).

    Returns
    -------
    float
        The total ε.

    Raises
    ------
    ValueError
        If ``epsilons`` is empty, not 1-D, or holds a negative, NaN or infinite value.

    References
    ----------
    Dwork, McSherry, Nissim & Smith (2006); Dwork & Roth (2014), Theorem 3.16.

    Examples
    --------
    >>> compose_epsilon([0.5, 0.25, 0.25])
    1.0
    >>> compose_epsilon([0.1, 0.2])  # the doubles' exact sum lies just above the double 0.3
    0.30000000000000004
    """
    return sum_up(_check_budget_list("epsilons", epsilons))


def compose_rho(rhos) -> float:
    """Total ρ_z of zCDP releases: Σ ρ_z,i (Bun & Steinke 2016), never below the exact sum.

    A Gaussian release of sensitivity Δ and standard deviation σ is (Δ²/(2σ²))-zCDP, and
    zCDP composes by adding ρ_z.

    Used in notebook 11.

    Parameters
    ----------
    rhos : array_like
        The ρ_z,i ≥ 0 (1-D, non-empty).

    Returns
    -------
    float
        The total ρ_z.

    Raises
    ------
    ValueError
        If ``rhos`` is empty, not 1-D, or holds a negative, NaN or infinite value.

    References
    ----------
    Bun & Steinke, "Concentrated differential privacy: simplifications, extensions, and lower
    bounds" (TCC 2016), Proposition 1.6 (the Gaussian mechanism) and Lemma 1.7
    (composition).

    Examples
    --------
    >>> compose_rho([0.125, 0.5])
    0.625
    """
    return sum_up(_check_budget_list("rhos", rhos))


def zcdp_composition(rhos, *, delta) -> Guarantee:
    """The (ε, δ) guarantee of zCDP releases: Σ ρ_z,i, then the tight CKS conversion at δ.

    ε is :func:`helpers.deployments.zcdp_to_epsilon` (Canonne, Kamath & Steinke 2020,
    Corollary 13, the conversion OpenDP's ``make_zCDP_to_approxDP`` implements) of
    :func:`compose_rho`, raised by 16 units in the last place to cover the rounding of that
    formula's evaluation.

    Not called in a notebook; used by ``helpers.plotting.budget``.

    Parameters
    ----------
    rhos : array_like
        The ρ_z,i ≥ 0 of the releases (1-D, non-empty); the total must be ≤ 1e8.
    delta : float, keyword-only
        δ in (0, 1).

    Returns
    -------
    Guarantee
        (epsilon, delta) as Python floats.

    Raises
    ------
    ValueError
        If a ρ_z is negative or not finite, the total exceeds 1e8, or δ is not in (0, 1).

    References
    ----------
    Bun & Steinke (2016), Lemma 1.7; Canonne, Kamath & Steinke, "The discrete Gaussian for
    differential privacy" (NeurIPS 2020), Corollary 13.

    Examples
    --------
    >>> guarantee = zcdp_composition([1.28, 1.28], delta=1e-10)  # the Census person tables
    >>> round(guarantee.epsilon, 4), guarantee.delta
    (17.1583, 1e-10)
    """
    total = compose_rho(rhos)
    d = _check_open_delta(delta)
    if total > 1e8:
        raise ValueError(f"rhos must add up to at most 1e8; got a total of {total:g}")
    return Guarantee(_GAUSSIAN.epsilon(total, d), d)


def advanced_composition(epsilon, delta=0.0, *, times, delta_slack) -> Guarantee:
    """The advanced composition theorem: k-fold (ε, δ)-DP is (ε', kδ + δ')-DP.

    ε' = ε·√(2k·ln(1/δ')) + k·ε·(e^ε − 1), for every δ' > 0 (Dwork, Rothblum & Vadhan 2010).
    Valid under adaptive composition. Both outputs are raised by 16 units in the last place
    (the rounding of the few operations that make them). Compare :func:`optimal_composition_epsilon`
    (never larger, at the same total δ) and the basic kε.

    Used in notebook 11.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0 of each release.
    delta : float, optional
        δ in [0, 1) of each release (0 for pure DP).
    times : int, keyword-only
        k, the number of releases (1 to :data:`MAX_TIMES`).
    delta_slack : float, keyword-only
        δ' in (0, 1), the extra δ that buys the √k growth.

    Returns
    -------
    Guarantee
        (epsilon, delta): ε' (a float, or an array shaped like ``epsilon``) and kδ + δ'.

    %(raises)s

    References
    ----------
    Dwork, Rothblum & Vadhan, "Boosting and differential privacy" (FOCS 2010), Theorem III.3;
    Dwork & Roth (2014), Theorem 3.20.

    Examples
    --------
    >>> g = advanced_composition(0.1, times=100, delta_slack=1e-6)
    >>> round(g.epsilon, 4), g.delta  # below the basic 100 × 0.1 = 10
    (6.3082, 1e-06)
    """
    eps = check_positive("epsilon", epsilon)
    if np.any(eps > 700):
        raise ValueError(f"epsilon must be ≤ 700 (e^ε must be finite); got {epsilon!r}")
    d = _check_delta(delta)
    k = _check_times(times)
    slack = _check_open_delta(delta_slack, "delta_slack")
    with np.errstate(over="ignore"):
        eps_total = eps * math.sqrt(2 * k * -math.log(slack)) + k * eps * np.expm1(eps)
    delta_total = float(_up(k * d + slack, 16)) if d > 0 else slack
    return Guarantee(as_output(_up(eps_total, 16)), min(delta_total, 1.0))


class _KovTerms(NamedTuple):
    """ln of the terms C(k, ℓ)·e^{(k−ℓ)ε}/(1 + e^ε)^k and the losses (k − 2ℓ)ε, ℓ = 0..k."""

    log_mass: np.ndarray
    counts: np.ndarray  # k − 2ℓ: the loss of term ℓ is counts·ε exactly (never rounded)
    epsilon: float
    margin: float  # ln of the factor that covers the rounding of log_mass and of 1 − e^gap


def _kov_terms(eps: float, k: int) -> _KovTerms:
    ell = np.arange(k + 1, dtype=float)
    log_norm = k * np.logaddexp(0.0, eps)
    log_binom = gammaln(k + 1.0) - gammaln(ell + 1.0) - gammaln(k - ell + 1.0)
    log_mass = log_binom + (k - ell) * eps - log_norm
    # each term is a sum of five numbers of magnitude at most 3·gammaln(k+1) + 2kε + ln(2)k;
    # gammaln, the products and the sums each err by a few ulps of that magnitude
    magnitude = 3 * float(gammaln(k + 1.0)) + 3 * k * (eps + 1.0) + 1.0
    # + 16 ulps for 1 − e^gap: gap (below) has a relative error of a few ulps, and
    # −expm1(gap) a relative error of about |gap|·(that) + 1 ulp ≤ (1 + |gap|)·ulps; ln(1 − e^gap)
    # turns it into ≤ (1 + |gap|)/(1 − e^{−|gap|}) ulps ≈ 2 + |gap| ulps, |gap| ≤ 2kε + ε_total
    return _KovTerms(log_mass, k - 2 * ell, eps, 64 * 2.0**-53 * magnitude + 16 * _ULP)


def _kov_log_delta_rr(terms: _KovTerms, eps_total: float) -> float:
    """ln δ of the k-fold dominating (ε, 0) mechanism at ε_total (−inf where it is 0)."""
    # gap = ε_total − (k − 2ℓ)ε with its sign exact and a few ulps of relative error
    # (Dekker's product): fl((k − 2ℓ)ε) rounded to nearest decided the ties and lost the digits
    # of a gap near 0 (δ was 33 % low at ε_total = (k − 2i)ε typed as a product)
    gap = -product_minus(terms.counts, terms.epsilon, eps_total)
    active = gap < 0  # exactly the terms that count
    if not np.any(active):
        return -math.inf
    gap = gap[active] * (1 + 8 * _ULP)  # more negative: 1 − e^gap rounded up
    with np.errstate(divide="ignore"):
        logs = terms.log_mass[active] + np.log(-np.expm1(gap))
    extra = float(np.max(np.abs(gap))) * 8 * _ULP  # the |gap| term of the margin above
    return float(logsumexp(logs)) + terms.margin + extra


def _kov_delta(terms: _KovTerms, eps_total: float, k: int, delta: float) -> float:
    """δ_total = 1 − (1 − δ)^k·(1 − δ_RR), rounded up."""
    log_rr = _kov_log_delta_rr(terms, eps_total)
    rr = min(math.exp(log_rr), 1.0)
    keep = k * math.log1p(-delta) + math.log1p(-rr) if rr < 1 else -math.inf
    return min(float(_up(-math.expm1(keep), 16)), 1.0)


def _check_kov(epsilon, delta, times) -> tuple[float, float, int]:
    eps = float(check_positive("epsilon", check_finite_scalar("epsilon", epsilon)))
    if eps > 700:
        raise ValueError(f"epsilon must be ≤ 700 (e^ε must be finite); got {epsilon!r}")
    return eps, _check_delta(delta), _check_times(times)


def optimal_composition_delta(epsilon_total, *, epsilon, delta=0.0, times):
    """The smallest δ_total with which k-fold (ε, δ)-DP is (ε_total, δ_total)-DP (KOV).

    Kairouz, Oh & Viswanath's Theorem 3.3: the k-fold adaptive composition of (ε, δ)-DP
    mechanisms is ((k − 2i)ε, 1 − (1 − δ)^k(1 − δ_i))-DP with

        δ_i = Σ_{ℓ=0}^{i−1} C(k, ℓ)·(e^{(k−ℓ)ε} − e^{(k−2i+ℓ)ε}) / (1 + e^ε)^k,

    and no smaller δ holds for every mechanism: the bound is attained by the k-fold
    composition of randomised response with ε (plus a δ chance of revealing the input). At an
    ε_total between those grid points the optimal δ is the same mechanism's hockey-stick
    divergence (Murtagh & Vadhan 2016 state it for every ε_total):

        δ_RR(ε_total) = Σ_ℓ C(k, ℓ)·max(0, e^{(k−ℓ)ε} − e^{ε_total + ℓε}) / (1 + e^ε)^k,
        δ_total = 1 − (1 − δ)^k·(1 − δ_RR),

    which at ε_total = (k − 2i)ε is δ_i. Computed in log space (``gammaln`` for the binomial
    coefficients, ``logsumexp`` for the sum); the sum is raised by a margin that covers the
    rounding of its logarithm and the result by 16 ulps, so it is never below the exact value.
    It is ≥ the exact composition of any particular ε-DP mechanism (Laplace: see
    :func:`pld_delta`) and ≤ what :func:`advanced_composition` implies.

    Used in notebook 11.

    Parameters
    ----------
    epsilon_total : float or array_like
        ε_total ≥ 0 at which to read δ (an array gives an array).
    epsilon : float, keyword-only
        ε > 0 (at most 700) of each release.
    delta : float, keyword-only
        δ in [0, 1) of each release.
    times : int, keyword-only
        k, the number of releases (1 to :data:`MAX_TIMES`).

    Returns
    -------
    float or numpy.ndarray
        δ_total in [0, 1], a Python float for a scalar ``epsilon_total``.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it), or
        (ε_total values) × (k + 1) exceeds 5·10⁷ terms.

    References
    ----------
    Kairouz, Oh & Viswanath, "The composition theorem for differential privacy" (ICML 2015;
    IEEE Trans. Inf. Theory 2017), Theorem 3.3; Murtagh & Vadhan, "The complexity of computing
    the optimal composition of differential privacy" (TCC 2016).

    Examples
    --------
    >>> round(optimal_composition_delta(0.0, epsilon=4.0, times=1), 6)  # (e⁴ − 1)/(e⁴ + 1)
    0.964028
    >>> optimal_composition_delta(10.0, epsilon=1.0, times=10)  # kε: δ_RR = 0
    0.0
    """
    eps, d, k = _check_kov(epsilon, delta, times)
    totals = check_nonnegative("epsilon_total", epsilon_total)
    if totals.size * (k + 1) > _MAX_KOV_CELLS:
        raise ValueError(
            f"epsilon_total and times ask for {totals.size:,} × {k + 1:,} terms; at most "
            f"{_MAX_KOV_CELLS:,} are computed in one call"
        )
    terms = _kov_terms(eps, k)
    out = np.array([_kov_delta(terms, float(t), k, d) for t in totals.ravel()])
    return as_output(out.reshape(totals.shape))


def optimal_composition_epsilon(delta_total, *, epsilon, delta=0.0, times) -> float:
    """The smallest ε_total with which k-fold (ε, δ)-DP is (ε_total, δ_total)-DP (KOV, inverted).

    :func:`optimal_composition_delta` decreases in ε_total, from its value at 0 to
    1 − (1 − δ)^k at kε. The answer is found by bisection on [0, kε] and is the upper end
    of the final bracket, where the (pessimistic) δ is ≤ ``delta_total``: never below the
    exact answer. 0 if ``delta_total`` is already met at ε_total = 0; ``inf`` if it is below
    1 − (1 − δ)^k (no ε_total reaches it: each release may fail outright with probability δ).

    Used in notebook 11.

    Parameters
    ----------
    delta_total : float
        The target δ_total in (0, 1).
    epsilon : float, keyword-only
        ε > 0 (at most 700) of each release.
    delta : float, keyword-only
        δ in [0, 1) of each release.
    times : int, keyword-only
        k, the number of releases (1 to :data:`MAX_TIMES`).

    Returns
    -------
    float
        ε_total.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN, an array, or of the wrong type.

    References
    ----------
    Kairouz, Oh & Viswanath (2015/2017), Theorem 3.3.

    Examples
    --------
    >>> round(optimal_composition_epsilon(1e-6, epsilon=0.1, times=100), 4)  # advanced: 6.3082
    4.7746
    """
    target = _check_open_delta(delta_total, "delta_total")
    eps, d, k = _check_kov(epsilon, delta, times)
    terms = _kov_terms(eps, k)
    high = k * eps
    if _kov_delta(terms, high, k, d) > target:
        return math.inf
    if _kov_delta(terms, 0.0, k, d) <= target:
        return 0.0
    low = 0.0
    for _ in range(200):
        mid = 0.5 * (low + high)
        if mid <= low or mid >= high:
            break
        if _kov_delta(terms, mid, k, d) <= target:
            high = mid
        else:
            low = mid
    return high


# --- privacy-loss distributions (dp_accounting) --------------------------------------------


#: Mechanisms whose privacy-loss distributions :func:`pld_delta` composes, by name (the
#: registry at import; every mechanism class builds its own, :meth:`AdditiveNoise.pld`).
PLD_MECHANISMS = tuple(MECHANISM_CLASSES)


def _pld_releases(mechanism, noise, sensitivity) -> tuple:
    """(kinds, noise, sensitivity): the mechanism class of the releases and their parameters.

    ``mechanism`` is a name with its ``noise`` (and ``sensitivity``; arrays broadcast later),
    one mechanism object (which carries both) or a sequence of them (one release each);
    ``kinds`` holds one class, or one per object.
    """
    objects = None
    if isinstance(mechanism, AdditiveNoise):
        objects = [mechanism]
    elif (
        isinstance(mechanism, (list, tuple))
        and mechanism
        and all(isinstance(m, AdditiveNoise) for m in mechanism)
    ):
        objects = list(mechanism)
    elif not (isinstance(mechanism, str) and mechanism in MECHANISM_CLASSES):
        shown = repr(mechanism)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise ValueError(
            f"mechanism must be one of {tuple(MECHANISM_CLASSES)}, a mechanism object of "
            f"helpers.mechanisms or a list of them; got {shown}"
        )
    if objects is None:
        return [MECHANISM_CLASSES[mechanism]], noise, sensitivity
    for i, one in enumerate(objects):
        as_mechanism(one, noise, sensitivity=sensitivity)  # refuses a noise given beside it
        if len(objects) > 1 and (np.ndim(one.noise) or np.ndim(one.sensitivity)):
            raise ValueError(
                f"mechanism[{i}] must hold one {one.parameter} and one sensitivity in a list of "
                f"mechanisms; got {one!r}"
            )
    if len(objects) == 1:
        return [type(objects[0])], objects[0].noise, objects[0].sensitivity
    kinds = [type(one) for one in objects]
    return kinds, [one.noise for one in objects], [one.sensitivity for one in objects]


def _pld_groups(kinds, noise, sensitivity, times, merge=0.0) -> tuple:
    """((mechanism, times), ...), validated, identical mechanisms merged.

    With ``merge``, each release is first replaced by a slightly less private one on a grid
    of ratio 1 + merge (the class's ``_merge_parameters``: Δ/noise rounded up for scale-free
    noise, the noise rounded down otherwise), so releases within that factor share one group
    and every δ is at least the unmerged one.
    """
    classes = tuple(dict.fromkeys(kinds))  # the distinct classes, in order
    codes = np.array([classes.index(kind) for kind in kinds]) if len(kinds) > 1 else np.array(0)
    noise_a = check_positive("noise", noise)
    sens_a = check_positive("sensitivity", sensitivity)
    times_a = check_real("times", times)
    try:
        noise_a, sens_a, times_a, codes = np.broadcast_arrays(noise_a, sens_a, times_a, codes)
    except ValueError:
        raise ValueError(
            f"noise, sensitivity and times must broadcast to one list of releases; got shapes "
            f"{np.shape(noise)}, {np.shape(sensitivity)}, {np.shape(times)}"
        ) from None
    if noise_a.ndim > 1:
        raise ValueError(f"noise must be a number or a 1-D sequence; got shape {noise_a.shape}")
    if noise_a.size == 0:
        raise ValueError(
            "noise, sensitivity and times must describe at least one release; got shapes "
            f"{np.shape(noise)}, {np.shape(sensitivity)}, {np.shape(times)}"
        )
    for name, values in (("noise", noise_a), ("sensitivity", sens_a)):
        bad = ~_in_range(values)
        if np.any(bad):
            raise ValueError(
                f"{name} must lie in [{1 / MAX_MAGNITUDE:g}, {MAX_MAGNITUDE:g}]; got "
                f"{values[bad].ravel()[:3]!r}"
            )
    bad = (times_a < 1) | (times_a > MAX_TIMES) | (times_a != np.round(times_a))
    if np.any(bad):
        raise ValueError(
            f"times must be integers in 1..{MAX_TIMES:,}; got {times_a[bad].ravel()[:3]!r}"
        )
    integer = np.array([cls.discrete for cls in classes])[codes]
    bad = integer & ((sens_a != np.round(sens_a)) | (sens_a > 10**6))
    if np.any(bad):
        raise ValueError(
            "sensitivity must be a positive integer ≤ 10⁶ for the "
            f"{classes[codes[bad].ravel()[0]].label} mechanism; got {sens_a[bad].ravel()[:3]!r}"
        )
    parameter, sens_p = noise_a.astype(float), sens_a.astype(float)
    if merge > 0:
        for c, cls in enumerate(classes):
            mine = codes == c
            merged_noise, merged_sens = cls._merge_parameters(noise_a[mine], sens_a[mine], merge)
            parameter[mine], sens_p[mine] = merged_noise, merged_sens
    counts: dict = {}
    for c, b, s, t in zip(
        codes.ravel().tolist(),
        parameter.ravel().tolist(),
        sens_p.ravel().tolist(),
        times_a.ravel().tolist(),
        strict=True,
    ):
        counts[(c, b, s)] = counts.get((c, b, s), 0) + int(t)
    if len(counts) > _MAX_PLD_GROUPS:
        raise ValueError(
            f"noise and sensitivity describe {len(counts):,} distinct mechanisms; at most "
            f"{_MAX_PLD_GROUPS:,} are built in one call (each takes milliseconds)"
        )
    return tuple(
        (classes[c](b, sensitivity=round(s) if classes[c].discrete else s), t)
        for (c, b, s), t in counts.items()
    )


def _check_discretization(discretization) -> float:
    h = float(
        check_positive("discretization", check_finite_scalar("discretization", discretization))
    )
    if not 1e-6 <= h <= 0.1:
        raise ValueError(f"discretization must lie in [1e-06, 0.1]; got {discretization!r}")
    return h


@lru_cache(maxsize=8)
def _composed_pld(groups: tuple, h: float):
    plds = []
    for mech, t in groups:
        one = mech.pld(discretization=h)
        plds.append(one.self_compose(t) if t > 1 else one)
    while len(plds) > 1:  # a balanced tree: every PLD takes part in about log2(n) convolutions
        plds = [
            plds[i].compose(plds[i + 1]) if i + 1 < len(plds) else plds[i]
            for i in range(0, len(plds), 2)
        ]
    return plds[0]


def _check_merge(merge) -> float:
    m = float(check_nonnegative("merge", check_finite_scalar("merge", merge)))
    # below 1e-12 the grid (1 + merge)^j cannot round up reliably in doubles (j + 1 == j)
    if m > 0.1 or 0 < m < 1e-12:
        raise ValueError(f"merge must be 0 or lie in [1e-12, 0.1]; got {merge!r}")
    return m


def _pld(mechanism, noise, sensitivity, times, discretization, merge=0.0):
    kinds, noise, sensitivity = _pld_releases(mechanism, noise, sensitivity)
    h = _check_discretization(discretization)
    groups = _pld_groups(kinds, noise, sensitivity, times, _check_merge(merge))
    width = sum(mech._pld_width(t, h) for mech, t in groups)
    if width > _MAX_PLD_CELLS:
        raise ValueError(
            f"the composed privacy-loss distribution would span about {width:.3g} steps of "
            f"{h:g} (at most {_MAX_PLD_CELLS:.0e}); use a larger discretization or fewer times"
        )
    try:
        return _composed_pld(groups, h)
    except (OverflowError, FloatingPointError, ZeroDivisionError) as error:
        raise ValueError(
            f"dp_accounting cannot build this privacy-loss distribution (noise/sensitivity "
            f"out of its range): {type(error).__name__}: {error}"
        ) from None


def pld_delta(
    epsilon, mechanism, noise=None, *, sensitivity=1.0, times=1, discretization=1e-4, merge=0.0
):
    """δ(ε) of composed releases (Laplace, Gaussian, ...), from their privacy-loss distributions.

    Each release adds noise of scale ``noise`` (b for Laplace and the two-sided geometric,
    σ for the Gaussian, as in :mod:`helpers.plrv`) to a query of sensitivity ``sensitivity``
    and is run ``times`` times; ``noise``, ``sensitivity`` and ``times`` may be 1-D sequences
    (one entry per kind of release), broadcast together. A mechanism object of
    :mod:`helpers.mechanisms` (``Laplace(b, sensitivity=Δ)``, ``Gaussian(σ)``,
    ``TwoSidedGeometric(b)``, ``DiscreteGaussian(σ)``) carries its noise and Δ instead, and a
    list of them is one release each (of any classes; ``times`` broadcast with the list).
    Each class builds its own privacy-loss distribution for dp_accounting
    (:meth:`helpers.mechanisms.AdditiveNoise.pld`: Google's ``dp_accounting`` constructor,
    connect-the-dots for Laplace and Gaussian, or a generic one from the class's cdf),
    identical releases are self-composed (FFT powers), the distinct ones composed in a
    balanced tree, and δ(ε) = E[max(0, 1 − e^{ε − L})] read off the result. At most 2,000
    distinct releases are built in one call (each takes milliseconds): use ``merge`` beyond.

    Pessimistic throughout: ``pessimistic_estimate=True`` rounds every privacy loss *up* to a
    multiple of ``discretization`` (so δ is an upper bound), the tail mass cut off in
    composition (at most 10⁻¹⁵) is counted as an infinite loss, and a geometric's
    a = 1/b is rounded up. The neighbour pair is (f(D), f(D) + Δ) whatever the relation,
    since nothing is subsampled: Δ is the course's change-one-record sensitivity.

    Used in notebook 11.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 at which to read δ (an array gives an array; above 700 read at 700).
    mechanism : AdditiveNoise, list of AdditiveNoise, or a name of MECHANISM_CLASSES
        The mechanism(s), or the name of the noise distribution ("laplace", "gaussian",
        "geometric", "discrete_gaussian", ...).
    noise : float or array_like, optional
        With a name: b or σ in [1e-150, 1e150]. Omitted with objects.
    sensitivity : float or array_like, keyword-only
        With a name: Δ in [1e-150, 1e150] (a positive integer ≤ 10⁶ for integer noise);
        objects carry their own (then it stays at 1).
    times : int or array_like, keyword-only
        How many times each release runs (1 to :data:`MAX_TIMES`).
    discretization : float, keyword-only
        The PLD's grid step in [1e-6, 0.1] (dp_accounting's ``value_discretization_interval``);
        10⁻⁴ by default.
    merge : float, keyword-only
        In [0, 0.1]. With merge > 0 each release's Δ/b or Δ/σ (scale-free noise; for integer
        noise 1/b or 1/σ at its Δ) is first rounded *up* onto the grid (1 + merge)^j, so
        releases within that factor of each
        other compose as one group: each is treated as a little less noisy than it is (still
        an upper bound on δ), and thousands of distinct releases (an allocation's) become a
        few hundred groups. 0 (the default) merges only identical releases.

    Returns
    -------
    float or numpy.ndarray
        δ, a Python float for a scalar ``epsilon``.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type, or the work (distinct
        releases, the PLD's width) exceeds the stated budget.

    References
    ----------
    Meiser & Mohammadi, "Tight on budget?" (CCS 2018); Koskela, Jälkö & Honkela (AISTATS
    2020); Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, "Connect the dots" (PETS 2022);
    Google's dp_accounting (``dp_accounting.pld``).

    Examples
    --------
    >>> d = pld_delta(1.0, "gaussian", 3.0, times=4)  # as one Gaussian of σ = 1.5: 0.0309458
    >>> round(d, 7)
    0.0309458
    >>> pld_delta(1.0, Gaussian(3.0), times=4) == d  # the object form
    True
    """
    eps = check_nonnegative("epsilon", epsilon)
    pld = _pld(mechanism, noise, sensitivity, times, discretization, merge)
    # δ(ε) does not increase: read above 700 at 700 (e^ε finite), a value never below the truth
    points = np.minimum(eps, 700.0).ravel()
    if points.size <= 200:  # dp_accounting's scalar path is vectorised over the PLD; its list
        # path loops over the PLD's entries in Python (0.9 s for 1,000 Laplace releases)
        values = np.array([float(pld.get_delta_for_epsilon(float(e))) for e in points])
    else:
        values = np.asarray(pld.get_delta_for_epsilon(points.tolist()), dtype=float)
    return as_output(np.clip(values, 0.0, 1.0).reshape(eps.shape))


def pld_epsilon(
    delta, mechanism, noise=None, *, sensitivity=1.0, times=1, discretization=1e-4, merge=0.0
) -> float:
    """The smallest ε with δ(ε) ≤ ``delta`` for composed releases (see :func:`pld_delta`).

    dp_accounting's ``get_epsilon_for_delta`` on the same pessimistic PLD, then raised (in
    steps from 2⁻⁴⁰ relative, doubling) until that PLD's δ at it is ≤ ``delta``: dp_accounting's
    inverse can return an ε a hair too small (δ 1.00000008e-10 read at its ε for 1e-10). An
    upper bound on the exact ε.

    Not called in a notebook; used by ``helpers.plotting.budget``.

    Parameters
    ----------
    delta : float
        δ in (0, 1).
    mechanism, noise, sensitivity, times, discretization, merge
        As in :func:`pld_delta`.

    Returns
    -------
    float
        ε (``inf`` if even an infinite ε leaves more than δ: the tail counted as infinite loss).

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type, or the work exceeds the
        stated budget.

    References
    ----------
    As :func:`pld_delta`.

    Examples
    --------
    >>> round(pld_epsilon(1e-6, "laplace", 10.0, times=100), 2)  # KOV: 4.77, advanced: 6.31
    4.69
    >>> round(pld_epsilon(1e-6, [Laplace(10.0), Gaussian(8.0)], times=50), 2)  # mixed
    5.55
    """
    d = _check_open_delta(delta)
    pld = _pld(mechanism, noise, sensitivity, times, discretization, merge)
    eps = max(float(pld.get_epsilon_for_delta(d)), 0.0)
    if not math.isfinite(eps):
        return math.inf
    # dp_accounting's inverse can land a hair below the ε where its own δ(ε) meets δ (δ read
    # 1.00000008e-10 at its ε for 1e-10): step up until the same PLD confirms δ(ε) ≤ δ
    step = max(eps, 1.0) * 2.0**-40
    while float(pld.get_delta_for_epsilon(eps)) > d:
        eps += step
        step *= 2
        if eps > 700:
            return math.inf
    return eps


# --- the risk side ------------------------------------------------------------------------


def epsilon_for_tpr(tpr, *, fpr, delta=0.0):
    """The largest ε whose best test between neighbours at FPR α has TPR ≤ ``tpr``.

    Under this module's change-one neighbours the test tells two values of one record apart
    (is the record x or x′?), not whether a record is in the data: a membership test is the
    same curve read under add-remove neighbours.

    Under (ε, δ)-DP the best test's power is min(1, δ + e^ε·α, 1 − e^{−ε}(1 − δ − α))
    (:func:`helpers.deployments.tpr_at_fpr`, the trade-off curve f_{ε,δ}). A minimum of two
    increasing lines is ≤ t as soon as one of them is, so

        ε = max( ln((t − δ)/α), ln((1 − δ − α)/(1 − t)) ),

    rounded down until the TPR at it is ≤ t, exactly (the two ratios as rationals of the given
    doubles) and as :func:`~helpers.deployments.tpr_at_fpr` computes it: a round trip on the
    safe side. A ``tpr`` at or below α + δ (what a test reaches at ε = 0) is refused: no ε > 0 meets it. Vectorised over ``tpr`` and ``fpr``.

    Not called in a notebook; used by ``helpers.budget``.

    Parameters
    ----------
    tpr : float or array_like
        The largest tolerated true-positive rate t, in (0, 1).
    fpr : float or array_like, keyword-only
        α in (0, 1).
    delta : float, keyword-only
        δ in [0, 1) (0 for pure ε).

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type, or tpr ≤ fpr + delta.

    References
    ----------
    Dong, Roth & Su, "Gaussian differential privacy" (JRSS-B 2022), Proposition 2.5 (f_{ε,δ});
    Kairouz, Oh & Viswanath (2017), Theorem 2.1.

    Examples
    --------
    >>> round(epsilon_for_tpr(0.1, fpr=0.01), 4)  # ln 10: TPR = e^ε·α
    2.3026
    """
    t = check_open_unit("tpr", tpr)
    a = check_open_unit("fpr", fpr)
    d = _check_delta(delta)
    t, a = np.broadcast_arrays(t, a)
    if np.any(t <= a + d):
        raise ValueError(
            "tpr must exceed fpr + delta (what a test reaches at ε = 0); got "
            f"tpr={tpr!r}, fpr={fpr!r}, delta={delta!r}"
        )
    d = np.broadcast_to(d, t.shape)
    with np.errstate(divide="ignore"):
        first = np.log(t - d) - np.log(a)
        second = np.log1p(-d - a) - np.log1p(-t)
    eps = np.maximum(np.maximum(first, second), 0.0)
    # TPR ≤ t ⇔ ε ≤ ln r₁ or ε ≤ ln r₂ with the exact rationals r₁ = (t − δ)/α and
    # r₂ = (1 − δ − α)/(1 − t) of the given doubles; decided exactly (ln_at_most, as
    # choose.epsilon_for_posterior does) and also as tpr_at_fpr computes the TPR. The float
    # check alone let an exact TPR 1e-17 above the target through (t = 0.50390625, α = ½).
    tolerance = 2.0**-48 * (np.abs(first) + np.abs(second) + np.abs(np.log(a)) + 1.0)

    def ratios(index):
        tt, aa, dd = (Fraction(float(v[index])) for v in (t, a, d))
        return (tt - dd) / aa, (1 - dd - aa) / (1 - tt)

    def inverse(which):
        return lambda index: 1 / ratios(index)[which]

    logs: tuple = ({}, {})

    def safe(e):
        exact = ln_at_most(-first, -e, inverse(0), tolerance, logs[0]) | ln_at_most(
            -second, -e, inverse(1), tolerance, logs[1]
        )
        return (e == 0) | (exact & (tpr_at_fpr(a, epsilon=e, delta=d) <= t))

    return as_output(nudge_until(eps, safe, toward_zero=True))


def rho_for_tpr(tpr, *, fpr):
    """The largest ρ_z for which Gaussian releases give the best test TPR ≤ ``tpr`` at FPR α.

    Gaussian releases of total ρ_z compose to one Gaussian with μ = √(2ρ_z) (μ's add in
    squares, as ρ_z adds), whose best test has TPR = Φ(μ − Φ⁻¹(1 − α))
    (:func:`helpers.deployments.gaussian_tpr_at_fpr`). TPR ≤ t ⇔ μ ≤ Φ⁻¹(1 − α) − Φ⁻¹(1 − t),
    so ρ_z = μ²/2, with μ bounded from below where the difference of the two quantiles
    cancels (t near α: by the mean-value theorem, μ ≥ (t − α)/max φ) and ρ_z rounded down by
    16 ulps: the TPR at the returned ρ_z never exceeds ``tpr`` (a round trip on the safe side,
    checked in 50-digit arithmetic). Exact for Gaussian noise (not for every zCDP
    mechanism). A ``tpr`` ≤ α is refused.

    Used in notebook 11.

    Parameters
    ----------
    tpr : float or array_like
        t in (0, 1).
    fpr : float or array_like, keyword-only
        α in (0, 1).

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type, or tpr ≤ fpr.

    References
    ----------
    Dong, Roth & Su (2022), Definition 2.7 (G_μ) and Corollary 3.3 (composition of Gaussian
    DP).

    Examples
    --------
    >>> round(rho_for_tpr(0.0924, fpr=0.01), 3)  # μ ≈ 1: deployments' example
    0.5
    """
    t = check_open_unit("tpr", tpr)
    a = check_open_unit("fpr", fpr)
    t, a = np.broadcast_arrays(t, a)
    if np.any(t <= a):
        raise ValueError(f"tpr must exceed fpr; got tpr={tpr!r}, fpr={fpr!r}")
    return as_output(_down(np.square(_mu_at_most(t, a)) / 2, 16))


def _mu_at_most(t: np.ndarray, a: np.ndarray) -> np.ndarray:
    """A μ ≥ 0 with Φ(Φ⁻¹(α) + μ) ≤ t in exact arithmetic (t > α): the larger of two lower bounds.

    μ = Φ⁻¹(t) − Φ⁻¹(α) cancels where t is near α (ndtri's few-ulp errors on two values of
    size |Φ⁻¹| left μ too large by more than all its digits: the TPR at the returned ρ_z came
    out above the target). So (1) the difference is lowered by a bound on ndtri's error
    (64 ulps of each term), and (2) by the mean-value theorem, t − α = ∫ φ over
    [Φ⁻¹(α), Φ⁻¹(t)] ≤ μ·max φ there, so μ ≥ (t − α)/max φ, which keeps its relative accuracy
    however close t is to α. Both are rounded down; tests/helpers/test_budget.py checks the
    round trip in 50-digit arithmetic.
    """
    z_t, z_a = ndtri(t), ndtri(a)
    slack = 64 * _ULP * (np.abs(z_t) + np.abs(z_a))
    by_difference = (z_t - z_a) - slack
    # the point of [z_a, z_t] nearest 0 (pulled toward 0 past ndtri's error), where φ is largest
    nearest = np.where((z_a <= 0) & (z_t >= 0), 0.0, np.minimum(np.abs(z_a), np.abs(z_t)))
    nearest = _down(nearest, 64)
    phi_max = _up(np.exp(-nearest * nearest / 2) / math.sqrt(2 * math.pi), 8)
    by_mean_value = _down(_down(t - a, 4) / phi_max, 4)
    return np.maximum(np.maximum(by_difference, by_mean_value), 0.0)


@dataclass(frozen=True)
class Risk(ABC):
    """A tolerated risk for a whole workload; build one with ``risk_*``.

    One small class per kind of statement (:data:`RISK_KINDS`): ``level`` is the bound (an ε,
    a posterior ρ, a profile's r̃ or a TPR) and the subclass holds the rest of it. Each says
    the ε it allows (:meth:`epsilon`), reads its level back from an ε (:meth:`read`) and
    says itself in words (:meth:`words`).
    """

    level: float

    #: the name of the kind of statement (``RISK_KINDS``)
    kind: ClassVar[str] = ""
    #: the largest level a statement can have (1 for a probability)
    ceiling: ClassVar[float] = math.inf

    def _replace(self, **changes) -> Risk:
        """The same risk with ``changes`` (as a NamedTuple's ``_replace``)."""
        return dataclasses.replace(self, **changes)

    @abstractmethod
    def epsilon(self, delta: float = 0.0) -> float:
        """The largest total ε (at δ, where the statement reads one) the risk allows."""

    def allowed_epsilon(self) -> float:
        """:meth:`epsilon` at δ = 0, rounded down by 4 ulps (the pure-ε total)."""
        return float(_down(self.epsilon(), 4))

    def gaussian_rho(self) -> float | None:
        """The largest ρ_z read exactly on the Gaussian trade-off curve, where the risk
        states one (a TPR); None otherwise."""
        return None

    @abstractmethod
    def read(self, epsilon: float, tpr: Callable[[float], float]) -> float:
        """The level this kind of risk reads at a total ε (``tpr(fpr)``: the best test's TPR)."""

    @abstractmethod
    def words(self) -> str:
        """The risk in a few words, for figures."""


@dataclass(frozen=True)
class EpsilonRisk(Risk):
    """The largest total ε, stated directly (as ``choose(..., epsilon_risk=)``)."""

    kind: ClassVar[str] = "epsilon"

    def epsilon(self, delta=0.0):
        return self.level

    def allowed_epsilon(self):
        return self.level  # stated exactly: nothing to round

    def read(self, epsilon, tpr):
        return epsilon

    def words(self):
        return f"total ε ≤ {self.level:g}"


@dataclass(frozen=True)
class PosteriorRisk(Risk):
    """Lee & Clifton's posterior bound ρ (``level``) against a two-world adversary with prior p."""

    prior: float
    kind: ClassVar[str] = "posterior"
    ceiling: ClassVar[float] = 1.0

    def epsilon(self, delta=0.0):
        return float(epsilon_for_posterior(self.level, prior=self.prior))

    def read(self, epsilon, tpr):
        return float(posterior_bound(epsilon, prior=self.prior))

    def words(self):
        return f"posterior ≤ {self.level:g} from prior {self.prior:g}"


@dataclass(frozen=True)
class ProfileRisk(Risk):
    """A Kazan & Reiter risk profile: its kind, r̃ (``level``), ã and the fixed prior."""

    profile: str
    a: float
    fixed: float
    kind: ClassVar[str] = "profile"

    def epsilon(self, delta=0.0):
        return float(epsilon_for_profile(self.profile, r=self.level, a=self.a, fixed=self.fixed))

    def read(self, epsilon, tpr):
        return _profile_r_for(self, epsilon)

    def words(self):
        return f"K&R {self.profile} profile, r̃ = {self.level:g}"


@dataclass(frozen=True)
class TprRisk(Risk):
    """The largest power (TPR, ``level``) at false-positive rate α of a test that tells two
    values of one record apart (change-one neighbours; membership is the add-remove reading)."""

    fpr: float
    kind: ClassVar[str] = "tpr"
    ceiling: ClassVar[float] = 1.0

    def epsilon(self, delta=0.0):
        return float(epsilon_for_tpr(self.level, fpr=self.fpr, delta=delta))

    def gaussian_rho(self):
        return float(rho_for_tpr(self.level, fpr=self.fpr))

    def read(self, epsilon, tpr):
        return tpr(self.fpr)

    def words(self):
        return f"best test's TPR ≤ {self.level:g} at FPR {100 * self.fpr:g} %"


#: What a :class:`Risk` can bound.
RISK_KINDS = tuple(cls.kind for cls in (EpsilonRisk, PosteriorRisk, ProfileRisk, TprRisk))


def risk_epsilon(epsilon) -> Risk:
    """A risk stated directly as the largest total ε (as ``choose(..., epsilon_risk=)``).

    Used in notebook 11.

    Parameters
    ----------
    epsilon : float
        ε > 0.

    Returns
    -------
    Risk

    Raises
    ------
    ValueError
        If epsilon is not a finite number in [1e-150, 1e150].

    References
    ----------
    :func:`helpers.choose.choose`.

    Examples
    --------
    >>> risk_epsilon(1.0)
    EpsilonRisk(level=1.0)
    """
    return EpsilonRisk(_check_total(epsilon, "epsilon"))


def risk_posterior(risk, *, prior) -> Risk:
    """A risk stated as Lee & Clifton's posterior bound ρ against a two-world adversary.

    The largest total ε is :func:`helpers.choose.epsilon_for_posterior`:
    ln(ρ(1 − p)/(p(1 − ρ))). For Laplace noise (pure ε) the bound holds for every output.
    For Gaussian noise the total ρ_z is the largest whose CKS (ε, δ) has that ε: an (ε, δ)
    reading, and the bound at ε is *not* guaranteed outside an event of probability 2δ.
    The posterior exceeds ρ exactly on the outputs with privacy loss ℒ > ε, of probability
    δ₁ = P[ℒ > ε] = Φ(μ/2 − ε/μ) with μ = √(2ρ_z) (notebook 08's naive δ:
    :func:`helpers.plrv.gaussian_delta_naive` at σ = 1, sensitivity μ;
    :func:`posterior_failure_probability`; for any list of mechanisms
    :func:`helpers.attack.loss_tail`), which can exceed δ (3.7δ below). What 2δ covers
    (:func:`helpers.deployments.posterior_bad_event_probability` with slack ln 2) is the
    weaker bound read at ε + ln 2.

    Used in notebooks 11 and 12.

    Parameters
    ----------
    risk : float
        ρ in (0, 1), above ``prior``.
    prior : float, keyword-only
        p in (0, 1), the adversary's belief before any release.

    Returns
    -------
    Risk

    Raises
    ------
    ValueError
        If an argument is out of range or risk ≤ prior.

    References
    ----------
    Lee & Clifton (2011), eq. (4)–(5) with two worlds; Kazan & Reiter (2024), eq. (38).

    Examples
    --------
    >>> round(total_for_risk(risk_posterior(0.75, prior=0.5)), 4)  # ln 3
    1.0986

    Gaussian noise for a posterior of 0.8 at δ = 1e-6: the bound at ε fails with
    probability δ₁ (:func:`posterior_failure_probability`), not at most 2δ:

    >>> rho = total_for_risk(risk_posterior(0.8, prior=0.5), mechanism="gaussian", delta=1e-6)
    >>> failure = posterior_failure_probability(rho, mechanism="gaussian", delta=1e-6)
    >>> round(rho, 5), round(failure / 1e-6, 1)
    (0.04475, 3.7)
    """
    rho = float(check_open_unit("risk", check_finite_scalar("risk", risk)))
    p = float(check_open_unit("prior", check_finite_scalar("prior", prior)))
    epsilon_for_posterior(rho, prior=p)  # refuses risk ≤ prior, in choose's words
    return PosteriorRisk(rho, prior=p)


def risk_profile(kind, *, r, a=0.0, fixed=1.0) -> Risk:
    """A risk stated as a Kazan & Reiter risk profile (Table 4's closed forms).

    ``kind``, ``r``, ``a`` and ``fixed`` are those of :func:`helpers.choose.epsilon_for_profile`
    ("constant", "inclusion" or "values"); the largest total ε is that function's value.
    Kazan & Reiter's Theorem 1 is proved for pure ε-DP. For Laplace noise the reading is
    theirs; for Gaussian noise the total ρ_z is the largest whose CKS (ε, δ) has that ε, so
    the profile is read at ε alone with δ set aside: an assumption (as notebook 09 calls
    it), not a theorem; the relative-risk bound may fail on outputs of probability up to
    δ₁ = P[ℒ > ε] (see :func:`risk_posterior`).

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    kind : {"constant", "inclusion", "values"}
    r : float, keyword-only
        r̃ > 1.
    a : float, keyword-only
        ã in [0, 1) (profiles (15)–(17)).
    fixed : float, keyword-only
        q̃ (inclusion) or p̃ (values) in (0, 1].

    Returns
    -------
    Risk

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it).

    References
    ----------
    Kazan & Reiter (2024), Theorems 3–5 and Table 4.

    Examples
    --------
    >>> round(total_for_risk(risk_profile("constant", r=3.0)), 4)  # ½ ln 3
    0.5493
    """
    r = check_finite_scalar("r", r)
    a = check_finite_scalar("a", a)
    fixed = check_finite_scalar("fixed", fixed)
    epsilon = epsilon_for_profile(kind, r=r, a=a, fixed=fixed)
    if not epsilon > 0:
        raise ValueError(f"the profile must allow some ε > 0; got ε = {epsilon!r} at r={r!r}")
    return ProfileRisk(r, profile=kind, a=a, fixed=fixed)


def risk_tpr(tpr, *, fpr) -> Risk:
    """A risk stated as the largest power (TPR) of a test between neighbours at FPR α.

    The workload's neighbours change one record, so the test decides between two values of
    one record (x or x′), not membership (in or out), which is the add-remove reading.

    Laplace workloads read it on the pure-ε trade-off curve (:func:`epsilon_for_tpr`),
    Gaussian ones on the Gaussian curve of the composed ρ_z (:func:`rho_for_tpr`).

    Not called in a notebook; used by ``helpers.widgets.budget``.

    Parameters
    ----------
    tpr : float
        t in (0, 1), above ``fpr``.
    fpr : float, keyword-only
        α in (0, 1).

    Returns
    -------
    Risk

    Raises
    ------
    ValueError
        If an argument is out of range or tpr ≤ fpr.

    References
    ----------
    Dong, Roth & Su (2022).

    Examples
    --------
    >>> round(total_for_risk(risk_tpr(0.1, fpr=0.01)), 4)
    2.3026
    """
    t = float(check_open_unit("tpr", check_finite_scalar("tpr", tpr)))
    a = float(check_open_unit("fpr", check_finite_scalar("fpr", fpr)))
    if t <= a:
        raise ValueError(f"tpr must exceed fpr; got tpr={tpr!r}, fpr={fpr!r}")
    return TprRisk(t, fpr=a)


def _as_risk(risk) -> Risk:
    if isinstance(risk, Risk):
        return risk
    if _is_number(risk):
        return risk_epsilon(risk)
    raise ValueError(
        f"risk must be a Risk (risk_posterior, risk_profile, risk_tpr, risk_epsilon) or the "
        f"largest total ε as a number; got {risk!r}"
    )


def total_for_risk(risk, *, mechanism="laplace", delta=DEFAULT_DELTA) -> float:
    """The largest total budget a risk allows: ε (Laplace) or ρ_z (Gaussian), rounded down.

    Laplace: the pure ε of the risk (posterior: :func:`helpers.choose.epsilon_for_posterior`;
    profile: :func:`helpers.choose.epsilon_for_profile`; TPR: :func:`epsilon_for_tpr`).
    Gaussian: the largest ρ_z whose CKS (ε, δ) conversion at ``delta`` stays within that ε,
    except for a TPR, read exactly on the Gaussian curve (:func:`rho_for_tpr`).

    Used in notebooks 11 and 12.

    Parameters
    ----------
    risk : Risk or float
        From :func:`risk_posterior`, :func:`risk_profile`, :func:`risk_tpr`,
        :func:`risk_epsilon`, or a number (the largest total ε).
    %(family)s

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the risk or an argument is malformed (the message names it).

    References
    ----------
    As the ``risk_*`` constructors; Canonne, Kamath & Steinke (2020), Corollary 13.

    Examples
    --------
    >>> total_for_risk(1.0)
    1.0
    >>> round(total_for_risk(1.0, mechanism="gaussian", delta=1e-6), 5)  # ρ_z with CKS ε = 1
    0.02436
    """
    risk = _as_risk(risk)
    return NoiseFamily.of(mechanism).total_for(risk, delta)


def _profile_r_for(risk: ProfileRisk, epsilon: float) -> float:
    """The smallest r̃ whose profile (same kind, ã, fixed) allows ``epsilon`` (inf if none)."""

    def allowed(r: float) -> float:
        return float(epsilon_for_profile(risk.profile, r=r, a=risk.a, fixed=risk.fixed))

    low, high = 1.0, max(risk.level, 2.0)
    while allowed(high) < epsilon:
        low, high = high, high * high
        if high > 1e300:
            return math.inf
    for _ in range(200):  # ε(r̃) is non-decreasing: keep allowed(high) ≥ ε
        mid = math.sqrt(low * high) if low > 1 else 0.5 * (low + high)
        if not low < mid < high:
            break
        if allowed(mid) >= epsilon:
            high = mid
        else:
            low = mid
    return high


def implied_risk(total, risk, *, mechanism="laplace", delta=DEFAULT_DELTA) -> float:
    """The risk a total budget implies, in the units of ``risk``: the knob "accept more risk".

    For a risk of kind "epsilon" the total as ε; "posterior" the posterior bound
    (:func:`helpers.deployments.posterior_bound`) at that ε; "profile" the smallest r̃ of the
    same profile (same ã and fixed prior) that allows it; "tpr" the best test's TPR at the
    same FPR (pure-ε curve for Laplace, Gaussian curve for Gaussian noise). For Gaussian
    noise the posterior and profile readings are at the CKS ε alone, δ set aside: they may
    fail with probability δ₁ = P[ℒ > ε] (see :func:`risk_posterior`).

    Not called in a notebook; used by ``helpers.budget``.

    Parameters
    ----------
    total : float
        ε (Laplace) or ρ_z (Gaussian), > 0.
    risk : Risk or float
        The risk whose units to use.
    %(family)s

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument is malformed (the message names it).

    References
    ----------
    As :func:`total_for_risk`.

    Examples
    --------
    >>> round(implied_risk(math.log(3), risk_posterior(0.6, prior=0.5)), 4)
    0.75
    """
    risk = _as_risk(risk)
    family = NoiseFamily.of(mechanism)
    t = float(check_positive("total", check_finite_scalar("total", total)))
    d = family.reading_delta(delta)
    epsilon = family.epsilon(t, d)
    level = risk.read(epsilon, lambda fpr: family.tpr(t, epsilon, fpr, d))
    return _allowing(risk, level, family, d, t)


def _allowing(risk: Risk, level: float, family: NoiseFamily, delta: float, total: float) -> float:
    """``level`` raised a double at a time until :func:`total_for_risk` at it allows ``total``.

    The knob "accept this risk", fed back as the risk, must open the interval; rounded to
    nearest it was a few ulps short, since total_for_risk rounds its total down (a workload
    fed its own risk knob came out infeasible). A risk is reported on the high side anyway.
    """
    top = risk.ceiling
    if not (math.isfinite(level) and level < top):
        return level

    def ok(values):
        out = []
        for value in np.atleast_1d(values).tolist():
            if not value < top:
                out.append(True)
                continue
            try:
                out.append(family.total_for(dataclasses.replace(risk, level=value), delta) >= total)
            except ValueError:  # a level below what any total allows (e.g. at the prior)
                out.append(False)
        return np.array(out, dtype=bool)

    return float(nudge_until([level], ok, toward_zero=False)[0])


def posterior_failure_probability(total, *, mechanism="laplace", delta=DEFAULT_DELTA) -> float:
    """How often the posterior bound read at a total's ε fails: 0 (Laplace) or δ₁ (Gaussian).

    The two-world posterior exceeds :func:`helpers.deployments.posterior_bound` at ε exactly on
    the outputs whose privacy loss ℒ exceeds ε. Laplace releases of total ε (pure ε-DP)
    have ℒ ≤ ε almost surely: 0. Gaussian releases of total ρ_z compose to one Gaussian with
    μ = √(2ρ_z), read at its CKS ε at ``delta`` (the ε :func:`total_for_risk` and
    :func:`implied_risk` use): the probability is δ₁ = P[ℒ > ε] = Φ(μ/2 − ε/μ), notebook 08's
    naive δ (:func:`helpers.plrv.gaussian_delta_naive`, raised by its float error), which δ
    does not bound: 2δ covers only the bound at ε + ln 2
    (:func:`helpers.deployments.posterior_bad_event_probability`).

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    total : float
        ε (Laplace) or ρ_z (Gaussian), > 0.
    %(family)s

    Returns
    -------
    float
        The probability, in [0, 1].

    Raises
    ------
    ValueError
        If an argument is malformed (the message names it).

    References
    ----------
    Lee & Clifton (2011), eq. (4) with two worlds; Balle & Wang (2018), Theorem 8 (the
    Gaussian's privacy loss); Canonne, Kamath & Steinke (2020), Corollary 13.

    Examples
    --------
    >>> rho = total_for_risk(risk_posterior(0.8, prior=0.5), mechanism="gaussian", delta=1e-6)
    >>> round(posterior_failure_probability(rho, mechanism="gaussian", delta=1e-6) / 1e-6, 1)
    3.7
    >>> posterior_failure_probability(1.0)  # Laplace: pure ε
    0.0
    """
    family = NoiseFamily.of(mechanism)
    t = float(check_positive("total", check_finite_scalar("total", total)))
    d = family.reading_delta(delta)
    if family.pure:
        return 0.0
    epsilon = family.epsilon(t, d)
    if not math.isfinite(epsilon):  # no finite claim: the bound at ε = ∞ is 1, never exceeded
        return 0.0
    mu = math.sqrt(2 * t)
    return float(Gaussian(1.0, sensitivity=mu).delta_naive(epsilon))


# --- allocation ---------------------------------------------------------------------------


def workload_sensitivities(workload) -> np.ndarray:
    """Δ of every release of a workload (count 1, sum upper − lower, mean (upper − lower)/n).

    Neighbours change one record and n is public (bounded DP), as in
    :func:`helpers.choose.sensitivity_of`; a release's own ``sensitivity`` field overrides.
    Where upper − lower or the division by n is not exact in floating point, Δ is rounded up.

    Used in notebook 11.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)

    Returns
    -------
    numpy.ndarray
        One Δ per release.

    Raises
    ------
    ValueError
        If a release is malformed: the message names it (index and label) and the field.

    References
    ----------
    Dwork & Roth (2014), Definition 3.1 (ℓ1 sensitivity); :func:`helpers.choose.sensitivity_of`.

    Examples
    --------
    >>> workload_sensitivities([Release("count", k=5), Release("mean", k=1, lower=0, upper=100, n=50)])
    array([1., 2.])
    """
    return _parse(workload).sensitivity


def budget_for_accuracy(workload, *, mechanism="laplace", delta=DEFAULT_DELTA) -> Allocation:
    """The smallest total that meets every release's accuracy target, and each release's noise.

    Each release i needs |noise| ≤ k_i with probability ≥ c_i, which caps its noise scale:

    * Laplace, P(|Z| > k) = e^{−k/b}: b_i ≤ k_i / ln(1/(1 − c_i)), so ε_i = Δ_i/b_i
      (the ε of :func:`helpers.choose.epsilon_for_accuracy`);
    * Gaussian, P(|Z| ≤ k) = erf(k/(σ√2)): σ_i ≤ k_i / z_i with z_i = √2·erfinv(c_i), so
      ρ_z,i = Δ_i²/(2σ_i²) (Bun & Steinke 2016, Proposition 1.6).

    Each budget is the least that meets its own target, so their sum is the least total that
    meets them all (the releases share nothing but the total). The scale is rounded down
    (the target is still met) and the budget up (the mechanism with that scale is within it);
    the total is never below the exact sum. For Gaussian noise ``epsilon`` is the total ρ_z
    converted to (ε, δ) at ``delta`` (:func:`zcdp_composition`).

    Used in notebooks 11 and 12.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    %(family)s

    Returns
    -------
    Allocation
        ``meets`` is true everywhere.

    Raises
    ------
    ValueError
        If a release is malformed (the message names it and the field), or the total is
        beyond the largest double.

    References
    ----------
    Dwork & Roth (2014), Theorem 3.8 (Laplace accuracy); Bun & Steinke (2016), Proposition
    1.6.

    Examples
    --------
    >>> workload = [Release("count", k=5.0), Release("sum", k=50.0, lower=0, upper=10)]
    >>> allocation = budget_for_accuracy(workload)
    >>> round(allocation.total, 4), allocation.budgets.round(4).tolist()  # 2 × ln(20)/5
    (1.1983, [0.5991, 0.5991])
    >>> round(budget_for_accuracy(workload, mechanism="gaussian").total, 4)  # 2 × (1.96/5)²/2
    0.1537
    """
    w = _parse(workload)
    family = NoiseFamily.of(mechanism)
    return _budget_for_accuracy(w, family, family.reading_delta(delta))


def _budget_for_accuracy(w: _Workload, family: NoiseFamily, d: float) -> Allocation:
    family.check_sensitivities(w)
    scales = family.accuracy_scales(w.k, w.coverage)
    budgets = family.budgets(w.sensitivity, scales)
    bad = ~np.isfinite(budgets)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{_where(i, w.labels[i])}: k must be wider: ±{w.k[i]:g} at Δ = {w.sensitivity[i]:g} "
            "needs a budget beyond the largest double"
        )
    allocation = _allocation(w, family, d, budgets, scales, scales)
    if math.isinf(allocation.total):
        raise ValueError(
            "workload: the accuracy targets together need a total beyond the largest double; "
            "widen the ±k"
        )
    return allocation


def _shares(w: _Workload, family: NoiseFamily) -> np.ndarray:
    """The variance-optimal shares of a total (they add up to 1), computed in log space."""
    logs = family.share_logs(w.weight, w.sensitivity)
    unnormalised = np.exp(logs - logs.max())
    return unnormalised / math.fsum(unnormalised.tolist())


def _fit_under(budgets_of, total: float) -> np.ndarray:
    """budgets_of(t) for a t ≤ 1 within about 10⁻¹² of the largest whose summed budgets are ≤ total.

    Each step scales t by total/sum (exact for a proportional split) and by a decrement that
    doubles every step, so it ends in a few steps even when only part of the budgets shrink.
    """
    t = 1.0
    for step in range(80):
        budgets = budgets_of(t)
        spent = sum_up(budgets)
        if spent <= total:
            return budgets
        t *= min(total / spent, 1.0) * (1.0 - _ULP * 2.0**step)
    raise AssertionError("unreachable: t reaches 0 within 60 steps")  # pragma: no cover


def _waterfill(floors: np.ndarray, shares: np.ndarray, total: float) -> float:
    """t with Σ max(floor_i, t·share_i) = total (total ≥ Σ floor_i), from the sorted kinks."""
    ratios = floors / shares
    order = np.argsort(ratios)
    r, u, a = ratios[order], shares[order], floors[order]
    free = np.cumsum(u)  # releases 0..j run on t·share
    fixed = np.concatenate([np.cumsum(a[::-1])[::-1][1:], [0.0]])  # releases j+1.. at floors
    at_kink = r * free + fixed  # Σ at t = r_j, increasing in j
    j = int(np.searchsorted(at_kink, total, side="right")) - 1
    if j < 0:
        return 0.0
    if j == len(r) - 1:
        return total / free[-1]
    return (total - fixed[j]) / free[j]


def split_budget(
    workload,
    total,
    *,
    mechanism="laplace",
    delta=DEFAULT_DELTA,
    meet_targets=False,
    objective="variance",
) -> Allocation:
    """The split of a total budget that minimises the weighted total noise variance Σ w_i·Var_i.

    Or, with ``objective="need"``, the split **proportional to need**: every release gets the
    same fraction E/Σ a_i of the budget a_i its accuracy target needs, so every ±k is reached
    within the same factor (E/Σ a_i)^{-1} (Laplace) or its square root (Gaussian). The two
    serve different objectives: the variance-optimal split minimises Σ w_i·Var_i and ignores
    the coverages c_i (when the total is short it meets some targets and misses others by
    more); the split proportional to need minimises the *largest* miss max_i k_i'/k_i (all
    equal), the split to use when every target matters as much as the others.

    **Laplace** (pure ε): Var_i = 2b_i² = 2Δ_i²/ε_i². Minimise Σ 2w_iΔ_i²/ε_i² subject to
    Σ ε_i = E. The objective is convex, so the Lagrange condition is the optimum:
    ∂/∂ε_i [Σ 2w_jΔ_j²/ε_j² + λ(Σ ε_j − E)] = −4w_iΔ_i²/ε_i³ + λ = 0, so ε_i³ ∝ w_iΔ_i² and

        ε_i = E·(w_iΔ_i²)^{1/3} / Σ_j (w_jΔ_j²)^{1/3},   min Σ w_i Var_i = 2(Σ_j (w_jΔ_j²)^{1/3})³/E².

    **Gaussian** (zCDP): σ_i² = Δ_i²/(2ρ_i). Minimise Σ w_iΔ_i²/(2ρ_i) subject to Σ ρ_i = R:
    −w_iΔ_i²/(2ρ_i²) + λ = 0, so ρ_i ∝ √w_i·Δ_i and

        ρ_i = R·√w_i Δ_i / Σ_j √w_j Δ_j,   min Σ w_i σ_i² = (Σ_j √w_j Δ_j)²/(2R).

    With ``meet_targets=True`` each budget is also held at or above what its accuracy target
    needs (a_i, from :func:`budget_for_accuracy`): the Karush–Kuhn–Tucker conditions of the
    same convex problem with ε_i ≥ a_i give ε_i = max(a_i, t·s_i) (s_i the shares above),
    with t found exactly from the sorted kinks a_i/s_i (water-filling). That needs
    E ≥ Σ a_i.

    The shares are computed in log space; the budgets are then shrunk (by a factor within
    10⁻¹² of 1) until their pessimistic sum is ≤ ``total``, and each scale is rounded up
    (b = Δ/ε, σ = Δ/√(2ρ_z)), so the allocation never spends more than ``total``.

    Used in notebook 11.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    total : float
        E (ε, Laplace) or R (ρ_z, Gaussian) in [1e-150, 1e150].
    %(family)s
    meet_targets : bool, keyword-only
        Hold every release at its accuracy target (refused if the total is too small).
    objective : {"variance", "need"}, keyword-only
        What the split minimises: the weighted total variance (the default) or the largest
        factor by which a target is missed (proportional to need; ``meet_targets`` is then
        met whenever the total allows it, and not read).

    Returns
    -------
    Allocation
        ``meets`` tells which targets the split meets.

    Raises
    ------
    ValueError
        If a release is malformed (the message names it and the field), the total is out of
        range, or ``meet_targets`` asks for more than the total.

    References
    ----------
    The derivation above (Lagrange multipliers; Boyd & Vandenberghe 2004, §5.5.3 for the
    KKT conditions); Dwork & Roth (2014), Theorem 3.6; Bun & Steinke (2016), Proposition 1.6.

    Examples
    --------
    >>> workload = [Release("count", k=5.0), Release("sum", k=50.0, lower=0, upper=8)]
    >>> split_budget(workload, 1.0).budgets.round(4).tolist()  # ∝ 1 : 8^(2/3) = 1 : 4
    [0.2, 0.8]
    >>> split_budget(workload, 1.0).meets.tolist()
    [False, True]
    >>> split_budget(workload, 1.2, meet_targets=True).meets.tolist()
    [True, True]
    """
    w = _parse(workload)
    family = NoiseFamily.of(mechanism)
    e = _check_total(total)
    d = family.reading_delta(delta)
    if not isinstance(meet_targets, (bool, np.bool_)):
        raise ValueError(f"meet_targets must be True or False; got {meet_targets!r}")
    if objective not in ("variance", "need"):
        raise ValueError(f"objective must be 'variance' or 'need'; got {objective!r}")
    if objective == "need":
        return _split_by_need(w, e, family, d)
    return _split_budget(w, e, family, d, bool(meet_targets), total)


def _split_by_need(w: _Workload, e: float, family: NoiseFamily, d: float) -> Allocation:
    """Every release at the same fraction of its need: the largest miss as small as can be."""
    acc_scales = family.accuracy_scales(w.k, w.coverage)
    floors = family.budgets(w.sensitivity, acc_scales)
    shares = floors / math.fsum(floors.tolist())
    budgets = np.maximum(_fit_under(lambda s: s * e * shares, e), _TINY)
    scales = family.scales(w.sensitivity, budgets)
    scales = np.where(budgets >= floors, np.minimum(scales, acc_scales), scales)
    return _allocation(w, family, d, budgets, scales, acc_scales)


def _split_budget(w: _Workload, e: float, family: NoiseFamily, d: float, meet_targets, total):
    family.check_sensitivities(w)
    acc_scales = family.accuracy_scales(w.k, w.coverage)
    floors = family.budgets(w.sensitivity, acc_scales)
    shares = _shares(w, family)
    if meet_targets:
        needed = sum_up(floors)
        if needed > e:
            raise ValueError(
                f"total must be at least {needed:.6g} (what the accuracy targets need) to meet "
                f"every target; got {total!r}"
            )
        t = _waterfill(floors, shares, e)
        budgets = _fit_under(lambda s: np.maximum(floors, s * t * shares), e)
    else:
        budgets = _fit_under(lambda s: s * e * shares, e)
    budgets = np.maximum(budgets, _TINY)
    scales = family.scales(w.sensitivity, budgets)
    # where the budget covers the target's, the target's scale is private at it too: use the
    # smaller (never noisier than needed, and the comparison with the target exact)
    scales = np.where(budgets >= floors, np.minimum(scales, acc_scales), scales)
    return _allocation(w, family, d, budgets, scales, acc_scales)


def _budgets_at(w: _Workload, family: NoiseFamily, k: np.ndarray) -> np.ndarray:
    """The budgets the accuracy targets need at ±k (the workload's coverage and Δ)."""
    return family.budgets(w.sensitivity, family.accuracy_scales(k, w.coverage))


def _least_factor(fits, guess) -> np.ndarray:
    """The least factor f (to about 1e-12 relative) with ``fits(f)``, for fits monotone in f
    (false below, true above), found from ``guess`` by galloping and bisection in log f."""
    guess = np.asarray(guess, dtype=float)
    low, high = np.log(guess) - 0.1, np.log(guess) + 0.1
    for _ in range(200):  # gallop until fits(high) and not fits(low)
        ok_high, ok_low = np.asarray(fits(np.exp(high))), np.asarray(fits(np.exp(low)))
        if np.all(ok_high) and not np.any(ok_low):
            break
        high = np.where(ok_high, high, high + 2 * (high - low))
        low = np.where(ok_low, low - 2 * (high - low), low)
    for _ in range(200):
        mid = 0.5 * (low + high)
        if np.all(high - low <= 1e-13 * np.maximum(1.0, np.abs(high))):
            break
        ok = np.asarray(fits(np.exp(mid)))
        high, low = np.where(ok, mid, high), np.where(ok, low, mid)
    return np.exp(high)


def _fewest_to_drop(budgets: np.ndarray, allowed: float) -> list:
    """Indices of the fewest releases whose removal brings the total within ``allowed``.

    Dropping the largest budgets first is optimal for the count. The cut is placed from the
    running sums of the sorted budgets, then confirmed (and moved) with the pessimistic sum.
    """
    order = np.argsort(-budgets, kind="stable")
    ascending = budgets[order][::-1]
    kept_sums = np.cumsum(ascending)[::-1]  # kept_sums[j]: the total without the j largest
    j = int(np.argmax(kept_sums <= allowed)) if np.any(kept_sums <= allowed) else len(budgets)

    def fits(drop: int) -> bool:
        return drop >= len(budgets) or sum_up(budgets[order[drop:]]) <= allowed

    while j < len(budgets) and not fits(j):
        j += 1
    while j > 0 and fits(j - 1):
        j -= 1
    return [int(i) for i in order[:j]]


def _records_needed(w: _Workload, acc: Allocation, allowed: float, family: NoiseFamily) -> dict:
    """{index: n needed} for every mean (all n scaled by one factor), or None where n cannot help."""
    means = w.n > 0
    if not np.any(means):
        return {}
    others = sum_up(acc.budgets[~means]) if np.any(~means) else 0.0
    room = allowed - others
    if room <= 0:
        return {int(i): None for i in np.flatnonzero(means)}
    ratio = sum_up(acc.budgets[means]) / room
    factor = family.root(ratio)
    for _ in range(200):
        n_new = np.where(means, np.maximum(np.ceil(w.n * factor), 1.0), w.n)
        delta_f = np.where(
            means, ratio_up(np.where(means, w.width, 1.0), np.maximum(n_new, 1)), w.sensitivity
        )
        trial = w._replace(sensitivity=delta_f, n=n_new)
        budgets = family.budgets(delta_f, family.accuracy_scales(trial.k, trial.coverage))
        if sum_up(budgets) <= allowed:
            return {int(i): int(n_new[i]) for i in np.flatnonzero(means)}
        factor *= 1 + 1e-9
    return {int(i): None for i in np.flatnonzero(means)}  # pragma: no cover


def choose_workload(workload, risk, *, mechanism="laplace", delta=DEFAULT_DELTA) -> WorkloadChoice:
    """Both sides for a workload: the total the accuracy needs, the total the risk allows, the knobs.

    The accuracy side is :func:`budget_for_accuracy` (the smallest total meeting every
    target), the risk side :func:`total_for_risk` (the largest total the risk allows); the
    workload is feasible when the first is ≤ the second. The risk's total is then split by
    :func:`split_budget`: meeting every target (and spending the slack where it lowers the
    weighted variance most) when feasible, else variance-optimally, showing which targets
    that misses.

    ``knobs`` (as :class:`helpers.choose.Choice`'s, for a feasible workload the slack):

    * ``"widen"``: the factor every ±k must be multiplied by to open the interval (Laplace:
      total_accuracy/total_risk, Gaussian: its square root; < 1 is slack);
    * ``"k"``: per release, the ±k it alone would need (the others at their targets), ``inf``
      where widening it alone cannot suffice;
    * ``"drop"``: the fewest releases (indices, largest budgets first) whose removal opens
      the interval (empty when feasible);
    * ``"n"``: for the means (Δ from bounds): {index: records needed} with every mean's n
      grown by one factor, None where the counts and sums alone exceed the risk;
    * ``"risk"``: the risk the accuracy side implies, in the risk's units
      (:func:`implied_risk`);
    * ``"coverage"``: per release, the coverage the split of the risk's total delivers at the
      target ±k.

    Used in notebooks 11 and 12.

    **One noise per release** (``mechanism`` a list, one name or class per release, e.g.
    Laplace counts beside Gaussian means; or every entry "gaussian" to judge a Gaussian
    workload exactly): the releases no longer share a unit, so the workload is judged on its
    own composed privacy-loss distribution (:mod:`helpers.attack`), each reading named in
    the message: a TPR on the composed trade-off curve (exact for Gaussian releases, μ²
    adding); a posterior bound or a Kazan & Reiter profile at the ε with P[ℒ > ε] ≤ δ
    (:func:`loss_epsilon`: the bound holds except with probability δ, the bad event of
    notebook 08's δ₁); a total ε as the composed (ε, δ) (:func:`pld_epsilon`). ``at_risk``
    is then the split proportional to need at the risk's limit (every scale times one factor,
    found by bisection), ``accuracy.total`` and ``epsilon`` the composed ε at δ, the budgets
    each in its release's unit (ε_i or ρ_z,i), ``knobs`` "widen", "drop" (largest single
    ε at δ first), "risk" and "coverage".

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    risk : Risk or float
        From :func:`risk_posterior`, :func:`risk_profile`, :func:`risk_tpr`,
        :func:`risk_epsilon`, or the largest total ε as a number.
    %(family)s
        Or a list of them, one per release (read as above; ``delta`` in (0, 1) then).

    Returns
    -------
    WorkloadChoice

    Raises
    ------
    ValueError
        If a release or the risk is malformed (the message names it and the field).

    References
    ----------
    As :func:`budget_for_accuracy`, :func:`split_budget` and :func:`total_for_risk`;
    :func:`helpers.choose.choose` for one release.

    Examples
    --------
    >>> workload = [Release("count", k=5.0), Release("mean", k=2.0, lower=0, upper=100, n=200)]
    >>> choice = choose_workload(workload, risk_posterior(0.8, prior=0.5))
    >>> choice.feasible, round(choice.epsilon_accuracy, 4), round(choice.epsilon_risk, 4)
    (True, 1.3481, 1.3863)
    >>> tighter = choose_workload(workload, risk_posterior(0.75, prior=0.5))  # ln 3 < 1.3481
    >>> tighter.feasible, round(tighter.knobs["widen"], 4), tighter.knobs["drop"]
    (False, 1.2271, [1])
    """
    w = _parse(workload)
    risk = _as_risk(risk)
    if isinstance(mechanism, (list, tuple)):  # one noise per release: judged on its own PLD
        return _choose_exact(w, risk, mechanism, delta)
    family = NoiseFamily.of(mechanism)
    d = family.reading_delta(delta)
    acc = _budget_for_accuracy(w, family, d)
    allowed = family.total_for(risk, delta)
    feasible = acc.total <= allowed
    at_risk = _split_budget(w, allowed, family, d, bool(feasible), allowed)
    ratio = float(_up(acc.total / allowed, 4))
    widen = family.widen(ratio)
    # each release alone: the budget left for it when the others keep their targets' budgets
    rest = _up(np.maximum(acc.total - acc.budgets, 0.0), 8)
    room = allowed - rest
    with np.errstate(divide="ignore", over="ignore"):
        grow = np.where(room > 0, acc.budgets / np.where(room > 0, room, 1.0), np.inf)
        k_needed = np.where(room > 0, w.k * family.root(grow), np.inf)
    if not family.mechanism.scale_free:
        # the ±k a noise reaches is not proportional to it (integer noise: a step in k): the
        # factors by search on the budgets themselves, from the proportional guess
        widen = float(
            _least_factor(lambda f: sum_up(_budgets_at(w, family, w.k * f)) <= allowed, widen)
        )
        alone = np.isfinite(k_needed)

        def fits_alone(f):
            factor = np.ones_like(w.k)
            factor[alone] = f
            return _budgets_at(w, family, w.k * factor)[alone] <= room[alone]

        if np.any(alone):
            guess = k_needed[alone] / w.k[alone]
            k_needed[alone] = w.k[alone] * _least_factor(fits_alone, guess)
    knobs = {
        "widen": widen,
        "k": _up(k_needed, 4),
        "drop": [] if feasible else _fewest_to_drop(acc.budgets, allowed),
        "risk": implied_risk(acc.total, risk, mechanism=family, delta=delta),
        "coverage": at_risk.coverage,
    }
    records = _records_needed(w, acc, allowed, family)
    if records:
        knobs["n"] = records
    unit = family.unit
    size = len(w.k)
    if feasible:
        message = (
            f"feasible: any total {unit} in [{acc.total:.4g}, {allowed:.4g}] meets all {size} "
            f"accuracy targets and the risk"
        )
        if not family.pure:
            message += f" (ε ≤ {family.epsilon(allowed, d):.4g} at δ = {d:g})"
    else:
        missed = int(np.count_nonzero(~at_risk.meets))
        parts = [f"widen every ±k by ×{widen:.3g}"]
        drop = knobs["drop"]
        parts.append(
            f"or drop {len(drop)} release{'s' if len(drop) != 1 else ''} "
            f"({', '.join(str(i) for i in drop[:5])}{', …' if len(drop) > 5 else ''})"
        )
        if records and all(v is not None for v in records.values()):
            shown = ", ".join(f"n[{i}] ≥ {v:,}" for i, v in list(records.items())[:3])
            parts.append(f"or more records ({shown})")
        parts.append(f"or accept a risk of {knobs['risk']:.4g} ({risk.kind})")
        message = (
            f"no total meets both: the accuracy needs {unit} ≥ {acc.total:.4g}, the risk allows "
            f"{unit} ≤ {allowed:.4g} (split variance-optimally it misses {missed} of {size} "
            "targets). To open an interval: " + ", ".join(parts)
        )
    epsilon_risk = family.epsilon(allowed, d)
    return WorkloadChoice(acc.epsilon, epsilon_risk, bool(feasible), knobs, message, acc, at_risk)


# --- workloads judged on their own privacy-loss distribution (mixed noise, exact readings) --


def joint_coverage(coverage) -> float:
    """The probability that every release lands within its ±k together: ∏ c_i.

    The releases' noises are independent, so the events |Z_i| ≤ k_i are too, and the chance
    that all of them hold is the product of their coverages (summed in log space). Six
    targets of 95 % hold together with probability 0.735, not 0.95.

    Used in notebook 11.

    Parameters
    ----------
    coverage : array_like
        The c_i in [0, 1] (an :class:`Allocation`'s ``coverage``), 1-D and non-empty.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a coverage is outside [0, 1] or NaN, or the list is empty.

    References
    ----------
    Independence of the releases' noises (each release draws its own).

    Examples
    --------
    >>> round(joint_coverage([0.95] * 6), 4)
    0.7351
    """
    c = _check_budget_list("coverage", coverage)
    if np.any(c > 1):
        raise ValueError(f"coverage must lie in [0, 1]; got {coverage!r}")
    if np.any(c == 0):
        return 0.0
    return float(math.exp(math.fsum(np.log(c).tolist())))


def bonferroni(workload, *, joint) -> list:
    """The workload with every coverage raised so that all targets hold together with ``joint``.

    Bonferroni's adjustment: each c_i = 1 − (1 − joint)/m, so that the chance that some
    release misses is at most Σ(1 − c_i) = 1 − joint (the union bound, whatever the
    dependence); with independent noises the joint coverage ∏ c_i is then a little above
    ``joint`` (Šidák's c_i = joint^{1/m} would meet it exactly). The knob trades accuracy for
    a statement about the whole table: each ±k is met more often, so it costs more budget.

    Used in notebook 11.

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    joint : float, keyword-only
        The probability, in (0, 1), that every release lands within its ±k.

    Returns
    -------
    list of Release
        The same releases with their new coverage.

    Raises
    ------
    ValueError
        If a release is malformed or ``joint`` is outside (0, 1).

    References
    ----------
    Bonferroni's inequality (the union bound); Šidák (1967), JASA 62, for the exact
    independent case.

    Examples
    --------
    >>> adjusted = bonferroni([Release("count", k=5.0)] * 5, joint=0.95)
    >>> [round(r.coverage, 4) for r in adjusted][:2], round(joint_coverage([0.99] * 5), 4)
    ([0.99, 0.99], 0.951)
    """
    w = _parse(workload)
    j = float(check_open_unit("joint", check_finite_scalar("joint", joint)))
    each = 1.0 - (1.0 - j) / len(w.k)
    rows = _rows(workload)
    out = []
    for row in rows:
        fields_ = {f: getattr(row, f) for f in _FIELDS} if isinstance(row, Release) else dict(row)
        fields_["coverage"] = each
        out.append(Release(**fields_))
    return out


def _exact_families(mechanism, size: int) -> list:
    if len(mechanism) != size:
        raise ValueError(
            f"mechanism must name one noise per release ({size}) when it is a list; got "
            f"{len(mechanism)} entries"
        )
    return [NoiseFamily.of(one) for one in mechanism]


def _objects(families: list, scales: np.ndarray, sensitivity: np.ndarray) -> list:
    return [
        f.mechanism(float(b), sensitivity=float(s))
        for f, b, s in zip(families, scales.tolist(), sensitivity.tolist(), strict=True)
    ]


def _exact_level(objects: list, risk: Risk, d: float, h: float = 1e-4) -> tuple:
    """(the risk read on the composed PLD in its units, the ε that reading rests on or None).

    ``h`` is the grid step: every reading is pessimistic, so a coarser grid (the knobs'
    searches use 10⁻³) only moves a knob to the safe side.
    """
    if risk.kind == "tpr":
        return attack_tpr(objects, fpr=risk.fpr, discretization=h), None
    if risk.kind == "epsilon":
        # the attack grid: Gaussian releases merged to one μ and built vectorised (cached)
        eps = _composed_epsilon(objects, d, h)
        return eps, eps
    eps = loss_epsilon(objects, delta=d, discretization=h)
    if risk.kind == "posterior":
        return float(posterior_bound(eps, prior=risk.prior)), eps
    return _profile_r_for(risk, eps), eps


def _exact_ok(objects: list, risk: Risk, d: float, limit: float, h: float = 1e-4) -> bool:
    if risk.kind == "epsilon" and all(type(one) is Gaussian for one in objects):
        # Gaussian releases are one Gaussian of μ² = Σ (Δᵢ/σᵢ)²: its δ(ε), exactly
        return float(Gaussian(1.0, sensitivity=composed_mu(objects)).delta(risk.level)) <= d
    level, eps = _exact_level(objects, risk, d, h)
    return level <= risk.level if eps is None else eps <= limit


def _exact_allocation(w, families, d, scales, acc_scales) -> Allocation:
    objects = _objects(families, scales, w.sensitivity)
    budgets = np.empty(len(scales))
    reach, covered, variance = (np.empty(len(scales)) for _ in range(3))
    for family in set(families):
        mask = np.array([f is family for f in families])
        budgets[mask] = family.budgets(w.sensitivity[mask], scales[mask])
        r, c, v = family.delivered(scales[mask], w.k[mask], w.coverage[mask])
        reach[mask], covered[mask], variance[mask] = r, c, v
    eps = _composed_epsilon(objects, d)  # the attack grid (fast, cached), not pld_epsilon
    names = {f.name for f in families}
    return Allocation(
        mechanism=names.pop() if len(names) == 1 else "mixed",
        total=eps,
        epsilon=eps,
        delta=d,
        budgets=budgets,
        scales=scales,
        sensitivities=w.sensitivity.copy(),
        k=reach,
        coverage=covered,
        meets=scales <= acc_scales,
        variance=math.fsum((w.weight * variance).tolist()),
    )


_SEARCH_GRID = 1e-3  # the grid step of the knobs' searches (the verdict itself reads 1e-4)


def _smallest_factor(ok, tol: float = 1e-3) -> float:
    """The smallest t (to a relative ``tol``, rounded up) with ok(t), ok increasing in t."""
    low, high = 1.0, 1.0
    if ok(1.0):
        while ok(low / 2):
            low /= 2
            if low < 1e-12:
                return low
        low, high = low / 2, low
    else:
        while not ok(high * 2):
            high *= 2
            if high > 1e12:
                return math.inf
        low, high = high, high * 2
    while high / low > 1 + tol:
        mid = math.sqrt(low * high)
        low, high = (low, mid) if ok(mid) else (mid, high)
    return high


def _choose_exact(w: _Workload, risk: Risk, mechanism, delta) -> WorkloadChoice:
    families = _exact_families(mechanism, len(w.k))
    d = _check_open_delta(delta)
    acc_scales = np.empty(len(w.k))
    for family in set(families):
        mask = np.array([f is family for f in families])
        acc_scales[mask] = family.accuracy_scales(w.k[mask], w.coverage[mask])
    limit = math.inf if risk.kind == "tpr" else float(_down(risk.epsilon(), 4))
    if risk.kind == "epsilon":
        limit = risk.level

    def ok(t: float) -> bool:  # on the coarser grid: the factor found errs to the safe side
        objects = _objects(families, _up(acc_scales * t, 4), w.sensitivity)
        return _exact_ok(objects, risk, d, limit, _SEARCH_GRID)

    feasible = _exact_ok(_objects(families, acc_scales, w.sensitivity), risk, d, limit)
    # Gaussian releases alone are read in closed form (microseconds): search them finely
    gaussian_only = all(f.mechanism is Gaussian for f in families)
    widen = _smallest_factor(ok, 1e-7 if gaussian_only else 1e-3)
    acc = _exact_allocation(w, families, d, acc_scales, acc_scales)
    level, _ = _exact_level(_objects(families, acc_scales, w.sensitivity), risk, d)
    if math.isfinite(widen):
        at_scales = acc_scales if feasible and widen > 1 else _up(acc_scales * widen, 4)
        at_risk = _exact_allocation(w, families, d, at_scales, acc_scales)
    else:
        at_risk = acc._replace(meets=np.zeros(len(w.k), dtype=bool))
    drop: list = []
    if not feasible:  # the releases with the largest ε at δ alone go first
        single = [
            loss_epsilon(one, delta=d) for one in _objects(families, acc_scales, w.sensitivity)
        ]
        order = np.argsort(-np.array(single), kind="stable")

        def fits(count: int) -> bool:
            kept = np.sort(order[count:])
            if kept.size == 0:
                return True
            objects = _objects([families[i] for i in kept], acc_scales[kept], w.sensitivity[kept])
            return _exact_ok(objects, risk, d, limit, _SEARCH_GRID)

        low, high = 0, len(order)  # fits(high) holds; fits is monotone in the count dropped
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (low, mid) if fits(mid) else (mid, high)
        drop = [int(i) for i in order[:high]]
    if risk.kind == "tpr":
        words = f"the best test's TPR at FPR {risk.fpr:g} on the composed trade-off curve"
    elif risk.kind == "epsilon":
        words = f"the composed (ε, δ = {d:g}) of the privacy-loss distribution"
    else:
        words = f"read at the ε with P[ℒ > ε] ≤ {d:g}: it fails with probability at most {d:g}"
    if feasible:
        message = (
            f"feasible on the workload's own privacy-loss distribution ({words}): every "
            f"±k met, the risk read at {level:.4g} (allowed {risk.level:.4g}); every ±k could "
            f"shrink by ×{widen:.3g}"
        )
    else:
        message = (
            f"no split meets both, read on the workload's own privacy-loss distribution "
            f"({words}): the accuracy targets give a risk of {level:.4g} (allowed "
            f"{risk.level:.4g}). To fit: widen every ±k by ×{widen:.3g}, or drop {len(drop)} "
            f"release{'s' if len(drop) != 1 else ''} ({', '.join(map(str, drop[:5]))}), or "
            f"accept a risk of {level:.4g} ({risk.kind})"
        )
    knobs = {"widen": widen, "drop": drop, "risk": level, "coverage": at_risk.coverage}
    return WorkloadChoice(
        acc.epsilon, at_risk.epsilon, bool(feasible), knobs, message, acc, at_risk
    )


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

fill_docstrings(globals(), _SECTIONS)
