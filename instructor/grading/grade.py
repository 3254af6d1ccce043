"""Grade submitted notebooks: ``python3 course.py grade SUBMISSIONS_DIR --out OUT_DIR``.

Every ``*.ipynb`` in SUBMISSIONS_DIR (paths are read from where the command is typed) is
graded against the course notebook it is an edition of: the student edition's metadata, else
its file name, else its ``check`` calls say *which* course notebook; the exercises, their
statements and headings are then the course's own (``scoring.exercise_ids``), never the
submission's. For each submission and exercise the grader draws parameters
(``scoring.draw_parameters``, seeded by HMAC-SHA256 of the instructor's secret,
``build/grade-secret`` or ``--secret``, over the submission's digest and the exercise id),
injects them in one code cell tagged ``injected-parameters`` right after the cell tagged
``parameters``, and runs the notebook top to bottom in a fresh kernel of the reader's
environment (``build/grade-env/``, made once from the student bundle and mounted read-only),
inside a bubblewrap sandbox of its own (``sandbox.py``: no network, no view of anything but its
own copy, limits on memory, processes, files, output and time, every process gone at the end).
Where no sandbox can be made the grader refuses, unless ``--unsafe-no-sandbox``.

Each answer is read from the variable the student assigned, ``answer_NN_K``, as the kernel
holds it after the last cell that names it (never from printed text, never through the
``check`` in the student's namespace) and scored here, in the grader's process
(``scoring.score``): any value, however large or strange, is a ✗ with a message. A notebook
that raises keeps the points of every cell that ran (a cell that raises does not stop the next
one); a cell past ``--cell-timeout`` is interrupted, and killed with its kernel if it does not
stop; a notebook past ``--timeout`` is killed with its sandbox and keeps what was read before.
Writes, only inside OUT_DIR (refused when anyone but the instructor could write there), never
through a symbolic link, each file readable by the instructor only (``files``):

* ``OUT_DIR/grades.csv``: ``student,submission,notebook,<exercise id>,...,total,max,flag``,
  one row per notebook: ``student`` is its identity (the file's stem as given, or
  ``--roster``'s id; :func:`identities`: files whose cleaned names collide, or whose names
  read alike, are held back, never renamed: the rest of the class is graded and written, the
  clash named on standard error and the run ends with exit code 2),
  ``submission`` the cleaned stem its feedback is named by, then the points of each exercise
  of its own notebook (empty for another notebook's), their sum and the most it could score;
  ``flag`` says why the instructor should look (a notebook handed in for another, a name the
  gradebook reserves); every field is escaped by ``csv_field`` (formulas, control
  characters);
* ``OUT_DIR/canvas.csv`` and ``OUT_DIR/moodle.csv``: the totals as the two LMSs import them
  (:func:`gradebooks`);
* ``OUT_DIR/feedback/<submission>.md``: per exercise, its title and heading, the points of
  each part and why; what went wrong while the notebook ran, with the line that raised; and
  any edited exercise statement; every text from the submission as literal Markdown
  (``scoring.markdown_text``).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import numpy as np

from helpers.exercises import OPEN, variable
from helpers.notebooks import notebook_paths
from instructor.student import statement_cells, statement_sha256, student_version

from . import files, sandbox, scoring
from .identity import (  # noqa: F401 (the grader's names, as tests and the hub use them)
    HUB_ROSTER,
    RESERVED,
    handed_in_for,
    identify,
    identities,
    is_notebook_file,
    name_key,
    read_roster,
    roster_mismatches,
    safe_name,
)
from .report import (  # noqa: F401
    CANVAS_COLUMNS,
    MAX_EVENTS_SHOWN,
    _grades_csv,
    csv_field,
    feedback,
    gradebooks,
)
from .run import (  # noqa: F401
    BUNDLE,
    GRADE_ENV,
    INJECTED_TAG,
    PARAMETERS_TAG,
    ROOT,
    RUNNER,
    WRITTEN_TAG,
    Environment,
    Run,
    _host_paths,
    ensure_grade_env,
    neutral_bytecode,
    neutral_overlays,
    run_notebook,
)

SECRET = ROOT / "build" / "grade-secret"
#: A submission larger than this is not read (a notebook of the course is well under 1 MB).
MAX_SUBMISSION_BYTES = 20 * 1024**2
REFUSAL = (
    "refusing to grade: {reason}. A submission is untrusted code and runs as you without a "
    "sandbox (your files, your network, your processes). Install bubblewrap, or pass "
    "--unsafe-no-sandbox to run it anyway, e.g. on a throwaway VM."
)


NO_CGROUP = (
    "refusing to grade: {reason}. Without a cgroup only each process is bounded (its address "
    "space, the processes of its user): several processes, or memory file descriptors, can "
    "then hold several times --memory at once. Pass --unsafe-no-cgroup to grade so anyway."
)


def _sort_key(exercise_id: str) -> tuple:
    return tuple(int(p) for p in exercise_id.split("."))


# --- the course: which notebook, which exercises, their statements -------------------------


@dataclass
class Course:
    """What the grader knows of one course notebook (from the course, never a submission)."""

    stem: str
    path: Path
    exercises: list[str]
    #: exercise id -> the checksums of its statement cells
    statements: dict[str, list[str]]
    #: exercise id -> "Exercise 1 · Your own bisection (under “Exercises”)"
    titles: dict[str, str]
    written: list[str] = field(default_factory=list)


def _title(nb, indices: list[int], exercise_id: str) -> str:
    """The exercise's bold title and the heading above it."""
    text = nb.cells[indices[0]].source if indices else ""
    bold = re.match(r"\s*\*\*(.+?)\*\*", text)
    title = bold.group(1).strip().rstrip(".") if bold else f"Exercise {exercise_id}"
    first = indices[0] if indices else len(nb.cells)
    for cell in reversed(nb.cells[:first]):
        heading = (
            re.search(r"^#{1,6}\s+(.+)$", cell.source, re.M)
            if cell.cell_type == "markdown"
            else None
        )
        if heading:
            return f"{title} (under “{heading.group(1).strip()}”)"
    return title


