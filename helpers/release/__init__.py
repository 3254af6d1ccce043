"""From a chosen budget to a release: whose privacy, how to explain it, a record, OpenDP code.

The continuation of :mod:`helpers.budget` (notebook 11) for a practitioner who has chosen a
budget (notebook 12):

* **the unit of privacy** (NIST SP 800-226, 2025: the "unit of privacy" beside ε). An ε
  per *record* protects a person who contributes one record; a person with m records is a
  group of m. Group privacy: an ε-DP release is mε-DP for groups of m
  (:func:`group_privacy`, Dwork & Roth 2014, Theorem 2.2), an (ε, δ)-DP release is
  (mε, δ·Σ_{i<m} e^{iε})-DP (the same chain of m steps; at most m·e^{(m−1)ε}·δ, each of
  the m terms being at most e^{(m−1)ε}δ; group privacy in general: Vadhan 2017), a
  ρ_z-zCDP release m²ρ_z-zCDP (:func:`group_rho`, Bun & Steinke 2016,
  Proposition 1.9). Bounding each person to at most m records makes the per-person
  sensitivity m·Δ (:func:`per_person`), at the price of the records dropped
  (:func:`clipping_bias`, :func:`contribution_tradeoff`);
* **δ against the number of people**: the (0, δ)-DP mechanism that publishes each record
  with probability δ exposes someone with probability 1 − (1 − δ)^n (:func:`delta_exposure`,
  :func:`largest_delta`), hence δ ≪ 1/n;
* **small groups**: the same noise is a larger share of a smaller group's statistic
  (:func:`group_error`, :func:`smallest_group`; NIST SP 800-226);
* **explaining the choice** in odds, the kind of explanation Nanayakkara et al. (USENIX
  Security 2023) report worked better than output-based ones and ones that gloss over ε: from a prior to at most a posterior (:func:`odds`,
  :func:`odds_sentence`; for a person in the data, :func:`subject_summary`, then
  :func:`subject_layers` with the details and the expert line), beside the best test between neighbours
  (:func:`attack_reading`);
* **a record of the choice** for a registry (:func:`privacy_record`), read back with
  notebook 09's reader (:func:`registry_table`);
* **the release in OpenDP**: the whole workload as one OpenDP Context over a Polars
  LazyFrame, by group, each cell with its interval (:func:`opendp_release`; nothing resized
  to an assumed number of records), its workload allocated at OpenDP's own sensitivities
  (:func:`opendp_workload`: a sum costs m·max(|L|, |U|) per person, so the noise that runs is
  the noise planned), and the same release from the command line
  (``python -m helpers.release PLAN DATA``, :func:`release_plan`).

The math layer: no plotting, no widgets (OpenDP is imported where it is used). Used in
notebook 12.
"""

from __future__ import annotations

import inspect

# One module per topic above: people (the unit of privacy, δ against n, small groups),
# explain, record, opendp; _checks holds the input checks they share; _opendp_data,
# _opendp_query and _opendp_run serve opendp alone (the table read and checked; the OpenDP
# queries; the workload run as one query).
from ..budget import Release  # noqa: F401 (the examples' workloads: helpers.release.Release)
from ._checks import MAX_CONTRIBUTIONS, NEIGHBOURS, UNITS
from .explain import (
    AttackReading,
    Odds,
    allocation_attack,
    allocation_mechanisms,
    attack_reading,
    icon_counts,
    in_people,
    odds,
    odds_sentence,
    percent,
    round_up,
)
from .opendp import (
    MISSING,
    OPENDP_NEIGHBOURS,
    ReleaseTable,
    neighbour_distance,
    opendp_release,
    opendp_workload,
)
from .people import (
    Tradeoff,
    clipping_bias,
    contribution_tradeoff,
    delta_exposure,
    group_error,
    group_privacy,
    group_rho,
    largest_delta,
    per_person,
    smallest_group,
)
from .record import RECORD_FIELDS, REGISTRY_COLUMNS, privacy_record, registry_table
from .script import read_plan, release_plan
from .subject import SubjectText, subject_layers, subject_paragraph, subject_summary

__all__ = [
    "MAX_CONTRIBUTIONS",
    "MISSING",
    "NEIGHBOURS",
    "OPENDP_NEIGHBOURS",
    "RECORD_FIELDS",
    "REGISTRY_COLUMNS",
    "UNITS",
    "AttackReading",
    "Odds",
    "ReleaseTable",
    "SubjectText",
    "Tradeoff",
    "allocation_attack",
    "allocation_mechanisms",
    "attack_reading",
    "clipping_bias",
    "contribution_tradeoff",
    "delta_exposure",
    "group_error",
    "group_privacy",
    "group_rho",
    "icon_counts",
    "in_people",
    "largest_delta",
    "neighbour_distance",
    "odds",
    "odds_sentence",
    "opendp_release",
    "opendp_workload",
    "per_person",
    "percent",
    "privacy_record",
    "read_plan",
    "registry_table",
    "release_plan",
    "round_up",
    "smallest_group",
    "subject_layers",
    "subject_paragraph",
    "subject_summary",
]

# One home for every public function: help() and the docs name helpers.release, as before the
# split into modules (numpy's set_module); the modules fill their docstrings before this.
for _obj in map(globals().get, __all__):
    if inspect.isfunction(_obj) and _obj.__module__.startswith(__name__ + "."):
        _obj.__module__ = __name__
del _obj
