"""helpers.deployments.zcdp: the conversions from zCDP to (ε, δ) and back, against OpenDP and exact arithmetic."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import norm

from helpers import deployments as dep
from helpers import plrv
from helpers._numerics import bisect_increasing

# --- conversions ---------------------------------------------------------------------------


opendp = pytest.importorskip("opendp.prelude")


def _opendp_epsilon(rho: float, delta: float) -> float:
    opendp.enable_features("contrib")
    meas = opendp.c.make_zCDP_to_approxDP(
        opendp.m.make_gaussian(
            opendp.atom_domain(T=float, nan=False),
            opendp.absolute_distance(T=float),
            scale=1.0 / math.sqrt(2 * rho),
        )
    )
    return meas.map(1.0).epsilon(delta)


def _opendp_table_text() -> str:
    """helpers/data/opendp_zcdp_epsilon.csv as OpenDP computes it now, for load()'s zCDP rows."""
    import importlib.metadata

    table = dep.load()
    zcdp = table[table["dp_variant"] == "Zero-concentrated DP"]
    lines = [
        f"# OpenDP {importlib.metadata.version('opendp')}'s make_zCDP_to_approxDP on a Gaussian "
        "of scale 1/sqrt(2 rho) (exactly rho-zCDP),",
        "# at each zCDP row of dp_deployments.csv (rho, delta_used of helpers.deployments.load()).",
        "# Written and checked by tests/helpers/deployments/test_zcdp.py "
        "(python tests/helpers/deployments/test_zcdp.py).",
        "rho,delta,epsilon",
    ]
    for rho, delta in zip(zcdp["rho"], zcdp["delta_used"], strict=True):
        lines.append(f"{rho!r},{delta!r},{_opendp_epsilon(rho, delta)!r}")
    return "\n".join(lines) + "\n"


def test_the_stored_opendp_values_are_opendps():
    """Notebook 09 shows OpenDP's ε from the stored file (readers do not install OpenDP): every
    zCDP row of the registry is there, at the δ load() reads it at, with OpenDP's value (to a
    few ulps: the same library may round differently on another CPU)."""
    stored = pd.read_csv(dep.OPENDP_PATH, comment="#")
    table = dep.load()
    zcdp = table[table["dp_variant"] == "Zero-concentrated DP"]
    assert list(stored["rho"]) == list(zcdp["rho"])
    assert list(stored["delta"]) == list(zcdp["delta_used"])
    hint = "stale: run python tests/helpers/deployments/test_zcdp.py"
    for rho, delta, epsilon in stored.itertuples(index=False):
        assert epsilon == pytest.approx(_opendp_epsilon(rho, delta), rel=1e-14, abs=0), hint
        assert dep.opendp_epsilon(rho, delta) == epsilon


def test_opendp_epsilon_is_only_what_is_stored():
    with pytest.raises(ValueError, match=r"\(rho, delta\) = \(2\.6, 1e-10\) is not stored"):
        dep.opendp_epsilon(2.6, 1e-10)
    both = dep.opendp_epsilon(np.array([2.63, 0.0728]), np.array([1e-10, 1e-5]))
    assert both.shape == (2,) and both[0] == dep.opendp_epsilon(2.63, 1e-10)


@pytest.mark.parametrize(
    ("rho", "delta"),
    [(2.56, 1e-10), (0.07, 1e-10), (0.0728, 1e-5), (1e-4, 1e-6), (15.29, 1e-10), (50.0, 1e-3)],
)
def test_zcdp_to_epsilon_agrees_with_opendp(rho, delta):
    assert dep.zcdp_to_epsilon(rho, delta) == pytest.approx(_opendp_epsilon(rho, delta), rel=1e-9)


