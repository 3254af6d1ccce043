"""The shared caches: bounded by bytes, keyed by value, one clear_caches() for all of them."""

from __future__ import annotations

import numpy as np

from helpers import _cache
from helpers import leave_one_out as loo
from helpers import lee_clifton as lc
from helpers._cache import ByteBoundedCache, clear_caches, one_call, per_call, value_key


def test_the_cache_is_bounded_by_bytes():
    cache = ByteBoundedCache(100, lambda a: a.nbytes)
    for k in range(10):
        cache.get(k, lambda: np.zeros(5))  # 40 bytes each
    assert cache.used <= 100 and len(cache.entries) == 2
    assert list(cache.entries) == [8, 9]  # the oldest went first
    big = cache.get("big", lambda: np.zeros(50))  # larger than the budget: given, not kept
    assert big.size == 50 and "big" not in cache.entries


def test_a_hit_refreshes_the_entry_and_returns_the_same_object():
    cache = ByteBoundedCache(2, lambda value: 1)
    first = cache.get("a", lambda: object())
    cache.get("b", lambda: object())
    assert cache.get("a", lambda: object()) is first  # "a" is now the newest
    cache.get("c", lambda: object())  # evicts "b", the least recently used
    assert list(cache.entries) == ["a", "c"]


def test_one_entry_cache_keeps_the_latest_only():
    cache = ByteBoundedCache(1, lambda value: 1)
    cache.get("x", lambda: 1)
    cache.get("y", lambda: 2)
    assert list(cache.entries) == ["y"] and cache.used == 1


def test_one_clear_caches_empties_every_registered_cache():
    mine = ByteBoundedCache(10, lambda value: 1)
    mine.get("k", lambda: 1)
    # the package's own caches, filled through the public API
    lc.world_values([1.0, 2.0, 3.0, 10.0], 3, "mean")
    assert mine.entries and any(c.entries for c in _cache._REGISTRY if c is not mine)
    clear_caches()
    assert not mine.entries and mine.used == 0
    assert all(not c.entries and c.used == 0 for c in _cache._REGISTRY)


def test_the_paper_modules_clear_the_same_caches():
    assert lc.clear_caches is clear_caches
    ByteBoundedCache(10, lambda value: 1).get("k", lambda: 1)
    lc.world_values(np.arange(6.0), 5, "median")  # the leave-one-out path: a sorted universe
    lc.clear_caches()
    assert all(not c.entries for c in _cache._REGISTRY)
    loo.clear_cache()  # the leave-one-out module's own, narrower, clear still works


def test_keys_are_by_value_not_by_container_or_identity():
    a = np.array([1.0, 2.0, 3.0])
    assert value_key(a) == value_key(np.array([1.0, 2.0, 3.0])) == value_key(a.copy())
    assert value_key(a[::-1].copy()) != value_key(a)
    assert value_key(a[::2]) == value_key(np.array([1.0, 3.0]))  # a strided view: its values


def test_the_per_call_memo_lives_for_one_call_only():
    calls = []

    def make():
        calls.append(1)
        return len(calls)

    @one_call
    def twice():
        return per_call("k", make), per_call("k", make), per_call(["unhashable"], make)

    assert twice() == (1, 1, 2)  # memoised within the call; an unhashable key never kept
    assert twice() == (3, 3, 4)  # a fresh memo for the next call
    assert per_call("k", make) == 5  # outside a call: computed, not kept
    assert per_call("k", make) == 6

    @one_call
    def outer():
        return per_call("k", make), twice()

    assert outer() == (7, (7, 7, 8))  # an inner call shares the outer call's memo
