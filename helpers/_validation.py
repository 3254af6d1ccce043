"""Input checks shared by the math modules.

Every check raises ``ValueError`` naming the parameter, the value it got and the allowed
range, so a reader who mistypes a slider value learns what went wrong instead of getting NaN.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np


def describe(value: object, bad: np.ndarray | None = None) -> str:
    """The value as the user gave it: a scalar as that scalar, an array by a few bad entries.

    ``bad`` (a boolean mask of ``np.asarray(value)``) selects the offending entries. Public
    (within the math layer) for the messages of the math modules' own checks.
    """
    array = np.asarray(value)
    if array.ndim == 0:
        return repr(value.item() if isinstance(value, np.generic) else value)
    entries = array if bad is None else array[np.broadcast_to(bad, array.shape)]
    shown = ", ".join(
        repr(float(x)) if array.dtype.kind in "biuf" else repr(x) for x in entries.ravel()[:3]
    )
    return f"an array of shape {array.shape} whose offending entries include [{shown}]"


def _is_number(x: object) -> bool:
    """A real number, and not a bool (``True`` is an ``int`` to Python, not a number here)."""
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(
        x, (bool, np.bool_)
    )


def _as_float_array(name: str, value: object, allowed: str) -> np.ndarray:
    """``value`` as a float array; strings, booleans, complex numbers, None and other objects
    refused.

    One rule for every check: a bool (``True``, ``np.True_``, a boolean array) is not a
    number, as a numeric string is not, so ``epsilon=True`` is a ValueError and never ε = 1.
    """
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be {allowed}; got the string {value!r}")
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be {allowed}; got the boolean {value!r}")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):  # ragged nesting
        raise ValueError(f"{name} must be {allowed}; got {value!r}") from None
    if isinstance(value, (list, tuple)) and raw.dtype.kind in "iuf":
        # numpy reads [1, True] as [1, 1] and [0.5, True] as [0.5, 1.0]: look at the entries
        entries = np.asarray(value, dtype=object).ravel()
        if any(isinstance(x, (bool, np.bool_)) for x in entries):
            raise ValueError(f"{name} must be {allowed}; got booleans in {value!r}")
    kind = raw.dtype.kind
    if kind == "O":
        if not all(_is_number(x) for x in raw.ravel()):
            raise ValueError(f"{name} must be {allowed}; got {value!r}")
    elif kind == "b":
        raise ValueError(f"{name} must be {allowed}; got booleans, an array of shape {raw.shape}")
    elif kind not in "iuf":
        raise ValueError(f"{name} must be {allowed}; got {value!r} (of dtype {raw.dtype})")
    try:
        return raw.astype(float)
    except OverflowError:  # a Python int beyond the largest double (numpy keeps it as an object)
        huge = next(x for x in raw.ravel() if isinstance(x, int) and abs(x) > _LARGEST_INT)
        raise ValueError(
            f"{name} must be {allowed} within the range of a double (about ±1.8e308); got an "
            f"integer of {len(str(abs(huge)))} digits ({'-' if huge < 0 else ''}"
            f"{str(abs(huge))[:3]}...)"
        ) from None


#: the largest integer a double can hold (the largest double, an integer)
_LARGEST_INT = int(np.finfo(float).max)


def check_real(name: str, value: object, *, rule: str | None = None) -> np.ndarray:
    """Return ``value`` as a float array, refusing non-numeric input, NaN and infinities.

    A numeric string such as ``'2.2'`` is refused too: a number must be given as a number.
    ``rule`` (say ``"lie in [0, 1]"``) is the allowed range of a range-checked parameter: its
    NaN or infinity is then refused with the same message as any other value outside the
    range, "``name`` must ``rule``; got nan", so the reader learns what is allowed.
    """
    array = _as_float_array(name, value, "a real number (or array of them)")
    finite = np.isfinite(array)
    if not np.all(finite):
        must = "be finite (no NaN or infinity)" if rule is None else rule
        raise ValueError(f"{name} must {must}; got {describe(value, ~finite)}")
    return array


def check_real_or_inf(
    name: str, value: object, allowed: str = "a real number or ±inf"
) -> np.ndarray:
    """Like ``check_real`` but ±inf is meaningful (a privacy loss, an unbounded risk); NaN is not."""
    array = _as_float_array(name, value, allowed)
    if np.any(np.isnan(array)):
        raise ValueError(f"{name} must be {allowed}; got {describe(value, np.isnan(array))}")
    return array


#: The allowed ranges of the range checkers below, as their messages give them; a caller that
#: first asks for one number (``check_finite_scalar(name, value, rule=RULE_OPEN_UNIT)``)
#: passes the same range, so NaN and ±inf are refused with it too.
RULE_POSITIVE = "be > 0 and finite"
RULE_NONNEGATIVE = "be >= 0 and finite"
RULE_OPEN_UNIT = "lie in the open interval (0, 1)"
RULE_HALF_OPEN_UNIT = "lie in (0, 1]"


def check_positive(name: str, value: object) -> np.ndarray:
    """A finite, strictly positive real (ε, σ, a scale, a sensitivity ...)."""
    array = check_real(name, value, rule=RULE_POSITIVE)
    if np.any(array <= 0):
        raise ValueError(f"{name} must {RULE_POSITIVE}; got {describe(value, array <= 0)}")
    return array


def check_nonnegative(name: str, value: object) -> np.ndarray:
    array = check_real(name, value, rule=RULE_NONNEGATIVE)
    if np.any(array < 0):
        raise ValueError(f"{name} must {RULE_NONNEGATIVE}; got {describe(value, array < 0)}")
    return array


def check_discretization(discretization) -> float:
    """The grid step h of a privacy-loss distribution, in [1e-6, 0.1], as a float: one check
    for every path that discretises a loss (:mod:`helpers.attack`, :mod:`helpers.budget`)."""
    h = float(
        check_positive(
            "discretization",
            check_finite_scalar("discretization", discretization, rule="lie in [1e-06, 0.1]"),
        )
    )
    if not 1e-6 <= h <= 0.1:
        raise ValueError(f"discretization must lie in [1e-06, 0.1]; got {discretization!r}")
    return h


def check_open_unit(name: str, value: object) -> np.ndarray:
    """A probability strictly between 0 and 1 (a risk ρ, say)."""
    array = check_real(name, value, rule=RULE_OPEN_UNIT)
    bad = (array <= 0) | (array >= 1)
    if np.any(bad):
        raise ValueError(f"{name} must {RULE_OPEN_UNIT}; got {describe(value, bad)}")
    return array


def check_half_open_unit(name: str, value: object) -> np.ndarray:
    """A probability in (0, 1] (Kazan & Reiter's p and q)."""
    array = check_real(name, value, rule=RULE_HALF_OPEN_UNIT)
    bad = (array <= 0) | (array > 1)
    if np.any(bad):
        raise ValueError(f"{name} must {RULE_HALF_OPEN_UNIT}; got {describe(value, bad)}")
    return array


def check_int_range(name: str, value: object, low: int, high: int) -> int:
    """An integer in the closed range [low, high]."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer in {low}..{high}; got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be an integer in {low}..{high}; got {value}")
    return int(value)


#: Largest |value| a universe may hold. Its squares (variance), sums of a few million of them
#: and the Laplace exponents built from them stay inside double precision (about 1.8e308);
#: at 1.5e170 a variance overflowed to inf and came back as a NaN sensitivity.
MAX_UNIVERSE_MAGNITUDE = 1e150


def check_universe(universe: Iterable[float], name: str = "universe") -> np.ndarray:
    """A non-empty 1-D sequence of finite numbers within ±``MAX_UNIVERSE_MAGNITUDE``."""
    if isinstance(universe, (str, bytes)):
        raise ValueError(f"{name} must be a sequence of numbers; got the string {universe!r}")
    try:
        items = None if hasattr(universe, "__array__") else list(universe)
        array = np.asarray(universe if items is None else items)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of numbers; got {universe!r}") from None
    if array.dtype.kind == "O" or items is not None:
        # numpy reads [1, True] as [1, 1]: booleans are refused entry by entry (one rule)
        entries = array.ravel() if items is None else items
        flags = [x for x in entries if isinstance(x, (bool, np.bool_))]
        if flags:
            raise ValueError(f"{name} must contain only numbers; got the boolean {flags[0]!r}")
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} must contain at least one value; got an empty sequence")
    if array.dtype.kind not in "iuf":  # booleans are not numbers (one rule, _as_float_array)
        raise ValueError(
            f"{name} must contain only numbers; got values of type {array.dtype} such as {array[:3]!r}"
        )
    values = check_real(name, array.astype(float))
    largest = float(np.max(np.abs(values)))
    if largest > MAX_UNIVERSE_MAGNITUDE:
        raise ValueError(
            f"{name} values must lie within ±{MAX_UNIVERSE_MAGNITUDE:g} (their squares and sums "
            f"must stay within double precision); got a value of magnitude {largest:g}"
        )
    return values


def check_finite_scalar(name: str, value: object, *, rule: str | None = None) -> float:
    """A single finite real number (a list or an array is refused with a ValueError).

    ``rule`` as in :func:`check_real`: the allowed range named when the value is NaN or ±inf.
    """
    array = check_real(name, value, rule=rule)
    if array.ndim != 0:
        raise ValueError(f"{name} must be a single number; got {value!r} of shape {array.shape}")
    return float(array)


def check_scalar(name: str, array: np.ndarray, value: object) -> float:
    """``array`` (already checked) as a Python float, or a ValueError if it is not 0-d."""
    if np.ndim(array) != 0:
        raise ValueError(
            f"{name} must be a single number; got {value!r} of shape {np.shape(array)}"
        )
    return float(array)


def as_output(value: object) -> float | np.ndarray:
    """The API contract's return type: a Python float for a 0-d result, else an ndarray."""
    array = np.asarray(value, dtype=float)
    return float(array) if array.ndim == 0 else array


def check_sample_shape(size, **params: np.ndarray):
    """``size`` checked (:func:`check_size`), and the samplers' parameters broadcast together
    and to it (numpy's rule for ``Generator.laplace(loc, scale, size)``), so that the message
    names them instead of numpy's "shape mismatch" (an empty ``loc`` beside ``size=3``)."""
    size = check_size(size)
    shapes = {name: np.shape(value) for name, value in params.items()}
    names = " and ".join(shapes)
    try:
        shape = np.broadcast_shapes(*shapes.values())
    except ValueError:
        raise ValueError(
            f"{names} must broadcast together; got shapes "
            + ", ".join(f"{n} {s}" for n, s in shapes.items())
        ) from None
    if size is not None:
        target = (size,) if isinstance(size, int) else tuple(int(n) for n in size)
        try:
            fits = np.broadcast_shapes(shape, target) == target
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(
                f"{names} (broadcast shape {shape}) must broadcast to size {target}; got "
                + ", ".join(f"{n} of shape {s}" for n, s in shapes.items())
            )
    return size


def check_size(size) -> int | tuple[int, ...] | None:
    """A sample size: None, a non-negative int or a tuple of them, at most 10**8 draws."""
    if size is None:
        return None
    shape = (size,) if isinstance(size, (int, np.integer)) and not isinstance(size, bool) else size
    if not isinstance(shape, tuple) or not all(
        isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0 for n in shape
    ):
        raise ValueError(
            f"size must be None, a non-negative integer or a tuple of them; got {size!r}"
        )
    if math.prod(int(n) for n in shape) > 10**8:  # exact (a float product overflowed)
        raise ValueError(f"size must ask for at most 10**8 draws; got {size!r}")
    return shape if not isinstance(size, (int, np.integer)) else int(size)


def check_universe_entries(universe: Iterable[float], name: str = "universe") -> np.ndarray:
    """``check_universe``, after the two entries numpy misreads are described by name.

    A ragged nesting (``[[1, 2], [3]]``) is refused as not one-dimensional (numpy's own
    message named neither the parameter nor the rule), and a Python ``int`` beyond int64 is
    a number: compared exactly with ``MAX_UNIVERSE_MAGNITUDE`` (refused with the magnitude
    message when above it) and converted to float, instead of being called "not a number"
    because numpy stores it as an object.
    """
    if isinstance(universe, (str, bytes)):
        return check_universe(universe, name)
    try:
        raw = np.asarray(universe if hasattr(universe, "__array__") else list(universe))
    except TypeError:  # not a sequence at all: check_universe says so
        return check_universe(universe, name)
    except ValueError:  # numpy: "setting an array element with a sequence ... inhomogeneous"
        shown = repr(universe)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise ValueError(
            f"{name} must be a one-dimensional sequence of numbers; got a ragged nesting {shown}"
        ) from None
    if raw.dtype.kind == "O" and raw.ndim == 1:
        entries = [_big_int_as_float(name, x) for x in raw.tolist()]
        for entry in entries:
            if not isinstance(entry, (int, float, np.integer, np.floating)):
                raise ValueError(
                    f"{name} must contain only numbers; got {entry!r} (a {type(entry).__name__})"
                )
        raw = np.asarray(entries)
    return check_universe(raw, name)


def _big_int_as_float(name: str, entry: object) -> object:
    """A Python int outside int64 as a float (after the magnitude check); anything else as is."""
    if not isinstance(entry, int) or isinstance(entry, bool) or -(2**63) <= entry < 2**63:
        return entry
    if abs(entry) > MAX_UNIVERSE_MAGNITUDE:  # int against float: compared exactly
        from decimal import Decimal

        raise ValueError(
            f"{name} values must lie within ±{MAX_UNIVERSE_MAGNITUDE:g} (their squares and sums "
            f"must stay within double precision); got a value of magnitude {Decimal(abs(entry)):.3g}"
        )
    return float(entry)


#: the most (ε grid) × (outcomes) cells a δ computation builds (beyond it: a ValueError)
MAX_CELLS = 50_000_000


def check_epsilon_grid(epsilon, n_outcomes: int) -> np.ndarray:
    """ε ≥ 0 (array_like), refused when ε values × ``n_outcomes`` exceed :data:`MAX_CELLS`."""
    eps = check_nonnegative("epsilon", epsilon)
    if eps.size * n_outcomes > MAX_CELLS:
        raise ValueError(
            f"epsilon grid × outcomes = {eps.size} × {n_outcomes} = {eps.size * n_outcomes} "
            f"cells; at most {MAX_CELLS} are allowed (use fewer ε values or a coarser grid)"
        )
    return eps
