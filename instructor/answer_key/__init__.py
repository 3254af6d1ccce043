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
``helpers`` alone (tests/instructor/answer_key/test_answer_key.py checks both).
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

# the key's modules, in the order the key is made (each imports only those before it)
from .exercises import Exercise, Parameter, Value, collect
from .quizzes import load_quizzes
from .sources import (
    ASKS,
    KEY_DIR,
    OUT,
    PLAN,
    QUIZ_DIR,
    ROOT,
    RUBRIC_LEVELS,
    TITLE,
    Statement,
    asks,
    facts_and_runs,
    fill,
    is_written,
    load_written,
    normalise,
    notebook_paths,
    problems,
    statements,
)
from .to_html import markdown_html, render_html, tex_to_html
from .to_markdown import render_markdown, slug

__all__ = [
    "ASKS",
    "KEY_DIR",
    "OUT",
    "PLAN",
    "QUIZ_DIR",
    "ROOT",
    "RUBRIC_LEVELS",
    "TITLE",
    "Exercise",
    "Parameter",
    "Statement",
    "Value",
    "asks",
    "build",
    "collect",
    "facts_and_runs",
    "fill",
    "is_written",
    "load_quizzes",
    "load_written",
    "main",
    "markdown_html",
    "normalise",
    "notebook_paths",
    "problems",
    "render_html",
    "render_markdown",
    "slug",
    "statements",
    "tex_to_html",
]


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


# One home for every name: help() names instructor.answer_key, as before the split into modules.
for _obj in map(globals().get, __all__):
    if inspect.isfunction(_obj) and _obj.__module__.startswith(__name__ + "."):
        _obj.__module__ = __name__
del _obj
