"""The queries a release can answer, as functions over rows of data sets.

Every query works on the last axis of an array, so one call evaluates it on thousands of
candidate data sets at once (``rows`` of shape ``(..., n)`` give an array of shape ``(...)``).
Call ``get_query`` with a name, a ``Query`` or any callable::

    get_query("mean")            get_query("percentile_90")       get_query(percentile(90))
    get_query(lambda xs: max(xs) - min(xs))     # a reader's own query, applied row by row
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ._validation import check_real

__all__ = ["QUERY_NAMES", "Query", "get_query", "percentile"]


@dataclass(frozen=True)
class Query:
    """A named query. ``func`` maps an array ``(..., n)`` to ``(...)`` along the last axis.

    Two queries are equal when their ``key`` is: the name for a built-in (``("mean",)``),
    the level for a percentile (``("percentile", 25.0)``), and the function object itself
    for a reader's callable. ``func`` is not compared: a fresh wrapper around the same
    callable is the same query. Equal keys do not make a query cacheable: only a built-in
    (``built_in``) is, because only its behaviour is fixed by its key; a reader's callable
    can read a list, a slider or a global that changes between two calls. A reader's
    callable (``user=True``) that raises is reported as a ValueError naming it.

    Examples
    --------
    >>> get_query("mean") == Query("mean", np.mean, key=("mean",))
    True
    >>> get_query("mean")([[1, 2, 3], [4, 5, 9]])
    array([2., 6.])
    """

    name: str
    func: Callable[[np.ndarray], np.ndarray] = field(compare=False, repr=False)
    key: tuple = ()
    #: True for a reader's own callable: its errors are wrapped, it gets no fast paths
    user: bool = field(default=False, compare=False)

    def __post_init__(self):
        if not self.key:
            object.__setattr__(self, "key", ("callable", self.func))

    @property
    def built_in(self) -> bool:
        """True for one of this module's queries: its own implementation under its own key.

        Only such a query is a fixed function of the data, so only it may be cached by its
        key and answered by a fast path (``helpers.leave_one_out``). A ``Query`` wrapping
        the built-in function under another key, or any other function under a built-in's
        key, is not built in.

        Examples
        --------
        >>> get_query("mean").built_in, get_query("percentile_25").built_in
        (True, True)
        >>> get_query(lambda xs: max(xs)).built_in, Query("mean", np.mean, key=("mean",)).built_in
        (False, False)
        """
        if self.user:
            return False
        if isinstance(self.func, _Percentile):
            return self.key == ("percentile", self.func.level)
        name = self.key[0] if len(self.key) == 1 else None
        return isinstance(name, str) and _BUILT_IN.get(name) is self.func

    def shift_weight(self, size: int) -> float | None:
        """w such that f(x + c) = f(x) + w·c for every data set x of ``size`` records.

        1 for the mean and the order statistics (median, min, max, percentiles), 0 for the
        count, variance and standard deviation, ``size`` for the sum; ``None`` when it is
        not known (any query that is not ``built_in``). It lets a query be evaluated on
        records centred near their middle, where a large common offset costs no digits.

        Examples
        --------
        >>> get_query("median").shift_weight(3), get_query("sum").shift_weight(3)
        (1.0, 3.0)
        """
        if not self.built_in:
            return None
        kind = "percentile" if isinstance(self.func, _Percentile) else self.key[0]
        return {"sum": float(size), "count": 0.0, "variance": 0.0, "std": 0.0}.get(kind, 1.0)

    @property
    def order_statistic(self) -> bool:
        """True for a built-in whose value is a record or an interpolation between two.

        Examples
        --------
        >>> get_query("max").order_statistic, get_query("mean").order_statistic
        (True, False)
        """
        if not self.built_in:
            return False
        return isinstance(self.func, _Percentile) or self.key[0] in {"median", "min", "max"}

    def centre_for(self, universe: np.ndarray) -> float:
        """A centre c at which this query loses no digits to a large common offset, or 0.

        Evaluated on ``universe − c`` (and moved back by ``shift_weight(n)·c``), a built-in
        sees values of the size of their spread instead of their offset: at an offset of
        10¹⁴ a mean in plain floating point has lost seven of its sixteen digits. c is the
        middle record, used only when ``x − c`` is exact for every record x (two-sum error
        zero): then no two different records can become one, and ties stay exact. Otherwise,
        for the count and for any query that is not ``built_in``, the answer is 0.0 (use the
        records as they are).

        Parameters
        ----------
        universe : ndarray of float, shape (N,)
            Validated, finite values.

        Returns
        -------
        float

        Examples
        --------
        >>> get_query("mean").centre_for(np.array([1e14 + 1, 1e14 + 2, 1e14 + 9]))
        100000000000002.0
        >>> get_query("mean").centre_for(np.array([1e-3, 2.0, 1e14]))  # 1e-3 − 2 rounds
        0.0
        """
        weight = self.shift_weight(1)
        if weight is None or self.key == ("count",) or universe.size == 0:
            return 0.0
        centre = float(np.partition(universe, universe.size // 2)[universe.size // 2])
        if centre == 0.0:
            return 0.0
        # Knuth's two-sum: the exact rounding error of x − c (no overflow within ±1e150)
        y = universe - centre
        back = y - universe
        error = (universe - (y - back)) + (-centre - back)
        return centre if not np.any(error) else 0.0

    def __call__(self, data) -> np.ndarray | float:
        if isinstance(data, np.ndarray) and data.dtype == np.float64:
            values = data  # the engine's own blocks of worlds: already validated
        else:  # a string, a list of strings, None ... is refused, never coerced
            values = check_real("data", data)
        if values.ndim == 0 or values.shape[-1] == 0:
            raise ValueError(f"query {self.name!r} needs at least one value; got {data!r}")
        try:
            raw = self.func(values)
        except _NotOneNumber:
            raise
        except Exception as error:
            if not self.user:
                raise
            raise ValueError(
                f"your query {self.name!r} raised {type(error).__name__}: {error}"
            ) from error
        result = np.asarray(raw)
        if result.dtype.kind not in "iuf":
            raise ValueError(
                f"query {self.name!r} must return numbers; got {_shown(raw)} "
                f"(of dtype {result.dtype})"
            )
        result = result.astype(float)
        if result.shape != values.shape[:-1]:
            raise ValueError(
                f"query {self.name!r} returned shape {result.shape} for data of shape {values.shape}; "
                "a query must map each data set to one number"
            )
        if not np.all(np.isfinite(result)):
            raise ValueError(f"query {self.name!r} returned NaN or infinity on some data set")
        return float(result) if result.ndim == 0 else result


def _count(rows: np.ndarray) -> np.ndarray:
    return np.full(rows.shape[:-1], float(rows.shape[-1]))


_BUILT_IN: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "mean": lambda rows: np.mean(rows, axis=-1),
    "median": lambda rows: np.median(rows, axis=-1),
    "variance": lambda rows: np.var(rows, axis=-1),  # population variance, ddof=0
    "std": lambda rows: np.std(rows, axis=-1),  # population standard deviation
    "sum": lambda rows: np.sum(rows, axis=-1),
    "count": _count,
    "min": lambda rows: np.min(rows, axis=-1),
    "max": lambda rows: np.max(rows, axis=-1),
}
QUERY_NAMES = (*_BUILT_IN, "percentile_<level>")


class _Percentile:
    """np.percentile at one level along the last axis: the built-in percentile queries."""

    __slots__ = ("level",)

    def __init__(self, level: float):
        self.level = level

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        return np.percentile(rows, self.level, axis=-1)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def percentile(level: float) -> Query:
    """The ``level``-th percentile as a query (numpy's linear interpolation).

    Not called in a notebook; used by ``helpers.leave_one_out``.

    Parameters
    ----------
    level : float
        In [0, 100]; 50 is the median.

    Returns
    -------
    Query

    Raises
    ------
    ValueError
        For a level outside [0, 100] or not a number (a string such as ``'50'`` and a
        ``bool`` are refused, not converted).

    Examples
    --------
    >>> percentile(25)([[1, 2, 3, 4, 5]])
    array([2.])
    """
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Real):
        raise ValueError(
            f"percentile level must be a number in [0, 100]; got {_shown(level)} "
            f"(a {type(level).__name__})"
        )
    if not 0 <= level <= 100:  # compared as given: a 400-digit int does not overflow here
        raise ValueError(f"percentile level must be in [0, 100]; got {_shown(level)}")
    return _percentile(float(level))


def _percentile(level: float) -> Query:
    if not 0 <= level <= 100:  # NaN fails too
        raise ValueError(f"percentile level must be in [0, 100]; got {level}")
    return Query(f"percentile_{level:g}", _Percentile(level), key=("percentile", level))


def _row_by_row(func: Callable) -> Callable[[np.ndarray], np.ndarray]:
    """Wrap a reader's scalar query ``func(sequence) -> number`` to work on rows.

    It is called once per data set (a Python loop), which is fine for the few thousand
    possible worlds a reader's own example has; the built-in queries are vectorised.
    """

    name = getattr(func, "__name__", "custom")

    def apply(rows: np.ndarray) -> np.ndarray:
        flat = rows.reshape(-1, rows.shape[-1])
        out = np.empty(flat.shape[0])
        for k, row in enumerate(flat):
            out[k] = _one_number(func(row), row, name)
        return out.reshape(rows.shape[:-1])

    return apply


class _NotOneNumber(ValueError):
    """A reader's query answered a data set with something other than one real number."""


def _one_number(value: object, row: np.ndarray, name: str) -> float:
    """A reader's query's answer for one data set, refused unless it is one real number."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iuf":
        value = value.reshape(()).item()
    if not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Real):
        try:
            return float(value)
        except OverflowError:  # a Python int beyond the float range
            pass
    raise _NotOneNumber(
        f"your query {name!r} must return one real number per data set; got {_shown(value)} "
        f"(a {type(value).__name__}) for the data set {_shown(row.tolist())}"
    )


def get_query(query: str | Query | Callable) -> Query:
    """Turn a name, a ``Query`` or a callable into a ``Query``.

    Not called in a notebook; used by ``helpers.leave_one_out``, ``helpers.lee_clifton``, ``helpers.plotting.lee_clifton``, ``helpers.sensitivity``, ``helpers.widgets.beliefs`` and ``helpers.widgets.lee_clifton``.

    Parameters
    ----------
    query : str, Query or callable
        A name from ``QUERY_NAMES`` ("percentile_<level>" for any level), a ``Query``, or a
        function of one data set (a sequence of numbers) returning one number.

    Returns
    -------
    Query

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known ones) or anything else.

    Examples
    --------
    >>> get_query("median")([1, 2, 10])
    2.0
    >>> get_query(lambda xs: max(xs) - min(xs))([[1, 2, 10], [3, 3, 4]])
    array([9., 1.])
    """
    if isinstance(query, Query):
        return query
    if isinstance(query, str):
        if query in _BUILT_IN:
            return Query(query, _BUILT_IN[query], key=(query,))
        if query.startswith("percentile_"):
            suffix = query.removeprefix("percentile_")
            try:
                level = float(suffix)
            except ValueError:
                raise ValueError(
                    f"percentile level must be a number in [0, 100]; got {suffix!r} in {query!r}"
                ) from None
            return _percentile(level)
        raise ValueError(
            f"unknown query {query!r}; known queries: {', '.join(QUERY_NAMES)}, or pass a callable"
        )
    if callable(query):
        name = getattr(query, "__name__", "custom")
        return Query(name, _row_by_row(query), key=("callable", query), user=True)
    raise ValueError(
        f"query must be a name ({', '.join(QUERY_NAMES)}) or a callable; got {query!r}"
    )
