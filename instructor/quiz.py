"""The quiz bank in the notebooks: ``python -m instructor.quiz apply|check|show``.

The questions live as data, one file per lecture of ``instructor/plan.json``:
``instructor/quizzes/lecture-NN.json``. Each question names the notebook and the section it
tests; a multiple-choice question has options, exactly one correct, each with the reason it is
right or wrong; a numeric question states its answer, the tolerance it accepts and how the
helpers compute it (``compute``: a dotted ``call`` into ``helpers`` or ``math`` with ``args`` and
``kwargs``, which may themselves be calls, and an optional ``item``: indices or attribute names
applied to the result), which the tests evaluate and compare. Any question may also list
``checks``: each number its text states (``value``, as written, e.g. ``"0.4571"``) with the
``compute`` that gives it; the tests recompute it and compare to the last digit written, so a
choice question's numbers cannot go stale when a notebook changes.

``apply NOTEBOOK...`` writes one markdown cell per lecture part (tag ``quiz``, metadata
``quiz.id``) at the end of the part's last section, or before the notebook's Summary when the
part ends the notebook. It is idempotent: existing quiz cells are replaced, and a notebook whose
quiz cells are already right is not rewritten. Where the heading that follows the quiz shares a
markdown cell with the text before it, that cell is split at the heading (the heading keeps the
cell's id and metadata). ``check NOTEBOOK...`` reports missing, stale, misplaced or unknown quiz
cells and exits 1 if there are any. ``show LECTURE`` prints a lecture's cells.

The answers sit in ``<details>`` elements: plain HTML that GitHub, JupyterLab, Jupyter Book and a
screen reader all open without JavaScript. The student edition drops them
(``instructor.student.quiz_for_students``).
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "instructor" / "plan.json"
QUIZZES = ROOT / "instructor" / "quizzes"
NOTEBOOKS = ROOT / "notebooks"
TAG = "quiz"
LETTERS = "abcdefgh"
ALLOWED_CALLS = ("helpers.", "math.")
KINDS = ("choice", "numeric")

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_NUMBERED = re.compile(r"^(\d+)\s+·")
_FENCE = re.compile(r"^\s*(```|~~~)")


# --- the plan and the bank ------------------------------------------------------------------


def load_plan(path: Path = PLAN) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def bank_path(lecture: int, directory: Path = QUIZZES) -> Path:
    return directory / f"lecture-{lecture:02d}.json"


def load_bank(lecture: int, directory: Path = QUIZZES) -> dict:
    return json.loads(bank_path(lecture, directory).read_text(encoding="utf-8"))


def schema_problems(bank: dict, lecture: int | None = None) -> list[str]:
    """Everything wrong with one lecture's file, as sentences (empty when it is valid)."""
    problems = []
    where = f"lecture {bank.get('lecture')}"
    if lecture is not None and bank.get("lecture") != lecture:
        problems.append(f"{where}: 'lecture' should be {lecture}")
    questions = bank.get("questions")
    if not isinstance(questions, list) or not questions:
        return [*problems, f"{where}: 'questions' must be a non-empty list"]
    for i, q in enumerate(questions):
        name = f"{where}, question {q.get('id', i)}"
        for field in ("id", "notebook", "section", "type", "question", "explanation"):
            if not isinstance(q.get(field), str) or not q[field].strip():
                problems.append(f"{name}: '{field}' must be a non-empty string")
        if q.get("type") == "choice":
            options = q.get("options")
            if not isinstance(options, list) or not 3 <= len(options) <= len(LETTERS):
                problems.append(f"{name}: a choice question needs 3 to 8 options")
                continue
            if sum(1 for o in options if o.get("correct") is True) != 1:
                problems.append(f"{name}: exactly one option must have 'correct': true")
            for j, o in enumerate(options):
                if not isinstance(o.get("text"), str) or not o["text"].strip():
                    problems.append(f"{name}, option {j}: 'text' must be a non-empty string")
                if not isinstance(o.get("why"), str) or not o["why"].strip():
                    problems.append(f"{name}, option {j}: 'why' must say why it is right/wrong")
                if not isinstance(o.get("correct", False), bool):
                    problems.append(f"{name}, option {j}: 'correct' must be true or false")
        elif q.get("type") == "numeric":
            for field in ("answer", "tolerance"):
                if not isinstance(q.get(field), (int, float)) or isinstance(q.get(field), bool):
                    problems.append(f"{name}: '{field}' must be a number")
            if isinstance(q.get("tolerance"), (int, float)) and not q["tolerance"] > 0:
                problems.append(f"{name}: 'tolerance' must be positive")
            if not isinstance(q.get("precision"), str) or not q["precision"].strip():
                problems.append(f"{name}: 'precision' must say what is accepted")
            compute = q.get("compute")
            if not isinstance(compute, dict) or not isinstance(compute.get("call"), str):
                problems.append(f"{name}: 'compute' must hold a 'call'")
        else:
            problems.append(f"{name}: 'type' must be one of {KINDS}")
        checks = q.get("checks", [])
        if not isinstance(checks, list):
            problems.append(f"{name}: 'checks' must be a list")
            checks = []
        for j, c in enumerate(checks):
            value = c.get("value") if isinstance(c, dict) else None
            if not isinstance(value, str) or _decimal(value) is None:
                problems.append(f"{name}, check {j}: 'value' must be a number written as a string")
            if not isinstance(c, dict) or not isinstance(c.get("compute", {}).get("call"), str):
                problems.append(f"{name}, check {j}: 'compute' must hold a 'call'")
    ids = [q.get("id") for q in questions]
    for dup in sorted({i for i in ids if ids.count(i) > 1}, key=str):
        problems.append(f"{where}: id {dup} is used twice")
    return problems


