"""instructor/hub/recipes.py: what ``course.py hub`` writes, from a student build made here."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml

from instructor.hub import recipes

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def made(bundle, tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("hub") / "hub"
    return recipes.build(
        out=out, bundle=bundle, hub_url="https://hub.example.edu/", repo_url="", image="r/ce"
    )


# --- what course.py hub writes -------------------------------------------------------------


def test_the_image_installs_the_student_build_and_the_hubs_pins(made, bundle):
    image = made["image"]
    wheel = recipes.wheel_of(bundle)
    assert (image / wheel.name).read_bytes() == wheel.read_bytes()  # the grader's wheel and key
    requirements = (image / "requirements.txt").read_text()
    assert requirements.startswith((bundle / "requirements.txt").read_text().rstrip())
    pins = [line for line in requirements.splitlines() if "==" in line and "#" not in line[:1]]
    names = [line.split("==")[0].strip().lower() for line in pins]
    markers = [line.partition(";")[2].strip() for line in pins]
    assert len(set(zip(names, markers, strict=True))) == len(pins)  # none pinned twice
    student, hub = (
        _pinned((bundle / "requirements.txt").read_text()),
        _pinned(recipes.HUB_PINS.read_text()),
    )
    assert hub and not student & hub  # the hub's pins add packages, never re-pin the student's
    assert recipes.jupyterhub_pin() in requirements and "nbgitpuller==" in requirements
    assert "opendp" not in names  # the student's pins, not the reader's
    dockerfile = (image / "Dockerfile").read_text()
    for copied in [wheel.name, "requirements.txt", *map(lambda r: Path(r).name, recipes.server_settings())]:  # fmt: skip
        assert copied in dockerfile and (image / copied).is_file()
    lab = json.loads((image / "default_setting_overrides.json").read_text())
    assert lab == json.loads(recipes.LAB_SETTINGS.read_text())  # course.py lab's settings
    culling = json.loads((image / "jupyter_server_config.json").read_text())["MappingKernelManager"]
    assert culling["cull_idle_timeout"] == recipes.KERNEL_IDLE_SECONDS > 0


def _pinned(text: str) -> set[str]:
    names = set()
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            names.add(re.sub(r"[-_.]+", "-", line.split("==")[0].strip()).lower())
    return names


def test_the_z2jh_fragment_is_sized_from_the_measured_figures(made):
    config = yaml.safe_load(made["z2jh"].read_text())
    plan = recipes.memory_plan(recipes.load_sizing())
    memory = config["singleuser"]["memory"]
    assert memory == {"guarantee": f"{plan['guarantee_mib']}M", "limit": f"{plan['limit_mib']}M"}
    assert config["singleuser"]["image"] == {"name": "r/ce", "tag": made["commit"][:12]}
    assert config["cull"]["enabled"] is True and config["cull"]["timeout"] > 0
    assert config["singleuser"]["defaultUrl"].startswith("/git-pull?")
    assert config["hub"]["concurrentSpawnLimit"] == recipes.spawn_limit(recipes.load_sizing())


def test_memory_plan_covers_every_measured_class_and_two_notebooks():
    sizing = {
        "runs": [
            {"students": 10, "spawn_seconds": {"max": 20.0},
             "rss_mib_per_student": {"max": 300.5}, "pss_mib_per_student": {"max": 250.0}},
            {"students": 20, "spawn_seconds": {"max": 70.0},
             "rss_mib_per_student": {"max": 390.0}, "pss_mib_per_student": {"max": 260.0}},
        ],
        "heaviest": {"kernel_rss_mib": 700.0},
    }  # fmt: skip
    plan = recipes.memory_plan(sizing)
    assert 390.0 <= plan["guarantee_mib"] < 390.0 + 128 and plan["guarantee_mib"] % 128 == 0
    assert plan["limit_mib"] >= 1.25 * (390.0 + 700.0) and plan["limit_mib"] % 256 == 0
    for gib, row in plan["nodes"].items():
        assert row["students_per_node"] * plan["guarantee_mib"] <= gib * 1024
        assert (row["students_per_node"] + 1) * plan["guarantee_mib"] > gib * 1024
        assert (
            row[100] * row["students_per_node"] >= 100 > (row[100] - 1) * row["students_per_node"]
        )
    # issue 51: a notebook's kernel at its peak, where measured, sizes the limit
    peaks = {**sizing, "kernel_peaks": {"mib": {"06": 900.0, "10": 400.0}}}
    assert recipes.memory_plan(peaks)["limit_mib"] >= 1.25 * (390.0 + 900.0)
    assert recipes.spawn_limit(sizing) == 10  # 20 at once took longer than 60 s
    slow = {**sizing, "runs": [{**sizing["runs"][1], "students": 10, "spawn_seconds": {"max": 120.0}}]}  # fmt: skip
    assert recipes.spawn_limit(slow) == 5


def test_the_link_pulls_the_edition_and_opens_notebook_00():
    link = recipes.pull_link("https://hub.example.edu/", "https://git.example.edu/a/b c.git")
    parsed = urlparse(link)
    assert parsed.path == "/hub/user-redirect/git-pull"
    query = {k: v[0] for k, v in parse_qs(parsed.query).items()}
    assert query == {
        "repo": "https://git.example.edu/a/b c.git",
        "branch": "main",
        "targetpath": recipes.EDITION,
        "urlpath": f"lab/tree/{recipes.EDITION}/notebooks/{recipes.FIRST_NOTEBOOK}",
    }
    assert (ROOT / "notebooks" / recipes.FIRST_NOTEBOOK).exists()


def test_a_new_build_is_a_new_commit_on_the_same_history(bundle, tmp_path):
    repo = tmp_path / "edition"
    first = recipes.publish_edition(bundle, repo)
    assert recipes.publish_edition(bundle, repo) == first  # nothing changed, no commit
    changed = tmp_path / "changed"
    shutil.copytree(bundle, changed)
    (changed / "NOTATION.md").write_text("changed\n")
    second = recipes.publish_edition(changed, repo)
    assert second != first
    assert recipes._git(repo, "rev-parse", "HEAD~1") == first  # students' pulls merge
    tracked = set(recipes._git(repo, "ls-files").splitlines())
    assert {p.split("/")[0] for p in tracked} == set(recipes.EDITION_FILES)
    assert not any(name.endswith(".whl") for name in tracked)


def test_the_tljh_recipe_parses_and_its_fragment_configures_the_servers(made):
    import subprocess

    from traitlets.config import Config

    tljh = made["tljh"]
    assert subprocess.run(["bash", "-n", str(tljh / "install.sh")], check=False).returncode == 0
    script = (tljh / "install.sh").read_text()
    assert f"limits.memory {made['plan']['limit_mib']}M" in script and made["link"] in script
    config = Config()
    exec((tljh / "choosing-epsilon.py").read_text(), {"get_config": lambda: config})
    assert config.Spawner.cmd == [f"{recipes.ENV_PREFIX}/bin/jupyterhub-singleuser"]
    assert config.Spawner.mem_limit == f"{made['plan']['limit_mib']}M"
    environment = config.Spawner.environment.get_value({"TLJH": "kept"})
    assert environment["TLJH"] == "kept"  # added to, not replaced
    assert environment["PATH"].startswith(f"{recipes.ENV_PREFIX}/bin:")


# --- issue 51: the guide true for 2026's hubs ----------------------------------------------


@pytest.mark.parametrize(
    ("have", "accepted"), [("5.2.1", True), ("5.5.0", True), ("6.1.1", False), ("4.1.6", False)]
)
def test_the_tljh_recipe_accepts_a_hub_of_the_images_major_version(made, tmp_path, have, accepted):
    """TLJH installs ``jupyterhub>=5.2.0,<6``: the recipe runs on any of those, and refuses a
    hub whose major version differs from the image's (the check alone, on a stand-in hub)."""
    import subprocess

    fake = tmp_path / "jupyterhub"
    fake.write_text(f"#!/bin/sh\necho {have}\n")
    fake.chmod(0o755)
    script = (made["tljh"] / "install.sh").read_text()
    check = script[: script.index("python3 -m venv")].replace(
        "/opt/tljh/hub/bin/jupyterhub", str(fake)
    )
    done = subprocess.run(["bash", "-c", check + "echo checked\n"], capture_output=True, text=True)
    assert (done.returncode == 0 and "checked" in done.stdout) is accepted, done.stderr
    assert "--force-reinstall ./choosing_epsilon_helpers-*.whl" in script


