"""Figure functions for notebook 13 (choosing ε for a model): data in, Figure out.

The mathematics is :mod:`helpers.dpsgd` (the training, its accounted ε, the attack risk read
on the same privacy-loss distribution); these functions only read it and draw it. Plotted
artists carry a ``gid`` so tests find the data by name; series differ by line style and
marker, and the accuracy bars by hatching, as well as by colour.

The notebook's task is :func:`model_data`: 1,000 training and 10,000 held-out flights of
:func:`helpers.dpsgd.flight_delays`, a sample small enough that the noise shows in the
accuracy.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from matplotlib.figure import Figure

from .. import dpsgd as sgd
from ..attack import attack_advantage
from ..checks import check_half_open_unit, check_positive, check_scalar
from ..deployments import tpr_at_fpr
from ._alt import describe
from ._style import BLACK, BLUE, GREY, ORANGE, SMALL, VERMILLION, course_style
from .rounding import risk_up

__all__ = [
    "DATA",
    "DEFAULTS",
    "ModelReadings",
    "model_data",
    "model_readings",
    "overview_text",
    "plot_model_overview",
    "steps_for",
]

#: the notebook's task: rows for training and for testing, and the seed of the sample
DATA = {"n_train": 1_000, "n_test": 10_000, "rng": 0}

#: the dashboard's starting point (and the static figure beside it): the noise multiplier σ,
#: the sampling rate q, the epochs (T = epochs/q steps), δ, the attack's FPR, the clip C,
#: the step size η and the seeds of the training runs whose accuracies are averaged
DEFAULTS = {
    "noise_multiplier": 4.0,
    "sample_rate": 0.05,
    "epochs": 20,
    "delta": 1e-5,
    "fpr": 0.1,
    "clip": 1.0,
    "learning_rate": 0.5,
    "seeds": (0, 1, 2),
}

#: the epochs at which panel (a) reads ε (the chosen one is added)
_EPOCHS = (1, 2, 5, 10, 20, 50)
#: the FPRs at which panel (b) draws the trade-off curves
_FPRS = np.logspace(-4, 0, 81)
_TITLE = {"fontsize": 11}


@functools.lru_cache(maxsize=1)
def model_data() -> sgd.FlightDelays:
    """The notebook's flights (:data:`DATA`), drawn once per process."""
    return sgd.flight_delays(**DATA)


def steps_for(epochs: float, sample_rate: float) -> int:
    """T, the steps of ``epochs`` passes over the data at sampling rate q: round(epochs/q), at
    least 1; epochs in (0, 10⁵] and q in (0, 1], else a ValueError naming them."""
    e = check_scalar("epochs", check_positive("epochs", epochs), epochs)
    if e > 1e5:
        raise ValueError(f"epochs must lie in (0, 100000]; got {epochs!r}")
    q = check_scalar("sample_rate", check_half_open_unit("sample_rate", sample_rate), sample_rate)
    return max(1, round(e / q))


class ModelReadings(NamedTuple):
    """What one setting of DP-SGD gives: its steps, its accounted ε at δ, the best membership
    test's TPR at the FPR (on the PLD, and what the (ε, δ) alone allows), its advantage, and
    the held-out accuracy (mean and spread over seeds) beside the model without noise and the
    majority guess."""

    steps: int
    epsilon: float
    tpr: float
    tpr_from_epsilon: float
    advantage: float
    accuracy: float
    accuracy_sd: float
    no_noise: float
    majority: float


@functools.lru_cache(maxsize=64)
def _no_noise(sample_rate: float, steps: int, clip: float, learning_rate: float) -> float:
    data = model_data()
    w = sgd.train_dpsgd(
        data.X_train,
        data.y_train,
        noise_multiplier=0.0,
        sample_rate=sample_rate,
        steps=steps,
        clip=clip,
        learning_rate=learning_rate,
        rng=0,
    )
    return sgd.accuracy(w, data.X_test, data.y_test)


@functools.lru_cache(maxsize=64)
def _accuracies(noise_multiplier: float, sample_rate: float, steps: int) -> tuple:
    # remembered: moving δ or the FPR changes no model (a dashboard redraws them often)
    data = model_data()
    options = {"clip": DEFAULTS["clip"], "learning_rate": DEFAULTS["learning_rate"]}
    return tuple(
        sgd.accuracy(
            sgd.train_dpsgd(
                data.X_train,
                data.y_train,
                noise_multiplier=noise_multiplier,
                sample_rate=sample_rate,
                steps=steps,
                rng=seed,
                **options,
            ),
            data.X_test,
            data.y_test,
        )
        for seed in DEFAULTS["seeds"]
    )


