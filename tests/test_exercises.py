"""helpers.exercises: the checks, their hints, the notebooks' use of them, the student edition."""

from __future__ import annotations

import copy
import re

import nbformat
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.exercises import answers, check, compare, entry, known_ids, variable
from helpers.exercises._core import judge, make_entry
from helpers.exercises._open import OPEN
from helpers.exercises.student import (
    INTRO_TAG,
    STARTER_TAG,
    checked_ids,
    is_solution,
    key_module,
    starter,
    student_version,
)
from helpers.notebooks import make_client, notebook_paths

NOTEBOOKS = notebook_paths()
IDS = [p.stem for p in NOTEBOOKS]
VALUE_IDS = answers.value_ids()


def _read(path):
    return nbformat.read(path, as_version=4)


def _missing(exercise_id):
    names = answers.names(exercise_id)
    return ... if len(names) == 1 else tuple(... for _ in names)


# --- the check function ---------------------------------------------------------------------


@pytest.mark.parametrize("exercise_id", VALUE_IDS)
def test_the_recomputed_answer_passes_its_own_check(exercise_id, capsys):
    assert check(exercise_id, answers.expected(exercise_id)) is True
    assert capsys.readouterr().out.startswith(f"✓ {exercise_id}")


@pytest.mark.parametrize("exercise_id", known_ids())
def test_ellipsis_is_not_answered_yet(exercise_id, capsys):
    assert check(exercise_id, _missing(exercise_id)) is False
    out = capsys.readouterr().out
    assert "not answered yet" in out and out.count("\n") == 1
    for name in answers.names(exercise_id):
        assert name in out


def test_a_partly_answered_tuple_is_not_answered_yet(capsys):
    alpha, _ = answers.expected("00.1")
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
    assert {f"{k:02d}" for k in range(11)} <= modules
    for number in {i.split(".")[0] for i in VALUE_IDS}:
        assert hasattr(answers, f"nb{number}"), f"answers.nb{number} not imported by discovery"


def test_nothing_a_student_imports_returns_an_answer():
    """The student-facing module has no get()/func; its key entries hold hashes, not values."""
    import helpers.exercises as public

    assert not hasattr(public, "get")
    for exercise_id in VALUE_IDS:
        parts = entry(exercise_id)["parts"]
        leaves = [leaf for part in parts for leaf in part.get("items", [part])]
        assert {k for leaf in leaves for k in leaf} <= {"kind", "q", "h", "hs", "hc"}
        hashes = " ".join(leaf[k] for leaf in leaves for k in ("h", "hs", "hc") if k in leaf)
        assert re.fullmatch(r"[0-9a-f ]+", hashes)


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
        ("05.3", lambda x: float("inf"), "infinite"),
    ],
)
def test_wrong_answers_get_a_hint_not_the_answer(exercise_id, transform, words, capsys):
    expected = answers.expected(exercise_id)
    assert check(exercise_id, transform(expected)) is False
    out = capsys.readouterr().out
    assert out.startswith(f"✗ {exercise_id}") and words in out, out
    for number in re.findall(r"\d+\.\d{3,}", out):  # never prints the expected value
        assert not np.isclose(float(number), np.asarray(expected, dtype=float)).any()


def test_the_stated_precision_is_what_is_accepted():
    """±q is always accepted, 2q never (q: the step the exercise states)."""
    expected = answers.expected("03.1")  # 4 decimal places
    for offset in (0.0, 0.00009, -0.00009):
        assert judge(entry("03.1"), expected + offset)[0]
    for offset in (0.0002, -0.0002, 0.001):
        assert not judge(entry("03.1"), expected + offset)[0]
    assert "4 decimal places" in entry("03.1")["precision"]


def test_counts_are_exact_and_tuples_are_counted(capsys):
    alpha, n = answers.expected("00.1")
    assert check("00.1", (alpha, n + 1)) is False
    assert "n_needed is a little too large" in capsys.readouterr().out
    assert check("00.1", (alpha, n + 0.5)) is False
    assert "whole number" in capsys.readouterr().out
    assert check("00.1", alpha) is False
    assert "pass 2 values" in capsys.readouterr().out
    assert check("00.1", (alpha, float(n))) is True  # 469.0 is the count 469


def test_booleans_must_be_booleans(capsys):
    vd, close = answers.expected("00.3")
    assert check("00.3", (vd, not close)) is False
    assert check("00.3", (vd, 1)) is False
    assert "True or False" in capsys.readouterr().out.splitlines()[-1]


