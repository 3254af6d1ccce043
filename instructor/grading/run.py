"""Running one submitted notebook for the grader: its kernel's environment, the sandbox's
command and the runner's report (``course.py grade`` calls :func:`run_notebook`).

The grading environment (``build/grade-env``, made once from the student bundle by
:func:`ensure_grade_env`) is what the kernel runs in; :func:`run_notebook` stages the
notebook, starts ``runner.py`` inside a bubblewrap sandbox of its own (``sandbox.py``) and
reads back only the lines that carry the run's nonce (:class:`Run`).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import venv
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from . import sandbox

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("runner.py")
BUNDLE = ROOT / "build" / "student"
GRADE_ENV = ROOT / "build" / "grade-env"
PARAMETERS_TAG, INJECTED_TAG, WRITTEN_TAG = "parameters", "injected-parameters", "written"


# --- running one notebook in its sandbox ---------------------------------------------------


@dataclass
class Run:
    """What the runner reported about one submission."""

    values: dict = field(default_factory=dict)
    events: list = field(default_factory=list)
    status: str = "done"  # done | timed out | died | unreadable | crashed | refused
    seconds: float = 0.0
    log: str = ""


@dataclass(frozen=True)
class Environment:
    """The kernel's Python: its environment's prefix, its base Python's, the path between."""

    prefix: str
    base_prefix: str
    executable: str  #: relative to ``prefix``
    version: tuple = ()  #: its Python's (major, minor, micro)
    #: the interpreter's own file (links resolved), relative to ``base_prefix``
    base_executable: str = ""
    shared: bool = False  #: libpython is a shared library (in ``base_prefix``/lib)
    #: files of the environment that name a host path: (path relative to ``prefix``, the
    #: file's bytes with those paths made neutral), bound over the originals in the sandbox
    overlays: tuple = ()

    @classmethod
    def of(cls, python: str) -> Environment:
        probe = subprocess.run(
            [
                python,
                "-I",
                "-c",
                "import sys, json, os, sysconfig; print(json.dumps([sys.prefix, "
                "sys.base_prefix, sys.executable, sys.version_info[:3], os.path.realpath("
                "getattr(sys, '_base_executable', sys.executable)), "
                "bool(sysconfig.get_config_var('Py_ENABLE_SHARED'))]))",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        prefix, base, executable, version, base_executable, shared = json.loads(probe.stdout)
        relative = os.path.relpath(os.path.abspath(python), prefix)
        if relative.startswith(".."):
            relative = os.path.relpath(executable, prefix)
        return cls(
            prefix,
            base,
            relative,
            tuple(version),
            os.path.relpath(base_executable, base),
            shared,
            neutral_overlays(Path(prefix), _host_paths(prefix, base)),
        )

    @property
    def base_inside(self) -> str:
        """Where the base Python is inside the sandbox: ``/opt/python``, or its own path under
        ``/usr`` (bound with the system)."""
        return self.base_prefix if _under(self.base_prefix, "/usr") else sandbox.PYTHON

    @property
    def venv(self) -> bool:
        """A virtual environment of a base Python whose interpreter lies inside it."""
        return self.prefix != self.base_prefix and not self.base_executable.startswith("..")


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _host_paths(prefix: str, base: str) -> dict[str, str]:
    """The host's paths a file of the environment may name, each with its neutral name inside
    the sandbox (longest first, so a path inside another is replaced as itself)."""
    home = os.path.expanduser("~")
    pairs = {prefix: sandbox.ENV, str(ROOT): "/course"}
    if not _under(base, "/usr"):
        pairs[base] = sandbox.PYTHON
    if home not in ("", "/"):
        pairs[home.rstrip("/") + "/"] = "/home/instructor/"
    return dict(sorted(pairs.items(), key=lambda kv: -len(kv[0])))


#: Files of an environment that name where it was made or installed from (besides
#: ``pyvenv.cfg`` and ``bin/``, which the sandbox replaces whole): what pip and venv write.
NEUTRAL_GLOBS = (
    "lib/python*/site-packages/*.pth",
    "lib/python*/site-packages/*.py",
    "lib/python*/site-packages/*.egg-link",
    "lib/python*/site-packages/*.dist-info/*",
    "lib/python*/site-packages/*.egg-info/*",
    "share/jupyter/kernels/*/kernel.json",
    "etc/jupyter/**/*",
)


def neutral_overlays(prefix: Path, paths: dict[str, str]) -> tuple:
    """``(path relative to prefix, neutral bytes)`` for each file of :data:`NEUTRAL_GLOBS`
    (under 1 MB) that names one of ``paths`` (a host path -> its neutral name)."""
    found = []
    needles = [(k.encode(), v.encode()) for k, v in paths.items() if k]
    for pattern in NEUTRAL_GLOBS:
        for path in sorted(prefix.glob(pattern)):
            try:
                if path.is_symlink() or not path.is_file() or path.stat().st_size > 1024**2:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            neutral = data
            for host, inside in needles:
                neutral = neutral.replace(host, inside)
            if neutral != data:
                found.append((str(path.relative_to(prefix)), neutral))
    return tuple(found)


def _reader(stream, limit: int, into: list) -> None:
    """Read whole lines, up to ``limit`` bytes in all, from the sandbox; drain and drop the
    rest (a line cut at the limit fails to parse and is dropped)."""
    kept = 0
    while kept < limit:
        line = stream.readline(limit - kept)
        if not line:
            stream.close()
            return
        into.append(line)
        kept += len(line)
    while stream.read(65536):
        pass
    stream.close()


def run_notebook(
    nb,
    environment: Environment,
    *,
    timeout: float,
    cell_timeout: float,
    names: list[str],
    open_ids: dict[str, str],
    limits: sandbox.Limits = sandbox.DEFAULT_LIMITS,
    site: Path | None = None,
    unsafe: bool = False,
    cgroup: str | bool = True,
) -> Run:
    """Execute ``nb`` in a sandbox of its own; kill the sandbox at ``timeout``.

    ``cgroup``: how the sandbox is bounded as a whole (one of ``sandbox.BOUNDS``; True: the
    machine's :func:`sandbox.bound_choice`; False or None: not at all)."""
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        work, notebook, grader_dir = _stage(Path(tmp), nb)
        config = {
            "cell_timeout": cell_timeout,
            "names": names,
            "open_ids": open_ids,
            "nonce": nonce,
            "limits": limits.rlimits(),
            # the kernel seals itself against new sockets (runner.seal_program) where the
            # sandbox holds it; unsandboxed, nothing is promised
            "seal": not unsafe,
        }
        info_read = info_write = None
        if unsafe:
            command, env, cwd = _unsandboxed_command(
                Path(tmp), notebook, grader_dir, environment, site, config
            )
        else:
            command, env, cwd, info_read, info_write = _sandboxed_command(
                work, grader_dir, environment, site, limits, config
            )
        start = time.monotonic()
        lines: list[bytes] = []
        group, fds = None, []
        if not unsafe:
            how = sandbox.bound_choice()[0] if cgroup is True else cgroup or None
            if how:
                group = sandbox.make_bound(how, limits.memory, limits.processes, cpus=limits.cpus)
                env = {**env, **group.environment()}
            command, fds = sandbox.launch(command, cgroup=group)
        with open(Path(tmp) / "log.txt", "wb") as log:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=cwd,
                env=env,
                start_new_session=True,
                pass_fds=() if unsafe else (info_write, *fds),
            )
            child = None
            for fd in fds:
                os.close(fd)
            if not unsafe:
                os.close(info_write)
                child = sandbox.read_child_pid(info_read)  # written at once, then closed
                os.close(info_read)
            reader = threading.Thread(
                target=_reader, args=(process.stdout, limits.output, lines), daemon=True
            )
            reader.start()
            try:
                process.stdin.write(json.dumps(config).encode() + b"\n")
                process.stdin.close()
            except OSError:
                pass
            status = "done"
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                status = "timed out"
            _kill(process)
            if not sandbox.wait_gone(child):
                status = "crashed"  # a sandbox that would not die: reported, never trusted
            reader.join(timeout=30)
            hit = group.events() if group else {}
            if group:
                group.remove()
        result = Run(status=status, seconds=time.monotonic() - start)
        if hit.get("oom_kill"):
            result.events.append({"event": "limit", "what": "memory", "cell": "end"})
        if hit.get("pids_max"):
            result.events.append({"event": "limit", "what": "processes", "cell": "end"})
        result.log = (Path(tmp) / "log.txt").read_bytes()[-3000:].decode(errors="replace")
    _take_events(result, lines, nonce, names)
    return result


def _stage(tmp: Path, nb) -> tuple[Path, Path, Path]:
    """Write ``nb`` and the runner into ``tmp`` for :func:`run_notebook`; return the
    submission's directory, the notebook and the grader's directory (all world-readable,
    owned by the grader)."""
    work = tmp / "submission"
    work.mkdir(mode=0o755)
    os.chmod(work, 0o755)
    notebook = work / "submission.ipynb"
    notebook.write_text(nbformat.writes(nb), encoding="utf-8")
    os.chmod(notebook, 0o644)
    grader_dir = tmp / "grader"
    grader_dir.mkdir()
    shutil.copy(RUNNER, grader_dir / "runner.py")
    os.chmod(grader_dir, 0o755)
    os.chmod(grader_dir / "runner.py", 0o644)
    return work, notebook, grader_dir


def _unsandboxed_command(
    tmp: Path, notebook: Path, grader_dir: Path, environment: Environment, site, config: dict
) -> tuple[list[str], dict, str]:
    """The runner's command, environment variables and directory with no sandbox (``unsafe``);
    completes ``config`` with the paths the runner sees."""
    home = tmp / "home"
    home.mkdir()
    config |= {"notebook": str(notebook), "cwd": str(home)}
    config["path"] = [str(site)] if site else []
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", ""),
        "OMP_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
        **({"PYTHONPATH": str(site)} if site else {}),
    }
    command = [
        str(Path(environment.prefix) / environment.executable),
        "-I",
        str(grader_dir / "runner.py"),
    ]
    return command, env, str(home)


