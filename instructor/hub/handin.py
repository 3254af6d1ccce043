"""Hand-in on a hub: ``course.py hub collect`` and ``course.py hub return``.

* ``collect``: from a folder holding one folder per student (a local hub's ``/home``, or the
  homes exported from Zero to JupyterHub's volumes, one folder each), copy each student's
  ``EDITION/notebooks/NN_name.ipynb`` to ``OUT/<user>.ipynb`` and write ``OUT/roster.csv`` (who
  handed in, the size, SHA-256 and time of each file). The grader keys its rows by the file
  name, so ``course.py grade OUT --out GRADED`` gives one row per student, unchanged.
  The homes are the students': every path is opened component by component without following a
  link, and only a regular file of at most the grader's 20 MB is read.
* ``return``: for each student of the roster, ``<home>/grades/NN_name.md``: their row of
  ``GRADED/grades.csv`` and their feedback, written *as the student* (so a link they planted
  leads nowhere they could not write themselves) with mode 0600, in a folder of mode 0700.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import os
import re
import select
import signal
import stat
import sys
import time
import warnings
from pathlib import Path

from instructor.grading import files
from instructor.grading.grade import MAX_SUBMISSION_BYTES, safe_name

from .recipes import EDITION

#: a user name the grader keeps as it is (``grade.safe_name``), so its row is the user's
USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")
ROSTER = "roster.csv"
GRADES_DIR = "grades"
HANDED_IN, MISSING = "handed in", "missing"
SKIPPED = "skipped"
ROSTER_COLUMNS = ("user", "submission", "status", "bytes", "sha256")


def course_stem(notebook: str) -> str:
    """The course notebook named by ``notebook`` ("10", "10_choose_your_epsilon" or its file)."""
    from helpers.notebooks import notebook_paths

    stems = [p.stem for p in notebook_paths()]
    wanted = Path(notebook).name.removesuffix(".ipynb")
    found = [s for s in stems if s == wanted or s[:2] == wanted]
    if len(found) != 1:
        raise ValueError(f"notebook={notebook!r} names no course notebook (one of {stems})")
    return found[0]


def _read_inside(root_fd: int, parts: list[str]) -> tuple[bytes | None, str]:
    """Read ``parts`` (the home, then the folders, then the file) under an open folder as the
    home's owner's file: no link followed, every folder and the file owned by the owner of the
    home (a hard link to a classmate's file is the classmate's), the file regular and at most
    the grader's limit (``files.read_regular``); (data, status)."""
    fd = os.dup(root_fd)
    owner = None
    try:
        for part in parts[:-1]:
            try:
                child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                return None, MISSING
            except OSError:
                return None, f"{part} is not a folder (a link?)"
            os.close(fd)
            fd = child
            uid = os.fstat(fd).st_uid
            owner = uid if owner is None else owner
            if uid != owner:
                return None, f"{part} is owned by user id {uid}, not by the student"
        data, why = files.read_regular(fd, parts[-1], owner=owner, limit=MAX_SUBMISSION_BYTES)
        return (data, HANDED_IN) if data is not None else (None, why)
    finally:
        os.close(fd)


def _own_home() -> str | None:
    """The home of the instructor running this (the user who ran ``sudo``, else this user)."""
    import pwd

    uid = os.environ.get("SUDO_UID", "")
    try:
        entry = pwd.getpwuid(int(uid) if uid.isdigit() else os.geteuid())
    except (KeyError, OSError):
        return None
    return os.path.realpath(entry.pw_dir)


