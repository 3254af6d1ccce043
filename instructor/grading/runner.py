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

Nothing the kernel runs decides a value: the kernel sends plain data (:data:`ENCODE`), which
this process rebuilds and encodes again with its own copy of the code. An open exercise's
answer is reduced *here*, by the exercise's ``reduce`` from ``helpers.exercises`` imported
before the kernel starts (this process runs with ``-I`` from the read-only environment, so
nothing the submission does reaches that code); a function answer is called through a
:class:`Proxy` that sends the points to the kernel and gets the function's values back. The
grader judges the reduced numbers in its own process.
"""

from __future__ import annotations

import ast
import asyncio
import atexit
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

#: The encoding of a value as plain JSON: run inside the kernel (where the values live) and
#: again here, on what the kernel sent, so that only this process's encoding reaches the grader.
ENCODE = r"""
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
    fields = getattr(type(v), "__dataclass_fields__", None)
    if isinstance(fields, dict) and len(fields) <= 50:
        return {"t": "object", "type": kind,
                "v": {str(f): _enc(getattr(v, f, None), depth + 1) for f in fields}}
    return {"t": "other", "type": kind}
"""

#: Runs inside the kernel, in a fresh namespace: encodes the requested variables as JSON.
ENCODER = (
    ENCODE
    + r"""
import json as _json

_out = {}
for _name in names:
    if _name not in g:
        continue
    try:
        _out[_name] = _enc(g[_name])
    except Exception as _error:
        _out[_name] = {"t": "other", "type": f"unreadable ({type(_error).__name__})"}
result = _json.dumps(_out)
"""
)


#: Runs inside the kernel: the open exercise's function (``name``) on the points the grader
#: sends, its values back as float64 bytes; nothing else of the kernel's is asked for.
EVALUATOR = r"""
import base64 as _b64, json as _json
import numpy as _np

_f = g[name]
_P = _np.frombuffer(_b64.b64decode(p), dtype="<f8").reshape(shape)
_Q = _np.frombuffer(_b64.b64decode(q), dtype="<f8").reshape(shape)
_out = _np.empty(_P.size)
_bad = None
_i = 0
try:
    with _np.errstate(all="ignore"):
        if getattr(_f, "vectorized", False) is True:
            _a = _np.asarray(_f(_P, _Q))
            if _a.dtype.kind not in "fiu":
                _bad = {"i": 0, "type": type(_a.ravel()[0]).__name__ if _a.size else "array"}
            else:
                _out = _np.array(_np.broadcast_to(_a.astype(float), _P.shape)).ravel()
        else:
            for _i, (_x, _y) in enumerate(zip(_P.ravel().tolist(), _Q.ravel().tolist())):
                _v = _f(_x, _y)
                if isinstance(_v, _np.ndarray) and _v.size == 1 and _v.dtype.kind in "fiu":
                    _v = _v.reshape(()).item()
                if isinstance(_v, (bool, _np.bool_)) or not isinstance(
                    _v, (int, float, _np.integer, _np.floating)
                ):
                    _bad = {"i": _i, "type": type(_v).__name__}
                    if isinstance(_v, (str, bool, _np.bool_)) or _v is None:
                        _bad["v"] = _v if isinstance(_v, str) else None if _v is None else bool(_v)
                    break
                _out[_i] = float(_v)
    result = _json.dumps({"v": _b64.b64encode(_out.astype("<f8").tobytes()).decode(), "bad": _bad})
except Exception as _error:
    result = _json.dumps({"raised": type(_error).__name__, "message": str(_error)[:300], "i": _i})
