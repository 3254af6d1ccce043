"""helpers.release.subject: the text for a person in the data (issue 49).

The short layer is measured, for every generated case, against the issue's limits: at most
120 words and 5 numbers (a frequency "k in N" is one number, as the issue counts "1 in
1,000"), one frequency format, and a Flesch–Kincaid grade of at most 9 by ``textstat`` (a
maintained package, independent of the course's code). Every number addressed to "you" is
the person's and never below the truth: the short layer's counts are the icon array's, the
attack counts are rounded up from exact bounds, the worst prior's rise is checked against
mpmath.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import mpmath
import pytest
import textstat
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from helpers import release as R
from helpers.release import _exact

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)

inputs = {
    "epsilon": st.one_of(
        st.floats(min_value=5e-324, max_value=1e-6),
        st.floats(min_value=1e-6, max_value=60.0),
    ),
    "delta": st.one_of(
        st.just(0.0),
        st.floats(min_value=5e-324, max_value=1e-4),
        st.floats(0.0, 0.999999),
        st.floats(-320.0, -1.0).map(lambda x: 10.0**x),  # every order of magnitude
    ),
    "prior": st.floats(min_value=1e-6, max_value=1 - 1e-6),
    "contributions": st.integers(min_value=1, max_value=6),
    "unit": st.sampled_from(["person", "record", "user"]),
    "neighbours": st.sampled_from(["add-remove", "change-one"]),
    "rho": st.one_of(st.none(), st.floats(min_value=1e-9, max_value=50.0)),
}

#: a number as a reader meets it: a frequency "k in N" (N may be "a million") is one number,
#: as the issue counts "1 in 1,000"; any other run of digits is one
_NUMBER = re.compile(
    r"(?:\d[\d,.]*|a) in (?:\d[\d,.]*|a)(?: (?:million|billion|trillion))?|\d[\d,.]*"
)
_FREQUENCY = re.compile(r"(fewer than |more than )?(\d+) in (100|[\d,.]+(?: \w+illion)?|a \w+)")


def _text(fn, epsilon, delta, prior, contributions, unit, neighbours, rho):
    """``fn`` (a text for a person) called on one generated case."""
    options = dict(unit=unit, contributions=contributions, neighbours=neighbours, rho=rho)
    return fn(epsilon, delta, prior=prior, **options)


def _person(epsilon, delta, unit, contributions, rho=None):
    """The guarantee of the person the text addresses: a group of m under unit="record"
    (of the (ε, δ) given, ε raised to what ρ implies at δ for a zCDP release)."""
    if rho is not None:
        from helpers.deployments import zcdp_to_epsilon

        epsilon = max(epsilon, float(zcdp_to_epsilon(rho, delta)))
    if unit == "record" and contributions > 1:
        g = R.group_privacy(epsilon, delta, size=contributions)
        return float(g.epsilon), float(g.delta)
    return epsilon, delta


@SETTINGS
@example(1.0, 1e-6, 0.2, 5, "record", "add-remove", None)
@example(0.1, 1e-10, 0.5, 1, "person", "add-remove", None)
@example(14.0, 1e-6, 0.2, 1, "person", "add-remove", None)
@example(5e-324, 1e-10, 0.2, 1, "person", "change-one", 15.29)  # the census order
@example(2.0, 1e-5, 0.995, 3, "record", "change-one", 0.3)
@given(*inputs.values())
def test_the_short_layer_is_short_plain_and_in_one_format(
    epsilon, delta, prior, contributions, unit, neighbours, rho
):
    assume(rho is None or delta > 0)  # ρ with δ = 0 is refused (test_rho_needs_a_delta...)
    options = dict(prior=prior, unit=unit, contributions=contributions, neighbours=neighbours)
    summary = R.subject_summary(epsilon, delta, rho=rho, **options)
    words = summary.split()
    assert len(words) <= 120, summary
    assert len(_NUMBER.findall(summary)) <= 5, summary
    assert textstat.flesch_kincaid_grade(summary) <= 9, summary
    # one frequency format, never a percentage, a decimal or a symbol
    assert "%" not in summary and not re.search(r"\d\.\d", summary)
    for symbol in ("ε", "δ", "ρ", "zCDP", "slack", "people like you"):
        assert symbol not in summary
    # it opens the whole text, unchanged
    whole = R.subject_paragraph(epsilon, delta, rho=rho, **options)
    assert whole.split("\n\n")[0] == summary


@SETTINGS
@given(*inputs.values())
def test_the_short_layer_s_counts_are_the_icon_array_s(
    epsilon, delta, prior, contributions, unit, neighbours, rho
):
    """The prior and the most the release allows, as the icon array draws them, for the
    person (a group of m under a per-record unit), and one failure chance, rounded up."""
    assume(rho is None or delta > 0)  # ρ with δ = 0 is refused (test_rho_needs_a_delta...)
    summary = _text(R.subject_summary, epsilon, delta, prior, contributions, unit, neighbours, rho)
    eps, d = _person(epsilon, delta, unit, contributions, rho)
    if "anything you can rely on" in summary:
        assert d >= 1 or _exact.failure_chance(d) > _exact.NO_LIMIT  # fails over 1 in 10
        assert " in 100" not in summary
        return
    before, after = R.icon_counts(eps, d, prior=prior)
    stated = _FREQUENCY.findall(summary)
    (low, k, size), (high, j, size_after) = stated[:2]
    assert size == size_after == "100"
    # "fewer than 1 in 100" and "more than 99 in 100": the icon array's 0 or 1, 99 or 100
    assert int(k) == before or (low and abs(before - int(k)) <= 1)
    assert int(j) == after or (high and abs(after - int(j)) <= 1)
    if d > 0:
        (_, one, n) = stated[2]
        shown = Fraction(int(one), _count(n))
        assert shown >= _exact.failure_chance(d) >= 2 * Fraction(repr(d))
    else:
        assert len(stated) == 2 and "fail" not in summary


def _count(words: str) -> int:
    scale = {"million": 10**6, "billion": 10**9, "trillion": 10**12}
    head, _, tail = words.partition(" ")
    base = 1 if head == "a" else float(head.replace(",", ""))
    return round(base * scale.get(tail, 1))


@pytest.mark.parametrize("delta", [1e-300, 1e-14, 1e-10, 1e-8, 1e-6])
def test_a_tiny_delta_barely_moves_the_odds(delta):
    """δ = 10⁻¹⁰ moved an even chance at ε = 0.1 from 52.5 % to 68.9 % (the reading at
    ε + ln 2); the reading at ε + t with t → 0 moves it by at most one count in 100 for δ up
    to 10⁻⁸ and keeps the failure chance within 1 in 10,000."""
    pure = R.icon_counts(0.1, prior=0.5)
    tiny = R.icon_counts(0.1, delta, prior=0.5)
    assert tiny[1] - pure[1] <= (1 if delta <= 1e-8 else 3)
    assert R.odds(0.1, delta, prior=0.5).bad_event <= 1e-4


@pytest.mark.parametrize("contributions", [2, 3, 5, 8])
@pytest.mark.parametrize("epsilon,delta", [(0.1, 0.0), (0.5, 0.0), (0.3, 1e-9), (1.0, 0.0)])
@pytest.mark.parametrize("neighbours", ["add-remove", "change-one"])
def test_a_per_record_release_tells_a_person_the_numbers_of_their_records(
    contributions, epsilon, delta, neighbours
):
    """ε per record, up to m records per person: every number addressed to "you" is the
    person's (group privacy over m records), never one record's."""
    options = {"prior": 0.2, "neighbours": neighbours}
    record = R.subject_paragraph(
        epsilon, delta, unit="record", contributions=contributions, **options
    )
    group = R.group_privacy(epsilon, delta, size=contributions)
    person = R.subject_paragraph(
        group.epsilon, group.delta, unit="person", contributions=contributions, **options
    )
    one_record = R.subject_paragraph(epsilon, delta, unit="record", contributions=1, **options)
    body = re.compile(r"\d[\d,]* in [\d,]+")

    def numbers(text):
        return body.findall(text.split("\n\n")[1]) + body.findall(text.split("\n\n")[0])[1:]

    assert numbers(record)[-8:] == numbers(person)[-8:]
    assert numbers(record) != numbers(one_record)  # the record's own numbers are smaller
    assert f"up to {contributions} records" in record.split("\n\n")[0]
    expert = record.split("\n\n")[2]
    assert f"ε = {epsilon:g}" in expert and f"up to {contributions} records" in expert


def test_one_record_per_person_is_read_as_it_is():
    text = R.subject_paragraph(0.5, prior=0.2, unit="record", contributions=1)
    person = R.subject_paragraph(0.5, prior=0.2, unit="person")
    assert text.split("\n\n")[1] == person.split("\n\n")[1]
    assert "no one has more than one" in text


@pytest.mark.parametrize("epsilon", [1e-9, 0.01, 0.5, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("delta", [0.0, 1e-12, 1e-6, 1e-3])
def test_the_worst_prior_s_rise_is_never_below_the_truth(epsilon, delta):
    """The most any prior can rise, tanh(ε'/4) at p* = 1/(1 + e^{ε'/2}) (ε' = ε + t), checked
    by maximising the posterior's rise over a grid of priors in mpmath."""
    text = R.subject_paragraph(epsilon, delta, prior=0.2)
    failure = R.odds(epsilon, delta, prior=0.2).bad_event
    with mpmath.workdps(40):
        e = mpmath.mpf(repr(epsilon))
        if delta > 0:
            e -= mpmath.log(1 - mpmath.mpf(repr(delta)) / mpmath.mpf(repr(failure)))
        grid = [mpmath.mpf(i) / 2000 for i in range(1, 2000)]
        best = max(p * mpmath.e**e / (p * mpmath.e**e + 1 - p) - p for p in grid)
        exact = mpmath.tanh(e / 4)
        assert exact >= best * (1 - mpmath.mpf("1e-20"))
    if "anything you can rely on" in text:  # no limit to state
        return
    m = re.search(r"No one's chance rises by more than (\d+) in 100", text)
    if m is None:
        small = "by as much as 1 in 100" in text and exact * 100 < 1
        large = "no prior is safe" in text and exact * 100 > 99
        assert small or large or (exact == 0 and "does not change" in text), text
        return
    shown = int(m.group(1))
    assert shown >= exact * 100 and shown - 1 < exact * 100
    start = int(re.search(r"started near (\d+) in 100", text).group(1))
    assert abs(start / 100 - 1 / (1 + mpmath.e ** (e / 2))) <= 0.005 + 1e-12


@pytest.mark.parametrize("neighbours", ["add-remove", "change-one"])
@pytest.mark.parametrize(("epsilon", "delta"), [(0.5, 0.0), (1.0, 1e-6), (3.0, 1e-9)])
@pytest.mark.parametrize("fpr", [0.01, 0.05, 0.0123, 1 / 3])
def test_the_attack_counts_are_rounded_up_from_the_trade_off_curve(neighbours, epsilon, delta, fpr):
    from helpers.deployments import tpr_at_fpr

    from .test__exact import attack_counts

    text = R.subject_paragraph(epsilon, delta, prior=0.2, fpr=fpr, neighbours=neighbours)
    counts = attack_counts(text)
    rates = {rate for rate, _, _ in counts}
    assert {Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10)} <= rates
    assert any(abs(float(rate) - fpr) <= 5e-7 for rate in rates)
    for rate, size, count in counts:
        truth = float(tpr_at_fpr(float(rate), epsilon=epsilon, delta=delta))
        assert count >= truth * size * (1 - 1e-12)
        assert count - 1 < truth * size * (1 + 1e-9)
    # the harder attacks, read at the answers' guarantee (a group of two under add-remove)
    harder = int(re.search(r"they are right at most ([\d,]+) in 1,000 times", text).group(1))
    two = R.group_privacy(epsilon, delta, size=2)
    e, d = (two.epsilon, two.delta) if neighbours == "add-remove" else (epsilon, delta)
    assert harder >= 1000 * float(tpr_at_fpr(0.001, epsilon=e, delta=d)) * (1 - 1e-12)


