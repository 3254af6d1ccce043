"""The tests mirror the packages, so a newcomer finds a module's tests by its path.

``helpers/plotting/plrv.py`` is tested in ``tests/helpers/plotting/test_plrv.py``; a private
module ``_x.py`` in ``test__x.py`` (scipy's convention); a package's ``__init__.py`` in
``tests/<package path>/test_<package>.py``; ``instructor/`` likewise under ``tests/instructor/``.
The suites that cut across the packages (every notebook executed, the browser, the API
contract, docstrings, import rules, legibility, accessibility) live at ``tests/`` itself.

A module without a mirror file is listed in ``TESTED_ELSEWHERE`` with the file that tests it
and why; that file must exist and name the module. Every file under ``tests/helpers`` and
``tests/instructor`` must mirror something that exists, so a module renamed or removed cannot
leave its tests behind under an old name.

Every module of ``helpers`` is under ``MAX_MODULE_LINES`` (1,000) lines: a longer one is split by
topic, into a package whose ``__init__`` is the facade or into modules beside it that the old
one re-exports (as ``lee_clifton``, ``plotting/budget.py`` and ``release/opendp.py`` were).
"""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path

import pytest
from _modules import HELPERS, ROOT

TESTS = ROOT / "tests"
PACKAGES = ("helpers", "instructor")

#: module (path from the root, or a glob of paths) -> (test file that covers it, and why it
#: has no mirror file of its own); a module a glob names that has its mirror file uses that
TESTED_ELSEWHERE: dict[str, tuple[str, str]] = {
    "helpers/*/__init__.py": (
        "tests/test_contract.py",
        "a package's facade re-exports its modules' public names, each tested in its module's "
        "file; the contract suite imports every facade and fuzzes what it exports",
    ),
    "helpers/_calibration.py": (
        "tests/helpers/test_dpsgd.py",
        "the calibrations' search in σ, split from helpers/dpsgd.py for size: tested there "
        "against the plain bisection written out, and through noise_for_epsilon and "
        "noise_for_attack_tpr",
    ),
    "helpers/exercises/answers/*.py": (
        "tests/helpers/exercises/test_exercises.py",
        "the instructor's worked answers, one module per notebook: each is run and must pass "
        "its exercise's check there, exercise by exercise",
    ),
    "helpers/exercises/_core.py": (
        "tests/helpers/exercises/test_exercises.py",
        "the judge behind exercises.check: tested through check and directly (judge, plain)",
    ),
    "helpers/exercises/_open.py": (
        "tests/helpers/exercises/test_exercises.py",
        "the open exercises' table, judged through check",
    ),
    "helpers/figures/*.py": (
        "tests/helpers/figures/test_figures.py",
        "a registry of which figure goes to which file: every registered figure is drawn "
        "afresh there and compared with the committed PNG",
    ),
    "helpers/figures/alt_text.py": (
        "tests/test_accessibility.py",
        "the text-alternative tool: the accessibility suite applies and checks it on every "
        "notebook figure",
    ),
    "helpers/lee_clifton/*.py": (
        "tests/helpers/lee_clifton/test_lee_clifton.py",
        "one engine split by topic (worlds, beliefs, bounds, choosing ε), tested through its "
        "facade as when it was one module: the published numbers and the properties tie the "
        "modules together (a bound is checked against the posterior, the search against the bound)",
    ),
    "helpers/mechanisms/base.py": (
        "tests/helpers/mechanisms/test_mechanisms.py",
        "the base class's generic steps: the toy Logistic there supplies only its noise and gets "
        "the rest from the base, and the battery over MECHANISM_CLASSES checks every class's "
        "overrides against them",
    ),
    "helpers/plotting/_alt.py": (
        "tests/test_accessibility.py",
        "the figures' text alternatives: checked on every figure and dashboard there",
    ),
    "helpers/plotting/_style.py": (
        "tests/test_accessibility.py",
        "the course's style (colours, markers, font sizes): measured on every figure by the "
        "accessibility and legibility suites",
    ),
    "helpers/release/_opendp_data.py": (
        "tests/helpers/release/test_opendp.py",
        "opendp_release's reading of the table and the workload: every refusal is tested through "
        "opendp_release there (bad data, columns, keys, missing values), the workload's spec by name",
    ),
    "helpers/release/_opendp_query.py": (
        "tests/helpers/release/test_opendp.py",
        "opendp_release's OpenDP queries: tested through it and by name there (the noise "
        "planned against OpenDP's own summary, the threshold's share of the budget)",
    ),
    "instructor/grading/__init__.py": (
        "tests/instructor/grading/test_grade.py",
        "the grading package's docstring only; its modules are tested there and in test_sandbox.py",
    ),
    "instructor/grading/report.py": (
        "tests/instructor/grading/test_grade.py",
        "grade.py's feedback, grades.csv and gradebooks, split from it by verb: tested through "
        "the grader there (and feedback's linear time in test_identity.py)",
    ),
    "instructor/grading/run.py": (
        "tests/instructor/grading/test_sandbox.py",
        "one run of a notebook in its sandbox, split from grade.py by verb: every attack of "
        "test_sandbox.py and test_runner.py runs through it",
    ),
    "instructor/answer_key/*.py": (
        "tests/instructor/answer_key/test_answer_key.py",
        "the answer key's modules are one pipeline (statements and written answers, exercises, "
        "quizzes, then the markdown and HTML pages): the key is built once there and every part "
        "of it checked on what was built",
    ),
    "instructor/key_facts.py": (
        "tests/instructor/answer_key/test_answer_key.py",
        "the answer key's claims, each recomputed and checked there",
    ),
    "instructor/timing.py": (
        "tests/instructor/test_plan.py",
        "the lecture timings: test_plan recounts every section against timings.json with it",
    ),
}

