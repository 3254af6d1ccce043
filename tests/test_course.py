"""course.py, the one entry point: the test command's arguments (nothing is installed here)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _course():
    spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _test_calls(monkeypatch, *argv, cpus=2):
    course = _course()
    calls = []
    monkeypatch.setattr(course, "ensure_environment", lambda level: Path(sys.executable))
    monkeypatch.setattr(course, "run", lambda *args: calls.append([str(a) for a in args]) or 0)
    monkeypatch.setattr(course.os, "cpu_count", lambda: cpus)
    monkeypatch.setattr(course, "_record_times", lambda *a, **k: None)
    assert course.main(["test", *argv]) == 0
    return course, calls


def _runs(course) -> list[tuple[str, str]]:
    """(name, marker expression) of each pytest run, written out from the phases."""
    phases = dict(course.TEST_PHASES)
    return [
        (
            "+".join(run),
            " or ".join(f"({phases[p]})" for p in run) if len(run) > 1 else phases[run[0]],
        )
        for run in course.RUNS
    ]


def test_test_runs_ruff_then_every_phase_on_both_cores(monkeypatch):
    course, [lint, *tests] = _test_calls(monkeypatch)
    assert lint[1:] == ["-m", "ruff", "check", "."]
    parallel = ["-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder"]
    assert [t[1:] for t in tests] == [
        ["-m", "pytest", *parallel, "-m", expression, _junit(course, name)]
        for name, expression in _runs(course)
    ]
    assert tests[0][-2] == (
        "not slow and not pypi and not sandbox and not notebooks and not browser and not hub) or "
        "((slow or pypi or sandbox) and not notebooks and not browser and not hub) or "
        "(notebooks and not browser and not hub) or (browser and not hub) or (hub"
    ).join("()")


def test_a_stand_in_run_leaves_the_real_runs_phase_map_and_environment_alone(monkeypatch):
    """The suite's own tests call `course.py test` with a stand-in pytest, inside a worker of
    the real run: that call once removed the real run's map of each test's phase (the same
    file name), and the real run then printed no phase at all."""
    course = _course()
    folder = course.ROOT / "build" / "test-times"
    # the real run's map as this layout names it (another process's id) and as it once was
    real, *others = [folder / f"unit+slow+notebooks+browser+hub.phases{s}.json" for s in (".1", "")]
    monkeypatch.setenv("COURSE_PHASE_MAP", str(real))
    folder.mkdir(parents=True, exist_ok=True)
    made = [path for path in (real, *others) if not path.exists()]
    for path in made:
        path.write_text("{}", encoding="utf-8")
    seen = []
    try:
        monkeypatch.setattr(course, "ensure_environment", lambda level: Path(sys.executable))
        monkeypatch.setattr(
            course, "run", lambda *args: seen.append(os.environ["COURSE_PHASE_MAP"]) or 0
        )
        monkeypatch.setattr(course, "_record_times", lambda *a, **k: None)
        assert course.main(["test"]) == 0
        # the stand-in's own map, named for its own process, came and went; no other was touched
        assert all(path.exists() for path in (real, *others))
        assert seen[-1] != str(real) and str(os.getpid()) in Path(seen[-1]).name
        assert not Path(seen[-1]).exists()
        assert os.environ["COURSE_PHASE_MAP"] == str(real)  # given back as it was found
    finally:
        for path in made:
            path.unlink(missing_ok=True)


def test_one_run_holds_every_phase_once_in_order_and_quick_the_first():
    """Every phase in one run, so both cores stay busy across them and the suite is collected
    once; --quick is the first phase alone."""
    course = _course()
    assert course.RUNS == (tuple(name for name, _ in course.TEST_PHASES),)
    assert course.QUICK == (course.TEST_PHASES[0][0],) == ("unit",)


def _junit(course, phase: str) -> str:
    return f"--junitxml={course.ROOT / 'build' / 'test-times' / f'{phase}.xml'}"


def test_one_core_runs_the_phases_without_workers(monkeypatch):
    course, [_, *tests] = _test_calls(monkeypatch, cpus=1)
    assert [t[1:] for t in tests] == [
        ["-m", "pytest", "-m", e, _junit(course, n)] for n, e in _runs(course)
    ]


def test_each_phase_of_a_run_is_reported_from_the_workers_map(tmp_path):
    """The map the workers write (tests/conftest.py) keys each test as JUnit names it, so a
    run of several phases reports each phase's tests and their summed time."""
    course = _course()
    phase_map = tmp_path / "run.phases.json"
    chosen = (
        "tests/test_course.py::test_one_run_holds_every_phase_once_in_order_and_quick_the_first"
    )
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", chosen,
         f"--junitxml={tmp_path / 'run.xml'}"],
        cwd=ROOT, env={**os.environ, "COURSE_PHASE_MAP": str(phase_map)}, check=True,
        capture_output=True, timeout=600,
    )  # fmt: skip
    written = json.loads(phase_map.read_text(encoding="utf-8"))
    key = "tests.test_course::test_one_run_holds_every_phase_once_in_order_and_quick_the_first"
    assert written == {key: "unit"}
    shares = course.phase_shares(tmp_path / "run.xml", phase_map, ("unit", "slow"))
    assert shares["unit"][0] == 1 and shares["unit"][1] >= 0 and shares["slow"] == (0, 0.0)
    # a grouped test's name carries "@group" under loadgroup; a missing map gives no figures
    (tmp_path / "g.xml").write_text(
        '<testsuites><testsuite><testcase classname="tests.test_course" '
        'name="test_one_run_holds_every_phase_once_in_order_and_quick_the_first@tests/x.py" '
        'time="2.5"/></testsuite></testsuites>'
    )
    assert course.phase_shares(tmp_path / "g.xml", phase_map, ("unit",)) == {"unit": (1, 2.5)}
    assert course.phase_shares(tmp_path / "g.xml", tmp_path / "none.json", ("unit",)) == {}


