"""Run every benchmark module (benchmarks/bench_*.py) and print its table.

    python3 course.py bench            # all
    python3 course.py bench lee_clifton  # only bench_lee_clifton.py
    python3 course.py bench browser      # mouse-up to new image in JupyterLab + Chromium
    python3 course.py bench suite        # the whole test suite, run by run and phase by phase (only when named)

Each module defines ``main()`` that prints a Markdown table; the README copies them.
Speed targets live here, never in timed unit tests.
"""

from __future__ import annotations

import importlib.util
import platform
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

HERE = Path(__file__).resolve().parent
#: benchmarks run only when named (bench_suite runs the whole test suite)
NAMED_ONLY = ("bench_suite",)


def main(argv: list[str]) -> int:
    modules = sorted(HERE.glob("bench_*.py"))
    if argv:
        modules = [m for m in modules if m.stem.removeprefix("bench_") in argv]
    else:  # the whole test suite (about 25 min) runs only when named: `course.py bench suite`
        modules = [m for m in modules if m.stem not in NAMED_ONLY]
    print(
        f"# machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}\n"
    )
    for path in modules:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"## {path.stem}\n", flush=True)
        module.main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
