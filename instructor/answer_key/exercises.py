"""One exercise, ready to print: its statement, solution, the values it asks for and its parameters.

Part of :mod:`instructor.answer_key`, which re-exports every name.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from .sources import (
    PLAN,
    Statement,
    facts_and_runs,
    fill,
    is_written,
    load_written,
    problems,
    statements,
)

# --- one exercise, ready to print -------------------------------------------------------------


@dataclass
class Value:
    name: str
    full: str  # the value with all the digits that matter
    rounded: str  # the value at the precision the exercise states
    points: str = "1"  # what the grade gives this part (``@answer(..., points=...)``)


@dataclass
class Parameter:
    name: str
    shown: str  # the value the notebook shows (its parameters cell)
    drawn: str  # the range the grade draws other values from
    about: str


@dataclass
class Exercise:
    statement: Statement
    names: tuple[str, ...]
    precision: str
    is_open: bool
    values: list[Value] = field(default_factory=list)
    worked: dict | None = None  # an open exercise's worked answer run: printed, ok, hint
    questions: list[dict] = field(default_factory=list)  # facts filled in
    parameters: list[Parameter] = field(default_factory=list)
    note: str = ""
    lecture: str = ""

    @property
    def exercise_id(self) -> str:
        return self.statement.exercise_id


def _leaves(value):
    if isinstance(value, np.ndarray):
        return [item.item() for item in value.ravel()]
    return [value]


def _full(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    return f"{x:.10g}"


def _rounded(x, precision) -> str:
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return _full(x)
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if precision.decimals is not None:
        return f"{x:.{precision.decimals}f}"
    return f"{x:.{precision.digits}g}"


def _values(exercise_id: str) -> list[Value]:
    from helpers.exercises import answers

    spec = answers.get(exercise_id)
    expected = answers.expected(exercise_id)
    parts = [expected] if len(spec.names) == 1 else list(expected)
    out = []
    for name, value, points in zip(spec.names, parts, spec.points, strict=True):
        leaves = _leaves(value)
        shape = (
            f" (array of shape {tuple(np.shape(value))})" if isinstance(value, np.ndarray) else ""
        )
        out.append(
            Value(
                name + shape,
                ", ".join(_full(x) for x in leaves),
                ", ".join(_rounded(x, spec.precision) for x in leaves),
                f"{points:g}" if points else "0 (a yes/no: marked with the written answer)",
            )
        )
    return out


def _drawn(p) -> str:
    """The range a parameter is drawn from, in words."""
    if p.kind == "choice":
        return "one of " + ", ".join(repr(c) for c in p.choices)
    if p.kind == "int":
        return f"a whole number from {p.low:g} to {p.high:g}"
    step = f" in steps of {p.step:g}" if p.step else ""
    if p.kind == "floats":
        return f"{len(p.default)} distinct values from {p.low:g} to {p.high:g}{step}, sorted"
    return f"from {p.low:g} to {p.high:g}{step}"


def _parameters(exercise_id: str) -> list[Parameter]:
    from helpers.exercises import answers

    return [
        Parameter(name, p.literal(), _drawn(p), p.about)
        for name, p in answers.parameters(exercise_id).items()
    ]


def _lectures() -> dict[str, str]:
    """Exercise id → "lecture N, in class" from instructor/plan.json (optional)."""
    try:
        plan = json.loads(PLAN.read_text(encoding="utf-8"))
        found = {}
        for lecture in plan.get("lectures", []):
            for where, label in (("in_class", "in class"), ("homework", "homework")):
                for exercise_id in lecture.get(where, []):
                    found[exercise_id] = f"lecture {lecture['number']}, {label}"
        return found
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def collect() -> list[Exercise]:
    """Every exercise of the course with its key, in course order (raises if incomplete)."""
    from helpers.exercises import OPEN, answers, known_ids
    from helpers.exercises import precision as stated_precision

    found, written = statements(), load_written()
    trouble = problems(found, written)
    if trouble:
        raise RuntimeError("the answer key is incomplete:\n" + "\n".join(trouble))
    facts, runs = facts_and_runs(found)
    lectures = _lectures()
    exercises = []
    for exercise_id in known_ids():
        statement = found[exercise_id]
        entry = written.get(exercise_id, {})
        is_open = exercise_id in OPEN
        exercise = Exercise(
            statement=statement,
            names=tuple(answers.names(exercise_id)),
            precision=stated_precision(exercise_id),
            is_open=is_open,
            note=fill(entry.get("note", ""), facts),
            lecture=lectures.get(exercise_id, ""),
        )
        exercise.parameters = _parameters(exercise_id)
        if is_open:
            exercise.worked = runs[exercise_id]
        else:
            exercise.values = _values(exercise_id)
        for index, q in enumerate(entry.get("questions", []), start=1):
            filled = {"quote": q["quote"]}
            if is_written(q):
                filled["id"] = f"{exercise_id}.q{index}"
                filled["points"] = f"{float(q.get('points', 1.0)):g}"
                filled["answer"] = fill(q["answer"], facts)
                filled["rubric"] = {k: fill(v, facts) for k, v in q["rubric"].items()}
            else:
                filled["checked_by"] = list(q["checked_by"])
            exercise.questions.append(filled)
        exercises.append(exercise)
    return exercises
