"""What the key is made of: the notebooks' statements and the written answers (instructor/key/*.json),
with the facts they cite computed and their claims checked.

Part of :mod:`instructor.answer_key`, which re-exports every name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

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


def _prefixed(exercise_id: str, facts: dict) -> dict:
    prefix = "e" + exercise_id.replace(".", "_") + "_"
    return {prefix + k: v for k, v in facts.items()}
