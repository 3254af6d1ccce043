"""The one composition pipeline (helpers/mechanisms/composition.py): releases grouped by value and
never rebuilt, μ-GDP releases merged exactly, products cached, bad input refused by name."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers import mechanisms as m
from helpers._cache import clear_caches


def test_equal_releases_are_counted_once_and_none_is_rebuilt():
    em = m.ExponentialMechanism(1.0, utilities=(3, 1), neighbour_utilities=(2, 1))
    groups = m.releases([em, m.Laplace(1.0), em, m.Laplace(1.0)], times=[1, 2, 3, 4])
    assert groups == ((em, 4), (m.Laplace(1.0), 6))
    assert groups[0][0] is em  # the caller's own object, with every field it holds


def test_gaussian_dp_releases_merge_exactly():
    groups = m.releases([m.Gaussian(2.0), m.Gaussian(1.0, sensitivity=0.5), m.Laplace(1.0)])
    merged = groups[0][0]
    assert isinstance(merged, m.Gaussian) and merged.noise == 1.0
    assert merged.sensitivity == pytest.approx(math.sqrt(0.25 + 0.25), rel=1e-14)
    assert merged.sensitivity >= math.sqrt(0.5)  # rounded up


def test_the_composed_pld_is_cached_by_value():
    clear_caches()
    first = m.composed_pld([m.Laplace(1.0)] * 3)
    assert m.composed_pld([m.Laplace(1.0), m.Laplace(1.0), m.Laplace(1.0)]) is first


def test_the_caches_keep_what_fits_their_bytes_and_nothing_larger():
    # a noise search builds many distributions: kept by size, the oldest evicted first, and
    # one larger than the whole budget computed and returned but not kept
    clear_caches()
    small = [m.Laplace(1.0)] * 2
    first = m.composed_pld(small)
    big = [m.Subsampled(m.Gaussian(0.7), 0.05)] * 300  # about 0.9 million cells
    m.composed_pld(big)
    assert m.composed_pld(small) is first  # both fit
    huge = m.composed_pld(big, discretization=1e-5)  # about 9 million: over the budget
    assert m.composed_pld(big, discretization=1e-5) is not huge
    assert m.composed_pld(small) is first


def test_composed_loss_and_pld_agree_on_delta_within_the_rounding():
    work = [m.Laplace(2.0), m.RandomizedResponse(0.5, k=3), m.Subsampled(m.Gaussian(1.0), 0.2)]
    pld = m.composed_pld(work)
    assert m.adjacencies(work) == m.ADJACENCIES  # a subsampled release: the orders differ
    both = [m.composed_loss(work, adjacency=a) for a in m.ADJACENCIES]
    for eps in (0.1, 0.5, 1.0):
        # both are upper bounds on the larger order's δ; the rounded loss is looser by at most
        # a few grid steps
        read = float(pld.get_delta_for_epsilon(eps))
        rounded = max(float(b.delta(eps)) for b in both)
        assert read - 1e-9 <= rounded <= read + 5e-3


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: m.releases([]), r"^mechanisms must hold at least one"),
        (lambda: m.releases(["laplace"]), r"^mechanisms\[0\] must be a mechanism object"),
        (lambda: m.releases([m.Laplace(1.0)], times=0), r"^times must be integers"),
        (lambda: m.releases([m.Laplace(1.0)], times=[1, 2]), r"^times must broadcast"),
        (lambda: m.releases([m.Laplace(1.0)], merge=0.5), r"^merge must be 0 or lie in"),
        (lambda: m.composed_pld([m.Laplace(1.0)], max_cells=0), r"^max_cells must lie in"),
        (lambda: m.composed_loss([m.Laplace(1.0)], adjacency="both"), r"^adjacency must be"),
        (
            lambda: m.epsilon_for_delta([m.Laplace(1.0)], 1.5),
            r"^delta must lie in the open interval \(0, 1\)",
        ),
        (lambda: m.composed_pld([m.Laplace(1e-6)] * 10**6), r"steps of"),
    ],
)
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- ε(δ): dp_accounting's inverse, its loop run as prefix sums --------------------------------


def _library_epsilon(pld, delta):
    return float(pld.get_epsilon_for_delta(delta))


@pytest.mark.parametrize(
    "mechanism, times",
    [
        (m.Laplace(1.0), 1),
        (m.Laplace(0.5), 30),
        (m.Gaussian(2.0), 1),
        (m.Subsampled(m.Gaussian(1.5), 0.05), 10),  # asymmetric: both adjacencies
        (m.Subsampled(m.Gaussian(0.7), 0.01), 400),  # wide: the walk spans several blocks
        (m.Subsampled(m.Laplace(1.0), 0.1), 50),
    ],
    ids=repr,
)
@pytest.mark.parametrize("delta", [0.5, 1e-3, 1e-6, 1e-10, 1e-14])
def test_epsilon_for_delta_reads_the_pld_as_dp_accounting_does(mechanism, times, delta):
    """The vectorised walk gives the library's ε on the same PLD (the same sums in the same
    order, the same losses): equal but for an exponential's last bit."""
    from helpers.mechanisms.composition import _pld_epsilon

    pld = m.composed_pld([mechanism], times=times)
    assert _pld_epsilon(pld, delta) == pytest.approx(
        _library_epsilon(pld, delta), rel=1e-13, abs=1e-15
    )


