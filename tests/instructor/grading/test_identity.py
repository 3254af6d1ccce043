"""Issue 51, identity and a class of strangers in the grader (plain functions, no sandbox):
names that read alike, the notebook a file was handed in for, the gradebook's reserved rows,
feedback in time linear in the notebook, a written answer of any length."""

from __future__ import annotations

import csv
import sys
import unicodedata

import nbformat
import pytest
from _modules import fixed_secret

from helpers.notebooks import notebook_paths
from instructor.grading import grade as grader
from instructor.grading import identity, scoring

STEMS = [p.stem for p in notebook_paths()]
N00, N01 = STEMS[0], STEMS[1]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")),
        ("ann", "ann\u3164"),  # Hangul filler
        ("ann", "a\u034fnn"),  # combining grapheme joiner
        ("ann", "ann\u200b"),
        ("ann", "ann  "),
        ("ann", "ANN"),
        ("ann", "ａｎｎ"),  # full width
        ("ann lee", "ann\u00a0 lee"),
    ],
)
def test_names_that_read_alike_are_one_name_and_collide(tmp_path, a, b):
    assert identity.name_key(a) == identity.name_key(b)
    with pytest.raises(ValueError, match="refusing to grade"):
        grader.identities([tmp_path / f"{a}.ipynb", tmp_path / f"{b}.ipynb"])


@pytest.mark.parametrize(("a", "b"), [("ann", "anne"), ("José", "Jose"), ("ann1", "ann2")])
def test_names_that_read_differently_stay_two(a, b):
    assert identity.name_key(a) != identity.name_key(b)


def test_a_roster_matches_files_as_their_names_read_and_lists_what_does_not(tmp_path):
    roster = tmp_path / "roster.csv"
    nfd = unicodedata.normalize("NFD", "José")
    roster.write_text(f"student,file\nS-1,Erin.IPYNB\nS-2,{nfd}\nS-3,absent\n", encoding="utf-8")
    read = grader.read_roster(roster)
    paths = [tmp_path / "erin.ipynb", tmp_path / "José .ipynb", tmp_path / "zoe.ipynb"]
    named = grader.identities(paths, read)
    assert [s for _, s, _ in named] == ["S-1", "S-2", "zoe"]
    unlisted, absent = grader.roster_mismatches(paths, read)
    assert unlisted == ["zoe.ipynb"] and absent == ["absent.ipynb"]
    roster.write_text("student,file\nS-1,ann\nS-2,ANN.ipynb\n", encoding="utf-8")
    with pytest.raises(ValueError, match="listed twice"):
        grader.read_roster(roster)


@pytest.mark.parametrize(
    ("name", "kept"),
    [("erin.IPYNB", True), ("erin.Ipynb", True), (".erin.ipynb", False), ("erin.txt", False)],
)
def test_a_notebook_file_in_any_case_is_a_submission(tmp_path, name, kept):
    assert identity.is_notebook_file(tmp_path / name) is kept


def test_the_notebook_a_file_was_handed_in_for(tmp_path):
    paths = [tmp_path / n for n in ("ann.ipynb", "bob.ipynb", f"cy_77_{N01}.ipynb", "dee.ipynb")]
    (tmp_path / identity.HUB_ROSTER).write_text(
        f"user,submission,status,notebook\nann,ann.ipynb,handed in,{N00}\n"
        f"bob,bob.ipynb,handed in,not-a-notebook\n",
        encoding="utf-8",
    )
    expected = identity.handed_in_for(tmp_path, paths, STEMS)
    assert expected == {paths[0]: N00, paths[2]: N01}
    forced = identity.handed_in_for(tmp_path, paths, STEMS, notebook=N01[:2])
    assert forced[paths[1]] == forced[paths[3]] == N01 and forced[paths[0]] == N00
    with pytest.raises(ValueError, match="--notebook '99'"):
        identity.handed_in_for(tmp_path, paths, STEMS, notebook="99")


