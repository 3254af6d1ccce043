"""A real JupyterLab driven by a real Chromium (Playwright): shared by the browser tests
(tests/test_browser.py) and the browser benchmark (benchmarks/bench_browser.py).

Nothing here depends on timing: every wait is for a condition in the page (a prompt
number, an image whose bytes changed), with a long time limit for busy CI machines.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
BUILD = ROOT / "build"
# the course's JupyterLab settings (saved widget state, no news pop-up); `course.py lab`
# uses the same directory, so the tests exercise what a reader gets
JUPYTER_CONFIG = ROOT / "jupyter-config"
#: the repository's pages the notebooks link to, served beside notebooks/ as in ``course.py lab``
LINKED_PAGES = ("README.md", "NOTATION.md")


@functools.cache
def _course():
    """The repository's course.py (its ``lab_arguments``: the tests start JupyterLab the same way)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("course", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
STATIC_NOTE_START = "Interactive dashboard: run this notebook"

# generous limits: CI machines are shared and busy; a condition that holds returns at once
LAB_START_TIMEOUT_S = 180
RUN_ALL_TIMEOUT_MS = 300_000
REDRAW_TIMEOUT_MS = 60_000
MIN_SLIDER_TRACK_PX = 250
MIN_CONTROL_PX = 150

HOW_TO_GET_A_BROWSER = (
    "no Chromium found for the browser tests. Get one with `apt-get install chromium` "
    "(Debian/Ubuntu), or `.venv/bin/python -m playwright install chromium`, or point the "
    "CHROMIUM environment variable at a Chrome/Chromium executable."
)

# Chromium flags: headless, and no background traffic (update checks, sync, field trials),
# which on a machine without internet fills the console with refused connections.
CHROMIUM_ARGS = [
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
]


try:
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # no playwright: the tests skip before they use it

    class PlaywrightError(Exception):
        pass


def notebook_paths() -> list[Path]:
    """Every numbered notebook, in course order (discovered, never listed by hand)."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


@functools.cache
def _playwright_chromium() -> str:
    """Where Playwright's own Chromium would be (asked once, before any browser runs: the
    sync API cannot start inside a running one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        return p.chromium.executable_path


def find_chromium() -> tuple[str | None, str]:
    """(executable or None for Playwright's own, where it came from); ('', reason) if none.

    Order: Playwright's own Chromium when installed, else $CHROMIUM, else the usual paths.
    """
    try:
        own = _playwright_chromium()
    except ImportError:
        return "", "playwright is not installed (it is pinned in requirements-dev.txt)"
    if own and Path(own).exists():
        return None, f"Playwright's Chromium at {own}"
    candidates = [os.environ.get("CHROMIUM", "")]
    candidates += [
        shutil.which(name) or ""
        for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    ]
    candidates += ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate, candidate
    return "", HOW_TO_GET_A_BROWSER


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    """A running JupyterLab on a temporary copy of the repository's reader-facing files:
    notebooks/ and the pages they link to (README.md, NOTATION.md), served from their root as
    ``course.py lab`` serves the repository."""

    url: str
    token: str
    notebooks: Path
    log: Path

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/notebooks/{name}?token={self.token}"


