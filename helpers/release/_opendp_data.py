"""The table and the workload of :func:`helpers.release.opendp_release`, read and checked.

The data as a Polars table (from pandas, Polars or a dict of columns), every column a release
reads (present, numeric, its missing values handled, integers under a discrete mechanism), the
person and grouping columns, the public keys of the groups, and the workload as the release
reads it (:class:`_Spec`); each refusal names the parameter, as the API contract says.

Private to :mod:`helpers.release.opendp`, the only module that uses it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .._validation import check_finite_scalar
from ._checks import _parse_workload, _workload_columns


def _column_name(label: str) -> str:
    return re.sub(r"[^0-9a-zA-Z]+", "_", label).strip("_").lower() or "value"


#: The largest ``max_length`` :func:`opendp_release` takes: OpenDP's ``Margin`` holds the
#: bound on a table's records as a 32-bit unsigned integer.
_MAX_LENGTH = 2**32 - 1


def _check_frame(data, pl):
    """The data as a Polars DataFrame (from pandas or Polars), never empty."""
    if isinstance(data, pl.LazyFrame):
        data = data.collect()
    elif isinstance(data, Mapping):
        try:
            data = pl.DataFrame(dict(data))
        except Exception as err:  # Polars raises several kinds: said in words
            raise ValueError(f"data must be a table of equal-length columns; got {err}") from None
    elif not isinstance(data, pl.DataFrame):
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover
            pd = None
        if pd is not None and isinstance(data, pd.DataFrame):
            data = _from_pandas(data, pl)
        else:
            raise ValueError(
                "data must be a pandas or Polars DataFrame or a dict of columns (one row per "
                "record); got "
                f"{type(data).__name__}"
            )
    if data.height == 0:
        raise ValueError("data must hold at least one record; got an empty table")
    return data


def _from_pandas(data, pl):
    """A pandas table as Polars; a column Arrow cannot type (numbers mixed with strings) is
    refused by name, as a string column a release reads is."""
    try:
        return pl.from_pandas(data)
    except Exception:
        for column in data.columns:
            try:
                pl.from_pandas(data[[column]])
            except Exception as err:
                raise ValueError(
                    f"column {column!r} must hold values of one type (numbers, or strings for "
                    f"a group); got mixed values ({err})"
                ) from None
        raise  # pragma: no cover


def _require(data, name, column, what):
    if isinstance(column, str) and any(ord(ch) < 32 or ord(ch) == 127 for ch in column):
        # OpenDP's library cannot take such a name across its boundary: refused here, in words
        raise ValueError(
            f"{name} must name a column without control characters (NUL, tab, newline, ...); "
            f"got {column!r}: rename the column"
        )
    if column not in data.columns:
        raise ValueError(
            f"{name} must name a column of data ({what}); got {column!r}, the columns are "
            f"{data.columns}"
        )


def _is_numeric(dtype) -> bool:
    return dtype.is_numeric() or str(dtype) == "Boolean"


def _cells_spec(workload, allocation, columns):
    parsed = _parse_workload(workload, allocation)
    cols = _workload_columns(workload)
    columns = {} if columns is None else columns
    if not isinstance(columns, Mapping) or not all(
        isinstance(k, str) and (v is None or (isinstance(v, str) and v)) for k, v in columns.items()
    ):
        raise ValueError(
            f"columns must map release labels to column names (None: a count of records); "
            f"got {columns!r:.80}"
        )
    spec = []
    for i, kind in enumerate(parsed.kinds):
        label = parsed.labels[i] if parsed.labels[i] is not None else f"release {i}"
        column = columns.get(label, _column_name(label))
        bounds = (
            (0.0, 1.0) if kind == "count" else (float(cols["lower"][i]), float(cols["upper"][i]))
        )
        if kind != "count" and not all(math.isfinite(b) for b in bounds):
            raise ValueError(f"workload[{i}] ({label!r}) must state finite lower and upper bounds")
        spec.append(_Spec(label, kind, column, bounds))
    return spec


def _check_values(data, spec, pl, missing, discrete):
    """Every column a release reads: present, numeric, and its missing values handled."""
    notes = []
    for label, kind, column, bounds in spec:
        if column is None:
            continue
        _require(data, "columns", column, f"release {label!r} reads it")
        dtype = data.schema[column]
        if not _is_numeric(dtype):
            raise ValueError(
                f"column {column!r} (release {label!r}) must be numeric; got dtype {dtype}"
                f"{_first_non_number(data[column], pl)}"
            )
        values = data[column]
        if dtype.is_float():
            infinite = values.is_infinite().fill_null(False)
            if infinite.any():
                row = int(infinite.arg_max())
                raise ValueError(
                    f"column {column!r} (release {label!r}) must hold finite values; got "
                    f"{int(infinite.sum())} infinite value(s), the first in row {row} "
                    f"({values[row]!r}): clipping them to the bounds would count them as the "
                    "bound, so replace them with a value you can defend or drop those records"
                )
        absent = values.null_count() + (int(values.is_nan().sum()) if dtype.is_float() else 0)
        if absent and missing == "refuse":
            raise ValueError(
                f"column {column!r} (release {label!r}) has {absent} missing value(s); pass "
                "missing='drop' to leave those records out of that release, or fill them "
                "yourself with a value you can defend"
            )
        if discrete and kind != "count" and not all(float(b).is_integer() for b in bounds):
            raise ValueError(
                f"workload release {label!r} must have whole-number bounds under a discrete "
                f"mechanism (integer noise); got {bounds}"
            )
        if discrete and dtype.is_float():
            present = values.drop_nulls().drop_nans()
            fractional = present.filter(~present.is_finite() | (present != present.floor()))
            if fractional.len():
                raise ValueError(
                    f"column {column!r} (release {label!r}) must hold integers under a "
                    f"discrete mechanism (its noise is on the integers); got "
                    f"{fractional.len()} non-integer value(s), e.g. {fractional[0]!r}: round "
                    "them yourself in a way you can defend, or allocate a continuous mechanism"
                )
        if absent:
            notes.append(
                f"{label}: records missing {column!r} are left out of this release (missing='drop')"
            )
    return notes


def _first_non_number(values, pl) -> str:
    """Where a text column first holds a value that is no number (its row and text), for
    the refusal: the value to fix, not merely the column's first."""
    if values.dtype != pl.String:
        return f" (e.g. {values.drop_nulls().head(1).to_list()!r})"
    parsed = values.str.strip_chars().cast(pl.Float64, strict=False)
    bad = (parsed.is_null() & values.is_not_null()).fill_null(False)
    if not bad.any():  # pragma: no cover (a String column of numbers only)
        return ""
    row = int(bad.arg_max())
    return f": row {row} (from 0, after a header) holds {values[row]!r}, which is not a number"


