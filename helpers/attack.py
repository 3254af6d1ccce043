"""Attack risk read on a workload's own privacy-loss distribution.

What an adversary who sees every release of a workload can do against one person, read on the
*composed privacy-loss distribution* (PLD) of the mechanisms actually used, rather than on a
single (ε, δ) that summarises it. The adversary tests two neighbouring data sets D and D′
(the target's record changed, the rest fixed) from the releases; the best test's error rates
are the workload's trade-off curve f (Dong, Roth & Su), and every attack risk below is read
off it:

* :func:`attack_tpr` – the best test's true-positive rate at a false-positive rate α,
  1 − f(α);
* :func:`attack_advantage` – the largest TPR − FPR over all tests, max_α (1 − f(α) − α),
  which is δ(0);
* :func:`bayes_risk` – the best success probability of an adversary who holds a prior π on
  D (1 − π on D′) and guesses which one produced the releases:
  max over tests of π·TPR + (1 − π)·(1 − FPR);
* :func:`attack_success` – Kulynych et al. (2025)'s one bound on re-identification,
  attribute inference and reconstruction: an attack that succeeds with probability κ without
  the releases (its *baseline*) succeeds with at most 1 − f(κ) with them, the best test's TPR
  at FPR κ; :func:`worst_case_baseline` – the κ at which that bound exceeds its baseline
  the most (by the advantage).

Kulynych, Gomez, Kaissis, du Pin Calmon & Troncoso, "Attack-aware noise calibration for
differential privacy" (NeurIPS 2024; arXiv:2407.02191) compute f from a PLD (their
Algorithm 1) and calibrate noise to these risks; Kulynych, Gomez, Kaissis, Hayes, Balle,
du Pin Calmon & Raisaro, "Unifying re-identification, attribute inference, and data
reconstruction risks in differential privacy" (NeurIPS 2025; arXiv:2507.06969) show that the
success of those three attacks is bounded by the same curve; both are implemented in their
package ``riskcal``, against which ``tests/helpers/test_attack.py`` checks these functions.

How each number is computed
---------------------------
* **Only Gaussian-DP noise** (one release or many, of any class whose ``gaussian_dp`` says
  its ρ-zCDP is exactly μ-GDP, as for :class:`~helpers.mechanisms.Gaussian`): the releases
  compose to one Gaussian test of μ = √(2 Σ ρᵢ) (μ² adds; μ = Δ/σ for the Gaussian), and
  f(α) = Φ(Φ⁻¹(1 − α) − μ) exactly (Dong, Roth & Su, Corollary 3.3 and Theorem 3.2), so
  TPR = Φ(Φ⁻¹(α) + μ), advantage 2Φ(μ/2) − 1.
* **Anything else** (Laplace, geometric or discrete Gaussian releases, mixtures, any class
  registered later): each release's privacy-loss distribution built by *its own class*
  (:meth:`helpers.mechanisms.AdditiveNoise.pld`, pessimistic: every loss rounded up onto a
  grid of step ``discretization``, the truncated tail counted as an infinite loss), composed
  by Google's ``dp_accounting``, so its δ(ε) is an upper bound on the workload's for every
  ε ≥ 0. The curve is read from that δ through the two families of lines every symmetric
  pair obeys, TPR ≤ δ(ε) + e^ε·α and TPR ≤ 1 − e^{−ε}(1 − δ(ε) − α) for every ε ≥ 0 (Dong,
  Roth & Su, Proposition 2.12; Kulynych et al. 2024, Algorithm 1 reaches the same lower
  envelope). Every line is a valid bound, so the minimum over the grid's ε's is one, and the
  Neyman–Pearson threshold picks the lines where the minimum lies.

No class is named here: a new :class:`~helpers.mechanisms.AdditiveNoise` subclass works as
soon as it exists.

Every value is an **upper bound** on the truth, rounded toward privacy: the pessimistic
discretisation, and a floating-point margin added on top (a relative few ulps on the closed
forms; (8m + 64)·2⁻⁵³ absolute for a distribution over m grid cells, whose masses carry
absolute round-off). The neighbour pair is
(f(D), f(D) + Δ) for every release, as in :func:`helpers.budget.pld_delta`; all the noises
here are symmetric, so the curve is symmetric (f = f⁻¹) and the order of D and D′ does not
matter.

The math layer: numpy, scipy and dp_accounting only. Used in notebooks 11 and 13.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy.special import erf, ndtr, ndtri

from ._cache import ByteBoundedCache
from ._validation import (
    RULE_OPEN_UNIT,
    as_output,
    check_discretization,
    check_finite_scalar,
    check_nonnegative,
    check_open_unit,
    check_real,
    describe,
)
from .mechanisms import Gaussian  # noqa: F401  (the examples' mechanism)
from .mechanisms.composition import (
    adjacencies,
    check_mechanisms,
    composed_loss,
    composed_pld,
    releases,
)
from .mechanisms.composition import composed_mu as _composed_mu

__all__ = [
    "MAX_ATTACK_CELLS",
    "attack_advantage",
    "attack_success",
    "attack_tpr",
    "bayes_risk",
    "composed_mu",
    "loss_epsilon",
    "loss_tail",
    "worst_case_baseline",
]

#: Most grid cells of a composed privacy-loss distribution (work refused above, up front).
MAX_ATTACK_CELLS = 20_000_000
_MAX_RELEASES = 10**7  # mechanisms in one list
_MAX_GROUPS = 2_000  # distinct mechanisms built in one call (each takes milliseconds)
_U = 2.0**-53  # the unit roundoff of doubles
_CLOSED_FORM_ULPS = 64  # relative margin on a closed form (ndtri, ndtr, exp: a few ulps each)


def _up(x, ulps: float) -> np.ndarray:
    """x ≥ 0 raised by ``ulps`` units of 2⁻⁵³ relative, plus the smallest normal (0 moves up)."""
    x = np.asarray(x, dtype=float)
    return x * (1.0 + ulps * _U) + np.finfo(float).tiny


# --- the mechanisms ---------------------------------------------------------------------------


def _check_mechanisms(mechanisms) -> tuple:
    """The releases as a tuple of mechanism objects (any :class:`~helpers.mechanisms.PrivacyLoss`),
    one entry per release, taken as they are (:func:`helpers.mechanisms.check_mechanisms`)."""
    return check_mechanisms(mechanisms)


def composed_mu(mechanisms) -> float:
    """μ of the one Gaussian test that Gaussian-DP releases compose to: √(2 Σ ρᵢ), rounded up.

    A release whose class says it is Gaussian-DP (``gaussian_dp``: its ρ-zCDP is exactly
    μ-GDP with μ = √(2ρ), as for the Gaussian, ρ = Δ²/(2σ²)) has the trade-off curve of one
    test between N(0, 1) and N(μ, 1); such releases together are μ-GDP with μ² = Σ μᵢ²
    (Dong, Roth & Su, Corollary 3.3), i.e. μ² = 2ρ_z with ρ_z = Σ ρᵢ.

    Not called in a notebook; used by ``helpers.attack``.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        The releases, each of a class with ``gaussian_dp`` true (:class:`helpers.mechanisms.Gaussian`).

    Returns
    -------
    float
        μ ≥ 0, never below the exact value.

    Raises
    ------
    ValueError
        If a mechanism is not Gaussian-DP or holds more than one noise or Δ.

    References
    ----------
    Dong, Roth & Su, "Gaussian differential privacy", JRSS B 84(1), 2022, Corollary 3.3.

    Examples
    --------
    >>> mu = composed_mu([Gaussian(2.0), Gaussian(2.0), Gaussian(2.0), Gaussian(2.0)])  # √(4·¼)
    >>> mu >= 1.0, round(mu, 12)
    (True, 1.0)
    """
    rows = _check_mechanisms(mechanisms)
    if not _gaussian_only(rows):
        shown = repr(mechanisms)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise ValueError(f"mechanisms must all be Gaussian-DP for composed_mu; got {shown}")
    return _mu(rows)


def _mu(rows: tuple) -> float:
    """√(Σ μᵢ²) over the μ-GDP releases, each μᵢ its own (:meth:`PrivacyLoss.gdp_mu`), rounded up."""
    mus = [one.gdp_mu() for one in rows]
    return _composed_mu([(mu, 1) for mu in mus if mu is not None])


# --- the composed privacy-loss distribution ----------------------------------------------------

# Built by the one pipeline (helpers.mechanisms.composition): each release's own PLD (or its
# own rounded-up loss), equal releases once, the μ-GDP ones merged exactly into one Gaussian.


class _Grid:
    """The composed PLD of one adjacency as arrays: losses yⱼ = h·(j₀ + j), masses pⱼ under D, p_∞.

    With the tails that the readings need (all sums from the top, so that small terms are
    added first): ``p_tail[j]`` = P[Y > yⱼ] (p_∞ included), ``q_tail[j]`` = Σ_{i>j} pᵢ e^{−yᵢ}
    = P[X > yⱼ] under D′, and ``p_cdf[j]`` = P[Y ≤ yⱼ].
    """

    def __init__(self, pld, adjacency: str = "remove"):
        # dp_accounting keeps the pmfs in private fields (riskcal reads the same ones)
        pmf = pld._pmf_remove if adjacency == "remove" else pld._pmf_add
        dense = pmf.to_dense_pmf()
        p = np.clip(np.asarray(dense._probs, dtype=float), 0.0, None)
        self.h = float(dense._discretization)
        self.y = self.h * (int(dense._lower_loss) + np.arange(p.size))
        self.p_inf = float(min(max(dense._infinity_mass, 0.0), 1.0))
        self.p = p
        with np.errstate(over="ignore", under="ignore"):
            q = np.exp(np.log(np.where(p > 0, p, 1.0)) - self.y) * (p > 0)
        self.q = q
        above_p = np.cumsum(p[::-1])[::-1]  # Σ_{i≥j}
        above_q = np.cumsum(q[::-1])[::-1]
        self.p_tail = np.append(above_p[1:], 0.0) + self.p_inf
        self.q_tail = np.append(above_q[1:], 0.0)
        self.p_cdf = np.cumsum(p)
        self.margin = (8 * p.size + 64) * _U

    def delta_at(self, eps: np.ndarray) -> np.ndarray:
        """δ(ε) of the grid's distribution at any ε ≥ 0 (not only a grid point): the tails
        above the first yⱼ > ε, P[Y > ε] − e^ε·P[X > ε]."""
        j = np.searchsorted(self.y, eps, side="right")
        inside = j < self.y.size
        jj = np.minimum(j, self.y.size - 1)
        above_p = np.where(inside, self.p_tail[jj] + self.p[jj], self.p_inf)
        above_q = np.where(inside, self.q_tail[jj] + self.q[jj], 0.0)
        with np.errstate(over="ignore", divide="ignore"):
            scaled = np.exp(eps + np.log(np.where(above_q > 0, above_q, 1.0)))
        return above_p - np.where(above_q > 0, scaled, 0.0)

    def delta(self, epsilon: np.ndarray) -> np.ndarray:
        """δ(ε) at grid points ε = yⱼ (given by index) as P[Y > ε] − e^ε·P[X > ε]."""
        q_tail = self.q_tail[epsilon]
        # e^ε·P[X > ε] in logs (e^ε alone may overflow where the tail is tiny), none where D′
        # has no mass left: never inf·0, never inf − inf
        with np.errstate(over="ignore", divide="ignore"):
            scaled = np.exp(self.y[epsilon] + np.log(np.where(q_tail > 0, q_tail, 1.0)))
        return self.p_tail[epsilon] - np.where(q_tail > 0, scaled, 0.0)


def _grid_bytes(built: tuple) -> int:
    return sum(
        value.nbytes for grid in built for value in vars(grid).values() if hasattr(value, "nbytes")
    )


#: the latest composed grids, keyed by (groups, h): a dashboard rereads them. Bounded by bytes
#: (128 MiB), not by count: a noise search (helpers.dpsgd) reads a dozen grids of tens of
#: megabytes each, and sixteen kept alive took a graded run of notebook 13 past its sandbox
_GRIDS = ByteBoundedCache(128 * 2**20, size_of=_grid_bytes)


def _grids(rows: tuple, h: float) -> tuple:
    """One :class:`_Grid` per adjacency whose PLD differs (one for symmetric releases)."""

    def make() -> tuple:
        pld = composed_pld(rows, discretization=h, max_cells=MAX_ATTACK_CELLS)
        return tuple(_Grid(pld, a) for a in adjacencies(rows))

    return _GRIDS.get((releases(rows), h), make)


class _LossGrid(NamedTuple):
    """The composed privacy loss rounded up onto a grid: yⱼ, P[ℒ′ = yⱼ], P[ℒ′ > yⱼ], p_∞."""

    y: np.ndarray
    p: np.ndarray
    p_tail: np.ndarray
    p_inf: float
    margin: float


def _loss_grids(rows: tuple, h: float) -> tuple:
    """The composed loss of each adjacency, every release's loss rounded up by its own class
    (:meth:`~helpers.mechanisms.PrivacyLoss.loss_pmf`), then summed: still ≥ the true sum."""
    out = []
    for adjacency in adjacencies(rows):
        total = composed_loss(
            rows, discretization=h, adjacency=adjacency, max_cells=MAX_ATTACK_CELLS
        )
        p = total.pmf
        above = np.cumsum(p[::-1])[::-1]
        p_tail = np.append(above[1:], 0.0) + total.infinity
        # FFT round-off is absolute, about size·u of the total mass: part of the margin
        out.append(_LossGrid(total.losses, p, p_tail, total.infinity, (8 * p.size + 64) * _U))
    return tuple(out)


def _gaussian_only(rows: tuple) -> bool:
    """Every release is μ-Gaussian DP (its :meth:`gdp_mu` says so): the closed forms in μ apply."""
    return all(one.gdp_mu() is not None for one in rows)


def composed_epsilon(mechanisms, delta: float, discretization=1e-4) -> float:
    """The least grid ε ≥ 0 with δ(ε) ≤ ``delta`` on the composed pessimistic PLD (rounded up).

    For :mod:`helpers.budget`'s exact allocation (a dashboard redraws it): the same grid as
    the attack readings (Gaussian-DP releases merged to one μ, built vectorised and cached),
    so a valid (ε, δ) of the workload, within a grid step of dp_accounting's own reading.
    Not called in a notebook.
    """
    rows = _check_mechanisms(mechanisms)
    d = float(check_open_unit("delta", check_finite_scalar("delta", delta, rule=RULE_OPEN_UNIT)))
    found = 0.0
    for grid in _grids(rows, check_discretization(discretization)):
        zero = int(np.searchsorted(grid.y, 0.0, side="left"))
        if zero >= grid.y.size:
            continue
        ok = grid.delta(np.arange(zero, grid.y.size)) + grid.margin <= d
        ok = np.logical_and.accumulate(ok[::-1])[::-1]  # from there on every δ is ≤ d
        if not ok.any():
            return math.inf
        found = max(found, float(grid.y[zero + int(np.argmax(ok))]))
    return found


# --- the readings -------------------------------------------------------------------------


def _delta_zero(grid: _Grid) -> float:
    """δ(0) = Σ over losses ≥ 0 of (p − q), plus p_∞, from the tails (not δ at the first loss
    ≥ 0, which lies below δ(0) where every loss of an order is above 0)."""
    zero = int(np.searchsorted(grid.y, 0.0, side="left"))  # first index with yⱼ ≥ 0
    if zero > 0:
        return float(grid.p_tail[zero - 1] - grid.q_tail[zero - 1])
    return float((grid.p_tail[0] + grid.p[0]) - (grid.q_tail[0] + grid.q[0]))


def _thresholds(g: _Grid, alpha: np.ndarray, line: int) -> list:
    """The losses ε ≥ 0 of ``g`` near a line's Neyman–Pearson threshold: line 1's minimum lies
    where P[X > ε] crosses α, line 2's where P[Y ≤ ε] does (both read on ``g``)."""
    n = g.y.size
    first = int(np.searchsorted(g.y, 0.0, side="left"))
    if first >= n:
        return []
    if line == 1:
        centre = n - np.searchsorted(g.q_tail[::-1], alpha, side="right")
    else:
        centre = np.searchsorted(g.p_cdf, alpha, side="left")
    return [g.y[np.clip(centre + shift, first, n - 1)] for shift in (-1, 0, 1)]


