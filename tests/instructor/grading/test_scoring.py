"""instructor/grading/scoring.py: the course's exercises, drawn parameters, points per part,
written answers.

The grade must measure that a submission *computes* its answers: a typed-in notebook (every
answer the literal the notebook shows) scores at most a quarter of a full one on every
notebook, at parameters drawn for several seeds; the answer functions are defined at every
draw; and ``score`` gives a verdict for any value, never an exception. That each course notebook,
rerun with drawn parameters injected after its cell tagged ``parameters`` (papermill's
convention), scores every part is tested through the grader itself (test_grade.py).
"""

from __future__ import annotations

import csv
import math
import numbers
from fractions import Fraction

import nbformat
import numpy as np
import pytest
from _modules import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.exercises import answers
from helpers.exercises._open import OPEN
from helpers.notebooks import notebook_paths
from instructor.grading import scoring
from instructor.grading import scoring as S

NOTEBOOKS = notebook_paths()
COURSE = next((ROOT / "notebooks").glob("04_*.ipynb"))
SEEDS = [bytes([s]) * 8 for s in range(6)]
SEED = b"injected-parameters test"
VALUE_IDS = answers.value_ids()
PARAMETERISED = [i for i in answers.known_ids() if answers.parameters(i)]
#: exercises whose answer takes seconds (13.2 calibrates σ twice through a composed PLD): their
#: drawing and scoring tests run on one pytest-xdist worker, one after the other, so the draws
#: at SEEDS that the first computes (``answers.expected_at`` remembers each answer) the others
#: read again instead of computing them on another worker
SLOW_ANSWERS = frozenset({"13.2"})
#: the draws checked one by one: SEEDS (shared as above) and 34 more
DRAW_SEEDS = [*SEEDS, *(s.to_bytes(4, "big") for s in range(34))]


def _grouped(ids):
    return [
        pytest.param(i, marks=pytest.mark.xdist_group(f"answers-{i}")) if i in SLOW_ANSWERS else i
        for i in ids
    ]


def _worked_open(exercise_id):
    """The course notebook's worked answer of an open exercise, reduced as in the kernel."""
    from instructor import key_facts
    from instructor.answer_key import statements

    run = key_facts.run_open_solution(exercise_id, statements()[exercise_id].solution)
    return run


def _full(parts):
    return sum(p.max_points for p in parts)


def _got(parts):
    return sum(p.points for p in parts)


# --- which exercises -----------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_exercise_ids_come_from_the_course_notebook(path):
    ids = S.exercise_ids(path)
    assert ids and all(i.startswith(path.stem[:2] + ".") for i in ids)
    assert set(ids) <= set(answers.known_ids())


