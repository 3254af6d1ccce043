"""Build the student edition: ``python -m instructor.student`` (``python3 course.py student``).

Writes a bundle that stands alone, ``build/student/`` and ``build/choosing-epsilon-student.zip``
(the same files under one folder, ``choosing-epsilon-student/``):

* ``notebooks/NN_*.ipynb``: every course notebook with each worked answer (a code cell tagged
  ``solution``) replaced by a starter that sets the asked-for names to ``...``, every output
  cleared, the exercises' introduction written for students;
* ``choosing_epsilon_helpers-<version>-py3-none-any.whl``: the parts of ``helpers`` listed in
  ``STUDENT_MODULES`` (everything students run; never ``helpers/exercises/answers``, the
  expected values; the builder and the grader live in ``instructor/``, never packaged); its
  ``check`` judges from a key of salted hashes made now with a fresh salt
  (``helpers/exercises/_key_data.py``, see ``helpers.exercises._core``);
* ``requirements.txt``: the reader's exact pins less ``STUDENT_LEAVES_OUT`` (OpenDP), and the
  wheel; a cell of a student notebook that needs OpenDP (``needs_opendp``) is shown with its
  code and the output the course's executed notebook recorded, not run (``recorded_cell``);
  ``README.md``: the two commands that install and start it on Linux, macOS and Windows, how
  the exercises are checked and handed in, and the references; ``NOTATION.md``;
  ``check_python.py``, which the first command runs before installing anything (the pins are
  made for Python 3.10 to 3.14).

Nothing in the bundle links or points outside it (checked). Then every student notebook is
executed top to bottom against the student's wheel (its files first on the kernel's path) to
prove that it runs (with OpenDP made unimportable: a student notebook that still needs it fails
the build) and that each unanswered check says "not answered yet"; the executed
copies go to ``build/student-executed/`` (the student website is built from them), and they
are searched for every expected answer at every precision it could be printed with (in
markdown, code and outputs; not the outputs of cells tagged ``timing``, which print a measured
duration that differs on every run): any answer in sight fails the build.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import math
import os
import pprint
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

import nbformat
import numpy as np

from helpers.exercises import answers

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "student"
EXECUTED = ROOT / "build" / "student-executed"
ZIP = ROOT / "build" / "choosing-epsilon-student.zip"
BUNDLE_NAME = "choosing-epsilon-student"
SOLUTION_TAG = "solution"
STARTER_TAG = "starter"
INTRO_TAG = "exercises-intro"
CHECK_CALL = re.compile(r"""check\(\s*["']([0-9]{2}\.[0-9]+)["']""")
#: What the student's wheel holds, by module name under ``helpers/`` (a name is a module
#: ``NAME.py`` or a package directory ``NAME/``, with all its files): an include list, so a new
#: module reaches students only when it is added here (tests/instructor/test_student.py holds
#: every module of ``helpers`` to this list or to ``NOT_FOR_STUDENTS``).
STUDENT_MODULES = (
    "__init__",
    "_cache",
    "_calibration",
    "_docstrings",
    "_numerics",
    "_validation",
    "attack",
    "budget",
    "checks",
    "choose",
    "data",
    "datasets",
    "deployments",
    "dpsgd",
    "figures",
    "foundations",
    "kazan_reiter",
    "leave_one_out",
    "lee_clifton",
    "mechanisms",
    "notebooks",
    "plotting",
    "plrv",
    "queries",
    "release",
    "sensitivity",
    "widgets",
    "exercises/__init__",
    "exercises/_core",
    "exercises/_open",
    "exercises/nb11",
)
#: What never reaches students (under ``helpers/``): the instructor's answers.
NOT_FOR_STUDENTS = ("exercises/answers",)
#: The cell metadata the grader reads a statement's checksum from (``statement_checksums``).
STATEMENT_KEY = "statement_sha256"
#: Repository files the bundle carries as they are.
BUNDLE_PAGES = ("NOTATION.md",)

STUDENT_INTRO = """## Exercises

Each exercise names the values it asks for, the precision it accepts and the variable
`answer_NN_K` its answer is recorded in. Its inputs are a dict `params_NN_K` in the cell tagged
`parameters` just below, and its statement shows their values. Replace each `...` in the code cell
under a statement by your answer, computed from that dict (add as many lines as you need). The
cell after it records your values in `answer_NN_K` and calls `check`, which prints ✓ or a hint
(too large, off by a factor, wrong type), never the answer; it judges only at the parameters
shown. Your notebook is graded by running it top to bottom in a fresh kernel with *other*
parameters, drawn for your submission, and comparing each `answer_NN_K` with the answer at those
parameters (not what it prints): code that computes from `params_NN_K` scores, numbers typed in do
not. Questions that ask for words have a cell *Your answer:* after the check (tagged `written`):
write your answer there; your instructor marks it (full, partial or no credit). Before you hand it
in, choose *Kernel → Restart Kernel and Run All Cells* and see that every check you answered
prints ✓."""


#: A quiz cell (``python -m instructor.quiz apply``): questions, each answer in a <details>.
QUIZ_TAG = "quiz"
QUIZ_NOTE = (
    "*The answers to these questions are not in this edition: your instructor goes through "
    "them in class.*"
)
_QUIZ_ANSWER = re.compile(r"\n*<details>.*?</details>\n*", re.S)
QUIZZES = ROOT / "instructor" / "quizzes"

# --- notebooks ------------------------------------------------------------------------------


def is_solution(cell) -> bool:
    """A code cell tagged ``solution`` (cell metadata ``"tags": ["solution"]``)."""
    return cell.cell_type == "code" and SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def checked_ids(nb: nbformat.NotebookNode) -> list[str]:
    """Exercise ids passed to ``check`` in the notebook's code cells, in order."""
    return [
        match
        for cell in nb.cells
        if cell.cell_type == "code"
        for match in CHECK_CALL.findall(cell.source)
    ]


def exercise_of(nb: nbformat.NotebookNode, index: int) -> str:
    """The exercise id of solution cell ``index``: the first ``check`` at or after it."""
    for cell in nb.cells[index:]:
        if cell.cell_type != "code":
            continue
        found = CHECK_CALL.findall(cell.source)
        if found:
            return found[0]
    raise ValueError(f"solution cell {index} is followed by no check(...) call")


def starter(exercise_id: str) -> str:
    """The student edition's code for a solution cell: every asked-for name set to ``...``."""
    names = answers.names(exercise_id)
    lhs = ", ".join(names)
    rhs = ", ".join("..." for _ in names)
    return f"# Exercise {exercise_id}: replace each ... by your answer\n{lhs} = {rhs}"


#: Packages of the reader's environment (requirements.txt) that the student's leaves out, by
#: normalised name: OpenDP, which no student notebook runs and which alone would add
#: ``OPENDP_SIZE`` to the environment (from 610 MB to 872 MB on Python 3.10), and Deprecated,
#: which only OpenDP requires (tests/instructor/test_student.py: the student's pins are exactly
#: what the notebooks' imports pull in). The student README says how to add OpenDP. Polars
#: (with its runtime) and pyarrow serve only OpenDP's Context release (notebook 12's
#: ``opendp_release`` cells, recorded in the student edition), so they are left out too.
STUDENT_LEAVES_OUT = ("opendp", "deprecated", "polars", "polars-runtime-32", "pyarrow")
#: A code cell that needs OpenDP: it imports it (or Polars), or calls the helper that builds
#: the release in OpenDP's Context (``helpers.release.opendp_release``). The build runs the student edition with OpenDP unimportable,
#: so a cell this misses fails the build instead of a student's notebook.
_NEEDS_OPENDP = re.compile(
    r"^\s*(?:import|from)\s+(?:opendp|polars)\b"
    r"|\bopendp_release\s*\(",
    re.M,
)
#: A code cell that names the package as a string (``version("opendp")``, ``find_spec``): it
#: looks OpenDP up without importing it, which the build's blocked import cannot catch (the
#: builder's own environment has OpenDP's metadata), so the student edition refuses it.
_NAMES_OPENDP = re.compile(r"""["']opendp["']""")
RECORDED_NOTE = (
    "*Shown, not run: this cell needs OpenDP, which the student environment leaves out to "
    "save {size}. Its code and the output it gave when the course's "
    "notebook was executed in the course's environment (OpenDP {version}, as pinned; the course's "
    "tests execute it again and compare) are below. To run it yourself, add OpenDP to the "
    "environment with what its release needs (`{install}`; on Windows `{install_windows}`; see the README) and paste the "
    "code into a code cell.*"
)


_STYLE = re.compile(r"<style\b.*?</style>\s*", re.S)


def needs_opendp(cell, unavailable=frozenset()) -> bool:
    """Whether a code cell imports OpenDP, calls a helper that runs it, or reads a name that
    only such a cell defines (``unavailable``: e.g. a record made from the release's table)."""
    if cell.cell_type != "code":
        return False
    if _NEEDS_OPENDP.search(cell.source):
        return True
    return bool(unavailable & _code_names(cell.source)[1])


def opendp_cells(nb) -> set:
    """The indices of the code cells the student edition shows recorded, not run: each cell
    that :func:`needs_opendp`, and each later cell that reads a name only such a cell
    defines (a name a running cell defines again is available from there on)."""
    unavailable: set = set()
    shown = set()
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if needs_opendp(cell, frozenset(unavailable)):
            shown.add(index)
            unavailable |= _code_names(cell.source)[0]
        else:
            unavailable -= _code_names(cell.source)[0]
    return shown


def _code_names(source: str) -> tuple[set, set]:
    """(the names a cell's code assigns, the names it reads); IPython magics left out."""
    code = "\n".join(
        line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))
    )
    try:
        tree = ast.parse(code)
    except SyntaxError:  # not Python (a cell of another language): nothing known
        return set(), set()
    stored, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, ast.Store) else loaded).add(node.id)
    return stored, loaded


