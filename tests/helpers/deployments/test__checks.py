"""helpers.deployments._checks: bad input is a ValueError naming the parameter; work above a budget is refused up front."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from helpers import deployments as dep


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


# --- ε of the inverse conversion: its own range, message and value as given ------------------


@pytest.mark.parametrize(("bad", "shown"), [(-1, "-1"), (math.nan, "nan"), (math.inf, "inf")])
def test_the_inverse_names_epsilon_its_range_and_the_value_as_given(bad, shown):
    # regression: "epsilon must lie in [0, 1e+08] (ρ_z of zCDP); got array([-1.])", and for
    # NaN "epsilon must be a real number ≥ 0 (ρ_z of zCDP)" without the range
    with pytest.raises(ValueError) as info:
        dep.zcdp_rho_for_epsilon(bad, 1e-5)
    message = str(info.value)
    assert message.startswith("epsilon must lie in [0, zcdp_to_epsilon(MAX_RHO, delta)]")
    assert "ε of (ε, δ)-DP" in message and "ρ_z" not in message and "array(" not in message
    assert message.endswith(f"; got {shown}")


@pytest.mark.parametrize("delta", [5e-324, 1e-300, 1e-5, 0.5, 1 - 1e-15])
def test_the_inverse_accepts_every_epsilon_the_forward_map_returns_and_no_more(delta):
    # regression: zcdp_to_epsilon(1e8, 1e-5) ≈ 1.0007e8 was refused by the inverse (cap 1e8)
    top = dep.zcdp_to_epsilon(dep.MAX_RHO, delta)
    rho = dep.zcdp_rho_for_epsilon(top, delta)
    assert 0 < rho <= dep.MAX_RHO and rho == pytest.approx(dep.MAX_RHO, rel=1e-9)
    assert dep.zcdp_to_epsilon(rho, delta) <= top  # and the forward map takes the ρ_z back
    above = float(np.nextafter(top, np.inf) * (1 + 1e-12))
    shown = re.escape(f"{top!r} at delta = {delta!r}); got {above!r}")
    with pytest.raises(ValueError, match=rf"{shown}$"):
        dep.zcdp_rho_for_epsilon(above, delta)


def test_the_inverse_refuses_above_the_forward_range_entry_by_entry():
    top = dep.zcdp_to_epsilon(dep.MAX_RHO, 0.5)  # below the top at δ = 1e-10
    eps = np.array([1.0, top * (1 + 1e-9)])
    out = dep.zcdp_rho_for_epsilon(eps, 1e-10)  # within range at δ = 1e-10
    assert out.shape == (2,) and np.all(out > 0)
    with pytest.raises(
        ValueError, match=re.escape(f"offending entries include [{float(eps[1])!r}]")
    ):
        dep.zcdp_rho_for_epsilon(eps, 0.5)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: dep.zcdp_to_epsilon(math.nan, 1e-6),
            r"^rho must lie in \[0, 1e\+08\] \(ρ_z of zCDP\); got nan$",
        ),
        (
            lambda: dep.zcdp_to_epsilon([1.0, -2.0], 1e-6),
            r"^rho must lie in \[0, 1e\+08\].*offending entries include \[-2\.0\]$",
        ),
        (lambda: dep.zcdp_to_epsilon(1.0, math.nan), r"^delta must lie in the open .*; got nan$"),
        (lambda: dep.tpr_at_fpr(0.5, epsilon=1.0, delta=1), r"^delta must lie in \[0, 1\).*got 1$"),
        (lambda: dep.tpr_at_fpr(0.5, epsilon=1.0, delta=math.nan), r"\[0, 1\).*; got nan$"),
        (lambda: dep.tpr_at_fpr(1.5, epsilon=1.0), r"^fpr must lie in \[0, 1\].*; got 1\.5$"),
        (lambda: dep.tpr_at_fpr(math.nan, epsilon=1.0), r"^fpr must lie in \[0, 1\].*; got nan$"),
        (lambda: dep.three_views(math.nan), r"^epsilon must be ≥ 0 and finite; got nan$"),
        (lambda: dep.three_views(1.0, prior=math.nan), r"^prior must lie in the open .*got nan$"),
        (lambda: dep.three_views(1.0, delta=math.inf), r"^delta must lie in \[0, 1\).*got inf$"),
        (lambda: dep.three_views(1.0, rho=math.nan), r"^rho must lie in \[0, 1e\+08\].*got nan$"),
        (lambda: dep.load(default_delta=0), r"^default_delta must lie in the open.*; got 0$"),
        (lambda: dep.load(default_delta=math.nan), r"^default_delta must lie in .*; got nan$"),
    ],
)
def test_every_check_names_the_range_and_the_value_as_given(call, message):
    with pytest.raises(ValueError, match=message):
        call()
