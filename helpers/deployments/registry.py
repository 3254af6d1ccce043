"""The deployments table: the registry's rows, each with its status and the ε and δ it uses.

Read from ``helpers/data/dp_deployments.csv`` (:func:`load`, :func:`usable`), with the unit
of privacy sorted into groups (:func:`unit_group`).

Part of :mod:`helpers.deployments`, which re-exports every public name.
"""

from __future__ import annotations

import math
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import check_finite_scalar
from ._checks import _DELTA_OPEN_RULE, _check_delta_open
from .zcdp import zcdp_to_epsilon, zcdp_to_epsilon_simple

__all__ = [
    "CENSUS_2020",
    "DATA_PATH",
    "DEFAULT_DELTA",
    "UNIT_GROUPS",
    "load",
    "unit_group",
    "usable",
]

#: The registry table, shipped inside the package (``helpers/data/``, in the wheel too): a
#: :class:`importlib.resources.abc.Traversable`, a plain :class:`~pathlib.Path` when the
#: package is installed from a wheel or in editable mode.
DATA_PATH = resources.files("helpers") / "data" / "dp_deployments.csv"

#: δ assumed for a zCDP row that publishes only ρ_z: the U.S. Census Bureau's own choice
#: when it states (ε, δ) equivalents of its ρ_z (registry: redistricting data, δ = 10⁻¹⁰).
DEFAULT_DELTA = 1e-10

#: The registry's prose for the 2020 redistricting data (census_redistricting_data.yaml):
#: the person tables used ρ_z = 2.56 "corresponding to ε = 17.14 and δ = 10⁻¹⁰", the
#: housing-unit tables ρ_z = 0.07 "corresponding to ε = 2.47 and δ = 10⁻¹⁰". The only
#: numbers in this module typed from a source: the source's claim, to be checked.
CENSUS_2020 = pd.DataFrame(
    {
        "tables": ["person", "housing unit"],
        "rho": [2.56, 0.07],
        "delta": [1e-10, 1e-10],
        "epsilon_stated": [17.14, 2.47],
    }
)


# --- the data -----------------------------------------------------------------------------


def _status(row: pd.Series) -> str:
    eps, delta, rho = row["epsilon"], row["delta"], row["rho"]
    variant = row["dp_variant"]
    has_eps, has_delta, has_rho = (not pd.isna(x) for x in (eps, delta, rho))
    if not (has_eps or has_delta or has_rho):
        if pd.isna(variant):
            return "privacy parameters and DP variant not in the registry"
        return "privacy parameters not in the registry"
    if variant == "Pure DP" and has_delta and delta > 0:
        return f"'Pure DP' row that states δ = {delta:g}: variant and parameters disagree"
    if variant == "Approximate DP" and has_eps and not has_delta:
        return "Approximate DP with ε but no numeric δ (the registry gives δ as a formula)"
    if variant == "Zero-concentrated DP" and has_rho:
        return "usable"
    if variant == "Pure DP" and has_eps:
        return "usable"
    if variant == "Approximate DP" and has_eps and has_delta:
        return "usable"
    return f"parameters do not fit the variant {variant!r} (ε={eps}, δ={delta}, ρ_z={rho})"


#: Privacy-unit groups, finest first: in the order of how much of one person's data one unit
#: can cover. A "part of" group is a slice of the group after it that one person can hold
#: several of at once (devices, countries, quarter-days, capped bundles of pageviews), so ε per
#: unit protects less than the whole day or month; "one device of a user" covers a device's
#: whole history but not a person with several devices. Time slices and devices are not nested
#: (a device is not a part of a month), so the order is by span: an event, under a day, a day,
#: under a month, a month, a device over its life, a person.
UNIT_GROUPS = (
    "one event or record",
    "part of a day of a user",
    "one day of a user",
    "part of a month of a user",
    "one month of a user",
    "one device of a user",
    "one person or entity",
    "not stated",
)

# the words of a registry privacy unit ("User-quarter-day-level" → user, quarter, day), by
# what they say; "level" says nothing
_EVENT_WORDS = frozenset({"event", "record", "tuple", "trip"})
_DAY_SLICES = frozenset({"quarter", "hour", "device", "bounded", "contribution"})
_MONTH_SLICES = frozenset({"country", "device"})
_ENTITY_WORDS = frozenset(
    {"user", "person", "individual", "account", "birth", "business", "establishment"}
    | {"housing", "unit", "household", "customer", "entity"}
)
_NOT_A_UNIT = frozenset({"aggregate", "statistics"})
_KNOWN_WORDS = (
    _EVENT_WORDS
    | _DAY_SLICES
    | _MONTH_SLICES
    | _ENTITY_WORDS
    | _NOT_A_UNIT
    | {"day", "month", "device", "level"}
)