def all_banks(plan: dict | None = None, directory: Path = QUIZZES) -> dict[int, dict]:
    """Every lecture file there is, by the number in its name (a lecture of the plan without a
    file has no questions yet; the tests ask for five)."""
    return {
        int(path.stem.split("-")[1]): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(directory.glob("lecture-*.json"))
    }


# --- numeric answers, computed ----------------------------------------------------------------


def _resolve(dotted: str):
    if not dotted.startswith(ALLOWED_CALLS):
        raise ValueError(f"compute call {dotted!r} must start with one of {ALLOWED_CALLS}")
    module_name, _, attr = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except ModuleNotFoundError:  # a class method or nested attribute: helpers.x.Class.method
        outer, _, inner = module_name.rpartition(".")
        return getattr(getattr(importlib.import_module(outer), inner), attr)


def evaluate(spec):
    """Evaluate a compute spec: calls (``{"call", "args", "kwargs", "item"}``), lists, values."""
    if isinstance(spec, list):
        return [evaluate(s) for s in spec]
    if isinstance(spec, dict) and "call" in spec:
        function = _resolve(spec["call"])
        args = [evaluate(a) for a in spec.get("args", [])]
        kwargs = {k: evaluate(v) for k, v in spec.get("kwargs", {}).items()}
        result = function(*args, **kwargs)
        for step in spec.get("item", []):
            result = result[step] if isinstance(step, int) else getattr(result, step)
        return result
    if isinstance(spec, dict):
        return {k: evaluate(v) for k, v in spec.items()}
    return spec


def _decimal(text: str) -> tuple[float, float] | None:
    """(value, half a unit of its last written digit) of a number as written, or None."""
    match = re.fullmatch(r"[−-]?\d+(?:\.(\d+))?", text.strip())
    if not match:
        return None
    digits = len(match.group(1) or "")
    return float(text.strip().replace("−", "-")), 0.5 * 10.0**-digits


def question_text(question: dict) -> str:
    """Everything a question shows: its question, explanation, options and their reasons."""
    parts = [question["question"], question["explanation"]]
    for option in question.get("options", []):
        parts += [option["text"], option["why"]]
    return "\n".join(parts)