def _fenced(text: str, language: str = "") -> str:
    """``text`` in a code fence longer than any run of backticks inside it."""
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}{language}\n{text.rstrip()}\n{fence}"


def recorded_cell(cell) -> nbformat.NotebookNode:
    """A markdown cell showing a code cell's source and its committed outputs.

    An HTML table (a DataFrame's ``text/html``) is kept as HTML, which JupyterLab renders
    in markdown; any other output is its text in a fence. Raises ``ValueError`` for a cell
    without outputs: there is nothing recorded to show.
    """
    shown = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            shown.append(_fenced(output.text, "text"))
        elif output.output_type in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "text/html" in data:  # pandas' table; its <style> block is for outputs only
                shown.append(_STYLE.sub("", data["text/html"]).strip())
            elif "text/plain" in data:
                shown.append(_fenced(data["text/plain"], "text"))
        elif output.output_type == "error":
            raise ValueError(f"the cell raised {output.ename}: nothing to record")
    if not shown:
        raise ValueError(f"a cell that needs OpenDP has no recorded output: {cell.source[:80]!r}")
    note = RECORDED_NOTE.format(
        size=OPENDP_SIZE,
        version=opendp_pin().split("==")[1],
        install=opendp_install(),
        install_windows=opendp_install(windows=True),
    )
    source = "\n\n".join([note, _fenced(cell.source, "python"), "Its output:", *shown])
    recorded = nbformat.v4.new_markdown_cell(source, metadata={"tags": ["recorded"]})
    if cell.get("id"):  # the code cell's own id: a build is the same file every time
        recorded["id"] = cell["id"]
    return recorded