def test_quick_leaves_out_every_slow_phase(monkeypatch):
    course, [_, tests] = _test_calls(monkeypatch, "--quick", "-x")
    expression = (
        "not slow and not pypi and not sandbox and not notebooks and not browser and not hub"
    )
    assert course.TEST_PHASES[0] == ("unit", expression)
    assert tests[1:] == [
        "-m", "pytest", "-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder", "-x",
        "-m", expression,
        _junit(course, "unit"),
    ]  # fmt: skip


def test_chosen_tests_run_as_given_in_one_run(monkeypatch):
    _, [_, tests] = _test_calls(monkeypatch, "tests/test_course.py", "-x")
    assert tests[1:] == ["-m", "pytest", "tests/test_course.py", "-x"]
    course, [_, tests] = _test_calls(monkeypatch, "--quick", "-k", "phase")
    assert tests[1:] == ["-m", "pytest", "-k", "phase", "-m", course.TEST_PHASES[0][1]]


def test_the_phases_select_every_test_exactly_once():
    """Every combination of the project's markers (pyproject.toml) falls in one phase."""
    import itertools

    import tomllib

    course = _course()
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    names = [m.split(":")[0] for m in declared["ini_options"]["markers"]]
    for name, expression in course.TEST_PHASES:
        used = set(expression.replace("(", " ").replace(")", " ").split()) - {"and", "or", "not"}
        assert used <= set(names), (name, used - set(names))
    for marks in itertools.product([False, True], repeat=len(names)):
        given = dict(zip(names, marks, strict=True))
        chosen = [n for n, e in course.TEST_PHASES if eval(e, {"__builtins__": {}}, given)]
        assert len(chosen) == 1, (given, chosen)


def test_the_phase_times_are_printed_and_recorded(monkeypatch, tmp_path, capsys):
    course = _course()
    monkeypatch.setattr(course, "ROOT", tmp_path)
    monkeypatch.setattr(course, "run", lambda *args: 0)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # restored after the test
    assert course.run_tests("python", ["--quick"], started=course.time.monotonic()) == 0
    # the phases keep their bytecode: no pytest process compiles the helpers again
    assert "PYTHONDONTWRITEBYTECODE" not in course.os.environ
    printed = capsys.readouterr().out
    assert "wall time by run" in printed and "unit" in printed and "in all" in printed
    record = json.loads((tmp_path / "build" / "test-times.json").read_text())
    assert [p["phase"] for p in record["phases"]] == ["environment", "ruff", "unit"]
    assert record["quick"] is True and record["passed"] is True


