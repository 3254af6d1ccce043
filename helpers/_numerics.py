"""Floating-point tools shared by the math modules (private to the math layer, like
:mod:`helpers._validation`).

Two kinds of tool:

* **Differences that cannot overflow on the way.** ``x − loc`` of two finite doubles can
  exceed the largest double (1e308 − (−1e308)) even when the quantity wanted, such as
  ``(x − loc)/scale``, is finite. :func:`scaled_difference` recomputes such entries from
  halves (exact for doubles that large), so only a result that is itself out of range is ±inf.
* **Rounding toward privacy.** An inverse that turns a privacy target into a mechanism
  parameter (b = Δ/ε, α of randomised response, σ for a δ, ρ_z for an ε) must never round
  to a parameter whose ε exceeds the target. :func:`product_sign` / :func:`product_at_least` decide x·y ≥ z
  exactly (no rounding), :func:`ratio_up`, :func:`ratio_down`, :func:`square_up`,
  :func:`sqrt_down` and :func:`sum_up` round a quotient, square, root or sum outward exactly, :func:`ln_at_most` decides ln(ratio) ≤ bound exactly for an
  exact rational ratio, :func:`float_up` / :func:`float_down` round an exact rational
  outward, and :func:`nudge_until` steps a candidate one double at a time toward privacy
  until a check confirms the target.
* **Root finding.** :func:`bisect_increasing`, the vectorised bisection whose entries each
  follow the steps they would follow alone (vectorised = scalar to the last bit), and
  :func:`gallop_below`, which finds its lower end; :func:`largest_at_most`, a bracketing
  secant search for the largest x at which an increasing function is still ≤ 0 (scalar,
  for a function that costs a pass over a table); :func:`least_integer`, the smallest
  integer meeting a condition, by galloping then bisecting. (Brent's method where a root
  need not be rounded to a side is ``scipy.optimize.brentq``, called directly.)
* **Log space.** :func:`log_odds`, ln(x/(1 − x)) without forming the ratio;
  :func:`log_hockey_stick`, ln(P − e^ε·Q) from ln P and ln Q, the one formula for the
  hockey-stick divergence of a mechanism whose privacy loss exceeds ε on one side of a
  threshold (:class:`helpers.mechanisms.AdditiveNoise`); :func:`pmf_loss` and
  :func:`pmf_loss_upper_quantile`, the privacy loss ln(p/q) of two pmfs (never NaN) and its
  quantiles with the outcomes sorted by decreasing loss.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import ROUND_CEILING, Context, Decimal, localcontext
from fractions import Fraction

import numpy as np

_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitting constant for doubles


def scaled_difference(x, loc, scale) -> np.ndarray:
    """(x − loc)/scale for float arrays, ±inf only where the true quotient is out of range.

    Where ``x − loc`` overflows (both of magnitude near 1e308, opposite signs), the quotient
    is taken as 2·((x/2 − loc/2)/scale): halving doubles that large is exact.
    """
    x, loc, scale = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, loc, scale)))
    with np.errstate(over="ignore"):
        diff = x - loc
        out = diff / scale
        overflowed = np.isinf(diff)
        if np.any(overflowed):
            halves = (0.5 * x - 0.5 * loc) / scale
            out = np.where(overflowed, 2.0 * halves, out)
    return out


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = _SPLIT * a
    high = c - (c - a)
    return high, a - high


def product_at_least(x, y, z) -> np.ndarray:
    """Exactly whether x·y ≥ z, for finite positive doubles (no rounding in the product)."""
    return product_sign(x, y, z) >= 0


def product_sign(x, y, z) -> np.ndarray:
    """The sign (−1, 0, 1) of the exact x·y − z, for positive finite doubles.

    The mantissas of x and y (in [½, 1)) are multiplied exactly as a sum of two doubles
    (Dekker's product) and z is scaled by the same power of two, so nothing overflows or
    underflows on the way.
    """
    x, y, z = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, y, z)))
    mx, ex = np.frexp(x)
    my, ey = np.frexp(y)
    mz, ez = np.frexp(z)
    shift = ez - ex - ey  # z / 2^(ex + ey) = mz · 2^shift
    product = mx * my  # in [¼, 1)
    hx, lx = _split(mx)
    hy, ly = _split(my)
    error = ((hx * hy - product) + hx * ly + lx * hy) + lx * ly  # mx·my = product + error
    scaled_z = np.ldexp(mz, np.clip(shift, -3, 3))  # exact: mz in [½, 1), shift small
    sign = np.sign((product - scaled_z) + error)
    return np.where(shift > 2, -1.0, np.where(shift < -3, 1.0, sign))


def ratio_up(num, den) -> np.ndarray:
    """The smallest double q with q·den ≥ num exactly (positive finite inputs; inf on overflow)."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=float), np.asarray(den, dtype=float))
    with np.errstate(over="ignore", under="ignore"):
        q = num / den
    q = np.where(q == 0, np.nextafter(0.0, 1.0), q)
    finite = np.isfinite(q)
    short = finite & (product_sign(np.where(finite, q, 1.0), den, num) < 0)
    return np.where(short, np.nextafter(q, np.inf), q)


def ratio_down(num, den) -> np.ndarray:
    """The largest double q with q·den ≤ num exactly (positive finite inputs)."""
    num, den = np.broadcast_arrays(np.asarray(num, dtype=float), np.asarray(den, dtype=float))
    with np.errstate(over="ignore", under="ignore"):
        q = num / den
    positive = (q > 0) & np.isfinite(q)
    over = positive & (product_sign(np.where(positive, q, 1.0), den, num) > 0)
    q = np.where(over, np.nextafter(q, 0.0), q)
    return np.where(np.isinf(q), np.finfo(float).max, q)


def square_up(x) -> np.ndarray:
    """The smallest double ≥ x² exactly."""
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore"):
        p = x * x
    finite = np.isfinite(p) & (p > 0)
    short = finite & (product_sign(x, x, np.where(finite, p, 1.0)) > 0)
    return np.where(short, np.nextafter(p, np.inf), p)


def sqrt_down(x) -> np.ndarray:
    """The largest double ≤ √x exactly (x > 0)."""
    s = np.sqrt(np.asarray(x, dtype=float))
    over = product_sign(s, s, x) > 0
    return np.where(over, np.nextafter(s, 0.0), s)


def sum_up(values) -> float:
    """The smallest double ≥ the exact sum of non-negative doubles (inf if it overflows).

    ``math.fsum`` rounds the exact sum to nearest; a second fsum of the values and the
    negated result is the exact remainder's sign, so the result moves up one double only
    when the sum was not exact.
    """
    values = np.asarray(values, dtype=float).ravel().tolist()
    try:
        total = math.fsum(values)
        remainder = math.fsum([*values, -total])
    except OverflowError:
        return math.inf
    if math.isinf(total):
        return math.inf
    return math.nextafter(total, math.inf) if remainder > 0 else total


def product_minus(x, y, z) -> np.ndarray:
    """x·y − z with the sign always right and a relative error of a few units in the last place.

    The product is split exactly into a double and its rounding error (Dekker's product on
    the mantissas, scaled back by a power of two, so no intermediate overflows), then
    (fl(x·y) − z) + error: where x·y and z nearly cancel the first difference is exact. Used
    for ε − Δ/b = (ε·b − Δ)/b, whose sign decides whether δ is 0: ε − fl(Δ/b) called a δ of
    about 1e-17 zero whenever Δ/b rounded down onto ε.
    """
    x, y, z = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, y, z)))
    mx, ex = np.frexp(x)
    my, ey = np.frexp(y)
    high = mx * my
    hx, lx = _split(mx)
    hy, ly = _split(my)
    low = ((hx * hy - high) + hx * ly + lx * hy) + lx * ly
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        product, error = np.ldexp(high, ex + ey), np.ldexp(low, ex + ey)
        out = (product - z) + error
        return np.where(np.isinf(product), product - z, out)


