"""Measure how long each section of each notebook takes to teach: ``instructor/timings.json``.

    .venv/bin/python instructor/timing.py            # every notebook (a few minutes)
    .venv/bin/python instructor/timing.py 06 09      # only these (merged into the file)
    .venv/bin/python instructor/timing.py --tree DIR # the notebooks and helpers of a snapshot
    .venv/bin/python instructor/timing.py --markdown # print INSTRUCTORS.md's table (no run)

``--tree DIR`` measures a clean checkout instead of this working tree (for example
``git archive HEAD | tar -x -C DIR``): its ``notebooks/`` are executed with ``DIR`` first on the
kernel's ``PYTHONPATH``, so its ``helpers`` are imported, not this tree's, and half-finished edits
in the working tree do not change the measurement. The commit measured is recorded.

A tool, not a test: it executes notebooks and measures wall-clock time, so CI never runs it
(the CI machines are busy and their times would vary from run to run). Run it once on a quiet
machine and commit ``timings.json``; it records the machine it ran on.

For every ``## `` section of every notebook it records

* **run time**: each code cell is executed once, in order, in a fresh kernel (nbclient with
  ``record_timing``, the course's own executor, :func:`helpers.notebooks.make_client`), and the
  seconds between the kernel starting the cell and its reply are summed over the section;
* **talk time**, estimated from what the section shows, at the rates in :data:`RATES`: its
  markdown words at a lecturing pace, plus a fixed time per static figure, per table, per live
  dashboard demonstration and per other code cell run and pointed at.

A section's **minutes** are talk time plus run time. The opening (title, prerequisites,
learning objectives, the setup cell) and the Summary are lectured; the Exercises and the
Notes on the sources are not (exercises have their own time, :data:`RATES`
``in_class_exercise``; the notes are reading). Headings in one markdown cell split its text
between them.

**Quiz cells** (markdown cells tagged ``quiz``, written by ``python -m instructor.quiz apply``:
questions with their answers in ``<details>``) are not lecture talk: their words are not
counted and add no minutes. They are the students' self-check after the lecture, optional
homework (INSTRUCTORS.md), so the plan gives them no class time; each section records how many
it holds (``quizzes``) and their words (``quiz_words``), for the record only.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "instructor" / "timings.json"

#: The rates behind every talk-time estimate (minutes, or words per minute).
RATES = {
    "words_per_minute": 100,
    "minutes_per_figure": 1.5,
    "minutes_per_table": 1.0,
    "minutes_per_dashboard": 5.0,
    "minutes_per_code_cell": 0.5,
    "in_class_exercise": 10,
    "minutes_per_quiz": 0,
}
#: How the rates were chosen, written into timings.json beside them.
RATES_NOTE = (
    "Talk time = markdown words / 100 words per minute (a lecturer explaining prose with "
    "formulas on a projector speaks well below conversational 130-150 wpm) + 1.5 min per static "
    "figure (image output or markdown image) + 1 min per table (markdown table or HTML table "
    "output) + 5 min per live dashboard demonstration (a cell calling *_dashboard(...): move "
    "two or three sliders and ask the room) + 0.5 min per other code cell run and pointed at. "
    "Minutes = talk time + measured run time. An in-class exercise is given 10 min: the "
    "notebooks' own estimates (20-45 min for 3-4 exercises) are 7-11 min each. Quiz cells "
    "(markdown tagged 'quiz': questions with <details> answers) are not lecture talk and add "
    "0 min: they are the students' optional self-check after the lecture, not class time."
)
#: The tag of a quiz cell (instructor/quiz.py's TAG, instructor.student's QUIZ_TAG).
QUIZ_TAG = "quiz"

HEADING = re.compile(r"^## +(.+?)\s*$")
NUMBERED = re.compile(r"^(\d+) · ")
#: a cell that shows a dashboard: its call, or a name bound to it (``dash = …_dashboard(``,
#: so a later cell can read its choice); instructor/slides.py and timing.py read cells alike
DASHBOARD_CALL = re.compile(r"^\s*(?:\w+\s*=\s*)?[\w.]*_dashboard\(", re.MULTILINE)
EXERCISE = re.compile(r"\*Answer:\* `answer_(\d\d)_(\d+)`")
CLOSING = ("Summary", "Exercises", "Notes on the sources", "Published numbers")
NOT_LECTURED = ("Exercises", "Notes on the sources")


def _words(markdown: str) -> int:
    text = re.sub(r"\]\([^)]*\)", "]", markdown)  # link targets are not spoken
    text = re.sub(r"<[^>]+>", " ", text)
    return len(re.findall(r"[^\s|#*`>\-]+", text))


def _tables(markdown: str) -> int:
    return len(re.findall(r"^\|[-: |]+\|\s*$", markdown, re.MULTILINE))


def section_kind(title: str) -> str:
    if NUMBERED.match(title):
        return "numbered"
    if title.startswith(CLOSING):
        return "closing"
    if title == "Learning objectives":
        return "opening"
    return "unnumbered"


def _new_section(title: str) -> dict:
    match = NUMBERED.match(title)
    return {
        "title": title,
        "number": int(match.group(1)) if match else None,
        "kind": section_kind(title),
        "words": 0,
        "figures": 0,
        "tables": 0,
        "dashboards": 0,
        "code_cells": 0,
        "run_seconds": 0.0,
        "quizzes": 0,
        "quiz_words": 0,
    }


def is_quiz(cell) -> bool:
    """A quiz cell: markdown tagged ``quiz`` (its questions and answers are not lecture talk)."""
    return cell.cell_type == "markdown" and QUIZ_TAG in cell.get("metadata", {}).get("tags", [])


def split_sections(nb) -> list[dict]:
    """The notebook's sections in order, each with its counts; run seconds from the cells'
    ``metadata.execution`` timestamps when the notebook was executed with record_timing.
    A quiz cell is counted apart (``quizzes``, ``quiz_words``), never as the section's words."""
    sections = [_new_section("(opening)")]
    sections[0]["kind"] = "opening"
    for cell in nb.cells:
        source = cell.source
        if is_quiz(cell):
            sections[-1]["quizzes"] += 1
            sections[-1]["quiz_words"] += _words(source)
            continue
        if cell.cell_type == "markdown":
            chunk: list[str] = []
            for line in source.splitlines():
                match = HEADING.match(line)
                if match:
                    _add_markdown(sections[-1], "\n".join(chunk))
                    chunk = []
                    sections.append(_new_section(match.group(1)))
                else:
                    chunk.append(line)
            _add_markdown(sections[-1], "\n".join(chunk))
            continue
        if cell.cell_type != "code":
            continue
        sec = sections[-1]
        if DASHBOARD_CALL.search(source):
            sec["dashboards"] += 1
        else:
            sec["code_cells"] += 1
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if "image/png" in data or "image/svg+xml" in data:
                    sec["figures"] += 1
                elif "<table" in str(data.get("text/html", "")):
                    sec["tables"] += 1
        sec["run_seconds"] += _cell_seconds(cell)
    return sections


