"""What a person in the data reads: a short text for the public, then the details, then a line for experts.

:func:`subject_summary` is the short layer: at most 120 words and five numbers, every chance
a frequency of whole numbers (the odds as "k in 100", the counts the icon array draws: one
person's chance, never 100 people; the failure chance as "1 in N"), the odds reading
Nanayakkara et al. (2023) found to work, at a reading grade of at most 9.
:func:`subject_paragraph` is the whole text: that layer, then the details an expert would
add, then the expert line (ε, δ, ρ and the unit), the only place those symbols appear.

Every number is the reader's (a person with up to m records is a group of m) and rounded
toward the person (:mod:`helpers.release._exact`). δ > 0 has one reading, stated once: the
odds read at ε + t fail on outputs of chance at most F
(:func:`helpers.release._exact.failure_chance`), the same F in every layer.

Part of :mod:`helpers.release`, which re-exports every public name.
"""

from __future__ import annotations

import html
import math
from decimal import Context, Decimal
from fractions import Fraction
from typing import NamedTuple

from .._docstrings import fill_docstrings
from ..deployments import zcdp_to_epsilon, zcdp_tpr
from . import _exact
from ._checks import (
    _check_contributions,
    _check_delta,
    _check_magnitude,
    _check_neighbours,
    _check_open_unit,
    _check_unit,
)
from .explain import _g_up, _in_people
from .explain import _posterior as _odds_posterior
from .people import group_privacy

__all__ = ["SubjectText", "subject_layers", "subject_paragraph", "subject_summary"]

#: the false-positive rates the details read the best attack at, as counts in 1,000
_RATES = (Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10))


class SubjectText(NamedTuple):
    """The text for a person in the data in its three layers (:func:`subject_layers`).

    ``str()`` joins them with blank lines (:func:`subject_paragraph`); in a notebook it shows
    as two columns, the short layer beside the details and the expert line.
    """

    summary: str
    details: str
    expert: str

    def __str__(self) -> str:
        return "\n\n".join(self)

    def _repr_html_(self) -> str:
        # two columns that wrap to one on a narrow screen; each labelled in words, so a
        # screen reader (and a renderer that drops the styles) reads them in order
        column = "flex:1 1 22em;max-width:40em;margin:0 1.5em 0.8em 0"
        return (
            "<div style='display:flex;flex-wrap:wrap;align-items:flex-start'>"
            f"<div role='group' aria-label='For the people in the data' style='{column}'>"
            f"<p><strong>For the people in the data</strong></p><p>{html.escape(self.summary)}</p>"
            "</div>"
            f"<div role='group' aria-label='The details, then the line for experts' "
            f"style='{column}'><p><strong>The details, then the line for experts</strong></p>"
            f"<p>{html.escape(self.details)}</p><p>{html.escape(self.expert)}</p></div></div>"
        )

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(str(self))


class _Reading(NamedTuple):
    """Everything the layers state, computed once: the person's guarantee and its one
    failure chance."""

    unit: str
    m: int
    neighbours: str
    epsilon: float  # the person's (a group of m under unit="record")
    delta: float
    rho: float | None
    prior: float
    failure: Fraction  # F: 0 for δ = 0, 1 when no limit can be stated
    person: bool  # unit="record" with m > 1: the numbers are a group of m's
    expert: str


