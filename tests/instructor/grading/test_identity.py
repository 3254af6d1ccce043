"""Every row its own student's, every text from a submission escaped, the class's gradebooks.

No sandbox runs here: identities, escaping, written answers and the gradebook exports are
plain functions of the grader's, tested on their inputs (quick).
"""

from __future__ import annotations

import csv
import io
import re
import sys
import unicodedata
from pathlib import Path

import nbformat
import pytest

from instructor.grading import grade as grader
from instructor.grading import scoring

#: every character the grader must never write as itself: all of C0, DEL, C1, the format
#: characters, the line and paragraph separators, and a sample of surrogates and private use
HIDDEN = [
    chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp")
] + ["\ud800", "\udfff", "\ue000", "\U000f0000"]
#: what a hostile message may hold: a fake heading, raw HTML, a Markdown link and image, a
#: table cell's end, a formula
PAYLOAD = (
    "ok{c}# Score 4 / 4{c}<script>alert(1)</script> [x](http://e.vil) ![i](http://e.vil/p) | =1+1"
)


def _lines_with_hidden(text: str, keep: str = "") -> list[str]:
    return [c for c in text if c not in keep and c in HIDDEN]


def _graded(message: str, student: str = "alice") -> grader.Graded:
    graded = grader.Graded("alice", "04_binary_search", student=student)
    graded.parts = {"04.1": [scoring.Part("04.1", 0.0, 1.0, message)]}
    graded.run = grader.Run(
        events=[{"event": "error", "cell": "end", "ename": message, "evalue": message}]
    )
    return graded


def _course() -> grader.Course:
    return grader.Course("04_binary_search", Path("x"), ["04.1"], {"04.1": []}, {"04.1": "Ex 1"})


@pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_every_hidden_character_is_escaped_in_markdown_csv_and_html(char):
    text = PAYLOAD.format(c=char)
    line = scoring.markdown_text(text)
    assert not _lines_with_hidden(line) and "\n" not in line
    assert (
        "<" not in line
        and "[x](" not in line
        and "![" not in line
        and "|" not in line.replace("\\|", "")
    )
    cell = scoring.escape_cell(text)
    assert not _lines_with_hidden(cell, keep="\n\t")
    cell = scoring.escape_cell(char + "=1+1")
    assert not cell.startswith(scoring.FORMULA_PREFIXES[:4])  # shown as text, never a formula


def test_feedback_carries_no_fake_heading_html_or_control_character():
    for char in ("\r", "\n", "\x1b", "\u2028", "\u202e", "\x85"):
        text = grader.feedback(
            _graded(PAYLOAD.format(c=char), student=f"bob{char}# x"), _course(), None, (60, 30)
        )
        headings = [t for t in text.splitlines() if t.startswith("#")]
        assert headings == ["# Feedback: alice", "## While it ran"]
        assert "<script>" not in text and not re.search(r"(?<!\\)\]\(", text)
        assert not _lines_with_hidden(text, keep="\n")
        assert (
            text.count("\n")
            == grader.feedback(_graded("ok"), _course(), None, (60, 30)).count("\n") + 2
        )  # the student line and its blank line, nothing else


def test_rows_are_keyed_by_the_file_name_as_given_and_collisions_are_refused(tmp_path):
    given = ["alice.ipynb", "bob.smith.ipynb", "Ünal.ipynb", "=1+1.ipynb"]
    named = grader.identities([tmp_path / n for n in given])
    assert [student for _, student, _ in named] == ["alice", "bob.smith", "Ünal", "=1+1"]
    assert [name for _, _, name in named] == ["alice", "bob.smith", "nal", "1_1"]
    for a, b in (
        ("a b.ipynb", "a_b.ipynb"),
        ("x+1.ipynb", "x 1.ipynb"),
        ("Ann.ipynb", "ann.ipynb"),
    ):
        with pytest.raises(ValueError, match=re.escape(f"{a!r} and {b!r} both clean to")):
            grader.identities([tmp_path / a, tmp_path / b])


