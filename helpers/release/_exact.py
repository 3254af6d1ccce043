"""Exact bounds and directed rounding for the risk numbers printed to people in the data.

Every number :mod:`helpers.release.explain` prints about a person's risk is rounded toward
the person (a posterior, a true-positive rate, a failure chance or an icon count is never
printed below the truth), at every input the functions accept. Floats run out near 0 and 1
(a prior of 1 − 10⁻¹¹, a posterior a hair above its prior), so the bounds here are exact
rationals (:class:`fractions.Fraction`), with e^{−ε} bracketed by the :mod:`decimal`
module's correctly rounded ``exp`` (within half a unit in the last of 60 digits, widened to
a full unit each way).

An input float is read as the decimal it prints as (``repr``: 0.2 is one fifth, not the
double nearest it), so a prior of 0.2 at ε = 0 reads 20 %, not 20.1 %.
"""

from __future__ import annotations

import math
from decimal import Context, Decimal
from fractions import Fraction

#: digits of e^{−ε}; the bracket is 2·10⁻⁶⁰ relative, far inside any printed digit
_DIGITS = 60
#: e^{−ε} below 10^−_EMIN is bracketed by [0, 10^−_EMIN] (ε above about 9,000)
_EMIN = 4_000
#: exact subtraction of a two-digit complement from 100 (down to 10^−_EMIN)
_WIDE = Context(prec=2 * _EMIN)


def as_given(x) -> Fraction:
    """The exact rational a float prints as (its shortest ``repr``)."""
    return Fraction(Decimal(repr(float(x))))


def riskier(x) -> Fraction:
    """The larger of the two exact readings of a float: the decimal it prints as, and the
    binary value it holds. A risk that grows with x, read at this, is never below the truth
    for either (0.1 and the double 0.1000000000000000055…): a fuzz on the doubles found a
    posterior one ulp under the exact value at the double when read at the decimal only."""
    return max(as_given(x), Fraction(float(x)))


def safer(x) -> Fraction:
    """The smaller of the two exact readings of a float (:func:`riskier`)."""
    return min(as_given(x), Fraction(float(x)))


def exp_minus(epsilon: Fraction) -> tuple[Fraction, Fraction]:
    """Bounds lo ≤ e^{−ε} ≤ hi for a rational ε ≥ 0 (exact at ε = 0)."""
    if epsilon == 0:
        return Fraction(1), Fraction(1)
    if epsilon < Fraction(1, 10**15):
        # 1 − ε ≤ e^{−ε} ≤ 1 − ε + ε²/2 (alternating series): relative to the ε a TPR or a
        # posterior's rise is made of, within ε/2 (60 digits of e^{−ε} would be only 10⁻⁶⁰
        # absolute, far above ε = 10⁻³⁰⁰)
        return 1 - epsilon, 1 - epsilon + epsilon**2 / 2
    ctx = Context(prec=_DIGITS, Emin=-_EMIN, Emax=_EMIN, traps=[])
    x = ctx.divide(Decimal(-epsilon.numerator), Decimal(epsilon.denominator))
    x_lo, x_hi = ctx.next_minus(x), ctx.next_plus(x)  # −ε rounded: widen the argument
    lo = ctx.next_minus(ctx.exp(x_lo))
    ctx.clear_flags()
    hi = ctx.next_plus(ctx.exp(x_hi))
    return max(Fraction(lo), Fraction(0)), Fraction(hi)


#: the failure chance a person is told is at most one in 10,000 unless 2δ is larger
FAILURE_CAP = Fraction(1, 10**4)


def failure_chance(delta) -> Fraction:
    """The one chance, F, on which a person's limits may fail: max(2δ, min(√δ, 10⁻⁴)), at most 1.

    Under (ε, δ)-DP the privacy loss exceeds ε + t with probability at most δ/(1 − e^{−t})
    for every t > 0 (:func:`helpers.deployments.posterior_bad_event_probability` derives it),
    so the odds may be read at ε + t, failing with chance F, for e^{−t} = 1 − δ/F
    (:func:`keep`). F = 2δ gives t = ln 2; a fixed t made the reading jump
    at the smallest δ (10⁻¹⁰ moved 52.5 % to 68.9 %). This F keeps the failure chance within
    one in 10,000 (or 2δ, when that is larger) and lets t fall to 0 with δ, so the odds move
    continuously from the pure reading: at δ = 10⁻⁶, t ≈ 0.01 (t = ln 2 only from δ = 5·10⁻⁵). Rounded up to two significant digits, the number
    printed; exact (a rational) so that t follows from it exactly.
    """
    d = as_given(delta)  # the chance told, a round number; keep() reads δ at its riskier
    if d <= 0:
        return Fraction(0)
    if 2 * d >= 1:
        return Fraction(1)
    ctx = Context(prec=_DIGITS, Emin=-_EMIN, Emax=_EMIN, rounding="ROUND_CEILING", traps=[])
    root = Fraction(ctx.sqrt(ctx.divide(Decimal(d.numerator), Decimal(d.denominator))))  # ≥ √δ
    f = max(2 * d, min(root, FAILURE_CAP))
    return min(Fraction(significant(f, up=True)), Fraction(1))


