"""The one list of the course's modules and their layers, read from ``helpers/__init__.py``.

The package docstring states the layers, top first, and which of them form the math layer.
This module parses that list once, so the three tests that depend on it cannot disagree:

* tests/test_contract.py fuzzes every public function of ``FUZZED_MODULES`` (the math layer
  but its input checks and floating-point tools) and ``exercises.check``;
* tests/test_doctests.py runs the examples of every module in ``MATH_MODULES``;
* tests/test_import_rules.py checks every import of every file in ``helpers/`` against
  ``LAYERS``.

It also holds what the tests of different modules share, since test files are imported by
path and cannot import one another (this module is on ``sys.path``): exact arithmetic
(``as_float``, ``rr_epsilon_exact``), ``find_artist``, a dashboard's in-place redraw
held to a fresh draw (``same_as_fresh``) and ``remove_later`` (a made environment deleted
without the test waiting for the disk).
"""

from __future__ import annotations

import math
import re
import shutil
import signal
import subprocess
import uuid
import warnings
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import numpy as np

import helpers

HELPERS = Path(helpers.__file__).resolve().parent
#: the repository's root, for every test file at any depth of tests/
ROOT = Path(__file__).resolve().parents[1]


class Layer(NamedTuple):
    names: tuple[str, ...]  #: top-level modules or packages of ``helpers`` in this layer
    math: bool  #: part of the math layer (the API contract applies)


def _parse_layers(doc: str) -> tuple[Layer, ...]:
    """The bullets of the "Layers, top first" list: the ``names`` before each " – "."""
    lines = doc.split("Layers, top first.", 1)[1].splitlines()
    bullets: list[tuple[int, str]] = []  # (indent, text)
    for line in lines:
        if line.startswith("The math layer never"):
            break
        stripped = line.lstrip()
        if stripped.startswith("* "):
            bullets.append((len(line) - len(stripped), stripped[2:]))
        elif stripped and bullets:
            indent, text = bullets[-1]
            bullets[-1] = (indent, text + " " + stripped)
    layers = []
    for indent, text in bullets:
        names = tuple(re.findall(r"``(\w+)``", text.split(" – ", 1)[0]))
        if names:  # the header bullet of the math layer names no module itself
            layers.append(Layer(names, math=indent > 0))
    return tuple(layers)


LAYERS = _parse_layers(helpers.__doc__)
#: top-level name -> index of its layer (0 = the top)
LAYER_OF = {name: i for i, layer in enumerate(LAYERS) for name in layer.names}
MATH_NAMES = tuple(name for layer in LAYERS if layer.math for name in layer.names)
#: the bottom math layer: input checks and floating-point tools, not a user-facing API
TOOL_NAMES = next(layer for layer in reversed(LAYERS) if layer.math).names


