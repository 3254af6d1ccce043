"""One bubblewrap sandbox per submission: what the grader runs untrusted notebooks in.

The grader never runs a submission's code as itself. Each submission runs in its own
`bubblewrap <https://github.com/containers/bubblewrap>`_ sandbox (Debian's ``bubblewrap``
package, ``/usr/bin/bwrap``), which the grader starts with:

* every namespace new (``--unshare-all``: user, mount, PID, network, IPC, UTS, cgroup), so the
  sandbox has no network (only its own loopback, where the kernel talks to the runner), sees
  only its own processes and cannot signal the grader's or another submission's;
* a file system made of read-only binds only: the system's ``/usr`` (and ``/lib*``, ``/bin``
  as the system links them), the base Python the environment was made from, the grading
  environment (at ``/env``), the runner script and the submission's own copy; a private, empty
  and size-limited ``/tmp`` and home (tmpfs); fresh ``/proc`` and ``/dev``. Nothing of the
  checkout, the answers, the other submissions, ``--out`` or the instructor's home is there;
* an empty environment (``--clearenv``) with a handful of variables set here;
* as root, a user id of its own (a random one above 10⁶, set with ``setpriv`` before
  bubblewrap starts), so even a file the sandbox could reach would be another user's; every
  capability dropped and no further user namespace (``--disable-userns``);
* ``--die-with-parent`` and a PID namespace: when the runner ends, or the grader kills the
  sandbox at its wall-time limit, or the grader itself dies, every process of the sandbox is
  killed by the kernel (double forks and ``setsid`` included), not by a process-group kill;
* limits the runner sets on itself before the kernel starts (``Limits``): address space per
  process (memory), processes, open files, the size of a file written, no core dumps; the
  tmpfs size; and, in the grader, the bytes read back from the sandbox and the wall time.

``available()`` says whether sandboxes can be made here; without them the grader refuses to
grade unless told ``--unsafe-no-sandbox``. What the sandbox does not protect is written in
README.md ("Grading").
"""

from __future__ import annotations

import functools
import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: Where the sandbox sees what it is given (read-only unless said).
ENV = "/env"
GRADER = "/grader"
SUBMISSION = "/submission"
SITE = "/site"
HOME = "/home/student"


@dataclass(frozen=True)
class Limits:
    """What one sandbox may use (``RLIMIT_*`` are per process, set inside the sandbox)."""

    memory: int = 2 * 1024**3  #: address space of each process, bytes (RLIMIT_AS)
    processes: int = 128  #: processes and threads of the sandbox's user (RLIMIT_NPROC)
    open_files: int = 512  #: per process (RLIMIT_NOFILE)
    file_size: int = 64 * 1024**2  #: largest file a process may write (RLIMIT_FSIZE)
    tmp_size: int = 256 * 1024**2  #: each of /tmp and the home (tmpfs)
    output: int = 8 * 1024**2  #: bytes the grader reads back from the sandbox

    def rlimits(self) -> dict:
        return {
            "RLIMIT_AS": self.memory,
            "RLIMIT_NPROC": self.processes,
            "RLIMIT_NOFILE": self.open_files,
            "RLIMIT_FSIZE": self.file_size,
            "RLIMIT_CORE": 0,
        }


DEFAULT_LIMITS = Limits()


def bwrap() -> str | None:
    return shutil.which("bwrap") or (
        "/usr/bin/bwrap" if os.access("/usr/bin/bwrap", os.X_OK) else None
    )


