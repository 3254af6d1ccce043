"""Slides from the notebooks: Jupyter's own slideshow metadata, and one reveal.js deck per lecture.

    python -m instructor.slides tag NOTEBOOK...     # write every cell's slide type (idempotent)
    python -m instructor.slides check NOTEBOOK...   # exit 1 on a cell without a valid slide type
    python -m instructor.slides build [--out DIR] [--lecture N ...]   # = python3 course.py slides

**Live**: JupyterLab with the RISE extension (``jupyterlab-rise`` 0.43.1, the instructor's extra in requirements-instructor.txt: ``python3 course.py lab --rise``)
shows a tagged notebook as slides with the kernel running (Alt+R, or the toolbar's slideshow
button). Its slideshow page is its own small JupyterLab (built on 4.3) that cannot load the
pinned widgets front end (jupyterlab_widgets 3.0.16: "Shared module @jupyterlab/console doesn't
exist"), so a dashboard is moved in the notebook itself, not in RISE. **Static**: ``build`` writes ``build/slides/lecture-NN.html``, one
reveal.js deck per lecture of ``instructor/plan.json`` (read at run time), made by nbconvert's
SlidesExporter from the lecture's cells of the committed, executed notebooks. reveal.js and
MathJax come from their npm packages (pinned, integrity-checked, cached under
``build/npm/``) and are copied into ``build/slides/vendor/``: a deck loads nothing from the
network, so ``build/slides/`` works offline in a lecture hall (copy the whole folder).

The slide type of each cell (``cell.metadata.slideshow.slide_type``) follows from its content
alone, by these rules, first match wins:

1. a cell tag ``slide-<type>`` (``slide-notes``, ``slide-skip``, ``slide-fragment``,
   ``slide-subslide``, ``slide-slide``, ``slide-continue`` for "-") overrides the rules;
2. an exercise's worked answer (a code cell tagged ``solution``) and a written answer's blank
   cell (a markdown cell tagged ``written``: the student's space to write in) are ``skip``;
3. a figure's text alternative (the markdown cell tagged ``figure-alt``) is ``notes``: the
   speaker sees it, the room sees the figure;
4. set-up cells (only imports and ``%`` magics), the versions cell and the closing navigation
   line (a markdown cell starting with ``---``) are ``skip``;
5. a markdown cell that opens with a ``#`` or ``##`` heading is a ``slide``, with ``###`` a
   ``subslide``; an exercise statement (``**N.**`` / ``**Exercise N.**``) is a ``subslide``;
6. an exercise's check cell (a code cell calling ``check(``) is a ``fragment``: its ✓ shows on
   the next click;
7. a figure (a code cell with an image output) or a dashboard (a code cell calling
   ``*_dashboard(``) is a ``subslide`` of its own;
8. any other cell continues the slide ("-") while the slide's estimated height stays within
   :data:`SLIDE_LINES` lines, else starts a ``subslide``. (Long prose stays on the slide, which
   scrolls; the argument is the notebook's and the room should see it.)

``tag`` rewrites every cell's type from these rules, so it is idempotent and deterministic;
to change one cell, give it a ``slide-<type>`` tag and run ``tag`` again.
"""

from __future__ import annotations

import argparse
import ast
import base64
import copy
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
PLAN = ROOT / "instructor" / "plan.json"
TEMPLATES = ROOT / "instructor" / "templates"
TEMPLATE_NAME = "course_reveal"
BUILD = ROOT / "build"
OUT = BUILD / "slides"
NPM_CACHE = BUILD / "npm"

SLIDE_TYPES = ("slide", "subslide", "fragment", "-", "skip", "notes")
#: how many lines of text a slide holds before the next cell starts a subslide
SLIDE_LINES = 18
#: characters in one line of prose in the notebook's own slide rules (tag; the deck refits: projected)
LINE_CHARS = 95
#: a figure fills a slide
FIGURE_LINES = SLIDE_LINES

#: the npm packages a deck loads, pinned with their registry integrity (sha512 of the tarball).
#: reveal.js 5.2.1: the last release with nbconvert's layout (plugin/notes/notes.js; 6.0 moved
#: it to dist/plugin/); MathJax 3.2.2's tex-svg-full.js needs no web fonts and loads nothing
#: more (MathJax 4 fetches its fonts from a CDN).
VENDOR = {
    "reveal.js": (
        "5.2.1",
        "sha512-r7//6mIM5p34hFiDMvYfXgyjXqGRta+/psd9YtytsgRlrpRzFv4RbH76TXd2qD+7ZPZEbpBDhdRhJaFgfQ7zNQ==",
        (
            "dist/reveal.css",
            "dist/reveal.js",
            "dist/theme/white.css",
            "dist/theme/fonts/source-sans-pro/",
            "plugin/notes/",
            "LICENSE",
        ),
    ),
    "mathjax": (
        "3.2.2",
        "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
        ("es5/tex-svg-full.js", "LICENSE"),
    ),
}
REGISTRY = "https://registry.npmjs.org"

# the plan's section vocabulary (as instructor/timing.py reads the notebooks)
HEADING = re.compile(r"^(#{1,3}) +(.+?)\s*$")
NUMBERED = re.compile(r"^(\d+) · ")
CLOSING = ("Summary", "Exercises", "Notes on the sources", "Published numbers")
EXERCISE_STATEMENT = re.compile(r"^\*\*(Exercise )?\d+[a-z]?\.\*\*")
#: a cell that shows a dashboard: its call, or a name bound to it (``dash = …_dashboard(``,
#: so a later cell can read its choice); instructor/slides.py and timing.py read cells alike
DASHBOARD_CALL = re.compile(r"^\s*(?:\w+\s*=\s*)?[\w.]*_dashboard\(", re.MULTILINE)
CHECK_CALL = re.compile(r"^\s*check\(", re.MULTILINE)
VERSIONS = re.compile(r"__version__|python_version\(\)|sys\.version")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
OVERRIDE_PREFIX = "slide-"