"""


def _expression(names: list[str]) -> str:
    context = f"{{'g': globals(), 'names': {names!r}}}"
    return f"(lambda _d: (exec({ENCODER!r}, _d), _d['result'])[1])({context})"


def _evaluation(name: str, p: str, q: str, shape: list[int]) -> str:
    context = f"{{'g': globals(), 'name': {name!r}, 'p': {p!r}, 'q': {q!r}, 'shape': {shape!r}}}"
    return f"(lambda _d: (exec({EVALUATOR!r}, _d), _d['result'])[1])({context})"


def _runner_encoder():
    """This process's own ``_enc`` (the kernel's copy may have been changed; this one cannot)."""
    namespace: dict = {}
    exec(ENCODE, namespace)
    return namespace["_enc"]


def _type_name(name, default: str) -> str:
    """A name the kernel sent, usable as a class's name (no NUL; at most 100 characters)."""
    return str(name).replace("\0", "")[:100] or default


class _Stand:
    """What the kernel described but cannot send (an object of another type), by its name."""


def _stand_in(type_name: str, fields: dict | None = None):
    cls = type(_type_name(type_name, "object"), (_Stand,), {})
    made = cls()
    for key, value in (fields or {}).items():
        setattr(made, str(key), value)
    return made


def _plain(encoded, callable_as=None):
    """A value the kernel encoded, rebuilt here from plain data (an object as one of its type's
    name with the same fields; a function as ``callable_as()``); never raises."""
    import numpy as np

    if not isinstance(encoded, dict):
        return _stand_in("unreadable value")
    kind, value = encoded.get("t"), encoded.get("v")
    try:
        if kind == "ellipsis":
            return ...
        if kind == "none":
            return None
        if kind == "bool":
            return bool(value)
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(value)
        if kind == "str":
            return str(value)
        if kind in ("list", "tuple"):
            items = [_plain(v) for v in value]
            return items if kind == "list" else tuple(items)
        if kind == "dict":
            return {str(k): _plain(v) for k, v in value.items()}
        if kind == "array":
            dtype = {"f": float, "b": bool}.get(encoded["kind"], np.int64)
            flat = [float(v) if dtype is float else v for v in value]
            return np.array(flat, dtype=dtype).reshape(encoded["shape"])
        if kind == "callable" and callable_as is not None:
            return callable_as()
        if kind == "callable":
            return _stand_in("function")
        if kind == "object":
            return _stand_in(
                encoded.get("type", "object"), {k: _plain(v) for k, v in value.items()}
            )
        return _stand_in(str(encoded.get("type", "value")))
    except Exception as error:  # a value too large or too strange
        return _stand_in(f"unreadable value ({type(error).__name__})")


class Proxy:
    """The submission's function as the grader's code calls it: each call sends the points to
    the kernel, which calls the function there and sends back its values as float64 bytes.

    Declared ``vectorized`` (so a search sends whole blocks of points); the kernel calls the
    student's function on arrays only when the function itself says it is vectorized, else
    point by point with Python floats. What the search, the reduction and every check run on
    is this process's, imported before the first cell of the submission ran.
    """

    vectorized = True

    def __init__(self, evaluate):
        self._evaluate = evaluate  # (name, P, Q) -> the kernel's reply (a dict)

    def __call__(self, p, q):
        import base64

        import numpy as np

        scalar = np.ndim(p) == 0 and np.ndim(q) == 0
        P, Q = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(q, dtype=float))
        reply = self._evaluate(
            base64.b64encode(np.ascontiguousarray(P, dtype="<f8").tobytes()).decode(),
            base64.b64encode(np.ascontiguousarray(Q, dtype="<f8").tobytes()).decode(),
            list(P.shape),
        )
        if not isinstance(reply, dict):
            raise RuntimeError("the kernel did not say what the function returned")
        if "raised" in reply:
            error = type(_type_name(reply["raised"], "Exception"), (Exception,), {})
            raise error(str(reply.get("message", ""))[:300])
        bad = reply.get("bad")
        if isinstance(bad, dict):
            shown = bad.get("v") if "v" in bad else _stand_in(str(bad.get("type", "object")))
            if scalar:
                return shown
            raise TypeError(
                f"returned {shown!r} of type {str(bad.get('type'))[:100]}; a real number is "
                "expected at every (p, q)"
            )
        values = np.frombuffer(base64.b64decode(reply["v"]), dtype="<f8")
        if values.size != P.size:
            raise RuntimeError("the kernel sent back a different number of values")
        values = values.reshape(P.shape).astype(float)
        return float(values) if scalar else values


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


