"""The input checks of :mod:`helpers.deployments`, and the largest ρ_z they accept."""

from __future__ import annotations

import numpy as np

from .._validation import (
    check_real,
    describe,
)

__all__ = []

# --- checks -------------------------------------------------------------------------------


#: Largest ρ_z accepted: far beyond any deployment (the largest in the registry is about
#: 20), and small enough that ρ_z·ln(1/δ) and e^{2u} in the conversions stay finite for
#: every δ a float can hold.
MAX_RHO = 1e8

#: Largest ε any conversion of a ρ_z ≤ ``MAX_RHO`` can yield: ρ_z + 2√(ρ_z ln(1/δ)) (the
#: simple conversion, never below the others) at ρ_z = ``MAX_RHO`` and the smallest δ a
#: double holds (5e-324), about 1.0055e8. The inverse ``zcdp_rho_for_epsilon`` accepts ε up
#: to the forward map's own value at ``MAX_RHO`` for its δ, never above this.
MAX_EPSILON = MAX_RHO + 2 * float(np.sqrt(MAX_RHO * -np.log(np.nextafter(0.0, 1.0))))


def _check_work(names: str, shape: tuple, budget: int, budget_name: str) -> None:
    """Refuse, before any work, a broadcast shape with more values than the search's budget."""
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if size > budget:
        raise ValueError(
            f"{names} ask for {size:,} searches (broadcast shape {tuple(shape)}), over the work "
            f"budget {budget_name} = {budget:,}; pass fewer values per call"
        )


#: the allowed ranges of ρ_z, of δ in (0, 1) and of δ in [0, 1), as the messages give them
_RHO_RULE = f"lie in [0, {MAX_RHO:g}] (ρ_z of zCDP)"
_DELTA_OPEN_RULE = (
    "lie in the open interval (0, 1) (δ of (ε, δ)-DP; use a pure-DP function for δ = 0)"
)
_DELTA_RULE = "lie in [0, 1) (δ of (ε, δ)-DP)"


def _check_rho(rho, name: str = "rho") -> np.ndarray:
    """ρ_z in [0, ``MAX_RHO``]; NaN, ±inf and values outside refused with that range."""
    r = check_real(name, rho, rule=_RHO_RULE)
    bad = (r < 0) | (r > MAX_RHO)
    if np.any(bad):
        raise ValueError(f"{name} must {_RHO_RULE}; got {describe(rho, bad)}")
    return r


#: the allowed range of ε in the inverse conversion, as its messages give it
_EPSILON_RULE = (
    "lie in [0, zcdp_to_epsilon(MAX_RHO, delta)] (ε of (ε, δ)-DP; the forward conversion's "
    "range, at most {:.6g}{})"
)


def _check_epsilon(epsilon) -> np.ndarray:
    """ε in [0, ``MAX_EPSILON``] (ε of (ε, δ)-DP, the inverse conversion's input); the bound
    for its own δ is checked by :func:`_check_epsilon_reachable` once δ is known."""
    rule = _EPSILON_RULE.format(MAX_EPSILON, "")
    e = check_real("epsilon", epsilon, rule=rule)
    bad = (e < 0) | (e > MAX_EPSILON)
    if np.any(bad):
        raise ValueError(f"epsilon must {rule}; got {describe(epsilon, bad)}")
    return e


def _check_epsilon_reachable(epsilon, e: np.ndarray, d: np.ndarray, forward) -> None:
    """Refuse an ε above ``forward(MAX_RHO, δ)``, the largest ε the forward conversion gives
    at its δ: the inverse then never returns a ρ_z the forward conversion refuses.

    ``e`` and ``d`` are the checked, broadcast ε and δ; ``epsilon`` is the value as given.
    Only ε above ``MAX_RHO``/2 is compared (the forward map at ``MAX_RHO`` is above that for
    every δ, 0.99999965e8 at δ = 1 − 1e-15), so ordinary calls cost nothing.
    """
    near = e > MAX_RHO / 2
    if not np.any(near):
        return
    cap = np.full(e.shape, np.inf)
    cap[near] = forward(np.full(int(np.count_nonzero(near)), MAX_RHO), d[near])
    bad = e > cap
    if np.any(bad):
        first = np.flatnonzero(bad.ravel())[0]
        at = f"; {float(cap.ravel()[first])!r} at delta = {float(d.ravel()[first])!r}"
        given = np.ndim(epsilon) == 0 or np.shape(epsilon) == e.shape  # else broadcast by δ
        shown = describe(epsilon, bad) if given else describe(e, bad)
        raise ValueError(f"epsilon must {_EPSILON_RULE.format(MAX_EPSILON, at)}; got {shown}")


def _check_delta_open(delta, name: str = "delta") -> np.ndarray:
    """δ in the open interval (0, 1); NaN and ±inf refused with that range."""
    d = check_real(name, delta, rule=_DELTA_OPEN_RULE)
    bad = (d <= 0) | (d >= 1)
    if np.any(bad):
        raise ValueError(f"{name} must {_DELTA_OPEN_RULE}; got {describe(delta, bad)}")
    return d


def _check_delta(delta) -> np.ndarray:
    """δ in [0, 1)."""
    d = check_real("delta", delta, rule=_DELTA_RULE)
    bad = (d < 0) | (d >= 1)
    if np.any(bad):
        raise ValueError(f"delta must {_DELTA_RULE}; got {describe(delta, bad)}")
    return d


def _check_fpr(fpr) -> np.ndarray:
    rule = "lie in [0, 1] (a false-positive rate)"
    a = check_real("fpr", fpr, rule=rule)
    bad = (a < 0) | (a > 1)
    if np.any(bad):
        raise ValueError(f"fpr must {rule}; got {describe(fpr, bad)}")
    return a
