"""The lecture plan fits: instructor/plan.json, INSTRUCTORS.md and the measured times agree.

Fast and deterministic: reads JSON and Markdown only, never executes a notebook (the times
come from instructor/timings.json, made once by instructor/timing.py, which CI does not run).

Sections are named as INSTRUCTORS.md names them: ``§3`` for a numbered section, ``(2)`` for
the second unnumbered section of a notebook that does not number its sections (notebooks
01–05), ``opening`` (title, learning objectives and setup) and ``closing`` (the lectured
closing sections: Summary, and 00's published numbers). Exercises and Notes are not lectured.
"""

from __future__ import annotations

import json
import re

import pytest
from _modules import ROOT

from helpers.exercises import known_ids

PLAN = json.loads((ROOT / "instructor" / "plan.json").read_text(encoding="utf-8"))
TIMINGS = json.loads((ROOT / "instructor" / "timings.json").read_text(encoding="utf-8"))
GUIDE = (ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8")
LECTURES = PLAN["lectures"]
LENGTH = PLAN["minutes_per_lecture"]
PER_EXERCISE = PLAN["minutes_per_in_class_exercise"]
STEMS = {stem[:2]: stem for stem in TIMINGS["notebooks"]}
NUMBER_WORDS = {
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
    13: "thirteen",
    14: "fourteen",
    15: "fifteen",
}


# ---------------------------------------------------------------- the measured sections


def sections(stem: str) -> dict[str, dict]:
    """A notebook's lectured sections by their INSTRUCTORS.md label (in notebook order)."""
    from instructor.timing import labelled  # the tool's own labelling, not a copy of it

    out: dict[str, dict] = {}
    for label, secs in labelled(TIMINGS["notebooks"][stem]).items():
        out[label] = {
            "minutes": sum(sec["minutes"] for sec in secs),
            "titles": [sec["title"] for sec in secs],
            "run_seconds": sum(sec["run_seconds"] for sec in secs),
        }
    return out


def content_labels(stem: str) -> list[str]:
    """The labels a plan part names (numbered or unnumbered content sections)."""
    return [label for label in sections(stem) if label not in ("opening", "closing")]


def part_labels(part: dict) -> list[str]:
    labels = content_labels(part["notebook"])
    if part["sections"] == "all":
        return labels
    return [f"§{n}" for n in part["sections"]]


def lecture_sections(lecture: dict) -> list[tuple[str, str]]:
    """(stem, label) of every lectured section a lecture teaches, opening and closing included:
    a notebook's opening goes with its first part, its closing with its last (plan's 'about')."""
    out = []
    for part in lecture["parts"]:
        stem = part["notebook"]
        labels = part_labels(part)
        first = _parts_of(stem)[0] is part
        last = _parts_of(stem)[-1] is part
        out += [(stem, "opening")] * first + [(stem, label) for label in labels]
        out += [(stem, "closing")] * (last and "closing" in sections(stem))
    return out


def _parts_of(stem: str) -> list[dict]:
    return [p for lec in LECTURES for p in lec["parts"] if p["notebook"] == stem]


def lecture_of_section() -> dict[tuple[str, object], int]:
    """(stem, section number or heading) → the lecture that teaches it."""
    where: dict[tuple[str, object], int] = {}
    for lecture in LECTURES:
        for stem, label in lecture_sections(lecture):
            for title in sections(stem)[label]["titles"]:
                number = re.match(r"(\d+) · ", title)
                where[(stem, int(number.group(1)) if number else title)] = lecture["number"]
    return where


def minutes(pairs) -> float:
    return sum(sections(stem)[label]["minutes"] for stem, label in pairs)


# ---------------------------------------------------------------- parsing INSTRUCTORS.md


def expand(stem: str, spec: str) -> list[str]:
    """'opening, §1–3, (2)' → ['opening', '§1', '§2', '§3', '(2)']."""
    out = []
    for item in (s.strip() for s in spec.split(",")):
        if item in ("opening", "closing"):
            out.append(item)
        elif m := re.fullmatch(r"§(\d+)(?:–§?(\d+))?", item):
            low, high = int(m.group(1)), int(m.group(2) or m.group(1))
            out += [f"§{n}" for n in range(low, high + 1)]
        elif m := re.fullmatch(r"\((\d+)\)(?:–\((\d+)\))?", item):
            low, high = int(m.group(1)), int(m.group(2) or m.group(1))
            out += [f"({n})" for n in range(low, high + 1)]
        elif item == "all":
            out += content_labels(stem)
        else:
            raise AssertionError(f"cannot read the section {item!r} of {stem}")
    return out


def parse_sections(text: str) -> list[tuple[str, str]]:
    """'00 §1–2; 01 opening, (1)' → [(stem, label), ...]."""
    out = []
    for chunk in (c.strip() for c in text.split(";")):
        number, _, spec = chunk.partition(" ")
        assert number in STEMS, f"unknown notebook {number!r} in {text!r}"
        out += [(STEMS[number], label) for label in expand(STEMS[number], spec or "all")]
    return out


def table_after(heading: str) -> list[list[str]]:
    """The first Markdown table after a heading line, as rows of cells (header dropped)."""
    lines = GUIDE.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) > 2, f"no table under {heading!r}"
    return rows[2:]


