"""What a submission scores: parameters drawn per submission, points per part, written answers.

The grade measures that the student's code *computes* each answer: the grader reruns the
submission with parameters drawn for it (:func:`draw_parameters`, seeded from a secret the
instructor keeps and the submission's digest, injected into the notebook's cell tagged
``parameters``), and :func:`score` compares each value the kernel holds with the instructor's
answer function at those parameters (``helpers.exercises.answers``), at the precision the
exercise states. Numbers typed in from the notebook's own parameters, a cracked key or a
searched ``check`` are right only at the parameters the notebook shows, which the grade never
uses: every draw is refused until each scored part's answer differs from the shown one (see
:func:`draw_parameters`).

* :func:`exercise_ids` — the exercises of a course notebook (never of a submission);
* :func:`draw_parameters` — an exercise's parameters for one seed, deterministic;
* :func:`score` — one :class:`Part` per name the exercise asks for, weighted by the points the
  answer key gives (``@answer(..., points=...)``); it never raises: any value, however large
  or strange, is a ✗ with a message;
* :func:`written_ids`, :func:`export_written`, :func:`merge_written` — the written answers
  (a markdown cell tagged ``written`` per sub-question of ``instructor/key/nbNN.json``):
  exported per question with the rubric beside each answer (``written.csv`` to mark,
  ``written.html`` to read: one question across all submissions, as nbgrader's formgrader and
  otter-grader's manual-question export do), and the instructor's marks merged back into the
  grades (full = every point, partial = half, none = 0, or a number of points).
"""

from __future__ import annotations

import csv
import hashlib
import html
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

import numpy as np

from helpers.exercises import OPEN, answers, is_missing, judge, make_entry, new_salt

from . import files

ROOT = Path(__file__).resolve().parents[2]
KEY_DIR = ROOT / "instructor" / "key"
CHECK_CALL = re.compile(r"""check\(\s*["']([0-9]{2}\.[0-9]+)["']""")
#: draws tried per seed before giving up (tests/instructor hold that far fewer are needed)
MAX_DRAWS = 200
#: what a written cell holds as handed out (the student edition writes it)
WRITTEN_PLACEHOLDER = "*Your answer:*"
#: points of a written sub-question when the key gives none
WRITTEN_POINTS = 1.0
MARKS = {"full": 1.0, "partial": 0.5, "none": 0.0}


def _short(error: BaseException, limit: int = 120) -> str:
    """An exception's message, cut to ``limit`` characters (its str() may fail too)."""
    try:
        text = str(error)
    except Exception:
        text = type(error).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Part(NamedTuple):
    """One scored part of an exercise: a name it asks for, its points, why."""

    name: str
    points: float
    max_points: float
    message: str


def _sort_key(exercise_id: str) -> tuple:
    return tuple(int(p) for p in re.findall(r"\d+", exercise_id))


