"""Every docstring of the math layer tells the truth about its function.

For every public function of the math modules (the list in tests/_modules.py):

* **Return type.** The numpydoc Returns section names a type (``float or numpy.ndarray``,
  ``tuple of numpy.ndarray``, ``Recommendation`` ...; no section means ``None``). The
  function's docstring examples are run with the function wrapped, and so is the
  representative call of tests/test_contract.py; every value returned must be of the
  documented type: a Python ``float`` (not a numpy scalar) for ``float``, an ``int`` for
  ``int``, a ``bool`` for ``bool``, and for ``float or numpy.ndarray`` a float whenever every
  argument is a scalar (the API contract in helpers/__init__.py).
* **Where it is used.** The docstring names the notebooks that call it ("Used in notebooks
  02 and 08."), read from the notebooks' code cells; a function that no notebook calls says
  so and names the helper that uses it ("Not called in a notebook; used by
  ``helpers.plotting.plrv``.") or that it is not used at all.
"""

from __future__ import annotations

import ast
import doctest
import functools
import importlib
import importlib.util
import inspect
import re

import numpy as np
import pandas as pd
import pytest
from _modules import HELPERS, MATH_MODULES, TOOL_NAMES, top_name

NOTEBOOKS = HELPERS.parent / "notebooks"
#: modules others were rewriting when this test was written (deployments documents its returns
#: in prose; neither names its notebooks yet): checked once they are done
PENDING = ()


def _public_functions() -> dict[str, object]:
    """``module.name`` -> function, for every public function defined in a math module."""
    found = {}
    for module_name in MATH_MODULES:
        if top_name(module_name) in TOOL_NAMES:
            continue
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isfunction(obj) and obj.__module__ == module_name:
                found[f"{module_name}.{name}"] = obj
    return found


FUNCTIONS = _public_functions()
CHECKED = sorted(k for k in FUNCTIONS if not k.startswith(PENDING))


# --- the documented return type ---------------------------------------------------------


def returns_section(doc: str) -> list[str]:
    """The type lines of a numpydoc Returns section (the unindented lines), [] if none."""
    lines = doc.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == "Returns" and set(lines[i + 1].strip()) == {"-"}:
            types = []
            for later, following in zip(lines[i + 2 :], [*lines[i + 3 :], ""], strict=True):
                if set(following.strip()) == {"-"}:
                    break  # the next section's heading
                if later and not later[0].isspace():
                    types.append(later.strip())
            return types
    return []


