"""What the grader's tests share: the sandbox (required in CI) and the student's helpers."""

from __future__ import annotations

import compileall
import os
import shutil

import pytest

from helpers.exercises import answers
from instructor.grading import sandbox
from instructor.student import stage_package


@pytest.fixture(scope="session")
def sandbox_required() -> None:
    """Skip without bubblewrap; with ``CI=true`` fail instead (``.ci/run`` installs it)."""
    reason = sandbox.available()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and no sandbox: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def student_site(tmp_path_factory):
    """The student's helpers (the wheel's files, a fresh key, no answers, byte-compiled) in a
    directory the grader mounts read-only first on the kernel's path: this environment's Python
    then runs the submissions as the student's environment would, without building it."""
    base = tmp_path_factory.mktemp("student-site")
    stage_package(base / "stage", "student", answers.build_key())
    shutil.copytree(base / "stage" / "helpers", base / "site" / "helpers")
    compileall.compile_dir(base / "site", quiet=1)  # as pip leaves an environment
    return base / "site"
