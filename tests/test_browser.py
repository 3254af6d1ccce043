"""What a reader sees: every notebook run in a real JupyterLab in a real Chromium.

For every notebook (discovered, in course order): open it, accept the kernel, run all
cells, wait for the kernel to go idle; no cell shows an error, every dashboard rendered.
Then every control of every dashboard is moved the way a person does (the mouse drags a
slider's handle, a dropdown gets another option, a number is typed into a text box) and the
dashboard's image and readout must change. Sliders must be wide enough to aim with, the
image must not cut text at its edge, and the browser console must stay free of errors and
warnings. The notebook is then saved, closed and reopened: its dashboards must still show
(JupyterLab saves the widget state, see jupyter-config/), never "model not found".

Run: `.venv/bin/python -m pytest -m browser tests/test_browser.py` (about two minutes).
A machine without Chromium skips these tests with a note on how to get one; with CI=true a
missing browser is a failure.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html.parser
import http.server
import io
import os
import subprocess
import sys
import threading
import urllib.parse

import browser_lab as bl
import numpy as np
import pytest

pytestmark = pytest.mark.browser

NOTEBOOK_NAMES = [p.name for p in bl.notebook_paths()]
BROWSER = bl.find_chromium()  # at collection, before any browser runs
STATIC_NOTE_START = "Interactive dashboard: run this notebook"

# Console messages no course change can avoid, each allowed by its exact text.
# (None today: the pinned JupyterLab, widgets front end and Chromium flags log nothing.)
ALLOWED_CONSOLE: set[str] = set()


@pytest.fixture(scope="module")
def browser_executable():
    executable, where = BROWSER
    if executable == "":
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {where}")
        pytest.skip(where)
    return executable


@pytest.fixture(scope="module")
def lab():
    with bl.jupyter_lab() as running:
        yield running


@pytest.fixture(scope="module")
def context(browser_executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, bl.chromium(p, browser_executable) as ctx:
        yield ctx


def _fail(page, name: str, message: str, locator=None) -> None:
    pytest.fail(_problem(page, name, message, locator))


def _problem(page, name: str, message: str, locator=None) -> str:
    """The message with a screenshot (the dashboard in view) saved under build/."""
    if locator is not None:
        with contextlib.suppress(Exception):
            locator.scroll_into_view_if_needed(timeout=10_000)
    shot = bl.screenshot(page, name)
    return f"{message}\n  screenshot: {shot}"


def _png_edges_dark(src: str) -> dict[str, int]:
    """How many dark pixels touch each edge of a data: URL PNG (text cut at the edge)."""
    import matplotlib.image as mpimg

    data = base64.b64decode(src.split(",", 1)[1])
    rgb = mpimg.imread(io.BytesIO(data), format="png")[..., :3]
    dark = rgb.mean(axis=-1) < 0.55
    return {
        "top": int(dark[0].sum()),
        "bottom": int(dark[-1].sum()),
        "left": int(dark[:, 0].sum()),
        "right": int(dark[:, -1].sum()),
    }


def _check_width(page, shot, where, dashboard, kind, control, problems) -> None:
    """Sliders need a track long enough to aim with; other controls room for their text."""
    what = f"{where}, {kind} {bl.control_label(kind, control)!r}"
    if kind == "slider":
        track = control.locator(".noUi-target").first.bounding_box()["width"]
        if track < bl.MIN_SLIDER_TRACK_PX:
            problems.append(
                _problem(
                    page,
                    shot,
                    f"{what}: track {track:.0f} px, narrower than {bl.MIN_SLIDER_TRACK_PX} px",
                    dashboard,
                )
            )
        return
    width = control.bounding_box()["width"]
    if width < bl.MIN_CONTROL_PX:
        problems.append(
            _problem(
                page,
                shot,
                f"{what}: {width:.0f} px wide, narrower than {bl.MIN_CONTROL_PX} px",
                dashboard,
            )
        )


def _move_and_check(page, shot, where, dashboard, kind, control, problems) -> int:
    """Move one control like a person; its dashboard must redraw. 1 if the image changed."""
    what = f"{where}, {kind} {bl.control_label(kind, control)!r}"
    src, readout = bl.dashboard_image(dashboard), bl.dashboard_readout(dashboard)
    done = bl.move(page, kind, control)
    if not done:
        return 0
    try:
        bl.wait_for_change(page, dashboard, src, readout, bl.REDRAW_TIMEOUT_MS)
    except Exception:
        problems.append(
            _problem(
                page,
                shot,
                f"{what}: {done}, but within {bl.REDRAW_TIMEOUT_MS / 1000:.0f} s the image "
                f"changed: {bl.dashboard_image(dashboard) != src}, the readout changed: "
                f"{bl.dashboard_readout(dashboard) != readout}",
                dashboard,
            )
        )
        return 0
    return 0 if bl.refused(dashboard) else 1


@pytest.mark.parametrize("name", NOTEBOOK_NAMES)
def test_notebook_runs_and_every_control_redraws(name, lab, context):
    page = context.new_page()
    console = bl.Console()
    console.attach(page)
    stem = name.removesuffix(".ipynb")
    problems: list[str] = []  # every defect found, each with its screenshot
    try:
        bl.open_notebook(page, lab, name)
        bl.run_all(page)

        errors = page.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        )
        if errors.count():
            _fail(page, stem, f"{name}: a cell printed an error:\n{errors.first.inner_text()}")
        text = page.locator(".jp-NotebookPanel").inner_text()
        if "Error displaying widget" in text:
            _fail(page, stem, f"{name}: 'Error displaying widget' in the page")
        if STATIC_NOTE_START in text:
            _fail(page, stem, f"{name}: a dashboard showed its text fallback, not the widget")

        source = (lab.notebooks / name).read_text()
        dashboards = bl.dashboards(page)
        if "_dashboard(" in source:
            assert dashboards, f"{name} calls a dashboard but none rendered"

        for d, dashboard in enumerate(dashboards):
            where = f"{name}, dashboard {d + 1}"
            src = bl.dashboard_image(dashboard)
            if not src.startswith("data:image/png;base64,"):
                problems.append(_problem(page, f"{stem}-d{d + 1}", f"{where}: no image", dashboard))
                continue
            edges = _png_edges_dark(src)
            if any(edges.values()):
                problems.append(
                    _problem(
                        page,
                        f"{stem}-d{d + 1}",
                        f"{where}: the image cuts something at its edge "
                        f"(dark pixels on each edge: {edges})",
                        dashboard,
                    )
                )
            image_changes = 0
            found = bl.controls(dashboard)
            for kind, control in found:
                _check_width(page, f"{stem}-d{d + 1}", where, dashboard, kind, control, problems)
            moved: set[int] = set()
            # two passes: a control greyed out at first (it does not apply to the current
            # choice) is moved once another control has made it apply
            for _pass in range(2):
                for index, (kind, control) in enumerate(found):
                    if index in moved or bl.is_disabled(kind, control):
                        continue
                    moved.add(index)
                    image_changes += _move_and_check(
                        page, f"{stem}-d{d + 1}", where, dashboard, kind, control, problems
                    )
            if image_changes == 0:
                problems.append(f"{where}: no control produced a new image")

        unexpected = [m for m in console.messages if m not in ALLOWED_CONSOLE]
        if unexpected:
            problems.append(f"{name}: browser console:\n" + "\n".join(unexpected))
        assert not problems, f"{name}:\n" + "\n".join(problems)
    except bl.PlaywrightError as error:
        # a wait that timed out, an element that vanished: the screenshot shows where
        _fail(page, stem, f"{name}: {type(error).__name__}: {error}")
    finally:
        with contextlib.suppress(Exception):
            bl.shut_down_kernel(page)
        page.close()


@pytest.mark.parametrize("name", NOTEBOOK_NAMES[:1] + NOTEBOOK_NAMES[-1:])
def test_saved_and_reopened_notebook_still_shows_its_dashboards(name, lab, context):
    """After a save and a reopen (what autosave does to a reader), no 'model not found'."""
    source = (bl.NOTEBOOKS / name).read_text()
    if "_dashboard(" not in source:
        pytest.skip(f"{name} has no dashboard")
    page = context.new_page()
    console = bl.Console()
    console.attach(page)
    stem = name.removesuffix(".ipynb") + "-reopened"
    try:
        bl.open_notebook(page, lab, name)
        bl.run_all(page)
        count = len(bl.dashboards(page))
        bl.menu(page, "File", "Save Notebook")
        page.wait_for_function(
            "() => !document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')",
            timeout=bl.RUN_ALL_TIMEOUT_MS,
        )
        page.close()
        page = context.new_page()
        console.attach(page)
        bl.open_notebook(page, lab, name)
        page.wait_for_function(
            f"() => document.querySelectorAll('.jp-OutputArea-output .widget-output img')"
            f".length >= {count}",
            timeout=bl.RUN_ALL_TIMEOUT_MS,
        )
        text = page.locator(".jp-NotebookPanel").inner_text()
        if "Error displaying widget" in text or "model not found" in text:
            _fail(page, stem, f"{name}: reopened notebook shows 'Error displaying widget'")
        assert len(bl.dashboards(page)) == count
        unexpected = [m for m in console.messages if m not in ALLOWED_CONSOLE]
        if unexpected:
            _fail(page, stem, f"{name} reopened: browser console:\n" + "\n".join(unexpected))
    except bl.PlaywrightError as error:
        _fail(page, stem, f"{name} reopened: {type(error).__name__}: {error}")
    finally:
        with contextlib.suppress(Exception):
            bl.shut_down_kernel(page)
        page.close()


def test_browser_discovery_explains_how_to_get_one(monkeypatch):
    """Without any browser the message says how to get one (the skip/fail text)."""
    assert "apt-get install chromium" in bl.HOW_TO_GET_A_BROWSER
    assert "playwright install chromium" in bl.HOW_TO_GET_A_BROWSER
    monkeypatch.setenv("CHROMIUM", "/nonexistent/chromium")
    executable, _ = bl.find_chromium()
    assert executable != "/nonexistent/chromium"


def test_notebooks_are_discovered_not_listed():
    assert NOTEBOOK_NAMES == sorted(NOTEBOOK_NAMES)
    assert len(NOTEBOOK_NAMES) >= 9
    assert all(n[:2].isdigit() for n in NOTEBOOK_NAMES)
    assert np.all(np.diff([int(n[:2]) for n in NOTEBOOK_NAMES]) > 0)


# --- the website (python3 course.py book) ---------------------------------------------

MATHJAX_CDN = "https://cdn.jsdelivr.net/npm/mathjax@3/"


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img" and a.get("src"):
            self.images.append(a["src"])
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "link" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "script" and a.get("src"):
            self.scripts.append(a["src"])


@pytest.fixture(scope="module")
def book():
    """Build the site once (no execution, no network), as `python3 course.py book` does."""
    result = subprocess.run(
        [sys.executable, str(bl.ROOT / "book" / "build.py")],
        cwd=bl.ROOT,
        capture_output=True,
        text=True,
    )
    log = (bl.BUILD / "book.log").read_text() if (bl.BUILD / "book.log").exists() else ""
    return result, log, bl.BUILD / "book"


def test_book_builds_without_warnings(book):
    result, log, _ = book
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    warnings = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    assert warnings == []


def test_book_has_a_page_per_notebook_in_order(book):
    _, _, site = book
    index = (site / "intro.html").read_text()
    positions = []
    for name in NOTEBOOK_NAMES:
        page = site / "notebooks" / name.replace(".ipynb", ".html")
        assert page.is_file(), f"no page for {name}"
        positions.append(index.find(f"notebooks/{page.name}"))
    assert all(p >= 0 for p in positions), "the navigation lists every chapter"
    assert positions == sorted(positions), "chapters appear in course order"
    assert (site / "search.html").is_file() and (site / "searchindex.js").is_file()
    assert (site / "index.html").is_file()


def _pages(site):
    return sorted(p for p in site.rglob("*.html") if "_static" not in p.parts)


def test_book_every_image_and_internal_link_resolves(book):
    _, _, site = book
    missing = []
    for page in _pages(site):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for ref in parser.images + parser.links + parser.scripts:
            parsed = urllib.parse.urlparse(ref)
            if parsed.scheme or ref.startswith(("#", "mailto:", "//")):
                continue
            target = (page.parent / urllib.parse.unquote(parsed.path)).resolve()
            if parsed.path and not target.exists():
                missing.append(f"{page.relative_to(site)}: {ref}")
    assert missing == []
    # the README's figures are on the site
    readme = (site / "README.html").read_text()
    for figure in sorted((bl.ROOT / "figures").glob("*.png")):
        if f"figures/{figure.name}" in (bl.ROOT / "README.md").read_text():
            assert figure.stem in readme, f"README figure {figure.name} missing on the site"


@pytest.fixture(scope="module")
def site_server(book):
    _, _, site = book
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.mark.parametrize("name", ["intro", "README", *(n[:-6] for n in NOTEBOOK_NAMES)])
def test_book_page_loads_cleanly_and_shows_its_first_figure(name, book, site_server, context):
    _, _, site = book
    path = f"{name}.html" if name in ("intro", "README") else f"notebooks/{name}.html"
    page = context.new_page()
    console = bl.Console()
    console.attach(page)
    mathjax_requests = []

    # Offline (CI has no internet), MathJax's CDN cannot answer. Online the page loads it
    # from there and renders the math; here we record that the page asked for it and answer
    # with an empty script, so a blocked CDN is not mistaken for a broken page. Any other
    # request that leaves the machine fails the test (it would fail for a reader offline).
    def mathjax(route):
        mathjax_requests.append(route.request.url)
        route.fulfill(status=200, content_type="text/javascript", body="/* offline */")

    outside = []
    page.route(f"{MATHJAX_CDN}**", mathjax)
    page.on(
        "request",
        lambda r: outside.append(r.url)
        if not r.url.startswith((site_server, "data:", MATHJAX_CDN))
        else None,
    )
    try:
        page.goto(f"{site_server}/{path}", wait_until="load")
        html_text = (site / path).read_text()
        if "$" in html_text or "\\(" in html_text:
            assert mathjax_requests, f"{path} has math but did not load MathJax"
        if name != "intro":
            img = page.locator("main img, article img").first
            img.wait_for(state="visible", timeout=bl.REDRAW_TIMEOUT_MS)
            width = img.evaluate("i => i.complete ? i.naturalWidth : 0")
            if not width:
                _fail(page, f"book-{name}", f"{path}: its first figure did not load")
        assert outside == [], f"{path} requested outside the site: {outside}"
        unexpected = [m for m in console.messages if m not in ALLOWED_CONSOLE]
        if unexpected:
            _fail(page, f"book-{name}", f"{path}: browser console:\n" + "\n".join(unexpected))
    finally:
        page.close()