def _lines(delta: np.ndarray, eps: np.ndarray, alpha: np.ndarray, line: int) -> np.ndarray:
    """Line 1, δ(ε) + e^ε·α, or line 2, 1 − e^{−ε}(1 − δ(ε) − α): each bounds the TPR."""
    with np.errstate(over="ignore", divide="ignore"):
        if line == 1:  # e^ε·α in logs: no inf·0 at α = 0
            return delta + np.where(
                alpha > 0, np.exp(eps + np.log(np.where(alpha > 0, alpha, 1.0))), 0.0
            )
        return 1.0 - np.exp(-eps) * (1.0 - delta - alpha)


def _tpr_on_grid(grid: _Grid, other: _Grid, alpha: np.ndarray) -> np.ndarray:
    """min over ε ≥ 0 of the lines that bound the best test of ``grid``'s order, each near its
    Neyman–Pearson threshold: together, that order's own curve (up to the grid).

    Line 1 with this order's δ; line 2 with the *other* order's δ′ (``other``; the same grid
    for a symmetric workload). Line 2 is line 1 at −ε (δ(−ε) = 1 − e^{−ε} + e^{−ε}·δ′(ε) for
    the add/remove relation, whose "add" is "remove" swapped), read where the distributions
    are built faithfully, at ε ≥ 0. Reading line 2 with this order's own δ, as before, made a
    pair whose orders differ read the symmetrised curve, up to 0.06 from the best test of
    either order, above it or (one order of the leaky toy) below it (review of issue 46).
    """
    best = np.minimum(1.0, _delta_zero(grid) + alpha)  # ε = 0, and ε = ∞ (TPR ≤ 1)
    for g, line in ((grid, 1), (other, 2)):
        for eps in _thresholds(g, alpha, line):
            best = np.minimum(best, _lines(g.delta_at(eps), eps, alpha, line))
    return best