def test_a_collision_is_refused_before_anything_is_graded(tmp_path, monkeypatch):
    from instructor.grading import sandbox

    monkeypatch.setattr(sandbox, "available", lambda: None)
    monkeypatch.setattr(sandbox, "cgroups_available", lambda: None)
    monkeypatch.setattr(grader, "run_notebook", lambda *a, **k: pytest.fail("graded"))
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a b.ipynb", "a_b.ipynb"):
        nbformat.write(nbformat.v4.new_notebook(), folder / name)
    with pytest.raises(
        ValueError,
        match=re.escape("'a b.ipynb' and 'a_b.ipynb' both clean to the feedback name 'a_b'"),
    ):
        grader.grade(folder, tmp_path / "out", python=sys.executable, secret=tmp_path / "s")
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_a_roster_gives_each_file_its_lms_id(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("student,file\nS-001,alice.ipynb\nS-002,bob\n", encoding="utf-8")
    read = grader.read_roster(roster)
    named = grader.identities([tmp_path / "alice.ipynb", tmp_path / "bob.ipynb"], read)
    assert [s for _, s, _ in named] == ["S-001", "S-002"]
    roster.write_text("student,file\nS-001,alice.ipynb\nS-001,bob.ipynb\n", encoding="utf-8")
    with pytest.raises(ValueError, match="one id 'S-001'"):
        grader.identities(
            [tmp_path / "alice.ipynb", tmp_path / "bob.ipynb"], grader.read_roster(roster)
        )
    roster.write_text("id,name\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected student and file"):
        grader.read_roster(roster)


def _written_nb(*answers: str) -> dict:
    cells = [
        {
            "cell_type": "markdown",
            "source": answer,
            "metadata": {"tags": ["written"], "choosing_epsilon": {"written": "04.1.w1"}},
        }
        for answer in answers
    ]
    return {"cells": cells}


def test_several_written_answers_keep_the_first_answered_and_flag_the_others():
    course = _course()
    course.written = ["04.1.w1"]
    blank = scoring.WRITTEN_PLACEHOLDER
    rows = grader._written_answers(
        _written_nb(blank, f"{blank} first", f"{blank} second"), course, "a"
    )
    assert len(rows) == 1 and rows[0]["answer"] == f"{blank} first"
    assert rows[0]["others"] == [blank, f"{blank} second"]
    assert "3 cells answer 04.1.w1" in rows[0]["note"]
    (single,) = grader._written_answers(_written_nb(f"{blank} only"), course, "a")
    assert "note" not in single


def test_a_second_mark_for_one_answer_is_refused(tmp_path):
    marks = tmp_path / "written.csv"
    wid = next(iter(scoring.written_questions()))
    marks.write_text(
        f"student,submission,id,mark\nalice,alice,{wid},full\nalice,alice,{wid},none\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"line 3 .*a second mark .*line 2"):
        scoring.merge_written(marks, [{"student": "alice", "total": 1}])


def test_canvas_and_moodle_gradebooks_have_their_columns_and_each_students_total():
    rows = [
        {"student": "alice", "submission": "alice", "notebook": "04_b", "total": 2.5, "max": 3},
        {"student": "=cmd", "submission": "cmd", "notebook": "04_b", "total": 3, "max": 3},
        {"student": "zed", "submission": "zed", "notebook": "", "total": 0, "max": 0},
    ]
    books = grader.gradebooks(rows)
    canvas = list(csv.reader(io.StringIO(books["canvas.csv"])))
    assert canvas[0] == [*grader.CANVAS_COLUMNS, "04_b"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "3"]
    assert canvas[2] == ["alice", "", "", "alice", "", "2.5"]
    assert canvas[3][0] == "'=cmd" and canvas[3][-1] == "3"
    assert canvas[4] == ["zed", "", "", "zed", "", ""]  # not graded: empty, never 0
    moodle = list(csv.reader(io.StringIO(books["moodle.csv"])))
    assert moodle == [["username", "04_b"], ["alice", "2.5"], ["'=cmd", "3"], ["zed", ""]]
