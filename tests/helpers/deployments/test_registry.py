"""helpers.deployments.registry: the table, every row with a status, and the units of privacy."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
import pytest

from helpers import deployments as dep

with dep.DATA_PATH.open("rb") as _data:
    RAW = pd.read_csv(_data)


# --- the table -----------------------------------------------------------------------------


def test_load_keeps_every_row_and_gives_each_a_status():
    table = dep.load()
    assert len(table) == len(RAW) == 41
    assert table["name"].tolist() == RAW["name"].tolist()
    assert table["status"].notna().all()
    assert set(table["status"]) >= {"usable"}
    unusable = table[table["status"] != "usable"]
    assert len(unusable) > 0
    # every reason is a sentence, never blank
    assert (unusable["status"].str.len() > 10).all()
    assert table.loc[table["status"] == "usable", "epsilon_used"].notna().all()
    assert table.loc[table["status"] != "usable", "epsilon_used"].isna().all()


def test_load_names_the_quirks_of_the_data():
    table = dep.load().set_index("name")
    iconic = table.loc["Iconic scenes and photo sections for iOS apps", "status"]
    assert "Pure DP" in iconic and "1.5e-07" in iconic
    assert "formula" in table.loc["FLEX", "status"]
    assert "privacy parameters not in the registry" in table.loc["Safety Classifier", "status"]
    assert "DP variant not in the registry" in table.loc["Private Third Party Audits", "status"]
    # zCDP rows with only ρ_z are usable through the conversion, at the default δ
    census = table.loc["Disclosure Avoidance System for Redistricting Data"]
    assert census["status"] == "usable"
    assert census["delta_used"] == dep.DEFAULT_DELTA
    assert census["epsilon_used"] == pytest.approx(dep.zcdp_to_epsilon(2.63, 1e-10))
    assert "converted" in census["basis"]
    # a zCDP row that also publishes (ε, δ) keeps them
    meta = table.loc["User-URL Privacy Dataset"]
    # 1.453 is the Gaussian curve at μ = 0.376, below what ρ_z = 0.0728 alone guarantees
    # (√(2·0.0728) = 0.3816 ≠ 0.376): the conservative reading is ρ_z's CKS conversion
    assert meta["epsilon"] == 1.453 and meta["delta_used"] == 1e-5
    assert meta["epsilon_used"] == dep.zcdp_to_epsilon(0.0728, 1e-5) > 1.6
    assert "below what ρ_z alone guarantees" in meta["basis"]
    assert meta["epsilon_cks"] == pytest.approx(dep.zcdp_to_epsilon(0.0728, 1e-5))
    # pure DP rows have δ = 0
    assert table.loc["Popular Emojis", "delta_used"] == 0.0


def test_status_counts_match_the_raw_columns():
    table = dep.load()
    no_params = RAW[["epsilon", "delta", "rho"]].isna().all(axis=1)
    assert table.loc[no_params, "status"].str.startswith("privacy parameters").all()
    assert (table["status"] == "usable").sum() == len(dep.usable(table))
    used = dep.usable(table)["epsilon_used"].to_numpy()
    assert np.all(np.diff(used) >= 0)


def test_load_refuses_a_bad_default_delta():
    with pytest.raises(ValueError, match="delta"):
        dep.load(default_delta=0.0)


def test_data_readme_credits_the_registry():
    text = (resources.files("helpers") / "data" / "README.md").read_text(encoding="utf-8")
    for needle in ("OpenDP", "3e9c812", "MIT", "deployments-registry-data"):
        assert needle in text


def test_a_number_is_not_a_privacy_unit():
    with pytest.raises(ValueError, match="privacy_unit must be a string"):
        dep.unit_group(5)


# --- privacy units: the finest unit each row states (issue 20) -----------------------------

#: every privacy_unit string of the registry table, its group, and why (the registry's
#: privacy_unit_details where it gives them)
UNIT_CASES = [
    ("Event-level", "one event or record", "one emoji, one HealthKit event, one crash report"),
    ("record-level", "one event or record", "one 512-token sequence of text"),
    ("Tuple-level", "one event or record", "one tuple of one table, not a person (FLEX)"),
    ("User-trip-level", "one event or record", "one trip of a user, not the user's trips"),
    (
        "Event-Month-level",
        "one event or record",
        "LinkedIn Hiring: event-level privacy, the event a hire, in each monthly release",
    ),
    (
        "User-quarter-day-level",
        "part of a day of a user",
        "Windows telemetry: a quarter of a day, four of them in a user's day",
    ),
    (
        "Device-day-level",
        "part of a day of a user",
        "Current Pageviews: one device's day; a user with several devices has several",
    ),
    (
        "Bounded contribution-day",
        "part of a day of a user",
        "Historical Pageviews: a fixed number of pageviews (30 or 300) in one day, not a "
        "user's whole day (the data were pre-aggregated, no user or device to bound)",
    ),
    ("User-day-level", "one day of a user", "one user's data for one day"),
    (
        "User-month-country-level",
        "part of a month of a user",
        "Wikipedia Geoeditors: one editor's month in one country; an editor in two countries "
        "holds two units",
    ),
    ("User-month-level", "one month of a user", "one user's data for one month"),
    (
        "User account-month-level",
        "one month of a user",
        "Wikipedia Russian editors: one account's month (an account is the registry's user)",
    ),
    (
        "User-device-level",
        "one device of a user",
        "Spanish next-word prediction: all training examples of one device, not of a user "
        "with several devices",
    ),
    ("User-level", "one person or entity", "everything about one user"),
    ("Person-level", "one person or entity", "one person's record (change-one)"),
    (
        "Person-level; housing-unit-level",
        "one person or entity",
        "Census: a person in the person tables, a housing unit in the housing tables",
    ),
    ("Individual-level", "one person or entity", "one individual"),
    (
        "User-account-level",
        "one person or entity",
        "a customer and all their linked accounts",
    ),
    ("Birth-level", "one person or entity", "one live birth: the newborn's whole record"),
    (
        "Business establishment",
        "one person or entity",
        "the existence of one establishment (County Business Patterns)",
    ),
    ("Aggregate-level", "not stated", "an aggregate is not a unit of who is protected"),
    ("Aggregate Statistics", "not stated", "an aggregate is not a unit of who is protected"),
    (None, "not stated", "the registry gives no unit (read as NaN)"),
]


@pytest.mark.parametrize(
    ("unit", "group", "why"), UNIT_CASES, ids=[str(u) for u, _, _ in UNIT_CASES]
)
def test_every_unit_goes_to_the_group_of_the_finest_unit_it_states(unit, group, why):
    assert dep.unit_group(unit) == group, why


def test_every_unit_of_the_table_is_in_the_cases_and_load_uses_the_same_groups():
    stated = {u for u, _, _ in UNIT_CASES if u is not None}
    in_table = set(RAW["privacy_unit"].dropna())
    assert in_table == stated, "a unit in the CSV without its expected group written out here"
    table = dep.load()
    expected = table["privacy_unit"].map(lambda u: dep.unit_group(None if pd.isna(u) else u))
    assert table["unit_group"].tolist() == expected.tolist()
    assert set(table["unit_group"]) <= set(dep.UNIT_GROUPS)


def test_unit_groups_cover_every_expected_group_in_order_finest_first():
    groups = [g for _, g, _ in UNIT_CASES]
    assert set(groups) == set(dep.UNIT_GROUPS)
    # the cases are written finest first too: their groups appear in UNIT_GROUPS' order
    order = [dep.UNIT_GROUPS.index(g) for g in groups]
    assert order == sorted(order)


@pytest.mark.parametrize(
    "unit", ["", "x", "Session-level", "Household-week-level", "Aggregate", "level"]
)
def test_a_unit_it_does_not_know_is_not_stated_rather_than_guessed(unit):
    assert dep.unit_group(unit) == "not stated"


@pytest.mark.parametrize(
    ("unit", "group"),
    [
        ("DEVICE-DAY-LEVEL", "part of a day of a user"),
        ("user day", "one day of a user"),
        ("User–quarter–day", "part of a day of a user"),  # en dashes
    ],
)
def test_case_and_separators_do_not_change_the_group(unit, group):
    assert dep.unit_group(unit) == group