def _sandboxed_command(
    work: Path,
    grader_dir: Path,
    environment: Environment,
    site,
    limits: sandbox.Limits,
    config: dict,
) -> tuple[list[str], dict, str, int, int]:
    """The runner's command in a sandbox, its environment variables and directory, and the
    pipe (read end, write end) on which the sandbox writes its child's pid; completes
    ``config`` with the paths the runner sees inside."""
    config |= {"notebook": f"{sandbox.SUBMISSION}/submission.ipynb", "cwd": sandbox.HOME}
    config["path"] = [sandbox.SITE] if site is not None else []
    binds = [(str(grader_dir), sandbox.GRADER), (str(work), sandbox.SUBMISSION)]
    extra, hide, symlinks = {}, (), ()
    base = environment.base_inside
    if base == sandbox.PYTHON:
        binds.append((environment.base_prefix, base))
        if environment.shared:  # the interpreter's run path names the base's own place
            extra["LD_LIBRARY_PATH"] = f"{base}/lib"
    if environment.venv:
        binds.append((environment.prefix, sandbox.ENV))
        # bin/ holds console scripts whose first line names the environment's place: an
        # empty bin with the interpreter alone, a link to the base's (what a venv's is)
        name = Path(environment.executable).name
        target = f"{base}/{environment.base_executable}"
        hide = (f"{sandbox.ENV}/bin",)
        symlinks = tuple(
            (target, f"{sandbox.ENV}/bin/{n}")
            for n in dict.fromkeys((name, "python", "python3", _python_dot(environment)))
        )
        python = f"{sandbox.ENV}/bin/{name}"
        # the environment's own config names where it was made: a neutral one instead
        neutral = grader_dir / "pyvenv.cfg"
        neutral.write_text(
            f"home = {base}/bin\n"
            "include-system-site-packages = false\n"
            f"version = {'.'.join(map(str, environment.version))}\n"
        )
        os.chmod(neutral, 0o644)
        binds.append((str(neutral), f"{sandbox.ENV}/pyvenv.cfg"))
        for index, (relative, data) in enumerate(environment.overlays):
            copy = grader_dir / f"neutral-{index}"
            copy.write_bytes(data)
            os.chmod(copy, 0o644)
            binds.append((str(copy), f"{sandbox.ENV}/{relative}"))
    elif base == sandbox.PYTHON and not environment.base_executable.startswith(".."):
        python = f"{base}/{environment.base_executable}"  # the base Python itself
    else:  # a Python under /usr (bound with the system), or one outside its prefix: bound
        # where it is (then not neutral)
        if not _under(environment.prefix, "/usr"):
            binds.append((environment.prefix, environment.prefix))
        python = str(Path(environment.prefix) / environment.executable)
    if site is not None:
        binds.append((str(site), sandbox.SITE))
        extra["PYTHONPATH"] = sandbox.SITE
    info_read, info_write = os.pipe()
    command = sandbox.command(
        [python, "-I", f"{sandbox.GRADER}/runner.py"],
        binds=binds,
        uid=sandbox.new_uid(),
        env=extra,
        limits=limits,
        info_fd=info_write,
        hide=hide,
        symlinks=symlinks,
    )
    return command, {"PATH": "/usr/bin:/bin"}, "/", info_read, info_write


