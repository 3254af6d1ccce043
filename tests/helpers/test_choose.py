"""helpers.choose: the smallest ε for the accuracy, the largest for the risk, and the knobs."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from _modules import within_ulps
from hypothesis import assume, given
from hypothesis import strategies as st

from helpers import choose as ch
from helpers import deployments as dep
from helpers import kazan_reiter as kr
from helpers.mechanisms import laplace_cdf


def test_sensitivities():
    assert ch.sensitivity_of("count") == 1.0
    assert ch.sensitivity_of("sum", lower=0, upper=10) == 10.0
    assert ch.sensitivity_of("mean", n=4, lower=1, upper=10) == 9 / 4


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        (dict(release="median"), "release"),
        (dict(release="sum", lower=0), "bounds"),
        (dict(release="sum", lower=3, upper=3), "upper"),
        (dict(release="mean", lower=0, upper=1, n=0), "n"),
        (dict(release="mean", lower=0, upper=1, n=2.5), "n"),
        (dict(release="sum", lower=math.nan, upper=1), "lower"),
    ],
)
def test_sensitivity_refuses_bad_input(kwargs, name):
    release = kwargs.pop("release")
    with pytest.raises(ValueError, match=name):
        ch.sensitivity_of(release, **kwargs)


def test_laplace_tail_matches_the_laplace_cdf():
    eps, k, sens = 0.7, 3.0, 2.0
    scale = sens / eps
    two_sided = 2 * float(laplace_cdf(-k, 0.0, scale))
    assert ch.laplace_error_probability(eps, k=k, sensitivity=sens) == pytest.approx(two_sided)


@given(
    k=st.floats(0.01, 100.0),
    sens=st.floats(0.01, 100.0),
    c=st.floats(0.01, 0.999),
)
def test_epsilon_for_accuracy_meets_the_target_exactly(k, sens, c):
    eps = ch.epsilon_for_accuracy(k, sensitivity=sens, coverage=c)
    assert ch.laplace_error_probability(eps, k=k, sensitivity=sens) == pytest.approx(1 - c)
    # a little less ε misses it
    assert ch.laplace_error_probability(eps * 0.99, k=k, sensitivity=sens) > 1 - c


def test_epsilon_for_accuracy_at_95_percent():
    # ln 20 ≈ 3.0: a count within ±1 needs ε ≈ 3, within ±10 ε ≈ 0.3
    assert ch.epsilon_for_accuracy(1.0, sensitivity=1.0) == pytest.approx(math.log(20))
    out = ch.epsilon_for_accuracy(np.array([1.0, 10.0]), sensitivity=1.0)
    assert out.shape == (2,) and out[1] == pytest.approx(math.log(20) / 10)


@given(risk=st.floats(0.02, 0.99), prior=st.floats(0.01, 0.98))
def test_epsilon_for_posterior_inverts_the_posterior_bound(risk, prior):
    if risk <= prior + 1e-9:
        with pytest.raises(ValueError, match="prior"):
            ch.epsilon_for_posterior(risk, prior=prior)
        return
    eps = ch.epsilon_for_posterior(risk, prior=prior)
    assert dep.posterior_bound(eps, prior=prior) == pytest.approx(risk, rel=1e-10)


def test_epsilon_for_posterior_is_kazan_reiter_eq38():
    # prior 1/n, risk ã: Lee & Clifton's setting in Kazan & Reiter's Appendix D.1
    n, a = 4, 0.5
    assert ch.epsilon_for_posterior(a, prior=1 / n) == pytest.approx(
        kr.epsilon_lee_clifton_setting(n, a)
    )


def test_epsilon_for_profile_dispatches_to_table_4():
    assert ch.epsilon_for_profile("constant", r=3.0) == pytest.approx(0.5 * math.log(3))
    assert ch.epsilon_for_profile("inclusion", r=5.0, a=0.5, fixed=1.0) == (
        kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)
    )
    assert ch.epsilon_for_profile("values", r=3.0, a=0.15, fixed=0.05) == (
        kr.epsilon_values_profile(0.15, 0.05, 3.0)
    )
    with pytest.raises(ValueError, match="kind"):
        ch.epsilon_for_profile("box", r=3.0)


def test_durham_epsilon_for_switching_meets_ten_percent():
    eps = ch.durham_epsilon_for_switching(0.25, max_probability=0.1)
    assert float(kr.durham_switch_probability(eps, 0.25, "worst")) == pytest.approx(0.1, rel=1e-8)
    assert float(kr.durham_switch_probability(eps * 0.999, 0.25, "worst")) > 0.1
    # Kazan & Reiter: only the most aggressive profile (ã = 0.5, r̃ = 5, ε ≈ 2.20) gets below 10 %
    aggressive = ch.epsilon_for_profile("inclusion", r=5.0, a=0.5, fixed=1.0)
    assert round(aggressive, 2) == 2.20
    # both sides are ln 9 (α/(1 + α) = 1/10 at α = 1/9; ln((5 − 0.5)/(1 − 0.5))), each computed
    # its own way: equal up to their rounding, not bit for bit
    assert within_ulps(eps, math.log(9), ulps=8) and within_ulps(aggressive, math.log(9), ulps=8)
    assert ch.epsilon_for_profile("inclusion", r=2.0, a=0.5, fixed=1.0) < eps


@pytest.mark.parametrize("deviation", [0.25, 0.5, 1.0, 2.0])
@pytest.mark.parametrize("direction", ["above", "below", "worst"])
@pytest.mark.parametrize("target", [0.01, 0.05, 0.1, 0.3])
def test_durham_epsilon_is_the_boundary_of_the_switching_probability(deviation, direction, target):
    eps = ch.durham_epsilon_for_switching(deviation, max_probability=target, direction=direction)
    prob = float(kr.durham_switch_probability(eps, deviation, direction))
    assert prob == pytest.approx(target, rel=1e-9)
    assert float(kr.durham_switch_probability(eps * (1 - 1e-6), deviation, direction)) > target


def test_durham_refuses_bad_input():
    with pytest.raises(ValueError, match="max_probability"):
        ch.durham_epsilon_for_switching(0.25, max_probability=1.0)
    with pytest.raises(ValueError, match="direction"):
        ch.durham_epsilon_for_switching(0.25, direction="sideways")


def test_choose_feasible_count():
    choice = ch.choose("count", k=5.0, epsilon_risk=1.0, prior=0.5, neighbours="change-one")
    assert choice.feasible
    assert choice.epsilon_accuracy == pytest.approx(math.log(20) / 5)
    assert choice.epsilon_risk == 1.0
    assert f"[{dep.round_risk(choice.epsilon_accuracy, digits=4):.4g}, 1]" in choice.message


@given(
    k=st.floats(0.01, 1e3),
    risk=st.floats(1e-3, 50.0),
    coverage=st.floats(0.5, 0.999),
)
def test_the_message_prints_what_the_accuracy_needs_up_and_what_the_risk_allows_down(
    k, risk, coverage
):
    """Never to nearest: the printed interval (or gap) lies inside the true one's ends."""
    choice = ch.choose("count", k=k, epsilon_risk=risk, coverage=coverage, neighbours="change-one")
    shown = re.search(r"\[(\S+), (\S+)\]|ε ≥ (\S+), risk allows ε ≤ (\S+)\.", choice.message)
    acc, allowed = (float(g) for g in shown.groups() if g is not None)
    assert acc >= choice.epsilon_accuracy and allowed <= choice.epsilon_risk
    assert acc == dep.round_risk(choice.epsilon_accuracy, digits=4)
    assert allowed == dep.round_risk(choice.epsilon_risk, digits=4, down=True)