def opendp_pin() -> str:
    """The reader's pin of OpenDP, as written in requirements.txt (``opendp==X.Y.Z``)."""
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        requirement = line.split("#", 1)[0].split(";", 1)[0].strip()
        if re.match(r"opendp\s*==", requirement, re.I):
            return requirement.replace(" ", "")
    raise ValueError("requirements.txt pins no opendp==...")


def release_pins() -> list[str]:
    """The reader's pins of what notebook 12's release needs and the student's environment
    leaves out (``STUDENT_LEAVES_OUT``: OpenDP, Polars, pyarrow, Deprecated), as written in
    requirements.txt, environment markers included (pyarrow's pin depends on Python's version)."""
    pins = []
    for line in reader_requirements():
        requirement = line.split("#", 1)[0].strip()
        if _pinned_name(requirement) in STUDENT_LEAVES_OUT:
            pins.append(re.sub(r"\s*;\s*", " ; ", requirement))
    names = {_pinned_name(pin) for pin in pins}
    if names != set(STUDENT_LEAVES_OUT):
        raise ValueError(
            f"requirements.txt must pin every package of STUDENT_LEAVES_OUT; it lacks "
            f"{sorted(set(STUDENT_LEAVES_OUT) - names)}"
        )
    return pins


def opendp_install(*, windows: bool = False) -> str:
    """The command that adds OpenDP and what its release needs (Polars, pyarrow) to the
    student's environment at the reader's pins (Linux and macOS, or Windows PowerShell). A pin
    with an environment marker goes in double quotes, the marker's own strings in single
    quotes (as pip reads them): no shell expands it, and Windows PowerShell 5.1, which drops
    double quotes inside an argument to a native program, has none to drop."""
    python = ".venv\\Scripts\\python" if windows else ".venv/bin/python"
    pins = ['"' + pin.replace('"', "'") + '"' if ";" in pin else pin for pin in release_pins()]
    return f"{python} -m pip install {' '.join(pins)}"


def student_version(nb: nbformat.NotebookNode, stem: str = "") -> nbformat.NotebookNode:
    """A copy of ``nb`` with starters instead of solutions, no outputs, the students' intro."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    statements = statement_cells(nb)  # found by the solution cells, before they become starters
    recorded = opendp_cells(nb)
    for index, cell in enumerate(nb.cells):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.cell_type == "markdown" and INTRO_TAG in tags:
            cell.source = STUDENT_INTRO
        if cell.cell_type == "markdown" and QUIZ_TAG in tags:
            cell.source = quiz_for_students(cell.source)
        if cell.cell_type != "code":
            continue
        if _NAMES_OPENDP.search(cell.source):
            raise ValueError(
                f"{stem}: cell {index} looks OpenDP up by name, which the student environment "
                "does not have (instructor.student.STUDENT_LEAVES_OUT)"
            )
        if index in recorded:
            if is_solution(cell):  # its recorded output would be the answer
                raise ValueError(f"{stem}: worked answer in cell {index} needs OpenDP")
            nb.cells[index] = recorded_cell(cell)
            continue
        if is_solution(cell):
            cell.source = starter(exercise_of(nb, index))
            cell.metadata["tags"] = [*(t for t in tags if t != SOLUTION_TAG), STARTER_TAG]
        cell.outputs = []
        cell.execution_count = None
        cell.metadata.pop("execution", None)
    for exercise_id, indices in statements.items():
        for index in indices:
            cell = nb.cells[index]
            cell.metadata.setdefault("choosing_epsilon", {})
            cell.metadata["choosing_epsilon"]["statement"] = exercise_id
            cell.metadata["choosing_epsilon"][STATEMENT_KEY] = statement_sha256(cell.source)
    # which course notebook this is, when a student renames the file (the grader takes only
    # the notebook's name from here, and the exercises from the course's own notebook)
    nb.metadata["choosing_epsilon"] = {"notebook": stem, "exercises": checked_ids(nb)}
    return nb


def statement_sha256(source: str) -> str:
    """The checksum of a statement cell: SHA-256 of its text with line ends normalised."""
    text = "\n".join(line.rstrip() for line in source.replace("\r\n", "\n").splitlines())
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def statement_cells(nb: nbformat.NotebookNode) -> dict[str, list[int]]:
    """Per exercise, the markdown cells that state it: those right above its solution cell
    (back to the previous code cell), less the written-answer cells a student fills in."""
    found: dict[str, list[int]] = {}
    for index, cell in enumerate(nb.cells):
        if not is_solution(cell):
            continue
        above = []
        for back in range(index - 1, -1, -1):
            previous = nb.cells[back]
            if previous.cell_type != "markdown":
                break
            tags = previous.get("metadata", {}).get("tags", [])
            if "written" in tags or INTRO_TAG in tags:
                continue
            above.append(back)
        found.setdefault(exercise_of(nb, index), []).extend(sorted(above))
    return found


def quiz_for_students(source: str) -> str:
    """A quiz cell without its answers: the questions and options, then a line saying the
    answers come in class."""
    return f"{_QUIZ_ANSWER.sub(chr(10) * 2, source).strip()}\n\n{QUIZ_NOTE}"


# --- links: nothing may point outside the bundle --------------------------------------------

_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HREF = re.compile(r"""(?:href|src)=["']([^"']+)["']""")


def _anchors(markdown: str) -> set[str]:
    """GitHub/MyST-style anchors of a markdown file's headings."""
    found = set()
    for line in markdown.splitlines():
        heading = re.match(r"^#{1,6}\s+(.*)", line)
        if heading:
            text = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
            found.add(text.replace(" ", "-"))
    return found


