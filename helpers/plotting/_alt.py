"""Text alternatives: every figure says in words what it shows and the point it makes.

Each plotting function computes its figure's text alternative from the very numbers it draws
and attaches it as ``fig.alt_text`` (:func:`describe`); the same text then travels with the
figure wherever it appears:

* in a notebook, IPython's output carries it as the image's ``alt`` metadata
  (:func:`install_ipython_alt`, installed when ``helpers.plotting`` is imported in a kernel);
  ``python -m helpers.figures.alt_text apply`` copies it into the cell metadata MyST-NB
  turns into ``alt`` on the website, and into a markdown line beside the figure for
  JupyterLab, whose image renderer shows no alt text;
* in ``figures/``: ``figures/alt.json``, the README's image text and each PNG's
  ``Description``;
* in a dashboard: the ``alt`` of its ``<img>``, rewritten on every redraw with the values
  shown (``helpers.widgets._base.Dashboard``).

``tests/test_accessibility.py`` fails on a figure without one, one shorter than
:data:`MIN_ALT_CHARS` or one that is a file name.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

from matplotlib.figure import Figure

__all__ = ["MIN_ALT_CHARS", "alt_text", "alt_text_problem", "describe", "listing"]

#: shorter than this, a text alternative cannot say what a figure shows and why
MIN_ALT_CHARS = 40
_FILE_NAME = re.compile(r"(^|[\s/\\])[\w.-]+\.(png|jpe?g|gif|svg|pdf)\b", re.IGNORECASE)


def describe(fig: Figure, *sentences: str) -> Figure:
    """Attach the text alternative (the sentences, joined) to ``fig``; return ``fig``."""
    text = " ".join(s.strip() for s in sentences if s and s.strip())
    fig.alt_text = re.sub(r"\s+", " ", text)
    return fig


def alt_text(fig: Figure) -> str:
    """The figure's text alternative ('' if its function attached none)."""
    return getattr(fig, "alt_text", "") or ""


def alt_text_problem(text: str | None) -> str | None:
    """Why ``text`` is not a usable text alternative, or None if it is."""
    if not text or not text.strip():
        return "no text alternative"
    if _FILE_NAME.search(text) or text.strip().startswith("<Figure"):
        return f"a file name or an object's repr, not a description: {text!r}"
    if len(text.strip()) < MIN_ALT_CHARS:
        return f"shorter than {MIN_ALT_CHARS} characters: {text!r}"
    return None


def listing(items: Iterable[str], last: str = "and") -> str:
    """'a, b and c' (a list in a sentence)."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _alt_metadata(fig):
    """IPython mime-bundle formatter: no data of its own, only the PNG's ``alt`` metadata
    (the PNG itself still comes from matplotlib's inline formatter)."""
    text = alt_text(fig)
    return ({}, {"image/png": {"alt": text}}) if text else None


def install_ipython_alt() -> bool:
    """In an IPython kernel, give every displayed Figure's PNG its ``alt`` metadata.

    Saved in the notebook as the output's ``metadata["image/png"]["alt"]`` (what nbconvert
    turns into ``alt``); the output's data (PNG and text) is unchanged. Returns whether a
    kernel was found.
    """
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    if shell is None:
        return False
    shell.display_formatter.mimebundle_formatter.for_type(Figure, _alt_metadata)
    return True
