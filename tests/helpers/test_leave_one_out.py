"""The leave-one-out fast path (size = N − 1) against the brute-force enumeration.

Every built-in query's world values, Δf, tight bound and ε are compared with the general
path, which enumerates the N worlds of N − 1 records. The brute force is reached by wrapping
the same numpy function in a ``Query`` whose key the fast path does not know.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from helpers import leave_one_out as loo
from helpers import lee_clifton as lc
from helpers.plotting import allowed_down
from helpers.queries import Query, get_query
from helpers.sensitivity import unbounded_sensitivity

QUERIES = [
    "count",
    "sum",
    "mean",
    "variance",
    "std",
    "median",
    "min",
    "max",
    "percentile_25",
    "percentile_90",
    "percentile_2.5",
]


def brute(name: str) -> Query:
    """The same query, under a key no fast path knows: the enumeration runs."""
    q = get_query(name)
    return Query(q.name, q.func, key=("brute force", name))


# small universes: ties and duplicates, and values of very different magnitudes
small_ints = st.lists(st.integers(-5, 5), min_size=3, max_size=9)
mixed = st.lists(
    st.one_of(
        st.integers(-3, 3).map(float),
        st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
        st.floats(-1e-6, 1e-6, allow_nan=False, allow_infinity=False),
        st.sampled_from([1e9, 1e9 + 1, -2.5e8, 0.1, 0.2, 0.3]),
    ),
    min_size=3,
    max_size=8,
)
universes = st.one_of(small_ints.map(lambda xs: [float(x) for x in xs]), mixed)


def _scale(universe) -> float:
    return max(1.0, max(abs(x) for x in universe))


@pytest.mark.parametrize("name", QUERIES)
@given(universe=universes)
def test_world_values_match_the_enumeration(name, universe):
    size = len(universe) - 1
    fast = lc.world_values(universe, size, name)
    slow = lc.world_values(universe, size, brute(name))
    scale = _scale(universe) ** (2 if name == "variance" else 1)
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12 * scale)


@pytest.mark.parametrize("name", QUERIES)
@given(universe=universes)
def test_sensitivity_matches_the_brute_force_definition(name, universe):
    size = len(universe) - 1
    fast = unbounded_sensitivity(universe, size, name)
    slow = unbounded_sensitivity(universe, size, brute(name))
    scale = _scale(universe) ** (2 if name == "variance" else 1)
    assert fast == pytest.approx(slow, rel=1e-9, abs=1e-12 * scale)


def _exact_spread(rows, *, std: bool) -> np.ndarray:
    """Population variance (or std) of each row from its exact rational value, then rounded.

    np.var rounds [0, 5, 5] and [0, 0, 5] (both 50/9 exactly) to two different doubles, so
    the float enumeration splits a tie the query cannot tell apart; this reference cannot.
    """
    out = []
    for row in np.atleast_2d(rows):
        xs = [Fraction(float(x)) for x in row]
        mean = sum(xs) / len(xs)
        v = sum((x - mean) ** 2 for x in xs) / len(xs)
        out.append(math.sqrt(v) if std else float(v))  # equal rationals, equal doubles
    return np.array(out).reshape(np.shape(rows)[:-1])


def exact(name: str) -> Query:
    """The enumeration with every world's value exact before rounding (integer universes)."""
    if name in {"variance", "std"}:
        func = lambda rows: _exact_spread(rows, std=name == "std")  # noqa: E731
        return Query(name, func, key=("exact", name))
    return brute(name)  # sums, means and order statistics of small integers round exactly


def test_the_exact_reference_ties_what_np_var_splits():
    """Why the tie test below needs ``exact``: two different multisets, one variance."""
    assert np.var([0.0, 5.0, 5.0]) != np.var([0.0, 0.0, 5.0])
    assert _exact_spread([[0.0, 5.0, 5.0], [0.0, 0.0, 5.0]], std=False).tolist() == [50 / 9] * 2
    universe = [0.0, 0.0, 5.0, 5.0]  # every leave-one-out world has variance 50/9
    assert lc.limit_of_tight_bound(universe, 3, "variance") == 0.25
    assert lc.limit_of_tight_bound(universe, 3, exact("variance")) == 0.25
    assert lc.limit_of_tight_bound(universe, 3, brute("variance")) == 0.5  # np.var's split