def _pmf(lower_loss, probs, infinity_mass, discretization=1e-2):
    from dp_accounting.pld.pld_pmf import DensePLDPmf

    return DensePLDPmf(discretization, lower_loss, np.asarray(probs, dtype=float),
                       infinity_mass, True)  # fmt: skip


#: lengths around the walk's blocks (4,096 cells, then 16,384 more, ...)
LENGTHS = [1, 2, 4095, 4096, 4097, 20479, 20480, 20481, 60000]


@given(
    length=st.sampled_from(LENGTHS),
    empty_top=st.sampled_from([0, 1, 4095, 4096, 20480]),
    # losses from −700 (the library's own e^{−y} overflows below about −709.8) to 1,000 and more
    lower=st.integers(-70_000, 100_000),
    seed=st.integers(0, 2**32 - 1),
    infinity_mass=st.sampled_from([0.0, 1e-15, 1e-6, 0.3]),
    delta=st.sampled_from([1e-12, 1e-6, 1e-3, 0.1, 0.5]),
)
@settings(max_examples=80, deadline=None)
def test_the_walk_matches_the_librarys_loop_on_any_pmf(
    length, empty_top, lower, seed, infinity_mass, delta
):
    """Any dense PMF the library holds: every length around the blocks' edges, a run of empty
    cells at the top (the walk then starts in a later block), the FFT's tiny negative masses,
    an infinite mass above δ (∞) or below it, and losses from −700 to past 1,000 (above about
    745 e^{−y} vanishes and the loop answers with that loss)."""
    from helpers.mechanisms.composition import _pmf_epsilon

    rng = np.random.default_rng(seed)
    probs = rng.exponential(size=length) * (rng.random(length) < 0.5)
    probs = probs / probs.sum() * (1 - infinity_mass) if probs.sum() > 0 else probs
    probs += rng.normal(scale=1e-19, size=length) * (rng.random(length) < 0.3)
    probs = np.concatenate([probs, np.zeros(empty_top)])
    pmf = _pmf(lower, probs, infinity_mass)
    expected = float(pmf.get_epsilon_for_delta(delta))
    got = _pmf_epsilon(pmf, delta)
    if math.isinf(expected):
        assert got == math.inf
    else:
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("top", [4095, 4096, 4097, 20479, 20480, 20481])
def test_a_loss_too_large_for_its_exponential_is_the_answer_as_in_the_loop(top):
    """Losses of 800 and more (e^{−y} is 0) below ``top`` empty cells: the loop answers with
    the first of them, in whichever block of the walk it falls."""
    from helpers.mechanisms.composition import _pmf_epsilon

    pmf = _pmf(80_000, [0.5, 0.5, *[0.0] * top], 0.0)  # 800 and 800.01, then empty cells
    expected = float(pmf.get_epsilon_for_delta(0.1))
    assert expected == pytest.approx(800.01)
    assert _pmf_epsilon(pmf, 0.1) == pytest.approx(expected, rel=1e-15)


def test_an_empty_pmf_or_one_held_at_infinity_is_read_as_the_library_reads_it():
    from dp_accounting.pld.pld_pmf import SparsePLDPmf

    from helpers.mechanisms.composition import _pmf_epsilon

    assert _pmf_epsilon(_pmf(0, [1.0], 0.5), 0.1) == math.inf  # more than δ at infinity
    for infinity_mass, delta in [(0.0, 0.1), (0.05, 0.1), (0.5, 0.1)]:
        empty = SparsePLDPmf({}, 0.01, infinity_mass, True)
        assert _pmf_epsilon(empty, delta) == float(empty.get_epsilon_for_delta(delta))
    # a very negative loss beside an empty cell: no inf·0, no warning (errors here)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _pmf_epsilon(_pmf(-80_000, [0.5, 0.0, 0.5], 0.0, 1.0), 0.1) >= 0.0


