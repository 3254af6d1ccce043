"""The differential-privacy foundations the course builds on (notebook 00).

Two sources, with their notation:

* lecture notes (``001``): ε-closeness of an equivalence class C (a *data set* property:
  the distance D(P_L, P_Q) between the class's distribution P_L of the sensitive attribute
  and the whole data set's P_Q), randomised response with the parameter α (each person i
  reports y_i = x_i with probability α and a fair coin r_i with probability 1 − α), its
  estimator p̂ = (1/α)(Y/n − (1 − α)/2) with Y = Σ y_i, and the definition of ε-DP;
* survey slides (``002``): ε-DP, post-processing, group privacy, sequential composition,
  the hypothesis-testing view (p + e^ε q ≥ 1, e^ε p + q ≥ 1), the Laplace mechanism
  (scale b = Δ/ε), the mean of n bits with Laplace(1/(nε)) noise, and the exponential
  mechanism (select h with probability ∝ exp(ε s(X, h) / (2Δ))) on an auction.

All functions are pure and vectorised; bad input raises ``ValueError`` naming the
parameter, the value and the allowed range. Laplace densities come from
:mod:`helpers.mechanisms`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import expit, log_softmax, rel_entr

from ._validation import (
    as_output,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_positive,
    check_real,
)
from .mechanisms import laplace_cdf, laplace_scale, laplace_sf, make_rng

__all__ = [
    "CLOSENESS_EXAMPLE",
    "NOTES_RR_EXAMPLE",
    "SURVEY_AUCTION_BIDS",
    "SURVEY_AUCTION_PRICES",
    "SURVEY_LAPLACE_EXAMPLE",
    "PropertiesExperiment",
    "auction_revenue",
    "auction_revenue_sensitivity",
    "bits_query_sensitivity",
    "chebyshev_bound",
    "class_distributions",
    "discrete_log_ratios",
    "discrete_max_log_ratio",
    "expected_score",
    "exponential_mechanism_log_probabilities",
    "exponential_mechanism_probabilities",
    "exponential_mechanism_sample",
    "group_privacy_epsilon",
    "hypothesis_feasible",
    "hypothesis_min_equal_error",
    "hypothesis_min_q",
    "kl_divergence",
    "l1_distance",
    "l2_distance",
    "laplace_log_ratio",
    "laplace_ratio",
    "laplace_tail_probability",
    "laplace_threshold_test",
    "mean_of_bits_release",
    "mean_of_bits_scale",
    "mean_of_bits_variance",
    "post_process",
    "properties_experiment",
    "randomised_response",
    "rr_alpha_for_epsilon",
    "rr_epsilon",
    "rr_estimate",
    "rr_output_distribution",
    "rr_simulate_estimates",
    "rr_variance",
    "rr_variance_bound",
    "rr_variance_bound_tight",
    "rr_variance_given_data",
    "sequential_composition_epsilon",
    "variational_distance",
]

# --- the sources' inputs (numbers they print, kept here so nothing is typed in notebooks) ---

#: Survey, "Motivation beyond Exponential Mechanism": three bidders willing to pay these.
SURVEY_AUCTION_BIDS = (1.0, 1.0, 3.01)
#: ... and the four prices the survey discusses.
SURVEY_AUCTION_PRICES = (1.0, 1.01, 3.01, 3.02)
#: Survey, "Intuition behind the Laplace distribution": Δ_f = 10, y₁ = 10, y₂ = 20.
SURVEY_LAPLACE_EXAMPLE = {"sensitivity": 10.0, "y1": 10.0, "y2": 20.0}
#: Lecture notes: n = 18 respondents, α = 1/2, nine answers 1 (and nine 0).
NOTES_RR_EXAMPLE = {"n": 18, "alpha": 0.5, "ones": 9}
#: A small data set for ε-closeness (not in the notes, which give no numbers): the
#: sensitive attribute is the operating system (the notes' own example of S), and the
#: equivalence classes are what an observer who knows the quasi-identifiers can isolate.
CLOSENESS_EXAMPLE = {
    "classes": ("C1",) * 4 + ("C2",) * 4 + ("C3",) * 4,
    "sensitive": (
        "Linux", "Linux", "macOS", "Windows",
        "Linux", "macOS", "Windows", "Windows",
        "Windows", "Windows", "Windows", "Windows",
    ),
}  # fmt: skip


# --- small validators -----------------------------------------------------------------


def _check_closed_unit(name: str, value) -> np.ndarray:
    array = check_real(name, value)
    bad = (array < 0) | (array > 1)
    if np.any(bad):
        raise ValueError(f"{name} must lie in [0, 1]; got {array[bad].ravel()[:3]!r}")
    return array


def _check_alpha(value, *, allow_zero: bool, allow_one: bool) -> np.ndarray:
    array = check_real("alpha", value)
    low_bad = array < 0 if allow_zero else array <= 0
    high_bad = array > 1 if allow_one else array >= 1
    bad = low_bad | high_bad
    if np.any(bad):
        lo = "[0" if allow_zero else "(0"
        hi = "1]" if allow_one else "1)"
        raise ValueError(f"alpha must lie in {lo}, {hi}; got {array[bad].ravel()[:3]!r}")
    return array


def _check_n(value, name: str = "n", high: int = 10**9) -> int:
    return check_int_range(name, value, 1, high)


def _check_distribution(name: str, value) -> np.ndarray:
    array = check_nonnegative(name, value)
    if array.ndim == 0 or array.shape[-1] == 0:
        raise ValueError(f"{name} must be a non-empty probability vector; got {value!r}")
    sums = array.sum(axis=-1)
    if np.any(np.abs(sums - 1) > 1e-9):
        raise ValueError(f"{name} must sum to 1 along its last axis; got sums {sums!r}")
    return array


# --- neighbouring data sets and L1 sensitivity ----------------------------------------


def bits_query_sensitivity(n: int, query: str = "sum", kind: str = "bounded") -> float:
    """Global L1 sensitivity Δ_f of the sum or the mean of n bits, found by brute force.

    A data set of n bits is summarised by its count S = Σ x_i ∈ {0, …, n}; both queries
    depend on it alone, so enumerating every S and every neighbour is exhaustive.

    * ``kind="bounded"`` (the notes' and the survey's "differ in exactly one element"):
      the neighbour has the same n with one bit changed, S' = S ± 1.
    * ``kind="unbounded"`` (add or remove one person): the neighbour has n − 1 or n + 1
      records.

    Δ_f = max |f(x) − f(x')| over all neighbours. For the sum it is 1 both ways; for the
    mean it is 1/n both ways (the survey's Δ = 1/n), though the unbounded case needs n
    itself to be public.
    """
    n = _check_n(n, high=10**7)
    if query not in ("sum", "mean"):
        raise ValueError(f"query must be 'sum' or 'mean'; got {query!r}")
    if kind not in ("bounded", "unbounded"):
        raise ValueError(f"kind must be 'bounded' or 'unbounded'; got {kind!r}")
    s = np.arange(n + 1, dtype=float)
    value = s if query == "sum" else s / n
    if kind == "bounded":
        # change one bit: S -> S + 1 (a 0 becomes 1) is possible when S < n
        s2 = s[:-1] + 1
        other = s2 if query == "sum" else s2 / n
        return float(np.max(np.abs(value[:-1] - other), initial=0.0))
    diffs = []
    if n >= 2:  # remove one record, a 1 (when S ≥ 1) or a 0 (when S ≤ n − 1)
        for bit in (0.0, 1.0):
            ok = (s >= bit) & (s - bit <= n - 1)
            s2 = s[ok] - bit
            other = s2 if query == "sum" else s2 / (n - 1)
            diffs.append(np.abs(value[ok] - other))
    for bit in (0.0, 1.0):  # add one record
        s2 = s + bit
        other = s2 if query == "sum" else s2 / (n + 1)
        diffs.append(np.abs(value - other))
    return float(np.max(np.concatenate(diffs)))


# --- the Laplace mechanism on two neighbouring outputs ---------------------------------


def laplace_log_ratio(z, y1, y2, epsilon, *, sensitivity=1.0):
    """ln( p_{y₁}(z) / p_{y₂}(z) ) for Laplace densities of scale b = Δ/ε centred at y₁, y₂.

    Equals (ε/Δ)(|z − y₂| − |z − y₁|); by the triangle inequality its absolute value is at
    most ε|y₁ − y₂|/Δ, which is ≤ ε when |y₁ − y₂| ≤ Δ. Computed in log form, so it stays
    finite far in the tails where both densities underflow.
    """
    z = check_real("z", z)
    y1 = check_real("y1", y1)
    y2 = check_real("y2", y2)
    b = laplace_scale(epsilon, sensitivity=sensitivity)
    return (np.abs(z - y2) - np.abs(z - y1)) / b


def laplace_ratio(z, y1, y2, epsilon, *, sensitivity=1.0):
    """p_{y₁}(z) / p_{y₂}(z): e^{ε} on one side of [y₁, y₂], e^{−ε} on the other (Δ = |y₁−y₂|)."""
    return as_output(np.exp(laplace_log_ratio(z, y1, y2, epsilon, sensitivity=sensitivity)))


# --- mean of n bits with Laplace noise -------------------------------------------------


def mean_of_bits_scale(n: int, epsilon) -> np.ndarray | float:
    """b = Δ/ε = 1/(nε): the Laplace scale for the mean of n bits (Δ = 1/n)."""
    n = _check_n(n)
    return laplace_scale(epsilon, sensitivity=1.0 / n)


def mean_of_bits_variance(n: int, epsilon) -> np.ndarray | float:
    """Var[p̂] = Var[Laplace(b)] = 2b² = 2/(ε²n²).

    The survey prints 1/(ε²n²), which drops the factor 2 of the Laplace variance 2b² that
    the same slides state a few pages earlier.
    """
    b = mean_of_bits_scale(n, epsilon)
    return 2.0 * b * b


def mean_of_bits_release(x, epsilon, size=None, *, rng):
    """p̂ = (1/n) Σ x_i + Laplace(1/(nε)) for a vector x of bits; ``size`` draws at once."""
    x = check_real("x", x)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-D array of bits; got shape {x.shape}")
    if np.any((x != 0) & (x != 1)):
        raise ValueError(f"x must hold only 0s and 1s; got {x[(x != 0) & (x != 1)][:3]!r}")
    b = mean_of_bits_scale(int(x.size), epsilon)
    return x.mean() + make_rng(rng).laplace(0.0, b, size)


def laplace_tail_probability(t, scale):
    """P[|Y| ≥ t] = e^{−t/b} for Y ~ Laplace(0, b) and t ≥ 0 (exact)."""
    t = check_nonnegative("t", t)
    b = check_positive("scale", scale)
    return np.exp(-t / b)


def chebyshev_bound(variance, t):
    """Chebyshev's P[|X − μ| ≥ t] ≤ Var/t², capped at 1."""
    v = check_nonnegative("variance", variance)
    t = check_positive("t", t)
    return np.minimum(1.0, v / (t * t))


# --- randomised response -----------------------------------------------------------------
# One argument order for every rr_* function: the data (x, y_sum or p) first, then the
# number of respondents n, then the mechanism's parameter α; options keyword-only.


def rr_output_distribution(x, alpha) -> np.ndarray:
    """[P(y = 0 | x), P(y = 1 | x)] for the notes' randomised response.

    With probability α the true bit x is sent, otherwise a fair coin r: so
    P(y = x) = α + (1 − α)/2 = (1 + α)/2 and P(y ≠ x) = (1 − α)/2. Shape (..., 2).
    """
    a = _check_alpha(alpha, allow_zero=True, allow_one=True)
    x = check_real("x", x)
    if np.any((x != 0) & (x != 1)):
        raise ValueError(f"x must be 0 or 1; got {x[(x != 0) & (x != 1)][:3]!r}")
    a, x = np.broadcast_arrays(a, x)
    p1 = np.where(x == 1, (1 + a) / 2, (1 - a) / 2)
    return np.stack([1 - p1, p1], axis=-1)


def rr_epsilon(alpha):
    """ε = ln((1 + α)/(1 − α)), the privacy of randomised response with parameter α.

    The worst ratio of response probabilities between a person with x = 1 and one with
    x = 0 is P(y = 1 | x = 1) / P(y = 1 | x = 0) = ((1 + α)/2) / ((1 − α)/2). α = 0 (pure
    coin) gives ε = 0; α → 1 gives ε → ∞, so α = 1 is refused. α = 1/2 gives ln 3.
    """
    a = _check_alpha(alpha, allow_zero=True, allow_one=False)
    return np.log1p(a) - np.log1p(-a)


def rr_alpha_for_epsilon(epsilon):
    """The α that makes randomised response exactly ε-DP: α = (e^ε − 1)/(e^ε + 1) = tanh(ε/2)."""
    eps = check_nonnegative("epsilon", epsilon)
    return np.tanh(eps / 2)


def randomised_response(x, alpha, *, rng) -> np.ndarray:
    """Each person's report y_i: x_i with probability α, else a fair coin r_i (int array)."""
    x = check_real("x", x)
    if np.any((x != 0) & (x != 1)):
        raise ValueError(f"x must hold only 0s and 1s; got {x[(x != 0) & (x != 1)][:3]!r}")
    a = float(_check_alpha(alpha, allow_zero=True, allow_one=True))
    gen = make_rng(rng)
    keep = gen.random(x.shape) < a
    coin = gen.integers(0, 2, size=x.shape)
    return np.where(keep, x, coin).astype(int)


def rr_estimate(y_sum, n: int, alpha):
    """The notes' estimator p̂ = (1/α)(Y/n − (1 − α)/2), Y = Σ y_i (vectorised in Y and α).

    Unbiased: E[y_i] = αp + (1 − α)/2. It can fall outside [0, 1]; clipping would bias it.
    """
    n = _check_n(n)
    y = check_real("y_sum", y_sum)
    if np.any((y < 0) | (y > n)):
        raise ValueError(f"y_sum must lie in 0..n = 0..{n}; got {y[(y < 0) | (y > n)][:3]!r}")
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    return (y / n - (1 - a) / 2) / a


def rr_variance(p, n: int, alpha):
    """Var[p̂] = q(1 − q)/(α²n), q = αp + (1 − α)/2, when the x_i are i.i.d. Bernoulli(p)."""
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    n = _check_n(n)
    p = _check_closed_unit("p", p)
    q = a * p + (1 - a) / 2
    return q * (1 - q) / (a * a * n)


def rr_variance_given_data(n: int, alpha):
    """Var[p̂ | x] = (1 − α²)/(4α²n): the spread from the coins alone, for any fixed data.

    Each y_i is Bernoulli((1 ± α)/2), whose variance is (1 − α²)/4 whatever x_i is.
    """
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    n = _check_n(n)
    return (1 - a * a) / (4 * a * a * n)


def rr_variance_bound(n: int, alpha):
    """The notes' bound Var[p̂] ≤ 1/(α²n) (from Var(y_i) ≤ 1)."""
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    n = _check_n(n)
    return 1.0 / (a * a * n)


def rr_variance_bound_tight(n: int, alpha):
    """Var[p̂] ≤ 1/(4α²n): a bit's variance is at most 1/4, four times tighter than the notes."""
    return rr_variance_bound(n, alpha) / 4


def rr_simulate_estimates(p, n: int, alpha, *, reps: int, rng, fixed_data: bool = False):
    """``reps`` independent values of p̂ for n respondents.

    ``fixed_data=False``: each run draws x_i ~ Bernoulli(p) and the coins, so Y ~
    Binomial(n, αp + (1 − α)/2) (drawn directly; the same distribution as simulating every
    respondent). ``fixed_data=True``: the data hold exactly round(pn) ones and only the
    coins vary: Y = Binomial(k, (1 + α)/2) + Binomial(n − k, (1 − α)/2).
    """
    p = float(_check_closed_unit("p", p))
    n = _check_n(n)
    a = float(_check_alpha(alpha, allow_zero=False, allow_one=True))
    reps = check_int_range("reps", reps, 1, 10_000_000)
    gen = make_rng(rng)
    if fixed_data:
        k = round(p * n)
        y = gen.binomial(k, (1 + a) / 2, reps) + gen.binomial(n - k, (1 - a) / 2, reps)
    else:
        y = gen.binomial(n, a * p + (1 - a) / 2, reps)
    return rr_estimate(y, n, a)


# --- properties: post-processing, group privacy, composition ---------------------------


def discrete_log_ratios(P, Q) -> np.ndarray:
    """ln(P(y)/Q(y)) for every output y (last axis; leading axes broadcast, e.g. a batch).

    +∞ where only P puts mass, −∞ where only Q does, 0 where neither does (an output that
    never happens carries no information). ε-DP for the pair means every entry lies in
    [−ε, ε]; the largest |entry| is :func:`discrete_max_log_ratio`.
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
    """
    P = _check_distribution("P", P)
    Q = _check_distribution("Q", Q)
    if P.shape != Q.shape:
        raise ValueError(f"P and Q must have the same shape; got {P.shape} and {Q.shape}")
    both_zero = (P == 0) & (Q == 0)
    if np.any((P == 0) ^ (Q == 0)):
        return float("inf")
    with np.errstate(divide="ignore"):
        lr = np.where(
            both_zero, 0.0, np.log(np.where(both_zero, 1, P)) - np.log(np.where(both_zero, 1, Q))
        )
    return float(np.max(np.abs(lr)))


def post_process(P, G) -> np.ndarray:
    """The law of G(M(X)) when M(X) has law P and G is a Markov kernel (rows sum to 1)."""
    P = _check_distribution("P", P)
    G = _check_distribution("G", G)
    if G.ndim != 2 or G.shape[0] != P.shape[-1]:
        raise ValueError(
            f"G must be a 2-D kernel with {P.shape[-1]} rows (one per output of M); got {G.shape}"
        )
    return P @ G


def group_privacy_epsilon(epsilon, k):
    """kε: an ε-DP mechanism on data sets differing in k records (survey, group privacy)."""
    eps = check_positive("epsilon", epsilon)
    k = check_real("k", k)
    if np.any((k < 1) | (k != np.round(k))):
        raise ValueError(
            f"k must be a positive integer; got {k[(k < 1) | (k != np.round(k))][:3]!r}"
        )
    return k * eps


def sequential_composition_epsilon(epsilons) -> float:
    """Σ ε_i: running ε_i-DP mechanisms in sequence (even adaptively) is (Σ ε_i)-DP."""
    eps = check_positive("epsilons", epsilons)
    if eps.ndim != 1 or eps.size == 0:
        raise ValueError(f"epsilons must be a non-empty 1-D sequence; got shape {eps.shape}")
    return float(eps.sum())


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

    Examples
    --------
    >>> out = properties_experiment(0.5, 0.5, 0.3, rng=5)
    >>> bool(np.all(np.abs(out.after) <= out.epsilon_rr))
    True
    """
    check_positive("epsilon", epsilon)
    eps_rr = float(rr_epsilon(alpha1))
    _check_alpha(alpha2, allow_zero=True, allow_one=False)
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
        eps1 + float(rr_epsilon(alpha2)),
    )


# --- the hypothesis-testing view ----------------------------------------------------------


def hypothesis_min_q(p, epsilon):
    """The smallest false-negative rate q an ε-DP mechanism allows at false-positive rate p.

    From p + e^ε q ≥ 1 and e^ε p + q ≥ 1 (Wasserman & Zhou; Kairouz, Oh & Viswanath):
    q ≥ max(0, 1 − e^ε p, e^{−ε}(1 − p)).
    """
    p = _check_closed_unit("p", p)
    eps = check_nonnegative("epsilon", epsilon)
    p, eps = np.broadcast_arrays(p, eps)
    # e^ε·p as e^{ε + ln p}: p = 0 gives 0 even where e^ε overflows (inf·0 was NaN)
    with np.errstate(divide="ignore", over="ignore"):
        scaled = np.exp(eps + np.log(p))
    return as_output(np.maximum(np.maximum(0.0, 1 - scaled), (1 - p) * np.exp(-eps)))


def hypothesis_min_equal_error(epsilon):
    """The smallest common error rate p = q an ε-DP mechanism allows: 1/(1 + e^ε).

    Where the two boundary lines p + e^ε q = 1 and e^ε p + q = 1 meet. ε = 0 gives 1/2
    (coin flipping); the adversary's best balanced accuracy is e^ε/(1 + e^ε).
    """
    eps = check_nonnegative("epsilon", epsilon)
    return as_output(expit(-eps))  # 1/(1 + e^ε) without overflow


def hypothesis_feasible(p, q, epsilon, tol: float = 1e-12):
    """True where (p, q) satisfies both inequalities (within ``tol``)."""
    p = _check_closed_unit("p", p)
    q = _check_closed_unit("q", q)
    eps = check_nonnegative("epsilon", epsilon)
    tol = check_nonnegative("tol", tol)
    p, q, eps = np.broadcast_arrays(p, q, eps)
    # e^ε·x as e^{ε + ln x}: x = 0 contributes 0 even where e^ε overflows (inf·0 was NaN,
    # so hypothesis_feasible(0, 1, 1000) was False)
    with np.errstate(divide="ignore", over="ignore"):
        eq = np.exp(eps + np.log(q))
        ep = np.exp(eps + np.log(p))
    out = (p + eq >= 1 - tol) & (ep + q >= 1 - tol)
    return bool(out) if out.ndim == 0 else out


def laplace_threshold_test(t, epsilon, *, sensitivity=1.0, y0=0.0):
    """(p, q) of the test "say H₁ when the output exceeds t" under the Laplace mechanism.

    H₀: the output came from X with f(X) = y₀; H₁: from a neighbour X' with f(X') = y₀ + Δ.
    Noise is Laplace(Δ/ε). p = P[output > t | H₀], q = P[output ≤ t | H₁]. Between the two
    centres p·q = e^{−ε}/4; at t = y₀ (or y₀ + Δ) the pair lies on the region's boundary.
    """
    t = check_real("t", t)
    b = laplace_scale(epsilon, sensitivity=sensitivity)
    delta = check_positive("sensitivity", sensitivity)
    y0 = check_finite_scalar("y0", y0)
    p = laplace_sf(t, y0, b)  # P[output > t | H₀], exact far in the tail (not 1 − cdf)
    q = laplace_cdf(t, y0 + delta, b)
    return p, q


# --- the exponential mechanism ----------------------------------------------------------------


def exponential_mechanism_log_probabilities(scores, epsilon, *, sensitivity=1.0) -> np.ndarray:
    """ln P[M_E(X) = h] = ε s(X,h)/(2Δ) − ln Σ_h' exp(ε s(X,h')/(2Δ)) (a log-softmax).

    ``scores``: s(X, h) along the last axis; ``epsilon`` may be an array (its shape is
    prepended, so a grid of ε gives one row per ε). The maximum is subtracted before
    exponentiating, so large ε·s neither overflows nor turns into NaN; in log form even
    probabilities that underflow to 0 keep their exact e^ε ratio to a neighbour's.
    """
    s = check_real("scores", scores)
    if s.ndim == 0 or s.shape[-1] == 0:
        raise ValueError(f"scores must be a non-empty array of scores; got {scores!r}")
    eps = check_nonnegative("epsilon", epsilon)
    delta = check_positive("sensitivity", sensitivity)
    logits = eps.reshape(eps.shape + (1,) * s.ndim) * s / (2 * delta)
    return log_softmax(logits, axis=-1)  # scipy subtracts the maximum first


def exponential_mechanism_probabilities(scores, epsilon, *, sensitivity=1.0) -> np.ndarray:
    """P[M_E(X) = h] = exp(ε s(X,h)/(2Δ)) / Σ_h' exp(ε s(X,h')/(2Δ)) (survey's definition).

    Shapes as in :func:`exponential_mechanism_log_probabilities`; rows sum to 1.
    """
    return np.exp(exponential_mechanism_log_probabilities(scores, epsilon, sensitivity=sensitivity))


def exponential_mechanism_sample(scores, epsilon, size=None, *, rng, sensitivity=1.0):
    """Indices h drawn from the exponential mechanism (scalar ε, 1-D scores)."""
    probs = exponential_mechanism_probabilities(
        scores, check_finite_scalar("epsilon", epsilon), sensitivity=sensitivity
    )
    if probs.ndim != 1:
        raise ValueError(f"scores must be 1-D for sampling; got shape {np.shape(scores)}")
    return make_rng(rng).choice(probs.size, size=size, p=probs)


def expected_score(scores, epsilon, *, sensitivity=1.0):
    """E[s(X, M_E(X))] = Σ_h P[M_E(X) = h] s(X, h) (the expected revenue in the auction)."""
    s = check_real("scores", scores)
    return as_output(
        np.sum(
            exponential_mechanism_probabilities(s, epsilon, sensitivity=sensitivity) * s, axis=-1
        )
    )


def auction_revenue(prices, bids) -> np.ndarray:
    """Revenue at each price: price × (number of bidders willing to pay at least the price)."""
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
    price h by at most one, hence the revenue at h by at most h."""
    prices = check_nonnegative("prices", prices)
    if prices.size == 0:
        raise ValueError("prices must be non-empty")
    return float(np.max(prices))


# --- ε-closeness (lecture notes) --------------------------------------------------------------


def class_distributions(classes, sensitive):
    """P_L for every equivalence class and P_Q for the whole data set.

    Returns ``(class_labels, categories, P_L, P_Q)`` with P_L of shape (classes, categories):
    P_L(s) = #(entries of C with S = s)/|C| and P_Q(s) = #(entries with S = s)/N.
    """
    classes = np.asarray(classes)
    sensitive = np.asarray(sensitive)
    if classes.ndim != 1 or classes.shape != sensitive.shape or classes.size == 0:
        raise ValueError(
            f"classes and sensitive must be non-empty 1-D sequences of equal length; got "
            f"shapes {classes.shape} and {sensitive.shape}"
        )
    labels, ci = np.unique(classes, return_inverse=True)
    cats, si = np.unique(sensitive, return_inverse=True)
    counts = np.zeros((labels.size, cats.size))
    np.add.at(counts, (ci, si), 1)
    p_l = counts / counts.sum(axis=1, keepdims=True)
    p_q = counts.sum(axis=0) / counts.sum()
    return labels, cats, p_l, p_q


def _pair(p_l, p_q):
    p_l = _check_distribution("p_l", p_l)
    p_q = _check_distribution("p_q", p_q)
    if p_l.shape[-1] != p_q.shape[-1]:
        raise ValueError(
            f"p_l and p_q must range over the same categories; got {p_l.shape[-1]} and {p_q.shape[-1]}"
        )
    return p_l, p_q


def variational_distance(p_l, p_q):
    """d(P_L, P_Q) = ½ Σ_s |P_L(s) − P_Q(s)| (rows of p_l against p_q)."""
    p_l, p_q = _pair(p_l, p_q)
    return 0.5 * np.abs(p_l - p_q).sum(axis=-1)


def l1_distance(p_l, p_q):
    """Σ_s |P_L(s) − P_Q(s)| (twice the variational distance)."""
    p_l, p_q = _pair(p_l, p_q)
    return np.abs(p_l - p_q).sum(axis=-1)


def l2_distance(p_l, p_q):
    """√(Σ_s (P_L(s) − P_Q(s))²)."""
    p_l, p_q = _pair(p_l, p_q)
    return np.sqrt(((p_l - p_q) ** 2).sum(axis=-1))


def kl_divergence(p_l, p_q):
    """KL(P_L ‖ P_Q) = Σ_s P_L(s) ln(P_L(s)/P_Q(s)), in nats, with 0 ln 0 = 0.

    Infinite (not NaN) where P_L(s) > 0 = P_Q(s); that cannot happen when P_L is a class of
    the data set P_Q is computed from.
    """
    p_l, p_q = _pair(p_l, p_q)
    # scipy's rel_entr: x·ln(x/y), 0 at x = 0, inf at x > 0 = y
    return as_output(rel_entr(p_l, p_q).sum(axis=-1))
