"""Why ε is a budget: post-processing, group privacy and sequential composition, measured."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .._docstrings import fill_docstrings
from .._numerics import float_up, product_minus
from .._validation import (
    as_output,
    check_positive,
    check_real,
    check_scalar,
)
from ..mechanisms import make_rng
from ._checks import _check_alpha, _check_distribution
from .laplace_ratio import laplace_log_ratio
from .randomised_response import rr_epsilon, rr_output_distribution

__all__ = [
    "PropertiesExperiment",
    "discrete_log_ratios",
    "discrete_max_log_ratio",
    "group_privacy_epsilon",
    "post_process",
    "properties_experiment",
    "sequential_composition_epsilon",
]


# --- properties: post-processing, group privacy, composition ---------------------------


def discrete_log_ratios(P, Q) -> np.ndarray:
    """ln(P(y)/Q(y)) for every output y (last axis; leading axes broadcast, e.g. a batch).

    +∞ where only P puts mass, −∞ where only Q does, 0 where neither does (an output that
    never happens carries no information). ε-DP for the pair means every entry lies in
    [−ε, ε]; the largest |entry| is :func:`discrete_max_log_ratio`.

    Not called in a notebook; used by ``helpers.foundations.properties``.

    Parameters
    ----------
    P : array_like
        Output distribution (last axis sums to 1).
    Q : array_like
        Output distribution over the same outputs.

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Dwork & Roth (2014), §2.3 (post-processing, Proposition 2.1; group privacy, Theorem 2.2) and §3.5 (composition).

    Examples
    --------
    >>> np.round(discrete_log_ratios([0.5, 0.5], [0.25, 0.75]), 6).tolist()
    [0.693147, -0.405465]
    """
    P = _check_distribution("P", P)
    Q = _check_distribution("Q", Q)
    if P.shape[-1] != Q.shape[-1]:
        raise ValueError(
            f"P and Q must range over the same outputs; got {P.shape[-1]} and {Q.shape[-1]}"
        )
    P, Q = np.broadcast_arrays(P, Q)
    neither = (P == 0) & (Q == 0)
    with np.errstate(divide="ignore"):  # log 0 = −∞ is meant; 0/0 outputs are masked first
        lr = np.log(np.where(neither, 1.0, P)) - np.log(np.where(neither, 1.0, Q))
    return lr


def discrete_max_log_ratio(P, Q) -> float:
    """max over outputs and both orders of |ln P(y)/Q(y)|: the smallest ε for two output laws.

    For finitely many outputs, max over events T of ln(P(T)/Q(T)) is attained at a single
    output, so this is the ε of the definition for the pair (P, Q). Infinite when one law
    puts mass where the other puts none.

    Used in notebook 00.

    Parameters
    ----------
    P : array_like
        Output distribution (last axis sums to 1).
    Q : array_like
        Output distribution over the same outputs.

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(discrete_max_log_ratio([0.5, 0.5], [0.25, 0.75]), 6)
    0.693147
    """
    P = _check_distribution("P", P)
    Q = _check_distribution("Q", Q)
    if P.shape != Q.shape:
        raise ValueError(f"P and Q must have the same shape; got {P.shape} and {Q.shape}")
    both_zero = (P == 0) & (Q == 0)
    if np.any((P == 0) ^ (Q == 0)):
        return float("inf")
    with np.errstate(divide="ignore"):
        log_p = np.log(np.where(both_zero, 1, P))
        log_q = np.log(np.where(both_zero, 1, Q))
    lr = np.where(both_zero, 0.0, log_p - log_q)
    # rounded up by the rounding error of the two logs and their difference (a few units of
    # their size): the ε of the pair is never reported below its true value
    margin = 4 * np.finfo(float).eps * (np.abs(log_p) + np.abs(log_q))
    return float(np.max(np.abs(lr) + np.where(both_zero, 0.0, margin)))


def post_process(P, G) -> np.ndarray:
    """The law of G(M(X)) when M(X) has law P and G is a Markov kernel (rows sum to 1).

    Used in notebook 00.

    Parameters
    ----------
    P : array_like
        Output distribution (last axis sums to 1).
    G : array_like
        Markov kernel, one row per output of M, rows summing to 1.

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> np.round(post_process([0.5, 0.5], [[1.0, 0.0], [0.0, 1.0]]), 6).tolist()
    [0.5, 0.5]
    """
    P = _check_distribution("P", P)
    G = _check_distribution("G", G)
    if G.ndim != 2 or G.shape[0] != P.shape[-1]:
        raise ValueError(
            f"G must be a 2-D kernel with {P.shape[-1]} rows (one per output of M); got {G.shape}"
        )
    return P @ G


def group_privacy_epsilon(epsilon, k):
    """kε: an ε-DP mechanism on data sets differing in k records (survey, group privacy).

    Used in notebook 00.

    Parameters
    ----------
    %(epsilon)s
    k : int or array_like
        Integer outputs of the geometric mechanism.

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(group_privacy_epsilon(0.5, 2), 6)
    1.0
    """
    eps = check_positive("epsilon", epsilon)
    k = check_real("k", k)
    if np.any((k < 1) | (k != np.round(k))):
        raise ValueError(
            f"k must be a positive integer; got {k[(k < 1) | (k != np.round(k))][:3]!r}"
        )
    with np.errstate(over="ignore"):
        product = np.asarray(k * eps)
    # kε rounded up (never an ε below the group's): one double up where the rounded product
    # fell below the exact one (the sign of kε − fl(kε) is exact)
    below = np.isfinite(product) & (
        product_minus(k, eps, np.where(np.isfinite(product), product, 0)) > 0
    )
    return as_output(np.where(below, np.nextafter(product, np.inf), product))


def sequential_composition_epsilon(epsilons) -> float:
    """Σ ε_i: running ε_i-DP mechanisms in sequence (even adaptively) is (Σ ε_i)-DP.

    Used in notebook 00.

    Parameters
    ----------
    epsilons : array_like
        The εᵢ > 0 of the mechanisms run in sequence (1-D, non-empty).

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(sequential_composition_epsilon([0.5, 1.0]), 6)
    1.5
    """
    eps = check_positive("epsilons", epsilons)
    if eps.ndim != 1 or eps.size == 0:
        raise ValueError(f"epsilons must be a non-empty 1-D sequence; got shape {eps.shape}")
    # the exact sum rounded up (a float sum can fall below it: never an ε below the total's)
    try:
        return float_up(sum(map(Fraction, eps.tolist())))
    except OverflowError:  # beyond the largest double
        return math.inf


class PropertiesExperiment(NamedTuple):
    """The three measurements of :func:`properties_experiment` (arrays are float ndarrays)."""

    epsilon_rr: float  #: ε of RR(α₁)
    before: np.ndarray  #: ln P[y | x=1]/P[y | x=0] for RR's 2 outputs
    after: np.ndarray  #: the same for G(RR)'s 4 outputs
    k: np.ndarray  #: records apart, 1..6
    group_worst: np.ndarray  #: worst Laplace(1/ε) log-ratio between counts k apart
    group_budget: np.ndarray  #: kε
    epsilon1: np.ndarray  #: ε₁ = ε of RR(α₁) over a grid of α₁
    composition_worst: np.ndarray  #: worst log-ratio of (RR(α₁), RR(α₂)) run together
    composition_budget: np.ndarray  #: ε₁ + ε₂


def properties_experiment(epsilon=0.5, alpha1=0.5, alpha2=0.3, *, rng=5) -> PropertiesExperiment:
    """Measure post-processing, group privacy and sequential composition on small examples.

    Post-processing: the log-ratios of RR(α₁) and of G(RR(α₁)) for a random Markov kernel
    G to 4 outputs (Dirichlet rows drawn from ``rng``), all within ±ε(α₁). Group privacy:
    the worst log-ratio of Laplace(1/ε) releases of counts k apart (on a grid of outputs),
    against kε. Composition: the worst log-ratio of the pair (RR(α₁), RR(α₂)) for 12 values
    of α₁, against ε₁ + ε₂ (equal: the bound is attained).

    Not called in a notebook; used by ``helpers.plotting.foundations``.

    Parameters
    ----------
    epsilon : float
        ε of the Laplace mechanism of the group-privacy panel, > 0.
    alpha1, alpha2 : float
        Randomised-response parameters in [0, 1).
    rng : int or numpy.random.Generator, keyword-only
        Seed of the random kernel G.

    Returns
    -------
    PropertiesExperiment

    Raises
    ------
    ValueError
        If epsilon, alpha1 or alpha2 is out of range or not a single number, or rng is not a seed.

    References
    ----------
    Survey slides (002): post-processing, group privacy, sequential composition.

    Examples
    --------
    >>> out = properties_experiment(0.5, 0.5, 0.3, rng=5)
    >>> bool(np.all(np.abs(out.after) <= out.epsilon_rr))
    True
    """
    check_positive("epsilon", epsilon)
    eps_rr = check_scalar("alpha1", rr_epsilon(alpha1), alpha1)
    check_scalar("epsilon", check_positive("epsilon", epsilon), epsilon)
    check_scalar("alpha2", _check_alpha(alpha2, allow_zero=True, allow_one=False), alpha2)
    d1, d0 = rr_output_distribution(1, alpha1), rr_output_distribution(0, alpha1)
    kernel = make_rng(rng).dirichlet(np.ones(4), size=2)
    before = discrete_log_ratios(d1, d0)
    after = discrete_log_ratios(post_process(d1, kernel), post_process(d0, kernel))
    k = np.arange(1, 7)
    z = np.linspace(-10, 20, 3001)
    group_worst = np.max(
        np.abs(laplace_log_ratio(z, 0.0, k[:, None], epsilon, sensitivity=1.0)), axis=-1
    )
    a1 = np.linspace(0.05, 0.9, 12)
    joint1 = np.einsum(
        "mi,j->mij", rr_output_distribution(1, a1), rr_output_distribution(1, alpha2)
    ).reshape(a1.size, 4)
    joint0 = np.einsum(
        "mi,j->mij", rr_output_distribution(0, a1), rr_output_distribution(0, alpha2)
    ).reshape(a1.size, 4)
    worst = np.max(np.abs(discrete_log_ratios(joint1, joint0)), axis=-1)
    eps1 = rr_epsilon(a1)
    return PropertiesExperiment(
        eps_rr,
        before,
        after,
        k.astype(float),
        group_worst,
        group_privacy_epsilon(epsilon, k),
        eps1,
        worst,
        eps1 + check_scalar("alpha2", rr_epsilon(alpha2), alpha2),
    )


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "references": """\
References
----------
Dwork & Roth (2014), §2.3 (post-processing, Proposition 2.1; group privacy, Theorem 2.2) and §3.5 (composition).""",
}

fill_docstrings(globals(), _SECTIONS)
