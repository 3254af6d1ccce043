"""The notebook harness: every committed notebook is executed, in order, and not stale."""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

import nbformat
import pytest

from helpers.notebooks import (
    TIMING_TAG,
    WIDGET_VIEW,
    execute,
    notebook_paths,
    stale_cells,
)
from helpers.widgets._base import STATIC_NOTE

NOTEBOOKS = notebook_paths()
IDS = [p.stem for p in NOTEBOOKS]


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 1
    numbers = [int(p.name[:2]) for p in NOTEBOOKS]
    assert numbers == sorted(set(numbers)), "notebook numbers must be unique"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_committed_notebook_was_executed_in_order(path: Path):
    nb = nbformat.read(path, as_version=4)
    assert "widgets" not in nb.metadata, "strip metadata.widgets (python course.py notebooks)"
    views = [o for c in nb.cells for o in c.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]
    assert not views, "strip widget views (python course.py notebooks): their models are gone"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, "a notebook without code cells"
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"execution counts {counts}: run top to bottom"
    for cell in code:
        for output in cell.outputs:
            data = output.get("data", {})
            assert not (
                data.get("text/plain", "").startswith("<Figure") and "image/png" not in data
            ), "a figure saved as text only: start the notebook with %matplotlib inline"
            assert output.output_type != "error", f"committed error output: {output.get('ename')}"
            assert not (
                output.output_type == "stream"
                and output.name == "stderr"
                and "Traceback" in output.text
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_follows_the_template(path: Path):
    nb = nbformat.read(path, as_version=4)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for heading in ("Learning objectives", "Summary", "Exercises"):
        assert re.search(rf"^#+ .*{heading}", markdown, re.M | re.I), (
            f"missing a '{heading}' section"
        )
    index = NOTEBOOKS.index(path)
    if index > 0:
        assert NOTEBOOKS[index - 1].name in markdown, "link to the previous notebook"
    if index + 1 < len(NOTEBOOKS):
        assert NOTEBOOKS[index + 1].name in markdown, "link to the next notebook"
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    assert "version" in last.source.lower(), "the last code cell prints the versions used"
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert not re.search(r"^\s*def |^\s*class ", source, re.M), (
        "define functions in helpers/, not here"
    )
    assert "sys.path" not in source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_a_static_figure_sits_right_above_every_dashboard(path: Path):
    """On GitHub a dashboard shows only its text: the code cell just before it draws the figure."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    shown = [
        i
        for i, cell in enumerate(code)
        if any(
            o.get("data", {}).get("text/plain", "").startswith(STATIC_NOTE) for o in cell.outputs
        )
    ]
    assert shown, f"{path.name} displays no dashboard"
    for i in shown:
        assert any("image/png" in o.get("data", {}) for o in code[i - 1].outputs), (
            f"{path.name}: the code cell before dashboard cell {i + 1} shows no figure"
        )


@pytest.mark.notebooks
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_fresh_execution_matches_committed_outputs(path: Path):
    committed = nbformat.read(path, as_version=4)
    fresh = execute(path)
    stale = stale_cells(fresh, committed)
    assert not stale, (
        f"code cell(s) {stale} of {path.name} print something else now; "
        "re-run `python course.py notebooks` and commit"
    )
    # widgets show up as widget views in a fresh run (the kernel has ipywidgets)
    views = sum(
        WIDGET_VIEW in o.get("data", {})
        for c in fresh.cells
        if c.cell_type == "code"
        for o in c.outputs
    )
    assert views >= 1, "every notebook has at least one interactive dashboard"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_committed_notebooks_hold_one_output_per_stream_run(path: Path):
    """The harness saves streams merged, so a re-execution never diffs on chunking alone."""
    nb = nbformat.read(path, as_version=4)
    for number, cell in enumerate((c for c in nb.cells if c.cell_type == "code"), start=1):
        names = [o.get("name") if o.output_type == "stream" else None for o in cell.outputs]
        doubled = [a for a, b in itertools.pairwise(names) if a is not None and a == b]
        assert not doubled, f"code cell {number} of {path.name}: split {doubled[0]} output"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_timing_cells_print_only_a_timing(path: Path):
    """The tag must not hide a published number: a timing cell prints one line with 's'."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if TIMING_TAG in cell.get("metadata", {}).get("tags", []):
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert len(text.strip().splitlines()) == 1 and re.search(r"\d s\b", text), text
            assert not any(
                o.output_type in ("execute_result", "display_data") for o in cell.outputs
            )


def test_kernel_runs_this_environment():
    """nbclient's "python3" kernel must be this interpreter (so it imports these helpers).

    jupyter_client swaps a bare "python"/"python3" for sys.executable; a user-level kernel
    spec pointing at another Python would silently test the wrong environment.
    """
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    command = spec.argv[0]
    assert (
        command in {"python", "python3"}
        or Path(command).resolve() == Path(sys.executable).resolve()
    )
