"""Lee & Clifton (2011): the published numbers, properties of the bounds, bad input."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from helpers import lee_clifton as lc
from helpers.datasets import school, school_release
from helpers.mechanisms import laplace_pdf
from helpers.sensitivity import bounded_sensitivity, unbounded_sensitivity

SCHOOL = school()
YEAR = SCHOOL["school_year"].tolist()  # [1, 2, 3, 4]
ABSENCE = SCHOOL["absence_days"].tolist()  # [1, 2, 3, 10]
N = 3  # the release holds three students


def close(value, published, places=4):
    """Equal at the precision the source printed ``published``."""
    return round(float(value), places) == published


# --- the school example ----------------------------------------------------------------


def test_world_one_is_the_release_without_terry():
    worlds = lc.possible_worlds(ABSENCE, N)
    assert worlds.shape == (4, 3)
    assert worlds[0].tolist() == school_release()["absence_days"].tolist()
    assert "Terry" not in school_release()["name"].tolist()


@pytest.mark.parametrize(
    ("column", "published"),
    [
        ("absence_days", [0.6180, 0.1582, 0.1250, 0.0988]),
        ("school_year", [0.3390, 0.4003, 0.1799, 0.0808]),
    ],
)
def test_published_posterior_at_output_2_20131_and_epsilon_2(column, published):
    post = lc.posterior(SCHOOL[column], N, "mean", 2.20131, 2)
    assert [round(p, 4) for p in post] == published


def test_paper_typo_numerator_is_0_3062():
    """Sec. 4.4: the numerator of world 1's posterior for absence_days is the Laplace density of
    the output under world 1 (b = Δf/ε; the uniform prior cancels in the ratio)."""
    delta_f = unbounded_sensitivity(ABSENCE, N, "mean")
    f = lc.world_values(ABSENCE, N, "mean")
    numerators = laplace_pdf(2.20131, loc=f, scale=delta_f / 2)
    assert round(float(numerators[0]), 4) == 0.3062  # the paper prints 0.3602
    # and Definition 3's posterior is exactly these numerators normalised
    np.testing.assert_allclose(
        lc.posterior(ABSENCE, N, "mean", 2.20131, 2), numerators / numerators.sum(), rtol=1e-12
    )


def test_confidence_is_posterior_minus_prior_not_the_reverse():
    year = lc.confidence(YEAR, N, "mean", 2.20131, 2)
    absence = lc.confidence(ABSENCE, N, "mean", 2.20131, 2)
    assert close(year, 0.1503) and close(absence, 0.3680)
    # the source printed max(prior − posterior) = 1/4 − min posterior: 0.1692 / 0.1512
    post = lc.posterior(YEAR, N, "mean", 2.20131, 2)
    assert close(np.max(0.25 - post), 0.1692)


@pytest.mark.parametrize(
    ("universe", "eps_ub", "tight_05", "eps_bs", "ub_2"),
    [(YEAR, 0.3379, 0.3292, 0.5251, 0.7861), (ABSENCE, 0.3829, 0.3477, 0.4317, 0.7348)],
    ids=["school_year", "absence_days"],
)
def test_published_bounds_and_epsilons_for_the_mean(universe, eps_ub, tight_05, eps_bs, ub_2):
    assert close(lc.epsilon_upper_bound(universe, N, "mean", 1 / 3), eps_ub)
    assert close(lc.tight_bound(universe, N, "mean", 0.5), tight_05)
    assert close(lc.binary_search_epsilon(universe, N, "mean", 1 / 3), eps_bs)
    assert close(lc.upper_bound(universe, N, "mean", 2), ub_2)


def test_source_printed_full_precision_values():
    # the replication printed these to 16 digits; ours agree to the search tolerance
    assert lc.epsilon_upper_bound(YEAR, N, "mean", 1 / 3) == pytest.approx(
        0.3378875900901369, abs=1e-12
    )
    assert lc.tight_bound(YEAR, N, "mean", 0.5) == pytest.approx(0.3291788293012836, abs=1e-12)
    assert lc.tight_bound(ABSENCE, N, "mean", 0.5) == pytest.approx(0.3476971459619019, abs=1e-12)
    # its binary search stopped at a coarser tolerance (≈1e-6)
    assert lc.binary_search_epsilon(YEAR, N, "mean", 1 / 3) == pytest.approx(
        0.525149770057615, abs=2e-7
    )
    assert lc.binary_search_epsilon(ABSENCE, N, "mean", 1 / 3) == pytest.approx(
        0.43171996782769506, abs=2e-7
    )


def test_sensitivities_of_the_school_example():
    assert unbounded_sensitivity(YEAR, N, "mean") == pytest.approx(5 / 6)
    assert unbounded_sensitivity(ABSENCE, N, "mean") == pytest.approx(17 / 6)
    # bounded: swap Chris (1) for Terry (10) moves the mean by 9/3; here it equals Δv
    assert bounded_sensitivity(ABSENCE, N, "mean") == pytest.approx(3.0)
    assert bounded_sensitivity(YEAR, N, "mean") == pytest.approx(1.0)
    assert lc.delta_v(ABSENCE, N, "mean") == pytest.approx(3.0)
    assert lc.delta_v(YEAR, N, "mean") == pytest.approx(1.0)


def test_median_section_6():
    # ε of inequality 7 4·ln(3/2) ≈ 1.6219 (Δf = 4, Δv = 1)
    assert close(lc.epsilon_upper_bound(ABSENCE, N, "median", 1 / 3), 1.6219)
    assert lc.epsilon_upper_bound(ABSENCE, N, "median", 1 / 3) == pytest.approx(4 * math.log(1.5))
    # tight-bound ε is 4·ln 2 = 2.7726; the paper's "≈ 2.776" is a misprint
    eps = lc.binary_search_epsilon(ABSENCE, N, "median", 1 / 3)
    assert eps == pytest.approx(4 * math.log(2), abs=1e-8)
    assert round(eps, 3) == 2.773 and round(eps, 3) != 2.776


def test_median_risk_at_the_limit_is_never_exceeded():
    # medians 2, 2, 3, 3: two worlds always look alike, so the bound tends to 1/2
    assert lc.limit_of_tight_bound(ABSENCE, N, "median") == 0.5
    assert lc.binary_search_epsilon(ABSENCE, N, "median", 0.5) == math.inf
    assert lc.tight_bound(ABSENCE, N, "median", 1e6) <= 0.5


def test_count_query_reveals_nothing_about_which_world():
    assert lc.epsilon_upper_bound(ABSENCE, N, "count", 1 / 3) == math.inf
    assert lc.binary_search_epsilon(ABSENCE, N, "count", 1 / 3) == math.inf


def test_binary_search_steps_shrink_and_bracket():
    steps = lc.binary_search_steps(YEAR, N, "mean", 1 / 3, tol=1e-6)
    widths = [high - low for low, high in steps]
    assert all(b == pytest.approx(a / 2) for a, b in itertools.pairwise(widths))
    for low, high in steps[1:]:
        assert lc.tight_bound(YEAR, N, "mean", high) > 1 / 3
        if low > 0:
            assert lc.tight_bound(YEAR, N, "mean", low) <= 1 / 3


def test_vectorised_bounds_match_scalar_calls():
    eps = np.array([0.05, 0.5, 2.0, 5.0])
    tight = lc.tight_bound(ABSENCE, N, "mean", eps)
    upper = lc.upper_bound(ABSENCE, N, "mean", eps)
    assert tight.shape == upper.shape == (4,)
    assert tight.tolist() == pytest.approx([lc.tight_bound(ABSENCE, N, "mean", e) for e in eps])
    assert upper.tolist() == pytest.approx([lc.upper_bound(ABSENCE, N, "mean", e) for e in eps])


def test_explicit_prior_moves_the_posterior():
    weights = [4, 1, 1, 1]
    p0 = lc.prior(YEAR, N, weights)
    assert p0.tolist() == pytest.approx([4 / 7, 1 / 7, 1 / 7, 1 / 7])
    uniform = lc.posterior(YEAR, N, "mean", 2.20131, 2)
    informed = lc.posterior(YEAR, N, "mean", 2.20131, 2, prior=weights)
    # Bayes: posterior ∝ prior × likelihood, so the ratio to the uniform case is ∝ the prior
    ratio = informed / uniform
    assert (ratio / ratio[1]).tolist() == pytest.approx([4, 1, 1, 1])


def test_large_epsilon_does_not_underflow():
    post = lc.posterior(ABSENCE, N, "mean", 2.0, 5000)
    assert np.all(np.isfinite(post)) and post[0] == pytest.approx(1.0)
    assert np.isfinite(lc.tight_bound(ABSENCE, N, "mean", 1e6))


# --- properties ------------------------------------------------------------------------

universes = st.lists(st.integers(-20, 20), min_size=2, max_size=7)


def _pairwise_tight_bound(f, eps, delta_f):
    """Eq. (3) written as the plain double sum (the reference the fast path must match)."""
    f = np.asarray(f, dtype=float)
    sums = np.exp(-eps * np.abs(f[:, None] - f[None, :]) / delta_f).sum(axis=1)
    return 1 / sums.min()


@given(universes, st.data(), st.floats(0.01, 20))
def test_tight_bound_matches_the_pairwise_definition(universe, data, eps):
    size = data.draw(st.integers(1, len(universe) - 1))
    assume(unbounded_sensitivity(universe, size, "mean") > 0)
    f = lc.world_values(universe, size, "mean")
    delta_f = unbounded_sensitivity(universe, size, "mean")
    assert lc.tight_bound(universe, size, "mean", eps) == pytest.approx(
        _pairwise_tight_bound(f, eps, delta_f)
    )


@given(universes, st.data(), st.floats(-30, 30), st.floats(0.01, 10))
def test_posterior_is_a_distribution_invariant_to_universe_order(universe, data, output, eps):
    size = data.draw(st.integers(1, len(universe) - 1))
    assume(unbounded_sensitivity(universe, size, "mean") > 0)
    post = lc.posterior(universe, size, "mean", output, eps)
    assert post.sum() == pytest.approx(1.0) and np.all(post >= 0)
    perm = data.draw(st.permutations(range(len(universe))))
    shuffled = [universe[i] for i in perm]
    post_shuffled = lc.posterior(shuffled, size, "mean", output, eps)
    # world (set of original positions) -> its index in each ordering
    original = {c: i for i, c in enumerate(itertools.combinations(range(len(universe)), size))}
    for j, c in enumerate(itertools.combinations(range(len(universe)), size)):
        assert post_shuffled[j] == pytest.approx(
            post[original[tuple(sorted(perm[i] for i in c))]], abs=1e-12
        )


@given(universes, st.data(), st.lists(st.floats(0.01, 10), min_size=2, max_size=6))
def test_tight_bound_below_upper_bound_and_non_decreasing(universe, data, eps):
    size = data.draw(st.integers(1, len(universe) - 1))
    assume(unbounded_sensitivity(universe, size, "mean") > 0)
    eps = np.sort(np.asarray(eps))
    tight = lc.tight_bound(universe, size, "mean", eps)
    upper = lc.upper_bound(universe, size, "mean", eps)
    assert np.all(tight <= upper + 1e-12)
    assert np.all(np.diff(tight) >= -1e-12)


@given(universes, st.data(), st.floats(0.05, 0.95))
def test_binary_search_is_the_largest_safe_epsilon(universe, data, risk):
    size = data.draw(st.integers(1, len(universe) - 1))
    assume(unbounded_sensitivity(universe, size, "mean") > 0)
    n_worlds = lc.count_worlds(universe, size)
    assume(risk > 1 / n_worlds + 1e-9)
    eps = lc.binary_search_epsilon(universe, size, "mean", risk)
    eps_ub = lc.epsilon_upper_bound(universe, size, "mean", risk)
    assert eps_ub <= eps + 1e-9
    if math.isinf(eps):
        assert risk >= lc.limit_of_tight_bound(universe, size, "mean")
    else:
        assert lc.tight_bound(universe, size, "mean", eps) <= risk
        assert lc.tight_bound(universe, size, "mean", eps + 1e-6) > risk


@given(universes, st.data(), st.floats(0.1, 5), st.integers(0, 2**32 - 1))
def test_monte_carlo_adversary_never_beats_the_tight_bound(universe, data, eps, seed):
    size = data.draw(st.integers(1, len(universe) - 1))
    delta_f = unbounded_sensitivity(universe, size, "mean")
    assume(delta_f > 0)
    f = lc.world_values(universe, size, "mean")
    true_world = data.draw(st.integers(0, len(f) - 1))
    outputs = f[true_world] + np.random.default_rng(seed).laplace(0, delta_f / eps, 500)
    post = lc.posterior(universe, size, "mean", outputs, eps)
    assert post.max() <= lc.tight_bound(universe, size, "mean", eps) + 1e-12


def test_simulated_attack_beats_the_prior_and_grows_with_epsilon():
    low = lc.simulate_attack(ABSENCE, N, "mean", 0.1, trials=20_000, rng=1)
    high = lc.simulate_attack(ABSENCE, N, "mean", 5.0, trials=20_000, rng=1)
    assert 0.25 < low < high <= 1.0
    # at ε = 5 the noise SD is √2·Δf/ε ≈ 0.8 against a gap of 2.33 to the next world
    assert high > 0.85


def test_analysis_table_matches_the_functions_and_explains_refusals():
    table = lc.analysis_table(ABSENCE, N, 1 / 3)
    assert {"mean", "median", "variance", "std", "sum", "count", "percentile_25"} <= set(
        table.index
    )
    assert table.loc["mean", "ε of inequality 7"] == lc.epsilon_upper_bound(
        ABSENCE, N, "mean", 1 / 3
    )
    assert table.loc["mean", "ε binary search"] == lc.binary_search_epsilon(
        ABSENCE, N, "mean", 1 / 3
    )
    assert table.loc["median", "Δf"] == 4.0 and table.loc["median", "limit of tight bound"] == 0.5
    assert math.isinf(table.loc["count", "ε binary search"])
    # a constant column has zero sensitivity: the row says why instead of failing the table
    flat = lc.analysis_table([5, 5, 5, 5], 3, 1 / 3, queries=["mean", "count"])
    assert "zero sensitivity" in flat.loc["mean", "note"] and math.isnan(
        flat.loc["mean", "ε of inequality 7"]
    )
    assert flat.loc["count", "note"] == ""


def test_simulated_attack_is_chunked_and_refuses_quadratic_memory():
    universe = list(range(20))
    # W = 184,756 worlds: one true world fits in blocks; averaging over all would need W² scores
    rate = lc.simulate_attack(universe, 10, "mean", 50.0, trials=40, rng=3)
    # the same 40 releases scored by posterior() in one piece: the chunked loop must agree
    z = np.random.default_rng(3).laplace(0.0, 1.0, 40)
    f = lc.world_values(universe, 10, "mean")
    outputs = f[0] + z * unbounded_sensitivity(universe, 10, "mean") / 50.0
    guesses = np.argmax(lc.posterior(universe, 10, "mean", outputs, 50.0), axis=-1)
    assert rate == np.mean(guesses == 0)
    assert 0.0 < rate < 1.0  # neither trivially right nor trivially wrong at this ε
    with pytest.raises(ValueError, match=r"184,756 true world\(s\) × 184,756 worlds"):
        lc.simulate_attack(universe, 10, "mean", 1.0, true_world=None, trials=10, rng=3)


def test_posterior_table_too_large_is_refused_with_its_size():
    universe = list(range(20))  # W = 184,756
    with pytest.raises(
        ValueError, match=r"1,000 outputs × 184,756 worlds = 184,756,000 probabilities"
    ):
        lc.posterior(universe, 10, "mean", np.zeros(1000), 1.0)


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: lc.posterior(YEAR, N, "mean", 2.2, 0), r"epsilon must be > 0"),
        (lambda: lc.posterior(YEAR, N, "mean", 2.2, -1), r"epsilon must be > 0"),
        (lambda: lc.posterior(YEAR, N, "mean", 2.2, math.inf), r"epsilon must be finite"),
        (lambda: lc.posterior(YEAR, N, "mean", math.nan, 1), r"output must be finite"),
        (lambda: lc.tight_bound(YEAR, N, "mean", math.nan), r"epsilon must be finite"),
        (
            lambda: lc.epsilon_upper_bound(YEAR, N, "mean", 0),
            r"risk must lie in the open interval \(0, 1\)",
        ),
        (
            lambda: lc.epsilon_upper_bound(YEAR, N, "mean", 1.0),
            r"risk must lie in the open interval",
        ),
        (
            lambda: lc.binary_search_epsilon(YEAR, N, "mean", 1.5),
            r"risk must lie in the open interval",
        ),
        (lambda: lc.epsilon_upper_bound(YEAR, N, "mean", 0.2), r"at or below the prior 1/W = 1/4"),
        (lambda: lc.binary_search_epsilon(YEAR, N, "mean", 0.25), r"at or below the prior 1/W"),
        (lambda: lc.prior(YEAR, 0), r"size must be an integer in 1\.\.4; got 0"),
        (lambda: lc.prior(YEAR, 5), r"size must be an integer in 1\.\.4; got 5"),
        (lambda: lc.prior([], 1), r"universe must contain at least one value"),
        (lambda: lc.prior(["a", "b"], 1), r"universe must contain only numbers"),
        (lambda: lc.prior("1234", 1), r"universe must be a sequence of numbers"),
        (lambda: lc.prior([1.0, math.nan, 3.0], 1), r"universe must be finite"),
        (lambda: lc.prior(YEAR, N, [1, 1, 1]), r"one entry per world, 4"),
        (lambda: lc.prior(YEAR, N, [1, -1, 1, 1]), r"prior weights must be >= 0"),
        (lambda: lc.tight_bound([5, 5, 5], 2, "mean", 1.0), r"zero sensitivity"),
        (lambda: lc.posterior(YEAR, N, "mean", 2.2, 1, sensitivity=0), r"sensitivity must be > 0"),
        (lambda: lc.epsilon_upper_bound(YEAR, 4, "mean", 0.5), r"one possible world"),
        (
            lambda: lc.posterior(YEAR, N, "mode", 2.2, 1),
            r"unknown query 'mode'; known queries: mean, median",
        ),
    ],
)
def test_bad_input_is_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_combinatorial_explosion_is_refused_with_the_count():
    universe = list(range(60))
    with pytest.raises(
        ValueError, match=r"C\(60, 30\) = 118,264,581,564,861,424 possible worlds exceeds"
    ):
        lc.tight_bound(universe, 30, "mean", 1.0)


# --- ties are decided exactly (privacy-critical) -------------------------------------------

QUERY_NAMES_ALL = ["mean", "median", "variance", "std", "sum", "min", "max", "percentile_25"]


def test_large_magnitudes_do_not_merge_worlds():
    """Values near 10¹²: the old tolerance (1e-12 × max |f|) merged worlds 1/3 apart and the
    search answered ∞, "every ε is safe". The answer is the one at the origin."""
    base = [1.0, 2.0, 3.0, 10.0]
    shifted = [1e12 + x for x in base]
    assert lc.limit_of_tight_bound(shifted, 3, "mean") == 1.0
    eps = lc.binary_search_epsilon(shifted, 3, "mean", 1 / 3)
    assert math.isfinite(eps)
    assert eps == pytest.approx(lc.binary_search_epsilon(base, 3, "mean", 1 / 3), rel=1e-9)


def test_tiny_magnitudes_do_not_collapse_the_bound():
    """At 10⁻¹⁵ the old tolerance (1e-12 absolute) merged every world: a bound stuck at 1/W."""
    tiny = [x * 1e-15 for x in ABSENCE]
    assert lc.limit_of_tight_bound(tiny, N, "mean") == 1.0
    assert lc.tight_bound(tiny, N, "mean", 0.5) == pytest.approx(
        lc.tight_bound(ABSENCE, N, "mean", 0.5), rel=1e-12
    )


def test_identical_multisets_are_tied_whatever_the_summation_order():
    """0.1 + 0.2 + 0.3 and 0.2 + 0.3 + 0.1 differ in the last bit; the worlds hold the same
    records, so they must tie (and distinct worlds with equal sums must not merge)."""
    universe = [0.1, 0.2, 0.3, 0.1, 0.7]
    f = lc.world_values(universe, 3, "sum")
    worlds = lc.possible_worlds(universe, 3)
    for i in range(len(f)):
        for j in range(len(f)):
            if sorted(worlds[i]) == sorted(worlds[j]):
                assert f[i] == f[j]
    # each multiset is counted: {0.1, 0.1, x} appears once, {0.1, 0.2, 0.3} twice, ...
    sizes = {}
    for row in worlds:
        key = tuple(sorted(row))
        sizes[key] = sizes.get(key, 0) + 1
    assert lc.limit_of_tight_bound(universe, 3, "sum") <= 1 / min(sizes.values())


integer_universes = st.lists(st.integers(-50, 50), min_size=3, max_size=7)


@pytest.mark.parametrize("name", ["mean", "median", "percentile_25", "min", "max"])
@given(universe=integer_universes, data=st.data(), shift=st.integers(-(2**30), 2**30))
def test_bounds_and_epsilon_are_invariant_to_a_shift(name, universe, data, shift):
    """Adding a constant moves every world's mean/median by it: nothing the adversary sees.

    Integer universes and shifts keep the sums exact, so the ties are the same exactly; the
    bounds and ε agree to the rounding of a mean near the shift (its ulp over Δf)."""
    size = data.draw(st.integers(1, len(universe) - 1))
    delta_f = unbounded_sensitivity(universe, size, name)
    assume(delta_f > 0)
    moved = [x + shift for x in universe]
    assert lc.limit_of_tight_bound(moved, size, name) == lc.limit_of_tight_bound(
        universe, size, name
    )
    rounding = 1e-12 + 1e4 * float(np.spacing(abs(shift) + 64.0)) / delta_f
    eps = np.array([0.1, 1.0, 10.0])
    np.testing.assert_allclose(
        lc.tight_bound(moved, size, name, eps),
        lc.tight_bound(universe, size, name, eps),
        rtol=rounding,
    )
    risk = data.draw(st.floats(1 / math.comb(len(universe), size) + 1e-3, 0.99))
    before = lc.binary_search_epsilon(universe, size, name, risk, tol=1e-12)
    after = lc.binary_search_epsilon(moved, size, name, risk, tol=1e-12)
    if math.isinf(before):
        assert math.isinf(after)
    else:
        assert after == pytest.approx(before, rel=rounding)


@pytest.mark.parametrize("name", QUERY_NAMES_ALL)
@given(universe=integer_universes, data=st.data(), power=st.integers(-60, 60))
def test_bounds_and_epsilon_are_invariant_to_a_scaling(name, universe, data, power):
    """Scaling by 2^k scales f and its default Δf alike (variance by 4^k): ε is unchanged."""
    size = data.draw(st.integers(1, len(universe) - 1))
    assume(unbounded_sensitivity(universe, size, name) > 0)
    scaled = [x * 2.0**power for x in universe]
    assert lc.limit_of_tight_bound(scaled, size, name) == lc.limit_of_tight_bound(
        universe, size, name
    )
    eps = np.array([0.1, 1.0, 10.0])
    np.testing.assert_allclose(
        lc.tight_bound(scaled, size, name, eps),
        lc.tight_bound(universe, size, name, eps),
        rtol=1e-12,
    )
    risk = data.draw(st.floats(1 / math.comb(len(universe), size) + 1e-3, 0.99))
    before = lc.binary_search_epsilon(universe, size, name, risk)
    after = lc.binary_search_epsilon(scaled, size, name, risk)
    if math.isinf(before):
        assert math.isinf(after)
    else:
        assert after == pytest.approx(before, rel=1e-9)


@given(universe=integer_universes, data=st.data())
def test_ties_are_exactly_the_equal_query_values(universe, data):
    size = data.draw(st.integers(1, len(universe) - 1))
    name = data.draw(st.sampled_from(QUERY_NAMES_ALL))
    f = lc.world_values(universe, size, name)
    worlds = lc.possible_worlds(universe, size)
    # the same query on the same multiset, by exact rational arithmetic for the mean
    if name == "mean":
        from fractions import Fraction

        exact = [sum(Fraction(int(v)) for v in row) / size for row in worlds]
        for i in range(len(f)):
            for j in range(len(f)):
                assert (f[i] == f[j]) == (exact[i] == exact[j])
    counts = {}
    for value in f:
        counts[value] = counts.get(value, 0) + 1
    assert lc.limit_of_tight_bound(universe, size, name) == 1 / min(counts.values())


# --- the fast search agrees with the bisection ----------------------------------------------


@given(universes, st.data(), st.floats(0.05, 0.95), st.sampled_from([1e-3, 1e-6, 1e-9]))
def test_fast_search_agrees_with_the_bisection_within_tol(universe, data, risk, tol):
    size = data.draw(st.integers(1, len(universe) - 1))
    name = data.draw(st.sampled_from(["mean", "median", "variance"]))
    assume(unbounded_sensitivity(universe, size, name) > 0)
    assume(risk > 1 / lc.count_worlds(universe, size) + 1e-9)
    steps = lc.binary_search_steps(universe, size, name, risk, tol=tol)
    fast = lc.binary_search_epsilon(universe, size, name, risk, tol=tol)
    if not steps:
        assert math.isinf(fast)
        return
    low, high = steps[-1]
    assert abs(fast - low) <= tol and fast < high
    if fast > 0:
        assert lc.tight_bound(universe, size, name, fast) <= risk


# --- budgets, caches and extreme inputs --------------------------------------------------------


def test_the_records_of_the_worlds_over_the_memory_budget_are_refused_with_count_and_bytes():
    universe = list(range(200))
    with pytest.raises(ValueError, match=r"1,313,400 worlds × 197 records .* MB, over the budget"):
        lc.possible_worlds(universe, 197)
    # the bounds never hold that table: they enumerate a block of worlds at a time
    f = lc.world_values(universe, 197, "max")
    assert f.shape == (1_313_400,) and f.min() == 196.0 and f.max() == 199.0


def test_a_users_callable_keeps_the_enumeration_and_its_limits():
    with pytest.raises(ValueError, match="exceeds the limit MAX_WORLDS"):
        lc.world_values(np.arange(40.0), 20, lambda xs: max(xs) - min(xs))
    # the same query as a built-in in the leave-one-out setting needs no enumeration
    assert lc.world_values(np.arange(5000.0), 4999, "max").size == 5000


def test_count_worlds_refuses_astronomical_counts_quickly():
    with pytest.raises(ValueError, match=r"≈ 10\^3010296 possible worlds"):
        lc.count_worlds(np.zeros(10_000_000), 5_000_000)
    with pytest.raises(ValueError, match="exceeds the limit MAX_WORLDS"):
        lc.tight_bound(np.arange(10_000_000.0), 5_000_000, "mean", 1.0)


def test_the_cache_hits_for_percentiles_and_callables_by_value():
    from helpers.queries import percentile

    lc._CACHE.clear()
    span = lambda xs: max(xs) - min(xs)  # noqa: E731
    for _ in range(3):
        lc.world_values(ABSENCE, N, percentile(25))
        lc.world_values(ABSENCE, N, "percentile_25")
        lc.world_values(ABSENCE, N, span)
        lc.world_values(list(ABSENCE), N, span)
    assert len(lc._CACHE.entries) == 2
    assert lc._CACHE.used <= lc._CACHE.budget


def test_the_cache_is_bounded_by_bytes():
    cache = lc._ByteBoundedCache(100)
    for k in range(10):
        cache.get(k, lambda: np.zeros(5), lambda a: a.nbytes)  # 40 bytes each
    assert cache.used <= 100 and len(cache.entries) == 2
    big = cache.get("big", lambda: np.zeros(50), lambda a: a.nbytes)  # larger than the budget
    assert big.size == 50 and "big" not in cache.entries


def test_posterior_of_a_huge_release_equals_the_nearest_worlds_and_is_finite():
    far = lc.posterior(ABSENCE, N, "mean", 1e308, 2)
    assert np.all(np.isfinite(far))
    f = lc.world_values(ABSENCE, N, "mean")
    np.testing.assert_array_equal(far, lc.posterior(ABSENCE, N, "mean", f.max(), 2))
    huge_eps = lc.posterior(ABSENCE, N, "mean", 2.2, 1e300)
    assert np.all(np.isfinite(huge_eps)) and huge_eps.sum() == pytest.approx(1.0)


def test_posterior_broadcasts_epsilon_like_the_bounds():
    post = lc.posterior(ABSENCE, N, "mean", 2.20131, np.array([0.5, 2.0]))
    assert post.shape == (2, 4)
    np.testing.assert_allclose(post[1], lc.posterior(ABSENCE, N, "mean", 2.20131, 2.0))


def test_a_users_query_that_raises_is_a_value_error_naming_it():
    def broken(xs):
        raise ZeroDivisionError("boom")

    with pytest.raises(ValueError, match=r"your query 'broken' raised ZeroDivisionError: boom"):
        lc.world_values(ABSENCE, N, broken)


def test_simulate_attack_refuses_unbounded_work_up_front():
    with pytest.raises(ValueError, match="posteriors, more than"):
        lc.simulate_attack(np.arange(2000.0), 1999, "mean", [1.0] * 100, trials=100_000, rng=0)


@given(universes, st.data(), st.floats(0.05, 20))
def test_most_exposed_world_attains_the_tight_bound(universe, data, eps):
    size = data.draw(st.integers(1, len(universe) - 1))
    assume(unbounded_sensitivity(universe, size, "mean") > 0)
    w = lc.most_exposed_world(universe, size, "mean", eps)
    f = lc.world_values(universe, size, "mean")
    delta_f = unbounded_sensitivity(universe, size, "mean")
    # the posterior of world w when the release lands on its own answer
    post = lc.posterior(universe, size, "mean", f[w], eps)
    assert post[w] == pytest.approx(lc.tight_bound(universe, size, "mean", eps), rel=1e-9)
    assert delta_f > 0 and w == int(np.flatnonzero(f == f[w])[0])  # the first of its ties


def test_the_most_exposed_flight_on_the_school_example():
    # absence_days: the world without Terry (ω1, mean 2) is the most isolated at every ε
    assert lc.most_exposed_world(ABSENCE, N, "mean", 0.5) == 0


def test_analysis_queries_are_every_built_in_plus_the_quartiles():
    from helpers.queries import QUERY_NAMES

    built_in = [q for q in QUERY_NAMES if "<" not in q]
    assert list(lc.ANALYSIS_QUERIES) == [*built_in, "percentile_25", "percentile_75"]


# --- the bound's running sums at any c, and searches at the edge of double precision -----


@given(
    gaps=st.lists(
        st.one_of(st.floats(1e-300, 1e-250), st.floats(1e-6, 10.0), st.just(0.5)),
        min_size=1,
        max_size=12,
    ),
    counts=st.lists(st.integers(1, 5), min_size=13, max_size=13),
    log10_c=st.floats(-3, 300),
)
def test_level_totals_match_the_direct_sums_at_any_rate(gaps, counts, log10_c):
    """Both branches of _level_totals against Σᵥ mᵥ e^{−c|gᵤ − gᵥ|} summed term by term.

    The wide branch (c·Δv ≥ 600) once subtracted two log-sums of size c·gᵤ: at c ≈ 10²²⁰
    it lost every digit and divided by zero (found by the explore profile).
    """
    levels = np.concatenate([[0.0], np.cumsum(gaps)])
    m = np.array(counts[: levels.size], dtype=float)
    c = 10.0**log10_c
    direct = [
        math.fsum(mv * math.exp(-c * abs(gu - gv)) for gv, mv in zip(levels, m, strict=True))
        for gu in levels
    ]
    got = lc._level_totals(levels, m, np.array([c]))[0]
    assert got == pytest.approx(min(direct), rel=1e-12)


@pytest.mark.parametrize(
    "universe",
    [
        [0.0, 1.0, 1.0, 3.354588696570806e-270],
        [0.0, 0.0, 0.0, 3.0, 3.0, 7.987137071551585e-221],
        [0.0, 0.0, 1.0, 1.0, 7.987137071551585e-221],
        [0.0, 0.0, 0.0, 0.0, 8.0, 8.0, 2.4451090433450746e-219],  # c·Δv overflowed
    ],
)
@pytest.mark.parametrize("risk", [0.5, 0.75])
def test_search_at_the_edge_of_double_precision_ends_on_a_safe_epsilon(universe, risk):
    """Worlds 10⁻²⁷⁰ apart beside worlds 1 apart: the bound sits on a plateau of 1/2 (two
    equal worlds) that it leaves only where rounding cannot follow. These raised
    ZeroDivisionError (a flat secant), doubled ε to inf forever and divided by zero; now
    each search ends, without a warning, on an ε whose bound is within ρ."""
    size = len(universe) - 1
    eps = lc.binary_search_epsilon(universe, size, "mean", risk)
    assert 0 < eps < math.inf
    assert lc.tight_bound(universe, size, "mean", eps) <= risk
    low, high = lc.binary_search_steps(universe, size, "mean", risk)[-1]
    assert lc.tight_bound(universe, size, "mean", low) <= risk
    assert high < math.inf


def test_search_aims_below_a_plateau_it_cannot_resolve():
    """ρ = 1/2 exactly, which the bound approaches from below (exact arithmetic crosses it
    near ε = 615): the search stops where the computed bound can no longer be told from ρ
    (ε ≈ 32) instead of calling every ε safe up to 10²⁰⁰."""
    universe = [0.0, 1.0, 1.0, 3.354588696570806e-270]
    eps = lc.binary_search_epsilon(universe, 3, "mean", 0.5)
    assert 20 < eps < 615
    assert lc.tight_bound(universe, 3, "mean", 2 * eps) == 0.5  # the plateau, as doubles see it
