"""helpers.plotting.rounding: a risk a figure or a readout prints is rounded toward the person.

Two halves. The formatters: over every finite double and every format spec the figures use,
``risk_up`` prints a decimal never below the value's own decimal (its ``repr``) and less than
one unit of the last printed place above it; ``allowed_down`` the mirror image (exact
:class:`decimal.Decimal` arithmetic is the reference). The class of the defect: every
f-string, ``%``-format and ``round(`` in ``helpers/plotting`` and ``helpers/widgets`` that
prints a number with a precision either goes through ``risk_up``/``allowed_down`` or is on
:data:`NOT_A_RISK`, each entry with its reason; a new ``f"{tpr:.4f}"`` fails here.
"""

from __future__ import annotations

import ast
import re
from decimal import Context, Decimal, localcontext

import pytest
from _modules import HELPERS
from hypothesis import given
from hypothesis import strategies as st

from helpers.plotting import allowed_down, risk_up

# --- the formatters, against exact decimals ---------------------------------------------

#: enough digits that a sum of a double's decimal and a unit 10⁻³²⁴ to 10³⁰⁸ is exact
EXACT = Context(prec=2_000, Emin=-2_000, Emax=2_000)
#: the format specs the figures and readouts use
SPECS = [".0f", ".2f", ".4f", ".6f", ".1%", ".0%", ".2%", ".2g", ".3g", ".4g", "g", ".3e", ",.1f"]


def _printed(text: str, spec: str) -> Decimal:
    """The decimal a formatted string shows (as a fraction for ``%``)."""
    text = text.replace(",", "")
    if spec.endswith("%"):
        return Decimal(text.rstrip("%")).scaleb(-2)
    return Decimal(text)


def _unit(exact: Decimal, spec: str) -> Decimal:
    """One unit in the last place the spec prints, for x's own exponent."""
    precision = int(re.search(r"\.(\d+)", spec).group(1)) if "." in spec else 6
    kind = spec[-1]
    if kind == "f":
        return Decimal(1).scaleb(-precision)
    if kind == "%":
        return Decimal(1).scaleb(-precision - 2)
    digits = precision + 1 if kind == "e" else max(precision, 1)
    return Decimal(1).scaleb(exact.adjusted() - digits + 1)


finite = st.floats(allow_nan=False, allow_infinity=False)
small = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(x=st.one_of(finite, small, st.floats(0, 1)), spec=st.sampled_from(SPECS))
def test_risk_up_prints_the_ceiling_of_the_value(x, spec):
    exact = Decimal(repr(x))
    shown = _printed(format(risk_up(x), spec), spec)
    with localcontext(EXACT):
        assert exact <= shown < exact + _unit(exact, spec) or exact == shown == 0


@given(x=st.one_of(finite, small, st.floats(0, 1)), spec=st.sampled_from(SPECS))
def test_allowed_down_prints_the_floor_of_the_value(x, spec):
    exact = Decimal(repr(x))
    shown = _printed(format(allowed_down(x), spec), spec)
    with localcontext(EXACT):
        assert exact - _unit(exact, spec) < shown <= exact or exact == shown == 0


def test_where_to_nearest_prints_below_the_value():
    # a TPR of 0.05494: to nearest 0.0549, up 0.0550; an allowed ε of 2.5553 down 2.55
    assert f"{0.05494:.4f}" == "0.0549" and f"{risk_up(0.05494):.4f}" == "0.0550"
    assert f"{2.5553:.2f}" == "2.56" and f"{allowed_down(2.5553):.2f}" == "2.55"
    assert f"{risk_up(0.2):.4f}" == "0.2000"  # 0.2 is one fifth, not the double above it
    assert f"{risk_up(9.99996):.4g}" == "10"  # a carry gains a digit
    assert f"{risk_up(0.123401):.1%}" == "12.4%"


@pytest.mark.parametrize("x", [0.0, -0.0, float("inf"), -float("inf"), float("nan")])
def test_zero_and_non_finite_print_as_they_are(x):
    assert f"{risk_up(x):.3g}" == f"{x:.3g}" == f"{allowed_down(x):.3g}"


