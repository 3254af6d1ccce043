"""What the grader writes: each submission's feedback, ``grades.csv`` and the gradebooks.

Every text that may come from a submission is quoted as literal Markdown
(``scoring.markdown_text``) or escaped as a CSV field (:func:`csv_field`); a feedback file is
built in time linear in the notebook, whatever the number of events (:func:`feedback`).
"""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING

from . import scoring
from .identity import RESERVED, name_key
from .run import INJECTED_TAG

if TYPE_CHECKING:  # annotations only: grade.py imports this module
    from .grade import Course, Graded


def csv_field(value) -> str:
    """A ``grades.csv`` field: a float as ``:g``, escaped by ``scoring.escape_cell``.

    The one formula escape of every CSV the grader writes (``scoring.FORMULA_PREFIXES``).
    """
    return scoring.escape_cell(f"{value:g}" if isinstance(value, float) else value)


def _cell_places(nb) -> list[str]:
    """Where each cell is, as a reader finds it (the heading above it), in one pass over the
    notebook: feedback takes time linear in the cells, however many events point at them."""
    places, above = [], "in the code above the first heading"
    for cell in nb.cells if nb is not None else []:
        if INJECTED_TAG in cell.get("metadata", {}).get("tags", []):
            places.append("in the parameters the grader injected")
        else:
            places.append(above)
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            source = source if isinstance(source, str) else "".join(source)
            bold = re.match(r"\s*\*\*(.+?)\*\*", source)
            heading = re.search(r"^#{1,6}\s+(.+)$", source, re.M)
            if bold:
                above = f"in the code under “{bold.group(1).strip().rstrip('.')}”"
            elif heading:
                above = f"in the code under the heading “{heading.group(1).strip()}”"
    return places


def _cell_place(places: list[str], index) -> str:
    """Where the cell ``index`` is (:func:`_cell_places`), or the end of the notebook."""
    if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(places):
        return places[index]
    return "at the end of the notebook"


#: the most events one feedback file lists (the rest are counted): a notebook of thousands of
#: failing cells gets a readable file, written in bounded time
MAX_EVENTS_SHOWN = 50


def _quote(text: str) -> str:
    """Text that may come from a submission, as one line of literal Markdown (at most 300
    characters of it)."""
    return scoring.markdown_text(str(text)[:300])


