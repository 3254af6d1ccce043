"""Risk numbers in figures and readouts, rounded toward the person in the data.

Round-to-nearest (``f"{tpr:.4f}"``) can print a risk below its value: a TPR of 0.05494 shows
as 0.0549. A risk a figure's title, label or text alternative or a dashboard's readout prints
(an ε or δ spent, a ρ_z, a posterior, a true-positive rate, an attack's advantage or success
rate, a relative risk, a failure chance) goes through :class:`risk_up`; what a risk *allows* (the
largest ε or ρ_z a target permits, the budget left over) through :class:`allowed_down`::

    f"posterior ≤ {risk_up(post):.4f}, ε ≤ {allowed_down(eps_risk):.3g}"

The format spec is the one the f-string would have used. The number is first rounded
exactly, as :func:`helpers.deployments.round_risk` rounds a table (the float read as the
decimal it prints as, :mod:`decimal`'s ``ROUND_CEILING`` or ``ROUND_FLOOR``), to the digits
the spec shows, so the printed decimal is never below (:class:`risk_up`) or above
(:class:`allowed_down`) the value's. ``tests/helpers/plotting/test_rounding.py`` checks that
against exact decimals over the whole float range, and scans every f-string of
``helpers/plotting`` and ``helpers/widgets``: a number formatted with a precision (``:.3g``,
``:.4f``, ``:.1%``, ``:g``) is a risk rounded here or stands on that test's reasoned list of
numbers that are not risks (a prior or p the reader set, a scale, an accuracy, a tick label).
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

__all__ = ["allowed_down", "risk_up"]

#: quantizing a double's 17 digits (exponents −324 to 308) to a place 15 digits away is exact
_EXACT = Context(prec=1_100, Emin=-1_100, Emax=1_100)
#: below it a double has fewer than 15 significant digits: format the decimal itself
_SMALLEST_NORMAL = 2.2250738585072014e-308

#: [[fill]align][sign][z][#][0][width][grouping][.precision][type] (Python's format mini-language)
_SPEC = re.compile(
    r"^(?P<head>(?:.?[<>=^])?[-+ ]?z?#?0?\d*[,_]?)(?:\.(?P<precision>\d+))?(?P<type>[eEfFgG%]?)$"
)


class risk_up:  # read as words inside f-strings: f"{risk_up(x):.4f}"
    """A risk number that formats rounded up (toward the person), never to nearest.

    ``format(risk_up(x), spec)`` is ``format(x, spec)`` with ``x`` first rounded up to the
    digits ``spec`` shows: ``.Nf`` N decimals, ``.Ng`` (and ``g``: 6) N significant digits,
    ``.Ne`` N + 1, ``.N%`` N + 2 decimals of the fraction; at most 15 of them, what every
    double carries. A spec without a precision or a type (``{risk_up(x)}``, ``{risk_up(x):>8}``)
    is refused: it would print every digit, with nothing to round. Zero, ±inf and NaN print
    as they are.

    Parameters
    ----------
    x : float
        The risk (a Python or numpy real number).

    Examples
    --------
    >>> f"{risk_up(0.05494):.4f} {risk_up(0.05494):.3g} {risk_up(0.123401):.1%} {risk_up(2.5553):g}"
    '0.0550 0.055 12.4% 2.5553'
    """

    _down = False

    __slots__ = ("value",)

    def __init__(self, x):
        if isinstance(x, bool) or not hasattr(x, "__float__"):
            raise ValueError(f"x must be a real number; got {x!r}")
        self.value = float(x)

    def __format__(self, spec: str) -> str:
        match = _SPEC.match(spec)
        if not spec or match is None or not (match["precision"] or match["type"]):
            raise ValueError(
                "spec must give a precision or a type (.4f, .3g, g, .1%, .2e) to round to; "
                f"got {spec!r}"
            )
        x = self.value
        if x == 0 or not math.isfinite(x):
            return format(x, spec)
        kind = (match["type"] or "g").lower()
        precision = int(match["precision"]) if match["precision"] else 6
        # the digits the spec shows: decimals of x (f) or of 100·x (%), significant digits
        # (e, g; 15 at most, what every double carries)
        shown = {"f": precision, "%": precision + 2, "e": precision + 1, "g": max(precision, 1)}
        if shown[kind] > 15:
            raise ValueError(
                f"spec must show at most 15 decimals or 15 significant digits; got {spec!r}"
            )
        exact = Decimal(repr(x))  # the decimal the float prints as
        place = -shown[kind] if kind in "f%" else exact.adjusted() - shown[kind] + 1
        rounded = exact.quantize(
            Decimal(1).scaleb(place),
            rounding=ROUND_FLOOR if self._down else ROUND_CEILING,
            context=_EXACT,
        )
        near = float(rounded)
        if kind in "f%" or abs(x) < _SMALLEST_NORMAL or math.isinf(near):
            return format(rounded, spec)  # exact, every digit of the decimal
        # e and g as a float prints them (no trailing zeros, two-digit exponents): a decimal
        # of at most 15 significant digits is the one its nearest double prints as
        return format(near, spec)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r})"


class allowed_down(risk_up):
    """An allowed budget that formats rounded down, never to nearest.

    The largest ε or ρ_z a risk target permits, what is left of it: :class:`risk_up`'s
    rounding the other way.

    Parameters
    ----------
    x : float
        The allowed budget.

    Examples
    --------
    >>> f"{allowed_down(2.5553):.2f} {allowed_down(0.123456):.3g}"
    '2.55 0.123'
    """

    _down = True

    __slots__ = ()