def _reading(epsilon, delta, prior, unit, contributions, fpr, rho, neighbours) -> _Reading:
    """Check the inputs (in the order the old paragraph did) and read the person's guarantee."""
    _check_unit(unit)
    m = _check_contributions(contributions)
    neighbours = _check_neighbours(neighbours)
    eps = _check_magnitude("epsilon", epsilon)
    d = _check_delta(delta)
    _check_open_unit("fpr", fpr)
    p = _check_open_unit("prior", prior)
    if rho is not None:
        rho = float(_check_magnitude("rho", rho))
        if d == 0:
            raise ValueError(
                "delta must be > 0 with rho: ρ_z-zCDP implies no pure ε; pass the δ its "
                f"(ε, δ) conversion is read at; got delta={delta!r}, rho={rho!r}"
            )
        # never an ε below what ρ_z implies at this δ (an ε of 0 beside ρ = 1 read the odds
        # at 20 % → 20 % while the attack on ρ's own curve reached 690 in 1,000)
        eps = max(eps, float(zcdp_to_epsilon(rho, d)))
    expert = (
        "For experts: "
        + (f"zCDP with ρ {_expert_up(rho, 3)}, read as " if rho is not None else "")
        + f"ε {_expert_up(eps, 3)}"  # each rounded up, never to nearest
        + (f", δ {_expert_up(d, 2, 1e-300)}" if d > 0 else "")
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
            f"; for a person of up to {m} records (group privacy): "
            + (f"ρ {_expert_up(rho, 3)}, " if rho is not None else "")
            + f"ε {_expert_up(eps, 3)}"
            + (f", δ {_expert_up(d, 2, 1e-300)}" if d > 0 else "")
        )
    failure = _failure(eps, d, neighbours)
    if 0 < failure <= _exact.NO_LIMIT:
        # t from the F stated: e^{−t} = 1 − δ/F
        t = -math.log1p(-float(_exact.as_given(d) / failure))
        expert += (
            f"; the odds are read at ε + t, t {_expert_up(t, 2)}, failing with a chance of at most "
            f"{_decimal(failure)}"
        )
    return _Reading(unit, m, neighbours, eps, d, rho, p, failure, person, expert + ".")


def _decimal(f: Fraction) -> str:
    """A short exact decimal (a failure chance of two significant digits) as text; below
    10⁻⁶ in exponent form, never a run of zeros."""
    dec = Decimal(f.numerator) / Decimal(f.denominator)
    return _exact.text(dec) if dec >= Decimal("1e-6") else format(dec.normalize(), "e")


def _failure(eps, d, neighbours) -> Fraction:
    """The failure chance F of the limit the short layer states (whether you took part, or
    your answer under change-one), at most 1: the one the icon array reads
    (:func:`helpers.release.icon_counts`)."""
    if d == 0:
        return Fraction(0)
    if d >= 1:  # a group's δ can reach 1 (group privacy caps it there): no limit at all
        return Fraction(1)
    return _exact.failure_chance(d)


def _posterior(eps, d, prior, failure) -> tuple[Fraction, Fraction]:
    """(an upper bound on the posterior, a lower bound on its complement), read at ε + t
    with e^{−t} = 1 − δ/F for the one failure chance F (:func:`helpers.release.odds`' own
    reading, the icon array's)."""
    return _odds_posterior(min(eps, 1e5), prior, d, failure)


def _in_100(prior, eps, d, failure) -> tuple[str, str]:
    """The prior (to nearest) and the most the posterior can be (rounded up) as "k in 100",
    the icon array's counts (:func:`helpers.release.icon_counts`)."""
    post, rest = _posterior(eps, d, prior, failure)
    before = _in_people(_exact.as_given(prior), 100, up=False)
    return before, _in_people(post, 100, up=True, complement=rest)


def _one_in(f: Fraction) -> str:
    """A failure chance as a frequency, rounded toward the person (the chance stated is never
    below f): "k in 100" from 1 in 100 up, "1 in N" below it (N rounded down to two
    significant digits, or to one in millions and billions: never a decimal), "less than 1
    in a trillion" below 10⁻¹²."""
    if f >= Fraction(1, 100):
        return f"{math.ceil(100 * f)} in 100"
    if f < Fraction(1, 10**12):
        return "less than 1 in a trillion"
    n = math.floor(1 / f)
    for size, word in ((10**9, "billion"), (10**6, "million")):
        if n >= size:
            count = n // size
            count = count // 10 ** (len(str(count)) - 1) * 10 ** (len(str(count)) - 1)
            return f"1 in {'a' if count == 1 else count} {word}"
    step = 10 ** max(len(str(n)) - 2, 0)
    return f"1 in {n // step * step:,}"


def _most(after: str) -> str:
    """'could think at most k in 100', or the words for the ends ("more than 99 in 100": a
    possibility, not a cap; a bound of 1: no limit)."""
    if after.startswith("more"):
        return f"could think it is {after}"
    if after.startswith("up to"):
        return "could be certain"
    return f"could think at most {after}"


def _two(r) -> tuple:
    """The guarantee of a group of two (one answer changed under add-remove: a record out
    and one in), ε clamped at 10⁵ (beyond it every bound here is already 1, so nothing is
    lost, and group_privacy's range is never exceeded)."""
    two = group_privacy(min(r.epsilon, 1e5), r.delta, size=2)
    return float(two.epsilon), min(float(two.delta), 1.0)


