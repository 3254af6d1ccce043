"""dp_accounting's connect-the-dots PLDs of the Laplace and Gaussian mechanisms, vectorised.

dp_accounting builds ``from_laplace_mechanism`` and ``from_gaussian_mechanism`` (pessimistic,
connect-the-dots; Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022, Algorithm 1) by
computing δ(ε) at every grid point ε = jh through a Python call per point (its inverse
privacy loss), then the PMF through a dict: tens of milliseconds a build, which a dashboard's
searches repeat. Here the inverse is one array expression (the same IEEE operations on the
same inputs as the library's scalar code, so the same doubles), δ(ε) is the library's own
vectorised cdf expression, and the PMF is its connect-the-dots formula
(``create_pmf_pessimistic_connect_dots_fixed_gap``) without the dict. tests/helpers/
mechanisms/test__pld.py holds each build equal to the library's, mass for mass.

Private to :mod:`helpers.mechanisms` (:meth:`Laplace.pld`, :meth:`Gaussian.pld`).
"""

from __future__ import annotations

import math

import numpy as np

from .._numerics import pmf_of_buckets

__all__ = []


def _connect_dots(loss, h: float, inverse):
    """The connect-the-dots PLD of a continuous ``loss`` (a dp_accounting privacy loss, REMOVE,
    no subsampling) on the grid h·ℤ, with ``inverse(ε)`` its inverse privacy loss over an
    array; None where the loss fits one bucket (the caller takes the library's own path)."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    bounds = loss.connect_dots_bounds()
    lo, hi = math.floor(bounds.epsilon_lower / h), math.ceil(bounds.epsilon_upper / h)
    if lo >= hi:
        return None
    epsilons = np.arange(lo, hi + 1) * h
    x = inverse(epsilons)
    deltas = np.clip(loss.mu_upper_cdf(x) - np.exp(epsilons + loss.mu_lower_log_cdf(x)), 0, 1)
    # create_pmf_pessimistic_connect_dots_fixed_gap (Doroshenko et al. 2022, Algorithm 1)
    deltas = np.minimum.accumulate(deltas)
    diffs = np.diff(deltas)
    probs = np.zeros_like(deltas)
    probs[0] = 1 - deltas[0] + diffs[0] / math.expm1(h)
    probs[1:-1] = (diffs[1:] - diffs[:-1] * math.exp(h)) / math.expm1(h)
    probs[-1] = diffs[-1] / math.expm1(-h)
    return pld.PrivacyLossDistribution(
        pmf_of_buckets(h, lo, np.maximum(0.0, probs), float(deltas[-1]))
    )


def laplace_pld(b: float, sensitivity: float, h: float):
    """dp_accounting's ``from_laplace_mechanism(b, sensitivity, pessimistic_estimate=True,
    value_discretization_interval=h)``, vectorised; None for a loss within one bucket.

    The inverse privacy loss of the Laplace mechanism (REMOVE): x = −(Δ + εb)/2 where
    |εb| < Δ, −∞ above that range and +∞ below it, as the library writes it.
    """
    from dp_accounting.pld import privacy_loss_mechanism as plm

    loss = plm.LaplacePrivacyLoss(b, sensitivity=sensitivity)

    def inverse(epsilons):
        threshold = epsilons * b
        return np.where(
            threshold > sensitivity,
            -math.inf,
            np.where(threshold <= -sensitivity, math.inf, 0.5 * (-sensitivity - threshold)),
        )

    return _connect_dots(loss, h, inverse)


def gaussian_pld(sigma: float, sensitivity: float, h: float):
    """dp_accounting's ``from_gaussian_mechanism(sigma, sensitivity, pessimistic_estimate=True,
    value_discretization_interval=h)``, vectorised; None for a loss within one bucket.

    The inverse privacy loss of the Gaussian mechanism (REMOVE, no subsampling):
    x = −Δ/2 − εσ²/Δ, in the library's order of operations; the grid runs between the losses
    at its truncation points, where the noise's tails hold ½·e⁻⁵⁰ each.
    """
    from dp_accounting.pld import privacy_loss_mechanism as plm

    loss = plm.GaussianPrivacyLoss(sigma, sensitivity=sensitivity)

    def inverse(epsilons):
        return -0.5 * sensitivity - epsilons * (sigma**2) / sensitivity

    return _connect_dots(loss, h, inverse)
