"""Dashboards for notebooks 09 (ε in the wild) and 10 (choose your ε); see _base.Dashboard."""

from __future__ import annotations

import math
from functools import partial

import ipywidgets as widgets

from .. import choose as ch
from .. import deployments as dep
from .. import release as rel
from ..plotting import allowed_down, risk_up
from ..plotting.deployments import (
    plot_choice,
    plot_three_views,
    update_choice,
    update_three_views,
)
from ._base import Dashboard, control_row, float_slider

__all__ = [
    "choose_dashboard",
    "choose_text",
    "deployments_dashboard",
    "deployments_text",
]

CUSTOM = "(type ε and δ below)"
_STYLE = {"description_width": "initial"}
# long labels ("log₁₀ δ (−30 means δ = 0)") leave a track of at least 250 px at this width
_WIDTH = "41.5em"


_slider = partial(float_slider, width=_WIDTH)  # this dashboard's sliders


def _guarantee(deployment: str, epsilon: float, log10_delta: float, rows=None):
    """(ε, δ, ρ_z or None, title) for a deployment name or the typed values.

    ``rows``: the usable rows (``dep.usable()``), passed by the dashboard, which loads them once.
    """
    if deployment == CUSTOM:
        if not epsilon >= 0 or math.isinf(epsilon):
            raise ValueError(f"epsilon must be a finite number ≥ 0; got {epsilon!r}")
        delta = 0.0 if log10_delta <= -30 else 10.0**log10_delta
        return epsilon, delta, None, f"typed: ε = {risk_up(epsilon):g}, δ = {risk_up(delta):.3g}"
    rows = dep.usable() if rows is None else rows
    row = rows[rows["name"] == deployment]
    if row.empty:
        raise ValueError(f"deployment must be one of the usable rows; got {deployment!r}")
    row = row.iloc[0]
    rho = None if math.isnan(row["rho"]) else float(row["rho"])
    title = (
        f"{deployment} ({row['curators']}, {row['year']}): ε = {risk_up(row['epsilon_used']):.4g}, "
        f"δ = {risk_up(row['delta_used']):.3g}; unit: {row['privacy_unit']}"
    )
    return float(row["epsilon_used"]), float(row["delta_used"]), rho, title


def _up(x: float) -> str:
    """A risk bound to four decimals, rounded up (toward the person), never to nearest."""
    return f"{risk_up(x):.4f}" if math.isfinite(x) else "∞"


def _up_digits(x: float, digits: int) -> str:
    """A risk bound to ``digits`` significant digits, rounded up (∞ stays ∞)."""
    return rel.round_up(x, digits=digits) if math.isfinite(x) else "∞"


def deployments_text(epsilon, delta, rho, *, prior, p, q) -> str:
    """The readout of :func:`deployments_dashboard` (also used by its tests): every bound
    rounded up (four decimals; the relative risk and the failure chance by
    :func:`helpers.release.round_up`)."""
    v = dep.three_views(epsilon, delta, prior=prior, p=p, q=q, rho=rho)
    lines = [
        f"ε = {risk_up(epsilon):.4g}, δ = {risk_up(delta):.3g}"
        + ("" if rho is None else f", ρ_z = {risk_up(rho):g}"),
        f"(1) Lee & Clifton: posterior ≤ {_up(v['posterior'])} from a prior of {prior:g}"
        + (
            f" (may fail on outputs of probability ≤ {_up_digits(v['bad_event'], 2)}, at ε + ln 2)"
            if delta > 0
            else ""
        ),
        f"(2) Kazan & Reiter: relative risk ≤ {_up_digits(v['relative_risk'], 4)} "
        f"at p = {p:g}, q = {q:g}",
        f"(3) best test: TPR ≤ {_up(v['tpr_1'])} at FPR 1 %, ≤ {_up(v['tpr_10'])} at FPR 10 %",
    ]
    if rho is not None:
        lines.append(
            f"    from ρ_z alone (zCDP): TPR ≤ {_up(v['zcdp_tpr_1'])} at 1 %, "
            f"≤ {_up(v['zcdp_tpr_10'])} at 10 %"
        )
        lines.append(
            f"    Gaussian curve (assumed mechanism): TPR {_up(v['gaussian_tpr_1'])} at 1 %, "
            f"{_up(v['gaussian_tpr_10'])} at 10 %"
        )
    return "\n".join(lines)