def _python_dot(environment: Environment) -> str:
    return "python" + ".".join(map(str, environment.version[:2]))


def _take_events(result: Run, lines: list[bytes], nonce: str, names: list[str]) -> None:
    """Add to ``result`` the events of the runner's output ``lines``: only lines that start
    with ``nonce`` are the runner's (anything else is the student's and never trusted); the
    values of ``names`` and the runner's own status are taken from them."""
    prefix = nonce.encode() + b" "
    for line in lines:
        if not line.startswith(prefix):
            continue  # not the runner's: never trusted
        try:
            event = json.loads(line[len(prefix) :])
        except ValueError:
            continue  # a line cut by the kill or the output limit
        if not isinstance(event, dict):
            continue
        result.events.append(event)
        if event.get("event") == "values" and isinstance(event.get("values"), dict):
            result.values.update({k: v for k, v in event["values"].items() if k in names})
        elif event.get("event") in ("unreadable", "died", "killed", "crashed"):
            result.status = event["event"]
    kinds = {e.get("event") for e in result.events}
    if result.status == "done" and "done" not in kinds:
        result.status = "crashed"


def _kill(process: subprocess.Popen) -> None:
    """Kill the sandbox: its PID namespace goes with it (bubblewrap's --die-with-parent), and
    in the unsafe mode the process group."""
    for kill in (lambda: os.killpg(process.pid, signal.SIGKILL), process.kill):
        try:
            kill()
        except (ProcessLookupError, PermissionError, OSError):
            pass
    process.wait()


