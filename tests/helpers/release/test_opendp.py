"""helpers.release.opendp: no release is resized; the record's neighbour notion is OpenDP's."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from helpers import release as R

ROOT = Path(__file__).parents[3]


# --- no release is resized to an assumed number of records ---------------------------------------


def _resize_calls(path: Path) -> list:
    """The calls of OpenDP's resize (``then_resize``, ``make_resize``) in a Python file, or in
    the code cells of a notebook."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        sources = [
            "\n".join(ln for ln in s.splitlines() if not ln.startswith("%")) for s in sources
        ]
    else:
        sources = [path.read_text(encoding="utf-8")]
    found = []
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Attribute) and node.attr in ("then_resize", "make_resize"):
                found.append(node.attr)
    return found


@pytest.mark.parametrize("folder", ["helpers", "notebooks", "benchmarks", "instructor"])
def test_no_release_is_resized_to_an_assumed_number_of_records(folder):
    """OpenDP's resize pads or drops records to a stated n, which a real table never matches
    (issue 37: a 55 % undercount): no code of the course calls it, in any module or notebook."""
    paths = sorted((ROOT / folder).rglob("*.py")) + sorted((ROOT / folder).rglob("*.ipynb"))
    assert paths
    offenders = {str(p.relative_to(ROOT)): c for p in paths if (c := _resize_calls(p))}
    assert offenders == {}


def test_the_resize_detector_finds_a_resize(tmp_path):
    source = "m = dp.t.then_resize(size=10, constant=0.0)\nn = dp.t.make_resize(d, m, 3, 0)\n"
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    assert sorted(_resize_calls(path)) == ["make_resize", "then_resize"]


def test_the_old_resizing_entry_points_are_gone():
    assert not hasattr(R, "opendp_measurements") and not hasattr(R, "opendp_script")


# --- the record's neighbour notion is the one OpenDP checks -------------------------------------


@pytest.mark.parametrize("m", [1, 3])
def test_the_neighbour_distance_of_a_person(m):
    assert R.neighbour_distance(R.OPENDP_NEIGHBOURS, contributions=m) == m
    assert R.neighbour_distance("change-one", contributions=m) == 2 * m


def _code_cells(stem: str) -> list:
    cells = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def test_notebook_12_states_each_releases_own_neighbours():
    """The survey of §1-§5 keeps notebook 11's neighbours (change-one, n public: its Δ are
    change-one); the release in OpenDP's Context (§6) states OpenDP's add-remove."""
    intro = json.loads(
        (ROOT / "notebooks" / "11_one_budget_many_releases.ipynb").read_text(encoding="utf-8")
    )["cells"][0]["source"]
    assert "change-one with n public" in "".join(intro)
    sources = _code_cells("12_from_budget_to_release")
    calls = [s for s in sources if "privacy_record(" in s or "subject_paragraph(" in s]
    opendp = [s for s in calls if "region_allocation" in s]
    survey = [s for s in calls if "region_allocation" not in s]
    assert opendp and survey
    assert all("neighbours=rel.OPENDP_NEIGHBOURS" in s for s in opendp)
    assert all('neighbours="change-one"' in s for s in survey)
    assert R.OPENDP_NEIGHBOURS == "add-remove"
