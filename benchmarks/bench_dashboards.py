"""What one move of a control costs in Python (no browser): every dashboard of every notebook.

    python benchmarks/bench_dashboards.py [NOTEBOOK-PREFIX ...]

Runs each notebook's code cells in an IPython shell (Agg backend, as the kernel draws), keeps
every dashboard it shows, then moves every control of every dashboard through a sweep of
values (a slider over its range, a dropdown through its options and back, a number up and
down) and times ``control.value = v``: the whole update a reader waits for minus the front
end (recompute, redraw, text alternative, PNG). Prints the median and worst per dashboard
and per control, in CPU time of this process (``time.process_time``): unlike wall time and
the browser benchmark it hardly depends on what else the machine runs, so it is the number
to compare across changes on a shared machine (issue 33).
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
SLIDER_MOVES = 6


def _dashboards(path: Path) -> list:
    import nbformat
    from IPython.core.interactiveshell import InteractiveShell

    from helpers.widgets._base import Dashboard

    shell = InteractiveShell.instance()
    shell.reset(new_session=True)
    found = []
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            # the Agg backend stands in for the kernel's inline one (no GUI to enable here)
            source = "\n".join(
                line for line in cell.source.splitlines() if not line.startswith("%matplotlib")
            )
            with contextlib.redirect_stdout(io.StringIO()):
                result = shell.run_cell(source, store_history=False, silent=False)
            if result.error_in_exec is not None:
                raise RuntimeError(f"{path.name}: {result.error_in_exec!r}")
            if isinstance(result.result, Dashboard):
                found.append(result.result)
    finally:
        os.chdir(cwd)
        import matplotlib.pyplot as plt

        plt.close("all")
    return found


def _values(control) -> list:
    """A sweep of values a reader could give this control, each different from the last."""
    import ipywidgets as widgets
    import numpy as np

    if isinstance(control, widgets.FloatLogSlider):
        exps = np.linspace(control.min, control.max, SLIDER_MOVES + 2)[1:-1]
        return [float(control.base**e) for e in exps]
    if isinstance(control, (widgets.FloatSlider, widgets.IntSlider)):
        values = np.linspace(control.min, control.max, SLIDER_MOVES + 2)[1:-1]
        step = control.step or 1
        snapped = [control.min + round((v - control.min) / step) * step for v in values]
        if isinstance(control, widgets.IntSlider):
            return [int(v) for v in snapped]
        return [float(v) for v in snapped]
    if isinstance(control, widgets.SelectionSlider | widgets.Dropdown):
        options = [o[1] if isinstance(o, tuple) else o for o in control.options]
        others = [o for o in options if o != control.value]
        return [*others, control.value]
    if isinstance(control, (widgets.BoundedIntText, widgets.IntText)):
        return [control.value + 1, control.value + 2, control.value]
    return []


def _move(dashboard, name, values) -> list[float]:
    times = []
    for value in values:
        start = time.process_time()
        dashboard.controls[name].value = value
        times.append(time.process_time() - start)
    return times


def main(argv: list[str] | None = None) -> None:
    wanted = tuple(sys.argv[1:] if argv is None else argv)
    sys.path.insert(0, str(ROOT))
    rows = []
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        if wanted and not path.stem.startswith(wanted):
            continue
        for d, dashboard in enumerate(_dashboards(path)):
            for name, control in dashboard.controls.items():
                if getattr(control, "disabled", False):
                    continue
                values = _values(control)
                if values:
                    times = _move(dashboard, name, values)
                    rows.append((path.stem[:2], d + 1, name, times))
                    print(
                        f"  {path.stem} #{d + 1} {name}: {[round(t * 1e3) for t in times]} ms",
                        file=sys.stderr,
                    )
    print("one move in Python (recompute, redraw, text, PNG), CPU time, every control swept\n")
    print("| notebook | dashboard | controls | median | worst |")
    print("|---|---:|---:|---:|---:|")
    groups: dict = {}
    for nb, d, _name, times in rows:
        groups.setdefault((nb, d), []).extend(times)
    for (nb, d), times in groups.items():
        count = sum(1 for r in rows if (r[0], r[1]) == (nb, d))
        print(
            f"| {nb} | {d} | {count} | {statistics.median(times) * 1e3:.0f} ms "
            f"| {max(times) * 1e3:.0f} ms |"
        )
    every = [t for r in rows for t in r[3]]
    print(
        f"\nall moves: median {statistics.median(every) * 1e3:.0f} ms, worst "
        f"{max(every) * 1e3:.0f} ms\n"
    )
    print("| notebook | dashboard | control | median | worst |")
    print("|---|---:|---|---:|---:|")
    for nb, d, name, times in rows:
        print(
            f"| {nb} | {d} | {name} | {statistics.median(times) * 1e3:.0f} ms "
            f"| {max(times) * 1e3:.0f} ms |"
        )


if __name__ == "__main__":
    main()