def _tpr_either_way(grids: tuple, alpha: np.ndarray) -> np.ndarray:
    """For orders that are two pairs of the change-one relation (sampling without
    replacement), not one pair swapped: the best test of each order's pair and of that pair
    swapped, each read on its own distribution (built from :meth:`PrivacyLoss.delta_any`,
    which reads below ε = 0 through the same pair swapped): line 1 over every loss for the
    pair, line 2 over every loss for the pair swapped, the larger over all four."""
    out = np.zeros(alpha.shape)
    for g in grids:
        n = g.y.size
        pair = np.minimum(1.0, _delta_zero(g) + alpha)  # ε = 0 bounds both
        swapped = pair.copy()
        # line 1's minimum where P[X > ε] crosses α; line 2's where P[Y ≤ ε] does
        c1 = n - np.searchsorted(g.q_tail[::-1], alpha, side="right")
        c2 = np.searchsorted(g.p_cdf, alpha, side="left")
        for shift in (-1, 0, 1):
            j1, j2 = np.clip(c1 + shift, 0, n - 1), np.clip(c2 + shift, 0, n - 1)
            pair = np.minimum(pair, _lines(g.delta(j1), g.y[j1], alpha, 1))
            swapped = np.minimum(swapped, _lines(g.delta(j2), g.y[j2], alpha, 2))
        out = np.maximum(out, np.maximum(pair, swapped))
    return out


