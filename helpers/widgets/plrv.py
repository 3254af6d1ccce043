"""Dashboards (ipywidgets) for the plrv notebooks; see _base.Dashboard."""

from __future__ import annotations

__all__: list[str] = []