def check_problems(question: dict) -> list[str]:
    """The stated numbers (``checks``) of a question the helpers no longer give, or that its
    text no longer states, as sentences (empty when all hold)."""
    problems, text = [], question_text(question)
    for c in question.get("checks", []):
        value, half = _decimal(c["value"])
        computed = float(evaluate(c["compute"]))
        if not abs(computed - value) <= half * (1 + 1e-9):
            problems.append(f"{question['id']}: {c['value']} stated, the helpers give {computed}")
        if not re.search(rf"(?<![\d.]){re.escape(c['value'])}(?!\d)", text):
            problems.append(f"{question['id']}: {c['value']} is checked but not in the text")
    return problems


def computed_answer(question: dict) -> float:
    value = float(evaluate(question["compute"]))
    if not math.isfinite(value):
        raise ValueError(f"question {question['id']}: the helpers give {value}")
    return value


# --- notebooks: headings, sections, where the quiz goes -----------------------------------


def is_quiz(cell) -> bool:
    return cell.cell_type == "markdown" and TAG in cell.get("metadata", {}).get("tags", [])


def _heading_lines(source: str):
    """(line index, level, text) of each markdown heading outside code fences."""
    fenced = False
    for i, line in enumerate(source.splitlines()):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match:
            yield i, len(match.group(1)), match.group(2)


def headings(nb) -> list[dict]:
    """Every heading of the notebook's non-quiz markdown: cell, line, level, text, and the
    numbered section it lies in (the last ``## N · …`` heading at or before it; None before
    the first)."""
    found, section = [], None
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown" or is_quiz(cell):
            continue
        for line, level, text in _heading_lines(cell.source):
            numbered = _NUMBERED.match(text)
            if level == 2 and numbered:
                section = int(numbered.group(1))
            found.append(
                {"cell": index, "line": line, "level": level, "text": text, "section": section}
            )
    return found


def section_numbers(nb) -> list[int]:
    return [h["section"] for h in headings(nb) if h["level"] == 2 and _NUMBERED.match(h["text"])]


def locate(question: dict, plan: dict, nb) -> tuple[int, int]:
    """(lecture number, part index) of the plan's part that teaches the question's section.

    A heading inside numbered section N belongs to the part listing N; a heading before the
    first numbered section, to the notebook's first part (the plan's rule)."""
    heads = [h for h in headings(nb) if h["text"] == question["section"]]
    if not heads:
        where = f"{question['id']}: no heading {question['section']!r}"
        raise ValueError(f"{where} in {question['notebook']}")
    section = heads[0]["section"]
    candidates = [
        (lecture["number"], index, part)
        for lecture in plan["lectures"]
        for index, part in enumerate(lecture["parts"])
        if part["notebook"] == question["notebook"]
    ]
    if not candidates:
        raise ValueError(f"{question['id']}: the plan teaches no part of {question['notebook']}")
    for number, index, part in candidates:
        if part["sections"] == "all" or section in part["sections"]:
            return number, index
    if section is None:
        return candidates[0][0], candidates[0][1]
    raise ValueError(f"{question['id']}: §{section} of {question['notebook']} is in no part")


def _target_heading(nb, part: dict) -> dict:
    """The heading the part's quiz cell goes right before."""
    numbers = section_numbers(nb)
    if part["sections"] != "all":
        last = max(part["sections"])
        if numbers and last < max(numbers):
            for h in headings(nb):
                if h["level"] == 2 and _NUMBERED.match(h["text"]) and h["section"] == last + 1:
                    return h
            raise ValueError(f"no section {last + 1} after the part's §{last}")
    for h in headings(nb):
        if h["level"] == 2 and h["text"].strip().lower() == "summary":
            return h
    raise ValueError("the notebook has no '## Summary' heading")


# --- rendering ------------------------------------------------------------------------------


