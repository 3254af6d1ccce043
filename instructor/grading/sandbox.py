"""One bubblewrap sandbox per submission: what the grader runs untrusted notebooks in.

The grader never runs a submission's code as itself. Each submission runs in its own
`bubblewrap <https://github.com/containers/bubblewrap>`_ sandbox (Debian's ``bubblewrap``
package, ``/usr/bin/bwrap``), which the grader starts with:

* every namespace new (``--unshare-all``: user, mount, PID, network, IPC, UTS, cgroup), so the
  sandbox has no network (and the seccomp filter lets it open no network socket, loopback
  included: the kernel talks to the runner over Unix sockets in the sandbox's /tmp), sees
  only its own processes and cannot signal the grader's or another submission's;
* a file system made of read-only binds only: the system's ``/usr`` (and ``/lib*``, ``/bin``
  as the system links them), the base Python the environment was made from (at
  ``/opt/python``), the grading environment (at ``/opt/env``; its ``bin/`` and every file
  that names a host path replaced by neutral ones), the runner script and the submission's
  own copy; a private, empty and size-limited ``/tmp`` and home (tmpfs); fresh ``/proc`` and
  ``/dev``. Nothing of the
  checkout, the answers, the other submissions, ``--out`` or the instructor's home is there;
* an empty environment (``--clearenv``) with a handful of variables set here;
* as root, a user id of its own (a random one above 10⁶, set with ``setpriv`` inside the
  sandbox), so even a file the sandbox could reach would be another user's, every capability
  dropped; as a user, bubblewrap's own user namespace with ``--disable-userns``; either way no
  further namespace (the seccomp filter below refuses them);
* a seccomp filter (:func:`seccomp_program`) refusing new namespaces, mount, ptrace, bpf,
  keyctl, kernel modules, inotify and fanotify (no sandbox watches the shared environment's
  files, which would show another sandbox's imports) and the other calls of :data:`REFUSED`,
  and every socket but a Unix one (:data:`SOCKET_FAMILIES`); bubblewrap's own arguments
  passed on a descriptor (:func:`launch`), so the sandbox's command line names no host path;
  and a second filter the kernel loads on itself once its channels are open
  (``runner.seal_program``): from the first cell on, no socket at all, Unix ones included;
* a cgroup per sandbox bounding the memory, the number of processes and the CPU (an equal
  share, and a quota of ``Limits.cpus``) of the whole sandbox
  (:func:`bound_choice`: a :class:`Cgroup` of its own, v2 where delegated, else v1; else a
  :class:`SystemdScope`); without one the grader refuses unless told ``--unsafe-no-cgroup``;
* ``--die-with-parent`` and a PID namespace: when the runner ends, or the grader kills the
  sandbox at its wall-time limit, or the grader itself dies, every process of the sandbox is
  killed by the kernel (double forks and ``setsid`` included), not by a process-group kill;
* limits the runner sets on itself before the kernel starts (``Limits``): address space per
  process (memory), processes, open files, the size of a file written, no core dumps; the
  tmpfs size; and, in the grader, the bytes read back from the sandbox and the wall time.

``available()`` says whether sandboxes can be made here; without them the grader refuses to
grade unless told ``--unsafe-no-sandbox``. What the sandbox does not protect is written in
README.md ("The sandbox") and INSTRUCTORS.md.
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

#: Where the sandbox sees what it is given (read-only unless said): the grading environment,
#: the base Python it was made from (unless under ``/usr``, bound with the system), ...
ENV = "/opt/env"
PYTHON = "/opt/python"
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
    #: CPUs the whole sandbox may use (a cgroup's quota; each sandbox's cgroup also has an
    #: equal share, so a notebook of many busy processes cannot starve its neighbours)
    cpus: float = 1.0

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
    hide: tuple[str, ...] = (),
    symlinks: tuple[tuple[str, str], ...] = (),
) -> list[str]:
    """The command line that runs ``inner`` in a new sandbox.

    ``info_fd``: a descriptor bubblewrap writes the PID of the sandbox's init to (pass it to
    the process); ``wait_gone`` waits on that PID.

    ``binds`` are ``(path outside, path inside)`` pairs, all read-only. ``uid``: the user the
    sandbox runs as when the grader is root (``new_uid()``); None keeps the caller's.
    ``hide``: directories inside (of a bind) covered by an empty read-only tmpfs, in which
    ``symlinks`` (``(target, path inside)``) are then made.
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
    parents = {str(p) for _, inside in binds for p in Path(inside).parents if str(p) != "/"}
    for parent in sorted(parents):  # made readable by everyone (bubblewrap's would be 0700)
        args += ["--perms", "0755", "--dir", parent]
    for outside, inside in binds:
        args += ["--ro-bind", str(outside), str(inside)]
    for directory in hide:
        args += ["--perms", "0755", "--size", str(1024**2), "--tmpfs", directory]
    for target, link in symlinks:
        args += ["--symlink", target, link]
    for directory in hide:
        args += ["--remount-ro", directory]
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