async def _ask(client, expression: str, timeout: float):
    """The kernel's answer to one silent expression, parsed here as JSON (None if it has none)."""
    msg_id = client.kc.execute(
        "", silent=True, store_history=False, user_expressions={"r": expression}
    )
    # The kernel answers its shell requests one at a time, in order: the reply to this probe
    # coming first means the request got none and will get none (a submission that broke the
    # kernel's reply, such as builtins.callable replaced, leaves it idle and silent; waiting
    # for the deadline held the notebook for two cell limits).
    probe = client.kc.kernel_info()
    deadline = time.monotonic() + timeout
    try:
        while True:
            reply = await client.kc.get_shell_msg(timeout=max(0.1, deadline - time.monotonic()))
            parent = reply["parent_header"].get("msg_id")
            if parent in (msg_id, probe):
                break
    except Exception:
        await client.km.interrupt_kernel()  # a function that does not return: stop it
        raise
    if parent == probe:
        raise RuntimeError("the kernel finished the request without answering it")
    found = reply["content"].get("user_expressions", {}).get("r", {})
    if found.get("status") != "ok":
        return None
    try:
        return json.loads(ast.literal_eval(found["data"]["text/plain"]))
    except Exception:  # not what the expression returns: the kernel's own doing
        return None


async def _extract(client, names, open_ids, opens, timeout) -> dict:
    """The values of ``names``, each encoded by this process from the plain data the kernel
    sent; an open exercise's answer reduced here by the exercise's own ``reduce`` (imported
    before the submission ran), a function called through a :class:`Proxy`."""
    sent = await _ask(client, _expression(names), timeout)
    if not isinstance(sent, dict):
        return {}
    enc = _runner_encoder()
    loop = asyncio.get_running_loop()
    values = {}
    for name in names:  # only the names asked for, each at most once
        if name not in sent:
            continue
        if name not in open_ids:
            values[name] = enc(_plain(sent[name]))
            continue
        deadline = time.monotonic() + timeout

        def evaluate(p, q, shape, name=name, deadline=deadline):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the function took longer than the cell's time limit")
            future = asyncio.run_coroutine_threadsafe(
                _ask(client, _evaluation(name, p, q, shape), left), loop
            )
            return future.result()

        answer = _plain(sent[name], callable_as=lambda evaluate=evaluate: Proxy(evaluate))
        spec = opens.get(open_ids[name])
        try:
            if spec is None:
                data = {"error": "this grader has no helpers to read the exercise with"}
            else:
                data = await asyncio.to_thread(spec.reduce, answer)
        except Exception as error:  # the student's function may raise anything
            data = {"error": f"{type(error).__name__}: {str(error)[:300]}"}
        values[name] = {"t": "reduced", "v": enc(data)}
    return values


#: The kernel's options for a graded run: no history database is written (history is never
#: graded). Figures are still rendered as in the lecture: a kernel told to render none
#: (``--InlineBackend.figure_formats=[]``) died in notebook 12's release dashboard under the
#: 2 GB address-space limit, so that saving (about 1 s of notebook 10's 3) is not taken.
KERNEL_OPTIONS = ("--HistoryManager.enabled=False",)


#: ``socket``, ``socketpair`` and ``seccomp``'s numbers and the audit architecture, by machine
#: (the kernel's ``asm/unistd_64.h`` and ``asm-generic/unistd.h``; ``sandbox.SYSCALLS`` holds
#: the same ``socket`` numbers, and a test holds the two tables to each other).
SEAL_CALLS = {
    "x86_64": (0xC000003E, {"socket": 41, "socketpair": 53, "seccomp": 317}),
    "aarch64": (0xC00000B7, {"socket": 198, "socketpair": 199, "seccomp": 277}),
}
_EPERM = 1


