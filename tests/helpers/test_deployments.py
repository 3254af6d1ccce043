"""helpers.deployments: the registry table, zCDP conversions and the three views."""

from __future__ import annotations

import math
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from helpers import deployments as dep
from helpers import kazan_reiter as kr
from helpers import plrv
from helpers._numerics import bisect_increasing

with dep.DATA_PATH.open("rb") as _data:
    RAW = pd.read_csv(_data)


# --- the table -----------------------------------------------------------------------------


def test_load_keeps_every_row_and_gives_each_a_status():
    table = dep.load()
    assert len(table) == len(RAW) == 41
    assert table["name"].tolist() == RAW["name"].tolist()
    assert table["status"].notna().all()
    assert set(table["status"]) >= {"usable"}
    unusable = table[table["status"] != "usable"]
    assert len(unusable) > 0
    # every reason is a sentence, never blank
    assert (unusable["status"].str.len() > 10).all()
    assert table.loc[table["status"] == "usable", "epsilon_used"].notna().all()
    assert table.loc[table["status"] != "usable", "epsilon_used"].isna().all()


def test_load_names_the_quirks_of_the_data():
    table = dep.load().set_index("name")
    iconic = table.loc["Iconic scenes and photo sections for iOS apps", "status"]
    assert "Pure DP" in iconic and "1.5e-07" in iconic
    assert "formula" in table.loc["FLEX", "status"]
    assert "privacy parameters not in the registry" in table.loc["Safety Classifier", "status"]
    assert "DP variant not in the registry" in table.loc["Private Third Party Audits", "status"]
    # zCDP rows with only ρ_z are usable through the conversion, at the default δ
    census = table.loc["Disclosure Avoidance System for Redistricting Data"]
    assert census["status"] == "usable"
    assert census["delta_used"] == dep.DEFAULT_DELTA
    assert census["epsilon_used"] == pytest.approx(dep.zcdp_to_epsilon(2.63, 1e-10))
    assert "converted" in census["basis"]
    # a zCDP row that also publishes (ε, δ) keeps them
    meta = table.loc["User-URL Privacy Dataset"]
    # 1.453 is the Gaussian curve at μ = 0.376, below what ρ_z = 0.0728 alone guarantees
    # (√(2·0.0728) = 0.3816 ≠ 0.376): the conservative reading is ρ_z's CKS conversion
    assert meta["epsilon"] == 1.453 and meta["delta_used"] == 1e-5
    assert meta["epsilon_used"] == dep.zcdp_to_epsilon(0.0728, 1e-5) > 1.6
    assert "below what ρ_z alone guarantees" in meta["basis"]
    assert meta["epsilon_cks"] == pytest.approx(dep.zcdp_to_epsilon(0.0728, 1e-5))
    # pure DP rows have δ = 0
    assert table.loc["Popular Emojis", "delta_used"] == 0.0


def test_status_counts_match_the_raw_columns():
    table = dep.load()
    no_params = RAW[["epsilon", "delta", "rho"]].isna().all(axis=1)
    assert table.loc[no_params, "status"].str.startswith("privacy parameters").all()
    assert (table["status"] == "usable").sum() == len(dep.usable(table))
    used = dep.usable(table)["epsilon_used"].to_numpy()
    assert np.all(np.diff(used) >= 0)


def test_load_refuses_a_bad_default_delta():
    with pytest.raises(ValueError, match="delta"):
        dep.load(default_delta=0.0)