def model_readings(
    noise_multiplier: float = DEFAULTS["noise_multiplier"],
    *,
    sample_rate: float = DEFAULTS["sample_rate"],
    epochs: float = DEFAULTS["epochs"],
    delta: float = DEFAULTS["delta"],
    fpr: float = DEFAULTS["fpr"],
) -> ModelReadings:
    """The readings of one setting (:class:`ModelReadings`), as the figure and the dashboard
    show them: T = round(epochs/q) steps of σ and q on :func:`model_data`."""
    data = model_data()
    steps = steps_for(epochs, sample_rate)
    epsilon = sgd.dpsgd_epsilon(noise_multiplier, sample_rate, steps, delta=delta)
    tpr = sgd.dpsgd_attack_tpr(noise_multiplier, sample_rate, steps, fpr=fpr)
    step = sgd.dpsgd_mechanism(noise_multiplier, sample_rate)
    scores = _accuracies(float(noise_multiplier), float(sample_rate), steps)
    late = float(np.mean(data.y_test))
    return ModelReadings(
        steps=steps,
        epsilon=epsilon,
        tpr=tpr,
        tpr_from_epsilon=float(tpr_at_fpr(fpr, epsilon=epsilon, delta=delta)),
        advantage=attack_advantage([step] * steps),
        accuracy=float(np.mean(scores)),
        accuracy_sd=float(np.std(scores)),
        no_noise=_no_noise(sample_rate, steps, DEFAULTS["clip"], DEFAULTS["learning_rate"]),
        majority=max(late, 1.0 - late),
    )


