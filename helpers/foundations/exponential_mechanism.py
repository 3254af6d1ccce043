"""The exponential mechanism and the survey's auction example."""

from __future__ import annotations

import numpy as np
from scipy.special import log_softmax

from .._docstrings import fill_docstrings
from .._validation import (
    as_output,
    check_finite_scalar,
    check_nonnegative,
    check_positive,
    check_real,
    check_size,
)
from ..mechanisms import make_rng

__all__ = [
    "auction_revenue",
    "auction_revenue_sensitivity",
    "expected_score",
    "exponential_mechanism_log_probabilities",
    "exponential_mechanism_probabilities",
    "exponential_mechanism_sample",
]


# --- the exponential mechanism ----------------------------------------------------------------


def exponential_mechanism_log_probabilities(scores, epsilon, *, sensitivity=1.0) -> np.ndarray:
    """ln P[M_E(X) = h] = ε s(X,h)/(2Δ) − ln Σ_h' exp(ε s(X,h')/(2Δ)) (a log-softmax).

    ``scores``: s(X, h) along the last axis; ``epsilon`` may be an array (its shape is
    prepended, so a grid of ε gives one row per ε). The maximum is subtracted before
    exponentiating, so large ε·s neither overflows nor turns into NaN; in log form even
    probabilities that underflow to 0 keep their exact e^ε ratio to a neighbour's.

    Not called in a notebook; used by ``helpers.foundations.exponential_mechanism``.

    Parameters
    ----------
    %(scores)s
    %(epsilon)s
    %(sensitivity_score)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> np.round(exponential_mechanism_log_probabilities([0.0, 2.0], 1.0), 6).tolist()
    [-1.313262, -0.313262]
    """
    s = check_real("scores", scores)
    if s.ndim == 0 or s.shape[-1] == 0:
        raise ValueError(f"scores must be a non-empty array of scores; got {scores!r}")
    eps = check_nonnegative("epsilon", epsilon)
    delta = check_positive("sensitivity", sensitivity)
    # scores shifted to max 0 before scaling, so a huge ε/Δ (even ε/Δ = inf) gives −inf for
    # the non-maximal scores and 0 for the maximal ones, never inf − inf = NaN
    top = s.max(axis=-1, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore"):
        shifted = s - top
        factor = eps / (2 * delta)
        factor = factor.reshape(np.shape(factor) + (1,) * s.ndim)
        logits = np.where(shifted == 0, 0.0, factor * shifted)
        # s − max beyond the largest double (scores ±1e308): ε/(2Δ)·(s − max) from halves,
        # 2ε/(2Δ)·(s/2 − max/2), so it is −inf only where the logit itself is (and ε = 0
        # gives 0, not 0·(−inf) = NaN)
        overflowed = np.isinf(shifted)
        if np.any(overflowed):
            halves = 0.5 * s - 0.5 * top
            big = np.where(factor == 0, 0.0, (2 * factor) * halves)
            logits = np.where(overflowed, big, logits)
    return log_softmax(logits, axis=-1)


def exponential_mechanism_probabilities(scores, epsilon, *, sensitivity=1.0) -> np.ndarray:
    """P[M_E(X) = h] = exp(ε s(X,h)/(2Δ)) / Σ_h' exp(ε s(X,h')/(2Δ)) (survey's definition).

    Shapes as in :func:`exponential_mechanism_log_probabilities`; rows sum to 1.

    Used in notebook 00.

    Parameters
    ----------
    %(scores)s
    %(epsilon)s
    %(sensitivity_score)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> np.round(exponential_mechanism_probabilities([0.0, 2.0], 1.0), 6).tolist()
    [0.268941, 0.731059]
    >>> exponential_mechanism_probabilities([0.0, 2.0], [0.0, 1.0]).shape  # one row per ε
    (2, 2)
    """
    return np.exp(exponential_mechanism_log_probabilities(scores, epsilon, sensitivity=sensitivity))


def exponential_mechanism_sample(scores, epsilon, size=None, *, rng, sensitivity=1.0):
    """Indices h drawn from the exponential mechanism (scalar ε, 1-D scores).

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(scores)s
    %(epsilon)s
    size : int or tuple of int, optional
        Number (shape) of draws, at most 10⁸.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator (None is refused: simulations are seeded).
    %(sensitivity_score)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> exponential_mechanism_sample([0.0, 2.0], 1.0, 4, rng=0).shape
    (4,)
    """
    probs = exponential_mechanism_probabilities(
        scores,
        check_finite_scalar("epsilon", epsilon),
        sensitivity=check_finite_scalar("sensitivity", sensitivity),
    )
    if probs.ndim != 1:
        raise ValueError(f"scores must be 1-D for sampling; got shape {np.shape(scores)}")
    return make_rng(rng).choice(probs.size, size=check_size(size), p=probs)


def expected_score(scores, epsilon, *, sensitivity=1.0):
    """E[s(X, M_E(X))] = Σ_h P[M_E(X) = h] s(X, h) (the expected revenue in the auction).

    Used in notebook 00.

    Parameters
    ----------
    %(scores)s
    %(epsilon)s
    %(sensitivity_score)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(expected_score([1.0, 2.0], 1.0, sensitivity=1.0), 6)
    1.622459
    """
    s = check_real("scores", scores)
    return as_output(
        np.sum(
            exponential_mechanism_probabilities(s, epsilon, sensitivity=sensitivity) * s, axis=-1
        )
    )


def auction_revenue(prices, bids) -> np.ndarray:
    """Revenue at each price: price × (number of bidders willing to pay at least the price).

    Used in notebook 00.

    Parameters
    ----------
    prices : array_like
        Candidate prices, 1-D, ≥ 0.
    bids : array_like
        What each bidder is willing to pay, 1-D, ≥ 0.

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> np.round(auction_revenue((1.0, 1.01, 3.01, 3.02), (1.0, 1.0, 3.01)), 6).tolist()
    [3.0, 1.01, 3.01, 0.0]
    """
    prices = check_nonnegative("prices", prices)
    bids = check_nonnegative("bids", bids)
    if prices.ndim != 1 or prices.size == 0:
        raise ValueError(f"prices must be a non-empty 1-D sequence; got shape {prices.shape}")
    if bids.ndim != 1:
        raise ValueError(f"bids must be a 1-D sequence; got shape {bids.shape}")
    buyers = (bids[None, :] >= prices[:, None]).sum(axis=1)
    return prices * buyers


def auction_revenue_sensitivity(prices) -> float:
    """Δ_s = max price: changing one bidder's valuation changes the number of buyers at
    price h by at most one, hence the revenue at h by at most h.

    Used in notebook 00.

    Parameters
    ----------
    prices : array_like
        Candidate prices, 1-D, ≥ 0.

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(auction_revenue_sensitivity((1.0, 1.01, 3.01, 3.02)), 6)
    3.02
    """
    prices = check_nonnegative("prices", prices)
    if prices.size == 0:
        raise ValueError("prices must be non-empty")
    return float(np.max(prices))


_SECTIONS = {
    "scores": """\
scores : array_like
    s(X, h) for every candidate h along the last axis (finite).""",
    "references": """\
References
----------
McSherry & Talwar (2007); Dwork & Roth (2014), §3.4 (the exponential mechanism, Theorem 3.10).""",
    "sensitivity_score": """\
sensitivity : float, keyword-only
    Δ > 0, the sensitivity of the score: the most s(X, h) can change between neighbouring
    data sets, for any candidate h.""",
}

fill_docstrings(globals(), _SECTIONS)
