"""What a screen reader hears, read from the platform's accessibility tree (issue 50 item 0).

Chromium's DevTools accessibility tree is one build's report: Debian's Chromium 156.0.8078.114
gives an empty ``valuetext`` for every slider, a plain ``<div role="slider"
aria-valuetext="...">`` included, while the page carries the words. A screen reader on Linux
(Orca) does not read DevTools: it reads AT-SPI, the tree Chromium exports over D-Bus through
ATK when accessibility is on. This module gives the browser tests that tree:

* :func:`desktop` starts what a Linux desktop gives a screen reader, and nothing more: a virtual
  display (Xvfb), a private D-Bus session bus, and AT-SPI's accessibility bus on it
  (``at-spi-bus-launcher``, which starts the registry). Chromium runs headed on that display,
  with ``--force-renderer-accessibility`` and ``ACCESSIBILITY_ENABLED=1``.
* :class:`AtSpi` talks to the accessibility bus with jeepney (pure Python D-Bus) and reads the
  focused slider as Orca does: its name, its role, its ``valuetext`` object attribute (ATK's
  export of aria-valuetext, which Orca speaks in place of the number) and AT-SPI's
  ``Value.Text``, where the build fills it. The sliders are found by AT-SPI's Collection
  interface, which searches the tree inside Chromium in one D-Bus call (22 ms on notebook 11's
  JupyterLab page, where walking it node by node took 5.5 s and some 19,000 calls).

No sleep decides anything: every wait is for a condition (a name on the bus, a bus that
answers, a focused slider that says the words), with a time limit only as a guard against a
hang.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: what the screen-reader route needs from the system (Debian: xvfb, dbus, at-spi2-core)
PROGRAMS = {
    "Xvfb": ("Xvfb",),
    "dbus-daemon": ("dbus-daemon",),
    "at-spi-bus-launcher": (
        "/usr/libexec/at-spi-bus-launcher",
        "/usr/lib/at-spi2-core/at-spi-bus-launcher",
        "/usr/lib/at-spi2/at-spi-bus-launcher",
    ),
}
HOW_TO_GET_IT = (
    "the screen-reader check reads AT-SPI, the Linux accessibility tree, under a virtual "
    "display: `apt-get install xvfb dbus at-spi2-core` (and jeepney, pinned in "
    "requirements-dev.txt)"
)
#: a guard against a hang, never a pace: each wait ends as soon as its condition holds
START_LIMIT_S = 60.0
#: AT-SPI's state bits (atspi-constants.h): FOCUSED is 12
STATE_FOCUSED = 12
SLIDER_ROLE = "slider"
#: AtspiRole's number for a slider (atspi-constants.h), for a Collection match rule
SLIDER_ROLE_NUMBER = 51
#: AtspiCollectionMatchType ALL and ANY, and AtspiCollectionSortOrder CANONICAL (0 is INVALID:
#: ATK's bridge answers it with no match at all, as it does an INVALID match type)
MATCH_ALL, MATCH_ANY, SORT_CANONICAL = 1, 2, 1


def _which(candidates: tuple[str, ...]) -> str | None:
    for candidate in candidates:
        found = shutil.which(candidate) or (candidate if os.access(candidate, os.X_OK) else None)
        if found:
            return found
    return None


def missing() -> str:
    """'' when this machine can run the check; else what is missing and how to get it."""
    if not sys.platform.startswith("linux"):
        return f"AT-SPI is Linux's accessibility tree; this is {sys.platform}"
    absent = [name for name, paths in PROGRAMS.items() if _which(paths) is None]
    try:
        import jeepney  # noqa: F401
    except ImportError:
        absent.append("jeepney")
    return f"{', '.join(absent)} not found: {HOW_TO_GET_IT}" if absent else ""


#: the Debian packages behind the check, whose versions the report prints
PACKAGES = ("chromium", "xvfb", "dbus-daemon", "at-spi2-core", "libatk-bridge2.0-0")


def versions() -> dict[str, str]:
    """The versions of what the check runs on (Debian's package versions where dpkg is, so
    a failure names the builds; issue 50), and jeepney's."""
    out = {}
    for package in PACKAGES:
        try:
            done = subprocess.run(
                ["dpkg-query", "-W", "-f=${Version}", package],
                capture_output=True,
                text=True,
                timeout=30,
            )
            out[package] = done.stdout.strip() or "not installed"
        except (OSError, subprocess.TimeoutExpired):
            out[package] = "? (no dpkg)"
    try:
        import jeepney

        out["jeepney"] = jeepney.__version__
    except ImportError:
        out["jeepney"] = "not installed"
    return out