def _add_markdown(sec: dict, text: str) -> None:
    sec["words"] += _words(text)
    sec["tables"] += _tables(text)
    sec["figures"] += text.count("![")


def _cell_seconds(cell) -> float:
    stamps = cell.get("metadata", {}).get("execution", {})
    start, end = stamps.get("iopub.execute_input"), stamps.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = _dt.datetime.fromisoformat
    return max(
        0.0,
        (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds(),
    )


def talk_minutes(sec: dict) -> float:
    return (
        sec["words"] / RATES["words_per_minute"]
        + sec["figures"] * RATES["minutes_per_figure"]
        + sec["tables"] * RATES["minutes_per_table"]
        + sec["dashboards"] * RATES["minutes_per_dashboard"]
        + sec["code_cells"] * RATES["minutes_per_code_cell"]
        + sec["quizzes"] * RATES["minutes_per_quiz"]
    )


def exercises(nb) -> dict[str, dict]:
    """Each exercise's statement words and its solution's run seconds, by exercise id."""
    stem = None
    out: dict[str, dict] = {}
    inside = False
    for cell in nb.cells:
        if is_quiz(cell):
            continue
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                match = HEADING.match(line)
                if match:
                    inside = match.group(1) == "Exercises"
            match = EXERCISE.search(cell.source) if inside else None
            if match:
                stem = f"{match.group(1)}.{match.group(2)}"
                out[stem] = {"words": _words(cell.source), "run_seconds": 0.0}
        elif inside and stem is not None and cell.cell_type == "code":
            out[stem]["run_seconds"] += _cell_seconds(cell)
    return out


def summarise(nb) -> dict:
    sections = split_sections(nb)
    for sec in sections:
        sec["run_seconds"] = round(sec["run_seconds"], 2)
        sec["talk_minutes"] = round(talk_minutes(sec), 2)
        sec["lectured"] = not sec["title"].startswith(NOT_LECTURED)
        sec["minutes"] = round(sec["talk_minutes"] + sec["run_seconds"] / 60, 2)
    lectured = [s for s in sections if s["lectured"]]
    return {
        "sections": sections,
        "exercises": exercises(nb),
        "lectured_minutes": round(sum(s["minutes"] for s in lectured), 2),
        "run_seconds": round(sum(s["run_seconds"] for s in sections), 2),
    }


def measure(path: Path, tree: Path = ROOT) -> dict:
    """Execute one notebook once in a fresh kernel and summarise its sections."""
    import nbformat

    sys.path.insert(0, str(ROOT))
    from helpers.notebooks import make_client

    if tree != ROOT:
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [str(tree), *filter(None, [os.environ.get("PYTHONPATH")])]
        )

    nb = nbformat.read(path, as_version=4)
    client = make_client(nb, path, timeout=1800)
    client.record_timing = True
    start = time.perf_counter()
    client.execute()
    wall = time.perf_counter() - start
    summary = summarise(nb)
    summary["wall_seconds_with_kernel_start"] = round(wall, 2)
    return summary


