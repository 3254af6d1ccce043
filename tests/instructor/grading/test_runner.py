"""Values read out of reach: a submission that tampers with the machinery scores what its
honest twin (the same answer, no tampering) scores, to the point.

Each hostile submission answers notebook 06's open exercise 06.3 wrongly (``None``, or a
function that bounds nothing) and tampers with one class of what reads or reduces a value
inside the kernel: the serialisation (``json``, ``base64``), the imports (``sys.modules``),
an import hook (``sys.meta_path``, ``sys.path_hooks``, a shadowing ``helpers`` on the path),
the builtins (``exec``, ``callable``, ``isinstance``) and the ``helpers`` package itself
(the open exercises' table, the search and the risk bound). Each forges what the grader read
before (a reduced 06.3 that passes: ε = 1.0986, worst posterior 0.5). The grade of every one
must equal its honest twin's, exercise by exercise; a right profile beside them shows that
the function is still called and judged.
"""

from __future__ import annotations

import csv
import json
import platform
import struct
import sys

import nbformat
import numpy as np
import pytest
from _modules import ROOT, fixed_secret

from helpers.exercises import OPEN
from instructor.grading import grade as grader
from instructor.grading import runner, sandbox
from instructor.student import student_version

COURSE = next((ROOT / "notebooks").glob("06_*.ipynb"))
LIMITS = sandbox.Limits(memory=1536 * 1024**2, processes=64, tmp_size=64 * 1024**2)

#: what the old reader accepted as a passing 06.3 (the conditions, not a profile)
FORGED = (
    '{"answer_06_3": {"t": "reduced", "v": {"t": "dict", "v": {"epsilon": '
    '{"t": "float", "v": "1.0986"}, "worst": {"t": "float", "v": "0.5"}}}}}'
)
PASSING = "{'epsilon': 1.0986, 'worst': 0.5}"
SHADOW = f"class _O:\n    reduce = staticmethod(lambda a: {PASSING})\nOPEN = {{'06.3': _O()}}\n"
NONE = "answer_06_3 = None"
FLAT = "answer_06_3 = lambda p, q: 1.0  # r* = 1: only ε = 0, wrong"

TAMPERING = {
    "serialisation": (
        "import json, base64\n"
        f"FORGED = {FORGED!r}\n"
        "real_dumps, real_b64 = json.dumps, base64.b64encode\n"
        "def dumps(obj, *args, **kwargs):  # only what reads the answers: the kernel still talks\n"
        "    if isinstance(obj, dict) and ('answer_06_3' in obj or 'v' in obj):\n"
        "        return FORGED\n"
        "    return real_dumps(obj, *args, **kwargs)\n"
        "json.dumps = dumps\n"
        "base64.b64encode = lambda b: real_b64(b'\\0' * len(b))  # values of 0.0\n"
    ),
    "imports": (
        "import sys, types\n"
        "from helpers import kazan_reiter as kr\n"
        "fake = types.SimpleNamespace(epsilon=1.0986, p=0.5, q=0.5)\n"
        "kr.argmin_epsilon = lambda *a, **k: fake\n"
        "kr.relative_risk_bound = lambda p, q, e: 0.5 / (p * q)\n"
        "for name in [m for m in sys.modules if m.startswith('helpers.kazan_reiter')]:\n"
        "    setattr(sys.modules[name], 'argmin_epsilon', kr.argmin_epsilon)\n"
        "sys.modules['json'] = types.SimpleNamespace(dumps=lambda *a, **k: "
        f"{FORGED!r}, loads=__import__('json').loads)\n"
    ),
    "import_hooks": (
        "import sys, types, importlib.abc, importlib.util, os\n"
        "class Forger(importlib.abc.MetaPathFinder, importlib.abc.Loader):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith('helpers') or name in ('json', 'base64'):\n"
        "            return importlib.util.spec_from_loader(name, self)\n"
        "    def create_module(self, spec):\n"
        "        return None\n"
        "    def exec_module(self, module):\n"
        "        class Open:\n"
        f"            reduce = staticmethod(lambda answer: {PASSING})\n"
        "        module.OPEN = {'06.3': Open()}\n"
        f"        module.dumps = lambda *a, **k: {FORGED!r}\n"
        "        module.__path__ = []\n"
        f"SHADOW = {SHADOW!r}\n"
        "sys.meta_path.insert(0, Forger())\n"
        "sys.path_hooks.insert(0, lambda path: Forger())\n"
        "sys.path_importer_cache.clear()\n"
        "for name in [m for m in sys.modules if m.startswith('helpers') or m == 'json']:\n"
        "    del sys.modules[name]\n"
        "shadow = os.path.expanduser('~/shadow/helpers/exercises')\n"
        "os.makedirs(shadow, exist_ok=True)\n"
        "open(os.path.join(shadow, '..', '__init__.py'), 'w').close()\n"
        "open(os.path.join(shadow, '__init__.py'), 'w').write(SHADOW)\n"
        "sys.path.insert(0, os.path.expanduser('~/shadow'))\n"
        "os.makedirs(os.path.expanduser('~/.local/lib'), exist_ok=True)\n"
    ),
    "builtins": (
        "import builtins\n"
        "real_exec = builtins.exec\n"
        "def exec(code, scope=None, *rest):\n"
        "    real_exec(code, scope, *rest)\n"
        "    if type(scope) is dict and 'names' in scope:  # the reader's namespace\n"
        f"        scope['result'] = {FORGED!r}\n"
        "builtins.exec = exec\n"
        "builtins.callable = lambda value: True\n"
    ),
    "helpers_package": (
        "import helpers.exercises as ex, helpers.exercises._open as op\n"
        "from helpers import kazan_reiter as kr\n"
        f"op._profile_reduce = lambda answer: {PASSING}\n"
        "op.AGENCY_PROFILE.reduce = op._profile_reduce\n"
        f"ex.OPEN['06.3'].reduce = lambda answer: {PASSING}\n"
        f"op.OPEN['06.3'].judge = lambda data, params=None: (True, '')\n"
        "kr.argmin_epsilon = lambda *a, **k: type('R', (), {'epsilon': 1.0986})()\n"
    ),
}


