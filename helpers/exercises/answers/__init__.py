"""The instructor's answers: every expected value, recomputed with the helpers.

**Not in the student's wheel.** ``python3 course.py student`` builds the students' helpers
without this package (and without the edition builder and the grader); their ``check``
judges from salted hashes made here at build time (``helpers.exercises._core``).

Exercise k of notebook NN lives in ``nbNN.py`` of this package, registered by decorating
the function that returns its expected answer (never a typed number)::

    @answer("03.1", names=("my_tight",), decimals=4,
            parameters={"epsilon": Param(1.0, 0.2, 3.0, step=0.1, about="ε")})
    def _tight_by_hand(*, epsilon):
        return float(tight_bound(..., epsilon))

``names`` are the values the exercise asks for, in order (one: the value itself; several: a
tuple); the student records them in the variable ``answer_NN_K`` (``variable(id)``), which
is what the grader reads from the kernel. ``decimals`` or ``digits`` is the precision the
exercise states in its text (whole numbers and booleans are always exact). Open exercises,
with many right answers, are tested in ``helpers/exercises/_open.py`` instead.

``parameters`` are the exercise's inputs, each a :class:`Param`: its default is the value the
notebook shows (in its cell tagged ``parameters``, as ``params_NN_K``), and ``low``/``high``
(or ``choices``) the range the grader draws other values from, per submission
(``instructor/grading/scoring.py``): the answer function takes them as keyword arguments, so
the grade compares the student's code, rerun at parameters the student has not seen, with the
answer at those parameters. ``points`` weighs each name (default 1 each); a name whose answer
is a concept (a yes/no that no parameter changes) weighs 0 and is marked as a written answer.
"""

from __future__ import annotations

import copy
import functools
import importlib
import pkgutil
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from .._core import Param, Precision, make_entry, new_salt, open_entry
from .._open import OPEN


@dataclass(frozen=True)
class Answer:
    """One exercise's expected answer: its id, names, precision, parameters and points."""

    exercise_id: str
    names: tuple[str, ...]
    func: Callable
    precision: Precision
    parameters: dict = field(default_factory=dict)
    points: tuple = ()
    #: a check on a drawn set of parameters (e.g. ``n < N``): False draws again
    valid: Callable | None = None

    def defaults(self) -> dict:
        """The parameters the notebook shows."""
        return {name: p.default for name, p in self.parameters.items()}


REGISTRY: dict[str, Answer] = {}
_MODULE = re.compile(r"^nb\d\d$")
_loaded = False


def answer(
    exercise_id: str,
    *,
    names: tuple[str, ...],
    decimals: int | None = None,
    digits: int | None = None,
    parameters: dict | None = None,
    points: tuple | None = None,
    valid: Callable | None = None,
):
    """Register the decorated function as the expected answer of ``exercise_id``."""
    if not isinstance(names, tuple) or not names or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be a non-empty tuple of strings; got {names!r}")
    parameters = dict(parameters or {})
    if not parameters or not all(isinstance(p, Param) for p in parameters.values()):
        raise ValueError(f"{exercise_id}: parameters must be a non-empty dict of Param")
    points = tuple(points) if points is not None else (1,) * len(names)
    if len(points) != len(names) or any(p < 0 for p in points) or not sum(points) > 0:
        raise ValueError(f"{exercise_id}: points={points!r}: one weight ≥ 0 per name")
    if decimals is None and digits is None:
        decimals = 0  # whole numbers and booleans: exact anyway
    precision = Precision(decimals=decimals, digits=digits)

    def register(func: Callable) -> Callable:
        if exercise_id in REGISTRY or exercise_id in OPEN:
            raise ValueError(f"exercise id {exercise_id!r} is registered twice")
        REGISTRY[exercise_id] = Answer(
            exercise_id, names, func, precision, parameters, points, valid
        )
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
    """The expected answer of a value exercise at the parameters the notebook shows."""
    spec = get(exercise_id)
    return spec.func(**spec.defaults())


def expected_at(exercise_id: str, params: dict):
    """The expected answer of a value exercise at ``params`` (every parameter named)."""
    spec = get(exercise_id)
    if not isinstance(params, dict) or set(params) != set(spec.parameters):
        raise ValueError(
            f"params={params!r} must name exactly {sorted(spec.parameters)} for {exercise_id}"
        )
    try:
        # the type and repr too: 1 == 1.0 == True and 0.0 == -0.0 are one key otherwise; the
        # function too, so an answer registered anew under the same id is never served stale
        key = (
            exercise_id,
            spec.func,
            tuple((n, type(v), v, repr(v)) for n, v in sorted(params.items())),
        )
        hash(key)
    except TypeError:  # a list or an array among the values: compute, do not remember
        return spec.func(**params)
    with _AT_LOCK:
        found = _AT.get(key, _MISSING)
    if found is _MISSING:
        found = spec.func(**params)  # outside the lock: the grader's threads compute at once
        with _AT_LOCK:  # the grader draws and scores from a thread pool: one writer at a time
            while _AT and len(_AT) >= _AT_SIZE:
                _AT.pop(next(iter(_AT)), None)  # the oldest first
            found = _AT.setdefault(key, found)
    # a copy, so a caller that changes an array in place does not change the next answer
    return copy.deepcopy(found)


#: Answers already computed, by (exercise, parameters). Drawing a grade's parameters computes
#: the answer (to redraw where it is undefined) and scoring computes it again; some answers
#: take seconds (13.2 calibrates σ twice through a composed PLD). A pure function of its
#: keyword arguments, so remembering is exact; exceptions are not remembered.
_AT: dict = {}
_AT_SIZE = 512
_AT_LOCK = threading.Lock()
_MISSING = object()


def parameters(exercise_id: str) -> dict:
    """The exercise's parameters (name → :class:`Param`); an open exercise's too."""
    _discover()
    if exercise_id in OPEN:
        return dict(OPEN[exercise_id].parameters)
    return dict(get(exercise_id).parameters)


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
        found = open_entry(exercise_id, spec.names, spec.precision)
        found["parameters"] = {name: p.default for name, p in spec.parameters.items()}
        return found
    spec = get(exercise_id)
    found = make_entry(exercise_id, spec.names, expected(exercise_id), spec.precision, salt)
    found["parameters"] = spec.defaults()
    return found


def build_key(salt: str | None = None) -> dict:
    """The whole key for the student's wheel: every exercise's entry under one fresh salt."""
    salt = salt or new_salt()
    return {exercise_id: entry(exercise_id, salt) for exercise_id in known_ids()}