def _check_fpr(fpr, name: str = "fpr") -> np.ndarray:
    """α in the closed interval [0, 1], checked before any path is chosen (the same message
    on every path; ``name`` is the caller's parameter). Both ends are meaningful: at α = 0
    the TPR is P[ℒ = ∞] (0 for noise whose loss is finite), at α = 1 it is 1."""
    rule = "lie in [0, 1] (both ends included)"
    alpha = check_real(name, fpr, rule=rule)  # NaN and ±inf refused with the range too
    bad = (alpha < 0) | (alpha > 1)
    if np.any(bad):
        raise ValueError(f"{name} must {rule}; got {describe(fpr, bad)}")
    return alpha


def attack_tpr(mechanisms, *, fpr, discretization=1e-4):
    """The best test's TPR at false-positive rate α, after all the releases.

    The adversary sees the outputs of every mechanism and tests D against D′ (two values of
    the target's record: a membership test under add/remove neighbours); the highest
    true-positive rate any test reaches at false-positive rate
    α is 1 − f(α), f the composed trade-off curve (module docstring). Exact for Gaussian-DP
    releases, Φ(Φ⁻¹(α) + μ) with μ² = Σ (Δᵢ/σᵢ)²; read on the pessimistic composed PLD of
    the classes' own :meth:`~helpers.mechanisms.AdditiveNoise.pld` otherwise. Always an upper
    bound on the truth.

    Used in notebook 11.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        The releases: mechanism objects of :mod:`helpers.mechanisms` of any class (additive
        noise such as ``Laplace`` or ``Gaussian``, ``RandomizedResponse``,
        ``ExponentialMechanism``, ``Subsampled``, a contributor's class), each taken as it
        is with every parameter it holds; any mix. Where a release's two orders of the
        neighbours differ, the larger reading is given.
    fpr : float or array_like, keyword-only
        α in [0, 1], both ends included: at α = 0 the TPR is the mass of an infinite privacy
        loss (exactly 0 for the Gaussian and for any noise whose loss is finite), at α = 1 it
        is 1. Checked the same way on every path.
    discretization : float, keyword-only
        The PLD's grid step in [1e-6, 0.1]; checked on every path, also where a closed form
        makes it unused.

    Returns
    -------
    float or numpy.ndarray
        The TPR in [α, 1]; a Python float for a scalar ``fpr``.

    Raises
    ------
    ValueError
        If a mechanism is not a mechanism object (a PrivacyLoss), an argument is out of range, or the
        composed PLD would exceed :data:`MAX_ATTACK_CELLS` grid cells.

    References
    ----------
    Dong, Roth & Su, "Gaussian differential privacy", JRSS B 84(1), 2022 (Corollary 3.3,
    Proposition 2.12); Kulynych et al., "Attack-aware noise calibration for differential
    privacy", NeurIPS 2024, Algorithm 1.

    Examples
    --------
    >>> round(attack_tpr([Gaussian(2.0)] * 4, fpr=0.05), 4)  # μ = 1: Φ(Φ⁻¹(0.05) + 1)
    0.2595
    >>> from helpers.mechanisms import Laplace
    >>> round(attack_tpr([Laplace(5.0)] * 10, fpr=0.1), 3)  # total ε = 2; pure ε: 0.739
    0.253
    """
    rows = _check_mechanisms(mechanisms)
    alpha = _check_fpr(fpr)
    h = check_discretization(discretization)
    if _gaussian_only(rows):
        mu = _mu(rows)
        z = ndtri(alpha)  # ±inf at α = 0 and 1, where Φ(z + μ) is exactly 0 and 1
        # ndtri's error moves the TPR by φ(z + μ)/Φ(z + μ)·|z|·(a few ulps) ≲ z²·ulps, relative
        ulps = _CLOSED_FORM_ULPS + 16 * np.minimum(np.where(np.isfinite(z), z, 0.0) ** 2, 1e6)
        tpr = np.where(np.isfinite(z), _up(ndtr(z + mu), ulps), np.clip(z, 0.0, 1.0))
    else:
        grids = _grids(rows, h)
        flat = alpha.ravel()
        if all(one.mirrored_orders for one in rows):  # either order: the larger TPR
            pairs = zip(grids, grids[::-1], strict=True)
            read = np.maximum.reduce([_tpr_on_grid(g, o, flat) for g, o in pairs])
        else:
            read = _tpr_either_way(grids, flat)
        # the masses' round-off (dp_accounting's cdf differences, the FFT) is absolute
        margin = max(g.margin for g in grids)
        one = _up(read.reshape(alpha.shape), 64) + margin
        # at α = 0 the best test rejects only where ℒ = ∞: TPR = p_∞ (0 when it is 0)
        p_inf = max(g.p_inf for g in grids)
        tpr = np.where(alpha == 0, p_inf + margin if p_inf > 0 else 0.0, one)
    return as_output(np.clip(np.maximum(tpr, alpha), 0.0, 1.0))


