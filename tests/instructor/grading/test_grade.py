"""course.py grade: answers read from the kernel, judged against the instructor's, never faked.

Small synthetic submissions (a few cells each) keep these tests quick; the course notebooks
themselves are graded in the slow test at the end (each scores every exercise at drawn
parameters; the student editions' emptiness is read from their run in test_student.py, where a
blank edition is also graded in the student's environment). The kernels run in this environment's
Python with the student's helpers first on their path, each in its sandbox; the student
bundle's own environment is graded in test_student.py, the attacks in test_attacks.py.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
import unicodedata
from pathlib import Path

import nbformat
import numpy as np
import pytest
from _modules import ROOT, fixed_secret

from helpers.exercises import answers, variable
from helpers.notebooks import notebook_paths
from instructor.grading import grade as grader
from instructor.grading import sandbox, scoring
from instructor.grading.grade import decode, grade, identify, inject
from instructor.grading.runner import ENCODER
from instructor.student import student_version

IDS = ("04.1", "04.2", "04.3")
#: where no cgroup can be made (a user's CI runner), the sandboxes run without one, as told
NO_CGROUP = sandbox.cgroups_available() is not None


COURSE = next((ROOT / "notebooks").glob("04_*.ipynb"))
#: the points of each exercise (the scoring's parts) and of the notebook
FULL = {i: sum(p.max_points for p in scoring.score(i, {}, ...)) for i in IDS}
TOTAL = f"{sum(FULL.values()):g}"


def _full(exercise_id: str) -> str:
    return f"{FULL[exercise_id]:g}"


def _notebook(*sources: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in ("import numpy as np", *sources)]
    nb.metadata["choosing_epsilon"] = {"notebook": "04_binary_search", "exercises": list(IDS)}
    return nb


def _computed(after: dict[str, str] | None = None, *tail: str) -> nbformat.NotebookNode:
    """The course's own notebook 04 (every answer computed from its parameters, so right at
    the drawn ones), with a cell inserted after an exercise's check cell and cells appended."""
    nb = nbformat.read(COURSE, as_version=4)
    for exercise_id, source in (after or {}).items():
        (index,) = [
            k
            for k, c in enumerate(nb.cells)
            if c.cell_type == "code" and f'check("{exercise_id}"' in c.source
        ]
        nb.cells.insert(index + 1, nbformat.v4.new_code_cell(source))
    nb.cells += [nbformat.v4.new_code_cell(t) for t in tail]
    return nb


SUBMISSIONS = {
    "all_right": _computed(),
    # the values the notebook shows, typed in: right at the shown parameters only
    "typed_in": _notebook(
        *(
            f"{variable(i)} = {answers.expected(i)!r}"
            for i in IDS
            if "array" not in repr(answers.expected(i))
        )
    ),
    "unanswered": _notebook(*(f"{variable(i)} = ..." for i in IDS)),
    # prints what a perfect run prints, assigns nothing
    "printer": _notebook(*(f'print("✓ {i}: correct")' for i in IDS)),
    # a check that always says yes, in the namespace and in the module, and no answers
    "redefines_check": _notebook(
        "import helpers.exercises as e\ncheck = e.check = e.judge_answer = lambda *a, **k: True",
        *(f"{variable(i)} = 0.5\ncheck('{i}', {variable(i)})" for i in IDS),
    ),
    # raises half-way: the answer before counts (and, like nbgrader, the cells after run)
    "raises": _computed({"04.1": "raise RuntimeError('half-way')"}),
    # a cell that sleeps past its limit is interrupted; the next cell still runs
    "slow_cell": _computed({"04.1": "import time\ntime.sleep(600)"}),
    # deaf to the interrupt: the kernel is killed at the cell's limit; 04.1 was read before.
    # It waits rather than spins: deaf is deaf either way, and a spin took a core for the
    # whole 30 s limit from the tests beside it (issue 50)
    "never_ends": _computed(
        {
            "04.1": "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "while True:\n    time.sleep(0.5)"
        }
    ),
    # a large array (a values line of about 2 MB) is read whole, then judged
    "big_array": _notebook("answer_04_2 = np.zeros((300, 300))"),
    # a wrong answer: 0 with a hint in the feedback
    "wrong": _computed(None, "answer_04_1 = 2 * answer_04_1"),
}


#: a submission of another notebook in the same folder: scored on notebook 10's exercises only
OTHER = "10_choose_your_epsilon"
TEN = [i for i in answers.known_ids() if i.startswith("10.")]