def deployments_dashboard(deployment: str = CUSTOM, epsilon: float = 1.0) -> Dashboard:
    """Pick a deployment (or type ε, δ); the three views move: posterior, relative risk, ROC."""
    rows = dep.usable()
    names = rows["name"].tolist()
    controls = {
        "deployment": widgets.Dropdown(
            options=[CUSTOM, *names],
            value=deployment,
            description="deployment",
            style=_STYLE,
            layout=widgets.Layout(width="40em"),
        ),
        "epsilon": widgets.BoundedFloatText(
            value=epsilon, min=0.0, max=100.0, step=0.1, description="ε", style=_STYLE
        ),
        "log10_delta": _slider("log₁₀ δ (−30 means δ = 0)", -30.0, -30.0, -1.0, 0.5, ".1f"),
        "prior": _slider("prior (two worlds)", 0.5, 0.01, 0.99, 0.01, ".2f"),
        "p": _slider("p (K&R inclusion prior)", 0.05, 0.001, 1.0, 0.001),
        "q": _slider("q (K&R values prior)", 1.0, 0.01, 1.0, 0.01, ".2f"),
    }

    def draw(deployment, epsilon, log10_delta, prior, p, q):
        eps, delta, rho, title = _guarantee(deployment, epsilon, log10_delta, rows)
        fig = plot_three_views(eps, delta, rho=rho, prior=prior, p=p, q=q, title=title)
        return fig, deployments_text(eps, delta, rho, prior=prior, p=p, q=q)

    def update(fig, deployment, epsilon, log10_delta, prior, p, q):
        # in place, another deployment (another shape of the figure) included
        eps, delta, rho, title = _guarantee(deployment, epsilon, log10_delta, rows)
        if not update_three_views(fig, eps, delta, rho=rho, prior=prior, p=p, q=q, title=title):
            return None
        return deployments_text(eps, delta, rho, prior=prior, p=p, q=q)

    dash = Dashboard(controls, draw, update=update)
    c = controls

    def _typed_only(_change=None):
        # ε and δ are read only for the typed guarantee: greyed out otherwise, so a reader
        # never moves a control that changes nothing
        typed = c["deployment"].value == CUSTOM
        c["epsilon"].disabled = c["log10_delta"].disabled = not typed

    c["deployment"].observe(_typed_only, names="value")
    _typed_only()
    dash.widget.children = (
        widgets.VBox(
            [
                control_row([c["deployment"]]),
                control_row([c["epsilon"], c["log10_delta"]]),
                control_row([c["prior"], c["p"], c["q"]]),
            ]
        ),
        *dash.widget.children[1:],
    )
    return dash


def _risk_epsilon(
    risk_kind: str, risk: float, prior: float, r: float, a: float
) -> tuple[float, str]:
    if risk_kind == "posterior":
        return ch.epsilon_for_posterior(
            risk, prior=prior
        ), f"posterior ≤ {allowed_down(risk):g} from prior {prior:g}"
    if risk_kind == "constant":
        return ch.epsilon_for_profile("constant", r=r), f"K&R constant profile r̃ = {r:g}"
    return (
        ch.epsilon_for_profile("inclusion", r=r, a=a, fixed=1.0),
        f"K&R profile (17): ã = {a:g}, r̃ = {r:g}",
    )


def choose_text(choice: ch.Choice, release: str, risk_label: str) -> str:
    """The readout of :func:`choose_dashboard` (also used by its tests)."""
    return (
        f"{release}: smallest ε for the accuracy = {risk_up(choice.epsilon_accuracy):.4f}; "
        f"largest ε for the risk ({risk_label}) = {allowed_down(choice.epsilon_risk):.4f}\n{choice.message}"
    )


