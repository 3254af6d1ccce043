"""Figures of notebook 09: every usable deployment plotted (notebook 10's are in test_choose.py)."""

from __future__ import annotations

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