def broken_links(bundle: Path) -> list[str]:
    """Relative links in the bundle's notebooks and markdown that leave it or lead nowhere."""
    problems = []
    sources: list[tuple[Path, str]] = []
    for path in sorted(bundle.rglob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        sources += [(path, c.source) for c in nb.cells if c.cell_type == "markdown"]
    sources += [(path, path.read_text(encoding="utf-8")) for path in sorted(bundle.glob("*.md"))]
    root = bundle.resolve()
    for path, text in sources:
        for target in _LINK.findall(text) + _HREF.findall(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
                continue  # a URL, a mail address or an anchor on the same page
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve()
            where = f"{path.relative_to(bundle)}: {target}"
            if not resolved.is_relative_to(root):
                problems.append(f"{where} points outside the bundle")
            elif not resolved.exists():
                problems.append(f"{where} points to a missing file")
            elif anchor and resolved.suffix == ".md":
                if anchor not in _anchors(resolved.read_text(encoding="utf-8")):
                    problems.append(f"{where}: no heading #{anchor}")
    return problems


# --- the student's wheel -------------------------------------------------------------------


def key_module(key: dict) -> str:
    """``helpers/exercises/_key_data.py`` of the student's wheel: the hashes, no value."""
    return (
        '"""The key the student\'s ``check`` judges from: salted hashes, made when the student\n'
        'edition was built (see ``helpers.exercises._core``). It holds no expected value."""\n\n'
        f"KEY = {pprint.pformat(key, width=100, sort_dicts=True)}\n"
    )


def _skipped(directory: str, names: list[str]) -> list[str]:
    ignored = {"__pycache__", ".ipynb_checkpoints", "_key_data.py"}
    return [n for n in names if n in ignored or n.endswith(".pyc")]


def student_files(package: Path | None = None) -> list[Path]:
    """The files of ``helpers/`` that ``STUDENT_MODULES`` names (paths relative to helpers/)."""
    package = package or ROOT / "helpers"
    files = []
    for name in STUDENT_MODULES:
        module, directory = package / f"{name}.py", package / name
        if module.is_file():
            files.append(module.relative_to(package))
        elif directory.is_dir():
            files += [
                p.relative_to(package)
                for p in sorted(directory.rglob("*"))
                if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
            ]
        else:
            raise RuntimeError(f"STUDENT_MODULES names {name!r}, which helpers/ does not hold")
    return files


def stage_package(stage: Path, readme: str, key: dict) -> None:
    """The student's source tree: pyproject, licence, README, the student modules, the key."""
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    shutil.copy(ROOT / "pyproject.toml", stage / "pyproject.toml")
    shutil.copy(ROOT / "LICENSE", stage / "LICENSE")
    (stage / "README.md").write_text(readme, encoding="utf-8")
    for relative in student_files():
        target = stage / "helpers" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "helpers" / relative, target)
    (stage / "helpers" / "exercises" / "_key_data.py").write_text(key_module(key), "utf-8")
    stage_lab_extension(stage)


#: The course's JupyterLab extension (accessible names, spoken values and the live region of
#: every dashboard: jupyter-config/labextensions/course-a11y), which `course.py lab` loads from
#: the checkout. The student's wheel carries it as data files under the environment's
#: share/jupyter/labextensions, where JupyterLab finds it with no option: the student's two
#: commands and the hub's image get it by installing the wheel.
LAB_EXTENSION = ROOT / "jupyter-config" / "labextensions" / "course-a11y"
LAB_EXTENSION_TARGET = "share/jupyter/labextensions/course-a11y"


def stage_lab_extension(stage: Path) -> list[str]:
    """Copy the extension into the staged tree and list it as the wheel's data files (in the
    staged pyproject only: the developer's editable install loads it from the checkout)."""
    files = sorted(p for p in LAB_EXTENSION.rglob("*") if p.is_file())
    by_folder: dict[str, list[str]] = {}
    for path in files:
        relative = path.relative_to(LAB_EXTENSION)
        target = stage / "lab" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
        folder = (Path(LAB_EXTENSION_TARGET) / relative.parent).as_posix()
        by_folder.setdefault(folder, []).append((Path("lab") / relative).as_posix())
    table = "\n".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in by_folder.items())
    with open(stage / "pyproject.toml", "a", encoding="utf-8") as toml:
        toml.write(f"\n[tool.setuptools.data-files]\n{table}\n")
    return [f"{k}/{Path(f).name}" for k, v in by_folder.items() for f in v]


