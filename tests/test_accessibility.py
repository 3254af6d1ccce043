"""Accessible to every student (WCAG 2.1 AA): text alternatives and colour.

* Every figure says in words what it shows and the point it makes: the figures in
  ``figures/`` (``figures/alt.json``, each PNG's Description, the README's image text),
  every dashboard image (its ``alt``, rewritten on every redraw) and every notebook figure
  (MyST-NB's cell metadata for the website and a markdown line beside it for JupyterLab).
  A text alternative fails when missing, shorter than ``MIN_ALT_CHARS`` or a file name.
* Every figure reads without colour vision: within a plot, no two series differ by colour
  alone (each has its own line style, marker, hatch or fill), and every two series colours
  stay at least ``MIN_CVD_DELTA_E`` apart (CAM02-UCS) for normal vision and under simulated
  deuteranopia and protanopia (colorspacious, Machado et al. 2009, severity 100).

The browser side (axe-core on the website and in JupyterLab, the dashboards by keyboard)
is in tests/test_browser.py.
"""

from __future__ import annotations

import copy
import html
import itertools
import json
import os
import re
from pathlib import Path

import matplotlib
import nbformat
import numpy as np
import pytest
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.container import BarContainer
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

import helpers.widgets as widgets
from helpers import plrv
from helpers.figures import ALT_FILE, FIGURES_DIR, all_figures
from helpers.figures import alt_text as alt_tool
from helpers.plotting import kazan_reiter as kr_plots
from helpers.plotting import plrv as plrv_plots
from helpers.plotting._alt import MIN_ALT_CHARS, alt_text, alt_text_problem, describe
from helpers.plotting._style import CYCLE, MIN_CVD_DELTA_E

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
DASHBOARDS = sorted(name for name in dir(widgets) if name.endswith("_dashboard"))

#: figures drawn only in a notebook (neither in figures/ nor a dashboard's default)
NOTEBOOK_ONLY = {
    "plrv_privacy_profile": lambda: plrv_plots.plot_privacy_profile(
        (
            ("gaussian", plrv.POST_GAUSSIAN_SIGMA),
            ("laplace", plrv.POST_LAPLACE_SCALE),
            ("geometric", plrv.POST_LAPLACE_SCALE),
        )
    ),
    "plrv_two_geometric_densities": lambda: plrv_plots.plot_two_densities("geometric", 1.0),
    "kazan_reiter_figure2_below": lambda: kr_plots.plot_figure2(direction="below"),
    "kazan_reiter_switching": lambda: kr_plots.plot_switching(1.5),
    "kazan_reiter_switching_worst": lambda: kr_plots.plot_switching(1.5, direction="worst"),
    "kazan_reiter_risk_profile_slice": lambda: kr_plots.plot_risk_profile_slice(
        "values", 0.1, 0.05, 3.0
    ),
}


@pytest.fixture(scope="module")
def figures() -> dict:
    """Every figure of figures/ and the notebook-only ones, drawn once."""
    drawn = {stem: make() for stem, make in sorted(all_figures().items())}
    drawn.update({name: make() for name, make in NOTEBOOK_ONLY.items()})
    return drawn


# --- text alternatives ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "no text alternative"),
        ("A line chart.", "shorter than"),
        ("../_images/d3188d8df99e2d6519e1c388c7fa5ad8617b0da213946daadfcf02bcfbce4a80.png", "file"),
        ("figures/lee_clifton_bounds_mean.png shows the bounds against epsilon", "file"),
        ("<Figure size 640x480 with 1 Axes> and then some more words", "repr"),
    ],
)
def test_a_text_alternative_is_refused_when_missing_short_or_a_file_name(text, why):
    assert why in alt_text_problem(text)


def test_a_description_of_what_is_shown_and_why_is_accepted():
    fig = describe(
        matplotlib.figure.Figure(),
        "Lee & Clifton's bounds against ε from 0 to 5:",
        "the tight bound stays below the upper bound.",
    )
    assert len(alt_text(fig)) >= MIN_ALT_CHARS and alt_text_problem(alt_text(fig)) is None


