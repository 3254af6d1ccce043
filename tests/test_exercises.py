"""helpers.exercises: the checks, their hints, the notebooks' use of them, the student edition."""

from __future__ import annotations

import copy
import re

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import exercises
from helpers.exercises import check, compare, get, known_ids
from helpers.exercises.student import (
    checked_ids,
    is_solution,
    student_version,
)
from helpers.notebooks import make_client, notebook_paths

NOTEBOOKS = notebook_paths()
IDS = [p.stem for p in NOTEBOOKS]
VALUE_IDS = [i for i in known_ids() if not get(i).verify]


def _read(path):
    return nbformat.read(path, as_version=4)


# --- the check function ---------------------------------------------------------------------


@pytest.mark.parametrize("exercise_id", VALUE_IDS)
def test_the_recomputed_answer_passes_its_own_check(exercise_id, capsys):
    expected = get(exercise_id).func()
    assert check(exercise_id, expected) is True
    assert capsys.readouterr().out.startswith(f"✓ {exercise_id}")


@pytest.mark.parametrize("exercise_id", known_ids())
def test_ellipsis_is_not_answered_yet(exercise_id, capsys):
    ex = get(exercise_id)
    answer = ... if len(ex.names) == 1 else tuple(... for _ in ex.names)
    assert check(exercise_id, answer) is False
    out = capsys.readouterr().out
    assert "not answered yet" in out and out.count("\n") == 1
    for name in ex.names:
        assert name in out


def test_a_partly_answered_tuple_is_not_answered_yet(capsys):
    alpha, _ = get("00.1").func()
    assert check("00.1", (alpha, ...)) is False
    assert "not answered yet" in capsys.readouterr().out


def test_unknown_id_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"99\.9") as info:
        check("99.9", 1.0)
    for exercise_id in known_ids():
        assert exercise_id in str(info.value)
    with pytest.raises(ValueError, match="known ids"):
        check(3, 1.0)


def test_every_notebook_module_is_discovered():
    modules = {i.split(".")[0] for i in known_ids()}
    assert {f"{k:02d}" for k in range(9)} <= modules
    for number in modules:
        assert hasattr(exercises, f"nb{number}"), f"nb{number} not imported by discovery"


@pytest.mark.parametrize(
    ("exercise_id", "transform", "words"),
    [
        ("03.1", lambda x: 2 * x, "too large by a factor of 2"),
        ("03.1", lambda x: x / 10, "too small by a factor of 10"),
        ("03.1", lambda x: x * 1.05, "a little too large"),
        ("03.1", lambda x: -x, "wrong sign"),
        ("03.1", lambda x: x * x, "square"),
        ("03.1", lambda x: "0.46", "a single number is expected"),
        ("03.1", lambda x: [x], "a single number is expected"),
        ("03.1", lambda x: float("nan"), "NaN"),
        ("04.1", lambda x: x * 5, "much too large"),
        ("04.1", lambda x: x * np.log(10), "log10 instead of ln"),
        ("02.1", lambda x: x[:3], "shape (3,)"),
        ("02.1", lambda x: x * np.array([1, 1, 2, 1]), "1 of 4 entries off; entry 2 is too large"),
        ("05.3", lambda x: math_inf(), "infinite"),
    ],
)
def test_wrong_answers_get_a_hint_not_the_answer(exercise_id, transform, words, capsys):
    expected = get(exercise_id).func()
    assert check(exercise_id, transform(expected)) is False
    out = capsys.readouterr().out
    assert out.startswith(f"✗ {exercise_id}") and words in out, out
    for number in re.findall(r"\d+\.\d{3,}", out):  # never prints the expected value
        assert not np.isclose(float(number), np.asarray(expected, dtype=float)).any()


def math_inf():
    return float("inf")


def test_counts_are_exact_and_tuples_are_counted(capsys):
    alpha, n = get("00.1").func()
    assert check("00.1", (alpha, n + 1)) is False
    assert "n_needed a little too large" in capsys.readouterr().out
    assert check("00.1", (alpha, n + 0.5)) is False
    assert "whole number" in capsys.readouterr().out
    assert check("00.1", alpha) is False
    assert "pass 2 values" in capsys.readouterr().out
    assert check("00.1", (alpha, float(n))) is True  # 469.0 is the count 469


def test_booleans_must_be_booleans(capsys):
    vd, close = get("00.3").func()
    assert check("00.3", (vd, not close)) is False
    assert check("00.3", (vd, 1)) is False
    assert "True or False" in capsys.readouterr().out.splitlines()[-1]


def test_tolerances_accept_a_grid_answer_and_refuse_a_wrong_one():
    root = get("06.2").func()
    assert compare(root + 1e-3, root, atol=2e-3)[0]
    assert not compare(root + 1e-2, root, atol=2e-3)[0]


