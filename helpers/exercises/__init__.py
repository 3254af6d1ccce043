"""Checked exercises: ``check(exercise_id, answer)`` says ✓ or gives a hint, never the answer.

Exercise ids are ``"NN.k"``: notebook NN, exercise k, as numbered in the notebook. Each
exercise names the values it asks for and the precision it accepts; the cell under it
records them in ``answer_NN_K`` (``variable("NN.k")``), which is what the course's grader
reads, and calls ``check``.

>>> from helpers.exercises import check
>>> check("03.1", ..., {"epsilon": 1.0})
… 03.1: not answered yet (set my_tight and run the check)
False

``check`` prints one line (✓ correct; ✗ with a hint such as "too large by a factor of 2";
or "not answered yet" when the answer is ``...``) and returns True or False. It judges from
salted hashes of the expected values (``_core``): in the student's wheel only those hashes
are present, made when the student edition was built; in the instructor's environment they
are made on the fly from ``helpers.exercises.answers``, which the student's wheel does not
contain. No function here returns an expected answer.

Each exercise reads its inputs from a dict ``params_NN_K`` in the notebook's cell tagged
``parameters``; the key is made for the values shown there, so ``check`` judges only at those
(given other values it says so, and judges nothing). The hashes can be searched, as ``check``
can be called over and over: the grade does not rest on them. It reruns the notebook with
parameters drawn per submission (``instructor/grading``) and compares each answer with the
instructor's answer at those parameters: it measures that the code computes the answer.
"""

from __future__ import annotations

import functools
import math
import numbers

from ._core import Param, Precision, _short, compare, is_missing, judge, make_entry, new_salt
from ._open import OPEN

__all__ = [
    "Param",
    "Precision",
    "check",
    "compare",
    "entry",
    "is_missing",
    "judge",
    "judge_answer",
    "known_ids",
    "make_entry",
    "new_salt",
    "precision",
    "same_parameters",
    "variable",
]


def _answers():
    """The instructor's answers package, or None in the student's wheel."""
    try:
        from . import answers
    except ImportError:
        return None
    return answers


@functools.cache
def _key() -> dict | None:
    """The key built into the student's wheel, or None in the instructor's environment."""
    try:
        from ._key_data import KEY
    except ImportError:
        return None
    return KEY


@functools.cache
def _session_salt() -> str:
    return new_salt()


def _sort_key(exercise_id: str) -> tuple:
    return tuple(int(p) for p in exercise_id.split("."))


def known_ids() -> list[str]:
    """Every exercise id, in course order."""
    key = _key()
    if key is not None:
        return sorted(key, key=_sort_key)
    answers = _answers()
    return answers.known_ids() if answers is not None else sorted(OPEN, key=_sort_key)


def variable(exercise_id: str) -> str:
    """The name the student's answer is recorded in, e.g. ``answer_10_3`` (the grader reads it)."""
    return "answer_" + exercise_id.replace(".", "_")


def entry(exercise_id: str) -> dict:
    """The key entry of an exercise: its names, precision and salted hashes (no value)."""
    if not isinstance(exercise_id, str) or exercise_id not in known_ids():
        raise ValueError(
            f"exercise_id={exercise_id!r} is not a known exercise; known ids: "
            + ", ".join(known_ids())
        )
    key = _key()
    if key is not None:
        return key[exercise_id]
    return _entry_from_answers(exercise_id)


@functools.cache
def _entry_from_answers(exercise_id: str) -> dict:
    return _answers().entry(exercise_id, _session_salt())


def precision(exercise_id: str) -> str:
    """The precision the exercise accepts, as its text states it."""
    return entry(exercise_id).get("precision", "any answer that meets the conditions")


def _same_value(a, b) -> bool:
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(b, str) or isinstance(a, str):
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, numbers.Real) and isinstance(b, numbers.Real):
        x, y = float(a), float(b)
        return x == y or math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-300)
    return False


def same_parameters(given, shown: dict) -> bool:
    """Are ``given`` the parameters the notebook shows (``shown``)? Never raises."""
    try:
        return (
            isinstance(given, dict)
            and set(given) == set(shown)
            and all(_same_value(given[k], shown[k]) for k in shown)
        )
    except Exception:  # a strange dict (keys or values that raise) is not the shown one
        return False


def judge_answer(
    exercise_id: str, answer, params=None, *, reduced: bool = False
) -> tuple[bool, str]:
    """(ok, verdict line) at the notebook's parameters; never raises for any ``answer``.

    ``params`` are the parameters the answer was computed at (None: the shown ones); when
    they differ from those the notebook shows, nothing is judged and the line says why.
    ``reduced=True`` when an open answer is already reduced to data.
    """
    found = entry(exercise_id)
    shown = found.get("parameters", {})
    if params is not None and not same_parameters(params, shown):
        var = "params_" + exercise_id.replace(".", "_")
        return False, (
            f"… {exercise_id}: not judged: {var} differs from the notebook's own "
            f"{_shown(shown)}. This check judges only the parameters the notebook shows; "
            "the grade reruns your code at other parameters and recomputes the answer there"
        )
    open_judge = None
    if found.get("open"):
        spec = OPEN[exercise_id]

        def open_judge(value):
            data = value if reduced else spec.reduce(value)
            return spec.judge(data, spec.defaults())

    return judge(found, answer, open_judge=open_judge)


def _shown(shown: dict) -> str:
    return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in shown.items()) + "}"


def check(exercise_id: str, answer, params=None) -> bool:
    """Check ``answer`` to exercise ``exercise_id``; print a one-line verdict; return True/False.

    Parameters
    ----------
    exercise_id : str
        ``"NN.k"``, exercise k of notebook NN (``known_ids()`` lists them).
    answer : object
        The value the exercise asks for; a tuple when it asks for several names (in the
        order the exercise lists them). ``...`` (Ellipsis) anywhere means "not answered yet".
        Any value gets a verdict (a ✗ saying why it cannot be read), never an exception.
    params : dict, optional
        The exercise's parameters, ``params_NN_K`` of the notebook's parameters cell. The
        check judges only at the values the notebook shows; other values get a line saying
        so (the grade recomputes the answer at parameters of its own).

    Returns
    -------
    bool
        True when the answer matches at the precision the exercise states.

    Raises
    ------
    ValueError
        When ``exercise_id`` is unknown (the message lists the known ids).
    """
    entry(exercise_id)  # an unknown id is the caller's error: ValueError listing the known
    try:
        ok, line = judge_answer(exercise_id, answer, params)
    except Exception as error:  # an open answer's own code may raise anything
        ok, line = (
            False,
            (f"✗ {exercise_id}: could not be judged ({type(error).__name__}: {_short(error)})"),
        )
    print(line)
    return ok
