"""Which exercises a course notebook holds, their parameters, and the points a value earns.

The grader's side of the interface (``instructor/grading/grade.py`` calls only these):

* ``exercise_ids(course_notebook_path)``: the exercises of a course notebook, from the course's
  own notebook and answers (never from a submission);
* ``draw_parameters(exercise_id, seed)``: the parameters a submission is graded at (``seed``
  is HMAC-SHA256 of the instructor's secret over the submission's digest and the exercise id);
* ``score(exercise_id, params, value) -> list[Part]``: the points of each part; never raises.

This version grades every exercise at the parameters the course states (none drawn) and in one
part, all or nothing, by the same rule as the student's ``check``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from helpers.exercises import OPEN, answers, judge_answer

CHECK_CALL = re.compile(r"""check\(\s*["']([0-9]{2}\.[0-9]+)["']""")


@dataclass(frozen=True)
class Part:
    """One graded part of an exercise: its points out of ``max_points``, and why."""

    name: str
    points: float
    max_points: float
    message: str


def _sort_key(exercise_id: str) -> tuple:
    return tuple(int(p) for p in exercise_id.split("."))


def exercise_ids(course_notebook_path: Path) -> list[str]:
    """The exercises of a course notebook: its ``check`` calls that the answers know."""
    import nbformat

    nb = nbformat.read(Path(course_notebook_path), as_version=4)
    found = {
        match
        for cell in nb.cells
        if cell.cell_type == "code"
        for match in CHECK_CALL.findall(cell.source)
    }
    return sorted(found & set(answers.known_ids()), key=_sort_key)


def draw_parameters(exercise_id: str, seed: bytes) -> dict:
    """The parameters to grade ``exercise_id`` at: none drawn here (the course's own)."""
    return {}


def score(exercise_id: str, params: dict, value) -> list[Part]:
    """The points ``value`` earns on ``exercise_id`` at ``params`` (one part, 1 or 0)."""
    try:
        ok, line = judge_answer(exercise_id, value, reduced=exercise_id in OPEN)
    except Exception as error:  # a value too large or too strange to compare
        ok, line = (
            False,
            (
                f"✗ {exercise_id}: the answer could not be compared with the expected one "
                f"({type(error).__name__}: {str(error)[:120]})"
            ),
        )
    return [Part(exercise_id, 1.0 if ok else 0.0, 1.0, line)]
