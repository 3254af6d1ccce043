"""helpers.budget.ratio: a mean released as its noisy sum over its noisy count, planned with
the release's own interval (issue 48, item 4: a mean printed ±3.65 for a target of ±2).

The interval is held to a brute force over its box; the planned ±k (the widest half-width at
the least group size n) to a brute force over a dense grid of true means, with a tolerance
from the grid's step and the half-width's slope; the allocation's budget to be the least that
meets the target (a hair less misses it), for several bounds of every sign, coverages, Laplace
and Gaussian noise, m and n from 1 to large; and shifting the bounds shifts nothing in ±k.
OpenDP's own noise is held to the plan in tests/helpers/release/test_opendp.py.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import budget as B
from helpers.budget import _common, ratio
from helpers.budget.families import NoiseFamily

#: (L, U): straddling 0, at 0, all above, all below, narrower than 1 (the sum's weight is then 1)
BOUNDS = [(0.0, 100.0), (-50.0, 250.0), (100.0, 500.0), (-500.0, -100.0), (-0.3, 0.4), (3.0, 3.5)]


def _work(lower, upper, n, k, *, coverage=0.95, m=1):
    """A Workload with one mean released as a ratio and a count, Δ stated as OpenDP's."""
    unit = B.PrivacyUnit("person", contributions=m, neighbours="add-remove")
    releases = [
        B.Release("count", k=10.0, sensitivity=float(m), label="visits"),
        B.Release(
            "mean",
            k=k,
            lower=lower,
            upper=upper,
            n=n,
            coverage=coverage,
            sensitivity=m * (upper - lower) / n,
            label="mean",
        ),
    ]
    return B.Workload(releases, unit=unit, means="ratio")


def _brute_interval(s, a, n, b, lo, hi, points=401):
    """The extremes of (s + u)/(n + v) over a grid of the box |u| ≤ a, |v| ≤ b (count > 0),
    clamped into the bounds; the bounds where the box holds a count ≤ 0 or misses them."""
    if n - b <= 0:
        return lo, hi
    u = np.linspace(-a, a, points)[:, None]
    v = np.linspace(-b, b, points)[None, :]
    ratios = (s + u) / (n + v)
    low, high = max(lo, ratios.min()), min(hi, ratios.max())
    return (low, high) if low <= high else (lo, hi)


