"""The release tests' shared setup: a record of a release, its stated fields given once."""

from __future__ import annotations

import pytest

from helpers import release as R


@pytest.fixture
def record_options() -> dict:
    """The fields a test record states beside its allocation: the unit, the neighbours, a
    date, a name and curators (a test overrides the ones it checks)."""
    return {
        "unit": "person",
        "neighbours": "add-remove",
        "date": "2026-11-29",
        "name": "Clinic visits",
        "curators": "A clinic",
    }


@pytest.fixture
def make_record(record_options):
    """``privacy_record(allocation, **options)`` with :func:`record_options`, overridable; the
    unit and the neighbours only where the allocation does not carry its own."""

    def make(allocation, **options):
        defaults = dict(record_options)
        if isinstance(allocation, R.ReleaseTable) or getattr(allocation, "unit", None):
            del defaults["unit"], defaults["neighbours"]
        return R.privacy_record(allocation, **{**defaults, **options})

    return make
