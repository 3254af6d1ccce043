"""Open exercises: many answers are right, so a test of the conditions decides, not a value.

Each open exercise has two steps. ``reduce(answer)`` runs where the answer lives (in the
student's kernel when grading: a function cannot leave it) and turns it into plain numbers;
``judge(data) -> (ok, hint)`` decides from those numbers (in the grader's own process when
grading). ``check`` does both in a row. Nothing here is an answer: each test states the
conditions the exercise's text already states.
"""

from __future__ import annotations

import math

import numpy as np

from . import nb11
from ._core import OpenExercise, Param, _is_number, _what

#: 01.2 and 06.3 state "to 4 decimal places (±0.0001 is accepted)" for the numbers they test
_STEP = 1e-4
_SLACK = 1e-12  # a float's last digits


# --- 01.2: weights that give ω₁ a prior of `prior_first` and the others equal shares ---------


def _weights_reduce(answer):
    if isinstance(answer, (str, bytes, dict)) or answer is None or callable(answer):
        return {"error": f"are {_what(answer)}, not a list of numbers"}
    items = answer.tolist() if isinstance(answer, np.ndarray) else answer
    if not isinstance(items, (list, tuple)):
        return {"error": f"are {_what(answer)}, not a list of numbers"}
    if any(isinstance(w, (list, tuple)) for w in items):
        return {"error": "are nested lists; one weight per world is expected"}
    wrong = [w for w in items if not _is_number(w)]
    if wrong:
        return {"error": f"hold {_what(wrong[0])}; every weight must be a number"}
    return {"weights": [float(w) for w in items]}


def _weights_judge(data, params=None) -> tuple[bool, str]:
    from ..datasets import school, school_release
    from ..lee_clifton import prior

    target = float((params or {}).get("prior_first", PRIOR_FIRST))
    if not isinstance(data, dict) or "weights" not in data:
        return False, (data or {}).get("error", "are not a list of weights")
    column, n = school()["absence_days"], len(school_release())
    try:
        p = prior(column, n, data["weights"])
    except (ValueError, TypeError) as error:
        return False, f"are not valid weights: {error}"
    tolerance = _STEP * (1 + _SLACK)
    if not abs(p[0] - target) <= tolerance:
        side = "too much" if p[0] > target else "too little"
        return False, (
            f"give ω₁ {side} weight (its prior must be prior_first = {target:g} "
            "to 4 decimal places)"
        )
    share = (1 - target) / (len(p) - 1)  # what each other world's prior must be
    if not float(np.max(np.abs(p[1:] - share))) <= tolerance:
        return False, (
            "give ω₂ … ω_W unequal shares; they must share the rest equally (to 4 decimal places)"
        )
    return True, ""


#: the prior of ω₁ the notebook shows (the grade draws others from 0.1 … 0.9)
PRIOR_FIRST = 0.5

WEIGHTS = OpenExercise(
    "01.2",
    ("answer_weights",),
    _weights_reduce,
    _weights_judge,
    precision=(
        "any weights that meet the conditions are right, each prior to 4 decimal places "
        "(±0.0001 is accepted)"
    ),
    parameters={
        "prior_first": Param(
            PRIOR_FIRST, 0.1, 0.9, step=0.05, about="the prior ω₁ must get (a probability)"
        )
    },
)


# --- 06.3: a profile with ε ≥ 1 and posterior ≤ 0.5 wherever p·q ≤ 0.1 -----------------------


_PROFILE_AXIS = np.linspace(0.01, 1, 100)  # the (p, q) grid the 06.3 check tests


def _not_a_number(profile):
    """(value, p, q) where ``profile`` returns something other than a number, or None.

    A coarse pass over the check's grid in plain Python floats, so that the message reads
    plainly; the search afterwards refuses a non-number anywhere else as well."""
    points = _PROFILE_AXIS[::11].tolist()
    for p in points:
        for q in points:
            try:
                value = profile(p, q)
            except Exception:  # the search names the exception and where
                return None
            if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iuf":
                value = value.reshape(()).item()
            if not _is_number(value):
                return value, p, q
    return None


def _profile_reduce(profile):
    from .. import kazan_reiter as kr

    if not callable(profile):
        return {"error": f"is {_what(profile)}, not a function of (p, q)"}
    wrong = _not_a_number(profile)
    if wrong is not None:
        value, p, q = wrong
        return {
            "error": f"returns {_what(value)} at (p, q) = ({p:g}, {q:g}); "
            "it must return a number r*(p, q) ≥ 1 (math.inf where unbounded)"
        }
    try:
        epsilon = float(kr.argmin_epsilon(profile).epsilon)
    except (ValueError, TypeError, ZeroDivisionError, ArithmeticError) as error:
        return {"error": f"cannot be searched: {error}"}
    if math.isinf(epsilon):
        return {"epsilon": "inf", "worst": 0.0}
    p, q = np.meshgrid(_PROFILE_AXIS, _PROFILE_AXIS)
    posterior = np.minimum(kr.relative_risk_bound(p, q, epsilon) * p * q, 1.0)
    return {"epsilon": epsilon, "worst": float(posterior[p * q <= 0.1].max())}


def _profile_judge(data, params=None) -> tuple[bool, str]:
    if not isinstance(data, dict) or "epsilon" not in data:
        return False, (data or {}).get("error", "is not a function of (p, q)")
    epsilon = float(data["epsilon"])
    if math.isinf(epsilon):
        return False, "bounds nothing (ε = ∞)"
    tolerance = _STEP * (1 + _SLACK)
    if not epsilon >= 1 - tolerance:
        return False, "allows an ε below 1 (to 4 decimal places): loosen it where it binds"
    if not float(data["worst"]) <= 0.5 + tolerance:
        return False, (
            "lets the posterior exceed 0.5 (to 4 decimal places) somewhere with p·q ≤ 0.1: "
            "tighten it there"
        )
    return True, ""


AGENCY_PROFILE = OpenExercise(
    "06.3",
    ("agency_profile",),
    _profile_reduce,
    _profile_judge,
    precision=(
        "any profile that meets the conditions is right (the check tests p and q in steps "
        "of 0.01), ε and the posterior to 4 decimal places (±0.0001 is accepted)"
    ),
)

#: Every open exercise, by id: the table is this list (notebook 11's exercise lives in
#: ``nb11``, imported above like any module), never filled by importing a module for its
#: side effect.
OPEN: dict[str, OpenExercise] = {
    exercise.exercise_id: exercise for exercise in (WEIGHTS, AGENCY_PROFILE, nb11.WORKLOAD)
}