def _notebook_of(stem: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["choosing_epsilon"] = {"notebook": stem}
    return nb


@pytest.fixture
def no_run(monkeypatch):
    """The grader with its sandbox and runs faked: what is run is recorded, nothing runs."""
    from instructor.grading import sandbox

    ran = []
    monkeypatch.setattr(sandbox, "available", lambda: None)
    monkeypatch.setattr(sandbox, "bound_choice", lambda: ("cgroup v1", ""))

    def fake_run(nb, environment, **options):
        ran.append(nb.metadata.get("choosing_epsilon", {}).get("notebook", "unnamed"))
        return grader.Run()

    monkeypatch.setattr(grader, "run_notebook", fake_run)
    return ran


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_a_notebook_handed_in_for_another_is_flagged_and_scores_nowhere(tmp_path, no_run):
    folder = tmp_path / "in"
    folder.mkdir()
    nbformat.write(_notebook_of(N00), folder / "solved.ipynb")  # a solved 00 as a 01
    nbformat.write(_notebook_of(N01), folder / "honest.ipynb")
    nbformat.write(_notebook_of(N01), folder / "erin.IPYNB")
    nbformat.write(_notebook_of(N01), folder / "Points Possible.ipynb")
    rows = grader.grade(
        folder,
        tmp_path / "out",
        python=sys.executable,
        secret=fixed_secret(tmp_path / "s"),
        notebook="01",
    )
    assert no_run == [N01, N01]  # erin and honest; neither the 00 nor the reserved name
    by = {r["student"]: r for r in rows}
    assert by["solved"]["flag"] == f"handed in for {N01}; is {N00}"
    assert by["solved"]["notebook"] == "" and by["honest"]["notebook"] == N01
    assert by["erin"]["notebook"] == N01 and by["erin"]["flag"] == ""
    assert by["Points Possible"]["flag"] == "a name the gradebook reserves"
    canvas = _rows(tmp_path / "out" / "canvas.csv")
    assert [r[0] for r in canvas].count("Points Possible") == 1
    solved = next(r for r in canvas if r[0] == "solved")
    assert set(solved[5:]) == {""}  # no score in any notebook's column
    feedback = (tmp_path / "out" / "feedback" / "solved.md").read_text(encoding="utf-8")
    assert f"handed in for {N01}, but it is notebook {N00}" in feedback


class _Counted(list):
    """A notebook's cells that count how often they are walked (a pass or a slice each)."""

    walks = 0

    def __iter__(self):
        _Counted.walks += 1
        return super().__iter__()

    def __getitem__(self, index):
        if isinstance(index, slice):
            _Counted.walks += 1
        return super().__getitem__(index)


def test_a_notebook_that_says_nothing_of_itself_is_graded_as_what_it_was_handed_in_for(
    tmp_path, no_run
):
    """No metadata, no number in its name, no check call: unknown alone, and graded as the
    notebook it was handed in for where that is known."""
    for out, notebook in (("out", None), ("out2", "01")):
        folder = tmp_path / f"in-{out}"
        folder.mkdir()
        nbformat.write(nbformat.v4.new_notebook(), folder / "ann.ipynb")
        [row] = grader.grade(
            folder,
            tmp_path / out,
            python=sys.executable,
            secret=fixed_secret(tmp_path / "s"),
            notebook=notebook,
        )
        assert row["notebook"] == ("" if notebook is None else N01)
    assert no_run == ["unnamed"]  # run once: as notebook 01


def test_feedback_of_thousands_of_failing_cells_is_linear_and_bounded():
    """30,000 cells and 4,000 errors held the grader ~100 s: each event walked the cells above
    it. The cells are now walked once per feedback (counted here, never timed)."""
    nb = nbformat.v4.new_notebook()
    cells = [nbformat.v4.new_markdown_cell("# Start")]
    cells += [nbformat.v4.new_code_cell("") for _ in range(30_000)]
    nb.cells = _Counted(cells)
    graded = grader.Graded("x", None)
    graded.run = grader.Run(
        events=[{"event": "error", "cell": i, "ename": "E", "evalue": "v"} for i in range(4_000)]
    )
    course = grader.Course(N00, notebook_paths()[0], [], {}, {})
    _Counted.walks = 0
    text = grader.feedback(graded, course, nb, (600, 300))
    assert _Counted.walks == 1
    shown = text.count("under the heading “Start”") + text.count("above the first heading")
    assert shown == grader.MAX_EVENTS_SHOWN
    assert f"and {4_000 - grader.MAX_EVENTS_SHOWN} more events" in text


def test_a_written_answer_of_any_length_merges(tmp_path):
    wid = next(iter(scoring.written_questions()))
    marks = tmp_path / "written.csv"
    long = "x" * 200_000
    with open(marks, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "submission", "id", "answer", "mark"])
        writer.writerow(["alice", "alice", wid, long, "full"])
    [row] = scoring.merge_written(marks, [{"student": "alice", "total": 1}])
    assert float(row["written"]) > 0


def test_a_bad_mark_still_writes_every_grade(tmp_path, no_run):
    folder = tmp_path / "in"
    folder.mkdir()
    nbformat.write(_notebook_of(N01), folder / "ann.ipynb")
    wid = next(iter(scoring.written_questions()))
    marks = tmp_path / "written.csv"
    marks.write_text(f"student,submission,id,mark\nann,ann,{wid},lots\n", encoding="utf-8")
    with pytest.raises(ValueError, match="written without the written marks"):
        grader.grade(
            folder,
            tmp_path / "out",
            python=sys.executable,
            secret=fixed_secret(tmp_path / "s"),
            marks=marks,
        )
    for name in ("grades.csv", "canvas.csv", "moodle.csv"):
        assert [r[0] for r in _rows(tmp_path / "out" / name)][-1] == "ann", name


def test_a_fresh_secret_is_made_once_private_and_random(tmp_path):
    """Without a secret the grader makes one (the tests pass a fixed one, so this path is
    tested here): 32 random bytes, mode 0600, read back the same; a second class gets another."""
    import os
    import stat

    first = grader.load_secret(tmp_path / "a" / "secret")
    assert len(first) == 32
    assert stat.S_IMODE(os.stat(tmp_path / "a" / "secret").st_mode) == 0o600
    assert grader.load_secret(tmp_path / "a" / "secret") == first
    assert grader.load_secret(tmp_path / "b" / "secret") != first