def test_no_file_points_outside_the_repository():
    # a reader's clone (or the student bundle) has no sources folder beside it: cite the paper
    # instead; the path is spelt in two pieces so this test does not name it itself
    outside = "../" + "shared"
    suffixes = {".py", ".md", ".ipynb", ".toml", ".txt", ".cfg", ".yml", ".yaml", ".json"}
    offenders = [
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*")
        if path.suffix in suffixes
        and path.is_file()
        and not {".venv", "build", ".git", "node_modules"} & set(path.relative_to(ROOT).parts)
        and (outside in path.read_text(errors="ignore"))
    ]
    assert offenders == []


def _lab_call(monkeypatch, *argv):
    course = _course()
    levels, calls = [], []
    monkeypatch.setattr(course, "ensure_environment", lambda level: levels.append(level) or "py")
    monkeypatch.setattr(course, "run", lambda *args: calls.append([str(a) for a in args]) or 0)
    assert course.main(["lab", *argv]) == 0
    return course, levels, calls


def test_lab_serves_the_repository_and_opens_on_the_notebooks(monkeypatch):
    # the notebooks link to ../NOTATION.md and ../README.md#references: above notebooks/
    course, levels, [call] = _lab_call(monkeypatch)
    assert levels == [course.READER]
    # the environment's own JupyterLab, whatever else is on PATH
    assert call[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={ROOT}" in call
    assert "--LabApp.default_url=/lab/tree/notebooks" in call


@pytest.mark.skipif(os.name == "nt", reason="a shell script stands in for another JupyterLab")
def test_the_environments_own_jupyterlab_starts_whatever_else_is_on_path(tmp_path):
    """Another `jupyter-lab` first on PATH (an Anaconda's, a system's): `python -m jupyter
    lab` runs it, which is why `course.py lab` and the student's README start JupyterLab with
    `python -m jupyterlab`, the environment's own."""
    other = tmp_path / "jupyter-lab"
    other.write_text("#!/bin/sh\necho another JupyterLab\n")
    other.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}"}

    def said(*args):
        run = subprocess.run([sys.executable, *args, "--version"], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)  # fmt: skip
        return run.stdout.strip()

    assert said("-m", "jupyter", "lab") == "another JupyterLab"
    import jupyterlab

    assert said("-m", "jupyterlab") == jupyterlab.__version__


def test_lab_rise_installs_the_instructors_extra(monkeypatch):
    course, levels, [call] = _lab_call(monkeypatch, "--rise")
    assert levels == [course.INSTRUCTOR] and "--rise" not in call


def test_rise_is_the_instructors_extra():
    course = _course()
    assert course.extra_packages() == ["jupyterlab-rise", "jupyterlab-mathjax3"]
    reader = (ROOT / "requirements.txt").read_text().lower()
    for name in ("jupyterlab-rise", "jupyterlab-mathjax3"):
        assert f"\n{name}==" not in reader, name


def test_python_3_10_to_3_14_are_supported_and_others_told_what_to_do(capsys):
    course = _course()
    for minor in range(10, 15):
        course.check_python(course.READER, (3, minor, 0))
    with pytest.raises(SystemExit, match=r"3\.10, 3\.11, 3\.12, 3\.13 or 3\.14") as error:
        course.check_python(course.READER, (3, 15, 0))
    assert "this is Python 3.15.0" in str(error.value)


def test_grade_and_student_run_the_instructors_package_grade_from_the_shells_folder(
    monkeypatch, tmp_path
):
    # `python3 path/to/course.py grade subs --out x` reads subs and writes x where it was typed
    course = _course()
    monkeypatch.setattr(course, "ensure_environment", lambda level: Path(sys.executable))
    seen = []
    monkeypatch.setattr(
        course.subprocess,
        "call",
        lambda args, cwd, env=None: seen.append((args, cwd, env)) or 0,
    )
    monkeypatch.chdir(tmp_path)
    assert course.main(["grade", "subs", "--out", "x"]) == 0
    args, cwd, env = seen[-1]
    assert args[1:] == ["-m", "instructor.grading.grade", "subs", "--out", "x"]
    assert Path(cwd) == tmp_path and str(ROOT) in env["PYTHONPATH"].split(os.pathsep)
    assert course.main(["student"]) == 0
    args, cwd, _ = seen[-1]
    assert args[1:] == ["-m", "instructor.student"] and Path(cwd) == ROOT
    # `course.py hub collect /home --out handin/10`: the paths are the shell's too
    assert course.main(["hub", "collect", "h", "--notebook", "10", "--out", "o"]) == 0
    args, cwd, env = seen[-1]
    assert args[1:] == ["-m", "instructor.hub", "collect", "h", "--notebook", "10", "--out", "o"]
    assert Path(cwd) == tmp_path and str(ROOT) in env["PYTHONPATH"].split(os.pathsep)