#: quantizing a double's decimal (exponents −324 to 308) to 15 places is exact at this size
_WIDE_DECIMALS = Context(prec=1_100, Emin=-1_100, Emax=1_100)


def decimals_up(x: float, decimals: int) -> str:
    """A finite x printed with ``decimals`` places, rounded up exactly (never to nearest): the
    float read as the decimal it prints as (``repr``), as ``deployments.round_risk`` reads it.
    For a risk in a sentence of the math layer (a loss bound, a μ) that may not import
    ``deployments`` or ``plotting.risk_up``."""
    shown = Decimal(repr(float(x))).quantize(
        Decimal(1).scaleb(-decimals), rounding=ROUND_CEILING, context=_WIDE_DECIMALS
    )
    return f"{shown:f}"


def float_up(value: Fraction) -> float:
    """The smallest double ≥ an exact rational (OverflowError beyond the largest double)."""
    out = float(value)
    if Fraction(out) < value:
        out = float(np.nextafter(out, np.inf))
    return out


def float_down(value: Fraction) -> float:
    """The largest double ≤ an exact rational."""
    out = float(value)
    if Fraction(out) > value:
        out = float(np.nextafter(out, -np.inf))
    return out


def nudge_until(candidate, ok, *, toward_zero: bool) -> np.ndarray:
    """The double nearest ``candidate`` on the side of privacy at which ``ok`` holds.

    ``candidate`` holds non-negative doubles; ``ok(values)`` returns a boolean array (the
    privacy target holds at ``values``) and must hold at the end of the search range: 0
    when ``toward_zero`` (ε, α, ρ_z), +inf otherwise (a scale b or σ). Entries already
    ``ok`` are returned unchanged; the others move one double at a time in that direction,
    found by a galloping then a bisecting search over the ordered bit patterns of
    non-negative doubles (about 2·log₂ of the distance in evaluations of ``ok``).
    """
    values = np.array(candidate, dtype=float)
    good = np.asarray(ok(values), dtype=bool)
    if np.all(good):
        return values
    bits = values.view(np.int64)
    sign = -1 if toward_zero else 1
    room = bits if toward_zero else np.float64(np.inf).view(np.int64) - bits

    def at(k):
        return (bits + sign * np.minimum(k, room)).view(np.float64)

    low = np.zeros_like(bits)  # a distance known to fail (0: the candidate)
    high = np.where(good, 0, 1)
    while True:  # gallop: double the distance until ok holds
        passed = np.asarray(ok(at(high)), dtype=bool) | (high >= room)
        if np.all(passed):
            break
        low = np.where(passed, low, high)
        high = np.where(passed, high, 2 * high)
    while np.any(high - low > 1):  # bisect between a failing and a passing distance
        mid = low + (high - low) // 2
        passed = np.asarray(ok(at(mid)), dtype=bool)
        wide = high - low > 1
        high = np.where(wide & passed, mid, high)
        low = np.where(wide & ~passed, mid, low)
    return at(high)


