"""A mechanism as a privacy-loss object: the pair of output laws on neighbouring inputs.

Every mechanism of the course is a :class:`PrivacyLoss`: two laws of its output, P under a data
set D that holds the target's record and Q under its neighbour D′ that does not (or holds
another value in its place), the privacy loss L(o) = ln(p(o)/q(o)) of an output o, and its
privacy-loss distribution (PLD), the law of L under P. Everything every layer reads of a
mechanism is read here, on the instance as it is, with every parameter it holds:

* :meth:`PrivacyLoss.delta` – the tight δ(ε) = E_P[max(0, 1 − e^{ε − L})] (the hockey-stick
  divergence) of each adjacency, or the larger of the two;
* :meth:`PrivacyLoss.loss_pmf` – the PLD rounded *up* onto the grid h·ℤ (a
  :class:`LossPMF`): every δ and every tail P[L > ε] read from it bounds the truth;
* :meth:`PrivacyLoss.pld` – the same, both adjacencies, as dp_accounting's
  ``PrivacyLossDistribution`` (composition, ε for δ);
* :meth:`PrivacyLoss.log_laws` and :meth:`PrivacyLoss.output_range` – the two laws
  themselves (for figures and for the battery's brute-force checks);
* :meth:`PrivacyLoss.loss_bound` – sup L, its pure ε (inf where unbounded).

**Two adjacencies.** "remove" is the pair (P, Q) = (A(D), A(D′)) with the target's record in D
only; "add" is the same pair in the other order, (Q, P). Where the laws are mirror images (every
symmetric additive noise, randomized response) the two PLDs coincide (``symmetric``); where they
are not (a subsampled mechanism, the exponential mechanism on given scores) they differ, and
δ(ε) is the larger of the two (as dp_accounting's ``get_delta_for_epsilon`` reads it).

The shape follows dp_accounting's ``MonotonePrivacyLoss`` (any pair of laws) above
``AdditiveNoisePrivacyLoss``: :class:`~helpers.mechanisms.AdditiveNoise` is one subclass,
:class:`FiniteOutputs` another (randomized response, the exponential mechanism), and
:class:`~helpers.mechanisms.Subsampled` an operation on any of them. A new mechanism states its
laws and its loss bound; CONTRIBUTING.md, "Adding a mechanism", lists what else.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np

from .._numerics import log_hockey_stick, pmf_of_buckets
from .._validation import (
    as_output,
    check_discretization,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_real,
    check_real_or_inf,
)

__all__ = ["ADJACENCIES", "FiniteOutputs", "LossPMF", "PrivacyLoss"]

#: the two orders of a neighbouring pair: (A(D), A(D′)) with the record in D only, and back
ADJACENCIES = ("remove", "add")

# the tail mass a privacy-loss distribution may cut off into +∞ (dp_accounting's default)
PLD_TAIL = 1e-15


def check_adjacency(adjacency, *, allow_none: bool = False) -> str | None:
    """``adjacency`` as given if it is "remove" or "add" (or None where both are meant)."""
    if adjacency is None and allow_none:
        return None
    if not isinstance(adjacency, str) or adjacency not in ADJACENCIES:
        allowed = ADJACENCIES + ((None,) if allow_none else ())
        raise ValueError(f"adjacency must be one of {allowed}; got {adjacency!r}")
    return adjacency


@dataclass(frozen=True, eq=False)
class LossPMF:
    """A privacy-loss distribution rounded up onto a grid: the public currency of composition.

    ``pmf[i]`` is the mass, under the first law P, of the losses rounded up to
    ``discretization · (lower + i)``; ``infinity`` is the mass of an infinite loss (outputs Q
    cannot produce, and the tail a build cut off). Each loss rounded up means the pair this
    describes dominates the mechanism's (Meiser & Mohammadi 2018): every δ(ε) and every tail
    P[L > ε] read from it is at least the truth.
    """

    discretization: float
    lower: int
    pmf: np.ndarray
    infinity: float

    @property
    def losses(self) -> np.ndarray:
        """The grid's losses, h·(lower + i)."""
        return self.discretization * (self.lower + np.arange(self.pmf.size))

    def delta(self, epsilon):
        """δ(ε) = Σ pᵢ·max(0, 1 − e^{ε − ℓᵢ}) + p_∞ of this distribution (an upper bound)."""
        eps = check_real("epsilon", epsilon)
        y, p = self.losses, self.pmf
        flat = eps.reshape(-1, 1)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            terms = np.where(y > flat, p * -np.expm1(np.minimum(flat - y, 0.0)), 0.0)
        return as_output((terms.sum(axis=1) + self.infinity).clip(0.0, 1.0).reshape(eps.shape))

    def tail(self, epsilon):
        """P[L > ε] (the bad event's chance; an upper bound)."""
        eps = check_real("epsilon", epsilon)
        y, p = self.losses, self.pmf
        above = np.where(y > eps.reshape(-1, 1), p, 0.0).sum(axis=1) + self.infinity
        return as_output(above.clip(0.0, 1.0).reshape(eps.shape))

    def compose(self, other: LossPMF) -> LossPMF:
        """The loss of both releases: the sum of the two (a convolution; the ∞ mass joins)."""
        if other.discretization != self.discretization:
            raise ValueError(
                "the two distributions must share one discretization; got "
                f"{self.discretization!r} and {other.discretization!r}"
            )
        from scipy.signal import fftconvolve

        a, b = self.pmf, other.pmf
        pmf = (
            np.clip(fftconvolve(a, b), 0.0, None) if min(a.size, b.size) > 64 else np.convolve(a, b)
        )
        inf = self.infinity + other.infinity - self.infinity * other.infinity
        return LossPMF(self.discretization, self.lower + other.lower, pmf, inf).trimmed()

    def self_compose(self, times: int) -> LossPMF:
        """The loss of ``times`` independent runs (by squaring: about log₂ times convolutions)."""
        times = check_int_range("times", times, 1, 10**7)
        base, power = self, None
        while times:
            if times & 1:
                power = base if power is None else power.compose(base)
            times >>= 1
            if times:
                base = base.compose(base)
        return power

    def trimmed(self, tail: float = PLD_TAIL) -> LossPMF:
        """The same, with the masses below ``tail`` cut from both ends: the low end's moved up
        onto the first cell kept, the high end's into ∞ (both pessimistic)."""
        p = self.pmf
        if p.size <= 2:
            return self
        low = np.cumsum(p)
        high = np.cumsum(p[::-1])[::-1]
        first = int(np.searchsorted(low, tail / 2, side="right"))
        last = p.size - 1 - int(np.searchsorted(high[::-1], tail / 2, side="right"))
        if (first == 0 and last == p.size - 1) or first > last:
            return self
        kept = p[first : last + 1].copy()
        kept[0] += low[first - 1] if first else 0.0
        cut = float(high[last + 1]) if last + 1 < p.size else 0.0
        return LossPMF(self.discretization, self.lower + first, kept, min(self.infinity + cut, 1.0))

    def to_dp_accounting(self):
        """dp_accounting's pessimistic ``PLDPmf`` of these buckets."""
        return pmf_of_buckets(self.discretization, self.lower, self.pmf, self.infinity)