def test_every_server_runs_its_kernels_on_unix_sockets_in_a_private_folder(tmp_path, monkeypatch):
    import os
    import stat
    import tempfile

    from traitlets.config import Config

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("JUPYTER_RUNTIME_DIR", raising=False)
    config = Config()
    exec(recipes.server_settings()["etc/jupyter/jupyter_server_config.py"], {"c": config})
    assert config.KernelManager.transport == "ipc"
    folder = Path(os.environ["JUPYTER_RUNTIME_DIR"])
    monkeypatch.delenv("JUPYTER_RUNTIME_DIR")
    assert folder.parent == tmp_path and folder.name.startswith("jupyter-run-")
    info = folder.stat()
    assert info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) == 0o700
    # each kernel's sockets sit beside its connection file (``kernel-<uuid>-ipc-N``): on the
    # default /tmp the longest path stays under the 107 bytes of a Unix socket's address
    on_tmp = f"/tmp/{folder.name}/kernel-{'0' * 36}-ipc-99999"
    assert len(on_tmp.encode()) <= 107


def test_two_kernels_started_at_once_get_sockets_of_their_own(tmp_path, monkeypatch):
    """The issue's port race, for ipc: each kernel's prefix is its connection file's, so two
    connection files written at once name different sockets (a shared prefix named the same)."""
    from jupyter_client.multikernelmanager import MultiKernelManager
    from traitlets.config import Config

    config = Config()
    config.KernelManager.transport = "ipc"
    manager = MultiKernelManager(config=config, connection_dir=str(tmp_path))
    paths = []
    for name in ("a", "b"):
        kernel = manager.kernel_manager_factory(
            connection_file=str(tmp_path / f"kernel-{name}.json"), parent=manager
        )
        kernel.write_connection_file()
        paths.append({f"{kernel.ip}-{kernel.shell_port}", f"{kernel.ip}-{kernel.iopub_port}"})
    assert not paths[0] & paths[1]


def test_course_py_hub_warns_of_every_placeholder(monkeypatch, capsys):
    made = {"plan": {"guarantee_mib": 1, "limit_mib": 2}, "out": recipes.ROOT / "build" / "hub"}
    made.update(commit="0" * 40, link="https://HUB.example.edu/x")
    monkeypatch.setattr(recipes, "build", lambda **kwargs: made)
    assert recipes.main([]) == 0
    said = capsys.readouterr().err
    for option in ("--hub-url", "--repo-url", "--image"):
        assert f"no {option}" in said
    assert (
        recipes.main(["--hub-url", "https://h", "--repo-url", "https://g", "--image", "r/i"]) == 0
    )
    assert "warning" not in capsys.readouterr().err
