"""The caches of the math modules, one design (private to the math layer, like
:mod:`helpers._numerics`).

Three pieces, used by :mod:`helpers.lee_clifton` (world tables, Δf) and
:mod:`helpers.leave_one_out` (the sorted universe):

* :func:`value_key`, a blake2b digest of an array's values: caches key universes by value,
  never by identity, so an equal list, tuple or array finds the same entry and an array
  changed in place does not;
* :class:`ByteBoundedCache`, least recently used, evicted by total size rather than count;
  every instance is registered, so that :func:`clear_caches` empties them all;
* :func:`one_call` and :func:`per_call`, a memo that lives for one public call only: a
  reader's callable may read a list, a slider or a global, so its answers are never kept
  across calls, but within one call that needs them several times (``analysis_table``) it
  runs once.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import weakref
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

__all__ = ["ByteBoundedCache", "clear_caches", "one_call", "per_call", "value_key"]

# every cache of the package, so that one clear_caches() empties them all (weak: a cache that
# is no longer used anywhere is not kept alive by the registry)
_REGISTRY: weakref.WeakSet = weakref.WeakSet()


def value_key(values: np.ndarray) -> bytes:
    """A 16-byte blake2b digest of an array's values (its bytes, C order).

    Milliseconds for a million doubles, against a tenth of a second to sort them; equal
    values give equal keys whatever container they came in.

    >>> value_key(np.array([1.0, 2.0])) == value_key(np.array([1.0, 2.0]))
    True
    """
    return hashlib.blake2b(np.ascontiguousarray(values), digest_size=16).digest()


class ByteBoundedCache:
    """A least-recently-used cache whose entries are evicted by total size, not count.

    ``size_of(value)`` gives an entry's size (bytes, or any unit of ``budget``); an entry
    larger than the whole budget is computed and returned but not kept. With
    ``size_of=lambda value: 1`` and ``budget=1`` it keeps the latest entry only.

    >>> cache = ByteBoundedCache(100, size_of=lambda a: a.nbytes)
    >>> cache.get("k", lambda: np.zeros(5)).size, cache.used
    (5, 40)
    """

    def __init__(self, budget: int, size_of: Callable[[object], int]):
        self.budget = budget
        self.size_of = size_of
        self.entries: OrderedDict = OrderedDict()
        self.used = 0
        _REGISTRY.add(self)

    def get(self, key, make: Callable[[], object]):
        """The entry for ``key``, made by ``make()`` (and kept, oldest evicted) on a miss."""
        if key in self.entries:
            self.entries.move_to_end(key)
            return self.entries[key]
        value = make()
        size = self.size_of(value)
        if size <= self.budget:
            while self.used + size > self.budget:
                _, old = self.entries.popitem(last=False)
                self.used -= self.size_of(old)
            self.entries[key] = value
            self.used += size
        return value

    def clear(self) -> None:
        """Forget every entry."""
        self.entries.clear()
        self.used = 0


def clear_caches() -> None:
    """Forget every cached world table, Δf, sorted universe (built-in queries only) and
    single-release privacy-loss distribution (:mod:`helpers.budget`).

    The caches never answer for different behaviour (they key built-in queries by name and
    universes by value, and never hold a reader's callable); clearing them is for timing a
    cold start or freeing memory.

    Not called in a notebook; no other helper uses it.

    Examples
    --------
    >>> clear_caches()
    """
    for cache in list(_REGISTRY):
        cache.clear()


# Within one public call that needs a table or Δf several times (analysis_table,
# bound_curves), a reader's callable is evaluated once: this holds those answers for the
# duration of that call only (never across calls: the callable may read state that changes).
_CALL_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "helpers_call_memo", default=None
)


def one_call(func):
    """Run ``func`` with a fresh per-call memo (kept if an outer call already opened one)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if _CALL_MEMO.get() is not None:
            return func(*args, **kwargs)
        token = _CALL_MEMO.set({})
        try:
            return func(*args, **kwargs)
        finally:
            _CALL_MEMO.reset(token)

    return wrapper


def per_call(key, make: Callable[[], object]):
    """``make()``, memoised under ``key`` for the current :func:`one_call` call only.

    Outside such a call, or for a key that cannot be hashed, it is computed afresh: nothing
    is kept.
    """
    memo = _CALL_MEMO.get()
    try:
        hash(key)
    except TypeError:  # a key that cannot be hashed: compute, do not keep
        memo = None
    if memo is None:
        return make()
    if key not in memo:
        memo[key] = make()
    return memo[key]
