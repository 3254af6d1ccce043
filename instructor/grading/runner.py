"""Run one submitted notebook inside the grader's sandbox; report its answers' values.

    python -I runner.py < CONFIG.json

Started by ``instructor/grading/grade.py`` *inside* the bubblewrap sandbox
(``instructor/grading/sandbox.py``) with the Python of the grading environment (the
reader's), as a script: it needs only nbformat and nbclient, not ``helpers``. It reads its
config from standard input (never a file the kernel could read), sets the sandbox's limits on
itself (the kernel inherits them), makes itself undumpable (so the kernel, the same user in the
same sandbox, cannot open its memory or its file descriptors through ``/proc``) and starts a
fresh kernel with standard input and output on ``/dev/null`` (so the kernel holds no
descriptor of the channel to the grader). It executes the notebook cell by cell
(``allow_errors``: a cell that raises is recorded and the next one runs; a cell past its time
limit is interrupted, and if it is still running a few seconds later the kernel is killed).
After every cell that names an answer variable it reads those variables' values *from the
kernel* (a silent ``user_expressions`` request, never the printed text) and writes them to its
standard output, one JSON line per event, each line opened by the per-run nonce the grader
sent in the config. The grader reads only those lines: the kernel decides its own answers
(that is what it is graded on) but cannot write a line the grader accepts, for its own
submission or any other.

Open exercises are reduced to plain numbers inside the kernel (``helpers.exercises._open``,
loaded afresh from the read-only environment, not the module the kernel may have patched: a
function cannot leave the kernel); the grader decides from those numbers in its own process.
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

def _fresh_open():
    # the open exercises' table imported afresh, from the environment's own path with the
    # standard finders: not the modules, finders or path entries the kernel may have patched
    import sys as _sys
    _mine = lambda k: k == "helpers" or k.startswith("helpers.")
    _saved = {k: v for k, v in _sys.modules.items() if _mine(k)}
    _state = (_sys.meta_path[:], _sys.path[:], _sys.path_hooks[:], dict(_sys.path_importer_cache))
    try:
        for _k in _saved:
            del _sys.modules[_k]
        _sys.meta_path[:] = [f for f in _state[0] if getattr(f, "__module__", "") in
                             ("_frozen_importlib", "_frozen_importlib_external")]
        _sys.path[:] = list(clean_path)
        _sys.path_importer_cache.clear()
        import importlib as _il
        return _il.import_module("helpers.exercises").OPEN
    finally:
        for _k in [k for k in _sys.modules if _mine(k)]:
            del _sys.modules[_k]
        _sys.modules.update(_saved)
        _sys.meta_path[:], _sys.path[:], _sys.path_hooks[:] = _state[:3]
        _sys.path_importer_cache.clear()
        _sys.path_importer_cache.update(_state[3])

_out = {}
for _name in names:
    if _name not in g:
        continue
    _value = g[_name]
    if _name in open_ids and _value is not Ellipsis:
        try:
            _open = _fresh_open()
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
    context = (
        f"{{'g': globals(), 'names': {names!r}, 'open_ids': {open_ids!r}, "
        f"'clean_path': {sys.path!r}}}"
    )
    return f"(lambda _d: (exec({ENCODER!r}, _d), _d['result'])[1])({context})"


class Report:
    """One JSON line per event on standard output, opened by the run's nonce, flushed at once
    (the sandbox may be killed at any moment)."""

    def __init__(self, nonce: str):
        self.nonce = nonce
        self.out = os.fdopen(os.dup(1), "w", encoding="utf-8")

    def __call__(self, **event) -> None:
        self.out.write(self.nonce + " " + json.dumps(event) + "\n")
        self.out.flush()


def limit_myself(limits: dict) -> None:
    """The sandbox's limits, set on this process before the kernel starts (it inherits them).

    Inside the sandbox's own user namespace, so the process count is this sandbox's alone.
    """
    import resource

    for name, value in limits.items():
        which = getattr(resource, name, None)
        if which is None or value is None:
            continue
        try:
            resource.setrlimit(which, (int(value), int(value)))
        except (ValueError, OSError):
            pass  # a platform without that limit; the sandbox still bounds the run


def undumpable() -> None:
    """PR_SET_DUMPABLE 0: a process of the same user cannot ptrace this one or open its
    /proc/PID/{mem,fd,environ} (the kernel, a child started by exec, is dumpable again)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")


