"""The quiz bank (instructor/quizzes/): its files, its numbers, its cells and the student edition."""

from __future__ import annotations

import copy
import re
import shutil
import string
import unicodedata

import nbformat
import pytest

from instructor import quiz as Q
from instructor import student

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


# --- the rendered text keeps what the bank says -----------------------------------------------


@pytest.mark.parametrize(
    ("why", "rendered"),
    [
        ("the prior is 1/W.", "The prior is 1/W."),
        ("a common misconception.", "A common misconception."),
        ("it's symmetric.", "It's symmetric."),
        ("δ is an additive slack.", "δ is an additive slack."),
        ("ε-DP is a property of the algorithm.", "ε-DP is a property of the algorithm."),
        ("π̂ = (Y/n − (1 − α)/2)/α is unbiased.", "π̂ = (Y/n − (1 − α)/2)/α is unbiased."),
        ("ρ_z adds exactly.", "ρ_z adds exactly."),
        ("δ₁ and δ₂ do not depend on ε.", "δ₁ and δ₂ do not depend on ε."),
        ("b depends on Δf and ε.", "b depends on Δf and ε."),
        ("k records apart.", "k records apart."),
        ("school_year's Δf is smaller.", "school_year's Δf is smaller."),
        ("ln 20 is about 3.", "ln 20 is about 3."),
        ("pq = 1 at the corner.", "pq = 1 at the corner."),
        ("1/kᵢ² gives a larger weight.", "1/kᵢ² gives a larger weight."),
        ("`max` works.", "`max` works."),
    ],
)
def test_a_reason_is_capitalised_only_when_it_starts_with_a_word(why, rendered):
    assert Q._sentence(why) == rendered


def _greek(text: str) -> list[str]:
    return sorted(ch for ch in text if "GREEK" in unicodedata.name(ch, ""))


def test_every_rendered_reason_keeps_the_case_of_its_symbols():
    """δ (a slack) is not Δ (a sensitivity): the rendered reason changes at most one ASCII
    letter, its first, and every Greek letter of the bank's text keeps its case."""
    sources = "\n".join(
        source
        for stem, nb in NOTEBOOKS.items()
        for _, _, source in Q.quiz_cells(PLAN, BANKS, stem, nb)
    )
    checked = 0
    for q in QUESTIONS:
        for option in q.get("options", []):
            if option["correct"]:
                continue
            why, shown = option["why"].strip(), Q._sentence(option["why"])
            assert f"is wrong. {shown}" in sources, (q["id"], shown)
            assert shown[1:] == why[1:], (q["id"], why)
            assert shown[0] == why[0] or (
                why[0] in string.ascii_lowercase and shown[0] == why[0].upper()
            )
            assert _greek(shown) == _greek(why), (q["id"], why)
            checked += 1
    assert checked > 100


# --- numbers stated in the text -----------------------------------------------------------------


def test_every_stated_number_is_what_the_helpers_give():
    checked = [q for q in QUESTIONS if q.get("checks")]
    assert any(q["id"] == "10-5" for q in checked)
    for q in checked:
        assert Q.check_problems(q) == []


def test_a_stale_stated_number_is_reported():
    question = copy.deepcopy(next(q for q in QUESTIONS if q["id"] == "10-5"))
    question["checks"][1]["value"] = "0.4317"  # Lee & Clifton's Δf, not the change-one Δ
    assert any("the helpers give" in p for p in Q.check_problems(question))
    question["checks"][1]["value"] = "0.45710"
    assert any("not in the text" in p for p in Q.check_problems(question))
    bad = {"lecture": 11, "questions": [{**question, "checks": [{"value": "about 0.46"}]}]}
    assert any("'value' must be a number" in p for p in Q.schema_problems(bad))


def test_a_sensitivity_names_its_neighbours():
    """A Δ means nothing without its neighbour notion: a (upper − lower)/n mean is change-one
    (n public), and under add-remove a mean has no such bound."""
    for q in NUMERIC:
        if q["compute"]["call"] == "helpers.choose.sensitivity_of":
            neighbours = q["compute"]["kwargs"].get("neighbours")
            assert neighbours in ("change-one", "add-remove"), q["id"]
            assert neighbours in q["question"], q["id"]
    for q in QUESTIONS:
        for sentence in re.split(r"(?<=[.;])\s", Q.question_text(q)):
            if re.search(r"add[/-]remove|add or remove", sentence):
                assert not re.search(r"at most \(upper − lower\)/n", sentence), (q["id"], sentence)


# the course's symbols (NOTATION.md): the noise is Z, a set of outputs E, a Rényi order λ,
# Theorem 2's 1/r* − pq is γ
_OLD_SYMBOLS = [
    r"Var\[[XY]\]",
    r"\+ [XY]\b(?!′)",
    r"\b[XY] ~ Lap",
    r"∈ T\b",
    r"Rényi[^.]*\border α",
    r"\border α\b",
    r"\bc = 1/r\*",
    r"1/r\* − pq = c\b",
]


def test_the_bank_writes_the_course_symbols():
    for q in QUESTIONS:
        text = Q.question_text(q)
        for pattern in _OLD_SYMBOLS:
            assert not re.search(pattern, text), (q["id"], pattern)


def test_quiz_labels_are_unique_across_the_course():
    # issue 29: lecture 10's two parts (notebooks 08 and 09) both had Q10.1–Q10.3, and Q11.1
    # stood in 09 and 10: a later part goes on from where the lecture's earlier parts stopped
    labels = []
    for path in sorted(Q.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if Q.TAG in cell.metadata.get("tags", []):
                labels += re.findall(r"^\*\*(Q\d+\.\d+)\*\*", cell.source, flags=re.MULTILINE)
    assert len(labels) == len(QUESTIONS)
    assert len(labels) == len(set(labels)), sorted(x for x in labels if labels.count(x) > 1)
    # and each lecture's labels run 1, 2, … without a gap
    for lecture in PLAN["lectures"]:
        mine = [int(x.split(".")[1]) for x in labels if x.split(".")[0] == f"Q{lecture['number']}"]
        assert sorted(mine) == list(range(1, len(mine) + 1)), lecture["number"]
