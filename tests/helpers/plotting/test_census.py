"""Figure of notebook 11's Census: a zCDP budget split across levels, read three ways."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _modules import find_artist

from helpers import budget as bud
from helpers import deployments as dep
from helpers.plotting import census as pc
from helpers.plotting import risk_up
from helpers.plotting._alt import alt_text


def test_the_illustrative_census_split_adds_up_and_the_tables_are_the_registrys():
    assert math.fsum(pc.CENSUS_LEVELS_ILLUSTRATIVE.values()) == pytest.approx(1.0)
    tables = pc.census_person_rho()
    assert set(tables) == {"person", "housing unit"}
    # the unrounded ρ_z give back the stated ε, and add up to the registry's 2.63
    for name, stated in zip(
        dep.CENSUS_2020["tables"], dep.CENSUS_2020["epsilon_stated"], strict=True
    ):
        assert dep.zcdp_to_epsilon(tables[name], 1e-10) == pytest.approx(stated, abs=1e-9)
    assert round(sum(tables.values()), 4) == 2.63


# --- the Census ------------------------------------------------------------------------------


def test_census_levels_read_the_total_three_ways():
    fig = pc.plot_census_levels()
    total = bud.compose_rho(
        [s * pc.census_person_rho()["person"] for s in pc.CENSUS_LEVELS_ILLUSTRATIVE.values()]
        + [pc.census_person_rho()["housing unit"]]
    )
    rho_total = find_artist(fig, "rho_total").get_offsets()[0, 0]
    assert rho_total == pytest.approx(total) and round(rho_total, 2) == 2.63
    tpr = find_artist(fig, "tpr_zcdp").get_offsets()[:, 0]
    assert round(tpr[-1], 3) == 0.698  # the total, from zCDP alone
    gauss = find_artist(fig, "tpr_gaussian").get_offsets()[:, 0]
    from_eps = find_artist(fig, "tpr_epsilon").get_offsets()[:, 0]
    # the Gaussian curve ≤ zCDP alone ≤ the (ε, δ) conversion, level by level
    assert np.all(gauss <= tpr + 1e-12) and np.all(tpr <= from_eps + 1e-12)
    assert "ILLUSTRATIVE" in fig._suptitle.get_text()
    text = alt_text(fig)
    assert "illustrative split" in text and f"{risk_up(tpr[-1]):.3f} from zCDP alone" in text


def test_census_levels_take_any_split_and_drop_the_label_when_not_illustrative():
    fig = pc.plot_census_levels({"a": 0.5, "b": 0.25}, illustrative=False)
    assert "ILLUSTRATIVE" not in fig._suptitle.get_text()
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["a", "b", "all together"]
    assert find_artist(fig, "rho_total").get_offsets()[0, 0] == 0.75
