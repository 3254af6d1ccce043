"""The lecture notes' randomised response with parameter α: privacy, estimator, variances.

One argument order for every rr_* function: the data (x, y_sum or p) first, then the number
of respondents n, then the mechanism's parameter α; options keyword-only.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .._docstrings import fill_docstrings
from .._numerics import ln_at_most, nudge_until
from .._validation import (
    as_output,
    check_int_range,
    check_nonnegative,
    check_real,
    check_scalar,
)
from ..mechanisms import make_rng
from ._checks import _check_alpha, _check_closed_unit, _check_n

__all__ = [
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
]


# --- randomised response -----------------------------------------------------------------
# One argument order for every rr_* function: the data (x, y_sum or p) first, then the
# number of respondents n, then the mechanism's parameter α; options keyword-only.


def rr_output_distribution(x, alpha) -> np.ndarray:
    """[P(y = 0 | x), P(y = 1 | x)] for the notes' randomised response.

    With probability α the true bit x is sent, otherwise a fair coin r: so
    P(y = x) = α + (1 − α)/2 = (1 + α)/2 and P(y ≠ x) = (1 − α)/2. Shape (..., 2).

    Used in notebook 00.

    Parameters
    ----------
    x : float or array_like
        Values (bits 0/1 where the function says so).
    %(alpha)s

    Returns
    -------
    numpy.ndarray
        Shape (*broadcast(x, alpha).shape, 2): [P(y = 0 | x), P(y = 1 | x)] on the last axis.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> np.round(rr_output_distribution(1, 0.5), 6).tolist()
    [0.25, 0.75]
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
    coin) gives ε = 0; α → 1 gives ε → ∞, so α = 1 is refused. α = 1/2 gives ln 3. Rounded
    up: the smallest double at or above the true ε (never an ε below the mechanism's).

    Used in notebook 00.

    Parameters
    ----------
    %(alpha)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(rr_epsilon(0.5), 6)
    1.098612
    """
    a = _check_alpha(alpha, allow_zero=True, allow_one=False)
    # the ε of a mechanism is never reported below its true value: the smallest double at or
    # above ln((1 + α)/(1 − α)) (log1p(α) − log1p(−α) is within ~1 unit, on either side)
    # start two doubles below the float value (whose error is about 1 unit), so the search
    # up ends on the smallest double that holds the true ε
    start = np.nextafter(np.nextafter(np.log1p(a) - np.log1p(-a), 0.0), 0.0)
    return as_output(nudge_until(start, lambda v: _rr_epsilon_at_most(a, v), toward_zero=False))


def rr_alpha_for_epsilon(epsilon):
    """The α that makes randomised response ε-DP: α = (e^ε − 1)/(e^ε + 1) = tanh(ε/2).

    Rounded toward privacy: the largest double α whose ε = ln((1 + α)/(1 − α)) is at most
    the target exactly (so :func:`rr_epsilon`, rounded up, is at most it too). tanh(ε/2) rounded to
    nearest can be one double too large, and above ε ≈ 37.4 it rounds to 1 (no
    randomisation at all, ε = ∞); the largest α below 1 gives ε ≈ 37.43.

    Used in notebook 00.

    Parameters
    ----------
    %(epsilon)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(rr_alpha_for_epsilon(4.0), 6)  # tanh(ε/2); ε = 4 is outside exercise 00.1's range
    0.964028
    """
    eps = check_nonnegative("epsilon", epsilon)
    return as_output(
        nudge_until(np.tanh(eps / 2), lambda a: _rr_epsilon_at_most(a, eps), toward_zero=True)
    )


def _rr_epsilon_at_most(alpha: np.ndarray, eps: np.ndarray) -> np.ndarray:
    """Where ln((1 + α)/(1 − α)) ≤ ε holds exactly (so also for :func:`rr_epsilon`, the
    smallest double at or above it)."""
    alpha, eps = np.broadcast_arrays(alpha, eps)
    below_one = alpha < 1
    a = np.where(below_one, alpha, 0.0)
    estimate = 2 * np.arctanh(a)  # within a few units in the last place

    def ratio(index) -> Fraction:
        x = Fraction(float(a[index]))
        return (1 + x) / (1 - x)

    # below 2^-27, 2α < ε(α) < 2α/(1 − α²) leaves no double between: ε(α) ≤ ε iff 2α < ε
    tiny = a < 2.0**-27
    exact = np.where(
        tiny,
        (2 * a < eps) | (a == 0),
        ln_at_most(estimate, eps, ratio, np.where(tiny, 0.0, 2.0**-44 * estimate)),
    )
    return below_one & exact


def randomised_response(x, alpha, *, rng) -> np.ndarray:
    """Each person's report y_i: x_i with probability α, else a fair coin r_i (int array).

    Used in notebook 00.

    Parameters
    ----------
    x : float or array_like
        Values (bits 0/1 where the function says so).
    %(alpha)s
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator (None is refused: simulations are seeded).

    Returns
    -------
    numpy.ndarray of int
        The reports y_i (0 or 1), of x's shape.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> randomised_response([0, 1, 1, 0], 0.5, rng=0).shape
    (4,)
    """
    x = check_real("x", x)
    if np.any((x != 0) & (x != 1)):
        raise ValueError(f"x must hold only 0s and 1s; got {x[(x != 0) & (x != 1)][:3]!r}")
    a = check_scalar("alpha", _check_alpha(alpha, allow_zero=True, allow_one=True), alpha)
    gen = make_rng(rng)
    keep = gen.random(x.shape) < a
    coin = gen.integers(0, 2, size=x.shape)
    return np.where(keep, x, coin).astype(int)


def rr_estimate(y_sum, n: int, alpha):
    """The notes' estimator p̂ = (1/α)(Y/n − (1 − α)/2), Y = Σ y_i (vectorised in Y and α).

    Unbiased: E[y_i] = αp + (1 − α)/2. It can fall outside [0, 1]; clipping would bias it.

    Used in notebook 00.

    Parameters
    ----------
    y_sum : float or array_like
        Y = Σ yᵢ, the number of 1-answers, in 0..n.
    %(n)s
    %(alpha)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(rr_estimate(9, 18, 0.5), 6)
    0.5
    """
    n = _check_n(n)
    y = check_real("y_sum", y_sum)
    if np.any((y < 0) | (y > n)):
        raise ValueError(f"y_sum must lie in 0..n = 0..{n}; got {y[(y < 0) | (y > n)][:3]!r}")
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    return as_output((y / n - (1 - a) / 2) / a)


def rr_variance(p, n: int, alpha):
    """Var[p̂] = q(1 − q)/(α²n), q = αp + (1 − α)/2, when the x_i are i.i.d. Bernoulli(p).

    Used in notebook 00.

    Parameters
    ----------
    p : float or array_like
        The proportion of 1s in the population (x_i ~ Bernoulli(p)), in [0, 1].
    %(n)s
    %(alpha)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(rr_variance(0.5, 18, 0.5), 6)
    0.055556
    """
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    n = _check_n(n)
    p = _check_closed_unit("p", p)
    q = a * p + (1 - a) / 2
    return as_output(q * (1 - q) / (a * a * n))


def rr_variance_given_data(n: int, alpha):
    """Var[p̂ | x] = (1 − α²)/(4α²n): the spread from the coins alone, for any fixed data.

    Each y_i is Bernoulli((1 ± α)/2), whose variance is (1 − α²)/4 whatever x_i is.

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(n)s
    %(alpha)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Warner (1965), randomized response; Dwork & Roth (2014), §3.2 (randomized response is (ln 3)-DP at a fair coin).

    Examples
    --------
    >>> round(rr_variance_given_data(18, 0.5), 6)
    0.041667
    """
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    n = _check_n(n)
    return as_output((1 - a * a) / (4 * a * a * n))


def rr_variance_bound(n: int, alpha):
    """The notes' bound Var[p̂] ≤ 1/(α²n) (from Var(y_i) ≤ 1).

    Used in notebook 00.

    Parameters
    ----------
    %(n)s
    %(alpha)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(rr_variance_bound(18, 0.5), 6)
    0.222222
    """
    a = _check_alpha(alpha, allow_zero=False, allow_one=True)
    n = _check_n(n)
    return as_output(1.0 / (a * a * n))


def rr_variance_bound_tight(n: int, alpha):
    """Var[p̂] ≤ 1/(4α²n): a bit's variance is at most 1/4, four times tighter than the notes.

    Used in notebook 00.

    Parameters
    ----------
    %(n)s
    %(alpha)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(rr_variance_bound_tight(18, 0.5), 6)
    0.055556
    """
    return as_output(rr_variance_bound(n, alpha) / 4)


def rr_simulate_estimates(p, n: int, alpha, *, reps: int, rng, fixed_data: bool = False):
    """``reps`` independent values of p̂ for n respondents.

    ``fixed_data=False``: each run draws x_i ~ Bernoulli(p) and the coins, so Y ~
    Binomial(n, αp + (1 − α)/2) (drawn directly; the same distribution as simulating every
    respondent). ``fixed_data=True``: the data hold exactly round(pn) ones and only the
    coins vary: Y = Binomial(k, (1 + α)/2) + Binomial(n − k, (1 − α)/2).

    Used in notebook 00.

    Parameters
    ----------
    p : float
        The proportion of 1s in the population (x_i ~ Bernoulli(p)), in [0, 1].
    %(n)s
    %(alpha)s
    reps : int, keyword-only
        Number of simulated surveys, 1..10⁷.
    rng : int or numpy.random.Generator, keyword-only
        Seed or generator (None is refused: simulations are seeded).
    fixed_data : bool, keyword-only
        Hold the data fixed (only the coins vary).

    Returns
    -------
    numpy.ndarray
        The ``reps`` estimates p̂, shape (reps,).

    %(raises)s

    %(references)s

    Examples
    --------
    >>> rr_simulate_estimates(0.5, 18, 0.5, reps=5, rng=0).shape
    (5,)
    """
    p = check_scalar("p", _check_closed_unit("p", p), p)
    n = _check_n(n)
    a = check_scalar("alpha", _check_alpha(alpha, allow_zero=False, allow_one=True), alpha)
    reps = check_int_range("reps", reps, 1, 10_000_000)
    if not isinstance(fixed_data, (bool, np.bool_)):  # "False" (a string) is truthy
        raise ValueError(f"fixed_data must be True or False; got {fixed_data!r}")
    gen = make_rng(rng)
    if fixed_data:
        k = round(p * n)
        y = gen.binomial(k, (1 + a) / 2, reps) + gen.binomial(n - k, (1 - a) / 2, reps)
    else:
        y = gen.binomial(n, a * p + (1 - a) / 2, reps)
    return rr_estimate(y, n, a)


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "alpha": """\
alpha : float or array_like
    Randomised response's α (probability of telling the truth), in the range stated above.""",
    "n": """\
n : int
    Number of people / respondents, a positive integer.""",
    "references": """\
References
----------
Warner (1965), randomized response; Dwork & Roth (2014), §3.2 (randomized response is (ln 3)-DP at a fair coin).""",
}

fill_docstrings(globals(), _SECTIONS)