def build_wheel(stage: Path, out_dir: Path) -> Path:
    """``pip wheel`` the staged tree (offline when the pinned setuptools is installed)."""
    command = [sys.executable, "-m", "pip", "wheel", str(stage), "--no-deps", "-q"]
    try:
        if int(metadata.version("setuptools").split(".")[0]) >= 77:
            command.append("--no-build-isolation")
    except metadata.PackageNotFoundError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            [*command, "-w", tmp], capture_output=True, text=True, timeout=900, check=False
        )
        if result.returncode != 0:
            raise RuntimeError(f"building the student's wheel failed:\n{result.stderr[-3000:]}")
        (wheel,) = Path(tmp).glob("choosing_epsilon_helpers-*.whl")
        target = out_dir / wheel.name
        shutil.copy(wheel, target)
    return target


def forbidden_in_wheel(wheel: Path) -> list[str]:
    """Files of the wheel a student must not get: the answers, and anything under helpers/
    that the include list does not name (the key is made for the wheel)."""
    allowed = {f"helpers/{p.as_posix()}" for p in student_files()}
    allowed.add("helpers/exercises/_key_data.py")
    bad = []
    for name in zipfile.ZipFile(wheel).namelist():
        if not name.startswith("helpers/"):
            continue  # the wheel's own metadata
        if name not in allowed or any(name.startswith(f"helpers/{n}") for n in NOT_FOR_STUDENTS):
            bad.append(name)
    return bad


# --- README and requirements ---------------------------------------------------------------


def _references() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## References\n.*?(?=^## |\Z)", text, re.S | re.M)
    if not match:
        raise ValueError("README.md has no '## References' section to copy")
    return match.group(0).rstrip() + "\n"


def supported_pythons() -> tuple:
    """The Pythons the pins are resolved for: course.py's SUPPORTED (read, not imported)."""
    text = (ROOT / "course.py").read_text(encoding="utf-8")
    found = re.search(r"^SUPPORTED = (\(\(3, \d+\)(?:, \(3, \d+\))*\))$", text, re.M)
    if not found:
        raise ValueError("course.py has no SUPPORTED = ((3, 10), ...) line")
    return tuple((3, int(minor)) for minor in re.findall(r"\(3, (\d+)\)", found.group(1)))


def _names(versions) -> str:
    names = [f"{major}.{minor}" for major, minor in versions]
    return ", ".join(names[:-1]) + f" or {names[-1]}"


def check_python_script() -> str:
    """check_python.py of the bundle: the first command runs it before installing anything."""
    versions = supported_pythons()
    newest = f"{versions[-1][0]}.{versions[-1][1]}"
    # %-formatting and no f-string in the script: an old Python must parse it to be told
    return f'''"""Run by the first install command of README.md, before anything is installed."""

import sys

SUPPORTED = {versions!r}

if tuple(sys.version_info[:2]) not in SUPPORTED:
    sys.exit(
        "This course needs Python {_names(versions)}, and this is Python %d.%d: install "
        "Python {newest} from python.org and run the commands with it (python{newest} on Linux and "
        "macOS, py -{newest} on Windows)." % tuple(sys.version_info[:2])
    )
print("Python %d.%d: supported." % tuple(sys.version_info[:2]))
'''


#: what `du -sh .venv` measured after the first command (README's "Install and start"), on
#: Linux x86-64 (python -m venv, pip install -r requirements.txt; measured 2026-11-26: 610 MB on
#: 3.10.13, 646 MB on 3.13.0; 872 and 908 MB with OpenDP)
ENVIRONMENT_SIZE = "610 MB (Python 3.10) to 650 MB (3.13)"
#: what OpenDP 0.16.0 adds: ``du -sm`` of site-packages/opendp on Linux x86-64 (265), and its
#: wheels' native library for Windows x64 (180 MiB) and macOS arm64 (224 MiB)
OPENDP_SIZE = "about 180 MB on Windows to 265 MB on Linux"