# --- seccomp: the system calls a notebook never needs ------------------------------------------

#: System calls refused (EPERM) inside the sandbox, by name: mounting and namespaces (a new
#: user namespace, and with it mounts past the tmpfs limits), tracing and reading other
#: processes, the kernel's keyrings, BPF, kernel modules and kexec, perf, io_uring (which
#: bypasses this filter), userfaultfd, handles to files by number, and the machine's own
#: settings (reboot, swap, hostname, quotas, accounting, the kernel log).
REFUSED = (
    "mount", "umount2", "pivot_root", "fsopen", "fsconfig", "fsmount", "fspick", "open_tree",
    "move_mount", "mount_setattr", "unshare", "setns", "ptrace", "process_vm_readv",
    "process_vm_writev", "kcmp", "pidfd_getfd", "keyctl", "add_key", "request_key", "bpf",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "perf_event_open", "io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd",
    "open_by_handle_at", "name_to_handle_at", "reboot", "swapon", "swapoff", "sethostname",
    "setdomainname", "quotactl", "acct", "syslog", "lookup_dcookie",
    "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark",
)  # fmt: skip

#: Socket families a sandbox may open: Unix sockets (the runner talks to the kernel over
#: them, in the sandbox's own /tmp) and the netlink socket that lists the network interfaces
#: (ZeroMQ asks; the kernel dies without it). No network socket, not even on loopback:
#: a TCP socket's queued buffers are kernel memory that cgroup v1 does not count, so they
#: could hold gigabytes past the sandbox's memory bound (issue 51). Unix sockets' queues are
#: not counted either: the kernel needs them for its channels, so it opens those first and
#: then seals itself (``runner.seal_program``), and neither it nor any process it starts can
#: make another socket of any family.
SOCKET_FAMILIES = (1, 16)  # AF_UNIX; AF_NETLINK of protocol NETLINK_ROUTE (0) only
_EAFNOSUPPORT = 97

#: Their numbers on the two architectures the filter is written for (from the kernel's
#: ``asm/unistd_64.h`` and ``asm-generic/unistd.h``), with ``clone`` and ``clone3``.
SYSCALLS = {
    "x86_64": (0xC000003E, {
        "mount": 165, "umount2": 166, "pivot_root": 155, "fsopen": 430, "fsconfig": 431,
        "fsmount": 432, "fspick": 433, "open_tree": 428, "move_mount": 429,
        "mount_setattr": 442, "unshare": 272, "setns": 308, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "pidfd_getfd": 438,
        "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321, "init_module": 175,
        "finit_module": 313, "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320,
        "perf_event_open": 298, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "userfaultfd": 323, "open_by_handle_at": 304,
        "name_to_handle_at": 303, "reboot": 169, "swapon": 167, "swapoff": 168,
        "sethostname": 170, "setdomainname": 171, "quotactl": 179, "acct": 163, "syslog": 103,
        "lookup_dcookie": 212, "clone": 56, "clone3": 435, "inotify_init": 253,
        "inotify_init1": 294, "inotify_add_watch": 254, "fanotify_init": 300,
        "fanotify_mark": 301, "socket": 41,
    }),
    "aarch64": (0xC00000B7, {
        "mount": 40, "umount2": 39, "pivot_root": 41, "fsopen": 430, "fsconfig": 431,
        "fsmount": 432, "fspick": 433, "open_tree": 428, "move_mount": 429,
        "mount_setattr": 442, "unshare": 97, "setns": 268, "ptrace": 117,
        "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "pidfd_getfd": 438,
        "keyctl": 219, "add_key": 217, "request_key": 218, "bpf": 280, "init_module": 105,
        "finit_module": 273, "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294,
        "perf_event_open": 241, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "userfaultfd": 282, "open_by_handle_at": 265,
        "name_to_handle_at": 264, "reboot": 142, "swapon": 224, "swapoff": 225,
        "sethostname": 161, "setdomainname": 162, "quotactl": 60, "acct": 89, "syslog": 116,
        "lookup_dcookie": 18, "clone": 220, "clone3": 435, "inotify_init1": 26,
        "inotify_add_watch": 27, "fanotify_init": 262, "fanotify_mark": 263, "socket": 198,
    }),
}  # fmt: skip

