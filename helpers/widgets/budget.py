"""The dashboard of notebook 11 (one budget, many releases); see _base.Dashboard.

One slider per release of a workload: its leftmost position leaves the release out, the
others set its ±k (from a quarter of the workload's ±k to four times it). The noise
(every family of :data:`helpers.mechanisms.MECHANISM_CLASSES`, or mixed: Gaussian means beside
Laplace counts and sums, judged on the workload's own privacy-loss distribution), the risk (a
two-world posterior bound, the best test's TPR at FPR 1 %, or a total ε) and whether all targets
must hold together (Bonferroni's adjustment to a joint 95 %) are chosen below; the verdict, the
knobs and the allocation update.
"""

from __future__ import annotations

import copy
import dataclasses
from functools import partial

import ipywidgets as widgets

from .. import budget as bud
from ..plotting import allowed_down, risk_up
from ..plotting.budget import (
    SURVEY,
    plot_allocation,
    plot_mixed_allocation,
    update_allocation,
    update_mixed_allocation,
)
from ._base import Dashboard, control_row, float_slider

__all__ = [
    "JOINT",
    "K_FACTORS",
    "LEFT_OUT",
    "MIXED",
    "BudgetDashboard",
    "budget_dashboard",
    "budget_text",
    "mixed_noises",
    "workload_from",
]

#: the value of a release slider at its leftmost position: the release is left out
LEFT_OUT = 0.0
#: the ±k a release slider offers, as multiples of the workload's own ±k
K_FACTORS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0)
#: the FPR at which a TPR risk is read
FPR = 0.01
#: the noise option that gives the means Gaussian noise and the rest Laplace noise
MIXED = "mixed"
#: the probability that all targets hold together when "all together" is ticked (Bonferroni)
JOINT = 0.95
_STYLE = {"description_width": "initial"}
_WIDE = widgets.Layout(width="49em")
#: each risk the dashboard offers: its words, the controls it reads and how it is built
_RISKS = {
    "posterior": (
        "posterior ρ (two worlds)",
        ("risk", "prior"),
        lambda c: bud.risk_posterior(c["risk"], prior=c["prior"]),
    ),
    "tpr": (
        f"best test's TPR at FPR {100 * FPR:g} %",
        ("tpr",),
        lambda c: bud.risk_tpr(c["tpr"], fpr=FPR),
    ),
    "epsilon": ("total ε", ("epsilon",), lambda c: bud.risk_epsilon(c["epsilon"])),
}
_RISK_CONTROLS = ("risk", "prior", "tpr", "epsilon")
#: how many risk totals and choices a dashboard keeps (by value; the oldest goes first)
_CACHED = 64


def _noise_options() -> list:
    """(words, name) of every family of noise in the registry (read when a dashboard is made)."""
    families = [bud.NoiseFamily.of(cls) for cls in bud.NOISE_FAMILIES]
    options = [(f"{f.mechanism.label} noise ({f.measure.words})", f.name) for f in families]
    return [*options, ("mixed: Laplace counts and sums, Gaussian means (own PLD)", MIXED)]


_slider = partial(float_slider, width="41.5em")  # this dashboard's sliders


def _g4(x: float, *, down: bool = False) -> str:
    """x to 4 significant digits rounded toward the person: what the accuracy needs and a risk
    (an ε spent, a release's share) up, what the risk allows down (never to nearest; inf and
    NaN as they are)."""
    return f"{allowed_down(x):.4g}" if down else f"{risk_up(x):.4g}"


def _name(release, index: int) -> str:
    return release.label or f"release {index}"


def _release_slider(release, index: int) -> widgets.SelectionSlider:
    options = [("left out", LEFT_OUT)] + [(f"±{release.k * f:g}", release.k * f) for f in K_FACTORS]
    return widgets.SelectionSlider(
        options=options,
        value=release.k,
        description=f"{_name(release, index)} ({release.kind}, {100 * release.coverage:g} %)",
        continuous_update=False,
        style=_STYLE,
        layout=_WIDE,
    )