@pytest.mark.parametrize(
    "loss_probs",
    [{-3: 0.2, 0: 0.3, 5: 0.4}, {10: 1e-9, 400: 0.5, 7: 0.2}, {1: 1.0}],
    ids=["three", "spread", "one"],
)
@pytest.mark.parametrize("delta", [1e-10, 1e-3, 0.3])
def test_a_sparse_pmf_is_read_on_its_own_losses(loss_probs, delta):
    """A sparse PMF (a coarse discretization gives one) is walked on its own losses k·h, as
    the library reads it, not on the dense grid's counted ones."""
    from dp_accounting.pld.pld_pmf import SparsePLDPmf

    from helpers.mechanisms.composition import _pmf_epsilon

    pmf = SparsePLDPmf(loss_probs, 0.1, 0.01, True)
    assert _pmf_epsilon(pmf, delta) == pytest.approx(
        float(pmf.get_epsilon_for_delta(delta)), rel=1e-13, abs=1e-15
    )
    coarse = m.composed_pld([m.Gaussian(1.0)], times=2, discretization=0.1)
    from helpers.mechanisms.composition import _pld_epsilon

    assert _pld_epsilon(coarse, delta) == pytest.approx(
        _library_epsilon(coarse, delta), rel=1e-13, abs=1e-15
    )


# --- the self-composition: dp_accounting's, in half the time --------------------------------


@settings(max_examples=40)
@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=40).filter(lambda p: sum(p) > 0),
    st.integers(2, 30),
    st.floats(1.0, 12.0),
    st.sampled_from([1.0, 0.999, 0.5]),  # the rest of the mass at an infinite loss
)
def test_the_truncation_bounds_are_the_librarys_and_leave_at_most_the_tail_out(
    weights, times, power, finite
):
    from dp_accounting.pld import common

    from helpers.mechanisms.composition import _TAIL_MASS, _self_convolve_bounds

    probs = np.asarray(weights) ** power
    assume(probs.sum() > 0)  # the powers of small weights may all underflow
    probs = finite * probs / probs.sum()
    low, high = _self_convolve_bounds(probs, times, _TAIL_MASS)
    theirs = common.compute_self_convolve_bounds(probs, times, _TAIL_MASS)
    # integers from two roundings of the same Chernoff bound: equal but where a bound lies
    # within rounding of an integer, where they may differ by one
    assert abs(low - theirs[0]) <= 1 and abs(high - theirs[1]) <= 1
    full = probs
    for _ in range(times - 1):
        full = np.convolve(full, probs)
    assert 0 <= low <= high <= len(full) - 1
    assert full[:low].sum() <= _TAIL_MASS and full[high + 1 :].sum() <= _TAIL_MASS


@pytest.mark.parametrize(
    "mechanism",
    [
        m.Gaussian(2.0),
        m.Laplace(1.0),
        m.Subsampled(m.Gaussian(1.0), 0.05),  # two adjacencies, each its own PMF
        m.Subsampled(m.Laplace(0.5), 0.2),
    ],
    ids=repr,
)
@pytest.mark.parametrize("times", [2, 37, 300])
def test_the_self_composition_is_dp_accountings(mechanism, times):
    from helpers.mechanisms.composition import _self_composed

    pld = mechanism.pld(discretization=1e-3)
    ours, theirs = _self_composed(pld, times), pld.self_compose(times)
    assert ours._symmetric == theirs._symmetric
    for a, b in ((ours._pmf_remove, theirs._pmf_remove), (ours._pmf_add, theirs._pmf_add)):
        # the same grid (a bound may move by one cell where it lies on an integer)
        assert abs(a._lower_loss - b._lower_loss) <= 1 and abs(a.size - b.size) <= 2
        assert a._infinity_mass == pytest.approx(b._infinity_mass, rel=1e-12, abs=1e-30)
        assert a._discretization == b._discretization
    for epsilon in (0.0, 0.3, 1.0, 3.0, 10.0):
        assert ours.get_delta_for_epsilon(epsilon) == pytest.approx(
            theirs.get_delta_for_epsilon(epsilon), rel=1e-9, abs=1e-13
        )
