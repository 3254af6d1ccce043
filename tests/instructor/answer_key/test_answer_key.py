"""The instructor's answer key (``python3 course.py key``, ``instructor/answer_key/``).

* every exercise id is in the key, with its values (computed by the answers, never typed) or,
  for an open exercise, its worked answer run and passing the check;
* every sub-question of every statement that the check does not judge (a question mark, or
  "compare", "check that", "derive", "show that", "write one sentence" …) has a worked answer
  and a rubric with full, partial and no-credit levels, and every claim those answers make holds;
* the key builds (into a temporary ``--out``): one self-contained, offline, accessible HTML page
  and a markdown file;
* nothing of the key reaches students: no key text in the student notebooks, the student README
  or the files the student wheel is built from, and ``instructor/`` is not packaged.
"""

from __future__ import annotations

import copy
import re
import sys
from html.parser import HTMLParser

import nbformat
import pytest
from _modules import ROOT

from helpers.exercises import OPEN, answers, known_ids
from instructor import answer_key as ak
from instructor import key_facts
from instructor.answer_key.exercises import _full, _leaves
from instructor.student import NOT_FOR_STUDENTS, stage_package, student_readme
from instructor.student import student_version as make_student_version


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("instructor")
    result = ak.build(out)
    return {
        "out": out,
        "html": (out / "answer-key.html").read_text(encoding="utf-8"),
        "md": (out / "answer-key.md").read_text(encoding="utf-8"),
        "exercises": result["exercises"],
    }


def test_main_writes_into_out(tmp_path, capsys):
    assert ak.main(["--out", str(tmp_path / "key")]) == 0
    assert {p.name for p in (tmp_path / "key").iterdir()} == {"answer-key.html", "answer-key.md"}
    assert f"answer key: {len(known_ids())} exercises" in capsys.readouterr().out
    assert ak.main(["--out"]) == 2


# --- complete -------------------------------------------------------------------------------


def test_the_key_is_complete_and_consistent():
    assert ak.problems() == []


def test_every_exercise_id_is_in_the_key_with_a_value_or_a_worked_answer(built):
    exercises = {x.exercise_id: x for x in built["exercises"]}
    assert list(exercises) == known_ids()
    for exercise_id, x in exercises.items():
        assert x.statement.text and x.statement.solution, exercise_id
        if exercise_id in OPEN:
            assert x.worked["ok"], (exercise_id, x.worked["hint"])
        else:
            assert len(x.values) == len(answers.names(exercise_id)), exercise_id
        anchor = ak.slug(exercise_id)
        assert f'id="{anchor}"' in built["html"] and f'<a id="{anchor}"></a>' in built["md"]
        assert (
            f"Exercise {exercise_id}" in built["html"] and f"Exercise {exercise_id}" in built["md"]
        )


def test_values_are_the_answers_computed_now(built):
    for x in built["exercises"]:
        if x.is_open:
            continue
        expected = answers.expected(x.exercise_id)
        parts = [expected] if len(x.names) == 1 else list(expected)
        for value, part in zip(x.values, parts, strict=True):
            assert value.full == ", ".join(_full(v) for v in _leaves(part))
            assert value.full in built["html"] and value.rounded in built["md"]


def test_every_sub_question_has_a_worked_answer_and_a_rubric():
    found, written = ak.statements(), ak.load_written()
    n_written = 0
    for exercise_id, statement in found.items():
        text = ak.normalise(statement.text)
        questions = written.get(exercise_id, {}).get("questions", [])
        spans = []
        for q in questions:
            start = text.find(ak.normalise(q["quote"]))
            assert start >= 0, (exercise_id, q["quote"])
            spans.append((start, start + len(ak.normalise(q["quote"])), q))
        for position, what in ak.asks(statement.text):
            covering = [q for a, b, q in spans if a <= position < b]
            assert covering, f"{exercise_id}: {what!r} at {text[position - 50 : position + 5]!r}"
        for _, _, q in spans:
            if ak.is_written(q):
                n_written += 1
                assert len(ak.normalise(q["answer"])) > 40, (exercise_id, q["quote"])
                for level, _ in ak.RUBRIC_LEVELS:
                    assert len(ak.normalise(q["rubric"][level])) > 10, (exercise_id, level)
            else:
                assert set(q["checked_by"]) <= set(answers.names(exercise_id))
    assert n_written >= 25