def ln_at_most(
    estimate,
    bound,
    ratio: Callable[[tuple], Fraction],
    tolerance,
    cache: dict | None = None,
) -> np.ndarray:
    """Exactly where ln(ratio(i)) ≤ bound[i], for exact positive rationals ratio(i).

    ``estimate`` is a float approximation of ln(ratio) within ``tolerance`` (absolute, per
    entry): entries farther than that from ``bound`` are decided by it; the rest by
    :func:`_ln_at_most_exact` (decimal arithmetic at a precision that grows until the
    comparison is decided). ``cache``, a dict the caller keeps across calls when ratio(i)
    does not change between them, holds each entry's decimal logarithm, keyed by its index.
    """
    estimate, bound, tolerance = np.broadcast_arrays(
        *(np.asarray(v, dtype=float) for v in (estimate, bound, tolerance))
    )
    out = np.array(estimate <= bound - tolerance, dtype=bool)
    undecided = np.abs(estimate - bound) < tolerance
    for flat in np.flatnonzero(undecided):
        index = np.unravel_index(flat, undecided.shape)
        known = {} if cache is None else cache.setdefault(index, {})
        if "ratio" not in known:
            known["ratio"] = ratio(index)
        out[index] = _ln_at_most_exact(known, float(bound[index]))
    return out


def _decimal_ln(ratio: Fraction, digits: int) -> Decimal:
    """ln(ratio) to about ``digits`` significant digits, also when ratio is near 1."""
    d = ratio - 1
    lost = max(0, -math.floor(math.log10(abs(d.numerator)) - math.log10(d.denominator)))
    with localcontext() as context:
        context.prec = digits + lost + 10
        return (Decimal(ratio.numerator) / Decimal(ratio.denominator)).ln()