def _edition(*sources: str) -> nbformat.NotebookNode:
    """Notebook 06's student edition, its markdown only, then the given code cells."""
    nb = student_version(nbformat.read(COURSE, as_version=4), COURSE.stem)
    nb.cells = [c for c in nb.cells if c.cell_type == "markdown"]
    nb.cells += [nbformat.v4.new_code_cell(s) for s in ("import numpy as np", *sources)]
    return nb


RIGHT = "answer_06_3 = lambda p, q: max(0.5 / (p * q), 5.0)"
SUBMISSIONS = {
    "twin": _edition(FLAT),
    "right": _edition(RIGHT),
    # the function is called after the tampering (the search asks the kernel for values)
    **{f"tamper_{k}": _edition(v, FLAT) for k, v in TAMPERING.items()},
    # an answer that is not a function, after the serialisation is forged
    "tamper_serialisation_none": _edition(TAMPERING["serialisation"], NONE),
}


@pytest.fixture(scope="module")
def out(tmp_path_factory, student_site, sandbox_required):
    folder = tmp_path_factory.mktemp("tamper")
    for name, nb in SUBMISSIONS.items():
        nbformat.write(nb, folder / f"{name}.ipynb")
    out = tmp_path_factory.mktemp("tamper-out")
    grader.grade(
        folder,
        out,
        python=sys.executable,
        site=student_site,
        secret=fixed_secret(tmp_path_factory.mktemp("secret") / "secret"),
        timeout=240,
        cell_timeout=120,
        jobs=2,
        limits=LIMITS,
        unsafe_no_cgroup=sandbox.cgroups_available() is not None,
    )
    return out


@pytest.fixture(scope="module")
def rows(out):
    with (out / "grades.csv").open(encoding="utf-8", newline="") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def test_every_submission_runs_to_its_end(out, rows):
    """A kernel the tampering left unable to reply (builtins.callable replaced breaks its
    reply) is read as not answering, not waited on until the notebook's limit. (``rows``:
    under pytest-xdist's loadgroup, conftest's BUILT_ONCE keeps the tests that use it on one
    worker, so this one shares their run instead of grading the class again.)"""
    assert set(rows) == set(SUBMISSIONS)
    for name in SUBMISSIONS:
        text = (out / "feedback" / f"{name}.md").read_text(encoding="utf-8")
        assert "in a fresh kernel (done)" in text, (name, text)


def _points(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in ("student", "submission")}


def test_a_right_profile_is_still_called_and_scores(rows):
    assert rows["right"]["06.3"] == "1"
    assert rows["twin"]["06.3"] == "0"


@pytest.mark.parametrize("tampering", [*sorted(TAMPERING), "serialisation_none"])
def test_tampering_scores_what_the_honest_twin_scores(rows, tampering):
    assert _points(rows[f"tamper_{tampering}"]) == _points(rows["twin"])


def _through_proxy(function):
    """``function`` as the runner calls it: each call through the kernel-side evaluator
    (run here on the encoded points), the values back as bytes."""
    from instructor.grading.runner import EVALUATOR, Proxy

    def evaluate(p, q, shape):
        scope = {"g": {"f": function}, "name": "f", "p": p, "q": q, "shape": shape}
        exec(EVALUATOR, scope)
        return json.loads(scope["result"])

    return Proxy(evaluate)