def unit_group(privacy_unit) -> str:
    """The group of a registry ``privacy_unit`` string: the finest unit it states.

    One of :data:`UNIT_GROUPS`. An ε per *event* protects one event of a person (a person
    with 100 events may lose up to 100ε); per *user-day* one day; per *user* (or person)
    everything about the person. The finest word decides, whatever coarser words stand beside
    it:

    * an event, record, tuple or trip: "one event or record" ("Event-Month-level" is one
      event, a hire, in a monthly release; "User-trip-level" one trip of a user);
    * a day cut finer, by a quarter-day or an hour, by a device (one person may use several)
      or by a capped bundle of contributions ("Bounded contribution-day": a fixed number of
      pageviews in a day): "part of a day of a user"; a plain user-day: "one day of a user";
    * a month cut by country or device: "part of a month of a user"; a plain (user or
      account) month: "one month of a user";
    * a device with no time window ("User-device-level"): "one device of a user";
    * a user, person, individual, customer account, birth, business establishment or
      housing unit: "one person or entity";
    * no unit, an aggregate ("Aggregate-level") or a word this function does not know:
      "not stated" (it never guesses a coarser unit than the record states).

    Not called in a notebook; used by ``helpers.deployments``. (:func:`load` fills its
    ``unit_group`` column with it.)

    Returns
    -------
    str
        One of :data:`UNIT_GROUPS`.

    Examples
    --------
    >>> unit_group('User-day-level'), unit_group('Device-day-level')
    ('one day of a user', 'part of a day of a user')
    >>> unit_group('Event-Month-level'), unit_group('Person-level')
    ('one event or record', 'one person or entity')
    """
    if privacy_unit is None or (isinstance(privacy_unit, float) and math.isnan(privacy_unit)):
        return "not stated"
    if not isinstance(privacy_unit, str):  # a number is not a unit (it was read as a person)
        raise ValueError(
            f"privacy_unit must be a string (the registry's privacy unit) or None; got "
            f"{privacy_unit!r}"
        )
    words = set(re.findall(r"[a-z]+", privacy_unit.lower()))
    if not words <= _KNOWN_WORDS or words <= _NOT_A_UNIT | {"level"}:
        return "not stated"
    if words & _EVENT_WORDS:
        return "one event or record"
    if "day" in words:
        return "part of a day of a user" if words & _DAY_SLICES else "one day of a user"
    if "month" in words:
        return "part of a month of a user" if words & _MONTH_SLICES else "one month of a user"
    if "device" in words:
        return "one device of a user"
    if words & _ENTITY_WORDS:
        return "one person or entity"
    return "not stated"


