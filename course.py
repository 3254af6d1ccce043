#!/usr/bin/env python3
"""One entry point for readers and CI, using only the standard library.

    python3 course.py lab        # create .venv if needed, open the notebooks in JupyterLab
    python3 course.py lab --rise # the same with RISE, the instructor's live slides (an extra)
    python3 course.py test       # add the developer's tools to .venv, run ruff and every test,
                                 # on every core, and print each run's and phase's time
    python3 course.py test --quick  # the first phase only: no slow, PyPI, sandbox, notebook,
                                    # browser or hub test (the loop while editing)
    python3 course.py notebooks  # re-execute every notebook in place (top to bottom, fresh kernel)
    python3 course.py figures    # regenerate every PNG in figures/
    python3 course.py student    # the student bundle: build/student/ and its zip, run and checked
    python3 course.py grade DIR --out OUT  # grade submitted notebooks: OUT/grades.csv, feedback/
    python3 course.py hub        # for a JupyterHub: build/hub/ (image, z2jh, TLJH, git, link)
    python3 course.py hub collect /home --notebook 10 --out DIR  # hand-ins as DIR/<user>.ipynb
    python3 course.py hub return GRADED --homes /home --roster DIR/roster.csv  # grades back
    python3 course.py key        # the instructor's answer key: build/instructor/answer-key.html, .md
    python3 course.py bench      # run the speed benchmarks and print their tables
    python3 course.py book       # build the course website into build/book/ (no execution)
    python3 course.py slides     # one reveal.js deck per lecture: build/slides/lecture-NN.html
    python3 course.py env        # only create or refresh the reader's environment

Python 3.10 to 3.14. Two environments, both exact pins, in one directory, `.venv/`:

* the reader's (`requirements.txt`: numpy, scipy, pandas, matplotlib, ipywidgets,
  JupyterLab and what the notebooks import), for `lab`, `notebooks`, `figures`, `student`
  and `env`; it runs on every supported Python;
* the developer's (`requirements-dev.txt`: the reader's plus the test, lint, browser and
  website tools), for `test`, `book` and `bench`; it needs Python 3.11 or newer, and on 3.10
  these commands say so before installing anything.

`lab --rise` adds the instructor's extra (`requirements-instructor.txt`: RISE, live slides) to
the reader's; any other command takes it out again, because RISE's JupyterLab 3 dependency
logs a version warning in every notebook's console.

The developer's environment is a superset of the reader's, so one `.venv/` serves both: a
reader command installs the reader's pins, a developer command adds the tools on top, and
a reader command after a developer one finds everything it needs. (Two directories would
install the reader's hundred-odd packages twice for every developer.) Whatever installed
last is recorded in `.venv/.course-installed` with the Python it was made with and a digest
of the pins (and of `pyproject.toml`), so a `git pull` that changes a pin reinstalls, and
this repository's `helpers` package is installed editable with them.

The environment is made with the Python that runs this file: `python3.13 course.py lab`
makes `.venv/` with Python 3.13, and if `.venv/` was made with another Python it is deleted
and made again rather than failing half-way. `COURSE_VENV=/some/dir` puts the environment
there instead of `.venv/` (CI builds the reader's environment for other interpreters so).
"""

# No `from __future__ import annotations` and no annotation that needs Python 3.9+: an old
# Python must get as far as check_python() to be told which versions to use.
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
#: The Pythons the pins are resolved for (requirements.txt); each has been tested.
SUPPORTED = ((3, 10), (3, 11), (3, 12), (3, 13), (3, 14))
#: The developer's tools (the website's sphinx-book-theme 1.3) need a newer Python.
DEV_MIN_PYTHON = (3, 11)
READER, DEVELOPER, INSTRUCTOR = "reader", "developer", "instructor"
#: The files whose content each environment is installed from.
PINS = {
    READER: ("requirements.txt", "pyproject.toml"),
    DEVELOPER: ("requirements.txt", "requirements-dev.txt", "pyproject.toml"),
    INSTRUCTOR: ("requirements.txt", "requirements-instructor.txt", "pyproject.toml"),
}
REQUIREMENTS = {
    READER: "requirements.txt",
    DEVELOPER: "requirements-dev.txt",
    INSTRUCTOR: "requirements-instructor.txt",
}
#: Which environment each command needs.
COMMANDS = {
    "lab": READER,
    "notebooks": READER,
    "figures": READER,
    "student": READER,
    "grade": READER,
    "hub": READER,
    "slides": READER,
    "key": READER,
    "env": READER,
    "test": DEVELOPER,
    "book": DEVELOPER,
    "bench": DEVELOPER,
}


