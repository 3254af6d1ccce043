"""helpers.budget._common: a workload's releases (every malformed field refused with the
release's index, label and field), the dict and Release forms of a workload, and the results'
fields.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _modules import BASIC_BAD_VALUES as BAD
from _modules import contract_outcome
from _workloads import COUNT, FIELDS, SUM, WORKLOAD, _fields

from helpers import budget as B


@pytest.mark.parametrize("field", FIELDS)
def test_bad_release_fields_are_value_errors_naming_the_release(field):
    problems = []
    for fn in (B.budget_for_accuracy, B.workload_sensitivities, lambda w: B.split_budget(w, 1.0)):
        for bad in [*BAD, "count"]:
            release = {"kind": "mean", "k": 1.0, "lower": 0.0, "upper": 10.0, "n": 20, field: bad}
            workload = [COUNT, SUM, release]
            outcome = contract_outcome(fn, (workload,), {}, any_runtime_warning=True)
            if outcome is not None:
                problems.append(f"{field} = {bad!r}: {outcome}"[:200])
            try:
                fn(workload)
            except ValueError as error:
                if "workload[2]" not in str(error):
                    problems.append(
                        f"{field} = {bad!r}: the message does not name workload[2]: {error}"
                    )
    assert problems == []


@pytest.mark.parametrize(
    ("release", "field"),
    [
        ({"kind": "median", "k": 1.0}, "kind"),
        ({"kind": "count", "k": -1.0}, "k"),
        ({"kind": "count", "k": "5"}, "k"),
        ({"kind": "count", "k": 1.0, "coverage": 1.0}, "coverage"),
        ({"kind": "count", "k": 1.0, "weight": 0.0}, "weight"),
        ({"kind": "sum", "k": 1.0, "lower": 0.0}, "upper"),
        ({"kind": "sum", "k": 1.0, "lower": 3.0, "upper": 3.0}, "upper must exceed lower"),
        ({"kind": "mean", "k": 1.0, "lower": 0.0, "upper": 1.0}, "n"),
        ({"kind": "mean", "k": 1.0, "lower": 0.0, "upper": 1.0, "n": 2.5}, "n"),
        ({"kind": "mean", "k": 1.0, "lower": 0.0, "upper": 1.0, "n": 0}, "n"),
        ({"kind": "count", "k": 1.0, "sensitivity": -2.0}, "sensitivity"),
        ({"kind": "count", "k": 1.0, "colour": "red"}, "'colour' is not a field"),
        ({"kind": "count"}, "k is missing"),
        ({"k": 1.0}, "kind is missing"),
    ],
)
def test_malformed_release_is_refused_by_index_label_and_field(release, field):
    workload = [COUNT, SUM, {**release, "label": "third"}]
    with pytest.raises(ValueError) as error:
        B.budget_for_accuracy(workload)
    message = str(error.value)
    assert message.startswith("workload[2] ('third'): ")
    assert field in message


def test_a_release_object_with_a_bad_field_is_refused_too():
    with pytest.raises(ValueError, match=r"workload\[1\]: n must be an integer"):
        B.budget_for_accuracy([COUNT, B.Release("mean", k=1.0, lower=0, upper=1, n=-3)])
    with pytest.raises(ValueError, match="list of Release"):
        B.budget_for_accuracy(COUNT)
    with pytest.raises(ValueError, match="at least one release"):
        B.budget_for_accuracy([])
    with pytest.raises(ValueError, match=r"workload\[0\] must be a Release"):
        B.budget_for_accuracy([("count", 5.0)])


def test_release_options_are_keyword_only():
    with pytest.raises(TypeError):
        B.Release("count", 5.0)  # k positionally
    with pytest.raises(AttributeError):
        COUNT.k = 3.0  # frozen


def test_dicts_and_releases_are_the_same_workload():
    as_dicts = [_fields(r) for r in WORKLOAD]
    a = B.budget_for_accuracy(as_dicts)
    b = B.budget_for_accuracy(WORKLOAD)
    assert a.total == b.total and np.array_equal(a.scales, b.scales)


def test_named_tuples_and_fields():
    allocation = B.budget_for_accuracy(WORKLOAD)
    assert isinstance(allocation, B.Allocation) and allocation.mechanism == "laplace"
    assert allocation.delta == 0.0 and allocation.epsilon == allocation.total
    gaussian = B.budget_for_accuracy(WORKLOAD, mechanism="gaussian", delta=1e-9)
    assert gaussian.delta == 1e-9 and gaussian.epsilon > gaussian.total
    assert list(itertools.islice(B.Guarantee(1.0, 0.0), 2)) == [1.0, 0.0]