# --- the rules ----------------------------------------------------------------------------


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _override(cell) -> str | None:
    for tag in _tags(cell):
        if tag.startswith(OVERRIDE_PREFIX):
            kind = tag[len(OVERRIDE_PREFIX) :]
            kind = "-" if kind == "continue" else kind
            if kind in SLIDE_TYPES:
                return kind
    return None


def _is_setup(source: str) -> bool:
    """Only imports, ``%``/``!`` lines and comments."""
    code = "\n".join(
        line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))
    )
    if not code.strip():
        return bool(source.strip())
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    return all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in tree.body)


def _first_heading(source: str) -> tuple[int, str] | None:
    """(level, text) of a heading on the cell's first non-blank line."""
    for line in source.splitlines():
        if line.strip():
            match = HEADING.match(line)
            return (len(match.group(1)), match.group(2)) if match else None
    return None


def _has_image(cell) -> bool:
    return any(
        "image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})
        for out in cell.get("outputs", [])
    )


def _is_dashboard(cell) -> bool:
    return bool(DASHBOARD_CALL.search(cell.source)) or any(
        WIDGET_VIEW in out.get("data", {}) for out in cell.get("outputs", [])
    )


def _lines(text: str) -> float:
    total = 0.0
    for line in text.splitlines():
        total += math.ceil(len(line) / LINE_CHARS) if line.strip() else 0.5
    return total


def cell_height(cell) -> float:
    """A cell's estimated height on a slide, in lines of text."""
    if cell.cell_type == "markdown":
        return _lines(cell.source)
    if cell.cell_type != "code":
        return 0.0
    if _has_image(cell):
        return FIGURE_LINES
    height = len(cell.source.splitlines())
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            height += _lines(out.get("text", ""))
            continue
        data = out.get("data", {})
        if "text/html" in data:
            html = "".join(data["text/html"])
            height += html.count("<tr") + 1
        elif "text/markdown" in data:
            height += _lines("".join(data["text/markdown"]))
        elif "text/plain" in data:
            height += _lines("".join(data["text/plain"]))
    return height


def slide_types(nb) -> list[str]:
    """The slide type of every cell of ``nb`` by the module's rules (see its docstring)."""
    types: list[str] = []
    height = 0.0  # of the current (sub)slide
    last = len(nb.cells) - 1
    for index, cell in enumerate(nb.cells):
        kind = _slide_type(cell, index == last)
        if kind == "-" and height + cell_height(cell) > SLIDE_LINES and height > 0:
            kind = "subslide"
        if kind in ("slide", "subslide"):
            height = cell_height(cell)
        elif kind in ("-", "fragment"):
            height += cell_height(cell)
        if cell.cell_type == "code" and (_has_image(cell) or _is_dashboard(cell)):
            height = max(height, SLIDE_LINES)  # what follows a figure starts a new slide
        types.append(kind)
    return types


def _slide_type(cell, is_last: bool) -> str:
    override = _override(cell)
    if override:
        return override
    source = cell.source
    if cell.cell_type == "code":
        if "solution" in _tags(cell):
            return "skip"
        if _is_setup(source) or VERSIONS.search(source):
            return "skip"
        if CHECK_CALL.search(source):
            return "fragment"
        if _has_image(cell) or _is_dashboard(cell):
            return "subslide"
        return "-"
    if cell.cell_type != "markdown":
        return "skip"  # raw cells
    if "written" in _tags(cell):
        return "skip"  # the student's blank answer space: nothing for the room to read
    if "figure-alt" in _tags(cell):
        return "notes"
    if source.lstrip().startswith("---"):
        return "skip"
    heading = _first_heading(source)
    if heading is not None:
        return "subslide" if heading[0] >= 3 else "slide"
    if EXERCISE_STATEMENT.match(source.lstrip()):
        return "subslide"
    return "-"


def tag(nb) -> bool:
    """Set every cell's ``metadata.slideshow.slide_type`` from the rules; True if any changed.

    Any other ``slideshow`` key (RISE's ``data``) is kept."""
    changed = False
    for cell, kind in zip(nb.cells, slide_types(nb), strict=True):
        slideshow = cell.metadata.get("slideshow")
        if isinstance(slideshow, dict) and slideshow.get("slide_type") == kind:
            continue
        cell.metadata["slideshow"] = {
            **(slideshow if isinstance(slideshow, dict) else {}),
            "slide_type": kind,
        }
        changed = True
    return changed


def check(nb) -> list[str]:
    """One line per cell without a valid ``metadata.slideshow.slide_type``, and one if no
    cell is shown at all."""
    problems = []
    for index, cell in enumerate(nb.cells):
        where = f"cell {index + 1} ({cell.get('id', '?')}, {cell.cell_type})"
        slideshow = cell.get("metadata", {}).get("slideshow")
        if not isinstance(slideshow, dict) or "slide_type" not in slideshow:
            problems.append(f"{where}: no metadata.slideshow.slide_type")
        elif slideshow["slide_type"] not in SLIDE_TYPES:
            problems.append(
                f"{where}: slide_type {slideshow['slide_type']!r} is not one of "
                + ", ".join(repr(t) for t in SLIDE_TYPES)
            )
    shown = [
        c
        for c in nb.cells
        if c.get("metadata", {}).get("slideshow", {}).get("slide_type")
        in ("slide", "subslide", "fragment", "-")
    ]
    if nb.cells and not problems and not shown:
        problems.append("no cell is shown: every cell is skip or notes")
    return problems


# --- lectures -----------------------------------------------------------------------------


def read_plan(path: Path = PLAN) -> dict:
    plan = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(plan.get("lectures"), list) or not plan["lectures"]:
        raise ValueError(f"{path}: no 'lectures' list")
    return plan


