"""Regenerate every PNG in ``figures/``: ``python -m helpers.figures`` (or ``course.py figures``).

Each topic module holds ``FIGURES``: a mapping from a stable file stem (such as
``lee_clifton_bounds_mean``) to a zero-argument function returning the Figure. The
functions call the same plotting functions as the notebooks, so the files cannot drift.
"""

from __future__ import annotations

from pathlib import Path

from . import beliefs, deployments, foundations, kazan_reiter, lee_clifton, plrv

FIGURES_DIR = Path(__file__).resolve().parents[2] / "figures"


def all_figures() -> dict:
    registry: dict = {}
    for module in (foundations, beliefs, lee_clifton, kazan_reiter, plrv, deployments):
        clash = registry.keys() & module.FIGURES.keys()
        if clash:
            raise ValueError(f"figure names defined twice: {sorted(clash)}")
        registry.update(module.FIGURES)
    return registry


def write_all(directory: Path = FIGURES_DIR, dpi: int = 110) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, make in sorted(all_figures().items()):
        path = directory / f"{stem}.png"
        # metadata=None for the Software key keeps files byte-stable across matplotlib builds
        make().savefig(path, dpi=dpi, metadata={"Software": None})
        written.append(path)
    return written
