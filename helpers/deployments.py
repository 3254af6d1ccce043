"""Real deployments of differential privacy and three ways to read their ε.

Data: ``data/dp_deployments.csv``, facts about 41 deployments extracted from the OpenDP
Deployments Registry (github.com/opendp/deployments-registry-data, commit 3e9c812, MIT
License, Copyright (c) 2025 OpenDP; see ``data/README.md``). :func:`load` returns every row
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
   best membership test at a false-positive rate, from the (ε, δ) trade-off curve
   f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)) (Dong, Roth & Su 2022, the trade-off
   function of (ε, δ)-DP; Kairouz, Oh & Viswanath 2015) or from the Gaussian curve G_μ(α) = Φ(Φ⁻¹(1 − α) − μ).

The math layer: no plotting, no widgets.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import brentq, minimize_scalar
from scipy.special import log_ndtr
from scipy.stats import norm

from ._validation import check_nonnegative, check_open_unit, check_real_or_inf
from .kazan_reiter import relative_risk_bound

__all__ = [
    "CENSUS_2020",
    "DATA_PATH",
    "DEFAULT_DELTA",
    "UNIT_GROUPS",
    "gaussian_epsilon",
    "gaussian_tpr_at_fpr",
    "load",
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
]

DATA_PATH = Path(__file__).resolve().parents[1] / "data" / "dp_deployments.csv"

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


def _check_rho(rho) -> np.ndarray:
    r = check_real_or_inf("rho", rho, "a real number ≥ 0 (ρ_z of zCDP)")
    if np.any(r < 0) or np.any(np.isinf(r)):
        bad = r[(r < 0) | np.isinf(r)].ravel()[:3]
        raise ValueError(f"rho (ρ_z of zCDP) must be ≥ 0 and finite; got {bad!r}")
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


def _out(array: np.ndarray):
    array = np.asarray(array, dtype=float)
    return float(array) if array.ndim == 0 else array


# --- zCDP → (ε, δ) ------------------------------------------------------------------------


def _cks_objective(alpha: float, rho: float, log_inv_delta: float) -> float:
    # Canonne, Kamath & Steinke (2020), Corollary 13, in the form
    # ε(α) = αρ + (ln(1/δ) − ln α)/(α − 1) + ln(1 − 1/α), every term finite for α > 1
    return alpha * rho + (log_inv_delta - math.log(alpha)) / (alpha - 1) + math.log1p(-1 / alpha)


def _cks_scalar(rho: float, delta: float) -> float:
    if rho == 0:
        return 0.0
    log_inv = -math.log(delta)
    # search t = ln(α − 1) on a bracket of ±12 (about ±5 decades of α − 1) around the
    # minimiser of the simple bound, α* = 1 + √(ln(1/δ)/ρ); the tests compare the result
    # with a dense grid and with OpenDP's make_zCDP_to_approxDP over random (ρ_z, δ)
    guess = math.log(math.sqrt(log_inv / rho))
    result = minimize_scalar(
        lambda t: _cks_objective(1 + math.exp(t), rho, log_inv),
        bounds=(guess - 12, guess + 12),
        method="bounded",
        options={"xatol": 1e-12},
    )
    # ε ≥ 0 always, and the simple bound is an upper bound (it is the α-term above without
    # the two negative corrections)
    simple = rho + 2 * math.sqrt(rho * log_inv)
    return float(min(max(result.fun, 0.0), simple))


def zcdp_to_epsilon(rho, delta):
    """ε such that ρ_z-zCDP implies (ε, δ)-DP: Canonne, Kamath & Steinke (2020), Corollary 13.

    ε = inf_{α>1} [ αρ_z + (ln(1/δ) + (α − 1)·ln(1 − 1/α) − ln α) / (α − 1) ].

    This is the conversion OpenDP implements (``make_zCDP_to_approxDP``); the tests check
    the two agree. Always ≤ :func:`zcdp_to_epsilon_simple`. Vectorised over ``rho`` and
    ``delta`` (broadcast).

    Parameters
    ----------
    rho : float or array
        ρ_z ≥ 0, the zCDP parameter.
    delta : float or array
        δ in (0, 1).
    """
    r = _check_rho(rho)
    d = _check_delta_open(delta)
    r, d = np.broadcast_arrays(r, d)
    out = np.array(
        [_cks_scalar(float(a), float(b)) for a, b in zip(r.ravel(), d.ravel(), strict=True)]
    )
    return _out(out.reshape(r.shape))


def zcdp_to_epsilon_simple(rho, delta):
    """The simple conversion ε = ρ_z + 2√(ρ_z ln(1/δ)) (Bun & Steinke 2016, Proposition 1.3)."""
    r = _check_rho(rho)
    d = _check_delta_open(delta)
    return _out(r + 2 * np.sqrt(r * -np.log(d)))


def _gaussian_log_delta(epsilon: float, mu: float) -> float:
    # Balle & Wang (2018), Theorem 8: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), in log space
    a = log_ndtr(-epsilon / mu + mu / 2)
    b = epsilon + log_ndtr(-epsilon / mu - mu / 2)
    if b >= a:
        return -math.inf
    return a + math.log(-math.expm1(b - a))


def gaussian_epsilon(rho, delta):
    """The exact ε at δ of one Gaussian mechanism with μ = √(2ρ_z) (Balle & Wang 2018, Thm 8).

    Solves Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) = δ for ε ≥ 0 (0 if δ is already met at ε = 0).
    Only for a single Gaussian mechanism (or a composition of them: their μ's add in squares,
    exactly as ρ_z adds); a general ρ_z-zCDP mechanism needs :func:`zcdp_to_epsilon`.
    """
    r = _check_rho(rho)
    d = _check_delta_open(delta)
    r, d = np.broadcast_arrays(r, d)

    def one(rho_: float, delta_: float) -> float:
        if rho_ == 0:
            return 0.0
        mu = math.sqrt(2 * rho_)
        target = math.log(delta_)
        if _gaussian_log_delta(0.0, mu) <= target:
            return 0.0
        high = zcdp_to_epsilon(rho_, delta_) + 1.0  # the CKS bound holds for the Gaussian too
        return brentq(lambda e: _gaussian_log_delta(e, mu) - target, 0.0, high, xtol=1e-13)

    out = np.array([one(float(a), float(b)) for a, b in zip(r.ravel(), d.ravel(), strict=True)])
    return _out(out.reshape(r.shape))


def zcdp_rho_for_epsilon(epsilon, delta):
    """The ρ_z whose :func:`zcdp_to_epsilon` at ``delta`` equals ``epsilon`` (its inverse)."""
    e = check_nonnegative("epsilon", epsilon)
    d = _check_delta_open(delta)
    e, d = np.broadcast_arrays(e, d)

    def one(eps: float, delta_: float) -> float:
        if eps == 0:
            return 0.0
        # ε(ρ_z) increases from 0 without bound: double the bracket until it holds the root
        high = eps
        while _cks_scalar(high, delta_) < eps:
            high *= 2
        return brentq(lambda r: _cks_scalar(r, delta_) - eps, 0.0, high, xtol=1e-14)

    out = np.array([one(float(a), float(b)) for a, b in zip(e.ravel(), d.ravel(), strict=True)])
    return _out(out.reshape(e.shape))


# --- the data -----------------------------------------------------------------------------


def _status(row: pd.Series) -> str:
    eps, delta, rho = row["epsilon"], row["delta"], row["rho"]
    variant = row["dp_variant"]
    has_eps, has_delta, has_rho = (not pd.isna(x) for x in (eps, delta, rho))
    if not (has_eps or has_delta or has_rho):
        if pd.isna(variant):
            return "no privacy parameters and no DP variant published"
        return "no privacy parameters published"
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


#: Coarse privacy-unit groups, in the order of how much one unit can cover (finest first).
UNIT_GROUPS = (
    "one event or record",
    "one day of a user",
    "one month of a user",
    "one person or entity",
    "not stated",
)


def unit_group(privacy_unit) -> str:
    """The coarse group of a registry ``privacy_unit`` string (for colouring and grouping).

    An ε per *event* protects one event of a person (a person with 100 events may lose up to
    100ε); an ε per *user-day* protects one day; per *user* (or person) it protects everything
    about the person. "Birth-level", "Business establishment", "Individual-level" and
    account-level units protect a whole entity; "trip" and "tuple" units protect one record.
    """
    if privacy_unit is None or (isinstance(privacy_unit, float) and math.isnan(privacy_unit)):
        return "not stated"
    unit = str(privacy_unit).lower()
    if "aggregate" in unit:
        return "not stated"
    if "day" in unit:
        return "one day of a user"
    if "month" in unit:
        return "one month of a user"
    if any(word in unit for word in ("event", "tuple", "record", "trip")):
        return "one event or record"
    return "one person or entity"


def load(path: str | Path | None = None, *, default_delta: float = DEFAULT_DELTA) -> pd.DataFrame:
    """The deployments table, one row per deployment, with what the course computes from it.

    Added columns:

    * ``status``: ``"usable"`` or the reason the row cannot be read as (ε, δ);
    * ``epsilon_used``, ``delta_used``: the (ε, δ) the three views use (NaN if not usable):
      as published for pure (δ = 0) and approximate DP; for a zCDP row, the published
      (ε, δ) when the registry gives one, else ρ_z converted by :func:`zcdp_to_epsilon`
      at ``default_delta`` (10⁻¹⁰, the Census Bureau's own choice);
    * ``unit_group``: the coarse privacy-unit group (:func:`unit_group`);
    * ``basis``: where ``epsilon_used`` comes from, in words;
    * ``epsilon_cks``, ``epsilon_simple``: both conversions of ρ_z at ``delta_used`` (zCDP rows).

    Parameters
    ----------
    path : str or Path, optional
        The CSV (default: the course's copy, ``data/dp_deployments.csv``).
    default_delta : float
        δ in (0, 1) for zCDP rows that give only ρ_z.
    """
    default_delta = float(_check_delta_open(default_delta))
    table = pd.read_csv(DATA_PATH if path is None else path)
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
    table["epsilon_used"] = np.where(
        convert, table["epsilon_cks"], table["epsilon"].where(use)
    ).astype(float)
    table["basis"] = np.select(
        [convert, given, use & (table["dp_variant"] == "Pure DP"), use],
        [
            f"ρ_z converted (CKS 2020) at δ = {default_delta:g} (assumed)",
            "(ε, δ) as published (also gives ρ_z)",
            "ε as published (pure DP, δ = 0)",
            "(ε, δ) as published",
        ],
        default="",
    )
    return table


def usable(table: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of :func:`load` whose status is ``"usable"``, sorted by ``epsilon_used``."""
    table = load() if table is None else table
    return table[table["status"] == "usable"].sort_values("epsilon_used").reset_index(drop=True)


# --- view 1: Lee & Clifton's posterior, two worlds ----------------------------------------


def posterior_bound(epsilon, *, prior=0.5):
    """Largest posterior an adversary deciding between two worlds can reach after an ε-DP release.

    With prior p on the true world, Bayes' rule and the ε-DP likelihood ratio ≤ e^ε give
    posterior ≤ p·e^ε / (p·e^ε + 1 − p) = 1 / (1 + (1 − p)/p · e^{−ε}) (Lee & Clifton 2011,
    eq. (4)–(5) with two worlds and Δv = Δf, the worst case). Computed as a logistic
    function in log space: expit(ε + logit p). ``epsilon`` may be inf (bound 1).

    For (ε, δ)-DP the bound holds outside a bad event, see
    :func:`posterior_bad_event_probability`.
    """
    eps = check_real_or_inf("epsilon", epsilon, "a number ≥ 0 or inf")
    if np.any(eps < 0):
        raise ValueError(f"epsilon must be ≥ 0; got {eps[eps < 0].ravel()[:3]!r}")
    p = check_open_unit("prior", prior)
    with np.errstate(over="ignore"):
        z = eps + np.log(p) - np.log1p(-p)
        out = np.where(np.isinf(eps), 1.0, 1.0 / (1.0 + np.exp(-z)))
    return _out(out)


def posterior_bad_event_probability(delta, *, slack):
    """How often (ε, δ)-DP may break the posterior bound at ε + ``slack``: δ / (1 − e^{−slack}).

    For an (ε, δ)-DP release between worlds P and Q, let L = ln(P(o)/Q(o)) be the privacy
    loss. Since δ ≥ P(L > ε') − e^ε Q(L > ε') and Q(L > ε') ≤ e^{−ε'} P(L > ε'),
    P(L > ε') ≤ δ / (1 − e^{ε − ε'}). Outside {L > ε'}, Bayes' rule gives the posterior
    bound of :func:`posterior_bound` at ε' = ε + slack. So δ enters as the probability of
    an output on which the ε-reading may fail (with slack = ln 2 it is at most 2δ).
    """
    d = _check_delta(delta)
    s = check_real_or_inf("slack", slack, "a number > 0")
    if np.any(s <= 0):
        raise ValueError(f"slack must be > 0; got {s[s <= 0].ravel()[:3]!r}")
    return _out(np.minimum(d / -np.expm1(-s), 1.0))


# --- view 3: hypothesis testing (f-DP) ----------------------------------------------------


def tpr_at_fpr(fpr, *, epsilon, delta=0.0):
    """Largest true-positive rate of any membership test at false-positive rate α under (ε, δ)-DP.

    1 − f(α) with the (ε, δ) trade-off curve f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))
    (the trade-off function f_{ε,δ} of Dong, Roth & Su 2022): TPR = min(1, δ + e^ε α,
    1 − e^{−ε}(1 − δ − α)).
    Tight: the four-point mechanism of Kairouz, Oh & Viswanath (2015) attains it.
    """
    a = _check_fpr(fpr)
    eps = check_real_or_inf("epsilon", epsilon, "a number ≥ 0 or inf")
    if np.any(eps < 0):
        raise ValueError(f"epsilon must be ≥ 0; got {eps[eps < 0].ravel()[:3]!r}")
    d = _check_delta(delta)
    with np.errstate(over="ignore", invalid="ignore"):
        line1 = np.where(a == 0, d, d + np.exp(eps) * a)
        line2 = 1 - np.exp(-eps) * (1 - d - a)
    return _out(np.clip(np.minimum(line1, line2), 0.0, 1.0))


def gaussian_tpr_at_fpr(fpr, *, rho):
    """Largest TPR at FPR α against a Gaussian mechanism with μ = √(2ρ_z): Φ(μ − Φ⁻¹(1 − α)).

    1 − G_μ(α), with G_μ the Gaussian trade-off function of Dong, Roth & Su (2022), under
    the assumption that the release is one Gaussian mechanism (or a composition of them)
    with total ρ_z: a Gaussian of sensitivity Δ and SD σ has ρ_z = Δ²/(2σ²) and μ = Δ/σ.
    Uses survival functions (``norm.sf``/``norm.isf``) to keep small rates accurate.
    """
    a = _check_fpr(fpr)
    mu = np.sqrt(2 * _check_rho(rho))
    return _out(norm.sf(norm.isf(a) - mu))


# --- all three at once --------------------------------------------------------------------


def three_views(epsilon, delta=0.0, *, prior=0.5, p=0.5, q=1.0, rho=None):
    """The three readings of one guarantee, as a dict of floats.

    ``posterior`` (view 1, at ``prior``), ``bad_event`` (δ/(1 − e^{−ln 2}) = 2δ: the
    probability of an output on which the posterior may exceed the view-1 value at ε + ln 2),
    ``relative_risk`` (view 2, Kazan & Reiter's Theorem 1 at (p, q); for δ > 0 we read it at
    ε alone, an assumption), ``tpr_1``/``tpr_10`` (view 3 at FPR 1 % and 10 %, from (ε, δ));
    with ``rho`` also ``gaussian_tpr_1``/``gaussian_tpr_10`` (the Gaussian curve).
    """
    eps = float(check_nonnegative("epsilon", epsilon))
    delta = float(_check_delta(delta))
    views = {
        "epsilon": eps,
        "delta": delta,
        "posterior": posterior_bound(eps, prior=prior),
        "bad_event": posterior_bad_event_probability(delta, slack=math.log(2)),
        "relative_risk": float(relative_risk_bound(p, q, eps)),
        "tpr_1": tpr_at_fpr(0.01, epsilon=eps, delta=delta),
        "tpr_10": tpr_at_fpr(0.10, epsilon=eps, delta=delta),
    }
    if rho is not None:
        views["gaussian_tpr_1"] = gaussian_tpr_at_fpr(0.01, rho=rho)
        views["gaussian_tpr_10"] = gaussian_tpr_at_fpr(0.10, rho=rho)
    return views