def _read_notebook(path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


# --- which exercises ---------------------------------------------------------------------------


def exercise_ids(course_notebook_path) -> list[str]:
    """The exercise ids of a *course* notebook (``notebooks/NN_*.ipynb``), in order.

    Read from the ``check("NN.k", ...)`` calls of its code cells and kept only where the
    instructor's answers know the id: what a submission's metadata or text claims plays no part.
    """
    nb = _read_notebook(course_notebook_path)
    known = set(answers.known_ids())
    found = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            for exercise_id in CHECK_CALL.findall(_source(cell)):
                if exercise_id in known and exercise_id not in found:
                    found.append(exercise_id)
    return sorted(found, key=_sort_key)


# --- drawing parameters ------------------------------------------------------------------------


def _rng(exercise_id: str, seed: bytes) -> np.random.Generator:
    digest = hashlib.sha256(b"choosing-epsilon/parameters|" + exercise_id.encode() + b"|" + seed)
    return np.random.default_rng(int.from_bytes(digest.digest(), "big"))


def _finite(value) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return True
    if isinstance(value, (tuple, list)):
        return all(_finite(v) for v in value)
    try:
        return bool(np.all(np.isfinite(np.asarray(value, dtype=float))))
    except (TypeError, ValueError):
        return False


def _parts_of(spec, value) -> list:
    return [value] if len(spec.names) == 1 else list(value)


def _is_bool(value) -> bool:
    return isinstance(value, (bool, np.bool_))


def _acceptable(exercise_id: str, drawn: dict) -> bool:
    """Is ``drawn`` a draw the grade may use: valid, computable, and such that no scored part
    of the answer at the shown parameters is also right at ``drawn``?"""
    if exercise_id in OPEN:
        return drawn != OPEN[exercise_id].defaults()
    spec = answers.get(exercise_id)
    if spec.valid is not None and not spec.valid(drawn):
        return False
    try:
        value = answers.expected_at(exercise_id, drawn)
    except (ValueError, ArithmeticError, RuntimeError, KeyError):
        return False  # outside where the exercise is defined: draw again
    if not _finite(value):
        return False
    shown = answers.expected(exercise_id)
    for k, (name, points) in enumerate(zip(spec.names, spec.points, strict=True)):
        now, before = _parts_of(spec, value)[k], _parts_of(spec, shown)[k]
        if points == 0 or _is_bool(now):
            continue  # a concept (a yes/no): scored as a written answer or worth little
        entry = make_entry(exercise_id, (name,), now, spec.precision, new_salt())
        ok, _ = judge(entry, before)
        if ok:
            return False
    return True


def draw_parameters(exercise_id: str, seed: bytes) -> dict:
    """The parameters exercise ``exercise_id`` is graded at, for one ``seed``; deterministic.

    Each parameter is drawn from its range (``helpers.exercises.answers``'s ``Param``); a
    draw is kept only when the exercise is defined there and every scored part of its answer
    differs, at the stated precision, from the answer at the parameters the notebook shows
    (so a typed-in number scores nothing). ``seed`` is bytes, e.g.
    ``hmac(secret, submission digest + exercise id)``. An exercise without parameters gets ``{}``.
    """
    if not isinstance(seed, (bytes, bytearray)):
        raise ValueError(f"seed={seed!r} must be bytes (e.g. an HMAC digest)")
    params = answers.parameters(exercise_id)
    if not params:
        return {}
    rng = _rng(exercise_id, bytes(seed))
    for _ in range(MAX_DRAWS):
        drawn = {name: p.draw(rng) for name, p in params.items()}
        if _acceptable(exercise_id, drawn):
            return drawn
    raise RuntimeError(f"{exercise_id}: no acceptable parameters in {MAX_DRAWS} draws")


# --- scoring -----------------------------------------------------------------------------------


def _names_and_points(exercise_id: str) -> tuple[tuple[str, ...], tuple]:
    if exercise_id in OPEN:
        return OPEN[exercise_id].names, (1,)
    spec = answers.get(exercise_id)
    return spec.names, spec.points


def _all(names, points, message: str) -> list[Part]:
    return [Part(name, 0.0, float(p), message) for name, p in zip(names, points, strict=True)]


def score(exercise_id: str, params: dict, value) -> list[Part]:
    """One :class:`Part` per name exercise ``exercise_id`` asks for; never raises.

    ``params`` are the parameters the submission ran with (:func:`draw_parameters`; a name
    left out takes the value the notebook shows, so ``{}`` scores at the shown ones); ``value``
    is what its kernel held in ``answer_NN_K`` (for an open exercise, the data its ``reduce``
    step made of it in the kernel). Each part scores its points when right at the stated
    precision at ``params``, else 0 with the hint ``check`` would give.
    """
    try:
        names, points = _names_and_points(exercise_id)
    except Exception as error:  # an id the course does not know
        return [Part(str(exercise_id)[:40], 0.0, 0.0, f"unknown exercise ({_short(error)})")]
    try:
        return _score(exercise_id, names, points, params, value)
    except Exception as error:  # the class: no value may stop a grading run
        return _all(
            names, points, f"✗ could not be judged ({type(error).__name__}: {_short(error)})"
        )


def _score(exercise_id, names, points, params, value) -> list[Part]:
    if exercise_id in OPEN:
        spec = OPEN[exercise_id]
        (name,) = names
        if value is Ellipsis or (isinstance(value, dict) and value.get("missing")):
            return [Part(name, 0.0, 1.0, f"… {exercise_id}: not answered")]
        ok, hint = spec.judge(value, {**spec.defaults(), **(params or {})})
        line = f"✓ {exercise_id}: correct" if ok else f"✗ {exercise_id}: {name} {hint}"
        return [Part(name, 1.0 if ok else 0.0, 1.0, line)]
    spec = answers.get(exercise_id)
    try:
        expected = answers.expected_at(exercise_id, {**spec.defaults(), **(params or {})})
    except Exception as error:
        return _all(
            names,
            points,
            f"✗ no answer at these parameters ({type(error).__name__}: {_short(error)})",
        )
    if value is Ellipsis or (is_missing(value) and len(names) == 1):
        return _all(names, points, f"… {exercise_id}: not answered")
    if len(names) > 1 and (not isinstance(value, (tuple, list)) or len(value) != len(names)):
        what = type(value).__name__
        return _all(
            names,
            points,
            f"✗ {exercise_id}: pass {len(names)} values ({', '.join(names)}) as a tuple; got {what}",
        )
    given = [value] if len(names) == 1 else list(value)
    out = []
    for k, name in enumerate(names):
        weight = float(points[k])
        if is_missing(given[k]):
            out.append(Part(name, 0.0, weight, f"… {exercise_id}: {name} not answered"))
            continue
        entry = make_entry(
            exercise_id, (name,), _parts_of(spec, expected)[k], spec.precision, new_salt()
        )
        ok, line = judge(entry, given[k])
        if ok:
            line = f"✓ {exercise_id}: " + ("correct" if len(names) == 1 else f"{name} correct")
        if weight == 0:
            line += " (not scored: a yes/no, marked with the written answer)"
        out.append(Part(name, weight if ok else 0.0, weight, line))
    return out


# --- written answers ---------------------------------------------------------------------------


def written_id(exercise_id: str, index: int) -> str:
    """The id of sub-question ``index`` (1-based, in the key's order) of an exercise: ``08.1.q2``."""
    return f"{exercise_id}.q{index}"


def written_questions(key_dir: Path = KEY_DIR) -> dict[str, dict]:
    """Written id → {exercise, quote, answer, rubric, points} from ``instructor/key/nbNN.json``
    (raw: facts ``[[name]]`` not filled in; :func:`filled_questions` fills them)."""
    found = {}
    for path in sorted(Path(key_dir).glob("nb[0-9][0-9].json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for exercise_id, entry in data.get("exercises", {}).items():
            for index, question in enumerate(entry.get("questions", []), start=1):
                if "checked_by" in question:
                    continue
                found[written_id(exercise_id, index)] = {
                    "exercise": exercise_id,
                    "notebook": data.get("notebook", path.stem),
                    "quote": question.get("quote", ""),
                    "answer": question.get("answer", ""),
                    "rubric": dict(question.get("rubric", {})),
                    "points": float(question.get("points", WRITTEN_POINTS)),
                }
    return dict(sorted(found.items(), key=lambda kv: _sort_key(kv[0])))


def filled_questions(key_dir: Path = KEY_DIR) -> dict[str, dict]:
    """:func:`written_questions` with every fact of the answer key filled in."""
    from instructor import answer_key

    facts, _ = answer_key.facts_and_runs(answer_key.statements())
    out = {}
    for wid, q in written_questions(key_dir).items():
        q = dict(q)
        q["answer"] = answer_key.fill(q["answer"], facts)
        q["rubric"] = {k: answer_key.fill(v, facts) for k, v in q["rubric"].items()}
        out[wid] = q
    return out


def written_ids(course_notebook_path) -> list[str]:
    """The written answers of a course notebook: its markdown cells tagged ``written``."""
    nb = _read_notebook(course_notebook_path)
    known = set(written_questions())
    found = []
    for cell in nb.get("cells", []):
        meta = cell.get("metadata", {})
        wid = (meta.get("choosing_epsilon") or {}).get("written")
        if cell.get("cell_type") == "markdown" and "written" in meta.get("tags", []):
            if wid in known and wid not in found:
                found.append(wid)
    return sorted(found, key=_sort_key)


def written_answers(submission_path) -> dict[str, str]:
    """Written id → the text of the submission's cell for it (what the student wrote)."""
    try:
        nb = _read_notebook(submission_path)
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    found = {}
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        if not isinstance(cell, dict):
            continue
        wid = ((cell.get("metadata") or {}).get("choosing_epsilon") or {}).get("written")
        if isinstance(wid, str) and wid not in found:
            found[wid] = _source(cell)
    return found


def is_unanswered(text: str) -> bool:
    """A written cell left as handed out: nothing after its ``*Your answer:*`` (or empty)."""
    text = str(text)
    if WRITTEN_PLACEHOLDER in text:
        text = text.rsplit(WRITTEN_PLACEHOLDER, 1)[1]
    return not text.strip()


#: First characters a spreadsheet may read as the start of a formula or command (OWASP's CSV
#: injection list, with ``|`` and ``%`` for DDE and old Excel): the one set for every CSV the
#: grader writes (``grades.csv`` through ``grade.csv_field``, ``written.csv`` here).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "|", "%")


#: Unicode categories never shown as themselves in anything the grader writes: controls
#: (C0, DEL, C1: a carriage return, an ANSI escape), format characters (bidirectional
#: overrides, zero-width), line and paragraph separators, surrogates, private use.
HIDDEN_CATEGORIES = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co")


def visible(text, *, keep: str = "") -> str:
    """``text`` with every character of :data:`HIDDEN_CATEGORIES` (but those in ``keep``)
    written as its escape (``\\x0d``, ``\\u202e``): what a submission wrote can start no
    line, move no cursor and reorder no text in a file, a terminal or a spreadsheet."""
    out = []
    for char in "" if text is None else str(text):
        if char in keep or unicodedata.category(char) not in HIDDEN_CATEGORIES:
            out.append(char)
            continue
        code = ord(char)
        out.append(
            f"\\x{code:02x}"
            if code < 0x100
            else f"\\u{code:04x}"
            if code < 0x10000
            else f"\\U{code:08x}"
        )
    return "".join(out)


#: What starts Markdown structure inside a line (emphasis, code, links, images, tables,
#: strikethrough), escaped with a backslash by :func:`markdown_text`.
MARKDOWN_SPECIALS = "\\`*_[]|~!#"


def markdown_text(text) -> str:
    """``text`` as one line of literal Markdown: no control character (:func:`visible`), no
    line break, no HTML (``& < >`` as entities) and no Markdown structure (every character
    of :data:`MARKDOWN_SPECIALS` backslash-escaped)."""
    line = visible(str(text).replace("\r\n", "\n").replace("\n", " "))
    line = html.escape(line, quote=False)
    return "".join("\\" + c if c in MARKDOWN_SPECIALS else c for c in line)


def escape_cell(value) -> str:
    """A CSV field a spreadsheet shows as text, never runs as a formula (OWASP's advice).

    Every hidden character but a line break and a tab (which CSV quotes, and a written
    answer's code holds) is written as its escape (:func:`visible`); a field starting with one
    of :data:`FORMULA_PREFIXES` then gets a leading ``'``.
    """
    text = visible("" if value is None else value, keep="\n\t")
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text


def unescape_cell(text: str) -> str:
    """:func:`escape_cell` undone."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_PREFIXES) else text


WRITTEN_COLUMNS = (
    "student",
    "submission",
    "id",
    "exercise",
    "max_points",
    "mark",
    "comment",
    "question",
    "answer",
    "rubric_full",
    "rubric_partial",
    "rubric_none",
    "note",
)


def export_written(rows: Iterable[Mapping], out_dir) -> tuple[Path, Path]:
    """Write ``written.csv`` (to mark) and ``written.html`` (to read) into ``out_dir``.

    ``rows``: one mapping per (submission, written answer) with keys ``submission``, ``id``
    (or ``written_id``: a written id, :func:`written_ids`) and ``answer`` (the cell's text). In the CSV the
    instructor fills ``mark`` with ``full``, ``partial``, ``none`` or a number of points (and
    may add a ``comment``); a cell left as handed out is marked ``none`` already. The HTML
    groups the answers by question, the question's rubric above them, each answer as plain
    text (escaped: a student's HTML is never rendered). Returns the two paths.
    """
    questions = filled_questions()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    records = []
    for row in rows:
        wid = str(row.get("id", row.get("written_id", "")))
        if wid not in questions:
            continue  # only the course's own questions, never one a submission invents
        q = questions[wid]
        answer = str(row.get("answer", ""))
        blank = is_unanswered(answer)
        records.append(
            {
                "student": str(row.get("student", row.get("submission", ""))),
                "submission": str(row.get("submission", "")),
                "id": wid,
                "exercise": q["exercise"],
                "max_points": f"{q['points']:g}",
                "mark": "none" if blank else "",
                "comment": "no answer (the cell is as handed out)" if blank else "",
                "question": q["quote"],
                "answer": answer,
                "rubric_full": q["rubric"].get("full", ""),
                "rubric_partial": q["rubric"].get("partial", ""),
                "rubric_none": q["rubric"].get("none", ""),
                "note": str(row.get("note", "")),
                "others": [str(a) for a in row.get("others", [])],
            }
        )
    records.sort(key=lambda r: (_sort_key(r["id"]), r["student"]))
    csv_path, html_path = out_dir / "written.csv", out_dir / "written.html"
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=WRITTEN_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for record in records:
            writer.writerow({k: escape_cell(v) for k, v in record.items() if k != "others"})
    html_path.write_text(_written_html(records, questions), encoding="utf-8")
    return csv_path, html_path


def _written_html(records: list[dict], questions: dict) -> str:
    e = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<title>Written answers to mark</title><style>",
        "body{font-family:sans-serif;max-width:70em;margin:auto;line-height:1.4}",
        ".rubric{display:grid;grid-template-columns:8em 1fr;gap:.2em 1em;background:#f4f4f4;"
        "padding:.5em}",
        ".answer{border-left:4px solid #555;padding:.3em .8em;margin:.6em 0;white-space:pre-wrap}",
        "</style></head><body><h1>Written answers to mark</h1>",
        "<p>Mark each answer in <code>written.csv</code> (column <code>mark</code>: full, partial, "
        "none or a number of points), then merge the marks into the grades.</p>",
    ]
    by_id: dict[str, list[dict]] = {}
    for record in records:
        by_id.setdefault(record["id"], []).append(record)
    for wid, group in by_id.items():
        q = questions[wid]
        parts.append(f"<section><h2 id='{e(wid)}'>{e(wid)} · exercise {e(q['exercise'])}</h2>")
        parts.append(f"<p><strong>Question:</strong> {e(q['quote'])} ({q['points']:g} points)</p>")
        parts.append("<div class='rubric'>")
        for level, label in (
            ("full", "Full credit"),
            ("partial", "Partial"),
            ("none", "No credit"),
        ):
            parts.append(f"<b>{label}</b><span>{e(q['rubric'].get(level, ''))}</span>")
        parts.append(f"<b>Key</b><span>{e(q['answer'])}</span></div>")
        for record in group:
            mark = f" — marked {e(record['mark'])}" if record["mark"] else ""
            parts.append(
                f"<h3>{e(visible(record['student']))}{mark}</h3>"
                f"<div class='answer'>{e(visible(record['answer'], keep=chr(10)))}</div>"
            )
            if record["note"]:
                parts.append(f"<p><strong>Note:</strong> {e(visible(record['note']))}</p>")
            for other in record["others"]:
                parts.append(
                    "<p>Not kept (not marked):</p>"
                    f"<div class='answer'>{e(visible(other, keep=chr(10)))}</div>"
                )
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _mark_points(mark: str, max_points: float, where: str) -> float | None:
    text = mark.strip().lower()
    if not text:
        return None
    if text in MARKS:
        return MARKS[text] * max_points
    try:
        points = float(text)
    except ValueError:
        raise ValueError(
            f"{where}: mark={mark!r}; use full, partial, none or a number of points "
            f"from 0 to {max_points:g}"
        ) from None
    if not (math.isfinite(points) and 0 <= points <= max_points):
        raise ValueError(f"{where}: mark={mark!r} is outside 0 … {max_points:g} points")
    return points


def merge_written(marks_csv, grades_csv_rows: Iterable[Mapping]) -> list[dict]:
    """The grade rows with the instructor's written marks added.

    ``marks_csv`` is the ``written.csv`` of :func:`export_written`, marked; ``grades_csv_rows``
    the rows of ``grades.csv`` (mappings with ``submission`` and ``total``). Each row gains a
    column per written id (its points; empty where not marked yet), ``written`` (their sum) and
    ``written_unmarked`` (how many are still to mark), and ``total`` grows by ``written``. A
    mark that is not full, partial, none or a number of points within the question's range
    raises ValueError naming its row; rows of the CSV for ids the course does not have are
    ignored (the course decides which questions exist, never the file).
    """
    questions = written_questions()
    marks: dict[tuple[str, str], float | None] = {}
    lines: dict[tuple[str, str], int] = {}
    ids: list[str] = []
    with open(marks_csv, newline="", encoding="utf-8") as handle:
        for number, row in enumerate(files.csv_rows(handle), start=2):
            wid = unescape_cell(row.get("id") or "")
            if wid not in questions:
                continue
            # the student as written (escaped), compared with the row's student escaped alike
            submission = row.get("student") or row.get("submission") or ""
            where = f"{marks_csv}, line {number} ({submission}, {wid})"
            if (submission, wid) in lines:
                raise ValueError(
                    f"{where}: a second mark for {submission} and {wid} (the first is on line "
                    f"{lines[(submission, wid)]}); keep one"
                )
            lines[(submission, wid)] = number
            marks[(submission, wid)] = _mark_points(
                unescape_cell(row.get("mark") or ""), questions[wid]["points"], where
            )
            if wid not in ids:
                ids.append(wid)
    ids.sort(key=_sort_key)
    out = []
    for row in grades_csv_rows:
        row = dict(row)
        submission = escape_cell(str(row.get("student") or row.get("submission", "")))
        written = 0.0
        unmarked = 0
        for wid in ids:
            points = marks.get((submission, wid))
            if (submission, wid) in marks and points is None:
                unmarked += 1
            row[wid] = "" if points is None else f"{points:g}"
            written += points or 0.0
        row["written"] = f"{written:g}"
        row["written_unmarked"] = str(unmarked)
        try:
            row["total"] = f"{float(row.get('total') or 0) + written:g}"
        except ValueError:
            row["total"] = f"{written:g}"
        out.append(row)
    return out