@pytest.mark.parametrize("bad", ["", ",", ">8", "s", ".20f", ".14%", ".18g"])
def test_a_spec_with_nothing_to_round_or_too_many_digits_is_refused(bad):
    with pytest.raises(ValueError, match="spec must"):
        format(risk_up(0.1), bad)


@pytest.mark.parametrize("bad", ["0.1", True, None, [0.1]])
def test_a_non_number_is_refused(bad):
    with pytest.raises(ValueError, match="x must be a real number"):
        risk_up(bad)


# --- the class of the defect: no risk printed to nearest in plotting/ and widgets/ -------

INPUT = "a value the reader or the caller sets that is not a risk (a prior, p, q, ã, r̃, 1/W, a deviation, a coverage or accuracy target, a FPR a risk is read at, Δ, a noise scale, an output)"
ACCURACY = "accuracy or utility of a release, not a risk to a person (±k, an error or its tail, RMSE, a variance, revenue, a switching or selection probability, records dropped)"
DISPLAY = "a tick label, an axis range or cap, or a control's range in a message"
COUNT = "rounds a count of releases that is computed, not printed"

#: "package/module.py: expression as ast.unparse writes it" -> why it is not a risk
NOT_A_RISK = {
    "plotting/_style.py": {"value / 10.0 ** power": DISPLAY},
    "plotting/allocation.py": {
        "100 * coverage": INPUT,
        "100 * risk.fpr": INPUT,
        "k": INPUT,
    },
    "plotting/beliefs.py": {
        "'%.3f'": INPUT,  # the prior bars' labels
        "1 / n_worlds": INPUT,
        "chance": INPUT,
        "height": INPUT,  # a prior bar's height, redrawn
        "output": INPUT,
        "p": INPUT,
        "prior[best]": INPUT,
        "probs[0]": INPUT,
        "scale": INPUT,
        "v": INPUT,  # the worlds' values f(ω) and the data
    },
    "plotting/budget.py": {
        "eps": DISPLAY,  # a line's gid
        "k": INPUT,
        "np.geomspace(1, max_releases, points).round()": COUNT,
        "scale": INPUT,
        "v": DISPLAY,
    },
    "plotting/census.py": {
        "100 * fpr": INPUT,
        "p": INPUT,
        "prior": INPUT,
        "q": INPUT,
        "v": DISPLAY,
    },
    "plotting/choose.py": {
        "100 * max_probability": INPUT,
        "a": INPUT,
        "coverage": INPUT,
        "d": INPUT,
        "dev": INPUT,
        "deviations[0]": INPUT,
        "k": INPUT,
        "prior": INPUT,
        "r": INPUT,
        "sens": INPUT,
    },
    "plotting/deployments.py": {
        "fpr": INPUT,
        "p": INPUT,
        "prior": INPUT,
        "q": INPUT,
        "value": DISPLAY,
    },
    "plotting/dpsgd.py": {
        "round(e / q)": COUNT,  # T, the steps of the epochs
        "noise_multiplier": INPUT,
        "sample_rate": INPUT,
        "epochs": INPUT,
        "delta": INPUT,
        "fpr": INPUT,
        "grid[0]": INPUT,  # the epochs panel (a) starts and ends at
        "grid[-1]": INPUT,
        "readings.accuracy": ACCURACY,
        "readings.accuracy_sd": ACCURACY,
        "readings.no_noise": ACCURACY,
        "readings.majority": ACCURACY,
        "value": ACCURACY,  # an accuracy dot's label
    },
    "plotting/foundations.py": {
        "4 * math.exp(-2)": ACCURACY,
        "alpha": INPUT,
        "alpha2": INPUT,
        "b": INPUT,
        "chebyshev[at]": ACCURACY,
        "delta": INPUT,  # the exponential mechanism's Δ in dollars
        "empirical[at]": ACCURACY,
        "est.var()": ACCURACY,
        "exact[at]": ACCURACY,
        "expected[-1]": ACCURACY,
        "expected[0]": ACCURACY,
        "float(F.expected_score(revenue, epsilon, sensitivity=delta))": ACCURACY,
        "half": ACCURACY,
        "inside": ACCURACY,
        "mean_unbounded.max()": INPUT,  # a sensitivity
        "p": INPUT,
        "price": INPUT,
        "prices[np.argmax(revenue)]": INPUT,
        "q": ACCURACY,
        "r": ACCURACY,
        "revenue.max()": ACCURACY,
        "sens['mean', 'bounded'][-1]": INPUT,
        "sensitivity": INPUT,
        "survey[at]": ACCURACY,
        "t[at]": ACCURACY,
        "v": INPUT,
        "value": DISPLAY,
        "y1": INPUT,
        "y2": INPUT,
    },
    "plotting/kazan_reiter.py": {
        "a": INPUT,
        "d": INPUT,
        "devs[0]": INPUT,
        "epsilon_cap": DISPLAY,
        "epsilon_max": DISPLAY,
        "fixed": INPUT,
        "p_tilde": INPUT,
        "q": INPUT,
        "q_tilde": INPUT,
        "r": INPUT,
        "r_cap": DISPLAY,
        "rec.p": INPUT,
        "rec.q": INPUT,
        "rmse.max()": ACCURACY,
        "rmse.min()": ACCURACY,
        "switch[:, 0].max()": ACCURACY,
        "switch[:, 0].min()": ACCURACY,
        "top_p": INPUT,
        "top_q": INPUT,
        "v": ACCURACY,
        "x_min": INPUT,
    },
    "plotting/lee_clifton.py": {
        "width[-1]": ACCURACY,  # the binary search's bracket
        "width[0]": ACCURACY,
        "x_max": DISPLAY,
    },
    "plotting/plrv.py": {
        "a": INPUT,
        "_MAX_DRAWN_EPSILON": INPUT,  # the largest ε a figure draws, in its refusal
        "loc": INPUT,
        "loc + sensitivity": INPUT,
        "mech.noise": INPUT,
        "noise": INPUT,
        "o[-1]": DISPLAY,
        "o[0]": DISPLAY,
        "oi": INPUT,
        "top": DISPLAY,
        "umax": DISPLAY,
    },
    "plotting/release.py": {
        "100 * coverage": INPUT,
        "accuracy": INPUT,
        "count_share": INPUT,
        "here": ACCURACY,
        "mean_share": INPUT,
        "trade.bias[-1]": ACCURACY,
        "trade.bias[0]": ACCURACY,
        "trade.noise[-1]": ACCURACY,
        "trade.noise[0]": ACCURACY,
        "trade.total[i]": ACCURACY,
    },
    "widgets/_checks.py": {"high": DISPLAY, "low": DISPLAY},
    "widgets/beliefs.py": {
        "1 / n_worlds": INPUT,
        "a": INPUT,
        "delta_f": INPUT,
        "fv": INPUT,
        "output": INPUT,
        "p": INPUT,
        "reader[best]": INPUT,
        "scale": INPUT,
    },
    "widgets/budget.py": {
        "100 * FPR": INPUT,
        "100 * JOINT": INPUT,
        "100 * release.coverage": INPUT,
        "release.k * f": INPUT,
        "release.k": INPUT,
        "split.k[i]": ACCURACY,
    },
    "widgets/deployments.py": {
        "100 * coverage": INPUT,
        "a": INPUT,
        "k": INPUT,
        "p": INPUT,
        "prior": INPUT,
        "q": INPUT,
        "r": INPUT,
    },
    "widgets/foundations.py": {
        "alpha": INPUT,
        "est.var()": ACCURACY,
        "ex['sensitivity'] / epsilon": INPUT,
        "float(F.expected_score(revenue, epsilon, sensitivity=delta))": ACCURACY,
        "float(F.rr_variance(p, n, alpha))": ACCURACY,
        "float(F.rr_variance_bound(n, alpha))": ACCURACY,
        "float(F.rr_variance_bound_tight(n, alpha))": ACCURACY,
        "pr": INPUT,
        "q": ACCURACY,
        "revenue.max()": ACCURACY,
        "round(n)": INPUT,  # a log slider's size, made an integer
    },
    "widgets/kazan_reiter.py": {
        "100 * float(exact)": ACCURACY,
        "1000 * rmse / kr.DURHAM_BIRTHS": ACCURACY,
        "d": INPUT,
        "float(kr.durham_switch_probability(eps, d, direction))": ACCURACY,
        "float(sd)": ACCURACY,
        "rec.p": INPUT,
        "rec.q": INPUT,
        "rmse": ACCURACY,
        "where.p": INPUT,
        "where.q": INPUT,
    },
    "widgets/lee_clifton.py": {
        "delta_f": INPUT,
        "low": DISPLAY,
        "prior": INPUT,
        "spread": INPUT,
    },
    "widgets/plrv.py": {"noise": INPUT},
    "widgets/dpsgd.py": {"d": INPUT},  # the δ a reader may choose, as its option's label
    "widgets/release.py": {"100 * coverage": INPUT, "accuracy": INPUT, "error": ACCURACY},
}

