"""Redraw time of the notebook 03–05 dashboards (target: well under 100 ms per move).

Each row moves one control through a sweep of distinct values (every move triggers
``Dashboard.update``: recompute, update the figure in place or draw a new query's afresh,
render the PNG) and reports the median and the best move; the last column times
``dash.update()`` alone, best of 7.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from _timing import best_of, fmt

from helpers.widgets.lee_clifton import (
    binary_search_dashboard,
    bounds_dashboard,
    queries_dashboard,
)


def _moves(dash, name, values) -> list[float]:
    times = []
    for value in values:
        start = time.perf_counter()
        dash.controls[name].value = value
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    rho = [float(v) for v in np.round(np.linspace(0.30, 0.60, 16), 3)]
    eps = [float(v) for v in np.round(np.linspace(0.20, 3.00, 16), 2)]
    rows = []

    dash = bounds_dashboard()
    rows.append(("bounds (03)", "ε slider", _moves(dash, "epsilon", eps), dash))
    rows.append(("bounds (03)", "ρ slider", _moves(dash, "risk", rho), dash))

    dash = binary_search_dashboard()
    rows.append(("binary search (04)", "ρ slider", _moves(dash, "risk", rho), dash))

    dash = queries_dashboard()
    rows.append(("queries (05)", "ρ slider", _moves(dash, "risk", rho), dash))
    first = _moves(dash, "query", ["mean", "variance", "max", "percentile_75"])
    rows.append(("queries (05)", "query, first time (new figure, numbers computed)", first, dash))
    again = _moves(dash, "query", ["mean", "variance", "max", "percentile_75"] * 3)
    rows.append(("queries (05)", "query, seen before (new figure, numbers kept)", again, dash))

    print("| dashboard | control moved | median move | best move | `dash.update()` best of 7 |")
    print("|---|---|---:|---:|---:|")
    for name, control, times, board in rows:
        update = best_of(board.update, repeat=7)
        print(
            f"| {name} | {control} | {fmt(statistics.median(times))} | {fmt(min(times))} "
            f"| {fmt(update)} |"
        )


if __name__ == "__main__":
    main()
