"""The one composition pipeline: many releases of any mechanisms, as one privacy-loss distribution.

Every layer that composes (the budget's δ(ε) and ε(δ), notebook 11's attack readings, the bad
event's tail) calls these public steps and nothing else; nothing here rebuilds a mechanism from
(class, noise, Δ), so every parameter an instance holds is kept:

1. :func:`check_mechanisms` – one :class:`~helpers.mechanisms.PrivacyLoss` or a list of them;
2. :func:`releases` – equal releases counted once with their number of runs, every μ-Gaussian-DP
   release merged into one Gaussian (μ² adds: exact, Dong, Roth & Su 2022, Cor. 3.3), and, with
   ``merge``, near-twins grouped by :meth:`~helpers.mechanisms.PrivacyLoss.coarsened`;
3. :func:`composed_pld` – each group's own :meth:`~helpers.mechanisms.PrivacyLoss.pld`
   self-composed, the groups composed in a balanced tree by dp_accounting (both adjacencies);
4. :func:`composed_loss` – each group's own :meth:`~helpers.mechanisms.PrivacyLoss.loss_pmf`
   (the loss rounded up, never connected by dots), summed: the law the bad event's tail is read
   on.

Both products are cached by value (a dashboard's searches revisit them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._cache import ByteBoundedCache
from .._docstrings import fill_docstrings
from .._validation import (
    check_discretization,
    check_finite_scalar,
    check_open_unit,
    check_real,
    describe,
)
from .loss import ADJACENCIES, LossPMF, PrivacyLoss, check_adjacency

__all__ = [
    "adjacencies",
    "check_mechanisms",
    "composed_loss",
    "composed_pld",
    "epsilon_for_delta",
    "releases",
]

#: most grid cells a composed distribution may span (work refused above, up front)
MAX_CELLS = 20_000_000
#: what the caches of built distributions may keep, in grid cells (:func:`_cells`, about 8
#: bytes each): about 64 MiB for composed ones, 8 MiB for single releases. Evicted by size,
#: not by count: a noise search (helpers.dpsgd) builds a dozen distributions, those of small
#: noise tens of megabytes each, and a cache of 16 entries kept them all alive (a graded run
#: of notebook 13 then ran out of its sandbox's 2 GiB)
_COMPOSED_CELLS = 8 * 2**20
_SINGLE_CELLS = 2**20
_MAX_RELEASES = 10**7
_MAX_GROUPS = 2_000
_MAX_TIMES = 10**6
_U = 2.0**-53


def check_mechanisms(mechanisms, *, name="mechanisms") -> tuple:
    """``mechanisms`` (one :class:`PrivacyLoss` or a non-empty sequence of them) as a tuple.

    Not called in a notebook; used by ``helpers.attack``.

    Parameters
    ----------
    mechanisms : PrivacyLoss or sequence of PrivacyLoss
        The releases (at most 10⁷), each with one value of each parameter.
    name : str, keyword-only
        The parameter's name in messages.

    Returns
    -------
    tuple of PrivacyLoss

    Raises
    ------
    ValueError
        For anything else, naming the entry.

    %(references)s

    Examples
    --------
    >>> from helpers.mechanisms import Laplace
    >>> check_mechanisms(Laplace(1.0))
    (Laplace(scale=1.0, sensitivity=1.0),)
    """
    if not isinstance(name, str):
        raise ValueError(f"name must be a string; got {name!r}")
    if isinstance(mechanisms, PrivacyLoss):
        return (mechanisms,)
    if isinstance(mechanisms, (str, bytes)) or not isinstance(mechanisms, (Sequence, np.ndarray)):
        shown = repr(mechanisms)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise ValueError(
            f"{name} must be a mechanism object of helpers.mechanisms (a PrivacyLoss such as "
            f"Laplace, Gaussian, RandomizedResponse or Subsampled) or a non-empty list of them; "
            f"got {shown}"
        )
    if len(mechanisms) == 0:
        raise ValueError(f"{name} must hold at least one mechanism; got an empty sequence")
    if len(mechanisms) > _MAX_RELEASES:
        raise ValueError(
            f"{name} must hold at most {_MAX_RELEASES:,} mechanisms; got {len(mechanisms):,}"
        )
    for i, one in enumerate(mechanisms):
        if not isinstance(one, PrivacyLoss):
            raise ValueError(
                f"{name}[{i}] must be a mechanism object of helpers.mechanisms (a PrivacyLoss); "
                f"got {one!r}"
            )
        if not one.is_single():
            raise ValueError(f"{name}[{i}] must hold one value of each parameter; got {one!r}")
        params = getattr(type(one), "__dataclass_params__", None)
        if params is None or not params.frozen:
            # results are cached by value: a mechanism that can change after it is made would
            # be read stale (CONTRIBUTING.md: a mechanism is a frozen dataclass)
            raise ValueError(
                f"{name}[{i}] must be an instance of a frozen dataclass "
                f"(@dataclass(frozen=True)); got {type(one).__name__}"
            )
    return tuple(mechanisms)


def _check_runs(times, n: int) -> list:
    """``times`` as one int per release (None: once each), each in 1 .. 10⁶."""
    if times is None:
        return [1] * n
    t = check_real("times", times, rule="be integers in 1..1,000,000")
    if t.ndim > 1 or (t.ndim == 1 and t.size != n):
        raise ValueError(
            f"times must broadcast with the mechanisms: one integer or one per mechanism ({n}); "
            f"got shape {np.shape(times)}"
        )
    bad = (t < 1) | (t > _MAX_TIMES) | (t != np.round(t))
    if np.any(bad):
        raise ValueError(f"times must be integers in 1..{_MAX_TIMES:,}; got {describe(times, bad)}")
    return [int(x) for x in np.broadcast_to(t, (n,))]


def _check_merge(merge) -> float:
    value = float(check_finite_scalar("merge", merge, rule="be 0 or lie in [1e-12, 0.1]"))
    # below 1e-12 the grid (1 + merge)^j cannot round up reliably in doubles (j + 1 == j)
    if not (value == 0 or 1e-12 <= value <= 0.1):
        raise ValueError(f"merge must be 0 or lie in [1e-12, 0.1]; got {merge!r}")
    return value


def _check_cells(max_cells) -> float:
    value = float(check_finite_scalar("max_cells", max_cells, rule="lie in [1, 1e9]"))
    if not 1 <= value <= 1e9:
        raise ValueError(f"max_cells must lie in [1, 1e9]; got {max_cells!r}")
    return value


def composed_mu(gdp: list) -> float:
    """√(Σ tᵢ·μᵢ²) over (μᵢ, tᵢ) pairs of μ-GDP releases run tᵢ times, rounded up."""
    squares = [mu * mu * t for mu, t in gdp]
    total = math.sqrt(math.fsum(squares))
    # each square and the sum within a few ulps, the root within one: a relative margin
    return float(total * (1 + (4 * len(squares) + 16) * _U) + np.finfo(float).tiny)


def releases(mechanisms, *, times=None, merge=0.0) -> tuple:
    """((mechanism, runs), ...): the releases grouped, equal ones counted once (see the module).

    Every μ-GDP release becomes one Gaussian of σ = 1 at Δ = √(Σ tᵢ·μᵢ²) (rounded up: exact,
    Dong, Roth & Su 2022, Cor. 3.3); with ``merge`` > 0 every other release is first replaced
    by its :meth:`~PrivacyLoss.coarsened` twin (never more private). No release is rebuilt.

    Not called in a notebook; used by ``helpers.attack``.

    Parameters
    ----------
    mechanisms : PrivacyLoss or sequence of PrivacyLoss
        The releases, each as it is.
    times : int or sequence of int, keyword-only
        How many times each runs (1 to 10⁶); once each by default.
    merge : float, keyword-only
        0, or in [1e-12, 0.1].

    Returns
    -------
    tuple of (PrivacyLoss, int)

    Raises
    ------
    ValueError
        For a bad argument, or more than 2,000 distinct releases (merge near-twins beyond).

    %(references)s

    Examples
    --------
    >>> from helpers.mechanisms import Gaussian, Laplace
    >>> merged, laplace = releases([Laplace(1.0), Laplace(1.0), Gaussian(2.0), Gaussian(2.0)])
    >>> laplace, round(merged[0].sensitivity, 12)  # μ = √(2·¼), one Gaussian of σ = 1
    ((Laplace(scale=1.0, sensitivity=1.0), 2), 0.707106781187)
    """
    from .continuous import Gaussian

    mechanisms = check_mechanisms(mechanisms)
    runs = _check_runs(times, len(mechanisms))
    merge = _check_merge(merge)
    counts: dict = {}
    gdp: list = []  # (μ, runs) of the μ-GDP releases
    for one, t in zip(mechanisms, runs, strict=True):
        mu = one.gdp_mu()
        if mu is not None:
            gdp.append((mu, int(t)))
            continue
        key = one.coarsened(merge) if merge > 0 else one
        counts[key] = counts.get(key, 0) + int(t)
    out = []
    if gdp:
        out.append((Gaussian(1.0, sensitivity=composed_mu(gdp)), 1))
    out.extend(counts.items())
    if len(out) > _MAX_GROUPS:
        raise ValueError(
            f"mechanisms hold {len(out):,} distinct mechanisms; at most {_MAX_GROUPS:,} are built "
            "in one call (each takes milliseconds): merge near-twins with merge > 0"
        )
    return tuple(out)


def _cells(groups: tuple, discretization: float) -> float:
    """A rough count of the grid cells the composed distribution spans (for the work budget)."""
    return sum(2 * one.loss_span(t) / discretization for one, t in groups)


def _check_work(groups: tuple, h: float, max_cells: float) -> None:
    cells = _cells(groups, h)
    if cells > max_cells:
        raise ValueError(
            f"the composed privacy-loss distribution would span about {cells:.3g} steps of "
            f"{h:g} (at most {max_cells:.0e}); use a larger discretization or fewer releases"
        )


def _balanced(items: list, join):
    """Join a list pairwise in a balanced tree (each item takes part in about log₂ n joins)."""
    while len(items) > 1:
        items = [
            join(items[i], items[i + 1]) if i + 1 < len(items) else items[i]
            for i in range(0, len(items), 2)
        ]
    return items[0]


_SINGLE_PLDS = ByteBoundedCache(_SINGLE_CELLS, size_of=lambda entry: entry[1])
_COMPOSED_PLDS = ByteBoundedCache(_COMPOSED_CELLS, size_of=lambda entry: entry[1])
_SINGLE_LOSSES = ByteBoundedCache(_SINGLE_CELLS, size_of=lambda entry: entry[1])
_COMPOSED_LOSSES = ByteBoundedCache(_COMPOSED_CELLS, size_of=lambda entry: entry[1])


def _one_pld(one: PrivacyLoss, h: float):
    def make():
        return one.pld(discretization=h), _cells(((one, 1),), h)

    return _SINGLE_PLDS.get((one, h), make)[0]


#: dp_accounting's default truncation of a self-composition's two tails (mass left out)
_TAIL_MASS = 1e-15
#: the moment orders of its Chernoff bounds on those tails: ±k/n for k = 1…20 (n grid cells)
_ORDERS = 20


def _self_convolve_bounds(probs: np.ndarray, times: int, tail: float) -> tuple[int, int]:
    """dp_accounting's ``common.compute_self_convolve_bounds``: the grid indices of the t-fold
    self-convolution of ``probs`` outside which at most ``tail`` of its mass lies, by the
    Chernoff bound on its moment-generating function at the orders ±k/n, k = 1…20
    (Koskela, Jälkö & Honkela 2020, eq. 5 of the supplement, as dp_accounting applies it).

    The same bounds, in two exponentials per cell instead of forty: the MGF terms
    p_i·e^{±k·i/n} are p_i·(e^{±i/n})^k, built by k − 1 products. Every exponent lies in
    [−20, 20], so no term overflows and no log-sum-exp shift is needed. The products' rounding
    (k ulps) moves a bound by about t·n·1e-16 cells, as the library's own rounding does: it
    changes an integer only where the bound lies that close to one, and either integer then
    truncates at most ``tail`` (below a cell of error while t·n < 10¹⁴, far above any grid
    the work budget admits).
    """
    n = len(probs)
    upper, lower = (n - 1) * times, 0
    x = np.arange(n) / n
    slack = math.log(2 / tail)
    for sign in (1.0, -1.0):
        step = np.exp(sign * x)
        term = np.array(probs, dtype=float)
        for k in range(1, _ORDERS + 1):
            term *= step
            total = float(term.sum())
            if not total > 0:  # no mass (or rounding's negatives): the order says nothing
                continue
            order = sign * k / n
            bound = (times * math.log(total) + slack) / order
            if not math.isfinite(bound):
                continue
            if order > 0:
                upper = min(upper, math.ceil(bound))
            else:
                lower = max(lower, math.floor(bound))
    return lower, upper


def _self_composed_pmf(pmf, times: int):
    """dp_accounting's ``DensePLDPmf.self_compose`` (tail mass 1e-15): the PMF composed with
    itself ``times`` times, truncated to :func:`_self_convolve_bounds` and with the mass
    truncated added to the infinite loss (pessimistic). The convolution power is taken by a
    real FFT (half the length of the library's complex one); the grid, the bounds and the
    infinity mass are the library's."""
    from dp_accounting.pld.pld_pmf import DensePLDPmf
    from scipy import fft

    probs = np.asarray(pmf._probs, dtype=float)
    low, high = _self_convolve_bounds(probs, times, _TAIL_MASS)
    length = high - low + 1
    size = fft.next_fast_len(max(length, len(probs)), real=True)
    power = fft.irfft(fft.rfft(probs, size) ** times, size)
    # the transform wraps around modulo its length: the window [low, high] starts at low
    out = np.roll(power, -low)[:length].copy()  # not a view keeping the whole transform
    # the infinite loss's mass: the tails cut, plus 1 − (1 − p∞)^t in log space
    infinity = _TAIL_MASS - math.expm1(times * math.log1p(-pmf._infinity_mass))
    return DensePLDPmf(
        pmf._discretization, pmf._lower_loss * times + low, out, infinity, pmf._pessimistic_estimate
    )


def _self_composed(pld, times: int):
    """``pld.self_compose(times)``, each dense PMF by :func:`_self_composed_pmf`: the same
    distribution in about half the time (the truncation bounds' forty log-sum-exps were a
    third of a DP-SGD calibration). A sparse PMF is left to dp_accounting."""
    from dp_accounting.pld.pld_pmf import DensePLDPmf
    from dp_accounting.pld.privacy_loss_distribution import PrivacyLossDistribution

    pmfs = [pld._pmf_remove] if pld._symmetric else [pld._pmf_remove, pld._pmf_add]
    if not all(type(pmf) is DensePLDPmf for pmf in pmfs):
        with np.errstate(over="ignore"):  # its logsumexp tries orders that overflow: rejected
            return pld.self_compose(times)
    return PrivacyLossDistribution(*(_self_composed_pmf(pmf, times) for pmf in pmfs))


def _composed_pld(groups: tuple, h: float):
    def make():
        plds = []
        for one, t in groups:
            built = _one_pld(one, h)
            if t > 1:
                built = _self_composed(built, t)
            plds.append(built)
        return _balanced(plds, lambda a, b: a.compose(b)), _cells(groups, h)

    return _COMPOSED_PLDS.get((groups, h), make)[0]


def composed_pld(mechanisms, *, times=None, merge=0.0, discretization=1e-4, max_cells=MAX_CELLS):
    """dp_accounting's pessimistic PLD of the releases, both adjacencies.

    Each release's own :meth:`~PrivacyLoss.pld`, grouped by :func:`releases` (``times`` and
    ``merge`` as there), self-composed and composed in a balanced tree; cached by value.

    Not called in a notebook; used by ``helpers.budget`` and ``helpers.attack``.

    Parameters
    ----------
    mechanisms : PrivacyLoss or sequence of PrivacyLoss
        The releases, each as it is.
    times : int or sequence of int, keyword-only
        How many times each runs (1 to 10⁶); once each by default.
    merge : float, keyword-only
        0, or in [1e-12, 0.1]: near-twins grouped (:meth:`~PrivacyLoss.coarsened`).
    discretization : float, keyword-only
        The grid step h in [1e-6, 0.1].
    max_cells : float, keyword-only
        The most grid cells the composition may span (refused up front), in [1, 1e9].

    Returns
    -------
    dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution

    Raises
    ------
    ValueError
        For a bad argument, work beyond ``max_cells`` or a parameter the library cannot take.

    %(references)s

    Examples
    --------
    >>> from helpers.mechanisms import Laplace
    >>> round(float(composed_pld([Laplace(1.0)] * 2).get_delta_for_epsilon(1.0)), 4)
    0.2418
    """
    groups = releases(mechanisms, times=times, merge=merge)
    h = check_discretization(discretization)
    _check_work(groups, h, _check_cells(max_cells))
    try:
        return _composed_pld(groups, h)
    except (OverflowError, FloatingPointError, ZeroDivisionError) as error:
        raise ValueError(
            "dp_accounting cannot build this privacy-loss distribution (a parameter out of its "
            f"range): {type(error).__name__}: {error}"
        ) from None


def _one_loss(one: PrivacyLoss, h: float, adjacency: str) -> LossPMF:
    def make():
        return one.loss_pmf(h, adjacency=adjacency), _cells(((one, 1),), h)

    return _SINGLE_LOSSES.get((one, h, adjacency), make)[0]


def _composed_loss(groups: tuple, h: float, adjacency: str) -> LossPMF:
    def make():
        parts = [_one_loss(one, h, adjacency).self_compose(t) for one, t in groups]
        return _balanced(parts, lambda a, b: a.compose(b)), _cells(groups, h)

    return _COMPOSED_LOSSES.get((groups, h, adjacency), make)[0]


def composed_loss(
    mechanisms, *, times=None, adjacency="remove", discretization=1e-4, max_cells=MAX_CELLS
) -> LossPMF:
    """The summed loss of the releases under ``adjacency``, each rounded up by its own class.

    A :class:`LossPMF` whose every tail bounds the composed loss's (the bad event's chance
    P[L > ε] is read on it); the releases grouped by :func:`releases`, cached by value.

    Not called in a notebook; used by ``helpers.attack``.

    Parameters
    ----------
    mechanisms : PrivacyLoss or sequence of PrivacyLoss
        The releases, each as it is.
    times : int or sequence of int, keyword-only
        How many times each runs (1 to 10⁶); once each by default.
    adjacency : {"remove", "add"}, keyword-only
        The order of the neighbours.
    discretization : float, keyword-only
        The grid step h in [1e-6, 0.1].
    max_cells : float, keyword-only
        The most grid cells the composition may span (refused up front), in [1, 1e9].

    Returns
    -------
    LossPMF

    Raises
    ------
    ValueError
        For a bad argument or work beyond ``max_cells``.

    %(references)s

    Examples
    --------
    >>> from helpers.mechanisms import Laplace
    >>> round(composed_loss([Laplace(1.0)] * 2).tail(1.5), 4)  # P[L₁ + L₂ > 1.5]
    0.3672
    """
    groups = releases(mechanisms, times=times)
    h = check_discretization(discretization)
    check_adjacency(adjacency)
    _check_work(groups, h, _check_cells(max_cells))
    return _composed_loss(groups, h, adjacency)


def adjacencies(mechanisms) -> tuple:
    """The adjacencies whose readings differ: ("remove",) where every release is symmetric,
    else both ("remove", "add").

    Not called in a notebook; used by ``helpers.attack``.

    Parameters
    ----------
    mechanisms : PrivacyLoss or sequence of PrivacyLoss
        The releases.

    Returns
    -------
    tuple of str

    Raises
    ------
    ValueError
        If ``mechanisms`` is not a mechanism or a non-empty sequence of them.

    %(references)s

    Examples
    --------
    >>> from helpers.mechanisms import Laplace, Subsampled
    >>> adjacencies([Laplace(1.0)]), adjacencies([Subsampled(Laplace(1.0), 0.1)])
    (('remove',), ('remove', 'add'))
    """
    rows = check_mechanisms(mechanisms)
    return ("remove",) if all(one.symmetric for one in rows) else ADJACENCIES


def epsilon_for_delta(
    mechanisms, delta, *, times=None, merge=0.0, discretization=1e-4, max_cells=MAX_CELLS
) -> float:
    """The least ε ≥ 0 with δ(ε) ≤ ``delta`` on the releases' composed pessimistic PLD.

    dp_accounting's ``get_epsilon_for_delta`` on :func:`composed_pld` (its loop over the grid
    run as prefix sums, the same value), raised (steps from 2⁻⁴⁰ relative, doubling) until the
    same PLD confirms δ(ε) ≤ ``delta``: the library's inverse can land a hair low (δ
    1.00000008e-10 read at its ε for 1e-10). An upper bound.

    Not called in a notebook; used by ``helpers.budget``.

    Parameters
    ----------
    mechanisms : PrivacyLoss or sequence of PrivacyLoss
        The releases, each as it is.
    delta : float
        δ in (0, 1).
    times, merge, discretization, max_cells : keyword-only
        As in :func:`composed_pld`.

    Returns
    -------
    float
        ε (``inf`` where even an infinite ε leaves more than δ).

    Raises
    ------
    ValueError
        As :func:`composed_pld`, or for δ outside (0, 1).

    %(references)s

    Examples
    --------
    >>> from helpers.mechanisms import Laplace
    >>> round(epsilon_for_delta([Laplace(1.0)], 1e-6), 4)  # one 1-DP release: ε ≤ 1
    1.0
    """
    d = float(check_open_unit("delta", check_finite_scalar("delta", delta, rule="lie in (0, 1)")))
    pld = composed_pld(
        mechanisms, times=times, merge=merge, discretization=discretization, max_cells=max_cells
    )
    return _epsilon_of(pld, d)


def _epsilon_of(pld, d: float) -> float:
    eps = max(_pld_epsilon(pld, d), 0.0)
    if not math.isfinite(eps):
        return math.inf
    step = max(eps, 1.0) * 2.0**-40
    while float(pld.get_delta_for_epsilon(eps)) > d:
        eps += step
        step *= 2
        if eps > 700:
            return math.inf
    return eps


def _pld_epsilon(pld, d: float) -> float:
    """dp_accounting's ``PrivacyLossDistribution.get_epsilon_for_delta``: the larger ε of its
    two adjacencies' PMFs (one where the distribution is symmetric), each by :func:`_pmf_epsilon`."""
    # dp_accounting keeps the pmfs in private fields (helpers.attack and riskcal read them too)
    eps = _pmf_epsilon(pld._pmf_remove, d)
    return eps if pld._symmetric else max(eps, _pmf_epsilon(pld._pmf_add, d))


def _pmf_epsilon(pmf, d: float) -> float:
    """The least ε with δ(ε) ≤ ``d`` on one PMF, as dp_accounting's ``_get_epsilon_for_delta``
    finds it, its loop run as prefix sums on numpy arrays.

    The loop walks the losses yₖ from the top down, adding each one's mass p to the upper mass
    (from p_∞) and p·e^{−y} to the lower one, and stops before the first loss at or below
    ε = log((upper − δ)/lower), which is then the answer. A Python loop of one step per grid
    cell took 80 ms on a composed DP-SGD distribution; here the same sums, accumulated in the
    same order on the same losses, are taken a block at a time (the blocks grow from the top,
    since a small δ stops the walk near it), so the value is the library's but for the last bit
    of an exponential.
    """
    from dp_accounting.pld.pld_pmf import DensePLDPmf

    inf_mass = float(pmf._infinity_mass)
    if inf_mass > d:
        return math.inf
    dense = isinstance(pmf, DensePLDPmf)
    if dense:
        probs = np.asarray(pmf._probs, dtype=float)[::-1]
        h = float(pmf._discretization)
        # the losses from the top down as the library counts them (itertools.count: the top,
        # then one −h added at a time), so each comparison sees the library's float
        loss = (pmf._lower_loss + probs.size - 1) * pmf._discretization
    else:  # a sparse PMF: its own losses k·h, only where it has mass, as the library reads them
        known, masses = pmf._get_losses_probs()
        probs = np.asarray(masses, dtype=float)[::-1]
        descending = np.asarray(known, dtype=float)[::-1]
    upper, lower = inf_mass, 0.0  # the masses before the block's first loss
    start, size = 0, 4096
    while start < probs.size:
        p = probs[start : start + size]
        if dense:
            y = np.cumsum(np.concatenate(([loss], np.full(p.size - 1, -h))))
            loss = float(y[-1]) - h
        else:
            y = descending[start : start + p.size]
        # pᵢ·e^{−yᵢ} as the loop takes it, the FFT's tiny negative masses included (its value
        # is the library's); computed only where pᵢ ≠ 0, so a very negative loss beside an
        # empty cell gives 0, never inf·0
        with np.errstate(over="ignore"):
            weighted = np.multiply(p, np.exp(-y), out=np.zeros_like(p), where=p != 0)
        # running masses before (ups[k], lows[k]) and after (ups[k + 1], ...) loss k, summed
        # one term at a time from the top as the loop does (cumsum is sequential)
        ups = np.cumsum(np.concatenate(([upper], p)))
        lows = np.cumsum(np.concatenate(([lower], weighted)))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            stop = (ups[:-1] > d) & (lows[:-1] > 0) & (np.log((ups[:-1] - d) / lows[:-1]) >= y)
        # a loss so large that e^{−y} vanished: the loop's answer is that loss
        vanished = (ups[1:] >= d) & (lows[1:] == 0)
        hits = np.flatnonzero(stop | vanished)
        if hits.size:
            k = int(hits[0])
            if not stop[k]:
                return max(0.0, float(y[k]))
            upper, lower = float(ups[k]), float(lows[k])
            break
        upper, lower = float(ups[-1]), float(lows[-1])
        start += p.size
        size *= 4
    if upper <= lower + d:
        return 0.0
    return math.log((upper - d) / lower)


#: the references every public function here shares (filled in at import, as elsewhere)
_SECTIONS = {
    "references": """\
References
----------
Google's dp_accounting (``dp_accounting.pld``); Dong, Roth & Su, "Gaussian differential
privacy", JRSS B 84(1), 2022, Corollary 3.3 (μ² adds)."""
}

fill_docstrings(globals(), _SECTIONS)
