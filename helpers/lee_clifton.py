"""Lee & Clifton (2011), "How Much Is Enough? Choosing ε for Differential Privacy".

The adversary knows the universe U of N records and that the released data set holds
``size`` = n of them; everything else is uncertain. Notation, as in the paper:

* possible worlds ω₁ … ω_W: the size-n sub-multisets of U taken by position, in
  ``itertools.combinations`` order (W = C(N, n)); for the school example world 1 is the
  released data set, everyone but Terry;
* f: the query (``helpers.queries``); Δf: its unbounded empirical sensitivity, which sets
  the Laplace scale b = Δf/ε of the release;
* Δv: the largest difference of f between two possible worlds, max f(ωᵢ) − min f(ωⱼ);
* ρ: the risk, the largest posterior probability the data owner tolerates for the true world.

Every public function takes ``universe, size, query`` first (query: a name such as
``"mean"``, a ``Query`` or a callable) and validates its input.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ._validation import (
    check_finite_scalar,
    check_int_range,
    check_open_unit,
    check_positive,
    check_real,
    check_universe,
)
from .mechanisms import make_rng
from .queries import Query, get_query
from .sensitivity import combination_indices, unbounded_sensitivity

__all__ = [
    "MAX_WORLDS",
    "analysis_table",
    "binary_search_epsilon",
    "binary_search_steps",
    "confidence",
    "count_worlds",
    "delta_v",
    "epsilon_upper_bound",
    "limit_of_tight_bound",
    "possible_worlds",
    "posterior",
    "prior",
    "simulate_attack",
    "tight_bound",
    "upper_bound",
    "world_values",
]

#: Largest number of possible worlds enumerated; C(N, n) above it is refused with a
#: ValueError (at 3 million worlds the world table of a size-10 release is 240 MB).
MAX_WORLDS = 3_000_000
# elements per temporary array when the bounds are evaluated for many ε at once
_CHUNK_ELEMENTS = 2_000_000
# largest posterior table (outputs × worlds) returned at once: 400 MB of float64
_MAX_POSTERIOR_ELEMENTS = 50_000_000


# --- possible worlds and their query values ----------------------------------------------


def count_worlds(universe, size: int) -> int:
    """W = C(N, n), the number of possible worlds."""
    values = check_universe(universe)
    size = check_int_range("size", size, 1, values.size)
    return math.comb(values.size, size)


def _checked(universe, size) -> tuple[tuple[float, ...], int]:
    values = check_universe(universe)
    size = check_int_range("size", size, 1, values.size)
    count = math.comb(values.size, size)
    if count > MAX_WORLDS:
        raise ValueError(
            f"C({values.size}, {size}) = {count:,} possible worlds exceeds the limit "
            f"MAX_WORLDS = {MAX_WORLDS:,}; use a smaller universe or release size"
        )
    return tuple(values.tolist()), size


def possible_worlds(universe, size: int) -> np.ndarray:
    """The possible worlds as rows of values, shape (W, n), in combinations order."""
    values, size = _checked(universe, size)
    return np.asarray(values)[combination_indices(len(values), size)]


@lru_cache(maxsize=64)
def _world_table(
    values: tuple[float, ...], size: int, query: Query
) -> tuple[np.ndarray, np.ndarray, int]:
    """(f per world, f sorted, fewest worlds sharing one value of f), computed once per setting."""
    worlds = np.asarray(values)[combination_indices(len(values), size)]
    f = np.atleast_1d(query(worlds)).astype(float)
    del worlds
    # Two worlds holding the same records in another order can differ in the last bit
    # (floating-point sums); snap such near-ties so "equal" means equal for the bounds.
    order = np.argsort(f, kind="stable")
    sorted_f = f[order]
    tolerance = 1e-12 * max(1.0, float(np.max(np.abs(f))))
    starts = np.concatenate([[True], np.diff(sorted_f) > tolerance])
    sorted_f = sorted_f[starts][np.cumsum(starts) - 1]
    f[order] = sorted_f
    fewest_ties = int(np.diff(np.flatnonzero(np.concatenate([starts, [True]]))).min())
    for array in (f, sorted_f):
        array.setflags(write=False)
    return f, sorted_f, fewest_ties


def _world_values(values: tuple[float, ...], size: int, query: Query) -> np.ndarray:
    return _world_table(values, size, query)[0]


def world_values(universe, size: int, query) -> np.ndarray:
    """f(ωᵢ) for every possible world (read-only; cached, so sliders stay fast)."""
    values, size = _checked(universe, size)
    return _world_values(values, size, get_query(query))


@lru_cache(maxsize=64)
def _delta_f(values: tuple[float, ...], size: int, query: Query) -> float:
    return unbounded_sensitivity(values, size, query)


def _sensitivity(values, size, query, sensitivity) -> float:
    if sensitivity is None:
        delta_f = _delta_f(values, size, query)
        if delta_f == 0:
            raise ValueError(
                f"query {query.name!r} has zero sensitivity on this universe: no noise is "
                "needed and the bounds are undefined; pass sensitivity= explicitly if intended"
            )
        return delta_f
    return float(check_positive("sensitivity", sensitivity))


def delta_v(universe, size: int, query) -> float:
    """Δv = max over pairs of worlds of |f(ωᵢ) − f(ωⱼ)| = max f − min f."""
    f = world_values(universe, size, query)
    return float(f.max() - f.min())


# --- beliefs -----------------------------------------------------------------------------


def prior(universe, size: int, weights=None) -> np.ndarray:
    """The adversary's prior over the W worlds: uniform, or ``weights`` normalised to sum 1."""
    return _prior(universe, size, weights)


