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
from _modules import ROOT

from helpers.exercises import answers, variable
from helpers.notebooks import notebook_paths
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
    # deaf to the interrupt: the kernel is killed at the cell's limit; 04.1 was read before
    "never_ends": _computed(
        {
            "04.1": "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass"
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
        secret=tmp_path_factory.mktemp("secret") / "secret",
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
    assert header == "student,submission,notebook," + ",".join([*IDS, *TEN]) + ",total,max"
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
        unsafe_no_cgroup=NO_CGROUP,
        timeout=900,
        jobs=2,
    )
    wrong = []
    for row in rows:
        number = row["submission"][-2:]
        for i in (i for i in answers.known_ids() if i.startswith(number + ".")):
            full = sum(p.max_points for p in scoring.score(i, {}, ...))
            expected = full if row["submission"].startswith("instructor") else 0
            if row.get(i) != expected:
                wrong.append((row["submission"], i, row.get(i), expected))
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
        secret=tmp_path / "secret",
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
        secret=tmp_path / "secret",
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