def _split_top(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            start = i + len(separator)
    return [*parts, text[start:]]


def _matcher(spec: str, module):
    """A predicate for a type as written in a Returns section."""
    spec = spec.strip()
    if " : " in spec:  # "name : type"
        spec = spec.split(" : ", 1)[1]
    spec = re.sub(r",\s*shape\b.*$", "", spec).strip()
    if spec.startswith("(") and spec.endswith(")") and len(_split_top(spec[1:-1], ",")) > 1:
        inner = [_matcher(s, module) for s in _split_top(spec[1:-1], ",")]
        return lambda v: (
            isinstance(v, tuple)
            and len(v) == len(inner)
            and all(m(x) for m, x in zip(inner, v, strict=True))
        )
    if spec.startswith("(") and spec.endswith(")"):
        return _matcher(spec[1:-1], module)
    for container in ("tuple", "list"):
        if spec.startswith(f"{container} of "):
            inner = _matcher(spec[len(container) + 4 :], module)
            kind = tuple if container == "tuple" else list
            return lambda v, kind=kind, inner=inner: isinstance(v, kind) and all(map(inner, v))
    alternatives = _split_top(spec, " or ")
    if len(alternatives) > 1:
        matchers = [_matcher(s, module) for s in alternatives]
        return lambda v: any(m(v) for m in matchers)
    base = spec.split(" of ")[0]  # "ndarray of intp"
    exact = {"float": float, "int": int, "bool": bool, "str": str, "None": type(None)}
    if base in exact:
        return lambda v: type(v) is exact[base]
    if base in ("numpy.ndarray", "ndarray"):
        return lambda v: isinstance(v, np.ndarray)
    if base in ("pandas.DataFrame", "DataFrame"):
        return lambda v: isinstance(v, pd.DataFrame)
    if base == "callable":
        return callable
    if base == "numpy.random.Generator":
        return lambda v: isinstance(v, np.random.Generator)
    cls = getattr(module, base, None)
    if cls is None and "." in base:
        owner, _, name = base.rpartition(".")
        cls = getattr(importlib.import_module(owner), name, None)
    if not inspect.isclass(cls):
        raise ValueError(f"unknown type {spec!r} in a Returns section of {module.__name__}")
    return lambda v: isinstance(v, cls)


def documented_type(function):
    """(the Returns section's words, a predicate for the value it documents)."""
    types = returns_section(inspect.getdoc(function) or "")
    module = inspect.getmodule(function)
    if not types:
        return "None (no Returns section)", lambda v: v is None
    if len(types) == 1:
        return types[0], _matcher(types[0], module)
    # several named values: a tuple of them, in order
    parts = [_matcher(t, module) for t in types]
    return f"({'; '.join(types)})", lambda v: (
        isinstance(v, tuple)
        and len(v) == len(parts)
        and all(m(x) for m, x in zip(parts, v, strict=True))
    )


def _is_scalar(value) -> bool:
    return isinstance(value, (int, float, str, type(None))) and not isinstance(value, bool)


def contract_problem(function, words: str, args: tuple, kwargs: dict, value) -> str | None:
    """The API contract beyond the type: a scalar call of a float-or-array function is a float
    (a sampler's ``size`` asks for an array)."""
    if words.startswith("float or") and "ndarray" in words and isinstance(value, np.ndarray):
        bound = inspect.signature(function).bind(*args, **kwargs).arguments
        if bound.get("size") is None and all(map(_is_scalar, bound.values())):
            return "every argument is a scalar but an ndarray came back"
    return None


# --- the calls: each function's docstring examples and its representative call ------------


@functools.cache
def recorded_calls() -> dict[str, list[tuple[tuple, dict, object]]]:
    """``module.name`` -> [(args, kwargs, value)] of every call made by the examples."""
    calls: dict[str, list] = {key: [] for key in FUNCTIONS}

    def recording(key, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            value = function(*args, **kwargs)
            calls[key].append((args, kwargs, value))
            return value

        return wrapper

    for module_name in sorted({k.rpartition(".")[0] for k in FUNCTIONS}):
        module = importlib.import_module(module_name)
        globs = {"np": np, **vars(module)}
        for key, function in FUNCTIONS.items():
            if key.rpartition(".")[0] == module_name:
                globs[function.__name__] = recording(key, function)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        for test in doctest.DocTestFinder(exclude_empty=True).find(
            module, module_name, globs=globs
        ):
            runner.run(test, out=lambda _: None)
    return calls


def representative_calls() -> dict[str, tuple[tuple, dict]]:
    """The one valid call per public function that tests/test_contract.py fuzzes around."""
    from test_contract import VALID

    return {f"{f.__module__}.{f.__name__}": call for f, call in VALID.items()}


@pytest.mark.parametrize("key", CHECKED)
def test_the_documented_return_type_is_the_returned_one(key):
    function = FUNCTIONS[key]
    words, matches = documented_type(function)
    calls = list(recorded_calls()[key])
    representative = representative_calls().get(key)
    if representative is not None:
        args, kwargs = representative
        calls.append((args, kwargs, function(*args, **kwargs)))
    assert calls, f"{key}: no example and no representative call to check its Returns against"
    for args, kwargs, value in calls:
        call = f"{function.__name__}(*{args!r:.80}, **{kwargs!r:.80})"
        assert matches(value), f"{key}: documents {words!r}, but {call} gave {type(value)}"
        problem = contract_problem(function, words, args, kwargs, value)
        assert problem is None, f"{key}: {call}: {problem}"


@pytest.mark.parametrize(
    ("words", "good", "bad"),
    [
        ("float or numpy.ndarray", [1.0, np.zeros(2)], [np.float64(1.0), 1, True]),
        ("tuple of numpy.ndarray", [(np.zeros(1),)], [(1.0,), [np.zeros(1)]]),
        ("(ndarray, ndarray)", [(np.zeros(1), np.zeros(1))], [(np.zeros(1),)]),
        ("list of (float, float)", [[(1.0, 2.0)]], [[(1.0, 2)], [1.0]]),
        ("ndarray, shape (W,)", [np.zeros(3)], [[0.0]]),
        ("int", [3], [3.0, True, np.int64(3)]),
        ("bool", [True], [1, np.bool_(True)]),
    ],
)
def test_the_return_type_reader(words, good, bad):
    # the reader itself: a wrong verdict here would make the test above vacuous
    matches = _matcher(words, np)
    assert all(matches(v) for v in good)
    assert not any(matches(v) for v in bad)


# --- the notebooks that use each function -------------------------------------------------


@functools.cache
def _helpers_page():
    """docs/helpers_by_notebook.py, the one reader of the notebooks' helper calls."""
    path = HELPERS.parent / "docs" / "helpers_by_notebook.py"
    spec = importlib.util.spec_from_file_location("helpers_by_notebook", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def notebook_uses() -> dict[str, set[str]]:
    """``module.name`` -> the notebooks ("08") whose code cells call or name the function."""
    return _helpers_page().notebook_uses()


_USED_IN = re.compile(r"Used in notebooks? ([0-9, and]+)\.")
_NOT_CALLED = re.compile(
    r"Not called in a notebook; (?:used by ((?:``[\w.]+``(?:, | and )?)+)|no other helper uses it)\."
)


def usage_sentence(key: str) -> str:
    """The sentence the docstring should carry for the notebooks found (the message's hint)."""
    notebooks = sorted(notebook_uses().get(key, ()))
    if not notebooks:
        return "Not called in a notebook; used by ``helpers.<module>``."
    if len(notebooks) == 1:
        return f"Used in notebook {notebooks[0]}."
    return f"Used in notebooks {', '.join(notebooks[:-1])} and {notebooks[-1]}."


@pytest.mark.parametrize("key", CHECKED)
def test_the_docstring_names_the_notebooks_that_use_the_function(key):
    doc = " ".join((inspect.getdoc(FUNCTIONS[key]) or "").split())
    found = sorted(notebook_uses().get(key, ()))
    used = _USED_IN.search(doc)
    not_called = _NOT_CALLED.search(doc)
    hint = f"{key}: the docstring should say {usage_sentence(key)!r}"
    if found:
        assert used, hint
        assert sorted(re.findall(r"\d\d", used.group(1))) == found, hint
    else:
        assert not used and not_called, hint
        for module in re.findall(r"``([\w.]+)``", not_called.group(1) or ""):
            importlib.import_module(module)  # a helper that exists
            name = key.rpartition(".")[2]
            path = HELPERS.parent / (module.replace(".", "/") + ".py")
            if path.exists():
                used_there = re.search(rf"\b{name}\b", path.read_text())
            else:  # a package uses it where one of its modules reads the name (not its def)
                package = HELPERS.parent / module.replace(".", "/")
                used_there = any(_reads_name(p, name) for p in package.rglob("*.py"))
            assert used_there, f"{key}: {module} does not use it"


def _reads_name(path, name: str) -> bool:
    """Whether a module's code reads ``name`` (a name or an attribute; its def, an import
    or a docstring does not count)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name) and node.id == name:
            return True
        if isinstance(node, ast.Attribute) and node.attr == name:
            return True
    return False


def test_the_notebook_reader_finds_known_uses():
    uses = notebook_uses()
    assert "08" in uses["helpers.plrv.gaussian_delta"]
    assert "01" in uses["helpers.lee_clifton.worlds.possible_worlds"]  # from-imported
    assert "06" in uses["helpers.kazan_reiter.theorems.relative_risk_bound"]  # via the facade


_SECTION = re.compile(
    r"^(Parameters|Returns|Yields|Raises|Notes|References|Examples)\n-{3,}$", re.M
)


@pytest.mark.parametrize("key", CHECKED)
def test_the_notebook_line_comes_before_the_first_section(key):
    """Where the docstring says who uses it, it says so in its description, where a reader
    of ``help()`` looks, not appended to References."""
    doc = inspect.getdoc(FUNCTIONS[key]) or ""
    usage = re.search(r"Used in notebooks?\s|Not called in a notebook", doc)
    first = _SECTION.search(doc)
    assert usage, f"{key}: no 'Used in notebook …' / 'Not called in a notebook' line"
    assert first is None or usage.start() < first.start(), (
        f"{key}: its 'Used in …' line sits inside a section; move it before {first.group(1)}"
    )