class _Spec(NamedTuple):
    """One release of the workload as the release reads it: its label, kind, column (None: a
    count of records) and bounds (a count's are (0, 1))."""

    label: str
    kind: str
    column: str | None
    bounds: tuple


def _check_person(frame, person, max_length) -> None:
    """The table within the stated ``max_length``; ``person`` a column naming every record's
    person."""
    if frame.height > max_length:
        raise ValueError(
            f"max_length must be a public upper bound on the table's records; got "
            f"{max_length!r}, and the table has more records than that: state a bound that "
            "holds (e.g. the population the data are drawn from)"
        )
    if not isinstance(person, str) or not person:
        raise ValueError(f"person must be a non-empty column name; got {person!r}")
    _require(frame, "person", person, "whose record a row is")
    if frame[person].null_count():
        raise ValueError(
            f"person column {person!r} must name a person on every record; "
            f"{frame[person].null_count()} record(s) have none"
        )


def _check_by(frame, by) -> list:
    """``by`` as a list of at most two grouping columns of the table, each with a group on
    every record."""
    given = by
    by = [] if by is None else [by] if isinstance(by, str) else by
    if not isinstance(by, (list, tuple)) or len(by) > 2 or not all(isinstance(b, str) for b in by):
        raise ValueError(f"by must be one or two column names; got {given!r}")
    for column in by:
        _require(frame, "by", column, "a grouping column")
        if frame[column].null_count():
            raise ValueError(
                f"by column {column!r} has {frame[column].null_count()} record(s) with no "
                "group; give them a group (e.g. 'unknown') or drop them before the release"
            )
    return list(by)


