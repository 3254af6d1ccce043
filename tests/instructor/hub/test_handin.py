"""instructor/hub/handin.py: collecting the hand-ins from the homes and returning the grades."""

from __future__ import annotations

import csv
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import pytest

from instructor.grading.grade import MAX_SUBMISSION_BYTES
from instructor.hub import handin, recipes

NOTEBOOK = "10_choose_your_epsilon"


# --- hand-in: collect and return -------------------------------------------------------------


def _home(homes: Path, user: str) -> Path:
    folder = homes / user / recipes.EDITION / "notebooks"
    folder.mkdir(parents=True)
    return folder


def test_collect_names_each_hand_in_by_its_user_and_follows_no_link(tmp_path):
    homes = tmp_path / "home"
    _home(homes, "ann").joinpath(f"{NOTEBOOK}.ipynb").write_text('{"ann": 1}')
    _home(homes, "bob").joinpath(f"{NOTEBOOK}.ipynb").symlink_to(
        homes / "ann" / recipes.EDITION / "notebooks" / f"{NOTEBOOK}.ipynb"
    )
    (homes / "cat").mkdir()
    (homes / "cat" / recipes.EDITION).symlink_to(homes / "ann" / recipes.EDITION)
    os.mkfifo(_home(homes, "dan") / f"{NOTEBOOK}.ipynb")  # opened, never read (no hang)
    big = _home(homes, "eve") / f"{NOTEBOOK}.ipynb"
    with open(big, "wb") as file:
        file.truncate(MAX_SUBMISSION_BYTES + 1)
    (homes / "fay").mkdir()
    out = tmp_path / "handin"
    everyone = ["ann", "bob", "cat", "dan", "eve", "fay"]
    rows = handin.collect(homes, out, notebook="10", users=everyone)
    status = {r["user"]: r["status"] for r in rows}
    assert status["ann"] == handin.HANDED_IN and status["fay"] == handin.MISSING
    for user in ("bob", "cat", "dan", "eve"):
        assert status[user] not in (handin.HANDED_IN, handin.MISSING), user
    assert sorted(p.name for p in out.iterdir()) == ["ann.ipynb", handin.ROSTER]
    assert (out / "ann.ipynb").read_text() == '{"ann": 1}'
    with open(out / handin.ROSTER, newline="") as file:
        roster = list(csv.DictReader(file))
    assert [r["user"] for r in roster] == ["ann", "bob", "cat", "dan", "eve", "fay"]
    assert {r["notebook"] for r in roster} == {NOTEBOOK}
    with pytest.raises(ValueError, match="not empty"):
        handin.collect(homes, out, notebook="10", users=everyone)


@pytest.mark.parametrize("users", [["-x"], ["a b"], ["=cmd"], ["Ann", "ann"]])
def test_collect_refuses_names_the_grader_would_change(tmp_path, users):
    with pytest.raises(ValueError, match="users="):
        handin.collect(tmp_path, tmp_path / "out", notebook=NOTEBOOK, users=users)


def test_collect_refuses_a_notebook_the_course_has_not():
    with pytest.raises(ValueError, match="notebook='99'"):
        handin.course_stem("99")