def _smallest_printed(value: float) -> float:
    """The smallest number that rounds to ``value`` as the registry prints it (its shortest
    decimal form: 0.0728 stands for [0.07275, 0.07285))."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return float(value)
    return float(value) - 0.5 * 10.0 ** -len(text.split(".")[1])


def load(path: str | Path | None = None, *, default_delta: float = DEFAULT_DELTA) -> pd.DataFrame:
    """The deployments table, one row per deployment, with what the course computes from it.

    Added columns:

    * ``status``: ``"usable"`` or the reason the row cannot be read as (ε, δ);
    * ``epsilon_used``, ``delta_used``: the (ε, δ) the three views use (NaN if not usable):
      as published for pure (δ = 0) and approximate DP; for a zCDP row, the published
      (ε, δ) when the registry gives one and it is no smaller than ρ_z's own conversion at that
      δ (for the smallest ρ_z that rounds to the printed value), else ρ_z converted by
      :func:`zcdp_to_epsilon` (at the published δ, or at ``default_delta``, 10⁻¹⁰, the Census
      Bureau's own choice, when none is given): the conservative reading;
    * ``unit_group``: the privacy-unit group, the finest unit the row states (:func:`unit_group`);
    * ``basis``: where ``epsilon_used`` comes from, in words;
    * ``epsilon_cks``, ``epsilon_simple``: both conversions of ρ_z at ``delta_used`` (zCDP rows).

    Used in notebooks 09, 12 and 13.

    Parameters
    ----------
    path : str or Path, optional
        The CSV (default: the course's copy, :data:`DATA_PATH`).
    default_delta : float
        δ in (0, 1) for zCDP rows that give only ρ_z.

    Returns
    -------
    pandas.DataFrame
        Every row of the CSV, in its order, with the added columns above.

    Examples
    --------
    >>> table = load()
    >>> len(table), int((table['status'] == 'usable').sum())
    (41, 33)
    """
    check_finite_scalar("default_delta", default_delta, rule=_DELTA_OPEN_RULE)
    default_delta = float(_check_delta_open(default_delta, "default_delta"))
    if path is None:
        with DATA_PATH.open("rb") as data:
            table = pd.read_csv(data)
    else:
        table = pd.read_csv(path)
    table["status"] = table.apply(_status, axis=1)
    table["unit_group"] = table["privacy_unit"].map(unit_group)
    use = table["status"] == "usable"
    zcdp = use & (table["dp_variant"] == "Zero-concentrated DP")
    given = zcdp & table["epsilon"].notna() & table["delta"].notna()
    convert = zcdp & ~given
    table["delta_used"] = np.where(
        use, np.where(convert, default_delta, table["delta"].fillna(0.0)), np.nan
    )
    rho = table["rho"].where(zcdp)
    table["epsilon_cks"] = np.nan
    table["epsilon_simple"] = np.nan
    if zcdp.any():
        table.loc[zcdp, "epsilon_cks"] = zcdp_to_epsilon(
            rho[zcdp].to_numpy(), table.loc[zcdp, "delta_used"].to_numpy()
        )
        table.loc[zcdp, "epsilon_simple"] = zcdp_to_epsilon_simple(
            rho[zcdp].to_numpy(), table.loc[zcdp, "delta_used"].to_numpy()
        )
    # the conservative reading: a published ε below what its own ρ_z guarantees (even at the
    # smallest ρ_z that rounds to the printed one) rests on more than zCDP, e.g. on all noise
    # being Gaussian; then ρ_z's conversion at the published δ is used
    below = pd.Series(False, index=table.index)
    if given.any():
        low = np.array([_smallest_printed(value) for value in rho[given]])
        floor = zcdp_to_epsilon(low, table.loc[given, "delta_used"].to_numpy())
        below[given] = table.loc[given, "epsilon"].to_numpy() < floor
    table["epsilon_used"] = np.where(
        convert | below, table["epsilon_cks"], table["epsilon"].where(use)
    ).astype(float)
    table["basis"] = np.select(
        [convert, below, given, use & (table["dp_variant"] == "Pure DP"), use],
        [
            f"ρ_z converted (CKS 2020) at δ = {default_delta:g} (assumed)",
            "ρ_z converted (CKS 2020) at the published δ: the published ε is below what ρ_z "
            "alone guarantees (it assumes more than zCDP, e.g. Gaussian noise)",
            "(ε, δ) as published (also gives ρ_z)",
            "ε as published (pure DP, δ = 0)",
            "(ε, δ) as published",
        ],
        default="",
    )
    return table


def usable(table: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of :func:`load` whose status is ``"usable"``, sorted by ``epsilon_used``.

    Used in notebooks 09 and 11.

    Parameters
    ----------
    table : pandas.DataFrame, optional
        A table from :func:`load` (default: ``load()``).

    Returns
    -------
    pandas.DataFrame
        The usable rows, sorted by ``epsilon_used`` (rows of one ε in the registry's
        order, on every machine), with a fresh index 0, 1, ….

    Examples
    --------
    >>> len(usable())
    33
    """
    table = load() if table is None else table
    if not isinstance(table, pd.DataFrame) or not {"status", "epsilon_used"} <= set(table):
        raise ValueError(
            "table must be a table from load() (a DataFrame with 'status' and 'epsilon_used' "
            f"columns); got {type(table).__name__} {str(table)[:80]!r}"
        )
    # a stable sort: rows of one ε keep the registry's order. The default quicksort breaks
    # ties by the CPU's SIMD sort (AVX-512, AVX2, none): another order on another machine
    usable = table[table["status"] == "usable"]
    return usable.sort_values("epsilon_used", kind="stable").reset_index(drop=True)