#: a limit that fails with a chance above this is none a person can rely on: the readings
#: for people then state no posterior bound (a posterior of 1), whatever the odds at ε + t
NO_LIMIT = Fraction(1, 10)


def keep(delta, failure: Fraction) -> Fraction:
    """e^{−t} = 1 − δ/F for the failure chance F ≥ 2δ (so t ≤ ln 2); ½ when F = 1 (then the
    limit states nothing and the old reading at ε + ln 2 is kept); 1 for δ = 0. δ is read
    as :func:`failure_chance` reads it, so that F and t are one exact pair."""
    d = as_given(delta)
    if d <= 0:
        return Fraction(1)
    return max(1 - d / failure, Fraction(1, 2)) if failure > 0 else Fraction(1, 2)


def posterior_bounds(epsilon, prior, *, keep: Fraction = Fraction(1)) -> tuple[Fraction, Fraction]:
    """(an upper bound on the posterior, a lower bound on its complement) of Lee & Clifton.

    posterior = 1/(1 + r·e^{−ε'}) and 1 − posterior = r·e^{−ε'}/(1 + r·e^{−ε'}),
    r = (1 − p)/p, both read with the lower bound on e^{−ε}, at ε' = ε + t with
    e^{−t} = ``keep`` (:func:`keep`; 1: at ε itself). Exact at ε = 0 with ``keep`` 1 (the
    prior itself).
    """
    eps = riskier(epsilon)
    # the posterior grows with the prior and with ε: both read at the riskier reading, but
    # for no loss at all (ε' = 0), where the posterior is the prior the reader stated
    p = as_given(prior) if eps == 0 and keep == 1 else riskier(prior)
    r = (1 - p) / p
    lo, _ = exp_minus(eps)
    lo *= keep
    t = r * lo
    return 1 / (1 + t), t / (1 + t)


def tpr_bound(epsilon, delta, fpr) -> Fraction:
    """An upper bound on min(1, δ + e^ε α, 1 − e^{−ε}(1 − δ − α)), the (ε, δ) curve's TPR."""
    a, d = riskier(fpr), riskier(delta)  # the bound grows with each
    lo, _ = exp_minus(riskier(epsilon))
    # δ + e^ε·α with e^ε ≤ 1/lo (no bound when e^{−ε} underflows: then the other line binds)
    line1 = d + a / lo if lo > 0 else Fraction(1)
    line2 = 1 - lo * (1 - d - a)
    return min(Fraction(1), line1, line2)


def _exponent(v: Fraction) -> int:
    """⌊log₁₀ v⌋ exactly, for v > 0."""
    e = len(str(v.numerator)) - len(str(v.denominator))
    while Fraction(10) ** e > v:
        e -= 1
    while Fraction(10) ** (e + 1) <= v:
        e += 1
    return e


def round_to(v: Fraction, place: int, *, up: bool | None) -> Decimal:
    """v rounded to a multiple of 10^place: ``up`` True ceiling, False floor, None half-even."""
    scaled = v / Fraction(10) ** place
    n = math.ceil(scaled) if up else math.floor(scaled) if up is False else round(scaled)
    return Decimal(n).scaleb(place)


def significant(v: Fraction, *, up: bool | None, digits: int = 2) -> Decimal:
    """v > 0 to ``digits`` significant digits (at least one decimal), rounded as asked."""
    place = min(_exponent(v) - digits + 1, -1)
    shown = round_to(v, place, up=up)
    if shown != 0 and _exponent(Fraction(shown)) > _exponent(v):  # 9.96 → 10.0: one digit less
        shown = round_to(v, place + 1, up=up)
    return shown


def text(d: Decimal) -> str:
    """A decimal without trailing zeros or exponent."""
    out = format(d, "f")
    return out.rstrip("0").rstrip(".") if "." in out else out


def percent(value: Fraction, *, up: bool, complement: Fraction | None = None) -> str:
    """A probability as a percentage that never reads 0 % or 100 % for 0 < value < 1.

    One decimal between 1 % and 99 %; below 1 %, two significant digits (0.01 %, not 0 %);
    above 99 %, two significant digits of the complement (99.99 %, not 100 %). ``up`` rounds
    ``value`` (an upper bound) up, reading the part above 99 % from ``complement`` (a lower
    bound on 1 − the truth; 1 − value if not given) rounded down; else half-even.
    """
    if value <= 0 or value >= 1:
        return f"{round(100 * value):d} %"
    rest = 1 - value if complement is None else complement
    hundred = 100 * value
    if hundred < 1:
        shown = significant(hundred, up=up or None)
    elif hundred > 99 and rest > 0:
        # exact: 100 − 10⁻³⁰⁰ keeps its 300 nines (the default context would round to 100)
        shown = _WIDE.subtract(Decimal(100), significant(100 * rest, up=False if up else None))
    elif hundred > 99:  # no lower bound on the complement: the truth may be 100 % − 0
        return "100 %"
    else:
        shown = round_to(hundred, -1, up=up or None)
    return text(shown) + " %"