def _version(version) -> str:
    return ".".join(str(part) for part in version)


def check_python(level=READER, version=tuple(sys.version_info[:3])) -> None:
    """Exit with one sentence if this Python cannot build ``level``'s environment."""
    names = ", ".join(_version(v) for v in SUPPORTED[:-1]) + f" or {_version(SUPPORTED[-1])}"
    if tuple(version[:2]) not in SUPPORTED:
        sys.exit(
            f"This course runs on Python {names}, and this is Python {_version(version)}: "
            "install one of those (from python.org, or with pyenv: `pyenv install 3.13`) "
            "and run this command with it, e.g. `python3.13 course.py lab`."
        )
    if level == DEVELOPER and tuple(version[:2]) < DEV_MIN_PYTHON:
        newer = [v for v in SUPPORTED if v >= DEV_MIN_PYTHON]
        sys.exit(
            f"The developer's tools (tests, lint, browser, website) need Python "
            f"{', '.join(_version(v) for v in newer[:-1])} or {_version(newer[-1])}, and this "
            f"is Python {_version(version)}: run this command with one of those "
            "(e.g. `python3.13 course.py test`); the reader's environment "
            "(`course.py lab`) runs on this Python."
        )


def venv_dir() -> Path:
    return Path(os.environ.get("COURSE_VENV") or ROOT / ".venv").resolve()


def venv_python(directory=None) -> Path:
    directory = venv_dir() if directory is None else directory
    if os.name == "nt":
        return directory / "Scripts" / "python.exe"
    return directory / "bin" / "python"


def requirements_digest(level: str) -> str:
    digest = hashlib.sha256()
    for name in PINS[level]:
        digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes())
    return digest.hexdigest()


def _stamp(directory: Path) -> dict:
    try:
        stamp = json.loads((directory / ".course-installed").read_text())
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _venv_version(directory: Path):
    """The Python version a virtual environment was made with (from its pyvenv.cfg)."""
    try:
        lines = (directory / "pyvenv.cfg").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() in ("version", "version_info"):
            return value.strip()
    return None


def extra_packages(level=INSTRUCTOR) -> list:
    """The packages ``level``'s own requirements file pins (not those of the files it includes)."""
    names = []
    for line in (ROOT / REQUIREMENTS[level]).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.append(line.split("==")[0].split(";")[0].strip())
    return names


def _has_instructor_extra(python: Path) -> bool:
    """Whether any package of the instructor's extra is installed in that environment."""
    probe = (
        "import importlib.util, sys; sys.exit(importlib.util.find_spec('jupyterlab_rise') is None)"
    )
    return subprocess.call([str(python), "-c", probe], cwd=ROOT) == 0


def _remove_instructor_extra(python: Path, directory: Path, stamp: dict) -> dict:
    """Take RISE out of an environment a ``lab --rise`` put it in; return the new stamp."""
    print("Removing the instructor's extra (RISE) from the environment ...", flush=True)
    if run(python, "-m", "pip", "uninstall", "--quiet", "--yes", *extra_packages()) != 0:
        sys.exit("Removing the instructor's extra failed; see the messages above.")
    stamp = {key: value for key, value in stamp.items() if key != INSTRUCTOR}
    (directory / ".course-installed").write_text(json.dumps(stamp, indent=1) + "\n")
    return stamp


