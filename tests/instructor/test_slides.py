"""Slides from the notebooks (instructor/slides.py): the slideshow metadata, the lecture decks
(``python3 course.py slides``) and what a deck loads; marker ``browser``: Chromium opens each.

The decks are built once per session into a temporary directory from the committed notebooks
and instructor/plan.json. reveal.js and MathJax come from their npm tarballs, fetched once
into build/npm/ (like axe-core for the accessibility tests) and checked against pinned
hashes; after that everything runs offline.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from _modules import ROOT

from instructor import slides

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PLAN = slides.read_plan()
LECTURES = [lecture["number"] for lecture in PLAN["lectures"]]
MIN_SLIDES = 5
TAG_COMMAND = "python -m instructor.slides tag notebooks/*.ipynb"


# --- the slideshow metadata ---------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebook_has_valid_slideshow_metadata(path):
    problems = slides.check(nbformat.read(path, as_version=4))
    assert not problems, (
        f"{path.name}: {len(problems)} cells without valid slideshow metadata "
        f"(write it with `{TAG_COMMAND}`):\n" + "\n".join(problems[:10])
    )


def test_tag_then_check_on_copies_and_tag_is_idempotent(tmp_path):
    copies = []
    for path in NOTEBOOKS:
        shutil.copy(path, tmp_path / path.name)
        copies.append(str(tmp_path / path.name))
    assert slides.main(["tag", *copies]) == 0
    assert slides.main(["check", *copies]) == 0
    first = {name: Path(name).read_bytes() for name in copies}
    assert slides.main(["tag", *copies]) == 0
    assert {name: Path(name).read_bytes() for name in copies} == first
    for name in copies:
        nb = nbformat.read(name, as_version=4)
        kinds = [c.metadata["slideshow"]["slide_type"] for c in nb.cells]
        assert kinds[0] == "slide", f"{name}: the title cell starts the first slide"
        assert kinds.count("slide") + kinds.count("subslide") >= MIN_SLIDES
        for cell, kind in zip(nb.cells, kinds, strict=True):
            if "solution" in cell.metadata.get("tags", []):
                assert kind == "skip", f"{name}: a worked answer is shown"
            if "figure-alt" in cell.metadata.get("tags", []):
                assert kind == "notes", f"{name}: a figure's text alternative is not in notes"
        # only the cells' slideshow metadata changed: sources and outputs are the committed ones
        committed = nbformat.read(ROOT / "notebooks" / Path(name).name, as_version=4)
        for before, after in zip(committed.cells, nb.cells, strict=True):
            assert before.source == after.source
            assert before.get("outputs") == after.get("outputs")
            rest = {k: v for k, v in after.metadata.items() if k != "slideshow"}
            assert rest == {k: v for k, v in before.metadata.items() if k != "slideshow"}


def _nb(*cells):
    return nbformat.v4.new_notebook(cells=list(cells))


def _figure_cell(source="P.plot_thing()"):
    cell = nbformat.v4.new_code_cell(source)
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}
        )
    ]
    return cell


def test_rules_on_each_kind_of_cell():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [
        md("# 99 · A title\n\nSources."),  # slide
        md("**Prerequisites:** none."),  # -
        code("%matplotlib inline\nimport numpy as np\nfrom helpers import plotting as P"),  # skip
        md("## 1 · A section\n\nProse."),  # slide
        _figure_cell(),  # subslide
        md("*Figure, in words:* a line.", metadata={"tags": ["figure-alt"]}),  # notes
        code("dashboards.thing_dashboard(epsilon=1.0)"),  # subslide
        md("### A subsection"),  # subslide
        md("A short paragraph."),  # -
        md("## Exercises", metadata={"tags": ["exercises-intro"]}),  # slide
        md("**1.** Compute something."),  # subslide
        code("answer = 1", metadata={"tags": ["solution"]}),  # skip
        code('answer_99_1 = answer\ncheck("99.1", answer_99_1)'),  # fragment
        md("*Your answer:*", metadata={"tags": ["written"]}),  # skip (the student's space)
        md("Speaker only.", metadata={"tags": ["slide-notes"]}),  # notes (override)
        md("---\n\n[← 98](98_x.ipynb)"),  # skip
        code("import sys\n\nprint(sys.version)"),  # skip (versions)
    ]
    assert slides.slide_types(_nb(*cells)) == [
        "slide",
        "-",
        "skip",
        "slide",
        "subslide",
        "notes",
        "subslide",
        "subslide",
        "-",
        "slide",
        "subslide",
        "skip",
        "fragment",
        "skip",
        "notes",
        "skip",
        "skip",
    ]


def test_a_long_run_of_prose_is_split_into_subslides_and_text_after_a_figure_starts_one():
    md = nbformat.v4.new_markdown_cell
    paragraph = "word " * 190  # 950 characters: 10 projected lines
    assert slides.cell_height(md(paragraph)) == 10
    nb = _nb(
        md("## 1 · Heading"),
        md(paragraph),  # 11 lines with the heading: fits
        md(paragraph),  # 21: the slide is full, a subslide starts
        md("short"),  # 11: fits
        _figure_cell(),  # a figure has a slide of its own
        md("after"),  # and what follows it starts the next one
    )
    assert slides.slide_types(nb) == ["slide", "-", "subslide", "-", "subslide", "subslide"]


def test_check_reports_missing_and_invalid_slide_types():
    md = nbformat.v4.new_markdown_cell
    nb = _nb(
        md("# T", metadata={"slideshow": {"slide_type": "slide"}}),
        md("x"),
        md("y", metadata={"slideshow": {"slide_type": "sideways"}}),
    )
    problems = slides.check(nb)
    assert len(problems) == 2
    assert "cell 2" in problems[0] and "no metadata.slideshow.slide_type" in problems[0]
    assert "cell 3" in problems[1] and "'sideways'" in problems[1]
    assert slides.tag(nb) and not slides.check(nb) and not slides.tag(nb)


def test_sections_follow_the_plans_vocabulary():
    md = nbformat.v4.new_markdown_cell
    nb = _nb(
        md("# 99 · Title"),
        md("## Learning objectives"),
        md("## 1 · One"),
        md("text"),
        md("## 2 · Two\n\n## 3 · Three"),
        md("## Summary"),
        md("## Exercises"),
    )
    places = [place for place, _ in slides.cell_sections(nb)]
    assert places == ["open", "open", 1, 1, 3, "close", "close"]
    assert slides.part_cells(nb, [1], first=True, last=False) == [0, 1, 2, 3]
    assert slides.part_cells(nb, [2, 3], first=False, last=True) == [4, 5, 6]
    assert slides.part_cells(nb, "all", first=True, last=True) == list(range(7))


# --- the decks ----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def decks(tmp_path_factory):
    out = tmp_path_factory.mktemp("slides")
    try:
        slides.vendor(out)
    except (OSError, RuntimeError) as error:  # no npm and no network on first use
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"reveal.js/MathJax could not be fetched: {error}")
        pytest.skip(
            f"reveal.js/MathJax not in {slides.NPM_CACHE} and not fetchable ({error}); "
            "run `python3 course.py slides` once with network access"
        )
    written = slides.build(out)
    return out, {int(re.search(r"(\d+)", p.name).group(1)): p for p in written}


class _Sections(HTMLParser):
    """Counts the slides a reader steps through: <section>s with no <section> inside."""

    def __init__(self):
        super().__init__()
        self.stack: list[bool] = []  # per open section: has a child section
        self.leaves = 0

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            if self.stack:
                self.stack[-1] = True
            self.stack.append(False)

    def handle_endtag(self, tag):
        if tag == "section" and self.stack:
            if not self.stack.pop():
                self.leaves += 1


def test_every_lecture_has_a_deck_with_enough_slides(decks):
    _, paths = decks
    assert sorted(paths) == LECTURES
    for lecture in PLAN["lectures"]:
        html = paths[lecture["number"]].read_text(encoding="utf-8")
        counter = _Sections()
        counter.feed(html)
        assert counter.leaves >= MIN_SLIDES, f"lecture {lecture['number']}: {counter.leaves} slides"
        title = lecture.get("title", "")
        assert f"Lecture {lecture['number']}" in html and (not title or _text(title) in html)


def _text(title: str) -> str:
    return title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_a_deck_loads_nothing_from_the_network(decks):
    """Every URL a deck loads (script/img src, stylesheet, CSS import and url()) is a file of
    the build; links in the text (<a href>) to the references may point anywhere."""
    out, paths = decks
    for number, path in paths.items():
        html = path.read_text(encoding="utf-8")
        urls = slides.loaded_urls(html)
        assert not slides.external(urls), f"lecture {number} loads {slides.external(urls)}"
        assert not re.search(r"""src\s*=\s*["']https?:""", html)
        for url in urls:
            target = (path.parent / url.split("?")[0].split("#")[0]).resolve()
            assert target.is_file(), f"lecture {number} loads {url}, which is not in the build"
            assert target.is_relative_to(out.resolve()), f"lecture {number}: {url} is outside"
    # and the stylesheets they load, followed through their @import and url()
    queue = sorted(
        {
            (path.parent / url).resolve()
            for path in paths.values()
            for url in slides.loaded_urls(path.read_text(encoding="utf-8"))
            if url.endswith(".css")
        }
    )
    seen: set[Path] = set()
    while queue:
        css = queue.pop()
        if css in seen:
            continue
        seen.add(css)
        urls = slides.loaded_urls(css.read_text(encoding="utf-8", errors="replace"))
        assert not slides.external(urls), f"{css.relative_to(out)} loads {slides.external(urls)}"
        for url in urls:
            target = (css.parent / url.split("?")[0].split("#")[0]).resolve()
            assert target.is_file(), f"{css.relative_to(out)} loads {url}, not in the build"
            if target.suffix == ".css":
                queue.append(target)
    assert seen, "no stylesheet followed"
    # nothing else in vendor/ loads from the network either (no theme the decks do not use)
    for css in out.glob("vendor/**/*.css"):
        urls = slides.loaded_urls(css.read_text(encoding="utf-8", errors="replace"))
        assert not slides.external(urls), f"{css.relative_to(out)} loads {slides.external(urls)}"


