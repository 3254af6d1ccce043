"""Both sides for a workload: :func:`choose_workload`.

The accuracy side (:mod:`helpers.budget.allocation`) beside the largest total the risk
allows (:mod:`helpers.budget.risk`): the verdict, the split of the risk's total and the
knobs that open the interval. A workload with one noise per release is judged on its own
composed privacy-loss distribution (:mod:`helpers.attack`), not on a sum of budgets.

Part of :mod:`helpers.budget`, which re-exports its public names; its docstring states the
rounding toward privacy every number here keeps.
"""

from __future__ import annotations

import math

import numpy as np

from .._docstrings import fill_docstrings
from .._numerics import ratio_up, sum_up
from ..attack import attack_tpr, composed_mu, loss_epsilon
from ..attack import composed_epsilon as _composed_epsilon
from ..deployments import DEFAULT_DELTA, posterior_bound, round_risk
from ..mechanisms import Gaussian
from ._common import (
    _SECTIONS,
    Allocation,
    WorkloadChoice,
    _check_open_delta,
    _down,
    _parse,
    _up,
    _Workload,
)
from .allocation import _budget_for_accuracy, _split_budget
from .families import NoiseFamily, _assemble, _read_by
from .ratio import _ratio_delivered, _ratio_floors
from .risk import Risk, _as_risk, _profile_r_for, implied_risk

__all__ = [
    "choose_workload",
]


# --- both sides ---------------------------------------------------------------------------


def _budgets_at(w: _Workload, family: NoiseFamily, k: np.ndarray) -> np.ndarray:
    """The budgets the accuracy targets need at ±k (the workload's coverage and Δ)."""
    return family.budgets(
        w.sensitivity, family.accuracy_scales(k, w.coverage, sensitivity=w.sensitivity)
    )


def _least_factor(fits, guess) -> np.ndarray:
    """The least factor f (to about 1e-12 relative) with ``fits(f)``, for fits monotone in f
    (false below, true above), found from ``guess`` by galloping and bisection in log f."""
    guess = np.asarray(guess, dtype=float)
    low, high = np.log(guess) - 0.1, np.log(guess) + 0.1
    for _ in range(200):  # gallop until fits(high) and not fits(low)
        ok_high, ok_low = np.asarray(fits(np.exp(high))), np.asarray(fits(np.exp(low)))
        if np.all(ok_high) and not np.any(ok_low):
            break
        high = np.where(ok_high, high, high + 2 * (high - low))
        low = np.where(ok_low, low - 2 * (high - low), low)
    for _ in range(200):
        mid = 0.5 * (low + high)
        if np.all(high - low <= 1e-13 * np.maximum(1.0, np.abs(high))):
            break
        ok = np.asarray(fits(np.exp(mid)))
        high, low = np.where(ok, mid, high), np.where(ok, low, mid)
    return np.exp(high)


def _fewest_to_drop(budgets: np.ndarray, allowed: float) -> list:
    """Indices of the fewest releases whose removal brings the total within ``allowed``.

    Dropping the largest budgets first is optimal for the count. The cut is placed from the
    running sums of the sorted budgets, then confirmed (and moved) with the pessimistic sum.
    """
    order = np.argsort(-budgets, kind="stable")
    ascending = budgets[order][::-1]
    kept_sums = np.cumsum(ascending)[::-1]  # kept_sums[j]: the total without the j largest
    j = int(np.argmax(kept_sums <= allowed)) if np.any(kept_sums <= allowed) else len(budgets)

    def fits(drop: int) -> bool:
        return drop >= len(budgets) or sum_up(budgets[order[drop:]]) <= allowed

    while j < len(budgets) and not fits(j):
        j += 1
    while j > 0 and fits(j - 1):
        j -= 1
    return [int(i) for i in order[:j]]


def _records_needed(w: _Workload, acc: Allocation, allowed: float, family: NoiseFamily) -> dict:
    """{index: n needed} for every mean (all n scaled by one factor), or None where n cannot help."""
    means = w.n > 0
    if not np.any(means):
        return {}
    others = sum_up(acc.budgets[~means]) if np.any(~means) else 0.0
    room = allowed - others
    if room <= 0:
        return {int(i): None for i in np.flatnonzero(means)}
    ratio = sum_up(acc.budgets[means]) / room
    factor = family.root(ratio)
    for _ in range(200):
        n_new = np.where(means, np.maximum(np.ceil(w.n * factor), 1.0), w.n)
        delta_f = np.where(
            means, ratio_up(np.where(means, w.width, 1.0), np.maximum(n_new, 1)), w.sensitivity
        )
        trial = w._replace(sensitivity=delta_f, n=n_new)
        budgets = family.budgets(
            delta_f, family.accuracy_scales(trial.k, trial.coverage, sensitivity=delta_f)
        )
        if sum_up(budgets) <= allowed:
            return {int(i): int(n_new[i]) for i in np.flatnonzero(means)}
        factor *= 1 + 1e-9
    return {int(i): None for i in np.flatnonzero(means)}  # pragma: no cover