@contextlib.contextmanager
def jupyter_lab(python: str | None = None) -> Iterator[Lab]:
    """Start JupyterLab from the project's environment on 127.0.0.1, a free port and a
    random token, serving a temporary copy of notebooks/ (autosave cannot touch the
    committed notebooks); stop it on exit."""
    python = python or sys.executable
    tmp = Path(tempfile.mkdtemp(prefix="course-lab-"))
    notebooks = tmp / "root" / "notebooks"
    shutil.copytree(NOTEBOOKS, notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for page in LINKED_PAGES:  # the notebooks link to ../NOTATION.md and ../README.md#references
        shutil.copy(ROOT / page, tmp / "root" / page)
    shutil.copytree(ROOT / "figures", tmp / "root" / "figures")  # the README shows them
    port, token = _free_port(), secrets.token_hex(24)
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(tmp / "config"),  # no user config leaks in
        JUPYTER_CONFIG_PATH=str(JUPYTER_CONFIG),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
    )
    # attach every cell to the page (JupyterLab's default attaches only those in view), so
    # the page can be checked as a whole
    tracker = tmp / "settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    args = [
        python,
        "-m",
        "jupyterlab",  # this environment's own (`-m jupyter lab` runs the first on PATH)
        "--ip=127.0.0.1",
        f"--port={port}",
        "--port-retries=0",
        f"--IdentityProvider.token={token}",
        "--ServerApp.open_browser=False",
        "--no-browser",
        *_course().lab_arguments(root=tmp / "root"),
        "--LabApp.news_url=",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--allow-root")
    log = tmp / "lab.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + LAB_START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited: {log.read_text()[-3000:]}")
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"JupyterLab did not answer in {LAB_START_TIMEOUT_S} s: "
                        f"{log.read_text()[-3000:]}"
                    ) from None
                time.sleep(0.2)  # polling interval, not a correctness condition
        yield Lab(url=url, token=token, notebooks=notebooks, log=log)
    finally:
        stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def stop(proc: subprocess.Popen, timeout_s: float = 30) -> None:
    """Ask a process to end; kill it if it has not within ``timeout_s``."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def chromium(playwright, executable: str | None, *, desktop=None) -> Iterator[object]:
    """A fresh Chromium profile (temporary user-data-dir), 1300 × 900 like a laptop.

    With a ``desktop`` (``screen_reader.desktop()``), Chromium runs headed on its virtual
    display with its accessibility tree exported to AT-SPI, where a screen reader reads it."""
    args = list(CHROMIUM_ARGS)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    extra = {}
    if desktop is not None:
        args = [a for a in args if a != "--headless"] + ["--force-renderer-accessibility"]
        extra["env"] = desktop.env
    profile = tempfile.mkdtemp(prefix="course-chromium-")
    try:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=desktop is None,
            args=args,
            viewport={"width": 1300, "height": 900},
            **extra,
        )
        try:
            yield context
        finally:
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@dataclass
class Console:
    """Every console error/warning and uncaught page error, as text."""

    messages: list[str] = field(default_factory=list)

    def attach(self, page) -> None:
        page.on(
            "console",
            lambda m: (
                self.messages.append(f"console.{m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        page.on("pageerror", lambda e: self.messages.append(f"page error: {e}"))


# --- JupyterLab notebook driving ---------------------------------------------------------

# done: the kernel is idle and every code cell has its number, or a cell failed (Run All
# stops there; the test then reports the error instead of waiting out the time limit)
_ALL_PROMPTS_NUMBERED = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
  const status = panel.querySelector('.jp-Notebook-ExecutionIndicator');
  const idle = status !== null && status.dataset.status === 'idle';
  const running = prompts.some(p => /\\[\\*\\]/.test(p.textContent));
  const failed = panel.querySelector(
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']") !== null;
  return idle && !running
    && ((prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent))) || failed);
}"""

_NO_PROMPT_NUMBERED = """() => {
  const prompts = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
  return prompts.length > 0 && prompts.every(p => !/\\d/.test(p.textContent));
}"""


def menu(page, top: str, item: str) -> None:
    page.click(f".lm-MenuBar-itemLabel:text-is('{top}')")
    page.click(f"li.lm-Menu-item[data-command] .lm-Menu-itemLabel:text-is('{item}')")


_KERNEL_READY_OR_DIALOG = """() => {
  const dialog = document.querySelector('.jp-Dialog');
  if (dialog && /Select Kernel/.test(dialog.textContent)) return 'dialog';
  const items = [...document.querySelectorAll('.jp-StatusBar-TextItem')];
  return items.some(e => /\\| Idle$/.test(e.textContent.trim())) ? 'idle' : false;
}"""


