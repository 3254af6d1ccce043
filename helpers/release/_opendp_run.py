"""The workload of :func:`helpers.release.opendp_release` run in OpenDP: one query, one truncation.

Each release's noise is resolved as it always was, at the least scale within its own share of
the budget (:func:`helpers.release._opendp_query._resolve`), but on a context over the table's
schema alone, so no search of a scale or a threshold touches the records. The workload then
runs as one OpenDP query at those absolute scales (:func:`_run`): each person's records are
truncated once and every release's noisy columns are computed in one pass, where one query per
release truncated (a group-by over the person) once per release. Two things still run apart,
each in a query of its own: the count that releases keys not known in advance (every other
release needs the groups it releases), and, with ``missing="drop"``, the releases of each column
whose missing values leave their records (they read other records).

The privacy loss is OpenDP's own: the records are in a privacy filter of the allocation's total
(and the δ of the keys), which refuses a query that would spend more, and the release's
``loss`` is that total. One query composes its parts as separate queries do, up to the rounding
of OpenDP's float sum of their losses, which can be a unit in the last place above the sum of
the shares; every scale of that query is then raised by a few units in the last place, the least
that keeps it within the filter (:func:`_at_scales`), so no noisy column ever runs below the
scale its release resolved, and none more than a relative 1e-12 above it.

The records reach OpenDP as a scan of a private temporary Parquet file (:func:`_private_scan`):
OpenDP's compositor serialises the Polars LazyFrame it is given, so a table in memory crosses
into OpenDP as a second whole copy (2× the memory of a plain group-by at 10⁷ records), a scan as
a plan of a few hundred bytes that OpenDP's own engine reads lazily. Where the temporary folder
is a tmpfs (a container's or a hub's ``/tmp``, often), the file itself is memory, which a
process's peak resident size (the benchmark's reading) does not count: point ``TMPDIR`` at a
disk for a large table there.

Private to :mod:`helpers.release.opendp`, the only module that uses it.

References
----------
OpenDP Library 0.16: ``opendp.context.Context.compositor`` (a privacy filter when no split is
given; ``make_fully_adaptive_composition``), ``make_private_lazyframe`` (``global_scale``),
``summarize_polars_measurement``; Polars ``LazyFrame.serialize`` and ``scan_parquet``; Python's
``tempfile.mkdtemp`` (a folder "readable, writable, and searchable only by the creating user").
"""

from __future__ import annotations

import contextlib
import os
import tempfile

from ._opendp_query import (
    _alpha,
    _cells,
    _dropped_column,
    _expression,
    _query,
    _records,
    _resolve,
    _summary,
    _threshold,
)


@contextlib.contextmanager
def _private_scan(frame, pl):
    """A Polars scan of ``frame`` written to a private temporary Parquet file, removed on exit.

    The file is made before Polars writes to it, readable and writable by the process's user
    only (mode 0600), inside a folder of its own that only that user can open (mode 0700,
    ``tempfile.mkdtemp`` in the system's temporary folder, ``TMPDIR`` where set); both are
    removed when the release leaves the ``with`` block, whether it ends or raises. A process
    killed before then leaves them behind (the operating system's cleaning of its temporary
    folder removes them). Uncompressed: the file is written once and read once, so compressing
    it costs more than it saves. A table whose column types a Parquet file does not keep
    (its scan's schema differs), or a system whose temporary folder cannot take the file (an
    OSError: read-only, full), gives OpenDP the table in memory instead.
    """
    folder = path = None
    try:  # one finally for all of it: a write interrupted (Ctrl-C, a Polars error) leaves nothing
        try:
            folder = tempfile.mkdtemp(prefix="opendp-release-")
            path = os.path.join(folder, "records.parquet")
            # created 0600 before any record is written: no other user can open it at any time
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            frame.write_parquet(path, compression="uncompressed", statistics=False)
            scan = pl.scan_parquet(path)
            usable = scan.collect_schema() == frame.schema
        except OSError:  # no temporary folder to write in (read-only, full): the table in memory
            usable = False
        yield scan if usable else frame.lazy()
    finally:
        if path is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
        if folder is not None:
            with contextlib.suppress(FileNotFoundError):
                os.rmdir(folder)