def student_readme(wheel_name: str) -> str:
    return f"""# Choosing ε for differential privacy — student edition

Fourteen notebooks, in `notebooks/`, on how to choose ε for differential privacy: from the DP you
need (00), through Lee & Clifton's adversary, its prior, posterior and bounds and the largest
safe ε (01–05), Kazan & Reiter's risk profiles (06–07) and the privacy loss and δ (08), to real
deployments (09), choosing your own ε (10), one budget for many releases (11), from a chosen
budget to a release (12) and choosing ε for a model trained with DP-SGD (13). Read them in order; each ends with exercises.
Symbols are listed in [NOTATION.md](NOTATION.md); sources under [References](#references).

## Install and start: two commands

You need Python {_names(supported_pythons())} (from python.org; on Debian or Ubuntu also
`sudo apt install python3-venv`). Open a terminal in this folder. The first command checks your
Python (on another version it says which to install and stops), makes an environment in
`.venv/` and installs the pinned packages and the course's helpers (`{wheel_name}`) into it; it
needs the internet once, takes a few minutes and about {ENVIRONMENT_SIZE} of disk. The second opens
JupyterLab in your browser on the `notebooks` folder (the links to NOTATION.md and to the
References below open beside them); use it every time.

Linux and macOS:

```bash
python3 check_python.py && python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt
.venv/bin/python -m jupyterlab --LabApp.default_url=/lab/tree/notebooks
```

Windows (PowerShell):

```powershell
py check_python.py; if ($?) {{ py -m venv .venv; .venv\\Scripts\\python -m pip install -r requirements.txt }}
.venv\\Scripts\\python -m jupyterlab --LabApp.default_url=/lab/tree/notebooks
```

The environment holds what the notebooks run and no more. OpenDP, the library notebook 12 makes
its release with, is left out: no exercise needs it, and it alone would add
{OPENDP_SIZE}. Notebook 12 shows the cells that run it with their code and the output they
gave when the course was built (marked *Shown, not run*). To run them yourself, or the release
script of notebook 12 on your own data, add it (with Polars and pyarrow, which its release
needs, all at the course's pins) after the first command:
`{opendp_install()}` (on Windows `{opendp_install(windows=True)}`).

## Exercises, checks and handing in

Each exercise names the values it asks for, the precision it accepts (for example "to 4 decimal
places (±0.0001 is accepted)") and the variable `answer_NN_K` its answer is recorded in (exercise
K of notebook NN). Its inputs are the dict `params_NN_K` in the notebook's cell tagged
`parameters`; the statement shows their values. Replace each `...` in the cell under the exercise
by code that computes your answer from that dict. The cell after it records your values in
`answer_NN_K` and calls `check("NN.K", answer_NN_K, params_NN_K)`, which prints ✓ when you are
right, and otherwise a hint ("too large by a factor of 2", "has shape (3,); shape (4,) is
expected", "not answered yet"), never the answer. A question that asks for words has a cell
*Your answer:* after the check: write your answer there.

To hand in, save the notebook and send the `.ipynb` file as your instructor asks. It is graded by
running it top to bottom in a fresh kernel and reading your `answer_NN_K` variables (what the
notebook prints does not count), so first choose *Kernel → Restart Kernel and Run All Cells* and
see that it runs without an error and that every check you answered prints ✓.

Your instructor's grader runs each notebook in a sandbox of its own: a fresh kernel of this
environment with no network, no files but your notebook and the course's helpers (read-only), an
empty home and `/tmp`, and limits on memory (2 GB), processes, output and time (each cell is
stopped after the limit your instructor sets, 5 minutes unless told otherwise). So your notebook
must compute everything it needs from the helpers and the cells above, read no file you did not
hand in and download nothing. What the grade reads is your `answer_NN_K` variables; the feedback
you get back names each exercise by its title and heading, its points, and any cell that raised,
quoting the line.

## What is graded

* **Values, at parameters you have not seen.** Your instructor reruns your notebook with other
  values in each `params_NN_K`, drawn for your submission from each parameter's range with a
  secret only your instructor holds, and compares each `answer_NN_K` with the answer at *those*
  values, part by part (an exercise that asks for two values gives points for each). So the grade
  measures that your code computes each answer from its parameters: numbers typed in, found by
  calling `check` many times or read from its key are right only at the values shown, and score
  nothing.
* **Written answers**, in the cells *Your answer:*, are marked by your instructor against the
  answer key's rubric: full, partial or no credit.

## How `check` can say ✓ without the answers

The helpers you installed do not contain the expected answers. When your instructor built this
edition, each expected value was rounded to a hundredth of the precision its exercise states and
stored only as a salted hash (SHA-256), together with hashes of its size and sign on a logarithmic
scale, which give the hints. `check` rounds your value the same way and compares hashes with the
values within the stated precision of it, so exactly that precision is accepted. This key can be
searched (the salt is in it), as `check` can be called over and over: the check is there to help
you, and it only knows the answers at the parameters the notebook shows (given other values it
says so and judges nothing). The grade does not come from it: see *What is graded* above.

<a id="references"></a>

{_references()}"""


def reader_requirements() -> list[str]:
    """The reader's pins (requirements.txt), without editable installs or nested files."""
    lines = []
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith(("-e", "-r", "--editable", "--requirement")):
            continue
        lines.append(line)
    return lines


