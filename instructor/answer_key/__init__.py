"""The instructor's answer key: ``python3 course.py key`` (``python -m instructor.answer_key``).

Writes ``build/instructor/answer-key.html`` (one self-contained page: no script, no image, no
link outside it, readable offline, with a table of contents) and ``answer-key.md``
(``--out DIR`` writes them elsewhere). For every exercise (``helpers.exercises.known_ids()``):

* the statement, from the exercise's markdown cell in the committed notebook;
* the worked solution, the notebook's code cell tagged ``solution``;
* the values it asks for, computed now by ``helpers.exercises.answers`` (never typed), and the
  precision the check accepts; for an open exercise (many right answers), the notebook's worked
  answer run now and judged by the same test as the students' ``check``;
* every sub-question the check does not judge, those that ask for words or a judgement ("Is
  σ² = 3 among them?", "Which profiles …?", "compare …", "derive …"): a worked answer and a
  rubric (full, partial and no credit). They are data, ``instructor/key/nbNN.json``; a number
  in them is a *fact* ``[[name:spec]]`` computed by ``instructor/key_facts.py``, and each
  judgement they make is a claim checked there: the key refuses to build if one fails;
* the quiz bank's answers, when ``instructor/quizzes/*.json`` exists (optional).

Nothing here goes to students: ``instructor/`` is not a package of the wheel (pyproject
packages ``helpers*`` only) and the student edition is built from the notebooks and
``helpers`` alone (tests/instructor/test_answer_key.py checks both).
"""

from __future__ import annotations

import html
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import mistune
import nbformat
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
KEY_DIR = ROOT / "instructor" / "key"
QUIZ_DIR = ROOT / "instructor" / "quizzes"
PLAN = ROOT / "instructor" / "plan.json"
OUT = ROOT / "build" / "instructor"
TITLE = "Choosing ε for differential privacy: the instructor's answer key"

#: what marks a sub-question in a statement: a question mark, or a verb that asks for a
#: judgement, a derivation or a sentence (each must lie inside a question of the key's data)
ASKS = re.compile(
    r"\?|\b(?:compare|check that|derive|show that|write one sentence|recompute|try a few)\b",
    re.IGNORECASE,
)
#: the first line of a statement: "**1.**", "**Exercise 2.**", "**3. Another query.**" ...
_START = re.compile(r"^\*\*(?:Exercise\s+)?\d+[ .·]", re.MULTILINE)
_ANSWER_LINE = re.compile(r"^\*Answer:\*.*", re.MULTILINE | re.DOTALL)
_FACT = re.compile(r"\[\[([A-Za-z0-9_]+)(?::([^\]]*))?\]\]")
RUBRIC_LEVELS = (("full", "Full credit"), ("partial", "Partial credit"), ("none", "No credit"))


def normalise(text: str) -> str:
    """Whitespace collapsed to single spaces (quotes are matched on this form)."""
    return " ".join(text.split())


# --- what the notebooks say ----------------------------------------------------------------


@dataclass
class Statement:
    exercise_id: str
    notebook: str  # the notebook's stem, e.g. "08_plrv_and_delta"
    title: str  # the notebook's first heading
    text: str  # the statement, markdown, without the "*Answer:* ..." line
    answer_line: str  # "*Answer:* `answer_NN_K`, recorded ... precision ..."
    solution: str  # the code cell tagged "solution"


