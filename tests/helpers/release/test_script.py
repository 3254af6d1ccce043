"""python -m helpers.release: usage without arguments, CSV and Parquet, a missing column named."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import budget as B
from helpers import release as R
from helpers.release import script

pytest.importorskip("polars")
pytest.importorskip("opendp")

WORK = R.opendp_workload(
    [
        B.Release("count", k=12.0, label="visits"),
        B.Release("sum", k=4000.0, lower=0.0, upper=500.0, label="cost"),
    ],
    contributions=2,
)


def _files(tmp_path, suffix):
    rng = np.random.default_rng(4)
    df = pd.DataFrame(
        {
            "patient": np.repeat(np.arange(200), 3),
            "region": rng.choice(["a", "b"], size=600),
            "cost": rng.uniform(0, 600, size=600),
        }
    )
    data = tmp_path / f"visits{suffix}"
    df.to_csv(data, index=False) if suffix == ".csv" else df.to_parquet(data)
    plan = tmp_path / "plan.json"
    plan.write_text(
        R.release_plan(
            B.budget_for_accuracy(WORK),
            WORK,
            person="patient",
            contributions=2,
            by="region",
            keys={"region": ["a", "b", "c"]},
            columns={"visits": None},
            max_length=10_000,
        ),
        encoding="utf-8",
    )
    return plan, data, df


def test_without_arguments_it_prints_its_usage(capsys):
    assert script.main([]) == 2
    assert capsys.readouterr().out.startswith("usage: python -m helpers.release PLAN.json")


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_it_prints_every_cell_with_its_interval(tmp_path, capsys, suffix):
    plan, data, _ = _files(tmp_path, suffix)
    assert script.main([str(plan), str(data)]) == 0
    out = capsys.readouterr().out
    cells = [line for line in out.splitlines() if "interval [" in line]
    assert len(cells) == 2 * 3  # two releases × three public keys, "c" absent from the data
    assert all("Float Laplace" in line and "±" in line for line in cells)
    # the target and the plan beside each cell's delivered ±k (issue 48, item 4)
    assert all("; target ±12, planned ±12; " in line for line in cells if "visits" in line)
    assert "[region=c]" in out and "records whose group is not among the keys" in out


def test_a_missing_column_is_named(tmp_path, capsys):
    plan, data, df = _files(tmp_path, ".csv")
    df.drop(columns="cost").to_csv(data, index=False)
    assert script.main([str(plan), str(data)]) == 2
    assert "'cost'" in capsys.readouterr().err


def test_a_plan_round_trips():
    allocation = B.budget_for_accuracy(WORK)
    again, work, options = R.read_plan(
        R.release_plan(allocation, WORK, person="p", contributions=2, max_length=5)
    )
    assert again.budgets.tolist() == allocation.budgets.tolist()
    assert [r.label for r in work] == [r.label for r in WORK]
    assert options == {"person": "p", "contributions": 2, "max_length": 5}
    # the unit travels in the plan as an object: the run reads m from it
    assert again.unit == allocation.unit == WORK.unit and work.unit == WORK.unit
    # the targets travel beside the plan's ±k, and the means' release with the workload
    assert again.target.tolist() == allocation.target.tolist() and work.means == WORK.means
    bare, _, options = R.read_plan(R.release_plan(allocation, WORK, person="p", max_length=5))
    assert options["contributions"] == 2 and bare.unit.contributions == 2  # m always written
    # an allocation of a plain list with the unit's workload: the plan still carries m
    plain = B.budget_for_accuracy(list(WORK))
    _, _, options = R.read_plan(R.release_plan(plain, WORK, person="p", max_length=5))
    assert options["contributions"] == 2
    with pytest.raises(ValueError, match="contributions must be the allocation's m = 2"):
        R.release_plan(allocation, WORK, person="p", contributions=3, max_length=5)
    with pytest.raises(ValueError, match="text must be a plan"):
        R.read_plan("{}")
    text = R.release_plan(allocation, WORK, person="p", max_length=5)
    with pytest.raises(ValueError, match=r"text must be a plan .*contributions must be"):
        R.read_plan(text.replace('"contributions": 2', '"contributions": 0'))


def _unknown_keys_plan(tmp_path, mechanism):
    work = R.opendp_workload(
        [B.Release("count", k=12.0, label="visits")], contributions=2, keys_known=False
    )
    allocation = B.budget_for_accuracy(work, mechanism=mechanism, delta=1e-9)
    plan = tmp_path / "plan.json"
    plan.write_text(
        R.release_plan(
            allocation,
            work,
            person="patient",
            contributions=2,
            by="region",
            max_groups=4,
            delta=1e-7,
            columns={"visits": None},
            max_length=10_000,
        ),
        encoding="utf-8",
    )
    return plan, allocation


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_the_delta_spent_on_unknown_keys_is_printed_rounded_up(tmp_path, capsys, mechanism):
    _, data, _ = _files(tmp_path, ".csv")
    plan, allocation = _unknown_keys_plan(tmp_path, mechanism)
    assert script.main([str(plan), str(data)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    unit = "ε" if mechanism == "laplace" else "ρ_z"
    assert f"({unit}, δ) = (" in line
    first, delta = (float(x) for x in line.split("δ) = (")[1].split(")")[0].split(", "))
    # the numbers printed are OpenDP's loss rounded up: never below what was spent
    assert 1e-7 <= delta <= 1e-7 * (1 + 1e-5)
    assert allocation.total * (1 - 1e-9) <= first <= allocation.total * (1 + 1e-5)


def test_a_plan_for_unknown_keys_needs_a_count_of_records_and_no_other_delta():
    """The keys are released by the count of records, at its own budget: a plan allocated
    either way is the same plan (no Δ is doubled), and one without that count is refused
    when written, naming the fix."""
    counted = [B.Release("count", k=12.0, label="visits")]
    work = R.opendp_workload(counted, contributions=2, keys_known=False)
    assert work == R.opendp_workload(counted, contributions=2)
    options = {"person": "patient", "by": "region", "max_length": 10_000, "max_groups": 4}
    R.release_plan(B.budget_for_accuracy(work), work, columns={"visits": None}, **options)
    with pytest.raises(ValueError, match=r"workload must hold a count of records"):
        R.release_plan(B.budget_for_accuracy(work), work, columns={"visits": "flag"}, **options)


def test_without_a_delta_spent_none_is_printed(tmp_path, capsys):
    plan, data, _ = _files(tmp_path, ".csv")
    assert script.main([str(plan), str(data)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "ε = " in line and "δ" not in line


# --- risk numbers printed toward the person: intervals outward, coverage down ------------------

_finite = st.floats(-1e12, 1e12, allow_nan=False, allow_subnormal=False)


@settings(max_examples=200, deadline=None)
@given(
    a=_finite,
    b=_finite,
    k=st.floats(0, 1e12, allow_nan=False),
    coverage=st.floats(0.001, 0.999) | st.sampled_from([0.95, 0.975, 0.29, 0.999]),
    digits=st.integers(1, 6),
)
def test_a_printed_cell_never_reads_narrower_or_surer_than_computed(a, b, k, coverage, digits):
    lower, upper = min(a, b), max(a, b)
    row = {
        "release": "cost",
        "flagged": False,
        "value": (lower + upper) / 2,
        "lower": lower,
        "upper": upper,
        "k": k,
        "coverage": coverage,
        "distribution": "Float Laplace",
        "scale": 1.0,
    }
    line = script._cell_line(row, [], digits=digits)
    assert "target" not in line  # a row without a plan prints none
    planned = script._cell_line({**row, "target": k, "planned": k}, [], digits=digits)
    assert float(planned.split("planned ±")[1].split(";")[0]) >= k
    ends = line.split("interval [")[1].split("]")[0].split(", ")
    assert float(ends[0]) <= lower and float(ends[1]) >= upper
    assert float(line.split("(±")[1].split(" at ")[0]) >= k
    # the coverage read as the decimal it prints as (0.95 is 95 %), as round_risk reads floats
    assert Fraction(line.split(" at ")[1].split("%")[0]) / 100 <= Fraction(repr(coverage))


def test_a_coverage_of_97_5_percent_is_not_printed_as_98(tmp_path, capsys):
    plan, data, _ = _files(tmp_path, ".csv")
    options = json.loads(plan.read_text(encoding="utf-8"))
    options["options"]["coverage"] = 0.975
    plan.write_text(json.dumps(options), encoding="utf-8")
    assert script.main([str(plan), str(data)]) == 0
    cells = [line for line in capsys.readouterr().out.splitlines() if "interval [" in line]
    assert cells and all(" at 97.5%;" in line for line in cells)


def test_a_file_polars_cannot_read_is_one_line_and_exit_2(tmp_path, capsys):
    plan, data, _ = _files(tmp_path, ".csv")
    data.write_text("patient,region,cost\n1,a,2\n2,b,3,4,5\n", encoding="utf-8")
    assert script.main([str(plan), str(data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("sep", [";", "\t", "|"])
def test_a_csv_with_another_separator_is_named_and_read_with_sep(tmp_path, capsys, sep):
    plan, data, df = _files(tmp_path, ".csv")
    df.to_csv(data, index=False, sep=sep)
    assert script.main([str(plan), str(data)]) == 2
    err = capsys.readouterr().err
    assert f"DATA looks separated by {sep!r}" in err and "--sep" in err
    typed = "\\t" if sep == "\t" else sep  # a tab typed in a shell as backslash-t
    assert script.main([str(plan), str(data), "--sep", typed]) == 0
    assert "visits [region=a]" in capsys.readouterr().out
    assert script.main([str(plan), str(data), "--sep", ";;"]) == 2
    assert "--sep must be one character" in capsys.readouterr().err
    assert script.main([str(plan), str(data), "--sep"]) == 2
    assert capsys.readouterr().out.startswith("usage:")


def test_a_csv_value_that_is_no_number_is_named_by_row_and_text(tmp_path, capsys):
    plan, data, df = _files(tmp_path, ".csv")
    df["cost"] = df["cost"].round(2).astype(str)
    df.loc[417, "cost"] = "12,5"  # a decimal comma, deep in the file
    df.to_csv(data, index=False)
    assert script.main([str(plan), str(data)]) == 2
    err = capsys.readouterr().err
    assert "row 417 (from 0, after a header) holds '12,5', which is not a number" in err


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda plan: plan["options"].update(foo=1), "name 'foo', not an option"),
        (lambda plan: plan["options"].pop("person"), "lack 'person'"),
        (lambda plan: plan["allocation"].update(unit=5), "text must be a plan"),
    ],
)
def test_a_plan_edited_by_hand_is_refused_by_name_not_a_traceback(tmp_path, capsys, edit, match):
    plan, data, _ = _files(tmp_path, ".csv")
    text = json.loads(plan.read_text(encoding="utf-8"))
    edit(text)
    plan.write_text(json.dumps(text), encoding="utf-8")
    assert script.main([str(plan), str(data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and match in err and "Traceback" not in err


def test_no_group_passing_the_threshold_is_a_table_with_no_row_and_a_note(tmp_path, capsys):
    """Review: with keys not known and no group above the threshold, the table had no columns
    and the script ended in a KeyError."""
    # 8 records a group against a threshold above 100 (δ = 1e-9, noise of scale about 7): a
    # group passes only if its noise exceeds 13 scales, a chance below 1e-8 a run, so the
    # outcome does not rest on OpenDP's unseeded noise
    df = pd.DataFrame({"p": np.arange(24) // 2, "region": np.tile(["N", "S", "E"], 8)})
    work = R.opendp_workload(
        [B.Release("count", k=20.0, label="visits")], contributions=2, keys_known=False
    )
    options = {"person": "p", "by": "region", "delta": 1e-9, "max_groups": 5}
    options |= {"max_length": 10_000, "columns": {"visits": None}}
    out = R.opendp_release(df, B.budget_for_accuracy(work), work, **options)
    said = next(note for note in out.notes if "passed OpenDP's threshold of" in note)
    threshold = float(said.split("threshold of ")[1].split(" ")[0])
    assert threshold >= 100 and df.groupby("region").size().max() == 8  # the margin above
    assert len(out.table) == 0 and {"release", "region", "value", "flagged"} <= set(out.table)
    assert any(note.startswith("0 group(s) passed OpenDP's threshold of") for note in out.notes)
    data = tmp_path / "d.csv"
    df.to_csv(data, index=False)
    plan = tmp_path / "plan.json"
    plan.write_text(R.release_plan(B.budget_for_accuracy(work), work, **options), encoding="utf-8")
    assert script.main([str(plan), str(data)]) == 0
    assert "0 group(s) passed" in capsys.readouterr().out
