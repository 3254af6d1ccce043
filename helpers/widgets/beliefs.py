"""Dashboards (ipywidgets) for the prior and posterior notebooks (01, 02)."""

from __future__ import annotations

__all__: list[str] = []