def test_choose_infeasible_mean_names_each_knob_and_each_knob_opens_it():
    kw = dict(n=100, lower=0.0, upper=100.0, coverage=0.95)
    choice = ch.choose("mean", k=1.0, epsilon_risk=1.0, prior=0.5, **kw, neighbours="change-one")
    assert not choice.feasible
    assert "no ε meets both" in choice.message
    knobs = choice.knobs
    # each knob, moved to its value, makes the accuracy-side ε equal (or fall below) the risk's
    at_k = ch.epsilon_for_accuracy(knobs["k"], sensitivity=1.0, coverage=0.95)
    assert at_k == pytest.approx(1.0)
    at_c = ch.epsilon_for_accuracy(1.0, sensitivity=1.0, coverage=knobs["coverage"])
    assert at_c == pytest.approx(1.0)
    n_needed = knobs["n"]
    sens = ch.sensitivity_of("mean", n=n_needed, lower=0.0, upper=100.0)
    assert ch.epsilon_for_accuracy(1.0, sensitivity=sens) <= 1.0
    sens_less = ch.sensitivity_of("mean", n=n_needed - 1, lower=0.0, upper=100.0)
    assert ch.epsilon_for_accuracy(1.0, sensitivity=sens_less) > 1.0
    # the posterior ε_accuracy implies, rounded up so that read back it allows ε_accuracy
    implied = dep.posterior_bound(choice.epsilon_accuracy, prior=0.5)
    assert implied <= knobs["risk"] == pytest.approx(implied, rel=1e-14)
    assert ch.epsilon_for_posterior(knobs["risk"], prior=0.5) >= choice.epsilon_accuracy
    shown_k, shown_risk = (dep.round_risk(knobs[x], digits=4) for x in ("k", "risk"))
    for needle in (f"±{shown_k:.4g}", f"n ≥ {n_needed:,}", f"{shown_risk:.4g}"):
        assert needle in choice.message