def feedback(graded: Graded, course: Course | None, nb, limits: tuple[float, float]) -> str:
    run = graded.run
    lines = [f"# Feedback: {graded.name}", ""]
    if graded.student and graded.student != graded.name:
        lines += [f"Student: {_quote(graded.student)}", ""]
    if course is None:
        lines += [graded.problem or "This file could not be graded.", ""]
        return "\n".join(lines) + "\n"
    lines += [
        f"Notebook **{course.stem}**. Score **{graded.total:g} / {graded.max:g}**: the sum of "
        "the points of each exercise's parts below. The notebook ran top to bottom in a fresh "
        f"kernel ({run.status}), with the exercises' parameters drawn "
        "for this submission; each answer was read from its `answer_NN_K` variable.",
        "",
        "| exercise | part | points | verdict |",
        "|---|---|---|---|",
    ]
    for exercise_id, parts in graded.parts.items():
        title = course.titles.get(exercise_id, exercise_id)
        for part in parts:
            lines.append(
                f"| {exercise_id} · {_quote(title)} | {_quote(part.name)} | "
                f"{part.points:g} / {part.max_points:g} | {_quote(part.message)} |"
            )
    lines += ["", "## While it ran", ""]
    happened = []
    places = _cell_places(nb)
    for event in run.events[:MAX_EVENTS_SHOWN]:
        kind = event.get("event")
        where = _cell_place(places, event.get("cell"))
        if kind == "error":
            quoted = f" at {_quote(event['line'])}" if event.get("line") else ""
            happened.append(
                f"- {where}{quoted}: {_quote(event.get('ename'))}: {_quote(event.get('evalue'))}"
            )
        elif kind == "timeout":
            happened.append(
                f"- {where}: a cell ran past its {limits[1]:g} s limit and was interrupted"
            )
        elif kind == "killed":
            happened.append(
                f"- {where}: a cell ran past its {limits[1]:g} s limit and did not stop when "
                "interrupted: the kernel was stopped, the cells after it did not run"
            )
        elif kind == "unreadable":
            happened.append(
                f"- the file is not a readable notebook ({_quote(event.get('message'))})"
            )
        elif kind == "died":
            happened.append(f"- the kernel died {where} (out of memory or processes?)")
        elif kind == "limit":
            what = {"memory": "its memory", "processes": "its number of processes"}
            happened.append(
                f"- the notebook reached {what.get(event.get('what'), 'a limit')} "
                "(for the whole sandbox): a process was stopped"
            )
        elif kind == "unanswered":
            happened.append(f"- {where}: the kernel did not answer when its values were read")
    if len(run.events) > MAX_EVENTS_SHOWN:
        happened.append(
            f"- and {len(run.events) - MAX_EVENTS_SHOWN} more events like these, not listed"
        )
    if run.status == "timed out":
        happened.append(
            f"- stopped at the notebook's {limits[0]:g} s limit; answers read before then count"
        )
    elif run.status == "crashed":
        happened.append("- the grader's runner stopped unexpectedly (out of memory or output?)")
    lines += happened or ["- every cell ran without an error"]
    if graded.edited:
        lines += ["", "## Edited statements", ""]
        lines += [
            f"- the statement of {i} · {_quote(course.titles.get(i, i))} is not the course's: "
            "it was edited or removed (your instructor sees this)"
            for i in graded.edited
        ]
    several = [r for r in graded.written if r.get("note")]
    if several:
        lines += ["", "## Written answers", ""]
        lines += [f"- {_quote(r['note'])} (your instructor sees every one)" for r in several]
    return "\n".join(lines) + "\n"


def _grades_csv(rows: list[dict], exercises: list[str]) -> str:
    """grades.csv's text: the rows' columns (or, with no rows, the exercises'), each field
    made safe by :func:`csv_field`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    columns = (
        list(rows[0])
        if rows
        else ["student", "submission", "notebook", *exercises, "total", "max", "flag"]
    )
    writer.writerow([csv_field(c) for c in columns])
    for row in rows:
        writer.writerow([csv_field(row.get(c, "")) for c in columns])
    return buffer.getvalue()


#: The first columns of a Canvas gradebook CSV (as Canvas's own export writes them); Canvas
#: matches a row to a student by one of ID, SIS User ID or SIS Login ID.
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


def _csv(rows: list[list]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([csv_field(v) for v in row])
    return buffer.getvalue()


def gradebooks(rows: list[dict]) -> dict[str, str]:
    """``canvas.csv`` and ``moodle.csv`` from the grade rows (written marks merged in).

    One column per course notebook graded (its stem), holding each student's ``total`` in
    the column of the notebook they submitted. Canvas: :data:`CANVAS_COLUMNS`, the student's
    identity in ``Student`` and ``SIS Login ID`` (the hub's user name; with ``--roster``, the
    roster's id), then a ``Points Possible`` row. Moodle: ``username`` then the notebooks'
    columns, to map in its CSV import ("Identify user by": username). A row that could not be
    graded gets an empty cell, never a 0.
    """
    notebooks = sorted({str(r.get("notebook") or "") for r in rows} - {""})
    possible = {}
    for row in rows:
        if row.get("notebook"):
            possible.setdefault(row["notebook"], row.get("max", ""))
    canvas = [[*CANVAS_COLUMNS, *notebooks]]
    canvas.append(["Points Possible", "", "", "", "", *[possible[n] for n in notebooks]])
    moodle = [["username", *notebooks]]
    for row in rows:
        student = str(row.get("student") or row.get("submission") or "")
        if name_key(student) in RESERVED:  # never a second "Points Possible" row
            continue
        cells = [row.get("total", "") if row.get("notebook") == n else "" for n in notebooks]
        canvas.append([student, "", "", student, "", *cells])
        moodle.append([student, *cells])
    return {"canvas.csv": _csv(canvas), "moodle.csv": _csv(moodle)}
