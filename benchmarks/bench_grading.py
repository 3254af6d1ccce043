"""Grading a class: 60 submissions of one lecture's notebook, each in its own sandbox, 2 at once.

The submissions are the instructor's edition of the notebook (every answer computed, so every
cell runs, as in a complete submission). The kernels run this environment's Python with the
student's helpers (the wheel's files and a fresh key, no answers) first on their path, in the
bubblewrap sandbox ``course.py grade`` uses; the time is the whole command's: sandboxes,
kernels, execution and scoring. ``GRADE_BENCH_COUNT`` and ``GRADE_BENCH_NOTEBOOK`` change the
class size (60) and the notebook (10); ``GRADE_BENCH_JOBS`` the notebooks at once (2).

The sandbox's overhead per submission: ``GRADE_BENCH_OVERHEAD`` submissions (4; 0 skips it)
graded one at a time in the full sandbox (bubblewrap, seccomp, a cgroup) and then without one
(``unsafe_no_sandbox``: these are the instructor's own notebooks), the difference of the mean
times. Each submission's time is in the grader's progress lines (standard error).
"""

from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers.exercises import answers  # noqa: E402
from instructor.grading import grade as grader  # noqa: E402
from instructor.grading import sandbox  # noqa: E402
from instructor.student import stage_package  # noqa: E402


def main() -> None:
    count = int(os.environ.get("GRADE_BENCH_COUNT", "60"))
    number = os.environ.get("GRADE_BENCH_NOTEBOOK", "10")
    jobs = int(os.environ.get("GRADE_BENCH_JOBS", "2"))
    reason = sandbox.available()
    if reason:
        print(f"(no sandbox here: {reason})")
        return
    (course,) = sorted((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        stage_package(base / "stage", "student", answers.build_key())
        shutil.copytree(base / "stage" / "helpers", base / "site" / "helpers")
        # byte-compiled, as pip leaves the grading environment: no submission compiles it again
        compileall.compile_dir(base / "site", quiet=1)
        folder = base / "submissions"
        folder.mkdir()
        nb = nbformat.read(course, as_version=4)
        for index in range(count):
            nbformat.write(nb, folder / f"student_{index:02d}.ipynb")
        options = dict(python=sys.executable, site=base / "site", secret=base / "secret")
        start = time.perf_counter()
        rows = grader.grade(folder, base / "out", jobs=jobs, **options)
        seconds = time.perf_counter() - start
        overhead = int(os.environ.get("GRADE_BENCH_OVERHEAD", "4"))
        means = {}
        if overhead:
            few = base / "few"
            few.mkdir()
            for index in range(overhead):
                nbformat.write(nb, few / f"student_{index:02d}.ipynb")
            for unsafe in (False, True):
                begin = time.perf_counter()
                out = base / f"few-{unsafe}"
                grader.grade(few, out, jobs=1, unsafe_no_sandbox=unsafe, **options)
                means[unsafe] = (time.perf_counter() - begin) / overhead
    full = sum(1 for row in rows if row["total"] == row["max"] > 0)
    print("| class | notebooks at once | wall time | per notebook | full marks |")
    print("|---|---|---|---|---|")
    print(
        f"| {count} × {course.stem} | {jobs} | {seconds / 60:.1f} min | "
        f"{seconds / count:.1f} s | {full} of {count} |"
    )
    if means:
        print(
            f"\nsandbox overhead, one at a time: {means[False]:.1f} s a notebook sandboxed, "
            f"{means[True]:.1f} s without; {means[False] - means[True]:+.1f} s a submission"
        )


if __name__ == "__main__":
    main()