def cell_sections(nb) -> list[tuple[str | int, frozenset[int]]]:
    """Each cell's place: ("open" | "close" | the number of its numbered section, every
    numbered section whose heading the cell holds)."""
    current: str | int = "open"
    out = []
    for cell in nb.cells:
        numbers: set[int] = set()
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                match = HEADING.match(line)
                if not match or len(match.group(1)) != 2:
                    continue
                title = match.group(2)
                numbered = NUMBERED.match(title)
                if numbered:
                    current = int(numbered.group(1))
                    numbers.add(current)
                elif title.startswith(CLOSING):
                    current = "close"
        out.append((current, frozenset(numbers) or frozenset()))
    return out


def numbered_sections(nb) -> list[int]:
    return sorted({n for _, numbers in cell_sections(nb) for n in numbers})


def part_cells(nb, sections, first: bool, last: bool) -> list[int]:
    """Indices of the cells of one part: ``sections`` is "all" or a list of section numbers;
    the opening cells go with the notebook's first part, the closing ones with its last."""
    if sections == "all":
        return list(range(len(nb.cells)))
    wanted = set(sections)
    picked = []
    for index, (place, numbers) in enumerate(cell_sections(nb)):
        if (
            (place == "open" and first)
            or (place == "close" and last)
            or (isinstance(place, int) and place in wanted)
            or (numbers & wanted)
        ):
            picked.append(index)
    return picked


def _notebook_path(name: str) -> Path:
    path = NOTEBOOKS / (name if name.endswith(".ipynb") else f"{name}.ipynb")
    if not path.exists():
        raise FileNotFoundError(f"plan.json names {name!r}, which is not in {NOTEBOOKS}")
    return path


