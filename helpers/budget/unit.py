"""The unit of privacy as one object that travels with the workload to the record.

A guarantee protects a *unit*: one record, or one person (user) with up to m records, under
one neighbour notion. The course used to pass the three as bare values to every layer
(``contributions=`` here, ``unit=`` and ``neighbours=`` there), each re-checking a number and
the consistency checked after the fact. :class:`PrivacyUnit` holds them once, checked once;
:class:`Workload` is a workload whose sensitivities were stated for that unit
(:func:`helpers.release.per_person`, :func:`helpers.release.opendp_workload`), and every
:class:`Allocation` made from it carries the unit on (``allocation.unit``) to the release
(:func:`helpers.release.opendp_release`) and its record (:func:`helpers.release.privacy_record`),
which read it instead of being told again.

Private to the package: its public names are re-exported by :mod:`helpers.budget`.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from .._validation import check_int_range

__all__ = ["MAX_CONTRIBUTIONS", "MEAN_RELEASES", "NEIGHBOURS", "UNITS", "PrivacyUnit", "Workload"]

#: Most records one person may contribute (m), and the largest group size of group privacy.
MAX_CONTRIBUTIONS = 10**6
#: Units of privacy a record can state, as the registry's ``privacy_unit`` words.
UNITS = {"person": "Person-level", "record": "Record-level", "user": "User-level"}
#: Neighbour notions a guarantee can be stated for: one record (or person) changed, or one
#: added or removed.
NEIGHBOURS = ("change-one", "add-remove")
#: How a :class:`Workload`'s means are released: one noise on the mean ("direct"), or the
#: noisy sum of x − c over the noisy count of the same records ("ratio", OpenDP's release).
MEAN_RELEASES = ("direct", "ratio")


def check_unit(unit) -> str:
    if not isinstance(unit, str) or unit not in UNITS:
        raise ValueError(f"unit must be one of {tuple(UNITS)}; got {unit!r}")
    return unit


def check_neighbours(neighbours) -> str:
    if not isinstance(neighbours, str) or neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {NEIGHBOURS}; got {neighbours!r}")
    return neighbours


def check_contributions(contributions, name: str = "contributions") -> int:
    return check_int_range(name, contributions, 1, MAX_CONTRIBUTIONS)


@dataclass(frozen=True, slots=True)
class PrivacyUnit:
    """Whom a guarantee protects: the unit, the most records m it holds, the neighbour notion.

    Parameters
    ----------
    unit : {"record", "person", "user"}
        What one neighbour differs by (the registry's privacy unit).
    contributions : int, keyword-only
        m ≥ 1, the most records one unit holds once each person's records are bounded. With
        ``unit="record"`` and m > 1 the guarantee is per record and a person's is its group of
        m (:func:`helpers.release.group_privacy`).
    neighbours : {"change-one", "add-remove"}, keyword-only
        The neighbour notion the sensitivities were stated for (the course's releases with a
        public n are change-one; OpenDP's releases by identifier add-remove).

    Raises
    ------
    ValueError
        If a field is out of its range (the message names the field and the value given).

    Examples
    --------
    >>> PrivacyUnit("person", contributions=3, neighbours="add-remove").contributions
    3
    >>> PrivacyUnit("person", contributions=0)
    Traceback (most recent call last):
    ...
    ValueError: contributions must be an integer in 1..1000000; got 0
    """

    unit: str = "record"
    _: KW_ONLY
    contributions: int = 1
    neighbours: str = "change-one"

    def __post_init__(self):
        check_unit(self.unit)
        # an np.int64 is held as a Python int, so records and JSON see one type
        object.__setattr__(self, "contributions", check_contributions(self.contributions))
        check_neighbours(self.neighbours)

    @property
    def records_changed(self) -> int:
        """How many records two neighbours differ in: m added or removed, or 2m changed (a
        change is a removal and an addition)."""
        return self.contributions * (1 if self.neighbours == "add-remove" else 2)


class Workload(tuple):
    """The releases of a workload whose sensitivities were stated for a :class:`PrivacyUnit`.

    Made by :func:`helpers.release.per_person` and :func:`helpers.release.opendp_workload`,
    which state each release's Δ for the unit. It is a sequence (every function that takes a
    workload takes it) and immutable, so its releases cannot change under its unit; every
    release must state its ``sensitivity``. An :class:`Allocation` made from it carries the
    unit on. A slice, ``list(...)`` or ``+`` is a plain sequence and has no unit; equality
    reads the unit too.

    Parameters
    ----------
    releases : iterable of Release
        Each with ``sensitivity`` stated (Δ for the unit).
    unit : PrivacyUnit, keyword-only
    means : {"direct", "ratio"}, keyword-only
        How a mean is released (:data:`MEAN_RELEASES`): "direct" (the default), one noise on
        the mean at Δ = (U − L)/n; "ratio", as :func:`helpers.release.opendp_release` releases
        it, the noisy sum of x − c over the noisy count (:func:`helpers.budget.ratio_interval`),
        which the allocation plans for the mean's least group size n (its ``sensitivity`` is
        then not what sets its budget). :func:`helpers.release.opendp_workload` states "ratio".

    Examples
    --------
    >>> from helpers.budget import Release
    >>> person = PrivacyUnit("person", contributions=3)
    >>> w = Workload([Release("count", k=5.0, sensitivity=3.0)], unit=person)
    >>> w.unit.contributions, len(w)
    (3, 1)
    """

    def __new__(cls, releases=(), *, unit, means="direct"):
        if not isinstance(unit, PrivacyUnit):
            raise ValueError(f"unit must be a PrivacyUnit; got {unit!r}")
        if not isinstance(means, str) or means not in MEAN_RELEASES:
            raise ValueError(f"means must be one of {MEAN_RELEASES}; got {means!r}")
        releases = tuple(releases)
        for i, release in enumerate(releases):
            stated = (
                release.get("sensitivity")
                if isinstance(release, dict)
                else getattr(release, "sensitivity", None)
            )
            if stated is None:
                raise ValueError(
                    f"releases[{i}] must state its sensitivity: a Workload's Δ are stated for "
                    f"its unit ({unit!r}); per_person or opendp_workload state them"
                )
        self = super().__new__(cls, releases)
        self.unit = unit
        self.means = means
        return self

    def __getnewargs_ex__(self):
        return (tuple(self),), {"unit": self.unit, "means": self.means}

    def __eq__(self, other):
        if isinstance(other, Workload):
            return (
                tuple.__eq__(self, other) and self.unit == other.unit and self.means == other.means
            )
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((tuple(self), self.unit, self.means))

    def __repr__(self) -> str:
        means = "" if self.means == "direct" else f", means={self.means!r}"
        return f"Workload({list(self)!r}, unit={self.unit!r}{means})"


def means_of(workload) -> str:
    """How a workload's means are released (:data:`MEAN_RELEASES`): a :class:`Workload`'s
    ``means``, else "direct"."""
    return workload.means if isinstance(workload, Workload) else "direct"


def unit_of(workload):
    """The :class:`PrivacyUnit` a workload's sensitivities were stated for, or None."""
    return workload.unit if isinstance(workload, Workload) else None
