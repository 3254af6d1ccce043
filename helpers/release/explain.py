"""Explaining the choice: odds, the best attack, and a paragraph for the people in the data.

The odds reading (the kind of explanation Nanayakkara et al., USENIX Security 2023, report
worked better than output-based ones and ones that gloss over ε), from a prior to at most a
posterior (:func:`odds`, :func:`odds_sentence`,
:func:`subject_paragraph`), beside the best test between neighbours (:func:`attack_reading`,
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
from ..deployments import round_risk, tpr_at_fpr, zcdp_tpr
from . import _exact
from ._checks import (
    _check_allocation,
    _check_contributions,
    _check_delta,
    _check_magnitude,
    _check_neighbours,
    _check_open_unit,
    _check_unit,
)
from .people import group_privacy

__all__ = [
    "AttackReading",
    "Odds",
    "allocation_attack",
    "allocation_mechanisms",
    "attack_reading",
    "icon_counts",
    "odds",
    "odds_sentence",
    "percent",
    "round_up",
    "subject_paragraph",
]

_LN2 = math.log(2.0)


class Odds(NamedTuple):
    """An odds reading of a guarantee (:func:`odds`).

    ``prior`` the observer's chance before the release, ``posterior`` the most it can be
    after (at ε for δ = 0, at ε + ln 2 for δ > 0), ``bad_event`` the probability of an output
    on which that bound may fail (0 for δ = 0, 2δ otherwise).
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
    is read at ε + ln 2 and fails on outputs of probability at most 2δ
    (:func:`helpers.deployments.posterior_bad_event_probability`), as notebook 09 reads it.
    This is an odds-based explanation, the kind Nanayakkara et al. (2023) report was more
    effective than output-based explanations and than ones that gloss over ε. Both numbers are rounded toward the person: the posterior is the least double at
    or above an exact rational upper bound (:mod:`helpers.release._exact`; the inputs read
    as the decimals they print as), so it is the prior itself at ε = 0 and never below the
    truth near 0 or 1; ``bad_event`` is 2δ exactly, rounded up.

    Used in notebook 12.

    Parameters
    ----------
    epsilon : float
        ε ≥ 0 (per person).
    delta : float
        δ in [0, 1).
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
    d = _check_delta(delta)
    p = _check_open_unit("prior", prior)
    post, _ = _exact.posterior_bounds(eps, p, halve=d > 0)
    bad = min(2 * _exact.as_given(d), Fraction(1))
    return Odds(p, _float_up(post), _float_up(bad))


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


