"""From ρ_z-zCDP to (ε, δ)-DP, and back: the conversions of :mod:`helpers.deployments`.

Canonne, Kamath & Steinke (2020), Corollary 13 (:func:`zcdp_to_epsilon`, and its inverse
:func:`zcdp_rho_for_epsilon`); Bun & Steinke (2016), Proposition 1.3
(:func:`zcdp_to_epsilon_simple`); OpenDP's own conversion (:func:`opendp_epsilon`); the exact
curve of one Gaussian mechanism (:func:`gaussian_epsilon`, Balle & Wang 2018, Theorem 8).

Part of :mod:`helpers.deployments`, which re-exports every public name.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd

from .._numerics import bisect_increasing, gallop_below, nudge_until
from .._validation import as_output
from ..mechanisms import Gaussian
from ._checks import (
    _check_delta_open,
    _check_epsilon,
    _check_epsilon_reachable,
    _check_rho,
    _check_work,
)

__all__ = [
    "MAX_CKS_VALUES",
    "MAX_GAUSSIAN_EPSILON_VALUES",
    "MAX_RHO_FOR_EPSILON_VALUES",
    "gaussian_epsilon",
    "opendp_epsilon",
    "zcdp_rho_for_epsilon",
    "zcdp_to_epsilon",
    "zcdp_to_epsilon_simple",
]

#: OpenDP's ε for each zCDP row of the registry (its ``make_zCDP_to_approxDP``), computed with
#: OpenDP and stored, so that notebook 09 needs no OpenDP at run time; the tests recompute
#: every row with OpenDP (tests/helpers/deployments/test_zcdp.py writes the file).
OPENDP_PATH = resources.files("helpers") / "data" / "opendp_zcdp_epsilon.csv"

#: Work budgets of the searches, in values per call (each value is one vectorised search: up
#: to 200 Newton steps for the CKS conversion, 200 steps of the Gaussian δ(ε) for the exact
#: Gaussian ε, a gallop and up to 200 bisection steps of a closed form, then a few CKS
#: conversions, for its inverse). At most a second or two each at the budget; more values are
#: refused up front, naming the size.
MAX_CKS_VALUES = 10**6
MAX_GAUSSIAN_EPSILON_VALUES = 2 * 10**4
MAX_RHO_FOR_EPSILON_VALUES = 10**4


# --- zCDP → (ε, δ) ------------------------------------------------------------------------


def _softplus(u: np.ndarray) -> np.ndarray:
    """ln(1 + e^u) without overflow (= ln α for u = ln(α − 1))."""
    return np.logaddexp(0.0, u)


def _cks_root(rho: np.ndarray, L: np.ndarray) -> np.ndarray:
    """u = ln(α* − 1) at the CKS minimiser: the root of g(u) = ρ_z e^{2u} + ln(1 + e^u) − L.

    g increases and is convex in u (a sum of an exponential and a softplus), and
    g(ln √(L/ρ_z)) = ln α > 0, so Newton's method started there descends monotonically onto
    the root without overshooting (a tangent of a convex function lies below it). In floating
    point the last step may cross the root or stall; an entry stops when its step is below a
    few units in the last place, when g ≤ 0, or at the work budget (:data:`_NEWTON_STEPS`),
    and a stopped entry never moves again, so a vector gives its scalars' bits. Any u gives a
    valid (looser) ε, so an entry stopped early is still a true bound. 3–9 steps for ρ_z
    from 1e-10 to 1e8 at δ ≤ 0.9 (up to ~35 as δ nears 1), instead of the ~60 of a bisection
    over [u − 200, u].
    """
    log_rho = np.log(rho)
    u = 0.5 * (np.log(L) - log_rho)
    done = np.zeros(u.shape, dtype=bool)
    for _ in range(_NEWTON_STEPS):
        with np.errstate(over="ignore"):
            e2u = np.exp(2 * u + log_rho)  # ρ_z e^{2u}, finite even where e^{2u} is not
            g = e2u + _softplus(u) - L
            # g'(u) = 2ρ_z e^{2u} + e^u/(1 + e^u), the logistic written without overflow
            slope = 2 * e2u + np.exp(-_softplus(-u))
        step = g / slope
        done = done | (g <= 0) | (np.abs(step) <= 4 * _EPS * np.maximum(np.abs(u), 1.0))
        u = np.where(done, u, u - step)
        if np.all(done):
            break
    return u


_EPS = np.finfo(float).eps
#: work budget of the Newton search for the CKS minimiser, in steps (each a few vector ops)
_NEWTON_STEPS = 200


def _cks(rho: np.ndarray, log_inv_delta: np.ndarray) -> np.ndarray:
    """CKS 2020, Corollary 13, for validated arrays (ρ_z > 0 and δ in (0, 1), same shape).

    ε(α) = αρ + (L − ln α)/(α − 1) + ln(1 − 1/α) with L = ln(1/δ) has derivative
    ε'(α) = ρ − (L − ln α)/(α − 1)² (the other two terms' derivatives cancel), so its unique
    minimiser over α > 1 is the root of the increasing g(α) = ρ(α − 1)² + ln α − L, which lies
    below 1 + √(L/ρ) (where g = ln α > 0). Found by Newton's method on u = ln(α − 1)
    (``_cks_root``), in log space: ln α = ln(1 + e^u), ln(1 − 1/α) = −ln(1 + e^{−u}).
    Any α > 1 gives a valid ε, so even an unconverged point would be a true (looser) bound.
    """
    L = log_inv_delta
    u = _cks_root(rho, L)
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

    The infimum is attained where ρ_z(α − 1)² + ln α = ln(1/δ) (see ``_cks``), found by
    Newton's method on u = ln(α − 1), started above the root (vectorised). This is the conversion OpenDP implements (``make_zCDP_to_approxDP``);
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
        (toward the weaker guarantee): the ε(α) at the α found plus a bound on its rounding
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

    Used in notebooks 09 and 12.

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


def _along_minimisers(w: np.ndarray, L: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ρ_z, ε) of the CKS conversion whose minimiser is α = 1 + e^u, u = u_max + w (w ≤ 0).

    At the minimiser g(α) = 0, so ρ_z = (L − ln α)/(α − 1)²; substituting it into
    ε(α) = αρ_z + (L − ln α)/(α − 1) + ln(1 − 1/α) gives the closed form
    h = (L − ln α)(e^{−2u} + 2e^{−u}) − ln(1 + e^{−u}). ρ_z → 0 as α → e^L, i.e. as u rises to
    u_max = ln(e^L − 1). L − ln α cancels there (for δ near 1 to all digits), so it is
    written in w: with c = 1 − e^{−L}, e^{u − L} = c·e^w and L − ln α = −ln(1 + c·(e^w − 1)),
    exact to a few units in the last place (see below for the two forms). Along the minimisers ρ_z falls as α rises
    (g(α) = ρ_z(α − 1)² + ln α − L rises in both), and ε rises with ρ_z, so h decreases in w.
    """
    c = -np.expm1(-L)
    u = L + np.log(c) + w
    # L − ln α = −ln(1 + x), x = c(e^w − 1) = c·e^w + e^{−L} − 1: by log1p while 1 + x ≥ ½
    # (x small near w = 0, where the other form cancels), else as −ln(c·e^w + e^{−L}) by
    # logaddexp (1 + x itself would be a difference of nearly equal numbers there)
    x = c * np.expm1(w)
    gap = np.where(x >= -0.5, -np.log1p(np.maximum(x, -0.5)), -np.logaddexp(np.log(c) + w, -L))
    with np.errstate(over="ignore", invalid="ignore"):
        rho = gap * np.exp(-2 * u)
        h = gap * (np.exp(-2 * u) + 2 * np.exp(-u)) - np.log1p(np.exp(-u))
    # below u ≈ −709 both terms of h overflow (inf − inf): h is +inf there (ρ_z → ∞)
    return rho, np.where(np.isnan(h), np.inf, h)