def ids(cell: str) -> list[str]:
    return re.findall(r"\b\d\d\.\d\b", cell)


def lecture_heading(lecture: dict) -> str:
    return f"## Lecture {lecture['number']} · {lecture['title']}"


def fmt(x: float) -> str:
    return f"{x:.1f}"


# ---------------------------------------------------------------- the tests


def test_timings_match_the_notebooks():
    """timings.json is not stale: its numbered sections, and the headings of notebooks that
    do not number theirs, are the notebooks' own (else re-run instructor/timing.py)."""
    for stem in STEMS.values():
        nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
        headings = [
            line[3:].strip()
            for cell in nb["cells"]
            if cell["cell_type"] == "markdown"
            for line in "".join(cell["source"]).splitlines()
            if line.startswith("## ")
        ]
        measured = [s["title"] for s in TIMINGS["notebooks"][stem]["sections"]]
        numbered = [h for h in headings if re.match(r"\d+ · ", h)]
        assert numbered == [h for h in measured if re.match(r"\d+ · ", h)], stem
        if not numbered:
            assert [h for h in headings if h in measured] == measured[1:], stem


#: What each section's talk time is counted from, read from the notebook's source alone (the
#: figures and tables also count outputs, which depend on the run that measured them).
COUNTED = ("title", "kind", "number", "words", "dashboards", "code_cells", "quizzes", "lectured")


@pytest.mark.parametrize("stem", sorted(TIMINGS["notebooks"]))
def test_timings_count_the_current_notebooks(stem):
    """timings.json cannot go stale silently: every section's heading, and every lectured
    section's code cells, dashboards and quiz cells (and its words, to within 50 words or 5 %:
    about half a minute of talk), are those of the committed
    notebook, counted the way instructor/timing.py counts them (quiz cells apart, never as
    lecture words; Exercises and Notes are not lectured, so only their headings are compared).
    A notebook whose lectured text changed must be measured again:
    ``.venv/bin/python instructor/timing.py --tree DIR`` on a snapshot of the commit."""
    import nbformat

    from instructor.timing import split_sections, summarise

    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    counted = summarise(nb)["sections"]
    measured = TIMINGS["notebooks"][stem]["sections"]
    assert [s["title"] for s in measured] == [s["title"] for s in counted], (
        f"{stem}: headings changed since {TIMINGS['commit'][:7]}; re-run instructor/timing.py"
    )
    for now, then in zip(counted, measured, strict=True):
        for key in COUNTED if then["lectured"] else ("title", "lectured"):
            if key == "words":  # a typo fixed is not a new lecture: half a minute of drift is
                slack = max(50, 0.05 * then[key])  # allowed (100 words a minute), no more
                assert abs(now[key] - then[key]) <= slack, (
                    f"{stem} {now['title']!r}: {now[key]} words, timings.json says {then[key]} "
                    f"(measured at {TIMINGS['commit'][:7]}); re-run instructor/timing.py"
                )
                continue
            assert now[key] == then[key], (
                f"{stem} {now['title']!r}: {key} is {now[key]}, timings.json says {then[key]} "
                f"(measured at {TIMINGS['commit'][:7]}); re-run instructor/timing.py"
            )
    # quiz cells are counted apart: their words are not in any section's words
    quizzes = [c for c in nb.cells if "quiz" in c.get("metadata", {}).get("tags", [])]
    assert sum(s["quizzes"] for s in measured) == len(quizzes), stem
    assert len(split_sections(nb)) == len(measured)


