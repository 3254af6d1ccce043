"""What a JupyterHub needs to serve the student edition: ``python3 course.py hub``.

Everything is made from the student build the grader uses (``build/student/``: its pins, its
wheel and the key inside it; ``instructor.grading.grade.ensure_grade_env`` installs the same two
files), so the students' check and the grading environment agree. Writes ``build/hub/``:

* ``image/``: ``Dockerfile`` (plain Python, the student pins, the wheel, ``jupyterhub`` and
  nbgitpuller from ``requirements-hub.txt``, the course's JupyterLab settings and idle-kernel
  culling under the environment's ``etc/jupyter``), with the files it copies;
* ``z2jh-config.yaml``: a Zero to JupyterHub fragment: the image, the memory guarantee and
  limit from the measured figures (``sizing.json``, made by ``benchmarks/bench_hub.py``),
  idle-server culling and the nbgitpuller link as the default URL;
* ``tljh/``: a Littlest JupyterHub recipe for one server (``install.sh`` and the
  ``jupyterhub_config.d`` fragment it installs);
* ``student-edition/``: the student edition as a git repository (one commit per build that
  changed it, so students' nbgitpuller pulls merge), and ``LINK.txt``, the link for the class.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BUNDLE = ROOT / "build" / "student"
OUT = ROOT / "build" / "hub"
HUB_PINS = HERE / "requirements-hub.txt"
SIZING = HERE / "sizing.json"
LAB_SETTINGS = ROOT / "jupyter-config" / "labconfig" / "default_setting_overrides.json"
#: the folder nbgitpuller pulls into, in each home, and the repository's name
EDITION = "choosing-epsilon-student"
#: what the git repository of the student edition holds (the image holds the wheel)
EDITION_FILES = ("notebooks", "README.md", "NOTATION.md")
FIRST_NOTEBOOK = "00_dp_foundations.ipynb"
#: the Python of the students' image; the pins were resolved on 3.11 (requirements-hub.txt)
IMAGE_PYTHON = "3.11"
#: where the environment lives in the image and in the Littlest JupyterHub recipe
ENV_PREFIX = "/opt/choosing-epsilon"
#: a kernel that has run nothing for this long is stopped (its notebook stays open: rerun it);
#: notebooks 06 and 11 left open together hold 1.3 GB (issue 40)
KERNEL_IDLE_SECONDS = 20 * 60
#: a server with no activity for this long is stopped (the student's files stay)
SERVER_IDLE_SECONDS = 60 * 60
#: the memory a node gives to students' servers, for the table of nodes (GiB, allocatable)
NODE_GIB = (32, 64)
MIB = 1024**2
#: JupyterHub's default Spawner.start_timeout (seconds)
START_TIMEOUT = 60


# --- the environment: pins and settings -----------------------------------------------------


def jupyterhub_pin() -> str:
    """The ``jupyterhub==X.Y.Z`` of requirements-hub.txt (the hub must run the same version)."""
    for line in HUB_PINS.read_text(encoding="utf-8").splitlines():
        if re.match(r"jupyterhub\s*==", line):
            return line.split("#")[0].strip().replace(" ", "")
    raise ValueError(f"{HUB_PINS.name} pins no jupyterhub==...")


def hub_requirements(bundle: Path = BUNDLE) -> str:
    """The image's requirements.txt: the student bundle's (pins and wheel), then the hub's."""
    student = (bundle / "requirements.txt").read_text(encoding="utf-8").rstrip()
    hub = HUB_PINS.read_text(encoding="utf-8").rstrip()
    return f"{student}\n\n# --- for the hub (instructor/hub/requirements-hub.txt) ---\n{hub}\n"


#: Every student's kernels on Unix sockets (ZeroMQ's ``ipc`` transport), never on TCP ports of
#: 127.0.0.1, where another student on the same machine (TLJH, a local spawner) can connect and
#: read the kernel's code and output (issue 51). The server's runtime folder (its connection
#: files, and each kernel's sockets beside its own: ``kernel-<uuid>-ipc-N``, one prefix per
#: kernel, so two kernels started at once never pick the same paths) is one the server makes
#: at start with ``tempfile.mkdtemp``: the user's own, 0700, of a name no one can guess or take
#: first, and short wherever the home is (a socket's path has at most 107 bytes; the default
#: ``~/.local/share/jupyter/runtime`` passes it for a TLJH user name of 15 characters or more).
KERNEL_TRANSPORT = """# Written by `python3 course.py hub` (instructor/hub/recipes.py): kernels on Unix sockets
# in a private runtime folder of this server's own, never on TCP ports another user of the
# machine can reach.
import atexit
import os
import shutil
import tempfile

if not os.environ.get("JUPYTER_RUNTIME_DIR", "").startswith(tempfile.gettempdir()):
    os.environ["JUPYTER_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="jupyter-run-")
    atexit.register(shutil.rmtree, os.environ["JUPYTER_RUNTIME_DIR"], ignore_errors=True)
c.KernelManager.transport = "ipc"  # noqa: F821 (c is the config the server passes)
"""