def test_verified_exercises_accept_any_right_answer_and_explain_a_wrong_one(capsys):
    assert check("01.2", [3, 1, 1, 1]) and check("01.2", [6.0, 2.0, 2.0, 2.0])
    assert not check("01.2", [1, 1, 1, 1])
    assert not check("01.2", [3, 2, 1, 0])
    assert not check("01.2", [3, 1, 1])
    lines = capsys.readouterr().out.splitlines()
    assert "too little weight" in lines[2] and "unequal" in lines[3] and "valid" in lines[4]
    assert not check("06.3", 5.0)
    assert not check("06.3", lambda p, q: 1.5)  # ε well below 1
    assert "is not a function" in capsys.readouterr().out


# --- the notebooks use the checks -----------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_each_notebook_has_three_checked_exercises(path):
    nb = _read(path)
    solutions = [i for i, c in enumerate(nb.cells) if is_solution(c)]
    ids = checked_ids(nb)
    assert len(solutions) >= 3, f"{path.name}: {len(solutions)} solution cells"
    assert len(set(ids)) >= 3 and len(ids) == len(set(ids)), f"{path.name}: checks {ids}"
    number = path.name[:2]
    assert all(i.startswith(number + ".") for i in ids), ids
    for index in solutions:
        assert "check(" not in nb.cells[index].source, "the check belongs in the cell after"


def test_every_exercise_id_is_checked_in_a_notebook():
    used = [i for p in NOTEBOOKS for i in checked_ids(_read(p))]
    numbers = {p.name[:2] for p in NOTEBOOKS}
    registered = [i for i in known_ids() if i.split(".")[0] in numbers]
    assert sorted(set(registered)) == sorted(set(used)), (
        set(registered) ^ set(used),
        "registered but never checked, or checked but not registered",
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_committed_notebooks_pass_every_check(path):
    nb = _read(path)
    for cell in nb.cells:
        if cell.cell_type != "code" or not checked_ids(nb=_one(cell)):
            continue
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        for exercise_id in checked_ids(_one(cell)):
            assert f"✓ {exercise_id}: correct" in text, (
                f"{path.name}: {exercise_id} printed {text!r}"
            )


def _one(cell):
    nb = nbformat.v4.new_notebook()
    nb.cells = [cell]
    return nb


# --- the student edition --------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_student_edition_holds_no_solution_and_no_output(path):
    nb = _read(path)
    student = student_version(nb)
    assert len(student.cells) == len(nb.cells)
    solutions = [c.source for c in nb.cells if is_solution(c)]
    for before, after in zip(nb.cells, student.cells, strict=True):
        if is_solution(before):  # a starter: a comment and `names = ...`, nothing else
            code = [line for line in after.source.splitlines() if not line.startswith("#")]
            assert len(code) == 1 and re.fullmatch(r"[\w, ]+ = \.\.\.(, \.\.\.)*", code[0]), code
        elif before.cell_type == "code":
            assert after.source == before.source  # every other cell is unchanged
    for cell in student.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
            assert "solution" not in cell.metadata.get("tags", [])
    starters = [c for c in student.cells if "starter" in c.metadata.get("tags", [])]
    assert len(starters) == len(solutions)
    for cell in starters:
        exercise_id = re.search(r"Exercise (\d\d\.\d+)", cell.source).group(1)
        assert cell.source.endswith(get(exercise_id).starter().splitlines()[-1])


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_student_edition_executes_cleanly(path, tmp_path):
    student = student_version(_read(path))
    target = tmp_path / path.name
    nbformat.write(student, target)
    executed = make_client(copy.deepcopy(student), target).execute()
    outputs = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    for exercise_id in checked_ids(student):
        assert f"… {exercise_id}: not answered yet" in text


@pytest.mark.parametrize("exercise_id", known_ids())
@pytest.mark.parametrize("junk", ["nonsense", None, [], {"a": 1}, float("nan")])
def test_junk_answers_get_a_verdict_never_an_exception(exercise_id, junk, capsys):
    assert check(exercise_id, junk) is False
    out = capsys.readouterr().out
    assert out.startswith(f"✗ {exercise_id}") and out.count("\n") == 1, out


@given(
    st.floats(min_value=1e-6, max_value=1e6, allow_nan=False)
    | st.floats(min_value=-1e6, max_value=-1e-6, allow_nan=False),
    st.sampled_from([2.0, 10.0, 100.0, 1000.0]),
)
def test_compare_names_a_slip_by_a_common_factor(expected, factor):
    assert compare(expected, expected)[0]
    magnitude = " in magnitude" if expected < 0 else ""
    ok, hint = compare(expected * factor, expected)
    assert not ok and f"too large{magnitude} by a factor of {factor:g}" in hint
    ok, hint = compare(expected / factor, expected)
    assert not ok and f"too small{magnitude} by a factor of {factor:g}" in hint
    ok, hint = compare(-expected, expected)
    assert not ok and "wrong sign" in hint


@given(st.floats(min_value=1e-3, max_value=1e3), st.floats(min_value=1e-3, max_value=1e3))
def test_compare_is_scale_invariant(answer, expected):
    """Relative tolerance and relative hints: the same verdict in any unit."""
    ok1, hint1 = compare(answer, expected, rtol=1e-6)
    ok2, hint2 = compare(answer * 1000, expected * 1000, rtol=1e-6)
    assert ok1 == ok2 and hint1 == hint2
