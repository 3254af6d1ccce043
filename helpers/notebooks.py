"""Execute the course notebooks in place: ``python -m helpers.notebooks [NOTEBOOK ...]``.

Each notebook runs top to bottom in a fresh kernel (working directory ``notebooks/``) and
is written back with its outputs, so GitHub shows every number and figure. Widget state
(``metadata.widgets``) is stripped: GitHub refuses to render notebooks that carry it and
plots inside widgets never show there anyway. The tests use the same functions to check
that the committed notebooks are not stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS_DIR = Path(__file__).resolve().parents[1] / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def notebook_paths() -> list[Path]:
    """The numbered notebooks, in course order."""
    return sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


def execute(path: Path, timeout: int = 900) -> nbformat.NotebookNode:
    """Run a notebook in a fresh kernel and return it (the file is not touched)."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
    )
    client.execute()
    return nb


def strip_widget_state(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what only a live kernel can use: ``metadata.widgets`` and widget views.

    A widget view in a saved notebook points at a model that no longer exists (JupyterLab
    shows "model not found", GitHub shows nothing) and its id changes on every run, which
    makes every re-execution a noisy diff. What stays is the view's text/plain, which our
    dashboards set to a note pointing at the static figure beside them.
    """
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
    return nb


def text_outputs(nb: nbformat.NotebookNode) -> list[list[str]]:
    """Per code cell, the text a reader sees: streams and text/plain of results.

    A dashboard's text/plain (a note plus its numbers) counts; its widget-view model id,
    which changes on every run, does not.
    """
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        texts = []
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                texts.append(f"{output.name}: {output.text}")
            elif output.output_type in ("execute_result", "display_data"):
                data = output.get("data", {})
                if "text/plain" in data:
                    texts.append(data["text/plain"])
            elif output.output_type == "error":
                texts.append(f"error: {output.ename}: {output.evalue}")
        cells.append(texts)
    return cells


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or notebook_paths()
    for path in paths:
        print(f"executing {path.name} ...", flush=True)
        nb = strip_widget_state(execute(path))
        nbformat.write(nb, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
