"""The risk side: the risk a workload may take, and the total it allows.

A risk (:class:`Risk`) is one small class per kind of statement, built with ``risk_*``: a
total ε, Lee & Clifton's posterior bound, a Kazan & Reiter profile, the best test's TPR at
an FPR (:func:`epsilon_for_tpr`, :func:`rho_for_tpr` invert the trade-off curves).
:func:`total_for_risk` is the largest total it allows under a family of noise,
:func:`implied_risk` reads a total back in its units.

Part of :mod:`helpers.budget`, which re-exports its public names; its docstring states the
rounding toward privacy every number here keeps.
"""

from __future__ import annotations

import dataclasses
import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_CEILING, Context, Decimal
from fractions import Fraction
from typing import ClassVar, NamedTuple

import numpy as np
from scipy.special import ndtri

from .._docstrings import fill_docstrings
from .._numerics import ln_at_most, nudge_until
from .._validation import (
    RULE_OPEN_UNIT,
    RULE_POSITIVE,
    as_output,
    check_finite_scalar,
    check_int_range,
    check_open_unit,
    check_positive,
)
from ..attack import attack_advantage, attack_success
from ..choose import epsilon_for_posterior, epsilon_for_profile
from ..deployments import DEFAULT_DELTA, posterior_bound, tpr_at_fpr
from ..mechanisms import Gaussian, Laplace
from ._common import _SECTIONS, _ULP, _check_delta, _check_total, _down, _is_number, _up
from .composition import optimal_composition_epsilon
from .families import NoiseFamily

__all__ = [
    "RISK_KINDS",
    "EpsilonRisk",
    "PosteriorRisk",
    "ProfileRisk",
    "QueryRisk",
    "Risk",
    "TprRisk",
    "epsilon_for_tpr",
    "implied_risk",
    "posterior_failure_probability",
    "query_risk",
    "rho_for_tpr",
    "risk_epsilon",
    "risk_posterior",
    "risk_profile",
    "risk_tpr",
    "total_for_risk",
]


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
    however close t is to α. Both are rounded down; tests/helpers/budget/test_risk.py checks the
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
        # the factor over the baseline, rounded up: at a small FPR a small TPR is a large jump
        # (a TPR of 0.05 at an FPR of 0.001 is 50 times it), as riskcal's authors warn
        factor = Context(prec=2, rounding=ROUND_CEILING).divide(
            Decimal(repr(self.level)), Decimal(repr(self.fpr))
        )
        return (
            f"best test's TPR ≤ {self.level:g} at FPR {100 * self.fpr:g} % "
            f"({format(factor.normalize(), 'f')} times the FPR)"
        )


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
    rho = float(check_open_unit("risk", check_finite_scalar("risk", risk, rule=RULE_OPEN_UNIT)))
    p = float(check_open_unit("prior", check_finite_scalar("prior", prior, rule=RULE_OPEN_UNIT)))
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
    t = float(check_open_unit("tpr", check_finite_scalar("tpr", tpr, rule=RULE_OPEN_UNIT)))
    a = float(check_open_unit("fpr", check_finite_scalar("fpr", fpr, rule=RULE_OPEN_UNIT)))
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
    t = float(check_positive("total", check_finite_scalar("total", total, rule=RULE_POSITIVE)))
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
    t = float(check_positive("total", check_finite_scalar("total", total, rule=RULE_POSITIVE)))
    d = family.reading_delta(delta)
    if family.pure:
        return 0.0
    epsilon = family.epsilon(t, d)
    if not math.isfinite(epsilon):  # no finite claim: the bound at ε = ∞ is 1, never exceeded
        return 0.0
    mu = math.sqrt(2 * t)
    return float(Gaussian(1.0, sensitivity=mu).delta_naive(epsilon))


class QueryRisk(NamedTuple):
    """The attack advantage of k = 1 … K identical Laplace releases (:func:`query_risk`).

    ``releases`` the k's (int64); ``baselines`` the κ's read; ``pld`` and ``standard`` arrays
    of shape (K, len(baselines) + 1): the advantage over each baseline, 1 − f(κ) − κ, then
    the worst case (the largest over κ), on the composed PLD and on the (ε, δ) curve of the
    optimal composition's ε (``epsilon``, one per k) at ``delta``.
    """

    releases: np.ndarray
    baselines: tuple
    epsilon: np.ndarray
    pld: np.ndarray
    standard: np.ndarray