def ensure_environment(level=READER, directory=None) -> Path:
    """Create or refresh the environment ``level`` needs; return its Python."""
    check_python(level)
    directory = venv_dir() if directory is None else directory
    python = venv_python(directory)
    here = platform.python_version()
    made_with = _venv_version(directory)
    if directory.exists() and made_with is None and any(directory.iterdir()):
        sys.exit(f"{directory} exists and is not a virtual environment: move it away")
    if made_with is not None and (made_with != here or not python.exists()):
        print(
            f"{directory} was made with Python {made_with or '(unknown)'}; "
            f"making it again with Python {here} ...",
            flush=True,
        )
        shutil.rmtree(directory)
    stamp = _stamp(directory)
    if level != INSTRUCTOR and stamp.get(INSTRUCTOR) and python.exists():
        stamp = _remove_instructor_extra(python, directory, stamp)
    wanted = {name: requirements_digest(name) for name in (READER, DEVELOPER, INSTRUCTOR)}
    if stamp.get("python") == here and stamp.get(level) == wanted[level]:
        return python
    if not python.exists():
        print(f"Creating the environment in {directory} (Python {here}) ...", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(directory)
        except Exception as error:  # e.g. Debian without python3-venv
            shutil.rmtree(directory, ignore_errors=True)
            sys.exit(
                f"Could not create {directory}: {error} "
                f"(on Debian/Ubuntu: apt install python{sys.version_info[0]}-venv)"
            )
    what = {READER: "the reader's", DEVELOPER: "the developer's", INSTRUCTOR: "the instructor's"}[
        level
    ]
    print(f"Installing {what} pinned requirements (first run only, a minute or two) ...")
    sys.stdout.flush()
    requirements = ROOT / REQUIREMENTS[level]
    # pip compiles every module it installs, one file after another: more than half of a
    # fresh install (34 of 59 s on a 2-core machine, issue 50). The same compilation, on
    # every core, after it: a read-only use of the environment (the grader's sandbox binds
    # it) still finds every .pyc.
    steps = [
        (python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"),
        (python, "-m", "pip", "install", "--quiet", "--no-compile", "-r", requirements, "-e", ROOT),
    ]
    for step in steps:
        if run(*step) != 0:
            sys.exit("Installing the requirements failed; see the messages above.")
    # as pip's own compiling, it never fails the install: a file that does not compile is
    # left (pip leaves it too), and without a process pool one process does it all
    compile_all = (
        "import compileall, os, sysconfig\n"
        "paths = {os.path.realpath(sysconfig.get_path(k)) for k in ('purelib', 'platlib')}\n"
        "cores = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()\n"
        "for path in sorted(paths):\n"
        "    try:\n"
        "        compileall.compile_dir(path, quiet=2, workers=min(cores or 1, 8))\n"
        "    except Exception:\n"
        "        compileall.compile_dir(path, quiet=2)\n"
    )
    if run(python, "-c", compile_all) != 0:
        print("note: the environment's modules were not all compiled ahead (they are on first use)")
    if level != INSTRUCTOR and _has_instructor_extra(python):  # e.g. pinned in an older checkout
        stamp = _remove_instructor_extra(python, directory, stamp)
    # a developer environment holds the reader's; a reader install leaves the tools stale
    installed = {"python": here, READER: wanted[READER]}
    if level == DEVELOPER or stamp.get(DEVELOPER) == wanted[DEVELOPER]:
        installed[DEVELOPER] = wanted[DEVELOPER]
    if level == INSTRUCTOR:
        installed[INSTRUCTOR] = wanted[INSTRUCTOR]
    (directory / ".course-installed").write_text(json.dumps(installed, indent=1) + "\n")
    return python


def lab_arguments(root=ROOT) -> list:
    """JupyterLab serves the repository's root and opens on the notebooks' folder, so that the
    notebooks' links to ``../NOTATION.md`` and ``../README.md#references`` open in JupyterLab
    (served from ``notebooks/``, they pointed above the server's root and opened nothing).
    tests/browser_lab.py starts its JupyterLab with these arguments too.

    The course's own front-end extension (jupyter-config/labextensions/course-a11y: names,
    spoken values and a live region for the dashboards, issue 42) is loaded from the
    repository, prebuilt, with nothing to install."""
    return [
        "--ServerApp.root_dir=" + str(root),
        "--LabApp.default_url=/lab/tree/notebooks",
        "--LabApp.extra_labextensions_path=" + str(ROOT / "jupyter-config" / "labextensions"),
    ]


def run(*args: object, here=False) -> int:
    """Run a command in the repository; ``here=True``: in the directory the command was typed
    in (its relative paths are the user's), with the repository on the module path."""
    if not here:
        return subprocess.call([str(a) for a in args], cwd=ROOT)
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    return subprocess.call([str(a) for a in args], cwd=os.getcwd(), env=env)


#: ``course.py test`` in phases: each is a marker expression (together they select every test
#: exactly once; tests/test_course.py checks it), and each phase's tests and their time are
#: reported. The first is ``--quick``, the loop while editing. Markers: pyproject.toml.
TEST_PHASES = (
    ("unit", "not slow and not pypi and not sandbox and not notebooks and not browser and not hub"),
    ("slow", "(slow or pypi or sandbox) and not notebooks and not browser and not hub"),
    ("notebooks", "notebooks and not browser and not hub"),
    ("browser", "browser and not hub"),
    ("hub", "hub"),
)
#: the phases run as one pytest run (``--quick``: the first phase alone, QUICK). As five runs
#: they collected the whole suite five times and each ended on one long test while the other
#: core idled (the hub phase is one test). As two (the unit phase, then the rest) the suite was
#: still collected twice; one run collects it once, and its wall time measured the same as the
#: two runs' sum within the machine's spread (docs/developing.md, issue 50). In one run the
#: workers take the longest work first across all five phases, and the unit tests fill the
#: gaps at the end. Each test's phase is still reported: the summed time of its tests, from
#: the JUnit report and the map the workers write (``COURSE_PHASE_MAP``, tests/conftest.py).
RUNS = (("unit", "slow", "notebooks", "browser", "hub"),)
QUICK = ("unit",)


#: at most this many pytest workers (pytest-xdist) a phase: one per core, and no more than
#: the memory of a small machine holds for the browser phase's Chromium and JupyterLab pairs
MAX_WORKERS = 4


def workers(cpus=None) -> int:
    """pytest-xdist workers: one per core up to MAX_WORKERS; 0 (no xdist) on one core."""
    cpus = os.cpu_count() if cpus is None else cpus
    count = min(MAX_WORKERS, cpus or 1)
    return count if count >= 2 else 0


def _pytest(python: str, *args: str) -> int:
    code = run(python, "-m", "pytest", *args)
    if code == 5:
        print("pytest collected no tests: treating that as a failure.", file=sys.stderr)
    return code


def _chooses_tests(argument: str) -> bool:
    """Whether a pytest argument selects tests: -k, -m, a test id or an existing path."""
    if argument in ("-k", "-m") or argument.startswith(("-k=", "-m=")):
        return True
    if argument.startswith("-"):
        return False
    path = argument.split("::")[0]
    return "::" in argument or (ROOT / path).exists() or Path(path).exists()


def run_tests(python: str, rest: list, started=None) -> int:
    """ruff, then the test phases in one timed run (``--quick``: the first only); or, with other
    arguments (a file, ``-k``), ruff and one pytest run with them as given."""
    times = [("environment", time.monotonic() - started)] if started is not None else []
    # bytecode kept between runs: with PYTHONDONTWRITEBYTECODE set (some machines and CI
    # images set it) every pytest process of every phase, and every notebook kernel, compiled
    # the helpers again and pytest rewrote every test module's asserts again: a third of
    # each phase's collection (issue 50). __pycache__ is ignored by git and by the builds.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    clock = time.monotonic()
    lint = run(python, "-m", "ruff", "check", ".")
    times.append(("ruff", time.monotonic() - clock))
    quick = "--quick" in rest
    rest = [a for a in rest if a != "--quick"]
    # a file or folder, a test id, -k or -m chooses the tests: one pytest run, as given (an
    # option's value, `--maxfail 2`, chooses nothing: the phases run with the option)
    if any(_chooses_tests(a) for a in rest):
        chosen = ["-m", TEST_PHASES[0][1]] if quick and "-m" not in rest else []
        if quick and "-m" in rest:
            print("--quick is left out: -m chooses the tests", flush=True)
        return _pytest(python, *rest, *chosen) or lint
    runs = (QUICK,) if quick else RUNS
    # tests that share a fixture built once carry an xdist_group (tests/conftest.py gives it):
    # loadgroup keeps each group on one worker and spreads the rest test by test
    parallel = (
        ["-n", str(workers()), "--dist", "loadgroup", "--no-loadscope-reorder"] if workers() else []
    )
    expressions = dict(TEST_PHASES)
    results, shares = [], {}
    for phases in runs:
        name = "+".join(phases)
        expression = " or ".join(
            expressions[p] if len(phases) == 1 else f"({expressions[p]})" for p in phases
        )
        print(f"\n=== course.py test: {name!r} (-m {expression!r}) ===", flush=True)
        clock = time.monotonic()
        report = ROOT / "build" / "test-times" / f"{name}.xml"  # each test's time: bench suite
        report.parent.mkdir(parents=True, exist_ok=True)
        # each test's phase (tests/conftest.py), in a file of this process's own: the suite's
        # own tests run this function with a stand-in pytest, and one of them removing or
        # rewriting the real run's map left a whole run without its phases
        phase_map = report.with_name(f"{name}.phases.{os.getpid()}.json")
        phase_map.unlink(missing_ok=True)
        before = os.environ.get("COURSE_PHASE_MAP")
        os.environ["COURSE_PHASE_MAP"] = str(phase_map)
        try:
            code = _pytest(python, *parallel, *rest, "-m", expression, f"--junitxml={report}")
        finally:
            if before is None:
                os.environ.pop("COURSE_PHASE_MAP", None)
            else:
                os.environ["COURSE_PHASE_MAP"] = before
        times.append((name, time.monotonic() - clock))
        results.append((name, code))
        if len(phases) > 1:
            shares[name] = phase_shares(report, phase_map, phases)
        phase_map.unlink(missing_ok=True)  # read; the shares are kept in build/test-times.json
    total = sum(seconds for _, seconds in times)
    outcome = {
        name: "passed" if code == 0 else f"FAILED (pytest exit {code})" for name, code in results
    }
    lines = []
    width = max(12, *(len(name) for name, _ in times))
    for name, seconds in times:
        lines.append(f"  {name:<{width}} {seconds:7.0f} s  {outcome.get(name, '')}")
        for phase, (count, summed) in shares.get(name, {}).items():
            lines.append(f"    {phase:<10} {count:5d} tests, {summed:7.0f} s of test time")
    print("\n=== course.py test: wall time by run (the phases in a run: their tests' time, "
          "summed over the workers) ===", *lines, f"  {'in all':<{width}} {total:7.0f} s",
          sep="\n", flush=True)  # fmt: skip
    _record_times(times, results, quick=quick, shares=shares)
    failed = [code for _, code in results if code != 0]
    return (failed[0] if failed else 0) or lint


def phase_shares(report: Path, phase_map: Path, phases) -> dict:
    """{phase: (tests, their summed seconds)} of one run, from its JUnit report and the map of
    each test id to its phase that the workers wrote; an unreadable file gives no figures
    (a run stopped early), never a failure of its own."""
    import xml.etree.ElementTree as ElementTree

    shares = {phase: [0, 0.0] for phase in phases}
    try:
        of = json.loads(phase_map.read_text(encoding="utf-8"))
        cases = ElementTree.parse(report).getroot().iter("testcase")
        for case in cases:
            # the map's keys are JUnit's classname::name (tests/conftest.py); loadgroup adds
            # "@group" to a grouped test's name
            name = re.sub(r"@[^\[\]]*$", "", case.get("name", ""))
            phase = of.get(f"{case.get('classname', '')}::{name}")
            if phase in shares:
                shares[phase][0] += 1
                shares[phase][1] += float(case.get("time") or 0.0)
    except (OSError, ValueError, ElementTree.ParseError):
        return {}
    return {phase: (count, seconds) for phase, (count, seconds) in shares.items()}


def _record_times(times: list, results: list, *, quick: bool, shares=None) -> None:
    """build/test-times.json: the last run's wall times (beside build/test-times/<run>.xml,
    each test's time), and each phase's tests and summed time in a run of several, for
    ``course.py bench suite``."""
    shares = shares or {}
    record = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "quick": quick,
        "cpus": os.cpu_count(),
        "workers": workers(),
        "python": platform.python_version(),
        "phases": [{"phase": name, "seconds": round(seconds, 1)} for name, seconds in times],
        "passed": all(code == 0 for _, code in results),
    }
    for entry in record["phases"]:  # a run of several phases: each one's tests and their time
        if entry["phase"] in shares:
            entry["tests"] = {
                phase: {"count": count, "seconds": round(summed, 1)}
                for phase, (count, summed) in shares[entry["phase"]].items()
            }
    folder = ROOT / "build"
    folder.mkdir(exist_ok=True)
    (folder / "test-times.json").write_text(json.dumps(record, indent=1) + "\n")


def main(argv) -> int:
    check_python()
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    started = time.monotonic()
    level = COMMANDS[command]
    if command == "lab" and "--rise" in rest:
        rest, level = [a for a in rest if a != "--rise"], INSTRUCTOR
    python = ensure_environment(level)
    env_python = str(python)
    if command == "env":
        print(f"the reader's environment (Python {platform.python_version()}): {python}")
        return 0
    if command == "lab":
        extra = (
            ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        )  # containers
        # the course's JupyterLab defaults (jupyter-config/): widget state is saved with the
        # notebook, so a reopened notebook shows its dashboards instead of "model not found"
        paths = [str(ROOT / "jupyter-config"), os.environ.get("JUPYTER_CONFIG_PATH", "")]
        os.environ["JUPYTER_CONFIG_PATH"] = os.pathsep.join(p for p in paths if p)
        # `-m jupyterlab`, the environment's own JupyterLab: `-m jupyter lab` runs the first
        # `jupyter-lab` on PATH (an Anaconda's, a system's), without the course's settings
        return run(env_python, "-m", "jupyterlab", *lab_arguments(), *extra, *rest)
    if command == "test":
        return run_tests(env_python, rest, started=started)
    if command == "notebooks":
        return run(env_python, "-m", "helpers.notebooks", *rest)
    if command == "figures":
        return run(env_python, "-m", "helpers.figures", *rest)
    if command == "book":
        return run(env_python, ROOT / "book" / "build.py", *rest)
    if command == "student":
        return run(env_python, "-m", "instructor.student", *rest)
    if command == "slides":  # [--lecture N ...] [--out DIR]: decks from instructor/plan.json
        return run(env_python, "-m", "instructor.slides", "build", *rest)
    if command == "grade":  # SUBMISSIONS_DIR --out OUT_DIR [...]: paths from where it is typed
        return run(env_python, "-m", "instructor.grading.grade", *rest, here=True)
    if command == "hub":  # [collect|return] ...: paths from where it is typed
        return run(env_python, "-m", "instructor.hub", *rest, here=True)
    if command == "key":  # [--out DIR]: the instructor's answer key (instructor/answer_key/)
        return run(env_python, "-m", "instructor.answer_key", *rest)
    return run(env_python, ROOT / "benchmarks" / "run.py", *rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