def _chance_words(v: Fraction) -> str:
    """:func:`_chance_up` for the paragraph a person reads: below 10⁻¹² a bound in words,
    never a long run of zeros (a denormal δ printed 300 of them)."""
    if 0 < v < Fraction(1, 10**12):
        return "one in a trillion"
    return _chance_up(v)


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
    p = float(check_finite_scalar("x", x))
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"x must be a probability in [0, 1]; got {x!r}")
    return _format_percent(p, up=bool(up))


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
    d = _check_delta(delta)
    p = _check_open_unit("prior", prior)
    size = check_int_range("people", people, 10, 10_000)
    post, _ = _exact.posterior_bounds(eps, p, halve=d > 0)
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

    "An observer who thinks there is a 5 % chance that you are in the data (5 in 100 people
    like you) can, after seeing the release, think at most 17.4 % (18 in 100)." The posterior
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
    >>> odds_sentence(1.0, prior=0.5)[:60]
    'An observer who thinks there is a 50 % chance that you are i'
    """
    reading = odds(epsilon, delta, prior=prior)
    size = check_int_range("people", people, 10, 10_000)
    guess = _GUESS[_check_neighbours(neighbours)]
    p = _exact.as_given(reading.prior)
    post, rest = _exact.posterior_bounds(float(epsilon), reading.prior, halve=reading.bad_event > 0)
    before = _in_people(p, size, up=False)
    after = _in_people(post, size, up=True, complement=rest)
    # the bound is below 1 for every prior below 1; past 1 − 10⁻⁸ it reads as near certainty
    if rest >= Fraction(1, 10**8):
        most = f"think at most {_exact.percent(post, up=True, complement=rest)} ({after})"
    else:
        most = f"be all but certain (more than {size - 1} in {size})"
    sentence = (
        f"An observer who thinks there is a {_exact.percent(p, up=False)} chance {guess} "
        f"({before} people like you) can, after seeing the release, {most}"
    )
    if reading.bad_event > 0:
        sentence += (
            f", except on rare outputs (a chance of at most "
            f"{_chance_up(2 * _exact.as_given(float(delta)))}) where the bound may fail"
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
    than the (ε, δ) conversion. The advantage is TPR − FPR.

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
        tpr = float(tpr_at_fpr(a, epsilon=eps, delta=_check_delta(delta)))
    return AttackReading(a, tpr, max(tpr - a, 0.0))


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
    line = float(tpr_at_fpr(a, epsilon=float(allocation.epsilon), delta=float(allocation.delta)))
    tpr = min(pld, line)
    return AttackReading(a, tpr, max(tpr - a, 0.0))


#: the false-positive rates the paragraph reads the best attack at, as frequencies
_RATES = (
    (Fraction(1, 1000), "1 in 1,000"),
    (Fraction(1, 100), "1 in 100"),
    (Fraction(1, 10), "1 in 10"),
)


def _attack_words(epsilon, delta, fpr, rho) -> list:
    """(the FPR as words, the TPR as a percentage rounded up, TPR/FPR rounded up) per rate."""
    rates = list(_RATES)
    a = _exact.as_given(fpr)
    if all(a != r for r, _ in rates):
        rates = sorted([*rates, (a, _percent(fpr))])
    out = []
    for rate, words in rates:
        if rho is not None:
            r = _check_magnitude("rho", rho)
            # the float search certified (and raised a hair) in exact arithmetic, as the
            # (ε, δ) line below is bounded exactly
            tpr = rate
            if r > 0:
                tpr = _exact.zcdp_tpr_bound(r, rate, float(zcdp_tpr(r, float(rate))))
        else:
            tpr = _exact.tpr_bound(float(epsilon), float(delta), float(rate))
        ratio = _exact.text(_exact.significant(tpr / rate, up=True))
        out.append((words, _exact.percent(tpr, up=True), ratio))
    return out


def subject_paragraph(
    epsilon,
    delta=0.0,
    *,
    prior,
    unit="person",
    contributions=1,
    fpr=0.01,
    rho=None,
    neighbours="add-remove",
) -> str:
    """A short paragraph a person in the data can read, generated from the numbers.

    It says, every number rounded toward the person (:mod:`helpers.release._exact`):

    * whose privacy is protected (the unit, the bound on each person's records) and what:
      whether you took part and the value of your answers (with add-remove neighbours a
      changed answer is one record removed and one added, so it is read at the guarantee
      of a group of two, :func:`group_privacy`); with change-one neighbours the number of
      people is public and only the answers are protected;
    * the odds reading (:func:`odds_sentence`) at the stated prior and beside it at an even
      chance (50 %), where a small stated prior can hide a large rise;
    * the best attack (:func:`attack_reading`) at false-positive rates 1 in 1,000, 1 in 100
      and 1 in 10 (and ``fpr``), with its ratio TPR/FPR, the honest summary;
    * that the guarantee covers everything published from the data together and later
      releases add to it; that the curator sees the raw data (the central model); that
      conclusions about groups are what a release is for and are not protected;
    * with ``unit="record"`` and up to m > 1 records per person, every number addressed to
      "you" is the person's, a group of m (:func:`group_privacy`: mε, δ·Σ_{i<m} e^{iε},
      ρ_z·m²), and the expert line states both the per-record and the per-person values;
    * where no limit can be stated (the failure chance below reaches 1, or rounds up to it:
      δ(1 + e^ε) ≥ ½ under add-remove), it says so in plain words instead of stating limits;
    * for (ε, δ) one failure chance, the larger of the readings' bad events: 2δ (the odds'
      bad event, which also bounds an outright disclosure of chance δ) and, with add-remove
      neighbours, 2δ(1 + e^ε), twice the δ of a group of two (:func:`group_privacy`) that
      the answers' reading rests on; so max(2δ, 2δ(1 + e^ε)) under add-remove, 2δ under
      change-one, at most 1. For a zCDP release (``rho``) that δ is no chance of failure
      but the slack that turns ρ_z into an ε.

    The chances are stated as odds, the kind of explanation Nanayakkara et al. (2023) report
    was more effective than output-based ones and ones that gloss over ε (their abstract; the
    frequencies "1 in 100" are this course's wording of the same chances, not a format that
    abstract names). The same abstract reports that respondents offered information about ε
    were more willing to share their data than those shown a state-of-the-art explanation:
    an explanation moves people, so every limit of the guarantee is stated beside the odds,
    and ε itself comes last, for experts, so that the plain statements, not the number,
    carry the meaning.

    Used in notebook 12.

    Parameters
    ----------
    epsilon, delta
        The per-person guarantee (δ in [0, 1)).
    prior : float, keyword-only
        The observer's prior p in (0, 1).
    unit : {"person", "record", "user"}, keyword-only
        Whose privacy ε is stated for.
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person.
    fpr : float, keyword-only
        A further false-positive rate α in (0, 1) the attack is read at.
    rho : float, keyword-only
        ρ_z of a zCDP release: the attack is read on its own curve and δ is read as the
        conversion's slack.
    neighbours : {"add-remove", "change-one"}, keyword-only
        What the observer and the test try to tell: whether you are in the data, or which of
        two values your record holds.

    Returns
    -------
    str

    %(raises)s

    References
    ----------
    Nanayakkara, Smart, Cummings, Kaptchuk & Redmiles (2023), USENIX Security 2023
    (odds-based explanations, n = 963); Lee & Clifton (2011) (the posterior); Kairouz, Oh & Viswanath (2015) and
    Dong, Roth & Su (2022) (the best test); Dwork & Roth (2014), §2.3 and Theorem 2.2
    (δ's outright disclosure; group privacy); Bun & Steinke (2016) (zCDP).

    Examples
    --------
    >>> subject_paragraph(1.0, prior=0.5).startswith("This release protects each person")
    True
    """
    _check_unit(unit)
    m = _check_contributions(contributions)
    neighbours = _check_neighbours(neighbours)
    eps = _check_magnitude("epsilon", epsilon)
    d = _check_delta(delta)
    _check_open_unit("fpr", fpr)
    p = _check_open_unit("prior", prior)
    if rho is not None:
        rho = float(_check_magnitude("rho", rho))
    expert = (
        f"For experts: ε {_expert_up(eps, 3)}"  # each rounded up, never to nearest
        + (f", δ {_expert_up(d, 2, 1e-300)}" if d > 0 else "")
        + (f", ρ {_expert_up(rho, 3)}" if rho is not None else "")
        + f", per {unit}, {neighbours} neighbours"
    )
    # the numbers are the reader's: a person with up to m records is a group of m, so a
    # guarantee per record is read at group privacy's (mε, δ·Σ e^{iε}) and ρ_z·m² (never at
    # one record's, which promised a person of 5 records 29 % where the truth is 75 %)
    person = unit == "record" and m > 1
    if person:
        group = group_privacy(eps, d, size=m)
        eps, d = float(group.epsilon), float(group.delta)
        rho = None if rho is None else float(rho) * m * m
        expert += (
            f"; for a person of up to {m} records (group privacy): ε {_expert_up(eps, 3)}"
            + (f", δ {_expert_up(d, 2, 1e-300)}" if d > 0 else "")
            + (f", ρ {_expert_up(rho, 3)}" if rho is not None else "")
        )
    expert += "."
    if _chance_up(_failure_chance(eps, d, neighbours)) == "1":
        # a failure chance of 1, or one that rounds up to it: no limit to state
        return " ".join([_whom_sentence(unit, m, neighbours), _no_limit_sentence(eps, d), expert])
    parts = [_whom_sentence(unit, m, neighbours)]
    if person:
        parts.append(
            f"The numbers below are for all of your records together, up to {m}: a person "
            "with several records is protected less than one record is."
        )
    odds_parts, failure = _odds_sentences(eps, d, p, neighbours)
    parts += odds_parts
    parts.append(_attack_sentence(eps, d, fpr, rho, neighbours))
    parts += _scope_sentences()
    parts += _failure_sentences(d, rho, failure)
    parts.append(expert)
    return " ".join(parts)


def _failure_chance(eps, d, neighbours) -> Fraction:
    """The chance the paragraph's limits fail (:func:`_odds_sentences`' one chance), at most 1:
    2δ, and under add-remove 2δ of a group of two, 2δ(1 + e^ε)."""
    if d == 0:
        return Fraction(0)
    if d >= 1:  # a group's δ can reach 1 (group privacy caps it there): no limit at all
        return Fraction(1)
    failure = min(2 * _exact.as_given(d), Fraction(1))
    if neighbours == "add-remove":
        two = group_privacy(eps, d, size=2)
        failure = max(failure, min(2 * _exact.as_given(two.delta), Fraction(1)))
    return failure


def _no_limit_sentence(eps, d) -> str:
    """What to say when the guarantee's failure chance reaches 1: no limit a person can use."""
    return (
        f"With ε {_expert_up(eps, 3)} and δ {_expert_up(d, 2, 1e-300)}, the limits this release could "
        "state may fail, in the worst case by revealing your data outright, and that chance "
        "cannot be bounded below certainty: it promises nothing you can rely on. A smaller ε "
        "or δ would."
    )