async def _extract(client, names, open_ids, timeout) -> dict:
    msg_id = client.kc.execute(
        "",
        silent=True,
        store_history=False,
        user_expressions={"r": _expression(names, open_ids)},
    )
    deadline = time.monotonic() + timeout
    while True:
        reply = await client.kc.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    found = reply["content"].get("user_expressions", {}).get("r", {})
    if found.get("status") != "ok":
        return {"__error__": f"{found.get('ename')}: {found.get('evalue')}"}
    values = json.loads(ast.literal_eval(found["data"]["text/plain"]))
    # only the names asked for, each at most once: the reply cannot add another
    return {n: values[n] for n in names if isinstance(values, dict) and n in values}


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


def _client_class():
    from nbclient import NotebookClient

    class Client(NotebookClient):
        """Keeps only the errors of each cell: printed output is never graded, and a cell
        that prints without end must not fill the runner's memory."""

        def output(self, outs, msg, display_id, cell_index):
            if msg["msg_type"] != "error":
                return None
            content = msg["content"]
            outs.append(
                {
                    "output_type": "error",
                    "ename": str(content.get("ename", ""))[:200],
                    "evalue": str(content.get("evalue", ""))[:500],
                    "traceback": [str(t)[:2000] for t in content.get("traceback", [])[-30:]],
                }
            )
            return None

    return Client


def _offending_line(traceback: list[str]) -> str:
    """The line of the cell that raised, from IPython's traceback (``----> 3 x = 1/0``)."""
    import re

    plain = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(traceback))
    for line in plain.splitlines():
        match = re.match(r"^-+>\s*(\d+)\s?(.*)$", line)
        if match:
            return f"line {match.group(1)}: {match.group(2).strip()}"[:300]
    return ""


async def run(config: dict, report: Report) -> None:
    import nbformat
    from nbclient.exceptions import DeadKernelError

    names, open_ids = config["names"], config["open_ids"]
    cell_timeout = config["cell_timeout"]
    grace = config.get("kill_grace", 10)
    try:
        nb = nbformat.read(config["notebook"], as_version=4)
    except Exception as error:  # not JSON, not a notebook
        report(event="unreadable", message=f"{type(error).__name__}: {str(error)[:300]}")
        return
    os.environ["JUPYTER_PATH"] = _kernelspec_dir()
    client = _client_class()(
        nb,
        timeout=cell_timeout,
        kernel_name="python3",
        allow_errors=True,
        interrupt_on_timeout=True,
        record_timing=False,
        iopub_timeout=5,
        raise_on_iopub_timeout=False,
        startup_timeout=300,
        resources={"metadata": {"path": config["cwd"]}},
    )
    captured: set[str] = set()
    devnull = os.open(os.devnull, os.O_RDWR)
    async with client.async_setup_kernel(stdin=devnull, stdout=devnull, stderr=devnull):
        report(event="started")
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            start = time.monotonic()
            try:
                await asyncio.wait_for(
                    client.async_execute_cell(cell, index), timeout=cell_timeout + grace
                )
            except DeadKernelError as error:
                # past the cell's limit: nbclient interrupted it and then gave up on the kernel
                late = time.monotonic() - start >= cell_timeout
                report(event="killed" if late else "died", cell=index, message=str(error)[:300])
                return
            except (asyncio.TimeoutError, TimeoutError):
                # past its limit and deaf to the interrupt: the kernel goes, and the cells
                # after this one cannot run without the state it held
                report(event="killed", cell=index, seconds=round(time.monotonic() - start, 1))
                await client.km.shutdown_kernel(now=True)
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
                        line=_offending_line(output.get("traceback", [])),
                    )
            mentioned = [n for n in names if n in cell.source]
            if mentioned:
                try:
                    values = await _extract(client, mentioned, open_ids, cell_timeout)
                except Exception as error:  # a kernel that does not answer in time
                    report(event="unanswered", cell=index, message=type(error).__name__)
                    continue
                captured |= set(values)
                report(event="values", cell=index, values=values)
        rest = [n for n in names if n not in captured]
        if rest:  # assigned without being named in a cell (globals()[...] = ...)
            try:
                values = await _extract(client, rest, open_ids, 60)
            except Exception as error:
                report(event="unanswered", cell="end", message=type(error).__name__)
            else:
                report(event="values", cell="end", values=values)
        report(event="done")


def main() -> int:
    config = json.loads(sys.stdin.readline())
    sys.stdin.close()
    os.close(0)
    report = Report(config["nonce"])
    # the kernel gets no descriptor of the channel: fd 1 now points to /dev/null, and the
    # report writes to its own duplicate, closed on exec
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    limit_myself(config.get("limits", {}))
    undumpable()
    try:
        asyncio.run(run(config, report))
    except Exception as error:
        report(event="crashed", message=f"{type(error).__name__}: {str(error)[:500]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