def test_choose_with_a_given_sensitivity_has_no_n_knob():
    choice = ch.choose("mean", k=1.0, epsilon_risk=0.5, sensitivity=2.0, neighbours="change-one")
    assert "n" not in choice.knobs
    assert choice.epsilon_accuracy == ch.epsilon_for_accuracy(1.0, sensitivity=2.0)


@given(k=st.floats(0.1, 50.0), eps_risk=st.floats(0.01, 10.0))
def test_choose_feasible_iff_the_interval_is_non_empty(k, eps_risk):
    choice = ch.choose("sum", k=k, epsilon_risk=eps_risk, lower=0, upper=3, neighbours="change-one")
    assert choice.feasible == (choice.epsilon_accuracy <= choice.epsilon_risk)


@pytest.mark.parametrize("bad", [[1.0, 2.0], "x", math.nan, math.inf])
def test_choose_and_durham_take_scalars_only(bad):
    for call in (
        lambda: ch.choose("count", k=bad, epsilon_risk=1.0, neighbours="change-one"),
        lambda: ch.choose("count", k=1.0, epsilon_risk=bad, neighbours="change-one"),
        lambda: ch.choose("count", k=1.0, epsilon_risk=1.0, prior=bad, neighbours="change-one"),
        lambda: ch.choose(
            "count", k=1.0, epsilon_risk=1.0, sensitivity=bad, neighbours="change-one"
        ),
        lambda: ch.sensitivity_of("sum", lower=bad, upper=1.0),
        lambda: ch.durham_epsilon_for_switching(bad),
    ):
        with pytest.raises(ValueError):
            call()


def test_tiny_k_or_huge_sensitivity_needs_infinite_epsilon():
    assert ch.epsilon_for_accuracy(5e-324, sensitivity=1.0) == math.inf
    assert not ch.choose("count", k=5e-324, epsilon_risk=1.0, neighbours="change-one").feasible
    with pytest.raises(ValueError, match="deviation"):
        ch.durham_epsilon_for_switching(1e308)


def test_choose_refuses_bad_input():
    with pytest.raises(ValueError, match="epsilon_risk"):
        ch.choose("count", k=1.0, epsilon_risk=0.0, neighbours="change-one")
    with pytest.raises(ValueError, match="k"):
        ch.choose("count", k=-1.0, epsilon_risk=1.0, neighbours="change-one")
    with pytest.raises(ValueError, match="coverage"):
        ch.choose("count", k=1.0, epsilon_risk=1.0, coverage=1.0, neighbours="change-one")


# --- rounded toward privacy; no hang, no overflow (issue 17) ----------------------------------

