"""What the course computes and prints is the same on every CPU.

numpy chooses its sort and its vectorised loops by the machine it runs on (AVX-512, AVX2, SSE
only, NEON). Two things then differ between a reader's laptop and the machine that executed
the committed notebooks:

* **the order of equal keys.** numpy's default sort (``quicksort``) is x86-simd-sort where the
  CPU has AVX-512 or AVX2, another algorithm elsewhere, and none of them keeps ties in their
  input order. Notebook 09's table of deployments, sorted by ε, listed the rows of one ε in
  another order on an AMD machine with AVX2 than on the machine that committed it, and CI
  failed there. Every sort whose order can reach a result is ``kind="stable"`` (ties in
  input order, the same permutation from any stable algorithm).
* **the last bits of a float.** A difference of two values that agree up to rounding (a
  cross-check against OpenDP, two routes to one posterior) is a few 1e-15 whose digits
  change with the CPU. A notebook says whether it is below a tolerance, never prints it.

The first is checked here, on the source and on a run with numpy's SIMD turned off
(``NPY_DISABLE_CPU_FEATURES``); the second by ``.ci/reader_check.py``, which executes every
notebook on one of its two Pythons with numpy's SIMD and OpenBLAS's kernels at the oldest
x86-64 level and compares what they print with the committed outputs.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

#: calls that order records; each must say kind="stable" (or "mergesort", numpy's old name)
ORDERING = {"argsort", "sort_values", "sort_index"}
STABLE = {"stable", "mergesort"}


def unstable_sorts(source: str) -> list[str]:
    """The calls in ``source`` that order records without ``kind="stable"``, as
    ``line: call``. ``np.sort`` of values is left alone: equal values are one value."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in ORDERING:
            continue
        kind = next((k.value for k in node.keywords if k.arg == "kind"), None)
        if not (isinstance(kind, ast.Constant) and kind.value in STABLE):
            found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def _sources() -> list[tuple[str, str]]:
    """(where, source) of every module of helpers and instructor, course.py, and every code
    cell of the notebooks (magics dropped)."""
    found = [
        (str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
        for folder in ("helpers", "instructor")
        for path in sorted((ROOT / folder).rglob("*.py"))
    ]
    found.append(("course.py", (ROOT / "course.py").read_text(encoding="utf-8")))
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for number, cell in enumerate((c for c in cells if c["cell_type"] == "code"), 1):
            lines = "".join(cell["source"]).splitlines()
            code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
            found.append((f"{path.name}, code cell {number}", code))
    return found


def test_every_sort_that_orders_records_is_stable():
    problems = [
        f"{where}, line {call}" for where, source in _sources() for call in unstable_sorts(source)
    ]
    assert problems == [], "sorts whose ties follow the CPU:\n" + "\n".join(problems)


def test_the_sort_check_catches_what_it_describes():
    source = (
        "order = np.argsort(x)\n"
        "table.sort_values('e')\n"
        "table.sort_index(kind='quicksort')\n"
        "fine = np.argsort(x, kind='stable')\n"
        "also = table.sort_values('e', kind='mergesort')\n"
        "values = np.sort(x)\n"
        "words.sort()\n"
    )
    assert [line.split(":")[0] for line in unstable_sorts(source)] == ["1", "2", "3"]


def simd_off_environment() -> dict[str, str]:
    """The environment of a Python whose numpy runs without any of the CPU features it
    would dispatch to on this machine (its baseline loops and sorts only)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    enabled = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    return {**os.environ, "NPY_DISABLE_CPU_FEATURES": " ".join(enabled)}


def test_the_registrys_order_keeps_ties_as_listed_and_is_the_same_without_simd():
    import helpers.deployments as dep

    table = dep.load()
    usable = dep.usable(table)
    listed = [name for name in table["name"] if name in set(usable["name"])]
    for epsilon, rows in usable.groupby("epsilon_used", sort=False):
        assert list(rows["name"]) == [n for n in listed if n in set(rows["name"])], epsilon
    assert np.all(np.diff(usable["epsilon_used"].to_numpy()) >= 0)
    code = "import helpers.deployments as dep, json; print(json.dumps(list(dep.usable()['name'])))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=simd_off_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == list(usable["name"])
