"""What a reader sees: every notebook run in a real JupyterLab in a real Chromium.

For every notebook (discovered, in course order): open it, accept the kernel, run all
cells, wait for the kernel to go idle; no cell shows an error, every dashboard rendered.
Then every control of every dashboard is moved the way a person does (the mouse drags a
slider's handle, a dropdown gets another option, a number is typed into a text box) and the
dashboard's image and readout must change. Sliders must be wide enough to aim with, the
image must not cut text at its edge. The browser console must stay free of every error and
warning, unfiltered, while the same test runs every notebook and moves every control (issue 33:
no version warning from an extension built for another JupyterLab; issue 50: one Run All for
both), and the book's pages are held to the same. The notebook is then saved, closed and reopened: its dashboards must still show
(JupyterLab saves the widget state, see jupyter-config/), never "model not found".

Run: `.venv/bin/python -m pytest -m browser tests/test_browser.py`. The accessibility pass
(test_notebook_in_jupyterlab_passes_axe_and_works_by_keyboard: axe, every control by keyboard
with what a screen reader is told, again at 650 px) took 11 minutes for the 13
notebooks on a 2-core machine shared with other work (16 to 107 s a notebook). A slider's
spoken words are read from AT-SPI, the tree a Linux screen reader reads, in a Chromium that
runs headed on a virtual display (tests/screen_reader.py); names and roles from DevTools.
A machine without Chromium skips these tests with a note on how to get one; with CI=true a
missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import functools
import html.parser
import http.server
import io
import json
import os
import subprocess
import sys
import threading
import urllib.parse
from dataclasses import dataclass

import browser_lab as bl
import numpy as np
import pytest
import screen_reader as sr

pytestmark = pytest.mark.browser

NOTEBOOK_NAMES = [p.name for p in bl.notebook_paths()]
STATIC_NOTE_START = "Interactive dashboard: run this notebook"


# The browser's fixtures are the session's (one per pytest-xdist worker), not a module's:
# `course.py test` runs the browser tests in one run with the notebooks, the sandbox and the
# hub, and a worker that went from a browser test to another module's and back would stop
# and start JupyterLab, Chromium and the virtual display each time (a module's fixtures end
# when its tests give way to another module's). browser_executable and playwright_api are
# tests/conftest.py's, shared with the slides' tests.
@pytest.fixture(scope="session")
def lab():
    with bl.jupyter_lab() as running:
        yield running


@pytest.fixture(scope="session")
def context(playwright_api, browser_executable):
    with bl.chromium(playwright_api, browser_executable) as ctx:
        yield ctx


@pytest.fixture(scope="session")
def listening(playwright_api, browser_executable, request):
    """(a Chromium context, the AT-SPI reader of what a screen reader hears in it).

    On Linux the reader is AT-SPI on a virtual display (tests/screen_reader.py); elsewhere,
    or without Xvfb and AT-SPI, it is None and the keyboard test falls back to DevTools'
    tree (a failure with CI=true, where .ci/run installs what the check needs)."""
    why = sr.missing()
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {why}")
        yield request.getfixturevalue("context"), None
        return
    with sr.desktop() as desk, bl.chromium(playwright_api, browser_executable, desktop=desk) as ctx:
        reader = sr.AtSpi(desk.bus_address)
        try:
            yield ctx, reader
        finally:
            reader.close()


#: the notebooks whose saved widget state is checked by a reopen (the first and the last)
REOPENED = NOTEBOOK_NAMES[:1] + NOTEBOOK_NAMES[-1:]


def _per_notebook(names):
    """The notebooks as parameters, each in its own xdist group: the tests of one notebook run
    on one worker, one after the other, and share its one Run All (:class:`RunAllOnce`)."""
    return [pytest.param(n, marks=pytest.mark.xdist_group(f"jupyterlab-{n}")) for n in names]


class RunAllOnce:
    """One Run All per notebook (issue 50): the notebook opened in JupyterLab and run once,
    then read by each of its tests in turn: axe, the keyboard and the screen reader first (on
    the page as Run All left it), then the mouse's redraws and the console, then, for
    :data:`REOPENED`, the save and reopen. Each test still runs every check it ran on a page
    of its own and reports its problems under its own name.

    One notebook is open at a time (a worker's kernel and page): asking for another shuts the
    last one's kernel down. A test that fails discards the page (:meth:`discard`), so the next
    one starts from a fresh Run All rather than from whatever the failure left."""

    def __init__(self, lab, context) -> None:
        self.lab, self.context = lab, context
        self.name: str | None = None
        self.page = None
        self.console: bl.Console | None = None
        self.readers = 0  # the tests that have read the open page

    def open(self, name: str, shot: str, *, fresh: bool = False):
        """(page, console) of ``name`` after its Run All, reusing this worker's if it is open
        (``fresh``: only if no test has read it yet); the console holds every message since
        the page was opened."""
        reuse = self.name == name and self.page is not None and not self.page.is_closed()
        if reuse and not (fresh and self.readers):
            self.readers += 1
            return self.page, self.console
        self.discard()
        page = self.context.new_page()
        console = bl.Console()
        console.attach(page)
        self.name, self.page, self.console, self.readers = name, page, console, 1
        try:
            bl.open_notebook(page, self.lab, name)
            bl.run_all(page)
        except bl.PlaywrightError as error:
            heard = "\nbrowser console:\n" + "\n".join(console.messages) if console.messages else ""
            message = _problem(
                page, shot, f"{name}: Run All: {type(error).__name__}: {error}{heard}"
            )
            self.discard()
            pytest.fail(message)
        return page, console

    def release(self) -> None:
        """Forget the open page (its test closes it, its kernel left running)."""
        self.name, self.page, self.console = None, None, None

    def discard(self) -> None:
        """Shut the open notebook's kernel down and close its page (nothing when none is)."""
        page, self.name, self.page, self.console = self.page, None, None, None
        if page is None:
            return
        with contextlib.suppress(Exception):
            bl.shut_down_kernel(page)
        with contextlib.suppress(Exception):
            page.close()


@pytest.fixture(scope="session")
def run_all_once(lab, listening):
    """This worker's :class:`RunAllOnce`, in the Chromium that the screen reader listens to
    (the keyboard test needs it; the redraw test runs there too, so both read one page)."""
    context, _ = listening
    opened = RunAllOnce(lab, context)
    try:
        yield opened
    finally:
        opened.discard()


@contextlib.contextmanager
def _kept_unless_failed(opened: RunAllOnce, done: bool):
    """Around a test's use of the shared page: a failure (an assertion, pytest.fail, a
    Playwright error) discards it; ``done`` (the notebook's last test) closes it anyway."""
    passed = False
    try:
        yield
        passed = True
    finally:
        if done or not passed:
            opened.discard()


def _fail(page, name: str, message: str, locator=None) -> None:
    pytest.fail(_problem(page, name, message, locator))


def _problem(page, name: str, message: str, locator=None) -> str:
    """The message with a screenshot (the dashboard in view) saved under build/."""
    if locator is not None:
        with contextlib.suppress(Exception):
            locator.scroll_into_view_if_needed(timeout=10_000)
    shot = bl.screenshot(page, name)
    return f"{message}\n  screenshot: {shot}"


def _png_edges_dark(data: bytes) -> dict[str, int]:
    """How many dark pixels touch each edge of a PNG (text cut at the edge)."""
    import matplotlib.image as mpimg

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
    root = dashboard.element_handle()  # read through one handle: a locator call is dearer
    before = bl.dashboard_state(root)
    src, readout = before["src"], before["readout"]
    done = bl.move(page, kind, control)
    if not done:
        return 0
    try:
        bl.wait_for_change(page, root, src, readout, bl.REDRAW_TIMEOUT_MS)
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
    return 0 if bl.dashboard_state(root)["refused"] else 1


@pytest.mark.parametrize("name", _per_notebook(NOTEBOOK_NAMES))
def test_notebook_in_jupyterlab_passes_axe_and_works_by_keyboard(
    name, lab, listening, axe, run_all_once
):
    """axe-core on the course's content in JupyterLab after Run All (JupyterLab's own
    findings are written to build/axe-jupyterlab-<notebook>.json), every static figure's text
    alternative below it, and every dashboard driven by the keyboard alone. The notebook's
    first test on its Run All (:class:`RunAllOnce`): it sees the page as Run All left it."""
    _, platform = listening
    stem = name.removesuffix(".ipynb")
    page, _ = run_all_once.open(name, f"{stem}-a11y", fresh=True)
    problems: list[str] = []
    with _kept_unless_failed(run_all_once, done=False):
        _axe_and_keyboard(page, lab, axe, platform, name, stem, problems)


@pytest.mark.parametrize("name", _per_notebook(NOTEBOOK_NAMES))
def test_notebook_runs_every_control_redraws_and_the_console_stays_clean(name, run_all_once):
    """Open the notebook, Run All, move every control: each move redraws, and the browser
    console holds no error, no warning and no uncaught page error at all. Unfiltered: every
    message fails, whoever logs it (a JupyterLab extension built for another JupyterLab logs
    a version warning on every page: issue 33). One Run All serves both checks (issue 50:
    they were two tests doing the same moves); a console message is reported by its text,
    after the redraw problems, and the other JupyterLab tests leave the console to this one.
    The notebook's second test on its Run All (:class:`RunAllOnce`), after the keyboard test:
    it moves every control from where that test left it (the console holds every message since
    the page opened)."""
    stem = name.removesuffix(".ipynb")
    page, console = run_all_once.open(name, stem)
    problems: list[str] = []  # every defect found, each with its screenshot
    with _kept_unless_failed(run_all_once, done=name not in REOPENED):
        try:
            page.set_viewport_size({"width": 1300, "height": 900})  # the keyboard test narrowed it
            _redraw_problems(page, run_all_once.lab, name, stem, problems)
            if console.messages:
                problems.append(
                    _problem(
                        page, f"{stem}-console", "browser console:\n" + "\n".join(console.messages)
                    )
                )
            assert not problems, f"{name}:\n" + "\n".join(problems)
        except bl.PlaywrightError as error:
            # a wait that timed out, an element that vanished: the screenshot shows where
            heard = "\nbrowser console:\n" + "\n".join(console.messages) if console.messages else ""
            _fail(page, stem, f"{name}: {type(error).__name__}: {error}{heard}")


def _redraw_problems(page, lab, name: str, stem: str, problems: list[str]) -> None:
    """The redraw test's checks on the page after Run All (problems appended)."""
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
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
        png = bl.dashboard_png(dashboard)
        if not png.startswith(b"\x89PNG\r\n\x1a\n"):
            problems.append(_problem(page, f"{stem}-d{d + 1}", f"{where}: no image", dashboard))
            continue
        edges = _png_edges_dark(png)
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
        for kind, control in bl.moving_order(found):
            image_changes += _move_and_check(
                page, f"{stem}-d{d + 1}", where, dashboard, kind, control, problems
            )
        if image_changes == 0:
            problems.append(f"{where}: no control produced a new image")
        problems += _details_problems(page, f"{stem}-d{d + 1}", where, dashboard, found)


def _details_problems(page, shot, where, dashboard, found) -> list[str]:
    """A dashboard's details button (``Dashboard(details=...)``): Enter on it shows the text,
    and the button then says "Hide" and aria-expanded="true" for the region it controls; a
    control moved while it is open changes the text and leaves it open; Enter again hides it
    and the button says so. Each state is waited for (the kernel's messages come one by one)."""
    buttons = dashboard.locator(".course-details-toggle")
    if not buttons.count():
        return []
    button, details = buttons.first, dashboard.locator(".course-details").first
    problems: list[str] = []
    if details.is_visible():
        problems.append(f"{where}: the details show before their button is pressed")

    def wait_for_state(expanded: bool, word: str) -> bool:
        try:
            page.wait_for_function(
                """([b, want, word]) => b.getAttribute('aria-expanded') === want
                     && b.textContent.trim().startsWith(word)""",
                arg=[button.element_handle(), "true" if expanded else "false", word],
                timeout=bl.REDRAW_TIMEOUT_MS,
            )
            return True
        except bl.PlaywrightError:
            return False

    if not wait_for_state(False, "Show"):
        problems.append(
            f"{where}: the closed details button says {button.inner_text()!r}, aria-expanded "
            f"{button.get_attribute('aria-expanded')!r}"
        )
    button.focus()
    page.keyboard.press("Enter")
    try:
        details.wait_for(state="visible", timeout=bl.REDRAW_TIMEOUT_MS)
    except bl.PlaywrightError:
        return [_problem(page, shot, f"{where}: Enter on the details button shows nothing")]
    if not wait_for_state(True, "Hide"):
        problems.append(
            f"{where}: the open details button says {button.inner_text()!r}, aria-expanded "
            f"{button.get_attribute('aria-expanded')!r}"
        )
    controls = button.get_attribute("aria-controls")
    if not controls or details.get_attribute("id") != controls:
        problems.append(f"{where}: the details button controls {controls!r}, not its panel")
    if details.get_attribute("role") != "region" or not details.get_attribute("aria-label"):
        problems.append(f"{where}: the details panel is not a named region")
    before = details.inner_text()
    if len(before) < 100:
        problems.append(f"{where}: the details read only {before!r}")
    movable = [(k, c) for k, c in found if k in ("slider", "dropdown") and not bl.is_disabled(k, c)]
    if movable:
        kind, control = movable[0]
        src, readout = bl.dashboard_image(dashboard), bl.dashboard_readout(dashboard)
        (control if kind == "dropdown" else control.locator(".noUi-handle").first).focus()
        at_end = page.evaluate(
            """() => { const e = document.activeElement;
              if (e.tagName === 'SELECT') return e.selectedIndex === e.options.length - 1;
              return e.getAttribute('aria-valuenow') === e.getAttribute('aria-valuemax'); }"""
        )
        page.keyboard.press(KEYS[kind][1 if at_end else 0])
        bl.wait_for_change(page, dashboard, src, readout, bl.REDRAW_TIMEOUT_MS)
        page.wait_for_function(
            "([e, old]) => e.innerText !== old", arg=[details.element_handle(), before],
            timeout=bl.REDRAW_TIMEOUT_MS,
        )  # fmt: skip
        if not details.is_visible():
            problems.append(f"{where}: moving a control closed the details")
    button.focus()
    page.keyboard.press("Enter")
    details.wait_for(state="hidden", timeout=bl.REDRAW_TIMEOUT_MS)
    if not wait_for_state(False, "Show"):
        problems.append(f"{where}: the details closed, yet the button says {button.inner_text()!r}")
    return problems


_CURRENT_TAB = ".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel"
_HEADING_TOP = """(text) => {
  const h = [...document.querySelectorAll('.jp-MarkdownViewer h2')]
    .find(e => e.offsetParent !== null && e.textContent.startsWith(text));
  return h ? h.getBoundingClientRect().top : null;
}"""


def test_notation_and_reference_links_open_in_jupyterlab(lab, context):
    """JupyterLab serves the repository's root (course.py lab's arguments), so a notebook's
    ../NOTATION.md opens NOTATION, and ../README.md#references opens the README, rendered,
    at its References."""
    page = context.new_page()
    console = bl.Console()
    console.attach(page)
    name = "01_prior.ipynb"
    try:
        page.goto(f"{lab.url}/?token={lab.token}")  # the start page is the notebooks' folder
        page.wait_for_selector(".jp-DirListing-item", timeout=bl.RUN_ALL_TIMEOUT_MS)
        assert page.url.endswith("/lab/tree/notebooks"), page.url
        listed = page.locator(".jp-DirListing-itemText").all_inner_texts()
        assert name in listed, listed
        bl.open_notebook(page, lab, name)
        notebook = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown"
        page.locator(f"{notebook} a", has_text="NOTATION.md").first.click()
        page.wait_for_function(
            f"() => document.querySelector('{_CURRENT_TAB}')?.textContent === 'NOTATION.md'",
            timeout=60_000,
        )
        page.locator(".lm-TabBar-tab .lm-TabBar-tabLabel", has_text=name).first.click()
        page.locator(f"{notebook} a[href*='README.md']").first.click()
        page.wait_for_function(
            f"() => document.querySelector('{_CURRENT_TAB}')?.textContent === 'README.md'",
            timeout=60_000,
        )
        # rendered (not the Markdown source) and scrolled to the heading the link names
        page.wait_for_function(
            f"() => {{ const top = ({_HEADING_TOP})('References'); "
            "return top !== null && top >= 0 && top < 250; }",
            timeout=60_000,
        )
        assert console.messages == [], "browser console:\n" + "\n".join(console.messages)
    except bl.PlaywrightError as error:
        _fail(page, "links", f"links from {name}: {type(error).__name__}: {error}")
    finally:
        with contextlib.suppress(Exception):
            # the Kernel menu acts on the current tab: back to the notebook first (from
            # README.md's tab the shut-down never came, and its wait ran out: 300 s)
            page.locator(".lm-TabBar-tab .lm-TabBar-tabLabel", has_text=name).first.click()
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
        if console.messages:
            _fail(page, f"book-{name}", f"{path}: browser console:\n" + "\n".join(console.messages))
    finally:
        page.close()


# --- accessible to every student: axe-core on the website and in JupyterLab, the keyboard ---
#
# axe-core (its npm package, fetched once into build/, see browser_lab.axe_source) checks the
# WCAG 2.0/2.1 A and AA rules. A violation of impact serious or critical fails, unless it is
# one listed below with its reason (README, "Accessibility", lists the same).

#: the website's theme (pydata-sphinx-theme 0.17.1 under sphinx-book-theme 1.3.0): its own
#: buttons, on every page, not the course's content
THEME_FINDINGS = {
    ("label-content-name-mismatch", "search-button__button"): (
        "the theme's search buttons are named 'Search' (aria-label) but show 'Search Ctrl+K'"
    ),
    ("label-content-name-mismatch", "theme-switch-button"): (
        "the theme's light/dark switch is named 'Color mode' but shows only icons titled "
        "'Light', 'Dark' and 'System Settings'"
    ),
}

#: in JupyterLab, findings in the course's own outputs that the front end causes and the
#: kernel cannot change
UPSTREAM_FINDINGS = {
    ("image-alt", "jp-RenderedImage"): (
        "JupyterLab 4.4 draws an image/png output as an <img> without alt, whatever the "
        "output's metadata holds (jupyter/enhancement-proposals#120); each static figure's "
        "text alternative is the markdown line below it (checked here) and the image's alt on "
        "the website; dashboard images carry their own alt"
    ),
}

#: the course's own content in JupyterLab: outputs (figures, tables, dashboards) and
#: rendered markdown; the rest of the page is JupyterLab's
COURSE_CONTENT = [
    ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output",
    ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownCell .jp-RenderedMarkdown",
]

KEYS = {"slider": ("ArrowRight", "ArrowLeft"), "dropdown": ("ArrowDown", "ArrowUp")}

#: the narrow window of the second keyboard pass: about what a 1300 px laptop window shows at
#: 200 % zoom (WCAG 1.4.4, 1.4.10), with JupyterLab's file browser open as it opens by default
NARROW_WINDOW = {"width": 650, "height": 900}
#: a slider's track on a narrow line: long enough to aim at with a pointer
MIN_NARROW_TRACK_PX = 120


@pytest.fixture(scope="module")
def axe():
    """axe-core's script: installed from npm on first use, skipped with a hint without npm
    (a failure with CI=true)."""
    try:
        return bl.axe_source()
    except FileNotFoundError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {error}")
        pytest.skip(str(error))


def _listing(violations: list[dict]) -> str:
    return "\n".join(f"  {v['id']} ({v['impact']}): {v['target']}: {v['help']}" for v in violations)


def _site_pages(site) -> list[str]:
    """Every page of the website but the redirect (index.html sends the reader to intro)."""
    return [
        str(p.relative_to(site))
        for p in _pages(site)
        if 'http-equiv="Refresh"' not in p.read_text(encoding="utf-8")[:2000]
    ]


def test_book_pages_pass_axe(book, site_server, context, axe):
    """Every page of the website, in Chromium: no serious or critical WCAG A/AA violation
    but the theme's own, listed in THEME_FINDINGS."""
    _, _, site = book
    pages = _site_pages(site)
    assert len(pages) >= len(NOTEBOOK_NAMES) + 3
    page = context.new_page()
    page.route(f"{MATHJAX_CDN}**", lambda r: r.fulfill(status=200, body="/* offline */"))
    problems = []
    try:
        for path in pages:
            page.goto(f"{site_server}/{path}", wait_until="load")
            violations = bl.run_axe(page, axe)["violations"]
            bad = bl.failing(violations, THEME_FINDINGS)
            if bad:
                problems.append(f"{path}:\n{_listing(bad)}")
    finally:
        page.close()
    assert problems == [], "axe-core on the website:\n" + "\n".join(problems)


def test_book_figures_have_text_alternatives(book):
    """Every image on a notebook page has a description as its alt (MyST-NB takes it from
    the cell metadata), never its own file name."""
    from helpers.plotting._alt import alt_text_problem

    _, _, site = book
    problems = []
    for name in NOTEBOOK_NAMES:
        path = site / "notebooks" / name.replace(".ipynb", ".html")
        parser = _Images()
        parser.feed(path.read_text(encoding="utf-8"))
        for src, alt in parser.images:
            problem = alt_text_problem(alt)
            if problem:
                problems.append(f"{path.name}: {src}: {problem[:120]}")
    assert problems == [], (
        "figures without a text alternative on the website (run `python -m "
        "helpers.figures.alt_text apply notebooks/*.ipynb`):\n" + "\n".join(problems)
    )


class _Images(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            a = dict(attrs)
            self.images.append((a.get("src", ""), a.get("alt") or ""))


def _keyboard_problems(page, shot, where, dashboard) -> list[str]:
    """Tab reaches every enabled control in order with a visible focus ring; the arrow keys
    on the first slider (else dropdown) redraw the image, its alt text and the readout."""
    problems = []
    controls, stops = bl.tab_through(page, dashboard)
    enabled = [i for i, c in enumerate(controls) if not c["disabled"]]
    reached = [s["control"] for s in stops if s["control"] >= 0]
    missing = [controls[i]["label"] for i in enabled if i not in reached]
    if missing:
        problems.append(f"{where}: Tab never reaches {missing}")
    if reached != sorted(reached):
        problems.append(f"{where}: Tab visits the controls out of order: {reached}")
    unringed = {
        f"{s['tag']}.{s['cls'][:40]} (outline {s['outline']})" for s in stops if not s["ring"]
    }
    if unringed:
        problems.append(f"{where}: no visible focus on {sorted(unringed)}")

    found = bl.controls(dashboard)
    order = {"slider": 0, "dropdown": 1, "text": 2}
    candidates = sorted(
        (
            (order[kind], index, kind)
            for index, (kind, control) in enumerate(found)
            if kind in KEYS and not bl.is_disabled(kind, control)
        ),
    )
    if not candidates:
        return [*problems, f"{where}: no slider or dropdown to drive with the keyboard"]
    _, index, kind = candidates[0]
    control = found[index][1]
    box = control.evaluate(
        "e => Number((e.closest('[data-course-control]') || e).getAttribute('data-course-control'))"
    )
    label = bl.control_label(kind, control)
    if not bl.tab_to(page, dashboard, box, kind):
        return [*problems, f"{where}: Tab never reaches the {kind} {label!r}"]
    src, readout, alt = (
        bl.dashboard_image(dashboard),
        bl.dashboard_readout(dashboard),
        bl.dashboard_alt(dashboard),
    )
    forward, backward = KEYS[kind]
    at_end = page.evaluate(
        """() => { const e = document.activeElement;
          if (e.tagName === 'SELECT') return e.selectedIndex === e.options.length - 1;
          return e.getAttribute('aria-valuenow') === e.getAttribute('aria-valuemax'); }"""
    )
    key = backward if at_end else forward
    page.keyboard.press(key)
    try:
        bl.wait_for_change(page, dashboard, src, readout, bl.REDRAW_TIMEOUT_MS)
    except bl.PlaywrightError:
        return [
            *problems,
            _problem(
                page,
                shot,
                f"{where}: {key} on the {kind} {label!r}: within "
                f"{bl.REDRAW_TIMEOUT_MS / 1000:.0f} s the image changed: "
                f"{bl.dashboard_image(dashboard) != src}, the readout changed: "
                f"{bl.dashboard_readout(dashboard) != readout}",
                dashboard,
            ),
        ]
    new_alt = bl.dashboard_alt(dashboard)
    if not bl.refused(dashboard) and (new_alt == alt or len(new_alt) < 40):
        problems.append(f"{where}: after {key} the image's alt text did not follow: {new_alt!r}")
    return problems


#: how long the platform tree may lag the page before a mismatch is reported (a guard: the
#: wait ends as soon as the screen reader's words equal the readout)
PLATFORM_LAG_LIMIT_S = 15.0


@dataclass
class Ears:
    """What a screen reader is told of the focused control.

    Name, role and state come from Chromium's DevTools tree (the same tree ATK exports). A
    slider's spoken value comes from the platform tree (AT-SPI, ``platform``) when there is
    one: the ``valuetext`` attribute a screen reader speaks in place of the number. DevTools'
    ``valuetext`` is one build's report (empty on Chromium 156.0.8078.114 for every slider),
    kept beside it for the failure message only."""

    cdp: object
    platform: sr.AtSpi | None

    def focused(self, shown: str) -> dict:
        heard = bl.ax_node(self.cdp, "document.activeElement") or {}
        if heard.get("role") != "slider":
            return heard
        heard["devtools_valuetext"] = heard.get("valuetext")
        if self.platform is None:
            if not heard.get("valuetext"):
                # no platform tree here and DevTools says nothing: the DOM's own words
                heard["valuetext"] = self.cdp.send(
                    "Runtime.evaluate",
                    {"expression": "document.activeElement.getAttribute('aria-valuetext')"},
                )["result"].get("value")
                heard["route"] = "the DOM (no AT-SPI here)"
            return heard
        name = heard.get("name")
        said = self.platform.wait_for(
            lambda s: s["name"] == name and (s["valuetext"] or s.get("text")) == shown,
            PLATFORM_LAG_LIMIT_S,
        )
        heard["route"] = "AT-SPI"
        if said is None or said["name"] != name:
            heard["valuetext"] = None
            heard["platform"] = said
        else:
            heard["valuetext"] = said["valuetext"] or said.get("text") or None
            heard["value"] = str(said["value"])
        return heard


def _hears_what_is_shown(ears: Ears, where: str, box, stop: dict) -> list[str]:
    """The focused control as a screen reader is told it: a name that starts with the visible
    label (WCAG 2.5.3) and says more than a symbol (the control's tooltip), and for a slider's
    handle the value as its readout shows it (AT-SPI's valuetext on Linux)."""
    seen = bl.shown(box)
    heard = ears.focused(seen["shown"])
    what = f"{where}, {stop['tag']}.{stop['cls'][:30]} of {seen['label']!r}"
    problems = []
    if not heard.get("name"):
        problems.append(f"{what}: no accessible name")
    elif seen["title"] and heard["name"] != seen["title"] and heard["role"] != "textbox":
        problems.append(f"{what}: named {heard['name']!r}, not {seen['title']!r}")
    elif seen["label"] and not heard["name"].startswith(seen["label"]):
        problems.append(f"{what}: named {heard['name']!r}, not starting with its label")
    # a screen reader speaks aria-valuetext when there is one, else the number
    said = heard.get("valuetext") or heard.get("value")
    if heard.get("role") == "slider" and said != seen["shown"]:
        problems.append(
            f"{what}: speaks {said!r} while the readout shows {seen['shown']!r} (read from "
            f"{heard.get('route')}; DevTools' valuetext {heard.get('devtools_valuetext')!r}; "
            f"the platform's focused slider {heard.get('platform')!r})"
        )
    if seen["disabled"]:
        problems.append(f"{what}: greyed out, yet reached by Tab")
    return problems


def _live_region_problems(page, cdp, where: str, dashboard) -> list[str]:
    """One polite status region in the dashboard."""
    regions = dashboard.locator(bl.STATUS_SELECTOR)
    if regions.count() != 1:
        return [f"{where}: {regions.count()} live regions, not one"]
    handle = regions.first.element_handle()
    page.evaluate("(e) => e.setAttribute('data-course-status', '')", handle)
    region = bl.ax_node(cdp, "document.querySelector('[data-course-status]')")
    page.evaluate("(e) => e.removeAttribute('data-course-status')", handle)
    if region is None or region.get("role") != "status" or region.get("live") != "polite":
        return [f"{where}: the live region is {region!r}, not role=status, aria-live=polite"]
    return []


def _said_after_the_change(page, root, timeout_ms: int) -> str:
    """Wait until the live region holds a line of the readout (or the refusal); its text.
    ``root``: the dashboard's element handle."""
    page.wait_for_function(
        """(root) => {
          const region = root.querySelector('.course-status');
          const readout = root.querySelector('.widget-html');
          if (!region || !readout) return false;
          const said = region.textContent.trim();
          const norm = (t) => t.split(/\\s+/).filter(Boolean).join(' ');
          if (said.startsWith('Refused: ')) return true;
          return said !== '' && readout.innerText.split('\\n').map(norm).includes(norm(said));
        }""",
        arg=root,
        timeout=timeout_ms,
        polling="raf",
    )
    return bl.dashboard_state(root)["live"]


def _screen_reader_problems(page, ears: Ears, where: str, dashboard) -> list[str]:
    """Issue 42's keyboard pass: Tab through the dashboard reading, at every stop, what
    Chromium's accessibility tree says (name, role, value, disabled); then every enabled
    control is moved by its key, and after each move the focused control speaks its new
    readout and the live region says a line of the new readout (or the refusal)."""
    problems = _live_region_problems(page, ears.cdp, where, dashboard)
    # the dashboard and its control boxes as element handles: a call on a handle is one
    # round trip, a locator's resolves its selector through the whole page first
    root = dashboard.element_handle()
    page.evaluate(bl._MARK_CONTROLS, [root, bl._CONTROL_BOXES])
    boxes = root.query_selector_all("[data-course-control]")
    bl._start_before(page, root)
    stops = 0
    for _ in range(80):
        page.keyboard.press("Tab")
        stop = page.evaluate(bl._ACTIVE, root)
        if stop is None:
            if stops:
                break
            continue
        stops += 1
        if stop["control"] >= 0:
            problems += _hears_what_is_shown(ears, where, boxes[stop["control"]], stop)
    bl._end_start(page)

    keys = {"slider": "ArrowRight", "dropdown": "ArrowDown", "checkbox": "Space"}
    for kind, control in bl.controls(dashboard, checkboxes=True):
        if kind not in keys or bl.is_disabled(kind, control):
            continue
        box_index = control.evaluate(
            "e => Number(e.closest('[data-course-control]').getAttribute('data-course-control'))"
        )
        label = bl.control_label(kind, control)
        if not bl.tab_to(page, root, box_index, kind):
            problems.append(f"{where}: Tab never reaches the {kind} {label!r}")
            continue
        key = keys[kind]
        at_end = page.evaluate(
            """() => { const e = document.activeElement;
              if (e.tagName === 'SELECT') return e.selectedIndex === e.options.length - 1;
              return e.getAttribute('aria-valuenow') === e.getAttribute('aria-valuemax'); }"""
        )
        if at_end:
            key = {"ArrowRight": "ArrowLeft", "ArrowDown": "ArrowUp"}.get(key, key)
        back = {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight"}
        back |= {"ArrowDown": "ArrowUp", "ArrowUp": "ArrowDown", "Space": "Space"}
        box = root.query_selector(f"[data-course-control='{box_index}']")  # tab_to marked it
        problems += _press_and_listen(page, ears, where, root, box, box_index, label, key)
        if bl.dashboard_state(root)["refused"]:
            # the way back out of a refusal is spoken too (and the next control starts
            # from a result, not from the same refusal, which would not change)
            problems += _press_and_listen(page, ears, where, root, box, box_index, label, back[key])
    return problems


#: a log slider's step can be smaller than what its readout shows (n = 18 → 18.4 reads
#: "18"): a reader presses again; so does the test, up to this many times
MAX_PRESSES_TO_CHANGE_A_READOUT = 8


def _press_and_listen(page, ears, where, root, box, box_index, label, key) -> list[str]:
    """Press ``key`` on the focused control until what it shows changes; the dashboard must
    redraw, its live region say a line of the new readout (or the refusal), and the control
    speak its new value. ``root`` and ``box``: the dashboard's and the control's element
    handles."""
    state = bl.dashboard_state(root)
    src, readout = state["src"], state["readout"]
    if state["refused"]:
        # out of a refusal, back to the last result: the image may be the one still shown
        src = ""
    before = bl.shown(box)["shown"]
    for _ in range(MAX_PRESSES_TO_CHANGE_A_READOUT):
        page.keyboard.press(key)
        if bl.shown(box)["shown"] != before:
            break
    try:
        bl.wait_for_change(page, root, src, readout, bl.REDRAW_TIMEOUT_MS)
        said = _said_after_the_change(page, root, bl.REDRAW_TIMEOUT_MS)
    except bl.PlaywrightError:
        return [
            f"{where}: {key} on {label!r} ({before!r} → {bl.shown(box)['shown']!r}): no redraw "
            f"with its live region saying a line of the readout "
            f"(it says {bl.dashboard_state(root)['live']!r})"
        ]
    problems = []
    if not said or "\n" in said:
        problems.append(f"{where}: after {key} on {label!r} the live region says {said!r}")
    stop = page.evaluate(bl._ACTIVE, root) or {"tag": "?", "cls": "", "control": -1}
    if stop["control"] == box_index:
        problems += _hears_what_is_shown(ears, f"{where}, after {key}", box, stop)
    return problems


def _reflow_problems(page, shot: str, where: str, dashboard) -> list[str]:
    """In a narrow window: no control sticks out of the notebook's output area, every
    slider keeps a track to aim at, and the image keeps its legible width (it scrolls)."""
    found = page.evaluate(
        """(root) => {
          const area = root.closest('.jp-OutputArea-output').getBoundingClientRect();
          const out = [];
          root.querySelectorAll('.widget-slider, .widget-dropdown, .widget-text, .widget-checkbox')
            .forEach((b) => {
              const r = b.getBoundingClientRect();
              const label = (b.querySelector('.widget-label')?.textContent || '').trim();
              const track = b.querySelector('.noUi-target');
              out.push({label: label, right: r.right, left: r.left, areaRight: area.right,
                        areaLeft: area.left, track: track ? track.getBoundingClientRect().width : null});
            });
          const img = root.querySelector('.widget-output img');
          return {controls: out, img: img ? {width: img.getBoundingClientRect().width,
                  natural: img.naturalWidth, least: parseFloat(img.style.minWidth)} : null};
        }""",
        dashboard.element_handle(),
    )
    problems = []
    for c in found["controls"]:
        # ipywidgets' own 2 px margin around every widget (+1 for rounding) is not content
        if c["right"] > c["areaRight"] + 3 or c["left"] < c["areaLeft"] - 3:
            problems.append(
                f"{where}: {c['label']!r} sticks out of the notebook "
                f"({c['left']:.0f}-{c['right']:.0f} px, output {c['areaLeft']:.0f}-{c['areaRight']:.0f})"
            )
        if c["track"] is not None and c["track"] < MIN_NARROW_TRACK_PX:
            problems.append(f"{where}: {c['label']!r} track {c['track']:.0f} px")
    img = found["img"]
    # the legible width the kernel computed from the figure's smallest text (min-width)
    if img and not img["width"] >= min(img["least"], img["natural"]) - 1:
        problems.append(
            f"{where}: image drawn {img['width']:.0f} px wide, below its legible "
            f"{img['least']} px (of {img['natural']} px)"
        )
    if problems:
        problems[-1] = _problem(page, shot, problems[-1], dashboard)
    return problems


def _axe_and_keyboard(page, lab, axe, platform, name, stem, problems) -> None:
    """The keyboard test's checks on the page after Run All (they fail the test)."""
    import nbformat

    from helpers.figures import alt_text as alt_tool

    try:
        page.set_viewport_size({"width": 1300, "height": 900})  # as a new page opens
        content = bl.run_axe(page, axe, include=COURSE_CONTENT)
        bad = bl.failing(content["violations"], UPSTREAM_FINDINGS)
        if bad:
            problems.append(
                f"{name}: axe-core {content['version']} on the course's content:\n{_listing(bad)}"
            )
        missing_alt = alt_tool.check(nbformat.read(lab.notebooks / name, as_version=4))
        if missing_alt:
            problems.append(
                f"{name}: figures without their text alternative below them (JupyterLab "
                "shows no alt):\n  " + "\n  ".join(missing_alt)
            )
        whole = bl.run_axe(page, axe)
        bl.BUILD.mkdir(exist_ok=True)
        (bl.BUILD / f"axe-jupyterlab-{stem}.json").write_text(
            json.dumps({"content": content, "page": whole}, indent=1, ensure_ascii=False)
        )
        ears = Ears(bl.ax_session(page), platform)
        for d, dashboard in enumerate(bl.dashboards(page)):
            where = f"{name}, dashboard {d + 1}"
            problems += _keyboard_problems(page, f"{stem}-keyboard-d{d + 1}", where, dashboard)
            problems += _screen_reader_problems(page, ears, where, dashboard)
        # again in a narrow window (200 % zoom with the file browser open): what the width can
        # change, the layout (reflow), what Tab reaches, in which order, with a visible ring,
        # and a key's redraw. What a screen reader is told (names, spoken values, the live
        # region) is the accessibility tree's, which the width does not change: the wide pass
        # above heard every control, and hearing each one again here doubled the test (issue 50)
        page.set_viewport_size(NARROW_WINDOW)
        for d, dashboard in enumerate(bl.dashboards(page)):
            where = f"{name}, dashboard {d + 1}, {NARROW_WINDOW['width']} px window"
            dashboard.scroll_into_view_if_needed()
            problems += _reflow_problems(page, f"{stem}-narrow-d{d + 1}", where, dashboard)
            problems += _keyboard_problems(page, f"{stem}-narrow-keys-d{d + 1}", where, dashboard)
        # the course's own widgets: a markdown table or an equation may scroll on a line this
        # narrow (WCAG 1.4.10 allows content that needs two dimensions); a dashboard may not
        count = len(bl.dashboards(page))
        if count:
            selectors = [f"[data-course-dashboard='{i}']" for i in range(count)]
            narrow = bl.run_axe(page, axe, include=selectors)
            bad = bl.failing(narrow["violations"], {})
            if bad:
                problems.append(
                    f"{name}, narrow window: axe-core on the dashboards:\n{_listing(bad)}"
                )
        assert not problems, "\n".join(problems)
    except bl.PlaywrightError as error:
        _fail(page, f"{stem}-a11y", f"{name}: {type(error).__name__}: {error}")


@pytest.mark.parametrize("name", _per_notebook(REOPENED))
def test_saved_and_reopened_notebook_still_shows_its_dashboards(name, run_all_once):
    """After a save and a reopen (what autosave does to a reader), no 'model not found'.
    The notebook's last test on its Run All (:class:`RunAllOnce`): it saves that page, closes
    it, and opens the notebook again in a new one."""
    source = (bl.NOTEBOOKS / name).read_text()
    if "_dashboard(" not in source:
        pytest.skip(f"{name} has no dashboard")
    stem = name.removesuffix(".ipynb") + "-reopened"
    page, _ = run_all_once.open(name, stem)
    context = page.context
    try:
        page.set_viewport_size({"width": 1300, "height": 900})  # as a new page opens
        count = len(bl.dashboards(page))
        bl.menu(page, "File", "Save Notebook")
        page.wait_for_function(
            "() => !document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')",
            timeout=bl.RUN_ALL_TIMEOUT_MS,
        )
    except bl.PlaywrightError as error:
        message = _problem(page, stem, f"{name} saved: {type(error).__name__}: {error}")
        run_all_once.discard()  # after the screenshot: the page is closed with it
        pytest.fail(message)
    # closed without shutting its kernel down, as a reader closes a tab
    run_all_once.release()
    page.close()
    page = context.new_page()
    console = bl.Console()
    console.attach(page)
    try:
        bl.open_notebook(page, run_all_once.lab, name)
        page.wait_for_function(
            f"() => document.querySelectorAll('.jp-OutputArea-output .widget-output img')"
            f".length >= {count}",
            timeout=bl.RUN_ALL_TIMEOUT_MS,
        )
        text = page.locator(".jp-NotebookPanel").inner_text()
        if "Error displaying widget" in text or "model not found" in text:
            _fail(page, stem, f"{name}: reopened notebook shows 'Error displaying widget'")
        assert len(bl.dashboards(page)) == count
        if console.messages:
            _fail(page, stem, f"{name} reopened: browser console:\n" + "\n".join(console.messages))
    except bl.PlaywrightError as error:
        _fail(page, stem, f"{name} reopened: {type(error).__name__}: {error}")
    finally:
        with contextlib.suppress(Exception):
            bl.shut_down_kernel(page)
        page.close()


#: a page with nothing of the course's on it: the route itself is what is tested
_PLAIN_SLIDERS = """<!doctype html><html lang="en"><body><main>
<div role="slider" tabindex="0" aria-label="share" aria-valuemin="0" aria-valuemax="100"
     aria-valuenow="30" aria-valuetext="±30 %">30</div>
<div role="slider" tabindex="0" aria-label="ε" aria-valuemin="0" aria-valuemax="1"
     aria-valuenow="0.5">0.5</div>
<input type="range" aria-label="ρ" min="0" max="1" step="0.05" value="0.25"
       aria-valuetext="0.25 (a quarter)"></main></body></html>"""


def test_what_a_screen_reader_hears_is_read_from_the_platform_tree(listening):
    """Issue 50 item 0: the keyboard tests' spoken value comes from AT-SPI (on Linux), the
    tree a screen reader reads, so a DevTools report that changes with the build cannot turn
    them red. On plain sliders, the platform says aria-valuetext where there is one (a
    non-ASCII one included) and the number where there is none; the words follow a change."""
    context, platform = listening
    if platform is None:
        pytest.skip(f"no platform tree here: {sr.missing()}")
    page = context.new_page()
    try:
        page.set_content(_PLAIN_SLIDERS)
        expected = [("share", "±30 %", 30.0), ("ε", "0.5", 0.5), ("ρ", "0.25 (a quarter)", 0.25)]
        for index, (name, words, number) in enumerate(expected):
            page.locator("[aria-label]").nth(index).focus()
            heard = platform.wait_for(lambda s, n=name: s["name"] == n)
            assert heard is not None and heard["name"] == name, (name, heard, sr.versions())
            assert heard["valuetext"] == words, (heard, sr.versions())
            assert heard["value"] == pytest.approx(number), heard
        page.evaluate(
            """() => { const s = document.querySelector('[aria-label=share]');
                       s.setAttribute('aria-valuenow', '40');
                       s.setAttribute('aria-valuetext', '±40 %'); s.focus(); }"""
        )
        heard = platform.wait_for(lambda s: s["name"] == "share" and s["valuetext"] == "±40 %")
        assert heard is not None and heard["valuetext"] == "±40 %", (heard, sr.versions())
    finally:
        page.close()