def query_risk(scale, *, releases, delta, baselines=(0.01, 0.1), discretization=1e-4) -> QueryRisk:
    """The attack advantage of k Laplace releases of one scale, on their PLD and on (ε, δ).

    Kulynych et al. (2025)'s query-answering experiment: k = 1 … K releases of Laplace noise
    of scale b at Δ = 1 (each ε = 1/b), the advantage of the best attack over a baseline κ,
    1 − f(κ) − κ (:func:`helpers.attack.attack_success`), and in the worst case over κ
    (:func:`helpers.attack.attack_advantage`), read two ways:

    * on the releases' composed privacy-loss distribution (the trade-off curve f itself);
    * on the (ε, δ) trade-off curve (:func:`helpers.deployments.tpr_at_fpr`) of the ε a
      standard accountant gives at ``delta``: here Kairouz, Oh & Viswanath's optimal
      composition (:func:`optimal_composition_epsilon`), the tightest any (ε, δ) accountant
      can give for k ε-DP releases. The authors used the same theorem's closed-form bound
      (their Theorem 3.4), never smaller, so the gap shown here is never larger than theirs.
      Its worst case is at the curve's kink α* = (1 − δ)/(1 + e^ε): (e^ε − 1 + 2δ)/(e^ε + 1).

    Used in notebook 11.

    Parameters
    ----------
    scale : float
        b in [0.05, 10⁶], the Laplace noise scale of each release (Δ = 1).
    releases : int, keyword-only
        K, the most releases (1 to 200).
    delta : float, keyword-only
        δ in (0, 1) of the standard accountant.
    baselines : sequence of float, keyword-only
        1 to 20 κ's in (0, 1).
    discretization : float, keyword-only
        The PLD's grid step (:func:`helpers.attack.attack_tpr`).

    Returns
    -------
    QueryRisk

    Raises
    ------
    ValueError
        If an argument is out of range, NaN, or of the wrong type.

    References
    ----------
    Kulynych, Gomez, Kaissis, Hayes, Balle, du Pin Calmon & Raisaro (2025), "Unifying
    re-identification, attribute inference, and data reconstruction risks in differential
    privacy", NeurIPS 2025: the query-answering experiment of their code
    (``research/unifying_risk/simulation_code.py`` in riskcal's repository: k = 1 … 15,
    Laplace scale 5, δ = 10⁻⁵, baselines 0.01, 0.1 and the worst case); Kairouz, Oh &
    Viswanath (2015), Theorem 3.3 (optimal composition).

    Examples
    --------
    >>> q = query_risk(5.0, releases=2, delta=1e-5)
    >>> bool((q.pld <= q.standard + 1e-3).all())
    True
    """
    b = float(check_finite_scalar("scale", scale, rule="lie in [0.05, 1e6]"))
    if not 0.05 <= b <= 1e6:  # each ε = 1/b at most 20: the PLDs stay small and fast
        raise ValueError(f"scale must lie in [0.05, 1e6]; got {scale!r}")
    k_max = check_int_range("releases", releases, 1, 200)
    d = float(check_open_unit("delta", check_finite_scalar("delta", delta, rule=RULE_OPEN_UNIT)))
    given = check_open_unit("baselines", baselines)  # a ValueError for any bad entry
    if given.ndim > 1 or given.size == 0 or given.size > 20:
        raise ValueError(f"baselines must be 1 to 20 numbers in (0, 1); got {baselines!r}")
    kappas = tuple(float(k) for k in np.atleast_1d(given))
    ks = np.arange(1, k_max + 1, dtype=np.int64)
    one = 1.0 / b
    eps = np.array([optimal_composition_epsilon(d, epsilon=one, times=int(k)) for k in ks])
    pld = np.empty((k_max, len(kappas) + 1))
    standard = np.empty_like(pld)
    for i, k in enumerate(ks):
        mechanisms = [Laplace(b)] * int(k)
        for j, kappa in enumerate(kappas):
            pld[i, j] = (
                attack_success(mechanisms, baseline=kappa, discretization=discretization) - kappa
            )
            standard[i, j] = float(tpr_at_fpr(kappa, epsilon=eps[i], delta=d)) - kappa
        pld[i, -1] = attack_advantage(mechanisms, discretization=discretization)
        kink = (1.0 - d) / (1.0 + math.exp(eps[i]))
        standard[i, -1] = float(tpr_at_fpr(kink, epsilon=eps[i], delta=d)) - kink
    return QueryRisk(ks, kappas, eps, pld, standard)


fill_docstrings(globals(), _SECTIONS)