@pytest.mark.parametrize("name", QUERIES)
@given(universe=small_ints.map(lambda xs: [float(x) for x in xs]))
def test_ties_and_bounds_match_the_enumeration_exactly_on_integers(name, universe):
    """Integer universes: the fast path's ties are the exact ones, so the limits agree."""
    size = len(universe) - 1
    assert lc.limit_of_tight_bound(universe, size, name) == lc.limit_of_tight_bound(
        universe, size, exact(name)
    )
    delta_f = unbounded_sensitivity(universe, size, brute(name))
    assume(delta_f > 0)
    eps = np.array([0.05, 0.5, 2.0, 20.0])
    fast = lc.tight_bound(universe, size, name, eps, sensitivity=delta_f)
    slow = lc.tight_bound(universe, size, brute(name), eps, sensitivity=delta_f)
    np.testing.assert_allclose(fast, slow, rtol=1e-9)


@given(
    universe=st.one_of(
        small_ints.map(lambda xs: [float(x) for x in xs]),
        st.lists(st.floats(-100, 100), min_size=3, max_size=8),
    ),
    risk=st.floats(0.05, 0.95),
)
def test_mean_epsilon_matches_the_enumeration(universe, risk):
    size = len(universe) - 1
    delta_f = unbounded_sensitivity(universe, size, brute("mean"))
    assume(delta_f > 0 and risk > 1 / len(universe) + 1e-6)
    kwargs = dict(sensitivity=delta_f, tol=1e-10)
    fast = lc.binary_search_epsilon(universe, size, "mean", risk, **kwargs)
    slow = lc.binary_search_epsilon(universe, size, brute("mean"), risk, **kwargs)
    # The enumeration's worlds are rounded means: their differences carry an error of about
    # one ulp of the largest mean, and so does its ε relative to the closest pair of worlds
    # (found at [0, 16, 16, 1e-9]: worlds 3.3e-10 apart, ε ≈ 1.8e10, 8e-6 off). Worlds closer
    # than that rounding are merged by the enumeration (at [0, 1, 1, 3.4e-270], risk 0.5, it
    # says every ε is safe) while the fast path, working with (c − xᵢ)/(N − 1), still tells
    # them apart and finds ε = 600 (exact arithmetic: about 615, where 2e^{−ε} meets the
    # worlds' 1.1e-270 gap, a difference no double can resolve): compare only where the
    # enumeration represents every world.
    x = np.unique(universe)
    gap = float(np.min(np.diff(x))) / size if x.size > 1 else math.inf
    scale = 8 * np.finfo(float).eps * max(abs(v) for v in universe)
    rounding = scale / gap if gap > 0 else math.inf  # a subnormal gap rounds to 0
    assume(rounding < 1e-3)
    if math.isinf(slow):
        assert math.isinf(fast)
    else:
        assert fast == pytest.approx(slow, rel=max(1e-6, rounding), abs=1e-9)


def test_mean_epsilon_where_the_enumeration_rounds_the_worlds():
    """The example that needed the rounding-aware tolerance above."""
    universe, size = [0.0, 16.0, 16.0, 1e-9], 3
    delta_f = unbounded_sensitivity(universe, size, brute("mean"))
    kwargs = dict(sensitivity=delta_f, tol=1e-10)
    fast = lc.binary_search_epsilon(universe, size, "mean", 0.75, **kwargs)
    slow = lc.binary_search_epsilon(universe, size, brute("mean"), 0.75, **kwargs)
    assert fast == pytest.approx(slow, rel=1e-4)  # within the enumeration's rounding


@pytest.mark.parametrize("name", ["mean", "sum"])
@given(universe=universes, eps=st.floats(0.01, 50))
def test_bounds_match_exact_arithmetic_at_any_magnitude(name, universe, eps):
    """Against world differences computed in exact rational arithmetic.

    Here the enumeration itself is the less accurate side: a mean near 10⁹ rounds to
    ~10⁻⁷, which blurs worlds 0.006 apart. The fast path works with (c − xᵢ)/(N − 1).
    """
    size = len(universe) - 1
    n = len(universe)
    scale = Fraction(1, n - 1) if name == "mean" else Fraction(1)
    exact = [-Fraction(x) * scale for x in universe[::-1]]  # f up to a shared constant
    delta_f = unbounded_sensitivity(universe, size, name)
    assume(delta_f > 0)
    if not math.isfinite(eps / delta_f):  # Δf subnormal ([0, 0, 5e-324]): refused, not inf
        with pytest.raises(ValueError, match="epsilon / sensitivity must be a positive finite"):
            lc.tight_bound(universe, size, name, eps)
        return
    c = Fraction(eps) / Fraction(delta_f)
    totals = [math.fsum(math.exp(-float(c * abs(fi - fj))) for fj in exact) for fi in exact]
    reference = 1 / min(totals)
    assert lc.tight_bound(universe, size, name, eps) == pytest.approx(reference, rel=1e-9)
    same = [sum(fi == fj for fj in exact) for fi in exact]
    assert lc.limit_of_tight_bound(universe, size, name) == 1 / min(same)