def test_exercise_ids_ignore_what_a_notebook_claims(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["choosing_epsilon"] = {"exercises": ["10.1", "99.9"]}
    nb.cells = [nbformat.v4.new_code_cell('check("99.9", answer_99_9)\ncheck("10.1", x)')]
    path = tmp_path / "x.ipynb"
    nbformat.write(nb, path)
    assert S.exercise_ids(path) == ["10.1"]


# --- drawing parameters --------------------------------------------------------------------


@pytest.mark.parametrize("exercise_id", _grouped(PARAMETERISED))
def test_draws_are_deterministic_in_the_seed_and_differ_across_seeds(exercise_id):
    first = [S.draw_parameters(exercise_id, s) for s in SEEDS]
    assert first == [S.draw_parameters(exercise_id, s) for s in SEEDS]
    defaults = {n: p.default for n, p in answers.parameters(exercise_id).items()}
    assert all(d != defaults for d in first)
    assert len({repr(sorted(d.items())) for d in first}) >= 2


@pytest.mark.parametrize("exercise_id", _grouped(VALUE_IDS))
def test_every_draw_is_in_range_and_its_answer_finite_and_far_from_the_shown_one(exercise_id):
    spec = answers.get(exercise_id)
    shown = answers.expected(exercise_id)
    assert len(set(DRAW_SEEDS)) == 40
    for seed in DRAW_SEEDS:
        drawn = S.draw_parameters(exercise_id, seed)
        for name, p in spec.parameters.items():
            value = drawn[name]
            if p.kind == "choice":
                assert value in p.choices
            elif p.kind == "floats":
                assert len(value) == len(p.default) and list(value) == sorted(set(value))
                assert all(p.low - 1e-9 <= v <= p.high + 1e-9 for v in value)
            else:
                assert p.low <= value <= p.high
        value = answers.expected_at(exercise_id, drawn)
        parts = [value] if len(spec.names) == 1 else list(value)
        for part in parts:
            assert np.all(np.isfinite(np.asarray(part, dtype=float)))
        # the shown answer, typed in, scores nothing on any scored part that is a number
        scored = S.score(exercise_id, drawn, shown)
        for part, weight, typed in zip(
            scored, spec.points, [shown] if len(spec.names) == 1 else shown, strict=True
        ):
            if weight and not isinstance(typed, (bool, np.bool_)):
                assert part.points == 0, (drawn, part)


def test_a_seed_must_be_bytes():
    with pytest.raises(ValueError, match="seed='abc' must be bytes"):
        S.draw_parameters("10.1", "abc")


def test_an_exercise_without_parameters_draws_nothing():
    assert S.draw_parameters("06.3", b"x") == {}


# --- scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize("exercise_id", _grouped(VALUE_IDS))
def test_the_answer_at_drawn_parameters_scores_every_part(exercise_id):
    spec = answers.get(exercise_id)
    for seed in SEEDS[:3]:
        drawn = S.draw_parameters(exercise_id, seed)
        parts = S.score(exercise_id, drawn, answers.expected_at(exercise_id, drawn))
        assert [p.name for p in parts] == list(spec.names)
        assert all(p.points == p.max_points for p in parts), parts
        assert [p.max_points for p in parts] == [float(w) for w in spec.points]


@pytest.mark.parametrize("exercise_id", _grouped(answers.known_ids()))
def test_every_form_an_unanswered_starter_leaves_scores_nothing(exercise_id):
    """What a student edition's starter leaves in the answer variable, as the grader receives
    it: ``...``, a tuple or list of them (one per part), or for an open exercise what its
    ``reduce`` makes of those in the kernel's runner. Each scores 0 of its points at drawn
    parameters. The student editions' own run (tests/instructor/test_student.py) shows that
    every answer variable holds nothing else at the end, so none of them scores."""
    drawn = S.draw_parameters(exercise_id, SEEDS[0])
    parts = S.score(exercise_id, drawn, ...)
    count = len(parts)
    leftovers = [..., (...,) * count, [...] * count]
    if exercise_id in OPEN:
        leftovers += [OPEN[exercise_id].reduce(v) for v in list(leftovers)]
    for value in leftovers:
        scored = S.score(exercise_id, drawn, value)
        assert len(scored) == count and sum(p.max_points for p in scored) > 0, (value, scored)
        assert all(p.points == 0 for p in scored), (value, scored)


def test_partial_credit_is_per_part():
    drawn = S.draw_parameters("10.2", b"partial")
    eps_risk, eps_kr = answers.expected_at("10.2", drawn)
    parts = S.score("10.2", drawn, (eps_risk, eps_kr * 2))
    assert [p.points for p in parts] == [1.0, 0.0]
    assert "eps_kr" in parts[1].message and "factor of 2" in parts[1].message


def test_a_missing_or_misshapen_answer_is_zero_with_a_reason():
    drawn = S.draw_parameters("10.2", b"x")
    assert all(p.points == 0 and "not answered" in p.message for p in S.score("10.2", drawn, ...))
    parts = S.score("10.2", drawn, 1.0)
    assert all(p.points == 0 and "as a tuple" in p.message for p in parts)
    parts = S.score("10.2", drawn, (..., 1.0))
    assert "not answered" in parts[0].message


def test_an_open_exercise_is_judged_at_its_drawn_parameters():
    drawn = S.draw_parameters("01.2", b"open")
    target = drawn["prior_first"]
    right = {"weights": [3 * target / (1 - target), 1.0, 1.0, 1.0]}
    assert S.score("01.2", drawn, right)[0].points == 1
    shown = {"weights": [3.0, 1.0, 1.0, 1.0]}  # the notebook's prior of 0.5, typed in
    assert S.score("01.2", drawn, shown)[0].points == 0


def test_an_unknown_exercise_or_bad_parameters_score_zero_and_never_raise():
    assert S.score("99.9", {}, 1.0)[0].max_points == 0
    parts = S.score("10.1", {"nonsense": 1}, 1.0)
    assert parts[0].points == 0 and "no answer at these parameters" in parts[0].message


class _BrokenReal(numbers.Real):
    """A number whose conversion fails (the fuzz's RuntimeError/TypeError class)."""

    def __float__(self):
        raise RuntimeError("no float for you")

    __complex__ = __trunc__ = __floor__ = __ceil__ = __round__ = __float__
    __abs__ = __neg__ = __pos__ = __float__
    __add__ = __radd__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __float__
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = __float__
    __lt__ = __le__ = __eq__ = __float__

    def __hash__(self):
        return 0


STRANGE = st.one_of(
    st.integers(),
    st.integers(min_value=10**300, max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(),
    st.text(max_size=5),
    st.none(),
    st.just(Ellipsis),
    st.just(_BrokenReal()),
    st.just(10**400),
    st.just(-(10**400)),
    st.just(np.array([10**400, 1], dtype=object)),
    st.just(np.array(["a"])),
    st.just(Fraction(10**400, 3)),
    st.builds(complex, st.floats(allow_nan=False), st.floats(allow_nan=False)),
    st.lists(st.one_of(st.integers(), st.floats(), st.just(10**400)), max_size=4),
    st.tuples(st.just(10**400), st.floats()),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=150, deadline=None)
@given(
    exercise_id=st.sampled_from(answers.known_ids()),
    value=st.one_of(STRANGE, st.tuples(STRANGE, STRANGE), st.tuples(STRANGE, STRANGE, STRANGE)),
)
def test_score_never_raises_on_strange_values(exercise_id, value):
    params = S.draw_parameters(exercise_id, b"fuzz")
    parts = S.score(exercise_id, params, value)
    assert parts and all(isinstance(p, S.Part) for p in parts)
    assert all(0 <= p.points <= p.max_points and isinstance(p.message, str) for p in parts)


# --- a typed-in notebook scores at most a quarter ---------------------------------------------


def _typed_in(exercise_id):
    """What a student who types the notebook's shown answers in would hold: each value
    exercise's answer at the shown parameters, and an open exercise's worked answer where it is
    data (01.2's weights, 11.4's workload) copied as a literal. 06.3's answer is a function the
    student writes, with no value to type (its conditions are fixed: see the report)."""
    if exercise_id in OPEN:
        run = _worked_open(exercise_id)
        return ... if callable(run["value"]) else run["reduced"]
    return answers.expected(exercise_id)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_a_typed_in_notebook_scores_at_most_a_quarter_and_a_computing_one_everything(path):
    ids = S.exercise_ids(path)
    for seed in SEEDS[:4]:
        typed = full = computed = 0.0
        for exercise_id in ids:
            params = S.draw_parameters(exercise_id, seed)
            value = _typed_in(exercise_id)
            parts = S.score(exercise_id, params, value)
            typed += sum(p.points for p in parts)
            full += sum(p.max_points for p in parts)
            if exercise_id in OPEN:
                computed += sum(p.max_points for p in parts)  # tested in test_nb11 / _open
            else:
                good = S.score(exercise_id, params, answers.expected_at(exercise_id, params))
                computed += sum(p.points for p in good)
        assert typed <= full / 4, (path.stem, seed, typed, full)
        assert computed == full


# --- written answers -----------------------------------------------------------------------


def test_every_written_question_of_the_key_has_a_cell_in_its_notebook():
    from instructor.answer_key import is_written, load_written

    questions = S.written_questions()
    counted = sum(
        is_written(q) for entry in load_written().values() for q in entry.get("questions", [])
    )
    assert len(questions) == counted >= 29  # notebooks 00–11 hold 29
    in_notebooks = [w for path in NOTEBOOKS for w in S.written_ids(path)]
    assert sorted(in_notebooks, key=S._sort_key) == list(questions)
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            wid = cell.metadata.get("choosing_epsilon", {}).get("written")
            if wid:
                assert cell.cell_type == "markdown" and "written" in cell.metadata["tags"]
                assert questions[wid]["quote"] in cell.source
                assert S.is_unanswered(cell.source)


def test_written_answers_export_with_the_rubric_and_merge_back(tmp_path):
    rows = [
        {"submission": "alice", "id": "10.2.q1", "answer": "*Your answer:* yes under both"},
        {"submission": "=HYPERLINK(1)", "id": "10.2.q1", "answer": "=1+1"},
        {"submission": "bob", "id": "10.2.q1", "answer": "*Your answer:* "},
        {"submission": "bob", "id": "99.9.q1", "answer": "made up"},
    ]
    csv_path, html_path = S.export_written(rows, tmp_path)
    with open(csv_path, newline="", encoding="utf-8") as handle:
        records = list(csv.DictReader(handle))
    assert [r["submission"] for r in records] == ["'=HYPERLINK(1)", "alice", "bob"]
    assert records[0]["answer"] == "'=1+1"
    assert all(r["rubric_full"] and r["rubric_partial"] and r["rubric_none"] for r in records)
    assert "[[" not in records[0]["rubric_full"]  # facts filled in
    assert records[2]["mark"] == "none"  # left as handed out
    page = html_path.read_text(encoding="utf-8")
    assert "Full credit" in page and "yes under both" in page and "<script" not in page
    records[0]["mark"], records[1]["mark"] = "partial", "full"
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(records[0]))
        writer.writeheader()
        writer.writerows(records)
    grades = [
        {"submission": "alice", "10.1": "1", "total": "1"},
        {"submission": "'=HYPERLINK(1)", "10.1": "0", "total": "0"},
        {"submission": "bob", "10.1": "1", "total": "1"},
    ]
    merged = S.merge_written(csv_path, grades)
    assert [r["10.2.q1"] for r in merged] == ["1", "0.5", "0"]
    assert [r["total"] for r in merged] == ["2", "0.5", "1"]
    assert "99.9.q1" not in merged[0]


def test_a_mark_outside_the_rubric_is_refused_with_its_line(tmp_path):
    csv_path, _ = S.export_written(
        [{"submission": "a", "id": "10.2.q1", "answer": "*Your answer:* x"}], tmp_path
    )
    text = csv_path.read_text(encoding="utf-8").splitlines()
    header = text[0].split(",")
    cells = next(csv.reader([text[1]]))
    cells[header.index("mark")] = "3"
    with open(csv_path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header, cells])
    with pytest.raises(ValueError, match=r"line 2 .*mark='3' is outside 0 … 1 points"):
        S.merge_written(csv_path, [{"submission": "a", "total": "0"}])


