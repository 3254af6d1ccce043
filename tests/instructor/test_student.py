"""The student bundle stands alone, holds no answer, runs as its README says; the student site.

Slow (marked ``notebooks``): the bundle is built once (``python3 course.py student``, its
notebooks not executed by the build), unzipped into an empty temporary directory outside the
repository, installed into a fresh venv by exactly the commands its README gives for Linux and
macOS (pip's own download cache makes a second run quick), and every notebook is executed
once, in that venv, where OpenDP is not installed (a cell needing it fails there as in the
build's own run): the leak search, the answers' "not answered yet" and the student site all
read that one run. The build's own run (each notebook with the wheel first on the path) ran
the same 13 notebooks a second time (about a minute); it is tested on a small notebook in
``test_the_student_edition_runs_without_opendp``, and CI's ``.ci/reader_check.py`` runs
``course.py student`` in full. The times are printed (``pytest -s``) so they can be reported.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat
import pytest
from _modules import ROOT, remove_later

from helpers.exercises import answers, variable
from helpers.notebooks import merge_streams, notebook_paths
from instructor.grading.scoring import exercise_ids
from instructor.student import (
    BUNDLE_NAME,
    EXECUTED,
    LAB_EXTENSION,
    LAB_EXTENSION_TARGET,
    NOT_FOR_STUDENTS,
    STUDENT_MODULES,
    broken_links,
    build,
    docstring_leaks,
    forbidden_in_wheel,
    leaks,
    stage_package,
    student_files,
)

#: Runs in the fresh venv: execute every notebook of the bundle, write the executed copies,
#: and what each answer variable holds at the end (``answers.json``): a cell appended to the
#: run asks the kernel, and is taken out again before the copy is written.
EXECUTE_ALL = """
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
import nbformat
from nbclient import NotebookClient
from traitlets.config import Config
from helpers.exercises import variable
out = Path(sys.argv[2])
held = {}
for path in sorted(Path(sys.argv[1]).glob("[0-9][0-9]_*.ipynb")):
    nb = nbformat.read(path, as_version=4)
    names = [variable(i) for i in nb.metadata["choosing_epsilon"]["exercises"]]
    nb.cells.append(nbformat.v4.new_code_cell(__ASK__ % repr(names)))
    # as helpers.notebooks.make_client: on a busy machine no output goes missing silently, and
    # the kernel's channels are Unix sockets in a private folder (no port to race for)
    folder = tempfile.mkdtemp(prefix="kernel-ipc-")
    ipc = {"transport": "ipc", "ip": os.path.join(folder, "k")}
    config = Config() if os.name == "nt" else Config({"KernelManager": ipc})
    NotebookClient(nb, config=config, timeout=900, kernel_name="python3", record_timing=False,
                   iopub_timeout=300, raise_on_iopub_timeout=True, startup_timeout=300,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    shutil.rmtree(folder, ignore_errors=True)
    asked = nb.cells.pop()
    # its one line, found by its mark (a busy machine may split a print across outputs)
    said = "".join(o["text"] for o in asked.outputs if o.get("name") == "stdout")
    (line,) = [x for x in said.splitlines() if x.startswith("answers held: ")]
    held[path.name] = json.loads(line.removeprefix("answers held: "))
    nbformat.write(nb, out / path.name)
    print("ran", path.name, flush=True)
(out / "answers.json").write_text(json.dumps(held), encoding="utf-8")
"""

#: The cell appended to each run: what each answer variable (``%s``: their names) holds at the
#: end: "unset", "not answered" (nothing but ``...`` in it, however deep) or its type's name.
ASK = (
    "import json as _j\n"
    "def _bare(v):\n"
    "    if isinstance(v, (tuple, list)):\n"
    "        return all(_bare(x) for x in v)\n"
    "    return v is Ellipsis\n"
    "print('answers held: ' + _j.dumps({n: 'unset' if n not in globals() else 'not answered'"
    " if _bare(globals()[n]) else type(globals()[n]).__name__ for n in %s}))"
)
EXECUTE_ALL = EXECUTE_ALL.replace("__ASK__", repr(ASK))

#: Runs in the fresh venv: what a student can import.
PROBE = """
import importlib.util, json, sys
import helpers.exercises as e
report = {
    "answers": importlib.util.find_spec("helpers.exercises.answers") is not None,
    "grade": importlib.util.find_spec("instructor") is not None,
    "get": hasattr(e, "get"),
    "ids": e.known_ids(),
}
expected = json.loads(sys.argv[1])
report["right"] = {i: e.check(i, tuple(v) if isinstance(v, list) else v) for i, v in expected.items()}
report["hint"] = e.judge_answer("10.3", expected["10.3"] + 1)[1]
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def bundle():
    started = time.monotonic()
    # raises on a link outside the bundle, a file it must not hold, an answer in a docstring
    # or a quiz; the notebooks are executed once, in the student's venv (``executed``)
    result = build(run=False)
    print(f"\ncourse.py student (build, not run): {time.monotonic() - started:.0f} s")
    return result


@pytest.fixture(scope="module")
def installed(bundle):
    """The zip unzipped outside the repository and installed as the README says."""
    home = Path(tempfile.mkdtemp(prefix="student-bundle-"))
    try:
        assert not home.resolve().is_relative_to(ROOT)
        zipfile.ZipFile(bundle["zip"]).extractall(home)
        folder = home / BUNDLE_NAME
        readme = (folder / "README.md").read_text(encoding="utf-8")
        commands = re.search(r"Linux and macOS:\n\n```bash\n(.*?)```", readme, re.S).group(1)
        install, start = commands.strip().splitlines()
        began = time.monotonic()
        subprocess.run(["bash", "-c", install], cwd=folder, check=True, timeout=1800)
        seconds = time.monotonic() - began
        print(
            f"\nfresh venv + pip install -r requirements.txt (pip cache warm or not): {seconds:.0f} s"
        )
        yield {"folder": folder, "python": folder / ".venv" / "bin" / "python", "start": start}
    finally:
        remove_later(home)  # the venv's 29,000 files: 65 s of teardown when waited for


@pytest.fixture(scope="module")
def ran(installed, tmp_path_factory) -> tuple[dict, dict]:
    """Every notebook of the bundle executed in the fresh venv, once for every test that reads
    it: the executed copies (``executed``) and what each answer variable held at the end."""
    out = tmp_path_factory.mktemp("executed-in-venv")
    began = time.monotonic()
    result = subprocess.run(
        [str(installed["python"]), "-c", EXECUTE_ALL, "notebooks", str(out)],
        cwd=installed["folder"],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    print(f"\nevery notebook executed in the fresh venv: {time.monotonic() - began:.0f} s")
    assert result.returncode == 0, result.stderr[-4000:]
    notebooks = {
        p.name: merge_streams(nbformat.read(p, as_version=4)) for p in sorted(out.glob("*.ipynb"))
    }
    shutil.rmtree(EXECUTED, ignore_errors=True)
    EXECUTED.mkdir(parents=True)
    for name, nb in notebooks.items():
        nbformat.write(nb, EXECUTED / name)
    return notebooks, json.loads((out / "answers.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def executed(ran) -> dict:
    """The executed copies (streams merged, as the build writes them), also where ``course.py
    student`` leaves its run for the student site (build/student-executed/)."""
    return ran[0]


@pytest.mark.notebooks
def test_the_bundle_holds_notebooks_wheel_readme_and_nothing_outside(bundle):
    folder = bundle["bundle"]
    assert sorted(p.name for p in (folder / "notebooks").glob("*.ipynb")) == [
        p.name for p in notebook_paths()
    ]
    assert broken_links(folder) == []
    names = zipfile.ZipFile(bundle["zip"]).namelist()
    assert all(n.startswith(f"{BUNDLE_NAME}/") for n in names)
    wheel = zipfile.ZipFile(bundle["wheel"]).namelist()
    for forbidden in NOT_FOR_STUDENTS:
        assert not [n for n in wheel if n.startswith(f"helpers/{forbidden}")]
    assert forbidden_in_wheel(bundle["wheel"]) == []
    assert not [n for n in wheel if n.startswith("instructor/")]
    assert "helpers/exercises/_key_data.py" in wheel
    for path in (folder / "notebooks").glob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        assert not [c for c in nb.cells if "solution" in c.metadata.get("tags", [])]
        assert all(c.get("outputs", []) == [] for c in nb.cells if c.cell_type == "code")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for words in ("Linux and macOS", "Windows (PowerShell)", "## References"):
        assert words in readme


@pytest.mark.notebooks
def test_no_answer_is_in_sight_in_the_executed_student_edition(executed):
    """Every expected answer, at every precision, in markdown, code and outputs: no hit."""
    assert sorted(executed) == [p.name for p in notebook_paths()]
    assert leaks(executed) == []


def test_no_answer_is_in_a_docstring_of_the_student_package():
    """help() shows every docstring of the wheel: no exercise's answer at its shown parameters
    (attack_advantage's example once said 0.462, exercise 00.1's (e − 1)/(e + 1))."""
    assert docstring_leaks() == []


def test_the_docstring_scan_finds_a_planted_answer(tmp_path):
    import shutil

    package = tmp_path / "helpers"
    for relative in student_files():
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(__file__).resolve().parents[2] / "helpers" / relative, package / relative)
    value = answers.expected("00.1")[0]  # (advantage, ...): its first value
    (package / "attack.py").write_text(
        f'"""Planted: {value:.3f}; a citation, Proposition 1.6, is not."""\n', encoding="utf-8"
    )
    found = docstring_leaks(package)
    assert any(hit.startswith("00.1: helpers/attack.py <module>") for hit in found)
    assert not any("11.2" in hit and "attack.py" in hit for hit in found)


@pytest.mark.notebooks
def test_the_student_edition_run_to_its_end_holds_no_answer(ran):
    """Every answer variable of every exercise, read from the kernel after the notebook's last
    cell: nothing but ``...`` in it, in every part. A part set by the edition's own code (a
    worked answer left in a cell after the exercise, one part of a tuple filled in) would score
    in the grader, which reads the same variables; the check's "not answered yet" does not
    show it, since one ``...`` in the answer is enough for that. This is what the grader's
    test once showed by grading each student edition too (a second run of every one); the
    grader itself is run on a student edition in the student's environment below."""
    _, held = ran
    assert sorted(held) == [p.name for p in notebook_paths()]
    for name, variables in held.items():
        # the exercises as the grader finds them in the course notebook (its check calls)
        ids = exercise_ids(ROOT / "notebooks" / name)
        assert ids and variables == {variable(i): "not answered" for i in ids}, name


def test_the_question_asked_at_the_end_tells_a_filled_part_from_an_empty_answer(capsys):
    namespace = {
        "answer_01_1": (..., ...),
        "answer_01_2": ...,
        "answer_01_3": (..., 0.25),  # one part filled in: the grader would score it
        "answer_02_1": [[...], (..., ...)],
        "answer_02_2": 0.5,
    }
    names = [*namespace, "answer_02_3"]
    exec(ASK % repr(names), namespace)
    said = capsys.readouterr().out
    assert said.startswith("answers held: ") and said.count("\n") == 1
    assert json.loads(said.removeprefix("answers held: ")) == {
        "answer_01_1": "not answered",
        "answer_01_2": "not answered",
        "answer_01_3": "tuple",
        "answer_02_1": "not answered",
        "answer_02_2": "float",
        "answer_02_3": "unset",
    }


@pytest.mark.notebooks
def test_every_notebook_runs_in_a_fresh_venv_from_the_readme(installed, executed):
    # JupyterLab serves the bundle's folder (the notebooks link to ../NOTATION.md and
    # ../README.md#references) and opens on notebooks/
    assert installed["start"].endswith(
        "/python -m jupyterlab --LabApp.default_url=/lab/tree/notebooks"
    )
    assert len(executed) == len(notebook_paths())
    for name, nb in executed.items():
        text = "".join(
            o.get("text", "") for c in nb.cells for o in c.get("outputs", []) if "text" in o
        )
        for exercise_id in nb.metadata["choosing_epsilon"]["exercises"]:
            assert f"… {exercise_id}: not answered yet" in text, (name, exercise_id)
    assert leaks(executed) == []


@pytest.mark.notebooks
def test_the_students_jupyterlab_loads_the_courses_accessibility_extension(bundle, installed):
    """The wheel carries jupyter-config/labextensions/course-a11y as data files, byte for byte,
    and the student's environment lists it as an enabled prebuilt extension (no option needed)."""
    wheel = zipfile.ZipFile(bundle["wheel"])
    for path in sorted(LAB_EXTENSION.rglob("*")):
        if path.is_file():
            relative = path.relative_to(LAB_EXTENSION).as_posix()
            (name,) = [
                n for n in wheel.namelist() if n.endswith(f"/{LAB_EXTENSION_TARGET}/{relative}")
            ]
            assert wheel.read(name) == path.read_bytes()
    # the environment's own command, as its README starts JupyterLab (`-m jupyter
    # labextension` runs the first `jupyter-labextension` on PATH: a developer's activated
    # .venv listed its own extensions here)
    listed = subprocess.run(
        [str(installed["python"]), "-m", "jupyterlab.labextensions", "list"],
        cwd=installed["folder"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    line = [x for x in (listed.stdout + listed.stderr).splitlines() if "course-a11y" in x]
    assert line and "enabled" in line[0] and "OK" in line[0], listed.stdout + listed.stderr


@pytest.mark.notebooks
def test_the_students_helpers_check_without_holding_the_answers(installed):
    expected = {
        i: answers.expected(i) for i in ("03.1", "04.3", "08.4", "10.3") if i in answers.value_ids()
    }
    as_json = json.dumps(
        {i: v if not hasattr(v, "__len__") else list(v) for i, v in expected.items()}
    )
    result = subprocess.run(
        [str(installed["python"]), "-c", PROBE, as_json],
        cwd=installed["folder"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert not report["answers"] and not report["grade"] and not report["get"]
    assert report["ids"] == answers.known_ids()
    assert all(report["right"].values()), report["right"]
    assert "a little too large" in report["hint"]


@pytest.mark.notebooks
def test_a_blank_student_notebook_grades_zero_in_the_students_environment(installed, tmp_path):
    from instructor.grading.grade import grade

    folder = tmp_path / "in"
    folder.mkdir()
    source = installed["folder"] / "notebooks" / notebook_paths()[10].name
    (folder / "blank.ipynb").write_bytes(source.read_bytes())
    from instructor.grading import sandbox

    rows = grade(
        folder,
        tmp_path / "out",
        python=str(installed["python"]),
        timeout=900,
        jobs=1,
        unsafe_no_cgroup=sandbox.cgroups_available() is not None,
    )
    # student, submission, notebook, the exercises, total, max, flag
    assert rows[0]["total"] == 0 and len(rows[0]) == 6 + len(
        [i for i in answers.known_ids() if i.startswith("10.")]
    )


@pytest.mark.notebooks
def test_the_student_site_has_no_solution_cell(bundle, executed):
    """python3 course.py book --student: no solution cell, no line of a worked answer."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "book" / "build.py"), "--student"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    site = ROOT / "build" / "book-student"
    pages = sorted(site.glob("notebooks/*.html"))
    assert len(pages) == len(notebook_paths())
    assert not (site / "INSTRUCTORS.html").exists()
    solutions = [
        line.strip()
        for path in notebook_paths()
        for cell in nbformat.read(path, as_version=4).cells
        if "solution" in cell.metadata.get("tags", [])
        for line in cell.source.splitlines()
        if len(line.strip()) > 25 and not line.strip().startswith("#")
    ]
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "tag_solution" not in html, page.name
        assert "tag_starter" in html, page.name  # the starters are there instead
        text = re.sub(r"<[^>]+>", " ", html).replace("&quot;", '"').replace("&#39;", "'")
        for line in solutions:
            assert line not in text, (page.name, line)
    # the pages render build/student-executed/ (the venv's run), which the leak test searched


# --- the include list (quick: no wheel is built) ------------------------------------------


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


def test_statement_cells_carry_their_checksum():
    from instructor.student import STATEMENT_KEY, statement_sha256, student_version

    path = next((ROOT / "notebooks").glob("04_*.ipynb"))
    nb = student_version(nbformat.read(path, as_version=4), path.stem)
    marked = [c for c in nb.cells if STATEMENT_KEY in c.metadata.get("choosing_epsilon", {})]
    assert [c.metadata["choosing_epsilon"]["statement"] for c in marked] == ["04.1", "04.2", "04.3"]
    for cell in marked:
        assert cell.cell_type == "markdown" and cell.source.startswith("**Exercise")
        assert cell.metadata["choosing_epsilon"][STATEMENT_KEY] == statement_sha256(cell.source)
    # line ends and trailing spaces do not count; a changed word does
    text = marked[0].source
    assert statement_sha256(text.replace("\n", "\r\n") + "  ") == statement_sha256(text)
    assert statement_sha256(text.replace("Exercise", "Exercice")) != statement_sha256(text)


@pytest.mark.parametrize("version", [(3, 9), (3, 10), (3, 14), (3, 15)])
def test_the_bundle_checks_the_python_before_installing(version, tmp_path):
    """check_python.py, the first install command's first step: one sentence outside the range."""
    from instructor.student import check_python_script, supported_pythons

    script = tmp_path / "check_python.py"
    script.write_text(check_python_script(), encoding="utf-8")
    fake = f"import sys; sys.version_info = {(*version, 'final', 0)!r}; "
    fake += f"exec(compile(open({str(script)!r}).read(), 'check_python.py', 'exec'))"
    result = subprocess.run([sys.executable, "-c", fake], capture_output=True, text=True)
    if version in supported_pythons():
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode == 1
        message = result.stderr.strip()
        assert message.count(". ") == 0 and message.endswith(").")  # one sentence
        assert f"this is Python {version[0]}.{version[1]}" in message and "3.14" in message


# --- what the student's environment leaves out (quick, but for the last test) ---------------


def _name(line: str) -> str:
    from packaging.requirements import Requirement

    return re.sub(r"[-_.]+", "-", Requirement(line).name).lower()


def _pins(text: str) -> list[str]:
    lines = [ln.split(" #", 1)[0].strip() for ln in text.splitlines()]
    return [ln for ln in lines if ln and not ln.startswith(("#", "-", "./"))]


def test_the_student_pins_are_the_readers_less_opendp():
    from instructor.student import STUDENT_LEAVES_OUT, opendp_pin, student_requirements

    reader = _pins((ROOT / "requirements.txt").read_text(encoding="utf-8"))
    student = student_requirements("choosing_epsilon_helpers-1-py3-none-any.whl")
    left_out = {"opendp", "deprecated", "polars", "polars-runtime-32", "pyarrow"}
    assert set(STUDENT_LEAVES_OUT) == left_out
    assert _pins(student) == [ln for ln in reader if _name(ln) not in STUDENT_LEAVES_OUT]
    assert len(_pins(student)) == len(reader) - sum(_name(ln) in left_out for ln in reader)
    assert len(_pins(student)) <= len(reader) - len(left_out)
    assert student.rstrip().endswith("./choosing_epsilon_helpers-1-py3-none-any.whl")
    assert opendp_pin() in reader and opendp_pin().startswith("opendp==")


def test_the_opendp_install_command_adds_what_the_release_needs_at_the_readers_pins():
    """The student's command installs every package the student edition leaves out (OpenDP,
    Polars and its runtime, pyarrow, Deprecated) at requirements.txt's exact pins, pyarrow's
    environment markers kept; each pin, as pip reads it, is the reader's line."""
    from packaging.requirements import Requirement

    from instructor.student import STUDENT_LEAVES_OUT, opendp_install

    reader = [
        Requirement(ln)
        for ln in _pins((ROOT / "requirements.txt").read_text(encoding="utf-8"))
        if _name(ln) in STUDENT_LEAVES_OUT
    ]
    for windows in (False, True):
        command = opendp_install(windows=windows)
        python, rest = command.split(" -m pip install ")
        assert python == (".venv\\Scripts\\python" if windows else ".venv/bin/python")
        # split as a POSIX shell does; PowerShell reads the same double-quoted arguments
        given = [Requirement(arg) for arg in shlex.split(rest)]
        assert sorted(map(str, given)) == sorted(map(str, reader))
        assert {r.name.lower() for r in given} == set(STUDENT_LEAVES_OUT)
        assert all(str(r.specifier).startswith("==") for r in given)


def _required(names: list[str]) -> set[str]:
    """``names`` and everything they require in this environment (extras followed), by
    normalised name, for this Python and platform."""
    from importlib import metadata

    from packaging.requirements import Requirement

    seen, todo = set(), [(name, ("",)) for name in names]
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        for line in metadata.requires(name) or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in extras):
                wanted = ("", *sorted(requirement.extras))
                todo.append((re.sub(r"[-_.]+", "-", requirement.name).lower(), wanted))
    return {name for name, _ in seen}


def test_the_student_pins_are_what_the_notebooks_imports_pull_in():
    """requirements.txt's first part lists what the notebooks and helpers import; the student's
    pins are exactly those (less OpenDP) and what they require, here, with this Python: nothing
    left out that a notebook needs, nothing kept that only OpenDP pulls in."""
    from packaging.requirements import Requirement

    from instructor.student import STUDENT_LEAVES_OUT, student_requirements

    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    imported = text.split("# --- what these pull in")[0]

    def here(lines):
        found = []
        for line in lines:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate():
                found.append(_name(line))
        return found

    direct = [n for n in here(_pins(imported)) if n not in STUDENT_LEAVES_OUT]
    student = set(here(_pins(student_requirements("x-1-py3-none-any.whl"))))
    assert _required(direct) == student


def test_every_cell_that_needs_opendp_is_shown_with_its_recorded_output():
    """In the student edition no code cell runs OpenDP; each such cell of the course's notebooks
    becomes a markdown cell holding its source and its committed outputs as they are (the course's
    notebooks are re-executed with OpenDP and compared by tests/test_notebooks.py)."""
    from instructor.student import (
        _STYLE,
        needs_opendp,
        opendp_cells,
        opendp_install,
        student_version,
    )

    shown = 0
    for path in notebook_paths():
        course = nbformat.read(path, as_version=4)
        student = student_version(course, path.stem)
        assert len(student.cells) == len(course.cells)
        assert not [c for c in student.cells if needs_opendp(c)], path.name
        recorded = opendp_cells(course)
        assert {i for i, c in enumerate(course.cells) if needs_opendp(c)} <= recorded
        for index, (before, after) in enumerate(zip(course.cells, student.cells, strict=True)):
            if index not in recorded:
                continue
            shown += 1
            assert after.cell_type == "markdown" and after.metadata["tags"] == ["recorded"]
            assert after.id == before.id  # issue 51: a build is the same file every time
            assert after.source.startswith("*Shown, not run") and opendp_install() in after.source
            assert opendp_install(windows=True) in after.source  # Windows students too
            assert f"```python\n{before.source.rstrip()}\n```" in after.source
            assert before.outputs, "a cell that needs OpenDP must be committed executed"
            for output in before.outputs:
                if output.output_type == "stream":
                    assert output.text.rstrip() in after.source
                else:
                    html = output.data["text/html"]
                    assert _STYLE.sub("", html).strip() in after.source
                    assert "<style" in html and "<style" not in after.source
    # notebook 12's three: the table by region in one OpenDP Context, the record made from
    # that release (its plan needs no OpenDP), and the mean planned cell by cell (its notes)
    assert shown == 3


def test_a_worked_answer_or_an_unexecuted_cell_that_needs_opendp_is_refused():
    from instructor.student import recorded_cell, student_version

    bare = nbformat.v4.new_code_cell("import opendp.prelude as dp")
    with pytest.raises(ValueError, match="no recorded output"):
        recorded_cell(bare)
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "x = rel.opendp_release(d, a, w, person='p', contributions=1, max_length=9)",
            metadata={"tags": ["solution"]},
        ),
        nbformat.v4.new_code_cell('check("12.9", x, {})'),
    ]
    with pytest.raises(ValueError, match="worked answer in cell 0 needs OpenDP"):
        student_version(nb, "99_x")
    # notebook 12 once printed version("opendp") among its versions: found before any kernel
    nb.cells = [nbformat.v4.new_code_cell('print(version("opendp"))')]
    with pytest.raises(ValueError, match="cell 0 looks OpenDP up by name"):
        student_version(nb, "99_x")


@pytest.mark.notebooks
def test_the_student_edition_runs_without_opendp(tmp_path):
    """The build runs each student notebook with OpenDP unimportable: a cell that needs it and
    is not recognised (here an ``__import__`` of a name spelled in two pieces, which neither
    ``needs_opendp`` nor the by-name check sees) fails the build."""
    from nbclient.exceptions import CellExecutionError

    path = tmp_path / "99_needs_opendp.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell('__import__("open" + "dp")')]
    nbformat.write(nb, path)
    with pytest.raises(CellExecutionError, match="the student environment has no opendp"):
        build(
            [path],
            out_dir=tmp_path / "bundle",
            zip_path=tmp_path / "bundle.zip",
            executed_dir=tmp_path / "executed",
        )


def test_a_cell_reading_what_only_a_recorded_cell_defines_is_recorded_too():
    """CI found it: notebook 12's record made from the OpenDP release (``privacy_record(table,
    ...)``) ran in the student edition, where ``table`` is never defined."""
    import nbformat

    from instructor.student import opendp_cells

    cells = [
        "x = 1",
        "table = rel.opendp_release(df, allocation, work)",
        "record = privacy_record(table, date='2026-01-01')",
        "print(record)",
        "table = 3  # defined again by a cell that runs",
        "print(table)",
        "%matplotlib inline\nprint(x)",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    assert opendp_cells(nb) == {1, 2, 3}