def test_data_readme_credits_the_registry():
    text = (resources.files("helpers") / "data" / "README.md").read_text(encoding="utf-8")
    for needle in ("OpenDP", "3e9c812", "MIT", "deployments-registry-data"):
        assert needle in text


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
        "# Written and checked by tests/helpers/test_deployments.py "
        "(python tests/helpers/test_deployments.py).",
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
    hint = "stale: run python tests/helpers/test_deployments.py"
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


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dep.zcdp_to_epsilon(-0.1, 1e-6), "rho"),
        (lambda: dep.zcdp_to_epsilon(math.nan, 1e-6), "rho"),
        (lambda: dep.zcdp_to_epsilon(math.inf, 1e-6), "rho"),
        (lambda: dep.zcdp_to_epsilon(1.0, 0.0), "delta"),
        (lambda: dep.zcdp_to_epsilon(1.0, 1.0), "delta"),
        (lambda: dep.zcdp_to_epsilon(1.0, math.nan), "delta"),
        (lambda: dep.zcdp_to_epsilon_simple(1.0, 1.5), "delta"),
        (lambda: dep.gaussian_epsilon(-1.0, 1e-6), "rho"),
        (lambda: dep.zcdp_rho_for_epsilon(-1.0, 1e-6), "epsilon"),
        (lambda: dep.posterior_bound(-1.0), "epsilon"),
        (lambda: dep.posterior_bound(1.0, prior=1.0), "prior"),
        (lambda: dep.posterior_bound(math.nan), "epsilon"),
        (lambda: dep.tpr_at_fpr(1.5, epsilon=1.0), "fpr"),
        (lambda: dep.tpr_at_fpr(0.1, epsilon=1.0, delta=1.0), "delta"),
        (lambda: dep.gaussian_tpr_at_fpr(0.1, rho=-1.0), "rho"),
        (lambda: dep.posterior_bad_event_probability(0.1, slack=0.0), "slack"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("bad", [np.array([1.0, 1e9]), [[1.0, 2.0], [3.0]], "x", 1 + 2j])
def test_junk_is_a_value_error_everywhere(bad):
    calls = [
        lambda: dep.zcdp_to_epsilon(bad, 1e-6),
        lambda: dep.gaussian_tpr_at_fpr(0.1, rho=bad),
        lambda: dep.zcdp_rho_for_epsilon(bad, 1e-6),
        lambda: dep.three_views(bad),
        lambda: dep.three_views(1.0, rho=bad),
        lambda: dep.load(default_delta=bad),
    ]
    for call in calls:
        with pytest.raises(ValueError):
            call()


def test_rho_beyond_max_rho_is_refused():
    for bad in (1e308, dep.MAX_RHO * 2):
        with pytest.raises(ValueError, match=r"rho must lie in \[0, 1e\+08\]"):
            dep.zcdp_to_epsilon(bad, 1e-6)
        with pytest.raises(ValueError, match="rho"):
            dep.gaussian_tpr_at_fpr(0.1, rho=bad)


def test_huge_but_valid_inputs_give_numbers_without_warnings():
    # (RuntimeWarnings from helpers are errors in this suite)
    assert dep.three_views(1e308)["relative_risk"] == pytest.approx(1 / 0.5)
    assert dep.posterior_bad_event_probability(1e-6, slack=5e-324) == 1.0
    assert dep.zcdp_to_epsilon(dep.MAX_RHO, 1e-300) > dep.MAX_RHO


def test_bad_rho_message_gives_value_and_range():
    with pytest.raises(ValueError, match=r"rho must lie in \[0, 1e\+08\].*-0\.1"):
        dep.zcdp_to_epsilon(-0.1, 1e-6)
    with pytest.raises(ValueError, match=r"delta.*\(0, 1\).*1\.5"):
        dep.zcdp_to_epsilon(1.0, 1.5)


# --- view 1 --------------------------------------------------------------------------------


def test_posterior_bound_closed_form_and_limits():
    p, eps = 0.3, 1.2
    assert dep.posterior_bound(eps, prior=p) == pytest.approx(
        p * math.exp(eps) / (p * math.exp(eps) + 1 - p), rel=1e-14
    )
    assert dep.posterior_bound(0.0, prior=p) == pytest.approx(p)
    assert dep.posterior_bound(math.inf, prior=p) == 1.0
    # no overflow at huge ε
    assert dep.posterior_bound(1000.0, prior=1e-6) == 1.0


def test_posterior_bound_is_lee_clifton_upper_bound_with_two_worlds():
    lc = pytest.importorskip("helpers.lee_clifton")
    # two worlds {0}, {1} drawn from the universe [0, 1], query identity: Δv = Δf
    eps = np.array([0.5, 1.0, 3.0])
    ours = dep.posterior_bound(eps, prior=0.5)
    theirs = lc.upper_bound([0.0, 1.0], 1, "sum", eps, sensitivity=1.0)
    assert np.allclose(ours, theirs, rtol=1e-13)


@given(
    eps=st.floats(0.01, 5.0),
    slack=st.floats(0.05, 3.0),
    rho=st.floats(0.01, 3.0),
)
def test_bad_event_bound_holds_for_the_gaussian(eps, slack, rho):
    # Gaussian with μ = √(2ρ): privacy loss L ~ N(μ²/2, μ²) under the first world
    mu = math.sqrt(2 * rho)
    delta = float(norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2))
    delta = max(delta, 1e-300)
    exceed = float(norm.sf((eps + slack - mu**2 / 2) / mu))
    assert exceed <= dep.posterior_bad_event_probability(delta, slack=slack) * (1 + 1e-9) + 1e-15


