"""Real deployments of differential privacy and three ways to read their ε.

Data: ``helpers/data/dp_deployments.csv`` (package data, read with :mod:`importlib.resources`),
facts about 41 deployments extracted from the OpenDP Deployments Registry
(github.com/opendp/deployments-registry-data, commit 3e9c812, MIT License, Copyright (c) 2025
OpenDP; see ``helpers/data/README.md``). :func:`load` returns every row
with a ``status`` column ("usable" or the reason it is not): nothing is dropped silently.

Conversions from ρ_z-zero-concentrated DP (code name ``rho``) to (ε, δ)-DP:

* :func:`zcdp_to_epsilon`, the conversion of Canonne, Kamath & Steinke (2020), Corollary 13:
  ε = inf_{α>1} [ αρ_z + (ln(1/δ) + (α−1)·ln(1 − 1/α) − ln α) / (α−1) ];
* :func:`zcdp_to_epsilon_simple`, Bun & Steinke (2016), Proposition 1.3: ε = ρ_z + 2√(ρ_z ln(1/δ));
* :func:`gaussian_epsilon`, the exact (ε, δ) curve of one Gaussian mechanism with
  μ = √(2ρ_z) (Balle & Wang 2018, Theorem 8), tighter but only for that mechanism.

Three views of an (ε, δ) guarantee, each a function here:

1. :func:`posterior_bound`: Lee & Clifton's largest posterior of an adversary deciding
   between two worlds with prior ``prior``: p·e^ε / (p·e^ε + 1 − p);
2. :func:`helpers.kazan_reiter.relative_risk_bound` (Kazan & Reiter, Theorem 1), re-exported
   here as :func:`relative_risk_bound`;
3. :func:`tpr_at_fpr` and :func:`gaussian_tpr_at_fpr`: the power (true-positive rate) of the
   best test between neighbours (a membership test under add-remove, a test between two
   values of one record under change-one) at a false-positive rate, from the (ε, δ) trade-off curve
   f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)) (Dong, Roth & Su 2022, the trade-off
   function of (ε, δ)-DP; Kairouz, Oh & Viswanath 2015) or from the Gaussian curve G_μ(α) = Φ(Φ⁻¹(1 − α) − μ).

The math layer: no plotting, no widgets.
"""

from __future__ import annotations

import functools
import math
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import norm

from .._numerics import bisect_increasing, nudge_until
from .._validation import (
    as_output,
    check_finite_scalar,
    check_nonnegative,
    check_open_unit,
    check_real_or_inf,
)
from ..kazan_reiter import relative_risk_bound
from ..mechanisms import Gaussian

__all__ = [
    "CENSUS_2020",
    "DATA_PATH",
    "DEFAULT_DELTA",
    "MAX_CKS_VALUES",
    "MAX_GAUSSIAN_EPSILON_VALUES",
    "MAX_RHO",
    "MAX_RHO_FOR_EPSILON_VALUES",
    "UNIT_GROUPS",
    "gaussian_epsilon",
    "gaussian_tpr_at_fpr",
    "load",
    "opendp_epsilon",
    "posterior_bad_event_probability",
    "posterior_bound",
    "relative_risk_bound",
    "three_views",
    "tpr_at_fpr",
    "unit_group",
    "usable",
    "zcdp_rho_for_epsilon",
    "zcdp_to_epsilon",
    "zcdp_to_epsilon_simple",
    "zcdp_tpr",
]

#: The registry table, shipped inside the package (``helpers/data/``, in the wheel too): a
#: :class:`importlib.resources.abc.Traversable`, a plain :class:`~pathlib.Path` when the
#: package is installed from a wheel or in editable mode.
DATA_PATH = resources.files("helpers") / "data" / "dp_deployments.csv"

#: OpenDP's ε for each zCDP row of the registry (its ``make_zCDP_to_approxDP``), computed with
#: OpenDP and stored, so that notebook 09 needs no OpenDP at run time; the tests recompute
#: every row with OpenDP (tests/helpers/test_deployments.py writes the file).
OPENDP_PATH = resources.files("helpers") / "data" / "opendp_zcdp_epsilon.csv"

#: δ assumed for a zCDP row that publishes only ρ_z: the U.S. Census Bureau's own choice
#: when it states (ε, δ) equivalents of its ρ_z (registry: redistricting data, δ = 10⁻¹⁰).
DEFAULT_DELTA = 1e-10

#: The registry's prose for the 2020 redistricting data (census_redistricting_data.yaml):
#: the person tables used ρ_z = 2.56 "corresponding to ε = 17.14 and δ = 10⁻¹⁰", the
#: housing-unit tables ρ_z = 0.07 "corresponding to ε = 2.47 and δ = 10⁻¹⁰". The only
#: numbers in this module typed from a source: the source's claim, to be checked.
CENSUS_2020 = pd.DataFrame(
    {
        "tables": ["person", "housing unit"],
        "rho": [2.56, 0.07],
        "delta": [1e-10, 1e-10],
        "epsilon_stated": [17.14, 2.47],
    }
)


# --- checks -------------------------------------------------------------------------------


#: Largest ρ_z (and ε for the inverse conversion) accepted: far beyond any deployment
#: (the largest in the registry is about 20), and small enough that ρ_z·ln(1/δ) and e^{2u}
#: in the conversions stay finite for every δ a float can hold.
MAX_RHO = 1e8

#: Work budgets of the searches, in values per call (each value is one vectorised search:
#: 200 bisection steps for the CKS conversion, 200 steps of the Gaussian δ(ε) for the exact
#: Gaussian ε, up to ~30 doublings and 200 steps of the CKS conversion itself for its inverse).
#: About a second or two each at the budget; more values are refused up front, naming the size.
MAX_CKS_VALUES = 10**6
MAX_GAUSSIAN_EPSILON_VALUES = 2 * 10**4
MAX_RHO_FOR_EPSILON_VALUES = 10**4


def _check_work(names: str, shape: tuple, budget: int, budget_name: str) -> None:
    """Refuse, before any work, a broadcast shape with more values than the search's budget."""
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if size > budget:
        raise ValueError(
            f"{names} ask for {size:,} searches (broadcast shape {tuple(shape)}), over the work "
            f"budget {budget_name} = {budget:,}; pass fewer values per call"
        )


def _check_rho(rho, name: str = "rho") -> np.ndarray:
    r = check_real_or_inf(name, rho, "a real number ≥ 0 (ρ_z of zCDP)")
    bad = (r < 0) | ~(r <= MAX_RHO)
    if np.any(bad):
        raise ValueError(
            f"{name} must lie in [0, {MAX_RHO:g}] (ρ_z of zCDP); got {r[bad].ravel()[:3]!r}"
        )
    return r