def test_skipped_cells_are_not_in_a_deck(decks):
    """No worked answer reaches a deck (skip cells are left out, not hidden)."""
    _, paths = decks
    html = "\n".join(p.read_text(encoding="utf-8") for p in paths.values())
    assert "Interactive dashboard: run this notebook" in html  # dashboards stay, as their note
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if "solution" not in cell.metadata.get("tags", []):
                continue
            for output in cell.get("outputs", []):
                text = output.get("text", "")
                if len(text.strip()) > 20:  # a printed worked answer
                    assert text.strip().splitlines()[0] not in html, f"{path.name}: {text[:80]}"


def test_plan_is_read_at_run_time(tmp_path, decks):
    """A plan with one made-up lecture builds that lecture, under its own number and title."""
    plan = {
        "about": "test",
        "lectures": [
            {
                "number": 42,
                "title": "Only section 2",
                "parts": [{"notebook": "00_dp_foundations", "sections": [2]}],
            }
        ],
    }
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan), encoding="utf-8")
    out, _ = decks
    written = slides.build(out / "alt", plan_path=path)
    assert [p.name for p in written] == ["lecture-42.html"]
    html = written[0].read_text(encoding="utf-8")
    assert "Lecture 42 · Only section 2" in html
    assert "Laplace mechanism" in html and "Randomised response" not in html


