"""The answer key as markdown (answer-key.md).

Part of :mod:`instructor.answer_key`, which re-exports every name.
"""

from __future__ import annotations

import re

from .exercises import Exercise
from .quizzes import _quiz_answer_text
from .sources import RUBRIC_LEVELS, TITLE, Statement, normalise

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