def _students(homes: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """The folders of ``homes`` that are students' homes, and why each other one is not: a
    name the grader would change (``lost+found``), not a folder, owned by root, or the home of
    the instructor running this (theirs, not a student's). Owners are not compared with the
    instructor's uid: homes exported from Zero to JupyterHub all belong to the pods' uid
    (1000), often the instructor's own."""
    students, skipped = [], []
    own = _own_home()
    for entry in sorted(os.scandir(homes), key=lambda e: e.name):
        if not USER_NAME.match(entry.name) or safe_name(entry.name) != entry.name:
            skipped.append((entry.name, "not a user name"))
        elif not entry.is_dir(follow_symlinks=False):
            skipped.append((entry.name, "not a folder"))
        elif entry.stat(follow_symlinks=False).st_uid == 0:
            skipped.append((entry.name, "owned by root, not a student's home"))
        elif own is not None and os.path.realpath(entry.path) == own:
            skipped.append((entry.name, "your own home"))
        else:
            students.append(entry.name)
    if not students:
        raise ValueError(
            f"no folder of {str(homes)!r} is a student's home ({len(skipped)} skipped: root's, "
            "yours or not user names); name the students with --users"
        )
    return students, skipped


def collect(homes: Path, out: Path, *, notebook: str, users: list[str] | None = None) -> list[dict]:
    """Copy each student's notebook to ``out/<user>.ipynb``; write ``out/roster.csv``.

    ``homes`` holds one folder per student, named by the user name. Without ``users``, the
    students are the folders :func:`_students` keeps (``ValueError`` when it keeps none; the
    others are returned with a status ``skipped: why`` and left off the roster); with
    ``users``, exactly those (each listed user without a folder is ``missing``). ``out`` must be new or empty and only the instructor's
    (``files.open_private_folder``): a file left from another collection would be graded too,
    and a student who could write there could plant links. One student's unreadable file is
    that student's status, never the others' loss.
    """
    stem = course_stem(notebook)
    homes = Path(homes)
    skipped = []
    if users is None:
        names, skipped = _students(homes)
    else:
        names = sorted(users)
    bad = [n for n in names if not USER_NAME.match(n) or safe_name(n) != n]
    if bad:
        raise ValueError(
            f"users={bad!r}: user names must be letters, digits and ._- (starting with a letter "
            "or digit), which the grader keeps as the row's name"
        )
    lowered = [n.lower() for n in names]
    twins = sorted({n for n in names if lowered.count(n.lower()) > 1})
    if twins:
        raise ValueError(f"users={twins!r} differ only in case; the grader would rename one")
    out_fd = files.open_private_folder(out)
    try:
        if os.listdir(out_fd):
            raise ValueError(f"out={str(out)!r} is not empty: collect into a new folder")
        root_fd = os.open(homes, os.O_RDONLY | os.O_DIRECTORY)
        rows = []
        try:
            for user in names:
                parts = [user, EDITION, "notebooks", f"{stem}.ipynb"]
                try:
                    data, status = _read_inside(root_fd, parts)
                except OSError as error:  # one student's home never stops the others
                    data, status = None, f"not read ({type(error).__name__}: {error.strerror})"
                row = {"user": user, "submission": "", "status": status, "bytes": "", "sha256": ""}
                if data is not None:
                    row["submission"] = f"{user}.ipynb"
                    row["bytes"] = len(data)
                    row["sha256"] = hashlib.sha256(data).hexdigest()
                    files.write_private(out_fd, row["submission"], data)
                rows.append(row)
        finally:
            os.close(root_fd)
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        buffer = io.StringIO()
        columns = [*ROSTER_COLUMNS, "notebook", "collected"]
        writer = csv.DictWriter(buffer, columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "notebook": stem, "collected": stamp})
        files.write_private(out_fd, ROSTER, buffer.getvalue().encode("utf-8"))
    finally:
        os.close(out_fd)
    return rows + [{"user": name, "status": f"{SKIPPED}: {why}"} for name, why in skipped]


def _grades_text(stem: str, row: dict | None, feedback: str | None) -> str:
    if row is None:
        return f"# {stem}: no grade\n\nNo notebook of yours was collected for {stem}.\n"
    shown = [(k, v) for k, v in row.items() if k not in ("submission", "notebook") and v != ""]
    table = "\n".join(["| | points |", "| --- | --- |", *(f"| {k} | {v} |" for k, v in shown)])
    return f"# {stem}: your grade\n\n{table}\n\n{feedback or ''}"


def _write_private(home: str, folder: str, name: str, data: bytes) -> None:
    """Make ``home/folder`` (0700) and write ``name`` in it (0600) by a temporary name and a
    rename, opening each component relative to the last one and following no link."""
    home_fd = os.open(home, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        try:
            os.mkdir(folder, 0o700, dir_fd=home_fd)
        except FileExistsError:
            pass
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=home_fd)
    finally:
        os.close(home_fd)
    try:
        os.fchmod(fd, 0o700)
        temporary = "." + name + ".tmp"
        try:
            os.unlink(temporary, dir_fd=fd)
        except FileNotFoundError:
            pass
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        handle = os.open(temporary, flags, 0o600, dir_fd=fd)
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.rename(temporary, name, src_dir_fd=fd, dst_dir_fd=fd)
    finally:
        os.close(fd)


#: how long one student's grades may take to write before the writer is stopped (a stuck
#: network home, a writer the student stopped): the others are written all the same
WRITE_LIMIT_S = 60.0


