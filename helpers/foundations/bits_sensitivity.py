"""Neighbouring data sets and the global L1 sensitivity of queries on bits (brute force)."""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_docstrings
from ._checks import _check_n

__all__ = [
    "bits_query_sensitivity",
]


# --- neighbouring data sets and L1 sensitivity ----------------------------------------


def bits_query_sensitivity(n: int, query: str = "sum", kind: str = "bounded") -> float:
    """Global L1 sensitivity Δ_f of the sum or the mean of n bits, found by brute force.

    A data set of n bits is summarised by its count S = Σ x_i ∈ {0, …, n}; both queries
    depend on it alone, so enumerating every S and every neighbour is exhaustive.

    * ``kind="bounded"`` (the notes' and the survey's "differ in exactly one element"):
      the neighbour has the same n with one bit changed, S' = S ± 1.
    * ``kind="unbounded"`` (add or remove one person): the neighbour has n − 1 or n + 1
      records.

    Δ_f = max |f(x) − f(x')| over all neighbours. For the sum it is 1 both ways; for the
    mean it is 1/n both ways (the survey's Δ = 1/n), though the unbounded case needs n
    itself to be public.

    Used in notebook 00.

    Parameters
    ----------
    n : int
        Number of people / respondents, a positive integer.
    query : {'sum', 'mean'}
        The query on the bits.
    kind : {'bounded', 'unbounded'}
        Neighbours differ in one value (bounded) or by one person (unbounded).

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Dwork & Roth (2014), Definition 3.1 (ℓ1 sensitivity) and §3.3.

    Examples
    --------
    >>> round(bits_query_sensitivity(5, 'mean', 'unbounded'), 6)
    0.2
    """
    n = _check_n(n, high=10**7)
    if query not in ("sum", "mean"):
        raise ValueError(f"query must be 'sum' or 'mean'; got {query!r}")
    if kind not in ("bounded", "unbounded"):
        raise ValueError(f"kind must be 'bounded' or 'unbounded'; got {kind!r}")
    s = np.arange(n + 1, dtype=float)
    value = s if query == "sum" else s / n
    if kind == "bounded":
        # change one bit: S -> S + 1 (a 0 becomes 1) is possible when S < n
        s2 = s[:-1] + 1
        other = s2 if query == "sum" else s2 / n
        return float(np.max(np.abs(value[:-1] - other), initial=0.0))
    diffs = []
    if n >= 2:  # remove one record, a 1 (when S ≥ 1) or a 0 (when S ≤ n − 1)
        for bit in (0.0, 1.0):
            ok = (s >= bit) & (s - bit <= n - 1)
            s2 = s[ok] - bit
            other = s2 if query == "sum" else s2 / (n - 1)
            diffs.append(np.abs(value[ok] - other))
    for bit in (0.0, 1.0):  # add one record
        s2 = s + bit
        other = s2 if query == "sum" else s2 / (n + 1)
        diffs.append(np.abs(value - other))
    return float(np.max(np.concatenate(diffs)))


fill_docstrings(globals())
