"""A record of the choice for a registry, and the records read back as notebook 09 reads them.

:func:`privacy_record` holds what the OpenDP Deployments Registry and Dwork, Kohli &
Mulligan's "Expose your epsilons" (2019) ask a deployer to publish; :func:`registry_table`
reads records back through :func:`helpers.deployments.load`.

Part of :mod:`helpers.release`, which re-exports every public name.
"""

from __future__ import annotations

import datetime
import io
import json
import math
import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from .._docstrings import fill_docstrings
from .._validation import check_finite_scalar
from ..budget import Allocation, NoiseFamily
from ..deployments import load, unit_group
from ._checks import (
    UNITS,
    _check_contributions,
    _check_neighbours,
    _check_total_is_sum,
    _check_unit,
    _is_real,
    _parse_workload,
    _workload_columns,
)
from .opendp import ReleaseTable

__all__ = ["RECORD_FIELDS", "REGISTRY_COLUMNS", "privacy_record", "registry_table"]

#: The columns of the course's deployments table (helpers/data/dp_deployments.csv).
REGISTRY_COLUMNS = (
    "name",
    "curators",
    "year",
    "sector",
    "dp_variant",
    "privacy_unit",
    "model",
    "releases",
    "epsilon",
    "delta",
    "rho",
    "registry_slug",
    "source_url",
)
#: Fields a record holds beyond the registry's columns.
RECORD_FIELDS = (
    *REGISTRY_COLUMNS,
    "unit",
    "contributions",
    "neighbours",
    "accounting",
    "date",
    "release_list",
    "groups",
    "d_in",
)


# --- a record of the choice -------------------------------------------------------------------


def _release_entries(allocation: Allocation, workload) -> list:
    labels = [None] * len(allocation.budgets)
    kinds = [None] * len(allocation.budgets)
    if workload is not None:
        parsed = _parse_workload(workload, allocation)
        labels, kinds = parsed.labels, parsed.kinds
        for i, label in enumerate(labels):
            if isinstance(label, str) and "\x00" in label:
                raise ValueError(f"workload[{i}] label must not contain a NUL byte; got {label!r}")
    unit = NoiseFamily.of(allocation).unit
    cls = NoiseFamily.of(allocation).mechanism
    columns = _workload_columns(workload) if workload is not None else None

    def bound(name, i):
        if columns is None or kinds[i] == "count" or columns[name][i] is None:
            return None
        value = float(columns[name][i])
        return value if math.isfinite(value) else None

    return [
        {
            "label": labels[i] if labels[i] is not None else f"release {i}",
            "kind": kinds[i],
            "mechanism": allocation.mechanism,
            "budget": float(allocation.budgets[i]),
            "budget_unit": "epsilon" if unit == "ε" else "rho",
            "scale": float(allocation.scales[i]),
            "sensitivity": float(allocation.sensitivities[i]),
            "lower": bound("lower", i),
            "upper": bound("upper", i),
            "opendp_noise": None
            if cls.opendp is None
            else f"{'discrete' if cls.discrete else 'continuous'} {cls.opendp}",
        }
        for i in range(len(allocation.budgets))
    ]