# --- view 2 --------------------------------------------------------------------------------


def test_relative_risk_is_kazan_reiter_theorem1():
    assert dep.relative_risk_bound is kr.relative_risk_bound
    views = dep.three_views(1.0, 0.0, p=0.2, q=0.5)
    assert views["relative_risk"] == pytest.approx(
        1 / (0.5 * 0.2 + math.exp(-2) * 0.5 * 0.2 + math.exp(-1) * 0.8)
    )


# --- view 3 --------------------------------------------------------------------------------


def _four_point_tpr(alpha: float, eps: float, delta: float) -> float:
    """Neyman–Pearson power of the canonical (ε, δ) pair of Kairouz, Oh & Viswanath (2015)."""
    e = math.exp(eps)
    P = np.array([delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0])
    Q = P[::-1].copy()
    # likelihood ratio P/Q in decreasing order: reject the null Q on the highest ratios first
    with np.errstate(divide="ignore"):
        ratio = np.where(Q > 0, P / np.where(Q > 0, Q, 1), np.inf)
    order = np.argsort(-ratio, kind="stable")
    power, fpr_left = 0.0, alpha
    for i in order:
        if Q[i] <= fpr_left:
            power += P[i]
            fpr_left -= Q[i]
        else:
            power += P[i] * fpr_left / Q[i]
            break
    return min(power, 1.0)


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("delta", [0.0, 1e-5, 0.05])
@pytest.mark.parametrize("alpha", [0.0, 0.01, 0.1, 0.5, 0.9])
def test_tpr_at_fpr_is_attained_by_the_four_point_mechanism(eps, delta, alpha):
    assert dep.tpr_at_fpr(alpha, epsilon=eps, delta=delta) == pytest.approx(
        _four_point_tpr(alpha, eps, delta), abs=1e-12
    )


def test_tpr_at_fpr_closed_form_and_edges():
    assert dep.tpr_at_fpr(0.01, epsilon=1.0) == pytest.approx(math.e * 0.01)
    assert dep.tpr_at_fpr(0.1, epsilon=0.0) == pytest.approx(0.1)
    assert dep.tpr_at_fpr(0.0, epsilon=math.inf, delta=0.0) == 0.0
    assert dep.tpr_at_fpr(0.01, epsilon=math.inf) == 1.0
    assert dep.tpr_at_fpr(1.0, epsilon=2.0, delta=0.1) == 1.0
    out = dep.tpr_at_fpr(np.array([0.01, 0.1]), epsilon=1.0, delta=1e-6)
    assert out.shape == (2,)


def test_gaussian_tpr_closed_form_and_dp_accounting():
    accounting = pytest.importorskip("dp_accounting")
    rho = 0.5  # μ = 1
    for alpha in (0.01, 0.1):
        ours = dep.gaussian_tpr_at_fpr(alpha, rho=rho)
        assert ours == pytest.approx(norm.cdf(1 - norm.ppf(1 - alpha)), rel=1e-12)
        # independent: TPR(α) = inf over ε of δ(ε) + e^ε α, with δ(ε) from dp-accounting
        pld = accounting.pld.PLDAccountant()
        pld.compose(accounting.GaussianDpEvent(noise_multiplier=1.0))
        grid = np.linspace(0.0, 6.0, 241)
        dual = min(pld.get_delta(float(e)) + math.exp(e) * alpha for e in grid)
        assert ours == pytest.approx(dual, abs=2e-3)
        assert ours <= dual + 1e-4


