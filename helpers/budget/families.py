"""One release: accuracy → scale → budget (and back), one family of noise at a time.

The two privacy measures a budget is counted in (:class:`PrivacyMeasure`, :data:`MEASURES`:
pure ε, whose ε's add, and ρ-zCDP, whose ρ_z's add and are read as (ε, δ)), and the family
of noise (:class:`NoiseFamily`): a mechanism class of :mod:`helpers.mechanisms` (which knows
its noise) with its measure. The allocation looks its ``mechanism`` up here once per call.

Part of :mod:`helpers.budget`, which re-exports its public names; its docstring states the
rounding toward privacy every number here keeps.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from .._docstrings import fill_docstrings
from .._numerics import sum_up
from ..deployments import gaussian_tpr_at_fpr, tpr_at_fpr, zcdp_rho_for_epsilon, zcdp_to_epsilon
from ..mechanisms import MECHANISM_CLASSES, AdditiveNoise, Gaussian
from ._common import _SECTIONS, _TINY, Allocation, _check_open_delta, _down, _up, _where, _Workload

if TYPE_CHECKING:  # a Risk is only named here: risk reads the families at import
    from .risk import Risk

__all__ = [
    "MEASURES",
    "MECHANISMS",
    "NOISE_FAMILIES",
    "NoiseFamily",
    "PrivacyMeasure",
]


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
    def template(self):
        """A mechanism object of the family when its class fixes fields beyond the noise and Δ
        (a family made from an object, :meth:`of`), else None: what an :class:`Allocation`
        carries so that every later layer builds its releases with those fields."""
        if self.mechanism.declared() is self.mechanism:  # a class as written fixes nothing
            return None
        return self.mechanism(**{self.mechanism.parameter: 1.0}, sensitivity=1)

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
        """The family of a name ("laplace"), a class (``Laplace``), a mechanism object (a
        template: the allocation sets its noise and Δ and keeps every other field it holds,
        :meth:`~helpers.mechanisms.AdditiveNoise.family`), an :class:`Allocation` (the family
        its releases were made with, fields included) or a family itself.

        A name is read through :data:`helpers.mechanisms.MECHANISM_CLASSES`; anything else
        (an unregistered class, an unknown name, a class without a measure) is a ValueError
        naming ``mechanism``, the value given and the values allowed.
        """
        if isinstance(mechanism, NoiseFamily):
            return mechanism
        if isinstance(mechanism, Allocation):  # the family its releases were made with
            template = mechanism.template
            mechanism = mechanism.mechanism if template is None else template
        if isinstance(mechanism, AdditiveNoise) and mechanism.is_single():
            # a mechanism object as a template: its noise and Δ are the allocation's to set,
            # every other field it holds is kept (its family, never a rebuilt default)
            kind = mechanism.family()
            registered = mechanism.declared() in MECHANISM_CLASSES.values()
        else:
            kind = MECHANISM_CLASSES.get(mechanism) if isinstance(mechanism, str) else mechanism
            registered = kind in MECHANISM_CLASSES.values()
        if not (
            isinstance(kind, type)
            and issubclass(kind, AdditiveNoise)
            and registered
            and kind.measure in MEASURES
        ):
            classes = ", ".join(c.__name__ for c in MECHANISM_CLASSES.values())
            raise ValueError(
                f"mechanism must be one of {tuple(MECHANISM_CLASSES)}, one of the classes "
                f"{classes} of helpers.mechanisms or a mechanism object of one (its noise and Δ "
                f"are set by the allocation, its other fields kept); got {mechanism!r}"
            )
        return _family(kind)

    def reading_delta(self, delta) -> float:
        """δ of the (ε, δ) reading: checked to lie in (0, 1), or 0 for a pure family (unread)."""
        return 0.0 if self.pure else _check_open_delta(delta)

    def read(self, w: _Workload) -> _Workload:
        """``w`` as this family's noise reads it (:func:`_read_by`)."""
        return _read_by(w, self.mechanism.discrete)

    def read_sensitivity(self, sensitivity, ratio) -> np.ndarray:
        """Δs as this family's noise reads them, ``ratio`` flagging the means released as a
        ratio (:func:`_read_by`)."""
        return _read_sensitivity(sensitivity, ratio, self.mechanism.discrete)

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

    def accuracy_scales(
        self, k: np.ndarray, coverage: np.ndarray, *, sensitivity=None
    ) -> np.ndarray:
        """The largest noise scale with P(|Z| ≤ k) ≥ c at Δ, rounded down (toward the target)."""
        found = self.mechanism.accuracy_noise(k, coverage, sensitivity=sensitivity)
        return np.maximum(np.asarray(found), _TINY)

    def budgets(self, sensitivity: np.ndarray, scales: np.ndarray) -> np.ndarray:
        """The budget a scale costs at Δ, rounded up."""
        return np.maximum(np.asarray(self.mechanism.budget_of(sensitivity, scales)), _TINY)

    def scales(self, sensitivity: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """The least noise scale a budget allows at Δ, rounded up (toward privacy)."""
        budgets = np.maximum(budgets, _TINY)
        return np.maximum(np.asarray(self.mechanism.noise_for(sensitivity, budgets)), _TINY)

    def delivered(self, scales, k, coverage, *, sensitivity=None) -> tuple:
        """(±k reached at coverage c, coverage reached at ±k, noise variance) per release, each
        read from the noise at its own Δ (a noise whose shape depends on Δ is right at any Δ;
        only a scale-free class, whose noise is the same at every Δ, may omit it)."""
        m, d = self.mechanism, sensitivity
        with np.errstate(over="ignore", under="ignore"):
            return (
                np.asarray(m.noise_reach(scales, coverage, sensitivity=d), dtype=float),
                np.asarray(m.noise_coverage(scales, k, sensitivity=d), dtype=float),
                np.asarray(m.noise_variance(scales, sensitivity=d), dtype=float),
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


def _read_by(w: _Workload, discrete) -> _Workload:
    """``w`` with each mean released as a ratio under an integer noise (``discrete``: one
    flag, or one per release) at the least integer Δ ≥ its stated one (at least 1).

    Such a mean is never noised at its stated Δ = m(U − L)/n: its noisy sum and count have
    Δs of their own, integers under an integer noise (the release shifts its values by an
    integer), and its budget, ±k and coverage are its plan's (:mod:`helpers.budget.ratio`).
    The stated Δ only sets the scale reported beside them and the mechanism the composition
    reads, whose loss at that scale is the budget; an integer noise takes an integer Δ, so the
    least integer above keeps both true (the loss at the scale is still the budget). Any
    other release, and every release under a continuous noise, keeps its Δ."""
    if w.ratio is None or not np.any(w.ratio & np.asarray(discrete, dtype=bool)):
        return w
    return w._replace(sensitivity=_read_sensitivity(w.sensitivity, w.ratio, discrete))


def _read_sensitivity(sensitivity, ratio, discrete) -> np.ndarray:
    """The Δs of :func:`_read_by`: each ratio mean's (``ratio``) under an integer noise
    (``discrete``) rounded up to an integer of at least 1, the others as given."""
    sensitivity = np.asarray(sensitivity, dtype=float)
    if ratio is None:
        return sensitivity
    mask = np.asarray(ratio, dtype=bool) & np.asarray(discrete, dtype=bool)
    return np.where(mask, np.maximum(np.ceil(sensitivity), 1.0), sensitivity)


#: The families of noise a workload's budget can be spent under, by mechanism class.
NOISE_FAMILIES: Mapping[type[AdditiveNoise], NoiseFamily] = _Families()
#: Noise for a workload, by name (the registry at import): budgets in ε or ρ_z by its measure.
MECHANISMS = tuple(MECHANISM_CLASSES)
_GAUSSIAN = _family(Gaussian)


def _allocation(w, family: NoiseFamily, delta, budgets, scales, acc_scales) -> Allocation:
    """The allocation of one family's noise at these budgets and scales; a mean released as a
    ratio (:mod:`helpers.budget.ratio`) reports its plan's ±k, coverage and variance."""
    from .ratio import _ratio_delivered

    total = sum_up(budgets)
    delivered = family.delivered(scales, w.k, w.coverage, sensitivity=w.sensitivity)
    delivered, ratio_meets = _ratio_delivered(w, family, budgets, delivered)
    totals = (total, family.epsilon(total, delta), 0.0 if family.pure else delta)
    allocation = _assemble(w, family.name, totals, budgets, scales, acc_scales, delivered)
    if ratio_meets is not None:
        meets = allocation.meets.copy()
        meets[w.ratio] = ratio_meets
        allocation = allocation._replace(meets=meets)
    return allocation._replace(template=family.template)


def _assemble(w, name: str, totals, budgets, scales, acc_scales, delivered) -> Allocation:
    """The one builder of an :class:`Allocation`: ``totals`` = (total, ε, δ), ``delivered`` =
    (±k reached, coverage reached, variance) per release; a non-finite variance anywhere
    makes the weighted variance inf (never NaN)."""
    reach, covered, variance = delivered
    with np.errstate(over="ignore", invalid="ignore"):
        weighted = (
            math.fsum((w.weight * variance).tolist()) if np.all(np.isfinite(variance)) else math.inf
        )
    total, epsilon, delta = totals
    return Allocation(
        mechanism=name,
        total=total,
        epsilon=epsilon,
        delta=delta,
        budgets=budgets,
        scales=scales,
        sensitivities=w.sensitivity.copy(),
        k=reach,
        coverage=covered,
        meets=scales <= acc_scales,
        variance=weighted if math.isfinite(weighted) else math.inf,
        unit=w.unit,
        target=w.k.copy(),
    )


fill_docstrings(globals(), _SECTIONS)