def _widen_factors(w: _Workload, family: NoiseFamily, acc, allowed: float):
    """(every ±k's factor, each release's ±k alone) that bring the accuracy's total to the
    risk's: the measure's root of the ratio of totals for a scale-free noise, else by search
    on the budgets themselves from that proportional guess."""
    ratio = float(_up(acc.total / allowed, 4))
    widen = family.widen(ratio)
    # each release alone: the budget left for it when the others keep their targets' budgets
    rest = _up(np.maximum(acc.total - acc.budgets, 0.0), 8)
    room = allowed - rest
    with np.errstate(divide="ignore", over="ignore"):
        grow = np.where(room > 0, acc.budgets / np.where(room > 0, room, 1.0), np.inf)
        k_needed = np.where(room > 0, w.k * family.root(grow), np.inf)
    if family.mechanism.scale_free:
        return widen, k_needed
    # the ±k a noise reaches is not proportional to it (integer noise: a step in k; a noise
    # whose shape depends on Δ): the factors by search, from the proportional guess
    widen = float(
        _least_factor(lambda f: sum_up(_budgets_at(w, family, w.k * f)) <= allowed, widen)
    )
    alone = np.isfinite(k_needed)

    def fits_alone(f):
        factor = np.ones_like(w.k)
        factor[alone] = f
        return _budgets_at(w, family, w.k * factor)[alone] <= room[alone]

    if np.any(alone):
        guess = k_needed[alone] / w.k[alone]
        k_needed[alone] = w.k[alone] * _least_factor(fits_alone, guess)
    return widen, k_needed


def _shown(x: float, digits: int = 4, *, down: bool = False) -> str:
    """x to ``digits`` significant digits rounded toward the person: a need, a risk or a factor
    to widen by up, what the risk allows down (inf and NaN as they are)."""
    x = float(x)
    return f"{round_risk(x, digits=digits, down=down):.{digits}g}" if math.isfinite(x) else f"{x:g}"


def _choice_message(w, family, d, allocations, allowed, knobs, kind) -> str:
    """The verdict in a sentence: the interval of totals, or the knobs that would open it."""
    acc, at_risk = allocations
    unit, size = family.unit, len(w.k)
    if acc.total <= allowed:
        message = (
            f"feasible: any total {unit} in [{_shown(acc.total)}, {_shown(allowed, down=True)}] "
            f"meets all {size} "
            f"accuracy targets and the risk"
        )
        if not family.pure:
            message += f" (ε ≤ {_shown(family.epsilon(allowed, d), down=True)} at δ = {d:g})"
        return message
    missed = int(np.count_nonzero(~at_risk.meets))
    parts = [f"widen every ±k by ×{_shown(knobs['widen'], 3)}"]
    drop = knobs["drop"]
    parts.append(
        f"or drop {len(drop)} release{'s' if len(drop) != 1 else ''} "
        f"({', '.join(str(i) for i in drop[:5])}{', …' if len(drop) > 5 else ''})"
    )
    records = knobs.get("n")
    if records and all(v is not None for v in records.values()):
        shown = ", ".join(f"n[{i}] ≥ {v:,}" for i, v in list(records.items())[:3])
        parts.append(f"or more records ({shown})")
    parts.append(f"or accept a risk of {_shown(knobs['risk'])} ({kind})")
    return (
        f"no total meets both: the accuracy needs {unit} ≥ {_shown(acc.total)}, the risk allows "
        f"{unit} ≤ {_shown(allowed, down=True)} (split variance-optimally it misses {missed} of {size} "
        "targets). To open an interval: " + ", ".join(parts)
    )