@given(rho=st.floats(1e-3, 10.0), alpha=st.floats(1e-6, 0.5))
def test_gaussian_curve_lies_under_its_cks_epsilon_delta_curve(rho, alpha):
    # the Gaussian is (ε, δ)-DP for the CKS ε, so its TPR can't beat that curve's TPR
    delta = 1e-6
    eps = dep.zcdp_to_epsilon(rho, delta)
    assert (
        dep.gaussian_tpr_at_fpr(alpha, rho=rho)
        <= dep.tpr_at_fpr(alpha, epsilon=eps, delta=delta) + 1e-12
    )


def test_three_views_keys_and_values():
    v = dep.three_views(2.0, 1e-6, prior=0.1, rho=0.3)
    assert v["posterior"] == dep.posterior_bound(2.0, prior=0.1)
    assert v["bad_event"] == pytest.approx(2e-6)
    assert v["tpr_10"] == dep.tpr_at_fpr(0.1, epsilon=2.0, delta=1e-6)
    assert v["gaussian_tpr_1"] == dep.gaussian_tpr_at_fpr(0.01, rho=0.3)


# --- rounded toward privacy (issue 17) --------------------------------------------------------

mpmath = pytest.importorskip("mpmath")


@given(epsilon=st.floats(1e-6, 1e3), delta=st.floats(1e-300, 0.5))
def test_rho_for_epsilon_never_gives_an_epsilon_above_the_target(epsilon, delta):
    # the bisection returned the midpoint of its last bracket: on either side of the root
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


def test_tpr_keeps_a_tiny_rate():
    # 1 − e^{−ε}(1 − δ − α) lost δ + α = 2e-20 at ε = 1e-30: a TPR of 0
    assert dep.tpr_at_fpr(1e-20, epsilon=1e-30, delta=1e-20) == pytest.approx(2e-20, rel=1e-9)


@given(eps=st.floats(0, 700), prior=st.floats(1e-300, 0.999999))
def test_posterior_bound_is_within_a_few_units_of_the_exact_posterior(eps, prior):
    with mpmath.workdps(60):
        p = mpmath.mpf(prior)
        exact = p * mpmath.exp(eps) / (p * mpmath.exp(eps) + 1 - p)
        assert dep.posterior_bound(eps, prior=prior) == pytest.approx(float(exact), rel=1e-15)
    assert dep.posterior_bound(0.0, prior=prior) == prior


def test_a_number_is_not_a_privacy_unit():
    with pytest.raises(ValueError, match="privacy_unit must be a string"):
        dep.unit_group(5)


# --- privacy units: the finest unit each row states (issue 20) -----------------------------

#: every privacy_unit string of the registry table, its group, and why (the registry's
#: privacy_unit_details where it gives them)
UNIT_CASES = [
    ("Event-level", "one event or record", "one emoji, one HealthKit event, one crash report"),
    ("record-level", "one event or record", "one 512-token sequence of text"),
    ("Tuple-level", "one event or record", "one tuple of one table, not a person (FLEX)"),
    ("User-trip-level", "one event or record", "one trip of a user, not the user's trips"),
    (
        "Event-Month-level",
        "one event or record",
        "LinkedIn Hiring: event-level privacy, the event a hire, in each monthly release",
    ),
    (
        "User-quarter-day-level",
        "part of a day of a user",
        "Windows telemetry: a quarter of a day, four of them in a user's day",
    ),
    (
        "Device-day-level",
        "part of a day of a user",
        "Current Pageviews: one device's day; a user with several devices has several",
    ),
    (
        "Bounded contribution-day",
        "part of a day of a user",
        "Historical Pageviews: a fixed number of pageviews (30 or 300) in one day, not a "
        "user's whole day (the data were pre-aggregated, no user or device to bound)",
    ),
    ("User-day-level", "one day of a user", "one user's data for one day"),
    (
        "User-month-country-level",
        "part of a month of a user",
        "Wikipedia Geoeditors: one editor's month in one country; an editor in two countries "
        "holds two units",
    ),
    ("User-month-level", "one month of a user", "one user's data for one month"),
    (
        "User account-month-level",
        "one month of a user",
        "Wikipedia Russian editors: one account's month (an account is the registry's user)",
    ),
    (
        "User-device-level",
        "one device of a user",
        "Spanish next-word prediction: all training examples of one device, not of a user "
        "with several devices",
    ),
    ("User-level", "one person or entity", "everything about one user"),
    ("Person-level", "one person or entity", "one person's record (change-one)"),
    (
        "Person-level; housing-unit-level",
        "one person or entity",
        "Census: a person in the person tables, a housing unit in the housing tables",
    ),
    ("Individual-level", "one person or entity", "one individual"),
    (
        "User-account-level",
        "one person or entity",
        "a customer and all their linked accounts",
    ),
    ("Birth-level", "one person or entity", "one live birth: the newborn's whole record"),
    (
        "Business establishment",
        "one person or entity",
        "the existence of one establishment (County Business Patterns)",
    ),
    ("Aggregate-level", "not stated", "an aggregate is not a unit of who is protected"),
    ("Aggregate Statistics", "not stated", "an aggregate is not a unit of who is protected"),
    (None, "not stated", "the registry gives no unit (read as NaN)"),
]