def notebook_paths() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _title(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            match = re.search(r"^#\s+(.+)$", cell.source, re.MULTILINE)
            if match:
                return match.group(1).strip()
    return ""


def statements(paths: list[Path] | None = None) -> dict[str, Statement]:
    """Every exercise's statement and worked solution, read from the committed notebooks."""
    from instructor.student import exercise_of, is_solution

    found: dict[str, Statement] = {}
    for path in paths or notebook_paths():
        nb = nbformat.read(path, as_version=4)
        for index, cell in enumerate(nb.cells):
            if not is_solution(cell):
                continue
            exercise_id = exercise_of(nb, index)
            before = nb.cells[index - 1] if index else None
            if before is None or before.cell_type != "markdown":
                raise ValueError(f"{path.name}: the solution of {exercise_id} has no statement")
            source = before.source
            start = _START.search(source)
            source = source[start.start() :] if start else source
            answer = _ANSWER_LINE.search(source)
            text = source[: answer.start()] if answer else source
            found[exercise_id] = Statement(
                exercise_id=exercise_id,
                notebook=path.stem,
                title=_title(nb),
                text=text.strip(),
                answer_line=normalise(answer.group(0)) if answer else "",
                solution=cell.source.strip(),
            )
    return found


def asks(statement_text: str) -> list[tuple[int, str]]:
    """(position, what) of every sub-question marker in a statement's normalised text."""
    text = normalise(statement_text)
    return [(m.start(), m.group(0)) for m in ASKS.finditer(text)]


# --- the written answers (instructor/key/*.json) -------------------------------------------


def load_written(key_dir: Path = KEY_DIR) -> dict[str, dict]:
    """Exercise id → its entry in ``instructor/key/nbNN.json`` (questions, optional note)."""
    found: dict[str, dict] = {}
    for path in sorted(key_dir.glob("nb[0-9][0-9].json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for exercise_id, entry in data.get("exercises", {}).items():
            if exercise_id in found:
                raise ValueError(f"{path.name}: {exercise_id} is in the key twice")
            found[exercise_id] = entry
    return found


def is_written(question: dict) -> bool:
    """A question the check does not judge: it has a worked answer and a rubric."""
    return "checked_by" not in question


def fill(text: str, facts: dict) -> str:
    """``[[name]]`` / ``[[name:spec]]`` replaced by the fact, formatted (``KeyError`` if none)."""

    def one(match):
        name, spec = match.group(1), match.group(2)
        if name not in facts:
            raise KeyError(f"the key names a fact {name!r} that key_facts does not compute")
        value = facts[name]
        text = format(value, spec) if spec else str(value)
        return text[:-1] + " %" if spec and spec.endswith("%") else text  # the course's "5 %"

    return _FACT.sub(one, text)


def problems(
    found: dict[str, Statement] | None = None, written: dict[str, dict] | None = None
) -> list[str]:
    """Everything that keeps the key from being complete and consistent (empty when it is)."""
    from helpers.exercises import answers
    from instructor import key_facts

    found = statements() if found is None else found
    written = load_written() if written is None else written
    _, claims = key_facts.compute()
    facts, runs = facts_and_runs(found)
    out = [
        f"{i}: the worked answer fails its own check: {r['hint']}"
        for i, r in runs.items()
        if not r["ok"]
    ]
    ids = answers.known_ids()
    out += [f"{i}: an exercise without a statement in the notebooks" for i in ids if i not in found]
    out += [f"{i}: in the notebooks but not a known exercise" for i in found if i not in ids]
    out += [f"{i}: in instructor/key but not a known exercise" for i in written if i not in ids]
    for exercise_id, statement in found.items():
        text = normalise(statement.text)
        questions = written.get(exercise_id, {}).get("questions", [])
        spans = []
        for q in questions:
            quote = normalise(q.get("quote", ""))
            where = text.find(quote) if quote else -1
            if where < 0:
                out.append(f"{exercise_id}: quote not in the statement: {quote!r}")
                continue
            spans.append((where, where + len(quote)))
            if is_written(q):
                for part in ("answer", "rubric"):
                    if not q.get(part):
                        out.append(f"{exercise_id}: {quote!r} has no {part}")
                rubric = q.get("rubric") or {}
                out += [
                    f"{exercise_id}: {quote!r}: the rubric has no {level!r} level"
                    for level, _ in RUBRIC_LEVELS
                    if not normalise(rubric.get(level, ""))
                ]
            else:
                names = set(answers.names(exercise_id))
                out += [
                    f"{exercise_id}: {quote!r} is checked by {name!r}, not a name it asks for"
                    for name in q["checked_by"]
                    if name not in names
                ]
        for position, what in asks(statement.text):
            if not any(a <= position < b for a, b in spans):
                around = text[max(0, position - 60) : position + 20]
                out.append(f"{exercise_id}: {what!r} is not in any question of the key: …{around}…")
        for q in questions:
            for part in ("answer", *(f"rubric.{level}" for level, _ in RUBRIC_LEVELS)):
                value = q.get(part) if "." not in part else (q.get("rubric") or {}).get(part[7:])
                try:
                    fill(value or "", facts)
                except (KeyError, ValueError) as error:
                    out.append(f"{exercise_id}: {part}: {error}")
        try:
            fill(written.get(exercise_id, {}).get("note", ""), facts)
        except (KeyError, ValueError) as error:
            out.append(f"{exercise_id}: note: {error}")
    out += [
        f"{c.exercise_id}: a written answer's claim fails: {c.text}" for c in claims if not c.holds
    ]
    return out


def facts_and_runs(found: dict[str, Statement]) -> tuple[dict, dict]:
    """Every fact, with those of the open exercises' worked answers, run now; and those runs."""
    from helpers.exercises import OPEN
    from instructor import key_facts

    facts, _ = key_facts.compute()
    facts = dict(facts)
    runs = {}
    for exercise_id in OPEN:
        if exercise_id in found:
            run = key_facts.run_open_solution(exercise_id, found[exercise_id].solution)
            runs[exercise_id] = run
            facts.update(_prefixed(exercise_id, key_facts.open_facts(exercise_id, run)))
    return facts, runs


# --- one exercise, ready to print -------------------------------------------------------------


@dataclass
class Value:
    name: str
    full: str  # the value with all the digits that matter
    rounded: str  # the value at the precision the exercise states
    points: str = "1"  # what the grade gives this part (``@answer(..., points=...)``)


@dataclass
class Parameter:
    name: str
    shown: str  # the value the notebook shows (its parameters cell)
    drawn: str  # the range the grade draws other values from
    about: str


@dataclass
class Exercise:
    statement: Statement
    names: tuple[str, ...]
    precision: str
    is_open: bool
    values: list[Value] = field(default_factory=list)
    worked: dict | None = None  # an open exercise's worked answer run: printed, ok, hint
    questions: list[dict] = field(default_factory=list)  # facts filled in
    parameters: list[Parameter] = field(default_factory=list)
    note: str = ""
    lecture: str = ""

    @property
    def exercise_id(self) -> str:
        return self.statement.exercise_id


def _leaves(value):
    if isinstance(value, np.ndarray):
        return [item.item() for item in value.ravel()]
    return [value]


def _full(x) -> str:
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    return f"{x:.10g}"


def _rounded(x, precision) -> str:
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return _full(x)
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if precision.decimals is not None:
        return f"{x:.{precision.decimals}f}"
    return f"{x:.{precision.digits}g}"


def _values(exercise_id: str) -> list[Value]:
    from helpers.exercises import answers

    spec = answers.get(exercise_id)
    expected = answers.expected(exercise_id)
    parts = [expected] if len(spec.names) == 1 else list(expected)
    out = []
    for name, value, points in zip(spec.names, parts, spec.points, strict=True):
        leaves = _leaves(value)
        shape = (
            f" (array of shape {tuple(np.shape(value))})" if isinstance(value, np.ndarray) else ""
        )
        out.append(
            Value(
                name + shape,
                ", ".join(_full(x) for x in leaves),
                ", ".join(_rounded(x, spec.precision) for x in leaves),
                f"{points:g}" if points else "0 (a yes/no: marked with the written answer)",
            )
        )
    return out


def _drawn(p) -> str:
    """The range a parameter is drawn from, in words."""
    if p.kind == "choice":
        return "one of " + ", ".join(repr(c) for c in p.choices)
    if p.kind == "int":
        return f"a whole number from {p.low:g} to {p.high:g}"
    step = f" in steps of {p.step:g}" if p.step else ""
    if p.kind == "floats":
        return f"{len(p.default)} distinct values from {p.low:g} to {p.high:g}{step}, sorted"
    return f"from {p.low:g} to {p.high:g}{step}"


def _parameters(exercise_id: str) -> list[Parameter]:
    from helpers.exercises import answers

    return [
        Parameter(name, p.literal(), _drawn(p), p.about)
        for name, p in answers.parameters(exercise_id).items()
    ]


def _lectures() -> dict[str, str]:
    """Exercise id → "lecture N, in class" from instructor/plan.json (optional)."""
    try:
        plan = json.loads(PLAN.read_text(encoding="utf-8"))
        found = {}
        for lecture in plan.get("lectures", []):
            for where, label in (("in_class", "in class"), ("homework", "homework")):
                for exercise_id in lecture.get(where, []):
                    found[exercise_id] = f"lecture {lecture['number']}, {label}"
        return found
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def collect() -> list[Exercise]:
    """Every exercise of the course with its key, in course order (raises if incomplete)."""
    from helpers.exercises import OPEN, answers, known_ids
    from helpers.exercises import precision as stated_precision

    found, written = statements(), load_written()
    trouble = problems(found, written)
    if trouble:
        raise RuntimeError("the answer key is incomplete:\n" + "\n".join(trouble))
    facts, runs = facts_and_runs(found)
    lectures = _lectures()
    exercises = []
    for exercise_id in known_ids():
        statement = found[exercise_id]
        entry = written.get(exercise_id, {})
        is_open = exercise_id in OPEN
        exercise = Exercise(
            statement=statement,
            names=tuple(answers.names(exercise_id)),
            precision=stated_precision(exercise_id),
            is_open=is_open,
            note=fill(entry.get("note", ""), facts),
            lecture=lectures.get(exercise_id, ""),
        )
        exercise.parameters = _parameters(exercise_id)
        if is_open:
            exercise.worked = runs[exercise_id]
        else:
            exercise.values = _values(exercise_id)
        for index, q in enumerate(entry.get("questions", []), start=1):
            filled = {"quote": q["quote"]}
            if is_written(q):
                filled["id"] = f"{exercise_id}.q{index}"
                filled["points"] = f"{float(q.get('points', 1.0)):g}"
                filled["answer"] = fill(q["answer"], facts)
                filled["rubric"] = {k: fill(v, facts) for k, v in q["rubric"].items()}
            else:
                filled["checked_by"] = list(q["checked_by"])
            exercise.questions.append(filled)
        exercises.append(exercise)
    return exercises


def _prefixed(exercise_id: str, facts: dict) -> dict:
    prefix = "e" + exercise_id.replace(".", "_") + "_"
    return {prefix + k: v for k, v in facts.items()}


# --- the quiz bank (optional) ---------------------------------------------------------------


def _first(mapping: dict, *keys, default=None):
    for key in keys:
        if key in mapping and mapping[key] not in (None, ""):
            return mapping[key]
    return default


def load_quizzes(quiz_dir: Path = QUIZ_DIR) -> list[tuple[str, list[dict]]]:
    """(title, questions) per ``instructor/quizzes/*.json``; [] when there is none.

    Each question becomes {"id", "text", "options": [(text, correct, why)], "answer", "why"},
    read leniently (question/prompt/text; options/choices; answer/correct; explanation/why).
    """
    if not quiz_dir.is_dir():
        return []
    try:
        plan = json.loads(PLAN.read_text(encoding="utf-8"))
        plan_titles = {lec["number"]: lec["title"] for lec in plan["lectures"]}
    except (OSError, ValueError, KeyError, TypeError):
        plan_titles = {}
    banks = []
    for path in sorted(quiz_dir.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        items = data.get("questions", []) if isinstance(data, dict) else data
        title = (data.get("title") if isinstance(data, dict) else None) or path.stem
        if isinstance(data, dict) and isinstance(data.get("lecture"), int):
            title = f"Lecture {data['lecture']}"
            if data["lecture"] in plan_titles:
                title += f" · {plan_titles[data['lecture']]}"
        questions = [q for q in (_quiz_question(item) for item in items or []) if q]
        if questions:
            banks.append((str(title), questions))
    return banks


def _quiz_question(item) -> dict | None:
    if not isinstance(item, dict):
        return None
    text = _first(item, "question", "prompt", "text", "stem")
    if text is None:
        return None
    answer = _first(item, "answer", "correct", "correct_answer", "solution")
    raw = _first(item, "options", "choices", "answers", default=[]) or []
    reasons = _first(item, "reasons", "why_wrong", "feedback", default={})
    options = []
    for index, option in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(option, dict):
            label = str(_first(option, "text", "answer", "label", "option", default=""))
            correct = bool(_first(option, "correct", "is_correct", default=False))
            why = _first(option, "why", "reason", "explanation", "feedback", default="")
        else:
            label, correct, why = str(option), False, ""
        if answer is not None and not isinstance(answer, bool):
            if isinstance(answer, int) and answer == index:
                correct = True
            elif isinstance(answer, str) and answer.strip() == label.strip():
                correct = True
            elif isinstance(answer, list) and (index in answer or label in answer):
                correct = True
        if not why and isinstance(reasons, dict):
            why = reasons.get(label, reasons.get(str(index), ""))
        elif not why and isinstance(reasons, list) and index < len(reasons):
            why = reasons[index]
        options.append((label, correct, str(why or "")))
    if answer is not None and not isinstance(answer, (str, int, float, list, dict)):
        answer = str(answer)
    where = ", ".join(
        str(item[k]) for k in ("notebook", "section") if isinstance(item.get(k), (str, int))
    )
    computed = None
    if isinstance(item.get("compute"), dict):
        try:  # the quiz bank's own evaluation, when it is there: recomputed now
            from instructor.quiz import computed_answer

            computed = float(computed_answer(item))
        except Exception:  # an optional section never stops the key
            computed = None
    return {
        "id": str(_first(item, "id", "name", default="")),
        "text": str(text),
        "where": where,
        "options": options,
        "answer": answer,
        "tolerance": _first(item, "precision", "tolerance"),
        "computed": computed,
        "why": str(_first(item, "explanation", "why", "rationale", "reason", default="")),
    }


def _quiz_answer_text(q: dict) -> str:
    correct = [label for label, ok, _ in q["options"] if ok]
    if correct:
        return "; ".join(correct)
    if q["answer"] is None:
        return "(no answer given in the quiz file)"
    answer = q["answer"]
    if isinstance(answer, dict):
        answer = _first(answer, "value", "text", default=json.dumps(answer, ensure_ascii=False))
    text = str(answer)
    tolerance = q.get("tolerance")
    if isinstance(tolerance, str):
        text += f", {tolerance}"
    elif tolerance not in (None, ""):
        text += f" (± {tolerance})"
    if q.get("computed") is not None:
        text += f"; computed now by the helpers: {q['computed']:.10g}"
    return text


# --- markdown -----------------------------------------------------------------------------------

_MD_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _unlink(markdown: str) -> str:
    """Links outside the page become their text (the key stands alone)."""
    return _MD_LINK.sub(
        lambda m: m.group(0) if m.group(2).startswith("#") else m.group(1), markdown
    )


def slug(text: str) -> str:
    return "ex-" + text.replace(".", "-") if re.fullmatch(r"\d\d\.\d+", text) else text


def _by_notebook(exercises: list[Exercise]) -> list[tuple[Statement, list[Exercise]]]:
    groups: dict[str, list[Exercise]] = {}
    for exercise in exercises:
        groups.setdefault(exercise.statement.notebook, []).append(exercise)
    return [(group[0].statement, group) for group in groups.values()]


def _fence(code: str) -> str:
    ticks = "```"
    while ticks in code:
        ticks += "`"
    return f"{ticks}python\n{code}\n{ticks}"


def render_markdown(exercises: list[Exercise], quizzes: list | None = None) -> str:
    quizzes = quizzes or []
    lines = [f"# {TITLE}", "", _INTRO, "", "## Contents", ""]
    for first, group in _by_notebook(exercises):
        ids = ", ".join(f"[{e.exercise_id}](#{slug(e.exercise_id)})" for e in group)
        lines.append(f"- [{first.title}](#nb-{first.notebook[:2]}): {ids}")
    if quizzes:
        lines.append("- [The quiz bank's answers](#quizzes)")
    lines.append("")
    for first, group in _by_notebook(exercises):
        lines += [f'<a id="nb-{first.notebook[:2]}"></a>', "", f"## {first.title}", ""]
        lines.append(f"Notebook `notebooks/{first.notebook}.ipynb`.")
        lines.append("")
        for e in group:
            lines += _exercise_markdown(e)
    if quizzes:
        lines += ['<a id="quizzes"></a>', "", "## The quiz bank's answers", ""]
        for title, questions in quizzes:
            lines += [f"### {title}", ""]
            for number, q in enumerate(questions, 1):
                label = f"{q['id']}: " if q["id"] else ""
                where = f" *({q['where']})*" if q["where"] else ""
                lines.append(f"{number}. {label}{_unlink(q['text'])}{where}")
                lines.append(f"   - **Answer:** {_unlink(_quiz_answer_text(q))}")
                if q["why"]:
                    lines.append(f"   - Why: {_unlink(q['why'])}")
                for option, ok, why in q["options"]:
                    if why and not ok:
                        lines.append(f"   - Not “{_unlink(option.rstrip('.'))}”: {_unlink(why)}")
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _exercise_markdown(e: Exercise) -> list[str]:
    heading = f"### Exercise {e.exercise_id}"
    lines = [f'<a id="{slug(e.exercise_id)}"></a>', "", heading, ""]
    meta = f"Recorded in `{_variable(e.exercise_id)}` ({', '.join(f'`{n}`' for n in e.names)})"
    meta += f"; precision: {e.precision}" + (f"; {e.lecture}" if e.lecture else "") + "."
    lines += [meta, "", "#### Statement", "", _unlink(e.statement.text), ""]
    lines += ["#### Worked solution (the notebook's cell tagged `solution`)", ""]
    lines += [_fence(e.statement.solution), ""]
    if e.parameters:
        lines += ["#### Parameters (shown in the notebook; the grade draws others)", ""]
        lines += ["| name | shown | the grade draws | what it is |", "|---|---|---|---|"]
        lines += [f"| `{p.name}` | {p.shown} | {p.drawn} | {p.about} |" for p in e.parameters]
        lines.append("")
    if e.is_open:
        lines += ["#### Accepted answers", ""]
        lines.append(
            "An open exercise: any answer that meets the conditions of the statement is right, "
            "and the check tests exactly those conditions. The worked answer above, run now, "
            + ("passes the check." if e.worked["ok"] else "FAILS the check.")
        )
        if e.worked["printed"]:
            lines += ["", "It prints:", "", "```text", e.worked["printed"], "```"]
        lines.append("")
    else:
        lines += ["#### Values (computed now by `helpers.exercises.answers`)", ""]
        lines += ["| name | value | at the stated precision | points |", "|---|---|---|---|"]
        lines += [f"| `{v.name}` | {v.full} | {v.rounded} | {v.points} |" for v in e.values]
        lines.append("")
    if e.note:
        lines += [_unlink(e.note), ""]
    written = [q for q in e.questions if "answer" in q]
    checked = [q for q in e.questions if "checked_by" in q]
    if checked:
        lines.append(
            "Questions the check judges: "
            + "; ".join(
                f"“{normalise(q['quote'])}” ({', '.join(f'`{n}`' for n in q['checked_by'])})"
                for q in checked
            )
            + "."
        )
        lines.append("")
    if written:
        lines += ["#### Written answers and rubrics", ""]
        for q in written:
            lines += [
                f"> {normalise(q['quote'])}",
                "",
                f"*Written answer `{q['id']}`, {q['points']} point(s): full credit all of them, "
                "partial half, none 0.*",
                "",
                f"**Answer.** {q['answer']}",
                "",
            ]
            for level, label in RUBRIC_LEVELS:
                lines.append(f"- *{label}:* {q['rubric'][level]}")
            lines.append("")
    return lines


def _variable(exercise_id: str) -> str:
    return "answer_" + exercise_id.replace(".", "_")


_INTRO = (
    "**For the instructor only: do not hand this out.** Built by `python3 course.py key` from "
    "the committed notebooks (statements and worked solutions), `helpers/exercises/answers/` "
    "(every value, computed when the key is built) and `instructor/key/` (the written answers "
    "and their rubrics; every number in them is computed by `instructor/key_facts.py` and every "
    "judgement they make is re-checked there). Each exercise gives its statement, the worked "
    "solution, the values and the precision the check accepts, then, for each sub-question the "
    "check cannot judge (a question asking for words, a comparison or a derivation), a worked "
    "answer and a rubric for full, partial and no credit. Each value exercise lists its "
    "parameters: the value the notebook shows, and the range the grader draws other values from "
    "per submission; the grader scores each checked value, with the points shown, at the drawn "
    "parameters. The written parts are yours to mark: the grader exports them with these rubrics "
    "(`instructor/grading/scoring.py`: `export_written`, `merge_written`)."
)


# --- HTML -----------------------------------------------------------------------------------

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε",
    "varepsilon": "ε", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "omega": "ω",
    "Omega": "Ω", "lambda": "λ", "theta": "θ", "phi": "φ", "Phi": "Φ", "tau": "τ", "kappa": "κ",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "in": "∈", "cdot": "·", "times": "×",
    "infty": "∞", "approx": "≈", "ne": "≠", "neq": "≠", "to": "→", "mid": "|", "sum": "Σ",
    "ln": "ln", "log": "log", "exp": "exp", "Pr": "Pr", "max": "max", "min": "min",
    "quad": " ", "qquad": "  ", ",": " ", ";": " ", "!": "", " ": " ",
    "left": "", "right": "", "big": "", "Big": "", "bigg": "",
}  # fmt: skip
_ACCENT = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304"}
_SCRIPT = {"mathcal": {"L": "ℒ", "D": "𝒟", "M": "ℳ"}}


def _group(tex: str, i: int) -> tuple[str, int]:
    """The argument at ``tex[i:]``: a {...} group, a command or one character."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        depth, j = 0, i
        while j < len(tex):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1 : j], j + 1
            j += 1
        return tex[i + 1 :], len(tex)
    if tex[i] == "\\":
        match = re.match(r"\\([A-Za-z]+|.)", tex[i:])
        return match.group(0), i + len(match.group(0))
    return tex[i], i + 1


def tex_to_html(tex: str) -> str | None:
    """A small LaTeX subset as HTML text (Unicode, <sup>, <sub>); None when out of the subset."""
    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            match = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name = match.group(1)
            i += len(match.group(0))
            if name in _GREEK:
                out.append(_GREEK[name])
            elif name in _ACCENT:
                arg, i = _group(tex, i)
                inner = tex_to_html(arg)
                if inner is None:
                    return None
                out.append(inner + _ACCENT[name])
            elif name in _SCRIPT:
                arg, i = _group(tex, i)
                out.append(_SCRIPT[name].get(arg, arg))
            elif name in ("frac", "tfrac", "dfrac"):
                top, i = _group(tex, i)
                bottom, i = _group(tex, i)
                top_html, bottom_html = tex_to_html(top), tex_to_html(bottom)
                if top_html is None or bottom_html is None:
                    return None
                if top == "1" and bottom == "2":
                    out.append("½")
                else:
                    wrap = lambda s: s if len(s) == 1 or s.isalnum() else f"({s})"  # noqa: E731
                    out.append(f"{wrap(top_html)}/{wrap(bottom_html)}")
            elif name in ("text", "mathrm", "operatorname", "mathit", "textrm", "mathbf"):
                arg, i = _group(tex, i)
                out.append(html.escape(arg))
            elif name in ("$", "%", "&", "_", "{", "}", "#"):
                out.append(html.escape(name))
            else:
                return None
        elif c in "^_":
            arg, i = _group(tex, i + 1)
            inner = tex_to_html(arg)
            if inner is None:
                return None
            tag = "sup" if c == "^" else "sub"
            out.append(f"<{tag}>{inner}</{tag}>")
        elif c in "{}":
            i += 1
        elif c == "-":
            out.append("−")  # a minus sign, not a hyphen
            i += 1
        else:
            out.append(html.escape(c))
            i += 1
    return "".join(out)


_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\$)(.+?)(?<!\\)\$", re.DOTALL)


def _math_html(tex: str, display: bool) -> str:
    converted = tex_to_html(tex.strip())
    if converted is None:
        return f'<code class="tex">{html.escape(tex.strip())}</code>'
    tag = "div" if display else "span"
    return f'<{tag} class="math">{converted}</{tag}>'


class _Renderer(mistune.HTMLRenderer):
    def link(self, text, url, title=None):
        if url.startswith("#"):
            return f'<a href="{html.escape(url)}">{text}</a>'
        return text  # nothing points outside the page

    def image(self, text, url, title=None):
        return html.escape(text or "")

    def heading(self, text, level, **attrs):
        return f"<p><strong>{text}</strong></p>\n"  # statements never add headings to the page


_MARKDOWN = mistune.create_markdown(renderer=_Renderer(escape=True), plugins=["table"])


def markdown_html(text: str) -> str:
    """Markdown (with $math$) as HTML for the page; raw HTML in it is escaped."""
    maths: list[str] = []

    def hold(match):
        maths.append(_math_html(match.group(1) or match.group(2), bool(match.group(1))))
        return f"MATHHOLD{len(maths) - 1}X"

    rendered = _MARKDOWN(_MATH.sub(hold, text))
    return re.sub(r"MATHHOLD(\d+)X", lambda m: maths[int(m.group(1))], rendered)


def _inline_html(text: str) -> str:
    """Markdown rendered without its enclosing paragraph."""
    rendered = markdown_html(text).strip()
    match = re.fullmatch(r"<p>(.*)</p>", rendered, re.DOTALL)
    return match.group(1) if match else rendered


_CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.55;
  color: #1a1a1a; background: #fff; max-width: 58rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
a { color: #0b4f9c; }
a:focus, a:hover { outline: 2px solid #0b4f9c; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .3rem .6rem; }
h1 { font-size: 1.8rem; } h2 { border-top: 3px solid #333; padding-top: .8rem; margin-top: 2.5rem; }
h3 { border-top: 1px solid #999; padding-top: .6rem; margin-top: 2rem; }
h4 { margin-bottom: .3rem; }
.notice { background: #fff4d6; border-left: 5px solid #8a5a00; padding: .6rem 1rem; }
.meta { color: #333; }
pre { background: #f3f3f3; border: 1px solid #bbb; padding: .7rem; overflow-x: auto;
  font-size: .92rem; line-height: 1.4; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #888; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #e8e8e8; }
blockquote { margin: .8rem 0; padding: .3rem 1rem; border-left: 4px solid #0b4f9c;
  background: #eef4fb; }
.math { font-style: normal; }
dl.rubric dt { font-weight: bold; margin-top: .4rem; }
dl.rubric dd { margin-left: 1.5rem; }
.ok { color: #0a5d1f; font-weight: bold; } .bad { color: #9b0000; font-weight: bold; }
nav ol { padding-left: 1.4rem; }
@media print { .skip, nav { display: none; } h2 { break-before: page; } }
"""


def render_html(exercises: list[Exercise], quizzes: list | None = None) -> str:
    quizzes = quizzes or []
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(TITLE)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        '<a class="skip" href="#main">Skip to the answers</a>',
        "<header>",
        f"<h1>{e(TITLE)}</h1>",
        f'<div class="notice">{markdown_html(_INTRO)}</div>',
        "</header>",
        '<nav aria-labelledby="contents">',
        '<h2 id="contents">Contents</h2>',
        "<ol>",
    ]
    for first, group in _by_notebook(exercises):
        links = ", ".join(f'<a href="#{slug(x.exercise_id)}">{e(x.exercise_id)}</a>' for x in group)
        parts.append(
            f'<li><a href="#nb-{first.notebook[:2]}">{e(first.title)}</a>: exercises {links}</li>'
        )
    if quizzes:
        parts.append('<li><a href="#quizzes">The quiz bank\'s answers</a></li>')
    parts += ["</ol>", "</nav>", '<main id="main">']
    for first, group in _by_notebook(exercises):
        parts.append(f'<section aria-labelledby="nb-{first.notebook[:2]}">')
        parts.append(f'<h2 id="nb-{first.notebook[:2]}">{e(first.title)}</h2>')
        parts.append(f"<p>Notebook <code>notebooks/{e(first.notebook)}.ipynb</code>.</p>")
        for x in group:
            parts += _exercise_html(x)
        parts.append("</section>")
    if quizzes:
        parts += _quizzes_html(quizzes)
    parts += ["</main>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _exercise_html(x: Exercise) -> list[str]:
    e = html.escape
    sid = slug(x.exercise_id)
    names = ", ".join(f"<code>{e(n)}</code>" for n in x.names)
    lecture = f"; {e(x.lecture)}" if x.lecture else ""
    out = [
        f'<article aria-labelledby="{sid}">',
        f'<h3 id="{sid}">Exercise {e(x.exercise_id)}</h3>',
        f'<p class="meta">Recorded in <code>{_variable(x.exercise_id)}</code> ({names}); '
        f"precision: {e(x.precision)}{lecture}.</p>",
        "<h4>Statement</h4>",
        markdown_html(_unlink(x.statement.text)),
        "<h4>Worked solution (the notebook's cell tagged <code>solution</code>)</h4>",
        f'<pre><code class="language-python">{e(x.statement.solution)}</code></pre>',
    ]
    if x.parameters:
        out += [
            "<h4>Parameters (shown in the notebook; the grade draws others)</h4>",
            "<table>",
            '<thead><tr><th scope="col">name</th><th scope="col">shown</th>'
            '<th scope="col">the grade draws</th><th scope="col">what it is</th></tr></thead>',
            "<tbody>",
        ]
        out += [
            f'<tr><th scope="row"><code>{e(p.name)}</code></th><td>{e(p.shown)}</td>'
            f"<td>{e(p.drawn)}</td><td>{e(p.about)}</td></tr>"
            for p in x.parameters
        ]
        out += ["</tbody>", "</table>"]
    if x.is_open:
        verdict = (
            '<span class="ok">passes the check</span>'
            if x.worked["ok"]
            else '<span class="bad">FAILS the check</span>'
        )
        out += [
            "<h4>Accepted answers</h4>",
            "<p>An open exercise: any answer that meets the conditions of the statement is "
            f"right, and the check tests exactly those conditions. The worked answer above, run "
            f"now, {verdict}.</p>",
        ]
        if x.worked["printed"]:
            out.append(f"<p>It prints:</p>\n<pre><samp>{e(x.worked['printed'])}</samp></pre>")
    else:
        out += [
            "<h4>Values (computed now by <code>helpers.exercises.answers</code>)</h4>",
            "<table>",
            '<thead><tr><th scope="col">name</th><th scope="col">value</th>'
            '<th scope="col">at the stated precision</th><th scope="col">points</th></tr></thead>',
            "<tbody>",
        ]
        out += [
            f'<tr><th scope="row"><code>{e(v.name)}</code></th><td>{e(v.full)}</td>'
            f"<td>{e(v.rounded)}</td><td>{e(v.points)}</td></tr>"
            for v in x.values
        ]
        out += ["</tbody>", "</table>"]
    if x.note:
        out.append(markdown_html(_unlink(x.note)))
    checked = [q for q in x.questions if "checked_by" in q]
    if checked:
        items = "; ".join(
            f"“{_inline_html(normalise(q['quote']))}” "
            f"({', '.join(f'<code>{e(n)}</code>' for n in q['checked_by'])})"
            for q in checked
        )
        out.append(f"<p>Questions the check judges: {items}.</p>")
    written = [q for q in x.questions if "answer" in q]
    if written:
        out.append("<h4>Written answers and rubrics</h4>")
        for q in written:
            out.append(f"<blockquote>{markdown_html(normalise(q['quote']))}</blockquote>")
            out.append(
                f"<p><em>Written answer <code>{e(q['id'])}</code>, {e(q['points'])} point(s): "
                "full credit all of them, partial half, none 0.</em></p>"
            )
            out.append(f"<p><strong>Answer.</strong> {_inline_html(q['answer'])}</p>")
            out.append('<dl class="rubric">')
            for level, label in RUBRIC_LEVELS:
                out.append(f"<dt>{label}</dt><dd>{_inline_html(q['rubric'][level])}</dd>")
            out.append("</dl>")
    out.append("</article>")
    return out


def _quizzes_html(quizzes) -> list[str]:
    out = [
        '<section aria-labelledby="quizzes">',
        '<h2 id="quizzes">The quiz bank\'s answers</h2>',
    ]
    for index, (title, questions) in enumerate(quizzes):
        out.append(f'<h3 id="quiz-{index}">{html.escape(title)}</h3>')
        out.append("<ol>")
        for q in questions:
            label = f"<code>{html.escape(q['id'])}</code>: " if q["id"] else ""
            where = f" <em>({html.escape(q['where'])})</em>" if q["where"] else ""
            item = [f"<li><p>{label}{_inline_html(_unlink(q['text']))}{where}</p>", "<ul>"]
            answer = _inline_html(_unlink(_quiz_answer_text(q)))
            item.append(f"<li><strong>Answer:</strong> {answer}</li>")
            if q["why"]:
                item.append(f"<li>Why: {_inline_html(_unlink(q['why']))}</li>")
            for option, ok, why in q["options"]:
                if why and not ok:
                    item.append(
                        f"<li>Not “{_inline_html(_unlink(option.rstrip('.')))}”: "
                        f"{_inline_html(_unlink(why))}</li>"
                    )
            item += ["</ul>", "</li>"]
            out += item
        out.append("</ol>")
    out.append("</section>")
    return out


# --- build ----------------------------------------------------------------------------------


def build(out_dir: Path = OUT, *, quiz_dir: Path = QUIZ_DIR, exercises=None) -> dict:
    """Write answer-key.html and answer-key.md into ``out_dir``; return their paths.

    ``exercises`` (from :func:`collect`) saves collecting them again."""
    exercises = collect() if exercises is None else exercises
    quizzes = load_quizzes(quiz_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    html_path, md_path = out_dir / "answer-key.html", out_dir / "answer-key.md"
    html_path.write_text(render_html(exercises, quizzes), encoding="utf-8")
    md_path.write_text(render_markdown(exercises, quizzes), encoding="utf-8")
    return {"html": html_path, "markdown": md_path, "exercises": exercises, "quizzes": quizzes}


def main(argv: list[str]) -> int:
    out = OUT
    if "--out" in argv:
        index = argv.index("--out")
        if index + 1 >= len(argv):
            print("--out needs a directory", file=sys.stderr)
            return 2
        out = Path(argv[index + 1]).resolve()
    result = build(out)
    written = sum(1 for x in result["exercises"] for q in x.questions if "answer" in q)
    quiz = sum(len(q) for _, q in result["quizzes"])
    where = result["html"].parent
    try:
        where = where.relative_to(ROOT)
    except ValueError:
        pass
    print(
        f"answer key: {len(result['exercises'])} exercises, {written} written answers with "
        f"rubrics" + (f", {quiz} quiz answers" if quiz else "") + f" in {where}/ "
        "(answer-key.html, answer-key.md)"
    )
    return 0

