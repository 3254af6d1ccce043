"""Attack risk on a workload's own privacy-loss distribution (notebook 11): the exact curve
(TPR at 101 false-positive rates), the advantage and the Bayes risk of a 100-release mixed
workload (50 Laplace counts, 50 Gaussian means, every scale distinct), target < 1 s; and the
verdict of notebook 11's survey with mixed noise (its knobs search the composed distribution).

Each call builds the composed distribution afresh (the cache of helpers.attack is emptied
first: a dashboard that changes one release rebuilds it). dp_accounting is imported before
timing (its first import is not composition).
"""

from __future__ import annotations

import dp_accounting.pld.privacy_loss_distribution  # noqa: F401  (imported before timing)
import numpy as np
from _timing import best_of, fmt

from helpers import attack as A
from helpers import budget as B
from helpers.mechanisms import Gaussian, Laplace, TwoSidedGeometric, composition
from helpers.plotting.budget import SURVEY

TARGET = 1.0


def mixed(size: int = 100, *, seed: int = 0) -> list:
    """Half Laplace counts, half Gaussian means, every scale distinct (total ε about 1-3)."""
    rng = np.random.default_rng(seed)
    half = size // 2
    return [Laplace(float(b)) for b in rng.uniform(20, 60, half)] + [
        Gaussian(float(s), sensitivity=0.05) for s in rng.uniform(1, 3, size - half)
    ]


def _fresh(func):
    def run():
        # the composed distributions afresh (one release's own PLD stays cached by value, as
        # it does in a dashboard that changes one release)
        A._GRIDS.clear()
        composition._COMPOSED_PLDS.clear()
        composition._COMPOSED_LOSSES.clear()
        return func()

    return run


def main() -> None:
    work = mixed()
    alpha = np.linspace(0, 1, 101)
    rows = [
        (
            "attack_tpr: exact curve (101 FPRs), 100 mixed releases",
            _fresh(lambda: A.attack_tpr(work, fpr=alpha)),
            TARGET,
        ),
        (
            "attack_tpr + attack_advantage + bayes_risk, 100 mixed releases",
            _fresh(
                lambda: (
                    A.attack_tpr(work, fpr=alpha),
                    A.attack_advantage(work),
                    A.bayes_risk(work, prior=alpha[1:-1]),
                )
            ),
            TARGET,
        ),
        (
            "attack_tpr: 100 identical geometric releases",
            _fresh(lambda: A.attack_tpr([TwoSidedGeometric(50.0)] * 100, fpr=alpha)),
            TARGET,
        ),
        (
            "choose_workload: the survey, mixed noise, posterior risk (the dashboard's redraw)",
            _fresh(
                lambda: B.choose_workload(
                    list(SURVEY),
                    B.risk_posterior(0.8, prior=0.5),
                    mechanism=["gaussian" if r.kind == "mean" else "laplace" for r in SURVEY],
                    delta=1e-6,
                )
            ),
            None,
        ),
        (
            "attack_tpr: 1,000 Gaussian releases (closed form, μ² adds)",
            lambda: A.attack_tpr([Gaussian(30.0)] * 1_000, fpr=alpha),
            None,
        ),
    ]
    print("| operation | best time | target |")
    print("|---|---:|---:|")
    for name, func, target in rows:
        seconds = best_of(func, repeat=3)
        verdict = "" if target is None else f"< {fmt(target)} {'✓' if seconds < target else '✗'}"
        print(f"| {name} | {fmt(seconds)} | {verdict} |", flush=True)


if __name__ == "__main__":
    main()