#: relative slack above the float search's answer that the certificate below must forbid
_ZCDP_SLACK = (Fraction(1, 10**9), Fraction(1, 10**6), Fraction(1, 10**3))


def _renyi_excess(t: Decimal, x: Decimal, a: Decimal, rho: Decimal, ctx: Context) -> Decimal:
    """(α−1)(D_α(Bern t ‖ Bern x) − ρα) at 60 digits (``a`` = α − 1 > 0; swap t and x for
    the other direction): ln(t^α x^{1−α} + (1−t)^α (1−x)^{1−α}) − ρα(α − 1)."""
    alpha = a + 1
    one_t, one_x = ctx.subtract(1, t), ctx.subtract(1, x)
    first = ctx.exp(ctx.subtract(ctx.multiply(alpha, ctx.ln(t)), ctx.multiply(a, ctx.ln(x))))
    second = ctx.exp(
        ctx.subtract(ctx.multiply(alpha, ctx.ln(one_t)), ctx.multiply(a, ctx.ln(one_x)))
    )
    return ctx.subtract(ctx.ln(ctx.add(first, second)), ctx.multiply(rho, ctx.multiply(alpha, a)))


def zcdp_tpr_bound(rho: float, fpr: Fraction, tpr: float) -> Fraction:
    """A certified upper bound on the TPR at ``fpr`` that ρ_z-zCDP allows, from the float
    ``tpr`` of :func:`helpers.deployments.zcdp_tpr`.

    The float search is an upper bound only up to its floating-point arithmetic; here the
    value U a little above it (``tpr``·(1 + 10⁻⁹), then 10⁻⁶, 10⁻³ if needed) is proven
    forbidden: some Rényi order α has D_α(Bern U ‖ Bern α_fpr) > ρ_z·α or the other direction
    (Bun & Steinke 2016, Definition 1.1, applied to the test's outcome), evaluated with the
    :mod:`decimal` module at 60 digits and a margin of 10⁻⁴⁰, far above its rounding error.
    Every t ≥ U is then forbidden too (both divergences increase in t on [α_fpr, 1]), so the
    truth is below U. Falls back to 1 (always true) if no order proves it.
    """
    ctx = Context(prec=_DIGITS, Emin=-_EMIN, Emax=_EMIN, traps=[])
    x = Decimal(fpr.numerator) / Decimal(fpr.denominator)  # rates are short decimals: exact
    if Fraction(x) != fpr or rho <= 0 or tpr >= 1:
        return fpr if rho <= 0 else Fraction(1)
    r = Decimal(repr(float(rho)))
    for slack in _ZCDP_SLACK:
        bound = Fraction(Decimal(repr(float(tpr)))) * (1 + slack)
        if bound >= 1:
            return Fraction(1)
        u = Context(prec=30, rounding="ROUND_CEILING").create_decimal(
            Decimal(bound.numerator) / Decimal(bound.denominator)
        )
        # the order to try: where the float excess at U is largest (either direction), on
        # the grid and then refined by golden-section search in ln(α − 1)
        point = (math.log(float(u)), math.log1p(-float(u)))
        rate = (math.log(float(x)), math.log1p(-float(x)))
        best = max(
            (_float_excess(k / 100, forward, point, rate, float(rho)), k, forward)
            for k in range(-600, 601)
            for forward in (True, False)
        )
        _, k, forward = best
        lo, hi = (k - 1) / 100, (k + 1) / 100
        g = (math.sqrt(5) - 1) / 2
        for _ in range(60):
            m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
            if _float_excess(m1, forward, point, rate, float(rho)) < _float_excess(
                m2, forward, point, rate, float(rho)
            ):
                lo = m1
            else:
                hi = m2
        a = Fraction(Decimal(repr(10.0 ** ((lo + hi) / 2))))
        ad = Decimal(a.numerator) / Decimal(a.denominator)  # the order need not be exact
        t, s = (u, x) if forward else (x, u)
        if _renyi_excess(t, s, ad, r, ctx) > Decimal("1e-40"):
            return Fraction(u)
    return Fraction(1)


def _float_excess(log_a: float, forward: bool, point, rate, rho: float) -> float:
    """D_α − ρα in floats at α − 1 = 10^``log_a``, for picking the order only."""
    a = 10.0**log_a
    (p, pc), (q, qc) = (point, rate) if forward else (rate, point)
    return _logaddexp((a + 1) * p - a * q, (a + 1) * pc - a * qc) / a - rho * (a + 1)


def _logaddexp(a: float, b: float) -> float:
    """ln(e^a + e^b) without overflow."""
    big, small = max(a, b), min(a, b)
    return big + math.log1p(math.exp(small - big))
