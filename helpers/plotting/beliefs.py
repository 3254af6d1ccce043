"""Figure functions for the prior and posterior notebooks (01, 02): data in, Figure out."""

from __future__ import annotations

__all__: list[str] = []
