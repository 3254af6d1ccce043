"""Exercises of notebook 08 (the privacy loss random variable and δ)."""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from ... import plrv
from . import Param, answer


@answer(
    "08.1",
    names=("sigma2_low", "sigma2_high"),
    decimals=4,
    parameters={
        "delta1": Param(0.054, 0.03, 0.08, step=0.001, about="the printed δ₁ (3 decimals)")
    },
)
def _variances_rounding_to_the_post(*, delta1):
    """The σ² interval (ε = ln 3) on which δ₁ rounds to ``delta1`` (grid answers within ±10⁻⁴)."""
    eps = plrv.POST_EPSILON

    def d1(v):
        return float(plrv.gaussian_delta_naive(eps, math.sqrt(v)))

    ends = [
        optimize.brentq(lambda v, t=t: d1(v) - t, 0.5, 20.0, xtol=1e-12)
        for t in (delta1 - 0.0005, delta1 + 0.0005)
    ]
    return min(ends), max(ends)


@answer(
    "08.2",
    names=("delta_closed",),
    digits=4,
    parameters={
        "thresholds": Param(
            (6.0, 7.0), 3.0, 12.0, kind="floats", step=1.0, about="the thresholds T"
        )
    },
)
def _thresholding(*, thresholds):
    """δ₂ of the thresholding example at each T (the closed form must match it)."""
    return np.array(
        [
            float(
                plrv.pmf_delta(
                    1.0,
                    *plrv.thresholding_pmfs(threshold=t, scale=plrv.POST_LAPLACE_SCALE, count=1.0),
                )
            )
            for t in thresholds
        ]
    )


@answer(
    "08.3",
    names=("closed",),
    decimals=4,
    parameters={
        "b": Param(2.0, 0.5, 5.0, step=0.1, about="the Laplace scale b"),
        "epsilon": Param(0.2, 0.02, 1.0, step=0.01, about="ε"),
    },
    valid=lambda p: p["epsilon"] < 1 / p["b"],
)
def _laplace_delta(*, b, epsilon):
    return float(plrv.laplace_delta(epsilon, b))


@answer(
    "08.4",
    names=("s1", "s10"),
    decimals=4,
    parameters={
        "epsilon": Param(1.0, 0.3, 3.0, step=0.1, about="ε"),
        "delta": Param(
            1e-6, kind="choice", choices=(1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9), about="δ"
        ),
        "sensitivity": Param(10.0, 2.0, 50.0, step=1.0, about="the sum's sensitivity Δ"),
    },
)
def _gaussian_sigma(*, epsilon, delta, sensitivity):
    return (
        float(plrv.gaussian_sigma_for_delta(epsilon, delta)),
        float(plrv.gaussian_sigma_for_delta(epsilon, delta, sensitivity=sensitivity)),
    )
