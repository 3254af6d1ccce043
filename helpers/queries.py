"""The queries a release can answer, as functions over rows of data sets.

Every query works on the last axis of an array, so one call evaluates it on thousands of
candidate data sets at once (``rows`` of shape ``(..., n)`` give an array of shape ``(...)``).
Call ``get_query`` with a name, a ``Query`` or any callable::

    get_query("mean")            get_query("percentile_90")       get_query(percentile(90))
    get_query(lambda xs: max(xs) - min(xs))     # a reader's own query, applied row by row
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["QUERY_NAMES", "Query", "get_query", "percentile"]


@dataclass(frozen=True)
class Query:
    """A named query. ``func`` maps an array ``(..., n)`` to ``(...)`` along the last axis.

    Two queries are equal (and hash alike, so caches hit) when their ``key`` is: the name
    for a built-in (``("mean",)``), the level for a percentile (``("percentile", 25.0)``),
    and the function object itself for a reader's callable. ``func`` is not compared: a
    fresh wrapper around the same callable is the same query. A reader's callable
    (``user=True``) that raises is reported as a ValueError naming it.

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

    def __call__(self, data) -> np.ndarray | float:
        values = np.asarray(data, dtype=float)
        if values.ndim == 0 or values.shape[-1] == 0:
            raise ValueError(f"query {self.name!r} needs at least one value; got {data!r}")
        try:
            result = np.asarray(self.func(values), dtype=float)
        except Exception as error:
            if not self.user:
                raise
            raise ValueError(
                f"your query {self.name!r} raised {type(error).__name__}: {error}"
            ) from error
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


def percentile(level: float) -> Query:
    """The ``level``-th percentile as a query (numpy's linear interpolation).

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
        For a level outside [0, 100] or not a number.

    Examples
    --------
    >>> percentile(25)([[1, 2, 3, 4, 5]])
    array([2.])
    """
    try:
        level = float(level)
    except (TypeError, ValueError):
        raise ValueError(f"percentile level must be a number in [0, 100]; got {level!r}") from None
    if not 0 <= level <= 100:
        raise ValueError(f"percentile level must be in [0, 100]; got {level}")
    return Query(
        f"percentile_{level:g}",
        lambda rows: np.percentile(rows, level, axis=-1),
        key=("percentile", level),
    )


def _row_by_row(func: Callable) -> Callable[[np.ndarray], np.ndarray]:
    """Wrap a reader's scalar query ``func(sequence) -> number`` to work on rows.

    It is called once per data set (a Python loop), which is fine for the few thousand
    possible worlds a reader's own example has; the built-in queries are vectorised.
    """

    def apply(rows: np.ndarray) -> np.ndarray:
        flat = rows.reshape(-1, rows.shape[-1])
        out = np.fromiter((func(row) for row in flat), dtype=float, count=flat.shape[0])
        return out.reshape(rows.shape[:-1])

    return apply


def get_query(query: str | Query | Callable) -> Query:
    """Turn a name, a ``Query`` or a callable into a ``Query``.

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
            return percentile(query.removeprefix("percentile_"))
        raise ValueError(
            f"unknown query {query!r}; known queries: {', '.join(QUERY_NAMES)}, or pass a callable"
        )
    if callable(query):
        name = getattr(query, "__name__", "custom")
        return Query(name, _row_by_row(query), key=("callable", query), user=True)
    raise ValueError(
        f"query must be a name ({', '.join(QUERY_NAMES)}) or a callable; got {query!r}"
    )