def load_course(path: Path) -> Course:
    nb = nbformat.read(path, as_version=4)
    student = student_version(nb, path.stem)
    cells = statement_cells(nb)
    exercises = scoring.exercise_ids(path)
    statements = {
        i: [statement_sha256(student.cells[k].source) for k in cells.get(i, [])] for i in exercises
    }
    titles = {i: _title(nb, cells.get(i, []), i) for i in exercises}
    written = list(scoring.written_ids(path))
    return Course(path.stem, path, exercises, statements, titles, written)


def course_notebooks() -> dict[str, Path]:
    return {p.stem: p for p in notebook_paths()}


def edited_statements(nb: dict, course: Course) -> list[str]:
    """The exercises whose statement no markdown cell of the submission holds verbatim."""
    present = set()
    for cell in nb.get("cells", []):
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            present.add(statement_sha256("".join(source) if isinstance(source, list) else source))
    return [i for i, sums in course.statements.items() if any(s not in present for s in sums)]


# --- names, the secret and the parameters ------------------------------------------------------


def load_secret(path: Path | None = None) -> bytes:
    """The instructor's secret (made once with ``secrets.token_bytes``; never shipped)."""
    path = path or SECRET
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(base64.b64encode(secrets.token_bytes(32)) + b"\n")
    return base64.b64decode(path.read_bytes().strip())


def seed(secret: bytes, digest: bytes, exercise_id: str) -> bytes:
    return hmac.new(secret, digest + exercise_id.encode(), hashlib.sha256).digest()


