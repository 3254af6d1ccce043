"""Write docs/helpers-by-notebook.md: for each notebook, the helpers its code cells call.

    python docs/helpers_by_notebook.py          # rewrite the page
    python docs/helpers_by_notebook.py --check  # exit 1 if the page is not current

The forward link (d2l's "functions defined in this section"): each public function's docstring
carries the backward one, "Used in notebook NN." (tests/test_docstrings.py holds it, reading the
notebooks with :func:`notebook_uses` below; tests/test_docs.py holds this page).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
PAGE = ROOT / "docs" / "helpers-by-notebook.md"


def _code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = []
    for cell in cells:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            # IPython magics and shell lines are not Python
            code.append(
                "\n".join(
                    ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))
                )
            )
    return code


def _canonical(module_name: str, name: str) -> str | None:
    """``module.name`` of the function or class a notebook reaches as ``module_name.name``."""
    try:
        obj = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        return None
    if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__.startswith("helpers"):
        return f"{obj.__module__}.{obj.__qualname__}"
    return None


def _public_home(obj) -> str:
    """The outermost package that exports ``obj`` in its ``__all__``: the path a reader imports
    (``helpers.budget.Release``, not the module of the package that defines it)."""
    home = obj.__module__
    while home.count(".") > 1:
        parent = importlib.import_module(home.rpartition(".")[0])
        if obj.__qualname__ not in getattr(parent, "__all__", ()):
            break
        if getattr(parent, obj.__qualname__, None) is not obj:
            break
        home = parent.__name__
    return home


def _names_used(tree: ast.AST, aliases: dict[str, str], imported: dict[str, str]) -> set[str]:
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain, base = [node.attr], node.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name):
                parts = [base.id, *reversed(chain)]
                if parts[0] in aliases:  # alias.name, helpers.module.name
                    module = ".".join([aliases[parts[0]], *parts[1:-1]])
                    used.add(_canonical(module, parts[-1]))
        elif isinstance(node, ast.Name) and node.id in imported:
            used.add(_canonical(imported[node.id], node.id))
    return used - {None}


def notebook_paths() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


@functools.cache
def notebook_uses() -> dict[str, set[str]]:
    """``module.name`` -> the notebooks ("08") whose code cells call or name the helper."""
    uses: dict[str, set[str]] = {}
    for path in notebook_paths():
        aliases: dict[str, str] = {}  # local name -> module
        imported: dict[str, str] = {}  # local name -> module it came from
        for source in _code_cells(path):
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.asname:
                            aliases[alias.asname] = alias.name
                        else:
                            aliases[alias.name.split(".")[0]] = alias.name.split(".")[0]
                elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("helpers"):
                    for alias in node.names:
                        full = f"{node.module}.{alias.name}"
                        local = alias.asname or alias.name
                        try:
                            importlib.import_module(full)
                            aliases[local] = full
                        except ImportError:
                            imported[local] = node.module
            for key in _names_used(tree, aliases, imported):
                uses.setdefault(key, set()).add(path.name[:2])
    return uses


def _helper(key: str):
    """The function or class a key (``module.qualname``) names."""
    module_name, _, name = key.rpartition(".")
    while module_name and module_name not in sys.modules:  # a class's method: Class.method
        module_name, _, outer = module_name.rpartition(".")
        name = f"{outer}.{name}"
    obj = importlib.import_module(module_name)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _shown(key: str) -> str:
    """The name a reader imports: the defining module's public package when it exports it."""
    obj = _helper(key)
    if "." in obj.__qualname__:  # a method: shown under its class
        return key
    return f"{_public_home(obj)}.{obj.__qualname__}"


def _summary(key: str) -> str:
    """The first sentence of the helper's docstring, on one line."""
    doc = " ".join((inspect.getdoc(_helper(key)) or "").split("\n\n")[0].split())
    return doc.replace("|", "\\|")


def page() -> str:
    """The page's Markdown, from the notebooks as they are."""
    by_notebook: dict[str, list[str]] = {}
    for key, notebooks in notebook_uses().items():
        for number in notebooks:
            by_notebook.setdefault(number, []).append(key)
    lines = [
        "# The helpers each notebook uses",
        "",
        "Generated by `python docs/helpers_by_notebook.py` from the notebooks' code cells (a test",
        "fails when it is stale). For each notebook, every function and class of `helpers` it",
        "calls or names, with the first line of its docstring; `help(name)` in a notebook shows the",
        'rest. The backward link is in each docstring: "Used in notebook NN."',
    ]
    for path in notebook_paths():
        number = path.name[:2]
        lines += ["", f"## [{path.stem}](../notebooks/{path.name})", ""]
        keys = sorted(by_notebook.get(number, ()), key=_shown)
        if not keys:
            lines.append("No helper is called.")
            continue
        lines += ["| helper | what it does |", "|---|---|"]
        lines += [f"| `{_shown(key)}` | {_summary(key)} |" for key in keys]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    text = page()
    if "--check" in argv:
        current = PAGE.exists() and PAGE.read_text(encoding="utf-8") == text
        if not current:
            print(f"{PAGE.relative_to(ROOT)} is stale: run python docs/helpers_by_notebook.py")
        return 0 if current else 1
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