@course_style
def plot_model_overview(
    noise_multiplier: float = DEFAULTS["noise_multiplier"],
    *,
    sample_rate: float = DEFAULTS["sample_rate"],
    epochs: float = DEFAULTS["epochs"],
    delta: float = DEFAULTS["delta"],
    fpr: float = DEFAULTS["fpr"],
) -> Figure:
    """Three readings of one DP-SGD setting on the flight-delay model.

    (a) the accounted ε at δ against the epochs trained (PLD of the subsampled Gaussian
    composed T = epochs/q times), the chosen epochs marked; (b) the best membership test's
    TPR against its FPR on the same PLD (solid), beside what the (ε, δ) alone allows
    (dashed, the trade-off curve f_{ε,δ}) and chance (dotted), the chosen FPR marked; (c)
    the held-out accuracy of the models trained at σ (mean over :data:`DEFAULTS`'s seeds)
    beside the same training without noise and the majority guess.
    """
    readings = model_readings(
        noise_multiplier, sample_rate=sample_rate, epochs=epochs, delta=delta, fpr=fpr
    )
    grid = sorted(set(_EPOCHS) | {epochs})
    eps_grid = [
        sgd.dpsgd_epsilon(noise_multiplier, sample_rate, steps_for(e, sample_rate), delta=delta)
        for e in grid
    ]
    tpr_curve = np.asarray(
        sgd.dpsgd_attack_tpr(noise_multiplier, sample_rate, readings.steps, fpr=_FPRS)
    )
    tpr_eps = np.asarray(tpr_at_fpr(_FPRS, epsilon=readings.epsilon, delta=delta))

    fig = Figure(figsize=(9.4, 4.9))
    ax_a, ax_b, ax_c = fig.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1.1, 1]})
    fig.subplots_adjust(left=0.07, right=0.98, top=0.8, bottom=0.17, wspace=0.42)

    ax_a.plot(grid, eps_grid, color=BLUE, marker="o", ms=5, ls="-", gid="epsilon")
    ax_a.plot(
        [epochs],
        [readings.epsilon],
        marker="D",
        ms=11,
        color=VERMILLION,
        mec=BLACK,
        ls="",
        gid="chosen",
    )
    ax_a.set_xlim(0, max(grid) * 1.04)
    ax_a.set_xlabel("epochs (T = epochs / q steps)")
    ax_a.set_ylabel(f"accounted ε at δ = {delta:g}")
    ax_a.set_ylim(bottom=0)
    ax_a.set_title(f"(a) ε = {risk_up(readings.epsilon):.3g} after {epochs:g} epochs", **_TITLE)
    ax_a.grid(alpha=0.3)

    ax_b.plot(
        _FPRS,
        tpr_eps,
        color=ORANGE,
        ls="--",
        lw=2,
        label="what (ε, δ) allows",
        gid="tpr_from_epsilon",
    )
    ax_b.plot(_FPRS, tpr_curve, color=BLUE, ls="-", lw=2, label="the best test (PLD)", gid="tpr")
    ax_b.plot(_FPRS, _FPRS, color=GREY, ls=":", lw=1.6, label="chance", gid="chance")
    ax_b.plot(
        [fpr],
        [readings.tpr],
        marker="D",
        ms=11,
        color=VERMILLION,
        mec=BLACK,
        ls="",
        gid="chosen_fpr",
    )
    ax_b.set_xscale("log")
    ax_b.set_yscale("log")
    ax_b.set_xlim(_FPRS[0], 1)
    ax_b.set_ylim(_FPRS[0], 1)
    ax_b.set_xlabel("false-positive rate (log scale)")
    ax_b.set_ylabel("membership attack's TPR (log scale)")
    ax_b.set_title(f"(b) TPR ≤ {risk_up(readings.tpr):.3f} at FPR {fpr:g}", **_TITLE)
    ax_b.legend(fontsize=SMALL, loc="upper left")
    ax_b.grid(alpha=0.3)

    runs = len(DEFAULTS["seeds"])
    labels = ["guess\non time", f"DP-SGD\nσ = {noise_multiplier:g}", "no noise\n(no privacy)"]
    values = [readings.majority, readings.accuracy, readings.no_noise]
    # dots, not bars: the axis starts at 50 % (said on it), and a bar's length would mislead
    styles = [(GREY, "s"), (BLUE, "o"), (ORANGE, "D")]
    for x, (value, (colour, marker)) in enumerate(zip(values, styles, strict=True)):
        ax_c.plot(
            [x], [value], marker=marker, ms=11, color=colour, mec=BLACK, ls="", gid="accuracy"
        )
        ax_c.text(x, value + 0.012, f"{value:.1%}", ha="center", va="bottom", fontsize=SMALL)
    ax_c.errorbar(
        [1],
        [readings.accuracy],
        yerr=[readings.accuracy_sd],
        color=BLACK,
        capsize=6,
        lw=1.4,
        gid="spread",
    )
    ax_c.set_xticks(range(3), labels)
    ax_c.set_xlim(-0.6, 2.6)
    ax_c.set_ylim(0.5, 0.85)
    ax_c.set_ylabel("accuracy on 10,000 flights (axis from 50 %)")
    ax_c.tick_params(axis="x", labelsize=SMALL)
    ax_c.set_title(f"(c) held-out accuracy ({runs} runs)", **_TITLE)
    ax_c.grid(alpha=0.3, axis="y")

    steps = readings.steps
    slower = eps_grid[-1] / eps_grid[0] < grid[-1] / grid[0]
    pace = "rising more slowly than the epochs" if slower else "rising with the epochs"
    where = "on or above" if np.all(tpr_eps >= tpr_curve) else "crossing"
    fig.suptitle(
        f"DP-SGD on 1,000 flights: σ = {noise_multiplier:g}, q = {sample_rate:g}, "
        f"{epochs:g} epochs = {steps:,} steps",
        fontsize=12,
    )
    alt = (
        f"Three panels for a logistic regression trained by DP-SGD on 1,000 flights with noise "
        f"multiplier {noise_multiplier:g}, sampling rate {sample_rate:g} and {epochs:g} epochs "
        f"({steps:,} steps). (a) The accounted ε at δ = {delta:g} against the epochs (both axes "
        f"linear), from "
        f"{risk_up(eps_grid[0]):.3g} after {grid[0]:g} to {risk_up(eps_grid[-1]):.3g} after {grid[-1]:g}, {pace}; "
        f"at {epochs:g} epochs it is {risk_up(readings.epsilon):.3g}. "
        f"(b) The best membership test's true-positive rate against its false-positive rate, "
        f"both on log scales: at FPR {fpr:g} it is at most {risk_up(readings.tpr):.3f}, where the "
        f"(ε, δ) alone would allow {risk_up(readings.tpr_from_epsilon):.3f} (dashed curve, "
        f"{where} the solid one); chance is the dotted diagonal. (c) Held-out "
        f"accuracy as dots (axis from 50 %): {readings.accuracy:.1%} for the private models "
        f"(mean of {runs} runs, the bar their standard deviation), "
        f"{readings.no_noise:.1%} without noise, {readings.majority:.1%} for always guessing "
        f"on time."
    )
    return describe(fig, alt)


def overview_text(readings: ModelReadings, *, noise_multiplier, delta, fpr) -> str:
    """The readout of the dashboard of notebook 13, from :func:`model_readings`."""
    lines = [
        f"{readings.steps:,} steps: ε = {risk_up(readings.epsilon):.4g} at δ = {delta:g}",
        f"membership attack: TPR ≤ {risk_up(readings.tpr):.4f} at FPR {fpr:g} "
        f"(the (ε, δ) alone allows {risk_up(readings.tpr_from_epsilon):.4f}); "
        f"advantage ≤ {risk_up(readings.advantage):.4f}",
        f"held-out accuracy {readings.accuracy:.2%} (σ = {noise_multiplier:g}, "
        f"{len(DEFAULTS['seeds'])} runs, sd {readings.accuracy_sd:.2%}); "
        f"{readings.no_noise:.2%} without noise, {readings.majority:.2%} guessing on time",
    ]
    return "\n".join(lines)
