"""helpers.notebooks: which cells are stale (never a re-chunked stream), the executor's timeouts."""

from __future__ import annotations

import copy

import nbformat

from helpers.notebooks import (
    TIMING_TAG,
    make_client,
    merge_streams,
    notebook_paths,
    stale_cells,
)

NOTEBOOKS = notebook_paths()


def _stream(name: str, text: str):
    return nbformat.v4.new_output("stream", name=name, text=text)


def _one_cell_notebook(*outputs):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("print(...)")
    cell.outputs = list(outputs)
    version = nbformat.v4.new_code_cell("print('versions')")
    version.outputs = [_stream("stdout", "numpy 2\n")]
    nb.cells = [cell, version]
    return nb


def test_stream_chunking_alone_is_not_a_change():
    """The same text split into two stdout messages (a busy kernel) compares equal."""
    whole = _one_cell_notebook(_stream("stdout", "ValueError: a\nValueError: b\n"))
    split = _one_cell_notebook(
        _stream("stdout", "ValueError: a\n"), _stream("stdout", "ValueError: b\n")
    )
    assert stale_cells(split, whole) == [] and stale_cells(whole, split) == []
    merged = merge_streams(copy.deepcopy(split))
    assert [o.text for o in merged.cells[0].outputs] == ["ValueError: a\nValueError: b\n"]


def test_a_changed_printed_number_is_still_a_change():
    committed = _one_cell_notebook(_stream("stdout", "ε = 0.5251\n"))
    assert stale_cells(_one_cell_notebook(_stream("stdout", "ε = 0.5252\n")), committed) == [1]
    # chunked differently *and* changed: still caught
    chunked = _one_cell_notebook(_stream("stdout", "ε = 0.52"), _stream("stdout", "51 \n"))
    assert stale_cells(chunked, committed) == [1]
    # stdout and stderr are different streams: text moved from one to the other is a change
    moved = _one_cell_notebook(_stream("stderr", "ε = 0.5251\n"))
    assert stale_cells(moved, committed) == [1]
    # interleaved streams keep their order: stdout, stderr, stdout is not merged across
    interleaved = _one_cell_notebook(
        _stream("stdout", "a\n"), _stream("stderr", "w\n"), _stream("stdout", "b\n")
    )
    assert len(merge_streams(copy.deepcopy(interleaved)).cells[0].outputs) == 3
    # the versions cell is the only one skipped
    other_versions = _one_cell_notebook(_stream("stdout", "ε = 0.5251\n"))
    other_versions.cells[1].outputs = [_stream("stdout", "numpy 3\n")]
    assert stale_cells(other_versions, committed) == []


def test_only_a_cell_tagged_timing_may_print_something_else():
    committed = _one_cell_notebook(_stream("stdout", "analysis took 0.41 s\n"))
    fresh = _one_cell_notebook(_stream("stdout", "analysis took 0.97 s\n"))
    assert stale_cells(fresh, committed) == [1]
    for nb in (committed, fresh):
        nb.cells[0].metadata["tags"] = [TIMING_TAG]
    assert stale_cells(fresh, committed) == []


def test_a_missing_output_is_a_change():
    committed = _one_cell_notebook(_stream("stdout", "ε = 0.5251\n"))
    assert stale_cells(_one_cell_notebook(), committed) == [1]


def test_the_executor_waits_for_late_outputs_and_fails_loudly():
    """nbclient's 4 s default would drop a late output silently on a busy machine."""
    client = make_client(nbformat.v4.new_notebook(), NOTEBOOKS[0])
    assert client.iopub_timeout >= 60 and client.raise_on_iopub_timeout
    assert client.startup_timeout >= 60 and client.timeout >= 600


def test_the_executor_runs_its_kernel_on_unix_sockets_where_it_can(tmp_path):
    """No TCP port to race another process for (a kernel died with "Address already in use"
    in CI's reader check): ZeroMQ's ipc transport in a private folder on POSIX."""
    import os
    import stat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print(6 * 7)")]
    client = make_client(nb, tmp_path / "x.ipynb")
    client.execute()
    assert "".join(o.get("text", "") for o in nb.cells[0].outputs).strip() == "42"
    if os.name == "nt":
        return
    manager = make_client(nb, tmp_path / "x.ipynb").create_kernel_manager()
    assert manager.transport == "ipc"
    folder = os.path.dirname(manager.ip)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    other = make_client(nb, tmp_path / "x.ipynb").create_kernel_manager()
    assert os.path.dirname(other.ip) != folder  # each client a folder of its own