@functools.cache
def available() -> str | None:
    """None when sandboxes can be made here, else the reason they cannot (one sentence)."""
    if not sys.platform.startswith("linux"):
        return (
            f"the sandbox is bubblewrap, which runs on Linux only (this is {sys.platform}); "
            "grade on Linux (a VM or a container will do)"
        )
    found = bwrap()
    if found is None:
        return (
            "bubblewrap is not installed (Debian/Ubuntu: `sudo apt-get install bubblewrap`; "
            "Fedora: `sudo dnf install bubblewrap`)"
        )
    probe = subprocess.run(
        command(["/bin/true"], binds=[], uid=new_uid(), cwd="/"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if probe.returncode != 0:
        return (
            f"bubblewrap ({found}) cannot make a sandbox here: {probe.stderr.strip()[:300]} "
            "(unprivileged user namespaces may be disabled: "
            "`sysctl kernel.unprivileged_userns_clone=1`, or run the grader as root)"
        )
    return None


def _system_binds() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args


def new_uid() -> int:
    """A user id no account has: the sandbox's, when the grader runs as root."""
    return 1_000_000 + secrets.randbelow(1_000_000_000)


def command(
    inner: list[str],
    *,
    binds: list[tuple[str, str]],
    uid: int | None,
    env: dict[str, str] | None = None,
    limits: Limits | None = None,
    cwd: str = HOME,
    info_fd: int | None = None,
) -> list[str]:
    """The command line that runs ``inner`` in a new sandbox.

    ``info_fd``: a descriptor bubblewrap writes the PID of the sandbox's init to (pass it to
    the process); ``wait_gone`` waits on that PID.

    ``binds`` are ``(path outside, path inside)`` pairs, all read-only. ``uid``: the user the
    sandbox runs as when the grader is root (``new_uid()``); None keeps the caller's.
    """
    limits = limits or DEFAULT_LIMITS
    root = uid is not None and hasattr(os, "geteuid") and os.geteuid() == 0
    if root:
        # bubblewrap as root builds the namespaces and the binds (any path root can read),
        # then setpriv drops to a user of the sandbox's own, every capability and the
        # bounding set gone, no new privileges (setuid files do nothing)
        namespaces = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts"]
        namespaces += ["--unshare-cgroup-try"]
        setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
        inner = [
            setpriv,
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
            *inner,
        ]
    else:
        # as a user: an unprivileged user namespace, every capability dropped inside it
        namespaces = ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    args = [
        bwrap() or "bwrap",
        *namespaces,
        "--die-with-parent",
        "--new-session",
        *_system_binds(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(limits.tmp_size),
        "--tmpfs",
        "/tmp",
        "--perms",
        "1777",
        "--size",
        str(limits.tmp_size),
        "--tmpfs",
        HOME,
    ]
    for outside, inside in binds:
        args += ["--ro-bind", str(outside), str(inside)]
    args += ["--remount-ro", "/"]  # the sandbox's root: nothing new appears in it
    args += ["--clearenv"]
    variables = {
        "HOME": HOME,
        "USER": "student",
        "LOGNAME": "student",
        "PATH": f"{ENV}/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp",
        # one thread per kernel: several sandboxes share the machine
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
        "PYTHONDONTWRITEBYTECODE": "1",
        **(env or {}),
    }
    for key, value in variables.items():
        args += ["--setenv", key, value]
    if info_fd is not None:
        args += ["--info-fd", str(info_fd)]
    return [*args, "--chdir", cwd, "--", *inner]


def read_child_pid(fd: int) -> int | None:
    """The PID (outside) of the sandbox's init, from bubblewrap's ``--info-fd`` JSON."""
    import json

    data = b""
    try:
        while chunk := os.read(fd, 4096):
            data += chunk
    except OSError:
        return None
    try:
        return int(json.loads(data or b"{}").get("child-pid"))
    except (ValueError, TypeError):
        return None


def wait_gone(pid: int | None, timeout: float = 30) -> bool:
    """Wait until the sandbox's init is gone or a zombie: the kernel has then killed and reaped
    every other process of its PID namespace (an init exits only after them)."""
    import time

    if pid is None:
        return True
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return True
        if "\nState:\tZ" in status or "\nState:\tX" in status:
            return True
        time.sleep(0.02)  # its --die-with-parent signal is on its way (no kill by PID here:
        # the number may already be another process's)
    return False