def seal_program(machine: str | None = None) -> bytes | None:
    """A second seccomp filter (classic BPF) the kernel loads on itself once its channels are
    open: ``socket`` and ``socketpair`` fail with EPERM, everything else is left to the
    sandbox's own filter (``sandbox.seccomp_program``). None for a machine it is not written
    for.

    Why: the sandbox's memory bound is a cgroup, and cgroup v1 does not count what a Unix
    socket queues. The sandbox's filter must let the kernel open its channels (Unix sockets,
    issue 51), so before this filter a submission could open hundreds of Unix socket pairs and
    fill each with about twice ``net.core.wmem_max``. After it, the kernel and every process
    it starts hold only the channels it had before the first cell ran. Layout: Linux's
    ``struct sock_filter`` and ``seccomp_data`` (``linux/filter.h``, ``linux/seccomp.h``).
    """
    import platform
    import struct

    found = SEAL_CALLS.get(machine or platform.machine())
    if found is None:
        return None
    arch, numbers = found
    ld, jeq, ret = 0x20, 0x15, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_RET|K
    allow, refuse = 0x7FFF0000, 0x00050000 | _EPERM  # SECCOMP_RET_ALLOW, RET_ERRNO|EPERM
    # another architecture's calls are the sandbox's filter's to kill: allowed here
    program = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, allow), (ld, 0, 0, 0)]
    program += [(jeq, 1, 0, numbers["socket"]), (jeq, 0, 1, numbers["socketpair"])]
    program += [(ret, 0, 0, refuse), (ret, 0, 0, allow)]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program)


#: The kernel's launcher where it seals itself: ``ipykernel_launcher``'s own steps (the
#: working folder off ``sys.path`` before any import, then the kernel application), with
#: :func:`seal_program`'s filter (hex, the first argument) loaded for all the kernel's threads
#: (``TSYNC``) when the first execute request arrives, before its code runs: every channel is
#: open by then (the heartbeat's, bound in a thread of its own, is waited for), and no code of
#: the notebook's runs but through an execute request (a widget's callback, a completion's
#: lookup read only what a cell defined). A kernel that cannot seal itself, or whose
#: ipykernel has no ``do_execute`` to guard, exits: the run is then reported as a dead
#: kernel, never run unsealed.
SEALED_LAUNCHER = """\
import sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
import ctypes, os, time
program, number = bytes.fromhex(sys.argv.pop(1)), int(sys.argv.pop(1))
from ipykernel.kernelapp import IPKernelApp

class Filter(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

def refuse(why):
    os.write(2, ("the kernel could not seal its sockets (" + why + "): exiting\\n").encode())
    os._exit(70)

def heartbeat_bound(app):
    beat = getattr(app, "heartbeat", None)
    socket = getattr(beat, "socket", None)
    try:
        return beat is None or bool(socket is not None and socket.last_endpoint)
    except Exception:
        return False

def seal(app):
    deadline = time.monotonic() + 60
    while not heartbeat_bound(app) and time.monotonic() < deadline:
        time.sleep(0.01)
    libc = ctypes.CDLL(None, use_errno=True)
    code = ctypes.create_string_buffer(program, len(program))
    fprog = Filter(len(program) // 8, ctypes.addressof(code))
    # PR_SET_NO_NEW_PRIVS (bubblewrap set it already), then SECCOMP_SET_MODE_FILTER with
    # SECCOMP_FILTER_FLAG_TSYNC: one filter for every thread, or none (a nonzero result)
    if libc.prctl(38, 1, 0, 0, 0) != 0:
        refuse("no_new_privs")
    if libc.syscall(ctypes.c_long(number), 1, 1, ctypes.byref(fprog)) != 0:
        refuse("seccomp")

class SealedKernelApp(IPKernelApp):
    def init_kernel(self):
        super().init_kernel()
        kernel, app, sealed = self.kernel, self, []
        run = getattr(kernel, "do_execute", None)
        if run is None:
            refuse("no do_execute")

        def do_execute(*args, **kwargs):
            if not sealed:
                seal(app)
                sealed.append(True)
            return run(*args, **kwargs)

        kernel.do_execute = do_execute

SealedKernelApp.launch_instance()
"""