def attack_advantage(mechanisms, *, discretization=1e-4) -> float:
    """The best test's advantage, max over tests of TPR − FPR: δ(0) of the composed releases.

    For a symmetric trade-off curve the largest TPR − FPR is reached at the threshold 0 of
    the privacy loss and equals the hockey-stick divergence at ε = 0:
    Σ_{yⱼ > 0} pⱼ(1 − e^{−yⱼ}) + p_∞ on the composed PLD. Exact for Gaussian-DP releases,
    2Φ(μ/2) − 1 (one Laplace release of ε has 1 − e^{−ε/2}; read on its PLD, within the
    discretisation above it). An upper bound on the truth.

    Used in notebooks 11 and 13.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        As in :func:`attack_tpr`.
    discretization : float, keyword-only
        As in :func:`attack_tpr`.

    Returns
    -------
    float
        The advantage in [0, 1].

    Raises
    ------
    ValueError
        As in :func:`attack_tpr`.

    References
    ----------
    Kulynych et al., "Attack-aware noise calibration for differential privacy", NeurIPS
    2024 (advantage = δ(0)); Dong, Roth & Su (2022), Corollary 2.13.

    Examples
    --------
    >>> from helpers.mechanisms import Laplace
    >>> round(attack_advantage([Laplace(5.0)] * 10), 3)  # the pure-ε curve at 2 says 0.762
    0.24
    """
    rows = _check_mechanisms(mechanisms)
    h = check_discretization(discretization)
    if _gaussian_only(rows):
        mu = _mu(rows)
        # 2Φ(μ/2) − 1 = erf(μ/(2√2)): no cancellation at a tiny μ (2·ndtr − 1 lost every digit)
        value = _up(erf(mu / (2.0 * math.sqrt(2.0))), _CLOSED_FORM_ULPS)
    else:
        value = 0.0
        for grid in _grids(rows, h):  # either order of the neighbours: the larger
            positive = grid.y > 0
            terms = grid.p[positive] * -np.expm1(-grid.y[positive])
            one = _up(math.fsum(terms.tolist()) + grid.p_inf, 64) + grid.margin  # absolute
            value = max(value, float(one))
    return float(min(value, 1.0))


