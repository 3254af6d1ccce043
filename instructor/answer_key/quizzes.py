"""The quiz bank (instructor/quizzes/*.json, optional): each question and its answer.

Part of :mod:`instructor.answer_key`, which re-exports every name.
"""

from __future__ import annotations

import json
from pathlib import Path

from .sources import PLAN, QUIZ_DIR

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
