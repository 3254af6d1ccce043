"""The quiz bank (instructor/quizzes/): its files, its numbers, its cells and the student edition."""

from __future__ import annotations

import shutil

import nbformat
import pytest

from helpers.exercises import student
from instructor import quiz as Q

PLAN = Q.load_plan()
BANKS = Q.all_banks(PLAN)
QUESTIONS = Q.all_questions(BANKS)
NUMERIC = [q for q in QUESTIONS if q["type"] == "numeric"]
# the notebooks whose quiz cells need a markdown cell split at the next heading, and one without
SAMPLE = ["00_dp_foundations", "01_prior", "07_risk_utility_tradeoff", "08_plrv_and_delta"]


def _notebook(stem: str):
    return nbformat.read(Q.NOTEBOOKS / f"{stem}.ipynb", as_version=4)


NOTEBOOKS = {stem: _notebook(stem) for stem in dict.fromkeys(q["notebook"] for q in QUESTIONS)}


def test_every_file_parses_against_the_schema():
    assert sorted(BANKS) == sorted(lec["number"] for lec in PLAN["lectures"])
    for number, bank in BANKS.items():
        assert Q.schema_problems(bank, number) == []


def test_question_ids_are_unique_across_the_bank():
    ids = [q["id"] for q in QUESTIONS]
    assert len(ids) == len(set(ids))


def test_at_least_five_questions_per_lecture_and_both_kinds():
    for lecture in PLAN["lectures"]:
        assert len(BANKS[lecture["number"]]["questions"]) >= 5, lecture["title"]
    assert {q["type"] for q in QUESTIONS} == set(Q.KINDS)
    assert len(NUMERIC) >= len(PLAN["lectures"])


def test_every_choice_has_one_right_option_and_a_reason_for_each_wrong_one():
    for q in QUESTIONS:
        if q["type"] != "choice":
            continue
        assert [o["correct"] for o in q["options"]].count(True) == 1, q["id"]
        wrong = [o for o in q["options"] if not o["correct"]]
        assert len(wrong) >= 2, q["id"]
        for option in wrong:
            assert len(option["why"].split()) >= 4, (q["id"], option["text"])


def test_every_section_is_a_heading_of_its_notebook_in_its_files_lecture():
    for number, bank in BANKS.items():
        for q in bank["questions"]:
            nb = NOTEBOOKS[q["notebook"]]
            texts = [h["text"] for h in Q.headings(nb)]
            assert q["section"] in texts, (q["id"], q["section"])
            where = Q.locate(q, PLAN, nb)[0]
            assert where == number, (
                f"{q['id']} is taught in lecture {where}, filed in {number}: "
                "run python -m instructor.quiz regroup"
            )


@pytest.mark.parametrize("question", NUMERIC, ids=[q["id"] for q in NUMERIC])
def test_numeric_answer_equals_the_helpers_computation(question):
    assert question["compute"]["call"].startswith(Q.ALLOWED_CALLS)
    computed = Q.computed_answer(question)
    assert abs(computed - question["answer"]) <= question["tolerance"], computed


def test_compute_specs_refuse_other_modules():
    with pytest.raises(ValueError, match="must start with"):
        Q.evaluate({"call": "os.getcwd"})


@pytest.fixture(scope="module")
def applied(tmp_path_factory):
    """Copies of the sample notebooks with the quiz cells applied once."""
    folder = tmp_path_factory.mktemp("quiz")
    paths = [folder / f"{stem}.ipynb" for stem in SAMPLE]
    for stem, path in zip(SAMPLE, paths, strict=True):
        shutil.copy(Q.NOTEBOOKS / f"{stem}.ipynb", path)
    Q.apply(paths)
    return paths


def test_apply_is_idempotent_and_check_agrees(applied):
    before = [p.read_text(encoding="utf-8") for p in applied]
    assert Q.apply(applied) == []
    assert [p.read_text(encoding="utf-8") for p in applied] == before
    assert Q.check(applied) == []