@given(rho=st.floats(1e-4, 50.0), delta=st.floats(1e-15, 0.5))
def test_zcdp_to_epsilon_agrees_with_opendp_everywhere(rho, delta):
    ours = dep.zcdp_to_epsilon(rho, delta)
    assert ours == pytest.approx(max(_opendp_epsilon(rho, delta), 0.0), rel=1e-7, abs=1e-9)


@given(
    rho=st.floats(1e-4, 50.0),
    delta=st.floats(1e-15, 0.5),
)
def test_tight_conversion_never_exceeds_the_simple_one_and_beats_the_gaussian(rho, delta):
    tight = dep.zcdp_to_epsilon(rho, delta)
    simple = dep.zcdp_to_epsilon_simple(rho, delta)
    exact = dep.gaussian_epsilon(rho, delta)
    assert 0 <= tight <= simple + 1e-12
    # one Gaussian mechanism is ρ_z-zCDP, so its exact ε is at most the general bound
    assert exact <= tight + 1e-9
    assert dep.zcdp_to_epsilon(rho * 1.01, delta) >= tight
    if tight > 1e-6:  # δ so large that ε = 0 already: no unique ρ_z to recover
        assert dep.zcdp_to_epsilon(rho * 1.01, delta) > tight
        assert dep.zcdp_rho_for_epsilon(tight, delta) == pytest.approx(rho, rel=1e-6)


def test_conversion_is_vectorised_and_scalar_in_scalar_out():
    assert isinstance(dep.zcdp_to_epsilon(1.0, 1e-6), float)
    out = dep.zcdp_to_epsilon(np.array([0.1, 1.0]), 1e-6)
    assert isinstance(out, np.ndarray) and out.shape == (2,)
    assert out[0] == dep.zcdp_to_epsilon(0.1, 1e-6)
    assert dep.zcdp_to_epsilon(0.0, 1e-6) == 0.0


def test_simple_conversion_closed_form():
    rho, delta = 0.5, 1e-6
    assert dep.zcdp_to_epsilon_simple(rho, delta) == pytest.approx(
        rho + 2 * math.sqrt(rho * math.log(1 / delta)), rel=1e-15
    )


def test_cks_minimum_is_the_minimum_over_a_fine_grid():
    rho, delta = 0.3, 1e-8
    alpha = 1 + np.logspace(-4, 4, 200_001)
    grid = alpha * rho + (np.log(1 / delta) - np.log(alpha)) / (alpha - 1) + np.log1p(-1 / alpha)
    assert dep.zcdp_to_epsilon(rho, delta) == pytest.approx(grid.min(), abs=1e-7)
    assert dep.zcdp_to_epsilon(rho, delta) <= grid.min() + 1e-12


@pytest.mark.parametrize(("rho", "delta"), [(0.3, 1e-8), (2.56, 1e-10), (1e-4, 0.1)])
def test_cks_minimiser_is_the_root_of_the_derivative(rho, delta):
    # ε'(α) = ρ − (L − ln α)/(α − 1)²: at the minimiser ρ(α − 1)² + ln α = L
    L = math.log(1 / delta)
    alpha = 1 + float(
        np.exp(
            bisect_increasing(
                lambda u: rho * np.exp(2 * u) + np.log1p(np.exp(u)) - L,
                np.array(-50.0),
                np.array(50.0),
            )
        )
    )
    value = alpha * rho + (L - math.log(alpha)) / (alpha - 1) + math.log1p(-1 / alpha)
    assert dep.zcdp_to_epsilon(rho, delta) == pytest.approx(max(value, 0.0), rel=1e-12, abs=1e-15)
    for other in (alpha * 0.9, alpha * 1.1):
        assert other * rho + (L - math.log(other)) / (other - 1) + math.log1p(-1 / other) > value


def test_tiny_rho_gives_zero_or_tiny_epsilon_without_warnings():
    assert dep.zcdp_to_epsilon(1e-300, 1e-10) == 0.0
    assert 0.0 <= dep.zcdp_to_epsilon(1e-12, 1e-10) < 1e-5
    assert dep.gaussian_epsilon(1e-12, 1e-10) <= dep.zcdp_to_epsilon(1e-12, 1e-10) + 1e-12