# --- in Chromium --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shown_decks(decks, playwright_api, browser_executable) -> dict:
    """Each deck opened once in Chromium at the projector's size (1280 × 720), for both tests
    below (issue 50: each opened every deck in a Chromium of its own). Per lecture: reveal.js's
    scale, its slide count, the formulas MathJax could not typeset, every slide measured
    (:data:`_MEASURE_SLIDES`, which shows each slide in turn), then, once the last slide is
    shown, every console message, failed request and request off the machine since the page
    was opened."""
    import browser_lab as bl

    _, paths = decks
    shown = {}
    with bl.chromium(playwright_api, browser_executable) as context:
        for number, path in sorted(paths.items()):
            page = context.new_page()
            page.set_viewport_size({"width": slides.DECK_WIDTH, "height": slides.DECK_HEIGHT})
            console = bl.Console()
            console.attach(page)
            requests: list[str] = []
            page.on("request", lambda r, requests=requests: requests.append(r.url))
            page.on(
                "requestfailed",
                lambda r, console=console: console.messages.append(f"failed: {r.url}"),
            )
            page.goto(path.as_uri())
            # conditions, not delays: reveal.js ready and MathJax done typesetting
            page.wait_for_function(
                "() => window.Reveal && Reveal.isReady() && window.MathJax"
                " && MathJax.startup && MathJax.startup.promise",
                timeout=bl.RUN_ALL_TIMEOUT_MS,
            )
            page.evaluate("() => MathJax.startup.promise")
            seen = {
                "scale": page.evaluate("() => Reveal.getScale()"),
                "total": page.evaluate("() => Reveal.getTotalSlides()"),
                "errors": page.evaluate("() => document.querySelectorAll('mjx-merror').length"),
                "measured": page.evaluate(_MEASURE_SLIDES),
            }
            page.evaluate("() => Reveal.slide(Reveal.getHorizontalSlides().length - 1)")
            seen["console"] = list(console.messages)
            seen["remote"] = [u for u in requests if not u.startswith(("file:", "data:", "blob:"))]
            page.close()
            shown[number] = seen
    return shown