def _title(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            heading = _first_heading(cell.source)
            if heading and heading[0] == 1:
                return heading[1]
    return ""


def _sections_label(sections) -> str:
    if sections == "all":
        return ""
    numbers = sorted(sections)
    runs, start = [], numbers[0]
    for a, b in zip(numbers, [*numbers[1:], None], strict=True):
        if b != a + 1:
            runs.append(f"§{start}" if start == a else f"§{start}–{a}")
            start = b
    return ", ".join(runs)


def _md(source: str, kind: str):
    return nbformat.v4.new_markdown_cell(source, metadata={"slideshow": {"slide_type": kind}})


def lecture_notebook(lecture: dict, notebooks: dict | None = None):
    """The deck of one lecture as a notebook: a title slide, then each part's cells (tagged by
    the rules in memory where a notebook has no valid slideshow metadata), skip cells left out."""
    notebooks = {} if notebooks is None else notebooks
    number = lecture["number"]
    parts_text = []
    cells = []
    metadata = None
    for part in lecture["parts"]:
        name = part["notebook"]
        if name not in notebooks:
            nb = nbformat.read(_notebook_path(name), as_version=4)
            if check(nb):
                tag(nb)  # not yet tagged on disk: the rules, in memory
            notebooks[name] = nb
        nb = notebooks[name]
        metadata = metadata or copy.deepcopy(nb.metadata)
        sections = part.get("sections", "all")
        if sections == "all":
            first = last = True
        else:
            present = numbered_sections(nb)
            missing = sorted(set(sections) - set(present))
            if missing:
                raise ValueError(
                    f"lecture {number}: {name} has no section {missing} (it has {present})"
                )
            first = min(present) in sections
            last = max(present) in sections
        label = _sections_label(sections)
        title = _title(nb) or name
        parts_text.append(f"* {title}" + (f", {label}" if label else ""))
        if not first:  # the notebook's own title slide belongs to an earlier lecture
            cells.append(_md(f"# {title}\n\n{label} (continued)", "slide"))
        for index in part_cells(nb, sections, first, last):
            cell = copy.deepcopy(nb.cells[index])
            if cell.metadata.get("slideshow", {}).get("slide_type") == "skip":
                continue
            cells.append(cell)
    heading = f"# Lecture {number} · {lecture.get('title', '')}".rstrip(" ·")
    lines = [heading, "", *parts_text]
    in_class, homework = lecture.get("in_class") or [], lecture.get("homework") or []
    if in_class or homework:
        lines.append("")
        if in_class:
            lines.append(f"In class: exercise {', '.join(in_class)}.  ")
        if homework:
            lines.append(f"Homework: exercise {', '.join(homework)}.")
    deck = nbformat.v4.new_notebook(metadata=metadata or {})
    deck.metadata["title"] = heading.lstrip("# ")
    deck.metadata.pop("widgets", None)
    deck.cells = projected([_md("\n".join(lines), "slide"), *cells])
    for cell in deck.cells:
        cell.pop("id", None)
    deck.nbformat_minor = 4  # no cell ids needed in a deck
    return deck


# --- the projected deck: 1280 × 720, prose at 28 px ---------------------------------------

#: the deck's size: a 720p projector shows it at scale 1
DECK_WIDTH, DECK_HEIGHT = 1280, 720
#: lines of 28-px prose (line height 1.3) one slide holds, with room for a heading
DECK_LINES = 13.0
#: a paragraph leading into what follows (ending in ":") longer than this keeps only its last
#: sentence with it
LEAD_IN_LINES = 4.0
#: characters of 28-px prose in one line of the slide (1280 px less margins, about 0.5 em each)
DECK_LINE_CHARS = 72
#: code and text outputs are set at 20 px: one of their lines in lines of prose
CODE_LINE = 0.75
#: a figure's image is at most this tall (px), so that a sentence leading into it shares its
#: slide; a figure on a slide takes this many prose lines
FIGURE_PX = 540
DECK_FIGURE_LINES = FIGURE_PX / (28 * 1.3)
_FENCE = re.compile(r"^\s*(```|~~~|\$\$)")
#: a code cell longer than this shows its first DECK_CODE_LINES - 1 lines and a comment
#: saying how many more the notebook has; a table or a text output longer than a slide
#: continues on the next subslide, TABLE_ROWS rows or TEXT_LINES lines at a time
DECK_CODE_LINES = 10
TABLE_ROWS = 11
TEXT_LINES = 14
#: a code cell (source and outputs) is at most this many lines of prose tall: the slide's
#: 720 px hold 19 (less its 24 px of padding), and a heading and a lead-in of up to
#: LEAD_IN_LINES may share its slide; outputs beyond it continue on the next subslide
CELL_LINES = 16.0
#: the slide's height in lines of prose, less a margin for the estimate's error
SLIDE_LINES = 18.0
#: a table's text at 22 px: characters in one line of the slide; in a row wider than that the
#: long cells wrap at about TABLE_CELL_CHARS a line (measured in Chromium: a 59-character
#: name in a table of nine columns takes five lines); a row's height and each further line
#: of a wrapped row, in lines of prose
TABLE_LINE_CHARS = 90
TABLE_CELL_CHARS = 12
TABLE_ROW = 1.05
TABLE_WRAP = 0.8
#: a table written in markdown is body text, set at 28 px like the prose (a data table a code
#: cell returns is at 22 px): one character's width in px, as DECK_LINE_CHARS counts them, and
#: a code character's (0.6 em); a cell's horizontal padding (0.35 em each side, the template);
#: the table's width; word wrapping leaves a line about TABLE_MD_SLACK fuller than its text.
#: Measured in Chromium at 1280 × 720 (system-ui): a one-line row is 45 px, 1.25 lines of
#: prose, each further line 36 px, one line; the table's bottom margin (1 em) 0.8 line
MD_CHAR_PX = (DECK_WIDTH - 48) / DECK_LINE_CHARS
MD_CODE_CHAR_PX = 0.6 * 28
MD_CELL_PADDING_PX = 0.7 * 28
MD_TABLE_PX = DECK_WIDTH - 100
TABLE_MD_SLACK = 1.1
TABLE_MD_ROW = 0.25
TABLE_MD_MARGIN = 0.8
#: a deck cell that shows only its outputs (a table or text continued from the slide before)
OUTPUT_ONLY = "deck-output-only"
#: how a dashboard's static note to the room begins (helpers.widgets._base.STATIC_NOTE)
DASHBOARD_NOTE = "Interactive dashboard:"


def markdown_blocks(source: str) -> list[str]:
    """A markdown cell's paragraphs, lists, tables, code fences and display maths: split at
    blank lines outside fences and ``$$`` blocks."""
    blocks, current, fenced = [], [], None
    for line in source.splitlines():
        fence = _FENCE.match(line)
        if fence and (fenced is None or fence.group(1) == fenced):
            opened = fenced is None
            # a one-line $$ … $$ opens and closes on the same line
            one_line = (
                fence.group(1) == "$$" and line.strip().endswith("$$") and len(line.strip()) > 2
            )
            fenced = fence.group(1) if opened and not one_line else None
        if not line.strip() and fenced is None:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


_ITEM = re.compile(r"^(?:[-*+]|\d+[.)]) ")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(*\[`“\"])")


def _pieces(block: str) -> list[str]:
    """A block too tall for one slide, in pieces that are not: a list item by item (a line
    leading into the list stays with its first item), a paragraph sentence by sentence."""
    if block.lstrip().startswith(("```", "~~~", "$$", "|")):
        return [block]
    if block.rstrip().endswith(":") and _block_lines(block) > LEAD_IN_LINES and "\n- " not in block:
        # a long paragraph leading into a figure or a table: only its last sentence goes along
        sentences = _SENTENCE_END.split(" ".join(line.strip() for line in block.splitlines()))
        if len(sentences) > 1:
            return [*_pieces(" ".join(sentences[:-1])), sentences[-1]]
    if _block_lines(block) <= DECK_LINES:
        return [block]
    lines = block.splitlines()
    if any(_ITEM.match(line) for line in lines):
        pieces: list[list[str]] = [[]]
        for line in lines:
            if _ITEM.match(line) and pieces[-1] and not pieces[-1][-1].rstrip().endswith(":"):
                pieces.append([])
            pieces[-1].append(line)
        return ["\n".join(piece) for piece in pieces if piece]
    sentences = _SENTENCE_END.split(" ".join(line.strip() for line in lines))
    pieces_text, current = [], ""
    for sentence in sentences:
        candidate = f"{current} {sentence}".strip()
        if current and _block_lines(candidate) > DECK_LINES * 0.6:
            pieces_text.append(current)
            candidate = sentence
        current = candidate
    return [*pieces_text, current] if current else pieces_text


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_CELL_PART = re.compile(r"(`[^`]*`|\$[^$]*\$)")


def _is_markdown_table(block: str) -> bool:
    """A block that is one pipe table: a header row, its rule (``|---|---|``), body rows."""
    lines = block.strip().splitlines()
    return (
        len(lines) >= 2
        and all(line.strip().startswith("|") for line in lines)
        and bool(_TABLE_RULE.match(lines[1]))
    )


def _table_row(line: str) -> list[str]:
    """A pipe table row's cells (a ``|`` inside code, a formula or escaped does not split)."""
    cells, current, inside = [], "", None
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    for index, char in enumerate(text):
        if char in "`$" and (inside is None or inside == char):
            inside = char if inside is None else None
        if char == "|" and inside is None and (index == 0 or text[index - 1] != "\\"):
            cells.append(current)
            current = ""
            continue
        current += char
    return [*cells, current]


def _cell_px(cell: str) -> tuple[float, float]:
    """A markdown table cell's text as set at 28 px: (its width on one line, its widest word)."""
    words = []
    for part in _CELL_PART.split(cell.strip()):
        if part.startswith("`"):
            words += [len(word) * MD_CODE_CHAR_PX for word in part.strip("`").split()]
        elif part.startswith("$"):  # a formula: about one character per symbol
            words.append(len(re.sub(r"\\[a-zA-Z]+|[{}^_\\ ]", "x", part.strip("$"))) * MD_CHAR_PX)
        else:
            words += [len(word) * MD_CHAR_PX for word in re.sub(r"[*\\]", "", part).split()]
    space = MD_CHAR_PX / 2
    return sum(words) + space * max(0, len(words) - 1), max(words, default=0.0)


def _markdown_table_rows(block: str) -> list[float]:
    """The height of each row of a pipe table (the header's first), in lines of 28-px prose.

    The columns share the table's width as a browser's automatic layout shares it: each
    gets its text's width if all fit, else its widest word plus a share of what is left in
    proportion to how much more its longest cell needs; a cell wraps onto as many lines as
    its text needs at that width."""
    lines = block.strip().splitlines()
    rows = [_table_row(line) for line in [lines[0], *lines[2:]]]
    columns = max(len(row) for row in rows)
    sizes = [
        [_cell_px(row[i]) if i < len(row) else (0.0, 0.0) for i in range(columns)] for row in rows
    ]
    widest = [max(size[i][0] for size in sizes) + MD_CELL_PADDING_PX for i in range(columns)]
    narrowest = [max(size[i][1] for size in sizes) + MD_CELL_PADDING_PX for i in range(columns)]
    if sum(widest) <= MD_TABLE_PX:
        widths = widest
    else:
        left = max(0.0, MD_TABLE_PX - sum(narrowest))
        spread = sum(w - n for w, n in zip(widest, narrowest, strict=True)) or 1.0
        widths = [n + left * (w - n) / spread for w, n in zip(widest, narrowest, strict=True)]
    heights = []
    for size in sizes:
        text_lines = max(
            max(1, math.ceil(TABLE_MD_SLACK * px / max(1.0, width - MD_CELL_PADDING_PX)))
            for (px, _), width in zip(size, widths, strict=True)
        )
        heights.append(TABLE_MD_ROW + text_lines)
    return heights


def _split_markdown_table(block: str, first: float, room: float = DECK_LINES) -> list[str]:
    """A pipe table in pieces, each with the header: the first at most ``first`` lines of
    prose tall (at least one row), the others at most ``room`` and about equally tall."""
    lines = block.strip().splitlines()
    head, body = lines[:2], lines[2:]
    heights = _markdown_table_rows(block)
    header, rows = heights[0] + TABLE_MD_MARGIN, heights[1:]
    pieces: list[list[str]] = [[]]
    height = header
    index = 0
    while index < len(body) and (not pieces[0] or height + rows[index] <= first):
        pieces[0].append(body[index])
        height += rows[index]
        index += 1
    rest = sum(rows[index:])
    if rest:
        count = math.ceil(rest / max(1.0, room - header))
        target = rest / count
        pieces.append([])
        height = 0.0
        for line, row in zip(body[index:], rows[index:], strict=True):
            if pieces[-1] and (height + row > room - header or height + row / 2 > target):
                pieces.append([])
                height = 0.0
            pieces[-1].append(line)
            height += row
    return ["\n".join([*head, *piece]) for piece in pieces]


def _block_lines(block: str) -> float:
    """A markdown block's height on the projected slide, in lines of 28-px prose."""
    if _is_markdown_table(block):
        return sum(_markdown_table_rows(block)) + TABLE_MD_MARGIN
    heading = HEADING.match(block.splitlines()[0]) if block.strip() else None
    total = 0.0
    for line in block.splitlines():
        if line.strip().startswith("|"):
            total += 1.0  # a line that starts with | but is no table
        elif line.strip().startswith("$$"):
            total += 1.0
        else:
            total += max(1, math.ceil(len(line) / DECK_LINE_CHARS))
    if heading:
        total += 0.8  # larger type and its margin
    return total + 0.5  # the paragraph's margin


def deck_height(cell) -> float:
    """A deck cell's height on the projected slide, in lines of 28-px prose."""
    if cell.cell_type == "markdown":
        return sum(_block_lines(b) for b in markdown_blocks(cell.source))
    if cell.cell_type != "code":
        return 0.0
    if _has_image(cell):
        return DECK_FIGURE_LINES
    shown = 0 if OUTPUT_ONLY in _tags(cell) else len(cell.source.splitlines()) + 1
    height = CODE_LINE * shown
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            height += CODE_LINE * len(out.get("text", "").splitlines())
            continue
        data = out.get("data", {})
        if "text/html" in data and "<table" in "".join(data["text/html"]):
            height += _table_lines("".join(data["text/html"]))
        elif "text/html" in data:
            height += 0.95 * ("".join(data["text/html"]).count("<tr") + 1)
        elif "text/markdown" in data:
            height += sum(_block_lines(b) for b in markdown_blocks("".join(data["text/markdown"])))
        elif "text/plain" in data:
            text = "".join(data["text/plain"])
            height += CODE_LINE * sum(max(1, math.ceil(len(ln) / 100)) for ln in text.splitlines())
    return height


def _is_heading(cell) -> bool:
    """A markdown cell that is one heading and nothing else."""
    return cell.cell_type == "markdown" and bool(HEADING.match(cell.source.strip()))


def _ends_with_colon(cell) -> bool:
    return cell.cell_type == "markdown" and cell.source.rstrip().endswith(":")


def _kind(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-")


def _set_kind(cell, kind: str) -> None:
    cell.metadata.setdefault("slideshow", {})["slide_type"] = kind


def _figure_name(cells: list, index: int) -> str | None:
    """The first sentence of the text alternative of the last figure before ``cells[index]``."""
    for before in range(index - 1, -1, -1):
        cell = cells[before]
        if cell.cell_type == "code" and _has_image(cell):
            for after in cells[before + 1 : index]:
                if "figure-alt" in _tags(after):
                    text = re.sub(r"^\*Figure, in words:\*\s*", "", after.source.strip())
                    return re.split(r"(?<=[.:])\s", text, maxsplit=1)[0].rstrip(".:")
            return None
    return None


def _png_size(data: str) -> tuple[int, int] | None:
    """(width, height) of a base64 PNG, from its header."""
    raw = base64.b64decode("".join(data)[:64])
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")


def _size_figures(cell) -> None:
    """Each image's width on the slide: FIGURE_PX tall, but at least half and at most all of
    the slide's width (a tall figure keeps half the width and takes the slide's height)."""
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        size = _png_size(data["image/png"]) if "image/png" in data else None
        if size is None:
            continue
        aspect = size[0] / size[1]
        width = min(max(FIGURE_PX * aspect, DECK_WIDTH / 2), DECK_WIDTH - 48)
        out.setdefault("metadata", {}).setdefault("image/png", {})["width"] = math.ceil(width)


def _dashboard_outputs(outputs: list, name: str | None) -> list:
    """A dashboard's static outputs for the slide: its note to the room (the first line of its
    plain text, helpers.widgets._base.STATIC_NOTE) as prose, a markdown output set at the body
    text's 28 px like the rest of the slide's sentences, naming the figure it starts from
    instead of "the figure above"; the readout below it (the values it prints) stays a text
    output, like any other."""
    shown = []
    for out in outputs:
        data = out.get("data", {})
        plain = "".join(data.get("text/plain", ""))
        if not plain.startswith(DASHBOARD_NOTE):
            shown.append(out)
            continue
        note, _, readout = plain.partition("\n")
        where = f"the figure “{name}”" if name else "the static figure"
        note = note.replace(
            "The static figure above shows the default values.",
            f"It starts from {where} on the previous slide.",
        )
        shown.append(nbformat.v4.new_output("display_data", data={"text/markdown": note}))
        if readout.strip():
            rest = copy.deepcopy(out)
            rest["data"] = {**data, "text/plain": readout}
            shown.append(rest)
    return shown


def _output_only(outputs: list) -> object:
    cell = nbformat.v4.new_code_cell("", metadata={"tags": [OUTPUT_ONLY]})
    cell.outputs = outputs
    _set_kind(cell, "subslide")
    return cell


_ROW = re.compile(r"(?s)<tr\b[^>]*>.*?</tr>")
_TABLE_CELL = re.compile(r"(?s)<t[dh]\b[^>]*>(.*?)</t[dh]>")


def _row_lines(row: str) -> float:
    """A table row's height on the slide, in lines of prose: its cells' text side by side
    wraps onto further lines when it is wider than the slide."""
    lengths = [len(re.sub(r"<[^>]+>", "", c).strip()) for c in _TABLE_CELL.findall(row)]
    chars = sum(length + 2 for length in lengths)
    lines = 1
    if chars > TABLE_LINE_CHARS:
        lines = max(
            math.ceil(chars / TABLE_LINE_CHARS),
            *(math.ceil(length / TABLE_CELL_CHARS) for length in lengths),
        )
    return TABLE_ROW + TABLE_WRAP * (lines - 1)


def _table_lines(html: str) -> float:
    """A table's height on the slide, in lines of prose (every row, the header's included)."""
    return sum(_row_lines(row) for row in _ROW.findall(html)) + 0.5


def _split_table(html: str, room: float = CELL_LINES) -> list[str]:
    """A pandas table's HTML in pieces, each with the header: at most TABLE_ROWS body rows
    and at most ``room`` lines of prose tall (rows that wrap take more)."""
    match = re.search(r"(?s)^(.*?<tbody>)(.*?)(</tbody>.*)$", html)
    if not match:
        return [html]
    head, body, tail = match.groups()
    rows = _ROW.findall(body)
    if len(rows) <= TABLE_ROWS + 2 and _table_lines(html) <= room:
        return [html]
    header = _table_lines(head + tail)
    pieces: list[list[str]] = [[]]
    height = header
    for row in rows:
        lines = _row_lines(row)
        if pieces[-1] and (len(pieces[-1]) >= TABLE_ROWS or height + lines > room):
            pieces.append([])
            height = header
        pieces[-1].append(row)
        height += lines
    return [head + "".join(piece) + tail for piece in pieces]


def _fit_code(cell, room: float = CELL_LINES) -> list:
    """A code cell for the slide: a long source abbreviated, long outputs continued (what
    does not fit in ``room`` lines of prose under the source, on the next subslide)."""
    lines = cell.source.splitlines()
    if len(lines) > DECK_CODE_LINES:
        kept = DECK_CODE_LINES - 1
        cell.source = "\n".join(
            [*lines[:kept], f"# … {len(lines) - kept} more lines in the notebook"]
        )
    _size_figures(cell)
    if _has_image(cell):  # the room sees the figure; its code is in the notebook
        cell.metadata.setdefault("tags", []).append(OUTPUT_ONLY)
    first, later = [], []
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if (
            "text/html" in data
            and "<table" in "".join(data["text/html"])
            and "image/png" not in data
        ):
            pieces = _split_table("".join(data["text/html"]), room)
            for number, piece in enumerate(pieces):
                copied = copy.deepcopy(out)
                copied["data"] = {"text/html": piece}
                (first if number == 0 and not later else later).append(copied)
            continue
        text = out.get("text") if out.get("output_type") == "stream" else None
        if text is not None and len(text.splitlines()) > TEXT_LINES:
            text_lines = text.splitlines(keepends=True)
            for number in range(0, len(text_lines), TEXT_LINES):
                copied = copy.deepcopy(out)
                copied["text"] = "".join(text_lines[number : number + TEXT_LINES])
                (first if number == 0 and not later else later).append(copied)
            continue
        (later if later else first).append(out)
    # what does not fit under the source continues on the next subslide
    cell.outputs = first
    while cell.outputs and deck_height(cell) > room:
        later.insert(0, cell.outputs.pop())
    return [cell] + [_output_only([out]) for out in later]


def projected(cells: list) -> list:
    """The deck's cells fitted to a projected 1280 × 720 slide with 28-px prose.

    Each markdown cell becomes one cell per paragraph (list, table, fence), so that a long
    stretch of prose continues on the next subslide instead of running off the slide; a
    paragraph that ends with ":" stays on the slide of what it leads into (a figure included:
    the figure's image is sized to leave it room); every other cell keeps its slide type, and
    a cell that would overflow its slide starts a subslide. A dashboard's static note is set as
    prose and names the figure it stands for instead of "the figure above" (on a slide it is
    not above); a table written in markdown is body text too, split by rows like a long list.
    """
    split = []
    for cell in cells:
        if cell.cell_type == "code":
            if _is_dashboard(cell):
                cell.outputs = _dashboard_outputs(cell.outputs, _figure_name(split, len(split)))
            # a lead-in ending in ":" shares the slide of what it leads into
            lead_in = deck_height(split[-1]) if split and _ends_with_colon(split[-1]) else 0.0
            split.extend(_fit_code(cell, min(CELL_LINES, SLIDE_LINES - lead_in)))
            continue
        if cell.cell_type != "markdown" or _kind(cell) == "notes":
            split.append(cell)
            continue
        blocks = [piece for block in markdown_blocks(cell.source) for piece in _pieces(block)]
        for number, block in enumerate(blocks or [cell.source]):
            piece = copy.deepcopy(cell)
            piece.source = block
            if number:
                _set_kind(piece, "-")
            split.append(piece)
    height = 0.0
    previous, previous_lines = None, 0.0
    on_slide: list = []  # the cells shown on the current (sub)slide so far
    index = -1
    while index + 1 < len(split):
        index += 1
        cell = split[index]
        kind = _kind(cell)
        if kind in ("notes", "skip"):
            continue
        lines = deck_height(cell)
        lead_in = previous is not None and _ends_with_colon(previous)
        stay = False  # the lead-in stays where it is, with what it leads into
        if cell.cell_type == "markdown" and _is_markdown_table(cell.source):
            # a table too tall for a slide of its own (with its lead-in): the rows that fit
            # what is left of this slide stay, the rest continue on the next subslides
            alone = DECK_LINES - (previous_lines if lead_in else 0.0)
            if lines > alone:
                rows = _markdown_table_rows(cell.source)
                least = sum(rows[:2]) + TABLE_MD_MARGIN  # the header and one row
                here = DECK_LINES - height if kind in ("-", "fragment") else DECK_LINES
                first = here if here >= least else alone
                # a lead-in that would leave its heading alone on the slide keeps both, with
                # as many rows as the slide's full height (SLIDE_LINES) leaves room for
                headed = len(on_slide) == 2 and _is_heading(on_slide[0]) and lead_in
                if here < least and headed and height + least <= SLIDE_LINES:
                    first, stay = SLIDE_LINES - height, True
                pieces = []
                for number, source in enumerate(_split_markdown_table(cell.source, first)):
                    piece = copy.deepcopy(cell)
                    piece.source = source
                    if number:
                        _set_kind(piece, "subslide")
                    pieces.append(piece)
                split[index : index + 1] = pieces
                cell, lines = pieces[0], deck_height(pieces[0])
        if lead_in and kind in ("subslide", "-"):
            # never leave a lead-in alone on its slide: it goes with what it leads into, on a
            # new subslide when the two do not fit where the lead-in is
            if kind == "subslide" or (height + lines > DECK_LINES and not stay):
                if _kind(previous) == "-" and height > previous_lines:
                    _set_kind(previous, "subslide")
                    height = previous_lines
                    on_slide = [previous]
            kind = "-"
        elif kind in ("-", "fragment") and height > 0 and height + lines > DECK_LINES:
            kind = "subslide"
        if kind in ("slide", "subslide"):
            height = lines
            on_slide = [cell]
        else:
            height += lines
            on_slide.append(cell)
        _set_kind(cell, kind)
        previous, previous_lines = cell, lines
    return split


# --- vendored JavaScript -------------------------------------------------------------------


def _tarball(name: str) -> Path:
    """The package's npm tarball, cached in build/npm/ and checked against its pinned
    integrity; fetched with ``npm pack`` (npm's own registry, proxy and mirror settings) or,
    without npm, from the registry's URL with urllib."""
    version, integrity, _ = VENDOR[name]
    NPM_CACHE.mkdir(parents=True, exist_ok=True)
    path = NPM_CACHE / f"{name}-{version}.tgz"
    if path.exists() and _integrity_ok(path, integrity):
        return path
    # fetched into a folder of its own, checked, then renamed into place: two builds at once
    # (two test workers) never read a tarball the other is still writing
    with tempfile.TemporaryDirectory(dir=NPM_CACHE, prefix=".fetch-") as fresh:
        fetched = Path(fresh) / path.name
        npm = shutil.which("npm")
        if npm:
            result = subprocess.run(
                [npm, "pack", f"{name}@{version}", "--pack-destination", fresh],
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            if result.returncode != 0:
                raise RuntimeError(f"npm pack {name}@{version} failed: {result.stderr[-2000:]}")
        else:
            url = f"{REGISTRY}/{name}/-/{name}-{version}.tgz"
            with urllib.request.urlopen(url, timeout=120) as response:
                fetched.write_bytes(response.read())
        if not _integrity_ok(fetched, integrity):
            raise RuntimeError(f"{name}@{version}: the tarball's sha512 is not the pinned one")
        os.replace(fetched, path)
    return path


def _integrity_ok(path: Path, integrity: str) -> bool:
    algorithm, _, expected = integrity.partition("-")
    digest = hashlib.new(algorithm, path.read_bytes()).digest()
    return base64.b64encode(digest).decode() == expected


def vendor(out: Path) -> dict[str, str]:
    """Copy the files a deck loads into ``out/vendor/``; their prefixes relative to ``out``."""
    prefixes = {}
    for name, (version, _, keep) in VENDOR.items():
        target = out / "vendor" / f"{name}-{version}"
        stamp = target / ".complete"
        wanted = f"{name}@{version}: {', '.join(keep)}\n"
        if not stamp.exists() or stamp.read_text() != wanted:
            shutil.rmtree(target, ignore_errors=True)
            with tarfile.open(_tarball(name)) as archive:
                for member in archive.getmembers():
                    relative = member.name.split("/", 1)[-1]
                    if not member.isfile() or not relative.startswith(keep):
                        continue
                    destination = target / relative
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    source = archive.extractfile(member)
                    destination.write_bytes(source.read() if source else b"")
            stamp.write_text(wanted)
        prefixes[name] = f"vendor/{name}-{version}"
    return prefixes


# --- the decks ----------------------------------------------------------------------------


def exporter(prefixes: dict[str, str]):
    from nbconvert import SlidesExporter
    from nbconvert.preprocessors import TagRemovePreprocessor

    export = SlidesExporter(
        extra_template_basedirs=[str(TEMPLATES)],
        template_name=TEMPLATE_NAME,
        reveal_url_prefix=prefixes["reveal.js"],
        mathjax_url=f"{prefixes['mathjax']}/es5/tex-svg-full.js",
        reveal_theme="white",
        reveal_transition="none",
        reveal_number="c/t",
        reveal_width=str(DECK_WIDTH),
        reveal_height=str(DECK_HEIGHT),
        reveal_scroll=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        # nothing from a CDN: the template loads none of these, and they must not be used
        require_js_url="",
        jquery_url="",
        mermaid_js_url="",
        font_awesome_url="",
    )
    # a table or text continued from the slide before shows no (empty) code above it
    export.register_preprocessor(
        TagRemovePreprocessor(remove_input_tags={OUTPUT_ONLY}, enabled=True), enabled=True
    )
    return export


def deck_name(lecture: dict) -> str:
    return f"lecture-{int(lecture['number']):02d}.html"


def build(out: Path = OUT, lectures: list[int] | None = None, plan_path: Path = PLAN) -> list:
    """Write one deck per lecture (or those numbered in ``lectures``); return their paths."""
    plan = read_plan(plan_path)
    chosen = [
        lecture for lecture in plan["lectures"] if not lectures or lecture["number"] in lectures
    ]
    if lectures and len(chosen) != len(set(lectures)):
        known = [lecture["number"] for lecture in plan["lectures"]]
        raise ValueError(f"no lecture {sorted(set(lectures) - set(known))} in the plan {known}")
    out.mkdir(parents=True, exist_ok=True)
    export = exporter(vendor(out))
    notebooks: dict = {}
    written = []
    for lecture in chosen:
        deck = lecture_notebook(lecture, notebooks)
        html, _ = export.from_notebook_node(
            deck, resources={"metadata": {"name": deck_name(lecture)}}
        )
        path = out / deck_name(lecture)
        path.write_text(html, encoding="utf-8")
        written.append(path)
    return written


# --- what a deck loads --------------------------------------------------------------------

_LOADING = re.compile(
    r"""<(?:script|img|iframe|source|audio|video|embed|track)\b[^>]*?\bsrc\s*=\s*["']([^"']+)"""
    r"""|<link\b[^>]*?\bhref\s*=\s*["']([^"']+)"""
    r"""|@import\s+(?:url\()?\s*["']?([^"')\s]+)"""
    r"""|\burl\(\s*["']?([^"')\s]+)"""
    r"""|\bimport\s+(?:[\w{}*,\s]+\s+from\s+)?["']([^"']+)["']""",
    re.IGNORECASE,
)


def loaded_urls(html: str) -> list[str]:
    """Every URL the page itself loads (script/img/... src, stylesheet href, CSS @import and
    url(), ES module import), as opposed to links a reader may follow (<a href>)."""
    found = []
    for match in _LOADING.finditer(html):
        url = next(group for group in match.groups() if group)
        if not url.startswith("data:"):
            found.append(url)
    return found


def external(urls: list[str]) -> list[str]:
    return [u for u in urls if re.match(r"^(?:[a-z][a-z0-9+.-]*:)?//", u, re.IGNORECASE)]


# --- command line -------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m instructor.slides", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("tag", "check"):
        p = sub.add_parser(name)
        p.add_argument("notebooks", nargs="+", type=Path)
    p = sub.add_parser("build")
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--lecture", type=int, action="append", help="only this lecture (repeatable)")
    p.add_argument("--plan", type=Path, default=PLAN)
    args = parser.parse_args(argv)
    if args.command == "build":
        start = time.perf_counter()
        written = build(args.out, args.lecture, args.plan)
        for path in written:
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        print(
            f"{len(written)} decks in {time.perf_counter() - start:.1f} s; open "
            f"{args.out / 'lecture-01.html'} (offline: copy the whole folder {args.out}/)"
        )
        return 0
    failed = False
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        if args.command == "tag":
            if tag(nb):
                nbformat.write(nb, path)
                print(f"{path}: slide types written")
            else:
                print(f"{path}: unchanged")
        else:
            problems = check(nb)
            for problem in problems:
                print(f"{path}: {problem}")
            failed = failed or bool(problems)
    if args.command == "check" and failed:
        print(
            f"tag them with: python -m instructor.slides tag {' '.join(map(str, args.notebooks))}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