def test_gaussian_epsilon_solves_balle_wang():
    rho, delta = 0.4, 1e-6
    eps = dep.gaussian_epsilon(rho, delta)
    mu = math.sqrt(2 * rho)
    back = norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2)
    assert back == pytest.approx(delta, rel=1e-8)


def test_gaussian_epsilon_agrees_with_dp_accounting():
    accounting = pytest.importorskip("dp_accounting")
    rho, delta = 0.5, 1e-6  # σ = 1, sensitivity 1
    event = accounting.GaussianDpEvent(noise_multiplier=1.0)
    pld = accounting.pld.PLDAccountant()
    pld.compose(event)
    assert dep.gaussian_epsilon(rho, delta) == pytest.approx(pld.get_epsilon(delta), rel=2e-3)


def test_census_2020_stated_values_follow_from_unrounded_rho():
    stated = dep.CENSUS_2020
    ours = dep.zcdp_to_epsilon(stated["rho"].to_numpy(), stated["delta"].to_numpy())
    # with the printed (two-decimal) ρ_z the conversion gives 17.16 and 2.39, not 17.14, 2.47
    assert np.round(ours, 2).tolist() == [17.16, 2.39]
    # ... but the ρ_z that reproduce the stated ε round to the printed ρ_z and sum to 2.63
    implied = dep.zcdp_rho_for_epsilon(stated["epsilon_stated"].to_numpy(), 1e-10)
    assert np.round(implied, 2).tolist() == stated["rho"].tolist()
    assert round(implied.sum(), 2) == 2.63
    assert dep.zcdp_to_epsilon(implied, 1e-10) == pytest.approx(stated["epsilon_stated"], abs=1e-9)


def test_meta_published_epsilon_is_the_gaussian_curve_at_their_mu():
    # the registry's prose: total μ-GDP about 0.376 and ε about 1.453 at δ = 1e-5
    assert round(dep.gaussian_epsilon(0.376**2 / 2, 1e-5), 2) == round(1.453, 2)


# --- rounded toward privacy (issue 17) --------------------------------------------------------

mpmath = pytest.importorskip("mpmath")


@given(epsilon=st.floats(1e-6, 1e3), delta=st.floats(1e-300, 0.5))
def test_rho_for_epsilon_never_gives_an_epsilon_above_the_target(epsilon, delta):
    # a search ends on either side of the root: the ρ returned must never overshoot the target
    rho = dep.zcdp_rho_for_epsilon(epsilon, delta)
    assert dep.zcdp_to_epsilon(rho, delta) <= epsilon
    assert dep.zcdp_to_epsilon(rho * (1 + 1e-9), delta) > epsilon or rho == 0  # and the largest


@given(st.lists(st.floats(1e-3, 100), min_size=1, max_size=5), st.floats(1e-15, 0.1))
def test_rho_for_epsilon_rises_with_epsilon_and_the_vector_is_the_scalars(epsilons, delta):
    eps = np.sort(np.array(epsilons))
    rho = dep.zcdp_rho_for_epsilon(eps, delta)
    assert np.all(np.diff(rho) >= 0)
    np.testing.assert_array_equal(rho, [dep.zcdp_rho_for_epsilon(e, delta) for e in eps])


@given(rho=st.floats(1e-12, 1e4), delta=st.floats(1e-300, 0.5))
def test_gaussian_epsilon_meets_delta(rho, delta):
    # the ε returned is where δ(ε) ≤ δ (the bisection's midpoint could sit below the root)
    eps = dep.gaussian_epsilon(rho, delta)
    mu = math.sqrt(2 * rho)
    assert plrv.gaussian_delta(eps, 1.0, sensitivity=mu) <= delta


