"""The Laplace mechanism on two neighbouring outputs: the density ratio behind ε-DP."""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_docstrings
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
    finite far in the tails where both densities underflow, as the clipped line it is (exactly
    ±ε|y₁ − y₂|/Δ outside [y₁, y₂], however far z is), and from halves where z − y overflows
    (z and y near ±1e308), so it is ±inf only where the log-ratio itself is.

    Used in notebook 00.

    Parameters
    ----------
    %(outputs_and_centres)s
    %(epsilon)s
    %(sensitivity_continuous)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_log_ratio(0.3, 0.0, 1.0, 1.0, sensitivity=1.0), 6)
    0.4
    """
    z = check_real("z", z)
    y1 = check_real("y1", y1)
    y2 = check_real("y2", y2)
    b = laplace_scale(epsilon, sensitivity=sensitivity)
    # |z − y₂| − |z − y₁| is the clipped line s·(w − 2·clip(z − min(y), 0, w)), w = |y₂ − y₁|,
    # s = +1 if y₁ ≤ y₂: exactly ±w outside [y₁, y₂], where the two distances, rounded, lost w
    # for |z| beyond 2⁵³·w (and were inf − inf where z − y overflowed)
    sign = np.where(y1 <= y2, 1.0, -1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        width, offset = np.abs(y2 - y1), z - np.minimum(y1, y2)
        inside = np.clip(offset, 0.0, width)
        out = sign * ((width - inside) - inside) / b
        overflowed = np.isinf(width) | np.isinf(offset)
        if np.any(overflowed):
            # z, y near ±1e308: the same from halves (exact for doubles that large), so the
            # log-ratio is ±inf only where it is out of range itself
            width, offset = np.abs(0.5 * y2 - 0.5 * y1), 0.5 * z - 0.5 * np.minimum(y1, y2)
            inside = np.clip(offset, 0.0, width)
            out = np.where(overflowed, 2.0 * (sign * ((width - inside) - inside) / b), out)
    return as_output(out)


def laplace_ratio(z, y1, y2, epsilon, *, sensitivity=1.0):
    """p_{y₁}(z) / p_{y₂}(z): e^{ε} on one side of [y₁, y₂], e^{−ε} on the other (Δ = |y₁−y₂|).

    Used in notebook 00.

    Parameters
    ----------
    %(outputs_and_centres)s
    %(epsilon)s
    %(sensitivity_continuous)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(laplace_ratio(0.3, 0.0, 1.0, 1.0, sensitivity=1.0), 6)
    1.491825
    """
    return as_output(np.exp(laplace_log_ratio(z, y1, y2, epsilon, sensitivity=sensitivity)))


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "outputs_and_centres": """\
z : float or array_like
    Outputs of the Laplace mechanism.
y1 : float or array_like
    f(x), the centre of the first density.
y2 : float or array_like
    f(x'), the centre of the second density.""",
    "references": """\
References
----------
Dwork & Roth (2014), §3.3 (the Laplace mechanism, Theorem 3.6).""",
}

fill_docstrings(globals(), _SECTIONS)