def choose_dashboard(
    release: str = "mean", *, n: int = 100, lower: float = 0.0, upper: float = 100.0
) -> Dashboard:
    """State the release, the accuracy and the risk; see the feasible ε interval or the knobs."""
    controls = {
        "release": widgets.Dropdown(
            options=list(ch.RELEASES), value=release, description="release"
        ),
        "n": widgets.BoundedIntText(
            value=n, min=1, max=10**9, description="records n", style=_STYLE
        ),
        "lower": widgets.FloatText(value=lower, description="lower bound", style=_STYLE),
        "upper": widgets.FloatText(value=upper, description="upper bound", style=_STYLE),
        "k": _slider("accuracy ±k", 2.0, 0.05, 50.0, 0.05, ".2f"),
        "coverage": _slider("with probability", 0.95, 0.5, 0.999, 0.001),
        "risk_kind": widgets.Dropdown(
            options=[
                ("posterior bound ρ (two worlds)", "posterior"),
                ("Kazan & Reiter profile (17)", "inclusion"),
                ("Kazan & Reiter constant r̃", "constant"),
            ],
            value="posterior",
            description="risk",
            style=_STYLE,
            layout=widgets.Layout(width="27.5em"),
        ),
        "risk": _slider("ρ (largest posterior)", 0.75, 0.01, 0.999, 0.005),
        "prior": _slider("prior", 0.5, 0.01, 0.99, 0.01, ".2f"),
        "r": _slider("r̃", 3.0, 1.05, 20.0, 0.05, ".2f"),
        "a": _slider("ã", 0.25, 0.0, 0.95, 0.005),
    }

    def arguments(release, n, lower, upper, k, coverage, risk_kind, risk, prior, r, a):
        """(choose's keywords, plot_choice's extra keywords, the risk's label)."""
        eps_risk, label = _risk_epsilon(risk_kind, risk, prior, r, a)
        bounds = {} if release == "count" else {"lower": lower, "upper": upper}
        if release == "mean":
            bounds["n"] = n
        is_posterior = risk_kind == "posterior"
        # change-one: n is public (a mean needs it). The two-world bound is for worlds that
        # differ in one record; a Kazan & Reiter ε (add-remove) is conservative here (choose)
        common = {
            "k": k,
            "coverage": coverage,
            "epsilon_risk": eps_risk,
            "prior": prior if is_posterior else None,
            "neighbours": "change-one",
            **bounds,
        }
        extra = {
            "risk": risk if is_posterior else None,
            "risk_label": label,
            "title": f"a {release}, ±{k:g} with {100 * coverage:g} %",
        }
        return common, extra, label

    def draw(release, **values):
        common, extra, label = arguments(release, **values)
        choice = ch.choose(release, **common)
        fig = plot_choice(release, **common, **extra)
        return fig, choose_text(choice, release, label)

    def update(fig, release, **values):
        # in place while the figure keeps its shape (same release, risk kind, feasibility)
        common, extra, label = arguments(release, **values)
        if not update_choice(fig, release, **common, **extra):
            return None
        return choose_text(ch.choose(release, **common), release, label)

    dash = Dashboard(controls, draw, update=update)
    c = controls

    def _relevant_only(_change=None):
        # grey out what the current release and risk do not read, so no enabled control is
        # a no-op (n: the mean only; the bounds: not the count; ρ and the prior: the
        # posterior bound; r̃: the K&R profiles; ã: profile (17))
        release, kind = c["release"].value, c["risk_kind"].value
        c["n"].disabled = release != "mean"
        c["lower"].disabled = c["upper"].disabled = release == "count"
        c["risk"].disabled = c["prior"].disabled = kind != "posterior"
        c["r"].disabled = kind == "posterior"
        c["a"].disabled = kind != "inclusion"

    c["release"].observe(_relevant_only, names="value")
    c["risk_kind"].observe(_relevant_only, names="value")
    _relevant_only()
    dash.widget.children = (
        widgets.VBox(
            [
                control_row([c["release"], c["n"], c["lower"], c["upper"]]),
                control_row([c["k"], c["coverage"]]),
                control_row([c["risk_kind"], c["risk"], c["prior"]]),
                control_row([c["r"], c["a"]]),
            ]
        ),
        *dash.widget.children[1:],
    )
    return dash
