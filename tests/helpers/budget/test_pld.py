"""helpers.budget.pld: δ(ε) and ε(δ) of composed releases from their privacy-loss
distributions, against dp-accounting (PLD composition one release at a time) and the closed
forms; mechanism objects, lists of them, and merging.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _workloads import CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import budget as B
from helpers import mechanisms as m
from helpers import plrv

# --- privacy-loss distributions -----------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
def test_pld_gaussian_is_pessimistic_and_close_to_the_exact_composition(case):
    """Gaussians compose exactly to one Gaussian (1/σ² adds): the PLD's δ is ≥ Balle & Wang's."""
    rng = np.random.default_rng(800 + case)
    sigmas = rng.uniform(0.5, 30.0, size=int(rng.integers(1, 5)))
    times = rng.integers(1, 60, size=sigmas.size)
    sens = float(rng.uniform(0.5, 3.0))
    eps = float(rng.uniform(0.05, 5.0))
    sigma_one = 1 / math.sqrt(float(np.sum(times / sigmas**2)))
    exact = plrv.gaussian_delta(eps, sigma_one, sensitivity=sens)
    ours = B.pld_delta(eps, "gaussian", sigmas, sensitivity=sens, times=times)
    assert ours >= exact * (1 - 1e-12)
    assert ours == pytest.approx(exact, rel=2e-3, abs=1e-9)


@pytest.mark.parametrize("case", CASES)
def test_pld_composition_matches_dp_accounting_one_release_at_a_time(case):
    from dp_accounting.pld import privacy_loss_distribution as pld

    rng = np.random.default_rng(900 + case)
    mechanism = ("laplace", "gaussian", "geometric")[case % 3]
    size = int(rng.integers(2, 8))
    noise = rng.choice([1.0, 2.5, 4.0, 10.0], size=size)
    integer = m.MECHANISM_CLASSES[mechanism].discrete
    sens = np.ones(size) if integer else rng.choice([1.0, 2.0], size=size)
    build = {
        "laplace": lambda b, s: pld.from_laplace_mechanism(b, sensitivity=s),
        "gaussian": lambda b, s: pld.from_gaussian_mechanism(b, sensitivity=s),
        "geometric": lambda b, s: pld.from_discrete_laplace_mechanism(1 / b, sensitivity=int(s)),
    }[mechanism]
    sequential = build(noise[0], sens[0])
    for b, s in zip(noise[1:], sens[1:], strict=True):
        sequential = sequential.compose(build(b, s))
    eps = float(rng.uniform(0.1, 3.0))
    ours = B.pld_delta(eps, mechanism, noise, sensitivity=sens)
    assert ours == pytest.approx(float(sequential.get_delta_for_epsilon(eps)), rel=1e-6, abs=1e-12)
    delta = float(10.0 ** -rng.integers(3, 9))
    ours_eps = B.pld_epsilon(delta, mechanism, noise, sensitivity=sens)
    assert ours_eps == pytest.approx(sequential.get_epsilon_for_delta(delta), rel=1e-4, abs=1e-4)


@pytest.mark.parametrize(
    ("eps", "scale"),
    [
        (0.0, 1.0),
        (0.1, 0.5),
        (0.5, 1.0),
        (1.0, 1.0),
        (0.3, 2.5),
        (2.0, 0.7),
        (0.05, 20.0),
        (3.0, 0.5),
    ],
)
def test_one_release_pld_is_never_below_the_closed_forms(eps, scale):
    assert B.pld_delta(eps, "laplace", scale) >= plrv.laplace_delta(eps, scale) * (1 - 1e-12)
    assert B.pld_delta(eps, "gaussian", scale) >= plrv.gaussian_delta(eps, scale) * (1 - 1e-12)
    assert B.pld_delta(eps, "geometric", scale) >= plrv.geometric_delta(eps, scale) * (1 - 1e-12)


@pytest.mark.parametrize(("eps", "k"), [(0.1, 100), (0.5, 20), (1.0, 7), (0.05, 400)])
def test_geometric_with_unit_sensitivity_is_kovs_worst_case(eps, k):
    """Its loss is ±ε with probabilities e^ε/(1 + e^ε), 1/(1 + e^ε): randomised response, the
    mechanism KOV prove is the worst. The PLD (an upper bound) lands on KOV's exact value."""
    grid = np.linspace(0, 0.8 * k * eps, 9)
    kov = B.optimal_composition_delta(grid, epsilon=eps, times=k)
    geometric = B.pld_delta(grid, "geometric", 1 / eps, times=k)
    np.testing.assert_allclose(geometric, kov, rtol=1e-5, atol=1e-12)


