"""Malicious submissions: one per attack class, graded in one run beside honest ones.

Each attack must leave every honest submission's grade and feedback byte-identical to a run
without the attacks, change nothing outside its sandbox (the checkout, the other submissions,
``--out``, the environment, a canary directory), leave no process behind, and get no point
it did not earn. The sandbox is bubblewrap: with ``CI=true`` a machine without it fails these
tests instead of skipping them (``.ci/run`` installs it).
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from _modules import ROOT, fixed_secret

from instructor.grading import grade as grader
from instructor.grading import sandbox, scoring
from instructor.student import student_version

IDS = ("04.1", "04.2", "04.3")
COURSE = next((ROOT / "notebooks").glob("04_*.ipynb"))
MARKER = "grade-attack-marker-7f3a"
#: small limits keep the suite quick on 2 cores
LIMITS = sandbox.Limits(memory=1536 * 1024**2, processes=64, tmp_size=64 * 1024**2)
#: where no cgroup can be made (a user's CI runner), the sandboxes run without one, as told
NO_CGROUP = sandbox.cgroups_available() is not None


def _edition(*answer_sources: str, edit=None) -> nbformat.NotebookNode:
    """Notebook 04's student edition, its markdown only (statements, headings, metadata: what
    the grader reads of it), then the given code cells: quick to run, graded as notebook 04."""
    nb = student_version(nbformat.read(COURSE, as_version=4), COURSE.stem)
    nb.cells = [c for c in nb.cells if c.cell_type == "markdown"]
    if edit:
        edit(nb)
    nb.cells += [nbformat.v4.new_code_cell(s) for s in ("import numpy as np", *answer_sources)]
    return nb


def _solved(edit=None, *tail: str) -> nbformat.NotebookNode:
    """The course's own notebook 04: every answer computed from its parameters (so right at
    the drawn ones), with an edit and cells appended."""
    nb = nbformat.read(COURSE, as_version=4)
    nb.metadata["choosing_epsilon"] = {"notebook": COURSE.stem}
    if edit:
        edit(nb)
    nb.cells += [nbformat.v4.new_code_cell(t) for t in tail]
    return nb


#: the points of notebook 04 (the scoring's parts)
TOTAL = f"{sum(p.max_points for i in IDS for p in scoring.score(i, {}, ...)):g}"


def _attacks(paths: dict[str, str]) -> dict[str, nbformat.NotebookNode]:
    checkout, subs, out, canary = paths["checkout"], paths["subs"], paths["out"], paths["canary"]
    site = paths["site"]
    host = [paths[k] for k in ("checkout", "subs", "home", "prefix", "base") if paths.get(k)]
    return {
        # the instructor's answers, by import and through the checkout
        "reads_answers": _edition(
            "import importlib, glob\n"
            "found = []\n"
            "try:\n    importlib.import_module('helpers.exercises.answers'); found.append('import')\n"
            "except ImportError:\n    pass\n"
            f"found += glob.glob({checkout!r} + '/**/answers/*.py', recursive=True)\n"
            "for top in ('/tmp', '/home', '/submission', '/grader', '/site', '/root', '/work'):\n"
            "    found += glob.glob(top + '/**/answers/nb04.py', recursive=True)\n"
            "assert not found, found"
        ),
        # another submission of the same folder
        "reads_others": _edition(
            f"import glob\nfound = glob.glob({subs!r} + '/*')\n"
            "for top in ('/tmp', '/home', '/submission', '/grader', '/root', '/work'):\n"
            "    found += glob.glob(top + '/**/*.ipynb', recursive=True)\n"
            "found = [f for f in found if not f.startswith('/submission/')]\n"
            "assert not found, found"
        ),
        # lines on every descriptor it can find, and the runner's through /proc
        "forges_values": _edition(
            "import os, json, glob\n"
            "line = json.dumps({'event': 'values', 'cell': 1, 'values': "
            "{'answer_04_1': {'t': 'float', 'v': '1.0'}}}) + '\\n'\n"
            "for fd in (0, 1, 2):\n"
            "    try:\n        os.write(fd, ('x ' + line).encode()); os.write(fd, line.encode())\n"
            "    except OSError:\n        pass\n"
            "leaked = []\n"
            "mine = {'/proc/self', f'/proc/{os.getpid()}'}\n"
            "paths = glob.glob('/proc/[0-9]*/fd/*') + glob.glob('/proc/[0-9]*/environ')\n"
            "for path in [p for p in paths if '/'.join(p.split('/')[:3]) not in mine]:\n"
            "    try:\n        open(path, 'a').write(line); leaked.append(path)\n"
            "    except OSError:\n        pass\n"
            "assert not leaked, leaked"
        ),
        # --out, the canary, the checkout and the environment (a .pth for every later kernel)
        "writes_outside": _edition(
            "import os, glob, site, sys\n"
            f"targets = [{out!r} + '/grades.csv', {canary!r} + '/pwned', {checkout!r} + '/pwned',\n"
            f"           {site!r} + '/evil.pth', '/opt/env/evil.pth', '/submission/x']\n"
            "targets += [p + '/evil.pth' for p in sys.path if p]\n"
            # bytecode beside a module, which the next kernel's import would run; a new
            # cache is also the one change the environment's snapshot lets pass
            "import errno, numpy\n"
            "cache = os.path.dirname(numpy.__file__) + '/__pycache__'\n"
            "tag = 'cpython-%d%d' % sys.version_info[:2]\n"
            "for name in ('evil.' + tag + '.pyc', 'evil.' + tag + '-pytest-8.4.2.pyc'):\n"
            "    target = cache + '/' + name\n"
            "    try:\n"
            "        os.makedirs(cache, exist_ok=True); open(target, 'wb').write(b'x')\n"
            "        leaked = target\n"
            "    except OSError as error:  # refused by the sandbox, not a folder that is absent\n"
            "        leaked = None if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM) else repr(error)\n"
            "    assert leaked is None, leaked\n"
            "wrote = []\n"
            "for target in targets:\n"
            "    try:\n        open(target, 'w').write('import os; os.system(\"touch /tmp/x\")'); wrote.append(target)\n"
            "    except OSError:\n        pass\n"
            "assert not wrote, wrote"
        ),
        # helpers that try to outlive the grader: setsid and a double fork
        "outlives": _solved(
            None,
            "import subprocess, os, sys\n"
            f"subprocess.Popen(['setsid', sys.executable, '-c', 'import time; time.sleep(600)', {MARKER!r}],\n"
            "                 start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
            "if os.fork() == 0:\n"
            "    if os.fork() == 0:\n"
            f"        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(600)', {MARKER!r}])\n"
            "    os._exit(0)\n",
        ),
        # values no float holds, and stranger ones
        "huge_values": _edition(
            "answer_04_1 = 10**400\n"
            "answer_04_2 = [[[[[[[[[[1]]]]]]]]]]\n"
            "class Evil:\n    def __float__(self):\n        raise SystemExit\n"
            "answer_04_3 = Evil()"
        ),
        "huge_int_string": _edition(
            "import sys\nsys.set_int_max_str_digits(0)\nanswer_04_1 = 10**20000"
        ),
        # output without end, and a file as large as the tmpfs allows
        "huge_output": _edition(
            "import sys, time\nend = time.monotonic() + 1\n"
            "while time.monotonic() < end:\n    print('x' * 100000)\n"
            "open('/tmp/big', 'wb').write(b'0' * 200 * 1024**2)"
        ),
        "memory_hog": _edition("hog = bytearray(5 * 1024**3)"),
        "fork_bomb": _edition(
            "import os, time\nchildren = 0\n"
            "for _ in range(10000):\n"
            "    try:\n        pid = os.fork()\n    except OSError:\n        break\n"
            "    if pid == 0:\n        time.sleep(30); os._exit(0)\n"
            "    children += 1\n"
            "print(children)"
        ),
        # metadata that claims the exercises of notebook 10, and answers one of them
        "adds_exercises": _edition(
            "answer_10_1 = 1.0\nanswer_04_1 = 0.0",
            edit=lambda nb: nb.metadata["choosing_epsilon"].update(
                exercises=["04.1", "10.1", "10.2", "99.1"]
            ),
        ),
        # honest answers, an edited statement
        "edits_statement": _solved(_edit_statement),
        # a new namespace (and with it a mount past the tmpfs limits), the calls a notebook
        # never makes, and the host's paths in the sandbox's own command line and config
        "escapes_sandbox": _edition(
            "import ctypes, subprocess\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "made = {\n"
            "    'unshare user': libc.unshare(0x10000000) == 0,\n"
            "    'unshare mount': libc.unshare(0x00020000) == 0,\n"
            "    'clone user': subprocess.run(['unshare', '-Ur', 'true']).returncode == 0,\n"
            "    'mount': libc.mount(b'none', b'/tmp', b'tmpfs', 0, None) == 0,\n"
            "    'ptrace': libc.ptrace(16, 1, None, None) == 0,\n"
            "    'keyctl': libc.syscall(250, 0, 0, 0, 0, 0) >= 0,\n"
            "    'bpf': libc.syscall(321, 0, 0, 0) >= 0,\n"
            "}\n"
            "seen = open('/proc/1/cmdline', 'rb').read().decode(errors='replace')\n"
            "seen += open('/proc/self/environ', 'rb').read().decode(errors='replace')\n"
            "seen += open('/opt/env/pyvenv.cfg').read()\n"
            "seen = seen.replace('/tmp/grade-kernel-', '')  # the sandbox's own /tmp\n"
            f"made['host paths'] = any(p in seen for p in ({checkout!r}, {subs!r}, '/tmp/grade-'))\n"
            "assert not any(made.values()), made"
        ),
        # every place a host path could show: the command lines and environments of the
        # sandbox's processes, the interpreter's own view, the mount table's mount points and
        # sources, and the environment's files that pip and venv write (the mount table's
        # root column is the kernel's, and the base interpreter's own files name where it was
        # built: INSTRUCTORS.md says so; neither is read here)
        "finds_host_paths": _edition(
            "import glob, os, sys\n"
            f"host = {host!r}\n"
            "found = {}\n"
            "def look(where, text):\n"
            "    for path in host:\n"
            "        if path in text:\n"
            "            found.setdefault(where, path)\n"
            "def read(path):\n"
            "    try:\n"
            "        if os.path.islink(path) or not os.path.isfile(path):\n"
            "            return ''\n"
            "        with open(path, 'rb') as handle:\n"
            "            return handle.read(2_000_000).decode('utf-8', 'replace')\n"
            "    except OSError:\n"
            "        return ''\n"
            "for path in glob.glob('/proc/[0-9]*/cmdline') + glob.glob('/proc/[0-9]*/environ'):\n"
            "    try:\n"
            "        look(path, open(path, 'rb').read().decode('utf-8', 'replace'))\n"
            "    except OSError:\n"
            "        pass\n"
            "look('environ', repr(dict(os.environ)))\n"
            "look('sys', repr([sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix,\n"
            "                  sys.base_exec_prefix, sys.path, getattr(sys, '_base_executable', ''),\n"
            "                  sys.orig_argv]))\n"
            "for line in open('/proc/self/mountinfo').read().splitlines():\n"
            "    fields = line.split(' ')\n"
            "    look('mount point', fields[4])\n"
            "    look('mount source', ' '.join(fields[fields.index('-') + 1:]))\n"
            "env = sys.prefix\n"
            "files = [env + '/pyvenv.cfg'] + glob.glob(env + '/bin/*')\n"
            "for pattern in ('*.pth', '*.py', '*.dist-info/*', '*.egg-info/*'):\n"
            "    files += glob.glob(env + '/lib/python*/site-packages/' + pattern)\n"
            "files += glob.glob(env + '/share/jupyter/kernels/*/kernel.json')\n"
            "for path in files:\n"
            "    look(path, read(path))\n"
            "assert len(files) > 20 and env == '/opt/env', (len(files), env)\n"
            "assert not found, found"
        ),
        # issue 51: socket buffers the memory bound does not count (loopback TCP included),
        # and watches on the shared environment that would show another sandbox's imports
        "network_and_watches": _edition(
            "import ctypes, os, socket\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "made = {}\n"
            "for name, family, kind, protocol in [('tcp', socket.AF_INET, socket.SOCK_STREAM, 0),\n"
            "        ('tcp6', socket.AF_INET6, socket.SOCK_STREAM, 0), ('udp', socket.AF_INET,\n"
            "        socket.SOCK_DGRAM, 0), ('netlink user', socket.AF_NETLINK, socket.SOCK_RAW, 2),\n"
            "        ('packet', getattr(socket, 'AF_PACKET', 17), socket.SOCK_RAW, 0)]:\n"
            "    try:\n        socket.socket(family, kind, protocol).close(); made[name] = True\n"
            "    except OSError:\n        made[name] = False\n"
            "made['inotify'] = libc.inotify_init1(0) >= 0\n"
            # a Unix socket's queue is not counted by cgroup v1 either: the kernel seals
            # itself once its channels are open (runner.seal_program), children included
            "for name, make in [('unix', lambda: socket.socket(socket.AF_UNIX)),\n"
            "        ('unix pair', socket.socketpair)]:\n"
            "    try:\n        make(); made[name] = True\n"
            "    except OSError:\n        made[name] = False\n"
            "import subprocess, sys\n"
            "child = subprocess.run([sys.executable, '-c', 'import socket; socket.socketpair()'])\n"
            "made['unix pair in a child'] = child.returncode == 0\n"
            "assert not any(made.values()), made"
        ),
        # memory held by several processes at once: each under the per-process limit, all
        # together over the sandbox's (a cgroup's), so one of them is stopped
        "memory_together": _edition(
            "import subprocess, sys, time\n"
            "hold = 'import sys, time; b = b\"1\" * (600 * 1024**2); print(1, flush=True); time.sleep(60)'\n"
            "ps = [subprocess.Popen([sys.executable, '-c', hold], stdout=subprocess.PIPE)\n"
            "      for _ in range(3)]\n"
            "held = [p.stdout.readline() == b'1\\n' for p in ps]\n"
            "alive = [p.poll() is None for p in ps]\n"
            "assert not all(held) or not all(alive), (held, alive)"
        ),
    }


def _edit_statement(nb):
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.startswith("**Exercise 1"):
            cell.source = cell.source.replace("10⁻⁹", "1")
            return
    raise AssertionError("no statement to edit")


HONEST = {
    "honest_full": lambda: _solved(),
    "honest_wrong": lambda: _solved(None, "answer_04_1 = 2 * answer_04_1"),
    "honest_blank": lambda: _edition(),
}


#: what the test run itself may add to the checkout's top level while the grader runs
TEST_RUN_FOLDERS = frozenset({".hypothesis", ".pytest_cache"})


def _env_changes(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """The environment's files changed, removed or added between two snapshots, except a
    bytecode cache added: the test's own processes write those while the grader runs (the
    other pytest-xdist worker's first import of a module, or pytest's assertion rewriting of
    a plugin's module: ``__pycache__/*.cpython-311-pytest-8.4.2.pyc``), at moments no test
    controls. A sandbox that could write one is caught by ``writes_outside``, which tries."""
    added = after.keys() - before.keys()
    # a bytecode cache, or one being written (Python's <name>.pyc.<id>, pytest's <pyc>.<pid>)
    cache = {k for k in added if Path(k).parent.name == "__pycache__" and ".pyc" in Path(k).name}
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)} - cache


def _snapshot(*directories: Path) -> dict[str, str]:
    found = {}
    for directory in directories:
        for path in sorted(directory.rglob("*")):
            if path.is_symlink():
                found[str(path)] = "link:" + os.readlink(path)
            elif path.is_file():
                try:
                    found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
                except FileNotFoundError:  # a cache's temporary file, renamed meanwhile
                    continue
    return found


def _marker_processes() -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if MARKER.encode() in (entry / "cmdline").read_bytes():
                    found.append(entry.name)
            except OSError:
                pass
    return found


def _results(out: Path) -> tuple[dict, dict]:
    with (out / "grades.csv").open(encoding="utf-8", newline="") as handle:
        rows = {row["submission"]: row for row in csv.DictReader(handle)}
    feedback = {p.stem: p.read_bytes() for p in (out / "feedback").glob("*.md")}
    return rows, feedback


@pytest.fixture(scope="module")
def runs(tmp_path_factory, student_site, sandbox_required):
    base = tmp_path_factory.mktemp("attacks")
    site = student_site
    secret = fixed_secret(base / "secret")
    canary = base / "canary"
    canary.mkdir()
    (canary / "keep").write_text("unchanged")
    common = dict(
        python=sys.executable,
        timeout=180,
        cell_timeout=60,
        jobs=2,
        limits=LIMITS,
        secret=secret,
        site=site,
        unsafe_no_cgroup=NO_CGROUP,
    )
    # without the attacks
    alone = base / "alone"
    alone.mkdir()
    for name, make in HONEST.items():
        nbformat.write(make(), alone / f"{name}.ipynb")
    grader.grade(alone, base / "out-alone", **common)
    # with them, the same honest files byte for byte
    subs = base / "subs"
    shutil.copytree(alone, subs)
    out = base / "out"
    paths = {
        "checkout": str(ROOT),
        "subs": str(subs),
        "out": str(out),
        "canary": str(canary),
        "site": str(site),
        "home": os.path.expanduser("~").rstrip("/") + "/",
        "prefix": sys.prefix,
        "base": "" if sys.base_prefix.startswith("/usr") else sys.base_prefix,
    }
    for name, nb in _attacks(paths).items():
        nbformat.write(nb, subs / f"{name}.ipynb")
    nbformat.write(_solved(), subs / "=1+1.ipynb")
    # links planted in --out by an earlier run: the grader must replace them, not follow them
    (out / "feedback").mkdir(parents=True)
    os.symlink(canary / "keep", out / "feedback" / "honest_full.md")
    os.symlink(canary / "keep", out / "grades.csv")
    watched = [canary, site, subs]
    before = _snapshot(*watched)
    env_before = _snapshot(Path(sys.prefix) / "lib")
    checkout_files = sorted(p.name for p in ROOT.iterdir())
    grader.grade(subs, out, **common)
    return {
        "alone": _results(base / "out-alone"),
        "with": _results(out),
        "changed": {
            k
            for k in before.keys() | _snapshot(*watched).keys()
            if before.get(k) != _snapshot(*watched).get(k)
        },
        "env_changed": _env_changes(env_before, _snapshot(Path(sys.prefix) / "lib")),
        "checkout_files": (checkout_files, sorted(p.name for p in ROOT.iterdir())),
        "out": out,
        "canary": canary,
    }


def test_honest_grades_and_feedback_are_byte_identical_beside_the_attacks(runs):
    rows_alone, feedback_alone = runs["alone"]
    rows_with, feedback_with = runs["with"]
    for name in HONEST:
        assert rows_with[name] == rows_alone[name]
        assert feedback_with[name] == feedback_alone[name]
    assert rows_alone["honest_full"]["total"] == TOTAL
    assert rows_alone["honest_blank"]["total"] == "0"


def test_nothing_outside_the_sandbox_changed(runs):
    assert runs["changed"] == set()
    assert runs["env_changed"] == set()
    before, after = (set(names) for names in runs["checkout_files"])
    # hypothesis keeps its caches in .hypothesis/ (made by the first test that draws text,
    # perhaps on the other worker while the grader runs): not the sandbox's doing
    assert after - before <= TEST_RUN_FOLDERS and before <= after
    assert (runs["canary"] / "keep").read_text() == "unchanged"
    assert not (runs["canary"] / "pwned").exists()
    # the planted links were replaced by files, not followed
    assert not (runs["out"] / "grades.csv").is_symlink()
    assert not (runs["out"] / "feedback" / "honest_full.md").is_symlink()


def test_the_environments_snapshot_lets_only_a_new_bytecode_cache_pass():
    before = {"/e/a.py": "1", "/e/__pycache__/a.cpython-311.pyc": "2"}
    new_cache = {"/e/__pycache__/b.cpython-311-pytest-8.4.2.pyc": "3"}
    assert _env_changes(before, before | new_cache) == set()
    assert _env_changes(before, before | {"/e/evil.pth": "4"}) == {"/e/evil.pth"}
    changed = before | {"/e/__pycache__/a.cpython-311.pyc": "5"}
    assert _env_changes(before, changed) == {"/e/__pycache__/a.cpython-311.pyc"}
    assert _env_changes(before, {"/e/a.py": "1"}) == {"/e/__pycache__/a.cpython-311.pyc"}
    assert _env_changes(before, before | {"/e/__pycache__/x.txt": "6"}) == {"/e/__pycache__/x.txt"}


def test_no_process_outlives_the_grader(runs):
    assert _marker_processes() == []


def test_attacks_score_nothing_they_did_not_earn(runs):
    rows, feedback = runs["with"]
    for name in (
        "reads_answers",
        "reads_others",
        "forges_values",
        "writes_outside",
        "escapes_sandbox",
        "finds_host_paths",
        "network_and_watches",
    ):
        assert rows[name]["total"] == "0", name
        # the sandbox held: the attack's own assertion passed (nothing found, nothing written)
        assert "AssertionError" not in feedback[name].decode(), name
    for name in ("huge_values", "huge_int_string", "huge_output", "memory_hog", "fork_bomb"):
        assert rows[name]["total"] == "0", name
        assert rows[name]["max"] == TOTAL, name
    assert rows["outlives"]["total"] == TOTAL  # its answers count; its helpers do not survive


def test_memory_is_bounded_for_the_whole_sandbox(runs):
    if NO_CGROUP:
        pytest.skip(sandbox.cgroups_available())
    _, feedback = runs["with"]
    text = feedback["memory_together"].decode()
    assert "AssertionError" not in text
    assert "reached its memory (for the whole sandbox)" in text


def test_huge_and_strange_values_are_a_cross_with_a_message(runs):
    _, feedback = runs["with"]
    text = feedback["huge_values"].decode()
    lines = [t for t in text.splitlines() if t.startswith("| 04.")]
    assert lines and all("✗" in t or "never assigned" in t for t in lines)
    assert "MemoryError" in feedback["memory_hog"].decode()


def test_the_course_decides_the_exercises_not_the_metadata(runs):
    rows, feedback = runs["with"]
    header = list(rows["honest_full"])
    assert header == ["student", "submission", "notebook", *IDS, "total", "max", "flag"]
    assert rows["adds_exercises"]["max"] == TOTAL
    assert "10.1" not in feedback["adds_exercises"].decode()


def test_an_edited_statement_is_flagged_and_costs_nothing(runs):
    rows, feedback = runs["with"]
    assert rows["edits_statement"]["total"] == TOTAL
    text = feedback["edits_statement"].decode()
    assert "## Edited statements" in text and "04.1" in text.split("## Edited statements")[1]
    assert "Edited statements" not in feedback["honest_full"].decode()


def test_a_formula_name_is_neither_a_formula_nor_a_path(runs):
    rows, _ = runs["with"]
    text = (runs["out"] / "grades.csv").read_text(encoding="utf-8")
    assert all(not line.startswith(("=", "+", "-", "@")) for line in text.splitlines())
    assert "1_1" in rows and rows["1_1"]["total"] == TOTAL


def test_csv_fields_are_escaped_against_formulas():
    assert grader.csv_field("=1+1") == "'=1+1"
    assert grader.csv_field("@SUM(A1)") == "'@SUM(A1)"
    assert grader.csv_field("-2") == "'-2" and grader.csv_field("\tx") == "'\tx"
    assert grader.csv_field("alice") == "alice" and grader.csv_field(3.0) == "3"
    assert grader.safe_name("=1+1") == "1_1"
    assert grader.safe_name("../../etc/passwd") == "etc_passwd"


def test_without_a_sandbox_the_grader_refuses_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "available", lambda: "bubblewrap is not installed (test)")
    with pytest.raises(RuntimeError, match=r"bubblewrap is not installed.*--unsafe-no-sandbox"):
        grader.grade(tmp_path, tmp_path / "out", python=sys.executable)
    assert not (tmp_path / "out").exists()


def test_the_sandbox_is_there_in_ci():
    if os.environ.get("CI") == "true":
        assert sandbox.available() is None
    elif sandbox.available() is not None:
        pytest.skip(sandbox.available())


def test_outputs_never_go_through_a_link(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, tmp_path / "linked")
    with pytest.raises(ValueError, match="is not a directory"):
        grader.Output(tmp_path / "linked" / "out")
    output = grader.Output(tmp_path / "out")
    os.symlink(elsewhere / "target", tmp_path / "out" / "grades.csv")
    os.symlink(elsewhere, tmp_path / "out" / "feedback")
    output.write("grades.csv", "a,b\n")
    with pytest.raises(ValueError, match="is not a directory"):
        output.write("x.md", "text", directory="feedback")
    output.close()
    assert (tmp_path / "out" / "grades.csv").read_text() == "a,b\n"
    assert not (tmp_path / "out" / "grades.csv").is_symlink()
    assert list(elsewhere.iterdir()) == []


# --- how each sandbox is bounded as a whole: cgroup v2, v1, systemd-run, or refused ----------
# (the real systemd-run cannot run here: no systemd is PID 1, no user manager; a fake on PATH
# records the command it is given and runs the sandbox as the real one does, by exec)


def _fake_systemd_run(directory: Path, *, works: bool = True) -> Path:
    """A ``systemd-run`` first on PATH: writes its arguments to ``args.txt`` beside it, then
    runs the command after ``--`` (or fails as one without a user manager does)."""
    directory.mkdir(exist_ok=True)
    log = directory / "args.txt"
    body = (
        f"printf '%s\\n' \"$@\" >> {str(log)!r}\n"
        'while [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n'
        if works
        else "echo 'Failed to connect to bus: No medium found' >&2\nexit 1\n"
    )
    fake = directory / "systemd-run"
    fake.write_text("#!/bin/sh\n" + body)
    fake.chmod(0o755)
    return log


@pytest.fixture
def no_cgroup_of_its_own(monkeypatch):
    """A machine where the grader can make no cgroup itself (a desktop user's)."""

    def refuse(memory, processes, versions=(2, 1), *, cpus=1.0):
        raise OSError("; ".join(f"v{v}: Permission denied (test)" for v in versions))

    monkeypatch.setattr(sandbox.Cgroup, "make", classmethod(lambda cls, *a, **k: refuse(*a, **k)))
    sandbox.bound_choice.cache_clear()
    yield
    sandbox.bound_choice.cache_clear()


def test_systemd_run_is_chosen_only_after_both_cgroups(tmp_path, monkeypatch, no_cgroup_of_its_own):
    log = _fake_systemd_run(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    how, why = sandbox.bound_choice()
    assert how == "systemd-run"
    assert why == "cgroup v2: Permission denied (test); cgroup v1: Permission denied (test)"
    probe = log.read_text().splitlines()
    assert probe[probe.index("--") + 1 :] == ["/bin/true"]
    assert sandbox.cgroups_available() is None


def test_without_cgroups_or_systemd_run_the_grader_refuses(
    tmp_path, monkeypatch, no_cgroup_of_its_own
):
    _fake_systemd_run(tmp_path / "bin", works=False)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    how, why = sandbox.bound_choice()
    assert how is None
    assert why.endswith("systemd-run: Failed to connect to bus: No medium found")
    monkeypatch.setattr(sandbox, "available", lambda: None)
    with pytest.raises(RuntimeError, match=r"No medium found.*--unsafe-no-cgroup"):
        grader.grade(tmp_path, tmp_path / "out", python=sys.executable)


def test_a_cgroup_of_its_own_comes_before_systemd_run(tmp_path, monkeypatch):
    log = _fake_systemd_run(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    made = []

    class Made:
        def remove(self):
            made.append("removed")

    def make(cls, memory, processes, versions=(2, 1), *, cpus=1.0):
        if versions == (2,):
            raise OSError("v2: no cgroup v2 here")
        return Made()

    monkeypatch.setattr(sandbox.Cgroup, "make", classmethod(make))
    sandbox.bound_choice.cache_clear()
    try:
        assert sandbox.bound_choice() == ("cgroup v1", "cgroup v2: no cgroup v2 here")
    finally:
        sandbox.bound_choice.cache_clear()
    assert made == ["removed"] and not log.exists()


@pytest.mark.parametrize("root", [False, True])
def test_the_systemd_scope_command_carries_the_limits(root):
    scope = sandbox.SystemdScope(3 * 1024**3, 77, user=not root)
    argv = scope.wrap(["/usr/bin/bwrap", "--args", "5", "--", "/opt/env/bin/python"])
    split = argv.index("--")
    options = argv[1:split]
    assert Path(argv[0]).name == "systemd-run"
    assert ("--user" in options) is (not root)
    assert {"--scope", "--quiet", "--collect", f"--unit={scope.unit}"} <= set(options)
    properties = [options[i + 1] for i, o in enumerate(options) if o == "-p"]
    assert properties == [
        f"MemoryMax={3 * 1024**3}",
        "MemorySwapMax=0",
        "TasksMax=77",
        "CPUQuota=100%",
    ]
    assert argv[split + 1 :] == ["/usr/bin/bwrap", "--args", "5", "--", "/opt/env/bin/python"]


def test_a_sandbox_runs_inside_the_systemd_scope(tmp_path, monkeypatch, sandbox_required):
    log = _fake_systemd_run(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("answer_04_1 = 0.25")]
    run = grader.run_notebook(
        nb,
        grader.Environment.of(sys.executable),
        timeout=120,
        cell_timeout=60,
        names=["answer_04_1"],
        open_ids={},
        limits=LIMITS,
        cgroup="systemd-run",
    )
    assert run.status == "done", run.log
    assert grader.decode(run.values["answer_04_1"]) == 0.25
    args = log.read_text().splitlines()
    assert f"MemoryMax={LIMITS.memory}" in args and f"TasksMax={LIMITS.processes}" in args
    assert Path(args[args.index("--") + 1]).name == "bwrap"


def test_the_cgroup_v2_path_writes_the_limits_where_delegated(tmp_path, monkeypatch):
    """cgroup v2's files, in a directory standing for /sys/fs/cgroup (this machine's v2 has
    only hugetlb: memory and pids are bound to v1, so no real v2 cgroup can bound them)."""
    own = tmp_path / "user.slice" / "grader.scope"
    own.mkdir(parents=True)
    (own / "cgroup.subtree_control").write_text("memory pids\n")
    monkeypatch.setattr(sandbox, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(sandbox, "_own_cgroup", lambda c: "/user.slice/grader.scope")
    (own / "cgroup.controllers").write_text("cpu memory pids\n")
    group = sandbox.Cgroup.make(5 * 1024**2, 9, versions=(2,), cpus=1.5)
    (directory,) = group.directories
    assert directory.parent == own and group.version == 2
    assert (directory / "memory.max").read_text() == str(5 * 1024**2)
    assert (directory / "pids.max").read_text() == "9"
    assert group.procs == [str(directory / "cgroup.procs")]
    # a real cgroup has cpu.max once the controller is on; here the file stands for it
    assert not group.cpu
    (own / "cgroup.subtree_control").write_text("cpu memory pids\n")
    real_mkdir = Path.mkdir

    def with_cpu(self, *args, **kwargs):
        real_mkdir(self, *args, **kwargs)
        (self / "cpu.max").write_text("max 100000")

    monkeypatch.setattr(Path, "mkdir", with_cpu)
    group = sandbox.Cgroup.make(5 * 1024**2, 9, versions=(2,), cpus=1.5)
    assert group.cpu and (group.directories[0] / "cpu.max").read_text() == "150000 100000"


def test_a_real_cgroup_gives_each_sandbox_a_cpu_group_of_its_own_with_a_quota():
    """Issue 51: a CPU hog slowed its honest neighbour ten-fold, the scheduler sharing the CPUs
    between processes. Each sandbox's cgroup now has its own CPU group (the scheduler shares
    between groups) with a quota of ``Limits.cpus``: read back from the kernel's own files
    (the sharing itself is the kernel's; no test here times it)."""
    try:
        group = sandbox.Cgroup.make(64 * 1024**2, 16, cpus=1.0)
    except OSError as error:
        if os.environ.get("CI") == "true" and sys.platform == "linux":
            raise
        pytest.skip(f"no cgroup can be made here: {error}")
    try:
        if not group.cpu:  # a fairness, not a safety: where no CPU controller is delegated
            pytest.skip("no CPU controller for the sandboxes' cgroups here")
        if group.version == 1:
            cpu = next(d for d in group.directories if (d / "cpu.cfs_quota_us").exists())
            assert (cpu / "cpu.cfs_quota_us").read_text().strip() == "100000"
            assert (cpu / "cpu.cfs_period_us").read_text().strip() == "100000"
        else:
            assert (group.directories[0] / "cpu.max").read_text().split() == ["100000", "100000"]
    finally:
        group.remove()


def test_the_grader_runs_through_run_py():
    """grade.py's runs are run.py's (one definition of each)."""
    from instructor.grading import run

    assert grader.run_notebook is run.run_notebook and grader.Environment is run.Environment