@pytest.mark.browser
def test_each_deck_opens_in_chromium_without_console_errors(shown_decks):
    problems = []
    for number, seen in sorted(shown_decks.items()):
        where_ = f"lecture {number}"
        if seen["console"]:
            problems.append(f"{where_}: console:\n" + "\n".join(seen["console"]))
        if seen["remote"]:
            problems.append(f"{where_}: loaded {seen['remote']}")
        if seen["total"] < MIN_SLIDES:
            problems.append(f"{where_}: {seen['total']} slides")
        if seen["errors"]:
            problems.append(f"{where_}: {seen['errors']} formulas MathJax could not typeset")
    assert not problems, "\n".join(problems)


def test_a_dashboards_fallback_names_its_figure_not_the_figure_above(decks):
    _, paths = decks
    for number, path in sorted(paths.items()):
        html = path.read_text(encoding="utf-8")
        # the dashboard's fallback output (helpers.widgets._base.STATIC_NOTE) on a slide
        assert "The static figure above shows the default values" not in html, f"lecture {number}"
        if "Interactive dashboard" in html:
            assert "on the previous slide" in html, f"lecture {number}"


def test_a_table_written_in_markdown_continues_with_its_header_on_the_next_subslide():
    """A pipe table is body text (28 px, like the prose): one too tall for a slide keeps the
    rows that fit under its heading and lead-in and continues, header first, on subslides."""
    md = nbformat.v4.new_markdown_cell
    header = "| case | what the source does | what is computed here |\n|---|---|---|"
    rows = [
        f"| row {i} | " + "a cell long enough to wrap " * 3 + f"| `code_{i}` and $x_{i}$ |"
        for i in range(9)
    ]
    table = "\n".join([header, *rows])
    assert slides._is_markdown_table(table) and not slides._is_markdown_table("|x| is 1\n")
    assert slides._table_row("| a `b|c` | $|x|$ | d \\| e |") == [
        " a `b|c` ",
        " $|x|$ ",
        " d \\| e ",
    ]
    heights = slides._markdown_table_rows(table)
    assert len(heights) == 10 and all(h >= 2 for h in heights[1:])  # the long cells wrap
    assert slides._block_lines(table) > slides.DECK_LINES
    heading = md("### A heading", metadata={"slideshow": {"slide_type": "subslide"}})
    lead_in = md("The table:\n\n" + table, metadata={"slideshow": {"slide_type": "-"}})
    deck = slides.projected([heading, lead_in])
    kinds = [slides._kind(c) for c in deck]
    assert kinds[:3] == ["subslide", "-", "-"]  # heading, lead-in and the first rows together
    pieces = [c.source for c in deck if slides._is_markdown_table(c.source)]
    assert len(pieces) > 1 and kinds[3:] == ["subslide"] * (len(pieces) - 1)
    assert all(piece.startswith(header + "\n") for piece in pieces)
    assert [line for piece in pieces for line in piece.splitlines()[2:]] == rows
    assert all(slides._block_lines(piece) <= slides.DECK_LINES for piece in pieces[1:])
    # a short table stays whole
    short = md("\n".join([header, *rows[:2]]), metadata={"slideshow": {"slide_type": "-"}})
    assert len(slides.projected([heading, short])) == 2


