"""course.py grade: answers read from the kernel, judged against the instructor's, never faked.

Small synthetic submissions (a few cells each) keep these tests quick; the course notebooks
themselves are graded in the slow test at the end (the instructor's editions score every
exercise, the unanswered student editions score 0). The kernels run in this environment's
Python with the student's helpers first on their path, each in its sandbox; the student
bundle's own environment is graded in test_student.py, the attacks in test_attacks.py.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest

from helpers.exercises import answers, variable
from helpers.notebooks import notebook_paths
from instructor.grading import scoring
from instructor.grading.grade import decode, grade, identify, inject
from instructor.grading.runner import ENCODER
from instructor.student import student_version

IDS = ("04.1", "04.2", "04.3")


def _literal(value) -> str:
    """Python source for an expected value (computed by the helpers, never typed)."""
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r})"
    if isinstance(value, tuple):
        return "(" + ", ".join(_literal(v) for v in value) + ",)"
    return repr(float(value)) if isinstance(value, float) else repr(value)


#: each answer computed from the parameters the grader injects (``params_04_K``), as a student's
#: code must: the grade draws parameters per submission, so a typed-in value scores nothing
COMPUTED = {
    "04.1": "from helpers.datasets import school, school_release\n"
    "from helpers.lee_clifton import binary_search_epsilon\n"
    "answer_04_1 = binary_search_epsilon(\n"
    '    school()["absence_days"], len(school_release()), "mean", params_04_1["risk"]\n'
    ")",
    "04.2": "from helpers.datasets import school, school_release\n"
    "from helpers.lee_clifton import epsilon_upper_bound\n"
    "answer_04_2 = np.array([\n"
    '    [epsilon_upper_bound(school()[c], len(school_release()), "mean", r)\n'
    '     for c in ("school_year", "absence_days")]\n'
    '    for r in params_04_2["risks"]\n'
    "])",
    "04.3": "from helpers.lee_clifton import count_worlds\n"
    'answer_04_3 = 1 / count_worlds([1, 2, 3, 10, 4, 6, 0, 5], params_04_3["size"])',
}


def _assign(exercise_id: str) -> str:
    return COMPUTED[exercise_id]


def _notebook(*sources: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in ("import numpy as np", *sources)]
    nb.metadata["choosing_epsilon"] = {"notebook": "04_binary_search", "exercises": list(IDS)}
    return nb


SUBMISSIONS = {
    "all_right": _notebook(*(_assign(i) for i in IDS)),
    "unanswered": _notebook(*(f"{variable(i)} = ..." for i in IDS)),
    # prints what a perfect run prints, assigns nothing
    "printer": _notebook(*(f'print("✓ {i}: correct")' for i in IDS)),
    # a check that always says yes, in the namespace and in the module, and no answers
    "redefines_check": _notebook(
        "import helpers.exercises as e\ncheck = e.check = e.judge_answer = lambda *a, **k: True",
        *(f"{variable(i)} = 0.5\ncheck('{i}', {variable(i)})" for i in IDS),
    ),
    # raises half-way: the answer before counts (and, like nbgrader, the cells after run)
    "raises": _notebook(_assign("04.1"), "raise RuntimeError('half-way')", _assign("04.2")),
    # a cell that sleeps past its limit is interrupted; the next cell still runs
    "slow_cell": _notebook(_assign("04.1"), "import time\ntime.sleep(600)", _assign("04.3")),
    # never ends and ignores the interrupt: stopped at the notebook's limit, keeps 04.1
    "never_ends": _notebook(
        _assign("04.1"),
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass",
        _assign("04.2"),
    ),
    # a large array (a values line of about 2 MB) is read whole, then judged
    "big_array": _notebook("answer_04_2 = np.zeros((300, 300))"),
    # a wrong answer: 0 with a hint in the feedback
    "wrong": _notebook(_assign("04.1") + "\nanswer_04_1 = 2 * answer_04_1", _assign("04.2")),
    # the notebook's shown answers typed in: right only at the shown parameters, never drawn
    "typed_in": _notebook(*(f"{variable(i)} = {_literal(answers.expected(i))}" for i in IDS)),
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
    other = _notebook(_assign("04.1"))
    other.metadata["choosing_epsilon"] = {"notebook": OTHER}
    nbformat.write(other, folder / "other_notebook.ipynb")
    out = tmp_path_factory.mktemp("out")
    grade(
        folder,
        out,
        python=sys.executable,
        site=student_site,
        secret=tmp_path_factory.mktemp("secret") / "secret",
        timeout=40,
        cell_timeout=6,
        jobs=2,
    )
    with (out / "grades.csv").open(encoding="utf-8") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    return out, rows


def test_grades_csv_has_one_row_per_notebook_and_a_total(graded):
    out, rows = graded
    header = (out / "grades.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "submission,notebook," + ",".join([*IDS, *TEN]) + ",total,max"
    assert set(rows) == {*SUBMISSIONS, "not_a_notebook", "other_notebook"}
    for name, row in rows.items():
        if name == "not_a_notebook":
            assert row["total"] == "0" and row["max"] == "0" and row["04.1"] == ""
            continue
        if name == "other_notebook":  # its own notebook's exercises, none of 04's
            assert [row[i] for i in IDS] == ["", "", ""] and row["notebook"] == OTHER
            assert row["max"] == str(len(TEN)) and row["total"] == "0"
            continue
        assert [row[i] for i in TEN] == [""] * len(TEN)
        points = [int(row[i]) for i in IDS]
        assert set(points) <= {0, 1} and int(row["total"]) == sum(points)
        assert row["max"] == "3" and row["notebook"] == "04_binary_search"
    for name in rows:
        assert (out / "feedback" / f"{name}.md").exists()


def test_a_large_array_is_read_whole_and_judged(graded):
    out, rows = graded
    text = (out / "feedback" / "big_array.md").read_text()
    assert rows["big_array"]["04.2"] == "0" and "shape (300, 300)" in text
    assert "never assigned" not in text.split("04.2")[1].split("\n")[0]


def test_right_answers_score_and_nothing_else_does(graded):
    _, rows = graded
    assert [rows["all_right"][i] for i in IDS] == ["1", "1", "1"]
    for name in ("unanswered", "printer", "redefines_check", "not_a_notebook", "typed_in"):
        assert rows[name]["total"] == "0", name


def test_a_notebook_that_raises_keeps_the_points_before(graded):
    out, rows = graded
    assert rows["raises"]["04.1"] == "1"
    text = (out / "feedback" / "raises.md").read_text()
    # the error quotes the line that raised, under the heading it stands below
    assert "at line 1: raise RuntimeError('half-way'): RuntimeError: half-way" in text
    assert "cell 2" not in text


def test_a_slow_cell_is_interrupted_and_the_rest_runs(graded):
    out, rows = graded
    assert rows["slow_cell"]["04.1"] == "1" and rows["slow_cell"]["04.3"] == "1"
    assert "KeyboardInterrupt" in (out / "feedback" / "slow_cell.md").read_text()


def test_a_cell_deaf_to_the_interrupt_is_killed_at_its_limit(graded):
    # the cell limit is 6 s and the notebook's 40 s: the kernel is killed at the cell's
    # limit (and a grace), not left running to the notebook's
    out, rows = graded
    assert rows["never_ends"]["04.1"] == "1" and rows["never_ends"]["04.2"] == "0"
    text = (out / "feedback" / "never_ends.md").read_text()
    assert "ran past its 6 s limit and did not stop when interrupted" in text
    assert "notebook's 40 s limit" not in text


def test_feedback_gives_the_verdict_and_the_hint_never_the_answer(graded):
    out, _ = graded
    text = (out / "feedback" / "wrong.md").read_text()
    assert "✗ 04.1: my_eps is too large by a factor of 2" in text
    assert "| 04.1 · Exercise 1 · Your own bisection (under “Exercises”) |" in text
    assert "Score **1 / 3**" in text
    assert "✓ 04.2: correct" in text
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
def test_instructor_notebooks_score_everything_and_student_notebooks_nothing(
    tmp_path, student_site, sandbox_required
):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for path in notebook_paths():
        nb = nbformat.read(path, as_version=4)
        nbformat.write(nb, folder / f"instructor_{path.stem[:2]}.ipynb")
        nbformat.write(student_version(nb, path.stem), folder / f"student_{path.stem[:2]}.ipynb")
    rows = grade(
        folder,
        tmp_path / "out",
        python=sys.executable,
        site=student_site,
        secret=tmp_path / "secret",
        timeout=900,
        jobs=2,
    )
    for row in rows:
        number = row["submission"][-2:]
        own = [i for i in answers.known_ids() if i.startswith(number + ".")]
        # every part of every exercise, at its points (10.2's two values are two parts)
        full = {i: sum(p.max_points for p in scoring.score(i, {}, ...)) for i in own}
        if row["submission"].startswith("instructor"):
            assert {i: float(row[i]) for i in own} == full, row
        else:
            assert {float(row[i]) for i in own} == {0.0}, row


def test_without_a_sandbox_only_when_told(tmp_path, student_site):
    folder = tmp_path / "in"
    folder.mkdir()
    nbformat.write(SUBMISSIONS["all_right"], folder / "all_right.ipynb")
    rows = grade(
        folder,
        tmp_path / "out",
        python=sys.executable,
        site=student_site,
        secret=tmp_path / "secret",
        timeout=60,
        cell_timeout=20,
        unsafe_no_sandbox=True,
    )
    assert rows[0]["total"] == 3


def test_the_notebook_limit_kills_the_whole_sandbox(tmp_path, student_site, sandbox_required):
    # the notebook's limit (15 s) comes before the cell's (60 s): the sandbox is killed with
    # every process in it, a setsid helper included; the answer read before counts
    marker = "grade-timeout-marker-51c2"
    folder = tmp_path / "in"
    folder.mkdir()
    nb = _notebook(
        _assign("04.1"),
        "import subprocess, sys, time\n"
        f"subprocess.Popen(['setsid', sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}])\n"
        "time.sleep(600)",
    )
    nbformat.write(nb, folder / "sleeper.ipynb")
    rows = grade(
        folder,
        tmp_path / "out",
        python=sys.executable,
        site=student_site,
        secret=tmp_path / "secret",
        timeout=15,
        cell_timeout=60,
    )
    assert rows[0]["04.1"] == 1 and rows[0]["total"] == 1
    text = (tmp_path / "out" / "feedback" / "sleeper.md").read_text()
    assert "stopped at the notebook's 15 s limit" in text
    left = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                left.append(entry.name)
        except OSError:
            pass
    assert left == []