#: clone() flags that make a namespace (user, mount, PID, network, IPC, UTS, cgroup)
CLONE_NAMESPACES = 0x10000000 | 0x00020000 | 0x20000000 | 0x40000000 | 0x08000000
CLONE_NAMESPACES |= 0x04000000 | 0x02000000
_EPERM, _ENOSYS = 1, 38


def seccomp_program(machine: str | None = None) -> bytes | None:
    """The classic-BPF seccomp filter bubblewrap loads (``--seccomp FD``), or None for an
    architecture it is not written for.

    Another architecture's calls (x32, i386 on x86_64) kill the process; :data:`REFUSED`
    fail with EPERM; ``clone`` with a namespace flag fails with EPERM; ``clone3`` (whose
    flags a filter cannot read) fails with ENOSYS, so the C library falls back to ``clone``;
    ``socket`` of a family not in :data:`SOCKET_FAMILIES` (or a netlink socket of another
    protocol than NETLINK_ROUTE) fails with EAFNOSUPPORT;
    everything else is allowed. Layout: Linux's ``struct sock_filter`` and ``seccomp_data``
    (``linux/filter.h``, ``linux/seccomp.h``).
    """
    import platform
    import struct

    found = SYSCALLS.get(machine or platform.machine())
    if found is None:
        return None
    arch, numbers = found
    ld, jeq, jset, ret = 0x20, 0x15, 0x45, 0x06  # BPF_LD|W|ABS, JMP|JEQ|K, JMP|JSET|K, RET|K
    allow, kill = 0x7FFF0000, 0x80000000  # SECCOMP_RET_ALLOW, SECCOMP_RET_KILL_PROCESS
    errno = 0x00050000  # SECCOMP_RET_ERRNO
    program = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, kill), (ld, 0, 0, 0)]
    if arch == 0xC000003E:  # the x32 ABI's numbers carry bit 30
        program += [(jset, 0, 1, 0x40000000), (ret, 0, 0, kill)]
    for name in REFUSED:
        if name in numbers:  # inotify_init is x86_64's only (aarch64 has inotify_init1)
            program += [(jeq, 0, 1, numbers[name]), (ret, 0, 0, errno | _EPERM)]
    program += [(jeq, 0, 1, numbers["clone3"]), (ret, 0, 0, errno | _ENOSYS)]
    # socket(family, type, protocol) (args[0] at 16, args[2] at 32): a Unix socket, or a
    # netlink one of NETLINK_ROUTE (the interface list ZeroMQ reads); any other fails
    unix, netlink = SOCKET_FAMILIES
    program += [(jeq, 0, 7, numbers["socket"]), (ld, 0, 0, 16)]
    program += [(jeq, 4, 0, unix), (jeq, 0, 2, netlink), (ld, 0, 0, 32), (jeq, 1, 0, 0)]
    program += [(ret, 0, 0, errno | _EAFNOSUPPORT), (ret, 0, 0, allow)]
    # clone: its flags are the low word of the first argument (seccomp_data.args[0] at 16)
    program += [(jeq, 0, 3, numbers["clone"]), (ld, 0, 0, 16)]
    program += [(jset, 0, 1, CLONE_NAMESPACES), (ret, 0, 0, errno | _EPERM)]
    program += [(ret, 0, 0, allow)]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program)