@pytest.mark.parametrize(
    ("unit", "group", "why"), UNIT_CASES, ids=[str(u) for u, _, _ in UNIT_CASES]
)
def test_every_unit_goes_to_the_group_of_the_finest_unit_it_states(unit, group, why):
    assert dep.unit_group(unit) == group, why


def test_every_unit_of_the_table_is_in_the_cases_and_load_uses_the_same_groups():
    stated = {u for u, _, _ in UNIT_CASES if u is not None}
    in_table = set(RAW["privacy_unit"].dropna())
    assert in_table == stated, "a unit in the CSV without its expected group written out here"
    table = dep.load()
    expected = table["privacy_unit"].map(lambda u: dep.unit_group(None if pd.isna(u) else u))
    assert table["unit_group"].tolist() == expected.tolist()
    assert set(table["unit_group"]) <= set(dep.UNIT_GROUPS)


def test_unit_groups_cover_every_expected_group_in_order_finest_first():
    groups = [g for _, g, _ in UNIT_CASES]
    assert set(groups) == set(dep.UNIT_GROUPS)
    # the cases are written finest first too: their groups appear in UNIT_GROUPS' order
    order = [dep.UNIT_GROUPS.index(g) for g in groups]
    assert order == sorted(order)


@pytest.mark.parametrize(
    "unit", ["", "x", "Session-level", "Household-week-level", "Aggregate", "level"]
)
def test_a_unit_it_does_not_know_is_not_stated_rather_than_guessed(unit):
    assert dep.unit_group(unit) == "not stated"


@pytest.mark.parametrize(
    ("unit", "group"),
    [
        ("DEVICE-DAY-LEVEL", "part of a day of a user"),
        ("user day", "one day of a user"),
        ("User–quarter–day", "part of a day of a user"),  # en dashes
    ],
)
def test_case_and_separators_do_not_change_the_group(unit, group):
    assert dep.unit_group(unit) == group


# --- view 3 from zCDP alone: the trade-off curve ρ_z implies (issue 20) --------------------


def _dense_violation(t, x, rho):
    """Independent check: the worst Rényi excess over 20,000 orders, by brute force."""
    orders = 1 + np.logspace(-6, 5, 20_000)
    with np.errstate(divide="ignore", invalid="ignore"):

        def d(u, v):
            terms = np.stack(
                [
                    orders * np.log(u) + (1 - orders) * np.log(v),
                    orders * np.log1p(-u) + (1 - orders) * np.log1p(-v),
                ]
            )
            return np.logaddexp(terms[0], terms[1]) / (orders - 1)

        excess = np.maximum(d(t, x), d(x, t)) - rho * orders
    return float(np.nanmax(excess))


@pytest.mark.parametrize(
    ("rho", "fpr", "published"),
    # the readings at FPR 1 %: Census redistricting, Spanish next-word, Meta URLs
    [(2.63, 0.01, 0.698), (0.81, 0.01, 0.207), (0.0728, 0.01, 0.0295)],
)
def test_zcdp_tpr_reproduces_the_reviewers_readings(rho, fpr, published):
    value = dep.zcdp_tpr(rho, fpr)
    assert value == pytest.approx(published, abs=6e-4)
    # between the Gaussian curve (tighter: assumes the mechanism) and the (ε, δ) curve
    assert dep.gaussian_tpr_at_fpr(fpr, rho=rho) < value
    eps = dep.zcdp_to_epsilon(rho, 1e-10)
    assert value < dep.tpr_at_fpr(fpr, epsilon=eps, delta=1e-10)