def _expert_up(x, digits: int, floor: float = 1e-6) -> str:
    """'= x' for a number of the expert line, rounded up; '< floor' below it (ε and ρ below
    10⁻⁶ in plain digits, δ below 10⁻³⁰⁰: never a denormal's 4.94e-324)."""
    if 0 < float(x) < floor:
        return f"< {floor:g}" if floor < 1e-6 else "< 0.000001"
    return f"= {_g_up(x, digits)}"


# --- the short layer -------------------------------------------------------------------------


def _whom(r: _Reading) -> str:
    """Whose privacy the release protects, in the reader's own terms."""
    if r.person:
        return (
            f"This release protects each record in the data. One person can have up to {r.m} "
            "records, so the numbers here are for all of yours together."
        )
    if r.unit == "record":
        return "This release protects each record in the data, and no one has more than one."
    return f"This release protects each {r.unit} in the data."


def _summary(r: _Reading) -> list:
    """The short layer's sentences (:func:`subject_summary`)."""
    parts = [_whom(r)]
    if r.failure > _exact.NO_LIMIT:
        parts.append(
            "But the limit it sets can fail too often to count on, so it does not promise "
            "anything you can rely on."
        )
    else:
        before, after = _in_100(r.prior, r.epsilon, r.delta, r.failure)
        what = "you took part" if r.neighbours == "add-remove" else "you gave a certain answer"
        parts.append(f"Say someone thought the chance that {what} was {before}.")
        if after.startswith("more than"):
            parts.append(f"After seeing the release, they could think it is {after}.")
        elif after.startswith("up to"):
            parts.append("After seeing the release, they could be certain.")
        else:
            parts.append(f"After seeing the release, the most they could think is {after}.")
        if r.failure > 0:
            chance = _one_in(r.failure)
            chance = chance if chance.startswith("less") else f"at most {chance}"
            parts.append(f"This limit can fail, but the chance of that is {chance}.")
        if r.neighbours == "add-remove":
            parts.append(
                "It can show more about your answers than about whether you took part; the "
                "details say how much."
            )
    parts.append(
        "Each later release about you uses up more of this limit: together they can show "
        "more than this one alone."
    )
    if r.neighbours == "change-one":
        parts.append("It does not promise to hide whether you took part.")
    return parts


def subject_summary(
    epsilon,
    delta=0.0,
    *,
    prior,
    unit="person",
    contributions=1,
    rho=None,
    neighbours="add-remove",
) -> str:
    """The short text for the people in the data: whom it protects, the odds, one failure chance.

    At most 120 words and five numbers, every chance a frequency of whole numbers (the odds
    as "k in 100", the counts the icon array draws, :func:`helpers.release.icon_counts`: one
    person's chance, not 100 people; the failure chance as "1 in N"), read at a grade of at
    most 9 (Flesch–Kincaid), every number rounded toward the person. It says whom the release protects (with ``unit="record"``
    and up to m > 1 records per person, every number is the person's, a group of m:
    :func:`group_privacy`), the odds reading from ``prior`` to the most the release allows
    (:func:`helpers.release.odds`: at ε + t for δ > 0), the one chance F that this can fail
    (:func:`helpers.release._exact.failure_chance`, as a frequency rounded up), that each
    later release uses up more of the limit, under add-remove neighbours that it can show
    more about your answers (the details say how much), and under change-one neighbours
    that taking part is not promised to be hidden. Where F is above 1 in 10
    (:data:`helpers.release._exact.NO_LIMIT`) it says no limit can be relied on, as the odds
    and the icon array do. With ``rho`` (δ > 0 required) ε is never read below what ρ_z
    implies at δ (:func:`helpers.deployments.zcdp_to_epsilon`). The details and the expert
    line follow in :func:`subject_layers`. It states no attack, so it takes no ``fpr``: a
    rate that changed nothing would read as if it did (the attack's rates are in the details,
    :func:`subject_layers`'s ``fpr``).

    The odds framing follows Nanayakkara et al. (2023), who report odds-based explanations
    worked better than output-based ones and ones that gloss over ε; the frequency "k in
    100" is this course's wording of the same chance, not a format their abstract names.

    Not called in a notebook; no other helper uses it. (Notebook 12 shows it as the first
    layer of :func:`subject_layers`.)

    Parameters
    ----------
    epsilon, delta
        The guarantee per ``unit`` (δ in [0, 1)).
    prior : float, keyword-only
        The observer's prior p in (0, 1).
    unit : {"person", "record", "user"}, keyword-only
        Whose privacy ε is stated for.
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person.
    rho : float, keyword-only
        ρ_z of a zCDP release whose (ε, δ) conversion ``epsilon`` and ``delta`` are; named
        in the expert line only.
    neighbours : {"add-remove", "change-one"}, keyword-only
        What an observer tries to tell: whether you took part, or which of two answers you
        gave.

    Returns
    -------
    str

    %(raises)s

    References
    ----------
    Nanayakkara, Smart, Cummings, Kaptchuk & Redmiles (2023), "What Are the Chances?
    Explaining the Epsilon Parameter in Differential Privacy", USENIX Security 2023 (odds-based
    explanations); Lee & Clifton (2011), eq. (4)–(5) (the posterior); Kincaid, Fishburne,
    Rogers & Chissom (1975) (the grade formula the tests measure with ``textstat``).

    Examples
    --------
    >>> print(subject_summary(1.0, prior=0.05))  # doctest: +NORMALIZE_WHITESPACE
    This release protects each person in the data. Say someone thought the chance that you
    took part was 5 in 100. After seeing the release, the most they could think is 13 in
    100. It can show more about your answers than about whether you took part; the details
    say how much. Each later release about you uses up more of this limit: together they can
    show more than this one alone.
    """
    # the short layer reads no attack: the default rate passes the check unread
    r = _reading(epsilon, delta, prior, unit, contributions, 0.01, rho, neighbours)
    return " ".join(_summary(r))