def _pinned_name(line: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*[=<>!~;\[]", line)
    return re.sub(r"[-_.]+", "-", match.group(1)).lower() if match else ""


def student_requirements(wheel_name: str) -> str:
    """The bundle's requirements.txt: the reader's pins less ``STUDENT_LEAVES_OUT``, the wheel."""
    kept = [line for line in reader_requirements() if _pinned_name(line) not in STUDENT_LEAVES_OUT]
    return (
        "# Installed by the first command of README.md: the course's exact pins and its helpers.\n"
        f"# Left out: {opendp_pin()}, which no student notebook runs (see the README), and\n"
        "# Deprecated, which only OpenDP requires.\n"
        + "\n".join(kept)
        + f"\n\n# the course's helpers (without the answers)\n./{wheel_name}\n"
    )


# --- executing the edition and searching it for answers ------------------------------------


def execute_with_wheel(paths: list[Path], wheel: Path, out_dir: Path) -> list[Path]:
    """Run each student notebook with the wheel's ``helpers`` first on the kernel's path."""
    from helpers.notebooks import make_client, merge_streams

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as site:
        zipfile.ZipFile(wheel).extractall(site)
        for name in STUDENT_LEAVES_OUT:  # first on the path: importing it fails as it would
            (Path(site) / f"{name}.py").write_text(
                f"raise ModuleNotFoundError('the student environment has no {name}', "
                f"name={name!r})\n",
                encoding="utf-8",
            )
        probe = subprocess.run(
            [sys.executable, "-c", "import helpers.exercises as e; print(e.__file__)"],
            env={**os.environ, "PYTHONPATH": site},
            cwd=site,  # not the repository, whose helpers/ would come first
            capture_output=True,
            text=True,
            check=True,
        )
        if not probe.stdout.strip().startswith(site):
            raise RuntimeError(f"the student's helpers do not come first: {probe.stdout}")
        previous = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = site  # the kernel inherits it
        try:
            for path in paths:
                print(f"executing the student edition of {path.name} ...", flush=True)
                nb = nbformat.read(path, as_version=4)
                make_client(nb, path).execute()
                target = out_dir / path.name
                nbformat.write(merge_streams(nb), target)
                written.append(target)
        finally:
            if previous is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = previous
    return written


def printed_forms(value) -> set[str]:
    """Every way ``value`` could be printed: an integer, or 3 to 6 significant digits."""
    if isinstance(value, (bool, np.bool_)):
        return set()
    value = float(value)
    if not math.isfinite(value):
        return set()
    value = abs(value)
    forms = set()
    if value == 0:
        return {"0"}
    if value.is_integer() and value < 1e15:
        forms.add(str(int(value)))
    for digits in range(3, 7):
        forms.add(f"{value:.{digits}g}")
        rounded = float(f"{value:.{digits}g}")
        decimals = digits - 1 - math.floor(math.log10(rounded))
        if decimals >= 0:
            forms.add(f"{value:.{decimals}f}")
        forms.add(f"{value:.{digits - 1}e}")
    return forms


def _leaves(value):
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, np.ndarray):
        for item in value.ravel():
            yield item.item()
    else:
        yield value


def expected_forms() -> dict[str, set[str]]:
    """Per value exercise, every printed form of every number of its expected answer."""
    found = {}
    for exercise_id in answers.value_ids():
        forms = set()
        for leaf in _leaves(answers.expected(exercise_id)):
            forms |= printed_forms(leaf)
        found[exercise_id] = forms
    return found


def _texts(nb: nbformat.NotebookNode):
    from helpers.notebooks import TIMING_TAG

    for index, cell in enumerate(nb.cells):
        yield index, cell.cell_type, cell.source
        if TIMING_TAG in cell.get("metadata", {}).get("tags", []):
            continue  # a measured duration, another number on every run: not an answer shown
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                yield index, "output", output.text
            elif output.output_type == "error":
                yield index, "output", f"{output.ename}: {output.evalue}"
            else:
                for kind, data in output.get("data", {}).items():
                    if kind == "application/vnd.jupyter.widget-view+json":
                        continue  # a random model id and version numbers, never content
                    if kind.startswith("text/") or kind.endswith("json"):
                        text = data if isinstance(data, str) else json.dumps(data)
                        yield index, f"output {kind}", text


def _answer_pattern(forms: set[str]) -> re.Pattern:
    return re.compile(
        # a number inside a word or a hex id ("c126c3294") is not the answer 126
        r"(?<![A-Za-z0-9_.])(?:"
        + "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        + r")(?![A-Za-z0-9_]|\.\d)"
    )


def leaks(notebooks: dict[str, nbformat.NotebookNode]) -> list[str]:
    """Each place where an expected answer is printed, as 'NN.k: notebook cell i (kind): ...'."""
    hits = []
    for exercise_id, forms in expected_forms().items():
        pattern = _answer_pattern(forms)
        for name, nb in notebooks.items():
            for index, kind, text in _texts(nb):
                for match in pattern.finditer(text):
                    around = text[max(0, match.start() - 40) : match.end() + 20].replace("\n", " ")
                    hits.append(f"{exercise_id}: {name} cell {index} ({kind}): …{around}…")
    return hits


#: a number that follows one of these words is a citation ("Proposition 1.6"), not a value
_CITATION = re.compile(
    r"(?:Proposition|Theorem|Lemma|Corollary|Definition|Section|Algorithm|Eq\.|Example|§)\s*$"
)


