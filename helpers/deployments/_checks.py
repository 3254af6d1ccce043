"""The input checks of :mod:`helpers.deployments`, and the largest ρ_z they accept."""

from __future__ import annotations

import numpy as np

from .._validation import (
    check_nonnegative,
    check_open_unit,
    check_real_or_inf,
)

__all__ = []

# --- checks -------------------------------------------------------------------------------


#: Largest ρ_z (and ε for the inverse conversion) accepted: far beyond any deployment
#: (the largest in the registry is about 20), and small enough that ρ_z·ln(1/δ) and e^{2u}
#: in the conversions stay finite for every δ a float can hold.
MAX_RHO = 1e8


def _check_work(names: str, shape: tuple, budget: int, budget_name: str) -> None:
    """Refuse, before any work, a broadcast shape with more values than the search's budget."""
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if size > budget:
        raise ValueError(
            f"{names} ask for {size:,} searches (broadcast shape {tuple(shape)}), over the work "
            f"budget {budget_name} = {budget:,}; pass fewer values per call"
        )


def _check_rho(rho, name: str = "rho") -> np.ndarray:
    r = check_real_or_inf(name, rho, "a real number ≥ 0 (ρ_z of zCDP)")
    bad = (r < 0) | ~(r <= MAX_RHO)
    if np.any(bad):
        raise ValueError(
            f"{name} must lie in [0, {MAX_RHO:g}] (ρ_z of zCDP); got {r[bad].ravel()[:3]!r}"
        )
    return r


def _check_delta_open(delta) -> np.ndarray:
    try:
        return check_open_unit("delta", delta)
    except ValueError as error:
        raise ValueError(f"{error} (δ of (ε, δ)-DP; use a pure-DP function for δ = 0)") from None


def _check_delta(delta) -> np.ndarray:
    """δ in [0, 1)."""
    d = check_nonnegative("delta", delta)
    if np.any(d >= 1):
        raise ValueError(f"delta must lie in [0, 1); got {d[d >= 1].ravel()[:3]!r}")
    return d


def _check_fpr(fpr) -> np.ndarray:
    a = check_nonnegative("fpr", fpr)
    if np.any(a > 1):
        raise ValueError(f"fpr (a false-positive rate) must lie in [0, 1]; got {a[a > 1][:3]!r}")
    return a
