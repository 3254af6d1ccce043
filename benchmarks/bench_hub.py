"""Sizing a class on a hub: N students at once on this machine (tests/hub_lab.py's real hub).

For each class size N (``HUB_BENCH_STUDENTS``, default "10 20"): N system users, each server
started at once from the students' environment (the image's requirements), the student edition
pulled through nbgitpuller, then every code cell of a lecture's notebook (``HUB_BENCH_NOTEBOOK``,
10) run through each student's kernel at once. Measured per student: seconds from the start
request to a server that answers, seconds to run the notebook, and the most memory of the
student's processes (server and kernel) while it ran, sampled each second: RSS (each process's
resident pages, shared libraries counted in full: what a Kubernetes pod's cgroup is charged at
most) and PSS (shared pages split among the processes mapping them: what one machine spends per
student). Then one student runs the heaviest notebook (06) in a second kernel: that kernel's
RSS and PSS. ``--write`` (``python benchmarks/bench_hub.py --write``) stores the figures in
instructor/hub/sizing.json (replacing the class sizes measured now, keeping the others),
which ``course.py hub`` sizes the z2jh fragment from, and prints the guide's table. Needs root
and configurable-http-proxy; ``COURSE_HUB_ENV`` reuses an environment.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import hub_lab  # noqa: E402

from instructor.hub import recipes  # noqa: E402
from instructor.student import build as build_student  # noqa: E402

HEAVIEST = "06_kazan_reiter_risk_profiles"
MIB = 1024**2


def _summary(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 1), "max": round(max(values), 1)}


def _memory(pids: list[int]) -> tuple[float, float]:
    """RSS and PSS of these processes together, in MiB."""
    rss = pss = 0
    for pid in pids:
        try:
            info = psutil.Process(pid).memory_full_info()
        except psutil.Error:
            continue
        rss, pss = rss + info.rss, pss + info.pss
    return rss / MIB, pss / MIB


def _code_cells(hub: hub_lab.Hub, user: str, stem: str) -> list[str]:
    path = f"{recipes.EDITION}/notebooks/{stem}.ipynb"
    nb = nbformat.from_dict(hub.contents(user, path)["content"])
    return [c.source for c in nb.cells if c.cell_type == "code"]


def run_notebook(hub: hub_lab.Hub, user: str, stem: str) -> float:
    """Seconds to run every code cell of the notebook through a new kernel of the user's."""
    cells = _code_cells(hub, user, stem)
    kernel = hub.kernel(user, f"{recipes.EDITION}/notebooks/{stem}.ipynb")
    start = time.monotonic()
    try:
        for source in cells:
            reply = kernel.run(source)
            if reply["status"] != "ok":
                raise RuntimeError(f"{user}: {stem} raised {reply['error']}")
    finally:
        kernel.close()
    return time.monotonic() - start


def measure(students: int, env: Path, repo_url: str, notebook: str, heaviest: bool) -> dict:
    base = hub_lab.world_readable_dir("choosing-epsilon-bench-hub")
    users = [f"cebench{os.getpid() % 10000}x{i}" for i in range(students)]
    hub = hub_lab.Hub(base, env, users)
    try:
        hub.start()
        load = os.getloadavg()[0]  # the machine's load before the class arrives
        sent = {}
        for user in users:  # every start request at once, as a class logging in
            sent[user] = time.monotonic()
            hub.spawn(user)
        with ThreadPoolExecutor(max_workers=students) as pool:
            spawn = list(
                pool.map(lambda u: (hub.wait_ready(u), time.monotonic() - sent[u])[1], users)
            )
        with ThreadPoolExecutor(max_workers=students) as pool:
            pulls = list(pool.map(lambda u: hub.pull(u, repo_url), users))
        failed = [e for events in pulls for e in events if e.get("phase") == "error"]
        if failed:
            raise RuntimeError(f"a pull failed: {failed[0]}")
        peak = {u: [0.0, 0.0] for u in users}
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                for user in users:
                    rss, pss = _memory(hub.server_pids(user))
                    peak[user] = [max(peak[user][0], rss), max(peak[user][1], pss)]
                done.wait(1.0)

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            with ThreadPoolExecutor(max_workers=students) as pool:
                runs = list(pool.map(lambda u: run_notebook(hub, u, notebook), users))
        finally:
            done.set()
            sampler.join()
        result = {
            "students": students,
            "load_before": round(load, 1),
            "notebook": notebook,
            "spawn_seconds": _summary(spawn),
            "run_seconds": _summary(runs),
            "rss_mib_per_student": _summary([peak[u][0] for u in users]),
            "pss_mib_per_student": _summary([peak[u][1] for u in users]),
        }
        if heaviest:
            before = set(hub.server_pids(users[0]))
            kernel = hub.kernel(users[0], f"{recipes.EDITION}/notebooks/{HEAVIEST}.ipynb")
            try:
                for source in _code_cells(hub, users[0], HEAVIEST):
                    if kernel.run(source)["status"] != "ok":
                        raise RuntimeError(f"{HEAVIEST} raised")
                new = [p for p in hub.server_pids(users[0]) if p not in before]
                rss, pss = _memory(new)
            finally:
                kernel.close()
            result["heaviest"] = {
                "notebook": HEAVIEST,
                "kernel_rss_mib": round(rss, 1),
                "kernel_pss_mib": round(pss, 1),
            }
        return result
    finally:
        hub.stop()
        shutil.rmtree(base, ignore_errors=True)


