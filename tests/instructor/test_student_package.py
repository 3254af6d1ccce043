"""What the student's wheel is built from: an include list (``instructor.student``).

Every module and package of ``helpers/`` is a decision: in ``STUDENT_MODULES`` (students run
it) or in ``NOT_FOR_STUDENTS`` (the answers); the builder and the grader are not in
``helpers/`` at all. The wheel itself is checked in test_student.py (slow: it builds it).
"""

from __future__ import annotations

from _modules import ROOT

from instructor.student import NOT_FOR_STUDENTS, STUDENT_MODULES, stage_package, student_files


def _entries() -> set[str]:
    helpers = ROOT / "helpers"
    found = set()
    for path in helpers.iterdir():
        if path.name in ("__pycache__", "exercises") or path.name.startswith("."):
            continue
        found.add(path.stem if path.suffix == ".py" else path.name)
    for path in (helpers / "exercises").iterdir():
        if path.name == "__pycache__" or path.name.startswith((".", "_key_data")):
            continue
        found.add("exercises/" + (path.stem if path.suffix == ".py" else path.name))
    return found


def test_every_module_of_helpers_is_for_students_or_listed_as_not():
    listed = set(STUDENT_MODULES) | set(NOT_FOR_STUDENTS)
    assert _entries() - listed == set(), "add each to STUDENT_MODULES or NOT_FOR_STUDENTS"
    assert set(STUDENT_MODULES) & set(NOT_FOR_STUDENTS) == set()


def test_the_builder_and_the_grader_are_instructors_tools():
    for name in ("student.py", "grade.py", "_runner.py"):
        assert not (ROOT / "helpers" / "exercises" / name).exists()
    assert (ROOT / "instructor" / "student.py").exists()
    assert (ROOT / "instructor" / "grading" / "grade.py").exists()


def test_the_staged_package_holds_the_list_and_no_answer(tmp_path):
    files = {p.as_posix() for p in student_files()}
    assert "exercises/_core.py" in files and "plrv.py" in files
    assert not [f for f in files if f.startswith("exercises/answers")]
    stage_package(tmp_path / "stage", "readme", {})
    staged = {
        p.relative_to(tmp_path / "stage" / "helpers").as_posix()
        for p in (tmp_path / "stage" / "helpers").rglob("*")
        if p.is_file()
    }
    assert staged == files | {"exercises/_key_data.py"}