mpmath = pytest.importorskip("mpmath")


def _posterior_exact(epsilon: float, prior: float):
    with mpmath.workdps(60):
        odds = mpmath.mpf(prior) * mpmath.exp(mpmath.mpf(epsilon))
        return odds / (odds + 1 - mpmath.mpf(prior))


@given(st.data())
def test_epsilon_for_posterior_never_allows_a_posterior_above_the_risk(data):
    prior = data.draw(st.floats(1e-6, 0.999))
    if data.draw(st.booleans()):
        risk = data.draw(st.floats(prior, 1.0, exclude_min=True, exclude_max=True))
    else:  # a risk one double beside the posterior of some ε (where rounding decides)
        eps0 = data.draw(st.floats(1e-12, 30))
        post = float(dep.posterior_bound(eps0, prior=prior))
        risk = data.draw(st.sampled_from([post, math.nextafter(post, 0), math.nextafter(post, 1)]))
    if not prior < risk < 1:
        return
    eps = ch.epsilon_for_posterior(risk, prior=prior)
    assert eps >= 0
    assert dep.posterior_bound(eps, prior=prior) <= risk  # as the course computes it ...
    with mpmath.workdps(60):
        assert _posterior_exact(eps, prior) <= mpmath.mpf(risk)  # ... and exactly


@given(
    st.floats(0.01, 0.5), st.lists(st.floats(0.0, 1.0, exclude_min=True), min_size=1, max_size=6)
)
def test_epsilon_for_posterior_rises_with_the_risk_and_the_vector_is_the_scalars(prior, shares):
    risk = np.sort(prior + (1 - prior) * np.array(shares) * (1 - 1e-9))
    risk = risk[(risk > prior) & (risk < 1)]
    if risk.size == 0:
        return
    eps = ch.epsilon_for_posterior(risk, prior=prior)
    assert np.all(np.diff(eps) >= 0)
    np.testing.assert_array_equal(eps, [ch.epsilon_for_posterior(r, prior=prior) for r in risk])


@given(
    lower=st.floats(-1.7e308, 1.7e308),
    width=st.floats(5e-324, 1.7e308),
    n=st.integers(1, 10**30),
    release=st.sampled_from(["sum", "mean"]),
)
def test_sensitivity_is_rounded_up_and_never_inf(lower, width, n, release):
    upper = lower + width
    if not (math.isfinite(upper) and upper > lower):
        return
    exact = Fraction(upper) - Fraction(lower)
    exact = exact if release == "sum" else exact / n
    try:
        got = ch.sensitivity_of(release, n=n, lower=lower, upper=upper)
    except ValueError as error:  # beyond the largest double: refused, naming the bounds
        assert exact > Fraction(np.finfo(float).max) and "lower=" in str(error)
        return
    assert math.isfinite(got) and Fraction(got) >= exact
    assert Fraction(math.nextafter(got, 0.0)) < exact  # the smallest such double


def test_sensitivity_of_a_sum_between_the_ends_of_the_doubles():
    # upper − lower overflowed: Δ = inf, hence ε = inf for any accuracy
    with pytest.raises(ValueError, match=r"lower=-1e\+308, upper=1e\+308.*2\.000e\+308"):
        ch.sensitivity_of("sum", lower=-1e308, upper=1e308)
    assert ch.sensitivity_of("mean", n=2, lower=-1e308, upper=1e308) == 1e308