def test_gaussian_epsilon_at_a_tiny_rho_is_not_zero():
    # its own δ took ln of two terms and called δ = 0 where they rounded equal: δ(0) of
    # 5.6e-21 at ρ_z = 1e-40 was 0, so every δ was "met" at ε = 0
    eps = dep.gaussian_epsilon(1e-40, 1e-25)
    assert eps > 0
    with mpmath.workdps(80):
        mu = mpmath.sqrt(2 * mpmath.mpf(1e-40))
        e = mpmath.mpf(eps)
        exact = mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)
        assert exact <= mpmath.mpf(1e-25)


@pytest.mark.parametrize(
    ("rho", "delta"),
    [
        (1.7825729851082604e-06, 3.90371643254654e-24),
        (2.0116602393649285e-06, 6.26e-4),
        (2.56, 1e-10),
    ],
)
def test_zcdp_to_epsilon_is_never_below_the_exact_infimum(rho, delta):
    # ε(α) at the bisected α came out up to 4e-14 below the true infimum at a tiny ρ_z
    with mpmath.workdps(50):
        r, L = mpmath.mpf(rho), -mpmath.log(mpmath.mpf(delta))
        alpha = mpmath.findroot(
            lambda a: r * (a - 1) ** 2 + mpmath.log(a) - L, 1 + mpmath.sqrt(L / r)
        )
        exact = alpha * r + (L + (alpha - 1) * mpmath.log(1 - 1 / alpha) - mpmath.log(alpha)) / (
            alpha - 1
        )
        assert mpmath.mpf(dep.zcdp_to_epsilon(rho, delta)) >= exact
        assert dep.zcdp_to_epsilon(rho, delta) == pytest.approx(float(exact), rel=1e-12)


@given(rho=st.floats(1e-300, 1e8), delta=st.floats(1e-300, 0.99))
def test_the_simple_conversion_is_never_below_its_true_value(rho, delta):
    with mpmath.workdps(50):
        r = mpmath.mpf(rho)
        exact = r + 2 * mpmath.sqrt(r * -mpmath.log(mpmath.mpf(delta)))
        got = dep.zcdp_to_epsilon_simple(rho, delta)
        assert mpmath.mpf(got) >= exact
        assert got == pytest.approx(float(exact), rel=1e-14)


# ------------------------------------------- inverses round-trip on the safe side (issue 29)


@given(
    epsilon=st.floats(1e-3, 60.0),
    delta=st.sampled_from([1e-300, 1e-100, 1e-12, 1e-6, 0.01]),
)
def test_zcdp_rho_for_epsilon_and_gaussian_epsilon_are_on_the_safe_side_exactly(epsilon, delta):
    import mpmath

    mpmath.mp.dps = 60
    rho = dep.zcdp_rho_for_epsilon(epsilon, delta)
    r, L = mpmath.mpf(rho), -mpmath.log(mpmath.mpf(delta))
    if rho > 0:
        # the exact infimum over α of CKS Cor. 13 is ≤ its value at any α: take the root
        alpha = mpmath.findroot(
            lambda x: r * (x - 1) ** 2 + mpmath.log(x) - L,
            (1 + mpmath.mpf(10) ** -40, 2 + mpmath.sqrt(L / r)),
            solver="anderson",
        )
        cks = alpha * r + (L - mpmath.log(alpha)) / (alpha - 1) + mpmath.log(1 - 1 / alpha)
        assert cks <= epsilon
        # the exact Gaussian ε at that ρ_z: its exact δ(ε) is ≤ the target
        eps_g = mpmath.mpf(dep.gaussian_epsilon(rho, delta))
        mu = mpmath.sqrt(2 * r)
        exact = mpmath.ncdf(-eps_g / mu + mu / 2) - mpmath.exp(eps_g) * mpmath.ncdf(
            -eps_g / mu - mu / 2
        )
        assert exact <= delta