def inject(nb, params: dict[str, dict]):
    """A copy of ``nb`` with one cell tagged ``injected-parameters`` after the last cell tagged
    ``parameters`` (at the top when there is none), as papermill does."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    lines = [f"{name} = {value!r}" for name, value in params.items()]
    if not lines:
        return nb
    cell = nbformat.v4.new_code_cell(
        "# Parameters injected by the grader\n" + "\n".join(lines),
        metadata={"tags": [INJECTED_TAG]},
    )
    tagged = [
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and PARAMETERS_TAG in c.get("metadata", {}).get("tags", [])
    ]
    nb.cells.insert(tagged[-1] + 1 if tagged else 0, cell)
    return nb


class Progress:
    """One line per graded submission on standard error: how many are done, of how many, its
    time and status (the per-submission time the instructor reads in the log)."""

    def __init__(self, total: int):
        self.total, self.count, self.start = total, 0, time.monotonic()
        self.lock = threading.Lock()

    def done(self, name: str, seconds: float, status: str) -> None:
        with self.lock:
            self.count += 1
            width = 20
            filled = width * self.count // max(1, self.total)
            bar = "#" * filled + "." * (width - filled)
            elapsed = time.monotonic() - self.start
            print(
                f"[{bar}] {self.count}/{self.total} {scoring.visible(name)!s:.60} "
                f"{seconds:.1f} s ({status}); {elapsed:.0f} s in all",
                file=sys.stderr,
                flush=True,
            )


# --- decoding and judging ------------------------------------------------------------------


class _Unreadable:
    def __init__(self, description: str):
        self.description = description

    def __repr__(self) -> str:
        return self.description


def decode(encoded):
    """The Python value the runner encoded (arrays as numpy arrays); never raises."""
    try:
        return _decode(encoded)
    except Exception as error:  # a value too large or too strange: a ✗ with a message
        return _Unreadable(f"a value the grader cannot read ({type(error).__name__})")


def _decode(encoded):
    if not isinstance(encoded, dict):
        raise TypeError("not an encoded value")
    kind = encoded.get("t")
    value = encoded.get("v")
    if kind == "ellipsis":
        return ...
    if kind == "none":
        return None
    if kind == "bool":
        return bool(value)
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if kind == "str":
        return str(value)
    if kind == "tuple":
        return tuple(_decode(v) for v in value)
    if kind == "list":
        return [_decode(v) for v in value]
    if kind == "dict":
        return {k: _decode(v) for k, v in value.items()}
    if kind == "array":
        if encoded["kind"] == "f":
            flat = [float(v) for v in value]
        elif encoded["kind"] == "b":
            flat = [bool(v) for v in value]
        else:
            flat = [int(v) for v in value]
        dtype = {"f": float, "b": bool}.get(encoded["kind"], np.int64)
        return np.array(flat, dtype=dtype).reshape(encoded["shape"])
    if kind == "reduced":
        return _decode(value)
    if kind == "callable":
        return _Unreadable("a function")
    return _Unreadable(f"a {encoded.get('type', 'value')} the grader cannot read")


# --- writing only inside --out, never through a link -----------------------------------------


class Output:
    """OUT_DIR, opened once and refused when a student could write it; each file written
    private to the instructor (``files.write_private``: 0600, by a fresh temporary name renamed
    over the target, so a link planted there is replaced, never followed; folders 0700)."""

    def __init__(self, out_dir: Path):
        self.path = Path(os.path.abspath(out_dir))
        self.fd = files.open_private_folder(self.path)

    def write(self, name: str, text: str, *, directory: str | None = None) -> None:
        if directory:
            try:
                fd = files.private_subfolder(self.fd, directory)
            except ValueError as error:
                raise ValueError(f"{self.path}/{error}") from error
        else:
            fd = os.dup(self.fd)
        try:
            files.write_private(fd, name, text.encode("utf-8"))
        finally:
            os.close(fd)

    def close(self) -> None:
        os.close(self.fd)


# --- scoring and feedback ------------------------------------------------------------------


@dataclass
class Graded:
    """One submission's result."""

    name: str
    notebook: str | None
    student: str = ""
    parts: dict[str, list] = field(default_factory=dict)  #: exercise id -> [Part]
    run: Run = field(default_factory=Run)
    edited: list[str] = field(default_factory=list)
    written: list[dict] = field(default_factory=list)
    problem: str = ""
    flag: str = ""  #: why the instructor should look (grades.csv's ``flag`` column)

    @property
    def total(self) -> float:
        return sum(p.points for parts in self.parts.values() for p in parts)

    @property
    def max(self) -> float:
        return sum(p.max_points for parts in self.parts.values() for p in parts)