def workload_from(workload, ks) -> list | bud.Workload:
    """The releases whose ±k is not :data:`LEFT_OUT`, each at its new ±k (a
    :class:`helpers.budget.Workload` with the same unit when given one).

    A release's weight keeps its meaning under a new ±k: it is scaled by (old k / new k)², so
    a weight of 1/k² (the noise counted in units of the release's own ±k) stays 1/k².
    """
    chosen = []
    for release, k in zip(workload, ks, strict=True):
        if k == LEFT_OUT:
            continue
        weight = release.weight * (release.k / k) ** 2
        chosen.append(dataclasses.replace(release, k=k, weight=weight))
    # a workload stated for a unit of privacy keeps it: the allocation carries it to the release
    if isinstance(workload, bud.Workload) and chosen:
        return bud.Workload(chosen, unit=workload.unit, means=workload.means)
    return chosen


def _risk(risk_kind, risk, prior, tpr, epsilon) -> bud.Risk:
    values = {"risk": risk, "prior": prior, "tpr": tpr, "epsilon": epsilon}
    return _RISKS[risk_kind][2](values)


def mixed_noises(workload) -> list:
    """One noise per release for the "mixed" option: Gaussian for a mean, Laplace otherwise."""
    return ["gaussian" if release.kind == "mean" else "laplace" for release in workload]


def _unit_line(workload) -> list[str]:
    """Whom the guarantee protects, when the workload states its unit (a Workload)."""
    unit = getattr(workload, "unit", None)
    if unit is None:
        return []
    m = unit.contributions
    if unit.unit == "record":
        whom = "one record"
    else:  # "of one record", never "of up to 1 records"
        whom = f"one {unit.unit} of " + ("one record" if m == 1 else f"up to {m} records")
    if unit.unit == "record" and m > 1:
        whom += f" (a person of up to {m} records has the group-of-{m} guarantee)"
    return [f"protects {whom}, {unit.neighbours} neighbours: each Δ is stated for it"]


def _mixed_text(choice: bud.WorkloadChoice, workload, noises) -> str:
    acc, split = choice.accuracy, choice.at_risk
    lines = [
        f"{len(workload)} releases, mixed noise, judged on their own privacy-loss distribution: "
        f"composed ε {_g4(acc.epsilon)} at δ = {risk_up(acc.delta):g} at the targets, "
        f"{_g4(split.epsilon)} at the risk's limit",
        *_unit_line(workload),
        choice.message,
        f"{'release':32s} {'noise':>9s} {'needs':>11s} {'gets':>11s}  reaches",
    ]
    for i, release in enumerate(workload):
        family = bud.NoiseFamily.of(noises[i])  # its unit from its measure, never its name
        unit = family.unit + ("ᵢ" if family.pure else ",i")
        reach = f"±{split.k[i]:.4g} at {100 * release.coverage:g} %"
        mark = f"  {'' if split.meets[i] else '✗ '}(target ±{release.k:g})"
        lines.append(
            f"{_name(release, i)[:32]:32s} {noises[i]:>9s} {_g4(acc.budgets[i]):>9s}{unit:>2s} "
            f"{_g4(split.budgets[i]):>9s}{unit:>2s}  {reach}{mark}"
        )
    return "\n".join(lines)


def budget_text(choice: bud.WorkloadChoice, workload, *, allowed: float, mechanism) -> str:
    """The readout of :func:`budget_dashboard` (also used by its tests): the totals and the
    verdict, then one line per release (its need, its share of the risk's total ``allowed``
    and the ±k that share reaches, its target beside it, marked ✗ where missed)."""
    family = bud.NoiseFamily.of(mechanism)
    unit = family.unit
    acc, split = choice.accuracy, choice.at_risk
    as_eps = not family.pure
    lines = [
        f"{len(workload)} releases: the accuracy needs total {unit} {_g4(acc.total)}"
        + (f" (ε {_g4(choice.epsilon_accuracy)})" if as_eps else "")
        + f"; the risk allows {unit} {_g4(allowed, down=True)}"
        + (f" (ε {_g4(choice.epsilon_risk, down=True)})" if as_eps else ""),
        *_unit_line(workload),
        choice.message,
    ]
    if choice.knobs["drop"]:
        dropped = ", ".join(_name(workload[i], i) for i in choice.knobs["drop"])
        lines.append(f"the fewest releases to leave out: {dropped}")
    lines += [
        f"{'release':32s} {'needs ' + unit + 'ᵢ':>11s} {'gets ' + unit + 'ᵢ':>11s}  reaches",
    ]
    for i, release in enumerate(workload):
        reach = f"±{split.k[i]:.4g} at {100 * release.coverage:g} %"
        mark = f"  {'' if split.meets[i] else '✗ '}(target ±{release.k:g})"
        lines.append(
            f"{_name(release, i)[:32]:32s} {_g4(acc.budgets[i]):>11s} "
            f"{_g4(split.budgets[i]):>11s}  "
            f"{reach}{mark}"
        )
    return "\n".join(lines)