def open_notebook(page, lab: Lab, name: str) -> None:
    """Open a notebook in a fresh workspace (no other tabs restored) and accept the kernel."""
    workspace = "w" + secrets.token_hex(4)
    page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/notebooks/{name}?token={lab.token}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=RUN_ALL_TIMEOUT_MS)
    state = page.wait_for_function(_KERNEL_READY_OR_DIALOG, timeout=RUN_ALL_TIMEOUT_MS)
    if state.json_value() == "dialog":
        # "Select Kernel: Python 3 (ipykernel)": accept, as a reader does
        page.click(".jp-Dialog button.jp-mod-accept")
        page.wait_for_function(
            _KERNEL_READY_OR_DIALOG.replace("return 'dialog'", "return false"),
            timeout=RUN_ALL_TIMEOUT_MS,
        )


def run_all(page) -> None:
    """Clear every output, run every cell, wait until every code cell has its number and
    the kernel is idle."""
    menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function(_NO_PROMPT_NUMBERED, timeout=RUN_ALL_TIMEOUT_MS)
    menu(page, "Run", "Run All Cells")
    page.wait_for_function(_ALL_PROMPTS_NUMBERED, timeout=RUN_ALL_TIMEOUT_MS, polling=200)


def dashboards(page):
    """Locators of every dashboard: the outermost widget of an output that holds a widget
    image (marked with a data attribute so the locator stays valid)."""
    count = page.evaluate(
        """() => {
          const roots = [...document.querySelectorAll('.jp-OutputArea-output .jupyter-widgets')]
            .filter(e => !e.parentElement.closest('.jupyter-widgets'))
            .filter(e => e.querySelector('.widget-output'));
          roots.forEach((e, i) => e.setAttribute('data-course-dashboard', String(i)));
          return roots.length;
        }"""
    )
    return [page.locator(f"[data-course-dashboard='{i}']") for i in range(count)]


def dashboard_image(dashboard) -> str:
    """The current image's src (a blob: URL, new on every redraw), '' if none."""
    img = dashboard.locator(".widget-output img")
    return img.first.get_attribute("src") or "" if img.count() else ""


def dashboard_png(dashboard) -> bytes:
    """The bytes the current image shows (read back from its blob: URL), b'' if none."""
    img = dashboard.locator(".widget-output img")
    if not img.count():
        return b""
    values = img.first.evaluate(
        """async (img) => {
          if (!img.src) return [];
          const buffer = await (await fetch(img.src)).arrayBuffer();
          return Array.from(new Uint8Array(buffer));
        }"""
    )
    return bytes(values)


def dashboard_readout(dashboard) -> str:
    html = dashboard.locator(".widget-html")
    return html.first.inner_text() if html.count() else ""


_STATE = """(root, statusSelector) => {
  const img = root.querySelector('.widget-output img');
  const html = root.querySelector('.widget-html');
  const status = root.querySelector(statusSelector);
  return {src: img === null ? '' : img.getAttribute('src') || '',
          readout: html === null ? '' : html.innerText,
          refused: root.querySelector(".widget-html pre[style*='color']") !== null,
          live: status === null ? '' : status.textContent};
}"""


def dashboard_state(dashboard) -> dict:
    """What :func:`dashboard_image`, :func:`dashboard_readout`, :func:`refused` and
    :func:`live_region` read, in one call: ``{"src", "readout", "refused", "live"}``.
    ``dashboard``: its locator or, cheaper, its element handle (1 ms a call on notebook 11's
    idle page, where each of the seven locator calls the four take resolves its selector
    through the whole page: 7 to 16 ms, more while the page redraws)."""
    state = dashboard.evaluate(_STATE, STATUS_SELECTOR)
    state["live"] = state["live"].strip()
    return state


def _element(target):
    """The element of a locator (resolved now), or the element handle given."""
    return target.element_handle() if hasattr(target, "element_handle") else target