def test_a_dashboards_note_is_prose_and_its_readout_a_text_output():
    code = nbformat.v4.new_code_cell("dashboards.thing_dashboard(epsilon=1.0)")
    note = "Interactive dashboard: run this notebook in JupyterLab to move the controls. "
    code.outputs = [
        nbformat.v4.new_output(
            "execute_result",
            data={"text/plain": note + "The static figure above shows the default values.\nε = 1"},
        )
    ]
    alt = nbformat.v4.new_markdown_cell(
        "*Figure, in words:* The thing. More.",
        metadata={"tags": ["figure-alt"], "slideshow": {"slide_type": "notes"}},
    )
    figure = _figure_cell()  # a PNG header of 800 × 500 px
    png = (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (800).to_bytes(4, "big") + (500).to_bytes(4, "big")
    )
    figure.outputs[0]["data"]["image/png"] = base64.b64encode(png).decode()
    deck = slides.projected([figure, alt, code])
    outputs = deck[-1].outputs
    assert outputs[0]["data"] == {
        "text/markdown": note + "It starts from the figure “The thing” on the previous slide."
    }
    assert outputs[1]["data"] == {"text/plain": "ε = 1"}


#: body text on a slide, as rendered (computed font size times reveal.js's scale) at 1280 × 720
BODY_PX = 28
#: code and text outputs on a slide: nbconvert's reveal.js size for code (19 px; tables 22 px)
CODE_PX = 19

# every slide at the projector's 1280 × 720: its body text, its code, its height, its figures,
# a lead-in left alone, words wrapped inside (text outputs: "ab ove", "0.367 9").
# Body text is everything the notebook's markdown sets on a slide, and the deck's own sentences
# (its title slide, a dashboard's note), i.e. every element with text of its own (or a MathJax
# formula) inside rendered markdown (.jp-RenderedMarkdown: a markdown cell or a markdown
# output): headings, paragraphs, list items, quotes, a table written in markdown, emphasis,
# inline code and formulas. Not body text: code, i.e. a code cell's source, its printed and
# plain-text outputs and the data tables it returns (held to CODE_PX), and a fenced code block
# (<pre>) in markdown; MathJax's hidden MathML for screen readers is not rendered.
_MEASURE_SLIDES = r"""() => {
  const out = [];
  const width = Reveal.getConfig().width, scale = Reveal.getScale();
  for (const [h, stack] of Reveal.getHorizontalSlides().entries()) {
    const verticals = [...stack.querySelectorAll(':scope > section')];
    const list = verticals.length ? verticals : [stack];
    list.forEach((section, v) => {
      Reveal.slide(h, verticals.length ? v : 0);
      const shown = e => e.offsetParent !== null && !e.closest('aside.notes');
      const ownText = e => [...e.childNodes].some(n => n.nodeType === 3 && n.data.trim());
      const px = e => parseFloat(getComputedStyle(e).fontSize) * scale;  // as rendered
      // body text: every element of rendered markdown with text of its own, or a formula
      const body = [...section.querySelectorAll('.jp-RenderedMarkdown *')].filter(e => shown(e)
        && !e.closest('pre, mjx-assistive-mml') && (ownText(e) || e.tagName === 'MJX-CONTAINER'));
      const fonts = body.map(px);
      const smallest = fonts.length ? Math.min(...fonts) : null;
      const small = body.filter(e => px(e) === smallest).map(e => e.tagName.toLowerCase());
      // code, text outputs and tables: every piece of their text as set on the slide
      const code = [...section.querySelectorAll('pre, pre *, td, th')]
        .filter(e => shown(e) && ownText(e)).map(px);
      const images = [...section.querySelectorAll('img')].filter(shown)
        .map(e => e.getBoundingClientRect().width / (width * scale));
      const cells = [...section.querySelectorAll('.jp-Cell')].filter(shown);
      const last = cells[cells.length - 1];
      const wrapped = [];
      for (const pre of section.querySelectorAll('pre')) {
        if (!shown(pre)) continue;
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of node.data.matchAll(/[^\s\-–—\/]+/g)) {  // a break at a hyphen or slash is fine
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            if (tops.size > 1 && range.getBoundingClientRect().width < pre.clientWidth) wrapped.push(m[0]);
          }
        }
      }
      out.push({
        where: `${h + 1}.${v + 1}`,
        height: section.scrollHeight / 1, limit: section.clientHeight,
        smallest, small: [...new Set(small)],
        smallestCode: code.length ? Math.min(...code) : null,
        images, body: body.length, wrapped,
        leadIn: !!last && last.classList.contains('jp-MarkdownCell')
          && last.innerText.trim().endsWith(':'),
        text: (section.innerText || '').trim().slice(0, 50),
      });
    });
  }
  return out;
}"""