@pytest.mark.parametrize("epsilon_risk", [5e-324, 1e-300, 1e-20, 1e-10, 1e-3])
@pytest.mark.parametrize("bounds", [(0.0, 100.0), (-1e308, 1e308), (-1e-300, 1e-300)])
def test_records_needed_at_any_risk(epsilon_risk, bounds):
    # the search stepped by ±1 from a float estimate: a hang at a tiny epsilon_risk, and an
    # OverflowError where n·ε/ε_risk was inf
    lower, upper = bounds
    choice = ch.choose(
        "mean",
        k=1.0,
        epsilon_risk=epsilon_risk,
        n=3,
        lower=lower,
        upper=upper,
        neighbours="change-one",
    )
    n = choice.knobs["n"]
    assert isinstance(n, int) and n >= 1
    exact = (Fraction(upper) - Fraction(lower)) * Fraction(-math.log1p(-0.95))
    exact /= Fraction(epsilon_risk)  # k = 1
    assert n >= exact * (1 - Fraction(1, 10**12))
    # the smallest n that opens the interval, unless even Δ = 5e-324 does not (the exact n)
    if ch.sensitivity_of("mean", n=n, lower=lower, upper=upper) > math.nextafter(0.0, 1.0):
        opened = ch.choose(
            "mean",
            k=1.0,
            epsilon_risk=epsilon_risk,
            n=n,
            lower=lower,
            upper=upper,
            neighbours="change-one",
        )
        assert opened.feasible
        if n > 1:
            closed = ch.choose(
                "mean",
                k=1.0,
                epsilon_risk=epsilon_risk,
                n=n - 1,
                lower=lower,
                upper=upper,
                neighbours="change-one",
            )
            assert not closed.feasible


@given(log_risk=st.floats(-12, 1), k=st.floats(0.01, 100), n=st.integers(1, 10**6))
def test_the_n_knob_is_the_smallest_that_opens_the_interval(log_risk, k, n):
    eps_risk = 10.0**log_risk
    choice = ch.choose(
        "mean", k=k, epsilon_risk=eps_risk, n=n, lower=0.0, upper=100.0, neighbours="change-one"
    )
    m = choice.knobs["n"]
    assert ch.choose(
        "mean", k=k, epsilon_risk=eps_risk, n=m, lower=0.0, upper=100.0, neighbours="change-one"
    ).feasible
    if m > 1:
        before = ch.choose(
            "mean",
            k=k,
            epsilon_risk=eps_risk,
            n=m - 1,
            lower=0.0,
            upper=100.0,
            neighbours="change-one",
        )
        assert not before.feasible


def test_the_coverage_knob_keeps_a_tiny_coverage():
    # 1 − exp(−kε/Δ) lost it all: a coverage of 0 at ε_risk = 1e-20
    choice = ch.choose("count", k=1.0, epsilon_risk=1e-20, neighbours="change-one")
    assert choice.knobs["coverage"] == pytest.approx(1e-20, rel=1e-12)


# --- the neighbour notion ------------------------------------------------------------------


def test_choose_requires_the_neighbour_notion():
    with pytest.raises(TypeError, match="neighbours"):
        ch.choose("count", k=5.0, epsilon_risk=1.0)  # a missing argument, as Python says it
    for bad in ("bounded", "Change-one", None, 1, ""):
        with pytest.raises(ValueError, match="neighbours"):
            ch.choose("count", k=5.0, epsilon_risk=1.0, neighbours=bad)
        with pytest.raises(ValueError, match="neighbours"):
            ch.sensitivity_of("count", neighbours=bad)


@pytest.mark.parametrize("neighbours", ch.NEIGHBOURS)
def test_every_message_names_the_neighbours(neighbours):
    for risk in (1e-3, 10.0):  # infeasible and feasible
        choice = ch.choose("count", k=5.0, epsilon_risk=risk, neighbours=neighbours)
        assert neighbours in choice.message


@given(
    lower=st.floats(-1e6, 1e6, allow_nan=False),
    width=st.floats(1e-3, 1e6, allow_nan=False),
)
def test_add_remove_sum_moves_by_the_value_added_or_removed(lower, width):
    """Adding or removing one record moves a sum by that record's value, so the sensitivity is
    the largest |value| in the bounds; a change moves it by at most the width. Brute force over
    the bounds' end points and zero (the extremes of |v| and |v − v'|)."""
    upper = lower + width
    assume(upper > lower)
    values = [lower, upper] + ([0.0] if lower < 0 < upper else [])
    add_remove = max(abs(v) for v in values)
    change_one = max(abs(a - b) for a in values for b in values)
    assert ch.sensitivity_of("sum", lower=lower, upper=upper, neighbours="add-remove") >= add_remove
    assert ch.sensitivity_of("sum", lower=lower, upper=upper, neighbours="add-remove") == (
        pytest.approx(add_remove, rel=1e-15)
    )
    assert ch.sensitivity_of("sum", lower=lower, upper=upper) == pytest.approx(
        change_one, rel=1e-12
    )