@settings(max_examples=30)
@given(st.floats(min_value=1e-4, max_value=20.0), st.floats(min_value=1e-6, max_value=0.9))
def test_zcdp_tpr_is_the_edge_of_what_every_renyi_order_allows(rho, fpr):
    t = dep.zcdp_tpr(rho, fpr)
    assert fpr <= t <= 1
    if t < 1 - 1e-9:
        # just below: every order allows it; just above: some order forbids it
        assert _dense_violation(fpr + (t - fpr) * (1 - 1e-6), fpr, rho) <= 1e-9
        assert _dense_violation(min(t + 1e-5 * (1 - t) + 1e-9, 1 - 1e-15), fpr, rho) > 0
    assert dep.gaussian_tpr_at_fpr(fpr, rho=rho) <= t + 1e-12


def _worst_excess(t, x, rho):
    """Independent check, tighter than :func:`_dense_violation`: the worst Rényi excess at
    (t, x) over the orders (located on 40,001 orders, then refined by a bounded scalar
    search in 30-digit arithmetic) and at the KL limit (order 1)."""
    import mpmath
    from scipy.optimize import minimize_scalar

    u_grid = np.linspace(np.log(1e-5), np.log(1e9), 40_001)
    orders = 1 + np.exp(u_grid)

    def d(p, q, a):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            terms = (a * np.log(p) + (1 - a) * np.log(q), a * np.log1p(-p) + (1 - a) * np.log1p(-q))
            return np.logaddexp(*terms) / (a - 1)

    coarse = np.maximum(d(t, x, orders), d(x, t, orders)) - rho * orders
    i = int(np.nanargmax(coarse))

    def excess(u):
        with mpmath.workdps(30):
            a, T, X = 1 + mpmath.exp(u), mpmath.mpf(t), mpmath.mpf(x)

            def dm(p, q):
                return mpmath.log(p**a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1)

            return float(max(dm(T, X), dm(X, T)) - rho * a)

    lo, hi = u_grid[max(i - 1, 0)], u_grid[min(i + 1, u_grid.size - 1)]
    found = minimize_scalar(
        lambda u: -excess(u), bounds=(lo, hi), method="bounded", options={"xatol": 1e-10}
    )
    with mpmath.workdps(30):
        T, X = mpmath.mpf(t), mpmath.mpf(x)

        def kl(p, q):
            return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))

        limit = float(max(kl(T, X), kl(X, T)) - rho)
    return max(float(np.nanmax(coarse)), -found.fun, excess(u_grid[i]), limit)


@settings(max_examples=15, deadline=None)
@given(st.floats(min_value=1e-6, max_value=20.0), st.floats(min_value=1e-5, max_value=0.9))
def test_zcdp_tpr_is_the_edge_to_1e_9_and_never_below_it(rho, fpr):
    # the search over orders decides how close the answer comes to the edge: within 1e-9
    # (a TPR 1e-9 lower is allowed by every order); and it is rounded toward privacy: at the
    # answer itself some order forbids it (up to the excess's own rounding, 1e-14)
    t = dep.zcdp_tpr(rho, fpr)
    if t < 1 - 1e-9:
        assert _worst_excess(t, fpr, rho) > -1e-14
        assert _worst_excess(max(t - 1e-9, fpr), fpr, rho) <= 0


def test_zcdp_tpr_refuses_more_pairs_than_its_work_budget_before_the_work():
    too_many = np.full(dep.MAX_TPR_POINTS + 1, 0.1)
    with pytest.raises(ValueError, match=rf"{dep.MAX_TPR_POINTS + 1:,} \(ρ_z, FPR\) pairs"):
        dep.zcdp_tpr(1.0, too_many)
    # broadcasting counts: 100 ρ_z × 100 FPRs is 10,000 pairs
    with pytest.raises(ValueError, match=r"^rho and fpr broadcast to 10,000"):
        dep.zcdp_tpr(np.ones((100, 1)), np.full(100, 0.1))
    assert dep.zcdp_tpr(1.0, np.full(dep.MAX_TPR_POINTS, 0.1)[:3]).shape == (3,)