def machine() -> dict:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": _dt.date.today().isoformat(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(x, 2) for x in load] if load else None,
    }


def _commit(tree: Path) -> str:
    """The commit measured: HEAD of this repository, or what ``--tree`` says it holds."""
    import subprocess

    note = tree / "COMMIT"
    if note.exists():
        return note.read_text().strip()
    result = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    dirty = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "notebooks", "helpers"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return result.stdout.strip() + (" with uncommitted changes" if dirty else "")


def labelled(summary: dict) -> dict[str, list[dict]]:
    """A notebook's lectured sections by the label INSTRUCTORS.md uses: ``opening``, ``§3``,
    ``(2)`` (the second section of a notebook that does not number its sections), ``closing``."""
    out: dict[str, list[dict]] = {}
    unnumbered = 0
    for sec in summary["sections"]:
        if not sec["lectured"]:
            continue
        if sec["kind"] == "numbered":
            label = f"§{sec['number']}"
        elif sec["kind"] == "unnumbered":
            unnumbered += 1
            label = f"({unnumbered})"
        else:
            label = sec["kind"]
        out.setdefault(label, []).append(sec)
    return out


def markdown(data: dict) -> str:
    """INSTRUCTORS.md's measured-times table and the key to the unnumbered sections."""
    rows = [
        "| notebook | run (s) | minutes per section (talk + run) | lectured (min) |",
        "|---|---|---|---|",
    ]
    key = []
    for stem, summary in data["notebooks"].items():
        parts = labelled(summary)
        cells = " · ".join(
            f"{label} {sum(s['minutes'] for s in secs):.1f}" for label, secs in parts.items()
        )
        rows.append(
            f"| {stem[:2]} | {summary['run_seconds']:.1f} | {cells} "
            f"| {summary['lectured_minutes']:.1f} |"
        )
        key += [
            f"{stem[:2]} {label} {secs[0]['title']}"
            for label, secs in parts.items()
            if label.startswith("(")
        ]
    return "\n".join(rows) + "\n\n" + "; ".join(key) + "\n"


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    if argv == ["--markdown"]:
        print(markdown(json.loads(OUT.read_text(encoding="utf-8"))), end="")
        return 0
    tree = ROOT
    if argv[:1] == ["--tree"]:
        tree, argv = Path(argv[1]).resolve(), argv[2:]
    paths = sorted((tree / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    unknown = [a for a in argv if not any(p.name.startswith(a) for p in paths)]
    if unknown:
        print(f"no notebook starts with {', '.join(unknown)}; usage:\n{__doc__}")
        return 2
    if argv:
        paths = [p for p in paths if any(p.name.startswith(a) for a in argv)]
    data = json.loads(OUT.read_text()) if OUT.exists() and argv else {"notebooks": {}}
    data["about"] = (
        "Measured by instructor/timing.py (a tool, not a test): per notebook and ## section, "
        "the run time of its code cells (one execution in a fresh kernel) and a talk time "
        "estimated from its words, figures, tables and dashboards at the stated rates."
    )
    data["rates"] = RATES
    data["rates_note"] = RATES_NOTE
    data["machine"] = machine()
    data["commit"] = _commit(tree)
    for path in paths:
        print(f"{path.stem} ...", end=" ", flush=True)
        data["notebooks"][path.stem] = measure(path, tree)
        s = data["notebooks"][path.stem]
        print(f"run {s['run_seconds']:.1f} s, lectured {s['lectured_minutes']:.1f} min", flush=True)
    data["notebooks"] = dict(sorted(data["notebooks"].items()))
    data["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
