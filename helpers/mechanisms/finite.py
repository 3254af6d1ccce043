"""Mechanisms with finitely many outputs: k-ary randomized response and the exponential mechanism.

Neither adds noise to a number: each draws one of k outputs. As privacy-loss objects
(:class:`~helpers.mechanisms.loss.FiniteOutputs`) each states its two laws on neighbouring inputs
as arrays, and every layer reads δ(ε), the PLD, the attack risk and the loss bound from them.

* :class:`RandomizedResponse` – a person reports their own category (one of k) truthfully with
  probability e^ε/(e^ε + k − 1) and each other category with 1/(e^ε + k − 1) (Warner 1965;
  k-ary, Kairouz, Oh & Viswanath 2016): the local model of notebook 00 and of several
  deployments in notebook 09. The neighbours are one person's two possible values.
* :class:`ExponentialMechanism` – one of k candidates drawn with probability ∝ exp(ε·u/(2Δ)) for
  utilities u of sensitivity Δ (McSherry & Talwar 2007; Dwork & Roth 2014, §3.4), on the
  utilities of a data set and of its neighbour, both given: its laws depend on them, and are
  not mirror images, so the two adjacencies differ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy.special import logsumexp

from .._validation import check_finite_scalar, check_int_range, check_positive, check_real
from .loss import FiniteOutputs, check_adjacency

__all__ = ["ExponentialMechanism", "RandomizedResponse"]

_MAX_OUTPUTS = 10**6


@dataclass(frozen=True)
class RandomizedResponse(FiniteOutputs):
    """k-ary randomized response at ε: P[report = own value] = e^ε/(e^ε + k − 1).

    Its two laws (one person's two values, x and x′, as outputs 0 and 1 of k) are mirror images,
    so both adjacencies give one PLD, with two atoms of loss ±ε and k − 2 of loss 0; its loss
    bound is ε.

    Used in notebook 11 (a local-model release in a workload).

    Parameters
    ----------
    epsilon : float
        ε > 0, at most 700.
    k : int, keyword-only
        The number of categories, 2 to 10⁶.

    References
    ----------
    Warner (1965); Kairouz, Oh & Viswanath (2016), k-ary randomized response.

    Examples
    --------
    >>> round(RandomizedResponse(math.log(3)).delta(0.0), 6)  # advantage (e^ε − 1)/(e^ε + 1)
    0.5
    """

    epsilon: float
    k: int = 2

    name: ClassVar[str] = "randomized_response"
    label: ClassVar[str] = "randomized response"
    symmetric: ClassVar[bool] = True

    def __post_init__(self) -> None:
        eps = float(check_positive("epsilon", check_finite_scalar("epsilon", self.epsilon)))
        if eps > 700:
            raise ValueError(f"epsilon must lie in (0, 700]; got {self.epsilon!r}")
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "k", check_int_range("k", self.k, 2, _MAX_OUTPUTS))

    def laws(self, *, adjacency="remove"):
        check_adjacency(adjacency)
        # ln of e^ε/(e^ε + k − 1) and 1/(e^ε + k − 1), the normaliser in log space
        log_norm = float(np.logaddexp(self.epsilon, math.log(self.k - 1)))
        high, low = self.epsilon - log_norm, -log_norm
        p = np.full(self.k, low)
        q = np.full(self.k, low)
        p[0], q[1] = high, high
        return (p, q) if adjacency == "remove" else (q, p)

    def loss_bound(self):
        return self.epsilon

    def text(self) -> str:
        return f"{self.label}, ε = {self.epsilon:.3g}, k = {self.k}"


@dataclass(frozen=True)
class ExponentialMechanism(FiniteOutputs):
    """The exponential mechanism at ε on given utilities: P[r] ∝ exp(ε·u(r)/(2Δ)).

    ``utilities`` are the k candidates' scores on the data set D with the target's record,
    ``neighbour_utilities`` on D′ without it; every score may move by at most Δ. The pair's
    loss never exceeds ε (Dwork & Roth, Theorem 3.10) and is often far less: it is computed
    from the two laws, never assumed.

    Used in notebook 11 (a choice among candidates in a workload).

    Parameters
    ----------
    epsilon : float
        ε > 0, at most 700.
    utilities, neighbour_utilities : sequence of float, keyword-only
        The scores of the same k candidates (2 ≤ k ≤ 10⁶) on D and on D′, finite.
    sensitivity : float, keyword-only
        Δ > 0: the most any score moves between neighbours (checked on the two given).

    References
    ----------
    McSherry & Talwar (2007); Dwork & Roth (2014), §3.4, Theorem 3.10.

    Examples
    --------
    >>> em = ExponentialMechanism(1.0, utilities=(10, 8, 3), neighbour_utilities=(9, 8, 3))
    >>> em.loss_bound() <= 1.0
    True
    """

    epsilon: float
    utilities: tuple = ()
    neighbour_utilities: tuple = ()
    sensitivity: float = 1.0

    name: ClassVar[str] = "exponential"
    label: ClassVar[str] = "exponential mechanism"

    def __post_init__(self) -> None:
        eps = float(check_positive("epsilon", check_finite_scalar("epsilon", self.epsilon)))
        if eps > 700:
            raise ValueError(f"epsilon must lie in (0, 700]; got {self.epsilon!r}")
        d = float(
            check_positive("sensitivity", check_finite_scalar("sensitivity", self.sensitivity))
        )
        u = check_real("utilities", self.utilities)
        v = check_real("neighbour_utilities", self.neighbour_utilities)
        if u.ndim != 1 or not 2 <= u.size <= _MAX_OUTPUTS:
            raise ValueError(
                f"utilities must be a 1-D sequence of 2 to {_MAX_OUTPUTS:,} scores; got "
                f"{self.utilities!r}"
            )
        if v.shape != u.shape:
            raise ValueError(
                "neighbour_utilities must score the same candidates as utilities (shape "
                f"{u.shape}); got shape {v.shape}"
            )
        moved = float(np.max(np.abs(u - v)))
        if moved > d:
            raise ValueError(
                f"sensitivity must bound how far a score moves between the neighbours; a score "
                f"moves by {moved:g} > sensitivity = {d!r}"
            )
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "sensitivity", d)
        object.__setattr__(self, "utilities", tuple(float(x) for x in u))
        object.__setattr__(self, "neighbour_utilities", tuple(float(x) for x in v))
        with np.errstate(over="ignore", invalid="ignore"):
            scaled = eps / (2 * d) * np.concatenate([u, v])
        if not np.all(np.isfinite(scaled)):
            raise ValueError(
                "utilities must stay finite once scaled by epsilon/(2·sensitivity); got scores "
                f"up to {float(np.max(np.abs(np.concatenate([u, v])))):g} at sensitivity {d:g}"
            )

    def laws(self, *, adjacency="remove"):
        check_adjacency(adjacency)
        scale = self.epsilon / (2 * self.sensitivity)
        a = scale * np.asarray(self.utilities)
        b = scale * np.asarray(self.neighbour_utilities)
        p, q = a - logsumexp(a), b - logsumexp(b)
        return (p, q) if adjacency == "remove" else (q, p)

    def text(self) -> str:
        return f"{self.label}, ε = {self.epsilon:.3g}, {len(self.utilities)} candidates"
