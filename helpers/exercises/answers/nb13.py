"""Exercises of notebook 13 (choosing ε for a model)."""

from __future__ import annotations

import math

from ... import dpsgd as sgd
from . import Param, answer


@answer(
    "13.1",
    names=("steps", "epsilon"),
    decimals=3,
    parameters={
        "noise_multiplier": Param(3.4, 1.0, 6.0, step=0.1, about="the noise multiplier σ"),
        "sample_rate": Param(
            0.02, kind="choice", choices=(0.01, 0.02, 0.04, 0.1), about="the sampling rate q"
        ),
        "epochs": Param(15, 5, 30, kind="int", about="passes over the data"),
        "delta": Param(1e-6, kind="choice", choices=(1e-5, 1e-6, 1e-7), about="δ"),
    },
)
def _accounted(*, noise_multiplier, sample_rate, epochs, delta):
    """DP-SGD run for ``epochs`` passes at sampling rate q: T = round(epochs/q) steps, and
    the accounted ε at δ of the subsampled Gaussian composed T times (its PLD)."""
    steps = round(epochs / sample_rate)
    return (steps, sgd.dpsgd_epsilon(noise_multiplier, sample_rate, steps, delta=delta))


@answer(
    "13.2",
    names=("sigma_epsilon", "sigma_attack"),
    decimals=3,
    parameters={
        "epsilon": Param(0.8, 0.5, 2.0, step=0.1, about="the ε target at δ"),
        "delta": Param(1e-5, kind="choice", choices=(1e-5, 1e-6), about="δ"),
        "fpr": Param(0.05, kind="choice", choices=(0.01, 0.02, 0.05, 0.1), about="the FPR α"),
        "sample_rate": Param(0.05, kind="choice", choices=(0.02, 0.05), about="q"),
        "steps": Param(200, kind="choice", choices=(100, 200, 300), about="T"),
    },
)
def _calibrated(*, epsilon, delta, fpr, sample_rate, steps):
    """The least σ meeting ε at δ, and the least σ whose best membership test keeps TPR at
    FPR α within what that (ε, δ) promises, e^ε·α + δ (attack-aware calibration)."""
    promised = math.exp(epsilon) * fpr + delta
    return (
        sgd.noise_for_epsilon(epsilon, sample_rate=sample_rate, steps=steps, delta=delta),
        sgd.noise_for_attack_tpr(promised, fpr=fpr, sample_rate=sample_rate, steps=steps),
    )


@answer(
    "13.3",
    names=("epsilon_lower",),
    decimals=3,
    parameters={
        "correct": Param(87, 70, 100, kind="int", about="right guesses v of r = 100"),
        "canaries": Param(5_000, kind="choice", choices=(1_000, 2_000, 5_000), about="m"),
        "delta": Param(1e-5, kind="choice", choices=(1e-5, 1e-6), about="δ"),
    },
)
def _audited(*, correct, canaries, delta):
    """A one-run audit with m canaries guessed r = 100 of them and got v right: the ε it
    proves at 95 % confidence for the (ε, δ) claim (Steinke, Nasr & Jagielski 2023)."""
    return sgd.audit_epsilon(correct, 100, canaries=canaries, delta=delta, significance=0.05)