@pytest.mark.parametrize("stem", sorted(all_figures()) + sorted(NOTEBOOK_ONLY))
def test_every_figure_has_a_text_alternative(stem, figures):
    problem = alt_text_problem(alt_text(figures[stem]))
    assert problem is None, f"{stem}: {problem}"


def test_figures_alt_json_holds_every_figures_text_alternative(figures):
    """figures/alt.json is what `python3 course.py figures` writes now, one text per PNG."""
    committed = json.loads((FIGURES_DIR / ALT_FILE).read_text(encoding="utf-8"))
    expected = {f"{stem}.png": alt_text(figures[stem]) for stem in all_figures()}
    assert committed == expected, "stale figures/alt.json: run `python3 course.py figures`"


def test_every_png_in_figures_carries_its_text_alternative(figures):
    from PIL import Image

    for stem in sorted(all_figures()):
        with Image.open(FIGURES_DIR / f"{stem}.png") as image:
            assert image.text.get("Description") == alt_text(figures[stem]), (
                f"{stem}.png: run `python3 course.py figures`"
            )


def test_readme_shows_every_figure_with_a_text_alternative():
    shown = re.findall(r"!\[([^\]]*)\]\((figures/[\w.-]+\.png)\)", README.read_text())
    assert shown
    problems = [
        f"{path}: {alt_text_problem(text)}" for text, path in shown if alt_text_problem(text)
    ]
    assert problems == []


def _move(control) -> bool:
    """Move a control to another value, as a reader would (False if it has none)."""
    if getattr(control, "disabled", False):
        return False
    if hasattr(control, "options"):
        if len(control.options) < 2:
            return False
        control.index = (control.index + 1) % len(control.options)
        return True
    if hasattr(control, "base"):  # FloatLogSlider: min and max are exponents
        control.value = control.base**control.max
        return True
    if hasattr(control, "max") and control.value != control.max:
        control.value = control.max
        return True
    return False


@pytest.mark.parametrize("name", DASHBOARDS)
def test_every_dashboard_image_has_a_text_alternative_that_follows_its_values(name):
    from helpers.widgets._base import WIDGET_VIEW, figure_png

    dash = getattr(widgets, name)()

    def image_alt() -> str:
        # what the page's image says: the text the course's JupyterLab extension copies into
        # its alt (tests/test_browser.py reads the alt itself), beside the image in the output
        shown = dash.output.outputs[0]["data"][WIDGET_VIEW]["model_id"]
        assert shown == dash.image.model_id, f"{name}: the output shows another widget"
        assert dash.image.value == figure_png(dash.figure), f"{name}: the image is stale"
        return html.unescape(dash.description.value)

    assert alt_text_problem(dash.alt_text) is None, f"{name}: {alt_text_problem(dash.alt_text)}"
    assert image_alt() == dash.alt_text
    before = dash.alt_text
    moved = next((label for label, c in dash.controls.items() if _move(c)), None)
    assert moved is not None, f"{name}: no control to move"
    assert dash.alt_text != before, f"{name}: moving {moved!r} left the text alternative as it was"
    assert alt_text_problem(dash.alt_text) is None
    assert image_alt() == dash.alt_text


def _values(control) -> list:
    """Up to five values a reader can give the control (its range's ends and between, every
    option), its start last; none when it is greyed out."""
    if getattr(control, "disabled", False):
        return []
    start = control.value
    if hasattr(control, "options"):
        picks = [o[1] if isinstance(o, tuple) else o for o in control.options][:5]
    elif hasattr(control, "base"):  # FloatLogSlider: min and max are exponents
        lo, hi = control.min, control.max
        picks = [control.base ** (lo + (hi - lo) * f) for f in (0.0, 0.5, 1.0)]
    elif hasattr(control, "max") and hasattr(control, "min"):
        step = getattr(control, "step", None) or 1
        lo, hi = control.min, control.max
        picks = [lo + round((hi - lo) * f / step) * step for f in (0.0, 0.5, 1.0)]
    else:
        picks = []
    return [*picks, start]


