"""Grade submitted notebooks: ``python3 course.py grade SUBMISSIONS_DIR --out OUT_DIR``.

Every ``*.ipynb`` in SUBMISSIONS_DIR is executed top to bottom in a fresh kernel of the
reader's environment (by default ``build/grade-env/``, made once from the student bundle
exactly as its README tells a student; ``--python`` picks another interpreter), in a
temporary directory, with a time limit per notebook (``--timeout``, default 600 s) and per
cell (``--cell-timeout``, default 300 s; the cell is interrupted and the next one runs). Up to
``--jobs`` notebooks run at once (default: the number of CPUs).

Each exercise's answer is read from the variable the student assigned, ``answer_NN_K``, as
the kernel holds it right after the last cell that names it (never from printed text, never
through the ``check`` in the student's namespace), and judged here, in the grader's process,
against the instructor's answers (``helpers.exercises.answers``) at the precision the
exercise states: the same rule as the student's ``check``. A notebook that raises keeps the
points of every cell that ran (a cell that raises does not stop the next one); one that
never ends is killed at its time limit and keeps what was read before; one that cannot be
read gets a row of zeros. Writes:

* ``OUT_DIR/grades.csv``: ``submission,<exercise id>,...,total``, one row per notebook (its
  file stem), 1 or 0 per exercise, the total the sum; the columns are the exercises of the
  course notebooks the submissions are editions of (from the metadata the student edition
  writes, else from the ``check`` calls in the file);
* ``OUT_DIR/feedback/<submission>.md``: each exercise's verdict and hint, and what went wrong
  while the notebook ran.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import venv
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import answers, judge_answer, variable
from ._open import OPEN

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("_runner.py")
BUNDLE = ROOT / "build" / "student"
GRADE_ENV = ROOT / "build" / "grade-env"
CHECK_CALL = re.compile(r"""check\(\s*["']([0-9]{2}\.[0-9]+)["']""")
VARIABLE = re.compile(r"\banswer_(\d\d)_(\d+)\b")


# --- which exercises a submission holds --------------------------------------------------


def _sort_key(exercise_id: str) -> tuple:
    return tuple(int(p) for p in exercise_id.split("."))


def exercises_of(path: Path) -> list[str]:
    """The exercise ids of a submission: from the student edition's metadata, else its text."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return []
    known = set(answers.known_ids())
    listed = (nb.get("metadata") or {}).get("choosing_epsilon", {}).get("exercises")
    if isinstance(listed, list) and listed and set(listed) <= known:
        return sorted(set(listed), key=_sort_key)
    text = "\n".join(
        "".join(c.get("source", "")) for c in nb.get("cells", []) if isinstance(c, dict)
    )
    found = set(CHECK_CALL.findall(text)) | {f"{a}.{b}" for a, b in VARIABLE.findall(text)}
    return sorted(found & known, key=_sort_key)


# --- running one notebook ------------------------------------------------------------------


@dataclass
class Run:
    """What the runner reported about one submission."""

    values: dict = field(default_factory=dict)
    events: list = field(default_factory=list)
    status: str = "done"  # done | timed out | died | unreadable | crashed
    seconds: float = 0.0
    log: str = ""


def run_notebook(
    path: Path, python: str, *, timeout: float, cell_timeout: float, names: list[str]
) -> Run:
    """Execute ``path`` in a child process group; kill it at ``timeout``; keep what it reported."""
    open_ids = {variable(i): i for i in OPEN}
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        notebook = work / path.name
        shutil.copy(path, notebook)
        out = Path(tmp) / "values.jsonl"
        out.touch()
        config = Path(tmp) / "config.json"
        config.write_text(
            json.dumps(
                {
                    "notebook": str(notebook),
                    "out": str(out),
                    "cwd": str(work),
                    "names": names,
                    "open_ids": open_ids,
                    "cell_timeout": cell_timeout,
                }
            )
        )
        env = {
            **os.environ,
            # one thread per kernel: --jobs kernels share the machine
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "MPLBACKEND": "Agg",
            "PYTHONPATH": "",
        }
        env.pop("JUPYTER_PATH", None)
        start = time.monotonic()
        with (Path(tmp) / "log.txt").open("w") as log:
            process = subprocess.Popen(
                [python, str(RUNNER), str(config)],
                cwd=work,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: the kernel dies with it
            )
            status = "done"
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                status = "timed out"
                _kill_group(process)
            else:
                _kill_group(process)  # a kernel left behind
        result = Run(status=status, seconds=time.monotonic() - start)
        result.log = (Path(tmp) / "log.txt").read_text(errors="replace")[-3000:]
        for line in out.read_text(encoding="utf-8").splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue  # a line cut by the kill
            result.events.append(event)
            if event.get("event") == "values":
                result.values.update(event["values"])
            elif event.get("event") in ("unreadable", "died"):
                result.status = event["event"]
        kinds = {e.get("event") for e in result.events}
        if result.status == "done" and "done" not in kinds:
            result.status = "crashed"
    return result


def _kill_group(process: subprocess.Popen) -> None:
    try:
        if hasattr(os, "killpg"):
            os.killpg(process.pid, signal.SIGKILL)
        else:  # Windows: the kernel may outlive its parent
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


# --- decoding and judging ------------------------------------------------------------------


class _Unreadable:
    def __init__(self, description: str):
        self.description = description

    def __repr__(self) -> str:
        return self.description


def decode(encoded):
    """The Python value the runner encoded (arrays as numpy arrays)."""
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
        return tuple(decode(v) for v in value)
    if kind == "list":
        return [decode(v) for v in value]
    if kind == "dict":
        return {k: decode(v) for k, v in value.items()}
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
        return decode(value)
    if kind == "callable":
        return _Unreadable("a function")
    return _Unreadable(f"a {encoded.get('type', 'value')} the grader cannot read")


def verdict(exercise_id: str, run: Run) -> tuple[int, str]:
    """(1 or 0, the verdict line) for one exercise of one run."""
    name = variable(exercise_id)
    if name not in run.values:
        return 0, f"… {exercise_id}: `{name}` was never assigned (did the cell that sets it run?)"
    value = decode(run.values[name])
    if isinstance(value, _Unreadable):
        return 0, f"✗ {exercise_id}: `{name}` is {value!r}"
    ok, line = judge_answer(exercise_id, value, reduced=exercise_id in OPEN)
    return int(ok), line


# --- the grading environment -----------------------------------------------------------------


def _venv_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_grade_env(bundle: Path = BUNDLE, env: Path = GRADE_ENV) -> Path:
    """The reader's environment from the student bundle, installed as its README says."""
    wheels = sorted(bundle.glob("choosing_epsilon_helpers-*.whl"))
    if not wheels:
        from .student import build

        print("building the student bundle for the grading environment ...", flush=True)
        build(run=False)
        wheels = sorted(bundle.glob("choosing_epsilon_helpers-*.whl"))
    requirements = bundle / "requirements.txt"
    digest = hashlib.sha256(requirements.read_bytes() + wheels[-1].read_bytes()).hexdigest()
    stamp = env / ".grade-env"
    python = _venv_python(env)
    if python.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return python
    if not python.exists():
        print(f"creating the grading environment in {env} (once, a few minutes) ...", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
    commands = [
        [str(python), "-m", "pip", "install", "-q", "-r", "requirements.txt"],
        # the same version number with another key: install the new wheel over the old
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--force-reinstall",
            "--no-deps",
            wheels[-1].name,
        ],
    ]
    for command in commands:
        subprocess.run(command, cwd=bundle, check=True)
    stamp.write_text(digest + "\n")
    return python


# --- the whole directory -------------------------------------------------------------------


def _feedback(stem: str, exercises: list[str], own: list[str], marks, run: Run, limits) -> str:
    total = sum(point for point, _ in marks)
    lines = [
        f"# Feedback: {stem}",
        "",
        f"Score **{total} / {len(exercises)}**. The notebook ran for {run.seconds:.0f} s "
        f"({run.status}); each answer was read from its `answer_NN_K` variable.",
        "",
        "| exercise | point | verdict |",
        "|---|---|---|",
    ]
    for exercise_id, (point, line) in zip(exercises, marks, strict=True):
        note = "" if exercise_id in own else " (not an exercise of this notebook)"
        lines.append(f"| {exercise_id} | {point} | {line.replace('|', '∣')}{note} |")
    lines += ["", "## While it ran", ""]
    happened = []
    for event in run.events:
        if event.get("event") == "error":
            happened.append(f"- cell {event['cell']} raised {event['ename']}: {event['evalue']}")
        elif event.get("event") == "timeout":
            happened.append(
                f"- cell {event['cell']} ran past its {limits[1]:g} s limit and was interrupted"
            )
        elif event.get("event") == "unreadable":
            happened.append(f"- the file is not a readable notebook ({event['message']})")
        elif event.get("event") == "died":
            happened.append(f"- the kernel died at cell {event['cell']}")
    if run.status == "timed out":
        happened.append(
            f"- stopped at the notebook's {limits[0]:g} s limit; answers read before then count"
        )
    elif run.status == "crashed":
        happened.append("- the grader's runner stopped unexpectedly; its log ends with:")
        happened.append("\n```\n" + run.log[-1500:] + "\n```")
    lines += happened or ["- every cell ran without an error"]
    return "\n".join(lines) + "\n"


def grade(
    submissions: Path,
    out_dir: Path,
    *,
    python: str | None = None,
    timeout: float = 600,
    cell_timeout: float = 300,
    jobs: int | None = None,
) -> list[dict]:
    """Grade every ``*.ipynb`` in ``submissions``; write grades.csv and feedback/; return rows."""
    paths = sorted(p for p in submissions.glob("*.ipynb") if not p.name.startswith("."))
    stems = [p.stem for p in paths]
    if len(set(stems)) != len(stems):
        raise ValueError("two submissions share a file stem")
    python = python or str(ensure_grade_env())
    # absolute, but not resolved: a venv's python is a symlink to the base interpreter
    python = os.path.abspath(shutil.which(python) or python)
    own = {p: exercises_of(p) for p in paths}
    exercises = sorted({i for ids in own.values() for i in ids}, key=_sort_key)
    names = [variable(i) for i in answers.known_ids()]
    jobs = max(1, jobs or os.cpu_count() or 1)

    def one(path: Path) -> Run:
        print(f"grading {path.name} ...", flush=True)
        return run_notebook(path, python, timeout=timeout, cell_timeout=cell_timeout, names=names)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = list(pool.map(one, paths))
    (out_dir / "feedback").mkdir(parents=True, exist_ok=True)
    rows = []
    with (out_dir / "grades.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["submission", *exercises, "total"])
        for path, run in zip(paths, runs, strict=True):
            marks = [verdict(i, run) for i in exercises]
            points = [point for point, _ in marks]
            writer.writerow([path.stem, *points, sum(points)])
            rows.append({"submission": path.stem, **dict(zip(exercises, points, strict=True))})
            rows[-1]["total"] = sum(points)
            text = _feedback(path.stem, exercises, own[path], marks, run, (timeout, cell_timeout))
            (out_dir / "feedback" / f"{path.stem}.md").write_text(text, encoding="utf-8")
    return rows


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
        "--python",
        default=None,
        help="the kernel's Python (default: build/grade-env, made from the student bundle)",
    )
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder")
    rows = grade(
        args.submissions,
        args.out,
        python=args.python,
        timeout=args.timeout,
        cell_timeout=args.cell_timeout,
        jobs=args.jobs,
    )
    print(f"graded {len(rows)} notebooks: {args.out / 'grades.csv'}, {args.out / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