def table(sizing: dict) -> str:
    """The guide's table (INSTRUCTORS.md, "A class on a hub") from the figures."""
    plan = recipes.memory_plan(sizing)
    loads = ", ".join(f"{r['load_before']:g}" for r in sizing["runs"])
    lines = [
        f"Measured {sizing['measured']} on {sizing['machine']}, JupyterHub {sizing['jupyterhub']} "
        f"(load average before each class: {loads}).",
        "",
        "| students at once | server ready (median, max) | notebook "
        f"{sizing['runs'][0]['notebook'][:2]} run (median, max) | RSS per student "
        "(median, max) | PSS per student (median, max) |",
        "| ---: | --- | --- | --- | --- |",
    ]
    for r in sizing["runs"]:
        s, n, rss, pss = (
            r["spawn_seconds"],
            r["run_seconds"],
            r["rss_mib_per_student"],
            r["pss_mib_per_student"],
        )
        lines.append(
            f"| {r['students']} | {s['median']:.0f} s, {s['max']:.0f} s | {n['median']:.0f} s, "
            f"{n['max']:.0f} s | {rss['median']:.0f}, {rss['max']:.0f} MiB | "
            f"{pss['median']:.0f}, {pss['max']:.0f} MiB |"
        )
    heavy = sizing["heaviest"]
    lines += [
        "",
        f"Notebook {heavy['notebook'][:2]}'s kernel alone: {heavy['kernel_rss_mib']:.0f} MiB RSS, "
        f"{heavy['kernel_pss_mib']:.0f} MiB PSS.",
        "",
        "| per student | memory |",
        "| --- | --- |",
        f"| guarantee (`singleuser.memory.guarantee`) | {plan['guarantee_mib']} MiB |",
        f"| limit (`singleuser.memory.limit`) | {plan['limit_mib']} MiB |",
        "",
        "| memory for students | z2jh: students per node (by guarantee) | nodes for 100 "
        "| nodes for 500 | one machine (TLJH): students (by PSS) |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for gib, row in plan["nodes"].items():
        lines.append(
            f"| {gib} GiB | {row['students_per_node']} | {row[100]} | {row[500]} | "
            f"{row['students_per_machine']} |"
        )
    lines.append(
        f"\nStart at most {recipes.spawn_limit(sizing)} servers at once per 2 cores "
        f"(servers ready within JupyterHub's default start timeout, {recipes.START_TIMEOUT} s)."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    reason = hub_lab.why_not()
    if reason:
        print(f"(no hub here: {reason})")
        return
    sizes = [int(n) for n in os.environ.get("HUB_BENCH_STUDENTS", "10 20").split()]
    number = os.environ.get("HUB_BENCH_NOTEBOOK", "10")
    (course,) = sorted((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bundle = tmp / "student"
        build_student(out_dir=bundle, zip_path=tmp / "student.zip", run=False)
        image = tmp / "image"
        image.mkdir()
        shutil.copy(recipes.wheel_of(bundle), image)
        (image / "requirements.txt").write_text(recipes.hub_requirements(bundle), "utf-8")
        served = hub_lab.world_readable_dir("choosing-epsilon-bench-repo")
        env_dir = os.environ.get("COURSE_HUB_ENV")
        env = Path(env_dir) if env_dir else hub_lab.world_readable_dir("choosing-epsilon-env")
        server = None
        try:
            recipes.publish_edition(bundle, served / "edition")
            server, url = hub_lab.serve_git(served)
            hub_lab.make_env(env, image)
            runs = []
            for i, students in enumerate(sizes):
                print(f"{students} students ...", flush=True)
                runs.append(measure(students, env, f"{url}/edition", course.stem, i == 0))
        finally:
            if server is not None:
                hub_lab.stop(server)
            shutil.rmtree(served, ignore_errors=True)
            if not env_dir:
                shutil.rmtree(env, ignore_errors=True)
    sizing = {
        "measured": dt.date.today().isoformat(),
        "machine": f"{os.cpu_count()} cores, {psutil.virtual_memory().total / 1024**3:.0f} GiB",
        "jupyterhub": recipes.jupyterhub_pin().split("==")[1],
        "runs": [{k: v for k, v in r.items() if k != "heaviest"} for r in runs],
        "heaviest": runs[0]["heaviest"],
    }
    if "--write" in argv and recipes.SIZING.exists():  # other class sizes measured before stay
        before = recipes.load_sizing()
        kept = [r for r in before["runs"] if r["students"] not in sizes]
        sizing["runs"] = sorted(kept + sizing["runs"], key=lambda r: r["students"])
        if kept and before["measured"] != sizing["measured"]:
            sizing["measured"] = f"{before['measured']} and {sizing['measured']}"
        if "kernel_peaks" in before:  # bench_kernel_memory.py's rows stay
            sizing["kernel_peaks"] = before["kernel_peaks"]
    print(table(sizing))
    if "--write" in argv:
        recipes.SIZING.write_text(json.dumps(sizing, indent=1) + "\n", encoding="utf-8")
        print(f"\nwritten: {recipes.SIZING.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