def bucket_up(loss: np.ndarray, mass: np.ndarray, h: float, infinity: float = 0.0) -> LossPMF:
    """Losses (finite or ±inf) with their masses, rounded up onto h·ℤ and summed per cell.

    +inf joins ``infinity``; −inf (a mass Q alone could... never, under P) is dropped with its
    mass, which is zero for a law P (a −∞ loss has P-mass 0).
    """
    loss, mass = np.asarray(loss, dtype=float).ravel(), np.asarray(mass, dtype=float).ravel()
    keep = (mass > 0) & np.isfinite(loss)
    infinity = infinity + float(mass[(mass > 0) & (loss == np.inf)].sum())
    loss, mass = loss[keep], mass[keep]
    if loss.size == 0:
        return LossPMF(h, 0, np.zeros(1), min(infinity, 1.0))
    index = np.ceil(loss / h)
    index = np.where(index * h < loss, index + 1, index).astype(np.int64)  # up, never down
    lower = int(index.min())
    pmf = np.bincount(index - lower, weights=mass)
    return LossPMF(h, lower, pmf, min(infinity, 1.0))


def connect_dots(lower: int, h: float, deltas: np.ndarray):
    """dp_accounting's pessimistic PMF whose δ equals ``deltas`` at ε = h·(lower + j).

    Doroshenko, Ghazi, Kamath, Kumar & Manurangsi (2022), Algorithm 1
    (``create_pmf_pessimistic_connect_dots_fixed_gap``): a δ known exactly at the grid points
    gives the PMF on the grid that meets it there and lies above it between them (a dominating
    pair), without the loss's rounding bias that privacy buckets carry (about h per release).
    """
    deltas = np.minimum.accumulate(np.clip(deltas, 0.0, 1.0))  # δ never rises with ε
    diffs = np.diff(deltas)
    probs = np.zeros_like(deltas)
    probs[0] = 1 - deltas[0] + diffs[0] / math.expm1(h)
    probs[1:-1] = (diffs[1:] - diffs[:-1] * math.exp(h)) / math.expm1(h)
    probs[-1] = diffs[-1] / math.expm1(-h)
    return pmf_of_buckets(h, lower, np.maximum(0.0, probs), float(deltas[-1]))


