"""The numbers and the claims behind the answer key's written answers, computed by the helpers.

The written answers in ``instructor/key/nbNN.json`` never type a number: they name a *fact*,
``[[name]]`` or ``[[name:.4f]]`` (a Python format spec), and the key fills it in here when it
is built. Every judgement a written answer makes ("the search's ε is larger", "σ² = 3 is not
among them") is a *claim* below, recomputed at build time: the key refuses to build if one of
them no longer holds, and tests/instructor/answer_key/test_answer_key.py checks them all.

Each ``_nbNN_K`` function computes the facts of exercise NN.K (names prefixed ``eNN_K_``) and
records its claims with ``claim(text, holds)``.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable
from contextlib import redirect_stdout

import numpy as np

from helpers import budget as bud
from helpers import choose as ch
from helpers import deployments as dep
from helpers import dpsgd as sgd
from helpers import foundations as F
from helpers import kazan_reiter as kr
from helpers import lee_clifton as lc
from helpers import plrv
from helpers.datasets import school, school_release
from helpers.exercises import OPEN, answers
from helpers.sensitivity import bounded_sensitivity, unbounded_sensitivity

_FACTS: list[Callable] = []


class Claim:
    """One judgement a written answer makes, with whether it holds now."""

    def __init__(self, exercise_id: str, text: str, holds: bool):
        self.exercise_id, self.text, self.holds = exercise_id, text, bool(holds)

    def __repr__(self) -> str:
        return f"Claim({self.exercise_id!r}, {self.text!r}, holds={self.holds})"


def _facts(exercise_id: str):
    def register(func):
        func.exercise_id = exercise_id
        _FACTS.append(func)
        return func

    return register


def _school():
    return school(), len(school_release())


# --- notebook 00 --------------------------------------------------------------------------


@_facts("00.2")
def _nb00_2(claim):
    eps, ratio = answers.expected("00.2")
    prices = np.array(F.SURVEY_AUCTION_PRICES)
    revenue = F.auction_revenue(prices, F.SURVEY_AUCTION_BIDS)
    bids = list(F.SURVEY_AUCTION_BIDS)
    bids[-1] = 0.0
    moved = float(np.max(np.abs(revenue - F.auction_revenue(prices, bids))))
    delta_s = float(F.auction_revenue_sensitivity(prices))
    claim("the largest |ln(p/p′)| is below ε", ratio <= eps)
    claim("no revenue moves by more than Δs", moved <= delta_s)
    claim("no revenue rises when the bid drops", np.all(F.auction_revenue(prices, bids) <= revenue))
    claim("so the log ratio stays within ε/2", ratio <= eps / 2)
    return {"eps": eps, "ratio": ratio, "share": ratio / eps, "moved": moved, "delta_s": delta_s}


# --- notebook 01 --------------------------------------------------------------------------


@_facts("01.3")
def _nb01_3(claim):
    data, n = _school()
    post = lc.posterior(
        data["absence_days"], n, "mean", np.array([-3.0, 2.2, 5.0, 12.0]), 2.0, prior=[1, 1, 1, 0]
    )
    claim("ω₄'s posterior is exactly 0 at every r tried", np.all(post[:, 3] == 0))
    claim("can_believe is False", answers.expected("01.3")[1] is False)
    return {"post_omega3_at_5": float(post[2, 2])}


# --- notebook 02 --------------------------------------------------------------------------


@_facts("02.3")
def _nb02_3(claim):
    data, n = _school()
    exact = answers.expected("02.3")
    trials = 200_000
    simulated = lc.simulate_attack(
        data["absence_days"], n, "mean", 2.0, true_world=0, trials=trials, rng=7
    )
    error = math.sqrt(exact * (1 - exact) / trials)
    claim(
        "the seeded simulation is within 2 standard errors of the exact value",
        abs(simulated - exact) <= 2 * error,
    )
    return {"exact": exact, "simulated": simulated, "se": error, "trials": trials}


# --- notebook 03 --------------------------------------------------------------------------


@_facts("03.2")
def _nb03_2(claim):
    data, n = _school()
    grid = np.linspace(0.01, 5, 500)
    smallest, where = math.inf, None
    for query in ("mean", "median"):
        for column in ("school_year", "absence_days"):
            gaps = lc.upper_bound(data[column], n, query, grid) - lc.tight_bound(
                data[column], n, query, grid
            )
            if gaps.min() < smallest:
                smallest, where = float(gaps.min()), (query, column, float(grid[gaps.argmin()]))
    claim("the smallest gap is positive", smallest > 0)
    claim("the smallest gap is at the smallest ε of the grid", where[2] == grid[0])
    return {
        "gap": smallest,
        "query": where[0],
        "column": where[1],
        "at_eps": where[2],
        "worlds": lc.count_worlds(data["absence_days"], n),
    }


@_facts("03.3")
def _nb03_3(claim):
    universe, size = [1.2, 2.3, 3.1, 4.9, 7.7, 12.4], 3
    queries = ("mean", "median", "max")
    bounded = np.array([bounded_sensitivity(universe, size, q, k=3) for q in queries])
    dv = np.array([lc.delta_v(universe, size, q) for q in queries])
    claim(
        "bounded sensitivity at k = 3 equals Δv for all three queries",
        np.allclose(bounded, dv, rtol=0, atol=1e-12),
    )
    return {"mean": dv[0], "median": dv[1], "max": dv[2]}


# --- notebook 04 --------------------------------------------------------------------------


@_facts("04.2")
def _nb04_2(claim):
    data, n = _school()
    eps7 = answers.expected("04.2")
    columns = ("school_year", "absence_days")
    risks = np.array([0.3, 0.5, 0.8])
    upper = np.array(
        [
            [lc.upper_bound(data[c], n, "mean", e) for c, e in zip(columns, row, strict=True)]
            for row in eps7
        ]
    )
    off = float(np.max(np.abs(upper - risks[:, None])))
    claim("upper_bound at each ε of inequality 7 equals its ρ (to 1e-12)", off < 1e-12)
    return {"off": off}


@_facts("04.3")
def _nb04_3(claim):
    eight = [1, 2, 3, 10, 4, 6, 0, 5]
    try:
        lc.epsilon_upper_bound(eight, 5, "mean", 0.01)
        message = None
    except ValueError as error:
        message = str(error)
    claim("epsilon_upper_bound refuses ρ = 0.01 with a ValueError", message is not None)
    worlds = lc.count_worlds(eight, 5)
    claim("the refusal is at 1/W", answers.expected("04.3") == 1 / worlds)
    return {"message": message or "", "worlds": worlds, "prior": 1 / worlds}


# --- notebook 05 --------------------------------------------------------------------------


@_facts("05.1")
def _nb05_1(claim):
    data, n = _school()
    medians = lc.world_values(data["school_year"], n, "median")
    delta_f = float(unbounded_sensitivity(data["school_year"], n, "median"))
    eps = np.array([0.3, 1.0, 3.0])
    formula = 1 / (2 + 2 * np.exp(-eps))
    claim(
        "the worlds' medians are two pairs one Δf apart",
        sorted(medians.tolist()) == [2, 2, 3, 3] and delta_f == 1.0,
    )
    claim(
        "tight_bound equals 1/(2 + 2e^(−ε))",
        np.allclose(lc.tight_bound(data["school_year"], n, "median", eps), formula),
    )
    return {"medians": ", ".join(f"{m:g}" for m in medians), "delta_f": delta_f}


@_facts("05.2")
def _nb05_2(claim):
    data, n = _school()
    from helpers.exercises.answers.nb05 import value_range

    eps_ub, eps_bs = answers.expected("05.2")
    claim("the binary search's ε is at least inequality 7's", eps_bs >= eps_ub)
    return {
        "delta_f": float(unbounded_sensitivity(data["absence_days"], n, value_range)),
        "delta_v": float(lc.delta_v(data["absence_days"], n, value_range)),
        "eps_ub": eps_ub,
        "eps_bs": eps_bs,
    }


@_facts("05.3")
def _nb05_3(claim):
    universe = list(range(1, 15))
    medians = lc.world_values(universe, 13, "median")
    rho = answers.expected("05.3")
    low = lc.binary_search_epsilon(universe, 13, "median", 0.14)
    claim(
        "the worlds' medians are 7 (seven worlds) and 8 (seven worlds)",
        sorted(medians.tolist()) == [7.0] * 7 + [8.0] * 7,
    )
    claim("the threshold is 1/7", math.isclose(rho, 1 / 7))
    claim("the search is finite just below 1/7", math.isfinite(low))
    claim(
        "the search returns ∞ at 1/7",
        math.isinf(lc.binary_search_epsilon(universe, 13, "median", 1 / 7)),
    )
    return {"rho": rho, "eps_014": low}


# --- notebook 07 --------------------------------------------------------------------------


@_facts("07.1")
def _nb07_1(claim):
    r = answers.expected("07.1")
    eps = kr.epsilon_inclusion_profile(0.5, 1.0, r)
    claim("ε = ln(97/3) at the answer", math.isclose(eps, math.log(97 / 3)))
    claim(
        "the switching probability there is 3 %",
        math.isclose(float(kr.durham_switch_probability(eps, 0.25)), 0.03),
    )
    above, _, threshold = kr.durham_true_counts(0.25)
    claim(
        "Durham's count above is 1 death over the threshold's floor",
        above - math.floor(threshold) == 1,
    )
    return {"eps": eps, "r": r, "count": above, "threshold": threshold}


@_facts("07.2")
def _nb07_2(claim):
    above, below, threshold = kr.durham_true_counts(0.25, births=12_000)
    p_above, p_below = answers.expected("07.2")
    eps = kr.epsilon_inclusion_profile(0.5, 1.0, 5.0)
    claim("Example 3's ε is ln 9", math.isclose(eps, math.log(9)))
    claim("the threshold is a whole count, 72", threshold == 72)
    claim("the above side switches more often", p_above > p_below)
    claim("the two probabilities differ by e^ε = 9", math.isclose(p_above / p_below, 9))
    return {
        "above": above,
        "below": below,
        "threshold": threshold,
        "p_above": p_above,
        "p_below": p_below,
        "eps": eps,
        "ratio": p_above / p_below,
    }


@_facts("07.3")
def _nb07_3(claim):
    days = school()["absence_days"]
    eps_closed, eps_search = answers.expected("07.3")
    kr_eps = kr.epsilon_lee_clifton_setting(len(days), 0.4)  # eq. (38) at the same ã = ρ
    maxima = lc.world_values(days, len(days) - 1, "max")
    claim("the two ε agree to 1e-6", abs(eps_closed - eps_search) < 1e-6)
    claim("both are above Kazan & Reiter's", min(eps_closed, eps_search) > kr_eps)
    claim(
        "one world's maximum differs from the other three's, which are equal",
        sorted(maxima.tolist()) == [3.0, 10.0, 10.0, 10.0],
    )
    return {
        "closed": eps_closed,
        "search": eps_search,
        "kr": kr_eps,
        "delta_v": float(lc.delta_v(days, len(days) - 1, "max")),
    }


# --- notebook 08 --------------------------------------------------------------------------


@_facts("08.1")
def _nb08_1(claim):
    eps = plrv.POST_EPSILON
    low, high = answers.expected("08.1")
    grid = np.linspace(low, high, 201)
    delta2 = plrv.gaussian_delta(eps, np.sqrt(grid))
    middle = float(plrv.gaussian_delta(eps, math.sqrt((low + high) / 2)))
    at_three = float(plrv.gaussian_delta_naive(eps, math.sqrt(3.0)))
    claim("σ² = 3 is outside the interval", not low <= 3 <= high)
    claim("δ₁ at σ² = 3 rounds to 0.053", round(at_three, 3) == 0.053)
    claim("δ₂ rounds to 0.011 all over the interval", np.all(np.round(delta2, 3) == 0.011))
    return {"low": low, "high": high, "at_three": at_three, "middle": middle}


@_facts("08.2")
def _nb08_2(claim):
    grid = np.array([0.1, 1.0, 3.0, 10.0])
    values = {}
    for threshold in (6.0, 7.0):
        p, q = plrv.thresholding_pmfs(threshold=threshold, scale=plrv.POST_LAPLACE_SCALE, count=1.0)
        d1, d2 = plrv.pmf_delta_naive(grid, p, q), plrv.pmf_delta(grid, p, q)
        closed = 0.5 * 3.0 ** -(threshold - 1)
        claim(
            f"δ₁ = δ₂ = ½·3^−(T−1) at every ε (T = {threshold:g})",
            np.allclose(d1, closed, rtol=1e-9) and np.allclose(d2, closed, rtol=1e-9),
        )
        values[f"t{int(threshold)}"] = closed
    return values


@_facts("08.3")
def _nb08_3(claim):
    closed = answers.expected("08.3")
    _, p, q = plrv.discretise_mechanism("laplace", 2.0, bins=40_001)
    binned = float(plrv.pmf_delta(0.2, p, q))
    claim(
        "the binned hockey-stick sum agrees with the closed form to 1e-5",
        abs(binned - closed) < 1e-5,
    )
    return {"closed": closed, "binned": binned, "diff": abs(binned - closed)}


@_facts("08.4")
def _nb08_4(claim):
    s1, s10 = answers.expected("08.4")
    claim("σ scales exactly with Δ", math.isclose(s10 / s1, 10.0, rel_tol=1e-12))
    return {"s1": s1, "s10": s10}


# --- notebook 09 --------------------------------------------------------------------------


@_facts("09.1")
def _nb09_1(claim):
    tight, simple = answers.expected("09.1")
    claim("the simple conversion is larger", simple > tight)
    return {"tight": tight, "simple": simple, "over": simple - tight, "rel": simple / tight - 1}


@_facts("09.2")
def _nb09_2(claim):
    with_delta, pure = answers.expected("09.2")
    claim("δ adds exactly δ = 1e-5 at FPR 5 % (to 1e-12)", abs((with_delta - pure) - 1e-5) < 1e-12)
    return {"with": with_delta, "pure": pure, "added": with_delta - pure}


# --- notebook 10 --------------------------------------------------------------------------


@_facts("10.2")
def _nb10_2(claim):
    eps_sum = answers.expected("10.1")
    eps_risk, eps_kr = answers.expected("10.2")
    claim("the sum is feasible under the posterior bound", eps_sum <= eps_risk)
    claim("the sum is feasible under the profile", eps_sum <= eps_kr)
    return {"sum": eps_sum, "risk": eps_risk, "kr": eps_kr}


@_facts("10.4")
def _nb10_4(claim):
    needed = answers.expected("10.4")
    rows = [
        (r, a, ch.epsilon_for_profile("inclusion", r=r, a=a, fixed=1.0))
        for r in (1.2, 2.0, 5.0)
        for a in (0.0, 0.1, 0.25, 0.5)
    ]
    allow = [(r, a, e) for r, a, e in rows if e >= needed]
    claim(
        "exactly the four profiles with r̃ = 5 allow it",
        [(r, a) for r, a, _ in allow] == [(5.0, a) for a in (0.0, 0.1, 0.25, 0.5)],
    )
    largest_refused = max(e for _, _, e in rows if e < needed)
    return {
        "needed": needed,
        "allowing": "; ".join(f"r̃ = {r:g}, ã = {a:g} (ε_risk = {e:.4f})" for r, a, e in allow),
        "largest_refused": largest_refused,
    }


# --- notebook 11 --------------------------------------------------------------------------


@_facts("11.1")
def _nb11_1(claim):
    advanced, optimal = answers.expected("11.1")
    basic = bud.compose_epsilon([0.12] * 45)
    claim("the basic sum is 45 × 0.12 = 5.4", math.isclose(basic, 5.4))
    claim("advanced composition is below the sum", advanced < basic)
    claim("the optimal composition is below advanced", optimal < advanced)
    return {"basic": basic, "advanced": advanced, "optimal": optimal}


@_facts("11.2")
def _nb11_2(claim):
    from helpers.exercises.answers.nb11 import SURVEY

    laplace, rho = answers.expected("11.2")
    risk = bud.risk_posterior(0.8, prior=0.5)
    allowed_eps = bud.total_for_risk(risk)
    allowed_rho = bud.total_for_risk(risk, mechanism="gaussian", delta=1e-6)
    six = bud.budget_for_accuracy(list(SURVEY)).total
    claim("the risk of §2 allows ε = ln 4", math.isclose(allowed_eps, math.log(4)))
    claim("Laplace does not fit", laplace > allowed_eps)
    claim("Gaussian does not fit", rho > allowed_rho)
    claim("the six-release survey fitted under Laplace", six <= allowed_eps)
    return {
        "laplace": laplace,
        "rho": rho,
        "allowed_eps": allowed_eps,
        "allowed_rho": allowed_rho,
        "six": six,
    }


@_facts("11.3")
def _nb11_3(claim):
    rho, eps = answers.expected("11.3")
    total = float(
        dep.usable()
        .query("name == 'Disclosure Avoidance System for Redistricting Data'")["rho"]
        .iloc[0]
    )
    tpr_total = float(dep.gaussian_tpr_at_fpr(0.01, rho=total))
    claim("the redistricting total is above the agency's ρ_z", total > rho)
    claim("at the redistricting total the Gaussian TPR exceeds 0.35", tpr_total > 0.35)
    return {"rho": rho, "eps": eps, "total": total, "ratio": total / rho, "tpr_total": tpr_total}


# --- notebook 12 --------------------------------------------------------------------------


@_facts("12.1")
def _nb12_1(claim):
    eps, delta = answers.expected("12.1")
    m, d, e = 3, 1e-8, 0.37
    naive = m * d
    vadhan = m * math.exp((m - 1) * e) * d
    geometric = d * math.fsum(math.exp(i * e) for i in range(m))
    claim("ε per person is 3 × 0.37", math.isclose(eps, 3 * e))
    claim("δ per person is the geometric sum", math.isclose(delta, geometric, rel_tol=1e-12))
    claim("δ per person exceeds mδ", delta > naive)
    claim("δ per person is at most the simpler m·e^((m−1)ε)·δ", delta <= vadhan)
    return {"eps": eps, "delta": delta, "ratio": delta / naive, "vadhan": vadhan}


@_facts("12.4")
def _nb12_4(claim):
    from helpers.exercises.answers.nb11 import SURVEY

    laplace, rho = answers.expected("12.4")
    risk = bud.risk_posterior(0.8, prior=0.5)
    allowed_eps = bud.total_for_risk(risk)
    allowed_rho = bud.total_for_risk(risk, mechanism="gaussian", delta=1e-6)
    one = bud.budget_for_accuracy(list(SURVEY)).total
    claim("Laplace per person does not fit", laplace > allowed_eps)
    claim("Gaussian per person does not fit", rho > allowed_rho)
    claim("one record per person fitted under Laplace", one <= allowed_eps)
    claim("two records double the Laplace total", math.isclose(laplace, 2 * one, rel_tol=1e-9))
    return {
        "laplace": laplace,
        "rho": rho,
        "allowed_eps": allowed_eps,
        "allowed_rho": allowed_rho,
        "one": one,
    }


# --- notebook 13 --------------------------------------------------------------------------


@_facts("13.1")
def _nb13_1(claim):
    steps, eps = answers.expected("13.1")
    p = answers.get("13.1").defaults()
    half = sgd.dpsgd_epsilon(p["noise_multiplier"], p["sample_rate"], steps // 2, delta=p["delta"])
    claim("half the epochs lowers ε", half < eps)
    claim("half the epochs lowers ε by less than half", half > eps / 2)
    return {"steps": steps, "eps": eps, "half": half, "ratio": half / eps}


@_facts("13.2")
def _nb13_2(claim):
    sigma_eps, sigma_att = answers.expected("13.2")
    p = answers.get("13.2").defaults()
    eps_att = sgd.dpsgd_epsilon(sigma_att, p["sample_rate"], p["steps"], delta=p["delta"])
    claim("the attack-calibrated σ is smaller", sigma_att < sigma_eps)
    claim("the attack-calibrated σ's ε exceeds the target", eps_att > p["epsilon"])
    return {"sigma_eps": sigma_eps, "sigma_att": sigma_att, "eps_att": eps_att}


@_facts("13.3")
def _nb13_3(claim):
    lower = answers.expected("13.3")
    claim("the audit proves less than the accounted ε = 2", lower < 2)
    claim("the audit proves a positive ε", lower > 0)
    return {"lower": lower}


# --- the open exercises: the notebook's worked answer, run and judged ------------------------


def _open_context(exercise_id: str) -> dict:
    """What the solution cell of an open exercise uses from its notebook's earlier cells."""
    if exercise_id == "01.2":
        data, n = _school()
        params = {"params_01_2": OPEN["01.2"].defaults()}
        return {"np": np, "prior": lc.prior, "data": data, "n": n, **params}
    if exercise_id == "06.3":
        return {"np": np, "kr": kr, "math": math}
    if exercise_id == "11.4":
        return {"np": np, "bud": bud}
    raise ValueError(f"no context for the open exercise {exercise_id}")


