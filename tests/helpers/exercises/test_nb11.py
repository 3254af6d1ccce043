"""Notebook 11's open exercise (11.4, a workload the student designs): every condition the
exercise states is tested, and only those."""

from __future__ import annotations

import dataclasses

import pytest

from helpers import budget as bud
from helpers.exercises import check, judge_answer
from helpers.exercises import nb11 as ex
from helpers.exercises._open import OPEN
from helpers.exercises.answers import nb11 as answers_nb11
from helpers.plotting.budget import SURVEY

R = bud.Release
GOOD = [
    R("count", k=20.0),
    R("count", k=20.0),
    R("count", k=20.0, coverage=0.9),
    R("count", k=20.0, coverage=0.9),
    R("sum", k=200.0, lower=0.0, upper=10.0),
    R("mean", k=1.4, lower=18.0, upper=90.0, n=1000),
    R("mean", k=0.4, lower=0.0, upper=20.0, n=1000),
    R("mean", k=0.7, lower=15.0, upper=50.0, n=1000, coverage=0.9),
]


def _hint(answer) -> str:
    ok, line = judge_answer("11.4", answer)
    assert not ok
    return line


def test_it_is_registered_as_open_with_its_variable():
    assert "11.4" in OPEN and OPEN["11.4"].names == ("my_workload",)


def test_a_workload_that_meets_every_condition_is_accepted(capsys):
    assert check("11.4", GOOD)
    assert check("11.4", tuple(GOOD))
    # the same as plain mappings (a Release's default coverage is 0.95)
    rows = [{f: v for f, v in dataclasses.asdict(r).items() if v is not None} for r in GOOD]
    for row in rows:
        if row["coverage"] == 0.95:
            del row["coverage"]
    assert check("11.4", rows)
    # more releases, still within the risk
    assert check("11.4", [*GOOD, R("count", k=20.0, coverage=0.9)])
    assert capsys.readouterr().out.count("✓ 11.4") == 4


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (GOOD[:7], "has 7 releases; at least 8"),
        ([*GOOD[:4], *GOOD[:4]], "has no sum and no mean"),
        ([*GOOD[:7], R("count", k=21.0)], "more than 2 % of its range"),
        ([*GOOD[:7], R("mean", k=1.0, lower=0.0, upper=10.0, n=1000)], "release 7 (mean)"),
        ([*GOOD[:7], R("sum", k=401.0, lower=0.0, upper=20.0)], "release 7 (sum)"),
        ([*GOOD[:7], R("count", k=20.0, coverage=0.85)], "coverage below 0.9"),
        ([*GOOD[:7], R("mean", k=0.2, lower=0.0, upper=10.0, n=500)], "n = 500"),
        ([*GOOD[:7], R("count", k=20.0, sensitivity=1.0)], "sensitivity"),
        ([*GOOD, R("count", k=20.0), R("count", k=20.0)], "needs more ε than a posterior"),
        ([*GOOD[:7], R("sum", k=20.0)], "not a valid workload"),
        (["a"] * 8, "not a Release"),
        ("nonsense", "not a list of releases"),
    ],
)
def test_each_condition_is_named_when_it_fails(answer, words):
    assert words in _hint(answer)


def test_the_conditions_are_the_module_constants():
    assert (ex.RECORDS, ex.MIN_RELEASES, ex.MIN_COVERAGE, ex.MAX_SHARE, ex.RISK) == (
        1000,
        8,
        0.9,
        0.02,
        0.8,
    )


def test_reduce_leaves_plain_data_and_judge_decides_from_it():
    spec = OPEN["11.4"]
    data = spec.reduce(GOOD)
    assert set(data) == {"releases"} and all(isinstance(r, dict) for r in data["releases"])
    assert spec.judge(data) == (True, "")
    assert spec.judge({"error": "is 5, not a list"}) == (False, "is 5, not a list")


def test_the_answers_survey_is_the_notebook_s():
    """answers/nb11 may not import the plotting layer: its copy must stay equal."""
    assert answers_nb11.SURVEY == SURVEY