def _prior(universe, size: int, weights) -> np.ndarray:
    values, size = _checked(universe, size)
    n_worlds = math.comb(len(values), size)
    if weights is None:
        return np.full(n_worlds, 1.0 / n_worlds)
    w = check_real("prior weights", weights)
    if w.shape != (n_worlds,):
        raise ValueError(
            f"prior weights must have one entry per world, {n_worlds}; got shape {w.shape}"
        )
    if np.any(w < 0) or w.sum() <= 0:
        raise ValueError(f"prior weights must be >= 0 with a positive sum; got {w.tolist()}")
    return w / w.sum()


def posterior(
    universe, size: int, query, output, epsilon, *, sensitivity=None, prior=None
) -> np.ndarray:
    """Definition 3: P(ωᵢ | r) ∝ P(ωᵢ) · exp(−ε |r − f(ωᵢ)| / Δf).

    ``output`` r is the noisy release (a number, or an array of them: then the result has
    one row per output). Laplace noise of scale b = Δf/ε; Δf defaults to the unbounded
    sensitivity. ``prior`` defaults to uniform. Returns probabilities over the W worlds.
    """
    values, size = _checked(universe, size)
    query = get_query(query)
    eps = float(check_positive("epsilon", check_finite_scalar("epsilon", epsilon)))
    r = check_real("output", output)
    delta_f = _sensitivity(values, size, query, sensitivity)
    f = _world_values(values, size, query)
    p0 = _prior(values, size, prior)
    if r.size * f.size > _MAX_POSTERIOR_ELEMENTS:
        raise ValueError(
            f"posterior for {r.size:,} outputs × {f.size:,} worlds = {r.size * f.size:,} "
            f"probabilities exceeds {_MAX_POSTERIOR_ELEMENTS:,}; pass fewer outputs at a time"
        )
    with np.errstate(divide="ignore"):
        log_prior = np.log(p0)
    log_w = log_prior - eps * np.abs(r[..., None] - f) / delta_f
    log_w -= np.max(log_w, axis=-1, keepdims=True)  # stable softmax: large ε cannot underflow
    weights = np.exp(log_w)
    return weights / weights.sum(axis=-1, keepdims=True)


def confidence(
    universe, size: int, query, output, epsilon, *, sensitivity=None, prior=None
) -> float:
    """The adversary's largest gain in belief: max over worlds of posterior − prior."""
    p0 = _prior(universe, size, prior)
    post = posterior(universe, size, query, output, epsilon, sensitivity=sensitivity, prior=p0)
    return float(np.max(post - p0, axis=-1)) if np.ndim(output) == 0 else np.max(post - p0, axis=-1)


# --- bounds on the posterior ---------------------------------------------------------------


def _epsilons(epsilon) -> np.ndarray:
    return check_positive("epsilon", epsilon)


def upper_bound(universe, size: int, query, epsilon, *, sensitivity=None):
    """Sec. 5.1, eq. (4)–(5): 1 / (1 + (W − 1) · exp(−ε Δv / Δf)). Vectorised over ε."""
    values, size = _checked(universe, size)
    query = get_query(query)
    eps = _epsilons(epsilon)
    delta_f = _sensitivity(values, size, query, sensitivity)
    n_worlds = math.comb(len(values), size)
    bound = 1.0 / (1.0 + (n_worlds - 1) * np.exp(-eps * delta_v(values, size, query) / delta_f))
    return float(bound) if bound.ndim == 0 else bound