@pytest.fixture(scope="module")
def graded(tmp_path_factory, student_site, sandbox_required):
    folder = tmp_path_factory.mktemp("submissions")
    for name, nb in SUBMISSIONS.items():
        nbformat.write(nb, folder / f"{name}.ipynb")
    (folder / "not_a_notebook.ipynb").write_text("{ this is not json", encoding="utf-8")
    other = _notebook("answer_04_1 = 1.0")
    other.metadata["choosing_epsilon"] = {"notebook": OTHER}
    nbformat.write(other, folder / "other_notebook.ipynb")
    out = tmp_path_factory.mktemp("out")
    grade(
        folder,
        out,
        python=sys.executable,
        site=student_site,
        secret=fixed_secret(tmp_path_factory.mktemp("secret") / "secret"),
        unsafe_no_cgroup=NO_CGROUP,
        timeout=150,
        cell_timeout=30,
        jobs=2,
    )
    with (out / "grades.csv").open(encoding="utf-8") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    return out, rows


def test_grades_csv_has_one_row_per_notebook_and_a_total(graded):
    out, rows = graded
    header = (out / "grades.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "student,submission,notebook," + ",".join([*IDS, *TEN]) + ",total,max,flag"
    assert set(rows) == {*SUBMISSIONS, "not_a_notebook", "other_notebook"}
    for name, row in rows.items():
        assert row["student"] == name  # the file's stem as given
        if name == "not_a_notebook":
            assert row["total"] == "0" and row["max"] == "0" and row["04.1"] == ""
            continue
        if name == "other_notebook":  # its own notebook's exercises, none of 04's
            assert [row[i] for i in IDS] == ["", "", ""] and row["notebook"] == OTHER
            ten = sum(p.max_points for i in TEN for p in scoring.score(i, {}, ...))
            assert row["max"] == f"{ten:g}" and row["total"] == "0"
            continue
        assert [row[i] for i in TEN] == [""] * len(TEN)
        points = [float(row[i]) for i in IDS]
        assert all(0 <= p <= FULL[i] for p, i in zip(points, IDS, strict=True))
        assert float(row["total"]) == sum(points)
        assert row["max"] == TOTAL and row["notebook"] == "04_binary_search"
    for name in rows:
        assert (out / "feedback" / f"{name}.md").exists()


def test_a_large_array_is_read_whole_and_judged(graded):
    out, rows = graded
    text = (out / "feedback" / "big_array.md").read_text()
    assert rows["big_array"]["04.2"] == "0" and "shape (300, 300)" in text
    assert "never assigned" not in text.split("04.2")[1].split("\n")[0]


def test_right_answers_score_and_nothing_else_does(graded):
    _, rows = graded
    assert [rows["all_right"][i] for i in IDS] == [_full(i) for i in IDS]
    for name in ("unanswered", "printer", "redefines_check", "not_a_notebook", "typed_in"):
        assert rows[name]["total"] == "0", name


def test_a_notebook_that_raises_keeps_the_points_before(graded):
    out, rows = graded
    assert rows["raises"]["04.1"] == _full("04.1") and rows["raises"]["04.3"] == _full("04.3")
    text = (out / "feedback" / "raises.md").read_text()
    # the error quotes the line that raised, under the heading it stands below
    assert "at line 1: raise RuntimeError('half-way'): RuntimeError: half-way" in text
    assert "cell 2" not in text


def test_a_slow_cell_is_interrupted_and_the_rest_runs(graded):
    out, rows = graded
    assert rows["slow_cell"]["04.1"] == _full("04.1")
    assert rows["slow_cell"]["04.3"] == _full("04.3")
    assert "KeyboardInterrupt" in (out / "feedback" / "slow_cell.md").read_text()


def test_a_cell_deaf_to_the_interrupt_is_killed_at_its_limit(graded):
    # the cell limit is 30 s and the notebook's 150 s: the kernel is killed at the cell's
    # limit (and a grace), not left running to the notebook's
    out, rows = graded
    assert rows["never_ends"]["04.1"] == _full("04.1") and rows["never_ends"]["04.2"] == "0"
    text = (out / "feedback" / "never_ends.md").read_text()
    assert "ran past its 30 s limit and did not stop when interrupted" in text
    assert "notebook's 150 s limit" not in text


def test_feedback_gives_the_verdict_and_the_hint_never_the_answer(graded):
    out, _ = graded
    text = (out / "feedback" / "wrong.md").read_text()
    line = next(t for t in text.splitlines() if t.startswith("| 04.1 "))
    assert "✗" in line and "factor of 2" in line
    assert line.startswith("| 04.1 · Exercise 1 · Your own bisection (under “Exercises”) |")
    rest = sum(FULL.values()) - FULL["04.1"]
    assert f"Score **{rest:g} / {TOTAL}**" in text
    assert "✓" in next(t for t in text.splitlines() if t.startswith("| 04.2 "))
    assert f"{answers.expected('04.1'):.4f}" not in text
    assert "never assigned" in (out / "feedback" / "printer.md").read_text()
    assert "not a readable notebook" in (out / "feedback" / "not_a_notebook.md").read_text()


def test_the_kernel_side_encoding_round_trips():
    values = {
        "a": 1.5,
        "b": np.float64(np.nan),
        "c": np.array([[1.0, 2.5], [3.0, float("inf")]]),
        "d": (np.int64(7), True, ...),
        "e": [1, 2],
        "f": "text",
        "g": lambda p, q: 1.0,
        "h": np.array([True, False]),
    }
    namespace = {"g": values, "names": list(values), "open_ids": {}, "clean_path": sys.path}
    exec(ENCODER, namespace)
    decoded = {k: decode(v) for k, v in json.loads(namespace["result"]).items()}
    assert decoded["a"] == 1.5 and np.isnan(decoded["b"])
    np.testing.assert_array_equal(decoded["c"], values["c"])
    assert decoded["d"] == (7, True, ...) and decoded["e"] == [1, 2] and decoded["f"] == "text"
    assert "function" in repr(decoded["g"])
    assert decoded["h"].dtype == bool and decoded["h"].tolist() == [True, False]


def test_a_renamed_student_notebook_is_recognised():
    path = notebook_paths()[4]
    stems = [p.stem for p in notebook_paths()]
    student = student_version(nbformat.read(path, as_version=4), path.stem)
    assert identify(student, "alice.ipynb", stems) == path.stem
    del student.metadata["choosing_epsilon"]  # stripped: the file name says which
    assert identify(student, "04_bob.ipynb", stems) == path.stem
    # neither: the check calls do
    assert identify(student, "bob.ipynb", stems) == path.stem
    # metadata naming no course notebook is not trusted
    student.metadata["choosing_epsilon"] = {"notebook": "../../etc/passwd"}
    assert identify(student, "bob.ipynb", stems) == path.stem


def test_parameters_are_injected_after_the_parameters_cell():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("params_10_1 = {'k': 1.0}", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("answer_10_1 = params_10_1['k']"),
    ]
    injected = inject(nb, {"params_10_1": {"k": 2.5}})
    assert [c.source.splitlines()[-1] for c in injected.cells][1:3] == [
        "params_10_1 = {'k': 1.0}",
        "params_10_1 = {'k': 2.5}",
    ]
    assert injected.cells[2].metadata["tags"] == ["injected-parameters"]
    assert len(nb.cells) == 3  # the submission itself is untouched


@pytest.mark.notebooks
def test_every_course_notebook_scores_everything_at_drawn_parameters(
    tmp_path, student_site, sandbox_required
):
    """Every course notebook, rerun by the grader in its sandbox at parameters drawn for it
    (never the shown ones: ``draw_parameters``) and injected after its cell tagged
    ``parameters``, scores every part. The secret is fixed, so the parameters drawn are the
    same on every run and a failure reproduces. That the student editions hold no answer is
    read from their one run in the student's environment (tests/instructor/test_student.py:
    every answer variable nothing but ``...`` at the end, and a blank edition graded 0 by this
    grader there); grading each of them here too ran every edition a second time."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    for path in notebook_paths():
        nbformat.write(
            nbformat.read(path, as_version=4), folder / f"instructor_{path.stem[:2]}.ipynb"
        )
    rows = grade(
        folder,
        tmp_path / "out",
        python=sys.executable,
        site=student_site,
        secret=fixed_secret(tmp_path / "secret"),
        unsafe_no_cgroup=NO_CGROUP,
        timeout=900,
        jobs=2,
    )
    assert sorted(row["submission"] for row in rows) == [
        f"instructor_{p.stem[:2]}" for p in notebook_paths()
    ]
    wrong = []
    for row in rows:
        number = row["submission"][-2:]
        for i in (i for i in answers.known_ids() if i.startswith(number + ".")):
            full = sum(p.max_points for p in scoring.score(i, {}, ...))
            if row.get(i) != full:
                wrong.append((row["submission"], i, row.get(i), full))
    assert wrong == []


def test_without_a_sandbox_only_when_told(tmp_path, student_site):
    folder = tmp_path / "in"
    folder.mkdir()
    nbformat.write(SUBMISSIONS["all_right"], folder / "all_right.ipynb")
    rows = grade(
        folder,
        tmp_path / "out",
        python=sys.executable,
        site=student_site,
        secret=fixed_secret(tmp_path / "secret"),
        timeout=60,
        cell_timeout=20,
        unsafe_no_sandbox=True,
    )
    assert f"{rows[0]['total']:g}" == TOTAL


def test_the_notebook_limit_kills_the_whole_sandbox(tmp_path, student_site, sandbox_required):
    # the notebook's limit (40 s) comes before the cell's (120 s): the sandbox is killed with
    # every process in it, a setsid helper included; the answer read before counts
    marker = "grade-timeout-marker-51c2"
    folder = tmp_path / "in"
    folder.mkdir()
    nb = _notebook(
        "answer_04_1 = 0.25",
        "import subprocess, sys, time\n"
        f"subprocess.Popen(['setsid', sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}])\n"
        "time.sleep(600)",
    )
    nbformat.write(nb, folder / "sleeper.ipynb")
    grade(
        folder,
        tmp_path / "out",
        python=sys.executable,
        site=student_site,
        secret=fixed_secret(tmp_path / "secret"),
        unsafe_no_cgroup=NO_CGROUP,
        timeout=40,
        cell_timeout=120,
    )
    text = (tmp_path / "out" / "feedback" / "sleeper.md").read_text()
    # read before the limit (and wrong at the drawn parameters): judged, not "never assigned"
    assert "never assigned" not in next(t for t in text.splitlines() if t.startswith("| 04.1 "))
    assert "stopped at the notebook's 40 s limit" in text
    left = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                left.append(entry.name)
        except OSError:
            pass
    assert left == []


# --- every row its own student's, every text from a submission escaped, the gradebooks ---
# (no sandbox: identities, escaping, written answers and the exports are plain functions)

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


def test_a_collision_holds_back_only_its_files_and_the_class_is_graded(
    tmp_path, monkeypatch, capsys
):
    """Issue 51: one student's file name never stops the class. Files that would share a row or
    a feedback file are held back and named, with the fix; every other submission is graded
    and written, and the run still ends in an error, so the instructor sees it."""
    from instructor.grading import sandbox

    monkeypatch.setattr(sandbox, "available", lambda: None)
    monkeypatch.setattr(sandbox, "bound_choice", lambda: ("cgroup v1", ""))
    monkeypatch.setattr(grader, "run_notebook", lambda *a, **k: pytest.fail("ran"))
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a b.ipynb", "a_b.ipynb", "Ann.ipynb", "ann.ipynb", "carol.ipynb"):
        nbformat.write(nbformat.v4.new_notebook(), folder / name)  # no notebook: not run
    with pytest.raises(ValueError) as raised:
        grader.grade(
            folder, tmp_path / "out", python=sys.executable, secret=fixed_secret(tmp_path / "s")
        )
    said = str(raised.value)
    assert "'a b.ipynb' and 'a_b.ipynb' both clean to the feedback name 'a_b'" in said
    assert "'Ann.ipynb' and 'ann.ipynb' both clean to the feedback name" in said
    assert "1 submissions graded and written; the 4 files above are not" in said
    assert said.count("held back, not graded") == 2  # one line per clash, each pair once
    assert "held back, not graded: 'a b.ipynb'" in capsys.readouterr().err
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        students = [row["student"] for row in csv.DictReader(f)]
    assert students == ["carol"]
    assert sorted(p.name for p in (tmp_path / "out" / "feedback").iterdir()) == ["carol.md"]


def test_identities_hold_back_every_clash_and_keep_the_rest_in_order(tmp_path):
    held = []
    paths = [tmp_path / n for n in ("zoe.ipynb", "x+1.ipynb", "bob.ipynb", "x 1.ipynb")]
    named = grader.identities(paths, held=held)
    assert [student for _, student, _ in named] == ["zoe", "bob"]
    assert held == [
        "held back, not graded: 'x+1.ipynb' and 'x 1.ipynb' both clean to the feedback name "
        "'x_1'; rename them and grade them again"
    ]
    roster = tmp_path / "roster.csv"
    roster.write_text("student,file\nS-1,zoe.ipynb\nS-1,bob.ipynb\n", encoding="utf-8")
    held = []
    named = grader.identities(paths[:1] + paths[2:3], grader.read_roster(roster), held=held)
    assert named == [] and "would share one student 'S-1'" in held[0]


def test_a_roster_gives_each_file_its_lms_id(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("student,file\nS-001,alice.ipynb\nS-002,bob\n", encoding="utf-8")
    read = grader.read_roster(roster)
    named = grader.identities([tmp_path / "alice.ipynb", tmp_path / "bob.ipynb"], read)
    assert [s for _, s, _ in named] == ["S-001", "S-002"]
    roster.write_text("student,file\nS-001,alice.ipynb\nS-001,bob.ipynb\n", encoding="utf-8")
    with pytest.raises(ValueError, match="would share one student 'S-001'"):
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


def test_files_of_the_environment_that_name_host_paths_get_neutral_copies(tmp_path):
    prefix = tmp_path / "checkout" / "build" / "grade-env"
    site = prefix / "lib" / "python3.11" / "site-packages"
    (site / "pkg-1.0.dist-info").mkdir(parents=True)
    home = "/home/teacher/"
    paths = grader._host_paths(str(prefix), home + ".pyenv/versions/3.11.7")
    paths[home] = "/home/instructor/"  # this test's home, whatever the machine's
    named = {
        "lib/python3.11/site-packages/__editable___pkg_finder.py": f"MAP = {{'pkg': '{prefix}/src'}}",
        "lib/python3.11/site-packages/pkg-1.0.dist-info/direct_url.json": (
            f'{{"url": "file://{home}wheels/pkg-1.0.whl"}}'
        ),
        "lib/python3.11/site-packages/pkg-1.0.dist-info/RECORD": (
            f"{prefix}/bin/tool,,\n../../../bin/tool,,\n"
        ),
        "lib/python3.11/site-packages/extra.pth": f"{home}.pyenv/versions/3.11.7/lib\n",
    }
    plain = {
        "lib/python3.11/site-packages/distutils-precedence.pth": "import os\n",
        "lib/python3.11/site-packages/pkg-1.0.dist-info/METADATA": "see /root.dat and /rooted\n",
        "lib/python3.11/site-packages/pkg/inside.py": f"# {prefix} deeper than pip writes\n",
    }
    for relative, text in {**named, **plain}.items():
        (prefix / relative).parent.mkdir(parents=True, exist_ok=True)
        (prefix / relative).write_text(text)
    overlays = dict(grader.neutral_overlays(prefix, paths))
    assert set(overlays) == set(named)
    for data in overlays.values():
        text = data.decode()
        assert str(prefix) not in text and home not in text, text
        assert "/opt/env" in text or "/opt/python" in text or "/home/instructor/" in text
    assert (
        "../../../bin/tool"
        in overlays["lib/python3.11/site-packages/pkg-1.0.dist-info/RECORD"].decode()
    )


def test_the_sandbox_command_makes_neutral_places_readable_and_hides_a_directory():
    args = sandbox.command(
        ["/opt/env/bin/python"],
        binds=[("/somewhere/env", "/opt/env"), ("/x/cfg", "/opt/env/pyvenv.cfg")],
        uid=None,
        hide=("/opt/env/bin",),
        symlinks=(("/opt/python/bin/python3.11", "/opt/env/bin/python"),),
    )
    text = " ".join(args)
    assert "--perms 0755 --dir /opt " in text  # bubblewrap's own parents are mode 0700
    order = [
        text.index("--ro-bind /somewhere/env /opt/env "),
        text.index("--ro-bind /x/cfg /opt/env/pyvenv.cfg"),
        text.index("--tmpfs /opt/env/bin"),
        text.index("--symlink /opt/python/bin/python3.11 /opt/env/bin/python"),
        text.index("--remount-ro /opt/env/bin"),
        text.index("--remount-ro / "),
    ]
    assert order == sorted(order)


def test_the_grading_environment_is_compiled_as_if_at_its_place_in_the_sandbox(tmp_path):
    env = tmp_path / "checkout" / "build" / "grade-env"
    package = env / "lib" / "python3.11" / "site-packages" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("def where():\n    return __file__\n")
    grader.neutral_bytecode(Path(sys.executable), env)
    (compiled,) = (package / "__pycache__").glob("__init__.*.pyc")
    data = compiled.read_bytes()
    assert str(tmp_path).encode() not in data
    assert b"/opt/env/lib/python3.11/site-packages/pkg/__init__.py" in data


def test_the_grader_writes_through_report_py():
    """grade.py's feedback and gradebooks are report.py's (one definition of each)."""
    from instructor.grading import report

    assert grader.feedback is report.feedback and grader.gradebooks is report.gradebooks
    assert grader.csv_field is report.csv_field
