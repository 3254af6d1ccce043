"""Registry and comparison mechanics behind ``helpers.exercises.check``.

An exercise is registered by decorating a function in a module ``nbNN.py`` of this package:

* ``@exercise("03.1", names=("my_tight",))`` — the function takes no argument and returns
  the expected answer, recomputed with the helpers (never a typed number). ``check``
  compares the reader's answer with it (``rtol``/``atol`` for numbers and arrays; exact for
  integers, booleans and strings) and explains a mismatch without giving the answer away.
* ``@exercise("06.3", names=("agency_profile",), verify=True)`` — for open questions with
  many right answers: the function takes the reader's answer and returns ``(ok, hint)``.

``names`` are the variables the exercise asks for, in the order ``check`` receives them
(one name: the value itself; several: a tuple). The student edition sets them to ``...``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Exercise:
    """One registered exercise: its id, the names it asks for and how to judge them."""

    exercise_id: str
    names: tuple[str, ...]
    func: Callable
    rtol: float = 1e-6
    atol: float = 0.0
    verify: bool = False

    def starter(self) -> str:
        """The student edition's code for the solution cell: every name set to ``...``."""
        lhs = ", ".join(self.names)
        rhs = ", ".join("..." for _ in self.names)
        return f"# Exercise {self.exercise_id}: replace each ... by your answer\n{lhs} = {rhs}"


REGISTRY: dict[str, Exercise] = {}


def exercise(
    exercise_id: str,
    *,
    names: tuple[str, ...],
    rtol: float = 1e-6,
    atol: float = 0.0,
    verify: bool = False,
):
    """Register the decorated function as exercise ``exercise_id`` (see the module docstring)."""
    if not isinstance(names, tuple) or not names or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be a non-empty tuple of strings; got {names!r}")

    def register(func: Callable) -> Callable:
        if exercise_id in REGISTRY:
            raise ValueError(f"exercise id {exercise_id!r} is registered twice")
        REGISTRY[exercise_id] = Exercise(exercise_id, names, func, rtol, atol, verify)
        return func

    return register


# --- comparing an answer with the expected value -------------------------------------------

# (factor, how to say it): ratios a reader typically lands on by a slip
_FACTORS = (
    (2.0, "a factor of 2"),
    (10.0, "a factor of 10"),
    (100.0, "a factor of 100"),
    (1000.0, "a factor of 1000"),
    (math.e, "a factor of e (exp where none belongs?)"),
    (math.log(10), "a factor of ln 10 (log10 instead of ln?)"),
    (3.0, "a factor of 3"),
    (4.0, "a factor of 4"),
)


def _is_missing(answer) -> bool:
    if answer is Ellipsis:
        return True
    if isinstance(answer, (tuple, list)):
        return any(_is_missing(a) for a in answer)
    return False


def _is_real_scalar(value) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, numbers.Real):
        return True
    return isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf"


def _type_name(value) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return f"a {type(value).__name__}"


def _size_words(answer: float, expected: float) -> str:
    """'too large' / 'too small', with a factor when the slip is a common one."""
    direction = "too large" if answer > expected else "too small"
    if expected == 0:
        return f"{direction} (the answer is zero)" if answer != 0 else direction
    if answer == 0:
        return "zero, but the answer is not"
    if np.sign(answer) != np.sign(expected):
        return "of the wrong sign"
    ratio = abs(answer / expected)
    big = max(ratio, 1 / ratio)
    # a slip by a factor is about size: for a negative answer say "in magnitude"
    size = ("too large" if ratio > 1 else "too small") + (" in magnitude" if expected < 0 else "")
    for factor, words in _FACTORS:
        if math.isclose(big, factor, rel_tol=2e-3):
            return f"{size} by {words}"
    if math.isclose(abs(answer), expected * expected, rel_tol=2e-3) or math.isclose(
        answer * answer, abs(expected), rel_tol=2e-3
    ):
        return f"{size}: a square where a square root belongs, or the other way round?"
    if big < 1.1:
        return f"a little {direction} (within 10 %): check rounding, the grid or a tolerance"
    if big > 3:
        return f"much {direction}"
    return direction