@pytest.mark.parametrize("seed", range(5))
def test_the_interval_is_the_extremes_of_its_box_inside_the_bounds(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        lo = float(rng.uniform(-100, 100))
        hi = lo + float(rng.uniform(0.1, 200))
        n = float(rng.uniform(-5, 60))
        b = float(rng.uniform(0, 30))
        s = float(rng.uniform(lo, hi)) * max(n, 1.0) + float(rng.normal(0, 50))
        a = float(rng.uniform(0, 400))
        got = B.ratio_interval(s, n, total_accuracy=a, count_accuracy=b, lower=lo, upper=hi)
        assert all(isinstance(x, float) for x in got)
        # the grid holds the box's corners, where the extremes of a ratio of boxes lie
        want = _brute_interval(s, a, n, b, lo, hi)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_the_interval_is_vectorised_and_refuses_bad_input_by_name():
    low, high = B.ratio_interval(
        [200.0, 200.0], [40.0, 3.0], total_accuracy=20.0, count_accuracy=4.0, lower=-10, upper=10
    )
    assert isinstance(low, np.ndarray) and high.tolist()[1] == 10.0 and low.tolist()[1] == -10.0
    with pytest.raises(ValueError, match=r"upper must be above lower; got upper=1"):
        B.ratio_interval(1.0, 2.0, total_accuracy=1.0, count_accuracy=1.0, lower=1.0, upper=1.0)
    with pytest.raises(ValueError, match=r"count_accuracy must .* got -1"):
        B.ratio_interval(1.0, 2.0, total_accuracy=1.0, count_accuracy=-1.0, lower=0, upper=1)
    with pytest.raises(ValueError, match=r"must broadcast together"):
        B.ratio_interval(
            [1.0, 2.0], [1.0, 2.0, 3.0], total_accuracy=1, count_accuracy=1, lower=0, upper=1
        )


def _brute_widest(n, a, b, lo, hi, points=200_001):
    """The widest half-width over a dense grid of true means μ in [lo, hi], the released sum
    n·μ and count n, and the grid's tolerance: the half-width's slope in μ is at most
    1 + n/(n − b) (each corner's is n/(n ± b)), times the step."""
    mu = np.linspace(lo, hi, points)
    low, high = ratio._ratio_interval(n * mu, a, n, b, lo, hi)
    widest = float(np.max(np.maximum(mu - low, high - mu)))
    slope = 1 + n / (n - b) if n > b else 1.0
    return widest, slope * (hi - lo) / (points - 1)


@pytest.mark.parametrize("lo, hi", [(-50.0, 50.0), (-3.0, 7.0), (-0.2, 0.2), (-1.0, 0.0)])
def test_the_widest_half_width_is_the_brute_force_maximum_over_the_true_mean(lo, hi):
    rng = np.random.default_rng(7)
    for _ in range(25):
        n = float(rng.choice([1, 2, 5, 40, 1000]))
        b = float(rng.uniform(0, 1.2)) * n
        a = float(rng.uniform(0, 2)) * n * (hi - lo)
        exact = float(ratio._widest_half_width([n], [a], [b], [lo], [hi])[0])
        brute, tolerance = _brute_widest(n, a, b, lo, hi)
        assert brute - 1e-12 <= exact <= brute + tolerance + 1e-12, (n, a, b)


def _plan(work, mechanism):
    w = _common._parse(work)
    return ratio._RatioPlan(w, NoiseFamily.of(mechanism))


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
@pytest.mark.parametrize("lower, upper", BOUNDS)
@pytest.mark.parametrize("coverage", [0.5, 0.95, 0.999])
def test_the_allocation_plans_a_mean_at_its_least_budget_meeting_the_target(
    mechanism, lower, upper, coverage
):
    """Every n from 1 to large and m of 1 and 3: the planned ±k is the target (the least
    budget makes it tight) and within it; a budget a millionth smaller misses it."""
    width = upper - lower
    for n in (1, 7, 200, 10**6):
        for m in (1, 3):
            work = _work(lower, upper, n, 0.05 * width, coverage=coverage, m=m)
            allocation = B.budget_for_accuracy(work, mechanism=mechanism)
            planned = float(allocation.k[1])
            assert allocation.target.tolist() == [10.0, 0.05 * width]
            assert planned <= 0.05 * width and planned == pytest.approx(0.05 * width, rel=1e-9)
            assert bool(allocation.meets[1]) and allocation.coverage[1] >= coverage * (1 - 1e-9)
            plan = _plan(work, mechanism)
            less = allocation.budgets[1:] * (1 - 1e-6)
            assert plan.reach(plan.scale(less))[0] > 0.05 * width
            # the count is planned as before: its ±k is its target
            assert float(allocation.k[0]) == pytest.approx(10.0, rel=1e-9)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_a_larger_group_gets_a_narrower_interval_and_the_count_plan_is_unchanged(mechanism):
    work = _work(0.0, 100.0, 200, 2.0)
    plan = _plan(work, mechanism)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism)
    scale = plan.scale(allocation.budgets[1:])
    widths = [
        float(ratio._widest_half_width([n], *plan_parts(plan, scale), plan.lo, plan.hi)[0])
        for n in (200, 201, 400, 5000)
    ]
    assert widths[0] == pytest.approx(2.0, rel=1e-9)
    assert all(x > y for x, y in itertools.pairwise(widths))
    plain = B.budget_for_accuracy(list(work)[:1], mechanism=mechanism)
    assert allocation.budgets[0] == plain.budgets[0]


def plan_parts(plan, scale):
    """(a, b): the sum's and the count's ±k at the plan's coverage (α/2 each) at scale t."""
    each = 1 - (1 - plan.coverage) / 2
    cls = plan.family.mechanism
    a = cls.noise_reach(scale * plan.weight, each, sensitivity=plan.sum_sensitivity)
    b = cls.noise_reach(scale, each, sensitivity=plan.count_sensitivity)
    return np.atleast_1d(a), np.atleast_1d(b)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_a_split_meets_a_ratio_mean_where_its_budget_covers_its_plan(mechanism):
    work = _work(-20.0, 80.0, 50, 3.0)
    need = B.budget_for_accuracy(work, mechanism=mechanism)
    split = B.split_budget(work, need.total * 1.5, mechanism=mechanism, meet_targets=True)
    assert split.meets.all() and (split.k <= split.target * (1 + 1e-12)).all()
    short = B.split_budget(work, need.total * 0.5, mechanism=mechanism, objective="need")
    assert not short.meets.any() and (short.k > short.target).all()
    assert (short.coverage < 0.95).all()
    with pytest.raises(ValueError, match=r"total must be at least"):
        B.split_budget(work, need.total * 0.9, mechanism=mechanism, meet_targets=True)