def _safe_score(exercise_id: str, params: dict, value, note: str = "") -> list:
    try:
        parts = list(scoring.score(exercise_id, params, value))
    except Exception as error:  # scoring must not raise; if it does, this exercise is ✗
        parts = [
            scoring.Part(
                exercise_id, 0.0, 1.0, f"✗ {exercise_id}: not scored ({type(error).__name__})"
            )
        ]
    if note:
        parts = [scoring.Part(p.name, 0.0, p.max_points, note) for p in parts]
    return parts


def score_run(course: Course, run: Run, params: dict[str, dict]) -> dict[str, list]:
    scored = {}
    for exercise_id in course.exercises:
        name = variable(exercise_id)
        if name not in run.values:
            note = f"`{name}` was never assigned (did the cell that sets it run?)"
            scored[exercise_id] = _safe_score(exercise_id, params[exercise_id], ..., note)
            continue
        value = decode(run.values[name])
        if isinstance(value, _Unreadable):
            scored[exercise_id] = _safe_score(
                exercise_id, params[exercise_id], ..., f"✗ `{name}` is {value!r}"
            )
            continue
        scored[exercise_id] = _safe_score(exercise_id, params[exercise_id], value)
    return scored


# --- the whole directory -------------------------------------------------------------------


def _written_answers(nb: dict, course: Course, name: str) -> list[dict]:
    """The submission's written answers to the course's written questions, one per question.

    The rule when a question has several cells (the notebook's own and copies a student
    added): the first answered cell in the notebook's order is kept (the first cell when
    none is answered); the others are not marked, and the kept row says how many there were
    (``note``) and carries their text (``others``) for the instructor to read."""
    rows = []
    for cell in nb.get("cells", []):
        meta = cell.get("metadata", {}) if isinstance(cell, dict) else {}
        if cell.get("cell_type") != "markdown" or WRITTEN_TAG not in meta.get("tags", []):
            continue
        written_id = (meta.get("choosing_epsilon") or {}).get("written")
        if written_id in course.written:
            source = cell.get("source", "")
            answer = "".join(source) if isinstance(source, list) else str(source)
            rows.append(
                {
                    "submission": name,
                    "notebook": course.stem,
                    "id": written_id,
                    "answer": answer,
                }
            )
    kept = []
    for written_id in dict.fromkeys(r["id"] for r in rows):
        cells = [r for r in rows if r["id"] == written_id]
        answered = [r for r in cells if not scoring.is_unanswered(r["answer"])]
        first = (answered or cells)[0]
        others = [r["answer"] for r in cells if r is not first]
        if others:
            first["note"] = (
                f"{len(cells)} cells answer {written_id}: the first answered one is kept; "
                f"the other {len(others)} are shown below it and not marked"
            )
            first["others"] = others
        kept.append(first)
    return kept