def privacy_record(
    release,
    *,
    date,
    name,
    curators,
    unit=None,
    neighbours=None,
    workload=None,
    contributions=None,
    sector="Healthcare",
    model="Central",
    source_url="",
    groups=None,
    delta=None,
) -> dict:
    """The fields a registry entry needs for a release (or an allocation), as a JSON-able dict.

    The OpenDP Deployments Registry (2025) and Dwork, Kohli & Mulligan's "Expose your
    epsilons" (2019) ask a deployer to publish ε, δ (or ρ_z), the unit of privacy, the
    neighbour notion, each release's mechanism and budget, and the accounting. The record
    holds the registry's columns (:data:`REGISTRY_COLUMNS`, the ones
    :func:`helpers.deployments.load` reads: Laplace is "Pure DP" with ε = the total; Gaussian
    "Zero-concentrated DP" with ρ_z = the total and its (ε, δ) by
    :func:`helpers.deployments.zcdp_to_epsilon`) and the rest (:data:`RECORD_FIELDS`). The
    ``privacy_unit`` is checked to fall in a unit group the deployments reader recognises.

    **Made from the release** (a :class:`ReleaseTable`), the record states what ran: the
    allocation and workload released, the unit and m (``ReleaseTable.unit``), OpenDP's
    add-remove neighbours, the δ spent on group keys and the groups published; none of
    them is passed again, and a keyword given must agree with the release or is refused. So a
    record cannot state less than its release spent. Made from an allocation whose workload
    was stated for a unit (:func:`per_person`, :func:`opendp_workload`), the unit, m and the
    neighbours come from ``allocation.unit`` in the same way; from any other allocation they
    must be given (``contributions`` then 1 unless given). An allocation whose total is not
    the sum of its budgets is refused, in either direction.

    Used in notebook 12.

    Parameters
    ----------
    release : ReleaseTable or helpers.budget.Allocation
        What :func:`opendp_release` returned, or an allocation (its sensitivities the unit's:
        :func:`per_person` for people with several records).
    date : str or datetime.date, keyword-only
        The date of the choice (ISO 8601).
    name, curators : str, keyword-only
    unit : {"person", "record", "user"}, keyword-only
        Read from the release or ``allocation.unit``; required otherwise.
    neighbours : {"change-one", "add-remove"}, keyword-only
        The neighbour notion the guarantee is stated for. Read from the release
        (:data:`OPENDP_NEIGHBOURS`) or ``allocation.unit``; required otherwise.
    workload : sequence of Release, keyword-only
        The releases' labels and kinds (read from a release; optional with an allocation).
    contributions : int, keyword-only
        m ≥ 1, the most records kept per person (read from the release or
        ``allocation.unit``; else 1 unless given).
    sector, model, source_url : str, keyword-only
    groups : str, keyword-only
        The groups published, in words (e.g. "region: 5 public keys"; "" for none). Read
        from a release; "" unless given with an allocation.
    delta : float, keyword-only
        The δ in (0, 1) spent on top of its ε or ρ_z (OpenDP's threshold for group keys not
        known in advance). Read from a release; with an allocation, None (default) when it
        spent none. With a δ the record is "Approximate DP": ε the total with that δ
        (Laplace), or the ρ_z's (ε, δ) by :func:`helpers.deployments.zcdp_to_epsilon` with
        the two δ added (Gaussian).

    Returns
    -------
    builtins.dict
        Keys :data:`RECORD_FIELDS`; values str, int, float or None, and ``release_list`` a
        list of dicts (label, kind, mechanism, budget, budget_unit, scale, sensitivity).
        ``d_in`` is OpenDP's distance of one person in :func:`opendp_release`'s context (1
        identifier) for add-remove neighbours, None for change-one (not an OpenDP release).

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> a = budget_for_accuracy([Release("count", k=5.0)])
    >>> r = privacy_record(a, unit="person", neighbours="change-one", date="2026-01-31",
    ...                    name="Clinic visits", curators="A clinic")
    >>> r["dp_variant"], r["privacy_unit"], r["accounting"]
    ('Pure DP', 'Person-level', 'basic composition of pure ε (the ε add up)')
    >>> from helpers.release import per_person
    >>> b = budget_for_accuracy(per_person([Release("count", k=5.0)], contributions=3))
    >>> r = privacy_record(b, date="2026-01-31", name="Clinic visits", curators="A clinic")
    >>> r["contributions"], r["neighbours"], r["release_list"][0]["sensitivity"]
    (3, 'change-one', 3.0)
    """
    stated = _stated(release, unit, neighbours, contributions, workload, groups, delta)
    allocation, unit, neighbours, m, workload, groups, delta = stated
    date, day = _check_date(date)
    _check_texts(
        name=name,
        curators=curators,
        sector=sector,
        model=model,
        source_url=source_url,
        groups=groups,
    )
    privacy_unit = UNITS[unit]
    if unit_group(privacy_unit) == "not stated":  # pragma: no cover (UNITS is fixed)
        raise AssertionError(privacy_unit)
    pure = NoiseFamily.of(allocation).pure
    slug = re.sub(r"[^a-z0-9]+", "-", f"{name} {curators} {day.year}".lower()).strip("-")
    record = {
        "name": name,
        "curators": curators,
        "year": day.year,
        "sector": sector,
        "dp_variant": _variant(pure, delta),
        "privacy_unit": privacy_unit,
        "model": model,
        "releases": "One release" if len(allocation.budgets) == 1 else "Many releases",
        "epsilon": float(allocation.epsilon),
        "delta": _record_delta(allocation, pure, delta),
        "rho": None if pure else float(allocation.total),
        "registry_slug": slug,
        "source_url": source_url,
        "unit": unit,
        "contributions": m,
        "neighbours": neighbours,
        "accounting": _accounting(pure, delta),
        "date": date,
        "release_list": _release_entries(allocation, workload),
        "groups": groups,
        # OpenDP's distance of one person in opendp_release's context (add-remove: one
        # identifier); a change-one guarantee is not stated at an OpenDP distance
        "d_in": 1 if neighbours == "add-remove" else None,
    }
    json.dumps(record)  # JSON-able by construction; this raises if a field is not
    return record