def test_each_layer_says_what_an_expert_would_add():
    text = R.subject_paragraph(1.0, 1e-7, prior=0.05, unit="person", contributions=3)
    summary, details, expert = text.split("\n\n")
    for words in (
        "uses up more of this limit",  # composition, unambiguous
        "took part",
        "more about your answers",  # the larger risk is named, not hidden in the details
    ):
        assert words in summary, words
    for words in (
        "even chance",
        "whatever they believed before",  # the worst prior
        "your answers",
        "pick your record out",  # singling out
        "to rebuild it",  # reconstruction
        "knows everyone else's data",
        "counts every release",  # the curator's accounting
        "its staff, a break-in or a leak",  # insiders and breaches
        "Conclusions about groups",
        "reveal your data outright",
        "3 records",
    ):
        assert words in details, words
    assert expert.startswith("For experts:")
    change_one = R.subject_paragraph(1.0, prior=0.05, neighbours="change-one")
    assert "whether you took part is not protected" in change_one
    assert "It does not promise to hide whether you took part." in change_one.split("\n\n")[0]
    # the wording of composition is never one that reads as more protection
    assert "adds to them" not in text


@SETTINGS
@example(1e-6, 0.5, 0.5, 2, "record", "add-remove", None)  # a group's δ capped at 1 (a crash)
@example(1e-6, 1e-323, 0.5, 1, "person", "add-remove", 1.0)  # a denormal δ (printed in full)
@example(1e150, 0.0, 0.5, 2, "record", "add-remove", None)  # a group of two beyond 1e150 (a crash)
@example(1.0, 0.49, 0.5, 1, "person", "add-remove", None)  # a failure chance of 98 in 100
@example(14.0, 1e-6, 0.2, 1, "person", "add-remove", None)  # δ(1 + e^ε) ≥ 1 (a crash)
@example(5e-324, 0.0, 0.2, 1, "person", "add-remove", None)  # printed "ε = 4.94e-324"
@given(*inputs.values())
def test_one_failure_chance_and_the_symbols_only_for_experts(
    epsilon, delta, prior, contributions, unit, neighbours, rho
):
    assume(rho is None or delta > 0)  # ρ with δ = 0 is refused (test_rho_needs_a_delta...)
    text = _text(R.subject_paragraph, epsilon, delta, prior, contributions, unit, neighbours, rho)
    summary, details, expert = text.split("\n\n")
    for symbol in ("ε", "δ", "ρ", "zCDP", "slack"):
        assert symbol not in summary + details, symbol
    assert "no chance of failure" not in text
    assert not re.search(r"at most more than", text)
    assert summary.count("fail") <= 1
    assert "can fail, but" in summary or delta == 0 or "anything you can rely on" in summary
    # F in the expert line is the short layer's, and the slack t is what it implies
    m = re.search(
        r"ε \+ t, t ([=<]) ([\d.]*\d), failing with a chance of at most ([\d.e+-]*\d)", expert
    )
    if m:
        _, d = _person(epsilon, delta, unit, contributions, rho)
        assert Fraction(m.group(3)) == _exact.failure_chance(d)
        t = -math.log1p(-float(Fraction(repr(d)) / Fraction(m.group(3))))
        assert float(m.group(2)) >= t if m.group(1) == "=" else t < 1e-6
    assert not re.search(r"e-(30[89]|3[12]\d)", text), "a denormal printed"
    assert not re.search(r"0\.0{12,}", text), "a run of zeros printed"