def grade(
    submissions: Path,
    out_dir: Path,
    *,
    python: str | None = None,
    timeout: float = 600,
    cell_timeout: float = 300,
    jobs: int | None = None,
    limits: sandbox.Limits = sandbox.DEFAULT_LIMITS,
    unsafe_no_sandbox: bool = False,
    secret: Path | None = None,
    site: Path | None = None,
    marks: Path | None = None,
    roster: Path | None = None,
    unsafe_no_cgroup: bool = False,
    notebook: str | None = None,
) -> list[dict]:
    """Grade every ``*.ipynb`` in ``submissions``; write grades.csv and feedback/; return rows.

    Raises ``RuntimeError`` (with the reason) when no sandbox can be made and
    ``unsafe_no_sandbox`` is not set. ``site``: a directory put first on the kernel's path
    (read-only), for a ``python`` whose environment lacks the student's helpers.
    """
    bound = _sandbox_or_refuse(unsafe_no_sandbox, unsafe_no_cgroup)
    output = Output(out_dir)  # before anything runs: a bad --out fails at once
    key = load_secret(secret)
    courses_by_stem = course_notebooks()
    paths = sorted(p for p in Path(submissions).iterdir() if is_notebook_file(p))
    python = python or str(ensure_grade_env())
    # absolute, but not resolved: a venv's python is a symlink to the base interpreter
    python = os.path.abspath(shutil.which(python) or python)
    environment = Environment.of(python)
    loaded: dict[str, Course] = {}
    jobs = max(1, jobs or os.cpu_count() or 1)
    read = read_roster(roster) if roster else None
    held: list[str] = []  # files that clash with another: left out, said, the rest graded
    named = identities(paths, read, held=held)
    for line in held:
        print(line, file=sys.stderr, flush=True)
    if read is not None:
        for said, names in zip(
            ("files the roster does not list", "roster files not handed in"),
            roster_mismatches(paths, read),
            strict=True,
        ):
            if names:
                shown = ", ".join(scoring.visible(n) for n in names)
                print(f"--roster: {len(names)} {said}: {shown}", file=sys.stderr, flush=True)
    expected = handed_in_for(submissions, paths, list(courses_by_stem), notebook=notebook)
    progress = Progress(len(named))
    options = {
        "timeout": timeout,
        "cell_timeout": cell_timeout,
        "limits": limits,
        "site": site,
        "unsafe": unsafe_no_sandbox,
        "cgroup": bound,
    }

    def one(item: tuple[Path, str, str]) -> tuple[Graded, object]:
        path, student, name = item
        start = time.monotonic()
        try:
            if name_key(student) in RESERVED:
                graded, nb = (
                    Graded(
                        name,
                        None,
                        problem=f"{student!r} is a row the gradebook reserves, not a student's name: "
                        "not graded (rename the file)",
                        flag="a name the gradebook reserves",
                    ),
                    None,
                )
            else:
                graded, nb = _grade_submission(
                    path,
                    name,
                    key=key,
                    courses=courses_by_stem,
                    loaded=loaded,
                    environment=environment,
                    options=options,
                    expected=expected.get(path),
                )
        except Exception as error:  # one submission never stops the run
            graded = Graded(
                name, None, problem=f"This file could not be graded ({type(error).__name__})."
            )
            nb = None
        graded.student = student
        progress.done(path.name, time.monotonic() - start, graded.run.status)
        return graded, nb

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, named))
    exercises = sorted({i for g, _ in results for i in g.parts}, key=_sort_key)
    rows = []
    for graded, nb in results:
        rows.append(_grade_row(graded, exercises))
        course = loaded.get(graded.notebook) if graded.notebook else None
        try:
            text = feedback(graded, course, nb, (timeout, cell_timeout))
        except Exception as error:  # one submission's feedback never stops the run
            text = f"# Feedback: {graded.name}\n\nThe feedback failed ({type(error).__name__}).\n"
        output.write(f"{graded.name}.md", text, directory="feedback")
    _write_written_answers(output, results)
    refused = None
    if marks is not None:
        try:
            rows = scoring.merge_written(marks, rows)
        except ValueError as error:  # the grades are written all the same, then it is said
            refused = error
    output.write("grades.csv", _grades_csv(rows, exercises))
    for name, text in gradebooks(rows).items():
        output.write(name, text)
    output.close()
    if refused is not None:
        raise ValueError(
            f"--marks: {refused}\n(grades.csv and the gradebooks were written without the "
            "written marks: fix that line and grade again)"
        )
    if held:  # the others are graded and written; the run still says it is not finished
        raise ValueError(
            "\n".join(held) + f"\n({len(rows)} submissions graded and written; the "
            f"{len(paths) - len(named)} files above are not)"
        )
    return rows


