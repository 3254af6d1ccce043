"""figures/ is what `python3 course.py figures` draws now: no stale, orphan or unshown file."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from _modules import ROOT
from matplotlib.image import imread

from helpers.figures import FIGURES_DIR, all_figures, write_all

README = ROOT / "README.md"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("figures")
    write_all(directory)
    return directory


def test_every_file_in_figures_is_registered_and_shown_in_the_readme():
    registered = {f"{stem}.png" for stem in all_figures()}
    on_disk = {p.name for p in FIGURES_DIR.glob("*.png")}
    assert on_disk == registered, (
        f"orphans: {on_disk - registered}, missing: {registered - on_disk}"
    )
    shown = set(re.findall(r"\(figures/([\w.-]+\.png)\)", README.read_text()))
    assert registered <= shown, f"not shown in the README: {sorted(registered - shown)}"


@pytest.mark.parametrize("stem", sorted(all_figures()))
def test_committed_figure_matches_a_fresh_drawing(stem, fresh):
    committed = imread(FIGURES_DIR / f"{stem}.png")
    redrawn = imread(fresh / f"{stem}.png")
    assert committed.shape == redrawn.shape, "figure size changed: run `python3 course.py figures`"
    # matplotlib bundles its fonts and FreeType, so drawings agree to the pixel across machines;
    # the tolerance only absorbs anti-aliasing noise (a changed label already moves ~0.15 %)
    differing = np.mean(np.any(np.abs(committed - redrawn) > 0.25, axis=-1))
    assert differing < 0.0005, f"{differing:.2%} of pixels differ: run `python3 course.py figures`"
