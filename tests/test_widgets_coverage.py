"""Every dashboard factory is driven by a widget test and shown in a notebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import helpers.widgets as widgets

ROOT = Path(__file__).resolve().parents[1]
FACTORIES = sorted(name for name in dir(widgets) if name.endswith("_dashboard"))
WIDGET_TESTS = "\n".join(
    p.read_text() for p in (ROOT / "tests" / "helpers" / "widgets").glob("test_*.py")
)
NOTEBOOK_SOURCES = "\n".join(p.read_text() for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_there_are_dashboards():
    assert len(FACTORIES) >= 9


@pytest.mark.parametrize("name", FACTORIES)
def test_factory_is_driven_by_a_widget_test(name):
    assert re.search(rf"\b{name}\(", WIDGET_TESTS), (
        f"no tests/helpers/widgets/test_*.py calls {name}()"
    )
    # the tests drive controls the way a reader does
    assert ".controls[" in WIDGET_TESTS and ".value = " in WIDGET_TESTS


@pytest.mark.parametrize("name", FACTORIES)
def test_factory_is_shown_in_a_notebook(name):
    assert re.search(rf"\b{name}\(", NOTEBOOK_SOURCES), f"no notebook displays {name}()"
