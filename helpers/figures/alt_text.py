"""Carry each notebook figure's text alternative to the website and to JupyterLab readers.

    python -m helpers.figures.alt_text apply notebooks/*.ipynb   # write it (idempotent)
    python -m helpers.figures.alt_text check notebooks/*.ipynb   # exit 1 on a figure without

A figure cell is a code cell with an ``image/png`` output. Its text alternative comes from
the executed notebook itself: the plotting functions attach it to their Figure and IPython
saves it as the output's ``metadata["image/png"]["alt"]`` (``helpers.plotting.alt_text``), so
run the notebooks first (``python3 course.py notebooks``). ``apply`` then

* sets the cell's ``metadata.mystnb.image.alt``, which MyST-NB turns into the ``alt`` of the
  figure on the website (``python3 course.py book``), and
* puts the same text in a markdown cell right below the figure (tagged ``figure-alt``),
  for JupyterLab, whose image renderer shows no alt text, and for GitHub.

Running it again changes nothing; a ``figure-alt`` cell whose figure has gone is removed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

from ..plotting import alt_text_problem

__all__ = ["FIGURE_ALT_TAG", "apply", "check", "markdown_line", "notebook_alt_texts"]

#: the tag of the markdown cell that holds a figure's text alternative
FIGURE_ALT_TAG = "figure-alt"
MARKDOWN_PREFIX = "*Figure, in words:* "
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>$|#])")


def markdown_line(alt: str) -> str:
    """The markdown beside a figure: its text alternative, with markdown's and MathJax's
    special characters escaped (r* and Δ_f must not turn into emphasis or math)."""
    return MARKDOWN_PREFIX + _MARKDOWN_SPECIAL.sub(r"\\\1", alt)


def _image_outputs(cell) -> list:
    if cell.get("cell_type") != "code":
        return []
    return [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]


def _output_alt(output) -> str:
    metadata = output.get("metadata", {}).get("image/png", {})
    return metadata.get("alt", "") if isinstance(metadata, dict) else ""


def _is_alt_cell(cell) -> bool:
    return cell.get("cell_type") == "markdown" and FIGURE_ALT_TAG in cell.get("metadata", {}).get(
        "tags", []
    )


def notebook_alt_texts(nb) -> list[tuple[int, str]]:
    """(cell index, text alternative) of every figure cell; '' where the output has none."""
    found = []
    for index, cell in enumerate(nb.cells):
        images = _image_outputs(cell)
        if images:
            found.append((index, " ".join(_output_alt(o) for o in images).strip()))
    return found


def apply(nb) -> list[str]:
    """Write every figure's text alternative into ``nb`` (in place); return the problems
    (a figure whose output carries no usable text alternative), one line each. Such a
    figure keeps what it had."""
    problems = []
    out = []
    for index, cell in enumerate(nb.cells):
        if _is_alt_cell(cell):
            continue  # rewritten right after its figure, or dropped with it
        out.append(cell)
        images = _image_outputs(cell)
        if not images:
            continue
        following = nb.cells[index + 1] if index + 1 < len(nb.cells) else None
        existing = following if following is not None and _is_alt_cell(following) else None
        alt = " ".join(_output_alt(o) for o in images).strip()
        problem = alt_text_problem(alt)
        if problem:
            problems.append(
                f"cell {index + 1} ({cell.get('id', '?')}): {problem} (execute the notebook "
                "first: `python3 course.py notebooks`)"
            )
            if existing is not None:
                out.append(existing)
            continue
        cell.metadata.setdefault("mystnb", {}).setdefault("image", {})["alt"] = alt
        out.append(_alt_cell(cell, alt, existing))
    nb.cells = out
    return problems


def _alt_cell(figure_cell, alt: str, existing):
    source = markdown_line(alt)
    if existing is not None:
        existing.source = source
        return existing
    cell = nbformat.v4.new_markdown_cell(source, metadata={"tags": [FIGURE_ALT_TAG]})
    if "id" in figure_cell:
        cell["id"] = f"{figure_cell['id']}-alt"[:64]
    else:
        cell.pop("id", None)
    return cell


def check(nb) -> list[str]:
    """Every figure cell has a usable text alternative in its metadata, the one its output
    carries (when it carries one), and the same text in the markdown cell below it; one line
    per problem."""
    problems = []
    for index, output_alt in notebook_alt_texts(nb):
        cell = nb.cells[index]
        where = f"cell {index + 1} ({cell.get('id', '?')})"
        alt = cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt", "")
        problem = alt_text_problem(alt)
        if problem:
            problems.append(f"{where}: metadata.mystnb.image.alt: {problem}")
            continue
        if output_alt and output_alt != alt:
            problems.append(f"{where}: the figure changed since its text alternative was written")
            continue
        below = nb.cells[index + 1] if index + 1 < len(nb.cells) else None
        if below is None or not _is_alt_cell(below) or below.source != markdown_line(alt):
            problems.append(f"{where}: no markdown text alternative below the figure")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("apply", "check"):
        print(
            "usage: python -m helpers.figures.alt_text {apply|check} NOTEBOOK ...", file=sys.stderr
        )
        return 2
    failed = False
    for name in argv[1:]:
        path = Path(name)
        nb = nbformat.read(path, as_version=4)
        if argv[0] == "apply":
            before = nbformat.writes(nb)
            problems = apply(nb)
            if nbformat.writes(nb) != before:
                nbformat.write(nb, path)
                print(f"{path}: text alternatives written")
        else:
            problems = check(nb)
        for problem in problems:
            print(f"{path}: {problem}", file=sys.stderr)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