# --- the details ------------------------------------------------------------------------------


def _worst_prior(r: _Reading) -> str:
    """The most any prior can rise, tanh(ε'/4) at p* = 1/(1 + e^{ε'/2}) (ε' = ε + t),
    rounded up, with the prior where it is reached (to nearest)."""
    lo, _ = _exact.exp_minus(_exact.as_given(min(r.epsilon, 1e5)))
    k = _exact.keep(r.delta, r.failure)
    ctx = Context(prec=60, Emin=-_exact._EMIN, Emax=_exact._EMIN, rounding="ROUND_FLOOR")
    # √(e^{−ε'}) from below: the rise (1 − s)/(1 + s) falls as s grows
    x = lo * k
    s = Fraction(ctx.sqrt(ctx.divide(Decimal(x.numerator), Decimal(x.denominator))))
    rise = (1 - s) / (1 + s)
    if rise == 0:
        return "The release does not change anyone's chance at all."
    most = _in_people(rise, 100, up=True)
    start = _in_people(s / (1 + s), 100, up=False)
    if most.startswith("fewer"):
        return "No one's chance rises by as much as 1 in 100, whatever they believed before."
    if most.startswith(("more", "up to")):
        return (
            "Someone who thought it very unlikely could, after the release, be all but sure: "
            "no prior is safe."
        )
    return (
        f"No one's chance rises by more than {most}, whatever they believed before; the "
        f"biggest rise is for someone who started near {start}."
    )


def _answers(r: _Reading) -> str:
    """Under add-remove: one changed answer is one record out and one in, a group of two,
    read the same way (at ε₂ + t₂, failing with F₂ ≥ F; its own F₂ stated where larger)."""
    eps2, d2 = _two(r)
    failure = max(r.failure, _failure(eps2, d2, r.neighbours))
    start = (
        "About your answers: changing one answer is like removing your record and adding "
        "another, so "
    )
    if failure > _exact.NO_LIMIT:
        return start + "this release sets no limit you can rely on for what it shows about them."
    post, rest = _posterior(eps2, d2, 0.5, failure)
    after = _in_people(post, 100, up=True, complement=rest)
    fails = (
        f" (a separate limit, which can fail with a chance of at most {_one_in(failure)})"
        if failure > r.failure
        else ""
    )
    return (
        start + "someone who thought it was 50 in 100 that you gave a certain answer "
        f"{_most(after)}{fails}."
    )


