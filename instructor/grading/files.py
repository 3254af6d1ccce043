"""Files the grader and the hub kit write or read on a student's behalf, as root or not.

Two rules, for every output (hand-ins, the roster, ``grades.csv``, the gradebooks, feedback
and the written answers):

* **private to the instructor wherever it is written**: each file is made 0600 under a fresh
  temporary name with ``O_EXCL | O_NOFOLLOW`` and renamed over its target (a link planted
  there is replaced, never followed); each folder made is 0700; run as root under ``sudo``,
  each file and folder made is handed to the user who ran it (``SUDO_UID``), so that the
  grader they run next, as themselves, can read the hand-ins;
* **never in a folder a student can write**: the output folder is opened component by
  component without following a link, and refused (``ValueError`` naming the component and
  its owner or mode) when it, or a folder above it, could be changed by anyone but the
  instructor: owned by another user, or writable by its group or by others (a folder above
  may be others-writable only with the sticky bit, as ``/tmp`` is). "The instructor" is this
  process's user, root, and the user who ran ``sudo`` (``SUDO_UID``).

And one for what is read: :func:`read_regular` opens a student's file without following a
link and checks it *after* opening (owner, type, link count, size), so neither a link nor a
hard link to someone else's file is read, whatever the system's ``protected_hardlinks``.
"""

from __future__ import annotations

import csv
import errno
import os
import secrets
import stat
from pathlib import Path


def _caller() -> tuple[int, int] | None:
    """(uid, gid) of the user who ran ``sudo``, when this process is root under sudo: what it
    writes is handed to them, so the grader they run next (not as root) can read it."""
    uid, gid = os.environ.get("SUDO_UID", ""), os.environ.get("SUDO_GID", "")
    if hasattr(os, "geteuid") and os.geteuid() == 0 and uid.isdigit() and gid.isdigit():
        return int(uid), int(gid)
    return None


def _hand_over(fd: int) -> None:
    """Give a file or folder this process made to the sudo caller (:func:`_caller`), if any."""
    caller = _caller()
    if caller is not None:
        os.fchown(fd, *caller)


def trusted_uids() -> set[int]:
    """The users who may own an output folder: this process's, root and ``sudo``'s caller."""
    uids = {0}
    if hasattr(os, "geteuid"):
        uids.add(os.geteuid())
    caller = os.environ.get("SUDO_UID", "")
    if caller.isdigit():
        uids.add(int(caller))
    return uids


def _check_folder(info: os.stat_result, shown: str, *, last: bool) -> None:
    """Refuse a folder someone but the instructor could change (see the module's rules)."""
    if info.st_uid not in trusted_uids():
        raise ValueError(
            f"--out {shown}: owned by user id {info.st_uid}, who could change what is written "
            "there; choose a folder only you (or root) own"
        )
    shared = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    sticky = info.st_mode & stat.S_ISVTX
    if shared and (last or not sticky):
        raise ValueError(
            f"--out {shown}: mode {stat.filemode(info.st_mode)} lets others write there; "
            "choose a folder only you can write (chmod go-w, or a new folder)"
        )


def open_private_folder(path: Path | str) -> int:
    """Open (making what is missing, 0700) the folder ``path`` without following a link;
    refuse it when anyone but the instructor could write it or a folder above it."""
    path = Path(os.path.abspath(path))
    fd = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for depth, part in enumerate(path.parts[1:], start=2):
            shown = str(Path(*path.parts[:depth]))
            child = _open_folder(fd, part, f"--out {path}: {shown}")
            os.close(fd)
            fd = child
            _check_folder(os.fstat(fd), shown, last=depth == len(path.parts))
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_folder(parent_fd: int, name: str, shown: str) -> int:
    """Open ``name`` in an open folder without following a link, making it (0700, handed to
    the sudo caller) if missing; ``ValueError`` saying ``shown`` when it cannot be."""
    made = False
    try:
        os.mkdir(name, 0o700, dir_fd=parent_fd)
        made = True
    except FileExistsError:
        pass
    except OSError as error:
        raise ValueError(
            f"{shown} cannot be made ({error.strerror}); choose a folder you can write"
        ) from error
    try:
        fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent_fd)
    except OSError as error:
        raise ValueError(f"{shown} is not a directory (or is a link)") from error
    if made:
        _hand_over(fd)
    return fd


def private_subfolder(parent_fd: int, name: str) -> int:
    """Open (making it 0700 if missing) ``name`` inside an open folder, following no link."""
    fd = _open_folder(parent_fd, name, name)
    info = os.fstat(fd)
    if info.st_uid not in trusted_uids() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        os.close(fd)
        raise ValueError(f"{name}: another user could write there")
    return fd


def write_private(folder_fd: int, name: str, data: bytes) -> None:
    """Write ``data`` as ``name`` (0600) in an open folder: a fresh temporary file renamed over
    the target, so a link planted at ``name`` is replaced, never followed."""
    if "/" in name or name in ("", ".", ".."):
        raise ValueError(f"not a file name: {name!r}")
    temporary = f".{name}.{secrets.token_hex(8)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    handle = os.open(temporary, flags, 0o600, dir_fd=folder_fd)
    try:
        with os.fdopen(handle, "wb") as file:
            _hand_over(file.fileno())
            file.write(data)
        os.rename(temporary, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except BaseException:  # a full disk, a stopped write: no temporary file left behind
        try:
            os.unlink(temporary, dir_fd=folder_fd)
        except OSError:
            pass
        raise


def read_regular(
    folder_fd: int, name: str, *, owner: int | None, limit: int
) -> tuple[bytes | None, str]:
    """Read ``name`` in an open folder as a student's file: (data, "") or (None, why not).

    Opened with ``O_NOFOLLOW | O_NONBLOCK`` (a link is refused, a FIFO never blocks) and then
    checked on the open descriptor: a regular file, owned by ``owner`` (a hard link to another
    user's file is theirs) or, with no ``owner`` given, with one link only, and at most
    ``limit`` bytes."""
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder_fd)
    except FileNotFoundError:
        return None, "missing"
    except PermissionError:
        return None, "not readable (permission denied)"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return None, "a link (not followed)"
        if error.errno == errno.ENXIO:  # a socket cannot be opened
            return None, "not a regular file (a socket)"
        return None, f"not opened ({error.strerror})"
    try:  # checked on the descriptor before any read (Python's file object refuses a folder)
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            return None, "not a regular file"
        if owner is not None and info.st_uid != owner:
            return None, f"owned by user id {info.st_uid}, not by the student"
        # a second name of the student's own file is theirs to make; with no owner to check,
        # a file with two names may be a hard link to anyone's
        if owner is None and info.st_nlink != 1:
            return None, f"a file with {info.st_nlink} names (a hard link?)"
        if info.st_size > limit:
            return None, f"larger than {limit // 1024**2} MB"
        with os.fdopen(os.dup(handle), "rb") as file:
            data = file.read(limit + 1)
    finally:
        os.close(handle)
    if len(data) > limit:
        return None, f"larger than {limit // 1024**2} MB"
    return data, ""


#: the widest CSV field the grader and the hub kit read back: a written answer may be as long
#: as a notebook (20 MB), far past the csv module's default of 128 KiB
CSV_FIELD_LIMIT = 64 * 1024**2


def csv_rows(handle) -> csv.DictReader:
    """``csv.DictReader(handle)`` that reads a field of up to :data:`CSV_FIELD_LIMIT`
    characters (the module's limit is process-wide: it is only ever raised here)."""
    csv.field_size_limit(max(csv.field_size_limit(), CSV_FIELD_LIMIT))
    return csv.DictReader(handle)