def budget_dashboard(workload=SURVEY, *, delta: float = 1e-6) -> BudgetDashboard:
    """Add or remove releases, move each ±k, the noise and the risk; the verdict and the
    allocation update. ``workload``: a sequence of :class:`helpers.budget.Release` (the
    notebook's survey by default), or a :class:`helpers.budget.Workload` stated for a unit of
    privacy, which every allocation shown carries on (:attr:`BudgetDashboard.choice`);
    ``delta`` is the δ of the Gaussian (ε, δ) reading."""
    workload_, workload = workload, tuple(workload)
    if not workload:
        raise ValueError("workload must hold at least one release")
    if isinstance(workload_, bud.Workload):
        workload = bud.Workload(workload, unit=workload_.unit, means=workload_.means)  # travels on
    bud.workload_sensitivities(workload)  # a malformed release is refused here, by name
    controls = _controls(workload)
    dash = BudgetDashboard(controls, _Allocation(workload, delta))
    _grey_out_what_the_risk_does_not_read(controls)
    _arrange(dash, controls, len(workload))
    return dash


class BudgetDashboard(Dashboard):
    """The dashboard of :func:`budget_dashboard`, whose choice a later cell can take as it is.

    ``choice`` is the :class:`helpers.budget.WorkloadChoice` the controls show now (None
    while the controls are refused, every release left out): ``choice.at_risk`` is the
    allocation to release, carrying the workload's :class:`helpers.budget.PrivacyUnit` when
    the workload states one, so ε and m go on to :func:`helpers.release.opendp_release` and
    :func:`helpers.release.privacy_record` as objects, never retyped.
    """

    def __init__(self, controls: dict, allocation: _Allocation) -> None:
        self._allocation = allocation
        super().__init__(controls, allocation.draw, update=allocation.update)

    @property
    def choice(self) -> bud.WorkloadChoice | None:
        # a copy: a later cell that changes an allocation's arrays in place must not change
        # what the dashboard remembers and shows when the reader comes back to these values
        return copy.deepcopy(self._allocation.latest)


def _controls(workload) -> dict:
    """One slider per release (``k0``, ``k1``, …), the noise, the risk and its levels, and
    whether all targets hold together."""
    return {
        **{f"k{i}": _release_slider(r, i) for i, r in enumerate(workload)},
        "mechanism": widgets.Dropdown(
            options=_noise_options(),
            value="laplace",
            description="noise",
            style=_STYLE,
            layout=widgets.Layout(width="24.5em"),
        ),
        "risk_kind": widgets.Dropdown(
            options=[(words, kind) for kind, (words, _, _) in _RISKS.items()],
            value="posterior",
            description="risk",
            style=_STYLE,
            layout=widgets.Layout(width="27.5em"),
        ),
        "risk": _slider("ρ (largest posterior)", 0.8, 0.55, 0.99, 0.005),
        "prior": _slider("prior", 0.5, 0.05, 0.5, 0.01, ".2f"),
        "tpr": _slider(f"largest TPR at FPR {100 * FPR:g} %", 0.3, 0.02, 0.99, 0.01, ".2f"),
        "epsilon": _slider("largest total ε", 1.0, 0.05, 10.0, 0.05, ".2f"),
        "together": widgets.Checkbox(
            value=False,
            description=f"all targets together with probability {100 * JOINT:g} % (Bonferroni)",
            style=_STYLE,
            layout=widgets.Layout(width="37em"),
        ),
    }


def _remember(cache: dict, key, compute):
    """``cache[key]``, computed on a miss; the oldest entry goes first beyond :data:`_CACHED`."""
    if key not in cache:
        while len(cache) >= _CACHED:
            cache.pop(next(iter(cache)))
        cache[key] = compute()
    return cache[key]


