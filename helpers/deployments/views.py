"""Three views of an (ε, δ) guarantee: the posterior, the relative risk, the best test.

Lee & Clifton's posterior between two worlds (:func:`posterior_bound`), Kazan & Reiter's
relative risk (re-exported as :func:`relative_risk_bound`) and the power of the best test
between neighbours (:func:`tpr_at_fpr`, :func:`gaussian_tpr_at_fpr`, :func:`zcdp_tpr`); all
three at once (:func:`three_views`).

Part of :mod:`helpers.deployments`, which re-exports every public name.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.stats import norm

from .._validation import (
    RULE_HALF_OPEN_UNIT,
    RULE_OPEN_UNIT,
    as_output,
    check_finite_scalar,
    check_open_unit,
    check_real_or_inf,
)
from ..kazan_reiter import relative_risk_bound
from ._checks import _DELTA_RULE, _RHO_RULE, _check_delta, _check_fpr, _check_rho

__all__ = [
    "gaussian_tpr_at_fpr",
    "posterior_bad_event_probability",
    "posterior_bound",
    "relative_risk_bound",
    "three_views",
    "tpr_at_fpr",
    "zcdp_tpr",
]

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

    Used in notebooks 09, 11 and 13.

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

    Used in notebooks 09, 11 and 13.

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
    eps = check_finite_scalar("epsilon", epsilon, rule="be ≥ 0 and finite")
    if eps < 0:
        raise ValueError(f"epsilon must be ≥ 0 and finite; got {epsilon!r}")
    check_finite_scalar("delta", delta, rule=_DELTA_RULE)  # one number; then its range, as given
    delta = float(_check_delta(delta))
    prior, p, q = (
        check_finite_scalar(n, v, rule=rule)
        for n, v, rule in (
            ("prior", prior, RULE_OPEN_UNIT),
            ("p", p, RULE_HALF_OPEN_UNIT),
            ("q", q, RULE_HALF_OPEN_UNIT),
        )
    )
    if rho is not None:
        check_finite_scalar("rho", rho, rule=_RHO_RULE)
        rho = float(_check_rho(rho))
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
