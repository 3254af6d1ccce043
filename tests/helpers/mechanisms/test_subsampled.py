"""Subsampling (helpers/mechanisms/subsampled.py): δ is the wrapped mechanism's at the amplified ε
(Balle, Barthe & Gaboardi 2018), and the Poisson-subsampled Gaussian agrees with dp_accounting's
own mechanism (both adjacencies, exactly) and PLD accountant (over 10⁴ steps), and with riskcal.
The battery of test_loss.py runs every property of a pair of laws on subsampled cases too."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers import attack as A
from helpers import budget as B
from helpers import mechanisms as m

EPSILONS = (0.0, 0.3, 1.0, 2.5)
BASES = [
    m.Laplace(1.0),
    m.Gaussian(0.8, sensitivity=1.5),
    m.TwoSidedGeometric(1.2),
    m.Staircase(1.0),
    m.RandomizedResponse(1.0, k=5),
    m.ExponentialMechanism(0.8, utilities=(5, 3, 1, 0), neighbour_utilities=(4, 3, 2, 0)),
]


@pytest.mark.parametrize("mech", BASES, ids=repr)
@pytest.mark.parametrize("sampling", m.SAMPLINGS)
def test_subsampling_amplifies_as_its_closed_form_says(mech, sampling):
    q = 0.2
    sub = m.Subsampled(mech, q, sampling=sampling)
    for eps in (0.1, 0.5, 1.0):
        amplified = math.log1p(math.expm1(eps) / q)  # e^ε′ = 1 + (e^ε − 1)/q
        remove = q * mech.delta(amplified, adjacency="remove")
        assert sub.delta(eps, adjacency="remove") == pytest.approx(remove, rel=1e-9, abs=1e-15)
    # never less private than the mechanism run on everyone, and q = 1 is the mechanism itself
    assert np.all(sub.delta(np.array(EPSILONS)) <= mech.delta(np.array(EPSILONS)) + 1e-15)
    whole = m.Subsampled(mech, 1.0, sampling=sampling)
    assert np.allclose(whole.delta(np.array(EPSILONS)), mech.delta(np.array(EPSILONS)))


def test_the_poisson_subsampled_gaussian_agrees_with_dp_accounting_both_adjacencies():
    from dp_accounting.pld import privacy_loss_distribution as pld
    from dp_accounting.pld.privacy_loss_mechanism import AdjacencyType, GaussianPrivacyLoss

    for sigma, q, times in ((1.0, 0.002, 10_000), (0.8, 0.01, 1_000), (2.0, 0.1, 100)):
        sub = m.Subsampled(m.Gaussian(sigma), q)
        for adjacency, kind in (("remove", AdjacencyType.REMOVE), ("add", AdjacencyType.ADD)):
            # the library's own δ of the mechanism (not of a PLD): the same pair, exactly
            theirs = GaussianPrivacyLoss(sigma, sampling_prob=q, adjacency_type=kind)
            for eps in (0.0, 0.01, 0.05, 0.3):
                exact = sub.delta(eps, adjacency=adjacency)
                assert theirs.get_delta_for_epsilon(eps) == pytest.approx(
                    exact, rel=1e-9, abs=1e-15
                )
        reference = pld.from_gaussian_mechanism(
            sigma, sampling_prob=q, value_discretization_interval=1e-4
        ).self_compose(times)
        for delta in (1e-5, 1e-7):
            ours = sub.epsilon_for_delta(delta, times=times)
            assert ours == pytest.approx(reference.get_epsilon_for_delta(delta), rel=1e-3)
            assert B.pld_epsilon(delta, sub, times=times) == pytest.approx(ours, rel=1e-12)


def test_the_subsampled_gaussian_agrees_with_riskcal_s_dpsgd_advantage():
    riskcal = pytest.importorskip("riskcal")

    sigma, q, steps = 1.0, 0.01, 200
    sub = m.Subsampled(m.Gaussian(sigma), q)
    ours = A.attack_advantage([sub] * steps, discretization=1e-4)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        theirs = riskcal.dpsgd.get_advantage_for_dpsgd(
            noise_multiplier=sigma, sample_rate=q, num_steps=steps, grid_step=1e-4
        )
    assert ours == pytest.approx(theirs, abs=2e-3)
    assert ours >= theirs - 1e-3


def test_subsampling_a_subsampled_mechanism_multiplies_the_rates():
    # Poisson sampling twice is Poisson sampling at the product of the rates
    twice = m.Subsampled(m.Subsampled(m.Laplace(1.0), 0.5), 0.4)
    once = m.Subsampled(m.Laplace(1.0), 0.2)
    for adjacency in m.ADJACENCIES:
        assert np.allclose(
            twice.delta(np.array(EPSILONS), adjacency=adjacency),
            once.delta(np.array(EPSILONS), adjacency=adjacency),
            rtol=1e-9,
            atol=1e-15,
        )
    assert twice.loss_bound() == pytest.approx(once.loss_bound(), rel=1e-12)


def test_the_add_order_of_poisson_sampling_is_bounded_by_minus_log_one_minus_q():
    # (Q, qP + (1 − q)Q): the loss never exceeds −ln(1 − q), however large the wrapped one's
    sub = m.Subsampled(m.Gaussian(0.3), 0.05)
    assert sub.loss_bounds()["add"] == pytest.approx(-math.log1p(-0.05), rel=1e-12)
    assert math.isinf(sub.loss_bounds()["remove"])
    assert sub.delta(-math.log1p(-0.05), adjacency="add") == 0.0


@pytest.mark.parametrize("base", [m.Laplace(1e-3), m.Gaussian(0.05)], ids=repr)
def test_a_nearly_exact_mechanism_subsampled_keeps_every_mass_finite(base):
    # losses of hundreds: e^{−ℓ} overflows alone, p·e^{−ℓ} does not (computed in logs)
    sub = m.Subsampled(base, 0.1)
    for adjacency in m.ADJACENCIES:
        buckets = sub.loss_pmf(1e-2, adjacency=adjacency)
        assert np.all(np.isfinite(buckets.pmf))
        assert buckets.pmf.sum() + buckets.infinity == pytest.approx(1.0, abs=1e-12)
    # the record is in the sample with probability 0.1, and then almost surely seen
    assert sub.delta(1.0) == pytest.approx(0.1, abs=1e-6)
    assert float(sub.loss_pmf(1e-2).delta(1.0)) == pytest.approx(0.1, abs=1e-6)


@pytest.mark.parametrize("h", [1e-4, 1e-3, 1e-2])
def test_the_bad_event_s_tail_is_never_below_its_closed_form(h):
    # a reviewer's case: the mixture's atoms took B's mass at the rounded loss's lower end,
    # and the tail P[L > ε] came out below the truth. The Gaussian pair (μ = 1/σ = 2): under
    # P the loss is N(μ²/2, μ²), under Q N(−μ²/2, μ²); Poisson "remove": L' > ε ⇔ L > ε′
    from scipy.stats import norm

    q, mu = 0.05, 2.0
    sub = m.Subsampled(m.Gaussian(0.5), q)
    eps = np.linspace(0.0, 1.0, 101)
    amplified = np.log1p(np.expm1(eps) / q)
    exact = q * norm.sf((amplified - mu**2 / 2) / mu) + (1 - q) * norm.sf(
        (amplified + mu**2 / 2) / mu
    )
    tail = np.asarray(sub.loss_pmf(h, adjacency="remove").tail(eps))
    assert np.all(tail >= exact - 1e-12)
    assert np.all(tail <= exact + 50 * h)
    assert A.loss_epsilon([sub], delta=0.05, discretization=h) >= 0.0
    above = A.loss_epsilon([sub], delta=0.05, discretization=h)
    at = np.log1p(np.expm1(above) / q)
    assert q * norm.sf((at - 2.0) / 2.0) + (1 - q) * norm.sf((at + 2.0) / 2.0) <= 0.05 + 1e-12


@pytest.mark.parametrize("mech", BASES, ids=repr)
@pytest.mark.parametrize("sampling", m.SAMPLINGS)
def test_delta_on_a_grid_is_each_epsilon_s_own_bit_for_bit(mech, sampling):
    """δ of either order at any real ε (``delta_any``, the PLD's connect-the-dots reads it on a
    grid of both signs) evaluates each order only at the ε that read it: every value is, bit for
    bit, the one the same ε gives alone, and the one both orders on the whole grid gave."""
    sub = m.Subsampled(mech, 0.05, sampling=sampling)
    eps = np.r_[np.linspace(-3.0, 6.0, 181), 0.0, -0.0, 1e-300, -1e-300]
    for adjacency in m.ADJACENCIES:
        grid = np.asarray(sub.delta_any(eps, adjacency=adjacency))
        alone = [sub.delta_any(float(e), adjacency=adjacency) for e in eps]
        above = np.asarray(sub.delta(np.maximum(eps, 0.0), adjacency=adjacency))
        # below 0 through what bounds the pair swapped (the other order for Poisson sampling)
        below = np.asarray(sub.reverse_delta(np.maximum(-eps, 0.0), adjacency=adjacency))
        negative = np.minimum(eps, 0.0)
        whole = np.where(eps >= 0, above, -np.expm1(negative) + np.exp(negative) * below)
        np.testing.assert_array_equal(grid, alone)
        np.testing.assert_array_equal(grid, whole)
        # the "add" order of Poisson sampling, whose two branches are read where each applies
        ones = [sub.delta(float(e), adjacency=adjacency) for e in np.abs(eps)]
        np.testing.assert_array_equal(sub.delta(np.abs(eps), adjacency=adjacency), ones)


@pytest.mark.parametrize(
    "base",
    [
        m.Gaussian(0.5),
        m.Laplace(0.3),
        m.RandomizedResponse(3.0, k=2),
        m.RandomizedResponse(1.0, k=5),
        m.TwoSidedGeometric(0.4),
        m.ExponentialMechanism(0.8, utilities=(5, 3, 1, 0), neighbour_utilities=(4, 3, 2, 0)),
    ],
    ids=repr,
)
@pytest.mark.parametrize("rate", [0.01, 0.3, 0.7])
def test_without_replacement_each_step_is_read_at_the_least_envelope_a_step_can_have(base, rate):
    """Issue 46: sampling without replacement, change-one. For neighbours D, D' a step's two
    laws are (γP + (1 − γ)C, γQ + (1 − γ)C), C the law when the changed record is not in the
    sample, which the data decide (C = Q and C = P are both possible). One order of one step
    is thus realised as (γP + (1 − γ)Q, Q) and as (P, γQ + (1 − γ)P), and a per-step bound
    must cover both at every ε: above ε = 0 the first and the second, below it (read through
    :meth:`reverse_delta`) the first's swap and the second's, which is the other order's
    pair. Each order's reading covers both; where the mechanism is symmetric, its reading
    below ε = 0 is exactly the second's, so no per-step bound can be lower. Composed, the
    bound exceeds the product of one pair run T times (one C for every run): a per-step
    accounting cannot know C, and that gap is the price of not knowing the data."""
    eps = np.linspace(0.0, 6.0, 241)
    sub = m.Subsampled(base, rate, sampling="without_replacement")
    assert not sub.mirrored_orders
    for order, other in (("remove", "add"), ("add", "remove")):
        read = np.asarray(sub.reverse_delta(eps, adjacency=order))
        own_swap = np.asarray(sub._swapped(eps, order))  # C = Q, swapped
        realised = np.asarray(sub.delta(eps, adjacency=other))  # C = P: the other pair swapped
        assert np.all(read >= own_swap - 1e-15) and np.all(read >= realised - 1e-15)
        # and above ε = 0 the order's own δ covers the second pair (C = P) too
        forward = np.asarray(sub.delta(eps, adjacency=order))
        assert np.all(forward >= np.asarray(sub._swapped(eps, other)) - 1e-15)
        if base.symmetric:
            np.testing.assert_allclose(read, realised, rtol=1e-12, atol=1e-15)