def test_timings_measured_a_commit():
    """The times are of one commit's notebooks, not of a working tree with uncommitted edits,
    and no quiz cell adds a minute to the lecture (INSTRUCTORS.md: quizzes are homework)."""
    assert re.fullmatch(r"[0-9a-f]{40}", TIMINGS["commit"]), TIMINGS["commit"]
    assert TIMINGS["rates"]["minutes_per_quiz"] == 0
    assert "self-check" in GUIDE and "not lecture time" in GUIDE


def test_plan_structure():
    assert LENGTH == 75
    assert [lec["number"] for lec in LECTURES] == list(range(1, len(LECTURES) + 1))
    for lecture in LECTURES:
        assert lecture["title"] and lecture["parts"]
        for part in lecture["parts"]:
            assert part["notebook"] in TIMINGS["notebooks"]
            assert part["sections"] == "all" or (
                part["sections"] and all(isinstance(n, int) for n in part["sections"])
            )


def test_every_numbered_section_taught_exactly_once():
    taught = [pair for lecture in LECTURES for pair in lecture_sections(lecture)]
    content = [(s, label) for s, label in taught if label not in ("opening", "closing")]
    assert len(content) == len(set(content)), "a section is taught twice"
    for stem in STEMS.values():
        for label in sections(stem):
            assert taught.count((stem, label)) == 1, f"{stem} {label} is not taught once"


def test_every_exercise_set_exactly_once():
    placed = [x for lec in LECTURES for x in lec["in_class"] + lec["homework"]]
    assert sorted(placed) == sorted(known_ids())
    assert len(placed) == len(set(placed))
    assert sorted(PLAN["exercises"]) == sorted(known_ids())


def test_required_sections_exist():
    where = lecture_of_section()
    for exercise, info in PLAN["exercises"].items():
        assert info["needs"] and info["what"], exercise
        assert exercise[:2] in [s[:2] for s in info["needs"]], f"{exercise} needs its notebook"
        for stem, needed in info["needs"].items():
            for section in needed:
                assert (stem, section) in where, f"{exercise}: no section {section!r} in {stem}"


@pytest.mark.parametrize("lecture", LECTURES, ids=lambda lec: f"lecture{lec['number']}")
def test_exercises_need_only_what_is_taught_by_then(lecture):
    where = lecture_of_section()
    for exercise in lecture["in_class"] + lecture["homework"]:
        for stem, needed in PLAN["exercises"][exercise]["needs"].items():
            for section in needed:
                taught = where[(stem, section)]
                assert taught <= lecture["number"], (
                    f"{exercise} (lecture {lecture['number']}) needs {stem} {section!r}, "
                    f"taught in lecture {taught}"
                )


def test_shorter_module_keeps_its_exercises_answerable():
    dropped = set(PLAN["shorter"]["drop"])
    where = lecture_of_section()
    for lecture in LECTURES:
        if lecture["number"] in dropped:
            continue
        for exercise in lecture["in_class"] + lecture["homework"]:
            for stem, needed in PLAN["exercises"][exercise]["needs"].items():
                for section in needed:
                    assert where[(stem, section)] not in dropped, (exercise, stem, section)


def test_every_lecture_fits():
    for lecture in LECTURES:
        load = minutes(lecture_sections(lecture)) + PER_EXERCISE * len(lecture["in_class"])
        assert load <= LENGTH, f"lecture {lecture['number']}: {load:.1f} min"


