"""Notebook 13's figure: every drawn number is the math layer's, read at the same setting."""

from __future__ import annotations

import numpy as np
import pytest
from _modules import find_artist

from helpers import deployments as dep
from helpers import dpsgd as sgd
from helpers.plotting import dpsgd as P
from helpers.plotting import risk_up


# the session's, not the module's: a worker that moves to another module's tests and back
# would build it again (course.py test spreads the tests longest first)
@pytest.fixture(scope="session")
def default_figure():
    return P.plot_model_overview()


def test_steps_are_epochs_over_the_sampling_rate():
    assert P.steps_for(20, 0.05) == 400
    assert P.steps_for(1, 0.3) == 3  # round(3.33)
    assert P.steps_for(0.001, 0.5) == 1  # at least one step


def test_the_epsilon_panel_is_the_accounted_epsilon_at_every_epoch(default_figure):
    d = P.DEFAULTS
    line = find_artist(default_figure, "epsilon")
    for epochs, eps in zip(line.get_xdata(), line.get_ydata(), strict=True):
        steps = P.steps_for(epochs, d["sample_rate"])
        assert eps == sgd.dpsgd_epsilon(
            d["noise_multiplier"], d["sample_rate"], steps, delta=d["delta"]
        )
    # ε rises with the epochs, more slowly than they do
    eps = np.asarray(line.get_ydata())
    assert np.all(np.diff(eps) > 0)
    x = np.asarray(line.get_xdata())
    assert eps[-1] / eps[0] < x[-1] / x[0]
    chosen = find_artist(default_figure, "chosen")
    assert chosen.get_xdata()[0] == d["epochs"]


def test_the_attack_curve_is_below_what_its_epsilon_allows(default_figure):
    d = P.DEFAULTS
    readings = P.model_readings()
    fpr = np.asarray(find_artist(default_figure, "tpr").get_xdata())
    tpr = np.asarray(find_artist(default_figure, "tpr").get_ydata())
    allowed = np.asarray(find_artist(default_figure, "tpr_from_epsilon").get_ydata())
    assert np.all(tpr <= allowed) and np.all(tpr >= fpr * (1 - 1e-12))
    assert np.all(allowed == dep.tpr_at_fpr(fpr, epsilon=readings.epsilon, delta=d["delta"]))
    marker = find_artist(default_figure, "chosen_fpr")
    assert marker.get_ydata()[0] == readings.tpr
    assert readings.tpr == sgd.dpsgd_attack_tpr(
        d["noise_multiplier"], d["sample_rate"], readings.steps, fpr=d["fpr"]
    )


def test_the_accuracy_bars_are_the_models_trained_at_the_setting(default_figure):
    readings = P.model_readings()
    data = P.model_data()
    d = P.DEFAULTS
    scores = [
        sgd.accuracy(
            sgd.train_dpsgd(
                data.X_train,
                data.y_train,
                noise_multiplier=d["noise_multiplier"],
                sample_rate=d["sample_rate"],
                steps=readings.steps,
                rng=seed,
            ),
            data.X_test,
            data.y_test,
        )
        for seed in d["seeds"]
    ]
    assert readings.accuracy == pytest.approx(np.mean(scores), abs=1e-12)
    dots = [
        line.get_ydata()[0]
        for ax in default_figure.axes
        for line in ax.lines
        if line.get_gid() == "accuracy"
    ]
    assert dots == [readings.majority, readings.accuracy, readings.no_noise]
    # the model learns, and the noise costs it something here
    assert readings.majority < readings.accuracy <= readings.no_noise + 0.005
    assert "axis from 50 %" in default_figure.axes[2].get_ylabel()


def test_the_text_alternative_states_the_drawn_numbers(default_figure):
    readings = P.model_readings()
    alt = default_figure.alt_text
    assert f"at most {risk_up(readings.tpr):.3f}" in alt
    assert f"it is {risk_up(readings.epsilon):.3g}" in alt
    assert f"{readings.accuracy:.1%} for the private models" in alt
    assert "on or above the solid one" in alt


def test_more_noise_lowers_epsilon_and_the_attack_and_costs_accuracy():
    low, high = P.model_readings(2.0), P.model_readings(12.0)
    assert high.epsilon < low.epsilon and high.tpr < low.tpr and high.advantage < low.advantage
    assert high.accuracy < low.accuracy


@pytest.mark.parametrize(
    ("epochs", "rate", "match"),
    [
        (20, 0.0, r"^sample_rate must"),
        (20, "x", r"^sample_rate must"),
        (float("nan"), 0.05, r"^epochs must"),
        (-5, 0.05, r"^epochs must"),
        (1e300, 0.05, r"^epochs must"),
        ([20, 30], 0.05, r"^epochs must be a single number"),
    ],
)
def test_steps_for_refuses_bad_input_by_name(epochs, rate, match):
    with pytest.raises(ValueError, match=match):
        P.steps_for(epochs, rate)


def test_a_bad_setting_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^sample_rate must"):
        P.plot_model_overview(sample_rate=1.5)