def _grade_submission(
    path: Path,
    name: str,
    *,
    key: bytes,
    courses: dict[str, Path],
    loaded: dict[str, Course],
    environment: Environment,
    options: dict,
    expected: str | None = None,
) -> tuple[Graded, object]:
    """Grade one submission for :func:`grade`: read it, tell which course notebook it is
    (``courses``: by stem; ``loaded`` caches the loaded ones), run it with parameters drawn
    from ``key`` and its bytes, score it; return the :class:`Graded` and the notebook run
    (None when it was not run). ``options``: :func:`run_notebook`'s limits and sandbox.
    ``expected``: the notebook it was handed in for (:func:`handed_in_for`); another notebook
    handed in for it is flagged and not run, so it scores nothing in any column."""
    read = _read_submission(path, name)
    if isinstance(read, Graded):
        return read, None
    data, raw, nb = read
    stem = identify(raw, path.name, list(courses))
    if stem is None and expected is not None:  # nothing in it says: what it was handed in for
        stem = expected
    if stem is None:
        return Graded(
            name,
            None,
            problem="Which course notebook this is could not be told (neither its metadata, "
            "its file name nor its `check` calls say): not graded.",
        ), None
    if expected is not None and stem != expected:
        return Graded(
            name,
            None,
            problem=f"This file was handed in for {expected}, but it is notebook {stem}: not "
            "graded (your instructor sees this; hand in the right notebook).",
            flag=f"handed in for {expected}; is {stem}",
        ), None
    if stem not in loaded:
        loaded[stem] = load_course(courses[stem])
    course = loaded[stem]
    digest = hashlib.sha256(data).digest()
    params = {i: scoring.draw_parameters(i, seed(key, digest, i)) for i in course.exercises}
    injected = inject(nb, {"params_" + i.replace(".", "_"): p for i, p in params.items() if p})
    names = [variable(i) for i in course.exercises]
    open_ids = {variable(i): i for i in course.exercises if i in OPEN}
    run = run_notebook(injected, environment, names=names, open_ids=open_ids, **options)
    graded = Graded(name, course.stem, run=run)
    graded.parts = score_run(course, run, params)
    graded.edited = edited_statements(raw, course)
    graded.written = _written_answers(raw, course, name)
    return graded, injected


def _sandbox_or_refuse(unsafe_no_sandbox: bool, unsafe_no_cgroup: bool) -> str | None:
    """How :func:`grade` bounds each sandbox as a whole (``sandbox.bound_choice``: a cgroup
    v2 of its own, else v1, else a ``systemd-run`` scope; None: not at all), logged on
    standard error; ``RuntimeError`` (with the reason) when no sandbox, or no bound, can be
    made and the matching ``unsafe_*`` option is not set."""
    if unsafe_no_sandbox:
        return None
    reason = sandbox.available()
    if reason:
        raise RuntimeError(REFUSAL.format(reason=reason))
    how, why = sandbox.bound_choice()
    if how is None and not unsafe_no_cgroup:
        raise RuntimeError(NO_CGROUP.format(reason=sandbox.cgroups_available()))
    tried = f" ({why})" if why else ""
    print(
        f"each sandbox bounded as a whole by: {how or 'nothing (--unsafe-no-cgroup)'}{tried}",
        file=sys.stderr,
        flush=True,
    )
    return how


def _read_submission(path: Path, name: str) -> tuple[bytes, dict, object] | Graded:
    """The submission's bytes, its JSON and its notebook, or the :class:`Graded` that says why
    it is not graded (a link, over the size limit, not a version 4 notebook)."""
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:  # never through a link, never more than the limit in memory
        data, why = files.read_regular(folder, path.name, owner=None, limit=MAX_SUBMISSION_BYTES)
    finally:
        os.close(folder)
    if data is None:
        return Graded(name, None, problem=f"This file is {why}: not graded.")
    try:
        raw = json.loads(data.decode("utf-8"))
        if not isinstance(raw, dict) or raw.get("nbformat") != 4:
            raise ValueError("not a version 4 notebook")
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("not a version 4 notebook")
    except Exception as error:
        graded = Graded(
            name,
            None,
            problem=f"This file is not a readable notebook ({type(error).__name__}).",
        )
        graded.run = Run(status="unreadable")
        return graded
    return data, raw, nb