class PrivacyLoss(ABC):
    """A mechanism as the pair of its output laws on neighbouring data sets (see the module).

    A subclass states ``name`` and ``label``, its laws (:meth:`log_laws`, :meth:`output_range`,
    ``outputs``), :meth:`loss_bound`, :meth:`delta` by a route of its own (the battery checks it
    against a brute-force sum over the two laws) and :meth:`loss_pmf`; ``symmetric`` says the
    two adjacencies give one PLD. Everything else (the dp_accounting PLD, ε for a δ, merging,
    composition in :mod:`helpers.mechanisms.composition`) is written here once. An instance is
    immutable and compares and hashes by every parameter it holds: composition groups equal
    releases by that, never by a rebuilt (class, noise, Δ).
    """

    name: ClassVar[str]
    label: ClassVar[str]
    #: the two adjacencies give the same PLD (mirror-image laws)
    symmetric: ClassVar[bool] = False
    #: where the outputs live: "finite" (0 .. n − 1), "integers" or "reals"
    outputs: ClassVar[str] = "reals"

    # --- what a subclass states --------------------------------------------------------------

    @abstractmethod
    def log_laws(self, o, *, adjacency="remove") -> tuple[np.ndarray, np.ndarray]:
        """(ln p(o), ln q(o)): the densities (pmfs) of the first and second law at outputs o."""

    @abstractmethod
    def output_range(self) -> tuple[float, float]:
        """(low, high): outputs outside hold less than 10⁻¹² of either law, in both adjacencies."""

    @abstractmethod
    def loss_bound(self):
        """sup L over both adjacencies: its ε as a pure-DP mechanism (inf where unbounded)."""

    @abstractmethod
    def delta(self, epsilon, *, adjacency=None):
        """Tight δ(ε) of ``adjacency`` ("remove" or "add"), or the larger of the two (None)."""

    @abstractmethod
    def loss_pmf(self, discretization=1e-4, *, adjacency="remove") -> LossPMF:
        """Its PLD under ``adjacency``, each loss rounded up onto h·ℤ (see :class:`LossPMF`)."""

    # --- written once ------------------------------------------------------------------------

    def is_single(self) -> bool:
        """One value of each parameter (a class whose fields may be arrays says otherwise)."""
        return True

    def text(self) -> str:
        """The mechanism in a few words for a figure's legend and its text alternative."""
        return self.label

    def breakpoints(self, low: float, high: float) -> np.ndarray:
        """Sorted outputs in [low, high] where a law's density jumps or kinks (none by default)."""
        return np.empty(0)

    def loss_bounds(self) -> dict:
        """{"remove": sup L, "add": sup L} (both :meth:`loss_bound` where ``symmetric``)."""
        bound = float(self.loss_bound())
        return {"remove": bound, "add": bound}

    @property
    def mirrored_orders(self) -> bool:
        """ "add" is "remove" with its two laws swapped (the add/remove relation), so either
        order bounds the other's reverse test. A class whose two orders are two different
        pairs (sampling without replacement: the change-one relation) says False, and the
        attack readings bound both directions by the larger of the two δ."""
        return True

    def gdp_mu(self) -> float | None:
        """μ where the mechanism is exactly μ-Gaussian DP (its trade-off curve is G_μ), else None.

        Composition merges such releases into one (μ² adds; Dong, Roth & Su 2022, Cor. 3.3).
        """
        return None

    def coarsened(self, merge: float) -> PrivacyLoss:
        """A mechanism at most (1 + merge) times less private whose δ(ε) is ≥ this one's at
        every ε, on a grid shared with its near-twins (so many releases group into few).

        The default is the mechanism itself (no grid): only equal releases then merge.
        """
        return self

    def loss_span(self, times: int = 1) -> float:
        """A rough half-width of the loss of ``times`` runs (for the work a composition costs).

        From a coarse :meth:`loss_pmf` (h = 0.01) of each adjacency: the composed loss lies
        within times·|mean| + 12·√times·sd + one release's reach of 0, all but a negligible
        mass (the work estimate only; the build itself keeps every mass).
        """
        return _span(self, int(times))

    def reverse_delta(self, epsilon, *, adjacency="remove"):
        """H_{e^ε}(Q‖P) at ε ≥ 0 for the pair (P, Q) of ``adjacency``: its two laws swapped.

        Where "add" is "remove" swapped (:attr:`mirrored_orders`), the other order's δ; a
        class whose orders are two different pairs states what bounds the swap (for a
        symmetric relation, the larger of the two orders' δ: the swap of a pair of neighbours
        is another pair of neighbours)."""
        other = "add" if check_adjacency(adjacency) == "remove" else "remove"
        return self.delta(epsilon, adjacency=other)

    def delta_any(self, epsilon, *, adjacency="remove"):
        """δ(ε) of one adjacency at any real ε: below 0 through the same pair swapped,
        H_{e^ε}(P‖Q) = 1 − e^ε + e^ε·H_{e^{−ε}}(Q‖P) (:meth:`reverse_delta`)."""
        adjacency = check_adjacency(adjacency)
        eps = check_real("epsilon", epsilon)
        # each δ only at the ε that read it (the same values, element by element, as on the
        # whole grid): a PLD's grid spans both signs, and evaluating both everywhere tripled
        # the work of a subsampled Gaussian's PLD (DP-SGD's calibration)
        up = eps >= 0
        out = np.empty(eps.shape)
        if np.any(up):
            above = self.delta(np.maximum(eps[up], 0.0), adjacency=adjacency)
            out[up] = np.asarray(above, dtype=float)
        down = ~up
        if np.any(down):
            negative = eps[down]
            below = self.reverse_delta(np.maximum(-negative, 0.0), adjacency=adjacency)
            out[down] = -np.expm1(negative) + np.exp(negative) * np.asarray(below, float)
        return as_output(out)

    # --- the privacy loss random variable, read for notebook 08's panels -------------------

    def loss_steps(self, *, adjacency="remove") -> tuple[np.ndarray, np.ndarray]:
        """(losses, masses) of L under the first law of ``adjacency``, sorted by decreasing
        loss (an infinite loss first): the PLRV as the panels draw it. The default reads the
        rounded-up loss (:meth:`loss_pmf` at h = 10⁻⁴: each loss at most h above the truth,
        so every reading bounds it); a class with finitely many outputs gives them exactly.
        """
        pmf = self.loss_pmf(1e-4, adjacency=check_adjacency(adjacency))
        keep = pmf.pmf > 0
        losses, masses = pmf.losses[keep][::-1], pmf.pmf[keep][::-1]
        if pmf.infinity > 0:
            losses, masses = np.r_[np.inf, losses], np.r_[pmf.infinity, masses]
        return losses, masses

    def worst_adjacency(self, epsilon) -> str:
        """The order whose δ(ε) is the larger (one ε).

        δ's within a relative 10⁻¹² are a tie (at ε = 0 both are the total variation, equal
        but for rounding); a tie goes to the order with the larger loss bound, then the larger
        tail P[L > ε], then "remove" (a symmetric mechanism).
        """
        eps = check_finite_scalar("epsilon", epsilon)
        if eps < 0:
            raise ValueError(f"epsilon must be a number ≥ 0; got {epsilon!r}")
        deltas = {a: float(self.delta(eps, adjacency=a)) for a in ADJACENCIES}
        if not math.isclose(deltas["add"], deltas["remove"], rel_tol=1e-12, abs_tol=1e-15):
            return "add" if deltas["add"] > deltas["remove"] else "remove"
        bounds = self.loss_bounds()
        if bounds["add"] != bounds["remove"]:
            return "add" if bounds["add"] > bounds["remove"] else "remove"
        tails = {a: float(self.tail(eps, adjacency=a)) for a in ADJACENCIES}
        return "add" if tails["add"] > tails["remove"] else "remove"

    def tail(self, epsilon, *, adjacency="remove"):
        """δ₁(ε) = P[L > ε] under the first law of ``adjacency``: the chance of a bad event,
        never below δ(ε) (Desfontaines 2020). Read by a search on the sorted losses (no ε ×
        steps array)."""
        eps = check_nonnegative("epsilon", epsilon)
        losses, masses = self.loss_steps(adjacency=adjacency)
        rising = losses[::-1]
        above = losses.size - np.searchsorted(rising, eps, side="right")  # count with L > ε
        cumulative = np.r_[0.0, np.cumsum(masses)]
        return as_output(cumulative[above].clip(0.0, 1.0))

    def upper_quantile(self, u, *, adjacency="remove"):
        """L at cumulative probability u, the outputs sorted by decreasing loss (a step
        function for a discrete PLRV: the loss of the step u falls in)."""
        u = check_open_unit("u", u)
        losses, masses = self.loss_steps(adjacency=adjacency)
        edges = np.cumsum(masses)
        i = np.minimum(np.searchsorted(edges, u, side="left"), losses.size - 1)
        return as_output(losses[i])

    def profile(self, epsilon):
        """(δ₁(ε), δ₂(ε)): the bad event's chance, the larger over both orders, and the tight
        δ, the larger over both orders (δ₁ ≥ δ₂ still: the larger tail is at least the tail of
        the order whose δ is the larger)."""
        eps = check_nonnegative("epsilon", epsilon)
        naive = np.maximum(*(np.asarray(self.tail(eps, adjacency=a)) for a in ADJACENCIES))
        return as_output(naive), self.delta(eps)

    def pld(self, *, discretization=1e-4):
        """dp_accounting's pessimistic ``PrivacyLossDistribution`` of one release, both adjacencies.

        Connect-the-dots (:func:`connect_dots`) on the class's own exact δ over the grid h·ℤ,
        between the ends of its loss (read on a coarse :meth:`loss_pmf`, the mass beyond at most
        10⁻¹⁵, counted as an infinite loss): every δ read from it bounds the truth, with no
        rounding bias that would add up over thousands of compositions. An additive noise with
        a native dp_accounting constructor overrides it with that.
        """
        from dp_accounting.pld import privacy_loss_distribution as pld

        h = check_discretization(discretization)
        built = {a: self._connect_dots(h, a) for a in self._orders()}
        if len(built) == 1:
            return pld.PrivacyLossDistribution(built["remove"])
        return pld.PrivacyLossDistribution(built["remove"], built["add"])

    def _orders(self) -> tuple:
        return ("remove",) if self.symmetric else ADJACENCIES

    def _connect_dots(self, h: float, adjacency: str):
        coarse = self.loss_pmf(0.01, adjacency=adjacency)
        seen = coarse.losses[coarse.pmf > 0]
        # the coarse losses are rounded up at most twice (a subsampled mechanism's): start two
        # steps below the lowest; end at the highest finite loss, and never below ε = 0 (the
        # δ that matters is read from 0 up, and the other order's curve may fall until there)
        low = float(seen.min()) - 0.02 if seen.size else 0.0
        high = float(seen.max()) if seen.size else 0.0
        bound = self.loss_bounds()[adjacency]
        if math.isfinite(bound):
            high = min(high, bound)
        high = max(high, 0.0)
        lower, upper = math.floor(low / h) - 1, math.ceil(high / h) + 1
        if upper - lower > 10_000_000:
            raise ValueError(
                f"the privacy loss of {self!r} spans {upper - lower:,} steps of {h:g} (at most "
                "10,000,000); use a larger discretization"
            )
        deltas = np.asarray(self.delta_any(np.arange(lower, upper + 1) * h, adjacency=adjacency))
        return connect_dots(lower, h, deltas)

    def epsilon_for_delta(self, delta, *, times=1, discretization=1e-4) -> float:
        """The least ε ≥ 0 with δ(ε) ≤ ``delta`` for ``times`` runs, on the composed
        pessimistic PLD (:mod:`helpers.mechanisms.composition`): an upper bound."""
        from .composition import epsilon_for_delta

        return epsilon_for_delta([self], delta, times=times, discretization=discretization)

    # --- accuracy, for a mechanism whose output estimates a number ---------------------------

    def estimate_laws(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(x, o, ln P[A(x) = o]): every true value x of the domain, the outputs o, and the law
        of the output at each true value (one row per x), for a mechanism that releases an
        estimate of a number whose law depends on where the true value sits.

        A class states it only where that holds; additive noise answers :meth:`coverage` and
        :meth:`reach` from its noise alone (the same at every true value).
        """
        raise ValueError(
            f"mechanism must release an estimate of a number for an accuracy ±k; "
            f"{type(self).__name__} does not (its class states no estimate_laws())"
        )

    def _estimate_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Each true value's |o − x| sorted, with the output's mass up to it: (distance, cum)."""
        x, o, log_p = self.estimate_laws()
        x, o = np.asarray(x, dtype=float), np.asarray(o, dtype=float)
        log_p = np.asarray(log_p, dtype=float)
        if log_p.shape != (x.size, o.size) or not (
            np.all(np.isfinite(x)) and np.all(np.isfinite(o))
        ):
            raise ValueError(
                f"{type(self).__name__}.estimate_laws must give finite x and o and one row of "
                f"ln P per x, shape {(x.size, o.size)}; got {log_p.shape}"
            )
        distance = np.abs(o[None, :] - x[:, None])  # exact for integer outputs and values
        order = np.argsort(distance, axis=1, kind="stable")
        with np.errstate(under="ignore"):
            mass = np.exp(np.take_along_axis(log_p, order, axis=1))
        return np.take_along_axis(distance, order, axis=1), np.cumsum(mass, axis=1)

    def coverage(self, k, *, at="worst"):
        """P[|A(x) − x| ≤ k] at the worst true value x of the domain (``at="best"``: the best).

        Parameters
        ----------
        k : float or array_like
            The half-width ±k, ≥ 0.
        at : {"worst", "best"}, keyword-only
            Which true value the chance is stated at: where it is lowest (what a user can
            count on) or highest (what a figure may show beside it).

        Returns
        -------
        float or numpy.ndarray
            The chance, one per k.

        Raises
        ------
        ValueError
            For a k below 0 or not finite, an ``at`` not named above, or a mechanism that
            releases no estimate of a number (:meth:`estimate_laws`).
        """
        side = check_at(at)
        k = check_nonnegative("k", k)
        distance, cum = self._estimate_rows()
        _check_cells("k", k, distance)
        # the mass within k at each true value: the cumulative mass up to the last distance ≤ k
        count = np.sum(distance[..., None] <= k.ravel(), axis=1)  # (true values, k)
        padded = np.concatenate([np.zeros((cum.shape[0], 1)), cum], axis=1)
        chance = np.minimum(np.take_along_axis(padded, count, axis=1), 1.0)
        pick = chance.min(axis=0) if side == "worst" else chance.max(axis=0)
        return as_output(pick.reshape(k.shape))

    def reach(self, coverage, *, at="worst"):
        """The least k with P[|A(x) − x| ≤ k] ≥ ``coverage`` at the worst true value x (every
        x then reaches it; ``at="best"``: at the best x).

        Parameters
        ----------
        coverage : float or array_like
            The chance c in (0, 1).
        at : {"worst", "best"}, keyword-only
            As in :meth:`coverage`.

        Returns
        -------
        float or numpy.ndarray
            ±k, one of the distances |o − x| the laws put mass on.

        Raises
        ------
        ValueError
            As in :meth:`coverage`, and for a chance that the laws' own mass does not reach.
        """
        side = check_at(at)
        c = check_open_unit("coverage", coverage)
        distance, cum = self._estimate_rows()
        _check_cells("coverage", c, distance)
        first = np.sum(cum[..., None] < c.ravel(), axis=1)  # the first index reaching c
        if np.any(first >= distance.shape[1]):
            raise ValueError(
                f"coverage must be reached by the laws' own mass (at most {cum[:, -1].min()!r} "
                f"at some true value); got {coverage!r}"
            )
        k = np.take_along_axis(distance, first, axis=1)  # (true values, coverage)
        pick = k.max(axis=0) if side == "worst" else k.min(axis=0)
        return as_output(pick.reshape(c.shape))


#: the most (true value, output, k) cells an accuracy reading compares at once
_MAX_ACCURACY_CELLS = 50_000_000
_AT = ("worst", "best")


def _check_cells(name: str, values: np.ndarray, distance: np.ndarray) -> None:
    """Refuse, before the comparison is allocated, more cells than an accuracy reading holds."""
    if distance.size * max(values.size, 1) > _MAX_ACCURACY_CELLS:
        raise ValueError(
            f"{name} must hold at most {_MAX_ACCURACY_CELLS // distance.size:,} values for this "
            f"domain ({distance.shape[0]:,} true values × {distance.shape[1]:,} outputs); got "
            f"{values.size:,}"
        )


def check_at(at) -> str:
    """Which true value an accuracy is stated at: "worst" or "best", refused by name else."""
    if not (isinstance(at, str) and at in _AT):
        raise ValueError(f"at must be one of {_AT}; got {at!r}")
    return at


@lru_cache(maxsize=256)
def _span(mechanism: PrivacyLoss, times: int) -> float:
    spread = 0.0
    for adjacency in ADJACENCIES:
        coarse = mechanism.loss_pmf(0.01, adjacency=adjacency)
        y, p = coarse.losses, coarse.pmf
        total = max(float(p.sum()), 1e-300)
        mean = float(np.dot(p, y)) / total
        sd = math.sqrt(max(float(np.dot(p, (y - mean) ** 2)) / total, 0.0))
        reach = float(np.max(np.abs(y[p > 0]))) if np.any(p > 0) else 0.0
        spread = max(spread, times * abs(mean) + 12 * math.sqrt(times) * sd + reach + 0.01)
    return spread


class FiniteOutputs(PrivacyLoss):
    """A mechanism with outputs 0 .. n − 1: it states its two laws as arrays, :meth:`laws`.

    δ(ε), the loss bound and the PLD are then exact sums over the outputs (the PLD's losses
    rounded up onto the grid).
    """

    outputs: ClassVar[str] = "finite"

    @abstractmethod
    def laws(self, *, adjacency="remove") -> tuple[np.ndarray, np.ndarray]:
        """(ln P, ln Q) over the outputs 0 .. n − 1, each law summing to 1."""

    def checked_laws(self, adjacency: str) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`laws`, checked: two 1-D arrays of one length, no NaN or +inf, each summing to
        1 (within 10⁻⁹), the first with an output of positive mass (a ValueError naming the
        class otherwise: a contributor's laws are never used unchecked)."""
        log_p, log_q = (np.asarray(x, dtype=float) for x in self.laws(adjacency=adjacency))
        name = type(self).__name__
        if log_p.ndim != 1 or log_p.shape != log_q.shape or log_p.size < 1:
            raise ValueError(
                f"{name}.laws must give two 1-D arrays of one length; got shapes "
                f"{log_p.shape} and {log_q.shape}"
            )
        for which, logs in (("first", log_p), ("second", log_q)):
            if np.any(np.isnan(logs)) or np.any(logs == np.inf):
                raise ValueError(f"{name}.laws: the {which} law holds NaN or +inf in logs")
            total = float(np.logaddexp.reduce(logs))
            if not abs(total) <= 1e-9:
                raise ValueError(
                    f"{name}.laws: the {which} law must sum to 1; it sums to {math.exp(total)!r}"
                )
        return log_p, log_q

    def log_laws(self, o, *, adjacency="remove"):
        log_p, log_q = self.checked_laws(check_adjacency(adjacency))
        o = check_real("o", o)
        inside = (o >= 0) & (o < log_p.size) & (o == np.round(o))
        index = np.where(inside, o, 0).astype(np.int64)
        return (
            np.where(inside, log_p[index], -np.inf),
            np.where(inside, log_q[index], -np.inf),
        )

    def output_range(self):
        return 0.0, float(self.checked_laws("remove")[0].size - 1)

    def _losses(self, adjacency: str) -> tuple[np.ndarray, np.ndarray]:
        log_p, log_q = self.checked_laws(adjacency)
        with np.errstate(invalid="ignore"):
            loss = np.where(np.isneginf(log_p), -np.inf, log_p - log_q)
        return loss, np.exp(log_p)

    def loss_bound(self):
        return max(self.loss_bounds().values())

    def loss_steps(self, *, adjacency="remove") -> tuple[np.ndarray, np.ndarray]:
        loss, p = self._losses(check_adjacency(adjacency))
        keep = p > 0
        order = np.argsort(-loss[keep], kind="stable")
        losses, masses = loss[keep][order], p[keep][order]
        # equal losses are one step of the PLRV (ties decided exactly: the same double)
        start = np.r_[True, losses[1:] != losses[:-1]]
        return losses[start], np.add.reduceat(masses, np.flatnonzero(start))

    def loss_bounds(self) -> dict:
        out = {}
        for adjacency in ADJACENCIES:
            loss, p = self._losses(adjacency)
            out[adjacency] = float(loss[p > 0].max())
        return out

    def delta(self, epsilon, *, adjacency=None):
        adjacency = check_adjacency(adjacency, allow_none=True)
        eps = check_nonnegative("epsilon", epsilon)
        chosen = ADJACENCIES if adjacency is None else (adjacency,)
        out = np.zeros(eps.shape)
        for one in chosen:
            log_p, log_q = self.checked_laws(one)
            with np.errstate(invalid="ignore"):
                terms = np.exp(log_hockey_stick(eps[..., None], log_p, log_q))
            out = np.maximum(out, np.minimum(terms.sum(axis=-1), 1.0))
        return as_output(out)

    def loss_pmf(self, discretization=1e-4, *, adjacency="remove") -> LossPMF:
        h = check_discretization(discretization)
        loss, p = self._losses(check_adjacency(adjacency))
        return bucket_up(loss, p, h)


def check_log_probabilities(name: str, values) -> np.ndarray:
    """A 1-D array of finite reals (or −inf) of length ≥ 2 (for a law's logs)."""
    array = check_real_or_inf(name, values)
    if array.ndim != 1 or array.size < 2 or np.any(array == np.inf):
        raise ValueError(f"{name} must be a 1-D sequence of at least 2 entries; got {values!r}")
    return array