# --- the grading environment -------------------------------------------------------------


def _venv_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_grade_env(bundle: Path = BUNDLE, env: Path = GRADE_ENV) -> Path:
    """The reader's environment from the student bundle, installed as its README says."""
    wheels = sorted(bundle.glob("choosing_epsilon_helpers-*.whl"))
    if not wheels:
        from instructor.student import build

        print("building the student bundle for the grading environment ...", flush=True)
        build(run=False)
        wheels = sorted(bundle.glob("choosing_epsilon_helpers-*.whl"))
    requirements = bundle / "requirements.txt"
    digest = hashlib.sha256(requirements.read_bytes() + wheels[-1].read_bytes()).hexdigest()
    stamp = env / ".grade-env"
    python = _venv_python(env)
    if python.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return python
    if not python.exists():
        print(f"creating the grading environment in {env} (once, a few minutes) ...", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
    commands = [
        [str(python), "-m", "pip", "install", "-q", "-r", "requirements.txt"],
        # the same version number with another key: install the new wheel over the old
        [
            str(python),
            "-m",
            "pip",
            "install",
            "-q",
            "--force-reinstall",
            "--no-deps",
            wheels[-1].name,
        ],
    ]
    for command in commands:
        subprocess.run(command, cwd=bundle, check=True)
    neutral_bytecode(python, env)
    stamp.write_text(digest + "\n")
    return python


def neutral_bytecode(python: Path, env: Path) -> None:
    """Compile every module of ``env`` again as if it lay at ``/opt/env`` (where the sandbox
    binds it): a ``.pyc`` holds its source's path, and pip's name the environment's place on
    this machine (the checkout, the home). Present ``.pyc`` files also spare each submission
    compiling its imports (the sandbox is read-only)."""
    subprocess.run(
        [
            str(python),
            "-m",
            "compileall",
            "-q",
            "-f",
            "-j",
            "0",
            "-s",
            str(env),
            "-p",
            sandbox.ENV,
            str(env / "lib"),
        ],
        check=True,
    )
