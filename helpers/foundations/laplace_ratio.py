"""The Laplace mechanism on two neighbouring outputs: the density ratio behind ε-DP."""

from __future__ import annotations

import numpy as np

from .._validation import (
    as_output,
    check_real,
)
from ..mechanisms import laplace_scale

__all__ = [
    "laplace_log_ratio",
    "laplace_ratio",
]


# --- the Laplace mechanism on two neighbouring outputs ---------------------------------


def laplace_log_ratio(z, y1, y2, epsilon, *, sensitivity=1.0):
    """ln( p_{y₁}(z) / p_{y₂}(z) ) for Laplace densities of scale b = Δ/ε centred at y₁, y₂.

    Equals (ε/Δ)(|z − y₂| − |z − y₁|); by the triangle inequality its absolute value is at
    most ε|y₁ − y₂|/Δ, which is ≤ ε when |y₁ − y₂| ≤ Δ. Computed in log form, so it stays
    finite far in the tails where both densities underflow, and from halves where z − y
    overflows (z and y near ±1e308), so it is ±inf only where the log-ratio itself is.

    Parameters
    ----------
    z : float or array_like
        Outputs of the Laplace mechanism.
    y1 : float or array_like
        f(x), the centre of the first density.
    y2 : float or array_like
        f(x'), the centre of the second density.
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Lecture notes (001) and survey slides (002) of the course's sources (../shared/seeds); Dwork & Roth (2014).

    Examples
    --------
    >>> round(laplace_log_ratio(0.3, 0.0, 1.0, 1.0, sensitivity=1.0), 6)
    0.4
    """
    z = check_real("z", z)
    y1 = check_real("y1", y1)
    y2 = check_real("y2", y2)
    b = laplace_scale(epsilon, sensitivity=sensitivity)
    with np.errstate(over="ignore", invalid="ignore"):
        out = (np.abs(z - y2) - np.abs(z - y1)) / b
        overflowed = np.isinf(z - y2) | np.isinf(z - y1)
        if np.any(overflowed):
            # z − y beyond the largest double (z, y near ±1e308): halve first (exact for
            # doubles that large), so the ratio is ±inf only where it is out of range
            halves = (np.abs(0.5 * z - 0.5 * y2) - np.abs(0.5 * z - 0.5 * y1)) / b
            out = np.where(overflowed, 2.0 * halves, out)
    return as_output(out)


def laplace_ratio(z, y1, y2, epsilon, *, sensitivity=1.0):
    """p_{y₁}(z) / p_{y₂}(z): e^{ε} on one side of [y₁, y₂], e^{−ε} on the other (Δ = |y₁−y₂|).

    Parameters
    ----------
    z : float or array_like
        Outputs of the Laplace mechanism.
    y1 : float or array_like
        f(x), the centre of the first density.
    y2 : float or array_like
        f(x'), the centre of the second density.
    epsilon : float or array_like
        ε ≥ 0 (the privacy parameter; arrays broadcast).
    sensitivity : float, keyword-only
        Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).

    Returns
    -------
    float or numpy.ndarray
        A Python float for scalar input, else an array of the broadcast shape.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type (the message names it).

    References
    ----------
    Lecture notes (001) and survey slides (002) of the course's sources (../shared/seeds); Dwork & Roth (2014).

    Examples
    --------
    >>> round(laplace_ratio(0.3, 0.0, 1.0, 1.0, sensitivity=1.0), 6)
    1.491825
    """
    return as_output(np.exp(laplace_log_ratio(z, y1, y2, epsilon, sensitivity=sensitivity)))