def _stated(release, unit, neighbours, contributions, workload, groups, delta) -> tuple:
    """(allocation, unit, neighbours, m, workload, groups, δ spent) for the record: read from
    the release (or the allocation's unit), a keyword given only to agree with it."""
    if isinstance(release, ReleaseTable):
        if release.allocation is None or release.unit is None:
            raise ValueError(
                "release must be what opendp_release returned (it holds the allocation and the "
                "unit that ran); got a ReleaseTable without them"
            )
        ran = {
            "unit": release.unit.unit,
            "neighbours": release.unit.neighbours,
            "contributions": release.unit.contributions,
            "workload": release.workload,
            "groups": release.groups,
            "delta": release.delta,
        }
        given = {
            "unit": unit,
            "neighbours": neighbours,
            "contributions": contributions,
            "workload": workload,
            "groups": groups,
            "delta": delta,
        }
        for key, value in given.items():
            if value is not None and not _same(value, ran[key]):
                raise ValueError(
                    f"{key} must be the release's own ({ran[key]!r:.80}) or left out: the "
                    f"record states what ran; got {value!r:.80}"
                )
        allocation = _check_record_allocation(release.allocation)
        return (allocation, *ran.values())
    allocation = _check_record_allocation(release)
    if allocation.unit is not None:
        ran = allocation.unit
        for key, value in (
            ("unit", unit),
            ("neighbours", neighbours),
            ("contributions", contributions),
        ):
            if value is not None and not _same(value, getattr(ran, key)):
                raise ValueError(
                    f"{key} must be the allocation's own ({getattr(ran, key)!r}, from the "
                    f"workload it was made for) or left out; got {value!r}"
                )
        unit, neighbours, m = ran.unit, ran.neighbours, ran.contributions
    else:
        for key, value in (("unit", unit), ("neighbours", neighbours)):
            if value is None:
                raise ValueError(
                    f"{key} must be given when the allocation states no unit (one made from "
                    f"per_person or opendp_workload does); got None"
                )
        _check_unit(unit)
        _check_neighbours(neighbours)
        m = _check_contributions(1 if contributions is None else contributions)
        if m > 1:
            # a bare m beside Δ stated for nothing: the record could state m records per
            # person at a per-record Δ (a guarantee m times weaker than stated)
            raise ValueError(
                f"contributions must be 1 when the allocation states no unit; got "
                f"{contributions!r}: allocate per_person(workload, contributions={m}) or "
                f"opendp_workload(workload, contributions={m}), whose allocation carries m "
                "with the Δ it was priced at"
            )
    delta = None if delta is None else _check_spent_delta(delta)
    return allocation, unit, neighbours, m, workload, "" if groups is None else groups, delta


def _same(given, ran) -> bool:
    """A keyword given equal to what ran (a workload compared release by release)."""
    if isinstance(ran, list) or isinstance(given, list):
        try:
            return list(given) == list(ran)
        except TypeError:
            return False
    return type(given) is not bool and given == ran


def _check_record_allocation(allocation):
    """An Allocation with finite, positive budgets and a total that is their sum."""
    if not isinstance(allocation, Allocation):
        shown = repr(allocation)
        raise ValueError(
            "release must be a ReleaseTable (from opendp_release) or an Allocation (from "
            f"helpers.budget.budget_for_accuracy, split_budget or choose_workload); got {shown[:80]}"
        )
    budgets = np.asarray(allocation.budgets, dtype=float)
    if not (np.all(np.isfinite(budgets)) and np.all(budgets > 0)) or not (
        _is_real(allocation.total) and math.isfinite(allocation.total) and allocation.total > 0
    ):
        raise ValueError(
            f"allocation must have finite, positive budgets and total; got budgets "
            f"{budgets.tolist()!r}, total {allocation.total!r}"
        )
    _check_total_is_sum(allocation)
    # the ε the record states is the total read as ε, as the release reads it: never a field
    # set to less
    family = NoiseFamily.of(allocation)
    expected = family.epsilon(float(allocation.total), float(allocation.delta))
    if not (_is_real(allocation.epsilon) and allocation.epsilon >= expected * (1 - 1e-9)):
        raise ValueError(
            f"allocation.epsilon must be its total read as ε ({expected!r}); got "
            f"{allocation.epsilon!r}: a record must not state less than was spent"
        )
    return allocation