def controls(dashboard, *, checkboxes: bool = False) -> list[tuple[str, object]]:
    """(kind, locator) of every control: sliders, text boxes, then dropdowns (and with
    ``checkboxes`` their inputs last)."""
    found = []
    sliders = dashboard.locator(".widget-slider")
    found += [("slider", sliders.nth(i)) for i in range(sliders.count())]
    texts = dashboard.locator(".widget-text input")
    found += [("text", texts.nth(i)) for i in range(texts.count())]
    # dropdowns last: they often switch which other controls apply
    selects = dashboard.locator(".widget-dropdown select")
    found += [("dropdown", selects.nth(i)) for i in range(selects.count())]
    if checkboxes:
        boxes = dashboard.locator(".widget-checkbox input[type=checkbox]")
        found += [("checkbox", boxes.nth(i)) for i in range(boxes.count())]
    return found


def is_disabled(kind: str, control) -> bool:
    """A greyed-out control (the dashboard says it does not apply): a person cannot move it."""
    if kind == "slider":
        return control.evaluate(
            "e => e.querySelector('.noUi-target[disabled]') !== null"
            " || e.querySelector('.noUi-target')?.hasAttribute('disabled') === true"
        )
    return control.is_disabled()


def moving_order(found):
    """(kind, control) of ``found`` (:func:`controls`) in the order a person moves them, in
    two passes: a control greyed out at first (it does not apply to the current choice) is
    moved once another control has made it apply. Lazy: each control's state is read after
    the previous one moved."""
    moved: set[int] = set()
    for _pass in range(2):
        for index, (kind, control) in enumerate(found):
            if index in moved or is_disabled(kind, control):
                continue
            moved.add(index)
            yield kind, control


def control_label(kind: str, control) -> str:
    if kind == "slider":
        return control.locator(".widget-label").first.inner_text()
    return control.evaluate(
        "e => (e.closest('.widget-inline-hbox')?.querySelector('.widget-label')?.textContent)||''"
    )


def move(page, kind: str, control) -> str:
    """Move a control the way a person does; return a description of what was done."""
    control.scroll_into_view_if_needed()
    if kind == "slider":
        handle = control.locator(".noUi-handle").first
        track = control.locator(".noUi-target").first
        h, t = handle.bounding_box(), track.bounding_box()
        x, y = h["x"] + h["width"] / 2, h["y"] + h["height"] / 2
        # a quarter of the track towards the side with more room
        dx = t["width"] / 4 if x < t["x"] + t["width"] / 2 else -t["width"] / 4
        page.mouse.move(x, y)
        page.mouse.down()
        for step in range(1, 6):
            page.mouse.move(x + dx * step / 5, y)
        page.mouse.up()
        return f"dragged the handle {dx:+.0f} px"
    if kind == "dropdown":
        options = control.locator("option")
        values = [options.nth(i).get_attribute("value") for i in range(options.count())]
        current = control.input_value()
        others = [v for v in values if v != current]
        if not others:
            return ""  # a one-option dropdown: nothing a person could pick
        other = others[0]
        control.select_option(other)
        return f"picked option {other!r} instead of {current!r}"
    current = control.input_value()
    try:
        new = str(int(float(current)) + 1)
    except ValueError:
        new = current + "x"
    control.click(click_count=3)
    control.type(new)
    control.press("Enter")
    return f"typed {new!r} (was {current!r})"


def refused(dashboard) -> bool:
    """The readout shows the dashboard's refusal (a combination the math rejects, in red)."""
    return dashboard.locator(".widget-html pre[style*='color']").count() > 0


def wait_for_change(page, dashboard, before_src: str, before_text: str, timeout_ms: int) -> None:
    """Wait until the readout text differs and the image bytes differ too (or the readout
    shows the dashboard's refusal in red, which keeps the last image). ``dashboard``: its
    locator or its element handle."""
    handle = _element(dashboard)
    page.wait_for_function(
        """([root, src, text]) => {
          const img = root.querySelector('.widget-output img');
          const html = root.querySelector('.widget-html');
          if (html === null || html.innerText === text) return false;
          if (html.querySelector('pre[style*="color"]')) return true;
          return img !== null && img.getAttribute('src') !== src && img.complete;
        }""",
        arg=[handle, before_src, before_text],
        timeout=timeout_ms,
        polling="raf",
    )


