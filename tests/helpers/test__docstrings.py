"""helpers/_docstrings.py: the shared sections are filled in place, indented, and never silently."""

from __future__ import annotations

import types

import pytest

from helpers._docstrings import SECTIONS, docformat, fill_docstrings


def test_a_placeholder_line_is_replaced_and_indented_as_the_placeholder():
    doc = "Head.\n\n    Parameters\n    ----------\n    %(epsilon)s\n"
    filled = docformat(doc)
    body = "\n".join("    " + line for line in SECTIONS["epsilon"].splitlines())
    assert filled == f"Head.\n\n    Parameters\n    ----------\n{body}\n"


def test_a_percent_sign_elsewhere_needs_no_escaping():
    doc = "Covers 95 % of the mass; %(epsilon)s inside a sentence stays as written.\n"
    assert docformat(doc) == doc


def test_an_unknown_placeholder_fails_at_once():
    with pytest.raises(KeyError, match="no_such_section"):
        docformat("Head.\n    %(no_such_section)s\n")


def test_blank_lines_of_a_section_stay_blank():
    assert docformat("    %(x)s\n", {"x": "a\n\nb"}) == "    a\n\n    b\n"


def test_fill_docstrings_fills_functions_classes_methods_and_skips_reexports():
    module = types.ModuleType("fake_module")

    def f():
        """F.

        %(x)s
        """

    class C:
        """C.

        %(x)s
        """

        def m(self):
            """M.

            %(x)s
            """

    def elsewhere():
        """%(unknown)s"""

    f.__module__ = C.__module__ = "fake_module"
    elsewhere.__module__ = "another_module"
    module.__dict__.update(__all__=["f", "C", "elsewhere"], f=f, C=C, elsewhere=elsewhere)
    fill_docstrings(vars(module), {"x": "X section"})
    assert "        X section" in f.__doc__ and "%(" not in f.__doc__
    assert "X section" in C.__doc__ and "            X section" in C.m.__doc__
    assert elsewhere.__doc__ == "%(unknown)s"  # filled by its own module, not this one


def test_every_shared_section_is_used_somewhere():
    from _modules import HELPERS

    sources = "\n".join(p.read_text(encoding="utf-8") for p in HELPERS.rglob("*.py"))
    unused = [name for name in SECTIONS if f"%({name})s" not in sources]
    assert not unused, f"sections no docstring uses: {unused}"


def test_a_class_may_be_written_below_the_filler():
    """A name of __all__ not yet defined when the module's filler runs is skipped (importing
    used to fail with a KeyError), and a mechanism fills its own docstrings at its creation."""
    module = types.ModuleType("fake_module")
    module.__dict__.update(__all__=["later"])
    fill_docstrings(vars(module), {})  # "later" is written below the call: no KeyError

    from helpers.mechanisms import Laplace

    class Later(Laplace):
        def sample(self, size=None, *, rng):
            """Draws.

            %(size_rng)s
            """
            return super().sample(size, rng=rng)

    assert "%(" not in Later.sample.__doc__ and "rng : int or numpy.random.Generator" in (
        Later.sample.__doc__
    )