def test_every_slow_test_named_in_conftest_exists():
    """tests/conftest.py's SLOW names test functions: a rename must not drop one silently."""
    import ast

    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import conftest
    finally:
        sys.path.remove(str(ROOT / "tests"))
    for entry in conftest.SLOW:
        path, function = entry.split("::")
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert function in names, entry


def test_an_options_value_chooses_no_test_so_the_phases_run(monkeypatch):
    """`--maxfail 2` or `--tb short` is an option with its value, not a file: the phases run
    with it (the review found such a call ran the whole suite in one serial pytest run)."""
    course, [_, *tests] = _test_calls(monkeypatch, "--maxfail", "2", "--tb", "short")
    assert len(tests) == len(course.RUNS)
    assert all(t[t.index("-m", 2) - 4 : t.index("-m", 2)] == ["--maxfail", "2", "--tb", "short"]
               for t in tests)  # fmt: skip
    _, [_, tests] = _test_calls(
        monkeypatch, "tests/test_course.py::test_quick_leaves_out_every_slow_phase"
    )
    assert tests[1:] == [
        "-m",
        "pytest",
        "tests/test_course.py::test_quick_leaves_out_every_slow_phase",
    ]


def test_workers_take_the_longest_work_first(monkeypatch):
    """tests/conftest.py orders the work units by tests/_durations.json: a group of tests
    sharing a fixture by its total, any other test by the longest of itself and the tests after
    it in its module (so every module keeps its collection order), ties in collection order."""
    import _durations as durations
    import conftest

    class Item:
        def __init__(self, nodeid, group=None):
            self.nodeid, self.group = nodeid, group

        def get_closest_marker(self, name):
            assert name == "xdist_group"
            return type("M", (), {"args": (self.group,)})() if self.group else None

    times = {"m1::a": 1.0, "m1::b": 5.0, "m2::g1": 2.0, "m2::g2": 2.5, "m3::c": 0.2, "m4::x": 3.0}
    monkeypatch.setattr(durations, "load", lambda: times)
    ids = ["m3::c", "m3::new", "m1::a", "m2::g1", "m1::b", "m2::g2", "m4::x", "m5::unmeasured"]
    items = [Item(i, "G" if i.startswith("m2") else None) for i in ids]
    conftest._longest_first(items)
    order = [i.nodeid for i in items]
    assert order == [
        "m1::a",
        "m1::b",
        "m2::g1",
        "m2::g2",
        "m4::x",
        "m3::c",
        "m3::new",
        "m5::unmeasured",
    ]
    for module in ("m1", "m2", "m3"):  # each module's tests in their collection order
        mine = [i for i in ids if i.startswith(module)]
        assert [i for i in order if i.startswith(module)] == mine


def test_durations_are_read_from_the_junit_reports(tmp_path):
    import _durations as durations

    (tmp_path / "unit.xml").write_text(
        '<testsuites><testsuite><testcase classname="tests.helpers.test_x" name="test_a[1]" '
        'time="1.25"/><testcase classname="tests.instructor.test_y" '
        'name="test_b@tests/instructor/test_y.py" time="3"/></testsuite></testsuites>'
    )
    assert durations.read(tmp_path) == {
        "tests/helpers/test_x.py::test_a[1]": 1.2,
        "tests/instructor/test_y.py::test_b": 3.0,
    }
    # a newer report of another command: its times replace the older one's, never add to them
    newer = tmp_path / "unit+slow.xml"
    newer.write_text(
        '<testsuites><testsuite><testcase classname="tests.helpers.test_x" name="test_a[1]" '
        'time="2"/></testsuite></testsuites>'
    )
    os.utime(newer, (os.stat(tmp_path / "unit.xml").st_mtime + 5,) * 2)
    assert durations.read(tmp_path) == {
        "tests/helpers/test_x.py::test_a[1]": 2.0,
        "tests/instructor/test_y.py::test_b": 3.0,
    }
    # the committed file holds times worth ordering by (a rename leaves an entry stale: it
    # then costs time, never a verdict)
    measured = durations.load()
    assert measured and all(v >= 0.5 for v in measured.values())
