"""Tiny timing helper shared by the benchmark modules."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(func: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """Best wall time in seconds of ``number`` calls, over ``repeat`` rounds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"
