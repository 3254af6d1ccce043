"""The test suite's wall time: every phase of ``course.py test``, and what each notebook costs.

    python3 course.py bench suite           # run `course.py test` (the whole suite), then report
    SUITE_BENCH_RUN=0 python3 course.py bench suite   # report the last run's records only

``course.py test`` runs the phases (unit, slow, notebooks, browser, hub) as one pytest run
(``course.RUNS``; ``--quick``: the unit phase alone), times it and writes
``build/test-times.json`` (each run's wall time and, for a run of several phases, each
phase's tests and their summed time; the cores and workers) and
``build/test-times/<run>.xml`` (pytest's JUnit report: each test's time). This module reads
them and prints two tables: the wall time of each run with its tests and their summed time
(the difference is what the workers ran side by side) and its phases' shares, and for each notebook the summed time
of the tests that name it (executing it, driving it in the browser, its student edition), so
the cost of a new notebook shows in its own change. Measured in docs/developing.md ("The test
suite"); no speed is asserted anywhere in the tests.
"""

from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "build" / "test-times.json"
REPORTS = ROOT / "build" / "test-times"
#: the course's notebooks, found, never listed
STEMS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: a notebook named in a test id: "[03_bounds]", "[03_bounds.ipynb]", "[student-03_bounds]"
NOTEBOOK = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, STEMS)) + r")(?![A-Za-z0-9_])")


def tests_of(phase: str) -> list[tuple[str, float]]:
    """(test id, seconds) of every test the phase ran, from its JUnit report."""
    path = REPORTS / f"{phase}.xml"
    if not path.exists():
        return []
    root = ET.parse(path).getroot()
    return [
        (f"{case.get('classname', '')}::{case.get('name', '')}", float(case.get("time") or 0))
        for case in root.iter("testcase")
    ]


def phase_table(record: dict) -> list[str]:
    lines = [
        "| run (its phases) | wall time (s) | tests | their summed time (s) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for phase in record["phases"]:
        cases = tests_of(phase["phase"])
        summed = f"{sum(t for _, t in cases):.0f}" if cases else ""
        count = str(len(cases)) if cases else ""
        lines.append(f"| {phase['phase']} | {phase['seconds']:.0f} | {count} | {summed} |")
        for name, share in phase.get("tests", {}).items():  # the phases of a run of several
            lines.append(f"| &nbsp;&nbsp;{name} | | {share['count']} | {share['seconds']:.0f} |")
    total = sum(p["seconds"] for p in record["phases"])
    lines.append(f"| **in all** | **{total:.0f}** | | |")
    return lines


def notebook_table(record: dict) -> list[str]:
    per: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for phase in record["phases"]:
        for test, seconds in tests_of(phase["phase"]):
            found = NOTEBOOK.search(test.split("::", 1)[-1])
            if found:
                per[found.group(1)][phase["phase"]] += seconds
    if not per:
        return []
    phases = [p["phase"] for p in record["phases"] if any(p["phase"] in c for c in per.values())]
    lines = [
        "| notebook | " + " | ".join(f"{p} (s)" for p in phases) + " | in all (s) |",
        "| --- |" + " ---: |" * (len(phases) + 1),
    ]
    for notebook in sorted(per):
        row = per[notebook]
        cells = " | ".join(f"{row[p]:.0f}" for p in phases)
        lines.append(f"| {notebook} | {cells} | {sum(row.values()):.0f} |")
    return lines


def main() -> None:
    if os.environ.get("SUITE_BENCH_RUN", "1") != "0":
        done = subprocess.run([sys.executable, str(ROOT / "course.py"), "test"], cwd=ROOT)
        print(f"course.py test exited {done.returncode}\n")
    if not RECORD.exists():
        print(f"no {RECORD.relative_to(ROOT)}: run `python3 course.py test` first")
        return
    record = json.loads(RECORD.read_text())
    print(
        f"{record['when']}: Python {record['python']}, {record['cpus']} cores, "
        f"{record['workers']} pytest workers, {'--quick' if record['quick'] else 'every phase'}, "
        f"{'passed' if record['passed'] else 'FAILED'}\n"
    )
    print("\n".join(phase_table(record)) + "\n")
    print("\n".join(notebook_table(record)))


if __name__ == "__main__":
    main()