def bayes_risk(mechanisms, *, prior, discretization=1e-4):
    """The best success probability of an adversary with prior π who guesses D or D′.

    An adversary who believes D (the target's record as it is) with probability π and D′
    with 1 − π sees every release and guesses which one produced them; the Bayes-optimal
    guess succeeds with probability max over tests of π·TPR + (1 − π)·(1 − FPR), which for
    a symmetric curve is max(π, 1 − π) + min(π, 1 − π)·δ(|ln((1 − π)/π)|). Without any
    release it is max(π, 1 − π), the baseline. This is Kulynych et al. (2025)'s bound on the
    success of a binary attribute-inference (and re-identification between two candidates)
    attack, Proposition D.1 / Eq. (35); their ``riskcal`` returns its complement, the
    Bayes-optimal *error* (1 − this). Exact for Gaussian-DP releases,
    π·Φ(μ/2 − ε/μ) + (1 − π)·Φ(μ/2 + ε/μ) with ε = ln((1 − π)/π); an upper bound always.

    Used in notebook 11.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        As in :func:`attack_tpr`.
    prior : float or array_like, keyword-only
        π in (0, 1).
    discretization : float, keyword-only
        As in :func:`attack_tpr`.

    Returns
    -------
    float or numpy.ndarray
        The success probability in [max(π, 1 − π), 1].

    Raises
    ------
    ValueError
        As in :func:`attack_tpr`, or if ``prior`` is outside (0, 1).

    References
    ----------
    Kulynych, Gomez, Kaissis, Hayes, Balle, du Pin Calmon & Raisaro, "Unifying
    re-identification, attribute inference, and data reconstruction risks in differential
    privacy", NeurIPS 2025 (arXiv:2507.06969), Proposition D.1.

    Examples
    --------
    >>> round(bayes_risk([Gaussian(2.0)] * 4, prior=0.5), 4)  # Φ(½) at μ = 1
    0.6915
    """
    rows = _check_mechanisms(mechanisms)
    pi = check_open_unit("prior", prior)
    low = np.minimum(pi, 1.0 - pi)  # the success is symmetric in π ↔ 1 − π (f = f⁻¹)
    eps = np.log1p(-low) - np.log(low)  # ≥ 0
    h = check_discretization(discretization)
    if _gaussian_only(rows):
        mu = _mu(rows)
        value = low * ndtr(mu / 2 - eps / mu) + (1 - low) * ndtr(mu / 2 + eps / mu)
        value = _up(value, _CLOSED_FORM_ULPS)
    else:
        value = np.zeros(eps.shape)
        for grid in _grids(rows, h):  # either order of the neighbours: the larger
            # δ(ε) = P[Y > ε] − e^ε·P[X > ε] with ε between grid points: the tails above the
            # first yⱼ > ε (the error, ≤ 2m·u·P[Y > ε], is inside the margin: the value is ≥ ½)
            j = np.searchsorted(grid.y, eps.ravel(), side="right")
            inside = j < grid.y.size
            jj = np.minimum(j, grid.y.size - 1)
            above_p = np.where(inside, grid.p_tail[jj] + grid.p[jj], grid.p_inf)
            above_q = np.where(inside, grid.q_tail[jj] + grid.q[jj], 0.0)
            with np.errstate(over="ignore", invalid="ignore"):
                delta = np.where(above_q > 0, above_p - np.exp(eps.ravel()) * above_q, above_p)
            delta = np.clip(delta, 0.0, 1.0).reshape(eps.shape)
            value = np.maximum(value, _up((1 - low) + low * delta, 68) + grid.margin)
    return as_output(np.clip(value, np.maximum(pi, 1 - pi), 1.0))