def test_a_target_the_bounds_alone_meet_is_refused_by_name():
    with pytest.raises(ValueError, match=r"workload\[1\] \('mean'\): k must be below U − L = 100"):
        B.budget_for_accuracy(_work(0.0, 100.0, 200, 100.0))


def test_a_direct_workload_keeps_the_course_plan():
    """The course's means (one noise on the mean) are planned as before."""
    work = _work(0.0, 100.0, 200, 2.0)
    direct = B.Workload(list(work), unit=work.unit)
    allocation = B.budget_for_accuracy(direct)
    assert allocation.budgets[1] == pytest.approx(0.5 / 2.0 * np.log(20.0), rel=1e-12)
    assert B.bonferroni(work, joint=0.9).means == "ratio"


@settings(max_examples=30, deadline=None)
@given(
    mechanism=st.sampled_from(["laplace", "gaussian"]),
    lower=st.floats(-1e3, 1e3),
    width=st.floats(0.5, 1e3),
    shift=st.floats(-1e3, 1e3),
    n=st.integers(1, 10**5),
    fraction=st.floats(0.001, 0.9),
)
# hypothesis found it: n·μ/n rounded past the bound read as a box outside the bounds
@example(
    mechanism="laplace", lower=0.0, width=219.0, shift=0.7476631620265436, n=2395, fraction=0.5
)
def test_shifting_the_bounds_shifts_nothing_in_the_plan(
    mechanism, lower, width, shift, n, fraction
):
    upper = lower + width
    k = fraction * width
    first = B.budget_for_accuracy(_work(lower, upper, n, k), mechanism=mechanism)
    moved = _work(lower + shift, lower + shift + width, n, k)
    second = B.budget_for_accuracy(moved, mechanism=mechanism)
    # the shifted bounds are the same up to the rounding of L + shift and U + shift
    assert second.budgets[1] == pytest.approx(first.budgets[1], rel=1e-6)
    assert second.k[1] == pytest.approx(first.k[1], rel=1e-6)


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_planned_k_is_the_plan_at_n_and_the_release_s_interval_at_another_size(mechanism):
    """At the mean's own n it is the allocation's k; at any size, the brute-force widest
    half-width over the true mean at the allocation's noise; a count's k whatever the size."""
    work = _work(-40.0, 60.0, 150, 4.0, coverage=0.9, m=2)
    allocation = B.budget_for_accuracy(work, mechanism=mechanism)
    at_n = B.planned_k(allocation, work, group_size=150)
    assert isinstance(at_n, np.ndarray) and at_n.tolist() == pytest.approx(allocation.k.tolist())
    plan = _plan(work, mechanism)
    a, b = plan_parts(plan, plan.scale(allocation.budgets[1:]))
    for size in (1, 20, 149, 151, 3000):
        got = B.planned_k(allocation, work, group_size=size)
        brute, tolerance = _brute_widest(float(size), a[0], b[0], plan.lo[0], plan.hi[0])
        assert brute - 1e-9 <= got[1] <= brute + tolerance + 1e-9
        assert got[0] == allocation.k[0]
        assert (got[1] > at_n[1]) == (size < 150)
    direct = B.Workload(list(work), unit=work.unit)  # one noise on the mean: no group size
    plain = B.budget_for_accuracy(direct, mechanism=mechanism)
    assert B.planned_k(plain, direct, group_size=5).tolist() == plain.k.tolist()