def server_settings() -> dict[str, str]:
    """Files under an environment's prefix that every student's server reads (relative path ->
    text): the course's JupyterLab settings (as ``course.py lab`` applies them) and idle-kernel
    culling. ``etc/jupyter`` of the environment is on Jupyter's configuration path."""
    culling = {
        "MappingKernelManager": {
            "cull_idle_timeout": KERNEL_IDLE_SECONDS,
            "cull_interval": 120,
            "cull_connected": True,  # an open tab alone does not keep 700 MB alive
            "cull_busy": False,
        }
    }
    return {
        "etc/jupyter/labconfig/default_setting_overrides.json": LAB_SETTINGS.read_text("utf-8"),
        # the server's own config file: its .d folder is read for extensions only
        "etc/jupyter/jupyter_server_config.json": json.dumps(culling, indent=1) + "\n",
        "etc/jupyter/jupyter_server_config.py": KERNEL_TRANSPORT,
    }


def install_settings(prefix: Path) -> list[Path]:
    """Write ``server_settings()`` under an environment's prefix; return the files."""
    written = []
    for relative, text in server_settings().items():
        target = Path(prefix) / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def wheel_of(bundle: Path = BUNDLE) -> Path:
    wheels = sorted(bundle.glob("choosing_epsilon_helpers-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"{bundle} holds {len(wheels)} helper wheels, not one")
    return wheels[0]


def dockerfile(wheel_name: str) -> str:
    """The students' image: plain Python, one virtual environment, the settings, no root."""
    settings = "\n".join(f"COPY {Path(r).name} {ENV_PREFIX}/{r}" for r in server_settings())
    return f"""# The students' image for Zero to JupyterHub, written by `python3 course.py hub`.
# Build and push it (tag it with the build: the wheel's key changes with every student build):
#   docker build -t REGISTRY/choosing-epsilon:TAG build/hub/image && docker push REGISTRY/choosing-epsilon:TAG
FROM python:{IMAGE_PYTHON}-slim-bookworm
# git for nbgitpuller; tini reaps the kernels' children
RUN apt-get update && apt-get install -y --no-install-recommends git tini \\
    && rm -rf /var/lib/apt/lists/*
# z2jh runs the server as uid 1000 with the home volume mounted at /home/jovyan
RUN useradd --create-home --uid 1000 --shell /bin/bash jovyan
COPY requirements.txt {wheel_name} /tmp/course/
RUN python -m venv {ENV_PREFIX} \\
    && cd /tmp/course && {ENV_PREFIX}/bin/python -m pip install --no-cache-dir -r requirements.txt \\
    && rm -rf /tmp/course
{settings}
ENV PATH={ENV_PREFIX}/bin:$PATH
USER 1000
WORKDIR /home/jovyan
EXPOSE 8888
ENTRYPOINT ["tini", "--"]
CMD ["jupyterhub-singleuser"]
"""


# --- sizing -----------------------------------------------------------------------------------


def load_sizing(path: Path = SIZING) -> dict:
    """The measured figures (``benchmarks/bench_hub.py --write``)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _round_up(mib: float, step: int) -> int:
    return int(math.ceil(mib / step) * step)


def memory_plan(sizing: dict) -> dict:
    """Memory per student and nodes, from the measured figures.

    * guarantee: the most resident memory (RSS, shared libraries counted in full, as a pod's
      cgroup may be charged) of one student's server and kernel while a lecture's notebook
      ran, over every class size measured, rounded up to 128 MiB: what Kubernetes reserves;
    * limit: that, plus the heaviest notebook's kernel beside it at its peak (two notebooks
      open; ``kernel_peaks``, a row per notebook from ``benchmarks/bench_kernel_memory.py``,
      else the hub benchmark's heaviest kernel), with a quarter more, rounded up to 256 MiB;
      idle kernels are stopped after ``KERNEL_IDLE_SECONDS``, so more than two at once is rare;
    * students per node and nodes for 100 and 500 students: Kubernetes places pods by their
      guarantee, so ``floor(node memory / guarantee)`` per node;
    * students per machine of one hub (TLJH): by the proportional set size (PSS: a library
      the students share counted once among them), ``floor(memory / PSS per student)``.
    """
    runs = sizing["runs"]
    lecture = max(r["rss_mib_per_student"]["max"] for r in runs)
    shared = max(r["pss_mib_per_student"]["max"] for r in runs)
    guarantee = _round_up(lecture, 128)
    heaviest = sizing["heaviest"]["kernel_rss_mib"]
    if "kernel_peaks" in sizing:  # each notebook's kernel at its peak, not at its end
        heaviest = max(heaviest, *sizing["kernel_peaks"]["mib"].values())
    limit = _round_up(1.25 * (lecture + heaviest), 256)
    nodes = {}
    for gib in NODE_GIB:
        per_node = (gib * 1024) // guarantee
        nodes[gib] = {
            "students_per_node": per_node,
            "students_per_machine": int((gib * 1024) // shared),
            **{n: math.ceil(n / per_node) for n in (100, 500)},
        }
    return {"guarantee_mib": guarantee, "limit_mib": limit, "nodes": nodes}


def spawn_limit(sizing: dict) -> int:
    """Servers to start at once per 2 cores: the largest class measured whose every server was
    ready within JupyterHub's default ``Spawner.start_timeout`` (60 s); if none was, the
    smallest class scaled down to that time. At least 1."""
    runs = sorted(sizing["runs"], key=lambda r: r["students"])
    fast = [r["students"] for r in runs if r["spawn_seconds"]["max"] <= START_TIMEOUT]
    if fast:
        return max(fast)
    slowest = runs[0]["spawn_seconds"]["max"]
    return max(1, int(runs[0]["students"] * START_TIMEOUT / slowest))


# --- the recipes ------------------------------------------------------------------------------


def pull_link(hub_url: str, repo_url: str, *, branch: str = "main") -> str:
    """The nbgitpuller link: log in, pull (or merge) the edition into ~/EDITION, open notebook 00."""
    query = urlencode(
        {
            "repo": repo_url,
            "branch": branch,
            "targetpath": EDITION,
            "urlpath": f"lab/tree/{EDITION}/notebooks/{FIRST_NOTEBOOK}",
        },
        quote_via=quote,
    )
    return f"{hub_url.rstrip('/')}/hub/user-redirect/git-pull?{query}"


def z2jh_config(image: str, tag: str, plan: dict, sizing: dict, repo_url: str, branch: str) -> str:
    """A fragment of Zero to JupyterHub's ``config.yaml`` (merge it into yours)."""
    default_url = pull_link("", repo_url, branch=branch).replace("/hub/user-redirect", "")
    spawns = spawn_limit(sizing)
    return f"""# Zero to JupyterHub: the course's part of config.yaml, written by `python3 course.py hub`.
# Use a chart whose hub runs {jupyterhub_pin().replace("==", " ")} (the image's jupyterhub-singleuser).
# Memory from instructor/hub/sizing.json (benchmarks/bench_hub.py; see INSTRUCTORS.md,
# "A class on a hub"): guarantee = the most RSS of one student's server and kernel running a
# lecture's notebook; limit = that + the heaviest notebook's kernel beside it at its peak
# (benchmarks/bench_kernel_memory.py), plus 25 %.
singleuser:
  image:
    name: {image}
    tag: "{tag}"
  memory:
    guarantee: {plan["guarantee_mib"]}M
    limit: {plan["limit_mib"]}M
  # every start pulls (or merges) the student edition into ~/{EDITION} and opens notebook 00;
  # idle kernels stop after {KERNEL_IDLE_SECONDS // 60} minutes (the image's jupyter_server_config.json)
  defaultUrl: "{default_url}"
  cmd: jupyterhub-singleuser
hub:
  # servers started at once: what 2 cores readied within 60 s (sizing.json); scale it by your
  # nodes' cores / 2 and their number
  concurrentSpawnLimit: {spawns}
cull:
  enabled: true
  # a server with no activity for {SERVER_IDLE_SECONDS // 60} minutes is stopped; the home volume stays
  timeout: {SERVER_IDLE_SECONDS}
  every: 300
"""


def spawner_config(prefix: str, plan: dict | None) -> str:
    """The ``jupyterhub_config.d`` fragment of one machine's hub (TLJH, the hub test): each
    student's server from the course's environment, its memory limit, the lab as the start.
    ``plan=None`` (the sizing benchmark, which measures what the limits are made from): none."""
    memory = (
        "# honoured by TLJH's systemd spawner; the plain local spawner ignores them\n"
        f'c.Spawner.mem_guarantee = "{plan["guarantee_mib"]}M"\n'
        f'c.Spawner.mem_limit = "{plan["limit_mib"]}M"\n'
        if plan
        else ""
    )
    return f'''"""The course's servers (written by `python3 course.py hub`): jupyterhub_config.d."""

c = get_config()  # noqa: F821 (JupyterHub's configuration loader defines it)
c.Spawner.cmd = ["{prefix}/bin/jupyterhub-singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.environment.update({{"PATH": "{prefix}/bin:/usr/local/bin:/usr/bin:/bin"}})
{memory}'''


def tljh_install(prefix: str, link: str, plan: dict) -> str:
    """The Littlest JupyterHub recipe: run as root on the hub's server, in ``build/hub/tljh``."""
    files = "\n".join(
        f'install -D -m 0644 "{Path(r).name}" "{prefix}/{r}"' for r in server_settings()
    )
    return f"""#!/usr/bin/env bash
# The Littlest JupyterHub (one server): the course's environment beside TLJH's own, each
# student's server started from it. Written by `python3 course.py hub`; copy build/hub/tljh/ and
# build/hub/image/ to the server and run `sudo bash tljh/install.sh` from their parent folder.
set -euo pipefail
cd "$(dirname "$0")"
wanted="{jupyterhub_pin().split("==")[1]}"
have="$(/opt/tljh/hub/bin/jupyterhub --version)"
if [ "${{have%%.*}}" != "${{wanted%%.*}}" ]; then
  echo "this TLJH runs JupyterHub $have; the course's servers run $wanted: a hub of major version ${{wanted%%.*}} is needed" >&2
  exit 1
fi
python3 -m venv "{prefix}"
(cd ../image && "{prefix}/bin/python" -m pip install --no-cache-dir -r requirements.txt)
# a new student build keeps its version number: its wheel is installed again all the same
(cd ../image && "{prefix}/bin/python" -m pip install --no-cache-dir --no-deps --force-reinstall ./choosing_epsilon_helpers-*.whl)
{files}
install -D -m 0644 choosing-epsilon.py /opt/tljh/config/jupyterhub_config.d/choosing-epsilon.py
# private homes (TLJH's students are jupyter-NAME): no student reads another's notebooks
if grep -qE '^[[:space:]]*HOME_MODE' /etc/login.defs; then
  sed -i -E 's/^[[:space:]]*HOME_MODE.*/HOME_MODE\\t0700/' /etc/login.defs
else
  printf 'HOME_MODE\\t0700\\n' >> /etc/login.defs
fi
for home in /home/jupyter-*; do
  if [ -d "$home" ] && [ ! -L "$home" ]; then chmod 0700 "$home"; fi
done
# each student's memory limit, and idle servers stopped after {SERVER_IDLE_SECONDS // 60} minutes (TLJH's culler)
tljh-config set limits.memory {plan["limit_mib"]}M
tljh-config set services.cull.timeout {SERVER_IDLE_SECONDS}
tljh-config set services.cull.every 300
tljh-config reload
echo "done: send the class {link}"
"""


# --- the student edition as a git repository --------------------------------------------------


def _git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "course.py hub",
        "GIT_AUTHOR_EMAIL": "hub@localhost",
        "GIT_COMMITTER_NAME": "course.py hub",
        "GIT_COMMITTER_EMAIL": "hub@localhost",
    }
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def publish_edition(bundle: Path, repo: Path, *, branch: str = "main") -> str:
    """Copy the edition's files into the repository and commit them if they changed; return
    the commit. The repository is kept between builds: nbgitpuller merges a new commit into a
    student's folder, a new history would not merge."""
    if not (repo / ".git").exists():
        repo.mkdir(parents=True, exist_ok=True)
        _git(repo, "init", "-q", "-b", branch)
    for name in os.listdir(repo):
        if name != ".git":
            target = repo / name
            shutil.rmtree(target) if target.is_dir() else target.unlink()
    for name in EDITION_FILES:
        source = bundle / name
        if source.is_dir():
            shutil.copytree(source, repo / name)
        else:
            shutil.copy(source, repo / name)
    _git(repo, "add", "-A")
    if _git(repo, "status", "--porcelain"):
        _git(repo, "commit", "-q", "-m", "The student edition, from `python3 course.py hub`")
    _git(repo, "update-server-info")  # a plain web server can serve it (git's dumb HTTP)
    return _git(repo, "rev-parse", "HEAD")


# --- all of it ----------------------------------------------------------------------------------


def build(
    *,
    out: Path = OUT,
    bundle: Path = BUNDLE,
    hub_url: str = "https://HUB.example.edu",
    repo_url: str = "",
    image: str = "REGISTRY/choosing-epsilon",
    branch: str = "main",
    sizing: Path = SIZING,
) -> dict:
    """Write everything in ``out``; return the paths, the commit and the link."""
    if not (bundle / "requirements.txt").exists():
        from instructor.student import build as build_student

        print("building the student bundle (as the grading environment does) ...", flush=True)
        build_student(out_dir=bundle, run=False)
    wheel = wheel_of(bundle)
    measured = load_sizing(sizing)
    plan = memory_plan(measured)
    repo = out / "student-edition"
    commit = publish_edition(bundle, repo, branch=branch)
    repo_url = repo_url or repo.resolve().as_uri()
    link = pull_link(hub_url, repo_url, branch=branch)
    image_dir = out / "image"
    if image_dir.exists():
        shutil.rmtree(image_dir)
    image_dir.mkdir(parents=True)
    shutil.copy(wheel, image_dir / wheel.name)
    (image_dir / "requirements.txt").write_text(hub_requirements(bundle), encoding="utf-8")
    for relative, text in server_settings().items():
        (image_dir / Path(relative).name).write_text(text, encoding="utf-8")
    (image_dir / "Dockerfile").write_text(dockerfile(wheel.name), encoding="utf-8")
    tag = commit[:12]
    (out / "z2jh-config.yaml").write_text(
        z2jh_config(image, tag, plan, measured, repo_url, branch), encoding="utf-8"
    )
    tljh = out / "tljh"
    tljh.mkdir(parents=True, exist_ok=True)
    for relative, text in server_settings().items():
        (tljh / Path(relative).name).write_text(text, encoding="utf-8")
    (tljh / "choosing-epsilon.py").write_text(spawner_config(ENV_PREFIX, plan), "utf-8")
    (tljh / "install.sh").write_text(tljh_install(ENV_PREFIX, link, plan), "utf-8")
    (out / "LINK.txt").write_text(link + "\n", encoding="utf-8")
    return {
        "out": out,
        "image": image_dir,
        "wheel": wheel,
        "z2jh": out / "z2jh-config.yaml",
        "tljh": tljh,
        "repo": repo,
        "commit": commit,
        "link": link,
        "plan": plan,
    }


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="course.py hub", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hub-url", default="https://HUB.example.edu", help="your hub's address")
    parser.add_argument(
        "--repo-url",
        default="",
        help="where you push build/hub/student-edition (default: its local path)",
    )
    parser.add_argument("--image", default="REGISTRY/choosing-epsilon", help="the image's name")
    parser.add_argument("--branch", default="main")
    args = parser.parse_args(argv)
    for given, placeholder, what in (
        (args.hub_url, "https://HUB.example.edu", "--hub-url (your hub's address)"),
        (args.repo_url, "", "--repo-url (where the class can pull the edition from)"),
        (args.image, "REGISTRY/choosing-epsilon", "--image (your registry's image name)"),
    ):
        if given == placeholder:
            print(
                f"warning: no {what} given: the link and the recipes hold a placeholder "
                "(a local path or an example host) that no student can reach",
                file=sys.stderr,
            )
    made = build(hub_url=args.hub_url, repo_url=args.repo_url, image=args.image, branch=args.branch)
    plan = made["plan"]
    print(
        f"hub recipes in {made['out'].relative_to(ROOT)}/: image/Dockerfile, z2jh-config.yaml "
        f"(memory {plan['guarantee_mib']}M guaranteed, {plan['limit_mib']}M limit), tljh/, "
        f"student-edition/ at {made['commit'][:12]}\nthe link for the class: {made['link']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