def _check_date(date) -> tuple:
    """(the date as ISO text, the date): a ``datetime.date`` or a valid YYYY-MM-DD."""
    if isinstance(date, datetime.date):
        date = date.isoformat()
    if not isinstance(date, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise ValueError(f"date must be an ISO date (YYYY-MM-DD); got {date!r}")
    try:
        return date, datetime.date.fromisoformat(date)
    except ValueError:
        raise ValueError(f"date must be an ISO date (YYYY-MM-DD); got {date!r}") from None


def _check_texts(**fields) -> None:
    """Every text field a string without a NUL byte; all but ``source_url`` and ``groups``
    non-empty."""
    for field, value in fields.items():
        if not isinstance(value, str) or (
            field not in ("source_url", "groups") and not value.strip()
        ):
            raise ValueError(f"{field} must be a non-empty string; got {value!r}")
        if "\x00" in value:
            raise ValueError(f"{field} must not contain a NUL byte; got {value!r}")


def _check_spent_delta(delta) -> float:
    """The δ a release spent (keys not known in advance), in (0, 1)."""
    delta = check_finite_scalar("delta", delta)
    if not 0 < delta < 1:
        raise ValueError(
            f"delta must be the δ the release spent, in the open interval (0, 1); got {delta!r}"
        )
    return float(delta)


def _variant(pure, delta) -> str:
    if delta is not None:
        return "Approximate DP"
    return "Pure DP" if pure else "Zero-concentrated DP"


def _record_delta(allocation, pure, delta):
    """The record's δ: none for pure ε alone; the conversion's δ for ρ_z; plus the δ the
    release spent on keys (the ρ_z's (ε, δ₁) composed with (0, δ₂) is (ε, δ₁ + δ₂))."""
    spent = 0.0 if delta is None else delta
    if pure:
        return None if delta is None else spent
    return float(allocation.delta) + spent


def _accounting(pure, delta) -> str:
    text = (
        "basic composition of pure ε (the ε add up)"
        if pure
        else "zCDP (the ρ_z add up), converted to (ε, δ) by Canonne, Kamath & Steinke (2020)"
    )
    if delta is not None:
        text += (
            f"; δ = {delta!r} spent on top to release group keys not known in advance "
            "(OpenDP's threshold), so the δ's add up"
        )
    return text


def registry_table(records) -> pd.DataFrame:
    """Records read back through notebook 09's reader: :func:`helpers.deployments.load`.

    The records' registry columns are written as the course's CSV is, then loaded, so each
    gets the reader's ``status``, ``unit_group``, ``epsilon_used`` and ``delta_used``: a
    record is well-formed when its status is "usable".

    Used in notebook 12.

    Parameters
    ----------
    records : dict or sequence of dict
        From :func:`privacy_record` (or a JSON round trip of one).

    Returns
    -------
    pandas.DataFrame
        :func:`helpers.deployments.load`'s table, one row per record.

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> a = budget_for_accuracy([Release("count", k=5.0)])
    >>> r = privacy_record(a, unit="person", neighbours="change-one", date="2026-01-31",
    ...                    name="Clinic visits", curators="A clinic")
    >>> registry_table(r)["status"].tolist()
    ['usable']
    """
    if isinstance(records, Mapping):
        records = [records]
    if isinstance(records, (str, bytes)) or not isinstance(records, (list, tuple)) or not records:
        raise ValueError(
            f"records must be a record (dict) or a non-empty list of them; got {records!r:.80}"
        )
    for i, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise ValueError(f"records[{i}] must be a dict from privacy_record; got {record!r:.80}")
        missing = [c for c in REGISTRY_COLUMNS if c not in record]
        if missing:
            raise ValueError(
                f"records[{i}] must hold the registry columns; {missing[0]!r} is missing"
            )
    frame = pd.DataFrame([{c: record[c] for c in REGISTRY_COLUMNS} for record in records])
    text = frame.to_csv(
        index=False, float_format=lambda x: repr(float(x))
    )  # every digit: no ρ or ε rounded down
    return load(io.StringIO(text))


fill_docstrings(globals())
