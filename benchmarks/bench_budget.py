"""One budget for many releases (notebook 11): allocating a workload of 10⁴ releases (target
< 50 ms) and composing 1,000 Laplace or Gaussian releases through their privacy-loss
distributions to δ(ε) (target < 2 s), beside the optimal (KOV) composition.

Each PLD row builds its distribution afresh: the discretization moves by 10⁻⁹ of itself per
call, so helpers.budget's cache of composed distributions never answers. dp_accounting is imported
before timing (its first import is not composition).
"""

from __future__ import annotations

import itertools

import dp_accounting.pld.privacy_loss_distribution  # noqa: F401  (imported before timing)
import numpy as np
from _timing import best_of, fmt

from helpers import budget as B

WORKLOAD_TARGET = 50e-3
PLD_TARGET = 2.0


def workload(size: int, *, seed: int = 0, n: int = 1_000) -> list:
    """A mixed workload of counts, sums and means with public bounds (one data set of n)."""
    rng = np.random.default_rng(seed)
    out = []
    for i, kind in enumerate(rng.integers(3, size=size)):
        upper = float(rng.uniform(1, 100))
        weight = float(rng.choice([0.5, 1.0, 2.0]))
        if kind == 0:
            out.append(B.Release("count", k=float(rng.uniform(1, 50)), weight=weight))
        elif kind == 1:
            out.append(
                B.Release(
                    "sum", k=float(rng.uniform(10, 500)), lower=0.0, upper=upper, label=f"s{i}"
                )
            )
        else:
            out.append(
                B.Release("mean", k=float(rng.uniform(0.01, 1)), lower=0.0, upper=upper, n=n)
            )
    return out


_SHIFTS = itertools.count()


def _fresh(make):
    """A callable that builds a new PLD each call (the grid step moves by 10⁻⁹ of itself)."""
    return lambda: make(1e-4 * (1 + 1e-9 * next(_SHIFTS)))


