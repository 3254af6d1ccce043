"""Figure functions for the kazan reiter notebooks: data in, matplotlib Figure out."""

from __future__ import annotations

__all__: list[str] = []
