"""Checked exercises: ``check(exercise_id, answer)`` recomputes the answer and says how it went.

Every exercise of notebook NN lives in the module ``helpers/exercises/nbNN.py``; the
registry discovers every module named ``nbNN`` in this package by itself (a new notebook
only adds its module, nothing here changes). Exercise ids are ``"NN.k"``: notebook NN,
exercise k, as numbered in the notebook.

>>> from helpers.exercises import check
>>> check("03.1", ...)          # prints "… 03.1: not answered yet (...)", returns False

``check`` prints one line (✓ correct, ✗ with a hint such as "too large by a factor of 2",
or "not answered yet" when the answer is ``...``) and returns True or False. The expected
answer is recomputed with the helpers each time; no expected number is typed anywhere.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from ._core import REGISTRY, Exercise, compare, exercise, judge

__all__ = ["Exercise", "check", "compare", "exercise", "get", "known_ids"]

_MODULE = re.compile(r"^nb\d\d$")
_loaded = False


def _discover() -> None:
    """Import every ``nbNN`` module of this package once (each registers its exercises)."""
    global _loaded
    if _loaded:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if _MODULE.match(info.name):
            importlib.import_module(f"{__name__}.{info.name}")
    _loaded = True


def _sort_key(exercise_id: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"[.]", exercise_id))


def known_ids() -> list[str]:
    """Every registered exercise id, in course order."""
    _discover()
    return sorted(REGISTRY, key=_sort_key)


def get(exercise_id: str) -> Exercise:
    """The registered exercise; an unknown id is a ValueError listing the known ones."""
    _discover()
    if not isinstance(exercise_id, str) or exercise_id not in REGISTRY:
        raise ValueError(
            f"exercise_id={exercise_id!r} is not a known exercise; known ids: "
            + ", ".join(known_ids())
        )
    return REGISTRY[exercise_id]


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
        True when the answer matches the value recomputed with the helpers.

    Raises
    ------
    ValueError
        When ``exercise_id`` is unknown (the message lists the known ids).
    """
    ok, line = judge(get(exercise_id), answer)
    print(line)
    return ok
