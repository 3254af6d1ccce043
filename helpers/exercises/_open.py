"""Open exercises: many answers are right, so a test of the conditions decides, not a value.

Each open exercise has two steps. ``reduce(answer)`` runs where the answer lives (in the
student's kernel when grading: a function cannot leave it) and turns it into plain numbers;
``judge(data) -> (ok, hint)`` decides from those numbers (in the grader's own process when
grading). ``check`` does both in a row. Nothing here is an answer: each test states the
conditions the exercise's text already states.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class OpenExercise:
    exercise_id: str
    names: tuple[str, ...]
    reduce: Callable
    judge: Callable


OPEN: dict[str, OpenExercise] = {}


def _register(exercise_id: str, names: tuple[str, ...], reduce: Callable, judge: Callable):
    OPEN[exercise_id] = OpenExercise(exercise_id, names, reduce, judge)


# --- 01.2: weights that give ω₁ a prior of 0.5 and the other worlds equal shares --------------


def _weights_reduce(answer):
    try:
        weights = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return {"error": f"are {type(answer).__name__}, not a list of numbers"}
    if weights.ndim != 1:
        return {"error": f"have shape {weights.shape}; one weight per world is expected"}
    return {"weights": [float(w) for w in weights]}


def _weights_judge(data) -> tuple[bool, str]:
    from ..datasets import school, school_release
    from ..lee_clifton import prior

    if not isinstance(data, dict) or "weights" not in data:
        return False, (data or {}).get("error", "are not a list of weights")
    column, n = school()["absence_days"], len(school_release())
    try:
        p = prior(column, n, data["weights"])
    except (ValueError, TypeError) as error:
        return False, f"are not valid weights: {error}"
    if not np.isclose(p[0], 0.5):
        side = "too much" if p[0] > 0.5 else "too little"
        return False, f"give ω₁ {side} weight (its prior must be exactly 0.5)"
    if not np.allclose(p[1:], p[1]):
        return False, "give ω₂ … ω_W unequal shares; they must share the rest equally"
    return True, ""


_register("01.2", ("answer_weights",), _weights_reduce, _weights_judge)


# --- 06.3: a profile with ε ≥ 1 and posterior ≤ 0.5 wherever p·q ≤ 0.1 -----------------------


def _profile_reduce(profile):
    from .. import kazan_reiter as kr

    if not callable(profile):
        return {"error": "is not a function of (p, q)"}
    try:
        epsilon = float(kr.argmin_epsilon(profile).epsilon)
    except (ValueError, TypeError, ZeroDivisionError, ArithmeticError) as error:
        return {"error": f"cannot be searched: {error}"}
    if math.isinf(epsilon):
        return {"epsilon": "inf", "worst": 0.0}
    axis = np.linspace(0.01, 1, 100)
    p, q = np.meshgrid(axis, axis)
    posterior = np.minimum(kr.relative_risk_bound(p, q, epsilon) * p * q, 1.0)
    return {"epsilon": epsilon, "worst": float(posterior[p * q <= 0.1].max())}


def _profile_judge(data) -> tuple[bool, str]:
    if not isinstance(data, dict) or "epsilon" not in data:
        return False, (data or {}).get("error", "is not a function of (p, q)")
    epsilon = float(data["epsilon"])
    if math.isinf(epsilon):
        return False, "bounds nothing (ε = ∞)"
    if not epsilon >= 1:
        return False, "allows an ε below 1: loosen it where it binds"
    if float(data["worst"]) > 0.5 + 1e-9:
        return False, "lets the posterior exceed 0.5 somewhere with p·q ≤ 0.1: tighten it there"
    return True, ""


_register("06.3", ("agency_profile",), _profile_reduce, _profile_judge)

from . import nb11 as _nb11  # noqa: E402, F401  (registers notebook 11's open exercise)