def _run(frame, spec, discrete, *, dp, pl, unit, loss, margins, shares, plans, options, coverage):
    """(the cells of each release by index, OpenDP's threshold or None, OpenDP's loss).

    ``shares`` is each release's share of the budget as the release has always split it:
    ``{"split_by_weights": ...}`` (OpenDP's split of the total, by the allocation's budgets),
    or, when the keys are not known in advance (``options["key_index"]``), ``{"losses": ...}``,
    each query's own loss (a list by release, the key release's with the δ). ``options`` holds the query's
    options (m, missing, by, person, measure) and the public keys (``keys``, None when not
    known in advance). ``plans`` is each release's (target ±k, planned ±k).
    """
    options = dict(options)
    key_index, keys = options.pop("key_index"), options.pop("keys")
    own = shares.get("losses")
    # each release's share of the budget, split as before, on a context of no record
    schema_only = dp.Context.compositor(
        data=pl.DataFrame(schema=frame.schema).lazy(),
        privacy_unit=unit,
        privacy_loss=loss,
        margins=margins,
        split_by_weights=shares.get("split_by_weights"),
    )

    def resolved(i, keys):
        query = _query(
            schema_only, pl, dp, spec[i], discrete, keys=keys, loss=own and own[i], **options
        )
        measurement = _resolve(query, dp)
        schema_only(measurement)  # its share spent: the next release's query reads the next
        return measurement

    released = {}
    with _private_scan(frame, pl) as records:
        # the records in a privacy filter of the whole loss: it refuses a query beyond it
        context = dp.Context.compositor(
            data=records, privacy_unit=unit, privacy_loss=loss, margins=margins
        )
        ran, threshold = [], None
        if key_index is not None:  # OpenDP's own grouped count releases the keys, first
            measurement = resolved(key_index, None)
            rows = _summary(dp, measurement, _alpha(spec[key_index], coverage))
            answer = context(measurement).collect()
            ran.append(measurement)
            threshold = _threshold(rows)
            released[key_index] = _cells(
                answer,
                rows,
                spec[key_index],
                discrete,
                options["by"],
                coverage,
                plan=plans[key_index],
            )
            keys = _released_keys(released[key_index], options["by"], frame, pl)
        rest = [i for i in range(len(spec)) if i != key_index]
        if keys is not None and len(keys) == 0:  # no group passed: nothing to release by group
            return {**released, **{i: [] for i in rest}}, threshold, context.accountant.map(1)
        scales = {}
        for i in rest:  # each release's scales, resolved in its own share as before
            rows = _summary(dp, resolved(i, keys), _alpha(spec[i], coverage))
            scales[i] = {alias: float(row["scale"]) for alias, row in rows.items()}
        for dropped, group in _queries(spec, rest, options["missing"]):
            measurement = _at_scales(
                context,
                pl,
                dp,
                spec,
                group,
                scales,
                discrete,
                ran=ran,
                dropped=dropped,
                keys=keys,
                **options,
            )
            answer = context(measurement).collect()
            ran.append(measurement)
            for i in group:
                rows = _summary(dp, measurement, _alpha(spec[i], coverage), prefix=f"{i}:")
                released[i] = _cells(
                    answer,
                    rows,
                    spec[i],
                    discrete,
                    options["by"],
                    coverage,
                    plan=plans[i],
                    prefix=f"{i}:",
                )
        return released, threshold, context.accountant.map(1)


def _queries(spec, indices, missing) -> list:
    """[(the column whose missing values leave the records, or None; the releases that read
    those records)]: one query per set of records, in the releases' order."""
    queries = {}
    for i in indices:
        queries.setdefault(_dropped_column(spec[i], missing), []).append(i)
    return list(queries.items())


def _at_scales(context, pl, dp, spec, group, scales, discrete, *, ran, dropped, keys, **options):
    """The one query of the releases ``group`` (indices into ``spec``), each noisy column at
    its release's resolved scale (``scales``: index -> alias -> scale) times the least factor
    ≥ 1 that keeps every query of the context (``ran``, then this one) within its filter.

    The factor starts at 1 and rises by a few units in the last place while OpenDP's own
    arithmetic of the filter (its fully adaptive composition of the queries' losses) would
    refuse the query: the sum of the parts' losses, rounded up once in one query, can exceed
    the sum of the shares by a unit in the last place."""
    m, by, person, measure = options["m"], options["by"], options["person"], options["measure"]
    root = 2.0 if measure == "rho" else 1.0  # ρ falls as 1/σ², ε as 1/b

    def measurement(factor):
        exprs = [
            expr
            for i in group
            for expr in _expression(
                pl,
                dp,
                spec[i],
                discrete,
                person,
                measure=measure,
                prefix=f"{i}:",
                scales={alias: scale * factor for alias, scale in scales[i].items()},
            )
        ]
        query = _records(context.query(), pl, m, dropped)
        query = query.group_by(by).agg(*exprs).with_keys(keys) if by else query.select(*exprs)
        inner = object.__getattribute__(query, "_query")
        domain, metric = inner._chain
        plan = object.__getattribute__(query, "polars_plan")
        return dp.m.make_private_lazyframe(
            domain, metric, inner._output_measure, plan, global_scale=1.0
        )

    budget = context.d_out
    factor = 1.0
    for _ in range(60):
        candidate = measurement(factor)
        spent = _pending(dp, context, [*ran, candidate])
        if _within(spent, budget):
            return candidate
        first = spent[0] / budget[0] if isinstance(budget, tuple) else spent / budget
        factor *= max(first, 1.0) ** (1 / root) * (1 + 4 * 2.0**-52)
    raise AssertionError("OpenDP's filter refused the workload's query")  # pragma: no cover


def _pending(dp, context, measurements):
    """The loss OpenDP's filter of ``context`` would hold after ``measurements``: its own fully
    adaptive composition, run on a table of no record (the loss depends on no record)."""
    from opendp.domains import _lazyframe_from_domain

    domain, metric = context.accountant.input_space
    odometer = dp.c.make_fully_adaptive_composition(
        input_domain=domain, input_metric=metric, output_measure=context.accountant.output_measure
    )
    queryable = odometer(_lazyframe_from_domain(domain))
    for measurement in measurements:
        queryable(measurement)
    return queryable.privacy_loss(context.d_in)


def _within(spent, budget) -> bool:
    """Every part of the loss (ε or ρ, and δ) within the budget's."""
    if isinstance(budget, tuple):
        return all(s <= b for s, b in zip(spent, budget, strict=True))
    return spent <= budget


def _released_keys(cells, by, frame, pl):
    """The groups the key release released, as public keys for every other release (the
    released cells are public: using them is post-processing)."""
    schema = {b: frame.schema[b] for b in by}
    return pl.DataFrame({b: [cell[b] for cell in cells] for b in by}, schema=schema)