def attack_success(mechanisms, *, baseline, discretization=1e-4):
    """The most an attack of baseline success κ can succeed after the releases: 1 − f(κ).

    Kulynych et al. (2025) bound three attacks on one person with one curve: *re-identifying*
    (singling out) a record among candidates, *inferring an attribute* of it, and
    *reconstructing* it, each judged by its success probability. Without the releases the
    adversary's best guess succeeds with some probability κ, the **baseline** (1/k for one of k
    candidates equally likely a priori; the largest prior probability of an attribute's
    values). With them, success is at most the power of the best membership test at
    false-positive rate κ: 1 − f(κ), the workload's trade-off curve f read at the baseline
    (the value of :func:`attack_tpr` at ``fpr=κ``, computed the same way: exact for
    Gaussian-DP releases, an upper bound always). The increase over the baseline,
    1 − f(κ) − κ, is at most the advantage (:func:`attack_advantage`), reached at
    :func:`worst_case_baseline`.

    Used in notebook 11.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        As in :func:`attack_tpr`.
    baseline : float or array_like, keyword-only
        κ in [0, 1]: the attack's success probability without the releases.
    discretization : float, keyword-only
        As in :func:`attack_tpr`.

    Returns
    -------
    float or numpy.ndarray
        The success probability bound in [κ, 1].

    Raises
    ------
    ValueError
        As in :func:`attack_tpr`, or if ``baseline`` is outside [0, 1] or NaN.

    References
    ----------
    Kulynych, Gomez, Kaissis, Hayes, Balle, du Pin Calmon & Raisaro, "Unifying
    re-identification, attribute inference, and data reconstruction risks in differential
    privacy", NeurIPS 2025 (arXiv:2507.06969); their package ``riskcal`` documents the same
    reading ("max success probability bounded by TPR at baseline α"); Dong, Roth & Su (2022),
    Corollary 3.3 (the Gaussian curve).

    Examples
    --------
    >>> round(attack_success([Gaussian(2.0)] * 4, baseline=0.5), 4)  # μ = 1: Φ(1)
    0.8413
    """
    _check_mechanisms(mechanisms)  # the same order of checks as every other function
    kappa = _check_fpr(baseline, "baseline")
    check_discretization(discretization)
    return attack_tpr(mechanisms, fpr=kappa, discretization=discretization)


def worst_case_baseline(mechanisms, *, discretization=1e-4) -> float:
    """The baseline κ at which the releases raise an attack's success the most: (1 − η)/2.

    The increase 1 − f(κ) − κ of :func:`attack_success` over its baseline is largest where
    the trade-off curve meets the diagonal, f(κ) = κ (every curve here is symmetric,
    f = f⁻¹, and convex), and there it equals the advantage η (:func:`attack_advantage`), so
    κ* = (1 − η)/2: Kulynych et al. (2025)'s worst-case baseline. For Gaussian-DP releases
    κ* = Φ(−μ/2) (rounded down); for one Laplace release of ε (η = 1 − e^{−ε/2}), e^{−ε/2}/2,
    where the pure-ε curve of any ε-DP release (randomised response's) would give the lower
    1/(1 + e^ε). η is an upper bound, so κ* is never above the true worst-case baseline.

    Used in notebook 11.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        As in :func:`attack_tpr`.
    discretization : float, keyword-only
        As in :func:`attack_tpr`.

    Returns
    -------
    float
        κ* in [0, ½].

    Raises
    ------
    ValueError
        As in :func:`attack_advantage`.

    References
    ----------
    Kulynych et al. (2025), as :func:`attack_success`; Dong, Roth & Su (2022), Proposition
    2.12 (symmetric trade-off curves).

    Examples
    --------
    >>> round(worst_case_baseline([Gaussian(2.0)] * 4), 4)  # μ = 1: Φ(−½)
    0.3085
    """
    rows = _check_mechanisms(mechanisms)
    h = check_discretization(discretization)
    if _gaussian_only(rows):
        # Φ(−μ/2) directly: (1 − η)/2 would cancel where η is near 1 (rounded down, as η is up)
        value = float(ndtr(-_mu(rows) / 2.0)) * (1.0 - _CLOSED_FORM_ULPS * _U)
        return max(0.0, value)
    grids = _grids(rows, h)
    if len(grids) == 1:  # a symmetric curve meets the diagonal at (1 − η)/2
        eta = attack_advantage(mechanisms, discretization=h)
        return float(max(0.0, (1.0 - eta) / 2.0))
    # otherwise the gain 1 − f(κ) − κ peaks at the test "ℒ > 0": κ* = P[ℒ > 0] under D′,
    # on the order of the neighbours whose gain there (δ(0)) is the larger
    best_gain, kappa = -1.0, 0.0
    for grid in grids:
        positive = grid.y > 0
        fpr = math.fsum(grid.q[positive].tolist())
        gain = math.fsum(grid.p[positive].tolist()) + grid.p_inf - fpr
        if gain > best_gain:
            best_gain, kappa = gain, fpr
    return float(min(max(0.0, kappa), 1.0))


