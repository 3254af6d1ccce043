"""Figures of notebook 10 (choose your ε): where the notebook reads them, the Durham choice."""

from __future__ import annotations

import math

import pytest

from helpers.plotting import choose, deployments
from helpers.plotting.choose import plot_durham_choice


def test_notebook_10_reads_its_figures_from_the_deployments_module():
    """Notebook 10 imports ``helpers.plotting.deployments as plots``: its figures are the very
    objects of this module."""
    for name in choose.__all__:
        assert name in deployments.__all__ and getattr(deployments, name) is getattr(choose, name)


def test_durham_figure_reads_every_profile_as_17_on_the_slice_q_1():
    """ã = 0 is profile (17) on q = 1 (ε = ln r̃, as notebook 07 and Example 3), not ½ ln r̃."""
    fig = plot_durham_choice(profiles=((0.0, 1.2), (0.5, 5.0)))
    ax = fig.axes[0]
    x = {line.get_gid(): line.get_xdata()[0] for line in ax.lines if line.get_gid()}
    # numpy's log against math's: within a few units in the last place, never compared exactly
    assert x["profile_0_1.2"] == pytest.approx(math.log(1.2), rel=4 * 2.0**-52, abs=0)
    assert x["profile_0.5_5"] == pytest.approx(math.log(9), rel=4 * 2.0**-52, abs=0)