def test_finite_points_everywhere():
    for exercise_id in VALUE_IDS:
        assert all(math.isfinite(p) and p >= 0 for p in answers.get(exercise_id).points)


def test_the_answer_key_shows_parameters_points_and_written_ids():
    from instructor.answer_key import collect, render_markdown

    exercises = collect()
    text = render_markdown(exercises)
    for x in exercises:
        params = answers.parameters(x.exercise_id)
        assert [p.name for p in x.parameters] == list(params)
        if not x.is_open:
            spec = answers.get(x.exercise_id)
            assert [v.points.split()[0] for v in x.values] == [f"{w:g}" for w in spec.points]
    assert text.count("#### Parameters (shown in the notebook") == len(PARAMETERISED)
    for wid in S.written_questions():
        assert f"Written answer `{wid}`" in text


# --- the grader's own checks ------------------------------------------------------------------


def test_the_exercises_come_from_the_course_notebook():
    assert scoring.exercise_ids(COURSE) == [i for i in answers.known_ids() if i[:2] == "04"]


def test_a_value_of_any_size_or_kind_is_a_cross_with_a_message():
    for value in (10**400, float("nan"), [[[]]], "=1+1", object(), ...):
        parts = scoring.score("04.1", {}, value)
        assert [p.points for p in parts] == [0.0] and parts[0].message.startswith(("✗", "…"))


