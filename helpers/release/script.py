"""The release from the command line: ``python -m helpers.release PLAN DATA``.

PLAN is a JSON file written by :func:`release_plan` (the allocation, its workload and the
release's options: the person column, m, the groups and their keys, the columns, the public
bound on group lengths, the handling of missing values); DATA a CSV or Parquet file with one
row per record. The script checks the columns and their types (naming what is missing),
runs :func:`helpers.release.opendp_release` and prints every cell with its interval at the
stated coverage (OpenDP's own accuracy summary), marking the cells whose relative error is
above the stated threshold (the small-group hazard). Without arguments it prints its usage.

Part of :mod:`helpers.release`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from decimal import ROUND_FLOOR, Decimal
from pathlib import Path

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import check_int_range
from ..budget import Allocation, PrivacyUnit, Release, Workload
from ..deployments import round_risk
from ._checks import _check_allocation, _check_total_is_sum, _parse_workload
from ._opendp_data import _cells_spec
from ._opendp_query import _key_release
from .explain import round_up
from .opendp import _MAX_LENGTH, _plan_check_unit, _release_unit, opendp_release

__all__ = ["read_plan", "release_plan"]  # main is the command line (__main__.py)

USAGE = """\
usage: python -m helpers.release PLAN.json DATA.csv|DATA.parquet [--sep SEP]

  PLAN.json  written by helpers.release.release_plan(allocation, workload, person=..., ...)
  DATA       one row per record: the person column, the grouping columns, the value columns
  --sep SEP  the CSV's separator, one character (default ","; e.g. ";" or "\\t")

Prints every cell with value, interval at the plan's coverage, OpenDP's noise and scale,
and marks with ! the cells whose relative error is above the plan's flag_above.

