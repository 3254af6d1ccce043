"""The reader's pages: the README's first screen, links that resolve, the generated helper page.

* The README opens with the title and the two commands, then says what the course is and
  lists every notebook with a link, all within its first screen; up to the notebooks' table it
  speaks to readers only (the environment's size and the developer's details come further down).
* Every relative link of the Markdown pages and the notebooks' Markdown cells names a file
  that exists, and an anchor (``../README.md#references``) names a heading of that file, the
  way GitHub, JupyterLab's Markdown viewer and the website (``myst_heading_anchors``) slug it.
* docs/helpers-by-notebook.md is what docs/helpers_by_notebook.py writes now.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from _modules import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PAGES = [
    ROOT / name
    for name in ("README.md", "NOTATION.md", "INSTRUCTORS.md", "CONTRIBUTING.md")
    if (ROOT / name).exists()
] + sorted((ROOT / "docs").glob("*.md"))
#: the lines of a first screen (a laptop's browser shows about this many of GitHub's README)
FIRST_SCREEN = 60
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading (also MyST's with ``myst_heading_anchors``)."""
    text = re.sub(r"[`*_\[\]()]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return {_slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def _markdown_sources() -> list[tuple[Path, str]]:
    sources = [(page, page.read_text(encoding="utf-8")) for page in PAGES]
    for notebook in NOTEBOOKS:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        sources.append((notebook, text))
    return sources


def test_the_readme_opens_with_the_commands_then_the_course_and_every_notebook():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ")
    code = [i for i, line in enumerate(lines) if line.startswith("```")][:2]
    assert code[0] == 2, "the two commands come right after the title"
    block = lines[code[0] + 1 : code[1]]
    assert [line.split("#")[0].strip() for line in block] == [
        "python3 course.py lab",
        "python3 course.py test",
    ]
    screen = "\n".join(lines[:FIRST_SCREEN])
    assert "how to choose ε" in screen, "what the course is"
    assert screen.index("```") < screen.index("how to choose ε"), "the commands, then the course"
    opening = "\n".join(lines[: next(i for i, line in enumerate(lines) if line.startswith("|"))])
    for detail in (".venv", ".ci/", "ruff", "developer", "MiB"):
        assert detail not in opening, f"the README's opening names {detail!r}: that is for below"
    assert "students" in screen and "instructors" in screen, "who it is for"
    missing = [nb.name for nb in NOTEBOOKS if f"(notebooks/{nb.name})" not in screen]
    assert missing == [], f"notebooks not linked from the README's first screen: {missing}"


def test_every_relative_link_opens_a_file_and_its_heading():
    broken = []
    for source, text in _markdown_sources():
        for target in _LINK.findall(text):
            if re.match(r"[a-z]+:", target) or (target.startswith("#") and source.suffix != ".md"):
                continue  # a URL; a notebook's own heading
            path, _, anchor = target.partition("#")
            file = (source.parent / path).resolve() if path else source
            if not file.exists():
                broken.append(f"{source.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                broken.append(f"{source.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


@pytest.mark.parametrize(
    "heading, slug",
    [
        ("References", "references"),
        ("Teaching with this course", "teaching-with-this-course"),
        ("The course as a website", "the-course-as-a-website"),
        (
            "In the browser: mouse-up to the new image (all notebooks)",
            "in-the-browser-mouse-up-to-the-new-image-all-notebooks",
        ),
    ],
)
def test_slugs_are_githubs(heading, slug):
    assert _slug(heading) == slug


def test_the_helpers_page_is_current():
    path = ROOT / "docs" / "helpers_by_notebook.py"
    spec = importlib.util.spec_from_file_location("helpers_by_notebook", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = (ROOT / "docs" / "helpers-by-notebook.md").read_text(encoding="utf-8")
    assert written == module.page(), "stale: run python docs/helpers_by_notebook.py"
    assert "helpers.plrv.gaussian_delta" in written.split("## [08_")[1].split("## [")[0]
