"""Execute the course notebooks in place: ``python -m helpers.notebooks [NOTEBOOK ...]``.

Each notebook runs top to bottom in a fresh kernel (working directory ``notebooks/``) and
is written back with its outputs, so GitHub shows every number and figure. Widget state
(``metadata.widgets``) is stripped: GitHub refuses to render notebooks that carry it and
plots inside widgets never show there anyway. The tests use the same functions to check
that the committed notebooks are not stale.
"""

from __future__ import annotations

import atexit
import copy
import os
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS_DIR = Path(__file__).resolve().parents[1] / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Tag of a code cell that prints a measured time: executed, never compared between runs.
TIMING_TAG = "timing"


def notebook_paths() -> list[Path]:
    """The numbered notebooks, in course order."""
    return sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


def execute(path: Path, timeout: int = 900) -> nbformat.NotebookNode:
    """Run a notebook in a fresh kernel and return it (the file is not touched)."""
    nb = nbformat.read(path, as_version=4)
    make_client(nb, path, timeout=timeout).execute()
    return merge_streams(nb)


def kernel_config():
    """The kernel's channels on Unix sockets in a fresh private folder (ZeroMQ's ``ipc``
    transport) where the platform has them, else TCP on loopback (Windows).

    With TCP the client picks five free ports and the kernel binds them a moment later;
    another process on the machine can take one in between, and the kernel then dies with
    "Address already in use" (CI's two reader checks side by side, 2026-12-07). A socket file
    in a folder of this process's own is never contended. The grader's kernels do the same
    (``instructor/grading/runner.py``)."""
    from traitlets.config import Config

    if os.name == "nt":
        return Config()
    folder = tempfile.mkdtemp(prefix="kernel-ipc-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(folder, "k")}})


def make_client(nb: nbformat.NotebookNode, path: Path, *, timeout: int = 900) -> NotebookClient:
    """The nbclient executor the harness and the tests use, set up for busy machines (and a
    kernel that never races another process for a port: :func:`kernel_config`)."""
    return NotebookClient(
        nb,
        config=kernel_config(),
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        # nbclient waits only 4 s (by default) for a cell's last output after the kernel
        # replies, then carries on *without* it and without an error: on a busy machine an
        # output would go missing silently. Wait long, and fail loudly if it never comes.
        iopub_timeout=300,
        raise_on_iopub_timeout=True,
        startup_timeout=300,
    )


def merge_streams(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Join consecutive stream outputs of the same name (stdout, stderr) in every cell.

    How a kernel splits what a cell prints into stream messages depends on timing (a busy
    machine flushes more often), so two runs of the same cell can give one stdout output or
    two with the same text. Merged, a cell holds one output per run of the same stream, and
    a comparison sees the text, not the chunking. Changes ``nb`` in place and returns it.
    """
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        merged = []
        for output in cell.get("outputs", []):
            previous = merged[-1] if merged else None
            if (
                output.output_type == "stream"
                and previous is not None
                and previous.output_type == "stream"
                and previous.name == output.name
            ):
                previous.text = _text(previous.text) + _text(output.text)
            else:
                merged.append(output)
        cell.outputs = merged
    return nb


def _text(text: str | list[str]) -> str:
    return text if isinstance(text, str) else "".join(text)


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
    which changes on every run, does not. Consecutive outputs of one stream are merged
    first (on a copy), so how the kernel chunked them never matters.
    """
    nb = merge_streams(copy.deepcopy(nb))
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if TIMING_TAG in cell.get("metadata", {}).get("tags", []):
            # a measured duration differs on every run and every machine: such a cell
            # must run without error, but what it prints is not compared
            cells.append([f"<{TIMING_TAG} cell: output not compared>"])
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


def stale_cells(fresh: nbformat.NotebookNode, committed: nbformat.NotebookNode) -> list[int]:
    """1-based numbers of the code cells whose text differs between two runs of a notebook.

    Compares ``text_outputs`` (streams merged, widget model ids ignored) cell by cell. The
    last code cell prints the versions used and is skipped: another Python rightly prints
    another version there. A different number of code cells marks every cell stale.
    """
    new, old = text_outputs(fresh), text_outputs(strip_widget_state(copy.deepcopy(committed)))
    if len(new) != len(old):
        return list(range(1, max(len(new), len(old)) + 1))
    return [i + 1 for i, (a, b) in enumerate(zip(new[:-1], old[:-1], strict=True)) if a != b]


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or notebook_paths()
    for path in paths:
        print(f"executing {path.name} ...", flush=True)
        nb = strip_widget_state(execute(path))  # execute() already merged the streams
        nbformat.write(nb, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
