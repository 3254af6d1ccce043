"""The instructor's answers: every expected value, recomputed with the helpers.

**Not in the student's wheel.** ``python3 course.py student`` builds the students' helpers
without this package (and without the edition builder and the grader); their ``check``
judges from salted hashes made here at build time (``helpers.exercises._core``).

Exercise k of notebook NN lives in ``nbNN.py`` of this package, registered by decorating
the function that returns its expected answer (never a typed number)::

    @answer("03.1", names=("my_tight",), decimals=4)
    def _tight_by_hand():
        return float(tight_bound(...))

``names`` are the values the exercise asks for, in order (one: the value itself; several: a
tuple); the student records them in the variable ``answer_NN_K`` (``variable(id)``), which
is what the grader reads from the kernel. ``decimals`` or ``digits`` is the precision the
exercise states in its text (whole numbers and booleans are always exact). Open exercises,
with many right answers, are tested in ``helpers/exercises/_open.py`` instead.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass

from .._core import Precision, make_entry, new_salt, open_entry
from .._open import OPEN


@dataclass(frozen=True)
class Answer:
    """One exercise's expected answer: its id, the names it asks for, its precision."""

    exercise_id: str
    names: tuple[str, ...]
    func: Callable
    precision: Precision


REGISTRY: dict[str, Answer] = {}
_MODULE = re.compile(r"^nb\d\d$")
_loaded = False


def answer(
    exercise_id: str,
    *,
    names: tuple[str, ...],
    decimals: int | None = None,
    digits: int | None = None,
):
    """Register the decorated function as the expected answer of ``exercise_id``."""
    if not isinstance(names, tuple) or not names or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be a non-empty tuple of strings; got {names!r}")
    if decimals is None and digits is None:
        decimals = 0  # whole numbers and booleans: exact anyway
    precision = Precision(decimals=decimals, digits=digits)

    def register(func: Callable) -> Callable:
        if exercise_id in REGISTRY or exercise_id in OPEN:
            raise ValueError(f"exercise id {exercise_id!r} is registered twice")
        REGISTRY[exercise_id] = Answer(exercise_id, names, func, precision)
        return func

    return register


def _discover() -> None:
    global _loaded
    if _loaded:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if _MODULE.match(info.name):
            importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


def _sort_key(exercise_id: str) -> tuple:
    return tuple(int(p) for p in exercise_id.split("."))


def known_ids() -> list[str]:
    """Every exercise id (answered here or open), in course order."""
    _discover()
    return sorted([*REGISTRY, *OPEN], key=_sort_key)


def value_ids() -> list[str]:
    """The exercises with one expected value (not the open ones)."""
    _discover()
    return sorted(REGISTRY, key=_sort_key)


def get(exercise_id: str) -> Answer:
    """The registered answer of a value exercise (instructor only)."""
    _discover()
    if exercise_id not in REGISTRY:
        raise ValueError(
            f"exercise_id={exercise_id!r} has no registered value; known: {', '.join(value_ids())}"
        )
    return REGISTRY[exercise_id]


@functools.cache
def expected(exercise_id: str):
    """The expected answer of a value exercise, recomputed once per process."""
    return get(exercise_id).func()


def names(exercise_id: str) -> tuple[str, ...]:
    _discover()
    if exercise_id in OPEN:
        return OPEN[exercise_id].names
    return get(exercise_id).names


def entry(exercise_id: str, salt: str) -> dict:
    """The key entry (hashes, no value) of one exercise under ``salt``."""
    _discover()
    if exercise_id in OPEN:
        spec = OPEN[exercise_id]
        return open_entry(exercise_id, spec.names, spec.precision)
    spec = get(exercise_id)
    return make_entry(exercise_id, spec.names, expected(exercise_id), spec.precision, salt)


def build_key(salt: str | None = None) -> dict:
    """The whole key for the student's wheel: every exercise's entry under one fresh salt."""
    salt = salt or new_salt()
    return {exercise_id: entry(exercise_id, salt) for exercise_id in known_ids()}