@pytest.mark.parametrize(
    ("exercise_id", "question"),
    [
        ("08.1", "Is σ² = 3 among them?"),
        ("10.4", "Which profiles (17) of §5 allow it?"),
        (
            "07.3",
            "Do they differ, and are they above Kazan & Reiter's eq. (38) at the same ã = 0.4?",
        ),
        ("11.4", "write one sentence"),
    ],
)
def test_the_issues_examples_have_written_answers(built, exercise_id, question):
    (x,) = [x for x in built["exercises"] if x.exercise_id == exercise_id]
    assert [q for q in x.questions if question in q["quote"] and "answer" in q]


def test_every_claim_of_the_written_answers_holds():
    _, claims = key_facts.compute()
    assert len(claims) >= 40
    assert [c for c in claims if not c.holds] == []


def test_a_missing_question_is_reported():
    found, written = ak.statements(), copy.deepcopy(ak.load_written())
    written["08.1"]["questions"] = [
        q for q in written["08.1"]["questions"] if "σ² = 3" not in q["quote"]
    ]
    assert any("08.1" in p and "'?'" in p for p in ak.problems(found, written))
    written = copy.deepcopy(ak.load_written())
    written["10.4"]["questions"][-1]["rubric"].pop("partial")
    assert any("10.4" in p and "partial" in p for p in ak.problems(found, written))
    written = copy.deepcopy(ak.load_written())
    written["09.1"]["questions"][0]["answer"] += " [[no_such_fact]]"
    assert any("no_such_fact" in p for p in ak.problems(found, written))


def test_asks_finds_questions_and_requests():
    text = "Set `x`. Is it larger? Then compare it with y, derive z and check that w holds."
    assert [w for _, w in ak.asks(text)] == ["?", "compare", "derive", "check that"]
    assert ak.asks("the check compares it with the sum") == []  # what the check does, not a task


def test_numbers_in_written_answers_are_facts_never_left_unfilled(built):
    for x in built["exercises"]:
        for q in x.questions:
            for text in [q.get("answer", ""), *q.get("rubric", {}).values()]:
                assert "[[" not in text and "]]" not in text, (x.exercise_id, text)
        assert "[[" not in x.note


# --- the page -------------------------------------------------------------------------------


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.headings, self.urls, self.ids = [], [], [], []
        self.lang = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "html":
            self.lang = attrs.get("lang")
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        self.urls += [attrs[a] for a in ("href", "src", "action", "data") if attrs.get(a)]
        if attrs.get("id"):
            self.ids.append(attrs["id"])


def test_the_page_is_self_contained_offline_and_accessible(built):
    page = _Page()
    page.feed(built["html"])
    assert page.lang == "en"
    assert "title" in page.tags and "nav" in page.tags and "main" in page.tags
    assert not {"script", "img", "link", "iframe", "object", "embed"} & set(page.tags)
    exercises_part = built["html"].split('id="quizzes"')[0]  # the quiz bank is another's text
    assert not re.search(r"https?://", exercises_part)  # no URL at all
    assert not re.search(r"url\(|@import", built["html"])  # the CSS loads nothing
    assert all(url.startswith("#") for url in page.urls), [u for u in page.urls if u[0] != "#"]
    assert {url[1:] for url in page.urls} <= set(page.ids)  # every link lands on the page
    assert len(page.ids) == len(set(page.ids))
    assert page.headings[0] == 1 and page.headings.count(1) == 1
    for before, after in zip(page.headings, page.headings[1:], strict=False):
        assert after <= before + 1  # no heading level skipped
    assert 'class="tex"' not in exercises_part  # every formula of a statement became text


