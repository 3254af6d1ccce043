"""Who a submission is and which notebook it was handed in for: the grader's identities.

* :func:`identify`: which course notebook a submission *is* (its edition's metadata, else its
  file name's number, else its ``check`` calls);
* :func:`handed_in_for`: which notebook it was *handed in for* (the hub's ``roster.csv`` in
  the submissions folder, ``--notebook``, or a course notebook's name inside the file name).
  Where both are known and differ, the submission is flagged and scores nothing anywhere
  (a solved notebook 00 handed in as a notebook 01 is not a notebook 01);
* :func:`name_key`: how a name *reads* (Unicode NFKC, no invisible characters, spaces
  collapsed, case folded; look-alike letters of other scripts are not folded), so that such
  names collide and are refused
  (:func:`identities`), roster rows match their files, and the LMS's reserved rows
  (:data:`RESERVED`) are never a student's.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from . import files

CHECK_CALL = re.compile(r"""check\(\s*["']([0-9]{2}\.[0-9]+)["']""")
HUB_ROSTER = "roster.csv"  # what ``course.py hub collect`` writes beside the hand-ins

#: Unicode's default-ignorable code points (DerivedCoreProperties.txt, Unicode 15.1): drawn as
#: nothing, so "ann", "ann\u200b" and "ann\u3164" read alike
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def name_key(name: str) -> str:
    """How ``name`` reads: NFKC, invisible characters dropped, white space collapsed and
    trimmed, case folded (``"Ann "``, ``"ann"``, ``"a\u200bnn"`` and ``"ＡＮＮ"`` are one)."""
    text = INVISIBLE.sub("", unicodedata.normalize("NFKC", name))
    return unicodedata.normalize("NFKC", " ".join(text.split()).casefold())


#: rows a gradebook import reads as its own, never as a student (Canvas's "Points Possible"
#: row and header, Moodle's header), compared by :func:`name_key`
RESERVED = frozenset(
    name_key(n) for n in ("Points Possible", "Student", "Test Student", "username", "ID")
)


def is_notebook_file(path: Path) -> bool:
    """A submission's file: ``.ipynb`` in any case (``erin.IPYNB``), not hidden."""
    return path.suffix.lower() == ".ipynb" and not path.name.startswith(".")


def identify(nb: dict, filename: str, stems: list[str]) -> str | None:
    """Which course notebook a submission is an edition of (only the name is taken from it)."""
    meta = nb.get("metadata") if isinstance(nb, dict) else None
    named = (meta or {}).get("choosing_epsilon", {}) if isinstance(meta, dict) else {}
    stem = named.get("notebook") if isinstance(named, dict) else None
    if isinstance(stem, str) and stem in stems:
        return stem
    prefix = re.match(r"(\d\d)", Path(filename).stem)
    by_number = {s[:2]: s for s in stems}
    if prefix and prefix.group(1) in by_number:
        return by_number[prefix.group(1)]
    text = ""
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        if isinstance(cell, dict):
            source = cell.get("source", "")
            text += "".join(source) if isinstance(source, list) else str(source)
    numbers = {i.split(".")[0] for i in CHECK_CALL.findall(text)} & set(by_number)
    return by_number[numbers.pop()] if len(numbers) == 1 else None


def handed_in_for(
    submissions: Path, paths: list[Path], stems: list[str], *, notebook: str | None = None
) -> dict[Path, str]:
    """The course notebook each submission was handed in for, where that is known.

    In order: the hub's ``roster.csv`` beside the hand-ins (its ``notebook`` column, by the
    ``submission`` file), then ``notebook`` (``--notebook``: every file was handed in for it),
    then exactly one course notebook's name inside the file name (an LMS download such as
    ``ann_1234_01_prior_and_posterior.ipynb``). ``ValueError`` for a ``notebook`` the course
    has not."""
    expected: dict[Path, str] = {}
    if notebook is not None:
        found = [s for s in stems if s == notebook or s[:2] == notebook]
        if len(found) != 1:
            raise ValueError(f"--notebook {notebook!r} names no course notebook (one of {stems})")
        expected = {p: found[0] for p in paths}
    roster = Path(submissions) / HUB_ROSTER
    if roster.is_file():
        with open(roster, newline="", encoding="utf-8") as handle:
            rows = list(files.csv_rows(handle))
        by_file = {
            name_key(r.get("submission") or ""): r.get("notebook") or ""
            for r in rows
            if r.get("submission")
        }
        for path in paths:
            stem = by_file.get(name_key(path.name))
            if stem in stems:
                expected[path] = stem
    for path in paths:
        if path not in expected:
            inside = [s for s in stems if s.lower() in path.stem.lower()]
            if len(inside) == 1:
                expected[path] = inside[0]
    return expected


def safe_name(stem: str) -> str:
    """A file stem safe for a file name and a spreadsheet: letters, digits, ``._-`` only.

    Only the feedback file's name: the row's identity is the file name as given
    (:func:`identities`), and two files that clean to one name are refused, never renamed.
    """
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem).lstrip(".-_")[:80] or "submission"


def _file_key(name: str) -> str:
    """A roster's or a folder's file name as it reads, with its ``.ipynb`` in any case."""
    name = name.strip()
    if not name.lower().endswith(".ipynb"):
        name += ".ipynb"
    return name_key(name[: -len(".ipynb")]) + ".ipynb"


def read_roster(path: Path) -> dict[str, str]:
    """An LMS export's students: a CSV with columns ``student`` (the id the gradebook knows)
    and ``file`` (the submission's file name as given, ``.ipynb`` optional, in any case) →
    {file as it reads (:func:`name_key`): id}. Two rows for files that read alike are refused."""
    roster: dict[str, str] = {}
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = files.csv_rows(handle)
        if not {"student", "file"} <= set(reader.fieldnames or []):
            raise ValueError(
                f"--roster {path}: columns={reader.fieldnames!r}; expected student and file"
            )
        for number, row in enumerate(reader, start=2):
            if not (row.get("student") or "").strip() or not (row.get("file") or "").strip():
                raise ValueError(
                    f"--roster {path}, line {number}: a row needs both a student and a file"
                )
            key = _file_key(row.get("file") or "")
            if key in roster:
                raise ValueError(
                    f"--roster {path}, line {number}: file={row.get('file')!r} is listed twice "
                    "(or reads like another row's)"
                )
            roster[key] = (row.get("student") or "").strip()
    return roster


def roster_mismatches(paths: list[Path], roster: dict[str, str]) -> tuple[list[str], list[str]]:
    """(files the roster does not list, as given; roster files not handed in, as they read:
    :func:`name_key`'s form, ``.ipynb`` added)."""
    keys = {_file_key(p.name) for p in paths}
    unlisted = [p.name for p in paths if _file_key(p.name) not in roster]
    absent = [k for k in roster if k not in keys]
    return unlisted, absent


def identities(
    paths: list[Path], roster: dict[str, str] | None = None, *, held: list | None = None
) -> list[tuple]:
    """(path, student, feedback name) per submission, in the order given.

    ``student`` is the identity every row and file is keyed by: the roster's id for the file
    when a roster is given (matched as the names read, :func:`name_key`), else the file's stem
    exactly as given (the hub collects ``<username>.ipynb``). Files that would share a row or a
    feedback file cannot be told apart: two whose feedback names clean to the same name
    (compared without case: some file systems do), whose students read alike
    (:func:`name_key`: NFC and NFD, invisible characters, trailing spaces, case), or that the
    roster gives one id. With ``held`` (a list) every such file is left out and one line per
    clash, naming its files and the fix, is appended to it, so one student's file name never
    stops the class's grading; without it the first clash is a ``ValueError``, before
    anything runs.
    """
    named = [
        (path, (roster or {}).get(_file_key(path.name)) or path.stem, safe_name(path.stem))
        for path in paths
    ]
    clashes = []  # (files, why), each set of files once
    for key_of, why in (
        (lambda s, n: n.lower(), "both clean to the feedback name {name!r}"),
        (lambda s, n: name_key(s) if roster is None else None, "read as one name ({key!r})"),
        (
            lambda s, n: name_key(s) if roster is not None else None,
            "would share one student {student!r} (the roster's id, or the name of a file the "
            "roster does not list)",
        ),
    ):
        groups: dict[str, list] = {}
        for path, student, name in named:
            key = key_of(student, name)
            if key is not None:
                groups.setdefault(key, []).append((path, student, name))
        for key, group in groups.items():
            files_ = [p.name for p, _, _ in group]
            if len(group) > 1 and all(f != files_ for f, _ in clashes):
                _, student, name = group[0]
                clashes.append((files_, why.format(key=key, student=student, name=name)))
    if clashes and held is None:
        files_, why = clashes[0]
        raise ValueError(
            f"refusing to grade: {' and '.join(map(repr, files_))} {why}; rename them "
            "(nothing was graded)"
        )
    out = {name for files_, _ in clashes for name in files_}
    for files_, why in clashes:
        held.append(
            f"held back, not graded: {' and '.join(map(repr, files_))} {why}; rename them "
            "and grade them again"
        )
    return [entry for entry in named if entry[0].name not in out]
