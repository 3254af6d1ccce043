"""The scoring side of the grader: exercises from the course, scores that never raise."""

from __future__ import annotations

from _modules import ROOT

from helpers.exercises import answers
from instructor.grading import scoring

COURSE = next((ROOT / "notebooks").glob("04_*.ipynb"))


def test_the_exercises_come_from_the_course_notebook():
    assert scoring.exercise_ids(COURSE) == [i for i in answers.known_ids() if i[:2] == "04"]


def test_a_value_of_any_size_or_kind_is_a_cross_with_a_message():
    for value in (10**400, float("nan"), [[[]]], "=1+1", object(), ...):
        parts = scoring.score("04.1", {}, value)
        assert [p.points for p in parts] == [0.0] and parts[0].message.startswith(("✗", "…"))


def test_the_expected_answer_scores_every_part():
    parts = scoring.score("04.1", {}, answers.expected("04.1"))
    assert sum(p.points for p in parts) == sum(p.max_points for p in parts) > 0