def _vectorized(p, q):
    return np.maximum(0.5 / (p * q), 5.0)


_vectorized.vectorized = True

PROFILES = {
    "right": lambda p, q: max(0.5 / (p * q), 5.0),
    "right, vectorized": _vectorized,
    "flat": lambda p, q: 1.0,
    "too loose": lambda p, q: 50.0,
    "a string": lambda p, q: "3",
    "a bool": lambda p, q: True,
    "raises": lambda p, q: 1 / 0,
    "None somewhere": lambda p, q: None if p > 0.9 else 5.0,
}


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_a_function_called_through_the_proxy_is_judged_as_itself(name):
    function = PROFILES[name]
    spec = OPEN["06.3"]
    direct = spec.judge(spec.reduce(function))
    proxied = spec.judge(spec.reduce(_through_proxy(function)))
    assert proxied[0] == direct[0]
    assert proxied[0] == name.startswith("right")


# --- the kernel's seal: once its channels are open, a graded kernel opens no socket of any
# kind (issue 51: cgroup v1 does not count what a Unix socket queues, so a submission that could
# make socket pairs could hold memory past the sandbox's bound) ---------------------------------

SEALABLE = sys.platform == "linux" and platform.machine() in runner.SEAL_CALLS


def test_the_seal_and_the_sandbox_name_the_same_socket_call_and_architecture():
    for machine, (arch, numbers) in runner.SEAL_CALLS.items():
        sandbox_arch, sandbox_numbers = sandbox.SYSCALLS[machine]
        assert arch == sandbox_arch
        assert numbers["socket"] == sandbox_numbers["socket"]


@pytest.mark.parametrize("machine", sorted(runner.SEAL_CALLS))
def test_the_seal_refuses_socket_and_socketpair_and_allows_the_rest(machine):
    """The filter read as the kernel reads it: a small interpreter of the five instructions
    it uses, run on each call number of interest."""
    arch, numbers = runner.SEAL_CALLS[machine]
    code = runner.seal_program(machine)
    program = [struct.unpack("=HBBI", code[i : i + 8]) for i in range(0, len(code), 8)]

    def verdict(nr, audit_arch=arch):
        data = {0: nr, 4: audit_arch}
        pc, acc = 0, None
        while True:
            op, jt, jf, k = program[pc]
            if op == 0x20:
                acc = data[k]
            elif op == 0x15:
                pc += jt if acc == k else jf
            elif op == 0x06:
                return k
            pc += 1

    refused, allowed = 0x00050001, 0x7FFF0000
    assert verdict(numbers["socket"]) == refused
    assert verdict(numbers["socketpair"]) == refused
    for other in (0, 1, numbers["seccomp"], numbers["socket"] + 1000):
        assert verdict(other) == allowed
    # another architecture's calls are the sandbox's own filter's to kill
    assert verdict(numbers["socket"], audit_arch=0x40000003) == allowed


def test_no_seal_for_a_machine_it_is_not_written_for():
    assert runner.seal_program("riscv64") is None
    assert runner.kernel_argv(True, "riscv64")[1:3] == ["-m", "ipykernel_launcher"]
    assert runner.kernel_argv(False)[1:3] == ["-m", "ipykernel_launcher"]


@pytest.mark.skipif(not SEALABLE, reason="the seal is written for Linux on x86-64 and arm64")
def test_a_sealed_kernel_runs_cells_and_opens_no_socket_nor_do_its_children(monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("JUPYTER_PATH", runner._kernelspec_dir(True))
    tries = (
        "import socket, subprocess, sys\n"
        "made = {}\n"
        "for name, make in [('unix', lambda: socket.socket(socket.AF_UNIX)),\n"
        "        ('unix pair', socket.socketpair), ('tcp', socket.socket)]:\n"
        "    try:\n        make(); made[name] = True\n"
        "    except PermissionError:\n        made[name] = False\n"
        "child = subprocess.run([sys.executable, '-c', 'import socket; socket.socketpair()'])\n"
        "made['a child'] = child.returncode == 0\n"
        "print(sorted(made.items()))"
    )
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(tries), nbformat.v4.new_code_cell("print(6 * 7)")]
    )
    client = NotebookClient(nb, kernel_name="python3", timeout=120, config=runner._ipc_config())
    client.execute()
    said = [output["text"] for cell in nb.cells for output in cell.outputs]
    expected = [("a child", False), ("tcp", False), ("unix", False), ("unix pair", False)]
    assert said == [f"{expected}\n", "42\n"]
