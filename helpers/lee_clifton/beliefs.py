"""The adversary's beliefs (Lee & Clifton 2011, Sec. 4.3–4.4): the prior over the possible
worlds, the posterior after a noisy release (Definition 3), the largest gain in belief, and the
attack that acts on them, simulated (how often the most probable world is the true one).

Part of :mod:`helpers.lee_clifton`, which re-exports its public names.
"""

from __future__ import annotations

import math

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import check_int_range, check_positive, check_real
from ..mechanisms import make_rng
from ..queries import get_query
from .worlds import (
    _CHUNK_ELEMENTS,
    _PARAMETERS,
    _rate,
    _sensitivity,
    _Setting,
    _setting,
    _world_table,
)

__all__ = [
    "confidence",
    "posterior",
    "prior",
    "simulate_attack",
]

# largest posterior table (outputs × worlds) returned at once: 400 MB of float64
_MAX_POSTERIOR_ELEMENTS = 50_000_000
# largest simulated attack: ε values × trials × true worlds × worlds scored
_MAX_ATTACK_SCORES = 2_000_000_000


# --- beliefs -----------------------------------------------------------------------------


def prior(universe, size: int, weights=None) -> np.ndarray:
    """The adversary's prior over the W worlds (Sec. 4.3): uniform, or ``weights`` normalised.

    Used in notebooks 01 and 02.

    Parameters
    ----------
    %(universe)s
    weights : array_like of float, shape (W,), optional
        Non-negative and finite, not all zero; only their ratios matter (weights near the
        largest double, whose sum overflows, are normalised like any others).

    Returns
    -------
    ndarray, shape (W,)

    Examples
    --------
    >>> prior([1, 2, 3, 10], 3)
    array([0.25, 0.25, 0.25, 0.25])
    >>> prior([1, 2, 3, 10], 3, [1e308, 1e308, 0, 0])
    array([0.5, 0.5, 0. , 0. ])
    """
    return _prior(_setting(universe, size), weights)


def _prior(setting: _Setting, weights) -> np.ndarray:
    n_worlds = setting.n_worlds
    if weights is None:
        return np.full(n_worlds, 1.0 / n_worlds)
    w = check_real("prior weights", weights)
    if w.shape != (n_worlds,):
        raise ValueError(
            f"prior weights must have one entry per world, {n_worlds}; got shape {w.shape}"
        )
    if np.any(w < 0) or not np.any(w > 0):
        shown = w.tolist() if w.size <= 10 else f"an array with minimum {w.min():g}"
        raise ValueError(f"prior weights must be >= 0 with a positive sum; got {shown}")
    # divide by the largest weight first: a sum of W numbers in [0, 1] cannot overflow (the
    # sum of two weights of 1e308 was inf and gave a prior of zeros and a NaN posterior)
    w = w / w.max()
    return w / w.sum()


def posterior(
    universe, size: int, query, output, epsilon, *, sensitivity=None, prior=None
) -> np.ndarray:
    """Definition 3: P(ωᵢ | r) ∝ P(ωᵢ) · exp(−ε |r − f(ωᵢ)| / Δf), Laplace noise of scale Δf/ε.

    A release beyond every world's value gives the same posterior as one on the nearest
    world's value (the likelihood ratios no longer change), which is how a release of 10³⁰⁸
    is computed without overflow.

    Used in notebooks 01, 02 and 08.

    Parameters
    ----------
    %(universe)s
    %(query)s
    output : float or array_like
        r, the noisy release(s).
    epsilon : float or array_like
        ε > 0; broadcasts with ``output``.
    %(sensitivity)s
    prior : array_like, optional
        Weights of the worlds (see ``prior``); default uniform.

    Returns
    -------
    ndarray, shape (*broadcast(output, epsilon).shape, W)

    Raises
    ------
    ValueError
        For bad input, or above 50 million probabilities at once.

    References
    ----------
    Lee & Clifton (2011), Definition 3 and Sec. 4.4 (posterior 0.6180 at r = 2.20131, ε = 2).

    Examples
    --------
    >>> posterior([1, 2, 3, 10], 3, "mean", 2.20131, 2).round(4)
    array([0.618 , 0.1582, 0.125 , 0.0988])
    """
    setting = _setting(universe, size)
    query = get_query(query)
    eps = check_positive("epsilon", epsilon)
    r = check_real("output", output)
    delta_f = _sensitivity(setting, query, sensitivity)
    table = _world_table(setting, query)
    f = table.f
    p0 = _prior(setting, prior)
    shape = np.broadcast_shapes(r.shape, eps.shape)
    n_rows = math.prod(shape)
    if n_rows * f.size > _MAX_POSTERIOR_ELEMENTS:
        raise ValueError(
            f"posterior for {n_rows:,} outputs × {f.size:,} worlds = {n_rows * f.size:,} "
            f"probabilities exceeds {_MAX_POSTERIOR_ELEMENTS:,}; pass fewer outputs at a time"
        )
    # outside [min f, max f] every |r − fᵢ| moves by the same amount: clip (exact, no overflow)
    r = np.clip(r, f.min(), f.max())
    c = _rate(eps, delta_f)[..., None]
    distance = np.abs(r[..., None] - f)
    with np.errstate(divide="ignore", over="ignore"):
        log_prior = np.log(p0)
        # subtract the nearest distance first: c·(d − d_min) is ≥ 0 and may only overflow to +inf
        log_w = log_prior - c * (distance - distance.min(axis=-1, keepdims=True))
    top = np.max(log_w, axis=-1, keepdims=True)
    weights = np.exp(log_w - top)  # stable softmax: a large ε cannot underflow every world
    return np.broadcast_to(weights / weights.sum(axis=-1, keepdims=True), (*shape, f.size)).copy()