def loss_tail(mechanisms, *, epsilon, discretization=1e-4):
    """P[ℒ > ε]: the probability that the workload's privacy loss exceeds ε (notebook 08's δ₁).

    ℒ = ln(p_D(O)/p_D′(O)) with O, the outputs of every release, drawn from D. Outside the
    event ℒ > ε every bound that holds for ε-DP holds for this output: the posterior
    bound e^ε·odds (:func:`helpers.deployments.posterior_bound`), Kazan & Reiter's profiles.
    So this is the *bad-event probability* of such a bound read at ε, which a hockey-stick δ
    at ε does not bound (δ ≤ P[ℒ > ε], and 2δ bounds it only at ε + ln 2). Exact for Gaussian
    releases (Gaussian-DP), where ℒ ~ N(μ²/2, μ²) and P[ℒ > ε] = Φ(μ/2 − ε/μ); else read on
    the composed loss with every release's loss rounded *up* onto the grid by its own class
    (no connect-the-dots), an upper bound (one Laplace release of ε₀ = Δ/b has
    1 − ½e^{−(ε₀ − ε)/2} below ε₀ and 0 from ε₀ on).

    Used in notebook 11.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        As in :func:`attack_tpr`.
    epsilon : float or array_like, keyword-only
        ε ≥ 0.
    discretization : float, keyword-only
        As in :func:`attack_tpr`.

    Returns
    -------
    float or numpy.ndarray
        The probability, never below the truth.

    Raises
    ------
    ValueError
        As in :func:`attack_tpr`, or if ``epsilon`` is negative or NaN.

    References
    ----------
    Dwork & Roth (2014), Lemma 3.17 and the discussion of (ε, δ) as "ε-DP except with
    probability δ"; Canonne, Kamath & Steinke (2020), §2 (the privacy loss of the Gaussian);
    Kasiviswanathan & Smith (2014), "On the 'semantics' of differential privacy".

    Examples
    --------
    >>> round(loss_tail(Gaussian(1.0), epsilon=0.5), 4)  # μ = 1: Φ(½ − ½)
    0.5
    >>> from helpers.mechanisms import Laplace
    >>> loss_tail([Laplace(10.0)] * 10, epsilon=1.01) < 1e-9  # ten losses of at most 0.1
    True
    """
    rows = _check_mechanisms(mechanisms)
    eps = check_nonnegative("epsilon", epsilon)
    h = check_discretization(discretization)
    if _gaussian_only(rows):
        mu = _mu(rows)
        value = _up(ndtr(mu / 2 - eps / mu), _CLOSED_FORM_ULPS)
    else:
        value = np.zeros(eps.shape)
        for grid in _loss_grids(rows, h):  # either order of the neighbours: the larger
            j = np.searchsorted(grid.y, eps.ravel(), side="right")  # the first loss above ε
            jj = np.minimum(j, grid.y.size - 1)
            tail = np.where(j < grid.y.size, grid.p_tail[jj] + grid.p[jj], grid.p_inf)
            value = np.maximum(value, (tail + grid.margin).reshape(eps.shape))  # FFT round-off
    return as_output(np.clip(value, 0.0, 1.0))


def loss_epsilon(mechanisms, *, delta, discretization=1e-4) -> float:
    """The least ε with P[ℒ > ε] ≤ δ: the ε at which the workload is "ε-DP except with probability δ".

    The inverse of :func:`loss_tail`, rounded up: a bound that holds under ε-DP (a posterior,
    a relative risk) holds at this ε for the workload's outputs except with probability at
    most δ. Gaussian-DP releases: μ²/2 + μ·Φ⁻¹(1 − δ); otherwise the smallest grid loss
    whose tail is ≤ δ (one Laplace release of ε₀: ε₀ for δ < ½, as ℒ = ε₀ on half the
    outputs).

    Used in notebook 11.

    Parameters
    ----------
    mechanisms : PrivacyLoss or list of PrivacyLoss
        As in :func:`attack_tpr`.
    delta : float, keyword-only
        δ in (0, 1).
    discretization : float, keyword-only
        As in :func:`attack_tpr`.

    Returns
    -------
    float
        ε ≥ 0 (``inf`` if the tail counted as an infinite loss exceeds δ).

    Raises
    ------
    ValueError
        As in :func:`loss_tail`, or if ``delta`` is outside (0, 1).

    References
    ----------
    As :func:`loss_tail`.

    Examples
    --------
    >>> round(loss_epsilon(Gaussian(1.0), delta=0.5), 4)  # μ = 1: the median of N(½, 1)
    0.5
    """
    rows = _check_mechanisms(mechanisms)
    d = float(check_open_unit("delta", check_finite_scalar("delta", delta, rule=RULE_OPEN_UNIT)))
    h = check_discretization(discretization)
    if _gaussian_only(rows):
        mu = _mu(rows)
        # ndtri(1 − δ) = −ndtri(δ) exactly for the symmetric normal; raised for its error
        z = -float(ndtri(d))
        return float(max(0.0, float(_up(mu * mu / 2 + mu * z, _CLOSED_FORM_ULPS + 16 * z * z))))
    found = 0.0
    for grid in _loss_grids(rows, h):  # either order of the neighbours: the larger
        tails = grid.p_tail + grid.margin  # P[ℒ′ > yⱼ], FFT round-off (absolute) added
        if grid.p_inf + grid.margin > d:
            return math.inf
        j = int(np.argmax(tails <= d))  # tails fall with j; the last is p_inf ≤ δ
        found = max(found, float(grid.y[j]))
    return found