def _as_user(uid: int, gid: int, work, *args) -> None:
    """Run ``work(*args)`` in a forked child that has become ``uid``:``gid`` (no other group).

    A fork, not a new interpreter: the students' side needs no Python they can reach (the
    checkout's ``.venv`` may sit in a folder only the instructor can enter). The child closes
    every file it inherited but its pipe, changes its ids, makes system calls and leaves by
    ``os._exit``, the pattern that is safe after a fork; its error comes back through the
    pipe as one line. A child not done within WRITE_LIMIT_S is killed, and always reaped."""
    read_end, write_end = os.pipe()
    try:
        with warnings.catch_warnings():
            # Python 3.12+ warns about fork() in a process with threads (a test runner's); the
            # child runs no Python code that could wait on another thread's lock
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        raise
    if pid == 0:  # the child
        code = 1
        try:
            os.closerange(3, write_end)
            os.closerange(write_end + 1, 65536)
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            work(*args)
            code = 0
        except BaseException as error:  # every failure goes back as text
            try:
                os.write(write_end, f"{type(error).__name__}: {error}".encode()[:4000])
            except OSError:
                pass
        finally:
            os._exit(code)
    os.close(write_end)
    said, status = b"", None
    try:
        deadline = time.monotonic() + WRITE_LIMIT_S
        while True:  # until the child closes its end (it has ended) or the limit
            left = deadline - time.monotonic()
            ready, _, _ = select.select([read_end], [], [], max(left, 0.0))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                raise OSError(f"the writer took over {WRITE_LIMIT_S:.0f} s and was stopped")
            chunk = os.read(read_end, 4096)
            if not chunk:
                break
            said += chunk
    finally:
        os.close(read_end)
        _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise OSError(said.decode(errors="replace") or f"the writer ended with status {status}")


def _write_as_owner(home: Path, name: str, text: str) -> Path:
    """Write ``home/GRADES_DIR/name`` as the owner of ``home`` (when run as root; as this
    user otherwise, who then owns the home or is refused by the system)."""
    info = os.lstat(home)
    if not stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{home} is not a folder (a link?)")
    data = text.encode("utf-8")
    try:
        if hasattr(os, "geteuid") and os.geteuid() == 0 and info.st_uid != 0:
            _as_user(info.st_uid, info.st_gid, _write_private, str(home), GRADES_DIR, name, data)
        else:
            _write_private(str(home), GRADES_DIR, name, data)
    except OSError as error:
        raise OSError(f"{home}/{GRADES_DIR}/{name} not written: {error}") from error
    return home / GRADES_DIR / name


def return_grades(graded: Path, homes: Path, roster: Path) -> list[Path]:
    """Write each roster student's grades to ``<homes>/<user>/grades/<notebook>.md``.

    A student whose file cannot be written (``~/grades`` is a link, the home is gone) does not
    stop the others: ``RuntimeError`` names each one after every other file is written."""
    graded, homes = Path(graded), Path(os.path.abspath(homes))
    with open(roster, encoding="utf-8", newline="") as file:
        students = list(files.csv_rows(file))
    with open(graded / "grades.csv", encoding="utf-8", newline="") as file:
        rows = {r["submission"]: r for r in files.csv_rows(file)}
    written, failed = [], []
    for student in students:
        user, stem = student["user"], student["notebook"]
        if not USER_NAME.match(user):
            raise ValueError(f"roster user={user!r} is not a user name this module wrote")
        submission = Path(student["submission"]).stem if student["submission"] else ""
        row = rows.get(submission) if submission else None
        feedback_path = graded / "feedback" / f"{submission}.md"
        feedback = feedback_path.read_text("utf-8") if row and feedback_path.is_file() else None
        text = _grades_text(stem, row, feedback)
        try:
            written.append(_write_as_owner(homes / user, f"{stem}.md", text))
        except (OSError, ValueError) as error:
            failed.append(f"{user}: {error}")
    if failed:
        raise RuntimeError(
            f"grades written for {len(written)} students, not for:\n" + "\n".join(failed)
        )
    return written


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="course.py hub", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    take = commands.add_parser("collect", help="copy every student's notebook as <user>.ipynb")
    take.add_argument("homes", type=Path, help="a folder with one folder per student (/home)")
    take.add_argument("--notebook", required=True, help="e.g. 10 or 10_choose_your_epsilon")
    take.add_argument("--out", type=Path, required=True, help="a new folder for the hand-ins")
    take.add_argument("--users", nargs="*", default=None, help="only these students")
    back = commands.add_parser("return", help="write each student's grades into their home")
    back.add_argument("graded", type=Path, help="the folder `course.py grade --out` wrote")
    back.add_argument("--homes", type=Path, required=True)
    back.add_argument("--roster", type=Path, required=True, help="the collection's roster.csv")
    args = parser.parse_args(argv)
    try:
        if args.command == "collect":
            rows = collect(args.homes, args.out, notebook=args.notebook, users=args.users)
            handed = sum(r["status"] == HANDED_IN for r in rows)
            students = sum(not r["status"].startswith(SKIPPED) for r in rows)
            print(f"{handed} of {students} students handed in: {args.out}/ ({ROSTER} there)")
            for row in rows:
                if row["status"] != HANDED_IN:
                    print(f"  {row['user']!r}: {row['status']}")
        else:
            written = return_grades(args.graded, args.homes, args.roster)
            print(
                f"grades written to {len(written)} homes (~/{GRADES_DIR}/, readable by each only)"
            )
    except (ValueError, OSError, RuntimeError) as error:
        print(error, file=sys.stderr)
        return 2
    return 0