@pytest.mark.parametrize("name", DASHBOARDS)
def test_every_move_is_spoken_and_its_text_alternative_follows_the_figure(name):
    """Every control through its range (WCAG 4.1.3 and 1.1.1, issue 42):

    * one live region per dashboard, there from the start (with the first result), says one
      line after every move: the line of the readout that changed, or the refusal;
    * two states with different pixels never share a text alternative (notebook 07's
      dashboard said the same for a figure with the worst case outlined and one with a side
      faded). Drawn at 20 dpi: enough to tell two figures apart.
    """
    import hashlib

    from helpers.widgets._base import STATUS_CLASS, figure_png

    dash = getattr(widgets, name)()
    regions = [w for w in dash.widget.children if STATUS_CLASS in getattr(w, "_dom_classes", ())]
    assert regions == [dash.status]
    assert dash.status.value and "\n" not in dash.status.value
    pixels: dict[str, set[str]] = {}
    problems = []
    for key, control in dash.controls.items():
        for value in _values(control):
            try:
                control.value = value
            except Exception:  # a value the widget itself rejects: not a reader's move
                continue
            line = html.unescape(dash.status.value)
            if line.startswith("Refused: "):
                if line.removeprefix("Refused: ") != dash.text.splitlines()[0].strip():
                    problems.append(f"{key} = {value!r}: {line!r} is not the refusal")
                continue
            shown = [" ".join(t.split()) for t in dash.text.splitlines()]
            if not line or line not in shown:
                problems.append(f"{key} = {value!r}: {line!r} is not a line of the readout")
            digest = hashlib.sha256(figure_png(dash.figure, 20)).hexdigest()
            pixels.setdefault(dash.alt_text, set()).add(digest)
    shared = [alt for alt, images in pixels.items() if len(images) > 1]
    if shared:
        problems.append(f"one text alternative for different figures: {shared[0]!r}")
    assert problems == [], f"{name}:\n" + "\n".join(problems)


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]{3,}", text)


@pytest.mark.parametrize("name", DASHBOARDS)
def test_every_control_has_a_name_that_says_what_it_sets(name):
    """WCAG 4.1.2 and 2.5.3: the accessible name (the control's tooltip, which the course's
    JupyterLab extension gives the handle) starts with the visible label and says in words
    what a symbol stands for: at least two words, so "ε" alone never passes."""
    dash = getattr(widgets, name)()
    problems = []
    for key, control in dash.controls.items():
        label = control.description
        spoken = control.tooltip or label  # a checkbox is named by its own description
        if not spoken.startswith(label):
            problems.append(f"{key}: name {spoken!r} does not start with its label {label!r}")
        if len(_words(spoken)) < 2:
            problems.append(f"{key}: name {spoken!r} does not say what {label!r} sets")
    assert problems == [], f"{name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", DASHBOARDS)
def test_no_control_has_a_fixed_pixel_width(name):
    """WCAG 1.4.10: widths relative to the text (em) and never wider than the line, so that
    at 200 % zoom a control wraps instead of sticking out of the notebook."""
    dash = getattr(widgets, name)()
    problems = []
    for key, control in dash.controls.items():
        layout = control.layout
        fixed = {k: v for k, v in layout.get_state().items() if isinstance(v, str) and "px" in v}
        style = getattr(control, "style", None)
        width = getattr(style, "description_width", "") or ""
        if "px" in width:
            fixed["description_width"] = width
        if fixed:
            problems.append(f"{key}: {fixed}")
        if layout.max_width != "100%":
            problems.append(f"{key}: max_width {layout.max_width!r}, not 100%")
    assert problems == [], f"{name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", DASHBOARDS)
def test_a_dashboard_image_never_shrinks_its_smallest_text_below_legible(name):
    """The image's min-width (it scrolls sideways below it) keeps every text of the figure
    at MIN_TEXT_PX or more, read from the figure drawn."""
    from matplotlib.text import Text

    from helpers.widgets._base import DPI, MIN_TEXT_PX, png_width

    dash = getattr(widgets, name)()
    least = float(re.fullmatch(r"(\d+)px", dash.image.layout.min_width).group(1))
    png = dash.image.value
    sizes = [t.get_fontsize() for t in dash.figure.findobj(Text) if t.get_text().strip()]
    smallest_px = min(sizes) * DPI / 72 * least / png_width(png)
    # min-width is rounded up to a whole pixel; allow the float error of the division
    assert smallest_px >= MIN_TEXT_PX * (1 - 1e-9), f"{name}: {smallest_px:.2f} px"


