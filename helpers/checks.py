"""The input checks of the math layer, public for the plotting and widget layers.

They live in :mod:`helpers._validation` (private to the math modules); the layers above
import them from here, so no package reaches into another's private module. Every check
raises ``ValueError`` naming the parameter, the value as given and the allowed range.
"""

from ._validation import (
    as_output,
    check_finite_scalar,
    check_half_open_unit,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
    check_real_or_inf,
    check_scalar,
    check_size,
    check_universe,
)

__all__ = [
    "as_output",
    "check_finite_scalar",
    "check_half_open_unit",
    "check_int_range",
    "check_nonnegative",
    "check_open_unit",
    "check_positive",
    "check_real",
    "check_real_or_inf",
    "check_scalar",
    "check_size",
    "check_universe",
]