def test_one_change_is_at_most_two_additions_or_removals():
    """Group privacy: a change is a removal and an addition, so Δ_change-one ≤ 2·Δ_add-remove
    for every sum (equality at symmetric bounds), and the count's Δ is 1 under both."""
    for lower, upper in [(-5.0, 5.0), (0.0, 10.0), (10.0, 20.0), (-3.0, 1.0), (-1e300, 1e300)]:
        one = ch.sensitivity_of("sum", lower=lower, upper=upper)
        two = 2 * ch.sensitivity_of("sum", lower=lower, upper=upper, neighbours="add-remove")
        assert one <= two
    assert ch.sensitivity_of("sum", lower=-5.0, upper=5.0) == 2 * ch.sensitivity_of(
        "sum", lower=-5.0, upper=5.0, neighbours="add-remove"
    )
    assert ch.sensitivity_of("count", neighbours="add-remove") == ch.sensitivity_of("count") == 1


def test_a_mean_under_add_remove_is_refused_with_the_way_out():
    with pytest.raises(ValueError, match="noisy sum and a noisy count"):
        ch.sensitivity_of("mean", n=10, lower=0.0, upper=1.0, neighbours="add-remove")
    with pytest.raises(ValueError, match="add-remove"):
        ch.choose(
            "mean", k=1.0, epsilon_risk=1.0, n=10, lower=0.0, upper=1.0, neighbours="add-remove"
        )


@given(
    eps=st.floats(1e-3, 10.0),
    p=st.floats(1e-3, 1 - 1e-3),
    q=st.floats(1e-6, 1.0),
)
def test_kazan_reiter_bound_is_conservative_for_change_one(eps, p, q):
    """Theorem 1 with change-one neighbours (n public, the absent target replaced): both the
    absence and the value change are one step, e^{-ε}, so the bound is at most the add-remove
    one at the same ε: a Kazan & Reiter ε is safe for a change-one release (choose's note)."""
    change_one = 1 / (q * p + math.exp(-eps) * (1 - q) * p + math.exp(-eps) * (1 - p))
    assert change_one <= kr.relative_risk_bound(p, q, eps) * (1 + 1e-12)


@given(
    k=st.floats(1e-3, 1e4),
    coverage=st.floats(1e-6, 1 - 1e-9),
    epsilon_risk=st.floats(1e-8, 50.0),
    width=st.floats(1e-3, 1e6),
    prior=st.floats(0.01, 0.99),
)
def test_every_knob_fed_back_makes_the_choice_feasible(k, coverage, epsilon_risk, width, prior):
    # issue 29: the k and coverage knobs were an ulp short (the closed form rounded to nearest)
    given_ = dict(lower=0.0, upper=width, neighbours="change-one")
    choice = ch.choose("sum", k=k, coverage=coverage, epsilon_risk=epsilon_risk, **given_)
    knobs = choice.knobs
    if math.isfinite(knobs["k"]):
        back = ch.choose(
            "sum", k=knobs["k"], coverage=coverage, epsilon_risk=epsilon_risk, **given_
        )
        assert back.feasible
    assert 0 < knobs["coverage"] < 1
    back = ch.choose("sum", k=k, coverage=knobs["coverage"], epsilon_risk=epsilon_risk, **given_)
    assert back.feasible
    # the risk knob: the posterior the accuracy side implies, read back as an ε_risk
    choice = ch.choose(
        "count",
        k=k,
        coverage=coverage,
        epsilon_risk=epsilon_risk,
        prior=prior,
        neighbours="change-one",
    )
    risk = choice.knobs["risk"]
    if prior < risk < 1:
        eps = ch.epsilon_for_posterior(risk, prior=prior)
        back = ch.choose("count", k=k, coverage=coverage, epsilon_risk=eps, neighbours="change-one")
        assert back.feasible