def _expert_up(x, digits: int, floor: float = 1e-6) -> str:
    """'= x' for a number of the expert line, rounded up; '< floor' below it (ε and ρ below
    10⁻⁶ in plain digits, δ below 10⁻³⁰⁰: never a denormal's 4.94e-324)."""
    if 0 < float(x) < floor:
        return f"< {floor:g}" if floor < 1e-6 else "< 0.000001"
    return f"= {_g_up(x, digits)}"


def _whom_sentence(unit, m, neighbours) -> str:
    """Whose privacy the release protects, and what: taking part and the answers
    (add-remove), or the answers alone (change-one, the number of people public)."""
    whom = {
        "person": "each person",
        "user": "each user",
        "record": "each record (a person with several records is protected less)",
    }[unit]
    kept = (
        f" No one's data counts more than {m} record{'s' if m > 1 else ''}: extra records are "
        "left out."
        if m > 1
        else ""
    )
    if neighbours == "add-remove":
        return (
            f"This release protects {whom}: it limits what anyone can learn about whether you "
            f"took part and about your answers.{kept}"
        )
    return (
        f"This release protects {whom}: the number of people is public, and it limits what "
        f"anyone can learn about your answers.{kept}"
    )


def _plain_odds(e, dd, at, guess) -> str:
    """The odds sentence without its failure clause (one chance is stated, at the end)."""
    text = odds_sentence(e, dd, prior=at, neighbours=guess)
    return text.split(", except on rare outputs")[0].rstrip(".") + "."