ROUNDERS = {"risk_up", "allowed_down"}
_NUMBER_SPEC = re.compile(r"(?:\.\d+)?[eEfFgGn%]$|\.\d+$")
_PRINTF = re.compile(r"%[-+ 0#]*\d*\.\d+[eEfFgG%]|\{[^{}]*:[^{}]*\.\d+[eEfFgG%]?\}")


def number_formats(source: str) -> list[tuple[int, str]]:
    """(line, expression) of every number formatted with a precision, not through a rounder:
    an f-string field ``{x:.4f}`` (also ``g``, ``%``, ``e``), a ``%.3f``/``{:.3f}`` template
    string (``bar_label(fmt=...)``, ``str.format``) and a ``round(x)``/``x.round()`` call."""
    found = []
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = "".join(
                v.value if isinstance(v, ast.Constant) else "{}" for v in node.format_spec.values
            )
            value = node.value
            rounded = (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id in ROUNDERS
            )
            if _NUMBER_SPEC.search(spec) and not rounded:
                found.append((node.lineno, ast.unparse(value)))
        elif isinstance(node, ast.Call) and (
            (isinstance(node.func, ast.Name) and node.func.id == "round")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "round")
        ):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings and _PRINTF.search(node.value):
                found.append((node.lineno, repr(node.value)))
    return found