def test_the_markdown_has_contents_and_every_written_answer(built):
    md = built["md"]
    assert md.startswith("# ") and "## Contents" in md
    for x in built["exercises"]:
        for q in x.questions:
            if "answer" in q:
                assert q["answer"] in md
                assert all(text in md for text in q["rubric"].values())


def test_the_quiz_section_is_optional(built, tmp_path):
    empty = tmp_path / "no-quizzes"
    result = ak.build(tmp_path / "out", quiz_dir=empty, exercises=built["exercises"])
    html = result["html"].read_text(encoding="utf-8")
    assert result["quizzes"] == [] and 'id="quizzes"' not in html
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "lecture-01.json").write_text(
        '{"lecture": 1, "questions": [{"id": "q-1", "type": "choice", "question": "Which?", '
        '"explanation": "Because.", "options": [{"text": "this", "correct": true, "why": "ok"}, '
        '{"text": "that", "correct": false, "why": "it is not"}]}]}',
        encoding="utf-8",
    )
    result = ak.build(tmp_path / "out2", quiz_dir=bank, exercises=built["exercises"])
    md = result["markdown"].read_text(encoding="utf-8")
    assert "**Answer:** this" in md and "Not “that”: it is not" in md


def test_the_quiz_banks_answers_are_in_the_key_when_there_is_a_bank(built):
    banks = ak.load_quizzes()
    if not banks:
        pytest.skip("no instructor/quizzes/ in this tree")
    for _, questions in banks:
        for q in questions:
            assert q["id"] in built["md"]
            assert q["options"] == [] or sum(ok for _, ok, _ in q["options"]) >= 1, q["id"]


# --- never for students ---------------------------------------------------------------------


def _key_texts(exercises) -> list[str]:
    """Pieces of the key's own prose (answers, rubrics, notes), 40 characters or longer."""
    pieces = []
    for x in exercises:
        texts = [x.note] + [
            t for q in x.questions if "answer" in q for t in [q["answer"], *q["rubric"].values()]
        ]
        for text in texts:
            for piece in re.split(r"(?<=[.;:!?])\s+|[“”]", ak.normalise(text)):
                if len(piece) >= 40:
                    pieces.append(piece)
    return pieces


def _leaked(pieces: list[str], text: str) -> list[str]:
    text = ak.normalise(text)
    return [piece for piece in pieces if piece in text]


def test_no_key_text_is_in_the_student_notebooks(built):
    pieces = _key_texts(built["exercises"])
    assert len(pieces) > 100
    for path in ak.notebook_paths():
        student = make_student_version(nbformat.read(path, as_version=4), path.stem)
        text = "\n".join(cell.source for cell in student.cells)
        assert _leaked(pieces, text) == [], path.name


def test_no_key_text_and_no_instructor_file_in_the_student_wheel(built, tmp_path):
    pieces = _key_texts(built["exercises"])
    readme = student_readme("choosing_epsilon_helpers-0-py3-none-any.whl")
    assert _leaked(pieces, readme) == []
    stage = tmp_path / "stage"
    stage_package(stage, readme, answers.build_key())
    files = [p for p in stage.rglob("*") if p.is_file()]
    names = [p.relative_to(stage).as_posix() for p in files]
    assert not [n for n in names if n.startswith("instructor") or "/instructor/" in n]
    assert not [n for n in names for bad in NOT_FOR_STUDENTS if n.startswith(f"helpers/{bad}")]
    for path in files:
        if path.suffix in {".py", ".md", ".csv", ".txt", ".toml", ".json"}:
            assert _leaked(pieces, path.read_text(encoding="utf-8", errors="ignore")) == [], path


def test_instructor_is_not_a_package_of_the_wheel():
    if sys.version_info < (3, 11):
        pytest.skip("tomllib needs Python 3.11")
    import tomllib
    from setuptools import find_packages

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert include == ["helpers*"]
    packages = find_packages(str(ROOT), include=include)
    assert "helpers" in packages
    assert not [p for p in packages if p.split(".")[0] == "instructor"]