def test_the_failure_chance_is_a_frequency_rounded_toward_the_person():
    from helpers.release.subject import _one_in

    cases = {
        Fraction(2, 10**6): "1 in 500,000",
        Fraction(1, 10**6): "1 in a million",
        Fraction(3, 10**8): "1 in 30 million",  # one digit in millions: never a decimal
        Fraction(1, 10**4): "1 in 10,000",
        Fraction(75, 10**7): "1 in 130,000",
        Fraction(1, 50): "2 in 100",
        Fraction(1, 10**13): "less than 1 in a trillion",
    }
    for chance, words in cases.items():
        assert _one_in(chance) == words
    # never below the chance, at any size
    for k in range(1, 400):
        chance = Fraction(k, 10 ** (k % 13 + 2)) * Fraction(7, 3)
        if chance >= 1:
            continue
        words = _one_in(chance)
        if words.startswith("less than"):
            assert chance < Fraction(1, 10**12)
            continue
        one, _, n = words.partition(" in ")
        assert Fraction(int(one), _count(n)) >= chance, (chance, words)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="prior"):
        R.subject_summary(1.0, prior=1.5)
    with pytest.raises(ValueError, match="contributions"):
        R.subject_summary(1.0, prior=0.5, unit="record", contributions=0)
    with pytest.raises(ValueError, match="neighbours"):
        R.subject_summary(1.0, prior=0.5, neighbours="bounded")
    with pytest.raises(ValueError, match="fpr"):
        R.subject_paragraph(1.0, prior=0.5, fpr=1.0)
    with pytest.raises(TypeError):
        R.subject_summary(1.0, 0.0, 0.5)  # the prior is keyword-only


