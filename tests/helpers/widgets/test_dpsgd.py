"""The dashboard of notebook 13: set every control as a reader would, check text and data."""

from __future__ import annotations

import pytest
from _modules import find_artist

from helpers import dpsgd as sgd
from helpers.plotting import risk_up
from helpers.plotting.dpsgd import DEFAULTS, steps_for
from helpers.widgets import dpsgd as w


def _chosen_epsilon(fig) -> float:
    return float(find_artist(fig, "chosen").get_ydata()[0])


def _epsilon(noise, rate, epochs, delta) -> float:
    return sgd.dpsgd_epsilon(noise, rate, steps_for(epochs, rate), delta=delta)


# the session's, not the module's: a worker that moves to another module's tests and back
# would build it again (course.py test spreads the tests longest first)
@pytest.fixture(scope="session")
def dash():
    return w.model_dashboard()


def test_defaults_show_the_accounted_epsilon_the_attack_and_the_accuracy(dash):
    d = DEFAULTS
    eps = _epsilon(d["noise_multiplier"], d["sample_rate"], d["epochs"], d["delta"])
    first = dash.text.splitlines()[0]
    assert (
        first
        == f"{steps_for(d['epochs'], d['sample_rate']):,} steps: ε = {risk_up(eps):.4g} at δ = {d['delta']:g}"
    )
    assert _chosen_epsilon(dash.figure) == eps
    assert "membership attack: TPR ≤" in dash.text and "held-out accuracy" in dash.text
    assert dash.text == w.model_text(
        d["noise_multiplier"], sample_rate=d["sample_rate"], epochs=d["epochs"], delta=d["delta"]
    )


def test_every_control_moves_epsilon_the_way_the_accounting_says():
    # its own dashboard: the moves below must not leak into the module's (tests run in any order)
    dash = w.model_dashboard()
    d = DEFAULTS
    before = _chosen_epsilon(dash.figure)
    dash.controls["epochs"].value = 40  # more steps: more privacy loss
    more = _chosen_epsilon(dash.figure)
    assert more > before and "800 steps" in dash.text
    dash.controls["sample_rate"].value = 0.1  # larger batches, twice the steps' rate
    wider = _chosen_epsilon(dash.figure)
    assert wider == _epsilon(d["noise_multiplier"], 0.1, 40, d["delta"]) and wider > more
    dash.controls["noise_multiplier"].value = 8.0  # more noise: less loss
    quieter = _chosen_epsilon(dash.figure)
    assert quieter < wider
    tpr_line = dash.text.splitlines()[1]
    dash.controls["delta"].value = 1e-8  # a smaller δ: a larger ε, the same attack curve
    assert _chosen_epsilon(dash.figure) > quieter
    assert dash.text.splitlines()[1].split("(")[0] == tpr_line.split("(")[0]
    assert "at δ = 1e-08" in dash.text


def test_a_delta_outside_the_choices_is_refused():
    with pytest.raises(ValueError, match=r"^delta must be one of"):
        w.model_dashboard(delta=0.5)