def _exact_variance(values) -> Fraction:
    xs = [Fraction(x) for x in values]
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / len(xs)


@pytest.mark.parametrize("offset", [0.0, 1e9, -3e12])
def test_variance_stays_accurate_at_large_offsets(offset):
    """Values near 10⁹ with a spread of 1: no Σx² − (Σx)²/n cancellation."""
    rng = np.random.default_rng(7)
    universe = offset + np.round(rng.normal(size=40), 3)
    f = lc.world_values(universe, 39, "variance")
    for w in (0, 7, 39):  # world w drops record N − 1 − w
        rest = np.delete(universe, 39 - w)
        exact = _exact_variance(rest.tolist())
        assert abs(Fraction(float(f[w])) - exact) <= exact * Fraction(1, 10**11)


def test_variance_recomputes_the_farthest_record_directly():
    """Dropping the one outlier leaves a variance of exactly 0, not rounding noise."""
    universe = [5.0] * 20 + [1e8]
    f = lc.world_values(universe, 20, "variance")
    assert f[0] == 0.0  # world 0 drops the last record, the outlier
    g = lc.world_values(universe, 20, "std")
    assert g[0] == 0.0


def test_supports_only_built_in_queries():
    assert loo.supports(get_query("percentile_10")) and loo.supports(get_query("min"))
    assert not loo.supports(get_query(lambda xs: max(xs) - min(xs)))
    assert not loo.supports(brute("mean"))
    with pytest.raises(ValueError, match="no leave-one-out fast path"):
        loo.world_table(np.arange(4.0), brute("mean"))


def test_a_million_records_need_no_enumeration():
    """N = 10⁶, size N − 1: answered from sorted sums (the enumeration would be 10¹² values)."""
    rng = np.random.default_rng(3)
    universe = rng.normal(50, 10, 1_000_000)
    size = universe.size - 1
    eps = lc.binary_search_epsilon(universe, size, "mean", 1 / 3, tol=1e-6)
    assert 0 < eps < math.inf
    assert lc.tight_bound(universe, size, "mean", eps) <= 1 / 3
    assert lc.tight_bound(universe, size, "mean", eps + 1e-6) > 1 / 3
    # Δf: |f(U ∖ {i, j}) − f(U ∖ {i})| = |mean(U ∖ {i}) − xⱼ|/(N − 2) is largest with i and j
    # among the two smallest and two largest records; computed here with exact sums
    x = np.sort(universe)
    total = Fraction(math.fsum(x.tolist()))
    ends = [0, 1, x.size - 2, x.size - 1]
    n = x.size
    removal = max(
        abs((total - Fraction(x[i])) / (n - 1) - Fraction(x[j])) / (n - 2)
        for i in ends
        for j in ends
        if i != j
    )
    addition = max(abs(Fraction(x[i]) - total / n) / (n - 1) for i in ends)
    expected = float(max(removal, addition))
    assert unbounded_sensitivity(universe, size, "mean") == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError, match=r"1,000,000 worlds × 999,999 records"):
        lc.possible_worlds(universe, size)


# --- the real column of notebook 05 ------------------------------------------------------------


def test_flights_is_the_real_table_with_missing_values_counted():
    from helpers.datasets import flights

    distance = flights("distance")
    assert len(distance) == 336_776 and distance.notna().all() and distance.name == "distance"
    air_time = flights("air_time")
    assert len(air_time) + air_time.attrs["dropped"] == 336_776 and air_time.attrs["dropped"] > 0
    with pytest.raises(ValueError, match="column must be one of"):
        flights("carrier")


