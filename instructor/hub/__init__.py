"""The course on a JupyterHub: ``python3 course.py hub`` (``python -m instructor.hub``).

* ``recipes``: what a hub needs, from the same student build as the grading environment
  (``build/student/``): the students' image (Dockerfile), a Zero to JupyterHub ``config.yaml``
  fragment sized from the measured figures (``sizing.json``, ``benchmarks/bench_hub.py``), a
  Littlest JupyterHub recipe, and the student edition as a git repository with its nbgitpuller
  link; written to ``build/hub/``.
* ``handin``: hand-in; every student's notebook collected from the homes as ``<user>.ipynb``
  with a roster, for ``course.py grade`` unchanged, and each student's grades written back to a
  file in their home that only they can read.
"""