def test_a_grid_answer_at_the_stated_precision_is_accepted():
    root = answers.expected("06.2")  # 3 decimal places
    assert compare(root + 4e-4, root, decimals=3)[0]
    assert not compare(root + 1e-2, root, decimals=3)[0]


def test_open_exercises_accept_any_right_answer_and_explain_a_wrong_one(capsys):
    assert set(OPEN) == {"01.2", "06.3", "11.4"}
    assert check("01.2", [3, 1, 1, 1]) and check("01.2", [6.0, 2.0, 2.0, 2.0])
    assert not check("01.2", [1, 1, 1, 1])
    assert not check("01.2", [3, 2, 1, 0])
    assert not check("01.2", [3, 1, 1])
    lines = capsys.readouterr().out.splitlines()
    assert "too little weight" in lines[2] and "unequal" in lines[3] and "valid" in lines[4]
    assert not check("06.3", 5.0)
    assert not check("06.3", lambda p, q: 1.5)  # ε well below 1
    assert "is not a function" in capsys.readouterr().out


def test_a_key_from_a_student_build_judges_like_the_instructor(capsys):
    """The wheel's key (a Python module) gives the same verdicts as the answers."""
    key = answers.build_key()
    namespace = {}
    exec(key_module(key), namespace)
    for exercise_id in VALUE_IDS:
        expected = answers.expected(exercise_id)
        assert judge(namespace["KEY"][exercise_id], expected)[0]
        assert judge(namespace["KEY"][exercise_id], _missing(exercise_id)) == judge(
            entry(exercise_id), _missing(exercise_id)
        )


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
    intro = [c for c in nb.cells if INTRO_TAG in c.get("metadata", {}).get("tags", [])]
    assert len(intro) == 1 and intro[0].source.startswith("## Exercises")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_each_exercise_states_its_variable_and_precision(path):
    """The statement names answer_NN_K and the precision; the check cell records it."""
    nb = _read(path)
    for index, cell in enumerate(nb.cells):
        if not is_solution(cell):
            continue
        exercise_id = checked_ids(_one(nb.cells[index + 1]))[0]
        statement = nb.cells[index - 1]
        assert statement.cell_type == "markdown"
        assert f"`{variable(exercise_id)}`" in statement.source, exercise_id
        if exercise_id not in OPEN:
            assert entry(exercise_id)["precision"] in statement.source, exercise_id
        names = answers.names(exercise_id)
        value = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
        assert nb.cells[index + 1].source == (
            f'{variable(exercise_id)} = {value}\ncheck("{exercise_id}", {variable(exercise_id)})'
        )


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
    student = student_version(nb, path.stem)
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
        assert "tagged `solution`" not in cell.source
    starters = [c for c in student.cells if STARTER_TAG in c.metadata.get("tags", [])]
    assert len(starters) == len(solutions)
    for cell in starters:
        exercise_id = re.search(r"Exercise (\d\d\.\d+)", cell.source).group(1)
        assert cell.source == starter(exercise_id)
    assert student.metadata["choosing_epsilon"] == {
        "notebook": path.stem,
        "exercises": checked_ids(nb),
    }


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_student_edition_executes_cleanly(path, tmp_path):
    student = student_version(_read(path), path.stem)
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


@given(
    st.floats(min_value=1e-3, max_value=1e3),
    st.floats(min_value=1e-3, max_value=1e3),
)
def test_hints_do_not_depend_on_the_salt(answer, expected):
    """Two keys with different salts give the same verdict and hint."""
    entries = [make_entry("x", ("x",), expected, answers.Precision(digits=4), s) for s in "ab"]
    assert judge(entries[0], answer) == judge(entries[1], answer)


def test_the_leak_scan_finds_an_answer_as_a_number_and_never_inside_an_id():
    """A widget's random model id once held "126" (01.1's answer) and failed a build by chance."""
    from helpers.exercises.student import leaks

    def notebook(text, data=None):
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("x = 1")
        cell.outputs = [nbformat.v4.new_output("display_data", data=data or {"text/plain": text})]
        nb.cells = [cell]
        return {"n.ipynb": nb}

    assert leaks(notebook("needs n = 126 records"))
    assert leaks(notebook("ε = 0.00794 (3 s.f.)"))
    assert leaks(notebook("1.26e+02"))
    for harmless in ("c126c3294", "0.0079366", "126.5", "1260", "x126", "126e3", "v126_a"):
        assert not [h for h in leaks(notebook(harmless)) if h.startswith("01.1")], harmless
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "126", "version_major": 2}}
    assert leaks(notebook("", data=view)) == []