def test_glance_table_agrees_with_plan():
    rows = table_after("## The module at a glance")
    assert len(rows) == len(LECTURES)
    for row, lecture in zip(rows, LECTURES, strict=True):
        number, title, notebooks, measured, in_class, homework = row
        assert int(number) == lecture["number"]
        assert title == lecture["title"]
        planned = lecture_sections(lecture)
        stated = parse_sections(notebooks)
        content = [p for p in planned if p[1] not in ("opening", "closing")]
        assert stated == content, f"lecture {number}: {notebooks!r}"
        assert measured == fmt(minutes(planned)), f"lecture {number}: measured minutes"
        assert ids(in_class) == lecture["in_class"], f"lecture {number}: in class"
        assert ids(homework) == lecture["homework"], f"lecture {number}: homework"


@pytest.mark.parametrize("lecture", LECTURES, ids=lambda lec: f"lecture{lec['number']}")
def test_lecture_timing_table(lecture):
    """Rows run 0–75 without gap; each row is at least as long as its sections' measured
    minutes (10 per in-class exercise); together they teach exactly the lecture's sections."""
    assert lecture_heading(lecture) in GUIDE.splitlines(), lecture_heading(lecture)
    rows = table_after(lecture_heading(lecture))
    clock, covered, in_class = 0, [], []
    for time, what_sections, measured, _what in rows:
        start, end = (int(x) for x in re.fullmatch(r"(\d+)–(\d+)", time).groups())
        assert start == clock, f"lecture {lecture['number']}: a gap or overlap at {time}"
        clock = end
        if what_sections.startswith("in class"):
            found = ids(what_sections)
            in_class += found
            assert measured == str(PER_EXERCISE * len(found))
        elif what_sections == "—":
            assert measured == "—"
            continue
        else:
            pairs = parse_sections(what_sections)
            covered += pairs
            assert measured == fmt(minutes(pairs)), f"lecture {lecture['number']} row {time}"
        assert end - start >= float(measured), f"lecture {lecture['number']}: {time} too short"
    assert clock == LENGTH
    assert in_class == lecture["in_class"]
    assert covered == lecture_sections(lecture)


def test_measured_times_table_matches_timings():
    rows = table_after("## Measured times")
    assert [r[0] for r in rows] == list(STEMS)
    for number, run, per_section, lectured in rows:
        stem = STEMS[number]
        measured = TIMINGS["notebooks"][stem]
        assert run == fmt(measured["run_seconds"]), stem
        assert lectured == fmt(measured["lectured_minutes"]), stem
        stated = [item.strip().rsplit(" ", 1) for item in per_section.split("·")]
        expected = [[label, fmt(v["minutes"])] for label, v in sections(stem).items()]
        assert stated == expected, stem


def test_unnumbered_sections_key():
    """The key under the measured-times table names notebooks 01–05's sections (1), (2), …"""
    for stem in STEMS.values():
        for label, entry in sections(stem).items():
            if label.startswith("("):
                line = f"{stem[:2]} {label} {entry['titles'][0]}"
                assert line.replace("`", "") in GUIDE.replace("`", ""), line


def test_rates_stated():
    rates = TIMINGS["rates"]
    assert f"{rates['words_per_minute']} words a minute" in GUIDE
    for key, text in [
        ("minutes_per_figure", "per figure"),
        ("minutes_per_table", "per table"),
        ("minutes_per_dashboard", "per live dashboard"),
        ("minutes_per_code_cell", "per other code cell"),
    ]:
        value = f"{rates[key]:g}"
        assert re.search(rf"\b{re.escape(value)} min(utes)? {text}", GUIDE), (key, value)
    assert rates["in_class_exercise"] == PER_EXERCISE


def test_intro_counts_the_lectures():
    words = NUMBER_WORDS[len(LECTURES)]
    assert f"**{words} 75-minute lectures**" in GUIDE
    assert "nine 75-minute" not in GUIDE
