"""Docstring templates: the sections many public functions share, written once.

The pattern of scipy's ``scipy._lib.doccer``. A docstring holds a placeholder ``%(name)s`` on
a line of its own where a shared section belongs; :func:`fill_docstrings`, called at the end
of a module, replaces each placeholder with the text of :data:`SECTIONS` (or of a module's
own table), indented as the placeholder is. ``help()``, ``??`` and the doctests read the
filled docstring, so a reader sees the section as if it were written out in place.

Only placeholders alone on a line are filled, so a ``%`` elsewhere in a docstring ("95 %")
needs no escaping; an unknown placeholder is a ``KeyError`` at import, never a silent gap.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping

__all__ = ["SECTIONS", "docformat", "fill_docstrings", "fill_object"]

#: the shared sections, by placeholder name (numpydoc layout, unindented)
SECTIONS: dict[str, str] = {
    # --- Raises
    "raises": """\
Raises
------
ValueError
    If an argument is out of range, NaN or of the wrong type (the message names it).""",
    # --- Returns
    "returns_float_or_array": """\
Returns
-------
float or numpy.ndarray
    A Python float for scalar input, else an array of the broadcast shape.""",
    # --- Parameters
    "epsilon": """\
epsilon : float or array_like
    ε ≥ 0 (the privacy parameter; arrays broadcast).""",
    "sensitivity": """\
sensitivity : float, keyword-only
    Δ > 0, the sensitivity (a positive integer ≤ 10⁶ for the geometric mechanism).""",
    "sensitivity_continuous": """\
sensitivity : float, keyword-only
    Δ > 0, the sensitivity: the most f(D) can change between neighbouring data sets.""",
    "sensitivity_geometric": """\
sensitivity : int, keyword-only
    Δ, a positive integer ≤ 10⁶ (the geometric mechanism's outputs are integers).""",
    "sigma": """\
sigma : float or array_like
    Standard deviation σ > 0 of the Gaussian noise.""",
    "scale": """\
scale : float or array_like
    Noise scale b > 0 (Laplace; two-sided geometric with α = e^{−1/b}).""",
    "loc": """\
loc : float, keyword-only
    f(D₁); A(D₂) is centred at loc + Δ.""",
}

_PLACEHOLDER = re.compile(r"^([ \t]*)%\((\w+)\)s[ \t]*$", re.MULTILINE)


def docformat(docstring: str | None, sections: Mapping[str, str] = SECTIONS) -> str | None:
    """``docstring`` with every placeholder line ``%(name)s`` replaced by ``sections[name]``.

    Each line of the section is indented as the placeholder is (blank lines stay blank).

    >>> docformat("Head.\\n\\n    %(loc)s\\n", {"loc": "loc : float\\n    f(D₁)."})
    'Head.\\n\\n    loc : float\\n        f(D₁).\\n'
    """
    if not docstring or "%(" not in docstring:
        return docstring

    def fill(match: re.Match) -> str:
        indent, name = match.groups()
        lines = sections[name].splitlines()
        return "\n".join(indent + line if line.strip() else "" for line in lines)

    return _PLACEHOLDER.sub(fill, docstring)


def _fill(obj, sections: Mapping[str, str]) -> None:
    doc = getattr(obj, "__doc__", None)
    filled = docformat(doc, sections)
    if filled is not doc:
        obj.__doc__ = filled


def fill_docstrings(namespace: Mapping, sections: Mapping[str, str] | None = None) -> None:
    """Fill the docstrings of a module's public functions and classes (their methods too).

    Call at the end of a module as ``fill_docstrings(globals())``; ``sections`` adds the
    module's own placeholders to (or overrides) the shared :data:`SECTIONS`. A name of
    ``__all__`` not defined yet (a class written below the call) is skipped, not an error:
    a class that fills itself (a mechanism, through :func:`fill_object` at its creation)
    may be written anywhere in its module.
    """
    table = {**SECTIONS, **(sections or {})}
    module = namespace["__name__"]
    for name in namespace["__all__"]:
        obj = namespace.get(name)
        if obj is None or getattr(obj, "__module__", None) != module:
            continue  # re-exported (filled by its own module) or written below the call
        fill_object(obj, table)


def fill_object(obj, sections: Mapping[str, str]) -> None:
    """Fill one function's docstring, or one class's and its methods' (placeholders of
    ``sections``, which should include :data:`SECTIONS`)."""
    _fill(obj, sections)
    if inspect.isclass(obj):
        for member in vars(obj).values():
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if inspect.isfunction(member) or isinstance(member, property):
                _fill(member, sections)