def shut_down_kernel(page) -> None:
    """Kernel > Shut Down Kernel, so finished notebooks do not hold memory and CPU."""
    menu(page, "Kernel", "Shut Down Kernel")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]"
        ".some(e => /No Kernel/.test(e.textContent))",
        timeout=RUN_ALL_TIMEOUT_MS,
    )


def screenshot(page, name: str) -> Path:
    BUILD.mkdir(exist_ok=True)
    path = BUILD / f"browser-{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


# --- accessibility: axe-core and the keyboard ---------------------------------------------

#: axe-core from its npm package (``npm install``, cached under build/); or point AXE_CORE at
#: an axe.min.js
AXE_CORE_VERSION = "4.14.1"
AXE_CACHE = BUILD / f"axe-core-{AXE_CORE_VERSION}"
#: the WCAG 2.0 and 2.1 success criteria at levels A and AA
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: the impacts that fail the audit
AXE_FAILING_IMPACTS = ("serious", "critical")

HOW_TO_GET_AXE = (
    f"axe-core {AXE_CORE_VERSION} is fetched with npm (Node.js) into {AXE_CACHE}: install "
    "Node.js and npm (`apt-get install npm`), or set AXE_CORE to the path of an axe.min.js."
)


def axe_source() -> str:
    """axe-core's script (axe.min.js), installed from npm into the build cache on first use.

    Raises FileNotFoundError with :data:`HOW_TO_GET_AXE` when neither npm nor AXE_CORE is
    available.
    """
    given = os.environ.get("AXE_CORE", "")
    if given:
        return Path(given).read_text(encoding="utf-8")
    script = AXE_CACHE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise FileNotFoundError(HOW_TO_GET_AXE)
        BUILD.mkdir(parents=True, exist_ok=True)
        # installed into a folder of its own, then renamed into place: two test workers at
        # once never read an install the other is still writing (the loser's copy is dropped)
        fresh = Path(tempfile.mkdtemp(dir=BUILD, prefix=".axe-"))
        try:
            _npm_install_axe(npm, fresh, script)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)  # what the rename did not take
    return script.read_text(encoding="utf-8")


