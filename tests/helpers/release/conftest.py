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
    """``privacy_record(allocation, **options)`` with :func:`record_options`, overridable."""

    def make(allocation, **options):
        return R.privacy_record(allocation, **{**record_options, **options})

    return make