def _grade_row(graded: Graded, exercises: list[str]) -> dict:
    """One row of grades.csv: who, which notebook, the points per exercise, total and max."""
    row = {
        "student": graded.student,
        "submission": graded.name,
        "notebook": graded.notebook or "",
    }
    for exercise_id in exercises:
        parts = graded.parts.get(exercise_id)
        row[exercise_id] = sum(p.points for p in parts) if parts is not None else ""
    row["total"], row["max"] = graded.total, graded.max
    row["flag"] = graded.flag
    return row


def _write_written_answers(output: Output, results: list[tuple[Graded, object]]) -> None:
    """Write the written answers of every submission (for marking by hand) into ``output``."""
    written = [r | {"student": g.student} for g, _ in results for r in g.written]
    if written:
        # made in a private directory, then written into OUT_DIR like every other file
        with tempfile.TemporaryDirectory(prefix="grade-written-") as private:
            for made in scoring.export_written(written, Path(private)):
                output.write(Path(made).name, Path(made).read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="course.py grade", description=__doc__.split("\n\n")[0].strip()
    )
    parser.add_argument("submissions", type=Path, help="a folder of submitted .ipynb files")
    parser.add_argument("--out", type=Path, required=True, help="where grades.csv and feedback/ go")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per notebook (600)")
    parser.add_argument("--cell-timeout", type=float, default=300, help="seconds per cell (300)")
    parser.add_argument("--jobs", type=int, default=None, help="notebooks at once (CPUs)")
    parser.add_argument(
        "--memory",
        type=float,
        default=2,
        help="GB of memory per process and for the whole sandbox (2)",
    )
    parser.add_argument(
        "--secret",
        type=Path,
        default=None,
        help=f"the instructor's secret ({SECRET.relative_to(ROOT)})",
    )
    parser.add_argument(
        "--marks", type=Path, default=None, help="the written answers' marks to merge"
    )
    parser.add_argument(
        "--roster",
        type=Path,
        default=None,
        help="a CSV with columns student (the LMS id) and file (the submission's file name)",
    )
    parser.add_argument(
        "--notebook",
        default=None,
        help="the notebook every submission was handed in for (e.g. 10); a hub's roster.csv "
        "beside the hand-ins says it for each",
    )
    parser.add_argument(
        "--python",
        default=None,
        help="the kernel's Python (default: build/grade-env, made from the student bundle)",
    )
    parser.add_argument(
        "--unsafe-no-sandbox",
        action="store_true",
        help="run submissions without a sandbox, as you (only on a machine you can throw away)",
    )
    parser.add_argument(
        "--unsafe-no-cgroup",
        action="store_true",
        help="grade where no cgroup can be made: memory and processes bounded per process only",
    )
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder (paths are read from {Path.cwd()})")
    limits = sandbox.Limits(memory=int(args.memory * 1024**3))
    try:
        rows = grade(
            args.submissions,
            args.out,
            python=args.python,
            timeout=args.timeout,
            cell_timeout=args.cell_timeout,
            jobs=args.jobs,
            limits=limits,
            unsafe_no_sandbox=args.unsafe_no_sandbox,
            unsafe_no_cgroup=args.unsafe_no_cgroup,
            secret=args.secret,
            marks=args.marks,
            roster=args.roster,
            notebook=args.notebook,
        )
    except (RuntimeError, ValueError) as error:
        print(error, file=sys.stderr)
        return 2
    print(f"graded {len(rows)} notebooks: {args.out / 'grades.csv'}, {args.out / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
