"""Checked exercises: ``check(exercise_id, answer)`` says ✓ or gives a hint, never the answer.

Exercise ids are ``"NN.k"``: notebook NN, exercise k, as numbered in the notebook. Each
exercise names the values it asks for and the precision it accepts; the cell under it
records them in ``answer_NN_K`` (``variable("NN.k")``), which is what the course's grader
reads, and calls ``check``.

>>> from helpers.exercises import check
>>> check("03.1", ...)          # prints "… 03.1: not answered yet (...)", returns False

``check`` prints one line (✓ correct; ✗ with a hint such as "too large by a factor of 2";
or "not answered yet" when the answer is ``...``) and returns True or False. It judges from
salted hashes of the expected values (``_core``): in the student's wheel only those hashes
are present, made when the student edition was built; in the instructor's environment they
are made on the fly from ``helpers.exercises.answers``, which the student's wheel does not
contain. No function here returns an expected answer.
"""

from __future__ import annotations

import functools

from ._core import Precision, compare, is_missing, judge, new_salt
from ._open import OPEN

__all__ = [
    "Precision",
    "check",
    "compare",
    "entry",
    "is_missing",
    "judge_answer",
    "known_ids",
    "precision",
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


def judge_answer(exercise_id: str, answer, *, reduced: bool = False) -> tuple[bool, str]:
    """(ok, verdict line); ``reduced=True`` when an open answer is already reduced to data."""
    found = entry(exercise_id)
    open_judge = None
    if found.get("open"):
        spec = OPEN[exercise_id]

        def open_judge(value):
            return spec.judge(value if reduced else spec.reduce(value))

    return judge(found, answer, open_judge=open_judge)


def check(exercise_id: str, answer) -> bool:
    """Check ``answer`` to exercise ``exercise_id``; print a one-line verdict; return True/False.

    Parameters
    ----------
    exercise_id : str
        ``"NN.k"``, exercise k of notebook NN (``known_ids()`` lists them).
    answer : object
        The value the exercise asks for; a tuple when it asks for several names (in the
        order the exercise lists them). ``...`` (Ellipsis) anywhere means "not answered yet".

    Returns
    -------
    bool
        True when the answer matches at the precision the exercise states.

    Raises
    ------
    ValueError
        When ``exercise_id`` is unknown (the message lists the known ids).
    """
    ok, line = judge_answer(exercise_id, answer)
    print(line)
    return ok