class _Allocation:
    """The dashboard's ``draw`` and ``update`` for one workload and δ.

    By value, the latest few of each (issue 33): the risk's total by (risk, noise) (a
    release's slider moves the workload, not the risk; the Gaussian total is a root search of
    tens of ms) and the whole choice by (releases, risk, noise) (a reader returns to where they
    were; a mixed workload's choice is a search on composed distributions).
    """

    def __init__(self, workload: tuple, delta: float) -> None:
        self.workload, self.delta = workload, delta
        self.allowed_totals: dict = {}
        self.choices: dict = {}
        #: the choice last shown (None while refused): :attr:`BudgetDashboard.choice`
        self.latest: bud.WorkloadChoice | None = None

    def state(self, mechanism, risk_kind, risk, prior, tpr, epsilon, together, **ks):
        """Everything the figure and the readout show at these values."""
        self.latest = None  # a refusal below leaves no stale choice to take
        workload, delta = self.workload, self.delta
        chosen = workload_from(workload, [ks[f"k{i}"] for i in range(len(workload))])
        if not chosen:
            raise ValueError("every release is left out: move a release's slider to add it")
        if together:  # every target met together with probability JOINT (Bonferroni)
            chosen = bud.bonferroni(chosen, joint=JOINT)
        if not isinstance(chosen, bud.Workload):
            chosen = tuple(chosen)
        the_risk = _risk(risk_kind, risk, prior, tpr, epsilon)
        if mechanism == MIXED:
            noises = tuple(mixed_noises(chosen))
            choice = _remember(
                self.choices,
                (chosen, the_risk, noises),
                lambda: bud.choose_workload(chosen, the_risk, mechanism=list(noises), delta=delta),
            )
            return chosen, the_risk, noises, choice, None
        allowed = _remember(
            self.allowed_totals,
            (the_risk, mechanism),
            lambda: bud.total_for_risk(the_risk, mechanism=mechanism, delta=delta),
        )
        choice = _remember(
            self.choices,
            (chosen, the_risk, mechanism),
            lambda: bud.choose_workload(chosen, the_risk, mechanism=mechanism, delta=delta),
        )
        return chosen, the_risk, mechanism, choice, allowed

    @staticmethod
    def text(chosen, noise, choice, allowed) -> str:
        if allowed is None:
            return _mixed_text(choice, chosen, list(noise))
        return budget_text(choice, chosen, allowed=allowed, mechanism=noise)

    def draw(self, **values):
        chosen, the_risk, noise, choice, allowed = self.state(**values)
        if allowed is None:
            fig = plot_mixed_allocation(
                chosen, the_risk, noises=list(noise), delta=self.delta, choice=choice
            )
        else:
            fig = plot_allocation(
                chosen, the_risk, mechanism=noise, delta=self.delta, choice=choice, allowed=allowed
            )
        text = self.text(chosen, noise, choice, allowed)
        self.latest = choice  # only once the figure and the text are made: what is shown
        return fig, text

    def update(self, fig, **values):
        """In place, a release added or left out and a switch to or from mixed noise
        included (the figure is reshaped); None only for a figure of another kind."""
        chosen, the_risk, noise, choice, allowed = self.state(**values)
        if allowed is None:
            moved = update_mixed_allocation(
                fig, chosen, the_risk, noises=list(noise), delta=self.delta, choice=choice
            )
        else:
            moved = update_allocation(
                fig,
                chosen,
                the_risk,
                mechanism=noise,
                delta=self.delta,
                choice=choice,
                allowed=allowed,
            )
        if not moved:
            return None
        text = self.text(chosen, noise, choice, allowed)
        self.latest = choice  # only once the figure and the text are made: what is shown
        return text


def _grey_out_what_the_risk_does_not_read(c: dict) -> None:
    """Grey out the risk's levels the chosen risk does not read, now and on every change,
    so no enabled control is a no-op."""

    def relevant_only(_change=None):
        reads = _RISKS[c["risk_kind"].value][1]
        for name in _RISK_CONTROLS:
            c[name].disabled = name not in reads

    c["risk_kind"].observe(relevant_only, names="value")
    relevant_only()


def _arrange(dash: Dashboard, c: dict, releases: int) -> None:
    """The release sliders one per line, then the noise and the risk, the Bonferroni box and
    the risk's levels two by two, above the dashboard's readout and figure."""
    dash.widget.children = (
        widgets.VBox(
            [
                *(control_row([c[f"k{i}"]]) for i in range(releases)),
                control_row([c["mechanism"], c["risk_kind"]]),
                control_row([c["together"]]),
                control_row([c["risk"], c["prior"]]),
                control_row([c["tpr"], c["epsilon"]]),
            ]
        ),
        *dash.widget.children[1:],
    )