def _check_delta_open(delta) -> np.ndarray:
    try:
        return check_open_unit("delta", delta)
    except ValueError as error:
        raise ValueError(f"{error} (δ of (ε, δ)-DP; use a pure-DP function for δ = 0)") from None


def _check_delta(delta) -> np.ndarray:
    """δ in [0, 1)."""
    d = check_nonnegative("delta", delta)
    if np.any(d >= 1):
        raise ValueError(f"delta must lie in [0, 1); got {d[d >= 1].ravel()[:3]!r}")
    return d


def _check_fpr(fpr) -> np.ndarray:
    a = check_nonnegative("fpr", fpr)
    if np.any(a > 1):
        raise ValueError(f"fpr (a false-positive rate) must lie in [0, 1]; got {a[a > 1][:3]!r}")
    return a


# --- zCDP → (ε, δ) ------------------------------------------------------------------------


def _cks(rho: np.ndarray, log_inv_delta: np.ndarray) -> np.ndarray:
    """CKS 2020, Corollary 13, for validated arrays (ρ_z > 0 and δ in (0, 1), same shape).

    ε(α) = αρ + (L − ln α)/(α − 1) + ln(1 − 1/α) with L = ln(1/δ) has derivative
    ε'(α) = ρ − (L − ln α)/(α − 1)² (the other two terms' derivatives cancel), so its unique
    minimiser over α > 1 is the root of the increasing g(α) = ρ(α − 1)² + ln α − L, which lies
    below 1 + √(L/ρ) (where g = ln α > 0). Found by bisection on u = ln(α − 1) ∈
    [ln √(L/ρ) − 200, ln √(L/ρ)], in log space: ln α = log1p(e^u), ln(1 − 1/α) = u − ln α.
    Any α > 1 gives a valid ε, so even an unconverged end point would be a true (looser) bound.
    """
    L = log_inv_delta
    u_high = 0.5 * (np.log(L) - np.log(rho))

    def g(u):
        return rho * np.exp(2 * u) + np.log1p(np.exp(u)) - L

    u = bisect_increasing(g, u_high - 200.0, u_high)
    log_alpha = np.log1p(np.exp(u))
    alpha = np.exp(log_alpha)
    # ln(1 − 1/α) = −ln(1 + e^{−u}), not u − ln α (two logs near ln α that cancel: 1e-15 off
    # at ρ_z = 2e-6, 4e-14 of ε, and below the true infimum)
    terms = (alpha * rho, (L - log_alpha) * np.exp(-u), -np.log1p(np.exp(-u)))
    # rounded up by a bound on the rounding error of the three terms and of L − ln α (each
    # within a few units in the last place of its operands): an upper bound on ε(α), never
    # the hair below it that floats can give
    size = np.abs(terms[0]) + (np.abs(L) + np.abs(log_alpha)) * np.exp(-u) + np.abs(terms[2])
    eps = sum(terms) + _OUTWARD * size
    simple = (rho + 2 * np.sqrt(rho * L)) * (1 + _OUTWARD)
    # ε ≥ 0 ((ε, δ)-DP with ε < 0 implies (0, δ)-DP), and never above the simple bound, which
    # is min over α of αρ + L/(α − 1) (the two dropped terms are negative)
    return np.clip(eps, 0.0, simple)


# relative size of the outward rounding of a computed ε: 16 units in the last place
_OUTWARD = 16 * np.finfo(float).eps


def _cks_checked(r: np.ndarray, d: np.ndarray) -> np.ndarray:
    r, d = np.broadcast_arrays(r, d)
    out = np.zeros(r.shape)
    positive = r > 0
    if np.any(positive):
        out[positive] = _cks(r[positive], -np.log(d[positive]))
    return out


def zcdp_to_epsilon(rho, delta):
    """ε such that ρ_z-zCDP implies (ε, δ)-DP: Canonne, Kamath & Steinke (2020), Corollary 13.

    ε = inf_{α>1} [ αρ_z + (ln(1/δ) + (α − 1)·ln(1 − 1/α) − ln α) / (α − 1) ].

    The infimum is attained where ρ_z(α − 1)² + ln α = ln(1/δ) (see ``_cks``), found by a
    vectorised bisection. This is the conversion OpenDP implements (``make_zCDP_to_approxDP``);
    the tests check the two agree. Always ≤ :func:`zcdp_to_epsilon_simple`. Vectorised over
    ``rho`` and ``delta`` (broadcast).

    Used in notebooks 09 and 11.

    Parameters
    ----------
    rho : float or array
        ρ_z ≥ 0, the zCDP parameter.
    delta : float or array
        δ in (0, 1).

    Returns
    -------
    float or numpy.ndarray
        ε: a Python float for scalar input, else an array of the broadcast shape. Rounded up
        (toward the weaker guarantee): the ε(α) at the bisected α plus a bound on its rounding
        error, so it is never below the true infimum.

    Examples
    --------
    >>> round(zcdp_to_epsilon(2.56, 1e-10), 4)  # the Census person tables
    17.1583
    >>> zcdp_to_epsilon(np.array([0.0, 0.07]), 1e-10).round(4)
    array([0.    , 2.3873])
    """
    r, d = _check_rho(rho), _check_delta_open(delta)
    _check_work(
        "rho and delta", np.broadcast_shapes(r.shape, d.shape), MAX_CKS_VALUES, "MAX_CKS_VALUES"
    )
    return as_output(_cks_checked(r, d))


def zcdp_to_epsilon_simple(rho, delta):
    """The simple conversion ε = ρ_z + 2√(ρ_z ln(1/δ)) (Bun & Steinke 2016, Proposition 1.3).

    Rounded up by a bound on its rounding error (never below the true value).

    Used in notebook 09.

    Returns
    -------
    float or numpy.ndarray
        ε: a Python float for scalar input, else an array of the broadcast shape of ``rho``
        and ``delta``.

    Examples
    --------
    >>> round(zcdp_to_epsilon_simple(2.56, 1e-10), 4)
    17.9153
    """
    r = _check_rho(rho)
    d = _check_delta_open(delta)
    simple = r + 2 * np.sqrt(r * -np.log(d))
    # rounded up by its rounding error (a few units: the log, the product, the root, the sum),
    # so the ε of a mechanism is never reported below its true value
    return as_output(simple + _OUTWARD * simple)


