"""Files in figures/ for the bounds, binary-search and median notebooks (03–05).

Name -> zero-argument Figure factory; each calls the notebooks' plotting function at the
paper's values (the school example, n = 3, ρ = 1/3).
"""

from __future__ import annotations

from .. import lee_clifton as lc
from ..datasets import school, school_release
from ..plotting.lee_clifton import plot_binary_search, plot_bounds, plot_bracket

RISK = 1 / 3


def _columns():
    return school()[["school_year", "absence_days"]]


def _size() -> int:
    return len(school_release())


def _bracket():
    cols = _columns()
    return plot_bracket(
        {name: lc.binary_search_steps(cols[name], _size(), "mean", RISK) for name in cols},
        title="Binary search on the tight bound (mean, ρ = 1/3)",
    )


FIGURES: dict = {
    "lee_clifton_bounds_mean": lambda: plot_bounds(_columns(), _size(), "mean", risk=RISK),
    "lee_clifton_binary_search_mean": lambda: plot_binary_search(
        _columns(), _size(), "mean", risk=RISK
    ),
    "lee_clifton_bracket_mean": _bracket,
    "lee_clifton_bounds_median": lambda: plot_bounds(_columns(), _size(), "median", risk=RISK),
    "lee_clifton_binary_search_median": lambda: plot_binary_search(
        _columns(), _size(), "median", risk=RISK
    ),
}