def _exact_cks(rho: float, delta: float):
    """CKS Corollary 13 in 60 digits: ε at the root α* of ρ(α − 1)² + ln α = L (its minimiser)."""
    r, L = mpmath.mpf(rho), -mpmath.log(mpmath.mpf(delta))
    # the root lies in (1, 1 + √(L/ρ)); bisection on u = ln(α − 1) in 60 digits
    low, high = mpmath.mpf(-800), mpmath.log(mpmath.sqrt(L / r))
    for _ in range(400):
        mid = (low + high) / 2
        if r * mpmath.exp(2 * mid) + mpmath.log1p(mpmath.exp(mid)) - L > 0:
            high = mid
        else:
            low = mid
    # α − 1 = e^u and ln(1 − 1/α) = −ln(1 + e^{−u}) kept apart: at 60 digits 1 − 1/α is 1
    # once α > 1e60 (ρ_z = 1e-200), and 1 + e^u − 1 loses e^u once u < −138
    u = (low + high) / 2
    log_alpha = mpmath.log1p(mpmath.exp(u))
    terms = (
        (1 + mpmath.exp(u)) * r,
        (L - log_alpha) / mpmath.exp(u),
        -mpmath.log1p(mpmath.exp(-u)),
    )
    # the size of the terms bounds what rounding in double precision can cost (they cancel)
    return max(sum(terms), mpmath.mpf(0)), sum(abs(t) for t in terms)


@given(rho=st.floats(1e-10, 1e6), delta=st.floats(1e-300, 0.9))
def test_cks_newton_is_never_below_the_exact_infimum_and_within_its_rounding(rho, delta):
    # issue 33: Newton on the minimiser replaced a bisection; the ε is still rounded up
    with mpmath.workdps(60):
        exact, size = _exact_cks(rho, delta)
        eps = dep.zcdp_to_epsilon(rho, delta)
        assert mpmath.mpf(eps) >= exact
        assert mpmath.mpf(eps) <= exact + size * mpmath.mpf(1e-13)


@given(
    epsilon=st.floats(1e-100, 1e4),
    delta=st.floats(1e-300, 0.9) | st.floats(0.9, 1 - 1e-15) | st.just(5e-324),
)
def test_rho_for_epsilon_round_trips_on_the_safe_side_in_60_digits(epsilon, delta):
    # the inverse solves one closed form along the minimisers, then is nudged until the
    # outward-rounded conversion meets ε: its exact ε never exceeds the target, and is close
    rho = dep.zcdp_rho_for_epsilon(epsilon, delta)
    with mpmath.workdps(60):
        exact, size = _exact_cks(rho, delta)
        assert exact <= mpmath.mpf(epsilon)
        if exact > 0:  # at δ near 1 an ε of 0 covers a range of ρ_z: no unique inverse
            assert exact >= mpmath.mpf(epsilon) - size * mpmath.mpf(1e-12)


@given(
    st.lists(st.floats(1e-6, 1e4), min_size=1, max_size=6),
    st.lists(st.floats(1e-300, 0.9), min_size=1, max_size=6),
)
def test_fast_cks_and_its_inverse_vector_is_the_scalars(values, deltas):
    n = min(len(values), len(deltas))
    v, d = np.array(values[:n]), np.array(deltas[:n])
    np.testing.assert_array_equal(
        dep.zcdp_to_epsilon(v, d), [dep.zcdp_to_epsilon(a, b) for a, b in zip(v, d, strict=True)]
    )
    np.testing.assert_array_equal(
        dep.zcdp_rho_for_epsilon(v, d),
        [dep.zcdp_rho_for_epsilon(a, b) for a, b in zip(v, d, strict=True)],
    )


if __name__ == "__main__":  # rewrite helpers/data/opendp_zcdp_epsilon.csv with OpenDP
    Path(str(dep.OPENDP_PATH)).write_text(_opendp_table_text(), encoding="utf-8")
    print(f"wrote {dep.OPENDP_PATH}")
