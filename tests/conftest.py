import os

import matplotlib
import pytest

matplotlib.use("Agg")

from hypothesis import HealthCheck, settings

# Property tests: enough examples to catch real bugs, no per-example deadline (CI machines
# are shared; speed is measured in benchmarks/, never in unit tests). derandomize=True
# draws the examples from a seed fixed by each test's source, and database=None keeps no
# memory of earlier failures between runs: the same commit runs the same examples on every
# machine, every time, so CI cannot fail on one run and pass on the next. To hunt for new
# counterexamples locally, run with HYPOTHESIS_PROFILE=explore (random, more examples).
_common = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
    print_blob=True,
)
settings.register_profile("default", max_examples=60, derandomize=True, database=None, **_common)
settings.register_profile("ci", max_examples=120, derandomize=True, database=None, **_common)
settings.register_profile("explore", max_examples=1000, **_common)
_profile = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
settings.load_profile(_profile)


def pytest_report_header(config):
    """The builds the browser tests run on, printed at the top of every run (issue 50: a
    verdict that depends on a browser build names it)."""
    import screen_reader

    found = screen_reader.versions()
    why = screen_reader.missing()
    route = "AT-SPI under Xvfb" if not why else f"DevTools only ({why})"
    listed = ", ".join(f"{k} {v}" for k, v in found.items())
    return [f"screen-reader check: {route}; {listed}"]


#: module- and session-scoped fixtures that build something once for their module's tests
#: (a student bundle, a graded class, the website, the slide decks, every figure): under
#: pytest-xdist (`course.py test` runs `--dist loadgroup`) the tests of a module that use one
#: stay on one worker, which builds it once; every other test is spread one by one. The
#: JupyterLab and Chromium of tests/test_browser.py are not here on purpose: each worker
#: starts its own in seconds, and the notebooks' browser tests then share both cores.
BUILT_ONCE = frozenset(
    {
        "book",  # tests/test_browser.py: the website, built into build/book (one writer)
        "site_server",
        "decks",  # tests/instructor/test_slides.py
        "bundle",  # tests/instructor/test_student.py, tests/instructor/hub/
        "installed",
        "made",
        "built",  # tests/instructor/answer_key/
        "applied",  # tests/instructor/test_quiz.py
        "runs",  # tests/instructor/grading/: a class run in the sandbox
        "graded",
        "rows",
        "fresh",  # tests/helpers/figures/: every figure drawn
        "figures",  # tests/test_accessibility.py
        "cvd",
        "unions",  # tests/test_requirements.py: every pip resolution, two at a time
    }
)


#: a test that needs one of these runs submissions in the grader's sandbox (bubblewrap, a
#: cgroup, a kernel per notebook: seconds to minutes each): marker ``sandbox``, a phase of
#: its own in `course.py test`, out of `--quick`
IN_THE_SANDBOX = frozenset({"sandbox_required"})


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker and xdist reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if IN_THE_SANDBOX & used:
            item.add_marker(pytest.mark.sandbox)
        if BUILT_ONCE & used:
            group = item.path.relative_to(config.rootpath).as_posix()
            item.add_marker(pytest.mark.xdist_group(group))