The columns the release reads are written to a temporary Parquet file that only you can
read (0600, in a 0700 folder under TMPDIR) for OpenDP to scan, and removed when it ends.
"""

_OPTIONS = ("person", "contributions", "by", "keys", "max_groups", "delta", "max_length")
_MORE = ("columns", "missing", "coverage", "flag_above")


def release_plan(allocation, workload, **options) -> str:
    """The release as a JSON plan the script runs: the allocation, its workload, the options.

    Used in notebook 12.

    Parameters
    ----------
    allocation : helpers.budget.Allocation
    workload : sequence of Release
    **options
        The keyword options of :func:`helpers.release.opendp_release` (``person`` and
        ``max_length`` required; ``contributions`` too unless the allocation carries its unit,
        as one made from :func:`helpers.release.opendp_workload` does).

    Returns
    -------
    str
        JSON text.

    %(raises)s

    Examples
    --------
    >>> import json
    >>> from helpers.budget import budget_for_accuracy
    >>> work = [Release("count", k=9.0, label="visits")]
    >>> plan = release_plan(budget_for_accuracy(work), work, person="p", contributions=1,
    ...                     max_length=100, columns={"visits": None})
    >>> json.loads(plan)["options"]["person"]
    'p'
    """
    allocation = _check_allocation(allocation)
    _check_total_is_sum(allocation)
    _parse_workload(workload, allocation)
    unknown = sorted(set(options) - set(_OPTIONS) - set(_MORE))
    if unknown:
        raise ValueError(f"options must be opendp_release's keywords; got {unknown[0]!r}")
    for name in ("person", "max_length"):
        if name not in options:
            raise ValueError(f"options must include {name}")
    if not isinstance(options["person"], str) or not options["person"]:
        raise ValueError(f"person must be a non-empty column name; got {options['person']!r}")
    # m from the allocation's unit, or given (and then equal to it): the run reads the same
    m = _release_unit(allocation, workload, options.get("contributions")).contributions
    options["contributions"] = m  # written always: the run reads the same m
    options["max_length"] = check_int_range("max_length", options["max_length"], 1, _MAX_LENGTH)
    # the plan's Δ must be the release's; keys not known in advance need a count of records
    keys_known = not options.get("by") or options.get("keys") is not None
    _plan_check_unit(allocation, workload, m, keys_known)
    by = options.get("by")
    _key_release(
        _cells_spec(workload, allocation, options.get("columns")),
        [by] if isinstance(by, str) else by,
        keys_known,
    )
    try:
        return _dumps(allocation, workload, options)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"options must be JSON values (str, numbers, lists, dicts); {err}"
        ) from None


def _dumps(allocation, workload, options) -> str:
    return json.dumps(
        {
            "allocation": {
                k: (
                    v.tolist()
                    if isinstance(v, np.ndarray)
                    else dataclasses.asdict(v)
                    if isinstance(v, PrivacyUnit)
                    else v
                )
                for k, v in allocation._asdict().items()
            },
            "workload": [
                {k: v for k, v in dataclasses.asdict(r).items() if k != "_"}
                if isinstance(r, Release)
                else dict(r)
                for r in workload
            ],
            "options": options,
            # how the means are released (a Workload's means): the plan read back keeps it
            "means": getattr(workload, "means", "direct"),
        },
        indent=1,
    )


def read_plan(text: str) -> tuple:
    """(allocation, workload, options) from :func:`release_plan`'s JSON.

    Not called in a notebook; used by ``helpers.release.script``.

    Parameters
    ----------
    text : str

    Returns
    -------
    builtins.tuple

    %(raises)s

    Examples
    --------
    >>> from helpers.budget import budget_for_accuracy
    >>> work = [Release("count", k=9.0, label="visits")]
    >>> a = budget_for_accuracy(work)
    >>> b, w, o = read_plan(release_plan(a, work, person="p", contributions=1, max_length=9))
    >>> b.budgets.tolist() == a.budgets.tolist(), w[0].label, o["max_length"]
    (True, 'visits', 9)
    """
    try:
        plan = json.loads(text)
        fields = plan["allocation"]
        # the unit travels with the plan, as an object the run reads m from
        unit = None if fields.get("unit") is None else PrivacyUnit(**fields["unit"])
        allocation = Allocation(
            **{
                k: np.asarray(v) if isinstance(v, list) else v
                for k, v in fields.items()
                if k in Allocation._fields and k != "unit"
            },
            unit=unit,
        )
        workload = [Release(**r) for r in plan["workload"]]
        if unit is not None:
            workload = Workload(workload, unit=unit, means=plan.get("means", "direct"))
        options = dict(plan["options"])
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"text must be a plan written by release_plan; got {err}") from None
    # a plan edited by hand: its options checked as release_plan checks them
    unknown = sorted(set(options) - set(_OPTIONS) - set(_MORE))
    missing = [name for name in ("person", "max_length") if name not in options]
    if unknown or missing:
        raise ValueError(
            "text must be a plan written by release_plan; its options "
            + (f"name {unknown[0]!r}, not an option" if unknown else f"lack {missing[0]!r}")
        )
    return allocation, workload, options


def _read_data(path: Path, sep: str = ","):
    import polars as pl

    if not path.is_file():
        raise ValueError(f"DATA must be a file; {str(path)!r} is not one")
    if path.suffix.lower() == ".parquet":
        return pl.read_parquet(path)
    if path.suffix.lower() != ".csv":
        raise ValueError(f"DATA must be a .csv or .parquet file; got {path.name!r}")
    with path.open(encoding="utf-8", errors="replace") as handle:
        header = handle.readline()
    # a header with no separator given but another one: a file from another locale (often
    # ";" with decimal commas), said before Polars reads it with the wrong one
    if sep not in header:
        other = next((c for c in ";\t|," if c != sep and c in header), None)
        if other is not None:
            raise ValueError(
                f"DATA looks separated by {other!r}, not {sep!r} (its header is "
                f"{header.strip()!r:.60}); pass --sep {other!r}, and write decimals with a "
                "point (12.5, not 12,5)"
            )
    return pl.read_csv(path, infer_schema_length=None, separator=sep)


def _options(argv: list) -> tuple:
    """(PLAN, DATA, separator) from the command line; None when it is not two paths and an
    optional ``--sep`` of one character."""
    sep = ","
    if "--sep" in argv:
        i = argv.index("--sep")
        if i + 1 >= len(argv):
            return None
        sep = argv[i + 1].replace("\\t", "\t")
        argv = argv[:i] + argv[i + 2 :]
        if len(sep) != 1:
            raise ValueError(f"--sep must be one character; got {sep!r}")
    if len(argv) != 2:
        return None
    return argv[0], argv[1], sep


def _outward(x, digits, *, down) -> str:
    """An interval end or a ±k as text, rounded away from the value (outward): the printed
    interval is never narrower than the one computed."""
    if not math.isfinite(x):
        return f"{x:g}"
    return f"{round_risk(x, digits=digits, down=down):.{digits}g}"


def _percent_floor(coverage) -> str:
    """A coverage as a percentage rounded down exactly (0.975 reads 97.5 %, never 98 %)."""
    percent = (Decimal(repr(float(coverage))) * 100).quantize(Decimal("0.1"), ROUND_FLOOR)
    return f"{percent.normalize():f}%"


def _cell_line(row, by, digits: int = 4) -> str:
    group = ", ".join(f"{b}={row[b]}" for b in by)
    mark = "!" if row["flagged"] else " "
    value = (
        f"{row['value']:.{digits}g} ({row['note']})"
        if row.get("note")
        else f"{row['value']:.{digits}g}"
    )
    return (
        f"{mark} {row['release']}{' [' + group + ']' if group else ''}: {value}  "
        f"interval [{_outward(row['lower'], digits, down=True)}, "
        f"{_outward(row['upper'], digits, down=False)}] "
        f"(±{_outward(row['k'], digits, down=False)} at {_percent_floor(row['coverage'])}; "
        f"{_planned_text(row, digits)}{row['distribution']}, scale {row['scale']:.{digits}g})"
    )


def _planned_text(row, digits) -> str:
    """The release's target and planned ±k beside the cell's delivered one ("target ±2,
    planned ±2; "), the plan rounded up as the delivered ±k is; "" where the row has none."""
    target, planned = row.get("target"), row.get("planned")
    if target is None or planned is None:
        return ""
    return f"target ±{target:.{digits}g}, planned ±{_outward(planned, digits, down=False)}; "


def _loss_text(loss, unit) -> str:
    """OpenDP's loss in words, every number rounded up: ``ε = …`` or, when the release spent
    a δ (keys not known in advance), ``(ε, δ) = (…, …)``."""
    if isinstance(loss, (tuple, list)):
        first, delta = loss
        return f"({unit}, δ) = ({round_up(first, digits=6)}, {round_up(delta, digits=6)})"
    return f"{unit} = {round_up(loss, digits=6)}"


def _library_errors() -> tuple:
    """The exception classes Polars and OpenDP raise on data they refuse."""
    from opendp.mod import OpenDPException
    from polars.exceptions import PolarsError

    return (OpenDPException, PolarsError)


def main(argv=None) -> int:
    """The command line: prints the usage without arguments, else the release.

    Not called in a notebook; used by ``helpers.release.script``.

    Parameters
    ----------
    argv : sequence of str
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 released, 2 usage or bad input (the message says which).

    Examples
    --------
    >>> main([])  # doctest: +ELLIPSIS
    usage: python -m helpers.release PLAN.json DATA.csv|DATA.parquet [--sep SEP]
    ...
    2
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        given = _options(argv)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if given is None:
        print(USAGE, end="")
        return 2
    plan, path, sep = given
    try:
        allocation, workload, options = read_plan(Path(plan).read_text(encoding="utf-8"))
        data = _read_data(Path(path), sep)
        out = opendp_release(data, allocation, workload, **options)
    except (ValueError, OSError, *_library_errors()) as err:
        # one line, no traceback: a bad plan or file, or Polars or OpenDP refusing the data
        text = " ".join(str(err).split()) or type(err).__name__
        print(f"error: {text}", file=sys.stderr)
        return 2
    by = options.get("by") or []
    by = [by] if isinstance(by, str) else list(by)
    unit = "ε" if out.measure == "epsilon" else "ρ_z"
    print(
        f"release: {out.mechanism} noise, OpenDP's loss of the whole context "
        f"{_loss_text(out.loss, unit)} for one person (d_in = {out.d_in} identifier)"
    )
    for note in out.notes:
        print(f"  note: {note}")
    for row in out.table.to_dict("records"):
        print(_cell_line(row, by))
    flagged = int(out.table["flagged"].sum())
    print(
        f"{flagged} cell(s) marked ! have a relative error above {options.get('flag_above', 0.5):g}"
    )
    return 0


fill_docstrings(globals())