def _ln_at_most_exact(known: dict, bound: float, max_digits: int = 4000) -> bool:
    """ln(known["ratio"]) ≤ bound, decided in decimal arithmetic (``decimal``'s ln is correctly
    rounded); the logarithm and its precision are kept in ``known`` for the next bound.

    The two cannot be equal unless ratio = 1 and bound = 0 (ln of a rational other than 1 is
    irrational; a double is rational), so doubling the precision until the gap shows always
    ends; the working precision covers the digits lost to 1 + d when ratio = 1 + d is near
    1. Undecided at ``max_digits`` counts as False (the side of privacy).
    """
    ratio = known["ratio"]
    if ratio == 1:
        return bound >= 0
    if "log" not in known:
        known["digits"], known["log"] = 60, _decimal_ln(ratio, 60)
    digits, log = known["digits"], known["log"]
    target = Decimal(bound)  # exact: every double is a finite decimal
    while True:
        gap = log - target
        with localcontext() as context:
            context.prec = digits + 20
            if abs(gap) > abs(log).scaleb(-digits + 5):
                return gap < 0
        if digits >= max_digits:  # pragma: no cover - a double within 1e-4000 of ln(ratio)
            return False
        digits *= 2
        log = known["log"] = _decimal_ln(ratio, digits)
        known["digits"] = digits


_BISECTIONS = 200  # halvings of a bracket: far past float precision for every bracket used


def bisect_increasing(g, low: np.ndarray, high: np.ndarray, side: str = "mid") -> np.ndarray:
    """Vectorised bisection for the root of an increasing g with g(low) < 0 < g(high) per entry.

    Where the sign condition fails at an end the result converges to that end (the callers
    only need a valid point there; see each caller). ``side`` picks what is returned: the
    midpoint of the final bracket, or its ``"low"`` end (g ≤ 0 there) or its ``"high"`` end
    (g > 0 there), so that a caller can return the root rounded to the side of privacy.
    """
    low, high = np.array(low, dtype=float), np.array(high, dtype=float)
    done = np.zeros(np.shape(low), dtype=bool)
    for _ in range(_BISECTIONS):
        mid = 0.5 * (low + high)
        above = g(mid) > 0
        # an entry that has converged stops moving, so every entry of a vector follows the
        # same steps as it would alone (vectorised = scalar, to the last bit)
        high = np.where(done, high, np.where(above, mid, high))
        low = np.where(done, low, np.where(above, low, mid))
        done = done | (high - low <= 4 * np.finfo(float).eps * np.maximum(np.abs(mid), 1e-300))
        if np.all(done):
            break
    return {"low": low, "high": high}.get(side, 0.5 * (low + high))


def gallop_below(g, low: np.ndarray, high: np.ndarray):
    """Gallop ``low`` down (doubling its distance from ``high``) until g(low) < 0, per entry.

    Returns (low, found): where g stays ≥ 0 down to −1e308, found is False. With ``high``
    where g ≥ 0 it gives :func:`bisect_increasing` its bracket.
    """
    low = np.array(low, dtype=float)
    found = np.asarray(g(low) < 0)
    for _ in range(2100):
        if np.all(found):
            break
        with np.errstate(over="ignore"):
            step = np.maximum(2 * (high - low), 1.0)
            low = np.where(found, low, np.maximum(high - step, -np.finfo(float).max))
        found = np.asarray(g(low) < 0)
        if np.all(found | (low <= -np.finfo(float).max)):
            break
    return low, found


def largest_at_most(g, low: float, high: float, tol: float) -> float:
    """The largest x at which an increasing g is ≤ 0, to within ``tol``: a point of the bracket.

    Needs g(low) ≤ 0 < g(high) (or low = high). Returns an x with g(x) ≤ 0 and a point
    within ``tol`` above it where g > 0, the contract of a bisection, in fewer evaluations
    of g: each round takes a secant step, probes just past the estimate on the other side
    so both ends of the bracket close in (regula falsi alone lets one end creep), and
    bisects whenever a round fails to halve the bracket. Where g is flat in floating point
    (a slope of 0) it bisects; it stops when floating point cannot split the bracket.
    """
    g_low, g_high = g(low), g(high)
    while high - low > tol:
        width = high - low
        slope = (g_high - g_low) / width
        # the secant's root, inside the bracket
        guess = low - g_low / slope if slope > 0 else math.nan
        if not low < guess < high:
            guess = low + 0.5 * (high - low)  # no overflow near 1e308
        value = g(guess)
        # probe on the other side: twice the estimated error, plus tol/2
        step = (2.0 * abs(value) / slope if slope > 0 else 0.0) + 0.5 * tol
        if value <= 0:
            low, g_low = guess, value
            probe = guess + step
        else:
            high, g_high = guess, value
            probe = guess - step
        if low < probe < high:
            value = g(probe)
            if value <= 0:
                low, g_low = probe, value
            else:
                high, g_high = probe, value
        if high - low > 0.5 * width:  # no halving this round: bisect once (guaranteed progress)
            mid = low + 0.5 * (high - low)
            if mid in (low, high):  # floating point cannot split the bracket further
                break
            value = g(mid)
            if value <= 0:
                low, g_low = mid, value
            else:
                high, g_high = mid, value
    return low


