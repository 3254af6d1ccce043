"""The layer rules stated in helpers/__init__.py, checked on every import of every file.

* every module of ``helpers`` belongs to a layer of the list (the list is the one in
  tests/_modules.py, read from the docstring, so the docstring cannot drift from the code);
* a module imports only from its own layer and the layers below it;
* the math layer never imports matplotlib or ipywidgets (read from the source, and checked
  by importing every math module in a fresh interpreter);
* no package imports a private module or name of another: a private module serves its own
  package and the packages inside it (``helpers._validation``, ``helpers._numerics``,
  ``helpers._cache`` and ``helpers._docstrings``: the math layer only), a private name only
  the modules of its own package and of the packages inside it, and the few names listed in
  ``SHARED_PRIVATE`` with the reason (``helpers.release`` reads ``helpers.budget``'s workload
  parser, as ``release.py`` did when both were modules of one package).
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys

import pytest
from _modules import (
    ALL_MODULES,
    HELPERS,
    LAYER_OF,
    LAYERS,
    MATH_MODULES,
    MATH_NAMES,
    ROOT,
    top_name,
)

GUI = ("matplotlib", "ipywidgets")
#: private modules of ``helpers`` itself, which serve the math layer only
MATH_PRIVATE = (
    "helpers._validation",
    "helpers._numerics",
    "helpers._cache",
    "helpers._docstrings",
)


def _package(module: str, modules: dict = ALL_MODULES) -> str:
    """The package a module belongs to (a package's ``__init__`` belongs to the package)."""
    path = modules[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# Private names one package reads from another, each with its reason (kept short on purpose).
SHARED_PRIVATE = {
    # the workload parser of notebook 11, which notebook 12's releases take as given
    ("helpers.release", "helpers.budget"): {"_parse", "_rows", "_columns"},
}


def _top_package(package: str) -> str:
    """``helpers.x`` for any package inside ``helpers.x`` (the unit SHARED_PRIVATE names)."""
    return ".".join(package.split(".")[:2])


def _imports(module: str, source: str | None = None) -> list[tuple[str, list[str], int]]:
    """(module imported, names imported from it, line) for every import statement of a module.

    ``source`` stands in for the module's file (the tests of the checker itself use it).
    """
    path = ALL_MODULES[module]
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package(module).split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [alias.name for alias in node.names]
            found.append((target, names, node.lineno))
            # ``from . import x`` imports the module helpers.x (or a name of the package)
            found += [
                (f"{target}.{n}", [], node.lineno) for n in names if f"{target}.{n}" in ALL_MODULES
            ]
    return found


def _known_module(target: str, modules: dict) -> str | None:
    """The module of ``modules`` that an import target names (None outside them)."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def _helpers_module(target: str) -> str | None:
    """The module of ``helpers`` that an import target names (None outside the package)."""
    found = _known_module(target, ALL_MODULES)
    return found if found and found.startswith("helpers") else None


def upward_imports(module: str, source: str | None = None) -> list[str]:
    """Imports of a module from a layer above its own."""
    upward = []
    for target, _, line in _imports(module, source):
        imported = _helpers_module(target)
        if imported is None or imported == "helpers" or top_name(imported) == top_name(module):
            continue
        if LAYER_OF[top_name(imported)] < LAYER_OF[top_name(module)]:
            upward.append(f"line {line}: {imported} (layer of {top_name(imported)})")
    return upward


def gui_imports(module: str, source: str | None = None) -> list[str]:
    """Imports of matplotlib or ipywidgets (anywhere in the file, functions included)."""
    return [
        f"line {line}: {target}"
        for target, _, line in _imports(module, source)
        if target.split(".")[0] in GUI
    ]


def private_imports(module: str, source: str | None = None) -> list[str]:
    """Imports of a private module or name that the module's package may not use."""
    offenders = []
    package = _package(module)
    for target, names, line in _imports(module, source):
        imported = _helpers_module(target)
        if imported is None:
            continue
        leaf = imported.rpartition(".")[2]
        if _is_private(leaf):
            owner = imported.rpartition(".")[0]
            if imported in MATH_PRIVATE:
                allowed = top_name(module) in MATH_NAMES
            else:
                allowed = package == owner or package.startswith(owner + ".")
            if not allowed:
                offenders.append(f"line {line}: the private module {imported}")
        private_names = [n for n in names if _is_private(n)]
        owner = _package(imported)
        inside = package == owner or package.startswith(owner + ".")
        shared = set(private_names) <= SHARED_PRIVATE.get((_top_package(package), imported), set())
        if private_names and not (inside or shared):
            offenders.append(f"line {line}: the private names {private_names} of {imported}")
    return offenders


def test_the_layers_are_read_from_the_docstring():
    assert len(LAYERS) >= 5
    assert "plrv" in MATH_NAMES and "plotting" not in MATH_NAMES
    # choose and deployments import kazan_reiter and plrv, so they sit above them
    assert LAYER_OF["choose"] < LAYER_OF["kazan_reiter"] == LAYER_OF["plrv"]


def test_every_module_belongs_to_a_layer():
    unlisted = sorted(
        {top_name(m) for m in ALL_MODULES if top_name(m) and top_name(m) not in LAYER_OF}
    )
    assert unlisted == [], f"add {unlisted} to the layers in helpers/__init__.py"
    absent = sorted(name for name in LAYER_OF if f"helpers.{name}" not in ALL_MODULES)
    assert absent == [], f"helpers/__init__.py lists layers for missing modules {absent}"


@pytest.mark.parametrize("module", sorted(m for m in ALL_MODULES if m != "helpers"))
def test_imports_only_from_its_own_layer_or_below(module):
    assert upward_imports(module) == []


@pytest.mark.parametrize("module", MATH_MODULES)
def test_the_math_layer_imports_no_gui_library(module):
    assert gui_imports(module) == []


def test_importing_the_math_layer_loads_no_gui_library():
    # transitively too: a fresh interpreter imports every math module, then looks
    code = (
        "import importlib, sys\n"
        f"for name in {MATH_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {GUI!r}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=HELPERS.parent
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("module", sorted(ALL_MODULES))
def test_no_private_module_or_name_of_another_package(module):
    assert private_imports(module) == []


def test_the_checks_catch_what_they_describe():
    # each rule broken once, in a stand-in source for a real module
    assert upward_imports("helpers.plrv", "from .plotting import plot_privacy_profile\n")
    assert upward_imports("helpers.kazan_reiter.durham", "from ..choose import choose\n")
    assert not upward_imports("helpers.choose", "from . import kazan_reiter as kr\n")
    assert gui_imports("helpers.plrv", "def f():\n    import matplotlib.pyplot as plt\n")
    assert gui_imports("helpers.foundations.closeness", "from ipywidgets import FloatSlider\n")
    # a private module of another package; the math layer's private module above it
    assert private_imports("helpers.widgets.plrv", "from ..plotting._style import SMALL\n")
    assert private_imports("helpers.plotting.plrv", "from .._validation import check_real\n")
    assert not private_imports("helpers.plrv", "from ._validation import check_real\n")
    assert not private_imports(
        "helpers.exercises.answers", "from .._core import Precision\n"
    )  # a package inside the private module's own package
    # a private name of another package; of a module of the same package
    assert private_imports("helpers.kazan_reiter.profiles", "from ..foundations import _x\n")
    assert private_imports("helpers.budget", "from ..kazan_reiter.theorems import _C_TOL\n")
    assert not private_imports("helpers.kazan_reiter.optimiser", "from .theorems import _C_TOL\n")
    assert not private_imports("helpers.foundations", "from .closeness import __all__ as _c\n")
    # a package inside the name's package may use it; the package around it may not
    assert not private_imports("helpers.budget.workload_choice", "from ._common import _parse\n")
    assert private_imports("helpers.budget", "from ..release.people import _dropped\n")
    # the listed sharing, and no more: release reads budget's parser, plotting does not
    assert not private_imports("helpers.release._checks", "from ..budget import _parse\n")
    assert private_imports("helpers.release._checks", "from ..budget import _check_total\n")
    assert private_imports("helpers.plotting.budget", "from ..budget import _parse\n")
    assert private_imports("helpers.release", "from ..budget._common import _parse\n")


# --- instructor/: the helpers' public names only -----------------------------------------------

INSTRUCTOR = ROOT / "instructor"


def instructor_private_imports(path, source: str | None = None) -> list[str]:
    """Imports of ``helpers``' private modules or names by an instructor module."""
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    offenders = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            targets = [(node.module or "", [alias.name for alias in node.names])]
        else:
            continue  # a relative import stays inside instructor/
        for target, names in targets:
            if target.split(".")[0] != "helpers":
                continue
            private = [p for p in target.split(".") if _is_private(p)]
            private += [n for n in names if _is_private(n)]
            if private:
                offenders.append(f"line {node.lineno}: {target} {private}")
    return offenders


@pytest.mark.parametrize(
    "path",
    sorted(INSTRUCTOR.rglob("*.py")),
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_instructor_uses_only_public_names_of_helpers(path):
    assert instructor_private_imports(path) == []


def test_the_instructor_check_catches_what_it_describes():
    path = INSTRUCTOR / "__init__.py"
    assert instructor_private_imports(path, "from helpers.exercises._open import OPEN\n")
    assert instructor_private_imports(path, "from helpers.exercises import _answers\n")
    assert instructor_private_imports(path, "import helpers._numerics\n")
    assert not instructor_private_imports(path, "from helpers.exercises import OPEN\n")
    assert not instructor_private_imports(path, "from . import _private_here\n")


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``: false when the module runs."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_targets(
    module: str, source: str | None = None, modules: dict = ALL_MODULES
) -> set[str]:
    """The modules of ``helpers`` a module imports when it is imported (not inside a function,
    nor under ``if TYPE_CHECKING:``).

    ``from .x import name`` imports ``x``; ``from . import x`` imports the submodule ``x``
    (the package only when a name is not a submodule). A package's ``__init__`` run on the
    way to a submodule is not counted: every submodule would depend on its package.
    """
    path = modules[module]
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    targets: set[str] = set()
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # runs when called, not on import
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend(node.orelse)  # ``if TYPE_CHECKING:`` imports for annotations only
            continue
        if isinstance(node, ast.Import):
            targets.update(_known_module(alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package(module, modules).split(".")
                base = base[: len(base) - (node.level - 1)]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [alias.name for alias in node.names]
            subs = {f"{base}.{n}" for n in names if f"{base}.{n}" in modules}
            targets.update(subs)
            if len(subs) < len(names):
                targets.add(_known_module(base, modules))
        else:
            pending.extend(ast.iter_child_nodes(node))
    targets.discard(None)
    targets.discard(module)
    return targets


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle found by a depth-first search of ``graph`` (module -> modules it imports)."""
    cycles, state = [], {}
    for start in sorted(graph):
        if start in state:
            continue
        stack = [(start, iter(sorted(graph.get(start, ()))))]
        path, state[start] = [start], "open"
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                state[node] = "done"
            elif state.get(child) == "open":
                cycles.append([*path[path.index(child) :], child])
            elif child not in state:
                state[child] = "open"
                path.append(child)
                stack.append((child, iter(sorted(graph.get(child, ())))))
    return cycles


def test_helpers_has_no_import_cycle():
    graph = {module: _import_time_targets(module) for module in ALL_MODULES}
    assert graph["helpers.exercises._open"] >= {"helpers.exercises.nb11"}  # the graph is read
    # a package's modules are nodes of their own (the mechanisms: discrete builds on continuous)
    assert graph["helpers.mechanisms.discrete"] >= {
        "helpers.mechanisms.base",
        "helpers.mechanisms.continuous",
    }
    cycles = import_cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


#: every module of ``instructor/`` (its ``__main__`` too), by its file
INSTRUCTOR_MODULES = {
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
    for p in sorted(INSTRUCTOR.rglob("*.py"))
}


def test_instructor_has_no_import_cycle():
    # instructor/answer_key/ is a package of modules, each importing only those before it
    graph = {
        module: _import_time_targets(module, modules=INSTRUCTOR_MODULES)
        for module in INSTRUCTOR_MODULES
    }
    assert graph["instructor.answer_key"] >= {"instructor.answer_key.to_html"}  # the graph is read
    back = "from .to_html import render_html\n"  # what a cycle would take: read as an edge
    assert _import_time_targets(
        "instructor.answer_key.sources", back, modules=INSTRUCTOR_MODULES
    ) == {"instructor.answer_key.to_html"}
    cycles = import_cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_catches_what_it_describes():
    ring = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(ring) == [["a", "b", "c", "a"]]
    assert import_cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []
    # the old circle: _open imported nb11 at its end (for its registering), nb11 imported _open
    module = "helpers.exercises.nb11"
    assert "helpers.exercises._open" in _import_time_targets(
        module, "from ._open import _is_number\n"
    )
    lazy = "def f():\n    from ._open import OPEN\n"
    assert _import_time_targets(module, lazy) == set()
    # a name imported for annotations only (families names a Risk, risk reads the families)
    typing_only = "if TYPE_CHECKING:\n    from .risk import Risk\nelse:\n    from . import pld\n"
    assert _import_time_targets("helpers.budget.families", typing_only) == {"helpers.budget.pld"}
    assert "helpers.budget.families" in _import_time_targets(
        "helpers.budget.risk", "from .families import NoiseFamily\n"
    )


# ---------------------------------------------------------------------------------------------
# A package's __all__: one way for every package. The package imports each public name of its
# modules explicitly (``from .x import a, b``, never ``import *``) and lists them in a literal
# ``__all__``, which ruff reads (F401: an import missing from __all__; F822: a name of __all__
# never bound). What ruff cannot see, checked here: that the literal holds every name of its
# public modules' own ``__all__``s; the rest of it is what the package adds on purpose (a name it
# defines, takes from another package or from a module that does not export it).

#: the packages of helpers and instructor whose ``__init__`` imports from their own modules
PACKAGES = sorted(
    name
    for name, path in ALL_MODULES.items()
    if path.name == "__init__.py"
    and any(
        isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        for node in ast.parse(path.read_text(encoding="utf-8")).body
    )
)


def export_problems(package: str, source: str | None = None) -> list[str]:
    """What is wrong with ``package``'s ``__all__`` (see the comment above); [] if nothing."""
    import importlib

    if source is None:
        source = ALL_MODULES[package].read_text(encoding="utf-8")
    tree = ast.parse(source)
    from_modules: dict[str, set[str]] = {}  # .x → the names imported from it
    own: set[str] = set()  # defined here, or imported from another package
    exported = None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            names = {a.asname or a.name for a in node.names}
            from_modules.setdefault(node.module, set()).update(names)
        elif isinstance(node, ast.ImportFrom):
            own.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == "__all__":
                    try:
                        exported = ast.literal_eval(node.value)
                    except ValueError:
                        return [f"{package}: __all__ is not a literal list (ruff reads only one)"]
                elif isinstance(target, ast.Name):
                    own.add(target.id)
    if exported is None:
        return [f"{package}: no __all__"]
    problems = []
    if len(set(exported)) != len(exported):
        problems.append(f"{package}: __all__ lists a name twice")
    bound = own.union(*from_modules.values())
    for module in sorted(from_modules):
        public = getattr(importlib.import_module(f"{package}.{module}"), "__all__", None)
        if public is None or _is_private(module):
            continue  # a private module serves the package, which exports what it chooses
        for name in sorted(set(public) - set(exported)):
            problems.append(f"{package}: .{module} exports {name}, the package does not")
        for name in sorted(set(public) - bound):
            problems.append(f"{package}: .{module} exports {name}, the package never imports it")
    for name in sorted(set(exported) - bound):
        problems.append(f"{package}: exports {name}, which it never binds")
    return problems


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_exports_exactly_what_its_modules_export(package):
    assert export_problems(package) == []


def test_packages_are_found():
    assert {"helpers.budget", "helpers.mechanisms", "helpers.foundations"} <= set(PACKAGES)


def test_the_export_check_catches_what_it_describes():
    package = "helpers.kazan_reiter"
    source = ALL_MODULES[package].read_text(encoding="utf-8")
    assert export_problems(package, source) == []
    forgotten = source.replace('    "utility",\n', "")
    assert export_problems(package, forgotten) == [
        f"{package}: .durham exports utility, the package does not"
    ]
    unimported = source.replace("    utility,\n", "")
    assert export_problems(package, unimported) == [
        f"{package}: .durham exports utility, the package never imports it",
        f"{package}: exports utility, which it never binds",
    ]
    composed = source.replace("__all__ = [", "__all__ = sorted([").replace("\n]\n", "\n])\n")
    assert export_problems(package, composed) == [
        f"{package}: __all__ is not a literal list (ruff reads only one)"
    ]
    extra = source.replace("__all__ = [", '__all__ = [\n    "stray",')
    assert export_problems(package, extra) == [f"{package}: exports stray, which it never binds"]


# --- private attributes: a method or attribute an object's own package keeps to itself -------


def _private_members(modules: dict = ALL_MODULES) -> dict:
    """{package: private names its classes define (methods, class attributes, properties)}."""
    out: dict = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = out.setdefault(_package(module, modules), set())
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found = [item.name]
                elif isinstance(item, ast.Assign):
                    found = [t.id for t in item.targets if isinstance(t, ast.Name)]
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    found = [item.target.id]
                else:
                    found = []
                names.update(n for n in found if _is_private(n))
    return out


def private_attribute_access(module: str, source: str | None = None, members=None) -> list[str]:
    """``obj._name`` where ``_name`` is a private member of a class of another package of
    helpers (attribute access, which the import rule cannot see): what a layer reads of a
    mechanism must be public (issue 46: two PLD pipelines reached into ``_threshold``)."""
    members = _private_members() if members is None else members
    own = _package(module) if module in ALL_MODULES else module.rpartition(".")[0]
    mine = set().union(*(v for k, v in members.items() if own == k or own.startswith(k + ".")))
    theirs = set().union(
        *(v for k, v in members.items() if not (own == k or own.startswith(k + ".")))
    )
    source = ALL_MODULES[module].read_text(encoding="utf-8") if source is None else source
    offenders = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not _is_private(node.attr):
            continue
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            continue
        if node.attr in theirs and node.attr not in mine:
            offenders.append(f"line {node.lineno}: .{node.attr}")
    return offenders


@functools.cache
def _members() -> dict:
    """:func:`_private_members`, read once per process when a test first needs it (never at
    import: every phase's collection imports this module, issue 50)."""
    return _private_members()


@pytest.mark.parametrize("module", sorted(ALL_MODULES))
def test_no_private_attribute_of_another_package(module):
    assert private_attribute_access(module, members=_members()) == []


def test_the_attribute_check_catches_what_it_describes():
    bad = "def f(mech):\n    return mech._threshold(0.5) + mech._pld_spread()\n"
    found = private_attribute_access("helpers.attack", bad, _members())
    assert found == ["line 2: ._threshold", "line 2: ._pld_spread"]
    good = "def f(mech):\n    return mech.loss_pmf(1e-4).delta(0.5)\n"
    assert private_attribute_access("helpers.attack", good, _members()) == []
