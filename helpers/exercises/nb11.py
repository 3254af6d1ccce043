"""Notebook 11's open exercise (11.4): a workload the student designs.

Listed in :data:`helpers.exercises._open.OPEN` (``_open`` imports this module; this module
imports only ``_core``, so there is no import cycle): many
workloads are right, so the test is the conditions the exercise states, never a value.

11.4: for a survey of :data:`RECORDS` respondents, at least :data:`MIN_RELEASES` releases,
among them a count, a sum and a mean; every mean over the :data:`RECORDS` records; no
``sensitivity`` override; each coverage at least :data:`MIN_COVERAGE`; each ±k at most
:data:`MAX_SHARE` of the range its statistic can take (a count: n; a sum: n·(upper − lower);
a mean: upper − lower); and Laplace noise meeting every target within the risk of a
posterior of at most :data:`RISK` from a prior of ½.
"""

from __future__ import annotations

import math

from ._core import OpenExercise, _is_number, _what

#: the survey's public number of respondents
RECORDS = 1_000
MIN_RELEASES = 8
MIN_COVERAGE = 0.9
#: the widest ±k allowed, as a share of the range the statistic can take
MAX_SHARE = 0.02
#: the largest posterior (from a prior of ½) the workload may allow
RISK = 0.8
_FIELDS = ("kind", "k", "coverage", "lower", "upper", "n", "sensitivity")


def _field(release, name):
    if isinstance(release, dict):
        return release.get(name)
    return getattr(release, name, None)


def _workload_reduce(answer):
    if not isinstance(answer, (list, tuple)):
        return {"error": f"is {_what(answer)}, not a list of releases"}
    rows = []
    for release in answer:
        if not isinstance(release, dict) and not hasattr(release, "kind"):
            return {"error": f"holds {_what(release)}, not a Release"}
        row = {}
        for name in _FIELDS:
            value = _field(release, name)
            if name == "coverage" and value is None:
                value = 0.95  # a Release's default
            if name != "kind" and value is not None:
                if not _is_number(value):
                    return {"error": f"has a release whose {name} is {_what(value)}, not a number"}
                value = float(value)
            row[name] = value if name != "kind" or isinstance(value, str) else repr(value)
        rows.append(row)
    return {"releases": rows}


def _range(row) -> float:
    if row["kind"] == "count":
        return float(RECORDS)
    width = row["upper"] - row["lower"]
    return RECORDS * width if row["kind"] == "sum" else width


def _workload_judge(data, params=None) -> tuple[bool, str]:
    from .. import budget as bud

    if not isinstance(data, dict) or "releases" not in data:
        return False, (data or {}).get("error", "is not a list of releases")
    rows = data["releases"]
    if len(rows) < MIN_RELEASES:
        return False, f"has {len(rows)} releases; at least {MIN_RELEASES} are asked for"
    kinds = {row.get("kind") for row in rows}
    missing = [k for k in ("count", "sum", "mean") if k not in kinds]
    if missing:
        return False, f"has no {' and no '.join(missing)}"
    for i, row in enumerate(rows):
        if row.get("sensitivity") is not None:
            return False, f"sets release {i}'s sensitivity: let the bounds give it"
        if row["kind"] == "mean" and row.get("n") != RECORDS:
            n = "no n" if row.get("n") is None else f"n = {row['n']:g}"
            return False, f"has a mean (release {i}) over {n}, not n = {RECORDS:,}"
    try:
        releases = [
            bud.Release(
                row["kind"],
                **{n: row[n] for n in ("k", "coverage", "lower", "upper") if row[n] is not None},
                n=int(row["n"]) if row.get("n") is not None else None,
            )
            for row in rows
        ]
        bud.workload_sensitivities(releases)
    except (ValueError, TypeError) as error:
        return False, f"is not a valid workload: {error}"
    for i, row in enumerate(rows):
        if not row["coverage"] >= MIN_COVERAGE:
            return False, f"asks release {i} for a coverage below {MIN_COVERAGE:g}"
        if not row["k"] <= MAX_SHARE * _range(row) * (1 + 1e-12):
            return False, (
                f"lets release {i} ({row['kind']}) be off by more than "
                f"{100 * MAX_SHARE:g} % of its range: narrow its ±k"
            )
    choice = bud.choose_workload(releases, bud.risk_posterior(RISK, prior=0.5))
    if not choice.feasible:
        return False, (
            "needs more ε than a posterior of at most "
            f"{RISK:g} allows (total ε {choice.epsilon_accuracy:.3g} > ln 4): drop a release or "
            "lower a coverage"
        )
    if not math.isfinite(choice.epsilon_accuracy):  # pragma: no cover - refused above
        return False, "needs an infinite ε"
    return True, ""


WORKLOAD = OpenExercise(
    "11.4",
    ("my_workload",),
    _workload_reduce,
    _workload_judge,
    precision="any workload that meets the conditions is accepted",
)
