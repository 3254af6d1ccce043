"""The small data sets of the sources, as pandas objects."""

from __future__ import annotations

import pandas as pd

__all__ = ["school", "school_release"]


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
