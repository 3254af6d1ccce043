"""The instructor's package: the lecture plan, timings, slides, quizzes and answer key.

Never part of the student wheel: ``pyproject.toml`` packages ``helpers*`` only, and these
modules run from the repository (``python -m instructor.<module>``, ``python3 course.py ...``).
"""