def opendp_epsilon(rho, delta):
    """OpenDP's ε for ρ_z-zCDP at δ, as stored for the registry's zCDP rows.

    OpenDP's ``make_zCDP_to_approxDP`` applied to a Gaussian mechanism of scale 1/√(2ρ_z) on a
    sensitivity-1 query (exactly ρ_z-zCDP): the independent implementation of Canonne, Kamath &
    Steinke (2020), Corollary 13, that :func:`zcdp_to_epsilon` is checked against. The values
    were computed with OpenDP and ship in ``helpers/data/opendp_zcdp_epsilon.csv`` (the tests
    recompute each with OpenDP), so only the (ρ_z, δ) of the registry's zCDP rows, as
    :func:`load` gives them, are available. Vectorised over ``rho`` and ``delta`` (broadcast).

    Used in notebook 09.

    Parameters
    ----------
    rho : float or array
        ρ_z of a zCDP row of the registry.
    delta : float or array
        The δ that row is read at (``delta_used`` of :func:`load`).

    Returns
    -------
    float or numpy.ndarray
        OpenDP's ε: a Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        For a pair (ρ_z, δ) that is not one of the stored rows (the message lists them).

    Examples
    --------
    >>> round(opendp_epsilon(2.63, 1e-10), 4)  # the 2020 redistricting data
    17.4306
    """
    r, d = np.broadcast_arrays(_check_rho(rho), _check_delta_open(delta))
    table = pd.read_csv(OPENDP_PATH, comment="#")  # nine rows: read, not cached
    stored_rho, stored_delta = table["rho"].to_numpy(), table["delta"].to_numpy()
    match = (r[..., None] == stored_rho) & (d[..., None] == stored_delta)  # (..., rows)
    found = match.any(axis=-1)
    if not found.all():
        index = np.argwhere(~found)[0]
        pairs = ", ".join(f"({a:g}, {b:g})" for a, b in zip(stored_rho, stored_delta, strict=True))
        raise ValueError(
            f"(rho, delta) = ({float(r[tuple(index)])!r}, {float(d[tuple(index)])!r}) is not "
            f"stored: OpenDP's epsilon is stored for the registry's zCDP rows only, {pairs}"
        )
    out = table["epsilon"].to_numpy()[match.argmax(axis=-1)]
    return as_output(out)


