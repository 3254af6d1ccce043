"""What the course computes and prints is the same on every CPU.

numpy chooses its sort and its vectorised loops by the machine it runs on (AVX-512, AVX2, SSE
only, NEON). Two things can then differ between a reader's laptop and the machine that
executed the committed notebooks:

* **the last bits of a float.** A difference of two values that agree up to rounding is a few
  1e-15 whose digits change with the CPU. Notebook 09 printed ours − OpenDP's ε (4.218847e-15
  where it was committed, 4.440892e-15 on an AMD machine with AVX2), and CI failed there on
  2026-12-07. A notebook says whether such a difference is below a tolerance; it never prints
  it.
* **the order of equal keys.** numpy's default sort (``quicksort``) is x86-simd-sort where the
  CPU has AVX-512 or AVX2 and another algorithm elsewhere; none guarantees ties their input
  order. Notebook 09's deployments sorted by ε listed the rows of one ε in another order with
  numpy's SIMD turned off. Every sort whose order can reach a result is ``kind="stable"``
  (ties in input order: the same permutation from any stable algorithm).

The second is checked here, on the source (every such call in helpers, instructor, course.py
and the notebooks' code cells) and on a run with numpy's SIMD turned off
(``NPY_DISABLE_CPU_FEATURES``). ``.ci/reader_check.py`` executes every notebook on one of its
two Pythons with numpy's SIMD turned off and OpenBLAS on its SSE3 kernel, and compares what
they print with the committed outputs: that catches orders of ties, float32 and BLAS
differences on any machine, but the first kind only where numpy has float64 exp, log and power
loops to turn off (AVX-512; on an AVX2 machine both runs compute the same float64 bits).
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

#: calls that order records by a key; each must say kind="stable" (or "mergesort", numpy's old
#: name): ties then keep their input order, the same permutation from any stable algorithm
ORDERING = {"argsort", "sort_values", "sort_index"}
STABLE = {"stable", "mergesort"}
#: calls whose order of ties is the default sort's whatever they are told: value_counts sorts
#: by count unless sort=False; nlargest and nsmallest fall back to sort_values; argpartition
#: orders nothing among equals (np.partition, like np.sort, returns values: ties are one value)
UNSTABLE = {"nlargest", "nsmallest", "argpartition"}
#: a line that says why its ties cannot reach a result (an Index's sort_values takes no kind)
ALLOWED = "# ties:"


def unstable_sorts(source: str) -> list[str]:
    """The calls in ``source`` whose order of equal keys can follow the CPU, as
    ``line: call``. ``np.sort`` of values is left alone (equal values are one value), and
    so are ``sorted``, ``list.sort`` and ``np.lexsort`` (stable); a line holding
    :data:`ALLOWED` and a reason is too."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        keywords = {k.arg: k.value for k in node.keywords}
        if name in ORDERING:
            kind = keywords.get("kind")
            fine = isinstance(kind, ast.Constant) and kind.value in STABLE
        elif name == "value_counts":
            sort = keywords.get("sort")
            fine = isinstance(sort, ast.Constant) and sort.value is False
        else:
            fine = name not in UNSTABLE
        if not fine and ALLOWED not in lines[node.lineno - 1]:
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
        "counts = column.value_counts()\n"
        "top = table.nlargest(3, 'e')\n"
        "order = argsort(x)\n"
        "near = np.argpartition(x, 3)\n"
        "head, _, tail = line.partition('=')\n"
        "fine = np.argsort(x, kind='stable')\n"
        "also = table.sort_values('e', kind='mergesort')\n"
        "counts = column.value_counts(sort=False).sort_values(kind='stable')\n"
        "values = np.sort(x)\n"
        "words.sort()\n"
        "index = table.columns.sort_values()  # ties: column names are unique\n"
    )
    assert [line.split(":")[0] for line in unstable_sorts(source)] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
    ]


def simd_off_environment() -> dict[str, str]:
    """The environment of a Python whose numpy runs without any of the CPU features it
    would dispatch to on this machine (its baseline loops and sorts only)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    enabled = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    env = {k: v for k, v in os.environ.items() if k != "NPY_ENABLE_CPU_FEATURES"}
    return {**env, "NPY_DISABLE_CPU_FEATURES": " ".join(enabled)}


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