def _docstrings(path: Path):
    """(where, text) of every docstring of a module: the module's, each class's and function's."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                yield getattr(node, "name", "<module>"), text


def docstring_leaks(package: Path | None = None) -> list[str]:
    """Each expected answer (at any printed precision) in a docstring of a student module.

    What the student's wheel holds is importable, so ``help()`` shows its docstrings: an
    example there must not print an exercise's answer at its shown parameters. Read from the
    source (``ast``), not imported; a number right after "Proposition", "Theorem", ... is a
    citation and not counted.
    """
    package = package or ROOT / "helpers"
    texts = [
        (f"helpers/{relative.as_posix()}", where, text)
        for relative in student_files(package)
        if relative.suffix == ".py"
        for where, text in _docstrings(package / relative)
    ]
    hits = []
    for exercise_id, forms in expected_forms().items():
        pattern = _answer_pattern(forms)
        for path, where, text in texts:
            for match in pattern.finditer(text):
                if _CITATION.search(text[max(0, match.start() - 20) : match.start()]):
                    continue
                around = text[max(0, match.start() - 40) : match.end() + 20].replace("\n", " ")
                hits.append(f"{exercise_id}: {path} {where} (docstring): …{around}…")
    return hits


def quiz_answer_texts(directory: Path = QUIZZES) -> list[str]:
    """Every answer text of the quiz bank (explanations and the reasons given for options),
    read as data from ``instructor/quizzes/`` (not imported: the instructor's package)."""
    texts = []
    for path in sorted(directory.glob("lecture-*.json")):
        for question in json.loads(path.read_text(encoding="utf-8"))["questions"]:
            texts.append(question["explanation"])
            texts += [
                o["why"] for o in question.get("options", []) if o["why"] != "see the explanation."
            ]
    return [" ".join(t.split()).lower() for t in texts]


def quiz_leaks(notebooks: dict[str, nbformat.NotebookNode], directory: Path = QUIZZES) -> list[str]:
    """Each quiz answer in sight: a <details> left in a quiz cell, or an answer text anywhere."""
    texts = quiz_answer_texts(directory)
    hits = []
    for name, nb in notebooks.items():
        for index, cell in enumerate(nb.cells):
            tags = cell.get("metadata", {}).get("tags", [])
            if QUIZ_TAG in tags and "<details" in cell.source:
                hits.append(f"quiz: {name} cell {index} keeps an answer (<details>)")
            flat = " ".join(cell.source.split()).lower()
            hits += [
                f"quiz: {name} cell {index} shows the answer text …{text[:60]}…"
                for text in texts
                if text in flat
            ]
    return hits


# --- the whole bundle -----------------------------------------------------------------------


def write_notebooks(paths: list[Path], out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        target = out_dir / path.name
        nbformat.write(student_version(nb, path.stem), target)
        written.append(target)
    return written


def zip_bundle(bundle: Path, target: Path) -> Path:
    if target.exists():
        target.unlink()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(bundle.rglob("*")):
            if path.is_file():
                archive.write(path, f"{BUNDLE_NAME}/{path.relative_to(bundle).as_posix()}")
    return target


def build(
    paths: list[Path] | None = None,
    *,
    out_dir: Path = BUILD,
    zip_path: Path = ZIP,
    executed_dir: Path = EXECUTED,
    run: bool = True,
) -> dict:
    """Write the bundle and its zip; unless ``run=False``, execute and search it.

    Returns ``{"bundle", "zip", "wheel", "notebooks", "executed", "leaks"}``. Raises
    ``RuntimeError`` on a link outside the bundle, a forbidden file in the wheel or an
    answer in sight (notebooks, quiz cells, the package's docstrings), and nbclient's ``CellExecutionError`` when a notebook fails.
    """
    from helpers.notebooks import notebook_paths

    paths = paths or notebook_paths()
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    notebooks = write_notebooks(paths, out_dir / "notebooks")
    found = quiz_leaks({p.name: nbformat.read(p, as_version=4) for p in notebooks})
    if found:
        raise RuntimeError("quiz answers in the student edition:\n" + "\n".join(found))
    found = docstring_leaks()
    if found:
        raise RuntimeError("answers in the student package's docstrings:\n" + "\n".join(found))
    for page in BUNDLE_PAGES:
        shutil.copy(ROOT / page, out_dir / page)
    with tempfile.TemporaryDirectory() as tmp:
        version = metadata.version("choosing-epsilon-helpers")
        wheel_name = f"choosing_epsilon_helpers-{version}-py3-none-any.whl"
        readme = student_readme(wheel_name)
        stage_package(Path(tmp) / "src", readme, answers.build_key())
        wheel = build_wheel(Path(tmp) / "src", out_dir)
    if wheel.name != wheel_name:
        raise RuntimeError(f"the wheel is {wheel.name}, the README names {wheel_name}")
    (out_dir / "README.md").write_text(readme, encoding="utf-8")
    (out_dir / "requirements.txt").write_text(student_requirements(wheel.name), "utf-8")
    (out_dir / "check_python.py").write_text(check_python_script(), "utf-8")
    bad = forbidden_in_wheel(wheel)
    if bad:
        raise RuntimeError(f"the student's wheel holds {bad}")
    problems = broken_links(out_dir)
    if problems:
        raise RuntimeError("links leave the bundle:\n" + "\n".join(problems))
    zip_bundle(out_dir, zip_path)
    result = {
        "bundle": out_dir,
        "zip": zip_path,
        "wheel": wheel,
        "notebooks": notebooks,
        "executed": [],
        "leaks": [],
    }
    if run:
        if executed_dir.exists():
            shutil.rmtree(executed_dir)
        executed = execute_with_wheel(notebooks, wheel, executed_dir)
        result["executed"] = executed
        found = leaks({p.name: nbformat.read(p, as_version=4) for p in executed})
        result["leaks"] = found
        if found:
            raise RuntimeError("answers in sight in the student edition:\n" + "\n".join(found))
    return result


def main(argv: list[str]) -> int:
    """``course.py student [NOTEBOOK ...] [--no-run] [--out DIR]``: DIR (default build/) gets
    ``student/``, its zip and ``student-executed/`` (CI's reader check builds one per Python
    at once, each in a folder of its own)."""
    argv = list(argv)
    run = "--no-run" not in argv
    places = {}
    if "--out" in argv:
        at = argv.index("--out")
        if at + 1 >= len(argv):
            raise SystemExit("--out needs a folder")
        out = Path(argv[at + 1]).resolve()
        del argv[at : at + 2]
        places = {
            "out_dir": out / BUILD.name,
            "zip_path": out / ZIP.name,
            "executed_dir": out / EXECUTED.name,
        }
    paths = [Path(a).resolve() for a in argv if not a.startswith("--")] or None
    result = build(paths, run=run, **places)
    ran = f", all {len(result['executed'])} ran, no answer in sight" if run else ""

    def shown(path: Path) -> str:
        return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)

    print(
        f"student edition: {len(result['notebooks'])} notebooks in "
        f"{shown(result['bundle'])}/ and {shown(result['zip'])}{ran}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
