"""The grader: ``python3 course.py grade SUBMISSIONS --out OUT`` (``grade.py``).

``grade`` drives the run and writes the results; ``runner`` runs one notebook inside the
sandbox (``sandbox``, bubblewrap); ``scoring`` says which exercises a course notebook holds,
draws their parameters and scores a value.
"""