# --- one cgroup per sandbox: memory and processes bounded for the whole of it -------------------

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _own_cgroup(controller: str | None) -> str | None:
    """This process's cgroup path in a v1 hierarchy (``controller``) or in v2 (None)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if (controller is None and controllers == "") or controller in controllers.split(","):
            return path
    return None


#: the CPU quota's period, microseconds (the kernel's default)
PERIOD = 100_000


def _v1_cpu(name: str, cpus: float, made: list[Path]) -> bool:
    """A cgroup v1 ``cpu`` group for the sandbox beside its memory and pids ones (appended to
    ``made``), with the default share and a quota of ``cpus``; False where there is none."""
    own = _own_cgroup("cpu")
    if own is None:
        return False
    directory = CGROUP_ROOT / "cpu" / own.lstrip("/") / name
    try:
        directory.mkdir()
    except OSError:
        return False
    try:
        (directory / "cpu.cfs_period_us").write_text(str(PERIOD))
        (directory / "cpu.cfs_quota_us").write_text(str(round(cpus * PERIOD)))
    except OSError:  # the CPU bound is a fairness, not a safety: the sandbox goes on without
        directory.rmdir()
        return False
    made.append(directory)
    return True


class Cgroup:
    """A cgroup made for one sandbox, with ``memory`` bytes (RAM and swap, tmpfs and memory
    file descriptors included) and ``processes`` tasks for all its processes together.

    cgroup v2 where this process's cgroup delegates the memory and pids controllers (a
    ``systemd-run --scope -p Delegate=yes`` or a container does), else v1's memory and pids
    hierarchies (writable as root). ``procs`` are the ``cgroup.procs`` files the sandbox's
    first process writes itself into before it starts bubblewrap.
    """

    def __init__(self, directories: list[Path], version: int):
        self.directories, self.version = directories, version
        self.procs = [str(d / "cgroup.procs") for d in directories]

    version: int

    @classmethod
    def make(
        cls, memory: int, processes: int, versions: tuple[int, ...] = (2, 1), *, cpus: float = 1.0
    ) -> Cgroup:
        """A new cgroup with these limits (the first of ``versions`` that can be made); OSError
        (with the reasons) where none can be made.

        The CPU controller, where there is one, gives the sandbox a cgroup of its own with
        the default share (so the scheduler shares the CPUs between sandboxes, not between
        their processes: a hundred busy processes get what one honest kernel gets) and a
        quota of ``cpus``; ``cpu`` says whether it was set."""
        name = f"grade-{os.getpid()}-{secrets.token_hex(6)}"
        errors = []
        for version in versions:
            made: list[Path] = []
            try:
                if version == 2:
                    parent = CGROUP_ROOT / (_own_cgroup(None) or "").lstrip("/")
                    if not (parent / "cgroup.subtree_control").exists():
                        raise OSError("no cgroup v2 here")
                    wanted = {"memory", "pids"}
                    enabled = set((parent / "cgroup.subtree_control").read_text().split())
                    if not wanted <= enabled:
                        (parent / "cgroup.subtree_control").write_text("+memory +pids")
                    controllers = parent / "cgroup.controllers"
                    if controllers.exists() and "cpu" in controllers.read_text().split():
                        if "cpu" not in enabled:
                            try:
                                (parent / "cgroup.subtree_control").write_text("+cpu")
                            except OSError:
                                pass  # the CPU bound is a fairness, not a safety
                    made.append(parent / name)
                    made[0].mkdir()
                    (made[0] / "memory.max").write_text(str(memory))
                    if (made[0] / "memory.swap.max").exists():
                        (made[0] / "memory.swap.max").write_text("0")
                    (made[0] / "pids.max").write_text(str(processes))
                    cpu = (made[0] / "cpu.max").exists()
                    if cpu:
                        try:
                            (made[0] / "cpu.max").write_text(f"{round(cpus * PERIOD)} {PERIOD}")
                        except OSError:  # a fairness, not a safety: the sandbox goes on
                            cpu = False
                else:
                    for controller in ("memory", "pids"):
                        own = _own_cgroup(controller)
                        if own is None:
                            raise OSError(f"no cgroup v1 {controller} hierarchy here")
                        directory = CGROUP_ROOT / controller / own.lstrip("/") / name
                        directory.mkdir()
                        made.append(directory)
                    (made[0] / "memory.limit_in_bytes").write_text(str(memory))
                    if (made[0] / "memory.memsw.limit_in_bytes").exists():
                        (made[0] / "memory.memsw.limit_in_bytes").write_text(str(memory))
                    (made[1] / "pids.max").write_text(str(processes))
                    cpu = _v1_cpu(name, cpus, made)
                group = cls(made, version)
                group.cpu = cpu
                return group
            except OSError as error:
                errors.append(f"v{version}: {error}")
                for directory in reversed(made):
                    try:
                        directory.rmdir()
                    except OSError:
                        pass
        raise OSError("; ".join(errors))

    cpu: bool = False  #: whether the CPU share and quota are set

    def environment(self) -> dict[str, str]:
        """What the process that enters it needs of the grader's environment: nothing."""
        return {}

    def events(self) -> dict[str, int]:
        """How often the limits were hit: ``{"oom_kill": n, "pids_max": n}``."""
        found = {"oom_kill": 0, "pids_max": 0}
        files = {
            "oom_kill": ("memory.events" if self.version == 2 else "memory.oom_control"),
            "pids_max": "pids.events",
        }
        for key, filename in files.items():
            for directory in self.directories:
                try:
                    text = (directory / filename).read_text()
                except OSError:
                    continue
                word = "oom_kill" if key == "oom_kill" else "max"
                for line in text.splitlines():
                    parts = line.split()
                    if len(parts) == 2 and parts[0] == word:
                        found[key] = max(found[key], int(parts[1]))
        return found

    def remove(self) -> None:
        """Kill whatever is left in it (nothing, once the sandbox is gone) and remove it."""
        import signal
        import time

        for _ in range(100):
            left = []
            for directory in self.directories:
                try:
                    left += [int(p) for p in (directory / "cgroup.procs").read_text().split()]
                except OSError:
                    pass
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            try:
                for directory in reversed(self.directories):
                    if directory.exists():
                        directory.rmdir()
                return
            except OSError:
                time.sleep(0.05)


