"""Explaining the choice: odds, the best attack, and a paragraph for the people in the data.

The odds reading (the kind of explanation Nanayakkara et al., USENIX Security 2023, report
worked better than output-based ones and ones that gloss over ε), from a prior to at most a
posterior (:func:`odds`, :func:`odds_sentence`; the text for a person,
:mod:`helpers.release.subject`), beside the best test between neighbours (:func:`attack_reading`,
and on an allocation's own privacy-loss distribution :func:`allocation_attack`).

Part of :mod:`helpers.release`, which re-exports every public name.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from .._docstrings import fill_docstrings
from .._validation import check_finite_scalar, check_int_range
from ..attack import attack_tpr
from ..budget import NoiseFamily
from ..deployments import round_risk, zcdp_tpr
from . import _exact
from ._checks import (
    _check_allocation,
    _check_delta,
    _check_magnitude,
    _check_neighbours,
    _check_open_unit,
)

__all__ = [
    "AttackReading",
    "Odds",
    "allocation_attack",
    "allocation_mechanisms",
    "attack_reading",
    "icon_counts",
    "in_people",
    "odds",
    "odds_sentence",
    "percent",
    "round_up",
]

_LN2 = math.log(2.0)


class Odds(NamedTuple):
    """An odds reading of a guarantee (:func:`odds`).

    ``prior`` the observer's chance before the release, ``posterior`` the most it can be
    after (at ε for δ = 0, at ε + t for δ > 0), ``bad_event`` the probability F of an output
    on which that bound may fail (0 for δ = 0; :func:`helpers.release._exact.failure_chance`
    otherwise, with e^{−t} = 1 − δ/F).
    """

    prior: float
    posterior: float
    bad_event: float


class AttackReading(NamedTuple):
    """The best test between neighbours at a false-positive rate (:func:`attack_reading`)."""

    fpr: float
    tpr: float
    advantage: float


# --- explaining the choice -------------------------------------------------------------------


def odds(epsilon, delta=0.0, *, prior) -> Odds:
    """From a prior to at most a posterior: the odds reading of an (ε, δ) guarantee.

    An observer who thinks there is a chance p that you are in the data (or that your record
    holds a given value) can, after the release, think at most p·e^ε/(p·e^ε + 1 − p)
    (:func:`helpers.deployments.posterior_bound`; Lee & Clifton 2011). For δ > 0 the bound
    is read at ε + t and fails on outputs of probability at most F = δ/(1 − e^{−t})
    (:func:`helpers.deployments.posterior_bad_event_probability`), with F = max(2δ, min(√δ,
    10⁻⁴)) rounded up (:func:`helpers.release._exact.failure_chance`): at most one in 10,000
    unless 2δ (t = ln 2, notebook 09's reading) is larger, and t → 0 as δ → 0, so the odds
    never jump at a tiny δ.
    This is an odds-based explanation, the kind Nanayakkara et al. (2023) report was more
    effective than output-based explanations and than ones that gloss over ε. Both numbers
    are rounded toward the person: the posterior is the least double at or above an exact
    rational upper bound (:mod:`helpers.release._exact`; the inputs read as the decimals
    they print as), so it is the prior itself at ε = 0 and never below the truth near 0 or
    1; ``bad_event`` is F, the least double at or above it. Where F is above 1 in 10 the
    limit is none to rely on and the posterior is 1 (δ may be 1 itself, a group's cap).

    Used in notebook 12.

    Parameters
    ----------
    epsilon : float
        ε ≥ 0 (per person).
    delta : float
        δ in [0, 1] (1, a group's cap: no limit).
    prior : float, keyword-only
        p in (0, 1).

    Returns
    -------
    Odds

    %(raises)s

    References
    ----------
    Lee & Clifton (2011), eq. (4)–(5) with two worlds (the posterior bound
    p·e^ε/(p·e^ε + 1 − p), :func:`helpers.deployments.posterior_bound`); Nanayakkara, Smart,
    Cummings, Kaptchuk & Redmiles (2023), "What Are the Chances? Explaining the Epsilon
    Parameter in Differential Privacy", USENIX Security 2023 (odds-based explanations).

    Examples
    --------
    >>> o = odds(1.0, prior=0.5)
    >>> round(o.posterior, 4), o.bad_event
    (0.7311, 0.0)
    """
    eps = _check_magnitude("epsilon", epsilon)
    d = _check_guarantee_delta(delta)
    p = _check_open_unit("prior", prior)
    bad = _exact.failure_chance(d)
    post, _ = _posterior(eps, p, d, bad)
    return Odds(p, _float_up(post), _float_up(bad))


def _check_guarantee_delta(delta) -> float:
    """δ in [0, 1]: a group's δ reaches 1 (:func:`group_privacy` caps it there), and the
    readings for people then say that no limit holds rather than fail."""
    if not isinstance(delta, bool):
        try:
            if float(delta) == 1.0:
                return 1.0
        except (TypeError, ValueError, OverflowError):
            pass  # the check below names the parameter
    return _check_delta(delta)


def _posterior(eps, p, d, failure) -> tuple:
    """(an upper bound on the posterior, a lower bound on its complement) at ε + t for the
    failure chance F; (1, 0), no bound, when F is above 1 in 10
    (:data:`helpers.release._exact.NO_LIMIT`): a limit failing that often is none to rely on."""
    if failure > _exact.NO_LIMIT:
        return Fraction(1), Fraction(0)
    return _exact.posterior_bounds(eps, p, keep=_exact.keep(d, failure))


def _format_percent(x: float, *, up: bool) -> str:
    """A probability as a percentage that never reads 0 % or 100 % for 0 < x < 1.

    ``x`` is read as the decimal it prints as (:func:`helpers.release._exact.as_given`) and
    rounded exactly: ``up`` toward the larger probability (a posterior or a TPR: toward the
    person), else half-even (:func:`helpers.release._exact.percent`).
    """
    return _exact.percent(_exact.as_given(x), up=up)


def _float_up(v: Fraction) -> float:
    """The least double ≥ v (a bound kept a bound when it leaves the exact arithmetic)."""
    f = float(v)
    return f if Fraction(f) >= v else math.nextafter(f, math.inf)


def _chance_up(v: Fraction) -> str:
    """A small probability (a failure chance) to two significant digits, rounded up."""
    if v >= 1:
        return "1"
    return _exact.text(_exact.significant(v, up=True)) if v > 0 else "0"


def _check_probability(x) -> float:
    """x, a probability in [0, 1] (:func:`percent`, :func:`in_people`)."""
    p = float(check_finite_scalar("x", x))
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"x must be a probability in [0, 1]; got {x!r}")
    return p


def percent(x, *, up=False) -> str:
    """A probability as words' percentage: never 0 % or 100 % for 0 < x < 1.

    One decimal between 1 % and 99 %, two significant digits below 1 % (and of the
    complement above 99 %); ``up`` rounds toward the larger probability (a posterior: toward
    privacy). The figures and sentences of notebook 12 state probabilities with it.

    Not called in a notebook; used by ``helpers.plotting.release``.

    Parameters
    ----------
    x : float
        A probability in [0, 1].
    up : bool, keyword-only
        Round up (a bound's upper end) rather than to nearest.

    Returns
    -------
    str

    %(raises)s

    Examples
    --------
    >>> percent(0.0001), percent(0.999), percent(0.17375, up=True)
    ('0.01 %', '99.9 %', '17.4 %')
    """
    return _format_percent(_check_probability(x), up=bool(up))


def round_up(x, *, digits=3) -> str:
    """A risk number (an ε, a δ) to ``digits`` significant digits, rounded up, as text.

    Read as the decimal it prints as and rounded up exactly (:mod:`helpers.release._exact`),
    so a per-person ε of 1.2341 reads 1.24, never the 1.23 of round-to-nearest.

    Used in notebook 12.

    Parameters
    ----------
    x : float
        A finite number ≥ 0.
    digits : int, keyword-only
        Significant digits, 1 to 17.

    Returns
    -------
    str

    %(raises)s

    Examples
    --------
    >>> round_up(1.2341), round_up(2e-8, digits=2), round_up(0.0)
    ('1.24', '0.00000002', '0')
    """
    v = float(check_finite_scalar("x", x))
    if v < 0:
        raise ValueError(f"x must be a finite number ≥ 0; got {x!r}")
    n = check_int_range("digits", digits, 1, 17)
    if v == 0:
        return "0"
    exact = _exact.as_given(v)
    place = _exact._exponent(exact) - n + 1
    shown = _exact.round_to(exact, place, up=True)
    if _exact._exponent(Fraction(shown)) > _exact._exponent(exact):
        shown = _exact.round_to(exact, place + 1, up=True)
    return _exact.text(shown)


def _percent_up(x: float) -> str:
    """A probability as a percentage, rounded up (toward privacy); never 0 % or 100 % inside."""
    return _format_percent(x, up=True)


def _percent(x: float) -> str:
    """A probability as a percentage, rounded to nearest; never 0 % or 100 % inside (0, 1)."""
    return _format_percent(x, up=False)


def _in_people(x: Fraction, size: int, *, up: bool, complement: Fraction | None = None) -> str:
    """x as "k in size" people, k rounded up (``up``: x an upper bound, ``complement`` a lower
    bound on 1 − the truth) or half-even; "fewer than 1 in size" / "more than size − 1 in
    size" at the ends, so a probability strictly inside (0, 1) never reads as none or all."""
    scaled = x * size
    count = math.ceil(scaled) if up else round(scaled)
    rest = 1 - x if complement is None else complement
    if 0 < scaled < 1 and (up or count == 0):
        return f"fewer than 1 in {size}"
    if x < 1 and rest > 0 and count >= size:
        return f"more than {size - 1} in {size}"
    if x >= 1 and up:
        return f"up to {size} in {size}"
    return f"{max(count, 1) if 0 < x < 1 else count} in {size}"


def in_people(x, *, people=100, up=False) -> str:
    """A probability as "k in ``people``", the words the odds sentence and the icon array use.

    k is x·people rounded to nearest, or up with ``up`` (an upper bound); a probability strictly
    between 0 and 1 never reads as none or all: "fewer than 1 in 100", "more than 99 in 100".
    Rounded to nearest, these are the words for an icon array's 0 or all of its icons (the prior
    of :func:`helpers.plotting.release.plot_icon_array`); with ``up`` they state a bound below
    1 in 100, or above 99 in 100 yet below certainty (the odds sentence's words).

    Not called in a notebook; used by ``helpers.plotting.release``.

    Parameters
    ----------
    x : float
        A probability in [0, 1], read as the decimal it prints as.
    people : int, keyword-only
        The size of the icon array (10 to 10,000).
    up : bool, keyword-only
        Round up (a bound's upper end) rather than to nearest.

    Returns
    -------
    str

    %(raises)s

    References
    ----------
    Nanayakkara et al. (2023), the odds framing written as a frequency (the course's rendering).

    Examples
    --------
    >>> in_people(0.05), in_people(0.999), in_people(0.001), in_people(0.1241, up=True)
    ('5 in 100', 'more than 99 in 100', 'fewer than 1 in 100', '13 in 100')
    """
    p = _check_probability(x)
    size = check_int_range("people", people, 10, 10_000)
    return _in_people(_exact.as_given(p), size, up=bool(up))


def icon_counts(epsilon, delta=0.0, *, prior, people=100) -> tuple:
    """The icon array's counts: the prior as people of ``people`` (to nearest) and the most
    the posterior can be (rounded up, never below the true count).

    Not called in a notebook; used by ``helpers.plotting.release``.

    Parameters
    ----------
    epsilon, delta, prior
        As :func:`odds`.
    people : int, keyword-only
        The size of the icon array (10 to 10,000).

    Returns
    -------
    builtins.tuple
        (before, after): ints with before ≤ after ≤ people; ``after`` is ⌈posterior·people⌉
        of the exact upper bound (:mod:`helpers.release._exact`).

    %(raises)s

    Examples
    --------
    >>> icon_counts(1.0, prior=0.05)  # 5 % to at most 12.5 %
    (5, 13)
    """
    eps = _check_magnitude("epsilon", epsilon)
    d = _check_guarantee_delta(delta)
    p = _check_open_unit("prior", prior)
    size = check_int_range("people", people, 10, 10_000)
    post, _ = _posterior(eps, p, d, _exact.failure_chance(d))
    before = round(_exact.as_given(p) * size)
    return before, max(before, math.ceil(post * size))


#: What an observer guesses about a person, by neighbour notion: with add-remove neighbours
#: whether the person is in the data; with change-one neighbours (n public) which of two
#: values the person's record holds (the test is between two values of one record).
_GUESS = {
    "add-remove": "that you are in the data",
    "change-one": "that your record holds one value rather than another",
}


def odds_sentence(epsilon, delta=0.0, *, prior, people=100, neighbours="add-remove") -> str:
    """The odds reading in one sentence, with the same numbers as ``people`` icons.

    "An observer who thinks there is a 5 % chance (5 in 100) that you are in the data can,
    after seeing the release, think at most 17.4 % (18 in 100)." The "k in 100" is one
    person's chance, as the icon array draws it (never 100 people). The posterior
    is rounded up, never down (:func:`odds`). A probability strictly between 0 and 1 never
    reads 0 % or 100 %: below 1 % it keeps two significant digits (0.01 %), above 99 % two
    of its complement (99.99 %), and its icons read "fewer than 1 in 100" or "more than 99
    in 100". With change-one neighbours (n public) the
    observer guesses which of two values your record holds, not whether you are in the data.

    Used in notebook 12.

    Parameters
    ----------
    epsilon, delta, prior
        As :func:`odds`.
    people : int, keyword-only
        The size of the icon array the numbers are stated for (100).
    neighbours : {"add-remove", "change-one"}, keyword-only
        What the observer guesses: whether you are in the data, or your record's value.

    Returns
    -------
    str

    %(raises)s

    Examples
    --------
    >>> odds_sentence(1.0, prior=0.5)[:58]
    'An observer who thinks there is a 50 % chance (50 in 100) '
    """
    reading = odds(epsilon, delta, prior=prior)
    size = check_int_range("people", people, 10, 10_000)
    guess = _GUESS[_check_neighbours(neighbours)]
    p = _exact.as_given(reading.prior)
    failure = _exact.failure_chance(float(delta))
    post, rest = _posterior(float(epsilon), reading.prior, float(delta), failure)
    before = _in_people(p, size, up=False)
    after = _in_people(post, size, up=True, complement=rest)
    # the bound is below 1 for every prior below 1; past 1 − 10⁻⁸ it reads as near certainty
    if rest >= Fraction(1, 10**8):
        most = f"think at most {_exact.percent(post, up=True, complement=rest)} ({after})"
    else:
        most = f"be all but certain (more than {size - 1} in {size})"
    sentence = (
        f"An observer who thinks there is a {_exact.percent(p, up=False)} chance ({before}) "
        f"{guess} can, after seeing the release, {most}"
    )
    if failure > _exact.NO_LIMIT:
        sentence = (
            f"An observer who thinks there is a {_exact.percent(p, up=False)} chance ({before}) "
            f"{guess} may, after seeing the release, be all but certain: at this δ the "
            "guarantee sets no limit to rely on"
        )
    elif reading.bad_event > 0:
        sentence += (
            f", except on some outputs (a chance of at most "
            f"{_chance_up(failure)}) where the bound may fail"
        )
    return sentence + "."


def _g_up(x, digits: int) -> str:
    """A finite x ≥ 0 as ``format(x, ".{digits}g")`` would print it, but rounded up."""
    return f"{round_risk(float(x), digits=digits):.{digits}g}"


def attack_reading(epsilon, delta=0.0, *, fpr, rho=None) -> AttackReading:
    """The best test's true-positive rate between neighbours at a false-positive rate, and its advantage.

    From (ε, δ): the tight (ε, δ) trade-off curve (:func:`helpers.deployments.tpr_at_fpr`,
    Dong, Roth & Su 2022; Kairouz, Oh & Viswanath 2015). With ``rho`` (a zCDP release): the
    curve ρ_z-zCDP itself implies (:func:`helpers.deployments.zcdp_tpr`), which is tighter
    than the (ε, δ) conversion. The advantage is TPR − FPR. Both floats are rounded toward the
    person: each is the least double at or above an exact upper bound
    (:mod:`helpers.release._exact`), never an ulp below the curve.

    Used in notebook 12. (:func:`allocation_attack` reads the same test on the releases'
    own composed privacy-loss distribution, :func:`helpers.attack.attack_tpr`: never above
    this one.)

    Parameters
    ----------
    epsilon, delta
        The guarantee (δ in [0, 1)).
    fpr : float, keyword-only
        α in the open interval (0, 1) (:func:`helpers.attack.attack_tpr` also takes the
        trivial ends 0 and 1; a reading for people states a real error rate).
    rho : float, keyword-only
        ρ_z ≥ 0 of a zCDP release (then ``epsilon`` and ``delta`` are not read).

    Returns
    -------
    AttackReading

    %(raises)s

    References
    ----------
    Kairouz, Oh & Viswanath (2015), "The Composition Theorem for Differential Privacy",
    Theorem 2.1 (every test's error rates under (ε, δ)-DP); Dong, Roth & Su (2022),
    "Gaussian differential privacy", JRSS B 84(1) (the trade-off function f_{ε,δ}(α) =
    max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))); Bun & Steinke (2016), Definition 1.1, with
    Balle et al. (2020), Theorem 21, for the zCDP curve (:func:`helpers.deployments.zcdp_tpr`).

    Examples
    --------
    >>> round(attack_reading(1.0, fpr=0.01).tpr, 6)  # e·0.01
    0.027183
    """
    a = _check_open_unit("fpr", fpr)
    if rho is not None:
        r = _check_magnitude("rho", rho)
        # certified above the truth in exact arithmetic, then the float not below it
        tpr = a
        if r > 0:
            tpr = _float_up(_exact.zcdp_tpr_bound(r, _exact.as_given(a), float(zcdp_tpr(r, a))))
    else:
        eps = _check_magnitude("epsilon", epsilon)
        # the (ε, δ) curve bounded in exact arithmetic, then the float not below it (the
        # float formula of tpr_at_fpr can land an ulp under the truth)
        tpr = _float_up(_exact.tpr_bound(eps, _check_delta(delta), a))
    return AttackReading(a, tpr, _advantage_up(tpr, a))


def _advantage_up(tpr: float, fpr: float) -> float:
    """TPR − FPR, the float not below the exact difference (the FPR read as given), ≥ 0."""
    return _float_up(max(Fraction(tpr) - _exact.safer(fpr), Fraction(0)))


def allocation_mechanisms(allocation) -> list:
    """The mechanism objects of an allocation's releases, each of the allocation's own class.

    What :mod:`helpers.attack` and :func:`helpers.budget.pld_delta` read: each release's
    noise at its scale and sensitivity, built from the allocation's mechanism through the
    registry (:data:`helpers.mechanisms.MECHANISM_CLASSES`, via
    :meth:`helpers.budget.NoiseFamily.of`): a geometric allocation gives
    :class:`helpers.mechanisms.TwoSidedGeometric` objects, never Laplace stand-ins (continuous
    noise of the same scale is *more* private than the integer noise, so it would understate
    an attack).

    Not called in a notebook; used by ``helpers.release``.

    Parameters
    ----------
    allocation : helpers.budget.Allocation

    Returns
    -------
    builtins.list
        One mechanism object per release.

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> allocation_mechanisms(budget_for_accuracy([Release("count", k=5.0)]))[0].sensitivity
    1.0
    >>> type(allocation_mechanisms(
    ...     budget_for_accuracy([Release("count", k=5.0)], mechanism="geometric"))[0]).__name__
    'TwoSidedGeometric'
    """
    allocation = _check_allocation(allocation)
    cls = NoiseFamily.of(allocation).mechanism
    return [
        cls(float(scale), sensitivity=float(sensitivity))
        for scale, sensitivity in zip(allocation.scales, allocation.sensitivities, strict=True)
    ]


def allocation_attack(allocation, *, fpr, discretization=1e-4) -> AttackReading:
    """The best test between neighbours against all of an allocation's releases, on their own PLD.

    :func:`helpers.attack.attack_tpr` of :func:`allocation_mechanisms`: the releases'
    composed privacy-loss distribution (exact for Gaussian noise, pessimistic on a grid for
    several Laplace releases). Both it and :func:`attack_reading` of the allocation's total
    (ε, δ) are upper bounds on the best test, so the smaller is reported: usually the PLD's,
    well below (the summed ε's worst cases never happen together); at a tiny α the grid's
    pessimism can put it a hair above the (ε, δ) line. The releases are read with their own
    noise (:func:`allocation_mechanisms`: each release's own mechanism class, never a
    substitute noise), which :mod:`helpers.attack` reads for any registered class.

    Used in notebook 12.

    Parameters
    ----------
    allocation : helpers.budget.Allocation
    fpr : float, keyword-only
        α in the open interval (0, 1) (:func:`helpers.attack.attack_tpr` also takes the
        trivial ends 0 and 1; a reading for people states a real error rate).
    discretization : float, keyword-only
        The grid step of :func:`helpers.attack.attack_tpr`.

    Returns
    -------
    AttackReading

    %(raises)s

    References
    ----------
    Kulynych, Gomez, Kaissis, du Pin Calmon & Troncoso (2024), "Attack-Aware Noise
    Calibration for Differential Privacy", NeurIPS 2024, Algorithm 1 (the trade-off curve of a
    privacy-loss distribution); Dong, Roth & Su (2022), Proposition 2.12; Doroshenko, Ghazi,
    Kamath, Kumar & Manurangsi (2022), "Connect the Dots" (the pessimistic PLD); for the
    (ε, δ) line, :func:`attack_reading`.

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> a = budget_for_accuracy([Release("count", k=5.0)] * 3)
    >>> allocation_attack(a, fpr=0.1).tpr < attack_reading(a.epsilon, fpr=0.1).tpr
    True
    """
    allocation = _check_allocation(allocation)
    a = _check_open_unit("fpr", fpr)
    pld = float(attack_tpr(allocation_mechanisms(allocation), fpr=a, discretization=discretization))
    line = attack_reading(float(allocation.epsilon), float(allocation.delta), fpr=a).tpr
    tpr = min(pld, line)
    return AttackReading(a, tpr, _advantage_up(tpr, a))


fill_docstrings(globals())
