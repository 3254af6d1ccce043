"""What a reader waits for in the browser: mouse-up on a slider to the new image.

    python3 course.py bench browser

Runs every notebook in a real JupyterLab in Chromium (the same set-up as
tests/test_browser.py), then drags the first slider of every dashboard (or picks another
option of its first dropdown when it has no slider) REPEATS times and measures, inside the
page, the time from the pointer's release (or the dropdown's change event) to the moment the
dashboard's image element holds the new PNG. That is the whole round trip: front end to
kernel, recompute, draw, PNG, back to the page. Target: under 250 ms for every dashboard.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import browser_lab as bl

REPEATS = 7
TARGET_MS = 250

_ARM = """([root, src, event]) => {
  window.__courseT0 = null;
  window.__courseT1 = null;
  document.addEventListener(event, () => { window.__courseT0 = performance.now(); },
                            {capture: true, once: true});
  const observer = new MutationObserver(() => {
    const img = root.querySelector('.widget-output img');
    if (img && img.getAttribute('src') !== src && window.__courseT1 === null) {
      window.__courseT1 = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(root, {subtree: true, childList: true, attributes: true,
                          attributeFilter: ['src']});
}"""


def measure(page, dashboard, kind, control) -> float:
    """One move; milliseconds from release/change to the new image in the page."""
    src = bl.dashboard_image(dashboard)
    event = "pointerup" if kind == "slider" else "change"
    page.evaluate(_ARM, [dashboard.element_handle(), src, event])
    bl.move(page, kind, control)
    page.wait_for_function(
        "() => window.__courseT1 !== null && window.__courseT0 !== null",
        timeout=bl.REDRAW_TIMEOUT_MS,
    )
    return page.evaluate("() => window.__courseT1 - window.__courseT0")


def main() -> None:
    from playwright.sync_api import sync_playwright

    executable, where = bl.find_chromium()
    if executable == "":
        print(f"skipped: {where}")
        return
    rows = []
    with bl.jupyter_lab() as lab, sync_playwright() as p, bl.chromium(p, executable) as ctx:
        for path in bl.notebook_paths():
            page = ctx.new_page()
            bl.open_notebook(page, lab, path.name)
            bl.run_all(page)
            for d, dashboard in enumerate(bl.dashboards(page)):
                found = [c for c in bl.controls(dashboard) if not bl.is_disabled(*c)]
                sliders = [c for c in found if c[0] == "slider"]
                kind, control = (sliders or found)[0]
                label = bl.control_label(kind, control)
                print(f"  {path.stem} dashboard {d + 1}: {kind} {label}", file=sys.stderr)
                times = [measure(page, dashboard, kind, control) for _ in range(REPEATS)]
                rows.append((path.stem, d + 1, f"{kind} {label}", times))
            bl.menu(page, "Kernel", "Shut Down Kernel")
            page.close()
    print(
        f"mouse-up (or dropdown change) to new image, {REPEATS} moves each, Chromium "
        f"headless, 1300 × 900 (target < {TARGET_MS} ms)\n"
    )
    print("| notebook | dashboard | control moved | median | max |")
    print("|---|---:|---|---:|---:|")
    for stem, d, what, times in rows:
        print(
            f"| {stem} | {d} | {what} | {statistics.median(times):.0f} ms | {max(times):.0f} ms |"
        )
    slow = [r for r in rows if statistics.median(r[3]) >= TARGET_MS]
    print(f"\n{len(rows)} dashboards; median above {TARGET_MS} ms: {len(slow)}")


if __name__ == "__main__":
    main()