@pytest.mark.browser
def test_every_slide_of_every_deck_reads_on_a_projector(shown_decks):
    """At 1280 × 720 (a 720p projector, reveal.js at scale 1): body text (what counts is said
    above _MEASURE_SLIDES: all of the markdown's text, its tables, formulas and inline code
    included) at BODY_PX (28 px) or more as rendered, code, text outputs and data tables at
    their projected size (CODE_PX or more), no slide taller than the screen, every figure at
    least half the slide wide, no slide that only leads into the next (ending in ":"), no word
    of a text output wrapped inside it. Nothing is set smaller or narrower in the browser to make
    a slide fit: instructor/slides.py splits the slides so that every one fits as designed
    (issue 42: 25 of 964 slides had their code and tables shrunk to 15-20 px by the deck's own
    script; issue 50: 24 of 1,035 had body text under 28 px, tables written in markdown at 22 px
    and the dashboards' notes at 20 px).

    A figure taller than wide cannot be half the slide's width and fit its height: such a figure
    is redrawn wider (test_every_figure_of_a_deck_fits_a_slide_at_half_its_width), never
    allowed to run below the slide."""
    problems = []
    for number, seen in sorted(shown_decks.items()):
        assert seen["scale"] == pytest.approx(1.0)
        measured = seen["measured"]
        # the measure reads body text at all: the title slide is nothing else
        assert measured[0]["body"] > 0, f"lecture {number}: no body text found"
        for s in measured:
            at = f"lecture {number}, slide {s['where']} ({s['text']!r})"
            if s["smallest"] is not None and s["smallest"] < BODY_PX - 0.01:
                problems.append(f"{at}: body text ({s['small']}) at {s['smallest']:.1f} px")
            if s["smallestCode"] is not None and s["smallestCode"] < CODE_PX - 0.01:
                problems.append(f"{at}: code or a table at {s['smallestCode']:.1f} px")
            if s["height"] > s["limit"] + 1:
                problems.append(f"{at}: {s['height']} px tall, the screen {s['limit']}")
            narrow = [w for w in s["images"] if w < 0.5 - 0.005]
            if narrow:
                problems.append(f"{at}: a figure {min(narrow):.0%} of the slide's width")
            if s["leadIn"]:
                problems.append(f"{at}: ends in ':' and its content is on the next slide")
            if s["wrapped"]:
                problems.append(f"{at}: words wrapped inside: {s['wrapped'][:5]}")
    assert not problems, "\n".join(problems)


def test_every_figure_of_a_deck_fits_a_slide_at_half_its_width():
    """A figure is shown at least half the slide wide (slides._size_figures): one taller than
    that allows would run below the 720-px slide, however it is placed. Each is shown no taller
    than the slide less one line of heading (lecture 2's hypothesis region and lecture 11's
    deployments once ran 790 and 735 px tall; they are drawn wider now)."""
    room = slides.DECK_HEIGHT - 2 * 28 * 1.3
    too_tall = []
    for lecture in slides.read_plan()["lectures"]:
        for cell in slides.lecture_notebook(lecture).cells:
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                size = slides._png_size(data["image/png"]) if "image/png" in data else None
                if size is None:
                    continue
                width = out["metadata"]["image/png"]["width"]
                assert width >= slides.DECK_WIDTH / 2
                if width * size[1] / size[0] > room:
                    too_tall.append(f"lecture {lecture['number']}: {size} at {width} px wide")
    assert too_tall == []


def test_a_dashboard_bound_to_a_name_is_a_dashboard():
    """Notebook 11 keeps its dashboard (``dash = dashboards.budget_dashboard(...)``) so a later
    cell reads its choice: the slides (its note names the figure) and the timing (a dashboard's
    minutes) must still see a dashboard, and read cells alike."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("timing", ROOT / "instructor" / "timing.py")
    timing = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(timing)
    assert timing.DASHBOARD_CALL.pattern == slides.DASHBOARD_CALL.pattern
    for source in (
        "dashboards.budget_dashboard(survey)",
        "# a comment\ndash = dashboards.budget_dashboard(w)\ndash",
        "d=w.model_dashboard()",
    ):
        assert slides._is_dashboard(nbformat.v4.new_code_cell(source)), source
    for source in ("print(dash.choice)", "x = make_dashboard_text(3)", "dash.choice"):
        assert not slides._is_dashboard(nbformat.v4.new_code_cell(source)), source