@pytest.mark.parametrize(
    ("delta", "noise", "k"),
    [
        (1e-10, 1.0, 1),
        (1e-6, 1.0, 5),
        (1e-3, 4.0, 20),
        (0.3, 0.5, 1),
        (1e-8, 10.0, 50),
        (0.05, 2.0, 3),
    ],
)
def test_pld_epsilon_meets_its_delta(delta, noise, k):
    eps = B.pld_epsilon(delta, "laplace", noise, times=k)
    assert B.pld_delta(eps, "laplace", noise, times=k) <= delta * (1 + 1e-9)


@pytest.mark.parametrize("mechanism", B.PLD_MECHANISMS)
def test_merging_near_identical_releases_only_raises_delta(mechanism):
    """merge rounds each release's Δ/noise up onto a grid: δ never drops, and it stays below
    the δ of every release made as strong as the strongest."""
    noise = np.linspace(4.0, 4.4, 40)
    eps = np.array([0.5, 1.0, 2.0])
    exact = B.pld_delta(eps, mechanism, noise)
    merged = B.pld_delta(eps, mechanism, noise, merge=0.01)
    strongest = B.pld_delta(eps, mechanism, np.full(40, 4.0 / 1.011))
    assert np.all(merged >= exact * (1 - 1e-12))
    assert np.all(merged <= strongest * (1 + 1e-12))
    np.testing.assert_allclose(merged, exact, rtol=0.1)
    with pytest.raises(ValueError, match="merge"):
        B.pld_delta(1.0, mechanism, 1.0, merge=0.5)


def test_a_pld_of_more_distinct_releases_than_the_budget_needs_merge():
    scales = np.linspace(50.0, 60.0, 2_500)
    with pytest.raises(ValueError, match="2,000"):
        B.pld_delta(1.0, "laplace", scales)
    assert 0 < B.pld_delta(1.0, "laplace", scales, merge=0.02) < 1
    # μ-GDP releases need no merge: they compose exactly into one Gaussian of μ² = Σ μᵢ²
    merged = B.pld_delta(1.0, "gaussian", scales)
    mu = float(np.sqrt(np.sum(1.0 / scales**2)))
    assert merged == pytest.approx(float(m.Gaussian(1.0, sensitivity=mu).delta(1.0)), abs=1e-6)


def test_pld_refuses_what_it_cannot_build():
    with pytest.raises(ValueError, match="mechanism"):
        B.pld_delta(1.0, "exponential", 1.0)
    with pytest.raises(ValueError, match="integer"):
        B.pld_delta(1.0, "geometric", 1.0, sensitivity=1.5)
    with pytest.raises(ValueError, match="times"):
        B.pld_delta(1.0, "laplace", 1.0, times=0)
    with pytest.raises(ValueError, match="broadcast"):
        B.pld_delta(1.0, "laplace", [1.0, 2.0], sensitivity=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="discretization"):
        B.pld_delta(1.0, "laplace", 1.0, discretization=1.0)
    with pytest.raises(ValueError, match="steps"):
        B.pld_delta(1.0, "laplace", 1e-6, times=10**6)
    with pytest.raises(ValueError, match="at least one"):
        B.pld_delta(1.0, "laplace", [])


