"""Risk numbers rounded toward the person in the data, for the tables that print them.

Round-to-nearest (pandas' ``.round(4)``, ``f"{x:.4f}"``) can print a risk below its value: a
TPR of 0.05494 shows as 0.0549. :func:`round_risk` rounds a risk (an ε, a δ, a TPR, a
posterior, a relative risk) up and an allowed budget (a ρ_z or an ε that a target allows)
down, exactly: a float is read as the decimal it prints as (its shortest ``repr``, as
:mod:`helpers.release` reads its inputs: 0.2 is one fifth, so a posterior of 0.2 prints 0.2,
not 0.2001) and rounded with :class:`decimal.Decimal`'s ``ROUND_CEILING`` or ``ROUND_FLOOR``.
The decimal a rounded value prints as is never below (above, rounding down) the decimal the
value prints as, and the rounded float is never below (above) the float itself: the float
nearest a decimal is monotone in the decimal, and ``float(repr(v)) == v``.

Part of :mod:`helpers.deployments`, which re-exports every public name.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

import numpy as np
import pandas as pd

from .._validation import as_output, check_int_range, check_real

__all__ = ["round_risk"]

#: a double's repr has at most 17 significant digits; quantizing 1.8e308 to 10⁻¹⁵ or 5e-324
#: to 17 digits stays far inside 1,100 digits and exponents of ±1,100: every step is exact
_EXACT = Context(prec=1_100, Emin=-1_100, Emax=1_100)


def _directed(value: float, *, decimals: int | None, digits: int | None, down: bool) -> float:
    """One finite float rounded exactly, up or down, at a decimal place or a digit count."""
    if value == 0:
        return 0.0
    exact = Decimal(repr(value))  # the decimal the float prints as, exactly
    place = -decimals if digits is None else exact.adjusted() - digits + 1
    shown = exact.quantize(
        Decimal(1).scaleb(place), rounding=ROUND_FLOOR if down else ROUND_CEILING, context=_EXACT
    )
    # the nearest double to the decimal prints as the decimal (repr, "f" and "g" formats)
    return float(shown)


def round_risk(x, *, decimals=None, digits=None, down=False, columns=None):
    """Round risk numbers toward the person: up (a risk), or down (an allowed budget).

    Used in notebooks 09, 10, 11 and 12.

    Round-to-nearest can print a risk below its value (pandas' ``.round(4)`` shows a TPR of
    0.05494 as 0.0549); a number told to a person in the data must never read rosier than the
    truth. A risk — an ε or δ a release spends, a true-positive rate, a posterior, a relative
    risk (Lee & Clifton 2011, eq. (5); Kazan & Reiter 2024, Theorem 1; Dong, Roth & Su 2022)
    — is rounded up; an allowed budget — a ρ_z or ε that a stated target permits — is rounded
    down (``down=True``). Rounding is exact: each float is read as the decimal it prints as
    (``repr``) and rounded with :class:`decimal.Decimal`'s ``ROUND_CEILING`` (``ROUND_FLOOR``),
    so the decimal the result prints as (``repr``, ``"{:.4f}"`` at ``decimals=4``,
    ``"{:.4g}"`` at ``digits=4``) is never below (above) that of the value, and the result
    is never below (above) the value as a float. Counts, names and δ as a deployment
    states it are not risks computed here: leave them out of ``columns``.

    Parameters
    ----------
    x : float, array_like or pandas.DataFrame
        Finite numbers; a DataFrame's ``columns`` (finite numbers) are rounded, the others
        kept as they are.
    decimals : int, keyword-only
        Round to this many decimal places, 0 to 15. Give exactly one of ``decimals`` and
        ``digits``.
    digits : int, keyword-only
        Round to this many significant digits, 1 to 17.
    down : bool, keyword-only
        False (default): round up, for a risk. True: round down, for an allowed budget.
    columns : list of str, keyword-only
        With a DataFrame only: the columns to round (each must be a column of ``x``).

    Returns
    -------
    float or numpy.ndarray or pandas.DataFrame
        A Python float for a scalar, an ndarray for array_like, a new DataFrame for a
        DataFrame.

    Raises
    ------
    ValueError
        If a value is not a finite number, if not exactly one of ``decimals`` and ``digits``
        is given or it is out of range, if ``down`` is not a bool, or if ``columns`` is
        missing with a DataFrame, given without one, or names a column ``x`` lacks.

    Examples
    --------
    >>> round_risk(0.05494, decimals=4), round_risk(2.5553, decimals=2, down=True)
    (0.055, 2.55)
    >>> round_risk([17.7312, 0.99991], digits=4)
    array([17.74,  1.  ])
    """
    if (decimals is None) == (digits is None):
        raise ValueError(
            "decimals and digits: give exactly one (decimal places or significant digits); "
            f"got decimals={decimals!r}, digits={digits!r}"
        )
    if decimals is not None:
        decimals = check_int_range("decimals", decimals, 0, 15)
    else:
        digits = check_int_range("digits", digits, 1, 17)
    if not isinstance(down, bool):
        raise ValueError(f"down must be True or False; got {down!r}")
    rule = "be a finite number"
    if isinstance(x, pd.DataFrame):
        if columns is None or isinstance(columns, str) or not isinstance(columns, (list, tuple)):
            raise ValueError(
                f"columns must be a list of the DataFrame's column names; got {columns!r}"
            )
        missing = [c for c in columns if c not in x.columns]
        if missing:
            raise ValueError(
                f"columns must name columns of the DataFrame ({list(x.columns)!r}); "
                f"got {columns!r}, {missing!r} not among them"
            )
        out = x.copy()
        for column in columns:
            values = check_real(f"column {column!r}", x[column].to_numpy(), rule=rule)
            out[column] = round_risk(values, decimals=decimals, digits=digits, down=down)
        return out
    if columns is not None:
        raise ValueError(f"columns must be None unless x is a DataFrame; got {columns!r}")
    values = check_real("x", x, rule=rule)
    rounded = [
        _directed(float(v), decimals=decimals, digits=digits, down=down) for v in values.flat
    ]
    return as_output(np.array(rounded, dtype=float).reshape(values.shape))