def _compare_scalar(answer, expected, rtol: float, atol: float) -> tuple[bool, str]:
    if isinstance(expected, (bool, np.bool_)):
        if not isinstance(answer, (bool, np.bool_)):
            return False, f"is {_type_name(answer)}; answer True or False"
        return (bool(answer) == bool(expected)), "is not right: think again"
    if isinstance(expected, str):
        if not isinstance(answer, str):
            return False, f"is {_type_name(answer)}; a string is expected"
        ok = answer.strip().lower() == expected.strip().lower()
        return ok, "is not the expected word"
    if not _is_real_scalar(answer):
        return False, f"is {_type_name(answer)}; a single number is expected"
    value = float(answer)
    target = float(expected)
    if math.isnan(value):
        return False, "is NaN"
    if isinstance(expected, (numbers.Integral, np.integer)) and not isinstance(expected, bool):
        if value != math.floor(value):
            return False, "is not a whole number; a count is expected"
        return value == target, _size_words(value, target)
    if math.isinf(target) or math.isinf(value):
        if value == target:
            return True, ""
        if math.isinf(target):
            return False, "is finite, but no finite value is right here"
        return False, "is infinite, but the answer is finite"
    if math.isclose(value, target, rel_tol=rtol, abs_tol=atol):
        return True, ""
    return False, _size_words(value, target)


def _compare_array(answer, expected: np.ndarray, rtol: float, atol: float) -> tuple[bool, str]:
    if isinstance(answer, (str, bytes, dict)) or answer is None:
        return False, f"is {_type_name(answer)}; an array of shape {expected.shape} is expected"
    try:
        values = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return False, f"is {_type_name(answer)}; an array of numbers is expected"
    if values.shape != expected.shape:
        return False, f"has shape {values.shape}; shape {expected.shape} is expected"
    if np.isnan(values).any():
        return False, "holds NaN"
    close = np.isclose(values, expected, rtol=rtol, atol=atol) | (values == expected)
    if close.all():
        return True, ""
    wrong = np.flatnonzero(~close.ravel())
    first = int(wrong[0])
    index = np.unravel_index(first, expected.shape)
    where = index[0] if len(index) == 1 else index
    words = _size_words(float(values.ravel()[first]), float(expected.ravel()[first]))
    return False, f"has {wrong.size} of {expected.size} entries off; entry {where} is {words}"


def compare(answer, expected, *, rtol: float = 1e-6, atol: float = 0.0) -> tuple[bool, str]:
    """(ok, hint): does ``answer`` match ``expected``? The hint never states the answer."""
    if isinstance(expected, np.ndarray) and expected.ndim > 0:
        return _compare_array(answer, expected, rtol, atol)
    return _compare_scalar(answer, expected, rtol, atol)


def judge(ex: Exercise, answer) -> tuple[bool, str]:
    """(ok, verdict line) for one exercise and one answer."""
    names = ", ".join(ex.names)
    if _is_missing(answer):
        return False, f"… {ex.exercise_id}: not answered yet (set {names} and run the check)"
    if ex.verify:
        ok, hint = ex.func(answer)
        if ok:
            return True, f"✓ {ex.exercise_id}: correct"
        return False, f"✗ {ex.exercise_id}: {names} {hint}"
    expected = ex.func()
    if len(ex.names) == 1:
        pairs = [(ex.names[0], answer, expected)]
    else:
        if not isinstance(answer, (tuple, list)) or len(answer) != len(ex.names):
            return False, (
                f"✗ {ex.exercise_id}: pass {len(ex.names)} values ({names}) as a tuple; "
                f"got {_type_name(answer)}"
            )
        pairs = list(zip(ex.names, answer, expected, strict=True))
    for name, given, wanted in pairs:
        ok, hint = compare(given, wanted, rtol=ex.rtol, atol=ex.atol)
        if not ok:
            return False, f"✗ {ex.exercise_id}: {name} {hint}"
    return True, f"✓ {ex.exercise_id}: correct"
