"""Any mechanism run on a random sample of the records: privacy amplification by subsampling.

:class:`Subsampled` wraps any :class:`~helpers.mechanisms.PrivacyLoss` (additive noise,
randomized response, another subsampled mechanism, a contributor's class) and is one itself, so
every layer composes it, reads its attack risk and its δ(ε) as it does any other. With (P, Q) the
wrapped mechanism's laws with and without the target's record:

* **Poisson sampling** (each record kept with probability q; the add/remove relation):
  "remove" is (q·P + (1 − q)·Q, Q) and "add" is (Q, q·P + (1 − q)·Q). DP-SGD's batches
  (notebook 13) are drawn this way.
* **Sampling without replacement** (a fixed-size sample, a fraction γ of the records; the
  change-one relation, with (P, Q) the wrapped mechanism's laws for the two values): the two
  orders (γ·P + (1 − γ)·Q, Q) and (γ·Q + (1 − γ)·P, P).

These pairs dominate the subsampled mechanism whenever (P, Q) dominates the wrapped one (Zhu,
Dong & Wang 2022, "Optimal accounting of differential privacy via characteristic function",
the dominating pairs of subsampled mechanisms; dp_accounting's ``AdditiveNoisePrivacyLoss``
builds the same Poisson pairs for additive noise). So:

* δ(ε) is the wrapped mechanism's δ at a transformed ε, exactly (Balle, Barthe & Gaboardi 2018):
  Poisson "remove" and both orders without replacement, q·δ_P‖Q(ε′) with
  e^{ε′} = 1 + (e^ε − 1)/q; Poisson "add", c·H_α(Q‖P) with c = 1 − e^ε(1 − q) and
  α = q·e^ε/c (0 where c ≤ 0);
* the PLD is the wrapped one's rounded-up PLD read as a dominating pair and mixed atom by atom:
  an atom of loss ℓ and mass p becomes one of loss ln(q·e^ℓ + 1 − q) and mass p·(q + (1 − q)e^{−ℓ})
  ("remove"), or of loss −ln(q·e^{−ℓ} + 1 − q) and mass p ("add"); the new losses are rounded up
  again, so every δ read from it is an upper bound (two roundings: within 2h of the exact PLD's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from .._validation import as_output, check_discretization, check_finite_scalar, check_nonnegative
from .loss import ADJACENCIES, LossPMF, PrivacyLoss, bucket_up, check_adjacency

__all__ = ["SAMPLINGS", "Subsampled"]

#: how the sample is drawn: each record independently, or a fixed-size sample
SAMPLINGS = ("poisson", "without_replacement")


def _amplified(eps: np.ndarray, rate: float) -> np.ndarray:
    """ε′ with e^{ε′} = 1 + (e^ε − 1)/q, as ε + ln((1 − e^{−ε})/q + e^{−ε}) (no overflow)."""
    return eps + np.log(-np.expm1(-eps) / rate + np.exp(-eps))


def _mix_up(base: LossPMF, rate: float) -> LossPMF:
    """The PLD of (q·A + (1 − q)·B, B) from that of (A, B) (losses rounded up, under A).

    An atom of A-mass p at the rounded loss ℓ holds outcomes of true loss in (ℓ − h, ℓ], so
    its B-mass lies in [p·e^{−ℓ}, p·e^{−ℓ+h}]; what the rounded pair leaves of B's total,
    1 − Σ p·e^{−ℓ}, is the most B can hold beyond the lower ends. That slack is given to the
    atoms from the highest loss down, each up to its upper end, the rest to the outcomes A
    cannot produce: every tail P[L > ε] of the mixture, and every δ, is then an upper bound.
    """
    h, ell, p = base.discretization, base.losses, base.pmf
    log_q, log_rest = math.log(rate), math.log1p(-rate)
    with np.errstate(over="ignore", under="ignore", divide="ignore"):
        loss = np.logaddexp(log_q + ell, log_rest)
        # in logs: p·e^{−ℓ} is a mass of B (≤ 1), but e^{−ℓ} alone may overflow where p is tiny
        log_p = np.log(np.where(p > 0, p, 1.0))
        b_low = np.where(p > 0, np.exp(log_p - ell), 0.0)
        spread = b_low * math.expm1(h)  # how much more B-mass each atom may hold
    slack = max(0.0, 1.0 - math.fsum(b_low.tolist()))
    above = np.cumsum(spread[::-1])[::-1] - spread  # the spread of the atoms above each
    taken = np.clip(slack - above, 0.0, spread)
    b_mass = b_low + taken
    mass = rate * p + (1 - rate) * b_mass
    leftover = max(0.0, slack - math.fsum(taken.tolist()))
    loss = np.append(loss, log_rest)
    mass = np.append(mass, (1 - rate) * leftover)
    return bucket_up(loss, mass, h, rate * base.infinity)


def _mix_down(base: LossPMF, rate: float) -> LossPMF:
    """The PLD of (A, q·B + (1 − q)·A) from that of (A, B) (losses rounded up, under A)."""
    h, ell, p = base.discretization, base.losses, base.pmf
    log_q, log_rest = math.log(rate), math.log1p(-rate)
    with np.errstate(over="ignore", under="ignore"):
        loss = -np.logaddexp(log_q - ell, log_rest)
    # A's mass where B has none (loss +∞) now meets (1 − q)·A: a loss of −ln(1 − q)
    loss = np.append(loss, -log_rest)
    mass = np.append(p, base.infinity)
    return bucket_up(loss, mass, h)


@dataclass(frozen=True)
class Subsampled(PrivacyLoss):
    """``mechanism`` run on a sample: each record kept with probability ``rate`` (Poisson), or a
    fixed fraction ``rate`` of them drawn without replacement (see the module).

    Used in notebook 11 (a mean on a sample; DP-SGD's steps are Poisson-subsampled Gaussians).

    Parameters
    ----------
    mechanism : PrivacyLoss
        The mechanism run on the sample, as it is (every parameter it holds is kept).
    rate : float
        q (or γ) in (0, 1]; 1 is the mechanism itself.
    sampling : {"poisson", "without_replacement"}, keyword-only
        How the sample is drawn.

    References
    ----------
    Balle, Barthe & Gaboardi (NeurIPS 2018); Zhu, Dong & Wang (AISTATS 2022); dp_accounting's
    ``AdditiveNoisePrivacyLoss`` (``sampling_prob``).

    Examples
    --------
    >>> from helpers.mechanisms import Laplace
    >>> sub = Subsampled(Laplace(1.0), 0.1)
    >>> round(sub.loss_bound(), 6)  # ln(1 + 0.1·(e − 1))
    0.158565
    """

    mechanism: PrivacyLoss
    rate: float
    sampling: str = "poisson"

    name: ClassVar[str] = "subsampled"
    label: ClassVar[str] = "subsampled mechanism"

    def __post_init__(self) -> None:
        if not isinstance(self.mechanism, PrivacyLoss) or not self.mechanism.is_single():
            raise ValueError(
                "mechanism must be one mechanism object of helpers.mechanisms (a PrivacyLoss "
                f"with one value of each parameter); got {self.mechanism!r}"
            )
        rate = float(check_finite_scalar("rate", self.rate, rule="lie in (0, 1]"))
        if not 0 < rate <= 1:
            raise ValueError(f"rate must lie in (0, 1]; got {self.rate!r}")
        if self.sampling not in SAMPLINGS:
            raise ValueError(f"sampling must be one of {SAMPLINGS}; got {self.sampling!r}")
        object.__setattr__(self, "rate", rate)

    @property
    def symmetric(self) -> bool:
        """One PLD for both orders: a symmetric mechanism sampled without replacement (q = 1:
        the mechanism's own)."""
        if self.rate == 1 or self.sampling == "without_replacement":
            return self.mechanism.symmetric
        return False

    @property
    def mirrored_orders(self) -> bool:
        """Poisson sampling keeps the add/remove relation (its "add" is its "remove" swapped);
        without replacement the two orders are two pairs of the change-one relation."""
        if self.sampling == "without_replacement" and self.rate < 1:
            return False
        return self.mechanism.mirrored_orders

    def text(self) -> str:
        how = "Poisson" if self.sampling == "poisson" else "without replacement"
        return f"{self.mechanism.text()}, sampled at {self.rate:.3g} ({how})"

    @property
    def outputs(self) -> str:
        return self.mechanism.outputs

    def breakpoints(self, low, high):
        return self.mechanism.breakpoints(low, high)

    def output_range(self):
        return self.mechanism.output_range()

    def gdp_mu(self):
        """The wrapped mechanism's μ where the whole sample is taken (q = 1), else None."""
        return self.mechanism.gdp_mu() if self.rate == 1 else None

    def coarsened(self, merge: float):
        """The wrapped mechanism coarsened (less private), sampled alike: δ never lower."""
        return replace(self, mechanism=self.mechanism.coarsened(merge))

    def log_laws(self, o, *, adjacency="remove"):
        check_adjacency(adjacency)
        q = self.rate
        if self.sampling == "poisson":
            first, second = self.mechanism.log_laws(o, adjacency=adjacency)
            if q == 1:
                return first, second
            with np.errstate(divide="ignore"):
                if adjacency == "remove":  # (qP + (1 − q)Q, Q) from (P, Q)
                    return np.logaddexp(math.log(q) + first, math.log1p(-q) + second), second
                # (Q, qP + (1 − q)Q) from the wrapped "add" pair (Q, P)
                return first, np.logaddexp(math.log(q) + second, math.log1p(-q) + first)
        first, second = self.mechanism.log_laws(o, adjacency=adjacency)
        if q == 1:
            return first, second
        with np.errstate(divide="ignore"):
            return np.logaddexp(math.log(q) + first, math.log1p(-q) + second), second

    def loss_bounds(self) -> dict:
        base = self.mechanism.loss_bounds()
        q = self.rate
        if q == 1:
            return dict(base)

        def up(bound):  # ln(1 + q(e^B − 1)), increasing in B
            return float(np.logaddexp(math.log(q) + bound, math.log1p(-q)))

        if self.sampling == "without_replacement":
            return {a: up(base[a]) for a in ADJACENCIES}
        down = -float(np.logaddexp(math.log(q) - base["add"], math.log1p(-q)))
        return {"remove": up(base["remove"]), "add": down}

    def loss_bound(self):
        return max(self.loss_bounds().values())

    def delta(self, epsilon, *, adjacency=None):
        adjacency = check_adjacency(adjacency, allow_none=True)
        eps = check_nonnegative("epsilon", epsilon)
        chosen = ADJACENCIES if adjacency is None else (adjacency,)
        return as_output(np.max([self._delta(eps, one) for one in chosen], axis=0))

    def _delta(self, eps: np.ndarray, adjacency: str) -> np.ndarray:
        q, base = self.rate, self.mechanism
        if q == 1:
            return np.asarray(base.delta(eps, adjacency=adjacency), dtype=float)
        if self.sampling == "without_replacement" or adjacency == "remove":
            return q * np.asarray(base.delta(_amplified(eps, q), adjacency=adjacency), dtype=float)
        # Poisson "add" is the "remove" pair swapped
        return self._swapped(eps, "remove")

    def _swapped(self, eps: np.ndarray, adjacency: str) -> np.ndarray:
        """H_{e^ε}(Q ‖ qP + (1 − q)Q) for the wrapped pair (P, Q) of ``adjacency``: the mixed
        pair of that order with its laws swapped, c·H_α(Q ‖ P) with c = 1 − e^ε(1 − q) and
        α = qe^ε/c (0 where c ≤ 0); Poisson sampling's "add" order."""
        q, base = self.rate, self.mechanism
        with np.errstate(divide="ignore", invalid="ignore"):
            c = -np.expm1(eps + math.log1p(-q))
            log_alpha = eps + math.log(q) - np.log(np.where(c > 0, c, 1.0))
        c, log_alpha = np.broadcast_arrays(c, log_alpha)
        # each branch's δ only where it is read (the same values, element by element): the
        # wrapped δ on the whole ε twice doubled the work of a Poisson PLD's "add" order
        value = np.zeros(c.shape)
        high = (c > 0) & (log_alpha >= 0)
        if np.any(high):
            above = np.maximum(log_alpha[high], 0.0)
            value[high] = np.asarray(base.reverse_delta(above, adjacency=adjacency), dtype=float)
        low = (c > 0) & (log_alpha < 0)
        if np.any(low):
            # α < 1: H_α(Q‖P) = 1 − α + α·H_{1/α}(P‖Q)
            below = np.maximum(-log_alpha[low], 0.0)
            alpha = np.exp(np.minimum(log_alpha[low], 0.0))
            h_low = np.asarray(base.delta(below, adjacency=adjacency), dtype=float)
            value[low] = 1 - alpha + alpha * h_low
        return np.where(c > 0, np.clip(c * value, 0.0, 1.0), 0.0)

    def reverse_delta(self, epsilon, *, adjacency="remove"):
        """What bounds the pair of ``adjacency`` swapped. Poisson's is the other order (one
        pair, swapped). Without replacement (change-one) a step's laws are
        (γP + (1 − γ)C, γQ + (1 − γ)C), C the law when the changed record is not sampled,
        which the data decide: one order is realised as (γP + (1 − γ)Q, Q) (C = Q) and as
        (P, γQ + (1 − γ)P) (C = P), the other order's pair swapped. Below ε = 0 a bound
        must cover both swaps, so it is the larger of the two orders' δ (each covers the
        other's swap; for a symmetric mechanism exactly the second, the least any per-step
        bound can be). Composed, this exceeds one pair run T times (one C in every run),
        which a per-step accounting cannot assume (Zhu, Dong & Wang 2022 on dominating pairs
        of sampling without replacement; the tests check both covers)."""
        adjacency = check_adjacency(adjacency)
        eps = check_nonnegative("epsilon", epsilon)
        if self.rate == 1:
            return as_output(self.mechanism.reverse_delta(eps, adjacency=adjacency))
        if self.sampling == "poisson":
            other = "add" if adjacency == "remove" else "remove"
            return as_output(self._delta(eps, other))
        return as_output(self.delta(eps))

    def loss_pmf(self, discretization=1e-4, *, adjacency="remove") -> LossPMF:
        h = check_discretization(discretization)
        check_adjacency(adjacency)
        base = self.mechanism.loss_pmf(h, adjacency=adjacency)
        if self.rate == 1:
            return base
        if self.sampling == "poisson" and adjacency == "add":
            return _mix_down(base, self.rate)
        return _mix_up(base, self.rate)
