"""The workloads, risks and small helpers the tests of helpers.budget share
(tests/helpers/budget/): test files are imported by path and cannot import one another, and
this directory is on sys.path (as tests/_modules.py is).
"""

from __future__ import annotations

import numpy as np

from helpers import budget as B

COUNT = B.Release("count", k=5.0)
SUM = B.Release("sum", k=50.0, lower=0, upper=10)
MEAN = B.Release("mean", k=2.0, lower=0, upper=100, n=200)
WORKLOAD = [COUNT, SUM, MEAN]


def _integer(mechanism) -> bool:
    """Whether the family's noise lives on the integers (its workloads need integer Δ)."""
    return B.NoiseFamily.of(mechanism).mechanism.discrete


def _workload_for(mechanism) -> list:
    """WORKLOAD, or for integer noise the same with the mean as a sum of integer bounds."""
    return (
        [COUNT, SUM, B.Release("sum", k=200.0, lower=0, upper=100)]
        if _integer(mechanism)
        else WORKLOAD
    )


def _exact_budget(mechanism, sensitivity, scale):
    """The budget a scale spends in 60 digits, by the family's measure: Δ/b or Δ²/(2σ²)."""
    if B.NoiseFamily.of(mechanism).measure.pure:
        return sensitivity / scale
    return sensitivity**2 / (2 * scale**2)


def _draws(mechanism, allocation, draws: int, seed: int) -> np.ndarray:
    """(draws, releases) of the family's own noise at each release's scale and Δ, seeded."""
    cls = B.NoiseFamily.of(mechanism).mechanism
    rng = np.random.default_rng(seed)
    pairs = zip(allocation.scales, allocation.sensitivities, strict=True)
    return np.stack([cls._at(float(s), d).sample(draws, rng=rng) for s, d in pairs], axis=1)


def _random_workload(
    rng: np.random.Generator, size: int, n: int | None = None, *, integer: bool = False
) -> list:
    """A mixed workload with one public n (one data set), reproducible from ``rng``.

    ``integer``: counts and sums with integer bounds only (every Δ an integer), the workloads
    integer noise (the geometric, the discrete Gaussian) can release.
    """
    n = n if n is not None else int(rng.integers(20, 5000))
    out = []
    for i in range(size):
        kind = ("count", "sum", "mean")[int(rng.integers(3))]
        if integer and kind == "mean":
            kind = "sum"
        coverage = float(rng.choice([0.5, 0.8, 0.9, 0.95, 0.99]))
        weight = float(rng.choice([0.5, 1.0, 2.0, 10.0]))
        if kind == "count":
            out.append(
                B.Release(
                    "count",
                    k=float(rng.uniform(1, 50)),
                    coverage=coverage,
                    weight=weight,
                    label=f"c{i}",
                )
            )
            continue
        lower = float(rng.uniform(-100, 100))
        upper = lower + float(rng.uniform(0.5, 500))
        if integer:
            lower, upper = float(round(lower)), float(round(lower) + int(rng.integers(1, 500)))
        scale = (upper - lower) if kind == "sum" else (upper - lower) / n
        out.append(
            B.Release(
                kind,
                k=float(scale * rng.uniform(0.5, 30)),
                coverage=coverage,
                lower=lower,
                upper=upper,
                n=n if kind == "mean" else None,
                weight=weight,
                label=f"{kind[0]}{i}",
            )
        )
    return out


FIELDS = ("kind", "k", "coverage", "lower", "upper", "n", "weight", "sensitivity", "label")


CASES = range(24)


def _fields(release: B.Release) -> dict:
    return {name: getattr(release, name) for name in FIELDS}


RISKS = [
    B.risk_epsilon(1.0),
    B.risk_posterior(0.75, prior=0.5),
    B.risk_posterior(0.4, prior=0.25),
    B.risk_profile("constant", r=3.0),
    B.risk_profile("inclusion", r=5.0, a=0.5, fixed=1.0),
    B.risk_profile("values", r=3.0, a=0.15, fixed=0.05),
    B.risk_tpr(0.1, fpr=0.01),
]

RISK_08 = B.risk_posterior(0.8, prior=0.5)