def test_the_queries_dashboard_runs_the_leave_one_out_analysis_on_the_flights():
    from helpers.datasets import flights
    from helpers.widgets import queries_dashboard

    distance = flights("distance")
    size = len(distance) - 1
    dash = queries_dashboard({"distance": distance}, size, query="mean")
    # the largest safe ε is an allowed budget: printed rounded down (allowed_down)
    expected = lc.binary_search_epsilon(distance, size, "mean", 1 / 3)
    assert f"ε binary search = {allowed_down(expected):.4f}" in dash.text
    dash.controls["risk"].value = 0.5
    expected = lc.binary_search_epsilon(distance, size, "mean", 0.5)
    assert f"ε binary search = {allowed_down(expected):.4f}" in dash.text
    # shared distances: the order statistics have Δf = 0 and the analysis refuses them; the
    # menu leaves them out (a choice that draws nothing left the last query's figure on
    # screen) and the readout names them with the reason
    refused = ["median", "max", "percentile_25", "percentile_75"]
    for name in refused:
        assert "zero sensitivity" in lc.analysis_table(distance, size, 1 / 3, [name])["note"][name]
    assert not set(refused) & set(dash.controls["query"].options)
    assert f"not offered here: {', '.join(refused)} (Δf = 0 here" in dash.text
    assert dash.controls["column"].disabled  # one column: nothing to choose
    # no query named: the dashboard starts on the first one offered (the default median is
    # refused here), and naming the median is still refused
    default = queries_dashboard({"distance": distance}, size)
    assert default.controls["query"].value == dash.controls["query"].options[0] == "mean"
    with pytest.raises(ValueError, match=r"^query 'median' cannot be shown on these data"):
        queries_dashboard({"distance": distance}, size, query="median")
    dash.controls["query"].value = "variance"
    assert (
        f"Δf (unbounded sensitivity) = {unbounded_sensitivity(distance, size, 'variance'):.4f}"
        in (dash.text)
    )


# --- issue 17 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", QUERIES)
def test_a_one_record_universe_has_no_leave_one_out_worlds(name):
    """Its one world is empty: refused with the reason (the median raised IndexError)."""
    for call in (loo.world_table, loo.unbounded_sensitivity):
        with pytest.raises(ValueError, match=r"at least 2 records .* one-record universe"):
            call(np.array([5.0]), get_query(name))


def test_a_built_in_name_on_another_function_gets_no_fast_path():
    impostor = Query("mean", lambda rows: 2 * np.mean(rows, axis=-1), key=("mean",))
    assert not loo.supports(impostor)
    with pytest.raises(ValueError, match="no leave-one-out fast path"):
        loo.world_table(np.arange(4.0), impostor)
    np.testing.assert_allclose(
        lc.world_values([1, 2, 3, 10], 3, impostor), 2 * lc.world_values([1, 2, 3, 10], 3, "mean")
    )


ORDER_STATISTICS = ["median", "min", "max", "percentile_25", "percentile_90", "percentile_2.5"]


@pytest.mark.parametrize("name", [*ORDER_STATISTICS, "mean", "variance", "std"])
@given(
    universe=st.lists(st.integers(-50, 50), min_size=3, max_size=9),
    offset=st.sampled_from([1e12, -1e12, 1e14, -3e14, 2.0**50 + 3]),
    risk=st.floats(0.05, 0.95),
)
def test_a_large_offset_changes_nothing_in_the_leave_one_out_path(name, universe, offset, risk):
    """An interpolated percentile near 10¹⁴ rounded to 1/64 and lost the differences
    between worlds (ε 1.3e-4 off); the order statistics are now interpolated between the
    records minus the middle one, exact there, like the mean's (c − xᵢ)/(N − 1)."""
    size = len(universe) - 1
    shifted = [offset + x for x in universe]
    delta_f = unbounded_sensitivity(universe, size, name)
    assume(delta_f > 0 and risk > 1 / len(universe) + 1e-6)
    assert unbounded_sensitivity(shifted, size, name) == pytest.approx(delta_f, rel=1e-12)
    assert lc.limit_of_tight_bound(shifted, size, name) == lc.limit_of_tight_bound(
        universe, size, name
    )
    eps = np.array([0.1, 1.0, 10.0])
    np.testing.assert_allclose(
        lc.tight_bound(shifted, size, name, eps),
        lc.tight_bound(universe, size, name, eps),
        rtol=1e-12,
    )
    before = lc.binary_search_epsilon(universe, size, name, risk, tol=1e-12)
    after = lc.binary_search_epsilon(shifted, size, name, risk, tol=1e-12)
    assert after == before if math.isinf(before) else after == pytest.approx(before, rel=1e-9)
    if name in ORDER_STATISTICS:  # exact: the centred records are the same integers
        assert after == before
