"""A real JupyterHub on 127.0.0.1, for tests/instructor/test_hub.py and benchmarks/bench_hub.py.

JupyterHub and configurable-http-proxy (npm's, on PATH) listen on loopback only; students are
system users made here (``useradd``, homes 0700 under a folder of the run) and removed at the
end; each student's server is JupyterHub's local process spawner running the course's
environment (``instructor.hub.recipes``: the image's requirements and settings) as that user.
Everything is reached through the hub's REST API with a service token, kernels through their
websocket. Every wait has a deadline; ``Hub.stop`` ends the hub, the proxy and the students'
processes by their process ids, never by name.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import venv
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from instructor.hub import recipes  # noqa: E402

#: seconds a server may take to start on a busy 2-core machine
SPAWN_DEADLINE = 240.0
#: seconds for one cell through a kernel
CELL_DEADLINE = 300.0


def why_not() -> str:
    """Why a real hub cannot run here ("" when it can)."""
    if not sys.platform.startswith("linux"):
        return "a hub of system users needs Linux"
    if os.geteuid() != 0:
        return "making students (useradd) and spawning as them needs root"
    for tool in ("useradd", "userdel", "git", "configurable-http-proxy"):
        if shutil.which(tool) is None:
            hint = " (npm install -g configurable-http-proxy@5.3.0)" if "proxy" in tool else ""
            return f"no {tool} on PATH{hint}"
    return ""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def world_readable_dir(prefix: str) -> Path:
    """A new folder under /tmp that the students can traverse (pytest's tmp_path is 0700)."""
    path = Path(f"/tmp/{prefix}-{uuid.uuid4().hex[:10]}")
    path.mkdir(mode=0o755)
    path.chmod(0o755)
    return path


def make_env(prefix: Path, image_dir: Path) -> Path:
    """The students' environment as the Dockerfile makes it: a venv, ``pip install -r
    requirements.txt`` in the image folder (the wheel beside it), the settings under etc/.
    An existing venv at ``prefix`` is brought up to date (pip skips what is installed)."""
    python = prefix / "bin" / "python"
    if not python.exists():
        venv.EnvBuilder(with_pip=True).create(prefix)
    (wheel,) = image_dir.glob("choosing_epsilon_helpers-*.whl")
    for command in (
        [str(python), "-m", "pip", "install", "-q", "-r", "requirements.txt"],
        # another build has the same version number and another key: always take this one
        [str(python), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", wheel.name],
    ):
        subprocess.run(command, cwd=image_dir, check=True, timeout=1200)
    recipes.install_settings(prefix)
    return python


def loaded_settings(env: Path) -> dict:
    """What a server of the environment reads: its kernel manager's config and JupyterLab's
    default setting overrides (read by the environment's own Python, no outside config)."""
    probe = (
        "import json\n"
        "from jupyter_server.serverapp import ServerApp\n"
        "from jupyter_server.services.config.manager import ConfigManager\n"
        "app = ServerApp()\n"
        "app.load_config_file()\n"
        "lab = ConfigManager(config_dir_name='labconfig').get('default_setting_overrides')\n"
        "print(json.dumps({'kernels': dict(app.config.get('MappingKernelManager', {})),"
        " 'transport': app.config.get('KernelManager', {}).get('transport'),"
        " 'runtime': __import__('os').environ.get('JUPYTER_RUNTIME_DIR'), 'lab': lab}))\n"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "PYTHON"))}
    done = subprocess.run(
        [str(env / "bin" / "python"), "-c", probe],
        capture_output=True, text=True, check=True, timeout=120, cwd="/", env=clean,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def serve_git(folder: Path) -> tuple[subprocess.Popen, str]:
    """``git daemon`` on 127.0.0.1 for the repositories in ``folder`` (read-only): the link's
    ``repo`` as a git host gives it (nbgitpuller clones shallow, which git's smart protocols
    serve); (the process, its URL). Stop it by its pid."""
    port = free_port()
    daemon = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", "--listen=127.0.0.1", f"--port={port}",
         f"--base-path={folder}", "--export-all", "--informative-errors", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return daemon, f"git://127.0.0.1:{port}"
        except OSError:
            if daemon.poll() is not None or time.monotonic() > deadline:
                daemon.kill()
                raise RuntimeError("git daemon did not start") from None
            time.sleep(0.2)


def stop(process: subprocess.Popen) -> None:
    """End a process this module started, by its pid."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


class Hub:
    """JupyterHub + configurable-http-proxy on loopback, with ``users`` as system users."""

    def __init__(self, base: Path, env: Path, users: list[str], *, plan: dict | None = None):
        self.base, self.env, self.users = Path(base), Path(env), list(users)
        self.plan = plan
        self.homes = self.base / "home"
        self.token = secrets.token_hex(32)
        self.port, self.hub_port, self.api_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.uids: dict[str, int] = {}
        self.log = self.base / "jupyterhub.log"

    # --- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        self.homes.mkdir(mode=0o755, exist_ok=True)
        for user in self.users:
            subprocess.run(
                ["useradd", "--create-home", "--home-dir", str(self.homes / user), "--shell",
                 "/bin/bash", "--user-group", user],
                check=True, capture_output=True, timeout=60,
            )  # fmt: skip
            (self.homes / user).chmod(0o700)  # as the guide says: no student reads another's
            self.uids[user] = pwd.getpwnam(user).pw_uid
        fragment = self.base / "choosing-epsilon.py"
        fragment.write_text(recipes.spawner_config(str(self.env), self.plan), "utf-8")
        config = self.base / "jupyterhub_config.py"
        config.write_text(self._config(fragment), encoding="utf-8")
        jupyterhub = self.env / "bin" / "jupyterhub"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [str(jupyterhub), "-f", str(config)],
                cwd=self.base,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, "PATH": f"{self.env}/bin:{os.environ.get('PATH', '')}"},
            )
        deadline = time.monotonic() + 120
        while True:
            try:
                self.api("GET", "/hub/api/")
                return
            except (OSError, urllib.error.URLError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the hub did not start:\n{self.log_tail()}") from None
                time.sleep(0.5)

    def _config(self, fragment: Path) -> str:
        return f"""c = get_config()  # noqa
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {self.port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {self.hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.api_port}"
c.ConfigurableHTTPProxy.pid_file = {str(self.base / "proxy.pid")!r}
c.JupyterHub.pid_file = {str(self.base / "hub.pid")!r}
c.JupyterHub.db_url = "sqlite:///{self.base}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {str(self.base / "cookie_secret")!r}
c.JupyterHub.cleanup_servers = True
c.JupyterHub.concurrent_spawn_limit = 0
c.Authenticator.allowed_users = {set(self.users)!r}
c.JupyterHub.services = [{{"name": "course-test", "api_token": {self.token!r}}}]
c.JupyterHub.load_roles = [
    {{
        "name": "course-test",
        "scopes": ["admin:users", "admin:servers", "access:servers", "read:users"],
        "services": ["course-test"],
    }}
]
c.Spawner.http_timeout = {int(SPAWN_DEADLINE)}
c.Spawner.start_timeout = {int(SPAWN_DEADLINE)}
c.Spawner.notebook_dir = "~"
load_subconfig({str(fragment)!r})  # noqa
"""

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def stop_servers(self) -> None:
        """Stop every student's server through the API and wait until none is running."""
        for user in self.users:
            try:
                self.api("DELETE", f"/hub/api/users/{user}/server")
            except (OSError, urllib.error.URLError):
                pass
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(self.server_pids(u) for u in self.users):
            time.sleep(0.5)

    def stop(self) -> None:
        """Stop the servers, the hub and the proxy, then every process of the students (by
        pid, found by the uids made here), then remove the students and their homes."""
        if self.process is not None and self.process.poll() is None:
            self.stop_servers()
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        proxy_pid = self.base / "proxy.pid"
        if proxy_pid.exists():
            _end(int(proxy_pid.read_text().strip() or 0), "configurable-http-proxy")
        for process in psutil.process_iter(["uids"]):
            uids = process.info["uids"]
            if uids is not None and uids.real in self.uids.values():
                _end(process.pid, "")
        for user in self.users:
            if user in self.uids:
                subprocess.run(["userdel", "--remove", user], capture_output=True, timeout=60)

    # --- the REST API ----------------------------------------------------------------------

    def api(self, method: str, path: str, body=None, *, timeout: float = 60.0):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            if error.code < 500:
                raise
            # a server's failure is said in the hub's log (the servers write there too)
            raise RuntimeError(f"{method} {path}: {error}\n{self.log_tail()}") from error
        return json.loads(text) if text.strip() else None

    def spawn(self, user: str) -> None:
        self.api("POST", f"/hub/api/users/{user}/server")

    def wait_ready(self, user: str) -> float:
        """Seconds until the user's server answers through the proxy."""
        start, deadline = time.monotonic(), time.monotonic() + SPAWN_DEADLINE
        while time.monotonic() < deadline:
            model = self.api("GET", f"/hub/api/users/{user}")
            server = (model.get("servers") or {}).get("", {})
            if server.get("ready"):
                try:
                    self.api("GET", f"/user/{user}/api/status")
                    return time.monotonic() - start
                except (OSError, urllib.error.URLError):
                    pass
            time.sleep(0.5)
        raise RuntimeError(
            f"{user}'s server was not ready in {SPAWN_DEADLINE} s:\n{self.log_tail()}"
        )

    def pull(self, user: str, repo_url: str, *, branch: str = "main") -> list[dict]:
        """nbgitpuller's pull (what the link's page runs): its events, up to 'finished'."""
        query = urllib.parse.urlencode(
            {"repo": repo_url, "branch": branch, "targetpath": recipes.EDITION}
        )
        request = urllib.request.Request(
            f"{self.url}/user/{user}/git-pull/api?{query}",
            headers={"Authorization": f"token {self.token}"},
        )
        events = []
        with urllib.request.urlopen(request, timeout=180) as response:
            for raw in response:
                line = raw.decode().strip()
                if line.startswith("data:"):
                    event = json.loads(line[5:])
                    events.append(event)
                    if event.get("phase") in ("finished", "error"):
                        break
        return events

    def contents(self, user: str, path: str) -> dict:
        return self.api("GET", f"/user/{user}/api/contents/{path}?content=1")

    def save(self, user: str, path: str, notebook: dict) -> None:
        body = {"type": "notebook", "format": "json", "content": notebook}
        self.api("PUT", f"/user/{user}/api/contents/{path}", body)

    def kernel(self, user: str, path: str) -> Kernel:
        """A kernel of a new session for the notebook at ``path`` (its folder is the cwd)."""
        body = {"path": path, "type": "notebook", "name": "", "kernel": {"name": "python3"}}
        session = self.api("POST", f"/user/{user}/api/sessions", body)
        return Kernel(self, user, session["kernel"]["id"])

    def server_pids(self, user: str) -> list[int]:
        """Every process of the user (server, kernels): by uid."""
        uid = self.uids.get(user)
        return [
            p.pid
            for p in psutil.process_iter(["uids"])
            if p.info["uids"] is not None and p.info["uids"].real == uid
        ]


class Kernel:
    """A kernel reached through the hub's proxy over its websocket (Jupyter's v5 protocol)."""

    def __init__(self, hub: Hub, user: str, kernel_id: str):
        import websocket  # websocket-client, pinned in requirements.txt

        self.session = uuid.uuid4().hex
        url = f"ws://127.0.0.1:{hub.port}/user/{user}/api/kernels/{kernel_id}/channels"
        self.ws = websocket.create_connection(
            url, header=[f"Authorization: token {hub.token}"], timeout=CELL_DEADLINE
        )

    def run(self, code: str) -> dict:
        """Execute ``code``; {'status', 'stdout', 'error' (ename or '')} once the kernel is idle."""
        msg_id = uuid.uuid4().hex
        message = {
            "header": {
                "msg_id": msg_id,
                "username": "test",
                "session": self.session,
                "msg_type": "execute_request",
                "version": "5.3",
            },
            "parent_header": {},
            "metadata": {},
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": False},
            "channel": "shell",
            "buffers": [],
        }  # fmt: skip
        self.ws.send(json.dumps(message))
        status, stdout, error, idle = None, [], "", False
        deadline = time.monotonic() + CELL_DEADLINE
        while (status is None or not idle) and time.monotonic() < deadline:
            raw = self.ws.recv()
            if isinstance(raw, bytes):
                continue  # a binary message (widget buffers): not ours to read
            reply = json.loads(raw)
            if reply.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = reply["header"]["msg_type"], reply["content"]
            if kind == "execute_reply":
                status = content["status"]
                error = content.get("ename", "") if status == "error" else error
            elif kind == "stream":
                stdout.append(content["text"])
            elif kind == "error":
                error = content["ename"]
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
        if status is None or not idle:
            raise TimeoutError(f"a cell ran past {CELL_DEADLINE} s: {code[:80]!r}")
        return {"status": status, "stdout": "".join(stdout), "error": error}

    def close(self) -> None:
        self.ws.close()


def _end(pid: int, name: str) -> None:
    """SIGTERM, then SIGKILL after 10 s, to one process id (``name`` checked when given)."""
    if pid <= 0:
        return
    try:
        process = psutil.Process(pid)
        if name and name not in " ".join(process.cmdline()):
            return  # the pid file names a process that has gone; another took its number
        process.terminate()
        process.wait(timeout=10)
    except psutil.TimeoutExpired:
        process.kill()
    except psutil.Error:
        pass