def confidence(
    universe, size: int, query, output, epsilon, *, sensitivity=None, prior=None
) -> float | np.ndarray:
    """The adversary's largest gain in belief: max over worlds of posterior − prior.

    Used in notebook 02.

    Parameters
    ----------
    %(universe)s
    %(query)s
    output, epsilon : float or array_like
        As in ``posterior``.
    %(sensitivity)s
    prior : array_like, optional
        As in ``posterior``.

    Returns
    -------
    float or ndarray
        A float for scalar ``output`` and ``epsilon``, else their broadcast shape.

    Examples
    --------
    >>> round(confidence([1, 2, 3, 10], 3, "mean", 2.20131, 2), 4)
    0.368
    """
    p0 = _prior(_setting(universe, size), prior)
    post = posterior(universe, size, query, output, epsilon, sensitivity=sensitivity, prior=p0)
    gain = np.max(post - p0, axis=-1)
    return float(gain) if gain.ndim == 0 else gain


# --- the attack, simulated ----------------------------------------------------------------


def simulate_attack(
    universe,
    size: int,
    query,
    epsilon,
    *,
    true_world: int | None = 0,
    trials: int = 10_000,
    rng,
    prior=None,
):
    """How often the adversary's most probable world is the true one, by seeded simulation.

    Releases r = f(true world) + Laplace noise of scale Δf/ε; after each, the adversary picks
    the world of largest posterior (ties go to the first). The same standard Laplace draws
    serve every ε and every true world (common random numbers), so a curve over ε is smooth.

    Used in notebook 02.

    Parameters
    ----------
    %(universe)s
    %(query)s
    epsilon : float or array_like
        ε > 0.
    true_world : int or None, optional
        The world released (default world 1, index 0); ``None`` averages over the true world
        weighted by the prior: the adversary's expected success.
    trials : int, optional
        Releases simulated.
    rng : int or numpy.random.Generator
        The seed (required: results are reproducible).
    prior : array_like, optional
        As in ``posterior``.

    Returns
    -------
    float or ndarray
        The success rate, the shape of ``epsilon``.

    Raises
    ------
    ValueError
        When ε values × trials × true worlds × worlds would exceed 2·10⁹ posteriors.

    Examples
    --------
    >>> simulate_attack([1, 2, 3, 10], 3, "mean", 5.0, trials=1000, rng=0)
    0.939
    """
    setting = _setting(universe, size)
    query = get_query(query)
    eps = check_positive("epsilon", epsilon)
    n_worlds = setting.n_worlds
    trials = check_int_range("trials", trials, 1, 10_000_000)
    p0 = _prior(setting, prior)
    if true_world is None:
        truths, weights = np.arange(n_worlds), p0
    else:
        truths = np.array([check_int_range("true_world", true_world, 0, n_worlds - 1)])
        weights = np.ones(1)
    scores = eps.size * trials * truths.size * n_worlds
    if scores > _MAX_ATTACK_SCORES:
        raise ValueError(
            f"simulate_attack would score {eps.size:,} ε × {trials:,} trials × "
            f"{truths.size:,} true world(s) × {n_worlds:,} worlds = {scores:,} posteriors, "
            f"more than {_MAX_ATTACK_SCORES:,}; use fewer trials or ε values"
        )
    delta_f = _sensitivity(setting, query, None)
    _rate(eps, delta_f)
    f = _world_table(setting, query).f
    z = make_rng(rng).laplace(0.0, 1.0, trials)  # standard draws, scaled per ε below
    with np.errstate(divide="ignore"):
        log_prior = np.log(p0)
    flat = np.atleast_1d(eps).ravel()
    # (ε, true world, trial, world) scores, in blocks of ε and trials that bound the memory
    per_trial = truths.size * n_worlds
    if per_trial > _CHUNK_ELEMENTS:
        raise ValueError(
            f"simulate_attack would score {truths.size:,} true world(s) × {n_worlds:,} worlds = "
            f"{per_trial:,} posteriors per release, more than {_CHUNK_ELEMENTS:,}; pass one "
            "true_world instead of None, or use a smaller universe"
        )
    t_step = max(1, _CHUNK_ELEMENTS // per_trial)
    e_step = max(1, _CHUNK_ELEMENTS // (per_trial * min(trials, t_step)))
    hits = np.zeros((flat.size, truths.size))
    for e0 in range(0, flat.size, e_step):
        c = flat[e0 : e0 + e_step, None, None, None] / delta_f
        for t0 in range(0, trials, t_step):
            outputs = f[truths][None, :, None, None] + z[None, None, t0 : t0 + t_step, None] / c
            guess = np.argmax(log_prior - c * np.abs(outputs - f), axis=-1)
            hits[e0 : e0 + e_step] += np.sum(guess == truths[None, :, None], axis=-1)
    rates = hits / trials @ weights
    return float(rates[0]) if np.ndim(epsilon) == 0 else rates.reshape(np.shape(epsilon))


fill_docstrings(globals(), _PARAMETERS)