def _gaussian_delta(epsilon: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """δ(ε) of Balle & Wang (2018), Theorem 8: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).

    The Gaussian mechanism with Δ/σ = μ, from :class:`helpers.mechanisms.Gaussian`, which
    computes it without cancellation. (A copy here took ln of both terms and called δ = 0
    wherever they rounded equal: at ρ_z = 1e-40, δ(0) ≈ 5.6e-21 was 0, so every δ above 0
    was "met" at ε = 0.)
    """
    return np.asarray(Gaussian(np.ones_like(mu), sensitivity=mu).delta(epsilon), dtype=float)


def gaussian_epsilon(rho, delta):
    """The exact ε at δ of one Gaussian mechanism with μ = √(2ρ_z) (Balle & Wang 2018, Thm 8).

    Solves Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) = δ for ε ≥ 0 (0 if δ is already met at ε = 0)
    by a vectorised bisection on δ(ε), which decreases in ε, between 0 and the CKS ε + 1
    (the Gaussian is ρ_z-zCDP, so the CKS ε already meets δ). The end of the final bracket
    where δ(ε) ≤ δ is returned: rounded up, never an ε whose δ exceeds the target.
    Only for a single Gaussian mechanism (or a composition of them: their μ's add in squares,
    exactly as ρ_z adds); a general ρ_z-zCDP mechanism needs :func:`zcdp_to_epsilon`.

    Used in notebook 09.

    Returns
    -------
    float or numpy.ndarray
        ε: a Python float for scalar input, else an array of the broadcast shape of ``rho``
        and ``delta``.

    Examples
    --------
    >>> round(gaussian_epsilon(2.56, 1e-10), 4)  # below the CKS 17.1583
    16.4794
    """
    r, d = _check_rho(rho), _check_delta_open(delta)
    _check_work(
        "rho and delta",
        np.broadcast_shapes(r.shape, d.shape),
        MAX_GAUSSIAN_EPSILON_VALUES,
        "MAX_GAUSSIAN_EPSILON_VALUES",
    )
    r, d = np.broadcast_arrays(r, d)
    out = np.zeros(r.shape)
    positive = r > 0
    if np.any(positive):
        rp, dp_ = r[positive], d[positive]
        mu = np.sqrt(2 * rp)
        high = _cks(rp, -np.log(dp_)) + 1.0
        eps = bisect_increasing(
            lambda e: np.where(_gaussian_delta(e, mu) <= dp_, 1.0, -1.0),
            np.zeros_like(rp),
            high,
            side="high",
        )
        met_at_zero = _gaussian_delta(np.zeros_like(rp), mu) <= dp_
        out[positive] = np.where(met_at_zero, 0.0, eps)
    return as_output(out)


def zcdp_rho_for_epsilon(epsilon, delta):
    """The ρ_z whose :func:`zcdp_to_epsilon` at ``delta`` equals ``epsilon`` (its inverse).

    ε(ρ_z) increases from 0 without bound; the bracket [0, high] doubles ``high`` until
    ε(high) ≥ ε, then a vectorised bisection. Rounded toward privacy: the low end of the final
    bracket, moved down a double at a time until ``zcdp_to_epsilon(ρ_z, delta) ≤ epsilon``.

    Used in notebook 09.

    Returns
    -------
    float or numpy.ndarray
        ρ_z: a Python float for scalar input, else an array of the broadcast shape of
        ``epsilon`` and ``delta``.

    Examples
    --------
    >>> zcdp_rho_for_epsilon(np.array([17.14, 2.47]), 1e-10).round(4)
    array([2.5553, 0.0747])
    """
    e, d = _check_rho(epsilon, "epsilon"), _check_delta_open(delta)
    _check_work(
        "epsilon and delta",
        np.broadcast_shapes(e.shape, d.shape),
        MAX_RHO_FOR_EPSILON_VALUES,
        "MAX_RHO_FOR_EPSILON_VALUES",
    )
    e, d = np.broadcast_arrays(e, d)
    out = np.zeros(e.shape)
    positive = e > 0
    if np.any(positive):
        ep, L = e[positive], -np.log(d[positive])
        high = ep.copy()
        while np.any(short := _cks(high, L) < ep):
            high = np.where(short, 2 * high, high)
        low = bisect_increasing(
            lambda r: _cks(np.maximum(r, 1e-300), L) - ep, np.zeros_like(ep), high, side="low"
        )
        out[positive] = nudge_until(
            low, lambda r: (r == 0) | (_cks(np.maximum(r, 1e-300), L) <= ep), toward_zero=True
        )
    return as_output(out)


# --- the data -----------------------------------------------------------------------------


def _status(row: pd.Series) -> str:
    eps, delta, rho = row["epsilon"], row["delta"], row["rho"]
    variant = row["dp_variant"]
    has_eps, has_delta, has_rho = (not pd.isna(x) for x in (eps, delta, rho))
    if not (has_eps or has_delta or has_rho):
        if pd.isna(variant):
            return "privacy parameters and DP variant not in the registry"
        return "privacy parameters not in the registry"
    if variant == "Pure DP" and has_delta and delta > 0:
        return f"'Pure DP' row that states δ = {delta:g}: variant and parameters disagree"
    if variant == "Approximate DP" and has_eps and not has_delta:
        return "Approximate DP with ε but no numeric δ (the registry gives δ as a formula)"
    if variant == "Zero-concentrated DP" and has_rho:
        return "usable"
    if variant == "Pure DP" and has_eps:
        return "usable"
    if variant == "Approximate DP" and has_eps and has_delta:
        return "usable"
    return f"parameters do not fit the variant {variant!r} (ε={eps}, δ={delta}, ρ_z={rho})"


#: Privacy-unit groups, finest first: in the order of how much of one person's data one unit
#: can cover. A "part of" group is a slice of the group after it that one person can hold
#: several of at once (devices, countries, quarter-days, capped bundles of pageviews), so ε per
#: unit protects less than the whole day or month; "one device of a user" covers a device's
#: whole history but not a person with several devices. Time slices and devices are not nested
#: (a device is not a part of a month), so the order is by span: an event, under a day, a day,
#: under a month, a month, a device over its life, a person.
UNIT_GROUPS = (
    "one event or record",
    "part of a day of a user",
    "one day of a user",
    "part of a month of a user",
    "one month of a user",
    "one device of a user",
    "one person or entity",
    "not stated",
)

# the words of a registry privacy unit ("User-quarter-day-level" → user, quarter, day), by
# what they say; "level" says nothing
_EVENT_WORDS = frozenset({"event", "record", "tuple", "trip"})
_DAY_SLICES = frozenset({"quarter", "hour", "device", "bounded", "contribution"})
_MONTH_SLICES = frozenset({"country", "device"})
_ENTITY_WORDS = frozenset(
    {"user", "person", "individual", "account", "birth", "business", "establishment"}
    | {"housing", "unit", "household", "customer", "entity"}
)
_NOT_A_UNIT = frozenset({"aggregate", "statistics"})
_KNOWN_WORDS = (
    _EVENT_WORDS
    | _DAY_SLICES
    | _MONTH_SLICES
    | _ENTITY_WORDS
    | _NOT_A_UNIT
    | {"day", "month", "device", "level"}
)


def unit_group(privacy_unit) -> str:
    """The group of a registry ``privacy_unit`` string: the finest unit it states.

    One of :data:`UNIT_GROUPS`. An ε per *event* protects one event of a person (a person
    with 100 events may lose up to 100ε); per *user-day* one day; per *user* (or person)
    everything about the person. The finest word decides, whatever coarser words stand beside
    it:

    * an event, record, tuple or trip: "one event or record" ("Event-Month-level" is one
      event, a hire, in a monthly release; "User-trip-level" one trip of a user);
    * a day cut finer, by a quarter-day or an hour, by a device (one person may use several)
      or by a capped bundle of contributions ("Bounded contribution-day": a fixed number of
      pageviews in a day): "part of a day of a user"; a plain user-day: "one day of a user";
    * a month cut by country or device: "part of a month of a user"; a plain (user or
      account) month: "one month of a user";
    * a device with no time window ("User-device-level"): "one device of a user";
    * a user, person, individual, customer account, birth, business establishment or
      housing unit: "one person or entity";
    * no unit, an aggregate ("Aggregate-level") or a word this function does not know:
      "not stated" (it never guesses a coarser unit than the record states).

    Not called in a notebook; used by ``helpers.deployments``. (:func:`load` fills its
    ``unit_group`` column with it.)

    Returns
    -------
    str
        One of :data:`UNIT_GROUPS`.

    Examples
    --------
    >>> unit_group('User-day-level'), unit_group('Device-day-level')
    ('one day of a user', 'part of a day of a user')
    >>> unit_group('Event-Month-level'), unit_group('Person-level')
    ('one event or record', 'one person or entity')
    """
    if privacy_unit is None or (isinstance(privacy_unit, float) and math.isnan(privacy_unit)):
        return "not stated"
    if not isinstance(privacy_unit, str):  # a number is not a unit (it was read as a person)
        raise ValueError(
            f"privacy_unit must be a string (the registry's privacy unit) or None; got "
            f"{privacy_unit!r}"
        )
    words = set(re.findall(r"[a-z]+", privacy_unit.lower()))
    if not words <= _KNOWN_WORDS or words <= _NOT_A_UNIT | {"level"}:
        return "not stated"
    if words & _EVENT_WORDS:
        return "one event or record"
    if "day" in words:
        return "part of a day of a user" if words & _DAY_SLICES else "one day of a user"
    if "month" in words:
        return "part of a month of a user" if words & _MONTH_SLICES else "one month of a user"
    if "device" in words:
        return "one device of a user"
    if words & _ENTITY_WORDS:
        return "one person or entity"
    return "not stated"


def _smallest_printed(value: float) -> float:
    """The smallest number that rounds to ``value`` as the registry prints it (its shortest
    decimal form: 0.0728 stands for [0.07275, 0.07285))."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return float(value)
    return float(value) - 0.5 * 10.0 ** -len(text.split(".")[1])


def load(path: str | Path | None = None, *, default_delta: float = DEFAULT_DELTA) -> pd.DataFrame:
    """The deployments table, one row per deployment, with what the course computes from it.

    Added columns:

    * ``status``: ``"usable"`` or the reason the row cannot be read as (ε, δ);
    * ``epsilon_used``, ``delta_used``: the (ε, δ) the three views use (NaN if not usable):
      as published for pure (δ = 0) and approximate DP; for a zCDP row, the published
      (ε, δ) when the registry gives one and it is no smaller than ρ_z's own conversion at that
      δ (for the smallest ρ_z that rounds to the printed value), else ρ_z converted by
      :func:`zcdp_to_epsilon` (at the published δ, or at ``default_delta``, 10⁻¹⁰, the Census
      Bureau's own choice, when none is given): the conservative reading;
    * ``unit_group``: the privacy-unit group, the finest unit the row states (:func:`unit_group`);
    * ``basis``: where ``epsilon_used`` comes from, in words;
    * ``epsilon_cks``, ``epsilon_simple``: both conversions of ρ_z at ``delta_used`` (zCDP rows).

    Used in notebook 09.

    Parameters
    ----------
    path : str or Path, optional
        The CSV (default: the course's copy, :data:`DATA_PATH`).
    default_delta : float
        δ in (0, 1) for zCDP rows that give only ρ_z.

    Returns
    -------
    pandas.DataFrame
        Every row of the CSV, in its order, with the added columns above.

    Examples
    --------
    >>> table = load()
    >>> len(table), int((table['status'] == 'usable').sum())
    (41, 33)
    """
    default_delta = float(_check_delta_open(check_finite_scalar("default_delta", default_delta)))
    if path is None:
        with DATA_PATH.open("rb") as data:
            table = pd.read_csv(data)
    else:
        table = pd.read_csv(path)
    table["status"] = table.apply(_status, axis=1)
    table["unit_group"] = table["privacy_unit"].map(unit_group)
    use = table["status"] == "usable"
    zcdp = use & (table["dp_variant"] == "Zero-concentrated DP")
    given = zcdp & table["epsilon"].notna() & table["delta"].notna()
    convert = zcdp & ~given
    table["delta_used"] = np.where(
        use, np.where(convert, default_delta, table["delta"].fillna(0.0)), np.nan
    )
    rho = table["rho"].where(zcdp)
    table["epsilon_cks"] = np.nan
    table["epsilon_simple"] = np.nan
    if zcdp.any():
        table.loc[zcdp, "epsilon_cks"] = zcdp_to_epsilon(
            rho[zcdp].to_numpy(), table.loc[zcdp, "delta_used"].to_numpy()
        )
        table.loc[zcdp, "epsilon_simple"] = zcdp_to_epsilon_simple(
            rho[zcdp].to_numpy(), table.loc[zcdp, "delta_used"].to_numpy()
        )
    # the conservative reading: a published ε below what its own ρ_z guarantees (even at the
    # smallest ρ_z that rounds to the printed one) rests on more than zCDP, e.g. on all noise
    # being Gaussian; then ρ_z's conversion at the published δ is used
    below = pd.Series(False, index=table.index)
    if given.any():
        low = np.array([_smallest_printed(value) for value in rho[given]])
        floor = zcdp_to_epsilon(low, table.loc[given, "delta_used"].to_numpy())
        below[given] = table.loc[given, "epsilon"].to_numpy() < floor
    table["epsilon_used"] = np.where(
        convert | below, table["epsilon_cks"], table["epsilon"].where(use)
    ).astype(float)
    table["basis"] = np.select(
        [convert, below, given, use & (table["dp_variant"] == "Pure DP"), use],
        [
            f"ρ_z converted (CKS 2020) at δ = {default_delta:g} (assumed)",
            "ρ_z converted (CKS 2020) at the published δ: the published ε is below what ρ_z "
            "alone guarantees (it assumes more than zCDP, e.g. Gaussian noise)",
            "(ε, δ) as published (also gives ρ_z)",
            "ε as published (pure DP, δ = 0)",
            "(ε, δ) as published",
        ],
        default="",
    )
    return table


def usable(table: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of :func:`load` whose status is ``"usable"``, sorted by ``epsilon_used``.

    Used in notebooks 09 and 11.

    Parameters
    ----------
    table : pandas.DataFrame, optional
        A table from :func:`load` (default: ``load()``).

    Returns
    -------
    pandas.DataFrame
        The usable rows, sorted by ``epsilon_used``, with a fresh index 0, 1, ….

    Examples
    --------
    >>> len(usable())
    33
    """
    table = load() if table is None else table
    if not isinstance(table, pd.DataFrame) or not {"status", "epsilon_used"} <= set(table):
        raise ValueError(
            "table must be a table from load() (a DataFrame with 'status' and 'epsilon_used' "
            f"columns); got {type(table).__name__} {str(table)[:80]!r}"
        )
    return table[table["status"] == "usable"].sort_values("epsilon_used").reset_index(drop=True)


# --- view 1: Lee & Clifton's posterior, two worlds ----------------------------------------


def posterior_bound(epsilon, *, prior=0.5):
    """Largest posterior an adversary deciding between two worlds can reach after an ε-DP release.

    With prior p on the true world, Bayes' rule and the ε-DP likelihood ratio ≤ e^ε give
    posterior ≤ p·e^ε / (p·e^ε + 1 − p) = 1 / (1 + (1 − p)/p · e^{−ε}) (Lee & Clifton 2011,
    eq. (4)–(5) with two worlds and Δv = Δf, the worst case). Computed as
    p/(p + (1 − p)e^{−ε}), within about 2 units in the last place. ``epsilon`` may be inf
    (bound 1).

    For (ε, δ)-DP the bound read at ε + s (not at ε) holds outside a bad event of
    probability at most δ/(1 − e^{−s}), 2δ at s = ln 2 (:func:`posterior_bad_event_probability`).
    The bound read at ε itself fails exactly where the privacy loss exceeds ε, with
    probability δ₁ = P[ℒ > ε] (notebook 08), which δ does not bound by any fixed multiple.

    Used in notebooks 09, 11 and 12.

    Returns
    -------
    float or numpy.ndarray
        The largest posterior: a Python float for scalar input, else an array of the
        broadcast shape of ``epsilon`` and ``prior``.

    Examples
    --------
    >>> round(posterior_bound(1.0, prior=0.5), 4)
    0.7311
    >>> posterior_bound(np.inf, prior=0.1)
    1.0
    """
    eps = check_real_or_inf("epsilon", epsilon, "a number ≥ 0 or inf")
    if np.any(eps < 0):
        raise ValueError(f"epsilon must be ≥ 0; got {eps[eps < 0].ravel()[:3]!r}")
    p = check_open_unit("prior", prior)
    # p/(p + (1 − p)e^{−ε}): e^{−ε} ∈ [0, 1] never overflows, ε = 0 gives the prior itself and
    # the error is about 2 units in the last place (expit(ε + ln p − ln(1 − p)) was off by up to
    # ~1000 units where ln p is large, and above the prior at ε = 0)
    return as_output(p / (p + (1 - p) * np.exp(-eps)))


def posterior_bad_event_probability(delta, *, slack):
    """How often (ε, δ)-DP may break the posterior bound at ε + ``slack``: δ / (1 − e^{−slack}).

    For an (ε, δ)-DP release between worlds P and Q, let L = ln(P(o)/Q(o)) be the privacy
    loss. Since δ ≥ P(L > ε') − e^ε Q(L > ε') and Q(L > ε') ≤ e^{−ε'} P(L > ε'),
    P(L > ε') ≤ δ / (1 − e^{ε − ε'}). Outside {L > ε'}, Bayes' rule gives the posterior
    bound of :func:`posterior_bound` at ε' = ε + slack. So δ enters as the probability of
    an output on which the reading at ε + slack may fail (with slack = ln 2 it is at most
    2δ); the reading at ε itself fails with probability P(L > ε), which δ does not bound.

    Not called in a notebook; used by ``helpers.deployments``. (:func:`three_views` reports
    it as ``bad_event``.)

    Returns
    -------
    float or numpy.ndarray
        The probability, at most 1: a Python float for scalar input, else an array of the
        broadcast shape of ``delta`` and ``slack``.

    Examples
    --------
    >>> posterior_bad_event_probability(1e-6, slack=np.log(2))
    2e-06
    """
    d = _check_delta(delta)
    s = check_real_or_inf("slack", slack, "a number > 0")
    if np.any(s <= 0):
        raise ValueError(f"slack must be > 0; got {s[s <= 0].ravel()[:3]!r}")
    with np.errstate(over="ignore", divide="ignore"):  # a slack of 1e-320: the bound is 1
        return as_output(np.minimum(d / -np.expm1(-s), 1.0))


# --- view 3: hypothesis testing (f-DP) ----------------------------------------------------


def tpr_at_fpr(fpr, *, epsilon, delta=0.0):
    """Largest true-positive rate of any test between neighbours at FPR α under (ε, δ)-DP.

    A membership test (in or out) under add-remove neighbours; under change-one neighbours
    the same curve bounds a test between two values of one record.

    1 − f(α) with the (ε, δ) trade-off curve f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))
    (the trade-off function f_{ε,δ} of Dong, Roth & Su 2022): TPR = min(1, δ + e^ε α,
    1 − e^{−ε}(1 − δ − α)).
    Tight: the four-point mechanism of Kairouz, Oh & Viswanath (2015) attains it.

    Used in notebooks 09 and 11.

    Returns
    -------
    float or numpy.ndarray
        The TPR in [0, 1]: a Python float for scalar input, else an array of the broadcast
        shape of ``fpr``, ``epsilon`` and ``delta``.

    Examples
    --------
    >>> round(tpr_at_fpr(0.01, epsilon=1.0), 6)  # e·0.01
    0.027183
    >>> tpr_at_fpr(0.01, epsilon=np.inf)
    1.0
    """
    a = _check_fpr(fpr)
    eps = check_real_or_inf("epsilon", epsilon, "a number ≥ 0 or inf")
    if np.any(eps < 0):
        raise ValueError(f"epsilon must be ≥ 0; got {eps[eps < 0].ravel()[:3]!r}")
    d = _check_delta(delta)
    with np.errstate(over="ignore", invalid="ignore"):
        line1 = np.where(a == 0, d, d + np.exp(eps) * a)
        # 1 − e^{−ε}(1 − δ − α) as (1 − e^{−ε}) + e^{−ε}(δ + α): no subtraction near 1 (at
        # ε = 1e-30 it lost δ + α = 2e-20 and gave a TPR of 0)
        line2 = -np.expm1(-eps) + np.exp(-eps) * (d + a)
    return as_output(np.clip(np.minimum(line1, line2), 0.0, 1.0))


def gaussian_tpr_at_fpr(fpr, *, rho):
    """Largest TPR at FPR α against a Gaussian mechanism with μ = √(2ρ_z): Φ(μ − Φ⁻¹(1 − α)).

    1 − G_μ(α), with G_μ the Gaussian trade-off function of Dong, Roth & Su (2022), under
    the assumption that the release is one Gaussian mechanism (or a composition of them)
    with total ρ_z: a Gaussian of sensitivity Δ and SD σ has ρ_z = Δ²/(2σ²) and μ = Δ/σ.
    Uses survival functions (``norm.sf``/``norm.isf``) to keep small rates accurate.

    Used in notebooks 09 and 11.

    Returns
    -------
    float or numpy.ndarray
        The TPR: a Python float for scalar input, else an array of the broadcast shape of
        ``fpr`` and ``rho``.

    Examples
    --------
    >>> round(gaussian_tpr_at_fpr(0.01, rho=0.5), 4)  # μ = 1
    0.0924
    """
    a = _check_fpr(fpr)
    mu = np.sqrt(2 * _check_rho(rho))
    return as_output(norm.sf(norm.isf(a) - mu))


#: Rényi orders α − 1 of the coarse search for the binding order (2 a decade from 1e-4 to
#: 1e8, beyond the order that binds at ρ_z = 1e-12), then refined around the best one of
#: each direction: seven finer grids of nine orders, each spanning the two cells either side
#: of the previous level's best, down to a spacing of 1.2e-7 in ln(α − 1). The order-1 limit
#: (KL) is solved on its own. Against the earlier bisection over 601 orders (a golden-section
#: search per step), over ρ_z in [1e-10, 30] and FPR in [1e-7, 0.9]: at most 1e-10 above it,
#: and up to 3e-9 below where it finds a tighter order (still a TPR some order forbids).
_ALPHA_MINUS_ONE = np.logspace(-4, 8, 25)
_REFINE_POINTS = 9
_REFINE_LEVELS = 7
#: safeguarded Newton steps of the TPR at one order (4–8 suffice; a step that leaves the
#: bracket is replaced by bisection, so every entry stays inside it)
_NEWTON_STEPS = 80
#: logit of the TPR above which the TPR rounds to 1 in floats
_Z_TOP = 40.0
#: the most (ρ_z, FPR) pairs one call computes: each costs 2 × (25 + 7·9 + 1) orders of a
#: vectorised root search of about a dozen steps (0.4 ms a pair), so 5,000 pairs take about
#: two seconds and 25 MB of temporaries
MAX_TPR_POINTS = 5_000


def _order_excess(z, lx, l1x, a_t, c):
    """(α−1)·D_α − ρ_z·α(α−1) and its derivative in z, for t = 1/(1 + e^{−z}), in log space.

    (α−1)D_α(Bern t ‖ Bern x) = ln(t^α x^{1−α} + (1−t)^α (1−x)^{1−α}) (``a_t`` = α) and
    (α−1)D_α(Bern x ‖ Bern t) is the same with ``a_t`` = 1 − α; both increase in t on
    [x, 1]. With w₁, w₂ the two terms' shares of the sum, the derivative in z is
    a_t·(w₁(1 − t) − w₂t) (dt/dz = t(1 − t)).
    """
    lt, l1t = -np.logaddexp(0.0, -z), -np.logaddexp(0.0, z)
    a_x = 1 - a_t
    p1, p2 = a_t * lt + a_x * lx, a_t * l1t + a_x * l1x
    total = np.logaddexp(p1, p2)
    slope = a_t * (np.exp(p1 - total + l1t) - np.exp(p2 - total + lt))
    return total - c, slope


def _kl_excess(z, x, lx, l1x, forward, rho):
    """The order-1 limit: KL(Bern t ‖ Bern x) − ρ_z (``forward``) or KL(Bern x ‖ Bern t) −
    ρ_z, and its derivative in z (t = 1/(1 + e^{−z})): ln(t/x) − ln((1 − t)/(1 − x)) times
    t(1 − t) forward, t − x backward."""
    lt, l1t = -np.logaddexp(0.0, -z), -np.logaddexp(0.0, z)
    t = np.exp(lt)
    ahead = t * (lt - lx) + np.exp(l1t) * (l1t - l1x)
    behind = x * (lx - lt) + (1 - x) * (l1x - l1t)
    value = np.where(forward, ahead, behind) - rho
    slope = np.where(forward, (lt - lx - l1t + l1x) * t * np.exp(l1t), t - x)
    return value, slope


def _tpr_at_order(excess, z_low, start):
    """Per entry, the logit z of the largest TPR one order and direction allow, rounded up:
    a z at which the excess is > 0 in floats (the order forbids it) and within a few units in
    the last place of the root, or :data:`_Z_TOP` (TPR 1) when none below is forbidden.

    Safeguarded Newton in z from ``start`` inside the bracket [z_low, _Z_TOP] (z_low, the
    FPR's logit, is allowed): a step that leaves the bracket is replaced by the bracket's
    midpoint; an entry stops moving once its step is at rounding level, so a vector follows
    the same steps as each entry alone.
    """
    shape = np.broadcast_shapes(np.shape(z_low), np.shape(start))
    low = np.broadcast_to(z_low, shape).copy()
    high = np.full(shape, _Z_TOP)
    z = np.clip(start, low, high)
    tiny = 4 * np.finfo(float).eps
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # an order too weak to bind allows every TPR that is not 1 in floats: done at once
        done = excess(high)[0] <= 0
        for _ in range(_NEWTON_STEPS):
            value, slope = excess(z)
            above = value > 0
            low = np.where(done | above, low, z)
            high = np.where(done | ~above, high, z)
            step = z - value / slope
            new = np.where((step >= low) & (step <= high), step, 0.5 * (low + high))
            # a Newton step of 1e-13 leaves z within rounding noise of the root (the excess
            # itself is only known to a few ulps of its terms)
            converged = (high - low <= tiny * np.abs(high)) | (
                np.abs(new - z) <= 1e-13 * np.maximum(np.abs(z), 1.0)
            )
            z = np.where(done, z, new)
            done = done | converged
            if np.all(done):
                break
        # the root is within rounding noise of z: the first of z and a few ulps to 2^14 ulps
        # above it that the order forbids, else the bracket's forbidden end
        for k in (2.0**14, 2.0**10, 2.0**6, 8.0, 1.0, 0.0):
            probe = z + k * np.finfo(float).eps * np.maximum(np.abs(z), 1.0)
            value, _ = excess(probe)
            high = np.where((value > 0) & (probe < high), probe, high)
    return high


def _zcdp_tpr_search(x, rho):
    """min over orders and both directions of :func:`_tpr_at_order`, for validated 1-d x in
    (0, 1) and ρ_z > 0.

    Every order's answer is a TPR that order forbids, so the minimum over any set of
    orders is an upper bound on the true edge (rounded toward privacy); the search only
    decides how close it comes. Each direction's edge is a smooth function of ln(α − 1)
    with one minimum; the two are searched apart (their minimum has a kink). Newton starts
    from the quadratic approximation D_α ≈ α(t − x)²/(2x(1 − x)), t ≈ x + √(2ρ_z x(1 − x)),
    on the coarse grid, and from the previous level's best on the finer ones.
    """
    n = x.size
    lx, l1x = np.log(x)[:, None, None], np.log1p(-x)[:, None, None]
    rho3 = rho[:, None, None]
    z_low = (lx - l1x).copy()
    guess = np.minimum(x + np.sqrt(2 * rho * x * (1 - x)), 0.5 * (1 + x))
    start = np.log(guess) - np.log1p(-guess)

    forward = np.array([True, False])[None, :, None]

    def solve(u, start):
        """Each direction's edge (axis 1: forward, backward) at the orders ln(α − 1) = u."""
        alpha_minus_one = np.exp(u)
        a_t = np.where(forward, 1 + alpha_minus_one, -alpha_minus_one)
        c = rho3 * (1 + alpha_minus_one) * alpha_minus_one
        excess = functools.partial(_order_excess, lx=lx, l1x=l1x, a_t=a_t, c=c)
        return _tpr_at_order(excess, np.broadcast_to(z_low, u.shape), start)

    u = np.broadcast_to(np.log(_ALPHA_MINUS_ONE), (n, 2, _ALPHA_MINUS_ONE.size))
    grid = solve(u, start[:, None, None])
    best = np.argmin(grid, axis=2)[..., None]
    answer = np.take_along_axis(grid, best, axis=2)  # (n, 2, 1)
    centre = np.take_along_axis(u, best, axis=2)
    width = np.log(_ALPHA_MINUS_ONE[1] / _ALPHA_MINUS_ONE[0])
    offsets = np.linspace(-1.0, 1.0, _REFINE_POINTS)
    for _ in range(_REFINE_LEVELS):
        orders = centre + width * offsets
        values = solve(orders, answer.min(axis=1, keepdims=True))
        best = np.argmin(values, axis=2)[..., None]
        answer = np.minimum(answer, np.take_along_axis(values, best, axis=2))
        centre = np.take_along_axis(orders, best, axis=2)
        width = 2 * width / (_REFINE_POINTS - 1)
    # the order-1 limit (KL), where the edge keeps falling as α → 1 (large ρ_z, small FPR)
    x3 = x[:, None, None]
    kl = functools.partial(_kl_excess, x=x3, lx=lx, l1x=l1x, forward=forward, rho=rho3)
    limit = _tpr_at_order(kl, np.broadcast_to(z_low, (n, 2, 1)), start[:, None, None])
    z = np.minimum(answer, limit).min(axis=(1, 2))
    # back to the TPR, rounded up by more than the few ulps 1/(1 + e^{−z}) may lose
    t = (1 + 8 * np.finfo(float).eps) / (1 + np.exp(-z))
    return np.where(z >= _Z_TOP, 1.0, np.minimum(t, 1.0))


def zcdp_tpr(rho, fpr):
    """Largest TPR at FPR α that ρ_z-zCDP alone allows: the trade-off curve of zCDP.

    ρ_z-zCDP bounds every Rényi divergence, D_α(P ‖ Q) ≤ ρ_z·α for all α > 1, in both
    directions between neighbours (Bun & Steinke 2016, Definition 1.1). A membership test is
    post-processing: its reject event has probability α (the FPR) on one neighbour and t (the
    TPR) on the other, so the two Bernoulli distributions must obey the same bounds
    (data processing; Balle et al. 2020, "Hypothesis testing interpretations and Rényi DP").
    The answer is the largest t ≥ α with D_α'(Bern t ‖ Bern α) ≤ ρ_z·α' and
    D_α'(Bern α ‖ Bern t) ≤ ρ_z·α' for every order α' ≥ 1 (the infimum over orders of the
    curves each order implies), found by bisection on t.

    This is what ρ_z says without knowing the mechanism. It lies between the
    (ε, δ)-curve of the converted guarantee (:func:`tpr_at_fpr` at
    ``zcdp_to_epsilon(ρ_z, δ)``, looser) and the Gaussian mechanism's own curve
    (:func:`gaussian_tpr_at_fpr`, tighter: it assumes the noise is Gaussian).

    Used in notebooks 09 and 11.

    Parameters
    ----------
    rho : float or array_like
        ρ_z in [0, ``MAX_RHO``].
    fpr : float or array_like
        The false-positive rate α in [0, 1]; broadcasts with ``rho``.

    Returns
    -------
    float or numpy.ndarray
        The TPR: a Python float for scalar input, else an array of the broadcast shape.
        Rounded up (the bisection returns the end of its bracket that is not proven
        allowed), so the reading never understates what an attacker can do.

    Raises
    ------
    ValueError
        If ``rho`` is negative, NaN or above ``MAX_RHO``, or ``fpr`` is outside [0, 1].

    References
    ----------
    Bun & Steinke (2016), Definition 1.1; Balle, Barthe, Gaboardi, Hsu & Sato (2020),
    Theorem 21 (Rényi DP as a bound on tests); Dong, Roth & Su (2022) for trade-off curves.

    Examples
    --------
    >>> round(zcdp_tpr(2.63, 0.01), 3)  # the 2020 Census redistricting data's ρ_z
    0.698
    >>> zcdp_tpr(0.0, 0.2)  # no information: the test is a coin
    0.2
    """
    r, a = _check_rho(rho), _check_fpr(fpr)
    shape = np.broadcast_shapes(r.shape, a.shape)
    size = math.prod(shape)
    if size > MAX_TPR_POINTS:
        raise ValueError(
            f"rho and fpr broadcast to {size:,} (ρ_z, FPR) pairs {shape}; zcdp_tpr computes "
            f"at most {MAX_TPR_POINTS:,} at once (MAX_TPR_POINTS): pass fewer FPRs or ρ_z"
        )
    r, a = np.broadcast_arrays(r, a)
    r, a = r.ravel().astype(float), a.ravel().astype(float)
    # the ends: FPR 0 allows nothing (D_α = ∞ against a zero), FPR 1 is TPR 1, and ρ_z = 0
    # is the diagonal (the test is a coin)
    done = (a == 0) | (a == 1) | (r == 0)
    answer = a.copy()
    todo = np.flatnonzero(~done)
    if todo.size:
        answer[todo] = _zcdp_tpr_search(a[todo], r[todo])
    return as_output(answer.reshape(shape))


# --- all three at once --------------------------------------------------------------------


def three_views(epsilon, delta=0.0, *, prior=0.5, p=0.5, q=1.0, rho=None):
    """The three readings of one guarantee, as a dict of floats.

    ``posterior`` (view 1, at ``prior``), ``bad_event`` (δ/(1 − e^{−ln 2}) = 2δ: the
    probability of an output on which the posterior may exceed the view-1 value at ε + ln 2),
    ``relative_risk`` (view 2, Kazan & Reiter's Theorem 1 at (p, q); for δ > 0 we read it at
    ε alone, an assumption), ``tpr_1``/``tpr_10`` (view 3 at FPR 1 % and 10 %, from (ε, δ));
    with ``rho`` also ``zcdp_tpr_1``/``zcdp_tpr_10`` (the curve ρ_z-zCDP alone implies,
    :func:`zcdp_tpr`) and ``gaussian_tpr_1``/``gaussian_tpr_10`` (the Gaussian curve, which
    also assumes the noise is Gaussian).

    Used in notebooks 09 and 12.

    Returns
    -------
    builtins.dict
        Reading name -> Python float: ``epsilon``, ``delta``, ``posterior``, ``bad_event``,
        ``relative_risk``, ``tpr_1``, ``tpr_10`` and, with ``rho``, the four TPRs above.

    Examples
    --------
    >>> views = three_views(1.0, prior=0.5, p=0.5, q=1.0)
    >>> round(views['posterior'], 4), round(views['relative_risk'], 4), round(views['tpr_10'], 4)
    (0.7311, 1.4621, 0.2718)
    """
    eps = check_finite_scalar("epsilon", epsilon)
    if eps < 0:
        raise ValueError(f"epsilon must be ≥ 0; got {epsilon!r}")
    delta = float(_check_delta(check_finite_scalar("delta", delta)))
    prior, p, q = (check_finite_scalar(n, v) for n, v in (("prior", prior), ("p", p), ("q", q)))
    if rho is not None:
        rho = float(_check_rho(check_finite_scalar("rho", rho)))
    views = {
        "epsilon": eps,
        "delta": delta,
        "posterior": posterior_bound(eps, prior=prior),
        "bad_event": posterior_bad_event_probability(delta, slack=math.log(2)),
        # e^{-1000} is 0 in floats: larger ε gives the same bound without overflowing e^{-2ε}
        "relative_risk": float(relative_risk_bound(p, q, min(eps, 1000.0))),
        "tpr_1": tpr_at_fpr(0.01, epsilon=eps, delta=delta),
        "tpr_10": tpr_at_fpr(0.10, epsilon=eps, delta=delta),
    }
    if rho is not None:
        views["zcdp_tpr_1"] = zcdp_tpr(rho, 0.01)
        views["zcdp_tpr_10"] = zcdp_tpr(rho, 0.10)
        views["gaussian_tpr_1"] = gaussian_tpr_at_fpr(0.01, rho=rho)
        views["gaussian_tpr_10"] = gaussian_tpr_at_fpr(0.10, rho=rho)
    return views