def _tight_sums(f_sorted: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Sᵢ = Σⱼ exp(−c |fᵢ − fⱼ|) for sorted f, each row of c at once, in O(W) per ε.

    Split Σⱼ into j ≤ i and j ≥ i: Σ_{j≤i} e^{−c(fᵢ−fⱼ)} = e^{−c fᵢ} Σ_{j≤i} e^{c fⱼ}, a
    cumulative sum, computed in log space (logaddexp.accumulate) so nothing overflows.
    """
    cf = c[:, None] * f_sorted[None, :]
    left = np.exp(np.logaddexp.accumulate(cf, axis=1) - cf)
    right = np.exp(np.logaddexp.accumulate(-cf[:, ::-1], axis=1)[:, ::-1] + cf)
    return left + right - 1.0  # j = i counted in both


def tight_bound(universe, size: int, query, epsilon, *, sensitivity=None):
    """Eq. (3): max over worlds i of 1 / (1 + Σ_{j≠i} exp(−ε |f(ωᵢ) − f(ωⱼ)| / Δf)).

    The adversary's posterior for world i is largest when the release lands exactly on
    f(ωᵢ) (triangle inequality), which gives this bound; the maximum runs over **all**
    worlds. Vectorised over ε; no loop over pairs of worlds: sorting f makes each world's
    sum a cumulative sum.
    """
    values, size = _checked(universe, size)
    query = get_query(query)
    eps = _epsilons(epsilon)
    delta_f = _sensitivity(values, size, query, sensitivity)
    bound = _tight_bound_from_table(_world_table(values, size, query), eps / delta_f)
    return float(bound) if bound.ndim == 0 else bound


def _tight_bound_from_table(table, c: np.ndarray) -> np.ndarray:
    """Eq. (3) for c = ε/Δf (any shape), from the cached (f, sorted f, fewest ties) table."""
    _, f_sorted, fewest_ties = table
    flat = np.atleast_1d(c).ravel()
    # a few ε rows at a time keeps the temporary arrays near _CHUNK_ELEMENTS
    rows = max(1, _CHUNK_ELEMENTS // f_sorted.size)
    smallest = np.concatenate(
        [_tight_sums(f_sorted, flat[i : i + rows]).min(axis=1) for i in range(0, flat.size, rows)]
    )
    # The log-space sums lose ~1e-16·ε·Δv/Δf in absolute terms, which shows only at absurd
    # ε (1e-11 at ε = 1e6); clip to the interval the exact bound provably lies in,
    # [1/W, 1/(fewest worlds sharing a value)], so it never overshoots its limit.
    return np.clip(1.0 / smallest, 1.0 / f_sorted.size, 1.0 / fewest_ties).reshape(np.shape(c))


def limit_of_tight_bound(universe, size: int, query) -> float:
    """lim_{ε→∞} of the tight bound: 1 / (smallest number of worlds sharing one value of f).

    Worlds with equal f can never be told apart, however little noise is added.
    """
    values, size = _checked(universe, size)
    return 1.0 / _world_table(values, size, get_query(query))[2]


# --- choosing ε ----------------------------------------------------------------------------


def _check_risk_above_prior(risk: float, n_worlds: int) -> None:
    if risk <= 1.0 / n_worlds:
        raise ValueError(
            f"risk={risk:g} is at or below the prior 1/W = 1/{n_worlds} = {1 / n_worlds:.4g}: the "
            "adversary already has that much belief before any release, so no ε > 0 meets it"
        )


def epsilon_upper_bound(universe, size: int, query, risk, *, sensitivity=None) -> float:
    """Eq. (7): ε ≤ Δf/Δv · ln((W − 1) ρ / (1 − ρ)), the ε at which the upper bound equals ρ.

    The log's argument is ≤ 1 exactly when ρ ≤ 1/W; that is refused with a ValueError
    rather than returning a negative ε. If Δv = 0 (every world gives the same answer) the
    release tells the adversary nothing and the result is ``math.inf``.
    """
    values, size = _checked(universe, size)
    query = get_query(query)
    rho = float(check_open_unit("risk", risk))
    n_worlds = math.comb(len(values), size)
    if n_worlds == 1:
        raise ValueError(
            "size equals the universe: there is one possible world and the adversary knows it"
        )
    _check_risk_above_prior(rho, n_worlds)
    delta_f = _sensitivity(values, size, query, sensitivity)
    dv = delta_v(values, size, query)
    if dv == 0:
        return math.inf
    return delta_f / dv * math.log((n_worlds - 1) * rho / (1 - rho))


def binary_search_steps(universe, size: int, query, risk, *, tol: float = 1e-9, sensitivity=None):
    """The binary search of Sec. 5.2 on the tight bound, step by step.

    Returns a list of brackets ``(low, high)``: the tight bound is ≤ ρ at ``low`` and > ρ at
    ``high``. The first bracket starts at low = 0 (where the bound is the prior 1/W) and the
    first power of two whose bound exceeds ρ; each step halves it until high − low ≤ tol.
    An empty list means no ε exceeds ρ (see ``binary_search_epsilon``).
    """
    values, size = _checked(universe, size)
    query = get_query(query)
    rho = float(check_open_unit("risk", risk))
    tol = float(check_positive("tol", tol))
    n_worlds = math.comb(len(values), size)
    if n_worlds == 1:
        raise ValueError(
            "size equals the universe: there is one possible world and the adversary knows it"
        )
    if rho >= limit_of_tight_bound(values, size, query):
        return []
    _check_risk_above_prior(rho, n_worlds)
    delta_f = _sensitivity(values, size, query, sensitivity)

    table = _world_table(values, size, query)

    def bound(e: float) -> float:  # validated once above; each step is one O(W) pass
        return float(_tight_bound_from_table(table, np.float64(e / delta_f)))

    high = 1.0
    while bound(high) <= rho:  # terminates: the bound tends to a limit above ρ
        high *= 2.0
    low = 0.0
    steps = [(low, high)]
    while high - low > tol:
        mid = 0.5 * (low + high)
        if mid in (low, high):  # floating point cannot split the bracket further
            break
        if bound(mid) <= rho:
            low = mid
        else:
            high = mid
        steps.append((low, high))
    return steps


def binary_search_epsilon(
    universe, size: int, query, risk, *, tol: float = 1e-9, sensitivity=None
) -> float:
    """The largest ε whose tight bound (eq. 3) stays ≤ ρ, to within ``tol``.

    The tight bound grows with ε, from the prior 1/W at ε → 0 towards
    ``limit_of_tight_bound`` = 1/m, m the fewest worlds sharing a query value. When ρ is at
    or above that limit no amount of ε pushes the adversary's posterior above ρ (the
    query cannot separate the worlds), and the result is ``math.inf``. A ρ at or below 1/W
    is a ValueError: no ε > 0 meets it.
    """
    steps = binary_search_steps(universe, size, query, risk, tol=tol, sensitivity=sensitivity)
    return math.inf if not steps else steps[-1][0]


# --- the whole analysis, one row per query ------------------------------------------------


def analysis_table(universe, size: int, risk, queries=None):
    """Δf, Δv, the tight bound's limit, the ε upper bound (eq. 7) and the binary-search ε
    for each query, as a pandas DataFrame indexed by query name.

    ``queries`` defaults to every built-in query plus the quartiles. A query the analysis
    refuses for this universe (zero sensitivity, say) gets NaN and the reason in ``note``
    instead of stopping the table, so a reader's own column always gives a full picture.
    """
    import pandas as pd

    from .queries import QUERY_NAMES

    values, size = _checked(universe, size)
    rho = float(check_open_unit("risk", risk))
    if queries is None:
        queries = [q for q in QUERY_NAMES if "<" not in q] + ["percentile_25", "percentile_75"]
    rows = []
    for query in queries:  # a handful of queries, each fully vectorised over the worlds
        q = get_query(query)
        row = {"query": q.name, "Δf": math.nan, "Δv": math.nan, "limit of tight bound": math.nan}
        row |= {"ε upper bound": math.nan, "ε binary search": math.nan, "note": ""}
        try:
            row["Δf"] = _delta_f(values, size, q)
            row["Δv"] = delta_v(values, size, q)
            row["limit of tight bound"] = limit_of_tight_bound(values, size, q)
            row["ε upper bound"] = epsilon_upper_bound(values, size, q, rho)
            row["ε binary search"] = binary_search_epsilon(values, size, q, rho)
        except ValueError as error:
            row["note"] = str(error)
        rows.append(row)
    return pd.DataFrame(rows).set_index("query")


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
    the world of largest posterior (ties go to the first). Returns the fraction of ``trials``
    releases where that is the true world: a float for a scalar ε, an array for an array of
    ε. ``true_world=None`` averages over the true world weighted by the prior: the
    adversary's expected success, which starts at the largest prior probability (1/W when
    uniform) as ε → 0. The same standard Laplace draws serve every ε and every true world
    (common random numbers), so a curve over ε is smooth and its differences are real.
    """
    values, size = _checked(universe, size)
    query = get_query(query)
    eps = check_positive("epsilon", epsilon)
    n_worlds = math.comb(len(values), size)
    trials = check_int_range("trials", trials, 1, 10_000_000)
    p0 = _prior(values, size, prior)
    if true_world is None:
        truths, weights = np.arange(n_worlds), p0
    else:
        truths = np.array([check_int_range("true_world", true_world, 0, n_worlds - 1)])
        weights = np.ones(1)
    delta_f = _sensitivity(values, size, query, None)
    f = _world_values(values, size, query)
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