#: test files under tests/helpers or tests/instructor that mirror a data file, not a module
DATA_MIRRORS = {"tests/instructor/test_plan.py": "instructor/plan.json"}


def _modules() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name == "__main__.py":
                continue  # a package's command line: run by the tests of what it calls
            found.append(path.relative_to(ROOT).as_posix())
    return found


def _elsewhere(module: str) -> tuple[str, str] | None:
    """The TESTED_ELSEWHERE entry for a module: its own, else the most specific glob's."""
    if module in TESTED_ELSEWHERE:
        return TESTED_ELSEWHERE[module]
    globs = [key for key in TESTED_ELSEWHERE if "*" in key and fnmatch(module, key)]
    return TESTED_ELSEWHERE[max(globs, key=len)] if globs else None


def mirror_of(module: str) -> str:
    """The test file a module's path says it has (``helpers/a/b.py`` -> ``tests/helpers/a/test_b.py``)."""
    parts = module.split("/")
    folder, name = parts[:-1], parts[-1].removesuffix(".py")
    if name == "__init__":
        if len(folder) == 1:
            return ""  # helpers/__init__.py, instructor/__init__.py: the layer list and
            # contract (tests/test_import_rules.py, tests/test_contract.py), no code to test
        name = folder[-1]
    return "/".join(["tests", *folder, f"test_{name}.py"])


@pytest.mark.parametrize("module", _modules())
def test_every_module_has_its_tests_where_its_path_says(module):
    expected = mirror_of(module)
    if not expected:
        return
    elsewhere = _elsewhere(module)
    if elsewhere and not (module in TESTED_ELSEWHERE and (ROOT / expected).exists()):
        if (ROOT / expected).exists():
            return  # a glob's module with a file of its own
        where, why = elsewhere
        assert why.strip(), f"{module}: say why it has no {expected}"
        text = (ROOT / where).read_text(encoding="utf-8")
        dotted = module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        if module not in TESTED_ELSEWHERE:  # a glob's module: the file names its package
            dotted = dotted.rpartition(".")[0]
        stem = dotted.rpartition(".")[2]
        assert dotted in text or f"import {stem}" in text or f"{stem}." in text, (
            f"{where} is said to test {module} but never names it"
        )
        return
    assert module not in TESTED_ELSEWHERE, (
        f"{module} has its mirror file {expected}; drop it from TESTED_ELSEWHERE"
    )
    assert (ROOT / expected).is_file(), (
        f"{module} has no tests at {expected} (or list it in TESTED_ELSEWHERE with the file "
        "that tests it and why)"
    )


def _test_files() -> list[str]:
    return sorted(
        p.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for p in (TESTS / package).rglob("test_*.py")
    )


@pytest.mark.parametrize("test_file", _test_files())
def test_every_mirror_file_mirrors_something_that_exists(test_file):
    mirrors = {mirror_of(m) for m in _modules()}
    if test_file in DATA_MIRRORS:
        assert (ROOT / DATA_MIRRORS[test_file]).is_file()
        return
    assert test_file in mirrors, (
        f"{test_file} mirrors no module of {PACKAGES}: rename it after the module it tests"
    )


def test_no_loose_test_file_at_the_top_mirrors_a_module():
    """A top-level test is a cross-cutting suite, never one module's tests under another name."""
    top = {p.name for p in TESTS.glob("test_*.py")}
    stems = {m.rsplit("/", 1)[-1].removesuffix(".py") for m in _modules()}
    misplaced = sorted(
        name for name in top if name.removeprefix("test_").removesuffix(".py") in stems
    )
    # notebooks.py's own unit tests are in tests/helpers/test_notebooks.py; the top-level
    # test_notebooks.py executes every notebook (a cross-cutting suite of the same name)
    assert misplaced in ([], ["test_notebooks.py"]), misplaced


def test_exceptions_name_real_files():
    modules = _modules()
    for module, (where, _) in TESTED_ELSEWHERE.items():
        assert any(fnmatch(m, module) for m in modules), f"{module} matches no module"
        assert (ROOT / where).is_file(), where


# --- a module is read in one sitting -----------------------------------------------------------

#: the lines a module of ``helpers`` stays under
MAX_MODULE_LINES = 1_000


def long_modules(root: Path, limit: int = MAX_MODULE_LINES) -> list[str]:
    """``path: N lines`` for every ``*.py`` under ``root`` of ``limit`` lines or more, longest
    first."""
    counts = {
        path.relative_to(root.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in root.rglob("*.py")
    }
    offenders = sorted((n, p) for p, n in counts.items() if n >= limit)
    return [f"{p}: {n:,} lines" for n, p in reversed(offenders)]


def test_every_module_of_helpers_is_under_1000_lines():
    offenders = long_modules(HELPERS)
    assert offenders == [], (
        f"modules of {MAX_MODULE_LINES:,} lines or more, split each by topic (a package with its "
        "facade, or modules beside it that it re-exports): " + "; ".join(offenders)
    )


def test_the_line_count_names_the_offenders(tmp_path):
    package = tmp_path / "helpers"
    (package / "sub").mkdir(parents=True)
    (package / "short.py").write_text("x = 1\n" * 999, encoding="utf-8")
    (package / "sub" / "long.py").write_text("x = 1\n" * 1000, encoding="utf-8")
    (package / "longer.py").write_text("x = 1\n" * 1200, encoding="utf-8")
    assert long_modules(package) == [
        "helpers/longer.py: 1,200 lines",
        "helpers/sub/long.py: 1,000 lines",
    ]
