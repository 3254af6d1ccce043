"""Figures of notebooks 09 and 10: every usable deployment plotted, the Durham choice."""

from __future__ import annotations

import math

import numpy as np
from _modules import find_artist

from helpers import deployments as dep
from helpers.plotting.deployments import plot_deployments


def test_static_deployments_figure_plots_every_usable_row():
    fig = plot_deployments()
    rows = dep.usable()
    xs = np.concatenate(
        [
            c.get_offsets()[:, 0]
            for ax in fig.axes
            for c in ax.collections
            if str(c.get_gid()).startswith("epsilon_") and c.get_gid() != "epsilon_simple"
        ]
    )
    assert np.allclose(np.sort(xs), np.sort(rows["epsilon_used"].to_numpy()))
    post = find_artist(fig, "posterior").get_offsets()[:, 0]
    assert np.allclose(post, dep.posterior_bound(rows["epsilon_used"].to_numpy(), prior=0.5))
    tpr = find_artist(fig, "tpr_0.1").get_offsets()[:, 0]
    expected = dep.tpr_at_fpr(
        0.1, epsilon=rows["epsilon_used"].to_numpy(), delta=rows["delta_used"].to_numpy()
    )
    assert np.allclose(tpr, expected)


def test_durham_figure_reads_every_profile_as_17_on_the_slice_q_1():
    """ã = 0 is profile (17) on q = 1 (ε = ln r̃, as notebook 07 and Example 3), not ½ ln r̃."""
    from helpers.plotting.deployments import plot_durham_choice

    fig = plot_durham_choice(profiles=((0.0, 1.2), (0.5, 5.0)))
    ax = fig.axes[0]
    x = {line.get_gid(): line.get_xdata()[0] for line in ax.lines if line.get_gid()}
    assert x["profile_0_1.2"] == math.log(1.2)
    assert x["profile_0.5_5"] == math.log(9)
