"""The peak memory of a kernel running each course notebook: a row per notebook for the hub's
sizing (issue 51: the memory limit was sized from notebook 06's kernel at its end, 318 MiB,
where its peak is far higher).

Each notebook runs top to bottom in a fresh kernel started by a process of its own; when the
kernel has exited, that process reads ``getrusage(RUSAGE_CHILDREN).ru_maxrss``: the kernel's
resident peak (the high-water mark the kernel's own process reached, shared libraries counted in
full, as a pod's cgroup may be charged). The course's own notebooks are run, worked answers
included: a student's edition runs the same cells or fewer. Linux only (``ru_maxrss`` in KiB).

    python benchmarks/bench_kernel_memory.py            # print the table
    python benchmarks/bench_kernel_memory.py --write    # and store it in instructor/hub/sizing.json
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZING = ROOT / "instructor" / "hub" / "sizing.json"

#: what the measuring process runs: one notebook in a fresh kernel, then the kernel's peak
PROBE = r"""
import resource, sys
import nbformat
from nbclient import NotebookClient
path = sys.argv[1]
nb = nbformat.read(path, as_version=4)
client = NotebookClient(nb, timeout=1200, kernel_name="python3",
                        resources={"metadata": {"path": str(__import__("pathlib").Path(path).parent)}})
client.execute()
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def peak_mib(notebook: Path) -> float:
    """The resident peak, MiB, of a fresh kernel running ``notebook`` top to bottom."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(notebook)],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
        cwd=ROOT,
    )
    return float(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from helpers.notebooks import notebook_paths

    peaks = {}
    for path in notebook_paths():
        peaks[path.stem] = round(peak_mib(path), 1)
        print(f"| {path.stem} | {peaks[path.stem]:.0f} MiB |", flush=True)
    heaviest = max(peaks, key=peaks.get)
    print(f"heaviest: {heaviest}, {peaks[heaviest]:.0f} MiB at its peak")
    if "--write" in argv:
        sizing = json.loads(SIZING.read_text(encoding="utf-8"))
        sizing["kernel_peaks"] = {
            "measured": dt.date.today().isoformat(),
            "python": sys.version.split()[0],
            "mib": peaks,
        }
        SIZING.write_text(json.dumps(sizing, indent=1) + "\n", encoding="utf-8")
        print(f"written to {SIZING.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