class SystemdScope:
    """A transient systemd scope per sandbox, for a machine where the grader can make no cgroup
    itself (a desktop: cgroup v2 is systemd's and not delegated, the grader not root) but
    ``systemd-run --user --scope`` works: systemd makes the scope's cgroup with ``MemoryMax``
    (RAM, tmpfs and memory file descriptors of all its processes), ``MemorySwapMax=0`` and
    ``TasksMax``, and ``systemd-run`` then becomes the sandbox's command in it (so the process
    the grader started, and every one the sandbox starts, is in the scope from the start).
    As root, the system's manager (no ``--user``). The limits hit are not read back (the
    scope is gone with its last process): a kernel stopped by them shows as one that died.
    """

    version = "systemd-run"

    def __init__(self, memory: int, processes: int, *, user: bool | None = None, cpus: float = 1.0):
        self.memory, self.processes, self.cpus = memory, processes, cpus
        self.user = (hasattr(os, "geteuid") and os.geteuid() != 0) if user is None else user
        self.unit = f"grade-{os.getpid()}-{secrets.token_hex(6)}"

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` run in a new scope with the limits."""
        return [
            shutil.which("systemd-run") or "systemd-run",
            *(["--user"] if self.user else []),
            "--scope",
            "--quiet",
            "--collect",
            f"--unit={self.unit}",
            "-p",
            f"MemoryMax={self.memory}",
            "-p",
            "MemorySwapMax=0",
            "-p",
            f"TasksMax={self.processes}",
            "-p",
            f"CPUQuota={round(self.cpus * 100)}%",
            "--",
            *argv,
        ]

    def environment(self) -> dict[str, str]:
        """What ``systemd-run --user`` needs of the grader's environment to reach the user's
        manager (the sandbox itself starts with an empty one)."""
        keep = ("XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS")
        return {k: os.environ[k] for k in keep if k in os.environ}

    def events(self) -> dict[str, int]:
        return {"oom_kill": 0, "pids_max": 0}

    def remove(self) -> None:
        """Nothing to remove: systemd collects the scope when its last process ends."""


#: How each sandbox is bounded as a whole, in the order tried (:func:`bound_choice`).
BOUNDS = ("cgroup v2", "cgroup v1", "systemd-run")


def make_bound(
    how: str, memory: int, processes: int, *, cpus: float = 1.0
) -> Cgroup | SystemdScope:
    """A new bound of kind ``how`` (one of :data:`BOUNDS`) for one sandbox."""
    if how == "systemd-run":
        return SystemdScope(memory, processes, cpus=cpus)
    return Cgroup.make(memory, processes, versions=(int(how[-1]),), cpus=cpus)


def _systemd_scope_works() -> str | None:
    """None when ``systemd-run`` makes a scope with the limits here, else why not."""
    if shutil.which("systemd-run") is None:
        return "systemd-run: not installed"
    scope = SystemdScope(64 * 1024**2, 16)
    try:
        probe = subprocess.run(
            scope.wrap(["/bin/true"]),
            env={"PATH": "/usr/bin:/bin", **scope.environment()},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"systemd-run: {error}"
    if probe.returncode != 0:
        return f"systemd-run: {(probe.stderr.strip() or f'exit {probe.returncode}')[:200]}"
    return None


@functools.cache
def bound_choice() -> tuple[str | None, str]:
    """How each sandbox is bounded as a whole here, and why the ones before it could not be:
    this process's own cgroup v2 (delegated memory and pids), else cgroup v1 (root), else a
    ``systemd-run`` scope; ``(None, reasons)`` where none works (the grader then refuses
    unless ``--unsafe-no-cgroup``)."""
    if not sys.platform.startswith("linux"):
        return None, f"cgroups are Linux's (this is {sys.platform})"
    reasons = []
    for how in BOUNDS[:2]:
        try:
            make_bound(how, 64 * 1024**2, 16).remove()
        except OSError as error:
            reasons.append(f"{how}: {error}".replace(f"{how}: v{how[-1]}: ", f"{how}: "))
            continue
        return how, "; ".join(reasons)
    why = _systemd_scope_works()
    if why is None:
        return "systemd-run", "; ".join(reasons)
    return None, "; ".join([*reasons, why])


def cgroups_available() -> str | None:
    """None when each sandbox can be bounded as a whole here, else why not (one sentence)."""
    how, why = bound_choice()
    if how is not None:
        return None
    return (
        f"no cgroup can be made for a sandbox here ({why}); run the grader as root, in a "
        "systemd scope that delegates memory and pids "
        "(`systemd-run --user --scope -p Delegate=yes python3 course.py grade ...`), or where "
        "`systemd-run --user --scope` works"
    )


def launch(argv: list[str], *, seccomp: bool = True, cgroup: Cgroup | SystemdScope | None = None):
    """``argv`` (from :func:`command`) as it is started: bubblewrap's arguments passed on a
    descriptor (``--args``: the sandbox's own command line shows none of the host's paths),
    the seccomp filter on another (``--seccomp``), and, with a :class:`Cgroup`, a shell that
    writes itself into the cgroup and then becomes bubblewrap (every process of the sandbox
    is then in it from the start); with a :class:`SystemdScope`, ``systemd-run`` that does
    the same. Returns ``(argv, descriptors to pass)``; the caller closes the descriptors once
    the process has started (and adds ``cgroup.environment()`` to its environment)."""
    fds = []

    def pipe_with(data: bytes) -> int:
        read, write = os.pipe()
        os.write(write, data)  # well under a pipe's 64 KiB
        os.close(write)
        fds.append(read)
        return read

    split = argv.index("--")  # bubblewrap's options, then the command (neutral paths only)
    options, inner = argv[1:split], argv[split:]
    program = seccomp_program() if seccomp else None
    if program is not None:
        options = ["--seccomp", str(pipe_with(program)), *options]
    args_fd = pipe_with(b"".join(a.encode() + b"\0" for a in options))
    started = [argv[0], "--args", str(args_fd), *inner]
    if isinstance(cgroup, SystemdScope):
        started = cgroup.wrap(started)
    elif cgroup is not None:
        enter = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; '
        enter += 'n=$((n-1)); done; exec "$@"'
        started = ["/bin/sh", "-c", enter, "sh", str(len(cgroup.procs)), *cgroup.procs, *started]
    return started, fds
