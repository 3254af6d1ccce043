"""Regenerate every PNG in ``figures/``: ``python -m helpers.figures`` (or ``course.py figures``).

Each topic module holds ``FIGURES``: a mapping from a stable file stem (such as
``lee_clifton_bounds_mean``) to a zero-argument function returning the Figure. The
functions call the same plotting functions as the notebooks, so the files cannot drift.

Each figure's text alternative (``fig.alt_text``, see ``helpers.plotting.alt_text``) is written
beside it: into ``figures/alt.json`` (file name -> text) and into the PNG's ``Description``.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..plotting import alt_text as _alt_text
from . import (
    beliefs,
    budget,
    deployments,
    dpsgd,
    foundations,
    kazan_reiter,
    lee_clifton,
    plrv,
    release,
)

FIGURES_DIR = Path(__file__).resolve().parents[2] / "figures"
ALT_FILE = "alt.json"


def all_figures() -> dict:
    registry: dict = {}
    for module in (
        foundations,
        beliefs,
        lee_clifton,
        kazan_reiter,
        plrv,
        deployments,
        budget,
        release,
        dpsgd,
    ):
        clash = registry.keys() & module.FIGURES.keys()
        if clash:
            raise ValueError(f"figure names defined twice: {sorted(clash)}")
        registry.update(module.FIGURES)
    return registry


def write_all(directory: Path = FIGURES_DIR, dpi: int = 110) -> list[Path]:
    """Every PNG and ``alt.json`` (each figure's text alternative); the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written, alts = [], {}
    for stem, make in sorted(all_figures().items()):
        path = directory / f"{stem}.png"
        fig = make()
        alts[path.name] = _alt_text(fig)
        # metadata=None for the Software key keeps files byte-stable across matplotlib builds;
        # the text alternative travels inside the file too
        fig.savefig(path, dpi=dpi, metadata={"Software": None, "Description": alts[path.name]})
        written.append(path)
    alt_path = directory / ALT_FILE
    alt_path.write_text(json.dumps(alts, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written.append(alt_path)
    return written