def test_the_expected_answer_scores_every_part():
    parts = scoring.score("04.1", {}, answers.expected("04.1"))
    assert sum(p.points for p in parts) == sum(p.max_points for p in parts) > 0


# --- the course notebooks rerun at drawn parameters ---------------------------------------------
# Every course notebook, rerun by the sandboxed grader with parameters drawn for it and injected
# after its cell tagged ``parameters``, scores every part: test_grade.py's
# ``test_every_course_notebook_scores_everything_at_drawn_parameters`` (the same run
# here, outside the sandbox, executed the 14 notebooks a second time: issue 50).


#: OWASP's CSV-injection first characters, plus ``|`` and ``%`` (DDE, old Excel): written out
#: here, not read from the code, so a character dropped from the code's set fails the test
FORMULA_FIRST_CHARACTERS = ("=", "+", "-", "@", "\t", "\r", "|", "%")


@pytest.mark.parametrize("first", FORMULA_FIRST_CHARACTERS)
def test_grades_csv_and_written_csv_escape_every_formula_character(first, tmp_path):
    from instructor.grading import grade

    payload = first + "cmd|' /C calc'!A0"
    if first == "\r":  # a control character is shown as its code: the field starts with "\\"
        expected = "\\x0d" + payload[1:]
    else:
        expected = "'" + payload
    assert grade.csv_field(payload) == expected  # every grades.csv field
    csv_path, _ = S.export_written(
        [{"submission": payload, "id": "10.2.q1", "answer": payload}], tmp_path
    )
    with open(csv_path, newline="", encoding="utf-8") as handle:
        (record,) = csv.DictReader(handle)
    assert record["submission"] == expected and record["answer"] == expected
    assert not record["submission"].startswith(S.FORMULA_PREFIXES)
    if first != "\r":
        assert S.unescape_cell(record["submission"]) == payload


def test_grades_csv_leaves_plain_fields_and_numbers_readable():
    from instructor.grading import grade

    assert grade.csv_field("alice") == "alice" and grade.csv_field(3.0) == "3"
    assert grade.csv_field(-1.5) == "'-1.5"  # a leading minus is escaped like any formula
