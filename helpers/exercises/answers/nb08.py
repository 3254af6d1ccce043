"""Exercises of notebook 08 (the privacy loss random variable and δ)."""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from ... import plrv
from . import answer


@answer("08.1", names=("sigma2_low", "sigma2_high"), decimals=4)
def _variances_rounding_to_the_post():
    """The σ² interval (ε = ln 3) on which δ₁ rounds to 0.054 (grid answers within ±10⁻⁴)."""
    eps = plrv.POST_EPSILON

    def delta1(v):
        return float(plrv.gaussian_delta_naive(eps, math.sqrt(v)))

    ends = [
        optimize.brentq(lambda v, t=t: delta1(v) - t, 2.0, 4.0, xtol=1e-12)
        for t in (0.0535, 0.0545)
    ]
    return min(ends), max(ends)


@answer("08.2", names=("delta_closed",), digits=4)
def _thresholding():
    """δ₂ of the thresholding example at T = 6 and 7 (the closed form must match it)."""
    return np.array(
        [
            float(
                plrv.pmf_delta(
                    1.0,
                    *plrv.thresholding_pmfs(threshold=t, scale=plrv.POST_LAPLACE_SCALE, count=1.0),
                )
            )
            for t in (6.0, 7.0)
        ]
    )


@answer("08.3", names=("closed",), decimals=4)
def _laplace_delta():
    return float(plrv.laplace_delta(0.2, 2.0))


@answer("08.4", names=("s1", "s10"), decimals=4)
def _gaussian_sigma():
    return (
        float(plrv.gaussian_sigma_for_delta(1.0, 1e-6)),
        float(plrv.gaussian_sigma_for_delta(1.0, 1e-6, sensitivity=10.0)),
    )
