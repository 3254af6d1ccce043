"""helpers.budget.workload_choice: both sides for a workload (choose_workload): the verdict, the
knobs that open the interval (each fed back makes the choice feasible), and workloads with one
noise per release judged on their own privacy-loss distribution.
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np
import pytest
from _workloads import (
    COUNT,
    MEAN,
    RISK_08,
    RISKS,
    _fields,
    _integer,
    _random_workload,
    _workload_for,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import budget as B
from helpers import choose as ch
from helpers import deployments as dep
from helpers import mechanisms as m
from helpers.plotting.budget import SURVEY  # the notebook's survey

mpmath.mp.dps = 60


# --- both sides ---------------------------------------------------------------------------


def test_one_release_workload_reads_like_choose():
    for release, kwargs in ((COUNT, {}), (MEAN, {"lower": 0, "upper": 100, "n": 200})):
        for eps_risk in (0.2, 5.0):
            one = ch.choose(
                release.kind,
                k=release.k,
                epsilon_risk=eps_risk,
                prior=0.5,
                neighbours="change-one",
                **kwargs,
            )
            many = B.choose_workload([release], eps_risk)
            assert many.feasible == one.feasible
            assert many.epsilon_accuracy == pytest.approx(one.epsilon_accuracy, rel=1e-14)
            assert many.epsilon_risk == one.epsilon_risk
            assert many.knobs["k"][0] == pytest.approx(one.knobs["k"], rel=1e-12)
            assert many.knobs["coverage"][0] == pytest.approx(one.knobs["coverage"], rel=1e-12)
            if release.kind == "mean":
                assert many.knobs["n"] == {0: one.knobs["n"]}


@pytest.mark.parametrize("mechanism", B.MECHANISMS)
@pytest.mark.parametrize("risk", RISKS, ids=lambda r: f"{r.kind}-{r.level}")
def test_every_knob_opens_the_interval(mechanism, risk):
    tight = (  # integer noise releases no mean (its Δ is not an integer): a tight sum
        B.Release("sum", k=0.5, lower=0, upper=1, label="tight sum")
        if _integer(mechanism)
        else B.Release("mean", k=0.01, lower=0, upper=10, n=500, label="tight mean")
    )
    workload = [
        B.Release("count", k=20.0),
        B.Release("sum", k=200.0, lower=0, upper=10),
        tight,
        B.Release("sum", k=100.0, lower=-1, upper=1, coverage=0.99),
    ]
    choice = B.choose_workload(workload, risk, mechanism=mechanism, delta=1e-8)
    assert not choice.feasible
    assert "no total meets both" in choice.message
    allowed = choice.at_risk.total
    knobs = choice.knobs

    def feasible(new_workload, new_risk=risk):
        return B.choose_workload(new_workload, new_risk, mechanism=mechanism, delta=1e-8).feasible

    widened = [
        B.Release(**{**_fields(r), "k": r.k * knobs["widen"] * (1 + 1e-12)}) for r in workload
    ]
    assert feasible(widened)
    narrower = [B.Release(**{**_fields(r), "k": r.k * knobs["widen"] * 0.999}) for r in workload]
    assert not feasible(narrower)
    kept = [r for i, r in enumerate(workload) if i not in knobs["drop"]]
    assert kept == [] or feasible(kept)
    fewer = knobs["drop"][:-1]  # one release fewer dropped is not enough
    assert not feasible([r for i, r in enumerate(workload) if i not in fewer])
    for i, k_needed in enumerate(knobs["k"]):
        if math.isfinite(k_needed):
            alone = list(workload)
            alone[i] = B.Release(**{**_fields(workload[i]), "k": k_needed * (1 + 1e-12)})
            assert feasible(alone)
    if "n" in knobs and all(v is not None for v in knobs["n"].values()):  # means only
        more = [
            B.Release(**{**_fields(r), "n": knobs["n"][i]}) if i in knobs["n"] else r
            for i, r in enumerate(workload)
        ]
        assert feasible(more)
    riskier = dataclasses.replace(risk, level=knobs["risk"] * (1 + 1e-9))
    if risk.kind in ("epsilon", "profile") or riskier.level < 1:  # a probability stays below 1
        assert feasible(workload, riskier)
    # the variance-optimal split of what the risk allows misses some targets
    assert not choice.at_risk.meets.all()
    assert choice.at_risk.total <= allowed
    np.testing.assert_array_equal(knobs["coverage"], choice.at_risk.coverage)


@pytest.mark.parametrize("mechanism", B.MECHANISMS)
def test_a_feasible_workload_splits_the_risk_total_meeting_every_target(mechanism):
    choice = B.choose_workload(_workload_for(mechanism), 20.0, mechanism=mechanism, delta=1e-6)
    assert choice.feasible and choice.knobs["drop"] == [] and choice.knobs["widen"] < 1
    assert choice.at_risk.meets.all()
    assert choice.at_risk.total <= B.total_for_risk(20.0, mechanism=mechanism, delta=1e-6)
    assert choice.accuracy.total <= choice.at_risk.total
    assert choice.message.startswith("feasible")
    # the slack goes where it lowers the weighted variance: below the accuracy allocation's
    assert choice.at_risk.variance < choice.accuracy.variance


def test_n_knob_is_none_when_counts_and_sums_alone_exceed_the_risk():
    workload = [B.Release("count", k=1.0), MEAN]
    choice = B.choose_workload(workload, 1.0)  # the count alone needs ln 20 ≈ 3.0
    assert choice.knobs["n"] == {1: None}
    assert choice.knobs["drop"] == [0]
    assert math.isinf(choice.knobs["k"][1])  # the mean alone cannot open it


@given(seed=st.integers(0, 10**6), mechanism=st.sampled_from(B.MECHANISMS), eps=st.floats(0.05, 20))
def test_choose_workload_is_feasible_iff_the_totals_allow(seed, mechanism, eps):
    rng = np.random.default_rng(seed)
    workload = _random_workload(rng, int(rng.integers(1, 6)), integer=_integer(mechanism))
    choice = B.choose_workload(workload, eps, mechanism=mechanism, delta=1e-6)
    assert choice.feasible == (
        choice.accuracy.total <= B.total_for_risk(eps, mechanism=mechanism, delta=1e-6)
    )
    if choice.feasible:
        assert choice.at_risk.meets.all()
    assert choice.epsilon_risk <= eps


# --- workloads judged on their own distribution ----------------------------------------------


def _objects(noises, scales, sensitivities):
    return [
        B.NoiseFamily.of(n).mechanism(float(b), sensitivity=float(s))
        for n, b, s in zip(noises, scales, sensitivities, strict=True)
    ]


@pytest.mark.parametrize(
    "risk",
    [RISK_08, B.risk_tpr(0.04, fpr=0.01), B.risk_epsilon(1.2), B.risk_posterior(0.9, prior=0.3)],
)
@pytest.mark.parametrize("kind", ["laplace", "gaussian", "mixed"])
def test_a_workload_with_one_noise_per_release_is_judged_on_its_own_distribution(risk, kind):
    noises = (
        [kind] * len(SURVEY)
        if kind != "mixed"
        else ["gaussian" if r.kind == "mean" else "laplace" for r in SURVEY]
    )
    choice = B.choose_workload(list(SURVEY), risk, mechanism=noises, delta=1e-6)
    acc, at_risk = choice.accuracy, choice.at_risk

    def reading(scales):
        objects = _objects(noises, scales, acc.sensitivities)
        if risk.kind == "tpr":
            return B.attack_tpr(objects, fpr=risk.fpr), risk.level
        if risk.kind == "epsilon" and kind == "gaussian":  # one Gaussian of μ: δ(ε) exactly
            mu = math.sqrt(math.fsum((acc.sensitivities / scales) ** 2))
            return float(m.Gaussian(1.0, sensitivity=mu).delta(risk.level)), 1e-6
        if risk.kind == "epsilon":
            return B.pld_epsilon(1e-6, objects), risk.level
        return B.loss_epsilon(objects, delta=1e-6), B.total_for_risk(risk)

    level, limit = reading(acc.scales)
    assert choice.feasible == (level <= limit)
    assert np.all(acc.meets)
    # the widen knob: every scale times it meets the risk, a little less does not (it is
    # searched on a grid of 10⁻³ and to 10⁻³ relative: on the safe side, within 1 %)
    widen = choice.knobs["widen"]
    assert reading(acc.scales * widen * (1 + 1e-9))[0] <= limit
    assert reading(acc.scales * widen / (1 + 1e-2))[0] > limit
    assert np.all(at_risk.meets) == (widen <= 1 + 1e-9)
    if not choice.feasible:  # dropping the named releases fits
        kept = [i for i in range(len(SURVEY)) if i not in choice.knobs["drop"]]
        objects = _objects([noises[i] for i in kept], acc.scales[kept], acc.sensitivities[kept])
        if risk.kind == "tpr":
            assert B.attack_tpr(objects, fpr=risk.fpr) <= risk.level
        elif risk.kind != "epsilon":
            assert B.loss_epsilon(objects, delta=1e-6) <= limit


def test_the_exact_gaussian_readings_of_the_issue():
    # issue 29, item 2: the exact composed-Gaussian curve allows ρ_z 0.05127 where CKS allows
    # 0.04475 (at ε = ln 4, δ = 1e-6, hockey-stick); the bad-event reading allows
    # μ²/2 with μ²/2 + μ·z = ln 4, z = Φ⁻¹(1 − δ)
    gaussians = ["gaussian"] * len(SURVEY)
    hockey = B.choose_workload(
        list(SURVEY), B.risk_epsilon(math.log(4)), mechanism=gaussians, delta=1e-6
    )
    assert round(math.fsum(hockey.at_risk.budgets), 5) == pytest.approx(0.05127, abs=2e-5)
    # and recomputed: the exact Gaussian ε of that total at δ is within ln 4, and a total
    # 0.1 % larger is not (the largest such ρ_z; deployments' tight Gaussian conversion)
    total = math.fsum(hockey.at_risk.budgets)
    assert dep.gaussian_epsilon(total, 1e-6) <= math.log(4)
    assert dep.gaussian_epsilon(total * 1.001, 1e-6) > math.log(4)
    bad_event = B.choose_workload(list(SURVEY), RISK_08, mechanism=gaussians, delta=1e-6)
    z = float(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(1e-6)))
    mu = -z + math.sqrt(z * z + 2 * math.log(4))
    assert math.fsum(bad_event.at_risk.budgets) == pytest.approx(mu * mu / 2, rel=2e-4)
    assert math.fsum(bad_event.at_risk.budgets) <= mu * mu / 2
    with pytest.raises(ValueError, match="one noise per release"):
        B.choose_workload(list(SURVEY), RISK_08, mechanism=["laplace"], delta=1e-6)
    with pytest.raises(ValueError, match="mechanism"):
        B.choose_workload(list(SURVEY), RISK_08, mechanism=["uniform"] * 6, delta=1e-6)


# ------------------------------------------- inverses round-trip on the safe side (issue 29)


@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(1, 5),
    mechanism=st.sampled_from(["laplace", "gaussian"]),
    kind=st.sampled_from(["posterior", "tpr", "epsilon"]),
)
def test_every_workload_knob_fed_back_makes_the_choice_feasible(seed, size, mechanism, kind):
    # issue 29's class: a knob returned by the choice, fed back, opens the interval. The risk
    # knob was a few ulps short (total_for_risk rounds down): 135 of 150 random workloads
    import dataclasses

    rng = np.random.default_rng(seed)
    workload = _random_workload(rng, size)
    risk = {
        "posterior": B.risk_posterior(float(rng.uniform(0.55, 0.95)), prior=0.5),
        "tpr": B.risk_tpr(float(rng.uniform(0.05, 0.5)), fpr=0.01),
        "epsilon": B.risk_epsilon(float(rng.uniform(0.05, 3.0))),
    }[kind]
    run = dict(mechanism=mechanism, delta=1e-6)
    choice = B.choose_workload(workload, risk, **run)
    level = choice.knobs["risk"]
    if level < (1.0 if kind != "epsilon" else math.inf):
        assert B.choose_workload(workload, risk._replace(level=level), **run).feasible
    wider = [dataclasses.replace(r, k=r.k * choice.knobs["widen"]) for r in workload]
    assert B.choose_workload(wider, risk, **run).feasible
    for i, k in enumerate(np.atleast_1d(choice.knobs["k"]).tolist()):
        if math.isfinite(k) and k <= B.MAX_MAGNITUDE:
            alone = [*workload[:i], dataclasses.replace(workload[i], k=k), *workload[i + 1 :]]
            assert B.choose_workload(alone, risk, **run).feasible