def _attack_rates(r: _Reading, fpr) -> tuple[list, int]:
    """The false-positive rates read (1, 10 and 100 in 1,000, and ``fpr``) and the count D
    they are stated in: the least power of ten ≥ 1,000 that makes ``fpr`` a whole count (up
    to 10⁶; beyond it ``fpr`` is rounded to the nearest millionth, the rate read)."""
    size = 1000
    extra = _exact.as_given(fpr)
    while (extra * size).denominator != 1 and size < 10**6:
        size *= 10
    extra = Fraction(max(round(extra * size), 1), size)
    rates = sorted({*_RATES, extra})
    return rates, size


def _tpr(r: _Reading, rate: Fraction, eps, d, rho) -> Fraction:
    """The best test's TPR at ``rate``, an exact upper bound (:mod:`helpers.release._exact`)."""
    if rho is None:
        return _exact.tpr_bound(eps, d, float(rate))
    if rho == 0:
        return rate
    return _exact.zcdp_tpr_bound(rho, rate, float(zcdp_tpr(rho, float(rate))))


def _attack(r: _Reading, fpr) -> list:
    """The best attack at several error rates, and the harder attacks it bounds."""
    rates, size = _attack_rates(r, fpr)
    tprs = [_tpr(r, rate, r.epsilon, r.delta, r.rho) for rate in rates]
    wrong = _series([f"{int(rate * size):,}" for rate in rates])
    right = _series([f"{math.ceil(t * size):,}" for t in tprs])
    if r.neighbours == "add-remove":
        sentence = (
            f"Someone trying to tell whether you took part, who wrongly points at {wrong} in "
            f"{size:,} of the people who did not, can rightly point at no more than {right} in "
            f"{size:,} of those who did."
        )
        # a record rebuilt or picked out is one value of it against another: a group of two
        eps2, d2 = _two(r)
        harder = _tpr(r, Fraction(1, 1000), eps2, d2, None if r.rho is None else 4 * r.rho)
    else:
        sentence = (
            f"Someone trying to tell which of two answers you gave, who wrongly names answer A "
            f"for {wrong} in {size:,} of the people who gave answer B, can rightly name it for "
            f"no more than {right} in {size:,} of those who gave A."
        )
        harder = tprs[rates.index(Fraction(1, 1000))]
    return [
        sentence,
        "Attacks that try to pick your record out of 1,000, or to rebuild it, are covered "
        "too: where a blind guess would be right 1 in 1,000 times, they are right at most "
        f"{math.ceil(harder * 1000):,} in 1,000 times.",
    ]