def test_failure_chance_rule_in_exact_arithmetic():
    assert _exact.failure_chance(0.0) == 0
    assert _exact.failure_chance(1e-6) == Fraction(1, 10**4)  # min(√δ, 10⁻⁴)
    assert _exact.failure_chance(1e-10) == Fraction(1, 10**5)  # √δ
    assert _exact.failure_chance(1e-3) == Fraction(2, 10**3)  # 2δ, t = ln 2
    assert _exact.failure_chance(0.6) == 1


def test_rho_needs_a_delta_and_an_epsilon_it_implies():
    with pytest.raises(ValueError, match="delta"):
        R.subject_summary(1.0, prior=0.5, rho=0.1)
    # an ε below what ρ implies at δ is read at the conversion: 1-zCDP at δ = 10⁻⁶ is ε ≈ 8.4
    from helpers.deployments import zcdp_to_epsilon

    low = R.subject_summary(0.0, 1e-6, prior=0.2, rho=1.0)
    read = R.subject_summary(float(zcdp_to_epsilon(1.0, 1e-6)), 1e-6, prior=0.2)
    assert low == read


def test_a_failure_chance_above_1_in_10_is_no_limit_in_every_reading():
    """δ = 0.49 printed "the most they could think is 85 in 100. This limit can fail, but the
    chance of that is at most 98 in 100"; the odds, the icons and the text now agree that no
    limit holds, and the details state the outright disclosure at δ itself."""
    text = R.subject_paragraph(1.0, 0.49, prior=0.5)
    assert "anything you can rely on" in text.split("\n\n")[0]
    assert "up to 49 in 100, reveal your data outright" in text
    assert "Conclusions about groups" in text and "counts every release" in text
    assert R.odds(1.0, 0.49, prior=0.5).posterior == 1.0
    assert R.icon_counts(1.0, 0.49, prior=0.5)[1] == 100
    assert "no limit to rely on" in R.odds_sentence(1.0, 0.49, prior=0.5)
    # δ = 1, a group's cap, is read the same way instead of failing
    assert R.odds(3.0, 1.0, prior=0.05).bad_event == 1.0