def test_planned_k_refuses_what_it_cannot_read_by_name():
    work = _work(0.0, 100.0, 200, 2.0)
    allocation = B.budget_for_accuracy(work)
    with pytest.raises(ValueError, match=r"group_size must be an integer in 1\.\..* got 0"):
        B.planned_k(allocation, work, group_size=0)
    with pytest.raises(ValueError, match=r"allocation must be an Allocation"):
        B.planned_k(list(allocation.k), work, group_size=5)
    with pytest.raises(ValueError, match=r"workload must be the one .* 1 releases, .* 2 budgets"):
        B.planned_k(allocation, list(work)[:1], group_size=5)


def test_a_choice_with_one_noise_per_release_plans_a_ratio_mean_with_its_own_model():
    """choose_workload with a mechanism per release (composed on their PLD) gives a ratio mean
    its own plan's budget and reports its own plan's ±k, as one family does."""
    work = _work(-30.0, 70.0, 120, 3.0)
    for mechanisms in (["laplace", "gaussian"], ["gaussian", "laplace"]):
        alone = B.budget_for_accuracy(work, mechanism=mechanisms[1])
        choice = B.choose_workload(work, B.risk_epsilon(50.0), mechanism=mechanisms, delta=1e-6)
        assert choice.accuracy.budgets[1] == pytest.approx(alone.budgets[1], rel=1e-12)
        assert choice.accuracy.k[1] == pytest.approx(3.0, rel=1e-9) and choice.accuracy.meets[1]
        short = B.choose_workload(work, B.risk_epsilon(0.05), mechanism=mechanisms, delta=1e-6)
        plan = _plan(work, mechanisms[1])
        assert short.at_risk.k[1] == pytest.approx(
            plan.reach(plan.scale(short.at_risk.budgets[1:]))[0], rel=1e-12
        )
        assert short.at_risk.k[1] > 3.0 and not short.at_risk.meets[1]


def test_a_noise_of_zero_plans_no_width_whatever_the_bounds():
    """The class of hypothesis's find: with the noise at zero the box is the true mean itself,
    so its widest half-width is 0 up to rounding at every spot, for any bounds and group size
    (a rounding of n·μ/n past a bound had read as a box outside them: the whole bounds)."""
    from helpers.budget.ratio import _widest_half_width

    rng = np.random.default_rng(46)
    lower = rng.uniform(-1e3, 1e3, 20_000)
    upper = lower + rng.uniform(0.5, 1e3, lower.size)
    shift = lower / 2 + upper / 2
    lo, hi = lower - shift, upper - shift
    n = rng.integers(1, 10**5, lower.size).astype(float)
    zero = np.zeros(lower.size)
    widest = _widest_half_width(n, zero, zero, lo, hi)
    assert np.all(widest <= 1e-12 * np.maximum(np.abs(lo), np.abs(hi))), widest.max()


@pytest.mark.parametrize("mechanism", ["geometric", "discrete_gaussian"])
def test_an_integer_noise_plans_a_ratio_mean_in_every_entry_point(mechanism):
    """A ratio mean's stated Δ m(U − L)/n is rarely an integer and an integer noise takes
    only integers: every planner reads it at the least integer above (the plan is the
    ratio's, so its budget and ±k are unchanged by that reading), never refusing it; a
    release that is not a ratio mean keeps its Δ, and a non-integer one is still refused."""
    work = _work(0.0, 500.0, 12, 25.0)  # Δ = 500/12
    alone = B.budget_for_accuracy(work, mechanism=mechanism)
    plan = _plan(work, mechanism)
    assert alone.sensitivities.tolist() == [1.0, 42.0]
    assert float(alone.k[1]) <= 25.0 and bool(alone.meets[1])
    assert float(alone.k[1]) == pytest.approx(plan.reach(plan.scale(alone.budgets[1:]))[0])
    split = B.split_budget(work, 0.5 * alone.total, mechanism=mechanism)
    assert split.sensitivities.tolist() == [1.0, 42.0] and not split.meets.all()
    for mechanisms in (mechanism, ["laplace", mechanism]):
        choice = B.choose_workload(work, B.risk_epsilon(50.0), mechanism=mechanisms, delta=1e-6)
        assert choice.accuracy.budgets[1] == pytest.approx(alone.budgets[1], rel=1e-9)
    direct = [B.Release("sum", k=30.0, lower=0.0, upper=2.5)]  # Δ = 2.5, not a ratio mean
    with pytest.raises(ValueError, match="sensitivity must be a positive integer"):
        B.budget_for_accuracy(direct, mechanism=mechanism)