def choose_workload(workload, risk, *, mechanism="laplace", delta=DEFAULT_DELTA) -> WorkloadChoice:
    """Both sides for a workload: the total the accuracy needs, the total the risk allows, the knobs.

    The accuracy side is :func:`budget_for_accuracy` (the smallest total meeting every
    target), the risk side :func:`total_for_risk` (the largest total the risk allows); the
    workload is feasible when the first is ≤ the second. The risk's total is then split by
    :func:`split_budget`: meeting every target (and spending the slack where it lowers the
    weighted variance most) when feasible, else variance-optimally, showing which targets
    that misses.

    ``knobs`` (as :class:`helpers.choose.Choice`'s, for a feasible workload the slack):

    * ``"widen"``: the factor every ±k must be multiplied by to open the interval (Laplace:
      total_accuracy/total_risk, Gaussian: its square root; < 1 is slack);
    * ``"k"``: per release, the ±k it alone would need (the others at their targets), ``inf``
      where widening it alone cannot suffice;
    * ``"drop"``: the fewest releases (indices, largest budgets first) whose removal opens
      the interval (empty when feasible);
    * ``"n"``: for the means (Δ from bounds): {index: records needed} with every mean's n
      grown by one factor, None where the counts and sums alone exceed the risk;
    * ``"risk"``: the risk the accuracy side implies, in the risk's units
      (:func:`implied_risk`);
    * ``"coverage"``: per release, the coverage the split of the risk's total delivers at the
      target ±k.

    Used in notebooks 11 and 12.

    **One noise per release** (``mechanism`` a list, one name or class per release, e.g.
    Laplace counts beside Gaussian means; or every entry "gaussian" to judge a Gaussian
    workload exactly): the releases no longer share a unit, so the workload is judged on its
    own composed privacy-loss distribution (:mod:`helpers.attack`), each reading named in
    the message: a TPR on the composed trade-off curve (exact for Gaussian releases, μ²
    adding); a posterior bound or a Kazan & Reiter profile at the ε with P[ℒ > ε] ≤ δ
    (:func:`loss_epsilon`: the bound holds except with probability δ, the bad event of
    notebook 08's δ₁); a total ε as the composed (ε, δ) (:func:`pld_epsilon`). ``at_risk``
    is then the split proportional to need at the risk's limit (every scale times one factor,
    found by bisection), ``accuracy.total`` and ``epsilon`` the composed ε at δ, the budgets
    each in its release's unit (ε_i or ρ_z,i), ``knobs`` "widen", "drop" (largest single
    ε at δ first), "risk" and "coverage".

    Parameters
    ----------
    workload : sequence of Release (or mappings with its fields)
    risk : Risk or float
        From :func:`risk_posterior`, :func:`risk_profile`, :func:`risk_tpr`,
        :func:`risk_epsilon`, or the largest total ε as a number.
    %(family)s
        Or a list of them, one per release (read as above; ``delta`` in (0, 1) then).

    Returns
    -------
    WorkloadChoice

    Raises
    ------
    ValueError
        If a release or the risk is malformed (the message names it and the field).

    References
    ----------
    As :func:`budget_for_accuracy`, :func:`split_budget` and :func:`total_for_risk`;
    :func:`helpers.choose.choose` for one release.

    Examples
    --------
    >>> workload = [Release("count", k=5.0), Release("mean", k=2.0, lower=0, upper=100, n=200)]
    >>> choice = choose_workload(workload, risk_posterior(0.8, prior=0.5))
    >>> choice.feasible, round(choice.epsilon_accuracy, 4), round(choice.epsilon_risk, 4)
    (True, 1.3481, 1.3863)
    >>> tighter = choose_workload(workload, risk_posterior(0.75, prior=0.5))  # ln 3 < 1.3481
    >>> tighter.feasible, round(tighter.knobs["widen"], 4), tighter.knobs["drop"]
    (False, 1.2271, [1])
    """
    w = _parse(workload)
    risk = _as_risk(risk)
    if isinstance(mechanism, (list, tuple)):  # one noise per release: judged on its own PLD
        return _choose_exact(w, risk, mechanism, delta)
    family = NoiseFamily.of(mechanism)
    w = family.read(w)
    d = family.reading_delta(delta)
    acc = _budget_for_accuracy(w, family, d)
    allowed = family.total_for(risk, delta)
    feasible = acc.total <= allowed
    at_risk = _split_budget(w, allowed, family, d, bool(feasible), allowed)
    widen, k_needed = _widen_factors(w, family, acc, allowed)
    knobs = {
        "widen": widen,
        "k": _up(k_needed, 4),
        "drop": [] if feasible else _fewest_to_drop(acc.budgets, allowed),
        "risk": implied_risk(acc.total, risk, mechanism=family, delta=delta),
        "coverage": at_risk.coverage,
    }
    records = _records_needed(w, acc, allowed, family)
    if records:
        knobs["n"] = records
    message = _choice_message(w, family, d, (acc, at_risk), allowed, knobs, risk.kind)
    epsilon_risk = family.epsilon(allowed, d)
    return WorkloadChoice(acc.epsilon, epsilon_risk, bool(feasible), knobs, message, acc, at_risk)