def test_apply_places_one_cell_per_part_before_the_next_heading(applied):
    for path in applied:
        nb = nbformat.read(path, as_version=4)
        original = _notebook(path.stem)
        assert len(nb.cells) >= len(original.cells)
        quiz = [i for i, c in enumerate(nb.cells) if Q.is_quiz(c)]
        parts = [p for lec in PLAN["lectures"] for p in lec["parts"] if p["notebook"] == path.stem]
        assert len(quiz) == len(parts)
        for i in quiz:
            following = nb.cells[i + 1].source.lstrip()
            assert following.startswith("## "), following[:40]
            assert nb.cells[i].metadata["quiz"]["id"] == nb.cells[i].id
        # nothing but the quiz cells and the split of a cell at a heading has changed
        text = "\n".join(c.source for c in nb.cells if not Q.is_quiz(c))
        assert " ".join(text.split()) == " ".join(
            "\n".join(c.source for c in original.cells if not Q.is_quiz(c)).split()
        )


def test_check_reports_missing_and_stale_cells(applied, tmp_path):
    fresh = tmp_path / "01_prior.ipynb"
    shutil.copy(Q.NOTEBOOKS / "01_prior.ipynb", fresh)
    if not any(Q.is_quiz(c) for c in _notebook("01_prior").cells):
        assert any("is missing" in p for p in Q.check([fresh]))
    nb = nbformat.read(applied[1], as_version=4)
    cell = next(c for c in nb.cells if Q.is_quiz(c))
    cell.source += "\nedited by hand"
    stale = tmp_path / "stale" / "01_prior.ipynb"
    stale.parent.mkdir()
    nbformat.write(nb, stale)
    assert any("is stale" in p for p in Q.check([stale]))


def test_every_answer_sits_in_a_details_element():
    for lecture in PLAN["lectures"]:
        for stem in dict.fromkeys(p["notebook"] for p in lecture["parts"]):
            for _, _, source in Q.quiz_cells(PLAN, BANKS, stem, NOTEBOOKS[stem]):
                outside = student.quiz_for_students(source)
                assert "<details>" in source and "<details" not in outside
                assert "$" not in source  # plain Unicode: no math, no dollar read as math


def test_the_student_version_of_a_quiz_cell_carries_no_answer(applied):
    edition = {
        p.name: student.student_version(nbformat.read(p, as_version=4), p.stem) for p in applied
    }
    assert student.quiz_leaks(edition) == []
    for nb in edition.values():
        cells = [c for c in nb.cells if student.QUIZ_TAG in c.metadata.get("tags", [])]
        assert cells
        for cell in cells:
            assert "<details" not in cell.source and "is right." not in cell.source
            assert cell.source.endswith(student.QUIZ_NOTE)
            assert "(a)" in cell.source  # the questions and their options stay
    # and the leak check does find an answer left in place, with or without its <details>
    instructor_copy = {p.name: nbformat.read(p, as_version=4) for p in applied}
    assert student.quiz_leaks(instructor_copy)
    for nb in instructor_copy.values():
        for cell in nb.cells:
            cell.source = cell.source.replace("<details>", "").replace("</details>", "")
    hits = student.quiz_leaks(instructor_copy)
    wrong_reasons = sum(
        1
        for q in QUESTIONS
        if q["notebook"] in SAMPLE
        for o in q.get("options", [])
        if not o["correct"]
    )
    assert len(hits) >= wrong_reasons


def test_no_quiz_question_shows_an_exercise_answer():
    cells = [
        nbformat.v4.new_markdown_cell(student.quiz_for_students(source))
        for stem, nb in NOTEBOOKS.items()
        for _, _, source in Q.quiz_cells(PLAN, BANKS, stem, nb)
    ]
    assert student.leaks({"quiz cells": nbformat.v4.new_notebook(cells=cells)}) == []