def main() -> None:
    big = workload(10_000)
    risk = B.risk_posterior(0.9, prior=0.5)
    rows = [
        (
            "workload_sensitivities, 10⁴ releases (validate + Δ)",
            lambda: B.workload_sensitivities(big),
            WORKLOAD_TARGET,
        ),
        (
            "budget_for_accuracy, 10⁴ releases, Laplace",
            lambda: B.budget_for_accuracy(big),
            WORKLOAD_TARGET,
        ),
        (
            "budget_for_accuracy, 10⁴ releases, Gaussian (zCDP)",
            lambda: B.budget_for_accuracy(big, mechanism="gaussian"),
            WORKLOAD_TARGET,
        ),
        (
            "split_budget, 10⁴ releases, Laplace",
            lambda: B.split_budget(big, 100.0),
            WORKLOAD_TARGET,
        ),
        (
            "split_budget, 10⁴ releases, Gaussian",
            lambda: B.split_budget(big, 10.0, mechanism="gaussian"),
            WORKLOAD_TARGET,
        ),
        (
            "split_budget meeting every target (water-filling), 10⁴",
            lambda: B.split_budget(big, 1e5, meet_targets=True),
            WORKLOAD_TARGET,
        ),
        (
            "choose_workload, 10⁴ releases, posterior risk",
            lambda: B.choose_workload(big, risk),
            None,
        ),
    ]
    pld_rows = [
        (
            "pld_delta: 1,000 Laplace (b = 10: ε = 0.1 each), δ at ε = 5",
            _fresh(lambda s: B.pld_delta(5.0, "laplace", 10.0, times=1_000, discretization=s)),
            PLD_TARGET,
        ),
        (
            "pld_delta: 1,000 Gaussian (σ = 30), δ at ε = 5",
            _fresh(lambda s: B.pld_delta(5.0, "gaussian", 30.0, times=1_000, discretization=s)),
            PLD_TARGET,
        ),
        (
            "pld_epsilon: 1,000 Laplace (b = 10), ε at δ = 10⁻⁶",
            _fresh(lambda s: B.pld_epsilon(1e-6, "laplace", 10.0, times=1_000, discretization=s)),
            PLD_TARGET,
        ),
        (
            "pld_delta: 1,000 Laplace (b = 1: ε = 1 each), δ at ε = 50",
            _fresh(lambda s: B.pld_delta(50.0, "laplace", 1.0, times=1_000, discretization=s)),
            None,
        ),
        (
            "pld_delta: 1,000 distinct Laplace (b in [8, 12]), exact",
            _fresh(
                lambda s: B.pld_delta(5.0, "laplace", np.linspace(8, 12, 1_000), discretization=s)
            ),
            None,
        ),
        (
            "pld_delta: 1,000 distinct Laplace (b in [8, 12]), merge = 0.01",
            _fresh(
                lambda s: B.pld_delta(
                    5.0, "laplace", np.linspace(8, 12, 1_000), discretization=s, merge=0.01
                )
            ),
            None,
        ),
        (
            "pld_delta: 1,000 distinct Gaussian (σ in [25, 35]), merge = 0.01",
            _fresh(
                lambda s: B.pld_delta(
                    5.0, "gaussian", np.linspace(25, 35, 1_000), discretization=s, merge=0.01
                )
            ),
            None,
        ),
    ]
    other_rows = [
        (
            "optimal_composition_delta (KOV), k = 1,000, one ε",
            lambda: B.optimal_composition_delta(5.0, epsilon=0.1, times=1_000),
            None,
        ),
        (
            "optimal_composition_epsilon (KOV inverse, bisection), k = 1,000",
            lambda: B.optimal_composition_epsilon(1e-6, epsilon=0.1, times=1_000),
            None,
        ),
        (
            "advanced_composition, 10⁴ ε at once",
            lambda: B.advanced_composition(
                np.linspace(0.01, 1, 10_000), times=1_000, delta_slack=1e-6
            ),
            None,
        ),
    ]
    print("| operation | best time | target |")
    print("|---|---:|---:|")
    for name, func, target in rows + other_rows:
        seconds = best_of(func, repeat=5)
        print(f"| {name} | {fmt(seconds)} | {_verdict(seconds, target)} |", flush=True)
    for name, func, target in pld_rows:
        seconds = best_of(func, repeat=3)
        print(f"| {name} | {fmt(seconds)} | {_verdict(seconds, target)} |", flush=True)


MIXED_DASHBOARD_TARGET = 150e-3


def mixed_dashboard() -> None:
    """Notebook 11's dashboard on its "mixed" noise: one move of each risk's slider, per risk
    kind (the whole Python-side update: choose_workload on the workload's own PLD, the
    figure, the text), CPU time (``time.process_time``), median and worst of six moves."""
    import statistics
    import time

    import matplotlib

    matplotlib.use("Agg")
    from helpers.widgets.budget import MIXED, budget_dashboard

    dash = budget_dashboard()
    dash.controls["mechanism"].value = MIXED
    print("\n| mixed noise, risk kind | slider | median | worst | target |")
    print("|---|---|---:|---:|---:|")
    sweeps = {
        "posterior": ("risk", [0.78, 0.8, 0.82, 0.84, 0.8, 0.76]),
        "tpr": ("tpr", [0.25, 0.3, 0.35, 0.4, 0.3, 0.2]),
        "epsilon": ("epsilon", [0.8, 1.0, 1.2, 1.5, 1.0, 0.6]),
    }
    for kind, (name, values) in sweeps.items():
        dash.controls["risk_kind"].value = kind
        times = []
        for value in values:
            start = time.process_time()
            dash.controls[name].value = value
            times.append(time.process_time() - start)
        median = statistics.median(times)
        print(
            f"| {kind} | {name} | {fmt(median)} | {fmt(max(times))} | "
            f"{_verdict(median, MIXED_DASHBOARD_TARGET)} |",
            flush=True,
        )


def _verdict(seconds: float, target: float | None) -> str:
    if target is None:
        return ""
    return f"< {fmt(target)} {'✓' if seconds < target else '✗'}"


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["mixed"]:  # python benchmarks/bench_budget.py mixed: that case alone
        mixed_dashboard()
    else:
        main()
        mixed_dashboard()