def test_return_writes_a_private_file_and_never_through_a_link(tmp_path):
    homes, graded = tmp_path / "home", tmp_path / "graded"
    (graded / "feedback").mkdir(parents=True)
    (graded / "grades.csv").write_text(
        f"submission,notebook,10.1,total,max\nann,{NOTEBOOK},2,2,9\n"
    )
    (graded / "feedback" / "ann.md").write_text("# Feedback: ann\nwell done\n")
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "user,submission,status,bytes,sha256,notebook,collected\n"
        f"ann,ann.ipynb,handed in,1,x,{NOTEBOOK},t\nbob,,missing,,,{NOTEBOOK},t\n"
    )
    for user in ("ann", "bob"):
        (homes / user).mkdir(parents=True)
    written = handin.return_grades(graded, homes, roster)
    assert written == [homes / u / handin.GRADES_DIR / f"{NOTEBOOK}.md" for u in ("ann", "bob")]
    text = written[0].read_text()
    assert "| 10.1 | 2 |" in text and "| max | 9 |" in text and "well done" in text
    assert "No notebook of yours" in written[1].read_text()
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    # a student who points ~/grades elsewhere gets nothing written there
    shutil.rmtree(homes / "bob" / handin.GRADES_DIR)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (homes / "bob" / handin.GRADES_DIR).symlink_to(elsewhere)
    written[0].unlink()
    with pytest.raises(RuntimeError, match=r"not for:\nbob: .*not written"):
        handin.return_grades(graded, homes, roster)
    assert list(elsewhere.iterdir()) == []
    assert written[0].exists()  # the others' grades are written all the same


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="writes as another user: root only"
)
def test_return_needs_nothing_the_student_cannot_reach(tmp_path, monkeypatch):
    """Issue 50: `hub return` ran the checkout's Python as each student, so it failed wherever
    the checkout sat in a folder students cannot enter (an instructor's home, a 0700 temporary
    folder). The students' side now runs no program: here the interpreter is moved out of any
    student's reach and the homes belong to a user who can reach nothing else."""
    uid = gid = 65534  # nobody, nogroup: a student with no access to the instructor's files
    base = Path(tempfile.mkdtemp(prefix="course-homes-"))
    try:
        os.chmod(base, 0o711)  # the students pass through to their own homes only
        homes, graded = base / "home", tmp_path / "graded"
        homes.mkdir(mode=0o711)
        (graded / "feedback").mkdir(parents=True)
        (graded / "grades.csv").write_text(f"submission,notebook,total,max\nann,{NOTEBOOK},3,9\n")
        roster = tmp_path / "roster.csv"
        roster.write_text(
            "user,submission,status,bytes,sha256,notebook,collected\n"
            f"ann,ann.ipynb,handed in,1,x,{NOTEBOOK},t\n"
        )
        (homes / "ann").mkdir(mode=0o700)
        os.chown(homes / "ann", uid, gid)
        hidden = tmp_path / "instructor-only"  # under pytest's 0700 temporary folder
        hidden.mkdir(mode=0o700)
        monkeypatch.setattr(sys, "executable", str(hidden / "python"))
        [written] = handin.return_grades(graded, homes, roster)
        info = written.stat()
        assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (uid, gid, 0o600)
        assert written.parent.stat().st_uid == uid
        assert "| total | 3 |" in written.read_text()
        # a home the student made unwritable is refused by the system, as the student
        os.chmod(homes / "ann", 0o500)
        shutil.rmtree(written.parent)
        with pytest.raises(RuntimeError, match=r"ann: .*not written: PermissionError"):
            handin.return_grades(graded, homes, roster)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="writes as another user: root only"
)
def test_a_writer_that_never_ends_is_stopped_and_reaped(monkeypatch):
    """A student can stop the writer that runs as them (kill -STOP), a network home can hang:
    `hub return` stops that writer at its limit and goes on, leaving no child behind."""
    import time

    monkeypatch.setattr(handin, "WRITE_LIMIT_S", 0.5)
    forked, fork = [], os.fork

    def remembered_fork():
        pid = fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(handin.os, "fork", remembered_fork)
    with pytest.raises(OSError, match="was stopped"):
        handin._as_user(65534, 65534, time.sleep, 600)  # far beyond the limit: no race
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # reaped already


# --- issue 51: root never follows a student, one student never stops the others -------------

ROOT_ONLY = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="homes of other users: root only"
)


def _owned_home(homes: Path, user: str, uid: int) -> Path:
    """A home as a hub makes it: the student owns the home and everything in it."""
    folder = _home(homes, user)
    for path in [homes / user, *sorted((homes / user).rglob("*"))]:
        os.chown(path, uid, uid, follow_symlinks=False)
    return folder


@ROOT_ONLY
def test_collect_reads_only_what_each_student_owns_and_goes_on_past_every_trap(
    tmp_path, monkeypatch
):
    homes = tmp_path / "home"
    homes.mkdir()
    uids = dict(ann=60001, bob=60002, cat=60003, dan=60004, eve=60005, fay=60006, gus=60007)
    folders = {user: _owned_home(homes, user, uid) for user, uid in uids.items()}
    for user in ("ann", "gus"):
        notebook = folders[user] / f"{NOTEBOOK}.ipynb"
        notebook.write_text(f'{{"{user}": 1}}')
        os.chown(notebook, uids[user], uids[user])
    os.link(folders["ann"] / f"{NOTEBOOK}.ipynb", folders["bob"] / f"{NOTEBOOK}.ipynb")
    (folders["cat"] / f"{NOTEBOOK}.ipynb").mkdir()  # a folder named like the notebook
    (folders["dan"] / f"{NOTEBOOK}.ipynb").write_text("{}")  # a file root planted, not dan's
    os.chown(folders["eve"], 0, 0)  # a folder on the way that is not the student's
    (folders["eve"] / f"{NOTEBOOK}.ipynb").write_text("{}")
    import socket

    with socket.socket(socket.AF_UNIX) as server:
        monkeypatch.chdir(folders["fay"])  # a socket's path is short: bound by its name
        server.bind(f"{NOTEBOOK}.ipynb")
        out = tmp_path / "handin"
        rows = handin.collect(homes, out, notebook="10")
    status = {r["user"]: r["status"] for r in rows}
    assert status["ann"] == status["gus"] == handin.HANDED_IN
    assert "owned by user id 60001" in status["bob"]  # ann's file under bob's name
    assert "not a regular file" in status["cat"] and "not a regular file" in status["fay"]
    assert "owned by user id 0" in status["dan"] and "owned by user id 0" in status["eve"]
    assert sorted(p.name for p in out.iterdir()) == ["ann.ipynb", "gus.ipynb", handin.ROSTER]
    for path in out.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path  # private to the instructor
    assert (out / "gus.ipynb").read_text() == '{"gus": 1}'


