#!/usr/bin/env python3
"""One entry point for readers and CI, using only the standard library.

    python3 course.py lab        # create .venv if needed, open the notebooks in JupyterLab
    python3 course.py test       # create .venv if needed, run ruff and the whole test suite
    python3 course.py notebooks  # re-execute every notebook in place (top to bottom, fresh kernel)
    python3 course.py figures    # regenerate every PNG in figures/
    python3 course.py student    # write the student edition to build/student/ and run it
    python3 course.py bench      # run the speed benchmarks and print their tables
    python3 course.py book       # build the course website into build/book/ (no execution)

The environment lives in `.venv/` beside this file. It is (re)installed from
`requirements.txt` plus this repository's `helpers` package (editable) whenever either
file changes, so a `git pull` never leaves a reader on stale pins.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".course-installed"
MIN_PYTHON = (3, 10)


def venv_python() -> Path:
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def requirements_digest() -> str:
    digest = hashlib.sha256()
    for name in ("requirements.txt", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def run(*args: object) -> int:
    return subprocess.call([str(a) for a in args], cwd=ROOT)


def ensure_environment() -> Path:
    """Create or refresh .venv; return its Python."""
    if sys.version_info < MIN_PYTHON:
        sys.exit(
            f"Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]}+ is needed; this is {sys.version.split()[0]}."
        )
    python = venv_python()
    wanted = requirements_digest()
    if python.exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return python
    if not python.exists():
        print(f"Creating the environment in {VENV} ...", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except Exception as error:  # e.g. Debian without python3-venv
            sys.exit(
                f"Could not create {VENV}: {error}\n(on Debian/Ubuntu: apt install python3-venv)"
            )
    print("Installing the pinned requirements (first run only, about a minute) ...", flush=True)
    steps = [
        (python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"),
        (python, "-m", "pip", "install", "--quiet", "-r", ROOT / "requirements.txt", "-e", ROOT),
    ]
    for step in steps:
        if run(*step) != 0:
            sys.exit("Installing the requirements failed; see the messages above.")
    STAMP.write_text(wanted + "\n")
    return python


def main(argv: list[str]) -> int:
    commands = ("lab", "test", "notebooks", "figures", "bench", "student", "book")
    if not argv or argv[0] not in commands:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    python = ensure_environment()
    env_python = str(python)
    if command == "lab":
        extra = (
            ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        )  # containers
        # the course's JupyterLab defaults (jupyter-config/): widget state is saved with the
        # notebook, so a reopened notebook shows its dashboards instead of "model not found"
        paths = [str(ROOT / "jupyter-config"), os.environ.get("JUPYTER_CONFIG_PATH", "")]
        os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join(p for p in paths if p)
        return run(
            env_python, "-m", "jupyter", "lab", "--notebook-dir", ROOT / "notebooks", *extra, *rest
        )
    if command == "test":
        lint = run(env_python, "-m", "ruff", "check", ".")
        code = run(env_python, "-m", "pytest", *rest)
        if code == 5:
            print("pytest collected no tests: treating that as a failure.", file=sys.stderr)
        return code or lint
    if command == "notebooks":
        return run(env_python, "-m", "helpers.notebooks", *rest)
    if command == "figures":
        return run(env_python, "-m", "helpers.figures", *rest)
    if command == "book":
        return run(env_python, ROOT / "book" / "build.py", *rest)
    if command == "student":
        return run(env_python, "-m", "helpers.exercises.student", *rest)
    return run(env_python, ROOT / "benchmarks" / "run.py", *rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
