"""Starting values of dashboard controls: refused with a ValueError, never clamped.

ipywidgets silently clamps a slider's value into [min, max] and raises a ``TraitError`` for
a dropdown value that is not an option; a dashboard factory checks its arguments with these
first, so ``bound_dashboard(epsilon=-1)`` says what is allowed instead of starting at 0.05.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..checks import check_finite_scalar
from ..datasets import school, school_release

__all__ = ["data_and_size", "starting_choice", "starting_value"]


def starting_value(name: str, value, low: float, high: float) -> float:
    """``value`` as a float if it lies in the control's range [low, high], else ValueError."""
    number = check_finite_scalar(name, value)
    if not low <= number <= high:
        raise ValueError(
            f"{name} must lie in [{low:g}, {high:g}] (the control's range); got {value!r}"
        )
    return number


def starting_int(name: str, value, low: int, high: int) -> int:
    """An integer starting value in [low, high] (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer in {low}..{high}; got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be an integer in {low}..{high}; got {value!r}")
    return value


def starting_choice(name: str, value, options: Sequence):
    """``value`` if it is one of the control's options (values of (label, value) pairs)."""
    values = [o[1] if isinstance(o, tuple) else o for o in options]
    try:
        ok = any(value == v and type(value) is not bool for v in values)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {values!r}; got {value!r}")
    return value


def data_and_size(data, size, *, size_required: bool = False):
    """The universe and release size a dashboard starts from.

    No ``data``: the school example (``datasets.school()``, released without one record, so
    n = 3 unless ``size`` says otherwise). The reader's own data: their ``size``, which is
    required with ``size_required`` (a mapping of columns has no obvious length) and else
    defaults to one record fewer than the data (the leave-one-out release).
    """
    if data is None:
        return school(), len(school_release()) if size is None else size
    if size is None:
        if size_required:
            raise ValueError("size (the number of records released) is required with your own data")
        size = len(data) - 1
    return data, size