@ROOT_ONLY
def test_collect_without_a_list_skips_what_is_no_students_home(tmp_path, monkeypatch):
    homes = tmp_path / "home"
    homes.mkdir()
    _owned_home(homes, "ann", 60001).joinpath(f"{NOTEBOOK}.ipynb").write_bytes(b"{}")
    os.chown(homes / "ann" / recipes.EDITION / "notebooks" / f"{NOTEBOOK}.ipynb", 60001, 60001)
    (homes / "zed").mkdir()
    os.chown(homes / "zed", 60009, 60009)  # a student who never pulled the course: missing
    (homes / "lost+found").mkdir()  # root's
    (homes / "teacher").mkdir()
    os.chown(homes / "teacher", 60001, 60001)  # the same uid as a student's (z2jh's exports)
    monkeypatch.setattr(handin, "_own_home", lambda: os.path.realpath(homes / "teacher"))
    (homes / "notes.txt").write_text("")
    rows = handin.collect(homes, tmp_path / "out", notebook="10")
    status = {r["user"]: r["status"] for r in rows}
    assert status["ann"] == handin.HANDED_IN and status["zed"] == handin.MISSING
    assert status["lost+found"] == f"{handin.SKIPPED}: not a user name"
    assert status["teacher"] == f"{handin.SKIPPED}: your own home"
    assert status["notes.txt"].startswith(handin.SKIPPED)
    with open(tmp_path / "out" / handin.ROSTER, newline="") as file:
        assert [r["user"] for r in csv.DictReader(file)] == ["ann", "zed"]
    # homes that are all root's (or none a student's): refused, with the way out
    only = tmp_path / "only"
    (only / "admin").mkdir(parents=True)
    with pytest.raises(ValueError, match="name the students with --users"):
        handin.collect(only, tmp_path / "out2", notebook="10")


@ROOT_ONLY
def test_hand_ins_collected_under_sudo_are_the_callers_to_grade(tmp_path, monkeypatch):
    """Collect runs as root under sudo; the instructor then grades as themselves: every file
    and folder collect made is theirs (and still private: 0600, 0700)."""
    homes = tmp_path / "home"
    homes.mkdir()
    notebook = _owned_home(homes, "ann", 60001) / f"{NOTEBOOK}.ipynb"
    notebook.write_bytes(b"{}")
    os.chown(notebook, 60001, 60001)
    monkeypatch.setenv("SUDO_UID", "61000")
    monkeypatch.setenv("SUDO_GID", "61001")
    out = tmp_path / "handin" / "10"
    handin.collect(homes, out, notebook="10", users=["ann"])
    for path in (out.parent, out, out / "ann.ipynb", out / handin.ROSTER):
        info = path.stat()
        assert (info.st_uid, info.st_gid) == (61000, 61001), path
        assert stat.S_IMODE(info.st_mode) == (0o700 if path.is_dir() else 0o600), path


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_collect_and_grade_refuse_an_out_folder_others_can_write(tmp_path, mode):
    from instructor.grading import grade

    (tmp_path / "homes").mkdir()
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(mode)
    with pytest.raises(ValueError, match="lets others write there"):
        handin.collect(tmp_path / "homes", shared, notebook="10", users=[])
    with pytest.raises(ValueError, match="lets others write there"):
        grade.Output(shared)
    # a folder under a sticky, others-writable one (as /tmp is) is the instructor's alone
    if mode == 0o1777:
        handin.collect(tmp_path / "homes", shared / "mine", notebook="10", users=[])
        assert stat.S_IMODE((shared / "mine").stat().st_mode) == 0o700
    else:
        with pytest.raises(ValueError, match="lets others write there"):
            grade.Output(shared / "mine")


@ROOT_ONLY
def test_an_out_folder_a_student_owns_is_refused(tmp_path):
    from instructor.grading import grade

    planted = tmp_path / "planted"
    planted.mkdir(mode=0o700)
    os.chown(planted, 60001, 60001)
    with pytest.raises(ValueError, match="owned by user id 60001"):
        handin.collect(tmp_path, planted / "out", notebook="10", users=[])
    with pytest.raises(ValueError, match="owned by user id 60001"):
        grade.Output(planted)
    assert not (planted / "out").exists()
