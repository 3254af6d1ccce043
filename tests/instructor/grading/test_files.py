"""instructor/grading/files.py: what the grader and the hub kit read and write on a student's
behalf (issue 51: root never follows a student; outputs private to the instructor)."""

from __future__ import annotations

import csv
import io
import os
import stat

import pytest

from instructor.grading import files


def test_a_private_write_replaces_a_planted_link_and_is_the_instructors_only(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("keep")
    folder = tmp_path / "out"
    fd = files.open_private_folder(folder)
    try:
        (folder / "grades.csv").symlink_to(target)
        files.write_private(fd, "grades.csv", b"a,b\n")
        sub = files.private_subfolder(fd, "feedback")
        os.close(sub)
        with pytest.raises(ValueError, match="not a file name"):
            files.write_private(fd, "../x", b"")
    finally:
        os.close(fd)
    assert target.read_text() == "keep" and not (folder / "grades.csv").is_symlink()
    assert stat.S_IMODE((folder / "grades.csv").stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "feedback").stat().st_mode) == 0o700


def test_a_folder_on_the_way_that_is_a_link_is_refused(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(ValueError, match="is not a directory"):
        files.open_private_folder(tmp_path / "link" / "out")
    assert not (tmp_path / "real" / "out").exists()


def test_a_students_file_is_checked_after_it_is_opened(tmp_path):
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        (tmp_path / "own.ipynb").write_bytes(b"{}")
        assert files.read_regular(fd, "own.ipynb", owner=os.geteuid(), limit=10) == (b"{}", "")
        os.link(tmp_path / "own.ipynb", tmp_path / "twin.ipynb")
        # with no owner to check, a file of two names may be anyone's: refused
        data, why = files.read_regular(fd, "twin.ipynb", owner=None, limit=10)
        assert data is None and "2 names" in why
        # the owner's own second name is theirs
        assert files.read_regular(fd, "twin.ipynb", owner=os.geteuid(), limit=10)[0] == b"{}"
        data, why = files.read_regular(fd, "own.ipynb", owner=os.geteuid() + 1, limit=10)
        assert data is None and "owned by user id" in why
        (tmp_path / "big.ipynb").write_bytes(b"x" * 11)
        assert files.read_regular(fd, "big.ipynb", owner=None, limit=10)[0] is None
        (tmp_path / "dir.ipynb").mkdir()
        assert files.read_regular(fd, "dir.ipynb", owner=None, limit=10)[1] == "not a regular file"
        os.mkfifo(tmp_path / "fifo.ipynb")  # opened without blocking, never read
        assert files.read_regular(fd, "fifo.ipynb", owner=None, limit=10)[1] == "not a regular file"
        (tmp_path / "link.ipynb").symlink_to(tmp_path / "own.ipynb")
        assert files.read_regular(fd, "link.ipynb", owner=None, limit=10)[0] is None
        assert files.read_regular(fd, "none.ipynb", owner=None, limit=10) == (None, "missing")
    finally:
        os.close(fd)


def test_a_csv_field_as_long_as_a_notebook_is_read():
    text = io.StringIO()
    csv.writer(text).writerows([["id", "answer"], ["1", "x" * 300_000]])
    text.seek(0)
    [row] = list(files.csv_rows(text))
    assert len(row["answer"]) == 300_000