def _series(items: list) -> str:
    """'a, b or c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _details(r: _Reading, fpr) -> list:
    """The sentences an expert would add for a person (issue 49, item 4)."""
    scope = [
        "The limits cover everything published from this data only if the organisation "
        "counts every release in them.",
        "The organisation that holds the data sees it in full: the limits are on what is "
        "published, not on its staff, a break-in or a leak.",
        "Conclusions about groups (how common an answer is among people like you, say) are "
        "not protected: they are what the release is for, and they may be true of you.",
    ]
    if r.failure > _exact.NO_LIMIT:
        outright = _one_in(min(_exact.as_given(r.delta), Fraction(1)))
        return [
            "The release's settings let it, with a chance of up to "
            f"{outright}, reveal your data outright, and they set no other limit that holds "
            "often enough to count on. Smaller settings would give a limit you can use.",
            *scope,
        ]
    parts = []
    if r.m > 1 and not r.person:
        parts.append(f"No one's data counts more than {r.m} records: extra records are left out.")
    if _exact.as_given(r.prior) != Fraction(1, 2):
        before, after = _in_100(0.5, r.epsilon, r.delta, r.failure)
        parts.append(f"Someone who started from an even chance, {before}, {_most(after)}.")
    parts.append(_worst_prior(r))
    if r.neighbours == "add-remove":
        parts.append(_answers(r))
    parts += _attack(r, fpr)
    parts.append(
        "The limits already assume someone who knows everyone else's data; they do not cover "
        "what people linked to you, such as family in the data, reveal about you."
    )
    if r.failure > 0:
        parts.append(
            "When the limit in the short text fails (its chance is stated there), the release "
            "may in the worst case reveal your data outright; the attack limits above already "
            "allow for that."
        )
    if r.neighbours == "change-one":
        parts.append(
            "The number of people in the data is public, so whether you took part is not "
            "protected: only your answers are."
        )
    return parts + scope


def subject_layers(
    epsilon,
    delta=0.0,
    *,
    prior,
    unit="person",
    contributions=1,
    fpr=0.01,
    rho=None,
    neighbours="add-remove",
) -> SubjectText:
    """The whole text for a person in the data, in three layers: short, details, expert line.

    Three paragraphs (:class:`SubjectText`; :func:`subject_paragraph` joins them), each rounded toward the person
    (:mod:`helpers.release._exact`) and each from the same reading (one failure chance F):

    1. :func:`subject_summary`, the short layer for the public;
    2. the details an expert would add, each in one plain sentence: the odds from an even
       chance; the worst prior (the most any prior can rise, tanh(ε'/4), reached at
       p* = 1/(1 + e^{ε'/2})); under add-remove neighbours the answers, read at the
       guarantee of a group of two (:func:`group_privacy`: one changed answer is one record
       out and one in); the best attack at false-positive rates 1, 10 and 100 in 1,000 and
       ``fpr`` (:func:`attack_reading`; ρ's own curve for a zCDP release), with the
       reconstruction and singling-out attacks it bounds (Kulynych et al. 2025: success at
       most the TPR at the attack's baseline, read here at a group of two under add-remove);
       that the limits hold against someone who knows everyone else's data; that a failure
       can reveal your data outright; under change-one that taking part is not protected;
       that the limits cover everything published only if the curator counts every
       release; that the curator, its staff and a breach are outside them; that
       conclusions about groups are not protected;
    3. the expert line: ε, δ and ρ rounded up, the unit and the neighbours, a person's
       group-of-m values under ``unit="record"``, and the t and F the odds are read at.
       ε, δ, ρ, "zCDP" and "slack" appear nowhere else.

    F is the chance of the limit the short layer states, the one the icon array reads
    (:func:`helpers.release.icon_counts`); the answers' reading of a group of two fails with
    a chance at least as large, stated beside it where it is larger.

    Used in notebook 12.

    Parameters
    ----------
    epsilon, delta, prior, unit, contributions, rho, neighbours
        As :func:`subject_summary`.
    fpr : float, keyword-only
        A further false-positive rate α in (0, 1) the attack is read at (to the nearest
        millionth when it is not a whole count in a million).

    Returns
    -------
    SubjectText
        ``summary``, ``details`` and ``expert``; ``str()`` of it is :func:`subject_paragraph`.

    %(raises)s

    References
    ----------
    Nanayakkara, Smart, Cummings, Kaptchuk & Redmiles (2023), USENIX Security 2023 (odds-based
    explanations, n = 963); Lee & Clifton (2011) (the posterior); Kairouz, Oh & Viswanath
    (2015) and Dong, Roth & Su (2022) (the best test); Kulynych, Gomez, Kaissis, Hayes, Balle,
    du Pin Calmon & Raisaro (2025), NeurIPS 2025 (re-identification, attribute inference and
    reconstruction bounded by the test's TPR at the baseline); Dwork & Roth (2014), §2.3 and
    Theorem 2.2 (δ's outright disclosure; group privacy); Bun & Steinke (2016) (zCDP).

    Examples
    --------
    >>> layers = subject_layers(1.0, prior=0.5)
    >>> layers.summary.startswith("This release protects each person"), layers.expert[:12]
    (True, 'For experts:')
    """
    r = _reading(epsilon, delta, prior, unit, contributions, fpr, rho, neighbours)
    return SubjectText(" ".join(_summary(r)), " ".join(_details(r, fpr)), r.expert)


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
    """The whole text for a person in the data as one string: :func:`subject_layers`' three
    layers (the short one, the details, the expert line) separated by blank lines.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    epsilon, delta, prior, unit, contributions, fpr, rho, neighbours
        As :func:`subject_layers`.

    Returns
    -------
    str

    %(raises)s

    References
    ----------
    As :func:`subject_layers`.

    Examples
    --------
    >>> text = subject_paragraph(1.0, prior=0.5)
    >>> text.startswith("This release protects each person"), text.count("\\n\\n")
    (True, 2)
    """
    layers = subject_layers(
        epsilon,
        delta,
        prior=prior,
        unit=unit,
        contributions=contributions,
        fpr=fpr,
        rho=rho,
        neighbours=neighbours,
    )
    return str(layers)


fill_docstrings(globals())