def _ranges(numbers: list[int]) -> str:
    numbers, spans, start = sorted(numbers), [], None
    for i, n in enumerate(numbers):
        start = n if start is None else start
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            spans.append(f"{start}" if start == n else f"{start}–{n}")
            start = None
    return "§" + ", §".join(spans)


def _where(question: dict) -> str:
    numbered = _NUMBERED.match(question["section"])
    return f"§{numbered.group(1)}" if numbered else question["section"]


def _format_number(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


# a word that may start a sentence in capitals: the article "a", or two or more ASCII letters
# (hyphens and an apostrophe allowed), then at most a closing punctuation mark
_WORD = re.compile(r"(?:a|[a-z][a-z]+(?:[-'’][a-z]+)*)[,;:.!?]?")
# math in words: function names, and a word followed by an operator, stay as written
_MATH_WORDS = frozenset({"ln", "log", "exp", "max", "min", "sup", "inf", "var", "sd", "tanh"})
_OPERATORS = frozenset("=<>≤≥≈≠/·×+−-^*|")


def _sentence(text: str) -> str:
    """``text`` as a sentence after "is wrong.": its first letter capitalised only when it
    begins an ordinary English word. A symbol is never touched (δ is not Δ, ε not Ε, π̂ not
    Π̂, ρ_z not Ρ_z), nor a one-letter name (b, k, n; "a" is the article), a column name
    (school_year), a function (ln, max) or a word an operator follows (pq = 1)."""
    text = text.strip()
    words = text.split(maxsplit=2)
    if not words or not _WORD.fullmatch(words[0]):
        return text
    if words[0].rstrip(",;:.!?").lower() in _MATH_WORDS:
        return text
    if len(words) > 1 and words[1][:1] in _OPERATORS:
        return text
    return text[0].upper() + text[1:]


def cell_id(lecture: int, part_index: int) -> str:
    return f"quiz-lecture-{lecture:02d}-part-{part_index + 1}"


def render(lecture: dict, part_index: int, questions: list[dict], first: int = 1) -> str:
    """The markdown of one quiz cell: questions, then each answer in a <details> element.

    Questions are numbered Q<lecture>.<n> from ``first``: a lecture's later parts go on
    from where its earlier parts stopped, so each label is unique across the course (lecture
    10's two parts, in notebooks 08 and 09, both began at Q10.1)."""
    parts = lecture["parts"]
    part = parts[part_index]
    title = f"### Quiz · lecture {lecture['number']}"
    if len(parts) > 1:
        title += f", part {part_index + 1} of {len(parts)}"
    title += f": {lecture['title']}"
    scope = "this notebook" if part["sections"] == "all" else _ranges(part["sections"])
    count = f"{len(questions)} question" + ("s" if len(questions) != 1 else "")
    lines = [
        title,
        "",
        f"{count} on {scope}. Answer each one before you open its answer.",
    ]
    for number, q in enumerate(questions, start=first):
        label = f"Q{lecture['number']}.{number}"
        lines += ["", f"**{label}** ({_where(q)}). {q['question']}"]
        if q["type"] == "choice":
            lines.append("")
            lines += [f"- ({LETTERS[j]}) {o['text']}" for j, o in enumerate(q["options"])]
        else:
            lines += ["", f"*Give a number, {q['precision']}.*"]
        lines += ["", "<details>", f"<summary>Answer to {label}</summary>", ""]
        if q["type"] == "choice":
            right = next(j for j, o in enumerate(q["options"]) if o["correct"])
            lines.append(f"**({LETTERS[right]})** is right. {q['explanation']}")
            lines.append("")
            lines += [
                f"- ({LETTERS[j]}) is wrong. {_sentence(o['why'])}"
                for j, o in enumerate(q["options"])
                if not o["correct"]
            ]
        else:
            lines.append(
                f"**{_format_number(q['answer'])}** (within ±{_format_number(q['tolerance'])} "
                f"is accepted). {q['explanation']}"
            )
        lines += ["", "</details>"]
    return "\n".join(lines)


def all_questions(banks: dict[int, dict]) -> list[dict]:
    return [q for number in sorted(banks) for q in banks[number]["questions"]]


def quiz_cells(plan: dict, banks: dict[int, dict], stem: str, nb) -> list[tuple[dict, dict, str]]:
    """(lecture, part, markdown) for every part of the plan set in notebook ``stem``: the
    questions on that part's sections, wherever the bank files them (``regroup`` files them
    by lecture)."""
    mine = [q for q in all_questions(banks) if q["notebook"] == stem]
    where = [locate(q, plan, nb) for q in mine]
    found = []
    for lecture in plan["lectures"]:
        for index, part in enumerate(lecture["parts"]):
            if part["notebook"] != stem:
                continue
            questions = [
                q for q, w in zip(mine, where, strict=True) if w == (lecture["number"], index)
            ]
            if questions:
                source = render(lecture, index, questions, _first_number(banks, lecture, index))
                found.append((lecture, {**part, "index": index}, source))
    return found


def _first_number(banks: dict[int, dict], lecture: dict, index: int) -> int:
    """1 + the questions of the lecture's earlier parts (its bank file holds them, filed by
    lecture and in part order: ``check`` reports a question filed under another lecture)."""
    earlier = {part["notebook"] for part in lecture["parts"][:index]}
    filed = banks.get(lecture["number"], {}).get("questions", [])
    return 1 + sum(q["notebook"] in earlier for q in filed)


def regroup(plan: dict | None = None, directory: Path = QUIZZES) -> list[Path]:
    """File every question under the lecture that now teaches its section (after the plan
    changed); returns the files written. Within a file the order is kept."""
    plan = plan or load_plan()
    files = sorted(directory.glob("lecture-*.json"))
    questions = [q for f in files for q in json.loads(f.read_text("utf-8"))["questions"]]
    notebooks: dict = {}
    by_lecture: dict[int, list] = {lec["number"]: [] for lec in plan["lectures"]}
    for q in questions:
        if q["notebook"] not in notebooks:
            path = NOTEBOOKS / f"{q['notebook']}.ipynb"
            notebooks[q["notebook"]] = nbformat.read(path, as_version=4)
        by_lecture[locate(q, plan, notebooks[q["notebook"]])[0]].append(q)
    for f in files:
        f.unlink()
    written = []
    for number, mine in by_lecture.items():
        path = bank_path(number, directory)
        text = json.dumps({"lecture": number, "questions": mine}, ensure_ascii=False, indent=1)
        path.write_text(text + "\n", encoding="utf-8")
        written.append(path)
    return written


# --- applying and checking ------------------------------------------------------------------


def _new_cell(lecture: dict, part: dict, source: str):
    cell = nbformat.v4.new_markdown_cell(source)
    cell.id = cell_id(lecture["number"], part["index"])
    cell.metadata = {
        "tags": [TAG],
        "quiz": {"id": cell.id, "lecture": lecture["number"], "part": part["index"] + 1},
        "slideshow": {"slide_type": "slide"},
    }
    return cell


def _split_at(nb, heading: dict) -> int:
    """Index of the cell that starts with ``heading``, splitting its cell there if needed."""
    index = heading["cell"]
    cell = nb.cells[index]
    lines = cell.source.splitlines()
    before = "\n".join(lines[: heading["line"]]).rstrip()
    if not before.strip():
        return index
    lead = nbformat.v4.new_markdown_cell(before)
    lead.id = f"{cell.get('id', 'cell')}-lead"[:64]
    lead.metadata = {k: copy.deepcopy(v) for k, v in cell.metadata.items() if k == "tags"}
    cell.source = "\n".join(lines[heading["line"] :])
    nb.cells.insert(index, lead)
    return index + 1


def with_quizzes(nb, stem: str, plan: dict | None = None, banks: dict | None = None):
    """A copy of ``nb`` with its quiz cells replaced by the plan's and the bank's."""
    plan = plan or load_plan()
    banks = banks or all_banks(plan)
    nb = copy.deepcopy(nb)
    # the slide type is the slide tagger's (instructor.slides) once it has run: keep it
    slide_types = {c.get("id"): c.metadata.get("slideshow") for c in nb.cells if is_quiz(c)}
    nb.cells = [c for c in nb.cells if not is_quiz(c)]
    wanted = quiz_cells(plan, banks, stem, nb)
    # place from the last target to the first, so earlier indices stay valid
    placed = [(_target_heading(nb, part), lecture, part, src) for lecture, part, src in wanted]
    placed.sort(key=lambda t: (t[0]["cell"], t[0]["line"]), reverse=True)
    for heading, lecture, part, source in placed:
        index = _split_at(nb, heading)
        cell = _new_cell(lecture, part, source)
        if slide_types.get(cell.id):
            cell.metadata["slideshow"] = slide_types[cell.id]
        nb.cells.insert(index, cell)
    return nb


def _stem(path: Path) -> str:
    return Path(path).stem


def apply(paths: list[Path]) -> list[Path]:
    """Write the quiz cells into each notebook; return the files that changed."""
    plan = load_plan()
    banks = all_banks(plan)
    changed = []
    for path in paths:
        path = Path(path)
        raw = path.read_text(encoding="utf-8")
        nb = nbformat.reads(raw, as_version=4)
        new = nbformat.writes(with_quizzes(nb, _stem(path), plan, banks)) + "\n"
        if new != raw:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def check(paths: list[Path]) -> list[str]:
    """Missing, stale, misplaced or unknown quiz cells, as sentences (empty when all is right)."""
    plan = load_plan()
    banks = all_banks(plan)
    problems = []
    for path in paths:
        path = Path(path)
        nb = nbformat.read(path, as_version=4)
        expected = with_quizzes(nb, _stem(path), plan, banks)
        have = {c.get("id"): (i, c) for i, c in enumerate(nb.cells) if is_quiz(c)}
        want = {c.get("id"): (i, c) for i, c in enumerate(expected.cells) if is_quiz(c)}
        for key in sorted(set(have) - set(want)):
            problems.append(f"{path.name}: quiz cell {key} is not in the plan")
        for key in sorted(set(want) - set(have)):
            problems.append(f"{path.name}: quiz cell {key} is missing")
        for key in sorted(set(want) & set(have)):
            if have[key][1].source != want[key][1].source:
                problems.append(f"{path.name}: quiz cell {key} is stale (the bank changed)")
        if not problems and nbformat.writes(nb) != nbformat.writes(expected):
            problems.append(f"{path.name}: quiz cells are misplaced (run apply)")
    return problems


def plan_notebooks(plan: dict | None = None) -> list[Path]:
    plan = plan or load_plan()
    stems = dict.fromkeys(p["notebook"] for lec in plan["lectures"] for p in lec["parts"])
    return [NOTEBOOKS / f"{stem}.ipynb" for stem in stems]


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("apply", "check", "show", "regroup"):
        print(__doc__.split("\n\n")[0])
        print("usage: python -m instructor.quiz apply|check [NOTEBOOK...] | show LECTURE | regroup")
        return 2
    command, rest = argv[0], argv[1:]
    if command == "show":
        plan = load_plan()
        banks = all_banks(plan)
        lecture = next(lec for lec in plan["lectures"] if lec["number"] == int(rest[0]))
        for stem in dict.fromkeys(part["notebook"] for part in lecture["parts"]):
            nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
            for lec, _, source in quiz_cells(plan, banks, stem, nb):
                if lec is lecture:
                    print(source, end="\n\n")
        return 0
    if command == "regroup":
        for path in regroup():
            print(f"  {path}")
        return 0
    paths = [Path(p) for p in rest] or plan_notebooks()
    if command == "apply":
        changed = apply(paths)
        print(f"quiz cells written into {len(changed)} of {len(paths)} notebook(s)")
        for path in changed:
            print(f"  {path}")
        return 0
    problems = check(paths)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) in {len(paths)} notebook(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
