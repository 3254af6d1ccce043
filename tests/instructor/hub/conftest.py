"""The student build the hub's tests start from (made once, not executed: about 20 s)."""

from __future__ import annotations

from pathlib import Path

import pytest

from instructor.student import build as build_student


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    """A student build, not executed: what ``course.py hub`` starts from."""
    tmp = tmp_path_factory.mktemp("student")
    build_student(out_dir=tmp / "student", zip_path=tmp / "student.zip", run=False)
    return tmp / "student"