@given(
    st.floats(min_value=1e-3, max_value=10.0),
    st.floats(min_value=1e-3, max_value=10.0),
    st.floats(min_value=1e-4, max_value=0.5),
)
def test_zcdp_tpr_is_monotone_and_vectorised_equals_scalar(r1, r2, fpr):
    lo, hi = sorted((r1, r2))
    assert dep.zcdp_tpr(lo, fpr) <= dep.zcdp_tpr(hi, fpr)
    assert dep.zcdp_tpr(lo, fpr) <= dep.zcdp_tpr(lo, min(2 * fpr, 1.0))
    vector = dep.zcdp_tpr(np.array([lo, hi]), fpr)
    assert vector.tolist() == [dep.zcdp_tpr(lo, fpr), dep.zcdp_tpr(hi, fpr)]


def test_zcdp_tpr_ends_and_refusals():
    assert dep.zcdp_tpr(1.0, 0.0) == 0.0 and dep.zcdp_tpr(1.0, 1.0) == 1.0
    assert dep.zcdp_tpr(0.0, 0.3) == 0.3 and dep.zcdp_tpr(1e8, 0.3) == 1.0
    assert type(dep.zcdp_tpr(1.0, 0.1)) is float
    for bad in (
        {"rho": -1.0, "fpr": 0.1},
        {"rho": math.inf, "fpr": 0.1},
        {"rho": 1.0, "fpr": 1.5},
        {"rho": "1", "fpr": 0.1},
    ):
        with pytest.raises(ValueError, match=r"^(rho|fpr)"):
            dep.zcdp_tpr(**bad)


@given(rho=st.floats(1e-300, 1e8), delta=st.floats(1e-300, 0.99))
def test_the_simple_conversion_is_never_below_its_true_value(rho, delta):
    with mpmath.workdps(50):
        r = mpmath.mpf(rho)
        exact = r + 2 * mpmath.sqrt(r * -mpmath.log(mpmath.mpf(delta)))
        got = dep.zcdp_to_epsilon_simple(rho, delta)
        assert mpmath.mpf(got) >= exact
        assert got == pytest.approx(float(exact), rel=1e-14)


@pytest.mark.parametrize("rho", [1e-8, 1e-6, 1e-4])
def test_zcdp_tpr_at_tiny_rho_stays_below_the_converted_curve(rho):
    # the binding Rényi order grows as ρ_z shrinks (about 2e4 at 1e-8): the order search must
    # reach it, or the zCDP curve overstates the TPR above the (ε, δ) curve it lies under
    for delta in (1e-5, 1e-10):
        eps = dep.zcdp_to_epsilon(rho, delta)
        assert dep.zcdp_tpr(rho, 0.01) <= dep.tpr_at_fpr(0.01, epsilon=eps, delta=delta)


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


@pytest.mark.parametrize(
    ("fn", "budget", "first"),
    [
        (dep.zcdp_to_epsilon, "MAX_CKS_VALUES", "rho"),
        (dep.gaussian_epsilon, "MAX_GAUSSIAN_EPSILON_VALUES", "rho"),
        (dep.zcdp_rho_for_epsilon, "MAX_RHO_FOR_EPSILON_VALUES", "epsilon"),
    ],
)
def test_every_search_refuses_work_above_its_budget_up_front(fn, budget, first):
    limit = getattr(dep, budget)
    # one value over the budget, by broadcasting two arrays: refused before any search runs
    many = np.full(limit // 2 + 1, 0.5)
    with pytest.raises(
        ValueError, match=rf"^{first} and delta ask for {limit + 2:,} searches .*{budget}"
    ):
        fn(many, np.array([1e-6, 1e-7])[:, None])
    # and a call within the budget is served
    assert np.shape(fn(np.full(3, 0.5), 1e-6)) == (3,)


if __name__ == "__main__":  # rewrite helpers/data/opendp_zcdp_epsilon.csv with OpenDP
    Path(str(dep.OPENDP_PATH)).write_text(_opendp_table_text(), encoding="utf-8")
    print(f"wrote {dep.OPENDP_PATH}")