@functools.cache
def run_open_solution(exercise_id: str, source: str) -> dict:
    """Run an open exercise's worked answer; return what it printed and the check's verdict.

    Once per process and source (06.3's check searches the profile, about a second)."""
    namespace = _open_context(exercise_id)
    printed = io.StringIO()
    with redirect_stdout(printed):
        exec(compile(source, f"<solution {exercise_id}>", "exec"), namespace)
    spec = OPEN[exercise_id]
    value = namespace[spec.names[0]]
    reduced = spec.reduce(value)
    ok, hint = spec.judge(reduced, spec.defaults())
    return {
        "printed": printed.getvalue().rstrip(),
        "ok": ok,
        "hint": hint,
        "value": value,
        "reduced": reduced,
    }


def open_facts(exercise_id: str, worked: dict) -> dict:
    """Facts about an open exercise's worked answer (11.4: the release that costs the most)."""
    if exercise_id != "11.4":
        return {}
    workload = worked["value"]
    budgets = bud.budget_for_accuracy(workload).budgets
    costliest = int(np.argmax(budgets))
    return {
        "costliest": workload[costliest].label,
        "costliest_eps": float(budgets[costliest]),
        "costliest_share": float(budgets[costliest] / budgets.sum()),
        "total": float(budgets.sum()),
    }


# --- all of them ----------------------------------------------------------------------------


@functools.cache
def compute() -> tuple[dict, tuple[Claim, ...]]:
    """Every fact (``eNN_K_name``) and every claim, recomputed once per process."""
    facts: dict = {}
    claims: list[Claim] = []
    for func in _FACTS:
        eid = func.exercise_id
        prefix = "e" + eid.replace(".", "_") + "_"

        def claim(text, holds, eid=eid):
            claims.append(Claim(eid, text, holds))

        for name, value in func(claim).items():
            facts[prefix + name] = value
    return facts, tuple(claims)