@dataclass
class Desktop:
    """A virtual display with a session bus and AT-SPI's accessibility bus on it."""

    env: dict[str, str]
    bus_address: str
    processes: list[subprocess.Popen] = field(default_factory=list)


def _read_line(proc: subprocess.Popen, stream, what: str) -> str:
    line = stream.readline()
    if not line:
        proc.kill()
        raise RuntimeError(f"{what} ended before it said where it listens")
    return line.strip()


def _wait_for_name(address: str, name: str) -> None:
    """Until ``name`` has an owner on the bus at ``address`` (NameHasOwner starts nothing)."""
    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection

    bus = DBusAddress("/org/freedesktop/DBus", "org.freedesktop.DBus", "org.freedesktop.DBus")
    deadline = time.monotonic() + START_LIMIT_S
    with contextlib.closing(open_dbus_connection(address)) as connection:
        while True:
            call = new_method_call(bus, "NameHasOwner", "s", (name,))
            if connection.send_and_get_reply(call, timeout=30).body[0]:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} never appeared on the session bus")
            time.sleep(0.02)


@contextlib.contextmanager
def desktop() -> Iterator[Desktop]:
    """Xvfb on a free display, a private session bus, AT-SPI's bus launcher on it."""
    runtime = Path(tempfile.mkdtemp(prefix="course-desktop-"))
    os.chmod(runtime, 0o700)
    processes: list[subprocess.Popen] = []
    try:
        # Xvfb picks a free display and writes its number to the pipe (-displayfd)
        read_end, write_end = os.pipe()
        xvfb = subprocess.Popen(
            [
                _which(PROGRAMS["Xvfb"]),
                "-displayfd",
                str(write_end),
                "-nolisten",
                "tcp",
                "-screen",
                "0",
                "1920x1200x24",
            ],
            pass_fds=(write_end,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        processes.append(xvfb)
        os.close(write_end)
        with os.fdopen(read_end) as pipe:
            display = ":" + _read_line(xvfb, pipe, "Xvfb")
        bus = subprocess.Popen(
            [
                "dbus-daemon",
                "--session",
                "--nofork",
                "--print-address=1",
                f"--address=unix:path={runtime / 'bus'}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        processes.append(bus)
        address = _read_line(bus, bus.stdout, "dbus-daemon")
        env = {
            **os.environ,
            "DISPLAY": display,
            "DBUS_SESSION_BUS_ADDRESS": address,
            "XDG_RUNTIME_DIR": str(runtime),
            "ACCESSIBILITY_ENABLED": "1",  # ATK's bridge loads in Chromium (its GTK side)
            "NO_AT_BRIDGE": "0",
        }
        processes.append(
            subprocess.Popen(
                [_which(PROGRAMS["at-spi-bus-launcher"]), "--launch-immediately"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        _wait_for_name(address, "org.a11y.Bus")  # before Chromium asks for it (no second
        # launcher started by D-Bus activation, with another environment)
        yield Desktop(env=env, bus_address=address, processes=processes)
    finally:
        from browser_lab import stop

        for proc in reversed(processes):
            stop(proc, timeout_s=10)
        shutil.rmtree(runtime, ignore_errors=True)


class AtSpi:
    """The accessibility bus of a :class:`Desktop`, read as a screen reader reads it."""

    ACCESSIBLE = "org.a11y.atspi.Accessible"

    def __init__(self, session_address: str):
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection
        from jeepney.wrappers import unwrap_msg

        self._DBusAddress, self._new_method_call = DBusAddress, new_method_call
        session = open_dbus_connection(session_address)
        launcher = DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Bus")
        deadline = time.monotonic() + START_LIMIT_S
        while True:  # until the launcher answers (desktop() waited for its name)
            try:
                call = new_method_call(launcher, "GetAddress")
                reply = unwrap_msg(session.send_and_get_reply(call, timeout=30))
                break
            except Exception:  # jeepney's DBusErrorResponse: not started yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        session.close()
        self.connection = open_dbus_connection(reply[0])
        self._sliders: list[tuple[str, str]] = []

    def close(self) -> None:
        self.connection.close()

    # --- D-Bus calls -------------------------------------------------------------------
    def _call(self, node, method, signature=None, body=(), interface=ACCESSIBLE):
        """The reply's body; DBusErrorResponse for an error reply (jeepney hands an error
        back as a reply, whose body is its message: a node gone, an interface missing)."""
        from jeepney.wrappers import unwrap_msg

        address = self._DBusAddress(node[1], bus_name=node[0], interface=interface)
        message = self._new_method_call(address, method, signature, body)
        return unwrap_msg(self.connection.send_and_get_reply(message, timeout=30))

    def _property(self, node, interface: str, name: str):
        return self._call(
            node, "Get", "ss", (interface, name), interface="org.freedesktop.DBus.Properties"
        )[0][1]

    def role(self, node) -> str:
        return self._call(node, "GetRoleName")[0]

    def children(self, node) -> list[tuple[str, str]]:
        return [tuple(child) for child in self._call(node, "GetChildren")[0]]

    def focused(self, node) -> bool:
        low, _high = self._call(node, "GetState")[0]
        return bool(low >> STATE_FOCUSED & 1)

    def describe(self, node) -> dict:
        """Name, role, the valuetext attribute and Value's number and text of ``node``."""
        attributes = self._call(node, "GetAttributes")[0]
        out = {
            "name": self._property(node, self.ACCESSIBLE, "Name"),
            "role": self.role(node),
            "valuetext": attributes.get("valuetext", ""),
        }
        for key, prop in (("value", "CurrentValue"), ("text", "Text")):
            try:
                out[key] = self._property(node, "org.a11y.atspi.Value", prop)
            except Exception:  # an older AT-SPI has no Value.Text
                out[key] = ""
        return out

    # --- finding what has the focus ---------------------------------------------------
    def _applications(self) -> list[tuple[str, str]]:
        return self.children(("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root"))

    def _find_sliders(self) -> list[tuple[str, str]]:
        """Every slider of every application: asked of the application's Collection (one
        call; ATK's bridge searches its tree in-process), or walked where an application has
        no Collection."""
        from jeepney.wrappers import DBusErrorResponse

        found = []
        for app in self._applications():
            try:
                found += self._collect_sliders(app)
            except DBusErrorResponse:  # no Collection here: the tree, node by node
                found += self._walk_sliders([app])
        return found

    def _collect_sliders(self, app) -> list[tuple[str, str]]:
        """The sliders under ``app`` in document order, by Collection.GetMatches: a rule of
        role slider (any of), no state, attribute or interface asked (all of none)."""
        roles = [0, 0, 0, 0]  # a bit set of AtspiRole numbers, 32 to a word
        roles[SLIDER_ROLE_NUMBER // 32] |= 1 << SLIDER_ROLE_NUMBER % 32
        rule = ([0, 0], MATCH_ALL, {}, MATCH_ALL, roles, MATCH_ANY, [], MATCH_ALL, False)
        matches = self._call(
            app,
            "GetMatches",
            "(aiia{ss}iaiiasib)uib",
            (rule, SORT_CANONICAL, 0, True),  # no limit on the count; into every child
            interface="org.a11y.atspi.Collection",
        )[0]
        return [tuple(node) for node in matches]

    def _walk_sliders(self, roots) -> list[tuple[str, str]]:
        """Every slider under ``roots``, by a walk of the tree (a D-Bus call or two a node)."""
        found, stack = [], list(roots)
        while stack:
            node = stack.pop()
            try:
                role = self.role(node)
                if role == SLIDER_ROLE:
                    found.append(node)
                    continue
                stack.extend(self.children(node))
            except Exception:  # a node gone while walking: the tree moves under us
                continue
        return found

    def focused_slider(self, *, refresh: bool = False) -> dict | None:
        """The focused slider as the screen reader gets it; None when no slider is focused.

        The sliders found by the last search are asked first (a handle keeps its node while
        its dashboard lives); the tree is searched again only when none of them has the focus.
        """
        for attempt in range(2):
            if refresh or attempt or not self._sliders:
                self._sliders = self._find_sliders()
            for node in self._sliders:
                try:
                    if self.focused(node):
                        return self.describe(node)
                except Exception:  # a node removed since the walk
                    continue
            if refresh:
                break
        return None

    def wait_for(self, predicate, limit_s: float = START_LIMIT_S) -> dict | None:
        """The focused slider once ``predicate`` holds of it (Chromium sends its tree to
        AT-SPI after the page changes, not with it); the last one seen when the limit runs
        out, so the caller reports what the screen reader would say."""
        deadline, seen = time.monotonic() + limit_s, None
        while True:
            seen = self.focused_slider()
            if seen is not None and predicate(seen):
                return seen
            if time.monotonic() > deadline:
                return seen
            time.sleep(0.02)
