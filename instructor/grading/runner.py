"""Run one submitted notebook and report the values of its answer variables (the grader's child).

    python _runner.py CONFIG.json

Run by ``helpers/exercises/grade.py`` with the Python of the grading environment (the
reader's), as a script: it needs only nbformat and nbclient, not ``helpers``. It executes the
notebook cell by cell in a fresh kernel of that same Python (``allow_errors``: a cell that
raises is recorded and the next one runs; a cell that outlives its time limit is interrupted),
and after every cell that mentions an answer variable it reads those variables' values *from
the kernel* (a silent ``user_expressions`` request, never the printed text) and appends them to
the JSON-lines file named in the config as soon as they are known. The grader kills this
process group at the notebook's time limit and keeps whatever was written by then, so the
cells before a hang still count.

Open exercises are reduced to plain numbers inside the kernel (``helpers.exercises._open``:
a function cannot leave it); the grader decides from those numbers in its own process.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

#: Runs inside the kernel, in a fresh namespace: encodes the requested variables as JSON.
ENCODER = r"""
import json as _json

def _enc(v, depth=0):
    if depth > 6:
        return {"t": "other", "type": "nested too deep"}
    if v is Ellipsis:
        return {"t": "ellipsis"}
    if v is None:
        return {"t": "none"}
    kind = type(v).__name__
    has_dtype = hasattr(v, "dtype") and hasattr(v, "shape")
    if isinstance(v, bool) or kind == "bool_":
        return {"t": "bool", "v": bool(v)}
    if isinstance(v, int) or (has_dtype and getattr(v, "shape", None) == () and v.dtype.kind in "iu"):
        return {"t": "int", "v": str(int(v))}
    if isinstance(v, float) or (has_dtype and getattr(v, "shape", None) == () and v.dtype.kind == "f"):
        return {"t": "float", "v": repr(float(v))}
    if isinstance(v, str):
        return {"t": "str", "v": v[:2000]}
    if isinstance(v, (tuple, list)):
        if len(v) > 10000:
            return {"t": "other", "type": f"{kind} of {len(v)} items"}
        return {"t": "tuple" if isinstance(v, tuple) else "list", "v": [_enc(x, depth + 1) for x in v]}
    if isinstance(v, dict):
        return {"t": "dict", "v": {str(k): _enc(x, depth + 1) for k, x in list(v.items())[:200]}}
    if has_dtype and hasattr(v, "tolist"):
        import numpy as _np
        a = _np.asarray(v)
        if a.size > 100000 or a.dtype.kind not in "biuf":
            return {"t": "other", "type": f"an array of shape {a.shape} and dtype {a.dtype}"}
        flat = a.ravel().tolist()
        if a.dtype.kind == "f":
            flat = [repr(float(x)) for x in flat]
        return {"t": "array", "kind": a.dtype.kind, "shape": list(a.shape), "v": flat}
    if callable(v):
        return {"t": "callable"}
    return {"t": "other", "type": kind}

_out = {}
for _name in names:
    if _name not in g:
        continue
    _value = g[_name]
    if _name in open_ids and _value is not Ellipsis:
        try:
            _open = __import__("helpers.exercises._open", fromlist=["OPEN"]).OPEN
            _value = {"t": "reduced", "v": _enc(_open[open_ids[_name]].reduce(_value))}
        except Exception as _error:  # the student's function may raise anything
            _value = {"t": "reduced", "v": _enc({"error": f"{type(_error).__name__}: {_error}"})}
        _out[_name] = _value
        continue
    try:
        _out[_name] = _enc(_value)
    except Exception as _error:
        _out[_name] = {"t": "other", "type": f"unreadable ({type(_error).__name__})"}
result = _json.dumps(_out)
"""


def _expression(names: list[str], open_ids: dict[str, str]) -> str:
    context = f"{{'g': globals(), 'names': {names!r}, 'open_ids': {open_ids!r}}}"
    return f"(lambda _d: (exec({ENCODER!r}, _d), _d['result'])[1])({context})"


class Report:
    """Append-only JSON lines, flushed at once (the process may be killed at any moment)."""

    def __init__(self, path: Path):
        self.file = path.open("a", encoding="utf-8")

    def __call__(self, **event) -> None:
        self.file.write(json.dumps(event) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())


async def _extract(client, names, open_ids, timeout) -> dict:
    msg_id = client.kc.execute(
        "", silent=True, store_history=False, user_expressions={"r": _expression(names, open_ids)}
    )
    deadline = time.monotonic() + timeout
    while True:
        reply = await client.kc.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    found = reply["content"].get("user_expressions", {}).get("r", {})
    if found.get("status") != "ok":
        return {"__error__": f"{found.get('ename')}: {found.get('evalue')}"}
    return json.loads(ast.literal_eval(found["data"]["text/plain"]))


def _kernelspec_dir() -> str:
    """A kernel spec named python3 that starts *this* Python (first on JUPYTER_PATH)."""
    root = tempfile.mkdtemp(prefix="grade-kernel-")
    spec = Path(root) / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Python 3 (grading)",
                "language": "python",
            }
        )
    )
    return root


async def run(config: dict) -> None:
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    report = Report(Path(config["out"]))
    names, open_ids = config["names"], config["open_ids"]
    cell_timeout = config["cell_timeout"]
    try:
        nb = nbformat.read(config["notebook"], as_version=4)
    except Exception as error:  # not JSON, not a notebook
        report(event="unreadable", message=f"{type(error).__name__}: {error}")
        return
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (_kernelspec_dir(), os.environ.get("JUPYTER_PATH", "")) if p
    )
    client = NotebookClient(
        nb,
        timeout=cell_timeout,
        kernel_name="python3",
        allow_errors=True,
        interrupt_on_timeout=True,
        record_timing=False,
        iopub_timeout=30,
        raise_on_iopub_timeout=False,
        startup_timeout=300,
        resources={"metadata": {"path": config["cwd"]}},
    )
    captured: set[str] = set()
    async with client.async_setup_kernel():
        report(event="started")
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            start = time.monotonic()
            try:
                await client.async_execute_cell(cell, index)
            except DeadKernelError as error:
                report(event="died", cell=index, message=str(error)[:300])
                return
            elapsed = time.monotonic() - start
            if elapsed >= cell_timeout:
                report(event="timeout", cell=index, seconds=round(elapsed, 1))
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    report(
                        event="error",
                        cell=index,
                        ename=output.get("ename", ""),
                        evalue=str(output.get("evalue", ""))[:300],
                    )
            mentioned = [n for n in names if n in cell.source]
            if mentioned:
                values = await _extract(client, mentioned, open_ids, cell_timeout)
                captured |= set(values)
                report(event="values", cell=index, values=values)
        rest = [n for n in names if n not in captured]
        if rest:  # assigned without being named in a cell (globals()[...] = ...)
            report(event="values", cell="end", values=await _extract(client, rest, open_ids, 60))
        report(event="done")


def main(argv: list[str]) -> int:
    config = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    asyncio.run(run(config))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
