"""Build the student edition: ``python -m helpers.exercises.student [NOTEBOOK ...]``.

For every course notebook (or the ones named), every code cell tagged ``solution`` is
replaced by a starter cell that sets the names its check needs to ``...``; every output is
cleared; links to files outside ``notebooks/`` are re-pointed from ``build/student/``. The
result goes to ``build/student/`` (git-ignored) and is then executed top to bottom in a
fresh kernel to prove that it runs (each unanswered check prints "not answered yet").
``python3 course.py student`` runs this.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import nbformat

from . import get

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "student"
SOLUTION_TAG = "solution"
STARTER_TAG = "starter"
CHECK_CALL = re.compile(r"""check\(\s*["']([0-9]{2}\.[0-9]+)["']""")


def is_solution(cell) -> bool:
    """A code cell tagged ``solution`` (cell metadata ``"tags": ["solution"]``)."""
    return cell.cell_type == "code" and SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def checked_ids(nb: nbformat.NotebookNode) -> list[str]:
    """Exercise ids passed to ``check`` in the notebook's code cells, in order."""
    return [
        match
        for cell in nb.cells
        if cell.cell_type == "code"
        for match in CHECK_CALL.findall(cell.source)
    ]


def exercise_of(nb: nbformat.NotebookNode, index: int) -> str:
    """The exercise id of solution cell ``index``: the first ``check`` at or after it."""
    for cell in nb.cells[index:]:
        if cell.cell_type != "code":
            continue
        found = CHECK_CALL.findall(cell.source)
        if found:
            return found[0]
    raise ValueError(f"solution cell {index} is followed by no check(...) call")


def student_version(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` with starters instead of solutions and no outputs."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            cell.source = cell.source.replace("](../", "](../../")
            continue
        if cell.cell_type != "code":
            continue
        if is_solution(cell):
            cell.source = get(exercise_of(nb, index)).starter()
            tags = [t for t in cell.metadata.get("tags", []) if t != SOLUTION_TAG]
            cell.metadata["tags"] = [*tags, STARTER_TAG]
        cell.outputs = []
        cell.execution_count = None
        cell.metadata.pop("execution", None)
    return nb


def build(paths: list[Path], out_dir: Path = BUILD, *, run: bool = True) -> list[Path]:
    """Write the student edition of ``paths`` to ``out_dir``; execute each unless ``run=False``.

    Raises nbclient's ``CellExecutionError`` (naming the cell) when a student notebook fails.
    """
    from ..notebooks import make_client

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths:
        student = student_version(nbformat.read(path, as_version=4))
        target = out_dir / path.name
        nbformat.write(student, target)
        written.append(target)
        if run:
            print(f"executing the student edition of {path.name} ...", flush=True)
            make_client(copy.deepcopy(student), target).execute()
    return written


def main(argv: list[str]) -> int:
    from ..notebooks import notebook_paths

    paths = [Path(a).resolve() for a in argv] or notebook_paths()
    written = build(paths)
    print(f"student edition: {len(written)} notebooks in {BUILD.relative_to(ROOT)}/, all ran")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