def test_a_fixed_pixel_width_is_refused():
    import ipywidgets

    from helpers.widgets._base import reflow

    slider = ipywidgets.FloatSlider(description="ε", layout=ipywidgets.Layout(width="460px"))
    with pytest.raises(ValueError, match=r"'460px'"):
        reflow(slider)


def test_the_status_line_names_the_result_that_changed():
    from helpers.widgets._base import status_line

    before = "per person: ε = 3\na group of 200: within ±5%\nodds"
    after = "per person: ε = 3\na group of 400: within ±3%\nodds"
    assert status_line(after, before) == "a group of 400: within ±3%"
    assert status_line(before, before) == "per person: ε = 3"  # nothing new: the first line
    assert status_line("ε must be positive\nmore", refused=True) == "Refused: ε must be positive"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_notebook_figure_carries_its_text_alternative(path):
    """Cell metadata for MyST-NB (the website's alt) and the same text below the figure."""
    problems = alt_tool.check(nbformat.read(path, as_version=4))
    assert problems == [], (
        f"{path.name}: run `python3 course.py notebooks` and then "
        f"`python -m helpers.figures.alt_text apply notebooks/*.ipynb`:\n" + "\n".join(problems)
    )


def _figure_notebook(
    alt: str = "A long enough description of the figure: it shows this.",
) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    figure = nbformat.v4.new_code_cell("plot()")
    figure.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure size 640x480 with 1 Axes>"},
            metadata={"image/png": {"alt": alt}} if alt else {},
        )
    ]
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), figure, nbformat.v4.new_code_cell("1")]
    return nb


def test_apply_writes_the_metadata_and_the_markdown_line_once():
    nb = _figure_notebook(
        "The tail of a mean of bits: the simulated tail follows e^(-t/b), r* and Δ_f."
    )
    assert alt_tool.apply(nb) == []
    assert alt_tool.check(nb) == []
    figure, below = nb.cells[1], nb.cells[2]
    alt = figure.metadata["mystnb"]["image"]["alt"]
    assert alt.startswith("The tail of a mean of bits")
    assert below.cell_type == "markdown" and alt_tool.FIGURE_ALT_TAG in below.metadata["tags"]
    assert below.source == alt_tool.markdown_line(alt)
    assert r"r\* and Δ\_f" in below.source  # no stray emphasis in markdown
    assert below.id == f"{figure.id}-alt"
    once = nbformat.writes(nb)
    assert alt_tool.apply(nb) == [] and nbformat.writes(nb) == once, "apply is not idempotent"
    nbformat.validate(nb)


def test_apply_follows_a_changed_figure_and_drops_an_orphaned_line():
    nb = _figure_notebook()
    alt_tool.apply(nb)
    nb.cells[1].outputs[0].metadata["image/png"]["alt"] = (
        "A new figure: its description changed with it."
    )
    assert any("changed since" in p for p in alt_tool.check(nb))  # re-executed, not re-applied
    alt_tool.apply(nb)
    assert alt_tool.check(nb) == []
    assert len(nb.cells) == 4 and "new figure" in nb.cells[2].source
    nb.cells[1].outputs = []  # the figure is gone: so is its line
    alt_tool.apply(nb)
    assert [c.cell_type for c in nb.cells] == ["markdown", "code", "code"]


def test_apply_reports_a_figure_without_a_text_alternative_and_keeps_what_it_had():
    nb = _figure_notebook(alt="")
    problems = alt_tool.apply(nb)
    assert len(problems) == 1 and "execute the notebook first" in problems[0]
    assert "mystnb" not in nb.cells[1].metadata and len(nb.cells) == 3
    assert alt_tool.check(nb) != []


