"""Each course notebook, rerun with drawn parameters injected, scores every part.

This is what the grade does to a submission (papermill's convention: a cell tagged
``injected-parameters`` after the cell tagged ``parameters``): the notebook's own worked answers
must compute the answer at parameters they have not seen, so that a student whose code does
the same scores every part, and the answer key's functions agree with the notebooks' code.
"""

from __future__ import annotations

import pickle

import nbformat
import pytest

from helpers.notebooks import make_client, notebook_paths
from instructor.grading import scoring as S

NOTEBOOKS = notebook_paths()
SEED = b"injected-parameters test"

pytestmark = pytest.mark.notebooks


def injected_source(params_by_id: dict) -> str:
    """The injected cell: each exercise's drawn dict under the name the notebook uses."""
    return "\n".join(
        f"params_{exercise_id.replace('.', '_')} = {params!r}"
        for exercise_id, params in params_by_id.items()
        if params
    )


def run_injected(path, params_by_id: dict, out) -> dict:
    """Run ``path`` with ``params_by_id`` injected; the answers (open ones reduced) it held."""
    nb = nbformat.read(path, as_version=4)
    (at,) = [i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", [])]
    cell = nbformat.v4.new_code_cell(injected_source(params_by_id))
    cell.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(at + 1, cell)
    ids = list(params_by_id)
    nb.cells.append(
        nbformat.v4.new_code_cell(
            "import pickle as _pickle\n"
            "from helpers.exercises._open import OPEN as _OPEN\n"
            "_held = {}\n"
            f"for _id in {ids!r}:\n"
            "    _name = 'answer_' + _id.replace('.', '_')\n"
            "    if _name in globals():\n"
            "        _value = globals()[_name]\n"
            "        _held[_id] = _OPEN[_id].reduce(_value) if _id in _OPEN else _value\n"
            f"with open({str(out)!r}, 'wb') as _f:\n"
            "    _pickle.dump(_held, _f)\n"
        )
    )
    make_client(nb, path).execute()
    with open(out, "rb") as handle:
        return pickle.load(handle)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_worked_answers_score_every_part_at_drawn_parameters(path, tmp_path):
    params = {i: S.draw_parameters(i, SEED) for i in S.exercise_ids(path)}
    held = run_injected(path, params, tmp_path / "held.pkl")
    for exercise_id, drawn in params.items():
        parts = S.score(exercise_id, drawn, held.get(exercise_id, ...))
        assert all(p.points == p.max_points for p in parts), (exercise_id, drawn, parts)
