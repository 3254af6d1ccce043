"""Each test's time in the last measured run, so pytest-xdist hands out the longest work first.

``course.py test`` runs each phase on both cores (``--dist loadgroup``). The workers take
the work units (a test, or a group of tests sharing a fixture built once) in the order given;
when a long one comes last, one core idles while the other finishes it: about 460 s of the
2,540 s of CI on 2026-12-07 were such tails. ``tests/conftest.py`` orders the units longest
first (the classic longest-processing-time rule) from ``tests/_durations.json``, which this
script writes from the JUnit reports ``course.py test`` leaves in ``build/test-times/``::

    python3 tests/_durations.py            # after a full `course.py test` (a CI run's is best)

The file only orders the tests: a stale or missing entry costs time, never a verdict (a test
not listed counts as 0 s and keeps its place after the measured ones). Each entry is one node id,
parameters included, with its time rounded to 0.1 s; tests under 0.5 s are left out.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE = Path(__file__).with_name("_durations.json")


def node_id(classname: str, name: str) -> str:
    """pytest's node id from a JUnit test case (``a.b.test_c`` + ``test_x[p]@group``)."""
    name = re.sub(r"@[^\[\]]*$", "", name)  # xdist_group's suffix
    return classname.replace(".", "/") + ".py::" + name


def read(folder: Path) -> dict[str, float]:
    """Seconds per node id in the ``*.xml`` reports of ``folder``, each test's from the newest
    report that holds it: a report another command left (a ``--quick`` run's unit.xml beside a
    full run's, or one of an older layout of runs) never adds its time to a newer one's."""
    found: dict[str, float] = {}
    for report in sorted(folder.glob("*.xml"), key=lambda path: path.stat().st_mtime):
        for case in ET.parse(report).getroot().iter("testcase"):
            key = node_id(case.get("classname", ""), case.get("name", ""))
            found[key] = round(float(case.get("time", 0)), 1)
    return dict(sorted(found.items()))


def load() -> dict[str, float]:
    """The committed times ({} when the file is absent or unreadable: order only)."""
    try:
        return json.loads(FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ROOT / "build" / "test-times"
    times = read(folder)
    if not times:
        print(f"no JUnit reports in {folder}: run `python3 course.py test` first", file=sys.stderr)
        return 1
    # only what takes time is worth a line: the rest run in collection order after it
    kept = {k: v for k, v in times.items() if v >= 0.5}
    FILE.write_text(json.dumps(kept, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"{FILE.relative_to(ROOT)}: {len(kept)} tests of {len(times)} ({sum(times.values()):.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