# --- workloads judged on their own privacy-loss distribution (mixed noise, exact readings) --


def _exact_families(mechanism, size: int) -> list:
    if len(mechanism) != size:
        raise ValueError(
            f"mechanism must name one noise per release ({size}) when it is a list; got "
            f"{len(mechanism)} entries"
        )
    return [NoiseFamily.of(one) for one in mechanism]


def _objects(families: list, scales: np.ndarray, sensitivity: np.ndarray) -> list:
    return [
        f.mechanism(float(b), sensitivity=float(s))
        for f, b, s in zip(families, scales.tolist(), sensitivity.tolist(), strict=True)
    ]


def _exact_level(objects: list, risk: Risk, d: float, h: float = 1e-4) -> tuple:
    """(the risk read on the composed PLD in its units, the ε that reading rests on or None).

    ``h`` is the grid step: every reading is pessimistic, so a coarser grid (the knobs'
    searches use 10⁻³) only moves a knob to the safe side.
    """
    if risk.kind == "tpr":
        return attack_tpr(objects, fpr=risk.fpr, discretization=h), None
    if risk.kind == "epsilon":
        # the attack grid: Gaussian releases merged to one μ and built vectorised (cached)
        eps = _composed_epsilon(objects, d, h)
        return eps, eps
    eps = loss_epsilon(objects, delta=d, discretization=h)
    if risk.kind == "posterior":
        return float(posterior_bound(eps, prior=risk.prior)), eps
    return _profile_r_for(risk, eps), eps


def _exact_ok(objects: list, risk: Risk, d: float, limit: float, h: float = 1e-4) -> bool:
    if risk.kind == "epsilon" and all(type(one) is Gaussian for one in objects):
        # Gaussian releases are one Gaussian of μ² = Σ (Δᵢ/σᵢ)²: its δ(ε), exactly
        return float(Gaussian(1.0, sensitivity=composed_mu(objects)).delta(risk.level)) <= d
    level, eps = _exact_level(objects, risk, d, h)
    return level <= risk.level if eps is None else eps <= limit


def _exact_allocation(w, families, d, scales, acc_scales) -> Allocation:
    objects = _objects(families, scales, w.sensitivity)
    budgets = np.empty(len(scales))
    reach, covered, variance = (np.empty(len(scales)) for _ in range(3))
    meets = None
    for family in set(families):
        mask = np.array([f is family for f in families])
        budgets[mask] = family.budgets(w.sensitivity[mask], scales[mask])
        r, c, v = family.delivered(
            scales[mask], w.k[mask], w.coverage[mask], sensitivity=w.sensitivity[mask]
        )
        reach[mask], covered[mask], variance[mask] = r, c, v
        # a mean released as a ratio reports its own plan's ±k at its budget
        mine = _ratio_mask(w, mask)
        if mine is not None:
            (reach, covered, variance), met = _ratio_delivered(
                w._replace(ratio=mine), family, budgets, (reach, covered, variance)
            )
            meets = scales <= acc_scales if meets is None else meets
            meets[mine] = met
    eps = _composed_epsilon(objects, d)  # the attack grid (fast, cached), not pld_epsilon
    names = {f.name for f in families}
    name = names.pop() if len(names) == 1 else "mixed"
    allocation = _assemble(
        w, name, (eps, eps, d), budgets, scales, acc_scales, (reach, covered, variance)
    )
    if meets is not None:
        allocation = allocation._replace(meets=meets)
    return allocation._replace(composed=True)


def _ratio_mask(w, mask):
    """The ratio means (:mod:`helpers.budget.ratio`) among the releases ``mask``, or None."""
    if w.ratio is None or not np.any(w.ratio & mask):
        return None
    return w.ratio & mask


_SEARCH_GRID = 1e-3  # the grid step of the knobs' searches (the verdict itself reads 1e-4)


def _smallest_factor(ok, tol: float = 1e-3) -> float:
    """The smallest t (to a relative ``tol``, rounded up) with ok(t), ok increasing in t."""
    low, high = 1.0, 1.0
    if ok(1.0):
        while ok(low / 2):
            low /= 2
            if low < 1e-12:
                return low
        low, high = low / 2, low
    else:
        while not ok(high * 2):
            high *= 2
            if high > 1e12:
                return math.inf
        low, high = high, high * 2
    while high / low > 1 + tol:
        mid = math.sqrt(low * high)
        low, high = (low, mid) if ok(mid) else (mid, high)
    return high