def test_a_kernel_saves_each_figures_text_alternative_with_its_png(tmp_path):
    """What `python3 course.py notebooks` stores: the PNG output's metadata carries alt."""
    from helpers.notebooks import make_client

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "%matplotlib inline\nfrom helpers.plotting import plot_bits_sensitivity\n"
            "plot_bits_sensitivity(10)"
        )
    ]
    path = tmp_path / "figure.ipynb"
    nbformat.write(nb, path)
    make_client(nb, path, timeout=300).execute()
    output = next(o for o in nb.cells[0].outputs if "image/png" in o.get("data", {}))
    from helpers.plotting.foundations import plot_bits_sensitivity

    assert output.metadata["image/png"]["alt"] == alt_text(plot_bits_sensitivity(10))
    assert output.data["text/plain"].startswith("<Figure")  # what the notebook tests compare
    problems = alt_tool.apply(copy.deepcopy(nb))
    assert problems == []


# --- colour -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cvd():
    """colorspacious' simulation of colour-vision deficiency, or a skip with how to get it."""
    try:
        import colorspacious
    except ImportError:
        hint = "colorspacious is not installed: pip install colorspacious==1.1.2 (requirements-dev.txt)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {hint}")
        pytest.skip(hint)
    return colorspacious


def _over_white(rgba) -> np.ndarray:
    r, g, b, a = to_rgba(rgba)
    return np.array([r, g, b]) * a + (1 - a)


def _style(handle) -> tuple | None:
    """(kind, colour over white, line style, marker, fill, hatch) of a legend entry."""
    if isinstance(handle, BarContainer):
        handle = handle.patches[0]
    if isinstance(handle, tuple):
        handle = handle[0]
    if isinstance(handle, LineCollection):
        return None  # a colour map, read with its colour bar
    if isinstance(handle, Line2D):
        ls = handle.get_linestyle()
        marker = handle.get_marker()
        marker = "" if marker in (None, "None", "", " ") else str(marker)
        ls = "" if ls in ("None", "", " ") or ls is None else ls
        colour = handle.get_color()
        if not ls and marker:  # a marker alone: its face shows, or its edge if hollow
            face = handle.get_markerfacecolor()
            hollow = (isinstance(face, str) and face in ("none", "white")) or to_rgba(face)[3] == 0
            colour = handle.get_markeredgecolor() if hollow else face
            fill = "hollow" if hollow else "filled"
        else:
            fill = ""
        return ("line", _over_white(colour), ls, marker, fill, "")
    if isinstance(handle, Patch):
        face = handle.get_facecolor()
        outline = to_rgba(face)[3] == 0
        colour = handle.get_edgecolor() if outline else face
        return (
            "patch",
            _over_white(colour),
            "",
            "",
            "outline" if outline else "",
            handle.get_hatch() or "",
        )
    if isinstance(handle, PolyCollection | matplotlib.collections.PathCollection):
        faces = handle.get_facecolor()
        colour = faces[0] if len(faces) and faces[0][3] > 0 else handle.get_edgecolor()[0]
        return ("collection", _over_white(colour), "", "", "", handle.get_hatch() or "")
    return None


def _series_groups(fig) -> list[tuple[str, list[tuple[str, tuple]]]]:
    """Per plot (each axes' legend entries, each figure legend): (label, style) of every series."""
    groups = []
    for index, ax in enumerate(fig.axes):
        handles, labels = ax.get_legend_handles_labels()
        if ax.get_legend() is not None and not handles:
            handles, labels = (
                ax.get_legend().legend_handles,
                [t.get_text() for t in ax.get_legend().get_texts()],
            )
        entries = [(lab, _style(h)) for h, lab in zip(handles, labels, strict=True)]
        groups.append((f"axes {index}", [(lab, s) for lab, s in entries if s is not None]))
    for index, legend in enumerate(fig.legends):
        labels = [t.get_text() for t in legend.get_texts()]
        entries = [(lab, _style(h)) for h, lab in zip(legend.legend_handles, labels, strict=True)]
        groups.append((f"figure legend {index}", [(lab, s) for lab, s in entries if s is not None]))
    return groups