def _odds_sentences(eps, d, p, neighbours) -> tuple:
    """(the odds sentences, the one failure chance as a Fraction): at the stated prior, at an
    even chance, and under add-remove for the answers (a group of two)."""
    parts = [_plain_odds(eps, d, p, neighbours)]
    if p != 0.5:
        even = _plain_odds(eps, d, 0.5, neighbours)
        parts.append("Starting from an even chance instead: " + even[0].lower() + even[1:])
    failure = min(2 * _exact.as_given(d), Fraction(1))
    if neighbours == "add-remove":
        two = group_privacy(eps, d, size=2)  # one answer changed: one record out, one in
        answers = _plain_odds(two.epsilon, two.delta, 0.5, "change-one")
        parts.append(
            "About your answers (one answer changed is one record removed and one added): "
            + answers[0].lower()
            + answers[1:]
        )
        # the answers' reading fails with the group's 2δ, the larger: the one chance stated
        failure = max(failure, min(2 * _exact.as_given(two.delta), Fraction(1)))
    return parts, failure


def _attack_sentence(eps, d, fpr, rho, neighbours) -> str:
    """The best attack at the false-positive rates :func:`_attack_words` reads."""
    spotted = "; ".join(
        f"wrongly accusing {w} of those who did not, they spot at most {t} of those who did "
        f"({r} times as often)"
        for w, t, r in _attack_words(eps, d, fpr, rho)
    )
    if neighbours == "add-remove":
        return (
            f"Someone trying to tell whether you took part can do no better than this: {spotted}."
        )
    spotted = spotted.replace("of those who did not", "of the records holding the second value")
    spotted = spotted.replace("of those who did", "of those holding the first")
    return f"Someone trying to tell which of two values your record holds can do no better than this: {spotted}."


def _scope_sentences() -> list:
    """What the guarantee covers and what it does not (composition, the central model,
    conclusions about groups)."""
    return [
        "These limits cover everything published from this data together; any later release "
        "about the same people adds to them.",
        "The organisation that collects the data sees it in full: the limits are on what is "
        "published, not on who holds the data.",
        "Conclusions about groups (how common an answer is among people like you, say) are not "
        "protected: they are what the release is for, and they may be true of you.",
    ]


def _failure_sentences(d, rho, failure) -> list:
    """The one failure chance of an (ε, δ) release, or a zCDP release's δ as its slack."""
    if d > 0 and rho is not None:
        return [
            f"The release is zCDP (ρ {_expert_up(rho, 3)}); its δ {_expert_up(d, 2, 1e-300)} is "
            "no chance of "
            "failure but the slack that turns ρ into an ε: the protection weakens gradually, "
            f"and the odds above can be exceeded only on outputs of chance at most "
            f"{_chance_words(failure)}."
        ]
    if d > 0:
        return [
            f"The odds above may fail on rare outputs, with a chance of at most "
            f"{_chance_words(failure)}, in the worst case by "
            "revealing your data outright."
        ]
    return []


fill_docstrings(globals())