# --- mechanisms as objects (issue 18): the PLD takes objects, the allocation takes a family --

PLD_CLASSES = m.MECHANISM_CLASSES


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(sorted(PLD_CLASSES)),
    st.floats(min_value=0.3, max_value=20.0),
    st.integers(min_value=1, max_value=4),
    st.integers(min_value=1, max_value=30),
    st.floats(min_value=0.0, max_value=4.0),
)
def test_a_pld_of_an_object_is_the_pld_of_its_name(name, noise, sensitivity, times, eps):
    sensitivity = sensitivity if PLD_CLASSES[name].discrete else sensitivity / 2
    mech = PLD_CLASSES[name](noise, sensitivity=sensitivity)
    kw = {"times": times, "discretization": 1e-3}
    assert B.pld_delta(eps, mech, **kw) == B.pld_delta(
        eps, name, noise, sensitivity=sensitivity, **kw
    )
    assert B.pld_epsilon(1e-6, mech, **kw) == B.pld_epsilon(
        1e-6, name, noise, sensitivity=sensitivity, **kw
    )


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.floats(min_value=0.5, max_value=10.0), min_size=1, max_size=5),
    st.sampled_from(sorted(PLD_CLASSES)),
    st.sampled_from([0.0, 0.01]),
)
def test_a_list_of_objects_is_the_name_with_a_list_of_noise(scales, name, merge):
    sens = [1 + i % 2 for i in range(len(scales))]
    times = [1 + i for i in range(len(scales))]
    objects = [PLD_CLASSES[name](b, sensitivity=s) for b, s in zip(scales, sens, strict=True)]
    eps = np.array([0.0, 0.5, 2.0])
    kw = {"times": times, "merge": merge, "discretization": 1e-3}
    np.testing.assert_array_equal(
        B.pld_delta(eps, objects, **kw), B.pld_delta(eps, name, scales, sensitivity=sens, **kw)
    )
    # one object holding an array of noise is the same releases again
    if not PLD_CLASSES[name].discrete:  # integer noise takes one integer Δ
        array = PLD_CLASSES[name](np.array(scales), sensitivity=np.array(sens, dtype=float))
        np.testing.assert_array_equal(
            B.pld_delta(eps, array, **kw), B.pld_delta(eps, objects, **kw)
        )


def test_a_list_may_mix_mechanisms():
    # Laplace then Gaussian, composed: between each alone and the two at their strongest
    mixed = B.pld_delta(1.0, [m.Laplace(2.0), m.Gaussian(2.0)])
    assert mixed > max(B.pld_delta(1.0, m.Laplace(2.0)), B.pld_delta(1.0, m.Gaussian(2.0)))
    assert mixed == pytest.approx(B.pld_delta(1.0, [m.Gaussian(2.0), m.Laplace(2.0)]), rel=1e-9)


def test_pld_refuses_a_noise_beside_an_object_and_a_bad_mechanism():
    with pytest.raises(ValueError, match="to the mechanism object itself"):
        B.pld_delta(1.0, m.Laplace(2.0), 3.0)
    with pytest.raises(ValueError, match="to the mechanism object itself"):
        B.pld_epsilon(1e-6, m.Laplace(2.0), sensitivity=2.0)
    for bad in ("logistic", m.Laplace, [], ["laplace"], [m.Laplace(1.0), "gaussian"], None, 1.0):
        with pytest.raises(ValueError, match=r"^mechanism must be one of") as info:
            B.pld_delta(1.0, bad, 1.0)
        assert repr(bad)[:20] in str(info.value)
    with pytest.raises(ValueError, match=r"mechanism\[1\] must hold one value"):
        B.pld_delta(1.0, [m.Laplace(1.0), m.Laplace(np.array([1.0, 2.0]))])
    with pytest.raises(ValueError, match="broadcast"):
        B.pld_delta(1.0, [m.Laplace(1.0), m.Laplace(2.0)], times=[1, 2, 3])