def _npm_install_axe(npm: str, fresh: Path, script: Path) -> None:
    """Install axe-core into ``fresh``, then rename it to AXE_CACHE (a stale cache without
    the script, left by an interrupted install, is replaced)."""
    result = subprocess.run(
        [
            npm,
            "install",
            "--prefix",
            str(fresh),
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            f"axe-core@{AXE_CORE_VERSION}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    installed = (fresh / "node_modules" / "axe-core" / "axe.min.js").exists()
    if result.returncode != 0 or not installed:
        raise FileNotFoundError(f"{HOW_TO_GET_AXE}\nnpm said: {result.stderr[-2000:]}")
    try:
        os.rename(fresh, AXE_CACHE)
    except OSError:  # another worker's install is in place first, or a stale one
        if not script.exists():
            shutil.rmtree(AXE_CACHE, ignore_errors=True)
            os.rename(fresh, AXE_CACHE)


_AXE_RUN = """async ([include, exclude, tags]) => {
  const context = include === null ? document : {include: include, exclude: exclude};
  const result = await axe.run(context, {
    runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return {
    version: axe.version,
    violations: result.violations.flatMap(v => v.nodes.map(n => ({
      id: v.id, impact: n.impact || v.impact, help: v.help,
      target: n.target.join(' '), html: n.html.slice(0, 300)})))};
}"""


def run_axe(page, source: str, include=None, exclude=()) -> dict:
    """axe-core on the page (or on ``include``, a list of CSS selectors, minus ``exclude``):
    ``{"version": ..., "violations": [{"id", "impact", "help", "target", "html"}, ...]}``,
    one entry per offending element."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=source)
    selectors = None if include is None else [[s] for s in include]
    return page.evaluate(_AXE_RUN, [selectors, [[s] for s in exclude], AXE_TAGS])


def failing(violations: list[dict], allowed: dict[tuple[str, str], str]) -> list[dict]:
    """The violations of a failing impact that no ``allowed`` entry explains: a key
    (rule id, CSS class or selector fragment) matches a violation of that rule whose target
    or HTML contains the fragment."""
    return [
        v
        for v in violations
        if v["impact"] in AXE_FAILING_IMPACTS
        and not any(
            v["id"] == rule and (fragment in v["target"] or fragment in v["html"])
            for rule, fragment in allowed
        )
    ]


# the focusable parts of a dashboard's controls, in document order: a slider's handle and its
# editable readout, a dropdown's select, a text box's input
_CONTROL_BOXES = (
    ".widget-slider, .widget-dropdown, .widget-text, .widget-toggle-button, .widget-checkbox"
)

_MARK_CONTROLS = """([root, selector]) => {
  const boxes = [...root.querySelectorAll(selector)];
  boxes.forEach((b, i) => b.setAttribute('data-course-control', String(i)));
  return boxes.map(b => ({
    label: (b.querySelector('.widget-label')?.textContent || '').trim(),
    disabled: b.querySelector('[disabled], .noUi-target[disabled]') !== null
      || b.classList.contains('mod-disabled')}));
}"""

_ACTIVE = """(root) => {
  const e = document.activeElement;
  if (!e || !root.contains(e)) return null;
  const box = e.closest('[data-course-control]');
  const style = getComputedStyle(e);
  const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1)
    || (style.boxShadow && style.boxShadow !== 'none');
  return {control: box ? Number(box.getAttribute('data-course-control')) : -1,
          tag: e.tagName.toLowerCase(), cls: String(e.className || ''), ring: ring,
          outline: style.outlineStyle + ' ' + style.outlineWidth};
}"""


def _start_before(page, root) -> None:
    """Focus a marker inserted just before the dashboard: where a reader tabbing through
    the notebook arrives (the only step not made with the keyboard)."""
    page.evaluate(
        """(root) => {
          document.querySelector('[data-course-tab-start]')?.remove();
          const start = document.createElement('button');
          start.setAttribute('data-course-tab-start', '');
          start.textContent = 'start';
          root.parentElement.insertBefore(start, root);
          start.focus();
        }""",
        root,
    )


def _end_start(page) -> None:
    page.evaluate("() => document.querySelector('[data-course-tab-start]')?.remove()")


def tab_to(page, dashboard, control: int, kind: str, max_presses: int = 60) -> bool:
    """From just before the dashboard, press Tab until the ``control``-th control's handle
    (slider), select (dropdown) or input (text) has the focus; False if it never does.
    ``dashboard``: its locator or its element handle."""
    root = _element(dashboard)
    page.evaluate(_MARK_CONTROLS, [root, _CONTROL_BOXES])
    _start_before(page, root)
    wanted = {"slider": "noUi-handle", "dropdown": "SELECT", "text": "INPUT", "checkbox": "INPUT"}[
        kind
    ]
    try:
        for _ in range(max_presses):
            page.keyboard.press("Tab")
            stop = page.evaluate(_ACTIVE, root)
            if stop is None:
                continue
            if stop["control"] == control and (
                wanted in stop["cls"] or stop["tag"] == wanted.lower()
            ):
                return True
        return False
    finally:
        _end_start(page)


def tab_through(page, dashboard, max_presses: int = 60) -> tuple[list[dict], list[dict]]:
    """Start just before the dashboard and press Tab until focus leaves it.

    Returns (controls in document order with label and disabled, every stop inside the
    dashboard with its control index, element and whether a focus ring shows). The only
    help given is the starting point: a focusable marker inserted before the dashboard and
    focused, as if the reader had tabbed to it.
    """
    root = dashboard.element_handle()
    controls = page.evaluate(_MARK_CONTROLS, [root, _CONTROL_BOXES])
    _start_before(page, root)
    stops: list[dict] = []
    for _ in range(max_presses):
        page.keyboard.press("Tab")
        stop = page.evaluate(_ACTIVE, root)
        if stop is None:
            if stops:
                break
            continue
        stops.append(stop)
    _end_start(page)
    return controls, stops


def dashboard_alt(dashboard) -> str:
    img = dashboard.locator(".widget-output img")
    return (img.first.get_attribute("alt") or "") if img.count() else ""


# --- what a screen reader hears: Chromium's accessibility tree (issue 42) ------------------


def ax_session(page):
    """A DevTools session on the page with the DOM and accessibility domains on."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("Accessibility.enable")
    return cdp


def ax_node(cdp, expression: str) -> dict | None:
    """What Chromium's accessibility tree says of the element ``expression`` evaluates to
    (``document.activeElement``, a ``querySelector``): its role, name, value and properties
    (``disabled``, ``focusable``, ``live``, ...) as a flat dict; None for no element."""
    found = cdp.send("Runtime.evaluate", {"expression": expression})["result"]
    if "objectId" not in found:
        return None
    node = cdp.send("DOM.describeNode", {"objectId": found["objectId"]})["node"]
    cdp.send("Runtime.releaseObject", {"objectId": found["objectId"]})
    nodes = cdp.send(
        "Accessibility.getPartialAXTree",
        {"backendNodeId": node["backendNodeId"], "fetchRelatives": False},
    )["nodes"]
    ax = next((n for n in nodes if n.get("backendDOMNodeId") == node["backendNodeId"]), nodes[0])
    out = {
        "role": ax.get("role", {}).get("value", ""),
        "name": ax.get("name", {}).get("value", ""),
        "value": str(ax.get("value", {}).get("value", "")),
        "ignored": ax.get("ignored", False),
    }
    out.update({p["name"]: p["value"].get("value") for p in ax.get("properties", [])})
    if isinstance(out.get("valuetext"), str):
        out["valuetext"] = _utf8(out["valuetext"])
    return out


def _utf8(text: str) -> str:
    """Chromium 150's DevTools protocol hands ``valuetext`` over as UTF-8 bytes read as
    Latin-1 ('Â±30' for an aria-valuetext of '±30'; the name and the DOM attribute are
    right): undo that, and leave a text that is not such a misreading as it is."""
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


#: what a control shows a sighted reader, read from the page: its label, its readout with the
#: unit (course-unit-<word>), whether it is greyed out
_SHOWN = """(box) => {
  const unit = [...box.classList].find(c => c.startsWith('course-unit-'));
  const readout = box.querySelector('.widget-readout');
  const select = box.querySelector('select');
  const input = box.querySelector('input');
  let shown = '';
  if (readout) shown = readout.textContent.trim();
  else if (select) shown = select.options[select.selectedIndex]?.textContent.trim() || '';
  else if (input && input.type !== 'checkbox') shown = input.value;
  else if (input) shown = input.checked ? 'checked' : 'unchecked';
  const label = box.querySelector(':scope > .widget-label, :scope > label');
  return {
    label: (label?.textContent || box.textContent || '').trim(),
    title: label?.getAttribute('title') || '',
    shown: unit && shown ? shown + ' ' + unit.slice('course-unit-'.length).replace(/-/g, ' ')
      : shown,
    disabled: box.querySelector('[disabled], .noUi-target[disabled]') !== null};
}"""


def shown(control_box) -> dict:
    """(label, title, readout with unit, disabled) of a control box element handle."""
    return control_box.evaluate(_SHOWN)


STATUS_SELECTOR = ".course-status"


def live_region(dashboard) -> str:
    """The text of the dashboard's live region ('' if none)."""
    region = dashboard.locator(STATUS_SELECTOR)
    return region.first.text_content().strip() if region.count() else ""
