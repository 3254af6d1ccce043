#!/usr/bin/env python3
"""The reader's environment on the oldest and newest Python present: build it, run everything.

    python3 .ci/reader_check.py                 # every interpreter to check (see below)
    python3.13 .ci/reader_check.py --here       # only the Python running this file

For the oldest and the newest of the supported Pythons (course.SUPPORTED, 3.10 to 3.14) found
on this machine (``python3.X`` on PATH, else pyenv's newest 3.X.*), with a note for a
supported version that is absent: make the reader's environment exactly as ``course.py lab``
does (``course.py env`` with ``COURSE_VENV`` pointing into a temporary directory, so
``.venv/`` is not touched), execute every notebook in it (copies in the temporary
directory: the committed notebooks are not rewritten) and check that they print what the
committed ones print, then build and run the student edition with it. The newest runs numpy
without the SIMD instructions it would use here and OpenBLAS on its oldest kernel
(``baseline_cpu``), so a notebook whose printed ties or float32/BLAS digits follow this CPU
fails here, as it would on a reader's other CPU. The interpreters are checked side by side, each one's lines
printed when it ends; exits non-zero if any failed.
Standard library only.
"""

import glob
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import course  # noqa: E402  (the repository's course.py: SUPPORTED, venv_python)


def _runs_as(path: str, minor: tuple) -> bool:
    """Whether ``path`` is a working Python of version ``minor`` (pyenv shims may not be)."""
    try:
        result = subprocess.run(
            [path, "-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except OSError:
        return False
    return result.returncode == 0 and result.stdout.strip() == course._version(minor)


def find_python(minor: tuple):
    """A working interpreter of version ``minor`` (e.g. (3, 10)), or None."""
    name = "python" + course._version(minor)
    on_path = shutil.which(name)
    if on_path and _runs_as(on_path, minor):
        return on_path
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = glob.glob(os.path.join(root, "versions", course._version(minor) + ".*", "bin", name))

    def release(path):
        version = Path(path).parents[1].name
        return [int(part) for part in re.findall(r"\d+", version)[:3]]

    for path in sorted(found, key=release, reverse=True):
        if re.fullmatch(r"\d+\.\d+\.\d+", Path(path).parents[1].name) and _runs_as(path, minor):
            return path
    return None


def interpreters() -> list:
    """The oldest and newest supported Pythons present, with a note for each one absent."""
    present = {}
    for minor in course.SUPPORTED:
        path = find_python(minor)
        if path is None:
            print(f"note: no Python {course._version(minor)} on this machine", flush=True)
        else:
            present[minor] = path
    if not present:
        return []
    oldest, newest = min(present), max(present)
    for end, wanted in ((oldest, course.SUPPORTED[0]), (newest, course.SUPPORTED[-1])):
        if end != wanted:
            print(
                f"note: Python {course._version(wanted)} is absent: checking "
                f"{course._version(end)} in its place",
                flush=True,
            )
    return [present[minor] for minor in sorted({oldest, newest})]


def step(title: str, args: list, env: dict) -> float:
    print(f"--- {title}", flush=True)
    start = time.monotonic()
    code = subprocess.call([str(a) for a in args], cwd=ROOT, env=env)
    seconds = time.monotonic() - start
    if code != 0:
        sys.exit(f"FAILED ({code}) after {seconds:.0f} s: {title}")
    print(f"--- done in {seconds:.0f} s: {title}", flush=True)
    return seconds


def student_edition(out: Path) -> list:
    """The command that builds and runs the student edition in the reader's environment.

    One place to change when the student command changes: today ``course.py student``
    (run with ``COURSE_VENV`` set, so in the environment under test) writes ``out/student/``
    and executes every notebook there (``out``: this Python's own folder, since the
    interpreters are checked at once).
    """
    return [sys.executable, ROOT / "course.py", "student", "--out", out]


#: numpy's features this machine would use beyond its baseline, listed by the environment's numpy
_DISPATCHED = (
    "from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__\n"
    "print(' '.join(f for f in __cpu_dispatch__ if __cpu_features__.get(f)))"
)


def baseline_cpu(python, env: dict) -> dict:
    """``env`` with what runs ``python``'s numpy without the CPU features it would dispatch to
    here (its baseline loops and sorts) and OpenBLAS on its oldest kernel (SSE3 on x86-64,
    ARMv8 on ARM): another CPU's arithmetic. A notebook that prints rows in an order a sort's
    ties decide, or float32 or BLAS results to their last bits, prints something else then
    (tests/test_any_cpu.py). numpy's own float64 exp, log and power loops are AVX-512 only:
    on an AVX2 machine both runs compute the same float64 bits."""
    env = {k: v for k, v in env.items() if k != "NPY_ENABLE_CPU_FEATURES"}  # one or the other
    probe = subprocess.run(
        [python, "-c", _DISPATCHED], capture_output=True, text=True, timeout=300, env=env
    )
    if probe.returncode != 0:
        sys.exit(f"{python}: numpy's CPU features unreadable:\n{probe.stderr}")
    found = probe.stdout.strip()
    if found:
        env["NPY_DISABLE_CPU_FEATURES"] = found
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        env["OPENBLAS_CORETYPE"] = "Prescott"
    elif machine in ("aarch64", "arm64"):
        env["OPENBLAS_CORETYPE"] = "ARMV8"
    return env


def check_here(simd_off: bool = False) -> int:
    version = course._version(sys.version_info[:2])
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"course-reader-{version}-") as tmp:
        tmp = Path(tmp)
        env = {**os.environ, "COURSE_VENV": str(tmp / "venv")}
        env.pop("PYTHONPATH", None)
        step(
            f"Python {version}: the reader's environment (course.py env)",
            [sys.executable, ROOT / "course.py", "env"],
            env,
        )
        python = course.venv_python(tmp / "venv")
        if simd_off:
            env = baseline_cpu(python, env)
            older = {
                k: env[k] for k in ("NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE") if k in env
            }
            print(f"Python {version}: numpy and OpenBLAS as on an older CPU: {older}", flush=True)
        copies = tmp / "notebooks"
        shutil.copytree(ROOT / "notebooks", copies, ignore=shutil.ignore_patterns(".*"))
        notebooks = sorted(copies.glob("[0-9][0-9]_*.ipynb"))
        step(
            f"Python {version}: execute the {len(notebooks)} notebooks (copies in {copies})",
            [python, "-m", "helpers.notebooks", *notebooks],
            env,
        )
        # the kernel really was this Python (a user-wide "python3" kernel spec could be another)
        for path in notebooks:
            info = json.loads(path.read_text(encoding="utf-8"))["metadata"]["language_info"]
            if not info["version"].startswith(version + "."):
                sys.exit(f"{path.name} ran on Python {info['version']}, not {version}")
        # the same numbers on every Python: each copy's text outputs against the committed
        # notebook's (helpers.notebooks.stale_cells, as tests/test_notebooks.py compares them)
        compare = (
            "import sys, nbformat\n"
            "from pathlib import Path\n"
            "from helpers.notebooks import stale_cells\n"
            "bad = 0\n"
            "for copy in sys.argv[2:]:\n"
            "    committed = Path(sys.argv[1]) / Path(copy).name\n"
            "    cells = stale_cells(nbformat.read(copy, 4), nbformat.read(committed, 4))\n"
            "    if cells:\n"
            "        bad += 1\n"
            "        print(f'{committed.name}: code cells {cells} print other text')\n"
            "sys.exit(bad)\n"
        )
        step(
            f"Python {version}: the outputs match the committed notebooks",
            [python, "-c", compare, ROOT / "notebooks", *notebooks],
            env,
        )
        step(f"Python {version}: the student edition", student_edition(tmp / "build"), env)
        size = sum(f.stat().st_size for f in (tmp / "venv").rglob("*") if f.is_file())
        print(f"the reader's environment, Python {version}: {size / 2**20:.0f} MiB of files")
    print(f"=== Python {version}: reader's check passed in {time.monotonic() - start:.0f} s")
    return 0


def main(argv: list) -> int:
    if argv[:1] == ["--here"]:
        return check_here(simd_off="--simd-off" in argv)
    found = interpreters()
    if not found:
        print("note: no supported Python found: the reader's check is skipped")
        return 0
    start = time.monotonic()
    # the interpreters side by side (each executes notebooks on one core; CI has two), each
    # one's lines kept together and printed when it ends
    # the newest runs numpy and OpenBLAS as on an older CPU (baseline_cpu); tests/test_notebooks.py
    # runs them as this one does: the committed outputs against both in every run
    runs = []
    for python in found:
        log = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        simd_off = ["--simd-off"] if python == found[-1] else []
        proc = subprocess.Popen(
            [python, __file__, "--here", *simd_off],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        runs.append((python, proc, log))
    failed = 0
    for python, proc, log in runs:
        code = proc.wait()
        log.seek(0)
        print(f"=== {python} --here:\n{log.read()}", flush=True)
        log.close()
        if code != 0:
            print(f"=== {python}: the reader's check FAILED ({code})", flush=True)
            failed = failed or code
    print(f"=== the reader's check took {time.monotonic() - start:.0f} s in all")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