def module_name(path: Path) -> str:
    """``helpers/kazan_reiter/optimiser.py`` -> ``helpers.kazan_reiter.optimiser``."""
    parts = path.resolve().relative_to(HELPERS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: every module of the package, by its file (subpackages' modules included)
ALL_MODULES = {module_name(path): path for path in sorted(HELPERS.rglob("*.py"))}


def top_name(module: str) -> str:
    """``helpers.kazan_reiter.optimiser`` -> ``kazan_reiter`` ("" for ``helpers`` itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


#: every module of the math layer, submodules of its packages included, sorted
MATH_MODULES = sorted(m for m in ALL_MODULES if top_name(m) in MATH_NAMES)
#: the math layer's user-facing modules, whose public functions are fuzzed
FUZZED_MODULES = tuple(f"helpers.{name}" for name in MATH_NAMES if name not in TOOL_NAMES)


# --- comparing two floating-point results of different code paths ---------------------------
# Two formulas for one number round differently, and how they round depends on the CPU (numpy
# picks SIMD kernels of exp, log, cbrt by CPU; OpenBLAS picks its dot-product kernel): an exact
# `a <= b` or `a == b` between them can pass here and miss by an ulp on another machine.
# Compare them with a tolerance counted in ulps (CONTRIBUTING.md, "Tests that hold on any CPU").

#: a double's relative spacing at 1 (2⁻⁵²): tolerances below are counted in these
ULP = float(np.finfo(float).eps)


def at_most(a, b, *, ulps: float) -> bool:
    """``a <= b`` allowing ``ulps`` units in the last place of the larger magnitude (elementwise,
    all must hold): for an ordering of two results that are computed differently."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    slack = ulps * ULP * np.maximum(np.abs(a), np.abs(b))
    return bool(np.all(a <= b + slack))


def within_ulps(a, b, *, ulps: float) -> bool:
    """``a == b`` up to ``ulps`` units in the last place of the larger magnitude (elementwise)."""
    return at_most(a, b, ulps=ulps) and at_most(b, a, ulps=ulps)


# --- exact arithmetic: foundations' laplace_ratio, exponential_mechanism, randomised_response
# and properties compare a float with its true value -------------------------------------------


def as_float(exact: Fraction) -> float:
    """``exact`` as a float, ±inf beyond the largest one (where ``float()`` raises)."""
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def rr_epsilon_exact(alpha: float):
    """2·artanh(α) with enough digits to tell it from a double next to it (α ≈ 1e-300 too)."""
    import mpmath  # optional: the tests that call this skip without it

    digits = 40 + (0 if alpha == 0 else max(0, -2 * math.floor(math.log10(alpha))))
    with mpmath.workdps(digits):
        return 2 * mpmath.atanh(mpmath.mpf(alpha)), digits


def find_artist(fig, gid):
    """The first line, collection or patch of ``fig`` with this gid (plot data are found by gid)."""
    for ax in fig.axes:
        for artist in [*ax.lines, *ax.collections, *ax.patches]:
            if artist.get_gid() == gid:
                return artist
    raise AssertionError(f"no artist with gid {gid!r}")


class Hang(Exception):
    """A call still running after the guard's 120 s (a hang, never a timing)."""


def _alarm(_signum, _frame):
    raise Hang


def no_nan(value) -> bool:
    """No NaN anywhere in a result (tuples, lists, dicts of arrays; callables, strings and
    generators are not numbers)."""
    if isinstance(value, (tuple, list)):
        return all(no_nan(v) for v in value)
    if isinstance(value, dict):
        return all(no_nan(v) for v in value.values())
    if value is None or callable(value) or isinstance(value, (str, np.random.Generator)):
        return True
    array = np.asarray(value)
    return array.dtype.kind not in "fc" or not np.isnan(array).any()


def contract_outcome(fn, args, kwargs, *, any_runtime_warning: bool = False) -> str | None:
    """None if the call kept the API contract (a ValueError, or a value without NaN), else
    what broke: another exception, a NaN, or a hang.

    An overflow to ±inf at 1e308 or 5e-324 is the correctly rounded answer; an "invalid
    value" warning (a NaN being made) fails through pyproject's filter on ``helpers.*``, or,
    with ``any_runtime_warning``, wherever it is raised.
    """
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(120)  # a guard against a hang only; nothing is timed
    try:
        with warnings.catch_warnings():
            if any_runtime_warning:
                warnings.simplefilter("error", RuntimeWarning)
            warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
            warnings.filterwarnings("ignore", "divide by zero encountered", RuntimeWarning)
            value = fn(*args, **kwargs)
    except ValueError:
        return None
    except Hang:
        return "hung"
    except Exception as error:  # any other exception breaks the contract
        return f"{type(error).__name__}: {error}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return None if no_nan(value) else f"returned NaN: {value!r}"


#: values every numeric parameter of the math layer must refuse or take correctly (the contract's
#: fuzz); BAD_VALUES extends them with booleans hidden in numpy and lists and a huge integer
BASIC_BAD_VALUES = [
    math.nan,
    math.inf,
    -math.inf,
    [],
    [[1.0, 2.0], [3.0]],
    np.zeros((2, 3, 4)),
    "2.2",
    None,
    object(),
    1 + 2j,
    1e308,
    -1e308,
    0,
    -1,
    2,
    10**12,
    5e-324,
    True,
]
BAD_VALUES = [
    *BASIC_BAD_VALUES,
    np.False_,
    [1.0, True],
    10**400,
]


# --- dashboards: an in-place redraw against a fresh draw (issue 33) ----------------------------


def figure_pixels(fig) -> np.ndarray:
    """``fig`` rendered at a dashboard's resolution (its own dpi restored afterwards)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from helpers.widgets._base import DPI

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    dpi = fig.dpi
    fig.set_dpi(DPI)
    try:
        canvas.draw()
        return np.asarray(canvas.buffer_rgba()).copy()
    finally:
        fig.set_dpi(dpi)


def same_as_fresh(dash, where: str) -> None:
    """The dashboard's figure, readout and text alternative are those of a fresh draw at its
    current values (tests/helpers/widgets/test__base.py, tests/helpers/widgets/test_budget.py)."""
    from helpers.plotting import alt_text

    values = dash.values()
    fresh, text = dash._draw(**values)
    assert fresh is not dash.figure, f"{where}: draw() must build a new figure"
    assert dash.text == text, f"{where}: readout differs from a fresh draw"
    assert dash.alt_text == alt_text(fresh), f"{where}: text alternative differs"
    shown, expected = figure_pixels(dash.figure), figure_pixels(fresh)
    assert shown.shape == expected.shape, f"{where}: size {shown.shape} vs {expected.shape}"
    differ = np.any(shown != expected, axis=-1)
    assert not differ.any(), (
        f"{where}: {int(differ.sum())} pixels differ from a fresh draw "
        f"(rows {np.flatnonzero(differ.any(axis=1))[[0, -1]]}, "
        f"columns {np.flatnonzero(differ.any(axis=0))[[0, -1]]})"
    )


def remove_later(path: Path) -> None:
    """Delete the folder ``path`` without waiting: renamed at once (the path is free, nothing
    reads it any more), then removed by ``rm -rf`` in a session of its own. A made environment
    (about 30,000 files, 650 to 800 MB) took 25 s to delete on the project machine's disk
    alone and 65 s under load, in the teardown of the test that made it."""
    path = Path(path)
    if not path.exists():
        return
    if shutil.which("rm") is None:  # Windows: no rm to leave it to
        shutil.rmtree(path, ignore_errors=True)
        return
    doomed = path.with_name(f"{path.name}.deleting-{uuid.uuid4().hex[:8]}")
    path.rename(doomed)
    subprocess.Popen(
        ["rm", "-rf", "--", str(doomed)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def fixed_secret(path: Path, label: str = "tests") -> Path:
    """A grader's secret file whose bytes depend on ``label`` only: the parameters a grading
    test draws (HMAC of the secret over the submission) are then the same on every run, so a
    failure reproduces, where a fresh random secret (the grader's own default) would not."""
    import base64
    import hashlib

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64encode(hashlib.sha256(label.encode()).digest()) + b"\n")
    path.chmod(0o600)
    return path