def _check_in_unit(name, value) -> float:
    v = check_finite_scalar(name, value)
    if not 0 < v < 1:
        raise ValueError(f"{name} must be a number in the open interval (0, 1); got {value!r}")
    return float(v)


def _check_positive_finite(name, value) -> float:
    v = check_finite_scalar(name, value)
    if not v > 0:
        raise ValueError(f"{name} must be a positive number; got {value!r}")
    return float(v)


def _key_frame(keys, by, frame, pl):
    if keys is None:
        return None
    if not by:
        raise ValueError("keys must come with by (the grouping columns they are keys of)")
    if isinstance(keys, pl.DataFrame):
        table = keys
    elif isinstance(keys, Mapping):
        table = None
        for column in by:
            if column not in keys:
                raise ValueError(
                    f"keys must list the values of every by column; {column!r} is missing"
                )
            if isinstance(keys[column], (str, bytes)):  # "NS" would be the keys "N" and "S"
                raise ValueError(
                    f"keys[{column!r}] must be a list of values; got the string "
                    f"{keys[column]!r:.80} (write [{keys[column]!r:.60}] for one key)"
                )
            values = list(keys[column])
            if not values:
                raise ValueError(f"keys[{column!r}] must list at least one value")
            part = pl.DataFrame({column: _key_values(column, values, frame, pl)})
            table = part if table is None else table.join(part, how="cross")
    else:
        raise ValueError(
            f"keys must be a mapping column -> values or a Polars DataFrame; got {keys!r:.80}"
        )
    if sorted(table.columns) != sorted(by):
        raise ValueError(f"keys must have exactly the by columns {by}; got {table.columns}")
    if isinstance(keys, pl.DataFrame):
        table = pl.DataFrame({c: _key_values(c, table[c].to_list(), frame, pl) for c in by})
    return table.select(by).unique(maintain_order=True)


def _key_values(column, values, frame, pl):
    """A by column's public keys as a Series of the column's dtype; a key that is not a value
    of that type (a string key of an integer column, 2.5 of one) is refused by name."""
    dtype = frame.schema[column]
    text = dtype in (pl.String, pl.Categorical) or str(dtype).startswith("Enum")
    boolean = dtype == pl.Boolean

    def wrong_type(v) -> bool:
        is_bool = isinstance(v, (bool, np.bool_))
        return isinstance(v, str) != text or is_bool != boolean

    # a number never silently becomes a string key (1 → "1") nor a string a number, nor a
    # number a truth value: a key of another type would name a group that cannot exist and
    # drop every record
    if any(wrong_type(v) for v in values):
        wrong = next(v for v in values if wrong_type(v))
        raise ValueError(
            f"keys[{column!r}] must hold values of the column's type ({dtype}); got "
            f"{wrong!r} ({type(wrong).__name__}) among {values!r:.80}"
        )
    try:
        series = pl.Series(values, strict=False)
        cast = series.cast(dtype, strict=True)
        if dtype.is_integer() and series.dtype.is_float():
            if not (cast.cast(pl.Float64) == series).all():
                raise ValueError("not whole")
    except Exception:  # Polars raises several kinds: said in words
        raise ValueError(
            f"keys[{column!r}] must hold values of the column's type ({dtype}); got {values!r:.80}"
        ) from None
    return cast
