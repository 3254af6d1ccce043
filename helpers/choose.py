"""Choosing ε from both sides: the accuracy a release needs and the risk it may carry.

The capstone of the course (notebook 10). A release is a count, a sum or a mean with public
bounds, answered with the Laplace mechanism. Which data sets are neighbours is an explicit
argument, ``neighbours`` (notebook 00, "Which neighbours?"):

* ``"change-one"`` (bounded DP): the number of records n is public and a neighbour changes one
  record. A count has Δ = 1, a sum of values clipped to the public [lower, upper] Δ = upper −
  lower, a mean of n such values Δ = (upper − lower)/n.
* ``"add-remove"`` (unbounded DP): a neighbour adds or removes one record, so n is not public.
  A count has Δ = 1, a sum Δ = max(|lower|, |upper|); a mean's sensitivity must cover the
  smallest data sets, (upper − lower)/2 whatever n, so it is refused here: release a noisy sum
  and a noisy count instead (or pass the Δ you derived as ``sensitivity=``).

One change is at most two additions or removals, so a release that is ε-DP under add-remove
neighbours is 2ε-DP under change-one; the converse does not hold (n may reveal a person).
The risk side's ε must be read for the same neighbours: Lee & Clifton's worlds all have
n records (change-one); Kazan & Reiter's Theorem 1 assumes add-remove, and its bound at ε is
also a bound for a change-one ε-DP release whose "target absent" world replaces the target,
provided their Assumption 2 holds (the adversary's beliefs about the other records depend
neither on the target's inclusion nor on its value) and the replacement is drawn from the
same distribution as the target's record (the absent world is then a mixture of change-one
neighbours of each present one): both steps then cost e^{ε}, not e^{ε} and e^{2ε}, so their
ε is safe, if conservative, for it.

**Accuracy side.** Laplace noise Z with scale b = Δ/ε has P(|Z| > k) = e^{−k/b} = e^{−kε/Δ}.
"Within ±k with probability at least c" therefore needs ε ≥ Δ·ln(1/(1 − c))/k: the
*smallest* ε meeting the accuracy (:func:`epsilon_for_accuracy`).

**Risk side.** The *largest* ε the tolerated risk allows, either

* Lee & Clifton's posterior bound ρ (code ``risk``) against an adversary deciding between two
  worlds with prior p: p·e^ε/(p·e^ε + 1 − p) ≤ ρ ⇔ ε ≤ ln(ρ(1 − p)/(p(1 − ρ)))
  (:func:`epsilon_for_posterior`; with p = 1/W this is the Lee & Clifton bound, eq. (7),
  at Δv = Δf, and Kazan & Reiter's eq. (38)); or
* a Kazan & Reiter risk profile, whose recommended ε comes from ``helpers.kazan_reiter``.

:func:`choose` puts the two together: the feasible interval [ε_accuracy, ε_risk] or, when it
is empty, the value of each knob (k, the coverage, n for a mean, the risk) that would open it.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from scipy.optimize import brentq

from . import kazan_reiter as kr
from ._docstrings import fill_docstrings
from ._numerics import float_up, least_integer, ln_at_most, nudge_until
from ._validation import (
    RULE_OPEN_UNIT,
    RULE_POSITIVE,
    check_finite_scalar,
    check_open_unit,
    check_positive,
)
from .deployments import posterior_bound, round_risk

__all__ = [
    "NEIGHBOURS",
    "RELEASES",
    "Choice",
    "choose",
    "durham_epsilon_for_switching",
    "epsilon_for_accuracy",
    "epsilon_for_posterior",
    "epsilon_for_profile",
    "laplace_error_probability",
    "sensitivity_of",
]

RELEASES = ("count", "sum", "mean")
#: The two neighbour notions a release can be calibrated for (notebook 00, "Which neighbours?").
NEIGHBOURS = ("change-one", "add-remove")


def _check_neighbours(neighbours) -> None:
    if not isinstance(neighbours, str) or neighbours not in NEIGHBOURS:
        raise ValueError(
            f"neighbours must be one of {NEIGHBOURS} (notebook 00, 'Which neighbours?'); "
            f"got {neighbours!r}"
        )


def _out(array):
    array = np.asarray(array, dtype=float)
    return float(array) if array.ndim == 0 else array


def sensitivity_of(
    release: str, *, n=None, lower=None, upper=None, neighbours="change-one"
) -> float:
    """Δ of a count, sum or mean with public bounds, for change-one or add-remove neighbours.

    Change-one (n public): ``count`` 1 (n, lower, upper unused), ``sum`` upper − lower,
    ``mean`` (upper − lower)/n, n ≥ 1 an integer. Add-remove: ``count`` 1, ``sum``
    max(|lower|, |upper|) (the record added or removed is any value in the bounds), and a
    ``mean`` is refused: its n changes with the neighbour (release a sum and a count).

    Used in notebooks 00 and 10.

    Rounded up (a sensitivity one double too small would under-noise): the exact
    (upper − lower)/n, then the smallest double at or above it; beyond the largest double
    (a sum between bounds near ±1e308) it is refused.

    Parameters
    ----------
    release : {"count", "sum", "mean"}
        The query.
    n : int, keyword-only
        The public number of records, an integer ≥ 1 (a mean only).
    lower, upper : float, keyword-only
        The public bounds the values are clipped to, lower < upper (a sum or a mean).
    neighbours : {"change-one", "add-remove"}, keyword-only
        Which data sets are neighbours (:data:`NEIGHBOURS`); change-one by default.

    Returns
    -------
    float
        Δ, the L1 sensitivity under those neighbours.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> sensitivity_of('count'), sensitivity_of('sum', lower=0, upper=10)
    (1.0, 10.0)
    >>> sensitivity_of('mean', n=100, lower=0, upper=100)
    1.0
    >>> sensitivity_of('sum', lower=10, upper=20, neighbours='add-remove')
    20.0
    """
    if release not in RELEASES:
        raise ValueError(f"release must be one of {RELEASES}; got {release!r}")
    _check_neighbours(neighbours)
    if release == "count":
        return 1.0
    if release == "mean" and neighbours == "add-remove":
        raise ValueError(
            "a mean under neighbours='add-remove' must be calibrated for the smallest data "
            "sets ((upper − lower)/2, whatever n: n changes with the neighbour and is not "
            "public); release a noisy sum and a noisy count, or use neighbours='change-one' "
            "with a public n"
        )
    if lower is None or upper is None:
        raise ValueError(f"a {release} needs public bounds lower < upper; got {lower!r}, {upper!r}")
    lo, hi = check_finite_scalar("lower", lower), check_finite_scalar("upper", upper)
    if not hi > lo:
        raise ValueError(f"upper must exceed lower; got lower={lower!r}, upper={upper!r}")
    if neighbours == "add-remove":  # the record added or removed moves the sum by its value
        exact = max(abs(Fraction(lo)), abs(Fraction(hi)))
    else:  # upper − lower exactly (it overflowed to inf for bounds near ±1e308), rounded up
        exact = Fraction(hi) - Fraction(lo)
    if release == "mean":
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n (the public number of records) must be an integer ≥ 1; got {n!r}")
        exact /= int(n)
    try:
        value = float_up(exact)
    except OverflowError:
        value = math.inf
    if math.isinf(value):
        formula = {"sum": "upper − lower", "mean": "(upper − lower)/n"}[release]
        if neighbours == "add-remove":
            formula = "max(|lower|, |upper|)"
        size = Decimal(exact.numerator) / Decimal(exact.denominator)
        given = f"lower={lower!r}, upper={upper!r}" + ("" if release == "sum" else f", n={n!r}")
        raise ValueError(
            f"the {release}'s sensitivity {formula} must be at most the largest double "
            f"(about 1.8e308); got {given}, where it is {size:.4g}"
        )
    return value


def laplace_error_probability(epsilon, *, k, sensitivity):
    """P(|Z| > k) for Laplace noise of scale Δ/ε: exp(−kε/Δ) (the tail of the Laplace).

    Not called in a notebook; used by ``helpers.plotting.choose``.

    Parameters
    ----------
    epsilon : float or array_like
        ε > 0.
    k : float or array_like, keyword-only
        The error bound, > 0.
    sensitivity : float or array_like, keyword-only
        Δ > 0.

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_error_probability(3.0, k=1.0, sensitivity=1.0), 4)  # e^{-3}
    0.0498
    """
    eps = check_positive("epsilon", epsilon)
    k = check_positive("k", k)
    delta_f = check_positive("sensitivity", sensitivity)
    return _out(np.exp(-k * eps / delta_f))


def epsilon_for_accuracy(k, *, sensitivity, coverage=0.95):
    """Smallest ε with P(|Z| ≤ k) ≥ ``coverage`` under Laplace noise: Δ·ln(1/(1 − c))/k.

    Vectorised over ``k``, ``sensitivity`` and ``coverage`` (broadcast).

    Used in notebook 10.

    Parameters
    ----------
    k : float or array_like
        The accuracy: |noise| ≤ k, > 0.
    sensitivity : float or array_like, keyword-only
        Δ > 0.
    coverage : float or array_like, keyword-only
        The probability c in (0, 1) with which |noise| ≤ k.

    Returns
    -------
    float or numpy.ndarray
        The smallest ε (inf where k is so small that no finite ε reaches it).

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(epsilon_for_accuracy(1.0, sensitivity=1.0), 4)  # ln 20
    2.9957
    """
    k = check_positive("k", k)
    delta_f = check_positive("sensitivity", sensitivity)
    c = check_open_unit("coverage", coverage)
    with np.errstate(over="ignore"):  # k of 1e-320: no finite ε reaches it, ε = inf
        return _out(-delta_f * np.log1p(-c) / k)


def epsilon_for_posterior(risk, *, prior):
    """Largest ε whose two-world posterior bound stays ≤ ``risk``: ln(ρ(1 − p)/(p(1 − ρ))).

    The inverse of :func:`helpers.deployments.posterior_bound`. A risk at or below the prior
    is refused: the adversary believes that much before any release, so no ε > 0 meets it.
    Rounded toward privacy: the largest double ε whose posterior bound is ≤ ``risk`` both
    exactly and as :func:`~helpers.deployments.posterior_bound` computes it (the closed form
    rounded to nearest gave a posterior a hair above the risk for about a third of inputs).

    Used in notebook 10.

    Parameters
    ----------
    risk : float or array_like
        The largest posterior ρ the adversary may reach, in (prior, 1).
    prior : float or array_like, keyword-only
        The adversary's prior p on the true world, in (0, 1).

    Returns
    -------
    float or numpy.ndarray
        The largest ε (a Python float for scalar input, else the broadcast shape).

    %(raises)s

    References
    ----------
    Lee & Clifton (2011), eq. (7) with two worlds; Kazan & Reiter (2024), eq. (38).

    Examples
    --------
    >>> round(epsilon_for_posterior(0.75, prior=0.5), 4)  # ln 3
    1.0986
    """
    rho = check_open_unit("risk", risk)
    p = check_open_unit("prior", prior)
    rho, p = np.broadcast_arrays(rho, p)
    if np.any(rho <= p):
        raise ValueError(
            f"risk must exceed the prior (the adversary's belief before any release); got "
            f"risk={risk!r}, prior={prior!r}"
        )
    terms = (np.log(rho), -np.log1p(-rho), -np.log(p), np.log1p(-p))
    candidate = np.maximum(sum(terms), 0.0)
    # a bound on the rounding error of the four logs and their sum, for the exact check
    tolerance = 2.0**-48 * sum(np.abs(t) for t in terms) + 2.0**-1000

    def odds_ratio(index) -> Fraction:  # e^ε ≤ ρ(1 − p)/(p(1 − ρ)) ⇔ posterior ≤ ρ
        r, q = Fraction(float(rho[index])), Fraction(float(p[index]))
        return (q * (1 - r)) / (r * (1 - q))

    logs: dict = {}

    def safe(eps):
        # ln(1/ratio) ≤ −ε ⇔ ε ≤ ln(ratio); and the posterior as the course computes it
        exact = ln_at_most(-candidate, -eps, odds_ratio, tolerance, logs)
        return exact & (np.asarray(posterior_bound(eps, prior=p)) <= rho)

    return _out(nudge_until(candidate, safe, toward_zero=True))


def epsilon_for_profile(kind: str, *, r, a=0.0, fixed=1.0) -> float:
    """The ε Kazan & Reiter recommend for a risk profile (Table 4's closed forms).

    ``kind``: ``"constant"`` (r* = r̃: ½·ln r̃), ``"inclusion"`` (profile (15)/(17):
    max(ã/p, r̃) on q = q̃ = ``fixed``) or ``"values"`` (profile (16): max(ã/(p̃q), r̃) on
    p = p̃ = ``fixed``).

    Used in notebook 10.

    Parameters
    ----------
    kind : {"constant", "inclusion", "values"}
        The profile.
    r : float, keyword-only
        r̃ > 1, the relative-risk bound.
    a : float, keyword-only
        ã in [0, 1), the absolute-risk bound (inclusion and values profiles).
    fixed : float, keyword-only
        q = q̃ (inclusion) or p = p̃ (values), in (0, 1].

    Returns
    -------
    float
        The recommended ε.

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Table 4 and profiles (14)–(17).

    Examples
    --------
    >>> round(epsilon_for_profile('inclusion', r=5.0, a=0.5, fixed=1.0), 4)  # ln 9
    2.1972
    """
    if kind == "constant":
        return float(kr.epsilon_constant_profile(r))
    if kind == "inclusion":
        return kr.epsilon_inclusion_profile(a, fixed, r)
    if kind == "values":
        return kr.epsilon_values_profile(a, fixed, r)
    raise ValueError(f"kind must be 'constant', 'inclusion' or 'values'; got {kind!r}")


def durham_epsilon_for_switching(deviation, *, max_probability=0.1, direction="worst") -> float:
    """Smallest ε keeping Durham's switching probability (Kazan & Reiter, Example 3) ≤ the max.

    With α = e^{−ε}, the two-sided geometric noise Z has P(Z ≤ −m) = P(Z ≥ m) = α^m/(1 + α)
    for m ≥ 1, where m is how many whole deaths the true count sits from the far side of the
    target (``helpers.kazan_reiter.durham_true_counts``: m = count − ⌊threshold⌋ above the
    target, ⌊threshold⌋ + 1 − count below it; the worst direction is the smaller m). The
    switching probability decreases in ε, so the answer solves α^m/(1 + α) = t. For m = 1 the
    closed form is α = t/(1 − t), ε = ln((1 − t)/t), computed as numpy's log of that ratio, the
    same form and the same function as Table 4's ln((r̃ − ã)/(1 − ã)): at t = 0.1 both ratios are
    the float 9.0, so the tie with profile (17) at ã = 0.5, r̃ = 5 (both ln 9) compares equal on
    every CPU instead of depending on which log identity, or which library's log (libm's and
    numpy's AVX-512 loop may differ in the last place), rounds lower. For m ≥ 2, Brent's method
    on ln α.

    Used in notebook 10.

    Parameters
    ----------
    deviation : float
        How far the county's rate sits from the target, in (0, target) deaths per 1,000.
    max_probability : float, keyword-only
        The largest switching probability t accepted, in (0, 1).
    direction : {"above", "below", "worst"}, keyword-only
        Which side of the target the true rate lies on (``"worst"``: the smaller margin).

    Returns
    -------
    float
        The smallest ε (an accuracy-side ε: rounding it is not a privacy claim).

    %(raises)s

    References
    ----------
    Kazan & Reiter (2024), Example 3 (Durham County infant deaths).

    Examples
    --------
    >>> round(durham_epsilon_for_switching(0.25), 12)  # ln 9
    2.197224577336
    >>> durham_epsilon_for_switching(0.25) == epsilon_for_profile("inclusion", r=5.0, a=0.5)
    True
    """
    t = float(
        check_open_unit(
            "max_probability",
            check_finite_scalar("max_probability", max_probability, rule=RULE_OPEN_UNIT),
        )
    )
    dev = check_finite_scalar("deviation", deviation)
    if not 0 < dev < kr.DURHAM_TARGET:
        raise ValueError(
            f"deviation must lie in (0, {kr.DURHAM_TARGET:g}) deaths per 1,000 (the target); "
            f"got {deviation!r}"
        )
    if direction not in ("above", "below", "worst"):
        raise ValueError(f"direction must be 'above', 'below' or 'worst'; got {direction!r}")
    above, below, threshold = kr.durham_true_counts(dev)
    cut = math.floor(float(threshold))
    m_above, m_below = int(above) - cut, cut + 1 - int(below)
    m = {"above": m_above, "below": m_below, "worst": min(m_above, m_below)}[direction]
    if m == 1:
        # numpy's log, as helpers.kazan_reiter's closed forms take theirs: one function of one
        # float, so a tie between the two sides is a tie on every CPU
        return float(np.log((1 - t) / t))

    # g(ln α) = m ln α − ln(1 + α) − ln t increases in ln α; root in ln α < 0 since g(0) > 0
    def g(log_alpha: float) -> float:
        return m * log_alpha - math.log1p(math.exp(log_alpha)) - math.log(t)

    low = math.log(t) / m - 1.0
    while g(low) > 0:
        low *= 2
    return -brentq(g, low, 0.0, xtol=1e-15)


def _records_needed(lower, upper, k: float, c: float, eps_risk: float) -> int:
    """Smallest n' with ε_accuracy(mean over n') ≤ ε_risk, as this module computes both.

    ε_accuracy(n') = (upper − lower)·ln(1/(1 − c))/(k·n') falls with n' (and so does its
    float value: every step rounds monotonically), so the first n' meeting ε_risk is found
    by a galloping search from the exact real answer, then bisection
    (``helpers._numerics.least_integer``): a few dozen evaluations at any size (stepping by
    ±1 hung at a tiny ε_risk, and the float n·ε/ε_risk overflowed to an OverflowError).
    Where even the smallest positive sensitivity (5e-324) does not meet ε_risk, floats
    cannot express the answer and the exact real one is given.
    """
    log_term = Fraction(-math.log1p(-c))
    exact = (Fraction(upper) - Fraction(lower)) * log_term / (Fraction(k) * Fraction(eps_risk))
    guess = max(1, math.ceil(exact))
    smallest = math.nextafter(0.0, 1.0)

    def meets(m: int) -> bool:
        sensitivity = sensitivity_of("mean", n=m, lower=lower, upper=upper)
        return epsilon_for_accuracy(k, sensitivity=sensitivity, coverage=c) <= eps_risk

    def hopeless(m: int) -> bool:  # the smallest positive sensitivity: n' cannot help
        return sensitivity_of("mean", n=m, lower=lower, upper=upper) == smallest

    found = least_integer(meets, guess, hopeless=hopeless)
    return guess if found is None else found


def _k_knob(k: float, delta_f: float, c: float, eps_risk: float) -> float:
    """The smallest double k' whose ε_accuracy (as :func:`epsilon_for_accuracy` computes it) is
    ≤ ε_risk: Δ·ln(1/(1 − c))/ε_risk, moved up until the round trip holds (the closed form
    alone was an ulp short: fed back to :func:`choose` it was infeasible)."""
    with np.errstate(over="ignore"):
        guess = float(np.float64(delta_f) * -math.log1p(-c) / eps_risk)
    if not math.isfinite(guess):
        return math.inf  # no finite k meets ε_risk

    def ok(values):
        values = np.atleast_1d(values)
        finite = np.isfinite(values) & (values > 0)
        ks = np.where(finite, values, 1.0)
        return ~finite & (values > 0) | (
            finite & (epsilon_for_accuracy(ks, sensitivity=delta_f, coverage=c) <= eps_risk)
        )

    return float(nudge_until([max(guess, math.nextafter(0.0, 1.0))], ok, toward_zero=False)[0])


def _coverage_knob(k: float, delta_f: float, eps_risk: float) -> float:
    """The largest coverage c' < 1 whose ε_accuracy at ±k is ≤ ε_risk: 1 − e^{−kε_risk/Δ} (as
    −expm1: 1 − exp lost it all at a tiny ε_risk), moved down until the round trip holds and
    kept below 1 (a coverage of 1 cannot be fed back)."""
    guess = min(-math.expm1(-k * eps_risk / delta_f), math.nextafter(1.0, 0.0))

    def ok(values):
        values = np.atleast_1d(values)
        inside = values > 0
        cs = np.where(inside, values, 0.5)
        return ~inside | (epsilon_for_accuracy(k, sensitivity=delta_f, coverage=cs) <= eps_risk)

    return float(nudge_until([guess], ok, toward_zero=True)[0])


def _risk_knob(eps_acc: float, prior: float) -> float:
    """The posterior ε_accuracy implies, moved up until :func:`epsilon_for_posterior` (which
    rounds down) gives back at least ε_accuracy (the bound rounded to nearest gave an ε_risk an
    ulp short: fed back, the choice was infeasible). 1 where no risk below 1 allows ε_accuracy."""
    risk = posterior_bound(eps_acc, prior=prior)
    if not prior < risk < 1:
        return risk

    def ok(values):
        values = np.atleast_1d(values)
        inside = (values > prior) & (values < 1)
        rs = np.where(inside, values, 0.5 * (1 + prior))
        return ~inside | (epsilon_for_posterior(rs, prior=prior) >= eps_acc)

    return float(nudge_until([risk], ok, toward_zero=False)[0])


class Choice(NamedTuple):
    """Both sides of the choice and what would reconcile them.

    ``epsilon_accuracy`` is the smallest ε meeting the accuracy, ``epsilon_risk`` the largest
    meeting the risk; ``feasible`` when the first is ≤ the second. ``knobs`` maps each knob to
    the value that makes the interval non-empty (for a feasible choice, the slack each knob
    has): ``k`` (the ±k the risk-side ε delivers), ``coverage`` (the coverage it delivers
    at ±k, below 1), ``n`` (for a mean: records needed) and, if the risk is a posterior bound,
    ``risk`` (the posterior the accuracy-side ε implies). Each is rounded so that, fed back
    to :func:`choose` alone, it makes the choice feasible (k and risk up, coverage down).
    """

    epsilon_accuracy: float
    epsilon_risk: float
    feasible: bool
    knobs: dict
    message: str


def choose(
    release: str,
    *,
    k,
    epsilon_risk,
    coverage=0.95,
    n=None,
    lower=None,
    upper=None,
    prior=None,
    sensitivity=None,
    neighbours,
) -> Choice:
    """Solve both sides for a count, sum or mean and report the feasible interval or the knobs.

    The neighbour notion is required: the accuracy side's Δ and the risk side's ε must be read
    for the same neighbours (module docstring).

    Used in notebook 10.

    Parameters
    ----------
    release : {"count", "sum", "mean"}
    k : float
        The accuracy: |noise| ≤ k with probability ≥ ``coverage``.
    epsilon_risk : float
        The largest ε the risk allows (from :func:`epsilon_for_posterior`,
        :func:`epsilon_for_profile` or Lee & Clifton's ``epsilon_upper_bound``).
    n, lower, upper : see :func:`sensitivity_of`.
    sensitivity : float, optional
        Δ to use instead of :func:`sensitivity_of` (e.g. Lee & Clifton's empirical Δf); then
        ``n``, ``lower``, ``upper`` are not used and there is no ``n`` knob.
    prior : float, optional
        If the risk was a two-world posterior bound with this prior, the knobs include the
        risk the accuracy-side ε would imply.
    neighbours : {"change-one", "add-remove"}, keyword-only, required
        Which data sets are neighbours: the Δ of :func:`sensitivity_of` and the notion
        ``epsilon_risk`` must be valid for. A Lee & Clifton or two-world bound on worlds that
        differ in one record's value is change-one; a Kazan & Reiter ε is exact for
        add-remove and conservative for change-one (module docstring). The message names it.
        Leaving it out is Python's TypeError (a missing keyword argument).

    Returns
    -------
    Choice
        ``epsilon_accuracy``, ``epsilon_risk``, ``feasible``, the ``knobs`` (``k``,
        ``coverage``, ``n`` for a mean with bounds, ``risk`` with a prior) and a ``message``.
        The ``n`` knob is the smallest n this module's own ε_accuracy accepts, at any size.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> choice = choose('count', k=5.0, epsilon_risk=1.0, neighbours='change-one')
    >>> choice.feasible, round(choice.epsilon_accuracy, 4)
    (True, 0.5991)
    """
    _check_neighbours(neighbours)
    delta_f = _release_sensitivity(release, sensitivity, n, lower, upper, neighbours)
    k = float(check_positive("k", check_finite_scalar("k", k, rule=RULE_POSITIVE)))
    c = float(
        check_open_unit("coverage", check_finite_scalar("coverage", coverage, rule=RULE_OPEN_UNIT))
    )
    eps_risk = float(
        check_positive(
            "epsilon_risk", check_finite_scalar("epsilon_risk", epsilon_risk, rule=RULE_POSITIVE)
        )
    )
    if prior is not None:
        prior = float(
            check_open_unit("prior", check_finite_scalar("prior", prior, rule=RULE_OPEN_UNIT))
        )
    eps_acc = epsilon_for_accuracy(k, sensitivity=delta_f, coverage=c)
    knobs = {
        "k": _k_knob(k, delta_f, c, eps_risk),
        "coverage": _coverage_knob(k, delta_f, eps_risk),
    }
    # a mean under add-remove was refused by sensitivity_of unless the caller gave its own Δ
    if release == "mean" and sensitivity is None:
        knobs["n"] = _records_needed(lower, upper, k, c, eps_risk)
    if prior is not None:
        knobs["risk"] = _risk_knob(eps_acc, prior)
    feasible = eps_acc <= eps_risk
    message = _choice_message(feasible, eps_acc, eps_risk, k, c, delta_f, knobs, n, neighbours)
    return Choice(eps_acc, eps_risk, feasible, knobs, message)


def _release_sensitivity(release, sensitivity, n, lower, upper, neighbours) -> float:
    """:func:`choose`'s Δ: the caller's ``sensitivity`` (checked), or :func:`sensitivity_of`."""
    if sensitivity is None:
        return sensitivity_of(release, n=n, lower=lower, upper=upper, neighbours=neighbours)
    if release not in RELEASES:
        raise ValueError(f"release must be one of {RELEASES}; got {release!r}")
    return float(
        check_positive(
            "sensitivity", check_finite_scalar("sensitivity", sensitivity, rule=RULE_POSITIVE)
        )
    )


def _g4(x: float, *, down: bool = False) -> str:
    """x to four significant digits toward the person (what the accuracy needs and a posterior
    up, what the risk allows down; never to nearest), as a table's :func:`round_risk`."""
    return f"{round_risk(x, digits=4, down=down):.4g}" if math.isfinite(x) else f"{x}"


def _choice_message(feasible, eps_acc, eps_risk, k, c, delta_f, knobs, n, neighbours) -> str:
    """:func:`choose`'s message: the feasible interval, or the gap and the knobs that open it."""
    acc, allowed = _g4(eps_acc), _g4(eps_risk, down=True)
    if feasible:
        return (
            f"feasible: any ε in [{acc}, {allowed}] meets both the accuracy "
            f"(±{k:g} with {100 * c:g} % probability, Δ = {delta_f:g} for {neighbours} "
            "neighbours) and the risk"
        )
    parts = [
        f"accept ±{_g4(knobs['k'])} instead of ±{k:g}",
        f"or a coverage of {100 * knobs['coverage']:.3g} % instead of {100 * c:g} %",
    ]
    if "n" in knobs:
        parts.append(f"or n ≥ {knobs['n']:,} records instead of {n:,}")
    if "risk" in knobs:
        parts.append(f"or tolerate a posterior of {_g4(knobs['risk'])}")
    return (
        f"no ε meets both ({neighbours} neighbours, Δ = {delta_f:g}): accuracy needs "
        f"ε ≥ {acc}, risk allows ε ≤ {allowed}. "
        "To open an interval: " + ", ".join(parts)
    )


#: this module's own docstring section (helpers/_docstrings.py fills it at import)
_SECTIONS = {
    "references": """\
References
----------
Dwork & Roth (2014), §3.3 (the Laplace mechanism); Lee & Clifton (2011); Kazan & Reiter (2024).""",
}

fill_docstrings(globals(), _SECTIONS)