def _choose_exact(w: _Workload, risk: Risk, mechanism, delta) -> WorkloadChoice:
    families = _exact_families(mechanism, len(w.k))
    w = _read_by(w, [family.mechanism.discrete for family in families])
    d = _check_open_delta(delta)
    acc_scales = np.empty(len(w.k))
    for family in set(families):
        mask = np.array([f is family for f in families])
        acc_scales[mask] = family.accuracy_scales(
            w.k[mask], w.coverage[mask], sensitivity=w.sensitivity[mask]
        )
        mine = _ratio_mask(w, mask)
        if mine is not None:  # a ratio mean's scale at its own plan's least budget
            _, acc_scales = _ratio_floors(
                w._replace(ratio=mine), family, np.zeros(len(w.k)), acc_scales
            )
    limit = math.inf if risk.kind == "tpr" else float(_down(risk.epsilon(), 4))
    if risk.kind == "epsilon":
        limit = risk.level

    def ok(t: float) -> bool:  # on the coarser grid: the factor found errs to the safe side
        objects = _objects(families, _up(acc_scales * t, 4), w.sensitivity)
        return _exact_ok(objects, risk, d, limit, _SEARCH_GRID)

    feasible = _exact_ok(_objects(families, acc_scales, w.sensitivity), risk, d, limit)
    # Gaussian releases alone are read in closed form (microseconds): search them finely
    gaussian_only = all(f.mechanism is Gaussian for f in families)
    widen = _smallest_factor(ok, 1e-7 if gaussian_only else 1e-3)
    acc = _exact_allocation(w, families, d, acc_scales, acc_scales)
    level, _ = _exact_level(_objects(families, acc_scales, w.sensitivity), risk, d)
    if math.isfinite(widen):
        at_scales = acc_scales if feasible and widen > 1 else _up(acc_scales * widen, 4)
        at_risk = _exact_allocation(w, families, d, at_scales, acc_scales)
    else:
        at_risk = acc._replace(meets=np.zeros(len(w.k), dtype=bool))
    drop: list = []
    if not feasible:  # the releases with the largest ε at δ alone go first
        single = [
            loss_epsilon(one, delta=d) for one in _objects(families, acc_scales, w.sensitivity)
        ]
        order = np.argsort(-np.array(single), kind="stable")

        def fits(count: int) -> bool:
            kept = np.sort(order[count:])
            if kept.size == 0:
                return True
            objects = _objects([families[i] for i in kept], acc_scales[kept], w.sensitivity[kept])
            return _exact_ok(objects, risk, d, limit, _SEARCH_GRID)

        low, high = 0, len(order)  # fits(high) holds; fits is monotone in the count dropped
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (low, mid) if fits(mid) else (mid, high)
        drop = [int(i) for i in order[:high]]
    if risk.kind == "tpr":
        words = f"the best test's TPR at FPR {risk.fpr:g} on the composed trade-off curve"
    elif risk.kind == "epsilon":
        words = f"the composed (ε, δ = {d:g}) of the privacy-loss distribution"
    else:
        words = f"read at the ε with P[ℒ > ε] ≤ {d:g}: it fails with probability at most {d:g}"
    if feasible:
        message = (
            f"feasible on the workload's own privacy-loss distribution ({words}): every "
            f"±k met, the risk read at {level:.4g} (allowed {risk.level:.4g}); every ±k could "
            f"shrink by ×{widen:.3g}"
        )
    else:
        message = (
            f"no split meets both, read on the workload's own privacy-loss distribution "
            f"({words}): the accuracy targets give a risk of {level:.4g} (allowed "
            f"{risk.level:.4g}). To fit: widen every ±k by ×{widen:.3g}, or drop {len(drop)} "
            f"release{'s' if len(drop) != 1 else ''} ({', '.join(map(str, drop[:5]))}), or "
            f"accept a risk of {level:.4g} ({risk.kind})"
        )
    knobs = {"widen": widen, "drop": drop, "risk": level, "coverage": at_risk.coverage}
    return WorkloadChoice(
        acc.epsilon, at_risk.epsilon, bool(feasible), knobs, message, acc, at_risk
    )


fill_docstrings(globals(), _SECTIONS)
