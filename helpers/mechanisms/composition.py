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
from functools import lru_cache

import numpy as np

from .._validation import check_discretization, check_finite_scalar, check_open_unit
from .loss import ADJACENCIES, LossPMF, PrivacyLoss, check_adjacency

__all__ = [
    "MAX_CELLS",
    "check_mechanisms",
    "composed_loss",
    "composed_pld",
    "composition_cells",
    "pld_epsilon_of",
    "releases",
]

#: most grid cells a composed distribution may span (work refused above, up front)
MAX_CELLS = 20_000_000
_MAX_RELEASES = 10**7
_MAX_GROUPS = 2_000
_U = 2.0**-53


def check_mechanisms(mechanisms, name: str = "mechanisms") -> tuple:
    """``mechanisms`` (one :class:`PrivacyLoss` or a non-empty sequence of them) as a tuple."""
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
    return tuple(mechanisms)


def composed_mu(gdp: list) -> float:
    """√(Σ tᵢ·μᵢ²) over (μᵢ, tᵢ) pairs of μ-GDP releases run tᵢ times, rounded up."""
    squares = [mu * mu * t for mu, t in gdp]
    total = math.sqrt(math.fsum(squares))
    # each square and the sum within a few ulps, the root within one: a relative margin
    return total * (1 + (4 * len(squares) + 16) * _U) + np.finfo(float).tiny


def releases(mechanisms, times=None, *, merge: float = 0.0) -> tuple:
    """((mechanism, runs), ...): the releases grouped, equal ones counted once (see the module).

    ``times`` (an int or one per mechanism) multiplies each release's runs. Every μ-GDP
    release becomes one Gaussian of σ = 1 at Δ = √(Σ μᵢ²) (rounded up); with ``merge`` > 0 every
    other release is first replaced by its :meth:`~PrivacyLoss.coarsened` twin.
    """
    from .continuous import Gaussian

    mechanisms = check_mechanisms(mechanisms)
    runs = [1] * len(mechanisms) if times is None else list(np.broadcast_to(times, len(mechanisms)))
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


def composition_cells(groups: tuple, discretization: float) -> float:
    """A rough count of the grid cells the composed distribution spans (for the work budget)."""
    return sum(2 * one.loss_span(t) / discretization for one, t in groups)


def _check_work(groups: tuple, h: float, max_cells: float) -> None:
    cells = composition_cells(groups, h)
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


@lru_cache(maxsize=512)
def _one_pld(one: PrivacyLoss, h: float):
    return one.pld(discretization=h)


@lru_cache(maxsize=16)
def _composed_pld(groups: tuple, h: float):
    plds = []
    for one, t in groups:
        built = _one_pld(one, h)
        plds.append(built.self_compose(t) if t > 1 else built)
    return _balanced(plds, lambda a, b: a.compose(b))


def composed_pld(groups: tuple, *, discretization=1e-4, max_cells=MAX_CELLS):
    """dp_accounting's pessimistic PLD of the grouped releases (:func:`releases`), both
    adjacencies; a ValueError where the work exceeds ``max_cells`` grid cells or the library
    fails."""
    h = check_discretization(discretization)
    _check_work(groups, h, max_cells)
    try:
        return _composed_pld(groups, h)
    except (OverflowError, FloatingPointError, ZeroDivisionError) as error:
        raise ValueError(
            "dp_accounting cannot build this privacy-loss distribution (a parameter out of its "
            f"range): {type(error).__name__}: {error}"
        ) from None


@lru_cache(maxsize=512)
def _one_loss(one: PrivacyLoss, h: float, adjacency: str) -> LossPMF:
    return one.loss_pmf(h, adjacency=adjacency)


@lru_cache(maxsize=8)
def _composed_loss(groups: tuple, h: float, adjacency: str) -> LossPMF:
    parts = [_one_loss(one, h, adjacency).self_compose(t) for one, t in groups]
    return _balanced(parts, lambda a, b: a.compose(b))


def composed_loss(
    groups: tuple, *, discretization=1e-4, adjacency="remove", max_cells=MAX_CELLS
) -> LossPMF:
    """The summed loss of the grouped releases under ``adjacency``, each rounded up (a
    :class:`LossPMF` whose every tail bounds the composed loss's)."""
    h = check_discretization(discretization)
    check_adjacency(adjacency)
    _check_work(groups, h, max_cells)
    return _composed_loss(groups, h, adjacency)


def symmetric(groups: tuple) -> bool:
    """Every release has one PLD for both adjacencies (so the composed one has too)."""
    return all(one.symmetric for one, _ in groups)


def adjacencies(groups: tuple) -> tuple:
    """The adjacencies whose readings differ: ("remove",) for symmetric releases, else both."""
    return ("remove",) if symmetric(groups) else ADJACENCIES


def pld_epsilon_of(pld, delta) -> float:
    """The least ε ≥ 0 with the PLD's δ(ε) ≤ ``delta``: dp_accounting's ``get_epsilon_for_delta``
    raised (steps from 2⁻⁴⁰ relative, doubling) until the same PLD confirms it, since the
    library's inverse can land a hair low (δ 1.00000008e-10 read at its ε for 1e-10)."""
    d = float(check_open_unit("delta", check_finite_scalar("delta", delta)))
    eps = max(float(pld.get_epsilon_for_delta(d)), 0.0)
    if not math.isfinite(eps):
        return math.inf
    step = max(eps, 1.0) * 2.0**-40
    while float(pld.get_delta_for_epsilon(eps)) > d:
        eps += step
        step *= 2
        if eps > 700:
            return math.inf
    return eps