def least_integer(meets, guess: int, *, hopeless=None) -> int | None:
    """The smallest integer m ≥ 1 with ``meets(m)``, for a condition false below it, true above.

    A galloping search from ``guess`` (down while it holds, up while it does not, doubling
    the step), then bisection: about 2·log₂ of the distance from the guess in calls, at any
    size. ``hopeless(m)``, checked at each failing step up, ends the search with ``None``
    (no integer the caller can represent meets the condition).
    """
    if meets(guess):  # the answer is at or below the guess: gallop down
        high, step = guess, 1
        while high - step >= 1 and meets(high - step):
            high, step = high - step, 2 * step
        low = max(0, high - step)  # fails (or is 0)
    else:  # gallop up
        low, step = guess, 1
        while not meets(low + step):
            if hopeless is not None and hopeless(low + step):
                return None
            low, step = low + step, 2 * step
        high = low + step
    while high - low > 1:
        mid = (low + high) // 2
        if mid >= 1 and meets(mid):
            high = mid
        else:
            low = mid
    return high


def log_odds(x: float) -> float:
    """ln(x/(1 − x)) for x in (0, 1), as ln x − ln(1 − x) (log1p): the ratio is never formed.

    >>> log_odds(0.5)
    0.0
    """
    return math.log(x) - math.log1p(-x)


def log_hockey_stick(epsilon, log_p, log_q) -> np.ndarray:
    """ln max(0, P − e^ε·Q) from ln P and ln Q: ln P + ln(1 − e^{ε + ln Q − ln P}).

    The hockey-stick divergence of two distributions over the outputs whose privacy loss
    exceeds ε (P under A(D₁), Q under A(D₂)), in log space so that it does not underflow
    before P does; −∞ where P underflows even in log space (δ = 0, not −∞ − −∞ = NaN) or
    where e^ε·Q ≥ P.
    """
    underflow = np.isneginf(log_p)
    with np.errstate(invalid="ignore"):
        gap = np.minimum(epsilon + log_q - np.where(underflow, 0.0, log_p), 0.0)
    with np.errstate(divide="ignore"):
        return np.where(underflow, -np.inf, log_p + np.log(-np.expm1(gap)))


def pmf_loss(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """ln(p/q) on a common grid: +∞ where q = 0 < p, −∞ where p = 0 (never NaN).

    The privacy loss of two pmfs (p under A(D₁), q under A(D₂)): :mod:`helpers.plrv`'s pmf
    functions and the two-sided geometric's lumped PLRV read it.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(p) - np.log(q)
    return np.where(p > 0, np.where(q > 0, ratio, np.inf), -np.inf)


def pmf_loss_upper_quantile(u: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The PLRV of pmfs (p, q) at cumulative probability u, outcomes by decreasing loss."""
    loss = pmf_loss(p, q)
    order = np.argsort(-loss, kind="stable")
    keep = p[order] > 0
    losses, masses = loss[order][keep], p[order][keep]
    edges = np.cumsum(masses)
    index = np.minimum(np.searchsorted(edges, u, side="left"), losses.size - 1)
    return losses[index]


def pmf_of_buckets(h: float, lo: int, probs: np.ndarray, infinity: float):
    """dp_accounting's ``pld_pmf.create_pmf`` of the buckets lo, lo + 1, … with these masses,
    without its round trip through a dict and a Python list (milliseconds a build): the
    same sparse PMF for a short one, the same dense PMF from the array for a long one. Shared
    by the vectorised builds of :mod:`helpers.mechanisms` and :mod:`helpers.attack`."""
    from dp_accounting.pld import pld_pmf

    if probs.size <= pld_pmf._MAX_PMF_SPARSE_SIZE:
        rounded = dict(zip(range(lo, lo + probs.size), probs.tolist(), strict=True))
        return pld_pmf.create_pmf(rounded, h, infinity, pessimistic_estimate=True)
    return pld_pmf.DensePLDPmf(h, lo, np.asarray(probs, dtype=float), infinity, True)