MODULES = sorted(
    [*(HELPERS / "plotting").glob("*.py"), *(HELPERS / "widgets").glob("*.py")],
    key=lambda p: (p.parent.name, p.name),
)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_printed_number_is_rounded_toward_the_person_or_is_not_a_risk(path):
    key = f"{path.parent.name}/{path.name}"
    allowed = NOT_A_RISK.get(key, {})
    to_nearest = [
        f"line {line}: {expr}"
        for line, expr in number_formats(path.read_text(encoding="utf-8"))
        if expr not in allowed
    ]
    assert not to_nearest, (
        f"{key} prints numbers to nearest; a risk goes through risk_up (an allowed budget "
        "through allowed_down), or the expression goes on NOT_A_RISK with its reason: "
        + "; ".join(to_nearest)
    )


def test_the_allow_list_names_only_formats_that_exist():
    """An entry whose expression is no longer formatted anywhere is stale: remove it."""
    present = {
        f"{p.parent.name}/{p.name}": {e for _, e in number_formats(p.read_text(encoding="utf-8"))}
        for p in MODULES
    }
    stale = [f"{k}: {e}" for k, v in NOT_A_RISK.items() for e in v if e not in present.get(k, ())]
    assert not stale, stale


@pytest.mark.parametrize(
    "planted",
    [
        'f"TPR {tpr:.4f}"',
        'f"posterior {post[-1]:.3g}"',
        'f"ε = {eps:g}"',
        'f"{share:.1%}"',
        'ax.bar_label(bars, fmt="%.3f")',
        '"{:.2f}".format(delta)',
        "round(advantage, 3)",
        "table.round(4)",
        'f"{risk_up(x):.4f} and {x:.4f}"',
    ],
)
def test_the_scan_catches_a_planted_to_nearest_format(planted):
    assert number_formats(planted)


@pytest.mark.parametrize(
    "fine",
    ['f"TPR {risk_up(tpr):.4f}"', 'f"ε ≤ {allowed_down(eps):.3g}"', 'f"{n:,}"', 'f"{name!r}"'],
)
def test_the_scan_lets_a_rounded_or_unformatted_number_pass(fine):
    assert not number_formats(fine)