def kernel_argv(seal: bool, machine: str | None = None) -> list[str]:
    """The kernel's command: the sealed launcher (:data:`SEALED_LAUNCHER`) where ``seal`` and
    the machine has a :func:`seal_program`, else ``ipykernel_launcher``; with
    :data:`KERNEL_OPTIONS`."""
    import platform

    program = seal_program(machine) if seal else None
    if program is None:
        start = ["-m", "ipykernel_launcher"]
    else:
        number = SEAL_CALLS[machine or platform.machine()][1]["seccomp"]
        start = ["-c", SEALED_LAUNCHER, program.hex(), str(number)]
    return [sys.executable, *start, "-f", "{connection_file}", *KERNEL_OPTIONS]


def _kernelspec_dir(seal: bool = False) -> str:
    """A kernel spec named python3 that starts *this* Python (first on JUPYTER_PATH) with
    :data:`KERNEL_OPTIONS`, sealed (:func:`kernel_argv`) where ``seal``."""
    root = tempfile.mkdtemp(prefix="grade-kernel-")
    spec = Path(root) / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": kernel_argv(seal),
                "display_name": "Python 3 (grading)",
                "language": "python",
            }
        )
    )
    return root


def _ipc_config():
    """The kernel's channels on Unix sockets in a fresh 0700 folder of the sandbox's own /tmp
    (ZeroMQ's ``ipc`` transport), never TCP: the sandbox may open no network socket at all,
    loopback included (``sandbox.SOCKET_FAMILIES``)."""
    from traitlets.config import Config

    folder = tempfile.mkdtemp(prefix="kernel-ipc-")
    # gone with the runner (the sandbox's /tmp goes anyway; unsandboxed, the host's would keep it)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(folder, "k")}})


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


def _open_exercises(config: dict) -> dict:
    """The open exercises' table, imported by this process before the kernel starts, from the
    read-only environment (``config["path"]`` first; this process runs with ``-I``): nothing
    the submission does later can change the code that reduces its answers."""
    sys.path[:0] = [p for p in config.get("path", []) if p not in sys.path]
    try:
        from helpers.exercises import OPEN
    except ImportError:
        return {}
    return dict(OPEN)


def _skip_slow_optional_imports() -> None:
    """Refuse the import of ``rfc3987_syntax``, which ``jsonschema`` (imported by nbformat)
    tries for its "iri" format check and which builds a grammar at import (a second of each
    submission's time): nbformat's schemas use no ``format``, and jsonschema goes on without
    it (it catches the ImportError)."""
    sys.modules.setdefault("rfc3987_syntax", None)


async def run(config: dict, report: Report) -> None:
    _skip_slow_optional_imports()
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
    opens = _open_exercises(config) if open_ids else {}
    os.environ["JUPYTER_PATH"] = _kernelspec_dir(config.get("seal", False))
    client = _client_class()(
        nb,
        config=_ipc_config(),
        timeout=cell_timeout,
        kernel_name="python3",
        allow_errors=True,
        interrupt_on_timeout=True,
        record_timing=False,
        iopub_timeout=5,
        raise_on_iopub_timeout=False,
        startup_timeout=300,
        shutdown_kernel="immediate",  # the sandbox goes at the end: no polite wait for it
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
                    values = await _extract(client, mentioned, open_ids, opens, cell_timeout)
                except Exception as error:  # a kernel that does not answer in time
                    report(event="unanswered", cell=index, message=type(error).__name__)
                    continue
                captured |= set(values)
                report(event="values", cell=index, values=values)
        rest = [n for n in names if n not in captured]
        if rest:  # assigned without being named in a cell (globals()[...] = ...)
            try:
                values = await _extract(client, rest, open_ids, opens, max(60, cell_timeout))
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