def zcdp_rho_for_epsilon(epsilon, delta):
    """The ρ_z whose :func:`zcdp_to_epsilon` at ``delta`` equals ``epsilon`` (its inverse).

    At the CKS minimiser α = 1 + e^u, ρ_z = (L − ln α)/(α − 1)² and ε is a closed form that
    decreases in u (``_along_minimisers``), so ρ_z is found by one vectorised bisection for
    ε(u) = ε on u < ln(e^L − 1) (where ρ_z > 0), its lower end galloped down until ε(u) > ε,
    keeping the end where ε(u) ≤ ε (the smaller ρ_z). Rounded toward privacy:
    that ρ_z is then moved down a double at a time until ``zcdp_to_epsilon(ρ_z, delta) ≤
    epsilon``, the outward-rounded conversion itself, so the answer never allows more than ε.

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
    e, d = _check_epsilon(epsilon), _check_delta_open(delta)
    _check_work(
        "epsilon and delta",
        np.broadcast_shapes(e.shape, d.shape),
        MAX_RHO_FOR_EPSILON_VALUES,
        "MAX_RHO_FOR_EPSILON_VALUES",
    )
    e, d = np.broadcast_arrays(e, d)
    _check_epsilon_reachable(epsilon, e, d, zcdp_to_epsilon)
    out = np.zeros(e.shape)
    positive = e > 0
    if np.any(positive):
        ep, L = e[positive], -np.log(d[positive])
        # in w = u − ln(e^L − 1) ≤ 0: ρ_z → 0 as w → 0, where ε(w) = −ln(1 + e^{−u}) < 0 < ε

        def excess(w):  # ε − ε(w): increasing in w, > 0 at w = 0
            return ep - _along_minimisers(np.minimum(w, 0.0), L)[1]

        # ε(w) ≥ e^{−2u}(L − ln α) grows without bound as w falls: the gallop ends
        low, _ = gallop_below(excess, np.full_like(ep, -1.0), np.zeros_like(ep))
        w = bisect_increasing(excess, low, np.zeros_like(ep), side="high")
        rho = np.maximum(_along_minimisers(np.minimum(w, 0.0), L)[0], 0.0)
        out[positive] = nudge_until(
            rho, lambda r: (r == 0) | (_cks(np.maximum(r, 1e-300), L) <= ep), toward_zero=True
        )
    return as_output(out)