def _distances(cvd, a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """CAM02-UCS ΔE between two sRGB colours for normal vision and two deficiencies."""
    out = {"normal": float(cvd.deltaE(a, b, input_space="sRGB1"))}
    for kind, name in (("deuteranomaly", "deuteranopia"), ("protanomaly", "protanopia")):
        space = {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}
        sa, sb = (np.clip(cvd.cspace_convert(c, space, "sRGB1"), 0, 1) for c in (a, b))
        out[name] = float(cvd.deltaE(sa, sb, input_space="sRGB1"))
    return out


def _colour_problems(cvd, fig) -> list[str]:
    problems = []
    for where, entries in _series_groups(fig):
        for (la, sa), (lb, sb) in itertools.combinations(entries, 2):
            if sa[0] == sb[0] and sa[2:] == sb[2:]:
                problems.append(f"{where}: {la!r} and {lb!r} differ by colour alone")
            d = _distances(cvd, sa[1], sb[1])
            if d["normal"] < 2:
                continue  # one colour on purpose: the two differ by style (checked above)
            close = {k: round(v, 1) for k, v in d.items() if v < MIN_CVD_DELTA_E}
            if close:
                problems.append(f"{where}: {la!r} and {lb!r} colours too close: ΔE {close}")
    return problems


def test_the_palette_itself_stays_apart_under_colour_vision_deficiency(cvd):
    rgb = [_over_white(c) for c in CYCLE]
    worst = min(min(_distances(cvd, a, b).values()) for a, b in itertools.combinations(rgb, 2))
    assert worst >= MIN_CVD_DELTA_E


def test_matplotlibs_default_colours_would_fail_the_same_check(cvd):
    """The check has teeth: tab10's green and red (C2, C3) merge for a deuteranope."""
    green, red = _over_white("tab:green"), _over_white("tab:red")
    assert _distances(cvd, green, red)["deuteranopia"] < MIN_CVD_DELTA_E


@pytest.mark.parametrize("stem", sorted(all_figures()) + sorted(NOTEBOOK_ONLY))
def test_every_figure_reads_without_colour_vision(stem, figures, cvd):
    problems = _colour_problems(cvd, figures[stem])
    assert problems == [], f"{stem}:\n" + "\n".join(problems)


def _dashboard_states(dash):
    """The dashboard at its defaults and at every option of each dropdown."""
    yield "defaults"
    for label, control in dash.controls.items():
        if hasattr(control, "options") and not getattr(control, "disabled", False):
            start = control.index
            for index in range(len(control.options)):
                control.index = index
                yield f"{label} = {control.value!r}"
            control.index = start


@pytest.mark.parametrize("name", DASHBOARDS)
def test_every_dashboard_reads_without_colour_vision(name, cvd):
    dash = getattr(widgets, name)()
    problems = []
    for state in _dashboard_states(dash):
        problems += [f"{state}: {p}" for p in _colour_problems(cvd, dash.figure)]
    assert problems == [], f"{name}:\n" + "\n".join(dict.fromkeys(problems))


def test_every_privacy_unit_group_has_its_own_colour_and_marker(cvd):
    """Notebook 09's overview: each of deployments.UNIT_GROUPS (issue 20: finer groups) has
    its own Okabe & Ito colour, apart from every other under simulated deficiencies, and its
    own marker, whichever groups a table happens to hold."""
    from helpers import deployments as dep
    from helpers.plotting import deployments as dep_plots

    colours, markers = dep_plots.UNIT_COLOURS, dep_plots.UNIT_MARKERS
    assert list(colours) == list(markers) == list(dep.UNIT_GROUPS)
    assert len(set(markers.values())) == len(markers)
    assert "p" not in markers.values()  # the deployment model's legend shape
    rgb = {g: _over_white(c) for g, c in colours.items()}
    close = {
        (a, b): round(min(_distances(cvd, rgb[a], rgb[b]).values()), 1)
        for a, b in itertools.combinations(rgb, 2)
        if min(_distances(cvd, rgb[a], rgb[b]).values()) < MIN_CVD_DELTA_E
    }
    assert close == {}
